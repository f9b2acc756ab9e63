"""Read and validate the spec: spec/ir.yaml, spec/transforms.yaml, spec/providers/*.yaml.

Every problem is collected as ``file:line: message`` and reported together; nothing here raises a
traceback for a bad spec.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import coverage
from .derive import load_families
from .losses import check_effects
from .loader import Errors, Located, LocatedList, load_yaml, plain
from .stream_grammar import STREAM_KEYS, Grammar, compile_grammar

PROVIDER_KEYS = {
    "provider", "extends", "title", "docs", "sdk", "wire_types", "request", "response", "cannot_express",
    "codecs", "provider_data", "key_spelling", "models", "stream", "tools", "tool_result",
}
# the documents a provider may have (docs/spec-language.md "Document kinds"): key → the IR class of its codec.
# A provider declares the kinds it has; a chat API has request and response (its `tools` kind is
# derived from the request's rule for Request.tools), MCP has tools and tool_result.
DOCUMENT_KINDS = {"request": "Request", "response": "Response", "tools": "ToolList", "tool_result": "ToolResult"}
KEY_SPELLINGS = ("exact", "proto_json")  # how input may spell wire keys (see docs/spec-language.md)
PROVIDER_DATA = ("own", "family")  # an extending provider's provider_data: its own (default) | its parent's
PATCH_KEYS = {"drop", "fields"}  # plus any codec key, which overrides (mappings merge)
CODEC_KINDS = {"object", "union", "enum", "conversation"}
OBJECT_KEYS = {"kind", "doc", "ir", "set", "fields", "wire_type", "derived", "opaque", "extra"}
# rules that depend on the target model (docs/spec-language.md "Rules for some models"): each entry of a
# `for_models:` list names the models it holds for, why, and its source, and what it changes there
FOR_MODELS_COMMON = ("match", "except", "why", "source")
FOR_MODELS_KEYS = {
    "rule": {"args", "omit", "fallback", "const"},  # a field rule: other args, not sent, a value filled in, another constant
    "variant": {"codec", "report"},                   # a union variant: rendered through another codec
    "enum": {"render", "report"},                     # an enum: render entries replaced
    "conversation": {"hoist", "passes"},              # a conversation: another hoist (null: none), other passes
}
FOR_MODELS_REPORTS = ("loss", "assumption")
UNION_KEYS = {"kind", "doc", "tag", "tag_default", "tag_by_key", "variants", "unknown", "unknown_part_of", "scalar", "derived", "opaque"}
VARIANT_KEYS = {"codec", "part_of", "hint_only", "when", "media", "opaque_if", "flag", "for_models"}
ENUM_KEYS = {"kind", "doc", "what", "parse", "render", "approximate", "derived", "opaque", "for_models"}
CONVERSATION_KEYS = {"kind", "doc", "element", "group", "role_map", "merge", "reorder_results", "require_answers", "trim_prefill", "drop_empty_text", "drop_blank_text", "hoist", "passes", "string_as", "stray_results", "last_turn", "for_models"}
HOIST_KEYS = {"wire", "codec", "transform", "args", "text_only"}
LAST_TURN_KEYS = {"wire", "role", "codec", "list_of", "transform", "args", "required", "doc"}
COMPUTED = {"answered_call": "the ToolCall a ToolResult answers (found by its tool_call_id in the request)"}
RULE_KEYS = {
    "wire", "ir", "type", "required", "const", "emit", "codec", "list_of", "transform", "args",
    "alias", "select", "emit_null", "default", "fallback", "conversation", "doc", "fill", "fill_format", "absent_as",
    "flat", "computed", "for_models", "refine",
}
JSON_TYPES = {
    "string": "str", "integer": "int", "number": "number", "boolean": "bool", "object": "dict",
    "array": "list", "any": None,
}
PART_CLASSES = {"TextPart", "ImagePart", "FilePart", "ReasoningPart", "ToolCall", "ToolResult", "OpaquePart"}
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
DERIVED_DIR = "spec/wire/derived"  # one JSON Schema per wire family (generator/derive.py)


@dataclass
class IRClass:
    name: str
    fields: dict[str, dict]
    required: list[str]


@dataclass
class Transform:
    name: str
    kind: str
    doc: str
    inverse: str
    lossy: bool = False
    ir_arity: int = 1
    args: list[str] = field(default_factory=list)
    codec: bool = False
    returns_hint: bool = False
    parse: str = ""
    render: str = ""
    codec_at: str | None = None  # coverage: the key of the value the rule's codec handles ("{arg}" allowed)
    reads: list = field(default_factory=list)  # coverage: keys of the value the transform reads itself
    key_order: list = field(default_factory=list)  # the order render writes the value's keys ("{arg}" allowed)
    carries: str | None = None  # what the hint keeps that the IR has no place for: {name: value}, reported elsewhere


@dataclass
class Rule:
    node: Located
    wire: str | None
    ir: list[str]
    type: str | None = None
    required: bool = False
    const: Any = None
    has_const: bool = False
    emit: str = "always"
    codec: str | None = None
    list_of: str | None = None
    transform: str | None = None
    args: dict = field(default_factory=dict)
    alias: str | None = None
    select: list[str] | None = None
    emit_null: bool = False
    default: Any = None
    has_default: bool = False
    fallback: Any = None
    has_fallback: bool = False
    conversation: str | None = None
    has_fill: bool = False
    fill: Any = None
    fill_format: str | None = None  # a fill built from wire keys written before it: "fc_{call_id}"
    absent_as: Any = None
    has_absent_as: bool = False
    flat: str | None = None  # an object codec whose wire keys sit in this object itself (no key of its own)
    computed: str | None = None  # a wire value computed from elsewhere in the conversation (COMPUTED)
    for_models: list = field(default_factory=list)  # [(entry, Rule | None)]: the rule for some target models (None: not sent)
    model_why: str = ""  # a rule as a `for_models` entry makes it: the entry's why (its fallback's report)
    refine: bool = False  # its transform's parse refines what earlier rules gave its IR fields ({prior0}, ...)

    @property
    def segments(self) -> list[str]:
        return self.wire.split(".") if self.wire else []


@dataclass
class Codec:
    name: str
    kind: str
    node: Located
    ir: str | None = None
    set: dict = field(default_factory=dict)
    rules: list[Rule] = field(default_factory=list)
    wire_type: str | None = None
    tag: str | None = None
    tag_default: str | None = None
    tag_by_key: bool = False
    variants: list[dict] = field(default_factory=list)
    unknown: str = "error"
    scalar: dict | None = None
    unknown_part_of: str | None = None
    what: str = ""
    parse_table: dict = field(default_factory=dict)
    render_table: dict = field(default_factory=dict)
    element: str | None = None
    group: list[str] = field(default_factory=list)
    role_map: dict = field(default_factory=dict)
    merge: bool = False
    reorder_results: bool = False
    require_answers: bool = False
    approximate: list = field(default_factory=list)  # enum: IR values whose rendering is reported
    trim_prefill: bool = False
    drop_empty_text: bool = False
    drop_blank_text: bool = False
    passes: list = field(default_factory=list)  # [{transform, args, line}] structure transforms with a render call
    hoist: dict | None = None
    string_as: str | None = None  # conversation: a bare string in place of the list is one message of this role
    stray_results: bool = False  # conversation: results whose call is not in the list are kept (server-side state)
    last_turn: list = field(default_factory=list)  # conversation: [(role, Rule, required)] the final turn in keys beside the list
    doc: str = ""
    derived: list = field(default_factory=list)  # coverage: derived wire definitions bound explicitly
    opaque: list = field(default_factory=list)  # coverage: wire keys / variant tags carried verbatim
    extra: list = field(default_factory=list)  # documented wire keys beyond the family's derived schema, carried verbatim
    for_models: list = field(default_factory=list)  # enum / conversation: [entry] what differs for some target models

    def side_rules(self) -> list[Rule]:
        """A conversation's wire keys beside its list, as rules filling a message's ``parts``: the
        hoisted system prompt, then the keys of the final turn (``last_turn``), in wire order."""
        out = []
        if self.hoist:
            h = self.hoist
            out.append(Rule(node=self.node, wire=str(h["wire"]), ir=["parts"], codec=h.get("codec"), transform=h.get("transform"), args=dict(h.get("args") or {})))
        return out + [rule for _role, rule, _required in self.last_turn]


@dataclass
class Provider:
    name: str
    file: str
    title: str
    docs: list[str]
    sdk: str
    wire_types: str | None
    wire_schema: dict | None
    request: str  # the codec of each document kind ("" when the provider has no such documents)
    response: str
    cannot_express: list[dict]
    codecs: dict[str, Codec]
    family: str = ""  # the root of the `extends` chain: the wire format (and its SDK types)
    data_group: str = ""  # whose provider_data this provider writes and reads back (`provider_data:`)
    extends: str | None = None
    own_wire_types: bool = True  # False when the wire types are the parent's (no second types module)
    coverage: Any = None  # generator.coverage.Coverage of the derived wire schema
    cannot_line: int = 0  # line of `cannot_express` in the provider's file
    key_spelling: str = "exact"  # proto_json: every wire key may also come in snake_case (read as lowerCamel)
    stream_framing: str | None = None  # how its stream bodies are framed (runtime framing.FRAMING_BY_NAME); None: no streaming
    stream_reason: str = ""  # why it has none, when `stream: {framing: null, reason: ...}`
    stream_grammar: Grammar | None = None  # its stream events → its complete response body (generator/stream_grammar.py)
    models: tuple | None = None  # glob patterns of the model names it serves (None: any name)
    outside_body: dict = field(default_factory=dict)  # IR "Class.field" → where the target takes it (cannot_express)
    ir_losses: list = field(default_factory=list)  # (what, effects): cannot_express `ir:` (generator/losses.py)
    kinds: dict = field(default_factory=dict)  # document kind → its codec, as declared (DOCUMENT_KINDS)
    dataset: bool = False  # spec/datasets/: a fine-tuning record format (toolwire.DATASETS), not an API


@dataclass
class Spec:
    ir_schema: dict
    ir_classes: dict[str, IRClass]
    transforms: dict[str, Transform]
    providers: list[Provider]


def load_spec(root: Path) -> tuple[Spec | None, Errors]:
    errors = Errors()
    spec_dir = root / "spec"
    ir_doc = load_yaml(spec_dir / "ir.yaml", "spec/ir.yaml", errors)
    tr_doc = load_yaml(spec_dir / "transforms.yaml", "spec/transforms.yaml", errors)
    load_families(root, errors)  # spec/wire/families.yaml: where each wire family's types come from
    ir_classes = _ir_classes(ir_doc, errors) if isinstance(ir_doc, dict) else {}
    transforms = _transforms(tr_doc, errors) if isinstance(tr_doc, dict) else {}
    providers = []
    docs: dict[str, tuple[Located, str]] = {}
    # spec/datasets/: dataset flavours, records of fine-tuning files rather than API bodies (a
    # provider flavour whose body differs by keys, constants, an absent model): the same language,
    # `extends` required; not in PROVIDERS (toolwire.DATASETS), no stream
    paths = [(p, "providers") for p in sorted((spec_dir / "providers").glob("*.yaml"))]
    paths += [(p, "datasets") for p in sorted((spec_dir / "datasets").glob("*.yaml"))]
    datasets = set()
    for path, folder in paths:
        display = f"spec/{folder}/{path.name}"
        doc = load_yaml(path, display, errors)
        if doc is None:
            continue
        if not isinstance(doc, Located):
            errors.add(display, 1, "a provider spec must be a mapping")
            continue
        if path.stem in docs:
            errors.add(display, 1, f"{path.stem!r} is already specified in {docs[path.stem][1]}")
            continue
        if folder == "datasets":
            datasets.add(path.stem)
            if "extends" not in doc:
                errors.at(doc, None, "a dataset flavour `extends` the provider whose body its records follow")
        docs[path.stem] = (doc, display)
    for stem, (doc, display) in docs.items():
        resolved = _resolve_extends(stem, docs, errors, ())
        if resolved is None:
            continue
        merged, family = resolved
        before = len(errors.items)
        provider = _provider(merged, stem, display, ir_classes, transforms, root, errors)
        if provider is not None:
            provider.family = family
            provider.data_group = _data_group(stem, docs, errors)
            provider.extends = doc.get("extends")
            provider.own_wire_types = provider.extends is None or "wire_types" in doc
            if stem in datasets:
                provider.dataset = True
                provider.stream_framing = provider.stream_grammar = None
                provider.stream_reason = "a dataset record, not an API body: no stream"
            if len(errors.items) == before:  # a provider that loaded cleanly: check its wire coverage
                provider.coverage = coverage.check(provider, root, errors, transforms)
            providers.append(provider)
    if not providers and not errors:
        errors.add("spec/providers", 0, "no provider specs found")
    if errors:
        unique = {(e.file, e.line, e.message): e for e in errors.items}  # children re-check inherited codecs
        errors.items = sorted(unique.values(), key=lambda e: (e.file, e.line))
        return None, errors
    return Spec(plain(ir_doc), ir_classes, transforms, providers), errors


def _simple_when(w: Any) -> bool:
    """One condition of a union variant's `when`: a field, 'field prefix', 'field !prefix ...'
    (starts with none of them), or {field, hint}."""
    if isinstance(w, str):
        name, *prefixes = w.split() or [""]
        return bool(name) and all(p.lstrip("!") for p in prefixes) and sum(not p.startswith("!") for p in prefixes) <= 1
    return (
        isinstance(w, dict) and set(w) == {"field", "hint"} and isinstance(w["field"], str)
        and isinstance(w["hint"], dict) and len(w["hint"]) == 1)


def _data_group(stem: str, docs: dict, errors: Errors) -> str:
    """Whose provider_data a provider reads back: its own (the default: wire keys toolwire does not
    model travel only back to the provider they came from), or, with ``provider_data: family`` in
    an extending spec, its parent's group (a flavour with the same wire format and semantics, such
    as Vertex AI for Gemini: a thoughtSignature goes back to either)."""
    seen = set()
    while stem not in seen:
        seen.add(stem)
        doc = docs[stem][0]
        value = doc.get("provider_data", "own")
        if value not in PROVIDER_DATA:
            errors.at(doc, "provider_data", f"provider_data must be one of {', '.join(PROVIDER_DATA)}, got {value!r}")
            return stem
        if value == "own":
            return stem
        parent = doc.get("extends")
        if parent is None:
            errors.at(doc, "provider_data", "provider_data: family needs `extends` (a provider to share it with)")
            return stem
        if parent not in docs:
            return stem  # reported by _resolve_extends
        stem = parent
    return stem


def _resolve_extends(stem: str, docs: dict, errors: Errors, chain: tuple) -> tuple[Located, str] | None:
    """A provider spec with `extends: <parent>` inherits the parent's spec and states its differences.

    Inherited: wire_types, request, response, docs, sdk, key_spelling, models, codecs; `cannot_express` lists add up.
    A child codec replaces the parent's codec of that name, or, written as ``{patch: {...}}``,
    edits it: ``drop`` removes the rules of the listed wire keys, ``fields`` replaces the rules of
    the same wire key (or adds them), any other key overrides (mappings such as enum tables merge).
    Returns the merged document and the family (the root provider of the chain).
    """
    doc, display = docs[stem]
    parent_name = doc.get("extends")
    if parent_name is None:
        return doc, stem
    if parent_name not in docs:
        errors.at(doc, "extends", f"extends {parent_name!r}: no spec/providers/{parent_name}.yaml")
        return None
    if parent_name in chain or parent_name == stem:
        errors.at(doc, "extends", f"extends {parent_name!r} makes a cycle: {' → '.join((*chain, stem, parent_name))}")
        return None
    resolved = _resolve_extends(parent_name, docs, errors, (*chain, stem))
    if resolved is None:
        return None
    parent, family = resolved
    merged = _located(doc, {k: v for k, v in parent.items() if k not in ("provider", "title", "extends")})
    merged.key_lines = {**parent.key_lines, **doc.key_lines}
    for key, value in doc.items():
        if key == "codecs":
            continue
        if key == "cannot_express" and isinstance(value, list) and isinstance(parent.get(key), list):
            # a child states its own losses; `{retract: <what>}` withdraws one of its parent's
            retract = {str(e["retract"]) for e in value if isinstance(e, dict) and "retract" in e}
            for entry in value:
                if isinstance(entry, dict) and "retract" in entry and not any(
                        isinstance(pe, dict) and str(pe.get("what")) == str(entry["retract"]) for pe in parent[key]):
                    errors.at(entry, "retract", f"retract {entry['retract']!r}: {parent_name!r} has no cannot_express entry with that what")
            kept = [pe for pe in parent[key] if not (isinstance(pe, dict) and str(pe.get("what")) in retract)]
            merged[key] = [*kept, *(e for e in value if not (isinstance(e, dict) and "retract" in e))]
        elif key == "stream" and isinstance(value, Located) and isinstance(parent.get(key), Located):
            # a flavour inherits its parent's stream grammar and states what differs: keys replace
            # the parent's, and `events:` entries replace the parent's events of the same name
            stream = _located(value, {**parent[key], **value})
            stream.key_lines = {**parent[key].key_lines, **value.key_lines}
            for part in ("events", "templates"):  # merged entry by entry
                if isinstance(value.get(part), Located) and isinstance(parent[key].get(part), Located):
                    merged_part = _located(value[part], {**parent[key][part], **value[part]})
                    merged_part.key_lines = {**parent[key][part].key_lines, **value[part].key_lines}
                    stream[part] = merged_part
            merged[key] = stream
        else:
            merged[key] = value
    codecs = _located(parent.get("codecs") or Located(), parent.get("codecs") or {})
    child_codecs = doc.get("codecs") or Located()
    if not isinstance(child_codecs, Located):
        errors.at(doc, "codecs", "codecs must be a mapping of codec name → codec")
        child_codecs = Located()
    for name, cdoc in child_codecs.items():
        if isinstance(cdoc, Located) and "patch" in cdoc:
            base = codecs.get(name)
            if not isinstance(base, Located):
                errors.at(child_codecs, name, f"codec {name!r}: patch needs a codec {name!r} in {parent_name!r} to patch")
                continue
            codecs[name] = _patch_codec(name, base, cdoc["patch"], errors)
        else:
            codecs[name] = cdoc
        codecs.key_lines[name] = child_codecs.line_of(name)
    merged["codecs"] = codecs
    return merged, family


def _located(like: Any, items: Any) -> Located:
    out = Located(items)
    out.file = getattr(like, "file", "?")
    out.line = getattr(like, "line", 0)
    out.key_lines = dict(getattr(like, "key_lines", {}) or {})
    return out


def _rule_key(rule: Any) -> Any:
    """What identifies a rule in a patch: its wire key, or (a rule without one: flat, IR-only) its IR field."""
    wire = rule.get("wire")
    if wire is not None:
        return wire
    ir = rule.get("ir")
    return ("ir", ir) if isinstance(ir, str) else None


def _patch_codec(name: str, base: Located, patch: Any, errors: Errors) -> Located:
    if not isinstance(patch, Located):
        errors.at(base, None, f"codec {name!r}: patch must be a mapping")
        return base
    out = _located(base, base)
    out.patched_in = (patch.file, patch.line)  # coverage errors of a patched codec point at the patch
    drop = patch.get("drop") or []
    replace = patch.get("fields") or []
    if not isinstance(drop, list) or not isinstance(replace, list):
        errors.at(patch, None, f"codec {name!r}: patch.drop is a list of wire keys, patch.fields a list of rules")
        return base
    drop_keys = {*drop, *(("ir", k) for k in drop if isinstance(k, str))}  # a wire key, or the IR field of a rule without one
    rules = [r for r in (base.get("fields") or []) if not (isinstance(r, dict) and _rule_key(r) in drop_keys)]
    keys = [_rule_key(r) if isinstance(r, dict) else None for r in rules]
    for key in drop:
        if not {key, ("ir", key)} & {_rule_key(r) for r in (base.get("fields") or []) if isinstance(r, dict)}:
            errors.at(patch, "drop", f"codec {name!r}: patch drops wire key {key!r}, which no rule of the parent codec has")
    for rule in replace:
        key = _rule_key(rule) if isinstance(rule, dict) else None
        if key is not None and key in keys:
            rules[keys.index(key)] = rule
        else:
            rules.append(rule)
            keys.append(key)
    if drop or replace:  # an enum or union patch has no rules to edit
        fields = LocatedList(rules)
        fields.file, fields.line, fields.item_lines = patch.file, patch.line, []
        out["fields"] = fields
    for key, value in patch.items():
        if key in PATCH_KEYS:
            continue
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = _located(value, {**base[key], **value})
        elif key in ("opaque", "extra") and isinstance(value, list) and isinstance(base.get(key), list):
            out[key] = [*base[key], *value]  # a patch adds to the parent's opaque / extra keys
        else:
            out[key] = value
        out.key_lines[key] = patch.line_of(key)
    return out


def _ir_classes(doc: Located, errors: Errors) -> dict[str, IRClass]:
    out = {}
    defs = doc.get("$defs")
    if not isinstance(defs, dict):
        errors.at(doc, None, "ir.yaml needs $defs")
        return out
    for name, schema in defs.items():
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        out[name] = IRClass(name, dict(props), list(schema.get("required", [])) if isinstance(schema, dict) else [])
    return out


def _transforms(doc: Located, errors: Errors) -> dict[str, Transform]:
    out = {}
    allowed = {"kind", "doc", "inverse", "lossy", "ir_arity", "args", "codec", "returns_hint", "parse", "render", "implicit", "codec_at", "reads", "key_order", "carries"}
    for name, entry in doc.items():
        if not isinstance(entry, Located):
            errors.at(doc, name, f"transform {name!r} must be a mapping")
            continue
        for key in entry:
            if key not in allowed:
                errors.at(entry, key, f"transform {name!r}: unknown key {key!r}; expected one of {', '.join(sorted(allowed))}")
        for key in ("kind", "doc", "inverse"):
            if key not in entry:
                errors.at(entry, None, f"transform {name!r}: missing {key!r} (every transform documents its inverse or loss)")
        kind = entry.get("kind")
        if kind not in ("field", "structure"):
            errors.at(entry, "kind", f"transform {name!r}: kind must be 'field' or 'structure'")
        if kind == "field" and not entry.get("implicit") and not (entry.get("parse") and entry.get("render")):
            errors.at(entry, None, f"transform {name!r}: a field transform needs 'parse' and 'render' calls")
        out[name] = Transform(
            name=name, kind=str(kind), doc=str(entry.get("doc", "")), inverse=str(entry.get("inverse", "")),
            lossy=bool(entry.get("lossy", False)), ir_arity=int(entry.get("ir_arity", 1)),
            args=list(entry.get("args", [])), codec=entry.get("codec") == "required",
            returns_hint=bool(entry.get("returns_hint", False)), parse=str(entry.get("parse", "")),
            render=str(entry.get("render", "")),
            codec_at=entry.get("codec_at"), reads=[str(r) for r in entry.get("reads") or []],
            key_order=[str(k) for k in entry.get("key_order") or []],
            carries=str(entry["carries"]) if entry.get("carries") else None,
        )
        if entry.get("carries") and not entry.get("returns_hint"):
            errors.at(entry, "carries", f"transform {name!r}: carries reads the hint (what it keeps that the IR has no place for), so it needs returns_hint: true")
        if not isinstance(entry.get("key_order") or [], list):
            errors.at(entry, "key_order", f"transform {name!r}: key_order must be a list of keys (the render order of the value's keys)")
    return out


def _provider(doc, stem, display, ir_classes, transforms, root, errors) -> Provider | None:
    for key in doc:
        if key not in PROVIDER_KEYS:
            errors.at(doc, key, f"unknown key {key!r}; expected one of {', '.join(sorted(PROVIDER_KEYS))}")
    name = doc.get("provider")
    if name != stem:
        errors.at(doc, "provider", f"provider must be {stem!r} (the file name), got {name!r}")
    for key in ("title", "codecs"):
        if key not in doc:
            errors.at(doc, None, f"missing required key {key!r}")
    if not any(doc.get(k) for k in DOCUMENT_KINDS):
        errors.at(doc, None, f"declares no document kind: name the codec of at least one of {', '.join(DOCUMENT_KINDS)}")
    codecs_doc = doc.get("codecs") or {}
    if not isinstance(codecs_doc, Located):
        errors.at(doc, "codecs", "codecs must be a mapping of codec name → codec")
        codecs_doc = Located()
    codecs = {}
    for cname, cdoc in codecs_doc.items():
        if not isinstance(cdoc, Located):
            errors.at(codecs_doc, cname, f"codec {cname!r} must be a mapping")
            continue
        if not NAME_RE.match(str(cname)):
            errors.at(codecs_doc, cname, f"codec name {cname!r} must be lower_snake_case")
        codecs[cname] = _codec(cname, cdoc, errors)
    wire_schema = None
    wire_file = doc.get("wire_types")
    if wire_file:  # a wire family: its types are derived from the official source (generator/derive.py)
        wire_path = root / DERIVED_DIR / f"{wire_file}.json"
        if not NAME_RE.match(str(wire_file)):
            errors.at(doc, "wire_types", f"wire_types must name a wire family (e.g. anthropic), got {wire_file!r}")
        elif not wire_path.exists():
            errors.at(doc, "wire_types", f"wire family {wire_file!r} has no derived schema {DERIVED_DIR}/{wire_file}.json (add the family to spec/wire/families.yaml and run `make generate`)")
        else:
            wire_schema = json.loads(wire_path.read_text(encoding="utf-8"))
    cannot = doc.get("cannot_express") or []
    if not isinstance(cannot, list) or any(not isinstance(c, dict) or not {"what", "reason"} <= set(c) for c in cannot):
        errors.at(doc, "cannot_express", "cannot_express must be a list of {what, reason}")
        cannot = []
    provider = Provider(
        name=str(name), file=display, title=str(doc.get("title", "")), docs=list(doc.get("docs") or []),
        sdk=str(doc.get("sdk", "")), wire_types=str(wire_file) if wire_file else None,
        wire_schema=plain(wire_schema) if isinstance(wire_schema, dict) else None,
        request=str(doc.get("request", "")), response=str(doc.get("response", "")),
        cannot_express=[plain(c) for c in cannot], codecs=codecs,
    )
    provider.cannot_line = doc.line_of("cannot_express") if "cannot_express" in doc else 0
    for entry in cannot:  # ir: the loss as effects on the IR, which the tests apply (generator/losses.py)
        effects = check_effects(entry, ir_classes, errors)
        if effects:
            provider.ir_losses.append((str(entry["what"]), effects))
    for entry in cannot:  # outside_body: IR Class.field — a value the target takes outside the body (its URL)
        ref = entry.get("outside_body")
        if ref is None:
            continue
        cls_name, _, fname = str(ref).partition(".")
        if cls_name not in ir_classes or fname not in ir_classes[cls_name].fields:
            errors.at(entry, "outside_body", f"outside_body must name an IR field as Class.field (e.g. Request.model), got {ref!r}")
        else:
            provider.outside_body[str(ref)] = str(entry.get("reason", ""))
    models = doc.get("models", "any")
    if models != "any":
        if not isinstance(models, list) or not models or not all(isinstance(m, str) and m for m in models):
            errors.at(doc, "models", "models must be `any` or a list of glob patterns of the model names the provider serves (e.g. [claude-*])")
        else:
            provider.models = tuple(str(m) for m in models)
    spelling = doc.get("key_spelling", "exact")
    if spelling not in KEY_SPELLINGS:
        errors.at(doc, "key_spelling", f"key_spelling must be one of {', '.join(KEY_SPELLINGS)}, got {spelling!r}")
    else:
        provider.key_spelling = str(spelling)
    if doc.get("response") or "stream" in doc:  # streams are responses: a provider without them has none
        _stream(doc, provider, errors)
    if "stream" in doc and not doc.get("response"):
        errors.at(doc, "stream", "stream: a stream is a streamed response, and this provider declares no `response` kind")
    for key, cls_name in DOCUMENT_KINDS.items():
        entry = doc.get(key)
        if not entry:
            continue
        if not isinstance(entry, str) or entry not in codecs:
            errors.at(doc, key, f"{key} codec {entry!r} is not defined under codecs")
            continue
        provider.kinds[key] = entry
        made = codecs[entry].ir if codecs[entry].kind == "object" else None
        if made != cls_name and key in ("tools", "tool_result"):  # (request / response codecs: checked where they are compiled)
            errors.at(doc, key, f"{key} codec {entry!r} makes {f'IR {made}' if made else f'no IR object (a {codecs[entry].kind} codec)'}; "
                      f"a {key} document is IR {cls_name} (an object codec with ir: {cls_name})")
    if provider.stream_grammar is not None and provider.stream_grammar.unfinished:
        _resolve_unfinished(provider, doc["stream"], errors)
    _check_references(provider, ir_classes, transforms, errors)
    return provider


# the Python types of a JSON scalar type (a bool is an int to isinstance: told apart by the caller)
_SCALAR_TYPES = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}


def _resolve_unfinished(provider: Provider, stream: Located, errors: Errors) -> None:
    """Each `unfinished` body path is a field of the response codec (followed into its object codecs):
    a constant must hold that value, an enum must parse it, and the IR fields it converts to are
    noted, to stay unset in a conversion before the end."""
    grammar = provider.stream_grammar
    response = provider.kinds.get("response")
    resolved = []
    for path, value in grammar.unfinished:
        shown = ".".join(map(str, path))
        found = _unfinished_field(provider, response, path, value) if response else "the provider has no response codec"
        if isinstance(found, str):
            errors.at(stream, "unfinished", f"provider {provider.name!r} stream: unfinished {shown}: {found}")
            continue
        # (a constant of the complete response stands in for any other value the body holds: Ollama's
        # done false; another value only where the body has none)
        resolved.append((path, value, found or (), found is None))
    grammar.unfinished = tuple(resolved)


def _unfinished_field(provider: Provider, codec_name: str, path: tuple, value: Any) -> tuple | str | None:
    """The IR paths the value at ``path`` of an object of codec ``codec_name`` converts to (None: a
    constant of the response, converted to nothing), or why it cannot stand in."""
    codec = provider.codecs.get(codec_name)
    if codec is None or codec.kind != "object":
        return f"codec {codec_name!r} is not an object codec"
    for rule in codec.rules:
        if not rule.wire:
            continue
        wire = tuple(rule.wire.split("."))
        if path == wire:
            if rule.has_const:
                return None if rule.const == value else f"the response holds the constant {rule.const!r} there, not {value!r}"
            sub = provider.codecs.get(rule.codec) if rule.codec else None
            if rule.list_of or rule.transform or rule.select or len(rule.ir) != 1 or sub is not None and sub.kind not in ("enum", "object"):
                return "a value that stands in converts to an IR field of its own: a typed scalar, an enum or an object, no list or transform"
            if (sub is not None and sub.kind == "object") != isinstance(value, dict):
                return f"an object stands in for an object (codec {rule.codec!r}), a scalar for a scalar; got {value!r}"
            if sub is not None and sub.kind == "object":
                return ((rule.ir[0],),)  # (the whole IR object stays unset)
            if sub is not None and value not in sub.parse_table:
                return f"{value!r} is not a value of enum {rule.codec!r} ({', '.join(map(str, sub.parse_table))})"
            kinds = _SCALAR_TYPES.get(rule.type or "")
            if kinds and (not isinstance(value, kinds) or isinstance(value, bool) != (rule.type == "boolean")):
                return f"the field is of type {rule.type}, got {value!r}"
            return tuple((ir,) for ir in rule.ir)
        if path[: len(wire)] == wire and rule.codec and len(rule.ir) == 1:
            inner = _unfinished_field(provider, rule.codec, path[len(wire):], value)
            return inner if inner is None or isinstance(inner, str) else tuple((rule.ir[0], *p) for p in inner)
    return f"no field of codec {codec_name!r} is at that path"


def _codec(name: str, cdoc: Located, errors: Errors) -> Codec:
    kind = cdoc.get("kind", "object")
    if kind not in CODEC_KINDS:
        errors.at(cdoc, "kind", f"codec {name!r}: unknown kind {kind!r}; expected one of {', '.join(sorted(CODEC_KINDS))}")
        return Codec(name=name, kind="invalid", node=cdoc)
    allowed = {"object": OBJECT_KEYS, "union": UNION_KEYS, "enum": ENUM_KEYS, "conversation": CONVERSATION_KEYS}[kind]
    for key in cdoc:
        if key not in allowed:
            errors.at(cdoc, key, f"codec {name!r} ({kind}): unknown key {key!r}; expected one of {', '.join(sorted(allowed))}")
    codec = Codec(name=name, kind=kind, node=cdoc, doc=str(cdoc.get("doc", "")))
    for key in ("derived", "opaque", "extra"):
        value = cdoc.get(key)
        if value is None:
            continue
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, (str, int, float, bool)) for v in value):
            errors.at(cdoc, key, f"codec {name!r}: {key} must be a list of {'definition names' if key == 'derived' else 'wire keys or variant tags'}")
            continue
        setattr(codec, key, [str(v) for v in value])
    if kind == "object":
        codec.ir = cdoc.get("ir")
        codec.set = dict(cdoc.get("set") or {})
        codec.wire_type = cdoc.get("wire_type")
        fields = cdoc.get("fields") or []
        if not isinstance(fields, LocatedList):
            errors.at(cdoc, "fields", f"codec {name!r}: fields must be a list of rules")
            fields = []
        for rdoc in fields:
            if not isinstance(rdoc, Located):
                errors.at(cdoc, "fields", f"codec {name!r}: every field rule must be a mapping")
                continue
            codec.rules.append(_rule(name, rdoc, errors))
            _check_fill_format(name, codec.rules, errors)
    elif kind == "union":
        codec.tag = cdoc.get("tag")
        codec.tag_default = cdoc.get("tag_default")
        codec.tag_by_key = bool(cdoc.get("tag_by_key", False))
        codec.unknown = cdoc.get("unknown", "error")
        codec.unknown_part_of = cdoc.get("unknown_part_of")
        if codec.unknown_part_of is not None and codec.unknown != "opaque":
            errors.at(cdoc, "unknown_part_of", f"codec {name!r}: unknown_part_of needs unknown: opaque")
        scalar = cdoc.get("scalar")
        if scalar is not None:
            if not isinstance(scalar, dict) or set(scalar) != {"codec", "ir", "field"}:
                errors.at(cdoc, "scalar", f"codec {name!r}: scalar needs exactly codec (an enum), ir (a class) and field")
            else:
                codec.scalar = dict(scalar)
        if codec.unknown not in ("error", "opaque", "provider_tool"):
            errors.at(cdoc, "unknown", f"codec {name!r}: unknown must be 'error', 'opaque' or 'provider_tool'")
        if not codec.tag and not codec.tag_by_key:
            errors.at(cdoc, None, f"codec {name!r}: a union needs 'tag' (a wire key) or 'tag_by_key: true'")
        variants = cdoc.get("variants")
        if not isinstance(variants, Located) or not variants:
            errors.at(cdoc, "variants", f"codec {name!r}: variants must map tag values to codecs")
            variants = Located()
        for tag, value in variants.items():
            # a list gives several codecs for one tag, told apart by the item's media type (`media`)
            alternatives = list(value) if isinstance(value, list) else [value]
            for n, v in enumerate(alternatives):
                entry = {"codec": v} if isinstance(v, str) else dict(v) if isinstance(v, dict) else None
                if entry is None or "codec" not in entry:
                    errors.at(variants, tag, f"codec {name!r}: variant {tag!r} must name a codec")
                    continue
                for key in entry:
                    if key not in VARIANT_KEYS:
                        errors.at(variants, tag, f"codec {name!r}: variant {tag!r} has unknown key {key!r}")
                if "media" in entry:
                    media = entry["media"]
                    media = [media] if isinstance(media, str) else media
                    if not isinstance(media, list) or not media or not all(isinstance(m, str) and ("/" in m or m == "none") for m in media):
                        errors.at(variants, tag, f"codec {name!r}: variant {tag!r}: media must be MIME types, prefixes ending in '/' or 'none'")
                        media = []
                    entry["media"] = [str(m) for m in media]
                elif n < len(alternatives) - 1 and "flag" not in entry:
                    errors.at(variants, tag, f"codec {name!r}: variant {tag!r}: every codec but the last of a list needs 'media' or 'flag'")
                if "flag" in entry and not (isinstance(entry["flag"], str) and entry["flag"] and n < len(alternatives) - 1):
                    errors.at(variants, tag, f"codec {name!r}: variant {tag!r}: flag must be a wire key (the item takes this codec when that key holds a value other than false), on a codec before the last of its tag")
                if "opaque_if" in entry and not (isinstance(entry["opaque_if"], str) and entry["opaque_if"]):
                    errors.at(variants, tag, f"codec {name!r}: variant {tag!r}: opaque_if must be a wire key (its presence makes the item opaque)")
                if "when" in entry:
                    whens = entry["when"] if isinstance(entry["when"], list) else [entry["when"]]
                    for w in whens:
                        every = w["all"] if isinstance(w, dict) and set(w) == {"all"} and isinstance(w["all"], list) and w["all"] else [w]
                        if not all(_simple_when(x) for x in every):
                            errors.at(variants, tag, f"codec {name!r}: variant {tag!r}: a 'when' entry is an IR field name, "
                                      "'field prefix', 'field !prefix !prefix...' (a value starting with none of them), {field: F, hint: {wire key: hint value}}, or {all: [entries]} (every one holds)")
                if "for_models" in entry:
                    entry["for_models"] = _for_models(f"codec {name!r}: variant {tag!r}", variants, tag, entry["for_models"], "variant", errors)
                entry["tag"] = str(tag)
                entry["line"] = variants.line_of(tag)
                codec.variants.append(entry)
    elif kind == "enum":
        codec.what = str(cdoc.get("what", name))
        codec.parse_table = dict(cdoc.get("parse") or {})
        codec.render_table = dict(cdoc.get("render") or {})
        codec.approximate = [str(v) for v in (cdoc.get("approximate") or [])]
        for value in codec.approximate:
            if value not in codec.render_table:
                errors.at(cdoc, "approximate", f"codec {name!r}: approximate value {value!r} is not rendered (add it to 'render')")
        if not codec.parse_table or not codec.render_table:
            errors.at(cdoc, None, f"codec {name!r}: an enum needs both 'parse' (wire → IR) and 'render' (IR → wire)")
        if "for_models" in cdoc:
            for entry in _for_models(f"codec {name!r}", cdoc, "for_models", cdoc["for_models"], "enum", errors):
                render = entry.get("render")
                if not isinstance(render, dict) or not render or any(k not in codec.render_table for k in render):
                    errors.add(entry["file"], entry["line"], f"{entry['where']}: render replaces entries of the enum's render table "
                               f"({', '.join(map(str, codec.render_table))})")
                    continue
                codec.for_models.append(entry)
    else:
        codec.element = cdoc.get("element")
        codec.group = list(cdoc.get("group") or [])
        codec.role_map = dict(cdoc.get("role_map") or {})
        codec.merge = bool(cdoc.get("merge", False))
        codec.reorder_results = bool(cdoc.get("reorder_results", False))
        codec.require_answers = bool(cdoc.get("require_answers", False))
        codec.trim_prefill = bool(cdoc.get("trim_prefill", False))
        codec.drop_empty_text = bool(cdoc.get("drop_empty_text", False))
        codec.drop_blank_text = bool(cdoc.get("drop_blank_text", False))
        codec.string_as = cdoc.get("string_as")
        codec.stray_results = bool(cdoc.get("stray_results", False))
        if codec.string_as is not None and codec.string_as not in ("user", "assistant", "system"):
            errors.at(cdoc, "string_as", f"codec {name!r}: string_as is an IR role (user, assistant, system)")
        passes = cdoc.get("passes") or []
        if not isinstance(passes, list):
            errors.at(cdoc, "passes", f"codec {name!r}: passes must be a list of {{transform, args}}")
            passes = []
        for i, entry in enumerate(passes):
            if not isinstance(entry, dict) or "transform" not in entry or set(entry) - {"transform", "args"}:
                errors.at(cdoc, "passes", f"codec {name!r}: passes[{i}] must be {{transform: <structure transform>, args: {{...}}}}")
                continue
            codec.passes.append({"transform": str(entry["transform"]), "args": dict(entry.get("args") or {}), "line": cdoc.line_of("passes")})
        hoist = cdoc.get("hoist")
        if hoist is not None:
            if not isinstance(hoist, dict) or "wire" not in hoist or not ({"codec", "transform"} & set(hoist)):
                errors.at(cdoc, "hoist", f"codec {name!r}: hoist needs 'wire' and a 'codec' (and optionally 'transform')")
            else:
                for key in hoist:
                    if key not in HOIST_KEYS:
                        errors.at(cdoc, "hoist", f"codec {name!r}: hoist has unknown key {key!r}")
                codec.hoist = dict(hoist)
        last = cdoc.get("last_turn")
        if last is not None and not isinstance(last, list):
            errors.at(cdoc, "last_turn", f"codec {name!r}: last_turn is a list of {{wire, role, codec | list_of, ...}}")
            last = []
        for i, entry in enumerate(last or []):
            if not isinstance(entry, dict):
                errors.at(cdoc, "last_turn", f"codec {name!r}: last_turn[{i}] must be a mapping {{wire, role, codec | list_of}}")
                continue
            for key in entry:
                if key not in LAST_TURN_KEYS:
                    errors.at(entry, key, f"codec {name!r}: last_turn[{i}] has unknown key {key!r}; expected one of {', '.join(sorted(LAST_TURN_KEYS))}")
            role = entry.get("role")
            if role not in ("user", "assistant", "tool"):
                errors.at(entry, "role" if "role" in entry else None, f"codec {name!r}: last_turn[{i}] needs role: user, assistant or tool (the IR role of the message the key holds), got {role!r}")
            if "wire" not in entry or ("codec" in entry) == ("list_of" in entry):
                errors.at(entry, None, f"codec {name!r}: last_turn[{i}] needs 'wire' and exactly one of 'codec' (with an optional 'transform') or 'list_of'")
                continue
            rule = Rule(node=entry, wire=str(entry["wire"]), ir=["parts"], codec=entry.get("codec"), list_of=entry.get("list_of"),
                        transform=entry.get("transform"), args=dict(entry.get("args") or {}), required=bool(entry.get("required", False)))
            if rule.transform and rule.list_of:
                errors.at(entry, "transform", f"codec {name!r}: last_turn[{i}]: a transform goes with 'codec', not 'list_of'")
            codec.last_turn.append((role, rule, rule.required))
        if "for_models" in cdoc:
            for entry in _for_models(f"codec {name!r}", cdoc, "for_models", cdoc["for_models"], "conversation", errors):
                if "hoist" in entry and entry["hoist"] is not None:
                    h = entry["hoist"]
                    if not isinstance(h, dict) or "wire" not in h or not ({"codec", "transform"} & set(h)) or set(h) - HOIST_KEYS \
                            or codec.hoist is None or str(h["wire"]) != str(codec.hoist.get("wire")):
                        errors.add(entry["file"], entry["line"], f"{entry['where']}: hoist is null (no hoist: the pass decides where system "
                                   f"messages go) or a hoist ({', '.join(sorted(HOIST_KEYS))}) into the codec's own hoist key")
                        continue
                if "passes" in entry:
                    passes = entry["passes"]
                    if not isinstance(passes, list) or not all(isinstance(e, dict) and "transform" in e and not set(e) - {"transform", "args"} for e in passes):
                        errors.add(entry["file"], entry["line"], f"{entry['where']}: passes must be a list of {{transform, args}}")
                        continue
                    entry["passes"] = [{"transform": str(e["transform"]), "args": dict(e.get("args") or {}), "line": entry["line"], "file": entry["file"]} for e in passes]
                codec.for_models.append(entry)
    return codec


def _stream(doc: Located, provider: Provider, errors: Errors) -> None:
    """`stream: {framing: NAME}`: how the provider frames a streamed response body (SSE, NDJSON, AWS
    event stream: the framings of toolwire_runtime/framing.py); `framing: null` with a `reason` says
    it has none toolwire reads yet."""
    from toolwire_runtime.framing import FRAMING_BY_NAME  # the vocabulary is the runtime's (stdlib only)

    stream = doc.get("stream")
    if stream is None:
        errors.at(doc, None, f"provider {provider.name!r}: `stream: {{framing: ...}}` is missing: one of {', '.join(FRAMING_BY_NAME)}, "
                  "or null with a reason")
        return
    if not isinstance(stream, Located):
        errors.at(doc, "stream", "stream must be a mapping {framing: NAME}")
        return
    for key in stream:
        if key not in STREAM_KEYS:
            errors.at(stream, key, f"stream has unknown key {key!r}; expected one of {', '.join(sorted(STREAM_KEYS))}")
    framing = stream.get("framing")
    if framing is None:
        if not stream.get("reason"):
            errors.at(stream, "framing" if "framing" in stream else None, "stream: framing null needs a `reason` (why toolwire reads no stream of this provider yet)")
        provider.stream_reason = str(stream.get("reason") or "")
    elif framing not in FRAMING_BY_NAME:
        errors.at(stream, "framing", f"unknown stream framing {framing!r}; {_suggest(framing, list(FRAMING_BY_NAME))}expected one of {', '.join(FRAMING_BY_NAME)}")
    else:
        provider.stream_framing = str(framing)
    provider.stream_grammar = compile_grammar(provider.name, stream, errors)
    if provider.stream_grammar is None and framing is not None:
        errors.at(stream, None, f"provider {provider.name!r}: stream needs `events:` (its stream grammar: what each event adds to the complete response; docs/spec-language.md, Streams)")


def _check_fill_format(codec_name: str, rules: list, errors: Errors) -> None:
    """A `fill_format` names only wire keys of this object that rules before it write."""
    import string

    rule = rules[-1]
    if rule.fill_format is None:
        return
    earlier = {r.wire for r in rules[:-1] if r.wire and "." not in r.wire}
    try:
        fields = [f for _lit, f, _spec, _conv in string.Formatter().parse(rule.fill_format) if f is not None] if isinstance(rule.fill_format, str) else None
    except ValueError:
        fields = None
    if not fields or not all(f in earlier or f == "$n" for f in fields):
        errors.at(rule.node, "fill_format", f"codec {codec_name!r}: fill_format is a string naming wire keys written by rules before it in braces (\"fc_{{call_id}}\"), or {{$n}} (the object's number in the conversion); it can use {', '.join(sorted(earlier)) or 'none'}, got {rule.fill_format!r}")


def _rule(codec_name: str, rdoc: Located, errors: Errors) -> Rule:
    for key in rdoc:
        if key not in RULE_KEYS:
            errors.at(rdoc, key, f"codec {codec_name!r}: unknown field-rule key {key!r}; expected one of {', '.join(sorted(RULE_KEYS))}")
    ir = rdoc.get("ir")
    ir_list = [ir] if isinstance(ir, str) else list(ir) if isinstance(ir, list) else []
    rule = Rule(node=rdoc, wire=rdoc.get("wire"), ir=ir_list)
    rule.type = rdoc.get("type")
    if rule.type is not None and rule.type not in JSON_TYPES:
        errors.at(rdoc, "type", f"codec {codec_name!r}: unknown type {rule.type!r}; expected one of {', '.join(JSON_TYPES)}")
    rule.required = bool(rdoc.get("required", False))
    if "const" in rdoc:
        rule.has_const, rule.const = True, rdoc["const"]
    rule.emit = rdoc.get("emit", "always")
    if rule.emit not in ("always", "if_seen"):
        errors.at(rdoc, "emit", f"codec {codec_name!r}: emit must be 'always' or 'if_seen'")
    for key in ("codec", "list_of", "transform", "alias", "conversation", "flat"):
        setattr(rule, key, rdoc.get(key))
    if rule.flat is not None:
        others = [k for k in ("wire", "codec", "list_of", "transform", "alias", "conversation", "const", "default", "fallback", "fill", "absent_as", "type") if k in rdoc]
        if others or len(ir_list) != 1:
            errors.at(rdoc, "flat", f"codec {codec_name!r}: a flat rule names one IR field and the codec whose wire keys sit in this object "
                      f"({{ir: usage, flat: usage_counts}}), with no {', '.join(others) or 'other key'}")
    rule.computed = rdoc.get("computed")
    if rule.computed is not None:
        if rule.computed not in COMPUTED:
            errors.at(rdoc, "computed", f"codec {codec_name!r}: computed {rule.computed!r} is not a value toolwire can compute; expected one of "
                      + ", ".join(f"{k} ({v})" for k, v in COMPUTED.items()))
        others = [k for k in ("ir", "list_of", "transform", "const", "default", "fallback", "fill", "type", "alias") if k in rdoc]
        if others or not rule.wire or not rule.codec:
            errors.at(rdoc, "computed", f"codec {codec_name!r}: a computed rule has 'wire' and the 'codec' its value goes through, "
                      f"and no {', '.join(others) or 'other key'} ({{wire: call, computed: answered_call, codec: call}})")
    rule.refine = bool(rdoc.get("refine", False))
    if rule.refine and not (rule.transform and rule.wire):
        errors.at(rdoc, "refine", f"codec {codec_name!r}: a refine rule has a 'wire' key and a 'transform' whose parse reads what earlier rules gave its IR fields ({{prior0}}, ...)")
    rule.args = dict(rdoc.get("args") or {})
    sel = rdoc.get("select")
    rule.select = [sel] if isinstance(sel, str) else list(sel) if sel else None
    rule.emit_null = bool(rdoc.get("emit_null", False))
    if "default" in rdoc:
        rule.has_default, rule.default = True, plain(rdoc["default"])  # any JSON value
    if "fallback" in rdoc:
        rule.has_fallback, rule.fallback = True, rdoc["fallback"]
    if "absent_as" in rdoc:
        rule.has_absent_as, rule.absent_as = True, rdoc["absent_as"]
        if rdoc.get("transform") or rule.required:
            errors.at(rdoc, "absent_as", f"codec {codec_name!r}: absent_as is for an optional key without a transform (a transform rule says `default`)")
    if "fill" in rdoc:
        rule.has_fill, rule.fill = True, rdoc["fill"]
        if rule.ir or rule.has_const:
            errors.at(rdoc, "fill", f"codec {codec_name!r}: a fill rule maps no IR field and has no const")
    if "fill_format" in rdoc:
        rule.has_fill, rule.fill_format = True, rdoc["fill_format"]
        if "fill" in rdoc or rule.ir or rule.has_const:
            errors.at(rdoc, "fill_format", f"codec {codec_name!r}: a fill_format rule maps no IR field and has no const or fill")
    if "for_models" in rdoc:
        _rule_for_models(codec_name, rule, rdoc, errors)
    if rule.wire is None and not rule.ir:
        errors.at(rdoc, None, f"codec {codec_name!r}: a field rule needs 'wire', 'ir' or both")
    if rule.has_const and rule.ir:
        errors.at(rdoc, "const", f"codec {codec_name!r}: a const rule maps no IR field (drop 'ir')")
    if not rule.has_const and not rule.has_fill and not rule.computed and rule.wire and not rule.ir:
        errors.at(rdoc, "wire", f"codec {codec_name!r}: wire key {rule.wire!r} maps to no IR field (add 'ir' or 'const')")
    return rule


def _for_models(what: str, node: Any, key: Any, value: Any, kind: str, errors: Errors) -> list[dict]:
    """A `for_models:` list (rules that depend on the target model): each entry is
    ``{match: [globs], why, source, <what changes>}``; the first entry whose `match` covers the
    target model applies. Returns the entries as plain dicts (with their ``line``), or [] on errors."""
    where = f"{what}: for_models"
    if not isinstance(value, list) or not value:
        errors.at(node, key, f"{where} must be a list of {{match: [model globs], why, source, ...}}")
        return []
    allowed = FOR_MODELS_KEYS[kind]
    out = []
    for i, entry in enumerate(value):
        at = entry if isinstance(entry, Located) else node
        line_key = None if isinstance(entry, Located) else key
        if not isinstance(entry, dict):
            errors.at(node, key, f"{where}[{i}] must be a mapping {{match, why, source, {', '.join(sorted(allowed))}}}")
            continue
        ok = True
        for k in entry:
            if k not in FOR_MODELS_COMMON and k not in allowed:
                errors.at(at, k if line_key is None else line_key, f"{where}[{i}]: unknown key {k!r}; expected {', '.join(FOR_MODELS_COMMON)} and one of {', '.join(sorted(allowed))}")
                ok = False
        match = entry.get("match")
        if isinstance(match, str):
            match = [match]
        if not isinstance(match, list) or not match or not all(isinstance(m, str) and m for m in match):
            errors.at(at, "match" if line_key is None else line_key, f"{where}[{i}]: match must be a list of glob patterns of model names (e.g. [\"gpt-5*\"])")
            ok = False
        unless = entry.get("except", [])
        if isinstance(unless, str):
            unless = [unless]
        if not isinstance(unless, list) or not all(isinstance(m, str) and m for m in unless):
            errors.at(at, "except" if line_key is None else line_key, f"{where}[{i}]: except must be a list of glob patterns of model names the entry does not hold for")
            ok = False
        for k in ("why", "source"):
            if not (isinstance(entry.get(k), str) and entry[k].strip()):
                errors.at(at, None if line_key is None else line_key, f"{where}[{i}] needs `{k}`: "
                          + ("what differs for these models (it is the report's text)" if k == "why" else "where the rule is documented (a URL or an SDK file)"))
                ok = False
        changes = [k for k in entry if k in allowed and k != "report"]
        if not changes:
            errors.at(at, None if line_key is None else line_key, f"{where}[{i}] changes nothing: give one of {', '.join(sorted(allowed - {'report'}))}")
            ok = False
        if "report" in allowed and entry.get("report") not in FOR_MODELS_REPORTS:
            errors.at(at, "report" if line_key is None and "report" in entry else line_key,
                      f"{where}[{i}] needs report: {' or '.join(FOR_MODELS_REPORTS)} (the warning its change is reported as)")
            ok = False
        if ok:
            out.append({**plain(entry), "match": tuple(str(m) for m in match), "except": tuple(str(m) for m in unless), "why": " ".join(entry["why"].split()),
                        "source": " ".join(entry["source"].split()), "line": getattr(at, "line", 0), "file": getattr(at, "file", "?"),
                        "where": f"{where}[{i}]"})
    return out


def _rule_for_models(codec_name: str, rule: Rule, rdoc: Located, errors: Errors) -> None:
    """A field rule's `for_models`: the rule as it is for those models (None: not sent)."""
    import dataclasses

    for entry in _for_models(f"codec {codec_name!r}: rule {rule.wire or rule.ir!r}", rdoc, "for_models", rdoc["for_models"], "rule", errors):
        if entry.get("omit") is not None:
            if entry["omit"] is not True or set(entry) & {"args", "fallback", "const"}:
                errors.add(entry["file"], entry["line"], f"{entry['where']}: `omit: true` (the rule's value is not sent) goes alone")
                continue
            if rule.required:
                errors.add(entry["file"], entry["line"], f"{entry['where']}: a required wire key cannot be omitted")
                continue
            rule.for_models.append((entry, None))
            continue
        alt = dataclasses.replace(rule, for_models=[], model_why=entry["why"])
        if "args" in entry:
            if not isinstance(entry["args"], dict) or not rule.transform:
                errors.add(entry["file"], entry["line"], f"{entry['where']}: args replace the arguments of the rule's transform (a mapping; the rule needs one)")
                continue
            alt.args = {**rule.args, **entry["args"]}
        if "const" in entry:
            if not rule.has_const:
                errors.add(entry["file"], entry["line"], f"{entry['where']}: const replaces the constant of a const rule")
                continue
            alt.const = entry["const"]
        if "fallback" in entry:
            if rule.has_const or rule.has_fill or rule.computed or rule.flat or rule.conversation:
                errors.add(entry["file"], entry["line"], f"{entry['where']}: fallback is for a rule mapping an IR field (the value sent when the IR has none)")
                continue
            alt.has_fallback, alt.fallback = True, entry["fallback"]
        rule.for_models.append((entry, alt))


def _suggest(name: Any, known: list[str]) -> str:
    close = difflib.get_close_matches(str(name), known, n=1)
    return f"did you mean {close[0]!r}? " if close else ""


def _check_references(provider: Provider, ir_classes, transforms, errors: Errors) -> None:
    codecs = provider.codecs
    for codec in codecs.values():
        cdoc = codec.node
        if codec.kind == "object":
            cls = ir_classes.get(codec.ir or "")
            if cls is None:
                errors.at(cdoc, "ir", f"codec {codec.name!r}: unknown IR class {codec.ir!r}; expected one of {', '.join(sorted(ir_classes))}")
                continue
            for key in codec.set:
                if key not in cls.fields:
                    errors.at(cdoc, "set", f"codec {codec.name!r}: IR class {cls.name} has no field {key!r}")
            wire_seen: dict[str, int] = {}
            ir_seen: dict[str, list[Rule]] = {}
            for rule in codec.rules:
                rnode = rule.node
                if rule.refine and not any(f in ir_seen for f in rule.ir):
                    errors.at(rnode, "refine", f"codec {codec.name!r}: refine rule for {rule.wire!r}: no rule before it fills {' or '.join(rule.ir)} (a refine rule comes after the rule whose value it refines)")
                if rule.wire:
                    segs = rule.segments
                    if segs[0].isdigit() or segs[-1].isdigit() or any(a.isdigit() and b.isdigit() for a, b in zip(segs, segs[1:])):
                        errors.at(rnode, "wire", f"codec {codec.name!r}: wire path {rule.wire!r}: a list index must sit between two keys "
                                  "(choices.0.message: a key of the list's first item); to read a whole list use list_of")
                    if rule.wire in wire_seen:
                        errors.at(rnode, "wire", f"codec {codec.name!r}: wire field {rule.wire!r} is written by two rules (first at line {wire_seen[rule.wire]})")
                    wire_seen.setdefault(rule.wire, rnode.line)
                for ir_field in rule.ir:
                    if ir_field not in cls.fields:
                        errors.at(rnode, "ir", f"codec {codec.name!r}: IR class {cls.name} has no field {ir_field!r}; expected one of {', '.join(cls.fields)}")
                    ir_seen.setdefault(ir_field, []).append(rule)
                for key in ("codec", "list_of", "conversation"):
                    ref = getattr(rule, key)
                    if ref is not None and ref not in codecs:
                        errors.at(rnode, key, f"codec {codec.name!r}: {key} {ref!r} is not defined under codecs")
                if rule.computed == "answered_call" and (cls.name != "ToolResult" or getattr(codecs.get(rule.codec or ""), "ir", None) != "ToolCall"):
                    errors.at(rnode, "computed", f"codec {codec.name!r}: answered_call is a ToolResult codec's key holding its call, through a ToolCall codec "
                              f"(here: an IR {cls.name} codec, codec {rule.codec!r})")
                if rule.conversation and codecs.get(rule.conversation) and codecs[rule.conversation].kind != "conversation":
                    errors.at(rnode, "conversation", f"codec {codec.name!r}: {rule.conversation!r} is not a conversation codec")
                if rule.transform is not None:
                    tr = transforms.get(rule.transform)
                    if tr is None:
                        errors.at(rnode, "transform", f"codec {codec.name!r}: unknown transform {rule.transform!r}; {_suggest(rule.transform, [t for t, v in transforms.items() if v.kind == 'field' and v.parse])}the field transforms are listed in spec/transforms.yaml")
                    elif tr.kind != "field" or not tr.parse:
                        errors.at(rnode, "transform", f"codec {codec.name!r}: {rule.transform!r} is a structural transform; switch it on in a conversation codec")
                    else:
                        if len(rule.ir) != tr.ir_arity:
                            errors.at(rnode, "ir", f"codec {codec.name!r}: transform {tr.name!r} fills {tr.ir_arity} IR field(s), the rule names {len(rule.ir)}")
                        if ("{prior" in tr.parse) != rule.refine:  # {prior0}: what the rules before a refine rule parsed
                            errors.at(rnode, "transform", f"codec {codec.name!r}: transform {tr.name!r} " + ("refines what earlier rules parsed: its rule needs refine: true" if rule.refine is False else "does not read what earlier rules parsed ({prior0}): a refine rule needs one that does"))
                        for arg in tr.args:
                            if arg not in rule.args:
                                errors.at(rnode, "args", f"codec {codec.name!r}: transform {tr.name!r} needs args.{arg}")
                        for arg in rule.args:
                            if arg not in tr.args:
                                errors.at(rnode, "args", f"codec {codec.name!r}: transform {tr.name!r} takes no argument {arg!r}")
                        if tr.codec and not rule.codec:
                            errors.at(rnode, "transform", f"codec {codec.name!r}: transform {tr.name!r} needs a 'codec' for the parts")
                        for entry, alt in rule.for_models:
                            for arg in (alt.args if alt is not None else ()):
                                if arg not in tr.args:
                                    errors.add(entry["file"], entry["line"], f"{entry['where']}: transform {tr.name!r} takes no argument {arg!r}")
                if rule.select:
                    for cls_name in rule.select:
                        if cls_name not in PART_CLASSES and cls_name != "rest":
                            errors.at(rnode, "select", f"codec {codec.name!r}: select {cls_name!r} is not a part class ({', '.join(sorted(PART_CLASSES))}) or 'rest'")
                if rule.flat is not None:
                    _check_flat(codec, rule, cls, codecs, errors)
                    continue
                if len(rule.ir) == 1 and rule.ir[0] in cls.fields and not rule.transform and not rule.conversation:
                    _check_rule_shape(codec, rule, cls, codecs, ir_classes, errors)
            for ir_field, rules in ir_seen.items():
                rules = [r for r in rules if not r.refine]  # a refine rule takes over what the rules before it parsed
                if len(rules) > 1 and sum(1 for r in rules if not r.select) > 1:
                    errors.at(rules[1].node, "ir", f"codec {codec.name!r}: two rules write IR field {ir_field!r}; give each a 'select' (part classes) but at most one")
            _check_wire_required(provider, codec, errors)
        elif codec.kind == "union":
            if codec.scalar:
                sc = codecs.get(codec.scalar["codec"])
                if sc is None or sc.kind != "enum":
                    errors.at(cdoc, "scalar", f"codec {codec.name!r}: scalar codec {codec.scalar['codec']!r} must be an enum codec")
                cls = ir_classes.get(codec.scalar["ir"])
                if cls is None or codec.scalar["field"] not in cls.fields:
                    errors.at(cdoc, "scalar", f"codec {codec.name!r}: scalar target {codec.scalar['ir']}.{codec.scalar['field']} is not an IR field")
            for variant in codec.variants:
                ref = variant["codec"]
                if ref not in codecs:
                    errors.add(getattr(cdoc, "file", provider.file), variant["line"], f"codec {codec.name!r}: variant {variant['tag']!r} names undefined codec {ref!r}")
                elif variant.get("media") and not any("media_type" in r.ir and r.wire for r in codecs[ref].rules):
                    errors.add(getattr(cdoc, "file", provider.file), variant["line"], f"codec {codec.name!r}: variant {variant['tag']!r} has 'media' but codec {ref!r} has no rule for media_type")
                for entry in variant.get("for_models") or ():
                    alt = codecs.get(str(entry.get("codec")))
                    if alt is None or ref not in codecs or alt.ir != codecs[ref].ir or alt.kind != codecs[ref].kind:
                        errors.add(entry["file"], entry["line"], f"{entry['where']}: codec {entry.get('codec')!r} must be a codec of the same IR class as {ref!r}")
        elif codec.kind == "conversation":
            for entry in [*codec.passes, *(p for e in codec.for_models for p in e.get("passes", ()))]:
                def report(message: str, entry: dict = entry) -> None:  # a for_models pass: at its entry's line
                    if "file" in entry:
                        errors.add(entry["file"], entry["line"], message)
                    else:
                        errors.at(cdoc, "passes", message)
                tr = transforms.get(entry["transform"])
                if tr is None or tr.kind != "structure" or not tr.render:
                    report(f"codec {codec.name!r}: pass {entry['transform']!r} is not a structure transform with a render call in spec/transforms.yaml")
                    continue
                for arg in tr.args:
                    if arg not in entry["args"]:
                        report(f"codec {codec.name!r}: pass {tr.name!r} needs args.{arg}")
                for arg in entry["args"]:
                    if arg not in tr.args:
                        report(f"codec {codec.name!r}: pass {tr.name!r} takes no argument {arg!r}; expected {', '.join(tr.args) or 'none'}")
            if codec.element not in codecs:
                errors.at(cdoc, "element", f"codec {codec.name!r}: element {codec.element!r} is not defined under codecs")
            if codec.hoist and codec.hoist.get("codec") not in codecs:
                errors.at(cdoc, "hoist", f"codec {codec.name!r}: hoist codec {codec.hoist.get('codec')!r} is not defined under codecs")
            for entry in codec.for_models:
                if entry.get("hoist") and entry["hoist"].get("codec") not in codecs:
                    errors.add(entry["file"], entry["line"], f"{entry['where']}: hoist codec {entry['hoist'].get('codec')!r} is not defined under codecs")
            for role, rule, _required in codec.last_turn:
                _check_last_turn(codec, role, rule, codecs, ir_classes, transforms, errors)
            roles = {"system", "user", "assistant", "tool"}
            for role in list(codec.group) + list(codec.role_map) + list(codec.role_map.values()):
                if role not in roles:
                    errors.at(cdoc, None, f"codec {codec.name!r}: {role!r} is not an IR role ({', '.join(sorted(roles))})")


def _check_last_turn(codec: Codec, role: str, rule: Rule, codecs: dict, ir_classes: dict, transforms: dict, errors: Errors) -> None:
    """A last_turn entry fills one message's parts: through a transform and its codec (a text
    string: `content_parts`), or a list of part codecs (a tool turn's results)."""
    what = f"codec {codec.name!r}: last_turn {rule.wire!r}"
    ref = rule.codec or rule.list_of
    sub = codecs.get(ref or "")
    if sub is None:
        errors.at(rule.node, "codec" if rule.codec else "list_of", f"{what}: codec {ref!r} is not defined under codecs")
        return
    if rule.list_of and (sub.kind != "object" or sub.ir not in PART_CLASSES):
        errors.at(rule.node, "list_of", f"{what}: list_of {ref!r} must be an object codec of a message part ({', '.join(sorted(PART_CLASSES))}), not {sub.ir or sub.kind!r}")
    if rule.transform:
        tr = transforms.get(rule.transform)
        if tr is None or tr.kind != "field" or not tr.parse:
            errors.at(rule.node, "transform", f"{what}: {rule.transform!r} is not a field transform of spec/transforms.yaml")
        elif tr.ir_arity != 1:
            errors.at(rule.node, "transform", f"{what}: transform {tr.name!r} fills {tr.ir_arity} IR fields; a last-turn key fills one (the message's parts)")
        else:
            for arg in set(tr.args) ^ set(rule.args):
                errors.at(rule.node, "args", f"{what}: transform {tr.name!r} {'needs' if arg in tr.args else 'takes no'} argument {arg!r}")


def _ir_shape(schema: Any) -> tuple[set, set, set]:
    """The JSON types of an IR field's schema, the IR classes it refers to, and (for an array) the
    IR classes of its items: ({"array"}, set(), {"ToolDefinition"}) for Request.tools."""
    types: set = set()
    refs: set = set()
    items: set = set()
    if not isinstance(schema, dict):
        return types, refs, items
    if "$ref" in schema:
        refs.add(str(schema["$ref"]).rsplit("/", 1)[-1])
        types.add("object")
    for alt in schema.get("anyOf") or schema.get("oneOf") or []:
        t, r, i = _ir_shape(alt)
        types |= t
        refs |= r
        items |= i
    declared = schema.get("type")
    types |= ({declared} if isinstance(declared, str) else set(declared or [])) - {"null"}
    if not declared and ("enum" in schema or "const" in schema):
        types.add("string")
    if "array" in types:
        _, item_refs, _ = _ir_shape(schema.get("items"))
        items |= item_refs
    return types, refs, items


def _codec_classes(codec: Codec, codecs: dict) -> set:
    """The IR classes a codec produces: its own (object), its variants' (union)."""
    if codec.kind == "object":
        return {codec.ir} if codec.ir else set()
    if codec.kind == "union":
        out = set()
        for variant in codec.variants:
            sub = codecs.get(variant["codec"])
            if sub is not None and sub.kind == "object" and sub.ir:
                out.add("Message" if variant.get("part_of") else sub.ir)
        return out
    return set()


_WIRE_FITS = {"string": {"string"}, "integer": {"integer", "number"}, "number": {"number"}, "boolean": {"boolean"},
              "object": {"object"}, "array": {"array"}}


def _check_flat(codec: Codec, rule: Rule, cls: IRClass, codecs: dict, errors: Errors) -> None:
    """A flat rule: an object codec producing the field's class, whose wire keys no rule of this
    codec writes too (they share one wire object)."""
    sub = codecs.get(rule.flat)
    if sub is None or sub.kind != "object":
        errors.at(rule.node, "flat", f"codec {codec.name!r}: flat {rule.flat!r} must name an object codec defined under codecs")
        return
    if rule.ir[0] not in cls.fields:
        return  # reported with the other unknown IR fields
    _, refs, _ = _ir_shape(cls.fields[rule.ir[0]])
    if sub.ir not in refs:
        errors.at(rule.node, "flat", f"codec {codec.name!r}: flat codec {sub.name!r} makes IR {sub.ir}, but {cls.name}.{rule.ir[0]} holds {' | '.join(sorted(refs)) or 'no IR object'}")
    mine = {r.segments[0] for r in codec.rules if r.wire}
    for sub_rule in sub.rules:
        if sub_rule.wire and sub_rule.segments[0] in mine:
            errors.at(sub_rule.node, "wire", f"codec {sub.name!r}: wire key {sub_rule.segments[0]!r} sits in codec {codec.name!r}'s object (flat), which has a rule for it too")
        if sub_rule.flat or sub_rule.conversation:
            errors.at(sub_rule.node, "flat" if sub_rule.flat else "conversation", f"codec {sub.name!r}: a flat codec cannot itself hold a flat or conversation rule")


def _check_rule_shape(codec: Codec, rule: Rule, cls: IRClass, codecs: dict, ir_classes: dict, errors: Errors) -> None:
    """A rule must be able to fill its IR field: a wire `type` of the field's JSON type, a `codec`
    producing the field's class (or an enum for a string), a `list_of` for an array of that class."""
    field_name = rule.ir[0]
    schema = cls.fields[field_name]
    types, refs, items = _ir_shape(schema)
    if not types and not refs:
        return  # untyped (any JSON): anything fits
    where = f"codec {codec.name!r}: rule for {rule.wire!r} fills {cls.name}.{field_name}"
    shape = " | ".join(sorted(refs) + sorted(t for t in types if not (refs and t == "object"))) + (f" of {' | '.join(sorted(items))}" if items else "")
    if rule.type and rule.type != "any" and not rule.codec and not rule.list_of:
        fits = _WIRE_FITS.get(rule.type, set())
        if refs or not (fits & types):
            errors.at(rule.node, "type", f"{where} ({shape}), but its wire type is {rule.type}")
        return
    sub = codecs.get(rule.codec or rule.list_of or "")
    if sub is None:
        return  # an undefined codec is reported elsewhere
    if rule.codec:
        if sub.kind == "enum":
            if "string" not in types:
                errors.at(rule.node, "codec", f"{where} ({shape}), but enum codec {sub.name!r} gives a string")
            return
        made = _codec_classes(sub, codecs)
        if "array" in types and not refs:
            errors.at(rule.node, "codec", f"{where} ({shape}): a list; read its items with list_of: {sub.name}, not codec")
        elif made and refs and not made <= refs:
            errors.at(rule.node, "codec", f"{where} ({shape}), but codec {sub.name!r} gives {' | '.join(sorted(made))}")
        elif made and not refs:
            errors.at(rule.node, "codec", f"{where} ({shape}), but codec {sub.name!r} gives {' | '.join(sorted(made))}")
    elif rule.list_of:
        made = _codec_classes(sub, codecs)
        if "array" not in types:
            errors.at(rule.node, "list_of", f"{where} ({shape}), not a list; use codec: {sub.name}")
        elif made and items and not made <= items:
            errors.at(rule.node, "list_of", f"{where} ({shape}), but codec {sub.name!r} gives {' | '.join(sorted(made))}")


def _check_wire_required(provider: Provider, codec: Codec, errors: Errors) -> None:
    """A required wire field (per the provider's wire types) that no rule fills is an error."""
    if not codec.wire_type or provider.wire_schema is None:
        return
    schema = provider.wire_schema.get("$defs", {}).get(codec.wire_type)
    if schema is None:
        close = difflib.get_close_matches(str(codec.wire_type), sorted(provider.wire_schema.get("$defs", {})), n=3, cutoff=0.5)
        hint = f"; did you mean {' / '.join(close)}?" if close else ""
        errors.at(codec.node, "wire_type", f"codec {codec.name!r}: wire type {codec.wire_type!r} is not in {DERIVED_DIR}/{provider.wire_types}.json{hint}")
        return
    filled = {r.segments[0] for r in codec.rules if r.wire}
    for r in codec.rules:  # a flat sub-object's keys are keys of this object
        sub = provider.codecs.get(r.flat or "")
        filled |= {x.segments[0] for x in getattr(sub, "rules", []) if x.wire}
    conv = [provider.codecs.get(r.conversation) for r in codec.rules if r.conversation]
    for c in conv:
        if c is not None:
            filled |= {str(r.wire) for r in c.side_rules()}
    declared = {str(k) for entry in provider.cannot_express for k in ([entry.get("wire")] if isinstance(entry.get("wire"), str) else entry.get("wire") or [])}
    for key in schema.get("required", []):
        if key not in filled and f"{codec.name}.{key}" not in declared:  # a flavour may declare it cannot send it (its URL has it)
            message = f"codec {codec.name!r}: required wire field {key!r} of {codec.wire_type} is filled by no rule"
            patched = getattr(codec.node, "patched_in", None)  # a child's patch left it out: the child's file
            if patched is not None:
                errors.add(patched[0], patched[1], message + " (a provider that takes it outside the body declares it in cannot_express `wire:`)")
            else:
                errors.at(codec.node, "wire_type", message)
