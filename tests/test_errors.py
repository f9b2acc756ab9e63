"""Errors for histories the targets would reject: unanswered calls, duplicate or stray results."""

from __future__ import annotations

import importlib
import warnings

import pytest

import toolwire
from toolwire import ir

TARGETS = toolwire.PROVIDERS


def call(cid: str, name: str = "get_weather") -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": '{"city":"Paris"}'}}


def result(cid: str, text: str = "18C") -> dict:
    return {"role": "tool", "tool_call_id": cid, "content": text}


def chat(*messages: dict) -> dict:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": "weather?"}, *messages]}


def convert(body: dict, target: str) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return toolwire.convert(body, source="openai_chat", target=target)


@pytest.mark.parametrize("target", TARGETS)
def test_a_call_without_result_is_an_error_pointing_at_the_call(target):
    body = chat(
        {"role": "assistant", "content": None, "tool_calls": [call("call_1"), call("call_2", "get_time")]},
        result("call_1"),
        {"role": "user", "content": "and then?"},
    )
    with pytest.raises(toolwire.UnansweredToolCallError) as info:
        convert(body, target)
    assert info.value.path == "messages[1].tool_calls[1]"
    assert "'call_2'" in info.value.message and "get_time" in info.value.message


@pytest.mark.parametrize("target", TARGETS)
def test_a_call_turn_that_ends_the_conversation_waits_for_its_results(target):
    body = chat({"role": "assistant", "content": None, "tool_calls": [call("call_1")]})
    assert convert(body, target)


@pytest.mark.parametrize("target", TARGETS)
def test_a_call_answered_twice_is_a_result_count_error(target):
    body = chat(
        {"role": "assistant", "content": None, "tool_calls": [call("call_1")]},
        result("call_1"),
        result("call_1", "19C"),
    )
    with pytest.raises(toolwire.ResultCountError) as info:
        convert(body, target)
    assert info.value.path == "messages[3].tool_call_id"
    assert "exactly one result per call" in info.value.message


@pytest.mark.parametrize("target", TARGETS)
def test_a_result_for_an_older_turn_is_an_error(target):
    body = chat(
        {"role": "assistant", "content": None, "tool_calls": [call("call_1")]},
        result("call_1"),
        {"role": "assistant", "content": None, "tool_calls": [call("call_2")]},
        result("call_2"),
        result("call_1"),
    )
    with pytest.raises(toolwire.UnknownToolCallError) as info:
        convert(body, target)
    assert info.value.path == "messages[5].tool_call_id"


def test_gemini_with_more_responses_than_calls_is_an_error():
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "weather?"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {}}}]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"output": "18C"}}},
                {"functionResponse": {"name": "get_weather", "response": {"output": "19C"}}},
            ]},
        ]
    }
    with pytest.raises(toolwire.UnknownToolCallError) as info:
        toolwire.convert(body, source="gemini", target="anthropic")
    assert info.value.path == "contents[2].parts[1]"


def test_errors_from_ir_input_point_into_the_ir():
    req = ir.Request(
        messages=[
            ir.Message(role="user", parts=[ir.TextPart(text="weather?")]),
            ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="get_weather", arguments={})]),
            ir.Message(role="user", parts=[ir.TextPart(text="never mind")]),
        ],
        model="m",
    )
    with pytest.raises(toolwire.UnansweredToolCallError) as info:
        toolwire.from_ir(req, provider="anthropic")
    assert info.value.path == "messages[1].parts[0]"


def test_every_error_is_a_conversion_error_with_a_path():
    for cls in (
        toolwire.MissingFieldError, toolwire.WrongTypeError, toolwire.UnknownVariantError,
        toolwire.InvalidArgumentsError, toolwire.UnknownToolCallError, toolwire.UnansweredToolCallError,
        toolwire.ResultCountError, toolwire.NameCollisionError, toolwire.LossError, toolwire.UnsupportedError,
    ):
        err = cls(("messages", 2), "expected something")
        assert isinstance(err, toolwire.ConversionError)
        assert (err.path, str(err)) == ("messages[2]", "messages[2]: expected something")


# --- a newcomer's mistakes get advice ------------------------------------------------------------

@pytest.mark.parametrize("name, suggested", [("openai", "'openai_chat'"), ("antropic", "'anthropic'"), ("gemini-2", "'gemini'")])
def test_an_unknown_provider_name_suggests_the_closest(name, suggested):
    with pytest.raises(ValueError, match=f"unknown provider '{name}'; did you mean .*{suggested}"):
        toolwire.convert({}, source=name, target="anthropic")


CHAT_RESPONSE = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}
CHAT_REQUEST = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]}


def test_a_response_passed_as_a_request_says_which_kind_it_is():
    with pytest.raises(toolwire.MissingFieldError, match=r"^messages: required field is missing \(this is a response body: pass kind='response'\)$"):
        toolwire.convert(CHAT_RESPONSE, source="openai_chat", target="anthropic")
    with pytest.raises(toolwire.MissingFieldError, match=r"pass kind='request'"):
        toolwire.to_ir(CHAT_REQUEST, provider="openai_chat", kind="response")


def test_a_body_wrong_for_both_kinds_gets_no_kind_advice():
    with pytest.raises(toolwire.WrongTypeError) as info:
        toolwire.convert({"model": "m", "messages": [{"role": "user", "content": 5}]}, source="openai_chat", target="anthropic")
    assert "kind=" not in str(info.value)


def test_loss_warnings_point_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        toolwire.convert(CHAT_REQUEST, source="openai_chat", target="gemini")  # the model goes in the URL
        toolwire.to_ir({"contents": [{"role": "user", "parts": [{"text": "x"}]}], "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}}}, provider="gemini")
        toolwire.from_ir(toolwire.to_ir(CHAT_REQUEST, provider="openai_chat"), provider="gemini")
    assert caught and {w.filename for w in caught} == {__file__}


@pytest.mark.parametrize("target, reported", [("anthropic", True), ("mistral", True), ("deepseek", True), ("openai_responses", False),
                                              ("groq", False), ("ollama", False), ("fireworks", False)])
def test_a_source_model_name_the_target_does_not_serve_is_reported(target, reported):
    # spec `models:` — the glob patterns of the names a provider serves (groq, fireworks, ollama: any)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(CHAT_REQUEST, source="openai_chat", target=target)
    assert out["model"] == "gpt-4.1"
    said = [str(w.message) for w in caught if "is not a model name" in str(w.message)]
    patterns = ", ".join(importlib.import_module("toolwire.providers." + target).MODELS or ())
    want = f"model: 'gpt-4.1' is not a model name {target} serves ({patterns}); sent as it is — pass model= to name the target's model"
    assert said == ([want] if reported else [])


def test_a_model_given_by_the_caller_is_not_questioned_and_strict_mode_refuses_a_foreign_one():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert({**CHAT_REQUEST, "max_tokens": 64}, source="openai_chat", target="anthropic", model="claude-sonnet-4-5")["model"] == "claude-sonnet-4-5"
    with pytest.raises(toolwire.LossError, match=r"^model: anthropic cannot express this: 'gpt-4.1' is not a model name anthropic serves"):
        toolwire.convert(CHAT_REQUEST, source="openai_chat", target="anthropic", strict=True)


# --- warning categories: real losses apart from assumptions and values that go outside the body --

def test_warnings_have_categories_and_strict_mode_raises_for_losses_only():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        toolwire.convert(CHAT_REQUEST, source="openai_chat", target="gemini")  # the model goes in the URL
        toolwire.convert(CHAT_REQUEST, source="openai_chat", target="anthropic", model="claude-sonnet-4-5")  # no max_tokens
    categories = [(w.category, str(w.message).split(":")[0]) for w in caught]
    assert categories == [(toolwire.OutsideBodyWarning, "model"), (toolwire.AssumptionWarning, "max_tokens")]
    assert all(issubclass(c, toolwire.ConversionWarning) for c, _ in categories)
    # neither is a loss: strict mode converts
    assert toolwire.convert(CHAT_REQUEST, source="openai_chat", target="gemini", strict=True) == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    assert toolwire.convert(CHAT_REQUEST, source="openai_chat", target="anthropic", model="claude-sonnet-4-5", strict=True)["max_tokens"] == 4096
    # a real loss is a LossWarning, and raises in strict mode
    named = {**CHAT_REQUEST, "messages": [{"role": "user", "content": "hi", "name": "ann"}]}
    with pytest.warns(toolwire.LossWarning):
        toolwire.convert(named, source="openai_chat", target="gemini")
    with pytest.raises(toolwire.LossError):
        toolwire.convert(named, source="openai_chat", target="gemini", strict=True)


def test_a_category_can_be_filtered_out():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", toolwire.OutsideBodyWarning)
        toolwire.convert(CHAT_REQUEST, source="openai_chat", target="gemini")
    assert caught == []
