"""An unknown key anywhere in a payload comes back, in place, from a same-provider round trip.

"Converting a payload to the IR and back to the same provider gives the same payload" holds for
keys the spec does not know too (a newer API's, a gateway's own): every codec carries them, and so
must every transform that reads an object whole (``key_order``), every value computed from
elsewhere (``computed``), every hint that keeps content (``carries``). For every scenario fixture,
request and response, a key is put into each object of the payload in turn, and the round trip
must give the payload back, key order included, with no report, or refuse it with an error. (Probing
this way found the objects that dropped such a key or moved it: Gemini's functionCallingConfig, an
Anthropic media `source`, Bedrock's DocumentSource, Cohere v1's `tool_results[].call` and the
calls it repeats, a Gemini tool group's keys beside its declarations.) Into another provider, the
key is sent or reported, never dropped without a word (the last test).
"""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path

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


def lost_keys(payload: dict, provider: str, kind: str, paths=None) -> list:
    """The objects of ``payload`` (or those at ``paths``) that lose a key put into them: not given back
    in place by a same-provider round trip, or reported; an error refusing it loses nothing (it says
    where): the provider's type has no room for another key (Bedrock's AutoToolChoice {}, a union of
    one member), a part whose keys are all read (summary_parts), or the object is the content itself
    (a call's parameters: another call, which the results no longer answer)."""
    failures = []
    for path in _objects(payload) if paths is None else paths:
        probe = copy.deepcopy(payload)
        _at(probe, path)[KEY] = {"kept": [1, "two"]}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = toolwire.convert(probe, source=provider, target=provider, kind=kind)
            except toolwire.ConversionError:
                continue
        if json.dumps(out) != json.dumps(probe) or caught:
            failures.append((path, [str(w.message) for w in caught]))
    return failures


@pytest.mark.parametrize("scenario,provider,kind", CASES)
def test_an_unknown_key_in_any_object_comes_back_from_a_same_provider_round_trip(scenario, provider, kind):
    failures = lost_keys(SCENARIOS[scenario][provider][kind], provider, kind)
    assert not failures, f"{len(failures)} objects of {scenario}/{provider}.json {kind} lose a key: {failures[:5]}"

REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "realworld"


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not present")
def test_an_unknown_key_in_any_object_of_the_recorded_bodies_comes_back():
    """The same, over the bodies recorded from the providers' APIs (../shared/realworld/conv_*.jsonl)
    that already round trip byte for byte: each object shape (provider, kind, path with the list
    positions left out) once. (It found a Gemini generationConfig holding only keys the IR lacks
    put after the unknown top-level keys, and Mistral's image_url object reporting a key it could
    carry.)"""
    shapes: set = set()
    failures = []
    for name in ("conv_code.jsonl", "conv_pydantic_ai.jsonl"):
        for number, line in enumerate((REALWORLD / name).read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            provider, kind, payload = row.get("provider"), row.get("kind"), row.get("payload")
            if provider not in toolwire.PROVIDERS or kind not in ("request", "response") or type(payload) is not dict:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    if json.dumps(toolwire.convert(payload, source=provider, target=provider, kind=kind)) != json.dumps(payload):
                        continue  # (not a byte-for-byte round trip to begin with: test_realworld.py's)
                except toolwire.ConversionError:
                    continue
            fresh = []
            for path in _objects(payload):
                shape = (provider, kind, tuple("#" if type(k) is int else k for k in path))
                if shape not in shapes:
                    shapes.add(shape)
                    fresh.append(path)
            failures += [(f"{name}:{number}", *lost) for lost in lost_keys(payload, provider, kind, fresh)]
    assert len(shapes) > 500, len(shapes)
    assert not failures, f"{len(failures)} recorded objects lose a key: {failures[:5]}"


# One target of each codec family: flavours (Azure, Groq, ...) render through their family's codecs.
ACROSS = ("openai_chat", "openai_responses", "anthropic", "gemini", "vertex", "bedrock_converse", "cohere", "cohere_v1", "mistral", "ollama")
def _strings(node) -> list:
    """The strings of a JSON value long enough to tell whether it reached an output."""
    if type(node) is dict:
        return [s for v in node.values() for s in _strings(v)]
    if type(node) is list:
        return [s for v in node for s in _strings(v)]
    return [node] if type(node) is str and len(node) >= 6 else []


def _names(message: str, path: tuple) -> bool:
    """Whether a report names the probe key (``tools[0].parameters.x_unknown_probe: ...``), or the
    object holding it or one around it as a field that goes (``tools[0]: openai_chat fields function
    have no anthropic equivalent``: the object ``function`` carried the probe; ``<root>: cohere_v1
    fields chat_history ...``: the history, and every object in it)."""
    if KEY in message:
        return True
    if " fields " not in message or " have no " not in message:
        return False
    listed = message.split(" fields ", 1)[1].split(" have no ", 1)[0].split(", ")
    steps = [str(k) for k in path]
    for entry in listed:  # (a field named from where the report is: a run of the object's path)
        keys = entry.split(".")
        if any(steps[i : i + len(keys)] == keys for i in range(len(steps) - len(keys) + 1)):
            return True
    return False


def silent_drops(payload: dict, provider: str, kind: str, target: str, paths) -> list:
    """The objects of ``payload`` at ``paths`` whose unknown key neither reaches ``target`` nor is
    reported: no report names the key or the object holding it, and the object is sent (its strings,
    or its nearest enclosing object's, reach the output; an object dropped whole is reported as a
    whole, once, and its keys with it)."""
    failures = []
    for path in paths:
        probe = copy.deepcopy(payload)
        _at(probe, path)[KEY] = {"kept": [1, "two"]}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                text = json.dumps(toolwire.convert(probe, source=provider, target=target, kind=kind), ensure_ascii=False)
            except toolwire.ConversionError:
                continue  # (refused, with where)
        if KEY in text or any(_names(str(w.message), path) for w in caught):
            continue
        strings = next((found for n in range(len(path), -1, -1) if (found := _strings(_at(payload, path[:n])))), [])
        if caught and not any(s in text for s in strings):
            continue  # (dropped whole, and the conversion reports a loss)
        failures.append((path, [str(w.message) for w in caught]))
    return failures


@pytest.mark.parametrize("provider", sorted({p for docs in SCENARIOS.values() for p in docs}))
def test_an_unknown_key_into_another_provider_is_carried_or_reported(provider):
    """Into another provider, a key the spec does not know is sent where the target has the same
    object, or reported (converting is not a round trip: most targets have no place for it), never
    dropped without a word. Each object shape (kind, path with the list positions left out) of the
    provider's scenario fixtures once per payload, into one target of each codec family. (It found a text part
    joined into Cohere's plan or a Gemini tool result, an image into Ollama's list of base64
    strings and reasoning into Ollama's `thinking` string dropping what the part carried.)"""
    failures = []
    for scenario, docs in SCENARIOS.items():
        if provider not in docs:
            continue
        for kind in ("request", "response"):
            payload = docs[provider][kind]
            shapes: set = set()  # (per payload: an object's place in the conversation decides where it goes)
            fresh = []
            for path in _objects(payload):
                shape = (kind, tuple("#" if type(k) is int else k for k in path))
                if shape not in shapes:
                    shapes.add(shape)
                    fresh.append(path)
            for target in ACROSS:
                if target != provider:
                    failures += [(scenario, kind, target, *lost) for lost in silent_drops(payload, provider, kind, target, fresh)]
    assert not failures, f"{len(failures)} objects drop a key without a report: {failures[:5]}"
