"""Every Cohere fixture and every payload toolwire renders for Cohere is valid for the official SDK
types (cohere-python ``cohere.types`` / ``cohere.v2``), made strict (the generic path of
tests/sdk_validation.py for a wire family with pydantic roots, tests/sdk_pydantic_strict.py):

* the request body: the SDK has no model of it; spec/wire/families.yaml builds one from the keyword
  arguments of ``cohere.v2.client.V2Client.chat`` (their SDK annotations: ``ChatMessages``, ``ToolV2``,
  ``V2ChatRequestToolChoice``, ...) plus ``stream``, which the client itself sends (the same model
  the wire schema is derived from);
* the response: ``V2ChatResponse``;
* unknown keys are errors everywhere (the SDK models keep them: ``extra="allow"``);
* open enums (``Union[Literal[...], Any]``: ChatFinishReason, V2ChatRequestToolChoice,
  ImageUrlDetail, CitationType, ...) take only their literals;
* the SDK's discriminated unions (``UnionMetadata(discriminant=...)``: messages by role, content
  parts by type) are validated as such.

The second half proves the checker rejects what it must.
"""

from __future__ import annotations

import copy
import warnings

import pytest

import toolwire

from conftest import scenarios
from sdk_validation import validate_family

PROVIDER = "cohere"
SCENARIOS = scenarios()


def validate(kind: str, payload) -> list[str]:
    return validate_family("cohere", kind, payload)


def test_every_scenario_has_a_cohere_fixture() -> None:
    assert all(PROVIDER in docs for docs in SCENARIOS.values())


# --- the checker rejects what it must -------------------------------------------------------------

BASE = SCENARIOS["get_weather"][PROVIDER]


def _new_errors(kind: str, mutate) -> list[str]:
    payload = copy.deepcopy(BASE[kind])
    mutate(payload)
    return validate(kind, payload)


def test_unknown_top_level_key() -> None:
    found = _new_errors("request", lambda p: p.update(tool_choise="REQUIRED"))
    assert any(e.startswith("tool_choise:") and "Extra inputs" in e for e in found), found


def test_unknown_tool_choice() -> None:
    found = _new_errors("request", lambda p: p.update(tool_choice="AUTO"))
    assert any(e.startswith("tool_choice:") and "AUTO" in e for e in found), found


def test_unknown_key_in_a_tool_message() -> None:
    found = _new_errors("request", lambda p: p["messages"][3].update(tool_name="get_weather"))
    assert any(e.startswith("messages[3].tool_name:") and "Extra inputs" in e for e in found), found


def test_wrong_role() -> None:
    found = _new_errors("request", lambda p: p["messages"][1].update(role="model"))
    assert any(e.startswith("messages[1]") and "model" in e for e in found), found


def test_arguments_must_be_json_text() -> None:
    def mutate(p):
        p["messages"][2]["tool_calls"][0]["function"]["arguments"] = {"location": "Tokyo"}

    found = _new_errors("request", mutate)
    assert any(e.startswith("messages[2].tool_calls[0].function.arguments:") for e in found), found


def test_document_data_must_be_an_object() -> None:
    def mutate(p):
        p["messages"][3]["content"][0]["document"]["data"] = '{"temp":22}'

    found = _new_errors("request", mutate)
    assert any(e.startswith("messages[3].content[0].document.data:") for e in found), found


def test_unknown_content_part_type() -> None:
    def mutate(p):
        p["messages"][3]["content"][0]["type"] = "json"

    found = _new_errors("request", mutate)
    assert any(e.startswith("messages[3].content[0]") and "json" in e for e in found), found


def test_unknown_finish_reason() -> None:
    found = _new_errors("response", lambda p: p.update(finish_reason="STOP"))
    assert any(e.startswith("finish_reason:") and "STOP" in e for e in found), found


def test_unknown_key_in_the_response_message() -> None:
    found = _new_errors("response", lambda p: p["message"].update(refusal=None))
    assert any(e.startswith("message.refusal:") for e in found), found


def test_unknown_key_in_usage() -> None:
    found = _new_errors("response", lambda p: p["usage"]["tokens"].update(total_tokens=330))
    assert any(e.startswith("usage.tokens.total_tokens:") for e in found), found
