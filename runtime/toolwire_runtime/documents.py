"""Document kinds beside requests and responses: tool lists and tool results (docs/mcp.md).

Every provider with requests has a ``tools`` document: the value of its request's tools key (the
OpenAI / Anthropic ``tools`` array, Gemini's ``tools`` groups, Bedrock's ``toolConfig.tools``), read
and written by the generated codec of that key. MCP declares its own: a ``tools/list`` result
(``tools_to_ir`` / ``tools_from_ir``), and a ``CallToolResult`` (``tool_result``). Imported on first
use of one of these functions (``import toolwire`` does not load it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (docs/performance.md, "import toolwire")
    from typing import Any

from toolwire import ir

from .api import _has
from .context import Context


def _module(registry: Any, provider: str, kind: str) -> Any:
    return _has(registry.get(provider), provider, kind)


def _tool_list(tools: Any) -> ir.ToolList:
    if isinstance(tools, ir.ToolList):
        return tools
    if isinstance(tools, (list, tuple)) and all(isinstance(t, (ir.ToolDefinition, ir.ProviderTool)) for t in tools):
        return ir.ToolList(tools=list(tools))
    raise TypeError(f"expected a toolwire.ir.ToolList or a list of ir.ToolDefinition, got {type(tools).__name__}")


def tools_to_ir(registry: Any, payload: Any, provider: str, strict: bool) -> ir.ToolList:
    module = _module(registry, provider, "tools")
    ctx = Context(provider, strict)
    out = module.tools_to_ir(payload, ctx)
    ctx.flush()
    return out


def tools_from_ir(registry: Any, tools: Any, provider: str, strict: bool, model: str | None = None) -> Any:
    module = _module(registry, provider, "tools")
    ctx = Context(provider, strict)
    ctx.model = model  # rules for some models (Anthropic's `strict` before Claude 4.5)
    out = module.tools_from_ir(_tool_list(tools), ctx)
    ctx.flush()
    return out


def convert_tools(registry: Any, payload: Any, source: str, target: str, strict: bool, model: str | None = None) -> Any:
    src = _module(registry, source, "tools")
    dst = _module(registry, target, "tools")
    ctx = Context(source, strict)
    node = src.tools_to_ir(payload, ctx)
    ctx.provider, ctx.model = target, model
    ctx.native = src.PROVIDER == dst.PROVIDER  # a provider's own tools keep their spelling: no model rules
    out = dst.tools_from_ir(node, ctx)
    ctx.flush()
    return out


def result_to_ir(registry: Any, payload: Any, provider: str, call: Any, strict: bool) -> ir.ToolResult:
    module = _module(registry, provider, "tool_result")
    ctx = Context(provider, strict)
    node = module.tool_result_to_ir(payload, ctx)
    ctx.flush()
    if call is not None:
        if isinstance(call, ir.ToolCall):
            node.tool_call_id, node.name = call.id, call.name
        elif isinstance(call, dict) and isinstance(call.get("id"), str) and isinstance(call.get("name"), str):
            node.tool_call_id, node.name = call["id"], call["name"]
        else:
            raise TypeError(f"call must be a toolwire.ir.ToolCall (or a dict with its id and name), got {type(call).__name__}")
    return node


def result_from_ir(registry: Any, result: Any, provider: str, strict: bool) -> dict:
    module = _module(registry, provider, "tool_result")
    if not isinstance(result, ir.ToolResult):
        raise TypeError(f"expected a toolwire.ir.ToolResult, got {type(result).__name__}")
    ctx = Context(provider, strict)
    out = module.tool_result_from_ir(result, ctx)
    ctx.flush()
    return out
