"""The agent loop: ``toolwire.run_tool_calls`` / ``arun_tool_calls``, ``toolwire.Conversation`` and
``examples/agent_loop.py`` (design seed 004: parallel calls, errors returned to the model, turn and
cost guards). No network: the example's SDK clients talk to a local replay.

Response bodies follow the providers' API references: Anthropic Messages
(https://docs.anthropic.com/en/api/messages, anthropic.types.Message), OpenAI Chat Completions
(https://platform.openai.com/docs/api-reference/chat/object, openai.types.chat.ChatCompletion).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib.util
import io
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import ir

ROOT = Path(__file__).resolve().parents[1]

WEATHER = ir.ToolDefinition(
    name="get_weather",
    description="Weather of a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


def call(id: str, name: str, **arguments) -> ir.ToolCall:
    return ir.ToolCall(id=id, name=name, arguments=arguments)


def results(message: ir.Message) -> list[tuple]:
    assert message.role == "tool"
    return [(r.tool_call_id, r.name, r.result, r.is_error) for r in message.parts]


# --- run_tool_calls ------------------------------------------------------------------------------


def test_sync_calls_run_concurrently_and_keep_the_calls_order():
    barrier = threading.Barrier(3, timeout=5)  # passes only when the three calls run at once
    done = []
    later = threading.Event()

    def step(n: int) -> str:
        barrier.wait()
        if n == 0:  # the first call finishes last
            later.wait(5)
        else:
            done.append(n)
            if len(done) == 2:
                later.set()
        return f"step {n}"

    calls = [call("a", "step", n=0), call("b", "step", n=1), call("c", "step", n=2)]
    out = toolwire.run_tool_calls(calls, [step])
    assert results(out) == [
        ("a", "step", "step 0", False),
        ("b", "step", "step 1", False),
        ("c", "step", "step 2", False),
    ]


def test_async_and_sync_tools_together():
    started = []

    async def fetch(city: str) -> dict:
        started.append(city)
        while len(started) < 2:  # both coroutines are on the loop at once
            await asyncio.sleep(0)
        return {"city": city, "temp": 20}

    def local(x: int) -> int:
        return x * 2

    calls = [
        call("1", "fetch", city="Tokyo"),
        call("2", "local", x=21),
        call("3", "fetch", city="Paris"),
    ]
    out = toolwire.run_tool_calls(calls, {"fetch": fetch, "local": local})
    assert results(out) == [
        ("1", "fetch", {"city": "Tokyo", "temp": 20}, False),
        ("2", "local", 42, False),
        ("3", "fetch", {"city": "Paris", "temp": 20}, False),
    ]


def test_arun_tool_calls_and_run_tool_calls_inside_a_running_loop():
    async def double(x: int) -> int:
        return 2 * x

    calls = [call("1", "double", x=1), call("2", "double", x=2)]

    async def main():
        awaited = await toolwire.arun_tool_calls(calls, [double])
        blocking = toolwire.run_tool_calls(calls, [double])  # runs its own loop in a helper thread
        return awaited, blocking

    awaited, blocking = asyncio.run(main())
    assert (
        results(awaited)
        == results(blocking)
        == [("1", "double", 2, False), ("2", "double", 4, False)]
    )


def test_errors_become_error_results_the_model_can_read():
    def get_weather(city: str, unit: str = "celsius") -> dict:
        if city == "Atlantis":
            raise LookupError("no such city")
        return {"city": city, "unit": unit}

    async def broken() -> None:
        raise RuntimeError()

    calls = [
        call("1", "get_weather", city="Atlantis"),
        call("2", "get_forecast", city="Tokyo"),
        call("3", "get_weather", town="Tokyo"),
        call("4", "get_weather", city="Tokyo", unit="kelvin", extra=1),
        ir.ToolCall(id="5", name="get_weather", arguments={}, raw_arguments='{"city": "Tok'),
        call("6", "broken"),
        call("7", "get_weather", city="Tokyo"),
    ]
    out = toolwire.run_tool_calls(calls, [get_weather, broken])
    assert results(out) == [
        ("1", "get_weather", "'get_weather' raised LookupError: no such city", True),
        (
            "2",
            "get_forecast",
            "unknown tool 'get_forecast'; the tools are 'get_weather', 'broken'",
            True,
        ),
        (
            "3",
            "get_weather",
            "invalid arguments for 'get_weather': missing a required argument: 'city'",
            True,
        ),
        (
            "4",
            "get_weather",
            "invalid arguments for 'get_weather': got an unexpected keyword argument 'extra'",
            True,
        ),
        (
            "5",
            "get_weather",
            "the arguments of 'get_weather' are not valid JSON: '{\"city\": \"Tok'",
            True,
        ),
        ("6", "broken", "'broken' raised RuntimeError", True),
        ("7", "get_weather", {"city": "Tokyo", "unit": "celsius"}, False),
    ]


def test_timeouts_become_error_results_and_the_other_calls_still_answer():
    release = threading.Event()

    def stuck() -> str:
        release.wait(5)
        return "too late"

    async def astuck() -> str:
        await asyncio.Event().wait()

    def quick() -> str:
        return "ok"

    try:
        out = toolwire.run_tool_calls(
            [call("1", "stuck"), call("2", "quick"), call("3", "astuck")],
            [stuck, quick, astuck],
            timeout=0.05,
        )
    finally:
        release.set()  # let the abandoned thread end
    assert results(out) == [
        ("1", "stuck", "'stuck' timed out after 0.05 s", True),
        ("2", "quick", "ok", False),
        ("3", "astuck", "'astuck' timed out after 0.05 s", True),
    ]


def test_a_timeout_error_of_the_tool_itself_is_not_the_turn_timeout():
    def slow_socket() -> None:
        raise TimeoutError("read timed out")

    async def aslow_socket() -> None:
        raise TimeoutError("read timed out")

    for timeout in (None, 5):
        out = toolwire.run_tool_calls(
            [call("1", "slow_socket"), call("2", "aslow_socket")],
            [slow_socket, aslow_socket],
            timeout=timeout,
        )
        assert results(out) == [
            ("1", "slow_socket", "'slow_socket' raised TimeoutError: read timed out", True),
            ("2", "aslow_socket", "'aslow_socket' raised TimeoutError: read timed out", True),
        ]


def test_return_values_stay_structured_and_strings_stay_strings():
    @dataclasses.dataclass
    class Reading:
        temp: float
        tags: tuple

    image = ir.ImagePart(media_type="image/png", data="iVBORw0KGgo=")
    values = {
        "d": {"a": [1, 2.5, None, True]},
        "l": [1, "x"],
        "s": '{"not": "parsed"}',
        "n": None,
        "dc": Reading(temp=21.5, tags=("a", "b")),
        "obj": object.__new__(type("Thing", (), {"__str__": lambda self: "a thing"})),
        "img": image,
    }
    tools = {name: (lambda v=v: v) for name, v in values.items()}
    out = toolwire.run_tool_calls([call(name, name) for name in values], tools)
    assert [(r.result, r.parts) for r in out.parts] == [
        ({"a": [1, 2.5, None, True]}, None),
        ([1, "x"], None),
        ('{"not": "parsed"}', None),
        (None, None),
        ({"temp": 21.5, "tags": ["a", "b"]}, None),
        ("a thing", None),
        (None, [image]),
    ]


def test_pydantic_return_values_are_dumped_as_json():
    pydantic = pytest.importorskip("pydantic")

    class Forecast(pydantic.BaseModel):
        city: str
        days: list[int]

    out = toolwire.run_tool_calls(
        [call("1", "f")], {"f": lambda: Forecast(city="Tokyo", days=[1, 2])}
    )
    assert results(out) == [("1", "f", {"city": "Tokyo", "days": [1, 2]}, False)]


def test_tools_given_as_objects_with_a_definition_and_the_calls_of_a_response():
    class Tool:  # what @toolwire.tool gives: a callable carrying its ir.ToolDefinition
        def __init__(self, fn, name):
            self.fn, self.definition = fn, ir.ToolDefinition(name=name)

    class Wrapper:  # not callable itself: the function it holds is run
        def __init__(self, fn, name):
            self.fn, self.definition = fn, ir.ToolDefinition(name=name)

    class CallableTool(Tool):
        def __call__(self, **kw):
            return self.fn(**kw)

    response = ir.Response(
        message=ir.Message(
            role="assistant",
            parts=[
                ir.TextPart(text="ok"),
                call("1", "weather.get", city="Oslo"),
                call("2", "t", x=1),
            ],
        )
    )
    out = toolwire.run_tool_calls(
        response,
        [CallableTool(lambda city: city.upper(), "weather.get"), Wrapper(lambda x: x + 1, "t")],
    )
    assert results(out) == [("1", "weather.get", "OSLO", False), ("2", "t", 2, False)]


def test_bad_tool_tables_are_refused():
    def f():
        pass

    with pytest.raises(ValueError, match="two tools are named 'f'"):
        toolwire.run_tool_calls([], [f, f])
    with pytest.raises(TypeError, match="mapping name -> function or a list"):
        toolwire.run_tool_calls([], f)
    with pytest.raises(TypeError, match="is not callable"):
        toolwire.run_tool_calls([], {"f": 3})
    with pytest.raises(TypeError, match="calls must be toolwire.ir.ToolCall objects, got dict"):
        toolwire.run_tool_calls([{"id": "1"}], [f])


# --- Conversation --------------------------------------------------------------------------------


def load_example():
    spec = importlib.util.spec_from_file_location(
        "agent_loop_example", ROOT / "examples" / "agent_loop.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = load_example()  # imports no SDK until a client is made
anthropic_message = EXAMPLE.anthropic_message


CALLS_RESPONSE = anthropic_message(
    [
        {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Tokyo"}},
        {
            "type": "tool_use",
            "id": "toolu_01B",
            "name": "get_weather",
            "input": {"city": "Atlantis"},
        },
    ],
    "tool_use",
    (10, 5),
)


def get_weather(city: str) -> dict:
    if city == "Atlantis":
        raise LookupError("no such city")
    return {"temp": 22}


def conversation(**kw) -> toolwire.Conversation:
    convo = toolwire.Conversation(
        system="Be brief.", tools=[WEATHER], tool_choice="auto", max_tokens=256, **kw
    )
    convo.user("Weather in Tokyo and Atlantis?")
    return convo


SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
OK, ERROR = (
    "'get_weather' raised LookupError: no such city",
    "Error: 'get_weather' raised LookupError: no such city",
)

# The history after one turn of two parallel calls (one failed), rendered for each provider.
RENDERED = {
    "openai_chat": {
        "model": "m1",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather in Tokyo and Atlantis?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "toolu_01A",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Tokyo"}'},
                    },
                    {
                        "id": "toolu_01B",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Atlantis"}'},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "toolu_01A", "content": '{"temp":22}'},
            {"role": "tool", "tool_call_id": "toolu_01B", "content": ERROR},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Weather of a city",
                    "parameters": SCHEMA,
                },
            }
        ],
        "tool_choice": "auto",
        "max_completion_tokens": 256,
    },
    "openai_responses": {
        "model": "m1",
        "input": [
            {"role": "user", "content": "Weather in Tokyo and Atlantis?"},
            {
                "type": "function_call",
                "call_id": "toolu_01A",
                "name": "get_weather",
                "arguments": '{"city":"Tokyo"}',
            },
            {
                "type": "function_call",
                "call_id": "toolu_01B",
                "name": "get_weather",
                "arguments": '{"city":"Atlantis"}',
            },
            {"type": "function_call_output", "call_id": "toolu_01A", "output": '{"temp":22}'},
            {"type": "function_call_output", "call_id": "toolu_01B", "output": ERROR},
        ],
        "instructions": "Be brief.",
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "description": "Weather of a city",
                "parameters": SCHEMA,
                "strict": False,
            }
        ],
        "tool_choice": "auto",
        "max_output_tokens": 256,
    },
    "anthropic": {
        "model": "m1",
        "max_tokens": 256,
        "messages": [
            {"role": "user", "content": "Weather in Tokyo and Atlantis?"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_01A",
                        "name": "get_weather",
                        "input": {"city": "Tokyo"},
                    },
                    {
                        "type": "tool_use",
                        "id": "toolu_01B",
                        "name": "get_weather",
                        "input": {"city": "Atlantis"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_01A", "content": '{"temp":22}'},
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01B",
                        "content": OK,
                        "is_error": True,
                    },
                ],
            },
        ],
        "system": "Be brief.",
        "tools": [
            {"name": "get_weather", "description": "Weather of a city", "input_schema": SCHEMA}
        ],
        "tool_choice": {"type": "auto"},
    },
    "gemini": {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Tokyo and Atlantis?"}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {
                            "id": "toolu_01A",
                            "name": "get_weather",
                            "args": {"city": "Tokyo"},
                        }
                    },
                    {
                        "functionCall": {
                            "id": "toolu_01B",
                            "name": "get_weather",
                            "args": {"city": "Atlantis"},
                        }
                    },
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": "toolu_01A",
                            "name": "get_weather",
                            "response": {"temp": 22},
                        }
                    },
                    {
                        "functionResponse": {
                            "id": "toolu_01B",
                            "name": "get_weather",
                            "response": {"error": OK},
                        }
                    },
                ],
            },
        ],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_weather",
                        "description": "Weather of a city",
                        "parametersJsonSchema": SCHEMA,
                    }
                ]
            }
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {"maxOutputTokens": 256},
    },
    "bedrock_converse": {
        "messages": [
            {"role": "user", "content": [{"text": "Weather in Tokyo and Atlantis?"}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "toolUse": {
                            "toolUseId": "toolu_01A",
                            "name": "get_weather",
                            "input": {"city": "Tokyo"},
                        }
                    },
                    {
                        "toolUse": {
                            "toolUseId": "toolu_01B",
                            "name": "get_weather",
                            "input": {"city": "Atlantis"},
                        }
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"toolResult": {"toolUseId": "toolu_01A", "content": [{"json": {"temp": 22}}]}},
                    {
                        "toolResult": {
                            "toolUseId": "toolu_01B",
                            "content": [{"text": OK}],
                            "status": "error",
                        }
                    },
                ],
            },
        ],
        "system": [{"text": "Be brief."}],
        "inferenceConfig": {"maxTokens": 256},
        "toolConfig": {
            "tools": [
                {
                    "toolSpec": {
                        "name": "get_weather",
                        "description": "Weather of a city",
                        "inputSchema": {"json": SCHEMA},
                    }
                }
            ],
            "toolChoice": {"auto": {}},
        },
    },
}


@pytest.mark.parametrize("provider", list(RENDERED))
def test_the_history_renders_for_any_provider(provider):
    convo = conversation()
    calls = convo.add_response(CALLS_RESPONSE, "anthropic")
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("toolu_01A", "get_weather", {"city": "Tokyo"}),
        ("toolu_01B", "get_weather", {"city": "Atlantis"}),
    ]
    convo.add_results(toolwire.run_tool_calls(calls, [get_weather]))
    model = None if provider in ("gemini", "bedrock_converse") else "m1"  # theirs is in the URL
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        body = convo.request(provider, model=model)
    assert body == RENDERED[provider]
    lost = [str(w.message) for w in caught]
    if provider.startswith("openai"):  # OpenAI has no error flag: reported, the text says it
        index = (
            3 if provider == "openai_chat" else 2
        )  # the IR message (system hoisted by Responses)
        assert lost == [
            f"messages[{index}].result: no error flag; error sent as text prefixed with 'Error: '"
        ]
    else:
        assert lost == []


def test_add_response_maps_fitted_tool_names_back():
    dotted = ir.ToolDefinition(
        name="weather.get",
        parameters={"type": "object", "properties": {"city": {"type": "string"}}},
    )
    convo = toolwire.Conversation(tools=[dotted], model="gpt-4.1")
    convo.user("Oslo?")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        body = convo.request("openai_chat")
    assert (
        body["tools"][0]["function"]["name"] == "weather_get"
    )  # OpenAI's name rule: [a-zA-Z0-9_-]
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1741570283,
        "model": "gpt-4.1",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "weather_get", "arguments": '{"city":"Oslo"}'},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19},
    }
    calls = convo.add_response(response, "openai_chat")
    assert [(c.id, c.name) for c in calls] == [("call_1", "weather.get")]
    assert results(toolwire.run_tool_calls(calls, {"weather.get": lambda city: "cold"})) == [
        ("call_1", "weather.get", "cold", False)
    ]


def test_ids_made_up_for_gemini_calls_stay_unique_across_turns():
    def turn(
        city: str,
    ) -> (
        dict
    ):  # Gemini API calls without ids (https://ai.google.dev/api/caching#FunctionCall: id optional)
        return {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"functionCall": {"name": "get_weather", "args": {"city": city}}}
                        ],
                    },
                    "finishReason": "STOP",
                }
            ],
            "usageMetadata": {
                "promptTokenCount": 5,
                "candidatesTokenCount": 3,
                "totalTokenCount": 8,
            },
        }

    convo = toolwire.Conversation(tools=[WEATHER], max_tokens=64)
    convo.user("Tokyo, then Paris")
    for city in ("Tokyo", "Paris"):
        calls = convo.add_response(turn(city), "gemini")
        convo.add_results(
            toolwire.run_tool_calls(calls, {"get_weather": lambda city: city.upper()})
        )
    assert [c.id for m in convo.messages for c in m.parts if isinstance(c, ir.ToolCall)] == [
        "call_r0",
        "call_r0_1",
    ]
    gemini = convo.request("gemini")["contents"]  # no ids on the wire: Gemini pairs by position
    assert gemini[1:3] == [
        {
            "role": "model",
            "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Tokyo"}}}],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"output": "TOKYO"}}}
            ],
        },
    ]
    claude = convo.request("anthropic", model="claude-sonnet-4-6")[
        "messages"
    ]  # the same history elsewhere
    assert [
        (b["type"], b.get("id") or b.get("tool_use_id")) for m in claude[1:] for b in m["content"]
    ] == [
        ("tool_use", "call_r0"),
        ("tool_result", "call_r0"),
        ("tool_use", "call_r0_1"),
        ("tool_result", "call_r0_1"),
    ]


def scripted(responses: list):
    """A model that answers with ``responses`` in turn and keeps the requests."""
    requests = []

    def call_model(body):
        requests.append(body)
        return responses[len(requests) - 1]

    return call_model, requests


def test_run_loops_until_the_model_stops_calling():
    final = anthropic_message(
        [{"type": "text", "text": "Tokyo: 22 °C. Atlantis: unknown."}], "end_turn", (40, 9)
    )
    call_model, requests = scripted([CALLS_RESPONSE, final])
    convo = conversation(model="claude-sonnet-4-6")
    response = convo.run(call_model, {"get_weather": get_weather}, provider="anthropic")
    assert response.finish_reason == "stop"
    assert convo.text == "Tokyo: 22 °C. Atlantis: unknown."
    assert (convo.turns, convo.input_tokens, convo.output_tokens, convo.total_tokens) == (
        2,
        50,
        14,
        64,
    )
    assert len(requests) == 2 and requests[1]["messages"][-1] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": '{"temp":22}'},
            {"type": "tool_result", "tool_use_id": "toolu_01B", "content": OK, "is_error": True},
        ],
    }
    assert [m.role for m in convo.messages] == ["system", "user", "assistant", "tool", "assistant"]


def test_arun_with_an_async_model_and_async_tools():
    final = anthropic_message([{"type": "text", "text": "done"}], "end_turn", (40, 9))
    call_model, requests = scripted([CALLS_RESPONSE, final])

    async def acall(body):
        return call_model(body)

    async def aweather(city: str) -> dict:
        return {"city": city}

    convo = conversation(model="claude-sonnet-4-6")
    asyncio.run(convo.arun(acall, {"get_weather": aweather}, provider="anthropic"))
    assert convo.text == "done" and [r.result for r in convo.messages[3].parts] == [
        {"city": "Tokyo"},
        {"city": "Atlantis"},
    ]


def test_the_tools_the_conversation_was_made_with_run_by_default():
    class Tool:
        definition = WEATHER

        def __call__(self, city: str) -> str:
            return f"sunny in {city}"

    final = anthropic_message([{"type": "text", "text": "done"}], "end_turn", (1, 1))
    call_model, _ = scripted([CALLS_RESPONSE, final])
    convo = toolwire.Conversation(tools=[Tool()], model="claude-sonnet-4-6", max_tokens=64)
    convo.user("?")
    convo.run(call_model, provider="anthropic")
    assert [r.result for r in convo.messages[2].parts] == ["sunny in Tokyo", "sunny in Atlantis"]


def test_turn_limit():
    call_model, requests = scripted([CALLS_RESPONSE] * 5)
    convo = conversation(model="claude-sonnet-4-6", max_turns=3)
    with pytest.raises(
        toolwire.TurnLimitError,
        match=r"the model was called 3 times \(max_turns=3\) and the task is not done",
    ):
        convo.run(call_model, [get_weather], provider="anthropic")
    assert len(requests) == 3 and convo.turns == 3
    assert isinstance(toolwire.TurnLimitError("x"), toolwire.AgentLimitError)


def test_token_budget_counts_the_responses_usage():
    call_model, requests = scripted([CALLS_RESPONSE] * 5)  # 10 in + 5 out each
    convo = conversation(model="claude-sonnet-4-6", token_budget=30)
    with pytest.raises(
        toolwire.TokenBudgetError,
        match=r"the responses used 30 tokens \(20 in, 10 out\), token_budget=30",
    ):
        convo.run(call_model, [get_weather], provider="anthropic")
    assert len(requests) == 2


def test_cost_guard_with_prices():
    big = anthropic_message(CALLS_RESPONSE["content"], "tool_use", (100_000, 10_000))
    call_model, requests = scripted([big] * 5)
    # seed 004's guard: Claude Sonnet at $3 / $15 per million tokens, stop at $0.50 (a turn costs $0.45)
    convo = conversation(model="claude-sonnet-4-6", max_cost=0.5, prices=(3.0, 15.0))
    with pytest.raises(
        toolwire.TokenBudgetError,
        match=r"the responses cost 0\.9 \(200000 tokens in, 20000 out\), max_cost=0\.5",
    ):
        convo.run(call_model, [get_weather], provider="anthropic")
    assert len(requests) == 2 and convo.cost == pytest.approx(0.9)
    with pytest.raises(ValueError, match="max_cost needs prices"):
        toolwire.Conversation(max_cost=1.0)


def test_a_response_without_usage_is_reported_when_a_budget_is_set():
    no_usage = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}
        ]
    }
    convo = toolwire.Conversation(token_budget=100)
    with pytest.warns(RuntimeWarning, match="reported no token usage"):
        assert convo.add_response(no_usage, "gemini") == []
    assert convo.text == "hi" and convo.total_tokens == 0


def test_tool_choice_spellings_and_bad_inputs():
    assert toolwire.Conversation(tool_choice="required").tool_choice == ir.ToolChoice(
        mode="required"
    )
    assert toolwire.Conversation(tool_choice="get_weather").tool_choice == ir.ToolChoice(
        mode="tool", name="get_weather"
    )
    with pytest.raises(TypeError, match="tool_choice must be"):
        toolwire.Conversation(tool_choice=3)
    with pytest.raises(TypeError, match="has no definition"):
        toolwire.Conversation(tools=[object()])
    with pytest.raises(TypeError, match="add_results takes"):
        toolwire.Conversation().add_results(ir.Message(role="user", parts=[]))
    with pytest.raises(TypeError, match="needs the provider"):
        toolwire.Conversation().add_response({})


def test_import_toolwire_does_not_load_the_agent():
    code = "import sys, toolwire; assert 'toolwire_runtime.agent' not in sys.modules and 'toolwire_runtime.tool_runner' not in sys.modules; toolwire.Conversation; assert 'toolwire_runtime.agent' in sys.modules; print(toolwire.agent.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "toolwire_runtime.agent\n"


# --- the example, through the official SDK clients -------------------------------------------


TOKENS = {  # (in, out) over the two replayed responses
    "openai_chat": (297, 69),
    "openai_responses": (305, 72),
    "anthropic": (1030, 122),
    "gemini": (223, 49),
    "bedrock_converse": (1010, 121),
}


def test_the_example_runs_against_all_five_sdk_clients():
    for sdk in ("openai", "anthropic", "google.genai", "boto3"):
        pytest.importorskip(sdk)
    example = EXAMPLE
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("error")  # the conversation converts without a loss or a default
        assert example.main([]) == 0
    expected = []
    for provider, (tokens_in, tokens_out) in TOKENS.items():
        tokyo, paris = example.CALLS[provider]
        expected += [
            f"== {provider}: {example.CLIENTS[provider][1]} ==",
            "system: You are a weather assistant. Use the tools.",
            "user: What's the weather in Tokyo and in Paris right now?",
            *(["assistant: I'll check both cities."] if provider == "anthropic" else []),
            f'assistant: -> get_weather({{"city": "Tokyo"}})  [{tokyo}]',
            f'assistant: -> get_weather({{"city": "Paris"}})  [{paris}]',
            f'tool: <- {{"city": "Tokyo", "temp": 22, "condition": "sunny", "unit": "celsius"}}  [{tokyo}]',
            f'tool: <- {{"city": "Paris", "temp": 14, "condition": "light rain", "unit": "celsius"}}  [{paris}]',
            "assistant: Tokyo is sunny at 22 °C; Paris has light rain at 14 °C.",
            f"(2 model calls, {tokens_in} tokens in, {tokens_out} out)",
            f"checked: the calls and their results went back as {provider} expects ({example.results_sent(provider)[0]})",
            "",
        ]
    assert out.getvalue().split("\n")[:-1] == expected


def test_the_example_replay_refuses_results_in_the_wrong_shape():
    example = EXAMPLE
    replay = example.Replay("anthropic")
    replay.serve({"messages": []})
    wrong = {
        "messages": [
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "I'll check both cities."},
                    {
                        "type": "tool_use",
                        "id": "toolu_01A09q90qw90lq917835lq9",
                        "name": "get_weather",
                        "input": {"city": "Tokyo"},
                    },
                    {
                        "type": "tool_use",
                        "id": "toolu_01Bx7nVvKzZq3R8mWcT5pLsd",
                        "name": "get_weather",
                        "input": {"city": "Paris"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01Bx7nVvKzZq3R8mWcT5pLsd",
                        "content": "{}",
                    }
                ],
            },
        ]
    }
    with pytest.raises(AssertionError, match=r"anthropic request 2, messages\[-1\]"):
        replay.serve(wrong)


def test_readme_agent_loop_example():
    from test_readme import test_readme_example_runs_and_prints_what_its_comments_say as check

    check("## Agent loop")
