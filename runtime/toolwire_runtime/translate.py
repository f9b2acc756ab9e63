"""Stream translation: one provider's stream events → another provider's, as they arrive.

The source stream is accumulated (streaming.Accumulator) into the source provider's own body; the
target's events are *derived from the target's stream grammar read backwards*: the grammar says
which event puts which value where in the target body, so the encoder can say which event to send
to make the body the client accumulates (a ``mirror``: the target's own decoder fed with every
event sent) grow into the body it should be. What the target body should be is decided by the
ordinary response converter (source body → IR → target body), at *sync points*: when a block opens
or closes and at the end (a call's opening or end converts only that call when nothing else can
have changed, ``_sync_call``: many calls stay linear; a text block's first fragment after the
block the last sync saw last converts the two, and splices the change into the body, ``_sync_text``
and splice.py: many blocks stay linear). Between them, text and argument fragments
flow straight through along *routes* (source field → target field) found at the sync before: a
marker appended to the source field shows where the converter puts its text (known per layout once seen: ``_MARKS``); a call's
arguments go to the same call of the target. A fragment whose source event repeats the last one
(``Accumulator._replayed``) and whose field has its target template goes straight through (``run``),
in one function made for the pair of fields (``_fuse``), which puts text fragments aside for the next
slow step to join onto both bodies (``_flush``).

So the translated stream, accumulated, is by construction the non-streamed conversion of the
accumulated source (the commutative square), and incremental: fragments are forwarded as they come;
a target that takes whole calls (Gemini, Ollama) gets each call when it is complete, and text whose
place the converter decides by what follows it (Cohere: before a call it is the plan) waits until
that is known (a probe call through the converter shows it). Warnings are those of the final
conversion only (the sync points' partial conversions are silent).

Hand-written runtime; stdlib only.
"""

from __future__ import annotations

import json
import warnings
from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from .errors import ConversionError
from .layout import RESPONSE_ID_PREFIX, response_call_id
from .splice import Unspliced, moved, splice
from .streaming import Accumulator, StreamState, _fold_parts, _getter, _sink, copy_body, extend_text, get, where

__all__ = ["Encoder", "Shape"]

MARK = "\ue000toolwire-route\ue001"  # private-use characters: never in a real payload
_MISSING = object()
_NEVER = lambda lp, i: False  # noqa: E731  (nothing is held back: Encoder._held)
_SHAPES: dict[int, "Shape"] = {}
_VIEWS: dict[int, tuple] = {}  # id(a decoder's CALLS view) → the view with its key paths as tuples (Encoder._calls)
_MARKS: dict[tuple, tuple] = {}  # (target, model and part kinds, source element path, field) → route (Encoder._sync_mark)
_STAYS: dict[tuple, bool] = {}  # (target, model, part kinds) → whether trailing text keeps its place (Encoder._trailing_text_stays)


def _put(obj: dict, keys: tuple, value: Any) -> None:
    if len(keys) == 1:  # (most event paths: one key)
        obj[keys[0]] = value
        return
    for key in keys[:-1]:
        nxt = obj.get(key)
        if not isinstance(nxt, dict):
            nxt = obj[key] = {}
        obj = nxt
    obj[keys[-1]] = value


def _said_together(a: Any, b: Any, depth: int = 0, whole: frozenset | tuple = (), at: tuple = ()) -> Any:
    """One event's payload that says what payload ``a`` then ``b`` say (``Encoder._end_together``),
    or _MISSING where they say different things at one place, or the same text below the top
    (a fragment said twice is not said once: only the names every event repeats, at the top, and
    the values at the event paths ``whole`` that every event says whole, equal in both)."""
    if type(a) is dict and type(b) is dict:
        out = dict(a)
        for k, v in b.items():
            if k in out:
                if whole and (*at, k) in whole and out[k] == v:
                    continue
                v = _said_together(out[k], v, depth + 1, whole, (*at, k))
                if v is _MISSING:
                    return _MISSING
            out[k] = v
        return out
    if type(a) is list and type(b) is list:
        if not a or not b:
            return a or b
        if len(a) != len(b):
            return _MISSING
        out = [_said_together(x, y, depth + 1) for x, y in zip(a, b)]
        return _MISSING if any(x is _MISSING for x in out) else out
    if a is None or b is None:
        return b if a is None else a
    if a == b and type(a) is type(b) and (depth == 1 or type(a) is not str or a == ""):
        return a
    return _MISSING


def _fill(obj: dict, keys: tuple, value: Any) -> None:
    """Put a copy of ``value`` at ``keys`` in ``obj`` where nothing (None, "" or an empty list) is
    there, making the objects on the way (a position: the list's next item; ``*``: in every item
    the list has, none made)."""
    for n, key in enumerate(keys):
        last = n == len(keys) - 1
        if key == "*":
            for item in obj if type(obj) is list else ():
                if type(item) is dict:
                    _fill(item, keys[n + 1 :], value)
            return
        if type(key) is int:
            if type(obj) is not list or key > len(obj):
                return  # (not the item after the list's last: the path is not this event's)
            if key == len(obj):
                obj.append(None)
            nxt = obj[key]
        elif type(obj) is dict:
            nxt = obj.get(key)
        else:
            return
        if last:
            if nxt in (None, "", []):
                obj[key] = _copy(value)
            return
        if nxt is None:
            nxt = obj[key] = [] if type(keys[n + 1]) is int else {}
        obj = nxt


def _say_repeated(ev: dict, body: dict, replays: tuple) -> None:
    """Write into event payload ``ev`` the body values it repeats ((body key or None, body keys,
    spot), ``Shape.event_plan``), where the body has them (a null it has is said too)."""
    for body_key, body_keys, spot in replays:
        if body_key is not None:  # (most: a key of the body itself)
            value = body.get(body_key)
            if value is None and body_key not in body:
                continue
        else:
            value = get(body, body_keys)
            if value is None and not StreamState.carries(body, body_keys):
                continue
        if type(spot) is str:
            ev[spot] = value
        else:
            _put(ev, spot, value)


def _keep_sent_json(desired: Any, mirror: Any, keys: tuple) -> None:
    """Where the client has, at ``keys``, the argument text its stream sent in fragments (the
    source's own text) and the converted body the same JSON value in another spelling (Responses'
    compact arguments), the converted body takes the client's text: what the stream restates
    (Responses' output_item.done, response.completed) is what its fragments said, as the API's is."""
    have, want = get(mirror, keys), get(desired, keys)
    if type(have) is not str or type(want) is not str or have == want:
        return
    try:  # (the same value, types included: 1 and 1.0, true and 1 are not)
        same = json.dumps(json.loads(have), sort_keys=True) == json.dumps(json.loads(want), sort_keys=True)
    except ValueError:
        return
    if same:
        get(desired, keys[:-1])[keys[-1]] = have  # (the path is there: it holds ``want``)


def _at(owner: Any, list_keys: tuple, position: int) -> Any:
    """The element at ``position`` of the list at ``list_keys`` in ``owner`` (None when there is none)."""
    items = get(owner, list_keys) if isinstance(owner, dict) else None
    return items[position] if isinstance(items, list) and 0 <= position < len(items) else None


def _parts_to_send(want: list, have: Any, at: str, target: str) -> list:
    """The parts that grow ``have`` (a string or a list of typed parts, as ``append_parts`` folds
    them) into ``want``: the rest of the last part the client has, as a part of its type, then the
    parts it lacks. A layout the client's parts cannot grow into is an UnsupportedError."""
    folded: list = []
    _fold_parts(folded, _copy(want))  # what the client can hold: consecutive parts of a type join
    want = folded
    if not have:
        return want
    if isinstance(have, str):
        have = [{"type": "text", "text": have}]
    if not isinstance(have, list) or len(have) > len(want) or have[:-1] != want[: len(have) - 1]:
        from .errors import UnsupportedError

        raise UnsupportedError(at, f"the {target} response lays out its content parts differently once more of the stream arrived: a translated stream cannot take back what it sent")
    last, goal = have[-1], want[len(have) - 1]
    tail: dict = {}
    for key, value in goal.items():
        mine = last.get(key)
        if key == "type" or value == mine:
            continue
        if isinstance(value, str) and isinstance(mine, str):
            if not value.startswith(mine):
                from .errors import UnsupportedError

                raise UnsupportedError(at, f"the {target} response lays out its text differently once more of the stream arrived ({mine[-30:]!r} sent, now {value[-30:]!r}): a translated stream cannot take back what it sent")
            tail[key] = value[len(mine):]
        elif isinstance(value, list) and isinstance(mine, list) and all(isinstance(v, dict) for v in value + mine):
            tail[key] = _parts_to_send(value, mine, at, target)  # nested parts fold the same way (thinking)
        else:
            tail[key] = _copy(value)
    out = [{"type": goal.get("type"), **tail}] if tail else []
    return out + _copy(want[len(have):])


_FRAGMENT = object()  # where a fragment goes in an event template (_builder)
_COUNT = object()  # where the running event number goes


def _literal(node: Any, values: list) -> str:
    """Python source that builds ``node`` (JSON values): _FRAGMENT as ``f``, _COUNT as ``c``, and
    each string and number as a reference to its position in ``values`` (where its value is
    appended), written ``\\x00i\\x00`` until ``_refs`` names it (so the source depends on the event's
    shape only, not on a message id)."""
    out: list = []
    _write_literal(node, values, out.append)
    return "".join(out)


def _refs(name: str, literal: str) -> str:
    """``literal`` with its value references written as ``name`` formatted with their position
    (``k[{}]``). (\\x00 is never in a repr of a key, which escapes it.)"""
    parts = literal.split("\x00")
    parts[1::2] = [name.format(i) for i in parts[1::2]]
    return "".join(parts)


def _write_literal(node: Any, values: list, write: Callable[[str], None]) -> None:
    # (pieces appended to one list: this runs for every first fragment of a field, so it is kept lean)
    kind = type(node)
    if kind is str or kind is int or kind is float:
        write(f"\x00{len(values)}\x00")
        values.append(node)
    elif kind is dict or kind is list:
        keyed = kind is dict
        write("{" if keyed else "[")
        for key, value in node.items() if keyed else enumerate(node):
            if keyed:
                if type(key) is not str:
                    raise TypeError(type(key).__name__)
                write(repr(key))
                write(": ")
            _write_literal(value, values, write)
            write(", ")
        write("}" if keyed else "]")
    elif node is _FRAGMENT:
        write("f")
    elif node is _COUNT:
        write("c")
    elif node is None or kind is bool:
        write(repr(node))
    else:
        raise TypeError(kind.__name__)


_BUILDERS: dict[str, Callable[[tuple], Callable[[str, int], dict]]] = {}  # literal (_literal) → make
# what the fragment events of one target field looked like last (an encoder's hint: its chain and
# field) → (make, the reader of the values, literal): the next call's first fragment event has the
# same shape, another index (_builder reads its values instead of walking it)
_LIKELY: dict[tuple, tuple] = {}
_SCALARS = frozenset((str, int, float, bool, type(None)))


def _builder(template: dict, hint: tuple | None = None) -> tuple | None:
    """A function (fragment, event number) → the event ``template`` says, built as one literal (a
    fresh object every time, nothing copied): the straight-line emitter of one kind of fragment
    event. Compiled once per event shape (``lambda k: lambda f, c: {...}``) and bound to this
    template's values. Returned with the literal and its values (``_fuse`` inlines them); None
    when the template holds a value that is not JSON. ``hint`` names the kind of event: when the
    last one of that kind had the same shape (what it builds from this template's values equals
    the template), its literal is taken without walking the template."""
    likely = _LIKELY.get(hint) if hint is not None else None
    if likely is not None:
        make, read, literal = likely
        try:
            values = read(template)
        except (KeyError, IndexError, TypeError):
            values = None
        # (scalars only: the values are the template's own objects, shared by every event built)
        if values is not None and _SCALARS.issuperset(map(type, values)):
            build = make(values)
            if build(_FRAGMENT, _COUNT) == template:
                return build, literal, values
    values: list = []
    try:
        literal = _literal(template, values)
    except TypeError:
        return None
    make = _BUILDERS.get(literal)
    if make is None:
        if len(_BUILDERS) > 1024:  # shapes are few per grammar; keep it bounded all the same
            _BUILDERS.clear()
        source = "lambda k: lambda f, c: " + _refs("k[{}]", literal)
        make = _BUILDERS[literal] = eval(compile(source, "<toolwire stream event>", "eval"), {"__builtins__": {}})  # noqa: S307 (literals only)
    if hint is not None:
        paths: list = []
        _value_paths(template, (), paths)
        if len(_LIKELY) > 1024:
            _LIKELY.clear()
        _LIKELY[hint] = (make, _getter(tuple(paths), "(" + "".join(f"e{{{i}}}, " for i in range(len(paths))) + ")"), literal)
    return make(tuple(values)), literal, tuple(values)


def _value_paths(node: Any, path: tuple, out: list) -> None:
    """The paths of the values ``_literal`` takes from ``node``, in its order."""
    kind = type(node)
    if kind is str or kind is int or kind is float:
        out.append(path)
    elif kind is dict:
        for key, value in node.items():
            _value_paths(value, path + (key,), out)
    elif kind is list:
        for i, value in enumerate(node):
            _value_paths(value, path + (i,), out)


#: The longest run of events the hot path takes before the fragments it put aside are joined onto
#: their fields (``Encoder._flush``): the memory they hold stays bounded in a long answer.
_ASIDE = 1024
_HOT: dict[tuple, Callable] = {}  # the shapes of a source event and its target event → make (_hot_source)
_HOT_BUILTINS = {"type": type, "str": str, "int": int, "bool": bool, "dict": dict,
                 "KeyError": KeyError, "IndexError": IndexError, "TypeError": TypeError, "AttributeError": AttributeError}


def _reader_lines(paths: tuple, types: tuple | None, unread: tuple = ()) -> list[str]:
    """Statements that set ``f`` to the string at ``paths[0]`` of event ``e`` — None unless the leaves
    at ``paths[1:]`` have ``types`` — reading each shared part of the paths once (``x1 = e['data']``):
    the reader ``_repeat_of`` made (``streaming._getter``), inlined; then the values at the
    ``unread`` paths (what nothing reads) put into the template, each into its holder there
    (``h0``, ``h1``, ...: the repeat path's places), as its own function does."""
    uses: dict = {}
    children: dict = {}
    for path in (*paths, *unread):
        for n in range(len(path)):
            uses[path[:n]] = uses.get(path[:n], 0) + 1
            children.setdefault(path[:n], set()).add(path[n])
    names = {(): "e"}
    lines: list = []

    def expression(path: tuple) -> str:
        n = max(len(q) for q in names if path[: len(q)] == q)
        return names[path[:n]] + "".join(f"[{k!r}]" for k in path[n:])

    for prefix in sorted(uses, key=len):  # a place two paths part at is named
        if prefix and uses[prefix] > 1 and (len(children[prefix]) > 1 or prefix in paths):
            lines.append(f"x{len(names)} = {expression(prefix)}")
            names[prefix] = f"x{len(names)}"
    lines.append(f"f = {expression(paths[0])}")
    if types:
        checks = " or ".join(f"type({expression(path)}) is not {kind.__name__}" for path, kind in zip(paths[1:], types))
        lines += [f"if {checks}:", "    f = None"]
    lines += [f"h{i}[{path[-1]!r}] = {expression(path)}" for i, path in enumerate(unread)]
    return lines


def _hot_source(reader: list, unread: int, literal: str, n_values: int, counted: bool, guarded: bool, sets: tuple = ()) -> str:
    """The source of one function that does for an event what ``Accumulator._replayed`` and then
    ``Encoder._forward`` do (``Encoder._fuse``), with the source's reader (``_reader_lines``) and the
    target event's literal inlined (with the values nothing reads, ``unread`` of them, put into
    the template's holders ``U``), and a fragment checked against the grammar's constants (``G``)
    only when it has some (``guarded``). The fragment goes to the source's field and to the
    client's as one list append each (``sink``, ``msink``): a field of JSON fragments is that list,
    a text field takes the fragments the list holds at the next slow step (``Encoder._flush``: a
    string grown by every fragment is copied whenever it outgrows its block, an event's costliest
    step after building the target event). It gives the target event, or None when the event is
    not a repeat (the source's repeat path is dropped, as ``_replayed`` does). The events it takes
    are counted into the source's and the client's event positions by its caller (``Encoder.run``,
    ``step``). A value only a `set` of the source body's key reads (``sets``: its place, its key
    there, the body key) goes to the source body ``B``, as ``_replayed`` puts it."""
    values = "".join(f"k{i}, " for i in range(n_values))
    event = _refs("k{}", literal)  # (each value a local of make: k0, k1, ...)
    return "\n".join([
        "def make(G, owner, key, template, sink, msink, enc, src, k, U, B):",
        *([f"    ({values}) = k"] if n_values else []),
        *([f"    ({''.join(f'h{i}, ' for i in range(unread))}) = U"] if unread else []),
        "    def hot(e):",
        "        try:",
        *(f"            {line}" for line in reader),
        "        except (KeyError, IndexError, TypeError, AttributeError):",
        "            f = None",
        "        if type(f) is not str or not f or f in G:" if guarded else "        if type(f) is not str or not f:",
        "            if type(e) is not dict:",  # (an SDK object: its caller makes its JSON and asks again)
        "                return None",
        "            src._repeat = None",
        "            return None",
        "        owner[key] = f",
        "        if e != template:",
        "            src._repeat = None",
        "            return None",
        *(line for i, key, body_key in sets for line in (f"        if h{i}[{key!r}] is not None:", f"            B[{body_key!r}] = h{i}[{key!r}]")),
        "        sink.append(f)",
        *(["        enc.count = c = enc.count + 1"] if counted else []),
        "        msink.append(f)",
        f"        return {event}",
        "    return hot",
    ])


def _path_to(node: Any, target: Any, path: tuple = ()) -> tuple | None:
    """The path of the object ``target`` (by identity) in a body of dicts and lists, or None. The
    search goes from the end: what a stream asks for is the element it opened last (constant time,
    not a walk of the whole body for every new block)."""
    if node is target:
        return path
    items = reversed(node.items()) if type(node) is dict else zip(range(len(node) - 1, -1, -1), reversed(node)) if type(node) is list else ()
    for k, v in items:
        if type(v) is dict or type(v) is list:
            found = _path_to(v, target, path + (k,))
            if found is not None:
                return found
    return None


def _after_last_call(parts: list) -> int:
    """The position after the message's last tool call (0 when it has none)."""
    for i in range(len(parts) - 1, -1, -1):
        if getattr(parts[i], "type", None) == "tool_call":
            return i + 1
    return 0


def _cut_parts(response: Any, cuts: Iterable[tuple], rests: dict | None = None) -> Any:
    """``response`` with its message's text parts cut as ``cuts`` say (``Encoder._cut``: each cut's
    text part position, where it is cut, how many calls after it its rest follows, and the target
    field the text began in), in order. ``rests`` gets id(rest part) → that field."""
    import dataclasses

    parts = list(response.message.parts)
    for p, at, k, field in cuts:
        part = parts[p] if p < len(parts) else None
        if getattr(part, "type", None) != "text" or len(part.text) <= at:
            continue  # (nothing after the cut yet)
        q, n = p + 1, 0
        for j in range(p + 1, len(parts)):
            if n == k:
                break
            if getattr(parts[j], "type", None) == "tool_call":
                n += 1
                q = j + 1
        rest = dataclasses.replace(part, text=part.text[at:], provider_data=None)
        parts[p] = dataclasses.replace(part, text=part.text[:at])
        parts.insert(q, rest)
        if rests is not None:
            rests[id(rest)] = field
    return dataclasses.replace(response, message=dataclasses.replace(response.message, parts=parts))


def _copy(value: Any) -> Any:
    if value is None or type(value) in (str, int, float, bool):
        return value
    return copy_body(value, {})


def _spot(keys: tuple) -> Any:
    """A path an event is written at, as ``Encoder._event`` writes it: its key when it is one key
    (one store), else the keys (``_put``)."""
    return keys[0] if len(keys) == 1 and type(keys[0]) is str else keys


def _constant(keys: tuple, value: Any) -> tuple:
    """A grammar constant an event carries: (spot, value, whether each event gets its own copy)."""
    return (_spot(keys), value, not (value is None or type(value) in (str, int, float, bool)))


def _put_constants(obj: dict, constants: tuple) -> None:
    """Write grammar constants (``_constant``) into an event's object."""
    for spot, value, copied in constants:
        if copied:
            value = _copy(value)
        if type(spot) is str:
            obj[spot] = value
        else:
            _put(obj, spot, value)


class Shape:
    """A target grammar read backwards: for each body list (pattern with ``*`` for positions) the event
    that creates an element, the events that append to its fields and the event that closes it; the
    events that set body fields; the start and end events."""

    def __init__(self, decoder: Any) -> None:
        self.naming = decoder.NAMING
        self.calls_view = decoder.CALLS
        self.owners: dict[tuple, tuple | None] = {}  # list keys → the element that holds the list (_owner_of)
        self.creators: dict[tuple, tuple] = {}  # list pattern → chain
        self.all_creators: dict[tuple, list] = {}  # list pattern → every chain that may create one
        self.extenders: dict[tuple, tuple] = {}  # list pattern → (chain, event keys) of an `extend` that appends whole items
        self.counter = getattr(decoder, "COUNTER", None)
        self.begin = getattr(decoder, "BEGIN", None)  # the event a stream opens with (no `start` action)
        self.begin_chain = (self.begin,)
        self.joins = False  # a list whose stream may continue the element before (key `last`): bodies are projected  # event path of a running event number (Responses' sequence_number)
        # where it may: (list path pattern, the `last` scope) and (element pattern, a field of parts
        # that `append_parts` joins) — a body with no two elements there that its stream would join
        # is said as it is (_joined)
        self.join_lists: list[tuple] = []
        self.join_parts: list[tuple] = []
        self.appenders: dict[tuple, dict[tuple, tuple]] = {}  # list pattern → field → (chain, action, event keys)
        self.closers: dict[tuple, tuple] = {}
        # list pattern → the events that restate an element's complete value as it ends (`done`:
        # Responses' output_text.done, content_part.done), those of one `kind` first
        self.dones: dict[tuple, list] = {}
        self.closable: set[tuple] = set()  # list patterns whose elements the stream says are complete
        self._keyed: dict[tuple, bool] = {}
        self._under: dict[tuple, list] = {}  # pattern → lists_under(pattern)
        self._grown: dict[tuple, tuple] = {}  # pattern → grown(pattern)
        self._apart: dict[tuple, frozenset] = {}  # pattern → merged_apart(pattern)
        self._setters: dict[tuple, tuple] = {}  # pattern → setters_of(pattern)
        self._plans: dict[tuple, tuple] = {}  # chain identity → event_plan(chain)
        self._plan_of: dict[int, tuple] = {}  # id(chain) → (chain, event_plan(chain))
        self._idents: dict[int, tuple] = {}  # id(chain) → (chain, its identity): chains are the grammar's, read once
        self._carries: dict[tuple, tuple] = {}  # (pattern, chain identity) → carried_rules
        self.all_appenders: dict[tuple, list] = {}  # (list pattern, field) → every (chain, action, event keys) appending to it
        self._kinded: set[tuple] = set()  # the (pattern, field) keys of all_appenders with a rule whose scope says its `kind`
        self.setters: list[tuple] = []  # (body pattern, field keys or None for "any field", chain, action, event keys)
        self.start: tuple | None = None
        self.ends: list[tuple] = []
        self.replays: dict[str, list] = {}  # event name → depth-0 (body keys, event keys) written on every such event
        self.replays_after: dict[str, frozenset] = {}  # event name → the body keys of those written after its elements
        self.tags: dict[str, list] = {}
        self.top_each: dict[str, list] = {}  # event name → `in` paths of its depth-0 `each` scopes
        # the body values every event of the API says as the body has them then (`says_every_event`:
        # Ollama's model, Gemini's running usageMetadata), each at its own `set` rule's event path
        every = frozenset(getattr(decoder, "SAYS_EVERY_EVENT", ()))
        firsts: list = []
        for name, actions in decoder.RULES.items():
            self.tags[name] = [p for a in actions if a["op"] == "tag" for p in a["pairs"]]
            tagged = dict(self.tags[name])
            # what identifies the message (`first` fields: id, model, created), repeated on every such event;
            # `set` fields are state (a finish reason, Ollama's `done`) and are sent when final, but
            # for those the API says on every event
            first = [p for a in actions if a["op"] == "first" and _only_when(a)
                     and all(tagged.get(k) == (v[0] if isinstance(v, list) else v) for k, v in a.get("when", ())) for p in a["pairs"]]
            firsts += first
            said = [] if not every else [(p, any(b["op"] == "each" for b in actions[:i])) for i, a in enumerate(actions)
                                         if a["op"] == "set" and _only_when(a) and "when" not in a for p in a["pairs"] if p[0] in every]
            self.replays[name] = first + [p for p, _after in said]
            # (those whose rule follows the event's elements are written after them, in the API's
            # order: Gemini's usageMetadata after the candidates)
            self.replays_after[name] = frozenset(p[0] for p, after in said if after)
            self.top_each[name] = [a["in"] for a in actions if a["op"] == "each"]
            self._walk(name, actions, (), ())
        for chains in self.dones.values():
            chains.sort(key=lambda chain: "kind" not in chain[-1])  # (stable: grammar order within each)
        # the body keys some event repeats as the start said them (`first`: a later value is kept
        # out, _keep_said) and all it repeats (a change of one of them shows on every event sent after it)
        self.replayed = tuple(dict.fromkeys(bk for bk, _ek in firsts))
        # (the body's own keys among them, compared in one step at a call's sync: _sync_call)
        self.replayed_top = tuple(bk[0] for bk in self.replayed if len(bk) == 1 and type(bk[0]) is str)
        self.replayed_deep = tuple(bk for bk in self.replayed if not (len(bk) == 1 and type(bk[0]) is str))
        # those said on every event as the body has them then (`says_every_event`), and the body's own
        # keys among all (each event says them whole: _end_together)
        self.said_every = tuple(dict.fromkeys(bk for pairs in self.replays.values() for bk, _ek in pairs if bk not in self.replayed))
        # (the event paths they are said at: each event says them whole, _end_together)
        self.repeated_spots = frozenset(tuple(ek) for pairs in self.replays.values() for _bk, ek in pairs)
        # the body paths the start event says and nothing changes after (`says_once`: Responses' id)
        self.says_once = getattr(decoder, "SAYS_ONCE", ())
        # the body paths only the end says (`says_at_end`): in the start event, the value the stream's
        # body starts from (Responses' status: in_progress), else null (Anthropic's stop_reason)
        self.says_at_end = getattr(decoder, "SAYS_AT_END", ())
        self.at_end_keys = frozenset(keys[0] for keys in self.says_at_end if len(keys) == 1)  # (the body's own)
        self.start_body = getattr(decoder, "BODY", None) or {}
        # the events sent right after the start event with the body it said (`restates_start`:
        # Responses' response.in_progress)
        self.restates_start = getattr(decoder, "RESTATES_START", ())
        # what every event of the API has, empty where it says nothing there (`always_has`: Ollama's
        # message.content "", Gemini's candidate parts [{text: ""}]): (event keys, value)
        self.always_has = getattr(decoder, "ALWAYS_HAS", ())
        # the API's last event says the elements' end and the body's last fields at once
        # (`ends_together`: Mistral's and Gemini's final chunk, the finish reason with the usage)
        self.ends_together = getattr(decoder, "ENDS_TOGETHER", False) and not self.counter
        # the body paths an event's rules read from more than one place, said at each
        # (`says_at_every_place`: Groq's usage, at `usage` and `x_groq.usage`)
        self.every_place = frozenset(getattr(decoder, "SAYS_AT_EVERY_PLACE", ()))

    def _walk(self, name: str, actions: list, pattern: tuple, chain: tuple) -> None:
        for a in actions:
            op = a["op"]
            if op == "each" and not a["list"]:  # an item scope: each item of the event list, same body object
                self._walk(name, a["do"], pattern, chain + (a,))
            elif op in ("block", "each"):
                lp = pattern + a["list"] + ("*",)
                sub = chain + (a,)
                if a["key"] == "last" or any(x["op"] == "append_parts" for x in a["do"]):
                    self.joins = True  # its stream joins consecutive parts (Gemini's text parts, Mistral's chunks)
                if a["key"] == "last":
                    self.join_lists.append((pattern + a["list"], a))
                self.join_parts += [(lp, keys) for x in a["do"] if x["op"] == "append_parts" for keys, _ek in x["pairs"]]
                if a["create"]:
                    self.all_creators.setdefault(lp, []).append((name, *sub))
                    if lp not in self.creators or (isinstance(a["new"], tuple) and not isinstance(self.creators[lp][-1]["new"], tuple)):
                        self.creators[lp] = (name, *sub)
                closes = [x for x in a["do"] if x["op"] == "close"]
                if a["close"] or closes:
                    self.closable.add(lp)
                if a["close"] or any(not _conditional(x) and "not" not in x for x in closes):
                    # an event that closes its element (a close under a condition is part of the
                    # event that creates or grows it: Gemini's last functionCall part)
                    self.closers.setdefault(lp, (name, *sub))
                if a.get("done"):
                    self.dones.setdefault(lp, []).append((name, *sub))
                self._walk(name, a["do"], lp, sub)
            elif op in ("append", "append_json", "push", "append_parts"):
                for body_keys, event_keys in a["pairs"]:
                    self.appenders.setdefault(pattern, {}).setdefault(body_keys, ((name, *chain), a, event_keys))
                    self.all_appenders.setdefault((pattern, body_keys), []).append(((name, *chain), a, event_keys))
                    if chain and "kind" in chain[-1]:
                        self._kinded.add((pattern, body_keys))
            elif op == "extend" and not self.calls_view_list_taken(pattern, a):  # items appended whole (Ollama's tool_calls)
                for body_keys, event_keys in a["pairs"]:
                    lp = pattern + body_keys + ("*",)
                    self.extenders.setdefault(lp, ((name, *chain), event_keys))
                    self.creators.setdefault(lp, (name, *chain))
            elif op in ("set", "first", "merge", "overlay"):
                for body_keys, event_keys in a["pairs"]:
                    self.setters.append((pattern, body_keys, (name, *chain), a, event_keys))
            elif op == "start" and self.start is None:
                self.start = ((name, *chain), a)
            elif op in ("end", "end_after"):
                self.ends.append(((name, *chain), a))

    def appender_for(self, pattern: tuple, field: tuple, element: Any) -> tuple | None:
        """The rule that appends to ``field`` of ``element``: of the events that append there and
        address this kind of element (a scope's `kind`), the first whose scope's template is of the
        element's type (Responses' reasoning_text.delta for a reasoning_text part, output_text.delta
        for an output_text one). None when no event streams this field of such an element."""
        candidates = self.all_appenders.get((pattern, field), ())
        if isinstance(element, dict) and (pattern, field) in self._kinded:
            # events for another kind of element are not candidates (mcp_call arguments, not a
            # function call's); none left: the field is not streamed, the element's closing event carries it
            candidates = [c for c in candidates if len(c[0]) < 2 or _of_kind(c[0][-1], element)]
            if not candidates:
                return None
        if len(candidates) > 1 and isinstance(element, dict):
            for candidate in candidates:
                new = candidate[0][-1].get("new") if len(candidate[0]) > 1 else None
                if not isinstance(new, dict) or all(element.get(k) == v for k, v in new.items() if isinstance(v, str) and v):
                    return candidate
        return candidates[0] if candidates else self.appenders[pattern][field]

    def keyed(self, chain: tuple) -> bool:
        """Whether every scope of a chain finds its element by a key the event carries (not the
        element opened last, which a condition may decide to continue or not)."""
        ident = self.ident(chain)
        known = self._keyed.get(ident)
        if known is None:
            known = self._keyed[ident] = all(isinstance(scope.get("key"), tuple) for scope in chain[1:])
        return known

    def calls_view_list_taken(self, pattern: tuple, action: dict) -> bool:
        """An `extend` onto a list that a keyed scope already builds is not how its items are made."""
        return any(pattern + bk + ("*",) in self.all_creators for bk, _ek in action["pairs"])

    @classmethod
    def of(cls, decoder: Any) -> "Shape":
        shape = _SHAPES.get(id(decoder))
        if shape is None:
            shape = _SHAPES[id(decoder)] = cls(decoder)
        return shape

    def event_plan(self, chain: tuple) -> tuple:
        """What ``Encoder._event`` writes for an event along ``chain``, read from its rules once. Each
        path written is a *spot*: its key when it is one key, else the keys (``_spot``); a constant
        is (spot, value, whether it is copied: not a scalar). (whether the event names itself in the
        payload, its tags, the body values it repeats as (body key or None, body keys, spot), the
        running number's spot or None, the `each` lists it says empty, whether a scope has `names`)
        and, per scope, (scope, ``each`` list spot or None, tags, ``when`` values, key spot or None,
        the default key, list keys, ``names`` pairs, ``continue_if.same`` keys)."""
        known = self._plan_of.get(id(chain))
        if known is not None and known[0] is chain:  # (the grammar's chains: each read once)
            return known[1]
        ident = self.ident(chain)
        plan = self._plans.get(ident)
        if plan is None:
            name = chain[0]
            scopes = tuple(
                (
                    scope,
                    _spot(scope["in"]) if scope["op"] == "each" else None,
                    tuple(_constant(k, v) for a in scope["do"] if a["op"] == "tag" for k, v in a["pairs"]),
                    tuple(_constant(k, v[0] if isinstance(v, list) else v) for k, v in scope.get("when", ())),
                    _spot(scope["key"]) if isinstance(scope["key"], tuple) else None,
                    scope.get("default_key"),
                    scope["list"],
                    tuple(scope.get("names", ())),
                    tuple((scope.get("continue_if") or {}).get("same") or ()),
                )
                for scope in chain[1:]
            )
            # an `each` list of the event its chain does not fill is said empty (unless the event has it)
            filled = chain[1]["in"] if len(chain) > 1 and chain[1]["op"] == "each" else None
            head = (
                self.naming in ("type", "event_type"),
                tuple(_constant(k, v) for k, v in self.tags.get(name, ())),
                tuple((bk[0] if len(bk) == 1 else None, bk, _spot(ek)) for bk, ek in self.replays.get(name, ()) if bk not in self.replays_after.get(name, ())),
                _spot(self.counter) if self.counter else None,
                tuple(path for path in self.top_each.get(name, ()) if path != filled),
                any(entry[7] for entry in scopes),
                tuple((bk[0] if len(bk) == 1 else None, bk, _spot(ek)) for bk, ek in self.replays.get(name, ()) if bk in self.replays_after.get(name, ())),
            )
            plan = self._plans[ident] = (head, scopes)
        if len(self._plan_of) > 4096:
            self._plan_of.clear()
        self._plan_of[id(chain)] = (chain, plan)
        return plan

    def _chain(self, chain: tuple) -> tuple:
        """(the chain, its identity ``_ident``, per scope whether it addresses a list element), kept per
        chain object (with the chain, so that an id is never taken for another chain's)."""
        known = self._idents.get(id(chain))
        if known is None or known[0] is not chain:
            if len(self._idents) > 4096:  # (the grammar's chains are a few dozen; bounded all the same)
                self._idents.clear()
            known = self._idents[id(chain)] = (chain, _ident(chain), tuple(bool(scope["list"]) for scope in chain[1:]))
        return known

    def ident(self, chain: tuple) -> tuple:
        return self._chain(chain)[1]

    def list_scopes(self, chain: tuple) -> tuple:
        """Per scope of a chain, whether it addresses an element of a list (has a key) or an item."""
        return self._chain(chain)[2]

    def carried_rules(self, chain: tuple, pattern: tuple) -> tuple:
        """The `set` rules of an event along ``chain`` that write into an element at ``pattern``:
        (body keys, its `when` constants, event keys), in grammar order (``Encoder._carried``)."""
        key = (pattern, self.ident(chain))
        known = self._carries.get(key)
        if known is None:
            known = self._carries[key] = tuple(
                (body_keys, tuple(Encoder._when(action)), event_keys)
                for sp, body_keys, schain, action, event_keys in self.setters
                if sp == pattern and self.ident(schain) == key[1]
            )
        return known

    def setters_of(self, pattern: tuple) -> tuple:
        """The `set` rules ``_set_fields`` weighs for an element at ``pattern``, read once per pattern:
        (rules as (body keys, chain, action, event keys, chain identity, scope, whether the rule has
        conditions an element may fail, the body key when the keys are one), first keys that some
        rule sets below the object itself)."""
        known = self._setters.get(pattern)
        if known is None:
            snapshot = {_ident(c) for sp, bk, c, a, _e in self.setters if sp == pattern and bk == () and a["op"] == "overlay"}
            closer = self.closers.get(pattern)
            closer_ident = _ident(closer) if closer is not None else None
            rules = []
            for setter_pattern, body_keys, chain, action, event_keys in self.setters:
                ident = _ident(chain)
                if setter_pattern != pattern or (snapshot and ident not in snapshot):
                    continue  # a snapshot of the whole object (Responses' terminal event) says everything; its event's other fields go with it
                if ident == closer_ident:
                    continue  # the closing event carries it (_close)
                scope = chain[-1] if len(chain) > 1 else {}
                conditional = any(k in src for src in (scope, action) for k in ("has", "unless", "is", "not"))
                key = body_keys[0] if len(body_keys) == 1 and type(body_keys[0]) is str else None
                rules.append((body_keys, chain, action, event_keys, ident, scope, conditional, key))
            below = frozenset(bk[0] for sp, bk, *_ in self.setters if sp == pattern and bk != ())
            known = self._setters[pattern] = (tuple(rules), below)
        return known

    def merged_apart(self, pattern: tuple) -> frozenset:
        """The keys of an element at ``pattern`` that a merge into the whole object does not send:
        fields its stream appends to, lists of elements of their own, and fields a rule of their own
        sets (``Encoder._set_fields``)."""
        known = self._apart.get(pattern)
        if known is None:
            streamed = self.appenders.get(pattern, {})
            known = self._apart[pattern] = frozenset(
                {f[0] for f in streamed if len(f) == 1} | {s[0] for s in self.lists_under(pattern) if s} | self.setters_of(pattern)[1]
            )
        return known

    def grown(self, pattern: tuple) -> tuple:
        """The fields of an element at ``pattern`` that its stream grows (text appended, items pushed),
        with the op: the ones ``Encoder._grow`` sends the rest of, in grammar order. Each as (field,
        op, the keys of the object holding it, its key there); fields of one object share that
        object's keys (the same tuple: ``_grow`` reads the object once for a run of them)."""
        known = self._grown.get(pattern)
        if known is None:
            parents: dict = {}
            known = self._grown[pattern] = tuple(
                (field, action["op"], parents.setdefault(field[:-1], field[:-1]), field[-1])
                for field, (_chain, action, _ek) in self.appenders.get(pattern, {}).items()
                if action["op"] in ("push", "append", "append_parts")
            )
        return known

    def lists_under(self, pattern: tuple) -> list[tuple]:
        """The list patterns directly under ``pattern`` (an element pattern, or () for the body), as
        the part of the pattern relative to it."""
        known = self._under.get(pattern)
        if known is None:  # (the creators are known once the grammar is read: asked once per pattern)
            n = len(pattern)
            known = self._under[pattern] = [lp[n:-1] for lp in self.creators if len(lp) > n + 1 and lp[:n] == pattern and "*" not in lp[n:-1]]
        return known

    def skeleton(self, element: Any, pattern: tuple) -> Any:
        """An element as its creation event carries it: streamed fields empty, nested lists empty."""
        out = _copy(element)
        for keys, (_chain, action, _ek) in self.appenders.get(pattern, {}).items():
            if get(out, keys) is not None:
                _put(out, keys, {"append_json": {}, "push": []}.get(action["op"], ""))
        for sub in self.lists_under(pattern):
            if get(out, sub) is not None:
                _put(out, sub, [])
        return out


def _ident(chain: tuple) -> tuple:
    """A chain (event name, scope actions...) as a hashable key."""
    return (chain[0], *map(id, chain[1:]))


_IDENTIFIERS: dict[int, tuple] = {}  # id(scope) → (scope, the actions _identity writes)


def _identifiers(scope: dict) -> tuple:
    """The actions of a scope that say what identifies a new element (``_identity``), read once per
    scope (the grammar's constants): (is a `set`, pairs, `has` paths)."""
    known = _IDENTIFIERS.get(id(scope))
    if known is None or known[0] is not scope:
        if len(_IDENTIFIERS) > 4096:
            _IDENTIFIERS.clear()
        actions = tuple(
            (a["op"] == "set", tuple(a["pairs"]), tuple(a.get("has") or ()), tuple(a.get("when") or ()))
            for a in scope["do"]
            if (a["op"] == "first" and not _conditional(a))
            or (a["op"] == "set" and (a.get("has") or a.get("when")) and not any(k in a for k in ("unless", "is", "not")))
        )
        known = _IDENTIFIERS[id(scope)] = (scope, actions)
    return known[1]


def _identity(scope: dict, element: Any) -> list:
    """What identifies a new element in an event item, as (event keys, value) pairs: its `first`
    fields, and the `set` / `const` fields of rules guarded by `has` paths that these values provide
    (Bedrock's contentBlockStart says `start.toolUse` only for a toolUse block). Empty when the
    element has none of them."""
    out: list = []
    for is_set, pairs, has, when in _identifiers(scope):
        values = [(ek, v) for bk, ek in pairs if (v := get(element, bk)) is not None and v != "" and v != []]
        if is_set:
            trial: dict = {}
            for ek, v in values:
                _put(trial, ek, v)
            if not values or not all(get(trial, h) is not None for h in has):
                continue
            # a `when` the values meet, or whose constant the event then says too (Bedrock's
            # contentBlockStart says a server tool's toolUse.type: the block's start says it whole)
            said = [(keys, want[0] if isinstance(want, list) else want) for keys, want in when]
            if any(get(trial, keys) is not None and get(trial, keys) != want for keys, want in said):
                continue
            values += [(keys, want) for keys, want in said if get(trial, keys) is None]
        out += values
    return out


_KINDS = {"string": str, "list": list, "object": dict, "number": (int, float), "boolean": bool}


def _satisfiable(scope: dict, action: dict, event_keys: tuple, value: Any) -> bool:
    """Whether an item carrying ``value`` at ``event_keys`` and the `when` constants meets the scope's
    and the action's conditions (a decoder would apply this rule to it)."""
    item: dict = {}
    for source in (scope, action):
        for keys, want in source.get("when", ()):
            _put(item, keys, want[0] if isinstance(want, list) else want)
    if value is not None and event_keys:
        _put(item, event_keys, value)
    return _holds(scope, item, False) and _holds(action, item, False)


def _empty(element: Any) -> bool:
    """An element with nothing but empty values and flags, at any depth (a text part with no text
    yet, a Gemini thought part with no text yet; a Bedrock reasoningContent whose reasoningText has
    no text or signature yet): nothing a stream can say yet."""
    return isinstance(element, dict) and all(v in (None, "", [], {}) or type(v) is bool or _empty(v) for v in element.values())


def _lists_at(node: Any, pattern: tuple) -> Iterator[Any]:
    """The values at ``pattern`` in ``node`` (``*``: each item of a list on the way): at its last
    key, None where the object that would hold it lacks it."""
    for _path, value in _paths_at(node, pattern):
        yield value


def _paths_at(node: Any, pattern: tuple, path: tuple = ()) -> Iterator[tuple]:
    """(path, value) of each value at ``pattern`` in ``node`` (``_lists_at``)."""
    for i, key in enumerate(pattern):
        if key == "*":
            if type(node) is list:
                for j, item in enumerate(node):
                    yield from _paths_at(item, pattern[i + 1 :], (*path, j))
            return
        if type(node) is not dict:
            return
        node = node.get(key)
        path = (*path, key)
        if node is None and i < len(pattern) - 1:
            return
    yield path, node


def _holds(conditions: dict, item: Any, when: bool = True) -> bool:
    """Whether ``item`` (an element said as an event's item) may meet a scope's or an action's
    conditions: true unless one that can be read here fails (an unknown condition may hold);
    ``when`` False: its `when` equalities are not checked (the caller wrote them: _satisfiable)."""
    for keys in conditions.get("has", ()):
        if get(item, keys) is None:
            return False
    for keys in conditions.get("unless", ()):
        if get(item, keys) is not None:
            return False
    for keys, want in conditions.get("when", ()) if when else ():
        if get(item, keys) not in (want if isinstance(want, list) else (want,)):
            return False
    for keys, kind in conditions.get("is", ()):
        if not isinstance(get(item, keys), _KINDS[kind]):
            return False
    for keys, want in conditions.get("not", ()):
        if get(item, keys) == (want[0] if isinstance(want, list) else want):
            return False
    return True


def _continues(scope: dict, last: Any, item: Any) -> bool:
    """Whether a ``key: last`` scope may take ``item`` into the element before it, ``last``."""
    if not _holds(scope, item):
        return False
    rule = scope.get("continue_if")
    if not rule:
        return True  # (it always continues the last element)
    return (all(get(last, k) is not None for k in rule.get("has") or ())
            and all(get(last, k) is None for k in rule.get("unless") or ())
            and all(get(last, k) == get(item, k) for k in rule.get("same") or ()))


def _continued(chain: tuple, action: dict, item: Any, element: dict, items: Any) -> bool:
    """Whether what a fragment event along ``chain`` does to the client's body is appending to
    ``element``, when the chain finds it as the element opened last (a ``key: last`` scope, its
    other scopes keyed): ``element`` is the last of its list ``items``, the scope continues it with
    the event's ``item`` (its `continue_if`: Gemini's text part of the same kind, unsigned), and
    its other actions are `set`s of values the element has (the event carries the element's own:
    ``Encoder._event``'s `same`)."""
    scope = chain[-1]
    if scope.get("key") != "last" or not all(isinstance(s.get("key"), tuple) or (s["op"] == "each" and not s["list"]) for s in chain[1:-1]):
        return False  # (an `each` without a list is an item scope: each item of the event's list, the same body object)
    if type(items) is not list or not items or items[-1] is not element or not _continues(scope, element, item):
        return False
    for other in scope["do"]:
        if other is action:
            continue
        if other["op"] != "set" or _conditional(other):
            return False
        for body_keys, event_keys in other["pairs"]:
            value = get(item, event_keys)
            if value is not None and value != get(element, body_keys):
                return False
    return True


def _joined(shape: "Shape", body: Any) -> bool:
    """Whether the target's stream may say ``body`` otherwise than it is: two elements of a list it
    joins that it would join (Gemini's consecutive text parts of one kind; Mistral's consecutive
    chunks of one type), an element it has nothing to say of (an empty part, left out), or no such
    list where its stream would make one. Otherwise replaying the body gives the body
    (tests/test_stream_sync.py checks it on every stream into every target that joins)."""
    for pattern, scope in shape.join_lists:
        for items in _lists_at(body, pattern):
            if type(items) is not list:
                return True  # (a list its stream makes from a template: Gemini's parts of an empty content)
            for i, item in enumerate(items):
                if _empty(item) or (i and _continues(scope, items[i - 1], item)):
                    return True
    for pattern, keys in shape.join_parts:
        for items in _lists_at(body, pattern[:-1]):
            for element in items if type(items) is list else ():
                parts = get(element, keys)
                if type(parts) is list:
                    for i, part in enumerate(parts):
                        if _empty(part) or (i and type(part) is dict and type(parts[i - 1]) is dict and part.get("type") == parts[i - 1].get("type")):
                            return True
    return False


def _of_kind(scope: dict, element: Any) -> bool:
    """Whether ``element`` is of the kind a scope addresses (its `kind`: Responses' output_text.done
    for output_text parts only); a scope that says no kind addresses every element of its list."""
    kind = scope.get("kind")
    if not kind:
        return True
    return isinstance(element, dict) and all(element.get(k) == v for k, v in kind.items())


def _only_when(action: dict) -> bool:
    """No condition but `when` equalities (which the encoder can satisfy by writing them)."""
    return not any(k in action for k in ("has", "unless", "is", "not"))


def _conditional(action: dict) -> bool:
    return any(k in action for k in ("when", "has", "unless", "is"))


_PAIRS: dict[tuple, tuple] = {}  # (id(target shape), id(source decoder)) → (shape, decoder, _calls_of_pair)


def _calls_of_pair(shape: Shape, source_decoder: Any) -> tuple:
    """What an encoder knows of the calls of a source and a target grammar, read once per pair:
    (whether the source's stream says when a call is complete, whether it sends a call's arguments
    in fragments, the source's argument keys, and the target's (list keys, list pattern, argument
    keys, whether its stream sends arguments in fragments) or None when one side has no calls)."""
    known = _PAIRS.get((id(shape), id(source_decoder)))
    if known is not None and known[0] is shape and known[1] is source_decoder:
        return known[2]
    source_calls = source_decoder.CALLS
    source_shape = Shape.of(source_decoder)
    calls_pattern = tuple("*" if isinstance(k, int) else k for k in source_calls["list"]) + ("*",) if source_calls else None
    closes = calls_pattern in source_shape.closable
    # its calls' arguments come in fragments (without a close event, a call is complete only when
    # the next one starts or the stream ends: Cohere v1's tool-calls-chunk)
    streams_args = bool(source_calls) and tuple(source_calls["arguments"]) in source_shape.appenders.get(calls_pattern, {})
    source_args = tuple(source_calls["arguments"]) if source_calls else None
    view = shape.calls_view
    target_calls = None  # one side has no calls: nothing to route
    if source_calls and view:
        tlist = tuple(view["list"])
        pattern = tuple("*" if isinstance(k, int) else k for k in tlist) + ("*",)
        target_calls = (tlist, pattern, tuple(view["arguments"]), tuple(view["arguments"]) in shape.appenders.get(pattern, {}))
    _PAIRS[(id(shape), id(source_decoder))] = (shape, source_decoder, (closes, streams_args, source_args, target_calls))
    return closes, streams_args, source_args, target_calls


def _owner_of(shape: "Shape", list_keys: tuple) -> tuple | None:
    """(pattern, path, keys of the list under it) of the target element that holds the list at
    ``list_keys`` (the body itself: pattern and path ``()``), as the diff walks it (``_diff_list``)."""
    if list_keys not in shape.owners:
        shape.owners[list_keys] = None
        for n in range(len(list_keys), -1, -1):
            at, sub = list_keys[:n], list_keys[n:]
            pattern = tuple("*" if type(k) is int else k for k in at)
            if (not at or type(at[-1]) is int) and sub in shape.lists_under(pattern):
                shape.owners[list_keys] = (pattern, at, sub)
                break
    return shape.owners[list_keys]


def _view(view: dict) -> tuple:
    """A decoder's ``CALLS`` view with its key paths as tuples: (view, list keys, the test that tells
    a call from the list's other elements (``_call_test``), id keys), read once per view."""
    compiled = _VIEWS.get(id(view))
    if compiled is None or compiled[0] is not view:  # (views are the decoders' constants)
        when = tuple((tuple(k.split(".")), v) for k, v in (view.get("when") or {}).items())
        has = tuple(view["has"]) if view.get("has") else None
        unless = tuple(view["unless"]) if view.get("unless") else None
        compiled = _VIEWS[id(view)] = (view, tuple(view["list"]), _call_test(when, has, unless), tuple(view["id"]))
    return compiled


def _call_test(when: tuple, has: tuple | None, unless: tuple | None) -> Callable[[Any], bool]:
    """Whether an element of a ``CALLS`` view's list is a call, as one expression made once per view
    (keys as literals): every element of the list is tested at every sync."""

    def at(path: tuple) -> str:  # the value at path, None where a step is missing (streaming.get)
        return f"el.get({path[0]!r})" if len(path) == 1 else f"get(el, {path!r})"

    tests = ["type(el) is dict"]
    tests += [f"{at(path)} == {value!r}" for path, value in when]
    tests += [f"{at(has)} is not None"] if has is not None else []
    tests += [f"{at(unless)} is None"] if unless is not None else []
    return eval("lambda el: " + " and ".join(tests), {"__builtins__": {"type": type, "dict": dict}, "get": get})  # noqa: S307 (keys and JSON values as literals)


def _is_call(compiled: tuple, el: Any) -> bool:
    """Whether ``el``, an element of the view's list, is a call (``_view``)."""
    return compiled[2](el)


def _parsed(st: StreamState, body: dict, memo: dict, final: bool) -> tuple[dict, list]:
    """``body`` (a copy of ``st.body``; ``memo``: id() of each object copied → its copy) with the
    JSON still in fragments parsed, as at the end of the stream; and what did not parse."""
    snap = StreamState(st.provider, False)
    snap.body = body
    snap.buffers = {id(memo[k]): (memo[k], {f: list(v) for f, v in e[1].items()}) for k, e in st.buffers.items() if k in memo}
    snap.ended = True
    with warnings.catch_warnings():
        if not final:
            warnings.simplefilter("ignore")
        body = snap.finish(())
    return body, snap.invalid


class _Routes(dict):
    """The encoder's routes: (id(source element), source keys) → where that field's fragments go in
    the client's body ((element path, pattern, field[, part]): a tuple), None (nowhere) or _MISSING
    (to be found again), with the keys of the routes into each element path (``into``: only paths
    some route goes into). Ending an element finds its routes there, and creating one asks it
    whether a route goes into it, without a walk over every route: a stream of many calls into a
    target whose elements end (their routes are dropped then) stays linear. (Only ``[key] =`` and
    ``pop`` change it.)"""

    __slots__ = ("into",)

    def __init__(self) -> None:
        super().__init__()
        self.into: dict[tuple, dict] = {}  # element path → {route key: None}, in the order they were set

    def __setitem__(self, key: tuple, value: Any) -> None:
        if type(dict.get(self, key)) is tuple:
            self._drop(key)
        dict.__setitem__(self, key, value)
        if type(value) is tuple:
            self.into.setdefault(value[0], {})[key] = None

    def pop(self, key: tuple, default: Any = None) -> Any:
        if type(dict.get(self, key)) is tuple:
            self._drop(key)
        return dict.pop(self, key, default)

    def _drop(self, key: tuple) -> None:
        path = dict.__getitem__(self, key)[0]
        keys = self.into[path]
        del keys[key]
        if not keys:
            del self.into[path]

    def go_under(self, path: tuple) -> bool:
        """Whether a route goes into the element at ``path`` or an element inside it."""
        n = len(path)
        return any(p[:n] == path for p in self.into)


def _layout_of(response: Any) -> tuple:
    """(model, the kinds of its parts) of an IR response: what the route and layout caches are
    keyed by (``_MARKS``, ``_STAYS``), not its text."""
    return (getattr(response, "model", None), tuple(getattr(p, "type", None) for p in response.message.parts))


def _route_path(route: tuple) -> tuple:
    """The path of the target text field a route (``Encoder._find_mark``) puts fragments in: the
    element's field, or the text of the part at the end of its list of typed parts."""
    path = route[0] + route[2]
    return path + route[3][:2] if len(route) == 4 else path


def _replaced(node: Any, keys: tuple, value: Any) -> Any:
    """A copy of ``node`` with ``value`` at ``keys``: only the objects along the path are copied."""
    top = out = dict(node) if type(node) is dict else list(node)
    for key in keys[:-1]:  # (a loop, not a call a level: run at every call's sync)
        child = out[key]
        out[key] = out = dict(child) if type(child) is dict else list(child)
    out[keys[-1]] = value
    return top


class Encoder:
    """Target events for a growing source stream (see the module docstring).

    ``feed(source_accumulator, ops)`` after each source event (``ops``: what it changed, from the
    source ``StreamState.log``) and ``finish(source_accumulator)`` at the end each return the target
    events to send, as ``{"event"?, "data"}`` dicts (``toolwire.stream.write`` frames them).
    """

    def __init__(self, target: str, target_decoder: Any, mirror: Accumulator, convert: Callable[[Any, bool], dict], source_decoder: Any, strict: bool = False) -> None:
        self.target = target
        self.shape = Shape.of(target_decoder)
        self.mirror = mirror
        self.mirror.state.log = None
        mirror._known = None  # (the client's mirror decodes the encoder's own events: no key to check)
        self.convert = convert
        self.source_calls = source_decoder.CALLS
        # a stream of the target's own grammar: its elements are its source's, and say what it said
        # (an item it added complete stays so); another's are a converted response's (`opens_with`)
        self.foreign = source_decoder.RULES is not target_decoder.RULES
        text = source_decoder.TEXT
        self.source_text = tuple(text["path"]) if text and "path" in text else None  # (a text field, not parts: _render_calls)
        # (list keys, the values that tell a text part, its text field) of a source whose text comes in parts
        self.text_parts = (tuple(text["list"]), tuple((text.get("when") or {}).items()), tuple(text["field"])) if text and "list" in text else None
        # (source text part, what it holds besides its text) as the last full sync saw it: its end
        # needs no sync while that is all it holds and its text went to the client (_quiet_end)
        self._seen: tuple | None = None
        self.source_closes, self.source_streams_args, self.source_args, self.target_calls = _calls_of_pair(self.shape, source_decoder)
        # the source's calls may interleave: none ends by an event, and their arguments come as text
        # (a call is complete when its text is JSON: _unfinished); the ids of those found complete
        self.interleaves = not self.source_closes and self.source_streams_args
        self._finished: set[int] = set()
        self._waiting: int | None = None  # id() of the call whose completion the calls after it wait for (_held)
        self.strict = strict
        self._calls_owner = _owner_of(self.shape, self.target_calls[0]) if self.target_calls is not None else None
        self.routes = _Routes()  # (id(source element), source keys) → target path (tuple) | None
        self.open: dict[int, tuple] = {}  # id(mirror element) → (list pattern, concrete path) of elements not closed
        self.sent: dict[tuple, int] = {}  # concrete target field path → fragments sent into it
        self.args_dest: set[tuple] = set()  # target argument fields the source's argument text flows into
        self.args_source: dict[tuple, dict] = {}  # each of them → the source call whose text flows into it
        self._rest: tuple | None = None  # (the ops of the source event being fed, the position of the one at hand)
        self._covered: set[int] = set()  # id() of the event's ops whose text was sent whole already (_sent_whole)
        self.started = False
        self.out: list[dict] = []
        self.desired: dict = {}  # the target body as the last sync converted it
        self.count = -1  # the running event number, where the target's events carry one
        self.final = False
        self.unsynced: set = set()  # source fields whose route could not be found yet (their sync failed)
        # a fragment or list item has waited for a sync since the last full one (_sync_call): True, or
        # the source element when all that waits is items pushed into it (its citations: _sync_text)
        self.owed: Any = False
        # (the number of the source's parts, the last of them, whether it was closed) as the last sync
        # (full, or of a window) saw them, when it left the client with the whole body it converted;
        # None otherwise: a text part opened after them converts a window of parts (_sync_text)
        self._window: tuple | None = None
        # during a sync of a window: (the target body before it, each list it changed → the first
        # element changed): the diff walks what changed, not the lists the client has (_diff_list)
        self._partial: tuple | None = None
        # the objects the target body as last synced numbers, by kind (a `fill_format`'s {$n}:
        # Responses' made message ids), as its conversion counted them; None: not known (_sync_call)
        self._numbered: dict | None = None
        # a whole-call target's calls list: how many of its first elements the client has as the last
        # sync wanted them (None: not known since the last full sync); lowered when one of them grows
        self._agreed: int | None = None
        self._effects = 0  # the source's count of changes no op says, as last seen (feed)
        self._growing = False  # a sync for such changes: the elements it creates stay open (feed)
        self.withheld = False  # the last conversion left text out until what follows it is known (_convert)
        self.opening: int | None = None  # id() of the source element whose opening triggered the sync
        self.made_by: dict[int, tuple] = {}  # id(mirror element) → id(source element) it was created for
        self.made_for: dict[int, list] = {}  # id(source element) → mirror elements created for it
        # id(source element) → (source keys, mirror element, event builder, the mirror field's sink
        # (streaming._sink: its container and key, or its JSON fragment list), closable, the event's
        # literal and its values (_builder)) of the source fields whose fragments take the hot path
        # (one field per element: another one takes its place); emptied whenever anything but such
        # a fragment is sent, and at every sync and close (feed)
        self.fast: dict[tuple, tuple] = {}
        self.counted = bool(self.shape.counter)
        self._layout: tuple = ()  # (model, part kinds) of the last partial conversion (_sync_mark)
        # the source's closed elements (StreamState.closed) as of the last sync: its copy of the body
        # shares them, and the marker of a route is never in one (_find_mark)
        self._shared: dict = {}
        # a joined list's path → (its items up to the last, as the last sync converted them; the
        # elements the target's stream made of them: those settled, and the last, running) (_folded)
        self._folds: dict[tuple, tuple] = {}
        # the fused function of the source's repeat path and a fast entry (_step): the next event's
        # hot path while set (cleared at every slow step); and (repeat, fast entry, function) last fused
        self.hot: Callable[[Any], dict | None] | None = None
        self._fused: tuple | None = None
        # the text fields the hot path puts fragments aside for, until the next slow step or _ASIDE
        # events of a run (_flush); and how many `step` took since the last flush
        self._pending: tuple | None = None
        self._aside = 0
        self._marked: tuple | None = None  # (target field path, its source field's key) during a marked sync
        self.ended: set[int] = set()  # id() of the mirror elements whose end the client was told (_close)
        # text the target's stream had gone past when more of it came (after a call): (IR text part's
        # position, where the client's element ends in it, the calls after that element, the target
        # field's path), applied to every conversion in order (_cut, _apply_cuts); a cut found by a
        # sync makes it sync again (_recut), quietly (_again: its reports were made)
        self._response: Any = None  # the IR response of the last conversion of the body (_convert)
        # the number of IR parts of the response as the last sync converted it, before cuts (the
        # positions toolwire's ids of calls without one are made from, layout.finish_response): a
        # call without an id synced alone takes the id its position gives (_sync_call); None before
        # any conversion
        self._ir_parts: int | None = None
        # (how many of the source's calls were looked at for an id of the form toolwire makes
        # (call_r<i>), and whether one was found: synthesized ids avoid it, which only a full sync knows)
        self._r_ids: tuple = (0, False)
        self.cuts: list[tuple[int, int, int, tuple]] = []
        self._rests: dict[int, tuple] = {}  # id() of the rest parts of _response → the field their text began in
        self._recut = False
        self._again = False
        self._ending: int | None = None  # where the final sync's closing events begin (_end_together)

    # -- event building ----------------------------------------------------------------------
    def _event(self, chain: tuple, keys: list, leaf: list, created: tuple | None = None, element_path: tuple | None = None, into: list | None = None) -> dict:
        """One target event along ``chain`` (event name, scopes...). ``keys``: the key of each scope
        (its element's position); ``created``: (scope position, element, pattern[, what identifies
        it, ``_identity``]) when the event creates that element; ``leaf``: (event keys, value) written in the innermost item.
        ``into``: a list that gets the event's payload and its innermost item (``_append``)."""
        name = chain[0]
        body = self.desired
        if name.startswith("["):  # a sentinel such as [DONE]
            return {"data": name}
        (named, head_tags, replays, counter, empty_lists, has_names, replays_after), scopes = self.shape.event_plan(chain)
        ev: dict = {self.shape.naming: name} if named else {}
        if head_tags:
            _put_constants(ev, head_tags)
        if replays:
            _say_repeated(ev, body, replays)
        if counter is not None:
            self.count += 1
            if type(counter) is str:
                ev[counter] = self.count
            else:
                _put(ev, counter, self.count)
        cur = ev
        m_el, d_el = self.mirror.state.body, body  # the element each scope is at, in the mirror and desired
        steps: list = []  # (list keys, position) not yet taken into m_el, d_el (only a scope with `names` reads them)
        depth = -1
        for scope, each_in, tags, when, key_spot, default_key, list_keys, names, same in scopes:
            depth += 1
            if each_in is not None:
                item: dict = {}
                if type(each_in) is str:
                    cur[each_in] = [item]
                else:
                    _put(cur, each_in, [item])
                cur = item
            if tags:
                _put_constants(cur, tags)
            if when:  # the scope applies to items that say so
                _put_constants(cur, when)
            key = keys[depth] if depth < len(keys) else None
            if key_spot is not None and key is not None and key != default_key:
                # (a key equal to the grammar's default is left out, as the wire does)
                if type(key_spot) is str:
                    cur[key_spot] = key
                else:
                    _put(cur, key_spot, key)
            if has_names:
                if list_keys and isinstance(key, int):
                    steps.append((list_keys, key))
                if names and steps:
                    for at_keys, position in steps:
                        m_el, d_el = _at(m_el, at_keys, position), _at(d_el, at_keys, position)
                    steps.clear()
                for event_keys, field in names:  # the event names its element by this field too
                    named_el = created[1] if created is not None and created[0] == depth else m_el if get(m_el, field) is not None else d_el
                    value = get(named_el, field)
                    if value is not None:
                        _put(cur, event_keys, value)
            if same and element_path is not None and not (created is not None and created[0] == depth):
                last = get(self.mirror.state.body, element_path)
                for keys_ in same:  # the fragment continues the element only with these values equal
                    value = get(last, keys_)
                    if value is not None:
                        _put(cur, keys_, value)
            if created is not None and created[0] == depth:
                element, pattern = created[1], created[2]
                if scope["key"] in ("new", "last"):  # a keyless list: the item is the whole element
                    cur.update(_copy(element))
                elif isinstance(scope["new"], tuple):  # the event carries the whole element
                    skeleton = self.shape.skeleton(element, pattern)
                    if self.foreign and "opens_with" in scope:  # (as it is while open: Responses' in_progress)
                        for key, value in scope["opens_with"].items():
                            if key in skeleton:
                                skeleton[key] = value
                    if scope["new"]:
                        _put(cur, scope["new"], skeleton)
                    else:
                        cur.update(skeleton)
                else:  # the element starts from a template: the event carries what identifies it
                    for keys_, value in created[3] if len(created) > 3 else _identity(scope, element):
                        _put(cur, keys_, value)
        for keys_, value in leaf:
            if keys_:
                _put(cur, keys_, value)
            elif isinstance(value, dict):
                cur.update(value)
        for path in empty_lists:
            if get(ev, path) is None:
                _put(ev, path, [])
        if replays_after:
            _say_repeated(ev, body, replays_after)
        for keys_, value in self.shape.always_has:  # (an SDK's chunk.text is "" there, not None)
            _fill(ev, keys_, value)
        if into is not None:
            into += (ev, cur)
        naming = self.shape.naming
        if naming == "key":
            return {"event": name, "data": {name: ev}}
        if naming == "type":
            return {"event": name, "data": ev}
        return {"data": ev}

    def _send(self, event: dict) -> None:
        self.fast.clear()  # the client's body changes otherwise than by a fragment: fragments find their way again
        self.out.append(event)
        self.mirror._add(event)  # (decoded, not replayed or logged: the mirror is never replayed, _forward)

    @staticmethod
    def _when(action: dict) -> list:
        return [(k, v[0] if isinstance(v, list) else v) for k, v in action.get("when", ())]

    # -- the diff: desired target body vs what the client has (the mirror) --------------------
    def _keys_of(self, path: tuple, chain: tuple) -> list:
        """The key (position) of each of a chain's scopes along a concrete path; an item scope (an
        ``each`` without a list) has none."""
        positions = [k for k in path if type(k) is int]
        out: list = []
        n = 0
        for listed in self.shape.list_scopes(chain):
            if listed:
                out.append(positions[n] if n < len(positions) else None)
                n += 1
            else:
                out.append(None)
        return out

    def _append(self, pattern: tuple, path: tuple, field: tuple, fragment: str, fast_key: tuple | None = None, element: Any = None) -> None:
        """Send ``fragment`` into the client's field ``field`` of the element at ``path`` (``element``:
        it, when the caller has it)."""
        if element is None:
            element = get(self.mirror.state.body, path) if path else self.mirror.state.body
        agreed = self._agreed
        if agreed is not None:  # (the client's element changes: it may no longer be as the last sync wanted it)
            n = len(self.target_calls[0])
            if len(path) > n and path[:n] == self.target_calls[0] and path[n] < agreed:
                self._agreed = path[n]
        appender = self.shape.appender_for(pattern, field, element)
        if appender is None:
            return  # no event streams this field of this kind of element: it comes with the element whole
        chain, action, event_keys = appender
        keys = self._keys_of(path, chain)
        leaf = self._when(action)
        made: list = []
        event = self._event(chain, keys, [*leaf, (event_keys, fragment)], element_path=path, into=made)
        if type(fragment) is str and action["op"] in ("append", "append_json") and isinstance(element, dict) and (
                self.shape.keyed(chain) or _continued(chain, action, made[1], element, get(self.mirror.state.body, path[:-1]))):
            # the hot path (a text or argument fragment): what the client's decoder does with this
            # event is appending the fragment to the element its keys name (or to the last element,
            # which the event continues), so the mirror does it directly (tests/test_stream_translate.py
            # checks the mirror against real decoding)
            self.out.append(event)
            self.mirror.state.index += 1
            apply = getattr(self.mirror.state, action["op"])
            apply(element, field, fragment, ())
            if fast_key is not None and event_keys:
                # the next fragments of this source field, until something else is sent or synced,
                # make the same event but for the fragment (and the running number): remember how
                # (the element stays the last one, as it was: an event it continues continues it)
                # (the event itself, its fragment and number standing in as placeholders meanwhile)
                _put(made[1], event_keys, _FRAGMENT)
                if self.shape.counter:
                    _put(made[0], self.shape.counter, _COUNT)
                try:
                    built = _builder(event, (*self.shape.ident(chain), event_keys, self.shape.counter))
                finally:
                    _put(made[1], event_keys, fragment)
                    if self.shape.counter:
                        _put(made[0], self.shape.counter, self.count)
                sink = _sink(self.mirror.state, ("json" if action["op"] == "append_json" else "append", element, field))
                if built is not None and sink is not None:
                    build, literal, values = built
                    self.fast[fast_key[0]] = (fast_key[1], element, build, *sink, pattern in self.shape.closers, literal, values)
        else:
            self._send(event)
        self.sent[path + field] = self.sent.get(path + field, 0) + 1

    def _close(self, mirror_el: dict, desired_el: Any) -> None:
        self.fast.clear()
        pattern, path = self.open[id(mirror_el)]
        inner = [(el_id, p) for el_id, (_lp, p) in self.open.items() if len(p) > len(path) and p[: len(path)] == path]
        for el_id, p in sorted(inner, key=lambda x: -len(x[1])):  # what is open inside it closes first
            if el_id in self.open:
                self._close(get(self.mirror.state.body, p), get(self.desired, p))
        self.open.pop(id(mirror_el))
        if desired_el is not None and desired_el != mirror_el:  # (equal: the client has all of it)
            self._finish_element(pattern, path, desired_el, mirror_el)
        chain = self.shape.closers.get(pattern)
        # (the element as the client has it now: its text is what the fragments sent joined, as the API's is)
        element = get(self.mirror.state.body, path) if self.shape.dones else None
        dones = [c for c in self.shape.dones.get(pattern, ()) if _of_kind(c[-1], element)] if element is not None else ()
        if chain is not None or dones:  # (an element whose end the client is never told still takes fragments: OpenAI's calls by index)
            n = len(path)
            for at in [p for p in self.routes.into if p[:n] == path]:  # (and the elements in it: Responses' text parts)
                for key in list(self.routes.into.get(at, ())):
                    self.routes[key] = _MISSING  # a later fragment finds its place again
            # what restates its complete value (Responses' output_text.done, then content_part.done),
            # then the closing event, with what its rule sets (Responses' output_item.done: the item)
            for done in dones:
                said = self._carried(done, pattern, element)
                if said:  # (a value to restate: a hosted tool's item without code has no code_interpreter_call_code.done)
                    self._send(self._event(done, self._keys_of(path, done), said))
            if chain is not None:
                self._send(self._event(chain, self._keys_of(path, chain), self._carried(chain, pattern, desired_el)))
            self.ended.add(id(mirror_el))

    def _carried(self, chain: tuple, pattern: tuple, element: Any) -> list:
        """What an event along ``chain`` sets in ``element`` (at ``pattern``), as its leaf values."""
        leaf: list = []
        if element is None:
            return leaf
        for body_keys, when, event_keys in self.shape.carried_rules(chain, pattern):
            value = _copy(element) if body_keys == () else get(element, body_keys)
            if value is not None:
                leaf += [*when, (event_keys, value)]
        return leaf

    def _finish_element(self, pattern: tuple, path: tuple, d: dict, m: dict) -> None:
        """Before an element closes: what it lacks is sent (text, list items), JSON fields nothing was
        streamed into are sent whole, and its other fields that changed are set (a signature)."""
        self._grow(pattern, path, d, m)
        for field, (_chain, action, _ek) in self.shape.appenders.get(pattern, {}).items():
            if action["op"] == "push":
                continue
            want = get(d, field)
            if self.sent.get(path + field) and path + field in self.args_dest:
                # argument text of its source call that comes later in this source event (the event
                # that made it end: text cut after the call, _cut) goes before its end
                coming = self._coming(self.args_source[path + field])
                if coming:
                    self._append(pattern, path, field, "".join(op[3] for op in coming))
                    self._covered.update(id(op) for op in coming)
                _keep_sent_json(d, m, field)
                continue
            if self.sent.get(path + field) or want in (None, {}, ""):
                continue
            if action["op"] == "append_json":
                self._append(pattern, path, field, json.dumps(want, ensure_ascii=False))
            elif path + field in self.args_dest and isinstance(want, str):
                self._append(pattern, path, field, want)  # the source sent no argument text: the converter's
            else:
                continue
            self._sent_whole(path + field)
        self._set_fields(pattern, path, d, m, element_only=True)

    def _extensible(self, pattern: tuple, path: tuple, field: tuple, element: Any) -> bool:
        """Whether the target's stream can still add to this element's text field: a stream that
        adds to its list's last element only (Gemini's parts, ``key: last``) has nothing after it.
        (A block that ended takes the text by its index, as the SDKs accumulate: Anthropic's.)"""
        appender = self.shape.appender_for(pattern, field, element)
        scope = appender[0][-1] if appender is not None else None
        if type(scope) is not dict or scope.get("key") != "last" or not path or type(path[-1]) is not int:
            return True
        items = get(self.mirror.state.body, path[:-1])
        return not isinstance(items, list) or len(items) == path[-1] + 1

    def _gone_past(self, path: tuple, element: Any) -> bool:
        """Whether the client was told that this element, or one it is in, ended (Responses' output
        item, done, holds the text part)."""
        ended = self.ended
        if not ended:
            return False
        if id(element) in ended:
            return True
        body = self.mirror.state.body
        return any(type(path[n - 1]) is int and id(get(body, path[:n])) in ended for n in range(1, len(path)))

    def _catch_up(self, pattern: tuple, path: tuple) -> None:
        """A call's element created after some of its argument text arrived unsent (it waited for
        the calls before it to complete, ``_held``; or the text came with the call's start, as
        Cohere's): that text, as one fragment; what comes later in this source event follows by
        its route."""
        dest = path + self.target_calls[2]
        call = self.args_source.get(dest)
        if call is None or self.sent.get(dest):
            return
        text = get(call, self.source_args)
        if type(text) is not str or not text:
            return
        coming = sum(len(op[3]) for op in self._coming(call) if type(op[3]) is str)
        text = text[: len(text) - coming]
        if text:
            self._append(pattern, path, self.target_calls[2], text)

    def _sent_whole(self, dest: tuple) -> None:
        """The arguments were sent whole into ``dest``: text for it that comes later in this source
        event (ops after the one being synced, which the converter's rendering already holds) is
        not sent again by its route."""
        call = self.args_source.get(dest)
        if call is not None:
            self._covered.update(id(op) for op in self._coming(call))

    def _coming(self, call: dict) -> list:
        """The argument fragments of a source call that come later in the source event being fed
        (its ops after the one being synced)."""
        if self._rest is None:
            return []
        ops, at = self._rest
        keys = self.source_args
        return [op for op in ops[at + 1 :] if op[0] == "append" and op[1] is call and op[2] == keys]

    def _set_fields(self, pattern: tuple, path: tuple, d: dict, m: dict, element_only: bool = False) -> None:
        groups: dict[tuple, list] = {}
        streamed = self.shape.appenders.get(pattern, {})
        nested = self.shape.lists_under(pattern)
        seen: set = set()
        rules, _below = self.shape.setters_of(pattern)  # (the rules of this pattern, but for a snapshot's and the closer's)
        objects = type(d) is dict and type(m) is dict
        every_place = self.shape.every_place
        for body_keys, chain, action, event_keys, ident, scope, conditional, key in rules:
            if body_keys in seen and body_keys not in every_place:
                continue  # the first rule that sets a field sends it (terminal alternatives are not repeated)
            if body_keys and conditional and not _satisfiable(scope, action, event_keys, get(d, body_keys)):
                continue  # its event could not say this element (Gemini's signature on a text part: the empty-text rule)
            seen.add(body_keys)
            if body_keys in streamed or body_keys in nested:
                continue
            if body_keys == () and action["op"] == "overlay":  # a snapshot of the whole object (Responses' terminal event)
                if any(m.get(k) != v for k, v in d.items()):
                    groups.setdefault((ident, id(action)), [chain, action, []])[2].append((event_keys, _copy(d), True))
                continue
            if body_keys == () and len(chain) > 1 and chain[-1]["new"] == event_keys:
                # the event carries the element whole, as it could create it (Responses' content_part.done: the part)
                if any(m.get(k) != v for k, v in d.items()):
                    groups.setdefault((ident, id(action)), [chain, action, []])[2].append((event_keys, _copy(d), True))
                continue
            if body_keys == ():  # merge into the object itself: every other field that differs
                kept_out = self.shape.merged_apart(pattern)
                changed = {k: v for k, v in d.items() if k not in kept_out and m.get(k) != v}
                if changed and self.final and not pattern and self.shape.at_end_keys:
                    # the end says what only it says, null too, as the API's does (Anthropic's
                    # message_delta: stop_sequence null beside the stop reason, in every recording)
                    ends = self.shape.at_end_keys
                    changed = {k: v for k, v in d.items() if k not in kept_out and (k in changed or k in ends)}
                if changed:
                    groups.setdefault((ident, id(action)), [chain, action, []])[2].append((event_keys, changed, True))
                continue
            if key is not None and objects:  # (a field of the object itself: most)
                want = d.get(key)
                if want is None:
                    if key in d and key not in m and action["op"] == "set":
                        # a null the body has (OpenAI's `logprobs: null`): said as the wire says it,
                        # so that the client's body has it too
                        groups.setdefault((ident, id(action)), [chain, action, []])[2].append((event_keys, None, True))
                    continue
                have = m.get(key)
            else:
                want, have = get(d, body_keys), get(m, body_keys)
            if want is not None:
                entry = groups.setdefault((ident, id(action)), [chain, action, []])
                entry[2].append((event_keys, want, want != have))
        # an event carries every field its rules set (Anthropic's message_delta: the stop reason and the
        # usage together; Bedrock's toolUse start: its id and name with its type); it is sent when one
        # of them changed. A `first` rule with nothing new stays out: its repeat changes nothing by
        # the grammar's own meaning (OpenAI's finish chunk does not say the role again)
        merged: dict[tuple, list] = {}
        for chain, action, leaf in groups.values():
            changed = any(len(x) < 3 or x[2] for x in leaf)
            entry = merged.setdefault(self.shape.ident(chain), [chain, [], False])
            if changed or action["op"] != "first":
                entry[1].extend([*self._when(action), *((k, v) for k, v, *_ in leaf)])
            entry[2] = entry[2] or changed
        for chain, leaf, changed in merged.values():
            if changed:
                self._send(self._event(chain, self._keys_of(path, chain), leaf))

    def _keep_said(self, desired: dict, final: bool) -> None:
        """The body's values the target's stream says once (`first`: OpenAI Chat's created, in every
        chunk, the first kept; `says_once`: what its start event said, Responses' id) that the
        source changed since the client got them (Ollama's created_at, last wins; Cohere v1's id,
        said only at its end): the desired body keeps the client's, so every event says it, and the
        end reports the later value."""
        m = self.mirror.state.body
        if final:  # (what the end restates: Responses' response.completed)
            for dest in self.args_dest:
                _keep_sent_json(desired, m, dest)
        started = self.shape.says_once if self.started else ()  # (what the start event said: "" too, Responses' id)
        for keys in (*self.shape.replayed, *started):
            have, want = get(m, keys), get(desired, keys)
            if have is None or want is None or have == want or (have == "" and keys not in started):
                continue  # (a `first` field's "": a template's placeholder, not said)
            _put(desired, keys, have)
            if final:
                self._said_once(keys, have, want)

    def _said_once(self, keys: tuple, have: Any, want: Any) -> None:
        """Report a value the client took at the stream's start that the converted response changed
        since (strict: raise ``LossError``)."""
        from .errors import LossError, LossWarning

        message = f"{self.target}'s stream says it once, as {have!r:.60}; the response's later value {want!r:.60} is not in the stream"
        if self.strict:
            raise LossError(where(keys), message)
        warnings.warn(LossWarning(where(keys), message), stacklevel=2)

    def _diff(self, desired: dict, final: bool, held: Callable[[tuple, int], bool]) -> None:
        self.final = final
        self._start(desired)
        self._grow((), (), desired, self.mirror.state.body)  # text fields of the body itself (Ollama's message.content)
        self._diff_lists((), (), desired, self.mirror.state.body, held)
        if final and not self._recut:
            self._ending = len(self.out)  # (the events that end the elements and say the body's last fields: _end_together)
            while self.open:
                pattern, path = next(iter(self.open.values()))
                self._close(get(self.mirror.state.body, path), get(desired, path))
            self._set_all(desired, self.mirror.state.body, (), ())

    def _start(self, desired: dict) -> None:
        """The event that starts the target's message, once (with what the body says so far)."""
        if not self.started:
            self.started = True
            self.desired = desired
            if self.shape.start is not None:
                chain, action = self.shape.start
                skeleton = self.shape.skeleton(desired, ())
                starts = self.shape.start_body
                for keys in self.shape.says_at_end if self.foreign else ():
                    # what only the end says, as the API's start has it (a stream of the target's own
                    # grammar says what its source's start said: a Responses background stream's queued)
                    said = get(starts, keys)
                    if said is not None or get(skeleton, keys) is not None:
                        _put(skeleton, keys, _copy(said))  # (never the decoder module's own object)
                self._send(self._event(chain, [], [(action["path"], skeleton)]))
                if all(get(skeleton, keys) == get(starts, keys) for keys in self.shape.says_at_end):
                    # a start that says what the stream's body starts from is followed by these, with
                    # the same body where the start event has it (response.in_progress)
                    for name in self.shape.restates_start:
                        self._send(self._event((name,), [], [(action["path"], _copy(skeleton))]))
            elif self.shape.begin is not None:  # with what its rules set (Cohere's message-start: id, role)
                chain = self.shape.begin_chain
                self._send(self._event(chain, [], self._carried(chain, (), desired)))

    def _set_all(self, d: Any, m: Any, pattern: tuple, path: tuple) -> None:
        if isinstance(d, dict) and isinstance(m, dict) and d != m:  # (equal: the client has every field)
            self._set_fields(pattern, path, d, m)
            for sub in self.shape.lists_under(pattern):
                ds, ms = get(d, sub), get(m, sub)
                if isinstance(ds, list) and isinstance(ms, list):
                    for i, (de, me) in enumerate(zip(ds, ms)):
                        self._set_all(de, me, pattern + sub + ("*",), path + sub + (i,))

    def _diff_lists(self, pattern: tuple, path: tuple, d: dict, m: dict, held: Callable[[tuple, int], bool]) -> None:
        for sub in self.shape.lists_under(pattern):
            self._diff_list(pattern, path, d, held, sub, -1)

    def _diff_list(self, pattern: tuple, path: tuple, d: dict, held: Callable[[tuple, int], bool], sub: tuple, i: int) -> None:
        """The diff of one list ``sub`` of the element at ``path`` (``d``: it, desired), from its
        element ``i + 1`` on."""
        lp = pattern + sub + ("*",)
        want = get(d, sub) or []
        if isinstance(want, list):
            at = path + sub
            if self._partial is not None:  # (a window's sync: only what it changed)
                old, starts = self._partial
                first = starts.get(at)
                if first is None and want is get(old, at):
                    return  # (a list the splice left as it was: the client has it)
                if first is not None:
                    i = max(i, first - 2)  # (from the element before it: a full sync compares that one too)
            have: Any = None
            sent = -1  # (the client's list is read again once something was sent)
            while i + 1 < len(want) and not self._recut:  # (a cut: the sync is made again, _cut)
                i += 1
                de = want[i]
                if held(lp, i):
                    break
                if sent != len(self.out):
                    sent = len(self.out)
                    have = get(self.mirror.state.body, at)
                    have = have if isinstance(have, list) else []
                ep = at + (i,)
                if i < len(have):
                    me = have[i]
                    if de == me:
                        continue  # the client has it as it should be (nothing to grow, nothing under it to create)
                    self._grow(lp, ep, de, me)
                else:
                    for el_id, (op, opath) in list(self.open.items()):  # one open element per list
                        if op == lp and opath[:-1] == ep[:-1]:
                            self._close(get(self.mirror.state.body, opath), get(d, opath[len(path):]) if opath[: len(path)] == path else None)
                    if not self._create(lp, ep, de):
                        if self.final and _empty(de):  # an empty element the target's stream cannot say: not in its body
                            del want[i]
                            i -= 1
                            continue
                        break  # nothing to say of it yet (an empty text part): it comes with its content
                    have = get(self.mirror.state.body, path + sub)
                    me = have[i] if isinstance(have, list) and len(have) > i else None
                    if me is None and i > 0 and len(have) == i:
                        # the target's stream continued the element before it instead (Gemini joins
                        # consecutive text parts): what the client has is the joined element, and
                        # that is what the target's stream can say — the desired body follows it
                        want[i - 1] = _copy(have[i - 1])
                        del want[i]
                        i -= 2
                        continue
                    if me is None:
                        from .errors import UnsupportedError

                        raise UnsupportedError(where(ep), f"a {self.target} stream cannot carry this element: not translatable as a stream")
                    self.open[id(me)] = (lp, ep)
                    self._grow(lp, ep, de, me)
                    if self.args_source:
                        self._catch_up(lp, ep)
                    if self.opening is not None:  # it stays open while its source element is
                        self.made_for.setdefault(self.opening, []).append(me)
                        self.made_by[id(me)] = (self.opening, lp, ep)
                    elif lp in self.shape.closers and not self.routes.go_under(ep) and not self._growing:
                        # nothing flows into it (no route ends in it): complete now, once what it holds is created
                        if isinstance(de, dict) and isinstance(me, dict):
                            self._diff_lists(lp, ep, de, me, held)
                        self._close(me, de)
                        continue
                if isinstance(de, dict) and isinstance(me, dict):
                    self._diff_lists(lp, ep, de, me, held)

    def _create(self, lp: tuple, ep: tuple, element: Any) -> bool:
        """Send the event that creates ``element`` at ``ep``: the creating rule whose event can say
        what this element is (the whole element, its identity, or its first text), in grammar order."""
        keyless = None
        for chain in self.shape.all_creators.get(lp, ()):
            scope = chain[-1]
            if scope["key"] in ("new", "last"):
                keyless = chain
                continue
            whole = isinstance(scope["new"], tuple)
            identity = () if whole else _identity(scope, element)
            if whole or identity:  # (what identifies it, found once: the event writes it)
                self._send(self._event(chain, self._keys_of(ep, chain), [], created=(len(chain) - 2, element, lp, identity)))
                return True
        if lp in self.shape.extenders:  # appended whole to the list by an `extend`
            chain, event_keys = self.shape.extenders[lp]
            self._send(self._event(chain, self._keys_of(ep, chain), [(event_keys, [_copy(element)])]))
            return True
        if _empty(element):
            return False  # nothing to say of it (yet): it comes with its content
        if keyless is not None:  # a list without keys: the item is the whole element
            self._send(self._event(keyless, self._keys_of(ep, keyless), [], created=(len(keyless) - 2, element, lp)))
            return True
        creators = self.shape.all_creators.get(lp, ())
        for field, (chain, action, event_keys) in self.shape.appenders.get(lp, {}).items():  # created by its first fragment
            value = get(element, field)
            if action["op"] in ("append", "append_parts") and isinstance(value, str) and value and chain in creators:
                self._send(self._event(chain, self._keys_of(ep, chain), [*self._when(action), (event_keys, value)]))
                return True
        for pattern, field, chain, action, event_keys in self.shape.setters:  # or by a value a creating event sets
            # (Bedrock: a reasoningContent with no text, only its signature, opens with the signature's delta)
            if pattern == lp and field is not None and chain in creators and action["op"] == "set" and not _conditional(action):
                value = get(element, field)
                if value not in (None, "", [], {}):
                    self._send(self._event(chain, self._keys_of(ep, chain), [(event_keys, _copy(value))]))
                    return True
        chain = self.shape.creators[lp]
        self._send(self._event(chain, self._keys_of(ep, chain), [], created=(len(chain) - 2, element, lp)))
        return True

    def _grow(self, pattern: tuple, path: tuple, d: Any, m: Any) -> None:
        """Streamed text fields of an existing element: send what the client does not have yet."""
        at = held = None  # the keys of the object last read (shared by its fields: grown), and it
        for field, op, parent, key in self.shape.grown(pattern):
            if parent is not at:
                at = parent
                held = get(d, parent) if parent else d
            want = held.get(key) if type(held) is dict else get(held, (key,))
            if want is None:
                if op == "append" and isinstance(held, dict) and key in held and not StreamState.carries(m, field):
                    # a null the body has (OpenAI's `refusal: null`): said as the wire says it, so that
                    # the client's body has it too
                    self._append(pattern, path, field, None, element=m)
                continue  # (nothing to send: most fields of most elements)
            if op == "push":  # items appended to a list (citations): the ones not sent yet
                have = get(m, field) or []
                if isinstance(want, list) and len(want) > len(have) and want[: len(have)] == have:
                    for item in want[len(have):]:
                        self._append(pattern, path, field, item)
                continue
            if self.args_dest and path + field in self.args_dest:
                continue  # the source's argument text flows here as it was sent (its spelling kept)
            have = get(m, field)
            if op == "append_parts" and isinstance(want, list):
                rest = _parts_to_send(want, have, where(path + field), self.target)
                if rest:  # content as a list of typed parts (Mistral): what the client lacks
                    self._append(pattern, path, field, rest)
                continue
            if not isinstance(want, str) or want == have:
                continue
            have = have or ""  # (an empty fragment still makes the field "" rather than absent)
            if not want.startswith(have):
                from .errors import UnsupportedError

                raise UnsupportedError(where(path + field), f"the {self.target} response lays out text differently once more of the stream arrived ({have[-30:]!r} sent, now {want[-30:]!r}): a translated stream cannot take back what it sent")
            if self._gone_past(path, m) or not self._extensible(pattern, path, field, m):
                # the target's stream has gone past this element (its end was sent: Anthropic's
                # content_block_stop; or elements came after it: Gemini's parts): the text that came
                # later (after a call: OpenAI's content beside tool_calls) becomes an element of its own
                if self._cut(path + field, have, want):
                    continue
                from .errors import UnsupportedError

                raise UnsupportedError(where(path + field), f"the {self.target} stream has gone past this element ({have[-30:]!r} sent), and text that came later ({want[len(have):][:30]!r}) belongs to it in the converted response (the source's text went on after what follows it): a translated stream cannot take back what it sent")
            marked = self._marked
            self._append(pattern, path, field, want[len(have):], marked[1] if marked is not None and marked[0] == path + field else None)

    # -- driving ---------------------------------------------------------------------------
    def _convert(self, src: Accumulator, body: dict, invalid: list, final: bool, whole: bool = False) -> dict | None:
        """The target body the source body so far converts to (through the IR, as ``accumulate`` gives
        it); None before the source has said anything of its message (what a converter renders for
        an empty message, Responses' empty message item, is a placeholder, not content), unless
        ``whole`` (the message is started all the same)."""
        if final and not self._again:
            response = src.response_of(body, invalid, self.strict)
            self._ir_parts = len(response.message.parts)
            self._response = response = self._apply_cuts(response)
            return self.convert(response, self.strict)
        # (quiet: a partial conversion reports nothing; the final one reports what there is to report,
        # once: a sync again after a cut does not report it again)
        response = src.response_of(body, invalid, False, quiet=True)
        self._ir_parts = len(response.message.parts)
        response = self._apply_cuts(response)
        self._response = response
        if final:
            return self.convert(response, False, quiet=True)
        if not response.message.parts and self.shape.start is None and self.shape.begin is None and not whole:
            self.started = True  # (nothing to say yet, and no event that starts the message: _start)
            return None
        self._layout = _layout_of(response)
        self.withheld = False
        if not self._trailing_text_stays(response, self._layout):
            # where the text after the last call goes depends on what follows it (Cohere: before
            # a call it is the plan, else the answer): it waits until that is known, and so does
            # what came after it (reasoning sent now would take the place the answer has if no call
            # comes)
            parts = response.message.parts
            first = next((i for i in range(_after_last_call(parts), len(parts)) if getattr(parts[i], "type", None) == "text"), None)
            if first is not None:
                self.withheld = True
                del parts[first:]
        self._numbered = {}
        desired = self.convert(response, False, quiet=True, numbers=self._numbered)
        if not response.message.parts:
            self._start(desired)
            return desired if whole else None
        return desired

    def _sync(self, src: Accumulator, mark: tuple | None = None, final: bool = False) -> None:
        self._recut = False
        self._sync_once(src, mark, final)
        again, self._again = self._again, True
        try:
            while self._recut:  # (a cut changed the layout: the sync is made again with it)
                self._recut = False
                self._sync_once(src, mark, final)
        finally:
            self._again = again

    def _sync_once(self, src: Accumulator, mark: tuple | None, final: bool) -> None:
        self.fast.clear()
        self._agreed = self._window = None

        st = src.state
        # a copy, so that nothing the target body and its events take from it changes as the stream
        # goes on; at the end (no JSON in fragments, no marker) nothing changes it any more. A closed
        # element changes no more either: the copy shares it (memo), so that a sync copies what is
        # open, not the whole body again (a long answer's many blocks); the marked one is copied
        memo: dict = dict(st.closed)
        self._shared = st.closed
        if mark is not None:
            memo.pop(id(mark[0]), None)
        body = st.body if final and not st.buffers and mark is None else copy_body(st.body, memo)
        invalid: list = []
        if st.buffers:
            body, invalid = _parsed(st, body, memo, final)
        twin = None
        if mark is not None:
            element, keys = mark
            twin = memo.get(id(element)) if keys else None
        if twin is not None:
            desired = self._sync_mark(src, body, invalid, element, keys, twin)
            if desired is None:
                return
        else:
            try:
                desired = self._convert(src, body, invalid, final)
                if desired is None:
                    return
            except ConversionError:
                if final:
                    raise
                # the source body is not a complete response yet (Cohere's finish reason and Ollama's
                # `done` come last): nothing is synced now; the next sync, at the latest the final one,
                # sends what this one would have
                if mark is not None:
                    self.routes.pop((id(mark[0]), mark[1]), None)
                    self.unsynced.add((id(mark[0]), mark[1]))
                return
            if self.shape.joins:
                desired = self._project(desired, fold=True)
            if mark is not None:
                self.routes[(id(mark[0]), mark[1])] = self._find_mark(desired)
        self._keep_said(desired, final and not self._again)
        self.desired = desired
        source = self._calls(self.source_calls, src.state.body) if self.target_calls is not None else []
        self._route_calls(src, desired, source)
        route = self.routes.get((id(mark[0]), mark[1])) if mark is not None else None
        # the marked field's text that this sync sends takes its fragment event as the hot path's
        # template (_grow), as the next fragment would have
        self._marked = (route[0] + route[2], (id(mark[0]), mark[1])) if type(route) is tuple and len(route) == 3 else None
        held = self._held(src, desired, final, source)
        try:
            self._diff(desired, final, held)
        finally:
            self._marked = None
        self.owed = False
        self._seen = self._window = None
        if self.text_parts is not None and not final:
            last = self._text_part(src)
            if last is not None:
                self._seen = (last, self._besides_text(last))
            items = get(st.body, self.text_parts[0])
            if held is _NEVER and not self.withheld and not self.cuts and not self._recut and type(items) is list and items:
                self._window = (len(items), items[-1], id(items[-1]) in st.closed)

    def _sync_call(self, src: Accumulator, element: dict, ops: list, closing: bool = False) -> bool:
        """The sync at the opening or the end of a source call (``element``) when only that call can
        have changed: it converts that call, and the call before it when the client's element for it
        ends now or the call comes out now, not the whole body (False: a full sync is needed). The
        client gets what a full sync would send. So each call costs the same however many calls came
        before, and a stream of many calls stays linear.

        The target's response converter renders a call alone, into one element of its calls list:
        it is checked here that the rendered calls are that list's last elements. A call of a
        target that streams arguments is at the end of the list from its opening; a whole-call
        target's call waits at the end of the list until it is complete (``_held``). Used when the
        event did nothing but open or end the call and add to it, the call is the last element of
        its list, the client has the list as the last sync left it, and nothing waits for a full
        sync (``owed``). A call without an id takes the one toolwire makes from its position among
        the response's parts (``_render_calls``), as the whole response's conversion gives it.
        Values outside the call go with the next full sync, as every value but a fragment does; a
        value every event says as the body has it then (Gemini's usage so far) is taken from the
        call's conversion; but for one that every target event repeats (a fingerprint first sent with
        this event: no op says such a change), which a full sync sends now, with this call."""
        calls = self.target_calls
        if calls is None or not self.started or self.owed or self.withheld or self._calls_owner is None:
            return False
        for op in ops:
            if op[1] is not element or op[0] not in ("open", "close", "append", "json"):
                return False
        compiled = _view(self.source_calls)
        items = get(src.state.body, compiled[1])
        if type(items) is not list or items[-1] is not element or not _is_call(compiled, element):
            return False
        call_id = get(element, compiled[3])
        # a call without an id gets toolwire's, made from its position among the response's parts
        # (call_r<i>, layout.finish_response): known when the calls kept are the response's last parts
        # and no id of the source's calls has that form (which a made one avoids)
        synthesized = type(call_id) is not str or not call_id
        if synthesized and (self._ir_parts is None or self._made_ids_taken(items, compiled[3])):
            return False
        tlist, pattern, args, streams = calls
        have = get(self.mirror.state.body, tlist)
        want = get(self.desired, tlist)
        have = [] if have is None else have  # (no call yet)
        want = [] if want is None and get(self.desired, tlist[:-1]) is not None else want
        if type(want) is not list or type(have) is not list:
            return False
        previous = items[-2] if len(items) > 1 and _is_call(compiled, items[-2]) else None
        n = len(have)
        held = _NEVER
        if streams:  # (its element is the list's last from the call's opening)
            if len(want) != n:
                return False
            if closing:
                route = self.routes.get((id(element), self.source_args))
                if not n or type(route) is not tuple or route[0] != tlist + (n - 1,):
                    return False
                keep, replace = (element,), 1
            else:
                keep, replace = (element,), 0
                for el_id, (lp, ep) in self.open.items():
                    if lp == pattern and ep[:-1] == tlist:  # (it ends now: rendered again for its end)
                        made = self.made_by.get(el_id)
                        if made is None or previous is None or made[0] != id(previous) or ep[-1] != n - 1:
                            return False
                        if self.interleaves and not self._complete(previous):
                            return False  # (its block stays open, this call waits: _held)
                        keep, replace = (previous, element), 1
        else:  # a whole-call target: a call waits at the end of the list until it is complete
            waiting = len(want) - n
            if waiting not in (0, 1) or (waiting and not _is_call(_view(self.shape.calls_view), want[-1])):
                return False
            agreed = min(self._agreed or 0, n)  # (what is known to be as the last sync wanted it is not compared again)
            if want[agreed:n] != have[agreed:]:  # (the client has the list as the last sync wanted it: what ends now needs nothing more)
                return False
            if closing and not waiting:
                # the call came out whole at its opening, by this event (a Gemini chunk's whole call
                # opens and ends it) or an earlier one: its end changes nothing the client has
                return (id(element), self.source_args) in self.routes
            if closing:  # (the call waiting is this one: complete now)
                keep, replace = (element,), 1
            else:
                keep, replace = (element,), 0
                if waiting:  # (the call waiting is the one before: complete now, it comes out)
                    if previous is None or (self.interleaves and not self._complete(previous)):
                        return False
                    keep, replace = (previous, element), 1
                if not self._last_complete(src, element):
                    position = n + len(keep) - 1
                    held = lambda lp, i: lp == pattern and i >= position  # noqa: E731
        # (the kept calls' positions among the response's parts: they are its last ones, the
        # `replace` of them already there)
        first = (self._ir_parts or 0) - replace
        rendered = self._render_calls(src, compiled[1], keep, range(first, first + len(keep)))
        if rendered is None:
            return False
        if self.shape.joins:
            rendered = self._project(rendered)
        shape = self.shape
        top = shape.replayed_top  # (a value every event repeats changed, such as a fingerprint first sent
        if top and tuple(map(rendered.get, top)) != tuple(map(self.desired.get, top)):  # with this event: a full sync sends it now)
            return False
        for keys in shape.replayed_deep:
            if get(rendered, keys) != get(self.desired, keys):
                return False
        # a value every event says as the body has it then (Gemini's usage so far) is taken as it
        # is now: the call's events say it, as a full sync's would
        newer = [(keys, value) for keys in shape.said_every if (value := get(rendered, keys)) != get(self.desired, keys)]
        if any(value is None or (len(keys) > 1 and get(self.desired, keys[:-1]) is None) for keys, value in newer):
            return False  # (one the body no longer has, or has nowhere yet: a full sync)
        got = self._calls(self.shape.calls_view, rendered)
        listed = get(rendered, tlist)
        if len(got) != len(keep) or [i for i, _el in got] != list(range(len(listed) - len(keep), len(listed))):
            return False
        start = len(want) - replace
        self.fast.clear()
        self.desired = desired = _replaced(self.desired, tlist, [*want[:start], *(el for _i, el in got)])
        for keys, value in newer:
            self.desired = desired = _replaced(desired, keys, value)
        key = (id(element), self.source_args)
        if key not in self.routes:  # (as _route_calls would set it)
            at = tlist + (start + len(keep) - 1,)
            self.routes[key] = (at, pattern, args) if streams else None
            if streams:
                self.args_dest.add(at + args)
                self.args_source[at + args] = element
        owner, path, sub = self._calls_owner
        self._diff_list(owner, path, get(desired, path) if path else desired, held, sub, start - 1)
        if self._recut:  # (text the client's stream had gone past: a full sync with the cut)
            self._sync(src)
        elif not streams:  # (the list before `start` was as wanted, and this sync left it alone)
            self._agreed = start
        if self._ir_parts is not None:
            self._ir_parts += len(keep) - replace
        self._window = self._numbered = None
        return True

    def _made_ids_taken(self, items: list, id_keys: tuple) -> bool:
        """Whether an id of the source's calls has the form of toolwire's made ids (call_r<i>): a
        made id avoids the ids taken, which only the whole response knows. (The calls looked at
        before are not looked at again: the list only grows.)"""
        seen, found = self._r_ids
        if not found and seen < len(items):
            found = any(type(i := get(item, id_keys)) is str and i.startswith(RESPONSE_ID_PREFIX) for item in items[seen:] if type(item) is dict)
            self._r_ids = (len(items), found)
        return found

    def _text_part(self, src: Accumulator, element: Any = None) -> Any:
        """The source's last element of its parts list when it is a text part (and is ``element``,
        when given): the text view's values and a text field (a string), else None."""
        list_keys, when, field = self.text_parts
        items = get(src.state.body, list_keys)
        if type(items) is not list or not items:
            return None
        last = items[-1]
        if type(last) is not dict or (element is not None and last is not element) or type(get(last, field)) is not str:
            return None
        for key, value in when:
            if last.get(key) != value:
                return None
        return last

    def _besides_text(self, element: dict) -> dict:
        """What a source text part holds besides its text (a copy: compared at its end, _quiet_end)."""
        field = self.text_parts[2]
        seen = copy_body(element, {})
        if get(seen, field) is not None:
            _put(seen, field, None)
        return seen

    def _quiet_start(self, src: Accumulator, element: dict) -> bool:
        """An event that did nothing but open an empty source text part needs no sync: the target's
        element for it, if any, is made by the sync at its first fragment (that sync finds its route
        anyway) or at its end, which send what this one would have, in the same order. So a text
        part costs one full conversion, not three (Anthropic's cited answers: many short blocks)."""
        if self.text_parts is None or not self.started or self.owed or self.withheld or self.cuts or self._waiting is not None:
            return False
        return self._text_part(src, element) is not None and get(element, self.text_parts[2]) == ""

    def _quiet_end(self, src: Accumulator, element: dict) -> bool:
        """An event that did nothing but end a source text part needs no sync when the last full
        sync saw that part, its text since went to the client along its route (nothing waits:
        ``owed``) and it holds nothing else than then: the target's element for it stays open until
        the next one anyway (feed), and a change no op says elsewhere goes with the next sync, as
        any such change does."""
        seen = self._seen
        if seen is None or seen[0] is not element or self.owed or self.withheld or self.cuts:
            return False
        if self.routes.get((id(element), self.text_parts[2]), _MISSING) is _MISSING:
            return False
        return self._text_part(src, element) is not None and self._besides_text(element) == seen[1]

    def _sync_text(self, src: Accumulator, element: dict, keys: tuple, owed: Any) -> bool:
        """The sync at the first fragment of a source text part (``element``, its text field
        ``keys``) opened right after the part the last full sync saw last, when nothing changed
        since but that part's text along its route and what this one holds (its citations:
        ``owed``). It converts a window, not the body: the last part (or two) alone, then with
        this one (``_window_bodies``); and splices the change between the two into the target
        body the last sync converted (``splice``), which takes the client's text of the last part.
        The new part's route is where a marker at the end of its text lands in the window, moved
        into the body.
        The client gets what a full sync would send, and each text part costs the same however
        many came before (a long cited answer opens one every sentence or two).

        False (a full sync is needed) when the window's change is not one a splice says (text
        beside calls, a list whose window is empty, a string that becomes a list), the window
        numbers objects otherwise than the body would, the marker changes more than its place, or
        text after it may go elsewhere once more comes (``_trailing_text_stays``, of the window)."""
        base = self._window
        text = self.text_parts
        if base is None or keys != text[2] or (owed is not False and owed is not element) or self.withheld or self.cuts or self._waiting is not None:
            return False
        st = src.state
        items = get(st.body, text[0])
        count, last, closed = base
        if st.buffers or type(items) is not list or len(items) != count + 1 or items[-2] is not last or items[-1] is not element or self._text_part(src, element) is None:
            return False
        old = self.desired
        if not closed:  # its text went on along its route: the body before takes the client's text
            seen, route = self._seen, self.routes.get((id(last), keys))
            if seen is None or seen[0] is not last or type(route) is not tuple or self._besides_text(last) != seen[1]:
                return False
            at = _route_path(route)
            have = get(self.mirror.state.body, at)
            if type(have) is not str:
                return False
            old = _replaced(old, at, have)
        self._shared = st.closed
        # the window is the last part, or the last two where the last alone converts otherwise than
        # in the body (Mistral's content: a string for one plain part, a list for more) or shows
        # nothing the new part follows (a block Gemini drops: the text after it joins the text before)
        for width in (1, 2):
            window = self._window_bodies(src, items[-1 - width : -1], element, keys)
            if window is None:
                return False
            small, grown, plain, parts, numbered = window
            route = self._find_mark(grown)  # (and the marker taken out)
            if route is None or (plain is not None and grown != plain):  # (no place, or the marker changed more than its place)
                return False
            starts: dict = {}
            try:
                desired = splice(old, small, grown, starts)
                break
            except Unspliced:
                if width == 2 or len(items) < 3:
                    return False
        at = moved(_route_path(route), grown, desired)
        # (the element's path moved; a part of a list of typed parts keeps its place from the end too)
        route = (at[: len(route[0])], *route[1:3]) + (((at[-2], *route[3][1:]),) if len(route) == 4 else ())
        self.fast.clear()
        self._agreed = None
        self._keep_said(desired, False)
        self.desired = desired
        self.routes[(id(element), keys)] = route
        self._marked = (route[0] + route[2], (id(element), keys)) if len(route) == 3 else None
        self._partial = (old, starts)
        try:
            self._diff(desired, False, _NEVER)
        finally:
            self._marked = self._partial = None
        if self._recut:  # (text the client's stream had gone past: the full sync finds the cut)
            self._sync(src, mark=(element, keys))
            return True
        self.owed = False
        if self._ir_parts is not None:
            self._ir_parts += parts
        self._numbered = numbered
        self._window = (len(items), element, False)
        self._seen = (element, self._besides_text(element))
        return True

    def _window_bodies(self, src: Accumulator, lasts: list, element: dict, keys: tuple) -> tuple | None:
        """The target bodies of the source body with only its parts ``lasts`` and with them and
        ``element`` (a marker at the end of its text), as the target's stream can say them; that
        window without the marker when the text is blank (what converters drop: compared, the
        marker taken out); the IR parts ``element`` adds; and what the body numbers with it (None:
        not known). None when the window does not convert, its trailing text may move
        (``_trailing_text_stays``), or it numbers objects otherwise than the body would."""
        st = src.state
        list_keys = self.text_parts[0]
        memo = dict(st.closed)
        before, marked = [copy_body(last, memo) for last in lasts], copy_body(element, {})
        fragment = get(element, keys)
        _put(marked, keys, fragment + MARK)
        windows = [before, [*before, marked]]
        if not fragment.strip():  # (what converters do by a text's content: drop it when blank, Bedrock)
            windows.append([*before, copy_body(element, {})])
        try:
            responses = [src.response_of(_replaced(st.body, list_keys, window), [], False, quiet=True) for window in windows]
        except ConversionError:
            return None
        if not self._trailing_text_stays(responses[1], _layout_of(responses[1])):  # (the probe's marker goes after this one: the same place)
            return None
        # objects a conversion numbers (Responses' made message ids, msg_<n>) are numbered in the
        # order they are rendered: the window's are the body's last ones, numbered from what the
        # body numbers less what the window's parts before the new one number (the splice checks
        # them against the body's); the new part's come after them, as in the body's conversion
        body = self._numbered
        counted: dict = {}
        try:
            small = self.convert(responses[0], False, quiet=True, numbers=counted)
            if body is None:  # (not known: the window may number nothing)
                seed: dict = {}
                if counted:
                    return None
            else:
                seed = {kind: body.get(kind, 0) - counted.get(kind, 0) for kind in body.keys() | counted.keys()}
                if any(n < 0 for n in seed.values()):
                    return None
                if counted:
                    small = self.convert(responses[0], False, quiet=True, numbers=dict(seed))
            numbers = [dict(seed) for _ in responses[1:]]
            bodies = [small, *(self.convert(r, False, quiet=True, numbers=n) for r, n in zip(responses[1:], numbers))]
        except ConversionError:
            return None
        if any(n != numbers[0] for n in numbers) or (body is None and numbers[0]):
            return None
        if self.shape.joins:  # (as the target's stream can say them: Gemini joins consecutive text parts)
            bodies = [self._project(b) for b in bodies]
        plain = bodies[2] if len(bodies) == 3 else None
        return bodies[0], bodies[1], plain, len(responses[1].message.parts) - len(responses[0].message.parts), numbers[0] if body is not None else None

    def _render_calls(self, src: Accumulator, list_keys: tuple, keep: tuple, positions: range) -> dict | None:
        """The target body of the source body with only the calls ``keep`` in its list and no text
        (None when it does not convert). The calls are copied (their JSON in fragments is parsed in
        the copy); the rest is read by the conversion, not changed, and shared. A call without an id
        takes the one toolwire makes at its position among the whole response's parts
        (``positions``, in order), as the whole response's conversion gives it."""
        st = src.state
        memo: dict = {}
        body = _replaced(st.body, list_keys, [copy_body(item, memo) for item in keep])
        text = self.source_text
        if text is not None and get(body, text) is not None:
            body = _replaced(body, text, None)
        invalid: list = []
        if st.buffers:
            body, invalid = _parsed(st, body, memo, False)
        try:
            response = src.response_of(body, invalid, False, quiet=True)
            calls = [p for p in response.message.parts if getattr(p, "type", None) == "tool_call"]
            if len(calls) != len(keep):
                return None
            for call, i in zip(calls, positions):
                if call.synthetic_id:
                    call.id = response_call_id(i)
            return self.convert(response, False, quiet=True)
        except ConversionError:
            return None

    def _sync_mark(self, src: Accumulator, body: dict, invalid: list, element: dict, keys: tuple, twin: dict) -> dict | None:
        """The target body for a sync at the first fragment of a source text field (``element`` at
        ``keys``; ``twin``: it in ``body``), and the field's route: where the converter puts its text,
        shown by a marker at its end. The route is known from an earlier stream of the same layout
        when the target body holds the field's text at its end there (one conversion, not two)."""
        unmarked = get(twin, keys)
        plain: Any = None
        try:
            plain = self._convert(src, body, invalid, False)
        except ConversionError:
            plain = _MISSING
        layout = None
        if plain is not None and plain is not _MISSING:
            plain = self._project(plain, fold=True) if self.shape.joins else plain
            layout = (self.target, self._layout, _path_to(src.state.body, element), keys)
            route = _MARKS.get(layout)
            if route is not None and type(unmarked) is str and unmarked and type(at := get(plain, route[0] + route[2])) is str and at.endswith(unmarked):
                self.routes[(id(element), keys)] = route
                return plain
        _put(twin, keys, (unmarked or "") + MARK)
        try:
            desired = self._convert(src, body, invalid, False, whole=plain is None)
        except ConversionError:
            # the source body is not a complete response yet (Cohere's finish reason and Ollama's
            # `done` come last): nothing is synced now; the next sync, at the latest the final one,
            # sends what this one would have
            desired = _MISSING
            self.routes.pop((id(element), keys), None)
            self.unsynced.add((id(element), keys))
        if desired is None or desired is _MISSING:
            _put(twin, keys, unmarked)
            return None
        desired = self._project(desired) if self.shape.joins else desired
        route = self._find_mark(desired)
        # (only now, and not by slicing: the target body may share the object, and holds the marker until _find_mark)
        _put(twin, keys, unmarked)
        if plain is None:
            # the message has nothing else to say yet (a dialect's reasoning_content before any
            # content): where this field goes is known all the same, so its next fragments take the
            # route, or, when it has no place in the target (dropped, and the final conversion
            # reports it), need no sync each
            self.routes[(id(element), keys)] = route
            return desired if route is not None else None
        if plain is not None and plain is not _MISSING and plain != desired:
            # the marker kept text the converter drops (Bedrock's blank text): its place is not
            # known yet, a later sync sends it
            route, desired = None, plain
        elif layout is not None and route is not None and len(route) == 3:
            if len(_MARKS) > 4096:
                _MARKS.clear()
            _MARKS[layout] = route
        self.routes[(id(element), keys)] = route
        return desired

    def _cut(self, field: tuple, have: str, want: str) -> bool:
        """Text for a target element the client's stream has gone past (``field``: the element's
        text field; ``have``: what the client has of it, ``want``: what the converter puts there):
        the IR text part that converts to ``want`` is cut where the client's text ends, and its
        rest becomes a part of its own after the calls the client has after that element, in this
        and every later conversion (the sync is made again with it: ``_recut``); reported at the end
        (``LayoutWarning``). False when no IR text part converts to this text."""
        if self._partial is not None:  # (a window's sync: the full sync that follows finds the cut)
            self._recut = True
            return True
        response = self._response
        if response is None:
            return False
        calls = self.target_calls
        after = self._calls(self.shape.calls_view, self.mirror.state.body) if calls is not None else []
        if calls is not None and len(field) > len(calls[0]) and field[: len(calls[0])] == calls[0]:
            after = [c for c in after if c[0] > field[len(calls[0])]]  # (the calls after it in its own list)
        for p, part in enumerate(response.message.parts):
            if getattr(part, "type", None) != "text" or part.text.replace(MARK, "") != want:
                continue
            cut = (p, len(have), len(after), self._rests.get(id(part), field))  # (reported where the text began)
            try:
                trial = self.convert(_cut_parts(response, (cut,)), False, quiet=True)
            except ConversionError:
                continue
            trial = self._project(trial) if self.shape.joins else trial
            if type(got := get(trial, field)) is str and got.replace(MARK, "") == have:
                self.cuts.append(cut)
                self._recut = True
                if calls is not None:  # the calls the client lacks come after the rest: found again (_route_calls)
                    n = len(get(self.mirror.state.body, calls[0]) or ())
                    for dest in [d for d in self.args_dest if d[len(calls[0])] >= n]:
                        self.args_dest.discard(dest)
                        self.routes.pop((id(self.args_source.pop(dest)), self.source_args), None)
                return True
        return False

    def _apply_cuts(self, response: Any) -> Any:
        if not self.cuts:  # (almost every stream: nothing to do, nothing made)
            return response
        self._rests = {}
        return _cut_parts(response, self.cuts, self._rests)

    def _report_cuts(self) -> None:
        """Report each cut (``_cut``): the translated stream lays the response out otherwise than
        the response converted whole, and loses nothing."""
        from .errors import LayoutWarning

        for field in dict.fromkeys(cut[3] for cut in self.cuts):
            message = f"the {self.target} stream had gone past this element when more of its text came (the source's text went on after a call): that text is an element of its own after the call, where the response converted whole has it here"
            warnings.warn(LayoutWarning(where(field), message), stacklevel=2)

    def _trailing_text_stays(self, response: Any, layout: tuple) -> bool:
        """Whether the converter puts the message's trailing text in the same place if a tool call
        came next (a stream cannot take back what it sent). Checked with a marker at the end of the
        text and a probe call."""
        # the answer depends on the target, the model and the parts' kinds (``layout``, of this
        # response: _layout_of), not their text: known for every stream of the process (a gateway's
        # streams share a few layouts)
        layout = (self.target, *layout)
        known = _STAYS.get(layout)
        if known is not None:
            return known
        if len(_STAYS) > 4096:
            _STAYS.clear()
        parts = response.message.parts
        texts = [i for i in range(_after_last_call(parts), len(parts)) if getattr(parts[i], "type", None) == "text"]
        if not texts:
            _STAYS[layout] = True
            return True
        import dataclasses

        from toolwire import ir

        last = texts[-1]
        places = []
        for probe in ([], [ir.ToolCall(id="toolwire_probe", name="toolwire_probe", arguments={})]):
            marked = [*parts[:last], dataclasses.replace(parts[last], text=parts[last].text + MARK), *parts[last + 1:], *probe]
            trial = dataclasses.replace(response, message=dataclasses.replace(response.message, parts=marked))
            try:
                body = self.convert(trial, False, quiet=True)
            except ConversionError:
                return True
            place = self._find_mark(self._project(body) if self.shape.joins else body)
            places.append(None if place is None else place[0] + place[2])
        _STAYS[layout] = places[0] == places[1]
        return _STAYS[layout]

    def _project(self, body: dict, fold: bool = False) -> dict:
        """The body as the target's stream can say it: replayed as the target's events into a fresh
        decoder (Gemini joins consecutive text parts its stream cannot keep apart). A body in which
        the stream would join nothing is that body (_joined): no replay.

        A list the stream joins (`key: last`) is replayed from where the last sync's left off: the
        elements its items up to there made (_folded) stand for them. So a sync costs the same
        however many elements came before (a long cited answer into Gemini: many text blocks, one
        part). ``fold``: a sync's own conversion, whose items the next sync's begin with."""
        if not _joined(self.shape, body):
            return body
        short, heads = body, []
        for pattern in dict.fromkeys(pattern for pattern, _scope in self.shape.join_lists):  # (several scopes may join one list)
            for path, items in _paths_at(body, pattern):
                if type(items) is list and len(items) > 1:
                    settled, running, rest = self._folded(body, path, items, fold)
                    if running is not None:
                        short = _replaced(short, path, [running, *rest])
                        heads.append((path, settled))
        out = self._replay(short)
        for path, settled in heads:
            joined = get(out, path)
            if type(joined) is not list or not joined:
                return self._replay(body)  # (not as it was left: the whole list again)
            (get(out, path[:-1]) if len(path) > 1 else out)[path[-1]] = [*settled, *joined]
        return out

    def _folded(self, body: dict, path: tuple, items: list, fold: bool) -> tuple[list, Any, list]:
        """The join list ``items`` at ``path`` as (settled, running, rest): the target's stream says
        the items before ``rest`` as the elements ``settled`` and ``running``, the element the items
        after may still continue (None: nothing is known of them: rest is every item). Known from the
        last sync when its items up to the last are these items' first (compared by value: each
        conversion makes new objects); ``fold``: this conversion's items up to the last (which may
        still grow) are replayed onto that, and kept for the next sync."""
        entry = self._folds.get(path)
        last = len(items) - 1
        if entry is not None and len(entry[0]) <= last and items[: len(entry[0])] == entry[0]:
            k, settled, running = len(entry[0]), entry[1], entry[2]
        else:
            k, settled, running = 0, [], None
        if fold and k < last:
            head = items[k:last] if running is None else [running, *items[k:last]]
            made = get(self._replay(_replaced(body, path, head)), path)
            if type(made) is list:
                settled, running, k = [*settled, *made[:-1]], (made[-1] if made else None), last
                self._folds[path] = (items[:last], settled, running)
        return settled, running, items[k:]

    def _replay(self, body: dict) -> dict:
        """The body the target's decoder makes of ``body`` replayed as the target's events."""
        mirror = Accumulator(self.target, self.mirror._decoder_module, self.mirror._to_ir)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Encoder(self.target, self.mirror._decoder_module, mirror, None, self.mirror._decoder_module).replay(body, together=False)
        return mirror.state.body

    def _find_mark(self, desired: Any) -> Any:
        """Where the marker landed in the target body (and take it out): the route, or None when the
        target has no place for the field (it is dropped, and reported by the final conversion)."""
        found = [None]
        shared = self._shared

        def walk(node: Any, path: tuple) -> Any:
            if id(node) in shared:
                return node  # a closed source element the target body holds as it is: the marker is never in one
            if isinstance(node, dict):
                for k, v in node.items():
                    node[k] = walk(v, path + (k,))
            elif isinstance(node, list):
                for i, v in enumerate(node):
                    node[i] = walk(v, path + (i,))
            elif isinstance(node, str) and MARK in node:
                if node.endswith(MARK) and found[0] is None:
                    found[0] = path
                return node.replace(MARK, "")
            return node

        walk(desired, ())
        path = found[0]
        if path is None:
            return None
        for n in range(len(path) - 1, 0, -1):  # split into element path and field
            pattern = tuple("*" if isinstance(k, int) else k for k in path[:n])
            if pattern in self.shape.appenders and path[n:] in self.shape.appenders[pattern]:
                if self.shape.appenders[pattern][path[n:]][1]["op"] in ("append", "append_parts"):
                    return (path[:n], pattern, path[n:])
            field, rest = path[n:-2], path[-2:]
            entry = self.shape.appenders.get(pattern, {}).get(field)
            if entry is not None and entry[1]["op"] == "append_parts" and isinstance(rest[0], int):
                part = get(desired, path[:-1])  # text inside a list of typed parts (Mistral's chunks)
                if isinstance(part, dict) and isinstance(part.get("type"), str):
                    return (path[:n], pattern, field, (rest[0], rest[1], part["type"]))
        if () in self.shape.appenders and path in self.shape.appenders[()]:
            return ((), (), path)
        return None

    def _calls(self, view: dict | None, body: dict) -> list:
        """(position, element) of each call in ``body`` that ``view`` (a decoder's ``CALLS``) shows."""
        if view is None:
            return []
        compiled = _view(view)
        items = get(body, compiled[1])
        if not isinstance(items, list):
            return []
        test = compiled[2]
        return [(i, el) for i, el in enumerate(items) if test(el)]

    def _route_calls(self, src: Accumulator, desired: dict, source: list) -> None:
        """A source call's arguments go to the same call (by order) of the target, when the target
        streams arguments; otherwise (a whole-call target) they wait for the call to complete.
        ``source``: the source's calls (``_calls``)."""
        if self.target_calls is None:
            return
        source_args = self.source_args
        routes = self.routes
        if all((id(el), source_args) in routes for _i, el in source):
            return  # (every call has its route: the usual sync)
        tlist, pattern, args, streams = self.target_calls
        target = self._calls(self.shape.calls_view, desired)
        for k, (_i, el) in enumerate(source):
            key = (id(el), source_args)
            if key in routes:
                continue
            if streams and k < len(target):
                routes[key] = (tlist + (target[k][0],), pattern, args)
                self.args_dest.add(tlist + (target[k][0],) + args)
                self.args_source[tlist + (target[k][0],) + args] = el
            elif not streams:
                routes[key] = None

    def _held(self, src: Accumulator, desired: dict, final: bool, source: list) -> Callable[[tuple, int], bool]:
        """What of the target's calls list waits. A whole-call target (its grammar streams no
        arguments) gets a call only once the source call is complete; a target of sequential
        blocks (its calls' elements end: Anthropic, Bedrock, Cohere) gets a call's block only once
        every call before it is complete, so that a call whose arguments go on after the next call
        started (OpenAI's fragments keyed by index may interleave) keeps its block open. The call
        and what follows it in its list wait until then."""
        calls = self.target_calls
        self._waiting = None
        if final or calls is None or not source or (calls[3] and (not self.interleaves or calls[1] not in self.shape.closers)):
            return _NEVER
        k = self._unfinished(source)  # (the first call before the last whose arguments are not complete)
        self._waiting = id(source[k][1]) if k is not None else None
        if k is None and not calls[3]:
            k = None if self._last_complete(src, source[-1][1]) else len(source) - 1
        elif k is None and self.cuts and not self._complete(source[-1][1]):
            k = len(source) - 1  # (text cut after the last call waits for its arguments: _cut)
        if k is None:
            return _NEVER
        target = self._calls(self.shape.calls_view, desired)
        if k >= len(target):
            return _NEVER
        # what follows its element waits (the calls after it, and text cut after it: _cut); a
        # whole-call target's call waits itself
        position = target[k][0] + 1 if calls[3] else target[k][0]
        pattern = calls[1]
        return lambda lp, i: lp == pattern and i >= position

    def _last_complete(self, src: Accumulator, last: dict) -> bool:
        """Whether the source's last call is complete: it ended, or its arguments came whole."""
        st = src.state
        if self.source_closes or not self.source_streams_args:
            return id(last) in st.closed or (id(last) not in st.buffers and not isinstance(get(last, self.source_args), str) and not self.source_closes)
        return False  # more fragments may come until the next call or the end

    def _unfinished(self, source: list) -> int | None:
        """The position among ``source`` (the source's calls) of the first call before the last one
        whose argument text is not complete JSON yet, when the source's calls may interleave (they
        never end by an event of their own and their arguments come as text); else None."""
        if self.interleaves:
            for k, (_i, el) in enumerate(source[:-1]):
                if not self._complete(el):
                    return k
        return None

    def _complete(self, call: dict) -> bool:
        """Whether a source call's argument text is complete JSON ("" is not: its arguments may not
        have started). A call found complete is not parsed again."""
        if id(call) in self._finished:
            return True
        text = get(call, self.source_args)
        if type(text) is str:
            try:
                json.loads(text)
            except ValueError:
                return False
        self._finished.add(id(call))
        return True

    def _json_route(self, element: dict, keys: tuple, op: str) -> Any:
        """JSON fragments of a source element that is not a call (a server tool's input) go to the
        target element made for it when that element takes the same field as JSON fragments."""
        for me in self.made_for.get(id(element), ()):
            if id(me) not in self.open:
                continue
            _src, pattern, path = self.made_by[id(me)]
            entry = self.shape.appenders.get(pattern, {}).get(keys)
            if entry is not None and entry[1]["op"] == op:
                return (path, pattern, keys)
        return None

    def step(self, src: Accumulator, event: Any) -> list[dict]:
        """The target events for one more source event (``aconvert``): ``run`` of one event."""
        hot = self.hot
        if hot is not None:
            event = event if type(event) is dict else src.plain(event)  # (an SDK object: its JSON, once)
            out = hot(event)
            if out is not None:
                src.state.index += 1
                self.mirror.state.index += 1
                self._aside += 1
                if self._aside >= _ASIDE:
                    self._flush()  # (a long run: what it put aside is joined now)
                return [out]
        return self._step(src, event)

    def run(self, src: Accumulator, events: Iterable[Any]) -> Iterator[dict]:
        """The target events for each of ``events`` (``stream.convert``), yielded as they come, and
        the stream's end: ``feed(src, src.add_logged(event))``, but for the hot path. An event the
        source replays (the next fragment of a field, ``Accumulator._replayed``) whose field's
        fragments take the hot path here too goes straight through, no ops logged, in one function
        made for the pair (``_fuse``, ``self.hot``), and its event is yielded without a list."""
        step = self._step
        hot = self.hot
        taken = 0  # events the hot path took since the last slow step: counted into the positions then
        events = iter(events)
        for event in events:
            if hot is not None:
                out = hot(event)
                if out is None and type(event) is not dict:  # an SDK object: its JSON, once, and again
                    event = src.plain(event)
                    out = hot(event)
                if out is not None:
                    taken += 1
                    yield out
                    exhausted = False
                    while True:  # the next ones, while they repeat it: the tightest loop, in runs of _ASIDE
                        before = taken
                        for event in islice(events, _ASIDE):
                            out = hot(event)
                            if out is None:
                                break
                            taken += 1
                            yield out
                        else:
                            if taken - before == _ASIDE:  # (a long run: what it put aside is joined now, _flush)
                                self._flush()
                                continue
                            exhausted = True
                        break
                    if exhausted:
                        break  # (no more events)
                    if type(event) is not dict:
                        event = src.plain(event)
                        out = hot(event)
                        if out is not None:
                            taken += 1
                            yield out
                            continue
            if taken:  # (the source's and the client's event positions, before anything reads them)
                src.state.index += taken
                self.mirror.state.index += taken
                taken = 0
            for out in step(src, event):
                yield out
            hot = self.hot  # (it changes only in a slow step)
        if taken:
            src.state.index += taken
            self.mirror.state.index += taken
        self._flush()
        src.provider_body()  # an early end or an unknown event is reported once, here
        for out in self.finish(src):
            yield out

    def _step(self, src: Accumulator, event: Any) -> list[dict]:
        """The slow path of ``run``; afterwards ``self.hot`` is the fused function of the source's
        repeat path and this field's fast entry when both cover the same field (else None). Both
        change only here (``feed``, ``finish``): the function stays valid until the next slow step."""
        self.hot = None
        self._flush()
        out = self.feed(src, src.add_logged(event))
        repeat = src._repeat
        if repeat is not None:
            op = repeat[7]
            fast = self.fast.get(id(op[1]))
            if fast is not None and fast[0] == op[2] and (not fast[6] or id(fast[1]) in self.open):
                fused = self._fused
                if fused is None or fused[0] is not repeat or fused[1] is not fast:
                    fused = self._fused = (repeat, fast, *self._fuse(src, repeat, fast))
                self.hot = fused[2]
                self._pending = fused[3]
        return out

    def _fuse(self, src: Accumulator, repeat: tuple, fast: tuple) -> tuple:
        """The hot path of one source field into its target field: ``_replayed`` and ``_forward`` as
        one function (``_hot_source``), compiled once per pair of event shapes; and what it leaves
        for ``_flush`` (the text fields it puts fragments aside for, or None)."""
        _getter, owner, key, template, sink, skey, fragments, _op, (paths, _shape, types, _numbers), unread = repeat
        _keys, _element, _build, msink, mkey, mfragments, _closable, literal, values = fast
        unread_paths = unread[2] if unread is not None else ()
        # (place, its key there, the body key) of the values a `set` puts at the body's top (SETS)
        sets = tuple((i, unread_paths[i][-1], body_key) for i, body_key in unread[3]) if unread is not None else ()
        shape = (paths, types, unread_paths, literal, len(values), self.counted, bool(src._guard[0]), sets)
        make = _HOT.get(shape)
        if make is None:
            if len(_HOT) > 1024:  # (a few per pair of grammars)
                _HOT.clear()
            scope = {"__builtins__": _HOT_BUILTINS}
            source = _hot_source(_reader_lines(paths, types, unread_paths), len(unread_paths), *shape[3:])
            exec(compile(source, "<toolwire stream hot path>", "exec"), scope)  # noqa: S102 (keys as literals, values bound)
            make = _HOT[shape] = scope["make"]
        # a field of JSON fragments takes each as an item of its list; a text field's wait in a list
        aside = [] if fragments is None else None
        maside = [] if mfragments is None else None
        hot = make(src._guard[0], owner, key, template, fragments if aside is None else aside, mfragments if maside is None else maside,
                   self, src, values, tuple(holder for holder, _key in unread[1]) if unread is not None else None, src.state.body)
        return hot, (sink, skey, aside, msink, mkey, maside) if aside is not None or maside is not None else None

    def _flush(self) -> None:
        """The text fragments the hot path put aside (``_fuse``) joined onto their fields, once: before
        anything else reads the source's or the client's body (every slow step, and the end)."""
        self._aside = 0
        if self._pending is None:
            return
        sink, skey, aside, msink, mkey, maside = self._pending
        if aside:
            extend_text(sink, skey, "".join(aside))
            aside.clear()
        if maside:
            extend_text(msink, mkey, "".join(maside))
            maside.clear()

    def _forward(self, fast: tuple, fragment: str) -> dict:
        """A source fragment's target event, its fragment appended to the client's field as the
        client's decoder does (the mirror: tests/test_stream_translate.py checks it against decoding)."""
        _keys, _element, build, sink, sink_key, fragments, _closable, _literal, _values = fast
        if self.counted:
            self.count += 1
        self.mirror.state.index += 1
        if fragments is not None:  # the client's JSON fragments of the field (append_json)
            fragments.append(fragment)
        else:
            extend_text(sink, sink_key, fragment)
        return build(fragment, self.count)

    def feed(self, src: Accumulator, ops: list) -> list[dict]:
        self.hot = None  # (fast entries change below: the fused function is made again after, _step)
        self.out = out = []
        if src.state.effects != self._effects:  # a change no op says (Mistral's text parts): for a full sync
            self._effects = src.state.effects
            self.owed = True
            if not ops:  # (the event said nothing else: what it changed goes now, not at the next boundary or the end)
                self._growing = True  # (what it creates stays open: its source part may grow by the next such event)
                try:
                    self._sync(src)
                finally:
                    self._growing = False
        # len(out) right after this event's last sync at a block boundary, while nothing else ran:
        # another such sync would find what that one found (every op of an event sees the body the
        # whole event made; the client and the routes are as that sync left them), so it is skipped
        # (a Gemini chunk of whole parts opens and closes each: one sync, not one per op)
        synced = -1
        # (the call whose opening this event's ops synced alone, and len(out) right after: every op
        # sees the body the whole event made, so its end in the same event, with nothing sent since,
        # finds what that sync found: a Gemini chunk's whole call opens and ends it)
        called: tuple | None = None
        for at, op in enumerate(ops):
            self._rest = (ops, at)
            kind = op[0]
            if kind == "push":
                self.owed = op[1] if self.owed is False or self.owed is op[1] else True
                continue  # list items (citations) go with the next sync: the converter decides if they exist
            if kind in ("append", "json"):
                synced = -1
                if self._covered and id(op) in self._covered:
                    continue
                self._fragment(src, op)
                if self._waiting == id(op[1]) and self._complete(op[1]):
                    self._sync(src)  # (the call the next ones wait for is complete: they come now, _held)
            elif kind == "open":
                self.unsynced.clear()  # a new block: try to find routes again
                if synced != len(out):
                    if len(ops) == 1 and self._quiet_start(src, op[1]):
                        continue
                    self.opening = id(op[1])
                    try:
                        if self._sync_call(src, op[1], ops):
                            synced = -1  # (it saw only the call: a later boundary of this event syncs)
                            called = (op[1], len(out))
                            continue
                        self._sync(src)
                    finally:
                        self.opening = None
                    synced = len(out)
            elif kind == "close":
                if called is not None and called[0] is op[1] and called[1] == len(out):
                    pass
                elif synced != len(out) and not (len(ops) == 1 and self._quiet_end(src, op[1])):
                    if self._sync_call(src, op[1], ops, closing=True):
                        synced = -1
                    else:
                        self._sync(src)
                        synced = len(out)
                # what was made for it stays open until the target's next element in its list (or the
                # end): the converter may still join later text into it (text across a dropped block)
                self.made_for.pop(id(op[1]), None)
            elif kind == "start":
                if self.started and self.out is not None and self.mirror.state.body:
                    from .streaming import InvalidEventError

                    raise InvalidEventError(src.state.where(), f"the {src.provider} stream began its message again after events were translated: a translated stream cannot take back what it sent")
                if synced != len(out):
                    self._sync(src)
                    synced = len(out)
        self._covered.clear()
        self._rest = None
        return self.out

    def _fragment(self, src: Accumulator, op: tuple) -> None:
        """A source text or JSON fragment (an ``append`` or ``json`` op) into the target: along its
        fast entry or its route, or, where its place is not known, by a sync."""
        kind, element, keys, fragment = op
        fast = self.fast.get(id(element))
        if fast is not None and fast[0] == keys and type(fragment) is str and (not fast[6] or id(fast[1]) in self.open):
            self.out.append(self._forward(fast, fragment))  # the hot path, as the slow one below decided it
            return
        route = self.routes.get((id(element), keys), _MISSING)
        # (set until a full sync has sent it, unless this fragment is sent here: _sync_call)
        owed, self.owed = self.owed, True
        if route is _MISSING:
            if kind == "append":
                if (id(element), keys) not in self.unsynced and not self._sync_text(src, element, keys, owed):
                    self._sync(src, mark=(element, keys))
                return
            route = self.routes[(id(element), keys)] = self._json_route(element, keys, "append_json")
        if route is None:
            if keys == self.source_args and self.target_calls is not None and not self.target_calls[3]:
                self.owed = owed  # (a whole-call target's call: it comes whole, with this text, once complete)
            return
        path, pattern, field = route[:3]
        mirror_el = get(self.mirror.state.body, path) if path else self.mirror.state.body
        if mirror_el is None or (pattern in self.shape.closers and id(mirror_el) not in self.open):
            return  # not created yet (held) or closed: the next sync sends it
        if len(route) == 4:  # into a part of a list of typed parts: only the last one grows
            index, key, part_type = route[3]
            parts = get(mirror_el, field)
            if not isinstance(parts, list) or len(parts) != index + 1 or parts[index].get("type") != part_type:
                return  # the next sync sends it
            self._append(pattern, path, field, [{"type": part_type, key: fragment}])
        else:  # (a call others wait for takes no hot path: each of its fragments is checked, feed)
            self._append(pattern, path, field, fragment, (id(element), keys) if self._waiting != id(element) else None, mirror_el)
        self.owed = owed

    def replay(self, body: dict, together: bool = True) -> list[dict]:
        """The events of a complete body of the target: a non-streamed response served as a stream
        (``together``: its last events as one where the API's are, `ends_together`; a projection's
        replay, which only its decoder reads, leaves them apart)."""
        if type(body) is not dict:  # an SDK's response object: its JSON
            from .sdk_objects import plain

            body = plain(body)
        self.hot = None
        self.out = []
        self.desired = body
        self._ending = None
        self._diff(body, True, _NEVER)
        if together:
            self._end_together()
        self._end()
        return self.out

    def _end(self) -> None:
        """The end event, unless the last event sent already ended the stream (Cohere's message-end
        carries the finish; Responses' response.completed the whole response)."""
        if self.mirror.done:
            return
        ends = [e for e in self.shape.ends if e[1]["op"] == "end"][:1]
        # events that together end the stream (Bedrock's messageStop and metadata): the ones not sent yet
        ends += [e for e in self.shape.ends if e[1]["op"] == "end_after" and e[0][0] not in self.mirror.state.marks]
        for chain, action in ends:  # with what its rule sets (Responses' response.completed: the response)
            if not self.mirror.done:
                self._send(self._event(chain, [], [*self._when(action), *self._carried(chain, (), self.desired)]))

    def finish(self, src: Accumulator) -> list[dict]:
        self.hot = None
        self._flush()
        self.out = []
        self._ending = None
        self._sync(src, final=True)
        self._end_together()
        if self.cuts:
            self._report_cuts()
        self._end()
        return self.out

    def _end_together(self) -> None:
        """Where the grammar says `ends_together`: the events the final sync sent from the
        elements' end on (``_ending``: each element's end, then the body's last fields) as one
        event where they say nothing differently, as the API's last event does (Mistral:
        finish_reason and usage in one chunk, where OpenAI sends the usage in a chunk of its own).
        The client's body has them already: what one event says is what they said."""
        if not self.shape.ends_together or self._ending is None:
            return
        out = self.out
        i = self._ending
        while i + 1 < len(out):
            a, b = out[i], out[i + 1]
            merged = _MISSING
            if type(a) is dict and type(b) is dict and a.keys() == b.keys() and a.get("event") == b.get("event") and type(a.get("data")) is dict and type(b.get("data")) is dict:
                merged = _said_together(a["data"], b["data"], 0, self.shape.repeated_spots)
            if merged is _MISSING:
                i += 1
                continue
            out[i : i + 2] = [{**a, "data": merged}]
