"""The generator: spec errors for humans, generated/ is current and deterministic, stdlib-only output."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
# each case replaces one file of a copy of spec/: a provider (as broken.yaml) or spec/wire/families.yaml
CASES = [(c, Path("providers") / "broken.yaml") for c in sorted((ROOT / "tests" / "spec_errors").glob("*.yaml"))] + [
    (c, Path("wire") / "families.yaml") for c in sorted((ROOT / "tests" / "spec_errors" / "families").glob("*.yaml"))
]


@pytest.mark.parametrize(("case", "dest"), CASES, ids=[f"{d.parent.name}/{c.stem}" for c, d in CASES])
def test_broken_spec_reports_every_error_with_file_and_line(case, dest, tmp_path):
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    shutil.copy(case, tmp_path / "spec" / dest)
    spec, errors = load_spec(tmp_path)
    assert spec is None
    got = [str(e) for e in errors.items]
    want = case.with_suffix(".txt").read_text(encoding="utf-8").splitlines()
    assert got == want


def test_derive_cli_prints_families_errors_not_a_traceback(tmp_path):
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    case = ROOT / "tests" / "spec_errors" / "families" / "bad_entries.yaml"
    shutil.copy(case, tmp_path / "spec" / "wire" / "families.yaml")
    code = (
        "import sys, generator.main as m; from pathlib import Path; "
        f"m.ROOT = Path({str(tmp_path)!r}); sys.exit(m.main(['derive', '--check']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    want = case.with_suffix(".txt").read_text(encoding="utf-8").splitlines()
    assert proc.stderr.splitlines() == want + [f"{len(want)} spec error(s) in spec/wire/families.yaml; nothing derived."]


def test_derive_reports_names_the_installed_sdk_lacks_at_their_line(tmp_path, capsys):
    """What only importing can tell (a method renamed, an argument gone, an overlay that no longer
    applies) is reported at its line of families.yaml, every family at once, not as a traceback."""
    from generator import derive

    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "spec" / "wire").mkdir(parents=True)
    (tmp_path / "spec" / "wire" / "families.yaml").write_text(
        "cohere:\n"
        "  package: cohere\n"
        "  roots:\n"
        "    request:\n"
        "      arguments_of: cohere.v2.client:V2Client.chatt\n"
        "      model_name: CohereV2ChatRequest\n"
        "      why: a method that does not exist\n"
        "    response: cohere.v2.types.v2chat_response:V2ChatResponse\n"
        "cohere_v1:\n"
        "  package: cohere\n"
        "  roots:\n"
        "    request:\n"
        "      arguments_of: cohere.base_client:BaseCohere.chat\n"
        "      model_name: CohereV1ChatRequest\n"
        "      exclude: [accept]\n"
        "      why: an argument that does not exist\n"
        "    response: cohere.types:NonStreamedChatResponse\n"
        "ollama:\n"
        "  package: ollama\n"
        "  roots: {request: \"ollama._types:ChatRequest\", response: \"ollama._types:ChatResponse\"}\n"
        "  overlays:\n"
        "    - {def: Message, drop: colour, reason: a property the source does not have}\n",
        encoding="utf-8",
    )
    assert derive.main(["--check"], tmp_path) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines() == [
        "spec/wire/families.yaml:4: wire family 'cohere': roots.request: cohere.v2.client:V2Client.chatt: V2Client has no attribute 'chatt' (the source changed?)",
        "spec/wire/families.yaml:12: wire family 'cohere_v1': roots.request: cohere.base_client:BaseCohere.chat has no argument 'accept' (the source changed?): fix exclude / required",
        "spec/wire/families.yaml:22: wire family 'ollama': overlay Message.colour no longer applies (the source changed): remove or fix it",
        "3 error(s) deriving from the sources spec/wire/families.yaml names; nothing derived.",
    ]


def test_built_roots_evaluate_type_expressions_without_eval():
    """`add` / `fields` type expressions are parsed: typing names and dotted SDK names only."""
    from typing import Literal, Optional

    from generator import derive

    assert derive._type_problem("Optional[list[google.genai.types.Content]]") is None
    assert derive._type_problem("int | None") is None
    assert "not a type" in derive._type_problem("__import__('os').system('true')")
    assert "not a type" in derive._type_problem("(lambda: int)()")
    assert "unknown name 'open'" in derive._type_problem("open")
    ast = __import__("ast")
    node = ast.parse("Optional[Literal['a', 'b']]", mode="eval").body
    assert derive._type(node, resolve=True) == Optional[Literal["a", "b"]]


def test_generator_cli_prints_errors_not_a_traceback(tmp_path):
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    shutil.copy(ROOT / "tests" / "spec_errors" / "unknown_fields.yaml", tmp_path / "spec" / "providers" / "broken.yaml")
    code = (
        "import sys, generator.main as m; from pathlib import Path; "
        f"m.ROOT = Path({str(tmp_path)!r}); sys.exit(m.main(['check']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "spec/providers/broken.yaml:5: unknown key 'colour'" in proc.stderr
    assert "spec error(s); nothing generated" in proc.stderr


def test_generated_tree_is_current_and_independent_of_hash_seed():
    """`make check` compares with hash seed 0; here seed 4242, with nothing cached but black's output
    (a pure function of the text it formats), so the derivation of spec/wire/derived/, the rendering
    and datamodel-code-generator all run again under the other seed."""
    env = {**os.environ, "PYTHONHASHSEED": "4242", "TOOLWIRE_GENERATOR_CACHE": "black"}
    proc = subprocess.run([sys.executable, "-m", "generator", "check"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "spec/wire/derived/ is up to date" in proc.stdout
    assert "\n  anthropic: " in proc.stdout and " mapped, " in proc.stdout  # the per-provider wire coverage


def test_generated_files_are_marked_do_not_edit():
    for path in (ROOT / "generated").rglob("*.py"):
        assert path.read_text(encoding="utf-8").startswith("# DO NOT EDIT. @generated"), path


def test_generated_package_imports_with_the_standard_library_only():
    """No site-packages at all: only generated/ and runtime/ on the path."""
    code = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import toolwire, json; "
        "import toolwire.providers.openai_chat, toolwire.providers.anthropic, toolwire.providers.gemini, "
        "toolwire.providers.openai_responses; "
        "print(json.dumps(toolwire.convert({'model': 'm', 'messages': [{'role': 'user', 'content': 'hi'}]}, "
        "source='openai_chat', target='gemini')))"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(ROOT / "generated"), str(ROOT / "runtime")],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert '"contents": [{"role": "user", "parts": [{"text": "hi"}]}]' in proc.stdout


def test_derived_wire_schemas_record_their_pinned_source():
    import json

    from generator import derive

    pinned = derive.pins(ROOT)
    for family, spec in derive.families(ROOT).items():
        doc = json.loads((ROOT / "spec" / "wire" / "derived" / f"{family}.json").read_text(encoding="utf-8"))
        package = spec.package
        assert doc["x-derived-from"]["source"] == f"{package}=={pinned[package]}"
        assert set(doc["x-roots"]) == {"request", "response"}
        assert all(name in doc["$defs"] for name in doc["x-roots"].values())
        assert list(doc) == sorted(doc)  # sorted keys


def test_derive_fails_clearly_on_an_unpinned_version(tmp_path):
    from generator import derive

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8").replace('"anthropic==', '"anthropic==0.0.1; #')
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    problems = derive.check_pins(tmp_path)
    assert len(problems) == 1 and "pyproject.toml pins anthropic==0.0.1" in problems[0], problems


def test_coverage_binds_the_main_unions_and_declares_every_variant():
    """The request/response roots bind through the rules to the main unions of each family."""
    spec, errors = load_spec(ROOT)
    assert not errors
    by_name = {p.name: p for p in spec.providers}
    expect = {
        "anthropic": {"request": "MessageCreateParamsNonStreaming", "content_block": "ToolUseBlockParam", "tool": "ToolParam", "result_block": "TextBlockParam"},
        "openai_chat": {"request": "CompletionCreateParamsNonStreaming", "tool_choice": "ChatCompletionNamedToolChoiceParam"},
        "openai_responses": {"request": "ResponseCreateParamsNonStreaming", "response": "Response"},
        "gemini": {"part": "Part", "response": "GenerateContentResponse"},
        "bedrock_converse": {"request": "ConverseRequest", "response": "ConverseResponse"},
    }
    for provider, bindings in expect.items():
        cov = by_name[provider].coverage
        for codec, definition in bindings.items():
            assert definition in cov.bound.get(codec, set()), (provider, codec, cov.bound.get(codec))
        assert "missing" not in cov.fields.values() and "missing" not in cov.variants.values()
    anthropic = by_name["anthropic"].coverage
    assert anthropic.variants[("content_block", "tool_use")] == "mapped"
    assert anthropic.variants[("content_block", "thinking")] == "mapped"
    assert anthropic.variants[("content_block", "server_tool_use")] == "opaque"
    assert anthropic.fields[("tool_choice", "disable_parallel_tool_use")] == "mapped"  # read by embedded_flag


def test_coverage_records_the_numeric_ranges_of_the_derived_schema():
    """A plain number rule bound to a property with minimum / maximum in the derived schema carries
    that range (botocore's bedrock-runtime model: InferenceConfiguration.temperature 0..1, maxTokens
    ≥ 1); the generated renderer refuses values outside it (tests/test_rules_bedrock_converse.py)."""
    spec, errors = load_spec(ROOT)
    assert not errors
    bounds = {p.name: p.coverage.bounds for p in spec.providers if p.coverage is not None}
    assert bounds["bedrock_converse"][("request", "inferenceConfig.temperature")][:2] == (0, 1)
    assert bounds["bedrock_converse"][("request", "inferenceConfig.topP")][:2] == (0, 1)
    assert bounds["bedrock_converse"][("request", "inferenceConfig.maxTokens")][:2] == (1, None)
    assert not bounds["openai_chat"]  # the openai SDK types give no ranges


def test_generated_code_reads_like_hand_written_code():
    """No module constant that nothing uses, no string constants glued at run time ("a" + "b"),
    articles that fit the provider's name."""
    import re

    for path in sorted((ROOT / "generated" / "toolwire" / "providers").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        unused = [n for n in re.findall(r"^(_[A-Z][A-Za-z0-9_]*) = ", text, re.M) if len(re.findall(rf"\b{n}\b", text)) == 1]
        assert unused == [], f"{path.name}: unused constants {unused}"
        assert not re.search(r'"[^"\n]*" \+ "', text), f"{path.name}: string constants concatenated at run time"
        assert not re.search(r"→ a [AEIOU]", text), f"{path.name}: 'a' before a vowel in a docstring"



@functools.cache
def _top_level(module: str) -> tuple[dict[str, tuple[str, set[str]]], dict[str, str], int]:
    """A generated provider module read as text: its definitions (name → (source, module-level names
    it uses)), the names it imports from other provider modules (→ that module), its line count."""
    import ast

    path = ROOT / "generated" / "toolwire" / "providers" / f"{module}.py"
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    defs, imported = {}, {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            defs[node.targets[0].id] = node
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("toolwire.providers."):
            imported.update({a.name: node.module.rsplit(".", 1)[1] for a in node.names})
    names = set(defs) | set(imported)
    out = {n: ("".join(lines[d.lineno - 1 : d.end_lineno]), {x.id for x in ast.walk(d) if isinstance(x, ast.Name)} & names) for n, d in defs.items()}
    for n, (text, used) in out.items():  # a key-order cache holds answers computed with its rank
        if n.startswith(("_ORDER_", "_VORDER_")):
            used.add(n.replace("ORDER_", "RANK_", 1))
    return out, imported, source.count("\n")


def _definition(module: str, name: str) -> tuple[str, set[str]] | None:
    """The text of ``name`` as ``module`` has it, following its imports from other provider modules."""
    defs, imported, _ = _top_level(module)
    if name in imported:
        return _definition(imported[name], name)
    return defs.get(name)


def test_a_flavour_module_imports_what_it_shares_with_its_parent():
    """Issue 10 §4: a module generated for a spec with `extends` imports from its parent's module every
    definition that reads the same there and uses only names that are shared too (a fixpoint: a parent
    function calling a helper the child has its own version of would call the wrong helper), and holds
    only what differs. So no function of a child reads as its parent's unless it uses a name that
    differs; every name it imports is used; and it is much smaller than its parent."""
    spec, errors = load_spec(ROOT)
    assert spec is not None, [str(e) for e in errors.items]
    children = sorted((p.name, p.extends) for p in spec.providers if p.extends)
    assert len(children) >= 2
    extends = {p.name: p.extends for p in spec.providers}
    for child, parent in children:
        mine, imported, lines = _top_level(child)
        theirs = {n: _definition(imported.get(n, parent), n) for n in set(mine) | set(imported)}
        ancestors, up = set(), parent  # a name the parent itself needs nowhere comes from where the parent has it
        while up is not None:
            ancestors.add(up)
            up = extends[up]
        assert parent in set(imported.values()) <= ancestors, f"{child} imports nothing from {parent}, or from a module that is not an ancestor"
        for name in imported:  # the same text there, and used here
            assert theirs[name] is not None, f"{child} imports {name}, which {parent} does not have"
            assert any(name in used for _, used in mine.values()), f"{child} imports {name} and does not use it"
        same = {n for n, (text, _) in mine.items() if theirs[n] is not None and theirs[n][0] == text}
        while drop := {n for n in same if any(u in mine and u not in same for u in mine[n][1])}:
            same -= drop
        written_again = sorted(n for n in same if n not in ("PROVIDER", "FAMILY", "MODELS", "CANNOT_EXPRESS", "IR_LOSSES", "WIRE_DEFAULTS", "KINDS",
                                                       "TITLE", "EXTENDS", "SPEC", "DOCS", "SDK", "FEATURES", "MESSAGE_FIELDS",
                                                       "TYPE_CHECKING"))  # what each module says of itself (and the guard of its typing import)
        assert written_again == [], f"{child} defines what it could import from {parent}: {written_again}"
        parent_lines = _top_level(parent)[2]
        print(f"{child}: {lines} lines ({lines / parent_lines:.0%} of {parent}'s {parent_lines}), {len(imported)} names imported")
        # whose provider_data is the running module's (ctx.data), so only the real differences are left
        assert lines < 0.6 * parent_lines, f"{child}: {lines} lines, {parent}: {parent_lines}"


# A flavour in YAML alone (issue 10 §1): Anthropic's Messages body as Bedrock InvokeModel takes it —
# no `model` (it is in the URL, POST /model/{modelId}/invoke), `anthropic_version` fixed to
# "bedrock-2023-05-31" (docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html).
BEDROCK_FLAVOUR = """\
provider: anthropic_bedrock
extends: anthropic
title: Anthropic Claude on Amazon Bedrock (InvokeModel body)
models: any
cannot_express:
  - what: model
    outside_body: Request.model
    wire: [request.model]
    reason: The model is part of the URL (POST /model/{modelId}/invoke), not of the body.
  - retract: temperature, top_p, top_k
codecs:
  request:
    patch:
      drop: [model]
      fields:
        - {wire: anthropic_version, const: bedrock-2023-05-31, required: true}
"""


def _spec_with(tmp_path, name: str, text: str):
    """The repository's spec with ``spec/providers/<name>.yaml`` written as ``text``, loaded."""
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    (tmp_path / "spec" / "providers" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return load_spec(tmp_path)


def _compiled(spec, name):
    from generator.emit import ProviderCompiler
    from generator.main import _env

    provider = next(p for p in spec.providers if p.name == name)
    source = _env().get_template("provider.py.j2").render(p=provider, module=ProviderCompiler(spec, provider).compile())
    namespace: dict = {}
    exec(compile(source, name, "exec"), namespace)
    return namespace


def test_a_flavour_drops_a_required_field_fixes_a_constant_and_retracts_a_loss_in_yaml_alone(tmp_path):
    from toolwire_runtime.context import Context

    spec, errors = _spec_with(tmp_path, "anthropic_bedrock", BEDROCK_FLAVOUR)
    assert spec is not None, [str(e) for e in errors.items]
    child, parent = _compiled(spec, "anthropic_bedrock"), _compiled(spec, "anthropic")
    assert "temperature, top_p, top_k" not in [what for what, _ in child["CANNOT_EXPRESS"]]
    assert "temperature, top_p, top_k" in [what for what, _ in parent["CANNOT_EXPRESS"]]
    body = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}
    ctx = Context("anthropic_bedrock")
    request = child["request_to_ir"](body, ctx)
    assert child["request_from_ir"](request, ctx) == body
    request.model = "anthropic.claude-sonnet-4-5-20250929-v1:0"
    ctx = Context("anthropic_bedrock")
    assert child["request_from_ir"](request, ctx) == body  # the model goes in the URL: reported, not a loss
    assert [category.__name__ for _, _, category in ctx.reports] == ["OutsideBodyWarning"]
    rendered = parent["request_from_ir"](request, Context("anthropic"))  # nothing leaks into the parent's body
    assert "anthropic_version" not in rendered and rendered["model"] == request.model


def test_retracting_a_loss_the_parent_does_not_have_is_a_spec_error(tmp_path):
    spec, errors = _spec_with(tmp_path, "anthropic_bedrock", BEDROCK_FLAVOUR.replace("retract: temperature, top_p, top_k", "retract: no such loss"))
    assert spec is None
    assert [str(e) for e in errors.items] == [
        "spec/providers/anthropic_bedrock.yaml:10: retract 'no such loss': 'anthropic' has no cannot_express entry with that what"]


# `when: {all: [...]}` (every condition holds) and a `default:` that is a JSON object (issue 10 §1).
CONDITIONS_FLAVOUR = """\
provider: png_only
extends: openai_chat
title: An OpenAI-compatible API that takes PNG bytes or https URLs only
codecs:
  user_part:
    kind: union
    tag: type
    variants:
      text: text_part
      image_url: {codec: image_part, when: [{all: [data, "media_type image/png"]}, "url https:"]}
  tool:
    patch:
      fields:
        - {wire: function.parameters, ir: parameters, type: object, default: {type: object, properties: {}}}
"""


def test_when_all_and_a_json_object_default(tmp_path):
    from toolwire import ir
    from toolwire_runtime.context import Context

    spec, errors = _spec_with(tmp_path, "png_only", CONDITIONS_FLAVOUR)
    assert spec is not None, [str(e) for e in errors.items]
    mod = _compiled(spec, "png_only")
    images = [
        ir.ImagePart(data="iVBORw0KGgo=", media_type="image/png"),  # data and PNG: sent
        ir.ImagePart(data="/9j/4AAQ", media_type="image/jpeg"),  # data, not PNG: dropped
        ir.ImagePart(url="https://example.com/a.jpg"),  # an https URL: sent
        ir.ImagePart(url="http://example.com/a.png"),  # neither: dropped
    ]
    tool = ir.ToolDefinition(name="f", parameters={"type": "object", "properties": {}})
    req = ir.Request(model="m", messages=[ir.Message(role="user", parts=[ir.TextPart(text="hi"), *images])], tools=[tool])
    ctx = Context("png_only")
    body = mod["request_from_ir"](req, ctx)
    sent = [p["image_url"]["url"] for p in body["messages"][0]["content"] if p["type"] == "image_url"]
    assert sent == ["data:image/png;base64,iVBORw0KGgo=", "https://example.com/a.jpg"]
    assert len([r for r in ctx.reports if "dropped" in r[1]]) == 2
    # the object default: the provider assumes it when the key is absent (WIRE_DEFAULTS lists it)
    assert ("function.parameters", {"type": "object", "properties": {}}) in mod["WIRE_DEFAULTS"]
    bare = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "f"}}]}
    parsed = mod["request_to_ir"](bare, Context("png_only"))
    assert parsed.tools[0].parameters is None  # absent: the IR keeps None for the provider's default
    assert mod["request_from_ir"](parsed, Context("png_only")) == bare  # and it stays absent
    explicit = {**bare, "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]}
    assert mod["request_from_ir"](mod["request_to_ir"](explicit, Context("png_only")), Context("png_only")) == explicit


def test_a_malformed_when_all_is_a_spec_error(tmp_path):
    spec, errors = _spec_with(tmp_path, "png_only", CONDITIONS_FLAVOUR.replace('{all: [data, "media_type image/png"]}', "{all: []}"))
    assert spec is None
    assert any("{all: [entries]}" in str(e) and str(e).startswith("spec/providers/png_only.yaml:") for e in errors.items)


def test_an_optional_conversation_list(tmp_path):
    """A conversation rule without `required` (Cohere v1's chat_history): absent, null or empty is no
    messages there; each comes back as the same-provider input spelled it, and a render from
    elsewhere leaves an empty list out."""
    from toolwire import ir
    from toolwire_runtime.context import Context

    flavour = (
        "provider: optional_history\nextends: openai_chat\ntitle: An API whose message list may be left out\n"
        "codecs:\n  request:\n    patch:\n      fields:\n"
        "        - {wire: messages, ir: messages, conversation: conversation}\n"
    )
    spec, errors = _spec_with(tmp_path, "optional_history", flavour)
    assert spec is not None, [str(e) for e in errors.items]
    mod = _compiled(spec, "optional_history")
    for body in ({"model": "m"}, {"model": "m", "messages": []}, {"model": "m", "messages": None},
                 {"model": "m", "messages": [{"role": "user", "content": "hi"}]}):
        request = mod["request_to_ir"](body, Context("optional_history"))
        assert mod["request_from_ir"](request, Context("optional_history")) == body
    assert mod["request_to_ir"]({"model": "m"}, Context("optional_history")).messages == []
    assert mod["request_from_ir"](ir.Request(model="m", messages=[]), Context("optional_history")) == {"model": "m"}


# `for_models` (issue 12 §2): a wire value filled in for some models when the IR has none, and
# another constant for others — written in a flavour, as a rule of a future model would be.
MODEL_RULES_FLAVOUR = """\
provider: model_rules
extends: openai_chat
title: An OpenAI-compatible API whose newer models need a tool description
codecs:
  tool:
    patch:
      fields:
        - {wire: type, const: function}
        - wire: function.description
          ir: description
          type: string
          for_models:
            - match: ["new-*"]
              except: ["new-mini*"]
              why: new models reject a tool without a description
              source: https://example.com/new-models
              fallback: "(no description)"
"""


def test_a_model_rule_fills_a_value_the_ir_lacks_and_says_why(tmp_path):
    from toolwire import ir
    from toolwire_runtime.context import Context

    spec, errors = _spec_with(tmp_path, "model_rules", MODEL_RULES_FLAVOUR)
    assert spec is not None, [str(e) for e in errors.items]
    mod = _compiled(spec, "model_rules")
    tools = [ir.ToolDefinition(name="f", parameters={"type": "object", "properties": {}}),
             ir.ToolDefinition(name="g", description="G.", parameters={"type": "object", "properties": {}})]

    def render(model):
        ctx = Context("model_rules")
        body = mod["request_from_ir"](ir.Request(model=model, messages=[ir.Message(role="user", parts=[ir.TextPart(text="hi")])], tools=tools), ctx)
        return [t["function"].get("description") for t in body["tools"]], [(m, c.__name__) for _, m, c in ctx.reports]

    descriptions, reports = render("new-large")
    assert descriptions == ["(no description)", "G."]  # filled only where the IR has none
    assert reports == [("model 'new-large' on model_rules: new models reject a tool without a description; sent '(no description)'", "AssumptionWarning")]
    for model in ("new-mini-1", "old-large"):  # excepted, not matched
        assert render(model) == ([None, "G."], [])
    # no model: no model rule (only the report that the body requires one)
    assert render(None) == ([None, "G."], [("model is required by model_rules and the input has none; add it before sending", "LossWarning")])


def test_generator_cache_returns_what_the_step_computes(tmp_path, monkeypatch):
    from generator import cache

    monkeypatch.setattr(cache, "DIR", tmp_path)
    monkeypatch.setenv("TOOLWIRE_GENERATOR_CACHE", "1")
    calls = []
    step = lambda text: lambda: calls.append(text) or text.upper()  # noqa: E731
    assert cache.cached("black", "a = 1", step("a = 1")) == "A = 1"
    assert cache.cached("black", "a = 1", step("a = 1")) == "A = 1"  # a hit: not computed again
    assert cache.cached("black", "a = 2", step("a = 2")) == "A = 2"  # another input misses
    assert calls == ["a = 1", "a = 2"]
    monkeypatch.setenv("TOOLWIRE_GENERATOR_CACHE", "black")  # only black's entries are kept
    assert cache.cached("derive", "a = 1", step("a = 1")) == "A = 1"
    assert cache.cached("derive", "a = 1", step("a = 1")) == "A = 1"
    assert calls == ["a = 1", "a = 2", "a = 1", "a = 1"]
    monkeypatch.setenv("TOOLWIRE_GENERATOR_CACHE", "0")
    assert cache.cached("black", "a = 1", step("a = 1")) == "A = 1"
    assert len(calls) == 5


def test_every_package_is_in_the_wheel():
    """pyproject.toml lists its packages by hand: each package directory of generated/ and
    runtime/ must be there, or a non-editable install lacks it (toolwire.streams once was)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = set()
    for top, base in (("toolwire", ROOT / "generated" / "toolwire"), ("toolwire_runtime", ROOT / "runtime" / "toolwire_runtime")):
        for init in base.rglob("__init__.py"):
            found.add(".".join([top, *init.parent.relative_to(base).parts]))
    assert found == listed


def test_carries_without_a_hint_is_a_spec_error(tmp_path):
    """`carries` reads the transform's hint: a transform that returns none cannot say what it carries."""
    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    path = tmp_path / "spec" / "transforms.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\nbase64_images:\n" in text
    path.write_text(text.replace("\nbase64_images:\n", "\nbase64_images:\n  carries: tw.nothing({hint})\n", 1), encoding="utf-8")
    spec, errors = load_spec(tmp_path)
    assert spec is None
    assert any("transform 'base64_images': carries reads the hint" in str(e) and "spec/transforms.yaml:" in str(e) for e in errors.items)
