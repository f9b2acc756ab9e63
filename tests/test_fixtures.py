"""Golden fixtures: every scenario, every provider, every (source, target) pair — derived from the files.

Adding a scenario folder or a provider file adds its tests.
"""

from __future__ import annotations

import warnings

import pytest

import toolwire

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
    if source in dst.get("_lossy_from", {}):
        # documented loss: the conversion must still mean what the source meant, as far as the target can say
        if "model" not in src["request"]:  # the source's model is in its URL: the caller names it for the target
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = toolwire.convert(src["request"], source=source, target=target, model="model-from-caller")
        back = toolwire.to_ir(out, provider=target)
        assert [m.role for m in back.messages] == [m.role for m in toolwire.to_ir(src["request"], provider=source).messages]
        return
    want = dict(dst["request"])
    if source in ID_LESS:
        # the source sent no ids: the target gets synthesized ones (or none, where ids are optional)
        made = call_ids(toolwire.to_ir(src["request"], provider=source))
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
    want = toolwire.to_ir(payload, provider=source, kind="response")
    assert comparable_ir(back, ordinal) == comparable_ir(want, ordinal)


@pytest.mark.parametrize("scenario,kind", GROUPS)
def test_all_providers_reach_the_same_ir(scenario, kind):
    docs = SCENARIOS[scenario]
    irs = {}
    for provider, doc in docs.items():
        if kind == "request" and doc.get("_lossy_from"):
            lossy = set(doc["_lossy_from"])
        else:
            lossy = set()
        irs[provider] = (comparable_ir(toolwire.to_ir(doc[kind], provider=provider, kind=kind), bool(ID_LESS)), lossy)
    providers = sorted(irs)
    for a in providers:
        for b in providers:
            if a < b and b not in irs[a][1] and a not in irs[b][1]:
                assert irs[a][0] == irs[b][0], f"{a} and {b} disagree on {scenario} {kind}"
