"""Ollama native chat (/api/chat) rules, one test per rule (spec/providers/ollama.yaml).

Sources: https://github.com/ollama/ollama/blob/main/docs/api.md (Generate a chat completion) and the
official SDK types (ollama-python ollama._types: ChatRequest, Message, Message.ToolCall, Tool,
Options, ChatResponse).
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import ir

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"
JPEG = "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA="


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def chat_call(cid: str, name: str, arguments: str = '{"city":"Paris"}') -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def chat(*messages: dict, **extra) -> dict:
    return {"model": "gpt-4.1", "messages": [{"role": "user", "content": "go"}, *messages], **extra}


def ollama_call(name: str, **arguments) -> dict:
    return {"function": {"name": name, "arguments": arguments}}


def ollama(*messages: dict, **extra) -> dict:
    return {"model": "qwen3", "messages": [{"role": "user", "content": "go"}, *messages], "stream": False, **extra}


# --- arguments and ids --------------------------------------------------------------------------


def test_arguments_are_an_object_both_ways():
    body = chat({"role": "assistant", "content": None, "tool_calls": [chat_call("c1", "get_weather")]})
    out = quiet(toolwire.convert, body, source="openai_chat", target="ollama")
    assert out["messages"][1]["tool_calls"] == [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]
    back = toolwire.convert(out, source="ollama", target="openai_chat")
    assert back["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"city":"Paris"}'


def test_calls_are_sent_without_ids_and_that_is_reported():
    body = chat(
        {"role": "assistant", "content": None, "tool_calls": [chat_call("c1", "get_weather")]},
        {"role": "tool", "tool_call_id": "c1", "content": "18C"},
    )
    with pytest.warns(toolwire.ConversionWarning, match="ollama takes no call ids"):
        out = toolwire.convert(body, source="openai_chat", target="ollama")
    assert "id" not in out["messages"][1]["tool_calls"][0]
    assert out["messages"][2] == {"role": "tool", "content": "18C", "tool_name": "get_weather"}


def test_calls_without_ids_get_unique_synthesized_ids_that_are_not_sent_back():
    body = ollama(
        {"role": "assistant", "content": "", "tool_calls": [ollama_call("f", x=1)]},
        {"role": "tool", "content": "one", "tool_name": "f"},
        {"role": "assistant", "content": "", "tool_calls": [ollama_call("f", x=2)]},
        {"role": "tool", "content": "two", "tool_name": "f"},
    )
    req = toolwire.to_ir(body, provider="ollama")
    calls = [p for m in req.messages for p in m.parts if isinstance(p, ir.ToolCall)]
    results = [p for m in req.messages for p in m.parts if isinstance(p, ir.ToolResult)]
    assert len({c.id for c in calls}) == 2 and all(c.synthetic_id for c in calls)
    assert [r.tool_call_id for r in results] == [c.id for c in calls]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.from_ir(req, provider="ollama") == body


def test_results_pair_with_calls_by_tool_name_then_by_position():
    body = ollama(
        {"role": "assistant", "content": "", "tool_calls": [ollama_call("get_weather"), ollama_call("get_time"), ollama_call("get_time")]},
        {"role": "tool", "content": "noon", "tool_name": "get_time"},
        {"role": "tool", "content": "18C", "tool_name": "get_weather"},
        {"role": "tool", "content": "one", "tool_name": "get_time"},
    )
    req = toolwire.to_ir(body, provider="ollama")
    calls = req.messages[1].parts
    assert [(r.tool_call_id, r.result) for r in req.messages[2].parts] == [
        (calls[1].id, "noon"), (calls[0].id, "18C"), (calls[2].id, "one"),
    ]


def test_results_are_sent_in_call_order():
    body = chat(
        {"role": "assistant", "content": None, "tool_calls": [chat_call("c1", "get_weather"), chat_call("c2", "get_time")]},
        {"role": "tool", "tool_call_id": "c2", "content": "noon"},
        {"role": "tool", "tool_call_id": "c1", "content": "18C"},
    )
    out = quiet(toolwire.convert, body, source="openai_chat", target="ollama")
    assert [(m["tool_name"], m["content"]) for m in out["messages"][2:]] == [("get_weather", "18C"), ("get_time", "noon")]


def test_ids_from_a_newer_server_are_used_for_pairing_and_not_sent_back():
    # newer servers add tool_calls[].id, function.index and tool messages' tool_call_id; the SDK
    # types declare none of them
    body = ollama(
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_a", "function": {"index": 0, "name": "f", "arguments": {}}},
            {"id": "call_b", "function": {"index": 1, "name": "f", "arguments": {}}},
        ]},
        {"role": "tool", "content": "second", "tool_name": "f", "tool_call_id": "call_b"},
        {"role": "tool", "content": "first", "tool_name": "f", "tool_call_id": "call_a"},
    )
    req = toolwire.to_ir(body, provider="ollama")
    assert [(r.tool_call_id, r.result) for r in req.messages[2].parts] == [("call_b", "second"), ("call_a", "first")]
    chat_body = quiet(toolwire.from_ir, req, provider="openai_chat", model="m")
    assert [c["id"] for c in chat_body["messages"][1]["tool_calls"]] == ["call_a", "call_b"]
    with pytest.warns(toolwire.ConversionWarning, match="ollama takes no call ids"):
        again = toolwire.from_ir(req, provider="ollama")
    assert [c for c in again["messages"][1]["tool_calls"]] == [
        {"function": {"index": 0, "name": "f", "arguments": {}}},
        {"function": {"index": 1, "name": "f", "arguments": {}}},
    ]
    assert [m["content"] for m in again["messages"][2:]] == ["first", "second"]  # call order
    assert all("tool_call_id" not in m for m in again["messages"][2:])


# --- messages -------------------------------------------------------------------------------------


def test_images_are_bare_base64_and_their_media_type_is_read_from_the_bytes():
    body = chat({"role": "user", "content": [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{JPEG}"}},
    ]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = toolwire.convert(body, source="openai_chat", target="ollama")
    assert out["messages"][1] == {"role": "user", "content": "what is this?", "images": [PNG, JPEG]}
    back = toolwire.to_ir(out, provider="ollama").messages[1].parts
    assert [(p.media_type, p.data) for p in back[1:]] == [("image/png", PNG), ("image/jpeg", JPEG)]


def test_image_urls_cannot_be_sent():
    body = chat({"role": "user", "content": [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
    ]})
    with pytest.warns(toolwire.ConversionWarning, match="base64 bytes only"):
        out = toolwire.convert(body, source="openai_chat", target="ollama")
    assert out["messages"][1] == {"role": "user", "content": "what is this?"}


def test_a_media_type_the_bytes_do_not_show_is_reported():
    req = ir.Request(model="m", messages=[ir.Message(role="user", parts=[ir.ImagePart(data=PNG, media_type="image/webp")])])
    with pytest.warns(toolwire.ConversionWarning, match="do not show image/webp"):
        toolwire.from_ir(req, provider="ollama")


def test_system_messages_stay_in_place_and_text_is_one_string():
    body = chat(
        {"role": "system", "content": [{"type": "text", "text": "be "}, {"type": "text", "text": "brief"}]},
    )
    out = toolwire.convert(body, source="openai_chat", target="ollama")
    assert out["messages"][1] == {"role": "system", "content": "be brief"}


def test_assistant_turns_without_text_send_no_content_and_ollamas_empty_content_round_trips():
    body = chat({"role": "assistant", "content": None, "tool_calls": [chat_call("c1", "f")]})
    out = quiet(toolwire.convert, body, source="openai_chat", target="ollama")
    assert "content" not in out["messages"][1]
    own = ollama({"role": "assistant", "content": "", "tool_calls": [ollama_call("f")]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(own, source="ollama", target="ollama") == own


def test_thinking_survives_an_ollama_round_trip_and_is_reported_elsewhere():
    body = ollama({"role": "assistant", "content": "Paris.", "thinking": "The user wants a city."})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(body, source="ollama", target="ollama") == body
    with pytest.warns(toolwire.ConversionWarning, match="openai_chat cannot express ReasoningPart"):
        toolwire.convert(body, source="ollama", target="openai_chat")


def test_error_results_are_text_with_an_error_prefix():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="f", arguments={})]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="f", result="disk full", is_error=True)]),
    ])
    with pytest.warns(toolwire.ConversionWarning, match="no error flag"):
        out = toolwire.from_ir(req, provider="ollama")
    assert out["messages"][2] == {"role": "tool", "content": "Error: disk full", "tool_name": "f"}


def test_object_results_are_compact_json_text():
    req = ir.Request(model="m", messages=[
        ir.Message(role="user", parts=[ir.TextPart(text="go")]),
        ir.Message(role="assistant", parts=[ir.ToolCall(id="c1", name="f", arguments={}, synthetic_id=True)]),
        ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="c1", name="f", result={"temp": 22, "sky": "clear"})]),
    ])
    out = toolwire.from_ir(req, provider="ollama")
    assert out["messages"][2]["content"] == '{"temp":22,"sky":"clear"}'


# --- request parameters ---------------------------------------------------------------------------


def test_sampling_and_limits_live_in_options_and_stream_is_false():
    body = chat(max_completion_tokens=100, temperature=0.2, top_p=0.9, stop=["END"])
    out = toolwire.convert(body, source="openai_chat", target="ollama")
    assert out["stream"] is False
    assert out["options"] == {"num_predict": 100, "temperature": 0.2, "top_p": 0.9, "stop": ["END"]}
    assert toolwire.to_ir({**out, "options": {**out["options"], "top_k": 40}}, provider="ollama").top_k == 40


def test_other_options_pass_through_for_ollama():
    body = ollama(options={"num_predict": 10, "num_ctx": 8192, "seed": 7}, keep_alive="5m", think=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(body, source="ollama", target="ollama") == body
    with pytest.warns(toolwire.ConversionWarning, match="keep_alive, options, stream, think"):
        toolwire.convert(body, source="ollama", target="openai_chat")


TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]


def test_declared_tools_mean_auto():
    body = ollama(tools=TOOLS)
    assert toolwire.to_ir(body, provider="ollama").tool_choice == ir.ToolChoice(mode="auto")
    out = toolwire.convert(body, source="ollama", target="openai_chat")
    assert out["tool_choice"] == "auto"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(out, source="openai_chat", target="ollama") == body
        assert toolwire.convert(body, source="ollama", target="ollama") == body
    assert toolwire.to_ir(ollama(), provider="ollama").tool_choice is None


@pytest.mark.parametrize("choice", ["none", "required", {"type": "function", "function": {"name": "f"}}])
def test_other_tool_choices_cannot_be_sent(choice):
    body = chat(tools=[{"type": "function", "function": {"name": "f"}}], tool_choice=choice)
    with pytest.warns(toolwire.ConversionWarning, match="ollama has no tool_choice"):
        out = toolwire.convert(body, source="openai_chat", target="ollama")
    assert "tool_choice" not in out


def test_a_tool_choice_key_is_not_ollama():
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir(ollama(tools=TOOLS, tool_choice="required"), provider="ollama")
    assert info.value.path == "tool_choice"


def test_parallel_tool_calls_and_strict_are_reported():
    body = chat(tools=[{"type": "function", "function": {"name": "f", "strict": True}}], parallel_tool_calls=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        toolwire.convert(body, source="openai_chat", target="ollama")
    text = " | ".join(str(w.message) for w in caught)
    assert "parallel_tool_calls" in text and "strict" in text


# --- responses -------------------------------------------------------------------------------------

RESPONSE = {
    "model": "qwen3",
    "created_at": "2025-05-27T22:54:57.641643Z",
    "message": {"role": "assistant", "content": "", "tool_calls": [ollama_call("get_weather", city="Paris")]},
    "done_reason": "stop",
    "done": True,
    "total_duration": 1600000000,
    "prompt_eval_count": 120,
    "eval_count": 18,
}


def test_a_response_with_calls_finishes_as_tool_calls_and_done_reason_stays_stop():
    resp = toolwire.to_ir(RESPONSE, provider="ollama", kind="response")
    assert resp.finish_reason == "tool_calls"
    chat_out = quiet(toolwire.convert, RESPONSE, source="ollama", target="openai_chat", kind="response")
    assert chat_out["choices"][0]["finish_reason"] == "tool_calls"
    again = quiet(toolwire.convert, chat_out, source="openai_chat", target="ollama", kind="response")
    assert again["done_reason"] == "stop" and again["done"] is True


def test_usage_comes_from_the_eval_counts():
    usage = toolwire.to_ir(RESPONSE, provider="ollama", kind="response").usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (120, 18, 138)
    chat_out = quiet(toolwire.convert, RESPONSE, source="ollama", target="openai_chat", kind="response")
    assert chat_out["usage"] == {"prompt_tokens": 120, "completion_tokens": 18, "total_tokens": 138}
    back = quiet(toolwire.convert, chat_out, source="openai_chat", target="ollama", kind="response")
    assert (back["prompt_eval_count"], back["eval_count"]) == (120, 18)


def test_created_at_is_rfc3339_and_maps_to_unix_seconds():
    resp = toolwire.to_ir(RESPONSE, provider="ollama", kind="response")
    assert resp.created == 1748386497
    chat_out = quiet(toolwire.convert, RESPONSE, source="ollama", target="openai_chat", kind="response")
    assert chat_out["created"] == 1748386497
    back = quiet(toolwire.convert, chat_out, source="openai_chat", target="ollama", kind="response")
    assert back["created_at"] == "2025-05-27T22:54:57Z"
    offset = {**RESPONSE, "created_at": "2025-05-27T15:54:57.5-07:00"}
    assert toolwire.to_ir(offset, provider="ollama", kind="response").created == 1748386497
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(RESPONSE, source="ollama", target="ollama", kind="response") == RESPONSE


def test_responses_have_no_id():
    chat_response = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}],
    }
    with pytest.warns(toolwire.ConversionWarning, match="Response.id"):
        out = toolwire.convert(chat_response, source="openai_chat", target="ollama", kind="response")
    assert "id" not in out


def test_length_is_length_and_approximate_reasons_are_reported():
    assert toolwire.to_ir({**RESPONSE, "done_reason": "length", "message": {"role": "assistant", "content": "abc"}}, provider="ollama", kind="response").finish_reason == "length"
    gemini = {"candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": "SAFETY"}]}
    with pytest.warns(toolwire.ConversionWarning, match="no done_reason for 'content_filter'"):
        out = toolwire.convert(gemini, source="gemini", target="ollama", kind="response")
    assert out["done_reason"] == "stop"


# --- the runtime transforms behind these rules (spec/transforms.yaml) -----------------------------


@pytest.mark.parametrize("raw,media_type", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01", "image/jpeg"),
    (b"GIF89a\x01\x00\x01\x00\x80\x00", "image/gif"),
    (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "image/webp"),
    (b"BM\x3a\x00\x00\x00\x00\x00\x00\x00", "image/bmp"),
    (b"\x00\x00\x00\x18ftypheic", None),
])
def test_base64_images_read_the_media_type_from_the_bytes(raw, media_type):
    import base64

    from toolwire_runtime.transforms import sniff_image_type

    assert sniff_image_type(base64.b64encode(raw + b"\x00" * 8).decode()) == media_type
    assert sniff_image_type("not base64!") is None


@pytest.mark.parametrize("text,seconds,canonical", [
    ("2025-05-27T22:54:57Z", 1748386497, True),
    ("2025-05-27T22:54:57.641643Z", 1748386497, False),
    ("2025-05-27T22:54:57.641643555+02:00", 1748379297, False),
    ("2025-05-27t22:54:57z", 1748386497, False),
])
def test_rfc3339_time(text, seconds, canonical):
    from toolwire_runtime.transforms import rfc3339_parse, rfc3339_render

    value, hint = rfc3339_parse(text, "created_at")
    assert value == seconds and (hint is None) == canonical
    assert rfc3339_render(value, hint) == text
    assert rfc3339_render(value + 1, hint) == rfc3339_render(value + 1, None)


def test_rfc3339_time_rejects_other_text():
    from toolwire_runtime.transforms import rfc3339_parse

    with pytest.raises(toolwire.WrongTypeError):
        rfc3339_parse("yesterday", "created_at")
