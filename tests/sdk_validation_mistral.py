"""Check Mistral payloads against the official mistralai SDK models (and Mistral's request validator).

``validate_mistral(kind, payload)`` returns readable errors, each starting with the path of the
offending key (``[]``: valid), like ``sdk_validation.validate`` (which dispatches ``mistral`` here).

Making the mistralai models strict (mistralai 3.7.0, pydantic 2):

* Request and response bodies are ``ChatCompletionRequest`` / ``ChatCompletionResponse``, pydantic
  models whose ``BaseModel`` config ignores unknown keys (``UsageInfo`` allows and keeps them). The
  payload is validated from its JSON text in strict mode, then the validated model tree is walked
  beside the payload: every key a model does not declare is an error.
* Enums are open (``Union[Literal[...], UnrecognizedStr]``): strict mode rejects the
  ``UnrecognizedStr`` fallback, and a value that still arrives as ``UnrecognizedStr`` (inside a
  content chunk, validated lax by the SDK) is an error.
* Content chunks are an open union (``parse_open_union``): a chunk of an unknown type, or one that
  fails its own model, silently becomes ``UnknownContentChunk``. Such a chunk is an error; a known
  type is validated again, strictly, to say why.

``mistral_common_errors(payload)`` runs the request through mistral-common's
``MistralRequestValidator`` (the validator Mistral's serving stack applies; serving mode, tokenizer
v11 — the newest version that still requires 9-character call ids, which v13 relaxed to any
non-empty id): message order, tool call ids (9 characters a-z, A-Z, 0-9), calls answered by results,
function names.
"""

from __future__ import annotations

import json
from typing import Any

from mistralai.client.models import ChatCompletionRequest, ChatCompletionResponse
from mistralai.client.models.contentchunk import _CONTENT_CHUNK_VARIANTS, UnknownContentChunk
from mistralai.client.types import UnrecognizedStr
from pydantic import BaseModel, ValidationError

__all__ = ["validate_mistral", "mistral_common_errors", "MISTRAL_SDK_TYPES"]

MISTRAL_SDK_TYPES = {"request": ChatCompletionRequest, "response": ChatCompletionResponse}


def validate_mistral(kind: str, payload: Any) -> list[str]:
    """Errors of ``payload``, a Mistral ``kind`` ("request", "response") body."""
    try:
        text = json.dumps(payload, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return [f"<root>: not JSON: {exc}"]
    try:
        model = MISTRAL_SDK_TYPES[kind].model_validate_json(text, strict=True)
    except ValidationError as exc:
        return _errors(exc, payload, "")
    return _walk(model, json.loads(text), "")


def _walk(node: Any, data: Any, path: str) -> list[str]:
    """Errors the SDK does not raise: undeclared keys, unknown chunks, unknown enum values."""
    if isinstance(node, UnknownContentChunk):
        return _unknown_chunk(data, path)
    if isinstance(node, UnrecognizedStr):
        return [f"{path or '<root>'}: {str(node)!r} is not one of the values the SDK knows"]
    if isinstance(node, BaseModel) and isinstance(data, dict):
        fields = type(node).model_fields
        declared = {field.alias or name: name for name, field in fields.items()}
        errors = [
            f"{_join(path, key)}: key not declared by {type(node).__name__}"
            for key in data
            if key not in declared
        ]
        for key, name in declared.items():
            if key in data:
                errors += _walk(getattr(node, name), data[key], _join(path, key))
        return errors
    if isinstance(node, (list, tuple)) and isinstance(data, list):
        return [e for i, (n, d) in enumerate(zip(node, data)) for e in _walk(n, d, f"{path}[{i}]")]
    return []


def _unknown_chunk(data: Any, path: str) -> list[str]:
    kind = data.get("type") if isinstance(data, dict) else None
    variant = _CONTENT_CHUNK_VARIANTS.get(kind)
    if variant is None:
        return [f"{path}: unknown content chunk type {kind!r} (expected one of {', '.join(_CONTENT_CHUNK_VARIANTS)})"]
    try:
        chunk = variant.model_validate_json(json.dumps(data), strict=True)
    except ValidationError as exc:
        return _errors(exc, data, path)
    return _walk(chunk, data, path) or [f"{path}: not a valid {variant.__name__}"]


def _errors(exc: ValidationError, payload: Any, prefix: str) -> list[str]:
    out = []
    errors = exc.errors()
    located = {_path(payload, e["loc"], e["type"] == "missing") for e in errors if e["type"] != "none_required"}
    for error in errors:
        if error["type"] == "none_required" and _path(payload, error["loc"], False) in located:
            continue  # "Input should be null": the nullable member of a union that had a better match
        where = _join(prefix, _path(payload, error["loc"], error["type"] == "missing"))
        text = f"{where or '<root>'}: {error['msg']}"
        if error["type"] not in ("missing", "extra_forbidden"):
            text += f" (got {json.dumps(error['input'], default=str)[:80]})"
        if text not in out:
            out.append(text)
    return out


def _path(payload: Any, loc: tuple, missing: bool) -> str:
    """The payload path of an error location; items pydantic inserted (union tags, validator
    labels) are skipped."""
    node, path = payload, ""
    for i, item in enumerate(loc):
        if isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
            node, path = node[item], f"{path}[{item}]"
        elif isinstance(node, dict) and isinstance(item, str) and (item in node or (missing and i == len(loc) - 1)):
            node, path = node.get(item), _join(path, item)
    return path


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --- mistral-common ---------------------------------------------------------------------------


def mistral_common_errors(payload: dict) -> list[str]:
    """mistral-common's verdict on a request body ([] when it accepts it)."""
    from mistral_common.exceptions import MistralCommonException
    from mistral_common.protocol.instruct.request import ChatCompletionRequest as CommonRequest
    from mistral_common.protocol.instruct.validator import ValidationMode, get_validator
    from mistral_common.tokens.tokenizers.base import TokenizerVersion

    body = {k: v for k, v in payload.items() if k in ("model", "messages", "tools", "tool_choice", "temperature", "top_p", "max_tokens")}
    try:
        request = CommonRequest.model_validate(body)
        get_validator(TokenizerVersion.v11, ValidationMode.serving).validate_request(request)
    except (MistralCommonException, ValidationError, ValueError) as exc:
        return [f"{type(exc).__name__}: {exc}"]
    return []
