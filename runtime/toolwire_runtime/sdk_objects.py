"""Provider SDK objects as payloads: read by duck typing into the JSON the converters take.

The official SDKs hand out objects, not dicts: openai, anthropic, mistralai, cohere, groq and
ollama responses and stream events are pydantic v2 models, google-genai's ``types.*`` too. toolwire
accepts them wherever it accepts a payload without importing any SDK: an object with a pydantic
``model_dump`` is dumped as its wire JSON, a ``Mapping`` becomes a dict and a tuple a list, at any
depth (``messages=[completion.choices[0].message, {...}]``, Anthropic's
``{"role": "assistant", "content": message.content}``, Gemini's ``contents=[response.candidates[0].content]``).

A model's JSON is ``model_dump(mode="json", by_alias=True, exclude_unset=True)``: the fields that
were set, which for an object the SDK read from the API are exactly the keys the API sent,
explicit nulls included (OpenAI's ``content: null`` beside ``tool_calls``; ``exclude_none`` would
drop them). A field nobody set is written only when it is a tag: a single-value ``Literal`` whose
default is that value (``mistralai.UserMessage(content=...)``'s ``role: "user"``). Other defaults
are what the API assumes when the key is absent (Mistral's ``prefix: false``, or its ``id: "null"``
on a tool call), and the nulls of unset fields say nothing. ``by_alias`` gives the REST spelling:
google-genai's aliases are the API's lowerCamel names (its ``to_json_dict()`` writes snake_case).
Bytes are written in standard base64, as the APIs send them (pydantic's JSON mode writes the
URL-safe alphabet: a Gemini ``thoughtSignature`` would come back changed), and a float with an
integral value as an int (an SDK that types a count as a float, such as cohere's token counts, made
the API's ``318`` ``318.0``, which the converters reject for an integer field). A model's key order
is its class's field order, tags first, not the order of the JSON it was read from.

Hand-written runtime; stdlib only, and never on the path of a plain dict payload: the entry points
look here only for a payload that is not a dict, or after a dict payload failed to parse (an SDK
object nested in it is then found and the payload read again).
"""

from __future__ import annotations

import base64
import types
import typing
from collections.abc import Mapping
from typing import Any

__all__ = ["plain"]

_SCALARS = frozenset((str, int, float, bool, type(None)))


def plain(value: Any) -> Any:
    """``value`` with every SDK object in it replaced by its JSON (dicts, lists, scalars).

    Containers that hold no object are returned as they are (the same object), so
    ``plain(x) is x`` says that ``x`` was plain JSON already. Values of other types are left for
    the converter to report with their path.
    """
    t = type(value)
    if t in _SCALARS:
        return value
    if t is dict:
        return _replaced(value, value.items(), dict)
    if t is list:
        return _replaced(value, enumerate(value), list)
    if t is tuple:
        return [plain(item) for item in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump) and hasattr(value, "model_fields_set"):  # a pydantic v2 model
        return _model_json(value)
    if isinstance(value, Mapping):  # a dict subclass, a TypedDict-like mapping
        return plain({key: value[key] for key in value})
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def _replaced(container: Any, items: Any, copy: Any) -> Any:
    """A dict or list (``items``: its key or index, value pairs) with its SDK objects replaced, copied
    only when it holds some."""
    out = None
    for key, item in items:
        if type(item) in _SCALARS:
            continue
        new = plain(item)
        if new is not item:
            if out is None:
                out = copy(container)
            out[key] = new
    return container if out is None else out


def _model_json(model: Any) -> Any:
    """A pydantic model's wire JSON: its set fields (explicit nulls included) and its unset tags.
    The python-mode dump, which shows bytes, only for a model whose fields can hold bytes."""
    dump = model.model_dump
    bytes_too = _holds_bytes(type(model))
    try:
        given = dump(mode="json", by_alias=True, exclude_unset=True, warnings=False)
        raw = dump(mode="python", by_alias=True, exclude_unset=True, warnings=False) if bytes_too else None
    except TypeError:  # a model_dump that takes no `warnings` (an SDK's own override)
        given = dump(mode="json", by_alias=True, exclude_unset=True)
        raw = dump(mode="python", by_alias=True, exclude_unset=True) if bytes_too else None
    return _complete(model, given, raw)


_BYTES: dict[Any, bool] = {}  # model class → whether a field of it, or of a model in it, is typed bytes


def _holds_bytes(cls: Any) -> bool:
    """Whether a value of ``cls`` can hold bytes: a field typed ``bytes`` anywhere in its models,
    or a type this does not know (then yes). A JSON value read into an SDK object is bytes only
    where its field says so (pydantic decodes base64 there), so ``Any`` and ``object`` hold none."""
    known = _BYTES.get(cls)
    if known is None:
        try:
            known = _model_holds_bytes(cls, set())
        except Exception:  # noqa: BLE001 (an annotation this cannot read: assume bytes, dump both ways)
            known = True
        if len(_BYTES) > 4096:
            _BYTES.clear()
        _BYTES[cls] = known
    return known


def _type_has(annotation: Any, seen: set, leaf: Any, in_model: Any) -> bool:
    """Whether a value of this type may hold what ``leaf`` looks for: ``leaf(annotation)`` says True
    or False for a type it knows, None to look inside. A generic (list, dict, tuple, Union, Optional,
    Annotated's first argument) holds what its arguments do, a pydantic model what its fields do or
    ``in_model(field)`` says (a model that holds itself is answered by its other fields); any other
    type is not known to hold nothing (datetime, a TypeVar, a forward reference...)."""
    known = leaf(annotation)
    if known is not None:
        return known
    origin = typing.get_origin(annotation)
    if origin is not None:
        args = typing.get_args(annotation)
        return any(_type_has(a, seen, leaf, in_model) for a in (args[:1] if origin is typing.Annotated else args) if a is not Ellipsis)
    if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
        if annotation in seen:
            return False
        seen.add(annotation)
        return any(in_model(info) or _type_has(info.annotation, seen, leaf, in_model) for info in annotation.model_fields.values())
    return True


def _never(_info: Any) -> bool:
    return False


def _model_holds_bytes(cls: Any, seen: set) -> bool:
    return _type_has(cls, seen, _bytes_leaf, _never)


def _bytes_leaf(annotation: Any) -> bool | None:
    """``_type_has``'s test for bytes (``Any`` and ``object`` hold none: see ``_holds_bytes``)."""
    if annotation is bytes or annotation is bytearray:
        return True
    if annotation in (str, int, float, bool, type(None), Any, object) or annotation is None:
        return False
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return False
    if origin is None and isinstance(annotation, type) and not hasattr(annotation, "model_fields"):
        import enum

        if issubclass(annotation, (str, int, float, enum.Enum)) and not issubclass(annotation, bytes):
            return False
    return None


def _complete(obj: Any, given: Any, raw: Any) -> Any:
    """The JSON dump ``given`` of ``obj`` with the tags ``obj``'s models leave unset, bytes (``raw``,
    the python-mode dump, has them) in standard base64 and integral floats as ints. A model's dump
    with no tag to add and no bytes is completed in place, walked into only under the fields whose
    declared type may hold something to complete and the keys no field declares (``_fields_of``)."""
    t = type(given)
    if t is dict:
        names, tags, deep = _fields_of(type(obj)) if hasattr(obj, "model_fields_set") else _NO_FIELDS
        out: dict = {}
        if tags:
            set_fields = obj.model_fields_set
            for name, key, tag in tags:
                # (mistralai's serializer writes its unset required keys as null)
                if name not in set_fields and given.get(key) is None:
                    out[key] = tag
        if names and not out and raw is None:
            # (most models: no tag to add, no bytes) the dump itself, its values completed in place
            # where a field's type may hold something to complete, or no field declares the key
            for key, value in given.items():
                kind = type(value)
                if kind is str or kind is int or value is None or kind is bool or (key in names and key not in deep):
                    continue
                given[key] = _complete(getattr(obj, names[key], None) if key in names else None, value, None)
            return given
        raw_dict = raw if type(raw) is dict else _EMPTY
        for key, value in given.items():
            if key in out:
                continue
            kind = type(value)
            if kind is str or kind is int or value is None or kind is bool:  # (most values: nothing to do)
                r = raw_dict.get(key)
                out[key] = base64.b64encode(r).decode("ascii") if type(r) is bytes else value
                continue
            if names:
                if key in names and key not in deep:  # (a field whose type holds nothing to complete)
                    out[key] = value
                    continue
                child = getattr(obj, names[key], None) if key in names else None
            else:
                child = obj.get(key) if isinstance(obj, Mapping) else None
            out[key] = _complete(child, value, raw_dict.get(key))
        return out
    if t is list:
        objs = obj if isinstance(obj, (list, tuple)) and len(obj) == len(given) else (None,) * len(given)
        raws = raw if isinstance(raw, (list, tuple)) and len(raw) == len(given) else (None,) * len(given)
        return [_complete(o, v, r) for o, v, r in zip(objs, given, raws)]
    if type(raw) is bytes:
        return base64.b64encode(raw).decode("ascii")
    if t is float and given.is_integer():
        return int(given)
    return given


_EMPTY: dict = {}
_NO_FIELDS: tuple = ({}, (), frozenset())
_FIELDS: dict[type, tuple] = {}  # model class → (wire key → field name, its unset tags, keys to walk into)


def _fields_of(cls: type) -> tuple:
    """(wire key → field name, (field name, wire key, tag) of its tag fields, the wire keys of the
    fields whose values may hold something to complete) of a model class, read once per class:
    reading annotations costs more than dumping the model. ``_complete`` walks into the others'
    values no further: their JSON dump is already the wire JSON."""
    known = _FIELDS.get(cls)
    if known is None:
        fields = getattr(cls, "model_fields", None) or {}
        names: dict = {}
        tags: list = []
        deep: set = set()
        for name, info in fields.items():
            key = info.serialization_alias or info.alias or name
            names[key] = name
            tag = _tag(info)
            if tag is not None:
                tags.append((name, key, tag))
            try:
                completes = _type_completes(info.annotation, set())
            except Exception:  # noqa: BLE001 (an annotation this cannot read: walk into it)
                completes = True
            if completes:
                deep.add(key)
        if len(_FIELDS) > 4096:  # (an SDK has a few hundred classes; models made at run time are not kept forever)
            _FIELDS.clear()
        known = _FIELDS[cls] = (names, tuple(tags), frozenset(deep))
    return known


def _type_completes(annotation: Any, seen: set) -> bool:
    """Whether a value of this type may hold something ``_complete`` changes: an unset tag (in a
    model), bytes, a float (an integral one becomes an int), or a value of a type this does not
    know (``Any``, ``object``: a JSON value, floats and all)."""
    return _type_has(annotation, seen, _completes_leaf, _is_tag)


def _is_tag(info: Any) -> bool:
    return _tag(info) is not None


def _completes_leaf(annotation: Any) -> bool | None:
    """``_type_has``'s test for what ``_complete`` changes."""
    if annotation in (str, int, bool, type(None)) or annotation is None:
        return False
    if annotation in (float, bytes, bytearray, Any, object):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return any(type(v) not in (str, int, bool) and v is not None for v in typing.get_args(annotation))
    if origin is None and isinstance(annotation, type) and not hasattr(annotation, "model_fields"):
        import enum

        if issubclass(annotation, enum.Enum):
            return not all(type(m.value) in (str, int, bool) for m in annotation)
        if issubclass(annotation, (str, int)):  # (bool too)
            return False
    return None


def _tag(info: Any) -> Any:
    """The default of a field that is a tag (``Literal["user"]`` or ``Optional[Literal["user"]]``
    defaulting to "user"), else None."""
    annotation = info.annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            return None
        annotation = args[0]
    if typing.get_origin(annotation) is typing.Literal:
        values = typing.get_args(annotation)
        if len(values) == 1 and info.default == values[0] and type(values[0]) is str:
            return values[0]
    return None
