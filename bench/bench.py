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


def stream_events(n: int) -> list[dict]:
    """An OpenAI Chat stream of about ``n`` events: text deltas, then three parallel calls whose
    arguments come in small fragments, the finish chunk, the usage chunk and [DONE]."""
    head = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4.1"}
    chunk = lambda delta, finish=None: {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}  # noqa: E731
    events = [chunk({"role": "assistant", "content": ""})]
    per_part = max(1, (n - 6) // 4)
    events += [chunk({"content": f"word{i} "}) for i in range(per_part)]
    for c in range(3):
        args = json.dumps({"location": f"City {c} " + "x" * (per_part * 6), "unit": "celsius", "days": 3})
        size = max(1, len(args) // per_part)
        pieces = [args[i : i + size] for i in range(0, len(args), size)]
        events.append(chunk({"tool_calls": [{"index": c, "id": f"call_{c}", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}))
        events += [chunk({"tool_calls": [{"index": c, "function": {"arguments": p}}]}) for p in pieces]
    events.append(chunk({}, "tool_calls"))
    events.append({"data": {**head, "choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": 200, "total_tokens": 300}}})
    events.append({"data": "[DONE]"})
    return events


def measure_stream(n: int) -> list[str]:
    """µs per event to accumulate / translate a stream, against json.loads of its events (same run)."""
    from toolwire import stream

    events = stream_events(n)
    texts = [json.dumps(e["data"]) for e in events]
    baseline = per_call_us(lambda: [json.loads(t) for t in texts]) / len(events)
    rows = []
    jobs = [("accumulate", lambda: stream.accumulate(events, provider="openai_chat"))]
    for target in ("anthropic", "openai_chat"):
        jobs.append((f"translate → {target}", lambda target=target: list(stream.convert(events, source="openai_chat", target=target))))
    for name, job in jobs:
        us = per_call_us(job, min_time=0.2) / len(events)
        rows.append(f"{'stream ' + name:<28} {len(events):>5} {'':<10} {us:>10.2f} {baseline:>10.2f} {us / baseline:>7.2f}x")
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
    print()
    print(f"{'stream':<28} {'events':>5} {'':<10} {'µs/event':>10} {'json µs':>10} {'ratio':>8}")
    for n in (200, 800):
        for row in measure_stream(n):
            print(row)
    print("stream ratio = µs per event / json.loads of the same event's JSON, same run; goal ≤ 2x, flat from 200 to 800 events")
    print()
    print(f"import toolwire: {import_time_ms():.1f} ms (median of 7 fresh interpreters)")
    print("ratio = toolwire.convert time / json.loads(json.dumps(payload)) time, same run; goal ≤ 0.35x on the 24-message workload")
    import bulk_bench  # bulk JSONL throughput (bench/bulk_bench.py, issue 15)
    print("", *bulk_bench.rows(), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
