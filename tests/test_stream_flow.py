"""A translated stream flows: what the source says goes to the client as it arrives, not at the end.

Accumulated, a translated stream equals the converted response (tests/test_stream_translate.py);
that alone holds for a translation that sends everything at the end. These check the streaming:

- every prefix of every stream converts (``Accumulator.response()`` before the end: a partial
  response). A body the provider's converter cannot read before its end (Cohere's finish_reason,
  Ollama's done, Bedrock's stopReason come last) converts with the grammar's ``unfinished`` values
  standing in, and the IR has no finish reason yet; a stream cut short accumulates the same way,
  reported as ended early;
- the text the source has said by its last text event is with the client by then, for every
  recorded and golden stream into a target of each stream mechanism (Cohere aside: it holds a
  turn's text until it knows whether a call follows, tests/test_stream_translate.py);
- a value the target's stream says once, at its start, that the source changes later (Ollama's
  created_at, last wins, into OpenAI Chat's created, first wins) keeps the client's value in
  every event and is reported at the end.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import stream
from test_stream_golden import FILES
from test_stream_translate import REFUSED, STREAM_FILES

# one target of each stream mechanism (keyed blocks, index-keyed chunks, numbered events naming their
# item, whole parts joined by `key: last`, paired end events, NDJSON whole calls, typed content parts)
TARGETS = ("anthropic", "openai_chat", "openai_responses", "gemini", "bedrock_converse", "ollama", "mistral")


def _golden() -> list:
    return [pytest.param(doc["provider"] if "provider" in doc else name, case["events"], id=f"{name}:{scenario}")
            for name, doc in FILES.items() for scenario, case in doc["scenarios"].items() if "events" in case]


def _recorded() -> list:
    out = []
    for path in STREAM_FILES:
        if path.stem in REFUSED:
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        out.append(pytest.param(doc["provider"], doc["events"], id=path.stem))
    return out or [pytest.param(None, None, marks=pytest.mark.skip(reason="../shared/streams is absent"))]


STREAMS = _golden() + _recorded()


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _ends_in_an_error(provider: str, events: list) -> bool:
    try:
        _quiet(stream.accumulate, events, provider=provider)
    except toolwire.ProviderStreamError:
        return True
    return False


@pytest.mark.parametrize("provider, events", STREAMS)
def test_every_prefix_of_a_stream_converts(provider: str, events: list) -> None:
    """After any event (twenty spread over a long stream) once content arrived, the response so far converts."""
    if _ends_in_an_error(provider, events):
        return
    acc = stream.Accumulator(provider)
    step = max(1, len(events) // 20)
    for i, event in enumerate(events[:-1]):
        acc.add(event)
        # (from the first text or call on: before any, an OpenAI body may have no choice yet, Azure's
        # content-filter chunk, and is not a response)
        if i % step == 0 and (acc.text or acc.calls):
            _quiet(acc.response)


@pytest.mark.parametrize("provider", ["cohere", "ollama", "bedrock_converse"])
def test_a_stream_cut_short_accumulates_with_no_finish_reason(provider: str) -> None:
    """The providers whose complete response requires what only the stream's end says: a stream cut
    before it accumulates (IR and provider body, the body one the provider's converter reads), with
    no finish reason, and is reported as ended early."""
    for scenario, case in FILES[provider]["scenarios"].items():
        events = case.get("events")
        if not events:
            continue
        cut = events[: max(1, len(events) // 2)]
        with pytest.warns(stream.StreamEndedEarlyWarning):
            response = stream.accumulate(cut, provider=provider)
        calls = [p for p in response.message.parts if p.type == "tool_call"]
        # (no finish reason the stream did not say; a converter may still infer one from the content: Ollama's calls)
        assert response.finish_reason in ((None, "tool_calls") if calls else (None,)) and response.usage is None, scenario
        with pytest.warns(stream.StreamEndedEarlyWarning):
            body = stream.accumulate(cut, provider=provider, as_provider=True)
        _quiet(toolwire.to_ir, body, provider=provider, kind="response")  # (a body its converter reads)
        with pytest.raises(toolwire.ConversionError):  # strict: the early end is an error
            stream.accumulate(cut, provider=provider, strict=True)


def _text_when_said(provider: str, events: list, target: str) -> tuple[str, str] | None:
    """(the client's text once the source said its last text, the client's text at the end)."""
    source = stream.Accumulator(provider)
    texts = []
    for event in events:
        source.add(event)
        texts.append(source.text)
    if not texts or not texts[-1]:
        return None
    last = max(i for i in range(len(texts)) if i == 0 or texts[i] != texts[i - 1])
    client = stream.Accumulator(target)
    consumed = [0]
    at_last = None

    def fed():
        for i, event in enumerate(events):
            consumed[0] = i
            yield event

    for out in stream.convert(fed(), source=provider, target=target):
        if consumed[0] > last and at_last is None:
            at_last = client.text
        client.add(out)
    return (client.text if at_last is None else at_last), client.text


@pytest.mark.parametrize("provider, events", STREAMS)
def test_text_reaches_the_client_as_it_arrives(provider: str, events: list) -> None:
    if _ends_in_an_error(provider, events):
        return
    for target in TARGETS:
        try:
            seen = _quiet(_text_when_said, provider, events, target)
        except toolwire.ConversionError:
            continue  # (a stream the target cannot carry: tests/test_stream_translate.py says which)
        if seen is not None:
            assert seen[0] == seen[1], (target, seen[0][-80:], seen[1][-80:])


def _ollama_chunk(content: str, at: str, done: bool = False, **extra) -> dict:
    return {"data": {"model": "qwen3", "created_at": at, "message": {"role": "assistant", "content": content}, "done": done, **extra}}


def test_a_value_said_once_keeps_the_clients_and_is_reported() -> None:
    events = [_ollama_chunk("Hel", "2026-08-07T06:08:09Z"), _ollama_chunk("lo", "2026-08-07T06:08:10Z"),
              _ollama_chunk("", "2026-08-07T06:08:12Z", True, done_reason="stop", prompt_eval_count=3, eval_count=2)]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        out = list(stream.convert(events, source="ollama", target="openai_chat"))
    chunks = [e["data"] for e in out if isinstance(e["data"], dict)]
    assert {c["created"] for c in chunks} == {1786082889}  # 2026-08-07T06:08:09Z, in every chunk
    assert [c["choices"][0]["delta"].get("content") for c in chunks[1:3]] == ["Hel", "lo"]  # (as they came)
    said = [w.message for w in record if "says it once" in str(w.message)]
    assert [(w.path, type(w).__name__) for w in said] == [("created", "LossWarning")]
    assert "1786082889" in said[0].message and "1786082892" in said[0].message
    with pytest.raises(toolwire.LossError, match="created"):
        _quiet(list, stream.convert(events, source="ollama", target="openai_chat", strict=True))
