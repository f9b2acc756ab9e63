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
        if "events" not in doc or doc.get("kind") == "non_stream_reference":
            continue  # a non-stream reference (README; tests/test_stream_ollama.py uses them)
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
# Bedrock: the AI SDK's JSON-line fixtures (hand-written, or recorded without the binary framing) carry
# no `metrics` in their metadata event (and five no metadata event at all); their references say
# "metrics": null (and "usage": null), which no ConverseResponse has: both are required members
# (botocore bedrock-runtime ConverseResponse). Ours keeps the codec's fallbacks (see the spec's `body:`).
_BEDROCK_NO_METRICS = "the reference has metrics null{} (required members of ConverseResponse, botocore service model); the fixture's stream has no metrics{}"
REFERENCE_DIFFERENCES.update({
    f"bedrock_converse__ai__amazon-bedrock-{name}": _BEDROCK_NO_METRICS.format(*extra)
    for name, extra in {
        "json-only-text-first.1": ("", ""),
        "json-other-tool.1": ("", ""),
        "json-tool-text-then-weather-then-json.1": ("", ""),
        **{n: (" and usage null", " and no metadata event: usage is the codec's zero fallback") for n in (
            "json-tool.1", "json-tool.2", "json-tool.3", "json-with-tool.1", "json-with-tools.1")},
    }.items()
})
REFERENCE_DIFFERENCES.update({
    "bedrock_converse__pydantic-ai__test_bedrock_model_code_execution_tool_stream__i0": (
        "the stream starts nova_code_interpreter as toolUse type server_tool_use and streams its toolResult "
        "block (ContentBlockStart.toolResult); the reference drops both the type and the toolResult block, "
        "which ConverseResponse has (ToolUseBlock.type, ContentBlock.toolResult): ours keeps the server call "
        "and its result in place, as the non-streamed codec reads them"
    ),
})
# Groq: the reference accumulation renames the streamed delta.reasoning to message.reasoning_content;
# Groq's complete response has it as message.reasoning (groq-python ChatCompletionMessage.reasoning,
# reasoning_format parsed), which is what ours has. Two streams carry usage only under x_groq.usage
# (ChatCompletionChunk.x_groq), which the reference drops; ours has it as the response's usage.
_GROQ_REASONING = "the reference has message.reasoning_content; Groq's complete response has message.reasoning (groq-python ChatCompletionMessage)"
REFERENCE_DIFFERENCES.update({
    f"groq__{name}": _GROQ_REASONING + extra
    for name, extra in {
        "ai__groq-reasoning": "",
        "pydantic-ai__test_groq_model_thinking_part_iter__i1": "; and the reference drops the usage streamed under x_groq.usage",
        "pydantic-ai__test_groq_model_web_search_tool_stream__i0": "; and the reference drops the usage streamed under x_groq.usage",
        "pydantic-ai__test_tool_use_failed_error_streaming__i1": "",
        "pydantic-ai__test_tool_use_failed_error_streaming__i2": "",
        "pydantic-ai__test_tool_use_failed_error_streaming_with_text__i1": "",
    }.items()
})
# Mistral thinking models: the reference turns the streamed thinking chunks into a reasoning_content
# string; Mistral's complete AssistantMessage has content as the list of chunks (ThinkChunk, TextChunk),
# which is what ours has (docs.mistral.ai/inference/conversations/reasoning; mistralai AssistantMessage).
for _name in ("mistral__ai__mistral-reasoning", "mistral__pydantic-ai__test_mistral_model_thinking_part_iter__i0"):
    REFERENCE_DIFFERENCES[_name] = (
        "the reference has message.reasoning_content; Mistral's complete response has content as a list of "
        "chunks [{type: thinking, thinking: [{type: text, text}]}, {type: text, text}]"
    )

# Streams that end in a provider error event: accumulating them raises ProviderStreamError with this type
# (the recorded expected_final / summary hold what came before the error).
STREAM_ERRORS = {
    "groq__pydantic-ai__test_tool_use_failed_error_streaming__i0": "invalid_request_error",
    "groq__pydantic-ai__test_tool_use_failed_error_streaming_with_text__i0": "invalid_request_error",
}


def _raises_provider_error(path: Path, doc: dict) -> bool:
    """For a stream in STREAM_ERRORS: check that it raises the provider's error, and say so."""
    want = STREAM_ERRORS.get(path.stem)
    if want is None:
        return False
    with pytest.raises(toolwire.ProviderStreamError) as info:
        _accumulate(doc)
    assert info.value.error_type == want and info.value.index == len(doc["events"]) - 1
    return True


# Calls the recording's summary counts as client calls though the stream marks them as run by the
# provider (the reason is in REFERENCE_DIFFERENCES); they are not IR tool calls.
SERVER_CALLS = {
    "bedrock_converse__pydantic-ai__test_bedrock_model_code_execution_tool_stream__i0": {"nova_code_interpreter"},
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
    if _raises_provider_error(path, doc):
        return
    summary = doc.get("expected_summary") or {}
    response = _accumulate(doc)
    calls = [p for p in response.message.parts if p.type == "tool_call"]
    server = SERVER_CALLS.get(path.stem, set())
    want = [c for c in summary.get("tool_calls") or [] if c.get("kind", "function") != "server" and c["name"] not in server]
    assert [c.name for c in calls] == [c["name"] for c in want]
    for call, expected in zip(calls, want):
        if expected.get("id") is not None:
            assert call.id == expected["id"]
        args = expected["arguments"]
        if isinstance(args, dict) and set(args) == {"__invalid_json__"}:  # cut inside the call: kept raw
            assert call.arguments == {} and call.raw_arguments == args["__invalid_json__"]
        else:
            assert call.arguments == args
    if summary.get("text") is not None:
        assert _text(response) == summary["text"]
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
    if _raises_provider_error(path, doc):
        return
    final = doc.get("expected_final")
    if final is None:
        pytest.skip("the recording has no complete response")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reference = toolwire.to_ir(final, provider=doc["provider"], kind="response")
        except toolwire.ConversionError as exc:
            if path.stem not in REFERENCE_DIFFERENCES:
                raise
            reference = exc  # a reference no response of the provider can be (REFERENCE_DIFFERENCES says why)
    ours = _comparable(_accumulate(doc))
    diffs = [f"the reference does not convert: {reference}"] if isinstance(reference, Exception) else _covers(ours, _comparable(reference))
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
    if _raises_provider_error(path, doc):
        return
    body = _accumulate(doc, as_provider=True)
    errors = set(validate(doc["provider"], "response", body))
    if doc.get("expected_final") is not None:
        errors -= set(validate(doc["provider"], "response", doc["expected_final"]))
    streamed = _keys([e.get("data", e) for e in doc["events"]], set())
    errors = {e for e in errors if not (" key not declared by " in e and e.split(":")[0].rsplit(".", 1)[-1] in streamed)}
    assert not errors, sorted(errors)
