"""toolwire.bulk: JSONL conversion (docs/bulk.md) and the dataset flavours (spec/datasets/).

Fixtures: tests/datasets/<flavour>.json, records from the providers' fine-tuning documentation
(sources cited in each file).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import bulk

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT / "tests" / "datasets"
WEIGHTED = {"openai_finetune", "mistral_finetune"}  # the flavours with a place for Message.weight


def records(flavour: str) -> list[dict]:
    return json.loads((DATASETS / f"{flavour}.json").read_text(encoding="utf-8"))["records"]


def jsonl(items: list) -> bytes:
    return b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() + b"\n" for r in items)


def read_jsonl(path: Path) -> list:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def test_dataset_flavours_are_not_api_providers():
    assert toolwire.DATASETS == ("bedrock_finetune", "mistral_finetune", "openai_finetune", "vertex_tuning")
    assert not set(toolwire.DATASETS) & set(toolwire.PROVIDERS)
    assert sorted(p.stem for p in DATASETS.glob("*.json")) == sorted(toolwire.DATASETS)


@pytest.mark.parametrize("flavour", ["bedrock_finetune", "mistral_finetune", "openai_finetune", "vertex_tuning"])
def test_same_flavour_gives_every_line_back_byte_for_byte(tmp_path, flavour):
    src = tmp_path / "in.jsonl"
    src.write_bytes(jsonl(records(flavour)))
    summary = bulk.convert_jsonl(src, tmp_path / "out.jsonl", source=flavour, target=flavour, workers=1)
    assert (tmp_path / "out.jsonl").read_bytes() == src.read_bytes()
    n = len(records(flavour))
    assert (summary.read, summary.written, summary.rejected, summary.losses) == (n, n, 0, {})


def essence(req: toolwire.ir.Request, keep_ids: bool = True, keep_weight: bool = True) -> dict:
    """What a training record means: turns, their text, calls and results, the tools."""
    turns = []
    for m in req.messages:
        parts = []
        for p in m.parts:
            if isinstance(p, toolwire.ir.TextPart):
                parts.append(("text", p.text))
            elif isinstance(p, toolwire.ir.ToolCall):
                parts.append(("call", p.id if keep_ids else None, p.name, p.arguments))
            elif isinstance(p, toolwire.ir.ToolResult):
                result = p.result if isinstance(p.result, (dict, list)) else json.loads(p.result) if _is_json(p.result) else p.result
                parts.append(("result", p.tool_call_id if keep_ids else None, p.name, result))
        turns.append((m.role, parts, m.weight if keep_weight else None))
    tools = [(t.name, t.description, _lower_types(t.parameters)) for t in req.tools or []]
    return {"turns": turns, "tools": tools}


def _is_json(text) -> bool:
    try:
        json.loads(text)
    except (TypeError, ValueError):
        return False
    return True


def _lower_types(schema):
    """Vertex tuning records spell JSON Schema types in the OpenAPI subset's capitals (OBJECT)."""
    if isinstance(schema, dict):
        return {k: (v.lower() if k == "type" and isinstance(v, str) else _lower_types(v)) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_lower_types(v) for v in schema]
    return schema


PAIRS = [(a, b) for a in ("bedrock_finetune", "mistral_finetune", "openai_finetune", "vertex_tuning")
         for b in ("bedrock_finetune", "mistral_finetune", "openai_finetune", "vertex_tuning") if a != b]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_dataset_round_trip_a_to_b_to_a(tmp_path, a, b):
    """A → B → A gives A's records back, up to the documented losses: a weight where B has none
    (reported, LossWarning messages[*].weight), call ids where one of them has none (Vertex AI:
    synthesized on the way back, then refitted), ids refitted to Mistral's 9 characters."""
    src = tmp_path / "a.jsonl"
    src.write_bytes(jsonl(records(a)))
    there = bulk.convert_jsonl(src, tmp_path / "b.jsonl", source=a, target=b, workers=1)
    back = bulk.convert_jsonl(tmp_path / "b.jsonl", tmp_path / "a2.jsonl", source=b, target=a, workers=1)
    n = len(records(a))
    assert (there.written, back.written, there.rejected + back.rejected) == (n, n, 0)
    keep_ids = "vertex_tuning" not in (a, b) and "mistral_finetune" not in (a, b)
    keep_weight = a not in WEIGHTED or b in WEIGHTED
    for original, again in zip(records(a), read_jsonl(tmp_path / "a2.jsonl")):
        want = essence(toolwire.to_ir(original, provider=a), keep_ids, keep_weight)
        got = essence(toolwire.to_ir(again, provider=a), keep_ids, keep_weight)
        assert got == want
    weights = [m.get("weight") for r in records(a) for m in r.get("messages", []) if isinstance(m, dict)]
    if any(w is not None for w in weights) and b not in WEIGHTED:
        assert f"LossWarning messages[*].weight" in there.losses, there.losses
    else:
        assert not any(".weight" in k for k in there.losses)


def test_weight_travels_between_the_flavours_that_have_it():
    rec = records("mistral_finetune")[0]
    out = toolwire.convert(rec, source="mistral_finetune", target="openai_finetune")
    assert [m.get("weight") for m in out["messages"]] == [None, None, None, 0, None, None]
    assert "model" not in out
    with pytest.warns(toolwire.LossWarning, match=r"messages\[3\]\.weight: openai_chat has no place for Message.weight"):
        toolwire.convert(out, source="openai_finetune", target="openai_chat", model="gpt-4.1")


def test_a_weight_is_never_lost_silently():
    """Targets merge consecutive turns, flag a final assistant turn or render turns as items: a
    weight is reported all the same wherever there is no place for it (api.py, _without_weights)."""
    rec = {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b", "weight": 0},
                        {"role": "assistant", "content": "c", "weight": 1}]}
    for target in toolwire.PROVIDERS + toolwire.DATASETS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            toolwire.convert(rec, source="openai_finetune", target=target, model="m")
        reported = [str(w.message) for w in caught if "Message.weight" in str(w.message)]
        assert bool(reported) == (target not in WEIGHTED), (target, reported)
    with pytest.raises(toolwire.LossError, match=r"messages\[1\]\.weight"):
        toolwire.convert(rec, source="openai_finetune", target="openai_responses", model="m", strict=True)


def test_bedrock_record_gets_its_schema_version_and_no_inference_config():
    rec = records("openai_finetune")[2]
    with pytest.warns(toolwire.LossWarning) as caught:
        out = toolwire.convert({**rec, "temperature": 0.2}, source="openai_chat", target="bedrock_finetune")
    assert out["schemaVersion"] == "bedrock-conversation-2024" and "inferenceConfig" not in out
    assert any("temperature" in str(w.message) for w in caught)
    with pytest.raises(toolwire.MissingFieldError, match="schemaVersion"):
        toolwire.to_ir({k: v for k, v in records("bedrock_finetune")[0].items() if k != "schemaVersion"}, provider="bedrock_finetune")


# ---------------------------------------------------------------- bad lines, rejects, summary

GOOD = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "Weather in Paris?"}]}


def test_every_kind_of_bad_line_is_rejected_or_reported(tmp_path):
    good = json.dumps(GOOD).encode()
    lines = [
        b"\xef\xbb\xbf" + good,  # 1: BOM at the start of the file
        b"",  # 2: blank
        b"   ",  # 3: blank (spaces)
        b"{not json",  # 4
        b"\xff\xfe" + good,  # 5: not UTF-8
        b'{"model": "m", "messages": [], "temperature": NaN}',  # 6: NaN is not JSON
        b"[1, 2]",  # 7: not an object
        b'{"model": "m", "messages": [{"role": "wizard", "content": "hi"}]}',  # 8: conversion error with a path
        good + b"\r",  # 9: CRLF line ending
        b'{"model": "m", "messages": [{"role": "user", "con',  # 10: truncated last line (no newline)
    ]
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"\n".join(lines[:-1]) + b"\n" + lines[-1])
    out = tmp_path / "out.jsonl"
    summary = bulk.convert_jsonl(src, out, source="openai_chat", target="anthropic", model="claude-sonnet-4-5", workers=1)
    assert (summary.read, summary.written, summary.rejected, summary.blank, summary.bom) == (8, 2, 6, 2, True)
    assert summary.read == summary.written + summary.rejected
    assert summary.errors == {"JSONDecodeError": 2, "TruncatedLineError": 1, "UnicodeDecodeError": 1, "UnknownVariantError": 1, "WrongTypeError": 1}
    assert summary.losses == {"AssumptionWarning max_tokens": 2}
    body = {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Weather in Paris?"}], "max_tokens": 4096}
    assert read_jsonl(out) == [body, body]
    rejects = read_jsonl(tmp_path / "out.rejects.jsonl")
    assert [(r["line"], r["error"], r["path"]) for r in rejects] == [
        (4, "JSONDecodeError", None), (5, "UnicodeDecodeError", None), (6, "JSONDecodeError", None),
        (7, "WrongTypeError", ""), (8, "UnknownVariantError", "messages[0].role"), (10, "TruncatedLineError", None)]
    assert rejects[0]["original"] == "{not json"
    assert rejects[1]["original_base64"] and "original" not in rejects[1]
    assert rejects[2]["message"] == "NaN is not valid JSON"
    assert rejects[5]["original"] == lines[-1].decode()
    assert "1 x UnknownVariantError" in summary.format() and "byte order mark" in summary.format()


def test_strict_turns_losses_into_rejects(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(jsonl([{**GOOD, "temperature": 0.5}, GOOD]))
    summary = bulk.convert_jsonl(src, tmp_path / "out.jsonl", source="openai_chat", target="openai_finetune", strict=True, workers=1)
    # the model goes outside the record (not a loss: an OutsideBodyWarning); the temperature is lost
    assert (summary.written, summary.rejected, summary.errors) == (1, 1, {"LossError": 1})
    assert read_jsonl(tmp_path / "out.rejects.jsonl")[0]["path"] == "temperature"
    lenient = bulk.convert_jsonl(src, tmp_path / "out2.jsonl", source="openai_chat", target="openai_finetune", workers=1)
    assert (lenient.written, lenient.rejected) == (2, 0)
    assert lenient.losses == {"LossWarning temperature": 1, "OutsideBodyWarning model": 2}
    assert not (tmp_path / "out2.rejects.jsonl").exists()  # created only when something is rejected


def many(n: int) -> list:
    """n varied requests, every 7th broken."""
    out = []
    for i in range(n):
        if i % 7 == 3:
            out.append({"model": "m", "messages": [{"role": "robot", "content": str(i)}]})
            continue
        out.append({"model": "gpt-4.1", "messages": [
            {"role": "user", "content": f"question {i} ✓"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {"name": "lookup", "arguments": json.dumps({"n": i})}}]},
            {"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps({"value": i * 2})}]})
    return out


def test_workers_chunks_order_gzip_and_determinism(tmp_path, monkeypatch):
    monkeypatch.setattr(bulk, "CHUNK_LINES", 40)  # several chunks from 400 lines (forked workers see it)
    src = tmp_path / "in.jsonl.gz"
    with gzip.open(src, "wb") as f:
        f.write(jsonl(many(400)))
    one = bulk.convert_jsonl(src, tmp_path / "one.jsonl", source="openai_chat", target="gemini", workers=1)
    two = bulk.convert_jsonl(src, tmp_path / "two.jsonl.gz", source="openai_chat", target="gemini", workers=2)
    again = bulk.convert_jsonl(src, tmp_path / "again.jsonl.gz", source="openai_chat", target="gemini", workers=2)
    assert gzip.decompress((tmp_path / "two.jsonl.gz").read_bytes()) == (tmp_path / "one.jsonl").read_bytes()
    assert (tmp_path / "two.jsonl.gz").read_bytes() == (tmp_path / "again.jsonl.gz").read_bytes()  # byte-identical
    assert gzip.decompress((tmp_path / "two.rejects.jsonl.gz").read_bytes()) == (tmp_path / "one.rejects.jsonl").read_bytes()
    assert one.to_dict() | {"rejects_path": None} == two.to_dict() | {"rejects_path": None}
    assert (one.read, one.written, one.rejected) == (400, 343, 57)
    out = read_jsonl(tmp_path / "one.jsonl")
    assert [c["parts"][0]["text"] for c in (o["contents"][0] for o in out)] == [f"question {i} ✓" for i in range(400) if i % 7 != 3]
    assert [r["line"] for r in read_jsonl(tmp_path / "one.rejects.jsonl")] == [i + 1 for i in range(400) if i % 7 == 3]


def test_resume_continues_after_the_last_complete_line(tmp_path, monkeypatch):
    monkeypatch.setattr(bulk, "CHUNK_LINES", 25)
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"\n" + jsonl(many(200)))  # a blank first line too
    full = bulk.convert_jsonl(src, tmp_path / "full.jsonl", source="openai_chat", target="anthropic", model="claude-sonnet-4-5", workers=1)
    want_out = (tmp_path / "full.jsonl").read_bytes()
    want_rej = (tmp_path / "full.rejects.jsonl").read_bytes()
    # an interrupted run: 100 complete lines and half of the next; rejects of a chunk reach the disk
    # before its output, so the rejects file may run ahead of the output (here to line 130)
    cut = want_out.split(b"\n")
    (tmp_path / "out.jsonl").write_bytes(b"\n".join(cut[:100]) + b"\n" + cut[100][:37])
    rej = [line for line in want_rej.split(b"\n") if line and json.loads(line)["line"] <= 130]
    (tmp_path / "out.rejects.jsonl").write_bytes(b"\n".join(rej) + b"\n" + b'{"line": 13')
    resumed = bulk.convert_jsonl(src, tmp_path / "out.jsonl", source="openai_chat", target="anthropic", model="claude-sonnet-4-5", workers=1, resume=True)
    assert (tmp_path / "out.jsonl").read_bytes() == want_out
    assert (tmp_path / "out.rejects.jsonl").read_bytes() == want_rej
    assert (resumed.read, resumed.written, resumed.rejected, resumed.blank) == (full.read, full.written, full.rejected, full.blank)
    assert resumed.resumed_after_line == 118  # line 1 blank, then 100 written and 17 rejected before the 101st written
    done = bulk.convert_jsonl(src, tmp_path / "out.jsonl", source="openai_chat", target="anthropic", model="claude-sonnet-4-5", workers=1, resume=True)
    assert (done.read, done.written, done.resumed_after_line) == (full.read, full.written, 201)
    assert (tmp_path / "out.jsonl").read_bytes() == want_out
    with pytest.raises(ValueError, match="gzip"):
        (tmp_path / "o.jsonl.gz").write_bytes(b"")
        bulk.convert_jsonl(src, tmp_path / "o.jsonl.gz", source="openai_chat", target="anthropic", resume=True)


def test_progress_only_on_a_terminal_or_when_asked(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(jsonl(many(20)))
    bulk.convert_jsonl(src, tmp_path / "out.jsonl", source="openai_chat", target="gemini", progress=None, workers=1)
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    seen = []
    bulk.convert_jsonl(src, tmp_path / "out.jsonl", source="openai_chat", target="gemini", progress=seen.append, workers=1)
    assert seen and seen[-1].read == 20


def test_main_exit_codes_and_stdin_stdout(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(jsonl(many(10)))
    assert bulk.main(["--from", "openai_chat", "--to", "gemini", "--quiet", str(src), str(tmp_path / "o.jsonl")]) == 1
    assert bulk.main(["--from", "openai_chat", "--to", "nope", "-q", str(src), str(tmp_path / "o.jsonl")]) == 2
    good = jsonl([GOOD, GOOD])
    proc = subprocess.run([sys.executable, "-m", "toolwire_runtime.bulk", "--from", "openai_chat", "--to", "openai_finetune", "-", "-"],
                          input=good, capture_output=True, cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b'{"messages":[{"role":"user","content":"Weather in Paris?"}]}\n' * 2
    assert b"read 2, written 2, rejected 0" in proc.stderr and b"OutsideBodyWarning model: 2 record(s)" in proc.stderr


def test_memory_stays_flat_on_100k_lines(tmp_path):
    """Peak RSS of a process converting 100,000 lines vs one converting 2,000: a sanity bound."""
    line = b'{"model":"m","messages":[{"role":"user","content":"hi"}]}\n'
    code = (
        "import resource, sys, toolwire\n"
        "toolwire.bulk.convert_jsonl(sys.argv[1], sys.argv[2], source='openai_chat', target='openai_chat', workers=2)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    peaks = {}
    for n in (2_000, 100_000):
        src = tmp_path / f"in{n}.jsonl"
        src.write_bytes(line * n)
        proc = subprocess.run([sys.executable, "-c", code, str(src), str(tmp_path / f"out{n}.jsonl")], capture_output=True, text=True, check=True)
        peaks[n] = int(proc.stdout)
        assert (tmp_path / f"out{n}.jsonl").read_bytes() == line * n
    assert peaks[100_000] - peaks[2_000] < 20_000, peaks  # KiB: the 100k file alone is 4.6 MB
