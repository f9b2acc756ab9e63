"""One agent loop, five providers: the weather agent of design seed 004, through official SDK clients.

The same ``toolwire.Conversation`` drives OpenAI Chat Completions, OpenAI Responses, Anthropic
Messages, Gemini and Bedrock Converse. Each turn it renders the request for the provider, the
provider's official SDK client sends it, and the response comes back into the IR; the model's
parallel calls run concurrently with ``toolwire.run_tool_calls``.

Nothing leaves the machine and no key is needed: each client's HTTP layer is replaced by a local
replay (``httpx.MockTransport`` for openai / anthropic / google-genai, a botocore ``before-send``
hook for boto3) that serves two responses in the provider's documented shape — first two
parallel ``get_weather`` calls, then the final answer — and checks the second request it
receives: the calls went back as the provider's assistant turn and their results in the
provider's own shape, under the ids the provider gave them.

    python examples/agent_loop.py                 # every provider
    python examples/agent_loop.py gemini anthropic

Needs the SDKs: ``pip install openai anthropic google-genai boto3`` (the ``test`` extra has them).
Response shapes follow the API references: platform.openai.com/docs/api-reference/chat/object and
/responses/object, docs.anthropic.com/en/api/messages, ai.google.dev/api/generate-content
(GenerateContentResponse), docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import toolwire
from toolwire import ir

QUESTION = "What's the weather in Tokyo and in Paris right now?"
ANSWER = "Tokyo is sunny at 22 °C; Paris has light rain at 14 °C."

WEATHER = ir.ToolDefinition(
    name="get_weather",
    description="Get the current weather for a city",
    parameters={
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name, e.g. Tokyo"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        },
        "required": ["city"],
    },
)

CITIES = {
    "Tokyo": {"temp": 22, "condition": "sunny"},
    "Paris": {"temp": 14, "condition": "light rain"},
}


def get_weather(city: str, unit: str = "celsius") -> dict:
    """The tool (a real agent would call a weather API here)."""
    return {"city": city, **CITIES[city], "unit": unit}


# --- the replayed responses, in each provider's documented shape -----------------------------

CALLS = {  # the ids each provider gives its two parallel calls
    "openai_chat": ("call_4W1uWkMQzQ5EbrCkB8Xlb2Fq", "call_j7mZ3hTqR0yVxK2sNp9dLc4E"),
    "openai_responses": ("call_Qm3Ge2kV8hWn5PbT1xRa7sLd", "call_Zt6Yc0uJ4oFi9MwE2qHn8gKb"),
    "anthropic": ("toolu_01A09q90qw90lq917835lq9", "toolu_01Bx7nVvKzZq3R8mWcT5pLsd"),
    "gemini": ("fc-tokyo-8c1f", "fc-paris-2b7e"),
    "bedrock_converse": ("tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "tooluse_u4Hc3tRd8sQ1vX9nB2mLwA"),
}
MODELS = {
    "openai_chat": "gpt-4.1",
    "openai_responses": "gpt-4.1",
    "anthropic": "claude-sonnet-4-6",
    "gemini": "gemini-2.5-flash",
    "bedrock_converse": "anthropic.claude-sonnet-4-5-20250929-v1:0",
}
IN_BODY = {"openai_chat", "openai_responses", "anthropic"}  # the others take the model in the URL


def httpx() -> Any:
    """The SDKs' HTTP client library: httpx2 for the current openai / anthropic / google-genai, httpx before."""
    try:
        import httpx2

        return httpx2
    except ImportError:  # pragma: no cover
        import httpx

        return httpx


def anthropic_message(content: list, stop: str, usage: tuple) -> dict:
    """An Anthropic Messages response (docs.anthropic.com/en/api/messages; anthropic.types.Message)."""
    return {
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


def responses(provider: str) -> list[dict]:
    """First the two parallel calls, then the answer: what the provider's API returns."""
    tokyo, paris = CALLS[provider]
    args = [{"city": "Tokyo"}, {"city": "Paris"}]
    if provider == "openai_chat":

        def completion(message: dict, finish: str, usage: tuple) -> dict:
            return {
                "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
                "object": "chat.completion",
                "created": 1741570283,
                "model": "gpt-4.1-2025-04-14",
                "choices": [
                    {
                        "index": 0,
                        "message": {
                            "role": "assistant",
                            "refusal": None,
                            "annotations": [],
                            **message,
                        },
                        "logprobs": None,
                        "finish_reason": finish,
                    }
                ],
                "usage": {
                    "prompt_tokens": usage[0],
                    "completion_tokens": usage[1],
                    "total_tokens": sum(usage),
                },
                "service_tier": "default",
                "system_fingerprint": None,
            }

        calls = [
            {
                "id": i,
                "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps(a)},
            }
            for i, a in zip((tokyo, paris), args)
        ]
        return [
            completion({"content": None, "tool_calls": calls}, "tool_calls", (92, 48)),
            completion({"content": ANSWER}, "stop", (205, 21)),
        ]
    if provider == "openai_responses":

        def response(output: list, usage: tuple) -> dict:
            return {
                "id": "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
                "object": "response",
                "created_at": 1741476542,
                "status": "completed",
                "error": None,
                "incomplete_details": None,
                "model": "gpt-4.1-2025-04-14",
                "output": output,
                "parallel_tool_calls": True,
                "tool_choice": "auto",
                "tools": [],
                "temperature": 1.0,
                "top_p": 1.0,
                "usage": {
                    "input_tokens": usage[0],
                    "input_tokens_details": {"cached_tokens": 0},
                    "output_tokens": usage[1],
                    "output_tokens_details": {"reasoning_tokens": 0},
                    "total_tokens": sum(usage),
                },
            }

        calls = [
            {
                "type": "function_call",
                "id": f"fc_{n}7ccd2c0a5c8819088ef3a8b35dd8b41",
                "call_id": i,
                "name": "get_weather",
                "arguments": json.dumps(a),
                "status": "completed",
            }
            for n, i, a in zip((6, 7), (tokyo, paris), args)
        ]
        text = {
            "type": "message",
            "id": "msg_67ccd2c2f08c8190a4f2b8a1e8a3c56e",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": ANSWER, "annotations": []}],
        }
        return [response(calls, (95, 50)), response([text], (210, 22))]
    if provider == "anthropic":
        calls = [
            {"type": "tool_use", "id": i, "name": "get_weather", "input": a}
            for i, a in zip((tokyo, paris), args)
        ]
        return [
            anthropic_message(
                [{"type": "text", "text": "I'll check both cities."}, *calls], "tool_use", (420, 98)
            ),
            anthropic_message([{"type": "text", "text": ANSWER}], "end_turn", (610, 24)),
        ]
    if provider == "gemini":

        def generated(parts: list, usage: tuple) -> dict:
            return {
                "candidates": [
                    {
                        "content": {"role": "model", "parts": parts},
                        "finishReason": "STOP",
                        "index": 0,
                    }
                ],
                "usageMetadata": {
                    "promptTokenCount": usage[0],
                    "candidatesTokenCount": usage[1],
                    "totalTokenCount": sum(usage),
                },
                "modelVersion": "gemini-2.5-flash",
                "responseId": "mPfZaJ7lKqGf1dkP9tqF2Q4",
            }

        calls = [
            {"functionCall": {"id": i, "name": "get_weather", "args": a}}
            for i, a in zip((tokyo, paris), args)
        ]
        calls[0][
            "thoughtSignature"
        ] = "CiQB0e2Kb7VxoA8Zq1Tk3wYd"  # Gemini signs the first call of a step: it must come back
        return [generated(calls, (71, 30)), generated([{"text": ANSWER}], (152, 19))]
    if provider == "bedrock_converse":

        def converse(content: list, stop: str, usage: tuple) -> dict:
            return {
                "output": {"message": {"role": "assistant", "content": content}},
                "stopReason": stop,
                "usage": {
                    "inputTokens": usage[0],
                    "outputTokens": usage[1],
                    "totalTokens": sum(usage),
                },
                "metrics": {"latencyMs": 1022},
            }

        calls = [
            {"toolUse": {"toolUseId": i, "name": "get_weather", "input": a}}
            for i, a in zip((tokyo, paris), args)
        ]
        return [
            converse(calls, "tool_use", (412, 96)),
            converse([{"text": ANSWER}], "end_turn", (598, 25)),
        ]
    raise ValueError(f"no replay for {provider!r}")


# --- what the second request must carry ---------------------------------------------------------


def results_sent(provider: str) -> tuple[str, Any]:
    """Where the second request carries the calls and their results, and what must be there."""
    tokyo, paris = CALLS[provider]
    out = {i: get_weather(c) for i, c in zip((tokyo, paris), CITIES)}
    text = {i: json.dumps(v, separators=(",", ":"), ensure_ascii=False) for i, v in out.items()}
    if (
        provider == "openai_chat"
    ):  # the assistant message's tool_calls, then a `tool` message per call
        return "messages[-2:]", [
            {"role": "tool", "tool_call_id": i, "content": text[i]} for i in (tokyo, paris)
        ]
    if provider == "openai_responses":  # a function_call_output item per call, by call_id
        return "input[-2:]", [
            {"type": "function_call_output", "call_id": i, "output": text[i]}
            for i in (tokyo, paris)
        ]
    if provider == "anthropic":  # one user message of tool_result blocks, by tool_use_id
        return "messages[-1]", {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": i, "content": text[i]}
                for i in (tokyo, paris)
            ],
        }
    if provider == "gemini":  # one user content of functionResponse parts, by id and name
        return "contents[-1]", {
            "role": "user",
            "parts": [
                {"functionResponse": {"id": i, "name": "get_weather", "response": out[i]}}
                for i in (tokyo, paris)
            ],
        }
    if provider == "bedrock_converse":  # one user message of toolResult blocks, by toolUseId
        return "messages[-1]", {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": i, "content": [{"json": out[i]}]}}
                for i in (tokyo, paris)
            ],
        }
    raise ValueError(provider)


def calls_sent(provider: str) -> tuple[str, Any]:
    """Where the second request carries the model's own calls back, and what must be there."""
    tokyo, paris = CALLS[provider]
    args = ['{"city": "Tokyo"}', '{"city": "Paris"}']
    if provider == "openai_chat":
        return "messages[-3].tool_calls", [
            {"id": i, "type": "function", "function": {"name": "get_weather", "arguments": a}}
            for i, a in zip((tokyo, paris), args)
        ]
    if provider == "openai_responses":
        return "input[-4:-2]", [
            {
                "type": "function_call",
                "id": f"fc_{n}7ccd2c0a5c8819088ef3a8b35dd8b41",
                "call_id": i,
                "name": "get_weather",
                "arguments": a,
                "status": "completed",
            }
            for n, i, a in zip((6, 7), (tokyo, paris), args)
        ]
    if provider == "anthropic":
        return "messages[-2].content", [{"type": "text", "text": "I'll check both cities."}] + [
            {"type": "tool_use", "id": i, "name": "get_weather", "input": json.loads(a)}
            for i, a in zip((tokyo, paris), args)
        ]
    if provider == "gemini":
        return "contents[-2].parts", [
            {
                "functionCall": {"id": tokyo, "name": "get_weather", "args": {"city": "Tokyo"}},
                "thoughtSignature": "CiQB0e2Kb7VxoA8Zq1Tk3wYd",
            },
            {"functionCall": {"id": paris, "name": "get_weather", "args": {"city": "Paris"}}},
        ]
    if provider == "bedrock_converse":
        return "messages[-2].content", [
            {"toolUse": {"toolUseId": i, "name": "get_weather", "input": json.loads(a)}}
            for i, a in zip((tokyo, paris), args)
        ]
    raise ValueError(provider)


def pick(body: dict, where: str) -> Any:
    """``body`` at a path like ``messages[-3].tool_calls`` or ``input[-4:-2]``."""
    node: Any = body
    for step in where.split("."):
        key, _, index = step.partition("[")
        node = node[key]
        if index:
            index = index.rstrip("]")
            if ":" in index:
                start, stop = (int(x) if x else None for x in index.split(":"))
                node = node[start:stop]
            else:
                node = node[int(index)]
    return node


class Replay:
    """Serves a provider's responses in order, keeps the request bodies it receives, and checks
    that the second one carries the calls and their results as that provider expects them."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.responses = responses(provider)
        self.requests: list[dict] = []

    def serve(self, body: dict) -> dict:
        self.requests.append(body)
        if len(self.requests) == 2:
            for where, expected in (calls_sent(self.provider), results_sent(self.provider)):
                got = pick(body, where)
                if got != expected:
                    raise AssertionError(
                        f"{self.provider} request 2, {where}:\n  got      {got}\n  expected {expected}"
                    )
        return self.responses[len(self.requests) - 1]

    def transport(self, path: str) -> Any:
        """An httpx transport answering POSTs to ``path`` (what the SDK's HTTP client would send)."""

        def handle(request: Any) -> Any:
            if request.method != "POST" or not request.url.path.endswith(path):
                raise AssertionError(f"unexpected {request.method} {request.url}")
            return httpx().Response(200, json=self.serve(json.loads(request.content)))

        return httpx().MockTransport(handle)


# --- the official clients, each wired to its replay ------------------------------------------------


def dump(obj: Any) -> dict:
    """An SDK response object as the provider's JSON body."""
    return obj.model_dump(mode="json", by_alias=True, exclude_none=True)


def openai_chat(replay: Replay, model: str) -> Callable[[dict], dict]:
    from openai import OpenAI

    client = OpenAI(
        api_key="sk-replay",
        max_retries=0,
        http_client=httpx().Client(transport=replay.transport("/chat/completions")),
    )
    return lambda body: dump(client.chat.completions.create(**body))


def openai_responses(replay: Replay, model: str) -> Callable[[dict], dict]:
    from openai import OpenAI

    client = OpenAI(
        api_key="sk-replay",
        max_retries=0,
        http_client=httpx().Client(transport=replay.transport("/responses")),
    )
    return lambda body: dump(client.responses.create(**body))


def anthropic(replay: Replay, model: str) -> Callable[[dict], dict]:
    import anthropic

    client = anthropic.Anthropic(
        api_key="sk-ant-replay",
        max_retries=0,
        http_client=httpx().Client(transport=replay.transport("/v1/messages")),
    )
    return lambda body: dump(client.messages.create(**body))


def gemini(replay: Replay, model: str) -> Callable[[dict], dict]:
    from google import genai
    from google.genai import types

    transport = replay.transport(f"/models/{model}:generateContent")
    client = genai.Client(
        api_key="replay-key",
        http_options=types.HttpOptions(httpx_client=httpx().Client(transport=transport)),
    )

    def call(body: dict) -> dict:
        # the REST body's parts as the SDK takes them: contents, and the rest in the config
        config = {
            "system_instruction": body.get("systemInstruction"),
            "tools": body.get("tools"),
            "tool_config": body.get("toolConfig"),
            **body.get("generationConfig", {}),
        }
        response = client.models.generate_content(
            model=model,
            contents=body["contents"],
            config={k: v for k, v in config.items() if v is not None},
        )
        return response.model_dump(
            mode="json",
            by_alias=True,
            exclude_none=True,
            # the SDK's own additions (HTTP headers, its automatic function calling), not the API's
            exclude={"sdk_http_response", "automatic_function_calling_history"},
        )

    return call


def bedrock_converse(replay: Replay, model: str) -> Callable[[dict], dict]:
    import boto3
    from botocore.awsrequest import AWSResponse

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="AKIDREPLAY",
        aws_secret_access_key="replay-secret",
    )

    class Body:  # what botocore reads a response body from
        def __init__(self, data: bytes) -> None:
            self.data = data

        def stream(self, **_: Any):
            yield self.data

    def send(request: Any, **_: Any) -> AWSResponse:  # botocore's last step before the network
        if not request.url.endswith(f"/model/{model.replace(':', '%3A')}/converse"):
            raise AssertionError(f"unexpected {request.method} {request.url}")
        data = json.dumps(replay.serve(json.loads(request.body))).encode()
        return AWSResponse(request.url, 200, {"content-type": "application/json"}, Body(data))

    client.meta.events.register("before-send.bedrock-runtime.Converse", send)

    def call(body: dict) -> dict:
        response = client.converse(modelId=model, **body)
        response.pop("ResponseMetadata", None)
        return response

    return call


CLIENTS = {
    "openai_chat": (openai_chat, "openai.OpenAI().chat.completions.create"),
    "openai_responses": (openai_responses, "openai.OpenAI().responses.create"),
    "anthropic": (anthropic, "anthropic.Anthropic().messages.create"),
    "gemini": (gemini, "google.genai.Client().models.generate_content"),
    "bedrock_converse": (bedrock_converse, 'boto3.client("bedrock-runtime").converse'),
}


# --- the agent ---------------------------------------------------------------------------------


def run(provider: str) -> tuple[toolwire.Conversation, Replay]:
    """The agent loop of seed 004 against ``provider``: the conversation and the replay it talked to."""
    model = MODELS[provider]
    replay = Replay(provider)
    make_client, _ = CLIENTS[provider]
    call_model = make_client(replay, model)
    convo = toolwire.Conversation(
        system="You are a weather assistant. Use the tools.",
        tools=[WEATHER],
        model=model if provider in IN_BODY else None,
        max_tokens=1024,
        max_turns=5,  # seed 004: always bound the loop
        token_budget=20_000,  # and what it may spend
    )
    convo.user(QUESTION)
    convo.run(call_model, {"get_weather": get_weather}, provider=provider, timeout=10)
    if len(replay.requests) != 2:
        raise AssertionError(f"{provider}: {len(replay.requests)} requests, expected 2")
    return convo, replay


def transcript(convo: toolwire.Conversation) -> list[str]:
    """The conversation, provider-neutral."""
    lines = []
    for message in convo.messages:
        for part in message.parts:
            if isinstance(part, ir.TextPart):
                lines.append(f"{message.role}: {part.text}")
            elif isinstance(part, ir.ToolCall):
                lines.append(
                    f"{message.role}: -> {part.name}({json.dumps(part.arguments, ensure_ascii=False)})  [{part.id}]"
                )
            elif isinstance(part, ir.ToolResult):
                flag = " (error)" if part.is_error else ""
                lines.append(
                    f"{message.role}: <- {json.dumps(part.result, ensure_ascii=False)}{flag}  [{part.tool_call_id}]"
                )
    lines.append(
        f"({convo.turns} model calls, {convo.input_tokens} tokens in, {convo.output_tokens} out)"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    providers = (sys.argv[1:] if argv is None else argv) or list(CLIENTS)
    for provider in providers:
        convo, replay = run(provider)
        print(f"== {provider}: {CLIENTS[provider][1]} ==")
        for line in transcript(convo):
            print(line)
        print(
            f"checked: the calls and their results went back as {provider} expects ({results_sent(provider)[0]})"
        )
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
