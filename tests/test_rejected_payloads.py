"""Payloads the APIs rejected although toolwire sent them (issue 12 §3), one test per class.

Each class is fixed in the mechanism, not per provider: blank text (conversation key
`drop_blank_text`), a flag on a choice shape whose type lacks it (embedded_flag's `{carriers}`, read
from the derived wire types), tools Bedrock requires (required_tools `schema`), a one-string system
field (hoist `text_only`), a model the body requires (the codec's `wire_type`). The validator's side
(tests/sdk_validation.py REQUEST_API_RULES, sdk_validation_bedrock_converse) is tested here too, so
that a pass means something.
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import ir

from sdk_validation import validate


def render(req: ir.Request, provider: str, **kwargs) -> tuple[dict, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        body = toolwire.from_ir(req, provider=provider, **kwargs)
    return body, [w for w in caught if issubclass(w.category, toolwire.ConversionWarning)]


def text(*texts: str) -> list[ir.TextPart]:
    return [ir.TextPart(text=t) for t in texts]


TOOL = ir.ToolDefinition(name="get_weather", parameters={"type": "object", "properties": {}})
CALL = ir.ToolCall(id="call_1", name="get_weather", arguments={})
BLANK = ir.Request(
    model="claude-sonnet-4-5",
    tools=[TOOL],
    messages=[
        ir.Message(role="system", parts=text(" \n")),
        ir.Message(role="user", parts=text("Weather?", "  ", "", "in Paris")),
        ir.Message(role="assistant", parts=[*text("\t"), CALL]),
        ir.Message(role="tool", parts=[ir.ToolResult(
            tool_call_id="call_1", name="get_weather", result="",
            parts=[*text(" "), ir.ImagePart(data="iVBORw0KGgo=", media_type="image/png")],
        )]),
        ir.Message(role="assistant", parts=text("   ")),
        ir.Message(role="user", parts=text("Thanks")),
    ],
)

# --- blank text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["anthropic", "anthropic_bedrock", "anthropic_vertex"])
def test_anthropic_sends_no_blank_text_anywhere(provider: str) -> None:
    """'text content blocks must contain non-whitespace text' — in any message, the system prompt
    and tool results; a message of only blank text goes whole, reported; the user turns it separated merge."""
    body, caught = render(BLANK, provider)
    assert "system" not in body
    assert body["messages"][0] == {"role": "user", "content": [{"type": "text", "text": "Weather?"}, {"type": "text", "text": "in Paris"}]}
    assert body["messages"][1]["content"] == [{"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {}}]
    result = body["messages"][2]["content"][0]
    assert result["content"] == [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]
    assert body["messages"][2]["content"][1:] == [{"type": "text", "text": "Thanks"}]
    assert len(body["messages"]) == 3
    lost = [str(w.message) for w in caught if w.category is toolwire.LossWarning]
    assert not any("messages[0]" in m for m in lost), lost  # a blank system prompt says nothing
    assert any("messages[4]: assistant message of only blank text" in m for m in lost), lost
    assert validate(provider, "request", body) == []


def test_bedrock_sends_no_blank_text_and_no_empty_message() -> None:
    body, caught = render(BLANK, "bedrock_converse")
    assert "system" not in body
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][0]["content"] == [{"text": "Weather?"}, {"text": "in Paris"}]
    assert validate("bedrock_converse", "request", body) == []


def test_the_validator_rejects_blank_text_and_empty_messages() -> None:
    def body(*messages: dict, **extra) -> dict:
        return {"model": "m", "max_tokens": 1, "messages": list(messages), **extra}

    user = {"role": "user", "content": "hi"}
    blank_block = {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "text", "text": " \n"}]}
    assert any(e.startswith("messages[0].content[1].text: text is blank") for e in validate("anthropic", "request", body(blank_block)))
    assert any(e.startswith("messages[0].content: text is blank") for e in validate("anthropic", "request", body({"role": "user", "content": "  "})))
    assert any(e.startswith("system: text is blank") for e in validate("anthropic", "request", body(user, system=" ")))
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": ""}]}]}
    assert any(e.startswith("messages[0].content[0].content[0].text") for e in validate("anthropic", "request", body(result)))
    empty = {"role": "assistant", "content": []}
    assert any(e.startswith("messages[1].content: empty") for e in validate("anthropic", "request", body(user, empty, user)))
    assert validate("anthropic", "request", body(user, empty)) == []  # a final assistant turn may be empty
    bedrock = {"messages": [{"role": "user", "content": [{"text": "hi"}]}, {"role": "assistant", "content": []}]}
    assert any(e.startswith("messages[1].content: empty") for e in validate("bedrock_converse", "request", bedrock))


# --- a flag on a choice whose type lacks it -------------------------------------------------------


@pytest.mark.parametrize("parallel", [True, False])
def test_the_parallel_flag_goes_only_on_choices_that_declare_it(parallel: bool) -> None:
    """Anthropic: disable_parallel_tool_use is a field of ToolChoiceAutoParam / Any / Tool, not of
    ToolChoiceNoneParam; which shapes have it is read from the derived wire types."""
    base = ir.Request(model="m", tools=[TOOL], messages=[ir.Message(role="user", parts=text("hi"))], parallel_tool_calls=parallel)
    body, caught = render(ir.Request(**{**vars_of(base), "tool_choice": ir.ToolChoice(mode="none")}), "anthropic")
    assert body["tool_choice"] == {"type": "none"}
    assert any("has no disable_parallel_tool_use" in str(w.message) and w.category is toolwire.LossWarning for w in caught)
    for mode, wire in [("auto", "auto"), ("required", "any"), ("tool", "tool")]:
        choice = ir.ToolChoice(mode=mode, name="get_weather" if mode == "tool" else None)
        body, caught = render(ir.Request(**{**vars_of(base), "tool_choice": choice}), "anthropic")
        assert body["tool_choice"]["type"] == wire and body["tool_choice"]["disable_parallel_tool_use"] is (not parallel)
        assert not any("disable_parallel_tool_use" in str(w.message) for w in caught)
    body, _ = render(base, "anthropic")  # no choice: the flag is sent in {type: auto}
    assert body["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": not parallel}


def vars_of(req: ir.Request) -> dict:
    return {f: getattr(req, f) for f in req.__dataclass_fields__}


# --- OpenAI Responses `instructions` is one string ------------------------------------------------


def test_responses_instructions_stay_a_string_and_other_system_messages_stay_items() -> None:
    req = ir.Request(model="gpt-4.1", messages=[
        ir.Message(role="system", parts=text("You are terse.", "Answer in French.")),
        ir.Message(role="system", parts=text("Never guess.")),
        ir.Message(role="user", parts=text("hi")),
    ])
    body, caught = render(req, "openai_responses")
    assert "instructions" not in body
    assert body["input"][:2] == [
        {"role": "system", "content": [{"type": "input_text", "text": "You are terse."}, {"type": "input_text", "text": "Answer in French."}]},
        {"role": "system", "content": "Never guess."},
    ]
    assert caught == []
    back = toolwire.to_ir(body, provider="openai_responses").messages
    assert [(m.role, m.parts) for m in back] == [(m.role, m.parts) for m in req.messages]
    single = ir.Request(model="gpt-4.1", messages=[ir.Message(role="system", parts=text("Be terse.")), *req.messages[1:]])
    body, _ = render(single, "openai_responses")
    assert body["instructions"] == "Be terse." and body["input"][0] == {"role": "system", "content": "Never guess."}


# --- a model the body requires --------------------------------------------------------------------


@pytest.mark.parametrize("provider", sorted(toolwire.PROVIDERS))
def test_a_body_that_requires_a_model_warns_when_there_is_none(provider: str) -> None:
    """Whatever the validator says a body without a model lacks, the conversion said too (and the
    reverse): one rule for every target, read from the wire types (`wire_type` required keys)."""
    req = ir.Request(messages=[ir.Message(role="user", parts=text("hi"))])
    body, caught = render(req, provider)
    rejected = any(e.startswith("model:") for e in validate(provider, "request", body))
    warned = [w for w in caught if str(w.message).startswith("model: model is required by")]
    assert rejected == bool(warned), (provider, [str(w.message) for w in caught])
    if warned:
        assert warned[0].category is toolwire.LossWarning
        assert "add it before sending" in str(warned[0].message)
    body, caught = render(req, provider, model="some-model")
    assert not any(e.startswith("model:") for e in validate(provider, "request", body))
    assert not any("model is required" in str(w.message) for w in caught)


def test_a_body_without_a_model_still_parses() -> None:
    """The requirement is the render side's: an OpenAI Chat or Responses body without one is read."""
    assert toolwire.to_ir({"messages": [{"role": "user", "content": "hi"}]}, provider="openai_chat").model is None
    assert toolwire.to_ir({"input": "hi"}, provider="openai_responses").model is None
