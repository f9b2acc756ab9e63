"""Check wire payloads against the official SDKs' own type definitions.

``validate(provider, kind, payload)`` returns readable errors, each starting with the path of the
offending key (``[]``: valid). Payloads are validated from their JSON text, as they go on the wire.

Making the SDK types strict (pydantic 2.14):

* OpenAI / Anthropic requests are TypedDicts (``*CreateParamsNonStreaming``). Out of the box
  pydantic ignores unknown TypedDict keys and turns ``Iterable[X]`` into a lazy generator that
  validates nothing until consumed, so almost anything passes. While the adapters are built (once,
  at import), every TypedDict reachable from the root params gets ``__pydantic_config__ =
  {"extra": "forbid"}`` (under the SDK's own config) and an evaluated copy of its annotations in
  which ``Iterable[X]`` is ``List[X]``. In the same copy, response models that request unions also
  admit (an Anthropic ``ContentBlock`` sent back; they allow extra keys) get an ``AfterValidator``
  that fails on undeclared keys, and unions of TypedDicts that all require one ``Literal`` key with
  disjoint values (``type``, ``role``) become discriminated unions: same payloads accepted, but an
  error concerns one member instead of twenty. The core schema is compiled eagerly, so the SDK
  classes are restored right away and nothing else in the process sees the patch. Validation is
  strict (no "1024" → 1024), as these APIs are.
* OpenAI / Anthropic responses are pydantic models with ``extra="allow"``: the validated model tree
  is walked and every key in a ``__pydantic_extra__`` (a key the SDK does not declare) is an error.
* Gemini (and Vertex AI, same wire format): ``google.genai.types`` models already forbid unknown
  keys (``_common.BaseModel``: ``extra="forbid"``, camelCase aliases). The SDK has no model of the
  REST request body; spec/wire/families.yaml declares one from its part types (``derive.root_type``). ``CaseInSensitiveEnum._missing_``
  only *warns* on an unknown enum value and fabricates a member: fabricated members are located and
  reported, and any warning the SDK emits while validating is an error. Validation is lax here, as
  proto3 JSON (what the Gemini API speaks) accepts e.g. integers written as strings.

* Any other wire family of spec/wire/families.yaml with pydantic roots (Cohere v2 / v1) and no
  checker of its own: strict copies of those roots (sdk_pydantic_strict), see "every other wire
  family" below. Checkers are keyed by wire family (a provider's spec ``wire_types``);
  ``validate_family(family, kind, payload)`` checks a body of a family directly.

Errors of a failed union list every member; members that plainly are not the one meant (wrong tag
or wrong JSON kind) are dropped when another member remains (see ``_errors``).
"""

from __future__ import annotations

import collections.abc
import copy
import functools
import enum
import json
import re
import types
import typing
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Union

import typing_extensions
from google.genai import _common as genai_common
from google.genai import types as genai
from generator import derive
from generator.spec import load_spec
from sdk_pydantic_strict import errors as strict_errors, strict_model
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError
from typing_extensions import Annotated, NotRequired, ReadOnly, Required
from typing_inspection import typing_objects

from anthropic.types import Message, message_create_params
from openai.types.chat import ChatCompletion, completion_create_params
from openai.types.responses import Response, response_create_params

__all__ = ["validate", "validate_family", "SDK_TYPES", "SAME_WIRE_AS", "WIRE_FAMILY"]

# The SDK type each payload is checked against.
SDK_TYPES: dict[tuple[str, str], Any] = {
    ("openai_chat", "request"): completion_create_params.CompletionCreateParamsNonStreaming,
    ("openai_responses", "request"): response_create_params.ResponseCreateParamsNonStreaming,
    ("anthropic", "request"): message_create_params.MessageCreateParamsNonStreaming,
    ("openai_chat", "response"): ChatCompletion,
    ("openai_responses", "response"): Response,
    ("anthropic", "response"): Message,
    ("gemini", "response"): genai.GenerateContentResponse,
}


# --- strict TypedDicts ----------------------------------------------------------------------------

_QUALIFIERS = (Required, NotRequired, ReadOnly)
_MISSING = object()


class _StrictTypedDicts:
    """Makes every TypedDict reachable from the patched roots strict; ``restore()`` undoes it."""

    def __init__(self) -> None:
        # class → its own (__annotations__, __pydantic_config__)
        self.originals: dict[type, tuple[Any, Any]] = {}
        self.hints: dict[type, dict[str, Any]] = {}

    def patch(self, tp: Any) -> None:
        self._rewrite(tp)

    def restore(self) -> None:
        for cls, (annotations, config) in self.originals.items():
            cls.__annotations__ = annotations
            if config is not _MISSING:
                cls.__pydantic_config__ = config
            elif "__pydantic_config__" in cls.__dict__:
                del cls.__pydantic_config__

    def _typed_dict(self, cls: type) -> None:
        if cls in self.originals:
            return
        config = cls.__dict__.get("__pydantic_config__", _MISSING)
        self.originals[cls] = (cls.__dict__["__annotations__"], config)
        # Evaluate now (ForwardRefs carry their defining module), keeping Required/NotRequired.
        hints = typing_extensions.get_type_hints(cls, include_extras=True)
        self.hints[cls] = hints  # registered before recursing: TypedDicts can be recursive
        for name, annotation in hints.items():
            hints[name] = self._rewrite(annotation)
        cls.__annotations__ = hints
        # The SDK's own config wins: anthropic declares InputSchemaTyped (a JSON Schema)
        # extra="allow", and sets arbitrary_types_allowed where file objects are accepted.
        cls.__pydantic_config__ = ConfigDict(
            **{"extra": "forbid", **({} if config is _MISSING else config)}
        )

    def _rewrite(self, tp: Any) -> Any:
        if typing_extensions.is_typeddict(tp):
            self._typed_dict(tp)
            return tp
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            # Request unions also admit response models (a ContentBlock sent back), which allow
            # extra keys: make such a member fail, like a TypedDict, on keys it does not declare.
            return Annotated[tp, AfterValidator(_no_undeclared_keys)]
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is None or typing_objects.is_literal(origin):
            return tp
        if typing_objects.is_annotated(origin):
            return Annotated[(self._rewrite(args[0]), *tp.__metadata__)]
        new_args = tuple(self._rewrite(a) for a in args)
        if origin is collections.abc.Iterable:
            return List[new_args[0]]  # validated eagerly, item by item
        if typing_objects.is_union(origin) or origin is types.UnionType:
            return self._union(new_args)
        if origin in _QUALIFIERS:
            return origin[new_args[0]]
        if new_args == args:
            return tp
        return tp.copy_with(new_args) if hasattr(tp, "copy_with") else origin[new_args]

    def _union(self, members: tuple[Any, ...]) -> Any:
        typed_dicts = [m for m in members if typing_extensions.is_typeddict(m)]
        others = [m for m in members if not typing_extensions.is_typeddict(m)]
        tag = self._tag(typed_dicts) if len(typed_dicts) > 1 else None
        if tag is None:
            return Union[members]
        tagged = Annotated[Union[tuple(typed_dicts)], Field(discriminator=tag)]
        return Union[(*others, tagged)] if others else tagged

    def _tag(self, typed_dicts: list[type]) -> Optional[str]:
        """A key every member requires as a Literal, with no value shared by two members."""
        literals = [self._required_literals(cls) for cls in typed_dicts]
        shared = set.intersection(*(set(x) for x in literals))
        for key in sorted(shared, key=lambda k: (k != "type", k)):  # "type" first
            values = [value for x in literals for value in x[key]]
            if len(values) == len(set(values)):
                return key
        return None

    def _required_literals(self, cls: type) -> dict[str, tuple]:
        out = {}
        for name, annotation in self.hints[cls].items():
            qualifier = typing.get_origin(annotation)
            if qualifier is Required or (cls.__total__ and qualifier is not NotRequired):
                inner = typing.get_args(annotation)[0] if qualifier in _QUALIFIERS else annotation
                if typing_objects.is_literal(typing.get_origin(inner)):
                    out[name] = typing.get_args(inner)
        return out


# A request body with ``"stream": true`` is the SDK's *Streaming params (the same body otherwise).
STREAMING_REQUEST_TYPES: dict[str, Any] = {
    "openai_chat": completion_create_params.CompletionCreateParamsStreaming,
    "openai_responses": response_create_params.ResponseCreateParamsStreaming,
    "anthropic": message_create_params.MessageCreateParamsStreaming,
}


def _request_adapters() -> dict[str, TypeAdapter]:
    roots = {p: t for (p, k), t in SDK_TYPES.items() if k == "request" and p != "gemini"}
    roots.update({f"{p}+stream": t for p, t in STREAMING_REQUEST_TYPES.items()})
    strict = _StrictTypedDicts()
    try:
        for root in roots.values():
            strict.patch(root)
        # TypeAdapter compiles the validator now; it does not look at the classes again.
        adapters = {provider: TypeAdapter(root) for provider, root in roots.items()}
    finally:
        strict.restore()
    # A deferred (incomplete) adapter would be built later, from the restored, lax classes.
    assert all(adapter.pydantic_complete for adapter in adapters.values())
    return adapters


# --- Gemini ---------------------------------------------------------------------------------------


# The REST ``models.generateContent`` body, from the SDK's own part types
# (https://ai.google.dev/api/generate-content#request-body; ``extra="forbid"``, camelCase): the same
# model the generator derives Gemini's wire schema from (built from spec/wire/families.yaml).
GeminiGenerateContentRequest = derive.root_type("gemini", "request")


SDK_TYPES[("gemini", "request")] = GeminiGenerateContentRequest

# GenerateContentResponse fields the SDK fills in itself; they are not part of the REST body.
_GEMINI_SDK_ONLY = {
    "sdkHttpResponse",
    "sdk_http_response",
    "automaticFunctionCallingHistory",
    "automatic_function_calling_history",
    "parsed",
}


def _gemini_checks(model: BaseModel, payload: Any) -> tuple[list[str], set[str]]:
    """Errors the SDK does not raise, and the SDK warnings they account for."""
    errors, explained = [], set()
    if isinstance(model, genai.GenerateContentResponse):
        errors += [
            f"{key}: SDK-side field, not in the REST response"
            for key in payload
            if key in _GEMINI_SDK_ONLY
        ]
    for path, value in _walk(model, ""):
        if isinstance(value, enum.Enum) and value._name_ not in type(value).__members__:
            # The message CaseInSensitiveEnum._missing_ warns with.
            explained.add(f"{value._value_} is not a valid {type(value).__name__}")
            errors.append(
                f"{path}: {value._value_!r} is not a valid {type(value).__name__} "
                f"(expected one of {', '.join(type(value).__members__)})"
            )
        # The SDK types Content.role as str; the API reference documents the two values it takes.
        if isinstance(value, genai.Content) and value.role not in (None, "user", "model"):
            errors.append(f"{path}.role: {value.role!r}: Content.role must be 'user' or 'model'")
    return errors, explained


# --- validation -----------------------------------------------------------------------------------


def _walk(node: Any, path: str):
    """(path, value) for every value in a validated model tree; paths use wire (alias) names."""
    yield path, node
    if isinstance(node, BaseModel):
        for name, field in type(node).model_fields.items():
            value = getattr(node, name)
            if value is not None:
                yield from _walk(value, f"{path}.{field.alias or name}".lstrip("."))
    elif isinstance(node, (list, tuple)):
        for i, item in enumerate(node):
            yield from _walk(item, f"{path}[{i}]")
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from _walk(item, f"{path}.{key}".lstrip("."))


def _no_undeclared_keys(model: BaseModel) -> BaseModel:
    if errors := _undeclared_keys(model):
        raise PydanticCustomError("undeclared_keys", "{errors}", {"errors": "; ".join(errors)})
    return model


def _undeclared_keys(model: BaseModel) -> list[str]:
    return [
        f"{path + '.' if path else ''}{key}: key not declared by {type(node).__name__}"
        for path, node in _walk(model, "")
        if isinstance(node, BaseModel)
        for key in (node.__pydantic_extra__ or {})
    ]


# Keys whose Literal value tells union members apart. (OpenAI's response models declare their
# discriminators in SDK-only metadata that pydantic does not see: their unions are "smart".)
_TAG_KEYS = {"type", "role", "object"}


def _errors(exc: ValidationError, payload: Any) -> list[str]:
    """Readable errors, each with its path in the payload.

    A failed union reports every member. Members that plainly are not the one the payload meant
    (the tag key does not match, the value is the wrong JSON kind, or the member is itself a union
    of such) are dropped, unless every member of the union is; what remains is deduplicated."""
    located = [
        (error, *_split_loc(payload, error["loc"], error["type"] == "missing"))
        for error in exc.errors()
    ]

    members: dict[tuple, set] = {}  # union (loc up to its member label) → member labels
    rejected: set[tuple] = set()  # member (loc up to and including its label)
    for error, _, labels in located:
        loc, kind = error["loc"], error["type"]
        for i in labels:
            members.setdefault(loc[:i], set()).add(loc[i])
        if labels and labels[-1] == len(loc) - 1 and kind.endswith("_type"):
            rejected.add(loc)
        if (
            labels
            and labels[-1] == len(loc) - 2
            and loc[-1] in _TAG_KEYS
            and kind == "literal_error"
        ):
            rejected.add(loc[:-1])
    dead = set()  # unions all of whose members are rejected: nothing to choose from, keep them all
    for union in sorted(members, key=len, reverse=True):  # innermost first
        if all(union + (m,) in rejected for m in members[union]):
            dead.add(union)
            rejected.add(union)  # a member that is itself a dead union is rejected in its parent

    via: dict[str, list[str]] = {}
    for error, path, labels in located:
        loc = error["loc"]
        if any(loc[: i + 1] in rejected and loc[:i] not in dead for i in labels):
            continue
        text = f"{path or '<root>'}: {error['msg']}"
        if error["type"] not in ("missing", "extra_forbidden", "undeclared_keys"):
            text += f" (got {json.dumps(error['input'], default=str)[:80]})"
        # Class names and tag values say which member an error is about; drop generic type labels.
        names = [_label(loc[i]) for i in labels if _label(loc[i])]
        via.setdefault(text, []).append(" > ".join(names))
    return [text + _via(names) for text, names in via.items()]


def _split_loc(payload: Any, loc: tuple, missing: bool) -> tuple[str, list[int]]:
    """The payload path of an error, and which loc items are union-member labels pydantic inserted.
    An item can read as both (tag "text" of a text block that has a "text" key): the reading that
    follows the payload furthest wins. ``missing``: the last item is a key the payload lacks."""
    memo: dict[tuple[int, int], tuple[int, str, list[int]]] = {}

    def best(node: Any, i: int) -> tuple[int, str, list[int]]:  # (keys followed, path, labels)
        if i == len(loc):
            return 0, "", []
        if (id(node), i) not in memo:
            item, options = loc[i], []
            if isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
                n, path, labels = best(node[item], i + 1)
                options.append((n + 1, f"[{item}]{path}", labels))
            elif (
                isinstance(node, dict)
                and isinstance(item, str)
                and (item in node or missing and i == len(loc) - 1)
            ):
                n, path, labels = best(node.get(item), i + 1)
                options.append((n + 1, f".{item}{path}", labels))
            n, path, labels = best(node, i + 1)
            options.append((n, path, [i, *labels]))
            memo[id(node), i] = max(options, key=lambda option: option[0])  # ties: the key reading
        return memo[id(node), i]

    _, path, labels = best(payload, 0)
    return path.lstrip("."), labels


def _label(item: Any) -> str:
    """A union-member label as a name: "ToolUseBlock" for "function-after[f(), ToolUseBlock]", and
    nothing for generic ones such as "list[union[...]]"."""
    if match := re.fullmatch(r"function-\w+\[[^,\[\]]*, (\w+)\]", str(item)):
        return match[1]
    return "" if "[" in str(item) else str(item)


def _via(names: list[str]) -> str:
    names = list(dict.fromkeys(n for n in names if n))
    if len(names) > 6:
        names = [*names[:5], f"… {len(names) - 5} more"]
    return f" [via {' | '.join(names)}]" if names else ""


_REQUEST_ADAPTERS = _request_adapters()

# The wire family each provider speaks: its spec's ``wire_types`` (a flavour inherits its parent's:
# vertex and gemini_openapi are Gemini REST JSON, google-genai's types serve them all). Checkers are
# keyed by wire family, so a provider whose spec says ``wire_types: <family>`` needs no code here.
_SPEC_ROOT = Path(__file__).resolve().parents[1]
_SPEC, _spec_errors = load_spec(_SPEC_ROOT)
assert _SPEC is not None, [str(e) for e in _spec_errors.items]
WIRE_FAMILY = {p.name: p.wire_types for p in _SPEC.providers}
SAME_WIRE_AS = {name: family for name, family in WIRE_FAMILY.items() if family != name}


def _validate(family: str, kind: str, text: str, streamed: bool) -> Any:
    if family == "gemini":
        # Lax: proto3 JSON, which the Gemini API speaks, accepts e.g. integers written as strings.
        return SDK_TYPES[family, kind].model_validate_json(text)
    if kind == "request":
        streamed = streamed and family in STREAMING_REQUEST_TYPES
        adapter = _REQUEST_ADAPTERS[f"{family}+stream" if streamed else family]
        return adapter.validate_json(text, strict=True)
    return SDK_TYPES[family, kind].model_validate_json(text, strict=True)


# Request fields a provider documents beyond its family's wire, checked here instead of by the
# family's SDK types (which forbid them), each against the type its API reference gives. Only
# fields the provider's spec maps are listed; the provider's own SDK types check the rest
# (tests/test_sdk_fireworks.py).
EXTRA_REQUEST_FIELDS: dict[str, dict[str, Any]] = {
    "fireworks": {
        # https://docs.fireworks.ai/api-reference/post-chatcompletions (ChatCompletionRequest.top_k:
        # integer, "Must be between 0 and 100"); fireworks-ai CompletionCreateParamsBase.top_k
        "top_k": Annotated[Optional[int], Field(ge=0, le=100)],
    },
}

# Response fields the same way: Groq's complete response carries x_groq {id, seed, ...} and
# usage_breakdown beside OpenAI's ChatCompletion (groq-python groq.types.chat.ChatCompletion), as its
# stream's chunks do; checked against groq-python's own types for them.
def _groq_response_fields() -> dict[str, Any]:
    try:
        from groq.types.chat.chat_completion import UsageBreakdown, XGroq
    except ImportError:  # (without groq-python, OpenAI's types check the rest and these are errors)
        return {}
    return {"x_groq": XGroq, "usage_breakdown": Optional[UsageBreakdown]}


EXTRA_RESPONSE_FIELDS: dict[str, dict[str, Any]] = {"groq": _groq_response_fields()}
_EXTRA_FIELD_ADAPTERS = {
    (provider, kind, key): TypeAdapter(tp)
    for kind, table in (("request", EXTRA_REQUEST_FIELDS), ("response", EXTRA_RESPONSE_FIELDS))
    for provider, fields in table.items() for key, tp in fields.items()
}


def _extra_field_errors(provider: str, payload: dict, kind: str = "request") -> tuple[dict, list[str]]:
    """The payload without the provider's declared extra request (or response) fields, and their errors."""
    table = EXTRA_REQUEST_FIELDS if kind == "request" else EXTRA_RESPONSE_FIELDS
    extra = table[provider].keys() & payload.keys()
    errors = []
    for key in sorted(extra):
        try:
            _EXTRA_FIELD_ADAPTERS[provider, kind, key].validate_python(payload[key], strict=True)
        except ValidationError as exc:
            errors += [f"{key}: {e['msg']} (got {json.dumps(e['input'], default=str)[:80]})" for e in exc.errors()]
    return {k: v for k, v in payload.items() if k not in extra}, errors


def validate(provider: str, kind: str, payload: Any) -> list[str]:
    """Errors of ``payload``, a ``kind`` ("request", "response") body of ``provider``."""
    family = SAME_WIRE_AS.get(provider, provider)
    if (family, kind) not in SDK_TYPES:
        raise ValueError(f"no SDK type known for a {provider} {kind}")
    extra_errors = []
    if kind == "request" and provider in EXTRA_REQUEST_FIELDS and isinstance(payload, dict):
        payload, extra_errors = _extra_field_errors(provider, payload)
    elif kind == "response" and provider in EXTRA_RESPONSE_FIELDS and isinstance(payload, dict):
        payload, extra_errors = _extra_field_errors(provider, payload, "response")
    try:
        text = json.dumps(payload, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return [f"<root>: not JSON: {exc}"]
    errors, explained = extra_errors, set()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            streamed = isinstance(payload, dict) and payload.get("stream") is True
            result = _validate(family, kind, text, streamed)
        except ValidationError as exc:
            errors += _errors(exc, payload)
        else:
            if family == "gemini":
                gemini_errors, explained = _gemini_checks(result, payload)
                errors += gemini_errors
            elif isinstance(result, BaseModel):
                errors += _undeclared_keys(result)
    # A warning is the SDK accepting something it does not know (CaseInSensitiveEnum): an error.
    return errors + [
        f"<root>: SDK warning: {w.message}" for w in caught if str(w.message) not in explained
    ]


# --- providers with a checker module of their own (appended per provider) ------------------------
#
# Mistral: the mistralai SDK's pydantic models ignore unknown keys and have open enums and open
# content-chunk unions; sdk_validation_mistral makes them strict (see its docstring).

from sdk_validation_mistral import MISTRAL_SDK_TYPES, validate_mistral  # noqa: E402

CHECKERS = {"mistral": validate_mistral}
SDK_TYPES.update({("mistral", kind): tp for kind, tp in MISTRAL_SDK_TYPES.items()})
_validate_with_sdk_types = validate


def validate(provider: str, kind: str, payload: Any) -> list[str]:  # noqa: F811 (extends the dispatch above)
    """Errors of ``payload``, a ``kind`` ("request", "response") body of ``provider``."""
    checker = CHECKERS.get(SAME_WIRE_AS.get(provider, provider))
    if checker is not None:
        return checker(kind, payload)
    return _validate_with_sdk_types(provider, kind, payload)

# Ollama (/api/chat): the SDK's pydantic models ignore unknown keys, take any mapping for messages /
# options and type enumerations as str; sdk_validation_ollama makes them strict (see its docstring).

from sdk_validation_ollama import OLLAMA_SDK_TYPES, validate_ollama  # noqa: E402

CHECKERS.update(ollama=validate_ollama)
SDK_TYPES.update({("ollama", kind): tp for kind, tp in OLLAMA_SDK_TYPES.items()})

# Bedrock Converse: boto3 has no typed models; sdk_validation_bedrock_converse walks botocore's
# bedrock-runtime service model over the JSON body (enums, lengths and patterns included).

from sdk_validation_bedrock_converse import BEDROCK_SDK_TYPES, validate_bedrock_converse  # noqa: E402

CHECKERS["bedrock_converse"] = validate_bedrock_converse
SDK_TYPES.update({("bedrock_converse", kind): tp for kind, tp in BEDROCK_SDK_TYPES.items()})

# --- every other wire family: its pydantic roots from spec/wire/families.yaml, made strict ---------
#
# A wire family of spec/wire/families.yaml whose roots are pydantic models and that has no checker
# above (Cohere v2 and v1: the SDK models keep unknown keys, ``extra="allow"``, and have open enums)
# is validated through strict copies (sdk_pydantic_strict.strict_model: unknown keys and unknown
# enum values are errors, the SDK's discriminated unions are validated as such) of the very types
# generator/derive.py derives the family's schema from (``derive.root_type``: imported or built once,
# from the YAML — e.g. the keyword arguments of ``cohere.v2.client.V2Client.chat`` plus ``stream``).
# A new family declared there is validated with no code here.

KINDS = ("request", "response")


def _pydantic_roots(family: str) -> Optional[dict[str, type]]:
    """The family's root types when they all are pydantic models (None otherwise)."""
    if derive.families()[family].roots is None:
        return None
    roots = {kind: derive.root_type(family, kind) for kind in KINDS}
    return roots if all(isinstance(t, type) and issubclass(t, BaseModel) for t in roots.values()) else None


@functools.lru_cache(maxsize=None)
def _strict_roots(family: str) -> dict[str, type]:
    return {kind: strict_model(tp) for kind, tp in SDK_TYPES_OF[family].items()}


def _generic_checker(family: str, kind: str, payload: Any) -> list[str]:
    return strict_errors(_strict_roots(family)[kind], payload)


def validate_family(family: str, kind: str, payload: Any) -> list[str]:
    """Errors of ``payload``, a ``kind`` ("request", "response") body of the wire family ``family``
    (a name of spec/wire/families.yaml), with the family's checker."""
    checker = CHECKERS.get(family)
    if checker is not None:
        return checker(kind, payload)
    if (family, kind) not in SDK_TYPES:
        raise ValueError(f"no SDK type known for a {family} {kind}")
    return _validate_with_sdk_types(family, kind, payload)


#: Root types of the families validated generically, by family.
SDK_TYPES_OF: dict[str, dict[str, type]] = {}
for _family in derive.families():
    if _family in CHECKERS or any((_family, kind) in SDK_TYPES for kind in KINDS):
        continue  # a checker of its own (above)
    if (_roots := _pydantic_roots(_family)) is None:
        continue  # TypedDict or service-model roots need a checker of their own
    SDK_TYPES_OF[_family] = _roots
    SDK_TYPES.update({(_family, kind): tp for kind, tp in _roots.items()})
    CHECKERS[_family] = functools.partial(_generic_checker, _family)

# --- flavours: a provider spec that extends another (derived from the spec, no per-provider list) ---
#
# A flavour's body is its family's body with the differences its spec states; the family's SDK types
# check everything else. Before validating, ``flavour_body`` undoes each stated difference, all read
# from the provider spec (generator.spec.load_spec: the merged child spec and its family's root spec):
#
# * outside-body keys — a ``cannot_express`` entry with ``outside_body`` and ``wire: [<codec>.<key>]``
#   on the request / response codec (Anthropic on Bedrock / Vertex AI: the model is the URL) names a
#   key the family requires that the flavour leaves out: a placeholder string is put there;
# * flavour constants — a ``const`` rule of the flavour's request / response codec for a key the
#   family's codec has no rule for (``anthropic_version: bedrock-2023-05-31``): the value must be that
#   constant (else an error), then the key is removed;
# * flavour fields — a top-level rule with a ``type`` for a key the family's wire schema does not have
#   (Anthropic on Bedrock's temperature / top_p / top_k): the value must be of that JSON type, then the
#   key is removed (keys with a hand-written check in EXTRA_REQUEST_FIELDS are left to it);
# * declared extras — a codec's ``extra: [...]`` (keys the provider documents beyond the family's
#   schema: Azure's ``prompt_filter_results``, OpenRouter's ``usage.cost``; a family's own provider
#   too: Gemini's OpenAI-compatible ``extra_content`` on openai_chat tool calls): removed wherever that
#   codec's values sit in the body (found by following the rules' codec / list_of / conversation and
#   union variants from the root), unchecked — the spec carries them verbatim, as opaque keys;
# * enum values of the flavour's own — a value of an enum codec's parse table that the family's codec
#   does not parse (DeepSeek's ``insufficient_system_resource``, OpenRouter's ``error`` finish reason)
#   is checked as the value the family renders for the same IR value (error → "stop").

_SPECS = {p.name: p for p in _SPEC.providers}
OUTSIDE_BODY_PLACEHOLDER = "<outside the body>"


def _codec_paths(spec: Any, name: str, prefix: tuple, out: dict, depth: int = 0) -> None:
    """Where the values of codec ``name`` sit in a body: paths of keys, ``*`` for list items."""
    codec = spec.codecs.get(name)
    if codec is None or depth > 12 or prefix in out.setdefault(name, set()):
        return
    out[name].add(prefix)
    if codec.kind == "union":
        for variant in codec.variants:
            for entry in variant.get("codecs") or [variant]:
                if isinstance(entry, dict) and entry.get("codec"):
                    _codec_paths(spec, entry["codec"], prefix, out, depth + 1)
        if codec.scalar and codec.scalar.get("codec"):
            _codec_paths(spec, codec.scalar["codec"], prefix, out, depth + 1)
    elif codec.kind == "conversation":
        if codec.element:
            _codec_paths(spec, codec.element, prefix, out, depth + 1)
    for rule in codec.rules:
        at = prefix + tuple("*" if s.isdigit() else s for s in rule.segments)
        if rule.codec:  # a transform's codec may take the value or each item of it
            _codec_paths(spec, rule.codec, at, out, depth + 1)
            _codec_paths(spec, rule.codec, at + ("*",), out, depth + 1)
        if rule.list_of:
            _codec_paths(spec, rule.list_of, at + ("*",), out, depth + 1)
        if rule.conversation:
            _codec_paths(spec, rule.conversation, at + ("*",), out, depth + 1)


def _at(node: Any, path: tuple):
    """The containers (dicts) a path leads to, and the last key."""
    nodes = [node]
    for seg in path[:-1]:
        nxt = []
        for n in nodes:
            if seg == "*" and isinstance(n, list):
                nxt += n
            elif isinstance(n, dict) and seg in n:
                nxt.append(n[seg])
        nodes = nxt
    return [n for n in nodes if isinstance(n, dict)], path[-1]


@dataclass
class FlavourDifferences:
    outside: list  # keys the family requires that the flavour takes outside the body
    consts: dict  # key → the flavour's constant
    typed: dict  # key → the JSON type of a field the family's schema does not have
    extra: list  # paths of declared extra keys
    enums: list  # (path, {flavour wire value: family wire value})


@functools.lru_cache(maxsize=None)
def _differences(provider: str, kind: str) -> Optional[FlavourDifferences]:
    spec = _SPECS.get(provider)
    if spec is None:
        return None
    if not spec.extends:  # a family's own provider: only its declared extras (openai_chat's extra_content)
        paths: dict = {}
        _codec_paths(spec, spec.request if kind == "request" else spec.response, (), paths)
        extra = [prefix + tuple("*" if s.isdigit() else s for s in key.split("."))
                 for name, prefixes in paths.items() for key in spec.codecs[name].extra for prefix in prefixes]
        return FlavourDifferences([], {}, {}, extra, []) if extra else None
    family = _SPECS[spec.family]
    root = spec.request if kind == "request" else spec.response
    codec, family_codec = spec.codecs[root], family.codecs.get(family.request if kind == "request" else family.response)
    family_wires = {r.wire for r in family_codec.rules} if family_codec else set()
    outside = []
    for entry in spec.cannot_express:
        if entry.get("outside_body"):
            wire = entry.get("wire") or []
            outside += [w.partition(".")[2] for w in ([wire] if isinstance(wire, str) else wire) if w.partition(".")[0] == root]
    consts = {r.wire: r.const for r in codec.rules if r.has_const and r.wire not in family_wires}
    schema = spec.wire_schema or {}
    known = set(schema.get("$defs", {}).get(schema.get("x-roots", {}).get(kind), {}).get("properties", {}))
    hand = EXTRA_REQUEST_FIELDS.get(provider, {}) if kind == "request" else {}
    typed = {
        r.wire: r.type
        for r in codec.rules
        if r.type and not r.has_const and "." not in r.wire and r.wire not in known and r.wire not in hand
    }
    paths: dict = {}
    _codec_paths(spec, root, (), paths)
    extra, enums = [], []
    for name, prefixes in paths.items():
        own, theirs = spec.codecs[name], family.codecs.get(name)
        for key in own.extra:
            if theirs is None or key not in theirs.extra:
                extra += [prefix + tuple("*" if s.isdigit() else s for s in key.split(".")) for prefix in prefixes]
        if own.kind == "enum" and theirs is not None and theirs.kind == "enum":
            table = {
                value: theirs.render_table[ir_value]
                for value, ir_value in own.parse_table.items()
                if value not in theirs.parse_table and ir_value in theirs.render_table
            }
            if table:
                enums += [(prefix, table) for prefix in prefixes]
    return FlavourDifferences(outside, consts, typed, extra, enums)


_JSON_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


def flavour_body(provider: str, kind: str, payload: Any) -> tuple[Any, list[str]]:
    """``payload`` as its family's SDK types take it (see above), and the errors of the flavour's own keys."""
    diff = _differences(provider, kind)
    if diff is None or not isinstance(payload, dict):
        return payload, []
    payload, errors = copy.deepcopy(payload), []
    for key in diff.outside:
        if key in payload:
            errors.append(f"{key}: {provider} takes it outside the body (spec cannot_express outside_body); not allowed in it")
        payload[key] = OUTSIDE_BODY_PLACEHOLDER
    for key, const in diff.consts.items():
        if key not in payload:
            errors.append(f"{key}: Field required ({provider} constant {const!r})")
        elif payload.pop(key) != const:
            errors.append(f"{key}: must be {const!r} for {provider}")
    for key, json_type in diff.typed.items():
        if key in payload and not _JSON_TYPES[json_type](value := payload.pop(key)):
            errors.append(f"{key}: Input should be of JSON type {json_type} for {provider} (got {json.dumps(value)[:80]})")
    for path in diff.extra:
        containers, key = _at(payload, path)
        for node in containers:
            node.pop(key, None)
    for path, table in diff.enums:
        containers, key = _at(payload, path)
        for node in containers:
            if isinstance(node.get(key), str) and node[key] in table:
                node[key] = table[node[key]]
    return payload, errors


def as_flavour(provider: str, kind: str, payload: Any) -> Any:
    """A ``kind`` body of ``provider``'s family as ``provider`` takes it: the outside-body keys left out,
    the flavour constants added (last, where the renderer writes them). The other differences (extra
    keys, enum values) are the flavour's own additions: a family body needs none of them."""
    diff = _differences(provider, kind)
    if diff is None or not isinstance(payload, dict):
        return payload
    return {**{k: v for k, v in payload.items() if k not in diff.outside}, **diff.consts}


_validate_family = validate


def validate(provider: str, kind: str, payload: Any) -> list[str]:  # noqa: F811 (extends the dispatch above)
    """Errors of ``payload``, a ``kind`` ("request", "response") body of ``provider``."""
    payload, errors = flavour_body(provider, kind, payload)
    return errors + _validate_family(provider, kind, payload)

# --- API rules beyond the SDK types ---------------------------------------------------------------
#
# What an API rejects although its SDK types accept it, per wire family, for request bodies; each
# rule cites the API's error. (Bedrock's are in sdk_validation_bedrock_converse.API_RULES.)


def _anthropic_text_blank(text: Any) -> bool:
    return isinstance(text, str) and not text.strip()


def _anthropic_request_rules(payload: Any) -> list[str]:
    """Anthropic Messages: text blocks must hold non-whitespace text wherever they are — message
    content (a string content is one text block), tool_result content, the system prompt (400
    "messages: text content blocks must contain non-whitespace text" / "... must be non-empty";
    anthropics/claude-code#23440, home-assistant/core#175637) — and every message but a final
    assistant one needs content ("messages: all messages must have non-empty content except for
    the optional final assistant message")."""
    errors: list[str] = []
    if not isinstance(payload, dict):
        return errors

    def blocks(content: Any, path: str) -> None:
        if isinstance(content, str):
            if _anthropic_text_blank(content):
                errors.append(f"{path}: text is blank (API rule: text content blocks must contain non-whitespace text)")
            return
        for j, block in enumerate(content if isinstance(content, list) else []):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and _anthropic_text_blank(block.get("text")):
                errors.append(f"{path}[{j}].text: text is blank (API rule: text content blocks must contain non-whitespace text)")
            if block.get("type") == "tool_result" and isinstance(block.get("content"), list):
                blocks(block["content"], f"{path}[{j}].content")

    blocks(payload.get("system"), "system")
    messages = payload.get("messages")
    for i, msg in enumerate(messages if isinstance(messages, list) else []):
        if not isinstance(msg, dict):
            continue
        content = msg.get("content")
        final_assistant = i == len(messages) - 1 and msg.get("role") == "assistant"
        if content in ("", []) and not final_assistant:
            errors.append(f"messages[{i}].content: empty (API rule: all messages must have non-empty content except for the optional final assistant message)")
            continue
        if content == "" and final_assistant:
            continue
        blocks(content, f"messages[{i}].content")
    return errors


def _responses_request_rules(payload: Any) -> list[str]:
    """OpenAI Responses: openai-python leaves `model` optional (a stored `prompt` may name it); the API
    needs one or the other (https://platform.openai.com/docs/api-reference/responses/create)."""
    if isinstance(payload, dict) and "model" not in payload and "prompt" not in payload:
        return ["model: missing (API rule: a request names a model, or a stored prompt that does)"]
    return []


#: family → checker of a request body's API rules
REQUEST_API_RULES = {"anthropic": _anthropic_request_rules, "openai_responses": _responses_request_rules}
_validate_sdk = validate


def validate(provider: str, kind: str, payload: Any) -> list[str]:  # noqa: F811 (extends the dispatch above)
    """Errors of ``payload``, a ``kind`` ("request", "response") body of ``provider``: its SDK types,
    then the API rules its family's SDK types do not state."""
    errors = _validate_sdk(provider, kind, payload)
    rules = REQUEST_API_RULES.get(WIRE_FAMILY.get(provider, provider)) if kind == "request" else None
    return errors + (rules(payload) if rules is not None else [])
