"""Shared helpers: fixture discovery and the normalisations that document known losses."""

from __future__ import annotations

import dataclasses
import importlib
import json
import warnings
from pathlib import Path
from typing import Any

import yaml

import toolwire
from toolwire import ir

FIXTURES = Path(__file__).parent / "fixtures"


def scenarios() -> dict[str, dict[str, dict]]:
    """scenario → provider → fixture document (every folder, every provider file in it).

    A provider that extends another (spec `extends:`) and has no file in a folder inherits its
    parent's file there when it can express that conversation (none of its documented losses, spec
    `cannot_express` `ir:`, changes the parent's request), with its provider-wide differences
    applied: `_flavours/<provider>.json`, a JSON merge patch (RFC 7386) of `request` / `response`.
    A file of its own with `"_inherits": true` is a patch on top of that.
    """
    out: dict[str, dict[str, dict]] = {}
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir() and not p.name.startswith("_")):
        docs = {}
        for file in sorted(folder.glob("*.json")):
            if file.stem in toolwire.PROVIDERS:
                docs[file.stem] = json.loads(file.read_text(encoding="utf-8"))
        for name in sorted(EXTENDS, key=_depth):
            _inherit(name, docs)
        if docs:
            out[folder.name] = docs
    return out


def _extends() -> dict[str, str]:
    """provider → the provider its spec extends."""
    out = {}
    for name in toolwire.PROVIDERS:
        doc = yaml.safe_load((SPEC / f"{name}.yaml").read_text(encoding="utf-8"))
        if doc.get("extends"):
            out[name] = doc["extends"]
    return out


SPEC = Path(__file__).resolve().parents[1] / "spec" / "providers"
EXTENDS = _extends()


def _depth(name: str) -> int:
    return 1 + _depth(EXTENDS[name]) if name in EXTENDS else 0


def _inherit(name: str, docs: dict[str, dict]) -> None:
    import losses

    parent = EXTENDS[name]
    own = docs.get(name)
    if parent not in docs or (own is not None and not own.get("_inherits")):
        return
    base = docs[parent]
    if own is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if losses.apply(name, toolwire.to_ir(base["request"], provider=parent)).changed:
                return  # the child cannot say this conversation: no file for it
    flavour_file = FIXTURES / "_flavours" / f"{name}.json"
    flavour = json.loads(flavour_file.read_text(encoding="utf-8")) if flavour_file.exists() else {}
    doc = {"_source": [*base["_source"], *flavour.get("_source", []), *(own or {}).get("_source", [])], "_inherited_from": parent}
    for kind in ("request", "response"):
        doc[kind] = merge_patch(merge_patch(base[kind], flavour.get(kind, {})), (own or {}).get(kind, {}))
    docs[name] = doc


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch: objects merge key by key, null removes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def _id_less() -> frozenset[str]:
    """Providers that send no call ids or rewrite them (spec `cannot_express` `ir: {ids: ...}`): their
    ids come back synthesized, so calls are compared by order."""
    import losses

    return frozenset(name for name in toolwire.PROVIDERS if losses.ids_not_kept(name))


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
