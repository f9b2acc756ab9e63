"""Provider rules that break naive translators (issue 4), one test per rule.

Each names the rule and where it comes from; the id / name rules are in test_identifiers.py, the
Gemini schema subset in test_gemini_schema.py, unanswered calls in test_errors.py.
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


def gemini_call(name: str, args: dict | None = None, **extra) -> dict:
    return {"functionCall": {"name": name, "args": args or {}, **extra}}


def gemini_result(name: str, output, **extra) -> dict:
    return {"functionResponse": {"name": name, "response": {"output": output}, **extra}}


# --- Gemini ids -----------------------------------------------------------------------------------


def test_gemini_empty_ids_are_missing_ids_and_synthesized_ids_are_unique_across_turns():
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [gemini_call("a", id="")]},
            {"role": "user", "parts": [gemini_result("a", 1)]},
            {"role": "model", "parts": [gemini_call("a")]},
            {"role": "user", "parts": [gemini_result("a", 2)]},
        ]
    }
    req = toolwire.to_ir(body, provider="gemini")
    calls = [p for m in req.messages for p in m.parts if isinstance(p, ir.ToolCall)]
    results = [p for m in req.messages for p in m.parts if isinstance(p, ir.ToolResult)]
    assert len({c.id for c in calls}) == 2 and all(c.synthetic_id for c in calls)
    assert [r.tool_call_id for r in results] == [c.id for c in calls]
    assert req.messages[1].parts[0].id == toolwire.to_ir(body, provider="gemini").messages[1].parts[0].id
    # synthesized ids are not sent back to Gemini: the original body comes back
    assert toolwire.from_ir(req, provider="gemini") == body


def test_gemini_results_pair_by_id_first_and_go_back_in_call_order():
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [gemini_call("a", id="c1"), gemini_call("a", id="c2")]},
            {"role": "user", "parts": [gemini_result("a", "second", id="c2"), gemini_result("a", "first", id="c1")]},
        ]
    }
    req = toolwire.to_ir(body, provider="gemini")
    assert [(r.tool_call_id, r.result) for r in req.messages[2].parts] == [("c2", "second"), ("c1", "first")]
    chat = toolwire.from_ir(req, provider="openai_chat", model="m")
    out = toolwire.convert(chat, source="openai_chat", target="gemini")
    assert [p["functionResponse"]["id"] for p in out["contents"][2]["parts"]] == ["c1", "c2"]


def test_gemini_malformed_function_call_is_not_a_clean_stop():
    response = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "MALFORMED_FUNCTION_CALL"}],
        "modelVersion": "gemini-2.5-flash",
    }
    assert toolwire.to_ir(response, provider="gemini", kind="response").finish_reason == "malformed_tool_call"
    with pytest.warns(toolwire.ConversionWarning, match="no finish_reason for 'malformed_tool_call'"):
        toolwire.convert(response, source="gemini", target="openai_chat", kind="response")


def test_gemini_function_response_name_comes_from_the_call():
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "18C"},
        ],
    }
    out = quiet(toolwire.convert, body, source="openai_chat", target="gemini")
    assert out["contents"][2]["parts"][0]["functionResponse"]["name"] == "get_weather"


# --- Anthropic ------------------------------------------------------------------------------------


@pytest.mark.parametrize("content", ["", None, [{"type": "text", "text": ""}]])
def test_anthropic_gets_no_empty_text_blocks(content):
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": content, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
    }
    out = quiet(toolwire.convert, body, source="openai_chat", target="anthropic")
    assert out["messages"][1]["content"] == [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}]


def test_anthropic_is_error_maps_natively_both_ways():
    req = ir.Request(model="m", max_tokens=5, messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="f", arguments={})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="f", result="disk full", is_error=True)]),
    ])
    out = toolwire.from_ir(req, provider="anthropic")
    assert out["messages"][2]["content"][0] == {"type": "tool_result", "tool_use_id": "c1", "content": "disk full", "is_error": True}
    assert toolwire.to_ir(out, provider="anthropic").messages[2].parts[0].is_error is True


THINKING = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 2048,
    "thinking": {"type": "enabled", "budget_tokens": 1024},
    "messages": [
        {"role": "user", "content": "weather in Paris?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "I should call get_weather.", "signature": "EqQBCkgIARABGAIiQL"},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"},
            {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
        ]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "18C"}]},
    ],
}


def test_anthropic_thinking_blocks_survive_an_anthropic_round_trip_and_are_reported_elsewhere():
    # docs: "you must pass thinking blocks back to the API for the last assistant message"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.from_ir(toolwire.to_ir(THINKING, provider="anthropic"), provider="anthropic") == THINKING
    with pytest.warns(toolwire.ConversionWarning, match="openai_chat cannot express ReasoningPart here; dropped"):
        out = toolwire.convert(THINKING, source="anthropic", target="openai_chat")
    assert out["messages"][1]["tool_calls"][0]["id"] == "toolu_01"


# --- OpenAI Responses -----------------------------------------------------------------------------

RESPONSES_LOOP = {
    "model": "o4-mini",
    "input": [
        {"role": "user", "content": "weather in Paris?"},
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAA=="},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
    ],
    "include": ["reasoning.encrypted_content"],
    "store": False,
}


def test_responses_call_id_is_the_call_id_and_the_item_id_is_kept_apart():
    req = toolwire.to_ir(RESPONSES_LOOP, provider="openai_responses")
    call = next(p for p in req.messages[1].parts if isinstance(p, ir.ToolCall))
    assert call.id == "call_1"
    anthropic = quiet(toolwire.convert, RESPONSES_LOOP, source="openai_responses", target="anthropic")
    assert anthropic["messages"][1]["content"][-1]["id"] == "call_1"
    assert anthropic["messages"][2]["content"][0]["tool_use_id"] == "call_1"


def test_responses_reasoning_items_stay_in_order_on_a_responses_round_trip():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        back = toolwire.from_ir(toolwire.to_ir(RESPONSES_LOOP, provider="openai_responses"), provider="openai_responses")
    assert back == RESPONSES_LOOP


# --- multimodal tool results ------------------------------------------------------------------------

IMAGE_RESULT = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "draw"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "draw", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "text", "text": "Here it is:"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
        ]}]},
    ],
}


def test_image_results_reach_gemini_as_function_response_parts():
    out = toolwire.convert(IMAGE_RESULT, source="anthropic", target="gemini")
    assert out["contents"][2]["parts"][0]["functionResponse"] == {
        "id": "toolu_1", "name": "draw", "response": {"output": "Here it is:"},
        "parts": [{"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}],
    }


def test_image_results_reach_responses_as_output_parts_and_come_back():
    out = quiet(toolwire.convert, IMAGE_RESULT, source="anthropic", target="openai_responses")
    assert out["input"][2]["output"] == [
        {"type": "input_text", "text": "Here it is:"},
        {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"},
    ]
    assert quiet(toolwire.convert, out, source="openai_responses", target="anthropic")["messages"] == IMAGE_RESULT["messages"]


def test_image_results_cannot_reach_openai_chat_tool_messages_and_that_is_reported():
    with pytest.warns(toolwire.ConversionWarning, match="tool result parts .* cannot be sent; kept only the text"):
        out = toolwire.convert(IMAGE_RESULT, source="anthropic", target="openai_chat")
    assert out["messages"][2] == {"role": "tool", "tool_call_id": "toolu_1", "content": "Here it is:"}


# --- Gemini tool schemas --------------------------------------------------------------------------

PYDANTIC_TOOL = {
    "model": "m",
    "messages": [{"role": "user", "content": "go"}],
    "tools": [{"type": "function", "function": {"name": "book", "parameters": {
        "$defs": {"Room": {"type": "object", "properties": {"beds": {"type": "integer", "minimum": 1, "maximum": 4}}, "required": ["beds"]}},
        "type": "object",
        "properties": {
            "room": {"$ref": "#/$defs/Room"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["room"],
        "additionalProperties": False,
    }}}],
}


def test_gemini_takes_json_schema_as_is_by_default():
    out = toolwire.convert(PYDANTIC_TOOL, source="openai_chat", target="gemini")
    decl = out["tools"][0]["functionDeclarations"][0]
    assert decl["parametersJsonSchema"] == PYDANTIC_TOOL["tools"][0]["function"]["parameters"]


def test_gemini_openapi_inlines_refs_keeps_required_and_bounds_and_reports_drops():
    with pytest.warns(toolwire.ConversionWarning, match=r"tools\[0\]\.parameters\.additionalProperties"):
        out = toolwire.convert(PYDANTIC_TOOL, source="openai_chat", target="gemini_openapi")
    assert out["tools"][0]["functionDeclarations"][0]["parameters"] == {
        "type": "OBJECT",
        "properties": {
            "room": {"type": "OBJECT", "properties": {"beds": {"type": "INTEGER", "minimum": 1, "maximum": 4}}, "required": ["beds"]},
            "note": {"type": "STRING", "nullable": True, "default": None},
        },
        "required": ["room"],
    }


def test_gemini_openapi_rejects_recursive_schemas_with_the_path():
    body = {"model": "m", "messages": [{"role": "user", "content": "go"}], "tools": [{"type": "function", "function": {
        "name": "tree", "parameters": {"$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
                                       "$ref": "#/$defs/Node"}}}]}
    with pytest.raises(toolwire.UnsupportedError) as info:
        toolwire.convert(body, source="openai_chat", target="gemini_openapi")
    assert "items" in info.value.path and "recursive" in info.value.message.lower()


def test_a_call_converted_into_a_responses_response_says_its_status_as_the_api_does():
    """Every function_call item the Responses API returns says its `status` ("completed" in a
    response, "in_progress" at a stream's output_item.added: every one in the Responses recordings
    of ../shared/streams); a
    call from another provider is complete, and says so. A Responses body's own item keeps what it
    said, another status or none (same-provider fidelity: the rule is a `fill`)."""
    chat = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-4.1",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}
    out = quiet(toolwire.convert, chat, source="openai_chat", target="openai_responses", kind="response")
    assert [(i["type"], i["status"]) for i in out["output"]] == [("function_call", "completed")]
    for status in ("completed", "in_progress", "incomplete", None):
        item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}
        if status is not None:
            item["status"] = status
        body = {"id": "resp_1", "object": "response", "created_at": 1700000000, "status": "completed", "model": "gpt-4.1", "output": [item],
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
        back = quiet(toolwire.convert, body, source="openai_responses", target="openai_responses", kind="response")
        assert back["output"] == [item], status


def test_an_anthropic_message_says_its_stop_reason_null_when_the_ir_has_none():
    """Message.stop_reason is a required key, null where the message has no stop reason yet (the
    API reference: null in message_start; every recorded message_start under ../shared/streams has
    it). A response without a finish reason (a stream that ended early; a translated stream's
    start) converts into one that says it null, as stop_sequence always was; an Anthropic body
    that left it out keeps it out (same-provider fidelity)."""
    response = ir.Response(id="resp_1", model="gpt-4.1", message=ir.Message(role="assistant", parts=[ir.TextPart(text="Hello")]))
    out = quiet(toolwire.from_ir, response, provider="anthropic")
    assert ("stop_reason", None) in out.items() and list(out)[-3:] == ["stop_reason", "stop_sequence", "usage"]
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Hi"}],
            "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 2}}
    assert quiet(toolwire.convert, body, source="anthropic", target="anthropic", kind="response") == body
    said = {**body, "stop_reason": None}
    assert list(quiet(toolwire.convert, said, source="anthropic", target="anthropic", kind="response").items()) == list(said.items())
