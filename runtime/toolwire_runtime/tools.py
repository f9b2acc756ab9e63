"""Tool definitions from Python functions: ``toolwire.tool_from_function`` and ``@toolwire.tool``.

The tool's name is the function's, its description the docstring's text before its first section,
and its parameters a JSON Schema built from the signature and the type hints:

======================================  ==========================================================
``str`` / ``int`` / ``float`` / ``bool``  ``{"type": "string" | "integer" | "number" | "boolean"}``
``None``                                 ``{"type": "null"}``; ``Any`` or no annotation: ``{}``
``Literal["a", "b"]``                    ``{"enum": ["a", "b"], "type": "string"}``
``Enum`` subclass                        ``{"enum": [member values], "type": ...}``
``X | None``, ``Optional[X]``, unions    ``{"anyOf": [X, {"type": "null"}]}``
``list[X]``, ``Sequence[X]``             ``{"type": "array", "items": X}``
``set[X]``, ``frozenset[X]``             ``... "uniqueItems": true``
``tuple[X, Y]`` / ``tuple[X, ...]``      ``prefixItems`` with min/maxItems / ``items``
``dict[str, X]``, ``Mapping[str, X]``    ``{"type": "object", "additionalProperties": X}``
``TypedDict``                            ``properties``, ``required`` (``total=False``, ``NotRequired``)
dataclass                                ``properties``, ``required`` (fields without a default), defaults
pydantic ``BaseModel``                   its own ``model_json_schema()`` (its ``$defs`` moved to the root)
``datetime`` / ``date`` / ``time``       ``{"type": "string", "format": "date-time" | "date" | "time"}``
``UUID`` / ``Path`` / ``bytes``          ``format`` ``uuid`` / ``path`` / ``binary``; ``Decimal``: ``number``
``Annotated[X, "text"]``                 X with ``description`` (also from an object's ``description``,
                                         e.g. pydantic ``Field(description=...)``, with its bounds)
======================================  ==========================================================

A parameter with a default is not required and its schema carries the ``default``. A type that
contains itself (a tree of dataclasses) is written once under ``$defs`` and referred to with
``$ref``. ``*args`` / ``**kwargs`` and types with no JSON form raise ``TypeError`` naming the
parameter. Argument descriptions come from the docstring, in Google (``Args:``), NumPy
(``Parameters`` / ``----------``) or reST (``:param x:``) style; an ``Annotated`` description wins.
String annotations (``from __future__ import annotations``) are resolved in the function's module.

Nothing here imports pydantic: a ``BaseModel`` is recognised by its ``model_json_schema``.
Hand-written runtime; stdlib only.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import functools
import inspect
import pathlib
import re
import types
import typing
import uuid
from collections import abc
from typing import Any, Callable

from toolwire import ir

__all__ = ["Tool", "tool", "tool_from_function", "schema_of"]

_SIMPLE: dict[Any, dict] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    None: {"type": "null"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    datetime.date: {"type": "string", "format": "date"},
    datetime.time: {"type": "string", "format": "time"},
    datetime.timedelta: {"type": "string", "format": "duration"},
    uuid.UUID: {"type": "string", "format": "uuid"},
    pathlib.Path: {"type": "string", "format": "path"},
    bytes: {"type": "string", "format": "binary"},
    decimal.Decimal: {"type": "number"},
}
_JSON_TYPE = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}
_ARRAYS = (list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection)
_SETS = (set, frozenset, abc.Set, abc.MutableSet)
_MAPPINGS = (dict, abc.Mapping, abc.MutableMapping)
_QUALIFIERS = tuple(q for q in (getattr(typing, n, None) for n in ("NotRequired", "Required", "ReadOnly")) if q is not None)
_ANNOTATED_BOUNDS = {  # annotated_types / pydantic Field metadata attribute → JSON Schema keyword
    "gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum",
    "multiple_of": "multipleOf", "pattern": "pattern",
}


class Tool:
    """A function with its tool definition: what ``@toolwire.tool`` returns.

    Calling it calls the function. ``definition`` is the ``ir.ToolDefinition`` (pass it, or the
    ``Tool`` itself, in ``ir.Request(tools=[...])``), ``name`` its name, ``fn`` the function and
    ``is_async`` whether calling it gives a coroutine.
    """

    def __init__(self, fn: Callable, definition: ir.ToolDefinition) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.definition = definition
        self.is_async = inspect.iscoroutinefunction(fn)

    @property
    def name(self) -> str:
        return self.definition.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        """A ``Tool`` in a class body is a method: bound to the instance, with the same definition."""
        if obj is None:
            return self
        return Tool(types.MethodType(self.fn, obj), self.definition)

    def __repr__(self) -> str:
        return f"<toolwire.Tool {self.definition.name!r} of {getattr(self.fn, '__qualname__', self.fn)!r}>"


def tool(fn: Callable | None = None, *, name: str | None = None, description: str | None = None, strict: bool | None = None) -> Any:
    """Decorator: ``@toolwire.tool`` or ``@toolwire.tool(name=..., description=...)`` makes the
    function a ``Tool`` (still callable; ``.definition`` is its ``ir.ToolDefinition``)."""

    def wrap(f: Callable) -> Tool:
        return Tool(f, tool_from_function(f, name=name, description=description, strict=strict))

    return wrap if fn is None else wrap(fn)


def tool_from_function(fn: Callable, *, name: str | None = None, description: str | None = None, strict: bool | None = None) -> ir.ToolDefinition:
    """The ``ir.ToolDefinition`` of a Python function: its name (or ``name``), the docstring's
    description (or ``description``) and the JSON Schema of its parameters."""
    if isinstance(fn, Tool):
        fn = fn.fn
    if not callable(fn):
        raise TypeError(f"tool_from_function takes a function, got {type(fn).__name__}")
    target = fn.func if isinstance(fn, functools.partial) else fn
    doc = _Docstring(inspect.getdoc(target) or "")
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"cannot read the signature of {fn!r}: {exc}") from None
    hints = _hints(target)
    builder = _Builder()
    properties: dict[str, Any] = {}
    required: list[str] = []
    tool_name = name or getattr(target, "__name__", None)
    if not tool_name or tool_name == "<lambda>":
        raise TypeError("a lambda has no name for its tool: pass name=")
    for index, param in enumerate(signature.parameters.values()):
        where = f"{tool_name}({param.name})"
        if index == 0 and param.name in ("self", "cls") and param.annotation is param.empty:
            continue  # a method decorated in its class body: the instance is not an argument
        if param.kind is param.VAR_POSITIONAL or param.kind is param.VAR_KEYWORD:
            star = "*" if param.kind is param.VAR_POSITIONAL else "**"
            raise TypeError(f"{where}: {star}{param.name} has no place in a tool's arguments (a JSON object with named properties); name each argument")
        annotation = hints.get(param.name, param.annotation)
        if isinstance(annotation, str):
            raise TypeError(f"{where}: cannot resolve the annotation {annotation!r} (is its type importable from {getattr(target, '__module__', '?')}?)")
        schema = builder.schema(Any if annotation is param.empty else annotation, where)
        if "description" not in schema and param.name in doc.args:
            schema = {**schema, "description": doc.args[param.name]} if "$ref" not in schema else {"description": doc.args[param.name], **schema}
        if param.default is param.empty:
            required.append(param.name)
        else:
            schema = {**schema, "default": _json_value(param.default, f"{where} default")}
        properties[param.name] = schema
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    if builder.defs:
        parameters["$defs"] = dict(sorted(builder.defs.items()))
    return ir.ToolDefinition(name=tool_name, description=description if description is not None else (doc.summary or None), parameters=parameters, strict=strict)


def schema_of(tp: Any) -> dict:
    """The JSON Schema of one type, as a parameter of that type gets it (``$defs`` at its root)."""
    builder = _Builder()
    schema = builder.schema(tp, repr(tp))
    if builder.defs:
        schema = {**schema, "$defs": dict(sorted(builder.defs.items()))}
    return schema


# --- type hints → JSON Schema --------------------------------------------------------------------


def _hints(obj: Any) -> dict:
    try:
        return typing.get_type_hints(obj, include_extras=True)
    except Exception:  # a name the module cannot resolve: the per-parameter message says which
        return {}


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, dict] = {}
        self.building: list[Any] = []  # the classes being written (a recursion guard)
        self.recursive: set[Any] = set()
        self.def_names: dict[Any, str] = {}

    def schema(self, tp: Any, where: str) -> dict:
        if tp is Any or tp is inspect.Parameter.empty or tp is object:
            return {}
        simple = _SIMPLE.get(tp) if _hashable(tp) else None
        if simple is not None:
            return dict(simple)
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:
            return self._annotated(args[0], args[1:], where)
        if origin is typing.Literal:
            return _literal(args, where)
        if origin is typing.Union or origin is types.UnionType:
            members = [self.schema(a, where) for a in args]
            return {"anyOf": members}
        if origin in _QUALIFIERS:  # NotRequired[X] / Required[X] (TypedDict keys), ReadOnly[X]
            return self.schema(args[0], where)
        if isinstance(tp, typing.TypeVar):
            return self.schema(tp.__bound__, where) if tp.__bound__ is not None else {}
        if isinstance(tp, typing.NewType):
            return self.schema(tp.__supertype__, where)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.schema(args[0], where)}
            if args == ((),) or not args:
                return {"type": "array", "maxItems": 0}
            items = [self.schema(a, where) for a in args]
            return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
        if tp in _SETS or origin in _SETS:
            if not args:
                return {"type": "array", "uniqueItems": True}
            return {"type": "array", "items": self.schema(args[0], where), "uniqueItems": True}
        if tp in _MAPPINGS or origin in _MAPPINGS:
            if not args:
                return {"type": "object"}
            if args[0] not in (str, Any) and typing.get_origin(args[0]) is not typing.Literal:
                raise TypeError(f"{where}: {_name(tp)} has {_name(args[0])} keys; JSON object keys are strings")
            return {"type": "object", "additionalProperties": self.schema(args[1], where)}
        if tp is tuple or tp in _ARRAYS:
            return {"type": "array"}
        if origin in _ARRAYS:
            return {"type": "array", "items": self.schema(args[0], where)} if args else {"type": "array"}
        if isinstance(tp, type):
            if issubclass(tp, enum.Enum):
                return _enum(tp, where)
            if hasattr(tp, "model_json_schema"):  # a pydantic model (pydantic not imported here)
                return self._model(tp)
            if _is_typeddict(tp) or dataclasses.is_dataclass(tp):
                return self._class(tp, where)
            for base, schema in _SIMPLE.items():  # subclasses: an IntEnum is handled above, str subclasses here
                if isinstance(base, type) and base is not type(None) and issubclass(tp, base):
                    return dict(schema)
        raise TypeError(f"{where}: {_name(tp)} has no JSON Schema form (use str, int, float, bool, None, Literal, Enum, list, tuple, set, dict, a TypedDict, a dataclass or a pydantic model)")

    def _annotated(self, tp: Any, metadata: tuple, where: str) -> dict:
        schema = self.schema(tp, where)
        extra: dict = {}
        for item in metadata:
            if isinstance(item, str):
                extra["description"] = item
                continue
            description = getattr(item, "description", None)
            if isinstance(description, str):
                extra["description"] = description
            for source in (item, *(getattr(item, "metadata", None) or ())):
                for attr, keyword in _ANNOTATED_BOUNDS.items():
                    value = getattr(source, attr, None)
                    if value is not None and not callable(value):
                        extra[keyword] = value
                for attr in ("min_length", "max_length"):
                    value = getattr(source, attr, None)
                    if isinstance(value, int):
                        array = schema.get("type") == "array"
                        extra[("minItems" if array else "minLength") if attr == "min_length" else ("maxItems" if array else "maxLength")] = value
            examples = getattr(item, "examples", None)
            if isinstance(examples, list):
                extra["examples"] = _json_value(examples, where)
        if not extra:
            return schema
        if "$ref" in schema:  # keywords beside a $ref: the referenced definition stays shared
            return {**extra, **schema}
        return {**schema, **extra}

    def _model(self, tp: type) -> dict:
        schema = tp.model_json_schema()
        defs = schema.pop("$defs", None) or {}
        for key, value in defs.items():
            if self.defs.get(key, value) != value:
                raise TypeError(f"two different types are both named {key!r} in the schema: rename one")
            self.defs[key] = value
        return schema

    def _class(self, tp: type, where: str) -> dict:
        if tp in self.building:  # a type that contains itself: one definition, referred to
            self.recursive.add(tp)
            return {"$ref": f"#/$defs/{self._def_name(tp)}"}
        self.building.append(tp)
        try:
            schema = self._fields(tp, where)
        finally:
            self.building.pop()
        if tp in self.recursive:
            self.defs[self._def_name(tp)] = schema
            return {"$ref": f"#/$defs/{self._def_name(tp)}"}
        return schema

    def _def_name(self, tp: type) -> str:
        name = self.def_names.get(tp)
        if name is None:
            name = tp.__name__
            taken = set(self.def_names.values())
            n = 2
            while name in taken:
                name, n = f"{tp.__name__}{n}", n + 1
            self.def_names[tp] = name
        return name

    def _fields(self, tp: type, where: str) -> dict:
        hints = _hints(tp)
        own = tp.__dict__.get("__doc__")  # not dict's (a TypedDict inherits it) nor a base class's
        doc = _Docstring(inspect.cleandoc(own) if isinstance(own, str) else "", sections=_ATTRIBUTE_SECTIONS)
        properties: dict[str, Any] = {}
        required: list[str] = []
        if dataclasses.is_dataclass(tp):
            fields = [(f.name, f) for f in dataclasses.fields(tp) if f.init]
        else:
            fields = [(key, None) for key in hints]
        for key, field in fields:
            annotation = hints.get(key, field.type if field is not None else Any)
            if isinstance(annotation, str):
                raise TypeError(f"{where}: cannot resolve the annotation {annotation!r} of {tp.__name__}.{key}")
            schema = self.schema(annotation, f"{where}: {tp.__name__}.{key}")
            if "description" not in schema and key in doc.args:
                schema = {**schema, "description": doc.args[key]}
            if field is not None:
                if field.default is not dataclasses.MISSING:
                    schema = {**schema, "default": _json_value(field.default, f"{where}: {tp.__name__}.{key} default")}
                elif field.default_factory is not dataclasses.MISSING:
                    schema = {**schema, "default": _json_value(field.default_factory(), f"{where}: {tp.__name__}.{key} default")}
                else:
                    required.append(key)
            elif _required_key(tp, key, annotation):
                required.append(key)
            properties[key] = schema
        out: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            out["required"] = required
        summary = doc.summary
        if summary and not (dataclasses.is_dataclass(tp) and summary.startswith(f"{tp.__name__}(")):  # not the generated docstring
            out["description"] = summary
        return out


def _is_typeddict(tp: type) -> bool:
    """A ``typing`` or ``typing_extensions`` TypedDict (the latter is not ``typing.is_typeddict``'s before 3.12)."""
    return issubclass(tp, dict) and hasattr(tp, "__required_keys__") and hasattr(tp, "__total__")


def _required_key(tp: type, key: str, annotation: Any) -> bool:
    """Whether a TypedDict key is required: ``Required[...]`` / ``NotRequired[...]`` in its resolved
    annotation, else its class's totality (``__required_keys__``, which cannot see the qualifiers of
    string annotations)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        origin = typing.get_origin(typing.get_args(annotation)[0])
    if origin is typing.Required:
        return True
    if origin is typing.NotRequired:
        return False
    return key in tp.__required_keys__


def _hashable(tp: Any) -> bool:
    try:
        hash(tp)
    except TypeError:
        return False
    return True


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or repr(tp)


def _literal(values: tuple, where: str) -> dict:
    # (typing flattens Literal[Literal["a"], "b"]; an Enum member stands for its value)
    return _enum_of([v.value if isinstance(v, enum.Enum) else v for v in values], f"{where}: Literal")


def _enum(tp: type, where: str) -> dict:
    return _enum_of([member.value for member in tp], f"{where}: {tp.__name__}")


def _enum_of(values: list, what: str) -> dict:
    """``{"enum": values}`` with their JSON type when they share one."""
    kinds = {_JSON_TYPE.get(type(v)) for v in values}
    if None in kinds:
        raise TypeError(f"{what} values must be str, int, float, bool or None, got {values!r}")
    out: dict[str, Any] = {"enum": values}
    if len(kinds) == 1:
        out["type"] = kinds.pop()
    return out


def _json_value(value: Any, where: str) -> Any:
    """A default as JSON (an Enum member as its value, a tuple or set as a list, a dataclass as an object)."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, enum.Enum):
        return _json_value(value.value, where)
    if isinstance(value, (list, tuple)):
        return [_json_value(v, where) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_json_value(v, where) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): _json_value(v, where) for k, v in value.items()}
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (uuid.UUID, pathlib.PurePath, decimal.Decimal)):
        return str(value) if not isinstance(value, decimal.Decimal) else float(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _json_value(getattr(value, f.name), where) for f in dataclasses.fields(value)}
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    for kind in (str, int, float):  # a subclass of a JSON type
        if isinstance(value, kind):
            return kind(value)
    raise TypeError(f"{where}: {value!r} has no JSON form")


# --- docstrings ----------------------------------------------------------------------------------

_ARG_SECTIONS = ("args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "other parameters")
_ATTRIBUTE_SECTIONS = ("attributes", "fields", "args", "arguments", "parameters")
_ALL_SECTIONS = (
    *_ARG_SECTIONS, "attributes", "fields", "returns", "return", "yields", "yield", "raises", "raise", "except",
    "exceptions", "examples", "example", "notes", "note", "see also", "references", "warnings", "warning", "warns",
    "todo", "methods",
)
_REST_FIELD = re.compile(r"^:(\w+)(?:\s+([^:]+?))?\s*:\s*(.*)$")
_GOOGLE_ARG = re.compile(r"^\*{0,2}(\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")
_NUMPY_ARG = re.compile(r"^\*{0,2}(\w+)(?:\s*:\s*(.*))?$")


class _Docstring:
    """The description (the text before the first section) and the argument descriptions of a
    docstring in Google, NumPy or reST style."""

    def __init__(self, text: str, sections: tuple = _ARG_SECTIONS) -> None:
        self.args: dict[str, str] = {}
        lines = text.expandtabs().splitlines()
        summary: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            stripped = line.strip()
            header = stripped.rstrip(":").lower()
            underline = i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"} and len(lines[i + 1].strip()) >= 3
            if underline and header in _ALL_SECTIONS:  # NumPy: "Parameters" / "----------"
                end = _section_end(lines, i + 2, numpy=True)
                if header in sections:
                    self._numpy(lines[i + 2:end])
                i = end
                continue
            if stripped.endswith(":") and header in _ALL_SECTIONS and not line.startswith(" "):  # Google: "Args:"
                end = _section_end(lines, i + 1, numpy=False)
                if header in sections:
                    self._google(lines[i + 1:end])
                i = end
                continue
            if _REST_FIELD.match(stripped):  # reST: ":param x: ..." up to the end
                self._rest(lines[i:])
                break
            summary.append(stripped)
            i += 1
        paragraphs = "\n".join(summary).strip().split("\n\n")
        self.summary = "\n\n".join(" ".join(p.split("\n")).strip() for p in paragraphs if p.strip())

    def _google(self, lines: list[str]) -> None:
        base = _indent_of(lines)
        name = None
        for line in lines:
            if not line.strip():
                continue
            if _indent(line) <= base:
                m = _GOOGLE_ARG.match(line.strip())
                name = m.group(1) if m else None
                if name:
                    self.args[name] = m.group(3).strip()
            elif name:
                self.args[name] = (self.args[name] + " " + line.strip()).strip()

    def _numpy(self, lines: list[str]) -> None:
        base = _indent_of(lines)
        names: list[str] = []
        for line in lines:
            if not line.strip():
                continue
            if _indent(line) <= base:
                m = _NUMPY_ARG.match(line.strip())
                names = []
                if m:  # "x, y : int" documents both
                    names = [n.strip().lstrip("*") for n in line.strip().split(":")[0].split(",") if n.strip()]
                    for n in names:
                        self.args[n] = ""
            else:
                for n in names:
                    self.args[n] = (self.args[n] + " " + line.strip()).strip()

    def _rest(self, lines: list[str]) -> None:
        name = None
        for line in lines:
            stripped = line.strip()
            m = _REST_FIELD.match(stripped)
            if m:
                field, arg, text = m.groups()
                name = None
                if field in ("param", "parameter", "arg", "argument", "key", "keyword", "ivar", "var") and arg:
                    name = arg.split()[-1].lstrip("*")
                    self.args[name] = text.strip()
            elif name and stripped:
                self.args[name] = (self.args[name] + " " + stripped).strip()
            elif not stripped:
                name = None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _indent_of(lines: list[str]) -> int:
    indents = [_indent(line) for line in lines if line.strip()]
    return min(indents) if indents else 0


def _section_end(lines: list[str], start: int, numpy: bool) -> int:
    """Where a section that begins at ``start`` ends: at the next section header."""
    i = start
    while i < len(lines):
        stripped = lines[i].strip()
        header = stripped.rstrip(":").lower()
        if numpy and i + 1 < len(lines) and header in _ALL_SECTIONS and set(lines[i + 1].strip()) == {"-"}:
            return i
        if not numpy and stripped.endswith(":") and header in _ALL_SECTIONS and not lines[i].startswith(" "):
            return i
        i += 1
    return i
