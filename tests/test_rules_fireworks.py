"""Fireworks AI: OpenAI Chat Completions with its documented differences, each as a test.

spec/providers/fireworks.yaml extends openai_chat and states only the differences. Sources:
- API reference (an OpenAPI document): https://docs.fireworks.ai/api-reference/post-chatcompletions
  — ChatCompletionRequest, ChatMessage, FunctionSelection, ChatCompletionResponseStreamChoice;
- Tool Calling guide: https://docs.fireworks.ai/guides/function-calling;
- Querying vision-language models: https://docs.fireworks.ai/guides/querying-vision-language-models;
- the fireworks-ai SDK (1.2.28), generated from that OpenAPI document: fireworks.types.chat.
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import ir

TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}
CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"location":"Tokyo"}'}}
MODEL = "accounts/fireworks/models/kimi-k2-instruct-0905"


def chat(messages: list, **extra) -> dict:
    return {"model": MODEL, "messages": messages, "tools": [TOOL], **extra}


def response(finish: str, message: dict | None = None) -> dict:
    return {
        "id": "0b0c6a5e-1", "object": "chat.completion", "created": 1, "model": MODEL,
        "choices": [{"index": 0, "message": message or {"role": "assistant", "content": "ok"}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def exact(fn, *args, **kwargs):
    """Call with every ConversionWarning an error: nothing may be lost."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def test_fireworks_is_an_openai_chat_flavour():
    """Tool Calling guide: "OpenAI-compatible tool specifications"; the openai SDK works with
    base_url https://api.fireworks.ai/inference/v1. Same wire format; its own provider data (fields
    toolwire does not model go back only to Fireworks)."""
    from toolwire.providers import fireworks

    assert fireworks.FAMILY == "openai_chat"
    assert fireworks.PROVIDER == "fireworks"
    assert "fireworks" in toolwire.PROVIDERS


def test_tool_use_is_sent_as_openai_chat_sends_it_but_with_max_tokens():
    body = chat(
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather?"},
         {"role": "assistant", "content": None, "tool_calls": [CALL]}, {"role": "tool", "tool_call_id": "call_1", "content": "22"}],
        tool_choice={"type": "function", "function": {"name": "get_weather"}},
        parallel_tool_calls=False,
        max_completion_tokens=64,
    )
    out = exact(toolwire.convert, body, source="openai_chat", target="fireworks")
    want = {k: v for k, v in body.items() if k != "max_completion_tokens"}
    assert out == {**want, "max_tokens": 64}


# --- messages ------------------------------------------------------------------------------------


def test_participant_names_are_not_sent():
    """API reference, ChatMessage: role, content, reasoning_content, tool_calls, tool_call_id — no
    `name`, and additionalProperties: false (fireworks-ai ChatMessage has no `name` either)."""
    body = chat([{"role": "system", "content": "Be brief.", "name": "ops"}, {"role": "user", "content": "hi", "name": "alice"}])
    with pytest.warns(toolwire.ConversionWarning, match="fireworks has no place for Message.name"):
        out = toolwire.convert(body, source="openai_chat", target="fireworks")
    assert out["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert toolwire.convert(body, source="openai_chat", target="openai_chat") == body  # OpenAI keeps them


def test_developer_messages_are_sent_as_system_messages():
    """API reference, ChatMessage.role: "One of `system`, `user`, or `assistant`" (and `tool` for
    results, Tool Calling guide). OpenAI's developer role is not one of them."""
    body = chat([{"role": "developer", "content": "Be brief."}, {"role": "user", "content": "hi"}])
    out = exact(toolwire.convert, body, source="openai_chat", target="fireworks")
    assert out["messages"][0] == {"role": "system", "content": "Be brief."}
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir(body, provider="fireworks")
    assert info.value.path == "messages[0].role"


def test_tool_results_are_tool_messages_with_text_content():
    """Tool Calling guide: results go back as {"role": "tool", "tool_call_id", "content"}; no error
    flag, so an error is the text "Error: ..." as in OpenAI Chat."""
    req = ir.Request(model=MODEL, messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="Weather in Atlantis?")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="call_1", name="get_weather", arguments={"location": "Atlantis"})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="call_1", name="get_weather", result="Location not found", is_error=True)]),
    ])
    with pytest.warns(toolwire.ConversionWarning, match="no error flag"):
        out = toolwire.from_ir(req, provider="fireworks")
    assert out["messages"][2] == {"role": "tool", "tool_call_id": "call_1", "content": "Error: Location not found"}


def test_images_are_openai_image_url_parts():
    """Querying vision-language models: "Provide images via URL or base64 encoding. The request
    structure is identical to OpenAI's vision API" — an image_url part with an http(s) or data: URL."""
    content = [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
    ]
    body = chat([{"role": "user", "content": content}])
    assert exact(toolwire.convert, body, source="openai_chat", target="fireworks") == body
    parts = toolwire.to_ir(body, provider="fireworks").messages[0].parts
    assert parts[1].url == "https://example.com/a.png"
    assert (parts[2].media_type, parts[2].data) == ("image/png", "iVBORw0KGgo=")


def test_reasoning_content_goes_back_to_fireworks():
    """API reference, ChatMessage.reasoning_content (requests and responses) and reasoning_history
    ("'preserved': Preserve historical reasoning_content across the conversation"): the reasoning of
    a turn is kept and sent back to Fireworks; other providers report it."""
    message = {"role": "assistant", "content": None, "reasoning_content": "The user wants the weather.", "tool_calls": [CALL]}
    turn = toolwire.to_ir(response("tool_calls", message), provider="fireworks", kind="response").message
    req = ir.Request(model=MODEL, messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="Weather?")]), turn,
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="call_1", name="get_weather", result="22")]),
    ])
    out = exact(toolwire.from_ir, req, provider="fireworks")
    assert out["messages"][1]["reasoning_content"] == "The user wants the weather."
    with pytest.warns(toolwire.ConversionWarning, match="anthropic cannot express ReasoningPart"):  # unsigned
        toolwire.from_ir(req, provider="anthropic", model="claude-sonnet-4-5")


def test_arguments_given_as_an_object_are_read():
    """API reference, ChatCompletionMessageToolCallFunction.arguments: a string, an object or null."""
    message = {"role": "assistant", "content": None, "tool_calls": [{**CALL, "function": {"name": "get_weather", "arguments": {"location": "Tokyo"}}}]}
    call = toolwire.to_ir(response("tool_calls", message), provider="fireworks", kind="response").message.parts[0]
    assert call.arguments == {"location": "Tokyo"}
    sent = exact(toolwire.from_ir, toolwire.to_ir(response("tool_calls", message), provider="fireworks", kind="response"), provider="fireworks")
    assert sent["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == '{"location":"Tokyo"}'


# --- tools and tool_choice -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["auto", "none", "required"])
def test_tool_choice_modes(mode):
    """API reference, ChatCompletionRequest.tool_choice: "auto" | "none" | "any" | "required"."""
    body = chat([{"role": "user", "content": "hi"}], tool_choice=mode)
    assert exact(toolwire.convert, body, source="openai_chat", target="fireworks") == body
    assert toolwire.to_ir(body, provider="fireworks").tool_choice.mode == mode


def test_tool_choice_any_is_required():
    """API reference: "`required` (alias: `any`): the model must call one or more tools". Read as
    required; rendered as "required" for other sources, and as the input's own word ("any") on a
    same-provider round trip (the scalar enum's spelling hint)."""
    body = chat([{"role": "user", "content": "hi"}], tool_choice="any", max_tokens=64)
    assert toolwire.to_ir(body, provider="fireworks").tool_choice.mode == "required"
    assert exact(toolwire.convert, body, source="fireworks", target="fireworks")["tool_choice"] == "any"
    assert exact(toolwire.convert, body, source="fireworks", target="groq", model="llama-3.3-70b-versatile")["tool_choice"] == "required"
    assert exact(toolwire.convert, body, source="fireworks", target="anthropic", model="claude-sonnet-4-5")["tool_choice"] == {"type": "any"}


def test_a_named_tool_is_the_openai_function_selection():
    """API reference, FunctionSelection: {"type": "function", "function": {"name"}}."""
    body = chat([{"role": "user", "content": "hi"}], tool_choice={"type": "function", "function": {"name": "get_weather"}})
    assert toolwire.to_ir(body, provider="fireworks").tool_choice == ir.ToolChoice(mode="tool", name="get_weather")
    anthropic = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}], "tool_choice": {"type": "tool", "name": "get_weather"}}
    out = exact(toolwire.convert, anthropic, source="anthropic", target="fireworks")
    assert out["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}


def test_parallel_tool_calls_and_strict_are_kept():
    """API reference: parallel_tool_calls ("Enable parallel function calling") and
    ChatCompletionFunction.strict are request fields, as in OpenAI Chat."""
    tool = {"type": "function", "function": {**TOOL["function"], "strict": True}}
    body = chat([{"role": "user", "content": "hi"}], tools=[tool], parallel_tool_calls=False)
    assert exact(toolwire.convert, body, source="openai_chat", target="fireworks") == body
    anthropic = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
                 "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}}
    assert exact(toolwire.convert, anthropic, source="anthropic", target="fireworks")["parallel_tool_calls"] is False


def test_function_names_follow_the_openai_rule():
    """API reference, ChatCompletionFunction.name: "Must be a-z, A-Z, 0-9, or contain underscores and
    dashes, with a maximum length of 64" — the OpenAI rule; other names are mapped and reported."""
    req = ir.Request(model=MODEL, messages=[ir.Message(role="user", parts=[ir.TextPart(text="hi")])],
                     tools=[ir.ToolDefinition(name="files.read", parameters={"type": "object"})])
    with pytest.warns(toolwire.ConversionWarning, match="files.read"):
        out = toolwire.from_ir(req, provider="fireworks")
    assert out["tools"][0]["function"]["name"] == "files_read"


# --- sampling and limits -------------------------------------------------------------------------


def test_max_tokens_is_the_limit_and_max_completion_tokens_its_alias():
    """API reference: max_tokens; "max_completion_tokens: Alias for max_tokens. Cannot be specified
    together with max_tokens." toolwire sends max_tokens; the alias is read and kept on a round trip."""
    out = exact(toolwire.convert, chat([{"role": "user", "content": "hi"}], max_completion_tokens=64), source="openai_chat", target="fireworks")
    assert out["max_tokens"] == 64 and "max_completion_tokens" not in out
    aliased = chat([{"role": "user", "content": "hi"}], max_completion_tokens=9)
    assert toolwire.to_ir(aliased, provider="fireworks").max_tokens == 9
    assert exact(toolwire.convert, aliased, source="fireworks", target="fireworks") == aliased
    assert exact(toolwire.convert, chat([{"role": "user", "content": "hi"}], max_tokens=9), source="fireworks", target="openai_chat", model="gpt-4.1")["max_completion_tokens"] == 9


def test_top_k_is_a_fireworks_parameter():
    """API reference, ChatCompletionRequest.top_k ("Must be between 0 and 100"); OpenAI Chat has none."""
    gemini = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"topK": 40, "maxOutputTokens": 64}}
    out = exact(toolwire.convert, gemini, source="gemini", target="fireworks", model=MODEL)
    assert out["top_k"] == 40 and out["max_tokens"] == 64
    body = chat([{"role": "user", "content": "hi"}], top_k=40)
    assert toolwire.to_ir(body, provider="fireworks").top_k == 40
    with pytest.warns(toolwire.ConversionWarning, match="openai_chat has no place for Request.top_k"):
        assert "top_k" not in toolwire.convert(body, source="fireworks", target="openai_chat")


def test_stop_temperature_top_p_are_as_in_openai_chat():
    body = chat([{"role": "user", "content": "hi"}], temperature=0.2, top_p=0.9, stop=["END"])
    assert exact(toolwire.convert, body, source="openai_chat", target="fireworks") == body


# --- responses -----------------------------------------------------------------------------------


def test_has_no_content_filter_finish_reason():
    """ChatCompletionResponseStreamChoice.finish_reason: stop, length, function_call, tool_calls."""
    with pytest.warns(toolwire.ConversionWarning, match="finish_reason"):
        out = toolwire.convert(response("content_filter"), source="openai_chat", target="fireworks", kind="response")
    assert out["choices"][0]["finish_reason"] == "stop"
    assert toolwire.to_ir(response("function_call"), provider="fireworks", kind="response").finish_reason == "tool_calls"
    for reason in ("stop", "length", "tool_calls", "function_call"):
        assert exact(toolwire.convert, response(reason), source="fireworks", target="fireworks", kind="response") == response(reason)
    with pytest.raises(toolwire.UnknownVariantError):
        toolwire.to_ir(response("content_filter"), provider="fireworks", kind="response")


def test_usage_without_completion_tokens_is_read():
    """API reference, UsageInfo: prompt_tokens and total_tokens required, completion_tokens optional."""
    resp = response("stop")
    resp["usage"] = {"prompt_tokens": 5, "total_tokens": 5}
    usage = toolwire.to_ir(resp, provider="fireworks", kind="response").usage
    assert (usage.input_tokens, usage.output_tokens) == (5, None)
    assert exact(toolwire.convert, resp, source="fireworks", target="fireworks", kind="response") == resp


def test_fireworks_only_response_fields_round_trip():
    """API reference, ChatCompletionResponse: perf_metrics, prompt_token_ids; usage.prompt_tokens_details."""
    resp = response("stop")
    resp["perf_metrics"] = {"prompt-tokens": 1}
    resp["usage"]["prompt_tokens_details"] = {"cached_tokens": 0}
    assert exact(toolwire.convert, resp, source="fireworks", target="fireworks", kind="response") == resp


def test_openai_only_request_keys_are_reported_not_sent():
    """Fireworks rejects unknown request keys (ChatCompletionRequest additionalProperties: false); an
    OpenAI Chat request's unknown keys are openai_chat provider data, which goes back only to
    openai_chat (issue 9: unknown fields travel only back to the provider they came from)."""
    body = chat([{"role": "user", "content": "hi"}], store=True)
    with pytest.warns(toolwire.ConversionWarning, match="store"):
        out = toolwire.convert(body, source="openai_chat", target="fireworks")
    assert "store" not in out
