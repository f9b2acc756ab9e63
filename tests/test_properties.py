"""Property tests: random valid IR conversations survive provider → IR → provider.

For every provider, ``to_ir(from_ir(request)) == request`` up to the documented losses, and each
documented loss that applies is reported as a ConversionWarning. The losses are the specs' own
(`cannot_express` entries' `ir:` effects, applied by tests/losses.py): a new provider needs no
line here; everything else must come back exactly.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire
from toolwire import ir

import losses
from conftest import ID_LESS, comparable_ir

# --- strategies --------------------------------------------------------------------------------

names = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
# Text with something visible in it (empty / blank text is a separate rule, tested elsewhere).
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=30).map(str.strip).filter(bool)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12), texts,
    st.floats(allow_nan=False, allow_infinity=False, width=32).filter(lambda f: f != int(f)),
)
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)), max_leaves=8)
json_objects = st.dictionaries(names, json_values, max_size=4)
results = st.one_of(texts, json_objects.filter(bool), st.integers(-1000, 1000), st.lists(scalars, min_size=1, max_size=3))
images = st.builds(
    lambda data, mt: ir.ImagePart(data=data, media_type=mt),
    st.from_regex(r"[A-Za-z0-9+/]{4,24}={0,2}", fullmatch=True),
    st.sampled_from(["image/png", "image/jpeg", "image/webp"]),
)


@st.composite
def requests(draw) -> ir.Request:
    """A request of an agent loop: [system] user, then turns of calls and their results."""
    tool_names = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    messages: list[ir.Message] = []
    if draw(st.booleans()):
        messages.append(ir.Message(role="system", parts=[ir.TextPart(text=draw(texts))]))
    user_parts: list = [ir.TextPart(text=draw(texts))]
    if draw(st.booleans()):
        user_parts.append(draw(images))
    messages.append(ir.Message(role="user", parts=user_parts))
    n = 0
    for _ in range(draw(st.integers(0, 3))):
        parts: list = []
        if draw(st.booleans()):
            parts.append(ir.TextPart(text=draw(texts)))
        calls = []
        for _ in range(draw(st.integers(1, 3))):
            n += 1
            calls.append(ir.ToolCall(id=f"call_{n:03d}", name=draw(st.sampled_from(tool_names)), arguments=draw(json_objects)))
        messages.append(ir.Message(role="assistant", parts=parts + calls))
        answers = [
            ir.ToolResult(tool_call_id=c.id, name=c.name, result=draw(results), is_error=draw(st.booleans()))
            for c in calls
        ]
        messages.append(ir.Message(role="tool", parts=answers))
        if draw(st.booleans()):
            messages.append(ir.Message(role="user", parts=[ir.TextPart(text=draw(texts))]))
    tools = [
        ir.ToolDefinition(
            name=name,
            description=draw(st.one_of(st.none(), texts)),
            parameters={"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
        )
        for name in tool_names
    ]
    mode = draw(st.sampled_from([None, "auto", "none", "required", "tool"]))
    choice = None if mode is None else ir.ToolChoice(mode=mode, name=tool_names[0] if mode == "tool" else None)
    return ir.Request(
        messages=messages,
        model="model-1",
        tools=tools,
        tool_choice=choice,
        parallel_tool_calls=draw(st.sampled_from([None, False])),
        max_tokens=draw(st.integers(1, 4096)),
        temperature=draw(st.one_of(st.none(), st.sampled_from([0.0, 0.5, 1.0]))),
        top_k=draw(st.one_of(st.none(), st.integers(1, 40))),
        stop=draw(st.one_of(st.none(), st.lists(texts, min_size=1, max_size=2))),
    )


# --- documented losses: read from the specs (cannot_express `ir:`, tests/losses.py) ---------------


def expected_after(provider: str, req: ir.Request) -> tuple[ir.Request, bool]:
    """The request as ``provider`` can give it back, and whether a loss must have been reported."""
    outcome = losses.apply(provider, req)
    reported = outcome.reported
    if losses.ids_not_kept(provider) and any(type(p) is ir.ToolCall for m in req.messages for p in m.parts):
        reported = True  # ids are not sent (or rewritten); they come back synthesized (compared by order)
    return outcome.node, reported


def comparable(req: ir.Request, provider: str) -> dict:
    data = comparable_ir(req, provider in ID_LESS)
    if data["tool_choice"] is not None and data["tool_choice"]["mode"] == "auto" and data["tool_choice"]["name"] is None:
        data["tool_choice"] = None  # auto is every provider's default
    return data


# --- the property ---------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(req=requests())
def test_ir_round_trip_through_each_provider(provider, req):
    expected, lossy = expected_after(provider, req)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wire = toolwire.from_ir(req, provider=provider)
        back = toolwire.to_ir(wire, provider=provider)
    reported = [str(w.message) for w in caught if issubclass(w.category, toolwire.ConversionWarning)]
    assert comparable(back, provider) == comparable(expected, provider)
    if lossy:
        assert reported, "a documented loss applied but nothing was reported"


@pytest.mark.parametrize("provider", toolwire.PROVIDERS)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(req=requests())
def test_rendering_twice_gives_the_same_payload(provider, req):
    """provider → IR → provider is identity on the payloads toolwire itself renders."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        wire = toolwire.from_ir(req, provider=provider)
        again = toolwire.from_ir(toolwire.to_ir(wire, provider=provider), provider=provider)
    assert again == wire
