"""Value transforms of the spec vocabulary (spec/transforms.yaml documents each one).

Each function is small and called from generated code with constants from the spec. Parse-side
functions take the input ``path`` so errors point at the offending field.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.ir import Message, ProviderData, ProviderTool, TextPart

from .context import Context
from .errors import InvalidArgumentsError, MissingFieldError, UnknownVariantError, WrongTypeError
from .names import fit_name_parse, fit_render  # noqa: F401  (fit_id / fit_name, called as tw.*)
from .schema import from_openapi_schema, to_openapi_schema

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.loads
_JSONDecodeError = json.JSONDecodeError


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
                if _loads(raw) == arguments:
                    return raw
            except _JSONDecodeError:
                pass
    return _dumps(arguments)


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
    if parts:
        texts = [p.text for p in parts if type(p) is TextPart]
        if texts:
            if result is None:
                result = "".join(texts)
            else:
                ctx.lose(path, "tool result has both a result and text parts; the text parts are not sent")
    if type(result) is str and result[:1] == "{":
        # string-result providers (OpenAI, Anthropic) carry object results as JSON text
        try:
            parsed = _loads(result)
        except _JSONDecodeError:
            parsed = None
        if type(parsed) is dict:
            result = parsed
    if is_error:
        return {error_key: result}
    if type(result) is dict and not (len(result) == 1 and (key in result or error_key in result)):
        return result
    return {key: result}


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


def text_result_render(
    result: Any, is_error: bool, parts: list | None, prefix: str, hint: Any, path: str, ctx: Context
) -> Any:
    if parts:
        kinds = sorted({type(p).__name__ for p in parts})
        ctx.lose(path, f"tool result parts ({', '.join(kinds)}) cannot be sent; kept only the text result")
        texts = [p.text for p in parts if type(p) is TextPart]
        if result is None and texts:
            result = "".join(texts)
    if result is None:
        result = ""
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
    if all(type(p) is TextPart and p.provider_data is None for p in parts):
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
    if len(parts) == 1 and type(parts[0]) is TextPart and parts[0].provider_data is None:
        return parts[0].text, None, "blocks"
    return None, parts, None


def block_result_render(
    result: Any, parts: list | None, hint: Any, path: str, ctx: Context, part_from_ir: Any
) -> Any:
    if parts:
        blocks = [part_from_ir(p, (path, i), ctx) for i, p in enumerate(parts)]
        if result is not None:
            blocks.insert(0, {"type": "text", "text": result_to_text(result)})
        return blocks
    if result is None:
        return None if hint == "absent" else ""
    text = result_to_text(result)
    if hint == "blocks":
        return [{"type": "text", "text": text}]
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
    single_text = len(parts) == 1 and type(parts[0]) is TextPart and parts[0].provider_data is None
    return parts, ("parts" if single_text and form == "string" else None)


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
        if type(part) is TextPart and part.provider_data is None:
            return part.text
    out = []
    for i, part in enumerate(parts):
        item = part_from_ir(part, (path, i), ctx)
        if item is not None:
            out.append(item)
    return out


def _joined_text(parts: list, path: Any, ctx: Context) -> str:
    """form `text`: the content can only be one string (OpenAI ChatCompletionMessage.content)."""
    texts = []
    for i, part in enumerate(parts):
        if type(part) is TextPart:
            texts.append(part.text)
        else:
            ctx.lose((path, i), f"{ctx.provider} takes only text here; a {type(part).__name__} is dropped")
    return "".join(texts)


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


def extra_fields(obj: dict, known: frozenset) -> dict | None:
    """Wire keys the spec does not map (carried through the IR, never dropped silently)."""
    if known.issuperset(obj):
        return None
    return {k: v for k, v in obj.items() if k not in known}


def restore(out: dict, pd: Any, provider: str, path: str, ctx: Context) -> None:
    """Put back the fields a same-provider payload carried; report them for another provider."""
    fields = pd.fields
    if not fields:
        return
    if pd.provider == provider:
        for key, value in fields.items():
            target = out
            if "." in key and type(value) is dict:
                # nested unknown keys, stored under the dotted path of their object
                for seg in key.split("."):
                    target = target[int(seg)] if seg.isdigit() and type(target) is list else target.setdefault(seg, {})
                target.update(value)
                continue
            current = out.get(key)
            if type(current) is dict and type(value) is dict and key in out:
                merged = dict(current)
                merged.update(value)
                out[key] = merged
            else:
                out[key] = value
    else:
        lost = sorted(k for k, v in fields.items() if v is not None)
        if lost:
            ctx.lose(path, f"{pd.provider} fields {', '.join(lost)} have no {provider} equivalent; dropped")


def hints_for(pd: Any, provider: str) -> dict | None:
    if pd is not None and pd.provider == provider:
        return pd.hints
    return None


def hint(hints: dict | None, key: str, value: Any) -> dict:
    if hints is None:
        return {key: value}
    hints[key] = value
    return hints


def set_hint(node: Any, provider: str, key: str, value: Any) -> None:
    pd = node.provider_data
    if pd is None:
        node.provider_data = ProviderData(provider=provider, hints={key: value})
    elif pd.hints is None:
        pd.hints = {key: value}
    else:
        pd.hints[key] = value


def hint_of(node: Any, provider: str, key: str) -> Any:
    pd = node.provider_data
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
    node: Any, flag_value: Any, path: Any, ctx: Context, from_ir: Any, flag: str, negate: bool, default: dict
) -> Any:
    out = from_ir(node, path, ctx) if node is not None else None
    if flag_value is None:
        return out
    if out is None:
        out = dict(default)
    else:
        out = dict(out)
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
    out = []
    for i, part in enumerate(message.parts):
        item = from_ir(part, (path, i), ctx)
        if item is not None:
            out.append(item)
    return out


def provider_tool_render(node: Any, provider: str, path: Any, ctx: Context) -> Any:
    """A provider-only tool goes back verbatim to its own provider and is reported anywhere else."""
    if node.provider == provider:
        return node.data
    ctx.lose(path, f"{node.provider} tool {node.data.get('type') or node.data.get('name')!r} has no {provider} equivalent; dropped")
    return None


def grouped_list_parse(value: Any, path: Any, ctx: Context, to_ir: Any, key: str, provider: str) -> list:
    out: list = []
    for i, group in enumerate(expect_list(value, path)):
        if type(group) is not dict:
            raise WrongTypeError((path, i), f"expected an object, got {_json_type(group)}")
        if key in group:
            items = expect_list(group[key], ((path, i), key))
            out.extend(to_ir(item, (((path, i), key), j), ctx) for j, item in enumerate(items))
            rest = {k: v for k, v in group.items() if k != key}
            if rest:
                out.append(ProviderTool(provider=provider, data=rest))
        else:
            out.append(ProviderTool(provider=provider, data=group))
    return out


def grouped_list_render(tools: Any, path: Any, ctx: Context, from_ir: Any, key: str, provider: str) -> Any:
    if tools is None:
        return None
    declarations = []
    others = []
    for i, tool in enumerate(tools):
        if type(tool) is ProviderTool:
            item = provider_tool_render(tool, provider, (path, i), ctx)
            if item is not None:
                others.append(item)
        else:
            declarations.append(from_ir(tool, (path, i), ctx))
    return ([{key: declarations}] if declarations else []) + others


def named_choice_parse(value: Any, path: Any, ctx: Context, to_ir: Any, names_key: str) -> tuple:
    value = expect_object(value, path)
    mode = value.get("mode")
    mode = to_ir(mode, (path, "mode"), ctx) if mode is not None else "auto"
    names = value.get(names_key)
    if names is None:
        return mode, None, None
    names = expect_list(names, (path, names_key))
    if mode == "required" and len(names) == 1:
        return "tool", names[0], None
    return mode, None, names


def named_choice_render(mode: Any, name: Any, allowed: Any, path: Any, ctx: Context, from_ir: Any, names_key: str) -> dict:
    if mode == "tool":
        return {"mode": from_ir("required", path, ctx), names_key: [name]}
    out = {"mode": from_ir(mode, path, ctx)}
    if allowed:
        out[names_key] = list(allowed)
    return out


def string_parse(value: Any, path: Any) -> str:
    if type(value) is not str:
        raise WrongTypeError(path, f"expected a string, got {_json_type(value)}")
    return value


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


def omitted_id_render(call_id: str, synthetic: bool, path: Any, ctx: Context) -> None:
    if not synthetic and call_id:
        ctx.lose(path, f"{ctx.provider} takes no call ids; calls and results pair by position")
    return None


def result_id_render(call_id: str, ctx: Context, hint: Any = None) -> Any:
    if not call_id or call_id in ctx.synthetic_ids:
        return "" if hint == "empty" else None
    return call_id


def single_message(messages: list, path: Any, ctx: Context) -> Any:
    """A response's output items as one assistant message (reasoning, text and calls in order)."""
    if len(messages) == 1:
        return messages[0]
    parts = [p for m in messages for p in m.parts]
    if any(m.role != "assistant" for m in messages):
        ctx.lose(path, "output items of other roles than assistant merged into the assistant message")
    return Message(role="assistant", parts=parts)


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
    return to_openapi_schema(schema, path, ctx.lose)
