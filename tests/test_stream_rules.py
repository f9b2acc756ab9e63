"""The stream rules that break naive handling (issue 11), each on a small hand-written stream that
follows the provider's documented grammar (Anthropic: docs.anthropic.com/en/docs/build-with-claude/
streaming; OpenAI Chat: platform.openai.com/docs/api-reference/chat-streaming), plus what every
stream gets: early ends, provider errors, unknown and malformed events, the live partial view, and
a complete response replayed as a stream (``events_of``) for every scenario fixture."""

from __future__ import annotations

import json
import warnings

import pytest

import toolwire
from toolwire import stream
from conftest import scenarios
from sdk_stream_events import validate_event
from sdk_validation import WIRE_FAMILY
from stream_compare import comparable


def sse(name: str, **data) -> dict:
    return {"event": name, "data": {"type": name, **data}}


def anthropic_call_stream(fragments: list[str] | None, start_input: dict | None = None) -> list[dict]:
    events = [
        sse("message_start", message={"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1}}),
        sse("content_block_start", index=0, content_block={"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": start_input or {}}),
    ]
    for fragment in fragments or []:
        events.append(sse("content_block_delta", index=0, delta={"type": "input_json_delta", "partial_json": fragment}))
    events += [
        sse("content_block_stop", index=0),
        sse("message_delta", delta={"stop_reason": "tool_use", "stop_sequence": None}, usage={"output_tokens": 30}),
        sse("message_stop"),
    ]
    return events


def quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


# -- Anthropic ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fragments", [None, [""], ["", " ", ""]])
def test_anthropic_no_or_empty_partial_json_means_no_arguments(fragments) -> None:
    response = stream.accumulate(anthropic_call_stream(fragments), provider="anthropic")
    (call,) = response.message.parts
    assert call.arguments == {} and response.finish_reason == "tool_calls"


def test_anthropic_arguments_split_inside_a_string_and_an_escape() -> None:
    text = json.dumps({"city": 'Par"is\u00e9', "n": 1})
    cuts = [text[:9], text[9:12], text[12:13], text[13:]]
    response = stream.accumulate(anthropic_call_stream(cuts), provider="anthropic")
    assert response.message.parts[0].arguments == {"city": 'Par"is\u00e9', "n": 1}


def test_anthropic_start_input_is_kept_when_no_fragment_follows() -> None:
    body = stream.accumulate(anthropic_call_stream([], {"url": "https://example.com"}), provider="anthropic", as_provider=True)
    assert body["content"][0]["input"] == {"url": "https://example.com"}


def test_anthropic_usage_is_split_and_cumulative_never_summed() -> None:
    events = anthropic_call_stream(['{"city": "Paris"}'])
    body = stream.accumulate(events, provider="anthropic", as_provider=True)
    assert body["usage"] == {"input_tokens": 12, "output_tokens": 30}
    response = stream.accumulate(events, provider="anthropic")
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 30)


def test_anthropic_thinking_with_its_signature_then_a_call() -> None:
    events = anthropic_call_stream(['{"city": "Paris"}'])
    events[1:1] = [
        sse("content_block_start", index=0, content_block={"type": "thinking", "thinking": "", "signature": ""}),
        sse("content_block_delta", index=0, delta={"type": "thinking_delta", "thinking": "Need the "}),
        sse("content_block_delta", index=0, delta={"type": "thinking_delta", "thinking": "weather."}),
        sse("content_block_delta", index=0, delta={"type": "signature_delta", "signature": "EqQBCkgIARABGAIiQ"}),
        sse("content_block_stop", index=0),
        {"event": "ping", "data": {"type": "ping"}},
    ]
    for e in events[7:]:
        if "index" in e["data"]:
            e["data"]["index"] = 1
    body = stream.accumulate(events, provider="anthropic", as_provider=True)
    assert body["content"][0] == {"type": "thinking", "thinking": "Need the weather.", "signature": "EqQBCkgIARABGAIiQ"}
    assert body["content"][1]["input"] == {"city": "Paris"}
    # the same provider gets the thinking block and its signature back, in order, as one signature_delta
    again = list(stream.convert(events, source="anthropic", target="anthropic"))
    deltas = [e["data"]["delta"]["type"] for e in again if e["event"] == "content_block_delta"]
    assert deltas[-2:] == ["input_json_delta", "input_json_delta"][: len(deltas[-2:])] or "signature_delta" in deltas
    assert deltas.count("signature_delta") == 1 and deltas.index("signature_delta") < deltas.index("input_json_delta")
    assert stream.accumulate(again, provider="anthropic", as_provider=True) == body


def test_anthropic_error_event_mid_stream_raises_with_the_providers_message() -> None:
    events = anthropic_call_stream(['{"ci'])[:3] + [sse("error", error={"type": "overloaded_error", "message": "Overloaded"})]
    with pytest.raises(toolwire.ProviderStreamError) as info:
        stream.accumulate(events, provider="anthropic")
    assert info.value.error_type == "overloaded_error" and info.value.provider_message == "Overloaded"
    assert info.value.path == "events[3]"


def test_anthropic_cut_inside_the_arguments_keeps_them_raw_and_reports() -> None:
    events = anthropic_call_stream(['{"city": "Pa'])[:3]
    with pytest.warns(toolwire.ConversionWarning) as record:
        response = stream.accumulate(events, provider="anthropic")
    call = response.message.parts[0]
    assert call.arguments == {} and call.raw_arguments == '{"city": "Pa'
    messages = [str(w.message) for w in record]
    assert any("ended before its end (message_stop)" in m for m in messages)
    assert any("not valid JSON" in m for m in messages)
    with pytest.raises(stream.InvalidEventError, match=r"events\[3\].*ended before"):
        stream.accumulate(events, provider="anthropic", strict=True)


def test_a_delta_for_a_block_never_started_is_an_error_with_its_path() -> None:
    events = anthropic_call_stream(['{}'])
    events[2]["data"]["index"] = 5
    with pytest.raises(stream.InvalidEventError, match=r"^events\[2\]\.index: .*never started"):
        stream.accumulate(events, provider="anthropic")


def test_a_fragment_of_the_wrong_type_is_an_error_with_its_path() -> None:
    events = anthropic_call_stream(['{}'])
    events[2]["data"]["delta"]["partial_json"] = 42
    with pytest.raises(toolwire.WrongTypeError, match=r"^events\[2\]\.delta\.partial_json: .*JSON text fragment"):
        stream.accumulate(events, provider="anthropic")


def test_an_unknown_event_is_reported_and_strict_refuses_it() -> None:
    events = anthropic_call_stream(['{}'])
    events.insert(2, sse("content_block_glimmer", index=0))
    with pytest.warns(stream.UnknownEventWarning, match=r"events\[2\]: unknown event 'content_block_glimmer'"):
        stream.accumulate(events, provider="anthropic")
    with pytest.raises(stream.InvalidEventError):
        stream.accumulate(events, provider="anthropic", strict=True)


def test_an_event_after_the_end_is_an_error() -> None:
    events = anthropic_call_stream(['{}']) + [sse("ping")]
    with pytest.raises(stream.InvalidEventError, match=r"events\[6\]: .*after the end"):
        stream.accumulate(events, provider="anthropic")


def test_sdk_event_payloads_are_accepted_as_well_as_parsed_events() -> None:
    events = anthropic_call_stream(['{"city": "Paris"}'])
    payloads = [e["data"] for e in events]  # what anthropic's SDK yields, model_dump()ed
    assert stream.accumulate(payloads, provider="anthropic") == stream.accumulate(events, provider="anthropic")


def test_the_partial_view_while_streaming() -> None:
    events = anthropic_call_stream(['{"city": ', '"Paris"}'])
    events[1:1] = [
        sse("content_block_start", index=0, content_block={"type": "text", "text": ""}),
        sse("content_block_delta", index=0, delta={"type": "text_delta", "text": "Let me "}),
        sse("content_block_delta", index=0, delta={"type": "text_delta", "text": "check."}),
        sse("content_block_stop", index=0),
    ]
    for e in events[5:]:
        if "index" in e["data"]:
            e["data"]["index"] = 1
    acc = stream.Accumulator("anthropic")
    seen = []
    for event in events:
        acc.add(event)
        seen.append((acc.text, [dict(c) for c in acc.calls]))
    assert seen[2][0] == "Let me " and seen[3][0] == "Let me check."
    assert seen[6][1] == [{"id": "toolu_1", "name": "get_weather", "arguments": '{"city": '}]
    assert seen[8][1] == [{"id": "toolu_1", "name": "get_weather", "arguments": '{"city": "Paris"}'}]
    assert acc.done and acc.response().message.parts[1].arguments == {"city": "Paris"}
    partial = stream.Accumulator("anthropic")
    for event in events[:7]:
        partial.add(event)
    with pytest.warns(stream.StreamEndedEarlyWarning):
        early = partial.response()  # asked mid-stream: what arrived so far, and the stream goes on
    assert early.message.parts[0].text == "Let me check."
    for event in events[7:]:
        partial.add(event)
    assert partial.response() == acc.response()


# -- OpenAI Chat ----------------------------------------------------------------------------------


def chunk(delta: dict | None = None, finish: str | None = None, usage: dict | None = None, choices: bool = True) -> dict:
    data = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4o", "choices": []}
    if choices:
        data["choices"] = [{"index": 0, "delta": delta or {}, "finish_reason": finish}]
    if usage:
        data["usage"] = usage
    return {"data": data}


def call(index, id=None, name=None, arguments=None) -> dict:
    out = {"index": index, "function": {}}
    if id:
        out.update(id=id, type="function")
    if name is not None:
        out["function"]["name"] = name
    if arguments is not None:
        out["function"]["arguments"] = arguments
    return out


def test_openai_calls_keyed_by_index_even_interleaved_with_id_and_name_once() -> None:
    events = [
        chunk({"role": "assistant", "content": None}),
        chunk({"tool_calls": [call(0, "call_a", "get_weather", "")]}),
        chunk({"tool_calls": [call(1, "call_b", "get_time", "")]}),
        chunk({"tool_calls": [call(0, arguments='{"city": "Pa')]}),
        chunk({"tool_calls": [call(1, arguments='{"tz": "UTC"}')]}),
        chunk({"tool_calls": [call(0, arguments='ris\\u00e9"}')]}),
        chunk({}, finish="stop"),  # `stop` although calls were made
        chunk(choices=False, usage={"prompt_tokens": 9, "completion_tokens": 20, "total_tokens": 29}),
        {"data": "[DONE]"},
    ]
    response = stream.accumulate(events, provider="openai_chat")
    calls = response.message.parts
    assert [(c.id, c.name, c.arguments) for c in calls] == [("call_a", "get_weather", {"city": "Parisé"}), ("call_b", "get_time", {"tz": "UTC"})]
    assert response.finish_reason == "tool_calls"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (9, 20)


def test_openai_calls_accumulate_in_the_apis_key_order_and_without_a_type_never_sent() -> None:
    """A call's `type` comes in its first delta, after the template made `id` and `function`: it goes
    between them, as the non-streamed API writes a call (the template's `type: $absent`). A server
    that never sends `type` gets a call without it (its own non-streamed body round-trips)."""
    events = [chunk({"role": "assistant", "content": None}), chunk({"tool_calls": [call(0, "call_a", "f", "")]}),
              chunk({"tool_calls": [call(0, arguments="{}")]}), chunk({}, finish="tool_calls"), {"data": "[DONE]"}]
    body = stream.accumulate(events, provider="openai_chat", as_provider=True)
    assert list(body["choices"][0]["message"]["tool_calls"][0]) == ["id", "type", "function"]
    # the same call non-streamed (openai-python ChatCompletionMessageToolCall: id, type, function):
    # read back with no key-order hint
    response = toolwire.to_ir(body, provider="openai_chat", kind="response")
    assert response.message.parts[0].provider_data is None
    untyped = json.loads(json.dumps(body))
    del untyped["choices"][0]["message"]["tool_calls"][0]["type"]
    assert stream.accumulate(stream.events_of(untyped, provider="openai_chat"), provider="openai_chat", as_provider=True) == untyped


def test_a_snapshot_gives_the_object_its_key_order() -> None:
    """Responses' response.completed repeats the whole response as the API writes it (its keys in
    the API's order: ../shared/streams/openai_responses__pydantic-ai__test_run__i0.json has
    background ... max_tool_calls before model and output): the accumulated body takes that order
    (`overlay`), whatever order the stream built it in, so a same-provider translation keeps it."""
    body = scenarios()["get_weather"]["openai_responses"]["response"]
    first = ["id", "object", "created_at", "status"]
    api_order = {**{k: body[k] for k in first if k in body}, **{k: v for k, v in body.items() if k not in ("model", "output") and k not in first},
                 "model": body["model"], "output": body["output"]}
    events = stream.events_of(api_order, provider="openai_responses")
    accumulated = stream.accumulate(events, provider="openai_responses", as_provider=True)
    assert accumulated == api_order and list(accumulated) == list(api_order)
    translated = stream.accumulate(stream.convert(events, source="openai_responses", target="openai_responses"), provider="openai_responses", as_provider=True)
    assert list(translated) == list(api_order)


def test_a_placed_key_moves_only_when_it_is_new() -> None:
    from toolwire_runtime.streaming import StreamState

    order = ("id", "type", "function")
    el = {"id": "a", "function": {}, "x": 1, "type": "function"}  # (x: a key the template does not know)
    StreamState.place(el, "type", order)
    assert list(el) == ["id", "x", "type", "function"]
    el = {"id": "a", "type": "function", "function": {}}
    el["type"] = "function"  # set again: already in place, nothing moves
    StreamState.place(el, "type", order)
    assert list(el) == ["id", "type", "function"]


def test_openai_the_final_usage_chunk_has_no_choices() -> None:
    events = [chunk({"role": "assistant", "content": "Hi"}), chunk({}, finish="stop"), chunk(choices=False, usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}), {"data": "[DONE]"}]
    body = stream.accumulate(events, provider="openai_chat", as_provider=True)
    assert body["choices"][0]["message"]["content"] == "Hi" and body["usage"]["total_tokens"] == 2


def test_openai_translated_to_anthropic_keeps_one_block_open_at_a_time_with_dense_indices() -> None:
    events = [
        chunk({"role": "assistant", "content": "Checking"}),
        chunk({"tool_calls": [call(0, "call_a", "get_weather", '{"city":')]}),
        chunk({"tool_calls": [call(0, arguments='"Paris"}')]}),
        chunk({"tool_calls": [call(1, "call_b", "get_time", '{}')]}),
        chunk({}, finish="tool_calls"),
        {"data": "[DONE]"},
    ]
    out = list(stream.convert(events, source="openai_chat", target="anthropic"))
    names = [(e["event"], e["data"].get("index")) for e in out if e["event"].startswith("content_block")]
    open_blocks, order = set(), []
    for name, index in names:
        if name == "content_block_start":
            assert not open_blocks, "a block started while another was open"
            open_blocks.add(index)
            order.append(index)
        elif name == "content_block_stop":
            open_blocks.discard(index)
        else:
            assert index in open_blocks, "a delta outside its block"
    assert order == [0, 1, 2] and not open_blocks
    assert out[0]["event"] == "message_start" and out[-1]["event"] == "message_stop"
    assert out[-2]["data"]["delta"]["stop_reason"] == "tool_use"
    for event in out:
        assert validate_event("anthropic", event) == []


def test_openai_translated_to_responses_names_every_item_by_its_id_as_the_api_does() -> None:
    """Responses events inside an output item carry its `item_id` (the SDK types require it; clients
    such as the Vercel AI SDK key text by it); a call from elsewhere gets the item id fc_<call id>,
    the same in the stream and in the non-streamed conversion."""
    events = [
        chunk({"role": "assistant", "content": "Checking"}),
        chunk({"content": " now."}),
        chunk({"tool_calls": [call(0, "call_a", "get_weather", '{"city":')]}),
        chunk({"tool_calls": [call(0, arguments='"Paris"}')]}),
        chunk({"tool_calls": [call(1, "call_b", "get_time", '{}')]}),
        chunk({}, finish="tool_calls"),
        {"data": "[DONE]"},
    ]
    out = list(stream.convert(events, source="openai_chat", target="openai_responses"))
    assert [e["data"]["sequence_number"] for e in out] == list(range(len(out)))
    ids: dict[int, str] = {}
    for event in out:
        data = event["data"]
        assert validate_event("openai_responses", event) == [], event
        if data["type"] == "response.output_item.added":
            ids[data["output_index"]] = data["item"]["id"]
        elif "output_index" in data and data["type"] != "response.output_item.done":
            assert data["item_id"] == ids[data["output_index"]], event
    deltas = [e["data"]["delta"] for e in out if e["event"] == "response.function_call_arguments.delta"]
    assert deltas == ['{"city":', '"Paris"}', "{}"]  # the fragments flow as they came
    assert [e["data"]["delta"] for e in out if e["event"] == "response.output_text.delta"] == ["Checking", " now."]
    body = stream.accumulate(out, provider="openai_responses", as_provider=True)
    want = quiet(toolwire.from_ir, stream.accumulate(events, provider="openai_chat"), provider="openai_responses")
    assert [(i["type"], i["id"]) for i in body["output"]] == [(i["type"], i["id"]) for i in want["output"]]
    assert [i["id"] for i in body["output"][1:]] == ["fc_call_a", "fc_call_b"]
    assert out[-1]["event"] == "response.completed" and out[-1]["data"]["response"]["output"] == body["output"]


# -- a complete response served as a stream ----------------------------------------------------------


def _responses() -> list:
    out = []
    for scenario, files in sorted(scenarios().items()):
        for provider, doc in sorted(files.items()):
            if provider in stream._DECODERS and provider not in stream.NO_TRANSLATION_TO and doc.get("response") is not None:
                out.append(pytest.param(scenario, provider, id=f"{scenario}-{provider}"))
    return out


@pytest.mark.parametrize("scenario, provider", _responses())
def test_a_response_fixture_replayed_as_a_stream_accumulates_back(scenario: str, provider: str) -> None:
    """Every scenario's response, as its provider's stream (``events_of``): valid events for the SDK,
    accumulating back to the same response (the golden stream of the scenario)."""
    body = scenarios()[scenario][provider]["response"]
    events = quiet(stream.events_of, body, provider=provider)
    for event in events:
        assert not validate_event(WIRE_FAMILY.get(provider) or provider, event)
    back = quiet(stream.accumulate, events, provider=provider, as_provider=True)
    want = quiet(toolwire.to_ir, body, provider=provider, kind="response")
    got = quiet(toolwire.to_ir, back, provider=provider, kind="response")
    assert comparable(got) == comparable(want)
