"""JSON Schema → the OpenAPI 3.0 subset of Gemini's legacy ``FunctionDeclaration.parameters``.

Gemini takes tool parameters either as JSON Schema (``parametersJsonSchema``, toolwire's default)
or as its own ``Schema`` object (``parameters``; https://ai.google.dev/api/caching#Schema, SDK type
``google.genai.types.Schema``). That object knows: ``type`` (STRING, NUMBER, INTEGER, BOOLEAN,
ARRAY, OBJECT, NULL), ``format``, ``title``, ``description``, ``nullable``, ``enum`` (strings
only), ``properties``, ``required``, ``propertyOrdering``, ``minProperties``/``maxProperties``,
``items``, ``minItems``/``maxItems``, ``minLength``/``maxLength``, ``pattern``,
``minimum``/``maximum``, ``anyOf``, ``default`` and ``example``. (The SDK type also declares
``additionalProperties``, ``ref`` and ``defs``, but those are Vertex AI only: the SDK itself refuses
``additionalProperties`` in Gemini Developer API mode, and the API reference lists none of them.)

``to_openapi_schema`` rewrites a JSON Schema (draft 2020-12 / draft-07, as OpenAI and Anthropic
tool definitions carry it) into that object:

* exact rewrites, not reported: ``$ref`` inlined (local JSON pointers), ``const`` → one-value
  enum, ``type: [X, "null"]`` and ``anyOf: [X, {type: null}]`` → X + ``nullable``, several types
  → ``anyOf`` of one schema per type (each with the keywords that apply to it), ``allOf`` merged,
  exclusive bounds of integers → inclusive bounds, string enums marked ``format: enum`` (as the
  API reference asks), ``examples`` → ``example``, type names in upper case (the ``Type`` enum);
* lossy rewrites and drops, each reported once through ``report(path, message)`` with the input
  path of the construct: ``oneOf`` → ``anyOf``, non-string enums → string enums, unsupported
  formats, ``additionalProperties``, exclusive bounds of non-integers, ``not``, ``if``/``then``/
  ``else``, ...;
* impossible: recursive or dangling ``$ref``, enums mixing value types, schemas that accept no
  value → ``UnsupportedError``. Malformed schemas (``properties`` not an object, ...) →
  ``WrongTypeError``.

``required``, ``properties`` (also empty nested objects), the length/size/number bounds and
``pattern`` keep their meaning everywhere. The function is pure (stdlib only), never mutates its
input and is deterministic.
"""

from __future__ import annotations

import copy
import json
import math
import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (docs/performance.md, "import toolwire")
    from typing import Any, Callable

from .errors import MissingFieldError, UnsupportedError, WrongTypeError, format_path

__all__ = [
    "to_openapi_schema", "to_keyword_subset", "standard_type", "standard_types", "GEMINI_SCHEMA_FIELDS",
    "to_python_params", "from_python_params", "python_type_schema", "python_type_notation", "PYTHON_TYPE",
]

# The fields of the Gemini API's Schema object (https://ai.google.dev/api/caching#Schema), in the
# order they are written.
GEMINI_SCHEMA_FIELDS = (
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "properties",
    "required",
    "propertyOrdering",
    "minProperties",
    "maxProperties",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "default",
    "example",
)

_API = "Gemini's parameters schema"
_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
_ANNOTATIONS = ("title", "description", "default", "example")
# Internal (canonical) nodes keep, under this key, the input path of each keyword they hold, so a
# report made after inlining and merging still names where the keyword was written.
_SRC = "\x00src"

# Which canonical keywords constrain values of which type (the rest are ignored for that type).
_STRING_KW = ("minLength", "maxLength", "pattern")
_NUMBER_KW = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_ARRAY_KW = ("items", "minItems", "maxItems")
_OBJECT_KW = ("properties", "required", "propertyOrdering", "minProperties", "maxProperties")
_APPLIES = {
    "string": frozenset(_STRING_KW + ("format", "enum")),
    "number": frozenset(_NUMBER_KW + ("format", "enum")),
    "integer": frozenset(_NUMBER_KW + ("format", "enum")),
    "boolean": frozenset(("enum",)),
    "array": frozenset(_ARRAY_KW),
    "object": frozenset(_OBJECT_KW),
    "null": frozenset(),
}
_LOWER_BOUNDS = frozenset(("minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum"))
_UPPER_BOUNDS = frozenset(("maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum"))

# Formats the API reference lists per type; "enum" only together with enum values.
_FORMATS = {"string": ("date-time",), "number": ("float", "double"), "integer": ("int32", "int64")}
_NUMERIC_FORMATS = frozenset(("float", "double", "int32", "int64"))
_SUPPORTED_FORMATS_TEXT = (
    "supported: date-time (and enum) for strings, float/double for numbers, "
    "int32/int64 for integers"
)

# Keywords removed without a report: identification and comments, and the definitions that are
# inlined wherever they are referenced.
_SILENT = frozenset(
    (
        "$schema",
        "$id",
        "id",
        "$comment",
        "$defs",
        "definitions",
        "$anchor",
        "$dynamicAnchor",
        "$vocabulary",
    )
)
# Keywords handled by the node conversion itself.
_HANDLED = frozenset(
    ("$ref", "allOf", "anyOf", "oneOf", "type", "enum", "const", "nullable", "format", "examples")
    + _ANNOTATIONS
    + _STRING_KW
    + _NUMBER_KW
    + _ARRAY_KW
    + _OBJECT_KW
    + ("prefixItems", "additionalItems")
)

# Dropped keywords: keyword → (types it constrains (None: any), why / what the model may now do).
_DROPPED_TYPED = {
    "multipleOf": (
        ("number", "integer"),
        "the model may send numbers that are not multiples of it",
    ),
    "uniqueItems": (("array",), "the model may repeat items"),
    "contains": (("array",), "no item is required to match it"),
    "minContains": (("array",), "it constrains contains, which is not supported either"),
    "maxContains": (("array",), "it constrains contains, which is not supported either"),
    "unevaluatedItems": (("array",), "the model may send extra items"),
    "additionalProperties": (
        ("object",),
        "the model may send keys not listed in properties (the Gemini API takes "
        "additionalProperties only on Vertex AI)",
    ),
    "patternProperties": (("object",), "keys matching its patterns are not constrained"),
    "propertyNames": (("object",), "property names are not constrained"),
    "unevaluatedProperties": (("object",), "the model may send keys not listed in properties"),
    "dependentRequired": (("object",), "the properties it makes required are optional"),
    "dependentSchemas": (("object",), "its conditional schemas are not applied"),
    "dependencies": (("object",), "the properties / schemas it makes required are not applied"),
}
_DROPPED_ANY = {
    "not": "values it excludes are accepted",
    "if": "the conditional (if/then/else) is not applied",
    "then": "the conditional (if/then/else) is not applied",
    "else": "the conditional (if/then/else) is not applied",
    "readOnly": "the model is not told the value is read-only",
    "writeOnly": "the model is not told the value is write-only",
    "deprecated": "the model is not told the property is deprecated",
    "contentEncoding": "the model is not told how the string is encoded",
    "contentMediaType": "the model is not told the string's media type",
    "contentSchema": "the string's content is not constrained",
    "discriminator": "the model is not told which property selects the alternative",
}
# Values of dropped keywords that constrain nothing (dropping them changes nothing): not reported.
_HARMLESS = {
    "uniqueItems": (False,),
    "readOnly": (False,),
    "writeOnly": (False,),
    "deprecated": (False,),
    "additionalProperties": (True, {}),
    "unevaluatedProperties": (True, {}),
    "unevaluatedItems": (True, {}),
    "patternProperties": ({},),
    "dependentRequired": ({},),
    "dependentSchemas": ({},),
    "dependencies": ({},),
    "propertyNames": (True, {}),
}

# allOf of several anyOf lists is expanded to the anyOf of their combinations, up to this many.
_MAX_ALTERNATIVES = 64


def to_openapi_schema(schema: dict, path: object, report: Callable[[object, str], None]) -> dict:
    """Convert the JSON Schema ``schema`` (found at ``path`` in the input) to a Gemini ``Schema``.

    ``report(path, message)`` is called once per construct that is dropped or rewritten in a way
    that changes which values the schema accepts (once the conversion succeeded, sorted by path).
    Raises ``UnsupportedError`` for what cannot be converted (recursive or dangling ``$ref``,
    mixed-type enums, schemas no value satisfies) and ``WrongTypeError`` for a malformed schema.
    Returns a new dict; ``schema`` is not modified.
    """
    if type(schema) is not dict:
        raise WrongTypeError(path, f"expected a JSON Schema object, got {_json_type(schema)}")
    converter = _Converter(schema, path)
    out = converter.emit(converter.convert(schema, path))
    # Reported only once the conversion succeeded, in the order of their (formatted) paths.
    for (_, message), where in sorted(converter.reports.items(), key=lambda item: item[0]):
        report(where, message)
    return out


class _Unsatisfiable(Exception):
    """No value satisfies the constraints being combined (reported by the node being converted)."""


class _Converter:
    def __init__(self, root: dict, root_path: object) -> None:
        self.root = root
        self.root_path = root_path
        self.reports: dict[tuple[str, str], object] = {}  # (formatted path, message) → path
        self.stack: list[str] = ["#"]  # the references being inlined (the root is "#")
        self.inlined: dict[str, dict] = {}  # pointer → its converted (canonical) schema

    def report(self, path: object, message: str) -> None:
        self.reports.setdefault((format_path(path), message), path)

    # ------------------------------------------------------------------ phase 1: canonical form
    #
    # A canonical node is a dict of: type (one JSON type name), nullable, enum (values of that
    # type), format (as written), the type keywords (exclusive bounds as numbers), annotations,
    # anyOf (whose siblings are only annotations and nullable), and _SRC. Nothing the target
    # lacks survives it except enum values, formats and exclusive bounds, which depend on the
    # final type (phase 2).

    def convert(self, node: Any, path: object) -> dict:
        if node is True:
            return {}
        if node is False:
            raise UnsupportedError(
                path, f"the schema false accepts no value; {_API} cannot express that"
            )
        if type(node) is not dict:
            raise WrongTypeError(
                path, f"expected a JSON Schema (object or boolean), got {_json_type(node)}"
            )
        for key in ("$dynamicRef", "$recursiveRef"):
            if key in node:
                raise UnsupportedError(
                    (path, key), f"{key} (a dynamic reference) cannot be inlined into {_API}"
                )
        try:
            parts = []
            if "$ref" in node:
                parts.append(self._resolve(node["$ref"], path))
            if "allOf" in node:
                members = _schema_list(node["allOf"], (path, "allOf"))
                parts += [self.convert(s, ((path, "allOf"), i)) for i, s in enumerate(members)]
            if "anyOf" in node:
                parts.append(self._union(node["anyOf"], (path, "anyOf"), one_of=False))
            if "oneOf" in node:
                parts.append(self._union(node["oneOf"], (path, "oneOf"), one_of=True))
            base = self._base(node, path)
            if not parts:
                return base
            merged = parts[0]
            for part in parts[1:]:
                merged = self._and(merged, part, path, prefer_second=False)
            # The node's own annotations describe this very place: they win over referenced ones.
            return self._and(merged, base, path, prefer_second=True)
        except _Unsatisfiable as exc:
            raise UnsupportedError(path, f"no value satisfies this schema: {exc}") from None

    def _resolve(self, ref: Any, path: object) -> dict:
        if type(ref) is not str:
            raise WrongTypeError((path, "$ref"), f"expected a string, got {_json_type(ref)}")
        if not ref.startswith("#"):
            raise UnsupportedError(
                path,
                f"$ref {ref!r} points outside this schema; only local references "
                "(#/$defs/..., #/definitions/...) can be inlined",
            )
        from urllib.parse import unquote  # urllib.parse imports ipaddress: only for $refs

        pointer = unquote(ref[1:])
        if pointer and not pointer.startswith("/"):
            raise UnsupportedError(
                path,
                f"$ref {ref!r} names an anchor; only JSON-pointer references (#/...) can be "
                "inlined",
            )
        key = "#" + pointer
        if key in self.stack:
            cycle = " -> ".join(self.stack[self.stack.index(key) :] + [key])
            raise UnsupportedError(
                path,
                f"recursive $ref {ref!r} ({cycle}): {_API} has no references, and a recursive "
                "schema cannot be inlined (use parametersJsonSchema for it)",
            )
        if key in self.inlined:
            return copy.deepcopy(self.inlined[key])
        target: Any = self.root
        target_path = self.root_path
        for token in pointer.split("/")[1:] if pointer else []:
            token = token.replace("~1", "/").replace("~0", "~")
            if type(target) is dict and token in target:
                target, target_path = target[token], (target_path, token)
            elif type(target) is list and token.isdigit() and int(token) < len(target):
                target, target_path = target[int(token)], (target_path, int(token))
            else:
                raise UnsupportedError(path, f"$ref {ref!r} points to nothing in this schema")
        self.stack.append(key)
        try:
            converted = self.convert(target, target_path)
        finally:
            self.stack.pop()
        # A schema that converted without meeting a reference on the stack has no cycle through
        # it, so its conversion is the same wherever it is referenced.
        self.inlined[key] = converted
        return copy.deepcopy(converted)

    def _union(self, members: Any, path: object, one_of: bool) -> dict:
        members = _schema_list(members, path)
        branches: list[dict] = []
        null = False
        for i, member in enumerate(members):
            if member is False:  # accepts nothing: adds nothing to a union
                continue
            branch = self.convert(member, (path, i))
            if branch.get("type") == "null":
                null = True
            elif "anyOf" in branch and not any(k in branch for k in _ANNOTATIONS):
                null = null or branch.get("nullable") is True
                branches += branch["anyOf"]
            else:
                branches.append(branch)
        branches = _dedupe(branches)
        if not branches:
            if not null:
                raise _Unsatisfiable("every alternative is false")
            return {"type": "null"}
        if one_of and len(branches) > 1 and not _disjoint(branches):
            self.report(
                path,
                f"oneOf is not supported by {_API}; rewritten to anyOf, so a value matching "
                "several alternatives is accepted too (exactly one becomes at least one)",
            )
        if len(branches) == 1:
            union = branches[0]
        else:
            union = {"anyOf": branches}
        if null:
            union = _with_null(union)
        return union

    def _base(self, node: dict, path: object) -> dict:
        """The node's own keywords (all but $ref / allOf / anyOf / oneOf) in canonical form."""
        types = _types(node, path)
        nullable = node.get("nullable")
        if nullable is not None and type(nullable) is not bool:
            raise WrongTypeError(
                (path, "nullable"), f"expected a boolean, got {_json_type(nullable)}"
            )
        explicit_null = "null" in types or nullable is True
        wanted = [t for t in types if t != "null"]
        if "number" in wanted and "integer" in wanted:
            wanted.remove("integer")  # every integer is a number

        annotations, ann_src = self._annotations(node, path)

        # enum / const: the values, which also fix the type.
        values = None
        values_src = None
        if "enum" in node:
            enum = node["enum"]
            if type(enum) is not list:
                raise WrongTypeError((path, "enum"), f"expected an array, got {_json_type(enum)}")
            values, values_src = _dedupe_values(enum), (path, "enum")
        if "const" in node:
            const = node["const"]
            if values is not None and not any(_same_value(const, v) for v in values):
                raise _Unsatisfiable("const is not one of the enum values")
            values, values_src = [const], (path, "const")
        null_ok = explicit_null
        if values is not None:
            null_ok = any(v is None for v in values) and (explicit_null or not types)
            present = [v for v in values if v is not None]
            if wanted:
                present = [v for v in present if any(_matches(v, t) for t in wanted)]
            kinds = {_kind(v) for v in present}
            if "other" in kinds:
                raise UnsupportedError(
                    values_src,
                    f"{values_src[1]} holds an object or array value; {_API} enums hold "
                    "strings only",
                )
            if len(kinds) > 1:
                raise UnsupportedError(
                    values_src,
                    f"{values_src[1]} mixes {' and '.join(sorted(kinds))} values; {_API} enums "
                    "hold strings of one type only, and a client could not tell which value a "
                    "string stands for",
                )
            if present:
                kind = kinds.pop()
                if kind == "number":
                    integral = all(_matches(v, "integer") for v in present)
                    if wanted:
                        wanted = [t for t in wanted if any(_matches(v, t) for v in present)]
                    else:
                        wanted = ["integer" if integral else "number"]
                else:
                    wanted = [kind]
            else:
                wanted = []
                if not null_ok:
                    what = (
                        "the const value does not"
                        if values_src[1] == "const"
                        else "no enum value does"
                    )
                    raise _Unsatisfiable(f"{what} have the type {' or '.join(types)}")
            values = present

        # Which keywords constrain anything: those of the types a value may have.
        typed = bool(types) or values is not None
        active = set(wanted) if typed else set(_TYPES)
        self._report_dropped(node, path, active)

        keywords: dict[str, Any] = {}
        src: dict[str, object] = {}
        if "string" in active:
            self._string_keywords(node, path, keywords, src)
        if active & {"number", "integer"}:
            self._number_keywords(node, path, keywords, src, active)
        if "array" in active:
            self._array_keywords(node, path, keywords, src)
        if "object" in active:
            self._object_keywords(node, path, keywords, src)
        if "format" in node and active - {"null"}:
            fmt = node["format"]
            if type(fmt) is not str:
                raise WrongTypeError((path, "format"), f"expected a string, got {_json_type(fmt)}")
            keywords["format"], src["format"] = fmt, (path, "format")

        branches = []
        for t in wanted if typed else [None]:
            branch: dict[str, Any] = {} if t is None else {"type": t}
            applies = _APPLIES[t] if t is not None else None
            for key, value in keywords.items():
                if applies is None or key in applies:
                    branch[key] = value
            if values is not None:
                branch["enum"] = [v for v in values if _matches(v, t)]
                src["enum"] = values_src
            branch[_SRC] = {k: src[k] for k in branch if k in src}
            branches.append(branch)

        if not branches:
            out: dict[str, Any] = {"type": "null"}
        elif len(branches) == 1:
            out = branches[0]
            if null_ok:
                out["nullable"] = True
        else:
            out = {"anyOf": branches}
            if null_ok:
                out["nullable"] = True
        out.update(annotations)
        out.setdefault(_SRC, {}).update(ann_src)
        return out

    def _annotations(self, node: dict, path: object) -> tuple[dict, dict]:
        out: dict[str, Any] = {}
        src: dict[str, object] = {}
        for key in ("title", "description"):
            if key in node:
                if type(node[key]) is not str:
                    raise WrongTypeError(
                        (path, key), f"expected a string, got {_json_type(node[key])}"
                    )
                out[key], src[key] = node[key], (path, key)
        if "default" in node:
            out["default"], src["default"] = copy.deepcopy(node["default"]), (path, "default")
        if "example" in node:
            out["example"], src["example"] = copy.deepcopy(node["example"]), (path, "example")
        if "examples" in node:
            examples = node["examples"]
            if type(examples) is not list:
                raise WrongTypeError(
                    (path, "examples"), f"expected an array, got {_json_type(examples)}"
                )
            if examples and "example" not in out:
                out["example"], src["example"] = copy.deepcopy(examples[0]), (path, "examples")
                if len(examples) > 1:
                    self.report(
                        (path, "examples"),
                        f"{_API} holds one example; kept the first of the {len(examples)} examples",
                    )
            elif examples:
                self.report(
                    (path, "examples"), f"{_API} holds one example; examples dropped (example kept)"
                )
        return out, src

    def _report_dropped(self, node: dict, path: object, active: set[str]) -> None:
        conditional_reported = False
        for key, value in node.items():
            if key in _HANDLED or key in _SILENT or key in ("$dynamicRef", "$recursiveRef"):
                continue
            if key in _HARMLESS and any(_same_value(value, h) for h in _HARMLESS[key]):
                continue
            if key in _DROPPED_TYPED:
                types, consequence = _DROPPED_TYPED[key]
                if not active.intersection(types):
                    continue  # constrains only values of types this schema excludes
                if key == "multipleOf" and active <= {"integer"} and value == 1:
                    continue
                if key == "additionalProperties" and value is not False:
                    consequence = "values of keys not listed in properties are not constrained"
                self.report(
                    (path, key), f"{key} is not supported by {_API}; dropped, so {consequence}"
                )
            elif key in _DROPPED_ANY:
                if key in ("if", "then", "else"):
                    if conditional_reported:
                        continue
                    conditional_reported = True
                    present = "/".join(k for k in ("if", "then", "else") if k in node)
                    self.report(
                        (path, key),
                        f"{present} is not supported by {_API}; dropped, so {_DROPPED_ANY[key]}",
                    )
                else:
                    self.report(
                        (path, key),
                        f"{key} is not supported by {_API}; dropped, so {_DROPPED_ANY[key]}",
                    )
            else:
                self.report((path, key), f"unknown keyword {key!r} is not part of {_API}; dropped")

    def _string_keywords(self, node: dict, path: object, out: dict, src: dict) -> None:
        for key in ("minLength", "maxLength"):
            if key in node:
                out[key], src[key] = _count(node[key], (path, key)), (path, key)
        if "pattern" in node:
            if type(node["pattern"]) is not str:
                raise WrongTypeError(
                    (path, "pattern"), f"expected a string, got {_json_type(node['pattern'])}"
                )
            out["pattern"], src["pattern"] = node["pattern"], (path, "pattern")

    def _number_keywords(self, node: dict, path: object, out: dict, src: dict, active: set) -> None:
        for key in ("minimum", "maximum"):
            if key in node:
                out[key], src[key] = _number(node[key], (path, key)), (path, key)
        for key, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if key not in node:
                continue
            value = node[key]
            if type(value) is bool:  # draft-04: a flag that makes minimum / maximum exclusive
                if value and bound in out:
                    out[key], src[key] = out.pop(bound), (path, key)
                    del src[bound]
            else:
                out[key], src[key] = _number(value, (path, key)), (path, key)

    def _array_keywords(self, node: dict, path: object, out: dict, src: dict) -> None:
        for key in ("minItems", "maxItems"):
            if key in node:
                out[key], src[key] = _count(node[key], (path, key)), (path, key)
        items = node.get("items")
        if type(items) is list:  # draft-07 tuple: items per position, additionalItems for the rest
            self._tuple(
                node,
                path,
                out,
                src,
                items,
                "items",
                node.get("additionalItems"),
                "additionalItems",
                "additionalItems" in node,
            )
        elif "prefixItems" in node:
            prefix = node["prefixItems"]
            if type(prefix) is not list:
                raise WrongTypeError(
                    (path, "prefixItems"), f"expected an array, got {_json_type(prefix)}"
                )
            self._tuple(
                node, path, out, src, prefix, "prefixItems", items, "items", "items" in node
            )
        elif items is False:  # no item is valid: the array is empty
            out["maxItems"], src["maxItems"] = 0, (path, "items")
        elif "items" in node:
            out["items"], src["items"] = self.convert(items, (path, "items")), (path, "items")

    def _tuple(self, node, path, out, src, prefix, prefix_key, rest, rest_key, has_rest) -> None:
        """Positional item schemas → one items schema accepting any of them (and the rest)."""
        positional = [self.convert(s, ((path, prefix_key), i)) for i, s in enumerate(prefix)]
        max_items = out.get("maxItems")
        if has_rest and rest is False:
            max_items = len(positional) if max_items is None else min(max_items, len(positional))
            out["maxItems"], src["maxItems"] = max_items, (path, rest_key)
        alternatives: list[dict] | None = positional
        if (max_items is None or max_items > len(positional)) and not (has_rest and rest is False):
            if not has_rest or rest is True or rest == {}:
                alternatives = None  # items beyond the positional ones may be anything
            else:
                alternatives = positional + [self.convert(rest, (path, rest_key))]
        if alternatives is not None:
            alternatives = _dedupe(alternatives)
            if alternatives:
                out["items"] = (
                    alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
                )
                src["items"] = (path, prefix_key)
        if alternatives is None or len(alternatives) > 1:
            self.report(
                (path, prefix_key),
                f"{prefix_key} (a schema per array position) is not supported by {_API}; "
                + (
                    "items now accept any of the positional schemas at every position"
                    if alternatives is not None
                    else "dropped, since items after them may be anything"
                ),
            )

    def _object_keywords(self, node: dict, path: object, out: dict, src: dict) -> None:
        if "properties" in node:
            properties = node["properties"]
            if type(properties) is not dict:
                raise WrongTypeError(
                    (path, "properties"), f"expected an object, got {_json_type(properties)}"
                )
            converted = {}
            for name, sub in properties.items():
                if sub is False:
                    self.report(
                        ((path, "properties"), name),
                        f"the property's schema is false (the property must be absent); {_API} "
                        "cannot forbid a property, so it is dropped from properties",
                    )
                else:
                    converted[name] = self.convert(sub, ((path, "properties"), name))
            if converted:  # no properties declared == properties: {} (which the API refuses)
                out["properties"], src["properties"] = converted, (path, "properties")
        for key in ("required", "propertyOrdering"):
            if key in node:
                names = node[key]
                if type(names) is not list or any(type(n) is not str for n in names):
                    raise WrongTypeError((path, key), "expected an array of strings")
                out[key], src[key] = list(names), (path, key)
        for key in ("minProperties", "maxProperties"):
            if key in node:
                out[key], src[key] = _count(node[key], (path, key)), (path, key)

    # ------------------------------------------------------------ merging (allOf, $ref + siblings)

    def _and(self, a: dict, b: dict, path: object, prefer_second: bool) -> dict:
        """The canonical schema accepting what both ``a`` and ``b`` accept."""
        first, second = (b, a) if prefer_second else (a, b)
        annotations = {}
        ann_src = {}
        for key in _ANNOTATIONS:
            for side in (first, second):
                if key in side:
                    annotations[key] = side[key]
                    ann_src[key] = side.get(_SRC, {}).get(key)
                    break
        null_ok = _accepts_null(a) and _accepts_null(b)
        if a.get("type") == "null" or b.get("type") == "null":
            if not null_ok:
                other = b if a.get("type") == "null" else a
                raise _Unsatisfiable(f"it must be null and {_describe(other)}")
            out: dict[str, Any] = {"type": "null"}
        elif "anyOf" in a or "anyOf" in b:
            left = a["anyOf"] if "anyOf" in a else [_core(a)]
            right = b["anyOf"] if "anyOf" in b else [_core(b)]
            if len(left) * len(right) > _MAX_ALTERNATIVES:
                raise UnsupportedError(
                    path,
                    f"combining these anyOf lists (allOf) gives {len(left) * len(right)} "
                    "alternatives; "
                    f"more than {_MAX_ALTERNATIVES} are not expanded",
                )
            combined = []
            for x in left:
                for y in right:
                    try:
                        combined.append(self._and(x, y, path, prefer_second))
                    except _Unsatisfiable:
                        pass  # an alternative no value satisfies adds nothing
            combined = _dedupe(combined)
            if not combined:
                raise _Unsatisfiable(
                    "no anyOf alternative is compatible with the other constraints"
                )
            out = combined[0] if len(combined) == 1 else {"anyOf": combined}
            if null_ok:
                out = _with_null(out)
        else:
            out = self._and_plain(a, b, path)
            if null_ok and ("type" in out or a.get("nullable") or b.get("nullable")):
                out["nullable"] = True
        out.update(annotations)
        out.setdefault(_SRC, {}).update({k: v for k, v in ann_src.items() if v is not None})
        return out

    def _and_plain(self, a: dict, b: dict, path: object) -> dict:
        type_a, type_b = a.get("type"), b.get("type")
        if type_a and type_b and type_a != type_b:
            if {type_a, type_b} != {"integer", "number"}:
                raise _Unsatisfiable(f"it must be both {type_a} and {type_b}")
            type_a = type_b = "integer"
        kind = type_a or type_b
        out: dict[str, Any] = {} if kind is None else {"type": kind}
        src = dict(b.get(_SRC, {}))
        src.update(a.get(_SRC, {}))
        skip = {"type", "nullable", "anyOf", _SRC, *_ANNOTATIONS}
        for key in [*a, *(k for k in b if k not in a)]:
            if key in skip:
                continue
            if key not in b:
                out[key] = a[key]
                continue
            if key not in a:
                out[key] = b[key]
                src[key] = b.get(_SRC, {}).get(key)
                continue
            x, y = a[key], b[key]
            if key == "enum":
                common = [v for v in x if any(_same_value(v, w) for w in y)]
                if not common:
                    raise _Unsatisfiable("the enum lists have no value in common")
                out[key] = common
            elif key in _LOWER_BOUNDS:
                out[key] = max(x, y)
            elif key in _UPPER_BOUNDS:
                out[key] = min(x, y)
            elif key == "properties":
                merged = {}
                for name in [*x, *(n for n in y if n not in x)]:
                    if name in x and name in y:
                        merged[name] = self._and(
                            x[name], y[name], ((path, "properties"), name), False
                        )
                    else:
                        merged[name] = x[name] if name in x else y[name]
                out[key] = merged
            elif key == "items":
                out[key] = self._and(x, y, (path, "items"), False)
            elif key == "required":
                out[key] = x + [n for n in y if n not in x]
            elif key in ("pattern", "format") and x != y:
                if key == "format" and ("enum" in a or "enum" in b):
                    out[key] = x  # the enum lists the values; the format is irrelevant
                    continue
                self.report(
                    (path, "allOf"),
                    f"the combined schemas require two {key}s ({x!r} and {y!r}); {_API} holds one, "
                    f"so only {x!r} is kept",
                )
                out[key] = x
            else:  # equal values, or propertyOrdering (the first wins)
                out[key] = x
        if kind is not None:
            applies = _APPLIES[kind]
            for key in [k for k in out if k not in applies and k != "type"]:
                del out[key]  # constrains only values of another type
            if "enum" in out:
                out["enum"] = [v for v in out["enum"] if _matches(v, kind)]
                if not out["enum"]:
                    raise _Unsatisfiable(f"none of the enum values is of type {kind}")
        out[_SRC] = {k: v for k, v in src.items() if k in out and v is not None}
        return out

    # ------------------------------------------------------------------ phase 2: Gemini's Schema

    def emit(self, node: dict) -> dict:
        src = node.get(_SRC, {})
        kind = node.get("type")
        values: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("anyOf", _SRC):
                continue
            if key == "properties":
                values[key] = {name: self.emit(sub) for name, sub in value.items()}
            elif key == "items":
                values[key] = self.emit(value)
            else:
                values[key] = value
        if "anyOf" in node:
            values["anyOf"] = [self.emit(branch) for branch in node["anyOf"]]

        if "enum" in values:
            kind = self._emit_enum(values, kind, src)
        elif "format" in values:
            self._emit_format(values, kind, src)
        if kind in ("integer", "number", None):
            self._emit_exclusive_bounds(values, kind, src)

        if kind is not None:
            values["type"] = kind.upper()
        if values.get("nullable") is not True or kind == "null":
            values.pop("nullable", None)
        return {key: values[key] for key in GEMINI_SCHEMA_FIELDS if key in values}

    def _emit_enum(self, values: dict, kind: str, src: dict) -> str:
        enum = values["enum"]
        if kind == "string":
            values["format"] = "enum"
            return kind
        if kind == "boolean" and any(v is True for v in enum) and any(v is False for v in enum):
            del values["enum"]  # both booleans: the enum restricts nothing
            values.pop("format", None)
            return kind
        strings = [_enum_string(v, kind) for v in enum]
        self.report(
            src.get("enum", self.root_path),
            f"{_API} allows enum only on strings; this {kind} enum is sent as the string enum "
            f"{strings}, so the model will send e.g. {strings[0]!r} (a string) instead of "
            f"{json.dumps(enum[0])}",
        )
        for key in _NUMBER_KW + ("format",):
            values.pop(
                key, None
            )  # the listed values say all (and these would not apply to strings)
        values["enum"] = strings
        values["format"] = "enum"
        for key in ("default", "example"):
            if key in values and _kind(values[key]) in ("number", "boolean"):
                values[key] = _enum_string(values[key], kind)
        return "string"

    def _emit_format(self, values: dict, kind: str | None, src: dict) -> None:
        fmt = values["format"]
        if kind in _FORMATS and fmt in _FORMATS[kind]:
            return
        del values["format"]
        if kind in ("boolean", "array", "object", "null"):
            return  # formats describe strings and numbers only: it constrained nothing here
        if kind in ("number", "integer") and fmt not in _NUMERIC_FORMATS and fmt != "enum":
            return  # a string format on a number: constrained nothing
        if kind == "string" and fmt in _NUMERIC_FORMATS:
            return  # a number format on a string: constrained nothing
        self.report(
            src.get("format", self.root_path),
            f"format {fmt!r} is not supported by {_API} for "
            f"{kind + ' values' if kind else 'untyped values'} ({_SUPPORTED_FORMATS_TEXT}); "
            "dropped",
        )

    def _emit_exclusive_bounds(self, values: dict, kind: str | None, src: dict) -> None:
        for key, bound, inclusive, side in (
            ("exclusiveMinimum", "minimum", lambda b: math.floor(b) + 1, max),
            ("exclusiveMaximum", "maximum", lambda b: math.ceil(b) - 1, min),
        ):
            if key not in values:
                continue
            limit = values.pop(key)
            if kind == "integer":  # for integers, x > b is exactly x >= floor(b) + 1
                values[bound] = (
                    inclusive(limit)
                    if bound not in values
                    else side(values[bound], inclusive(limit))
                )
            elif (
                bound in values
                and side(values[bound], limit) == values[bound]
                and values[bound] != limit
            ):
                pass  # the inclusive bound is already stricter
            else:
                relation = "<=" if key == "exclusiveMinimum" else ">="
                self.report(
                    src.get(key, self.root_path),
                    f"{key} is not supported by {_API} (it has no exclusive bounds, and for "
                    f"non-integers no inclusive bound is equivalent); dropped, so the model may "
                    "send "
                    f"values {relation} {limit}",
                )


# ---------------------------------------------------------------------- helpers


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if type(value) in (int, float):
        return "number"
    if type(value) is str:
        return "string"
    if type(value) is list:
        return "array"
    if type(value) is dict:
        return "object"
    return type(value).__name__


def _types(node: dict, path: object) -> list[str]:
    if "type" not in node:
        return []
    value = node["type"]
    names = value if type(value) is list else [value]
    if not names or any(type(n) is not str or n not in _TYPES for n in names):
        raise WrongTypeError(
            (path, "type"),
            f"expected one of {', '.join(_TYPES)} or an array of them, got {value!r}",
        )
    return list(dict.fromkeys(names))


def _schema_list(value: Any, path: object) -> list:
    if type(value) is not list or not value:
        raise WrongTypeError(path, "expected a non-empty array of schemas")
    return value


def _count(value: Any, path: object) -> int:
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is not int or value < 0:
        raise WrongTypeError(path, f"expected a non-negative integer, got {value!r}")
    return value


def _number(value: Any, path: object) -> int | float:
    if type(value) not in (int, float):
        raise WrongTypeError(path, f"expected a number, got {_json_type(value)}")
    return value


def _kind(value: Any) -> str:
    kind = _json_type(value)
    return "other" if kind in ("array", "object") else kind


def _matches(value: Any, kind: str | None) -> bool:
    if kind is None:
        return True
    if kind == "integer":
        return type(value) is int or (type(value) is float and value.is_integer())
    return _json_type(value) == kind


def _value_key(value: Any) -> Any:
    """JSON equality: 1 == 1.0, but true != 1."""
    if type(value) is bool or value is None or type(value) is str:
        return (type(value).__name__, value)
    if type(value) in (int, float):
        return ("number", int(value) if type(value) is float and value.is_integer() else value)
    if type(value) is list:
        return ("array", tuple(_value_key(v) for v in value))
    if type(value) is dict:
        return ("object", tuple(sorted((k, _value_key(v)) for k, v in value.items())))
    return ("other", repr(value))


def _same_value(a: Any, b: Any) -> bool:
    return _value_key(a) == _value_key(b)


def _dedupe_values(values: list) -> list:
    seen = set()
    out = []
    for value in values:
        key = _value_key(value)
        if key not in seen:
            seen.add(key)
            out.append(copy.deepcopy(value))
    return out


def _enum_string(value: Any, kind: str) -> str:
    if kind == "integer" and type(value) is float:
        value = int(value)
    return json.dumps(value)


def _fingerprint(node: Any) -> str:
    def strip(value: Any) -> Any:
        if type(value) is dict:
            return {k: strip(v) for k, v in value.items() if k != _SRC}
        if type(value) is list:
            return [strip(v) for v in value]
        return value

    return json.dumps(strip(node), sort_keys=True, default=repr)


def _dedupe(nodes: list[dict]) -> list[dict]:
    seen = set()
    out = []
    for node in nodes:
        key = _fingerprint(node)
        if key not in seen:
            seen.add(key)
            out.append(node)
    return out


def _core(node: dict) -> dict:
    """A canonical node without its annotations and nullability (what it constrains)."""
    return {k: v for k, v in node.items() if k not in _ANNOTATIONS and k != "nullable"}


def _with_null(node: dict) -> dict:
    if node.get("type") == "null":
        return node
    node = dict(node)
    node["nullable"] = True
    return node


def _accepts_null(node: dict) -> bool:
    if node.get("nullable") is True or node.get("type") == "null":
        return True
    if "type" in node or "enum" in node:
        return False
    if "anyOf" in node:
        return any(_accepts_null(branch) for branch in node["anyOf"])
    return True


def _disjoint(branches: list[dict]) -> bool:
    """Whether no value can match two of the alternatives (then oneOf == anyOf)."""
    kinds = [b.get("type") for b in branches]
    if None in kinds or len(set(kinds)) != len(kinds):
        return False
    return not {"integer", "number"} <= set(kinds)


def _describe(node: dict) -> str:
    if "type" in node:
        return f"of type {node['type']}"
    return "not null"


_SNAKE_KEYWORDS = {re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), k): k for k in GEMINI_SCHEMA_FIELDS if not k.islower()}
_PROTO_KEYS = frozenset(_SNAKE_KEYWORDS)
_INT64_KEYWORDS = frozenset(("minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength"))
_INT_TEXT = re.compile(r"-?[0-9]+")


def from_openapi_schema(schema: Any) -> Any:
    """Gemini's OpenAPI-subset ``Schema`` → JSON Schema (the IR's form of tool parameters).

    Type names in lower case, ``nullable: true`` → ``"null"`` added to the type (or an
    ``anyOf`` branch), ``format: enum`` dropped; everything else is already JSON Schema.
    """
    if type(schema) is list:
        return [from_openapi_schema(x) for x in schema]
    if type(schema) is not dict:
        return schema
    if not _PROTO_KEYS.isdisjoint(schema):  # the protobuf JSON mapping's snake_case keywords (any_of, max_items)
        schema = {(_SNAKE_KEYWORDS[k] if k in _SNAKE_KEYWORDS and _SNAKE_KEYWORDS[k] not in schema else k): v for k, v in schema.items()}
    out: dict = {}
    nullable = schema.get("nullable") is True
    for key, value in schema.items():
        if key in _INT64_KEYWORDS and type(value) is str and _INT_TEXT.fullmatch(value):
            out[key] = int(value)  # int64 in the protobuf JSON mapping is a string ("3"); JSON Schema wants 3
            continue
        if key == "nullable":
            continue
        if key == "type" and type(value) is str:
            out[key] = value.lower()
        elif key == "format" and value == "enum":
            continue
        elif key == "properties" and type(value) is dict:
            out[key] = {name: from_openapi_schema(sub) for name, sub in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = from_openapi_schema(value)
        else:
            out[key] = value
    if nullable:
        if type(out.get("type")) is str:
            out["type"] = [out["type"], "null"]
        elif type(out.get("anyOf")) is list:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        else:
            out["type"] = ["null"] if "type" not in out else out["type"]
    return out


# ---------------------------------------------------------------------- keyword subsets
#
# Some providers model only a few JSON Schema keywords in their tool parameters (Ollama's
# ``ollama._types.Tool.Function.Parameters``: type "object", $defs, items, required and properties,
# each property only type, items, description and enum). ``to_keyword_subset`` reduces a JSON
# Schema to such a subset, declared in the provider spec: the keywords of the root, the keywords of
# a property, and the keywords whose value the provider takes as any JSON (kept as they are). It
# uses the reports of the Gemini conversion above for the keywords both drop.

# Type names that are not JSON Schema but are common in tool definitions (Python type names in
# benchmark suites, OpenAPI's upper-case names): the JSON Schema type they stand for.
_TYPE_ALIASES = {
    "dict": "object",
    "list": "array",
    "tuple": "array",
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "none": "null",
}


def standard_type(name: Any) -> str | None:
    """The JSON Schema type a (possibly non-standard) type name stands for, or None."""
    if type(name) is not str:
        return None
    lower = name.lower()
    if lower in _TYPES:
        return lower
    return _TYPE_ALIASES.get(lower)


def _normalise_type(value: Any, path: object, api: str, report: Callable[[object, str], None]) -> Any:
    """``type`` with non-standard names rewritten to JSON Schema's (each rewrite reported)."""
    names = value if type(value) is list else [value]
    out = []
    for name in names:
        std = standard_type(name)
        if std is None:
            raise WrongTypeError(
                path, f"expected one of {', '.join(_TYPES)} or an array of them, got {value!r}"
            )
        if std != name:
            report(path, f"type {name!r} is not a JSON Schema type; sent to {api} as {std!r}")
        out.append(std)
    return out if type(value) is list else out[0]


def to_keyword_subset(
    schema: Any,
    path: object,
    report: Callable[[object, str], None],
    api: str,
    root: list,
    prop: list,
    free: list,
) -> dict:
    """Reduce the JSON Schema ``schema`` to the keywords a provider models.

    ``root``: the keywords kept at the top (whose ``type``, when present, must be "object");
    ``prop``: the keywords kept in each schema of ``properties``; ``free``: keywords whose value
    is kept as it is (the provider types it as any JSON). Every other keyword is dropped and
    reported through ``report(path, message)`` (values that constrain nothing, and identification
    keywords, silently). In a property, ``$ref`` to the schema's own definitions is inlined and an
    ``anyOf`` / ``oneOf`` of bare types becomes a type list (both exact). Non-standard type names
    (``dict``, ``OBJECT``) become JSON Schema's, reported. A schema inside the subset comes back
    equal; the input is not modified.
    """
    if type(schema) is not dict:
        raise WrongTypeError(path, f"expected a JSON Schema object, got {_json_type(schema)}")
    reducer = _Subset(schema, path, report, api, set(root), set(prop), set(free))
    return reducer.node(schema, path, reducer.root_keys, [])


class _Subset:
    def __init__(self, schema, path, report, api, root, prop, free) -> None:
        self.schema, self.path, self.report, self.api = schema, path, report, api
        self.root_keys, self.prop_keys, self.free = root, prop, free

    def node(self, node: dict, path: object, keys: set, refs: list) -> dict:
        inlined = self._inline(node, keys, refs)
        if inlined is node:
            return self._node(node, path, keys, refs)
        refs.append(node["$ref"])  # a reference inside its own target is recursive
        try:
            return self._node(inlined, path, keys, refs)
        finally:
            refs.pop()

    def _node(self, node: dict, path: object, keys: set, refs: list) -> dict:
        top = keys is self.root_keys
        node = self._bare_union(node, keys)
        out: dict[str, Any] = {}
        for key, value in node.items():
            where = (path, key)
            if key not in keys:
                self._drop(node, key, value, where, top)
            elif key in self.free:
                out[key] = copy.deepcopy(value)
            elif key == "type":
                std = _normalise_type(value, where, self.api, self.report)
                if top and std != "object":
                    raise UnsupportedError(
                        where, f"{self.api} must be an object schema (type \"object\"), got {value!r}"
                    )
                out[key] = std
            elif key == "properties":
                if type(value) is not dict:
                    raise WrongTypeError(where, f"expected an object, got {_json_type(value)}")
                out[key] = {}
                for name, sub in value.items():
                    if type(sub) is not dict:
                        if sub is True:
                            out[key][name] = {}
                            continue
                        raise WrongTypeError(
                            (where, name), f"expected a JSON Schema object, got {_json_type(sub)}"
                        )
                    out[key][name] = self.node(sub, (where, name), self.prop_keys, refs)
            else:
                out[key] = copy.deepcopy(value)
        return out

    def _inline(self, node: dict, keys: set, refs: list) -> dict:
        """A ``$ref`` to this schema's definitions replaced by its target (siblings win)."""
        ref = node.get("$ref")
        if "$ref" in keys or type(ref) is not str or not ref.startswith("#/"):
            return node
        if ref in refs:
            return node  # recursive: left for _drop (reported there)
        from urllib.parse import unquote  # urllib.parse imports ipaddress: only for $refs

        target: Any = self.schema
        for token in unquote(ref[2:]).split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            if type(target) is not dict or token not in target:
                return node  # dangling: reported by _drop
            target = target[token]
        if type(target) is not dict:
            return node
        refs.append(ref)
        target = self._inline(target, keys, refs)
        refs.pop()
        merged = {k: v for k, v in target.items() if k not in ("$defs", "definitions")}
        merged.update((k, v) for k, v in node.items() if k != "$ref")
        return merged

    def _bare_union(self, node: dict, keys: set) -> dict:
        """anyOf / oneOf whose alternatives are all bare types → a type list (same values)."""
        if "type" not in keys or "type" in node:
            return node
        for key in ("anyOf", "oneOf"):
            if key in keys or key not in node:
                continue
            branches = node[key]
            if type(branches) is not list or not branches:
                continue
            if not all(type(b) is dict and set(b) == {"type"} and type(b["type"]) is str for b in branches):
                continue
            names = list(dict.fromkeys(b["type"] for b in branches))
            if key == "oneOf" and len(names) != len(branches):
                continue
            if key == "oneOf" and {"integer", "number"} <= set(names):
                continue  # an integer matches both: oneOf excludes it, a type list does not
            return {
                ("type" if k == key else k): (names[0] if len(names) == 1 else names) if k == key else v
                for k, v in node.items()
            }
        return node

    def _drop(self, node: dict, key: str, value: Any, where: object, top: bool) -> None:
        if key in _SILENT:
            return
        if key in _HARMLESS and any(_same_value(value, h) for h in _HARMLESS[key]):
            return
        api = self.api
        if key in _DROPPED_TYPED:
            consequence = _DROPPED_TYPED[key][1]
            if key == "additionalProperties":
                consequence = (
                    "the model may send keys not listed in properties"
                    if value is False
                    else "values of keys not listed in properties are not constrained"
                )
        elif key in _DROPPED_ANY:
            consequence = _DROPPED_ANY[key]
        elif key in ("title", "description"):
            consequence = f"the model is not told the {key} of this {'tool' if top else 'value'}"
        elif key in ("default", "example", "examples"):
            consequence = f"the model is not told the {key}"
        elif key == "format":
            consequence = "the model is not told the format of the value"
        elif key == "$ref":
            consequence = "the value is not constrained (the reference is recursive or points outside the schema)"
        elif key == "properties":
            consequence = "the keys of this object are not described to the model"
        elif key in ("anyOf", "oneOf", "allOf"):
            consequence = "the alternatives are not described to the model"
        elif key in _STRING_KW + _NUMBER_KW + _ARRAY_KW + _OBJECT_KW + ("const", "enum", "nullable"):
            consequence = "the model may send values it excludes"
        else:
            self.report(where, f"keyword {key!r} is not part of {api}; dropped")
            return
        self.report(where, f"{key} is not supported by {api}; dropped, so {consequence}")


# ---------------------------------------------------------------------- non-standard type names

# Keywords whose value is a schema, a list of schemas, or a map of name → schema.
_SUB_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
               "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_SUB_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUB_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


_SUB_KIND = {**dict.fromkeys(_SUB_SCHEMA, 1), **dict.fromkeys(_SUB_LIST, 2), **dict.fromkeys(_SUB_MAP, 3)}
_STANDARD = frozenset(_TYPES)


def standard_types(schema: Any, path: object, report: Callable[[object, str], None], api: str) -> Any:
    """``schema`` with every non-standard ``type`` name (``dict``, ``OBJECT``, ``str``, ...) rewritten
    to JSON Schema's, each rewrite reported; the same object when there is none (never modified).
    Names that stand for no type are left for the target to judge."""
    if type(schema) is not dict:
        return schema
    out = None
    if "type" in schema:
        value = schema["type"]
        if type(value) is not str or value not in _STANDARD:  # the common case costs one set lookup
            names = value if type(value) is list else [value]
            fixed = [standard_type(n) or n for n in names]
            if fixed != names:
                for name, std in zip(names, fixed):
                    if std != name:
                        report((path, "type"), f"type {name!r} is not a JSON Schema type; sent to {api} as {std!r}")
                out = dict(schema)
                out["type"] = fixed if type(value) is list else fixed[0]
    for key, value in schema.items():
        kind = _SUB_KIND.get(key)
        if kind is None:
            continue
        new = value
        if kind == 1:
            if type(value) is dict:
                new = standard_types(value, (path, key), report, api)
        elif kind == 2:
            if type(value) is list:
                for i, v in enumerate(value):
                    if type(v) is dict and (sub := standard_types(v, ((path, key), i), report, api)) is not v:
                        if new is value:
                            new = list(value)
                        new[i] = sub
        elif type(value) is dict:
            for k, v in value.items():
                if type(v) is dict and (sub := standard_types(v, ((path, key), k), report, api)) is not v:
                    if new is value:
                        new = dict(value)
                    new[k] = sub
        if new is not value:
            if out is None:
                out = dict(schema)
            out[key] = new
    return schema if out is None else out



_known_standard: dict[Any, Any] = {}  # key (target, tool name) → a copy of the last schema found standard


def standard_types_seen(schema: Any, key: Any, path: object, report: Callable[[object, str], None], api: str) -> Any:
    """standard_types for a tool's schema that is usually the one the tool had last time (an
    agent sends the same tools with every turn; a dataset with every record): a schema equal to
    a copy kept of the last schema of ``key`` found standard is standard too (the result depends
    on nothing but the content), which one C-level comparison tells instead of a walk."""
    seen = _known_standard.get(key)
    if seen is not None and seen == schema:
        return schema
    out = standard_types(schema, path, report, api)
    if out is schema and type(schema) is dict:
        if len(_known_standard) >= 1024:
            _known_standard.clear()
        _known_standard[key] = _copy(schema)
    return out


def _copy(value: Any) -> Any:
    """A copy of a JSON value's dicts and lists (what a later change to the caller's value cannot reach)."""
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    return value

# ---------------------------------------------------------------------- Python type notation
#
# The legacy Cohere chat API (v1) declares tool parameters as a map
# ``{param: {description?, type, required?}}`` whose ``type`` is Python type notation
# (https://docs.cohere.com/v1/docs/parameter-types-in-tool-use: string → str, integer → int,
# number → float, boolean → bool, object → Dict / Dict[str, int], array → List / List[str] /
# List[List[str]]; "any Python type", dataclasses included). ``to_python_params`` writes a JSON
# Schema as that map, ``from_python_params`` reads it back. A type the schema language cannot
# state (a dataclass name, Tuple[int, int], Literal[...]) is kept in the schema under
# ``x-python-type`` beside the closest JSON Schema, and written back as it was.

PYTHON_TYPE = "x-python-type"
_PY_NAMES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "object": "Dict", "array": "List", "null": "None"}
_PY_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|(\S))")


class _NotNotation(Exception):
    pass


def python_type_schema(text: str) -> dict:
    """The JSON Schema a Python type annotation stands for. Names JSON Schema has a type for
    (``str``, ``list``, ``Dict``, ``None``, also JSON Schema's own ``string``, ...), ``Any``,
    ``List[X]``, ``Dict[str, X]``, ``Optional[X]``, ``Union[...]`` and ``X | Y`` are read exactly;
    any other construct becomes the closest schema (its container type, or no constraint) with the
    construct's text under ``x-python-type``, at the level where it sits."""
    tokens = []
    pos = 0
    while pos < len(text):
        m = _PY_TOKEN.match(text, pos)
        if m is None:  # trailing blanks
            break
        tokens.append((m.group(1), m.group(2), m.start(1) if m.group(1) else m.start(2), m.end()))
        pos = m.end()
    try:
        schema, at = _py_union(text, tokens, 0)
        if at != len(tokens):
            raise _NotNotation
    except _NotNotation:
        return {PYTHON_TYPE: text}
    return schema


def _py_sign(tokens: list, at: int, sign: str) -> bool:
    return at < len(tokens) and tokens[at][1] == sign


def _py_union(text: str, tokens: list, at: int) -> tuple[dict, int]:
    branches = []
    while True:
        schema, at = _py_term(text, tokens, at)
        branches.append(schema)
        if not _py_sign(tokens, at, "|"):
            return (branches[0] if len(branches) == 1 else _py_any_of(branches)), at
        at += 1


def _py_term(text: str, tokens: list, at: int) -> tuple[dict, int]:
    if at >= len(tokens) or tokens[at][0] is None:
        raise _NotNotation
    name, start = tokens[at][0], tokens[at][2]
    at += 1
    args: list = []
    if _py_sign(tokens, at, "["):
        while True:
            arg, at = _py_union(text, tokens, at + 1)
            args.append(arg)
            if _py_sign(tokens, at, "]"):
                at += 1
                break
            if not _py_sign(tokens, at, ","):
                raise _NotNotation
    end = tokens[at - 1][3]
    base = name[7:] if name.startswith("typing.") else name
    std = None if base.lower() == "tuple" else standard_type(base)
    if base == "Any" and not args:
        return {}, at
    if base == "NoneType" and not args:
        return {"type": "null"}, at
    if base == "Optional" and len(args) == 1:
        return _py_any_of([args[0], {"type": "null"}]), at
    if base == "Union" and args:
        return _py_any_of(args), at
    if std == "array" and len(args) <= 1:
        return ({"type": "array", "items": args[0]} if args else {"type": "array"}), at
    if std == "object" and (not args or (len(args) == 2 and args[0] == {"type": "string"})):
        return ({"type": "object", "additionalProperties": args[1]} if args else {"type": "object"}), at
    if std is not None and not args:
        return {"type": std}, at
    # a dataclass, Tuple[int, int], Dict[int, str], Literal[...]: the closest schema, and the text
    closest = {"type": std} if std is not None else ({"type": "array"} if base.lower() == "tuple" else {})
    closest[PYTHON_TYPE] = text[start:end]
    return closest, at


def _py_any_of(branches: list) -> dict:
    """Union of schemas: bare types become a type list; one schema with a type and null becomes
    that schema with "null" added to its type; no constraint in any branch is no constraint."""
    if any(b == {} for b in branches):
        return {}
    names: list = []
    if all(set(b) == {"type"} for b in branches):
        for b in branches:
            for t in (b["type"] if type(b["type"]) is list else [b["type"]]):
                if t not in names:
                    names.append(t)
        return {"type": names[0] if len(names) == 1 else names}
    others = [b for b in branches if b != {"type": "null"}]
    if len(others) == 1 and type(others[0].get("type")) is str:
        out = dict(others[0])
        out["type"] = [out["type"], "null"]
        return out
    return {"anyOf": branches}


def python_type_notation(node: Any, path: object, lost: list, top: bool = True) -> str:
    """The Python type annotation for a property schema; the keywords it cannot state are appended
    to ``lost`` as (path, note) pairs (identification keywords and values that constrain nothing
    are not)."""
    if node is True or node == {}:
        return "Any"
    if node is False:
        lost.append((path, "false: no value is valid"))
        return "Any"
    if type(node) is not dict:
        raise WrongTypeError(path, f"expected a JSON Schema object, got {_json_type(node)}")
    said = {"description"} if top else set()
    given = node.get(PYTHON_TYPE)
    if type(given) is str:
        closest = python_type_schema(given)
        for key, value in node.items():
            if key not in said and key != PYTHON_TYPE and not (key in closest and _same_value(value, closest[key])):
                _py_lost(lost, path, key, value)
        return given
    value = node.get("type")
    names = value if type(value) is list else [] if value is None else [value]
    std_names = []
    for name in names:
        std = standard_type(name)
        if std is None:
            raise WrongTypeError((path, "type"), f"expected one of {', '.join(_TYPES)} or an array of them, got {value!r}")
        std_names.append(std)
    real = [n for n in dict.fromkeys(std_names) if n != "null"]
    if len(real) > 1:
        lost.append(((path, "type"), f"only {real[0]!r} is stated"))
    elif real and "null" in std_names:
        lost.append(((path, "type"), "null is not stated"))
    kind = real[0] if real else ("null" if std_names else None)
    said.add("type")
    text = "Any" if kind is None else _PY_NAMES[kind]
    if kind == "array" and "items" in node:
        said.add("items")
        items = node["items"]
        if type(items) is list:  # draft-07 tuple form: one schema per position
            lost.append(((path, "items"), "one schema per position"))
        elif items is not True and items != {}:
            text = f"List[{python_type_notation(items, (path, 'items'), lost, False)}]"
    elif kind == "object" and "additionalProperties" in node:
        extra = node["additionalProperties"]
        if extra is not False:
            said.add("additionalProperties")
            if extra is not True and extra != {}:
                text = f"Dict[str, {python_type_notation(extra, (path, 'additionalProperties'), lost, False)}]"
    for key, value in node.items():
        if key not in said:
            _py_lost(lost, path, key, value)
    return text


def _py_lost(lost: list, path: object, key: str, value: Any) -> None:
    if key in _SILENT or (key in _HARMLESS and any(_same_value(value, h) for h in _HARMLESS[key])):
        return
    lost.append(((path, key), ""))


def to_python_params(schema: Any, path: object, lost: list) -> dict:
    """A tool's JSON Schema parameters → ``{param: {description?, type, required?}}``, one entry per
    top-level property in the schema's order; ``required: true`` for the required ones. What the
    notation cannot state is appended to ``lost`` as (path of the keyword, note) pairs. A root type other than
    object is an UnsupportedError."""
    if schema is None:
        return {}
    if type(schema) is not dict:
        raise WrongTypeError(path, f"expected a JSON Schema object, got {_json_type(schema)}")
    root = schema.get("type", "object")
    if standard_type(root) != "object":
        raise UnsupportedError((path, "type"), f"tool parameters must be an object schema (type \"object\"), got {root!r}")
    props = schema.get("properties", {})
    if type(props) is not dict:
        raise WrongTypeError((path, "properties"), f"expected an object, got {_json_type(props)}")
    required = schema.get("required", [])
    if type(required) is not list:
        raise WrongTypeError((path, "required"), f"expected an array of names, got {_json_type(required)}")
    for i, name in enumerate(required):
        if type(name) is not str:
            raise WrongTypeError(((path, "required"), i), f"expected a property name, got {_json_type(name)}")
    out: dict = {}
    for key, value in schema.items():  # losses in the schema's order
        if key == "properties":
            for name, node in props.items():
                where = ((path, "properties"), name)
                entry: dict = {}
                if type(node) is dict and "description" in node:
                    if type(node["description"]) is not str:
                        raise WrongTypeError((where, "description"), f"expected a string, got {_json_type(node['description'])}")
                    entry["description"] = node["description"]
                entry["type"] = python_type_notation(node, where, lost)
                if name in required:
                    entry["required"] = True
                out[name] = entry
        elif key == "required":
            if any(name not in props for name in required):
                lost.append(((path, "required"), "names without a property"))
        elif key != "type":
            _py_lost(lost, path, key, value)
    return out


def from_python_params(value: Any, path: object) -> dict:
    """``{param: {description?, type, required?}}`` → ``{type: object, properties, required?}``
    (``required`` left out when empty; each property's description first, as on the wire). Keys
    of an entry other than those three (the SDK type allows extra keys) are kept in its property."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    props: dict = {}
    required: list = []
    for name, entry in value.items():
        where = (path, name)
        if type(entry) is not dict:
            raise WrongTypeError(where, f"expected a parameter definition object, got {_json_type(entry)}")
        if "type" not in entry:
            raise MissingFieldError((where, "type"), "required field is missing: the parameter's Python type")
        text = entry["type"]
        if type(text) is not str:
            raise WrongTypeError((where, "type"), f"expected a string, got {_json_type(text)}")
        description = entry.get("description")
        if description is not None and type(description) is not str:
            raise WrongTypeError((where, "description"), f"expected a string, got {_json_type(description)}")
        flag = entry.get("required")
        if flag is not None and type(flag) is not bool:
            raise WrongTypeError((where, "required"), f"expected a boolean, got {_json_type(flag)}")
        prop: dict = {} if description is None else {"description": description}
        prop.update(python_type_schema(text))
        for key, extra in entry.items():
            if key not in ("description", "type", "required") and key not in prop:
                prop[key] = extra
        props[name] = prop
        if flag:
            required.append(name)
    schema: dict = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return schema
