"""The public entry points behind ``toolwire.convert`` / ``to_ir`` / ``from_ir``."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `import toolwire` does not import typing (docs/performance.md)
    from typing import Any

from toolwire import ir

from . import first_use, fused
from .context import Context
from .errors import ConversionError

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
                import difflib  # only for the error message

                close = difflib.get_close_matches(str(provider), list(self.modules), n=2, cutoff=0.5)
                close += [p for p in self.modules if str(provider) and p.startswith(str(provider)) and p not in close]
                hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
                raise ValueError(f"unknown provider {provider!r}; {hint}expected one of {', '.join(self.modules)}")
            import importlib  # the first use of a provider (`import toolwire` loads none)

            module = self.loaded[provider] = importlib.import_module(name)
        return module


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be 'request' or 'response', got {kind!r}")


def _has(module: Any, provider: str, kind: str) -> Any:
    """The module, when the provider has documents of ``kind`` (MCP has tools and tool results only)."""
    if kind not in module.KINDS:
        raise ValueError(f"{provider} has no {kind} documents; its kinds are {', '.join(module.KINDS)} (toolwire.KINDS)")
    return module


def not_served(model: str, target: str, patterns: tuple | None) -> str | None:
    """The report of a model name the target does not serve (spec `models:`), or None (also the
    fused converters': fused_support.model_check)."""
    if _serves(patterns, model):
        return None
    return f"{model!r} is not a model name {target} serves ({', '.join(patterns)}); sent as it is — pass model= to name the target's model"


def _serves(patterns: tuple | None, model: str) -> bool:
    """Can ``model`` name a model of a provider that serves ``patterns`` (spec ``models:``)?"""
    import fnmatch  # imported here, not by `import toolwire`

    return patterns is None or type(model) is not str or any(fnmatch.fnmatchcase(model, p) for p in patterns)


def _parse(module: Any, payload: Any, kind: str, ctx: Context) -> Any:
    """The IR of a request or response body. When it does not parse as ``kind`` but does as the
    other kind, the error says so (a response passed without ``kind="response"``)."""
    try:
        if kind == "request":
            return module.request_to_ir(payload, ctx)
        return _finish_response(module.response_to_ir(payload, ctx), ctx)
    except ConversionError as exc:
        other = "response" if kind == "request" else "request"
        if _parses_as(module, payload, other):
            exc.add_hint(f"this is a {other} body: pass kind={other!r}")
        raise


# loaded at their first use, not by `import toolwire` (docs/performance.md)
_finish_response = first_use(globals(), "_finish_response", "toolwire_runtime.layout", "finish_response")
_plain = first_use(globals(), "_plain", "toolwire_runtime.sdk_objects", "plain")


def _parses_as(module: Any, payload: Any, kind: str) -> bool:
    try:
        (module.request_to_ir if kind == "request" else module.response_to_ir)(payload, Context(module.PROVIDER))
    except ConversionError:
        return False
    return True


def _read(module: Any, payload: Any, kind: str, ctx: Context) -> tuple[Any, Context]:
    """The IR of a payload and the context that read it. A payload that is not a dict (an SDK
    object) is read as its JSON; a dict is read as it is, and only when that fails is it searched
    for SDK objects nested in it (``messages=[completion.choices[0].message]``): with some, it is
    read again as its JSON, with a fresh context (sdk_objects.py). Plain dicts pay nothing."""
    if type(payload) is not dict:
        payload = _plain(payload)
    try:
        return _parse(module, payload, kind, ctx), ctx
    except ConversionError:
        json_payload = _plain(payload)
        if json_payload is payload:
            raise
    ctx = Context(ctx.provider, ctx.strict, ctx.tool_names)
    return _parse(module, json_payload, kind, ctx), ctx


def _without_weights(node: Any, module: Any, ctx: Context) -> Any:
    """A request whose turns carry training weights, for a target without a place for them: each is
    reported here (whatever the target's conversation passes do with the turn: merge it, flag it, or
    render it as items) and left out of the copy that is rendered."""
    if "weight" in module.MESSAGE_FIELDS or not any(m.weight is not None for m in node.messages):
        return node  # (MESSAGE_FIELDS: generated from the spec, the Message fields its codecs carry)
    for i, m in enumerate(node.messages):
        if m.weight is not None:
            ctx.lose(f"messages[{i}].weight", f"{ctx.provider} has no place for Message.weight; dropped")
    from dataclasses import replace  # (rare: not imported with toolwire)

    messages = [replace(m, weight=None) if m.weight is not None else m for m in node.messages]
    return replace(node, messages=messages)


def to_ir(registry: Registry, payload: Any, provider: str, kind: str, strict: bool, tool_names: Any = None, quiet: bool = False) -> Any:
    """``quiet``: reports are not emitted (a stream translation's partial conversions, whose warnings
    would be ignored: making them is most of what such a conversion costs)."""
    _check_kind(kind)
    module = _has(registry.get(provider), provider, kind)
    node, ctx = _read(module, payload, kind, Context(provider, strict, tool_names))
    if not quiet:
        ctx.flush()
    return node


def from_ir(registry: Registry, obj: Any, provider: str, strict: bool, model: str | None = None, quiet: bool = False, numbers: dict | None = None) -> dict:
    """``numbers``: the dict the conversion counts the objects it numbers in, by kind, from the
    counts it holds (a `fill_format`'s {$n}: Responses' made message ids): a stream translation's
    conversion of a window of parts numbers on from the body's, and reads how many it numbered."""
    import dataclasses  # imported here, not by `import toolwire`

    module = registry.get(provider)
    ctx = Context(provider, strict)
    if numbers is not None:
        ctx.numbers = numbers
    if model is not None and isinstance(obj, (ir.Request, ir.Response)):
        obj = dataclasses.replace(obj, model=model)  # never mutate the caller's IR
    if type(obj) is ir.Request and obj.tools and any(type(t) is not ir.ToolDefinition and type(t) is not ir.ProviderTool for t in obj.tools):
        # a @toolwire.tool function (tools.Tool) stands for its definition
        obj = dataclasses.replace(obj, tools=[t.definition if type(getattr(t, "definition", None)) is ir.ToolDefinition else t for t in obj.tools])
    if isinstance(obj, ir.Request):
        out = _has(module, provider, "request").request_from_ir(_without_weights(obj, module, ctx), ctx)
    elif isinstance(obj, ir.Response):
        out = _has(module, provider, "response").response_from_ir(obj, ctx)
    else:
        raise TypeError(f"from_ir takes a toolwire.ir.Request or Response, got {type(obj).__name__}")
    if not quiet:
        ctx.flush()
    return out


_fused_pairs: dict[tuple[str, str], Any] = {}  # (source, target) → fused function, or None


def _fused(source: str, target: str) -> Any:
    """The generated fused converter of a pair (generated/toolwire/fused/) and the source's
    provider-data name, or None."""
    key = (source, target)
    fn = _fused_pairs.get(key, False)
    if fn is False:
        from toolwire.fused import PAIRS  # loaded with the first conversion, not by `import toolwire`

        where = PAIRS.get(key)
        if where is not None:
            import importlib

            fn = (getattr(importlib.import_module(where[0]), where[1]), where[2])
        else:
            fn = None
        _fused_pairs[key] = fn
    return fn


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
    if kind == "request" and type(payload) is dict and tool_names is None and fused.ENABLED:
        fused_pair = _fused(source, target)
        if fused_pair is not None:  # one pass without IR objects; Deopt: anything it leaves to the general path
            ctx = Context(target, strict)
            ctx.data = fused_pair[1]  # the source's provider data (its keys the target has no place for)
            try:
                out = fused_pair[0](payload, ctx, model)
            except fused.Deopt:
                pass
            else:
                ctx.flush()
                return out
    src = _has(registry.get(source), source, kind)
    dst = _has(registry.get(target), target, kind)
    node, ctx = _read(src, payload, kind, Context(source, strict, tool_names))
    ctx.provider = target
    # a same-provider conversion for the input's own model keeps the input's spelling: no model rules
    # (with another model= — a Claude conversation on Bedrock continued with Mistral — they apply)
    ctx.native = src.PROVIDER == dst.PROVIDER and (model is None or model == node.model)
    if model is not None:
        node.model = model
    elif kind == "request" and node.model and target != source and (report := not_served(node.model, target, dst.MODELS)):
        ctx.lose("model", report)
    out = dst.request_from_ir(_without_weights(node, dst, ctx), ctx) if kind == "request" else dst.response_from_ir(node, ctx)
    ctx.flush()
    return out
