"""Every wire variant the coverage check lists is exercised by a fixture written for it (issue 9 §5).

``generator/coverage.py`` classifies every variant (a union member's tag, an enum value) of each
provider's derived wire schema as mapped, opaque or cannot_express. ``tests/wire_variants/<family>.json``
holds, per wire family, one small complete body per variant (``cases``, keyed ``<codec>.<variant>``;
a case may cover several variants with ``covers``), written from the providers' API references and
SDK types (see that folder's README). Tested here:

* completeness: every variant any provider of the family lists has a case, and every case names
  only variants that exist (so the data stays honest as the derived schemas change);
* each case is valid for its family's official SDK types, names the variants it covers, and, from
  every provider of the family,
  - comes back byte for byte from a same-provider round trip — or, where one of its variants is
    cannot_express for that provider, raises a ConversionError or reports the loss;
  - converts to every other provider to a body valid for the target's SDK types, or raises a
    ConversionError (a clear refusal); any other exception is a failure.

What does not hold yet is listed in ``tests/wire_variants/gaps.json``; the tests fail on any failure
not listed there and on any listed entry that now passes, so the list can only shrink. After a fix,
rewrite it with ``TOOLWIRE_UPDATE_GAPS=1 pytest tests/test_wire_variants.py`` and review the diff.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import warnings
from pathlib import Path
from typing import Any

import pytest

import toolwire
from generator.spec import load_spec
from sdk_validation import as_flavour, validate

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "wire_variants"
GAPS_FILE = DATA / "gaps.json"
STATUSES = ("mapped", "opaque", "cannot_express")

# provider → its wire family (the generated module's FAMILY: deepseek → openai_chat, vertex → gemini, …)
FAMILY = {name: importlib.import_module(f"toolwire.providers.{name}").FAMILY for name in toolwire.PROVIDERS}
FAMILIES = sorted(set(FAMILY.values()))
MEMBERS = {family: [p for p in toolwire.PROVIDERS if FAMILY[p] == family] for family in FAMILIES}


@functools.cache
def _variants() -> dict[str, dict[str, str]]:
    """provider → ``codec.variant`` → coverage status, as ``python -m generator check`` computes it."""
    spec, errors = load_spec(ROOT)
    assert not errors.items, [str(e) for e in errors.items]
    return {
        p.name: {f"{codec}.{tag}": status for (codec, tag), status in p.coverage.variants.items()}
        for p in spec.providers
        if p.coverage is not None
    }


@functools.cache
def _data(family: str) -> dict:
    """The family's file; a missing one has no cases (the completeness test then names what to add)."""
    path = DATA / f"{family}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"cases": {}}


def _covers(name: str, case: dict) -> list[str]:
    return [name, *[k for k in case.get("covers", []) if k != name]]


def _cases() -> list[tuple[str, str, dict]]:
    return [(family, name, case) for family in FAMILIES for name, case in _data(family)["cases"].items()]


# --- completeness ---------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", sorted(toolwire.PROVIDERS))
def test_every_listed_variant_has_a_case(provider: str) -> None:
    family = FAMILY[provider]
    covered = {k for name, case in _data(family)["cases"].items() for k in _covers(name, case)}
    missing = [f"{key} ({status})" for key, status in sorted(_variants()[provider].items()) if key not in covered]
    assert not missing, (
        f"{provider} lists wire variants no case of tests/wire_variants/{family}.json exercises; "
        f"add a case (or a `covers` entry) for each: " + ", ".join(missing)
    )


@pytest.mark.parametrize("family", FAMILIES)
def test_every_case_names_existing_variants(family: str) -> None:
    known = {k for p in MEMBERS[family] for k in _variants()[p]}
    stale = [
        f"{name}: {key}"
        for name, case in _data(family)["cases"].items()
        for key in _covers(name, case)
        if key not in known
    ]
    assert not stale, f"tests/wire_variants/{family}.json names variants no {family} provider lists: {stale}"
    assert _data(family).get("_source"), f"tests/wire_variants/{family}.json has no _source"


# --- the cases ------------------------------------------------------------------------------------


def _convert(payload: Any, source: str, target: str, kind: str) -> tuple[Any, bool, str | None]:
    """(body, whether a loss was reported, error summary). Across providers ``model=`` stands in for
    the model a Gemini / Bedrock body has in its URL."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = None if source == target else "model-from-url"
            body = toolwire.convert(payload, source=source, target=target, kind=kind, model=model)
        except toolwire.ConversionError as exc:
            return None, False, f"refused: {type(exc).__name__}"
        except Exception as exc:  # noqa: BLE001 (a crash is a failure, recorded as such)
            return None, False, f"crash: {type(exc).__name__}: {str(exc)[:160]}"
    lost = any(issubclass(w.category, toolwire.ConversionWarning) for w in caught)
    return body, lost, None


def _sdk_errors(provider: str, kind: str, payload: Any) -> list[str]:
    try:
        return validate(provider, kind, payload)
    except Exception as exc:  # noqa: BLE001 (an SDK that crashes on a body rejects it)
        return [f"the SDK types crash on it: {type(exc).__name__}: {exc}"]


def _difference(want: Any, got: Any, path: str = "") -> str:
    """Where a round trip first differs from its input, for a reader of gaps.json."""
    if type(want) is dict and type(got) is dict:
        if list(want) != list(got) and sorted(want) == sorted(got) and want == got:
            return f"key order differs at {path or '<root>'}"
        for k in want:
            if k not in got:
                return f"{path}.{k} missing" if path else f"{k} missing"
            if want[k] != got[k] or json.dumps(want[k]) != json.dumps(got[k]):
                return _difference(want[k], got[k], f"{path}.{k}" if path else k)
        return f"{path or '<root>'} has extra keys {sorted(set(got) - set(want))}"
    if type(want) is list and type(got) is list and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got)):
            if json.dumps(a) != json.dumps(b):
                return _difference(a, b, f"{path}[{i}]")
    short = lambda v: json.dumps(v, ensure_ascii=False)[:70]  # noqa: E731
    return f"{path or '<root>'}: {short(want)} came back as {short(got)}"


def _first(errors: list[str]) -> str:
    return errors[0][:160] + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")


@functools.cache
def _failures(family: str, name: str) -> dict[str, str]:
    """Every failed check of one case, keyed ``<family>/<case> <check>``."""
    case = _data(family)["cases"][name]
    kind, family_payload = case["kind"], case["payload"]
    key = f"{family}/{name}"
    out: dict[str, str] = {}
    for source in MEMBERS[family]:
        # a flavour's body: the family's with the differences its spec states (Bedrock: no model)
        payload = as_flavour(source, kind, family_payload)
        statuses = {_variants()[source].get(k) for k in _covers(name, case)}
        back, lost, error = _convert(payload, source, source, kind)
        if "cannot_express" in statuses:
            # The provider cannot express one of the case's variants: a clear error or a reported loss.
            if error and error.startswith("crash"):
                out[f"{key} {source} round trip"] = error
            elif error is None and not lost:
                out[f"{key} {source} round trip"] = "cannot_express variant neither refused nor reported"
        elif error:
            out[f"{key} {source} round trip"] = error
        elif json.dumps(back) != json.dumps(payload):
            out[f"{key} {source} round trip"] = _difference(payload, back)
        for target in toolwire.PROVIDERS:
            if target == source:
                continue
            body, _, error = _convert(payload, source, target, kind)
            if error and error.startswith("refused"):
                continue  # a clear refusal (ConversionError) is an accepted outcome
            if error is None and (errors := _sdk_errors(target, kind, body)):
                error = f"invalid: {_first(errors)}"
            if error:
                out[f"{key} {source} -> {target}"] = error
    return out


@functools.cache
def _gaps() -> dict[str, str]:
    if os.environ.get("TOOLWIRE_UPDATE_GAPS"):
        found = {k: v for family, name, _ in _cases() for k, v in _failures(family, name).items()}
        GAPS_FILE.write_text(json.dumps(dict(sorted(found.items())), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return json.loads(GAPS_FILE.read_text(encoding="utf-8")) if GAPS_FILE.exists() else {}


@pytest.mark.parametrize(("family", "name", "case"), _cases(), ids=[f"{f}/{n}" for f, n, _ in _cases()])
def test_case(family: str, name: str, case: dict) -> None:
    assert case.get("_source"), f"{family}/{name} has no _source"
    assert case.get("kind") in ("request", "response"), f"{family}/{name}: kind must be request or response"
    payload, text = case["payload"], json.dumps(case["payload"])
    absent = [k for k in _covers(name, case) if json.dumps(k.split(".", 1)[1]) not in text]
    assert not absent, f"{family}/{name}: the payload does not contain the variant(s) {absent}"
    errors = _sdk_errors(family, case["kind"], payload)
    assert not errors, f"{family}/{name} is not a valid {family} {case['kind']}: {errors}"

    prefix = f"{family}/{name} "
    found = _failures(family, name)
    known = {k: v for k, v in _gaps().items() if k.startswith(prefix)}
    new = {k: v for k, v in found.items() if k not in known}
    fixed = sorted(k for k in known if k not in found)
    assert not new, f"{len(new)} failures not listed in tests/wire_variants/gaps.json: " + json.dumps(new, indent=1)
    assert not fixed, f"listed gaps now pass; remove them from tests/wire_variants/gaps.json (TOOLWIRE_UPDATE_GAPS=1): {fixed}"


def test_every_gap_names_a_case() -> None:
    prefixes = {f"{family}/{name} " for family, name, _ in _cases()}
    orphans = [k for k in _gaps() if not any(k.startswith(p) for p in prefixes)]
    assert not orphans, f"tests/wire_variants/gaps.json lists checks of cases that do not exist: {orphans}"
