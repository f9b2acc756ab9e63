"""The IR classes' generated methods (templates/ir.py.j2) against the real thing: the same
declarations (datamodel-code-generator's output for the IR schema) built by ``@dataclass``.

Everything a user can observe must be the same: fields (names, types, defaults, factories,
options), params, annotations, signature, docs, slots, match args, eq, repr (cycles too), hash,
``replace``, ``asdict``, ``astuple``, copy and pickle, and the errors of a bad call.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import pickle
import sys
import tempfile
import types
import typing
from pathlib import Path

import pytest

from generator import irgen
from generator import main as gen
from toolwire import ir

ROOT = Path(__file__).resolve().parent.parent


def _module(source: str, name: str) -> types.ModuleType:
    module = sys.modules[name] = types.ModuleType(name)  # dataclasses looks string annotations up there
    exec(compile(source, f"<{name}>", "exec", dont_inherit=True), module.__dict__)
    return module


@pytest.fixture(scope="module")
def datamodel_source() -> str:
    """datamodel-code-generator's output for the schema generated/ was built from."""
    pytest.importorskip("datamodel_code_generator")
    schema = json.loads((ROOT / "generated" / "toolwire" / "ir.schema.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        return gen._datamodel(schema, "ir", "spec/ir.yaml", Path(tmp))


@pytest.fixture(scope="module")
def reference(datamodel_source) -> types.ModuleType:
    """The IR as @dataclass builds it, from the same declarations (with the names from typing
    spelled ``typing.Any``, as ir.py spells them: irgen.qualify)."""
    return irgen.reference(irgen.qualify(datamodel_source), "toolwire.ir")  # the same module name as the generated classes


@pytest.fixture(scope="module")
def unqualified(datamodel_source) -> types.ModuleType:
    """The IR as it was before ir.py stopped importing typing: datamodel-code-generator's output
    as written (``from typing import Any, Literal``), built by @dataclass."""
    return irgen.reference(datamodel_source, "toolwire.ir")


def _classes(module: types.ModuleType) -> dict[str, type]:
    return {n: c for n, c in vars(module).items() if isinstance(c, type) and dataclasses.is_dataclass(c)}


def _fields(cls: type) -> list[tuple]:
    # Field has no __eq__: compare what it holds (its repr shows every attribute)
    return [repr(f) for f in dataclasses.fields(cls)]


def _describe(cls: type) -> dict:
    init = cls.__init__
    return {
        "fields": _fields(cls),
        "params": repr(cls.__dataclass_params__),
        "annotations": cls.__annotations__,
        "doc": cls.__doc__,
        "slots": cls.__slots__,
        "match_args": cls.__match_args__,
        "hash": cls.__hash__,
        "signature": str(inspect.signature(cls)),
        "init_annotations": init.__annotations__,
        "init_qualname": init.__qualname__,
        "init_kwdefaults": repr(init.__kwdefaults__),  # a factory default is <factory>, one object per module
        "repr_qualname": cls.__repr__.__qualname__,
        "repr_wrapped": callable(getattr(cls.__repr__, "__wrapped__", None)),  # the recursion guard wraps it
        "eq_qualname": cls.__eq__.__qualname__,
        "module": cls.__module__,
        # __slotnames__: copyreg's cache, set on a class by the first copy or pickle of an instance
        # (whichever test of the process did one first)
        "dict_keys": sorted(k for k in cls.__dict__ if k != "__slotnames__"),
        "weakref": hasattr(cls, "__weakref__"),
    }


def test_same_classes_as_dataclass_builds(reference):
    want, have = _classes(reference), _classes(ir)
    assert list(have) == list(want)
    assert len(want) >= 14
    for name, cls in want.items():
        assert _describe(have[name]) == _describe(cls), name
        assert dataclasses.is_dataclass(have[name]) and not dataclasses.is_dataclass(ir.Model)


def _type_hints(module: types.ModuleType) -> dict[str, dict[str, object]]:
    """``typing.get_type_hints`` of every class of the module, with the module installed as
    ``toolwire.ir`` meanwhile (the classes' ``__module__``, whose namespace resolves the strings),
    the module's own classes in them replaced by ``("class", name)``."""

    def canon(hint: object) -> object:
        if isinstance(hint, type) and hint.__module__ == "toolwire.ir" and vars(module).get(hint.__name__) is hint:
            return ("class", hint.__name__)
        args = typing.get_args(hint)
        return (type(hint), typing.get_origin(hint), tuple(canon(a) for a in args)) if args else hint

    saved = sys.modules["toolwire.ir"]
    sys.modules["toolwire.ir"] = module
    try:
        return {name: {k: canon(v) for k, v in typing.get_type_hints(cls).items()} for name, cls in _classes(module).items()}
    finally:
        sys.modules["toolwire.ir"] = saved


def test_type_hints_are_the_same_as_before(reference, unqualified):
    """ir.py names ``typing.Any`` and reads ``typing`` on first use: get_type_hints resolves every
    annotation to the same objects as with ``from typing import Any, Literal`` (the module
    before), and as @dataclass's classes of the same declarations."""
    before, have = _type_hints(unqualified), _type_hints(ir)
    assert have == before == _type_hints(reference)
    assert list(have) == list(before) and len(have) >= 14
    assert have["ToolCall"]["arguments"] == (types.GenericAlias, dict, (str, typing.Any))
    assert have["TextPart"]["type"] == (typing.Literal["text"].__class__, typing.Literal, ("text",))
    assert have["TextPart"]["provider_data"] == (types.UnionType, types.UnionType, (("class", "ProviderData"), type(None)))
    # the names datamodel-code-generator imported, as values of the module: `typing` itself, and the alias
    assert ir.typing is typing and ir.Model is typing.Any is unqualified.Model
    # a star import binds what the module of before defined (its classes and alias), not `typing`
    assert ir.__all__ == [n for n in vars(unqualified) if not n.startswith("_") and n not in ("annotations", "dataclass", "field", "Any", "Literal", "TypeAlias")]
    with pytest.raises(AttributeError, match="module 'toolwire.ir' has no attribute 'Nothing'"):
        ir.Nothing  # noqa: B018


def _sample(module: types.ModuleType) -> object:
    """One Request using every class, with a cycle-free nesting of values."""
    m = module
    data = m.ProviderData(provider="anthropic", fields={"cache_control": {"type": "ephemeral"}})
    parts = [
        m.TextPart(text="hi", provider_data=data),
        m.ImagePart(media_type="image/png", data="iVBORw0KGgo="),
        m.FilePart(url="https://example.com/a.pdf", filename="a.pdf"),
        m.ReasoningPart(text="thinking", signature="sig"),
        m.ToolCall(id="call_1", name="get_weather", arguments={"city": "Paris"}, raw_arguments='{"city": "Paris"}'),
        m.ToolResult(tool_call_id="call_1", name="get_weather", result={"temp": 11}, parts=[m.TextPart(text="ok")]),
        m.OpaquePart(provider="gemini", data={"executableCode": {}}),
    ]
    tools = [m.ToolDefinition(name="get_weather", parameters={"type": "object"}), m.ProviderTool(provider="openai_responses", data={"type": "web_search"})]
    return m.Request(
        messages=[m.Message(role="user", parts=parts, name="ann")],
        model="m",
        tools=tools,
        tool_choice=m.ToolChoice(mode="tool", name="get_weather"),
        temperature=0.5,
        stop=["x"],
    )


def test_instances_behave_the_same(reference):
    want, have = _sample(reference), _sample(ir)
    assert repr(have) == repr(want)
    assert dataclasses.asdict(have) == dataclasses.asdict(want)
    assert dataclasses.astuple(have) == dataclasses.astuple(want)
    assert have == _sample(ir) and have != want and want != have  # eq: same class only
    changed = dataclasses.replace(have, model="other")
    assert changed.model == "other" and changed.messages is have.messages and changed != have
    assert repr(changed) == repr(dataclasses.replace(want, model="other"))
    assert copy.deepcopy(have) == have and pickle.loads(pickle.dumps(have)) == have and copy.copy(have) == have
    for obj in (have, want):
        with pytest.raises(TypeError, match="unhashable type: 'Request'"):
            hash(obj)
    response = ir.Response(message=ir.Message(role="assistant", parts=[]), usage=ir.Usage(input_tokens=3))
    assert repr(response) == repr(reference.Response(message=reference.Message(role="assistant", parts=[]), usage=reference.Usage(input_tokens=3)))
    match have.messages[0].parts[0]:
        case ir.TextPart(text=text, type="text"):
            assert text == "hi"
        case _:
            pytest.fail("keyword class pattern did not match")


def test_recursive_repr_and_errors_are_the_same(reference):
    reprs = []
    for m in (reference, ir):
        msg = m.Message(role="user", parts=[])
        msg.parts.append(m.ToolResult(tool_call_id="c", name="n", result=msg))
        reprs.append(repr(msg))
    assert reprs[1] == reprs[0] == "Message(role='user', parts=[ToolResult(tool_call_id='c', name='n', type='tool_result', result=..., is_error=False, parts=None, provider_data=None)], name=None, weight=None, provider_data=None)"
    for call in (lambda m: m.TextPart(), lambda m: m.TextPart("x"), lambda m: m.TextPart(text="x", color=1), lambda m: m.Usage(inputs=1)):
        errors = []
        for m in (reference, ir):
            with pytest.raises(TypeError) as exc:
                call(m)
            errors.append(str(exc.value))
        assert errors[1] == errors[0]
    with pytest.raises(AttributeError):
        ir.TextPart(text="x").colour = 1  # slots: no new attributes


SYNTHETIC = '''
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(kw_only=True, slots=True)
class Box:
    """
    A box with default factories.
    """

    name: str
    tags: list[str] = field(default_factory=list)
    """
    Labels.
    """
    meta: dict[str, Any] = field(default_factory=lambda: {"size": 1})
    count: int = 3


@dataclass(kw_only=True, slots=True)
class Empty:
    pass
'''


def test_default_factories_and_empty_classes():
    """What the IR does not use yet but a spec change may bring: default_factory, no fields, no doc."""
    want = irgen.reference(irgen.qualify(SYNTHETIC), "synthetic_ir")
    source = gen._black(irgen.render(irgen.parse(SYNTHETIC), gen._env(), "# header\n", "Synthetic."), "synthetic.py")
    have = _module(source, "synthetic_ir")
    assert typing.get_type_hints(have.Box) == typing.get_type_hints(want.Box) == {"name": str, "tags": list[str], "meta": dict[str, typing.Any], "count": int}
    for name in ("Box", "Empty"):
        a, b = _describe(getattr(want, name)), _describe(getattr(have, name))
        # the factories are the same functions in both modules, written twice: compare what they make
        a["fields"], b["fields"] = [f.split("default_factory=")[0] for f in a["fields"]], [f.split("default_factory=")[0] for f in b["fields"]]
        assert b == a, name
    for m in (want, have):
        assert [f.default_factory() if f.default_factory is not dataclasses.MISSING else None for f in dataclasses.fields(m.Box)] == [None, [], {"size": 1}, None]
    one, two = have.Box(name="a"), have.Box(name="a")
    assert one.tags == [] and one.tags is not two.tags and one.meta == {"size": 1} and one == two
    assert repr(one) == repr(want.Box(name="a")) == "Box(name='a', tags=[], meta={'size': 1}, count=3)"
    assert have.Box(name="a", tags=["x"]).tags == ["x"]
    assert repr(have.Empty()) == "Empty()" == repr(want.Empty()) and have.Empty() == have.Empty()
    assert have.Empty.__doc__ == want.Empty.__doc__ == "Empty()"


def test_unsupported_dataclass_options_are_generator_errors():
    source = SYNTHETIC.replace("@dataclass(kw_only=True, slots=True)\nclass Empty", "@dataclass(frozen=True)\nclass Empty")
    with pytest.raises(SystemExit, match=r"class Empty: @dataclass\(\{'frozen': True\}\)"):
        irgen.parse(source)


def test_qualify_spells_typing_names_as_attributes():
    """irgen.qualify: the names imported from typing become ``typing.X`` (lines keep their numbers,
    so errors point at datamodel-code-generator's lines); what it cannot keep resolvable is an error."""
    source = "from __future__ import annotations\nfrom typing import (\n    Any,\n    Literal as L,\n)\nx: dict[str, Any] | L['a'] = 1  # Any → ‘typing.Any’\n"
    assert irgen.qualify(source) == "from __future__ import annotations\nimport typing\n\n\n\nx: dict[str, typing.Any] | typing.Literal['a'] = 1  # Any → ‘typing.Any’\n"
    assert irgen.qualify("from __future__ import annotations\nx: int = 1\n") == "from __future__ import annotations\nx: int = 1\n"
    with pytest.raises(SystemExit, match=r"spec/ir.yaml: .*line 3: the name 'Any' is bound by the module"):
        irgen.qualify("from typing import Any\n\nAny = 1\n")
    aliased = SYNTHETIC.replace("@dataclass(kw_only=True, slots=True)\nclass Box", "Meta: TypeAlias = dict[str, Any]\n\n\n@dataclass(kw_only=True, slots=True)\nclass Box", 1)
    aliased = aliased.replace("from typing import Any", "from typing import Any, TypeAlias").replace("meta: dict[str, Any]", "meta: Meta")
    with pytest.raises(SystemExit, match=r"class Box: field meta: the annotation names the type alias Meta, whose value needs typing"):
        irgen.parse(aliased)
