"""`python -m generator derive`: each wire family's JSON Schema, derived from its official source.

One file per wire family, ``spec/wire/derived/<family>.json`` (committed, DO NOT EDIT), written from
the most authoritative machine-readable description installed with the `generate` extra:

* the official SDKs' pydantic types, through ``TypeAdapter.json_schemas(..., by_alias=True)``
  (validation mode: the shapes the SDK accepts): OpenAI Chat / Responses, Anthropic, Gemini
  (google-genai), Mistral, Ollama, Cohere;
* botocore's ``bedrock-runtime`` service model for Bedrock Converse (shapes → JSON Schema, keeping
  min/max/pattern/enum; a union structure is ``x-union: true``: exactly one member is set).

Every file records its source in ``x-derived-from`` (package==version, entry types or service model,
the overlays applied) and names its roots in ``x-roots`` (``request``, ``response``: the def of the
request body and of the response body). Output is deterministic: sorted keys, no hash-ordered data.

The exact package versions are pinned in pyproject.toml's `generate` extra; deriving with any
other installed version fails with a message saying which, so the committed files always match the
recorded pin. Nothing here is needed at run time: the generator reads the derived files from disk
(the coverage check, generator/coverage.py); `make check` re-derives and compares.

Overlays (``OVERLAYS``) are the only hand-written part: each states why the source is not enough.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
import sys
import tomllib
import typing
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
DERIVED_DIR = Path("spec") / "wire" / "derived"
JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


# family → (package whose version is pinned, {root: "module:attribute"} or a builder, overlays)
FAMILIES: dict[str, dict[str, Any]] = {
    "openai_chat": {
        "package": "openai",
        "roots": {
            "request": "openai.types.chat.completion_create_params:CompletionCreateParamsNonStreaming",
            "response": "openai.types.chat:ChatCompletion",
        },
    },
    "openai_responses": {
        "package": "openai",
        "roots": {
            "request": "openai.types.responses.response_create_params:ResponseCreateParamsNonStreaming",
            "response": "openai.types.responses:Response",
        },
    },
    "anthropic": {
        "package": "anthropic",
        "roots": {
            "request": "anthropic.types.message_create_params:MessageCreateParamsNonStreaming",
            "response": "anthropic.types:Message",
        },
    },
    "gemini": {
        "package": "google-genai",
        "roots": {
            "request": "generator.derive:gemini_request_model",
            "response": "google.genai.types:GenerateContentResponse",
        },
    },
    "bedrock_converse": {
        "package": "botocore",
        "service_model": ("bedrock-runtime", "Converse"),
    },
    "mistral": {
        "package": "mistralai",
        "roots": {
            "request": "mistralai.client.models:ChatCompletionRequest",
            "response": "mistralai.client.models:ChatCompletionResponse",
        },
    },
    "ollama": {
        "package": "ollama",
        "roots": {"request": "ollama._types:ChatRequest", "response": "ollama._types:ChatResponse"},
    },
    "cohere": {
        "package": "cohere",
        "roots": {
            "request": "generator.derive:_cohere_request",
            "response": "cohere.v2.types.v2chat_response:V2ChatResponse",
        },
    },
    "cohere_v1": {
        "package": "cohere",
        "roots": {
            "request": "generator.derive:_cohere_v1_request",
            "response": "cohere.types:NonStreamedChatResponse",
        },
    },
}

#: Hand-written corrections of a source, each with its reason. Actions: ``drop`` a property of a
#: def; ``set`` a property's schema; ``unref`` a def: remove it and every union alternative naming it.
OVERLAYS: list[dict[str, Any]] = [
    {"family": "gemini", "def": "GenerateContentResponse", "drop": "sdkHttpResponse",
     "reason": "google-genai fills it from the HTTP response; the REST body has no such field"},
    {"family": "gemini", "def": "GenerateContentResponse", "drop": "automaticFunctionCallingHistory",
     "reason": "google-genai's own bookkeeping for automatic function calling; not in the REST body"},
    {"family": "gemini", "def": "GenerateContentResponse", "drop": "parsed",
     "reason": "google-genai's parsed structured output; not in the REST body"},
    {"family": "ollama", "def": "Message", "set": "role",
     "schema": {"enum": ["system", "user", "assistant", "tool"], "title": "Role", "type": "string"},
     "reason": "ollama._types types Message.role as str; the API documents exactly these four roles "
               "(https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request), as tests/sdk_validation_ollama.py does"},
    {"family": "gemini", "def": "Content", "set": "role",
     "schema": {"anyOf": [{"enum": ["user", "model"], "type": "string"}, {"type": "null"}], "default": None, "title": "Role"},
     "reason": "google-genai types Content.role as str; the API reference documents 'user' and 'model' "
               "(https://ai.google.dev/api/caching#Content), as tests/sdk_validation.py checks"},
    *({"family": "mistral", "unref": name,
       "reason": "an SDK-side model (mistralai's fallback for content it does not recognize / its unset sentinel), not a wire shape"}
      for name in ("UnknownContentChunk", "UnknownCustomConnectorAuthorization", "UnknownResourceChunkContent", "Unset")),
]

#: Entries built from SDK annotations because the SDK has no model of the body (documented here).
BUILT_ROOTS = {
    "generator.derive:gemini_request_model": (
        "google-genai has no model of the REST generateContent body: its fields "
        "(https://ai.google.dev/api/generate-content#request-body) typed with google.genai.types"
    ),
    "generator.derive:_cohere_request": (
        "cohere has no model of the POST /v2/chat body: the keyword arguments of "
        "cohere.v2.client.V2Client.chat with their SDK annotations, plus `stream` (sent by the client)"
    ),
    "generator.derive:_cohere_v1_request": (
        "cohere has no model of the legacy POST /v1/chat body: the keyword arguments of "
        "cohere.base_client.BaseCohere.chat with their SDK annotations (not `accepts`, a header), plus `stream`"
    ),
}


def gemini_request_model() -> Any:
    from google.genai import _common
    from google.genai import types as genai

    class GenerateContentRequest(_common.BaseModel):
        """The REST models.generateContent body (camelCase on the wire)."""

        contents: list[genai.Content]
        system_instruction: Optional[genai.Content] = None
        tools: Optional[list[genai.Tool]] = None
        tool_config: Optional[genai.ToolConfig] = None
        generation_config: Optional[genai.GenerationConfig] = None
        safety_settings: Optional[list[genai.SafetySetting]] = None
        cached_content: Optional[str] = None

    return GenerateContentRequest


def _cohere_request() -> Any:
    from cohere.v2.client import V2Client
    from pydantic import create_model

    hints = typing.get_type_hints(V2Client.chat, include_extras=True)
    fields: dict = {}
    for name, annotation in hints.items():
        if name in ("return", "request_options"):
            continue
        fields[name] = (annotation, ...) if name in ("model", "messages") else (annotation, None)
    fields["stream"] = (Optional[bool], None)
    return create_model("CohereV2ChatRequest", **fields)


def _cohere_v1_request() -> Any:
    from cohere.base_client import BaseCohere
    from pydantic import create_model

    hints = typing.get_type_hints(BaseCohere.chat, include_extras=True)
    fields: dict = {}
    for name, annotation in hints.items():
        if name in ("return", "request_options", "accepts"):
            continue
        fields[name] = (annotation, ...) if name == "message" else (annotation, None)
    fields["stream"] = (Optional[bool], None)
    return create_model("CohereV1ChatRequest", **fields)


# ------------------------------------------------------------------------------------ pins


def pins(root: Path = ROOT) -> dict[str, str]:
    """``{package: version}`` of the ``name==version`` entries of pyproject.toml's `generate` extra."""
    path = root / "pyproject.toml"
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for entry in data["project"]["optional-dependencies"]["generate"]:
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;]+)", entry)
        if m:
            out[_norm(m.group(1))] = m.group(2)
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def check_pins(root: Path = ROOT) -> list[str]:
    """Problems with the installed sources: a missing pin, a missing package, another version."""
    want = pins(root)
    problems = []
    needed = sorted({_norm(f["package"]) for f in FAMILIES.values()} | {"pydantic"})
    for package in needed:
        if package not in want:
            problems.append(f"pyproject.toml: the `generate` extra must pin {package}==<version> (a source of spec/wire/derived/)")
            continue
        try:
            have = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{package}=={want[package]} is pinned but not installed; run `make generate` (pip install -e '.[generate]')")
            continue
        if have != want[package]:
            problems.append(
                f"{package} {have} is installed but pyproject.toml pins {package}=={want[package]}: "
                f"install the pin (pip install '{package}=={want[package]}'), or move the pin and "
                f"re-derive with `make generate` (then review the diff of spec/wire/derived/)"
            )
    return problems


# ------------------------------------------------------------------------------------ derivation


def _resolve(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    obj = getattr(importlib.import_module(module), attr)
    return obj() if ref in BUILT_ROOTS else obj


def _pydantic_family(family: str, spec: dict) -> dict:
    from pydantic import TypeAdapter

    inputs = [(key, "validation", TypeAdapter(_resolve(ref))) for key, ref in spec["roots"].items()]
    key_map, top = TypeAdapter.json_schemas(inputs, by_alias=True, ref_template="#/$defs/{model}")
    defs = top.get("$defs", {})
    roots = {}
    for key, _mode, _adapter in inputs:
        schema = key_map[(key, "validation")]
        ref = schema.get("$ref", "")
        if not ref.startswith("#/$defs/"):  # a root without a def of its own: give it one
            name = f"{key.capitalize()}Root"
            defs[name] = schema
            ref = f"#/$defs/{name}"
        roots[key] = ref.rsplit("/", 1)[1]
    version = importlib.metadata.version(spec["package"])
    source = {
        "source": f"{spec['package']}=={version}",
        "via": f"pydantic=={importlib.metadata.version('pydantic')} TypeAdapter.json_schemas(by_alias=True, mode=validation)",
        "entries": {key: ref.replace(":", ".") for key, ref in spec["roots"].items()},
    }
    built = {key: BUILT_ROOTS[ref] for key, ref in spec["roots"].items() if ref in BUILT_ROOTS}
    if built:
        source["built_entries"] = built
    return {"x-derived-from": source, "x-roots": roots, "$defs": defs}


def _botocore_family(family: str, spec: dict) -> dict:
    import botocore.session

    service, operation = spec["service_model"]
    model = botocore.session.get_session().get_service_model(service)
    op = model.operation_model(operation)
    defs: dict[str, Any] = {}

    def convert(shape: Any) -> dict:
        t = shape.type_name
        if t == "structure":
            if shape.name not in defs:
                defs[shape.name] = {}  # placeholder: recursion
                body: dict[str, Any] = {"type": "object", "additionalProperties": False}
                props = {}
                for mname, mshape in shape.members.items():
                    if mshape.serialization.get("location"):  # URI / header members are not in the body
                        continue
                    props[mname] = convert(mshape)
                body["properties"] = props
                required = [m for m in shape.required_members if m in props]
                if required:
                    body["required"] = required
                if shape.metadata.get("union"):
                    body["x-union"] = True
                    body["minProperties"] = body["maxProperties"] = 1
                doc = _doc(shape.documentation)
                if doc:
                    body["description"] = doc
                defs[shape.name] = body
            return {"$ref": f"#/$defs/{shape.name}"}
        meta = shape.metadata
        out: dict[str, Any]
        if t == "list":
            out = {"type": "array", "items": convert(shape.member)}
            _bounds(out, meta, "minItems", "maxItems")
        elif t == "map":
            out = {"type": "object", "additionalProperties": convert(shape.value)}
            _bounds(out, meta, "minProperties", "maxProperties")
        elif t == "string":
            out = {"type": "string"}
            if shape.enum:
                out["enum"] = list(shape.enum)
            if "pattern" in meta:
                out["pattern"] = meta["pattern"]
            _bounds(out, meta, "minLength", "maxLength")
        elif t in ("integer", "long"):
            out = {"type": "integer"}
            _bounds(out, meta, "minimum", "maximum")
        elif t in ("float", "double"):
            out = {"type": "number"}
            _bounds(out, meta, "minimum", "maximum")
        elif t == "boolean":
            out = {"type": "boolean"}
        elif t == "blob":
            out = {"type": "string", "contentEncoding": "base64"}
            _bounds(out, meta, "minLength", "maxLength")
        elif t == "timestamp":
            out = {"type": "string", "format": "date-time"}
        elif t == "document":
            out = {}
        else:  # pragma: no cover - a new botocore type must be mapped here
            raise SystemExit(f"derive {family}: botocore shape type {t!r} of {shape.name} is not mapped")
        if shape.name and t != "list" and t != "map":
            out["x-shape"] = shape.name
        return out

    roots = {}
    for key, shape in (("request", op.input_shape), ("response", op.output_shape)):
        roots[key] = convert(shape)["$ref"].rsplit("/", 1)[1]
    version = importlib.metadata.version(spec["package"])
    return {
        "x-derived-from": {
            "source": f"{spec['package']}=={version}",
            "via": f"botocore service model {service} (api {model.api_version}), operation {operation}",
            "entries": {"request": f"{operation} input {op.input_shape.name}", "response": f"{operation} output {op.output_shape.name}"},
        },
        "x-roots": roots,
        "$defs": defs,
    }


def _bounds(out: dict, meta: dict, lo: str, hi: str) -> None:
    if "min" in meta:
        out[lo] = meta["min"]
    if "max" in meta:
        out[hi] = meta["max"]


def _doc(html: str) -> str:
    text = re.sub(r"<[^>]+>", "", html or "")
    return " ".join(text.split())[:300]


def _unref(node: Any, ref: str) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("anyOf", "oneOf") and isinstance(value, list):
                value = [v for v in value if not (isinstance(v, dict) and v.get("$ref") == ref)]
                if len(value) == 1 and key == "anyOf":  # a union of one is that one
                    out.update(_unref(value[0], ref))
                    continue
            out[key] = _unref(value, ref)
        if "discriminator" in out and isinstance(out["discriminator"].get("mapping"), dict):
            out["discriminator"]["mapping"] = {k: v for k, v in out["discriminator"]["mapping"].items() if v != ref}
        return out
    if isinstance(node, list):
        return [_unref(v, ref) for v in node]
    return node


def _apply_overlays(family: str, doc: dict) -> None:
    applied = []
    for overlay in OVERLAYS:
        if overlay["family"] != family:
            continue
        entry = {k: v for k, v in overlay.items() if k not in ("family", "schema")}
        if "unref" in overlay:
            name = overlay["unref"]
            if name not in doc["$defs"]:
                raise SystemExit(f"generator/derive.py: overlay {family} unref {name} no longer applies (the source changed): remove or fix it")
            del doc["$defs"][name]
            doc["$defs"] = _unref(doc["$defs"], f"#/$defs/{name}")
        else:
            key = overlay.get("drop") or overlay.get("set")
            schema = doc["$defs"].get(overlay["def"])
            if schema is None or key not in schema.get("properties", {}):
                raise SystemExit(f"generator/derive.py: overlay {family}/{overlay['def']}.{key} no longer applies (the source changed): remove or fix it")
            if "drop" in overlay:
                del schema["properties"][key]
                if key in schema.get("required", []):
                    schema["required"].remove(key)
            else:
                schema["properties"][key] = overlay["schema"]
        applied.append(entry)
    if applied:
        doc["x-derived-from"]["overlays"] = applied


def derive_family(family: str) -> dict:
    spec = FAMILIES[family]
    doc = _botocore_family(family, spec) if "service_model" in spec else _pydantic_family(family, spec)
    _apply_overlays(family, doc)
    return {"$schema": JSON_SCHEMA, "title": f"{family} wire types (derived, DO NOT EDIT: `make generate`)", **doc}


def render(doc: dict) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def derive_all() -> dict[str, str]:
    """``{relative path: text}`` of every derived file."""
    return {str(DERIVED_DIR / f"{family}.json"): render(derive_family(family)) for family in sorted(FAMILIES)}


def main(argv: list[str], root: Path = ROOT) -> int:
    """`derive` writes spec/wire/derived/; `derive --check` only compares (exit 1 when stale)."""
    check = "--check" in argv
    problems = check_pins(root)
    if problems:
        for p in problems:
            print(f"derive: {p}", file=sys.stderr)
        return 1
    files = derive_all()
    out_dir = root / DERIVED_DIR
    stale = []
    for rel, text in files.items():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(rel)
    extra = sorted(str(p.relative_to(root)) for p in out_dir.glob("*.json") if str(p.relative_to(root)) not in files) if out_dir.exists() else []
    if check:
        if stale or extra:
            print("spec/wire/derived/ is stale; run `make generate`. Differences:", file=sys.stderr)
            for rel in stale + extra:
                print(f"  {rel}", file=sys.stderr)
            return 1
        print(f"spec/wire/derived/ is up to date ({len(files)} families).")
        return 0
    out_dir.mkdir(parents=True, exist_ok=True)
    for rel in extra:
        (root / rel).unlink()
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")
    print(f"derived {len(files)} wire families into {DERIVED_DIR}/ ({len(stale)} changed)")
    return 0
