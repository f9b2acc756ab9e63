"""Provider rules as data: `tests/rules/<provider>/<rule>.json`, one documented rule per file.

A provider's rules (what it does with an input its wire cannot take as is, what it refuses, what it
reports) are tested without Python: each file converts one payload and states what must come out.

    {
      "_source": ["where the rule is documented"],
      "rule": "one sentence: the rule",
      "convert": {"from": "openai_chat", "kind": "request", "payload": {...}, "model": null},
      "expect": {...},                      # the whole converted body, or
      "expect_subset": {...},               # keys that must be in it with these values (recursively)
      "expect_absent": ["messages.0.name"], # dotted paths that must not be in it
      "expect_reports": ["substring", ...], # each must occur in one reported warning (in order given)
      "expect_no_reports": true,            # nothing may be reported
      "expect_error": {"class": "UnknownVariantError", "path": "messages[1].content[1].type"}
    }

The provider is the folder's name (the target); `convert.from` is the source (the provider itself
for a same-provider parse and render).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import toolwire

RULES = Path(__file__).parent / "rules"
CASES = sorted(p for p in RULES.glob("*/*.json"))
KEYS = {"_source", "rule", "convert", "expect", "expect_subset", "expect_absent", "expect_reports", "expect_no_reports", "expect_error"}


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_rule(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    target = path.parent.name
    assert target in toolwire.PROVIDERS, f"{path}: folder names no provider"
    assert set(case) <= KEYS, f"{path}: unknown keys {sorted(set(case) - KEYS)}"
    assert case.get("_source") and case.get("rule"), f"{path}: say the rule and where it is documented"
    assert set(case) & {"expect", "expect_subset", "expect_absent", "expect_reports", "expect_no_reports", "expect_error"}, f"{path}: expects nothing"
    conv = case["convert"]
    run = lambda: toolwire.convert(  # noqa: E731
        conv["payload"], source=conv["from"], target=target, kind=conv.get("kind", "request"), model=conv.get("model")
    )
    if "expect_error" in case:
        want = case["expect_error"]
        with pytest.raises(toolwire.ConversionError) as info:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", toolwire.ConversionWarning)
                run()
        assert type(info.value).__name__ == want["class"], str(info.value)
        if "path" in want:
            assert str(info.value).startswith(want["path"] + ":"), str(info.value)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = run()
    reports = [str(w.message) for w in caught if issubclass(w.category, toolwire.ConversionWarning)]
    if "expect" in case:
        assert out == case["expect"]
    if "expect_subset" in case:
        _assert_subset(out, case["expect_subset"], "")
    for dotted in case.get("expect_absent", []):
        assert not _has(out, dotted.split(".")), f"{dotted} is in the output"
    for text in case.get("expect_reports", []):
        assert any(text in r for r in reports), f"no report mentions {text!r}: {reports}"
    if case.get("expect_no_reports"):
        assert reports == []


def _assert_subset(value: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert isinstance(value, dict), f"{where or '<root>'}: expected an object, got {value!r}"
        for key, sub in want.items():
            assert key in value, f"{where}.{key} is missing"
            _assert_subset(value[key], sub, f"{where}.{key}")
    elif isinstance(want, list) and want and all(isinstance(w, dict) for w in want):
        assert isinstance(value, list) and len(value) == len(want), f"{where}: expected {len(want)} items, got {value!r}"
        for i, (v, w) in enumerate(zip(value, want)):
            _assert_subset(v, w, f"{where}.{i}")
    else:
        assert value == want, f"{where}: expected {want!r}, got {value!r}"


def _has(value: Any, keys: list[str]) -> bool:
    for key in keys:
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return False
    return True


def test_the_runner_fails_what_it_must(tmp_path):
    """A wrong expectation fails (so a passing case means something)."""
    with pytest.raises(AssertionError):
        _assert_subset({"a": {"b": 1}}, {"a": {"b": 2}}, "")
    with pytest.raises(AssertionError):
        _assert_subset({"a": [{"b": 1}]}, {"a": [{"b": 1}, {"b": 2}]}, "")
    assert _has({"m": [{"name": "x"}]}, ["m", "0", "name"]) and not _has({"m": [{}]}, ["m", "0", "name"])
