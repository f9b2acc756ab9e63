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
        if data == "[DONE]":
            return
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


CHECKERS: dict[str, Callable[[], Callable[[Any], None]]] = {
    "openai_chat": _openai_chat,
    "anthropic": _anthropic,
}


@lru_cache(maxsize=None)
def checker(family: str) -> Optional[Callable[[Any], None]]:
    make = CHECKERS.get(family)
    return make() if make else None


def validate_event(family: str, event: dict) -> Optional[list[str]]:
    check = checker(family)
    if check is None:
        return None
    try:
        check(event["data"])
    except ValidationError as exc:
        return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    return []
