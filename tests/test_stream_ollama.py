"""Ollama /api/chat stream accumulation: the rules of the grammar in spec/providers/ollama.yaml.

NDJSON ChatResponse chunks (ollama/ollama docs/api.md, server/routes.go ChatHandler;
../shared/streams/GRAMMARS.md §7): content and thinking concatenated, tool calls come whole (object
arguments) in done:false chunks and all of them are in the complete answer, the done:true chunk
carries done_reason and the counts.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import stream
from toolwire_runtime.errors import ProviderStreamError
from toolwire_runtime.streaming import StreamEndedEarlyWarning
from sdk_validation import validate

P = "ollama"
STREAMS = Path(__file__).resolve().parents[2] / "shared" / "streams"
T0 = "2026-08-07T06:08:09.335586Z"


def chunk(message: dict, done: bool = False, **extra) -> dict:
    return {"data": {"model": "qwen3.6:latest", "created_at": T0, "message": {"role": "assistant", **message}, "done": done, **extra}}


DONE = chunk({"content": ""}, done=True, done_reason="stop", total_duration=100, load_duration=10,
             prompt_eval_count=31, prompt_eval_duration=20, eval_count=7, eval_duration=60)


def call(i: int, name: str, args: dict) -> dict:
    return {"id": f"call_{i:08d}", "function": {"index": i, "name": name, "arguments": args}}


# Current Ollama sends tool_calls[].id and function.index (the recorded 2026 responses in
# ../shared/streams/ollama__*NONSTREAM*); ollama-python 0.6.3's Message.ToolCall does not declare them.
NEWER_THAN_SDK = (".id: Extra inputs are not permitted", ".function.index: Extra inputs are not permitted")


def body_of(events) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        body = stream.accumulate(events, provider=P, as_provider=True)
    assert [e for e in validate(P, "response", body) if not e.endswith(NEWER_THAN_SDK)] == []
    return body


def test_content_and_thinking_are_concatenated_and_the_done_chunk_gives_reason_and_counts() -> None:
    events = [chunk({"content": "", "thinking": "Let"}), chunk({"content": "", "thinking": " me"}),
              chunk({"content": "1\n"}), chunk({"content": "2"}), DONE]
    body = body_of(events)
    assert body == {
        "model": "qwen3.6:latest", "created_at": T0,
        "message": {"role": "assistant", "content": "1\n2", "thinking": "Let me"},
        "done": True, "done_reason": "stop",
        "total_duration": 100, "load_duration": 10, "prompt_eval_count": 31, "prompt_eval_duration": 20,
        "eval_count": 7, "eval_duration": 60,
    }
    response = stream.accumulate(events, provider=P)
    assert [p.text for p in response.message.parts if p.type == "text"] == ["1\n2"]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (31, 7)


def test_whole_tool_calls_from_every_chunk_are_appended_and_stop_with_calls_is_tool_calls() -> None:
    events = [
        chunk({"content": "", "thinking": "Two calls."}),
        chunk({"content": "", "tool_calls": [call(0, "get_weather", {"city": "Paris"})]}),
        chunk({"content": "", "tool_calls": [call(1, "get_time", {"tz": "CET"}), call(2, "noop", {})]}),
        DONE,
    ]
    body = body_of(events)
    assert body["message"]["tool_calls"] == [call(0, "get_weather", {"city": "Paris"}), call(1, "get_time", {"tz": "CET"}), call(2, "noop", {})]
    response = stream.accumulate(events, provider=P)
    calls = [p for p in response.message.parts if p.type == "tool_call"]
    assert [(c.name, c.arguments) for c in calls] == [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "CET"}), ("noop", {})]
    assert response.finish_reason == "tool_calls"  # done_reason says stop; a call was made


def test_live_view_shows_whole_calls_as_they_come() -> None:
    acc = stream.Accumulator(P)
    acc.add(chunk({"content": "Hi"}))
    acc.add(chunk({"content": "", "tool_calls": [call(0, "f", {"a": 1})]}))
    assert acc.text == "Hi"
    assert acc.calls == [{"id": "call_00000000", "name": "f", "arguments": '{"a": 1}'}]
    assert not acc.done
    acc.add(DONE)
    assert acc.done


def test_an_error_line_raises_with_the_server_message() -> None:
    with pytest.raises(ProviderStreamError) as info:
        stream.accumulate([chunk({"content": "a"}), {"data": {"error": "model runner has unexpectedly stopped"}}], provider=P)
    assert info.value.provider_message == "model runner has unexpectedly stopped"
    assert info.value.index == 1


def test_a_stream_without_the_done_chunk_is_reported() -> None:
    with pytest.warns(StreamEndedEarlyWarning):
        body = stream.accumulate([chunk({"content": "Hel"}), chunk({"content": "lo"})], provider=P, as_provider=True)
    assert body["message"]["content"] == "Hello"


def test_ndjson_body_round_trip() -> None:
    events = [chunk({"content": "<b>&"}), chunk({"content": "", "tool_calls": [call(0, "f", {"x": "<y>"})]}), DONE]
    raw = b"".join(stream.write(events, provider=P))
    assert b"\\u003cb\\u003e\\u0026" in raw  # Go's escapes (the ndjson_go framing)
    assert stream.accumulate(list(stream.parse(raw, provider=P)), provider=P, as_provider=True) == body_of(events)


def _references() -> list:
    if not STREAMS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/streams is absent"))]
    return [pytest.param(p, id=p.stem) for p in sorted(STREAMS.glob("ollama__*NONSTREAM*.json"))]


@pytest.mark.parametrize("path", _references())
def test_the_recorded_complete_tool_call_responses_come_back_from_their_chunks(path: Path) -> None:
    """The corpus has no streamed native tool call, but two complete ones (stream:false). Sent as
    the server streams them (thinking fragments, each call whole in a done:false chunk, the counts
    in the done chunk: server/routes.go), they accumulate to exactly that complete response."""
    final = json.loads(path.read_text(encoding="utf-8"))["response"]
    msg = final["message"]
    counts = {k: v for k, v in final.items() if k not in ("model", "created_at", "message")}
    thinking = msg["thinking"]
    events = [chunk({"content": "", "thinking": thinking[i:i + 7]}) for i in range(0, len(thinking), 7)]
    events += [chunk({"content": "", "tool_calls": [c]}) for c in msg["tool_calls"]]
    events.append({"data": {"model": final["model"], "created_at": final["created_at"], "message": {"role": "assistant", "content": ""}, **counts}})
    for e in events:
        e["data"]["model"] = final["model"]
    body = body_of(events)
    assert body == final
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert stream.accumulate(events, provider=P) == toolwire.to_ir(final, provider=P, kind="response")
