"""Provider rules and error behaviour that the fixtures alone do not pin down."""

from __future__ import annotations

import json
import warnings

import pytest

import toolwire
from toolwire import ir


def chat(messages, **extra):
    return {"model": "gpt-4.1", "messages": messages, **extra}


CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}


def test_public_contract():
    assert {"anthropic", "gemini", "openai_chat", "openai_responses", "vertex"} <= set(toolwire.PROVIDERS)
    assert list(toolwire.PROVIDERS) == sorted(toolwire.PROVIDERS)
    assert issubclass(toolwire.MissingFieldError, toolwire.ConversionError)
    assert issubclass(toolwire.ConversionError, ValueError)


def test_arguments_are_objects_in_the_ir():
    req = toolwire.to_ir(chat([{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [CALL]}]), provider="openai_chat")
    call = req.messages[1].parts[0]
    assert isinstance(call, ir.ToolCall)
    assert (call.id, call.name, call.arguments) == ("call_1", "get_weather", {"city": "Paris"})


def test_error_path_points_at_the_field():
    bad = chat([{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": 3, "arguments": "{}"}}]}])
    with pytest.raises(toolwire.WrongTypeError) as info:
        toolwire.to_ir(bad, provider="openai_chat")
    assert info.value.path == "messages[1].tool_calls[0].function.name"


def test_missing_required_field():
    with pytest.raises(toolwire.MissingFieldError) as info:
        toolwire.to_ir(chat([{"role": "tool", "content": "x"}]), provider="openai_chat")
    assert info.value.path == "messages[0].tool_call_id"


def test_unknown_role_is_an_error_naming_the_roles():
    with pytest.raises(toolwire.UnknownVariantError) as info:
        toolwire.to_ir(chat([{"role": "robot", "content": "x"}]), provider="openai_chat")
    assert info.value.path == "messages[0].role"
    assert "'assistant'" in str(info.value)


def test_result_for_unknown_call_is_an_error():
    with pytest.raises(toolwire.UnknownToolCallError) as info:
        toolwire.to_ir(chat([{"role": "tool", "tool_call_id": "nope", "content": "x"}]), provider="openai_chat")
    assert info.value.path == "messages[0].tool_call_id"


def test_invalid_json_arguments_are_kept_and_reported():
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1'}}
    payload = chat([{"role": "assistant", "content": None, "tool_calls": [call]}])
    with pytest.warns(toolwire.ConversionWarning, match="not valid JSON"):
        req = toolwire.to_ir(payload, provider="openai_chat")
    assert req.messages[0].parts[0].arguments == {}
    assert req.messages[0].parts[0].raw_arguments == '{"a": 1'
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert toolwire.from_ir(req, provider="openai_chat") == payload  # the raw text goes back unchanged
    with pytest.raises(toolwire.InvalidArgumentsError) as info:
        toolwire.to_ir(payload, provider="openai_chat", strict=True)
    assert info.value.path == "messages[0].tool_calls[0].function.arguments"


def test_empty_arguments_become_an_empty_object():
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}
    out = toolwire.convert(chat([{"role": "assistant", "content": None, "tool_calls": [call]}]), source="openai_chat", target="anthropic")
    assert out["messages"][0]["content"] == [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}]


def test_original_argument_text_is_kept_only_while_it_says_the_same():
    # the text is sent back as it came (its spelling) while the arguments are what it says; the
    # text's value is remembered between renders (a stream renders it at every sync): a change made
    # to the IR's arguments in between must still show
    body = chat([{"role": "assistant", "content": None, "tool_calls": [{**CALL, "function": {"name": "f", "arguments": '{ "city" : "Paris" }'}}]}])
    node = toolwire.to_ir(body, provider="openai_chat")
    render = lambda: toolwire.from_ir(node, provider="openai_chat")["messages"][0]["tool_calls"][0]["function"]["arguments"]  # noqa: E731
    assert render() == '{ "city" : "Paris" }'
    node.messages[0].parts[0].arguments["city"] = "Lyon"
    assert json.loads(render()) == {"city": "Lyon"}
    node.messages[0].parts[0].arguments["city"] = "Paris"
    assert render() == '{ "city" : "Paris" }'


def test_losses_are_reported_and_strict_raises():
    req = toolwire.to_ir({"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"topK": 5}}, provider="gemini")
    with pytest.warns(toolwire.ConversionWarning, match="top_k"):
        toolwire.from_ir(req, provider="openai_chat", model="gpt-4.1")
    with pytest.raises(toolwire.LossError) as info:
        toolwire.from_ir(req, provider="openai_chat", strict=True, model="gpt-4.1")
    assert info.value.path == "top_k"


def test_sampling_parameters_map_where_they_exist_and_anthropic_reports_them():
    body = chat([{"role": "user", "content": "hi"}], temperature=0.2, top_p=0.9)
    gemini = toolwire.convert(body, source="openai_chat", target="gemini")
    assert gemini["generationConfig"] == {"temperature": 0.2, "topP": 0.9}
    responses = toolwire.convert(body, source="openai_chat", target="openai_responses")
    assert (responses["temperature"], responses["top_p"]) == (0.2, 0.9)
    # the current Messages API (anthropic-version 2026-10-21) takes no sampling parameters
    with pytest.warns(toolwire.ConversionWarning, match="temperature"):
        anthropic = toolwire.convert(body, source="openai_chat", target="anthropic")
    assert "temperature" not in anthropic and "top_p" not in anthropic


def test_model_can_be_given_for_targets_that_need_it():
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    out = toolwire.convert(body, source="gemini", target="anthropic", model="claude-sonnet-4-5")
    assert out["model"] == "claude-sonnet-4-5"
    req = toolwire.to_ir(body, provider="gemini")
    assert toolwire.from_ir(req, provider="openai_chat", model="gpt-4.1")["model"] == "gpt-4.1"
    assert req.model is None  # the caller's IR is not touched


def test_gemini_calls_without_ids_get_deterministic_ids_and_results_pair_by_position():
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "weather and time?"}]},
            {"role": "model", "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                {"functionCall": {"name": "get_time", "args": {"city": "Paris"}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_time", "response": {"output": "14:00"}}},
                {"functionResponse": {"name": "get_weather", "response": {"temp": 18}}},
            ]},
        ]
    }
    req = toolwire.to_ir(body, provider="gemini")
    calls = req.messages[1].parts
    results = req.messages[2].parts
    assert [c.id for c in calls] == ["call_1_0", "call_1_1"]
    assert all(c.synthetic_id for c in calls)
    assert {r.tool_call_id: r.name for r in results} == {"call_1_0": "get_weather", "call_1_1": "get_time"}
    assert toolwire.to_ir(body, provider="gemini") == req  # deterministic
    # back to Gemini: no made-up ids, results in call order
    out = toolwire.from_ir(req, provider="gemini")
    assert "id" not in out["contents"][1]["parts"][0]["functionCall"]
    assert [p["functionResponse"]["name"] for p in out["contents"][2]["parts"]] == ["get_weather", "get_time"]
    # to OpenAI: the synthesized ids link calls and results
    chat_out = toolwire.from_ir(req, provider="openai_chat")
    assert [m.get("tool_call_id") for m in chat_out["messages"][2:]] == ["call_1_1", "call_1_0"]


def test_openai_tool_results_reach_gemini_with_the_call_name_in_call_order():
    payload = chat([
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [CALL, {**CALL, "id": "call_2", "function": {"name": "get_time", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "noon"},
        {"role": "tool", "tool_call_id": "call_1", "content": '{"temp":18}'},
    ])
    out = toolwire.convert(payload, source="openai_chat", target="gemini")
    parts = out["contents"][2]["parts"]
    assert out["contents"][2]["role"] == "user"
    assert [p["functionResponse"] for p in parts] == [
        {"id": "call_1", "name": "get_weather", "response": {"temp": 18}},
        {"id": "call_2", "name": "get_time", "response": {"output": "noon"}},
    ]


def test_anthropic_results_then_user_text_form_one_turn_results_first():
    payload = chat([
        {"role": "assistant", "content": None, "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        {"role": "user", "content": "thanks, and tomorrow?"},
    ], max_completion_tokens=100)
    out = toolwire.convert(payload, source="openai_chat", target="anthropic")
    assert out["messages"][1] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "call_1", "content": "sunny"},
        {"type": "text", "text": "thanks, and tomorrow?"},
    ]}
    assert toolwire.convert(out, source="anthropic", target="openai_chat")["messages"] == payload["messages"]


@pytest.mark.parametrize("choice,anthropic,gemini,responses", [
    ("auto", {"type": "auto"}, {"functionCallingConfig": {"mode": "AUTO"}}, "auto"),
    ("none", {"type": "none"}, {"functionCallingConfig": {"mode": "NONE"}}, "none"),
    ("required", {"type": "any"}, {"functionCallingConfig": {"mode": "ANY"}}, "required"),
    ({"type": "function", "function": {"name": "f"}}, {"type": "tool", "name": "f"},
     {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}}, {"type": "function", "name": "f"}),
])
def test_tool_choice_mapping(choice, anthropic, gemini, responses):
    payload = chat([{"role": "user", "content": "hi"}], tool_choice=choice, max_completion_tokens=5)
    assert toolwire.convert(payload, source="openai_chat", target="anthropic")["tool_choice"] == anthropic
    assert toolwire.convert(payload, source="openai_chat", target="gemini")["toolConfig"] == gemini
    assert toolwire.convert(payload, source="openai_chat", target="openai_responses")["tool_choice"] == responses
    for target, value in (("anthropic", anthropic), ("openai_responses", responses)):
        back = toolwire.convert(toolwire.convert(payload, source="openai_chat", target=target), source=target, target="openai_chat")
        assert back["tool_choice"] == choice


def test_parallel_tool_calls_false_is_disable_parallel_tool_use():
    payload = chat([{"role": "user", "content": "hi"}], tool_choice="required", parallel_tool_calls=False, max_completion_tokens=5)
    out = toolwire.convert(payload, source="openai_chat", target="anthropic")
    assert out["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
    back = toolwire.convert(out, source="anthropic", target="openai_chat")
    assert back["parallel_tool_calls"] is False and back["tool_choice"] == "required"


def test_gemini_stop_with_calls_is_tool_calls():
    resp = {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}, "finishReason": "STOP"}]}
    node = toolwire.to_ir(resp, provider="gemini", kind="response")
    assert node.finish_reason == "tool_calls"
    assert node.message.parts[0].id == "call_r0"
    out = toolwire.convert(resp, source="gemini", target="openai_chat", kind="response")
    assert out["choices"][0]["finish_reason"] == "tool_calls"
    assert toolwire.from_ir(node, provider="gemini") == resp


def test_gemini_results_wrap_scalars_and_errors():
    result = ir.ToolResult(tool_call_id="c", name="f", result=42)
    error = ir.ToolResult(tool_call_id="d", name="g", result="boom", is_error=True)
    tricky = ir.ToolResult(tool_call_id="e", name="h", result={"output": 1})
    req = ir.Request(messages=[
        ir.Message(role="assistant", parts=[ir.ToolCall(id=i, name=n, arguments={}) for i, n in (("c", "f"), ("d", "g"), ("e", "h"))]),
        ir.Message(role="tool", parts=[result, error, tricky]),
    ])
    out = toolwire.from_ir(req, provider="gemini")
    responses = [p["functionResponse"]["response"] for p in out["contents"][1]["parts"]]
    assert responses == [{"output": 42}, {"error": "boom"}, {"output": {"output": 1}}]
    back = toolwire.to_ir(out, provider="gemini")
    assert [(r.result, r.is_error) for r in back.messages[1].parts] == [(42, False), ("boom", True), ({"output": 1}, False)]


def test_provider_only_tools_survive_a_same_provider_round_trip_and_are_reported_elsewhere():
    body = {"model": "gpt-4.1", "input": "hi", "tools": [{"type": "web_search"}]}
    body["input"] = [{"role": "user", "content": "hi"}]
    node = toolwire.to_ir(body, provider="openai_responses")
    assert toolwire.from_ir(node, provider="openai_responses") == body
    with pytest.warns(toolwire.ConversionWarning, match="web_search"):
        out = toolwire.from_ir(node, provider="anthropic")
    assert "tools" not in out


def test_gemini_thought_signature_survives_gemini_and_is_reported_elsewhere():
    part = {"functionCall": {"id": "c1", "name": "f", "args": {}}, "thoughtSignature": "c2ln"}
    body = {"contents": [{"role": "user", "parts": [{"text": "go"}]}, {"role": "model", "parts": [part]}]}
    node = toolwire.to_ir(body, provider="gemini")
    assert toolwire.from_ir(node, provider="gemini") == body
    assert node.messages[1].parts[0].signature == "c2ln" and node.messages[1].parts[0].signature_verifier == "gemini"
    with pytest.warns(toolwire.ConversionWarning, match="ToolCall.signature"):
        toolwire.from_ir(node, provider="anthropic")


def test_conversion_does_not_mutate_its_input():
    payload = chat([{"role": "assistant", "content": None, "tool_calls": [CALL]}, {"role": "tool", "tool_call_id": "call_1", "content": "x"}])
    before = json.dumps(payload, sort_keys=True)
    node = toolwire.to_ir(payload, provider="openai_chat")
    snapshot = repr(node)
    for target in toolwire.PROVIDERS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            toolwire.from_ir(node, provider=target)
    assert json.dumps(payload, sort_keys=True) == before
    assert repr(node) == snapshot


def test_unknown_provider_and_kind():
    with pytest.raises(ValueError, match="unknown provider"):
        toolwire.to_ir({}, provider="nope")
    with pytest.raises(ValueError, match="kind"):
        toolwire.to_ir({}, provider="gemini", kind="stream")


def test_vertex_sends_no_ids_and_shares_gemini_provider_data():
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "weather?"}]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "c1", "name": "get_weather", "args": {}}, "thoughtSignature": "c2ln"},
                {"functionCall": {"id": "c2", "name": "get_time", "args": {}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "c2", "name": "get_time", "response": {"output": "noon"}}},
                {"functionResponse": {"id": "c1", "name": "get_weather", "response": {"output": "18C"}}},
            ]},
        ]
    }
    with pytest.warns(toolwire.ConversionWarning, match=r"vertex takes no call ids.*\(and at 1 more place\)"):
        out = toolwire.convert(body, source="gemini", target="vertex")
    model, results = out["contents"][1]["parts"], out["contents"][2]["parts"]
    assert model[0] == {"functionCall": {"name": "get_weather", "args": {}}, "thoughtSignature": "c2ln"}
    # no ids: the results go in call order, which is how Vertex pairs them
    assert [r["functionResponse"] for r in results] == [
        {"name": "get_weather", "response": {"output": "18C"}},
        {"name": "get_time", "response": {"output": "noon"}},
    ]
    # back from Vertex: ids synthesized, pairing by position
    back = toolwire.to_ir(out, provider="vertex")
    calls, answers = back.messages[1].parts, back.messages[2].parts
    assert [c.synthetic_id for c in calls] == [True, True]
    assert [a.tool_call_id for a in answers] == [c.id for c in calls]


def _responses_response(output):
    return {"id": "resp_1", "object": "response", "created_at": 1741476542, "status": "completed", "model": "gpt-4.1",
            "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}


def _output_message(item_id, text):
    return {"type": "message", "id": item_id, "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def test_responses_output_message_keeps_its_item_id_beside_other_items():
    """single_message: the output message's carried id / status survive the merge into one IR message."""
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Paris"}', "status": "completed"}
    body = _responses_response([_output_message("msg_abc", "Let me check."), call])
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.ConversionWarning)
        back = toolwire.convert(body, source="openai_responses", target="openai_responses", kind="response")
    assert json.dumps(back) == json.dumps(body)


def test_responses_second_output_message_fields_are_reported_not_dropped_silently():
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Paris"}', "status": "completed"}
    body = _responses_response([_output_message("msg_a", "Let me check."), call, _output_message("msg_b", "Done.")])
    with pytest.warns(toolwire.ConversionWarning, match="fields id of a later output message"):
        toolwire.to_ir(body, provider="openai_responses", kind="response")


@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock_converse"])
def test_a_merged_turn_reports_what_it_cannot_carry_of_the_later_message(target):
    """Consecutive user messages become one turn on targets that merge turns (layout.merge_turns):
    the later message's name has no place there, and that is reported at its own path, not dropped
    silently beside the first one's report (the passes rebuild messages with every field: _like)."""
    body = {"model": "m", "messages": [{"role": "user", "content": "hi", "name": "alice"}, {"role": "user", "content": "yo", "name": "bob"}]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        toolwire.convert(body, source="openai_chat", target=target)
    names = sorted(w.message.path for w in caught if "name" in w.message.path)
    assert names == ["messages[0].name", "messages[1].name"], [str(w.message) for w in caught]
    assert any("'bob'" in str(w.message) for w in caught)


def test_a_filled_object_the_same_provider_input_had_comes_back_as_it_was():
    """`fill` sends a wire-only value when nothing provides it; an object the same-provider input
    had is sent whole, not merged into the fill: Responses' usage.input_tokens_details as the API
    answered before it added cache_write_tokens (../shared/streams/openai_responses__pydantic-ai__test_run__i0.json:
    {"cached_tokens": 4352}) must not gain a cache_write_tokens of 0."""
    response = {
        "id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-5",
        "output": [{"id": "msg_1", "type": "message", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": "Hi", "annotations": []}]}],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 4}, "output_tokens": 2,
                  "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 12},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = toolwire.convert(response, source="openai_responses", target="openai_responses", kind="response")
        assert back["usage"] == response["usage"]
        # from another provider, the fill is what is sent (the SDK's ResponseUsage requires both keys)
        other = toolwire.convert(back, source="openai_responses", target="openai_chat", kind="response")
        again = toolwire.convert(other, source="openai_chat", target="openai_responses", kind="response")
    assert again["usage"]["input_tokens_details"] == {"cached_tokens": 0, "cache_write_tokens": 0}
