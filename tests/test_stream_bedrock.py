"""Bedrock ConverseStream accumulation: the rules of the grammar in spec/providers/bedrock_converse.yaml.

Hand-written event lists in the documented grammar (botocore bedrock-runtime ConverseStreamOutput;
../shared/streams/GRAMMARS.md §5), each exercising one rule; the provider body is checked whole and
the IR response where the rule shows there.
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import stream
from toolwire_runtime.errors import ProviderStreamError
from toolwire_runtime.streaming import InvalidEventError, StreamEndedEarlyWarning
from sdk_validation import validate

P = "bedrock_converse"


def ev(name: str, **payload) -> dict:
    """One event as the framing parses it ({"event", "data": {name: payload}})."""
    return {"event": name, "data": {name: payload}}


START = ev("messageStart", role="assistant")
STOP_TOOL = ev("messageStop", stopReason="tool_use")
METADATA = ev("metadata", usage={"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}, metrics={"latencyMs": 42})


def tool_start(i: int, tool_id: str, name: str, **extra) -> dict:
    return ev("contentBlockStart", contentBlockIndex=i, start={"toolUse": {"toolUseId": tool_id, "name": name, **extra}})


def tool_delta(i: int, text: str) -> dict:
    return ev("contentBlockDelta", contentBlockIndex=i, delta={"toolUse": {"input": text}})


def text_delta(i: int, text: str) -> dict:
    return ev("contentBlockDelta", contentBlockIndex=i, delta={"text": text})


def stop(i: int) -> dict:
    return ev("contentBlockStop", contentBlockIndex=i)


def body_of(events, **kw) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every stream below is complete: no report expected
        body = stream.accumulate(events, provider=P, as_provider=True, **kw)
    assert validate(P, "response", body) == []
    return body


def response_of(events):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return stream.accumulate(events, provider=P)


def test_text_blocks_have_no_start_and_tool_input_is_a_json_string_parsed_at_stop() -> None:
    events = [
        START,
        text_delta(0, "Let me "), text_delta(0, "check."), stop(0),
        tool_start(1, "tooluse_a", "get_weather"),
        tool_delta(1, '{"city": "Par'), tool_delta(1, 'is", "unit": "\\u00b0C"}'), stop(1),
        STOP_TOOL, METADATA,
    ]
    assert body_of(events) == {
        "output": {"message": {"role": "assistant", "content": [
            {"text": "Let me check."},
            {"toolUse": {"toolUseId": "tooluse_a", "name": "get_weather", "input": {"city": "Paris", "unit": "°C"}}},
        ]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 42},
    }
    response = response_of(events)
    assert response.finish_reason == "tool_calls"
    [text, call] = response.message.parts
    assert text.text == "Let me check."
    assert (call.id, call.name, call.arguments) == ("tooluse_a", "get_weather", {"city": "Paris", "unit": "°C"})
    assert (response.usage.input_tokens, response.usage.output_tokens) == (10, 5)


def test_the_live_view_shows_text_and_argument_text_so_far() -> None:
    acc = stream.Accumulator(P)
    for event in [START, text_delta(0, "Hi"), stop(0), tool_start(1, "tooluse_a", "f"), tool_delta(1, '{"a": ')]:
        acc.add(event)
    assert acc.text == "Hi"
    assert acc.calls == [{"id": "tooluse_a", "name": "f", "arguments": '{"a": '}]
    assert not acc.done


@pytest.mark.parametrize("deltas", [[], [""], ["", "  "]], ids=["no-delta", "empty-input", "blank-fragments"])
def test_a_call_without_argument_text_has_input_empty_object(deltas) -> None:
    events = [START, tool_start(0, "tooluse_n", "now"), *[tool_delta(0, d) for d in deltas], stop(0), STOP_TOOL, METADATA]
    assert body_of(events)["output"]["message"]["content"] == [{"toolUse": {"toolUseId": "tooluse_n", "name": "now", "input": {}}}]
    [call] = response_of(events).message.parts
    assert call.arguments == {}


def test_parallel_calls_are_kept_apart_by_content_block_index() -> None:
    events = [
        START,
        tool_start(0, "tooluse_1", "a"), tool_delta(0, '{"x": 1}'), stop(0),
        tool_start(1, "tooluse_2", "b"), tool_delta(1, '{"y"'), tool_delta(1, ": 2}"), stop(1),
        STOP_TOOL, METADATA,
    ]
    calls = response_of(events).message.parts
    assert [(c.id, c.name, c.arguments) for c in calls] == [("tooluse_1", "a", {"x": 1}), ("tooluse_2", "b", {"y": 2})]


def test_reasoning_text_and_signature_become_a_reasoning_content_block() -> None:
    events = [
        START,
        ev("contentBlockDelta", contentBlockIndex=0, delta={"reasoningContent": {"text": "Think"}}),
        ev("contentBlockDelta", contentBlockIndex=0, delta={"reasoningContent": {"text": "ing."}}),
        ev("contentBlockDelta", contentBlockIndex=0, delta={"reasoningContent": {"signature": "sig=="}}),
        stop(0),
        text_delta(1, "Done."), stop(1),
        ev("messageStop", stopReason="end_turn", additionalModelResponseFields={"delta": {"stop_sequence": None}}),
        METADATA,
    ]
    body = body_of(events)
    assert body["output"]["message"]["content"] == [
        {"reasoningContent": {"reasoningText": {"text": "Thinking.", "signature": "sig=="}}},
        {"text": "Done."},
    ]
    assert body["additionalModelResponseFields"] == {"delta": {"stop_sequence": None}}
    response = response_of(events)
    assert response.finish_reason == "stop"
    assert [p.type for p in response.message.parts] == ["reasoning", "text"]
    reasoning = response.message.parts[0]
    assert (reasoning.text, reasoning.signature, reasoning.verifier) == ("Thinking.", "sig==", "anthropic")


def test_redacted_reasoning_is_kept() -> None:
    events = [START, ev("contentBlockDelta", contentBlockIndex=0, delta={"reasoningContent": {"redactedContent": "cmVkYWN0ZWQ="}}),
              stop(0), ev("messageStop", stopReason="end_turn"), METADATA]
    assert body_of(events)["output"]["message"]["content"] == [{"reasoningContent": {"redactedContent": "cmVkYWN0ZWQ="}}]


@pytest.mark.parametrize("order", ["metadata-after-stop", "metadata-before-stop"])
def test_metadata_may_come_before_or_after_message_stop(order) -> None:
    tail = [STOP_TOOL, METADATA] if order == "metadata-after-stop" else [METADATA, STOP_TOOL]
    events = [START, tool_start(0, "tooluse_a", "f"), tool_delta(0, "{}"), stop(0), *tail]
    acc = stream.Accumulator(P)
    for event in events[:-1]:
        acc.add(event)
    assert not acc.done  # one of the two ending events is still to come
    acc.add(events[-1])
    assert acc.done
    body = body_of(events)
    assert body["stopReason"] == "tool_use" and body["usage"]["totalTokens"] == 15


def test_an_event_after_both_ending_events_is_an_error() -> None:
    with pytest.raises(InvalidEventError):
        stream.accumulate([START, text_delta(0, "a"), stop(0), STOP_TOOL, METADATA, text_delta(0, "b")], provider=P)


def test_the_p_padding_field_never_reaches_the_body() -> None:
    pad = {"p": "abcdefghijklmnopqrstuvwxyz"}
    events = [
        {"messageStart": {"role": "assistant", **pad}},  # boto3's shape (the payload is the single key's value)
        {"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "tooluse_p", "name": "f"}}, **pad}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": '{"k": "v"}'}}, **pad}},
        {"contentBlockStop": {"contentBlockIndex": 0, **pad}},
        {"messageStop": {"stopReason": "tool_use", **pad}},
        {"metadata": {"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}, "metrics": {"latencyMs": 1}, **pad}},
    ]
    body = body_of(events)
    assert "abcdefghijklmnopqrstuvwxyz" not in repr(body)
    assert body["output"]["message"]["content"] == [{"toolUse": {"toolUseId": "tooluse_p", "name": "f", "input": {"k": "v"}}}]


def test_client_call_type_tool_use_is_dropped_and_server_tool_use_kept_with_its_result() -> None:
    """ToolUseType has one value, server_tool_use (a call Bedrock runs, Nova's code interpreter);
    streams also say type tool_use for client calls, which the complete ToolUseBlock cannot hold."""
    events = [
        START,
        tool_start(0, "tooluse_s", "nova_code_interpreter", type="server_tool_use"), tool_delta(0, '{"snippet": "1+1"}'), stop(0),
        ev("contentBlockStart", contentBlockIndex=1, start={"toolResult": {"toolUseId": "tooluse_s", "type": "nova_code_interpreter_result", "status": "success"}}),
        ev("contentBlockDelta", contentBlockIndex=1, delta={"toolResult": [{"json": {"stdOut": "2"}}]}), stop(1),
        tool_start(2, "tooluse_c", "final_result", type="tool_use"), tool_delta(2, '{"r": 2}'), stop(2),
        STOP_TOOL, METADATA,
    ]
    content = body_of(events)["output"]["message"]["content"]
    assert content == [
        {"toolUse": {"toolUseId": "tooluse_s", "name": "nova_code_interpreter", "input": {"snippet": "1+1"}, "type": "server_tool_use"}},
        {"toolResult": {"toolUseId": "tooluse_s", "type": "nova_code_interpreter_result", "status": "success", "content": [{"json": {"stdOut": "2"}}]}},
        {"toolUse": {"toolUseId": "tooluse_c", "name": "final_result", "input": {"r": 2}}},
    ]
    parts = response_of(events).message.parts
    assert [p.type for p in parts] == ["opaque", "opaque", "tool_call"]  # only the client call is a call
    assert parts[2].name == "final_result"


@pytest.mark.parametrize("name", ["throttlingException", "modelStreamErrorException", "validationException", "internalServerException", "serviceUnavailableException"])
def test_exception_events_raise_with_the_provider_message(name) -> None:
    with pytest.raises(ProviderStreamError) as info:
        stream.accumulate([START, text_delta(0, "a"), ev(name, message="Too many requests")], provider=P)
    assert info.value.error_type == name
    assert info.value.provider_message == "Too many requests"
    assert info.value.index == 2


def test_a_stream_cut_before_message_stop_is_reported_and_keeps_what_arrived() -> None:
    events = [START, text_delta(0, "partial"), tool_start(1, "tooluse_t", "f"), tool_delta(1, '{"a": "b')]
    with pytest.warns(StreamEndedEarlyWarning):
        body = stream.accumulate(events, provider=P, as_provider=True)
    assert body["output"]["message"]["content"][0] == {"text": "partial"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        response = stream.accumulate(events, provider=P)
    [text, call] = response.message.parts
    assert call.arguments == {} and call.raw_arguments == '{"a": "b'
    with pytest.raises(InvalidEventError):
        stream.accumulate(events, provider=P, strict=True)


def test_binary_event_stream_round_trip() -> None:
    """The same events written as application/vnd.amazon.eventstream frames and read back."""
    events = [START, text_delta(0, "Hi"), stop(0), tool_start(1, "tooluse_b", "f"), tool_delta(1, '{"n": 1}'), stop(1), STOP_TOOL, METADATA]
    raw = b"".join(stream.write(events, provider=P))
    parsed = list(stream.parse(raw, provider=P))
    assert stream.accumulate(parsed, provider=P, as_provider=True) == body_of(events)


def test_the_accumulated_body_converts_like_the_same_body_unstreamed() -> None:
    events = [START, text_delta(0, "Hello"), stop(0), tool_start(1, "tooluse_a", "f"), tool_delta(1, '{"q": 1}'), stop(1), STOP_TOOL, METADATA]
    body = body_of(events)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert response_of(events) == toolwire.to_ir(body, provider=P, kind="response")
