"""Bedrock Converse rules (issue 5), one test per rule, each naming where it comes from.

Sources: the Converse API reference (docs.aws.amazon.com/bedrock/latest/APIReference/
API_runtime_Converse.html and the data types it links) and the bedrock-runtime service model in
botocore (service-2.json: shapes, enums, lengths, patterns). spec/providers/bedrock_converse.yaml
lists what Converse cannot express.
"""

from __future__ import annotations

import copy
import json
import warnings

import botocore.session
import pytest

import toolwire
from toolwire import ir

P = "bedrock_converse"
MODEL = botocore.session.get_session().get_service_model("bedrock-runtime")


def convert(body: dict, source: str = "openai_chat", target: str = P, **kwargs) -> tuple[dict, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(body, source=source, target=target, **kwargs)
    return out, [str(w.message) for w in caught if issubclass(w.category, toolwire.ConversionWarning)]


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def call(cid: str, name: str = "get_weather", arguments: str = '{"city":"Paris"}') -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def tool(name: str = "get_weather", **function) -> dict:
    return {"type": "function", "function": {"name": name, "description": "Weather", "parameters": {"type": "object"}, **function}}


def chat(*messages: dict, **extra) -> dict:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": "weather?"}, *messages], **extra}


def turn(*calls: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


def result(cid: str, content: str = "18C") -> dict:
    return {"role": "tool", "tool_call_id": cid, "content": content}


def bedrock(*messages: dict, tools: list | None = None, **extra) -> dict:
    body = {"messages": [{"role": "user", "content": [{"text": "weather?"}]}, *messages], **extra}
    if tools is not None:
        body["toolConfig"] = {"tools": tools}
    return body


SPEC = {"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}


def use(cid: str, name: str = "get_weather", **input) -> dict:
    return {"toolUse": {"toolUseId": cid, "name": name, "input": input}}


def answer(cid: str, *content: dict, **extra) -> dict:
    return {"toolResult": {"toolUseId": cid, "content": list(content), **extra}}


# --- tools and tool choice ---------------------------------------------------------------------


def test_tools_are_tool_specs_with_an_input_schema_json():
    """ToolConfiguration.tools[].toolSpec {name, description, inputSchema {json}} (API: ToolSpecification)."""
    body, _ = convert(chat(tools=[tool()]))
    assert body["toolConfig"]["tools"] == [
        {"toolSpec": {"name": "get_weather", "description": "Weather", "inputSchema": {"json": {"type": "object"}}}}
    ]
    assert toolwire.to_ir(body, provider=P).tools[0].parameters == {"type": "object"}


def test_an_empty_description_is_not_sent():
    """ToolSpecification.description is a NonEmptyString (min 1)."""
    body, warns = convert(chat(tools=[tool(description="")]))
    assert "description" not in body["toolConfig"]["tools"][0]["toolSpec"]
    assert not any("description" in w for w in warns)


def test_a_tool_without_parameters_gets_the_empty_object_schema():
    """inputSchema is required (ToolSpecification.inputSchema); OpenAI parameters are optional."""
    body, warns = convert(chat(tools=[{"type": "function", "function": {"name": "ping"}}]))
    assert body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"] == {"json": {"type": "object", "properties": {}}}
    assert any("json is required" in w for w in warns)


@pytest.mark.parametrize(
    "choice,wire",
    [
        ("auto", {"auto": {}}),
        ("required", {"any": {}}),
        ({"type": "function", "function": {"name": "get_weather"}}, {"tool": {"name": "get_weather"}}),
    ],
)
def test_tool_choice_is_auto_any_or_tool(choice, wire):
    """ToolChoice is a union: {auto: {}} | {any: {}} | {tool: {name}} (API: ToolChoice)."""
    body, _ = convert(chat(tools=[tool()], tool_choice=choice))
    assert body["toolConfig"]["toolChoice"] == wire
    back, _ = convert(body, source=P, target="openai_chat")
    assert back["tool_choice"] == choice


def test_tool_choice_none_without_tool_history_sends_no_tools():
    """There is no "none" ToolChoice: the tools are not sent, so no tool can be called; reported."""
    body, warns = convert(chat(tools=[tool()], tool_choice="none"))
    assert "toolConfig" not in body
    assert any("no tool choice 'none'; the tools are not sent" in w for w in warns)
    with pytest.raises(toolwire.LossError):
        toolwire.convert(chat(tools=[tool()], tool_choice="none"), source="openai_chat", target=P, strict=True)


def test_tool_choice_none_with_tool_history_keeps_the_tools_and_reports():
    """toolConfig is required when messages hold toolUse / toolResult blocks: the tools stay, without a choice."""
    body, warns = convert(chat(turn(call("c1")), result("c1"), tools=[tool()], tool_choice="none"))
    assert body["toolConfig"] == {"tools": [{"toolSpec": {"name": "get_weather", "description": "Weather", "inputSchema": {"json": {"type": "object"}}}}]}
    assert any("the model may still call them" in w for w in warns)


def test_tool_history_without_tools_gets_tools_made_up_from_the_calls_names():
    """A request whose messages hold toolUse / toolResult blocks needs toolConfig ("The toolConfig field
    must be defined when using toolUse and toolResult content blocks"): with no tools declared, one
    per name the calls use is sent with the permissive schema {"type": "object"}, and reported as an
    assumption (strict mode does not fail: nothing is lost)."""
    body, warns = convert(chat(turn(call("c1"), call("c2", "get_time")), result("c1"), result("c2")))
    assert body["toolConfig"] == {"tools": [
        {"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}},
        {"toolSpec": {"name": "get_time", "inputSchema": {"json": {"type": "object"}}}},
    ]}
    assert any("the input declares none: sent 'get_weather', 'get_time'" in w for w in warns), warns
    node = toolwire.to_ir(chat(turn(call("c1")), result("c1")), provider="openai_chat")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        strict = toolwire.from_ir(node, provider=P, strict=True)
    assert strict["toolConfig"]["tools"][0]["toolSpec"]["name"] == "get_weather"
    assert [w.category for w in caught if "declares none" in str(w.message)] == [toolwire.AssumptionWarning]


def test_made_up_tools_take_no_choice_but_auto():
    body, warns = convert(chat(turn(call("c1")), result("c1"), tool_choice="required"))
    assert "toolChoice" not in body["toolConfig"]
    assert any("tool choice 'required' without declared tools cannot be sent" in w for w in warns), warns


def test_allowed_names_cannot_be_sent():
    """No way to restrict auto / any to a subset of the tools (Gemini allowedFunctionNames)."""
    gemini = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}},
    }
    body, warns = convert(gemini, source="gemini")
    assert body["toolConfig"]["toolChoice"] == {"any": {}}
    assert any("allowed_names" in w for w in warns)


# --- calls and results -------------------------------------------------------------------------


def test_calls_are_tool_use_blocks_with_an_object_input():
    """ToolUseBlock {toolUseId, name, input}; input is a JSON document (an object), not JSON text."""
    body, _ = convert(chat(turn(call("call_1")), result("call_1"), tools=[tool()]))
    assert body["messages"][1] == {"role": "assistant", "content": [use("call_1", city="Paris")]}
    back, _ = convert(body, source=P, target="openai_chat")
    assert back["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"city":"Paris"}'


def test_invalid_argument_text_is_sent_as_an_empty_object_and_reported():
    body, warns = convert(chat(turn(call("c1", arguments="{oops")), tools=[tool()]))
    assert body["messages"][1]["content"][0]["toolUse"]["input"] == {}
    assert any("sent as {}" in w for w in warns)


def test_object_results_are_json_blocks():
    """ToolResultContentBlock json; string-result providers' JSON-object text is that object."""
    body, _ = convert(chat(turn(call("c1")), result("c1", '{"temp":18}'), tools=[tool()]))
    assert body["messages"][2]["content"] == [answer("c1", {"json": {"temp": 18}})]
    back, _ = convert(body, source=P, target="openai_chat")
    assert back["messages"][2]["content"] == '{"temp":18}'


def test_text_results_are_text_blocks():
    body, _ = convert(chat(turn(call("c1")), result("c1", "18C"), tools=[tool()]))
    assert body["messages"][2]["content"] == [answer("c1", {"text": "18C"})]


@pytest.mark.parametrize("value", [42, 1.5, True, None, [1, "a"], {"output": 1}])
def test_non_object_results_are_wrapped_as_output(value):
    """The json block carries an object: other values go as {"output": value} (Gemini's key) and come back unwrapped."""
    req = ir.Request(
        messages=[
            ir.Message(role="user", parts=[ir.TextPart(text="go")]),
            ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="f", arguments={})]),
            ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="f", result=value)]),
        ],
        tools=[ir.ToolDefinition(name="f", parameters={"type": "object"})],
    )
    body = toolwire.from_ir(req, provider=P)
    assert body["messages"][2]["content"][0]["toolResult"]["content"] == [{"json": {"output": value}}]
    assert toolwire.to_ir(body, provider=P).messages[2].parts[0].result == value


def test_text_that_looks_like_json_stays_text_on_a_bedrock_round_trip():
    body = bedrock({"role": "assistant", "content": [use("c1")]}, {"role": "user", "content": [answer("c1", {"text": '{"a":1}'})]}, tools=[SPEC])
    assert toolwire.from_ir(toolwire.to_ir(body, provider=P), provider=P) == body


def test_results_of_one_turn_go_in_one_user_message_with_the_text_after_them():
    """Tool results are toolResult blocks of a user message; consecutive user content merges (results first)."""
    body, _ = convert(
        chat(turn(call("c1"), call("c2", "get_time")), result("c1"), result("c2", "noon"), {"role": "user", "content": "thanks"},
             tools=[tool(), tool("get_time")])
    )
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][2]["content"] == [answer("c1", {"text": "18C"}), answer("c2", {"text": "noon"}), {"text": "thanks"}]


def test_every_call_needs_exactly_one_result():
    """The number of toolResult blocks must match the toolUse blocks of the previous turn."""
    with pytest.raises(toolwire.UnansweredToolCallError):
        convert(chat(turn(call("c1"), call("c2")), result("c1"), {"role": "user", "content": "?"}, tools=[tool()]))
    with pytest.raises(toolwire.ResultCountError):
        convert(chat(turn(call("c1")), result("c1"), result("c1"), tools=[tool()]))
    stray = bedrock({"role": "assistant", "content": [use("c1")]}, {"role": "user", "content": [answer("c1", {"text": "x"}), answer("c9", {"text": "y"})]}, tools=[SPEC])
    with pytest.raises(toolwire.UnknownToolCallError):
        toolwire.convert(stray, source=P, target="anthropic", model="m")


def test_errors_are_status_error_and_success_is_not_sent():
    """ToolResultBlock.status: success | error (Nova, Claude 3 and 4)."""
    anthropic = {
        "model": "m", "max_tokens": 10, "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "no such city", "is_error": True}]},
        ],
    }
    body, _ = convert(anthropic, source="anthropic")
    assert body["messages"][2]["content"] == [answer("t1", {"text": "no such city"}, status="error")]
    back, _ = convert(body, source=P, target="anthropic", model="m")
    assert back["messages"][2] == anthropic["messages"][2]
    ok, _ = convert(chat(turn(call("c1")), result("c1"), tools=[tool()]))
    assert "status" not in ok["messages"][2]["content"][0]["toolResult"]


def test_an_explicit_success_status_round_trips_and_an_unknown_one_is_an_error():
    body = bedrock({"role": "assistant", "content": [use("c1")]}, {"role": "user", "content": [answer("c1", {"text": "x"}, status="success")]}, tools=[SPEC])
    assert toolwire.from_ir(toolwire.to_ir(body, provider=P), provider=P) == body
    body["messages"][2]["content"][0]["toolResult"]["status"] = "failed"
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir(body, provider=P)
    assert info.value.path == "messages[2].content[0].toolResult.status"


def test_multimodal_results_keep_text_and_images():
    """ToolResultContentBlock text | image; images are {format, source: {bytes}}."""
    anthropic = {
        "model": "m", "max_tokens": 10, "tools": [{"name": "shot", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "screenshot"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "shot", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [
                {"type": "text", "text": "done"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            ]}]},
        ],
    }
    body, _ = convert(anthropic, source="anthropic")
    assert body["messages"][2]["content"][0]["toolResult"]["content"] == [
        {"text": "done"}, {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}
    ]
    back, _ = convert(body, source=P, target="anthropic", model="m")
    assert back["messages"][2] == anthropic["messages"][2]


def test_one_json_block_per_result_and_documents_are_file_parts():
    """The IR keeps one result value; text, image and document blocks are its parts (a document is a
    FilePart: ToolResultContentBlock.document, botocore bedrock-runtime DocumentBlock)."""
    two = bedrock({"role": "assistant", "content": [use("c1")]}, {"role": "user", "content": [answer("c1", {"json": {}}, {"json": {}})]}, tools=[SPEC])
    with pytest.raises(toolwire.UnsupportedError):
        toolwire.to_ir(two, provider=P)
    doc = bedrock({"role": "assistant", "content": [use("c1")]}, {"role": "user", "content": [answer("c1", {"document": {"name": "d", "source": {"text": "x"}}})]}, tools=[SPEC])
    part = toolwire.to_ir(doc, provider=P).messages[-1].parts[0].parts[0]
    assert type(part) is toolwire.ir.FilePart and part.filename == "d" and part.data == "eA=="
    assert toolwire.convert(doc, source=P, target=P) == doc


# --- names and ids -----------------------------------------------------------------------------


def _pattern(shape: str) -> str:
    return MODEL.shape_for(shape).metadata["pattern"]


def test_the_rules_are_the_service_models():
    """ToolName [a-zA-Z0-9_-]+ and ToolUseId [a-zA-Z0-9_.:-]+, both 1 to 64 (botocore service-2.json)."""
    assert _pattern("ToolName") == "[a-zA-Z0-9_-]+" and MODEL.shape_for("ToolName").metadata["max"] == 64
    assert _pattern("ToolUseId") == "[a-zA-Z0-9_.:-]+" and MODEL.shape_for("ToolUseId").metadata["max"] == 64


def test_tool_names_are_fitted_and_mapped_back():
    """MCP-style names (dots, slashes) break ToolName: fitted (reported), mapped back with tool_names."""
    body, warns = convert(chat(turn(call("c1", "fs.read/file")), result("c1"), tools=[tool("fs.read/file")]))
    assert body["toolConfig"]["tools"][0]["toolSpec"]["name"] == "fs_read_file"
    assert body["messages"][1]["content"][0]["toolUse"]["name"] == "fs_read_file"
    assert any("tool names that break" in w for w in warns)
    response = {"output": {"message": {"role": "assistant", "content": [use("tooluse_1", "fs_read_file")]}},
                "stopReason": "tool_use", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 1}}
    back = toolwire.to_ir(response, provider=P, kind="response", tool_names=["fs.read/file"])
    assert back.message.parts[0].name == "fs.read/file"


def test_long_tool_names_are_shortened_to_64():
    name = "x" * 80
    body, _ = convert(chat(tools=[tool(name)]))
    fitted = body["toolConfig"]["tools"][0]["toolSpec"]["name"]
    assert len(fitted) == 64 and fitted.startswith("x")


def test_foreign_call_ids_are_fitted_and_call_and_result_agree():
    """An id with characters outside ToolUseId, or longer than 64, is fitted the same way for both."""
    for cid in ("call/1 #a", "id-" + "9" * 80):
        body, warns = convert(chat(turn(call(cid)), result(cid), tools=[tool()]))
        sent = body["messages"][1]["content"][0]["toolUse"]["toolUseId"]
        assert sent == body["messages"][2]["content"][0]["toolResult"]["toolUseId"]
        assert len(sent) <= 64 and all(c.isalnum() or c in "_.:-" for c in sent)
        assert any("call ids that break" in w for w in warns)
    body, warns = convert(chat(turn(call("toolu_01A:b.c-d")), result("toolu_01A:b.c-d"), tools=[tool()]))
    assert body["messages"][1]["content"][0]["toolUse"]["toolUseId"] == "toolu_01A:b.c-d"


# --- messages, system, inference parameters, images --------------------------------------------


def test_the_system_prompt_is_the_top_level_system_list():
    """Converse `system`: a list of SystemContentBlock {text}; several system messages give several blocks."""
    body, _ = convert({"messages": [{"role": "system", "content": "Be brief."}, {"role": "developer", "content": "Use metric."},
                                    {"role": "user", "content": "hi"}]})
    assert body["system"] == [{"text": "Be brief."}, {"text": "Use metric."}]
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}]}]


def test_a_mid_conversation_system_message_is_hoisted_and_reported():
    body, warns = convert(chat({"role": "assistant", "content": "ok"}, {"role": "system", "content": "late"}, {"role": "user", "content": "go"}))
    assert body["system"] == [{"text": "late"}]
    assert any("system message in mid-conversation" in w for w in warns)


def test_roles_are_user_and_assistant_only():
    body, _ = convert(chat(turn(call("c1")), result("c1"), tools=[tool()]))
    assert {m["role"] for m in body["messages"]} == {"user", "assistant"}
    with pytest.raises(toolwire.UnknownVariantError):
        toolwire.to_ir({"messages": [{"role": "tool", "content": [{"text": "x"}]}]}, provider=P)


def test_content_is_always_a_list_of_blocks():
    body, _ = convert(chat({"role": "assistant", "content": "sure"}, {"role": "user", "content": "go"}))
    assert body["messages"][1] == {"role": "assistant", "content": [{"text": "sure"}]}


def test_blank_text_blocks_are_not_sent():
    """Bedrock rejects blank text ("The text field in the ContentBlock object ... is blank")."""
    req = ir.Request(messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="hi")]),
        ir.Message(role="assistant", parts=[ir.TextPart(text="\n\n"), ir.ToolCall(id="c1", name="f", arguments={}), ir.TextPart(text="  "), ir.TextPart(text="done")]),
    ], tools=[ir.ToolDefinition(name="f", parameters={"type": "object"})])
    body = quiet(toolwire.from_ir, req, provider=P)
    assert body["messages"][1]["content"] == [use("c1", "f"), {"text": "done"}]


def test_a_message_of_only_blank_text_is_left_out_and_reported():
    """Its content would be empty ("The content field in the Message object at messages.N is empty");
    the user turns around it merge into one."""
    body, warns = convert(chat({"role": "assistant", "content": " \n"}, {"role": "user", "content": "again?"}))
    assert body["messages"] == [{"role": "user", "content": [{"text": "weather?"}, {"text": "again?"}]}]
    assert any("assistant message of only blank text" in w for w in warns), warns


def test_a_final_assistant_prefill_loses_its_trailing_whitespace():
    body, warns = convert(chat({"role": "assistant", "content": "The answer is  "}))
    assert body["messages"][-1]["content"] == [{"text": "The answer is"}]
    assert any("trailing whitespace" in w for w in warns)


def test_inference_config():
    """InferenceConfiguration {maxTokens, temperature, topP, stopSequences}; no topK, no parallel switch."""
    body, warns = convert(chat(max_completion_tokens=50, temperature=0.2, top_p=0.9, stop="END", parallel_tool_calls=False, tools=[tool()]))
    assert body["inferenceConfig"] == {"maxTokens": 50, "temperature": 0.2, "topP": 0.9, "stopSequences": ["END"]}
    assert any("parallel_tool_calls" in w for w in warns)
    gemini = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"topK": 40}}
    _, warns = convert(gemini, source="gemini")
    assert any("top_k" in w for w in warns)


def test_the_model_is_in_the_url():
    body, warns = convert(chat())
    assert "model" not in body and "modelId" not in body
    assert any("Request.model" in w for w in warns)


def test_images_are_base64_bytes_with_a_format():
    """ImageBlock {format: png | jpeg | gif | webp, source: {bytes}} (bytes are base64 text in JSON)."""
    data_url = "data:image/jpeg;base64,/9j/4AAQ"
    body, _ = convert({"messages": [{"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": data_url}}]}]})
    assert body["messages"][0]["content"][1] == {"image": {"format": "jpeg", "source": {"bytes": "/9j/4AAQ"}}}
    back, _ = convert(body, source=P, target="openai_chat", model="m")
    assert back["messages"][0]["content"][1]["image_url"]["url"] == data_url


def test_image_urls_cannot_be_sent():
    """ImageSource is bytes or an s3Location: an https image is dropped and reported."""
    body, warns = convert({"messages": [{"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}]}]})
    assert body["messages"][0]["content"] == [{"text": "see"}]
    assert any("cannot express ImagePart" in w for w in warns)


def test_image_media_types_outside_the_image_format_enum_are_errors():
    with pytest.raises(toolwire.UnknownVariantError, match="image format"):
        convert({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/svg+xml;base64,PHN2Zz4="}}]}]})


def test_unknown_content_blocks_round_trip_and_are_reported_elsewhere():
    """cachePoint, document, ... are kept for Bedrock, dropped and reported for others; reasoningContent
    is reasoning, which goes to Anthropic with its signature (tests/test_reasoning.py)."""
    body = bedrock({"role": "assistant", "content": [{"reasoningContent": {"reasoningText": {"text": "hm", "signature": "c2ln"}}}, {"text": "ok"}]},
                   {"role": "user", "content": [{"text": "more"}, {"cachePoint": {"type": "default"}}]},
                   system=[{"text": "sys"}, {"cachePoint": {"type": "default"}}])
    assert toolwire.from_ir(toolwire.to_ir(body, provider=P), provider=P) == body
    out, warns = convert(body, source=P, target="anthropic", model="m")
    assert out["messages"][1]["content"] == [{"type": "thinking", "thinking": "hm", "signature": "c2ln"}, {"type": "text", "text": "ok"}]
    assert any("bedrock_converse item has no anthropic equivalent" in w for w in warns)


# --- responses ---------------------------------------------------------------------------------


def _response(stop: str, *content: dict) -> dict:
    return {"output": {"message": {"role": "assistant", "content": list(content) or [{"text": "ok"}]}},
            "stopReason": stop, "usage": {"inputTokens": 3, "outputTokens": 2, "totalTokens": 5}, "metrics": {"latencyMs": 120}}


@pytest.mark.parametrize("stop", MODEL.shape_for("StopReason").enum)
def test_every_stop_reason_of_the_service_model_is_read_and_round_trips(stop):
    payload = _response(stop)
    resp = toolwire.to_ir(payload, provider=P, kind="response")
    assert resp.finish_reason in ("stop", "length", "tool_calls", "content_filter", "malformed_tool_call", "error")
    assert toolwire.from_ir(resp, provider=P) == payload


def test_stop_reasons_map_to_their_meaning():
    read = {s: toolwire.to_ir(_response(s), provider=P, kind="response").finish_reason for s in MODEL.shape_for("StopReason").enum}
    assert read == {
        "end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop",
        "guardrail_intervened": "content_filter", "content_filtered": "content_filter",
        "malformed_model_output": "error", "malformed_tool_use": "malformed_tool_call", "model_context_window_exceeded": "length",
    }


def test_a_tool_use_response():
    payload = _response("tool_use", {"text": "Checking."}, use("tooluse_Xy1", city="Paris"))
    resp = toolwire.to_ir(payload, provider=P, kind="response")
    assert resp.finish_reason == "tool_calls"
    assert [type(p).__name__ for p in resp.message.parts] == ["TextPart", "ToolCall"]
    assert resp.usage.total_tokens == 5
    chat_response, _ = convert(payload, source=P, target="openai_chat", kind="response")
    assert chat_response["choices"][0]["message"]["tool_calls"][0]["id"] == "tooluse_Xy1"


def test_a_response_from_another_provider_gets_metrics_and_a_total():
    anthropic = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": [{"type": "text", "text": "hi"}],
                 "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 2}}
    body, warns = convert(anthropic, source="anthropic", kind="response")
    assert body == _response("end_turn", {"text": "hi"}) | {"metrics": {"latencyMs": 0}}
    assert any("Response.id" in w for w in warns) and any("Response.model" in w for w in warns)


def test_finish_reasons_bedrock_has_no_word_for_are_reported():
    responses = {"id": "r", "object": "response", "created_at": 1, "status": "failed", "model": "m", "output": [], "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}
    body, warns = convert(responses, source="openai_responses", kind="response")
    assert body["stopReason"] == "malformed_model_output"
    assert any("stopReason for 'error'" in w for w in warns)


# A server-side tool (Amazon Nova's built-in code interpreter, systemTool nova_code_interpreter):
# Bedrock runs it and returns its call and result in the same assistant turn — ToolUseBlock.type
# "server_tool_use" and a ToolResultBlock with a `type` (service model shapes ToolUseType, String).
# Shape as recorded in ../shared/realworld/conv_pydantic_ai.jsonl (pydantic-ai test_bedrock cassette).
NOVA_SERVER_TOOL = {
    "messages": [
        {"role": "user", "content": [{"text": "What is 1234 * 5678?"}]},
        {"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "tooluse_srv1", "name": "nova_code_interpreter", "type": "server_tool_use", "input": {"snippet": "1234 * 5678"}}},
            {"toolResult": {"toolUseId": "tooluse_srv1", "type": "nova_code_interpreter_result", "status": "success",
                            "content": [{"json": {"exitCode": 0, "stdOut": "7006652", "stdErr": "", "isError": False}}]}},
            {"toolUse": {"toolUseId": "tooluse_cli1", "name": "final_result", "input": {"result": 7006652}}},
        ]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_cli1", "content": [{"text": "done"}]}}]},
    ],
    "toolConfig": {"tools": [
        {"toolSpec": {"name": "final_result", "inputSchema": {"json": {"type": "object", "properties": {"result": {"type": "number"}}}}}},
        {"systemTool": {"name": "nova_code_interpreter"}},
    ]},
}


def test_a_server_tool_call_and_its_result_stay_in_place_for_bedrock():
    out, warned = convert(NOVA_SERVER_TOOL, source=P)
    assert out == NOVA_SERVER_TOOL and warned == []
    parts = toolwire.to_ir(NOVA_SERVER_TOOL, provider=P).messages[1].parts
    assert [type(p).__name__ for p in parts] == ["OpaquePart", "OpaquePart", "ToolCall"]  # not a client call


@pytest.mark.parametrize("target", ["anthropic", "openai_chat", "gemini", "mistral"])
def test_a_server_tool_call_and_its_result_are_reported_elsewhere_and_the_client_call_goes(target):
    out, warned = convert(NOVA_SERVER_TOOL, source=P, target=target, model="m-1")
    text = str(out)
    assert "tooluse_srv1" not in text and "final_result" in text
    assert any("no " + target + " equivalent; dropped" in w for w in warned)
    assert any("'systemTool nova_code_interpreter'" in w for w in warned)
    assert "[]" not in json.dumps(out).replace('"required": []', "")  # no content left as an empty array


# --- numeric ranges of the service model (InferenceConfiguration: temperature and topP 0..1,
# maxTokens ≥ 1; botocore shapes InferenceConfigurationTemperatureFloat, ...TopPFloat, ...MaxTokensInteger)


@pytest.mark.parametrize("field, value, wire", [
    ("temperature", -1, "temperature"),   # recorded: an OpenAI Responses request the API rejected
    ("temperature", 1.5, "temperature"),  # valid for OpenAI (0..2), outside Bedrock's 0..1
    ("top_p", 1.01, "topP"),
    ("max_tokens", 0, "maxTokens"),
])
def test_a_value_outside_the_service_models_range_is_reported_and_not_sent_never_clamped(field, value, wire):
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "Hi"}], field: value, "stop": ["END"]}
    out, warns = convert(body)
    assert wire not in out["inferenceConfig"] and out["inferenceConfig"]["stopSequences"] == ["END"]
    assert any(w.startswith(f"{field}: {value!r} is outside the range bedrock_converse accepts") for w in warns), warns
    with pytest.raises(toolwire.LossError):
        toolwire.convert(body, source="openai_chat", target=P, strict=True)


def test_values_at_the_bounds_of_the_range_are_sent_as_they_are():
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "Hi"}], "temperature": 0, "top_p": 1, "max_tokens": 1}
    out, warns = convert(body)
    assert out["inferenceConfig"] == {"maxTokens": 1, "temperature": 0, "topP": 1}
    assert not any("outside the range" in w for w in warns)
