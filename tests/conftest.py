"""Shared helpers: fixture discovery and the normalisations that document known losses."""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path
from typing import Any

import toolwire
from toolwire import ir

FIXTURES = Path(__file__).parent / "fixtures"


def scenarios() -> dict[str, dict[str, dict]]:
    """scenario → provider → fixture document (every folder, every provider file in it)."""
    out: dict[str, dict[str, dict]] = {}
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        docs = {}
        for file in sorted(folder.glob("*.json")):
            if file.stem in toolwire.PROVIDERS:
                docs[file.stem] = json.loads(file.read_text(encoding="utf-8"))
        if docs:
            out[folder.name] = docs
    return out


def _id_less() -> frozenset[str]:
    """Providers that send no call ids (spec `cannot_express` ToolCall.id): ids come back synthesized."""
    out = set()
    for name in toolwire.PROVIDERS:
        module = importlib.import_module(f"toolwire.providers.{name}")
        if any(what.startswith("ToolCall.id") for what, _ in module.CANNOT_EXPRESS):
            out.add(name)
    return frozenset(out)


ID_LESS = _id_less()


def call_ids(node: Any) -> list[str]:
    """The ids of the tool calls of an IR request or response, in order."""
    messages = node.messages if isinstance(node, ir.Request) else [node.message]
    return [p.id for m in messages for p in m.parts if isinstance(p, ir.ToolCall)]


def rename(value: Any, mapping: dict[str, str]) -> Any:
    """Every string equal to a key of ``mapping`` replaced by its value (ids in a wire payload)."""
    if isinstance(value, dict):
        return {k: rename(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [rename(v, mapping) for v in value]
    if isinstance(value, str):
        return mapping.get(value, value)
    return value


def strip_wire_defaults(payload: Any, provider: str) -> Any:
    """Drop fields that hold the value the provider assumes when they are absent (spec `default:`)."""
    defaults = importlib.import_module(f"toolwire.providers.{provider}").WIRE_DEFAULTS
    keys = {path.rsplit(".", 1)[-1]: value for path, value in defaults}

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items() if not (k in keys and v == keys[k])}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(payload)


def comparable_ir(node: Any, ordinal_ids: bool = False) -> Any:
    """The IR as plain data, without what is provider-specific by nature (documented in docs/losses.md):
    provider_data, raw argument text, synthesized-id flags, model names, ids and timestamps of
    responses, image detail levels, participant names, call ids if ``ordinal_ids`` (for providers that
    send none), and the spelling of results (JSON text of an
    object in string-result providers is the object; numbers are compared as text)."""
    if ordinal_ids:
        ids = {cid: f"#{i}" for i, cid in enumerate(call_ids(node))}
        return rename(comparable_ir(node), ids)
    if isinstance(node, ir.ToolResult):
        data = {
            "tool_call_id": node.tool_call_id,
            "name": node.name,
            "result": _result(node.result),
            "is_error": node.is_error,
            "parts": comparable_ir(node.parts),
        }
        return data
    if dataclasses.is_dataclass(node):
        skip = {"provider_data", "raw_arguments", "synthetic_id", "model", "created", "detail"}
        data = {f.name: comparable_ir(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name not in skip}
        if isinstance(node, ir.Response):
            data.pop("id", None)
            data.pop("stop_sequence", None)
        if isinstance(node, ir.Usage):
            data.pop("total_tokens", None)
        if isinstance(node, ir.ToolDefinition) and data.get("strict") is False:
            data["strict"] = None
        if isinstance(node, ir.Message):
            data.pop("name", None)
        return data
    if isinstance(node, list):
        return [comparable_ir(x) for x in node]
    return node


def _result(value: Any) -> Any:
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        if isinstance(parsed, (dict, list)):
            return parsed
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return json.dumps(value)
    return value
