"""Strict copies of an SDK's pydantic models, to validate wire payloads against them.

SDKs built on pydantic models (ollama-python, cohere-python) accept far more than their types say:
extra keys are ignored or kept (``extra="allow"``), open enums are ``Union[Literal[...], Any]``, and
some fields take ``Union[Mapping[str, Any], Model]`` so that a plain dict passes unchecked.
``strict_model(Model)`` builds a copy of ``Model`` (and, recursively, of every model its fields
refer to) in which:

* unknown keys are errors (``extra="forbid"``);
* an open enum ``Union[Literal[...], Any]`` takes only its literals (unknown enum values are
  errors);
* a ``Mapping[str, Any]`` member beside a model in a union is dropped (the dict must be that model);
* unions marked with a discriminant (cohere ``UnionMetadata(discriminant=...)``) are discriminated
  unions: the tag must be present and picks the member, so errors concern one member;
* ``Sequence[X]`` is ``List[X]`` (validated eagerly, item by item);
* ``overrides`` replace the annotation of given fields (``{(Model, "field"): annotation}``) where the
  SDK's type is not the wire's (e.g. ollama ``Image``, a wrapper that serializes to base64 text).

The SDK classes themselves are not touched. ``errors(model, text)`` returns readable errors, each
starting with the path of the offending key.
"""

from __future__ import annotations

import base64
import binascii
import collections.abc
import copy
import types
import typing
from typing import Any, Dict, List, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from typing_extensions import Annotated
from typing_inspection import typing_objects

__all__ = ["strict_model", "errors", "Base64Str"]


def _base64(value: str) -> str:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not valid base64 text") from None
    return value


#: A string that must be valid base64 (padding included).
Base64Str = Annotated[str, AfterValidator(_base64)]


class _Strict:
    def __init__(self, overrides: dict) -> None:
        self.overrides = overrides
        self.done: dict[type, type] = {}

    def model(self, cls: type) -> type:
        if cls in self.done:
            return self.done[cls]
        fields: dict[str, Any] = {}
        name = f"Strict{cls.__name__}"
        # placeholder for recursive references; replaced once built
        self.done[cls] = typing.ForwardRef(name)  # type: ignore[assignment]
        for fname, info in cls.model_fields.items():
            annotation = self.overrides.get((cls, fname), info.annotation)
            if (cls, fname) not in self.overrides:
                annotation = self.rewrite(annotation, info.metadata)
            new = copy.copy(info)
            new.annotation = annotation
            fields[fname] = (annotation, new)
        config = ConfigDict(extra="forbid", populate_by_name=bool(cls.model_config.get("populate_by_name")))
        built = create_model(name, __config__=config, **fields)
        self.done[cls] = built
        return built

    def rewrite(self, tp: Any, metadata: list | None = None) -> Any:
        if tp is Any or tp is None or tp is type(None):
            return tp
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return self.model(tp)
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is None or typing_objects.is_literal(origin):
            return tp
        if typing_objects.is_annotated(origin):
            inner, extras = args[0], tp.__metadata__
            tags = [getattr(m, "discriminant", None) for m in extras]
            tag = next((t for t in tags if isinstance(t, str)), None)
            kept = tuple(m for m in extras if not hasattr(m, "discriminant") and type(m).__name__ != "FieldMetadata")
            new = self.rewrite(inner)
            if tag is not None and typing_objects.is_union(typing.get_origin(new)) or tag is not None and typing.get_origin(new) is types.UnionType:
                kept = (*kept, Field(discriminator=tag))
            return Annotated[(new, *kept)] if kept else new
        if typing_objects.is_union(origin) or origin is types.UnionType:
            members = list(args)
            if any(typing_objects.is_literal(typing.get_origin(m)) for m in members):
                members = [m for m in members if m is not Any]  # an open enum: its literals only
            has_model = any(isinstance(m, type) and issubclass(m, BaseModel) for m in members)
            if has_model:
                members = [m for m in members if typing.get_origin(m) not in (collections.abc.Mapping, dict)]
            members = [self.rewrite(m) for m in members]
            return Union[tuple(members)] if len(members) > 1 else members[0]
        if origin in (collections.abc.Sequence, list, collections.abc.Iterable):
            return List[self.rewrite(args[0])]
        if origin in (collections.abc.Mapping, dict):
            return Dict[args[0], self.rewrite(args[1])]
        return tp


def strict_model(cls: type, overrides: Optional[dict] = None) -> type:
    """A strict copy of the pydantic model ``cls`` (see the module docstring)."""
    builder = _Strict(overrides or {})
    model = builder.model(cls)
    namespace = {m.__name__: m for m in builder.done.values() if isinstance(m, type)}
    for m in namespace.values():
        m.model_rebuild(_types_namespace=namespace)
    return model


def errors(model: type, payload: Any, *, strict: bool = True) -> list[str]:
    """Errors of ``payload`` (a JSON value) for ``model``, each as ``path: message``."""
    import json

    try:
        text = json.dumps(payload, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return [f"<root>: not JSON: {exc}"]
    try:
        model.model_validate_json(text, strict=strict)
    except ValidationError as exc:
        out = []
        for err in exc.errors():
            text = f"{_path(payload, err['loc'], err['type'] == 'missing') or '<root>'}: {err['msg']}"
            if err["type"] not in ("missing", "extra_forbidden"):
                text += f" (got {json.dumps(err['input'], default=str)[:80]})"
            out.append(text)
        return list(dict.fromkeys(out))
    return []


def _path(payload: Any, loc: tuple, missing: bool) -> str:
    """The payload path of an error location, skipping the union-member labels pydantic inserts
    (class names, discriminator tags): an item is a key only where the payload has it."""
    node, path = payload, ""
    for i, item in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
            node, path = node[item], f"{path}[{item}]"
        elif isinstance(node, dict) and isinstance(item, str) and (item in node or (missing and last)):
            node, path = node.get(item), f"{path}.{item}"
    return path.lstrip(".")
