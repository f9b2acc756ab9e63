"""Translated streams are byte-identical to those of the reference implementation (golden digests).

The stream encoder has fast paths (tests/test_stream_translate.py checks what a translated stream
*means*; this checks how it is *spelled*): every recorded stream in ../shared/streams translated
into a target of each stream mechanism (keyed blocks, index-keyed chunks, events numbered and
naming their item, whole calls joined by `key: last`, paired end events, NDJSON whole calls), and
the bench's stream (bench/bench.py ``stream_events``: the fast path) into every target, must give
exactly the events, in key order, recorded in tests/fixtures/stream_translation_digests.json (or
the same error). The digests were taken before the fast paths existed (the interpreted encoder).

When a change of output is intended, rewrite the file (``.venv/bin/python tests/test_stream_digest.py``)
and say why in the commit. Skips the recorded streams cleanly without ../shared.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import pytest

from toolwire import stream

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "fixtures" / "stream_translation_digests.json"
# one target per stream mechanism of the encoder (the bench stream goes into every target)
RECORDED_TARGETS = ("anthropic", "openai_chat", "openai_responses", "gemini", "bedrock_converse", "ollama")
BENCH = "bench:stream_events(40)"


def digest(events, source: str, target: str) -> str:
    """sha256 (16 hex digits) of the translated events as JSON, keys in their order; or of the error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            text = json.dumps(list(stream.convert(events, source=source, target=target)), ensure_ascii=False)
        except Exception as exc:  # noqa: BLE001 (an error is an outcome too: the same one must come)
            text = f"{type(exc).__name__}: {exc}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def recorded() -> list[Path]:
    """The recorded streams tests/test_stream_translate.py translates (none without ../shared)."""
    from test_stream_translate import STREAM_FILES

    return STREAM_FILES


@functools.lru_cache(maxsize=None)
def _doc(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def bench_events(n: int = 40) -> list[dict]:
    spec = importlib.util.spec_from_file_location("toolwire_bench", ROOT / "bench" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.stream_events(n)


def compute() -> dict[str, dict[str, str]]:
    out = {BENCH: {t: digest(bench_events(), "openai_chat", t) for t in sorted(set(stream._DECODERS) - set(stream.NO_TRANSLATION_TO))}}
    for path in recorded():
        doc = _doc(path)
        out[path.stem] = {t: digest(doc["events"], doc["provider"], t) for t in RECORDED_TARGETS}
    return out


def _golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_bench_stream_translates_byte_identically_into_every_target() -> None:
    want = _golden()[BENCH]
    events = bench_events()
    got = {t: digest(events, "openai_chat", t) for t in want}
    assert got == want
    assert set(want) == set(stream._DECODERS) - set(stream.NO_TRANSLATION_TO)


@pytest.mark.parametrize("target", RECORDED_TARGETS)
def test_recorded_streams_translate_byte_identically(target: str) -> None:
    paths = recorded()
    if not paths:
        pytest.skip("../shared/streams is absent")
    golden = _golden()
    missing = [p.stem for p in paths if p.stem not in golden]
    assert not missing, f"recordings without a digest (rewrite {GOLDEN.name} if they are new): {missing[:5]}"
    changed = []
    for path in paths:
        doc = _doc(path)
        if digest(doc["events"], doc["provider"], target) != golden[path.stem][target]:
            changed.append(path.stem)
    assert not changed, f"{len(changed)} translations into {target} changed: {changed[:10]}"


if __name__ == "__main__":  # rewrite the golden digests (an intended change of output)
    GOLDEN.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(_golden())} streams)", file=sys.stderr)


def test_fragments_after_the_first_do_not_read_the_grammar(monkeypatch) -> None:
    """The fast path is taken: translating the bench stream (~400 fragments into four fields)
    builds events from the grammar only at block boundaries and for each field's first fragment."""
    from toolwire_runtime import translate

    calls = []
    original = translate.Encoder._event
    monkeypatch.setattr(translate.Encoder, "_event", lambda self, *a, **k: calls.append(1) or original(self, *a, **k))
    events = bench_events(400)
    for target in ("anthropic", "openai_chat", "openai_responses"):
        calls.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = list(stream.convert(events, source="openai_chat", target=target))
        assert len(out) > 400 and len(calls) < 40, (target, len(out), len(calls))
