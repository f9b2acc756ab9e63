"""Golden fixtures: every scenario, every provider, every (source, target) pair — derived from the files.

Adding a scenario folder or a provider file adds its tests.
"""

from __future__ import annotations

import warnings

import pytest

import toolwire

import losses
from conftest import ID_LESS, call_ids, comparable_ir, rename, scenarios, strip_wire_defaults

SCENARIOS = scenarios()
KINDS = ("request", "response")

ROUND_TRIPS = [(s, p, k) for s, docs in SCENARIOS.items() for p in docs for k in KINDS]
PAIRS = [(s, a, b) for s, docs in SCENARIOS.items() for a in docs for b in docs if a != b]
GROUPS = [(s, k) for s, docs in SCENARIOS.items() if len(docs) > 1 for k in KINDS]


def test_fixture_set_is_complete():
    assert len(SCENARIOS) >= 15
    for name, docs in SCENARIOS.items():
        for provider, doc in docs.items():
            assert doc.get("_source"), f"{name}/{provider}.json says nowhere where its shapes come from"
            assert set(doc) >= {"request", "response"}


@pytest.mark.parametrize("scenario,provider,kind", ROUND_TRIPS)
def test_same_provider_round_trip_is_identity(scenario, provider, kind):
    payload = SCENARIOS[scenario][provider][kind]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a round trip to the same provider loses nothing
        node = toolwire.to_ir(payload, provider=provider, kind=kind)
        assert toolwire.from_ir(node, provider=provider) == payload


@pytest.mark.parametrize("scenario,source,target", PAIRS)
def test_request_conversion_matches_target_fixture(scenario, source, target):
    src, dst = SCENARIOS[scenario][source], SCENARIOS[scenario][target]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = toolwire.convert(src["request"], source=source, target=target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        src_ir = toolwire.to_ir(src["request"], provider=source)
        says_less = losses.apply(source, toolwire.to_ir(dst["request"], provider=target)).changed
        target_loses = losses.apply(target, src_ir)
    if says_less or target_loses.changed:
        # a documented loss (spec `cannot_express` `ir:`) applies: the source's fixture cannot say
        # all the target's says, or the target cannot say all the source's. The conversion must
        # mean what the source meant, up to the target's losses; the exact spelling of a lossy
        # rendering is not a golden file's business
        if "model" not in src["request"]:  # the source's model is in its URL: the caller names it for the target
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = toolwire.convert(src["request"], source=source, target=target, model="model-from-caller")
        ordinal = bool({source, target} & ID_LESS)
        back = toolwire.to_ir(out, provider=target)
        assert comparable_ir(back, ordinal) == comparable_ir(target_loses.node, ordinal)
        return
    want = dict(dst["request"])
    if source in ID_LESS:
        # the source sent no ids: the target gets synthesized ones (or none, where ids are optional)
        made = call_ids(src_ir)
        if losses.ids_refitted(target):  # the synthesized ids were rewritten to fit the target
            made = call_ids(toolwire.to_ir(out, provider=target))
        fixture = call_ids(toolwire.to_ir(dst["request"], provider=target))
        out = rename(out, dict(zip(made, fixture)))
        want = drop_ids(want, set(fixture) - set(fixture_ids_in(out)))
    # the model name is provider-specific: convert passes the source's through (Gemini has none in the body)
    if "model" in out:
        want["model"] = out["model"]
    else:
        want.pop("model", None)
    assert strip_wire_defaults(out, target) == strip_wire_defaults(want, target)


def fixture_ids_in(value) -> list[str]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in fixture_ids_in(v)]
    if isinstance(value, list):
        return [x for v in value for x in fixture_ids_in(v)]
    return [value] if isinstance(value, str) else []


def drop_ids(value, ids: set[str]):
    """The payload without `"id": <one of ids>` entries (optional ids an id-less source cannot give)."""
    if isinstance(value, dict):
        return {k: drop_ids(v, ids) for k, v in value.items() if not (k == "id" and v in ids)}
    if isinstance(value, list):
        return [drop_ids(v, ids) for v in value]
    return value


@pytest.mark.parametrize("scenario,source,target", PAIRS)
def test_response_conversion_keeps_meaning(scenario, source, target):
    payload = SCENARIOS[scenario][source]["response"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = toolwire.convert(payload, source=source, target=target, kind="response")
        back = toolwire.to_ir(out, provider=target, kind="response")
    ordinal = bool({source, target} & ID_LESS)
    # reasoning travels as far as the target can take it (signatures only within their family)
    want = losses.apply_reasoning(target, toolwire.to_ir(payload, provider=source, kind="response"))
    assert comparable_ir(back, ordinal) == comparable_ir(want, ordinal)


@pytest.mark.parametrize("scenario,kind", GROUPS)
def test_all_providers_reach_the_same_ir(scenario, kind):
    docs = SCENARIOS[scenario]
    irs = {}
    for provider, doc in docs.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            irs[provider] = toolwire.to_ir(doc[kind], provider=provider, kind=kind)
    providers = sorted(irs)
    for a in providers:
        for b in providers:
            if a < b:
                # both as what both can say: through the documented losses (spec `cannot_express` `ir:`)
                # of each, in one order for both sides (a filled-in default and a dropped field do not commute)
                # (twice: reasoning text that one of them takes from anywhere and the other only from its
                # own family is what both can say only after a second pass)
                if kind == "request":
                    both = lambda node: losses.apply(a, losses.apply(b, node).node).node  # noqa: E731
                else:  # a response loses only reasoning
                    both = lambda node: losses.apply_reasoning(a, losses.apply_reasoning(b, node))  # noqa: E731
                left, right = both(both(irs[a])), both(both(irs[b]))
                assert comparable_ir(left, True) == comparable_ir(right, True), f"{a} and {b} disagree on {scenario} {kind}"
