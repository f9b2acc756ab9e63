"""Valid input that must be accepted (issue 9 §2): forms the providers' APIs and SDKs take that
toolwire used to reject. Each accepted variant round-trips to its own provider unchanged and
converts to every other provider into a payload the target's SDK types accept (what a target
cannot express is reported, never an error). Each test cites where the form comes from.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import ir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sdk_validation import validate  # noqa: E402


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def accepted(payload: dict, provider: str, kind: str = "request", targets=None) -> None:
    """Valid for its provider; identical after a same-provider round trip (no warning); converts
    to every other provider into a payload the target's SDK types accept."""
    assert validate(provider, kind, payload) == []
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.ConversionWarning)
        back = toolwire.convert(payload, source=provider, target=provider, kind=kind)
    assert json.dumps(back, sort_keys=True) == json.dumps(payload, sort_keys=True)
    for target in targets or toolwire.PROVIDERS:
        if target == provider:
            continue
        out = quiet(toolwire.convert, payload, source=provider, target=target, kind=kind, model="m-1")
        assert validate(target, kind, out) == [], target


def gemini_request(**extra) -> dict:
    return {"contents": [{"role": "user", "parts": [{"text": "Weather in Tokyo?"}]}], **extra}


GEMINI_TOOLS = [{"functionDeclarations": [{"name": "get_weather", "description": "Weather of a city",
                                           "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}]


# --- Gemini ---------------------------------------------------------------------------------------


def test_gemini_tool_config_without_function_calling_config_is_accepted():
    # ToolConfig.function_calling_config is Optional (google-genai types.ToolConfig; API reference
    # https://ai.google.dev/api/caching#ToolConfig): a toolConfig may hold only other settings.
    body = gemini_request(tools=GEMINI_TOOLS, toolConfig={"includeServerSideToolInvocations": True})
    req = toolwire.to_ir(body, provider="gemini")
    assert req.tool_choice.mode == "auto"  # absent is AUTO, the API's default
    accepted(body, "gemini")
    # the other setting has no equivalent elsewhere: reported
    with pytest.warns(toolwire.ConversionWarning, match="includeServerSideToolInvocations"):
        toolwire.convert(body, source="gemini", target="openai_chat", model="m")
    # a mode of its own is still sent
    req.tool_choice = ir.ToolChoice(mode="required")
    assert toolwire.from_ir(req, provider="gemini")["toolConfig"]["functionCallingConfig"] == {"mode": "ANY"}


def test_gemini_top_k_sent_as_a_float_is_accepted():
    # GenerationConfig.top_k is Optional[float] in google-genai (the REST reference says integer):
    # SDK users send 40.0. The IR keeps the integer; the spelling comes back to Gemini.
    body = gemini_request(generationConfig={"topK": 40.0, "temperature": 0.5})
    assert toolwire.to_ir(body, provider="gemini").top_k == 40
    # (fireworks takes top_k, which the OpenAI SDK types its family is checked with do not declare)
    accepted(body, "gemini", targets=[p for p in toolwire.PROVIDERS if p != "fireworks"])
    assert quiet(toolwire.convert, body, source="gemini", target="mistral", model="m")["top_k"] == 40
    with pytest.raises(toolwire.ConversionError, match=r"generationConfig\.topK"):
        toolwire.to_ir(gemini_request(generationConfig={"topK": 40.5}), provider="gemini")


@pytest.mark.parametrize("provider", ["gemini", "vertex"])
@pytest.mark.parametrize(
    "body",
    [
        # a blocked prompt: no candidates, promptFeedback says why (GenerateContentResponse.candidates
        # is Optional; https://ai.google.dev/api/generate-content#generatecontentresponse)
        {"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "gemini-2.5-flash", "responseId": "r1",
         "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7}},
        # a candidate without content (Candidate.content is Optional): blocked output
        {"candidates": [{"finishReason": "SAFETY", "index": 0}], "modelVersion": "gemini-2.5-flash",
         "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7}},
        # content {} (Content.role and Content.parts are Optional): MAX_TOKENS spent on thinking
        {"candidates": [{"content": {}, "finishReason": "MAX_TOKENS"}], "modelVersion": "gemini-2.5-flash",
         "usageMetadata": {"promptTokenCount": 7, "thoughtsTokenCount": 20, "totalTokenCount": 27}},
        {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS"}], "modelVersion": "gemini-2.5-flash"},
        # MODEL_ARMOR (Vertex AI) is a FinishReason value of google-genai
        {"candidates": [{"finishReason": "MODEL_ARMOR"}], "modelVersion": "gemini-2.5-flash"},
    ],
)
def test_gemini_responses_without_candidates_or_content_are_empty_assistant_turns(provider, body):
    resp = toolwire.to_ir(body, provider=provider, kind="response")
    assert resp.message.role == "assistant" and resp.message.parts == []
    accepted(body, provider, kind="response")


# --- system messages in the conversation (Anthropic, Responses) -----------------------------------


def test_anthropic_system_messages_in_the_list_stay_in_place():
    # anthropic SDK (>= 2.x) MessageParam = UserMessageParam | AssistantMessageParam |
    # SystemMessageParam (role "system", content a string or text blocks); recorded by pydantic-ai
    # (tests/models/cassettes/test_anthropic_mid_conversation_system).
    body = {
        "model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Reply with OK.",
        "messages": [
            {"role": "user", "content": "Review this."},
            {"role": "assistant", "content": [{"type": "text", "text": "OK"}]},
            {"role": "system", "content": [{"type": "text", "text": "Always state the complexity.", "cache_control": {"type": "ephemeral"}}]},
            {"role": "system", "content": "Use type annotations."},
            {"role": "user", "content": "Again."},
        ],
    }
    req = toolwire.to_ir(body, provider="anthropic")
    assert [m.role for m in req.messages] == ["system", "user", "assistant", "system", "system", "user"]
    accepted(body, "anthropic")
    # from other providers a later system message is still moved to `system` and reported: inline
    # system messages need a beta and suit some models only (docs/conformance-ai-sdk.md §2)
    chat = {"model": "m", "max_tokens": 100,
            "messages": [{"role": "system", "content": "A"}, {"role": "user", "content": "u"},
                         {"role": "system", "content": "B"}, {"role": "user", "content": "v"}]}
    with pytest.warns(toolwire.ConversionWarning, match="mid-conversation"):
        out = toolwire.convert(chat, source="openai_chat", target="anthropic")
    assert [m["role"] for m in out["messages"]] == ["user"]


def test_responses_instructions_take_one_text_and_other_system_messages_stay_input_items():
    # ResponseCreateParams.instructions is a string; system and developer messages are input items
    # (EasyInputMessageParam role user | assistant | system | developer).
    chat = {"model": "m", "messages": [{"role": "system", "content": "A"}, {"role": "system", "content": "B"},
                                       {"role": "user", "content": "u"}, {"role": "system", "content": "C"}]}
    out = toolwire.convert(chat, source="openai_chat", target="openai_responses")
    assert out["instructions"] == "A"
    assert out["input"] == [{"role": "system", "content": "B"}, {"role": "user", "content": "u"}, {"role": "system", "content": "C"}]
    assert validate("openai_responses", "request", out) == []
    # system content of several blocks (Bedrock, Anthropic) is not a string: it stays an input item
    bedrock = {"system": [{"text": "A"}, {"text": "B"}], "messages": [{"role": "user", "content": [{"text": "u"}]}]}
    out = toolwire.convert(bedrock, source="bedrock_converse", target="openai_responses", model="m")
    assert "instructions" not in out
    assert out["input"][0] == {"role": "system", "content": [{"type": "input_text", "text": "A"}, {"type": "input_text", "text": "B"}]}
    assert validate("openai_responses", "request", out) == []
    # a system or developer item the input had in the list stays there
    for body in (
        {"model": "m", "input": [{"role": "system", "content": "S"}, {"role": "user", "content": "u"}]},
        {"model": "m", "instructions": "I", "input": [{"role": "developer", "content": "D"}, {"role": "user", "content": "u"}]},
    ):
        accepted(body, "openai_responses")


# --- Responses input forms ------------------------------------------------------------------------

RESPONSES_TOOLS = [
    {"type": "function", "name": name, "description": f"{name} tool", "strict": False,
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    for name in ("get_weather", "final_result")
]


def test_responses_input_as_a_plain_string_is_one_user_message():
    # ResponseCreateParams.input: Union[str, ResponseInputParam] — "A text input to the model,
    # equivalent to a text input with the user role."
    body = {"model": "gpt-4.1", "instructions": "Be brief.", "input": "Weather in Tokyo?"}
    req = toolwire.to_ir(body, provider="openai_responses")
    assert [(m.role, m.parts[0].text) for m in req.messages] == [("system", "Be brief."), ("user", "Weather in Tokyo?")]
    accepted(body, "openai_responses")
    out = toolwire.convert(body, source="openai_responses", target="openai_chat")
    assert out["messages"][1] == {"role": "user", "content": "Weather in Tokyo?"}
    # from other providers the list form is sent, as before
    chat = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert toolwire.convert(chat, source="openai_chat", target="openai_responses")["input"] == [{"role": "user", "content": "hi"}]


def test_responses_tool_choice_allowed_tools_is_allowed_names():
    # ToolChoiceAllowedParam {type: allowed_tools, mode: auto | required, tools: [{type: function,
    # name}, {type: mcp, server_label}, ...]} (openai.types.responses.tool_choice_allowed_param)
    body = {
        "model": "gpt-4.1", "input": "Weather in Tokyo?", "tools": RESPONSES_TOOLS,
        "tool_choice": {"type": "allowed_tools", "mode": "required",
                        "tools": [{"type": "function", "name": "final_result"}, {"type": "function", "name": "get_weather"}]},
    }
    choice = toolwire.to_ir(body, provider="openai_responses").tool_choice
    assert (choice.mode, choice.allowed_names) == ("required", ["final_result", "get_weather"])
    accepted(body, "openai_responses")
    gemini = toolwire.convert(body, source="openai_responses", target="gemini")
    assert gemini["toolConfig"] == {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["final_result", "get_weather"]}}
    # a provider with no allowed list reports it instead of dropping it silently
    with pytest.warns(toolwire.ConversionWarning, match="allowed_names"):
        assert toolwire.convert(body, source="openai_responses", target="openai_chat")["tool_choice"] == "required"
    # Gemini's allowedFunctionNames come to Responses as allowed_tools
    assert toolwire.convert(gemini, source="gemini", target="openai_responses", model="m")["tool_choice"] == body["tool_choice"]
    # entries for hosted tools have no IR form: they survive a Responses round trip in place
    body["tool_choice"]["tools"].insert(1, {"type": "mcp", "server_label": "deepwiki"})
    body["tools"] = [*RESPONSES_TOOLS, {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp"}]
    assert toolwire.convert(body, source="openai_responses", target="openai_responses") == body
    # a function entry with a key beside its name (the SDK's entries are Dict[str, object]) still
    # names its tool: the restriction stays (it came back `auto` when the entry was kept whole)
    body["tool_choice"]["tools"][0]["x_newer_key"] = "kept"
    choice = toolwire.to_ir(body, provider="openai_responses").tool_choice
    assert (choice.mode, choice.allowed_names) == ("required", ["final_result", "get_weather"])
    assert toolwire.convert(body, source="openai_responses", target="openai_responses") == body
    assert toolwire.convert(body, source="openai_responses", target="gemini")["toolConfig"] == gemini["toolConfig"]


# --- results and their calls ----------------------------------------------------------------------


def test_gemini_consecutive_model_contents_are_one_turn_answered_together():
    # Gemini takes consecutive model contents as one turn; recorded by pydantic-ai
    # (tests/cassettes/test_tool_search/test_cross_provider_capability_replay[google-...]): two
    # model contents with one functionCall each, then one user content answering both.
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Refund on order-123?"}]},
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "load_capability", "args": {"id": "refunds"}}}]},
            {"role": "model", "parts": [{"functionCall": {"id": "c2", "name": "search_tools", "args": {"queries": ["refund"]}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "load_capability", "response": {"ok": True}}},
                                       {"functionResponse": {"id": "c2", "name": "search_tools", "response": {"found": 1}}}]},
        ],
        "tools": GEMINI_TOOLS,
        "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}},
    }
    # (Bedrock needs the tools declared; GEMINI_TOOLS does not declare these two)
    accepted(body, "gemini", targets=[p for p in toolwire.PROVIDERS if p != "bedrock_converse"])
    # OpenAI Chat answers the calls of one assistant message: the two turns become one
    chat = quiet(toolwire.convert, body, source="gemini", target="openai_chat", model="m")
    assert [m["role"] for m in chat["messages"]] == ["user", "assistant", "tool", "tool"]
    assert [c["id"] for c in chat["messages"][1]["tool_calls"]] == ["c1", "c2"]


def test_gemini_validated_mode_round_trips_and_is_auto_elsewhere():
    # FunctionCallingConfigMode VALIDATED (google-genai): auto, with calls checked against the schema
    body = gemini_request(tools=GEMINI_TOOLS, toolConfig={"functionCallingConfig": {"mode": "VALIDATED", "allowedFunctionNames": ["get_weather"]}})
    choice = toolwire.to_ir(body, provider="gemini").tool_choice
    assert (choice.mode, choice.allowed_names) == ("auto", ["get_weather"])
    accepted(body, "gemini")


@pytest.mark.parametrize("extra", [{"previous_response_id": "resp_1"}, {"conversation": "conv_1"}])
def test_responses_results_of_server_side_calls_are_accepted(extra):
    # A request continuing a stored response answers calls the input does not repeat
    # (https://platform.openai.com/docs/guides/function-calling?api-mode=responses, previous_response_id).
    body = {"model": "gpt-4.1", **extra, "input": [{"type": "function_call_output", "call_id": "call_1", "output": "Sunny"}]}
    req = toolwire.to_ir(body, provider="openai_responses")
    assert req.messages[0].parts[0].tool_call_id == "call_1"
    assert toolwire.convert(body, source="openai_responses", target="openai_responses") == body
    # a provider without server-side state cannot take it: an error pointing at the result
    with pytest.raises(toolwire.UnknownToolCallError, match=r"input\[0\]"):
        toolwire.convert(body, source="openai_responses", target="anthropic")


@pytest.mark.parametrize(
    ("provider", "body"),
    [
        # OpenAI Chat: "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"
        ("openai_chat", {"model": "m", "messages": [{"role": "user", "content": "Time?"}, {"role": "tool", "tool_call_id": "call_x", "content": "12:30"}]}),
        # Anthropic: a tool_result must answer a tool_use of the previous assistant message
        ("anthropic", {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "x"}]}]}),
    ],
)
def test_stray_results_stay_errors_where_the_provider_keeps_no_state(provider, body):
    with pytest.raises(toolwire.UnknownToolCallError):
        toolwire.to_ir(body, provider=provider)


# --- Gemini protobuf JSON field names (key_spelling: proto_json) ---------------------------------

# The REST API parses protobuf JSON, which takes the snake_case field name as well as the lowerCamel
# one (https://protobuf.dev/programming-guides/json/ "the JSON parser accepts both the lowerCamelCase
# name ... and the original proto field name"). Code that builds bodies from google-genai's Python
# field names sends them so; pydantic-ai's recorded Vertex bodies mix both (fileData.file_uri).
SNAKE_BODY = {
    "contents": [
        {"role": "user", "parts": [{"text": "What is in the report, and what is the weather?"},
                                   {"file_data": {"mime_type": "application/pdf", "file_uri": "gs://bucket/report.pdf"}},
                                   {"inline_data": {"mime_type": "image/png", "data": "iVBORw0KGgo="}}]},
        {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "get_weather", "args": {"city": "Tokyo"}},
                                     "thought_signature": "c2lnbmF0dXJl"}]},
        {"role": "user", "parts": [{"function_response": {"id": "c1", "name": "get_weather", "response": {"temp_c": 21},
                                                          "parts": [{"inlineData": {"mime_type": "image/png", "data": "iVBORw0KGgo="}}]}}]},
    ],
    "system_instruction": {"parts": [{"text": "Be brief."}]},
    "tools": [{"function_declarations": [{"name": "get_weather", "description": "Weather of a city",
                                          "parameters_json_schema": {"type": "object", "properties": {"city_name": {"type": "string"}}}}]}],
    "tool_config": {"function_calling_config": {"mode": "ANY", "allowed_function_names": ["get_weather"]}},
    "generation_config": {"max_output_tokens": 1024, "top_k": 40},
}


@pytest.mark.parametrize("provider", ["gemini", "vertex"])
def test_gemini_snake_case_field_names_are_read_and_written_back_as_spelled(provider):
    body = json.loads(json.dumps(SNAKE_BODY))
    if provider == "vertex":  # Vertex takes no ids (the spec's omitted_id)
        for content in body["contents"]:
            for part in content["parts"]:
                for key in ("function_call", "function_response"):
                    part.get(key, {}).pop("id", None)
    assert validate(provider, "request", body) == []
    req = toolwire.to_ir(body, provider=provider)
    assert req.messages[0].role == "system" and req.messages[0].parts[0].text == "Be brief."
    kinds = [type(p).__name__ for m in req.messages for p in m.parts]
    assert kinds.count("ToolCall") == 1 and kinds.count("ToolResult") == 1 and "FilePart" in kinds and "ImagePart" in kinds
    call = next(p for m in req.messages for p in m.parts if isinstance(p, ir.ToolCall))
    assert call.name == "get_weather" and call.arguments == {"city": "Tokyo"}
    assert [t.name for t in req.tools] == ["get_weather"]
    assert list(req.tools[0].parameters["properties"]) == ["city_name"]  # user data is never respelled
    assert req.tool_choice.mode == "tool" and req.tool_choice.name == "get_weather"
    assert req.max_tokens == 1024 and req.top_k == 40
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.ConversionWarning)
        back = toolwire.convert(body, source=provider, target=provider)
    assert json.dumps(back) == json.dumps(body)  # byte for byte: spelling and key order as given
    out = quiet(toolwire.convert, body, source=provider, target="anthropic", model="m-1")
    assert validate("anthropic", "request", out) == []
    assert [b["type"] for b in out["messages"][1]["content"]] == ["tool_use"]


def test_gemini_snake_case_is_canonical_camel_case_for_the_other_gemini_flavours():
    body = gemini_request(generation_config={"max_output_tokens": 64})
    out = toolwire.convert(body, source="gemini", target="gemini_openapi")
    assert out["generation_config"] == {"max_output_tokens": 64}  # same family: the spelling travels
    req = toolwire.to_ir(body, provider="gemini")
    req.provider_data = None  # a request built from the IR alone is written in lowerCamel
    assert toolwire.from_ir(req, provider="gemini")["generationConfig"] == {"maxOutputTokens": 64}


def test_gemini_a_snake_key_beside_its_camel_twin_is_not_merged():
    body = gemini_request(generationConfig={"maxOutputTokens": 64}, generation_config={"max_output_tokens": 32})
    req = quiet(toolwire.to_ir, body, provider="gemini")
    assert req.max_tokens == 64  # the lowerCamel key wins; the other is kept as an unknown field
    assert json.dumps(toolwire.convert(body, source="gemini", target="gemini")) == json.dumps(body)


# --- SDK objects dumped with model_dump(): every unset field is a null ---------------------------

def _sdk_responses():
    from anthropic.types import Message
    from google.genai import types as genai
    from openai.types.chat import ChatCompletion

    yield "openai_chat", ChatCompletion.model_validate({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": {
            "role": "assistant", "content": None, "refusal": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}})
    yield "anthropic", Message.model_validate({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}],
        "stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 2}})
    yield "gemini", genai.GenerateContentResponse.model_validate({
        "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 2, "totalTokenCount": 3}})


@pytest.mark.parametrize("source, obj", list(_sdk_responses()), ids=lambda v: v if isinstance(v, str) else "")
@pytest.mark.parametrize("mode", ["python", "json"])
def test_an_sdk_objects_model_dump_converts_like_its_clean_json(source, obj, mode):
    # the nulls of unset fields hold nothing: no extra loss warnings, the same result
    clean = obj.model_dump(mode="json", by_alias=True, exclude_none=True)
    for target in ("openai_chat", "anthropic", "gemini"):
        if target == source:
            continue
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            expected = toolwire.convert(clean, source=source, target=target, kind="response", model="m")
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            out = toolwire.convert(obj.model_dump(mode=mode), source=source, target=target, kind="response", model="m")
        assert out == expected
        assert [str(w.message) for w in got] == [str(w.message) for w in want]
