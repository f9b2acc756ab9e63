"""Payloads toolwire renders from inputs that are not fixtures, validated like the fixtures are.

The golden files show the validator (tests/sdk_validation.py: the official SDK types, made strict,
plus the API rules they do not state) only what someone thought of writing down. Here it sees:

* every tool-choice combination — mode (auto, none, required, named) × parallel flag (absent, true,
  false) × tools declared or not × history with or without tool calls — rendered for every target,
  so that a key a target's type for that choice does not declare (Anthropic's
  `disable_parallel_tool_use` on `{"type": "none"}`) cannot come back for any target;
* random IR conversations (a fixed seed: the same conversations on every run) with system prompts
  of several parts and in several places, blank and whitespace-only text anywhere, images, parallel
  calls, results of every JSON type, errors, a final prefill, tools or none — every one rendered for
  every target and validated.

Each rendered body must be valid for its target, whatever was reported on the way (the warnings are
tested elsewhere; here only that what is sent is accepted).
"""

from __future__ import annotations

import itertools
import random
import warnings

import pytest

import toolwire
from toolwire import ir

from sdk_validation import validate

PROVIDERS = sorted(toolwire.PROVIDERS)
MODEL = "model-from-caller"  # Gemini / Bedrock bodies name none (URL); the others need one


def _render(req: ir.Request, provider: str) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return toolwire.from_ir(req, provider=provider, model=MODEL)


def _problems(cases: list[tuple[str, ir.Request]], provider: str) -> list[str]:
    out = []
    for name, req in cases:
        try:
            body = _render(req, provider)
        except toolwire.ConversionError as exc:  # a valid IR request must convert
            out.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        errors = validate(provider, "request", body)
        if errors:
            out.append(f"{name}: " + "; ".join(errors[:3]))
    return out


# --- tool choice × parallel flag × tools × history ------------------------------------------------

TOOL = ir.ToolDefinition(
    name="get_weather",
    description="Weather of a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
PLAIN = [ir.Message(role="user", parts=[ir.TextPart(text="Weather in Paris?")])]
WITH_CALLS = [
    *PLAIN,
    ir.Message(role="assistant", parts=[ir.ToolCall(id="call_1", name="get_weather", arguments={"city": "Paris"})]),
    ir.Message(role="tool", parts=[ir.ToolResult(tool_call_id="call_1", name="get_weather", result={"temp": 21})]),
]
MODES = ("auto", "none", "required", "tool")


def choice_cases(mode: str) -> list[tuple[str, ir.Request]]:
    cases = []
    for parallel, tools, history in itertools.product((None, True, False), (True, False), (False, True)):
        req = ir.Request(
            messages=list(WITH_CALLS if history else PLAIN),
            tools=[TOOL] if tools else None,
            tool_choice=ir.ToolChoice(mode=mode, name="get_weather" if mode == "tool" else None),
            parallel_tool_calls=parallel,
        )
        name = f"{mode}/parallel={parallel}/{'tools' if tools else 'no tools'}/{'calls' if history else 'no calls'}"
        cases.append((name, req))
    return cases


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_tool_choice_combination_is_valid(provider: str, mode: str) -> None:
    problems = _problems(choice_cases(mode), provider)
    assert problems == [], f"{provider}, tool choice {mode}:\n  " + "\n  ".join(problems)


# --- random IR conversations ----------------------------------------------------------------------

SEED = 20261127
CONVERSATIONS = 40
TEXTS = ["Hello", "What is the weather in Paris?", "Thanks!", "", " ", "\n\t ", "trailing space ", "  padded  ", "ünïcödé ☃ text"]
NAMES = ["get_weather", "lookup_order", "send_email"]
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
RESULTS = ["sunny, 21°C", "", {"temp": 21, "unit": "C"}, 42, [1, 2, 3], True, None, {"nested": {"ok": [1, "a"]}}]


def _texts(rng: random.Random, n: int) -> list[ir.TextPart]:
    return [ir.TextPart(text=rng.choice(TEXTS)) for _ in range(n)]


def _user(rng: random.Random) -> ir.Message:
    parts: list = _texts(rng, rng.randint(1, 3))
    if rng.random() < 0.2:
        parts.insert(rng.randint(0, len(parts)), ir.ImagePart(data=PNG, media_type="image/png"))
    return ir.Message(role="user", parts=parts)


REASONING = [  # one of each family's shapes (issue 12 §1), and unsigned text
    ir.ReasoningPart(text="Let me check the weather.", signature="EqQBCkgIBxABGAIiQNB7fb3V", verifier="anthropic"),
    ir.ReasoningPart(data="EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP", redacted=True, verifier="anthropic"),
    ir.ReasoningPart(text="**Checking** the weather", signature="CiQB0e2Kb1Q8", verifier="gemini"),
    ir.ReasoningPart(text="Need the weather.", summary=True, id="rs_68c1f3a2b4d0", data="gAAAAABpJ3Xk8HnK", verifier="openai"),
    ir.ReasoningPart(text="The user wants the weather."),
    ir.ReasoningPart(text=""),
]


def _reasoning(number: int, turn: int) -> tuple[list, str | None]:
    """Reasoning before a call turn, and a Gemini call signature, from a generator of their own (the
    other choices stay as they were)."""
    r = random.Random(f"reasoning {number} {turn}")
    lead = [r.choice(REASONING) for _ in range(r.choice([0, 0, 1, 2]))]
    return lead, r.choice([None, None, "CiQB0e2Kb7mN3qL8"])


def random_request(rng: random.Random, number: int) -> ir.Request:
    """A valid IR request: every call answered in the next turn, a user turn first."""
    messages: list[ir.Message] = []
    if rng.random() < 0.6:
        messages.append(ir.Message(role="system", parts=_texts(rng, rng.randint(1, 3))))
    if rng.random() < 0.2:  # a second leading system message
        messages.append(ir.Message(role="system", parts=_texts(rng, 1)))
    messages.append(_user(rng))
    calls_made = 0
    for turn in range(rng.randint(1, 3)):
        if turn and rng.random() < 0.15:  # a system message in mid-conversation
            messages.append(ir.Message(role="system", parts=_texts(rng, 1)))
        if rng.random() < 0.6:
            calls = []
            for _ in range(rng.randint(1, 3)):
                calls_made += 1
                args = rng.choice([{}, {"city": "Paris"}, {"q": ["a", 1, None], "n": 1.5}])
                calls.append(ir.ToolCall(id=f"call_{number}_{calls_made}", name=rng.choice(NAMES), arguments=args))
            lead = _texts(rng, rng.randint(0, 2))
            thinking, signature = _reasoning(number, turn)
            if signature is not None:
                calls[0].signature, calls[0].signature_verifier = signature, "gemini"
            messages.append(ir.Message(role="assistant", parts=[*thinking, *lead, *calls]))
            results = []
            for call in calls:
                parts = None
                if rng.random() < 0.15:
                    parts = [ir.TextPart(text=rng.choice(TEXTS)), ir.ImagePart(data=PNG, media_type="image/png")]
                results.append(ir.ToolResult(
                    tool_call_id=call.id, name=call.name, result=rng.choice(RESULTS),
                    is_error=rng.random() < 0.2, parts=parts,
                ))
            rng.shuffle(results)
            messages.append(ir.Message(role="tool", parts=results))
            if rng.random() < 0.5:
                messages.append(_user(rng))
        else:
            messages.append(ir.Message(role="assistant", parts=_texts(rng, rng.randint(1, 2))))
            messages.append(_user(rng))
    if messages[-1].role == "user" and rng.random() < 0.15:  # a prefill
        messages.append(ir.Message(role="assistant", parts=_texts(rng, 1)))
    tools = None
    if rng.random() < 0.7:
        tools = [
            ir.ToolDefinition(name=n, description=rng.choice([None, "", "Does it."]),
                              parameters=rng.choice([None, {"type": "object", "properties": {"city": {"type": "string"}}}]))
            for n in NAMES
        ]
    mode = rng.choice([None, *MODES])
    return ir.Request(
        messages=messages,
        model=rng.choice([None, "model-in-the-input"]),
        tools=tools,
        tool_choice=None if mode is None else ir.ToolChoice(mode=mode, name=NAMES[0] if mode == "tool" else None),
        parallel_tool_calls=rng.choice([None, True, False]),
        max_tokens=rng.choice([None, 256]),
    )


def random_cases() -> list[tuple[str, ir.Request]]:
    rng = random.Random(SEED)
    return [(f"conversation {i}", random_request(rng, i)) for i in range(CONVERSATIONS)]


def test_the_random_conversations_cover_what_they_are_for() -> None:
    """The generator does produce the inputs the test is about (a change to it cannot quietly stop)."""
    reqs = [req for _, req in random_cases()]
    parts = [p for r in reqs for m in r.messages for p in m.parts]
    assert any(type(p) is ir.TextPart and p.text and not p.text.strip() for p in parts)  # whitespace only
    assert any(type(p) is ir.TextPart and p.text == "" for p in parts)
    assert any(m.role == "system" and len(m.parts) > 1 for r in reqs for m in r.messages)
    assert any(sum(m.role == "system" for m in r.messages) > 1 for r in reqs)
    assert any(r.tools is None and any(type(p) is ir.ToolCall for m in r.messages for p in m.parts) for r in reqs)
    assert any(r.messages[-1].role == "assistant" for r in reqs)
    assert {r.tool_choice.mode for r in reqs if r.tool_choice} == set(MODES)
    assert {r.parallel_tool_calls for r in reqs} == {None, True, False}
    assert {p.verifier for p in parts if type(p) is ir.ReasoningPart} == {"anthropic", "gemini", "openai", None}
    assert any(type(p) is ir.ToolCall and p.signature for p in parts)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_random_conversations_render_valid_bodies(provider: str) -> None:
    problems = _problems(random_cases(), provider)
    assert problems == [], f"{provider}: {len(problems)} of {CONVERSATIONS} invalid:\n  " + "\n  ".join(problems)
