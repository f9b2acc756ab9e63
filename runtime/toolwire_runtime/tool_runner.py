"""Run one turn's tool calls: ``toolwire.run_tool_calls`` / ``toolwire.arun_tool_calls``.

The calls of a turn run concurrently — plain functions in threads, coroutine functions on the
event loop — and come back as the IR ``tool`` message that answers the turn, one ``ToolResult``
per call, in the calls' order. A tool that raises, a name no tool has, arguments the function
does not take and a call that outlives ``timeout`` become error results (``is_error=True``) whose
text says what went wrong, so the model can see it and try something else (design seed 004:
errors go back to the model rather than stopping the agent).

Stdlib only; imported on first use of those names (``import toolwire`` stays fast).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import dataclasses
import functools
import inspect
import json
import math
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from toolwire import ir

_PARTS = (ir.TextPart, ir.ImagePart, ir.FilePart)


def tool_name(tool: Any) -> str:
    """The name a tool answers to: its ``.definition.name`` (a ``@toolwire.tool`` function, or any
    object with an ``ir.ToolDefinition``-like ``definition``), a ``name`` string, else ``__name__``.
    """
    definition = getattr(tool, "definition", None)
    name = getattr(definition, "name", None)
    if isinstance(name, str):
        return name
    if isinstance(getattr(tool, "name", None), str):
        return tool.name
    name = getattr(tool, "__name__", None)
    if isinstance(name, str):
        return name
    raise TypeError(f"cannot tell the name of tool {tool!r}: pass a mapping {{name: function}}")


def _function(tool: Any) -> Callable:
    """The callable behind a tool entry: the object itself when callable, else the function a
    wrapper holds (``fn`` / ``func`` / ``function`` / ``__wrapped__``)."""
    if callable(tool):
        return tool
    for attr in ("fn", "func", "function", "__wrapped__"):
        inner = getattr(tool, attr, None)
        if callable(inner):
            return inner
    raise TypeError(f"tool {tool!r} is not callable")


def tool_table(tools: Any) -> dict[str, Callable]:
    """``{name: callable}`` from a mapping name → tool or an iterable of tools (see ``tool_name``)."""
    if tools is None:
        return {}
    if isinstance(tools, Mapping):
        return {str(name): _function(tool) for name, tool in tools.items()}
    if callable(tools) or not isinstance(tools, Iterable) or isinstance(tools, (str, bytes)):
        raise TypeError(
            f"tools must be a mapping name -> function or a list of functions, got {type(tools).__name__}"
        )
    table: dict[str, Callable] = {}
    for tool in tools:
        name = tool_name(tool)
        if name in table:
            raise ValueError(f"two tools are named {name!r}")
        table[name] = _function(tool)
    return table


def tool_calls(calls: Any) -> list[ir.ToolCall]:
    """The ``ir.ToolCall``s of ``calls``: a list of them, an ``ir.Message`` or an ``ir.Response``."""
    if isinstance(calls, ir.Response):
        calls = calls.message
    if isinstance(calls, ir.Message):
        calls = calls.parts
    out = [part for part in calls if isinstance(part, ir.ToolCall)]
    stray = [
        part
        for part in calls
        if not isinstance(part, (ir.ToolCall, *_PARTS, ir.ReasoningPart, ir.OpaquePart))
    ]
    if stray:
        raise TypeError(
            f"calls must be toolwire.ir.ToolCall objects, got {type(stray[0]).__name__}"
        )
    return out


def _is_async(fn: Callable) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)
    )


def _bad_arguments(call: ir.ToolCall, fn: Callable) -> str | None:
    """Why ``fn(**call.arguments)`` cannot be called, or None."""
    if call.raw_arguments is not None and not call.arguments:
        try:
            json.loads(call.raw_arguments)
        except ValueError:
            return f"the arguments of {call.name!r} are not valid JSON: {call.raw_arguments!r}"
    if not isinstance(call.arguments, dict):
        return f"the arguments of {call.name!r} are not a JSON object: {call.arguments!r}"
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature: let the call itself tell
        return None
    try:
        signature.bind(**call.arguments)
    except TypeError as exc:
        return f"invalid arguments for {call.name!r}: {exc}"
    return None


def _json_value(value: Any) -> Any:
    """A tool's return value as a JSON value: dicts, lists, strings, numbers, booleans and None as
    they are; pydantic models, dataclasses, tuples and sets as their JSON form; anything else as
    its ``str``."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_value(v) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return _json_value(dump(mode="json"))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _json_value(dataclasses.asdict(value))
    return str(value)


def _result(call: ir.ToolCall, value: Any) -> ir.ToolResult:
    """The result of a call that returned ``value``: IR media parts (an ``ir.ImagePart``, or a
    list of text / image / file parts) go in ``parts``, anything else in ``result``."""
    if isinstance(value, _PARTS):
        return ir.ToolResult(tool_call_id=call.id, name=call.name, parts=[value])
    if isinstance(value, list) and value and all(isinstance(v, _PARTS) for v in value):
        return ir.ToolResult(tool_call_id=call.id, name=call.name, parts=list(value))
    return ir.ToolResult(tool_call_id=call.id, name=call.name, result=_json_value(value))


def _error(call: ir.ToolCall, message: str) -> ir.ToolResult:
    return ir.ToolResult(tool_call_id=call.id, name=call.name, result=message, is_error=True)


def _describe(call: ir.ToolCall, exc: BaseException) -> str:
    text = str(exc)
    return (
        f"{call.name!r} raised {type(exc).__name__}: {text}"
        if text
        else f"{call.name!r} raised {type(exc).__name__}"
    )


class _Expired(Exception):
    """The turn's ``timeout`` passed (apart from a ``TimeoutError`` the tool itself raises)."""


async def _within(work: Any, deadline: float | None) -> Any:
    """Await ``work``, cancelling it (a coroutine; a thread runs on) when ``deadline`` passes."""
    if deadline is None:
        return await work
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=max(0.0, deadline - time.monotonic()))
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        raise _Expired
    return task.result()


async def arun_tool_calls(
    calls: Any, tools: Any, *, timeout: float | None = None, max_workers: int | None = None
) -> ir.Message:
    """Run a turn's tool calls concurrently and return the ``tool`` message answering them.

    ``calls``: the ``ir.ToolCall``s (or the ``ir.Response`` / ``ir.Message`` holding them).
    ``tools``: a mapping name → function, or a list of functions (named by ``__name__``, or by
    ``.definition.name`` for ``@toolwire.tool`` functions). Each call runs as ``fn(**arguments)``:
    coroutine functions on this event loop, plain functions in a thread pool of ``max_workers``
    threads. ``timeout`` (seconds) bounds the whole turn; a call still running then gets an error
    result (a thread cannot be stopped: a timed-out plain function finishes in the background and
    its value is discarded). Results keep the calls' order.
    """
    calls = tool_calls(calls)
    table = tool_table(tools)
    loop = asyncio.get_running_loop()
    executor: concurrent.futures.ThreadPoolExecutor | None = None
    deadline = None if timeout is None else time.monotonic() + timeout

    async def one(call: ir.ToolCall) -> ir.ToolResult:
        nonlocal executor
        fn = table.get(call.name)
        if fn is None:
            known = ", ".join(map(repr, table)) or "none"
            return _error(call, f"unknown tool {call.name!r}; the tools are {known}")
        problem = _bad_arguments(call, fn)
        if problem:
            return _error(call, problem)
        try:
            if _is_async(fn):
                work = fn(**call.arguments)
            else:
                if executor is None:
                    executor = concurrent.futures.ThreadPoolExecutor(
                        max_workers, thread_name_prefix="toolwire-tool"
                    )
                run = functools.partial(contextvars.copy_context().run, fn, **call.arguments)
                work = loop.run_in_executor(executor, run)
            value = await _within(work, deadline)
            if inspect.isawaitable(value):  # a plain function that returned a coroutine
                value = await _within(value, deadline)
        except _Expired:
            return _error(call, f"{call.name!r} timed out after {timeout:g} s")
        except Exception as exc:  # the model sees the failure and can react to it
            return _error(call, _describe(call, exc))
        return _result(call, value)

    try:
        results = await asyncio.gather(*(one(call) for call in calls))
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return ir.Message(role="tool", parts=list(results))


def run_tool_calls(
    calls: Any, tools: Any, *, timeout: float | None = None, max_workers: int | None = None
) -> ir.Message:
    """Run a turn's tool calls concurrently and return the ``tool`` message answering them.

    The blocking form of ``arun_tool_calls`` (same arguments and behaviour); coroutine functions
    among ``tools`` run on an event loop of their own. Called from inside a running event loop,
    it runs that loop in a helper thread — prefer ``await toolwire.arun_tool_calls(...)`` there.
    """
    coro = arun_tool_calls(calls, tools, timeout=timeout, max_workers=max_workers)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as helper:
        return helper.submit(asyncio.run, coro).result()
