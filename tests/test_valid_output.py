"""Output that must be valid for the target (issue 9 §3), checked with the official SDK types.

Each test names the rule and where it comes from:

* Ollama tool parameters: ``ollama._types.Tool.Function.Parameters`` models type "object", $defs,
  items, required and properties, and a property only type, items, description and enum
  (keyword_subset, runtime/toolwire_runtime/schema.py ``to_keyword_subset``).
* Gemini ``inlineData.data`` is base64 that the Google SDKs write URL-safe
  (google.genai ``_common`` serializes bytes with ``base64.urlsafe_b64encode``); Bedrock
  ``ImageSource.bytes`` (a blob), Ollama ``Message.images``, Anthropic ``Base64ImageSourceParam`` and
  data URLs take standard base64 (RFC 4648 section 4) (base64_text).
* Gemini's legacy ``FunctionDeclaration.parameters`` is the OpenAPI-subset Schema (upper-case type
  names, https://ai.google.dev/api/caching#Schema): the IR holds JSON Schema (legacy_schema).
* Anthropic ``ToolParam.input_schema`` is required; Bedrock ``ToolConfiguration.tools`` has at least
  one item (botocore ToolConfigurationToolsList, min 1).
* Usage: ``CompletionUsage`` (prompt/completion/total tokens), Anthropic ``Usage`` (input/output
  tokens), ``ResponseUsage`` and Bedrock ``TokenUsage`` require their counts.
"""

from __future__ import annotations

import base64
import json
import warnings

import pytest

import toolwire
from sdk_validation import validate

# bytes whose standard base64 holds '+' and '/' (so the URL-safe text differs)
JPEG_BYTES = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\xfb\xff\xfe" + bytes(range(250, 256)) * 3


def convert(payload, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(payload, **kw)
    return out, [str(w.message) for w in caught if issubclass(w.category, toolwire.ConversionWarning)]


def chat_with_tool(parameters: dict) -> dict:
    return {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "go"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": parameters}}],
    }


# --- Ollama: tool parameters reduced to what the SDK type models --------------------------------

PYDANTIC_SCHEMA = {
    "$defs": {
        "Address": {
            "type": "object",
            "title": "Address",
            "properties": {"city": {"type": "string", "title": "City"}},
            "required": ["city"],
        }
    },
    "type": "object",
    "title": "Params",
    "additionalProperties": False,
    "properties": {
        "address": {"$ref": "#/$defs/Address", "description": "where"},
        "when": {"type": "string", "format": "date", "title": "When"},
        "count": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1}},
    },
    "required": ["address"],
}


def test_ollama_tool_parameters_are_reduced_and_every_drop_is_reported():
    out, warned = convert(chat_with_tool(PYDANTIC_SCHEMA), source="openai_chat", target="ollama")
    assert validate("ollama", "request", out) == []
    params = out["tools"][0]["function"]["parameters"]
    assert params == {
        "$defs": PYDANTIC_SCHEMA["$defs"],  # taken as any JSON by the SDK type: kept
        "type": "object",
        "properties": {
            "address": {"type": "object", "description": "where"},  # $ref inlined
            "when": {"type": "string"},
            "count": {"type": ["integer", "null"]},  # anyOf of bare types: a type list
            "tags": {"type": "array", "items": {"type": "string", "minLength": 1}},  # items: any JSON
        },
        "required": ["address"],
    }
    text = "\n".join(warned)
    for where in (
        "tools[0].parameters.title",
        "tools[0].parameters.additionalProperties",
        "tools[0].parameters.properties.address.properties",
        "tools[0].parameters.properties.when.format",
        "tools[0].parameters.properties.count.default",
    ):
        assert where in text, where


def test_ollama_tool_parameters_inside_the_subset_pass_unchanged_and_unreported():
    params = {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "a city", "enum": ["Paris", "Rome"]}},
        "required": ["city"],
    }
    out, warned = convert(chat_with_tool(params), source="openai_chat", target="ollama")
    assert out["tools"][0]["function"]["parameters"] == params
    assert not [w for w in warned if "parameters" in w]


def test_ollama_round_trip_keeps_parameters_it_sent_beyond_the_subset():
    body = {
        "model": "qwen3",
        "messages": [{"role": "user", "content": "go"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": PYDANTIC_SCHEMA}}],
        "stream": False,
    }
    out, warned = convert(body, source="ollama", target="ollama")
    assert out == body and warned == []


@pytest.mark.parametrize("name,std", [("dict", "object"), ("OBJECT", "object"), ("str", "string")])
def test_non_standard_type_names_are_normalised_and_reported(name, std):
    params = {"type": "object", "properties": {"x": {"type": name}}}
    out, warned = convert(chat_with_tool(params), source="openai_chat", target="ollama")
    assert out["tools"][0]["function"]["parameters"]["properties"]["x"] == {"type": std}
    assert any(f"type {name!r} is not a JSON Schema type" in w for w in warned)
    root = {"type": "dict", "properties": {}}
    out, warned = convert(chat_with_tool(root), source="openai_chat", target="ollama")
    assert out["tools"][0]["function"]["parameters"]["type"] == "object"
    assert any("type 'dict' is not a JSON Schema type" in w for w in warned)


# --- Gemini: legacy `parameters` and URL-safe base64 -------------------------------------------


def gemini_request(*parts, tools=None) -> dict:
    body = {"contents": [{"role": "user", "parts": list(parts)}]}
    if tools is not None:
        body["tools"] = [{"functionDeclarations": tools}]
    return body


LEGACY = {
    "type": "OBJECT",
    "properties": {"city": {"type": "STRING", "nullable": True}, "days": {"type": "INTEGER"}},
    "required": ["city"],
}


def test_gemini_legacy_parameters_are_json_schema_in_the_ir_and_round_trip_exactly():
    body = gemini_request({"text": "go"}, tools=[{"name": "f", "parameters": LEGACY}])
    req = toolwire.to_ir(body, provider="gemini")
    assert req.tools[0].parameters == {
        "type": "object",
        "properties": {"city": {"type": ["string", "null"]}, "days": {"type": "integer"}},
        "required": ["city"],
    }
    for same in ("gemini", "vertex"):
        out, warned = convert(body, source="gemini", target=same)
        assert out == body and warned == []
    out, _ = convert(body, source="gemini", target="openai_chat")
    assert out["tools"][0]["function"]["parameters"]["type"] == "object"
    out, _ = convert(body, source="gemini", target="gemini_openapi")  # was a WrongTypeError
    assert out["tools"][0]["functionDeclarations"][0]["parameters"]["type"] == "OBJECT"
    out, _ = convert(body, source="gemini", target="ollama", model="m")
    assert validate("ollama", "request", out) == []


def test_a_declaration_without_parameters_gets_the_empty_object_schema_on_anthropic():
    body = gemini_request({"text": "go"}, tools=[{"name": "now", "description": "the time"}])
    out, warned = convert(body, source="gemini", target="anthropic", model="claude")
    assert out["tools"][0]["input_schema"] == {"type": "object", "properties": {}}
    assert validate("anthropic", "request", out) == []
    assert any("input_schema is required by anthropic" in w for w in warned)


def test_gemini_url_safe_base64_becomes_standard_and_round_trips():
    raw = JPEG_BYTES
    urlsafe = base64.urlsafe_b64encode(raw).decode()
    standard = base64.b64encode(raw).decode()
    assert urlsafe != standard
    media = "image/jpeg"
    body = gemini_request({"text": "look"}, {"inlineData": {"mimeType": media, "data": urlsafe}})
    assert toolwire.to_ir(body, provider="gemini").messages[0].parts[1].data == standard
    out, warned = convert(body, source="gemini", target="gemini")
    assert out == body and warned == []
    out, _ = convert(body, source="gemini", target="bedrock_converse")
    assert out["messages"][0]["content"][1]["image"]["source"]["bytes"] == standard
    assert validate("bedrock_converse", "request", out) == []
    out, _ = convert(body, source="gemini", target="anthropic", model="claude")
    assert out["messages"][0]["content"][1]["source"]["data"] == standard
    out, _ = convert(body, source="gemini", target="openai_chat", model="gpt-4.1")
    assert out["messages"][0]["content"][1]["image_url"]["url"] == f"data:{media};base64,{standard}"
    out, _ = convert(body, source="gemini", target="ollama", model="m")  # media type read from the bytes
    assert out["messages"][0]["images"] == [standard]
    assert validate("ollama", "request", out) == []


def test_standard_base64_goes_to_gemini_as_it_is():
    standard = base64.b64encode(JPEG_BYTES).decode()
    body = {
        "model": "claude",
        "max_tokens": 10,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": standard}}],
            }
        ],
    }
    out, _ = convert(body, source="anthropic", target="gemini")
    assert out["contents"][0]["parts"][0]["inlineData"]["data"] == standard


# --- no empty required lists, no null items ----------------------------------------------------


def test_bedrock_tool_config_is_left_out_when_no_tool_can_be_sent():
    body = {
        "model": "claude",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "search"}],
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
        "tool_choice": {"type": "any"},
    }
    out, warned = convert(body, source="anthropic", target="bedrock_converse")
    assert "toolConfig" not in out
    assert validate("bedrock_converse", "request", out) == []
    assert any("has no bedrock_converse equivalent" in w for w in warned)
    assert any("tool choice 'required' without tools" in w for w in warned)


def test_a_result_part_the_target_cannot_express_leaves_no_null_behind():
    body = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "get it"},
            {"type": "function_call", "call_id": "call_1", "name": "get_file", "arguments": "{}"},
            {
                "type": "function_call_output",
                "call_id": "call_1",
                # a Word file: Anthropic documents are PDF or plain text only
                "output": [{"type": "input_file", "filename": "a.docx",
                            "file_data": "data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,UEsDBA=="}],
            },
        ],
    }
    out, warned = convert(body, source="openai_responses", target="anthropic")
    result = out["messages"][2]["content"][0]
    assert result["type"] == "tool_result" and None not in (result.get("content") or [])
    assert validate("anthropic", "request", out) == []
    assert any("cannot express FilePart" in w for w in warned)


# --- usage: required counts are sent (0, reported) ---------------------------------------------

GEMINI_RESPONSE = {
    "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5},  # no candidatesTokenCount
    "modelVersion": "gemini-2.5-flash",
}


@pytest.mark.parametrize(
    "target,missing",
    [
        ("anthropic", "output_tokens"),
        ("openai_chat", "completion_tokens"),
        ("groq", "completion_tokens"),
        ("openai_responses", "output_tokens"),
        ("bedrock_converse", "outputTokens"),
    ],
)
def test_absent_gemini_usage_counts_are_zero_on_every_target(target, missing):
    out, warned = convert(GEMINI_RESPONSE, source="gemini", target=target, kind="response", model="m")
    assert validate(target, "response", out) == []
    usage = out["usage"]
    assert usage[missing] == 0
    # proto3 JSON leaves zero counts out: Gemini's absent candidatesTokenCount is read as 0
    # (usage rules `absent_as: 0`, from wip-accept), so the target gets a real 0 and nothing is lost
    assert not any(f"{missing} is required by" in w for w in warned), warned
    assert json.dumps(usage)  # plain JSON


# --- provider data travels only back to the provider it came from (or its declared group) -------


def groq_response(**extra) -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "llama-3.3-70b-versatile",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        **extra,
    }


def test_groq_only_fields_do_not_leak_into_openai_chat():
    # Groq responses carry x_groq and service_tier "on_demand" (console.groq.com/docs/api-reference
    # #chat-create); OpenAI's ChatCompletion.service_tier is auto | default | flex | scale | priority.
    body = groq_response(service_tier="on_demand", x_groq={"id": "req_1"})
    out, warned = convert(body, source="groq", target="groq", kind="response")
    assert out == body and warned == []
    out, warned = convert(body, source="groq", target="openai_chat", kind="response")
    assert "service_tier" not in out and "x_groq" not in out
    assert validate("openai_chat", "response", out) == []
    assert any("service_tier" in w and "x_groq" in w for w in warned)


def test_openai_chat_only_fields_do_not_leak_into_its_flavours():
    body = {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "hi"}],
        "logit_bias": {"50256": -100},  # Groq answers 400 for it (console.groq.com/docs/openai)
    }
    out, warned = convert(body, source="openai_chat", target="openai_chat")
    assert out == body and warned == []
    for flavour in ("groq", "fireworks", "deepseek"):
        out, warned = convert(body, source="openai_chat", target=flavour)
        assert "logit_bias" not in out, flavour
        assert any("logit_bias" in w for w in warned), flavour


def test_gemini_and_vertex_share_their_provider_data_both_ways():
    # A flavour that declares `provider_data: family` (same wire format and semantics).
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "c2ln"}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"output": 1}}}]},
        ]
    }
    for source, target in (("gemini", "vertex"), ("vertex", "gemini"), ("gemini", "gemini_openapi")):
        out, warned = convert(body, source=source, target=target)
        assert out["contents"][1]["parts"][0]["thoughtSignature"] == "c2ln", (source, target)
        assert not [w for w in warned if "thoughtSignature" in w]
    out, warned = convert(body, source="gemini", target="anthropic", model="claude")
    assert "thoughtSignature" not in json.dumps(out)


# --- non-standard type names: one rule for every target -----------------------------------------

BFCL_STYLE = {  # Berkeley Function Calling Leaderboard style: Python type names
    "type": "dict",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "str"}}},
    "required": ["city"],
}


@pytest.mark.parametrize("target", sorted(set(toolwire.PROVIDERS) - {"openai_chat"}))
def test_dict_type_is_sent_as_object_to_every_target_and_reported(target):
    out, warned = convert(chat_with_tool(BFCL_STYLE), source="openai_chat", target=target, model="m")
    # read back: the schema the target received (Cohere v1 writes "str" in its own Python notation)
    sent = json.dumps([t.parameters for t in toolwire.to_ir(out, provider=target).tools])
    assert '"dict"' not in sent and '"str"' not in sent and '"object"' in sent, sent
    if '"properties"' in json.dumps(out):  # the target's tools carry JSON Schema: the rewritten type is reported
        assert any("type 'dict' is not a JSON Schema type" in w for w in warned), warned
    assert validate(target, "request", out) == []


def test_a_provider_that_sent_dict_gets_it_back():
    body = chat_with_tool(BFCL_STYLE)
    out, warned = convert(body, source="openai_chat", target="openai_chat")
    assert out == body and warned == []
    out, warned = convert(body, source="openai_chat", target="groq")
    assert out["tools"][0]["function"]["parameters"]["type"] == "object"


# --- no half-built parts ------------------------------------------------------------------------


def test_an_image_url_goes_to_gemini_as_file_data_not_as_an_empty_part():
    # Part: exactly one of inlineData (Blob: mimeType, data) / fileData (FileData: fileUri)
    # (https://ai.google.dev/api/caching#Part); the first image variant used to be sent without data.
    body = {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "https://example.org/a.png"}}]}],
    }
    for target in ("gemini", "vertex"):
        out, _ = convert(body, source="openai_chat", target=target)
        assert out["contents"][0]["parts"][1] == {"fileData": {"fileUri": "https://example.org/a.png"}}
        assert validate(target, "request", out) == []


def test_an_image_with_neither_data_nor_url_is_dropped_whole_and_reported():
    req = toolwire.to_ir({"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "look"}]}]}, provider="openai_chat")
    req.messages[0].parts.append(toolwire.ir.ImagePart(media_type="image/png"))
    for target in ("gemini", "bedrock_converse"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = toolwire.from_ir(req, provider=target)
        assert "{}" not in json.dumps(out), target
        assert any("cannot express ImagePart" in str(w.message) for w in caught), target


# A turn made only of content the target cannot express (a Gemini executableCode / codeExecutionResult
# turn, an Anthropic turn of server tool blocks) would be sent with empty content, which the APIs
# reject (Anthropic: "all messages must have non-empty content except for the optional final
# assistant message"; OpenAI Chat: "empty array. Expected an array with minimum length 1").
_CODE_TURN = {"contents": [
    {"role": "user", "parts": [{"text": "Compute 2**10."}]},
    {"role": "model", "parts": [{"executableCode": {"language": "PYTHON", "code": "print(2**10)"}},
                                {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1024\n"}}]},
    {"role": "user", "parts": [{"text": "And 2**11?"}]},
]}


@pytest.mark.parametrize("target", sorted(set(toolwire.PROVIDERS) - {"gemini", "vertex", "gemini_openapi"}))
def test_a_turn_of_only_foreign_content_is_dropped_whole_and_reported(target):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(_CODE_TURN, source="gemini", target=target, model="m-1")
    messages = out.get("messages", out.get("input", out.get("chat_history", [])))  # chat_history: Cohere v1
    assert all(m.get("content") not in ([], "", None) for m in messages if isinstance(m, dict) and "content" in m)
    assert "Compute 2**10." in json.dumps(out) and "And 2**11?" in json.dumps(out)
    assert validate(target, "request", out) == []
    assert any("nothing " + target + " can express; dropped" in str(w.message) for w in caught)


def test_a_turn_of_only_foreign_content_stays_for_its_own_family():
    assert json.dumps(toolwire.convert(_CODE_TURN, source="gemini", target="gemini")) == json.dumps(_CODE_TURN)
    out = toolwire.convert(_CODE_TURN, source="gemini", target="vertex")
    assert out["contents"][1] == _CODE_TURN["contents"][1]  # vertex shares gemini's provider data


# Two consecutive user messages become one turn where the target merges turns. A carried field of
# the second message used to vanish with it (the merged turn kept only the first's provider data).
@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock_converse", "cohere"])
def test_fields_of_a_message_merged_into_the_previous_one_are_reported_not_lost(target):
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b", "x_tag": 1}]}
    out, caught = convert(body, source="openai_chat", target=target, model="m-1")
    assert "x_tag" not in json.dumps(out)
    assert any("x_tag" in w for w in caught), caught


def test_merged_messages_keep_both_carried_fields_and_report_a_conflict():
    from toolwire import ir
    from toolwire_runtime import layout
    from toolwire_runtime.context import Context

    def msg(text, **fields):
        return ir.Message(role="user", parts=[ir.TextPart(text=text)], provider_data=ir.ProviderData(provider="p", fields=fields))

    ctx = Context("q")
    merged = layout.merge_turns([msg("a", k1=1, same=0), msg("b", k2=2, same=0)], {}, "q", "messages", ctx)
    assert len(merged) == 1 and merged[0].provider_data.fields == {"k1": 1, "same": 0, "k2": 2}
    assert ctx.losses == []
    ctx = Context("q")
    merged = layout.merge_turns([msg("a", k=1), msg("b", k=2)], {}, "q", "messages", ctx)
    assert merged[0].provider_data.fields == {"k": 1}
    assert [m for _, m in ctx.losses] == ["p fields k of a message merged into the previous one have no place; dropped"]
