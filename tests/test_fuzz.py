"""Fuzzing: mutated payloads either convert or raise ``toolwire.ConversionError``, nothing else.

Seeds are the golden fixtures (every scenario, every provider, request and response). A hypothesis
strategy picks a seed and applies 1–3 structural mutations at random JSON paths: drop a key or list
item, replace a value with one of another JSON type (nested empty containers included), rename a key
(typo), truncate a string (argument JSON text included), wrap in / unwrap from a list or an object,
graft a subtree from elsewhere in the payload (wrong nesting), duplicate / reorder / empty a list,
inject a key (unknown, a field name of some provider, or a dotted key like the ones provider_data
uses for nested unknown keys), replace JSON text with deeply nested JSON text. Every mutated payload
is converted from its provider to every provider (strict=False, and strict=True on some examples);
the same-provider ``to_ir`` + ``from_ir`` round trip is fuzzed too. Fixed cases: non-object top-level
bodies, and values nested as deeply as ``json.loads`` accepts. Anything but a ``ConversionError``
(KeyError, TypeError, AttributeError, IndexError, a bare ValueError, RecursionError, ...) fails.

Deterministic (``derandomize=True``, no example database); about 20 s on two cores. To explore
further, raise ``max_examples`` in ``FUZZ`` locally or drop ``derandomize``.
"""

from __future__ import annotations

import copy
import json
import sys
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire

from conftest import scenarios

KINDS = ("request", "response")
PROVIDERS = toolwire.PROVIDERS
SCENARIOS = scenarios()

#: (provider, kind) → [(label, payload)] — the seed payloads.
SEEDS: dict[tuple[str, str], list[tuple[str, Any]]] = {}
for _scenario, _docs in SCENARIOS.items():
    for _provider, _doc in _docs.items():
        for _kind in KINDS:
            if _kind in _doc:
                SEEDS.setdefault((_provider, _kind), []).append(
                    (f"{_scenario}/{_provider}.json:{_kind}", _doc[_kind])
                )


def _vocabulary() -> tuple[list[str], list[str]]:
    """Every key and every short string value of every fixture: other providers' field names, roles,
    part types and enum values make mutations reach deep into the converters."""
    keys: set[str] = set()
    strings: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                keys.add(k)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) <= 40:
            strings.add(value)

    for docs in SCENARIOS.values():
        for doc in docs.values():
            walk(doc.get("request"))
            walk(doc.get("response"))
    return sorted(keys), sorted(strings)


KEY_POOL, STRING_POOL = _vocabulary()

# ---------------------------------------------------------------------------------------------------
# Values

_EMPTYISH = [[], {}, [[]], [{}], {"": {}}, {"a": []}, [None], {"type": None}, [[], {}], ""]
_JSON_TEXTS = [
    "",
    "{",
    "}",
    "null",
    "[]",
    "{}",
    "[1]",
    '"x"',
    "1",
    "true",
    '{"a":',
    "{}}",
    "\ud800",
]

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2**31, 2**63, -(2**63) - 1]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1.5, 1e308]),
    st.text(max_size=8),
    st.sampled_from(STRING_POOL),
    st.sampled_from(_JSON_TEXTS),
)
json_values = st.one_of(
    json_scalars,
    st.sampled_from(_EMPTYISH).map(copy.deepcopy),
    st.recursive(
        json_scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.one_of(st.sampled_from(KEY_POOL), st.text(max_size=5)), inner, max_size=3
            ),
        ),
        max_leaves=6,
    ),
)

# ---------------------------------------------------------------------------------------------------
# JSON paths

Path = tuple  # of str (object key) / int (list index)


def _paths(value: Any, prefix: Path = ()) -> list[tuple[Path, Any]]:
    """Every (path, value) in the document, the root included, parents before children."""
    out = [(prefix, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, prefix + (i,)))
    return out


def _get(root: Any, path: Path) -> Any:
    for key in path:
        root = root[key]
    return root


def _set(root: Any, path: Path, value: Any) -> Any:
    """Put ``value`` at ``path``; returns the (possibly new) root."""
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def show_path(path: Path) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out or "<root>"


# ---------------------------------------------------------------------------------------------------
# Mutations. Each takes (draw, payload) and returns (payload, description), or None if it does not
# apply to this payload (e.g. no string to truncate).

Mutation = Callable[[Any, Any], "tuple[Any, str] | None"]


def _pick(draw, payload: Any, test: Callable[[Path, Any], bool]) -> "tuple[Path, Any] | None":
    candidates = [(p, v) for p, v in _paths(payload) if test(p, v)]
    if not candidates:
        return None
    return draw(st.sampled_from(candidates))


def _in_dict(p: Path, v: Any) -> bool:
    return bool(p) and isinstance(p[-1], str)


def drop(draw, payload):
    """Drop an object key or a list item."""
    hit = _pick(draw, payload, lambda p, v: bool(p))
    if hit is None:
        return None
    path, _ = hit
    parent = _get(payload, path[:-1])
    del parent[path[-1]]
    return payload, f"drop {show_path(path)}"


def replace(draw, payload):
    """Replace a value with an arbitrary JSON value (another type, nested empties, ...)."""
    path, _ = draw(st.sampled_from(_paths(payload)))
    value = draw(json_values)
    return _set(payload, path, value), f"replace {show_path(path)} with {json.dumps(value)}"


def rename(draw, payload):
    """Rename a key: a typo, a case change, or another provider's field name."""
    hit = _pick(draw, payload, _in_dict)
    if hit is None:
        return None
    path, value = hit
    old = path[-1]
    how = draw(st.sampled_from(["drop_char", "add_char", "upper", "pool"]))
    if how == "drop_char" and old:
        i = draw(st.integers(0, len(old) - 1))
        new = old[:i] + old[i + 1 :]
    elif how == "upper":
        new = old.swapcase()
    elif how == "pool":
        new = draw(st.sampled_from(KEY_POOL))
    else:
        new = old + draw(st.sampled_from(["_", "s", "x", "Id"]))
    parent = _get(payload, path[:-1])
    # Rebuild to keep the key order (converters may care about order).
    items = [(new if k == old else k, v) for k, v in parent.items() if k != new or k == old]
    parent.clear()
    parent.update(items)
    return payload, f"rename {show_path(path)} -> {new!r}"


def truncate(draw, payload):
    """Cut a string short (argument JSON text becomes invalid JSON)."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, str) and len(v) > 0)
    if hit is None:
        return None
    path, value = hit
    n = draw(st.integers(0, len(value) - 1))
    return _set(payload, path, value[:n]), f"truncate {show_path(path)} to {value[:n]!r}"


def wrap(draw, payload):
    """Wrap a value in a one-element list, or in an object under some field name."""
    path, value = draw(st.sampled_from(_paths(payload)))
    if draw(st.booleans()):
        return _set(payload, path, [value]), f"wrap {show_path(path)} in a list"
    key = draw(st.sampled_from(KEY_POOL))
    return _set(payload, path, {key: value}), f"wrap {show_path(path)} in {{{key!r}: ...}}"


def unwrap(draw, payload):
    """Replace a non-empty list or object with one of its items (a dict where a list of dicts is
    expected, a string where an object is expected, ...)."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, (list, dict)) and len(v) > 0)
    if hit is None:
        return None
    path, value = hit
    keys = list(range(len(value))) if isinstance(value, list) else list(value)
    key = draw(st.sampled_from(keys))
    return _set(payload, path, value[key]), f"unwrap {show_path(path)} to its [{key!r}]"


def as_list(draw, payload):
    """Replace an object with the list of its values (a list where an object is expected)."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, dict))
    if hit is None:
        return None
    path, value = hit
    return (
        _set(payload, path, list(value.values())),
        f"object {show_path(path)} -> list of its values",
    )


def graft(draw, payload):
    """Put a copy of another subtree of the payload somewhere else (wrong nesting)."""
    paths = _paths(payload)
    target, _ = draw(st.sampled_from(paths))
    source, value = draw(st.sampled_from(paths))
    return (
        _set(payload, target, copy.deepcopy(value)),
        f"graft {show_path(source)} onto {show_path(target)}",
    )


def duplicate(draw, payload):
    """Duplicate a list item (repeated ids, repeated tool results, consecutive same-role turns)."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, list) and len(v) > 0)
    if hit is None:
        return None
    path, value = hit
    i = draw(st.integers(0, len(value) - 1))
    value.insert(i, copy.deepcopy(value[i]))
    return payload, f"duplicate {show_path(path + (i,))}"


def empty(draw, payload):
    """Empty a list or an object."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, (list, dict)) and len(v) > 0)
    if hit is None:
        return None
    path, value = hit
    value.clear()
    return payload, f"empty {show_path(path)}"


def reorder(draw, payload):
    """Permute a list (results before their calls, system message last, ...)."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, list) and len(v) > 1)
    if hit is None:
        return None
    path, value = hit
    order = draw(st.permutations(range(len(value))))
    value[:] = [value[i] for i in order]
    return payload, f"reorder {show_path(path)} as {list(order)}"


_DOT_TAILS = ["0", "1", "99", "x", "type", "0.x"]
_ODD_KEYS = ["x_unknown", "", "_", ".", "__proto__", "0", "a.b", "x.0", "0.x"]
# Dotted keys look like the paths under which nested unknown keys are kept in provider_data.
_dotted_keys = st.builds(
    "{}.{}".format,
    st.sampled_from(KEY_POOL),
    st.one_of(st.sampled_from(KEY_POOL), st.sampled_from(_DOT_TAILS)),
)


def inject(draw, payload):
    """Add a key to an object: an unknown one, or a field name of some provider."""
    hit = _pick(draw, payload, lambda p, v: isinstance(v, dict))
    if hit is None:
        return None
    path, value = hit
    keys = [st.sampled_from(KEY_POOL), st.sampled_from(_ODD_KEYS), _dotted_keys]
    if value:  # a dotted key under one of this object's own keys
        keys.append(
            st.builds("{}.{}".format, st.sampled_from(list(value)), st.sampled_from(_DOT_TAILS))
        )
    key = draw(st.one_of(keys))
    new = draw(json_values)
    value[key] = new
    return payload, f"inject {show_path(path + (key,))} = {json.dumps(new)}"


_DEEP_TEXTS = [
    "[" * 3000,  # truncated and deep
    "[" * 3000 + "]" * 3000,  # valid JSON, too deep for the json module
    '{"a":' * 3000 + "1" + "}" * 3000,
]


def deepen(draw, payload):
    """Replace JSON text (argument strings, string results) with deeply nested JSON text."""
    strings = [(p, v) for p, v in _paths(payload) if isinstance(v, str)]
    if not strings:
        return None
    json_like = [(p, v) for p, v in strings if v[:1] in ("{", "[")]
    path, value = draw(st.sampled_from(json_like or strings))
    deep = draw(st.sampled_from(_DEEP_TEXTS))
    return (
        _set(payload, path, deep),
        f"replace {show_path(path)} with deeply nested JSON text {deep[:12]!r}...",
    )


MUTATIONS: list[Mutation] = [
    drop,
    replace,
    rename,
    truncate,
    wrap,
    unwrap,
    as_list,
    graft,
    duplicate,
    empty,
    reorder,
    inject,
    deepen,
]


@dataclass
class Case:
    """A mutated seed, as hypothesis reports a falsifying example: where it came from, what was done."""

    seed: str
    mutations: list[str]
    payload: Any


@st.composite
def mutated(draw, provider: str, kind: str) -> Case:
    label, seed = draw(st.sampled_from(SEEDS[(provider, kind)]))
    payload = copy.deepcopy(seed)
    done: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        result = draw(st.sampled_from(MUTATIONS))(draw, payload)
        if result is not None:
            payload, description = result
            done.append(description)
    return Case(label, done, payload)


# ---------------------------------------------------------------------------------------------------
# Tests

FUZZ = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
SOURCES = [(p, k) for p in PROVIDERS for k in KINDS if (p, k) in SEEDS]


def _convert_everywhere(payload: Any, source: str, kind: str, strict: bool) -> None:
    for target in PROVIDERS:
        for mode in (False, True) if strict else (False,):
            try:
                toolwire.convert(payload, source=source, target=target, kind=kind, strict=mode)
            except toolwire.ConversionError:
                pass


@pytest.mark.parametrize("source,kind", SOURCES)
def test_mutated_payloads_convert_or_raise_conversion_error(source, kind):
    @FUZZ
    @given(case=mutated(source, kind), strict=st.booleans())
    def check(case: Case, strict: bool) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", toolwire.ConversionWarning)
            _convert_everywhere(case.payload, source, kind, strict)

    check()


@pytest.mark.parametrize("source,kind", SOURCES)
def test_mutated_payloads_survive_same_provider_round_trip(source, kind):
    @settings(FUZZ, max_examples=200)
    @given(case=mutated(source, kind), strict=st.booleans())
    def check(case: Case, strict: bool) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", toolwire.ConversionWarning)
            try:
                node = toolwire.to_ir(case.payload, provider=source, kind=kind, strict=strict)
                toolwire.from_ir(node, provider=source, strict=strict)
            except toolwire.ConversionError:
                pass

    check()


NON_OBJECTS = [None, [], [{}], "", "{}", 0, 1.5, True]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("source", PROVIDERS)
@pytest.mark.parametrize("payload", NON_OBJECTS + ["seed-in-a-list"], ids=repr)
def test_non_object_top_level_is_a_conversion_error(source, kind, payload):
    if payload == "seed-in-a-list":
        seeds = SEEDS.get((source, kind))
        if not seeds:
            pytest.skip("no seed")
        payload = [copy.deepcopy(seeds[0][1])]
    for target in PROVIDERS:
        with pytest.raises(toolwire.ConversionError):
            toolwire.convert(payload, source=source, target=target, kind=kind)
    with pytest.raises(toolwire.ConversionError):
        toolwire.to_ir(payload, provider=source, kind=kind)


def _deepest_loadable_object() -> dict:
    """The most deeply nested object ``json.loads`` still accepts here: a payload a client can get."""
    for depth in range(sys.getrecursionlimit(), 0, -5):
        try:
            return json.loads('{"a":' * depth + "1" + "}" * depth)
        except RecursionError:
            continue
    raise AssertionError("unreachable")


def _deep_payloads(deep: dict) -> list[tuple[str, str, Any]]:
    call = {"role": "user", "content": "hi"}
    return [
        (
            "anthropic",
            "request",
            {
                "model": "m",
                "messages": [
                    call,
                    {
                        "role": "assistant",
                        "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": deep}],
                    },
                ],
            },
        ),
        (
            "gemini",
            "request",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    {
                        "role": "model",
                        "parts": [{"functionCall": {"id": "c1", "name": "f", "args": deep}}],
                    },
                    {
                        "role": "user",
                        "parts": [
                            {"functionResponse": {"id": "c1", "name": "f", "response": deep}}
                        ],
                    },
                ]
            },
        ),
        (
            "gemini",
            "response",
            {
                "candidates": [
                    {
                        "content": {
                            "role": "model",
                            "parts": [{"functionCall": {"id": "c1", "name": "f", "args": deep}}],
                        }
                    }
                ]
            },
        ),
    ]


@pytest.mark.parametrize("target", PROVIDERS)
def test_deeply_nested_values_are_not_a_recursion_error(target):
    deep = _deepest_loadable_object()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        for source, kind, payload in _deep_payloads(deep):
            if source not in PROVIDERS:
                continue
            try:
                toolwire.convert(payload, source=source, target=target, kind=kind)
            except toolwire.ConversionError:
                pass
