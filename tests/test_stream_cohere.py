"""Cohere stream grammars: v2 (spec/providers/cohere.yaml `stream:`, SSE) and the legacy v1
(spec/providers/cohere_v1.yaml `stream:`, NDJSON), on small hand-written event lists shaped as the
cohere SDK types describe them (v2/types/v2chat_stream_response.py; types/streamed_chat_response.py,
types/tool_call_delta.py) and as ../shared/streams/GRAMMARS.md §8 shows them recorded.

Each test checks the provider body and the IR response.
"""

from __future__ import annotations

import warnings

import pytest

from toolwire import ProviderStreamError, stream


def _acc(events, provider, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stream.accumulate(events, provider=provider, **kw)


def _calls(response) -> list:
    return [p for p in response.message.parts if p.type == "tool_call"]


def _text(response) -> str:
    return "".join(p.text for p in response.message.parts if p.type == "text")


# -- Cohere v2 -------------------------------------------------------------------------------------

V2 = "cohere"


def _sse(*events: dict) -> list[dict]:
    return [{"event": e["type"], "data": e} for e in events]


START = {"id": "msg-1", "type": "message-start", "delta": {"message": {"role": "assistant", "content": [], "tool_plan": "", "tool_calls": [], "citations": []}}}
USAGE = {"billed_units": {"input_tokens": 5, "output_tokens": 7}, "tokens": {"input_tokens": 50, "output_tokens": 9}}


def _end(reason: str, **delta) -> dict:
    return {"type": "message-end", "delta": {"finish_reason": reason, "usage": USAGE, **delta}}


def _call_start(index: int, call_id: str, name: str) -> dict:
    return {"type": "tool-call-start", "index": index, "delta": {"message": {"tool_calls": {"id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}}}}


def _call_delta(index: int, fragment: str) -> dict:
    return {"type": "tool-call-delta", "index": index, "delta": {"message": {"tool_calls": {"function": {"arguments": fragment}}}}}


def _plan(fragment: str) -> dict:
    return {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": fragment}}}


def test_v2_tool_plan_and_calls() -> None:
    # tool_calls in the deltas is one object (not a list), placed by the event's index
    events = _sse(
        START,
        _plan("I will"), _plan(" look."),
        _call_start(0, "weather_abc123def456", "weather"),
        _call_delta(0, '{"loc'), _call_delta(0, 'ation": "SF"}'),
        {"type": "tool-call-end", "index": 0},
        _call_start(1, "time_zzz", "time"),
        _call_delta(1, '{"tz": "PST"}'),
        {"type": "tool-call-end", "index": 1},
        _end("TOOL_CALL"),
    )
    body = _acc(events, V2, as_provider=True)
    assert body == {
        "id": "msg-1", "finish_reason": "TOOL_CALL",
        "message": {"role": "assistant", "tool_plan": "I will look.", "tool_calls": [
            {"id": "weather_abc123def456", "type": "function", "function": {"name": "weather", "arguments": '{"location": "SF"}'}},
            {"id": "time_zzz", "type": "function", "function": {"name": "time", "arguments": '{"tz": "PST"}'}},
        ]},
        "usage": USAGE,
    }
    response = _acc(events, V2, strict=True)
    assert [(c.id, c.name, c.arguments) for c in _calls(response)] == [("weather_abc123def456", "weather", {"location": "SF"}), ("time_zzz", "time", {"tz": "PST"})]
    assert _text(response) == "I will look."  # the plan is the text before the calls
    assert response.finish_reason == "tool_calls"
    assert response.usage.input_tokens == 50 and response.usage.output_tokens == 9


def test_v2_the_plan_is_not_content() -> None:
    events = _sse(START, _plan("Plan."), _call_start(0, "f_1", "f"), _call_delta(0, "{}"), {"type": "tool-call-end", "index": 0}, _end("TOOL_CALL"))
    message = _acc(events, V2, as_provider=True)["message"]
    assert message["tool_plan"] == "Plan." and "content" not in message


def test_v2_a_call_without_arguments_has_no_delta() -> None:
    events = _sse(START, _call_start(0, "currentTime_1", "currentTime"), {"type": "tool-call-end", "index": 0}, _end("TOOL_CALL"))
    body = _acc(events, V2, as_provider=True)
    assert body["message"]["tool_calls"][0]["function"]["arguments"] == ""
    (call,) = _calls(_acc(events, V2))
    assert call.name == "currentTime" and call.arguments == {}


def test_v2_text_and_thinking_content_by_index() -> None:
    events = _sse(
        START,
        {"type": "content-start", "index": 0, "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}}},
        {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"thinking": "Two plus"}}}},
        {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"thinking": " two."}}}},
        {"type": "content-end", "index": 0},
        {"type": "content-start", "index": 1, "delta": {"message": {"content": {"type": "text", "text": ""}}}},
        {"type": "content-delta", "index": 1, "delta": {"message": {"content": {"text": "It is"}}}},
        {"type": "content-delta", "index": 1, "delta": {"message": {"content": {"text": " 4."}}}},
        {"type": "content-end", "index": 1},
        _end("COMPLETE"),
    )
    body = _acc(events, V2, as_provider=True)
    assert body["message"]["content"] == [{"type": "thinking", "thinking": "Two plus two."}, {"type": "text", "text": "It is 4."}]
    response = _acc(events, V2)
    assert _text(response) == "It is 4." and response.finish_reason == "stop"


def test_v2_live_view() -> None:
    acc = stream.Accumulator(V2)
    for event in _sse(START, _call_start(0, "w_1", "weather"), _call_delta(0, '{"loc')):
        acc.add(event)
    assert acc.calls == [{"id": "w_1", "name": "weather", "arguments": '{"loc'}]


def test_v2_done_after_message_end_is_accepted() -> None:
    events = _sse(START, _end("COMPLETE")) + [{"data": "[DONE]"}]
    acc = stream.Accumulator(V2, strict=True).extend(events)
    assert acc.done and acc.provider_body()["finish_reason"] == "COMPLETE"


def test_v2_an_event_after_message_end_is_rejected() -> None:
    with pytest.raises(stream.InvalidEventError):
        stream.Accumulator(V2).extend(_sse(START, _end("COMPLETE"), _plan("late")))


def test_v2_a_delta_for_a_call_never_started_is_an_error() -> None:
    with pytest.raises(stream.InvalidEventError):
        _acc(_sse(START, _call_delta(3, "{}")), V2)


def test_v2_message_end_with_an_error_raises() -> None:
    with pytest.raises(ProviderStreamError) as info:
        _acc(_sse(START, _end("ERROR", error="internal failure")), V2)
    assert info.value.provider_message == "internal failure"


def test_v2_an_early_end_is_reported() -> None:
    """No finish_reason before message-end, which V2ChatResponse requires: a stream cut short is the
    complete response with the grammar's `unfinished` value standing in (a body the converter reads),
    and its IR has no finish reason."""
    acc = stream.Accumulator(V2).extend(_sse(START, _plan("I")))
    assert acc.body == {"id": "msg-1", "finish_reason": None, "message": {"role": "assistant", "tool_plan": "I"}}  # what arrived
    with pytest.warns(stream.StreamEndedEarlyWarning):
        body = acc.provider_body()
    assert body == {"id": "msg-1", "finish_reason": "COMPLETE", "message": {"role": "assistant", "tool_plan": "I"}}
    with pytest.warns(stream.StreamEndedEarlyWarning):
        response = acc.response()
    assert response.finish_reason is None and [p.text for p in response.message.parts] == ["I"]


# -- Cohere v1 -------------------------------------------------------------------------------------

V1 = "cohere_v1"


def _nd(*events: dict) -> list[dict]:
    return [{"data": e} for e in events]


def _chunk(**fields) -> dict:
    return {"event_type": "tool-calls-chunk", **fields}


V1_CALL_EVENTS = [
    {"is_finished": False, "event_type": "stream-start", "generation_id": "gen-1"},
    _chunk(text="I will"), _chunk(text=" check."),
    _chunk(tool_call_delta={"index": 0, "name": "get_weather"}),
    _chunk(tool_call_delta={"index": 0, "parameters": '{"loca'}),
    _chunk(tool_call_delta={"index": 1, "name": "get_time"}),
    _chunk(tool_call_delta={"index": 1, "parameters": '{"tz": "CET"}'}),
    _chunk(tool_call_delta={"index": 0, "parameters": 'tion": "Paris"}'}),
]


def test_v1_events_are_named_by_event_type() -> None:
    events = _nd(
        {"is_finished": False, "event_type": "stream-start", "generation_id": "gen-1"},
        {"is_finished": False, "event_type": "text-generation", "text": "Hello"},
        {"is_finished": False, "event_type": "text-generation", "text": " there"},
    )
    body = _acc(events, V1, as_provider=True)
    assert body == {"text": "Hello there", "generation_id": "gen-1"}
    assert _text(_acc(events, V1)) == "Hello there"


def test_v1_tool_call_chunks_by_index_and_the_plan_as_text() -> None:
    body = _acc(_nd(*V1_CALL_EVENTS), V1, as_provider=True)
    assert body["text"] == "I will check."
    assert body["tool_calls"] == [{"name": "get_weather", "parameters": {"location": "Paris"}}, {"name": "get_time", "parameters": {"tz": "CET"}}]
    response = _acc(_nd(*V1_CALL_EVENTS), V1)
    assert [(c.name, c.arguments) for c in _calls(response)] == [("get_weather", {"location": "Paris"}), ("get_time", {"tz": "CET"})]
    assert all(c.synthetic_id for c in _calls(response))  # v1 calls have no ids


def test_v1_the_plan_in_the_tool_call_delta() -> None:
    events = _nd(_chunk(tool_call_delta={"text": "Let me"}), _chunk(tool_call_delta={"text": " see."}))
    body = _acc(events, V1, as_provider=True)
    assert body["text"] == "Let me see." and "tool_calls" not in body


def test_v1_tool_calls_generation_is_authoritative() -> None:
    complete = [{"name": "get_weather", "parameters": {"location": "Paris, FR"}}, {"name": "get_time", "parameters": {"tz": "CET"}}]
    events = _nd(*V1_CALL_EVENTS, {"event_type": "tool-calls-generation", "text": "I will check.", "tool_calls": complete})
    body = _acc(events, V1, as_provider=True)
    assert body["tool_calls"] == complete and body["text"] == "I will check."


def test_v1_stream_end_response_reconciles() -> None:
    final = {"response_id": "r-1", "text": "I will check.", "generation_id": "gen-1", "finish_reason": "COMPLETE",
             "tool_calls": [{"name": "get_weather", "parameters": {"location": "Paris"}}, {"name": "get_time", "parameters": {"tz": "CET"}}],
             "meta": {"tokens": {"input_tokens": 11, "output_tokens": 22}}}
    events = _nd(*V1_CALL_EVENTS, {"event_type": "tool-calls-generation", "text": "I will check.", "tool_calls": final["tool_calls"]},
                 {"is_finished": True, "event_type": "stream-end", "finish_reason": "COMPLETE", "response": final})
    acc = stream.Accumulator(V1, strict=True).extend(events)
    assert acc.done
    body = acc.provider_body()
    assert body["tool_calls"] == final["tool_calls"] and body["text"] == "I will check."  # not doubled
    assert body["response_id"] == "r-1" and body["meta"] == final["meta"]
    response = acc.response()
    assert response.id == "r-1" and response.usage.input_tokens == 11 and response.finish_reason == "tool_calls"


def test_v1_stream_end_with_a_partial_response_keeps_the_streamed_text() -> None:
    # the AI SDK's v1 fixtures end with a response holding only meta: the streamed text stays
    events = _nd({"event_type": "text-generation", "text": "Hi"},
                 {"event_type": "stream-end", "finish_reason": "MAX_TOKENS", "response": {"meta": {"tokens": {"input_tokens": 1, "output_tokens": 2}}}})
    body = _acc(events, V1, as_provider=True)
    assert body == {"text": "Hi", "finish_reason": "MAX_TOKENS", "meta": {"tokens": {"input_tokens": 1, "output_tokens": 2}}}
    assert _acc(events, V1).finish_reason == "length"


def test_v1_live_view() -> None:
    acc = stream.Accumulator(V1)
    for event in _nd(*V1_CALL_EVENTS[:5]):
        acc.add(event)
    assert acc.text == "I will check."
    assert acc.calls == [{"id": "get_weather", "name": "get_weather", "arguments": '{"loca'}]


def test_v1_an_early_end_is_reported() -> None:
    with pytest.warns(stream.StreamEndedEarlyWarning):
        stream.Accumulator(V1).extend(_nd({"event_type": "text-generation", "text": "Hi"})).response()
