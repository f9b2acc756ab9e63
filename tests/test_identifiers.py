"""Call ids and tool names fitted to each target's rules: deterministic, consistent, reversible."""

from __future__ import annotations

import re
import warnings

import pytest

import toolwire
from toolwire_runtime.names import fit

ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
GEMINI_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$")


def gemini_request(call_id: str, name: str) -> dict:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"id": call_id, "name": name, "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": call_id, "name": name, "response": {"output": "ok"}}}]},
        ],
        "tools": [{"functionDeclarations": [{"name": name, "description": "d"}]}],
    }


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def test_valid_values_pass_unchanged():
    assert fit("toolu_01A09q90qw90lq917835lq9", "a-zA-Z0-9_-") == "toolu_01A09q90qw90lq917835lq9"
    assert fit("get_weather", "a-zA-Z0-9_-", None, 64) == "get_weather"


def test_fitting_is_pure_and_keeps_distinct_originals_apart():
    long_a, long_b = "x" * 70 + "a", "x" * 70 + "b"
    fa, fb = fit(long_a, "a-zA-Z0-9_-", None, 64), fit(long_b, "a-zA-Z0-9_-", None, 64)
    assert len(fa) == len(fb) == 64 and fa != fb
    assert fa == fit(long_a, "a-zA-Z0-9_-", None, 64)
    assert fit("1tool", "a-zA-Z0-9_.:-", "a-zA-Z_", 128) == "_1tool"
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", fit("call_abc.def", "a-zA-Z0-9", None, 9, True))


def test_foreign_ids_satisfy_anthropic_and_call_and_result_agree():
    out = quiet(toolwire.convert, gemini_request("fc:1/a b", "lookup"), source="gemini", target="anthropic")
    use = out["messages"][1]["content"][0]
    result = out["messages"][2]["content"][0]
    assert ANTHROPIC_ID.match(use["id"]) and use["id"] == result["tool_use_id"] == "fc_1_a_b"


def test_long_ids_are_shortened_for_openai_chat_and_responses():
    long_id = "toolu_" + "A" * 60
    with pytest.warns(toolwire.ConversionWarning, match="call ids that break openai_chat's rule"):
        chat = toolwire.convert(gemini_request(long_id, "lookup"), source="gemini", target="openai_chat")
    call_id = chat["messages"][1]["tool_calls"][0]["id"]
    assert len(call_id) == 40 and chat["messages"][2]["tool_call_id"] == call_id
    responses = quiet(toolwire.convert, gemini_request(long_id, "lookup"), source="gemini", target="openai_responses")
    items = [i for i in responses["input"] if i.get("type") in ("function_call", "function_call_output")]
    assert {len(i["call_id"]) for i in items} == {64} and items[0]["call_id"] == items[1]["call_id"]


def test_mcp_style_names_are_sanitized_and_mapped_back_in_responses():
    name = "github.create_issue"
    request = quiet(toolwire.convert, gemini_request("c1", name), source="gemini", target="openai_chat")
    sent = request["tools"][0]["function"]["name"]
    assert OPENAI_NAME.match(sent) and sent == "github_create_issue"
    assert request["messages"][1]["tool_calls"][0]["function"]["name"] == sent
    response = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
            "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": sent, "arguments": "{}"}}]}}],
    }
    back = toolwire.convert(response, source="openai_chat", target="gemini", kind="response", tool_names=[name])
    assert back["candidates"][0]["content"]["parts"][0]["functionCall"]["name"] == name


def test_names_too_long_for_openai_get_a_hash_suffix():
    name = "mcp__" + "very_long_server_name_" * 4 + "tool"
    out = quiet(toolwire.convert, gemini_request("c1", name), source="gemini", target="anthropic")
    sent = out["tools"][0]["name"]
    assert OPENAI_NAME.match(sent) and len(sent) == 64 and sent != name[:64]
    assert out["messages"][1]["content"][0]["name"] == sent


def test_names_that_collide_after_sanitizing_are_an_error():
    body = gemini_request("c1", "a.b")
    body["tools"][0]["functionDeclarations"].append({"name": "a_b", "description": "other"})
    with pytest.raises(toolwire.NameCollisionError) as info:
        quiet(toolwire.convert, body, source="gemini", target="openai_chat")
    assert isinstance(info.value, toolwire.ConversionError)
    assert "'a.b' and 'a_b'" in info.value.message or "'a_b' and 'a.b'" in info.value.message


def test_openai_names_starting_with_a_digit_are_fitted_for_gemini():
    body = {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "go"}],
        "tools": [{"type": "function", "function": {"name": "3d_render", "parameters": {"type": "object"}}}],
    }
    out = quiet(toolwire.convert, body, source="openai_chat", target="gemini")
    assert GEMINI_NAME.match(out["tools"][0]["functionDeclarations"][0]["name"])


def test_strict_mode_refuses_to_rename():
    with pytest.raises(toolwire.LossError):
        toolwire.convert(gemini_request("c1", "a.b"), source="gemini", target="openai_chat", strict=True)


def test_an_id_the_same_provider_sent_comes_back_unchanged_even_if_it_breaks_the_rule():
    # Recorded (pydantic-ai test_openrouter_google_nested_schema): a 50-character Chat call id that
    # OpenRouter (an OpenAI-compatible API) took; OpenAI's own limit is 40. The payload had it, so a
    # same-provider round trip sends it back as it is; another target still gets a fitted id.
    long_id = "tool_insert_level_with_spaces_3ZiChYzj8xER8HixJe7W"
    body = {"model": "google/gemini-2.5-flash", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": long_id, "type": "function", "function": {"name": "insert_level", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": long_id, "content": "ok"},
    ]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(body, source="openai_chat", target="openai_chat") == body
    groq = quiet(toolwire.convert, body, source="openai_chat", target="groq")  # own provider data: fitted
    fitted = groq["messages"][1]["tool_calls"][0]["id"]
    assert len(fitted) == 40 and groq["messages"][2]["tool_call_id"] == fitted
    mistral = quiet(toolwire.convert, body, source="openai_chat", target="mistral")
    assert len(mistral["messages"][1]["tool_calls"][0]["id"]) == 9
