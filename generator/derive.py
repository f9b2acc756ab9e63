"""`python -m generator derive`: each wire family's JSON Schema, derived from its official source.

The wire families are data: ``spec/wire/families.yaml`` (its header documents the format) names,
for each family, the package whose version is pinned, and its source — the SDK's request / response
types, a model built from the SDK's own annotations where the SDK has none of the body (the keyword
arguments of a client method, or fields declared on an SDK base class), or a botocore service model —
and the overlays (hand corrections, each with its reason). Adding a wire family is an entry there
and `make generate`; no Python. The file is checked like every spec file (``load_families``: all
errors at once, ``file:line``; ``generator.spec.load_spec`` reports them too), and a name that does
not resolve in the installed SDK, or an overlay that no longer applies, is reported at its line.

One file per wire family, ``spec/wire/derived/<family>.json`` (committed, DO NOT EDIT), written from
the most authoritative machine-readable description installed with the `generate` extra:

* the official SDKs' pydantic types, through ``TypeAdapter.json_schemas(..., by_alias=True)``
  (validation mode: the shapes the SDK accepts): OpenAI Chat / Responses, Anthropic, Gemini
  (google-genai), Mistral, Ollama, Cohere (v2 and v1);
* botocore's ``bedrock-runtime`` service model for Bedrock Converse (shapes → JSON Schema, keeping
  min/max/pattern/enum; a union structure is ``x-union: true``: exactly one member is set).

Every file records its source in ``x-derived-from`` (package==version, entry types or service model,
why a root is built, the overlays applied) and names its roots in ``x-roots`` (``request``,
``response``: the def of the request body and of the response body). Output is deterministic:
sorted keys, no hash-ordered data. ``root_type(family, key)`` gives the SDK type a root is derived
from (built once per process), so the SDK checks of the tests validate against the same types.

The exact package versions are pinned in pyproject.toml's `generate` extra; deriving with any
other installed version fails with a message saying which, so the committed files always match the
recorded pin. Nothing here is needed at run time: the generator reads the derived files from disk
(the coverage check, generator/coverage.py); `make check` re-derives and compares.
"""

from __future__ import annotations

import ast
import difflib
import functools
import importlib
import importlib.metadata
import json
import re
import sys
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from .cache import cached
from .loader import Errors, Located, LocatedList, SpecError, load_yaml, plain

ROOT = Path(__file__).resolve().parent.parent
DERIVED_DIR = Path("spec") / "wire" / "derived"
JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


FAMILIES_FILE = "spec/wire/families.yaml"
ROOT_KEYS = ("request", "response")
FAMILY_KEYS = {"package", "roots", "service_model", "overlays"}
SERVICE_KEYS = {"service", "operation"}
ARGUMENTS_KEYS = {"arguments_of", "model_name", "exclude", "required", "add", "why"}
FIELDS_KEYS = {"base", "model_name", "doc", "fields", "required", "why"}
OVERLAY_KEYS = {"def", "drop", "set", "schema", "unref", "require", "reason"}
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_REF_RE = re.compile(rf"^{_DOTTED}:{_DOTTED}$")
_CLASS_RE = re.compile(r"^[A-Za-z_]\w*$")

#: The names a type expression of families.yaml (`add`, `fields`) may use besides dotted SDK names.
TYPE_NAMES: dict[str, Any] = {
    "Optional": typing.Optional, "Union": typing.Union, "List": typing.List, "Dict": typing.Dict,
    "Literal": typing.Literal, "Any": typing.Any, "list": list, "dict": dict, "str": str, "int": int,
    "float": float, "bool": bool, "None": None,
}


class FamilyError(Exception):
    """Problems with spec/wire/families.yaml or with what it names, as ``file:line: message`` lines."""

    def __init__(self, items: list[SpecError]) -> None:
        self.items = items
        super().__init__("\n".join(str(e) for e in items))


@dataclass(frozen=True)
class Built:
    """A root built from the SDK's annotations, where the SDK has no model of the body."""

    model_name: str
    why: str
    arguments_of: Optional[str] = None  # "module:Class.method": its keyword arguments are the fields
    exclude: tuple = ()
    base: Optional[str] = None  # "module:Class": the fields are declared on this base class
    doc: Optional[str] = None
    fields: tuple = ()  # ((name, type expression), ...): `fields`, or `add` after the arguments
    required: tuple = ()

    def entry(self) -> str:
        """How x-derived-from names the root."""
        if self.arguments_of:
            return f"{self.model_name}: keyword arguments of {self.arguments_of.replace(':', '.')}"
        return f"{self.model_name}: fields on {(self.base or '').replace(':', '.')}"


@dataclass
class Family:
    """One entry of spec/wire/families.yaml."""

    name: str
    package: str
    file: str
    line: int
    roots: Optional[dict] = None  # {"request" | "response": "module:attr" | Built}
    root_lines: dict = field(default_factory=dict)
    service_model: Optional[tuple] = None  # (service, operation)
    overlays: list = field(default_factory=list)  # [(overlay as a plain dict, line)]
    _types: dict = field(default_factory=dict, repr=False)

    def root_type(self, key: str) -> Any:
        """The pydantic type (model or TypedDict) of root ``key``, imported or built once."""
        if key not in self._types:
            try:
                self._types[key] = _resolve(self.roots[key])
            except _SourceError as exc:
                raise FamilyError([SpecError(self.file, self.root_lines.get(key, self.line), f"wire family {self.name!r}: roots.{key}: {exc}")]) from None
        return self._types[key]

    def error(self, line: int, message: str) -> FamilyError:
        return FamilyError([SpecError(self.file, line, f"wire family {self.name!r}: {message}")])


def load_families(root: Path, errors: Errors) -> dict[str, Family]:
    """Read and check spec/wire/families.yaml (nothing is imported); problems go to ``errors``."""
    before = len(errors.items)
    doc = load_yaml(root / FAMILIES_FILE, FAMILIES_FILE, errors)
    if doc is None:
        return {}
    if not isinstance(doc, Located):
        errors.add(FAMILIES_FILE, 1, "must be a mapping of wire family names to their sources")
        return {}
    out = {}
    for name, entry in doc.items():
        family = _family(doc, name, entry, errors)
        if family is not None:
            out[name] = family
    errors.items[before:] = sorted(errors.items[before:], key=lambda e: e.line)  # in file order
    return out


@functools.cache
def families(root: Path = ROOT) -> dict[str, Family]:
    """The wire families of ``root``'s spec/wire/families.yaml (FamilyError when it has errors)."""
    errors = Errors()
    out = load_families(root, errors)
    if errors:
        raise FamilyError(errors.items)
    return out


def root_type(family: str, key: str, root: Path = ROOT) -> Any:
    """The SDK type derive reads root ``key`` ("request", "response") of ``family`` from (built once;
    the SDK checks of tests/sdk_validation.py validate against the same types)."""
    return families(root)[family].root_type(key)


def _family(doc: Located, name: Any, entry: Any, errors: Errors) -> Optional[Family]:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        errors.at(doc, name, f"wire family name {name!r} must be lower_snake_case (the file spec/wire/derived/<family>.json)")
        return None
    what = f"wire family {name!r}"
    if not isinstance(entry, Located):
        errors.at(doc, name, f"{what} must be a mapping: package, roots or service_model, overlays")
        return None
    before = len(errors.items)
    for key in entry:
        if key not in FAMILY_KEYS:
            errors.at(entry, key, f"{what}: unknown key {key!r}; expected one of {', '.join(sorted(FAMILY_KEYS))}")
    package = entry.get("package")
    if not isinstance(package, str) or not package:
        errors.at(entry, "package" if "package" in entry else None, f"{what}: package must name the distribution pinned in pyproject.toml's `generate` extra, got {package!r}")
    sources = [k for k in ("roots", "service_model") if k in entry]
    if len(sources) != 1:
        errors.at(entry, sources[1] if len(sources) > 1 else None, f"{what}: needs exactly one source: roots (the SDK's pydantic types) or service_model (botocore)")
    family = Family(name=name, package=str(package), file=entry.file, line=entry.line)
    if "roots" in entry:
        family.roots = _roots(entry, what, family, errors)
    if "service_model" in entry:
        sm = entry["service_model"]
        if not isinstance(sm, Located) or set(sm) != SERVICE_KEYS or not all(isinstance(v, str) and v for v in sm.values()):
            errors.at(entry, "service_model", f"{what}: service_model must be {{service: <botocore service>, operation: <operation>}}, got {plain(sm)!r}")
        else:
            family.service_model = (sm["service"], sm["operation"])
    overlays = entry.get("overlays", [])
    if not isinstance(overlays, list):
        errors.at(entry, "overlays", f"{what}: overlays must be a list of {{def, drop | set + schema, reason}} or {{unref, reason}}")
        overlays = []
    for i, overlay in enumerate(overlays):
        line = overlays.item_lines[i] if isinstance(overlays, LocatedList) else entry.line_of("overlays")
        if _overlay_ok(overlay, f"{what}: overlays[{i}]", line, entry.file, errors):
            family.overlays.append((plain(overlay), line))
    return family if len(errors.items) == before else None


def _roots(entry: Located, what: str, family: Family, errors: Errors) -> Optional[dict]:
    roots = entry["roots"]
    if not isinstance(roots, Located):
        errors.at(entry, "roots", f"{what}: roots must be a mapping {{request: <root>, response: <root>}}")
        return None
    out = {}
    for key in roots:
        if key not in ROOT_KEYS:
            errors.at(roots, key, f"{what}: roots: unknown key {key!r}; expected one of {', '.join(ROOT_KEYS)}")
    for key in ROOT_KEYS:
        if key not in roots:
            errors.at(roots, None, f"{what}: roots.{key} is missing")
            continue
        family.root_lines[key] = roots.line_of(key)
        value = roots[key]
        if isinstance(value, str) and _REF_RE.match(value):
            out[key] = value
        elif isinstance(value, Located) and ("arguments_of" in value or "base" in value):
            out[key] = _built(value, f"{what}: roots.{key}", errors)
        else:
            errors.at(roots, key, f"{what}: roots.{key} must be \"module:attribute\" or a built model (a mapping with arguments_of or base), got {plain(value)!r}")
    return out


def _built(node: Located, what: str, errors: Errors) -> Optional[Built]:
    before = len(errors.items)
    if "arguments_of" in node and "base" in node:
        errors.at(node, "base", f"{what}: a built model has either arguments_of (an SDK method's arguments) or base (fields on an SDK class), not both")
        return None
    form, allowed = ("arguments_of", ARGUMENTS_KEYS) if "arguments_of" in node else ("base", FIELDS_KEYS)
    for key in node:
        if key not in allowed:
            errors.at(node, key, f"{what}: unknown key {key!r} of a built model with {form}; expected one of {', '.join(sorted(allowed))}")
    if not isinstance(node[form], str) or not _REF_RE.match(node[form]):
        errors.at(node, form, f"{what}: {form} must be \"module:attribute\", got {plain(node[form])!r}")
    model_name = node.get("model_name")
    if not isinstance(model_name, str) or not _CLASS_RE.match(model_name):
        errors.at(node, "model_name" if "model_name" in node else None, f"{what}: model_name must be a class name (the def of the derived schema), got {model_name!r}")
    why = node.get("why")
    if not isinstance(why, str) or not why.strip():
        errors.at(node, "why" if "why" in node else None, f"{what}: why must say why the SDK's own types are not enough (recorded in x-derived-from)")
    doc = node.get("doc")
    if doc is not None and not isinstance(doc, str):
        errors.at(node, "doc", f"{what}: doc must be text, got {plain(doc)!r}")
    lists = {}
    for key in ("exclude", "required"):
        value = node.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            errors.at(node, key, f"{what}: {key} must be a list of field names, got {plain(value)!r}")
            value = []
        lists[key] = tuple(value)
    fields_key = "add" if form == "arguments_of" else "fields"
    fields = node.get(fields_key, {})
    if not isinstance(fields, Located) and not (fields == {} and fields_key == "add"):
        errors.at(node, fields_key if fields_key in node else None, f"{what}: {fields_key} must be a mapping of field names to type expressions")
        fields = {}
    for fname, text in fields.items():
        problem = _type_problem(text) if isinstance(text, str) else f"a type expression must be text, got {plain(text)!r}"
        if problem:
            errors.at(fields, fname, f"{what}: {fields_key}.{fname}: {problem}")
    if form == "base":
        for fname in lists["required"]:
            if fname not in fields:
                errors.at(node, "required", f"{what}: required field {fname!r} is not in fields")
    if len(errors.items) != before:
        return None
    return Built(model_name=model_name, why=" ".join(why.split()), doc=doc, fields=tuple(fields.items()),
                 required=lists["required"], exclude=lists["exclude"],
                 **({"arguments_of": node[form]} if form == "arguments_of" else {"base": node[form]}))


def _overlay_ok(overlay: Any, what: str, line: int, file: str, errors: Errors) -> bool:
    before = len(errors.items)
    if not isinstance(overlay, Located):
        errors.add(file, line, f"{what} must be a mapping: {{def, drop | set + schema, reason}} or {{unref, reason}}")
        return False
    for key in overlay:
        if key not in OVERLAY_KEYS:
            errors.at(overlay, key, f"{what}: unknown key {key!r}; expected one of {', '.join(sorted(OVERLAY_KEYS))}")
    actions = [k for k in ("drop", "set", "unref", "require") if k in overlay]
    if len(actions) != 1:
        errors.at(overlay, None, f"{what}: needs exactly one action: drop, set, require or unref")
    elif actions[0] == "unref" and "def" in overlay:
        errors.at(overlay, "def", f"{what}: unref names the def itself; def is for drop / set")
    elif actions[0] != "unref" and not isinstance(overlay.get("def"), str):
        errors.at(overlay, None, f"{what}: {actions[0]} needs def (the $defs name whose property it edits)")
    elif actions[0] == "require" and not isinstance(overlay.get("require"), str):
        errors.at(overlay, "require", f"{what}: require names one property of def")
    if ("set" in overlay) != ("schema" in overlay):
        errors.at(overlay, "schema" if "schema" in overlay else "set", f"{what}: set and schema go together (the property's new schema)")
    reason = overlay.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        errors.at(overlay, "reason" if "reason" in overlay else None, f"{what}: reason must say why the source is not enough")
    return len(errors.items) == before


# ------------------------------------------------------------------------------------ type expressions


class _SourceError(Exception):
    """A name of families.yaml that does not resolve in the installed SDK."""


def _type_problem(text: str) -> Optional[str]:
    """Why ``text`` is not a type expression families.yaml accepts (None: it is one)."""
    try:
        _type(ast.parse(text, mode="eval").body, resolve=False)
    except SyntaxError:
        return f"{text!r} is not a type expression (Python syntax, e.g. \"Optional[list[str]]\")"
    except _SourceError as exc:
        return f"{text!r}: {exc}"
    return None


def _type(node: ast.AST, resolve: bool) -> Any:
    """The type ``node`` denotes (``resolve=False``: only check it). Never eval."""
    if isinstance(node, ast.Name):
        if node.id not in TYPE_NAMES:
            close = difflib.get_close_matches(node.id, TYPE_NAMES, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise _SourceError(f"unknown name {node.id!r}; {hint}expected a dotted SDK name or one of {', '.join(TYPE_NAMES)}")
        return TYPE_NAMES[node.id]
    if isinstance(node, ast.Attribute):
        dotted = _dotted(node)
        return _import_dotted(dotted) if resolve else None
    if isinstance(node, ast.Subscript):
        base = _type(node.value, resolve)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if isinstance(node.value, ast.Name) and node.value.id == "Literal":
            items = [_literal(a) for a in args]
        else:
            items = [_type(a, resolve) for a in args]
        if not resolve:
            return None
        try:
            return base[tuple(items) if len(items) > 1 else items[0]]
        except TypeError as exc:
            raise _SourceError(f"{ast.unparse(node)}: {exc}") from None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _type(node.left, resolve), _type(node.right, resolve)
        return (type(None) if left is None else left) | (type(None) if right is None else right) if resolve else None
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    raise _SourceError(f"{ast.unparse(node)} is not a type (allowed: typing names, dotted SDK names, X[...], X | Y, None)")


def _literal(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, bool)):
        return node.value
    raise _SourceError(f"Literal takes strings, integers or booleans, not {ast.unparse(node)!r}")


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    raise _SourceError(f"{ast.unparse(node)!r} is not a dotted name")


def _import_dotted(dotted: str) -> Any:
    """``package.module.Attr.Inner``: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:i])
        try:
            obj = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):
                continue
            raise
        return _attrs(obj, parts[i:], dotted)
    raise _SourceError(f"{dotted}: no such module")


def _attrs(obj: Any, names: list[str], what: str) -> Any:
    for name in names:
        if not hasattr(obj, name):
            raise _SourceError(f"{what}: {getattr(obj, '__name__', obj)!s} has no attribute {name!r} (the source changed?)")
        obj = getattr(obj, name)
    return obj


def _import_ref(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise _SourceError(f"{ref}: cannot import {module} ({exc}); is the pinned package installed (`make generate`)?") from None
    return _attrs(obj, attr.split("."), ref)


def _resolve(root: Any) -> Any:
    """A root of families.yaml → the pydantic type (a built model is created here)."""
    if isinstance(root, str):
        return _import_ref(root)
    from pydantic import create_model

    if root.arguments_of:
        hints = typing.get_type_hints(_import_ref(root.arguments_of), include_extras=True)
        hints.pop("return", None)
        for name in (*root.exclude, *root.required):
            if name not in hints:
                raise _SourceError(f"{root.arguments_of} has no argument {name!r} (the source changed?): fix exclude / required")
        fields: dict[str, Any] = {
            name: (annotation, ...) if name in root.required else (annotation, None)
            for name, annotation in hints.items() if name not in root.exclude
        }
        for name, text in root.fields:
            fields[name] = (_type(ast.parse(text, mode="eval").body, resolve=True), None)
        return create_model(root.model_name, **fields)
    fields = {
        name: (_type(ast.parse(text, mode="eval").body, resolve=True), ... if name in root.required else None)
        for name, text in root.fields
    }
    return create_model(root.model_name, __base__=_import_ref(root.base), __doc__=root.doc, **fields)

# ------------------------------------------------------------------------------------ pins


def pins(root: Path = ROOT) -> dict[str, str]:
    """``{package: version}`` of the ``name==version`` entries of pyproject.toml's `generate` extra."""
    path = root / "pyproject.toml"
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for entry in data["project"]["optional-dependencies"]["generate"]:
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;]+)", entry)
        if m:
            out[_norm(m.group(1))] = m.group(2)
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def check_pins(root: Path = ROOT, fams: Optional[dict[str, Family]] = None) -> list[str]:
    """Problems with the installed sources of ``fams`` (default: the project's families): a missing
    pin, a missing package, another version."""
    want = pins(root)
    problems = []
    fams = families() if fams is None else fams
    needed = sorted({_norm(f.package) for f in fams.values()} | {"pydantic"})
    for package in needed:
        if package not in want:
            problems.append(f"pyproject.toml: the `generate` extra must pin {package}==<version> (a source of spec/wire/derived/)")
            continue
        try:
            have = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{package}=={want[package]} is pinned but not installed; run `make generate` (pip install -e '.[generate]')")
            continue
        if have != want[package]:
            problems.append(
                f"{package} {have} is installed but pyproject.toml pins {package}=={want[package]}: "
                f"install the pin (pip install '{package}=={want[package]}'), or move the pin and "
                f"re-derive with `make generate` (then review the diff of spec/wire/derived/)"
            )
    return problems


# ------------------------------------------------------------------------------------ derivation


def _pydantic_family(family: Family) -> dict:
    from pydantic import TypeAdapter

    inputs = [(key, "validation", TypeAdapter(family.root_type(key))) for key in ROOT_KEYS]
    key_map, top = TypeAdapter.json_schemas(inputs, by_alias=True, ref_template="#/$defs/{model}")
    defs = top.get("$defs", {})
    roots = {}
    for key, _mode, _adapter in inputs:
        schema = key_map[(key, "validation")]
        ref = schema.get("$ref", "")
        if not ref.startswith("#/$defs/"):  # a root without a def of its own: give it one
            name = f"{key.capitalize()}Root"
            defs[name] = schema
            ref = f"#/$defs/{name}"
        roots[key] = ref.rsplit("/", 1)[1]
    version = importlib.metadata.version(family.package)
    source = {
        "source": f"{family.package}=={version}",
        "via": f"pydantic=={importlib.metadata.version('pydantic')} TypeAdapter.json_schemas(by_alias=True, mode=validation)",
        "entries": {key: root.entry() if isinstance(root, Built) else root.replace(":", ".") for key, root in family.roots.items()},
    }
    built = {key: root.why for key, root in family.roots.items() if isinstance(root, Built)}
    if built:
        source["built_entries"] = built
    return {"x-derived-from": source, "x-roots": roots, "$defs": defs}


def _botocore_family(family: Family) -> dict:
    import botocore.session

    service, operation = family.service_model
    model = botocore.session.get_session().get_service_model(service)
    op = model.operation_model(operation)
    defs: dict[str, Any] = {}

    def convert(shape: Any) -> dict:
        t = shape.type_name
        if t == "structure":
            if shape.name not in defs:
                defs[shape.name] = {}  # placeholder: recursion
                body: dict[str, Any] = {"type": "object", "additionalProperties": False}
                props = {}
                for mname, mshape in shape.members.items():
                    if mshape.serialization.get("location"):  # URI / header members are not in the body
                        continue
                    props[mname] = convert(mshape)
                body["properties"] = props
                required = [m for m in shape.required_members if m in props]
                if required:
                    body["required"] = required
                if shape.metadata.get("union"):
                    body["x-union"] = True
                    body["minProperties"] = body["maxProperties"] = 1
                doc = _doc(shape.documentation)
                if doc:
                    body["description"] = doc
                defs[shape.name] = body
            return {"$ref": f"#/$defs/{shape.name}"}
        meta = shape.metadata
        out: dict[str, Any]
        if t == "list":
            out = {"type": "array", "items": convert(shape.member)}
            _bounds(out, meta, "minItems", "maxItems")
        elif t == "map":
            out = {"type": "object", "additionalProperties": convert(shape.value)}
            _bounds(out, meta, "minProperties", "maxProperties")
        elif t == "string":
            out = {"type": "string"}
            if shape.enum:
                out["enum"] = list(shape.enum)
            if "pattern" in meta:
                out["pattern"] = meta["pattern"]
            _bounds(out, meta, "minLength", "maxLength")
        elif t in ("integer", "long"):
            out = {"type": "integer"}
            _bounds(out, meta, "minimum", "maximum")
        elif t in ("float", "double"):
            out = {"type": "number"}
            _bounds(out, meta, "minimum", "maximum")
        elif t == "boolean":
            out = {"type": "boolean"}
        elif t == "blob":
            out = {"type": "string", "contentEncoding": "base64"}
            _bounds(out, meta, "minLength", "maxLength")
        elif t == "timestamp":
            out = {"type": "string", "format": "date-time"}
        elif t == "document":
            out = {}
        else:  # pragma: no cover - a new botocore type must be mapped here
            raise SystemExit(f"derive {family.name}: botocore shape type {t!r} of {shape.name} is not mapped")
        if shape.name and t != "list" and t != "map":
            out["x-shape"] = shape.name
        return out

    roots = {}
    for key, shape in (("request", op.input_shape), ("response", op.output_shape)):
        roots[key] = convert(shape)["$ref"].rsplit("/", 1)[1]
    version = importlib.metadata.version(family.package)
    return {
        "x-derived-from": {
            "source": f"{family.package}=={version}",
            "via": f"botocore service model {service} (api {model.api_version}), operation {operation}",
            "entries": {"request": f"{operation} input {op.input_shape.name}", "response": f"{operation} output {op.output_shape.name}"},
        },
        "x-roots": roots,
        "$defs": defs,
    }


def _bounds(out: dict, meta: dict, lo: str, hi: str) -> None:
    if "min" in meta:
        out[lo] = meta["min"]
    if "max" in meta:
        out[hi] = meta["max"]


def _doc(html: str) -> str:
    text = re.sub(r"<[^>]+>", "", html or "")
    return " ".join(text.split())[:300]


def _unref(node: Any, ref: str) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("anyOf", "oneOf") and isinstance(value, list):
                value = [v for v in value if not (isinstance(v, dict) and v.get("$ref") == ref)]
                if len(value) == 1 and key == "anyOf":  # a union of one is that one
                    out.update(_unref(value[0], ref))
                    continue
            out[key] = _unref(value, ref)
        if "discriminator" in out and isinstance(out["discriminator"].get("mapping"), dict):
            out["discriminator"]["mapping"] = {k: v for k, v in out["discriminator"]["mapping"].items() if v != ref}
        return out
    if isinstance(node, list):
        return [_unref(v, ref) for v in node]
    return node


def _apply_overlays(family: Family, doc: dict) -> None:
    applied = []
    for overlay, line in family.overlays:
        entry = {k: v for k, v in overlay.items() if k != "schema"}
        if "unref" in overlay:
            name = overlay["unref"]
            if name not in doc["$defs"]:
                raise family.error(line, f"overlay unref {name} no longer applies (the source changed): remove or fix it")
            del doc["$defs"][name]
            doc["$defs"] = _unref(doc["$defs"], f"#/$defs/{name}")
        else:
            key = overlay.get("drop") or overlay.get("set") or overlay.get("require")
            schema = doc["$defs"].get(overlay["def"])
            if schema is None or key not in schema.get("properties", {}) or key in schema.get("required", ()) and "require" in overlay:
                raise family.error(line, f"overlay {overlay['def']}.{key} no longer applies (the source changed): remove or fix it")
            if "require" in overlay:
                schema["required"] = [*schema.get("required", []), key]
            elif "drop" in overlay:
                del schema["properties"][key]
                if key in schema.get("required", []):
                    schema["required"].remove(key)
            else:
                schema["properties"][key] = overlay["schema"]
        applied.append(entry)
    if applied:
        doc["x-derived-from"]["overlays"] = applied


def derive_family(family: Family) -> dict:
    doc = _botocore_family(family) if family.service_model else _pydantic_family(family)
    _apply_overlays(family, doc)
    return {"$schema": JSON_SCHEMA, "title": f"{family.name} wire types (derived, DO NOT EDIT: `make generate`)", **doc}


def render(doc: dict) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def derive_all(fams: Optional[dict[str, Family]] = None) -> dict[str, str]:
    """``{relative path: text}`` of every derived file (FamilyError: every family that failed)."""
    fams = families() if fams is None else fams
    files, problems = {}, []
    for name in sorted(fams):
        try:
            files[str(DERIVED_DIR / f"{name}.json")] = render(derive_family(fams[name]))
        except FamilyError as exc:
            problems += exc.items
    if problems:
        raise FamilyError(problems)
    return files


def _print_errors(exc: "FamilyError", what: str) -> int:
    for err in exc.items:
        print(err, file=sys.stderr)
    print(f"{len(exc.items)} {what}; nothing derived.", file=sys.stderr)
    return 1


def _derive_key(root: Path) -> str:
    """Everything a derivation reads: this module, families.yaml, and every installed distribution's
    version (the pinned SDKs and whatever their types pull in)."""
    installed = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    return "\0".join([Path(__file__).read_text(encoding="utf-8"), (root / FAMILIES_FILE).read_text(encoding="utf-8"), *installed])


def main(argv: list[str], root: Path = ROOT) -> int:
    """`derive` writes spec/wire/derived/; `derive --check` only compares (exit 1 when stale)."""
    check = "--check" in argv
    try:
        fams = families(root)
    except FamilyError as exc:
        return _print_errors(exc, f"spec error(s) in {FAMILIES_FILE}")
    problems = check_pins(root, fams)
    if problems:
        for p in problems:
            print(f"derive: {p}", file=sys.stderr)
        return 1
    try:
        files = json.loads(cached("derive", _derive_key(root), lambda: json.dumps(derive_all(fams))))
    except FamilyError as exc:
        return _print_errors(exc, f"error(s) deriving from the sources {FAMILIES_FILE} names")
    out_dir = root / DERIVED_DIR
    stale = []
    for rel, text in files.items():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(rel)
    extra = sorted(str(p.relative_to(root)) for p in out_dir.glob("*.json") if str(p.relative_to(root)) not in files) if out_dir.exists() else []
    if check:
        if stale or extra:
            print("spec/wire/derived/ is stale; run `make generate`. Differences:", file=sys.stderr)
            for rel in stale + extra:
                print(f"  {rel}", file=sys.stderr)
            return 1
        print(f"spec/wire/derived/ is up to date ({len(files)} families).")
        return 0
    out_dir.mkdir(parents=True, exist_ok=True)
    for rel in extra:
        (root / rel).unlink()
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")
    print(f"derived {len(files)} wire families into {DERIVED_DIR}/ ({len(stale)} changed)")
    return 0
