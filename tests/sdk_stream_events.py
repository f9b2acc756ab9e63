"""Stream events checked against the official SDKs' stream event types (strict pydantic).

``validate_event(family, event)`` → list of errors for one event as ``toolwire.stream.parse`` gives
it (``{"event"?, "data"}``). Families without a checker here return None (not checked).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Optional

from pydantic import TypeAdapter, ValidationError


def _openai_chat() -> Callable[[Any], None]:
    # openai-python: the type `client.chat.completions.create(stream=True)` yields
    from openai.types.chat import ChatCompletionChunk

    def check(data: Any) -> None:
        ChatCompletionChunk.model_validate(data, strict=True)

    return check


def _anthropic() -> Callable[[Any], None]:
    # anthropic-sdk-python: the type `client.messages.create(stream=True)` yields
    from anthropic.types import RawMessageStreamEvent

    adapter = TypeAdapter(RawMessageStreamEvent)

    def check(data: Any) -> None:
        if isinstance(data, dict) and data.get("type") in ("ping", "error"):
            return  # not members of RawMessageStreamEvent (the SDK handles them before validation)
        adapter.validate_python(data, strict=True)

    return check


def _openai_responses() -> Callable[[Any], None]:
    # openai-python: `client.responses.create(stream=True)` yields ResponseStreamEvent
    from openai.types.responses import ResponseStreamEvent

    adapter = TypeAdapter(ResponseStreamEvent)
    return lambda data: adapter.validate_python(data, strict=True)


def _gemini() -> Callable[[Any], None]:
    # google-genai: `generate_content_stream` yields GenerateContentResponse chunks (lax: proto3 JSON)
    from google.genai import types

    return lambda data: types.GenerateContentResponse.model_validate(data)


def _ollama() -> Callable[[Any], None]:
    # ollama-python: `chat(stream=True)` yields ChatResponse
    from ollama import ChatResponse

    return lambda data: ChatResponse.model_validate(data, strict=False)


def _cohere() -> Callable[[Any], None]:
    # cohere: `client.v2.chat_stream` yields StreamedChatResponseV2
    import cohere

    adapter = TypeAdapter(cohere.StreamedChatResponseV2)
    return lambda data: adapter.validate_python(data)


def _cohere_v1() -> Callable[[Any], None]:
    # cohere: `client.chat_stream` (v1) yields StreamedChatResponse
    import cohere

    adapter = TypeAdapter(cohere.StreamedChatResponse)
    return lambda data: adapter.validate_python(data)


def _bedrock_converse() -> Callable[[Any], None]:
    # botocore's service model: ConverseStream's output event stream (ConverseStreamOutput), walked
    # over the JSON form as sdk_validation_bedrock_converse does for complete bodies
    import botocore.session
    from sdk_validation_bedrock_converse import SERVICE, _check

    model = botocore.session.get_session().get_service_model(SERVICE)
    stream_shape = model.operation_model("ConverseStream").output_shape.members["stream"]

    def check(data: Any) -> None:
        payload = {k: {f: v for f, v in value.items() if f != "p"} if isinstance(value, dict) else value for k, value in data.items()}
        errors: list[str] = []
        _check(stream_shape, payload, "", errors)
        if errors:
            raise ValueError("; ".join(errors))

    return check


def _mistral() -> Callable[[Any], None]:
    # mistralai: `client.chat.stream` yields CompletionEvent(data=CompletionChunk)
    from mistralai.client.models import CompletionChunk

    return lambda data: CompletionChunk.model_validate(data)


CHECKERS: dict[str, Callable[[], Callable[[Any], None]]] = {
    "mistral": _mistral,
    "openai_chat": _openai_chat,
    "openai_responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "ollama": _ollama,
    "cohere": _cohere,
    "cohere_v1": _cohere_v1,
    "bedrock_converse": _bedrock_converse,
}


@lru_cache(maxsize=None)
def checker(family: str) -> Optional[Callable[[Any], None]]:
    make = CHECKERS.get(family)
    return make() if make else None


def validate_event(family: str, event: dict) -> Optional[list[str]]:
    check = checker(family)
    if check is None:
        return None
    if isinstance(event.get("data"), str):
        return []  # a sentinel ([DONE]): not an event the SDK parses
    try:
        check(event["data"])
    except ValidationError as exc:
        return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    except ValueError as exc:
        return [str(exc)]
    return []
