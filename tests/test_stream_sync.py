"""Shortcuts of stream translation's sync points (toolwire_runtime/translate.py ``Encoder._sync_mark``):
where the text of a source field goes in the target is found once per layout with a marker, and
later streams of that layout take it from a cache when the target body holds the field's text at its
end there. Translating a stream with the cache empty and again with it filled must give exactly
the same events (or the same error), for every golden and recorded stream."""

from __future__ import annotations

import json
import warnings

import pytest

from toolwire import stream
from toolwire_runtime import translate

from test_stream_digest import RECORDED_TARGETS
from test_stream_golden import FILES
from test_stream_translate import STREAM_FILES


def _translate(events: list, source: str, target: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return json.dumps(list(stream.convert(events, source=source, target=target)), ensure_ascii=False)
        except Exception as exc:  # noqa: BLE001 (an error is an outcome too: the same one must come)
            return f"{type(exc).__name__}: {exc}"


def _cold_and_warm(events: list, source: str, target: str) -> tuple[str, str]:
    translate._MARKS.clear()
    cold = _translate(events, source, target)
    return cold, _translate(events, source, target)


@pytest.mark.parametrize("target", RECORDED_TARGETS)
def test_recorded_streams_translate_the_same_with_known_routes(target: str) -> None:
    if not STREAM_FILES:
        pytest.skip("../shared/streams is absent")
    changed = []
    for path in STREAM_FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        cold, warm = _cold_and_warm(doc["events"], doc["provider"], target)
        if cold != warm:
            changed.append(path.stem)
    assert not changed, f"{len(changed)} translations into {target} differ with a known route: {changed[:10]}"


@pytest.mark.parametrize("source", sorted(FILES))
def test_golden_streams_translate_the_same_with_known_routes(source: str) -> None:
    for scenario, case in FILES[source]["scenarios"].items():
        for target in RECORDED_TARGETS:
            cold, warm = _cold_and_warm(case["events"], source, target)
            assert cold == warm, (scenario, target)


def test_a_known_route_saves_the_marked_conversion(monkeypatch) -> None:
    """The second stream of a layout converts once at its first text fragment, not twice; a stream
    whose text is not where the route says (another layout of the same kinds) is marked again."""
    # OpenAI Chat Completions chunks (openai-python ChatCompletionChunk)
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}

    events = [chunk({"role": "assistant", "content": ""}), chunk({"content": "Hel"}), chunk({"content": "lo"}), chunk({}, "stop"), {"data": "[DONE]"}]
    conversions = []
    convert = translate.Encoder._convert

    def counted(self, *args):
        conversions.append(args[-1])
        return convert(self, *args)

    monkeypatch.setattr(translate.Encoder, "_convert", counted)
    translate._MARKS.clear()
    first = list(stream.convert(events, source="openai_chat", target="anthropic"))
    cold = len(conversions)
    conversions.clear()
    second = list(stream.convert(events, source="openai_chat", target="anthropic"))
    assert second == first
    assert len(conversions) == cold - 1
    assert [e["data"]["delta"]["text"] for e in second if e["event"] == "content_block_delta"] == ["Hel", "lo"]
    # the route's place holds other text: the marker finds the place again
    (layout, route), = translate._MARKS.items()
    translate._MARKS[layout] = (("content", 5), route[1], route[2])
    conversions.clear()
    assert list(stream.convert(events, source="openai_chat", target="anthropic")) == first
    assert len(conversions) == cold
