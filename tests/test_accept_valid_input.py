"""Valid input that must be accepted (issue 9 §2): forms the providers' APIs and SDKs take that
toolwire used to reject. Each accepted variant round-trips to its own provider unchanged and
converts to every other provider into a payload the target's SDK types accept (what a target
cannot express is reported, never an error). Each test cites where the form comes from.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import ir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sdk_validation import validate  # noqa: E402


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def accepted(payload: dict, provider: str, kind: str = "request", targets=None) -> None:
    """Valid for its provider; identical after a same-provider round trip (no warning); converts
    to every other provider into a payload the target's SDK types accept."""
    assert validate(provider, kind, payload) == []
    with warnings.catch_warnings():
        warnings.simplefilter("error", toolwire.ConversionWarning)
        back = toolwire.convert(payload, source=provider, target=provider, kind=kind)
    assert json.dumps(back, sort_keys=True) == json.dumps(payload, sort_keys=True)
    for target in targets or toolwire.PROVIDERS:
        if target == provider:
            continue
        out = quiet(toolwire.convert, payload, source=provider, target=target, kind=kind, model="m-1")
        assert validate(target, kind, out) == [], target


def gemini_request(**extra) -> dict:
    return {"contents": [{"role": "user", "parts": [{"text": "Weather in Tokyo?"}]}], **extra}


GEMINI_TOOLS = [{"functionDeclarations": [{"name": "get_weather", "description": "Weather of a city",
                                           "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}]


# --- Gemini ---------------------------------------------------------------------------------------


def test_gemini_tool_config_without_function_calling_config_is_accepted():
    # ToolConfig.function_calling_config is Optional (google-genai types.ToolConfig; API reference
    # https://ai.google.dev/api/caching#ToolConfig): a toolConfig may hold only other settings.
    body = gemini_request(tools=GEMINI_TOOLS, toolConfig={"includeServerSideToolInvocations": True})
    req = toolwire.to_ir(body, provider="gemini")
    assert req.tool_choice.mode == "auto"  # absent is AUTO, the API's default
    accepted(body, "gemini")
    # the other setting has no equivalent elsewhere: reported
    with pytest.warns(toolwire.ConversionWarning, match="includeServerSideToolInvocations"):
        toolwire.convert(body, source="gemini", target="openai_chat", model="m")
    # a mode of its own is still sent
    req.tool_choice = ir.ToolChoice(mode="required")
    assert toolwire.from_ir(req, provider="gemini")["toolConfig"]["functionCallingConfig"] == {"mode": "ANY"}


def test_gemini_top_k_sent_as_a_float_is_accepted():
    # GenerationConfig.top_k is Optional[float] in google-genai (the REST reference says integer):
    # SDK users send 40.0. The IR keeps the integer; the spelling comes back to Gemini.
    body = gemini_request(generationConfig={"topK": 40.0, "temperature": 0.5})
    assert toolwire.to_ir(body, provider="gemini").top_k == 40
    # (fireworks takes top_k, which the OpenAI SDK types its family is checked with do not declare)
    accepted(body, "gemini", targets=[p for p in toolwire.PROVIDERS if p != "fireworks"])
    assert quiet(toolwire.convert, body, source="gemini", target="mistral", model="m")["top_k"] == 40
    with pytest.raises(toolwire.ConversionError, match=r"generationConfig\.topK"):
        toolwire.to_ir(gemini_request(generationConfig={"topK": 40.5}), provider="gemini")


@pytest.mark.parametrize("provider", ["gemini", "vertex"])
@pytest.mark.parametrize(
    "body",
    [
        # a blocked prompt: no candidates, promptFeedback says why (GenerateContentResponse.candidates
        # is Optional; https://ai.google.dev/api/generate-content#generatecontentresponse)
        {"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "gemini-2.5-flash", "responseId": "r1",
         "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7}},
        # a candidate without content (Candidate.content is Optional): blocked output
        {"candidates": [{"finishReason": "SAFETY", "index": 0}], "modelVersion": "gemini-2.5-flash",
         "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7}},
        # content {} (Content.role and Content.parts are Optional): MAX_TOKENS spent on thinking
        {"candidates": [{"content": {}, "finishReason": "MAX_TOKENS"}], "modelVersion": "gemini-2.5-flash",
         "usageMetadata": {"promptTokenCount": 7, "thoughtsTokenCount": 20, "totalTokenCount": 27}},
        {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS"}], "modelVersion": "gemini-2.5-flash"},
        # MODEL_ARMOR (Vertex AI) is a FinishReason value of google-genai
        {"candidates": [{"finishReason": "MODEL_ARMOR"}], "modelVersion": "gemini-2.5-flash"},
    ],
)
def test_gemini_responses_without_candidates_or_content_are_empty_assistant_turns(provider, body):
    resp = toolwire.to_ir(body, provider=provider, kind="response")
    assert resp.message.role == "assistant" and resp.message.parts == []
    accepted(body, provider, kind="response")
