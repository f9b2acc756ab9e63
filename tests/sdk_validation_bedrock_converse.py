"""Check Bedrock Converse JSON bodies against the official service model (botocore bedrock-runtime).

``validate_bedrock_converse(kind, payload)`` returns readable errors, each starting with the path of
the offending key (``[]``: valid), like ``sdk_validation.validate`` (which dispatches
``bedrock_converse`` here); what botocore's ParamValidator says of the boto3 form is added to them.

boto3 has no typed models: its client validates a call against the service model
(``botocore/data/bedrock-runtime/2023-09-30/service-2.json``) with ``botocore.validate.ParamValidator``,
which checks unknown keys, required members, Python types and minimum lengths, but not enums,
maximum lengths or patterns, and which sees boto3's Python form, not the JSON body: a blob is
``bytes`` in Python and base64 text in JSON, a document (``inputSchema.json``, ``toolUse.input``,
``toolResult`` ``json``) any Python value and plain JSON on the wire. So this module walks the
service-model shapes over the JSON form itself:

* structure: members the shape does not declare are errors, required members must be present, a
  union (``"union": true``: ContentBlock, ToolResultContentBlock, Tool, ToolChoice, ...) has exactly
  one member set; a request body is the input shape minus its URI/header members (``modelId`` is in
  the URL), a response body the output shape;
* string: type, ``enum``, ``min`` / ``max`` length, ``pattern`` (full match, as AWS applies it);
* integer / long / float / double / boolean: JSON type (a boolean is not a number), ``min`` / ``max``;
* list and map: type, ``min`` / ``max`` items, every item / value;
* blob: base64 text (of at least ``min`` bytes); document: any JSON value.

Rules the API documents beyond the shapes are checked too (``API_RULES``): the documents that
hold tool arguments, tool results and tool input schemas must be JSON objects, text blocks
must not be blank ("The text field in the ContentBlock object ... is blank"), a message's content
must not be empty, and a request whose messages hold toolUse / toolResult blocks must declare its
tools (``_body_rules``).

``boto3_errors(kind, payload)`` cross-checks with botocore itself: the payload turned into boto3's
Python form (blobs decoded) goes through ``ParamValidator``; ``serialized_body(payload)`` is the
JSON body botocore's own rest-json serializer writes for that Python form (what boto3 sends).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from functools import lru_cache
from typing import Any

import botocore
import botocore.session
from botocore.model import Shape, StructureShape
from botocore.serialize import create_serializer
from botocore.validate import ParamValidator

__all__ = ["validate_bedrock_converse", "boto3_errors", "serialized_body", "BEDROCK_SDK_TYPES", "API_RULES"]

SERVICE = "bedrock-runtime"
OPERATION = "Converse"
MODEL_ID = "anthropic.claude-sonnet-4-5-20250929-v1:0"  # the URI member, for botocore's own checks


@lru_cache(maxsize=1)
def _operation() -> Any:
    model = botocore.session.get_session().get_service_model(SERVICE)
    return model.operation_model(OPERATION)


def _shapes() -> dict[str, StructureShape]:
    op = _operation()
    return {"request": op.input_shape, "response": op.output_shape}


#: The service-model shape each kind of body is checked against (botocore StructureShape objects).
BEDROCK_SDK_TYPES = _shapes()

#: API rules beyond the shapes, as (shape name, member) → rule: "object" (the document must be a JSON
#: object) or "nonblank" (the string must hold a non-whitespace character).
API_RULES = {
    # "toolUse.input: a JSON object" (API reference ToolUseBlock.input: "The input to pass to the tool")
    ("ToolUseBlock", "input"): "object",
    # "Provide a json object for the field" (a json tool result block carries an object)
    ("ToolResultContentBlock", "json"): "object",
    # ToolInputSchema.json: "The JSON schema for the tool. ... The top level schema type must be object"
    ("ToolInputSchema", "json"): "object",
    # ValidationException "The text field in the ContentBlock object at messages.N.content.M is blank"
    ("ContentBlock", "text"): "nonblank",
    ("SystemContentBlock", "text"): "nonblank",
}


def _body_rules(payload: Any, errors: list[str]) -> None:
    """API rules of a request body: ValidationException "The content field in the Message object at
    messages.N is empty", and "The toolConfig field must be defined when using toolUse and
    toolResult content blocks." (Converse API reference, toolConfig)."""
    messages = payload.get("messages") if isinstance(payload, dict) else None
    for i, m in enumerate(messages if isinstance(messages, list) else []):
        if isinstance(m, dict) and m.get("content") == []:
            errors.append(f"messages[{i}].content: empty (API rule: the content field in the Message object is empty)")
    uses = [
        f"messages[{i}].content[{j}]"
        for i, m in enumerate(messages if isinstance(messages, list) else [])
        for j, b in enumerate(m.get("content") or [] if isinstance(m, dict) else [])
        if isinstance(b, dict) and ("toolUse" in b or "toolResult" in b)
    ]
    if uses and not (isinstance(payload.get("toolConfig"), dict) and payload["toolConfig"].get("tools")):
        errors.append(f"toolConfig: must be defined when using toolUse and toolResult content blocks (API rule; first at {uses[0]})")


def validate_bedrock_converse(kind: str, payload: Any) -> list[str]:
    """Errors of ``payload``, a Bedrock Converse ``kind`` ("request", "response") JSON body."""
    try:
        payload = json.loads(json.dumps(payload, allow_nan=False))
    except (TypeError, ValueError) as exc:
        return [f"<root>: not JSON: {exc}"]
    shape = _shapes()[kind]
    errors: list[str] = []
    _check(shape, payload, "", errors, body=True)
    if kind == "request":
        _body_rules(payload, errors)
    return errors + [f"<root>: botocore ParamValidator: {e}" for e in boto3_errors(kind, payload)]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _check(shape: Shape, value: Any, path: str, errors: list[str], body: bool = False) -> None:
    at = path or "<root>"
    kind = shape.type_name
    meta = shape.metadata
    if kind == "structure" and meta.get("document"):
        return  # a Smithy document: any JSON value
    if kind == "structure":
        if type(value) is not dict:
            errors.append(f"{at}: expected an object ({shape.name}), got {_json_type(value)}")
            return
        members = shape.members
        if body:  # URI / header / query members are not part of the JSON body
            members = {n: m for n, m in members.items() if not m.serialization.get("location")}
        for key in value:
            if key not in members:
                errors.append(f"{_join(path, key)}: not a member of {shape.name} (members: {', '.join(members)})")
        for key in shape.required_members:
            if key in members and key not in value:
                errors.append(f"{_join(path, key)}: required member of {shape.name} is missing")
        if meta.get("union"):
            present = [k for k in value if k in members]
            if len(present) != 1:
                errors.append(f"{at}: {shape.name} is a union: exactly one member must be set, got {present or 'none'}")
        for key, item in value.items():
            if key in members:
                _check(members[key], item, _join(path, key), errors)
                rule = API_RULES.get((shape.name, key))
                if rule == "object" and type(item) is not dict:
                    errors.append(f"{_join(path, key)}: must be a JSON object (API rule), got {_json_type(item)}")
                if rule == "nonblank" and type(item) is str and not item.strip():
                    errors.append(f"{_join(path, key)}: text is blank (API rule: the API rejects blank text)")
        return
    if kind == "list":
        if type(value) is not list:
            errors.append(f"{at}: expected an array ({shape.name}), got {_json_type(value)}")
            return
        _bounds(shape, len(value), at, "items", errors)
        for i, item in enumerate(value):
            _check(shape.member, item, f"{path}[{i}]", errors)
        return
    if kind == "map":
        if type(value) is not dict:
            errors.append(f"{at}: expected an object ({shape.name}), got {_json_type(value)}")
            return
        _bounds(shape, len(value), at, "entries", errors)
        for key, item in value.items():
            _check(shape.key, key, _join(path, key) + " (key)", errors)
            _check(shape.value, item, _join(path, key), errors)
        return
    if kind == "string":
        if type(value) is not str:
            errors.append(f"{at}: expected a string ({shape.name}), got {_json_type(value)}")
            return
        if shape.enum and value not in shape.enum:
            errors.append(f"{at}: {value!r} is not a {shape.name} value ({', '.join(shape.enum)})")
        _bounds(shape, len(value), at, "characters", errors)
        pattern = meta.get("pattern")
        if pattern is not None and not re.fullmatch(pattern, value):
            errors.append(f"{at}: {value!r} does not match the {shape.name} pattern {pattern}")
        return
    if kind in ("integer", "long"):
        if type(value) is not int:
            errors.append(f"{at}: expected an integer ({shape.name}), got {_json_type(value)}")
            return
        _range(shape, value, at, errors)
        return
    if kind in ("float", "double"):
        if type(value) not in (int, float):
            errors.append(f"{at}: expected a number ({shape.name}), got {_json_type(value)}")
            return
        _range(shape, value, at, errors)
        return
    if kind == "boolean":
        if type(value) is not bool:
            errors.append(f"{at}: expected a boolean ({shape.name}), got {_json_type(value)}")
        return
    if kind == "blob":
        if type(value) is not str:
            errors.append(f"{at}: expected base64 text ({shape.name}, a blob), got {_json_type(value)}")
            return
        try:
            data = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            errors.append(f"{at}: not base64 text ({shape.name}, a blob)")
            return
        _bounds(shape, len(data), at, "bytes", errors)
        return
    errors.append(f"{at}: shape type {kind} ({shape.name}) is not handled by this checker")


def _bounds(shape: Shape, size: int, at: str, unit: str, errors: list[str]) -> None:
    low, high = shape.metadata.get("min"), shape.metadata.get("max")
    if low is not None and size < low:
        errors.append(f"{at}: {size} {unit}, fewer than the minimum {low} of {shape.name}")
    if high is not None and size > high:
        errors.append(f"{at}: {size} {unit}, more than the maximum {high} of {shape.name}")


def _range(shape: Shape, value: float, at: str, errors: list[str]) -> None:
    low, high = shape.metadata.get("min"), shape.metadata.get("max")
    if low is not None and value < low:
        errors.append(f"{at}: {value} is below the minimum {low} of {shape.name}")
    if high is not None and value > high:
        errors.append(f"{at}: {value} is above the maximum {high} of {shape.name}")


# --- botocore's own view -----------------------------------------------------------------------


def to_boto3(shape: Shape, value: Any) -> Any:
    """The boto3 Python form of a JSON value of ``shape``: blobs as bytes, everything else as is."""
    kind = shape.type_name
    if kind == "structure" and shape.metadata.get("document"):
        return value
    if kind == "structure" and type(value) is dict:
        return {k: to_boto3(shape.members[k], v) if k in shape.members else v for k, v in value.items()}
    if kind == "list" and type(value) is list:
        return [to_boto3(shape.member, v) for v in value]
    if kind == "map" and type(value) is dict:
        return {k: to_boto3(shape.value, v) for k, v in value.items()}
    if kind == "blob" and type(value) is str:
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return value
    return value


def boto3_errors(kind: str, payload: Any) -> list[str]:
    """What botocore's ParamValidator says of the payload's boto3 form (a request gets its modelId)."""
    shape = _shapes()[kind]
    params = to_boto3(shape, payload)
    if kind == "request":
        params = {"modelId": MODEL_ID, **params}
    report = ParamValidator().validate(params, shape)
    return report.generate_report().splitlines() if report.has_errors() else []


def serialized_body(payload: Any) -> Any:
    """The JSON body botocore's rest-json serializer writes for the request's boto3 form."""
    op = _operation()
    params = {"modelId": MODEL_ID, **to_boto3(op.input_shape, payload)}
    request = create_serializer(op.metadata["protocol"]).serialize_to_request(params, op)
    return json.loads(request["body"])


BOTOCORE_VERSION = botocore.__version__
