"""Bulk conversion of JSONL files: datasets, logged traffic, evaluation sets (``toolwire.bulk``).

    summary = toolwire.bulk.convert_jsonl("train.jsonl", "train.vertex.jsonl",
                                          source="openai_finetune", target="vertex_tuning")
    toolwire convert-jsonl --from openai_finetune --to vertex_tuning train.jsonl out.jsonl.gz

One record per line, converted with ``toolwire.convert``. The local engine uses the standard
library only: it streams line by line (memory stays flat however large the file), converts chunks
of lines in worker processes and writes them in input order; a line that fails goes to the rejects
file with its line number, error class, message, JSON path and the original line verbatim; the
losses reported are counted per kind. ``read == written + rejected`` always. The Ray Data engine
(``ray_convert``, ``--engine ray``) runs the same per-line conversion on a Ray cluster.
docs/bulk.md has the details.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import io
import json
import os
import re
import sys
import time
import warnings
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

__all__ = ["Summary", "convert_jsonl", "default_rejects_path", "main", "ray_convert", "ray_convert_files"]

#: A chunk sent to a worker process ends after this many lines or bytes, whichever comes first.
CHUNK_LINES = 1000
CHUNK_BYTES = 1 << 20
_BOM = b"\xef\xbb\xbf"
_INDEX = re.compile(r"\[\d+\]")


@dataclass
class Summary:
    """What a bulk conversion did. ``read`` counts the non-blank lines: each was either written or
    rejected (``read == written + rejected``). ``losses`` counts the records that reported each kind
    of warning, keyed ``"<Category> <path with [*] for indices>"`` (``examples`` holds one message of
    each); ``errors`` counts the rejected lines per error class."""

    read: int = 0
    written: int = 0
    rejected: int = 0
    blank: int = 0
    bom: bool = False
    losses: dict = field(default_factory=dict)
    examples: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)
    resumed_after_line: int | None = None
    rejects_path: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when no line was rejected."""
        return self.rejected == 0

    def by_category(self) -> dict:
        """Records with at least one warning, per warning category (a record reporting two kinds
        of one category counts twice)."""
        out: dict = {}
        for key, n in self.losses.items():
            cat = key.split(" ", 1)[0]
            out[cat] = out.get(cat, 0) + n
        return dict(sorted(out.items()))

    def add(self, part: dict) -> None:
        self.read += part["read"]
        self.written += part["written"]
        self.rejected += part["rejected"]
        self.blank += part["blank"]
        for key, n in part["losses"].items():
            self.losses[key] = self.losses.get(key, 0) + n
            self.examples.setdefault(key, part["examples"][key])
        for key, n in part["errors"].items():
            self.errors[key] = self.errors.get(key, 0) + n

    def to_dict(self) -> dict:
        return {
            "read": self.read, "written": self.written, "rejected": self.rejected, "blank": self.blank,
            "bom": self.bom, "losses": dict(sorted(self.losses.items())),
            "examples": dict(sorted(self.examples.items())), "errors": dict(sorted(self.errors.items())),
            "resumed_after_line": self.resumed_after_line, "rejects_path": self.rejects_path,
        }

    def format(self) -> str:
        """The summary a person reads at the end of a run."""
        rate = f", {self.read / self.seconds:,.0f} lines/s" if self.seconds > 0 else ""
        lines = [f"read {self.read}, written {self.written}, rejected {self.rejected}{rate}"]
        if self.resumed_after_line is not None:
            lines.append(f"resumed after input line {self.resumed_after_line} (the counts include the earlier run; the losses only this one's)")
        if self.blank:
            lines.append(f"{self.blank} blank line(s) skipped")
        if self.bom:
            lines.append("a UTF-8 byte order mark at the start of the input was removed")
        for key, n in sorted(self.errors.items()):
            lines.append(f"rejected: {n} x {key}")
        if self.rejected:
            lines.append(f"rejected lines are in {self.rejects_path}")
        for key, n in sorted(self.losses.items()):
            lines.append(f"{key}: {n} record(s), e.g. {self.examples[key]}")
        return "\n".join(lines)


def default_rejects_path(dst: Any) -> str:
    """``OUT.jsonl`` → ``OUT.rejects.jsonl`` (``.jsonl.gz`` → ``.rejects.jsonl.gz``); ``-`` (stdout)
    → ``rejects.jsonl`` in the current directory."""
    if not isinstance(dst, (str, os.PathLike)) or str(dst) == "-":
        return "rejects.jsonl"
    dst = os.fspath(dst)
    for ext in (".jsonl.gz", ".jsonl", ".json.gz", ".json", ".ndjson.gz", ".ndjson"):
        if dst.endswith(ext):
            return dst[: -len(ext)] + ".rejects" + (".jsonl.gz" if ext.endswith(".gz") else ".jsonl")
    return dst + ".rejects.jsonl"


# ---------------------------------------------------------------- one chunk of lines (any process)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_DECODE = json.JSONDecoder(parse_constant=_no_constant).decode  # NaN / Infinity are not JSON
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_ENCODE_ASCII = json.JSONEncoder(separators=(",", ":")).encode


def _dumps(obj: Any) -> bytes:
    try:
        return _ENCODE(obj).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON "\ud800"): escaped, as it came
        return _ENCODE_ASCII(obj).encode("ascii")


def _reject(lineno: int, error: str, message: str, path: str | None, raw: bytes) -> bytes:
    record: dict = {"line": lineno, "error": error, "message": message, "path": path}
    try:
        record["original"] = raw.decode("utf-8")
    except UnicodeDecodeError:
        record["original_base64"] = base64.b64encode(raw).decode("ascii")
    return _dumps(record) + b"\n"


def _convert_chunk(task: tuple) -> dict:
    """Convert one chunk of lines: ``(options, first line number, lines, last line unterminated)``.

    Lines are ``bytes`` without their line ending. Returns the output and rejects bytes of the chunk
    and its counts; pure, so any process gives the same bytes."""
    opts, first, lines, unterminated = task
    import toolwire

    convert = toolwire.convert
    conversion_error = toolwire.ConversionError
    source, target, kind, strict, model = opts
    out: list[bytes] = []
    rejects: list[bytes] = []
    losses: dict = {}
    examples: dict = {}
    errors: dict = {}
    blank = 0
    last = len(lines) - 1
    with warnings.catch_warnings(record=True) as caught:  # once per chunk: cheaper than per line
        warnings.simplefilter("always")
        for i, raw in enumerate(lines):
            lineno = first + i
            if not raw.strip():
                blank += 1
                continue
            error = None
            try:
                payload = _DECODE(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                error = ("UnicodeDecodeError", f"the line is not UTF-8: {exc.reason} at byte {exc.start}", None)
            except ValueError as exc:  # json.JSONDecodeError and NaN / Infinity
                if unterminated and i == last:
                    error = ("TruncatedLineError", f"the last line has no line ending and is not complete JSON (the file was cut?): {exc}", None)
                else:
                    error = ("JSONDecodeError", str(exc), None)
            if error is None:
                del caught[:]
                try:
                    body = convert(payload, source=source, target=target, kind=kind, strict=strict, model=model)
                except conversion_error as exc:
                    error = (type(exc).__name__, exc.message, exc.path)
                except Exception as exc:  # never a crash: the line is rejected with what went wrong
                    error = (type(exc).__name__, str(exc), None)
                else:
                    out.append(_dumps(body) + b"\n")
                    if caught:
                        seen = set()
                        for w in caught:
                            msg = w.message
                            key = f"{type(msg).__name__} {_INDEX.sub('[*]', getattr(msg, 'path', '') or '<root>')}"
                            if key not in seen:
                                seen.add(key)
                                losses[key] = losses.get(key, 0) + 1
                                examples.setdefault(key, str(msg))
                    continue
            rejects.append(_reject(lineno, error[0], error[1], error[2], raw))
            errors[error[0]] = errors.get(error[0], 0) + 1
    return {
        "out": b"".join(out), "rejects": b"".join(rejects), "read": len(lines) - blank,
        "written": len(out), "rejected": len(rejects), "blank": blank,
        "losses": losses, "examples": examples, "errors": errors,
    }


# ---------------------------------------------------------------- reading and writing


def _open_read(src: Any) -> tuple[Any, bool]:
    """A binary stream for ``src`` (path, ``-`` or a binary file object) and whether to close it."""
    if hasattr(src, "read"):
        return (src.buffer if hasattr(src, "buffer") else src), False
    if str(src) == "-":
        return sys.stdin.buffer, False
    path = os.fspath(src)
    if path.endswith(".gz"):
        return gzip.open(path, "rb"), True
    return open(path, "rb"), True


def _open_write(dst: Any, append: bool = False) -> tuple[Any, bool]:
    if hasattr(dst, "write"):
        return (dst.buffer if hasattr(dst, "buffer") else dst), False
    if str(dst) == "-":
        return sys.stdout.buffer, False
    path = os.fspath(dst)
    if path.endswith(".gz"):
        # mtime=0: the same input gives byte-identical compressed output
        raw = open(path, "ab" if append else "wb")
        stream = gzip.GzipFile(filename="", mode="ab" if append else "wb", fileobj=raw, mtime=0)
        stream.myfileobj = raw  # closed with the GzipFile, as gzip.open does with the file it opens
        return stream, True
    return open(path, "ab" if append else "wb"), True


def _chunks(stream: Any, summary: Summary, skip: int = 0) -> Iterator[tuple[int, list, bool]]:
    """``(first line number, lines, last line unterminated)`` chunks of the input, from line
    ``skip + 1``; a BOM at the start is removed (and reported)."""
    lines: list[bytes] = []
    size = 0
    first = skip + 1
    lineno = 0
    unterminated = False
    for raw in stream:
        lineno += 1
        if lineno == 1 and raw.startswith(_BOM):
            raw = raw[3:]
            summary.bom = True
        if lineno <= skip:
            continue
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        else:
            unterminated = True  # only the last line can end without a newline
        lines.append(raw)
        size += len(raw)
        if len(lines) >= CHUNK_LINES or size >= CHUNK_BYTES:
            yield first, lines, False
            first, lines, size = lineno + 1, [], 0
    if lines:
        yield first, lines, unterminated


def _resume_point(src: Any, dst: str, rejects: str) -> tuple[int, int, int, int, int]:
    """Where an interrupted run stopped: ``(input lines done, written, rejected, blank,
    rejects bytes to keep)``; the output file is cut after its last complete line."""
    if dst.endswith(".gz") or rejects.endswith(".gz"):
        raise ValueError("--resume needs a plain (not gzip) output and rejects file: a cut gzip stream cannot be continued")
    written = 0
    with open(dst, "rb+") as f:
        keep = 0
        for raw in f:
            if raw.endswith(b"\n"):
                written += 1
                keep += len(raw)
        f.truncate(keep)
    rejected: list[tuple[int, int]] = []  # (line, end offset)
    if os.path.exists(rejects):
        with open(rejects, "rb") as f:
            offset = 0
            for raw in f:
                if not raw.endswith(b"\n"):
                    break
                offset += len(raw)
                try:
                    rejected.append((json.loads(raw)["line"], offset))
                except (ValueError, KeyError, TypeError):
                    break
    rejected_lines = {n for n, _ in rejected}
    stream, close = _open_read(src)
    skip = seen = blank = lineno = 0
    try:
        for raw in stream:
            lineno += 1
            if lineno == 1 and raw.startswith(_BOM):
                raw = raw[3:]
            if not raw.strip():
                blank += 1
            elif lineno not in rejected_lines:
                if seen == written:
                    break  # the first line neither written nor rejected: resume here
                seen += 1
            skip = lineno
    finally:
        if close:
            stream.close()
    kept = [(n, off) for n, off in rejected if n <= skip]
    return skip, written, len(kept), blank, (kept[-1][1] if kept else 0)


# ---------------------------------------------------------------- the local engine


class _Progress:
    def __init__(self, enabled: bool | Callable | None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.callback = enabled if callable(enabled) else None
        self.enabled = bool(enabled)
        self.start = self.last = time.monotonic()

    def update(self, summary: Summary, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not final and now - self.last < 0.25:
            return
        self.last = now
        if self.callback is not None:
            self.callback(summary)
            return
        rate = summary.read / max(now - self.start, 1e-9)
        sys.stderr.write(f"\r{summary.read:,} lines  {rate:,.0f} lines/s  {summary.rejected:,} rejected ")
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()


def convert_jsonl(
    src: Any,
    dst: Any,
    *,
    source: str,
    target: str,
    kind: str = "request",
    strict: bool = False,
    model: str | None = None,
    workers: int | None = None,
    resume: bool = False,
    rejects: Any = None,
    progress: bool | Callable | None = False,
) -> Summary:
    """Convert every line of ``src`` (a path, ``.gz`` read as gzip, ``-`` for stdin, or a binary
    file object) from ``source`` to ``target`` into ``dst`` (likewise; ``.gz`` written as gzip),
    in input order. Returns a :class:`Summary`.

    ``workers``: worker processes (default: the CPU count; an input of one chunk is converted in
    this process). ``rejects``: where rejected lines go (default ``default_rejects_path(dst)``;
    created only when a line is rejected). ``strict``: a line with a loss is rejected
    (``LossError``). ``resume``: continue an interrupted run into the same ``dst`` and rejects file
    (plain files only). ``progress``: ``None`` shows a progress line on stderr when it is a
    terminal, ``True`` always, a callable is called with the summary instead.
    """
    import toolwire

    for name in (source, target):  # unknown providers fail here, not on every line
        if name not in toolwire.PROVIDERS:
            toolwire._registry.get(name)
    if kind not in ("request", "response"):
        raise ValueError(f"kind must be 'request' or 'response', got {kind!r}")
    summary = Summary()
    started = time.monotonic()
    rejects_path = os.fspath(rejects) if rejects is not None and not hasattr(rejects, "write") else None
    if rejects is None:
        rejects_path = default_rejects_path(dst)
    summary.rejects_path = rejects_path if rejects_path is not None else repr(rejects)
    skip = 0
    if resume:
        if hasattr(dst, "write") or str(dst) == "-" or rejects_path is None:
            raise ValueError("resume needs output and rejects files given by path")
        if os.path.exists(os.fspath(dst)):
            skip, summary.written, summary.rejected, summary.blank, keep = _resume_point(src, os.fspath(dst), rejects_path)
            summary.read = summary.written + summary.rejected
            summary.resumed_after_line = skip
            if os.path.exists(rejects_path):
                with open(rejects_path, "rb+") as f:
                    f.truncate(keep)
        else:
            resume = False
    elif rejects_path is not None and os.path.exists(rejects_path):
        os.remove(rejects_path)  # a stale rejects file of an earlier run would mislead
    opts = (source, target, kind, strict, model)
    if workers is None:
        workers = os.cpu_count() or 1
    show = _Progress(progress)
    instream, close_in = _open_read(src)
    outstream, close_out = _open_write(dst, append=resume)
    rej: list = [None, False]  # the rejects stream, opened on the first reject

    def emit(part: dict) -> None:
        if part["rejects"]:
            if rej[0] is None:
                rej[0], rej[1] = (rejects, False) if rejects_path is None else _open_write(rejects_path, append=resume)
            rej[0].write(part["rejects"])
            rej[0].flush()  # a chunk's rejects reach the disk before its output (--resume relies on it)
        outstream.write(part["out"])
        summary.add(part)
        show.update(summary)

    pool = None
    try:
        chunks = _chunks(instream, summary, skip)
        pending: deque = deque()
        first = next(chunks, None)
        second = next(chunks, None) if first is not None else None
        if second is None or workers <= 1:
            for chunk in (c for c in (first, second) if c is not None):
                emit(_convert_chunk((opts, *chunk)))
            for chunk in chunks:
                emit(_convert_chunk((opts, *chunk)))
        else:
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor(max_workers=workers)
            for chunk in _chain(first, second, chunks):
                pending.append(pool.submit(_convert_chunk, (opts, *chunk)))
                while len(pending) >= 2 * workers:  # bounded: memory stays flat
                    emit(pending.popleft().result())
            while pending:
                emit(pending.popleft().result())
        outstream.flush()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if close_in:
            instream.close()
        if close_out:
            outstream.close()
        if rej[0] is not None and rej[1]:
            rej[0].close()
    summary.seconds = time.monotonic() - started
    show.update(summary, final=True)
    return summary


def _chain(first: Any, second: Any, rest: Iterator) -> Iterator:
    yield first
    yield second
    yield from rest


# ---------------------------------------------------------------- the Ray Data engine


def _ray_batch(batch: dict, opts: tuple, column: str) -> dict:
    texts = []
    for value in batch[column]:
        if isinstance(value, (bytes, bytearray)):
            texts.append(bytes(value))
        elif isinstance(value, str):
            texts.append(value.encode("utf-8"))
        else:  # a record given as an object
            texts.append(_dumps(value if not hasattr(value, "tolist") else value.tolist()))
    out_text: list = []
    rejects: list = []
    for i, raw in enumerate(texts):
        part = _convert_chunk((opts, 0, [raw], False))
        if part["written"]:
            out_text.append(part["out"][:-1].decode("utf-8"))
            rejects.append(None)
        elif part["rejected"]:
            out_text.append(None)
            rejects.append(part["rejects"][:-1].decode("utf-8"))
        else:  # blank
            out_text.append(None)
            rejects.append(None)
    return {"text": out_text, "reject": rejects}


def ray_convert(
    dataset: Any,
    *,
    source: str,
    target: str,
    kind: str = "request",
    strict: bool = False,
    model: str | None = None,
    column: str = "text",
    rejects: str = "column",
    batch_size: int = 256,
) -> Any:
    """Convert a ``ray.data.Dataset`` whose ``column`` holds one record per row (its JSON text, as
    ``ray.data.read_text`` gives it, or the record itself) from ``source`` to ``target``.

    Returns a dataset with columns ``text`` (the converted record's JSON text, ``None`` when
    rejected) and ``reject`` (``None``, or the rejects-file record as JSON text: its ``line`` is 0,
    Ray rows have no line numbers). ``rejects="dataset"`` returns ``(converted, rejects)`` instead:
    two datasets, the converted texts and the reject records. Needs ``pip install 'toolwire[ray]'``.
    """
    import toolwire

    for name in (source, target):
        toolwire._registry.get(name)
    opts = (source, target, kind, strict, model)
    out = dataset.map_batches(_ray_batch, fn_kwargs={"opts": opts, "column": column}, batch_size=batch_size, batch_format="default")
    if rejects == "column":
        return out
    if rejects != "dataset":
        raise ValueError(f"rejects must be 'column' or 'dataset', got {rejects!r}")
    converted = out.filter(lambda row: row["text"] is not None).select_columns(["text"])
    rejected = out.filter(lambda row: row["reject"] is not None).select_columns(["reject"])
    return converted, rejected


def _shards(src: str) -> list[str]:
    if os.path.isdir(src):
        names = sorted(n for n in os.listdir(src) if n.endswith((".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")) and ".rejects." not in n)
        return [os.path.join(src, n) for n in names]
    return [src]


def _ray_shard(row: dict, opts: tuple) -> dict:
    source, target, kind, strict, model = opts
    summary = convert_jsonl(row["src"], row["dst"], source=source, target=target, kind=kind, strict=strict, model=model, workers=1, rejects=row["rejects"])
    return {"src": row["src"], "summary": json.dumps(summary.to_dict())}


def ray_convert_files(
    src: str,
    dst: str,
    *,
    source: str,
    target: str,
    kind: str = "request",
    strict: bool = False,
    model: str | None = None,
) -> Summary:
    """``--engine ray``: convert a file, or a folder of shards (``*.jsonl``, ``*.jsonl.gz``) into a
    folder of the same names, one Ray task per shard (each streams its shard like the local
    engine, rejects beside its output). Uses the running Ray instance or starts a local one."""
    import ray

    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS"), include_dashboard=False, log_to_driver=False)
    shards = _shards(src)
    if os.path.isdir(src):
        os.makedirs(dst, exist_ok=True)
        rows = [{"src": s, "dst": os.path.join(dst, os.path.basename(s))} for s in shards]
    else:
        rows = [{"src": src, "dst": dst}]
    for row in rows:
        row["rejects"] = default_rejects_path(row["dst"])
    started = time.monotonic()
    opts = (source, target, kind, strict, model)
    results = ray.data.from_items(rows).map(_ray_shard, fn_kwargs={"opts": opts}).take_all()
    summary = Summary()
    for res in sorted(results, key=lambda r: r["src"]):
        part = json.loads(res["summary"])
        summary.add(part)
        summary.bom = summary.bom or part["bom"]
    summary.rejects_path = rows[0]["rejects"] if len(rows) == 1 else os.path.join(dst, "*.rejects.jsonl")
    summary.seconds = time.monotonic() - started
    return summary


# ---------------------------------------------------------------- the CLI


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="toolwire convert-jsonl",
        description="Convert a JSONL file of requests (or responses, or dataset records) from one provider format to another.",
        epilog="Exit status: 0 every line written, 1 some lines rejected (see the rejects file), 2 usage or I/O error.",
    )
    p.add_argument("--from", dest="source", required=True, help="source provider or dataset flavour (toolwire.PROVIDERS)")
    p.add_argument("--to", dest="target", required=True, help="target provider or dataset flavour")
    p.add_argument("input", help="input JSONL file (.gz read as gzip; - for stdin; a folder of shards with --engine ray)")
    p.add_argument("output", help="output JSONL file (.gz written as gzip; - for stdout)")
    p.add_argument("--kind", choices=("request", "response"), default="request")
    p.add_argument("--model", default=None, help="the target's model name (sent where the target's body has one)")
    p.add_argument("--strict", action="store_true", help="reject a line whose conversion loses something")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: CPU count)")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run after the last complete output line")
    p.add_argument("--rejects", default=None, help="rejects file (default OUT.rejects.jsonl)")
    p.add_argument("--engine", choices=("local", "ray"), default="local")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line and no summary")
    return p


def main(argv: list[str] | None = None) -> int:
    """``toolwire convert-jsonl ...``; returns the exit status (0 all written, 1 rejects, 2 error)."""
    args = _parser().parse_args(argv)
    try:
        if args.engine == "ray":
            if args.resume or args.input == "-" or args.output == "-":
                raise ValueError("--engine ray reads and writes files (no -, no --resume)")
            summary = ray_convert_files(args.input, args.output, source=args.source, target=args.target, kind=args.kind, strict=args.strict, model=args.model)
        else:
            summary = convert_jsonl(
                args.input, args.output, source=args.source, target=args.target, kind=args.kind, strict=args.strict,
                model=args.model, workers=args.workers, resume=args.resume, rejects=args.rejects,
                progress=None if not args.quiet else False,
            )
    except (OSError, ValueError, ImportError) as exc:
        print(f"toolwire convert-jsonl: error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(summary.format(), file=sys.stderr)
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
