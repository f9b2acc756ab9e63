"""Tool definitions from Python functions (runtime/toolwire_runtime/tools.py).

Exact schemas for each type form and docstring style; where pydantic has an opinion, the schema
is the one pydantic's ``TypeAdapter`` writes for the same function or type (up to its ``title``s
and ``validate_call``'s ``additionalProperties: false``), so it is standard JSON Schema. The
definitions render for every provider and the bodies pass the providers' SDK types
(tests/sdk_validation.py); Gemini's legacy ``parameters`` is checked as tests/test_gemini_schema.py
checks it.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import pathlib
import subprocess
import sys
import uuid
import warnings
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, Optional, Required, Union

import pytest

import toolwire
from toolwire import ir
from toolwire_runtime.tools import Tool, schema_of, tool, tool_from_function

pydantic = pytest.importorskip("pydantic")
from pydantic import BaseModel, Field, TypeAdapter  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402  (pydantic wants it before Python 3.12; toolwire takes both)


def params(fn, **kwargs) -> dict:
    return tool_from_function(fn, **kwargs).parameters


def without_titles(schema: Any) -> Any:
    """pydantic's schema without what it adds for display: ``title`` keys (not a property named title)."""
    if isinstance(schema, dict):
        return {k: (without_titles(v) if k != "properties" else {p: without_titles(s) for p, s in v.items()})
                for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [without_titles(v) for v in schema]
    return schema


def pydantic_params(fn) -> dict:
    schema = without_titles(TypeAdapter(fn).json_schema())
    assert schema.pop("additionalProperties") is False  # validate_call forbids extra arguments
    return schema


# --- types ---------------------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Options(TypedDict, total=False):
    """Search options.

    Attributes:
        depth: How deep to search.
    """

    depth: int
    query: Required[str]


class Filters(TypedDict):
    kind: str
    limit: NotRequired[int]


@dataclasses.dataclass
class Address:
    street: str
    city: str = "Paris"
    tags: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Person:
    """A person.

    Attributes:
        name: Full name.
    """

    name: str
    address: Address


@dataclasses.dataclass
class TreeNode:
    value: int
    children: list[TreeNode] = dataclasses.field(default_factory=list)


class Point(BaseModel):
    x: float = Field(description="Horizontal position")
    y: float


class Segment(BaseModel):
    start: Point
    end: Point


def scalars(s: str, i: int, x: float, b: bool, n: None, anything: Any, bare) -> None:
    pass


def test_scalars():
    assert params(scalars) == {
        "type": "object",
        "properties": {
            "s": {"type": "string"}, "i": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
            "n": {"type": "null"}, "anything": {}, "bare": {},
        },
        "required": ["s", "i", "x", "b", "n", "anything", "bare"],
    }


def literals(unit: Literal["c", "f"], n: Literal[1, 2, 3], mixed: Literal["a", 1], color: Color, level: Level) -> None:
    pass


def test_literals_and_enums():
    assert params(literals)["properties"] == {
        "unit": {"enum": ["c", "f"], "type": "string"},
        "n": {"enum": [1, 2, 3], "type": "integer"},
        "mixed": {"enum": ["a", 1]},
        "color": {"enum": ["red", "blue"], "type": "string"},
        "level": {"enum": [1, 2], "type": "integer"},
    }


def optionals(a: Optional[int], b: str | None, c: Union[int, str], d: int | str | None = None) -> None:
    pass


def test_optional_and_unions():
    assert params(optionals) == {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "c": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "d": {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["a", "b", "c"],
    }
    assert params(optionals) == pydantic_params(optionals)


def containers(
    names: list[str], pair: tuple[int, str], many: tuple[float, ...], ids: set[int], frozen: frozenset[str],
    scores: dict[str, float], seq: Sequence[int], mapping: Mapping[str, bool], plain_list: list, plain_dict: dict,
) -> None:
    pass


def test_containers():
    assert params(containers)["properties"] == {
        "names": {"type": "array", "items": {"type": "string"}},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2},
        "many": {"type": "array", "items": {"type": "number"}},
        "ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        "frozen": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "scores": {"type": "object", "additionalProperties": {"type": "number"}},
        "seq": {"type": "array", "items": {"type": "integer"}},
        "mapping": {"type": "object", "additionalProperties": {"type": "boolean"}},
        "plain_list": {"type": "array"},
        "plain_dict": {"type": "object"},
    }
    for tp in (list[str], tuple[int, str], tuple[float, ...], set[int], frozenset[str], dict[str, float], Sequence[int]):
        assert schema_of(tp) == without_titles(TypeAdapter(tp).json_schema()), tp


def test_dict_keys_must_be_strings():
    def f(m: dict[int, str]) -> None:
        pass

    with pytest.raises(TypeError, match=r"f\(m\): dict has int keys; JSON object keys are strings"):
        tool_from_function(f)


def typed_dicts(options: Options, filters: Filters) -> None:
    pass


def test_typed_dicts():
    assert params(typed_dicts)["properties"] == {
        "options": {
            "type": "object",
            "properties": {"depth": {"type": "integer", "description": "How deep to search."}, "query": {"type": "string"}},
            "required": ["query"],
            "description": "Search options.",
        },
        "filters": {"type": "object", "properties": {"kind": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["kind"]},
    }
    assert schema_of(Filters) == without_titles(TypeAdapter(Filters).json_schema())


def dataclasses_in(person: Person, where: Address = Address("Main St")) -> None:
    pass


ADDRESS = {
    "type": "object",
    "properties": {
        "street": {"type": "string"}, "city": {"type": "string", "default": "Paris"},
        "tags": {"type": "array", "items": {"type": "string"}, "default": []},
    },
    "required": ["street"],
}


def test_dataclasses_nested_with_defaults():
    assert params(dataclasses_in) == {
        "type": "object",
        "properties": {
            "person": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Full name."},
                    "address": ADDRESS,
                },
                "required": ["name", "address"],
                "description": "A person.",
            },
            "where": {**ADDRESS, "default": {"street": "Main St", "city": "Paris", "tags": []}},
        },
        "required": ["person"],
    }


def tree(root: TreeNode) -> None:
    pass


def test_a_recursive_type_is_one_definition():
    assert params(tree) == {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/TreeNode"}},
        "required": ["root"],
        "$defs": {
            "TreeNode": {
                "type": "object",
                "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/TreeNode"}, "default": []}},
                "required": ["value"],
            }
        },
    }


def annotated(
    city: Annotated[str, "The city"],
    days: Annotated[int, Field(description="How many days", ge=1, le=14)] = 3,
    tags: Annotated[list[str], Field(min_length=1)] = ("x",),
) -> None:
    """Forecast.

    Args:
        city: Overridden by the Annotated description.
        days: Also overridden.
    """


def test_annotated_descriptions_and_bounds():
    assert params(annotated)["properties"] == {
        "city": {"type": "string", "description": "The city"},
        "days": {"type": "integer", "description": "How many days", "minimum": 1, "maximum": 14, "default": 3},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "default": ["x"]},
    }


def formats(when: datetime.datetime, day: datetime.date, at: datetime.time, id: uuid.UUID, path: pathlib.Path,
            color: Color = Color.BLUE, level: Level = Level.HIGH) -> None:
    pass


def test_string_formats_and_enum_defaults():
    assert params(formats)["properties"] == {
        "when": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "at": {"type": "string", "format": "time"},
        "id": {"type": "string", "format": "uuid"},
        "path": {"type": "string", "format": "path"},
        "color": {"enum": ["red", "blue"], "type": "string", "default": "blue"},
        "level": {"enum": [1, 2], "type": "integer", "default": 2},
    }
    for tp in (datetime.datetime, datetime.date, datetime.time, uuid.UUID, pathlib.Path):
        assert schema_of(tp) == TypeAdapter(tp).json_schema()


def test_pydantic_model_parameters_use_their_own_schema():
    def draw(segment: Segment, color: str = "black") -> None:
        """Draw a segment."""

    want = Segment.model_json_schema()
    defs = want.pop("$defs")
    assert params(draw) == {
        "type": "object",
        "properties": {"segment": want, "color": {"type": "string", "default": "black"}},
        "required": ["segment"],
        "$defs": defs,  # moved to the root, where its "#/$defs/Point" references point
    }
    assert defs["Point"]["properties"]["x"]["description"] == "Horizontal position"


def test_the_schema_is_pydantics_for_a_typical_function():
    # (pydantic writes a nested TypedDict, dataclass or Enum once under $defs; toolwire inlines them
    # unless they are recursive: compared above type by type)
    def search(query: str, limit: int = 10, kinds: list[Literal["file", "dir"]] = ["file"], since: Optional[datetime.date] = None,
               scores: dict[str, float] | None = None, pair: tuple[int, str] = (1, "a")) -> list[str]:
        pass

    assert params(search) == pydantic_params(search)


# --- what has no JSON form -----------------------------------------------------------------------


def test_star_args_are_rejected_clearly():
    def f(a: int, *rest: int) -> None:
        pass

    def g(a: int, **extra: str) -> None:
        pass

    with pytest.raises(TypeError, match=r"f\(rest\): \*rest has no place in a tool's arguments"):
        tool_from_function(f)
    with pytest.raises(TypeError, match=r"g\(extra\): \*\*extra has no place in a tool's arguments"):
        tool_from_function(g)


class Opaque:
    pass


def test_types_without_json_form_are_rejected_with_the_parameter():
    def f(thing: Opaque) -> None:
        pass

    with pytest.raises(TypeError, match=r"f\(thing\): Opaque has no JSON Schema form"):
        tool_from_function(f)
    def g(raw: Literal[b"x"]) -> None:
        pass

    with pytest.raises(TypeError, match=r"g\(raw\): Literal values must be str, int, float, bool or None, got \[b'x'\]"):
        tool_from_function(g)
    with pytest.raises(TypeError, match="pass name="):
        tool_from_function(lambda x: x)


# --- docstrings ----------------------------------------------------------------------------------


def google_style(city: str, units: str = "c") -> str:
    """Get the current weather.

    Looks the city up first; the forecast
    comes from the nearest station.

    Args:
        city (str): The city name,
            e.g. Paris.
        units: "c" or "f".

    Returns:
        The weather, as text.
    """


def numpy_style(city: str, units: str = "c") -> str:
    """Get the current weather.

    Parameters
    ----------
    city : str
        The city name,
        e.g. Paris.
    units : str, optional
        "c" or "f".

    Returns
    -------
    str
        The weather.
    """


def rest_style(city: str, units: str = "c") -> str:
    """Get the current weather.

    :param city: The city name,
        e.g. Paris.
    :param str units: "c" or "f".
    :returns: The weather.
    """


@pytest.mark.parametrize("fn", [google_style, numpy_style, rest_style], ids=lambda f: f.__name__)
def test_docstring_styles(fn):
    definition = tool_from_function(fn)
    assert definition.name == fn.__name__
    assert definition.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city name, e.g. Paris."},
            "units": {"type": "string", "description": '"c" or "f".', "default": "c"},
        },
        "required": ["city"],
    }
    if fn is google_style:
        assert definition.description == "Get the current weather.\n\nLooks the city up first; the forecast comes from the nearest station."
    else:
        assert definition.description == "Get the current weather."


def test_name_and_description_overrides_and_no_docstring():
    def f(x: int) -> None:
        pass

    assert tool_from_function(f) == ir.ToolDefinition(
        name="f", description=None, parameters={"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]})
    d = tool_from_function(google_style, name="weather", description="Weather.", strict=True)
    assert (d.name, d.description, d.strict) == ("weather", "Weather.", True)

    def none() -> None:
        """No arguments."""

    assert tool_from_function(none).parameters == {"type": "object", "properties": {}}


def user_module(source: str, monkeypatch) -> dict:
    """The namespace of a module made of ``source``, importable as ``user_module``."""
    import types

    module = types.ModuleType("user_module")
    monkeypatch.setitem(sys.modules, "user_module", module)
    exec(compile(source, "user_module.py", "exec"), module.__dict__)
    return module.__dict__


def test_string_annotations_of_a_future_annotations_module(monkeypatch):
    source = '''
from __future__ import annotations
import dataclasses
from typing import Literal

@dataclasses.dataclass
class Place:
    name: str
    kind: Literal["city", "town"] = "city"

def visit(place: Place, days: int | None = None) -> str:
    """Plan a visit."""
'''
    namespace = user_module(source, monkeypatch)
    assert isinstance(namespace["visit"].__annotations__["place"], str)
    assert params(namespace["visit"]) == {
        "type": "object",
        "properties": {
            "place": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "kind": {"enum": ["city", "town"], "type": "string", "default": "city"}},
                "required": ["name"],
            },
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        },
        "required": ["place"],
    }


def test_an_unresolvable_string_annotation_names_itself(monkeypatch):
    namespace = user_module("from __future__ import annotations\ndef f(x: Missing) -> None: pass\n", monkeypatch)
    with pytest.raises(TypeError, match=r"f\(x\): cannot resolve the annotation 'Missing'"):
        tool_from_function(namespace["f"])


# --- the decorator -------------------------------------------------------------------------------


@toolwire.tool
def get_weather(city: str, units: Literal["c", "f"] = "c") -> str:
    """Get the current weather.

    Args:
        city: City name, e.g. Tokyo.
    """
    return f"22 {units} in {city}"


@toolwire.tool(name="lookup", description="Look a word up.")
async def look_up(word: str) -> str:
    return word.upper()


def test_the_decorator_keeps_the_function_callable_and_carries_its_definition():
    assert isinstance(get_weather, Tool) and isinstance(get_weather, toolwire.Tool)
    assert get_weather("Tokyo") == "22 c in Tokyo" and get_weather(city="Oslo", units="f") == "22 f in Oslo"
    assert get_weather.__name__ == "get_weather" and get_weather.__doc__.startswith("Get the current weather.")
    assert get_weather.name == "get_weather" and not get_weather.is_async
    assert get_weather.definition == ir.ToolDefinition(
        name="get_weather", description="Get the current weather.",
        parameters={"type": "object", "properties": {
            "city": {"type": "string", "description": "City name, e.g. Tokyo."},
            "units": {"enum": ["c", "f"], "type": "string", "default": "c"}}, "required": ["city"]})
    assert tool_from_function(get_weather) == get_weather.definition
    assert look_up.name == "lookup" and look_up.definition.description == "Look a word up." and look_up.is_async
    import asyncio

    assert asyncio.run(look_up("hi")) == "HI"
    assert tool(name="x")(lambda word: word).definition.name == "x"


def test_a_decorated_method_binds_and_has_no_self_argument():
    class Weather:
        unit = "c"

        @toolwire.tool
        def forecast(self, city: str) -> str:
            """Forecast for a city."""
            return f"{city}: 20 {self.unit}"

    assert Weather.forecast.definition.parameters == {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    bound = Weather().forecast
    assert bound("Rome") == "Rome: 20 c" and bound.definition is Weather.forecast.definition


# --- rendering -----------------------------------------------------------------------------------

RICH = tool_from_function(containers, name="rich", description="Every container form.")


def request_with(*tools) -> ir.Request:
    return ir.Request(model="m", messages=[ir.Message(role="user", parts=[ir.TextPart(text="hi")])], tools=list(tools), max_tokens=64)


def test_renders_for_the_main_providers():
    req = request_with(get_weather)  # the Tool itself stands for its definition
    schema = get_weather.definition.parameters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bodies = {p: toolwire.from_ir(req, provider=p) for p in ("openai_chat", "anthropic", "gemini", "bedrock_converse")}
    assert bodies["openai_chat"]["tools"] == [{"type": "function", "function": {
        "name": "get_weather", "description": "Get the current weather.", "parameters": schema}}]
    assert bodies["anthropic"]["tools"] == [{"name": "get_weather", "description": "Get the current weather.", "input_schema": schema}]
    assert bodies["gemini"]["tools"] == [{"functionDeclarations": [{
        "name": "get_weather", "description": "Get the current weather.", "parametersJsonSchema": schema}]}]
    assert bodies["bedrock_converse"]["toolConfig"]["tools"] == [{"toolSpec": {
        "name": "get_weather", "description": "Get the current weather.", "inputSchema": {"json": schema}}}]


TOOLS = [get_weather.definition, RICH, tool_from_function(dataclasses_in), tool_from_function(typed_dicts),
         tool_from_function(formats), tool_from_function(annotated), tool_from_function(optionals)]


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
def test_every_provider_takes_the_definitions(provider):
    import sdk_validation

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        body = toolwire.from_ir(request_with(*TOOLS), provider=provider, model="m")
    assert sdk_validation.validate(provider, "request", body) == []


def _check_gemini_schema(schema: dict) -> None:
    """As tests/test_gemini_schema.py checks a converted schema: google-genai's Schema takes it
    (warnings are errors: an unknown enum value only warns) and it has only the API's Schema fields."""
    from google.genai import types as genai

    from toolwire_runtime.schema import GEMINI_SCHEMA_FIELDS

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        genai.Schema.model_validate(schema)

    def walk(node: Any) -> None:
        assert set(node) <= set(GEMINI_SCHEMA_FIELDS), set(node) - set(GEMINI_SCHEMA_FIELDS)
        for sub in [*node.get("properties", {}).values(), *node.get("anyOf", []), *([node["items"]] if "items" in node else [])]:
            walk(sub)

    walk(schema)


def test_gemini_legacy_parameters_accept_the_schemas():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        body = toolwire.from_ir(request_with(*TOOLS), provider="gemini_openapi")
    declarations = body["tools"][0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == [t.name for t in TOOLS]
    for declaration in declarations:
        _check_gemini_schema(declaration["parameters"])
    assert declarations[0]["parameters"] == {
        "type": "OBJECT",
        "properties": {"city": {"type": "STRING", "description": "City name, e.g. Tokyo."},
                       "units": {"type": "STRING", "format": "enum", "enum": ["c", "f"], "default": "c"}},
        "required": ["city"],
    }
    with pytest.raises(toolwire.UnsupportedError, match="recursive"):  # documented: use parametersJsonSchema (gemini)
        toolwire.from_ir(request_with(tool_from_function(tree)), provider="gemini_openapi")


def test_import_toolwire_does_not_load_the_tools_module():
    code = "import sys, toolwire; assert 'toolwire_runtime.tools' not in sys.modules; toolwire.tool; assert 'toolwire_runtime.tools' in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
    assert json.dumps(RICH.parameters)  # plain JSON
