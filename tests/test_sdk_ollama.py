"""Every Ollama fixture and every payload toolwire renders for Ollama is valid for the official SDK
types (ollama-python ``ollama._types``: ChatRequest, Message, Message.ToolCall, Tool, Options,
ChatResponse), made strict (tests/sdk_validation_ollama.py, tests/sdk_pydantic_strict.py):

* unknown keys are errors everywhere (the SDK models ignore them);
* ``messages`` items must be ``Message`` and ``options`` must be ``Options`` (the SDK also takes any
  ``Mapping[str, Any]`` there, which would let anything through);
* ``Message.images`` are base64 strings (the SDK's ``Image`` wrapper serializes to exactly that);
* enumerations the SDK types as ``str`` take the values the API documents: ``Message.role``
  (system, user, assistant, tool), ``Tool.type`` (function), ``ChatResponse.done_reason`` (stop,
  length, load, unload).

The second half proves the checker rejects what it must.
"""

from __future__ import annotations

import copy
import warnings

import pytest

import toolwire

from conftest import scenarios
from sdk_validation_ollama import validate_ollama

PROVIDER = "ollama"
SCENARIOS = scenarios()


def validate(kind: str, payload) -> list[str]:
    return validate_ollama(kind, payload)


def test_every_scenario_has_an_ollama_fixture() -> None:
    assert all(PROVIDER in docs for docs in SCENARIOS.values())


# --- the checker rejects what it must -------------------------------------------------------------

BASE = SCENARIOS["get_weather"][PROVIDER]


def _new_errors(kind: str, mutate) -> list[str]:
    payload = copy.deepcopy(BASE[kind])
    mutate(payload)
    return validate(kind, payload)


def test_unknown_top_level_key() -> None:
    found = _new_errors("request", lambda p: p.update(tool_choice="auto"))
    assert any(e.startswith("tool_choice:") and "Extra inputs" in e for e in found), found


def test_unknown_key_in_a_message_is_an_error_although_the_sdk_takes_any_mapping() -> None:
    found = _new_errors("request", lambda p: p["messages"][3].update(tool_call_id="c1"))
    assert any(e.startswith("messages[3].tool_call_id:") and "Extra inputs" in e for e in found), found


def test_unknown_key_in_a_tool_call() -> None:
    found = _new_errors("request", lambda p: p["messages"][2]["tool_calls"][0].update(id="c1"))
    assert any(e.startswith("messages[2].tool_calls[0].id:") for e in found), found


def test_unknown_option_is_an_error() -> None:
    found = _new_errors("request", lambda p: p["options"].update(max_tokens=5))
    assert any(e.startswith("options.max_tokens:") for e in found), found


def test_arguments_must_be_an_object() -> None:
    def mutate(p):
        p["messages"][2]["tool_calls"][0]["function"]["arguments"] = '{"location":"Tokyo"}'

    found = _new_errors("request", mutate)
    assert any(e.startswith("messages[2].tool_calls[0].function.arguments:") for e in found), found


def test_unknown_role() -> None:
    found = _new_errors("request", lambda p: p["messages"][1].update(role="model"))
    assert any(e.startswith("messages[1].role:") and 'model' in e for e in found), found


def test_images_must_be_base64() -> None:
    found = _new_errors("request", lambda p: p["messages"][1].update(images=["not base64!"]))
    assert any(e.startswith("messages[1].images[0]:") for e in found), found


def test_unknown_done_reason() -> None:
    found = _new_errors("response", lambda p: p.update(done_reason="tool_calls"))
    assert any(e.startswith("done_reason:") and 'tool_calls' in e for e in found), found


def test_unknown_key_in_the_response_message() -> None:
    found = _new_errors("response", lambda p: p["message"].update(refusal=None))
    assert any(e.startswith("message.refusal:") for e in found), found


def test_counts_must_be_integers() -> None:
    found = _new_errors("response", lambda p: p.update(eval_count="12"))
    assert any(e.startswith("eval_count:") for e in found), found
