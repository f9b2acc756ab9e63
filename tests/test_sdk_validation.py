"""Every golden fixture and every payload toolwire renders is valid for the official SDK types.

The checker lives in ``sdk_validation.py``; the second half of this module proves it rejects what it
must (unknown keys, wrong value types, wrong roles, unknown enum values), so a pass means something.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any, Callable

import pytest
from pydantic import TypeAdapter

import toolwire

from conftest import scenarios
from sdk_validation import SDK_TYPES, validate

SCENARIOS = scenarios()
KINDS = ("request", "response")

FIXTURES = [(s, p, k) for s, docs in SCENARIOS.items() for p in docs for k in KINDS]
RENDERS = [
    (s, source, target, k)
    for s, docs in SCENARIOS.items()
    for source in docs
    for target in toolwire.PROVIDERS
    for k in KINDS
]


def _report(errors: list[str], what: str) -> str:
    return f"{what} is invalid for the SDK types:\n  " + "\n  ".join(errors)


@pytest.mark.parametrize("scenario,provider,kind", FIXTURES, ids=["-".join(f) for f in FIXTURES])
def test_fixture_is_valid(scenario: str, provider: str, kind: str) -> None:
    errors = validate(provider, kind, SCENARIOS[scenario][provider][kind])
    assert errors == [], _report(errors, f"fixtures/{scenario}/{provider}.json {kind}")


@pytest.mark.parametrize("scenario,source,target,kind", RENDERS, ids=["-".join(r) for r in RENDERS])
def test_rendered_payload_is_valid(scenario: str, source: str, target: str, kind: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)  # losses are tested elsewhere
        payload = SCENARIOS[scenario][source][kind]
        # a Gemini body names no model (it is in the URL): the caller supplies the target's
        model = "model-from-caller" if kind == "request" and "model" not in payload else None
        rendered = toolwire.convert(payload, source=source, target=target, kind=kind, model=model)
    errors = validate(target, kind, rendered)
    assert errors == [], _report(errors, f"{scenario}: {source} → {target} {kind}")


# --- the checker rejects what it must -------------------------------------------------------------


BASE = SCENARIOS["get_weather"]  # the payloads mutated below


def _new_errors(provider: str, kind: str, mutate: Callable[[Any], None]) -> list[str]:
    """Errors a mutation of the get_weather fixture adds (whatever the fixture itself reports)."""
    base = BASE[provider][kind]
    payload = copy.deepcopy(base)
    mutate(payload)
    before = set(validate(provider, kind, base))
    return [e for e in validate(provider, kind, payload) if e not in before]


def _has(errors: list[str], path: str, *words: str) -> bool:
    return any(e.startswith(f"{path}:") and all(w in e for w in words) for e in errors)


def _setitem(path: list, value: Any) -> Callable[[Any], None]:
    def mutate(payload: Any) -> None:
        for key in path[:-1]:
            payload = payload[key]
        payload[path[-1]] = value

    return mutate


def _rename(path: list, old: str, new: str) -> Callable[[Any], None]:
    def mutate(payload: Any) -> None:
        for key in path:
            payload = payload[key]
        payload[new] = payload.pop(old)

    return mutate


def test_anthropic_misspelled_key_in_tool_result() -> None:
    errors = _new_errors(
        "anthropic",
        "request",
        _rename(["messages", 2, "content", 0], "tool_use_id", "tool_use_idx"),
    )
    assert _has(errors, "messages[2].content[0].tool_use_idx", "Extra inputs"), errors
    assert _has(errors, "messages[2].content[0].tool_use_id", "Field required"), errors


def test_openai_chat_arguments_must_be_a_string() -> None:
    path = ["messages", 2, "tool_calls", 0, "function", "arguments"]
    errors = _new_errors("openai_chat", "request", _setitem(path, {"location": "Tokyo"}))
    assert _has(errors, "messages[2].tool_calls[0].function.arguments", "valid string"), errors


def test_openai_chat_wrong_role() -> None:
    errors = _new_errors("openai_chat", "request", _setitem(["messages", 1, "role"], "model"))
    assert _has(errors, "messages[1]", "'model'", "'assistant'"), errors


def test_anthropic_wrong_role() -> None:
    errors = _new_errors("anthropic", "request", _setitem(["messages", 1, "role"], "model"))
    assert _has(errors, "messages[1]", "'model'", "'assistant'"), errors


def test_anthropic_unknown_key_in_block_that_a_response_model_would_accept() -> None:
    """Anthropic content unions also admit response ContentBlock models, which allow extra keys."""
    path = ["messages", 1, "content", 0, "caller_id"]
    errors = _new_errors("anthropic", "request", _setitem(path, "x"))
    assert _has(errors, "messages[1].content[0].caller_id", "Extra inputs"), errors
    assert _has(errors, "messages[1].content[0]", "caller_id: key not declared by ToolUseBlock")


def test_requests_are_validated_strictly() -> None:
    errors = _new_errors("openai_chat", "request", _setitem(["max_completion_tokens"], "1024"))
    assert _has(errors, "max_completion_tokens", "valid integer"), errors


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("provider", [p for p in toolwire.PROVIDERS if p in BASE])
def test_unknown_top_level_key(provider: str, kind: str) -> None:
    errors = _new_errors(provider, kind, _setitem(["tool_choise"], "auto"))
    assert any(e.startswith("tool_choise:") for e in errors), errors


def test_responses_misspelled_key_in_input_item() -> None:
    item = next(
        i
        for i, x in enumerate(BASE["openai_responses"]["request"]["input"])
        if x.get("type") == "function_call_output"
    )
    errors = _new_errors(
        "openai_responses", "request", _rename(["input", item], "call_id", "call_idd")
    )
    assert _has(errors, f"input[{item}].call_idd", "Extra inputs"), errors


def test_responses_input_items_are_validated_not_iterated_lazily() -> None:
    errors = _new_errors("openai_responses", "request", _setitem(["input", 0], 42))
    assert any(e.startswith("input[0]") for e in errors), errors


@pytest.mark.parametrize(
    "provider,path,key",
    [
        ("openai_chat", ["choices", 0, "message"], "reasoning"),
        ("openai_responses", ["output", 0, "content", 0], "citations"),
        ("anthropic", ["content", 0], "citation"),
        ("anthropic", ["usage"], "total_tokens"),
    ],
)
def test_undeclared_response_key(provider: str, path: list, key: str) -> None:
    errors = _new_errors(provider, "response", _setitem([*path, key], "x"))
    dotted = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert _has(errors, f"{dotted}.{key}", "not declared"), errors


def test_response_value_types_are_checked() -> None:
    errors = _new_errors("anthropic", "response", _setitem(["stop_reason"], "finished"))
    assert _has(errors, "stop_reason", "'end_turn'"), errors


def test_gemini_unknown_function_calling_mode() -> None:
    errors = _new_errors(
        "gemini", "request", _setitem(["toolConfig", "functionCallingConfig", "mode"], "ALWAYS")
    )
    assert _has(
        errors, "toolConfig.functionCallingConfig.mode", "'ALWAYS'", "FunctionCallingConfigMode"
    ), errors


def test_gemini_unknown_finish_reason() -> None:
    errors = _new_errors("gemini", "response", _setitem(["candidates", 0, "finishReason"], "BOGUS"))
    assert _has(errors, "candidates[0].finishReason", "'BOGUS'", "FinishReason"), errors


def test_gemini_unknown_key_in_part() -> None:
    errors = _new_errors(
        "gemini", "request", _setitem(["contents", 0, "parts", 0, "functionCal"], {})
    )
    assert _has(errors, "contents[0].parts[0].functionCal", "Extra inputs"), errors


def test_gemini_role() -> None:
    errors = _new_errors("gemini", "request", _setitem(["contents", 1, "role"], "assistant"))
    assert _has(errors, "contents[1].role", "'assistant'"), errors


def test_gemini_bytes_must_be_base64() -> None:
    part = {"inlineData": {"mimeType": "image/png", "data": "not base64!"}}
    errors = _new_errors("gemini", "request", _setitem(["contents", 0, "parts", 0], part))
    assert any(e.startswith("contents[0].parts[0].inlineData.data") for e in errors), errors


def test_sdk_classes_are_left_as_they_were() -> None:
    """The strict rewrite is confined to the checker's adapters: the SDK's own TypedDicts still
    have their string annotations and no config of ours, so a plain adapter stays lax."""
    params = SDK_TYPES["anthropic", "request"]
    assert "__pydantic_config__" not in params.__dict__
    assert "Iterable" in str(params.__annotations__["messages"])
    lax = TypeAdapter(params).validate_python(
        {"model": "m", "max_tokens": 1, "messages": [], "bogus": 1}
    )
    assert "bogus" not in lax


def test_deepseek_documented_finish_reason() -> None:
    """DeepSeek documents finish_reason "insufficient_system_resource", which the openai SDK types lack:
    valid in a DeepSeek response, still an error in an OpenAI Chat one."""
    body = {"id": "7c1e2b9a-5d3f-4e8a-9b6c-1a2b3c4d5e6f", "object": "chat.completion", "created": 1741571119, "model": "deepseek-chat",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": ""}, "logprobs": None, "finish_reason": "insufficient_system_resource"}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 0, "total_tokens": 12}}
    assert validate("deepseek", "response", body) == []
    assert validate("openai_chat", "response", body) != []


# --- flavours: checked as their family's body with the differences their specs state --------------


def _with(body: dict, **changes: Any) -> dict:
    """``body`` with keys set (a value of None removes the key); new keys go last, as a merge patch puts them."""
    out = {k: v for k, v in body.items() if k not in changes or changes[k] is not None}
    out.update({k: v for k, v in changes.items() if v is not None and k not in body})
    out.update({k: v for k, v in changes.items() if v is not None and k in body})
    return out


def test_flavour_model_outside_the_body_and_constant_are_derived_from_the_spec() -> None:
    """Anthropic on Bedrock / Vertex AI: no model (it is the URL), anthropic_version fixed — read from
    their specs (cannot_express outside_body + wire, a const rule the family lacks), not from a list."""
    base = BASE["anthropic"]["request"]
    for provider, const, other in [("anthropic_bedrock", "bedrock-2023-05-31", "vertex-2023-10-16"),
                                   ("anthropic_vertex", "vertex-2023-10-16", "bedrock-2023-05-31")]:
        body = _with(base, model=None, anthropic_version=const)
        assert validate(provider, "request", body) == []
        assert validate("anthropic", "request", body) != []  # the family's own body needs model, forbids the constant
        assert _has(validate(provider, "request", _with(body, anthropic_version=other)), "anthropic_version", "must be")
        assert _has(validate(provider, "request", _with(body, anthropic_version=None)), "anthropic_version", "required")
        assert _has(validate(provider, "request", _with(body, model="claude-sonnet-4-5")), "model", "outside the body")
        # the rest of the body is still the family's: a misspelled key is an error
        broken = copy.deepcopy(body)
        broken["messages"][2]["content"][0]["tool_use_idx"] = broken["messages"][2]["content"][0].pop("tool_use_id")
        assert _has(validate(provider, "request", broken), "messages[2].content[0].tool_use_idx", "Extra inputs"), provider


def test_flavour_extra_keys_are_accepted_only_for_the_flavour_that_declares_them() -> None:
    """Azure's prompt_filter_results / content_filter_results, OpenRouter's provider and usage.cost,
    xAI's usage.num_sources_used: keys a spec declares as `extra`, at the places its codecs sit."""
    base = BASE["openai_chat"]["response"]
    azure = _with(base, prompt_filter_results=[{"prompt_index": 0, "content_filter_results": {}}])
    azure["choices"] = [{**azure["choices"][0], "content_filter_results": {"hate": {"filtered": False, "severity": "safe"}}}]
    openrouter = _with(base, provider="OpenAI", usage={**base["usage"], "cost": 0.0007, "is_byok": False})
    openrouter["choices"] = [{**base["choices"][0], "native_finish_reason": "stop"}]
    xai = _with(base, usage={**base["usage"], "num_sources_used": 0})
    for provider, body in [("azure_openai", azure), ("openrouter", openrouter), ("xai", xai)]:
        assert validate(provider, "response", body) == [], provider
        assert validate("openai_chat", "response", body) != [], provider
    assert _has(validate("xai", "response", azure), "prompt_filter_results", "not declared")
    assert _has(validate("azure_openai", "response", openrouter), "usage.cost", "not declared")
    # a declared key in the wrong place is still an error
    assert _has(validate("openrouter", "response", _with(base, cost=1.0)), "cost", "not declared")


def test_flavour_enum_values_of_its_own_are_checked_as_the_family_renders_them() -> None:
    """OpenRouter's `error` finish reason (IR error → openai_chat renders "stop") is valid for OpenRouter,
    still an error for OpenAI Chat and for a flavour that does not parse it (Groq)."""
    base = BASE["openai_chat"]["response"]
    body = {**base, "choices": [{**base["choices"][0], "finish_reason": "error"}]}
    assert validate("openrouter", "response", body) == []
    assert validate("openai_chat", "response", body) != []
    assert validate("groq", "response", body) != []


def test_flavour_fields_the_family_lacks_are_checked_by_their_spec_type() -> None:
    """Anthropic on Bedrock takes temperature / top_p / top_k (bedrock-2023-05-31), which the anthropic
    SDK's current request type does not declare: checked against the spec rule's JSON type."""
    body = _with(BASE["anthropic"]["request"], model=None, anthropic_version="bedrock-2023-05-31", temperature=0.5, top_k=40)
    assert validate("anthropic_bedrock", "request", body) == []
    assert _has(validate("anthropic_bedrock", "request", _with(body, top_k="40")), "top_k", "integer")
    vertex = _with(body, anthropic_version="vertex-2023-10-16")
    assert _has(validate("anthropic_vertex", "request", vertex), "temperature", "Extra inputs")  # Vertex: as anthropic
