"""A stream event's key that its grammar does not know is reported: nothing of a stream is dropped
without a word (a LossWarning at the event's path, once for each place; strict: an error).

The grammar knows what its decoder reads, the objects a `tag` names, and what `ignore` declares to
carry nothing for the body (OpenAI's `obfuscation` padding, Bedrock's `p` padding, Responses'
snapshot before the end, a running `counter`, the `names` an event gives its element). A key that
holds nothing (null, "", [], {}) loses nothing and is not reported. Keys the providers' complete
responses carry are read, not ignored: Anthropic's context_management (beta context editing),
Groq's x_groq {id, seed} and usage_breakdown, OpenRouter's native_finish_reason.
"""

from __future__ import annotations

import copy
import json
import warnings

import pytest

import toolwire
from toolwire import stream
from toolwire_runtime import streaming
from toolwire_runtime.streaming import InvalidEventError

from test_stream_golden import FILES
from test_stream_translate import STREAM_FILES
from test_unknown_keys import _objects

PROBE = "x_unknown_probe"


def _accumulate(events, provider, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            stream.accumulate(events, provider=provider, **kw)
        except toolwire.ConversionError as exc:  # (a key kept in the body that the response's converter refuses, by name)
            return [f"refused: {exc}"]
    return [str(w.message) for w in caught if issubclass(w.category, toolwire.LossWarning)]


def _checked(provider, event, path) -> bool | None:
    """Whether the grammar says which keys the object at ``path`` of ``event`` has (its KNOWN there is
    a mapping); an object it reads whole (`start`, `merge` of the object) keeps every key in the body,
    and an event it ignores whole (`ping`) adds nothing."""
    acc = stream.Accumulator(provider)
    name, payload = streaming.event_parts(event, acc._naming)
    tree = (acc._known or {}).get(name)
    node = event
    while node is not payload:  # (the framing's keys, and boto3's {name: payload})
        if not path:
            return None  # (the envelope around the payload: another key there names another event)
        node, path = node[path[0]], path[1:]
    for k in path:
        if type(tree) is list and type(k) is int:
            tree = tree[0]
        elif type(tree) is dict and type(k) is str:
            tree = tree.get(k)
        else:
            return False
    return type(tree) is dict


CASES = [(p, s) for p, doc in FILES.items() for s in doc["scenarios"]]


@pytest.mark.parametrize("provider, scenario", CASES)
def test_a_key_the_grammar_does_not_know_is_reported_where_it_is(provider, scenario):
    events = FILES[provider]["scenarios"][scenario]["events"]
    before = _accumulate(events, provider)
    missed, counted = [], {True: 0, False: 0}
    for i, event in enumerate(events):
        if type(event) is not dict or type(event.get("data", event)) is not dict:
            continue  # ([DONE])
        for path in _objects(event):
            if path[:1] != ("data",) and "data" in event:
                continue  # (the framing's own keys)
            checked = _checked(provider, event, path)
            if checked is None:
                continue
            probe = copy.deepcopy(events)
            holder = probe[i]
            for k in path:
                holder = holder[k]
            holder[PROBE] = {"held": 1}
            reports = _accumulate(probe, provider)
            where = "events[%d]" % i + "".join(f"[{k}]" if type(k) is int else f".{k}" for k in (*path, PROBE))
            reported = len(reports) == len(before) + 1 and any(r.startswith(where + ":") for r in reports)
            refused = not checked and len(reports) == 1 and reports[0].startswith("refused:") and PROBE in reports[0]
            if reported != checked or (not checked and reports != before and not refused):
                missed.append((i, path, checked, reports[len(before):]))
            counted[checked] += 1
    assert not missed, f"{len(missed)} places where a key was not reported once, or reported where the object is kept whole: {missed[:3]}"
    assert counted[True], "every golden stream has objects whose keys the grammar checks"


def test_reported_once_for_each_place_not_for_a_null_and_strict_raises():
    head = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}
    chunk = lambda delta, **extra: {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}], **extra}}  # noqa: E731
    events = [chunk({"role": "assistant", "content": ""}), *(chunk({"content": f"w{i} "}, x_new_key={"n": i}) for i in range(5)),
              chunk({"content": "."}, x_nothing=None, x_empty=[]), {"data": "[DONE]"}]
    reports = _accumulate(events, "openai_chat")
    assert reports == ["events[1].data.x_new_key: a key the openai_chat stream grammar does not know (of a 'chunk' event): not in the response"]
    with pytest.raises(InvalidEventError, match=r"events\[1\]\.data\.x_new_key"):
        stream.accumulate(events, provider="openai_chat", strict=True)
    # and a translation reports it too (its source's reports are its own)
    with pytest.warns(toolwire.LossWarning, match="x_new_key"):
        list(stream.convert(events, source="openai_chat", target="anthropic"))


def test_the_recordings_hold_no_key_their_grammar_does_not_know():
    """Every real recording (../shared/streams) accumulates with no unknown-key report, but for
    streams of a flavour recorded under its family's name: Azure's content filter results and
    OpenRouter's native finish reason read as openai_chat (azure_openai and openrouter read them),
    and one Mistral chunk whose delta carries an index."""
    if not STREAM_FILES:
        pytest.skip("../shared/streams/ is not beside the project")
    expected = {"prompt_filter_results", "native_finish_reason", "index"}
    found = {}
    for path in STREAM_FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                stream.accumulate(doc["events"], provider=doc["provider"])
            except toolwire.ConversionError:
                continue  # (a recording of an error: its own tests)
        for w in caught:
            text = str(w.message)
            if "stream grammar does not know" in text:
                found[path.stem] = text.split(":", 1)[0].rsplit(".", 1)[-1]
    assert set(found.values()) <= expected, found
    assert found, "the recordings hold some (so this test is not vacuous)"


def test_keys_the_complete_response_carries_are_read_not_reported():
    # Anthropic beta context editing: BetaRawMessageDeltaEvent.context_management → BetaMessage
    start = {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                                                  "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 0}}}
    edits = {"applied_edits": [{"type": "clear_thinking_20251015", "cleared_thinking_turns": 1, "cleared_input_tokens": 100}]}
    events = [{"event": "message_start", "data": start},
              {"event": "content_block_start", "data": {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}},
              {"event": "content_block_delta", "data": {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}},
              {"event": "content_block_stop", "data": {"type": "content_block_stop", "index": 0}},
              {"event": "message_delta", "data": {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                                   "usage": {"output_tokens": 2}, "context_management": edits}},
              {"event": "message_stop", "data": {"type": "message_stop"}}]
    assert _accumulate(events, "anthropic") == []
    assert stream.accumulate(events, provider="anthropic", as_provider=True)["context_management"] == edits
    # OpenRouter: the upstream's own finish reason, on the choice as in the complete response
    head = {"id": "gen-1", "object": "chat.completion.chunk", "created": 1, "model": "anthropic/claude-sonnet-4.5", "provider": "Anthropic"}
    chunks = [{"data": {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}]}},
              {"data": {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "native_finish_reason": "end_turn"}]}},
              {"data": "[DONE]"}]
    assert _accumulate(chunks, "openrouter") == []
    assert stream.accumulate(chunks, provider="openrouter", as_provider=True)["choices"][0]["native_finish_reason"] == "end_turn"
    assert any("native_finish_reason" in r for r in _accumulate(chunks, "openai_chat"))
