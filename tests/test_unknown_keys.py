"""An unknown key anywhere in a payload comes back, in place, from a same-provider round trip.

"Converting a payload to the IR and back to the same provider gives the same payload" holds for
keys the spec does not know too (a newer API's, a gateway's own): every codec carries them, and so
must every transform that reads an object whole (``key_order``), every value computed from
elsewhere (``computed``), every hint that keeps content (``carries``). For every scenario fixture,
request and response, a key is put into each object of the payload in turn, and the round trip
must give the payload back, key order included, with no report, or refuse it with an error. (Probing
this way found the objects that dropped such a key or moved it: Gemini's functionCallingConfig, an
Anthropic media `source`, Bedrock's DocumentSource, Cohere v1's `tool_results[].call` and the
calls it repeats, a Gemini tool group's keys beside its declarations.)
"""

from __future__ import annotations

import copy
import json
import warnings

import pytest

import toolwire

from conftest import scenarios

SCENARIOS = scenarios()
KEY = "x_unknown_probe"


def _objects(node, path=()):
    """The paths of the objects of a JSON value, outermost first."""
    if type(node) is dict:
        yield path
        for k, v in node.items():
            yield from _objects(v, path + (k,))
    elif type(node) is list:
        for i, v in enumerate(node):
            yield from _objects(v, path + (i,))


def _at(node, path):
    for k in path:
        node = node[k]
    return node


CASES = [(s, p, k) for s, docs in SCENARIOS.items() for p in docs for k in ("request", "response")]


@pytest.mark.parametrize("scenario,provider,kind", CASES)
def test_an_unknown_key_in_any_object_comes_back_from_a_same_provider_round_trip(scenario, provider, kind):
    payload = SCENARIOS[scenario][provider][kind]
    failures = []
    for path in _objects(payload):
        probe = copy.deepcopy(payload)
        _at(probe, path)[KEY] = {"kept": [1, "two"]}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = toolwire.convert(probe, source=provider, target=provider, kind=kind)
            except toolwire.ConversionError:
                # refused with an error at its path, not lost: where the provider's type has no
                # room for another key (Bedrock's AutoToolChoice {}, a union of one member), a part
                # whose keys are all read (summary_parts), or where the object is the content
                # itself (a call's parameters: another call, which the results no longer answer)
                continue
        if json.dumps(out) != json.dumps(probe) or caught:
            failures.append((path, [str(w.message) for w in caught]))
    assert not failures, f"{len(failures)} objects of {scenario}/{provider}.json {kind} lose a key: {failures[:5]}"
