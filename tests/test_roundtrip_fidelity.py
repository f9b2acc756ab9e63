"""Same-provider round trips give the input back byte for byte (issue 9 §4).

Explicit nulls and empty containers the input had are kept, nothing the input did not have is
added (consts, fills, fields sent even when null); other targets still get what their wire needs.
Shapes follow the providers' SDK types (cited per test) and were seen in recorded real payloads.
"""

from __future__ import annotations

import json
import warnings

import pytest

import toolwire


def same(payload: dict, provider: str, kind: str = "request") -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a same-provider round trip loses nothing
        return toolwire.convert(payload, source=provider, target=provider, kind=kind)


def assert_identical(payload: dict, provider: str, kind: str = "request") -> None:
    out = same(payload, provider, kind)
    assert out == payload
    assert json.dumps(out) == json.dumps(payload)  # key order too


USER = {"role": "user", "content": "Weather in Tokyo?"}


def test_bedrock_empty_inference_config_is_kept():
    # botocore ConverseRequest.inferenceConfig: InferenceConfiguration, all members optional
    payload = {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "inferenceConfig": {}}
    assert same(payload, "bedrock_converse") == payload
    # and an absent one is not added
    del payload["inferenceConfig"]
    assert "inferenceConfig" not in same(payload, "bedrock_converse")


def test_openai_responses_tool_description_null_and_no_strict_are_kept():
    # openai.types.responses.FunctionToolParam: description Optional[str], strict Optional[bool]
    tool = {"type": "function", "name": "get_weather", "description": None,
            "parameters": {"type": "object", "properties": {}}}
    payload = {"model": "gpt-4.1", "input": [{"role": "user", "content": "hi"}], "tools": [tool]}
    out = same(payload, "openai_responses")
    assert out["tools"] == [tool]  # description stays null, no strict: false added
    for strict in (False, True, None):
        payload["tools"] = [{**tool, "strict": strict}]
        assert same(payload, "openai_responses")["tools"] == payload["tools"]


def test_mistral_tool_call_without_type_gets_none_added_but_other_sources_do():
    # mistralai.models.ToolCall: type Optional[ToolTypes] (default "function")
    call = {"id": "D681PevKs", "function": {"name": "get_weather", "arguments": "{\"city\": \"Tokyo\"}"}}
    payload = {"model": "mistral-large-latest", "messages": [
        {"role": "user", "content": "Weather in Tokyo?"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "D681PevKs", "name": "get_weather", "content": "sunny"},
    ], "stop": None}
    out = same(payload, "mistral")
    assert out["messages"][1]["tool_calls"] == [call]
    assert "stop" in out and out["stop"] is None  # explicit null kept
    openai = {"model": "m", "messages": [
        USER,
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "D681PevKs", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "D681PevKs", "content": "sunny"},
    ]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        converted = toolwire.convert(openai, source="openai_chat", target="mistral")
    assert converted["messages"][1]["tool_calls"][0]["type"] == "function"


def test_openai_chat_response_tool_calls_null_is_kept():
    # openai.types.chat.ChatCompletionMessage: tool_calls Optional[List[...]] = None
    payload = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
               "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                            "message": {"role": "assistant", "content": "Hi", "refusal": None, "tool_calls": None}}],
               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    assert same(payload, "openai_chat", "response") == payload


def test_anthropic_response_without_stop_sequence_gets_none_added():
    # anthropic.types.Message.stop_sequence: Optional[str]; recorded bodies sometimes leave it out
    payload = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
               "content": [{"type": "text", "text": "Hi"}], "stop_reason": "end_turn",
               "usage": {"input_tokens": 1, "output_tokens": 1}}
    assert "stop_sequence" not in same(payload, "anthropic", "response")
    payload["stop_sequence"] = None
    assert same(payload, "anthropic", "response") == payload


GEMINI_SPLIT = {"contents": [
    {"role": "user", "parts": [{"text": "What is in the file?"}]},
    {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "read_file", "args": {"path": "a.png"}}}]},
    # google.genai.types.Content: two consecutive user turns, results then the file the tool referred to
    {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "see next"}}}]},
    {"role": "user", "parts": [{"text": "This is file a.png:"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}]},
]}


def test_gemini_consecutive_user_turns_stay_separate_for_gemini_and_merge_for_anthropic():
    assert same(GEMINI_SPLIT, "gemini") == GEMINI_SPLIT
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        anthropic = toolwire.convert(GEMINI_SPLIT, source="gemini", target="anthropic", model="m")
    assert [m["role"] for m in anthropic["messages"]] == ["user", "assistant", "user"]  # alternation required
    assert [b["type"] for b in anthropic["messages"][2]["content"]] == ["tool_result", "text", "image"]


def test_anthropic_consecutive_user_turns_stay_separate_for_anthropic():
    # anthropic.types.MessageParam: consecutive same-role turns are accepted (the API joins them)
    payload = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "first"}]},
        {"role": "user", "content": [{"type": "text", "text": "second"}]},
    ]}
    assert same(payload, "anthropic") == payload


@pytest.mark.parametrize("config", [
    {"mode": "VALIDATED"},                              # google.genai.types.FunctionCallingConfigMode
    {"mode": "MODE_UNSPECIFIED"},
    {"mode": "ANY", "allowedFunctionNames": []},        # an empty list is kept
    {"allowedFunctionNames": ["a", "b"]},               # a left-out mode is not added
    {"mode": "AUTO"},
])
def test_gemini_function_calling_config_round_trips_as_given(config):
    payload = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
               "tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b"}]}],
               "toolConfig": {"functionCallingConfig": config}}
    assert same(payload, "gemini") == payload


_VALIDATED = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
              "tools": [{"functionDeclarations": [{"name": "a"}]}],
              "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}}}


@pytest.mark.parametrize("target", sorted(set(toolwire.PROVIDERS) - {"gemini", "vertex", "gemini_openapi"}))
def test_gemini_validated_mode_is_auto_with_a_report_for_other_targets(target):
    # FunctionCallingConfigMode.VALIDATED: auto, with the calls held to their schemas by constrained
    # decoding. No other provider has that mode: auto is sent, and the lost guarantee is reported.
    choice = toolwire.to_ir(_VALIDATED, provider="gemini").tool_choice
    assert (choice.mode, choice.validated) == ("auto", True)
    with pytest.warns(toolwire.ConversionWarning, match=r"tool_choice\.validated: .*no place for ToolChoice\.validated"):
        out = toolwire.convert(_VALIDATED, source="gemini", target=target, model="m")
    assert out.get("tool_choice") in (None, "auto", {"type": "auto"})


@pytest.mark.parametrize("target", ["gemini", "vertex", "gemini_openapi"])
def test_gemini_validated_mode_travels_within_the_family(target):
    assert toolwire.convert(_VALIDATED, source="gemini", target=target)["toolConfig"] == _VALIDATED["toolConfig"]


def test_openai_responses_input_items_stay_where_and_as_they_were():
    # openai.types.responses.EasyInputMessageParam: role user | assistant | system | developer,
    # content str; items are separate (ResponseCreateParams.input)
    payload = {"model": "gpt-5", "input": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "How do I cross the street?"},
        {"role": "assistant", "content": "<think>\ninspect</think>"},
        {"role": "assistant", "content": "Look both ways."},
        {"role": "assistant", "content": ""},
        {"role": "developer", "content": "Tools changed."},
        {"role": "user", "content": "Thanks"},
    ]}
    assert same(payload, "openai_responses") == payload
    with_instructions = {**payload, "instructions": "Be brief."}
    assert same(with_instructions, "openai_responses") == with_instructions


def test_openai_chat_system_message_still_goes_to_responses_instructions():
    chat = {"model": "gpt-5", "messages": [{"role": "system", "content": "Be brief."}, USER]}
    out = toolwire.convert(chat, source="openai_chat", target="openai_responses")
    assert out["instructions"] == "Be brief." and [i["role"] for i in out["input"]] == ["user"]


def test_gemini_provider_tools_keep_their_place_among_tool_groups():
    # google.genai.types.Tool: one of functionDeclarations, googleSearch, ... per list item
    payload = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
               "tools": [{"googleSearch": {}}, {"functionDeclarations": [{"name": "a"}, {"name": "b"}]}]}
    assert same(payload, "gemini") == payload


@pytest.mark.parametrize("provider", ["gemini", "vertex"])
@pytest.mark.parametrize("tools", [
    [{"functionDeclarations": [{"name": "a"}], "codeExecution": {}}],  # keys beside the declarations
    [{"codeExecution": {}, "functionDeclarations": [{"name": "a"}]}],  # (before them)
    [{"functionDeclarations": [{"name": "a"}]}, {"googleSearch": {}}, {"functionDeclarations": [{"name": "b"}]}],  # two groups
    [{"functionDeclarations": []}, {"googleSearch": {}}],  # an empty one
])
def test_gemini_tool_groups_come_back_as_they_were(provider, tools):
    # google.genai.types.Tool sets several of its fields in one object, and the API takes a list of
    # them: the groups were rendered as one declarations group and the other keys as groups of
    # their own (a group's codeExecution moved out of it; an empty group vanished), without a word
    payload = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": tools}
    assert json.dumps(same(payload, provider)) == json.dumps(payload)
    listed = toolwire.tools_to_ir(tools, provider=provider)  # (the tools document too)
    assert toolwire.tools_from_ir(listed, provider=provider) == tools
    # another provider gets the declarations, and a report of what it has no place for
    with pytest.warns(toolwire.LossWarning, match="has no openai_chat equivalent"):
        out = toolwire.convert(payload, source=provider, target="openai_chat", kind="request", model="gpt-4.1")
    assert [t["function"]["name"] for t in out.get("tools", [])] == [d["name"] for g in tools for d in g.get("functionDeclarations", [])]


def test_vertex_ids_the_input_had_are_kept_for_vertex_and_not_sent_from_gemini():
    payload = {"contents": [
        {"role": "user", "parts": [{"text": "Where am I?"}]},
        {"role": "model", "parts": [{"functionCall": {"id": "vcyiitct", "name": "get_user_city", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "vcyiitct", "name": "get_user_city", "response": {"output": "Paris"}}}]},
    ]}
    assert same(payload, "vertex") == payload
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = toolwire.convert(payload, source="gemini", target="vertex")
    assert "id" not in out["contents"][1]["parts"][0]["functionCall"]
    assert "id" not in out["contents"][2]["parts"][0]["functionResponse"]


def _sorted_keys(value):
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def test_key_order_of_the_input_comes_back_for_the_same_provider():
    # recorded request bodies often have their keys sorted (pydantic-ai cassettes): byte for byte
    # includes the order of the keys
    chat = {"model": "gpt-4.1", "messages": [
        {"role": "system", "content": "Be brief."}, USER,
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Tokyo\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather.",
                                                   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
        "tool_choice": "auto", "stream": False}
    assert_identical(chat, "openai_chat")
    assert_identical(_sorted_keys(chat), "openai_chat")
    assert_identical(_sorted_keys(GEMINI_SPLIT), "gemini")
    anthropic_response = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                          "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Tokyo"}}],
                          "stop_reason": "tool_use", "stop_sequence": None,
                          "usage": {"input_tokens": 1, "output_tokens": 1, "service_tier": "standard"}}
    assert_identical(anthropic_response, "anthropic", "response")
    assert_identical(_sorted_keys(anthropic_response), "anthropic", "response")


# The order SDKs serialise their types in (the pydantic-ai cassettes of ../shared/realworld/:
# TypedDict field order, e.g. Base64ImageSourceParam data, media_type, type), inside objects that a
# transform builds whole, and on a message that joins its group (a Responses assistant message
# followed by its function_call items).
@pytest.mark.parametrize("provider, payload", [
    ("anthropic", {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"data": "iVBORw0KGgo=", "media_type": "image/png", "type": "base64"}},
        {"type": "document", "source": {"file_id": "file_011CNha8iCJcU1wXNR6q4V8w", "type": "file"}},
        {"type": "image", "source": {"url": "https://example.com/a.png", "type": "url"}}]}]}),
    ("gemini", {"contents": [{"role": "user", "parts": [{"text": "x"}]}], "tools": [{"functionDeclarations": [{"name": "f"}, {"name": "g"}]}],
                "toolConfig": {"functionCallingConfig": {"allowedFunctionNames": ["f", "g"], "mode": "ANY"}}}),
    ("openai_responses", {"model": "gpt-5", "input": "x", "tools": [{"type": "function", "name": "f", "parameters": {}, "strict": False}],
                          "tool_choice": {"mode": "required", "tools": [{"name": "f", "type": "function"}], "type": "allowed_tools"}}),
    ("openai_responses", {"model": "gpt-5", "input": [
        {"content": "Weather?", "role": "user"}, {"content": "Checking.", "role": "assistant"},
        {"arguments": "{}", "call_id": "call_1", "name": "f", "type": "function_call"},
        {"call_id": "call_1", "output": "sunny", "type": "function_call_output"}]}),
], ids=["anthropic-sources", "gemini-function-calling-config", "responses-allowed-tools", "responses-grouped-message"])
def test_key_order_inside_transform_built_objects_comes_back(provider, payload):
    assert_identical(payload, provider)
    assert_identical(_sorted_keys(payload), provider)


def test_key_order_hint_is_not_used_for_another_provider():
    chat = _sorted_keys({"model": "m", "messages": [USER], "max_tokens": 5})
    # Groq keeps provider data of its own (no `provider_data: family`): Groq's own order.
    out = toolwire.convert(chat, source="openai_chat", target="groq")
    assert list(out)[:2] == ["model", "messages"]
    out = toolwire.convert(chat, source="openai_chat", target="mistral")
    assert list(out)[:2] == ["model", "messages"]  # mistral's own order
    # Vertex shares Gemini's provider data (`provider_data: family`): the input's order is kept.
    gemini = _sorted_keys(GEMINI_SPLIT)
    with pytest.warns(toolwire.ConversionWarning, match="vertex takes no call ids"):
        out = toolwire.convert(gemini, source="gemini", target="vertex")
    assert [list(c) for c in out["contents"]] == [["parts", "role"]] * 4


RESPONSES_INTERLEAVED = {"model": "gpt-5", "input": [
    {"role": "user", "content": "hi"},
    # openai.types.responses.ResponseOutputMessageParam (id, status, phase) and
    # ResponseFunctionToolCallParam items, as a previous response returned them
    {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "phase": "commentary",
     "content": [{"type": "output_text", "text": "Let me look.", "annotations": []}]},
    {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "read", "arguments": "{}"},
    {"type": "message", "id": "msg_2", "role": "assistant", "status": "completed", "phase": "commentary",
     "content": [{"type": "output_text", "text": "And this.", "annotations": []}]},
    {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "view", "arguments": "{}"},
    {"type": "function_call_output", "call_id": "call_a", "output": "x"},
    {"type": "function_call_output", "call_id": "call_b", "output": "y"},
]}


def test_responses_items_with_ids_and_phase_interleaved_with_calls_round_trip():
    assert_identical(RESPONSES_INTERLEAVED, "openai_responses")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = toolwire.convert(RESPONSES_INTERLEAVED, source="openai_responses", target="anthropic", model="m")
    assert [m["role"] for m in out["messages"]] == ["user", "assistant", "user"]


def test_gemini_consecutive_model_turns_with_calls_round_trip():
    payload = {"contents": [
        {"role": "user", "parts": [{"text": "Refund?"}]},
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "load", "args": {}}}]},
        {"role": "model", "parts": [{"functionCall": {"id": "c2", "name": "search", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "load", "response": {"output": 1}}},
                                   {"functionResponse": {"id": "c2", "name": "search", "response": {"output": 2}}}]},
    ]}
    assert_identical(payload, "gemini")


def test_a_text_block_with_sorted_keys_is_still_plain_text_for_other_targets():
    # anthropic.types.TextBlockParam with its keys sorted (as recorded bodies have them)
    payload = {"max_tokens": 10, "messages": [{"content": [{"text": "hi", "type": "text"}], "role": "user"}],
               "model": "m", "system": [{"text": "Be brief.", "type": "text"}]}
    assert_identical(payload, "anthropic")
    out = toolwire.convert(payload, source="anthropic", target="openai_responses")
    assert out["instructions"] == "Be brief."


def test_text_blocks_of_a_tool_result_are_joined_with_a_newline_and_reported_where_one_text_is_needed():
    # anthropic.types.ToolResultBlockParam.content: several text blocks
    payload = {"model": "m", "max_tokens": 10, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": [{"type": "text", "text": "line one"}, {"type": "text", "text": "line two"}]}]},
    ]}
    assert_identical(payload, "anthropic")
    for target in ("gemini", "openai_chat"):
        with pytest.warns(toolwire.ConversionWarning, match="joined with a newline"):
            out = toolwire.convert(payload, source="anthropic", target=target, model="m")
        assert "line one\\nline two" in json.dumps(out)


@pytest.mark.parametrize("provider", ["gemini", "vertex"])
def test_a_nested_object_of_unknown_keys_only_keeps_its_place_among_the_known_keys(provider):
    # the shape of a Vertex request pydantic-ai recorded (../shared/realworld/conv_pydantic_ai.jsonl,
    # test_model_armor): generationConfig holds only responseModalities, which the IR has no field
    # for, and modelArmorConfig is a key the spec does not know. The renderer made generationConfig
    # from its unknown keys after every unknown top-level key, so the order came back changed,
    # although the input's order was the one the renderer claims to write (no order hint was kept)
    payload = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
               "generationConfig": {"responseModalities": ["TEXT"]},
               "modelArmorConfig": {"prompt_template_name": "projects/p/locations/l/templates/t"}}
    assert json.dumps(same(payload, provider)) == json.dumps(payload)
