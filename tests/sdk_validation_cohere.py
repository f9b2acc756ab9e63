"""Check Cohere v2 chat payloads against the official cohere-python SDK types, made strict.

``validate_cohere(kind, payload)`` returns readable errors, each starting with the path of the
offending key (``[]``: valid), like ``sdk_validation.validate`` (which dispatches ``cohere`` here).

* The request body: the SDK has no model of it; it is declared here from the keyword arguments of
  ``cohere.v2.client.V2Client.chat`` (their SDK annotations: ``ChatMessages``, ``ToolV2``,
  ``V2ChatRequestToolChoice``, ...) plus ``stream``, which the client itself sends.
* The response: ``cohere.v2.types.V2ChatResponse``.
* Copied strict by sdk_pydantic_strict: unknown keys are errors everywhere (the SDK models keep
  them: ``extra="allow"``); open enums (``Union[Literal[...], Any]``: ChatFinishReason,
  V2ChatRequestToolChoice, ImageUrlDetail, CitationType, ...) take only their literals; the SDK's
  discriminated unions (``UnionMetadata(discriminant=...)``: messages by role, content parts by
  type) are validated as such.
"""

from __future__ import annotations

import typing
from typing import Any, Optional

from cohere.v2.client import V2Client
from cohere.v2.types.v2chat_response import V2ChatResponse
from pydantic import BaseModel, create_model

from sdk_pydantic_strict import errors, strict_model

__all__ = ["validate_cohere", "COHERE_SDK_TYPES", "COHERE_STRICT"]


def _request_model() -> type[BaseModel]:
    """The POST /v2/chat body as the SDK's V2Client.chat builds it from its arguments."""
    hints = typing.get_type_hints(V2Client.chat, include_extras=True)
    fields: dict = {}
    for name, annotation in hints.items():
        if name in ("return", "request_options"):
            continue
        fields[name] = (annotation, ...) if name in ("model", "messages") else (annotation, None)
    fields["stream"] = (Optional[bool], None)  # the client sends "stream": false
    return create_model("CohereV2ChatRequest", **fields)


COHERE_SDK_TYPES = {"request": _request_model(), "response": V2ChatResponse}

#: The strict copies payloads are validated against.
COHERE_STRICT = {kind: strict_model(tp) for kind, tp in COHERE_SDK_TYPES.items()}


def validate_cohere(kind: str, payload: Any) -> list[str]:
    """Errors of ``payload``, a ``kind`` ("request", "response") body of Cohere's /v2/chat."""
    return errors(COHERE_STRICT[kind], payload)
