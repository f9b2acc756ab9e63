"""Provider SDK objects as payloads (runtime/toolwire_runtime/sdk_objects.py).

Every object here is a real SDK object, built with the SDK's own ``model_validate`` from a golden
fixture (``tests/fixtures/``, whose sources each file cites) or from a recorded stream
(``../shared/streams``, read in place; those tests skip when it is absent). Each must give exactly
what the equivalent dict gives: the same IR (up to the key-order hints, since a pydantic model
dumps its keys in its class's field order), the same converted bodies and the same warnings.
SDK types: openai ``types.chat.ChatCompletion`` / ``ChatCompletionChunk`` / ``ChatCompletionMessage``,
``types.responses.Response`` / ``ResponseStreamEvent``; anthropic ``types.Message`` /
``RawMessageStreamEvent`` / ``ContentBlock``; google-genai ``types.GenerateContentResponse`` /
``Content`` / ``Tool``; mistralai ``ChatCompletionResponse`` / ``CompletionEvent`` / ``UserMessage``;
cohere ``v2.types.V2ChatResponse`` / ``StreamedChatResponseV2``; ollama ``ChatResponse``; groq
``types.chat.ChatCompletion``.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import stream
from toolwire_runtime import sdk_objects
from toolwire_runtime.sdk_objects import plain

pydantic = pytest.importorskip("pydantic")
openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")
genai_types = pytest.importorskip("google.genai.types")
mistral_models = pytest.importorskip("mistralai.client.models")
cohere = pytest.importorskip("cohere")
ollama = pytest.importorskip("ollama")
groq_chat = pytest.importorskip("groq.types.chat")

from anthropic.types import ContentBlock, Message, RawMessageStreamEvent  # noqa: E402
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessage  # noqa: E402
from openai.types.responses import Response, ResponseFunctionToolCall, ResponseStreamEvent  # noqa: E402
from cohere.v2.types import V2ChatResponse  # noqa: E402
from pydantic import TypeAdapter  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
STREAMS = Path(__file__).resolve().parents[2] / "shared" / "streams"
needs_streams = pytest.mark.skipif(not STREAMS.is_dir(), reason="../shared/streams is not present")

RESPONSE_CLASSES = {
    "openai_chat": ChatCompletion,
    "openai_responses": Response,
    "anthropic": Message,
    "gemini": genai_types.GenerateContentResponse,
    "mistral": mistral_models.ChatCompletionResponse,
    "cohere": V2ChatResponse,
    "ollama": ollama.ChatResponse,
    "groq": groq_chat.ChatCompletion,
}
SCENARIOS = ("get_weather", "parallel_calls", "thinking_then_call", "error_result")
TARGETS = ("openai_chat", "anthropic", "gemini", "bedrock_converse")


def fixture(scenario: str, provider: str) -> dict | None:
    path = FIXTURES / scenario / f"{provider}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def recorded(call, *args, **kwargs):
    """(result, warning messages) of a toolwire call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call(*args, **kwargs)
    return out, [f"{type(w.message).__name__}: {w.message}" for w in caught]


def without_order(node):
    """The IR as plain data, without the key-order hints (``$order``) of its provider data."""
    if dataclasses.is_dataclass(node):
        node = dataclasses.asdict(node)
    if isinstance(node, dict):
        out = {k: without_order(v) for k, v in node.items() if k != "$order"}
        if out.keys() == {"provider", "fields", "hints"}:  # a ProviderData
            out["hints"] = out["hints"] or None
            if out["fields"] is None and out["hints"] is None:
                return None  # it held key-order hints only
        return out
    if isinstance(node, list):
        return [without_order(v) for v in node]
    return node


def same_everywhere(source: str, payload: dict, obj, kind: str, targets=TARGETS) -> None:
    """``obj`` converts exactly like ``payload``: IR, and every target's body with its warnings."""
    want = recorded(toolwire.to_ir, payload, provider=source, kind=kind)
    got = recorded(toolwire.to_ir, obj, provider=source, kind=kind)
    assert without_order(got[0]) == without_order(want[0])
    assert got[1] == want[1]
    for target in (*targets, source):
        want = recorded(toolwire.convert, payload, source=source, target=target, kind=kind, model="m")
        got = recorded(toolwire.convert, obj, source=source, target=target, kind=kind, model="m")
        assert got == want, target


# --- responses ---------------------------------------------------------------------------------


def _response_cases():
    for scenario in SCENARIOS:
        for provider in RESPONSE_CLASSES:
            if fixture(scenario, provider):
                yield pytest.param(scenario, provider, id=f"{scenario}-{provider}")


@pytest.mark.parametrize("scenario, provider", list(_response_cases()))
def test_an_sdk_response_object_converts_like_its_dict(scenario, provider):
    body = fixture(scenario, provider)["response"]
    obj = RESPONSE_CLASSES[provider].model_validate(body)
    assert not isinstance(obj, dict)
    same_everywhere(provider, body, obj, "response")


def test_the_json_of_an_object_read_from_the_api_is_what_the_api_sent():
    # explicit nulls stay (refusal, logprobs, system_fingerprint), nothing the API did not send is added
    body = fixture("get_weather", "openai_chat")["response"]
    assert plain(ChatCompletion.model_validate(body)) == body
    out = toolwire.convert(ChatCompletion.model_validate(body), source="openai_chat", target="openai_chat", kind="response")
    assert out == body
    body = fixture("get_weather", "mistral")["response"]  # mistralai fills prefix: false, an unset default
    assert plain(mistral_models.ChatCompletionResponse.model_validate(body)) == body


def test_gemini_objects_give_the_rest_spelling_and_standard_base64():
    content = {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": "EqUCCqICAb4+9vsh/w=="},
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo+/w=="}}]}
    obj = genai_types.Content.model_validate(content)
    assert obj.to_json_dict()["parts"][0]["function_call"] == {"name": "f", "args": {"a": 1}}  # snake_case: not used
    assert plain(obj) == content  # lowerCamel, and + / kept (pydantic's JSON mode writes - _)


def test_bytes_are_looked_for_only_in_models_whose_fields_can_hold_them():
    """The python-mode dump (which shows bytes) is made only for a model with a field typed bytes
    somewhere in it, through lists, unions, Annotated and models that hold themselves; a type the
    check does not know counts as holding bytes."""
    from typing import Annotated, Any, Literal, Optional, Union
    import datetime

    class Leaf(pydantic.BaseModel):  # (as google-genai's Blob: base64 in JSON)
        model_config = pydantic.ConfigDict(val_json_bytes="base64", ser_json_bytes="base64")
        data: Optional[bytes] = None

    class Node(pydantic.BaseModel):
        children: list["Node"] = []
        leaf: Annotated[Union[Leaf, str, None], "meta"] = None

    class Plain(pydantic.BaseModel):
        kind: Literal["x"] = "x"
        text: Optional[str] = None
        extra: dict[str, Any] = {}
        items: tuple[int, ...] = ()

    class Dated(pydantic.BaseModel):
        at: Optional[datetime.datetime] = None

    Node.model_rebuild()
    assert sdk_objects._holds_bytes(Node) and sdk_objects._holds_bytes(Leaf)
    assert not sdk_objects._holds_bytes(Plain)
    assert sdk_objects._holds_bytes(Dated)  # (not known to hold none)
    assert not sdk_objects._holds_bytes(ChatCompletionChunk)
    node = Node.model_validate_json(json.dumps({"children": [{"leaf": {"data": "EqUCCqICAb4+9vsh/w=="}}]}))
    assert plain(node) == {"children": [{"leaf": {"data": "EqUCCqICAb4+9vsh/w=="}}]}  # standard base64, + and / kept
    assert plain(Plain.model_validate({"text": "a", "extra": {"k": [1]}})) == {"kind": "x", "text": "a", "extra": {"k": [1]}}


def test_the_dump_is_walked_only_where_a_field_may_hold_something_to_complete(monkeypatch):
    """The JSON dump is completed (unset tags, bytes, integral floats) by a walk that goes into a field's
    value only when its type may hold one of those (floats, bytes, a model with a tag, a type not known:
    Any, object, datetime) or when no field declares the key (an SDK model's extra keys)."""
    from typing import Any, Literal, Optional
    import datetime

    class Tagged(pydantic.BaseModel):
        type: Literal["text"] = "text"
        text: str = ""

    class Shapes(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="allow")
        names: list[str] = []
        counts: dict[str, int] = {}
        score: Optional[float] = None
        blocks: list[Tagged] = []
        anything: Any = None
        at: Optional[datetime.datetime] = None
        kind: Literal["a", "b"] = "a"

    keys = sdk_objects._fields_of(Shapes)[2]
    assert keys == {"score", "blocks", "anything", "at"}
    assert sdk_objects._fields_of(ChatCompletionChunk)[2] >= {"choices"}
    assert "delta" not in sdk_objects._fields_of(type(ChatCompletionChunk.model_validate(
        {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {}}]}).choices[0]))[2]
    obj = Shapes.model_validate({"names": ["x"], "counts": {"n": 1}, "score": 2.0, "blocks": [{"text": "t"}], "anything": {"v": 3.0}, "more": {"w": 4.0}})
    assert plain(obj) == {"names": ["x"], "counts": {"n": 1}, "score": 2, "blocks": [{"type": "text", "text": "t"}],
                          "anything": {"v": 3}, "more": {"w": 4}}  # (the tag added, every integral float an int)
    walked = []
    complete = sdk_objects._complete

    def counted(o, given, raw):
        walked.append(given)
        return complete(o, given, raw)

    monkeypatch.setattr(sdk_objects, "_complete", counted)
    chunk = ChatCompletionChunk.model_validate({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [
        {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}, "finish_reason": None}]})
    want = chunk.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert plain(chunk) == want
    assert not any("tool_calls" in w for w in walked if type(w) is dict)  # (the delta: strings and ints only)


def test_cohere_float_counts_come_back_as_integers():
    body = fixture("get_weather", "cohere")["response"]
    obj = V2ChatResponse.model_validate(body)
    assert obj.usage.tokens.input_tokens == 318.0 and type(obj.usage.tokens.input_tokens) is float
    assert plain(obj)["usage"] == body["usage"]
    assert type(plain(obj)["usage"]["tokens"]["input_tokens"]) is int


def test_objects_built_in_code_get_their_role_tags_and_no_other_default():
    # mistralai's UserMessage defaults role to "user" (a Literal tag); ToolCall.id defaults to the
    # string "null" and AssistantMessage.prefix to false: neither is written
    assert plain(mistral_models.UserMessage(content="hi")) == {"role": "user", "content": "hi"}
    call = mistral_models.ToolCall(id="abc123def", function=mistral_models.FunctionCall(name="f", arguments="{}"))
    assert plain(call) == {"function": {"name": "f", "arguments": "{}"}, "id": "abc123def"}
    assert plain(mistral_models.ToolCall(function=mistral_models.FunctionCall(name="f", arguments="{}"))) == {
        "function": {"name": "f", "arguments": "{}"}}
    assert plain(mistral_models.AssistantMessage(content="x")) == {"role": "assistant", "content": "x"}
    assert plain(cohere.UserChatMessageV2(content="hi")) == {"role": "user", "content": "hi"}


# --- SDK objects inside a request dict ---------------------------------------------------------


def test_openai_chat_messages_may_be_sdk_messages():
    body = fixture("get_weather", "openai_chat")["request"]
    assistant = ChatCompletionMessage.model_validate(body["messages"][2])  # content: null beside tool_calls
    assert plain(assistant)["content"] is None
    mixed = {**body, "messages": [*body["messages"][:2], assistant, body["messages"][3]]}
    same_everywhere("openai_chat", body, mixed, "request")
    assert toolwire.convert(mixed, source="openai_chat", target="openai_chat") == body


def test_anthropic_assistant_content_may_be_the_sdk_blocks():
    # the usual loop: messages.append({"role": "assistant", "content": message.content})
    body = fixture("get_weather", "anthropic")["request"]
    blocks = [TypeAdapter(ContentBlock).validate_python(b) for b in body["messages"][1]["content"]]
    mixed = json.loads(json.dumps(body))
    mixed["messages"][1]["content"] = blocks
    same_everywhere("anthropic", body, mixed, "request")


def test_responses_input_may_hold_output_items():
    # input += response.output
    body = fixture("get_weather", "openai_responses")["request"]
    item = ResponseFunctionToolCall.model_validate(body["input"][1])
    mixed = {**body, "input": (body["input"][0], item, body["input"][2])}  # a tuple, too
    same_everywhere("openai_responses", body, mixed, "request")


def test_gemini_contents_and_tools_may_be_genai_types():
    body = fixture("get_weather", "gemini")["request"]
    mixed = {**body, "contents": [genai_types.Content.model_validate(c) for c in body["contents"]],
             "tools": [genai_types.Tool.model_validate(t) for t in body["tools"]]}
    same_everywhere("gemini", body, mixed, "request")


def test_mistral_messages_may_be_sdk_messages():
    body = fixture("get_weather", "mistral")["request"]
    mixed = {**body, "messages": [mistral_models.UserMessage(content=body["messages"][1]["content"]) if i == 1 else m
                                  for i, m in enumerate(body["messages"])]}
    same_everywhere("mistral", body, mixed, "request")


def test_an_object_toolwire_cannot_read_is_still_an_error_with_its_path():
    body = fixture("get_weather", "openai_chat")["request"]
    bad = {**body, "messages": [*body["messages"][:2], object()]}
    with pytest.raises(toolwire.WrongTypeError) as err:
        toolwire.to_ir(bad, provider="openai_chat")
    assert err.value.path == "messages[2]"


def test_a_plain_dict_never_reaches_the_sdk_object_reader(monkeypatch):
    body = fixture("get_weather", "openai_chat")["request"]
    assert plain(body) is body  # nothing to replace: the same object back

    def refuse(value):
        raise AssertionError("a plain dict payload went through sdk_objects.plain")

    monkeypatch.setattr(sdk_objects, "plain", refuse)
    assert toolwire.convert(body, source="openai_chat", target="anthropic", model="m")
    assert toolwire.to_ir(body, provider="openai_chat").messages
    monkeypatch.undo()
    with pytest.raises(toolwire.WrongTypeError) as err:  # a bad dict is searched for objects, then fails as before
        toolwire.to_ir({**body, "messages": 3}, provider="openai_chat")
    assert err.value.path == "messages"


# --- streams -----------------------------------------------------------------------------------

STREAM_CASES = {
    # provider: (recorded stream, the SDK's event type, wraps each payload as the SDK yields it)
    "anthropic": ("anthropic__anthropic-sdk-python__tool_use_response.json", RawMessageStreamEvent, None),
    "openai_chat": ("openai_chat__openai-python__c6aa7e397b71.json", ChatCompletionChunk, None),
    "openai_responses": ("openai_responses__pydantic-ai__test_reused_tool_call_ids-stream__i1.json", ResponseStreamEvent, None),
    "gemini": ("gemini__pydantic-ai__test_google_streaming_tool_call_thought_signature__i0.json", genai_types.GenerateContentResponse, None),
    "mistral": ("mistral__openinference__ing_chat_completions_with_tool_call_response_emits_expected_spans-True__i0.json", mistral_models.CompletionEvent, "data"),
    "cohere": ("cohere__ai__cohere-tool-call.json", cohere.StreamedChatResponseV2, None),
    "ollama": ("ollama__openllmetry__test_ollama_streaming_chat_legacy__i0.json", ollama.ChatResponse, None),
}


def _sdk_events(provider: str) -> tuple[list, list]:
    """(the recorded events, the same events as the SDK's objects, as its stream iterator yields them:
    no Anthropic ping, no [DONE] terminator)."""
    name, event_type, wrap = STREAM_CASES[provider]
    events = json.loads((STREAMS / name).read_text(encoding="utf-8"))["events"]
    adapter = TypeAdapter(event_type)
    objects = []
    for event in events:
        data = event["data"]
        if isinstance(data, str) or data.get("type") == "ping":
            continue
        objects.append(adapter.validate_python({wrap: data} if wrap else data))
    return events, objects


@needs_streams
@pytest.mark.parametrize("provider", list(STREAM_CASES))
def test_a_stream_of_sdk_event_objects_accumulates_like_the_recorded_stream(provider):
    events, objects = _sdk_events(provider)
    assert objects and not isinstance(objects[0], dict)
    want = recorded(stream.accumulate, events, provider=provider, as_provider=True)
    got = recorded(stream.accumulate, objects, provider=provider, as_provider=True)
    assert got == want
    assert want[1] == []  # a complete recording: no early end (the SDK read [DONE] itself)
    assert without_order(stream.accumulate(objects, provider=provider)) == without_order(stream.accumulate(events, provider=provider))
    target = "openai_chat" if provider == "anthropic" else "anthropic"
    assert recorded(lambda: list(stream.convert(objects, source=provider, target=target))) == recorded(
        lambda: list(stream.convert(events, source=provider, target=target)))


def _decoded(monkeypatch, acc) -> list:
    """The names of the events ``acc``'s decoder reads (the others took the repeat path), but for
    the framing's terminator ([DONE]), which an SDK's iterator reads itself."""
    calls: list = []
    decode = acc._decode

    def counted(st, name, e):
        if name[:1] != "[":
            calls.append(name)
        decode(st, name, e)

    monkeypatch.setattr(acc, "_decode", counted)
    return calls


@needs_streams
@pytest.mark.parametrize("provider", list(STREAM_CASES))
def test_sdk_event_objects_take_the_repeat_path_as_their_json_does(provider, monkeypatch):
    """Fragments given as SDK objects are replayed as the same events given as dicts are: the decoder
    reads the same events when accumulating, and when translating (the hot path reads the object's
    JSON), and the translation is the same."""
    events, objects = _sdk_events(provider)
    # the objects' JSON as dicts, with the recording's terminator ([DONE]: the SDK reads it itself)
    payloads = [plain(o) for o in objects] + [e for e in events if isinstance(e["data"], str)]
    decoded, translated = {}, {}
    for name, given in (("dicts", payloads), ("objects", objects)):
        acc = stream.Accumulator(provider)
        calls = _decoded(monkeypatch, acc)
        acc.extend(given)
        decoded[name] = len(calls)
        target = "openai_chat" if provider == "anthropic" else "anthropic"
        src, enc = stream._encoder(provider, target, False)
        calls = _decoded(monkeypatch, src)
        translated[name] = (recorded(lambda: list(enc.run(src, given)) + enc.finish(src)), len(calls))
    assert decoded["objects"] == decoded["dicts"]
    assert translated["objects"] == translated["dicts"]
    if provider in ("anthropic", "openai_chat", "cohere"):  # (these recordings repeat fragments)
        assert decoded["objects"] < len(objects) and translated["objects"][1] < len(objects)


@needs_streams
def test_sdk_chunks_without_done_are_a_complete_stream_but_dict_chunks_are_not():
    events, objects = _sdk_events("openai_chat")
    payloads = [e["data"] for e in events if e["data"] != "[DONE]"]
    assert recorded(stream.accumulate, objects, provider="openai_chat")[1] == []
    assert any("StreamEndedEarlyWarning" in w for w in recorded(stream.accumulate, payloads, provider="openai_chat")[1])


def test_events_of_takes_an_sdk_response():
    body = fixture("get_weather", "anthropic")["response"]
    assert stream.events_of(Message.model_validate(body), provider="anthropic") == stream.events_of(body, provider="anthropic")
