"""A provider's stream grammar (`stream:` in its spec) → validated model → decoder source code.

The grammar says, for every event the provider streams, what the event contributes to the
provider's own complete response body, in a closed vocabulary of actions (docs/spec-language.md,
"Streams"). `compile_grammar` checks it (every problem as file:line, all at once) and turns it into
the body of one straight-line function per provider, ``decode(st, name, e)``, whose statements call
the primitives of toolwire_runtime/streaming.py. No Python is written in the YAML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .loader import Errors, Located, plain

STREAM_KEYS = {"framing", "reason", "name", "end", "body", "events", "text", "calls", "doc"}
NAMINGS = {
    "type": "the payload's `type` (the SSE event line when the payload has none)",
    "key": "the payload's single top-level key, whose value is the payload (boto3's shape)",
    "none": "every event is a `chunk` (a `[DONE]` sentinel is named `[DONE]`)",
}
# action → what its value is; the statement it compiles to is in _Compiler.action
VALUE_ACTIONS = {
    "set": "the latest non-null value wins",
    "first": "the first non-empty value wins; repeats change nothing",
    "append": "a text fragment concatenated onto the string",
    "append_json": "a JSON text fragment, parsed once when the element closes",
    "merge": "an object folded in field by field, the latest value of each field winning",
    "push": "an item appended to the list",
    "extend": "the items of a list appended to the list",
    "append_parts": "a string fragment or a list of typed part fragments folded into a string or a list of parts",
}
ACTIONS = {*VALUE_ACTIONS, "const", "start", "block", "each", "close", "end", "error", "end_after"}
SCOPE_KEYS = {"list", "key", "in", "fallback", "new", "new_if_differs", "do", "close", "create", "doc"}
CONDITIONS = {"when", "has", "unless", "is"}
JSON_KINDS = {"string": "str", "list": "list", "object": "dict", "number": "(int, float)", "boolean": "bool"}
PATH_RE = re.compile(r"^(\.|[A-Za-z_$][\w$-]*(\.[\w$-]+)*)$")


@dataclass
class Grammar:
    naming: str
    end: tuple[str, ...]
    events: list[str]  # names, in spec order
    ignored: list[str]
    text: dict | None
    calls: dict | None
    code: str  # body of `def decode(st, name, e)`, indented 4
    body: dict | None = None  # the body before any event (defaults, key order)
    key: Any = None  # what makes two grammars the same (a flavour then imports its parent's decoder)


def _path(value: Any) -> tuple:
    if value == ".":
        return ()
    return tuple(int(p) if p.isdigit() else p for p in str(value).split("."))


class _Compiler:
    def __init__(self, where: str, errors: Errors) -> None:
        self.where = where
        self.errors = errors
        self.lines: list[str] = []
        self.depth = 0  # nesting of `each` loops / block scopes (variable suffixes)
        self.event = ""  # the name of the event whose actions are being compiled

    def out(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def check_path(self, node: Any, key: Any, value: Any, what: str) -> bool:
        if not isinstance(value, str) or not PATH_RE.match(value):
            self.errors.at(node, key, f"{self.where}: {what} must be a dotted path such as delta.text (or `.` for the value itself), got {value!r}")
            return False
        return True

    def src(self, prefix: str, value: Any) -> str:
        keys = _path(value)
        inner = ", ".join(repr(k) for k in keys)
        if prefix == "()":
            return f"({inner},)" if len(keys) == 1 else f"({inner})"
        return f"(*{prefix}, {inner})" if keys else prefix

    def get(self, e: str, value: Any) -> str:
        keys = _path(value)
        if not keys:
            return e
        return f"get({e}, {keys!r})"

    def actions(self, items: Any, node: Any, key: Any, indent: int, e: str, b: str, p: str) -> None:
        if items is None:
            items = []
        if not isinstance(items, list):
            self.errors.at(node, key, f"{self.where}: expected a list of actions, got {type(items).__name__}")
            return
        if not items:
            self.out(indent, "pass")
            return
        for item in items:
            self.action(item, node, key, indent, e, b, p)

    def condition(self, item: Located, e: str) -> str | None:
        tests = []
        for cond in CONDITIONS & set(item):
            spec = item[cond]
            if cond == "is":
                if not isinstance(spec, dict) or not spec or not all(v in JSON_KINDS for v in spec.values()):
                    self.errors.at(item, cond, f"{self.where}: `is` maps event paths to a JSON kind: {', '.join(JSON_KINDS)}")
                    continue
                for path, kind in spec.items():
                    if self.check_path(item, cond, path, "an `is` key"):
                        tests.append(f"isinstance({self.get(e, path)}, {JSON_KINDS[kind]})")
                continue
            if cond == "has" or cond == "unless":
                paths = spec if isinstance(spec, list) else [spec]
                for path in paths:
                    if self.check_path(item, cond, path, f"`{cond}`"):
                        tests.append(f"{self.get(e, path)} is {'not ' if cond == 'has' else ''}None")
                continue
            if not isinstance(spec, dict) or not spec:
                self.errors.at(item, cond, f"{self.where}: `when` must map event paths to the value (or list of values) they must have")
                continue
            for path, want in spec.items():
                if self.check_path(item, cond, path, "a `when` key"):
                    if isinstance(want, list):
                        tests.append(f"{self.get(e, path)} in {tuple(plain(want))!r}")
                    else:
                        tests.append(f"{self.get(e, path)} == {plain(want)!r}")
        return " and ".join(tests) if tests else None

    def action(self, item: Any, node: Any, key: Any, indent: int, e: str, b: str, p: str) -> None:
        if item == "end":
            self.out(indent, "st.end()")
            return
        if item == "close":
            self.out(indent, f"st.close({b})")
            return
        if not isinstance(item, Located):
            self.errors.at(node, key, f"{self.where}: an action is a mapping {{action: ...}} or `end` / `close`; got {item!r}")
            return
        names = [k for k in item if k in ACTIONS]
        unknown = [k for k in item if k not in ACTIONS and k not in CONDITIONS and k != "doc"]
        for k in unknown:
            self.errors.at(item, k, f"{self.where}: unknown action {k!r}; expected one of {', '.join(sorted(ACTIONS))} (with an optional `when` / `has` / `unless`)")
        if len(names) != 1:
            if not unknown:
                self.errors.at(item, None, f"{self.where}: an action item needs exactly one action, got {names or 'none'}")
            return
        name = names[0]
        value = item[name]
        test = self.condition(item, e)
        if test:
            self.out(indent, f"if {test}:")
            indent += 1
        if name in VALUE_ACTIONS or name == "const":
            if not isinstance(value, dict) or not value:
                self.errors.at(item, name, f"{self.where}: `{name}` maps body paths to {'values' if name == 'const' else 'event paths'} ({VALUE_ACTIONS.get(name, 'a value the body always has')})")
                return
            for target, source in value.items():
                if not self.check_path(item, name, target, f"`{name}` body path"):
                    continue
                tkeys = _path(target)
                if name == "const":
                    self.out(indent, f"st.const({b}, {tkeys!r}, {plain(source)!r})")
                    continue
                if not self.check_path(item, name, source, f"`{name}` event path"):
                    continue
                if name in ("set", "first", "push", "extend"):
                    self.out(indent, f"st.{name}({b}, {tkeys!r}, {self.get(e, source)})")
                else:
                    self.out(indent, f"st.{name}({b}, {tkeys!r}, {self.get(e, source)}, {self.src(p, source)})")
        elif name == "start":
            if self.check_path(item, name, value, "`start`"):
                self.out(indent, f"st.start({self.get(e, value)}, {self.src(p, value)})")
        elif name == "end":
            self.out(indent, "st.end()")
        elif name == "close":
            self.out(indent, f"st.close({b})")
        elif name == "error":
            if not isinstance(value, dict) or "message" not in value:
                self.errors.at(item, name, f"{self.where}: `error` needs {{message: PATH, type: PATH}} (where the provider's error says what went wrong)")
                return
            # without `type`, the error's type is the event's own name (Bedrock's throttlingException, ...)
            etype = self.get(e, value["type"]) if "type" in value and self.check_path(item, name, value["type"], "error type") else repr(self.event)
            if self.check_path(item, name, value["message"], "error message"):
                self.out(indent, f"st.provider_error({etype}, {self.get(e, value['message'])})")
        elif name == "end_after":
            self.end_after(value, item, indent)
        else:
            self.scope(name, value, item, indent, e, b, p)

    # -- additions (wip-stream-bedrock) ------------------------------------------------------------
    def end_after(self, value: Any, item: Located, indent: int) -> None:
        """`end_after: [names]`: this event is one of several that together end the stream; the stream
        is complete once every named event has come, in any order (Bedrock: messageStop and metadata)."""
        names = plain(value)
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names) or self.event not in names:
            self.errors.at(item, "end_after", f"{self.where}: `end_after` lists the event names that together end the stream, this one ({self.event!r}) among them")
            return
        self.out(indent, f"st.end_after({self.event!r}, {tuple(names)!r})")

    def scope(self, name: str, spec: Any, item: Located, indent: int, e: str, b: str, p: str) -> None:
        if not isinstance(spec, Located):
            self.errors.at(item, name, f"{self.where}: `{name}` needs a mapping {{list, key, ...}}")
            return
        for k in spec:
            if k not in SCOPE_KEYS:
                self.errors.at(spec, k, f"{self.where}: `{name}` has unknown key {k!r}; expected one of {', '.join(sorted(SCOPE_KEYS))}")
        if "list" not in spec or "key" not in spec:
            self.errors.at(spec, None, f"{self.where}: `{name}` needs `list` (the body list its elements go to) and `key` (the event path that keys them, `new` for always a new element, or `last` for the element opened last)")
            return
        if name == "each" and "in" not in spec:
            self.errors.at(spec, None, f"{self.where}: `each` needs `in` (the event list to go through)")
            return
        if name == "block" and "in" in spec:
            self.errors.at(spec, "in", f"{self.where}: `in` belongs to `each`; a `block` is one element keyed by the event itself")
        self.depth += 1
        d = self.depth
        if not self.check_path(spec, "list", spec["list"], "`list`"):
            return
        list_keys = _path(spec["list"])
        if name == "each":
            if not self.check_path(spec, "in", spec["in"], "`in`"):
                return
            self.out(indent, f"for i{d}, e{d} in st.items({self.get(e, spec['in'])}, {self.src(p, spec['in'])}):")
            indent += 1
            inner = ", ".join(repr(k) for k in _path(spec["in"]))
            self.out(indent, f"p{d} = ({inner}, i{d})" if p == "()" else f"p{d} = (*{p}, {inner}, i{d})")
            e, p = f"e{d}", f"p{d}"
        new = spec.get("new")
        if isinstance(new, dict):  # a literal template: the element's defaults and key order
            new_expr = repr(plain(new))
        else:
            new_expr = "None" if new is None else self.get(e, new) if self.check_path(spec, "new", new, "`new` (an event path, or a literal mapping)") else "None"
        create = bool(spec.get("create", new is not None or name == "each"))
        key = spec["key"]
        fallback = spec.get("fallback")
        fb = self.get(e, fallback) if fallback is not None and self.check_path(spec, "fallback", fallback, "`fallback`") else "None"
        differs = spec.get("new_if_differs")
        new_if = "None"
        if differs is not None and self.check_path(spec, "new_if_differs", differs, "`new_if_differs`"):
            new_if = f"st.differs({self.get(e, differs)}, {_path(differs)!r})"
        if key == "new":
            self.out(indent, f"b{d} = st.fresh({b}, {list_keys!r}, {new_expr})")
        elif key == "last":
            self.out(indent, f"b{d} = st.element({b}, {list_keys!r}, None, {new_expr}, (), create={create})")
        elif self.check_path(spec, "key", key, "`key`"):
            extra = (f", fallback={fb}" if fb != "None" else "") + (f", new_if={new_if}" if new_if != "None" else "")
            self.out(indent, f"b{d} = st.element({b}, {list_keys!r}, {self.get(e, key)}, {new_expr}, {self.src(p, key)}, create={create}{extra})")
        else:
            return
        if spec.get("do"):
            self.actions(spec["do"], spec, "do", indent, e, f"b{d}", p)
        if spec.get("close"):
            self.out(indent, f"st.close(b{d})")


def compile_grammar(provider: str, stream: Located, errors: Errors) -> Grammar | None:
    """The provider's `stream:` grammar checked and compiled, or None when it declares no events."""
    events = stream.get("events")
    if events is None:
        return None
    where = f"provider {provider!r} stream"
    naming = stream.get("name", "type")
    if naming not in NAMINGS:
        errors.at(stream, "name", f"{where}: name must be one of {', '.join(f'{k} ({v})' for k, v in NAMINGS.items())}; got {naming!r}")
    end = stream.get("end", [])
    if not isinstance(end, list) or not all(isinstance(x, str) for x in end):
        errors.at(stream, "end", f"{where}: end must be a list of the event names that end a complete stream")
        end = []
    if not isinstance(events, Located) or not events:
        errors.at(stream, "events", f"{where}: events must map each event name to its actions")
        return None
    for name in end:
        if name not in events:
            errors.at(stream, "end", f"{where}: end names {name!r}, which is not one of its events ({', '.join(events)})")
    view = {}
    for which in ("text", "calls"):
        spec = stream.get(which)
        if spec is None:
            continue
        if which == "text" and isinstance(spec, str):
            view[which] = {"path": list(_path(spec))}
            continue
        need = {"text": {"list", "field"}, "calls": {"list", "id", "name", "arguments"}}[which]
        # `has` / `unless` (a path the element has / lacks) pick elements told apart by a key rather than a value
        if not isinstance(spec, dict) or not need <= set(spec) or not set(spec) <= need | {"when", "has", "unless"}:
            errors.at(stream, which, f"{where}: {which} must be {{{', '.join(sorted(need))}, when?, has?, unless?}} (where the partial {which} are in the body)")
            continue
        view[which] = {k: (list(_path(v)) if k != "when" else {str(a): plain(b) for a, b in v.items()}) for k, v in spec.items()}
    body = stream.get("body")
    if body is not None and not isinstance(body, dict):
        errors.at(stream, "body", f"{where}: body must be a mapping (the body before any event: defaults and key order)")
        body = None
    comp = _Compiler(where, errors)
    ignored = []
    first = True
    for name, items in events.items():
        if items == [] or items is None:
            ignored.append(str(name))
            continue
        comp.out(1, f"{'if' if first else 'elif'} name == {str(name)!r}:")
        first = False
        comp.depth = 0
        comp.event = str(name)
        comp.actions(items, events, name, 2, "e", "st.body", "()")
    if ignored:
        comp.out(1, f"{'if' if first else 'elif'} name in {tuple(ignored)!r}:")
        comp.out(2, "pass")
        first = False
    if first:
        comp.out(1, "st.unknown(name)")
    else:
        comp.out(1, "else:")
        comp.out(2, "st.unknown(name)")
    code = "\n".join(comp.lines)
    grammar = Grammar(naming=str(naming), end=tuple(end), events=[str(n) for n in events], ignored=ignored,
                      text=view.get("text"), calls=view.get("calls"), code=code, body=plain(body) if body else None)
    grammar.key = (grammar.naming, grammar.end, code, repr(grammar.text), repr(grammar.calls), repr(grammar.body))
    return grammar
