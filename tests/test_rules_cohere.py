"""Cohere Chat API v2 rules, one test per rule (spec/providers/cohere.yaml).

Sources: https://docs.cohere.com/reference/chat , https://docs.cohere.com/docs/tool-use-overview and
the official SDK types (cohere-python: V2Client.chat arguments, cohere.types ChatMessageV2,
ToolCallV2, ToolV2, ToolContent, Document, V2ChatResponse, ChatFinishReason, Usage).
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import ir


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def strict_round_trip(payload: dict, kind: str = "request") -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return toolwire.convert(payload, source="cohere", target="cohere", kind=kind)


def call(cid: str, name: str = "get_weather", arguments: str = '{"city":"Paris"}') -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def chat(*messages: dict, **extra) -> dict:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": "go"}, *messages], **extra}


def cohere(*messages: dict, **extra) -> dict:
    return {"model": "command-a-03-2025", "messages": [{"role": "user", "content": "go"}, *messages], **extra}


def result_turn(content) -> dict:
    return cohere(
        {"role": "assistant", "tool_calls": [call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": content},
    )


def result_of(body: dict):
    part = toolwire.to_ir(body, provider="cohere").messages[2].parts[0]
    return part.result, part.is_error


# --- the text beside tool calls is tool_plan ------------------------------------------------------


def test_text_beside_calls_is_sent_as_tool_plan():
    body = chat({"role": "assistant", "content": "Let me check.", "tool_calls": [call("c1")]})
    out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert out["messages"][1] == {"role": "assistant", "tool_plan": "Let me check.", "tool_calls": [call("c1")]}


def test_tool_plan_is_text_before_the_calls():
    body = cohere({"role": "assistant", "tool_plan": "I will look it up.", "tool_calls": [call("c1")]})
    parts = toolwire.to_ir(body, provider="cohere").messages[1].parts
    assert isinstance(parts[0], ir.TextPart) and parts[0].text == "I will look it up."
    assert isinstance(parts[1], ir.ToolCall)
    out = toolwire.convert(body, source="cohere", target="anthropic")
    assert [b["type"] for b in out["messages"][1]["content"]] == ["text", "tool_use"]
    assert strict_round_trip(body) == body


def test_text_without_calls_is_content():
    body = chat({"role": "assistant", "content": "Paris."})
    out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert out["messages"][1] == {"role": "assistant", "content": "Paris."}


def test_several_texts_beside_calls_are_joined_into_one_plan():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.TextPart(text="First, "), ir.TextPart(text="check."), ir.ToolCall(id="c1", name="f", arguments={})]),
    ])
    with pytest.warns(toolwire.ConversionWarning, match="joined into one plan"):
        out = toolwire.from_ir(req, provider="cohere")
    assert out["messages"][1]["tool_plan"] == "First, check."
    assert "content" not in out["messages"][1]


def test_thinking_content_is_kept_for_cohere_and_reported_elsewhere():
    body = cohere({"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Paris."}]})
    assert strict_round_trip(body) == body
    with pytest.warns(toolwire.ConversionWarning, match="openai_chat cannot express ReasoningPart"):
        out = toolwire.convert(body, source="cohere", target="openai_chat")
    assert out["messages"][1]["content"] == [{"type": "text", "text": "Paris."}]


# --- tool results: text or documents --------------------------------------------------------------


def test_object_results_are_documents():
    body = chat(
        {"role": "assistant", "content": None, "tool_calls": [call("c1")]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"temp":22,"sky":"clear"}'},
    )
    out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert out["messages"][2]["content"] == [{"type": "document", "document": {"data": {"temp": 22, "sky": "clear"}}}]
    back = toolwire.convert(out, source="cohere", target="openai_chat")
    assert back["messages"][2]["content"] == '{"temp":22,"sky":"clear"}'


def test_text_results_are_strings():
    body = result_turn("18C and clear")
    assert result_of(body) == ("18C and clear", False)
    assert strict_round_trip(body) == body


def test_a_list_of_objects_is_one_document_each():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="search", arguments={})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="search", result=[{"title": "a"}, {"title": "b"}])]),
    ])
    out = toolwire.from_ir(req, provider="cohere")
    assert out["messages"][2]["content"] == [
        {"type": "document", "document": {"data": {"title": "a"}}},
        {"type": "document", "document": {"data": {"title": "b"}}},
    ]
    assert result_of(out) == ([{"title": "a"}, {"title": "b"}], False)


def test_other_values_are_json_text():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="add", arguments={})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="add", result=[1, 2, 3])]),
    ])
    assert toolwire.from_ir(req, provider="cohere")["messages"][2]["content"] == "[1,2,3]"


def test_document_spellings_round_trip_for_cohere():
    # document ids, text parts and JSON object strings ("the content should be formatted as a
    # JSON object string") are kept as written
    for content in (
        [{"type": "document", "document": {"data": {"title": "a"}, "id": "doc-1"}}],
        [{"type": "text", "text": "line 1\n"}, {"type": "text", "text": "line 2"}],
        '{"temp":22}',
        [{"type": "text", "text": "see:"}, {"type": "document", "document": {"data": {"title": "a"}}}],
    ):
        body = result_turn(content)
        assert strict_round_trip(body) == body
    assert result_of(result_turn([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])) == ("ab", False)
    assert result_of(result_turn([{"type": "document", "document": {"data": {"title": "a"}, "id": "doc-1"}}])) == ({"title": "a"}, False)


def test_unknown_result_parts_are_errors():
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir(result_turn([{"type": "image_url", "image_url": {"url": "https://x"}}]), provider="cohere")
    assert info.value.path == "messages[2].content[0].type"


def test_error_results_are_text_with_an_error_prefix():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="f", arguments={})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="f", result={"code": 404}, is_error=True)]),
    ])
    with pytest.warns(toolwire.ConversionWarning, match="no error flag"):
        out = toolwire.from_ir(req, provider="cohere")
    assert out["messages"][2] == {"role": "tool", "tool_call_id": "c1", "content": 'Error: {"code":404}'}


def test_images_returned_by_a_tool_are_reported():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="shot", arguments={})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="shot", parts=[
            ir.TextPart(text="a chart"), ir.ImagePart(data="iVBORw0KGgo=", media_type="image/png")])]),
    ])
    with pytest.warns(toolwire.ConversionWarning, match="ImagePart"):
        out = toolwire.from_ir(req, provider="cohere")
    assert out["messages"][2]["content"] == "a chart"


# --- tool choice -----------------------------------------------------------------------------------

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
CHAT_TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]


def test_no_tool_choice_with_tools_declared_means_auto():
    body = cohere(tools=TOOLS)
    assert toolwire.to_ir(body, provider="cohere").tool_choice == ir.ToolChoice(mode="auto")
    out = toolwire.convert(body, source="cohere", target="openai_chat")
    assert out["tool_choice"] == "auto"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(out, source="openai_chat", target="cohere") == body
    assert strict_round_trip(body) == body
    assert toolwire.to_ir(cohere(), provider="cohere").tool_choice is None


@pytest.mark.parametrize("chat_choice,word", [("required", "REQUIRED"), ("none", "NONE")])
def test_required_and_none(chat_choice, word):
    out = toolwire.convert(chat(tools=CHAT_TOOLS, tool_choice=chat_choice), source="openai_chat", target="cohere")
    assert out["tool_choice"] == word
    assert toolwire.to_ir(out, provider="cohere").tool_choice == ir.ToolChoice(mode=chat_choice)
    assert strict_round_trip(out) == out


def test_a_named_tool_is_sent_as_required_and_reported():
    body = chat(tools=CHAT_TOOLS, tool_choice={"type": "function", "function": {"name": "f"}})
    with pytest.warns(toolwire.ConversionWarning, match="cannot name the tool to call; sent 'REQUIRED'"):
        out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert out["tool_choice"] == "REQUIRED"


def test_allowed_names_are_reported():
    gemini = {
        "contents": [{"role": "user", "parts": [{"text": "go"}]}],
        "tools": [{"functionDeclarations": [{"name": "f"}, {"name": "g"}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f", "g"]}},
    }
    with pytest.warns(toolwire.ConversionWarning, match="allowed_names not sent"):
        out = toolwire.convert(gemini, source="gemini", target="cohere", model="command-a-03-2025")
    assert out["tool_choice"] == "REQUIRED"


def test_an_unknown_tool_choice_is_an_error():
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir(cohere(tools=TOOLS, tool_choice="AUTO"), provider="cohere")
    assert info.value.path == "tool_choice" and "absent means auto" in info.value.message


# --- tools and request parameters -----------------------------------------------------------------


def test_strictness_is_request_wide():
    body = chat(tools=[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}, "strict": True}}])
    with pytest.warns(toolwire.ConversionWarning, match="ToolDefinition.strict"):
        out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert "strict_tools" not in out
    own = cohere(tools=TOOLS, strict_tools=True)
    assert strict_round_trip(own) == own


def test_tools_always_have_parameters():
    body = {"contents": [{"role": "user", "parts": [{"text": "go"}]}], "tools": [{"functionDeclarations": [{"name": "ping"}]}]}
    with pytest.warns(toolwire.ConversionWarning, match="parameters is required by cohere"):
        out = toolwire.convert(body, source="gemini", target="cohere", model="command-a-03-2025")
    assert out["tools"] == [{"type": "function", "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}}}]


def test_sampling_is_p_and_k():
    body = chat(max_completion_tokens=50, temperature=0.3, top_p=0.75, stop=["END"])
    out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert {k: out[k] for k in ("max_tokens", "temperature", "p", "stop_sequences")} == {
        "max_tokens": 50, "temperature": 0.3, "p": 0.75, "stop_sequences": ["END"]}
    assert toolwire.to_ir({**out, "k": 40}, provider="cohere").top_k == 40


def test_parallel_tool_calls_is_reported():
    with pytest.warns(toolwire.ConversionWarning, match="parallel_tool_calls"):
        toolwire.convert(chat(tools=CHAT_TOOLS, parallel_tool_calls=False), source="openai_chat", target="cohere")


def test_user_images_are_image_url_parts():
    data = "data:image/png;base64,iVBORw0KGgo="
    body = chat({"role": "user", "content": [{"type": "text", "text": "what?"}, {"type": "image_url", "image_url": {"url": data, "detail": "low"}}]})
    out = toolwire.convert(body, source="openai_chat", target="cohere")
    assert out["messages"][1]["content"][1] == {"type": "image_url", "image_url": {"url": data, "detail": "low"}}


# --- responses -------------------------------------------------------------------------------------

CALL_RESPONSE = {
    "id": "d0a9a4b1-6a8c-4a4b-9f3a-2b2f3c1d0e9f",
    "finish_reason": "TOOL_CALL",
    "message": {"role": "assistant", "tool_plan": "I will check the weather.", "tool_calls": [call("get_weather_r2k1")]},
    "usage": {"billed_units": {"input_tokens": 20, "output_tokens": 15}, "tokens": {"input_tokens": 980, "output_tokens": 15}},
}


def test_tool_call_finish_and_plan_in_responses():
    resp = toolwire.to_ir(CALL_RESPONSE, provider="cohere", kind="response")
    assert resp.finish_reason == "tool_calls"
    assert [type(p).__name__ for p in resp.message.parts] == ["TextPart", "ToolCall"]
    out = quiet(toolwire.convert, CALL_RESPONSE, source="cohere", target="openai_chat", kind="response")
    assert out["choices"][0]["finish_reason"] == "tool_calls"
    assert out["choices"][0]["message"]["content"] == "I will check the weather."
    assert strict_round_trip(CALL_RESPONSE, "response") == CALL_RESPONSE


def test_usage_is_the_token_counts_and_billed_units_are_carried():
    usage = toolwire.to_ir(CALL_RESPONSE, provider="cohere", kind="response").usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (980, 15, 995)
    with pytest.warns(toolwire.ConversionWarning, match="billed_units"):
        toolwire.convert(CALL_RESPONSE, source="cohere", target="openai_chat", kind="response")


@pytest.mark.parametrize("reason,ir_reason", [("COMPLETE", "stop"), ("STOP_SEQUENCE", "stop"), ("MAX_TOKENS", "length"), ("ERROR", "error"), ("TIMEOUT", "error")])
def test_finish_reasons(reason, ir_reason):
    body = {"id": "x", "finish_reason": reason, "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}}
    assert toolwire.to_ir(body, provider="cohere", kind="response").finish_reason == ir_reason
    assert strict_round_trip(body, "response") == body


def test_reasons_cohere_has_no_word_for_are_reported():
    gemini = {"candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": "SAFETY"}], "responseId": "r1"}
    with pytest.warns(toolwire.ConversionWarning, match="no finish_reason for 'content_filter'"):
        out = toolwire.convert(gemini, source="gemini", target="cohere", kind="response")
    assert out["finish_reason"] == "ERROR"


def test_responses_have_no_model_and_need_an_id():
    ollama = {"model": "qwen3", "message": {"role": "assistant", "content": "hi"}, "done": True, "done_reason": "stop"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(ollama, source="ollama", target="cohere", kind="response")
    text = " | ".join(str(w.message) for w in caught)
    assert "Response.model" in text and "id is required by cohere" in text
    assert out == {"id": "", "finish_reason": "COMPLETE", "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}}


def test_citations_are_carried_for_cohere_and_reported_elsewhere():
    body = {
        "id": "x", "finish_reason": "COMPLETE",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "It is 22°."}], "citations": [
            {"start": 6, "end": 9, "text": "22°", "sources": [{"type": "tool", "id": "c1:0", "tool_output": {"temp": 22}}], "type": "TEXT_CONTENT"}]},
    }
    assert strict_round_trip(body, "response") == body
    with pytest.warns(toolwire.ConversionWarning, match="citations"):
        toolwire.convert(body, source="cohere", target="openai_chat", kind="response")


# --- the runtime transforms behind these rules (spec/transforms.yaml) -----------------------------


def test_document_result_canonical_forms():
    from toolwire_runtime.transforms import document_result_parse

    doc = {"type": "document", "document": {"data": {"a": 1}}}
    assert document_result_parse("text", "p", "document", "data") == ("text", False, None, None)
    assert document_result_parse([doc], "p", "document", "data") == ({"a": 1}, False, None, None)
    assert document_result_parse([doc, doc], "p", "document", "data") == ([{"a": 1}, {"a": 1}], False, None, None)
    # spellings the canonical rendering would not give back are kept as the hint
    assert document_result_parse('{"a":1}', "p", "document", "data")[3] == '{"a":1}'
    assert document_result_parse([], "p", "document", "data") == ("", False, None, [])
    with pytest.raises(toolwire.WrongTypeError):
        document_result_parse([{"type": "document", "document": {"data": "text"}}], "p", "document", "data")


def test_implied_choice_reads_the_tools_only_to_say_auto():
    from toolwire_runtime.transforms import implied_choice_parse

    assert implied_choice_parse([{"type": "function"}], "p", {}) == (ir.ToolChoice(mode="auto"), "implied")
    assert implied_choice_parse([], "p", {}) == (None, "implied")
    assert implied_choice_parse("NONE", "p", {"NONE": "none"}) == (ir.ToolChoice(mode="none"), None)
