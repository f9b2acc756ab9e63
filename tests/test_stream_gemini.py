"""Gemini / Vertex stream grammar (spec/providers/gemini.yaml `stream:`): the rules of issue 11 and
../shared/streams/GRAMMARS.md §4 / S15, each on a small hand-written stream of
GenerateContentResponse chunks (the shapes of https://ai.google.dev/api/generate-content and
google-genai types.GenerateContentResponse / FunctionCall.partial_args / PartialArg)."""

from __future__ import annotations

import warnings

import pytest

from toolwire import stream
from toolwire.stream import InvalidEventError, StreamEndedEarlyWarning

USAGE_1 = {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11}
USAGE_2 = {"promptTokenCount": 10, "candidatesTokenCount": 7, "totalTokenCount": 30, "thoughtsTokenCount": 13}


def chunk(*parts, finish=None, usage=USAGE_1, index=None):
    cand = {"content": {"parts": list(parts), "role": "model"}}
    if index is not None:
        cand["index"] = index
    if finish:
        cand["finishReason"] = finish
    return {"data": {"candidates": [cand], "usageMetadata": usage, "modelVersion": "gemini-3-flash", "responseId": "r1"}}


def call(name=None, args=None, **kw):
    fc = dict(kw)
    if name is not None:
        fc["name"] = name
    if args is not None:
        fc["args"] = args
    return {"functionCall": fc}


def partial(*items, more=True):
    fc = {"partialArgs": list(items)}
    if more:
        fc["willContinue"] = True
    return {"functionCall": fc}


def quiet(fn, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a complete stream reports nothing
        return fn(*a, **kw)


def both(events, provider="gemini"):
    body = quiet(stream.accumulate, events, provider=provider, as_provider=True)
    response = quiet(stream.accumulate, events, provider=provider)
    return body, response


def parts(body):
    return body["candidates"][0]["content"]["parts"]


def calls(response):
    return [p for p in response.message.parts if p.type == "tool_call"]


def test_several_calls_in_one_chunk_are_separate_calls_with_synthesized_ids():
    events = [chunk(call("a", {"x": 1}), call("b", {"y": 2}), finish="STOP")]
    body, response = both(events)
    assert parts(body) == [{"functionCall": {"name": "a", "args": {"x": 1}}}, {"functionCall": {"name": "b", "args": {"y": 2}}}]
    got = calls(response)
    assert [(c.name, c.arguments) for c in got] == [("a", {"x": 1}), ("b", {"y": 2})]
    assert len({c.id for c in got}) == 2 and all(c.synthetic_id for c in got)
    # the same ids as the non-streamed conversion of the same body
    import toolwire
    again = toolwire.to_ir(body, provider="gemini", kind="response")
    assert [c.id for c in calls(again)] == [c.id for c in got]


def test_calls_across_chunks_stay_apart_and_keep_their_ids():
    events = [
        chunk(call("get_weather", {"location": "Boston"}, id="dv8szvqe"), index=0),
        chunk(call("get_weather", {"location": "New Delhi"}, id="j80tal12"), index=0),
        chunk({"text": ""}, finish="STOP", index=0),
    ]
    body, response = both(events)
    assert [p["functionCall"]["id"] for p in parts(body)] == ["dv8szvqe", "j80tal12"]
    assert len(parts(body)) == 2  # the empty text part of the finish chunk adds nothing
    assert [(c.id, c.arguments) for c in calls(response)] == [("dv8szvqe", {"location": "Boston"}), ("j80tal12", {"location": "New Delhi"})]


def test_call_without_args_is_a_complete_call_with_empty_arguments():
    events = [chunk(call("read_theme")), chunk({"text": ""}, finish="STOP")]
    body, response = both(events)
    assert parts(body) == [{"functionCall": {"name": "read_theme", "args": {}}}]
    assert [(c.name, c.arguments) for c in calls(response)] == [("read_theme", {})]


def test_streamed_string_arguments_continue_until_the_call_ends():
    events = [
        chunk(call("getWeather", willContinue=True)),
        chunk(partial({"jsonPath": "$.location", "stringValue": "Bos", "willContinue": True})),
        chunk(partial({"jsonPath": "$.location", "stringValue": "ton", "willContinue": True})),
        chunk(partial({"jsonPath": "$.location", "stringValue": ""})),
        chunk({"functionCall": {"willContinue": True}}),  # keep-alive
        chunk({"functionCall": {}}),  # the call ends
        chunk(call("getWeather", willContinue=True)),
        chunk(partial({"jsonPath": "$.location", "stringValue": "Paris"}, more=False)),
        chunk({"text": ""}, finish="STOP"),
    ]
    body, response = both(events)
    assert parts(body) == [
        {"functionCall": {"name": "getWeather", "args": {"location": "Boston"}}},
        {"functionCall": {"name": "getWeather", "args": {"location": "Paris"}}},
    ]
    assert [c.arguments for c in calls(response)] == [{"location": "Boston"}, {"location": "Paris"}]


def test_streamed_arguments_nested_paths_arrays_and_typed_values():
    events = [
        chunk(call("cook", willContinue=True)),
        chunk(partial({"jsonPath": "$.recipe.ingredients[0].name", "stringValue": "Egg"})),
        chunk(partial({"jsonPath": "$.recipe.ingredients[0].amount", "numberValue": 2})),
        chunk(partial({"jsonPath": "$.recipe.ingredients[1].name", "stringValue": "Salt"})),
        chunk(partial({"jsonPath": "$.recipe.steps[0]", "stringValue": "Mix", "willContinue": True})),
        chunk(partial({"jsonPath": "$.recipe.steps[0]", "stringValue": " well."})),
        chunk(partial({"jsonPath": "$.recipe.vegan", "boolValue": False}, {"jsonPath": "$.recipe['note text']", "nullValue": None})),
        chunk({"functionCall": {}}, finish="STOP"),
    ]
    body, response = both(events)
    want = {"recipe": {"ingredients": [{"name": "Egg", "amount": 2}, {"name": "Salt"}], "steps": ["Mix well."], "vegan": False, "note text": None}}
    assert parts(body)[0]["functionCall"]["args"] == want
    assert calls(response)[0].arguments == want


def test_live_view_shows_streamed_arguments_so_far():
    acc = stream.Accumulator("gemini")
    acc.add(chunk({"text": "Let me check."}))
    acc.add(chunk(call("getWeather", willContinue=True)))
    acc.add(chunk(partial({"jsonPath": "$.city", "stringValue": "Bo", "willContinue": True})))
    assert acc.text == "Let me check."
    assert acc.calls == [{"id": None, "name": "getWeather", "arguments": '{"city": "Bo"}'}]
    assert not acc.done
    acc.add(chunk({"functionCall": {}}, finish="STOP"))
    assert acc.done


def test_finish_stop_with_calls_is_tool_calls_and_stop_without():
    _, with_calls = both([chunk(call("f", {}), finish="STOP")])
    assert with_calls.finish_reason == "tool_calls"
    _, text_only = both([chunk({"text": "Hi"}), chunk({"text": " there"}, finish="STOP")])
    assert text_only.finish_reason == "stop"


def test_usage_is_the_last_chunks_snapshot_not_a_sum():
    events = [chunk({"text": "a"}, usage=USAGE_1), chunk({"text": "b"}, usage=USAGE_2, finish="STOP")]
    body, response = both(events)
    assert body["usageMetadata"] == USAGE_2
    assert response.usage.input_tokens == 10 and response.usage.output_tokens == 7
    assert body["modelVersion"] == "gemini-3-flash" and body["responseId"] == "r1"


def test_text_chunks_merge_by_kind_and_signatures_stay_on_their_part():
    sig_t, sig_c = "U0lHLVQ=", "U0lHLUM="
    events = [
        chunk({"text": "Think", "thought": True}),
        chunk({"text": "ing.", "thought": True}),
        chunk({"text": "Answer "}),
        chunk({"text": "text"}),
        chunk({"text": "", "thoughtSignature": sig_t}),  # a signature on a trailing empty part: the text's
        chunk({**call("f", {"a": 1}), "thoughtSignature": sig_c}),
        chunk(call("g", {"b": 2}), finish="STOP"),
    ]
    body, response = both(events)
    assert parts(body) == [
        {"text": "Thinking.", "thought": True},
        {"text": "Answer text", "thoughtSignature": sig_t},
        {"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": sig_c},
        {"functionCall": {"name": "g", "args": {"b": 2}}},
    ]
    got = calls(response)
    assert (got[0].signature, got[0].signature_verifier) == (sig_c, "gemini")
    assert got[1].signature is None
    assert response.message.parts[0].type == "reasoning" and response.message.parts[0].text == "Thinking."


def test_text_after_a_signed_part_starts_a_new_part():
    events = [chunk({"text": "One", "thoughtSignature": "QQ=="}), chunk({"text": "Two"}, finish="STOP")]
    body, _ = both(events)
    assert parts(body) == [{"text": "One", "thoughtSignature": "QQ=="}, {"text": "Two"}]


def test_stream_without_finish_reason_is_reported_as_ended_early():
    events = [chunk({"text": "Hel"}), chunk({"text": "lo"})]
    with pytest.warns(StreamEndedEarlyWarning, match="finishReason"):
        response = stream.accumulate(events, provider="gemini")
    assert "".join(p.text for p in response.message.parts if p.type == "text") == "Hello"
    with pytest.raises(InvalidEventError, match="finishReason"):
        stream.accumulate(events, provider="gemini", strict=True)


def test_chunks_after_the_finish_reason_are_accepted():
    events = [chunk({"text": "Hi"}, finish="STOP", usage=USAGE_1), chunk(usage=USAGE_2)]
    body, _ = both(events)
    assert body["usageMetadata"] == USAGE_2 and parts(body) == [{"text": "Hi"}]


def test_arguments_for_a_call_never_started_are_an_error():
    with pytest.raises(InvalidEventError, match="never started"):
        stream.accumulate([chunk(partial({"jsonPath": "$.a", "stringValue": "x"}))], provider="gemini")


@pytest.mark.parametrize("provider", ["vertex", "gemini_openapi"])
def test_flavours_inherit_the_grammar(provider):
    events = [
        chunk(call("cook", willContinue=True)),
        chunk(partial({"jsonPath": "$.n", "numberValue": 3}, more=False)),
        chunk({"text": ""}, finish="STOP"),
    ]
    body, response = both(events, provider)
    assert parts(body) == [{"functionCall": {"name": "cook", "args": {"n": 3}}}]
    assert [(c.name, c.arguments) for c in calls(response)] == [("cook", {"n": 3})]
    assert response.finish_reason == "tool_calls"


def test_candidates_are_kept_apart_by_index_with_index_0_left_out():
    # candidateCount 2: proto3 JSON leaves out index 0, candidate 1 says its index
    def two(first, second, finish=None):
        c0 = {"content": {"parts": [first], "role": "model"}}
        c1 = {"content": {"parts": [second], "role": "model"}, "index": 1}
        if finish:
            c0["finishReason"] = c1["finishReason"] = finish
        return {"data": {"candidates": [c0, c1], "usageMetadata": USAGE_1}}

    only_second = {"data": {"candidates": [{"content": {"parts": [{"text": "!"}], "role": "model"}, "index": 1}], "usageMetadata": USAGE_1}}
    only_first = {"data": {"candidates": [{"content": {"parts": [{"text": "?"}], "role": "model"}}], "usageMetadata": USAGE_1}}
    events = [two({"text": "A"}, {"text": "B"}), only_second, only_first, two({"text": "a"}, {"text": "b"}, finish="STOP")]
    body = quiet(stream.accumulate, events, provider="gemini", as_provider=True)  # (the IR keeps one candidate, reported)
    assert [c["content"]["parts"] for c in body["candidates"]] == [[{"text": "A?a"}], [{"text": "B!b"}]]
    assert "index" not in body["candidates"][0] and body["candidates"][1]["index"] == 1
