"""Benchmark: OpenAI Chat → Anthropic and → Gemini, beside the hand-written floor and against
json.loads(json.dumps(payload)), all timed in the same interleaved rounds.

    make bench                                  # ../shared/bench/workload.json + built-in conversations
    make bench ARGS="my_request.json --rounds 15"
    make bench ARGS=--wall                      # wall-clock time instead of CPU time

Every figure is CPU time (``time.process_time``: steadier than wall time on a shared machine;
``--wall`` for ``time.perf_counter``. Under heavy load the two disagree: trust a quiet machine).
Each round times the JSON baseline right before each converter; a converter's ratio is the median
of its per-round ratios to the baseline sample next to it, so load that comes and goes moves both
alike. ``../shared/bench/floor.py`` (hand-written one-pass dict→dict converters, without and with
input checks) is timed beside toolwire when it is there. Also: µs per added message from 24 to 768
messages (flat is the goal), streams (µs per event against ``json.loads`` of each event) and
``import toolwire`` in fresh interpreters. Goals are printed next to the figures; none is enforced:
this is a measurement, not a test.
"""

from __future__ import annotations

import importlib.util
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

ROOT = Path(__file__).resolve().parent.parent
SHARED = next((p for p in (ROOT.parent / "shared" / "bench", Path("/work/shared/bench")) if p.is_dir()), None)
SAMPLE_S = 0.02  # CPU seconds per timed sample (the number of calls is calibrated to it)
GOALS = {"anthropic": 0.6, "gemini": 0.9}  # ratio to the JSON round trip (issue 13)
STREAM_GOAL = 2.0  # stream translation, ratio to json.loads per event (issue 11)
IMPORT_GOAL_MS = 15.0
SIZES = (24, 96, 384, 768)  # messages, for the growth table
TIMER = time.process_time  # --wall: time.perf_counter

TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Current weather and forecast.", "parameters": {
        "type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 7}}, "required": ["location"]}}},
    {"type": "function", "function": {"name": "search_products", "description": "Search the product catalogue.", "parameters": {
        "type": "object", "properties": {"query": {"type": "string"}, "max_price": {"type": "number"}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["query"]}}},
]


def conversation(size: int) -> dict:
    """A realistic agent conversation of ``size`` messages: a system prompt, then rounds of a user
    turn, two parallel calls, a JSON and a text result; the rest are plain user / assistant turns."""
    messages = [{"role": "system", "content": "You are a travel shopping assistant. Use tools when helpful."}]
    for r in range((size - 1) // 4):
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
    while len(messages) < size:  # end on a user turn, as a request does
        user = (size - len(messages)) % 2 == 1
        messages.append({"role": "user", "content": "And the umbrella?"} if user else {"role": "assistant", "content": "Here is what I found."})
    return {"model": "gpt-4.1", "messages": messages, "tools": TOOLS, "tool_choice": "auto"}


def load_floor():
    """``../shared/bench/floor.py`` as a module, or None (with a message) when it is absent."""
    path = SHARED / "floor.py" if SHARED else None
    if path is None or not path.is_file():
        print("(../shared/bench/floor.py not found: the floor converters are not timed)")
        return None
    spec = importlib.util.spec_from_file_location("toolwire_bench_floor", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Job:
    def __init__(self, name: str, fn, goal: float | None = None) -> None:
        self.name, self.fn, self.goal = name, fn, goal
        self.number = 1
        self.samples: list[float] = []  # µs per call
        self.ratios: list[float] = []  # per round, to the baseline sample timed just before


def _sample(fn, number: int) -> float:
    return timeit.Timer(fn, timer=TIMER).timeit(number) / number * 1e6


def _calibrate(job: Job) -> None:
    job.fn()  # warm up (first use imports the provider modules)
    number = 1
    while True:
        spent = _sample(job.fn, number) * number / 1e6
        if spent >= SAMPLE_S / 4 or number >= 1 << 20:
            break
        number *= 4
    job.number = max(1, round(number * SAMPLE_S / max(spent, 1e-9)))


def run_rounds(baseline: Job, jobs: list[Job], rounds: int) -> None:
    """Each round: for every job, a baseline sample then the job's sample (their ratio is one
    figure); the job order rotates between rounds."""
    for job in (baseline, *jobs):
        _calibrate(job)
    for r in range(rounds):
        k = r % len(jobs)
        for job in jobs[k:] + jobs[:k]:
            base = _sample(baseline.fn, baseline.number)
            us = _sample(job.fn, job.number)
            baseline.samples.append(base)
            job.samples.append(us)
            job.ratios.append(us / base)


def _ratio_cell(job: Job) -> str:
    return f"{statistics.median(job.ratios):>7.2f}x"


def _goal_cell(job: Job) -> str:
    if job.goal is None:
        return ""
    met = statistics.median(job.ratios) <= job.goal
    return f"≤ {job.goal:g}x {'met' if met else 'not met'}"


def conversions(name: str, payload: dict, floor, rounds: int) -> dict[str, Job]:
    """Time toolwire and the floor on one OpenAI Chat request body; print the rows."""
    # as a gateway converts: naming the target's model (Gemini's goes in the URL)
    jobs = [
        Job("toolwire → anthropic", lambda: toolwire.convert(payload, source="openai_chat", target="anthropic", model="claude-sonnet-4-5"), GOALS["anthropic"]),
        Job("toolwire → gemini", lambda: toolwire.convert(payload, source="openai_chat", target="gemini"), GOALS["gemini"]),
    ]
    if floor is not None:
        jobs += [
            Job("floor to_anthropic", lambda: floor.to_anthropic(payload)),
            Job("floor to_anthropic_checked", lambda: floor.to_anthropic_checked(payload)),
            Job("floor to_gemini", lambda: floor.to_gemini(payload)),
            Job("floor to_gemini_checked", lambda: floor.to_gemini_checked(payload)),
        ]
    baseline = Job("json.loads(json.dumps(payload))", lambda: json.loads(json.dumps(payload)))
    run_rounds(baseline, jobs, rounds)
    n = len(payload["messages"])
    base = statistics.median(baseline.samples)
    print(f"{name:<22} {n:>5} {'json round trip (baseline)':<28} {base:>9.1f} {min(baseline.samples):>9.1f} {'1.00x':>8}")
    outputs = {job.name: job.fn() for job in jobs}
    for job in jobs:
        note = _goal_cell(job)
        if job.name.startswith("floor"):  # the floor is only a floor if it does the same job
            same = outputs[job.name] == outputs["toolwire → " + ("anthropic" if "anthropic" in job.name else "gemini")]
            note = "same output as toolwire" if same else "output differs from toolwire's"
        print(f"{'':<22} {'':>5} {job.name:<28} {statistics.median(job.samples):>9.1f} {min(job.samples):>9.1f} {_ratio_cell(job):>8}  {note}")
    return {job.name: job for job in jobs} | {"baseline": baseline}


def fused_pairs(payload: dict, rounds: int) -> None:
    """Every fused pair (docs/providers.md, "Fused converters") on the workload: the body is first
    converted into each source's format (with the general path), then timed into each target,
    beside the JSON round trip of that source body and the general path (fused off) in the same
    rounds. A pair whose body leaves the fused shapes shows a ratio near the general path's."""
    from toolwire.fused import PAIRS
    from toolwire_runtime import fused

    def general(fn):
        def run():
            fused.ENABLED = False
            try:
                return fn()
            finally:
                fused.ENABLED = True
        return run

    print(f"{'fused pairs (workload)':<22} {'':>5} {'source → target':<28} {'fused µs':>9} {'general':>9} {'ratio':>8}  general ratio")
    for source in sorted({s for s, _ in PAIRS}):
        body = payload if source == "openai_chat" else toolwire.convert(payload, source="openai_chat", target=source, model="m")
        targets = sorted(t for s, t in PAIRS if s == source)
        jobs = []
        for target in targets:
            fn = lambda t=target: toolwire.convert(body, source=source, target=t, model="m")  # noqa: E731
            jobs += [Job(f"{source} → {target}", fn), Job(f"{source} → {target} (general)", general(fn))]
        baseline = Job("json.loads(json.dumps(body))", lambda: json.loads(json.dumps(body)))
        run_rounds(baseline, jobs, rounds)
        for fast, slow in zip(jobs[::2], jobs[1::2]):
            print(f"{'':<22} {'':>5} {fast.name:<28} {statistics.median(fast.samples):>9.1f} {statistics.median(slow.samples):>9.1f} "
                  f"{_ratio_cell(fast):>8}  {statistics.median(slow.ratios):.2f}x")


def growth(results: dict[int, dict[str, Job]]) -> None:
    """µs per message and per added message between consecutive sizes (medians)."""
    sizes = sorted(results)
    names = [k for k in results[sizes[0]] if k != "baseline"]
    steps = " ".join(f"{f'{a}→{b}':>9}" for a, b in zip(sizes, sizes[1:]))
    print(f"{'µs per added message':<28} {steps}   {'µs/msg at ' + str(sizes[0]):>13} {'at ' + str(sizes[-1]):>8}")
    for name in ["baseline", *names]:
        t = {n: statistics.median(results[n][name].samples) for n in sizes}
        added = " ".join(f"{(t[b] - t[a]) / (b - a):>9.2f}" for a, b in zip(sizes, sizes[1:]))
        label = "json round trip" if name == "baseline" else name
        print(f"{label:<28} {added}   {t[sizes[0]] / sizes[0]:>13.2f} {t[sizes[-1]] / sizes[-1]:>8.2f}")
    print("flat is the goal: the cost of a message must not depend on how many came before it")


def stream_events(n: int, as_sent: bool = False) -> list[dict]:
    """An OpenAI Chat stream of about ``n`` events: text deltas, then three parallel calls whose
    arguments come in small fragments, the finish chunk, the usage chunk and [DONE]. ``as_sent``:
    each chunk as the API sends it (../shared/streams/openai_chat__pydantic-ai__test_complex_agent_run__i0.json):
    with its service tier, fingerprint, null usage and logprobs, and an ``obfuscation`` padding of a
    different length on every chunk (stream_options.include_obfuscation, on by default)."""
    head = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4.1"}
    if as_sent:
        head |= {"service_tier": "default", "system_fingerprint": "fp_07871e2ad8", "usage": None}
    count = iter(range(10**6))
    pad = "3Y6yaTIPlXVF1wZCrV0lEsbu"

    def data(body: dict) -> dict:
        if as_sent:
            i = next(count)
            body["obfuscation"] = pad[i % 7 : i % 7 + 4 + i % 9]
        return {"data": body}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        choice = {"index": 0, "delta": delta, **({"logprobs": None} if as_sent else {}), "finish_reason": finish}
        return data({**head, "choices": [choice]})

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
    usage = {"prompt_tokens": 100, "completion_tokens": 200, "total_tokens": 300}
    if as_sent:
        usage |= {"prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0}, "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}}
    events.append(data({**head, "choices": [], "usage": usage}))
    events.append({"data": "[DONE]"})
    return events


def long_answer_events(n: int) -> list[dict]:
    """An OpenAI Chat stream of a long answer: ``n`` text fragments of 20 characters (the running text
    grows to 20·n characters: a cost per fragment that grows with it shows here)."""
    head = {"id": "chatcmpl-long", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4.1"}
    chunk = lambda delta, finish=None: {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}  # noqa: E731
    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": f"{i:>8} words here. "}) for i in range(n)]
    events.append(chunk({}, "stop"))
    events.append({"data": {**head, "choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": n, "total_tokens": 100 + n}}})
    events.append({"data": "[DONE]"})
    return events


def many_calls_events(calls: int) -> list[dict]:
    """An OpenAI Chat stream of a short text and ``calls`` parallel calls, each opened by its own
    chunk and its arguments in eight fragments (a batch of lookups): its cost per event must not
    grow with the number of calls."""
    head = {"id": "chatcmpl-calls", "object": "chat.completion.chunk", "created": 1700000000, "model": "gpt-4.1"}
    chunk = lambda delta, finish=None: {"data": {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}}  # noqa: E731
    events = [chunk({"role": "assistant", "content": ""}), chunk({"content": "Looking them all up."})]
    for c in range(calls):
        args = json.dumps({"location": f"City {c}", "unit": "celsius", "days": 1 + c % 7})
        size = -(-len(args) // 8)
        events.append(chunk({"tool_calls": [{"index": c, "id": f"call_{c}", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}))
        events += [chunk({"tool_calls": [{"index": c, "function": {"arguments": args[i : i + size]}}]}) for i in range(0, len(args), size)]
    events.append(chunk({}, "tool_calls"))
    events.append({"data": "[DONE]"})
    return events


def gemini_calls_events(calls: int) -> list[dict]:
    """A Gemini stream of ``calls`` whole calls without ids, each in a chunk of its own with the
    usage so far (GenerateContentResponse, as streamGenerateContent sends parallel calls): toolwire
    makes each call's id from its position, and the cost per event must not grow with the calls."""
    head = {"modelVersion": "gemini-2.5-flash", "responseId": "resp-calls"}
    events = []
    for c in range(calls):
        call = {"functionCall": {"name": "get_weather", "args": {"location": f"City {c}", "unit": "celsius", "days": 1 + c % 7}}}
        events.append({"data": {"candidates": [{"content": {"role": "model", "parts": [call]}, "index": 0}],
                                "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 9 * (c + 1), "totalTokenCount": 120 + 9 * (c + 1)}, **head}})
    events.append({"data": {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP", "index": 0}],
                            "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 9 * calls + 1, "totalTokenCount": 121 + 9 * calls}, **head}})
    return events


def _stream_rows(label: str, baseline: Job, jobs: list[Job], m: int) -> None:
    """The rows of one stream: its json.loads baseline, then each job, µs per event of its ``m``."""
    print(f"{label:<22} {'json.loads (baseline)':<28} {statistics.median(baseline.samples) / m:>9.2f} {min(baseline.samples) / m:>9.2f} {'1.00x':>8}")
    for job in jobs:
        print(f"{'':<22} {job.name:<28} {statistics.median(job.samples) / m:>9.2f} {min(job.samples) / m:>9.2f} {_ratio_cell(job):>8}  {_goal_cell(job)}".rstrip())


def cited_answer_events(blocks: int) -> list[dict]:
    """An Anthropic stream of an answer in ``blocks`` text blocks, every other one opened by a
    citation (a web search answer: the shape of ../shared/streams/anthropic__pydantic-ai__test_pause_turn_web_search_streaming_vcr__i1.json,
    its events as the Messages API documents them). Each block opens a new element of the response:
    a cost per block that grows with the answer shows here."""
    events = [{"type": "message_start", "message": {"id": "msg_cited", "type": "message", "role": "assistant", "model": "claude-sonnet-4-20250514", "content": [],
                                                    "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 2050, "output_tokens": 1}}}]
    for k in range(blocks):
        events.append({"type": "content_block_start", "index": k, "content_block": {"type": "text", "text": ""}})
        if k % 2:
            citation = {"type": "web_search_result_location", "cited_text": f"Sentence {k} of the page the answer cites, as the search result has it.",
                        "url": f"https://example.com/news/{k}", "title": f"News {k}", "encrypted_index": "Eo8BCioIBhgCIiQ4ODk4YTFkYy0"}
            events.append({"type": "content_block_delta", "index": k, "delta": {"type": "citations_delta", "citation": citation}})
        events.append({"type": "content_block_delta", "index": k, "delta": {"type": "text_delta", "text": f"Statement {k} of the answer, "}})
        events.append({"type": "content_block_delta", "index": k, "delta": {"type": "text_delta", "text": "which the source supports. "}})
        events.append({"type": "content_block_stop", "index": k})
    events.append({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 30 * blocks}})
    events.append({"type": "message_stop"})
    return events


def streams_of_blocks(blocks: int, rounds: int) -> None:
    """µs per event to translate an answer of ``blocks`` cited text blocks (``cited_answer_events``),
    its layout seen before in the process and not ('cold': the route and layout caches emptied
    before each translation, as for the first long answer of its shape a gateway serves); into
    targets of blocks, of one text field and of joined parts (Gemini: the projection, _folded)."""
    from toolwire import stream
    from toolwire_runtime import translate

    events = cited_answer_events(blocks)
    texts = [json.dumps(e) for e in events]
    baseline = Job("json.loads per event", lambda: [json.loads(t) for t in texts])

    def cold(target: str) -> None:
        # (the caches as they were are put back after: the other rows of the next round stay warm)
        kept = dict(translate._MARKS), dict(translate._STAYS)
        translate._MARKS.clear()
        translate._STAYS.clear()
        try:
            list(stream.convert(events, source="anthropic", target=target))
        finally:
            for cache, was in zip((translate._MARKS, translate._STAYS), kept):
                cache.clear()
                cache.update(was)

    jobs = [Job(f"translate → {t}", lambda t=t: list(stream.convert(events, source="anthropic", target=t)), STREAM_GOAL) for t in ("openai_chat", "anthropic", "gemini")]
    jobs.append(Job("translate → openai_chat, cold", lambda: cold("openai_chat"), STREAM_GOAL))
    run_rounds(baseline, jobs, rounds)
    _stream_rows(f"{blocks} cited blocks, {len(texts)} ev", baseline, jobs, len(texts))


def streams_of_calls(calls: int, rounds: int, source: str = "openai_chat") -> None:
    """µs per event to translate a stream of ``calls`` parallel calls (``many_calls_events``; from
    Gemini, ``gemini_calls_events``: whole calls without ids) into a target of blocks, of indexed
    chunks and of whole calls, against json.loads of its events."""
    from toolwire import stream

    events = gemini_calls_events(calls) if source == "gemini" else many_calls_events(calls)
    texts = [json.dumps(e["data"]) for e in events]
    baseline = Job("json.loads per event", lambda: [json.loads(t) for t in texts])
    jobs = [Job(f"translate → {t}", lambda t=t: list(stream.convert(events, source=source, target=t))) for t in ("anthropic", "openai_chat", "gemini")]
    run_rounds(baseline, jobs, rounds)
    label = f"{calls} Gemini calls, {len(texts)} ev" if source == "gemini" else f"{calls} calls, {len(texts)} ev"
    _stream_rows(label, baseline, jobs, len(texts))


def streams(n: int, rounds: int, long_answer: bool = False, as_sent: bool = False, sdk: bool = False) -> None:
    """µs per event to accumulate / translate a stream, against json.loads of its events (interleaved).
    ``as_sent``: its chunks as the API sends them (stream_events). ``sdk``: those chunks as the
    openai SDK yields them (``ChatCompletionChunk`` objects; the SDK reads [DONE] itself), with the
    SDK's own parsing of each chunk beside them, for scale (skipped without the openai package)."""
    from toolwire import stream

    events = long_answer_events(n) if long_answer else stream_events(n, as_sent or sdk)
    jobs = []
    if sdk:
        try:
            from openai.types.chat import ChatCompletionChunk
        except ImportError:
            print("(the openai package is not installed: the SDK-object stream is not timed)")
            return
        events = [e for e in events if isinstance(e["data"], dict)]  # (no [DONE]: the SDK reads it)
        jobs.append(Job("(the SDK's own parsing)", lambda: [ChatCompletionChunk.model_validate_json(t) for t in texts]))
    texts = [json.dumps(e["data"]) for e in events]
    baseline = Job("json.loads per event", lambda: [json.loads(t) for t in texts])
    if sdk:
        events = [ChatCompletionChunk.model_validate(e["data"]) for e in events]
    jobs.append(Job("accumulate", lambda: stream.accumulate(events, provider="openai_chat")))
    for target in ("anthropic", "openai_chat"):
        # (the goal is for events as parsed JSON; an SDK object's JSON is made first, not parsed)
        jobs.append(Job(f"translate → {target}", lambda target=target: list(stream.convert(events, source="openai_chat", target=target)), None if sdk else STREAM_GOAL))
    run_rounds(baseline, jobs, rounds)
    m = len(texts)
    label = (f"long answer, {m} ev" if long_answer else f"stream, {m} SDK objects" if sdk
             else f"stream, {m} ev as sent" if as_sent else f"stream, {m} events")
    _stream_rows(label, baseline, jobs, m)


def import_time(runs: int = 15) -> None:
    """``import toolwire`` in fresh interpreters, from bytecode caches (a first run writes them, even
    where PYTHONDONTWRITEBYTECODE is set for this shell), without site (-S: an editable install's
    path hook would import pathlib, re, ... first and hide their cost); median wall and CPU time."""
    import toolwire_runtime

    paths = [str(Path(m.__file__).resolve().parent.parent) for m in (toolwire, toolwire_runtime)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": os.pathsep.join(paths)}
    code = "import time; c = time.process_time(); t = time.perf_counter(); import toolwire; print((time.perf_counter() - t) * 1e3, (time.process_time() - c) * 1e3)"
    run = lambda: [float(x) for x in subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, env=env).stdout.split()]  # noqa: E731
    run()
    wall, cpu = zip(*(run() for _ in range(runs)))
    met = "met" if statistics.median(cpu) <= IMPORT_GOAL_MS else "not met"
    print(f"import toolwire: {statistics.median(wall):.1f} ms wall, {statistics.median(cpu):.1f} ms CPU (medians of {runs} fresh interpreters; "
          f"min {min(cpu):.1f} ms CPU)   goal ≤ {IMPORT_GOAL_MS:g} ms {met}")
    print("  breakdown: python -X importtime -c 'import toolwire' (with PYTHONDONTWRITEBYTECODE unset)")


def main(argv: list[str]) -> int:
    global TIMER
    warnings.simplefilter("ignore")  # Gemini has no `model` in the body: reported, not an error
    if "--wall" in argv:
        argv = [a for a in argv if a != "--wall"]
        TIMER = time.perf_counter
    rounds = 9
    if "--rounds" in argv:
        i = argv.index("--rounds")
        rounds = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    floor = load_floor()
    payloads = [Path(a) for a in argv]
    if not payloads and SHARED is not None and (SHARED / "workload.json").is_file():
        payloads = [SHARED / "workload.json"]
    elif not payloads:
        print("(../shared/bench/workload.json not found: only the built-in conversations are timed)")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load} (under load every figure is inflated and noisy, the ratios too: trust a quiet machine)")
    clock = "wall-clock" if TIMER is time.perf_counter else "CPU"
    print(f"{clock} µs per conversion; {rounds} rounds, each timing the JSON baseline right before every converter;")
    print("ratio = median over rounds of (converter / json.loads(json.dumps(payload)) timed next to it)")
    print(f"{'payload':<22} {'msgs':>5} {'converter':<28} {'median µs':>9} {'min µs':>9} {'ratio':>8}  goal")
    for path in payloads:
        conversions(path.name, json.loads(path.read_text(encoding="utf-8")), floor, rounds)
    if payloads:
        print()
        fused_pairs(json.loads(payloads[0].read_text(encoding="utf-8")), max(3, rounds // 3))
    by_size = {n: conversions(f"built-in, {n} msgs", conversation(n), floor, max(3, rounds // (1 + n // 200))) for n in SIZES}
    print()
    growth(by_size)
    print()
    print(f"{'stream':<22} {'':<28} {'µs/event':>9} {'min':>9} {'ratio':>8}  goal")
    streams(200, rounds)  # (the goal's stream: all the rounds)
    streams(200, rounds, as_sent=True)
    streams(200, max(3, rounds // 2), sdk=True)
    for n in (800, 3200):
        streams(n, max(3, rounds // 2))
    streams(20000, 3, long_answer=True)
    for calls in (6, 96):
        streams_of_calls(calls, max(3, rounds // 3))
    for calls in (6, 96):
        streams_of_calls(calls, max(3, rounds // 3), source="gemini")
    for blocks in (20, 80):
        streams_of_blocks(blocks, 3)
    print("stream ratio = µs per event / json.loads of the same event's JSON, interleaved. A fixed cost per stream")
    print("(the syncs: a response conversion when the message starts, a block opens, and at the end) falls per event")
    print("as streams grow; the cost per event must not grow with the length (the long answer: 400 KB of text),")
    print("nor with the number of calls (a call's opening and end convert that call only: 6 and 96 calls alike;")
    print("Gemini's calls have no ids: each takes the one its position gives, as the whole response's conversion makes it).")
    print("Cited blocks: each new text block of an Anthropic answer is a sync (its place in the target is not known")
    print("before) that converts a window, the block before it alone and with it, and splices the change into the body")
    print("(splice.py): 20 and 80 blocks cost alike per event, cold or not; a conversion per block stays above 2x (not met).")
    print("'as sent': each chunk as OpenAI sends it (service tier, fingerprint, null usage and logprobs, and an")
    print("`obfuscation` padding different on every chunk, which nothing reads); the other rows: minimal chunks")
    print()
    import_time()
    import bulk_bench  # bulk JSONL throughput (bench/bulk_bench.py, issue 15)

    print("", *bulk_bench.rows(), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
