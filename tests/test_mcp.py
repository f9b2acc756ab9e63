"""MCP as a format: tools/list results and CallToolResults ↔ the IR (spec/providers/mcp.yaml, docs/mcp.md).

Fixtures: tests/fixtures/mcp/ (the MCP specification's examples, 2025-06-18 revision; sources in
each file). Real tool schemas: ../shared/realworld/tools_mcp_servers_{py,ts}.jsonl (skipped when
absent). Rendered MCP documents are checked against the official Python SDK's types (mcp.types).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import warnings
from pathlib import Path

import pytest

import losses
import toolwire
from sdk_validation import validate
from toolwire import ir

FIXTURES = Path(__file__).parent / "fixtures" / "mcp"
TOOLS = json.loads((FIXTURES / "tools_list.json").read_text(encoding="utf-8"))
RESULTS = json.loads((FIXTURES / "call_tool_results.json").read_text(encoding="utf-8"))
CALL = ir.ToolCall(id=RESULTS["call"]["id"], name=RESULTS["call"]["name"], arguments={"location": "New York"})
REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "realworld"
MODEL = {"anthropic": "claude-sonnet-4-5", "anthropic_bedrock": "anthropic.claude-sonnet-4-5", "anthropic_vertex": "claude-sonnet-4-5"}


def _record(fn, *args, **kwargs):
    """(value, [(category name, message)]) of a call, every warning recorded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn(*args, **kwargs)
    return value, [(w.category.__name__, str(w.message)) for w in caught]


def _losses(reports):
    return [m for c, m in reports if c == "LossWarning"]


def _mcp_exact(model_cls, doc) -> None:
    """The document is what the official SDK's type reads, key for key (an undeclared key is dropped
    by the model, so it would differ)."""
    mcp_types = pytest.importorskip("mcp.types")
    model = getattr(mcp_types, model_cls).model_validate(doc)
    assert model.model_dump(mode="json", by_alias=True, exclude_unset=True) == doc


# --- the provider and its document kinds --------------------------------------------------------


def test_mcp_declares_tools_and_tool_results_only():
    assert toolwire.KINDS["mcp"] == ("tools", "tool_result")
    assert "mcp" not in toolwire.PROVIDERS  # convert / to_ir / from_ir take request and response bodies
    assert all(toolwire.KINDS[p] == ("request", "response", "tools") for p in toolwire.PROVIDERS)
    with pytest.raises(ValueError, match="mcp has no request documents; its kinds are tools, tool_result"):
        toolwire.to_ir({"tools": []}, provider="mcp")
    with pytest.raises(ValueError, match="mcp has no request documents"):
        toolwire.convert({"model": "gpt-4.1", "messages": []}, source="openai_chat", target="mcp")
    with pytest.raises(ValueError, match="openai_chat has no tool_result documents"):
        toolwire.tools_to_ir  # noqa: B018 (exists)
        from toolwire_runtime import documents

        documents.result_to_ir(toolwire._registry, {}, "openai_chat", None, False)


# --- tools/list results ---------------------------------------------------------------------------


def test_tools_list_round_trip_is_identical():
    tools, reports = _record(toolwire.tools_to_ir, TOOLS["mcp"], provider="mcp")
    back, more = _record(toolwire.tools_from_ir, tools, provider="mcp")
    assert reports == more == []
    assert json.dumps(back) == json.dumps(TOOLS["mcp"])
    _mcp_exact("ListToolsResult", back)


def test_tools_list_to_ir():
    tools = toolwire.tools_to_ir(TOOLS["mcp"], provider="mcp")
    assert isinstance(tools, ir.ToolList)
    assert [t.name for t in tools.tools] == ["get_weather", "get_weather_data", "filesystem.read_file"]
    weather = tools.tools[0]
    assert weather.description == "Get current weather information for a location"
    assert weather.parameters == TOOLS["mcp"]["tools"][0]["inputSchema"]
    assert weather.strict is None
    # what only MCP has travels in provider_data: back to MCP, reported elsewhere
    assert weather.provider_data.fields == {"title": "Weather Information Provider"}
    assert tools.tools[1].provider_data.fields["outputSchema"] == TOOLS["mcp"]["tools"][1]["outputSchema"]
    assert tools.tools[2].provider_data.fields == {"annotations": {"title": "Read File", "readOnlyHint": True, "openWorldHint": False}}
    assert tools.provider_data.fields == {"nextCursor": "next-page-cursor"}


@pytest.mark.parametrize("target", sorted(TOOLS["targets"]))
def test_tools_list_converts_to_the_targets_tools(target):
    out, reports = _record(toolwire.convert_tools, TOOLS["mcp"], source="mcp", target=target)
    assert out == TOOLS["targets"][target]
    want = [m.format(target=target) for m in TOOLS["losses"]]
    fitted = [m for m in _losses(reports) if "tool names that break" in m]
    assert sorted(m for m in _losses(reports) if m not in fitted) == sorted(want)
    # filesystem.read_file is fitted where dots are not allowed (Gemini takes them)
    renamed = any(t.get("name", t.get("function", t.get("toolSpec", {})).get("name")) == "filesystem_read_file" for t in out)
    assert fitted == ([f"[2].name: tool names that break {target}'s rule are mapped to valid ones (e.g. 'filesystem.read_file' → 'filesystem_read_file')"] if renamed else [])


def test_strict_mode_raises_on_what_the_target_cannot_express():
    with pytest.raises(toolwire.LossError, match="nextCursor"):
        toolwire.convert_tools(TOOLS["mcp"], source="mcp", target="openai_chat", strict=True)
    plain = {"tools": [{"name": "get_time", "inputSchema": {"type": "object"}}]}
    assert toolwire.convert_tools(plain, source="mcp", target="openai_chat", strict=True) == [
        {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}}
    ]


def _tools_at(body: dict, provider: str):
    return body["toolConfig"]["tools"] if toolwire.KINDS[provider] and "toolConfig" in body else body["tools"]


@pytest.mark.parametrize("target", toolwire.PROVIDERS)
def test_tools_render_for_every_provider_as_its_requests_do_and_names_map_back(target):
    """The tools document of every provider is its request's tools value, rendered by the same
    codec: the same JSON, valid for its SDK types; a call of a fitted name maps back with tool_names."""
    tools, _ = _record(toolwire.tools_to_ir, TOOLS["mcp"], provider="mcp")
    out, reports = _record(toolwire.tools_from_ir, tools, provider=target)
    request = ir.Request(model=MODEL.get(target, "model-1"), messages=[ir.Message(role="user", parts=[ir.TextPart(text="Weather in Paris?")])], tools=tools.tools)
    body, _ = _record(toolwire.from_ir, request, provider=target)
    assert _tools_at(body, target) == out
    assert validate(target, "request", body) == []
    assert any("outputSchema" in m for m in _losses(reports))
    # the model calls the tool by the name it was given; tool_names gives back the MCP name
    names = [t["name"] for t in TOOLS["mcp"]["tools"]]
    call = ir.ToolCall(id="call_1", name="filesystem.read_file", arguments={"path": "/tmp/a.txt"})
    response = ir.Response(model=request.model, message=ir.Message(role="assistant", parts=[call]), finish_reason="tool_calls")
    wire, _ = _record(toolwire.from_ir, response, provider=target)
    parsed, _ = _record(toolwire.to_ir, wire, provider=target, kind="response", tool_names=names)
    assert parsed.message.parts[0].name == "filesystem.read_file"


def test_rules_for_some_models_apply_to_tools():
    """model= names the target model: Anthropic takes `strict` on tools from Claude 4.5 on
    (spec/providers/anthropic.yaml, custom_tool.strict for_models)."""
    tools = ir.ToolList(tools=[ir.ToolDefinition(name="f", parameters={"type": "object"}, strict=True)])
    new, reports = _record(toolwire.tools_from_ir, tools, provider="anthropic", model="claude-sonnet-4-5")
    assert new == [{"name": "f", "input_schema": {"type": "object"}, "strict": True}] and _losses(reports) == []
    old, reports = _record(toolwire.tools_from_ir, tools, provider="anthropic", model="claude-3-5-sonnet-20241022")
    assert old == [{"name": "f", "input_schema": {"type": "object"}}]
    assert any("strict" in m for m in _losses(reports)), reports
    mcp, reports = _record(toolwire.tools_from_ir, tools, provider="mcp")
    assert mcp == {"tools": [{"name": "f", "inputSchema": {"type": "object"}}]}
    assert reports == [("LossWarning", "tools[0].strict: mcp has no place for ToolDefinition.strict; dropped")]


def test_tools_from_other_providers_become_a_valid_tools_list():
    openai_tools = TOOLS["targets"]["openai_chat"] + [{"type": "function", "function": {"name": "now"}}]
    out, reports = _record(toolwire.convert_tools, openai_tools, source="openai_chat", target="mcp")
    assert out["tools"][0] == {"name": "get_weather", "description": "Get current weather information for a location", "inputSchema": TOOLS["mcp"]["tools"][0]["inputSchema"]}
    assert out["tools"][3] == {"name": "now", "inputSchema": {"type": "object", "properties": {}}}  # inputSchema is required
    assert reports == [("AssumptionWarning", "tools[3].parameters: inputSchema is required by mcp; sent {'type': 'object', 'properties': {}}")]
    _mcp_exact("ListToolsResult", out)
    gemini = toolwire.convert_tools(TOOLS["targets"]["gemini"], source="gemini", target="mcp")
    assert [t["name"] for t in gemini["tools"]] == ["get_weather", "get_weather_data", "filesystem.read_file"]


# --- CallToolResult --------------------------------------------------------------------------------


def _ir_view(result: ir.ToolResult) -> dict:
    """The fixture's view of an IR result: result, is_error, parts without provider data or nulls."""
    parts = None
    if result.parts is not None:
        parts = [{k: v for k, v in dataclasses.asdict(p).items() if v is not None and k != "provider_data"} for p in result.parts]
    return {"result": result.result, "is_error": result.is_error, "parts": parts}


@pytest.mark.parametrize("case", sorted(RESULTS["cases"]))
def test_call_tool_result_round_trip(case):
    doc = RESULTS["cases"][case]
    _mcp_exact("CallToolResult", doc["mcp"])
    result, reports = _record(toolwire.result_from_mcp, doc["mcp"], CALL)
    assert reports == []
    assert (result.tool_call_id, result.name) == ("call_1", "get_weather")
    assert _ir_view(result) == doc["ir"]
    back, reports = _record(toolwire.result_to_mcp, result)
    assert json.dumps(back) == json.dumps(doc["mcp"])
    # the call's id is the JSON-RPC request's, not part of the result: reported, not lost
    assert [c for c, _ in reports] == ["OutsideBodyWarning"]


def _conversation(result: ir.ToolResult, target: str) -> ir.Request:
    return ir.Request(
        model=MODEL.get(target, "model-1"),
        messages=[
            ir.Message(role="user", parts=[ir.TextPart(text="Weather in New York?")]),
            ir.Message(role="assistant", parts=[CALL]),
            ir.Message(role="tool", parts=[result]),
        ],
        tools=[ir.ToolDefinition(name="get_weather", parameters={"type": "object", "properties": {"location": {"type": "string"}}})],
    )


def _content(result: ir.ToolResult) -> tuple:
    """What a result says: its values (the result, text parts; JSON text read as its value, blank
    text left out), its media (type, data) and its opaque blocks."""
    def value(v):
        try:
            return json.loads(v) if isinstance(v, str) else v
        except ValueError:
            return v
    values = [result.result] if result.result is not None else []
    values += [p.text for p in result.parts or () if isinstance(p, ir.TextPart)]
    media = [(type(p).__name__, p.media_type, p.data) for p in result.parts or () if isinstance(p, (ir.ImagePart, ir.FilePart))]
    opaque = [p for p in result.parts or () if isinstance(p, ir.OpaquePart)]
    return [value(v) for v in values if v != ""], media, len(opaque)


def _answer(request: ir.Request) -> ir.ToolResult:
    return next(p for m in request.messages for p in m.parts if isinstance(p, ir.ToolResult))


@pytest.mark.parametrize("case", sorted(RESULTS["cases"]))
def test_results_go_back_to_every_provider_and_nothing_is_dropped_silently(case):
    """An MCP result in a conversation rendered for every provider: a body its SDK types accept,
    which reads back as the same result up to the provider's documented losses (text results: the
    spec's `ir:` effects, tests/losses.py) — anything else it cannot say is a LossWarning."""
    result = toolwire.result_from_mcp(RESULTS["cases"][case]["mcp"], CALL)
    for target in toolwire.PROVIDERS:
        request = _conversation(result, target)
        body, reports = _record(toolwire.from_ir, request, provider=target)
        assert validate(target, "request", body) == [], target
        back, _ = _record(toolwire.to_ir, body, provider=target)
        if case in ("text", "error"):  # a text result (and its error flag) every provider can say
            assert _ir_view(_answer(back)) == _ir_view(_answer(losses.apply(target, request).node)), target
        elif not _losses(reports):  # the same values (as text: Responses joins them into one output) and media
            values, media, _ = _content(_answer(back))
            said = "".join(v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False) for v in values)
            assert all((v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False)) in said or v in values
                       for v in _content(result)[0]), (target, values)
            assert media == _content(result)[1], target
        if _content(result)[2]:  # resource links and embedded resources: MCP's alone
            block = RESULTS["cases"][case]["mcp"]["content"][0]["type"]
            assert any(f"mcp {block} has no {importlib.import_module('toolwire.providers.' + target).PROVIDER} equivalent; dropped" in m or "parts (OpaquePart) cannot be sent" in m
                       for m in _losses(reports)), (target, reports)


def test_results_from_other_providers_become_call_tool_results():
    request = {
        "model": "gpt-4.1",
        "messages": [
            {"role": "user", "content": "Weather in Tokyo?"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Tokyo\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\":22,\"condition\":\"sunny\"}"},
        ],
    }
    result = toolwire.to_ir(request, provider="openai_chat").messages[2].parts[0]
    out, reports = _record(toolwire.result_to_mcp, result)
    want_text = result.result if isinstance(result.result, str) else json.dumps(result.result, separators=(",", ":"))
    assert out["content"] == [{"type": "text", "text": want_text}]
    if isinstance(result.result, dict):  # an object result is structured content too
        assert out["structuredContent"] == result.result
    _mcp_exact("CallToolResult", out)
    # an Anthropic error result with an image by URL: the flag travels, the URL has no block here
    anthropic = ir.ToolResult(tool_call_id="toolu_1", name="snap", is_error=True, parts=[
        ir.TextPart(text="camera offline"), ir.ImagePart(url="https://example.com/last.png")])
    out, reports = _record(toolwire.result_to_mcp, anthropic)
    assert out == {"content": [{"type": "text", "text": "camera offline"}], "isError": True}
    assert any("ImagePart" in m for m in _losses(reports)), reports
    with pytest.raises(toolwire.LossError):
        toolwire.result_to_mcp(anthropic, strict=True)


def test_what_mcp_cannot_express_is_reported():
    """spec/providers/mcp.yaml cannot_express: another provider's built-in tools, an image's detail,
    a file name, media other than images and audio."""
    tools = ir.ToolList(tools=[ir.ToolDefinition(name="f", parameters={"type": "object"}), ir.ProviderTool(provider="openai_responses", data={"type": "web_search"})])
    out, reports = _record(toolwire.tools_from_ir, tools, provider="mcp")
    assert out == {"tools": [{"name": "f", "inputSchema": {"type": "object"}}]}
    assert reports == [("LossWarning", "tools[1]: openai_responses tool 'web_search' has no mcp equivalent; dropped")]
    result = ir.ToolResult(tool_call_id="c", name="f", parts=[
        ir.ImagePart(data="AA==", media_type="image/png", detail="high"), ir.FilePart(data="AA==", media_type="audio/mpeg", filename="a.mp3"),
        ir.FilePart(data="AA==", media_type="application/pdf")])
    out, reports = _record(toolwire.result_to_mcp, result)
    assert out == {"content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}, {"type": "audio", "data": "AA==", "mimeType": "audio/mpeg"}]}
    assert _losses(reports) == [
        "result[0].detail: mcp has no place for ImagePart.detail; dropped",
        "result[1].filename: mcp has no place for FilePart.filename; dropped",
        "result[2]: mcp cannot express FilePart (application/pdf) here; dropped",
    ]


# --- errors carry JSON paths ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fn", "payload", "error", "path"),
    [
        ("tools", {"tools": [{"name": "a", "inputSchema": {"type": "object"}}, {"name": 7, "inputSchema": {}}]}, toolwire.WrongTypeError, "tools[1].name"),
        ("tools", {"tools": [{"name": "a"}]}, toolwire.MissingFieldError, "tools[0].inputSchema"),
        ("tools", {"nextCursor": "x"}, toolwire.MissingFieldError, "tools"),
        ("tools", [], toolwire.WrongTypeError, ""),
        ("result", {"content": [{"type": "text", "text": "ok"}, {"type": "image", "data": "AA=="}]}, toolwire.MissingFieldError, "content[1].mimeType"),
        ("result", {"content": [{"type": "text", "text": 3}]}, toolwire.WrongTypeError, "content[0].text"),
        ("result", {"content": "ok"}, toolwire.WrongTypeError, "content"),
        ("result", {"content": [], "structuredContent": [1]}, toolwire.WrongTypeError, "structuredContent"),
        ("result", {"content": [], "isError": "yes"}, toolwire.WrongTypeError, "isError"),
        ("result", {"structuredContent": {}}, toolwire.MissingFieldError, "content"),
    ],
)
def test_bad_input_errors_name_the_field(fn, payload, error, path):
    with pytest.raises(error) as info:
        if fn == "tools":
            toolwire.tools_to_ir(payload, provider="mcp")
        else:
            toolwire.result_from_mcp(payload, CALL)
    assert info.value.path == path


def test_bad_provider_tools_errors_name_the_field():
    with pytest.raises(toolwire.MissingFieldError) as info:
        toolwire.convert_tools([{"type": "function", "function": {"description": "no name"}}], source="openai_chat", target="mcp")
    assert info.value.path == "[0].function.name"


# --- real MCP servers' tools ----------------------------------------------------------------------


def _real_tools():
    for name in ("tools_mcp_servers_py.jsonl", "tools_mcp_servers_ts.jsonl"):
        path = REALWORLD / name
        if path.is_file():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                yield f"{name.removesuffix('.jsonl')}:{number}", json.loads(line)["tool"]


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld is not present")
def test_real_mcp_server_tools_round_trip_and_render_validly_for_every_provider():
    rows = list(_real_tools())
    assert len(rows) == 52
    page = {"tools": [tool for _, tool in rows]}
    tools, reports = _record(toolwire.tools_to_ir, page, provider="mcp")
    assert reports == []
    back, _ = _record(toolwire.tools_from_ir, tools, provider="mcp")
    assert json.dumps(back) == json.dumps(page)
    only_mcp = {k for tool in page["tools"] for k in tool if k not in ("name", "description", "inputSchema")}
    assert only_mcp == {"title", "annotations", "execution", "outputSchema"}
    for i, tool in enumerate(page["tools"]):  # every key only MCP has is reported, for the tool that had it
        _, reports = _record(toolwire.convert_tools, {"tools": [tool]}, source="mcp", target="openai_chat")
        keys = sorted(set(tool) & only_mcp)
        assert (f"[0]: mcp fields {', '.join(keys)} have no openai_chat equivalent; dropped" in _losses(reports)) == bool(keys), i
    for target in toolwire.PROVIDERS:
        out, reports = _record(toolwire.convert_tools, page, source="mcp", target=target)
        assert len(out if target not in ("gemini", "gemini_openapi", "vertex") else out[0]["functionDeclarations"]) == 52
        lost = " ".join(_losses(reports))
        assert all(key in lost for key in only_mcp), target
        request = ir.Request(model=MODEL.get(target, "model-1"), messages=[ir.Message(role="user", parts=[ir.TextPart(text="Go")])], tools=tools.tools)
        body, _ = _record(toolwire.from_ir, request, provider=target)
        assert _tools_at(body, target) == out
        assert validate(target, "request", body) == [], target
