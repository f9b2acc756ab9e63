"""Bulk throughput (issue 15): toolwire.bulk.convert_jsonl on a 20,000-line file of realistic
conversations generated here, on 1 and 2 worker processes, against a plain ``json.loads`` +
``json.dumps`` pass over the same file in the same run.

    python bench/bulk_bench.py [LINES]      (make bench runs it after the conversion benchmark)

Goal (issue 15): the local engine within 3x of the plain pass per core, near-linear in workers.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Current weather and forecast.", "parameters": {
        "type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "required": ["location"]}}},
    {"type": "function", "function": {"name": "search_products", "description": "Search the product catalogue.", "parameters": {
        "type": "object", "properties": {"query": {"type": "string"}, "max_price": {"type": "number"}}, "required": ["query"]}}},
]


def record(i: int) -> dict:
    """One logged OpenAI Chat request: a system prompt and 1 to 4 rounds of a user turn, two
    parallel calls, a JSON and a text result; the last round ends with the assistant's answer."""
    messages = [{"role": "system", "content": "You are a travel shopping assistant. Use tools when helpful."}]
    for r in range(1 + i % 4):
        a, b = f"call_{i}_{r}a", f"call_{i}_{r}b"
        messages += [
            {"role": "user", "content": f"Round {r}: weather in city {i}, and a rain jacket under {20 + i % 50} dollars?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": a, "type": "function", "function": {"name": "get_weather", "arguments": json.dumps({"location": f"City {i}", "unit": "celsius"})}},
                {"id": b, "type": "function", "function": {"name": "search_products", "arguments": json.dumps({"query": "rain jacket", "max_price": 20 + i % 50})}},
            ]},
            {"role": "tool", "tool_call_id": a, "content": json.dumps({"temp_c": i % 30, "forecast": ["rain", "sun", "clouds"][i % 3]})},
            {"role": "tool", "tool_call_id": b, "content": f"Found 2 products: Acme Rain Jacket (${i % 40 + 9}.99), Globex Lite."},
        ]
    messages.append({"role": "assistant", "content": f"It is {i % 30} °C in City {i}; the Acme Rain Jacket fits your budget."})
    return {"model": "gpt-4.1", "messages": messages, "tools": TOOLS}


def plain_pass(src: str, dst: str) -> float:
    start = time.perf_counter()
    with open(src, "rb") as f, open(dst, "wb") as out:
        for line in f:
            out.write(json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    return time.perf_counter() - start


def rows(lines: int = 20_000) -> list[str]:
    import toolwire

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.jsonl")
        with open(src, "wb") as f:
            for i in range(lines):
                f.write(json.dumps(record(i), separators=(",", ":")).encode() + b"\n")
        size = os.path.getsize(src) / 1e6
        plain = min(plain_pass(src, os.path.join(tmp, "plain.jsonl")) for _ in range(2))
        out.append(f"{'plain json.loads + json.dumps':<34} {'':>7} {lines / plain:>10,.0f} {1.0:>7.2f}x")
        for workers in (1, 2):
            summary = toolwire.bulk.convert_jsonl(src, os.path.join(tmp, f"out{workers}.jsonl"), source="openai_chat",
                                                  target="anthropic", model="claude-sonnet-4-5", workers=workers)
            assert summary.written == lines, summary.format()
            per_core = summary.seconds * workers / plain
            out.append(f"{'convert_jsonl → anthropic':<34} {workers:>7} {lines / summary.seconds:>10,.0f} {per_core:>7.2f}x")
    head = f"bulk: {lines:,} lines ({size:.1f} MB) of OpenAI Chat requests (1-4 rounds of parallel calls)"
    cols = f"{'':<34} {'workers':>7} {'records/s':>10} {'ratio':>8}"
    foot = "ratio = time x workers / plain pass time, same run (per core); goal ≤ 3x, records/s near-linear in workers"
    return [head, cols, *out, foot]


def main(argv: list[str]) -> int:
    for row in rows(int(argv[0]) if argv else 20_000):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
