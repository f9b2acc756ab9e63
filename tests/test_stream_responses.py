"""OpenAI Responses stream grammar (spec/providers/openai_responses.yaml `stream:`): the rules of
issue 11 and ../shared/streams/GRAMMARS.md §2, on small hand-written event lists shaped as the
openai-python types (types/responses/response_*_event.py) describe them.

Each test checks the provider body (the Response object) and the IR response.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from toolwire import ProviderStreamError, stream

P = "openai_responses"
STREAMS = Path(__file__).resolve().parents[2] / "shared" / "streams"


def _seq(events: list[dict]) -> list[dict]:
    """SSE events as the framing yields them, each with its sequence_number (and, on deltas, the
    obfuscation padding the API adds)."""
    out = []
    for n, data in enumerate(events):
        data = {**data, "sequence_number": n}
        if data["type"].endswith(".delta"):
            data["obfuscation"] = "xYz" * (n % 3 + 1)
        out.append({"event": data["type"], "data": data})
    return out


def _created(**extra) -> dict:
    return {"type": "response.created", "response": {"id": "resp_1", "object": "response", "created_at": 1700000000, "status": "in_progress", "model": "gpt-5", "output": [], "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], **extra}}


def _reasoning(index: int = 0) -> list[dict]:
    item = {"id": "rs_1", "type": "reasoning", "summary": []}
    return [
        {"type": "response.output_item.added", "output_index": index, "item": item},
        {"type": "response.output_item.done", "output_index": index, "item": item},
    ]


def _call_added(index: int, item_id: str, call_id: str, name: str) -> dict:
    return {"type": "response.output_item.added", "output_index": index,
            "item": {"type": "function_call", "id": item_id, "call_id": call_id, "name": name, "arguments": "", "status": "in_progress"}}


def _call_done(index: int, item_id: str, call_id: str, name: str, arguments: str) -> dict:
    return {"type": "response.output_item.done", "output_index": index,
            "item": {"type": "function_call", "id": item_id, "call_id": call_id, "name": name, "arguments": arguments, "status": "completed"}}


def _acc(events, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stream.accumulate(events, provider=P, **kw)


def _calls(response) -> list:
    return [p for p in response.message.parts if p.type == "tool_call"]


def test_a_function_call_is_keyed_by_output_index_and_answers_by_call_id() -> None:
    # the call is at output_index 1 (a reasoning item first); deltas carry item_id and output_index
    events = _seq([
        _created(),
        *_reasoning(0),
        _call_added(1, "fc_item_1", "call_abc", "get_weather"),
        {"type": "response.function_call_arguments.delta", "item_id": "fc_item_1", "output_index": 1, "delta": '{"city":'},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_item_1", "output_index": 1, "delta": ' "Tokyo"}'},
    ])
    body = _acc(events, as_provider=True)
    assert [o["type"] for o in body["output"]] == ["reasoning", "function_call"]
    call_item = body["output"][1]
    assert (call_item["id"], call_item["call_id"], call_item["arguments"]) == ("fc_item_1", "call_abc", '{"city": "Tokyo"}')
    (call,) = _calls(_acc(events))
    assert call.id == "call_abc"  # never the item id
    assert call.name == "get_weather" and call.arguments == {"city": "Tokyo"}


def test_sequence_number_and_obfuscation_are_not_in_the_body() -> None:
    events = _seq([
        _created(),
        _call_added(0, "fc_1", "call_1", "f"),
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{}"},
    ])
    text = json.dumps(_acc(events, as_provider=True))
    assert "obfuscation" not in text and "sequence_number" not in text and "xYz" not in text


def test_interleaved_calls_go_to_their_own_items() -> None:
    events = _seq([
        _created(),
        _call_added(0, "fc_a", "call_a", "a"),
        _call_added(1, "fc_b", "call_b", "b"),
        {"type": "response.function_call_arguments.delta", "item_id": "fc_b", "output_index": 1, "delta": '{"y"'},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_a", "output_index": 0, "delta": '{"x"'},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_a", "output_index": 0, "delta": ": 1}"},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_b", "output_index": 1, "delta": ": 2}"},
    ])
    calls = _calls(_acc(events))
    assert [(c.id, c.name, c.arguments) for c in calls] == [("call_a", "a", {"x": 1}), ("call_b", "b", {"y": 2})]


def test_done_only_arguments_lm_studio() -> None:
    # LM Studio: no .delta at all, the arguments only in .done and output_item.done
    events = _seq([
        _created(),
        _call_added(0, "fc_1", "call_1", "get_weather"),
        {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": '{"location":"Paris"}'},
    ])
    (call,) = _calls(_acc(events))
    assert call.arguments == {"location": "Paris"}


def test_the_done_arguments_are_authoritative() -> None:
    events = _seq([
        _created(),
        _call_added(0, "fc_1", "call_1", "f"),
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": '{"a": 1'},
        {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": '{"a": 2}'},
    ])
    assert _acc(events, as_provider=True)["output"][0]["arguments"] == '{"a": 2}'
    events.append({"event": "response.output_item.done", "data": _call_done(0, "fc_1", "call_1", "f", '{"a": 3}')})
    body = _acc(events, as_provider=True)
    assert body["output"][0]["arguments"] == '{"a": 3}' and body["output"][0]["status"] == "completed"
    assert len(body["output"]) == 1


def _text_events() -> list[dict]:
    return [
        {"type": "response.output_item.added", "output_index": 0, "item": {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}},
        {"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0, "part": {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}},
        {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "Hello", "logprobs": []},
        {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": " world", "logprobs": []},
        {"type": "response.output_text.annotation.added", "item_id": "msg_1", "output_index": 0, "content_index": 0, "annotation_index": 0,
         "annotation": {"type": "url_citation", "start_index": 0, "end_index": 5, "title": "t", "url": "https://example.com"}},
    ]


def test_text_deltas_and_annotations_build_the_message() -> None:
    events = _seq([_created(), *_text_events()])
    body = _acc(events, as_provider=True)
    part = body["output"][0]["content"][0]
    assert part["text"] == "Hello world"
    assert part["annotations"] == [{"type": "url_citation", "start_index": 0, "end_index": 5, "title": "t", "url": "https://example.com"}]
    response = _acc(events)
    assert [p.text for p in response.message.parts if p.type == "text"] == ["Hello world"]


def test_live_view_shows_partial_arguments_under_the_call_id() -> None:
    acc = stream.Accumulator(P)
    for event in _seq([
        _created(),
        *_text_events()[:3],
        _call_added(1, "fc_1", "call_1", "lookup"),
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": '{"q": "ab'},
    ]):
        acc.add(event)
    assert acc.text == "Hello"
    assert acc.calls == [{"id": "call_1", "name": "lookup", "arguments": '{"q": "ab'}]
    assert not acc.done


def _completed(output, status="completed", **extra) -> dict:
    response = {**_created()["response"], "status": status, "output": output,
                "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}, **extra}
    return {"type": f"response.{status}" if status != "completed" else "response.completed", "response": response}


def test_the_terminal_snapshot_reconciles_and_does_not_duplicate() -> None:
    final_call = _call_done(1, "fc_1", "call_1", "f", '{"a": 1}')["item"]
    final_reasoning = {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "final-enc"}
    events = _seq([
        _created(),
        {"type": "response.output_item.added", "output_index": 0, "item": {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "early-enc"}},
        _call_added(1, "fc_1", "call_1", "f"),
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 1, "delta": '{"a": 1}'},
        _call_done(1, "fc_1", "call_1", "f", '{"a": 1}'),
        _completed([final_reasoning, final_call]),
    ])
    body = _acc(events, as_provider=True)
    assert body["output"] == [final_reasoning, final_call]  # two items, not four; the final encrypted_content
    assert body["status"] == "completed" and body["usage"]["total_tokens"] == 15
    response = _acc(events, strict=True)
    assert [c.id for c in _calls(response)] == ["call_1"]
    assert response.usage.input_tokens == 10 and response.finish_reason == "tool_calls"


def test_a_terminal_snapshot_without_output_keeps_what_was_streamed() -> None:
    # openai-python ResponseStreamState: output recovered from the streamed items when the final response has none
    completed = _completed(None)
    events = _seq([_created(), _call_added(0, "fc_1", "call_1", "f"),
                   {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": '{"k": "v"}'},
                   completed])
    body = _acc(events, as_provider=True)
    assert [o["call_id"] for o in body["output"]] == ["call_1"] and body["usage"]["output_tokens"] == 5
    assert _calls(_acc(events))[0].arguments == {"k": "v"}


@pytest.mark.parametrize("status, reason, finish", [("incomplete", {"reason": "max_output_tokens"}, "length"), ("failed", None, "error")])
def test_incomplete_and_failed_end_the_stream(status, reason, finish) -> None:
    extra = {"incomplete_details": reason} if reason else {"error": {"code": "server_error", "message": "boom"}}
    events = _seq([_created(), *_text_events()[:3], _completed(None, status=status, **extra)])
    acc = stream.Accumulator(P, strict=True).extend(events)
    assert acc.done
    body = acc.provider_body()
    assert body["status"] == status and body["output"][0]["content"][0]["text"] == "Hello"
    assert acc.response().finish_reason == finish


def test_custom_tool_call_input_deltas_stay_a_custom_call() -> None:
    events = _seq([
        _created(),
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_c", "name": "write_sql", "input": ""}},
        {"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "output_index": 0, "delta": "SELECT *"},
        {"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "output_index": 0, "delta": " FROM t"},
    ])
    body = _acc(events, as_provider=True)
    assert body["output"][0]["input"] == "SELECT * FROM t"
    response = _acc(events)
    assert _calls(response) == []  # free-form input: no IR tool call; kept verbatim
    (part,) = response.message.parts
    assert part.type == "opaque" and part.data["call_id"] == "call_c" and part.data["input"] == "SELECT * FROM t"


def test_hosted_tool_events_are_not_client_calls() -> None:
    events = _seq([
        _created(),
        {"type": "response.output_item.added", "output_index": 0, "item": {"id": "ws_1", "type": "web_search_call", "status": "in_progress"}},
        {"type": "response.web_search_call.in_progress", "item_id": "ws_1", "output_index": 0},
        {"type": "response.web_search_call.searching", "item_id": "ws_1", "output_index": 0},
        {"type": "response.web_search_call.completed", "item_id": "ws_1", "output_index": 0},
        {"type": "response.output_item.done", "output_index": 0, "item": {"id": "ws_1", "type": "web_search_call", "status": "completed", "action": {"type": "search", "query": "q"}}},
        {"type": "response.output_item.added", "output_index": 1, "item": {"id": "ci_1", "type": "code_interpreter_call", "status": "in_progress", "code": "", "container_id": "c", "outputs": None}},
        {"type": "response.code_interpreter_call_code.delta", "item_id": "ci_1", "output_index": 1, "delta": "print("},
        {"type": "response.code_interpreter_call_code.delta", "item_id": "ci_1", "output_index": 1, "delta": "1)"},
    ])
    with warnings.catch_warnings():
        warnings.simplefilter("error", stream.UnknownEventWarning)
        body = stream.Accumulator(P).extend(events).provider_body()
    assert body["output"][0]["action"] == {"type": "search", "query": "q"}
    assert body["output"][1]["code"] == "print(1)"
    response = _acc(events)
    assert _calls(response) == []
    assert [p.data["type"] for p in response.message.parts] == ["web_search_call", "code_interpreter_call"]


def test_reasoning_summary_and_reasoning_text_deltas() -> None:
    events = _seq([
        _created(),
        {"type": "response.output_item.added", "output_index": 0, "item": {"id": "rs_1", "type": "reasoning", "summary": []}},
        {"type": "response.reasoning_summary_part.added", "item_id": "rs_1", "output_index": 0, "summary_index": 0, "part": {"type": "summary_text", "text": ""}},
        {"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0, "summary_index": 0, "delta": "**Plan**"},
        {"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0, "summary_index": 0, "delta": " think"},
        {"type": "response.output_item.added", "output_index": 1, "item": {"id": "rs_2", "type": "reasoning", "summary": []}},
        {"type": "response.reasoning_text.delta", "item_id": "rs_2", "output_index": 1, "content_index": 0, "delta": "The user"},
        {"type": "response.reasoning_text.delta", "item_id": "rs_2", "output_index": 1, "content_index": 0, "delta": " asks"},
    ])
    body = _acc(events, as_provider=True)
    assert body["output"][0]["summary"] == [{"type": "summary_text", "text": "**Plan** think"}]
    assert body["output"][1]["content"] == [{"type": "reasoning_text", "text": "The user asks"}]
    events.append({"event": "response.reasoning_text.done", "data": {"type": "response.reasoning_text.done", "item_id": "rs_2", "output_index": 1, "content_index": 0, "text": "The user asks."}})
    assert _acc(events, as_provider=True)["output"][1]["content"][0]["text"] == "The user asks."


def test_an_error_event_raises() -> None:
    events = _seq([_created(), {"type": "error", "code": "rate_limit_exceeded", "message": "slow down", "param": None}])
    with pytest.raises(ProviderStreamError) as info:
        _acc(events)
    assert info.value.error_type == "rate_limit_exceeded" and info.value.provider_message == "slow down"


def test_an_unknown_event_is_reported_and_strict_rejects_it() -> None:
    events = _seq([_created(), {"type": "response.brand_new.delta", "output_index": 0, "delta": "x"}])
    with pytest.warns(stream.UnknownEventWarning):
        stream.Accumulator(P).extend(events).provider_body()
    with pytest.raises(stream.InvalidEventError):
        stream.Accumulator(P, strict=True).extend(events)


def test_a_delta_for_an_item_never_added_is_an_error() -> None:
    events = _seq([_created(), {"type": "response.function_call_arguments.delta", "item_id": "fc_9", "output_index": 3, "delta": "{}"}])
    with pytest.raises(stream.InvalidEventError):
        _acc(events)


def _recorded() -> list:
    if not STREAMS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/streams is absent"))]
    return [pytest.param(p, id=p.stem) for p in sorted(STREAMS.glob("openai_responses__*.json"))]


@pytest.mark.parametrize("path", _recorded())
def test_recorded_streams_build_the_final_output_before_the_terminal_event(path: Path) -> None:
    """Without response.completed, the streamed items alone give the recorded final output: the
    grammar builds it, the terminal snapshot only reconciles. Exception: opaque state the server
    re-issues at the end (reasoning encrypted_content, program fingerprint)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["events"][-1]["data"]["type"] == "response.completed"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stream.StreamEndedEarlyWarning)
        warnings.simplefilter("error", stream.UnknownEventWarning)  # every recorded event type is known
        body = stream.accumulate(doc["events"][:-1], provider=P, as_provider=True)
    reissued = {"encrypted_content", "fingerprint"}

    def strip(items):
        return [{k: v for k, v in item.items() if k not in reissued} for item in items]

    assert strip(body["output"]) == strip(doc["expected_final"]["output"])
