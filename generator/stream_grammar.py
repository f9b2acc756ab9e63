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

ABSENT = "$absent"  # a template's value for a key the element lacks until a rule sets it (its place in the key order)
STREAM_KEYS = {"framing", "reason", "name", "end", "body", "templates", "events", "text", "calls", "counter", "begin", "no_translation_to", "doc", "ignore", "unfinished", "says_once", "says_at_end", "restates_start", "always_has", "ends_together", "says_every_event", "says_at_every_place"}
NAMINGS = {
    "type": "the payload's `type` (the SSE event line when the payload has none)",
    "key": "the payload's single top-level key, whose value is the payload (boto3's shape)",
    "none": "every event is a `chunk` (a `[DONE]` sentinel is named `[DONE]`)",
    # added for Cohere v1 (NDJSON, no event line; StreamedChatResponse is tagged by event_type)
    "event_type": "the payload's `event_type`",
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
    # -- added for the OpenAI Responses / Cohere v1 grammars (terminal snapshots) --
    "overlay": "an object folded in field by field like merge, but a null or absent field keeps what the body has",
    "append_parts": "a string fragment or a list of typed part fragments folded into a string or a list of parts",
}
ACTIONS = {*VALUE_ACTIONS, "const", "start", "block", "each", "close", "end", "error", "tag", "end_after", "ignore"}
SCOPE_KEYS = {"list", "key", "in", "fallback", "new", "new_if_differs", "do", "close", "create", "doc"}
CONDITIONS = {"when", "has", "unless", "is"}
# -- additions for Gemini streams (put_paths, `not`, `continue_if`, `each` without an element,
#    `default_key`, end conditions on a body path, `has` in the calls/text view); the methods are
#    in the "additions for Gemini streams" block at the end of _Compiler.
VALUE_ACTIONS["put_paths"] = "a list of {jsonPath, stringValue|numberValue|boolValue|nullValue} values put into the object by JSON path, a string continuing the string already there"
ACTIONS.add("put_paths")
SCOPE_KEYS.add("continue_if")
SCOPE_KEYS.add("default_key")
CONDITIONS.add("not")
CONTINUE_IF_KEYS = {"has", "unless", "same"}
# -- `names` (Responses' item_id): the event also names its element by one of the element's fields;
#    the decoder keys by `key` and needs nothing more, the encoder writes the element's value there.
SCOPE_KEYS.add("names")
# -- `kind` (Responses' mcp_call vs function_call arguments): the elements the event addresses have
#    these field values; the encoder picks, of the events that append to a field, the one whose
#    kind (or `new` template) matches the element. The decoder keys by `key` and needs nothing more.
SCOPE_KEYS.add("kind")
# -- `done` (Responses' output_text.done, content_part.done, function_call_arguments.done): the event
#    restates its element's complete value as the element ends. The decoder reads it as any event;
#    the encoder sends it when the element ends (before its closing event, or when the next element
#    of its list opens), the events with a `kind` first, each only for elements of its kind.
SCOPE_KEYS.add("done")
# -- `opens_with` (Responses' output_item.added: an item is in_progress until its output_item.done):
#    the values an element the event creates says while it is open, in place of its own (where it
#    has the key); the event that ends it says its own. The decoder takes the event's values as they
#    are; the encoder writes them when it makes the element from another provider's response (a
#    stream of its own grammar says what its source said).
SCOPE_KEYS.add("opens_with")
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
    constants: list = field(default_factory=list)  # (name, Python literal) of the module constants `code` uses (element templates)
    body: dict | None = None  # the body before any event (defaults, key order)
    counter: tuple | None = None  # event path of a running event number the encoder writes (sequence_number)
    begin: str | None = None  # the event a stream opens with when no `start` action says so (Bedrock's messageStart)
    no_translation_to: str | None = None  # why streams are not yet translated into this provider (None: they are)
    rules: dict = field(default_factory=dict)  # the events' actions as data, for the encoder
    key: Any = None  # what makes two grammars the same (a flavour then imports its parent's decoder)
    reads: dict = field(default_factory=dict)  # per event name, what the decoder reads of it (read_tree)
    # per event name, what the grammar knows of it (read_tree): what the decoder reads, the objects
    # a `tag` names, and what `ignore` says carries nothing; anything else an event holds is reported
    known: dict = field(default_factory=dict)
    # per event name, the keys of the event that only a `set` of the body's own key reads, with no
    # condition, outside any scope (Ollama's created_at, Gemini's usageMetadata): event key → body key
    sets: dict = field(default_factory=dict)
    # (body path, value) the body converts with while the stream has not reached its end (a value the
    # complete response requires and only the end sets: Cohere's finish_reason, Ollama's done), with
    # the IR fields that value converts to, which stay unset (spec.py resolves them: `irs`)
    unfinished: tuple = ()
    # body paths the stream says at its start and never changes after (Responses' id: the openai SDK
    # refuses a response.completed whose id is not response.created's): the encoder keeps what the
    # client got, and reports a later value
    says_once: tuple = ()
    # body paths only the stream's end says (Anthropic's stop_reason, in message_delta): its start
    # event says the stream body's value there (Responses' status in_progress), else null, as the
    # API's message_start does (an SDK takes each message_delta's as final)
    says_at_end: tuple = ()
    # body paths every event of the API says, as the body has them then (Ollama's model and
    # created_at, Gemini's modelVersion, responseId and running usageMetadata), each set by a `set`
    # rule of the event itself: a translation says them on every event once the body has them
    says_every_event: tuple = ()
    # body paths an event's rules read from more than one place that a translation says at each
    # (Groq's usage: `usage` and `x_groq.usage` on its last chunk), not only at the first rule's
    says_at_every_place: tuple = ()
    # events the API sends right after its start event, each with the body the start said (Responses'
    # response.in_progress): a translation sends them there too
    restates_start: tuple = ()
    # (event path, value) of what every event of the API has, empty where the event says nothing
    # there (Ollama's message.content "", Gemini's candidate parts [{text: ""}]): a translated event
    # without it says that value, which adds nothing to the body (an SDK's `chunk.text` is then "",
    # not None)
    always_has: tuple = ()
    # the API's last event says the elements' end and the body's last fields at once (Mistral's and
    # Gemini's final chunk: the finish reason with the usage): a translation says them in one event
    ends_together: bool = False


def read_tree(reads: list) -> Any:
    """What a decoder reads of one event, as a tree: ``True`` (the value whole), a dict (these keys,
    each as its node says; any other key is never read) or ``[node]`` (a list whose items are read
    as ``node`` says). A path through a list position (``candidates.0``) reads that list whole; a
    `tag` (the same on every such event) counts as read.
    The accumulator's repeat path compares two events on what is read only
    (toolwire_runtime/streaming.py ``_repeat_of``: an `obfuscation` padding that differs on every
    event is not compared)."""

    def insert(node: Any, path: tuple, kind: str) -> Any:
        if node is True:
            return True
        if not path:
            if kind == "whole":
                return True
            if kind == "object":  # (an object a `tag` names: its keys are what the other reads say)
                return {} if node is None else node
            return node if isinstance(node, list) else [None] if node is None else True
        head, rest = path[0], path[1:]
        if head == "*":
            if node is None:
                node = [None]
            if not isinstance(node, list):
                return True  # (read as an object and as a list: whole)
            node[0] = insert(node[0], rest, kind)
            return node
        if node is None:
            node = {}
        if not isinstance(node, dict):
            return True
        node[head] = insert(node.get(head), rest, kind)
        return node

    def settle(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: settle(v) for k, v in sorted(node.items())}
        if isinstance(node, list):
            return True if node[0] is None else [settle(node[0])]  # (items nothing reads: kept whole)
        return node

    root: Any = {}
    for kind, path in reads:
        cut = next((i for i, k in enumerate(path) if isinstance(k, int)), None)
        if cut is not None:
            path, kind = path[:cut], "whole"
        root = insert(root, path, kind)
    return settle(root)


def _path(value: Any) -> tuple:
    if value == ".":
        return ()
    return tuple(int(p) if p.isdigit() else p for p in str(value).split("."))


def _paths_of(spec: Any) -> list:
    """The event paths of a `has` / `unless` condition (one path or a list of them)."""
    return [] if spec is None else spec if isinstance(spec, list) else [spec]


def _defaults(template: dict, at: tuple = ()) -> frozenset:
    """The paths of a template's non-empty values (``{index: 0, message: {role: assistant}}``:
    ``index``, ``message.role``): defaults, which a `first` rule of the event that creates the
    element replaces (an empty value, "" or null, is one a `first` rule sets anyway)."""
    out: set = set()
    for k, v in template.items():
        if isinstance(v, dict) and v:
            out |= _defaults(v, at + (k,))
        elif v not in (None, "", ABSENT) and not (isinstance(v, (dict, list)) and not v):
            out.add(at + (k,))
    return frozenset(out)


class _Compiler:
    def __init__(self, where: str, errors: Errors, templates: dict | None = None) -> None:
        self.where = where
        self.templates = templates or {}
        # element variable (b1, b2...) → (its template's `$absent` keys, the constant of the template's
        # key order): a rule that sets such a key puts it where the template places it (StreamState.place)
        self.placing: dict[str, tuple] = {}
        # element variable → [its template's defaults (paths of non-empty values), the expression that
        # says the event being read created it, whether a `first` rule replaced a default]: a `first`
        # of the creating event sets what the template only defaults (StreamState.first, ``fresh``)
        self.defaults: dict[str, list] = {}
        self.action_lists: dict[str, Any] = {}  # `templates:` entries that are lists of actions ("@name" in an action list)
        self.splicing: set[str] = set()
        self.errors = errors
        self.lines: list[str] = []
        self.depth = 0  # nesting of `each` loops / block scopes (variable suffixes)
        self.event = ""  # the name of the event whose actions are being compiled
        # the body path of the grammar's calls list (`calls: {list: ...}`): an `extend` of whole calls
        # into it makes each an element of its own (StreamState.extend_elements)
        self.calls_list: tuple | None = None
        self.constants: list[tuple[str, str]] = []  # (name, repr) of the module-level constants the code uses
        self.scopes: dict[str, tuple] = {}  # event variable → (line where its scope begins, indent, {first key: variable})
        self.hoists = 0
        # what the decoder reads of each event (Grammar.reads): event variable → its path in the event
        # ("*" for the items of an `each` list), and per event name the (kind, path) of every read
        self.var_paths: dict[str, tuple] = {"e": ()}
        self.reads: dict[str, list] = {}
        self.known: dict[str, list] = {}  # (read, plus what `ignore` and a `tag`'s objects add)
        self.sets: dict[str, dict] = {}  # per event name, event key → body key of a plain top-level `set` (Grammar.sets)

    def read(self, e: str, keys: tuple, kind: str = "whole") -> None:
        """Note that the decoder reads the event at ``keys`` of variable ``e``: the value whole, or
        (``list``) the items of a list, each item as the scope inside reads it."""
        base = self.var_paths.get(e)
        if base is None:  # (never: every variable is the event or an `each` item)
            raise AssertionError(f"no path for event variable {e!r}")
        self.reads.setdefault(self.event, []).append((kind, base + keys))
        self.known.setdefault(self.event, []).append((kind, base + keys))

    def knows(self, e: str, keys: tuple, kind: str = "whole") -> None:
        """Note that the grammar knows the event at ``keys`` of variable ``e`` without reading it
        (``ignore``; a `tag`'s object: ``kind`` "object")."""
        self.known.setdefault(self.event, []).append((kind, self.var_paths[e] + keys))

    # The object at the first key of a two-key event path (`delta` of delta.content) is read once
    # per scope (an event, or an item of `each`): a variable assigned where the scope begins, the
    # object or an empty read-only mapping, so each read of the path is one `.get`.
    def open_scope(self, e: str, indent: int) -> None:
        self.scopes[e] = (len(self.lines), indent, {})

    def close_scope(self, e: str) -> None:
        start, indent, hoisted = self.scopes.pop(e)
        self.lines[start:start] = ["    " * indent + f"{var} = _x if type(_x := {e}.get({key!r})) is dict else _NO_OBJECT" for key, var in hoisted.items()]

    def hoisted(self, e: str, key: str) -> str | None:
        scope = self.scopes.get(e)
        if scope is None:
            return None
        var = scope[2].get(key)
        if var is None:
            self.hoists += 1
            var = scope[2][key] = f"_h{self.hoists}"
        return var

    def constant(self, value: Any) -> str:
        """The name of a module-level constant holding ``value`` (built once, not per event)."""
        text = repr(value)
        for name, known in self.constants:
            if known == text:
                return name
        name = f"_NEW{len(self.constants) + 1}"
        self.constants.append((name, text))
        return name

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

    def get(self, e: str, value: Any, read: str = "whole") -> str:
        keys = _path(value)
        self.read(e, keys, read)
        if not keys:
            return e
        if len(keys) == 1 and isinstance(keys[0], str):  # the event, or an item of `each`: always an object
            return f"{e}.get({keys[0]!r})"
        if len(keys) == 2 and all(isinstance(k, str) for k in keys):  # inline: the hot path (delta.content)
            hoisted = self.hoisted(e, keys[0])
            if hoisted is not None:
                return f"{hoisted}.get({keys[1]!r})"
            return f"(_x.get({keys[1]!r}) if type(_x := {e}.get({keys[0]!r})) is dict else None)"
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
        for n, item in enumerate(items):
            if isinstance(item, str) and item.startswith("@"):  # a named list of actions (`templates:`), spliced here
                spliced = self.action_lists.get(item[1:])
                if spliced is None or item in self.splicing:
                    why = "it splices itself" if spliced is not None else f"no list of actions {item[1:]!r} in `templates:` ({', '.join(self.action_lists) or 'none'})"
                    lines = getattr(items, "item_lines", None)
                    line = lines[n] if lines and n < len(lines) else None
                    if line:
                        self.errors.add(getattr(items, "file", "?"), line, f"{self.where}: cannot splice {item!r}: {why}")
                    else:
                        self.errors.at(node, key, f"{self.where}: cannot splice {item!r}: {why}")
                    continue
                self.splicing.add(item)
                if spliced:
                    self.actions(spliced, node, key, indent, e, b, p)
                self.splicing.discard(item)
                continue
            self.action(item, node, key, indent, e, b, p)

    def condition(self, item: Located, e: str) -> str | None:
        tests = []
        for cond in [k for k in item if k in CONDITIONS]:  # in the spec's order: a set's order changes between runs
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
                for path in _paths_of(spec):
                    if self.check_path(item, cond, path, f"`{cond}`"):
                        # (reads whether the value is there, not what it holds: an object's keys are
                        # what the other reads say)
                        tests.append(f"{self.get(e, path, 'object')} is {'not ' if cond == 'has' else ''}None")
                continue
            if not isinstance(spec, dict) or not spec:
                self.errors.at(item, cond, f"{self.where}: `{cond}` must map event paths to the value (or list of values) they must {'not ' if cond == 'not' else ''}have")
                continue
            neg = "not " if cond == "not" else ""
            for path, want in spec.items():
                if self.check_path(item, cond, path, f"a `{cond}` key"):
                    if isinstance(want, list):
                        tests.append(f"{self.get(e, path)} {neg}in {tuple(plain(want))!r}")
                    else:
                        tests.append(f"{self.get(e, path)} {'!=' if neg else '=='} {plain(want)!r}")
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
            self.errors.at(item, k, f"{self.where}: unknown action {k!r}; expected one of {', '.join(sorted(ACTIONS))} (with an optional `when` / `has` / `unless` / `is` / `not`)")
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
                one = len(tkeys) == 1 and isinstance(tkeys[0], str)  # a field of the body object itself: inlined
                at = indent
                fresh = None  # (the test that the event created the element, when the template defaults this field)
                defaults = self.defaults.get(b) if name == "first" else None
                if defaults is not None and tkeys in defaults[0]:
                    fresh = defaults[1]
                    defaults[2] = True
                if one and name == "first":
                    # (what StreamState.first / null do, without the call) once the body has a value,
                    # the event's is not even read: the first value won (an id repeated on every chunk)
                    self.out(indent, f"if (_c := {b}.get({tkeys[0]!r})) is None or _c == \"\"{f' or {fresh}' if fresh else ''}:")
                    indent += 1
                # every value action does nothing with an absent value: test it here, so an event
                # without the value costs no call (and no source path is built). A key of the event
                # object (or of the object at a two-key path's first key, read once per scope) is
                # tested for presence first: an event lacks most of the keys its grammar knows (an
                # argument fragment: five delta fields, the logprobs, the usage), and `in` is the
                # cheapest test of one; when present, its null (`None`) takes the `else` below
                # (an action that runs only where its value is null, `unless` its own path, reads
                # no more than the condition did: OpenAI Chat's `logprobs: null`)
                # (an action that runs only where its value is null, `unless` its own path, reads no
                # more than the condition did, and has only the null to write: OpenAI Chat's `logprobs: null`)
                null_only = source in _paths_of(item.get("unless")) and name in ("set", "first", "append")
                value = self.get(e, source, "object" if null_only else "whole")
                skeys = _path(source)
                holder = None  # (the object holding the value's key: the event, or a hoisted one; None outside a scope)
                if len(skeys) == 1 and isinstance(skeys[0], str):
                    holder = e
                elif len(skeys) == 2 and all(isinstance(k, str) for k in skeys):
                    holder = self.hoisted(e, skeys[0])
                # a key the element's template holds a place for (`$absent`): put where it goes once set
                placing = self.placing.get(b)
                place = f"st.place({b}, {tkeys[0]!r}, {placing[1]})" if placing and tkeys[0] in placing[0] else None

                def carried_null(test: str, at: int) -> None:
                    """A field the event carries as null is null in the body (the complete body has it
                    so: OpenAI's system_fingerprint), unless the body has a value."""
                    self.out(at, test)
                    if one:
                        self.out(at + 1, f"if {'_c' if name == 'first' else f'{b}.get({tkeys[0]!r})'} is None:")
                        self.out(at + 2, f"{b}[{tkeys[0]!r}] = None")
                        if place:
                            self.out(at + 2, place)
                    else:
                        self.out(at + 1, f"st.null({b}, {tkeys!r})")
                        if place:
                            self.out(at + 1, place)

                two = len(skeys) == 2 and all(isinstance(k, str) for k in skeys)
                carries = (f"type(_x := {e}.get({skeys[0]!r})) is dict and {skeys[1]!r} in _x" if two else f"st.carries({e}, {skeys!r})")
                if null_only:
                    carried_null(f"if {f'{skeys[-1]!r} in {holder}' if holder is not None else carries}:", indent)
                    indent = at
                    continue
                if name == "set" and one and holder == "e" and b == "st.body" and not test and not place and not fresh:
                    self.sets.setdefault(self.event, {})[skeys[0]] = tkeys[0]
                if holder is not None:
                    self.out(indent, f"if {skeys[-1]!r} in {holder}:")
                    indent += 1
                    self.out(indent, f"v = {holder}[{skeys[-1]!r}]")
                else:
                    self.out(indent, f"v = {value}")
                self.out(indent, "if v is not None:")
                if one and name == "set":  # (what StreamState.set / null do, without the call)
                    self.out(indent + 1, f"{b}[{tkeys[0]!r}] = v")
                elif one and name == "first":
                    self.out(indent + 1, "if v != \"\":")
                    self.out(indent + 2, f"{b}[{tkeys[0]!r}] = v")
                elif name == "extend" and b == "st.body" and tkeys == self.calls_list:  # (whole calls: Ollama's)
                    self.out(indent + 1, f"st.extend_elements({b}, {tkeys!r}, v)")
                elif name in ("set", "first", "push", "extend"):
                    self.out(indent + 1, f"st.{name}({b}, {tkeys!r}, v{f', {fresh}' if fresh else ''})")
                else:  # append, append_json, merge, overlay
                    self.out(indent + 1, f"st.{name}({b}, {tkeys!r}, v, {self.src(p, source)})")
                if place:  # (after the write; for `first`, only when it wrote)
                    self.out(indent + (2 if one and name == "first" else 1), place)
                if name in ("set", "first", "append") and source != ".":
                    # (the key is there, its value null; or the event carries the path as null)
                    carried_null("else:" if holder is not None else f"elif {carries}:", indent)
                indent = at
        elif name == "tag":
            # fields every such event (or item) carries on the wire and that add nothing to the body
            # (`object: chat.completion.chunk`): written by the encoder, not read by the decoder
            if not isinstance(value, dict) or not value:
                self.errors.at(item, name, f"{self.where}: `tag` maps event paths to the constant values the wire carries there")
            elif test:
                self.errors.at(item, name, f"{self.where}: `tag` takes no condition")
            else:
                self.out(indent, "pass  # tag: " + ", ".join(f"{k}={plain(v)!r}" for k, v in value.items()))
                for path, constant in value.items():  # (not read, but the same on every such event: READS counts
                    # it, so that the repeat path compares it rather than copies it from each event)
                    if self.check_path(item, name, path, "a `tag` event path"):
                        if isinstance(constant, dict):  # (an object: the grammar knows the keys other actions read)
                            self.reads.setdefault(self.event, []).append(("whole", self.var_paths[e] + _path(path)))
                            self.knows(e, _path(path), "object")
                        else:
                            self.read(e, _path(path))
        elif name == "ignore":
            # keys the event carries that add nothing to the body (a padding, an addressing the
            # grammar takes from another key, a snapshot a later event gives whole): known, not read
            paths = value if isinstance(value, list) else [value]
            if test or not paths or not all(isinstance(x, str) for x in paths):
                self.errors.at(item, name, f"{self.where}: `ignore` lists the event paths that carry nothing for the body (no condition)")
            for path in paths:
                if isinstance(path, str) and self.check_path(item, name, path, "an `ignore` event path"):
                    self.knows(e, _path(path))
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
        if name == "each" and "list" not in spec and "key" not in spec and "in" in spec:
            self.each_item(spec, indent, e, b, p)  # `each` without an element: the actions apply per item to the same body object
            return
        broken = False
        if "list" not in spec or "key" not in spec:
            self.errors.at(spec, None, f"{self.where}: `{name}` needs `list` (the body list its elements go to) and `key` (the event path that keys them, `new` for always a new element, or `last` for the element opened last)")
            broken = True
        if name == "each" and "in" not in spec:
            self.errors.at(spec, None, f"{self.where}: `each` needs `in` (the event list to go through)")
            broken = True
        if broken:  # still check what it would do, so every error is reported at once
            self.depth += 1
            if isinstance(spec.get("do"), list):
                self.actions(spec["do"], spec, "do", indent, e, f"b{self.depth}", p)
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
            # (an event without the list, the common case, costs one test: no call, no source path built)
            self.out(indent, f"if (l{d} := {self.get(e, spec['in'], read='list')}) is not None:")
            self.out(indent + 1, f"for i{d}, e{d} in st.items(l{d}, {self.src(p, spec['in'])}):")
            indent += 2
            inner = ", ".join(repr(k) for k in _path(spec["in"]))
            self.out(indent, f"p{d} = ({inner}, i{d})" if p == "()" else f"p{d} = (*{p}, {inner}, i{d})")
            self.var_paths[f"e{d}"] = self.var_paths[e] + _path(spec["in"]) + ("*",)
            e, p = f"e{d}", f"p{d}"
            self.open_scope(e, indent)
            try:
                self.element_scope(name, spec, item, indent, e, b, p, d, list_keys)
            finally:
                self.close_scope(e)
            return
        self.element_scope(name, spec, item, indent, e, b, p, d, list_keys)

    def element_scope(self, name: str, spec: Located, item: Located, indent: int, e: str, b: str, p: str, d: int, list_keys: tuple) -> None:
        """A `block` / `each` scope's element and its actions (``e``: the event or the item)."""
        new = spec.get("new")
        if isinstance(new, str) and new.startswith("@"):  # a named template (`templates:`), which a flavour may replace
            if new[1:] not in self.templates:
                self.errors.at(spec, "new", f"{self.where}: no template {new[1:]!r} in `templates:` ({', '.join(self.templates) or 'none'})")
                return
            new = self.templates[new[1:]]
        placed = None
        if isinstance(new, dict):  # a literal template: the element's defaults and key order
            new = plain(new)
            absent = [k for k, v in new.items() if v == ABSENT]
            for k, v in new.items():  # (`$absent` places a key of the element itself, not of an object in it)
                if isinstance(v, (dict, list)) and ABSENT in repr(v):
                    self.errors.at(spec, "new", f"{self.where}: `{ABSENT}` is the value of a key of the template itself (a key set later, placed where the template has it); got it inside {k!r}")
            # (a module constant: the decoder copies it when it creates an element)
            new_expr = self.constant({k: v for k, v in new.items() if v != ABSENT})
            if absent:
                placed = (frozenset(absent), self.constant(tuple(new)))
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
            cont = self.continue_if(spec, e) if "continue_if" in spec else None
            extra = f", new_if={cont}" if cont else ""
            self.out(indent, f"b{d} = st.element({b}, {list_keys!r}, None, {new_expr}, (), create={create}{extra})")
        elif self.check_path(spec, "key", key, "`key`"):
            extra = (f", fallback={fb}" if fb != "None" else "") + (f", new_if={new_if}" if new_if != "None" else "")
            key_expr = self.get(e, key)
            if "default_key" in spec:  # the key an event without one has (proto3 JSON leaves out a 0 index)
                default = plain(spec["default_key"])
                if not isinstance(default, (str, int)) or isinstance(default, bool):
                    self.errors.at(spec, "default_key", f"{self.where}: `default_key` is the key (a string or integer) of an event that has none, got {default!r}")
                key_expr = f"st.key_or({key_expr}, {default!r})"
            self.out(indent, f"b{d} = st.element({b}, {list_keys!r}, {key_expr}, {new_expr}, {self.src(p, key)}, create={create}{extra})")
        else:
            return
        if "default_key" in spec and key in ("new", "last"):
            self.errors.at(spec, "default_key", f"{self.where}: `default_key` goes with a `key` read from the event")
        if "continue_if" in spec and key != "last":
            self.errors.at(spec, "continue_if", f"{self.where}: `continue_if` goes with `key: last` (whether the element opened last is continued)")
        if "kind" in spec and (not isinstance(spec["kind"], dict) or not spec["kind"] or not all(isinstance(v, (str, int, bool)) for v in spec["kind"].values())):
            self.errors.at(spec, "kind", f"{self.where}: `kind` maps the element's fields to the values every element this event addresses has (type: mcp_call)")
        if "opens_with" in spec and (not isinstance(spec["opens_with"], dict) or not spec["opens_with"] or not all(isinstance(v, (str, int, bool)) for v in spec["opens_with"].values()) or "new" not in spec):
            self.errors.at(spec, "opens_with", f"{self.where}: `opens_with` maps fields of the element the event creates (`new`) to the values it says while open (status: in_progress)")
        if "done" in spec and not isinstance(spec["done"], bool):
            self.errors.at(spec, "done", f"{self.where}: `done` is true or false (whether the event restates its element's complete value as the element ends)")
        if "names" in spec:
            names = spec["names"]
            if not isinstance(names, dict) or not names:
                self.errors.at(spec, "names", f"{self.where}: `names` maps event paths to the element's fields the event names it by (item_id: id)")
            else:
                for ek, bk in names.items():
                    if self.check_path(names, ek, ek, "a `names` event path"):
                        self.knows(e, _path(ek))  # (the element is found by `key`; the name is the encoder's to write)
                    self.check_path(names, ek, bk, "a `names` element field")
        at = len(self.lines) - 1  # (the line that finds or creates the element)
        defaulted = _defaults(new) if isinstance(new, dict) else frozenset()
        if spec.get("do"):
            if placed is not None:
                self.placing[f"b{d}"] = placed
            if defaulted:
                self.defaults[f"b{d}"] = [defaulted, "True" if key == "new" else f"_f{d}", False]
            try:
                self.actions(spec["do"], spec, "do", indent, e, f"b{d}", p)
            finally:
                self.placing.pop(f"b{d}", None)
                used = self.defaults.pop(f"b{d}", None)
            if used is not None and used[2] and key != "new":  # (`key: new` always creates)
                # whether this event created the element: StreamState.element says it in `opened`
                self.lines[at + 1 : at + 1] = ["    " * indent + f"_f{d} = st.opened is b{d}"]
                self.lines[at:at] = ["    " * indent + "st.opened = None"]
        if spec.get("close"):
            self.out(indent, f"st.close(b{d})")

    # -- additions for Gemini streams ---------------------------------------------------------
    def each_item(self, spec: Located, indent: int, e: str, b: str, p: str) -> None:
        """`each: {in, do}` without `list` / `key`: the actions run once per item of the event list
        (conditions then test the item), on the same body object; elements are chosen inside."""
        if not self.check_path(spec, "in", spec["in"], "`in`"):
            return
        self.depth += 1
        d = self.depth
        self.out(indent, f"if (l{d} := {self.get(e, spec['in'], read='list')}) is not None:")
        indent += 1
        self.out(indent, f"for i{d}, e{d} in st.items(l{d}, {self.src(p, spec['in'])}):")
        self.var_paths[f"e{d}"] = self.var_paths[e] + _path(spec["in"]) + ("*",)
        inner = ", ".join(repr(k) for k in _path(spec["in"]))
        self.out(indent + 1, f"p{d} = ({inner}, i{d})" if p == "()" else f"p{d} = (*{p}, {inner}, i{d})")
        if "close" in spec or "new" in spec:
            self.errors.at(spec, None, f"{self.where}: an `each` without `list` builds no element: `new` / `close` need `list` and `key`")
        self.open_scope(f"e{d}", indent + 1)
        self.actions(spec.get("do"), spec, "do", indent + 1, f"e{d}", b, f"p{d}")
        self.close_scope(f"e{d}")

    def continue_if(self, spec: Located, e: str) -> str | None:
        """`continue_if: {has, unless, same}` (with `key: last`): the element opened last is continued
        only when it has the `has` body paths, lacks the `unless` ones, and holds the event's value at
        the `same` paths; otherwise the event starts a new element. Compiles to the `new_if` test."""
        cond = spec["continue_if"]
        if not isinstance(cond, dict) or not cond or not set(cond) <= CONTINUE_IF_KEYS:
            self.errors.at(spec, "continue_if", f"{self.where}: `continue_if` is {{has, unless, same}} (body paths the last element must have / lack / share with the event)")
            return None
        tests = []
        for k in ("has", "unless", "same"):
            paths = cond.get(k)
            if paths is None:
                continue
            for path in paths if isinstance(paths, list) else [paths]:
                if not self.check_path(spec, "continue_if", path, f"a `continue_if.{k}` path"):
                    continue
                keys = _path(path)
                if k == "same":
                    tests.append(f"get(el, {keys!r}) == {self.get(e, path)}")
                else:
                    tests.append(f"get(el, {keys!r}) is {'not ' if k == 'has' else ''}None")
        return f"lambda el: not ({' and '.join(tests)})" if tests else None


def _table(items: Any, templates: dict, action_lists: dict | None = None, splicing: frozenset = frozenset()) -> list:
    """The actions as data (the encoder reads them backwards: toolwire_runtime/translate.py)."""
    out = []
    for item in items or []:
        if isinstance(item, str) and item.startswith("@"):  # a named list of actions, spliced
            if action_lists and item[1:] in action_lists and item not in splicing:
                out += _table(action_lists[item[1:]], templates, action_lists, splicing | {item})
            continue
        if item in ("end", "close"):
            out.append({"op": item})
            continue
        if not isinstance(item, dict):
            continue
        name = next((k for k in item if k in ACTIONS), None)
        if name is None or name == "ignore":  # (the encoder never writes what the decoder does not read)
            continue
        value = item[name]
        entry: dict = {"op": name}
        for cond in sorted(CONDITIONS & set(item)):  # sorted: the output must not depend on the hash seed
            spec = item[cond]
            if cond in ("has", "unless"):
                entry[cond] = [_path(p) for p in (spec if isinstance(spec, list) else [spec])]
            elif isinstance(spec, dict):
                entry[cond] = [(_path(k), plain(v)) for k, v in spec.items()]
        if name in VALUE_ACTIONS:
            entry["pairs"] = [(_path(t), _path(src)) for t, src in value.items()]
        elif name == "const":
            entry["pairs"] = [(_path(t), plain(v)) for t, v in value.items()]
        elif name == "tag":
            entry["pairs"] = [(_path(t), plain(v)) for t, v in value.items()]
        elif name == "start":
            entry["path"] = _path(value)
        elif name == "error":
            entry["pairs"] = [(k, _path(v)) for k, v in value.items()]
        elif name in ("block", "each") and isinstance(value, dict):
            key = value.get("key")
            new = value.get("new")
            if isinstance(new, str) and new.startswith("@"):
                new = templates.get(new[1:])
            if isinstance(new, dict):  # (the element as created: without the keys it lacks until set)
                new = {k: v for k, v in new.items() if v != ABSENT}
            entry.update(
                list=_path(value.get("list", ".")),
                key=key if key in ("new", "last") else _path(key) if isinstance(key, str) else None,
                new=plain(new) if isinstance(new, dict) else _path(new) if isinstance(new, str) else None,
                create=bool(value.get("create", new is not None or name == "each")),
                close=bool(value.get("close")),
                do=_table(value.get("do"), templates, action_lists, splicing),
            )
            if name == "each":
                entry["in"] = _path(value.get("in", "."))
            if "default_key" in value:
                entry["default_key"] = plain(value["default_key"])
            if isinstance(value.get("kind"), dict):
                entry["kind"] = plain(value["kind"])
            if value.get("done") is True:
                entry["done"] = True
            if isinstance(value.get("opens_with"), dict):
                entry["opens_with"] = plain(value["opens_with"])
            if isinstance(value.get("names"), dict):
                entry["names"] = [(_path(ek), _path(bk)) for ek, bk in value["names"].items()]
            if isinstance(value.get("continue_if"), dict):
                entry["continue_if"] = {k: [_path(x) for x in (v if isinstance(v, list) else [v])] for k, v in value["continue_if"].items()}
        out.append(entry)
    return out


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
    # an `end` item is an event name, or {has: BODY PATH}: the stream is complete once the body has a
    # value there (Gemini: a chunk carried candidates[0].finishReason; there is no end event)
    if not isinstance(end, list) or not all(isinstance(x, str) or (isinstance(x, dict) and set(x) == {"has"} and isinstance(x["has"], str) and PATH_RE.match(x["has"])) for x in end):
        errors.at(stream, "end", f"{where}: end must be a list of the event names that end a complete stream, or {{has: BODY PATH}} (complete once the body has a value there)")
        end = []
    end = [x if isinstance(x, str) else {"has": list(_path(x["has"]))} for x in end]
    if not isinstance(events, Located) or not events:
        errors.at(stream, "events", f"{where}: events must map each event name to its actions")
        return None
    for name in end:
        if isinstance(name, str) and name not in events:
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
    elif body is not None and ABSENT in repr(plain(body)):
        errors.at(stream, "body", f"{where}: `{ABSENT}` places a key of an element template (`templates:`, `new:`), not of the body")
    unfinished = stream.get("unfinished") or {}
    if not isinstance(unfinished, dict) or not all(isinstance(k, str) and PATH_RE.match(k) and k != "." and not isinstance(v, list) for k, v in unfinished.items()):
        errors.at(stream, "unfinished", f"{where}: unfinished maps body paths to the values the body converts with before its end (what the complete response requires and only the end sets: {{finish_reason: COMPLETE}}); a value is a scalar or an object")
        unfinished = {}
    templates = stream.get("templates") or {}
    if not isinstance(templates, dict) or not all(isinstance(v, (dict, list)) for v in templates.values()):
        errors.at(stream, "templates", f"{where}: templates must map names to literal mappings (an element's defaults, used as `new: \"@name\"`) or to lists of actions (spliced where an action list says \"@name\")")
        templates = {}
    comp = _Compiler(where, errors, {str(k): plain(v) for k, v in templates.items() if isinstance(v, dict)})
    comp.action_lists = {str(k): v for k, v in templates.items() if isinstance(v, list)}
    if "calls" in view and "list" in view["calls"]:
        comp.calls_list = tuple(view["calls"]["list"])
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
        comp.open_scope("e", 2)
        comp.actions(items, events, name, 2, "e", "st.body", "()")
        comp.close_scope("e")
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
                      text=view.get("text"), calls=view.get("calls"), code=code, constants=comp.constants, body=plain(body) if body else None,
                      rules={str(n): _table(items, comp.templates, comp.action_lists) for n, items in events.items() if items},
                      unfinished=tuple((_path(str(k)), plain(v)) for k, v in unfinished.items()))
    counter = stream.get("counter")
    if counter is not None:
        if isinstance(counter, str) and PATH_RE.match(counter):
            grammar.counter = _path(counter)
        else:
            errors.at(stream, "counter", f"{where}: counter must be the event path of a running event number (sequence_number)")
    for key, what in (("says_once", "the stream says at its start and never changes after (id, model)"),
                      ("says_at_end", "only the stream's end says, its body's value or null in its start event (stop_reason, status)")):
        paths = stream.get(key)
        if paths is None:
            continue
        if isinstance(paths, list) and paths and all(isinstance(x, str) and PATH_RE.match(x) and x != "." for x in paths):
            setattr(grammar, key, tuple(_path(x) for x in paths))
        else:
            errors.at(stream, key, f"{where}: {key} lists the body paths {what}")
    # body paths set by an event's unconditional top-level rules: each (event, path) → how many rules
    # (says_every_event: a `set` rule's, which the encoder writes at its event path; says_at_every_place:
    # two or more rules' of one event, set, first or merge)
    set_paths: set = set()
    rules_per_path: dict = {}
    for name, actions in grammar.rules.items():
        for a in actions:
            if a.get("op") in ("set", "first", "merge") and not any(k in a for k in ("has", "unless", "is", "not", "when")):
                for keys, _source in a.get("pairs", ()):
                    rules_per_path[name, keys] = rules_per_path.get((name, keys), 0) + 1
                    if a["op"] == "set":
                        set_paths.add(keys)
    twice = {keys for (_name, keys), n in rules_per_path.items() if n > 1}
    for key, allowed, what in (("says_every_event", set_paths, "every event of the API says, each set by an unconditional `set` rule of an event"),
                               ("says_at_every_place", twice, "an event's unconditional rules read from more than one place, said at each")):
        paths = stream.get(key)
        if paths is None:
            continue
        if isinstance(paths, list) and paths and all(isinstance(x, str) and PATH_RE.match(x) and x != "." and _path(x) in allowed for x in paths):
            setattr(grammar, key, tuple(_path(x) for x in paths))
        else:
            known = ", ".join(sorted(".".join(map(str, keys)) for keys in allowed)) or "none"
            errors.at(stream, key, f"{where}: {key} lists the body paths {what} ({known}); got {paths!r}")
    restates = stream.get("restates_start")
    if restates is not None:
        starts = {name for name, actions in grammar.rules.items() if any(a.get("op") == "start" for a in actions)}
        if isinstance(restates, list) and restates and starts and all(isinstance(x, str) and x in grammar.rules and x not in starts for x in restates):
            grammar.restates_start = tuple(restates)
        else:
            known = ", ".join(n for n in grammar.rules if n not in starts)
            errors.at(stream, "restates_start", f"{where}: restates_start lists the events sent right after the start event with the body it said, of a stream with a `start` action, each one of its other events with actions ({known}); got {restates!r}")
    always = stream.get("always_has")
    if always is not None:
        # (a `*` step: every item of the event's list there, none made: OpenAI's usage chunk says `choices: []`)
        if isinstance(always, dict) and always and all(isinstance(k, str) and PATH_RE.match(k.replace(".*.", ".0.")) and k != "." and not k.endswith(".*") for k in always):
            grammar.always_has = tuple((_path(k), plain(v)) for k, v in always.items())
        else:
            errors.at(stream, "always_has", f"{where}: always_has maps event paths (a `*` step for every item of a list) to the empty value every event of the API has there, which adds nothing to the body (message.content: \"\", choices.*.finish_reason: null); got {always!r}")
    together = stream.get("ends_together")
    if together is not None:
        if isinstance(together, bool):
            grammar.ends_together = together
        else:
            errors.at(stream, "ends_together", f"{where}: ends_together is true or false (whether the API's last event says the elements' end and the body's last fields at once); got {together!r}")
    begin = stream.get("begin")
    if begin is not None:
        if isinstance(begin, str) and begin in grammar.rules:
            grammar.begin = begin
        else:
            errors.at(stream, "begin", f"{where}: begin names the event every stream opens with, one of its events with actions ({', '.join(grammar.rules)}); got {begin!r}")
    refusal = stream.get("no_translation_to")
    if refusal is not None:
        if isinstance(refusal, str) and refusal.strip():
            grammar.no_translation_to = refusal.strip()
        else:
            errors.at(stream, "no_translation_to", f"{where}: no_translation_to says why streams are not translated into this provider yet (a sentence)")
    grammar.reads = {name: read_tree(reads) for name, reads in sorted(comp.reads.items())}
    # (a key only that `set` reads: another read of it, a condition's or an `each`'s, keeps it out)
    for name, sets in sorted(comp.sets.items()):
        only = {k: v for k, v in sorted(sets.items()) if sum(1 for _kind, path in comp.reads.get(name, ()) if path[:1] == (k,)) == 1}
        if only:
            grammar.sets[name] = only
    # what every event carries that adds nothing to the body (Responses' sequence_number, a padding)
    everywhere = stream.get("ignore", [])
    if not isinstance(everywhere, list) or not all(isinstance(x, str) and PATH_RE.match(x) and x != "." for x in everywhere):
        errors.at(stream, "ignore", f"{where}: ignore lists the event paths every event may carry that add nothing to the body (a padding, a sequence number)")
        everywhere = []
    if grammar.counter is not None:  # (the running event number: the encoder's to write)
        everywhere = [*everywhere, ".".join(map(str, grammar.counter))]
    if naming in ("type", "event_type"):  # (the key that names the event)
        everywhere = [*everywhere, str(naming)]
    for name, items in events.items():
        if items:  # (an event the grammar ignores whole is not checked)
            comp.known.setdefault(str(name), []).extend(("whole", _path(x)) for x in everywhere)
    grammar.known = {name: read_tree(known) for name, known in sorted(comp.known.items())}
    grammar.key = (grammar.naming, repr(grammar.counter), grammar.begin, grammar.no_translation_to, repr(grammar.end), code, repr(grammar.constants), repr(grammar.text), repr(grammar.calls), repr(grammar.body), repr(grammar.rules), repr(grammar.reads), repr(grammar.known), repr(grammar.sets), repr(grammar.unfinished), repr(grammar.says_once), repr(grammar.says_at_end), repr(grammar.says_every_event), repr(grammar.says_at_every_place), repr(grammar.restates_start), repr(grammar.always_has), grammar.ends_together)
    return grammar
