"""Property tests: random valid IR conversations survive provider → IR → provider.

For every provider, ``to_ir(from_ir(request)) == request`` up to the documented losses
(docs/losses.md), and each documented loss that applies is reported as a ConversionWarning.
``expected_after`` spells the documented losses out; everything else must come back exactly.
"""

from __future__ import annotations

import copy
import importlib
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire
from toolwire import ir

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


# --- documented losses ---------------------------------------------------------------------------

ERROR_AS_TEXT = {"openai_chat", "openai_responses"}  # no error flag: "Error: " + text
NO_TOP_K = {"openai_chat", "openai_responses", "anthropic"}
NO_TEMPERATURE = {"anthropic"}  # the current Messages API takes no sampling parameters
NO_STOP = {"openai_responses"}
NO_PARALLEL_SWITCH = {"gemini"}


def family(provider: str) -> str:
    """Providers that extend another (vertex → gemini) share its documented losses."""
    return importlib.import_module(f"toolwire.providers.{provider}").FAMILY


def expected_after(provider: str, req: ir.Request) -> tuple[ir.Request, bool]:
    """The request as ``provider`` can give it back, and whether a loss must have been reported."""
    req = copy.deepcopy(req)
    name, provider = provider, family(provider)
    lossy = False
    for msg in req.messages:
        for part in msg.parts:
            if type(part) is ir.ToolResult and part.is_error and provider in ERROR_AS_TEXT:
                text = part.result if isinstance(part.result, str) else toolwire_json(part.result)
                part.result, part.is_error, lossy = "Error: " + text, False, True
    if req.top_k is not None and provider in NO_TOP_K:
        req.top_k, lossy = None, True
    if req.temperature is not None and provider in NO_TEMPERATURE:
        req.temperature, lossy = None, True
    if req.stop is not None and provider in NO_STOP:
        req.stop, lossy = None, True
    if name in ID_LESS and any(type(p) is ir.ToolCall for m in req.messages for p in m.parts):
        lossy = True  # ids are not sent; they come back synthesized (compared by order)
    if req.parallel_tool_calls is not None and provider in NO_PARALLEL_SWITCH:
        req.parallel_tool_calls, lossy = None, True
    return req, lossy


def toolwire_json(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


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


# --- documented losses of providers added later (appended per provider) -------------------------
# expected_after looks documented losses up by family; these providers' own differences are added
# here (their specs' cannot_express).

ERROR_AS_TEXT.add("mistral")  # spec/providers/mistral.yaml: ToolResult.is_error


def _deepseek_losses(req: ir.Request) -> bool:
    """spec/providers/deepseek.yaml: images are dropped, parallel_tool_calls is not sent."""
    lossy = False
    for msg in req.messages:
        kept = [p for p in msg.parts if type(p) is not ir.ImagePart]
        if len(kept) != len(msg.parts):
            msg.parts, lossy = kept, True
    if req.parallel_tool_calls is not None:
        req.parallel_tool_calls, lossy = None, True
    return lossy


def _groq_losses(req: ir.Request) -> bool:
    """spec/providers/groq.yaml: messages[].name is not sent."""
    lossy = False
    for msg in req.messages:
        if msg.name is not None:
            msg.name, lossy = None, True
    return lossy


OWN_LOSSES = {"deepseek": _deepseek_losses, "groq": _groq_losses}
_expected_after_by_family = expected_after


def expected_after(provider: str, req: ir.Request) -> tuple[ir.Request, bool]:  # noqa: F811 (adds OWN_LOSSES)
    expected, lossy = _expected_after_by_family(provider, req)
    own = OWN_LOSSES.get(provider)
    if own is not None and own(expected):
        lossy = True
    return expected, lossy


# Ollama and Cohere (spec/providers/ollama.yaml, cohere.yaml: cannot_express): no error flag and no
# parallel switch; Ollama has no tool_choice (declared tools are read as auto) and its images are
# bare base64 (the media type comes back from the bytes); Cohere sends a named tool as REQUIRED.
ERROR_AS_TEXT.update({"ollama", "cohere"})
NO_PARALLEL_SWITCH.update({"ollama", "cohere"})


def _ollama_losses(req: ir.Request) -> bool:
    from toolwire_runtime.transforms import sniff_image_type

    lossy = False
    if req.tool_choice is not None and req.tool_choice.mode != "auto":
        req.tool_choice, lossy = None, True
    for msg in req.messages:
        for part in msg.parts:
            if type(part) is ir.ImagePart and part.data is not None and sniff_image_type(part.data) != part.media_type:
                part.media_type, lossy = sniff_image_type(part.data), True
    return lossy


def _cohere_losses(req: ir.Request) -> bool:
    if req.tool_choice is not None and req.tool_choice.mode == "tool":
        req.tool_choice = ir.ToolChoice(mode="required")
        return True
    return False


OWN_LOSSES.update(ollama=_ollama_losses, cohere=_cohere_losses)


def _bedrock_converse_losses(req: ir.Request) -> bool:
    """spec/providers/bedrock_converse.yaml: top_k and parallel_tool_calls are not sent; tool choice
    none does not exist (without tool calls in the conversation the tools are not sent either)."""
    lossy = False
    if req.top_k is not None:
        req.top_k, lossy = None, True
    if req.parallel_tool_calls is not None:
        req.parallel_tool_calls, lossy = None, True
    if req.tool_choice is not None and req.tool_choice.mode == "none":
        if not any(type(p) in (ir.ToolCall, ir.ToolResult) for m in req.messages for p in m.parts):
            req.tools = None
        req.tool_choice, lossy = None, True
    return lossy


OWN_LOSSES["bedrock_converse"] = _bedrock_converse_losses


# Fireworks (spec/providers/fireworks.yaml): an openai_chat flavour with a documented top_k (so the
# family's NO_TOP_K does not apply to it) and no participant names (Message.name is not sent).
def _fireworks_losses(req: ir.Request) -> bool:
    lossy = False
    for msg in req.messages:
        if msg.name is not None:
            msg.name, lossy = None, True
    return lossy


OWN_LOSSES["fireworks"] = _fireworks_losses
_expected_after_before_fireworks = expected_after


def expected_after(provider: str, req: ir.Request) -> tuple[ir.Request, bool]:  # noqa: F811 (top_k kept)
    if provider != "fireworks" or req.top_k is None:
        return _expected_after_before_fireworks(provider, req)
    without_top_k = copy.copy(req)
    without_top_k.top_k = None
    expected, lossy = _expected_after_before_fireworks(provider, without_top_k)
    expected.top_k = req.top_k
    return expected, lossy
