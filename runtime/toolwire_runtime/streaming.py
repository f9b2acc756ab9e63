"""Stream accumulation: fold a provider's stream events into its own complete response body.

A provider's spec declares its stream grammar (``stream: {events: ...}``): which events exist and
what each contributes to the complete body, in a small closed vocabulary of actions (``set``,
``first``, ``append``, ``append_json``, ``merge``, ``start``, ``block`` / ``each`` scopes keyed by the
provider's own key, ``close``, ``end``, ``error``). The generator turns that grammar into one
straight-line decoder per provider (``toolwire/streams/<provider>.py``) whose statements call the
primitives below on a ``StreamState``.

Accumulating into the provider's *own* body, rather than into the IR directly, is what makes a
streamed response convert exactly like the same response unstreamed: the IR comes from that body
through the provider's response codec (ids synthesized, finish reasons normalised, thinking and
server-tool blocks kept), so nothing about a response is decided twice.

Hand-written runtime; stdlib only.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from . import first_use
from .errors import ConversionError, ConversionWarning, LossWarning, ProviderStreamError, WrongTypeError

__all__ = [
    "StreamState", "StreamEndedEarlyWarning", "UnknownEventWarning", "RestartedWarning", "InvalidEventError",
    "get", "event_parts", "Accumulator",
]

_MISSING = object()


class StreamEndedEarlyWarning(ConversionWarning):
    """The stream stopped before the provider's end of stream: what arrived was accumulated
    (``strict=True`` raises ``InvalidEventError`` instead)."""


class RestartedWarning(ConversionWarning):
    """The provider started its message a second time mid-stream: the response is the second
    message (``strict=True`` raises ``InvalidEventError`` instead)."""


class UnknownEventWarning(ConversionWarning):
    """An event the provider's stream grammar does not know: it contributed nothing to the response
    (``strict=True`` raises ``InvalidEventError`` instead)."""


class InvalidEventError(ConversionError):
    """An event that does not fit the provider's stream grammar: a delta for a block never started,
    a fragment of the wrong type, an event after the end. ``path`` is ``events[i].<field>``."""


def where(keys: tuple) -> str:
    """A flat key tuple as a path string: ("events", 3, "delta", "text") → events[3].delta.text."""
    out = ""
    for key in keys:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def extend_text(owner: Any, key: Any, value: str) -> None:
    """``owner[key] += value`` in amortised constant time: the body's reference is dropped first, so
    the running text is held once and CPython extends it in place instead of copying the whole text
    for every fragment (which made long streams quadratic: 1.3 MB of text in 20-character fragments
    took 40 µs a fragment). Key order is kept (the slot is reused, never popped)."""
    current = owner[key]
    if type(current) is not str:
        owner[key] = current + value  # (whatever ``+`` does with it, as before: an error for a non-string)
        return
    owner[key] = None
    try:
        current += value
    finally:
        owner[key] = current


def _append_at(obj: Any, keys: tuple, value: str) -> None:
    """The text ``value`` appended to the string at ``keys`` (set when there is none)."""
    owner = get(obj, keys[:-1]) if len(keys) > 1 else obj
    last = keys[-1]
    if type(owner) is dict and type(last) is str and owner.get(last) is not None:
        extend_text(owner, last, value)
        return
    current = get(obj, keys)
    _put(obj, keys, value if current is None else current + value)


def get(obj: Any, keys: tuple) -> Any:
    """The value at ``keys`` in nested dicts/lists, or None when any step is missing."""
    for key in keys:
        if type(obj) is dict:  # the common steps, fast (a JSON object's keys are strings: an int finds nothing)
            obj = obj.get(key)
            continue
        if type(key) is int and type(obj) is list:
            try:
                obj = obj[key]  # (a position out of range, at either end: IndexError)
            except IndexError:
                return None
            continue
        if isinstance(key, int):
            if not isinstance(obj, list) or not -len(obj) <= key < len(obj):
                return None
        elif not isinstance(obj, dict):
            return None
        else:
            obj = obj.get(key)
            continue
        obj = obj[key]
    return obj


_FRAME_KEYS = frozenset(("event", "data", "id", "retry"))  # an event as the framing parses it


def event_parts(event: Any, naming: str) -> tuple[str | None, Any]:
    """(event name, payload) of one event, given as the framing parses it (``{"event", "data"}``)
    or as an SDK yields it (the payload itself). ``naming`` is the grammar's ``name:``:
    ``type`` (payload ``type``, the SSE event line first), ``event_type`` (the payload's
    ``event_type``: Cohere v1), ``key`` (the payload's single top-level key,
    boto3's shape; the payload is its value) or ``none`` (every event is a ``chunk``; a ``[DONE]``
    terminator is named ``[DONE]``)."""
    if isinstance(event, dict) and "data" in event and event.keys() <= _FRAME_KEYS:
        wire_name, data = event.get("event"), event["data"]
    else:
        wire_name, data = None, event
    if isinstance(data, str):
        return data, data  # a sentinel such as "[DONE]"
    if naming == "none":
        return "chunk", data
    if naming == "key":
        if isinstance(data, dict) and len(data) == 1:
            (name, payload), = data.items()
            return name, payload
        if isinstance(data, dict):  # boto3 shape with extras (Bedrock's ``p`` padding sits inside the payload)
            named = [k for k, v in data.items() if isinstance(v, dict)]
            if len(named) == 1:
                return named[0], data[named[0]]
        return wire_name, data
    if naming == "event_type":  # Cohere v1 (NDJSON): the payload's `event_type`
        if isinstance(data, dict) and isinstance(data.get("event_type"), str):
            return data["event_type"], data
        return wire_name, data
    if isinstance(data, dict) and isinstance(data.get("type"), str):
        return data["type"], data
    return wire_name, data


class StreamState:
    """The response body under construction, and what the grammar needs to build it.

    ``body`` is the provider's complete response body so far (partial until the stream ends);
    ``blocks`` maps each keyed scope (``block`` / ``each``) to the body element it built, so a
    fragment finds its element by the provider's key, never by position; ``buffers`` holds JSON
    text fragments (``append_json``) per element until the element closes.
    """

    __slots__ = ("provider", "body", "index", "blocks", "last", "buffers", "invalid", "ended", "started", "reports", "strict", "log", "closed", "marks", "effects", "opened")

    def __init__(self, provider: str, strict: bool = False, body: dict | None = None) -> None:
        self.provider = provider
        self.strict = strict
        self.body: dict = copy_body(body, {}) if body else {}
        self.index = -1  # position of the event being read
        self.blocks: dict[tuple, dict] = {}  # (list path, key) → element
        self.last: dict[tuple, tuple] = {}  # list path → (key, element) of the element opened last there
        self.buffers: dict[int, tuple[dict, dict[tuple, list[str]]]] = {}  # id(element) → (element, field → fragments)
        self.invalid: list[tuple[dict, str, str]] = []  # (element, raw text, why): argument text that is not JSON
        self.ended = False
        self.started = False  # a `start` event came (a second one restarts the message)
        self.log: list | None = None  # when a list: what each event changed, for stream translation
        # id() of each element closed → the element (held: its id stays its own). No event changes a
        # closed element any more, so a translation's copy of the body shares it (Encoder._sync_once)
        self.closed: dict[int, dict] = {}
        self.reports: list[tuple[str, str, type]] = []
        # changes that are neither logged nor idempotent (an `extend`, a `put_paths`, an `append_parts`):
        # an event that made one is not replayed by Accumulator's repeat path
        self.effects = 0
        self.marks: set = set()  # end_after: the ending events seen so far
        # the element the last ``element`` call created (None: it found one), for a decoder whose
        # template gives a default that a `first` rule of the creating event replaces (``first``)
        self.opened: dict | None = None

    # -- errors and reports ------------------------------------------------------------------
    def where(self, keys: tuple = ()) -> str:
        return where(("events", self.index, *keys))

    def fail(self, keys: tuple, message: str) -> None:
        raise InvalidEventError(self.where(keys), f"{self.provider} stream: {message}")

    def report(self, keys: tuple, message: str, category: type) -> None:
        if self.strict:
            self.fail(keys, message)
        self.reports.append((self.where(keys), message, category))

    def provider_error(self, error_type: Any, message: Any) -> None:
        raise ProviderStreamError(self.where(), str(error_type or "error"), str(message or ""), self.index)

    def unknown(self, name: Any) -> None:
        self.report((), f"unknown event {name!r}: it adds nothing to the response", UnknownEventWarning)

    def after_end(self, name: Any) -> None:
        self.fail((), f"event {name!r} after the end of the stream")

    # -- actions on a body object ------------------------------------------------------------
    def start(self, value: Any, src: tuple) -> None:
        """``start``: the body begins as a copy of this event value (Anthropic ``message_start.message``)."""
        if not isinstance(value, dict):
            self._type(src, value, "an object")
        if self.started:  # a second start: the provider began the message again; what came before is gone
            self.report(src, "a second message start: the message began again, and what came before it is not in the response", RestartedWarning)
            self.body.clear()
            self.blocks.clear()
            self.last.clear()
            self.buffers.clear()
            self.invalid.clear()
        self.started = True
        self.body.update(copy_body(value, {}))
        if self.log is not None:
            self.log.append(("start",))

    def set(self, obj: dict, keys: tuple, value: Any) -> None:
        """``set``: the latest value wins; an absent or null value changes nothing."""
        if value is not None:
            _put(obj, keys, value)

    def null(self, obj: dict, keys: tuple) -> None:
        """A field an event carries as null (``set`` / ``first``): null in the body unless it has a value."""
        if get(obj, keys) is None:
            _put(obj, keys, None)

    @staticmethod
    def carries(event: Any, keys: tuple) -> bool:
        """Whether the event has the field at ``keys`` (null or not)."""
        if len(keys) == 1:  # (most: a key of the object itself, in one lookup)
            return isinstance(event, dict) and keys[0] in event
        owner = get(event, keys[:-1])
        return isinstance(owner, dict) and keys[-1] in owner

    def const(self, obj: dict, keys: tuple, value: Any) -> None:
        """``const``: a value the complete body has and no event carries (``object: chat.completion``)."""
        _put(obj, keys, value)

    @staticmethod
    def place(obj: dict, key: str, order: tuple) -> None:
        """``key``, just set in the element ``obj``, where its template places it (spec ``$absent``:
        a key the element lacks until a rule sets it, as OpenAI's tool-call ``type`` between ``id`` and
        ``function``): the keys ``order`` puts after it move after it, in that order. A key set
        before (not the last one) stays where it is."""
        if next(reversed(obj)) != key:
            return
        for k in order[order.index(key) + 1 :]:
            if k in obj:
                obj[k] = obj.pop(k)

    def first(self, obj: dict, keys: tuple, value: Any, fresh: bool = False) -> None:
        """``first``: the first non-empty value wins; repeats (equal or not) change nothing, and an
        empty string never overwrites (OpenRouter upstreams repeat id and name on every fragment).
        ``fresh``: the event being read created ``obj``, whose template's value at ``keys`` is a
        default the event's own value replaces (OpenAI's choice ``index: 0``: the second choice of
        an ``n: 2`` stream is index 1)."""
        if value is None or value == "":
            return
        current = get(obj, keys)
        if fresh or current is None or current == "":
            _put(obj, keys, value)

    def append(self, obj: dict, keys: tuple, value: Any, src: tuple) -> None:
        """``append``: a text fragment concatenated onto the string at ``keys``."""
        if value is None:
            return
        if type(value) is not str and not isinstance(value, str):
            self._type(src, value, "a string fragment")
        if len(keys) == 2 and type(keys[1]) is str and type(owner := obj.get(keys[0])) is dict:  # the common case (message.content), fast
            if owner.get(keys[1]) is None:
                owner[keys[1]] = value
            else:
                extend_text(owner, keys[1], value)
        elif len(keys) == 1 and type(keys[0]) is str:
            if obj.get(keys[0]) is None:
                obj[keys[0]] = value
            else:
                extend_text(obj, keys[0], value)
        else:
            _append_at(obj, keys, value)
        if self.log is not None and value:
            self.log.append(("append", obj, keys, value))

    def append_json(self, obj: dict, keys: tuple, value: Any, src: tuple) -> None:
        """``append_json``: a fragment of JSON text for the object at ``keys``, parsed once when the
        element closes (or at the end of the stream)."""
        if value is None:
            return
        if not isinstance(value, str):
            self._type(src, value, "a JSON text fragment")
        entry = self.buffers.get(id(obj))
        if entry is None:
            entry = self.buffers[id(obj)] = (obj, {})
        fragments = entry[1].get(keys)
        if fragments is None:
            fragments = entry[1][keys] = []
        fragments.append(value)
        if self.log is not None and value:
            self.log.append(("json", obj, keys, value))

    def merge(self, obj: dict, keys: tuple, value: Any, src: tuple) -> None:
        """``merge``: an object folded in field by field, the latest value of each field winning
        (usage is a running snapshot: Anthropic's ``message_delta`` usage is cumulative, never summed)."""
        if value is None:
            return
        if not isinstance(value, dict):
            self._type(src, value, "an object")
        current = get(obj, keys) if keys else obj
        if isinstance(current, dict):
            current.update(value)
        else:
            _put(obj, keys, dict(value))

    def extend(self, obj: dict, keys: tuple, value: Any) -> None:
        """``extend``: the items of an event list appended to the list at ``keys`` (logprobs). An empty
        list adds nothing, not even the field (the complete part says whether it has one)."""
        if not isinstance(value, list) or not value:
            return
        self.effects += 1
        current = get(obj, keys)
        if isinstance(current, list):
            current.extend(value)
        else:
            _put(obj, keys, list(value))

    def extend_elements(self, obj: dict, keys: tuple, value: Any) -> None:
        """``extend`` of the grammar's calls list with whole calls (Ollama's tool_calls): each item an
        element of its own, opened and complete at once (copied, as an element is), so that a
        translation syncs each call as it does a call of any other stream (the call alone), not
        the whole body for a change no element says."""
        if not isinstance(value, list) or not value or not all(isinstance(item, dict) for item in value):
            self.extend(obj, keys, value)
            return
        for item in value:
            self.close(self.fresh(obj, keys, item))

    def push(self, obj: dict, keys: tuple, value: Any) -> None:
        """``push``: a whole item appended to the list at ``keys`` (Anthropic ``citations_delta``)."""
        if value is None:
            return
        current = get(obj, keys)
        if isinstance(current, list):
            current.append(value)
        else:
            _put(obj, keys, [value])
        if self.log is not None:
            self.log.append(("push", obj, keys, value))

    # -- keyed scopes --------------------------------------------------------------------------
    def element(self, owner: dict, list_keys: tuple, key: Any, new: Any, src: tuple, *, create: bool, fallback: Any = None, new_if: Callable[[dict], bool] | None = None) -> dict:
        """The body element a fragment belongs to, found by the provider's key (``block`` / ``each``).

        ``key`` is the provider's key for the element (block index, tool-call index, item id);
        ``None`` means "no key" and then ``fallback`` (a second key, e.g. the call id when a dialect
        omits ``index``) is used, and failing that the element opened last in this list. ``create``:
        a missing element is started, from ``new`` (a copy of the event's value, or ``{}``); without
        it a fragment for an element never started is an error. ``new_if(element)`` says that the
        fragment starts a new element although its key is taken (Ollama reuses ``index: 0`` for every
        parallel call, each with its own id).
        """
        scope = (id(owner), list_keys)
        if key is None and fallback is not None:
            key = ("fallback", fallback)
        slot = (scope, key)
        found = self.blocks.get(slot) if key is not None else (self.last.get(scope) or (None, None))[1]
        if found is not None and new_if is not None and new_if(found):
            found = None
        if found is None:
            if not create:
                self.fail(src, f"a fragment for {'element ' + repr(key) if key is not None else 'an element'} that was never started")
            found = copy_body(new, {}) if isinstance(new, dict) else {}
            items = get(owner, list_keys)
            if not isinstance(items, list):
                items = []
                _put(owner, list_keys, items)
            items.append(found)
            if key is None:
                key = ("ordinal", len(items) - 1)
                slot = (scope, key)
            self.blocks[slot] = found
            self.last[scope] = (key, found)
            self.opened = found
            if self.log is not None:
                self.log.append(("open", found))
        elif key is not None:
            self.last[scope] = (key, found)
        return found

    def items(self, value: Any, src: tuple) -> Any:
        """``each``: the (index, item) pairs of an event list; absent or null is no items."""
        if value is None:
            return ()
        if not isinstance(value, list):
            self._type(src, value, "a list")
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self._type((*src, i), item, "an object")
        return enumerate(value)

    @staticmethod
    def differs(value: Any, keys: tuple) -> Callable[[dict], bool] | None:
        """``new_if_differs``: a fragment whose value (a call id) differs from the element's starts a
        new element at the same key (Ollama's ``/v1`` puts every parallel call at ``index: 0``)."""
        if value is None or value == "":
            return None
        return lambda element: get(element, keys) not in (None, "", value)

    def fresh(self, owner: dict, list_keys: tuple, new: Any) -> dict:
        """An element that always starts a new one (a whole Gemini part, a whole Ollama call)."""
        return self.element(owner, list_keys, ("ordinal", len(get(owner, list_keys) or ())), new, (), create=True)

    def close(self, obj: dict) -> None:
        """``close``: the element is complete: its JSON fragments are parsed now, once."""
        entry = self.buffers.pop(id(obj), None)
        if entry is not None:
            self._settle(entry[0], entry[1])
        self.closed[id(obj)] = obj
        if self.log is not None:
            self.log.append(("close", obj))

    def end(self) -> None:
        self.ended = True
        if self.log is not None:
            self.log.append(("end",))

    def finish(self, end_names: tuple = ()) -> dict:
        """The complete body once the stream is over: open elements are settled (their JSON parsed,
        a truncated one kept raw and reported), an early end is reported."""
        for obj, fields in list(self.buffers.values()):
            self._settle(obj, fields)
        self.buffers.clear()
        if not self.ended and end_names and not self.complete(end_names):
            at = where(("events", self.index + 1))
            message = f"{self.provider} stream ended before its end ({' or '.join(_end_label(x) for x in end_names)}): the response holds what arrived"
            if self.strict:
                raise InvalidEventError(at, message)
            self.reports.append((at, message, StreamEndedEarlyWarning))
        return self.body

    def _settle(self, obj: dict, fields: dict[tuple, list[str]]) -> None:
        for keys, fragments in fields.items():
            text = "".join(fragments)
            if not text.strip():
                if not get(obj, keys):  # no fragment, or only empty ones: no arguments, {} (a start value stays)
                    _put(obj, keys, {})
                continue
            try:
                value = json.loads(text)
            except ValueError as exc:
                self.invalid.append((obj, text, str(exc)))
                value = {}
            _put(obj, keys, value)

    def _type(self, src: tuple, value: Any, expected: str) -> None:
        raise WrongTypeError(self.where(src), f"{self.provider} stream: expected {expected}, got {type(value).__name__} {value!r:.60}")

    # -- additions for Gemini streams (body end conditions, values by JSON path) -------------------
    def complete(self, end_names: tuple) -> bool:
        """Whether the stream reached its end: an end event came (``end``), or the body has a value at
        a path an ``end: [{has: PATH}]`` item names (a stream with no end event, such as Gemini's,
        is complete once a chunk carried ``candidates[0].finishReason``)."""
        if self.ended:
            return True
        return any(isinstance(x, dict) and get(self.body, tuple(x["has"])) is not None for x in end_names)

    @staticmethod
    def key_or(value: Any, default: Any) -> Any:
        """``default_key``: the event's key, or the declared default when the event has none (Gemini
        leaves out ``candidates[].index`` 0, proto3 JSON's default, while later candidates carry theirs)."""
        return default if value is None else value

    _PATH_VALUES = ("stringValue", "numberValue", "boolValue", "nullValue")

    def put_paths(self, obj: dict, keys: tuple, value: Any, src: tuple) -> None:
        """``put_paths``: a list of values addressed by JSON path, put into the object at ``keys``
        (created as ``{}``). Each item is ``{jsonPath: "$.a.b[2].c", stringValue | numberValue |
        boolValue | nullValue}`` (google-genai ``PartialArg``, Gemini's streamed function-call
        arguments); a string value continues the string already at its path (a string arrives in
        fragments while its ``willContinue`` is true); the other values replace. Missing objects
        and lists on the way are created; a list grows to the index the path names."""
        if value is None:
            return
        self.effects += 1
        if not isinstance(value, list):
            self._type(src, value, "a list of values by JSON path")
        target = get(obj, keys)
        if not isinstance(target, dict):
            target = {}
            _put(obj, keys, target)
        for i, item in enumerate(value):
            at = (*src, i)
            if not isinstance(item, dict):
                self._type(at, item, "an object {jsonPath, <type>Value}")
            steps = _json_path(item.get("jsonPath"))
            if steps is None:
                self.fail((*at, "jsonPath"), f"a JSON path such as $.a.b[0] is needed, got {item.get('jsonPath')!r}")
            found = [k for k in self._PATH_VALUES if k in item]
            if not found:
                continue  # a path announced without a value yet: nothing to put
            kind = found[0]
            new = None if kind == "nullValue" else item[kind]
            if not steps:  # "$": the whole object
                if isinstance(new, dict):
                    target.update(new)
                continue
            current = get(target, steps)
            if kind == "stringValue":
                if not isinstance(new, str):
                    self._type((*at, kind), new, "a string fragment")
                if isinstance(current, str):
                    new = current + new
            _put_path(target, steps, new)


    # -- added for the OpenAI Responses and Cohere v1 grammars ----------------------------------
    def overlay(self, obj: dict, keys: tuple, value: Any, src: tuple) -> None:
        """``overlay``: a snapshot of the complete object (a terminal event that repeats the whole
        response: Responses ``response.completed``, Cohere v1 ``stream-end.response``) folded in
        field by field like ``merge``, the snapshot winning, except that a null or absent field
        keeps what the stream built (the openai SDK's ResponseStreamState recovers ``output`` from
        the streamed items when the terminal response has none). A field the snapshot has replaces
        the streamed one whole, so what was streamed is reconciled, never duplicated. The object
        takes the snapshot's key order (it is the complete object as the API writes it); keys the
        snapshot lacks follow, in the order they had."""
        if value is None:
            return
        if not isinstance(value, dict):
            self._type(src, value, "an object")
        current = get(obj, keys) if keys else obj
        if not isinstance(current, dict):
            current = {}
            _put(obj, keys, current)
        for field, item in value.items():
            if item is not None or field not in current:
                current[field] = copy_body(item, {})
        if [k for k in current if k in value] != list(value):
            # (in place: the object is the same one the stream's elements and views hold)
            items = [(k, current[k]) for k in value] + [(k, v) for k, v in current.items() if k not in value]
            current.clear()
            current.update(items)

    # -- additions (wip-stream-bedrock): end_after, append_parts --------------------------------------
    def end_after(self, name: str, names: tuple) -> None:
        """``end_after``: the event ``name`` is one of ``names``, which together end the stream, in any
        order (Bedrock ConverseStream sends ``metadata`` after ``messageStop``, the AI SDK's JSON
        fixtures before it): the stream is complete once all of them came."""
        self.marks.add(name)
        if self.marks.issuperset(names):
            self.ended = True

    def append_parts(self, obj: dict, keys: tuple, value: Any, src: tuple) -> None:
        """``append_parts``: content that is a string or a list of typed parts (Mistral's
        ``delta.content``: text, or ``[{type: thinking, thinking: [{type: text, text}]}, {type: text, text}]``).
        A string fragment is appended to the string, or to the last part when that is a text part
        (else it becomes a new ``{type: text, text}`` part). A list of parts turns the string into
        parts (a non-empty string becomes the first text part) and folds each part into the last one
        when both have the same ``type`` (string fields concatenated, lists of parts folded the same
        way, other fields: the latest value), else appends it."""
        if value is None:
            return
        current = get(obj, keys)
        # a fragment that only extends a string (the content, or a string field of the last part)
        # is logged as that string's `append`, as `append` logs it: it takes the repeat path and a
        # translation forwards it; any other change is an effect (a part added, a field set)
        appended: list = []
        if isinstance(value, str):
            if current is None or isinstance(current, str):
                _append_at(obj, keys, value)
                appended.append((obj, keys, value))
                changed = False
            elif isinstance(current, list):
                changed = _fold_parts(current, [{"type": "text", "text": value}], appended)
            else:
                self._type(src, current, "a string or a list of parts in the body")
        else:
            if not isinstance(value, list) or not all(isinstance(part, dict) for part in value):
                self._type(src, value, "a string or a list of typed parts")
            changed = current is None or isinstance(current, str)
            if changed:
                parts: list = [{"type": "text", "text": current}] if current else []
                _put(obj, keys, parts)
                current = parts
            changed = _fold_parts(current, copy_body(value, {}), appended) or changed
        if changed or len(appended) != 1 or self.log is None:
            self.effects += 1
        elif appended[0][2]:
            self.log.append(("append", *appended[0]))


def _end_label(item: Any) -> str:
    return item if isinstance(item, str) else "a value at " + where(tuple(item["has"]))


_JSON_PATH_STEP = None


def _json_path(text: Any) -> tuple | None:
    """``$.a.b[2]['c d']`` → ("a", "b", 2, "c d"); None when it is not such a path."""
    import re

    global _JSON_PATH_STEP
    if not isinstance(text, str) or not text.startswith("$"):
        return None
    if _JSON_PATH_STEP is None:
        _JSON_PATH_STEP = re.compile(r"""\.([^.\[\]]+)|\[(\d+)\]|\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]""")
    steps: list = []
    pos = 1
    while pos < len(text):
        m = _JSON_PATH_STEP.match(text, pos)
        if m is None:
            return None
        name, index, quoted1, quoted2 = m.groups()
        steps.append(int(index) if index is not None else name if name is not None else (quoted1 if quoted1 is not None else quoted2))
        pos = m.end()
    return tuple(steps)


def _put_path(obj: Any, steps: tuple, value: Any) -> None:
    """Put ``value`` at ``steps`` (keys and list indices) in ``obj``, creating objects and lists on
    the way and growing lists with nulls to the index named."""
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        empty = None if last else ([] if isinstance(steps[i + 1], int) else {})
        if isinstance(step, int):
            if not isinstance(obj, list):
                raise WrongTypeError("", f"JSON path step [{step}] into a {type(obj).__name__}")
            while len(obj) <= step:
                obj.append(None)
            if last:
                obj[step] = value
                return
            if not isinstance(obj[step], (dict, list)):
                obj[step] = empty
            obj = obj[step]
        else:
            if not isinstance(obj, dict):
                raise WrongTypeError("", f"JSON path step .{step} into a {type(obj).__name__}")
            if last:
                obj[step] = value
                return
            if not isinstance(obj.get(step), (dict, list)):
                obj[step] = empty
            obj = obj[step]

def _fold_parts(parts: list, new: list, appended: list | None = None) -> bool:
    """``append_parts`` on lists: each new part joins the last part when their ``type`` is the same.
    ``appended`` gets (part, (key,), fragment) for each string extended; True when anything else
    changed (a part added, a field set)."""
    changed = False
    for part in new:
        last = parts[-1] if parts else None
        if not isinstance(last, dict) or last.get("type") != part.get("type") or "type" not in part:
            parts.append(part)
            changed = True
            continue
        for key, value in part.items():
            have = last.get(key)
            if key == "type":
                continue
            if isinstance(value, str) and isinstance(have, str):
                extend_text(last, key, value)
                if appended is not None:
                    appended.append((last, (key,), value))
            elif isinstance(value, list) and isinstance(have, list) and all(isinstance(v, dict) for v in value + have):
                changed = _fold_parts(have, value, appended) or changed
            elif value is not None:
                changed = changed or have != value
                last[key] = value
    return changed


def _put(obj: dict, keys: tuple, value: Any) -> None:
    for i, key in enumerate(keys[:-1]):
        nxt = obj[key] if isinstance(key, int) else obj.get(key)
        if not isinstance(nxt, (dict, list)):
            nxt = [] if isinstance(keys[i + 1], int) else {}
            if isinstance(key, int):
                obj[key] = nxt
            else:
                obj[key] = nxt
        obj = nxt
    last = keys[-1]
    if isinstance(last, int) and isinstance(obj, list):
        while len(obj) <= last:
            obj.append({})
    obj[last] = value


#: Whether Accumulator replays an event equal to the last one but for its fragment (tests switch it off
#: to check that the result is the same).
REPEAT = True
_GUARDS: dict[int, tuple] = {}
_GETTERS: dict[tuple, Callable[[Any], Any]] = {}  # (paths, shape) → compiled reader (_getter)


def _repeat_guard(decoder: Any) -> tuple:
    """What the grammar compares event values with, read from its RULES once: (the string constants
    of `when` / `not` conditions, the keys a `continue_if` compares with the element, and those
    keys with the ones a condition or tag reads). A fragment equal to such a constant, or under
    such a key, could be decoded otherwise than the fragment before it: it never takes the repeat
    path; a number under such a key is never taken as one that only names another element
    (``_rebind``)."""
    known = _GUARDS.get(id(decoder))
    if known is not None and known[0] is decoder:
        return known[1]
    constants: set = set()
    compared: set = set()
    conditioned: set = set()  # the keys a `when` / `not` condition reads (_rebind)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for name in ("when", "not"):
                for pair in node.get(name) or ():
                    if isinstance(pair, (list, tuple)) and len(pair) == 2:
                        values = pair[1] if isinstance(pair[1], list) else [pair[1]]
                        constants.update(v for v in values if isinstance(v, str))
                        if isinstance(pair[0], (list, tuple)):  # (the keys a condition reads: RULES spell them as tuples)
                            conditioned.update(pair[0][-1:])
            for pair in node.get("pairs") or () if node.get("op") == "tag" else ():  # (the event says which kind it is)
                if isinstance(pair, (list, tuple)) and len(pair) == 2 and isinstance(pair[0], (list, tuple)):
                    conditioned.update(pair[0][-1:])
            for keys in (node.get("continue_if") or {}).get("same") or ():
                compared.add(keys[-1] if isinstance(keys, (list, tuple)) and keys else keys)
            for value in node.values():
                walk(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value)

    walk(getattr(decoder, "RULES", None))
    guard = (frozenset(constants), frozenset(compared), frozenset(compared | conditioned))
    _GUARDS[id(decoder)] = (decoder, guard)
    return guard


def _reads_with_sets(decoder: Any) -> dict:
    """The decoder's READS with the keys only a top-level `set` reads (SETS) marked by their body
    key: a repeat takes their values from each event into the body (_repeat_of). Built once per
    decoder module, not per accumulator (a translation makes two, a projection one more)."""
    known = _READS.get(id(decoder))
    if known is not None and known[0] is decoder:
        return known[1]
    reads = getattr(decoder, "READS", None) or {}
    sets = getattr(decoder, "SETS", None) or {}
    if sets:
        reads = {name: {**tree, **sets[name]} if name in sets and type(tree) is dict else tree for name, tree in reads.items()}
    _READS[id(decoder)] = (decoder, reads)
    return reads


_READS: dict[int, tuple] = {}  # id(decoder module) → (it, READS with SETS marked)


class _NotReplayable(Exception):
    """An event the repeat path does not take (a float in it, a key that is not a string)."""


def _repeat_of(event: Any, op: tuple, st: StreamState, compared: frozenset, reads: Any = True) -> tuple | None:
    """How to replay ``event`` — whose one change was the fragment ``op`` (an ``append`` or a JSON
    fragment) — for a next event equal to it but for the fragment: where the fragment is in the
    event (the one place that holds that very string), a template of the event to compare the next
    one with, where its fragments go (``_sink``), the op itself (logged for each replay), how the
    reader was made (``_getter``'s paths, shape and types: translate.py inlines the reader; and
    a reader of the numbers with their places in the template, for ``_rebind``) and
    the fields nothing reads (below). None when the fragment is not in one place.

    Sound because decoding is a function of the event and of the body: an event equal to this one
    but for its fragment meets the same conditions (a fragment equal to a condition's constant is
    kept out by the guard) and finds the same element by the same key; every other change this
    event made (a `first`, a `set`, a `merge` of equal values) changes nothing when repeated, and
    changes that do (`extend`, a report) keep an event from being replayed (Accumulator.add).
    "Equal" is Python's ``==`` made strict where it is not: the int and bool leaves must keep their
    types, and an event holding a float is never replayed (-0.0 == 0.0). It is equality of what the
    decoder reads: ``reads`` (the decoder module's READS for this event, ``Accumulator._reads_of``)
    says which keys it never reads (OpenAI's `obfuscation` padding, different on every event).
    Those are noted as (a function that puts the next event's values into the template, their
    (holder, key) in the template, their paths, and the body key of each that a `set` puts at the
    body's top: SETS, marked in ``reads`` by that key); each is taken from the next event into the
    template before the comparison, so the event must carry the same keys, and their values do not
    matter to the comparison: a `set` one goes to the body, as decoding would put it (the latest
    non-null value wins: Ollama's created_at, different on every chunk)."""
    fragment = op[3]
    found: list = []
    numbers: list = []  # paths of the int and bool leaves (1 == 1.0 == True: their types are compared too)
    types: list = []  # and their types
    unread: list = []  # paths of the values nothing reads
    setting: list = []  # (position in unread, body key) of those only a `set` reads (SETS)

    def copy(node: Any, path: tuple, tree: Any) -> Any:
        """A copy of ``node`` (the template), noting where the fragment, the numbers and the values
        nothing reads are (``tree``: what is read of ``node``, as READS says)."""
        is_dict = type(node) is dict
        out: Any = {} if is_dict else [None] * len(node)
        keyed = is_dict and type(tree) is dict  # (else: every key is read)
        item_tree = tree[0] if not is_dict and type(tree) is list else True
        for k, v in node.items() if is_dict else enumerate(node):
            if is_dict and type(k) is not str:
                raise _NotReplayable
            sub = tree.get(k) if keyed else item_tree if tree is not True else True
            if sub is None:  # a key nothing reads: its value is taken from each next event
                unread.append(path + (k,))
                out[k] = v
                continue
            if type(sub) is str:
                # a key of the payload only a `set` of the body's key ``sub`` reads (SETS): taken from
                # each next event too, and put into the body (Ollama's created_at)
                setting.append((len(unread), sub))
                unread.append(path + (k,))
                out[k] = v
                continue
            t = type(v)
            if t is str:  # (most leaves: checked first)
                if v is fragment:
                    found.append(path + (k,))
            elif t is dict or t is list:
                v = copy(v, path + (k,), sub)
            elif t is int or t is bool:
                numbers.append(path + (k,))
                types.append(t)
            elif t is float:
                raise _NotReplayable  # (-0.0 == 0.0: a float is never taken as repeated)
            elif v is fragment:  # (a fragment is a string; a subclass of str all the same)
                found.append(path + (k,))
            out[k] = v
        return out

    if type(event) is not dict:
        return None
    try:
        template = copy(event, (), reads)
    except _NotReplayable:
        return None
    if len(found) != 1:
        return None
    path = found[0]
    if type(path[-1]) is str and path[-1] in compared:
        return None
    owner = template
    for k in path[:-1]:
        owner = owner[k]
    if numbers:  # the fragment, when the numbers have the types they had
        kinds = "(" + "".join(f"type(e{{{i}}}), " for i in range(1, len(numbers) + 1)) + ")"
        # and for _rebind: the numbers of an event, and where they are in the template
        values = _getter(tuple(numbers), "(" + "".join(f"e{{{i}}}, " for i in range(len(numbers))) + ")")
        reader = ((path, *numbers), "e{0} if " + kinds + " == T else None", tuple(types), (values, _places(template, numbers)))
    else:
        reader = ((path,), "e{0}", None, None)
    sink = _sink(st, op)
    if sink is None:
        return None
    skipped = None
    if unread:
        places = _places(template, unread)
        paths = tuple(unread)
        # one function that puts them from an event into the template (T: their (holder, key) there);
        # the hot path of a stream translation writes them itself, into the same places (translate._hot_source)
        copy_in = _getter(paths, "(" + "".join(f"T[{i}][0].__setitem__(T[{i}][1], e{{{i}}}), " for i in range(len(paths))) + ")", places)
        skipped = (copy_in, places, paths, tuple(setting))
    return (_getter(*reader[:3]), owner, path[-1], template, *sink, op, reader, skipped)


def _all_known(node: Any, tree: Any) -> bool:
    """Whether every key of ``node`` is one ``tree`` knows: the check of each decoded event, without
    building a path (``_unknown_keys`` finds them when it is not so)."""
    if tree is True:
        return True
    if type(node) is dict:
        if type(tree) is not dict:
            return True
        if not node.keys() <= tree.keys():
            return False
        for k, v in node.items():
            if type(v) is dict or type(v) is list:
                sub = tree[k]
                if sub is not True and not _all_known(v, sub):
                    return False
    elif type(node) is list and type(tree) is list:
        sub = tree[0]
        if sub is not True:
            for v in node:
                if not _all_known(v, sub):
                    return False
    return True


def _unknown_keys(node: Any, tree: Any, keys: tuple, out: list) -> None:
    """The paths in ``node`` (an event's payload) of the keys ``tree`` (its KNOWN) does not have and
    that hold something (run when ``_all_known`` found one it does not have)."""
    if tree is True:
        return
    if type(node) is dict:
        if type(tree) is not dict:
            return  # (the decoder reads it as something else: its own check says so)
        for k, v in node.items():
            sub = tree.get(k)
            if sub is None:
                if _holds(v):
                    out.append((*keys, k))
            elif sub is not True:
                _unknown_keys(v, sub, (*keys, k), out)
    elif type(node) is list and type(tree) is list:
        for i, v in enumerate(node):
            _unknown_keys(v, tree[0], (*keys, i), out)


def _holds(value: Any) -> bool:
    """Whether a value holds something (not null, "", [] or {}, nor an object of such values): a key
    that holds nothing loses nothing (Mistral's `logprobs: null`, Cohere's empty lists at the start)."""
    if type(value) is dict:
        return any(_holds(v) for v in value.values())
    return value is not None and value != "" and value != []


def _places(template: Any, paths: list) -> tuple:
    """(holder, key) in ``template`` of each of ``paths``: where a value at that path is written."""
    places = []
    for p in paths:
        holder = template
        for k in p[:-1]:
            holder = holder[k]
        places.append((holder, p[-1]))
    return tuple(places)


def _rebind(last: tuple, event: Any, op: tuple, st: StreamState, guard: tuple) -> tuple | None:
    """``_repeat_of`` for an event shaped as the one ``last`` was learnt from, without walking it:
    the same template, its numbers and unread values now this event's, when the event equals it
    so and its fragment ``op`` went to the same field of another element (the next call's first
    argument fragment, whose index names another call). None otherwise (``_repeat_of`` learns).

    Sound as ``_repeat_of`` is: the event equals the template but for the fragment (no constant
    of a condition: ``guard[0]``) and numbers that only say which element it adds to (no
    condition, tag or ``continue_if`` reads their keys: ``guard[2]``), with their types unchanged,
    so it was decoded by the same rules, and its fragment read from the same place, as the event
    ``last`` was learnt from."""
    getter, owner, key, template, _sink_, _key, _fragments, before, reader, unread = last
    if op[0] != before[0] or op[2] != before[2] or op[3] in guard[0]:
        return None
    read = guard[2]
    numbers = reader[3]
    try:
        value = getter(event)  # (None when a number's type changed)
        if value is not op[3]:
            return None
        if numbers is not None:
            for (holder, k), number in zip(numbers[1], numbers[0](event)):
                if holder[k] != number:
                    if k in read:
                        return None
                    holder[k] = number
        if unread is not None:
            unread[0](event)
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    owner[key] = value
    if event != template:
        return None
    sink = _sink(st, op)
    return None if sink is None else (getter, owner, key, template, *sink, op, reader, unread)


def _sink(st: StreamState, op: tuple) -> tuple | None:
    """Where the fragments of ``op``'s field go, right after ``op`` put one there: (container, key,
    None) of its text, or (None, None, list) of its JSON fragments. Valid while the body changes
    only by fragments of this field (an event decoded otherwise drops the repeat path first)."""
    kind, obj, keys = op[0], op[1], op[2]
    if kind == "json":
        entry = st.buffers.get(id(obj))
        fragments = entry[1].get(keys) if entry is not None else None
        return None if fragments is None else (None, None, fragments)
    holder = get(obj, keys[:-1]) if len(keys) > 1 else obj
    key = keys[-1]
    if type(holder) is dict and type(key) is str and type(holder.get(key)) is str:
        return (holder, key, None)
    if type(holder) is list and type(key) is int and 0 <= key < len(holder) and type(holder[key]) is str:
        return (holder, key, None)
    return None


def _getter(paths: tuple, shape: str, bound: Any = None) -> Callable[[Any], Any]:
    """``lambda e: <shape>`` with ``{i}`` in ``shape`` replaced by the subscripts of ``paths[i]`` and
    ``T`` standing for ``bound``, compiled once per (paths, shape): keys are written as literals
    (their repr), nothing else."""
    key = (paths, shape)
    make = _GETTERS.get(key)
    if make is None:
        if len(_GETTERS) > 1024:
            _GETTERS.clear()
        subscripts = ["".join(f"[{k!r}]" for k in p) for p in paths]
        make = _GETTERS[key] = eval("lambda T: lambda e: " + shape.format(*subscripts), {"__builtins__": {"type": type}})  # noqa: S307 (keys only)
    return make(bound)


_ATOMS = frozenset((str, int, float, bool, type(None)))  # JSON's scalars: copy_body keeps them


def copy_body(value: Any, memo: dict) -> Any:
    """``copy.deepcopy(value, memo)`` for a body of JSON values (dicts, lists, scalars), several
    times faster: ``memo`` maps id() of each dict and list copied to its copy (a value of another
    type goes through ``copy.deepcopy``)."""
    kind = type(value)
    if kind is dict:
        out: Any = memo.get(id(value))  # an object the body holds twice: once, as deepcopy does
        if out is None:
            out = memo[id(value)] = {}
            for key, item in value.items():
                out[key] = item if type(item) in _ATOMS else copy_body(item, memo)
        return out
    if kind is list:
        out = memo.get(id(value))
        if out is None:
            out = memo[id(value)] = []
            for item in value:
                out.append(item if type(item) in _ATOMS else copy_body(item, memo))
        return out
    if kind in _ATOMS:
        return value
    import copy

    return copy.deepcopy(value, memo)


def _standing_in(body: dict, unfinished: tuple) -> dict:
    """``body`` with the values of a grammar's ``unfinished`` (body path, value, IR paths, constant)
    put in: a copy of the objects along each path, the rest shared (nothing of ``body`` changes)."""
    top = dict(body)
    for path, value, _irs, _const in unfinished:
        node = top
        for key in path[:-1]:
            child = node.get(key)
            node[key] = node = dict(child) if type(child) is dict else {}
        node[path[-1]] = copy_body(value, {}) if type(value) is dict else value  # (never the module's own object)
    return top


def _unset(obj: Any, ir_path: tuple) -> None:
    """The IR field at ``ir_path`` (attribute names) set to None: a value a stand-in gave it."""
    for name in ir_path[:-1]:
        obj = getattr(obj, name, None)
        if obj is None:
            return
    if hasattr(obj, ir_path[-1]):
        setattr(obj, ir_path[-1], None)


# an SDK object's JSON (every event of an SDK's stream), loaded at its first use
_plain = first_use(globals(), "_plain", "toolwire_runtime.sdk_objects", "plain")


class Accumulator:
    """A provider's stream folded event by event into its complete response.

    ``add(event)`` takes one event (as ``toolwire.stream.parse`` gives it, or the payload an SDK
    yields). While the stream runs, ``text`` and ``calls`` show what has arrived so far (a call's
    ``arguments`` is its argument JSON text so far) and ``body`` the provider's body so far.
    ``provider_body()`` is the complete body (what the non-streamed API answers for the same
    content) and ``response()`` the ``ir.Response``; both may be asked before the end (a partial
    response, reported as an early end) and ``add`` may go on afterwards.
    """

    def __init__(self, provider: str, decoder: Any, to_ir: Callable[[dict, bool], Any], strict: bool = False) -> None:
        self.provider = provider
        self.strict = strict
        self._decoder_module = decoder
        self._template = decoder.BODY
        self.state = StreamState(provider, strict, self._template)
        self._decode = decoder.decode
        self._naming = decoder.NAMING
        self._end = decoder.END
        self._text = decoder.TEXT
        self._calls = decoder.CALLS
        self._unfinished = getattr(decoder, "UNFINISHED", ())
        self._to_ir = to_ir
        self._repeat: tuple | None = None  # how to replay the last event for its next fragment (add)
        self._learnt: tuple | None = None  # the last repeat path learnt, taken again for its next element (_rebind)
        self._guard = _repeat_guard(decoder)
        self._reads = _reads_with_sets(decoder)
        # what the grammar knows of each event (KNOWN): a key beyond it is reported once per place
        # (None: not checked, for the client's mirror of a translation, which reads its own events)
        self._known: dict | None = getattr(decoder, "KNOWN", None)
        self._unread: set = set()

    def add(self, event: Any) -> None:
        if type(event) is not dict:
            event = self.plain(event)
        if self._repeat is not None and self._replayed(event) is not None:
            return
        st = self.state
        own_log = st.log is None
        log = st.log = [] if own_log else st.log
        before = (len(log), st.effects, len(st.reports), len(st.invalid))
        try:
            self._add(event)
        finally:
            if own_log:
                st.log = None
        if len(log) == before[0] + 1 and (st.effects, len(st.reports), len(st.invalid)) == before[1:] and not st.ended:
            op = log[-1]
            if op[0] in ("append", "json") and type(op[3]) is str and op[3] and REPEAT:
                last = self._learnt
                repeat = _rebind(last, event, op, st, self._guard) if last is not None else None
                if repeat is None:
                    repeat = _repeat_of(event, op, st, self._guard[1], self._reads_of(event))
                self._repeat = repeat
                if repeat is not None:
                    self._learnt = repeat

    def _reads_of(self, event: Any) -> Any:
        """What decoding reads of ``event``, as the decoder's READS tree (True: all of it): its
        payload as READS says for its name, and what names it (the framing's event line, the
        payload's `type`, `event_type` or single key); a framing's SSE `id` / `retry` are not read."""
        name, payload = event_parts(event, self._naming)
        tree = self._reads.get(name) if type(name) is str else None
        if tree is None or type(tree) is not dict or type(payload) is not dict:
            return True
        if self._naming in ("type", "event_type"):
            tree = {**tree, self._naming: True}
        elif self._naming == "key":  # {name: payload}, and whatever else the data holds, whole
            data = event["data"] if type(event) is dict and "data" in event and event.keys() <= _FRAME_KEYS else event
            if type(data) is not dict or data.get(name) is not payload:
                return True
            tree = {k: tree if k == name else True for k in data}
        if type(event) is dict and "data" in event and event.keys() <= _FRAME_KEYS:
            return {"event": True, "data": tree}
        return tree

    def _replayed(self, event: Any) -> str | None:
        """The hot path: when ``event`` equals the last event decoded but for its fragment (the next
        text or argument fragment), that fragment, done as that one's was (appended in place);
        otherwise None, and the last event is forgotten (``add`` decodes this one)."""
        getter, owner, key, template, sink, sink_key, fragments, _op, _reader, unread = self._repeat
        try:
            value = getter(event)
            if unread is not None:  # the values nothing reads: the next event's, whatever they are
                unread[0](event)
        except (KeyError, IndexError, TypeError, AttributeError):
            value = None
        if type(value) is str and value and value not in self._guard[0]:
            owner[key] = value
            if event == template:
                self.state.index += 1
                if fragments is not None:  # JSON text, parsed when its element closes
                    fragments.append(value)
                else:
                    extend_text(sink, sink_key, value)
                if unread is not None and unread[3]:  # (a `set` of the body's key: the latest non-null value wins)
                    body = self.state.body
                    places = unread[1]
                    for i, body_key in unread[3]:
                        holder, k = places[i]
                        if holder[k] is not None:
                            body[body_key] = holder[k]
                return value
        self._repeat = None
        return None

    def plain(self, event: Any) -> Any:
        """An event that is not a dict (an SDK's event object, a pydantic model) as its JSON, before
        anything reads it: so SDK objects take the repeat path too (``_replayed``)."""
        event = _plain(event)
        if self._end and type(event) is dict and all(type(x) is str and x[:1] == "[" for x in self._end):
            # the SDK read the framing's terminator ([DONE]) itself and yields no event for it:
            # its iterator ends there (a connection lost before it raises in the SDK)
            self._end = ()
        return event

    def _add(self, event: Any) -> None:
        st = self.state
        st.index += 1
        name, payload = event_parts(event, self._naming)
        if st.ended:
            if isinstance(payload, str):  # a framing terminator (`[DONE]`) after the provider's own end (Cohere v2): nothing to add
                return
            st.after_end(name)
        if not isinstance(payload, (dict, str)) or (type(payload) is str and payload[:1] != "["):
            # (the decoder reads an event's fields from an object; a string is only a sentinel such as [DONE])
            st.fail((), f"an event is an object, got {type(payload).__name__}")
        self._decode(st, name, payload)
        known = self._known
        if known is not None and type(payload) is dict and (tree := known.get(name)) is not None and not _all_known(payload, tree):
            missed: list = []
            _unknown_keys(payload, tree, (), missed)
            if missed:
                self._report_unknown(event, name, payload, missed)

    def _report_unknown(self, event: Any, name: Any, payload: dict, missed: list) -> None:
        """Report the keys of an event its grammar does not know (``KNOWN``), once for each place
        (list positions aside): what they hold is not in the response."""
        data = event["data"] if type(event) is dict and "data" in event and event.keys() <= _FRAME_KEYS else event
        at: tuple = ("data",) if data is not event else ()
        if data is not payload and type(data) is dict:  # (boto3's shape: {name: payload})
            at += next(((k,) for k, v in data.items() if v is payload), ())
        for keys in missed:
            place = (name, *("*" if type(k) is int else k for k in keys))
            if place in self._unread:
                continue
            self._unread.add(place)
            self.state.report((*at, *keys), f"a key the {self.provider} stream grammar does not know (of a {name!r} event): not in the response", LossWarning)

    def add_logged(self, event: Any) -> list:
        """``add``, returning what the event changed (for stream translation)."""
        if type(event) is not dict:
            event = self.plain(event)
        if self._repeat is not None:
            value = self._replayed(event)
            if value is not None:
                op = self._repeat[7]
                return [(op[0], op[1], op[2], value)]
        self.state.log = log = []
        try:
            self.add(event)
        finally:
            self.state.log = None
        return log

    def extend(self, events: Iterable[Any]) -> "Accumulator":
        for event in events:
            self.add(event)
        return self

    @property
    def done(self) -> bool:
        """True once the provider's end of stream arrived."""
        return self.state.complete(self._end)

    @property
    def body(self) -> dict:
        """The provider's response body so far (live; argument JSON still in fragments)."""
        return self.state.body

    @property
    def text(self) -> str:
        """The response text so far."""
        view = self._text
        if view is None:
            return ""
        if "path" in view:
            value = get(self.state.body, tuple(view["path"]))
            return value if isinstance(value, str) else ""
        field = tuple(view["field"])
        return "".join(get(el, field) or "" for el in self._elements(view))

    @property
    def calls(self) -> list[dict]:
        """The tool calls so far: ``{"id", "name", "arguments"}`` with the arguments' JSON text so far."""
        view = self._calls
        if view is None:
            return []
        out = []
        args = tuple(view["arguments"])
        for el in self._elements(view):
            entry = self.state.buffers.get(id(el))
            pending = entry[1].get(args) if entry else None
            value = get(el, args)
            if pending is not None:
                text = "".join(pending)
            elif isinstance(value, str):
                text = value
            elif value is None or (value == {} and id(el) not in self.state.closed):
                text = ""  # nothing yet (Anthropic's start block holds a placeholder {})
            else:
                text = json.dumps(value, ensure_ascii=False)
            out.append({"id": get(el, tuple(view["id"])), "name": get(el, tuple(view["name"])), "arguments": text})
        return out

    def _elements(self, view: dict, body: dict | None = None) -> list:
        items = get(self.state.body if body is None else body, tuple(view["list"]))
        if not isinstance(items, list):
            return []
        when = view.get("when") or {}
        out = [el for el in items if isinstance(el, dict) and all(get(el, tuple(k.split("."))) == v for k, v in when.items())]
        # (wip-stream-bedrock) `has` / `unless`: elements that have / lack a path (Bedrock blocks are
        # told apart by their key: {toolUse: ...}, {text: ...}; a server tool's toolUse has a type)
        if view.get("has"):
            out = [el for el in out if get(el, tuple(view["has"])) is not None]
        if view.get("unless"):
            out = [el for el in out if get(el, tuple(view["unless"])) is None]
        return out

    def _final(self) -> tuple[dict, list]:
        """The complete body (settled on a copy while the stream still runs) and its reports."""
        import warnings

        st = self.state
        if st.ended and not st.buffers:
            body, reports, invalid = st.body, list(st.reports), list(st.invalid)
        else:
            memo: dict = {}
            snap = StreamState(st.provider, st.strict)
            snap.body = copy_body(st.body, memo)
            # an element a later complete value replaced (Cohere v1 tool-calls-generation) is no longer
            # in the body: its pending fragments are moot
            snap.buffers = {id(memo[k]): (memo[k], {f: list(v) for f, v in entry[1].items()}) for k, entry in st.buffers.items() if k in memo}
            snap.index, snap.ended = st.index, st.ended
            snap.invalid, snap.reports = list(st.invalid), list(st.reports)
            body = snap.finish(self._end)
            reports, invalid = snap.reports, snap.invalid
        for where, message, category in reports:
            warnings.warn(category(where, message), stacklevel=4)
        return body, invalid

    def provider_body(self) -> dict:
        """The provider's complete response body (of a stream that ended early: with the values of
        its grammar's ``unfinished`` where it lacks them, so that it is one the provider's converter
        reads; reported as an early end)."""
        body = self._final()[0]
        lacking = self._lacking(body)
        return _standing_in(body, lacking) if lacking else body

    def response(self) -> Any:
        """The ``ir.Response`` of the stream: what ``toolwire.to_ir(provider_body(), kind="response")`` gives."""
        body, invalid = self._final()
        return self.response_of(body, invalid, self.strict)

    def response_of(self, body: dict, invalid: list, strict: bool, quiet: bool = False) -> Any:
        """The ``ir.Response`` of a complete body of this provider (arguments cut mid-JSON kept raw).
        ``quiet``: without emitting its reports (a partial conversion whose warnings are ignored).
        Before the stream's end, where the body lacks them, it converts with the values its grammar's
        ``unfinished`` gives (what the complete response requires and only the end sets: Cohere's
        finish_reason, Ollama's done), and the IR fields they convert to stay unset."""
        unfinished = self._lacking(body)
        if unfinished:
            body = _standing_in(body, unfinished)
        response = self._to_ir(body, strict, quiet) if quiet else self._to_ir(body, strict)
        for _path, _value, irs, _const in unfinished:
            for ir_path in irs:
                _unset(response, ir_path)
        if invalid:
            self._keep_raw(response, body, invalid, strict, quiet)
        return response

    def _lacking(self, body: dict) -> tuple:
        """The grammar's ``unfinished`` values ``body`` lacks before the stream's end: where it has
        no value, or another value than a constant of the complete response (Ollama's done false)."""
        if not self._unfinished or self.state.complete(self._end):
            return ()
        return tuple(x for x in self._unfinished if (have := get(body, x[0])) is None or x[3] and have != x[1])

    def _keep_raw(self, response: Any, body: dict, invalid: list, strict: bool = False, quiet: bool = False) -> None:
        """Calls whose argument text is not JSON (a stream cut inside a call): ``arguments`` {} and the
        text kept raw, as for a complete response with invalid arguments (reported; strict raises)."""
        from .errors import InvalidArgumentsError, LossWarning
        import warnings

        raws = {id(el): text for el, text, _why in invalid}
        calls = [p for p in response.message.parts if getattr(p, "type", None) == "tool_call"]
        elements = self._elements(self._calls, body) if self._calls else []
        for call, el in zip(calls, elements):
            raw = raws.get(id(el))
            if raw is None:
                continue
            message = f"arguments of call {call.id!r} are not valid JSON (the stream ended inside them?); kept raw, parsed as {{}}"
            if strict:
                raise InvalidArgumentsError(("events",), message)
            call.raw_arguments = raw
            if not quiet:
                warnings.warn(LossWarning("", message), stacklevel=3)
