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
    """A pydantic model's wire JSON: its set fields (explicit nulls included) and its unset tags."""
    dump = model.model_dump
    try:
        given = dump(mode="json", by_alias=True, exclude_unset=True, warnings=False)
        raw = dump(mode="python", by_alias=True, exclude_unset=True, warnings=False)
    except TypeError:  # a model_dump that takes no `warnings` (an SDK's own override)
        given = dump(mode="json", by_alias=True, exclude_unset=True)
        raw = dump(mode="python", by_alias=True, exclude_unset=True)
    return _complete(model, given, raw)


def _complete(obj: Any, given: Any, raw: Any) -> Any:
    """The JSON dump ``given`` of ``obj`` with the tags ``obj``'s models leave unset, bytes (``raw``,
    the python-mode dump, has them) in standard base64 and integral floats as ints."""
    t = type(given)
    if t is dict:
        fields = getattr(type(obj), "model_fields", None) if hasattr(obj, "model_fields_set") else None
        out: dict = {}
        names: dict = {}
        if fields:
            for name, info in fields.items():
                key = info.serialization_alias or info.alias or name
                names[key] = name
                if name not in obj.model_fields_set and given.get(key) is None:
                    # (mistralai's serializer writes its unset required keys as null)
                    tag = _tag(info)
                    if tag is not None:
                        out[key] = tag
        for key, value in given.items():
            if key in out:
                continue
            if fields:
                child = getattr(obj, names[key], None) if key in names else None
            else:
                child = obj.get(key) if isinstance(obj, Mapping) else None
            out[key] = _complete(child, value, raw.get(key) if type(raw) is dict else None)
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
