"""Coverage check: every field and variant of the derived wire schema is declared by the spec.

The codecs of a provider are bound to definitions of its derived wire schema
(``spec/wire/derived/<family>.json``, generator/derive.py): the ``request`` / ``response`` codecs to
the schema's roots, then, following the rules, every codec a rule hands a value to (``codec``,
``list_of``, ``conversation`` → its ``element``, a hoist's codec) to the schema of that value;
a union codec's variants to the union members carrying their tag. ``derived: [Def, ...]`` on a
codec adds explicit bindings where following the rules cannot find one.

Then, for each bound object codec, every property of its definitions, and for each bound union
codec every variant tag (every value, for an enum codec), must be

* mapped — a rule's ``wire`` (or ``alias``) names it, a union variant has its tag, an enum's
  ``parse`` table has the value;
* opaque — listed in the codec's ``opaque: [...]`` (carried verbatim in provider_data for a
  same-provider round trip; a union's unknown variants become OpaquePart / ProviderTool); or
* cannot_express — named ``<codec>.<key>`` in the ``wire: [...]`` list of one of the provider's
  ``cannot_express`` entries (which says why).

A codec's ``extra: [...]`` lists the opposite: wire keys a provider documents beyond its family's
schema (Azure OpenAI's ``prompt_filter_results``): carried verbatim like opaque keys, and an error
when the schema does have the key (then it is ``opaque``, or mapped).

Anything else is a spec error at the codec, so a new API variant or field cannot slip through
unmodelled. A property a rule enters with a dotted path (``function.name``) is checked inside, key
by key. A value handled whole by a transform (``image_source``) is not looked into.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .loader import Errors

SCALAR_TYPES = {"string", "integer", "number", "boolean", "null"}


@dataclass
class Coverage:
    """Per provider: the (codec, key) pairs checked and how each is covered."""

    fields: dict[tuple[str, str], str] = field(default_factory=dict)  # → mapped | opaque | cannot_express | missing
    variants: dict[tuple[str, str], str] = field(default_factory=dict)
    bound: dict[str, set[str]] = field(default_factory=dict)  # codec → derived defs
    unbound: list[str] = field(default_factory=list)  # object / union / enum codecs no binding reached
    # (codec, wire) → (minimum, maximum, "Def.prop") of a number rule whose schema bounds the value
    bounds: dict[tuple[str, str], tuple[Any, Any, str]] = field(default_factory=dict)
    extra: list[tuple[str, str]] = field(default_factory=list)  # (codec, key) declared beyond the derived schema

    def line(self, name: str) -> str:
        both = list(self.fields.values()) + list(self.variants.values())
        counts = {k: both.count(k) for k in ("mapped", "opaque", "cannot_express")}
        return (
            f"{name}: {len(self.fields)} fields, {len(self.variants)} variants — {counts['mapped']} mapped, "
            f"{counts['opaque']} opaque, {counts['cannot_express']} cannot_express"
            + (f", {len(self.extra)} extra" if self.extra else "")
            + f" ({len(self.bound)} codecs bound"
            + (f"; not bound: {', '.join(self.unbound)})" if self.unbound else ")")
        )


def derived_path(root: Path, wire_types: str | None) -> Path | None:
    if not wire_types:
        return None
    return root / "spec" / "wire" / "derived" / (Path(wire_types).stem + ".json")


def load_derived(root: Path, wire_types: str | None) -> dict | None:
    path = derived_path(root, wire_types)
    if path is None or not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


class _Checker:
    def __init__(self, provider: Any, schema: dict, errors: Errors):
        self.p = provider
        self.defs = schema.get("$defs", {})
        self.errors = errors
        self.cov = Coverage()
        self.cannot: set[str] = set()
        for entry in provider.cannot_express:
            wire = entry.get("wire") or []
            for key in [wire] if isinstance(wire, str) else wire:
                self.cannot.add(str(key))
        self.seen: set[tuple[str, str, str]] = set()  # (codec, def, prefix) already checked
        self.reported: set[tuple[str, str]] = set()

    # ------------------------------------------------------------------ schema helpers

    def deref(self, schema: Any) -> tuple[str | None, dict]:
        name = None
        while isinstance(schema, dict) and "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[1]
            schema = self.defs.get(name, {})
        return name, schema if isinstance(schema, dict) else {}

    def options(self, schema: Any, into_arrays: bool = True) -> list[tuple[str, dict]]:
        """The object (or enum) alternatives of a value: unions flattened, nulls and scalars dropped."""
        name, s = self.deref(schema)
        out: list[tuple[str, dict]] = []
        alts = s.get("anyOf") or s.get("oneOf")
        if alts:
            for alt in alts:
                out += self.options(alt, into_arrays)
            return out
        if s.get("type") == "array" and into_arrays:
            return self.options(s.get("items", {}), into_arrays)
        if "properties" in s or s.get("type") == "object" or "enum" in s or "const" in s:
            out.append((name or "", s))
        return out

    def tag_values(self, schema: Any) -> list[str]:
        _, s = self.deref(schema)
        if "const" in s:
            return [str(s["const"])]
        if "enum" in s:
            return [str(v) for v in s["enum"]]
        out = []
        for alt in s.get("anyOf") or s.get("oneOf") or []:
            out += self.tag_values(alt)
        return out

    # ------------------------------------------------------------------ binding

    def bind(self, codec_name: str | None, schema: Any, into_arrays: bool = True, reads: set | None = None) -> None:
        codec = self.p.codecs.get(codec_name or "")
        if codec is None:
            return
        opts = self.options(schema, into_arrays)
        if codec.kind == "object":
            for name, s in opts:
                if "properties" in s:
                    self.check_object(codec, name, s, "", reads or set())
        elif codec.kind == "union":
            self.check_union(codec, [(n, s) for n, s in opts if "properties" in s], reads or set())
            if codec.scalar:  # a bare string form goes through an enum codec
                self.bind(codec.scalar["codec"], schema, into_arrays)
        elif codec.kind == "enum":
            values = []
            for name, s in opts:
                self.cov.bound.setdefault(codec.name, set()).add(name)
                values += self.tag_values(s)
            for value in values:
                self.classify(codec, value, codec.parse_table and value in codec.parse_table, "variants", f"value {value!r}")
        elif codec.kind == "conversation":
            self.bind(codec.element, schema)

    def bind_explicit(self) -> None:
        for codec in self.p.codecs.values():
            for name in codec.derived:
                if name not in self.defs:
                    self.errors.at(codec.node, "derived", f"codec {codec.name!r}: derived definition {name!r} is not in spec/wire/derived/{Path(self.p.wire_types or '').stem}.json")
                    continue
                self.bind(codec.name, {"$ref": f"#/$defs/{name}"})

    # ------------------------------------------------------------------ checks

    def classify(self, codec: Any, key: str, mapped: bool, kind: str, what: str) -> None:
        store = self.cov.variants if kind == "variants" else self.cov.fields
        if mapped:
            status = "mapped"
        elif any(fnmatch.fnmatchcase(key, pattern) for pattern in codec.opaque):
            status = "opaque"
        elif f"{codec.name}.{key}" in self.cannot:
            status = "cannot_express"
        else:
            status = "missing"
        if store.get((codec.name, key)) in (None, "missing"):
            store[(codec.name, key)] = status
        if status == "missing" and (codec.name, key) not in self.reported:
            self.reported.add((codec.name, key))
            file, line = getattr(codec.node, "patched_in", None) or (codec.node.file, codec.node.line)
            self.errors.add(file, line, f"codec {codec.name!r}: wire {what} ({self.where}) is neither mapped, opaque nor in cannot_express")

    def check_object(self, codec: Any, def_name: str, schema: dict, prefix: str, reads: set = frozenset()) -> None:
        key = (codec.name, def_name or id(schema).__str__(), prefix)
        if key in self.seen:
            return
        self.seen.add(key)
        if not prefix:
            self.cov.bound.setdefault(codec.name, set()).add(def_name)
        side = {}  # a conversation's keys beside its list (hoisted system prompt, last turn) → their rules
        for rule in codec.rules:
            conv = self.p.codecs.get(rule.conversation or "")
            if conv is not None:
                side.update((str(r.wire), r) for r in conv.side_rules())
        rules, owner = list(codec.rules), {}
        for rule in codec.rules:  # a flat sub-object's keys are keys of this object
            sub = self.p.codecs.get(rule.flat or "")
            rules += getattr(sub, "rules", [])
            owner.update((id(r), sub) for r in getattr(sub, "rules", []))
        for prop, pschema in sorted(schema.get("properties", {}).items()):
            path = prefix + prop
            exact = [r for r in rules if r.wire == path or r.alias == path]
            if not exact and path in reads:  # read by the transform of the rule that hands the value here
                self.classify(codec, path, True, "fields", f"field {path!r}")
                continue
            deeper = [r for r in rules if r.wire and r.wire.startswith(path + ".")]
            self.where = f"{def_name}.{path}" if def_name else path
            if exact:
                self.classify(codec, path, True, "fields", f"field {path!r}")
                for rule in exact:
                    self.follow(rule, pschema)
                    self.bound_rule(owner.get(id(rule), codec), rule, pschema)
            elif deeper:
                self.classify(codec, path, True, "fields", f"field {path!r}")
                segs = deeper[0].wire[len(path) + 1:].split(".")
                if segs and segs[0].isdigit():  # choices.0.message: into the list's items
                    _, inner = self.deref(pschema)
                    arrays = [a for a in [inner, *(inner.get("anyOf") or [])] if self.deref(a)[1].get("type") == "array"]
                    if arrays:
                        path += "." + segs[0]
                        pschema = self.deref(arrays[0])[1].get("items", {})
                for name, sub in self.options(pschema, into_arrays=False):
                    if "properties" in sub:
                        self.check_object(codec, def_name, sub, path + ".")
            elif path in side:
                self.classify(codec, path, True, "fields", f"field {path!r}")
                rule = side[path]
                if rule.list_of:
                    self.follow(rule, pschema)
                else:
                    self.bind(rule.codec, pschema)
            else:
                self.classify(codec, path, False, "fields", f"field {path!r}")

    def bound_rule(self, codec: Any, rule: Any, schema: Any) -> None:
        """Record the numeric range (``minimum`` / ``maximum``) the schema gives a plain number rule's
        value; the renderer refuses a value outside it (reported, never clamped). Several bound
        definitions give the narrowest range."""
        if rule.type not in ("number", "integer") or rule.transform or rule.codec or rule.list_of:
            return
        _, s = self.deref(schema)
        alts = [s, *(self.deref(a)[1] for a in s.get("anyOf") or s.get("oneOf") or [])]
        lows = [a["minimum"] for a in alts if isinstance(a.get("minimum"), (int, float))]
        highs = [a["maximum"] for a in alts if isinstance(a.get("maximum"), (int, float))]
        if not lows and not highs:
            return
        key = (codec.name, rule.wire)
        lo, hi = (max(lows) if lows else None), (min(highs) if highs else None)
        if key in self.cov.bounds:
            old_lo, old_hi, _ = self.cov.bounds[key]
            lo = lo if old_lo is None else old_lo if lo is None else max(lo, old_lo)
            hi = hi if old_hi is None else old_hi if hi is None else min(hi, old_hi)
        self.cov.bounds[key] = (lo, hi, self.where)

    def follow(self, rule: Any, schema: Any) -> None:
        tr = self.transforms.get(rule.transform or "")
        sub = lambda text: str(text).format(**{k: v for k, v in rule.args.items()})  # noqa: E731
        reads = {sub(r) for r in tr.reads} if tr is not None else set()
        if tr is not None and tr.codec_at and rule.codec:
            key = sub(tr.codec_at)
            for _, s in self.options(schema):
                if key in s.get("properties", {}):
                    self.bind(rule.codec, s["properties"][key], reads=reads)
            return
        if rule.list_of:
            self.bind(rule.list_of, schema, reads=reads)
        if rule.codec:
            self.bind(rule.codec, schema, reads=reads)
        if rule.conversation:
            self.bind(rule.conversation, schema)

    def check_union(self, codec: Any, opts: list[tuple[str, dict]], reads: set = frozenset()) -> None:
        # a tag may list several codecs (told apart by media type): each is checked
        variants: dict[str, list] = {}
        for v in codec.variants:
            variants.setdefault(v["tag"], []).append(v)
        if codec.tag_by_key:
            # one object whose keys say the variant (Gemini Part, Bedrock ContentBlock)
            for def_name, s in opts:
                key = (codec.name, def_name, "")
                if key in self.seen:
                    continue
                self.seen.add(key)
                self.cov.bound.setdefault(codec.name, set()).add(def_name)
                shared = set()
                for v in (v for alts in variants.values() for v in alts):
                    vc = self.p.codecs.get(v["codec"])
                    for rule in getattr(vc, "rules", []):
                        if rule.wire:
                            shared.add(rule.wire.split(".")[0])
                for prop, pschema in sorted(s.get("properties", {}).items()):
                    self.where = f"{def_name}.{prop}"
                    if prop in reads:  # read by the transform of the rule that hands the list here
                        self.classify(codec, prop, True, "variants", f"variant {prop!r}")
                    elif prop in variants:
                        self.classify(codec, prop, True, "variants", f"variant {prop!r}")
                        for entry in variants[prop]:
                            vc = self.p.codecs.get(entry["codec"])
                            if vc is not None and vc.kind == "object":
                                self.check_object_scoped(vc, def_name, s, prop)
                    elif prop in shared:
                        self.classify(codec, prop, True, "fields", f"field {prop!r}")
                    else:
                        self.classify(codec, prop, False, "variants", f"variant {prop!r}")
            return
        for def_name, s in opts:
            tags = self.tag_values(s.get("properties", {}).get(codec.tag, {})) if codec.tag else []
            if not tags and codec.tag_default is not None:
                tags = [str(codec.tag_default)]
            if not tags:
                tags = [def_name]
            self.cov.bound.setdefault(codec.name, set()).add(def_name)
            for tag in tags:
                self.where = def_name
                entries = variants.get(tag, [])
                self.classify(codec, tag, bool(entries) or tag in reads, "variants", f"variant {tag!r}")
                for entry in entries:
                    vc = self.p.codecs.get(entry["codec"])
                    if vc is not None and vc.kind == "object":
                        self.check_object(vc, def_name, s, "", reads)
                    elif vc is not None:
                        self.bind(vc.name, {"$ref": f"#/$defs/{def_name}"} if def_name else s)

    def check_object_scoped(self, codec: Any, def_name: str, schema: dict, prop: str) -> None:
        """A tag_by_key variant: only its own key (and what its rules name) is its business."""
        props = schema.get("properties", {})
        own = {prop} | {r.wire.split(".")[0] for r in codec.rules if r.wire}
        scoped = {"properties": {k: v for k, v in props.items() if k in own}}
        self.check_object(codec, f"{def_name}[{prop}]", scoped, "")


def check(provider: Any, root: Path, errors: Errors, transforms: dict | None = None) -> Coverage | None:
    """Check one provider's coverage; errors go to ``errors``. None when it has no derived schema."""
    schema = load_derived(root, provider.wire_types)
    if schema is None:
        return None
    checker = _Checker(provider, schema, errors)
    checker.transforms = transforms or {}
    roots = schema.get("x-roots", {})
    checker.where = ""
    for kind in ("request", "response"):
        if kind in roots:
            checker.bind(getattr(provider, kind), {"$ref": f"#/$defs/{roots[kind]}"})
    checker.bind_explicit()
    # cannot_express `wire:` names must be (codec, key) pairs the check met
    met = set(checker.cov.fields) | set(checker.cov.variants)
    for entry in provider.cannot_express:
        wire = entry.get("wire") or []
        for name in [wire] if isinstance(wire, str) else wire:
            codec_name, _, key = str(name).partition(".")
            if codec_name not in provider.codecs or (codec_name in checker.cov.bound and (codec_name, key) not in met):
                errors.add(provider.file, provider.cannot_line, f"cannot_express {entry.get('what')!r}: wire {name!r} names no field or variant of a bound codec (<codec>.<key>)")
    checker.cov.unbound = sorted(c.name for c in provider.codecs.values() if c.kind in ("object", "union", "enum") and c.name not in checker.cov.bound)
    # opaque entries that name nothing the wire has are stale
    for codec in provider.codecs.values():
        checked = {k for (c, k) in checker.cov.fields if c == codec.name} | {k for (c, k) in checker.cov.variants if c == codec.name}
        if (getattr(codec.node, "patched_in", None) or (getattr(codec.node, "file", ""),))[0] != provider.file:
            continue  # inherited: checked with the provider that writes it
        if codec.name not in checker.cov.bound and codec.kind in ("object", "union") and codec.opaque:
            errors.at(codec.node, "opaque", f"codec {codec.name!r}: opaque is declared but the codec is bound to no derived definition")
            continue
        file, line = getattr(codec.node, "patched_in", None) or (codec.node.file, codec.node.line_of("opaque"))
        for key in codec.opaque:
            if codec.name in checker.cov.bound and not fnmatch.filter(checked, key):
                errors.add(file, line, f"codec {codec.name!r}: opaque key {key!r} is not a field or variant of its derived definitions ({', '.join(sorted(checker.cov.bound[codec.name]))})")
        # extra: keys the provider documents beyond its family's wire schema — none of them may be
        # one the schema has (that is `opaque`, or a rule), and the codec must be bound to check it
        if codec.extra and codec.name not in checker.cov.bound:
            errors.at(codec.node, "extra", f"codec {codec.name!r}: extra is declared but the codec is bound to no derived definition")
            continue
        file, line = getattr(codec.node, "patched_in", None) or (codec.node.file, codec.node.line_of("extra"))
        for key in codec.extra:
            if "*" in key or key.split(".")[0].isdigit() or key.endswith(".") or ".." in key:
                errors.add(file, line, f"codec {codec.name!r}: extra key {key!r} must be a wire key or a dotted path (choices.0.content_filter_results), no pattern")
            elif fnmatch.filter(checked, key):
                errors.add(file, line, f"codec {codec.name!r}: extra key {key!r} is a field of its derived definitions ({', '.join(sorted(checker.cov.bound[codec.name]))}): map it or declare it opaque")
            else:
                checker.cov.extra.append((codec.name, key))
    return checker.cov
