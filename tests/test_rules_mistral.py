"""Mistral's rules (spec/providers/mistral.yaml), each stated as a test.

Sources: the API reference (https://docs.mistral.ai/api/#tag/chat), the mistralai SDK models, and
mistral-common's request validator (the rules Mistral's serving applies).
"""

from __future__ import annotations

import re
import warnings

import pytest

import toolwire
from toolwire import ir
from toolwire_runtime import layout
from toolwire_runtime.context import Context

from sdk_validation_mistral import mistral_common_errors, validate_mistral

MISTRAL_ID = re.compile(r"^[a-zA-Z0-9]{9}$")
TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}


def chat(messages: list, **extra) -> dict:
    return {"model": "gpt-4.1", "messages": messages, "tools": [TOOL], **extra}


def mistral(messages: list, **extra) -> dict:
    return {"model": "mistral-large-latest", "messages": messages, "tools": [TOOL], **extra}


def call(cid: str, args: str = '{"location":"Tokyo"}') -> dict:
    return {"id": cid, "type": "function", "function": {"name": "get_weather", "arguments": args}}


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", toolwire.ConversionWarning)
        return fn(*args, **kwargs)


def round_trip(body: dict, kind: str = "request") -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a same-provider round trip loses nothing
        return toolwire.from_ir(toolwire.to_ir(body, provider="mistral", kind=kind), provider="mistral")


# --- tool call ids: exactly 9 characters a-z, A-Z, 0-9 -------------------------------------------


PARALLEL = chat([
    {"role": "user", "content": "Weather in Tokyo and Paris?"},
    {"role": "assistant", "content": None, "tool_calls": [call("call_abc-1"), call("toolu_01A09q90qw90lq917835lq9", '{"location":"Paris"}')]},
    {"role": "tool", "tool_call_id": "toolu_01A09q90qw90lq917835lq9", "content": "18"},
    {"role": "tool", "tool_call_id": "call_abc-1", "content": "22"},
])


def test_foreign_ids_become_nine_alphanumerics_and_calls_and_results_agree():
    with pytest.warns(toolwire.ConversionWarning, match="call ids that break mistral's rule"):
        out = toolwire.convert(PARALLEL, source="openai_chat", target="mistral")
    ids = [c["id"] for c in out["messages"][1]["tool_calls"]]
    assert all(MISTRAL_ID.match(i) for i in ids) and len(set(ids)) == 2
    # each result answers its own call, in the order the results were given
    assert [m["tool_call_id"] for m in out["messages"][2:]] == [ids[1], ids[0]]
    assert mistral_common_errors(out) == []


def test_the_mapping_is_deterministic_across_conversions_and_turns():
    first = quiet(toolwire.convert, PARALLEL, source="openai_chat", target="mistral")
    again = quiet(toolwire.convert, PARALLEL, source="openai_chat", target="mistral")
    assert first == again
    # a later request of the same agent loop maps the same call to the same id
    longer = dict(PARALLEL, messages=PARALLEL["messages"] + [
        {"role": "assistant", "content": "Tokyo 22, Paris 18."}, {"role": "user", "content": "Thanks"}])
    later = quiet(toolwire.convert, longer, source="openai_chat", target="mistral")
    assert later["messages"][1] == first["messages"][1]


def test_valid_ids_pass_unchanged_and_round_trip():
    body = mistral([
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "", "tool_calls": [call("D681PevKs")]},
        {"role": "tool", "tool_call_id": "D681PevKs", "content": "22"},
    ])
    assert round_trip(body) == body
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(body, source="mistral", target="openai_chat", model="gpt-4.1")["messages"][1]["tool_calls"][0]["id"] == "D681PevKs"


def test_mapped_ids_are_refused_in_strict_mode():
    with pytest.raises(toolwire.LossError, match="call ids"):
        toolwire.convert(PARALLEL, source="openai_chat", target="mistral", strict=True, model="mistral-large-latest")


def test_response_call_ids_are_fitted_too():
    response = {
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [call("call_123456789012")]}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    out = quiet(toolwire.convert, response, source="openai_chat", target="mistral", kind="response")
    assert MISTRAL_ID.match(out["choices"][0]["message"]["tool_calls"][0]["id"])
    assert validate_mistral("response", out) == []


# --- message order: a user turn right after tool results ------------------------------------------


TOOL_THEN_USER = chat([
    {"role": "user", "content": "Weather?"},
    {"role": "assistant", "content": None, "tool_calls": [call("D681PevKs")]},
    {"role": "tool", "tool_call_id": "D681PevKs", "content": "22"},
    {"role": "user", "content": "And tomorrow?"},
])


def test_user_after_tool_is_sent_as_is_which_current_mistral_common_accepts():
    """mistral.yaml cannot_express: the `bridge` conversation key needs generator support; until
    then the order is kept. mistral-common accepts it since "Allow user message after tool"."""
    out = quiet(toolwire.convert, TOOL_THEN_USER, source="openai_chat", target="mistral")
    assert [m["role"] for m in out["messages"]] == ["user", "assistant", "tool", "user"]
    assert mistral_common_errors(out) == []


def test_bridge_turns_inserts_an_assistant_turn_and_reports_it():
    req = toolwire.to_ir(TOOL_THEN_USER, provider="openai_chat")
    ctx = Context("mistral")
    out = layout.bridge_turns(req.messages, ["tool"], ["user"], "assistant", "Done.", "messages", ctx)
    assert [m.role for m in out] == ["user", "assistant", "tool", "assistant", "user"]
    assert out[3].parts == [ir.TextPart(text="Done.")]
    assert len(ctx.losses) == 1 and "rejects user right after tool" in ctx.losses[0][1]
    assert [m.role for m in req.messages] == ["user", "assistant", "tool", "user"]  # input untouched
    assert layout.bridge_turns(out, ["tool"], ["user"], "assistant", "Done.", "messages", Context("mistral")) == out
    with pytest.raises(toolwire.LossError):
        layout.bridge_turns(req.messages, ["tool"], ["user"], "assistant", "Done.", "messages", Context("mistral", strict=True))


# --- tool_choice: auto, none, any / required, a named function ---------------------------------------


@pytest.mark.parametrize("wire,mode", [("auto", "auto"), ("none", "none"), ("any", "required"), ("required", "required")])
def test_tool_choice_modes(wire, mode):
    body = mistral([{"role": "user", "content": "hi"}], tool_choice=wire)
    assert toolwire.to_ir(body, provider="mistral").tool_choice.mode == mode
    # `any` and `required` mean the same ("`any` or `required` means the model must call one or
    # more tools"); `any` is sent for other sources, and the input's own word back to Mistral.
    assert round_trip(body) == body
    chat = {**body, "model": "gpt-4.1", "tool_choice": mode}
    assert toolwire.convert(chat, source="openai_chat", target="mistral", model="mistral-large-latest")["tool_choice"] == ("any" if mode == "required" else mode)


def test_required_from_other_providers_is_sent_as_any():
    out = toolwire.convert(chat([{"role": "user", "content": "hi"}], tool_choice="required"), source="openai_chat", target="mistral")
    assert out["tool_choice"] == "any"
    anthropic = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}], "tool_choice": {"type": "any"}}
    assert toolwire.convert(anthropic, source="anthropic", target="mistral")["tool_choice"] == "any"


def test_named_tool_choice_both_ways():
    named = {"type": "function", "function": {"name": "get_weather"}}
    out = toolwire.convert(chat([{"role": "user", "content": "hi"}], tool_choice=named), source="openai_chat", target="mistral")
    assert out["tool_choice"] == named
    choice = toolwire.to_ir(mistral([{"role": "user", "content": "hi"}], tool_choice={"function": {"name": "get_weather"}}), provider="mistral").tool_choice
    assert (choice.mode, choice.name) == ("tool", "get_weather")  # `type` defaults to function (mistralai ToolChoice)


# --- parallel_tool_calls ---------------------------------------------------------------------------


def test_parallel_tool_calls():
    body = mistral([{"role": "user", "content": "hi"}], parallel_tool_calls=False)
    assert toolwire.to_ir(body, provider="mistral").parallel_tool_calls is False
    assert round_trip(body) == body
    anthropic = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
                 "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}}
    assert toolwire.convert(anthropic, source="anthropic", target="mistral")["parallel_tool_calls"] is False


# --- arguments: JSON text (the SDK also takes an object) -----------------------------------------------


def test_arguments_are_json_text_and_objects_are_accepted():
    body = mistral([
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "D681PevKs", "type": "function", "function": {"name": "get_weather", "arguments": {"location": "Tokyo"}}}]},
        {"role": "tool", "tool_call_id": "D681PevKs", "content": "22"},
    ])
    req = toolwire.to_ir(body, provider="mistral")
    assert req.messages[1].parts[0].arguments == {"location": "Tokyo"}
    assert toolwire.from_ir(req, provider="mistral")["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"location":"Tokyo"}'
    gemini = {"contents": [{"role": "user", "parts": [{"text": "go"}]}, {"role": "model", "parts": [{"functionCall": {"id": "D681PevKs", "name": "get_weather", "args": {"location": "Tokyo"}}}]}]}
    out = toolwire.convert(gemini, source="gemini", target="mistral", model="mistral-large-latest")
    assert out["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"location":"Tokyo"}'


# --- prefix: Mistral's prefill flag --------------------------------------------------------------------


PREFILL = mistral([{"role": "user", "content": "Write a haiku"}, {"role": "assistant", "content": "Autumn", "prefix": True}])


def test_prefix_round_trips_and_is_reported_elsewhere():
    assert round_trip(PREFILL) == PREFILL
    assert mistral_common_errors(PREFILL) == []
    with pytest.warns(toolwire.ConversionWarning, match="prefix"):
        out = toolwire.convert(PREFILL, source="mistral", target="openai_chat")
    assert "prefix" not in out["messages"][1]


def test_flag_prefill_marks_a_final_assistant_turn():
    """The prefill_flag conversation key needs generator support (mistral.yaml cannot_express);
    its runtime: a final assistant turn without calls gets prefix: true as Mistral provider data."""
    body = chat([{"role": "user", "content": "Write a haiku"}, {"role": "assistant", "content": "Autumn"}])
    req = toolwire.to_ir(body, provider="openai_chat")
    flagged = layout.flag_prefill(req.messages, "mistral", "prefix", True, "messages", Context("mistral"))
    req.messages = flagged
    out = toolwire.from_ir(req, provider="mistral")
    assert out["messages"][1] == {"role": "assistant", "content": "Autumn", "prefix": True}
    assert mistral_common_errors(out) == []
    calls = toolwire.to_ir(chat([{"role": "user", "content": "go"}, {"role": "assistant", "content": None, "tool_calls": [call("D681PevKs")]}]), provider="openai_chat")
    assert layout.flag_prefill(calls.messages, "mistral", "prefix", True, "messages", Context("mistral")) is calls.messages


# --- other documented differences ------------------------------------------------------------------------


def test_max_tokens_top_k_and_stop():
    body = mistral([{"role": "user", "content": "hi"}], max_tokens=64, top_k=20, temperature=0.3, stop="END")
    req = toolwire.to_ir(body, provider="mistral")
    assert (req.max_tokens, req.top_k, req.temperature, req.stop) == (64, 20, 0.3, ["END"])
    assert round_trip(body) == body
    out = toolwire.convert(chat([{"role": "user", "content": "hi"}], max_completion_tokens=64), source="openai_chat", target="mistral")
    assert out["max_tokens"] == 64 and "max_completion_tokens" not in out


def test_messages_have_no_participant_name():
    body = chat([{"role": "user", "content": "hi", "name": "alice"}])
    with pytest.warns(toolwire.ConversionWarning, match="no place for Message.name"):
        out = toolwire.convert(body, source="openai_chat", target="mistral")
    assert out["messages"][0] == {"role": "user", "content": "hi"}


def test_images_as_url_strings_data_urls_and_objects_with_detail():
    url = "https://example.com/cat.png"
    body = mistral([{"role": "user", "content": [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": url},
        {"type": "image_url", "image_url": "data:image/png;base64,iVBORw0KGgo="},
        {"type": "image_url", "image_url": {"url": url, "detail": "high"}},
        {"type": "image_url", "image_url": {"url": url}},
    ]}])
    parts = toolwire.to_ir(body, provider="mistral").messages[0].parts
    assert (parts[1].url, parts[2].media_type, parts[2].data, parts[3].detail) == (url, "image/png", "iVBORw0KGgo=", "high")
    assert round_trip(body) == body
    assert validate_mistral("request", body) == []
    openai = chat([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url, "detail": "original"}}]}])
    with pytest.warns(toolwire.ConversionWarning, match="image detail 'original'"):
        out = toolwire.convert(openai, source="openai_chat", target="mistral")
    assert out["messages"][0]["content"] == [{"type": "image_url", "image_url": url}]


def test_model_length_is_a_length_finish_and_round_trips():
    response = {"id": "c", "object": "chat.completion", "created": 1, "model": "mistral-large-latest",
                "choices": [{"index": 0, "finish_reason": "model_length", "message": {"role": "assistant", "content": "Once upon"}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    assert toolwire.to_ir(response, provider="mistral", kind="response").finish_reason == "length"
    assert round_trip(response, kind="response") == response


def test_thinking_chunks_and_tool_message_names_are_kept_for_mistral():
    body = mistral([
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "use the tool"}]}, {"type": "text", "text": "Checking."}], "tool_calls": [call("D681PevKs")]},
        {"role": "tool", "name": "get_weather", "tool_call_id": "D681PevKs", "content": "22"},
    ])
    assert round_trip(body) == body
    assert validate_mistral("request", body) == []
    with pytest.warns(toolwire.ConversionWarning, match="anthropic cannot express ReasoningPart"):  # unsigned
        out = toolwire.convert(body, source="mistral", target="anthropic", model="claude-sonnet-4-5")
    assert out["messages"][1]["content"][0] == {"type": "text", "text": "Checking."}


def test_error_results_are_text_with_the_error_prefix():
    anthropic = {"model": "m", "max_tokens": 5, "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "D681PevKs", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "D681PevKs", "content": "no such city", "is_error": True}]},
    ]}
    with pytest.warns(toolwire.ConversionWarning, match="no error flag"):
        out = toolwire.convert(anthropic, source="anthropic", target="mistral")
    assert out["messages"][2] == {"role": "tool", "tool_call_id": "D681PevKs", "content": "Error: no such city"}


def test_tools_without_parameters_get_an_empty_schema_reported():
    gemini = {"contents": [{"role": "user", "parts": [{"text": "go"}]}], "tools": [{"functionDeclarations": [{"name": "ping", "description": "Ping"}]}]}
    with pytest.warns(toolwire.ConversionWarning, match="parameters is required by mistral"):
        out = toolwire.convert(gemini, source="gemini", target="mistral", model="mistral-large-latest")
    assert out["tools"][0]["function"]["parameters"] == {"type": "object", "properties": {}}
    assert validate_mistral("request", out) == []
