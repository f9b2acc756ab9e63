"""Conformance against the Vercel AI SDK's converter tests (docs/conformance-ai-sdk.md).

``../shared/conformance/ai-sdk/`` (relative to the repository root) holds 109 conversion cases
recorded from the AI SDK's own converter tests. Each case becomes one toolwire conversion, and only
the part of the output the original test asserted is compared. Every case is, according to
``tests/conformance/ai_sdk_divergences.yaml``:

- absent from the file: toolwire must produce exactly what the AI SDK produced (agree);
- ``divergence``: toolwire deliberately picks another valid encoding; its output must equal the
  documented ``toolwire_expected`` (and raise ``toolwire_strict_error`` with ``strict=True`` and
  report ``toolwire_warns``, where given);
- ``pending``: the target provider or the feature is not implemented yet (skipped, with its issue);
- ``not_expressible``: the case tests something the input format / the IR cannot state (skipped).

A case that agrees with neither the AI SDK nor a documented divergence fails: that is a toolwire bug.
A per-target summary is printed at the end of the module.

How a case becomes a toolwire call:

- ``openai_chat`` input: the messages, or the tools / tool_choice (with one user message), form an
  OpenAI Chat request body converted with ``toolwire.convert``. With ``input_ir`` (structured tool
  output or an error flag that Chat cannot carry) the body goes through ``toolwire.to_ir``, the
  results are patched (``json`` → the JSON value as ``result``; ``is_error`` → ``is_error``) and
  rendered with ``toolwire.from_ir``. ``content`` outputs made only of text stay as toolwire parses the
  Chat text parts (their text as the result).
- ``ai_sdk`` input: translated to IR by hand in ``tests/conformance/ai_sdk_inputs.py``.
- ``json_schema`` input (kind ``schema``): the AI SDK's Google tests call its JSON Schema →
  OpenAPI-subset converter directly. toolwire's equivalent is the ``gemini_openapi`` provider (the
  default ``gemini`` sends ``parametersJsonSchema`` unchanged), reached through the public API: the
  schema becomes the ``parameters`` of one OpenAI Chat tool, converted with ``toolwire.convert`` to
  ``gemini_openapi``, and the declaration's ``parameters`` is compared (``SCHEMA_TARGETS``). An AI
  SDK test that expects a throw agrees when toolwire raises the error listed in ``ERRORS`` (class
  and ``.path``).
- Orphan results: several AI SDK tests convert tool results with no preceding tool call (unit tests
  of one message). All four APIs reject such a history, and toolwire does too
  (UnknownToolCallError), so the harness prepends the assistant turn that made those calls (named
  after the OpenAI tool message's non-standard ``name``, which is then removed), converts, and drops
  that turn from the output again. What is compared is exactly the rendering of the case's own
  messages.
- Google cases recorded with the AI SDK's Vertex options go to toolwire's ``vertex`` provider
  (``toolwire_target``).
"""

from __future__ import annotations

import copy
import difflib
import importlib.util
import json
import re
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

import toolwire
from toolwire import ir

REPO = Path(__file__).resolve().parents[1]
CASES_DIR = REPO.parent / "shared" / "conformance" / "ai-sdk"
CASE_FILES = ("cases.json", "cases-extra.json")
DATA = Path(__file__).parent / "conformance" / "ai_sdk_divergences.yaml"

if not all((CASES_DIR / name).is_file() for name in CASE_FILES):
    pytest.skip(f"AI SDK conformance cases not found in {CASES_DIR}", allow_module_level=True)


def _load_inputs_module() -> Any:
    spec = importlib.util.spec_from_file_location("ai_sdk_inputs", Path(__file__).parent / "conformance" / "ai_sdk_inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES: list[dict] = [case for name in CASE_FILES for case in json.loads((CASES_DIR / name).read_text(encoding="utf-8"))]
CASES_BY_ID = {case["id"]: case for case in CASES}
RECORDS: dict[str, dict] = yaml.safe_load(DATA.read_text(encoding="utf-8")) or {}
IR_INPUTS = _load_inputs_module().IR_INPUTS

STATUSES = ("divergence", "pending", "not_expressible")
ABSENT = "<absent>"

# --- what is compared --------------------------------------------------------------------------

#: kind=messages: the parts of the target body that carry the conversation
MESSAGE_KEYS = {
    "anthropic": ("system", "messages"),
    "gemini": ("systemInstruction", "contents"),
    "vertex": ("systemInstruction", "contents"),
    "openai_responses": ("instructions", "input"),
    "openai_chat": ("messages",),
    "bedrock_converse": ("system", "messages"),
    "mistral": ("messages",),
}
#: kind=tools / tool_choice: the parts of the target body that carry tools and the choice
TOOL_KEYS = {
    "anthropic": ("tools", "tool_choice"),
    "gemini": ("tools", "toolConfig"),
    "vertex": ("tools", "toolConfig"),
    "openai_responses": ("tools", "tool_choice"),
    "openai_chat": ("tools", "tool_choice"),
    "bedrock_converse": ("toolConfig",),
    "mistral": ("tools", "tool_choice", "parallel_tool_calls"),
}

#: Cases whose original test asserted only part of the output: (path, mode) per assertion.
#: mode "equal" (toEqual / toStrictEqual) or "subset" (toMatchObject). Paths use the target's keys.
SELECTORS: dict[str, list[tuple[str, str]]] = {
    # result.toolChoice toEqual
    "anthropic-tool-choice-auto": [("tool_choice", "equal")],
    "anthropic-tool-choice-required": [("tool_choice", "equal")],
    "anthropic-tool-choice-function": [("tool_choice", "equal")],
    # requestBodyJson toMatchObject
    "anthropic-parallel-tool-calls-disabled": [("tools", "subset"), ("tool_choice", "subset")],
    # result.contents[0].parts[0] toEqual
    "gemini-function-call-with-id": [("contents[0].parts[0]", "equal")],
    # assistant?.parts[0] toMatchObject
    "gemini-no-sentinel-non-gemini3": [("contents[1].parts[0]", "subset")],
    "gemini3-missing-signature-sentinel": [("contents[1].parts[0]", "subset")],
    # result.contents[0].parts toStrictEqual
    "gemini3-no-sentinel-after-signed-parallel": [("contents[0].parts", "equal")],
    "gemini-error-result-no-signature-on-response": [("contents[0].parts[0]", "equal"), ("contents[1].parts[0]", "equal")],
    "gemini-vertex-omits-function-ids": [("contents[1].parts[0].functionCall", "equal"), ("contents[2].parts[0].functionResponse", "equal")],
    "gemini-tool-result-legacy-multimodal": [("contents[0].parts", "equal")],
    "gemini-tool-result-file-only-default-text": [("contents[0].parts[0]", "equal")],
    # result.tools toEqual + result.toolConfig toBeUndefined
    "gemini-tools-empty-params-omitted": [("tools", "equal"), ("toolConfig", "equal")],
    # result.toolConfig toEqual
    "gemini-tool-choice-auto": [("toolConfig", "equal")],
    "gemini-tool-choice-required": [("toolConfig", "equal")],
    "gemini-tool-choice-function": [("toolConfig", "equal")],
    "gemini-tool-choice-named-with-strict": [("toolConfig", "equal")],
    "gemini-tools-strict-validated": [("toolConfig", "equal")],
    # Bedrock Converse: result.messages[0] / result.toolConfig.* toEqual
    "bedrock-system-combined": [("system", "equal")],
    "bedrock-tool-names-sanitized": [("messages", "equal")],
    "bedrock-tool-result-text-parts": [("messages[0]", "equal")],
    "bedrock-tool-result-json-as-text": [("messages[0]", "equal")],
    "bedrock-mistral-id-normalized-result": [("messages[0]", "equal")],
    "bedrock-mistral-id-normalized-call": [("messages[0]", "equal")],
    "bedrock-id-not-normalized-by-default": [("messages[0]", "equal")],
    "bedrock-tool-result-image": [("messages[0]", "equal")],
    "bedrock-tools-basic": [("toolConfig.tools", "equal")],
    "bedrock-tools-empty-description-omitted": [("toolConfig.tools", "equal")],
    "bedrock-tools-strict-passthrough": [("toolConfig.tools", "equal")],
    "bedrock-tool-choice-auto": [("toolConfig.toolChoice", "equal")],
    "bedrock-tool-choice-required": [("toolConfig.toolChoice", "equal")],
    "bedrock-tool-choice-function-filters-tools": [("toolConfig.tools", "equal"), ("toolConfig.toolChoice", "equal")],
    # Mistral (pending, issue 5): requestBodyJson toMatchObject
    "mistral-parallel-tool-calls-false": [("tools", "subset"), ("parallel_tool_calls", "equal")],
}


#: kind=schema: AI SDK target → the toolwire provider whose tool declarations carry the converted
#: schema (and where in the rendered body the first declaration is). The AI SDK's Google schema tests
#: exercise convertJSONSchemaToOpenAPISchema, i.e. the legacy OpenAPI-subset ``parameters``, which
#: toolwire writes only for ``gemini_openapi`` (``gemini`` and ``vertex`` send parametersJsonSchema).
#: Schema cases of other targets have no toolwire counterpart (classified, never run).
SCHEMA_TARGETS = {"gemini": ("gemini_openapi", "tools[0].functionDeclarations[0]")}

#: Cases whose AI SDK test expects a throw (``expected_error``) and that toolwire also rejects: the
#: ConversionError it must raise, as (class name, ``.path``). Paths of errors raised while rendering
#: are IR paths (``tools[0].parameters...``), as toolwire reports them.
ERRORS: dict[str, tuple[str, str]] = {
    # AI_UnsupportedFunctionalityError "does not support recursive JSON Schema references"
    "gemini-schema-recursive-ref-rejected": ("UnsupportedError", "tools[0].parameters.$defs.Node.properties.child"),
    # AI_UnsupportedFunctionalityError "Enum values must share one supported primitive type"
    "gemini-schema-mixed-enum-rejected": ("UnsupportedError", "tools[0].parameters.enum"),
}


def toolwire_target(case: dict) -> str:
    """The toolwire provider a case converts to.

    Schema cases go to the provider in ``SCHEMA_TARGETS``. The AI SDK's Google converter serves both
    the Gemini API and Vertex AI; a case recorded with the Vertex options (includeFunctionCallIds=false:
    no call ids) goes to toolwire's ``vertex`` provider.
    """
    if case["kind"] == "schema" and case["target"] in SCHEMA_TARGETS:
        return SCHEMA_TARGETS[case["target"]][0]
    if case["target"] == "gemini" and (case.get("converter_options") or {}).get("includeFunctionCallIds") is False:
        return "vertex"
    return case["target"]


def selectors(case: dict) -> list[tuple[str, str]]:
    if case["id"] in SELECTORS:
        return SELECTORS[case["id"]]
    if case["kind"] == "schema":
        return [("parameters", "equal")]
    keys = MESSAGE_KEYS if case["kind"] == "messages" else TOOL_KEYS
    return [(key, "equal") for key in keys.get(toolwire_target(case), ())]


_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def lookup(doc: Any, path: str) -> Any:
    node = doc
    for name, index in _TOKEN.findall(path):
        if index:
            i = int(index)
            if type(node) is not list or i >= len(node):
                return ABSENT
            node = node[i]
        else:
            if type(node) is not dict or name not in node:
                return ABSENT
            node = node[name]
    return node


def select(doc: Any, sels: list[tuple[str, str]]) -> dict[str, Any]:
    return {path: lookup(doc, path) for path, _ in sels}


def expected_output(case: dict) -> Any:
    """The AI SDK's output, shaped like what ``run`` returns for the case.

    A schema case records the converted schema itself (null: the converter returned undefined, so the
    declaration gets no ``parameters``); it is compared as the declaration's ``parameters``.
    """
    if case["kind"] == "schema":
        return {"parameters": ABSENT if case["expected"] is None else case["expected"]}
    return case["expected"]


def is_subset(expected: Any, actual: Any) -> bool:
    """toMatchObject: every key of an expected object is in the actual one, recursively."""
    if type(expected) is dict:
        return type(actual) is dict and all(k in actual and is_subset(v, actual[k]) for k, v in expected.items())
    if type(expected) is list:
        return type(actual) is list and len(expected) == len(actual) and all(map(is_subset, expected, actual))
    return expected == actual


# --- running a case ----------------------------------------------------------------------------


@dataclass
class Run:
    output: dict | None = None
    error: Exception | None = None
    warnings: list[str] = field(default_factory=list)


#: Model and token limit of every request, so that the harness itself causes no ConversionWarning
#: (Anthropic requires both; Gemini and Vertex have the model in the URL, not in the body).
MODEL = "gpt-4.1"
#: The AI SDK's systemMessageMode is a fact of the model (developer for OpenAI reasoning models,
#: vercel/ai openai-language-model-capabilities.ts); toolwire reads it from the model (spec
#: `for_models`), so a case in developer mode converts for a reasoning model.
REASONING_MODEL = "o3"


#: The AI SDK's isGemini3Model option is a fact of the model too: toolwire's Gemini 3 rule (the
#: dummy thought signature, spec `for_models`) reads it from the `model=` of the conversion.
GEMINI_MODELS = {True: "gemini-3-pro-preview", False: "gemini-2.5-flash"}


def case_model(case: dict) -> str:
    return REASONING_MODEL if (case.get("converter_options") or {}).get("systemMessageMode") == "developer" else MODEL


def url_model(case: dict) -> str | None:
    """The model a model-in-URL target is called with, where the case says which kind it is."""
    gemini3 = (case.get("converter_options") or {}).get("isGemini3Model")
    return GEMINI_MODELS[gemini3] if gemini3 is not None else None
MAX_TOKENS = 1024
MODEL_IN_URL = ("gemini", "gemini_openapi", "vertex")


def chat_body(case: dict) -> dict:
    inp = copy.deepcopy(case["input"])
    body: dict[str, Any] = {} if toolwire_target(case) in MODEL_IN_URL else {"model": case_model(case)}
    body["max_completion_tokens"] = MAX_TOKENS
    if case["kind"] == "messages":
        body["messages"] = inp
    else:
        body["messages"] = [{"role": "user", "content": "hi"}]
        body.update(inp)
    return body


def _orphan_prefix_chat(body: dict) -> list[str]:
    """Leading tool messages answer calls the case does not contain: prepend that call turn.

    The tool name comes from the tool message's non-standard ``name`` (removed: the call names the
    tool now). Without a name there is no call to make up, and toolwire's rejection stands.
    """
    messages = body["messages"]
    leading = []
    for msg in messages:
        if msg.get("role") != "tool":
            break
        leading.append(msg)
    if not leading or not all(isinstance(msg.get("name"), str) for msg in leading):
        return []
    calls = [{"id": msg["tool_call_id"], "type": "function", "function": {"name": msg.pop("name"), "arguments": "{}"}} for msg in leading]
    body["messages"] = [{"role": "assistant", "content": None, "tool_calls": calls}, *messages]
    return [call["id"] for call in calls]


def _orphan_prefix_ir(req: ir.Request) -> list[str]:
    leading = []
    for msg in req.messages:
        if msg.role != "tool":
            break
        leading.extend(p for p in msg.parts if isinstance(p, ir.ToolResult))
    if not leading:
        return []
    turn = ir.Message(role="assistant", parts=[ir.ToolCall(id=r.tool_call_id, name=r.name, arguments={}) for r in leading])
    req.messages = [turn, *req.messages]
    return [r.tool_call_id for r in leading]


def _drop_prefix(out: dict, target: str, ids: list[str]) -> dict:
    """Remove the rendering of the call turn added by _orphan_prefix_* (checking it is that turn)."""
    out = dict(out)
    if target == "openai_responses":
        head, rest = out["input"][: len(ids)], out["input"][len(ids):]
        ok = [(i.get("type"), i.get("call_id")) for i in head] == [("function_call", cid) for cid in ids]
        out["input"] = rest
    else:
        key = "contents" if target in MODEL_IN_URL else "messages"
        head, rest = out[key][0], out[key][1:]
        ok = head.get("role") in ("assistant", "model")
        out[key] = rest
    if not ok:
        raise RuntimeError(f"harness: the call turn it added is not where expected: {head}")
    return out


def _patch_results(req: ir.Request, input_ir: dict) -> None:
    results = {p.tool_call_id: p for m in req.messages for p in m.parts if isinstance(p, ir.ToolResult)}
    for spec in input_ir.get("tool_results", []):
        result = results[spec["tool_call_id"]]
        if spec["output_type"] == "json":
            result.result = copy.deepcopy(spec["value"])
        if spec.get("is_error"):
            result.is_error = True


def schema_body(case: dict) -> dict:
    """kind=schema: an OpenAI Chat request whose one tool has the case's schema as ``parameters``."""
    tool = {"type": "function", "function": {"name": "f", "parameters": copy.deepcopy(case["input"])}}
    return {"messages": [{"role": "user", "content": "hi"}], "tools": [tool]}


def _convert_schema(case: dict, strict: bool) -> dict:
    """The declaration's ``parameters`` (``"<absent>"`` if toolwire sends none), as ``{"parameters": …}``."""
    if case["target"] not in SCHEMA_TARGETS:
        raise RuntimeError(f"harness: no schema runner for target {case['target']} (classify the case)")
    target, where = SCHEMA_TARGETS[case["target"]]
    out = toolwire.convert(schema_body(case), source="openai_chat", target=target, strict=strict)
    declaration = lookup(out, where)
    if type(declaration) is not dict or "parametersJsonSchema" in declaration:
        raise RuntimeError(f"harness: {target} did not render a legacy-parameters declaration at {where}: {declaration}")
    return {"parameters": declaration.get("parameters", ABSENT)}


def _convert(case: dict, strict: bool) -> tuple[dict, list[str]]:
    """The toolwire output for a case, and the ids of the call turn the harness prepended (if any)."""
    target = toolwire_target(case)
    if case["kind"] == "schema":
        return _convert_schema(case, strict), []
    if case["input_format"] == "ai_sdk":
        req = IR_INPUTS[case["id"]]()
        if target not in MODEL_IN_URL:
            req.model = req.model or case_model(case)
        req.max_tokens = req.max_tokens or MAX_TOKENS
        ids = _orphan_prefix_ir(req)
        return toolwire.from_ir(req, provider=target, strict=strict, model=url_model(case) if target in MODEL_IN_URL else None), ids
    body = chat_body(case)
    ids = _orphan_prefix_chat(body) if case["kind"] == "messages" else []
    if not ids and "input_ir" not in case:
        # the model name goes along as the caller's choice (the AI SDK cases do not test models)
        model = body.get("model") or (url_model(case) if target in MODEL_IN_URL else None)
        return toolwire.convert(body, source="openai_chat", target=target, strict=strict, model=model), []
    req = toolwire.to_ir(body, provider="openai_chat", strict=strict)
    _patch_results(req, case.get("input_ir") or {})
    return toolwire.from_ir(req, provider=target, strict=strict, model=url_model(case) if target in MODEL_IN_URL else None), ids


def run(case: dict, strict: bool = False) -> Run:
    result = Run()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            output, ids = _convert(case, strict)
        except Exception as exc:  # reported by the test (a ConversionError may be the expected outcome)
            result.error = exc
        else:
            result.output = _drop_prefix(output, toolwire_target(case), ids) if ids else output
    result.warnings = [str(w.message) for w in caught if issubclass(w.category, toolwire.ConversionWarning)]
    return result


# --- the tests ---------------------------------------------------------------------------------

OUTCOMES: dict[str, tuple[str, str]] = {}  # case id → (toolwire target, outcome), for the summary


def _dump(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, sort_keys=True)


def _diff(expected: Any, actual: Any, expected_name: str) -> str:
    lines = difflib.unified_diff(_dump(expected).splitlines(), _dump(actual).splitlines(), expected_name, "toolwire", lineterm="", n=2)
    return "\n".join(lines)


def _raised(error: Exception) -> str:
    if isinstance(error, toolwire.ConversionError):
        return f"toolwire raised {error!r}"
    return "toolwire crashed:\n" + "".join(traceback.format_exception(error)[-6:])


def _check_agree(case: dict, got: Run) -> str | None:
    """None when toolwire's output agrees with the AI SDK's on the asserted parts, else why not."""
    if case.get("expected_error"):
        if case["id"] not in ERRORS:
            return f"harness: the AI SDK raises {case['expected_error']['name']}; list toolwire's error in ERRORS"
        name, path = ERRORS[case["id"]]
        if type(got.error).__name__ == name and got.error.path == path:
            return None
        return f"the AI SDK raises {case['expected_error']['name']}; toolwire should raise {name} at {path}; " + (
            _raised(got.error) if got.error else f"toolwire returned\n{_dump(got.output)}")
    if got.error is not None:
        return _raised(got.error)
    sels = selectors(case)
    actual, expected = select(got.output, sels), select(expected_output(case), sels)
    for path, mode in sels:
        ok = is_subset(expected[path], actual[path]) if mode == "subset" else expected[path] == actual[path]
        if not ok:
            return f"{path} ({mode}) differs from the AI SDK:\n{_diff(expected[path], actual[path], 'AI SDK')}"
    return None


def _check_divergence(case: dict, record: dict, got: Run) -> str | None:
    held = record["toolwire_expected"]
    if "error" in held:
        if type(got.error).__name__ == held["error"]:
            return None
        return f"documented: toolwire raises {held['error']}; " + (_raised(got.error) if got.error else f"toolwire returned\n{_dump(got.output)}")
    if got.error is not None:
        return f"{_raised(got.error)}\ndocumented output:\n{_dump(held)}"
    actual = select(got.output, selectors(case))
    if actual != held:
        return f"differs from the documented divergence:\n{_diff(held, actual, 'documented')}"
    for needle in record.get("toolwire_warns", []):
        if not any(needle in w for w in got.warnings):
            return f"no ConversionWarning mentions {needle!r}; warnings: {got.warnings}"
    strict_error = record.get("toolwire_strict_error")
    if strict_error:
        strict = run(case, strict=True)
        if type(strict.error).__name__ != strict_error:
            return f"with strict=True toolwire should raise {strict_error}; got {strict.error!r}"
        if not any(needle in str(strict.error) for needle in record.get("toolwire_warns", [""])):
            return f"with strict=True toolwire raised {strict.error!r}, not about {record.get('toolwire_warns')}"
    return None


@pytest.mark.parametrize("case_id", list(CASES_BY_ID))
def test_case(case_id: str) -> None:
    case = CASES_BY_ID[case_id]
    record = RECORDS.get(case_id)
    status = record["status"] if record else "agree"
    if status in ("pending", "not_expressible"):
        OUTCOMES[case_id] = (toolwire_target(case), status)
        issue = f" (issue {record['issue']})" if record.get("issue") else ""
        pytest.skip(f"{status}{issue}: {record['reason']}")
    got = run(case)
    problem = _check_agree(case, got) if status == "agree" else _check_divergence(case, record, got)
    OUTCOMES[case_id] = (toolwire_target(case), status if problem is None else "failing")
    if problem is not None:
        bug = f"\nknown bug: {record['bug']}" if record and record.get("bug") else ""
        pytest.fail(f"{case_id}: {problem}{bug}\nAI SDK notes: {case['notes']}", pytrace=False)


def test_divergence_data_is_consistent() -> None:
    """The classification file names real cases, and says everything a status needs."""
    assert set(RECORDS) <= set(CASES_BY_ID), sorted(set(RECORDS) - set(CASES_BY_ID))
    for case_id, record in RECORDS.items():
        case = CASES_BY_ID[case_id]
        assert record.get("status") in STATUSES, case_id
        assert str(record.get("reason", "")).strip(), case_id
        if record["status"] == "pending":
            assert record.get("issue"), case_id
        if record["status"] == "divergence":
            held = record.get("toolwire_expected")
            assert isinstance(held, dict), case_id
            if "error" not in held:
                sels = selectors(case)
                assert set(held) == {path for path, _ in sels}, case_id
                if not case.get("expected_error"):
                    assert held != select(expected_output(case), sels), f"{case_id}: documented output equals the AI SDK's; not a divergence"
    assert set(ERRORS) <= set(CASES_BY_ID), sorted(set(ERRORS) - set(CASES_BY_ID))
    for case in CASES:
        record = RECORDS.get(case["id"])
        status = record["status"] if record else "agree"
        runnable = status in ("agree", "divergence")
        if toolwire_target(case) not in toolwire.PROVIDERS:
            assert status == "pending", f"{case['id']}: target {toolwire_target(case)} is not implemented; must be pending"
        if case["kind"] == "schema" and case["target"] not in SCHEMA_TARGETS:
            assert not runnable, f"{case['id']}: no schema runner for target {case['target']}; classify it"
        if status == "agree" and case.get("expected_error"):
            assert case["id"] in ERRORS, f"{case['id']}: the AI SDK throws; ERRORS must name toolwire's error"
        if case["id"] in ERRORS:
            assert status == "agree" and case.get("expected_error"), f"{case['id']}: ERRORS is for agreeing rejections"
        if case["input_format"] == "ai_sdk" and runnable:
            assert case["id"] in IR_INPUTS, f"{case['id']}: ai_sdk input needs a hand translation in ai_sdk_inputs.py"


# --- summary -----------------------------------------------------------------------------------

COLUMNS = ("agree", "divergence", "pending", "not_expressible", "failing")


def summary_table() -> str:
    targets = sorted({target for target, _ in OUTCOMES.values()})
    counts = {t: dict.fromkeys(COLUMNS, 0) for t in targets}
    for target, outcome in OUTCOMES.values():
        counts[target][outcome] += 1
    rows = [("target", *COLUMNS, "total")]
    for t in targets + ["all"]:
        row = counts[t] if t != "all" else {c: sum(counts[x][c] for x in targets) for c in COLUMNS}
        rows.append((t, *(str(row[c]) for c in COLUMNS), str(sum(row.values()))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)) for r in rows)


@pytest.fixture(scope="module", autouse=True)
def _print_summary(request: pytest.FixtureRequest):
    yield
    if not OUTCOMES:
        return
    text = f"AI SDK conformance, {len(OUTCOMES)} of {len(CASES)} cases (docs/conformance-ai-sdk.md):\n{summary_table()}"
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print(text)
        return
    with capture.global_and_fixture_disabled():
        reporter.ensure_newline()
        reporter.write_line(text)
