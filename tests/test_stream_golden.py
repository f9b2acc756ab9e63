"""Golden stream fixtures (issue 11, "Fixtures and evidence"): hand-written streams, one file per
provider stream grammar in tests/fixtures/_streams/ (README there), each scenario's events written
as ``stream.parse`` yields them, next to the complete body the non-streamed API answers (inline, or
the ``response`` of an existing scenario folder).

For every (provider, scenario):
- the events accumulate to exactly that body (``as_provider=True``), and to its IR;
- every event is valid for the provider SDK's stream event types, the body for its response types;
- ``write`` then ``parse`` gives the same events back;
- translated into every translatable provider, the stream accumulates to the converted response
  (tests/test_stream_translate.py ``check_translation``: the commutative square).
"""

from __future__ import annotations

import copy
import json
import re
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import stream
from conftest import scenarios
from sdk_stream_events import validate_event
from sdk_validation import WIRE_FAMILY, validate
from stream_compare import comparable
from test_stream_accumulate import _keys
from test_stream_translate import check_translation

GOLDEN = Path(__file__).parent / "fixtures" / "_streams"
REQUIRED = ("text_only", "one_call", "parallel_calls", "call_without_arguments", "text_then_call", "thinking_then_call", "usage")
# Every provider with a stream grammar of its own family must have a file (README: the flavours skipped).
GRAMMAR_FAMILIES = ("anthropic", "openai_chat", "openai_responses", "gemini", "vertex", "bedrock_converse", "ollama", "cohere", "cohere_v1", "mistral")
TARGETS = sorted(set(stream._DECODERS) - set(stream.NO_TRANSLATION_TO))

# Fields of the non-streamed body that no event of the provider's stream carries: compared after
# removing exactly that field from the expected body, (wire family, path) -> why.
INHERENT: dict[tuple[str, tuple], str] = {
    ("openai_chat", ("choices", "*", "message", "annotations")): (
        "ChatCompletionChunk's ChoiceDelta has no annotations: the non-streamed message's `annotations: []` is never streamed"),
}

# Null fields the stream does carry (as null) but the decoder leaves out of the accumulated body:
# a decoder discrepancy (reported), so the main comparison removes them and
# test_golden_stream_keeps_the_nulls_it_carries holds the exact comparison as a strict xfail.
# (A field that `set`, `first` or `append` reads from the event is kept as null: system_fingerprint,
# refusal, and the choice's `logprobs`, which a `set` under `unless: logprobs` reads beside the
# `extend` of its lists.)
NULLS_DROPPED: dict[tuple[str, tuple], str] = {}

# Translations known not to hold, (source, scenario, target) -> why (strict: drop the entry when one holds).
# (Cohere v1 calls into whole-call targets held once: a call without a close event is complete
# when the next one starts or the stream ends.)
TRANSLATION_GAPS: dict[tuple[str, str, str], str] = {}

# Translated streams that end without their target's end event, (target, scenario) -> why (strict xfail).
# (Bedrock held once: its stream now opens with messageStart and sends messageStop and metadata.)
INCOMPLETE_TRANSLATIONS: dict[tuple[str, str], str] = {}


def _files() -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(GOLDEN.glob("*.json"))}


FILES = _files()


def _impossible() -> dict[tuple[str, str], str]:
    """(provider, scenario) -> reason, from the README's table of scenarios a provider cannot stream."""
    text = (GOLDEN / "README.md").read_text(encoding="utf-8")
    section = text.split("## Scenarios a provider cannot stream", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[2]:
            out[cells[0].strip("`"), cells[1].strip("`")] = cells[2]
    return out


def _cases(with_targets: bool = False) -> list:
    out = []
    for provider, doc in FILES.items():
        for scenario in doc["scenarios"]:
            if with_targets:
                for t in TARGETS:
                    gap = TRANSLATION_GAPS.get((provider, scenario, t))
                    gap_marks = [pytest.mark.xfail(strict=True, reason=gap)] if gap else []
                    out.append(pytest.param(provider, scenario, t, id=f"{provider}-{scenario}->{t}", marks=gap_marks))
            else:
                out.append(pytest.param(provider, scenario, id=f"{provider}-{scenario}"))
    return out


def quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _events(provider: str, scenario: str) -> list[dict]:
    return FILES[provider]["scenarios"][scenario]["events"]


def _expected(provider: str, scenario: str) -> dict:
    case = FILES[provider]["scenarios"][scenario]
    if "response_fixture" in case:
        return scenarios()[case["response_fixture"]][provider]["response"]
    return case["response"]


def _drop(body: dict, path: tuple) -> dict:
    """body without the field at path ("*" walks every item of a list)."""
    body = copy.deepcopy(body)

    def walk(node, rest):
        if not rest or node is None:
            return
        head, *tail = rest
        if head == "*":
            for item in node:
                walk(item, tail)
        elif not tail:
            node.pop(head, None)
        elif head in node:
            walk(node[head], tail)

    walk(body, list(path))
    return body


def _family(provider: str) -> str:
    return WIRE_FAMILY.get(provider) or provider


def _comparable_body(provider: str, body: dict, nulls: bool = False) -> dict:
    for (family, path) in [*INHERENT, *([] if nulls else NULLS_DROPPED)]:
        if family == _family(provider):
            body = _drop(body, path)
    return body


def _null_cases() -> list:
    out = []
    for param in _cases():
        provider, scenario = param.values
        want = _expected(provider, scenario)
        if _comparable_body(provider, want, nulls=True) != _comparable_body(provider, want):
            reasons = "; ".join(r for (f, _), r in NULLS_DROPPED.items() if f == _family(provider))
            out.append(pytest.param(provider, scenario, id=param.id, marks=pytest.mark.xfail(strict=True, reason=f"decoder drops carried nulls: {reasons}")))
        else:
            out.append(param)
    return out


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_stream_accumulates_to_the_expected_body(provider: str, scenario: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a golden stream is complete and well-formed: no warning at all
        body = stream.accumulate(_events(provider, scenario), provider=provider, as_provider=True)
    assert _comparable_body(provider, body) == _comparable_body(provider, _expected(provider, scenario))


@pytest.mark.parametrize("provider, scenario", _null_cases())
def test_golden_stream_keeps_the_nulls_it_carries(provider: str, scenario: str) -> None:
    """The exact comparison, nulls included (only fields no event carries removed)."""
    body = quiet(stream.accumulate, _events(provider, scenario), provider=provider, as_provider=True)
    assert _comparable_body(provider, body, nulls=True) == _comparable_body(provider, _expected(provider, scenario), nulls=True)


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_stream_accumulates_to_the_expected_ir(provider: str, scenario: str) -> None:
    got = quiet(stream.accumulate, _events(provider, scenario), provider=provider)
    want = quiet(toolwire.to_ir, _expected(provider, scenario), provider=provider, kind="response")
    assert comparable(got) == comparable(want)


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_events_are_valid_for_the_sdk(provider: str, scenario: str) -> None:
    family = WIRE_FAMILY.get(provider) or provider
    for i, event in enumerate(_events(provider, scenario)):
        errors = validate_event(family, event)
        assert errors is not None, f"no SDK stream event checker for {family}"
        assert not errors, f"event {i} {event!r:.300}: {errors}"


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_expected_body_is_valid_for_the_sdk(provider: str, scenario: str) -> None:
    """As tests/test_stream_accumulate.py checks accumulated bodies: valid for the SDK's response types,
    except a key the SDK does not declare that the provider itself streams (DeepSeek's reasoning_content)."""
    errors = validate(provider, "response", _expected(provider, scenario))
    streamed = _keys([e["data"] for e in _events(provider, scenario)], set())
    errors = [e for e in errors if not (" key not declared by " in e and e.split(":")[0].rsplit(".", 1)[-1] in streamed)]
    assert errors == []


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_stream_written_parses_back(provider: str, scenario: str) -> None:
    events = _events(provider, scenario)
    raw = b"".join(stream.write(events, provider=provider))
    assert list(stream.parse(raw, provider=provider)) == events


@pytest.mark.parametrize("provider, scenario, target", _cases(with_targets=True))
def test_golden_stream_translates_to_the_converted_response(provider: str, scenario: str, target: str) -> None:
    check_translation({"provider": provider, "events": _events(provider, scenario)}, target)


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_stream_translated_into_its_own_provider_keeps_its_body(provider: str, scenario: str) -> None:
    """Into its own provider, a golden stream accumulates to the body the golden stream itself does,
    the nulls it carries included (OpenAI's `logprobs: null`, which the translated finish chunk says)."""
    out = quiet(lambda: list(stream.convert(_events(provider, scenario), source=provider, target=provider)))
    want = quiet(stream.accumulate, _events(provider, scenario), provider=provider, as_provider=True)
    assert quiet(stream.accumulate, out, provider=provider, as_provider=True) == want


@pytest.mark.parametrize("provider, scenario", _cases())
def test_golden_stream_into_openai_chat_says_the_role_once(provider: str, scenario: str) -> None:
    """A `first` field is said by the event that brings it, not again with a later field of the same
    event kind: the finish chunk's delta is empty, as OpenAI's is (it repeated the role)."""
    out = quiet(lambda: list(stream.convert(_events(provider, scenario), source=provider, target="openai_chat")))
    roles = [i for i, e in enumerate(out) if isinstance(e["data"], dict) for c in e["data"]["choices"] if "role" in c["delta"]]
    finishes = [e["data"]["choices"][0] for e in out if isinstance(e["data"], dict) and any(c.get("finish_reason") for c in e["data"]["choices"])]
    assert len(roles) == 1 and len(finishes) == 1
    assert finishes[0]["delta"] == {}


def _complete_cases() -> list:
    out = []
    for provider, doc in FILES.items():
        for scenario in doc["scenarios"]:
            for t in TARGETS:
                why = INCOMPLETE_TRANSLATIONS.get((t, scenario))
                marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
                out.append(pytest.param(provider, scenario, t, id=f"{provider}-{scenario}->{t}", marks=marks))
    return out


@pytest.mark.parametrize("provider, scenario, target", _complete_cases())
def test_golden_stream_translated_is_a_complete_stream_of_the_target(provider: str, scenario: str, target: str) -> None:
    """A complete golden stream translates into a complete stream of the target: it accumulates
    without any warning (no early end), as the golden stream itself does."""
    out = quiet(lambda: list(stream.convert(_events(provider, scenario), source=provider, target=target)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", stream.StreamEndedEarlyWarning)
        stream.accumulate(out, provider=target)


def test_every_stream_grammar_has_its_golden_file_with_every_scenario() -> None:
    impossible = _impossible()
    assert set(GRAMMAR_FAMILIES) <= set(FILES), sorted(set(GRAMMAR_FAMILIES) - set(FILES))
    assert set(FILES) <= set(stream._DECODERS), sorted(set(FILES) - set(stream._DECODERS))
    # a flavour's file (deepseek) holds only the scenarios where its stream differs from its family's
    missing = [(p, s) for p in GRAMMAR_FAMILIES for s in REQUIRED if s not in FILES[p]["scenarios"] and (p, s) not in impossible]
    assert all(FILES[p]["scenarios"] for p in FILES)
    assert not missing, f"scenarios neither present nor listed as impossible in _streams/README.md: {missing}"
    both = [(p, s) for (p, s) in impossible if s in FILES.get(p, {}).get("scenarios", {})]
    assert not both, f"listed as impossible but present: {both}"
    for p, doc in FILES.items():
        assert doc["_source"] and all(re.search(r"\S", s) for s in doc["_source"])
        for s, case in doc["scenarios"].items():
            assert ("response" in case) != ("response_fixture" in case), (p, s)
            if "response_fixture" in case:
                assert p in scenarios()[case["response_fixture"]], (p, s, case["response_fixture"])
