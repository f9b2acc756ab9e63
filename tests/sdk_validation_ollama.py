"""Check Ollama /api/chat payloads against the official ollama-python SDK types, made strict.

``validate_ollama(kind, payload)`` returns readable errors, each starting with the path of the
offending key (``[]``: valid), like ``sdk_validation.validate`` (which dispatches ``ollama`` here).

The types are ``ollama._types.ChatRequest`` / ``ChatResponse`` (ollama 0.6.3) and the models they
refer to (Message, Message.ToolCall, Tool, Options), copied strict by sdk_pydantic_strict:

* unknown keys are errors everywhere (the SDK models ignore them);
* ``messages`` items must be ``Message`` and ``options`` must be ``Options`` (the SDK also takes any
  ``Mapping[str, Any]`` there, which would let anything through);
* ``Message.images`` are base64 strings (the SDK's ``Image`` wrapper serializes to exactly that);
* enumerations the SDK types as ``str`` take the values the API documents: ``Message.role``
  (system, user, assistant, tool), ``Tool.type`` (function), ``ChatResponse.done_reason`` (stop,
  length, load, unload).
"""

from __future__ import annotations

from typing import Any, List, Literal, Optional

from ollama._types import ChatRequest, ChatResponse, Message, Tool

from sdk_pydantic_strict import Base64Str, errors, strict_model

__all__ = ["validate_ollama", "OLLAMA_SDK_TYPES", "OLLAMA_STRICT"]

OLLAMA_SDK_TYPES = {"request": ChatRequest, "response": ChatResponse}

_OVERRIDES = {
    (Message, "role"): Literal["system", "user", "assistant", "tool"],
    (Message, "images"): Optional[List[Base64Str]],
    (Tool, "type"): Optional[Literal["function"]],
    (ChatResponse, "done_reason"): Optional[Literal["stop", "length", "load", "unload"]],
}

#: The strict copies payloads are validated against.
OLLAMA_STRICT = {kind: strict_model(tp, _OVERRIDES) for kind, tp in OLLAMA_SDK_TYPES.items()}


def validate_ollama(kind: str, payload: Any) -> list[str]:
    """Errors of ``payload``, a ``kind`` ("request", "response") body of Ollama's /api/chat."""
    return errors(OLLAMA_STRICT[kind], payload)
