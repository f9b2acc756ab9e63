"""Conversation-level transforms of the vocabulary: group, split, merge, hoist, reorder, synth_id.

Parse side (wire → IR) every provider ends in ``normalize``, which establishes the IR invariants:
tool results sit in ``tool`` messages (one per turn), every call has an id, every result names its
call and tool. Render side (IR → wire) the functions build new lists and never mutate the input IR.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (docs/performance.md, "import toolwire")
    from typing import Any, Iterable

from toolwire.ir import Message, OpaquePart, ProviderData, TextPart, ToolCall, ToolResult

from .context import Context
from .errors import ResultCountError, UnansweredToolCallError, UnknownToolCallError
from .transforms import _plain, hint_of, lost_keys, merge_carried



# Message fields beside role, parts and provider_data (name, weight, any field the IR gains): a pass
# that rebuilds a message keeps them (_like), and merge_turns reports the later message's
_CARRIED = tuple(f for f in Message.__slots__ if f not in ("role", "parts", "provider_data"))


def _like(msg: Message, **changes: Any) -> Message:
    """``msg`` rebuilt with ``changes``, every other field kept."""
    fields = {f: getattr(msg, f) for f in Message.__slots__}
    fields.update(changes)
    return Message(**fields)


def normalize(
    messages: list[Message], ctx: Context, group_roles: frozenset[str], provider: str | None = None, role_map: dict | None = None,
    stray_results: bool = False, answered: str | None = None,
) -> list[Message]:
    """Parse-side pass run on every IR conversation.

    1. split: tool results inside a non-tool message (Anthropic / Gemini user turns) move to a
       ``tool`` message placed before the rest of that message;
    2. group: consecutive messages whose role is in ``group_roles`` merge into one (OpenAI tool
       messages, Responses items);
    3. link: synth_id for calls without an id, results paired with their calls (by id, else by
       position), result names filled in from the call. ``stray_results``: a result whose id names
       no call of the list is kept as it is (the provider holds earlier turns server-side).
       ``answered`` (the provider): results that repeat their call (``ctx.answers``) pair with it by
       name and arguments first, and a call the list lacks is restored (``restore_calls``).

    For a conversation that merges turns on render (``provider`` and its ``role_map`` given), a wire
    turn of the same wire role as the turn before it is kept apart: its first IR message gets the
    hint ``$turn: new`` (PROVIDER's family), which ``merge_turns`` honours for that family only.
    """
    out: list[Message] = []
    prev_role = None
    for msg in messages:
        role = msg.role
        new_turn = False
        if provider is not None:
            wire_role = role_map.get(role, role)
            new_turn = wire_role == prev_role
            prev_role = wire_role
        if role != "tool" and msg.parts:
            results = [p for p in msg.parts if type(p) is ToolResult]
            if results:
                rest = [p for p in msg.parts if type(p) is not ToolResult]
                # a wire turn of results only: its own data (unknown keys, spelling hints) go with them
                tool = Message(role="tool", parts=results, provider_data=None if rest else msg.provider_data)
                if new_turn and not (out and out[-1].role == "tool"):  # results of one turn stay one message
                    _mark_new_turn(tool, provider)
                _append(out, tool, group_roles)
                if not rest:
                    continue
                new_turn = False
                msg = _like(msg, parts=rest)
        if new_turn and not (role in group_roles and out and out[-1].role == role):
            _mark_new_turn(msg, provider)
        _append(out, msg, group_roles)
    if answered is not None and ctx.answers:
        out = restore_calls(out, ctx, answered)
    link(out, ctx, stray_results)
    return out


def restore_calls(messages: list[Message], ctx: Context, provider: str) -> list[Message]:
    """Results that repeat the call they answer (``ctx.answers``) pair with the unanswered call of
    the turn before them with the same name and arguments. A result whose call that turn does not
    hold (Cohere v1 lets ``chat_history`` leave the call turn out: ``tool_results`` carry the calls)
    gets it back: an assistant turn of those calls is put before the results, marked ``$derived``
    so that the same provider does not send it twice."""
    answers = ctx.answers
    out: list[Message] = []
    pending: list[ToolCall] = []
    for msg in messages:
        if msg.role == "assistant":
            pending = [p for p in msg.parts if type(p) is ToolCall]
        elif msg.role == "tool":
            restored = []
            for part in msg.parts:
                said = answers.get(id(part)) if type(part) is ToolResult and not part.tool_call_id else None
                if said is None:
                    continue
                call = next((c for c in pending if c.name == said.name and c.arguments == said.arguments), None)
                if call is None:
                    call = said  # the call as the result repeats it (its input path is the result's `call`)
                    restored.append(call)
                else:
                    pending.remove(call)
                answers[id(part)] = call
            if restored:
                out.append(Message(role="assistant", parts=restored, provider_data=ProviderData(provider=provider, hints={"$derived": True})))
            pending = []
        out.append(msg)
    return out


def take_last_turn(messages: list[Message], roles: tuple, provider: str) -> tuple[list, list[Message]]:
    """Render side of ``last_turn``: the conversation's final turn, which sits in keys beside the
    list (Cohere v1: the final user turn in ``message``, the final results in ``tool_results``).
    For each role (in wire order) the (index, message) taken from the end, or None; and the
    messages left for the list. Turns restored on parse (``$derived``) are skipped and not sent."""
    taken: list = [None] * len(roles)
    indexed = list(enumerate(messages))
    end = len(indexed)
    for k in range(len(roles) - 1, -1, -1):
        j = end - 1
        while j >= 0 and _derived(indexed[j][1], provider):
            j -= 1
        if j >= 0 and indexed[j][1].role == roles[k]:
            taken[k] = indexed.pop(j)
            end = j
    return taken, [m for _, m in indexed if not _derived(m, provider)]


def _derived(msg: Message, provider: str) -> bool:
    return hint_of(msg, provider, "$derived") is True


def _mark_new_turn(msg: Message, provider: str) -> None:
    pd = msg.provider_data
    if pd is None:
        msg.provider_data = ProviderData(provider=provider, hints={"$turn": "new"})
    elif pd.provider == provider:
        pd.hints = {**(pd.hints or {}), "$turn": "new"}


def _new_turn(msg: Message, provider: str | None) -> bool:
    pd = msg.provider_data
    return pd is not None and pd.provider == provider and pd.hints is not None and pd.hints.get("$turn") == "new"


def _append(out: list[Message], msg: Message, group_roles: frozenset[str]) -> None:
    if out and msg.role in group_roles:
        last = out[-1]
        if last.role == msg.role and last.name == msg.name and _groups(last.provider_data) and _groups(msg.provider_data):
            pd = last.provider_data if last.provider_data is not None else msg.provider_data
            out[-1] = _like(last, parts=last.parts + msg.parts, provider_data=pd)
            return
    out.append(msg)


def _groups(pd: ProviderData | None) -> bool:
    """May a message with this provider data join its group? Yes without any, or with only the key
    order of its own item (hint ``$order``: at most one of the group's items has it, the message
    item among call items, and it goes with the merged message to that item's render)."""
    return pd is None or (not pd.fields and pd.hints is not None and len(pd.hints) == 1 and "$order" in pd.hints)


def link(messages: list[Message], ctx: Context, stray_results: bool = False) -> None:
    """synth_id + pairing of results with calls (by id first, by position as a fallback)."""
    known: dict[str, ToolCall] = {}
    pending: list[ToolCall] = []
    for mi, msg in enumerate(messages):
        role = msg.role
        if role == "assistant":
            pending = []
            for pi, part in enumerate(msg.parts):
                if type(part) is ToolCall:
                    if not part.id:
                        part.id = synth_id(f"call_{mi}_{pi}", known)
                        part.synthetic_id = True
                    known[part.id] = part
                    pending.append(part)
        elif role == "tool":
            for part in msg.parts:
                if type(part) is not ToolResult:
                    continue
                call_id = part.tool_call_id
                if call_id:
                    call = known.get(call_id)
                    if call is None and stray_results:
                        continue
                    if call is None:
                        raise UnknownToolCallError(
                            _path_of(ctx, part, "tool_call_id"),
                            f"no earlier tool call has the id {call_id!r}",
                        )
                else:
                    call = ctx.answers.get(id(part)) if ctx.answers else None  # the call it repeats (restore_calls)
                    if call is None or not any(c is call for c in pending):
                        call = _by_position(pending, part.name)
                    if call is None:
                        raise UnknownToolCallError(
                            _path_of(ctx, part, ""),
                            "this result has no id and no unanswered call of the previous turn is left to pair it with",
                        )
                    part.tool_call_id = call.id
                if call in pending:
                    pending.remove(call)
                if not part.name:
                    part.name = call.name


def _by_position(pending: list[ToolCall], name: str) -> ToolCall | None:
    if name:
        for call in pending:
            if call.name == name:
                return call
    return pending[0] if pending else None


def synth_id(base: str, taken: dict[str, Any]) -> str:
    """A call id from the call's position (``base``): deterministic, unique in the conversation."""
    candidate, n = base, 1
    while candidate in taken:
        candidate = f"{base}_{n}"
        n += 1
    return candidate


def _path_of(ctx: Context, node: Any, leaf: str, fallback: object = "") -> object:
    """The input path a call or result came from (the IR position when the input was IR)."""
    for item, path in ctx.origins:
        if item is node:
            return (path, leaf) if leaf else path
    if leaf:
        return (fallback, leaf) if fallback != "" else leaf
    return fallback


def check_answers(
    messages: list[Message], path: Any, ctx: Context, joined: frozenset = frozenset(), stray_results: bool = False,
) -> None:
    """require_answers: every call of a turn gets exactly one result before the next assistant turn.

    Targets that enforce it (all four OpenAI/Anthropic/Gemini APIs reject such a history) would fail
    the request; we fail earlier, pointing at the input. A call turn that ends the conversation is
    still waiting for its results and is fine. When ``assistant`` is in ``joined`` (the conversation
    groups assistant items into one turn: Responses), consecutive assistant messages are one turn —
    message items with ids or hints stay separate IR messages but not separate turns.
    ``stray_results``: the provider takes results of calls made in earlier, server-side turns
    (Responses previous_response_id / conversation): a result whose id names no call of the whole
    conversation passes.
    """
    calls: dict[str, tuple] = {}  # id → (call, conversation path, message index, part index)
    answered: set[str] = set()
    # results of calls made server-side: their id names no call of the whole conversation
    made = {p.id for m in messages if m.role == "assistant" for p in m.parts if type(p) is ToolCall} if stray_results else set()
    stray = (lambda cid: cid not in made) if stray_results else (lambda cid: False)
    prev_role = None
    for mi, msg in enumerate(messages):
        role = msg.role
        if role == "assistant":
            if not (prev_role == "assistant" and "assistant" in joined):
                _unanswered(calls, answered, ctx)
                calls = {}
                answered = set()
            prev_role = role
            for pi, part in enumerate(msg.parts):
                if type(part) is ToolCall:
                    calls[part.id] = (part, path, mi, pi)  # its path is built only for an error
            continue
        prev_role = role
        if not calls:
            if role == "tool":
                for pi, part in enumerate(msg.parts):
                    if type(part) is ToolResult and not stray(part.tool_call_id):
                        raise UnknownToolCallError(
                            _path_of(ctx, part, "tool_call_id", (((path, mi), "parts"), pi)),
                            f"this result answers {part.tool_call_id!r}, but the previous assistant turn made no tool calls",
                        )
            continue
        for pi, part in enumerate(msg.parts):
            if type(part) is not ToolResult:
                continue
            call_id = part.tool_call_id
            if call_id not in calls:
                if stray(call_id):
                    continue
                raise UnknownToolCallError(
                    _path_of(ctx, part, "tool_call_id", (((path, mi), "parts"), pi)),
                    f"no call of the previous assistant turn has the id {call_id!r}",
                )
            if call_id in answered:
                raise ResultCountError(
                    _path_of(ctx, part, "tool_call_id", (((path, mi), "parts"), pi)),
                    f"call {call_id!r} is answered twice; {ctx.provider} needs exactly one result per call "
                    f"({len(calls)} calls in the turn)",
                )
            answered.add(call_id)
    if calls and messages[-1].role != "assistant":
        _unanswered(calls, answered, ctx)


def _unanswered(calls: dict[str, tuple], answered: set[str], ctx: Context) -> None:
    if len(answered) == len(calls):  # every call answered (answered holds only ids of calls)
        return
    missing = [cid for cid in calls if cid not in answered]
    if missing:
        call, path, mi, pi = calls[missing[0]]
        raise UnansweredToolCallError(
            _path_of(ctx, call, "", (((path, mi), "parts"), pi)),
            f"tool call {missing[0]!r} ({call.name}) has no result; {ctx.provider} needs a result for every "
            f"call of a turn before the conversation goes on (unanswered: {', '.join(map(repr, missing))})",
        )


# --- render side --------------------------------------------------------------------------------


def hoist_system(
    messages: list[Message], ctx: Context, provider: str | None = None, text_only: bool = False,
) -> tuple[list[Message], list[Message]]:
    """hoist: system messages go to the provider's separate system field.

    Leading system messages move silently; a system message later in the conversation is moved
    too and reported, since the target has no place for it there. A system message that was an
    item of ``provider``'s own message list (hint ``$inline``, a Responses system/developer input
    item) stays where it was when rendering for that family.

    ``text_only`` (hoist key ``text_only``: the field is one string, and the provider also takes
    system messages as items of its list — Responses ``instructions``): only a first leading system
    message that is one plain text is hoisted; every other system message stays in place, unreported.
    """
    system: list[Message] = []
    rest: list[Message] = []
    for i, msg in enumerate(messages):
        if msg.role == "system" and not (
            provider is not None and msg.provider_data is not None and msg.provider_data.provider == provider
            and (msg.provider_data.hints or {}).get("$inline")
        ):
            if text_only and (rest or system or not _plain_text(msg)):
                rest.append(msg)  # no room in the one string: an item of the list where it was
                continue
            if rest:
                ctx.lose(("messages", i), "system message in mid-conversation moved to the system prompt")
            system.append(msg)
        else:
            rest.append(msg)
    return system, rest


def system_to_user(messages: list[Message], path: Any, ctx: Context) -> list[Message]:
    """system_to_user: for a model without a system instruction (Gemma on the Gemini API), the
    system messages' parts go, in order, to the start of the first user message, the last text
    followed by a blank line — or to a user message of their own at the start, when an assistant
    turn comes before any user message.
    Reported once as a loss: the text stays, not its standing as an instruction."""
    system = [m for m in messages if m.role == "system"]
    if not system:
        return messages
    parts = [p for m in system for p in m.parts]
    rest = [m for m in messages if m.role != "system"]
    first = next((i for i, m in enumerate(rest) if m.role in ("user", "assistant", "tool")), None)
    if first is not None and rest[first].role == "user":
        head = rest[first]
        last = max((i for i, p in enumerate(parts) if type(p) is TextPart), default=None)
        if last is not None and head.parts:  # a blank line between the instruction and the question
            parts[last] = TextPart(text=parts[last].text + "\n\n", provider_data=parts[last].provider_data)
        rest[first] = _like(head, role="user", parts=[*parts, *head.parts])
    else:
        rest.insert(0, Message(role="user", parts=parts))
    where = messages.index(system[0])
    ctx.lose((path, where), f"model {ctx.model!r} on {ctx.provider} takes no system instruction: the system prompt is sent at the start of the first user turn")
    return rest


def _plain_text(msg: Message) -> bool:
    """One string's worth of content: a single plain text (its key order aside), or nothing."""
    parts = msg.parts
    return not parts or (len(parts) == 1 and type(parts[0]) is TextPart and _plain(parts[0]))


def merge_turns(
    messages: Iterable[Message], role_map: dict[str, str], provider: str | None = None, path: Any = None, ctx: Context | None = None,
) -> list[Message]:
    """role_map + merge: map IR roles to wire roles, then merge consecutive same-role messages.

    Tool results stay first in a merged user turn (Anthropic rejects text before tool_result).
    A message that was a separate wire turn of ``provider``'s family (hint ``$turn: new``, see
    ``normalize``) stays separate when rendering for that family. The carried fields of the merged
    messages are merged too (``transforms.merge_carried``): a field only the later message had is not lost.
    """
    out: list[Message] = []
    for i, msg in enumerate(messages):
        role = role_map.get(msg.role, msg.role)
        if out and out[-1].role == role and not (provider is not None and msg.provider_data is not None and _new_turn(msg, provider)):
            last = out[-1]
            parts = last.parts + msg.parts
            if msg.role == "tool" and any(type(p) is not ToolResult for p in last.parts):
                parts = [p for p in parts if type(p) is ToolResult] + [p for p in parts if type(p) is not ToolResult]
            pd = merge_carried(last.provider_data, msg.provider_data, (path, i), ctx,
                               "{provider} fields {keys} of a message merged into the previous one have no place; dropped")
            for field in _CARRIED:  # what the merged message cannot carry of the later one
                value = getattr(msg, field)
                if ctx is not None and value is not None and value != getattr(last, field):
                    ctx.lose(((path, i), field), f"Message.{field} {value!r} of a message merged into the previous turn has no place on {ctx.provider}; dropped")
            out[-1] = _like(last, role=role, parts=parts, provider_data=pd)
        elif role != msg.role:
            out.append(_like(msg, role=role))
        else:
            out.append(msg)
    return out


def join_call_turns(messages: list[Message]) -> list[Message]:
    """For a provider that keeps messages apart (OpenAI Chat and its family): an assistant message
    with tool calls directly followed by another assistant message (Gemini model contents,
    Responses items of one turn) becomes one message, so that the calls of the turn are answered
    together, as the provider requires. Nothing is lost: the parts keep their order."""
    out: list[Message] = []
    for msg in messages:
        if (
            out and msg.role == "assistant" and out[-1].role == "assistant"
            and any(type(p) is ToolCall for p in out[-1].parts)
            and (msg.provider_data is None or not msg.provider_data.fields)
        ):
            last = out[-1]
            out[-1] = _like(last, parts=last.parts + msg.parts)
            continue
        out.append(msg)
    return out


def reorder_results(messages: list[Message]) -> list[Message]:
    """reorder: the results of a turn in the order of the calls they answer."""
    order: dict[str, int] = {}
    out: list[Message] = []
    for msg in messages:
        if msg.role == "assistant":
            if not (out and out[-1].role == "assistant"):  # consecutive assistant messages: one turn
                order = {}
            for p in msg.parts:
                if type(p) is ToolCall:
                    order[p.id] = len(order)
        elif msg.role == "tool" and len(msg.parts) > 1 and order:
            keyed = sorted(
                enumerate(msg.parts),
                key=lambda ip: (order.get(ip[1].tool_call_id, len(order) + ip[0]) if type(ip[1]) is ToolResult else len(order) + ip[0]),
            )
            parts = [p for _, p in keyed]
            if parts != msg.parts:
                msg = _like(msg, parts=parts)
        out.append(msg)
    return out


def drop_foreign_only(messages: list[Message], provider: str, path: Any, ctx: Context) -> list[Message]:
    """A message whose parts are all another provider's opaque parts (a Gemini turn of only
    ``executableCode``, an Anthropic turn of only server tool blocks) would reach the target with empty
    content, which the APIs reject ("all messages must have non-empty content"): the whole message is
    left out and reported. Consecutive turns of one role that this leaves are merged by the layout
    passes of providers that need it."""
    out = messages
    for i, msg in enumerate(messages):
        parts = msg.parts
        if parts and type(parts[0]) is OpaquePart and all(type(p) is OpaquePart and p.provider != provider for p in parts):
            if out is messages:
                out = messages[:i]
            kinds = sorted({str(p.data.get("type", next(iter(p.data), "item"))) if type(p.data) is dict and p.data else "item" for p in parts})
            ctx.lose((path, i), f"{msg.role} message of only {parts[0].provider} content ({', '.join(kinds)}) has nothing {provider} can express; dropped")
        elif out is not messages:
            out.append(msg)
    return out


def drop_empty_text(messages: list[Message]) -> list[Message]:
    """drop_empty_text: empty text parts are left out (Anthropic: "text content blocks must be
    non-empty"); they say nothing, so nothing is reported. An OpenAI ``content: ""`` beside tool
    calls is the usual source."""
    out = messages
    for i, msg in enumerate(messages):
        if any(type(p) is TextPart and p.text == "" for p in msg.parts):
            if out is messages:
                out = list(messages)
            parts = [p for p in msg.parts if not (type(p) is TextPart and p.text == "")]
            out[i] = _like(msg, parts=parts)
    return out


def _blank(part: Any) -> bool:
    return type(part) is TextPart and not part.text.strip()


def drop_blank_text(messages: list[Message], path: Any, ctx: Context, provider: str | None = None) -> list[Message]:
    """drop_blank_text: text parts that are empty or whitespace only are left out, wherever they sit
    in a message and in a tool result's parts (Anthropic: "text content blocks must contain
    non-whitespace text", also for a system prompt; Bedrock: "The text field in the ContentBlock
    object at messages.N.content.M is blank"). Such a part says nothing, so it is not reported. A
    message left with no parts (or that had none) would be sent with empty content ("all messages
    must have non-empty content except for the optional final assistant message"): it is left out
    whole, reported for a user or assistant message, since the turns around it now meet; a system
    message of nothing is no system prompt. A final assistant message without parts stays, and so
    does a message that had none in ``provider``'s own input (a same-provider round trip gives
    back what came: Bedrock's ``system: []``)."""
    out: list[Message] | None = None
    last = len(messages) - 1
    for i, msg in enumerate(messages):
        parts = msg.parts
        blank = False
        for p in parts:  # (a loop, not any(): this runs for every part of every conversation)
            kind = type(p)
            if (kind is TextPart and (not p.text or p.text.isspace())) or (
                kind is ToolResult and p.parts and any(_blank(q) for q in p.parts)
            ):
                blank = True
                break
        own = provider is not None and msg.provider_data is not None and msg.provider_data.provider == provider
        if blank or (not parts and not (i == last and msg.role == "assistant") and not own):
            kept = []
            for p in parts:
                if _blank(p):
                    continue
                if type(p) is ToolResult and p.parts and any(_blank(q) for q in p.parts):
                    from dataclasses import replace  # rare: an empty text inside a tool result

                    p = replace(p, parts=[q for q in p.parts if not _blank(q)] or None)
                kept.append(p)
            if out is None:
                out = list(messages[:i])
            if not kept:
                if msg.role != "system":
                    what = "only blank text" if parts else "no content"
                    ctx.lose((path, i), f"{msg.role} message of {what} has nothing to send; dropped")
                continue
            out.append(_like(msg, parts=kept))
        elif out is not None:
            out.append(msg)
    return messages if out is None else out


def trim_prefill(messages: list[Message], path: Any, ctx: Context) -> list[Message]:
    """trim_prefill: a conversation that ends with an assistant turn (a prefill) may not end in
    whitespace (Anthropic: "final assistant content cannot end with trailing whitespace"); the last
    text part is right-stripped, and that is reported."""
    if not messages or messages[-1].role != "assistant" or not messages[-1].parts:
        return messages
    last = messages[-1]
    part = last.parts[-1]
    if type(part) is not TextPart or part.text == part.text.rstrip():
        return messages
    ctx.lose((((path, len(messages) - 1), "parts"), len(last.parts) - 1), "trailing whitespace of the final assistant turn (a prefill) removed")
    trimmed = TextPart(text=part.text.rstrip(), provider_data=part.provider_data)
    return [*messages[:-1], _like(last, parts=[*last.parts[:-1], trimmed])]


def runs(parts: list[Any], standalone: tuple[type, ...], inline: frozenset = frozenset(), tag: str = "type") -> list[tuple[bool, Any]]:
    """split: parts rendered as items of their own (``standalone`` types) vs runs of other parts.

    Returns ``(True, part)`` for a standalone part and ``(False, [parts...])`` for a run. An
    OpaquePart whose ``tag`` is in ``inline`` was a content part of a message (a Responses refusal),
    so it stays in the run.
    """
    if not parts:  # a message without parts is still one item (a Responses assistant message "")
        return [(False, [])]
    out: list[tuple[bool, Any]] = []
    run: list[Any] = []
    for part in parts:
        if isinstance(part, standalone) and not (inline and type(part) is OpaquePart and type(part.data) is dict and type(t := part.data.get(tag)) is str and t in inline):
            if run:
                out.append((False, run))
                run = []
            out.append((True, part))
        else:
            run.append(part)
    if run:
        out.append((False, run))
    return out


def map_roles(messages: Iterable[Message], role_map: dict[str, str]) -> list[Message]:
    """role_map without merging."""
    return [
        _like(m, role=role_map[m.role])
        if m.role in role_map else m
        for m in messages
    ]


RESPONSE_ID_PREFIX = "call_r"  # toolwire's id of a response's call that has none: this and its position


def response_call_id(position: int) -> str:
    """The id toolwire makes for a response's call without one, from its position among the
    message's parts (before ``synth_id`` steps around an id that is taken)."""
    return f"{RESPONSE_ID_PREFIX}{position}"


def finish_response(resp: Any, ctx: Context) -> Any:
    """Response invariants: calls have ids (synth_id), a turn with calls finishes as ``tool_calls``,
    usage has its total (input + output) when the provider left it out."""
    usage = resp.usage
    if usage is not None and usage.total_tokens is None and usage.input_tokens is not None and usage.output_tokens is not None:
        usage.total_tokens = usage.input_tokens + usage.output_tokens
    msg = resp.message
    calls = [p for p in msg.parts if type(p) is ToolCall]
    if not calls:
        return resp
    taken = {c.id: c for c in calls if c.id}
    for i, part in enumerate(msg.parts):
        if type(part) is ToolCall and not part.id:
            part.id = synth_id(response_call_id(i), taken)
            part.synthetic_id = True
            taken[part.id] = part
    if resp.finish_reason in (None, "stop"):
        resp.finish_reason = "tool_calls"
    return resp


# --- bridge_turns / flag_prefill (conversation keys `bridge`, `prefill_flag`) ------------------



def bridge_turns(messages: list[Message], after: Iterable[str], before: Iterable[str], role: str, text: str, path: Any, ctx: Context) -> list[Message]:
    """bridge: a message of role ROLE holding TEXT is inserted wherever an IR message whose role is
    in AFTER is directly followed by one whose role is in BEFORE (Mistral deployments validated by
    mistral-common before 1.13 reject a user turn right after tool results: "Unexpected role 'user'
    after role 'tool'"). The inserted turn is reported: the model sees a turn nobody wrote."""
    after, before = frozenset(after), frozenset(before)
    out: list[Message] = []
    for i, msg in enumerate(messages):
        if out and out[-1].role in after and msg.role in before:
            ctx.lose(
                (path, i),
                f"{role} turn {text!r} inserted before this {msg.role} turn: {ctx.provider} rejects {msg.role} right after {out[-1].role}",
            )
            out.append(Message(role=role, parts=[TextPart(text=text)]))
        out.append(msg)
    return out


def flag_prefill(messages: list[Message], provider: str, key: str, value: Any, path: Any, ctx: Context) -> list[Message]:
    """prefill_flag: a conversation that ends with an assistant turn without tool calls (a prefill
    the model is to continue) gets the wire field KEY: VALUE on that message (Mistral and DeepSeek
    ``prefix: true``; Mistral rejects a final assistant message without it: "Expected last role User
    or Tool (or Assistant with prefix True)"). The field travels as provider data of PROVIDER's
    family, so the message codec writes it like any field it carries."""
    if not messages or messages[-1].role != "assistant":
        return messages
    last = messages[-1]
    if any(type(p) is ToolCall for p in last.parts):
        return messages
    pd = last.provider_data
    if pd is not None and pd.provider == provider:
        if (pd.fields or {}).get(key) == value:
            return messages
        pd = ProviderData(provider=provider, fields={**(pd.fields or {}), key: value}, hints=pd.hints)
    else:
        if pd is not None and pd.fields:
            lost = lost_keys(pd.fields)
            if lost:
                ctx.lose((path, len(messages) - 1), f"{pd.provider} fields {', '.join(lost)} have no {provider} equivalent; dropped")
        pd = ProviderData(provider=provider, fields={key: value})
    flagged = _like(last, provider_data=pd)
    return [*messages[:-1], flagged]
