"""Benchmark: OpenAI Chat → Anthropic and → Gemini, against json.loads(json.dumps(payload)) in the same run.

    make bench                                   # built-in conversation, growing sizes
    make bench ARGS=../shared/bench/workload.json  # also a given OpenAI Chat request body

Reports µs per conversion and the ratio to the JSON round-trip baseline (goal: ≤ 0.35× on the
24-message workload, linear growth), plus the time of `import toolwire` in a fresh interpreter.
No thresholds are enforced: this is a measurement, not a test.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import timeit
import warnings
from pathlib import Path

import toolwire

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Current weather and forecast.", "parameters": {
        "type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 7}}, "required": ["location"]}}},
    {"type": "function", "function": {"name": "search_products", "description": "Search the product catalogue.", "parameters": {
        "type": "object", "properties": {"query": {"type": "string"}, "max_price": {"type": "number"}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["query"]}}},
]


def conversation(rounds: int) -> dict:
    """A realistic agent conversation: per round a user turn, two parallel calls, a JSON and a text result."""
    messages = [{"role": "system", "content": "You are a travel shopping assistant. Use tools when helpful."}]
    for r in range(rounds):
        a, b = f"call_{r}a", f"call_{r}b"
        messages += [
            {"role": "user", "content": f"Round {r}: weather in city {r}, and find me a rain jacket?"},
            {"role": "assistant", "content": "Checking the weather and searching.", "tool_calls": [
                {"id": a, "type": "function", "function": {"name": "get_weather", "arguments": json.dumps({"location": f"City {r}", "unit": "celsius", "days": 3})}},
                {"id": b, "type": "function", "function": {"name": "search_products", "arguments": json.dumps({"query": "rain jacket", "max_price": 60.5, "tags": ["waterproof"]})}},
            ]},
            {"role": "tool", "tool_call_id": a, "content": json.dumps({"temp_c": 11.5, "forecast": [{"day": d, "rain": d % 2 == 0} for d in range(3)]})},
            {"role": "tool", "tool_call_id": b, "content": "Found 2 products: Acme Rain Jacket ($41.99), Globex Lite ($31.49)."},
        ]
    return {"model": "gpt-4.1", "messages": messages, "tools": TOOLS, "tool_choice": "auto", "max_completion_tokens": 1024}


def per_call_us(fn, min_time: float = 0.3) -> float:
    """Best of 5 repeats of the mean time per call, in µs."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    number = max(number, int(number * min_time / 0.2))
    return min(timer.repeat(repeat=5, number=number)) / number * 1e6


def measure(name: str, payload: dict) -> list[str]:
    baseline = per_call_us(lambda: json.loads(json.dumps(payload)))
    rows = []
    # as a gateway converts: naming the target's model (Gemini's goes in the URL)
    for target, model in (("anthropic", "claude-sonnet-4-5"), ("gemini", None)):
        us = per_call_us(lambda: toolwire.convert(payload, source="openai_chat", target=target, model=model))
        rows.append(f"{name:<28} {len(payload['messages']):>5} {target:<10} {us:>10.1f} {baseline:>10.1f} {us / baseline:>7.2f}x")
    return rows


def import_time_ms() -> float:
    # as an installed package imports: from bytecode caches (a first run writes them, even where
    # PYTHONDONTWRITEBYTECODE is set for this shell), not compiling the sources every time
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = "import time; t = time.perf_counter(); import toolwire; print((time.perf_counter() - t) * 1000)"
    run = lambda: float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout)  # noqa: E731
    run()
    return statistics.median(run() for _ in range(7))


def main(argv: list[str]) -> int:
    warnings.simplefilter("ignore")  # Gemini has no `model` in the body: reported, not an error
    print(f"{'payload':<28} {'msgs':>5} {'target':<10} {'µs/conv':>10} {'json µs':>10} {'ratio':>8}")
    for rounds in (1, 4, 16, 64):
        for row in measure(f"built-in ({rounds} rounds)", conversation(rounds)):
            print(row)
    for arg in argv:
        payload = json.loads(Path(arg).read_text(encoding="utf-8"))
        for row in measure(Path(arg).name, payload):
            print(row)
    print(f"import toolwire: {import_time_ms():.1f} ms (median of 7 fresh interpreters)")
    print("ratio = toolwire.convert time / json.loads(json.dumps(payload)) time, same run; goal ≤ 0.35x on the 24-message workload")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
