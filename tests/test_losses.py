"""The specs' machine-readable losses (`cannot_express` `ir:`) mean what their prose says.

tests/losses.py plays them on IR requests for the property and fixture tests; these cases pin down
each effect kind on a real provider's spec, and check them against what the converters do.
"""

from __future__ import annotations

import importlib
import json
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import ir

import losses

FIXTURES = Path(__file__).parent / "fixtures"
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def assert_round_trips_silently(body: dict, provider: str) -> None:
    """A same-provider conversion gives ``body`` back, key order included, with no LossWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.LossWarning)
        out = toolwire.convert(body, source=provider, target=provider, kind="request")
    assert json.dumps(out) == json.dumps(body)


def request(*, choice=None, error=False, image=None, result="sunny", calls=True, **fields) -> ir.Request:
    user: list = [ir.TextPart(text="Weather in Tokyo?")]
    if image is not None:
        user.append(image)
    messages = [ir.Message(role="user", parts=user)]
    if calls:
        messages += [
            ir.Message(role="assistant", parts=[ir.ToolCall(id="call_1", name="get_weather", arguments={"city": "Tokyo"})]),
            ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="call_1", name="get_weather", result=result, is_error=error)]),
        ]
    tools = [ir.ToolDefinition(name="get_weather", parameters={"type": "object", "properties": {}})]
    return ir.Request(messages=messages, model="m", tools=tools, tool_choice=choice, max_tokens=64, **fields)


def parts(req: ir.Request) -> list:
    return [p for m in req.messages for p in m.parts]


def round_trip(provider: str, req: ir.Request) -> tuple[ir.Request, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = toolwire.to_ir(toolwire.from_ir(req, provider=provider), provider=provider)
    return back, [str(w.message) for w in caught if issubclass(w.category, toolwire.LossWarning)]


def test_error_as_text():
    out = losses.apply("openai_chat", request(error=True, result={"code": 1}))
    result = parts(out.node)[-1]
    assert (result.result, result.is_error, out.changed, out.reported) == ('Error: {"code":1}', False, True, True)
    back, reported = round_trip("openai_chat", request(error=True, result={"code": 1}))
    assert parts(back)[-1].result == result.result and reported


def test_unset_and_its_report():
    out = losses.apply("anthropic", request(temperature=0.5, top_k=3))
    assert (out.node.temperature, out.node.top_k, out.reported) == (None, None, True)
    back, reported = round_trip("anthropic", request(temperature=0.5, top_k=3))
    assert (back.temperature, back.top_k) == (None, None) and reported


def test_an_effect_that_does_not_apply_changes_nothing():
    out = losses.apply("anthropic", request())
    assert not out.changed and not out.reported


def test_drop_a_part_class():
    image = ir.ImagePart(data=PNG, media_type="image/png")
    out = losses.apply("deepseek", request(image=image))
    assert ir.ImagePart not in map(type, parts(out.node)) and out.reported
    assert ir.ImagePart in map(type, parts(request(image=image)))  # the input is not modified


def test_drop_when_a_field_matches_a_glob():
    by_url = ir.ImagePart(url="https://example.com/a.png", media_type="image/png")
    in_s3 = ir.ImagePart(url="s3://bucket/a.png", media_type="image/png")
    assert losses.apply("bedrock_converse", request(image=by_url)).changed
    assert not losses.apply("bedrock_converse", request(image=in_s3)).changed


def test_set_when():
    out = losses.apply("cohere", request(choice=ir.ToolChoice(mode="tool", name="get_weather")))
    assert (out.node.tool_choice.mode, out.node.tool_choice.name) == ("required", None)
    assert not losses.apply("cohere", request(choice=ir.ToolChoice(mode="auto"))).changed


def test_unless_parts():
    none = ir.ToolChoice(mode="none")
    without_calls = losses.apply("bedrock_converse", request(choice=none, calls=False)).node
    with_calls = losses.apply("bedrock_converse", request(choice=none)).node
    assert (without_calls.tools, without_calls.tool_choice) == (None, None)
    assert with_calls.tools is not None and with_calls.tool_choice is None


def test_from_data():
    image = ir.ImagePart(data=PNG, media_type="image/jpeg")  # the bytes are a PNG
    out = losses.apply("ollama", request(image=image))
    assert [p.media_type for p in parts(out.node) if type(p) is ir.ImagePart] == ["image/png"]


def test_result_as_text_is_not_a_report():
    out = losses.apply("openai_chat", request(result=42))
    assert (parts(out.node)[-1].result, out.changed, out.reported) == ("42", True, False)
    assert parts(losses.apply("openai_chat", request(result={"a": 1})).node)[-1].result == {"a": 1}


def test_ids():
    assert losses.ids_not_kept("vertex") and losses.ids_not_kept("mistral") and not losses.ids_not_kept("gemini")
    assert losses.ids_refitted("mistral") and not losses.ids_refitted("ollama")


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
def test_every_effect_belongs_to_a_documented_loss(provider):
    module = importlib.import_module(f"toolwire.providers.{provider}")
    documented = {what for what, _ in module.CANNOT_EXPRESS}
    assert {what for what, _ in module.IR_LOSSES} <= documented


def test_a_child_inherits_its_parents_effects_and_retractions():
    assert {"error_as_text": "Error: "} in losses.effects("groq")  # openai_chat's
    assert {"unset": "Request.top_k"} in losses.effects("openai_chat")
    assert {"unset": "Request.top_k"} not in losses.effects("fireworks")  # retracted: Fireworks has top_k


@pytest.mark.parametrize("target", ["anthropic", "anthropic_bedrock", "anthropic_vertex"])
def test_a_response_whose_content_list_is_the_whole_message_reports_what_else_the_message_carries(target):
    """Anthropic's response has no message object: its `content` list is the message (transform
    `message_parts`). What an IR message carries besides its parts has no place there and is
    reported, as every other target's message codec reports it: OpenAI Chat's `refusal`
    (ChatCompletionMessage.refusal, kept as its provider data), a name, a weight."""
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": None, "refusal": "I can't help with that."}, "finish_reason": "stop"}]}
    with pytest.warns(toolwire.LossWarning, match="openai_chat fields refusal have no"):
        toolwire.convert(body, source="openai_chat", target=target, kind="response")
    response = ir.Response(message=ir.Message(role="assistant", parts=[ir.TextPart(text="Hi")], name="bot", weight=0.0), id="msg_1", model="claude-sonnet-4-5")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.from_ir(response, provider=target)
    reported = [str(w.message) for w in caught if issubclass(w.category, toolwire.LossWarning)]
    assert any("Message.name" in r for r in reported) and any("Message.weight" in r for r in reported)
    assert out["content"] == [{"type": "text", "text": "Hi"}]
    with pytest.raises(toolwire.LossError, match="refusal"):  # strict: a loss is an error
        toolwire.convert(body, source="openai_chat", target=target, kind="response", strict=True)


def test_a_turn_whose_parts_all_become_items_of_their_own_reports_what_the_message_carries():
    """Responses lays a turn out as items: its text in a message item, which holds the message's own
    fields, and each call in a function_call item. A turn of calls only has no message item: what
    the message carries besides its parts (an OpenAI Chat response's refusal, an assistant
    message's name) has nowhere to go and is reported, in a response and in a request alike."""
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": None, "refusal": "No.", "tool_calls": [call]}, "finish_reason": "tool_calls"}]}
    with pytest.warns(toolwire.LossWarning, match=r"message\[0\]: openai_chat fields refusal have no openai_responses equivalent"):
        out = toolwire.convert(body, source="openai_chat", target="openai_responses", kind="response")
    assert [item["type"] for item in out["output"]] == ["function_call"]
    req = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "name": "planner", "content": None, "tool_calls": [call]},
                                            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]}
    with pytest.warns(toolwire.LossWarning, match=r"messages\[1\]\.name: openai_responses has no place for Message.name"):
        toolwire.convert(req, source="openai_chat", target="openai_responses", kind="request")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same provider keeps both: nothing to report
        assert toolwire.convert(req, source="openai_chat", target="openai_chat", kind="request") == req


@pytest.mark.parametrize("target", ["openai_chat", "azure_openai", "groq", "deepseek", "fireworks", "xai", "openrouter", "ollama", "cohere_v1"])
def test_a_text_part_joined_into_a_string_reports_what_else_it_carries(target):
    """A response whose content is one string (OpenAI ChatCompletionMessage.content) joins the text
    parts: what a part carries besides its text (an Anthropic text block's citations) has no place
    in a string and is reported, as a target whose content holds parts reports it."""
    citation = {"type": "char_location", "cited_text": "22°C", "document_index": 0, "document_title": "Forecast", "start_char_index": 0, "end_char_index": 4}
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": "It is 22°C.", "citations": [citation]}],
            "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}
    with pytest.warns(toolwire.LossWarning, match=r"message.parts\[0\]: anthropic fields citations have no"):
        out = toolwire.convert(body, source="anthropic", target=target, kind="response")
    assert "It is 22°C." in json.dumps(out, ensure_ascii=False)


def test_a_hoisted_system_message_and_an_implied_tool_choice_report_what_they_carry():
    """A system message hoisted into Anthropic's `system` (a prompt, not a message) and a tool choice
    Ollama says by leaving `tool_choice` out (auto) have no place for the fields another provider's
    payload carried on them: reported, not dropped without a word."""
    req = {"model": "gpt-4.1", "messages": [{"role": "system", "name": "policy", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(req, source="openai_chat", target="anthropic", kind="request", model="claude-sonnet-4-5")
    assert out["system"] == "Be brief."
    assert any("messages[0].name" in str(w.message) and "Message.name" in str(w.message) for w in caught)
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}],
            "tools": [{"name": "f", "input_schema": {"type": "object"}}], "tool_choice": {"type": "auto", "x_newer_option": True}}  # (a key the IR does not know, as a newer API version may add)
    with pytest.warns(toolwire.LossWarning, match="tool_choice: anthropic fields x_newer_option have no ollama equivalent"):
        out = toolwire.convert(body, source="anthropic", target="ollama", kind="request", model="llama3.1")
    assert "tool_choice" not in out


def test_the_keys_of_an_object_a_transform_reads_are_not_all_its_keys():
    """A transform that reads an object whose keys it declares (`key_order`: Gemini's
    functionCallingConfig {mode, allowedFunctionNames}, an Anthropic image or document `source`)
    leaves the object's other keys to the codec, which carries them as a nested object's unknown
    keys are carried: back to the same provider in place, reported elsewhere. Gemini's
    `streamFunctionCallArguments` (google-genai types.FunctionCallingConfig.stream_function_call_arguments)
    was dropped on the way in, even for a Gemini → Gemini round trip."""
    body = {"contents": [{"role": "user", "parts": [{"text": "Weather in Tokyo?"}]}],
            "tools": [{"functionDeclarations": [{"name": "get_weather", "parametersJsonSchema": {"type": "object"}}]}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO", "streamFunctionCallArguments": True}}}
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.LossWarning)
        assert toolwire.convert(body, source="gemini", target="gemini", kind="request") == body
    with pytest.warns(toolwire.LossWarning, match="gemini fields functionCallingConfig have no openai_chat equivalent"):
        toolwire.convert(body, source="gemini", target="openai_chat", kind="request", model="gpt-4.1")
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG, "x_newer_key": "kept"}}  # (a key the transform does not read)
    req = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": [image, {"type": "text", "text": "What is this?"}]}]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.LossWarning)
        assert toolwire.convert(req, source="anthropic", target="anthropic", kind="request") == req
    with pytest.warns(toolwire.LossWarning, match="anthropic fields source have no openai_chat equivalent"):
        toolwire.convert(req, source="anthropic", target="openai_chat", kind="request", model="gpt-4.1")


def test_a_bedrock_document_source_keeps_a_key_beside_its_bytes():
    """Bedrock's DocumentSource is a union of one member (bytes, s3Location, text, content:
    `bytes_source`, whose key_order names them); a key beside the member is the codec's to carry,
    as for the transforms above: back to Bedrock in place, reported elsewhere."""
    doc = {"document": {"format": "pdf", "name": "report", "source": {"bytes": "JVBERi0xLjQK", "x_newer_key": "kept"}}}  # (a key the transform does not read)
    body = {"messages": [{"role": "user", "content": [{"text": "Summarize this."}, doc]}]}  # (the model is in the URL)
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.LossWarning)
        assert toolwire.convert(body, source="bedrock_converse", target="bedrock_converse", kind="request") == body
    with pytest.warns(toolwire.LossWarning, match="bedrock_converse fields document.source have no anthropic equivalent"):
        toolwire.convert(body, source="bedrock_converse", target="anthropic", kind="request", model="claude-sonnet-4-5")


def test_an_s3_location_keeps_its_bucket_owner_and_goes_to_no_provider_that_cannot_fetch_it():
    """An s3Location's keys beside its uri (`bucketOwner`: the account the bucket belongs to, which
    Bedrock checks; botocore S3Location) are kept by `bytes_source`'s hint, back to Bedrock in place
    (`carries`: reported by any other provider that took the uri). No other provider reads an s3://
    (or gs://) URI: such a part is dropped and reported (`when: "url !s3:// !gs://"`), where it was sent
    as a URL the API cannot fetch, and its bucketOwner dropped without a word."""
    location = {"uri": "s3://bucket-1/report.pdf", "bucketOwner": "111122223333", "x_newer_key": {"kept": 1}}
    doc = {"document": {"format": "pdf", "name": "report", "source": {"s3Location": location}}}
    body = {"messages": [{"role": "user", "content": [{"text": "Summarize this."}, doc]}]}
    assert_round_trips_silently(body, "bedrock_converse")
    for target in ("anthropic", "gemini", "openai_responses", "openai_chat", "mistral"):
        with pytest.warns(toolwire.LossWarning, match=r"messages\[0\]\.parts\[1\]: \w+ cannot express FilePart \(application/pdf\) here; dropped"):
            out = toolwire.convert(body, source="bedrock_converse", target=target, kind="request", model="m")
        assert "s3://" not in json.dumps(out)
    gcs = {"contents": [{"role": "user", "parts": [{"text": "Describe it."}, {"fileData": {"mimeType": "image/png", "fileUri": "gs://bucket-1/a.png"}}]}]}
    for target in ("anthropic", "openai_chat", "openai_responses", "mistral", "cohere"):
        with pytest.warns(toolwire.LossWarning, match=r"cannot express ImagePart"):
            out = toolwire.convert(gcs, source="vertex", target=target, kind="request", model="m")
        assert "gs://" not in json.dumps(out)


def test_a_cohere_v1_result_keeps_the_keys_of_the_call_it_repeats():
    """Cohere v1's `tool_results[].call` repeats the call a result answers (`computed:
    answered_call`): it is read through the call's codec to pair the result, and rendered from the
    call it answers. A key of it that the codec does not know was dropped, even going back to
    Cohere v1; the result carries it now, as a nested object's unknown keys: back in place, in the
    top-level results and in `chat_history`'s, and reported elsewhere."""
    doc = json.loads((FIXTURES / "multi_turn" / "cohere_v1.json").read_text())
    body = doc["request"]
    body["tool_results"][0]["call"]["x_newer_key"] = {"kept": True}
    body["chat_history"][2]["tool_results"][0]["call"]["x_other_key"] = 2
    assert_round_trips_silently(body, "cohere_v1")
    with pytest.warns(toolwire.LossWarning, match="cohere_v1 fields call have no openai_chat equivalent"):
        toolwire.convert(body, source="cohere_v1", target="openai_chat", kind="request", model="gpt-4.1")
    with pytest.raises(toolwire.LossError, match="fields call"):
        toolwire.convert(body, source="cohere_v1", target="anthropic", kind="request", model="claude-sonnet-4-5", strict=True)


def test_the_final_turn_cohere_v1_takes_into_top_level_keys_reports_what_it_carries():
    """Cohere v1 sends the conversation's final turn as keys beside chat_history (`last_turn`):
    the final results as `tool_results`, the final user text as `message`. Those keys take the
    turn's parts only, so what the turn carries besides them (another provider's fields, a
    name) has no place: it was dropped without a word, as for a hoisted system message."""
    body = json.loads((FIXTURES / "get_weather" / "anthropic.json").read_text())["request"]
    body["messages"][2]["x_newer_key"] = 1  # (the final user turn, holding the results)
    with pytest.warns(toolwire.LossWarning, match=r"messages\[2\]: anthropic fields x_newer_key have no cohere_v1 equivalent"):
        toolwire.convert(body, source="anthropic", target="cohere_v1", kind="request", model="command-r-plus-08-2024")
    chat = {"model": "gpt-4.1", "messages": [{"role": "user", "name": "alice", "content": "Weather in Tokyo?"}]}
    with pytest.warns(toolwire.LossWarning, match=r"messages\[0\]\.name: cohere_v1 has no place for Message\.name"):
        toolwire.convert(chat, source="openai_chat", target="cohere_v1", kind="request", model="command-r-plus-08-2024")


def test_a_transform_whose_hint_keeps_content_says_so_and_other_providers_report_it():
    """A hint goes back to the same provider only. Three transforms kept content in it that the IR
    has no place for, and another provider got nothing and no report: Bedrock's toolConfig members
    besides tools and toolChoice (required_tools), a Cohere tool content item's keys besides its
    document and a document's besides its data, such as its `id` (cohere `Document.id`:
    document_result), and a Responses allowed_tools entry of another type or a key beside an
    entry's name (name_list). Each says what its hint carries (`carries`): back in place for the
    same provider, reported elsewhere."""
    bedrock = json.loads((FIXTURES / "get_weather" / "bedrock_converse.json").read_text())["request"]
    bedrock["toolConfig"]["x_newer_key"] = {"kept": True}
    cohere = json.loads((FIXTURES / "get_weather" / "cohere.json").read_text())["request"]
    item = cohere["messages"][3]["content"][0]
    assert item["type"] == "document"
    item["document"]["id"] = "weather-1"
    responses = {"model": "gpt-4.1", "input": [{"role": "user", "content": "Weather in Tokyo?"}],
                 "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {}}}],
                 "tool_choice": {"type": "allowed_tools", "mode": "required",
                                 "tools": [{"type": "function", "name": "get_weather", "x_newer_key": 1}, {"type": "mcp", "server_label": "deepwiki"}]}}
    cases = [(bedrock, "bedrock_converse", "anthropic", "claude-sonnet-4-5", r"<root>: bedrock_converse fields toolConfig\.x_newer_key have no anthropic equivalent"),
             (cohere, "cohere", "openai_chat", "gpt-4.1", r"messages\[3\]: cohere fields content\.0\.document\.id have no openai_chat equivalent"),
             (responses, "openai_responses", "gemini", None, r"tool_choice: openai_responses fields tools\.0\.x_newer_key, tools\.1 have no gemini equivalent")]
    for body, source, target, model, report in cases:
        assert_round_trips_silently(body, source)
        with pytest.warns(toolwire.LossWarning, match=report):
            toolwire.convert(body, source=source, target=target, kind="request", model=model)


def test_a_mistral_image_url_object_keeps_a_key_beside_its_url_and_detail():
    """Mistral's image_url is a URL or an object {url, detail} (mistralai ImageURLChunk.image_url:
    `str | ImageURL`), read by data_url_or_object. A key of the object besides those two was
    reported as not kept, even going back to Mistral; the transform's key_order names the two it
    reads, so the codec carries any other: back in place, reported elsewhere."""
    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "high", "x_newer_key": 1}}
    body = {"model": "mistral-large-latest", "messages": [{"role": "user", "content": [{"type": "text", "text": "What is this?"}, image]}]}
    assert_round_trips_silently(body, "mistral")
    with pytest.warns(toolwire.LossWarning, match="mistral fields image_url have no openai_chat equivalent"):
        toolwire.convert(body, source="mistral", target="openai_chat", kind="request", model="gpt-4.1")
