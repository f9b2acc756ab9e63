"""Groq and DeepSeek: OpenAI Chat Completions with their documented differences, each as a test.

spec/providers/groq.yaml and deepseek.yaml extend openai_chat and state only their differences
(sources in each spec). Their payloads are validated against openai.types.chat, the wire they share
(tests/sdk_validation.py); Groq's fixtures are also checked against Groq's own SDK types.
"""

from __future__ import annotations

import json
import warnings

import pytest
from pydantic import TypeAdapter

import toolwire
from toolwire import ir

from conftest import scenarios
from sdk_validation import _StrictTypedDicts, _undeclared_keys, validate

SCENARIOS = scenarios()
TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}
CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"location":"Tokyo"}'}}


def chat(messages: list, **extra) -> dict:
    return {"model": "gpt-4.1", "messages": messages, "tools": [TOOL], **extra}


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def response(finish: str, message: dict | None = None) -> dict:
    return {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": finish, "message": message or {"role": "assistant", "content": "ok"}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


@pytest.mark.parametrize("provider", ["groq", "deepseek"])
def test_they_are_openai_chat_flavours(provider):
    module = __import__(f"toolwire.providers.{provider}", fromlist=["FAMILY"])
    assert module.FAMILY == "openai_chat"  # the OpenAI Chat wire format
    assert module.PROVIDER == provider  # but its own provider data: unknown fields go back only to it


@pytest.mark.parametrize("provider", ["groq", "deepseek"])
def test_tool_use_is_sent_as_openai_chat_sends_it(provider):
    body = chat(
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather?"},
         {"role": "assistant", "content": None, "tool_calls": [CALL]}, {"role": "tool", "tool_call_id": "call_1", "content": "22"}],
        tool_choice={"type": "function", "function": {"name": "get_weather"}},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = toolwire.convert(body, source="openai_chat", target=provider, model=body["model"])  # deepseek serves deepseek-* only
    assert out == body
    assert validate(provider, "request", out) == []


# --- Groq ---------------------------------------------------------------------------------------


def test_groq_drops_participant_names():
    """console.groq.com/docs/openai: messages[].name is not supported (400)."""
    body = chat([{"role": "system", "content": "Be brief.", "name": "ops"}, {"role": "user", "content": "hi", "name": "alice"}])
    with pytest.warns(toolwire.ConversionWarning, match="groq has no place for Message.name"):
        out = toolwire.convert(body, source="openai_chat", target="groq")
    assert out["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert toolwire.convert(body, source="openai_chat", target="openai_chat") == body  # OpenAI keeps them


def test_groq_keeps_parallel_tool_calls_strict_and_max_completion_tokens():
    tool = {"type": "function", "function": {**TOOL["function"], "strict": True}}
    body = chat([{"role": "user", "content": "hi"}], tools=[tool], parallel_tool_calls=False, max_completion_tokens=64)
    assert toolwire.convert(body, source="openai_chat", target="groq") == body


def test_groq_has_no_content_filter_finish_reason():
    with pytest.warns(toolwire.ConversionWarning, match="finish_reason"):
        out = toolwire.convert(response("content_filter"), source="openai_chat", target="groq", kind="response")
    assert out["choices"][0]["finish_reason"] == "stop"
    assert toolwire.to_ir(response("function_call"), provider="groq", kind="response").finish_reason == "tool_calls"


def _groq_adapters():
    from groq.types.chat import ChatCompletion, completion_create_params

    strict = _StrictTypedDicts()
    try:
        strict.patch(completion_create_params.CompletionCreateParams)
        request = TypeAdapter(completion_create_params.CompletionCreateParams)
    finally:
        strict.restore()
    return request, ChatCompletion


GROQ = [(s, k) for s, docs in SCENARIOS.items() if "groq" in docs for k in ("request", "response")]


@pytest.mark.parametrize("scenario,kind", GROQ, ids=["-".join(x) for x in GROQ])
def test_groq_fixtures_are_valid_for_groqs_own_sdk_types(scenario, kind):
    """groq-python's types (unknown keys are errors) accept what toolwire renders for Groq."""
    request, completion = _groq_adapters()
    text = json.dumps(SCENARIOS[scenario]["groq"][kind])
    if kind == "request":
        request.validate_json(text, strict=True)
    else:
        assert _undeclared_keys(completion.model_validate_json(text, strict=True)) == []


def test_groq_sdk_check_rejects_a_message_name_and_unknown_keys():
    request, _ = _groq_adapters()
    body = SCENARIOS["get_weather"]["groq"]["request"]
    with pytest.raises(Exception, match="tool_choise"):
        request.validate_json(json.dumps({**body, "tool_choise": "auto"}), strict=True)


# --- DeepSeek -----------------------------------------------------------------------------------


def test_deepseek_limits_tokens_with_max_tokens():
    out = toolwire.convert(chat([{"role": "user", "content": "hi"}], max_completion_tokens=64), source="openai_chat", target="deepseek")
    assert out["max_tokens"] == 64 and "max_completion_tokens" not in out
    assert toolwire.to_ir({"model": "deepseek-v4-flash", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 9}, provider="deepseek").max_tokens == 9


def test_deepseek_takes_no_images():
    body = chat([{"role": "user", "content": [{"type": "text", "text": "What is this?"}, {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]}])
    with pytest.warns(toolwire.ConversionWarning, match="deepseek cannot express ImagePart"):
        out = toolwire.convert(body, source="openai_chat", target="deepseek")
    assert out["messages"][0]["content"] == [{"type": "text", "text": "What is this?"}]
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir({**body, "model": "deepseek-v4-flash"}, provider="deepseek")
    assert info.value.path == "messages[0].content[1].type"


def test_deepseek_has_no_parallel_tool_calls_parameter():
    with pytest.warns(toolwire.ConversionWarning, match="no place for Request.parallel_tool_calls"):
        out = toolwire.convert(chat([{"role": "user", "content": "hi"}], parallel_tool_calls=False), source="openai_chat", target="deepseek")
    assert "parallel_tool_calls" not in out


def test_deepseek_sends_strict_as_given():
    """strict is Beta (base URL https://api.deepseek.com/beta): documented, not changed."""
    tool = {"type": "function", "function": {**TOOL["function"], "strict": True}}
    assert toolwire.convert(chat([{"role": "user", "content": "hi"}], tools=[tool]), source="openai_chat", target="deepseek")["tools"] == [tool]


def test_deepseek_insufficient_system_resource_is_an_error_finish():
    resp = response("insufficient_system_resource")
    assert toolwire.to_ir(resp, provider="deepseek", kind="response").finish_reason == "error"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.from_ir(toolwire.to_ir(resp, provider="deepseek", kind="response"), provider="deepseek") == resp
    with pytest.warns(toolwire.ConversionWarning, match="finish_reason"):
        out = toolwire.convert(resp, source="deepseek", target="openai_chat", kind="response")
    assert out["choices"][0]["finish_reason"] == "stop"


def test_deepseek_reasoning_content_goes_back_to_deepseek():
    """Thinking mode: the reasoning_content of a turn with tool calls is sent back on the next request."""
    message = {"role": "assistant", "content": None, "reasoning_content": "The user wants the weather.", "tool_calls": [CALL]}
    turn = toolwire.to_ir(response("tool_calls", message), provider="deepseek", kind="response").message
    req = ir.Request(model="deepseek-v4-flash", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="Weather?")]), turn,
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="call_1", name="get_weather", result="22")]),
    ])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = toolwire.from_ir(req, provider="deepseek")
    assert out["messages"][1]["reasoning_content"] == "The user wants the weather."
    with pytest.warns(toolwire.ConversionWarning, match="anthropic cannot express ReasoningPart"):  # unsigned
        toolwire.from_ir(req, provider="anthropic", model="claude-sonnet-4-5")
