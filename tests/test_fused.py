"""The fused converters (generated/toolwire/fused/, generator/fuse.py) against the general path.

For every fused pair, every payload gives the same body (byte for byte, key order included),
the same warnings (category, message, path) and the same error (class and message) with the
fused path on and off, in normal and strict mode, and the input is not changed. The payloads:
the golden fixtures, the recorded real-world requests (../shared/realworld/, when present),
real tool schemas in a request, the benchmark workload and conversations, and variants made to
sit on each side of every condition under which the fused path gives up (Deopt). Tests also
show that the common shapes do take the fused path (a fast path never taken proves nothing).
"""

from __future__ import annotations

import copy
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

import toolwire
from toolwire.fused import PAIRS
from toolwire_runtime import fused
from toolwire_runtime.context import Context

from conftest import scenarios

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SOURCES = sorted({s for s, _ in PAIRS})


def _outcome(payload: Any, source: str, target: str, strict: bool, enabled: bool, model: str | None = None) -> tuple:
    fused.ENABLED = enabled
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                body = json.dumps(toolwire.convert(payload, source=source, target=target, strict=strict, model=model), ensure_ascii=False)
                result: tuple = ("ok", body)
            except Exception as exc:  # noqa: BLE001 (the class and message are compared)
                result = ("error", type(exc).__name__, str(exc))
        return result, [(w.category.__name__, str(w.message), getattr(w.message, "path", None)) for w in caught]
    finally:
        fused.ENABLED = True


def _taken(payload: Any, source: str, target: str, model: str | None = None) -> bool:
    """Whether the fused function converts the payload itself (no Deopt)."""
    module, name, data = PAIRS[source, target]
    fn = getattr(sys.modules.get(module) or __import__(module, fromlist=[name]), name)
    ctx = Context(target)
    ctx.data = data
    try:
        fn(copy.deepcopy(payload), ctx, model)
    except fused.Deopt:
        return False
    return True


# toolwire.convert's model=: a gateway names the target's model (one with rules of its own too)
MODELS = {
    "anthropic": ("claude-sonnet-4-5", "claude-3-5-haiku-latest"),  # (3.5: strict left out, never set here)
    "gemini": ("gemini-2.5-flash", "gemini-3-pro-preview", "gemma-3-27b-it"),
    "openai_chat": ("gpt-4.1", "o3-mini"),
}
RULED = {"gemini": "gemini-3-pro-preview", "openai_chat": "o3-mini"}  # models whose rules the fused path leaves to the general one


def _same(payload: Any, source: str, target: str, models: tuple = (None,)) -> bool:
    """Assert both paths agree (normal and strict, each model= given); return whether the fused
    path took the payload."""
    before = json.dumps(payload, sort_keys=True)
    for strict in (False, True):
        for model in models:
            on = _outcome(payload, source, target, strict, True, model)
            off = _outcome(payload, source, target, strict, False, model)
            assert on == off, f"{source} -> {target} (strict={strict}, model={model}): fused {on} != general {off}"
    assert json.dumps(payload, sort_keys=True) == before, "the input was changed"
    return _taken(payload, source, target)


# --- payloads ------------------------------------------------------------------------------------


def _fixture_requests(source: str) -> Iterator[tuple[str, Any]]:
    for scenario, docs in scenarios().items():
        doc = docs.get(source)
        if doc and doc.get("request") is not None:
            yield f"fixture {scenario}", doc["request"]


def _realworld_requests(source: str) -> Iterator[tuple[str, Any]]:
    folder = SHARED / "realworld"
    if not folder.is_dir():
        return
    for name in ("conv_code.jsonl", "conv_pydantic_ai.jsonl"):
        with open(folder / name, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                row = json.loads(line)
                if row["provider"] == source and row["kind"] == "request":
                    yield f"realworld {name}:{number}", row["payload"]
    with open(folder / "tools_openai_cookbook.jsonl", encoding="utf-8") as f:
        tools = [json.loads(line)["tool"] for line in f]
    for name in sorted(p.name for p in folder.glob("tools_*.jsonl")):
        with open(folder / name, encoding="utf-8") as f:
            tools += [row["tool"] for row in map(json.loads, f) if row.get("format") == "openai_chat_tool"]
    for i, tool in enumerate(tools):
        yield f"realworld tool {i}", {"model": "gpt-4.1", "messages": [{"role": "user", "content": "Go on."}], "tools": [tool], "tool_choice": "auto"}


def _bench() -> Iterator[tuple[str, Any]]:
    path = SHARED / "bench" / "workload.json"
    if path.is_file():
        yield "bench workload", json.loads(path.read_text(encoding="utf-8"))
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    for n in (5, 24, 96):
        yield f"bench conversation {n}", bench.conversation(n)


def _base() -> dict:
    return {
        "model": "gpt-4.1",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "Weather in Paris and Oslo?"},
            {"role": "assistant", "content": "Checking.", "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
                {"id": "call_b", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
            ]},
            {"role": "tool", "tool_call_id": "call_a", "content": '{"temp_c": 11}'},
            {"role": "tool", "tool_call_id": "call_b", "content": "rainy, 4 C"},
            {"role": "user", "content": "And tomorrow?"},
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather.", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
        "tool_choice": "auto",
    }


def _edit(fn) -> dict:
    body = _base()
    fn(body)
    return body


M = lambda body: body["messages"]  # noqa: E731
CALLS = lambda body: body["messages"][2]["tool_calls"]  # noqa: E731

# each changes the base request at one condition of the fused path (taken or Deopt)
VARIANTS: dict[str, Any] = {
    "base": lambda b: None,
    "no model": lambda b: b.pop("model"),
    "claude model": lambda b: b.update(model="claude-sonnet-4-5"),
    "claude model with rules": lambda b: b.update(model="claude-3-5-sonnet-latest"),
    "gemini 3 model": lambda b: b.update(model="gemini-3-pro-preview"),
    "gemma model": lambda b: b.update(model="gemma-3-27b-it"),
    "model not a string": lambda b: b.update(model=4),
    "no system": lambda b: M(b).pop(0),
    "two system messages": lambda b: M(b).insert(1, {"role": "system", "content": "Be kind."}),
    "system mid-conversation": lambda b: M(b).append({"role": "system", "content": "Now be brief."}),
    "developer message": lambda b: M(b)[0].update(role="developer"),
    "system as parts": lambda b: M(b)[0].update(content=[{"type": "text", "text": "You are terse."}]),
    "user as parts": lambda b: M(b)[1].update(content=[{"type": "text", "text": "Weather?"}]),
    "blank user text": lambda b: M(b)[1].update(content="  "),
    "empty assistant text": lambda b: M(b)[2].update(content=""),
    "null assistant text": lambda b: M(b)[2].update(content=None),
    "no assistant text": lambda b: M(b)[2].pop("content"),
    "assistant without calls": lambda b: (M(b).__delitem__(slice(2, 5))),
    "user name": lambda b: M(b)[1].update(name="ann"),
    "unknown top-level key": lambda b: b.update(temperature=0.2),
    "stream flag": lambda b: b.update(stream=False),
    "parallel_tool_calls": lambda b: b.update(parallel_tool_calls=False),
    "max_tokens": lambda b: b.update(max_tokens=300),
    "id with a dot": lambda b: (CALLS(b)[0].update(id="call.a"), M(b)[3].update(tool_call_id="call.a")),
    "duplicate ids": lambda b: (CALLS(b)[1].update(id="call_a"), M(b)[4].update(tool_call_id="call_a")),
    "name starting with a digit": lambda b: (CALLS(b)[0]["function"].update(name="1weather")),
    "name with a dot": lambda b: (CALLS(b)[0]["function"].update(name="weather.get")),
    "results out of order": lambda b: M(b).insert(3, M(b).pop(4)),
    "unanswered call": lambda b: M(b).pop(4),
    "stray result": lambda b: M(b).insert(1, {"role": "tool", "tool_call_id": "call_z", "content": "x"}),
    "final assistant": lambda b: M(b).append({"role": "assistant", "content": "Tomorrow"}),
    "final assistant ending in a space": lambda b: M(b).append({"role": "assistant", "content": "Tomorrow "}),
    "final assistant with calls": lambda b: M(b).append({"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_c", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}),
    "assistant first": lambda b: M(b).__delitem__(slice(0, 2)),
    "only a system message": lambda b: M(b).__delitem__(slice(1, None)),
    "two user turns": lambda b: M(b).append({"role": "user", "content": "Quick!"}),
    "user text twice after results": lambda b: M(b).insert(5, {"role": "user", "content": "Also:"}),
    "empty arguments": lambda b: CALLS(b)[0]["function"].update(arguments=""),
    "invalid arguments": lambda b: CALLS(b)[0]["function"].update(arguments="{bad"),
    "array arguments": lambda b: CALLS(b)[0]["function"].update(arguments="[1]"),
    "object arguments": lambda b: CALLS(b)[0]["function"].update(arguments={"city": "Paris"}),
    "arguments with whitespace": lambda b: CALLS(b)[0]["function"].update(arguments=' {"city": "Paris"} '),
    "arguments not a string": lambda b: CALLS(b)[0]["function"].update(arguments=5),
    "call without type": lambda b: CALLS(b)[0].pop("type"),
    "empty call list": lambda b: M(b)[2].update(tool_calls=[]),
    "result as parts": lambda b: M(b)[3].update(content=[{"type": "text", "text": "11 C"}]),
    "result null": lambda b: M(b)[3].update(content=None),
    "result JSON array": lambda b: M(b)[3].update(content="[1, 2]"),
    "result wrapped-looking": lambda b: M(b)[3].update(content='{"output": 1}'),
    "result error text": lambda b: M(b)[3].update(content="Error: no such city"),
    "role unknown": lambda b: M(b)[1].update(role="human"),
    "message not an object": lambda b: M(b).insert(1, "hi"),
    "messages not a list": lambda b: b.update(messages={"role": "user"}),
    "no messages": lambda b: b.pop("messages"),
    "empty messages": lambda b: b.update(messages=[]),
    "no tools": lambda b: (b.pop("tools"), b.pop("tool_choice")),
    "empty tools": lambda b: b.update(tools=[]),
    "tool without description": lambda b: b["tools"][0]["function"].pop("description"),
    "tool without parameters": lambda b: b["tools"][0]["function"].pop("parameters"),
    "tool strict": lambda b: b["tools"][0]["function"].update(strict=True),
    "tool with OpenAPI types": lambda b: b["tools"][0]["function"]["parameters"].update(type="OBJECT"),
    "tool schema with a ref": lambda b: b["tools"][0]["function"]["parameters"].update({"$defs": {"c": {"type": "string"}}, "properties": {"city": {"$ref": "#/$defs/c"}}}),
    "tool name invalid": lambda b: b["tools"][0]["function"].update(name="get weather"),
    "tool not a function": lambda b: b["tools"].append({"type": "custom", "custom": {"name": "x"}}),
    "tool choice none": lambda b: b.update(tool_choice="none"),
    "tool choice required": lambda b: b.update(tool_choice="required"),
    "tool choice named": lambda b: b.update(tool_choice={"type": "function", "function": {"name": "get_weather"}}),
    "tool choice unknown tool": lambda b: b.update(tool_choice={"type": "function", "function": {"name": "nope"}}),
    "tool choice invalid": lambda b: b.update(tool_choice="sometimes"),
    "tool choice null": lambda b: b.update(tool_choice=None),
}


def _anthropic_base() -> dict:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": "Weather in Paris and Oslo?"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Oslo"}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": '{"temp_c": 11}'},
                {"type": "tool_result", "tool_use_id": "toolu_b", "content": "rainy, 4 C"},
                {"type": "text", "text": "And tomorrow?"},
            ]},
        ],
        "tools": [{"name": "get_weather", "description": "Weather.", "input_schema": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
        "tool_choice": {"type": "auto"},
    }


def _gemini_base() -> dict:
    return {
        "systemInstruction": {"parts": [{"text": "You are terse."}]},
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris and Oslo?"}]},
            {"role": "model", "parts": [
                {"text": "Checking."},
                {"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}},
                {"functionCall": {"id": "c2", "name": "get_weather", "args": {"city": "Oslo"}}},
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "c1", "name": "get_weather", "response": {"temp_c": 11}}},
                {"functionResponse": {"id": "c2", "name": "get_weather", "response": {"output": "rainy, 4 C"}}},
                {"text": "And tomorrow?"},
            ]},
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather.", "parametersJsonSchema": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {"maxOutputTokens": 1024},
    }


AM = lambda b: b["messages"]  # noqa: E731
GC = lambda b: b["contents"]  # noqa: E731
FC = lambda b, i: b["contents"][1]["parts"][i]["functionCall"]  # noqa: E731
FR = lambda b, i: b["contents"][2]["parts"][i]["functionResponse"]  # noqa: E731

# the same, for the blocks (Anthropic) and parts (Gemini) readers
SOURCE_VARIANTS: dict[str, tuple[Any, dict[str, Any]]] = {
    "anthropic": (_anthropic_base, {
        "base": lambda b: None,
        "no system": lambda b: b.pop("system"),
        "system as blocks": lambda b: b.update(system=[{"type": "text", "text": "You are terse."}]),
        "blank system": lambda b: b.update(system=" "),
        "no max_tokens": lambda b: b.pop("max_tokens"),
        "stream flag": lambda b: b.update(stream=True),
        "temperature": lambda b: b.update(temperature=0.5),
        "thinking": lambda b: b.update(thinking={"type": "enabled", "budget_tokens": 1024}),
        "text only assistant": lambda b: AM(b).__setitem__(slice(1, 3), [{"role": "assistant", "content": "Sunny."}, {"role": "user", "content": "Thanks"}]),
        "no assistant text": lambda b: AM(b)[1]["content"].pop(0),
        "user as one text block": lambda b: AM(b)[0].update(content=[{"type": "text", "text": "Weather?"}]),
        "user as two text blocks": lambda b: AM(b)[0].update(content=[{"type": "text", "text": "A"}, {"type": "text", "text": "B"}]),
        "results only": lambda b: AM(b)[2]["content"].pop(),
        "text before results": lambda b: AM(b)[2]["content"].insert(0, AM(b)[2]["content"].pop()),
        "result error": lambda b: AM(b)[2]["content"][0].update(is_error=True),
        "result as blocks": lambda b: AM(b)[2]["content"][0].update(content=[{"type": "text", "text": "11 C"}]),
        "result cache_control": lambda b: AM(b)[2]["content"][0].update(cache_control={"type": "ephemeral"}),
        "results out of order": lambda b: AM(b)[2]["content"].insert(0, AM(b)[2]["content"].pop(1)),
        "unanswered call": lambda b: AM(b)[2]["content"].pop(1),
        "id with a dot": lambda b: (AM(b)[1]["content"][1].update(id="toolu.a"), AM(b)[2]["content"][0].update(tool_use_id="toolu.a")),
        "long id": lambda b: (AM(b)[1]["content"][1].update(id="t" * 50), AM(b)[2]["content"][0].update(tool_use_id="t" * 50)),
        "input not an object": lambda b: AM(b)[1]["content"][1].update(input="{}"),
        "thinking block": lambda b: AM(b)[1]["content"].insert(0, {"type": "thinking", "thinking": "hm", "signature": "sig"}),
        "final assistant": lambda b: AM(b).append({"role": "assistant", "content": "Tomorrow"}),
        "tool choice any": lambda b: b.update(tool_choice={"type": "any"}),
        "tool choice named": lambda b: b.update(tool_choice={"type": "tool", "name": "get_weather"}),
        "tool choice no parallel": lambda b: b.update(tool_choice={"type": "auto", "disable_parallel_tool_use": True}),
        "tool with type": lambda b: b["tools"][0].update(type="custom"),
        "tool without description": lambda b: b["tools"][0].pop("description"),
        "server tool": lambda b: b["tools"].append({"type": "web_search_20250305", "name": "web_search"}),
        "model for o3": lambda b: b.update(model="o3-mini"),
    }),
    "gemini": (_gemini_base, {
        "base": lambda b: None,
        "no system": lambda b: b.pop("systemInstruction"),
        "system with a role": lambda b: b["systemInstruction"].update(role="user"),
        "no ids": lambda b: ([FC(b, i).pop("id") for i in (1, 2)], [FR(b, i).pop("id") for i in (0, 1)]),
        "no call ids, result ids": lambda b: ([FC(b, i).pop("id") for i in (1, 2)], FR(b, 0).update(id="call_2_1"), FR(b, 1).update(id="call_2_2")),
        "no ids, results reversed": lambda b: ([FC(b, i).pop("id") for i in (1, 2)], [FR(b, i).pop("id") for i in (0, 1)], GC(b)[2]["parts"].insert(0, GC(b)[2]["parts"].pop(1))),
        "no ids, other names": lambda b: ([FC(b, i).pop("id") for i in (1, 2)], [FR(b, i).pop("id") for i in (0, 1)], FC(b, 2).update(name="get_time"), FR(b, 0).update(name="get_time")),
        "no ids, no system": lambda b: (b.pop("systemInstruction"), [FC(b, i).pop("id") for i in (1, 2)], [FR(b, i).pop("id") for i in (0, 1)]),
        "no ids, results only": lambda b: ([FC(b, i).pop("id") for i in (1, 2)], [FR(b, i).pop("id") for i in (0, 1)], GC(b)[2]["parts"].pop()),
        "id clashing with a made one": lambda b: (FC(b, 1).pop("id"), FC(b, 2).update(id="call_1_1"), FR(b, 0).pop("id"), FR(b, 1).update(id="call_1_1")),
        "empty id": lambda b: (FC(b, 1).update(id=""), FR(b, 0).update(id="")),
        "snake_case key": lambda b: b.update(system_instruction=b.pop("systemInstruction")),
        "model key": lambda b: b.update(model="gemini-2.5-flash"),
        "results out of order": lambda b: GC(b)[2]["parts"].insert(0, GC(b)[2]["parts"].pop(1)),
        "result error": lambda b: FR(b, 0).update(response={"error": "boom"}),
        "result name differs": lambda b: FR(b, 0).update(name="get_time"),
        "result scalar output": lambda b: FR(b, 0).update(response={"output": 11}),
        "thought text": lambda b: GC(b)[1]["parts"][0].update(thought=True),
        "call signature": lambda b: GC(b)[1]["parts"][1].update(thoughtSignature="c2ln"),
        "no args": lambda b: FC(b, 1).pop("args"),
        "text after calls": lambda b: GC(b)[1]["parts"].append({"text": "More."}),
        "no model text": lambda b: GC(b)[1]["parts"].pop(0),
        "final model turn": lambda b: GC(b).append({"role": "model", "parts": [{"text": "Tomorrow"}]}),
        "legacy parameters": lambda b: b["tools"][0]["functionDeclarations"][0].update(parameters=b["tools"][0]["functionDeclarations"][0].pop("parametersJsonSchema")),
        "two tool groups": lambda b: b["tools"].append({"googleSearch": {}}),
        "mode ANY": lambda b: b.update(toolConfig={"functionCallingConfig": {"mode": "ANY"}}),
        "mode VALIDATED": lambda b: b.update(toolConfig={"functionCallingConfig": {"mode": "VALIDATED"}}),
        "allowed names": lambda b: b.update(toolConfig={"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}}),
        "temperature": lambda b: b["generationConfig"].update(temperature=0.2),
        "no generationConfig": lambda b: b.pop("generationConfig"),
        "empty generationConfig": lambda b: b.update(generationConfig={}),
        "response modalities": lambda b: b["generationConfig"].update(responseModalities=["TEXT"]),
        "response modalities only": lambda b: b.update(generationConfig={"responseModalities": ["TEXT"]}),
        "null thinking config": lambda b: b["generationConfig"].update(thinkingConfig=None),
        "snake_case setting": lambda b: b["generationConfig"].update(max_output_tokens=5),
        "max tokens not a number": lambda b: b["generationConfig"].update(maxOutputTokens="5"),
        "config and safety settings": lambda b: (b["generationConfig"].update(responseModalities=["TEXT"]), b.update(safetySettings=[{"category": "x"}])),
        "safety settings": lambda b: b.update(safetySettings=[]),
    }),
}


def _source_variant(source: str, name: str) -> dict:
    base, variants = SOURCE_VARIANTS[source]
    body = base()
    variants[name](body)
    return body


# --- tests ---------------------------------------------------------------------------------------


CHAT_PAIRS = sorted(p for p in PAIRS if p[0] not in SOURCE_VARIANTS)  # sources that read OpenAI Chat bodies


@pytest.mark.parametrize("pair", sorted(p for p in PAIRS if p[0] in SOURCE_VARIANTS), ids=lambda p: f"{p[0]}->{p[1]}")
def test_source_variants_same_as_general_path(pair):
    source, target = pair
    taken = [name for name in SOURCE_VARIANTS[source][1] if _same(_source_variant(source, name), source, target, (None, *MODELS.get(target, ())))]
    assert "base" in taken and len(taken) > 1


@pytest.mark.parametrize("pair", CHAT_PAIRS, ids=lambda p: f"{p[0]}->{p[1]}")
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_same_as_general_path(pair, name):
    source, target = pair
    _same(_edit(VARIANTS[name]), source, target, (None, *MODELS.get(target, ())))


@pytest.mark.parametrize("pair", sorted(PAIRS), ids=lambda p: f"{p[0]}->{p[1]}")
def test_corpus_same_as_general_path(pair):
    source, target = pair
    payloads = [*_fixture_requests(source), *_realworld_requests(source)]
    if source == "openai_chat":
        payloads += list(_bench())
    assert payloads
    taken = [key for key, payload in payloads if _same(payload, source, target, (None, MODELS.get(target, (None,))[0]))]
    # the common shapes are converted by the fused function itself, not only handed back
    assert taken, f"{source} -> {target}: no payload of the corpus takes the fused path"


@pytest.mark.parametrize("pair", sorted(p for p in PAIRS if p[0] == "openai_chat"), ids=lambda p: f"{p[0]}->{p[1]}")
def test_common_shapes_take_the_fused_path(pair):
    source, target = pair
    for name in ("base", "no model", "claude model", "no system", "no tools", "null assistant text", "no assistant text",
                 "tool without description", "tool choice none", "tool choice named", "result JSON array"):
        assert _taken(_edit(VARIANTS[name]), source, target), name
    for key, payload in _bench():
        assert _taken(payload, source, target), key
        assert _taken(payload, source, target, MODELS[target][0]), key  # as make bench converts
        if target in RULED:
            assert not _taken(payload, source, target, RULED[target]), key  # a model with rules of its own
    assert not _taken(_edit(VARIANTS["unknown top-level key"]), source, target)


def test_every_reader_and_writer_of_the_spec_is_paired():
    """generator/fuse.py pairs each reader with every writer of another family."""
    from generator import fuse
    from generator.spec import load_spec

    spec, errors = load_spec(ROOT)
    assert not errors
    plans, reasons, shared = fuse.plans(spec)
    pairs = {(plan.reader["provider"], w["provider"]) for plan in plans for w in plan.writers}
    pairs |= {(flavour, target) for flavour, family in shared.items() for s, target in pairs if s == family}
    assert pairs == set(PAIRS)
    assert {"groq", "xai", "azure_openai"} <= set(shared)  # OpenAI-compatible bodies read as OpenAI Chat's
    assert {"openai_chat", "mistral"} <= {s for s, _ in pairs}
    assert {"anthropic", "gemini"} <= {t for _, t in pairs}
    assert all(reason for reason in reasons.values())


def test_a_schema_changed_in_place_is_walked_again():
    """standard_types_seen keeps a copy, not the caller's object: a schema changed in place after
    it was found standard is checked (and its non-standard type reported) again."""
    from toolwire_runtime.schema import standard_types_seen

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    reports = []
    report = lambda path, message: reports.append(message)  # noqa: E731
    assert standard_types_seen(schema, ("t", "tool_x"), "", report, "t") is schema
    assert standard_types_seen(schema, ("t", "tool_x"), "", report, "t") is schema and reports == []
    schema["properties"]["n"]["type"] = "INTEGER"
    out = standard_types_seen(schema, ("t", "tool_x"), "", report, "t")
    assert out["properties"]["n"]["type"] == "integer" and schema["properties"]["n"]["type"] == "INTEGER"
    assert reports == ["type 'INTEGER' is not a JSON Schema type; sent to t as 'integer'"]


@pytest.mark.parametrize("source", sorted({s for s, _ in PAIRS}))
def test_mutated_fixtures_same_as_general_path(source):
    """tests/test_fuzz.py's mutations (a key dropped, renamed or injected, a value of another JSON
    type, a list wrapped, emptied or reordered, a subtree grafted, text truncated, ...) of every
    fixture request and of the variants' base body: the fused and general paths still agree, body,
    warnings and error. Deterministic; FUSED_EXAMPLES=2000 FUSED_RANDOM=1 explores further."""
    import test_fuzz
    from hypothesis import HealthCheck, given, settings

    from hypothesis import strategies as st

    targets = sorted(t for s, t in PAIRS if s == source)
    family = {"anthropic": _anthropic_base, "gemini": _gemini_base, "vertex": _gemini_base}.get(source, _base)

    @st.composite
    def mutated_base(draw) -> Any:  # the variants' base body: one the fused path takes, mutated
        payload = family()
        for _ in range(draw(st.integers(1, 3))):
            result = draw(st.sampled_from(test_fuzz.MUTATIONS))(draw, payload)
            if result is not None:
                payload = result[0]
        return payload

    bodies = mutated_base()
    if (source, "request") in test_fuzz.SEEDS:
        bodies = st.one_of(bodies, test_fuzz.mutated(source, "request").map(lambda case: case.payload))

    @settings(
        max_examples=int(os.environ.get("FUSED_EXAMPLES", "150")), deadline=None, database=None,
        derandomize=os.environ.get("FUSED_RANDOM") is None, suppress_health_check=list(HealthCheck),
    )
    @given(payload=bodies)
    def check(payload) -> None:
        for target in targets:
            _same(payload, source, target)

    check()


@pytest.mark.parametrize("rule", [
    ("a-zA-Z0-9_-", None, None, False), ("\\s\\S", None, 40, False), ("\\s\\S", None, None, False),
    ("a-zA-Z0-9", None, 9, True), ("a-zA-Z0-9_.:-", "a-zA-Z_", 128, False),
], ids=repr)
def test_inline_id_checks_say_what_the_rule_says(rule):
    """generator/fuse.py id_check (the writers' inline call-id test) against names.matcher."""
    from generator.fuse import id_check
    from toolwire_runtime.names import matcher

    check = eval("lambda v: bool(" + id_check(rule).replace("{v}", "v") + ")", {"matcher": matcher})
    for value in ["call_1", "toolu_01A-b", "x" * 9, "x" * 40, "x" * 41, "a.b:c", "1abc", "", " ", "a b", "é", "call\n", "_x", "-"]:
        assert check(value) == (matcher(*rule)(value) is not None), value
