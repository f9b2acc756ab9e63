"""Rules that depend on the target model (issue 12 §2): spec `for_models`, docs/spec-language.md
"Rules for some models". Each rule is converted for a model it holds for and one it does not, the
output checked (and validated against the provider's SDK types), and the report checked.

The target model is the request's `model`, or `model=` (Gemini's and Bedrock's is outside the body).
"""

from __future__ import annotations

import copy
import warnings

import pytest

import toolwire
from toolwire import ir
from sdk_validation import validate

LONG_ID = "call_abcdefghijklmnop"

CHAT = {
    "model": "gpt-4.1",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": LONG_ID, "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": LONG_ID, "content": "sunny"},
        {"role": "system", "content": "Answer in French."},
        {"role": "user", "content": "And now?"},
    ],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "strict": True,
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False}}}],
}


def convert(body: dict, **kwargs) -> tuple[dict, list[tuple[type, str]]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(body, **kwargs)
    return out, [(type(w.message), str(w.message)) for w in caught if isinstance(w.message, toolwire.ConversionWarning)]


def reports(caught: list[tuple[type, str]], text: str) -> list[type]:
    """The categories of the reports whose message contains ``text``."""
    return [category for category, message in caught if text in message]


def valid(provider: str, body: dict) -> None:
    assert validate(provider, "request", body) == []


# --- Gemma on the Gemini API: no system instruction ------------------------------------------------

GEMMA_REPORT = "takes no system instruction"


@pytest.mark.parametrize("model", ["gemma-3-27b-it", "models/gemma-3-4b-it", "gemma-3n-e4b-it"])
def test_gemma_gets_the_system_prompt_at_the_start_of_the_first_user_turn(model):
    out, caught = convert(CHAT, source="openai_chat", target="gemini", model=model)
    assert "systemInstruction" not in out
    first = out["contents"][0]
    assert first["role"] == "user"
    assert [p["text"] for p in first["parts"]] == ["Be brief.", "Answer in French.\n\n", "Weather in Paris?"]
    assert reports(caught, GEMMA_REPORT) == [toolwire.LossWarning]
    valid("gemini", out)


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "gemini-3-pro-preview", None])
def test_gemini_models_keep_the_system_instruction(model):
    out, caught = convert(CHAT, source="openai_chat", target="gemini", model=model)
    assert out["systemInstruction"] == {"parts": [{"text": "Be brief."}, {"text": "Answer in French."}]}
    assert out["contents"][0]["parts"] == [{"text": "Weather in Paris?"}]
    assert not reports(caught, GEMMA_REPORT)
    valid("gemini", out)


def test_gemma_without_a_user_turn_first_gets_one_and_strict_mode_refuses():
    req = toolwire.to_ir(CHAT, provider="openai_chat")
    req.messages = [req.messages[0], ir.Message(role="assistant", parts=[ir.TextPart(text="Hello.")]), *req.messages[1:2]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        out = toolwire.from_ir(req, provider="gemini", model="gemma-3-27b-it")
    assert [c["role"] for c in out["contents"]] == ["user", "model", "user"]
    assert out["contents"][0]["parts"] == [{"text": "Be brief."}]
    with pytest.raises(toolwire.LossError, match=GEMMA_REPORT):
        toolwire.convert(CHAT, source="openai_chat", target="gemini", model="gemma-3-27b-it", strict=True)


def test_gemma_without_a_system_prompt_reports_nothing():
    body = copy.deepcopy(CHAT)
    body["messages"] = [m for m in body["messages"] if m["role"] != "system"]
    out, caught = convert(body, source="openai_chat", target="gemini", model="gemma-3-27b-it")
    assert out["contents"][0]["parts"] == [{"text": "Weather in Paris?"}]
    assert not reports(caught, GEMMA_REPORT)


# --- Mistral models on Bedrock: 9-character call ids --------------------------------------------


@pytest.mark.parametrize("model", ["mistral.mistral-large-2407-v1:0", "us.mistral.pixtral-large-2502-v1:0", "mistral.mistral-small-2402-v1:0"])
def test_mistral_on_bedrock_gets_nine_character_call_ids(model):
    out, caught = convert(CHAT, source="openai_chat", target="bedrock_converse", model=model)
    call = out["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    result = out["messages"][2]["content"][0]["toolResult"]["toolUseId"]
    assert call == result and len(call) == 9 and call.isalnum() and call.isascii()
    assert reports(caught, f"{LONG_ID!r} → {call!r}") == [toolwire.LossWarning]
    valid("bedrock_converse", out)


@pytest.mark.parametrize("model", ["anthropic.claude-sonnet-4-5-20250929-v1:0", "amazon.nova-pro-v1:0", None])
def test_other_bedrock_models_keep_call_ids(model):
    out, caught = convert(CHAT, source="openai_chat", target="bedrock_converse", model=model)
    assert out["messages"][1]["content"][0]["toolUse"]["toolUseId"] == LONG_ID
    assert out["messages"][2]["content"][0]["toolResult"]["toolUseId"] == LONG_ID
    assert not reports(caught, "mapped to valid ones")
    valid("bedrock_converse", out)


def test_a_bedrock_conversation_continued_with_mistral_is_refitted_and_kept_otherwise():
    bedrock = quiet_convert(CHAT, source="openai_chat", target="bedrock_converse", model="anthropic.claude-sonnet-4-5-20250929-v1:0")
    assert quiet_convert(bedrock, source="bedrock_converse", target="bedrock_converse") == bedrock  # same provider: unchanged
    again = quiet_convert(bedrock, source="bedrock_converse", target="bedrock_converse", model="us.mistral.pixtral-large-2502-v1:0")
    assert len(again["messages"][1]["content"][0]["toolUse"]["toolUseId"]) == 9


def quiet_convert(body: dict, **kwargs) -> dict:
    return convert(body, **kwargs)[0]


# --- OpenAI reasoning models: developer, not system ----------------------------------------------

DEVELOPER_REPORT = "take the system prompt as a developer message"
REASONING = ["o1", "o3-mini-2025-01-31", "o4-mini", "gpt-5", "gpt-5-mini-2025-08-07", "gpt-5.4-mini", "gpt-6-sol"]
NOT_REASONING = ["gpt-4.1", "gpt-4o-mini", "gpt-5-chat-latest", "llama-3.3-70b"]


@pytest.mark.parametrize("model", REASONING)
def test_openai_chat_reasoning_models_take_developer_messages(model):
    out, caught = convert(CHAT, source="openai_chat", target="openai_chat", model=model)
    assert [m["role"] for m in out["messages"]] == ["developer", "user", "assistant", "tool", "developer", "user"]
    assert set(reports(caught, DEVELOPER_REPORT)) == {toolwire.AssumptionWarning}
    valid("openai_chat", out)
    # an assumption, not a loss: strict mode converts it
    assert toolwire.convert(CHAT, source="openai_chat", target="openai_chat", model=model, strict=True) == out


@pytest.mark.parametrize("model", NOT_REASONING)
def test_openai_chat_other_models_take_system_messages(model):
    out, caught = convert(CHAT, source="openai_chat", target="openai_chat", model=model)
    assert [m["role"] for m in out["messages"]] == ["system", "user", "assistant", "tool", "system", "user"]
    assert not reports(caught, DEVELOPER_REPORT)
    valid("openai_chat", out)


def test_an_openai_chat_body_for_a_reasoning_model_round_trips_as_it_is():
    body = {**CHAT, "model": "o3"}
    out, caught = convert(body, source="openai_chat", target="openai_chat")
    assert out == body and not caught
    assert quiet_convert(body, source="openai_chat", target="openai_chat", model="o3") == body  # its own model: still as it is


@pytest.mark.parametrize(("model", "role"), [("o3", "developer"), ("gpt-5-mini", "developer"), ("gpt-4.1", "system"), ("gpt-5-chat-latest", "system")])
def test_openai_responses_later_system_messages_by_model(model, role):
    out, caught = convert(CHAT, source="openai_chat", target="openai_responses", model=model)
    assert out["instructions"] == "Be brief."  # a leading system prompt: `instructions`, valid for every model
    assert out["input"][3] == {"role": role, "content": "Answer in French."}
    assert reports(caught, DEVELOPER_REPORT) == ([toolwire.AssumptionWarning] if role == "developer" else [])
    valid("openai_responses", out)


def test_anthropic_system_prompt_for_a_reasoning_model_on_chat():
    anthropic = {"model": "claude-sonnet-4-5", "max_tokens": 100, "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}
    out, _ = convert(anthropic, source="anthropic", target="openai_chat", model="gpt-5")
    assert out["messages"][0] == {"role": "developer", "content": "Be brief."}


# --- Anthropic: strict on tools only for Claude 4.5 and later ------------------------------------

STRICT_REPORT = "reject `strict` on tools"
STRICT_REJECTED = [
    ("anthropic", "claude-3-5-sonnet-20241022"), ("anthropic", "claude-3-7-sonnet-latest"), ("anthropic", "claude-sonnet-4-20250514"),
    ("anthropic", "claude-sonnet-4-0"), ("anthropic", "claude-opus-4-1-20250805"), ("anthropic", "claude-opus-4-0"),
    ("anthropic_bedrock", "us.anthropic.claude-3-7-sonnet-20250219-v1:0"), ("anthropic_bedrock", "anthropic.claude-opus-4-1-20250805-v1:0"),
    ("anthropic_vertex", "claude-sonnet-4@20250514"), ("anthropic_vertex", "claude-3-5-haiku@20241022"),
]
STRICT_TAKEN = [
    ("anthropic", "claude-sonnet-4-5"), ("anthropic", "claude-opus-4-5-20251101"), ("anthropic", "claude-haiku-4-5-20251001"),
    ("anthropic", "claude-opus-4-6"), ("anthropic", "claude-sonnet-5"), ("anthropic_bedrock", "global.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("anthropic_vertex", "claude-opus-4-5@20251101"),
]


@pytest.mark.parametrize(("target", "model"), STRICT_REJECTED)
def test_claude_models_before_4_5_get_no_strict(target, model):
    out, caught = convert(CHAT, source="openai_chat", target=target, model=model)
    assert "strict" not in out["tools"][0]
    assert reports(caught, STRICT_REPORT) == [toolwire.LossWarning]
    valid(target, out)
    simple = {"model": "x", "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}], "tools": CHAT["tools"]}
    with pytest.raises(toolwire.LossError, match="strict"):
        toolwire.convert(simple, source="openai_chat", target=target, model=model, strict=True)


@pytest.mark.parametrize(("target", "model"), STRICT_TAKEN)
def test_claude_4_5_and_later_get_strict(target, model):
    out, caught = convert(CHAT, source="openai_chat", target=target, model=model)
    assert out["tools"][0]["strict"] is True
    assert not reports(caught, STRICT_REPORT)
    valid(target, out)


def test_a_tool_without_strict_is_not_reported_for_an_old_model():
    body = copy.deepcopy(CHAT)
    del body["tools"][0]["function"]["strict"]
    out, caught = convert(body, source="openai_chat", target="anthropic", model="claude-3-5-sonnet-20241022")
    assert "strict" not in out["tools"][0] and not reports(caught, STRICT_REPORT)
