"""Value transforms of the spec vocabulary (spec/transforms.yaml documents each one).

Each function is small and called from generated code with constants from the spec. Parse-side
functions take the input ``path`` so errors point at the offending field.
"""

from __future__ import annotations

import json
import re
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only (docs/performance.md, "import toolwire")
    from typing import Any

from toolwire.ir import (
    FilePart,
    ImagePart,
    Message,
    OpaquePart,
    ProviderData,
    ProviderTool,
    ReasoningPart,
    Request,
    TextPart,
    ToolCall,
    ToolChoice,
    ToolDefinition,
    ToolResult,
)

from .context import Context
from .errors import ConversionError, InvalidArgumentsError, MissingFieldError, UnknownVariantError, UnsupportedError, WrongTypeError, format_path
from . import names
from .names import fit_id_render, fit_name_parse, fit_render  # noqa: F401  (fit_id / fit_name, called as tw.*)
from .schema import from_openapi_schema, from_python_params, standard_types, to_keyword_subset, to_openapi_schema, to_python_params

_JSONDecodeError = json.JSONDecodeError
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_json_loads = json.loads


_scan_once = json.JSONDecoder().scan_once  # the C scanner json.loads ends in, without its wrapper
scan_json = _scan_once  # (the fused converters parse tool-call arguments with it, as _loads does)


def _loads(text: str) -> Any:
    """json.loads, with text nested deeper than the parser can go treated as invalid JSON.

    The C scanner first (it halves the cost for the short texts of tool arguments): a value that
    starts at 0 and is followed by nothing but whitespace is what json.loads returns; anything else
    (leading whitespace, extra data, invalid text) goes through json.loads for its exact error."""
    try:
        value, end = _scan_once(text, 0)
        if end == len(text) or not text[end:].strip(" \t\n\r"):
            return value
    except (StopIteration, ValueError):
        pass
    except RecursionError:
        raise _JSONDecodeError("nested too deeply", text, 0) from None
    try:
        return _json_loads(text)
    except RecursionError:
        raise _JSONDecodeError("nested too deeply", text, 0) from None


def _dumps(value: Any) -> str:
    try:
        return _encode(value)
    except RecursionError:  # deeper than the json module can encode
        raise WrongTypeError("", "a value is nested too deeply to be written as JSON") from None




def _object_text(text: str) -> Any:
    """The object a JSON-object text stands for (string-result providers carry objects so), else None."""
    if text[:1] != "{":
        return None
    try:
        value = _loads(text)
    except _JSONDecodeError:
        return None
    return value if type(value) is dict else None


def stringify(value: Any) -> str:
    """Object → compact JSON text (UTF-8 kept as is). Inverse: ``parse_json``."""
    return _dumps(value)


# --- checks -------------------------------------------------------------------------------------


def expect_object(value: Any, path: str) -> dict:
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    return value


def expect_list(value: Any, path: str) -> list:
    if type(value) is not list:
        raise WrongTypeError(path, f"expected an array, got {_json_type(value)}")
    return value


def missing(path: str, what: str = "") -> MissingFieldError:
    return MissingFieldError(path, f"required field is missing{': ' + what if what else ''}")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def enum_parse(table: dict, value: Any, path: str, what: str) -> Any:
    """enum_map, wire → IR: an unknown wire value is an error naming the accepted ones."""
    try:
        return table[value]
    except (KeyError, TypeError):
        raise UnknownVariantError(
            path, f"unknown {what} {value!r}; expected one of {', '.join(map(repr, table))}"
        ) from None


def for_model(ctx: Context, patterns: tuple, unless: tuple = ()) -> bool:
    """Does a rule for some models (spec `for_models: [{match: patterns}]`) hold for the request being
    rendered? Its target model (the request's `model`, or `model=`) matches one of the glob patterns
    and none of those in `unless` (the entry's `except`), and the conversion is not a same-provider one for the input's own model (which keeps its spelling)."""
    model = ctx.model
    if type(model) is not str or ctx.native:
        return False
    answers = ctx.model_rules
    if answers is None:
        answers = ctx.model_rules = {}
    hit = answers.get((patterns, unless))
    if hit is None:
        import fnmatch  # imported on first use (rare paths import what they need: keeps imports fast)

        hit = answers[(patterns, unless)] = any(fnmatch.fnmatchcase(model, p) for p in patterns) and not any(
            fnmatch.fnmatchcase(model, p) for p in unless)
    return hit


def model_report(ctx: Context, path: Any, why: str, category: str) -> None:
    """Report what a rule for some models changed: a loss (LossWarning; strict raises) or an
    assumption (AssumptionWarning: a value or spelling the target model requires)."""
    message = f"model {ctx.model!r} on {ctx.provider}: {why}"
    if category == "loss":
        ctx.lose(path, message)
    else:
        ctx.assume(path, message)


def enum_render(table: dict, value: Any, path: str, what: str, ctx: Context) -> Any:
    """enum_map, IR → wire: a value the target lacks is reported (the caller supplies a fallback)."""
    try:
        return table[value]
    except KeyError:
        raise UnknownVariantError(path, f"{ctx.provider} has no {what} {value!r}") from None


def enum_approximate(table: dict, value: Any, path: Any, what: str, ctx: Context) -> None:
    """An enum value the target has no word for is sent as the nearest one, and that is reported."""
    ctx.lose(path, f"{ctx.provider} has no {what} for {value!r}; sent {table[value]!r}, which does not say the same")


# --- arguments: parse_json / stringify -------------------------------------------------------


def parse_arguments(text: Any, path: str, ctx: Context) -> tuple[dict, str | None]:
    """parse_json for tool-call arguments: JSON text → (object, raw text).

    Empty text means no arguments (``{}``). Text that is not a JSON object is kept raw in the IR
    with empty arguments and reported (strict mode raises), so replaying a conversation with a
    truncated call does not crash.
    """
    if type(text) is dict:  # some OpenAI-compatible servers send an object; accept it
        return text, None
    if type(text) is not str:
        raise WrongTypeError(path, f"expected a JSON string, got {_json_type(text)}")
    if not text.strip():
        return {}, text
    try:
        value = _loads(text)
    except _JSONDecodeError as exc:
        if ctx.strict:
            raise InvalidArgumentsError(path, f"arguments are not valid JSON: {exc.msg}") from None
        ctx.lose(path, f"arguments are not valid JSON ({exc.msg}); kept raw, parsed as {{}}")
        return {}, text
    if type(value) is not dict:
        if ctx.strict:
            raise InvalidArgumentsError(path, f"arguments must be a JSON object, got {_json_type(value)}")
        ctx.lose(path, f"arguments are a JSON {_json_type(value)}, not an object; kept raw, parsed as {{}}")
        return {}, text
    return value, text


def render_arguments(arguments: dict, raw: str | None) -> str:
    """stringify for tool-call arguments, reusing the original text when it still says the same."""
    if raw is not None:
        if not arguments:
            # invalid or empty original text: give it back unchanged (documented in parse_arguments)
            if raw.strip() == "" or _raw_is_invalid(raw):
                return raw
        elif raw[:1] == "{":
            try:
                if _parsed(raw) == arguments:
                    return raw
            except _JSONDecodeError:
                pass
    return _dumps(arguments)


_PARSED: dict[str, Any] = {}  # argument text → its value, only ever compared with (render_arguments)
_UNPARSED = object()


def _parsed(raw: str) -> Any:
    """``_loads(raw)``, kept for the next time the same text is rendered (a stream translation renders
    a call's arguments at every sync); never handed out, so nothing can change it. Short texts only,
    at most 256 of them (a memo, not a store)."""
    value = _PARSED.get(raw, _UNPARSED)
    if value is _UNPARSED:
        value = _loads(raw)
        if len(raw) <= 16384:
            if len(_PARSED) >= 256:
                _PARSED.clear()
            _PARSED[raw] = value
    return value


def _raw_is_invalid(raw: str) -> bool:
    try:
        return type(_loads(raw)) is not dict
    except _JSONDecodeError:
        return True


def object_arguments(value: Any, path: str) -> dict:
    """Arguments that are an object on the wire (Anthropic input, Gemini args)."""
    if value is None:
        return {}
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    return value


def object_arguments_render(arguments: dict, raw: str | None, path: str, ctx: Context) -> dict:
    """Arguments for an object-argument target. Invalid raw text has no object form: report it."""
    if raw is not None and not arguments and raw.strip() and _raw_is_invalid(raw):
        ctx.lose(path, f"arguments were not valid JSON ({raw[:40]!r}); sent as {{}}")
    return arguments


# --- results: text results, wrap_in_result, error_flag ---------------------------------------


def result_to_text(result: Any) -> str:
    """A tool result for a string-result provider: strings as is, anything else compact JSON."""
    if type(result) is str:
        return result
    return _dumps(result)


def error_text(result: Any, prefix: str) -> str:
    """error_flag fallback for providers with no native flag: prefix the text once."""
    text = result_to_text(result)
    if text.startswith(prefix):
        return text
    return prefix + text


def join_lists(*lists: list | None) -> list | None:
    """Several rules filling one optional IR list: their items in rule order, None if none did."""
    if all(x is None for x in lists):
        return None
    return [item for x in lists if x for item in x]


def wrap_result(result: Any, is_error: bool, parts: list | None, key: str, error_key: str, path: Any, ctx: Context) -> dict:
    """wrap_in_result: a tool result for an object-result provider (Gemini ``response``).

    Objects pass as they are; anything else is wrapped as ``{key: value}``; an error is
    ``{error_key: value}``. An object that itself looks like a wrapper (its only key is ``key`` or
    ``error_key``) is wrapped once more so that ``unwrap_result`` gives it back exactly. Text parts
    of a multimodal result (the provider's media parts take only media) become the result text.
    """
    result = _json_result(result, parts, path, ctx)
    if is_error:
        return {error_key: result}
    if type(result) is dict and not _looks_wrapped(result, key, error_key):
        return result
    return {key: result}


def _json_result(result: Any, parts: list | None, path: Any, ctx: Context) -> Any:
    """The JSON value an object-result provider is sent for a tool result: the text of text parts
    when there is no other result (reported when there is), and text that is a JSON object as
    that object (string-result providers, OpenAI and Anthropic, carry object results so)."""
    if parts:
        texts = part_texts(parts, path, ctx)
        if texts:
            if result is None:
                result = _joined_texts(texts, path, ctx)
            else:
                ctx.lose(path, "tool result has both a result and text parts; the text parts are not sent")
    return _as_object(result)


def _as_object(result: Any) -> Any:
    """A text result that is a JSON object as that object (string-result providers, OpenAI and
    Anthropic, carry object results as JSON text); any other result as it is."""
    if type(result) is str:
        obj = _object_text(result)
        if obj is not None:
            return obj
    return result


def _looks_wrapped(obj: dict, key: str, error_key: str) -> bool:
    """An object whose only key is KEY or ERROR_KEY: sent wrapped once more so unwrapping is exact."""
    return len(obj) == 1 and (key in obj or error_key in obj)


def unwrap_result(response: Any, key: str, error_key: str, path: str) -> tuple[Any, bool, None]:
    """Inverse of wrap_result: ``{key: v}`` → v; ``{error_key: v}`` → (v, error)."""
    if type(response) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(response)}")
    if len(response) == 1:
        if key in response:
            return response[key], False, None
        if error_key in response:
            return response[error_key], True, None
    return response, False, None


# --- output_list: a tool result as a list of objects (Cohere v1 tool_results[].outputs) ----------


def output_list_parse(value: Any, key: str, error_key: str, path: Any) -> tuple[Any, bool, None, Any]:
    """(result, is_error, parts, hint): ``[{KEY: v}]`` → v; ``[{ERROR_KEY: v}]`` → v, an error;
    ``[object]`` → the object; several objects → the list; ``[]`` → no result (None). The hint is
    the wire list when the canonical rendering of the result would not give it back."""
    items = expect_list(value, path)
    for i, item in enumerate(items):
        if type(item) is not dict:
            raise WrongTypeError((path, i), f"expected an object, got {_json_type(item)}")
    if not items:
        result, is_error = None, False
    elif len(items) == 1:
        result, is_error, _ = unwrap_result(items[0], key, error_key, (path, 0))
    else:
        result, is_error = items, False
    canonical = _output_list(_as_object(result), is_error, key, error_key)
    return result, is_error, None, (None if _dumps(canonical) == _dumps(items) else items)


def output_list_render(
    result: Any, is_error: bool, parts: list | None, hint: Any, key: str, error_key: str, path: Any, ctx: Context
) -> list:
    if hint is not None and not parts:
        back, back_error, _, _ = output_list_parse(hint, key, error_key, path)
        if back_error == is_error and _dumps(back) == _dumps(result):
            return hint
    if parts:
        media = sorted({type(p).__name__ for p in parts if type(p) is not TextPart})
        if media:
            ctx.lose(path, f"tool result parts ({', '.join(media)}) cannot be sent; only the result and its text are")
    return _output_list(_json_result(result, parts, path, ctx), is_error, key, error_key)


def _output_list(result: Any, is_error: bool, key: str, error_key: str) -> list:
    """The canonical outputs of a result: an object → [object]; two or more objects → the list;
    anything else (also a list of one object, which would read back as that object) → [{KEY: v}];
    an error → [{ERROR_KEY: v}]."""
    if is_error:
        return [{error_key: result}]
    if type(result) is dict and not _looks_wrapped(result, key, error_key):
        return [result]
    if type(result) is list and len(result) > 1 and all(type(x) is dict for x in result):
        return result
    return [{key: result}]


# --- lists and text ------------------------------------------------------------------------------


def wrap_list(value: Any, path: str) -> tuple[list, bool]:
    """A string or a list of strings → list; the flag says it was a bare string."""
    if type(value) is str:
        return [value], True
    if type(value) is list:
        for i, item in enumerate(value):
            if type(item) is not str:
                raise WrongTypeError((path, i), f"expected a string, got {_json_type(item)}")
        return value, False
    raise WrongTypeError(path, f"expected a string or an array of strings, got {_json_type(value)}")


def unwrap_list(value: list | None, hint: Any) -> Any:
    if value is None:
        return None
    if hint is True and len(value) == 1:
        return value[0]
    return value


def parse_json_value(value: Any, path: str) -> Any:
    """parse_json for generic JSON text fields (no raw text kept)."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a JSON string, got {_json_type(value)}")
    try:
        return _loads(value)
    except _JSONDecodeError as exc:
        raise WrongTypeError(path, f"not valid JSON: {exc.msg}") from None


# --- text results (string-result providers without an error flag) ------------------------------


def text_result_parse(value: Any, path: str) -> tuple[Any, bool, None, Any]:
    """(result, is_error, parts, hint). An array of text parts is joined; the hint keeps the array."""
    if type(value) is str:
        return value, False, None, None
    if value is None:
        return "", False, None, "null"
    if type(value) is list:
        texts = []
        for i, item in enumerate(value):
            if type(item) is not dict or type(item.get("text")) is not str:
                raise WrongTypeError((path, i), "expected a text part {type, text}")
            texts.append(item["text"])
        return "".join(texts), False, None, value
    raise WrongTypeError(path, f"expected a string or an array of text parts, got {_json_type(value)}")


def _text_only(result: Any, parts: list | None, path: Any, ctx: Context) -> Any:
    """A result for a target whose tool results hold no media: parts are reported, their text kept."""
    if parts:
        kinds = sorted({type(p).__name__ for p in parts})
        ctx.lose(path, f"tool result parts ({', '.join(kinds)}) cannot be sent; kept only the text result")
        texts = part_texts(parts, path, ctx)
        if result is None and texts:
            result = _joined_texts(texts, path, ctx)
    return "" if result is None else result


def _joined_texts(texts: list, path: Any, ctx: Context) -> str:
    """Several text blocks of a tool result for a target that takes one text: joined with a newline
    (so that lines do not run together), and that is reported."""
    if len(texts) > 1:
        ctx.lose(path, f"{len(texts)} text blocks of the tool result sent as one text, joined with a newline")
    return "\n".join(texts)


def text_result_render(
    result: Any, is_error: bool, parts: list | None, prefix: str, hint: Any, path: str, ctx: Context
) -> Any:
    result = _text_only(result, parts, path, ctx)
    if is_error:
        ctx.lose(path, f"no error flag; error sent as text prefixed with {prefix!r}")
        return error_text(result, prefix)
    text = result_to_text(result)
    if hint is not None:
        if hint == "null" and text == "":
            return None
        if type(hint) is list and "".join(i.get("text", "") for i in hint) == text:
            return hint
    return text


def output_parts_parse(value: Any, path: Any, ctx: Context, part_to_ir: Any) -> tuple[Any, bool, Any, Any]:
    """(result, is_error, parts, hint) of a string-or-parts tool output (Responses)."""
    if type(value) is not list:
        return text_result_parse(value, path)
    parts = [part_to_ir(item, (path, i), ctx) for i, item in enumerate(value)]
    if all(type(p) is TextPart and _plain(p) for p in parts):
        return "".join(p.text for p in parts), False, None, value
    return None, False, parts, None


def output_parts_render(
    result: Any, is_error: bool, parts: list | None, prefix: str, hint: Any, path: Any, ctx: Context, part_from_ir: Any
) -> Any:
    if not parts:
        return text_result_render(result, is_error, None, prefix, hint, path, ctx)
    items = []
    if result is not None or is_error:
        text = text_result_render(result, is_error, None, prefix, None, path, ctx)
        items.append(part_from_ir(TextPart(text=text), (path, "result"), ctx))
    for i, part in enumerate(parts):
        item = part_from_ir(part, (path, i), ctx)
        if item is not None:
            items.append(item)
    return items


# --- block results (Anthropic tool_result content) -----------------------------------------------


def block_result_parse(value: Any, path: str, ctx: Context, part_to_ir: Any) -> tuple[Any, Any, Any]:
    """(result, parts, hint)."""
    if value is None:
        return None, None, "absent"
    if type(value) is str:
        return value, None, None
    if type(value) is not list:
        raise WrongTypeError(path, f"expected a string or an array of content blocks, got {_json_type(value)}")
    parts = [part_to_ir(item, (path, i), ctx) for i, item in enumerate(value)]
    if len(parts) == 1 and type(parts[0]) is TextPart and _plain(parts[0]):
        pd = parts[0].provider_data  # a block with its keys in another order: the order is the hint
        order = pd.hints["$order"].get("") if pd is not None else None
        return parts[0].text, None, (list(order) if order else "blocks")
    return None, parts, None


def block_result_render(
    result: Any, parts: list | None, hint: Any, path: str, ctx: Context, part_from_ir: Any
) -> Any:
    if parts:
        # a part the target cannot express is reported and dropped, never left as null
        blocks = [b for b in (part_from_ir(p, (path, i), ctx) for i, p in enumerate(parts)) if b is not None]
        text = result_to_text(result) if result is not None else ""
        if text.strip():  # a blank text block beside the media says nothing, and is rejected (Anthropic)
            blocks.insert(0, {"type": "text", "text": text})
        if blocks:
            return blocks
    if result is None:
        return None if hint == "absent" else ""
    text = result_to_text(result)
    if hint == "blocks":
        return [{"type": "text", "text": text}]
    if type(hint) is list:  # one text block, keys in the input's order
        block = {"type": "text", "text": text}
        return [{k: block[k] for k in hint if k in block}]
    return text


def error_flag_parse(value: Any, path: str) -> tuple[bool, Any]:
    if value is None:
        return False, None
    if type(value) is not bool:
        raise WrongTypeError(path, f"expected a boolean, got {_json_type(value)}")
    return value, (None if value else "explicit_false")


def error_flag_render(is_error: bool, hint: Any) -> Any:
    if is_error:
        return True
    return False if hint == "explicit_false" else None


# --- message content (text_or_parts) ---------------------------------------------------------


def content_parse(value: Any, path: Any, ctx: Context, part_to_ir: Any, form: str) -> tuple[list, Any]:
    """(parts, hint). The hint records a spelling other than FORM would give back."""
    if type(value) is str:
        if value == "":
            return [], ""
        return [_text(value)], (None if form == "string" else "string")
    if value is None:
        return [], "null"
    if type(value) is not list:
        raise WrongTypeError(path, f"expected a string or an array of content parts, got {_json_type(value)}")
    parts = []
    for i, item in enumerate(value):
        part = part_to_ir(item, (path, i), ctx)
        if part is not None:
            parts.append(part)
    if not parts:
        return parts, "[]"
    single_text = len(parts) == 1 and type(parts[0]) is TextPart and _plain(parts[0])
    return parts, ("parts" if single_text and form == "string" else None)


def _plain(part: Any) -> bool:
    """A text part with nothing to keep but its text: no provider data, or only the key order of
    its block (hint ``$order``), which a bare string has no use for."""
    pd = part.provider_data
    if pd is None:
        return True
    hints = pd.hints
    return not pd.fields and (not hints or (len(hints) == 1 and "$order" in hints))


def content_render(
    parts: list, hint: Any, empty: Any, form: str, path: Any, ctx: Context, part_from_ir: Any
) -> Any:
    """Inverse of content_parse (see spec/transforms.yaml, content_parts)."""
    if not parts:
        if hint in ("", "[]", "null"):
            return {"": "", "[]": [], "null": None}[hint]
        return {"null": None, "absent": None, "[]": []}.get(empty, empty)
    if hint is None and form == "text":
        return _joined_text(parts, path, ctx)
    if (hint or form) == "string" and len(parts) == 1:
        part = parts[0]
        if type(part) is TextPart and _plain(part):
            return part.text
    out = []
    for i, part in enumerate(parts):
        item = part_from_ir(part, (path, i), ctx)
        if item is not None:
            out.append(item)
    if not out:  # every part was dropped (reported): what no parts render as, not an empty array
        return {"null": None, "absent": None, "[]": []}.get(empty, empty)
    return out


def _joined_text(parts: list, path: Any, ctx: Context) -> str:
    """form `text`: the content can only be one string (OpenAI ChatCompletionMessage.content). What a
    text part carries besides its text has no place in it and is reported (Anthropic's citations)."""
    for i, part in enumerate(parts):
        if type(part) is not TextPart:
            ctx.lose((path, i), f"{ctx.provider} takes only text here; a {type(part).__name__} is dropped")
    return "".join(part_texts(parts, path, ctx))


def _text(text: str) -> Any:
    return TextPart(text=text)


# --- images ------------------------------------------------------------------------------------


def data_url_parse(value: Any, path: str) -> tuple[Any, Any, Any]:
    """(url, media_type, data) from an image URL that may be a data: URL."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a URL string, got {_json_type(value)}")
    if value.startswith("data:"):
        head, sep, data = value.partition(",")
        if sep and head.endswith(";base64"):
            return None, head[5:-7] or None, data
    return value, None, None


def data_url_render(url: Any, media_type: Any, data: Any, path: str) -> str:
    if data is not None:
        return f"data:{media_type or 'application/octet-stream'};base64,{data}"
    if url is None:
        raise MissingFieldError(path, "image has neither data nor url")
    return url


# --- provider_data: unknown fields and hints -----------------------------------------------------


def carried_extra(extra: dict | None, wire: str, carried: dict) -> dict:
    """What a transform's hint keeps that the IR has no place for (its ``carries``: {name: value}),
    among a node's unknown keys as ``WIRE.name``: reported for another provider (``restore``); the
    same provider gets it back through the hint."""
    extra = {} if extra is None else extra
    for name, value in carried.items():
        extra[f"{wire}.{name}"] = value
    return extra


def extra_fields(obj: dict, known: frozenset) -> dict | None:
    """Wire keys the spec does not map (carried through the IR, never dropped silently)."""
    if known.issuperset(obj):
        return None
    return {k: v for k, v in obj.items() if k not in known}


def carried_unplaced(pd: Any, path: Any, ctx: Context) -> None:
    """Report the fields a node carries (its provider data) when what the target renders it into has
    no place for them (a text part joined into a string, a message whose fields no item holds)."""
    if pd is not None and pd.fields and (lost := lost_keys(pd.fields)):
        where = f"{pd.provider} fields" if pd.provider != ctx.data else "fields"
        ctx.lose(path, f"{where} {', '.join(lost)} have no {ctx.provider} equivalent; dropped")


def part_texts(parts: list, path: Any, ctx: Context) -> list:
    """The texts of the text parts among ``parts``, for a target that joins them into one string (a
    message's content, Cohere's plan, a Gemini tool result): what a part carries besides its text
    (Anthropic's citations, another provider's fields) has no place there and is reported."""
    texts = []
    for i, part in enumerate(parts):
        if type(part) is TextPart:
            texts.append(part.text)
            carried_unplaced(part.provider_data, (path, i), ctx)
    return texts


def lost_keys(fields: dict) -> list:
    """The carried keys worth reporting when they cannot go: not those that hold nothing (null, or
    objects of nulls — what an SDK's ``model_dump()`` writes for every unset field)."""
    return sorted(k for k, v in fields.items() if _holds_something(v))


def _holds_something(value: Any) -> bool:
    if type(value) is dict:
        return any(_holds_something(v) for v in value.values())
    return value is not None


def merge_carried(first: Any, later: Any, path: Any, ctx: Any, message: str) -> Any:
    """The provider data of two messages sent as one: the first's hints (its spelling of the turn)
    and the carried fields of both. A field of the later one that the first has with another value,
    or that comes from another provider, has no place: reported with ``message`` ({keys}, {provider})."""
    if later is None or not later.fields:
        return first if first is not None else later  # e.g. results split from their turn
    if first is None:
        return ProviderData(provider=later.provider, fields=dict(later.fields))
    fields = dict(first.fields or {})
    lost = []
    for key, value in later.fields.items():
        if later.provider != first.provider or (key in fields and fields[key] != value):
            if lost_keys({key: value}):
                lost.append(key)
        else:
            fields[key] = value
    if lost and ctx is not None:
        ctx.lose(path, message.format(keys=", ".join(sorted(lost)), provider=later.provider))
    return ProviderData(provider=first.provider, fields=fields or None, hints=first.hints)


def unkept_fields(pd: Any, provider: str, path: Any, ctx: Context) -> None:
    """Report the carried fields of a node rendered in a form that has no room for them (a union's
    bare-string form, e.g. tool_choice "auto" from a Gemini toolConfig with other settings)."""
    lost = lost_keys(pd.fields)
    if lost:
        ctx.lose(path, f"{pd.provider} fields {', '.join(lost)} have no {provider} equivalent here; dropped")


def carried_or(pd: Any, provider: str, key: str, fill: Any) -> Any:
    """A `fill` key's value: what the same-provider input had at ``key`` (carried in its provider
    data), as it was, else the fill. (``restore`` merges objects into what is rendered: a filled
    object would gain the keys the input's lacked.)"""
    if pd is not None and pd.provider == provider and pd.fields and key in pd.fields:
        return pd.fields[key]
    return fill


def restore(out: dict, pd: Any, provider: str, path: Any, ctx: Context, nested: tuple = (), hinted: tuple = (), rank: dict | None = None) -> None:
    """Put back the fields a same-provider payload carried; report them for another provider.

    Keys in ``nested`` (dotted wire paths of the codec's nested objects, e.g. ``function``) hold
    the unknown keys of that object; any other key is a top-level wire key, dots and all. Keys
    under a wire key in ``hinted`` (``WIRE.name``: ``carried_extra``) were put back by that key's
    transform, from its hint: for the same provider they are left alone. A nested object that
    only its unknown keys make (Gemini's ``generationConfig`` holding only keys the IR lacks) takes
    its place among the known keys (``rank``: the codec's render order, as ``key_order`` assumes).
    """
    fields = pd.fields
    if not fields:
        return
    if pd.provider == provider:
        made = False
        for key, value in fields.items():
            if hinted and any(key.startswith(w + ".") for w in hinted):
                continue
            if key in nested and type(value) is dict:
                made = made or key.partition(".")[0] not in out
                target = _nested_target(out, key)
                if target is None:
                    ctx.lose(path, f"fields {', '.join(sorted(value))} of {key} have nowhere to go; dropped")
                else:
                    target.update(value)
                continue
            current = out.get(key)
            if type(current) is dict and type(value) is dict and key in out:
                merged = dict(current)
                merged.update(value)
                out[key] = merged
            else:
                out[key] = value
        if made and rank:  # known keys in their render order, the others after them as they came
            items = sorted(out.items(), key=lambda kv: rank.get(kv[0], 1 << 30))
            out.clear()
            out.update(items)
    else:
        lost = lost_keys(fields)
        if lost:
            ctx.lose(path, f"{pd.provider} fields {', '.join(lost)} have no {provider} equivalent; dropped")


def _nested_target(out: dict, dotted: str) -> dict | None:
    target: Any = out
    for seg in dotted.split("."):
        if type(target) is list and seg.isdigit():
            target = target[int(seg)] if int(seg) < len(target) else None
        elif type(target) is dict:
            target = target.setdefault(seg, {})
        else:
            return None
    return target if type(target) is dict else None


def key_order(hints: dict | None, prefix: str, keys: tuple, rank: dict, seen: dict) -> dict | None:
    """Key order of a wire object: is ``keys`` (the input's order) the order the renderer writes
    (``rank``: known keys in render order, unknown keys after them in input order)? The answer is
    cached in ``seen`` (bounded); when it is not, the order is kept as the hint ``$order`` (by the
    object's dotted path inside the codec, "" for the codec's own object) for ``apply_key_order``."""
    ok = seen.get(keys)
    if ok is None:
        last = -1
        ok = True
        for key in keys:
            r = rank.get(key, 1 << 30)
            if r < last:
                ok = False
                break
            last = r
        if len(seen) < 512:
            seen[keys] = ok
    if ok:
        return hints
    if hints is None:
        hints = {}
    orders = hints.get("$order")
    if orders is None:
        orders = hints["$order"] = {}
    orders[prefix] = list(keys)
    return hints


def value_key_order(hints: dict | None, prefix: str, value: Any, rank: dict, seen: dict) -> dict | None:
    """``key_order`` for a value a transform builds (transforms.yaml ``key_order``): the object, or
    each object of a list (by the dotted path ``prefix.i``)."""
    if type(value) is dict:
        if seen.get(keys := tuple(value)) is not True:
            hints = key_order(hints, prefix, keys, rank, seen)
    elif type(value) is list:
        for i, item in enumerate(value):
            if type(item) is dict and seen.get(keys := tuple(item)) is not True:
                hints = key_order(hints, f"{prefix}.{i}", keys, rank, seen)
    return hints


def _in_order(obj: dict, order: list) -> dict:
    out = {k: obj[k] for k in order if k in obj}
    if len(out) != len(obj):
        for k, v in obj.items():
            if k not in out:
                out[k] = v
    return out


def _slot(out: dict, prefix: str) -> tuple[Any, Any]:
    """The container and key of the object at a dotted path inside ``out`` ((None, None) if absent)."""
    parent: Any = None
    target: Any = out
    key: Any = None
    for seg in prefix.split("."):
        parent = target
        if type(target) is list and seg.isdigit() and int(seg) < len(target):
            key = int(seg)
        elif type(target) is dict and seg in target:
            key = seg
        else:
            return None, None
        target = target[key]
    return (parent, key) if type(target) is dict else (None, None)


def apply_key_order(out: dict, orders: dict) -> dict:
    """Put the keys of a same-provider render back in the input's order (hint ``$order``); keys the
    input did not have stay after them."""
    for prefix, order in orders.items():
        if not prefix:
            continue
        parent, key = _slot(out, prefix)
        if parent is not None:
            parent[key] = _in_order(parent[key], order)
    top = orders.get("")
    return _in_order(out, top) if top is not None else out


def respell(obj: dict, spell: dict, hints: dict | None, prefix: str) -> tuple[dict, dict | None]:
    """``key_spelling: proto_json`` (the protobuf JSON mapping takes ``file_uri`` for ``fileUri``):
    ``obj`` with its snake_case keys under their lowerCamel names (a copy, in the same order). The
    renamed keys are kept as the hint ``$spell`` (by the object's dotted path inside the codec) for
    ``apply_spelling``. A snake key whose lowerCamel twin is also present is left as it is (unknown)."""
    renamed = [spell[k] for k in obj if k in spell and spell[k] not in obj]
    if not renamed:
        return obj, hints
    out = {(spell[k] if k in spell and spell[k] in renamed else k): v for k, v in obj.items()}
    if hints is None:
        hints = {}
    spells = hints.get("$spell")
    if spells is None:
        spells = hints["$spell"] = {}
    spells[prefix] = renamed
    return out, hints


def respell_value(value: Any, spell: dict, hints: dict | None, prefix: str) -> tuple[Any, dict | None]:
    """``respell`` for the keys a transform reads in its value: an object's, or each list item's
    (prefix ``<wire>.<index>``)."""
    if type(value) is dict:
        return respell(value, spell, hints, prefix)
    if type(value) is list:
        items = value
        for i, item in enumerate(value):
            if type(item) is dict:
                new, hints = respell(item, spell, hints, f"{prefix}.{i}")
                if new is not item:
                    if items is value:
                        items = list(value)
                    items[i] = new
        return items, hints
    return value, hints


def apply_spelling(out: dict, spells: dict) -> dict:
    """Write back in snake_case the keys a same-provider input spelled so (hint ``$spell``), in place
    order; inner objects first, while the paths to them still use the lowerCamel keys."""
    for prefix in sorted(spells, key=lambda p: -p.count(".") if p else 1):
        renamed = spells[prefix]
        if prefix:
            parent, key = _slot(out, prefix)
            if parent is not None:
                parent[key] = _snake_keys(parent[key], renamed)
        else:
            out = _snake_keys(out, renamed)
    return out


def _snake_keys(obj: dict, renamed: list) -> dict:
    return {("".join("_" + c.lower() if c.isupper() else c for c in k) if k in renamed else k): v for k, v in obj.items()}


def spelled_at(obj: Any, segments: tuple) -> Any:
    """``wire_at`` for ``key_spelling: proto_json``: each step is a (lowerCamel, snake_case) pair."""
    for camel, snake in segments:
        if type(obj) is not dict:
            return None
        value = obj.get(camel)
        obj = obj.get(snake) if value is None else value
    return obj


def cannot_express(node: Any, provider: str, path: Any, ctx: Context) -> None:
    """A renderer got an IR node its wire place cannot hold: opaque parts and provider tools go
    back to their own provider; anything else is reported and left out."""
    if type(node) is OpaquePart:
        return opaque_render(node, provider, path, ctx)
    if type(node) is ProviderTool:
        return provider_tool_render(node, provider, path, ctx)
    ctx.lose(path, f"{ctx.provider} cannot express a {type(node).__name__} here; dropped")
    return None


def hints_for(pd: Any, provider: str) -> dict | None:
    if pd is not None and pd.provider == provider:
        return pd.hints
    return None


def hint(hints: dict | None, key: str, value: Any) -> dict:
    if hints is None:
        return {key: value}
    hints[key] = value
    return hints


def aliased(hints: dict | None, key: str) -> bool:
    """Whether a rule's value was read under its alias key: the alias hint, or a transform hint
    (which replaces it) that says so."""
    h = hints.get(key) if hints is not None else None
    return h == "alias" or (type(h) is dict and h.get("alias") is True)


def set_hint(node: Any, provider: str, key: str, value: Any) -> None:
    pd = node.provider_data
    if pd is None:
        node.provider_data = ProviderData(provider=provider, hints={key: value})
    elif pd.hints is None:
        pd.hints = {key: value}
    else:
        pd.hints[key] = value


def answered_call(result: Any, path: Any, ctx: Context, spelled: Any = None) -> Any:
    """The ToolCall ``result`` answers, from the request being rendered (``computed: answered_call``:
    a result that repeats its call's name and arguments, as Cohere v1's ``tool_results[].call``).
    What the call itself carries (its provider data) is not repeated: the call's own place sends or
    reports it, once. The repeat is spelled as the result's own was (``spelled``: the hints its
    codec read there, for the same provider); the keys it had besides are the result's to put back."""
    calls = ctx.calls
    if calls is None:
        messages = ctx.request.messages if ctx.request is not None else ()
        calls = ctx.calls = {p.id: p for m in messages for p in m.parts if type(p) is ToolCall and p.id}
    call = calls.get(result.tool_call_id)
    if call is None:  # a result of a call held elsewhere (server-side state): only its name is known
        ctx.lose(path, "the call this result answers is not in the conversation; it is sent with its name and no arguments")
        return ToolCall(id=result.tool_call_id or "", name=result.name or "", arguments={})
    if call.provider_data is None and spelled is None:
        return call
    from dataclasses import replace  # (only for a call that carries something: not imported with toolwire)

    return replace(call, provider_data=ProviderData(provider=ctx.data, hints=spelled) if type(spelled) is dict else None)


def hint_of(node: Any, provider: str, key: str) -> Any:
    pd = getattr(node, "provider_data", None)  # OpaquePart and ProviderTool have none
    if pd is None or pd.provider != provider or not pd.hints:
        return None
    return pd.hints.get(key)


def nested_extra(extra: dict | None, prefix: str, nested: dict | None) -> dict | None:
    """Unknown keys of a nested wire object, stored under its dotted path (e.g. ``function``)."""
    if not nested:
        return extra
    if extra is None:
        extra = {}
    extra[prefix] = nested
    return extra


def opaque_render(node: Any, provider: str, path: Any, ctx: Context) -> Any:
    """An OpaquePart goes back verbatim to its own provider and is reported anywhere else."""
    if node.provider == provider:
        return node.data
    kind = node.data.get("type", "item") if type(node.data) is dict else "item"
    ctx.lose(path, f"{node.provider} {kind!s} has no {provider} equivalent; dropped")
    return None


def embedded_flag_parse(value: Any, path: Any, ctx: Context, to_ir: Any, flag: str, negate: bool) -> tuple[Any, Any]:
    if type(value) is not dict or flag not in value:
        return to_ir(value, path, ctx), None
    raw = value[flag]
    if type(raw) is not bool:
        raise WrongTypeError((path, flag), f"expected a boolean, got {_json_type(raw)}")
    rest = {k: v for k, v in value.items() if k != flag}
    return to_ir(rest, path, ctx), (not raw) if negate else raw


def embedded_flag_render(
    node: Any, flag_value: Any, path: Any, ctx: Context, from_ir: Any, flag: str, negate: bool, default: dict,
    carriers: Any = None,
) -> Any:
    """``carriers``: the (tag key, tag value) pairs of the object's shapes that declare the flag (from
    the derived wire types; None: all do). A shape that has no such field does not get it: the flag
    is reported and not sent (Anthropic {"type": "none"} has no disable_parallel_tool_use)."""
    out = from_ir(node, path, ctx) if node is not None else None
    if flag_value is None:
        return out
    out = dict(default) if out is None else dict(out)
    if carriers is not None and not any(out.get(k) == v for k, v in carriers):
        shape = ", ".join(f"{k} {out.get(k)!r}" for k in dict(carriers)) or "this"
        ctx.lose(path, f"a tool choice of {shape} has no {flag}; parallel_tool_calls={flag_value!r} not sent")
        return None if node is None else out
    out[flag] = (not flag_value) if negate else flag_value
    return out


def image_source_parse(value: Any, path: Any) -> tuple[Any, Any, Any]:
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an image source object, got {_json_type(value)}")
    kind = value.get("type")
    if kind == "base64":
        data = value.get("data")
        if type(data) is not str:
            raise MissingFieldError((path, "data"), "a base64 image source needs data")
        return None, value.get("media_type"), data
    if kind == "url":
        url = value.get("url")
        if type(url) is not str:
            raise MissingFieldError((path, "url"), "a url image source needs url")
        return url, None, None
    raise UnknownVariantError((path, "type"), f"unknown image source type {kind!r}; expected 'base64' or 'url'")


def image_source_render(url: Any, media_type: Any, data: Any, path: Any) -> dict:
    if data is not None:
        return {"type": "base64", "media_type": media_type or "application/octet-stream", "data": data}
    if url is None:
        raise MissingFieldError(path, "image has neither data nor url")
    return {"type": "url", "url": url}


def message_parts_parse(value: Any, path: Any, ctx: Context, to_ir: Any, role: str) -> Any:
    parts = [to_ir(item, (path, i), ctx) for i, item in enumerate(expect_list(value, path))]
    return Message(role=role, parts=parts)


def message_parts_render(message: Any, path: Any, ctx: Context, from_ir: Any) -> list:
    """The parts of ``message`` as the list that stands for the whole message; what the message
    carries besides its parts has no place in a list and is reported, as a message codec reports
    it (another provider's message fields, such as OpenAI Chat's ``refusal``; its name; its weight)."""
    out = []
    for i, part in enumerate(message.parts):
        item = from_ir(part, (path, i), ctx)
        if item is not None:
            out.append(item)
    message_unplaced(message, path, ctx)
    return out


def message_unplaced(message: Any, path: Any, ctx: Context) -> None:
    """Report what ``message`` carries besides its parts when nothing the target renders it into
    holds a message's own fields: a list of parts that is the whole message (``message_parts``), or
    a turn whose parts all go into items of their own (Responses' function_call items: its fields
    live on a message item, and a turn without text has none). Its carried fields (another
    provider's, such as OpenAI Chat's ``refusal``), its name, its weight."""
    carried_unplaced(message.provider_data, path, ctx)
    if message.name is not None:
        ctx.lose((path, "name"), f"{ctx.provider} has no place for Message.name; dropped")
    if message.weight is not None:
        ctx.lose((path, "weight"), f"{ctx.provider} has no place for Message.weight; dropped")


def provider_tool_render(node: Any, provider: str, path: Any, ctx: Context) -> Any:
    """A provider-only tool goes back verbatim to its own provider and is reported anywhere else."""
    if node.provider == provider:
        return node.data
    ctx.lose(path, f"{node.provider} tool {_tool_label(node.data)!r} has no {provider} equivalent; dropped")
    return None


def _tool_label(data: dict) -> str:
    """What a provider tool is called: its type or name, or, for a one-key object (Bedrock
    ``{"systemTool": {"name": ...}}``), the key and the name inside."""
    label = data.get("type") or data.get("name")
    if label is None and len(data) == 1:
        key, inner = next(iter(data.items()))
        label = f"{key} {inner.get('name') or inner.get('type') or ''}".strip() if type(inner) is dict else key
    return str(label)


def grouped_list_parse(value: Any, path: Any, ctx: Context, to_ir: Any, key: str, provider: str) -> tuple[list, Any]:
    """(tools, hint): every declaration under ``key`` a tool of the list, any other group (or the
    keys beside the declarations in a group) a provider tool. The hint is the groups' shape when
    the render's own grouping would not give them back (``grouped_list_render``): for each wire
    group, [its number of declarations, the place of ``key`` among its keys, whether other keys
    sit beside them], or None for a group without declarations."""
    out: list = []
    shape: list = []
    for i, group in enumerate(expect_list(value, path)):
        if type(group) is not dict:
            raise WrongTypeError((path, i), f"expected an object, got {_json_type(group)}")
        if key in group:
            items = expect_list(group[key], ((path, i), key))
            out.extend(to_ir(item, (((path, i), key), j), ctx) for j, item in enumerate(items))
            rest = {k: v for k, v in group.items() if k != key}
            if rest:
                out.append(ProviderTool(provider=provider, data=rest))
            shape.append([len(items), list(group).index(key), bool(rest)])
        else:
            out.append(ProviderTool(provider=provider, data=group))
            shape.append(None)
    declared = [entry for entry in shape if entry is not None]
    # the render's own grouping: one group holding every declaration and nothing else
    own = len(declared) <= 1 and all(entry[0] and not entry[2] for entry in declared)
    return out, (None if own else shape)


def grouped_list_render(tools: Any, hint: Any, path: Any, ctx: Context, from_ir: Any, key: str, provider: str) -> Any:
    """The tool groups: all the declarations in one group, at the place of the first declaration;
    each provider tool a group of its own. With the hint of a same-provider input grouped
    otherwise (several declaration groups, keys beside the declarations, an empty group), its
    groups as they were, while the tools still fit them."""
    if tools is None:
        return None
    if hint is not None and _fits_groups(tools, hint, provider):
        return _grouped_as(tools, hint, path, ctx, from_ir, key)
    declarations: list = []
    out: list = []
    for i, tool in enumerate(tools):
        if type(tool) is ProviderTool:
            item = provider_tool_render(tool, provider, (path, i), ctx)
            if item is not None:
                out.append(item)
        else:
            if not declarations:  # the group goes where its first declaration was
                out.append({key: declarations})
            declarations.append(from_ir(tool, (path, i), ctx))
    return out


def _fits_groups(tools: list, shape: Any, provider: str) -> bool:
    """Whether ``tools`` still has the groups ``shape`` says (grouped_list_parse), tool for tool."""
    if type(shape) is not list:
        return False
    j = 0
    for entry in shape:
        if entry is not None:
            if type(entry) is not list or len(entry) != 3 or type(entry[0]) is not int or type(entry[1]) is not int:
                return False
            n = entry[0]
            if len(tools[j : j + n]) != n or any(type(t) is ProviderTool for t in tools[j : j + n]):
                return False
            j += n
        if entry is None or entry[2]:  # the group whole, or the keys beside its declarations
            if j >= len(tools) or type(tools[j]) is not ProviderTool or tools[j].provider != provider or type(tools[j].data) is not dict:
                return False
            j += 1
    return j == len(tools)


def _grouped_as(tools: list, shape: list, path: Any, ctx: Context, from_ir: Any, key: str) -> list:
    """The groups ``shape`` says, of ``tools`` (which fit them: ``_fits_groups``)."""
    out: list = []
    j = 0
    for entry in shape:
        if entry is None:
            out.append(dict(tools[j].data))
            j += 1
            continue
        n, place, beside = entry
        declarations = [from_ir(t, (path, j + k), ctx) for k, t in enumerate(tools[j : j + n])]
        j += n
        items: list = []
        if beside:
            items = list(tools[j].data.items())
            j += 1
        items.insert(min(place, len(items)), (key, declarations))
        out.append(dict(items))
    return out


def named_choice_parse(value: Any, path: Any, ctx: Context, to_ir: Any, names_key: str, validated_mode: str) -> tuple:
    """Returns (mode, name, allowed_names, validated, hint); the hint is the wire mode ("" when left out)."""
    value = expect_object(value, path)
    wire_mode = value.get("mode")
    mode = to_ir(wire_mode, (path, "mode"), ctx) if wire_mode is not None else "auto"
    validated = True if wire_mode == validated_mode else None
    hint = wire_mode if wire_mode is not None else ""
    names = value.get(names_key)
    if names is None:
        return mode, None, None, validated, hint
    names = expect_list(names, (path, names_key))
    for i, name in enumerate(names):
        if type(name) is not str:
            raise WrongTypeError(((path, names_key), i), f"expected a function name, got {_json_type(name)}")
    if mode == "required" and len(names) == 1:
        return "tool", names[0], None, validated, hint
    return mode, None, names, validated, hint


def named_choice_render(
    mode: Any, name: Any, allowed: Any, validated: Any, path: Any, ctx: Context, from_ir: Any, names_key: str, validated_mode: str,
    hint: Any = None, to_ir: Any = None,
) -> dict:
    if validated and mode != "auto":
        ctx.lose((path, "validated"), f"{ctx.provider} validates calls only in mode auto ({validated_mode}); sent mode {mode} without it")
    if mode == "tool":
        return {"mode": from_ir("required", path, ctx), names_key: [name]}
    wire_mode = validated_mode if validated and mode == "auto" else from_ir(mode, path, ctx)
    if hint == "" and mode == "auto" and not validated:  # the same-provider input left the mode out
        out = {}
    elif type(hint) is str and hint and hint != wire_mode and to_ir is not None and to_ir(hint, path, ctx) == mode and hint != validated_mode:
        out = {"mode": hint}  # the same-provider input's own spelling of this IR mode
    else:
        out = {"mode": wire_mode}
    if allowed is not None:
        out[names_key] = list(allowed)
    return out


def string_parse(value: Any, path: Any) -> str:
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    return value


def fit_id_parse(value: Any, path: Any, chars: str, max_len: int | None, exact: bool) -> tuple[str, Any]:
    """Parse side of fit_id: (id, hint); the hint "kept" marks an id that breaks the provider's own
    rule, so that a same-provider render sends it back as it came (the input had it; e.g. a 50-character
    Chat id an OpenAI-compatible API took)."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    return value, (None if names.fits(value, chars, max_len, exact) else "kept")


def optional_id_parse(value: Any, path: Any) -> str:
    if value is None:
        return ""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    return value


def empty_hint(value: Any) -> Any:
    """An optional id sent as "" (Gemini does): remembered so that it comes back as ""."""
    return "empty" if value == "" else None


def optional_id_render(call_id: str, synthetic: bool, ctx: Context, hint: Any = None) -> Any:
    if synthetic:
        ctx.synthetic_ids.add(call_id)
        return "" if hint == "empty" else None
    return call_id or None


def omitted_id_render(call_id: str, synthetic: bool, path: Any, ctx: Context, hint: Any = None, echo: bool = False) -> Any:
    if not echo:
        hint = None
    if hint == "sent" and call_id and not synthetic:  # the same-provider input had it (echo: true)
        return call_id
    if hint == "empty":
        return ""
    if not synthetic and call_id:
        ctx.lose(path, f"{ctx.provider} takes no call ids; calls and results pair by position")
    return None


def omitted_result_id_render(call_id: str, hint: Any = None, echo: bool = False) -> Any:
    if not echo:
        return None
    if hint == "sent" and call_id:
        return call_id
    return "" if hint == "empty" else None


def result_id_render(call_id: str, ctx: Context, hint: Any = None) -> Any:
    if not call_id or call_id in ctx.synthetic_ids:
        return "" if hint == "empty" else None
    return call_id


def single_message(messages: list, path: Any, ctx: Context, provider: str | None = None) -> Any:
    """A response's output items as one assistant message (reasoning, text and calls in order).

    The carried fields of the message item (e.g. a Responses item's ``id`` / ``status``) stay on
    the merged message, which renders its text as that item again; a second item's fields that
    differ have no place in one message and are reported. No items at all (a queued, cancelled or
    failed Responses response) is an empty message with the hint ``$no_items``: no items again."""
    if len(messages) == 1:
        return messages[0]
    if not messages:
        return Message(role="assistant", parts=[], provider_data=ProviderData(provider=provider, hints={"$no_items": True}) if provider else None)
    parts = [p for m in messages for p in m.parts]
    if any(m.role != "assistant" for m in messages):
        ctx.lose(path, "output items of other roles than assistant merged into the assistant message")
    carried = [m.provider_data for m in messages if m.provider_data is not None and m.provider_data.fields]
    if not carried:
        return Message(role="assistant", parts=parts)
    first = carried[0]
    for later in carried[1:]:
        first = merge_carried(first, later, path, ctx, "fields {keys} of a later output message merged into the first have no place; dropped")
    hints = {k: v for k, v in (first.hints or {}).items() if k != "$turn"} or None
    return Message(role="assistant", parts=parts, provider_data=ProviderData(provider=first.provider, fields=first.fields, hints=hints))


# --- openapi_schema (Gemini's legacy function parameters) ------------------------------------------


def openapi_schema_parse(value: Any, path: Any) -> tuple[Any, Any]:
    """(JSON Schema, hint): the provider's OpenAPI-subset schema as JSON Schema; the original is
    the hint, so that a same-provider round trip gives it back byte for byte."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    return from_openapi_schema(value), value


def openapi_schema_render(schema: Any, hint: Any, path: Any, ctx: Context) -> Any:
    if schema is None:
        return None
    if hint is not None and from_openapi_schema(hint) == schema:
        return hint
    return to_openapi_schema(standard_types(schema, path, ctx.lose, ctx.provider), path, ctx.lose)


# --- json_schema: tool parameters sent as JSON Schema ---------------------------------------------


def json_schema_parse(value: Any, path: Any) -> tuple[Any, Any]:
    """(schema, hint): the schema as it is; when it holds non-standard type names (which this
    provider took), the hint says so and a same-provider round trip sends it unchanged."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected object, got {_json_type(value)}")
    return value, (None if standard_types(value, path, _no_report, "") is value else "as_is")


def json_schema_render(schema: Any, hint: Any, path: Any, ctx: Context) -> Any:
    if schema is None or hint == "as_is":
        return schema
    return standard_types(schema, path, ctx.lose, ctx.provider)


# --- base64_text: inline bytes that may be URL-safe base64 (Gemini inlineData.data) --------------

_URLSAFE = str.maketrans("-_", "+/")
_TO_URLSAFE = str.maketrans("+/", "-_")


def base64_text_parse(value: Any, path: Any) -> tuple[Any, Any]:
    """(standard base64, hint): URL-safe base64 (``-`` / ``_``) becomes the standard alphabet, the
    IR's form; the hint records the original spelling. Padding is left as it is."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a base64 string, got {_json_type(value)}")
    std = value.translate(_URLSAFE)
    if std == value:
        return value, None
    # text mixing both alphabets: the original itself is the hint
    return std, ("urlsafe" if std.translate(_TO_URLSAFE) == value else value)


def base64_text_render(data: Any, hint: Any) -> Any:
    if data is None or hint is None:
        return data
    if hint == "urlsafe":
        return data.translate(_TO_URLSAFE)
    return hint if type(hint) is str and hint.translate(_URLSAFE) == data else data


# --- legacy_schema: JSON Schema with a legacy alias in the OpenAPI subset (Gemini parameters) ----


def legacy_schema_parse(value: Any, path: Any, aliased: bool) -> tuple[Any, Any]:
    """(JSON Schema, hint). A value read under the rule's alias (the legacy OpenAPI-subset field)
    is converted as openapi_schema does; the hint keeps the original and says it came from there."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    if not aliased:
        return json_schema_parse(value, path)
    schema = from_openapi_schema(value)
    return schema, (None if schema == value else {"alias": True, "schema": value})


def legacy_schema_render(schema: Any, hint: Any, path: Any, ctx: Context) -> Any:
    if type(hint) is dict and from_openapi_schema(hint["schema"]) == schema:
        return hint["schema"]
    if schema is None or hint == "as_is":
        return schema
    return standard_types(schema, path, ctx.lose, ctx.provider)


# --- python_type_params: tool parameters as Python type notation (Cohere v1 parameter_definitions)


def python_type_params_parse(value: Any, path: Any) -> tuple[Any, Any]:
    """(JSON Schema, hint): the parameter map as a schema (schema.py from_python_params); the hint
    is the wire map when rendering the schema would not give it back (type spellings such as
    ``list`` or ``Optional[str]``, key order, explicit nulls, extra keys)."""
    schema = from_python_params(value, path)
    try:
        same = _dumps(to_python_params(schema, path, [])) == _dumps(value)
    except ConversionError:  # extra keys the provider took that are no valid schema keywords
        same = False
    return schema, (None if same else value)


def python_type_params_render(schema: Any, hint: Any, path: Any, ctx: Context) -> Any:
    if hint is not None and _dumps(from_python_params(hint, path)) == _dumps(schema):
        return hint
    lost: list = []
    out = to_python_params(schema, path, lost)
    if lost:
        base = format_path(path)
        names = []
        for where, note in lost:
            name = format_path(where)
            name = name[len(base) + 1 :] if base and name.startswith(base + ".") else name
            names.append(f"{name} ({note})" if note else name)
        ctx.lose(lost[0][0], f"Python type notation cannot state {', '.join(names)}; not sent")
    return out


# --- keyword_subset (tool parameters of a provider that models a few keywords: Ollama) ----------


def keyword_subset_parse(value: Any, path: Any, api: str, root: list, prop: list, free: list) -> tuple[Any, Any]:
    """(schema, hint): the provider's schema as it is; when it holds more than the subset (the
    provider took it anyway), the hint says so, and a same-provider round trip sends it unreduced."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    try:
        inside = to_keyword_subset(value, path, _no_report, api, root, prop, free) == value
    except ConversionError:
        inside = False
    return value, (None if inside else "as_is")


def keyword_subset_render(
    schema: Any, hint: Any, path: Any, ctx: Context, api: str, root: list, prop: list, free: list
) -> Any:
    if schema is None or hint == "as_is":
        return schema
    schema = standard_types(schema, path, ctx.lose, api)
    return to_keyword_subset(schema, path, ctx.lose, api, root, prop, free)


def _no_report(path: Any, message: str) -> None:
    pass


# --- data_url_or_object: an image URL given as a string or as {url, detail} (Mistral image_url) ---


def data_url_or_object_parse(value: Any, path: Any, ctx: Context, key: str, details: list) -> tuple:
    """(url, media_type, data, detail, hint): a URL string (``data:`` URLs become inline data) or an
    object ``{KEY: url, detail}``; the hint remembers the object spelling."""
    if type(value) is str:
        return (*data_url_parse(value, path), None, None)
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected a URL string or an object with {key!r}, got {_json_type(value)}")
    url = value.get(key)
    if url is None:
        raise missing((path, key))
    detail = value.get("detail")
    if detail is not None and type(detail) is not str:
        raise WrongTypeError((path, "detail"), f"expected a string, got {_json_type(detail)}")
    # (its other keys are the codec's to carry: the transform's key_order names the two it reads)
    return (*data_url_parse(url, (path, key)), detail, "object")


def data_url_or_object_render(
    url: Any, media_type: Any, data: Any, detail: Any, hint: Any, path: Any, ctx: Context, key: str, details: list
) -> Any:
    """The string form unless there is a detail level to send (or the input used the object form).
    A detail level the provider does not know (not in DETAILS) is reported and left out."""
    text = data_url_render(url, media_type, data, path)
    if detail is not None and detail not in details:
        ctx.lose(path, f"image detail {detail!r} is not one of {', '.join(map(repr, details))}; not sent")
        detail = None
    if detail is not None:
        return {key: text, "detail": detail}
    if hint == "object":
        return {key: text}
    return text


# --- Bedrock Converse shapes: nonblank_blocks, json_block_result, status_flag, non_empty, required_tools




def nonblank_blocks_parse(value: Any, path: Any, ctx: Context, part_to_ir: Any) -> tuple[list, Any]:
    """nonblank_blocks, wire → IR: a content that is always a list of blocks (no string form). The
    hint says only that the list was empty ("empty": Bedrock's `system: []`), so that a conversation
    that leaves out empty messages (drop_blank_text) keeps this one for its own provider."""
    parts = []
    for i, item in enumerate(expect_list(value, path)):
        part = part_to_ir(item, (path, i), ctx)
        if part is not None:
            parts.append(part)
    return parts, ("empty" if not value else None)


def nonblank_blocks_render(parts: list, path: Any, ctx: Context, part_from_ir: Any) -> list:
    """nonblank_blocks, IR → wire: the blocks, without text parts that are empty or whitespace only
    (Bedrock: "The text field in the ContentBlock object ... is blank"). They say nothing: not reported."""
    out = []
    for i, part in enumerate(parts):
        if type(part) is TextPart and not part.text.strip():
            continue
        item = part_from_ir(part, (path, i), ctx)
        if item is not None:
            out.append(item)
    return out


def json_block_result_parse(value: Any, path: Any, ctx: Context, part_to_ir: Any, json_key: str, key: str) -> tuple[Any, Any, Any]:
    """json_block_result, wire → IR: (result, parts, hint) of a list of result blocks.

    The block ``{JSON_KEY: v}`` is the result (``{KEY: x}`` unwrapped to x; a second one is an
    UnsupportedError: the IR keeps one result value); the other blocks are parts. A single text block
    is the result text. Anything else is all parts. The hint keeps what a re-render needs: "text"
    (a text result that looks like a JSON object), "empty" (no blocks), or {"at": index, "bare":
    bool} (where the JSON block was, and whether it held a non-object).
    """
    items = expect_list(value, path)
    if not items:
        return None, None, "empty"
    at = [i for i, item in enumerate(items) if type(item) is dict and len(item) == 1 and json_key in item]
    if len(at) > 1:
        raise UnsupportedError((path, at[1]), f"a second {json_key!r} block; toolwire keeps one JSON result per tool result")
    if at:
        data = items[at[0]][json_key]
        bare = type(data) is not dict  # not an object (the API asks for one): given back as it came
        result = data[key] if not bare and len(data) == 1 and key in data else data
        rest = [part_to_ir(item, (path, i), ctx) for i, item in enumerate(items) if i != at[0]]
        rest = [p for p in rest if p is not None]
        hint = {"at": at[0], "bare": bare} if at[0] or bare else None
        return result, (rest or None), hint
    parts = [p for p in (part_to_ir(item, (path, i), ctx) for i, item in enumerate(items)) if p is not None]
    if len(parts) == 1 and type(parts[0]) is TextPart and _plain(parts[0]):
        text = parts[0].text
        return text, None, ("text" if _object_text(text) is not None else None)
    return None, (parts or None), None


def json_block_result_render(
    result: Any, parts: Any, hint: Any, path: Any, ctx: Context, part_from_ir: Any, json_key: str, key: str
) -> list:
    """json_block_result, IR → wire: the result first (an object as a JSON block, text as a text block
    through the codec, any other value as ``{JSON_KEY: {KEY: value}}``), then the parts."""

    def wrapped(obj: dict) -> dict:
        return {key: obj} if len(obj) == 1 and key in obj else obj

    blocks: list = []
    for i, part in enumerate(parts or ()):
        item = part_from_ir(part, (path, i), ctx)
        if item is not None:
            blocks.append(item)
    if result is None and (parts or hint == "empty"):
        return blocks
    at = hint.get("at", 0) if type(hint) is dict else 0
    if type(result) is str:
        obj = _object_text(result) if hint != "text" else None
        if obj is None:
            item = part_from_ir(TextPart(text=result), (path, "result"), ctx)
            return [item, *blocks] if item is not None else blocks
        block = {json_key: wrapped(obj)}
    elif type(result) is dict:
        block = {json_key: wrapped(result)}
    elif type(hint) is dict and hint.get("bare"):
        block = {json_key: result}
    else:
        block = {json_key: {key: result}}
    blocks.insert(min(at, len(blocks)), block)
    return blocks


def status_flag_parse(value: Any, path: Any, ok: str, error: str) -> tuple[bool, Any]:
    """status_flag, wire → IR: (is_error, hint); an explicit OK status is kept as a hint."""
    if value is None:
        return False, None
    if value == error:
        return True, None
    if value == ok:
        return False, "ok"
    raise UnknownVariantError(path, f"unknown status {value!r}; expected {ok!r} or {error!r}")


def status_flag_render(is_error: bool, hint: Any, ok: str, error: str) -> Any:
    if is_error:
        return error
    return ok if hint == "ok" else None


def non_empty_render(value: Any) -> Any:
    """non_empty, IR → wire: an empty string is not sent (the provider rejects it; it says nothing)."""
    return None if value == "" else value


def whole_number_parse(value: Any, path: Any) -> tuple[Any, Any]:
    """whole_number, wire → IR: (integer, hint). A whole float (Gemini ``topK: 40.0``, which the SDK
    types float) is the integer; the float spelling is kept as a hint. Anything else is a WrongTypeError."""
    if type(value) is int:
        return value, None
    if type(value) is float and value.is_integer():
        return int(value), "float"
    raise WrongTypeError(path, f"expected a whole number, got {_json_type(value) if type(value) is not float else repr(value)}")


def whole_number_render(value: Any, hint: Any) -> Any:
    return float(value) if hint == "float" and type(value) is int else value


def name_list_parse(value: Any, path: Any, type_: str, key: str) -> tuple[Any, Any]:
    """name_list, wire → IR: ([names], hint) from a list of ``{type: TYPE, KEY: name}`` objects.
    Entries of another type (a Responses allowed ``{type: mcp, server_label}``) have no IR form:
    they are kept, with their positions, as the hint; so are the keys a named entry has beside its
    name (``[position, keys, "with"]``). Such an entry still names its tool: before, it was kept
    whole and its name was not one of the allowed names, and a choice of it alone came back auto."""
    items = expect_list(value, path)
    names: list = []
    others: list = []
    for i, item in enumerate(items):
        item = expect_object(item, (path, i))
        if item.get("type") == type_ and key in item:
            name = item[key]
            if type(name) is not str:
                raise WrongTypeError(((path, i), key), f"expected a name, got {_json_type(name)}")
            names.append(name)
            rest = {k: v for k, v in item.items() if k != "type" and k != key}
            if rest:  # (keys beside the name, which the SDK's entry type allows: kept for a round trip)
                others.append([i, rest, "with"])
        else:
            others.append([i, item])
    return names, (others or None)


def name_list_carried(hint: Any) -> dict | None:
    """What name_list's hint keeps that the IR has no place for: the entries of another type and
    the keys a named entry has beside its name, by position (``3``, ``0.KEY``)."""
    carried: dict = {}
    for entry in hint or ():
        if len(entry) == 3 and type(entry[1]) is dict:
            carried.update((f"{entry[0]}.{k}", v) for k, v in entry[1].items())
        elif len(entry) == 2:
            carried[str(entry[0])] = entry[1]
    return carried or None


def name_list_render(names: Any, hint: Any, path: Any, ctx: Context, type_: str, key: str) -> Any:
    if names is None:
        return None
    out: list = [{"type": type_, key: name} for name in names]
    for entry in hint or ():
        if len(entry) == 2:  # an entry of another type, at its place
            out.insert(entry[0], entry[1])
    for entry in hint or ():
        if len(entry) == 3 and 0 <= entry[0] < len(out) and type(out[entry[0]]) is dict:
            out[entry[0]].update(entry[1])  # the keys a named entry had beside its name
    return out


def required_tools_parse(value: Any, path: Any, ctx: Context, to_ir: Any) -> tuple[Any, Any, Any]:
    """required_tools, wire → IR: (tools, tool_choice, hint) from the codec's Request; the hint is
    that Request's provider data (unknown members of the object), for a same-provider round trip."""
    sub = to_ir(value, path, ctx)
    return sub.tools, sub.tool_choice, sub.provider_data


def required_tools_carried(hint: Any) -> dict | None:
    """What required_tools' hint (the provider data of its codec's Request) keeps that the IR has no
    place for: the object's unknown members."""
    return dict(hint.fields) if type(hint) is ProviderData and hint.fields else None


def required_tools_render(
    tools: Any, choice: Any, request: Any, hint: Any, path: Any, ctx: Context, from_ir: Any, schema: Any = None
) -> Any:
    """required_tools, IR → wire (spec/transforms.yaml): the tool configuration of a provider that has
    no tool choice "none" and needs the tools declared whenever the conversation holds tool calls or
    results. ``request`` is the whole Request being rendered (its conversation). ``schema`` (not
    None): when the conversation holds calls or results and the input declares no tools, a tool
    definition with these parameters is made up for every name the calls and results use, and
    that is reported (an AssumptionWarning: the tools the provider requires, filled in)."""
    messages = request.messages if request is not None else ()
    uses_tools = any(type(p) in (ToolCall, ToolResult) for m in messages for p in m.parts)
    where = (path, "tools")
    if choice is not None and choice.mode == "none":
        if tools and not uses_tools:
            ctx.lose(where, f"{ctx.provider} has no tool choice 'none'; the tools are not sent, so no tool can be called")
            return None
        if tools or (uses_tools and schema is not None):
            ctx.lose(
                where,
                f"{ctx.provider} has no tool choice 'none', and the tools must be sent since the conversation "
                "holds tool calls or results: the model may still call them",
            )
        choice = None
    if not tools and uses_tools and schema is not None:
        names = list(dict.fromkeys(p.name for m in messages for p in m.parts if type(p) in (ToolCall, ToolResult) and p.name))
        if names:
            ctx.assume(
                where,
                f"{ctx.provider} requires tool definitions whenever the conversation holds tool calls or results, "
                f"and the input declares none: sent {', '.join(map(repr, names))} with parameters {json.dumps(schema)}",
            )
            if choice is not None and choice.mode != "auto":
                ctx.lose((path, "tool_choice"), f"a tool choice {choice.mode!r} without declared tools cannot be sent; dropped")
                choice = None
            import copy

            tools = [ToolDefinition(name=n, parameters=copy.deepcopy(schema)) for n in names]
    if not tools:
        return _no_tools_sent(uses_tools, choice, where, path, ctx, "the input declares none; add them before sending")
    pd = hint if type(hint) is ProviderData else None
    out = from_ir(Request(messages=[], tools=tools, tool_choice=choice, provider_data=pd), path, ctx)
    if out and not any(type(v) is list and v for v in out.values()):
        # no tool could be sent (each drop was reported): an empty or absent tool list is invalid
        if uses_tools and schema is not None:  # made up from the calls' names, as for no tools at all
            return required_tools_render(None, choice, request, hint, path, ctx, from_ir, schema)
        return _no_tools_sent(uses_tools, choice, where, path, ctx, "none of the input's tools can be sent")
    return out or None


def _no_tools_sent(uses_tools: bool, choice: Any, where: Any, path: Any, ctx: Context, why: str) -> None:
    """required_tools with no tool to send: report what that breaks (calls in the history, a choice)."""
    if uses_tools:
        ctx.lose(
            where,
            f"{ctx.provider} requires tool definitions whenever the conversation holds tool calls or results, and {why}",
        )
    if choice is not None and choice.mode != "auto":
        ctx.lose((path, "tool_choice"), f"a tool choice {choice.mode!r} without tools cannot be sent; dropped")
    return None


# --- Ollama / Cohere: implied_choice, plan_text, plan_content, document_result, base64_images,
# --- rfc3339_time (spec/transforms.yaml documents each one) ------------------------




def implied_choice_parse(value: Any, path: Any, modes: dict) -> tuple[Any, Any]:
    """(ToolChoice | None, hint). The rule reads the declared tools through ``alias`` when the choice
    is absent: a non-empty tool list means auto (the hint replaces the alias one, so the choice is
    never written back under the tools key)."""
    if type(value) is list:
        return (ToolChoice(mode="auto") if value else None), "implied"
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    mode = modes.get(value)
    if mode is None:
        if not modes:
            raise UnknownVariantError(path, "this provider has no tool_choice; leave it out (declared tools mean auto)")
        raise UnknownVariantError(path, f"unknown tool_choice {value!r}; expected one of {', '.join(map(repr, modes))} (absent means auto)")
    return ToolChoice(mode=mode), None


_IMPLIED_CHOICE_UNSENT = tuple(f for f in ToolChoice.__slots__ if f not in ("mode", "name", "allowed_names", "provider_data"))


def implied_choice_render(choice: Any, path: Any, ctx: Context, modes: dict) -> Any:
    """The wire word for a choice, or None: auto is the absence of the field; a mode the provider
    has no word for is reported (a named tool becomes the provider's `required` word, if any)."""
    if choice is None:
        return None
    words: dict = {}
    for wire, mode in modes.items():
        words.setdefault(mode, wire)
    if choice.allowed_names:
        ctx.lose((path, "allowed_names"), f"{ctx.provider} cannot restrict the choice to some tools; allowed_names not sent")
    for other in _IMPLIED_CHOICE_UNSENT:  # every other IR field of the choice (e.g. validated): no word for it
        if getattr(choice, other):
            ctx.lose((path, other), f"{ctx.provider} has no place for ToolChoice.{other}; dropped")
    carried_unplaced(choice.provider_data, path, ctx)  # (a word holds no other provider's fields)
    mode = choice.mode
    if mode == "auto":
        return None
    if mode == "tool":
        if "required" in words:
            ctx.lose(
                path,
                f"{ctx.provider} cannot name the tool to call; sent {words['required']!r}: some tool must be "
                f"called, not necessarily {choice.name!r}",
            )
            return words["required"]
        ctx.lose(path, f"{ctx.provider} has no tool_choice; the choice of tool {choice.name!r} is not sent (the model decides)")
        return None
    if mode in words:
        return words[mode]
    ctx.lose(path, f"{ctx.provider} has no tool_choice {mode!r}; not sent (the model decides)")
    return None


def plan_text_parse(value: Any, path: Any) -> tuple[list, Any]:
    """(parts, hint): the plan an assistant writes before its calls (a string) as a text part."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    if value == "":
        return [], ""
    return [TextPart(text=value)], None


def plan_text_render(parts: list, hint: Any, path: Any, ctx: Context) -> Any:
    """The text of a turn that makes tool calls (``parts``: its text parts and calls), else None."""
    if not any(type(p) is ToolCall for p in parts):
        return None
    texts = part_texts(parts, path, ctx)
    if not texts:
        return "" if hint == "" else None
    if len(texts) > 1:
        ctx.lose(path, f"{len(texts)} texts of a turn with tool calls joined into one plan")
    return "".join(texts)


def plan_content_parse(value: Any, path: Any, ctx: Context, part_to_ir: Any, form: str) -> tuple[list, Any]:
    """content_parts' parse (the content of a turn, whatever its calls)."""
    return content_parse(value, path, ctx, part_to_ir, form)


def plan_content_render(
    parts: list, hint: Any, empty: Any, form: str, path: Any, ctx: Context, part_from_ir: Any
) -> Any:
    """content_parts' render of the message's parts other than calls, and other than its text when
    the turn makes calls (that text is the plan, see plan_text)."""
    calls = any(type(p) is ToolCall for p in parts)
    rest = [p for p in parts if type(p) is not ToolCall and not (calls and type(p) is TextPart)]
    return content_render(rest, hint, empty, form, path, ctx, part_from_ir)


def _document_items(value: Any, path: Any, tag: str, key: str) -> Any:
    """A string-or-parts tool result → its canonical IR result (text, an object, or a list)."""
    if type(value) is str:
        return value
    if type(value) is not list:
        raise WrongTypeError(path, f"expected a string or an array of content parts, got {_json_type(value)}")
    items: list = []
    for i, item in enumerate(value):
        if type(item) is not dict:
            raise WrongTypeError((path, i), f"expected a content part object, got {_json_type(item)}")
        kind = item.get("type")
        if kind == "text":
            text = item.get("text")
            if type(text) is not str:
                raise WrongTypeError(((path, i), "text"), f"expected a string, got {_json_type(text)}")
            items.append(text)
        elif kind == tag:
            wrapper = item.get(tag)
            if type(wrapper) is not dict:
                raise WrongTypeError(((path, i), tag), f"expected an object, got {_json_type(wrapper)}")
            data = wrapper.get(key)
            if type(data) is not dict:
                raise WrongTypeError((((path, i), tag), key), f"expected an object, got {_json_type(data)}")
            items.append(data)
        else:
            raise UnknownVariantError(((path, i), "type"), f"unknown content part type {kind!r}; expected 'text' or {tag!r}")
    if all(type(x) is str for x in items):
        return "".join(items)
    if all(type(x) is dict for x in items):
        return items[0] if len(items) == 1 else items
    return items


def _document_render(result: Any, tag: str, key: str) -> Any:
    """The canonical wire form of a (non-error) result: objects as documents, the rest as text."""
    result = _as_object(result)
    if type(result) is dict:
        return [{"type": tag, tag: {key: result}}]
    if type(result) is list and result and all(type(x) is dict for x in result):
        return [{"type": tag, tag: {key: x}} for x in result]
    return result_to_text(result)


def document_result_parse(value: Any, path: Any, tag: str, key: str) -> tuple[Any, bool, None, Any]:
    """(result, is_error, parts, hint): the hint is the wire value when the canonical rendering of
    the result would not give it back (text parts, document ids, a JSON object sent as text)."""
    result = _document_items(value, path, tag, key)
    return result, False, None, (None if _document_render(result, tag, key) == value else value)


def document_result_carried(hint: Any, tag: str, key: str) -> dict | None:
    """What document_result's hint (the wire value, kept when the canonical rendering would not give
    it back) keeps that the IR has no place for: the keys of an item besides its type and its text
    or document (``0.KEY``), and of a document besides its data (a document's ``id``: ``0.TAG.id``).
    Text parts and JSON spelled as text are spelling: the IR holds their content."""
    if type(hint) is not list:
        return None
    carried: dict = {}
    for i, item in enumerate(hint):
        if type(item) is not dict:
            continue
        inner = tag if item.get("type") == tag else "text"
        carried.update((f"{i}.{k}", v) for k, v in item.items() if k != "type" and k != inner)
        doc = item.get(tag) if inner == tag else None
        if type(doc) is dict:
            carried.update((f"{i}.{tag}.{k}", v) for k, v in doc.items() if k != key)
    return carried or None


def document_result_render(
    result: Any, is_error: bool, parts: Any, hint: Any, path: Any, ctx: Context, tag: str, key: str, error_prefix: str
) -> Any:
    if hint is not None and not is_error and not parts:
        try:
            same = _document_items(hint, path, tag, key) == result
        except ValueError:
            same = False
        if same:
            return hint
    result = _text_only(result, parts, path, ctx)
    if is_error:
        ctx.lose(path, f"no error flag; error sent as text prefixed with {error_prefix!r}")
        return error_text(result, error_prefix)
    return _document_render(result, tag, key)


_IMAGE_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
)


def _first_bytes(data: str) -> bytes | None:
    """The first bytes of base64 text (enough for a signature), or None when it is not base64."""
    head = data[:24]
    head = head[: len(head) - len(head) % 4]
    import base64
    import binascii

    try:
        return base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return None


def sniff_image_type(data: str) -> Any:
    """The media type the first bytes of base64 image data show (PNG, JPEG, GIF, WebP, BMP), or None."""
    raw = _first_bytes(data)
    if raw is None:
        return None
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    for signature, media_type in _IMAGE_SIGNATURES:
        if raw.startswith(signature):
            return media_type
    return None


def base64_images_parse(value: Any, path: Any) -> list:
    """A list of bare base64 strings → image parts (media type read from the bytes)."""
    out = []
    for i, item in enumerate(expect_list(value, path)):
        if type(item) is not str:
            raise WrongTypeError((path, i), f"expected a base64 string, got {_json_type(item)}")
        out.append(ImagePart(data=item, media_type=sniff_image_type(item)))
    return out


def base64_images_render(parts: list, path: Any, ctx: Context) -> Any:
    out = []
    for i, part in enumerate(parts):
        if part.data is None:
            ctx.lose((path, i), f"{ctx.provider} takes images as base64 bytes only; the image URL is not sent")
            continue
        if part.media_type is not None and sniff_image_type(part.data) != part.media_type:
            ctx.lose((path, i), f"{ctx.provider} images carry no media type and the bytes do not show {part.media_type}; not sent")
        if part.detail is not None:
            ctx.lose((path, i), f"{ctx.provider} images have no detail level; {part.detail!r} not sent")
        carried_unplaced(part.provider_data, (path, i), ctx)  # (a bare base64 string holds nothing else)
        out.append(part.data)
    return out or None


_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))"
)


def _rfc3339_seconds(value: Any, path: Any) -> int:
    if type(value) is not str:
        raise WrongTypeError(path, f"expected an RFC 3339 timestamp string, got {_json_type(value)}")
    match = _RFC3339.fullmatch(value)
    if match is None:
        raise WrongTypeError(path, f"expected an RFC 3339 timestamp, got {value[:40]!r}")
    y, mo, d, h, mi, s = (int(match[i]) for i in range(1, 7))
    import calendar

    seconds = calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0))
    if match[8]:
        offset = int(match[9]) * 3600 + int(match[10]) * 60
        seconds -= offset if match[8] == "+" else -offset
    return seconds


def rfc3339_parse(value: Any, path: Any) -> tuple[int, Any]:
    """(Unix seconds, hint): the hint is the original text when it is not the canonical form."""
    seconds = _rfc3339_seconds(value, path)
    return seconds, (None if rfc3339_render(seconds, None) == value else value)


def rfc3339_render(seconds: Any, hint: Any) -> Any:
    if seconds is None:
        return None
    if hint is not None:
        try:
            if _rfc3339_seconds(hint, "") == seconds:
                return hint
        except ValueError:
            pass
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


# --- media: documents, audio, video and files (FilePart), file ids --------------------------------


def in_range(value: Any, minimum: Any, maximum: Any, where: str, path: Any, ctx: Context) -> Any:
    """A number the target's wire schema bounds (derived minimum / maximum, ``where`` names the field
    there): sent as it is when inside, else reported and not sent (the target's default applies).
    Never clamped: a clamped value would be a setting the user did not ask for."""
    if (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
        return value
    lo = "" if minimum is None else minimum
    hi = "" if maximum is None else maximum
    ctx.lose(path, f"{value!r} is outside the range {ctx.provider} accepts ({lo}..{hi}, {where}); not sent")
    return None


def wire_at(obj: Any, segments: tuple) -> Any:
    """The wire value at a dotted path (None when a step is missing or not an object)."""
    for key in segments:
        if type(obj) is not dict:
            return None
        obj = obj.get(key)
    return obj


def media_in(media_type: Any, media: tuple) -> bool:
    """True when a MIME type is one of ``media`` (entries ending in '/' are prefixes: ``image/``;
    ``none`` takes a part whose media type is not given)."""
    if type(media_type) is not str:
        return "none" in media
    mt = media_type.partition(";")[0].strip().lower()
    return any(mt.startswith(m) if m.endswith("/") else mt == m for m in media)


def starts_with(value: Any, prefix: str) -> bool:
    """A union variant's `when: "url s3://"`: the IR field is a string with that prefix."""
    return type(value) is str and value.startswith(prefix)


def starts_with_none(value: Any, prefixes: tuple) -> bool:
    """A union variant's `when: "url !s3:// !gs://"`: the IR field is a string with none of those
    prefixes (a storage URI only its own provider reads)."""
    return type(value) is str and not value.startswith(prefixes)


def media_what(node: Any) -> str:
    """How a dropped part is named in a loss report: its class, and its media type when it has one."""
    media_type = getattr(node, "media_type", None)
    return f"{type(node).__name__} ({media_type})" if media_type else type(node).__name__


def _file_id_note(file_id: Any, hint: Any, path: Any, ctx: Context) -> None:
    if file_id is not None and hint is None:
        ctx.lose(path, f"file id {file_id!r} is sent as is: it must be a file uploaded to {ctx.provider}")


def media_source_parse(value: Any, path: Any) -> tuple[Any, Any, Any, Any, Any]:
    """(url, media_type, data, file_id, hint) of a `source` object: base64, url, file or text."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected a source object, got {_json_type(value)}")
    kind = value.get("type")
    if kind == "base64":
        data = value.get("data")
        if type(data) is not str:
            raise MissingFieldError((path, "data"), "a base64 source needs data")
        return None, value.get("media_type"), data, None, None
    if kind == "url":
        url = value.get("url")
        if type(url) is not str:
            raise MissingFieldError((path, "url"), "a url source needs url")
        return url, None, None, None, None
    if kind == "file":
        file_id = value.get("file_id")
        if type(file_id) is not str:
            raise MissingFieldError((path, "file_id"), "a file source needs file_id")
        return None, None, None, file_id, "file"
    if kind == "text":
        text = value.get("data")
        if type(text) is not str:
            raise MissingFieldError((path, "data"), "a text source needs data")
        import base64

        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        return None, value.get("media_type") or "text/plain", data, None, None
    raise UnknownVariantError((path, "type"), f"unknown source type {kind!r}; expected 'base64', 'url', 'file' or 'text'")


def media_source_render(url: Any, media_type: Any, data: Any, file_id: Any, hint: Any, path: Any, ctx: Context, text: bool) -> dict:
    if data is not None:
        if text and media_in(media_type, ("text/plain",)):
            import base64
            import binascii

            try:
                return {"type": "text", "media_type": "text/plain", "data": base64.b64decode(data, validate=True).decode("utf-8")}
            except (binascii.Error, ValueError):
                raise WrongTypeError(path, "text/plain data is not base64 of UTF-8 text") from None
        return {"type": "base64", "media_type": media_type or "application/octet-stream", "data": data}
    if url is not None:
        return {"type": "url", "url": url}
    if file_id is not None:
        _file_id_note(file_id, hint, path, ctx)
        return {"type": "file", "file_id": file_id}
    raise MissingFieldError(path, "the part has no data, url or file id")


def file_ref_parse(value: Any, path: Any) -> tuple[Any, Any]:
    """(file_id, hint): a provider file id; the hint says it came from this provider."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a file id string, got {_json_type(value)}")
    return value, "own"


def file_ref_render(file_id: Any, hint: Any, path: Any, ctx: Context) -> Any:
    _file_id_note(file_id, hint, path, ctx)
    return file_id


_FILE_SIGNATURES = ((b"%PDF-", "application/pdf"),)

# media types of the document extensions the providers take (Anthropic, Bedrock, Gemini, Mistral)
_FILE_EXTENSIONS = {
    "pdf": "application/pdf", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv",
    "html": "text/html", "htm": "text/html", "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def sniff_file_type(data: str) -> Any:
    """The media type the first bytes of base64 file data show (a PDF), or None."""
    raw = _first_bytes(data)
    if raw is None:
        return None
    for signature, media_type in _FILE_SIGNATURES:
        if raw.startswith(signature):
            return media_type
    return None


def url_file_type(url: str) -> Any:
    """The media type a URL's path shows by its extension (``.../report.pdf``), or None."""
    name = url.partition("?")[0].partition("#")[0].rpartition("/")[2]
    stem, dot, ext = name.rpartition(".")
    return _FILE_EXTENSIONS.get(ext.lower()) if dot and stem else None


def file_data_parse(value: Any, path: Any) -> tuple[Any, Any, Any]:
    """(media_type, data, hint) of file data given as a data: URL or as bare base64 (hint "raw",
    its media type read from the bytes)."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    if value.startswith("data:"):
        head, sep, data = value.partition(",")
        if sep and head.endswith(";base64"):
            return head[5:-7] or None, data, None
    return sniff_file_type(value), value, "raw"


def file_data_render(media_type: Any, data: Any, hint: Any) -> Any:
    if data is None:
        return None
    if hint == "raw":
        return data
    return f"data:{media_type or 'application/octet-stream'};base64,{data}"


def file_data_or_url_parse(value: Any, path: Any) -> tuple[Any, Any, Any, Any]:
    """(url, media_type, data, hint): file_data, or an http(s) URL (hint "url", its media type read
    from the file extension)."""
    if type(value) is str and value.startswith(("https://", "http://")):
        return value, url_file_type(value), None, "url"
    return (None, *file_data_parse(value, path))


def file_data_or_url_render(url: Any, media_type: Any, data: Any, hint: Any) -> Any:
    """A URL only where the same-provider input had it in file_data; else as file_data."""
    if data is None and hint == "url":
        return url
    return file_data_render(media_type, data, hint)


def optional_data_url_render(url: Any, media_type: Any, data: Any) -> Any:
    """data_url for a part that may be given by file id instead (nothing is sent then)."""
    if data is not None:
        return f"data:{media_type or 'application/octet-stream'};base64,{data}"
    return url


def bytes_source_parse(value: Any, path: Any) -> tuple[Any, Any, Any]:
    """(url, data, hint) of a one-key source union: bytes, s3Location or text (others: hint only)."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected a source object, got {_json_type(value)}")
    if "bytes" in value:
        data = value["bytes"]
        if type(data) is not str:
            raise WrongTypeError((path, "bytes"), f"expected base64 text, got {_json_type(data)}")
        return None, data, None
    if "text" in value:
        text = value["text"]
        if type(text) is not str:
            raise WrongTypeError((path, "text"), f"expected a string, got {_json_type(text)}")
        import base64

        return None, base64.b64encode(text.encode("utf-8")).decode("ascii"), "text"
    location = value.get("s3Location")
    if type(location) is dict and type(location.get("uri")) is str:
        rest = {k: v for k, v in location.items() if k != "uri"}
        return location["uri"], None, ({"s3Location": rest} if rest else None)
    return None, None, {"source": value}


def bytes_source_carried(hint: Any) -> dict | None:
    """What bytes_source's hint keeps that the IR has no place for: the keys of an s3Location beside
    its uri (``bucketOwner``, the account that owns the bucket). (Another kind of source leaves the
    part without data or url: dropped whole, and reported so.)"""
    if type(hint) is dict and type(hint.get("s3Location")) is dict:
        return {f"s3Location.{k}": v for k, v in hint["s3Location"].items()} or None
    return None


def bytes_source_render(url: Any, data: Any, hint: Any, path: Any) -> Any:
    if type(hint) is dict and "source" in hint:
        return hint["source"]
    if data is not None:
        if hint == "text":
            import base64
            import binascii

            try:
                return {"text": base64.b64decode(data, validate=True).decode("utf-8")}
            except (binascii.Error, ValueError):
                raise WrongTypeError(path, "text source data is not base64 of UTF-8 text") from None
        return {"bytes": data}
    if url is not None:
        return {"s3Location": {"uri": url, **(hint["s3Location"] if type(hint) is dict and "s3Location" in hint else {})}}
    raise MissingFieldError(path, "the part has no data or url")


# --- reasoning -------------------------------------------------------------------------------------


def signature_render(value: Any, verifier: Any, family: str, path: Any, ctx: Context) -> Any:
    """signature, IR → wire: a signature (or encrypted reasoning) goes only to providers of the
    family that issued it; any other would reject it or ignore it, so it is dropped and reported."""
    if value is None:
        return None
    if verifier == family:
        return value
    ctx.lose(path, f"{ctx.provider} cannot verify a signature issued by {verifier or 'an unknown provider'}; dropped")
    return None


def call_signature_render(value: Any, verifier: Any, family: str, dummy: Any, path: Any, ctx: Context) -> Any:
    """call_signature, IR → wire: the call's own signature for its family (else dropped, reported);
    without one, ``dummy`` when no earlier call of the same message was signed."""
    message = path[0][0] if type(path) is tuple and type(path[0]) is tuple else None  # (((parts), j), key)
    if value is not None and verifier == family:
        if ctx.signed is None:
            ctx.signed = set()
        ctx.signed.add(message)
        return value
    sent = signature_render(value, verifier, family, path, ctx)
    if sent is None and dummy is not None and (ctx.signed is None or message not in ctx.signed):
        ctx.assume(path, f"model {ctx.model!r} on {ctx.provider}: a call without a thought signature of its own gets the documented dummy {dummy!r}")
        return dummy
    return sent


def summary_parts_parse(value: Any, path: Any, type_: str) -> tuple[Any, Any]:
    """summary_parts, wire → IR: (text, hint). The texts of ``[{type: TYPE, text}]`` joined by a blank
    line; the hint keeps the split when there were several parts (or none)."""
    items = expect_list(value, path)
    texts = []
    for i, item in enumerate(items):
        item = expect_object(item, (path, i))
        if item.get("type") != type_:
            raise UnknownVariantError(((path, i), "type"), f"expected type {type_!r}, got {item.get('type')!r}")
        text = item.get("text")
        if type(text) is not str:
            raise (missing(((path, i), "text")) if text is None else WrongTypeError(((path, i), "text"), f"expected a string, got {_json_type(text)}"))
        if len(item) != 2:
            raise UnknownVariantError((path, i), f"unexpected keys {sorted(set(item) - {'type', 'text'})!r} in a {type_} part")
        texts.append(text)
    if len(texts) == 1:
        return texts[0], None
    return ("\n\n".join(texts) if texts else None), texts


def summary_parts_render(text: Any, hint: Any, type_: str) -> list:
    if text is None:
        return []
    if type(hint) is list and "\n\n".join(hint) == text and hint:
        return [{"type": type_, "text": t} for t in hint]
    return [{"type": type_, "text": text}]


def reasoning_text_parse(value: Any, path: Any) -> list:
    """reasoning_text, wire → IR: a message's reasoning string is one ReasoningPart."""
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    return [ReasoningPart(text=value)]


def reasoning_text_render(parts: Any, path: Any, ctx: Context) -> Any:
    """reasoning_text, IR → wire: the text of the message's reasoning parts, joined by a blank line."""
    texts = []
    for i, part in enumerate(parts or ()):
        if part.text is None:
            ctx.lose(path, f"{ctx.provider} has no place for reasoning without text (redacted or encrypted); dropped")
            continue
        if part.signature is not None or part.data is not None:
            ctx.lose(path, f"{ctx.provider} has no place for a reasoning signature or encrypted reasoning; dropped")
        carried_unplaced(part.provider_data, (path, i), ctx)  # (one string holds nothing else)
        texts.append(part.text)
    return "\n\n".join(texts) if texts else None


# --- structured results (MCP CallToolResult: content blocks beside structuredContent) -----------


def structured_content_parse(value: Any, path: Any) -> Any:
    """structured_content: the structured value is an object (MCP `structuredContent`)."""
    if type(value) is not dict:
        raise WrongTypeError(path, f"expected an object, got {_json_type(value)}")
    return value


def structured_content_render(result: Any) -> Any:
    """Only an object result is structured content; any other result is content blocks only."""
    return result if type(result) is dict else None


def _same_json(text: str, value: Any) -> bool:
    """Is ``text`` the JSON text of ``value`` (in any spelling)?"""
    try:
        return json.loads(text) == value
    except ValueError:
        return False


def content_result_parse(value: Any, path: Any, ctx: Context, part_to_ir: Any, structured: Any) -> tuple[Any, Any, Any]:
    """content_result: (result, parts, hint) of a list of content blocks beside a structured value."""
    if type(value) is not list:
        raise WrongTypeError(path, f"expected an array of content blocks, got {_json_type(value)}")
    parts = [p for p in (part_to_ir(item, (path, i), ctx) for i, item in enumerate(value)) if p is not None]
    single = len(parts) == 1 and type(parts[0]) is TextPart and _plain(parts[0])
    if structured is None:
        if single:
            return parts[0].text, None, None
        return None, (parts or None), None
    if single and _same_json(parts[0].text, structured):  # the backwards-compatible JSON text of the value
        text = parts[0].text
        return structured, None, (None if text == _dumps(structured) else text)
    return structured, (parts or None), "apart"  # blocks that say something of their own


def content_result_render(result: Any, parts: list | None, hint: Any, path: Any, ctx: Context, part_from_ir: Any) -> list:
    blocks = [b for b in (part_from_ir(p, (path, i), ctx) for i, p in enumerate(parts or ())) if b is not None]
    if result is None or hint == "apart":
        return blocks
    if type(result) is str:
        text = result
    elif type(hint) is str and _same_json(hint, result):  # the duplicate's exact spelling
        text = hint
    else:
        text = _dumps(result)
    return [{"type": "text", "text": text}, *blocks]
