"""OpenAI Chat stream dialects: the base grammar's rules (spec/providers/openai_chat.yaml `stream:`,
../shared/streams/GRAMMARS.md §1), Mistral's own grammar (§6), the flavours' patches (Groq) and
the Anthropic flavours' inherited grammar. Hand-written chunks, one rule each.
"""

from __future__ import annotations

import warnings

import pytest

from toolwire import stream
from sdk_validation import validate

DONE = {"data": "[DONE]"}


def chunk(delta: dict | None = None, finish: str | None = None, *, choices: list | None = None, **extra) -> dict:
    if choices is None:
        choices = [{"index": 0, "delta": delta or {}, "finish_reason": finish}]
    return {"data": {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": "m", "choices": choices, **extra}}


def acc(events, provider="openai_chat", **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # complete streams: nothing to report
        return stream.accumulate(events, provider=provider, **kw)


def message(events, provider="openai_chat") -> dict:
    body = acc(events, provider, as_provider=True)
    assert validate(provider, "response", body) == []
    return body["choices"][0]["message"]


def calls(events, provider="openai_chat") -> list:
    return [(p.id, p.name, p.arguments) for p in acc(events, provider).message.parts if p.type == "tool_call"]


def frag(index=None, id=None, name=None, arguments=None, **extra) -> dict:
    out: dict = {**extra}
    if index is not None:
        out["index"] = index
    if id is not None:
        out["id"] = id
        out["type"] = "function"
    fn = {}
    if name is not None:
        fn["name"] = name
    if arguments is not None or "null_arguments" in extra:
        fn["arguments"] = arguments
    out.pop("null_arguments", None)
    if fn:
        out["function"] = fn
    return out


# -- OpenAI Chat dialect rules (§1) ----------------------------------------------------------------

def test_fragments_keyed_by_index_with_id_and_name_only_on_the_first() -> None:
    events = [
        chunk({"role": "assistant", "content": None}),
        chunk({"tool_calls": [frag(0, "call_a", "f", "")]}),
        chunk({"tool_calls": [frag(0, arguments='{"ci')]}),
        chunk({"tool_calls": [frag(1, "call_b", "g", '{"x"')]}),
        chunk({"tool_calls": [frag(0, arguments='ty": "Paris"}')]}),  # interleaved: back to call 0
        chunk({"tool_calls": [frag(1, arguments=": 1}")]}),
        chunk({}, "tool_calls"),
        DONE,
    ]
    assert calls(events) == [("call_a", "f", {"city": "Paris"}), ("call_b", "g", {"x": 1})]


def test_missing_index_falls_back_to_the_id() -> None:
    events = [chunk({"tool_calls": [frag(id="call_a", name="f", arguments='{"a": 1}'), frag(id="call_b", name="g", arguments="{}")]}, "tool_calls"), DONE]
    assert calls(events) == [("call_a", "f", {"a": 1}), ("call_b", "g", {})]


def test_index_reused_with_a_different_id_is_a_new_call() -> None:
    """Ollama /v1 puts every parallel call at index 0 (ollama/ollama#15457)."""
    events = [
        chunk({"tool_calls": [frag(0, "call_1", "f", '{"n": 1}')]}),
        chunk({"tool_calls": [frag(0, "call_2", "f", '{"n": 2}')]}),
        chunk({}, "tool_calls"), DONE,
    ]
    assert calls(events) == [("call_1", "f", {"n": 1}), ("call_2", "f", {"n": 2})]


def test_id_and_name_repeated_on_every_fragment_change_nothing_and_empty_name_does_not_overwrite() -> None:
    """OpenRouter upstreams repeat id and name (corpus variant_a); zai-glm via Mistral sends name "" later."""
    events = [
        chunk({"tool_calls": [frag(0, "0", "llm_version", "")]}),
        chunk({"tool_calls": [frag(0, "0", "llm_version", "{}")]}),
        chunk({"tool_calls": [{"index": 0, "type": "function", "function": {"name": "", "arguments": ""}}]}),
        chunk({}, "tool_calls"), DONE,
    ]
    assert calls(events) == [("0", "llm_version", {})]


def test_arguments_null_forever_is_a_call_without_arguments() -> None:
    events = [chunk({"tool_calls": [frag(0, "call_n", "now", null_arguments=True)]}), chunk({"tool_calls": [frag(0, null_arguments=True)]}), chunk({}, "tool_calls"), DONE]
    assert calls(events) == [("call_n", "now", {})]


def test_whole_call_in_one_delta_with_finish_and_usage_on_the_same_chunk() -> None:
    events = [chunk({"tool_calls": [frag(0, "call_w", "f", '{"q": "x"}')]}, "tool_calls", usage={"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}), DONE]
    response = acc(events)
    assert calls(events) == [("call_w", "f", {"q": "x"})]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (3, 4)


def test_usage_chunk_with_empty_choices() -> None:
    events = [chunk({"content": "Hi"}), chunk({}, "stop"), chunk(choices=[], usage={"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}), DONE]
    body = acc(events, as_provider=True)
    assert body["usage"] == {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}
    assert body["choices"][0]["message"]["content"] == "Hi" and body["choices"][0]["finish_reason"] == "stop"


def test_finish_reason_stop_with_calls_is_tool_calls_in_the_ir() -> None:
    """Gemini's OpenAI layer and vLLM say stop although calls were made (GRAMMARS §10 S6)."""
    events = [chunk({"tool_calls": [frag(0, "call_s", "f", "{}")]}), chunk({}, "stop"), DONE]
    assert acc(events, as_provider=True)["choices"][0]["finish_reason"] == "stop"  # the body keeps the provider's word
    assert acc(events).finish_reason == "tool_calls"


# -- Mistral (§6) ------------------------------------------------------------------------------------
USAGE = {"usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}  # Mistral sends it with the finish

@pytest.mark.parametrize("provider", ["openai_chat", "azure_openai", "groq", "deepseek", "mistral"])
def test_the_choices_of_an_n_2_stream_keep_their_own_index(provider) -> None:
    """`n: 2` streams both choices, each chunk naming its choice by `index` (OpenAI's
    ChatCompletionChunk.choices[].index; Mistral's CompletionResponseStreamChoice.index): the second
    choice is index 1 in the accumulated body, as in the non-streamed response, although the choice
    template defaults `index` to 0 (a chunk without one) and `index` is a `first` field: the event
    that creates an element replaces its template's defaults (StreamState.first, ``fresh``)."""
    def two(first: dict, second: dict, finish: str | None = None, **extra) -> dict:
        return chunk(choices=[{"index": 0, "delta": first, "finish_reason": finish}, {"index": 1, "delta": second, "finish_reason": finish}], **extra)

    events = [
        two({"role": "assistant", "content": ""}, {"role": "assistant", "content": ""}),
        chunk({"content": "Hel"}),
        chunk(choices=[{"index": 1, "delta": {"content": "Bon"}, "finish_reason": None}]),
        chunk({"content": "lo"}),
        chunk(choices=[{"index": 1, "delta": {"content": "jour"}, "finish_reason": None}]),
        two({}, {}, "stop", usage={"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9}),  # (Mistral's usage comes with the finish)
        DONE,
    ]
    body = acc(events, provider, as_provider=True)
    assert [(c["index"], c["message"]["content"], c["finish_reason"]) for c in body["choices"]] == [(0, "Hello", "stop"), (1, "Bonjour", "stop")]
    assert validate(provider, "response", body) == []
    # the IR has one message: the second choice is reported as dropped, as for the complete response
    with pytest.warns(Warning, match="only the first of 2"):
        response = stream.accumulate(events, provider=provider)
    assert response.message.parts[0].text == "Hello"


def test_a_first_field_keeps_its_first_value_but_on_the_event_that_creates_the_element() -> None:
    from toolwire_runtime.streaming import StreamState

    st = StreamState("openai_chat")
    el = {"index": 0, "message": {"role": "assistant"}}
    st.first(el, ("message", "role"), "user")  # a later event: the first value stays
    st.first(el, ("index",), 3)
    assert el == {"index": 0, "message": {"role": "assistant"}}
    st.first(el, ("index",), 1, True)  # the event that created it: its value replaces the template's
    st.first(el, ("message", "role"), "", True)  # ("" never overwrites)
    assert el == {"index": 1, "message": {"role": "assistant"}}


def test_mistral_call_without_index_keyed_by_its_9_character_id() -> None:
    events = [
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": None, "tool_calls": [{"id": "gSIMJiOkT", "function": {"name": "weather", "arguments": '{"location": "SF"}'}},
                                               {"id": "Abc123XyZ", "function": {"name": "time", "arguments": "{}"}}]},
              "tool_calls", usage={"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}),
        DONE,
    ]
    msg = message(events, "mistral")
    assert msg["tool_calls"] == [
        {"id": "gSIMJiOkT", "type": "function", "function": {"name": "weather", "arguments": '{"location": "SF"}'}},
        {"id": "Abc123XyZ", "type": "function", "function": {"name": "time", "arguments": "{}"}},
    ]
    assert calls(events, "mistral") == [("gSIMJiOkT", "weather", {"location": "SF"}), ("Abc123XyZ", "time", {})]
    assert acc(events, "mistral").finish_reason == "tool_calls"


def test_mistral_thinking_chunks_fold_into_content_as_a_list_of_chunks() -> None:
    events = [
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": [{"type": "thinking", "thinking": [{"type": "text", "text": "Two plus"}]}]}),
        chunk({"content": [{"type": "thinking", "thinking": [{"type": "text", "text": " two."}]}]}),
        chunk({"content": [{"type": "text", "text": "2 + 2"}]}),
        chunk({"content": " = 4"}),  # later text may come as a plain string
        chunk({"content": ""}, "stop", **USAGE),
        DONE,
    ]
    assert message(events, "mistral")["content"] == [
        {"type": "thinking", "thinking": [{"type": "text", "text": "Two plus two."}]},
        {"type": "text", "text": "2 + 2 = 4"},
    ]
    parts = acc(events, "mistral").message.parts
    assert [p.type for p in parts] == ["reasoning", "text"] and parts[1].text == "2 + 2 = 4"
    assert parts[0].text == "Two plus two."


def test_mistral_plain_text_stays_a_string() -> None:
    events = [chunk({"role": "assistant", "content": ""}), chunk({"content": "Hel"}), chunk({"content": "lo"}), chunk({}, "stop", **USAGE), DONE]
    assert message(events, "mistral")["content"] == "Hello"


def test_mistral_text_then_thinking_keeps_the_text_as_the_first_chunk() -> None:
    events = [chunk({"content": "Hm. "}), chunk({"content": [{"type": "thinking", "thinking": [{"type": "text", "text": "x"}]}]}), chunk({"content": "ok"}, "stop", **USAGE), DONE]
    assert message(events, "mistral")["content"] == [
        {"type": "text", "text": "Hm. "},
        {"type": "thinking", "thinking": [{"type": "text", "text": "x"}]},
        {"type": "text", "text": "ok"},
    ]


# -- the flavours --------------------------------------------------------------------------------------

def test_groq_reasoning_executed_tools_and_x_groq_usage() -> None:
    events = [
        chunk({"role": "assistant", "reasoning": "Search"}),
        chunk({"reasoning": " first."}),
        chunk({"executed_tools": [{"index": 0, "type": "search", "arguments": '{"query": "w"}', "search_results": {"results": []}}]}),
        chunk({"executed_tools": [{"index": 0, "type": "search", "arguments": '{"query": "w"}', "output": "sunny"}]}),
        chunk({"content": "Sunny."}),
        chunk({}, "stop", x_groq={"id": "req_1", "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}}),
        DONE,
    ]
    body = acc(events, "groq", as_provider=True)
    msg = body["choices"][0]["message"]
    assert msg["reasoning"] == "Search first." and "reasoning_content" not in msg
    assert msg["executed_tools"] == [{"index": 0, "type": "search", "arguments": '{"query": "w"}', "search_results": {"results": []}, "output": "sunny"}]
    assert body["usage"] == {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    assert acc(events, "groq").usage.total_tokens == 12


def test_deepseek_reasoning_content() -> None:
    events = [chunk({"role": "assistant", "content": None, "reasoning_content": "Count"}), chunk({"content": None, "reasoning_content": " r's."}),
              chunk({"content": "3"}), chunk({"content": ""}, "stop"), DONE]
    msg = acc(events, "deepseek", as_provider=True)["choices"][0]["message"]
    assert (msg["reasoning_content"], msg["content"]) == ("Count r's.", "3")


@pytest.mark.parametrize("provider", ["xai", "openrouter", "azure_openai", "fireworks"])
def test_other_flavours_read_the_base_grammar(provider) -> None:
    events = [chunk({"tool_calls": [frag(0, "call_1", "f", '{"a"')]}), chunk({"tool_calls": [frag(0, arguments=": 1}")]}), chunk({}, "tool_calls"), DONE]
    assert calls(events, provider) == [("call_1", "f", {"a": 1})]


@pytest.mark.parametrize("provider", ["anthropic_bedrock", "anthropic_vertex"])
def test_anthropic_flavours_inherit_the_anthropic_grammar(provider) -> None:
    events = [
        {"event": "message_start", "data": {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": [], "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}},
        {"event": "content_block_start", "data": {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}},
        {"event": "content_block_delta", "data": {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Hmm."}}},
        {"event": "content_block_delta", "data": {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig"}}},
        {"event": "content_block_stop", "data": {"type": "content_block_stop", "index": 0}},
        {"event": "content_block_start", "data": {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}},
        {"event": "content_block_delta", "data": {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"k": '}}},
        {"event": "content_block_delta", "data": {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '"v"}'}}},
        {"event": "content_block_stop", "data": {"type": "content_block_stop", "index": 1}},
        {"event": "message_delta", "data": {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None}, "usage": {"output_tokens": 9}}},
        {"event": "message_stop", "data": {"type": "message_stop"}},
    ]
    body = acc(events, provider, as_provider=True)
    assert body == acc(events, "anthropic", as_provider=True)
    assert body["content"] == [{"type": "thinking", "thinking": "Hmm.", "signature": "sig"}, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"k": "v"}}]
    assert body["stop_reason"] == "tool_use" and body["usage"] == {"input_tokens": 5, "output_tokens": 9}
    assert calls(events, provider) == [("toolu_1", "f", {"k": "v"})]


def test_groq_error_event_raises_with_the_provider_message() -> None:
    """Groq ends a failed tool use with `event: error` and {"error": {message, type, code}}."""
    from toolwire_runtime.errors import ProviderStreamError

    events = [chunk({"role": "assistant", "reasoning": "Call it."}),
              {"event": "error", "data": {"error": {"message": "Tool call validation failed", "type": "invalid_request_error", "code": "tool_use_failed"}}}]
    with pytest.raises(ProviderStreamError) as info:
        stream.accumulate(events, provider="groq")
    assert (info.value.error_type, info.value.provider_message, info.value.index) == ("invalid_request_error", "Tool call validation failed", 1)


def test_azure_prelude_chunk_gives_prompt_filter_results_and_not_the_response_identity() -> None:
    """Azure's first chunk: object "", created 0, id "", model "", choices [], prompt_filter_results;
    the choices carry content_filter_results (as in the corpus' crewAI Azure recording)."""
    cf = {"hate": {"filtered": False, "severity": "safe"}, "violence": {"filtered": False, "severity": "safe"}}
    prelude = {"data": {"choices": [], "created": 0, "id": "", "model": "", "object": "",
                        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": cf}]}}
    events = [
        prelude,
        chunk(choices=[{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None, "content_filter_results": {}}]),
        chunk(choices=[{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None, "content_filter_results": cf}]),
        chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "stop", "content_filter_results": {}}]),
        DONE,
    ]
    body = acc(events, "azure_openai", as_provider=True)
    assert (body["id"], body["created"], body["model"]) == ("chatcmpl-1", 1700000000, "m")
    assert body["prompt_filter_results"] == [{"prompt_index": 0, "content_filter_results": cf}]
    assert body["choices"][0]["content_filter_results"] == cf
    assert body["choices"][0]["message"]["content"] == "Hi"
    assert validate("azure_openai", "response", body) == []


def test_the_recorded_azure_stream_accumulates_as_azure_openai() -> None:
    """../shared/streams' crewAI Azure recording (an openai_chat file in the corpus): read as
    azure_openai, the prelude's placeholders stay out and its filter results stay in."""
    import json
    from pathlib import Path

    found = sorted((Path(__file__).resolve().parents[2] / "shared" / "streams").glob("openai_chat__crewAI__*TestAzureToolCallStreaming*.json"))
    if not found:
        pytest.skip("../shared/streams is absent")
    doc = json.loads(found[0].read_text(encoding="utf-8"))
    body = acc(doc["events"], "azure_openai", as_provider=True)  # complete (ends with [DONE]): nothing reported
    assert (body["id"], body["model"]) == (doc["events"][-2]["data"]["id"], "gpt-4o-mini-2024-07-18")  # not the prelude's ""
    assert body["created"] != 0 and body["prompt_filter_results"][0]["prompt_index"] == 0
    assert validate("azure_openai", "response", body) == []
    [(_id, name, _args)] = calls(doc["events"], "azure_openai")
    assert name == doc["expected_summary"]["tool_calls"][0]["name"]
