"""The machine-readable side of `cannot_express`: an entry's `ir:` effects.

An entry's `ir:` says which IR fields or values the provider loses when toolwire renders for it — an
effect on the IR, applied to what the caller gave, that yields what a parse of the rendered body gives
back. Tests read them (tests/losses.py) instead of keeping their own lists; the generated module
exports them as ``IR_LOSSES``. The vocabulary (docs/spec-language.md, "Losses the tests can apply"):

    {unset: Class.field}                       the field comes back empty (None)
    {drop: Class}                              parts of this class are dropped (message parts, result parts)
    {set: {field: value, ...}, of: Class}      fields of the objects of Class get these values
    {error_as_text: "Error: "}                 an error result comes back as text with this prefix, no flag
    {result_as_text: ToolResult.result}        a result that is neither text nor an object comes back as
                                               its JSON text
    {from_data: ImagePart.media_type}          the field comes back as read from the bytes (`data`)
    {ids: synthesized | refitted}              call ids are not sent (made up on parse) / rewritten to fit
    {reasoning: FAMILY | null, keeps: text | family | signed}
                                               reasoning signatures, encrypted reasoning and reasoning ids
                                               that FAMILY did not issue (`verifier`) come back empty, and
                                               so do call signatures (`signature_verifier`); reasoning
                                               parts without text are dropped (`keeps: text`, the
                                               default), or every part of another family (`family`), or
                                               every part but FAMILY's signed ones (`signed`)

Each effect but `ids` may carry `when: {path: value | [values]}` (paths relative to the object, `null`
for an empty field) and `unless_parts: [Class, ...]` (the effect holds only for a request without
parts of these classes).
"""

from __future__ import annotations

from typing import Any

from .loader import Errors

EFFECTS = ("unset", "drop", "set", "error_as_text", "result_as_text", "from_data", "ids", "reasoning")
OPTIONS = {"when", "unless_parts", "of", "keeps"}
KEEPS = ("text", "family", "signed")
PART_LIKE = {"TextPart", "ImagePart", "FilePart", "ReasoningPart", "ToolCall", "ToolResult", "OpaquePart", "ProviderTool"}


def check_effects(entry: Any, ir_classes: dict, errors: Errors) -> list[dict]:
    """The entry's `ir:` as a list of plain effect dicts; each mistake a file:line error."""
    raw = entry.get("ir")
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for item in items:
        effect = _check_one(entry, item, ir_classes, errors)
        if effect is not None:
            out.append(effect)
    return out


def _check_one(entry: Any, item: Any, ir_classes: dict, errors: Errors) -> dict | None:
    what = entry.get("what")
    where = f"cannot_express {what!r}: ir"
    if not isinstance(item, dict):
        errors.at(entry, "ir", f"{where}: each effect must be a mapping such as {{unset: Request.top_k}}, got {item!r}")
        return None
    kinds = [k for k in item if k in EFFECTS]
    unknown = sorted(str(k) for k in item if k not in EFFECTS and k not in OPTIONS)
    if len(kinds) != 1 or unknown:
        hint = " (YAML reads the key `on` as true: the class of a set is `of:`)" if True in item else ""
        errors.at(entry, "ir", f"{where}: an effect has exactly one of {', '.join(EFFECTS)} (options: when, unless_parts, of, keeps), got keys {sorted(map(str, item))}{hint}")
        return None
    kind = kinds[0]
    value = item[kind]
    cls = None
    if kind in ("unset", "from_data", "result_as_text"):
        cls = _field_ref(entry, where, value, ir_classes, errors)
    elif kind == "drop":
        if value not in ir_classes:
            errors.at(entry, "ir", f"{where}: drop names an IR class (e.g. ImagePart), got {value!r}")
        cls = value
    elif kind == "set":
        cls = item.get("of")
        if cls not in ir_classes:
            errors.at(entry, "ir", f"{where}: set needs `of: <IR class>`, got {cls!r}")
            cls = None
        elif not isinstance(value, dict) or not all(k in ir_classes[cls].fields for k in value):
            errors.at(entry, "ir", f"{where}: set maps fields of {cls} to values, got {value!r}")
    elif kind == "error_as_text":
        if not isinstance(value, str):
            errors.at(entry, "ir", f"{where}: error_as_text is the text prefix of an error result (e.g. \"Error: \"), got {value!r}")
        cls = "ToolResult"
    elif kind == "ids":
        if value not in ("synthesized", "refitted"):
            errors.at(entry, "ir", f"{where}: ids is `synthesized` (not sent) or `refitted` (rewritten to fit the provider), got {value!r}")
    elif kind == "reasoning":
        if value is not None and not isinstance(value, str):
            errors.at(entry, "ir", f"{where}: reasoning names the signature family the provider verifies (anthropic, gemini, openai, ...) or null, got {value!r}")
        if item.get("keeps", "text") not in KEEPS:
            errors.at(entry, "ir", f"{where}: keeps is one of {', '.join(KEEPS)}, got {item.get('keeps')!r}")
        cls = "ReasoningPart"
    if "keeps" in item and kind != "reasoning":
        errors.at(entry, "ir", f"{where}: `keeps` belongs to a reasoning effect")
    if "of" in item and kind != "set":
        errors.at(entry, "ir", f"{where}: `of` belongs to a set effect")
    when = item.get("when")
    if when is not None:
        if not isinstance(when, dict) or cls is None:
            errors.at(entry, "ir", f"{where}: when maps paths of the object to values, e.g. {{mode: [none, tool]}}")
        else:
            for path in when:
                head = str(path).split(".")[0]
                if head not in ir_classes[cls].fields:
                    errors.at(entry, "ir", f"{where}: when path {path!r}: {cls} has no field {head!r}")
    unless = item.get("unless_parts")
    if unless is not None and (not isinstance(unless, list) or not all(u in PART_LIKE for u in unless)):
        errors.at(entry, "ir", f"{where}: unless_parts lists part classes ({', '.join(sorted(PART_LIKE))}), got {unless!r}")
    return {str(k): _plain(v) for k, v in item.items()}


def _field_ref(entry: Any, where: str, value: Any, ir_classes: dict, errors: Errors) -> str | None:
    cls, _, name = str(value).partition(".")
    if cls not in ir_classes or name not in ir_classes[cls].fields:
        errors.at(entry, "ir", f"{where}: expected an IR field as Class.field (e.g. Request.top_k), got {value!r}")
        return None
    return cls


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
