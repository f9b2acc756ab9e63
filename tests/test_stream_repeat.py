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


def _mistral_chunk(content) -> dict:
    # Mistral's CompletionChunk (mistralai DeltaMessage.content: a string or a list of typed chunks)
    return {"data": {"id": "cmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "magistral-medium-latest", "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}]}}


def test_mistral_content_fragments_take_the_repeat_path(monkeypatch) -> None:
    """``append_parts`` (Mistral's content: a string, or typed parts) logs a fragment that only
    extends a string as that string's append: text and thinking fragments take the repeat path; a
    part of another type is decoded (before, every Mistral chunk was an effect no op said, and was
    decoded)."""
    acc = stream.Accumulator("mistral")
    calls = _counting_decoder(monkeypatch, acc)
    for i in range(20):
        acc.add(_mistral_chunk([{"type": "thinking", "thinking": [{"type": "text", "text": f"t{i} "}]}]))
    for i in range(20):
        acc.add(_mistral_chunk([{"type": "text", "text": f"w{i} "}]))
    for i in range(20):
        acc.add(_mistral_chunk(f"s{i} "))  # (a string after parts: it joins the last text part)
    content = acc.body["choices"][0]["message"]["content"]
    assert content == [
        {"type": "thinking", "thinking": [{"type": "text", "text": "".join(f"t{i} " for i in range(20))}]},
        {"type": "text", "text": "".join(f"w{i} " for i in range(20)) + "".join(f"s{i} " for i in range(20))},
    ]
    # the first chunk of each run of parts (a new part: an effect) and its second (learnt); the first
    # string (it joins the last text part: an append, learnt)
    assert len(calls) == 5
    plain = stream.Accumulator("mistral")
    for i in range(20):
        plain.add(_mistral_chunk(f"s{i} "))
    assert plain.body["choices"][0]["message"]["content"] == "".join(f"s{i} " for i in range(20))


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

    constants, compared, _read = streaming._repeat_guard(gemini)
    assert "" in constants and "thought" in compared  # `not: {text: ""}`, `continue_if: {same: thought}`
    constants, _, _read = streaming._repeat_guard(anthropic)
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


def _calls_stream(n: int, types: dict | None = None) -> list:
    """An OpenAI Chat stream of ``n`` calls, each opened, then its arguments in three fragments."""
    events = [_chunk({"role": "assistant", "content": None})]
    for k in range(n):
        events.append(_chunk({"tool_calls": [{"index": k, "id": f"call_{k}", "type": "function", "function": {"name": "f", "arguments": ""}}]}))
        for piece in ('{"k": ', f"{k}", "}"):
            events.append(_chunk({"tool_calls": [{"index": k, "function": {"arguments": piece}}]}))
            events[-1]["data"].update((types or {}).get(k, {}))
    return events


def _counting_walks(monkeypatch) -> list:
    walks = []
    walk = streaming._repeat_of

    def counted(event, *rest):
        walks.append(event)
        return walk(event, *rest)

    monkeypatch.setattr(streaming, "_repeat_of", counted)
    return walks


def test_the_next_call_takes_the_repeat_path_learnt_from_the_last_one(monkeypatch) -> None:
    # call 1's first argument fragment differs from call 0's only by its index: it is learnt by
    # rebinding call 0's template (_rebind), not by walking the event again
    events = _calls_stream(3)
    acc = stream.Accumulator("openai_chat")
    calls = _counting_decoder(monkeypatch, acc)
    walks = _counting_walks(monkeypatch)
    for event in copy.deepcopy(events):
        acc.add(event)
    assert [c["arguments"] for c in acc.calls] == ['{"k": 0}', '{"k": 1}', '{"k": 2}']
    assert len(walks) == 1  # call 0's first fragment; calls 1 and 2 rebound
    assert len(calls) == 7  # the role chunk, and each call's opening and first fragment
    assert _run("openai_chat", events, True) == _run("openai_chat", events, False)


def test_a_number_a_condition_reads_is_not_rebound(monkeypatch) -> None:
    acc = stream.Accumulator("openai_chat")
    constants, compared, read = acc._guard
    acc._guard = (constants, compared, read | {"index"})  # as if the grammar compared `index` with a constant
    walks = _counting_walks(monkeypatch)
    for event in _calls_stream(3):
        acc.add(event)
    assert len(walks) == 3
    assert [c["arguments"] for c in acc.calls] == ['{"k": 0}', '{"k": 1}', '{"k": 2}']


def test_a_number_of_another_type_is_not_rebound(monkeypatch) -> None:
    events = _calls_stream(2, types={1: {"created": True}})  # (1 == True: equal, but not the same event)
    walks = _counting_walks(monkeypatch)
    acc = stream.Accumulator("openai_chat")
    for event in copy.deepcopy(events):
        acc.add(event)
    assert len(walks) == 2
    assert acc.body["created"] == 1 and type(acc.body["created"]) is int
    assert _run("openai_chat", events, True) == _run("openai_chat", events, False)


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


# -- what the decoder never reads (the decoders' READS): padding that differs on every event ----------
# OpenAI Chat chunks and Responses delta events carry an `obfuscation` padding, Responses events a
# `sequence_number`, Bedrock events a `p` padding: different on every event, read by nothing. The
# repeat path compares events on what the decoder reads (generator/stream_grammar.py read_tree), so
# such fragments are replayed; these tests check that what READS calls unread really is.

JUNK = {"toolwire: not read": [1, 2.5, None]}


def _unread_paths(node, tree, path=()) -> list:
    """The paths in an event that a READS tree says nothing reads (the test's own walk)."""
    if tree is True:
        return []
    out = []
    if type(node) is dict and type(tree) is dict:
        for k, v in node.items():
            out += [path + (k,)] if k not in tree else _unread_paths(v, tree[k], path + (k,))
    elif type(node) is list and type(tree) is list:
        for i, v in enumerate(node):
            out += _unread_paths(v, tree[0], path + (i,))
    return out


def _known(acc, event, path: tuple) -> bool:
    """Whether the grammar knows the place ``path`` of ``event`` (its KNOWN: read, or declared to carry
    nothing, as a padding): a key it does not know is reported, so its value is not junk to it."""
    name, payload = streaming.event_parts(event, acc._naming)
    tree = (acc._known or {}).get(name)
    if tree is None:
        return True  # (an event the grammar ignores whole: not checked)
    node = event
    while path and node is not payload:  # (the framing's keys, and boto3's {name: payload})
        node, path = node[path[0]], path[1:]
    for k in path:
        if tree is True:
            return True
        tree = (tree[0] if type(tree) is list else None) if type(k) is int else (tree.get(k) if type(tree) is dict else None)
        if tree is None:
            return False
    return True


def _with_junk(provider: str, events: list) -> tuple[list, int]:
    """The events with every value READS calls unread, and the grammar knows (KNOWN: a padding, a
    sequence number), replaced by junk of another type, and how many."""
    acc = stream.Accumulator(provider)
    out, count = [], 0
    for event in copy.deepcopy(events):
        for path in _unread_paths(event, acc._reads_of(event)):
            if not _known(acc, event, path):
                continue  # (a key the grammar does not know is reported when it holds something)
            holder = event
            for k in path[:-1]:
                holder = holder[k]
            holder[path[-1]] = copy.deepcopy(JUNK)
            count += 1
        out.append(event)
    return out, count


@pytest.mark.parametrize("path", STREAM_FILES, ids=[p.stem for p in STREAM_FILES])
def test_what_the_decoder_does_not_read_changes_nothing(path) -> None:
    # the decoder alone (repeat path off): the same body, reports and changes, whatever those values are
    doc = json.loads(path.read_text(encoding="utf-8"))
    junked, _count = _with_junk(doc["provider"], doc["events"])
    assert _run(doc["provider"], junked, False) == _run(doc["provider"], doc["events"], False)


def test_the_recordings_carry_values_nothing_reads() -> None:
    # (so the test above is not vacuous: OpenAI's obfuscation, Responses' sequence_number, Bedrock's p)
    if not STREAM_FILES:
        pytest.skip("../shared/streams/ is not beside the project")
    counts: dict = {}
    for path in STREAM_FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        counts[doc["provider"]] = counts.get(doc["provider"], 0) + _with_junk(doc["provider"], doc["events"])[1]
    assert counts.get("openai_chat", 0) > 100 and counts.get("openai_responses", 0) > 1000 and counts.get("bedrock_converse", 0) > 100


def test_padding_different_on_every_chunk_takes_the_repeat_path(monkeypatch) -> None:
    acc = stream.Accumulator("openai_chat")
    calls = _counting_decoder(monkeypatch, acc)
    pad = lambda i: {"obfuscation": "x" * (i % 7 + 1)}  # noqa: E731
    acc.add(_chunk({"role": "assistant", "content": ""}, **{}))
    for i in range(50):
        event = _chunk({"content": f"w{i} "})
        event["data"].update(pad(i))
        acc.add(event)
    assert acc.text == "".join(f"w{i} " for i in range(50))
    assert len(calls) == 2  # the role chunk and the first text fragment (learnt); the 49 others replayed


def test_an_event_without_the_padding_the_last_one_had_is_decoded() -> None:
    # a key nothing reads must still be there (or absent) as it was: otherwise the decoder reads the event
    acc = stream.Accumulator("openai_chat")
    acc.add(_chunk({"role": "assistant", "content": ""}))
    for i, padded in enumerate((True, True, False, True, False, False)):
        event = _chunk({"content": f"w{i}"})
        if padded:
            event["data"]["obfuscation"] = f"pad{i}"
        acc.add(event)
    assert acc.text == "w0w1w2w3w4w5"


def test_responses_deltas_with_their_sequence_numbers_take_the_repeat_path(monkeypatch) -> None:
    from test_stream_responses import _created, _seq

    item = {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    head = [_created(), {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0, "part": part}]
    deltas = [{"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": f"w{i} ", "logprobs": []} for i in range(30)]
    acc = stream.Accumulator("openai_responses")
    calls = _counting_decoder(monkeypatch, acc)
    for event in _seq(head + deltas):
        acc.add(event)
    assert acc.text == "".join(f"w{i} " for i in range(30))
    assert calls.count("response.output_text.delta") == 1  # (sequence_number and obfuscation differ on each)


@pytest.mark.parametrize("provider, scenario", _golden())
def test_what_the_decoder_does_not_read_changes_nothing_in_the_golden_streams(provider: str, scenario: str) -> None:
    events = FILES[provider]["scenarios"][scenario]["events"]
    junked, _count = _with_junk(provider, events)
    assert _run(provider, junked, False) == _run(provider, events, False)


# -- values only a top-level `set` reads (SETS): a repeat takes them into the body ---------------------

def _ollama(content: str, at: str | None, **extra) -> dict:
    # Ollama /api/chat NDJSON line (ollama-python ChatResponse): created_at differs on every chunk
    chunk = {"model": "qwen3", "created_at": at, "message": {"role": "assistant", "content": content}, "done": False, **extra}
    if at is None:
        del chunk["created_at"]
    return {"data": chunk}


def _at(i: int) -> str:
    return f"2026-08-07T06:08:{i:02d}.{i * 31:06d}Z"


def test_the_grammar_says_which_keys_only_a_set_reads() -> None:
    from toolwire.streams import gemini, ollama

    assert ollama.SETS["chunk"]["created_at"] == "created_at" and "done" not in ollama.SETS["chunk"]  # (`done` ends the stream: a condition reads it)
    assert gemini.SETS["chunk"]["usageMetadata"] == "usageMetadata" and "candidates" not in gemini.SETS["chunk"]


def test_ollama_chunks_take_the_repeat_path(monkeypatch) -> None:
    """Ollama's created_at differs on every chunk, and only a `set` (last wins) reads it: a chunk
    that differs from the last one by its fragment and that value takes the repeat path, the value
    going to the body (before: every chunk was decoded)."""
    acc = stream.Accumulator("ollama")
    calls = _counting_decoder(monkeypatch, acc)
    for i in range(40):
        acc.add(_ollama(f"w{i} ", _at(i)))
    acc.add(_ollama("", _at(59), done=True, done_reason="stop", eval_count=40))
    assert acc.text == "".join(f"w{i} " for i in range(40))
    assert acc.body["created_at"] == _at(59) and acc.body["done"] is True
    assert len(calls) == 2  # the first chunk (learnt), the last (done: a value a condition reads; no fragment)
    acc = stream.Accumulator("ollama")
    for i in range(40):
        acc.add(_ollama(f"w{i} ", _at(i)))
    assert acc.body["created_at"] == _at(39)  # (the latest, as decoding every chunk gives it)


def test_a_set_value_that_is_null_or_missing_accumulates_as_decoded() -> None:
    """The latest non-null value wins, as `set` says: a null keeps the last value; a chunk without
    the key is not a repeat of one with it (the template has the key)."""
    ats = [_at(0), _at(1), None, _at(3), "missing", _at(5), _at(6)]
    events = [_ollama(f"w{i}", None if at == "missing" else at) for i, at in enumerate(ats)]
    events[2]["data"]["created_at"] = None
    events.append(_ollama("", _at(9), done=True, done_reason="stop"))
    assert _run("ollama", events, True) == _run("ollama", events, False)
    assert json.loads(_run("ollama", events[:4], True)[0])["created_at"] == _at(3)
    assert json.loads(_run("ollama", events[:3], True)[0])["created_at"] == _at(1)


def test_gemini_chunks_with_a_running_usage_take_the_repeat_path(monkeypatch) -> None:
    # streamGenerateContent?alt=sse chunks (google-genai GenerateContentResponse): usageMetadata is a
    # running total on every chunk
    def chunk(text: str, n: int) -> dict:
        return {"data": {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "index": 0}],
                         "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": n, "totalTokenCount": 9 + n},
                         "modelVersion": "gemini-2.5-flash", "responseId": "r1"}}

    acc = stream.Accumulator("gemini")
    calls = _counting_decoder(monkeypatch, acc)
    for i in range(30):
        acc.add(chunk(f"w{i} ", i + 1))
    assert acc.text == "".join(f"w{i} " for i in range(30))
    assert acc.body["usageMetadata"]["candidatesTokenCount"] == 30
    assert len(calls) == 2


def test_ollama_chunks_translate_on_the_hot_path(monkeypatch) -> None:
    """Translated, such chunks take the hot path too (a slow step for the first, and for the end),
    and the source body has each created_at: the target that says it once (OpenAI
    Chat's created) keeps the first and reports the last, as when every chunk was decoded."""
    from test_stream_sync import count_slow_steps

    steps = count_slow_steps(monkeypatch)
    events = [_ollama(f"w{i} ", f"2026-08-07T06:08:{i:02d}Z") for i in range(40)]
    events.append(_ollama("", "2026-08-07T06:09:00Z", done=True, done_reason="stop", prompt_eval_count=3, eval_count=40))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        out = list(stream.convert(events, source="ollama", target="openai_chat"))
    assert len(steps) <= 3, len(steps)
    chunks = [e["data"] for e in out if isinstance(e["data"], dict)]
    assert {c["created"] for c in chunks} == {1786082880}  # 2026-08-07T06:08:00Z
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]) == "".join(f"w{i} " for i in range(40))
    said = [w.message for w in record if "says it once" in str(w.message)]
    assert len(said) == 1 and "1786082940" in said[0].message  # 2026-08-07T06:09:00Z: the last chunk's
