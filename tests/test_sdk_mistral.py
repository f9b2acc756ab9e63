"""Mistral payloads against the official mistralai SDK models and Mistral's request validator.

Every Mistral fixture and every payload toolwire renders for Mistral (from each provider of each
scenario, requests and responses) must be valid for ``mistralai.client.models`` made strict
(``sdk_validation_mistral``: unknown keys, unknown enum values and unknown content chunks are
errors), and every rendered request must pass mistral-common's ``MistralRequestValidator`` (9-character
ids, message order, every call answered). The second half proves the checker rejects what it must.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import pytest
from mistralai.client.models import ChatCompletionRequest, ChatCompletionResponse, UsageInfo

import toolwire

from conftest import scenarios
from sdk_validation import validate
from sdk_validation_mistral import mistral_common_errors, validate_mistral

SCENARIOS = scenarios()


def test_every_scenario_has_a_mistral_fixture() -> None:
    assert all("mistral" in docs for docs in SCENARIOS.values())


def test_sdk_validation_dispatches_mistral_here() -> None:
    base = SCENARIOS["get_weather"]["mistral"]["request"]
    assert validate("mistral", "request", base) == []
    assert validate("mistral", "request", {**base, "bogus": 1}) == validate_mistral("request", {**base, "bogus": 1}) != []


# --- the checker rejects what it must -------------------------------------------------------------

BASE = SCENARIOS["get_weather"]["mistral"]


def _errors(kind: str, path: list, value: Any) -> list[str]:
    payload = copy.deepcopy(BASE[kind])
    node = payload
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return validate_mistral(kind, payload)


def _has(errors: list[str], path: str, *words: str) -> bool:
    return any(e.startswith(f"{path}:") and all(w in e for w in words) for e in errors)


def test_the_sdk_models_ignore_unknown_keys_by_themselves() -> None:
    """Why the checker walks the model tree: out of the box these models accept any extra key."""
    assert ChatCompletionRequest.model_config.get("extra", "ignore") == "ignore"
    assert ChatCompletionResponse.model_config.get("extra", "ignore") == "ignore"
    assert UsageInfo.model_config.get("extra") == "allow"
    lax = ChatCompletionRequest.model_validate({**BASE["request"], "tool_choise": "auto"})
    assert "tool_choise" not in lax.model_dump()


def test_unknown_top_level_key() -> None:
    assert _has(_errors("request", ["tool_choise"], "auto"), "tool_choise", "not declared by ChatCompletionRequest")
    assert _has(_errors("response", ["system_fingerprint"], "x"), "system_fingerprint", "not declared")


def test_unknown_key_in_a_tool_call() -> None:
    errors = _errors("request", ["messages", 2, "tool_calls", 0, "function", "argumentz"], "{}")
    assert _has(errors, "messages[2].tool_calls[0].function.argumentz", "not declared by FunctionCall"), errors


def test_unknown_key_in_a_message_openai_participant_name() -> None:
    errors = _errors("request", ["messages", 1, "name"], "alice")
    assert _has(errors, "messages[1].name", "not declared by UserMessage"), errors


def test_undeclared_usage_key_is_an_error_although_usage_allows_extra() -> None:
    assert _has(_errors("response", ["usage", "queue_time"], 0.1), "usage.queue_time", "not declared by UsageInfo")


def test_openai_only_response_keys_are_errors() -> None:
    errors = _errors("response", ["choices", 0, "message", "refusal"], None)
    assert _has(errors, "choices[0].message.refusal", "not declared by AssistantMessage"), errors


def test_unknown_enum_values() -> None:
    assert _has(_errors("request", ["tool_choice"], "always"), "tool_choice", "'any'")
    assert _has(_errors("response", ["choices", 0, "finish_reason"], "done"), "choices[0].finish_reason", "'model_length'")


def test_wrong_role() -> None:
    errors = _errors("request", ["messages", 1, "role"], "model")
    assert any(e.startswith("messages[1]") for e in errors), errors


def test_arguments_must_be_text_or_an_object() -> None:
    errors = _errors("request", ["messages", 2, "tool_calls", 0, "function", "arguments"], 42)
    assert any(e.startswith("messages[2].tool_calls[0].function.arguments") for e in errors), errors
    ok = _errors("request", ["messages", 2, "tool_calls", 0, "function", "arguments"], {"location": "Tokyo"})
    assert ok == []  # mistralai FunctionCall.arguments: Dict[str, Any] | str


def test_content_chunks_are_checked_although_the_sdk_falls_back_to_unknown_chunks() -> None:
    chunk = lambda c: _errors("request", ["messages", 1, "content"], [c])  # noqa: E731
    assert chunk({"type": "text", "text": "hi"}) == []
    assert _has(chunk({"type": "text", "text": "hi", "cache": 1}), "messages[1].content[0].cache", "not declared by TextChunk")
    assert _has(chunk({"type": "hologram", "data": "x"}), "messages[1].content[0]", "unknown content chunk type 'hologram'")
    assert _has(chunk({"type": "image_url", "image_url": {"url": "u", "detail": "huge"}}), "messages[1].content[0].image_url.detail", "'huge'")
    assert any(e.startswith("messages[1].content[0]") for e in chunk({"type": "text"}))
    assert chunk({"type": "image_url", "image_url": "https://example.com/a.png"}) == []


def test_mistral_common_rejects_what_mistral_rejects() -> None:
    request = copy.deepcopy(BASE["request"])
    assert mistral_common_errors(request) == []
    bad_ids = copy.deepcopy(request)
    bad_ids["messages"][2]["tool_calls"][0]["id"] = bad_ids["messages"][3]["tool_call_id"] = "call_0001"
    assert any("must be a-z, A-Z, 0-9, with a length of 9" in e for e in mistral_common_errors(bad_ids))
    unanswered = copy.deepcopy(request)
    unanswered["messages"].pop()
    assert any("Expected last role" in e for e in mistral_common_errors(unanswered))
