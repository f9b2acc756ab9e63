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
from stream_compare import comparable as _comparable, covers as _covers

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

_GEMINI_INDEX_ADDED = "the reference adds candidates[0].index = 0, which no chunk of the stream carries"

# Streams whose recorded `expected_final` is not what the provider's non-streamed API answers, and why
# (ours is checked against the summary and the SDK types all the same).
REFERENCE_DIFFERENCES = {
    "openai_chat__crewAI__TestAzureToolCallStreaming.test_azure_streaming_emits_tool_call_events__i0": (
        "the reference takes `model` from Azure's prelude chunk (model ''); the later chunks name the model"
    ),
    # Gemini / Vertex: no chunk of these streams carries candidates[].index (proto3 JSON leaves out a
    # default 0; the same service writes its non-streamed body the same way), yet the reference
    # derivation adds `index: 0` to the candidate. Ours keeps the candidate as the service sent it.
    "gemini__ai__google-stream-no-args-tool-call": _GEMINI_INDEX_ADDED,
    "gemini__ai__google-stream-tool-call-arguments": _GEMINI_INDEX_ADDED,
    "gemini__ai__google-stream-tool-call-array-arguments-missing-terminal-function-call": _GEMINI_INDEX_ADDED,
    "gemini__crewAI__ToolCallStreaming.test_gemini_streaming_multiple_tool_calls_unique_ids__i0": _GEMINI_INDEX_ADDED,
    "gemini__crewAI__stGeminiToolCallStreaming.test_gemini_streaming_emits_tool_call_events__i0": _GEMINI_INDEX_ADDED,
    "gemini__openinference__test_response_with_multiple_tool_calls-True__i0": _GEMINI_INDEX_ADDED,
    "gemini__openinference__test_streaming_content_with_tool__i0": _GEMINI_INDEX_ADDED,
    "gemini__pydantic-ai__test_google_model_iter_stream__i0": _GEMINI_INDEX_ADDED,
    "gemini__pydantic-ai__test_google_model_iter_stream__i1": _GEMINI_INDEX_ADDED,
    "vertex__ai__google-vertex-stream-tool-call-arguments-nested.1": _GEMINI_INDEX_ADDED,
}


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _accumulate(doc: dict, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early ends (AI SDK fixtures stored without [DONE]) are checked below
        return stream.accumulate(doc["events"], provider=doc["provider"], **kw)


def _text(response) -> str:
    """The answer text. Gemini's response codec keeps a thought summary (``thought: true`` part) as a
    TextPart whose provider data says ``thought`` (the IR has no reasoning part; Anthropic's thinking
    is an OpaquePart); the summary's ``text`` is the answer without reasoning, so those are left out."""
    return "".join(p.text for p in response.message.parts if p.type == "text" and not _thought(p))


def _thought(part) -> bool:
    pd = getattr(part, "provider_data", None)
    return bool(pd is not None and pd.provider in ("gemini", "vertex", "gemini_openapi") and (pd.fields or {}).get("thought") is True)


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
