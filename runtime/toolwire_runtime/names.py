"""fit_id / fit_name: call ids and tool names made valid for a provider, deterministically.

A foreign id or name that already satisfies the target's rule passes unchanged. Otherwise it is
mapped by a pure function of the original alone (so a call and its result, or a tool and its
calls, always map to the same value): characters outside the allowed set become ``_``, and when
the value has to be shortened (or, for fixed-length ids, always) a short hash of the original
keeps distinct originals apart. Two originals that still map to one value within a conversion
are an error, never a silent merge.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (docs/performance.md, "import toolwire")
    from typing import Any

from .context import Context
from .errors import NameCollisionError, WrongTypeError

_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_rules: dict[tuple, tuple[re.Pattern, re.Pattern]] = {}


def _rule(chars: str, first: str | None, max_len: int | None, exact: bool) -> tuple[re.Pattern, re.Pattern]:
    key = (chars, first, max_len, exact)
    rule = _rules.get(key)
    if rule is None:
        lo = max_len if exact else 1
        head = f"[{first}]" if first else f"[{chars}]"
        rest = f"[{chars}]{{0,{max_len - 1}}}" if max_len else f"[{chars}]*"
        if exact:
            rest = f"[{chars}]{{{lo - 1}}}"
        rule = _rules[key] = (re.compile(f"{head}{rest}"), re.compile(f"[^{chars}]"))
    return rule


def matcher(chars: str, first: str | None, max_len: int | None, exact: bool) -> Any:
    """The rule's bound ``fullmatch``: a value it matches passes ``fit`` unchanged."""
    return _rule(chars, first, max_len, exact)[0].fullmatch


def _digest(value: str, size: int) -> str:
    """``size`` base-62 characters of the SHA-256 of ``value``."""
    import hashlib  # only names and ids that must be rewritten are hashed

    n = int.from_bytes(hashlib.sha256(value.encode("utf-8")).digest()[:16], "big")
    out = []
    for _ in range(size):
        n, r = divmod(n, 62)
        out.append(_ALNUM[r])
    return "".join(out)


_matchers: dict[tuple, Any] = {}  # (chars, max_len, exact) → the rule's bound fullmatch (the hot path)


def fits(value: str, chars: str, max_len: int | None, exact: bool) -> bool:
    """Whether an id satisfies the rule as it is."""
    match = _matchers.get((chars, max_len, exact))
    if match is None:
        match = _matchers[chars, max_len, exact] = _rule(chars, None, max_len, exact)[0].fullmatch
    return match(value) is not None


_fitted: dict[tuple, str] = {}  # (value, rule) → fit's answer: a conversation's ids and names, fitted again per turn


def fit(value: str, chars: str, first: str | None = None, max_len: int | None = None, exact: bool = False) -> str:
    """``value`` if it satisfies the rule, else its deterministic valid replacement."""
    key = (value, chars, first, max_len, exact)
    out = _fitted.get(key)
    if out is None:
        if len(_fitted) > 4096:  # (bounded: ids are many over a process's life)
            _fitted.clear()
        out = _fitted[key] = _fit(value, chars, first, max_len, exact)
    return out


def _fit(value: str, chars: str, first: str | None, max_len: int | None, exact: bool) -> str:
    valid, invalid = _rule(chars, first, max_len, exact)
    if valid.fullmatch(value):
        return value
    if exact:  # a fixed-length id (Mistral: 9 alphanumerics) has no room but for a hash
        return _digest(value, max_len or 9)
    cleaned = invalid.sub("_", value)
    if first and not re.match(f"[{first}]", cleaned):
        cleaned = "_" + cleaned
    if max_len and len(cleaned) > max_len:
        cleaned = cleaned[: max_len - 7] + "_" + _digest(value, 6)
    return cleaned


def fit_render(value: Any, kind: str, path: Any, ctx: Context, chars: str, first: str | None, max_len: int | None, exact: bool) -> Any:
    """Render side of fit_id / fit_name: the fitted value, checked against collisions, reported."""
    if type(value) is not str:
        return value
    out = fit(value, chars, first, max_len, exact)
    seen = ctx.fitted.setdefault((kind, out), value)
    if seen != value:
        raise NameCollisionError(
            path,
            f"{kind}s {seen!r} and {value!r} both become {out!r} on {ctx.provider}; rename one of them",
        )
    if out != value:
        ctx.lose(path, f"{kind}s that break {ctx.provider}'s rule are mapped to valid ones (e.g. {value!r} → {out!r})")
    return out


def fit_id_render(value: Any, hint: Any, path: Any, ctx: Context, chars: str, max_len: int | None, exact: bool) -> Any:
    """Render side of fit_id: an id the same provider sent is sent back as it is (hint "kept");
    any other is fitted (fit_render)."""
    if hint == "kept" and type(value) is str:
        seen = ctx.fitted.setdefault(("call id", value), value)
        if seen != value:
            raise NameCollisionError(path, f"call ids {seen!r} and {value!r} both become {value!r} on {ctx.provider}; rename one of them")
        return value
    return fit_render(value, "call id", path, ctx, chars, None, max_len, exact)


def fit_name_parse(value: Any, path: Any, ctx: Context, chars: str, first: str | None, max_len: int | None) -> str:
    """Parse side of fit_name: a tool name, mapped back to the caller's original where it was fitted."""
    if type(value) is not str:
        raise WrongTypeError(path, "expected a string")
    if ctx.tool_names is None:
        return value
    back = ctx.names_back
    if back is None:
        back = ctx.names_back = {fit(n, chars, first, max_len): n for n in ctx.tool_names}
    return back.get(value, value)
