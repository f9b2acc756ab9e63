"""Reasoning (issue 12 §1): the IR's ReasoningPart and call signatures, per provider and across them.

The scenario fixture tests/fixtures/thinking_then_call checks every provider's own spelling and the
conversions between them through the `reasoning` loss effects; these tests pin the rules themselves:
where each kind of reasoning may go, what is reported, and that the order of a turn is kept.
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import ir

SIG = "EqQBCkgIBxABGAIiQNB7fb3V"  # an Anthropic-issued signature (shape only)
GSIG = "CiQB0e2Kb1Q8v2nXcLp5mTzR"  # a Gemini thoughtSignature (shape only)

ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "I should look it up.", "signature": SIG},
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]},
    ],
}

GEMINI = {
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
        {
            "role": "model",
            "parts": [
                {"text": "I should look it up.", "thought": True},
                {"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": GSIG},
            ],
        },
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "get_weather", "response": {"output": "sunny"}}}]},
    ]
}


def convert(payload, source, target, **kw):
    """The converted body and the messages of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(payload, source=source, target=target, model=kw.pop("model", "m"), **kw)
    return out, [str(w.message) for w in caught]


def test_anthropic_thinking_is_a_reasoning_part_before_the_call():
    req = toolwire.to_ir(ANTHROPIC, provider="anthropic")
    parts = req.messages[1].parts
    assert [type(p).__name__ for p in parts] == ["ReasoningPart", "ReasoningPart", "ToolCall"]
    assert (parts[0].text, parts[0].signature, parts[0].verifier) == ("I should look it up.", SIG, "anthropic")
    assert (parts[1].text, parts[1].data, parts[1].redacted, parts[1].verifier) == (None, "EmwKAhgBEgy3va", True, "anthropic")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.from_ir(req, provider="anthropic") == ANTHROPIC


@pytest.mark.parametrize("target", ["anthropic_bedrock", "anthropic_vertex"])
def test_anthropic_signatures_go_to_the_anthropic_family(target):
    out, warned = convert(ANTHROPIC, "anthropic", target)
    assert out["messages"][1]["content"] == ANTHROPIC["messages"][1]["content"]
    assert not [w for w in warned if "signature" in w or "Reasoning" in w]


def test_anthropic_thinking_to_bedrock_converse_keeps_signature_and_order():
    out, warned = convert(ANTHROPIC, "anthropic", "bedrock_converse")
    content = out["messages"][1]["content"]
    assert content[0] == {"reasoningContent": {"reasoningText": {"text": "I should look it up.", "signature": SIG}}}
    assert content[1] == {"reasoningContent": {"redactedContent": "EmwKAhgBEgy3va"}}
    assert "toolUse" in content[2]
    assert not [w for w in warned if "signature" in w or "Reasoning" in w]


def test_anthropic_thinking_to_gemini_sends_the_text_and_reports_the_signature():
    out, warned = convert(ANTHROPIC, "anthropic", "gemini")
    parts = out["contents"][1]["parts"]
    assert parts[0] == {"text": "I should look it up.", "thought": True}
    assert "functionCall" in parts[1] and "thoughtSignature" not in parts[1]
    assert any("cannot verify a signature issued by anthropic" in w for w in warned)
    assert any("cannot express ReasoningPart" in w for w in warned)  # the redacted one has no text


@pytest.mark.parametrize("target", ["openai_chat", "azure_openai", "cohere_v1"])
def test_a_target_without_reasoning_drops_it_and_says_so(target):
    out, warned = convert(ANTHROPIC, "anthropic", target)
    assert "thinking" not in str(out) and "I should look it up." not in str(out)
    assert any("ReasoningPart" in w and "dropped" in w for w in warned)


@pytest.mark.parametrize(("target", "where"), [("deepseek", "reasoning_content"), ("fireworks", "reasoning_content"), ("ollama", "thinking")])
def test_reasoning_text_goes_to_a_string_field(target, where):
    out, warned = convert(ANTHROPIC, "anthropic", target)
    assistant = next(m for m in out["messages"] if m["role"] == "assistant")
    assert assistant[where] == "I should look it up."
    assert any("reasoning signature or encrypted reasoning" in w for w in warned)
    assert any("reasoning without text" in w for w in warned)


def test_several_reasoning_parts_join_and_come_first():
    msg = ir.Message(role="assistant", parts=[
        ir.ReasoningPart(text="one"), ir.TextPart(text="answer"), ir.ReasoningPart(text="two"),
    ])
    req = ir.Request(model="deepseek-reasoner", messages=[ir.Message(role="user", parts=[ir.TextPart(text="q")]), msg])
    out = toolwire.from_ir(req, provider="deepseek")
    assert out["messages"][1]["reasoning_content"] == "one\n\ntwo"
    back = toolwire.to_ir(out, provider="deepseek")
    assert [type(p).__name__ for p in back.messages[1].parts] == ["ReasoningPart", "TextPart"]


def test_unsigned_reasoning_does_not_reach_anthropic_or_bedrock():
    body = {"model": "deepseek-reasoner", "messages": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a", "reasoning_content": "thinking aloud"},
        {"role": "user", "content": "q2"}]}
    for target in ("anthropic", "bedrock_converse"):
        out, warned = convert(body, "deepseek", target)
        assert "thinking aloud" not in str(out)
        assert any("cannot express ReasoningPart" in w for w in warned)
    out, _ = convert(body, "deepseek", "mistral")
    assert out["messages"][1]["content"][0] == {"type": "thinking", "thinking": [{"type": "text", "text": "thinking aloud"}]}


def test_gemini_thoughts_and_call_signature_round_trip_and_reach_vertex():
    req = toolwire.to_ir(GEMINI, provider="gemini")
    thought, call = req.messages[1].parts
    assert (type(thought).__name__, thought.text, thought.signature) == ("ReasoningPart", "I should look it up.", None)
    assert (call.signature, call.signature_verifier) == (GSIG, "gemini")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.from_ir(req, provider="gemini") == GEMINI
    out, warned = convert(GEMINI, "gemini", "vertex")
    assert out["contents"][1]["parts"][1]["thoughtSignature"] == GSIG
    assert not [w for w in warned if "signature" in w]


def test_gemini_call_signature_to_and_from_openai_chat_extra_content():
    out, warned = convert(GEMINI, "gemini", "openai_chat", model="gemini-2.5-flash")
    call = out["messages"][1]["tool_calls"][0]
    assert call["extra_content"] == {"google": {"thought_signature": GSIG}}
    assert any("cannot express ReasoningPart" in w for w in warned)  # the thought text has no place
    back, _ = convert(out, "openai_chat", "gemini")
    assert back["contents"][1]["parts"][0]["thoughtSignature"] == GSIG


@pytest.mark.parametrize("target", ["anthropic", "deepseek", "groq", "mistral"])
def test_gemini_call_signature_is_reported_where_it_cannot_go(target):
    out, warned = convert(GEMINI, "gemini", target)
    assert GSIG not in str(out)
    assert any("signature" in w for w in warned)


RESPONSES = {
    "model": "o4-mini",
    "input": [
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "A"}, {"type": "summary_text", "text": "B"}], "encrypted_content": "gAAAA"},
        {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
    ],
}


def test_responses_reasoning_items_round_trip_with_their_split_summary():
    req = toolwire.to_ir(RESPONSES, provider="openai_responses")
    part = req.messages[1].parts[0]
    assert (part.text, part.summary, part.id, part.data, part.verifier) == ("A\n\nB", True, "rs_1", "gAAAA", "openai")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.from_ir(req, provider="openai_responses") == RESPONSES


def test_reasoning_without_openai_id_does_not_become_a_responses_item():
    out, warned = convert(ANTHROPIC, "anthropic", "openai_responses")
    assert [i.get("type") for i in out["input"]] == [None, "function_call", "function_call_output"]
    assert sum("cannot express ReasoningPart" in w for w in warned) >= 1
    out, warned = convert(RESPONSES, "openai_responses", "gemini")
    assert out["contents"][1]["parts"][0] == {"text": "A\n\nB", "thought": True}
    assert any("ReasoningPart.data" in w for w in warned) and any("ReasoningPart.id" in w for w in warned)


def test_reasoning_in_a_response_converts_like_in_a_request():
    resp = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "thinking", "thinking": "hmm", "signature": SIG}, {"type": "text", "text": "Sunny."}],
            "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 2}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = toolwire.convert(resp, source="anthropic", target="ollama", kind="response")
        assert out["message"]["thinking"] == "hmm" and out["message"]["content"] == "Sunny."
        out = toolwire.convert(resp, source="anthropic", target="bedrock_converse", kind="response")
    assert out["output"]["message"]["content"][0] == {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": SIG}}}


def test_strict_mode_refuses_to_drop_a_signature():
    with pytest.raises(toolwire.LossError, match="signature"):
        toolwire.convert(ANTHROPIC, source="anthropic", target="gemini", strict=True)


def test_gemini_call_signature_goes_to_openai_chat_only_for_a_gemini_model():
    out, warned = convert(GEMINI, "gemini", "openai_chat", model="gpt-4.1")
    assert "extra_content" not in out["messages"][1]["tool_calls"][0]
    assert any("thought signature goes only to Gemini's OpenAI-compatible endpoint" in w for w in warned)


@pytest.mark.parametrize(("model", "dummy"), [("gemini-3-pro-preview", True), ("models/gemini-3-flash", True), ("gemini-2.5-flash", False)])
def test_gemini_3_gets_the_documented_dummy_signature_on_calls_from_elsewhere(model, dummy):
    body = {"model": "gpt-4.1", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "tool", "tool_call_id": "c2", "content": "noon"}]}
    out, warned = convert(body, "openai_chat", "gemini", model=model)
    parts = out["contents"][1]["parts"]
    if dummy:
        assert [p.get("thoughtSignature") for p in parts] == ["skip_thought_signature_validator"] * 2
        assert any("gets the documented dummy 'skip_thought_signature_validator'" in w for w in warned)
    else:
        assert all("thoughtSignature" not in p for p in parts)
    # a call that has its own signature keeps it
    signed, _ = convert(GEMINI, "gemini", "gemini", model=model)
    assert signed["contents"][1]["parts"][1]["thoughtSignature"] == GSIG
