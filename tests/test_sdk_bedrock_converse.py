"""Bedrock Converse payloads against the official service model (botocore bedrock-runtime 2023-09-30).

Every fixture and every payload toolwire renders for bedrock_converse (each provider of each
scenario → bedrock_converse, requests and responses) is checked by tests/test_sdk_validation.py,
which dispatches bedrock_converse to ``sdk_validation_bedrock_converse``: a walk over the
service-model shapes (unknown keys, required members, unions, types, enums, lengths, patterns, on
the JSON form) plus botocore's own ParamValidator on the boto3 form. Here: botocore's rest-json
serializer writes exactly each fixture's request body, and the checker rejects what it must,
including what ParamValidator lets through.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any, Callable

import pytest

import toolwire

from conftest import scenarios
from sdk_validation import validate
from sdk_validation_bedrock_converse import (
    boto3_errors,
    serialized_body,
    to_boto3,
    validate_bedrock_converse,
    BEDROCK_SDK_TYPES,
)

PROVIDER = "bedrock_converse"
SCENARIOS = scenarios()
KINDS = ("request", "response")


@pytest.mark.parametrize("scenario", sorted(s for s, docs in SCENARIOS.items() if PROVIDER in docs))
def test_boto3_sends_exactly_the_fixture_body(scenario: str) -> None:
    """The JSON wire form: botocore's serializer, given the boto3 form (blobs as bytes), writes the
    fixture's request body byte for byte (as JSON), so base64 blobs and documents are spelled right."""
    payload = SCENARIOS[scenario][PROVIDER]["request"]
    assert serialized_body(payload) == payload


def test_sdk_validation_dispatches_here() -> None:
    payload = copy.deepcopy(SCENARIOS["get_weather"][PROVIDER]["request"])
    payload["toolConfig"]["toolChoice"] = {"none": {}}
    assert validate(PROVIDER, "request", payload) == validate_bedrock_converse("request", payload) != []


# --- the checker rejects what it must ----------------------------------------------------------

BASE = SCENARIOS["get_weather"][PROVIDER]
IMAGE = SCENARIOS["image_input"][PROVIDER]


def _new_errors(kind: str, mutate: Callable[[Any], None], base: dict = BASE) -> list[str]:
    payload = copy.deepcopy(base[kind])
    mutate(payload)
    return validate_bedrock_converse(kind, payload)


def _has(errors: list[str], path: str, *words: str) -> bool:
    return any(e.startswith(f"{path}:") and all(w in e for w in words) for e in errors)


def _set(path: list, value: Any) -> Callable[[Any], None]:
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


TOOL_USE = ["messages", 1, "content", 0, "toolUse"]
TOOL_RESULT = ["messages", 2, "content", 0, "toolResult"]
TOOL_SPEC = ["toolConfig", "tools", 0, "toolSpec"]


def test_misspelled_key_is_an_error() -> None:
    errors = _new_errors("request", _rename(TOOL_RESULT, "toolUseId", "toolUseID"))
    assert _has(errors, "messages[2].content[0].toolResult.toolUseID", "not a member of ToolResultBlock"), errors
    assert _has(errors, "messages[2].content[0].toolResult.toolUseId", "required member"), errors


@pytest.mark.parametrize("kind", KINDS)
def test_unknown_top_level_key(kind: str) -> None:
    errors = _new_errors(kind, _set(["tool_choice"], "auto"))
    assert _has(errors, "tool_choice", "not a member"), errors


def test_model_id_is_not_part_of_the_body() -> None:
    errors = _new_errors("request", _set(["modelId"], "anthropic.claude-sonnet-4-5-20250929-v1:0"))
    assert _has(errors, "modelId", "not a member of ConverseRequest"), errors


@pytest.mark.parametrize(
    "kind,path,value,shape",
    [
        ("response", ["stopReason"], "stop", "StopReason"),
        ("request", [*TOOL_RESULT, "status"], "failed", "ToolResultStatus"),
        ("request", ["messages", 1, "role"], "model", "ConversationRole"),
        ("request", ["messages", 0, "content", 1, "image", "format"], "svg", "ImageFormat"),
    ],
)
def test_unknown_enum_value_is_an_error(kind: str, path: list, value: str, shape: str) -> None:
    base = IMAGE if shape == "ImageFormat" else BASE
    errors = _new_errors(kind, _set(path, value), base)
    dotted = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert _has(errors, dotted, repr(value), shape), errors
    # botocore's ParamValidator does not check enums: this is why the walker exists
    payload = copy.deepcopy(base[kind])
    _set(path, value)(payload)
    assert boto3_errors(kind, payload) == []


@pytest.mark.parametrize(
    "path,value,shape",
    [
        ([*TOOL_SPEC, "name"], "get weather", "ToolName"),
        ([*TOOL_USE, "name"], "functions.get_weather", "ToolName"),
        (["toolConfig", "toolChoice"], {"tool": {"name": "get/weather"}}, "ToolName"),
        ([*TOOL_USE, "toolUseId"], "call 1", "ToolUseId"),
        ([*TOOL_RESULT, "toolUseId"], "call#1", "ToolUseId"),
    ],
)
def test_names_and_ids_breaking_the_pattern_are_errors(path: list, value: Any, shape: str) -> None:
    errors = _new_errors("request", _set(path, value))
    assert any("does not match the " + shape + " pattern" in e for e in errors), errors
    payload = copy.deepcopy(BASE["request"])
    _set(path, value)(payload)
    assert boto3_errors("request", payload) == []  # ParamValidator does not check patterns


def test_names_and_ids_longer_than_64_are_errors() -> None:
    errors = _new_errors("request", _set([*TOOL_SPEC, "name"], "n" * 65))
    assert _has(errors, "toolConfig.tools[0].toolSpec.name", "more than the maximum 64"), errors
    errors = _new_errors("request", _set([*TOOL_USE, "toolUseId"], "i" * 65))
    assert _has(errors, "messages[1].content[0].toolUse.toolUseId", "more than the maximum 64"), errors


def test_a_union_takes_exactly_one_member() -> None:
    errors = _new_errors("request", _set(["messages", 0, "content", 0, "image"], {}))
    assert _has(errors, "messages[0].content[0]", "exactly one member", "ContentBlock"), errors
    errors = _new_errors("request", _set(["toolConfig", "toolChoice"], {}))
    assert _has(errors, "toolConfig.toolChoice", "exactly one member"), errors


def test_lengths_and_ranges() -> None:
    assert _has(_new_errors("request", _set([*TOOL_SPEC, "description"], "")), "toolConfig.tools[0].toolSpec.description", "minimum 1")
    assert _has(_new_errors("request", _set(["inferenceConfig", "maxTokens"], 0)), "inferenceConfig.maxTokens", "below the minimum 1")
    assert _has(_new_errors("request", _set(["inferenceConfig", "temperature"], 1.5)), "inferenceConfig.temperature", "above the maximum 1")
    assert _has(_new_errors("request", _set(["toolConfig", "tools"], [])), "toolConfig.tools", "fewer than the minimum 1")
    assert _has(_new_errors("request", _set(["system", 0, "text"], "")), "system[0].text", "minimum 1")


def test_json_types_are_strict() -> None:
    assert _has(_new_errors("request", _set(["inferenceConfig", "maxTokens"], "1024")), "inferenceConfig.maxTokens", "expected an integer")
    assert _has(_new_errors("request", _set(["inferenceConfig", "maxTokens"], True)), "inferenceConfig.maxTokens", "expected an integer")
    assert _has(_new_errors("response", _set(["usage", "totalTokens"], 1.5)), "usage.totalTokens", "expected an integer")
    assert _has(_new_errors("request", _set([*TOOL_SPEC, "strict"], "yes")), "toolConfig.tools[0].toolSpec.strict", "expected a boolean")


def test_blobs_are_base64_text_in_the_json_body() -> None:
    path = ["messages", 0, "content", 1, "image", "source", "bytes"]
    errors = _new_errors("request", _set(path, "not base64!"), IMAGE)
    assert _has(errors, "messages[0].content[1].image.source.bytes", "not base64"), errors
    # in boto3's Python form the same blob is bytes
    boto3_form = to_boto3(BEDROCK_SDK_TYPES["request"], IMAGE["request"])
    assert isinstance(boto3_form["messages"][0]["content"][1]["image"]["source"]["bytes"], bytes)


def test_required_members() -> None:
    errors = _new_errors("response", lambda p: p.pop("metrics"))
    assert _has(errors, "metrics", "required member of ConverseResponse"), errors
    errors = _new_errors("response", lambda p: p["usage"].pop("totalTokens"))
    assert _has(errors, "usage.totalTokens", "required member of TokenUsage"), errors
    errors = _new_errors("request", lambda p: p["toolConfig"]["tools"][0]["toolSpec"].pop("inputSchema"))
    assert _has(errors, "toolConfig.tools[0].toolSpec.inputSchema", "required member"), errors


def test_documents_are_any_json_but_tool_documents_must_be_objects() -> None:
    errors = _new_errors("request", _set([*TOOL_RESULT, "content"], [{"json": 42}]))
    assert _has(errors, "messages[2].content[0].toolResult.content[0].json", "must be a JSON object"), errors
    errors = _new_errors("request", _set([*TOOL_USE, "input"], "{}"))
    assert _has(errors, "messages[1].content[0].toolUse.input", "must be a JSON object"), errors
    errors = _new_errors("request", _set([*TOOL_SPEC, "inputSchema", "json"], {"type": "object", "x-any": [1, None]}))
    assert errors == []


def test_blank_text_is_an_error() -> None:
    errors = _new_errors("request", _set(["messages", 0, "content", 0, "text"], " \n"))
    assert _has(errors, "messages[0].content[0].text", "blank"), errors


def test_param_validator_cross_check_is_wired() -> None:
    payload = copy.deepcopy(BASE["request"])
    payload["messages"][1]["content"][0]["toolUse"]["bogus"] = 1
    assert any("bogus" in e for e in boto3_errors("request", payload))
