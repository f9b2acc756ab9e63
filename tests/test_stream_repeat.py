"""The accumulator's repeat path (toolwire_runtime/streaming.py ``Accumulator.add``): an event equal to
the last one decoded but for its text or argument fragment does what that one did, without the
decoder. It must change nothing: every golden and recorded stream accumulates to the same body, with
the same reports and the same log of changes (what stream translation reads), with it and without it;
events that change more than their fragment (a logprobs ``extend``) are never replayed."""

from __future__ import annotations

import copy
import json
import warnings

import pytest

from toolwire import stream
from toolwire_runtime import streaming

from test_stream_golden import FILES
from test_stream_translate import STREAM_FILES


def _run(provider: str, events: list, repeat: bool) -> tuple:
    """(body, reports, log of changes as JSON-able tuples, or the error) with the repeat path on or off."""
    saved = streaming.REPEAT
    streaming.REPEAT = repeat
    try:
        acc = stream.Accumulator(provider)
        logs = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                for event in copy.deepcopy(events):
                    logs.append([(op[0], *(x for x in op[2:] if not isinstance(x, dict))) for op in acc.add_logged(event)])
                body = acc.provider_body()
            except Exception as exc:  # noqa: BLE001 (an error is an outcome too: the same one must come)
                return (f"{type(exc).__name__}: {exc}",)
        return json.dumps(body, sort_keys=False), [(type(w.message).__name__, str(w.message)) for w in caught], logs
    finally:
        streaming.REPEAT = saved


def _golden() -> list:
    return [pytest.param(provider, scenario, id=f"{provider}-{scenario}") for provider, doc in FILES.items() for scenario in doc["scenarios"]]


@pytest.mark.parametrize("provider, scenario", _golden())
def test_golden_streams_accumulate_the_same_with_the_repeat_path(provider: str, scenario: str) -> None:
    events = FILES[provider]["scenarios"][scenario]["events"]
    assert _run(provider, events, True) == _run(provider, events, False)


@pytest.mark.parametrize("path", STREAM_FILES, ids=[p.stem for p in STREAM_FILES])
def test_recorded_streams_accumulate_the_same_with_the_repeat_path(path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert _run(doc["provider"], doc["events"], True) == _run(doc["provider"], doc["events"], False)


def _chunk(delta: dict, **extra) -> dict:
    # OpenAI Chat Completions chunk (openai-python ChatCompletionChunk)
    choice = {"index": 0, "delta": delta, "finish_reason": None, **extra}
    return {"data": {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1", "choices": [choice]}}


def _counting_decoder(monkeypatch, acc) -> list:
    calls = []
    decode = acc._decode

    def counted(st, name, e):
        calls.append(name)
        decode(st, name, e)

    monkeypatch.setattr(acc, "_decode", counted)
    return calls


def test_fragments_take_the_repeat_path(monkeypatch) -> None:
    acc = stream.Accumulator("openai_chat")
    calls = _counting_decoder(monkeypatch, acc)
    acc.add(_chunk({"role": "assistant", "content": ""}))
    for i in range(50):
        acc.add(_chunk({"content": f"w{i} "}))
    acc.add(_chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}]}))
    for piece in ('{"a"', ": 1", "}"):
        acc.add(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
    assert acc.text == "".join(f"w{i} " for i in range(50))
    assert acc.calls == [{"id": "call_1", "name": "f", "arguments": '{"a": 1}'}]
    # the role chunk, the first text fragment (learnt), the call's start, its first argument fragment
    assert len(calls) == 4


def test_an_event_that_extends_a_list_is_never_replayed(monkeypatch) -> None:
    # logprobs.content items are appended (`extend`) by every chunk: replaying only the fragment would lose them
    acc = stream.Accumulator("openai_chat")
    calls = _counting_decoder(monkeypatch, acc)
    acc.add(_chunk({"role": "assistant", "content": ""}))
    item = {"token": "x", "logprob": -0.1, "bytes": [120], "top_logprobs": []}
    for i in range(5):
        acc.add(_chunk({"content": f"t{i}"}, logprobs={"content": [item], "refusal": None}))
    acc.add(_chunk({}, ))
    body = acc.body["choices"][0]
    assert body["message"]["content"] == "t0t1t2t3t4"
    assert len(body["logprobs"]["content"]) == 5
    assert len(calls) == 7


def test_a_changed_field_besides_the_fragment_takes_the_decoder() -> None:
    # the same shape, but the second event names another call: it must reach that call
    acc = stream.Accumulator("openai_chat")
    acc.add(_chunk({"role": "assistant"}))
    for index, call_id in ((0, "call_a"), (1, "call_b")):
        acc.add(_chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function", "function": {"name": "f", "arguments": ""}}]}))
    for index, piece in ((0, '{"x":'), (0, " 1}"), (1, '{"y":'), (1, " 2}"), (0, " ")):
        acc.add(_chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    assert [c["arguments"] for c in acc.calls] == ['{"x": 1} ', '{"y": 2}']


def test_an_event_object_reused_by_the_caller() -> None:
    # a client that fills one dict per event (the template is a copy: the next event is compared, not aliased)
    acc = stream.Accumulator("openai_chat")
    event = _chunk({"role": "assistant", "content": ""})
    acc.add(event)
    del event["data"]["choices"][0]["delta"]["role"]
    for word in ("a", "b", "c"):
        event["data"]["choices"][0]["delta"]["content"] = word
        acc.add(event)
    event["data"]["choices"][0]["finish_reason"] = "stop"
    event["data"]["choices"][0]["delta"] = {}
    acc.add(event)
    assert acc.text == "abc"
    assert acc.body["choices"][0]["finish_reason"] == "stop"


def test_the_guard_holds_the_constants_the_grammar_compares_with() -> None:
    import toolwire.streams.anthropic as anthropic
    import toolwire.streams.gemini as gemini

    constants, compared = streaming._repeat_guard(gemini)
    assert "" in constants and "thought" in compared  # `not: {text: ""}`, `continue_if: {same: thought}`
    constants, _ = streaming._repeat_guard(anthropic)
    assert {"text_delta", "input_json_delta"} <= constants


def test_a_fragment_equal_to_a_compared_constant_takes_the_decoder(monkeypatch) -> None:
    acc = stream.Accumulator("anthropic")
    calls = _counting_decoder(monkeypatch, acc)
    start = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}
    acc.add(start)
    acc.add({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    spelled = "".join(["text", "_delta"])  # (another object than the event's `type`)
    for text in ("one ", spelled, "two", "three"):  # the second fragment spells a constant of the grammar
        acc.add({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})
    assert acc.text == "one text_deltatwothree"
    assert len(calls) == 4  # start, block start, the first fragment (learnt), the guarded one (learnt again)
    # a fragment that is the very object the event holds elsewhere too: its place is not known, nothing is learnt
    for text in ("text_delta", " four", " five"):
        acc.add({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})
    assert acc.text == "one text_deltatwothreetext_delta four five"
    assert len(calls) == 6


def test_numbers_are_compared_with_their_types(monkeypatch) -> None:
    # 1 == 1.0 == True: an event whose numbers changed type is decoded, not replayed (a `set` keeps the type it is given)
    acc = stream.Accumulator("openai_chat")
    calls = _counting_decoder(monkeypatch, acc)
    acc.add(_chunk({"role": "assistant", "content": ""}))
    acc.add(_chunk({"content": "a"}))
    acc.add(_chunk({"content": "b"}))  # replayed
    changed = _chunk({"content": "c"})
    changed["data"]["choices"][0]["index"] = False
    acc.add(changed)
    floats = _chunk({"content": "d"})
    floats["data"]["created"] = 1.0
    acc.add(floats)
    acc.add(_chunk({"content": "e"}))  # learnt again from "d"? no: an event with a float is never learnt
    assert acc.text == "abcde"
    assert len(calls) == 5  # role, a (learnt), c (types differ), d (float: not learnt), e
