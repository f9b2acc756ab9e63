"""SDK validation keyed by wire family: a family of spec/wire/families.yaml with pydantic roots and
no checker of its own is validated through strict copies of the very types its schema is derived
from (tests/sdk_validation.py, tests/sdk_pydantic_strict.py) — no Python per family.

Cohere v1 (the legacy POST /v1/chat) is such a family. It is checked here at the family level
(``validate_family``), whether or not a provider spec says ``wire_types: cohere_v1`` yet. The bodies
follow https://docs.cohere.com/v1/reference/chat and https://docs.cohere.com/v1/docs/tool-use
(cohere 7.3.1: the keyword arguments of ``cohere.base_client.BaseCohere.chat`` — ``Message`` with
roles USER / CHATBOT / SYSTEM / TOOL, ``ToolCall``, ``ToolResult``, ``Tool``,
``ToolParameterDefinitionsValue`` — and ``cohere.types.NonStreamedChatResponse``).
"""

from __future__ import annotations

import copy

import pytest
from pydantic import BaseModel

from generator import derive
from sdk_validation import CHECKERS, SDK_TYPES, SDK_TYPES_OF, validate_family

CALL_TOKYO = {"name": "get_weather", "parameters": {"location": "Tokyo"}}
CALL_PARIS = {"name": "get_weather", "parameters": {"location": "Paris"}}

V1_REQUEST = {
    "model": "command-r-plus-08-2024",
    "preamble": "You are a weather assistant.",
    "chat_history": [
        {"role": "SYSTEM", "message": "Answer briefly."},
        {"role": "USER", "message": "What is the weather in Tokyo and in Paris?"},
        {"role": "CHATBOT", "message": "", "tool_calls": [CALL_TOKYO]},
        {"role": "TOOL", "tool_results": [{"call": CALL_TOKYO, "outputs": [{"temperature": 22, "unit": "celsius"}]}]},
        {"role": "CHATBOT", "message": "", "tool_calls": [CALL_PARIS]},
    ],
    "message": "",
    "tool_results": [{"call": CALL_PARIS, "outputs": [{"error": "weather service timeout"}]}],
    "tools": [
        {
            "name": "get_weather",
            "description": "Get the current weather",
            "parameter_definitions": {
                "location": {"description": "City name", "type": "str", "required": True},
                "days": {"type": "List[int]"},
            },
        }
    ],
    "max_tokens": 1024,
}

V1_RESPONSE = {
    "response_id": "5d0b0c5a-0f2e-4b8e-9c61-2f0c6f1e4a11",
    "text": "",
    "generation_id": "0f7e3a52-91c4-4d2b-a3a8-6f1b2c9d7e10",
    "chat_history": V1_REQUEST["chat_history"],
    "finish_reason": "COMPLETE",
    "tool_calls": [CALL_PARIS],
    "meta": {
        "api_version": {"version": "1"},
        "billed_units": {"input_tokens": 31, "output_tokens": 12},
        "tokens": {"input_tokens": 912, "output_tokens": 40},
    },
}


def _mutated(body: dict, mutate) -> dict:
    body = copy.deepcopy(body)
    mutate(body)
    return body


def test_valid_cohere_v1_bodies() -> None:
    assert validate_family("cohere_v1", "request", V1_REQUEST) == []
    assert validate_family("cohere_v1", "response", V1_RESPONSE) == []


@pytest.mark.parametrize(
    "kind,mutate,path,words",
    [
        ("request", lambda b: b["tool_results"][0].pop("call"), "tool_results[0].call", ["Field required"]),
        ("request", lambda b: b.update(tool_choice="REQUIRED"), "tool_choice", ["Extra inputs"]),  # v1 has none
        ("request", lambda b: b.pop("message"), "message", ["Field required"]),
        ("request", lambda b: b["chat_history"][2]["tool_calls"][0].update(id="call_1"), "chat_history[2].tool_calls[0].id", ["Extra inputs"]),
        ("request", lambda b: b["chat_history"][1].update(role="ASSISTANT"), "chat_history[1]", ["ASSISTANT"]),
        ("request", lambda b: b["tools"][0]["parameter_definitions"]["location"].update(enum=["Tokyo"]),
         "tools[0].parameter_definitions.location.enum", ["Extra inputs"]),
        ("response", lambda b: b.update(finish_reason="TOOL_CALL"), "finish_reason", ["TOOL_CALL"]),
        ("response", lambda b: b["meta"]["tokens"].update(total_tokens=952), "meta.tokens.total_tokens", ["Extra inputs"]),
    ],
    ids=["result_without_call", "tool_choice", "no_message", "call_id", "role", "param_enum", "finish_reason", "usage_key"],
)
def test_invalid_cohere_v1_bodies(kind, mutate, path, words) -> None:
    base = V1_REQUEST if kind == "request" else V1_RESPONSE
    found = validate_family("cohere_v1", kind, _mutated(base, mutate))
    assert any(e.startswith(f"{path}:") and all(w in e for w in words) for e in found), found


def test_the_generic_checks_use_the_roots_derive_reads() -> None:
    """Every family with pydantic roots and no checker of its own is validated generically, against
    the types derive built from spec/wire/families.yaml (the same objects, built once)."""
    generic = [
        name for name, family in derive.families().items()
        if family.roots is not None
        and all(isinstance(t, type) and issubclass(t, BaseModel) for t in (derive.root_type(name, k) for k in ("request", "response")))
        and name not in ("mistral", "ollama", "gemini")  # checkers of their own (SDK-specific corrections)
    ]
    assert {"cohere", "cohere_v1"} <= set(generic)
    assert sorted(SDK_TYPES_OF) == sorted(generic)
    for name in generic:
        assert name in CHECKERS
        for kind in ("request", "response"):
            assert SDK_TYPES[name, kind] is derive.root_type(name, kind)
