"""The documented losses of a provider, applied to an IR request: what toolwire must give back.

Every provider spec's `cannot_express` entries say, in their `ir:` effects, what the provider loses
(generator/losses.py has the vocabulary; the generated module exports them as ``IR_LOSSES``, a child
provider's including its parent's). ``apply`` plays them on a copy of an IR request, so the property
tests and the fixture tests read the expected losses from the spec instead of keeping lists of
their own.
"""

from __future__ import annotations

import copy
import dataclasses
import fnmatch
import functools
import importlib
import json
from typing import Any, Iterator

from toolwire import ir
from toolwire_runtime.transforms import sniff_image_type


@functools.cache
def effects(provider: str) -> tuple[dict, ...]:
    """The `ir:` effects of every `cannot_express` entry of ``provider``, in spec order."""
    module = importlib.import_module(f"toolwire.providers.{provider}")
    return tuple(effect for _, listed in module.IR_LOSSES for effect in listed)


def ids_not_kept(provider: str) -> bool:
    """Call ids are not sent (synthesized on parse) or rewritten to fit: compare calls by order."""
    return any("ids" in e for e in effects(provider))


def ids_refitted(provider: str) -> bool:
    """Call ids that break the provider's rule are rewritten to fit it."""
    return any(e.get("ids") == "refitted" for e in effects(provider))


@dataclasses.dataclass
class Outcome:
    node: Any  # the request as the provider gives it back
    changed: bool  # an effect changed something (the provider's body cannot say all of it)
    reported: bool  # an effect that must be reported (a LossWarning) changed something


def apply(provider: str, node: ir.Request) -> Outcome:
    """``node`` (not modified) as ``provider`` gives it back, by its documented losses."""
    node = copy.deepcopy(node)
    changed = reported = False
    for effect in effects(provider):
        if "ids" in effect:
            continue  # ids are compared by order (ids_not_kept); their report is a property of the calls
        hit = _apply_one(effect, node)
        changed |= hit
        reported |= hit and "result_as_text" not in effect  # the JSON text carries the same value
    return Outcome(node, changed, reported)


def apply_reasoning(provider: str, node: Any) -> Any:
    """``node`` (a request or a response; not modified) with only ``provider``'s reasoning losses
    applied (the `reasoning` effects and a `drop` of ReasoningPart): a response says no more than
    its answer, so these are the only losses a response conversion has."""
    node = copy.deepcopy(node)
    for effect in effects(provider):
        if "reasoning" in effect or effect.get("drop") == "ReasoningPart":
            _apply_one(effect, node)
    return node


def _apply_one(effect: dict, request: ir.Request) -> bool:
    if effect.get("unless_parts") and any(type(p).__name__ in effect["unless_parts"] for p in _parts(request)):
        return False
    when = effect.get("when") or {}
    hit = False
    if "drop" in effect:
        cls = effect["drop"]
        for holder in _objects(request):
            parts = getattr(holder, "parts", None)
            if isinstance(parts, list):
                kept = [p for p in parts if not (type(p).__name__ == cls and _matches(p, when))]
                if len(kept) != len(parts):
                    holder.parts, hit = kept, True
        return hit
    if "set" in effect:
        for obj in _instances(request, effect["of"]):
            if _matches(obj, when):
                for name, value in effect["set"].items():
                    if getattr(obj, name) != value:
                        setattr(obj, name, value)
                        hit = True
        return hit
    if "reasoning" in effect:
        return _reasoning(effect["reasoning"], effect.get("keeps", "text"), request)
    if "error_as_text" in effect:
        for result in _instances(request, "ToolResult"):
            if result.is_error and _matches(result, when):
                text = result.result if isinstance(result.result, str) else _json(result.result)
                result.result, result.is_error, hit = effect["error_as_text"] + text, False, True
        return hit
    key = "unset" if "unset" in effect else "from_data" if "from_data" in effect else "result_as_text"
    cls, _, name = effect[key].partition(".")
    for obj in _instances(request, cls):
        value = getattr(obj, name)
        if value is None or value == [] or not _matches(obj, when):
            continue
        if key == "unset":
            new = None
        elif key == "from_data":
            new = sniff_image_type(obj.data) if obj.data is not None else value
        else:
            new = value if isinstance(value, (str, dict)) else _json(value)
        if new != value:
            setattr(obj, name, new)
            hit = True
    return hit


def _reasoning(family: str | None, keeps: str, request: ir.Request) -> bool:
    """What a provider verifying ``family``'s signatures gives back of reasoning (the `reasoning` effect)."""
    hit = False
    for call in _instances(request, "ToolCall"):
        if call.signature is not None and call.signature_verifier != family:
            call.signature, call.signature_verifier, hit = None, None, True
    for holder in _objects(request):
        parts = getattr(holder, "parts", None)
        if not isinstance(parts, list):
            continue
        kept = []
        for part in parts:
            if type(part) is not ir.ReasoningPart:
                kept.append(part)
                continue
            own = part.verifier == family and family is not None
            if keeps == "signed" and not (own and (part.signature is not None or part.data is not None)):
                hit = True
                continue
            if keeps == "family" and not own:
                hit = True
                continue
            if not own:
                stripped = dataclasses.replace(part, signature=None, data=None, id=None, verifier=None, redacted=False, summary=False)
                if stripped != part:
                    part, hit = stripped, True
                if part.text is None:
                    hit = True
                    continue
            kept.append(part)
        if len(kept) != len(parts) or any(a is not b for a, b in zip(kept, parts)):
            holder.parts = kept
    return hit


def _matches(obj: Any, when: dict) -> bool:
    for path, want in when.items():
        value = obj
        for key in path.split("."):
            value = getattr(value, key, None) if value is not None else None
        options = want if isinstance(want, list) else [want]
        if not any(_equal(value, option) for option in options):
            return False
    return True


def _equal(value: Any, option: Any) -> bool:
    if isinstance(option, str) and "*" in option:
        return isinstance(value, str) and fnmatch.fnmatchcase(value, option)
    return value == option


def _objects(node: Any) -> Iterator[Any]:
    """Every IR object under ``node`` (itself included), depth first."""
    if dataclasses.is_dataclass(node):
        yield node
        for f in dataclasses.fields(node):
            yield from _objects(getattr(node, f.name))
    elif isinstance(node, list):
        for item in node:
            yield from _objects(item)


def _instances(node: Any, cls: str) -> Iterator[Any]:
    return (obj for obj in _objects(node) if type(obj).__name__ == cls)


def _parts(request: ir.Request) -> Iterator[Any]:
    return (p for m in request.messages for p in m.parts)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
