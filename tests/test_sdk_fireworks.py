"""Fireworks payloads are valid for Fireworks' own SDK types (fireworks-ai), made strict.

spec/providers/fireworks.yaml extends openai_chat: tests/test_sdk_validation.py already checks every
Fireworks fixture and rendered payload against openai.types.chat (the family's checker). This module
checks them against the fireworks-ai SDK (Stainless-generated from the API reference's OpenAPI
document, where every schema has ``additionalProperties: false``):

* requests: ``fireworks.types.chat.completion_create_params.CompletionCreateParamsNonStreaming``, a
  TypedDict made strict as tests/sdk_validation.py does for OpenAI (unknown keys are errors,
  ``Iterable[X]`` is validated as a list);
* responses: ``fireworks.types.chat.CompletionCreateResponse`` (pydantic, ``extra="allow"``): every
  undeclared key is an error.

The SDK types some enums as plain ``str``; the API reference says which values exist, and they are
checked here: ``ChatMessage.role`` ("One of `system`, `user`, or `assistant`", plus ``tool`` for
results, Tool Calling guide), content part ``type`` (``text``, ``image_url``; ``video_url`` in the
SDK), tool-call ``type`` (``function``) and ``finish_reason`` (stop, length, function_call,
tool_calls: ChatCompletionResponseStreamChoice).
"""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

import toolwire

from conftest import scenarios
from sdk_validation import _StrictTypedDicts, _undeclared_keys

fireworks_chat = pytest.importorskip("fireworks.types.chat")

PROVIDER = "fireworks"
SCENARIOS = scenarios()
KINDS = ("request", "response")

ROLES = {"system", "user", "assistant", "tool"}
PART_TYPES = {"text", "image_url", "video_url"}
FINISH_REASONS = {"stop", "length", "function_call", "tool_calls"}
# Keys of the openai_chat family that Fireworks does not declare. Rendering Fireworks from an OpenAI
# Chat payload carries unknown keys over (a spec that `extends` shares its parent's provider_data):
# an OpenAI response's refusal / annotations / service_tier / system_fingerprint come along.
OPENAI_ONLY_RESPONSE_KEYS = {"refusal", "annotations", "service_tier", "system_fingerprint"}


def _request_adapter() -> TypeAdapter:
    strict = _StrictTypedDicts()
    try:
        strict.patch(fireworks_chat.completion_create_params.CompletionCreateParamsNonStreaming)
        adapter = TypeAdapter(fireworks_chat.completion_create_params.CompletionCreateParamsNonStreaming)
    finally:
        strict.restore()
    assert adapter.pydantic_complete
    return adapter


REQUEST = _request_adapter()


def _enum_errors(kind: str, payload: Any) -> list[str]:
    """Values the API reference does not list, where the SDK types the field as a plain string."""
    errors = []
    messages = payload.get("messages", []) if kind == "request" else [c.get("message", {}) for c in payload.get("choices", [])]
    where = "messages" if kind == "request" else "choices[].message"
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict):
            continue
        if msg.get("role") not in ROLES:
            errors.append(f"{where}[{i}].role: {msg.get('role')!r} is not one of {sorted(ROLES)}")
        if isinstance(msg.get("content"), list):
            for j, part in enumerate(msg["content"]):
                if isinstance(part, dict) and part.get("type") not in PART_TYPES:
                    errors.append(f"{where}[{i}].content[{j}].type: {part.get('type')!r} is not one of {sorted(PART_TYPES)}")
        for j, call in enumerate(msg.get("tool_calls") or []):
            if isinstance(call, dict) and call.get("type", "function") != "function":
                errors.append(f"{where}[{i}].tool_calls[{j}].type: {call.get('type')!r} is not 'function'")
    if kind == "response":
        for i, choice in enumerate(payload.get("choices", [])):
            reason = choice.get("finish_reason")
            if reason is not None and reason not in FINISH_REASONS:
                errors.append(f"choices[{i}].finish_reason: {reason!r} is not one of {sorted(FINISH_REASONS)}")
    return errors


def validate(kind: str, payload: Any) -> list[str]:
    """Errors of ``payload`` (a Fireworks request or response body) for the fireworks-ai types."""
    text = json.dumps(payload)
    try:
        if kind == "request":
            REQUEST.validate_json(text, strict=True)
            errors = []
        else:
            errors = _undeclared_keys(fireworks_chat.CompletionCreateResponse.model_validate_json(text, strict=True))
    except ValidationError as exc:
        errors = [f"{'.'.join(map(str, e['loc'])) or '<root>'}: {e['msg']}" for e in exc.errors()]
    return errors + _enum_errors(kind, payload)


def _report(errors: list[str], what: str) -> str:
    return f"{what} is invalid for the fireworks-ai types:\n  " + "\n  ".join(errors)


FIXTURES = [(s, k) for s, docs in SCENARIOS.items() if PROVIDER in docs for k in KINDS]
RENDERS = [(s, source, k) for s, docs in SCENARIOS.items() for source in docs for k in KINDS]


@pytest.mark.parametrize("scenario,kind", FIXTURES, ids=["-".join(f) for f in FIXTURES])
def test_fixture_is_valid_for_fireworks_sdk(scenario, kind):
    errors = validate(kind, SCENARIOS[scenario][PROVIDER][kind])
    assert errors == [], _report(errors, f"fixtures/{scenario}/{PROVIDER}.json {kind}")


def _family(provider: str) -> str:
    return __import__(f"toolwire.providers.{provider}", fromlist=["FAMILY"]).FAMILY


@pytest.mark.parametrize("scenario,source,kind", RENDERS, ids=["-".join(r) for r in RENDERS])
def test_rendered_payload_is_valid_for_fireworks_sdk(scenario, source, kind):
    payload = SCENARIOS[scenario][source][kind]
    model = "model-from-caller" if kind == "request" and "model" not in payload else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)  # losses are tested elsewhere
        rendered = toolwire.convert(payload, source=source, target=PROVIDER, kind=kind, model=model)
    errors = validate(kind, rendered)
    if kind == "response" and _family(source) == "openai_chat":
        # family carry-over (see OPENAI_ONLY_RESPONSE_KEYS): the only keys allowed to be reported
        errors = [e for e in errors if not any(e.startswith(k) or f".{k}:" in e for k in OPENAI_ONLY_RESPONSE_KEYS)]
    assert errors == [], _report(errors, f"{scenario}: {source} → {PROVIDER} {kind}")


# --- the checker rejects what it must -----------------------------------------------------------

BASE = SCENARIOS["get_weather"][PROVIDER]


def _errors_after(kind: str, mutate) -> list[str]:
    payload = copy.deepcopy(BASE[kind])
    mutate(payload)
    return validate(kind, payload)


def test_rejects_a_message_name():
    """API reference, ChatMessage: no `name` (additionalProperties: false)."""
    errors = _errors_after("request", lambda p: p["messages"][1].update(name="alice"))
    assert any("messages.1" in e and "name" in e for e in errors), errors


def test_rejects_an_unknown_request_key():
    errors = _errors_after("request", lambda p: p.update(tool_choise="auto"))
    assert any("tool_choise" in e for e in errors), errors


def test_rejects_a_wrong_tool_choice_and_accepts_any():
    assert _errors_after("request", lambda p: p.update(tool_choice="any")) == []
    assert _errors_after("request", lambda p: p.update(tool_choice="always")) != []


def test_rejects_arguments_that_are_not_text_or_object():
    errors = _errors_after("request", lambda p: p["messages"][2]["tool_calls"][0]["function"].update(arguments=["Tokyo"]))
    assert any("arguments" in e for e in errors), errors


def test_rejects_an_unknown_role_part_type_and_finish_reason():
    assert any(".role:" in e for e in _errors_after("request", lambda p: p["messages"][1].update(role="developer")))
    part = {"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}
    assert _errors_after("request", lambda p: p["messages"][1].update(content=[part])) != []
    assert any("finish_reason" in e for e in _errors_after("response", lambda p: p["choices"][0].update(finish_reason="content_filter")))


def test_rejects_undeclared_response_keys():
    errors = _errors_after("response", lambda p: p.update(system_fingerprint="fp_1"))
    assert any("system_fingerprint" in e for e in errors), errors
    errors = _errors_after("response", lambda p: p["choices"][0]["message"].update(refusal=None))
    assert any("refusal" in e for e in errors), errors


def test_the_family_checker_knows_the_request_fields_fireworks_documents_beyond_openai():
    """tests/sdk_validation.py checks Fireworks bodies with openai.types.chat plus a declared list of
    Fireworks' own request fields: each must be a Fireworks field (fireworks-ai's
    CompletionCreateParamsBase) that OpenAI's params lack, and be checked against its declared type."""
    from openai.types.chat import completion_create_params as openai_params

    from sdk_validation import EXTRA_REQUEST_FIELDS, validate

    fireworks_keys = set(fireworks_chat.completion_create_params.CompletionCreateParamsBase.__annotations__)
    openai_keys = set(openai_params.CompletionCreateParamsBase.__annotations__)
    assert EXTRA_REQUEST_FIELDS[PROVIDER]
    for key in EXTRA_REQUEST_FIELDS[PROVIDER]:
        assert key in fireworks_keys and key not in openai_keys, key
    body = {"model": "accounts/fireworks/models/llama-v3p1-8b-instruct", "messages": [{"role": "user", "content": "Hi"}]}
    assert validate(PROVIDER, "request", {**body, "top_k": 40}) == []
    assert validate(PROVIDER, "request", {**body, "top_k": 101}) == ["top_k: Input should be less than or equal to 100 (got 101)"]
    assert validate(PROVIDER, "request", {**body, "top_k": "40"})
    assert validate("openai_chat", "request", {**body, "top_k": 40}) == ["top_k: Extra inputs are not permitted"]
    out = toolwire.convert({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], "generationConfig": {"topK": 40}},
                           source="gemini", target=PROVIDER, model=body["model"])
    assert out["top_k"] == 40 and validate(PROVIDER, "request", out) == []
