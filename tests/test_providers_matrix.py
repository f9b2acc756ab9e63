"""The compatibility matrix of docs/providers.md (generator/matrix.py, each provider module's
FEATURES) agrees with what the converters do: for every provider, an IR request rendered for it and
parsed back keeps what the matrix says it keeps, and what it says is lost is reported as a
LossWarning. The matrix is derived from the spec, the behaviour is the generated code's: a cell
that says one thing while the converter does another fails here.
"""

from __future__ import annotations

import importlib
import re
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import ir

ROOT = Path(__file__).resolve().parents[1]
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="  # a 1×1 PNG


def features(provider: str) -> dict[str, str]:
    return dict(importlib.import_module(toolwire._MODULES[provider]).FEATURES)


def request(result: ir.ToolResult | None = None, **fields) -> ir.Request:
    result = result or ir.ToolResult(tool_call_id="call_abc", name="get_weather", result={"temp": 22})
    base = dict(
        model="some-model",  # matches no model rule (for_models) of any provider
        messages=[
            ir.Message(role="user", parts=[ir.TextPart(text="Weather in Tokyo?")]),
            ir.Message(role="assistant", parts=[ir.ToolCall(id="call_abc", name="get_weather", arguments={"city": "Tokyo"})]),
            ir.Message(role="tool", parts=[result]),
        ],
        tools=[ir.ToolDefinition(name="get_weather", description="Current weather", parameters={"type": "object"}),
               ir.ToolDefinition(name="get_time", description="Current time", parameters={"type": "object"})],
    )
    return ir.Request(**{**base, **fields})


def round_trip(provider: str, req: ir.Request) -> tuple[ir.Request, list[str]]:
    """The request rendered for the provider and parsed back, and the paths of the losses reported."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = toolwire.to_ir(toolwire.from_ir(req, provider=provider), provider=provider)
    return back, [w.message.path for w in caught if issubclass(w.category, toolwire.LossWarning)]


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
def test_is_error_is_kept_or_reported_as_the_matrix_says(provider: str) -> None:
    cell = features(provider)["is_error"]
    back, losses = round_trip(provider, request(ir.ToolResult(tool_call_id="call_abc", name="get_weather", result="no such city", is_error=True)))
    result = back.messages[-1].parts[0]
    about_result = [p for p in losses if p.startswith("messages[2]") and not p.endswith(".id")]  # not its call's id
    if cell.startswith(("native", "emulated")):
        assert result.is_error is True and result.result == "no such city"
        assert not about_result
    else:
        prefix = re.fullmatch(r'lost \(sent as text "(.*)…"\)', cell).group(1)
        assert not result.is_error and result.result == prefix + "no such city"
        assert about_result, losses


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
def test_call_ids_and_the_parallel_switch_are_as_the_matrix_says(provider: str) -> None:
    cells = features(provider)
    back, losses = round_trip(provider, request(parallel_tool_calls=False))
    call = back.messages[1].parts[0]
    if cells["call ids"].startswith("none"):
        assert call.id != "call_abc" and "messages[1].parts[0].id" in losses or any(".call.id" in p for p in losses)
    elif "refitted to" in cells["call ids"]:
        assert call.id != "call_abc" and "messages[1].parts[0].id" in losses
    else:
        assert call.id == "call_abc"
    if cells["parallel_tool_calls"] == "no switch":
        assert back.parallel_tool_calls is None and "parallel_tool_calls" in losses
    else:
        assert back.parallel_tool_calls is False and "parallel_tool_calls" not in losses


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
def test_tool_choice_modes_and_allowed_names_are_as_the_matrix_says(provider: str) -> None:
    cells = features(provider)
    for mode, label in (("none", "none"), ("required", "required"), ("tool", "named")):
        choice = ir.ToolChoice(mode=mode, name="get_weather" if mode == "tool" else None)
        back, losses = round_trip(provider, request(tool_choice=choice))
        if label in cells["tool_choice"].split("; ")[0].split(", ") and cells["tool_choice"] != "auto only":
            assert back.tool_choice is not None and back.tool_choice.mode == mode, (mode, back.tool_choice)
            assert not [p for p in losses if p.startswith("tool_choice")], losses
        else:
            assert back.tool_choice is None or back.tool_choice.mode != mode, (mode, back.tool_choice)
            assert any(p.startswith(("tool_choice", "tools")) for p in losses), (mode, losses)
    back, losses = round_trip(provider, request(tool_choice=ir.ToolChoice(mode="required", allowed_names=["get_weather", "get_time"])))
    kept = back.tool_choice is not None and back.tool_choice.allowed_names == ["get_weather", "get_time"]
    assert kept == (cells["allowed_names"] == "yes"), back.tool_choice
    assert kept == ("tool_choice.allowed_names" not in losses), losses


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
def test_strict_tools_and_images_in_results_are_as_the_matrix_says(provider: str) -> None:
    cells = features(provider)
    req = request(tools=[ir.ToolDefinition(name="get_weather", description="Current weather", parameters={"type": "object"}, strict=True)])
    back, losses = round_trip(provider, req)
    assert (back.tools[0].strict is True) == cells["strict tools"].startswith("yes")
    assert ("tools[0].strict" in losses) == (cells["strict tools"] == "no")
    image = ir.ImagePart(data=PNG, media_type="image/png")
    back, losses = round_trip(provider, request(ir.ToolResult(tool_call_id="call_abc", name="get_weather", result="a map", parts=[image])))
    results = [p for m in back.messages for p in m.parts if isinstance(p, ir.ToolResult)]
    kept = any(isinstance(x, ir.ImagePart) for r in results for x in (r.parts or []))
    assert kept == cells["images in results"].startswith("yes")
    assert kept == (not [p for p in losses if p.startswith("messages[2]") and not p.endswith(".id")]), losses


def test_the_docs_matrix_is_the_modules_features() -> None:
    """docs/providers.md's table and the FEATURES the CLI prints are one derivation (`make check`
    keeps the page current; this checks both are the same cells)."""
    text = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    labels = [label for label, _ in importlib.import_module("toolwire.providers.anthropic").FEATURES]
    assert f"| provider | {' | '.join(labels)} |" in text
    for provider in toolwire.PROVIDERS:
        cells = [value.replace("|", "\\|") for value in features(provider).values()]
        assert f"| [`{provider}`](#{provider}) | {' | '.join(cells)} |" in text
