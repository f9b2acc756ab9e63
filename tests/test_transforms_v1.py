"""The field transforms for the legacy Cohere chat API (v1): python_type_params (tool parameters in
Python type notation, `parameter_definitions`) and output_list (a tool result as `outputs`, a list
of objects). spec/transforms.yaml documents both; the runtime functions are tested here directly,
with their reports (Context) and paths, and once through generated code (a test flavour)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import toolwire  # noqa: F401  (initialises the package the runtime imports from)
from toolwire import ir
from toolwire_runtime import transforms as tw
from toolwire_runtime.context import Context
from toolwire_runtime.errors import LossError, MissingFieldError, UnsupportedError, WrongTypeError, format_path

ROOT = Path(__file__).resolve().parent.parent
PATH = ("tools", 0), "parameter_definitions"  # where the wire map sits (a nested path, as generated code builds)
SCHEMA_PATH = ("tools", 0), "parameters"


def _dumps(value):
    return json.dumps(value)


def _render(schema, hint=None, provider="cohere_v1", strict=False):
    ctx = Context(provider, strict=strict)
    return tw.python_type_params_render(schema, hint, SCHEMA_PATH, ctx), ctx.loss_report()


def _same_provider_round_trip(wire):
    schema, hint = tw.python_type_params_parse(wire, PATH)
    ctx = Context("cohere_v1")
    back = tw.python_type_params_render(schema, hint, PATH, ctx)
    assert _dumps(back) == _dumps(wire)
    assert ctx.reports == []  # a same-provider round trip loses nothing
    return schema, hint


# --- python_type_params: the official table (docs.cohere.com/v1/docs/parameter-types-in-tool-use) --

TABLE = [
    ({"type": "string"}, "str"),
    ({"type": "number"}, "float"),
    ({"type": "integer"}, "int"),
    ({"type": "boolean"}, "bool"),
    ({"type": "object"}, "Dict"),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, "Dict[str, int]"),
    ({"type": "array"}, "List"),
    ({"type": "array", "items": {"type": "string"}}, "List[str]"),
    ({"type": "array", "items": {"type": "array", "items": {"type": "string"}}}, "List[List[str]]"),
]


@pytest.mark.parametrize("prop,notation", TABLE, ids=[n for _, n in TABLE])
def test_the_documented_types_go_both_ways_exactly(prop, notation):
    schema = {"type": "object", "properties": {"p": prop}}
    wire, lost = _render(schema)
    assert wire == {"p": {"type": notation}}
    assert lost == []
    back, hint = tw.python_type_params_parse(wire, PATH)
    assert back == schema and hint is None  # canonical spelling: no hint needed


def test_entries_follow_the_schema_order_with_description_type_required():
    schema = {
        "type": "object",
        "properties": {
            "zeta": {"type": "integer", "description": "last in the alphabet, first here"},
            "alpha": {"description": "a day", "type": "string"},
            "mid": {"type": "boolean"},
        },
        "required": ["alpha", "zeta"],
    }
    wire, lost = _render(schema)
    assert _dumps(wire) == _dumps({
        "zeta": {"description": "last in the alphabet, first here", "type": "int", "required": True},
        "alpha": {"description": "a day", "type": "str", "required": True},
        "mid": {"type": "bool"},  # not required: the key is left out, never `required: false`
    })
    assert lost == []
    back, hint = tw.python_type_params_parse(wire, PATH)
    assert hint is None
    # description first in each property, required in the wire's order
    assert _dumps(back) == _dumps({
        "type": "object",
        "properties": {
            "zeta": {"description": "last in the alphabet, first here", "type": "integer"},
            "alpha": {"description": "a day", "type": "string"},
            "mid": {"type": "boolean"},
        },
        "required": ["zeta", "alpha"],
    })


def test_a_tool_without_parameters():
    assert _render(None) == ({}, [])
    assert _render({"type": "object", "properties": {}}) == ({}, [])
    schema, hint = tw.python_type_params_parse({}, PATH)
    assert schema == {"type": "object", "properties": {}} and hint is None  # `required` left out when empty


def test_what_the_notation_cannot_state_is_reported_once_per_tool_at_the_first_keyword():
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",  # identification: not a loss
        "type": "object",
        "properties": {
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit"},
            "when": {"type": "string", "format": "date-time"},
            "where": {"type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"]},
            "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "count": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}},
            "free": {"type": "object", "additionalProperties": True},  # constrains nothing: not a loss
        },
        "required": ["unit"],
        "additionalProperties": False,
    }
    wire, lost = _render(schema)
    assert wire == {
        "unit": {"description": "Unit", "type": "str", "required": True},
        "when": {"type": "str"},
        "where": {"type": "Dict"},
        "either": {"type": "Any"},
        "count": {"type": "int"},
        "tags": {"type": "List[str]"},
        "free": {"type": "Dict"},
    }
    assert len(lost) == 1
    where, message = lost[0]
    assert where == "tools[0].parameters.properties.unit.enum"  # the first keyword not sent
    for name in ("properties.unit.enum", "properties.when.format", "properties.where.properties",
                 "properties.where.required", "properties.either.anyOf", "properties.count.minimum",
                 "properties.count.maximum", "properties.count.default", "properties.tags.items.maxLength",
                 "additionalProperties"):
        assert name in message, name
    assert "$schema" not in message and "free" not in message


def test_a_top_level_keyword_is_reported_at_its_own_path():
    wire, lost = _render({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False})
    assert wire == {"a": {"type": "str"}}
    assert lost == [("tools[0].parameters.additionalProperties",
                     "Python type notation cannot state additionalProperties; not sent")]


def test_strict_mode_raises_at_the_path_of_the_keyword():
    with pytest.raises(LossError) as exc:
        _render({"type": "object", "properties": {"unit": {"type": "string", "enum": ["c"]}}}, strict=True)
    assert format_path(exc.value.path) == "tools[0].parameters.properties.unit.enum"


def test_a_nullable_type_is_sent_as_the_type_and_the_null_is_reported():
    """Cohere parameters are optional through `required`, not through null: a type list with
    "null" is sent as its other type, and the model can no longer send null: reported."""
    schema = {"type": "object", "properties": {"city": {"type": ["string", "null"]}, "n": {"type": ["integer", "string"]}},
              "required": ["city"]}
    wire, lost = _render(schema)
    assert wire == {"city": {"type": "str", "required": True}, "n": {"type": "int"}}
    assert len(lost) == 1
    assert lost[0][0] == "tools[0].parameters.properties.city.type"
    assert "properties.city.type (null is not stated)" in lost[0][1]
    assert "properties.n.type (only 'integer' is stated)" in lost[0][1]


def test_non_standard_type_names_in_the_schema_are_python_names_anyway():
    """The IR may hold `dict` / `str` (json_schema keeps them as sent): the notation says them
    exactly, nothing is reported."""
    wire, lost = _render({"type": "object", "properties": {"d": {"type": "dict"}, "s": {"type": "STRING"}}})
    assert wire == {"d": {"type": "Dict"}, "s": {"type": "str"}}
    assert lost == []


def test_a_root_type_other_than_object_is_unsupported():
    with pytest.raises(UnsupportedError) as exc:
        _render({"type": "array", "items": {"type": "string"}})
    assert format_path(exc.value.path) == "tools[0].parameters.type"


def test_required_names_without_a_property_are_reported():
    wire, lost = _render({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "ghost"]})
    assert wire == {"a": {"type": "str", "required": True}}
    assert lost and lost[0][0] == "tools[0].parameters.required"


# --- python_type_params: parsing what the notation allows ------------------------------------------


@pytest.mark.parametrize(
    "notation,prop",
    [
        ("list", {"type": "array"}),
        ("dict", {"type": "object"}),
        ("string", {"type": "string"}),
        ("Dict[str,int]", {"type": "object", "additionalProperties": {"type": "integer"}}),
        ("dict[str, list[int]]", {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}}),
        ("typing.List[str]", {"type": "array", "items": {"type": "string"}}),
        ("Optional[str]", {"type": ["string", "null"]}),
        ("Optional[List[str]]", {"type": ["array", "null"], "items": {"type": "string"}}),
        ("Union[int, str]", {"type": ["integer", "string"]}),
        ("int | None", {"type": ["integer", "null"]}),
        ("Any", {}),
        ("None", {"type": "null"}),
    ],
)
def test_other_spellings_are_read_exactly_and_come_back_as_sent(notation, prop):
    wire = {"p": {"description": "d", "type": notation}}
    schema, hint = _same_provider_round_trip(wire)
    assert schema == {"type": "object", "properties": {"p": {"description": "d", **prop}}}
    canonical, _ = _render(schema)
    # the spelling is a hint (for the same provider only) unless it is the one rendered anyway
    assert hint == (None if canonical == wire else wire)
    assert notation in ("Any", "None") or hint == wire


@pytest.mark.parametrize(
    "notation,prop",
    [
        ("InventoryItem", {"x-python-type": "InventoryItem"}),  # a dataclass (the docs' example)
        ("Tuple[int, int]", {"type": "array", "x-python-type": "Tuple[int, int]"}),
        ("Dict[int, str]", {"type": "object", "x-python-type": "Dict[int, str]"}),
        ("Literal['a', 'b']", {"x-python-type": "Literal['a', 'b']"}),
        ("List[InventoryItem]", {"type": "array", "items": {"x-python-type": "InventoryItem"}}),
        ("List[", {"x-python-type": "List["}),
    ],
)
def test_types_json_schema_cannot_state_are_kept_as_x_python_type(notation, prop):
    wire = {"item": {"description": "An InventoryItem object", "type": notation, "required": True}}
    schema, hint = _same_provider_round_trip(wire)
    assert schema == {"type": "object", "properties": {"item": {"description": "An InventoryItem object", **prop}},
                      "required": ["item"]}
    # the text travels in the schema itself, so a render without the hint gives it back too
    assert _render(schema) == (wire, [])


def test_x_python_type_reaches_other_targets_and_is_reported_where_dropped():
    schema, _ = tw.python_type_params_parse({"item": {"type": "InventoryItem"}}, PATH)
    ctx = Context("openai_chat")
    assert tw.json_schema_render(schema, None, SCHEMA_PATH, ctx) == schema  # JSON Schema takes the keyword
    ctx = Context("gemini_openapi")
    tw.openapi_schema_render(schema, None, SCHEMA_PATH, ctx)
    assert any("x-python-type" in path for path, _ in ctx.loss_report())


def test_keywords_beside_x_python_type_are_reported_unless_implied_by_it():
    schema = {"type": "object", "properties": {
        "t": {"type": "array", "x-python-type": "Tuple[int, int]", "minItems": 2},
    }}
    wire, lost = _render(schema)
    assert wire == {"t": {"type": "Tuple[int, int]"}}
    assert [p for p, _ in lost] == ["tools[0].parameters.properties.t.minItems"]
    assert "properties.t.type" not in lost[0][1]  # "array" is what the annotation says


def test_wire_spellings_come_back_byte_for_byte():
    wire = {
        "b": {"type": "str", "description": "type before description"},
        "c": {"description": None, "type": "int", "required": False},
        "d": {"description": "extra keys are kept", "type": "str", "required": True, "default": "x"},
    }
    schema, hint = _same_provider_round_trip(wire)
    assert hint == wire
    assert schema["properties"]["d"] == {"description": "extra keys are kept", "type": "string", "default": "x"}
    assert schema["required"] == ["d"]
    # the schema as read renders the canonical way for a provider without the hint, default reported
    wire2, lost = _render(schema)
    assert wire2 == {"b": {"description": "type before description", "type": "str"}, "c": {"type": "int"},
                     "d": {"description": "extra keys are kept", "type": "str", "required": True}}
    assert [p for p, _ in lost] == ["tools[0].parameters.properties.d.default"]


def test_extra_keys_that_are_no_valid_keywords_still_come_back():
    wire = {"a": {"type": "List", "items": "not a schema"}}
    schema, hint = _same_provider_round_trip(wire)
    assert hint == wire and schema["properties"]["a"] == {"type": "array", "items": "not a schema"}


def test_tuple_form_items_are_reported_not_refused():
    wire, lost = _render({"type": "object", "properties": {"pt": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}}})
    assert wire == {"pt": {"type": "List"}}
    assert [p for p, _ in lost] == ["tools[0].parameters.properties.pt.items"]


def test_a_hint_does_not_outlive_a_changed_schema():
    wire = {"a": {"type": "list"}}
    schema, hint = tw.python_type_params_parse(wire, PATH)
    changed = {"type": "object", "properties": {"a": {"type": "array"}, "b": {"type": "string"}}}
    assert _render(changed, hint) == ({"a": {"type": "List"}, "b": {"type": "str"}}, [])


def test_render_then_parse_then_render_is_stable():
    schema = {
        "type": "object",
        "properties": {
            "q": {"description": "query", "type": "string"},
            "n": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "number"}}},
            "opt": {"type": ["boolean", "null"]},
            "any": {},
        },
        "required": ["q"],
    }
    wire, _ = _render(schema)
    back, hint = tw.python_type_params_parse(wire, PATH)
    assert hint is None
    assert _render(back) == (wire, [])
    assert back["properties"]["n"] == schema["properties"]["n"]


@pytest.mark.parametrize(
    "wire,error,where",
    [
        ([], WrongTypeError, "tools[0].parameter_definitions"),
        ({"a": "str"}, WrongTypeError, "tools[0].parameter_definitions.a"),
        ({"a": {"description": "no type"}}, MissingFieldError, "tools[0].parameter_definitions.a.type"),
        ({"a": {"type": 3}}, WrongTypeError, "tools[0].parameter_definitions.a.type"),
        ({"a": {"type": "str", "required": "yes"}}, WrongTypeError, "tools[0].parameter_definitions.a.required"),
        ({"a": {"type": "str", "description": 1}}, WrongTypeError, "tools[0].parameter_definitions.a.description"),
    ],
)
def test_malformed_wire_maps_raise_with_the_path(wire, error, where):
    with pytest.raises(error) as exc:
        tw.python_type_params_parse(wire, PATH)
    assert format_path(exc.value.path) == where


# --- output_list ---------------------------------------------------------------------------------

OUT = ("tool_results", 0), "outputs"


def _out_render(result, is_error=False, parts=None, hint=None, strict=False):
    ctx = Context("cohere_v1", strict=strict)
    return tw.output_list_render(result, is_error, parts, hint, "output", "error", OUT, ctx), ctx.loss_report()


CANONICAL = [
    ({"temp": 22, "condition": "sunny"}, False, [{"temp": 22, "condition": "sunny"}]),
    ([{"id": 1}, {"id": 2}], False, [{"id": 1}, {"id": 2}]),
    ("sunny", False, [{"output": "sunny"}]),
    (42, False, [{"output": 42}]),
    (True, False, [{"output": True}]),
    (None, False, [{"output": None}]),
    ([1, 2], False, [{"output": [1, 2]}]),
    ([], False, [{"output": []}]),
    ([{"id": 1}], False, [{"output": [{"id": 1}]}]),  # a one-object list would read back as the object
    ({"output": 5}, False, [{"output": {"output": 5}}]),  # looks like a wrapper: wrapped once more
    ({"error": "x"}, False, [{"output": {"error": "x"}}]),
    ("city not found", True, [{"error": "city not found"}]),
    ({"code": 404}, True, [{"error": {"code": 404}}]),
]


@pytest.mark.parametrize("result,is_error,wire", CANONICAL, ids=[json.dumps(w) for _, _, w in CANONICAL])
def test_output_list_canonical_forms_go_both_ways(result, is_error, wire):
    assert _out_render(result, is_error) == (wire, [])
    back = tw.output_list_parse(wire, "output", "error", OUT)
    assert back[:3] == (result, is_error, None)
    assert back[3] is None  # the canonical spelling needs no hint


def test_json_object_text_is_sent_as_the_object():
    """String-result providers (OpenAI, Anthropic) carry object results as JSON text."""
    assert _out_render('{"temp":22}') == ([{"temp": 22}], [])
    assert _out_render('{"reason":"timeout"}', True) == ([{"error": {"reason": "timeout"}}], [])
    assert _out_render("[1, 2]") == ([{"output": "[1, 2]"}], [])  # only objects


@pytest.mark.parametrize(
    "wire,result,is_error",
    [
        ([], None, False),  # no outputs: no result
        ([{"output": {"a": 1}}], {"a": 1}, False),
        ([{"output": '{"a":1}'}], '{"a":1}', False),
        ([{"error": '{"a":1}'}], '{"a":1}', True),
        ([{"output": [{"a": 1}, {"b": 2}]}], [{"a": 1}, {"b": 2}], False),
    ],
)
def test_other_outputs_spellings_come_back_for_the_same_provider(wire, result, is_error):
    got = tw.output_list_parse(wire, "output", "error", OUT)
    assert got[:3] == (result, is_error, None)
    assert got[3] == wire  # the spelling, as a hint
    back, lost = _out_render(got[0], got[1], None, got[3])
    assert _dumps(back) == _dumps(wire) and lost == []


def test_several_outputs_are_the_list_even_with_wrapper_keys():
    wire = [{"error": "a"}, {"output": "b"}]
    assert tw.output_list_parse(wire, "output", "error", OUT) == (wire, False, None, None)
    assert _out_render(wire) == (wire, [])


def test_an_output_hint_does_not_outlive_a_changed_result():
    _, _, _, hint = tw.output_list_parse([], "output", "error", OUT)
    assert _out_render("new", False, None, hint) == ([{"output": "new"}], [])
    assert _out_render(None, True, None, hint) == ([{"error": None}], [])


def test_result_parts_text_becomes_the_result_and_media_is_reported():
    text = [ir.TextPart(text="line 1"), ir.TextPart(text="line 2")]
    wire, lost = _out_render(None, False, text)
    assert wire == [{"output": "line 1\nline 2"}]
    assert [m for _, m in lost] == ["2 text blocks of the tool result sent as one text, joined with a newline"]
    image = ir.ImagePart(data="iVBORw0KGgo=", media_type="image/png")
    wire, lost = _out_render({"found": True}, False, [image])
    assert wire == [{"found": True}]
    assert lost == [("tool_results[0].outputs", "tool result parts (ImagePart) cannot be sent; only the result and its text are")]
    with pytest.raises(LossError):
        _out_render(None, False, [image], strict=True)


def test_result_and_text_parts_together_report_the_parts():
    wire, lost = _out_render("result", False, [ir.TextPart(text="more")])
    assert wire == [{"output": "result"}]
    assert lost == [("tool_results[0].outputs", "tool result has both a result and text parts; the text parts are not sent")]


@pytest.mark.parametrize(
    "wire,where",
    [({"output": 1}, "tool_results[0].outputs"), ([{"a": 1}, "text"], "tool_results[0].outputs[1]"), ("x", "tool_results[0].outputs")],
)
def test_malformed_outputs_raise_with_the_path(wire, where):
    with pytest.raises(WrongTypeError) as exc:
        tw.output_list_parse(wire, "output", "error", OUT)
    assert format_path(exc.value.path) == where


# --- both, through generated code (a test flavour of openai_chat; not a provider of the package) --

FLAVOUR = """\
provider: v1_like
extends: openai_chat
title: OpenAI Chat with Cohere v1's tool parameters and tool outputs (a test flavour)
codecs:
  tool:
    patch:
      fields:
        - {wire: function.parameters, ir: parameters, transform: python_type_params}
  tool_message:
    patch:
      fields:
        - {wire: content, ir: [result, is_error, parts], transform: output_list, args: {key: output, error_key: error}}
"""


def test_the_vocabulary_entries_generate_working_code(tmp_path):
    from generator.emit import ProviderCompiler
    from generator.main import _env
    from generator.spec import load_spec

    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    (tmp_path / "spec" / "providers" / "v1_like.yaml").write_text(FLAVOUR, encoding="utf-8")
    spec, errors = load_spec(tmp_path)
    assert spec is not None, [str(e) for e in errors.items]
    provider = next(p for p in spec.providers if p.name == "v1_like")
    source = _env().get_template("provider.py.j2").render(p=provider, module=ProviderCompiler(spec, provider).compile())
    mod: dict = {}
    exec(compile(source, "v1_like", "exec"), mod)

    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "Stock of item 7?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "stock", "arguments": "{\"item\":7}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"output": {"count": 3}}]},
        ],
        "tools": [{"type": "function", "function": {"name": "stock", "parameters": {
            "item": {"description": "item id", "type": "int", "required": True},
            "where": {"type": "Optional[str]"},
            "spec": {"type": "InventoryItem"},
        }}}],
    }
    ctx = Context("v1_like")
    request = mod["request_to_ir"](body, ctx)
    assert request.tools[0].parameters == {
        "type": "object",
        "properties": {"item": {"description": "item id", "type": "integer"}, "where": {"type": ["string", "null"]},
                       "spec": {"x-python-type": "InventoryItem"}},
        "required": ["item"],
    }
    assert request.messages[2].parts[0].result == {"count": 3}
    ctx = Context("v1_like")
    assert _dumps(mod["request_from_ir"](request, ctx)) == _dumps(body)
    assert ctx.reports == []

    # from elsewhere: an IR built by hand, as another provider's parse gives it
    request.tools[0].parameters = {"type": "object", "properties": {"unit": {"type": "string", "enum": ["c", "f"]}}}
    request.tools[0].provider_data = None
    request.messages[2].parts[0].provider_data = None
    request.messages[2].parts[0].result = "3 left"
    ctx = Context("v1_like")
    out = mod["request_from_ir"](request, ctx)
    assert out["tools"][0]["function"]["parameters"] == {"unit": {"type": "str"}}
    assert out["messages"][2]["content"] == [{"output": "3 left"}]
    assert [format_path(p) for p, _, _ in ctx.reports] == ["tools[0].parameters.properties.unit.enum"]  # IR paths on render
