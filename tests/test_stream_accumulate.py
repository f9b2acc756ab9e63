"""Every real recorded stream in ../shared/streams accumulates to the response it recorded.

For each stream whose provider has a stream grammar (spec `stream: {events: ...}`):
- the IR response has the recording's text and tool calls (``expected_summary``, provider-neutral);
- it equals ``to_ir`` of the recording's complete response (``expected_final``), apart from the
  differences listed in REFERENCE_DIFFERENCES (each with the reason the reference is not what the
  non-streamed API answers);
- the provider body (``as_provider=True``) is a valid response body for the provider's SDK types.
Skips cleanly without ../shared.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import stream
from sdk_validation import validate

STREAMS = Path(__file__).resolve().parents[2] / "shared" / "streams"


def _corpus() -> list:
    if not STREAMS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/streams is absent"))]
    out = []
    for path in sorted(STREAMS.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "events" not in doc:
            continue  # a non-stream reference (README)
        provider = doc["provider"]
        if provider not in stream._DECODERS:
            out.append(pytest.param(path, marks=pytest.mark.skip(reason=f"no stream grammar for {provider} yet"), id=path.stem))
        else:
            out.append(pytest.param(path, id=path.stem))
    return out


CORPUS = _corpus()

# Streams whose recorded `expected_final` is not what the provider's non-streamed API answers, and why
# (ours is checked against the summary and the SDK types all the same).
REFERENCE_DIFFERENCES = {
    "openai_chat__crewAI__TestAzureToolCallStreaming.test_azure_streaming_emits_tool_call_events__i0": (
        "the reference takes `model` from Azure's prelude chunk (model ''); the later chunks name the model"
    ),
}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _accumulate(doc: dict, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early ends (AI SDK fixtures stored without [DONE]) are checked below
        return stream.accumulate(doc["events"], provider=doc["provider"], **kw)


def _text(response) -> str:
    return "".join(p.text for p in response.message.parts if p.type == "text")


@pytest.mark.parametrize("path", CORPUS)
def test_stream_accumulates_to_the_recorded_calls_and_text(path: Path) -> None:
    doc = _load(path)
    summary = doc.get("expected_summary") or {}
    response = _accumulate(doc)
    calls = [p for p in response.message.parts if p.type == "tool_call"]
    want = [c for c in summary.get("tool_calls") or [] if c.get("kind", "function") == "function"]
    assert [c.name for c in calls] == [c["name"] for c in want]
    # Custom (free-form input) tool calls of OpenAI Responses have no IR form (ToolCall.arguments is
    # an object; custom tools are opaque in the Responses spec too): they stay verbatim as opaque
    # items carrying the call id, name and input.
    custom = [c for c in summary.get("tool_calls") or [] if c.get("kind") == "custom"]
    opaque = [p.data for p in response.message.parts if p.type == "opaque" and p.data.get("type") == "custom_tool_call"]
    assert [(o.get("call_id"), o.get("name"), o.get("input")) for o in opaque] == [(c["id"], c["name"], c["arguments"]) for c in custom]
    for call, expected in zip(calls, want):
        if expected.get("id") is not None:
            assert call.id == expected["id"]
        args = expected["arguments"]
        if isinstance(args, dict) and set(args) == {"__invalid_json__"}:  # cut inside the call: kept raw
            assert call.arguments == {} and call.raw_arguments == args["__invalid_json__"]
        else:
            assert call.arguments == args
    if summary.get("text") is not None:
        # Cohere v2's tool_plan (the summary keeps it apart) is the text the assistant writes before
        # its calls: the IR has no plan channel, the cohere spec reads it as text (plan_text)
        assert _text(response) == (summary.get("tool_plan") or "") + summary["text"]
    if calls and response.finish_reason != "length":
        assert response.finish_reason == "tool_calls"


def _comparable(response) -> dict:
    """The IR as a dict without key-order hints (a spelling of the body, not its content)."""

    def walk(node):
        if isinstance(node, dict):
            return {k: walk({a: b for a, b in v.items() if a != "$order"} or None if k == "hints" and isinstance(v, dict) else v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(dataclasses.asdict(response))


def _covers(ours, ref, path="") -> list[str]:
    """Where ``ours`` differs from the reference; provider_data fields the reference has must be in
    ours with the same value (ours may hold more: the reference accumulations drop fields)."""
    if isinstance(ref, dict) and isinstance(ours, dict):
        if {"provider", "fields"} <= set(ref) and (ref.get("fields") or ours.get("fields")):
            rf, of = ref.get("fields") or {}, ours.get("fields") or {}
            diffs = [f"{path}.fields.{k}: {v!r} != {of.get(k)!r}" for k, v in rf.items() if of.get(k) != v]
            ref, ours = {**ref, "fields": None}, {**ours, "fields": None}
            return diffs + _covers(ours, ref, path)
        return [d for k in set(ref) | set(ours) for d in _covers(ours.get(k), ref.get(k), f"{path}.{k}")]
    if isinstance(ref, list) and isinstance(ours, list) and len(ref) == len(ours):
        return [d for i, (a, b) in enumerate(zip(ours, ref)) for d in _covers(a, b, f"{path}[{i}]")]
    return [] if ours == ref else [f"{path}: reference {ref!r:.120} != ours {ours!r:.120}"]


@pytest.mark.parametrize("path", CORPUS)
def test_stream_accumulates_to_the_recorded_response(path: Path) -> None:
    doc = _load(path)
    final = doc.get("expected_final")
    if final is None:
        pytest.skip("the recording has no complete response")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = toolwire.to_ir(final, provider=doc["provider"], kind="response")
    diffs = _covers(_comparable(_accumulate(doc)), _comparable(reference))
    if path.stem in REFERENCE_DIFFERENCES:
        assert diffs, f"no longer differs from the reference: drop it from REFERENCE_DIFFERENCES ({REFERENCE_DIFFERENCES[path.stem]})"
        return
    arguments_cut = any(isinstance(c.get("arguments"), dict) and "__invalid_json__" in c["arguments"] for c in (doc.get("expected_summary") or {}).get("tool_calls") or [])
    if arguments_cut:  # the reference spells cut arguments as {"__invalid_json__": raw}; ours keeps them raw (checked above)
        diffs = [d for d in diffs if ".arguments" not in d and ".raw_arguments" not in d]
    assert not diffs, "\n".join(diffs)


def _keys(node, out: set) -> set:
    if isinstance(node, dict):
        out.update(node)
        for value in node.values():
            _keys(value, out)
    elif isinstance(node, list):
        for value in node:
            _keys(value, out)
    return out


@pytest.mark.parametrize("path", CORPUS)
def test_accumulated_body_is_a_valid_response_for_the_sdk(path: Path) -> None:
    """The provider body is valid for the SDK's response types, except where the recording itself
    is not: a key the provider streamed that the SDK does not declare (a newer field, a dialect's
    ``reasoning_content``), or what the recorded complete response fails the same way."""
    doc = _load(path)
    body = _accumulate(doc, as_provider=True)
    errors = set(validate(doc["provider"], "response", body))
    if doc.get("expected_final") is not None:
        errors -= set(validate(doc["provider"], "response", doc["expected_final"]))
    streamed = _keys([e.get("data", e) for e in doc["events"]], set())
    errors = {e for e in errors if not (" key not declared by " in e and e.split(":")[0].rsplit(".", 1)[-1] in streamed)}
    assert not errors, sorted(errors)
