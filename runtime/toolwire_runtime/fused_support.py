"""What the generated fused converters share (generated/toolwire/fused/; toolwire_runtime/fused.py
says what they are). Loaded with the first fused conversion, not by ``import toolwire``."""

from __future__ import annotations

from fnmatch import fnmatchcase

from .api import not_served
from .fused import Deopt
from .schema import standard_types_seen


_models_seen: dict = {}  # (target, model, no serves check) → the model's report, or False: it has rules


def model_check(model: str, rules: tuple, serves: tuple | None, target: str) -> str | None:
    """Deopt for a model a rule of the target applies to (``rules``: the patterns of its
    `for_models` entries that touch what the fused path writes); else the report the general path
    makes for a model name the target does not serve (api.convert, ``serves``: spec `models:`), or None."""
    key = (target, model, serves is None)
    seen = _models_seen.get(key)
    if seen is None:
        if any(fnmatchcase(model, p) for p in rules):
            seen = False
        else:
            seen = not_served(model, target, serves) or ""
        if len(_models_seen) < 1024:
            _models_seen[key] = seen
    if seen is False:
        raise Deopt
    return seen or None


def tool(i: int, name: str, description: str | None, params: dict, ctx, keys: tuple[str, str, str]) -> dict:
    """A function tool for the target whose keys (name, description, schema) are ``keys``: its
    schema as the general path renders it (standard_types, remembered: schema.standard_types_seen)."""
    out = {keys[0]: name}
    if description is not None:
        out[keys[1]] = description
    out[keys[2]] = standard_types_seen(params, (ctx.provider, name), ((("", "tools"), i), "parameters"), ctx.lose, ctx.provider)
    return out

