"""Real recorded bodies and real tool schemas (``../shared/realworld/``, see its README).

Every recorded request/response body that is valid for its own provider (by the official SDK types,
``tests/sdk_validation.py``) must

* come back byte for byte from a same-provider round trip (``json.dumps`` equal, key order included),
* convert to every other provider, and the converted body must validate with the target's SDK types;

and every real tool definition, wrapped in a minimal request of its own format, must convert to every
provider with a valid result.

What does not hold yet is listed in ``tests/realworld_gaps.json`` (issue 9), one key per payload (and
target), with the first error for a reader. Its ``api_rejects`` section is different: bodies that
the SDK types accept but the provider's API itself rejects by a documented rule (the reason says
which); toolwire must refuse them with a ConversionError, and they are not counted as valid. Its
``refused`` section lists conversions that must fail with a ConversionError because the target
cannot take what the body says (a result answering a call kept in the provider's stored state, a
recursive schema for Gemini's legacy parameters): the key is a payload (every target) or
``payload -> target``, with the reason. The tests fail on any failure not listed there and on any
listed entry that now passes, so the list can only shrink. After a fix, rewrite it with
``TOOLWIRE_UPDATE_GAPS=1 pytest tests/test_realworld.py`` and review the diff.

The data is read from ``../shared/`` in place; the module is skipped when it is absent.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

import toolwire
from sdk_validation import validate

REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "realworld"
GAPS_FILE = Path(__file__).parent / "realworld_gaps.json"
CONVERSATIONS = ("conv_pydantic_ai.jsonl", "conv_code.jsonl")
TOOLS = tuple(sorted(p.name for p in REALWORLD.glob("tools_*.jsonl"))) if REALWORLD.is_dir() else ()

pytestmark = pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not present")

# A tool definition of each recorded format, wrapped in the smallest valid request of a provider.
_USER = "What should I do next?"
_TOOL_REQUESTS = {
    "openai_chat_tool": ("openai_chat", lambda t: {"model": "gpt-4.1", "messages": [{"role": "user", "content": _USER}], "tools": [t]}),
    "openai_responses_tool": ("openai_responses", lambda t: {"model": "gpt-4.1", "input": [{"role": "user", "content": _USER}], "tools": [t]}),
    "anthropic": ("anthropic", lambda t: {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": _USER}], "tools": [t]}),
    # MCP tools/list entries are sent to Anthropic as they are, with inputSchema as input_schema.
    "mcp": ("anthropic", lambda t: {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": _USER}],
                                    "tools": [{"name": t["name"], "description": t.get("description", ""), "input_schema": t["inputSchema"]}]}),
    "gemini_decl": ("gemini", lambda t: {"contents": [{"role": "user", "parts": [{"text": _USER}]}], "tools": [{"functionDeclarations": [t]}]}),
    "function": ("gemini", lambda t: {"contents": [{"role": "user", "parts": [{"text": _USER}]}], "tools": [{"functionDeclarations": [t]}]}),
    "bedrock": ("bedrock_converse", lambda t: {"messages": [{"role": "user", "content": [{"text": _USER}]}], "toolConfig": {"tools": [t]}}),
}


def _rows(name: str) -> Iterator[tuple[str, dict]]:
    with open(REALWORLD / name, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            yield f"{name.removesuffix('.jsonl')}:{number}", json.loads(line)


def _errors(provider: str, kind: str, payload: Any) -> list[str]:
    """The SDK checker's errors; an SDK that crashes on the payload rejects it too."""
    try:
        return validate(provider, kind, payload)
    except Exception as exc:  # noqa: BLE001 (e.g. google-genai's enum lookup on a list-valued type)
        return [f"the SDK types crash on it: {type(exc).__name__}: {exc}"]


def _first_error(errors: list[str]) -> str:
    return errors[0][:160] + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")


def _convert(payload: Any, source: str, target: str, kind: str) -> tuple[Any, str | None]:
    """The converted body, or None and the error's summary. Across providers ``model=`` stands in
    for the model a Gemini / Bedrock body has in its URL (it replaces the source's model)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        try:
            model = None if source == target else "model-from-url"
            return toolwire.convert(payload, source=source, target=target, kind=kind, model=model), None
        except toolwire.ConversionError as exc:
            return None, f"{type(exc).__name__}: {str(exc)[:160]}"


def _refused() -> dict[str, str]:
    return json.loads(GAPS_FILE.read_text(encoding="utf-8")).get("refused", {})


def _check_targets(key: str, payload: Any, source: str, kind: str, out: dict[str, str], refused: dict[str, str]) -> None:
    listed = _refused()
    for target in toolwire.PROVIDERS:
        if target == source:
            continue
        body, error = _convert(payload, source, target, kind)
        if error is None:
            errors = _errors(target, kind, body)
            error = f"invalid: {_first_error(errors)}" if errors else None
        name = f"{key} -> {target}"
        if error and not error.startswith("invalid:") and (key in listed or name in listed):
            refused[name] = error  # an expected refusal (a ConversionError), not a gap
        elif error:
            out[name] = error


@functools.cache
def _results() -> dict[str, Any]:
    """Every check of the corpus: failures by check, and counts for the summary."""
    round_trip: dict[str, str] = {}
    convert: dict[str, str] = {}
    tools: dict[str, str] = {}
    counts = {"bodies": 0, "valid": 0, "conversions": 0, "tools": 0, "tool_conversions": 0, "api_rejects": 0}
    refused: dict[str, str] = {}
    api_rejects = json.loads(GAPS_FILE.read_text(encoding="utf-8")).get("api_rejects", {})
    for name in CONVERSATIONS:
        for key, row in _rows(name):
            provider, kind, payload = row["provider"], row["kind"], row["payload"]
            counts["bodies"] += 1
            if provider not in toolwire.PROVIDERS or kind not in ("request", "response"):
                continue
            if _errors(provider, kind, payload):
                continue  # a recording of an error case, or an SDK-level dict: not a valid body
            if key in api_rejects:
                counts["api_rejects"] += 1
                continue
            counts["valid"] += 1
            back, error = _convert(payload, provider, provider, kind)
            if error is None and back != payload:
                error = "value differs"
            elif error is None and json.dumps(back) != json.dumps(payload):
                error = "key order differs"
            if error:
                round_trip[key] = error
            counts["conversions"] += len(toolwire.PROVIDERS) - 1
            _check_targets(key, payload, provider, kind, convert, refused)
    for name in TOOLS:
        for key, row in _rows(name):
            source, wrap = _TOOL_REQUESTS[row["format"]]
            payload = wrap(row["tool"])
            counts["tools"] += 1
            if _errors(source, "request", payload):
                continue
            counts["tool_conversions"] += len(toolwire.PROVIDERS) - 1
            _check_targets(key, payload, source, "request", tools, refused)
    return {"round_trip": round_trip, "convert": convert, "tools": tools, "counts": counts, "refused": refused}


def _gaps() -> dict[str, dict[str, str]]:
    if os.environ.get("TOOLWIRE_UPDATE_GAPS"):
        found = _results()
        data = {check: dict(sorted(found[check].items())) for check in ("round_trip", "convert", "tools")}
        data["api_rejects"] = json.loads(GAPS_FILE.read_text(encoding="utf-8")).get("api_rejects", {})
        data["refused"] = _refused()
        GAPS_FILE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return json.loads(GAPS_FILE.read_text(encoding="utf-8"))


def _compare(check: str) -> None:
    found, known = _results()[check], _gaps()[check]
    new = {k: v for k, v in found.items() if k not in known}
    fixed = sorted(k for k in known if k not in found)
    assert not new, f"{len(new)} new {check} failures (first 20): " + json.dumps(dict(list(new.items())[:20]), indent=1)
    assert not fixed, f"{len(fixed)} listed {check} gaps now pass; remove them (TOOLWIRE_UPDATE_GAPS=1): {fixed[:20]}"


def test_corpus_has_valid_bodies() -> None:
    counts = _results()["counts"]
    assert counts["valid"] > 1000 and counts["tools"] > 300, counts


def test_same_provider_round_trip_is_byte_for_byte() -> None:
    _compare("round_trip")


def test_every_valid_body_converts_to_every_target_validly() -> None:
    _compare("convert")


def test_every_real_tool_schema_converts_to_every_target_validly() -> None:
    _compare("tools")


def _row(key: str) -> dict:
    name, number = key.rsplit(":", 1)
    with open(REALWORLD / f"{name}.jsonl", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if n == int(number):
                return json.loads(line)
    raise KeyError(key)


def test_bodies_the_api_rejects_are_refused_with_a_path() -> None:
    rejects = _gaps().get("api_rejects", {})
    for key in rejects:
        row = _row(key)
        assert _errors(row["provider"], row["kind"], row["payload"]) == [], f"{key}: the SDK types reject it; not an API-only rule"
        back, error = _convert(row["payload"], row["provider"], row["provider"], row["kind"])
        assert back is None and error, f"{key} is listed as rejected by the API ({rejects[key]}) but converts"


def test_listed_refusals_are_refused_with_a_conversion_error() -> None:
    seen = _results()["refused"]
    for entry in _refused():
        hits = [name for name in seen if name == entry or name.startswith(entry + " -> ")]
        assert hits, f"{entry} is listed as refused but converts (remove it from 'refused')"
