"""Shortcuts of stream translation's sync points (toolwire_runtime/translate.py ``Encoder._sync_mark``):
where the text of a source field goes in the target is found once per layout with a marker, and
later streams of that layout take it from a cache when the target body holds the field's text at its
end there; the hot path's builder of a kind of fragment event is taken from the last one of its kind
when the event has its shape (``_builder``). Translating a stream with the caches empty and again
with them filled must give exactly the same events (or the same error), for every golden and
recorded stream."""

from __future__ import annotations

import json
import warnings

import pytest

import toolwire
from toolwire import stream
from toolwire_runtime import translate

from test_stream_digest import RECORDED_TARGETS
from test_stream_golden import FILES
from test_stream_translate import STREAM_FILES


def _translate(events: list, source: str, target: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return json.dumps(list(stream.convert(events, source=source, target=target)), ensure_ascii=False)
        except Exception as exc:  # noqa: BLE001 (an error is an outcome too: the same one must come)
            return f"{type(exc).__name__}: {exc}"


def _cold_and_warm(events: list, source: str, target: str) -> tuple[str, str]:
    translate._MARKS.clear()
    translate._LIKELY.clear()
    cold = _translate(events, source, target)
    return cold, _translate(events, source, target)


@pytest.mark.parametrize("target", RECORDED_TARGETS)
def test_recorded_streams_translate_the_same_with_known_routes(target: str) -> None:
    if not STREAM_FILES:
        pytest.skip("../shared/streams is absent")
    changed = []
    for path in STREAM_FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        cold, warm = _cold_and_warm(doc["events"], doc["provider"], target)
        if cold != warm:
            changed.append(path.stem)
    assert not changed, f"{len(changed)} translations into {target} differ with a known route: {changed[:10]}"


@pytest.mark.parametrize("source", sorted(FILES))
def test_golden_streams_translate_the_same_with_known_routes(source: str) -> None:
    for scenario, case in FILES[source]["scenarios"].items():
        for target in RECORDED_TARGETS:
            cold, warm = _cold_and_warm(case["events"], source, target)
            assert cold == warm, (scenario, target)


def count_slow_steps(monkeypatch) -> list:
    """The list each slow step of a translation appends its event to (``Encoder._step``: what the
    hot path did not take)."""
    steps: list = []
    slow = translate.Encoder._step

    def counted(self, src, event):
        steps.append(event)
        return slow(self, src, event)

    monkeypatch.setattr(translate.Encoder, "_step", counted)
    return steps


def _translated_and_converted(events: list, source: str, target: str) -> tuple:
    """(the translated stream, it accumulated, the accumulated source converted to the target and
    read back): the two sides of the commutative square."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = list(stream.convert(events, source=source, target=target))
        got = stream.accumulate(out, provider=target)
        whole = toolwire.to_ir(toolwire.from_ir(stream.accumulate(events, provider=source), provider=target), provider=target, kind="response")
    return out, got, whole


def _count_conversions(monkeypatch) -> list:
    """The list each sync's conversion appends to (its ``final`` flag)."""
    conversions: list = []
    convert = translate.Encoder._convert

    def counted(self, *args, **kwargs):
        conversions.append(args[-1])
        return convert(self, *args, **kwargs)

    monkeypatch.setattr(translate.Encoder, "_convert", counted)
    return conversions


@pytest.mark.parametrize("target", ["openai_chat", "anthropic", "gemini", "ollama"])
def test_mistral_content_fragments_flow_without_a_sync_each(monkeypatch, target: str) -> None:
    """Mistral's text and thinking fragments (``append_parts``) take their routes like any other text:
    a stream of 60 fragments in three runs converts at each run's start and at the end, not at every
    chunk (before, each chunk was a change no op said, synced in full)."""
    # Mistral's CompletionChunk (mistralai DeltaMessage.content: a string or a list of typed chunks)
    head = {"id": "cmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "magistral-medium-latest"}

    def chunk(content, finish=None) -> dict:
        return {"data": {**head, "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": finish}]}}

    events = [chunk([{"type": "thinking", "thinking": [{"type": "text", "text": f"t{i} "}]}]) for i in range(20)]
    events += [chunk([{"type": "text", "text": f"w{i} "}]) for i in range(20)] + [chunk(f"s{i} ") for i in range(20)]
    events += [chunk("", "stop"), {"data": "[DONE]"}]
    conversions = _count_conversions(monkeypatch)
    _out, got, whole = _translated_and_converted(events, "mistral", target)
    assert len(conversions) <= 8, conversions
    parts = [(p.type, getattr(p, "text", None)) for p in got.message.parts]
    assert parts == [(p.type, getattr(p, "text", None)) for p in whole.message.parts]
    # (the reasoning where the target has a place for unsigned reasoning: not Anthropic's, nor OpenAI Chat's)
    assert parts[-1] == ("text", "".join(f"w{i} " for i in range(20)) + "".join(f"s{i} " for i in range(20)))


def test_a_known_route_saves_the_marked_conversion(monkeypatch) -> None:
    """The second stream of a layout converts once at its first text fragment, not twice; a stream
    whose text is not where the route says (another layout of the same kinds) is marked again."""
    # OpenAI Chat Completions chunks (openai-python ChatCompletionChunk)
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}

    events = [chunk({"role": "assistant", "content": ""}), chunk({"content": "Hel"}), chunk({"content": "lo"}), chunk({}, "stop"), {"data": "[DONE]"}]
    conversions = _count_conversions(monkeypatch)
    translate._MARKS.clear()
    first = list(stream.convert(events, source="openai_chat", target="anthropic"))
    cold = len(conversions)
    conversions.clear()
    second = list(stream.convert(events, source="openai_chat", target="anthropic"))
    assert second == first
    assert len(conversions) == cold - 1
    assert [e["data"]["delta"]["text"] for e in second if e["event"] == "content_block_delta"] == ["Hel", "lo"]
    # the route's place holds other text: the marker finds the place again
    (layout, route), = translate._MARKS.items()
    translate._MARKS[layout] = (("content", 5), route[1], route[2])
    conversions.clear()
    assert list(stream.convert(events, source="openai_chat", target="anthropic")) == first
    assert len(conversions) == cold


def _calls_chunks(n: int) -> list:
    # OpenAI Chat Completions chunks (openai-python ChatCompletionChunk): n calls, arguments in three fragments
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}

    events = [chunk({"role": "assistant", "content": None})]
    for k in range(n):
        events.append(chunk({"tool_calls": [{"index": k, "id": f"call_{k}", "type": "function", "function": {"name": "f", "arguments": ""}}]}))
        events += [chunk({"tool_calls": [{"index": k, "function": {"arguments": piece}}]}) for piece in ('{"k": ', str(k), "}")]
    return [*events, chunk({}, "tool_calls"), {"data": "[DONE]"}]


@pytest.mark.parametrize("target", ["anthropic", "openai_chat", "openai_responses"])
def test_the_next_calls_fragment_events_are_built_as_the_last_ones(monkeypatch, target: str) -> None:
    """Each call's first argument fragment event makes the hot path's builder; the next call's has
    the same shape but for its index: its values are read, the event is not walked again."""
    walks = []
    literal = translate._literal

    def counted(node, values):
        walks.append(node)
        return literal(node, values)

    monkeypatch.setattr(translate, "_literal", counted)
    events = _calls_chunks(3)
    translate._LIKELY.clear()
    first = list(stream.convert(events, source="openai_chat", target=target))
    assert len(walks) == 1
    walks.clear()
    assert list(stream.convert(events, source="openai_chat", target=target)) == first
    assert not walks
    calls = stream.accumulate(first, provider=target).message.parts
    assert [p.arguments for p in calls] == [{"k": 0}, {"k": 1}, {"k": 2}]


def test_a_fragment_event_of_another_shape_is_walked() -> None:
    fragment = translate._FRAGMENT
    template = {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": fragment}}
    hint = ("toolwire test",)
    translate._LIKELY.pop(hint, None)
    build, literal, values = translate._builder(template, hint)
    assert build("x", 0) == {**template, "delta": {"type": "input_json_delta", "partial_json": "x"}}
    assert values == ("content_block_delta", 1, "input_json_delta")
    # the same shape, another index: the known literal, this event's values
    other = {**template, "index": 2, "delta": {"type": "input_json_delta", "partial_json": fragment}}
    assert translate._builder(other, hint)[1:] == (literal, ("content_block_delta", 2, "input_json_delta"))
    # a key more, or an object where a value was: walked, built from a literal of its own
    extra = {**other, "usage": {"output_tokens": 3}}
    build, wider, _ = translate._builder(extra, hint)
    assert wider != literal and build("y", 0)["usage"] == {"output_tokens": 3}
    nested = {**other, "index": {"n": 2}}
    build, deeper, _ = translate._builder(nested, hint)
    assert deeper != literal
    assert build("z", 0)["index"] == {"n": 2} and build("z", 0)["index"] is not nested["index"]  # (a fresh object every time)


@pytest.mark.parametrize("run", ["convert", "aconvert"])
def test_an_event_after_the_hot_path_is_reported_at_its_position(monkeypatch, run: str) -> None:
    """The events the hot path takes are counted into the stream's positions only when the next
    slow step comes (``Encoder.run``; ``step`` counts each): a bad event after them is reported at
    its own position."""
    import asyncio

    import toolwire

    steps = count_slow_steps(monkeypatch)
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}
    events = [{"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}}
              for delta in [{"role": "assistant", "content": ""}, *({"content": f"w{i} "} for i in range(20)), {"content": 5}]]

    async def agen():
        for event in events:
            yield event

    with pytest.raises(toolwire.ConversionError) as caught:
        if run == "convert":
            list(stream.convert(events, source="openai_chat", target="anthropic"))
        else:
            asyncio.run(_drain(stream.aconvert(agen(), source="openai_chat", target="anthropic")))
    assert str(caught.value).startswith("events[21].choices[0].delta.content:")
    assert len(steps) < 6  # (the fragments between took the hot path)


async def _drain(events) -> list:
    return [event async for event in events]


def _interrupted_chunks() -> list:
    """OpenAI Chat Completions chunks (openai-python ChatCompletionChunk) whose text and whose two
    calls' argument fragments are each cut by events the hot path does not take: a fragment that
    comes with a value first sent there (``system_fingerprint``, then ``service_tier``), and a
    call's opening between two fragments of the call before it (parallel calls, interleaved)."""
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}

    def chunk(delta: dict, **extra) -> dict:
        return {"data": {**head, **extra, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}}

    text = [chunk({"content": f"w{i} "}) for i in range(12)]
    text[5] = chunk({"content": "w5 "}, system_fingerprint="fp_1")
    calls = []
    for k in range(2):
        calls.append(chunk({"tool_calls": [{"index": k, "id": f"call_{k}", "type": "function", "function": {"name": "f", "arguments": ""}}]}))
        pieces = [chunk({"tool_calls": [{"index": k, "function": {"arguments": p}}]}) for p in ['{"a": "', *("xyz" * 4), '"}']]
        pieces[6] = chunk({"tool_calls": [{"index": k, "function": {"arguments": "y"}}]}, service_tier="default")
        calls += pieces
    calls.insert(16, calls.pop(14))  # (call 0's last fragment comes after call 1's opening and first fragment)
    end = {"data": {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}}
    return [chunk({"role": "assistant", "content": ""}), *text, *calls, end, {"data": "[DONE]"}]


def _decoded(provider: str, events: list) -> tuple:
    """What decoding ``events`` one by one gives: the body, and the JSON fragments waiting per field."""
    acc = stream.Accumulator(provider)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for event in events:
            acc.add(event)
    return acc.state.body, [dict(fields) for _obj, fields in acc.state.buffers.values()]


@pytest.mark.parametrize("target", ["openai_chat", "anthropic", "openai_responses", "bedrock_converse", "gemini", "mistral"])
def test_the_fragments_the_hot_path_puts_aside_are_in_both_bodies_at_every_slow_step(monkeypatch, target: str) -> None:
    """The hot path puts a text field's fragments aside and the next slow step joins them onto the
    field (``Encoder._flush``), before anything reads it: at every slow step, the source's body is
    what decoding the source events so far gives, and the client's body (the mirror) what decoding
    the target events sent so far gives; and the stream is the one the decoder alone makes."""
    events = _interrupted_chunks()
    seen: list = []
    sent: list = []
    checks = []
    feed = translate.Encoder.feed

    def checking(self, src, ops):
        assert (src.state.body, [dict(f) for _o, f in src.state.buffers.values()]) == _decoded("openai_chat", seen)
        assert (self.mirror.state.body, [dict(f) for _o, f in self.mirror.state.buffers.values()]) == _decoded(target, sent)
        checks.append(len(seen))
        return feed(self, src, ops)

    monkeypatch.setattr(translate.Encoder, "feed", checking)
    src, enc = stream._encoder("openai_chat", target, False)
    hot = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for event in events:
            seen.append(event)
            before = len(checks)
            sent += enc.step(src, event)
            hot += len(checks) == before
        src.provider_body()
        sent += enc.finish(src)
    monkeypatch.undo()
    # (fragments took the hot path, slow steps came between them; a whole-call target's text only)
    assert hot >= (5 if target in _WHOLE_CALLS else 20) and len(checks) >= 10, (hot, len(checks))
    # the same events as without the hot path (every event decoded, every fragment by the encoder's loop)
    monkeypatch.setattr(translate.Encoder, "_fuse", lambda self, src, repeat, fast: (None, None))
    assert json.dumps(sent) == _translate(events, "openai_chat", target)


@pytest.mark.parametrize("run", ["convert", "aconvert"])
def test_a_long_run_of_fragments_keeps_what_is_put_aside_bounded(monkeypatch, run: str) -> None:
    """In a long answer the hot path takes every fragment, and no slow step comes to join what it put
    aside: that is done every ``_ASIDE`` events of a run, so the memory it holds stays bounded (the
    fragments, each an object, are several times the text they make). The stream is the one made
    when every event is decoded."""
    import asyncio

    monkeypatch.setattr(translate, "_ASIDE", 64)
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}
    events = [{"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}}
              for delta in [{"role": "assistant", "content": ""}, *({"content": f"w{i} "} for i in range(1000))]]
    encoders = []
    make = stream._encoder
    monkeypatch.setattr(stream, "_encoder", lambda *a: _recorded(make, encoders, *a))
    most = 0

    async def agen():
        for event in events:
            yield event

    async def drain_checked(agen_events) -> list:
        nonlocal most
        out = []
        async for event in agen_events:
            out.append(event)
            most = max(most, _aside_held(encoders[-1]))
        return out

    got = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if run == "convert":
            for event in stream.convert(events, source="openai_chat", target="anthropic"):
                got.append(event)
                most = max(most, _aside_held(encoders[-1]))
        else:
            got = asyncio.run(drain_checked(stream.aconvert(agen(), source="openai_chat", target="anthropic")))
    assert 32 <= most <= 65, most  # (it did put fragments aside, no more than a run's worth and the event that began it)
    monkeypatch.setattr(translate.Encoder, "_fuse", lambda self, src, repeat, fast: (None, None))
    assert json.dumps(got) == _translate(events, "openai_chat", "anthropic")


def _recorded(make, encoders: list, *args) -> tuple:
    src, enc = make(*args)
    encoders.append(enc)
    return src, enc


def _aside_held(enc) -> int:
    pending = enc._pending
    return 0 if pending is None else max(len(pending[2] or ()), len(pending[5] or ()))


@pytest.mark.parametrize("run", ["convert", "aconvert"])
@pytest.mark.parametrize("cut", [11, 24])
@pytest.mark.parametrize("target", ["anthropic", "openai_responses"])
def test_a_stream_that_ends_right_after_fragments_the_hot_path_took_has_them_all(monkeypatch, run: str, cut: int, target: str) -> None:
    """A stream cut in the middle of its text or of a call's arguments (no finish chunk, no
    [DONE]: an early end) ends with the fragments the hot path put aside joined onto their fields
    (``Encoder.run`` and ``finish``): the final conversion has them all (Responses' last event
    carries the whole response), and the events are the ones made when every event is decoded."""
    import asyncio

    events = _interrupted_chunks()[:cut]

    async def agen():
        for event in events:
            yield event

    def translated() -> list:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if run == "convert":
                return list(stream.convert(events, source="openai_chat", target=target))
            return asyncio.run(_drain(stream.aconvert(agen(), source="openai_chat", target=target)))

    slow = translate.Encoder._step
    stepped = []
    monkeypatch.setattr(translate.Encoder, "_step", lambda self, src, event: stepped.append(event) or slow(self, src, event))
    got = translated()
    assert not any(e is events[-1] or e is events[-2] for e in stepped)  # (the last two took the hot path)
    monkeypatch.setattr(translate.Encoder, "_fuse", lambda self, src, repeat, fast: (None, None))
    assert json.dumps(got) == json.dumps(translated())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        source = stream.Accumulator("openai_chat").extend(events)
        client = stream.Accumulator(target).extend(got)
    assert client.text == source.text and source.text.endswith("w11 " if cut == 24 else "w9 ")
    if target == "openai_responses":  # (the response the last event carries: the final conversion's)
        final = got[-1]["data"]["response"]
        message = next(item for item in final["output"] if item["type"] == "message")
        assert message["content"][0]["text"] == source.text



@pytest.mark.parametrize("target", RECORDED_TARGETS)
def test_an_event_of_whole_parts_is_synced_once(monkeypatch, target: str) -> None:
    """A Gemini chunk carries whole parts: decoding it opens and closes each (ops of one event, all
    seeing the body the whole chunk made). Its first sync sends all of it; the syncs of the other
    ops would find nothing to send, and are skipped (``Encoder.feed``): the chunk of two calls and
    its finish converts once, and the end once more."""
    import toolwire

    case = FILES["gemini"]["scenarios"]["parallel_calls"]  # (tests/fixtures/_streams/gemini.json: one chunk)
    assert len(case["events"]) == 1
    conversions = _count_conversions(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        events = list(stream.convert(case["events"], source="gemini", target=target))
        assert conversions == [False, True]  # (final: the end of the stream)
        got = stream.accumulate(events, provider=target)
        want = toolwire.to_ir(toolwire.convert(stream.accumulate(case["events"], provider="gemini", as_provider=True), source="gemini", target=target, kind="response"), provider=target, kind="response")
    assert [(p.name, p.arguments) for p in got.message.parts] == [(p.name, p.arguments) for p in want.message.parts]
    assert [(p.name, p.arguments) for p in got.message.parts] == [("get_weather", {"location": "London"}), ("get_time", {"location": "London"})]


# -- a call's opening converts that call, not the whole body (Encoder._sync_call) -------------------

def _many_calls(n: int, variant: str = "") -> list:
    """OpenAI Chat Completions chunks (openai-python ChatCompletionChunk): some text, then n calls
    whose arguments come in fragments. Variants: ``text`` (a call's opening chunk carries text
    too), ``interleaved`` (each call's last fragment comes after the next call opened), ``whole``
    (each call in one delta), ``no_ids`` (calls without ids: toolwire synthesizes them),
    ``late_type`` (a call's ``type`` comes with its first argument fragment, as some compatible
    servers send it: the call changed otherwise than by its argument text after its opening),
    ``late_header`` (the body's ``system_fingerprint`` first comes with the fourth call's opening,
    and every chunk after it carries it: a value that an OpenAI Chat target's every chunk repeats)."""
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}

    events = [chunk({"role": "assistant", "content": ""}), chunk({"content": "Checking "}), chunk({"content": "all of them."})]
    late = None
    for k in range(n):
        args = json.dumps({"city": f"City {k}", "days": k % 7})
        opening = {"index": k, "id": "" if variant == "no_ids" else f"call_{k}", "type": "function", "function": {"name": "get_weather" if k % 2 else "get_time", "arguments": args if variant == "whole" else ""}}
        if variant == "no_ids":
            del opening["id"]
        if variant == "late_type":
            del opening["type"]
        events.append(chunk({"tool_calls": [opening], **({"content": f" {k}"} if variant == "text" and k % 3 == 2 else {})}))
        if late is not None:
            events.append(late)
        if variant == "whole":
            continue
        pieces = [chunk({"tool_calls": [{"index": k, "function": {"arguments": args[i : i + 7]}}]}) for i in range(0, len(args), 7)]
        if variant == "late_type":
            pieces[0]["data"]["choices"][0]["delta"]["tool_calls"][0]["type"] = "function"
        events += pieces[:-1]
        late = pieces[-1] if variant == "interleaved" else None
        if late is None:
            events.append(pieces[-1])
    if late is not None:
        events.append(late)
    events = [*events, chunk({}, "tool_calls"), {"data": "[DONE]"}]
    if variant == "late_header":
        fourth = next(i for i, e in enumerate(events) if any(c.get("id") == "call_3" for c in e["data"]["choices"][0]["delta"].get("tool_calls", ())))
        for e in events[fourth:-1]:
            e["data"]["system_fingerprint"] = "fp_4a3c2b1d"
    return events


def _full_syncs_only(monkeypatch) -> None:
    monkeypatch.setattr(translate.Encoder, "_sync_call", lambda self, src, element, ops, closing=False: False)


_TARGETS = sorted(set(stream._DECODERS) - set(stream.NO_TRANSLATION_TO))
_WHOLE_CALLS = ("gemini", "gemini_openapi", "ollama", "vertex")  # (their streams take a call whole)


@pytest.mark.parametrize("variant", ["", "text", "interleaved", "whole", "no_ids", "late_type", "late_header"])
def test_a_call_opening_synced_alone_sends_what_a_full_sync_sends(monkeypatch, variant: str) -> None:
    """Every target gets byte for byte the stream it gets when every call opening converts the
    whole body; and the shortcut was taken where it holds (a call of its own id opened by an event
    that only opens it)."""
    events = _many_calls(9, variant)
    taken: dict = {}
    sync_call = translate.Encoder._sync_call

    def counted(self, src, element, ops, closing=False):
        done = sync_call(self, src, element, ops, closing)
        taken[self.target] = taken.get(self.target, 0) + done
        return done

    monkeypatch.setattr(translate.Encoder, "_sync_call", counted)
    alone = {t: _translate(events, "openai_chat", t) for t in _TARGETS}
    monkeypatch.undo()
    _full_syncs_only(monkeypatch)
    differ = [t for t in _TARGETS if _translate(events, "openai_chat", t) != alone[t]]
    assert not differ, differ
    if variant in ("", "whole", "no_ids"):  # (every call but the first one or two: their syncs see the text before them)
        # (no_ids: a call takes the id toolwire makes from its position among the response's parts)
        assert all(taken.get(t, 0) >= 7 for t in _TARGETS), taken
    elif variant == "text":  # (an opening chunk with text too: a full sync)
        assert all(0 < taken.get(t, 0) < 8 for t in _TARGETS if t not in _WHOLE_CALLS), taken


@pytest.mark.parametrize("source", ["anthropic", "openai_responses", "bedrock_converse"])
def test_call_openings_of_block_streams_synced_alone_send_what_full_syncs_send(monkeypatch, source: str) -> None:
    """The same for sources whose calls are blocks that end (the stream of nine calls as
    ``source`` sends it: translated into it, full syncs only): a block's opening and its end are
    each synced alone."""
    _full_syncs_only(monkeypatch)
    events = list(stream.convert(_many_calls(9), source="openai_chat", target=source))
    full = {t: _translate(events, source, t) for t in _TARGETS}
    monkeypatch.undo()
    assert {t: _translate(events, source, t) for t in _TARGETS} == full


@pytest.mark.parametrize("target", ["anthropic", "openai_chat", "openai_responses", "bedrock_converse", "gemini", "ollama"])
def test_a_call_opening_converts_only_its_calls(monkeypatch, target: str) -> None:
    """However many calls came before, a call's opening converts at most two calls (itself, and
    the one before when the client's element for it ends or it comes out now), and the number of
    conversions of the whole body does not grow with the calls: a stream of many calls is
    translated in linear time."""
    rendered: list = []
    render = translate.Encoder._render_calls

    def counted(self, src, list_keys, keep, positions):
        rendered.append(len(keep))
        return render(self, src, list_keys, keep, positions)

    monkeypatch.setattr(translate.Encoder, "_render_calls", counted)
    conversions = _count_conversions(monkeypatch)
    full = {}
    for n in (4, 40):
        rendered.clear()
        conversions.clear()
        events = list(stream.convert(_many_calls(n), source="openai_chat", target=target))
        assert len(rendered) >= n - 1 and max(rendered) <= 2
        full[n] = len(conversions)
        calls = stream.accumulate(events, provider=target).message.parts[1:]
        assert [(c.name, c.arguments) for c in calls] == [("get_weather" if k % 2 else "get_time", {"city": f"City {k}", "days": k % 7}) for k in range(n)]
    assert full[4] == full[40]


def _idless_calls(n: int, source: str) -> list:
    """A stream of ``n`` whole calls without ids, each in an event of its own, as Gemini
    (google-genai GenerateContentResponse: a functionCall part per chunk, the usage so far on each)
    and Ollama (api.ChatResponse: one tool call per done:false chunk) send them; then the end."""
    events = []
    for k in range(n):
        args = {"city": f"City {k}", "days": k % 7}
        name = "get_weather" if k % 2 else "get_time"
        if source == "gemini":
            events.append({"data": {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": args}}]}, "index": 0}],
                                    "usageMetadata": {"promptTokenCount": 11, "candidatesTokenCount": 5 * k + 5, "totalTokenCount": 5 * k + 16}, "modelVersion": "gemini-2.5-flash", "responseId": "r1"}})
        else:
            events.append({"data": {"model": "qwen3", "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": name, "arguments": args}}]}, "done": False}})
    if source == "gemini":
        events.append({"data": {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP", "index": 0}],
                                "usageMetadata": {"promptTokenCount": 11, "candidatesTokenCount": 5 * n + 6, "totalTokenCount": 5 * n + 17}, "modelVersion": "gemini-2.5-flash", "responseId": "r1"}})
    else:
        events.append({"data": {"model": "qwen3", "created_at": "2026-01-01T00:00:01Z", "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop", "prompt_eval_count": 11, "eval_count": 5 * n}})
    return events


@pytest.mark.parametrize("source", ["gemini", "ollama"])
def test_calls_without_ids_are_synced_alone_as_full_syncs_would(monkeypatch, source: str) -> None:
    """Calls without an id (Gemini's, Ollama's) take the id toolwire makes from their position among
    the response's parts (call_r<i>) when synced alone: every target gets byte for byte what full
    syncs send, and the number of conversions of the whole body does not grow with the calls (it
    did: each call converted the whole body, and 96 calls cost four times as much per call as 6)."""
    conversions = _count_conversions(monkeypatch)
    counts, alone = {}, {}
    for n in (4, 40):
        conversions.clear()
        alone[n] = {t: _translate(_idless_calls(n, source), source, t) for t in _TARGETS}
        counts[n] = len(conversions)
    assert counts[4] == counts[40], counts
    monkeypatch.undo()
    _full_syncs_only(monkeypatch)
    for n in (4, 40):
        differ = [t for t in _TARGETS if _translate(_idless_calls(n, source), source, t) != alone[n][t]]
        assert not differ, (n, differ)
    ids = [p.id for p in stream.accumulate(json.loads(alone[40]["openai_chat"]), provider="openai_chat").message.parts]
    assert ids == [f"call_r{k}" for k in range(40)]


@pytest.mark.parametrize("source", ["gemini", "ollama"])
def test_a_call_that_opens_and_ends_in_one_event_is_converted_once(monkeypatch, source: str) -> None:
    """A Gemini chunk's call (and an Ollama chunk's) opens and ends in one event: the sync of its
    opening saw the body the whole event made, so its end, with nothing sent since, finds the same
    and converts nothing again (it converted the call a second time: two conversions per call into
    every target that streams arguments). What every target gets is what full syncs send:
    test_calls_without_ids_are_synced_alone_as_full_syncs_would, on these streams."""
    renders: list = []
    render_calls = translate.Encoder._render_calls

    def counted(self, *args):
        renders.append(args[2])
        return render_calls(self, *args)

    monkeypatch.setattr(translate.Encoder, "_render_calls", counted)
    per_target = {}
    for target in _TARGETS:
        renders.clear()
        _translate(_idless_calls(40, source), source, target)
        per_target[target] = len(renders)
    assert all(n <= 40 for n in per_target.values()), per_target


@pytest.mark.parametrize("target", ["openai_chat", "anthropic"])
def test_a_source_id_of_the_form_toolwire_makes_keeps_the_calls_without_ids_in_full_syncs(monkeypatch, target: str) -> None:
    """A made id avoids the ids the response's calls have (layout.synth_id): where a source call's
    own id has that form, a call without an id takes the full sync, which knows them all."""
    events = _idless_calls(6, "ollama")
    events[2]["data"]["message"]["tool_calls"][0]["id"] = "call_r4"
    conversions = _count_conversions(monkeypatch)
    got = _translate(events, "ollama", target)
    after = len(conversions)
    monkeypatch.undo()
    _full_syncs_only(monkeypatch)
    assert _translate(events, "ollama", target) == got
    assert after >= 4  # (the calls after the one with that id: each a full sync)


# -- the bookkeeping that keeps many calls linear ----------------------------------------------------

def _routes_by_path(routes: dict) -> dict:
    """The routes' keys by the element path they go into, found by a walk over every route."""
    out: dict = {}
    for key, route in routes.items():
        if type(route) is tuple:
            out.setdefault(route[0], {})[key] = None
    return out


@pytest.mark.parametrize("target", ["anthropic", "bedrock_converse", "openai_responses", "cohere", "openai_chat"])
def test_the_routes_into_each_element_are_indexed_as_a_walk_finds_them(monkeypatch, target: str) -> None:
    """Ending an element finds the routes into it in an index (``translate._Routes.into``), not by a
    walk over every route: before every end, and at the end of the stream, the index is what a
    walk finds, and the stream is the one full syncs send."""
    checked: list = []
    close = translate.Encoder._close

    def checking(self, mirror_el, desired_el):
        assert self.routes.into == _routes_by_path(self.routes)
        pattern, path = self.open[id(mirror_el)]
        n = len(path)
        assert self.routes.go_under(path) == any(type(r) is tuple and r[0][:n] == path for r in self.routes.values())
        checked.append(path)
        return close(self, mirror_el, desired_el)

    monkeypatch.setattr(translate.Encoder, "_close", checking)
    for variant in ("", "interleaved"):
        src, enc = stream._encoder("openai_chat", target, False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            events = list(enc.run(src, _many_calls(12, variant)))
        assert enc.routes.into == _routes_by_path(enc.routes)
        assert len(checked) >= 12
        checked.clear()
        with monkeypatch.context() as m:
            _full_syncs_only(m)
            assert _translate(_many_calls(12, variant), "openai_chat", target) == json.dumps(events, ensure_ascii=False)


@pytest.mark.parametrize("target", _WHOLE_CALLS)
def test_a_whole_call_target_compares_only_the_calls_not_known_to_be_as_wanted(monkeypatch, target: str) -> None:
    """A whole-call target's call synced alone needs the client's list as the last sync wanted it;
    what an earlier sync of a call left as wanted is not compared again (``Encoder._agreed``), so
    each call costs the same however many came before. The part it skips is as wanted indeed, and
    it is a few elements at most."""
    windows: list = []
    sync_call = translate.Encoder._sync_call

    def checking(self, src, element, ops, closing=False):
        tlist = self.target_calls[0]
        want = translate.get(self.desired, tlist) or []
        have = translate.get(self.mirror.state.body, tlist) or []
        if self._agreed is not None:
            assert want[: self._agreed] == have[: self._agreed]
            windows.append(len(have) - self._agreed)
        return sync_call(self, src, element, ops, closing)

    monkeypatch.setattr(translate.Encoder, "_sync_call", checking)
    events = _translate(_many_calls(30), "openai_chat", target)
    assert len(windows) >= 25 and max(windows) <= 2, windows
    monkeypatch.undo()
    _full_syncs_only(monkeypatch)
    assert _translate(_many_calls(30), "openai_chat", target) == events


# -- a source text part's opening and end need no sync of their own (Encoder._quiet_start, _quiet_end)

def _cited_answer(blocks: int) -> list:
    """An Anthropic Messages stream of an answer in ``blocks`` short text blocks, every other one
    cited, as Claude streams an answer from search results (the Messages streaming reference:
    content_block_start of a text block with ``citations: []``, citations_delta, text_delta,
    content_block_stop; ../shared/streams/anthropic__pydantic-ai__test_anthropic_web_search_tool_stream__i0.json)."""
    def event(data: dict) -> dict:
        return {"event": data["type"], "data": data}

    message = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": None,
               "stop_sequence": None, "usage": {"input_tokens": 40, "output_tokens": 1}}
    events = [event({"type": "message_start", "message": message})]
    for k in range(blocks):
        cited = k % 2 == 1
        events.append(event({"type": "content_block_start", "index": k, "content_block": {"type": "text", "text": "", **({"citations": []} if cited else {})}}))
        if cited:
            citation = {"type": "web_search_result_location", "cited_text": f"Source {k} says so.", "url": f"https://example.com/{k}", "title": f"Page {k}", "encrypted_index": f"Eo{k}"}
            events.append(event({"type": "content_block_delta", "index": k, "delta": {"type": "citations_delta", "citation": citation}}))
        for piece in (f"Part {k} ", "goes on", ". " if cited else " "):
            events.append(event({"type": "content_block_delta", "index": k, "delta": {"type": "text_delta", "text": piece}}))
        events.append(event({"type": "content_block_stop", "index": k}))
    events.append(event({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 9 * blocks}}))
    events.append(event({"type": "message_stop"}))
    return events


def _count_full_syncs(monkeypatch) -> list:
    syncs: list = []
    sync_once = translate.Encoder._sync_once

    def counted(self, src, mark, final):
        syncs.append(mark is not None)
        return sync_once(self, src, mark, final)

    monkeypatch.setattr(translate.Encoder, "_sync_once", counted)
    return syncs


def _count_windows(monkeypatch) -> list:
    """The list each sync of a window (``Encoder._sync_text``, taken) appends to."""
    windows: list = []
    sync_text = translate.Encoder._sync_text

    def counted(self, *args):
        done = sync_text(self, *args)
        if done:
            windows.append(args[1])
        return done

    monkeypatch.setattr(translate.Encoder, "_sync_text", counted)
    return windows


@pytest.mark.parametrize("target", ["openai_chat", "anthropic", "openai_responses", "bedrock_converse", "gemini", "mistral"])
def test_a_text_block_costs_one_sync(monkeypatch, target: str) -> None:
    """A text block of the source is synced once, where its first fragment finds its route: not
    also at its opening (empty) and at its end (nothing but its text came, along the route). An
    answer of 40 blocks takes 36 syncs more than one of 4 (before: 3 per block, each converting
    the whole body: quadratic in the blocks), and the client gets the same answer. (A sync is a
    full one or one of a window: test_a_text_block_after_the_last_one_converts_a_window_not_the_body.)"""
    syncs = _count_full_syncs(monkeypatch)
    windows = _count_windows(monkeypatch)
    counts = {}
    for blocks in (4, 40):
        syncs.clear()
        windows.clear()
        _out, got, whole = _translated_and_converted(_cited_answer(blocks), "anthropic", target)
        counts[blocks] = len(syncs) + len(windows)
        assert got.message.parts == whole.message.parts or "".join(p.text for p in got.message.parts) == "".join(p.text for p in whole.message.parts)
        assert "".join(p.text for p in got.message.parts) == "".join(f"Part {k} goes on" + (". " if k % 2 else " ") for k in range(blocks))
    assert counts[40] - counts[4] == 36, counts


@pytest.mark.parametrize("target", _TARGETS)
def test_a_text_block_after_the_last_one_converts_a_window_not_the_body(monkeypatch, target: str) -> None:
    """The first fragment of a text block that opens after the block the last sync saw last
    converts those two blocks (a window) and splices the change into the body the last sync
    converted (``Encoder._sync_text``, splice.py): every target gets byte for byte the stream full
    syncs send, and, where the splice says the change, the full syncs of an answer of 40 blocks
    are those of an answer of 4 (each block converted the whole body: quadratic in the blocks).
    Cohere's text waits to know whether a call follows (its plan): it takes full syncs, as
    before. Mistral's content is a string for one plain part and a list for more: where the
    window of the last part alone is refused (splice.py: a change of kind), the last two are."""
    syncs = _count_full_syncs(monkeypatch)
    windows = _count_windows(monkeypatch)
    spliced, counts = {}, {}
    for blocks in (4, 40):
        syncs.clear()
        windows.clear()
        spliced[blocks] = _translated_as_it_goes(_cited_answer(blocks), "anthropic", target)
        counts[blocks] = (len(syncs), len(windows))
    if target != "cohere":
        assert counts[4][0] == counts[40][0] and counts[40][1] >= 38, counts
    monkeypatch.setattr(translate.Encoder, "_sync_text", lambda self, src, element, keys, owed: False)
    for blocks in (4, 40):
        assert _translated_as_it_goes(_cited_answer(blocks), "anthropic", target) == spliced[blocks]


def _translated_as_it_goes(events: list, source: str, target: str) -> str:
    """The translated events, each with the position of the source event read when it came: two
    translations that send the same events at other moments (a fragment held back to a later
    sync) differ."""
    at = [0]

    def fed():
        for i, event in enumerate(events):
            at[0] = i
            yield event

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return json.dumps([(at[0], out) for out in stream.convert(fed(), source=source, target=target)], ensure_ascii=False)
        except Exception as exc:  # noqa: BLE001 (an error is an outcome too: the same one must come)
            return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("target", _TARGETS)
def test_recorded_text_blocks_are_spliced_as_full_syncs_send_them(monkeypatch, target: str) -> None:
    """Every recorded stream whose text comes in parts (Anthropic's blocks, Responses' content
    parts, Gemini's, Bedrock's, Cohere's), into every target: byte for byte the events full syncs send, each
    after the same source event; and windows were taken (but into Cohere, whose text waits to know
    whether a call follows). Skips without ../shared."""
    from test_stream_translate import STREAM_FILES

    docs = [json.loads(path.read_text(encoding="utf-8")) for path in STREAM_FILES]
    docs = [doc for doc in docs if "list" in (stream._decoder(doc["provider"]).TEXT or {})]
    if not docs:
        pytest.skip("no recorded streams (../shared/streams)")
    windows = _count_windows(monkeypatch)
    spliced = [_translated_as_it_goes(doc["events"], doc["provider"], target) for doc in docs]
    taken = len(windows)
    monkeypatch.setattr(translate.Encoder, "_sync_text", lambda self, src, element, keys, owed: False)
    differ = [doc["source"] for doc, got in zip(docs, spliced) if _translated_as_it_goes(doc["events"], doc["provider"], target) != got]
    assert not differ, differ[:5]
    assert taken > (0 if target != "cohere" else -1), taken


def _answer_between_searches(searches: int) -> list:
    """An Anthropic answer whose text goes on after each of ``searches`` web searches (a server
    tool's call and its result, which most targets drop): text, search, text, text, search, ...
    (the shape of ../shared/streams/anthropic__ai__anthropic-web-fetch-tool.1.json, the Messages
    streaming reference's server tool events)."""
    def event(data: dict) -> dict:
        return {"event": data["type"], "data": data}

    message = {"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [], "stop_reason": None,
               "stop_sequence": None, "usage": {"input_tokens": 40, "output_tokens": 1}}
    events = [event({"type": "message_start", "message": message})]
    index = 0

    def text(piece: str) -> None:
        nonlocal index
        events.append(event({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}))
        for fragment in (piece, "goes on. "):
            events.append(event({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": fragment}}))
        events.append(event({"type": "content_block_stop", "index": index}))
        index += 1

    for k in range(searches):
        text(f"Before search {k} ")
        call_id = f"srvtoolu_{k:02d}"
        events.append(event({"type": "content_block_start", "index": index, "content_block": {"type": "server_tool_use", "id": call_id, "name": "web_search", "input": {}}}))
        events.append(event({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": f'{{"query": "topic {k}"}}'}}))
        events.append(event({"type": "content_block_stop", "index": index}))
        result = [{"type": "web_search_result", "title": f"Page {k}", "url": f"https://example.com/{k}", "encrypted_content": f"Eq{k}", "page_age": None}]
        events.append(event({"type": "content_block_start", "index": index + 1, "content_block": {"type": "web_search_tool_result", "tool_use_id": call_id, "content": result}}))
        events.append(event({"type": "content_block_stop", "index": index + 1}))
        index += 2
        text(f"After search {k} ")
        text(f"More on {k} ")
    events.append(event({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 9 * searches}}))
    events.append(event({"type": "message_stop"}))
    return events


@pytest.mark.parametrize("target", _TARGETS)
def test_text_after_a_block_the_target_drops_is_spliced_as_full_syncs_would(monkeypatch, target: str) -> None:
    """Text blocks after a search (a block most targets drop): the window of the search alone
    shows nothing the new text follows, and a target that joins consecutive text parts (Gemini)
    joins it to the text before the search, outside that window (splice.py: an empty window list
    is refused; without that, Gemini got the text after the search at
    the stream's end, not as it came), so that block takes a full sync. Every target gets byte for
    byte the stream full syncs send, each event after the same source event, and the blocks after
    it are spliced."""
    windows = _count_windows(monkeypatch)
    spliced = _translated_as_it_goes(_answer_between_searches(3), "anthropic", target)
    taken = len(windows)
    monkeypatch.setattr(translate.Encoder, "_sync_text", lambda self, src, element, keys, owed: False)
    assert _translated_as_it_goes(_answer_between_searches(3), "anthropic", target) == spliced
    # (Responses: the text after a search is a message item of its own, whose made id is its
    # number among the message items, msg_<n>: a window's are numbered on from the body's)
    if target != "cohere":
        # (every block but the first after a search, whose window of the search's two blocks shows
        # nothing where the target drops them: 5 of the 8 after the first)
        assert taken >= 5, taken


def _client_as_it_goes(events: list, source: str, target: str) -> tuple:
    """What the client has (its text, its calls with their argument text) after each source event,
    and its complete body at the end."""
    client = stream.Accumulator(target)
    states: list = []
    at = [0]

    def fed():
        for i, event in enumerate(events):
            at[0] = i
            yield event

    def state() -> tuple:
        return (client.text, [(c.get("id"), c.get("name"), c.get("arguments")) for c in client.calls])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for out in stream.convert(fed(), source=source, target=target):
                while len(states) < at[0]:  # (the source events before this one: their output is all out)
                    states.append(state())
                client.add(out)
        except toolwire.ConversionError as exc:
            return (type(exc).__name__, str(exc))
        states.append(state())
        return states, client.provider_body()


def _full_syncs_at_text_boundaries(monkeypatch) -> None:
    monkeypatch.setattr(translate.Encoder, "_quiet_start", lambda self, src, element: False)
    monkeypatch.setattr(translate.Encoder, "_quiet_end", lambda self, src, element: False)


def _streams() -> list:
    docs = [(f"{source}:{name}", source, case["events"]) for source in sorted(FILES) for name, case in FILES[source]["scenarios"].items() if "events" in case]
    docs += [(_doc["provider"] + ":" + path.stem, _doc["provider"], _doc["events"]) for path in STREAM_FILES for _doc in [json.loads(path.read_text(encoding="utf-8"))]]
    docs.append(("anthropic:cited answer", "anthropic", _cited_answer(6)))
    return docs


@pytest.mark.parametrize("target", RECORDED_TARGETS)
def test_text_blocks_without_their_own_syncs_reach_the_client_as_with_them(monkeypatch, target: str) -> None:
    """Every golden and recorded stream: after each source event the client has the same text and
    calls as when a text block's opening and end are synced in full, and the same body at the end
    (what a full sync at an empty block's opening sent was at most an empty text: OpenAI Chat's
    ``content: ""``)."""
    streams = _streams()
    quiet = {name: _client_as_it_goes(events, source, target) for name, source, events in streams}
    _full_syncs_at_text_boundaries(monkeypatch)
    differ = [name for name, source, events in streams if _client_as_it_goes(events, source, target) != quiet[name]]
    assert not differ, f"{len(differ)} streams into {target} reach the client otherwise: {differ[:8]}"


def test_a_text_part_changed_besides_its_text_is_synced_at_its_end(monkeypatch) -> None:
    """The end of a text part whose other fields changed since the last sync (here a Bedrock block
    whose delta set more than its text: a `set` logs no op) is synced: the skip holds only for a
    part that holds what that sync saw, but for its text."""
    def ev(name: str, payload: dict) -> dict:
        return {"event": name, "data": {name: payload}}

    # ConverseStream events as boto3 yields them (botocore ConverseStreamOutput)
    head = [ev("messageStart", {"role": "assistant"}), ev("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "Hello"}}),
            ev("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": " there"}})]
    tail = [ev("contentBlockStop", {"contentBlockIndex": 0}), ev("messageStop", {"stopReason": "end_turn"}),
            ev("metadata", {"usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7}, "metrics": {"latencyMs": 10}})]
    changed = ev("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": "sig"}}})
    syncs = _count_full_syncs(monkeypatch)
    counts = []
    for events in (head + tail, head + [changed] + tail):
        syncs.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            list(stream.convert(events, source="bedrock_converse", target="anthropic"))
        counts.append(len(syncs))
    assert counts[1] == counts[0] + 1, counts


# -- a joined list is replayed from where the last sync left it (Encoder._folded) -----------------

@pytest.mark.parametrize("boundaries", ["quiet", "synced"])
@pytest.mark.parametrize("target", ["gemini", "vertex", "gemini_openapi"])
def test_a_joined_list_replayed_from_the_last_sync_is_the_whole_replay(monkeypatch, target: str, boundaries: str) -> None:
    """Every golden and recorded stream into each target whose stream joins a list (`key: last`:
    Gemini's text parts), with text block boundaries synced or not: at every sync, the body
    projected from the elements the last sync's items made (settled, and the last, running) equals
    the whole body replayed as the target's events, and the folding is taken; and the elements
    replayed grow with the answer, not with its square (answers of 40 and 80 cited blocks: 157
    and 317 element replays; 859 and 3,319 without the folding).
    """
    if boundaries == "synced":
        _full_syncs_at_text_boundaries(monkeypatch)
    project = translate.Encoder._project
    replay = translate.Encoder._replay
    counts = {"projections": 0, "folded": 0}
    wrong: list = []

    def checked(self, body, fold=False):
        whole = replay(self, json.loads(json.dumps(body))) if translate._joined(self.shape, body) else body
        got = project(self, body, fold)
        counts["projections"] += 1
        counts["folded"] += bool(self._folds)
        if got != whole and len(wrong) < 3:
            wrong.append((body, got, whole))
        return got

    monkeypatch.setattr(translate.Encoder, "_project", checked)
    for _name, source, events in _streams():
        _translate(events, source, target)
    assert not wrong, wrong
    assert counts["projections"] > counts["folded"] > 0, counts

    monkeypatch.setattr(translate.Encoder, "_project", project)
    replayed = [0]

    def counted(self, body):
        replayed[0] += sum(len(items) for _path, items in translate._paths_at(body, ("candidates", "*", "content", "parts")) if type(items) is list)
        return replay(self, body)

    monkeypatch.setattr(translate.Encoder, "_replay", counted)
    _translate(_cited_answer(80), "anthropic", target)  # (the routes of the answers' layouts known: both runs warm)
    counted_for = {}
    for blocks in (40, 80):
        replayed[0] = 0
        _translate(_cited_answer(blocks), "anthropic", target)
        counted_for[blocks] = replayed[0]
    assert counted_for[80] < 2.2 * counted_for[40] and counted_for[80] < 10 * 80, counted_for


# -- a body the target's stream joins nothing of is not replayed (translate._joined) ---------------

@pytest.mark.parametrize("target", ["gemini", "vertex", "gemini_openapi", "mistral"])
def test_a_body_whose_stream_joins_nothing_is_said_as_it_is(monkeypatch, target: str) -> None:
    """Every golden and recorded stream into each target whose stream joins elements: wherever
    ``_joined`` says the stream joins nothing, replaying the body as the target's events gives
    that body (so the replay, an encoder and a decoder over the whole body at every sync, is
    skipped); and it says so for most of them (OpenAI Chat's text and calls into Gemini)."""
    project = translate.Encoder._project
    seen = {True: 0, False: 0}
    wrong: list = []

    def checked(self, body, fold=False):
        joined = translate._joined(self.shape, body)
        seen[joined] += 1
        if not joined:
            monkeypatch.setattr(translate, "_joined", lambda shape, body: True)
            try:
                replayed = project(self, json.loads(json.dumps(body)))
            finally:
                monkeypatch.setattr(translate, "_joined", joined_of)
            if replayed != body and len(wrong) < 3:
                wrong.append((body, replayed))
        return project(self, body, fold)

    joined_of = translate._joined
    monkeypatch.setattr(translate.Encoder, "_project", checked)
    for _name, source, events in _streams():
        _translate(events, source, target)
    assert not wrong, wrong
    assert seen[False] > seen[True] > 0, seen  # (both kinds of body are checked)


# -- a sync copies what may still change: a closed element is shared (Encoder._sync_once)

def _copied_per_sync(monkeypatch) -> list:
    """The list each sync appends to: how many dicts and lists it copied of the source's body."""
    copied: list = []
    bodies: list = []
    sync_once = translate.Encoder._sync_once
    copy_body = translate.copy_body

    def syncing(self, src, mark, final):
        bodies.append(src.state.body)
        try:
            return sync_once(self, src, mark, final)
        finally:
            bodies.pop()

    def counted(value, memo):
        before = len(memo)
        out = copy_body(value, memo)
        if bodies and value is bodies[-1]:
            copied.append(len(memo) - before)
        return out

    monkeypatch.setattr(translate.Encoder, "_sync_once", syncing)
    monkeypatch.setattr(translate, "copy_body", counted)
    return copied


@pytest.mark.parametrize("target", ["openai_chat", "anthropic", "gemini"])
def test_a_sync_copies_the_open_part_of_the_body_not_the_closed_blocks(monkeypatch, target: str) -> None:
    """A sync converts a copy of the source's body (so that nothing the target's events take from
    it changes as the stream goes on); a closed element changes no more, so the copy shares it. A
    sync in an answer of 40 blocks copies as much as one in an answer of 4 (before: every block
    closed so far, at every block's sync)."""
    copied = _copied_per_sync(monkeypatch)
    most = {}
    for blocks in (4, 40):
        copied.clear()
        _translate(_cited_answer(blocks), "anthropic", target)
        most[blocks] = max(copied)
    assert most[40] == most[4] <= 8, most


@pytest.mark.parametrize("target", ["anthropic", "openai_chat", "openai_responses", "gemini"])
def test_nothing_changes_a_closed_element_or_an_event_sent(monkeypatch, target: str) -> None:
    """What the shared closed elements rely on, for every golden and recorded stream: no later
    event changes an element once closed (in the source's body or the client's), and no event
    changes after it was yielded (it may share values with the body it was made from)."""
    from toolwire_runtime import streaming

    closed: list = []
    close = streaming.StreamState.close

    def kept(self, obj):
        close(self, obj)
        closed.append((obj, json.dumps(obj, sort_keys=True, default=repr)))

    monkeypatch.setattr(streaming.StreamState, "close", kept)
    changed = []
    for name, source, events in _streams():
        closed.clear()
        sent = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                for event in stream.convert(events, source=source, target=target):
                    sent.append((event, json.dumps(event, sort_keys=True, default=repr)))
            except toolwire.ConversionError:
                continue
        if any(json.dumps(obj, sort_keys=True, default=repr) != text for obj, text in closed + sent):
            changed.append(name)
    assert not changed, changed
