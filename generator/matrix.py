"""The compatibility matrix of docs/providers.md: providers × features, every cell derived from the spec.

A cell is read from what the spec declares, never typed by hand: the codecs (which IR fields a
provider's codecs map, which part classes a result's parts codec reaches, the transform that maps
``is_error``, the conversation's hoisted system prompt, ``for_models`` rules) and the losses
(``cannot_express`` ``ir:`` effects, generator/losses.py). The same cells are each provider module's
``FEATURES`` (``toolwire providers NAME`` prints them). A feature the spec says nothing about is a
generator error: the spec lacks a declaration.
"""

from __future__ import annotations

from typing import Any, Callable

from .spec import Codec, Provider

MODES = (("auto", "auto"), ("none", "none"), ("required", "required"), ("tool", "named"))


def _effects(p: Provider) -> list[dict]:
    return [e for _what, effects in p.ir_losses for e in effects]


def _unset(p: Provider, field: str) -> list[dict]:
    """The `unset` effects on ``Class.field`` (each may carry `when`)."""
    return [e for e in _effects(p) if e.get("unset") == field]


def _always(effects: list[dict]) -> bool:
    return any("when" not in e and "unless_parts" not in e for e in effects)


def _codecs_of(p: Provider, cls: str) -> list[Codec]:
    return [c for c in p.codecs.values() if c.ir == cls]


def _mapped(p: Provider, cls: str) -> set[str]:
    """The IR fields of ``cls`` some codec of the provider maps (rules, constants, a scalar form)."""
    out: set[str] = set()
    for c in p.codecs.values():
        if c.ir == cls:
            out |= {n for r in c.rules for n in r.ir} | set(c.set)
        if c.scalar and c.scalar.get("ir") == cls:
            out.add(c.scalar["field"])
    return out


def message_fields(p: Provider) -> list[str]:
    """The ``Message`` fields the provider's codecs carry (sorted): the runtime reports any other
    field a message holds (``Message.weight`` of a fine-tuning record) where the target has no place
    for it, before the conversation's layout passes rebuild the messages."""
    return sorted(_mapped(p, "Message"))


def _reached(p: Provider, name: str | None, seen: set | None = None) -> set[str]:
    """The IR classes a codec produces: its own, or its union variants' (recursively)."""
    seen = set() if seen is None else seen
    codec = p.codecs.get(name) if name else None
    if codec is None or name in seen:
        return set()
    seen.add(name)
    out = {codec.ir} if codec.ir else set()
    for v in codec.variants:
        out |= _reached(p, v.get("codec"), seen)
    return out


def _modes(when: Any) -> set[str]:
    """The tool_choice modes a `when: {tool_choice.mode | mode: ...}` names (all of them: no when)."""
    if not when:
        return {m for m, _ in MODES}
    value = when.get("tool_choice.mode", when.get("mode"))
    if value is None:
        return set()
    return set(value) if isinstance(value, list) else {value}


def _for_own_models(p: Provider, entries: list) -> list:
    """The `for_models` entries that can concern a model the provider serves (an inherited rule for
    OpenAI's o-series says nothing about DeepSeek's models): a pattern whose literal prefix and the
    prefix of one of the provider's `models:` are prefixes one of the other."""
    if p.models is None:
        return list(entries)

    def prefix(glob: str) -> str:
        return glob.split("*", 1)[0].split("[", 1)[0].split("?", 1)[0]

    own = [prefix(m) for m in p.models]
    return [e for e in entries if any(prefix(pat).startswith(o) or o.startswith(prefix(pat))
                                      for pat in e.get("match", ()) for o in own)]


def _patterns(rules: list) -> str:
    pats = [pat for entry in rules for pat in entry.get("match", ())]
    return ", ".join(f"`{pat}`" for pat in pats[:2]) + (", …" if len(pats) > 2 else "")


def call_ids(p: Provider) -> str:
    kinds = {e["ids"] for e in _effects(p) if "ids" in e}
    if "synthesized" in kinds:
        return "none (synthesized on parse, pairing by position)"
    rules = [r for c in _codecs_of(p, "ToolCall") for r in c.rules if "id" in r.ir]
    if not rules:
        raise LookupError("no rule maps ToolCall.id and no `ids:` loss says why")
    rule = rules[0]
    out = "optional (synthesized when absent)" if rule.transform == "optional_id" else "native"
    if "refitted" in kinds:
        args = rule.args
        out += f", refitted to {args.get('max_len')} chars {args.get('chars')}" if args.get("exact") else ", refitted"
    refit = _for_own_models(p, [entry for entry, _r in rule.for_models if "args" in entry])
    if refit:
        out += f"; refitted for {_patterns(refit)}"
    return out


def parallel(p: Provider) -> str:
    effects = _unset(p, "Request.parallel_tool_calls")
    if _always(effects):
        return "no switch"
    if "parallel_tool_calls" not in _mapped(p, "Request"):
        raise LookupError("Request.parallel_tool_calls is neither mapped nor declared lost")
    off = sorted(m for e in effects for m in _modes(e.get("when")))
    return "switch" + (f" (not with tool_choice {', '.join(off)})" if off else "")


def tool_choice(p: Provider) -> str:
    effects = _effects(p)
    gone = {m for e in effects if e.get("unset") == "Request.tool_choice" for m in _modes(e.get("when"))}
    no_tools = {m for e in effects if e.get("unset") == "Request.tools" for m in _modes(e.get("when"))}
    became = {}
    for e in effects:
        if e.get("of") == "ToolChoice" and "mode" in (e.get("set") or {}):
            for m in _modes(e.get("when")):
                became[m] = e["set"]["mode"]
    if not ({"mode"} & _mapped(p, "ToolChoice") or {"tool_choice"} & _mapped(p, "Request")) and len(gone) < len(MODES):
        raise LookupError("ToolChoice.mode is neither mapped nor declared lost")
    kept, notes = [], []
    for mode, label in MODES:
        if mode in became:
            notes.append(f"{label} → {dict(MODES).get(became[mode], became[mode])}")
        elif mode in gone and mode in no_tools:
            notes.append(f"{label} → tools left out")
        elif mode in gone:
            if mode != "auto":
                notes.append(f"no {label}")
        else:
            kept.append(label)
    if kept == ["auto"] and all(n.startswith("no ") for n in notes):
        return "auto only"
    return ", ".join(kept) + ("; " + "; ".join(notes) if notes else "") if kept else "; ".join(notes)


def allowed_names(p: Provider) -> str:
    if "allowed_names" in _mapped(p, "ToolChoice") and not _always(_unset(p, "ToolChoice.allowed_names")):
        return "yes"
    return "no"


def is_error(p: Provider) -> str:
    prefix = [e["error_as_text"] for e in _effects(p) if "error_as_text" in e]
    if prefix:
        return f'lost (sent as text "{prefix[0]}…")'
    for c in _codecs_of(p, "ToolResult"):
        for r in c.rules:
            if "is_error" not in r.ir:
                continue
            if r.ir == ["is_error"]:
                return f"native (`{r.wire}`)"
            if r.args.get("error_key"):
                return f'emulated (`{{"{r.args["error_key"]}": …}}`)'
    raise LookupError("ToolResult.is_error is neither mapped nor declared lost (error_as_text)")


def result_values(p: Provider) -> str:
    if any("result_as_text" in e for e in _effects(p)):
        return "text (others as JSON text)"
    return "JSON"


def _result_media(p: Provider, cls: str) -> str:
    reached: set[str] = set()
    for c in _codecs_of(p, "ToolResult"):
        for r in c.rules:
            if "parts" in r.ir:
                reached |= _reached(p, r.codec) | _reached(p, r.list_of)
    if cls not in reached or _always(_unset(p, "ToolResult.parts")):
        return "no"
    partial = [e for e in _effects(p) if e.get("drop") == cls and "when" in e]
    return "yes (not by URL)" if any(str((e["when"]).get("url", "")).startswith("http") for e in partial) else "yes"


def result_images(p: Provider) -> str:
    return _result_media(p, "ImagePart")


def result_files(p: Provider) -> str:
    return _result_media(p, "FilePart")


def reasoning(p: Provider) -> str:
    effects = [e for e in _effects(p) if "reasoning" in e]
    if any(e.get("drop") == "ReasoningPart" and "when" not in e for e in _effects(p)):
        return "no (dropped)"
    if not effects:
        raise LookupError("no `reasoning:` loss says whose reasoning signatures the provider keeps")
    family, keeps = effects[0]["reasoning"], effects[0].get("keeps", "text")
    if family is None:
        return "text only (no signatures)"
    if keeps == "signed":
        return f"{family}'s signed reasoning only"
    if keeps == "family":
        return f"{family}'s only (with signatures)"
    return f"text; {family}'s signatures"


def strict(p: Provider) -> str:
    if "strict" not in _mapped(p, "ToolDefinition") or _always(_unset(p, "ToolDefinition.strict")):
        return "no"
    rules = _for_own_models(p, [entry for c in _codecs_of(p, "ToolDefinition") for r in c.rules if "strict" in r.ir
                                for entry, _r in r.for_models if entry.get("omit")])
    return f"yes (not for {_patterns(rules)})" if rules else "yes"


def system_prompt(p: Provider) -> str:
    conv = [c for c in p.codecs.values() if c.kind == "conversation"]
    if not conv:
        raise LookupError("no conversation codec")
    c = conv[0]
    out = f"`{c.hoist['wire']}` field" if c.hoist else "system message"
    differs = [entry for entry in c.for_models if "hoist" in entry or "passes" in entry]
    differs += [entry for u in p.codecs.values() if u.kind == "union" for v in u.variants
                if v.get("codec") and p.codecs.get(v["codec"]) is not None and p.codecs[v["codec"]].set.get("role") == "system"
                for entry in v.get("for_models") or ()]
    differs = _for_own_models(p, differs)
    return out + (f"; another place for {_patterns(differs)}" if differs else "")


def streaming(p: Provider) -> str:
    return p.stream_framing or f"none ({p.stream_reason or 'no stream grammar'})"


#: (column label, the function computing a provider's cell), in the matrix's order.
FEATURES: tuple[tuple[str, Callable[[Provider], str]], ...] = (
    ("call ids", call_ids),
    ("parallel_tool_calls", parallel),
    ("tool_choice", tool_choice),
    ("allowed_names", allowed_names),
    ("is_error", is_error),
    ("result values", result_values),
    ("images in results", result_images),
    ("files in results", result_files),
    ("reasoning", reasoning),
    ("strict tools", strict),
    ("system prompt", system_prompt),
    ("stream framing", streaming),
)


def features(p: Provider) -> list[tuple[str, str]]:
    """A provider's row: (label, cell) for every feature; none for a format without conversations
    (MCP: tool lists and results only — its features are its document kinds)."""
    if not p.request:
        return []
    out = []
    for label, fn in FEATURES:
        try:
            out.append((label, fn(p)))
        except LookupError as exc:
            raise SystemExit(f"{p.file}: the compatibility matrix cannot derive {label!r}: {exc} (declare it in the spec)") from None
    return out
