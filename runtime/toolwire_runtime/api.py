"""The public entry points behind ``toolwire.convert`` / ``to_ir`` / ``from_ir``."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from toolwire import ir

from . import layout
from .context import Context

KINDS = ("request", "response")


class Registry:
    """Provider name → generated module, imported on first use (keeps ``import toolwire`` fast)."""

    def __init__(self, modules: dict[str, str]) -> None:
        self.modules = modules
        self.loaded: dict[str, Any] = {}

    def get(self, provider: str) -> Any:
        module = self.loaded.get(provider)
        if module is None:
            name = self.modules.get(provider)
            if name is None:
                raise ValueError(f"unknown provider {provider!r}; expected one of {', '.join(self.modules)}")
            module = self.loaded[provider] = importlib.import_module(name)
        return module


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be 'request' or 'response', got {kind!r}")


def to_ir(registry: Registry, payload: Any, provider: str, kind: str, strict: bool, tool_names: Any = None) -> Any:
    _check_kind(kind)
    module = registry.get(provider)
    ctx = Context(provider, strict, tool_names)
    if kind == "request":
        node = module.request_to_ir(payload, ctx)
    else:
        node = layout.finish_response(module.response_to_ir(payload, ctx), ctx)
    ctx.flush()
    return node


def from_ir(registry: Registry, obj: Any, provider: str, strict: bool, model: str | None = None) -> dict:
    module = registry.get(provider)
    ctx = Context(provider, strict)
    if model is not None and isinstance(obj, (ir.Request, ir.Response)):
        obj = dataclasses.replace(obj, model=model)  # never mutate the caller's IR
    if isinstance(obj, ir.Request):
        out = module.request_from_ir(obj, ctx)
    elif isinstance(obj, ir.Response):
        out = module.response_from_ir(obj, ctx)
    else:
        raise TypeError(f"from_ir takes a toolwire.ir.Request or Response, got {type(obj).__name__}")
    ctx.flush()
    return out


def convert(
    registry: Registry,
    payload: Any,
    source: str,
    target: str,
    kind: str,
    strict: bool,
    tool_names: Any = None,
    model: str | None = None,
) -> dict:
    _check_kind(kind)
    src = registry.get(source)
    dst = registry.get(target)
    ctx = Context(source, strict, tool_names)
    if kind == "request":
        node = src.request_to_ir(payload, ctx)
        if model is not None:
            node.model = model
        ctx.provider = target
        out = dst.request_from_ir(node, ctx)
    else:
        node = layout.finish_response(src.response_to_ir(payload, ctx), ctx)
        if model is not None:
            node.model = model
        ctx.provider = target
        out = dst.response_from_ir(node, ctx)
    ctx.flush()
    return out
