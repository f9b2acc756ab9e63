"""The Ray Data engine of toolwire.bulk (``ray_convert``, ``--engine ray``) on a local Ray instance
(2 CPUs), compared with the local engine's output. Skipped when ray is not installed
(``pip install 'toolwire[ray]'``; the ``test`` extra installs it)."""

from __future__ import annotations

import json

import pytest

from toolwire import bulk

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False, configure_logging=False, object_store_memory=100 * 1024 * 1024)
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


def lines(n: int, offset: int = 0) -> bytes:
    out = []
    for i in range(offset, offset + n):
        if i % 11 == 5:
            out.append('{"model": "m", "messages": [{"role": "robot", "content": "x"}]}')
            continue
        out.append(json.dumps({"model": "gpt-4.1", "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": f"weather in city {i}?"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {"name": "get_weather", "arguments": json.dumps({"city": i})}}]},
            {"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps({"temp": i % 30})}],
            "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "integer"}}}}}]}))
    return ("\n".join(out) + "\n").encode()


def test_ray_convert_equals_the_local_engine(local_ray, tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(lines(2000))
    local = bulk.convert_jsonl(src, tmp_path / "local.jsonl", source="openai_chat", target="anthropic", model="claude-sonnet-4-5", workers=1)
    ds = ray.data.read_text(str(src))
    out = bulk.ray_convert(ds, source="openai_chat", target="anthropic", model="claude-sonnet-4-5", batch_size=500)
    rows = out.take_all()
    assert len(rows) == 2000
    texts = [r["text"] for r in rows if r["text"] is not None]
    assert "\n".join(texts) + "\n" == (tmp_path / "local.jsonl").read_text(encoding="utf-8")
    rejects = [json.loads(r["reject"]) for r in rows if r["reject"] is not None]
    local_rejects = [json.loads(x) for x in (tmp_path / "local.rejects.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rejects) == local.rejected == 182
    assert [(r["error"], r["path"], r["original"]) for r in rejects] == [(r["error"], r["path"], r["original"]) for r in local_rejects]
    small = ray.data.from_items([{"text": t} for t in lines(30).decode().splitlines()])
    converted, rejected = bulk.ray_convert(small, source="openai_chat", target="anthropic", model="claude-sonnet-4-5", rejects="dataset")
    assert [r["text"] for r in converted.take_all()] == texts[:27]
    assert [json.loads(r["reject"])["original"] for r in rejected.take_all()] == [r["original"] for r in local_rejects[:3]]


def test_engine_ray_on_a_folder_of_shards(local_ray, tmp_path):
    shards = tmp_path / "in"
    shards.mkdir()
    (shards / "part-0.jsonl").write_bytes(lines(600))
    (shards / "part-1.jsonl").write_bytes(lines(400, offset=600))
    status = bulk.main(["--engine", "ray", "--from", "openai_chat", "--to", "gemini", "-q", str(shards), str(tmp_path / "out")])
    assert status == 1  # some lines were rejected
    for name in ("part-0", "part-1"):
        bulk.convert_jsonl(shards / f"{name}.jsonl", tmp_path / f"{name}.local.jsonl", source="openai_chat", target="gemini", workers=1)
        assert (tmp_path / "out" / f"{name}.jsonl").read_bytes() == (tmp_path / f"{name}.local.jsonl").read_bytes()
        assert (tmp_path / "out" / f"{name}.rejects.jsonl").read_bytes() == (tmp_path / f"{name}.local.rejects.jsonl").read_bytes()
