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
        if "events" not in doc or doc.get("kind") == "non_stream_reference":
            continue  # a non-stream reference (README; tests/test_stream_ollama.py uses them)
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
# Bedrock: five of the AI SDK's JSON-line fixtures (hand-written, or recorded without the binary
# framing) have no metadata event; their references say "usage": null, which no ConverseResponse has
# (a required member, botocore bedrock-runtime ConverseResponse). Ours keeps the codec's fallbacks
# (see the spec's `body:`). (Three more lack only `metrics`: a null, which compares as absent.)
_BEDROCK_NO_METRICS = "the reference has metrics null{} (required members of ConverseResponse, botocore service model); the fixture's stream has no metrics{}"
REFERENCE_DIFFERENCES.update({
    f"bedrock_converse__ai__amazon-bedrock-{name}": _BEDROCK_NO_METRICS.format(*extra)
    for name, extra in {
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
    if _raises_provider_error(path, doc):
        return
    summary = doc.get("expected_summary") or {}
    response = _accumulate(doc)
    calls = [p for p in response.message.parts if p.type == "tool_call"]
    server = SERVER_CALLS.get(path.stem, set())
    want = [c for c in summary.get("tool_calls") or [] if c.get("kind", "function") == "function" and c["name"] not in server]
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


# Recorded bodies whose same-provider conversion changes them, each by a documented rule
# (docs/losses.md): what the rule does, which no stream can change.
SAME_PROVIDER_CHANGES = {
    # a response with calls finishes as tool_calls (toolwire_runtime/layout.py finish_response):
    # these streams end with [DONE] and no finish reason at all (their notes say so)
    "openai_chat__llm__test_tools_streaming_variant_a__i0": ".choices[0].finish_reason",
    "openai_chat__llm__test_tools_streaming_variant_b__i0": ".choices[0].finish_reason",
    # Bedrock's blank text is not sent (docs/losses.md: the API rejects it): an empty text delta
    "bedrock_converse__pydantic-ai__test_bedrock_model_stream_empty_text_delta__i0": ".output.message.content",
}


def _differences(a, b, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b) and set(a) == set(b):
            return [f"{path}: key order {list(a)} != {list(b)}"]
        return [d for k in {**a, **b} for d in (_differences(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}.{k}"))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    return [] if a == b and type(a) is type(b) else [path]


@pytest.mark.parametrize("path", CORPUS)
def test_accumulated_body_converts_back_to_itself(path: Path) -> None:
    """The accumulated body, converted to the IR and back to the same provider, is the same body, key
    order included (docs/losses.md: a same-provider round trip loses nothing), but where a documented
    rule changes it (SAME_PROVIDER_CHANGES)."""
    doc = _load(path)
    if _raises_provider_error(path, doc):
        return
    body = _accumulate(doc, as_provider=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = toolwire.convert(body, source=doc["provider"], target=doc["provider"], kind="response")
    differences = _differences(body, back)
    known = SAME_PROVIDER_CHANGES.get(path.stem)
    assert differences == ([] if known is None else [known]), differences



# Recordings whose translation into their own provider accumulates with their keys in another order
# (compared without it), and why.
_OLLAMA_ORDER = (
    "the recording's last line writes done before done_reason (its tooling's order: Ollama's ChatResponse "
    "declares done_reason first, as toolwire writes it), and toolwire's Ollama events write message before "
    "model and created_at (an event's tags come first)"
)
SAME_PROVIDER_STREAM_ORDER = {
    "ollama__openinference__test_async_chat_stream__i0": _OLLAMA_ORDER,
    "ollama__openinference__test_chat_stream__i0": _OLLAMA_ORDER,
    "ollama__openllmetry__test_ollama_async_streaming_chat_legacy__i0": _OLLAMA_ORDER,
    "ollama__openllmetry__test_ollama_streaming_chat_legacy__i0": _OLLAMA_ORDER,
}


def _sorted_keys(node):
    if isinstance(node, dict):
        return {k: _sorted_keys(node[k]) for k in sorted(node)}
    return [_sorted_keys(x) for x in node] if isinstance(node, list) else node


def _own_provider_cases() -> list:
    from test_stream_translate import KNOWN_GAPS, REFUSED

    out = []
    for case in CORPUS:
        path = case.values[0]
        if path is None:
            out.append(case)
            continue
        if path.stem in REFUSED:  # (tests/test_stream_translate.py checks that it is refused)
            out.append(pytest.param(path, id=path.stem, marks=pytest.mark.skip(reason=f"a translation refuses it: {REFUSED[path.stem]}")))
            continue
        provider = json.loads(path.read_text(encoding="utf-8"))["provider"]
        reason = KNOWN_GAPS.get((path.stem, provider))
        out.append(pytest.param(path, id=path.stem, marks=[*case.marks, *([pytest.mark.xfail(strict=True, reason=reason)] if reason else [])]))
    return out


@pytest.mark.parametrize("path", _own_provider_cases())
def test_a_stream_translated_into_its_own_provider_accumulates_to_the_source(path: Path) -> None:
    """A stream translated into its own provider (to the IR and back, as a stream) accumulates to
    what the source accumulates to, nulls and key order included (a gateway's client gets the body
    the provider sent), but where a documented rule changes it (SAME_PROVIDER_CHANGES) or the
    recording's key order is not the provider's (SAME_PROVIDER_STREAM_ORDER)."""
    doc = _load(path)
    if _raises_provider_error(path, doc):
        return
    body = _accumulate(doc, as_provider=True)
    provider = doc["provider"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        translated = list(stream.convert(doc["events"], source=provider, target=provider))
    back = stream.accumulate(translated, provider=provider, as_provider=True)
    if path.stem in SAME_PROVIDER_STREAM_ORDER:
        body, back = _sorted_keys(body), _sorted_keys(back)
    differences = _differences(body, back)
    known = SAME_PROVIDER_CHANGES.get(path.stem)
    assert differences == ([] if known is None else [known]), differences
