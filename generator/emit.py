"""Compile one provider's codecs into straight-line Python functions (source text).

Each codec becomes ``_<name>_to_ir(obj, path, ctx)`` and ``_<name>_from_ir(node, path, ctx)``.
Paths are ``(parent, key)`` tuples, formatted only when an error or a loss is shown.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .spec import JSON_TYPES, Codec, Provider, Rule, Spec, Transform


@dataclass
class Function:
    name: str
    doc: str
    lines: list[str]
    params: str = ""

    def __post_init__(self) -> None:
        if not self.params:
            first = "obj: Any" if self.name.endswith("_to_ir") else "node: Any"
            self.params = f"{first}, path: Any, ctx: Context"

    def text(self) -> str:
        """The source the template writes (before black)."""
        body = "".join(f"    {line}\n" for line in self.lines)
        return f'def {self.name}({self.params}) -> Any:\n    """{self.doc}"""\n{body}'


@dataclass
class Module:
    provider: Provider
    constants: list[str] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    defaults: list[tuple] = field(default_factory=list)
    uses: dict[str, set[str]] = field(default_factory=dict)  # a constant → names its meaning depends on (not in its text)
    shared: set[str] = field(default_factory=set)  # definitions the parent's module has as they would be here: not emitted
    imports: dict[str, list[str]] = field(default_factory=dict)  # module → the shared names used here, imported from it
    origin: dict[str, str] = field(default_factory=dict)  # shared name → the module to import it from
    tools: "ToolsKind | None" = None  # the `tools` document kind: declared, or derived from the request's tools rule

    @property
    def kinds(self) -> tuple[str, ...]:
        """The document kinds the module converts (request, response, tools, tool_result)."""
        p = self.provider
        have = {"request": p.request, "response": p.response, "tools": self.tools, "tool_result": p.kinds.get("tool_result")}
        return tuple(k for k, v in have.items() if v)

    def own_constants(self) -> list[str]:
        return [line for line in self.constants if const_name(line) not in self.shared]

    def own_functions(self) -> list[Function]:
        return [f for f in self.functions if f.name not in self.shared]

    def uses_name(self, name: str) -> bool:
        """Does anything this module writes itself use ``name`` (an import it needs)?"""
        word = re.compile(rf"\b{re.escape(name)}\b")
        return any(word.search(t) for t in self.own_constants()) or any(word.search(f.text()) for f in self.own_functions())

    def definitions(self) -> dict[str, tuple[str, frozenset[str]]]:
        """Every module-level definition the template writes: name → (its text, the module-level
        names it uses). Two modules' definitions of a name with the same text and the same (shared)
        names used mean the same thing."""
        p = self.provider
        texts = {
            "PROVIDER": py(p.data_group),
            "FAMILY": py(p.family),
            "MODELS": py(p.models),
            "CANNOT_EXPRESS": py([(item["what"], item["reason"]) for item in p.cannot_express]),
            "WIRE_DEFAULTS": py(self.defaults),
            "KINDS": py(self.kinds),
        }
        for kind, codec in (("request", p.request), ("response", p.response), ("tool_result", p.kinds.get("tool_result"))):
            if codec:
                texts[f"{kind}_to_ir"] = f"{p.title}\nreturn _{codec}_to_ir(payload, '', ctx)"
                texts[f"{kind}_from_ir"] = f"{p.title}\nreturn _{codec}_from_ir({kind}, '', ctx)"
        if self.tools is not None:
            texts["tools_to_ir"] = f"{p.title}\n" + "\n".join(self.tools.parse)
            texts["tools_from_ir"] = f"{p.title}\n" + "\n".join(self.tools.render)
        for line in self.constants:
            texts[const_name(line)] = line
        for f in self.functions:
            texts[f.name] = f.text()
        out = {}
        for name, text in texts.items():
            used = {n.id for n in ast.walk(ast.parse(text.split("\n", 1)[1] if name in ENTRY_POINTS else text)) if isinstance(n, ast.Name)}
            out[name] = (text, frozenset((used | self.uses.get(name, set())) & texts.keys()))
        return out


#: What api.py and toolwire look up on a provider module: always defined in the module itself.
ENTRY_POINTS = ("request_to_ir", "request_from_ir", "response_to_ir", "response_from_ir", "tools_to_ir", "tools_from_ir", "tool_result_to_ir", "tool_result_from_ir")
OWN = ("PROVIDER", "FAMILY", "MODELS", "CANNOT_EXPRESS", "WIRE_DEFAULTS", "KINDS", *ENTRY_POINTS)


@dataclass
class ToolsKind:
    """The body lines of ``tools_to_ir(payload, ctx)`` / ``tools_from_ir(tools, ctx)`` and what the
    document is (a docstring): a codec of IR ToolList (a provider that declares ``tools:``), or the
    value of the request's rule for ``Request.tools`` (every provider with requests)."""

    what: str
    parse: list[str]
    render: list[str]


def const_name(line: str) -> str:
    return line.split(" = ", 1)[0]


def _import_order(name: str) -> tuple:
    """isort's (and ruff's) order of the names of one import: constants, classes, the others."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name.lower(), name)


def share(child: Module, parent: Module) -> None:
    """What a flavour's module imports from its parent's instead of defining it again (issue 10 §4).

    A definition is shared when its text is the parent's and every module-level name it uses is
    shared too (a fixpoint: a parent function calling a helper the child defines differently would
    call the parent's helper). Of the shared definitions, those the child's own definitions use are
    imported, from the parent (which has them, defined or imported) or, when the parent itself
    needs one of them nowhere, from the module the parent would have imported it from.
    """
    mine, theirs = child.definitions(), parent.definitions()
    same = {n for n, (text, _) in mine.items() if n in theirs and theirs[n][0] == text}
    while drop := {n for n in same if not mine[n][1] <= same}:
        same -= drop
    child.shared = same - set(OWN)
    needed = {u for n, (_, used) in mine.items() if n not in child.shared for u in used} & child.shared
    available = set(theirs) - parent.shared | {n for names in parent.imports.values() for n in names}
    home = parent.provider.name
    child.origin = {n: home if n in available else parent.origin[n] for n in sorted(child.shared)}
    imports: dict[str, list[str]] = {}
    for n in sorted(needed, key=_import_order):
        imports.setdefault(child.origin[n], []).append(n)
    child.imports = dict(sorted(imports.items()))


def py(value) -> str:
    """A Python literal for a YAML value (repr is deterministic for str/int/bool/None/list/dict)."""
    return repr(value)


def var(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text)


def named(rest: str, lead: str = "") -> str:
    """A message naming the provider it is about: ``ctx.provider`` at run time (the name the caller
    passed, as the runtime's own messages do), so that a flavour's function that only differs from
    its parent's by that name is the same function (shared, see ``share``)."""
    text = "{ctx.provider}" + rest.replace("{", "{{").replace("}", "}}")
    return "f" + py(lead.replace("{", "{{").replace("}", "}}") + text)


def _models(entry: dict) -> str:
    """The arguments of tw.for_model for a `for_models` entry: its patterns (and those it excludes)."""
    return py(entry["match"]) + (f", {py(entry['except'])}" if entry.get("except") else "")


def _note(entry: dict) -> str:
    """The comment of a `for_models` branch: why, and the source."""
    return " ".join(f"{entry['why']} ({entry['source']})".split())


def snake(key: str) -> str:
    """The protobuf JSON mapping's other spelling of a lowerCamel field name (``fileUri`` → ``file_uri``)."""
    return "".join("_" + c.lower() if c.isupper() else c for c in key)


class ProviderCompiler:
    def __init__(self, spec: Spec, provider: Provider) -> None:
        self.spec = spec
        self.p = provider
        self.module = Module(provider)
        # codecs used by a `flat` rule → the codec whose object their keys sit in
        self.flat_owners = {r.flat: c.name for c in provider.codecs.values() for r in c.rules if r.flat}
        # flat codecs whose keys an owner tests for presence (an optional flat rule: `_KNOWN_<codec>.isdisjoint`)
        self.flat_optional = {r.flat for c in provider.codecs.values() for r in c.rules if r.flat and not r.required}

    def compile(self) -> Module:
        for codec in self.p.codecs.values():
            getattr(self, f"_{codec.kind}")(codec)
        self.module.tools = self._tools_kind()
        defaults = {repr((r.wire, r.default)): (r.wire, r.default) for c in self.p.codecs.values() for r in c.rules if r.has_default and r.wire}
        self.module.defaults = [defaults[k] for k in sorted(defaults)]  # any JSON value: deduplicated by its repr
        return self.module

    # --- document kinds ----------------------------------------------------------------------------

    def _tools_kind(self) -> ToolsKind | None:
        """The ``tools`` document: the codec a provider declares for it (an MCP tools/list result),
        else the value of its request's rule for ``Request.tools`` (followed through a codec of the
        request's own class, such as Bedrock's toolConfig), read and written by that rule's own
        codec or transform — the provider's existing tool rendering, nothing new."""
        declared = self.p.kinds.get("tools")
        if declared:
            return ToolsKind(f"A {self.p.title} tool list", [f'return _{declared}_to_ir(payload, "", ctx)'], [f'return _{declared}_from_ir(tools, "", ctx)'])
        found = self._tools_rule(self.p.request, ()) if self.p.request else None
        if found is None:
            return None
        wire, rule = found
        what = f"The tools of {self.p.title} requests (the value of `{wire}`)"
        # keys beside another provider's list (MCP nextCursor) are reported: a tools value has no place for them
        render = ["if tools.provider_data is not None:", '    tw.restore({}, tools.provider_data, PROVIDER, "", ctx)']
        if rule.list_of:
            parse = [f'return ir.ToolList(tools=[_{rule.list_of}_to_ir(x, ("", i), ctx) for i, x in enumerate(tw.expect_list(payload, ""))])']
            render.append(f'return [y for y in (_{rule.list_of}_from_ir(x, ("", i), ctx) for i, x in enumerate(tools.tools)) if y is not None]')
            return ToolsKind(what, parse, render)
        tr = self.spec.transforms[rule.transform]
        call = self._fill(tr.parse, rule, value="payload", path='""')
        if tr.returns_hint:  # (its spelling, for the same provider: as in a request)
            parse = [f"tools, hint = {call}", "if hint is None:", "    return ir.ToolList(tools=tools)",
                     f"return ir.ToolList(tools=tools, provider_data=ir.ProviderData(provider=PROVIDER, hints={{{py(wire)}: hint}}))"]
            hint = f"tw.hint_of(tools, PROVIDER, {py(wire)})"
        else:
            parse, hint = [f"tools = {call}", "return ir.ToolList(tools=tools)"], "None"
        render.append("return " + self._fill(tr.render, rule, irs=["tools.tools"], path='""', hint=hint))
        return ToolsKind(what, parse, render)

    def _tools_rule(self, codec_name: str, prefix: tuple) -> tuple[str, Rule] | None:
        """(wire path, rule) of the rule that fills Request.tools, through codecs over Request."""
        codec = self.codec(codec_name)
        for rule in codec.rules:
            if "tools" not in rule.ir or not rule.wire:
                continue
            if rule.ir == ["tools"] and (rule.list_of or (rule.transform and self.spec.transforms[rule.transform].ir_arity == 1)):
                return ".".join((*prefix, rule.wire)), rule
            sub = self.p.codecs.get(rule.codec or "")
            if sub is not None and sub.kind == "object" and sub.ir == codec.ir:
                return self._tools_rule(sub.name, (*prefix, rule.wire))
        return None

    # --- helpers ---------------------------------------------------------------------------------

    def const(self, line: str, uses: tuple = ()) -> None:
        self.module.constants.append(line)
        if uses:
            self.module.uses[const_name(line)] = set(uses)

    def fn(self, name: str, doc: str, lines: list[str]) -> None:
        # whose provider_data a function reads and writes is the running module's (ctx.data, set by
        # its entry points), not a constant: so a flavour can import its parent's functions as they are
        lines = [re.sub(r"\bPROVIDER\b", "ctx.data", line) for line in lines]
        self.module.functions.append(Function(name, doc, lines))

    def codec(self, name: str) -> Codec:
        return self.p.codecs[name]

    def ir_field_default(self, cls_name: str, field_name: str) -> str:
        schema = self.spec.ir_classes[cls_name].fields[field_name]
        if "default" in schema:
            return py(schema["default"])
        types = schema.get("type")
        types = types if isinstance(types, list) else [types]
        if "null" in types or "anyOf" in schema or not types or types == [None]:
            return "None"
        return {"string": "''", "object": "{}", "array": "[]", "boolean": "False", "integer": "0", "number": "0"}.get(types[0], "None")

    # --- object codecs ---------------------------------------------------------------------------

    def _object(self, c: Codec) -> None:
        cls = self.spec.ir_classes[c.ir]
        known: dict[tuple, set] = {(): set()}
        for rule in c.rules:
            if rule.has_fill:  # wire-only: carried as an unknown field, filled in when absent
                continue
            segs = rule.segments
            for i in range(len(segs)):
                known.setdefault(tuple(segs[:i]), set()).add(segs[i])
                if i < len(segs) - 1:
                    known.setdefault(tuple(segs[: i + 1]), set())
        for rule in c.rules:
            if rule.alias:
                known.setdefault(tuple(rule.segments[:-1]), set()).add(rule.alias)
            if rule.flat:  # a sub-object whose keys sit in this object: they are this object's keys
                known[()].update(self._flat_keys(rule))
        for conv in (self.codec(r.conversation) for r in c.rules if r.conversation):
            known[()].update(str(r.wire) for r in conv.side_rules())  # hoisted system prompt, last-turn keys
        for prefix, keys in known.items():
            if prefix and keys and all(k.isdigit() for k in keys):
                continue  # a list (choices.0): its items' keys are the next prefix's
            if not prefix and c.name in self.flat_owners and c.name not in self.flat_optional:
                continue  # a required flat sub-object: nothing asks which keys are its own
            self.const(f"_KNOWN_{var(c.name)}{'_' + var('.'.join(prefix)) if prefix else ''} = frozenset({py(sorted(keys))})")
        self.spells = self._spell_maps(c, known)
        for prefix, spell in self.spells.items():
            self.const(f"_SPELL_{self._order_name(c, prefix)} = {py(spell)}  # snake_case → lowerCamel (key_spelling)")
        self.orders = self._render_orders(c, known) if "provider_data" in cls.fields else {}
        if c.name in self.flat_owners:  # its keys' order is the object's it sits in
            self.orders.pop((), None)
        for prefix, rank in self.orders.items():
            name = self._order_name(c, prefix)
            self.const(f"_RANK_{name} = {py(rank)}")
            # a cache of answers that depend on the rank: shared only with the rank it caches for
            self.const(f"_ORDER_{name} = {{}}  # key tuples seen → already in the render order (key_order)", uses=(f"_RANK_{name}",))
        self.value_orders = self._value_orders(c) if "provider_data" in cls.fields else {}
        # the keys of an object a transform reads and writes itself (its key_order, codec_at, reads):
        # any other key of that object is carried, as the codec's unknown keys of a nested object are
        self.value_known = self._value_known(c) if "provider_data" in cls.fields and c.name not in self.flat_owners else {}
        for wire, keys in self.value_known.items():
            self.const(f"_VKNOWN_{self._order_name(c, (wire,))} = frozenset({py(sorted(keys))})  # the keys {self.spec.transforms[self._rule_at(c, wire).transform].name} reads")
        for wire, rank in self.value_orders.items():
            name = self._order_name(c, (wire,))
            self.const(f"_VRANK_{name} = {py(rank)}  # the render order of the keys {self.spec.transforms[self._rule_at(c, wire).transform].name} writes")
            self.const(f"_VORDER_{name} = {{}}  # key tuples seen → already in that order (key_order)", uses=(f"_VRANK_{name}",))
        self.carried: list[tuple[str, str]] = []  # (wire key, value variable) of the rules whose transform's hint carries content (_carried_by)
        self._object_parse(c, cls, known)
        self._object_render(c, cls, known)

    def _spell_maps(self, c: Codec, known: dict) -> dict[tuple, dict]:
        """``key_spelling: proto_json``: for each wire object of the codec, the snake_case spelling of
        each key it maps or carries opaque → the lowerCamel key (only where the two differ)."""
        if self.p.key_spelling != "proto_json":
            return {}
        keys = {prefix: set(names) for prefix, names in known.items() if not (names and all(k.isdigit() for k in names))}
        for entry in c.opaque:
            segs = str(entry).split(".")
            if segs[-1] != "*" and tuple(segs[:-1]) in keys:
                keys[tuple(segs[:-1])].add(segs[-1])
        spells = {}
        for prefix, names in keys.items():
            spell = {snake(k): k for k in sorted(names) if snake(k) != k}
            if spell:
                spells[prefix] = spell
        return spells

    def _respell(self, c: Codec, prefix: tuple, src: str, indent: str = "") -> list[str]:
        """Parse: an object with keys the codec does not know may spell known ones in snake_case;
        read it under the lowerCamel keys (a copy) and keep the input's spelling as the hint ``$spell``."""
        if prefix not in self.spells:
            return []
        known = f"_KNOWN_{self._order_name(c, prefix)}"
        guard = f"{src} and " if prefix else ""
        return [
            f"{indent}if {guard}not {known}.issuperset({src}):",
            f"{indent}    {src}, hints = tw.respell({src}, _SPELL_{self._order_name(c, prefix)}, hints, {py('.'.join(prefix))})",
        ]

    def _respell_read_keys(self, tr, rule: Rule, v: str) -> list[str]:
        """The keys a transform reads inside its value (``codec_at``, ``reads``: of the object, or of
        each item of a list) may come in snake_case too under ``key_spelling: proto_json``."""
        if self.p.key_spelling != "proto_json":
            return []
        args = {k: val for k, val in rule.args.items()}
        keys = [str(k).format(**args) for k in ([tr.codec_at] if tr.codec_at else []) + list(tr.reads)]
        spell = {snake(k): k for k in sorted(set(keys)) if snake(k) != k}
        if not spell:
            return []
        return [f"{v}, hints = tw.respell_value({v}, {py(spell)}, hints, {py(rule.wire)})"]

    def _render_orders(self, c: Codec, known: dict) -> dict[tuple, dict]:
        """The order in which the renderer writes the keys of each wire object of this codec (key → rank).

        Unknown keys (restored from provider_data) come after all of these, in input order. An input
        whose keys are in another order gets the hint ``$order`` (key_order) and comes back in it.
        """
        orders: dict[tuple, dict] = {}

        def add(prefix: tuple, key: str) -> None:
            rank = orders.setdefault(prefix, {})
            rank.setdefault(key, len(rank))

        for rule in c.rules:
            segs = rule.segments
            if rule.flat:
                for key in self._flat_keys(rule):
                    add((), key)
                continue
            if rule.conversation:
                add((), segs[-1])
                for side in self.codec(rule.conversation).side_rules():
                    add((), str(side.wire))
                continue
            for i in range(len(segs)):
                if segs[i].isdigit():
                    continue
                add(tuple(segs[:i]), segs[i])
                if rule.alias and i == len(segs) - 1:
                    add(tuple(segs[:i]), rule.alias)
        list_prefixes = {p for p, keys in known.items() if keys and all(k.isdigit() for k in keys)}
        return {p: r for p, r in orders.items() if p not in list_prefixes}

    def _value_orders(self, c: Codec) -> dict[str, dict]:
        """For each rule whose transform declares ``key_order`` (the value is an object it builds, or
        a list of such): wire key → rank of each key in the order the transform's render writes them.
        An input whose keys are in another order gets the hint ``$order`` for that value too."""
        out = {}
        for rule in c.rules:
            tr = self.spec.transforms.get(rule.transform or "")
            if tr is not None and tr.key_order and rule.wire:
                keys = [str(k).format(**rule.args) for k in tr.key_order]
                out[rule.wire] = {k: i for i, k in enumerate(dict.fromkeys(keys))}
        return out

    def _value_known(self, c: Codec) -> dict[str, frozenset]:
        """For each rule whose transform declares the keys of the object it reads and writes
        (``key_order``, with ``codec_at`` and ``reads``): wire key → those keys. The other keys of
        such an object (a newer API's) are the codec's to carry, as a nested object's unknown keys."""
        out = {}
        for rule in c.rules:
            tr = self.spec.transforms.get(rule.transform or "")
            if tr is not None and tr.key_order and rule.wire and not rule.flat:
                keys = [str(k).format(**rule.args) for k in ([tr.codec_at] if tr.codec_at else []) + list(tr.reads) + list(tr.key_order)]
                out[str(rule.wire)] = frozenset(keys)
        return out

    def _carries(self, c: Codec, rule: Rule) -> bool:
        """Whether the rule's transform says what its hint keeps that the IR has no place for
        (``carries``), in a codec whose node carries fields (``provider_data``)."""
        tr = self.spec.transforms.get(rule.transform or "")
        return tr is not None and tr.carries is not None and bool(rule.wire) and not rule.flat and "provider_data" in self.spec.ir_classes[c.ir].fields

    def _carried_by(self, c: Codec, tr: Transform, rule: Rule, v: str) -> str | None:
        """The expression of what the transform's hint (``{v}_hint``) keeps that the IR has no place
        for ({name: value}, or nothing), when it says (``carries``); noted for ``_object_parse``, which
        puts it with the node's unknown keys, under the rule's wire key: a same-provider render puts
        it back through the hint (``restore`` leaves it), another provider's reports it."""
        if not self._carries(c, rule):
            return None
        self.carried.append((str(rule.wire), v))
        return self._fill(tr.carries, rule, hint=f"{v}_hint")

    def _flat_keys(self, rule: Rule) -> list[str]:
        """The keys a flat rule's codec reads from the object it sits in, in its rule order."""
        keys: list[str] = []
        for sub in self.codec(rule.flat).rules:
            for key in ([sub.segments[0]] if sub.wire and not sub.has_fill else []) + ([sub.alias] if sub.alias and len(sub.segments) == 1 else []):
                if key not in keys:
                    keys.append(key)
        return keys

    def _rule_at(self, c: Codec, wire: str) -> Rule:
        return next(r for r in c.rules if r.wire == wire)

    def _order_name(self, c: Codec, prefix: tuple) -> str:
        return var(c.name) + ("_" + var(".".join(prefix)) if prefix else "")

    def _src(self, prefix: tuple) -> str:
        return "obj" if not prefix else "o_" + var("_".join(prefix))

    def _pth(self, prefix: tuple) -> str:
        return "path" if not prefix else "p_" + var("_".join(prefix))

    def _object_parse(self, c: Codec, cls, known) -> None:
        L = [] if c.name in self.flat_owners else [  # flat: the object it sits in was checked
            "if type(obj) is not dict:",
            f"    raise WrongTypeError(path, 'expected an object, got ' + tw._json_type(obj))",
        ]
        L.append("hints = None")
        L.extend(self._respell(c, (), "obj"))
        # nested containers, outermost first
        for prefix in sorted(known, key=len):
            if not prefix:
                continue
            parent, key = prefix[:-1], prefix[-1]
            src, p = self._src(prefix), self._pth(prefix)
            psrc, pp = self._src(parent), self._pth(parent)
            required = any(r.required and tuple(r.segments[: len(prefix)]) == prefix for r in c.rules)
            if key.isdigit():
                L.append(f"{p} = ({pp}, {int(key)})")
                L.append(f"{src} = {psrc}[{int(key)}] if len({psrc}) > {int(key)} else {{}}")
                if int(key) == 0:
                    L.append(f"if len({psrc}) > 1:")
                    L.append(f"    ctx.lose({pp}, 'only the first of ' + str(len({psrc})) + ' items is kept')")
                L.append(f"if type({src}) is not dict:")
                L.append(f"    raise WrongTypeError({p}, 'expected an object')")
                L.extend(self._respell(c, prefix, src))
                continue
            nxt = sorted(known[prefix])
            is_list = bool(nxt) and all(k.isdigit() for k in nxt)
            L.append(f"{p} = ({pp}, {py(key)})")
            L.append(f"{src} = {psrc}.get({py(key)})")
            L.append(f"if {src} is None:")
            if required:
                L.append(f"    raise tw.missing({p})")
            else:
                L.append(f"    {src} = {'[]' if is_list else '{}'}")
                if not is_list:  # an explicit null container is put back on a same-provider render
                    L.append(f"    if {py(key)} in {psrc}:")
                    L.append(f"        hints = tw.hint(hints, {py('.'.join(prefix))}, 'null')")
            L.append(f"elif type({src}) is not {'list' if is_list else 'dict'}:")
            L.append(f"    raise WrongTypeError({p}, 'expected an {'array' if is_list else 'object'}, got ' + tw._json_type({src}))")
            if not is_list and not required:  # so is an empty one ({} in, {} out)
                L.append(f"elif not {src}:")
                L.append(f"    hints = tw.hint(hints, {py('.'.join(prefix))}, 'empty')")
            L.extend(self._respell(c, prefix, src))
        values: dict[str, list[str]] = {}
        firsts = []  # the values of rules that fill a list with ReasoningParts only
        for i, rule in enumerate(c.rules):
            before = {k: len(v) for k, v in values.items()}
            L.extend(self._rule_parse(c, rule, i, values))
            if rule.select == ["ReasoningPart"]:
                firsts += [v for k, vs in values.items() for v in vs[before.get(k, 0):]]
        for fname, exprs in values.items():
            # reasoning precedes what it led to: a wire that keeps it in a key of its own (DeepSeek
            # reasoning_content, Ollama thinking) gives it no place among the parts, so it goes first
            values[fname] = [e for e in exprs if e in firsts] + [e for e in exprs if e not in firsts]
        args = []
        for name, value in c.set.items():
            args.append(f"{name}={py(value)}")
        for fname in cls.fields:
            if fname in ("provider_data",) or fname in c.set:
                continue
            exprs = values.get(fname)
            if not exprs:
                if fname in cls.required and fname != "type":
                    args.append(f"{fname}={self.ir_field_default(cls.name, fname)}")
                continue
            if len(exprs) == 1:
                args.append(f"{fname}={exprs[0]}")
            elif fname in cls.required:
                args.append(f"{fname}=[{', '.join('*(' + e + ' or ())' for e in exprs)}]")
            else:  # an optional list stays None when no rule filled it
                args.append(f"{fname}=tw.join_lists({', '.join(exprs)})")
        for prefix in sorted(self.orders, key=lambda p: (len(p), p)):  # key order: a hint only when not the render order
            src, name = self._src(prefix), self._order_name(c, prefix)
            guard = "" if not prefix else f"{src} and "
            L.append(f"if {guard}_ORDER_{name}.get(order := tuple({src})) is not True:")
            L.append(f"    hints = tw.key_order(hints, {py('.'.join(prefix))}, order, _RANK_{name}, _ORDER_{name})")
        L.append(f"node = ir.{cls.name}({', '.join(args)})")
        for i, rule in enumerate(c.rules):
            if rule.computed:  # the answered call as this input spelled it: pairs the result with its call
                L.append(f"if {self._vname(rule, i)} is not None:")
                L.append(f"    ctx.answers[id(node)] = {self._vname(rule, i)}")
        extras = []
        for prefix in sorted(known, key=len):
            nxt = known[prefix]
            if nxt and all(k.isdigit() for k in nxt):
                continue
            kname = f"_KNOWN_{var(c.name)}{'_' + var('.'.join(prefix)) if prefix else ''}"
            extras.append((prefix, kname))
        flat = c.name in self.flat_owners  # the keys around it are those of the object it sits in
        if not flat:
            L.append(f"extra = None if {extras[0][1]}.issuperset(obj) else tw.extra_fields(obj, {extras[0][1]})")
        elif extras[1:]:
            L.append("extra = None")
        for prefix, kname in extras[1:]:
            src = self._src(prefix)
            L.append(f"if {src} and not {kname}.issuperset({src}):")
            L.append(f"    extra = tw.nested_extra(extra, {py('.'.join(prefix))}, tw.extra_fields({src}, {kname}))")
        for wire in self.value_known:  # (set by _object, for this codec)
            segs = tuple(wire.split("."))
            kname = f"_VKNOWN_{self._order_name(c, (wire,))}"
            L.append(f"if type(_v := {self._src(segs[:-1])}.get({py(segs[-1])})) is dict and not {kname}.issuperset(_v):")
            L.append(f"    extra = tw.nested_extra(extra, {py(wire)}, tw.extra_fields(_v, {kname}))")
        for wire, v in self.carried:  # what a transform's hint keeps that the IR has no place for: reported elsewhere
            L.append(f"if {v}_carried:")
            L.append(f"    extra = tw.carried_extra(extra, {py(wire)}, {v}_carried)")
        for i, rule in enumerate(c.rules):
            if rule.computed:  # the keys of the repeated value its codec does not know, and its spelling: this node carries them
                v = self._vname(rule, i)
                L.append(f"if {v} is not None and {v}.provider_data is not None:")
                L.append(f"    if {v}.provider_data.fields:")
                L.append(f"        extra = tw.nested_extra(extra, {py(rule.wire)}, {v}.provider_data.fields)")
                L.append(f"    if {v}.provider_data.hints:")
                L.append(f"        hints = tw.hint(hints, {py(rule.wire)}, {v}.provider_data.hints)")
        if cls.name in ("ToolCall", "ToolResult"):
            L.append("ctx.origins.append((node, path))  # so errors found later can point at the input")
        if flat and not extras[1:]:  # no unknown keys of its own: only spelling hints to keep
            if "provider_data" in cls.fields:
                L.append("if hints is not None:")
                L.append("    node.provider_data = ir.ProviderData(provider=PROVIDER, hints=hints)")
        elif "provider_data" in cls.fields:
            L.append("if extra is not None or hints is not None:")
            L.append("    node.provider_data = ir.ProviderData(provider=PROVIDER, fields=extra, hints=hints)")
        else:
            L.append("if extra is not None:")
            L.append(f"    ctx.lose(path, 'fields ' + ', '.join(sorted(extra)) + ' are not kept')")
        L.append("return node")
        self.fn(f"_{c.name}_to_ir", f"{c.doc or c.name} (wire → IR {cls.name}).", L)

    def _rule_parse(self, c: Codec, rule: Rule, idx: int, values: dict) -> list[str]:
        L: list[str] = []
        segs = rule.segments
        v = self._vname(rule, idx)
        if rule.conversation:
            conv = self.codec(rule.conversation)
            hoisted = f"obj.get({py(str(conv.hoist['wire']))})" if conv.hoist else "None"
            top = ", obj" if conv.last_turn else ""  # the final turn's keys sit in this object
            key = py(segs[-1])
            if rule.required or self._single(c, rule):
                L.append(f"{v} = _{conv.name}_to_ir(obj.get({key}), {hoisted}, (path, {key}), ctx{top})")
            else:  # an optional list: absent, null or empty is no messages there (the spelling is a hint)
                L.append(f"{v} = obj.get({key})")
                L.append(f"if not {v}:")
                L.append(f"    hints = tw.hint(hints, {key}, 'absent' if {key} not in obj else 'null' if {v} is None else 'empty')")
                L.append(f"{v} = _{conv.name}_to_ir({v} if {v} is not None else [], {hoisted}, (path, {key}), ctx{top})")
            if self._single(c, rule):
                L.append(f"{v} = tw.single_message({v}, (path, {py(segs[-1])}), ctx, PROVIDER)")
            values.setdefault(rule.ir[0], []).append(v)
            return L
        if rule.computed:  # read through its codec, kept aside (ctx.answers): pairs the node, is not stored in it
            key = py(segs[-1])
            L.append(f"{v} = obj.get({key})")
            if rule.required:
                L.append(f"if {v} is None:")
                L.append(f"    raise tw.missing((path, {key}))")
            L.append(f"{v} = None if {v} is None else _{rule.codec}_to_ir({v}, (path, {key}), ctx)")
            return L
        if rule.flat:  # the sub-object's keys sit in this object: present when any of them is
            sub = self.codec(rule.flat)
            if rule.required:
                L.append(f"{v} = _{sub.name}_to_ir(obj, path, ctx)")
            else:
                L.append(f"{v} = None if _KNOWN_{var(sub.name)}.isdisjoint(obj) else _{sub.name}_to_ir(obj, path, ctx)")
            values.setdefault(rule.ir[0], []).append(v)
            return L
        if rule.has_fill:  # a fill the input did not have is not added on a same-provider render
            if len(segs) > 1:
                return L
            L.append(f"if {py(segs[-1])} not in obj:")
            L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'absent')")
            return L
        if not segs:  # IR-only rule with a fallback value
            values.setdefault(rule.ir[0], []).append(py(rule.default))
            return L
        src, psrc = self._src(tuple(segs[:-1])), self._pth(tuple(segs[:-1]))
        key = segs[-1]
        p = f"({psrc}, {py(key)})"
        L.append(f"{v} = {src}.get({py(key)})")
        if rule.has_absent_as:  # absent (or null): read as the given wire value; the spelling is a hint
            L.append(f"if {v} is None:")
            L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'absent' if {py(key)} not in {src} else 'null')")
            L.append(f"    {v} = {py(rule.absent_as)}")
        if rule.alias:
            L.append(f"if {v} is None:")
            L.append(f"    {v} = {src}.get({py(rule.alias)})")
            L.append(f"    if {v} is not None:")
            L.append(f"        hints = tw.hint(hints, {py(rule.wire)}, 'alias')")
        if rule.required:
            L.append(f"if {v} is None:")
            L.append(f"    raise tw.missing({p})")
        elif rule.emit_null:  # null and absent differ for a field rendered even when null
            L.append(f"if {v} is None:")
            L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'null' if {py(key)} in {src} else 'absent')")
        elif not rule.has_const and not rule.has_absent_as:  # an explicit null is put back on a same-provider render
            L.append(f"if {v} is None and {py(key)} in {src}:")
            L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'null')")
        jt = JSON_TYPES.get(rule.type or "any")
        if jt and not rule.transform:
            check = {"number": f"type({v}) not in (int, float)", "int": f"type({v}) is not int"}.get(jt, f"type({v}) is not {jt}")
            L.append(f"if {check}:" if rule.required or rule.has_absent_as else f"if {v} is not None and {check}:")
            L.append(f"    raise WrongTypeError({p}, 'expected {rule.type}, got ' + tw._json_type({v}))")
        if rule.has_const:
            L.append(f"if {v} is not None and {v} != {py(rule.const)}:")
            L.append(f"    raise UnknownVariantError({p}, {py('expected ' + repr(rule.const) + ', got ')} + repr({v}))")
            if rule.emit == "if_seen":
                L.append(f"if {v} is not None:")
                L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'seen')")
            elif not rule.required:  # a const the input left out is not added on a same-provider render
                L.append(f"if {v} is None:")
                L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'null' if {py(key)} in {src} else 'absent')")
            return L
        irs = rule.ir
        if rule.transform:
            tr = self.spec.transforms[rule.transform]
            L.extend(self._respell_read_keys(tr, rule, v))
            if rule.wire in self.value_orders:  # key order of the object(s) the transform builds: a hint only when not its order
                name = self._order_name(c, (rule.wire,))
                L.append(f"if {v} is not None:")
                L.append(f"    hints = tw.value_key_order(hints, {py(rule.wire)}, {v}, _VRANK_{name}, _VORDER_{name})")
            # a refine rule's parse reads what the rules before it gave its IR fields, and replaces it
            priors = [values[n][-1] if values.get(n) else "None" for n in irs] if rule.refine else []
            call = self._fill(tr.parse, rule, value=v, path=p, priors=priors)
            targets = [f"{v}_{var(n)}" if len(irs) > 1 else f"{v}_ir" for n in irs]
            if rule.refine:
                for n in irs:
                    values[n] = []
            hint_var = f"{v}_hint"
            if tr.returns_hint:
                targets.append(hint_var)
            carried = self._carried_by(c, tr, rule, v)
            if carried:
                L.append(f"{v}_carried = None")
            if rule.required:
                L.append(f"{', '.join(targets)} = {call}")
                if tr.returns_hint:
                    L.append(f"if {hint_var} is not None:")
                    L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, {hint_var})")
                    if carried:
                        L.append(f"    {v}_carried = {carried}")
                for n, name in enumerate(irs):
                    values.setdefault(name, []).append(targets[n])
                return L
            L.append(f"if {v} is not None:")
            L.append(f"    {', '.join(targets)} = {call}")
            if tr.returns_hint:
                L.append(f"    if {hint_var} is not None:")
                L.append(f"        hints = tw.hint(hints, {py(rule.wire)}, {hint_var})")
                if carried:
                    L.append(f"        {v}_carried = {carried}")
            L.append("else:")
            defaults = priors or [py(rule.default) if (rule.has_default and n == 0) else self.ir_field_default(c.ir, name) for n, name in enumerate(irs)]
            L.append(f"    {', '.join(targets[: len(irs)])} = {', '.join(defaults)}")
            if rule.has_default and not rule.emit_null:  # left out: the provider's default (the absence is a hint)
                L.append(f"    if {py(key)} not in {src}:")
                L.append(f"        hints = tw.hint(hints, {py(rule.wire)}, 'absent')")
            for n, name in enumerate(irs):
                values.setdefault(name, []).append(targets[n])
            return L
        target = irs[0]
        if rule.codec:
            sub = self.codec(rule.codec)
            # absent_as: never None here (an absent key was read as that value)
            pad = "" if rule.has_absent_as else "    "
            if not rule.has_absent_as:
                L.append(f"if {v} is not None:")
            L.append(f"{pad}{v} = _{sub.name}_to_ir({v}, {p}, ctx)")
            if sub.kind == "enum" and self._enum_not_injective(sub):
                L.append(f"{pad}if _{var(sub.name).upper()}_RENDER.get({v}) != {src}.get({py(key)}):")
                L.append(f"{pad}    hints = tw.hint(hints, {py(rule.wire)}, {src}.get({py(key)}))")
        elif rule.list_of:
            sub = self.codec(rule.list_of)
            pad = "" if rule.has_absent_as else "    "  # absent_as: never None here
            if not rule.has_absent_as:
                L.append(f"if {v} is not None:")
            L.append(f"{pad}{v} = [_{sub.name}_to_ir(x, ({p}, i), ctx) for i, x in enumerate(tw.expect_list({v}, {p}))]")
            if not rule.required:
                L.append(f"{pad}if not {v}{' and ' + py(key) + ' in ' + src if rule.has_absent_as else ''}:")
                L.append(f"{pad}    hints = tw.hint(hints, {py(rule.wire)}, 'empty')")
        if rule.has_default:
            # the provider's default: the IR says None ("provider default"); the spelling is a hint
            L.append(f"if {v} == {py(rule.default)}:")
            L.append(f"    {v} = None")
            L.append(f"    hints = tw.hint(hints, {py(rule.wire)}, 'explicit_default')")
        values.setdefault(target, []).append(v)
        return L

    @staticmethod
    def _fill_format(fmt: str, dst: str, codec: str) -> str:
        """A `fill_format` as an expression over the keys already written to ``dst``; ``{$n}`` is
        the number of this codec's objects rendered before it in the conversion (0, 1, ...)."""
        import string

        terms = []
        for literal, field, _spec, _conv in string.Formatter().parse(fmt):
            if literal:
                terms.append(py(literal))
            if field == "$n":
                terms.append(f"str(ctx.number({py(codec)}))")
            elif field is not None:
                terms.append(f"str({dst}.get({py(field)}, ''))")
        return " + ".join(terms) or "''"

    def _wire_requires(self, c: Codec, rule: Rule) -> bool:
        """The rule's top-level key is required by the codec's `wire_type` (the derived wire types),
        though the rule is not `required` (which also makes it required on parse: an OpenAI Chat body
        without a model still parses). Rendering without a value is reported, as for `required`."""
        if not c.wire_type or len(rule.segments) != 1 or rule.has_fallback:
            return False
        schema = (self.p.wire_schema or {}).get("$defs", {}).get(c.wire_type) or {}
        return rule.segments[0] in schema.get("required", ())

    def _carriers(self, rule: Rule) -> str:
        """{carriers}: the shapes of the rule's codec's wire values that declare the transform's
        flag (``args.flag``), as ((tag key, tag value), ...) of the derived definitions the codec is
        bound to; None when the wire types do not say (every shape takes it). Anthropic's
        ToolChoiceNoneParam has no disable_parallel_tool_use: only auto, any and tool carry it."""
        flag = rule.args.get("flag")
        cov = self.p.coverage
        defs = sorted(cov.bound.get(rule.codec or "", ())) if cov is not None else []
        schemas = (self.p.wire_schema or {}).get("$defs", {})
        out, seen = [], False
        for name in defs:
            props = (schemas.get(name) or {}).get("properties") or {}
            tags = [(k, v["const"]) for k, v in props.items() if isinstance(v, dict) and "const" in v]
            if not tags:
                continue
            seen = True
            if flag in props:
                out.extend(tags)
        return py(tuple(sorted(out))) if seen else "None"

    def _fill(self, template: str, rule: Rule, value: str = "", path: str = "", irs: list[str] | None = None, hint: str = "None", priors: list[str] | None = None) -> str:
        subs = {"value": value, "path": path, "hint": hint, "request": "ctx.request"}  # {request}: the IR Request being rendered
        for n, expr in enumerate(priors or []):  # a refine rule: what the rules before it gave its IR fields
            subs[f"prior{n}"] = expr
        if "{carriers}" in template:
            subs["carriers"] = self._carriers(rule)
        # parse only: whether the value was read under the rule's alias key
        subs["aliased"] = f"(hints is not None and hints.get({py(rule.wire)}) == 'alias')" if rule.alias else "False"
        if rule.codec:
            subs["codec_to_ir"] = f"_{rule.codec}_to_ir"
            subs["codec_from_ir"] = f"_{rule.codec}_from_ir"
        for k, v in rule.args.items():
            subs[k] = py(v)
        for n, expr in enumerate(irs or []):
            subs[f"ir{n}"] = expr
        return template.format(**subs)

    def _object_render(self, c: Codec, cls, known) -> None:
        L = [
            f"if type(node) is not ir.{cls.name}:  # e.g. an image in a text-only place",
            "    return tw.cannot_express(node, PROVIDER, path, ctx)",
            "out = {}",
        ]
        has_pd = "provider_data" in cls.fields
        if has_pd:
            L.append("pd = node.provider_data")
            L.append("hints = pd.hints if pd is not None and pd.provider == PROVIDER else None")
        else:
            L.append("hints = None")
        made: set[tuple] = set()
        list_prefixes = {p for p, keys in known.items() if keys and all(k.isdigit() for k in keys)}
        for idx, rule in enumerate(c.rules):
            segs = rule.segments
            if rule.conversation:
                conv = self.codec(rule.conversation)
                ir_name = rule.ir[0]
                value = f"[node.{ir_name}]" if self._single(c, rule) else f"node.{ir_name}"
                v = self._vname(rule, idx)
                last = ", last" if conv.last_turn else ""
                L.append(f"{v}, hoisted{last} = _{conv.name}_from_ir({value}, (path, {py(ir_name)}), ctx)")
                if rule.required or self._single(c, rule):
                    L.append(f"out[{py(segs[-1])}] = {v}")
                else:  # an optional list: not sent when empty, unless the same-provider input had it so
                    L.append(f"if {v} or (hints is not None and hints.get({py(segs[-1])}) == 'empty'):")
                    L.append(f"    out[{py(segs[-1])}] = {v}")
                    L.append(f"elif hints is not None and hints.get({py(segs[-1])}) == 'null':")
                    L.append(f"    out[{py(segs[-1])}] = None")
                if conv.hoist:
                    L.append("if hoisted is not None:")
                    L.append(f"    out[{py(str(conv.hoist['wire']))}] = hoisted")
                if conv.last_turn:
                    L.append("out.update(last)  # the final turn's keys")
                continue
            if rule.computed:  # computed from the rest of the conversation, through the rule's codec
                key = py(segs[-1])
                spelled = f"(hints.get({key}) if hints is not None else None)"  # (how the input spelled it, _object_parse)
                L.append(f"out[{key}] = _{rule.codec}_from_ir(tw.answered_call(node, (path, {key}), ctx, {spelled}), (path, {key}), ctx)")
                continue
            if rule.flat:  # the sub-object's keys go into this object
                L.append(f"if node.{rule.ir[0]} is not None:")
                L.append(f"    out.update(_{rule.flat}_from_ir(node.{rule.ir[0]}, (path, {py(rule.ir[0])}), ctx))")
                continue
            if not segs:
                continue
            for i in range(1, len(segs)):
                prefix = tuple(segs[:i])
                if prefix in made:
                    continue
                made.add(prefix)
                parent = self._out(prefix[:-1])
                key = prefix[-1]
                if prefix in list_prefixes:
                    L.append(f"{self._out(prefix)} = {parent}[{py(key)}] = []")
                elif key.isdigit():
                    L.append(f"{self._out(prefix)} = {{}}")
                    L.append(f"{parent}.append({self._out(prefix)})")
                else:
                    L.append(f"{self._out(prefix)} = {parent}[{py(key)}] = {{}}")
            L.extend(self._rule_render_for_models(c, rule, idx))
        # drop nested containers nothing was written to (innermost first)
        for prefix in sorted(made, key=lambda p: (-len(p), p)):
            parent, key = self._out(prefix[:-1]), prefix[-1]
            if key.isdigit():  # a list item nothing was written to is dropped (then the empty list)
                L.append(f"if not {self._out(prefix)}:")
                L.append(f"    {parent}.remove({self._out(prefix)})")
                continue
            dotted = py(".".join(prefix))
            L.append(f"if not {self._out(prefix)}:")
            L.append(f"    if hints is None or {dotted} not in hints:")
            L.append(f"        del {parent}[{py(key)}]")
            L.append(f"    elif hints[{dotted}] == 'null':  # kept as the same-provider input had it")
            L.append(f"        {parent}[{py(key)}] = None")
        # IR fields this codec has no place for: report them when they hold something
        mapped = {n for r in c.rules for n in r.ir} | set(c.set) | {"provider_data", "type"}
        if any(r.computed == "answered_call" for r in c.rules):  # the call it repeats says which call it answers
            mapped.add("tool_call_id")
        for fname, schema in cls.fields.items():
            if fname in mapped or schema.get("x-derived"):
                continue
            default = schema.get("default")
            cond = f"node.{fname} is not None" if default is None else f"node.{fname} != {py(default)}"
            if schema.get("type") == "array" or "array" in (schema.get("type") or []):
                cond = f"node.{fname}"
            L.append(f"if {cond}:")
            where = self.p.outside_body.get(f"{cls.name}.{fname}")
            if where is not None:  # not a loss: the caller passes it where the target takes it
                L.append(f"    ctx.outside_body((path, {py(fname)}), {named(f' takes {cls.name}.{fname} outside the body, not sent in it: {where}')})")
            else:
                L.append(f"    ctx.lose((path, {py(fname)}), {named(f' has no place for {cls.name}.{fname}; dropped')})")
        if has_pd:
            nested = sorted(".".join(p) for p, keys in known.items() if p and not (keys and all(k.isdigit() for k in keys)))
            nested += sorted(w for w in self.value_known if w not in nested)
            nested += sorted(str(r.wire) for r in c.rules if r.computed and str(r.wire) not in nested)  # (its unknown keys, _object_parse)
            hinted = tuple(sorted(str(r.wire) for r in c.rules if self._carries(c, r)))  # (its hint puts them back)
            L.append("if pd is not None and pd.fields:")
            # (a nested object its unknown keys alone make takes its place among the known keys: the order key_order assumes)
            rank = f", rank=_RANK_{self._order_name(c, ())}" if nested and () in self.orders else ""
            L.append(f"    tw.restore(out, pd, PROVIDER, path, ctx, {py(tuple(nested))}{', ' + py(hinted) if hinted else ''}{rank})")
            if self.orders:  # (a flat codec's keys are ordered by the object they sit in)
                L.append("if hints is not None and '$order' in hints:  # the same-provider input's key order")
                L.append("    out = tw.apply_key_order(out, hints['$order'])")
            if self.spells:
                L.append("if hints is not None and '$spell' in hints:  # the same-provider input's snake_case keys")
                L.append("    out = tw.apply_spelling(out, hints['$spell'])")
        L.append("return out")
        self.fn(f"_{c.name}_from_ir", f"{c.doc or c.name} (IR {cls.name} → wire).", L)

    def _vname(self, rule: Rule, idx: int) -> str:
        """A local named after the wire field it holds (wire paths are unique within a codec)."""
        return "v_" + var(rule.wire or "_".join(rule.ir) or str(idx))

    def _single(self, c: Codec, rule: Rule) -> bool:
        """A conversation rule filling a single Message (a response's output) rather than a list."""
        schema = self.spec.ir_classes[c.ir].fields[rule.ir[0]]
        return schema.get("type") != "array"

    def _out(self, prefix: tuple) -> str:
        return "out" if not prefix else "w_" + var("_".join(prefix))

    def _rule_render(self, c: Codec, rule: Rule, idx: int) -> list[str]:
        L: list[str] = []
        segs = rule.segments
        dst = self._out(tuple(segs[:-1]))
        key = segs[-1]
        slot = f"{dst}[{py(key)}]"
        if rule.alias and rule.transform and self.spec.transforms[rule.transform].returns_hint:
            # the transform's hint replaces the alias one; it may say {"alias": True, ...} (see {aliased})
            slot = f"{dst}[{py(rule.alias)} if tw.aliased(hints, {py(rule.wire)}) else {py(key)}]"
        elif rule.alias:  # written back under the key the input used
            slot = f"{dst}[{py(rule.alias)} if hints is not None and hints.get({py(rule.wire)}) == 'alias' else {py(key)}]"
        p = "path"
        if rule.has_const:
            if rule.emit == "if_seen":
                L.append(f"if hints is not None and hints.get({py(rule.wire)}) == 'seen':")
                L.append(f"    {slot} = {py(rule.const)}")
            elif rule.required:
                L.append(f"{slot} = {py(rule.const)}")
            else:  # not added when the same-provider input left it out
                L.append(f"if hints is None or {py(rule.wire)} not in hints:")
                L.append(f"    {slot} = {py(rule.const)}")
                L.append(f"elif hints[{py(rule.wire)}] == 'null':")
                L.append(f"    {slot} = None")
            return L
        if rule.has_fill:
            value = py(rule.fill) if rule.fill_format is None else self._fill_format(rule.fill_format, dst, c.name)
            if len(segs) > 1:
                L.append(f"{slot} = {value}  # required by the wire; restored fields override it")
            else:  # not added when the same-provider input left it out; what it had is sent as it was
                # (restoring would merge it into the fill: keys it lacked would be added)
                if "provider_data" in self.spec.ir_classes[c.ir].fields:
                    value = f"tw.carried_or(pd, PROVIDER, {py(key)}, {value})"
                L.append(f"if hints is None or hints.get({py(rule.wire)}) != 'absent':")
                L.append(f"    {slot} = {value}  # required by the wire")
            return L
        irs = rule.ir
        exprs = [self._select(c, rule, f"node.{name}") for name in irs]
        v = self._vname(rule, idx)
        if rule.transform:
            tr = self.spec.transforms[rule.transform]
            hint = f"(hints.get({py(rule.wire)}) if hints is not None else None)"
            call = self._fill(tr.render, rule, path=f"({p}, {py(irs[0])})", irs=exprs, hint=hint)
            if call == "None":
                L.append(f"# {rule.wire}: never sent ({rule.transform})")
                return L
            if rule.has_default and not rule.emit_null:
                # absent on input (the provider's default assumed): left out again while the IR still says the default
                hint = f"(hints.get({py(rule.wire)}) if hints is not None and hints.get({py(rule.wire)}) != 'absent' else None)"
                call = self._fill(tr.render, rule, path=f"({p}, {py(irs[0])})", irs=exprs, hint=hint)
                same = " and ".join([f"{exprs[0]} == {py(rule.default)}", *(f"not {e}" for e in exprs[1:])])
                L.append(f"if hints is not None and hints.get({py(rule.wire)}) == 'absent' and {same}:")
                L.append(f"    {v} = None")
                L.append("else:")
                L.append(f"    {v} = {call}")
            else:
                L.append(f"{v} = {call}")
            if rule.has_fallback:
                L.append(f"if {v} is None:")
                L.append(f"    {v} = {py(rule.fallback)}")
                L.append(f"    {self._fallback_report(rule, p, irs, key)}")
            if rule.emit_null:
                L.append(f"if {v} is not None or hints is None or hints.get({py(rule.wire)}) != 'absent':")
                L.append(f"    {slot} = {v}")
            else:
                L.append(f"if {v} is not None:")
                L.append(f"    {slot} = {v}")
                L.extend(self._null_back(rule, slot))
            return L
        L.append(f"{v} = {exprs[0]}")
        bounds = self.p.coverage.bounds.get((c.name, rule.wire)) if self.p.coverage is not None else None
        if bounds is not None:  # the derived schema's range: a value outside it is reported, not sent (never clamped)
            lo, hi, where = bounds
            L.append(f"if {v} is not None:")
            L.append(f"    {v} = tw.in_range({v}, {py(lo)}, {py(hi)}, {py(where)}, ({p}, {py(irs[0])}), ctx)")
        if rule.codec:
            sub = self.codec(rule.codec)
            L.append(f"if {v} is not None:")
            if sub.kind == "enum" and self._enum_not_injective(sub):
                L.append(f"    h = hints.get({py(rule.wire)}) if hints is not None else None")
                L.append(f"    if h is not None and _{var(sub.name).upper()}_PARSE.get(h) == {v}:")
                L.append(f"        {v} = h")
                L.append("    else:")
                L.append(f"        {v} = _{sub.name}_from_ir({v}, ({p}, {py(irs[0])}), ctx)")
            else:
                L.append(f"    {v} = _{sub.name}_from_ir({v}, ({p}, {py(irs[0])}), ctx)")
        elif rule.list_of:
            sub = self.codec(rule.list_of)
            L.append(f"if {v} is not None:")
            L.append(f"    {v} = [y for y in (_{sub.name}_from_ir(x, (({p}, {py(irs[0])}), i), ctx) for i, x in enumerate({v})) if y is not None]")
            if rule.required:  # every item dropped (each reported): no empty list where one is required
                L.append(f"    if not {v} and node.{irs[0]}:")
                L.append(f"        {v} = None")
        if rule.has_default:
            if rule.emit_null:  # the wire requires the field: send the default (unless the input said null)
                L.append(f"if {v} is None and (hints is None or hints.get({py(rule.wire)}) not in ('null', 'absent')):")
                L.append(f"    {v} = {py(rule.default)}")
            else:
                L.append(f"if {v} is None and hints is not None and hints.get({py(rule.wire)}) == 'explicit_default':")
                L.append(f"    {v} = {py(rule.default)}")
        if rule.has_absent_as:
            L.append(f"if {v} == {py(rule.absent_as)} and hints is not None and hints.get({py(rule.wire)}) in ('absent', 'null'):")
            L.append(f"    {v} = None  # absent (or null) on input: so again")
            L.append(f"    if hints.get({py(rule.wire)}) == 'null':")
            L.append(f"        {slot} = None")
        if rule.has_fallback:
            L.append(f"if {v} is None:")
            L.append(f"    {v} = {py(rule.fallback)}")
            L.append(f"    {self._fallback_report(rule, p, irs, key)}")
        if rule.list_of and not rule.required:
            L.append(f"if {v}:")
            L.append(f"    {slot} = {v}")
            L.append(f"elif {v} is not None and hints is not None and hints.get({py(rule.wire)}) == 'empty':")
            L.append(f"    {slot} = []")
            L.extend(self._null_back(rule, slot))
        elif rule.emit_null:  # sent even when null, unless the same-provider input left it out
            L.append(f"if {v} is not None or hints is None or hints.get({py(rule.wire)}) != 'absent':")
            L.append(f"    {slot} = {v}")
        elif rule.required or self._wire_requires(c, rule):
            L.append(f"if {v} is None:")
            L.append(f"    ctx.lose(({p}, {py(irs[0])}), {named(' and the input has none; add it before sending', f'{key} is required by ')})")
            L.append("else:")
            L.append(f"    {slot} = {v}")
        else:
            L.append(f"if {v} is not None:")
            L.append(f"    {slot} = {v}")
            L.extend(self._null_back(rule, slot))
        return L

    def _rule_render_for_models(self, c: Codec, rule: Rule, idx: int) -> list[str]:
        """A rule with `for_models`: the rule as it is for each group of target models, in order,
        then the rule itself for every other model (docs/spec-language.md "Rules for some models")."""
        base = self._rule_render(c, rule, idx)
        if not rule.for_models:
            return base
        L: list[str] = []
        for n, (entry, alt) in enumerate(rule.for_models):
            L.append(f"# {_note(entry)}")
            L.append(f"{'if' if n == 0 else 'elif'} tw.for_model(ctx, {_models(entry)}):")
            if alt is None:  # not sent for these models: reported when the IR has a value
                ir0 = rule.ir[0]
                L.append(f"    if node.{ir0} is not None:")
                L.append(f"        tw.model_report(ctx, (path, {py(ir0)}), {py(entry['why'] + '; not sent')}, 'loss')")
            else:
                L.extend("    " + line for line in self._rule_render(c, alt, idx))
        L.append("else:")
        L.extend("    " + line for line in base)
        return L

    def _fallback_report(self, rule: Rule, p: str, irs: list, key: str) -> str:
        """The report of a fallback sent: the wire requires the key, or (`for_models`) the model does."""
        if rule.model_why:
            return f"tw.model_report(ctx, ({p}, {py(irs[0])}), {py(f'{rule.model_why}; sent {rule.fallback!r}')}, 'assumption')"
        return f"ctx.assume(({p}, {py(irs[0])}), {named(f'; sent {rule.fallback!r}', f'{key} is required by ')})"

    def _variant_return(self, v: dict, indent: str) -> list[str]:
        """Render through a union variant's codec, or through the codec its `for_models` names for the target model."""
        L = []
        for e in v.get("for_models") or ():
            L.append(f"{indent}# {_note(e)}")
            L.append(f"{indent}if tw.for_model(ctx, {_models(e)}):")
            L.append(f"{indent}    tw.model_report(ctx, path, {py(e['why'])}, {py(e['report'])})")
            L.append(f"{indent}    return _{e['codec']}_from_ir(node, path, ctx)")
        L.append(f"{indent}return _{v['codec']}_from_ir(node, path, ctx)")
        return L

    def _null_back(self, rule: Rule, slot: str) -> list[str]:
        """An explicit null of the same-provider input is put back (hint 'null' from the parse)."""
        return [
            f"elif hints is not None and hints.get({py(rule.wire)}) == 'null':",
            f"    {slot} = None",
        ]

    def _select(self, c: Codec, rule: Rule, expr: str) -> str:
        """The items of an IR list this rule renders (rules sharing one IR list split it by class)."""
        if not rule.select:
            return expr
        if rule.select == ["rest"]:
            others = sorted({n for r in c.rules if r is not rule and r.ir == rule.ir and r.select for n in r.select} - {"rest"})
            classes = ", ".join(f"ir.{n}" for n in others)
            return f"[x for x in {self._items(c, rule, expr)} if type(x) not in ({classes},)]"
        classes = ", ".join(f"ir.{n}" for n in rule.select)
        return f"[x for x in {self._items(c, rule, expr)} if type(x) in ({classes},)]"

    def _items(self, c: Codec, rule: Rule, expr: str) -> str:
        """An IR list to iterate: optional lists may be None."""
        cls = self.spec.ir_classes[c.ir]
        return expr if all(name in cls.required for name in rule.ir) else f"({expr} or ())"

    # --- unions ------------------------------------------------------------------------------------

    def _union(self, c: Codec) -> None:
        L = []
        if c.scalar:
            sc = c.scalar
            L.append("if type(obj) is str:")
            enum = self.codec(sc["codec"])
            if enum.kind == "enum" and self._enum_not_injective(enum):  # e.g. Mistral "any" and "required": one IR mode
                L.append(f"    node = ir.{sc['ir']}({sc['field']}=_{sc['codec']}_to_ir(obj, path, ctx))")
                L.append(f"    if _{var(enum.name).upper()}_RENDER.get(node.{sc['field']}) != obj:  # the input's own word, for a same-provider render")
                L.append("        node.provider_data = ir.ProviderData(provider=PROVIDER, hints={'$scalar': obj})")
                L.append("    return node")
            else:
                L.append(f"    return ir.{sc['ir']}({sc['field']}=_{sc['codec']}_to_ir(obj, path, ctx))")
        L.append("if type(obj) is not dict:")
        L.append("    raise WrongTypeError(path, 'expected an object, got ' + tw._json_type(obj))")
        tags = list(dict.fromkeys(v["tag"] for v in c.variants))  # a tag may have several codecs (media)
        if c.tag_by_key:
            for tag in tags:
                other = snake(tag) if self.p.key_spelling == "proto_json" else tag
                # a key that holds null is not there (an SDK's model_dump() writes every unset field as null)
                L.append(f"if obj.get({py(tag)}) is not None or obj.get({py(other)}) is not None:" if other != tag else f"if obj.get({py(tag)}) is not None:")
                L.extend("    " + line for line in self._tag_parse(c, tag))
            what = "a key of " + ", ".join(tags)
        else:
            default = py(c.tag_default) if c.tag_default else "None"
            if self.p.key_spelling == "proto_json" and snake(c.tag) != c.tag:
                default = f"obj.get({py(snake(c.tag))}, {default})"
            L.append(f"tag = obj.get({py(c.tag)}, {default})")
            for tag in tags:
                L.append(f"if tag == {py(tag)}:")
                L.extend("    " + line for line in self._tag_parse(c, tag))
            what = f"{c.tag} " + ", ".join(repr(t) for t in tags)
        if c.unknown == "opaque" and c.unknown_part_of:
            L.append(f"return ir.Message(role={py(c.unknown_part_of)}, parts=[ir.OpaquePart(provider=PROVIDER, data=obj)])")
        elif c.unknown == "opaque":
            L.append("return ir.OpaquePart(provider=PROVIDER, data=obj)")
        elif c.unknown == "provider_tool":
            L.append("return ir.ProviderTool(provider=PROVIDER, data=obj)")
        elif c.tag_by_key:
            L.append(f"raise UnknownVariantError(path, {py('expected ' + what)})")
        else:
            L.append(f"raise UnknownVariantError((path, {py(c.tag)}), 'unknown {c.tag} ' + repr(tag) + {py('; expected one of ' + ', '.join(repr(t) for t in tags))})")
        self.fn(f"_{c.name}_to_ir", f"{c.doc or c.name}: dispatch on {'the key present' if c.tag_by_key else c.tag} (wire → IR).", L)
        self._union_render(c)

    def _tag_parse(self, c: Codec, tag: str) -> list[str]:
        """The codec for one tag; several codecs of one tag are told apart by the item's media type."""
        variants = [v for v in c.variants if v["tag"] == tag]
        L = []
        for variant in variants:  # opaque_if: e.g. a server-side tool's call or result, run by the provider
            if variant.get("opaque_if"):
                inner = f"obj.get({py(tag)})" if c.tag_by_key else "obj"
                L.append(f"if type(v := {inner}) is dict and {py(variant['opaque_if'])} in v:")
                L.append("    return ir.OpaquePart(provider=PROVIDER, data=obj)")
        for variant in [v for v in variants if v.get("flag")]:  # flag: e.g. a Gemini text part with thought: true
            L.append(f"if tw.wire_at(obj, {py(tuple(variant['flag'].split('.')))}) not in (None, False, ''):")
            L.extend("    " + line for line in self._variant_parse(c, variant))
        variants = [v for v in variants if not v.get("flag")]
        if len({v["codec"] for v in variants}) == 1:  # one codec (under one or several render conditions)
            return L + self._variant_parse(c, variants[0])
        for variant in variants:
            if not variant.get("media"):
                L.extend(self._variant_parse(c, variant))
                break
            sub = self.codec(variant["codec"])
            rule = next(r for r in sub.rules if "media_type" in r.ir and r.wire)
            if self.p.key_spelling == "proto_json":  # either spelling of each key (key_spelling)
                at = f"tw.spelled_at(obj, {py(tuple((k, snake(k)) for k in rule.segments))})"
            else:
                at = f"tw.wire_at(obj, {py(tuple(rule.segments))})"
            L.append(f"if tw.media_in({at}, {py(tuple(variant['media']))}):")
            L.extend("    " + line for line in self._variant_parse(c, variant))
        return L

    def _kept_media(self, c: Codec, variant: dict) -> tuple | None:
        """The media types the variant's codec takes on render under its tag (None: any), for a
        union whose variants filter by media type."""
        same = [v for v in c.variants if v["tag"] == variant["tag"] and v["codec"] == variant["codec"] and not v.get("hint_only")]
        if not same or any(not v.get("media") for v in same):
            return None
        if len({v["codec"] for v in c.variants if v["tag"] == variant["tag"]}) > 1:
            return None  # several codecs under one tag are chosen by the wire's media type: always taken back
        return tuple(dict.fromkeys(m for v in same for m in v["media"]))

    def _variant_parse(self, c: Codec, variant: dict) -> list[str]:
        sub = self.codec(variant["codec"])
        call = f"_{sub.name}_to_ir(obj, path, ctx)"
        L = []
        if variant.get("part_of"):
            L.append(f"return ir.Message(role={py(variant['part_of'])}, parts=[{call}])")
        elif variant.get("hint_only"):
            L.append(f"node = {call}")
            L.append(f"tw.set_hint(node, PROVIDER, '$tag', {py(variant['tag'])})")
            L.append("return node")
        elif self._kept_media(c, variant) is not None:
            # a part of a media type this variant does not take from elsewhere: marked, so that it
            # goes back through it on a same-provider round trip (an audio file in input_file)
            L.append(f"node = {call}")
            L.append(f"if not tw.media_in(node.media_type, {py(self._kept_media(c, variant))}):")
            L.append(f"    tw.set_hint(node, PROVIDER, '$tag', {py(variant['tag'])})")
            L.append("return node")
        else:
            L.append(f"return {call}")
        return L

    def _union_render(self, c: Codec) -> None:
        variants = [v for v in c.variants if not v.get("part_of")]
        by_role = all(self.codec(v["codec"]).ir == "Message" for v in variants)
        L = []
        if by_role:
            L.append("role = node.role")
            hinted = [v for v in variants if v.get("hint_only")]
            if hinted:
                L.append("tag = tw.hint_of(node, PROVIDER, '$tag')")
                for v in hinted:
                    L.append(f"if tag == {py(v['tag'])}:")
                    L.append(f"    return _{v['codec']}_from_ir(node, path, ctx)")
            for v in variants:
                if v.get("hint_only"):
                    continue
                role = self.codec(v["codec"]).set.get("role")
                if role is None:
                    L.extend(self._variant_return(v, ""))
                    break
                L.append(f"if role == {py(role)}:")
                L.extend(self._variant_return(v, "    "))
            else:
                L.append(f"raise UnknownVariantError((path, 'role'), f'{{ctx.provider}} has no message role {{role!r}}')")
        elif c.scalar:
            sc = c.scalar
            for v in variants:
                sub = self.codec(v["codec"])
                for key, value in sub.set.items():
                    L.append(f"if node.{key} == {py(value)}:")
                    L.append(f"    return _{sub.name}_from_ir(node, path, ctx)")
                if v.get("when"):
                    L.append(f"if node.{v['when']}:")
                    L.append(f"    return _{sub.name}_from_ir(node, path, ctx)")
            L.append("if node.provider_data is not None and node.provider_data.fields:  # a bare string has no room for them")
            L.append("    tw.unkept_fields(node.provider_data, PROVIDER, path, ctx)")
            for fname in self.spec.ir_classes[sc["ir"]].fields:
                if fname not in (sc["field"], "provider_data", "name"):  # name: only with the named variant
                    L.append(f"if node.{fname}:")
                    what = named(f" has no place for {sc['ir']}.{fname} here; dropped")
                    L.append(f"    ctx.lose((path, {py(fname)}), {what})")
            enum = self.codec(sc["codec"])
            if enum.kind == "enum" and self._enum_not_injective(enum):
                L.append("pd = node.provider_data")
                L.append("if pd is not None and pd.provider == PROVIDER and pd.hints and '$scalar' in pd.hints:")
                L.append(f"    if _{sc['codec']}_to_ir(pd.hints['$scalar'], path, ctx) == node.{sc['field']}:")
                L.append("        return pd.hints['$scalar']  # the same-provider input's own word for this mode")
            L.append(f"return _{sc['codec']}_from_ir(node.{sc['field']}, path, ctx)")
        else:
            L.append("t = type(node)")
            seen_classes = []
            hinted = [v for v in variants if v.get("hint_only")]
            kept = list({v["tag"]: v for v in variants if not v.get("hint_only") and self._kept_media(c, v) is not None}.values())
            if hinted or kept:  # (most parts carry no provider data: skip the call for them)
                L.append("tag = tw.hint_of(node, PROVIDER, '$tag') if getattr(node, 'provider_data', None) is not None else None")
                for v in hinted + kept:
                    L.append(f"if tag == {py(v['tag'])} and t is ir.{self.codec(v['codec']).ir}:")
                    L.append(f"    return _{v['codec']}_from_ir(node, path, ctx)")
            # codecs that take only some media types are tried before the others of their class
            for v in sorted(variants, key=lambda v: not v.get("media")):
                if v.get("hint_only"):
                    continue
                sub = self.codec(v["codec"])
                cls = sub.ir
                when = v.get("when")
                media = v.get("media")
                conditions = [f"t is ir.{cls}"]
                if when:  # one IR field, or a list: any of them holds a value ("url s3://": one starting so)
                    conditions.append(self._when_expr(when))
                if media:
                    conditions.append(f"tw.media_in(node.media_type, {py(tuple(media))})")
                if len(conditions) == 1 and cls in seen_classes:
                    continue
                L.append(f"if {' and '.join(conditions)}:")
                seen_classes.append(cls)
                L.extend(self._variant_return(v, "    "))
            if "ToolDefinition" in seen_classes:
                L.append("if t is ir.ProviderTool:")
                L.append("    return tw.provider_tool_render(node, PROVIDER, path, ctx)")
            elif "OpaquePart" not in seen_classes:
                L.append("if t is ir.OpaquePart:")
                L.append("    return tw.opaque_render(node, PROVIDER, path, ctx)")
            if any(v.get("media") for v in variants):
                L.append(f"ctx.lose(path, f'{{ctx.provider}} cannot express {{tw.media_what(node)}} here; dropped')")
            else:
                L.append(f"ctx.lose(path, f'{{ctx.provider}} cannot express {{t.__name__}} here; dropped')")
            L.append("return None")
        self.fn(f"_{c.name}_from_ir", f"{c.doc or c.name} (IR → wire).", L)

    def _when_expr(self, when, node: str = "node") -> str:
        """The render test of a union variant's `when`: one condition, or a list of which any holds."""
        whens = [when] if isinstance(when, (str, dict)) else list(when)
        tests = []
        for w in whens:
            if isinstance(w, dict) and "all" in w:  # {all: [...]}: every condition holds
                every = [self._when_test(x, node) for x in w["all"]]
                tests.append(" and ".join(every) if len(whens) == 1 else f"({' and '.join(every)})")
            else:
                tests.append(self._when_test(w, node))
        test = " or ".join(tests)
        return f"({test})" if len(tests) > 1 else test

    def _when_test(self, w, node: str = "node") -> str:
        """The render test of one `when` condition of a union variant."""
        if isinstance(w, dict):  # {field, hint: {wire key: value}}: a value the same-provider input spelled so
            (key, value), = w["hint"].items()
            return f"({node}.{w['field']} is not None and tw.hint_of({node}, PROVIDER, {py(key)}) == {py(value)})"
        name, *prefixes = w.split()
        if not prefixes:
            return f"{node}.{name} is not None"
        # "url s3://": the field starts so; "url !s3:// !gs://": it holds a value that starts otherwise
        tests = [f"tw.starts_with({node}.{name}, {py(p)})" for p in prefixes if not p.startswith("!")]
        excluded = tuple(p[1:] for p in prefixes if p.startswith("!"))
        if excluded:
            tests.append(f"tw.starts_with_none({node}.{name}, {py(excluded)})")
        return f"({' and '.join(tests)})" if len(tests) > 1 else tests[0]

    # --- enums -------------------------------------------------------------------------------------

    def _inline_tags(self, element: Codec) -> set:
        """The tags of the content-part unions inside the element's whole-message variants (same tag
        key): an OpaquePart with one of them came from inside a message, not from an item list."""
        tags: set = set()
        for v in element.variants:
            if v.get("part_of"):
                continue
            for rule in getattr(self.codec(v["codec"]), "rules", []):
                sub = self.p.codecs.get(rule.codec or "")
                if sub is not None and sub.kind == "union" and sub.tag == element.tag:
                    tags |= {w["tag"] for w in sub.variants} | {str(o) for o in sub.opaque}
        return tags

    def _enum_not_injective(self, c: Codec) -> bool:
        return any(c.render_table.get(ir_v) != wire_v for wire_v, ir_v in c.parse_table.items())

    def _enum(self, c: Codec) -> None:
        n = var(c.name).upper()
        self.const(f"_{n}_PARSE = {py(c.parse_table)}")
        self.const(f"_{n}_RENDER = {py(c.render_table)}")
        self.fn(
            f"_{c.name}_to_ir", f"enum_map: {c.what} (wire → IR).",
            [f"return tw.enum_parse(_{n}_PARSE, obj, path, {py(c.what)})"],
        )
        render = [f"return tw.enum_render(_{n}_RENDER, node, path, {py(c.what)}, ctx)"]
        for k, e in reversed(list(enumerate(c.for_models))):  # the table for some target models, reported where it differs
            self.const(f"_{n}_RENDER_{k + 1} = {py({**c.render_table, **e['render']})}")
            render[:0] = [
                f"# {_note(e)}",
                f"if tw.for_model(ctx, {_models(e)}):",
                f"    wire = tw.enum_render(_{n}_RENDER_{k + 1}, node, path, {py(c.what)}, ctx)",
                f"    if wire != _{n}_RENDER.get(node):",
                f"        tw.model_report(ctx, path, {py(e['why'])}, {py(e['report'])})",
                "    return wire",
            ]
        if c.approximate:
            self.const(f"_{n}_APPROXIMATE = frozenset({py(sorted(c.approximate))})")
            render.insert(0, f"if node in _{n}_APPROXIMATE:")
            render.insert(1, f"    tw.enum_approximate(_{n}_RENDER, node, path, {py(c.what)}, ctx)")
        self.fn(f"_{c.name}_from_ir", f"enum_map: {c.what} (IR → wire).", render)

    # --- conversations -------------------------------------------------------------------------

    def _conversation(self, c: Codec) -> None:
        element = self.codec(c.element)
        group = py(sorted(c.group))
        self.const(f"_GROUP_{var(c.name).upper()} = frozenset({group})")
        L = ["messages = []"]
        if c.hoist:
            L.extend(self._hoist_parse(c))
        L.append("if items is None:")
        L.append("    raise tw.missing(path)")
        if c.string_as:  # a bare string is one message holding that text; it goes back as a string
            L.append("if type(items) is str:")
            L.append(f"    messages.append(ir.Message(role={py(c.string_as)}, parts=[ir.TextPart(text=items)]))")
            L.append("    tw.set_hint(messages[-1], PROVIDER, '$string', True)")
            L.append("    items = []")
        L.append("for i, item in enumerate(tw.expect_list(items, path)):")
        whole = [v["tag"] for v in element.variants if not v.get("part_of")] if element.kind == "union" and not element.tag_by_key else []
        split = bool(c.group) and whole and len(whole) < len(element.variants)
        if not c.hoist and not c.group:
            L.append(f"    messages.append(_{element.name}_to_ir(item, (path, i), ctx))")
        else:
            L.append(f"    msg = _{element.name}_to_ir(item, (path, i), ctx)")
            if c.hoist:  # a system message the list itself held stays in the list for this provider
                L.append("    if msg.role == 'system':")
                L.append("        tw.set_hint(msg, PROVIDER, '$inline', True)")
            if split:  # consecutive whole message items of a grouped role stay separate items for this provider
                self.const(f"_WHOLE_{var(c.name).upper()} = frozenset({py(sorted(whole))})")
                default = py(element.tag_default) if element.tag_default else "None"
                L.append(f"    whole = type(item) is dict and type(tag := item.get({py(element.tag)}, {default})) is str and tag in _WHOLE_{var(c.name).upper()}")
                L.append(f"    if whole and i and prev_whole and msg.role in _GROUP_{var(c.name).upper()} and messages[-1].role == msg.role:")
                L.append("        tw.set_hint(msg, PROVIDER, '$turn', 'new')")
                L.append("    prev_whole = whole")
            L.append("    messages.append(msg)")
        L.extend(self._last_turn_parse(c))
        stray = ", stray_results=True" if c.stray_results else ""  # results of server-side calls are kept
        if self._answers(c):  # results that repeat their call pair with it (and restore it when the list lacks it)
            stray += ", answered=PROVIDER"
        if c.merge:  # separate wire turns of one role stay separate for this provider
            L.append(f"return layout.normalize(messages, ctx, _GROUP_{var(c.name).upper()}, PROVIDER, {py(dict(c.role_map))}{stray})")
        else:
            L.append(f"return layout.normalize(messages, ctx, _GROUP_{var(c.name).upper()}{stray})")
        top = ", top: Any" if c.last_turn else ""  # the object holding the list: the final turn's keys are its keys
        self.module.functions.append(Function(f"_{c.name}_to_ir", f"{c.doc or c.name} (wire → IR messages).", L, f"items: Any, hoisted: Any, path: Any, ctx: Context{top}"))
        self._conversation_render(c, element)

    def _answers(self, c: Codec) -> bool:
        """Does a codec reachable from this conversation read a result's answered call (`computed`)?"""
        seen, todo = set(), [c.element, *(r.codec or r.list_of for r in c.side_rules())]
        while todo:
            name = todo.pop()
            if not name or name in seen or name not in self.p.codecs:
                continue
            seen.add(name)
            sub = self.codec(name)
            if any(r.computed for r in sub.rules):
                return True
            todo += [r.codec or r.list_of for r in sub.rules] + [v["codec"] for v in sub.variants]
        return False

    def _last_turn_parse(self, c: Codec) -> list[str]:
        """The final turn's keys, beside the list in the object holding it (``top``): each a message
        of its role after the list's messages, when it holds anything."""
        L: list[str] = []
        for role, rule, required in c.last_turn:
            key = py(str(rule.wire))
            kp = f"((path[0], {key}) if type(path) is tuple else {key})"
            L.append(f"value = top.get({key})")
            if required:
                L.append("if value is None:")
                L.append(f"    raise tw.missing({kp})")
            else:
                L.append("if value is not None:")
            ind = "" if required else "    "
            if rule.list_of:
                L.append(f"{ind}parts = [_{rule.list_of}_to_ir(item, ({kp}, i), ctx) for i, item in enumerate(tw.expect_list(value, {kp}))]")
                L.append(f"{ind}if parts:")
                L.append(f"{ind}    messages.append(ir.Message(role={py(role)}, parts=parts))")
            elif rule.transform:
                call = self._fill(self.spec.transforms[rule.transform].parse, rule, value="value", path=kp)
                L.append(f"{ind}parts, hint = {call}")
                L.append(f"{ind}if parts:  # an empty key beside the others is no turn (it renders as empty again)")
                L.append(f"{ind}    messages.append(ir.Message(role={py(role)}, parts=parts))")
                L.append(f"{ind}    if hint is not None:")
                L.append(f"{ind}        tw.set_hint(messages[-1], PROVIDER, '$last', hint)")
            else:
                L.append(f"{ind}msg = _{rule.codec}_to_ir(value, {kp}, ctx)")
                L.append(f"{ind}msg.role = {py(role)}")
                L.append(f"{ind}if msg.parts:")
                L.append(f"{ind}    messages.append(msg)")
        return L

    def _last_turn_render(self, c: Codec) -> list[str]:
        """The final turn into its keys (``last``); the other messages stay for the list."""
        roles = tuple(role for role, _rule, _required in c.last_turn)
        L = [f"taken, messages = layout.take_last_turn(messages, {py(roles)}, PROVIDER)", "last = {}"]
        for k, (role, rule, required) in enumerate(c.last_turn):
            key = py(str(rule.wire))
            L.append(f"if taken[{k}] is not None:")
            L.append(f"    i, msg = taken[{k}]")
            if rule.list_of:
                L.append(f"    last[{key}] = [_{rule.list_of}_from_ir(part, ((path, i), j), ctx) for j, part in enumerate(msg.parts)]")
            elif rule.transform:
                hint = "tw.hint_of(msg, PROVIDER, '$last')"
                call = self._fill(self.spec.transforms[rule.transform].render, rule, path="(path, i)", irs=["msg.parts"], hint=hint)
                L.append(f"    last[{key}] = {call}")
            else:
                L.append(f"    last[{key}] = _{rule.codec}_from_ir(msg, (path, i), ctx)")
            if rule.list_of or rule.transform:  # (its parts only: what the turn carries besides them has no place)
                L.append("    tw.message_unplaced(msg, (path, i), ctx)")
            if required:  # the key is always sent: with no such turn, as what no parts render as
                L.append("else:")
                if rule.list_of:
                    L.append(f"    last[{key}] = []")
                elif rule.transform:
                    call = self._fill(self.spec.transforms[rule.transform].render, rule, path=f"(path, {key})", irs=["[]"], hint="None")
                    L.append(f"    last[{key}] = {call}")
                else:
                    L.append(f"    last[{key}] = _{rule.codec}_from_ir(ir.Message(role={py(role)}, parts=[]), (path, {key}), ctx)")
        return L

    def _hoist_rule(self, c: Codec) -> Rule:
        """The hoisted system field seen as a field rule filling a system message's parts."""
        h = c.hoist
        return Rule(node=None, wire=str(h["wire"]), ir=["parts"], codec=h["codec"], args=dict(h.get("args") or {}))

    def _hoist_parse(self, c: Codec) -> list[str]:
        h = c.hoist
        wire = str(h["wire"])
        sub = self.codec(h["codec"])
        L = ["if hoisted is not None:"]
        hp = f"((path[0], {py(wire)}) if type(path) is tuple else {py(wire)})"
        if h.get("transform"):
            tr = self.spec.transforms[h["transform"]]
            call = self._fill(tr.parse, self._hoist_rule(c), value="hoisted", path=hp)
            L.append(f"    parts, hint = {call}")
            L.append("    system = ir.Message(role='system', parts=parts)")
            L.append("    if hint is not None:")
            L.append("        system.provider_data = ir.ProviderData(provider=PROVIDER, hints={'$hoist': hint})")
        else:
            L.append(f"    system = _{sub.name}_to_ir(hoisted, {hp}, ctx)")
            L.append("    system.role = 'system'")
        L.append("    messages.append(system)")
        return L

    def _hoist_and_passes(self, c: Codec, h: dict | None, passes: list) -> list[str]:
        """The system prompt taken out of the list (`hoist`), then the structure passes."""
        L: list[str] = []
        if h:
            text_only = ", text_only=True" if h.get("text_only") else ""  # the field is one string
            L.append("listed = messages")
            L.append(f"system, messages = layout.hoist_system(messages, ctx, PROVIDER{text_only})")
            L.append("hoisted = None")
            L.append("if system:")
            sub = self.codec(h["codec"])
            L.append("    first = system[0]")
            L.append("    parts = [p for m in system for p in m.parts]")
            if h.get("transform"):
                tr = self.spec.transforms[h["transform"]]
                hint = "(first.provider_data.hints or {}).get('$hoist') if first.provider_data is not None and first.provider_data.provider == PROVIDER else None"
                rule = Rule(node=None, wire=str(h["wire"]), ir=["parts"], codec=h["codec"], args=dict(h.get("args") or {}))
                call = self._fill(tr.render, rule, path="(path, 0)", irs=["parts"], hint=f"({hint})")
                L.append(f"    hoisted = {call}")
                unplaced = "system"  # (the field holds the parts: no message's own fields)
            else:
                L.append("    merged = first if len(system) == 1 else ir.Message(role='system', parts=parts, provider_data=first.provider_data)")
                L.append(f"    hoisted = _{sub.name}_from_ir(merged, (path, 0), ctx)")
                unplaced = "system[1:]"  # (the first one's fields go with the merged message)
            L.append(f"    for m in {unplaced}:  # what a hoisted message carries besides its parts")
            L.append("        tw.message_unplaced(m, (path, listed.index(m)), ctx)")
        else:
            L.append("hoisted = None")
        for entry in passes:  # structure transforms declared in the vocabulary, in spec order
            tr = self.spec.transforms[entry["transform"]]
            subs = {"messages": "messages", "path": "path", **{k: py(v) for k, v in entry["args"].items()}}
            L.append(f"messages = {tr.render.format(**subs)}")
        return L

    def _conversation_render(self, c: Codec, element: Codec) -> None:
        # a message made only of another provider's opaque parts would be sent empty: it goes, reported
        L = ["messages = layout.drop_foreign_only(messages, PROVIDER, path, ctx)"]
        if c.require_answers and not (c.merge or "assistant" in c.group):  # consecutive call turns become one message
            L.append("messages = layout.join_call_turns(messages)")
        if c.require_answers:
            # consecutive assistant messages are one turn where they are grouped or merged
            joined = ", frozenset({'assistant'})" if "assistant" in c.group or c.merge else ""
            stray = ", stray_results=True" if c.stray_results else ""
            L.append(f"layout.check_answers(messages, path, ctx{joined}{stray})")
        if c.drop_blank_text:  # after the check (its paths are the input's), before the hoist: a blank system message is no system prompt
            L.append("messages = layout.drop_blank_text(messages, path, ctx, PROVIDER)")
        # the system prompt's place and the passes: for some target models (for_models), then for the others
        for n, e in enumerate(c.for_models):
            L.append(f"# {_note(e)}")
            L.append(f"{'if' if n == 0 else 'elif'} tw.for_model(ctx, {_models(e)}):")
            hoist = e["hoist"] if "hoist" in e else c.hoist
            passes = e["passes"] if "passes" in e else c.passes
            L.extend("    " + line for line in self._hoist_and_passes(c, hoist, passes))
        if c.for_models:
            L.append("else:")
            L.extend("    " + line for line in self._hoist_and_passes(c, c.hoist, c.passes))
        else:
            L.extend(self._hoist_and_passes(c, c.hoist, c.passes))
        if c.reorder_results:
            L.append("messages = layout.reorder_results(messages)")
        if c.role_map or c.merge:
            role_map = py(dict(c.role_map))
            if c.merge:
                L.append(f"messages = layout.merge_turns(messages, {role_map}, PROVIDER, path, ctx)")
            else:
                L.append(f"messages = layout.map_roles(messages, {role_map})")
        if c.drop_empty_text:
            L.append("messages = layout.drop_empty_text(messages)")
        if c.trim_prefill:
            L.append("messages = layout.trim_prefill(messages, path, ctx)")
        part_variants = [v for v in element.variants if v.get("part_of")] if element.kind == "union" else []
        L.append("if len(messages) == 1 and not messages[0].parts and tw.hint_of(messages[0], PROVIDER, '$no_items'):")
        L.append("    messages = []  # a response without output items (single_message) has none again")
        if c.last_turn:
            L.extend(self._last_turn_render(c))
        L.append("out = []")
        L.append("for i, msg in enumerate(messages):")
        if part_variants:
            by_role: dict[str, list[dict]] = {}
            for v in part_variants:
                by_role.setdefault(v["part_of"], []).append(v)
            for role, vs in by_role.items():
                opaque = element.unknown_part_of == role
                classes = ", ".join([f"ir.{self.codec(v['codec']).ir}" for v in vs] + (["ir.OpaquePart"] if opaque else []))
                L.append(f"    if msg.role == {py(role)}:")
                inline = self._inline_tags(element) if opaque else ()
                if inline:  # an opaque content part (a refusal) stays inside its message item
                    self.const(f"_INLINE_{var(c.name).upper()} = frozenset({py(sorted(inline))})  # tags of content parts, not items")
                    L.append(f"        for standalone, item in layout.runs(msg.parts, ({classes},), _INLINE_{var(c.name).upper()}, {py(element.tag)}):")
                else:
                    L.append(f"        for standalone, item in layout.runs(msg.parts, ({classes},)):")
                L[-1:-1] = ["        inline = False  # (the message's own fields go on an item of its inline parts)"]
                L.append("            if standalone:")
                first = True
                for v in vs:
                    sub = self.codec(v["codec"])
                    kw = "if" if first else "elif"
                    test = f"type(item) is ir.{sub.ir}"
                    if v.get("when"):  # e.g. a reasoning item only with the id that names it on the provider's side
                        test += f" and ({self._when_expr(v['when'], 'item')})"
                    L.append(f"                {kw} {test}:")
                    L.append(f"                    out.append(_{sub.name}_from_ir(item, (path, i), ctx))")
                    first = False
                if opaque:
                    L.append("                elif type(item) is ir.OpaquePart:")
                    L.append("                    rendered = tw.opaque_render(item, PROVIDER, (path, i), ctx)")
                    L.append("                    if rendered is not None:")
                    L.append("                        out.append(rendered)")
                if any(v.get("when") for v in vs):
                    L.append("                else:")
                    L.append("                    ctx.lose((path, i), f'{ctx.provider} cannot express {type(item).__name__} here; dropped')")
                L.append("            else:")
                L.append("                inline = True")
                L.append("                sub = ir.Message(role=msg.role, parts=item, name=msg.name, provider_data=msg.provider_data)")
                L.append(f"                rendered = _{element.name}_from_ir(sub, (path, i), ctx)")
                L.append("                if rendered is not None:")
                L.append("                    out.append(rendered)")
                L.append("        if not inline:  # every part an item of its own: nothing holds the message's fields")
                L.append("            tw.message_unplaced(msg, (path, i), ctx)")
                L.append("        continue")
        L.append(f"    rendered = _{element.name}_from_ir(msg, (path, i), ctx)")
        L.append("    if rendered is not None:")
        L.append("        out.append(rendered)")
        if c.string_as:
            L.append(f"if len(messages) == 1 and messages[0].role == {py(c.string_as)} and tw.hint_of(messages[0], PROVIDER, '$string'):")
            L.append("    parts = messages[0].parts")
            L.append("    if len(parts) == 1 and type(parts[0]) is ir.TextPart and parts[0].provider_data is None:")
            L.append("        out = parts[0].text  # the input's bare string")
        L.append("return out, hoisted, last" if c.last_turn else "return out, hoisted")
        self.module.functions.append(Function(f"_{c.name}_from_ir", f"{c.doc or c.name} (IR messages → wire).", L, "messages: list, path: Any, ctx: Context"))
