"""The `toolwire` command line, run as a user runs it: in a subprocess (`python -m toolwire` and the
installed console script), its stdout, stderr and exit code checked against the library's own
answers in-process. Payloads are the golden fixtures (tests/fixtures/, sources cited in each file)
and a recorded stream from ../shared/streams (skipped when absent). Subprocesses are few: each
costs an interpreter start.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire import stream
from toolwire_runtime import cli

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
SCRIPT = Path(sys.executable).parent / "toolwire"  # the console script pip installed beside python
STREAMS = Path(__file__).resolve().parents[2] / "shared" / "streams"
if not STREAMS.is_dir():
    STREAMS = Path("/work/shared/streams")


def run(*args: str, stdin: bytes | str = b"", script: bool = False) -> subprocess.CompletedProcess:
    command = [str(SCRIPT)] if script else [sys.executable, "-m", "toolwire"]
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([*command, *args], input=data, capture_output=True, timeout=60, cwd=ROOT)


def fixture(scenario: str, provider: str) -> dict:
    return json.loads((FIXTURES / scenario / f"{provider}.json").read_text(encoding="utf-8"))


def recorded(fn, *args, **kw):
    """The library's answer in-process, and its warnings as the CLI prints them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kw)
    lines = [f"{w.category.__name__}: {' '.join(str(w.message).split())}" for w in caught
             if issubclass(w.category, toolwire.ConversionWarning)]
    return out, lines


def test_convert_a_file_prints_the_body_and_each_warning_on_one_line(tmp_path: Path) -> None:
    payload = fixture("get_weather", "openai_chat")["request"]
    want, lines = recorded(toolwire.convert, payload, source="openai_chat", target="gemini")
    assert lines  # at least the model, which goes in Gemini's URL
    file = tmp_path / "request.json"
    file.write_text(json.dumps(payload), encoding="utf-8")
    proc = run("convert", "--from", "openai_chat", "--to", "gemini", "--indent", "1", str(file))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == json.dumps(want, ensure_ascii=False, indent=1) + "\n"
    assert proc.stderr.decode().splitlines() == lines


def test_convert_a_response_from_stdin_with_the_installed_script() -> None:
    body = fixture("parallel_calls", "gemini")["response"]
    want, lines = recorded(toolwire.convert, body, source="gemini", target="anthropic", kind="response")
    proc = run("convert", "--from", "gemini", "--to", "anthropic", "--kind", "response", "--compact", "-",
               stdin=json.dumps(body), script=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == json.dumps(want, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert proc.stderr.decode().splitlines() == lines


def test_a_loss_in_strict_mode_exits_3_with_the_path_and_message() -> None:
    request = fixture("get_weather", "openai_chat")["request"]
    request = {**request, "tools": [{**t, "function": {**t["function"], "strict": True}} for t in request["tools"]]}
    with pytest.raises(toolwire.LossError) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            toolwire.convert(request, source="openai_chat", target="gemini", strict=True)
    assert info.value.path == "tools[0].strict"
    proc = run("convert", "--from", "openai_chat", "--to", "gemini", "--strict", stdin=json.dumps(request))
    assert proc.returncode == cli.STRICT_LOSS == 3
    assert proc.stdout == b""
    assert proc.stderr.decode().splitlines()[-1] == f"toolwire: error: LossError: {info.value}"


def test_bad_json_exits_1() -> None:
    proc = run("convert", "--from", "openai_chat", "--to", "gemini", stdin='{"messages": [')
    assert proc.returncode == cli.BAD_INPUT == 1
    assert proc.stderr.decode() == "toolwire: error: invalid JSON in stdin: line 1 column 15: Expecting value\n"


def test_a_conversion_error_prints_its_json_path_and_exits_1() -> None:
    request = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"},
                                                {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": 7, "arguments": "{}"}}]}]}
    with pytest.raises(toolwire.ConversionError) as info:
        toolwire.convert(request, source="openai_chat", target="anthropic")
    assert info.value.path == "messages[1].tool_calls[0].function.name"
    proc = run("convert", "--from", "openai_chat", "--to", "anthropic", stdin=json.dumps(request))
    assert proc.returncode == 1
    assert proc.stderr.decode() == f"toolwire: error: {type(info.value).__name__}: {info.value}\n"


def test_an_unknown_provider_is_a_usage_error_with_the_registry_hint() -> None:
    proc = run("convert", "--from", "openai_chat", "--to", "gemeni", stdin="{}")
    assert proc.returncode == cli.USAGE == 2
    assert "argument --to: unknown provider 'gemeni'; did you mean 'gemini' or 'gemini_openapi'?" in proc.stderr.decode()


def test_providers_lists_every_provider_and_shows_one_in_full() -> None:
    import importlib

    proc = run("providers")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    for name in toolwire.PROVIDERS:
        module = importlib.import_module(toolwire._MODULES[name])
        assert any(line.startswith(f"{name} ") and line.endswith(module.TITLE) for line in text.splitlines()), name
        whats = "; ".join(what for what, _why in module.CANNOT_EXPRESS)
        assert f"cannot express: {' '.join(whats.split())}" in " ".join(text.split()), name

    proc = run("providers", "bedrock_converse", script=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == cli.describe("bedrock_converse")
    module = importlib.import_module("toolwire.providers.bedrock_converse")
    text = proc.stdout.decode()
    assert text.startswith("bedrock_converse: AWS Bedrock Converse")
    assert "  stream framing: aws_eventstream\n" in text
    assert all(url in text for url in module.DOCS)
    assert all(f"- {' '.join(what.split())[:60]}" in " ".join(text.split()) for what, _why in module.CANNOT_EXPRESS)
    assert all(f"{label}:" in text for label, _value in module.FEATURES)


def _recorded_stream(name: str) -> dict:
    path = STREAMS / f"{name}.json"
    if not path.is_file():
        pytest.skip("../shared/streams is absent")
    return json.loads(path.read_text(encoding="utf-8"))


def test_stream_translates_a_recorded_stream_as_the_library_does() -> None:
    doc = _recorded_stream("anthropic__ai__anthropic-json-tool.1")  # recorded from the Anthropic API (vercel/ai)
    body = b"".join(stream.write(doc["events"], provider="anthropic"))
    events, lines = recorded(lambda: list(stream.convert(stream.parse(body, provider="anthropic"), source="anthropic", target="openai_chat")))
    want = b"".join(stream.write(events, provider="openai_chat"))
    proc = run("stream", "--from", "anthropic", "--to", "openai_chat", stdin=body)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == want
    assert proc.stderr.decode().splitlines() == lines
    accumulated = stream.accumulate(stream.parse(body, provider="anthropic"), provider="anthropic", as_provider=True)
    proc = run("accumulate", "--provider", "anthropic", "--compact", stdin=body)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == accumulated


def test_stream_writes_each_event_as_it_arrives() -> None:
    doc = _recorded_stream("anthropic__ai__anthropic-json-tool.1")
    chunks = [b"".join(stream.write([event], provider="anthropic")) for event in doc["events"]]
    fed = []

    def feeding():
        for chunk in chunks:
            fed.append(chunk)
            yield chunk

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = next(iter(stream.translate(feeding(), source="anthropic", target="openai_chat")))
    assert len(fed) < len(chunks)  # the library has its first chunk out before the stream ends
    proc = subprocess.Popen([sys.executable, "-m", "toolwire", "stream", "--from", "anthropic", "--to", "openai_chat"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        proc.stdin.write(b"".join(fed))  # what the library needed, and no more: the CLI must not wait
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no output before the rest of the stream"
        assert os.read(proc.stdout.fileno(), len(first)) == first
        proc.stdin.write(b"".join(chunks[len(fed):]))
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
        assert proc.stdout.read().rstrip().endswith(b"data: [DONE]")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()


def test_help_texts_give_examples_and_the_exit_codes() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    text = proc.stdout.decode()
    assert text.startswith("usage: toolwire [-h] COMMAND ...")
    assert cli.EXIT_CODES in text
    for command in ("convert", "providers", "stream", "accumulate", "convert-jsonl"):
        assert f"    {command}" in text
    parser = cli.build_parser()
    helps = {name: sub.format_help() for name, sub in parser._subparsers._group_actions[0].choices.items()}
    for name in ("convert", "stream", "accumulate"):
        assert f"examples:\n  toolwire {name} " in helps[name] or f"examples:\n  curl -N" in helps[name], name
        assert cli.EXIT_CODES in helps[name]
    assert "  toolwire providers gemini " in helps["providers"]
    assert "--tool-names A,B" in helps["convert"] and "--indent N | --compact" in helps["convert"]


def test_convert_jsonl_hands_every_argument_to_the_bulk_converter(monkeypatch) -> None:
    from toolwire_runtime import bulk

    seen = []
    monkeypatch.setattr(bulk, "main", lambda argv: seen.append(argv) or 5)
    assert cli.main(["convert-jsonl", "--from", "a", "-x", "in.jsonl", "--help"]) == 5
    assert seen == [["--from", "a", "-x", "in.jsonl", "--help"]]


def test_the_readme_session_prints_what_it_shows(tmp_path: Path) -> None:
    """README.md "Command line": each `$ toolwire ...` prints the lines under it (stderr, then stdout,
    as a terminal shows them: the warnings come before the body is written), `echo $?` its exit code."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text[text.index("## Command line"):].split("```sh\n", 1)[1].split("```", 1)[0]
    steps = []  # (command line, the lines under it)
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    assert steps[0][0] == "cat request.json"
    (tmp_path / "request.json").write_text("\n".join(steps[0][1]) + "\n", encoding="utf-8")
    code = None
    for command, shown in steps[1:]:
        if command == "echo $?":
            assert shown == [str(code)]
            continue
        args = command.split()
        assert args[0] == "toolwire"
        proc = subprocess.run([str(SCRIPT), *args[1:]], capture_output=True, cwd=tmp_path, timeout=60)
        code = proc.returncode
        assert proc.stderr.decode().splitlines() + proc.stdout.decode().splitlines() == shown, command
