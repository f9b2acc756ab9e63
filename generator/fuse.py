"""Fused request converters: source → target in one pass, the IR as local values (issue 13).

The general path parses a body into IR objects and renders them; that costs 3–4× a JSON round
trip. A fused converter is the composition of the two specs for the common shapes of agent
traffic: text turns, tool calls with JSON arguments, text results, function tools and a tool
choice. This module reads, from each provider's spec, the profile of a *reader* (the wire keys,
tags, role values and tables of the source's codecs) and of a *writer* (the target's keys, role
map, hoist, fallbacks, id and name rules, model rules); templates/fused*.py.j2 compose them into
one straight-line function per pair, in ``generated/toolwire/fused/<source>.py``.

A spec whose codecs do not have the shape a reader or writer template is written for gets no
fused path (``reasons`` says why); it converts through the IR as before. Everything the fused
code does not handle raises ``Deopt`` before any report, and the general path runs instead, so
the fused path is never a second semantics; tests/test_fused.py proves the two give the same
bodies, reports and errors on every fixture and corpus payload.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .spec import Codec, Provider, Rule, Spec

# the shapes templates/fused_read_<shape>.py.j2 read and templates/fused_write_<shape>.py.j2 write
SHAPES = ("chat", "blocks", "parts")


# the IR fields a fused converter sets (text turns, calls, text results, function tools, a tool
# choice, the model and max_tokens): a model rule on any other field cannot apply to its output
WRITTEN = frozenset(
    ["role", "parts", "text", "id", "name", "arguments", "raw_arguments", "tool_call_id", "result", "is_error",
     "description", "parameters", "mode", "model", "messages", "tools", "tool_choice", "max_tokens"]
)


class NotFusable(Exception):
    """The spec does not have the shape a template is written for (the reason, for the docs)."""


@dataclass
class Plan:
    """The fused converters of one source: its reader profile and the writers it pairs with."""

    reader: dict
    writers: list[dict] = field(default_factory=list)


def _rule(c: Codec, ir: str | None = None, wire: str | None = None) -> Rule:
    for r in c.rules:
        if (ir is None or (r.ir and r.ir[0] == ir)) and (wire is None or r.wire == wire):
            return r
    raise NotFusable(f"codec {c.name!r} has no rule for {ir or wire!r}")


def _codec(p: Provider, name: str | None) -> Codec:
    c = p.codecs.get(name or "")
    if c is None:
        raise NotFusable(f"no codec {name!r}")
    return c


def _plain(r: Rule, transform: str | None = None, type_: str | None = None) -> Rule:
    """A rule the fused code may take as it is: the expected transform or type, no model rules."""
    if r.transform != transform or (type_ is not None and r.type != type_) or r.for_models or r.alias:
        raise NotFusable(f"rule {r.wire!r} is not a plain {transform or type_} (fused code reads it as one)")
    return r


def _variant(union: Codec, tag: str) -> str:
    for v in union.variants:
        if v.get("tag") == tag and not v.get("hint_only"):
            return v["codec"]
    raise NotFusable(f"union {union.name!r} has no variant {tag!r}")


def _keys(*rules: Rule) -> list[str]:
    return [r.wire for r in rules]


def _patterns(p: Provider) -> list[str]:
    """Every model pattern a rule of the provider's spec applies to (`for_models` of rules,
    variants, enums, conversations): the fused path leaves such models to the general path."""
    out: list[str] = []

    def add(entries, fields=()):
        for entry in entries:
            if isinstance(entry, tuple):
                entry, rule = entry
                if rule is None and not set(fields) & WRITTEN:
                    continue  # a field left out for these models, which the fused path never sets
            out.extend(p for p in entry.get("match", ()) if p not in out)

    for c in p.codecs.values():
        add(c.for_models)
        for r in c.rules:
            add(r.for_models, r.ir)
        for v in c.variants:
            add(v.get("for_models") or ())
    return out


def _first(p: Provider, builds) -> dict:
    """The profile of the first shape the provider's spec has (NotFusable with every reason if none)."""
    reasons = []
    for build in builds:
        try:
            return build(p)
        except NotFusable as exc:
            reasons.append(f"{build.__name__.split('_')[-1]}: {exc}")
    raise NotFusable("; ".join(reasons))


def reader(spec: Spec, p: Provider) -> dict:
    profile = _first(p, (_read_chat, _read_blocks, _read_parts))
    req = _codec(p, p.request)
    known = {r.segments[0] for r in req.rules if r.wire and not r.has_fill} | {r.alias for r in req.rules if r.alias}
    for r in req.rules:
        if r.conversation:
            known |= {str(side.wire) for side in _codec(p, r.conversation).side_rules()}
    # keys of the request the general path reads (a fused reader reads some; the others: Deopt);
    # any other key is carried as provider data, and reported by the target as the general path does
    required = sorted({r.segments[0] for r in req.rules if r.wire and r.required})
    return profile | {"known": sorted(known), "required": required, "data": p.data_group or p.name, "snake": p.key_spelling == "proto_json"}


def writer(spec: Spec, p: Provider) -> dict:
    return _first(p, (_write_blocks, _write_parts, _write_chat)) | {"data": p.data_group or p.name}


def _max_tokens(req: Codec) -> Rule | None:
    r = next((r for r in req.rules if r.ir and r.ir[0] == "max_tokens"), None)
    if r is not None and (r.type != "integer" or r.transform or r.for_models):
        raise NotFusable("max_tokens is not a plain integer")
    return r


def _read_chat(p: Provider) -> dict:
    """A `chat` reader: role-tagged messages; text content; calls in a list beside it; one result
    per tool message; function tools; a tool choice as a mode string or named function."""
    req = _codec(p, p.request)
    msgs = _rule(req, "messages")
    conv = _codec(p, msgs.conversation)
    union = _codec(p, conv.element)
    if union.kind != "union" or not union.tag or conv.group != ["tool"]:
        raise NotFusable("messages are not one list tagged by role with tool messages grouped")
    user = _codec(p, _variant(union, "user"))
    assistant = _codec(p, _variant(union, "assistant"))
    system = _codec(p, _variant(union, "system"))
    tool_msg = _codec(p, _variant(union, "tool"))
    content = _plain(_rule(user, "parts"), "content_parts")
    if _plain(_rule(system, "parts"), "content_parts").wire != content.wire or _rule(assistant, wire=content.wire).transform != "content_parts":
        raise NotFusable("text content is not under one key in every message")
    calls = next((r for r in assistant.rules if r.list_of), None)
    if calls is None:
        raise NotFusable("assistant messages have no list of calls")
    call = _codec(p, calls.list_of)
    cid, cname, cargs = _plain(_rule(call, "id"), "fit_id"), _plain(_rule(call, "name"), "fit_name"), _plain(_rule(call, "arguments"), "parse_json")
    ctype = next(r for r in call.rules if r.has_const)
    fn = cname.segments[0]
    if cname.segments[:-1] != cargs.segments[:-1] or len(cname.segments) != 2 or ctype.segments[0] == fn:
        raise NotFusable("a call's name and arguments are not in one object beside its type")
    rid = _plain(_rule(tool_msg, "tool_call_id"), "fit_id")
    rcontent = _plain(_rule(tool_msg, "result"), "text_result")
    if rcontent.wire != content.wire:
        raise NotFusable("a tool message's result is not under the content key")
    tool = _codec(p, _rule(req, "tools").list_of)
    tname, tdesc, tparams = _plain(_rule(tool, "name"), "fit_name"), _plain(_rule(tool, "description"), type_="string"), _plain(_rule(tool, "parameters"), "json_schema")
    ttag = next(r for r in tool.rules if r.has_const)
    choice = _codec(p, _rule(req, "tool_choice").codec)
    named = _codec(p, _variant(choice, choice.variants[0]["tag"])) if choice.kind == "union" and choice.scalar and len(choice.variants) == 1 else None
    if named is None:
        raise NotFusable("tool_choice is not a mode string or one named variant")
    nname = _plain(_rule(named, "name"), "fit_name")
    modes = _codec(p, choice.scalar["codec"]).parse_table
    top = [_rule(req, "model"), msgs, _rule(req, "tools"), _rule(req, "tool_choice")]
    mt = _max_tokens(req)
    if mt is not None:
        top.append(mt)
    return {
        "max_tokens": mt.wire if mt else None, "max_tokens_alias": mt.alias if mt else None,
        "provider": p.name, "title": p.title, "shape": "chat",
        "top_keys": sorted(_keys(*top) + ([mt.alias] if mt is not None and mt.alias else [])), "model": top[0].wire, "messages": msgs.wire, "tools": top[2].wire, "tool_choice": top[3].wire,
        "role": union.tag, "system_role": "system", "user_role": "user", "assistant_role": "assistant", "tool_role": "tool",
        "content": content.wire, "calls": calls.wire,
        "call_id": cid.wire, "call_type_key": ctype.wire, "call_type": ctype.const, "call_fn": fn,
        "call_name": cname.segments[1], "call_args": cargs.segments[1],
        "result_id": rid.wire,
        "tool_tag": ttag.wire, "tool_tag_value": ttag.const, "tool_fn": tname.segments[0],
        "tool_name": tname.segments[1], "tool_description": tdesc.segments[1], "tool_params": tparams.segments[1],
        "choice_tag": choice.tag, "choice_named_tag": choice.variants[0]["tag"], "choice_fn": nname.segments[0], "choice_name": nname.segments[1],
        "choice_modes": dict(modes),
    }


def _read_blocks(p: Provider) -> dict:
    """A `blocks` reader: the system prompt beside the messages; turns of text or typed content
    blocks (text, tool_use with an object input, tool_result with text); tools with an input
    schema; a tool choice object tagged by its mode (Anthropic)."""
    w = _write_blocks(p)  # the same keys, read
    req = _codec(p, p.request)
    conv = _codec(p, _rule(req, "messages").conversation)
    choice = _codec(p, _rule(req, "tool_choice").codec)
    if _rule(req, "tool_choice").transform != "embedded_flag" or choice.kind != "object":
        raise NotFusable("the tool choice is not an object tagged by mode")
    mode = _rule(choice, "mode")
    tools = _codec(p, _rule(req, "tools").list_of)
    model = _rule(req, "model")
    top = [model, _rule(req, "messages"), _rule(req, "tools"), _rule(req, "tool_choice"), _rule(req, "max_tokens")]
    return w | {
        "shape": "blocks", "model": model.wire, "messages": top[1].wire, "tools": top[2].wire, "tool_choice": top[3].wire,
        "max_tokens": top[4].wire, "top_keys": sorted([*_keys(*top), conv.hoist["wire"]]),
        "tool_tag": tools.tag if tools.kind == "union" else None,
        "choice_tag": mode.wire, "choice_name": _rule(choice, "name").wire, "choice_modes": dict(_codec(p, mode.codec).parse_table),
    }


def _read_parts(p: Provider) -> dict:
    """A `parts` reader: contents of a role and parts told apart by their key (text, functionCall
    with an id, functionResponse), the system instruction beside them, function declarations in
    one group, a functionCallingConfig mode (Gemini)."""
    w = _write_parts(p)  # the same keys, read
    req = _codec(p, p.request)
    roles = _codec(p, _rule(_codec(p, _codec(p, _rule(req, "messages").conversation).element), "role").codec).parse_table
    fc = _codec(p, _rule(_codec(p, _rule(req, "tool_choice").codec), "mode").codec)
    max_tokens = _max_tokens(req)
    if max_tokens is None or len(max_tokens.segments) != 2:
        raise NotFusable("max_tokens is not in a config object")
    config_known = sorted(r.segments[1] for r in req.rules if len(r.segments) == 2 and r.segments[0] == max_tokens.segments[0])
    return w | {
        "config_known": config_known,
        "shape": "parts", "model": None, "choice_key": _rule(_codec(p, _rule(req, "tool_choice").codec), "mode").wire, "user_role": next(k for k, v in roles.items() if v == "user"),
        "assistant_role": next(k for k, v in roles.items() if v == "assistant"),
        "top_keys": sorted([w["messages"], w["system"], w["tools"], w["tool_choice"], max_tokens.segments[0]]),
        # the modes that come back as they were (VALIDATED reads as auto with a flag: the general path)
        "choice_modes": {k: v for k, v in fc.parse_table.items() if fc.render_table.get(v) == k},
    }


def _class_chars(chars: str) -> str | None:
    """The characters of a regex character class body such as ``a-zA-Z0-9_.:-`` (None when it is
    not one of plain ranges and literals: ``\\s\\S`` stands for any character)."""
    if "\\" in chars or "[" in chars or "]" in chars or "^" in chars[:1]:
        return None
    out, i = [], 0
    while i < len(chars):
        if i + 2 < len(chars) and chars[i + 1] == "-":
            out.extend(chr(c) for c in range(ord(chars[i]), ord(chars[i + 2]) + 1))
            i += 3
        else:
            out.append(chars[i])
            i += 1
    return "".join(sorted(set(out)))


def id_check(rule: tuple) -> str:
    """A Python expression (``{v}`` the id) true when ``fit`` leaves the id unchanged: what
    names.matcher(*rule) tells, without a regex call for the common classes."""
    chars, first, max_len, exact = rule
    allowed = _class_chars(chars)
    if allowed is None and chars != r"\s\S" or first:
        return "matcher" + repr(rule) + "({v}) is not None"  # names.matcher: the rule's fullmatch
    test = ["{v}"] if allowed is None else ["{v}", "not {v}.strip(" + repr(allowed) + ")"]
    if max_len:
        test.append(f"len({{v}}) {'==' if exact else '<='} {max_len}")
    return " and ".join(test)


def _name_rule(r: Rule) -> tuple:
    return (r.args["chars"], r.args.get("first"), r.args.get("max_len"), False)


def _id_rule(r: Rule) -> tuple:
    return (r.args["chars"], None, r.args.get("max_len"), bool(r.args.get("exact")))


def _writer_common(p: Provider, hoist: bool = True) -> tuple[Codec, Codec, dict]:
    req = _codec(p, p.request)
    msgs = _rule(req, "messages")
    conv = _codec(p, msgs.conversation)
    if not conv.require_answers or conv.passes or conv.last_turn or conv.string_as or conv.stray_results:
        raise NotFusable("the conversation has passes or keys beside its list the fused writers do not make")
    if hoist and not (conv.hoist and conv.merge and conv.role_map.get("tool") == "user"):
        raise NotFusable("the conversation does not hoist the system prompt and merge results into user turns")
    common = {"provider": p.name, "title": p.title, "trim_prefill": conv.trim_prefill, "models": p.models, "model_rules": tuple(_patterns(p)), "role_map": conv.role_map, "system": (conv.hoist or {}).get("wire")}
    return req, conv, common


def _write_blocks(p: Provider) -> dict:
    """A `blocks` writer: typed content blocks, results in user turns (Anthropic)."""
    req, conv, common = _writer_common(p)
    tools = _rule(req, "tools")
    choice = _codec(p, _rule(req, "tool_choice").codec)
    element = _codec(p, conv.element)
    if element.kind == "union":  # messages tagged by role
        user, assistant = _codec(p, _variant(element, "user")), _codec(p, _variant(element, "assistant"))
        content = _plain(_rule(assistant, "parts"), "content_parts")
        if _rule(user, "parts").args.get("form") != "string" or content.args.get("form") != "parts" or conv.hoist.get("args", {}).get("form") != "string":
            raise NotFusable("user text is not sent as a string, or assistant content not as blocks")
        blocks = _codec(p, content.codec)
        text, use, result = (_codec(p, _variant(blocks, t)) for t in ("text", "tool_use", "tool_result"))
        tool = _codec(p, _variant(_codec(p, tools.list_of), "custom")) if _codec(p, tools.list_of).kind == "union" else _codec(p, tools.list_of)
        modes = _codec(p, _rule(choice, "mode").codec).render_table
        top = []
        for r in req.rules:
            what = r.ir[0] if r.ir else None
            if what == "model" and r.required and not r.has_fallback:
                top.append((r.wire, "model"))
            elif what == "max_tokens" and r.has_fallback:
                top.append((r.wire, "max_tokens"))
            elif what in ("messages", "tools", "tool_choice"):
                top.append((r.wire, what))
        name_key = _rule(choice, "name").wire
        return common | {
            "shape": "blocks", "top": top, "max_tokens": _rule(req, "max_tokens").fallback,
            "role_key": element.tag, "user": "user", "assistant": "assistant", "content": content.wire,
            "text_type_key": blocks.tag, "text_type": "text", "text": _rule(text, "text").wire,
            "call_type_key": blocks.tag, "call_type": "tool_use", "call_id": _rule(use, "id").wire, "call_name": _rule(use, "name").wire, "call_args": _plain(_rule(use, "arguments"), "object_arguments").wire,
            "result_type_key": blocks.tag, "result_type": "tool_result", "result_id": _rule(result, "tool_call_id").wire, "result_content": _rule(result, "result").wire,
            "id_rule": _id_rule(_rule(use, "id")), "name_rule": _name_rule(_rule(use, "name")), "id_check": id_check(_id_rule(_rule(use, "id"))),
            "tool_name": _rule(tool, "name").wire, "tool_description": _rule(tool, "description").wire, "tool_params": _plain(_rule(tool, "parameters"), "json_schema").wire,
            "choice_render": dict(modes),
            "choice_expr": f"{{{choice.rules[0].wire!r}: _CHOICE_{p.name.upper()}[mode]}} if name is None else {{{choice.rules[0].wire!r}: _CHOICE_{p.name.upper()}['tool'], {name_key!r}: name}}",
        }
    raise NotFusable("messages are not tagged by role")


def _write_parts(p: Provider) -> dict:
    """A `parts` writer: a Content per turn with a role enum, parts told apart by their key,
    results wrapped as objects (Gemini)."""
    req, conv, common = _writer_common(p)
    tools = _rule(req, "tools")
    choice = _codec(p, _rule(req, "tool_choice").codec)
    element = _codec(p, conv.element)
    if element.kind != "object":
        raise NotFusable("turns are not one object of role and parts")
    roles = _codec(p, _rule(element, "role").codec).render_table
    parts_rule = _rule(element, "parts")
    part = _codec(p, parts_rule.list_of)
    if not part.tag_by_key:
        raise NotFusable("parts are not told apart by their key")
    text = _codec(p, [v for v in part.variants if v["tag"] == "text" and not v.get("flag")][0]["codec"])
    call, result = _codec(p, _variant(part, "functionCall")), _codec(p, _variant(part, "functionResponse"))
    cid, cname, cargs = _rule(call, "id"), _rule(call, "name"), _plain(_rule(call, "arguments"), "object_arguments")
    rid, rname, rresp = _rule(result, "tool_call_id"), _rule(result, "name"), _plain(_rule(result, "result"), "wrap_in_result")
    grouped = _plain(tools, "grouped_list")
    decl = _codec(p, tools.codec)
    fc = _rule(choice, "mode")
    if fc.transform != "named_choice":
        raise NotFusable("the tool choice is not a named_choice")
    modes = _codec(p, fc.codec).render_table
    names_key = fc.args["names_key"]
    system = _codec(p, conv.hoist["codec"])
    outside = p.outside_body.get("Request.model")
    if outside is None:
        raise NotFusable("the model has a place in the body")
    seg = lambda r: r.segments[-1]  # noqa: E731 (the key inside functionCall / functionResponse)
    return common | {
        "shape": "parts", "messages": _rule(req, "messages").wire, "tools": tools.wire, "tool_choice": _rule(req, "tool_choice").wire,
        "role_key": _rule(element, "role").wire, "user": roles["user"], "assistant": roles["assistant"], "tool": roles["tool"], "content": parts_rule.wire,
        "system_parts": _rule(system, "parts").wire, "text": _rule(text, "text").wire,
        "call_key": cname.segments[0], "call_id": seg(cid), "call_name": seg(cname), "call_args": seg(cargs),
        "result_key": rname.segments[0], "result_id": seg(rid), "result_name": seg(rname), "result_content": seg(rresp),
        "wrap_key": rresp.args["key"], "wrap_error_key": rresp.args["error_key"],
        "id_rule": (r"\s\S", None, None, False), "name_rule": _name_rule(cname), "id_check": id_check((r"\s\S", None, None, False)),
        "tool_name": _rule(decl, "name").wire, "tool_description": _rule(decl, "description").wire, "tool_params": _rule(decl, "parameters").wire,
        "tools_group": grouped.args["key"], "max_tokens_key": _max_tokens(req).segments if _max_tokens(req) else None,
        "choice_render": dict(modes),
        "choice_expr": (
            f"{{{fc.wire!r}: {{'mode': _CHOICE_{p.name.upper()}[mode]}}}} if name is None"
            f" else {{{fc.wire!r}: {{'mode': _CHOICE_{p.name.upper()}['required'], {names_key!r}: [name]}}}}"
        ),
        "model_outside": f" takes Request.model outside the body, not sent in it: {outside}",
    }


def _write_chat(p: Provider) -> dict:
    """A `chat` writer: role-tagged messages kept in place, text content as a string (null beside
    calls), calls in a list with JSON text arguments, one tool message per result (OpenAI Chat)."""
    req, conv, common = _writer_common(p, hoist=False)
    if conv.hoist or conv.merge or conv.group != ["tool"]:
        raise NotFusable("the conversation hoists or merges turns")
    r = _read_chat(p)  # the same keys, written
    union = _codec(p, conv.element)
    assistant = _codec(p, _variant(union, "assistant"))
    text = _rule(assistant, wire=r["content"])
    if text.args.get("empty") != "null" or not text.emit_null or text.args.get("form") != "string":
        raise NotFusable("assistant text is not a string, null beside calls")
    call = _codec(p, _rule(assistant, wire=r["calls"]).list_of)
    choice = _codec(p, _rule(req, "tool_choice").codec)
    modes = _codec(p, choice.scalar["codec"]).render_table
    top, required = [], False
    for rule in req.rules:
        what = rule.ir[0] if rule.ir else None
        if what in ("model", "messages", "tools", "tool_choice", "max_tokens"):
            top.append((rule.wire, what))
        if what == "model":
            schema = (p.wire_schema or {}).get("$defs", {}).get(req.wire_type) or {}
            required = rule.required or rule.wire in schema.get("required", ())  # emit.py _wire_requires
    return common | r | {
        "shape": "chat", "top": top, "model_required": required,
        "system_role": "system", "user": "user", "assistant": "assistant", "tool": "tool", "role_key": r["role"],
        "call_fn": r["call_fn"], "id_rule": _id_rule(_rule(call, "id")), "name_rule": _name_rule(_rule(call, "name")), "id_check": id_check(_id_rule(_rule(call, "id"))),
        "choice_render": dict(modes),
        "choice_expr": (
            f"_CHOICE_{p.name.upper()}[mode] if name is None else"
            f" {{{r['choice_tag']!r}: {r['choice_named_tag']!r}, {r['choice_fn']!r}: {{{r['choice_name']!r}: name}}}}"
        ),
    }


def plans(spec: Spec) -> tuple[list[Plan], dict[str, str], dict[str, str]]:
    """The fused converters to generate (every reader × every writer of another family), why each
    provider that has none has none (provider → reason), and the flavours that read their bodies
    with their family's reader (flavour → family: the same profile but for names; `extends:`)."""
    readers, writers, reasons, shared = {}, {}, {}, {}
    by_name = {p.name: p for p in spec.providers}
    for p in spec.providers:
        if p.dataset or not p.request:
            continue
        if p.extends is not None:  # a flavour: its family's reader when its profile is the same
            root = p
            while root.extends is not None:
                root = by_name[root.extends]
            try:
                mine, family = reader(spec, p), reader(spec, root)
            except NotFusable as exc:
                reasons[f"{p.name} (reader)"] = str(exc)
                continue
            same = {k: v for k, v in mine.items() if k not in ("provider", "title", "data", "choice_expr")} == {
                k: v for k, v in family.items() if k not in ("provider", "title", "data", "choice_expr")
            }
            if same:
                shared[p.name] = root.name
            else:
                reasons[f"{p.name} (reader)"] = f"its request codecs differ from {root.name}'s where a fused reader reads"
            continue
        for kind, build, into in (("reader", reader, readers), ("writer", writer, writers)):
            try:
                into[p.name] = build(spec, p)
            except NotFusable as exc:
                reasons[f"{p.name} ({kind})"] = str(exc)
    out = [Plan(r, [w for name, w in writers.items() if name != src]) for src, r in readers.items()]
    return [plan for plan in out if plan.writers], reasons, shared
