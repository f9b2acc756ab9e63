"""The ``toolwire`` command line (console script ``toolwire``, and ``python -m toolwire``).

Standard library only (argparse). Subcommands: ``convert``, ``providers``, ``stream``,
``accumulate``, ``convert-jsonl`` (the bulk converter, ``toolwire_runtime.bulk``, when present).
Exit codes: see ``EXIT_CODES``.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import warnings
from contextlib import contextmanager
from typing import Any, Iterator

OK, BAD_INPUT, USAGE, STRICT_LOSS = 0, 1, 2, 3

EXIT_CODES = """\
exit codes:
  0  success
  1  bad input: a file that cannot be read, invalid JSON, a payload toolwire cannot convert
     (ConversionError: its JSON path and message go to stderr)
  2  usage: unknown option or provider name, missing argument
  3  loss in --strict mode: the target cannot express something the input holds (LossError)
"""

MAIN_EPILOG = (
    """\
examples:
  toolwire convert --from openai_chat --to gemini request.json
  toolwire convert --from gemini --to anthropic --kind response - < response.json
  toolwire providers
  toolwire providers bedrock_converse
  curl -N ... | toolwire stream --from openai_chat --to anthropic

Warnings (what the target cannot express, defaults assumed) go to stderr, one line each:
"<Category>: <json path>: <message>".

"""
    + EXIT_CODES
)

CONVERT_EPILOG = (
    """\
examples:
  toolwire convert --from openai_chat --to gemini request.json
  toolwire convert --from openai_chat --to anthropic --strict --compact request.json
  cat response.json | toolwire convert --from gemini --to openai_chat --kind response
  toolwire convert --from anthropic --to openai_chat --kind response --tool-names search.web,fs.read resp.json
  toolwire convert --from gemini --to bedrock_converse --model anthropic.claude-sonnet-4-5 req.json

The converted body goes to stdout; each warning goes to stderr as one line
("LossWarning: tools[0].strict: ..."). --strict turns losses into an error (exit 3).

"""
    + EXIT_CODES
)

PROVIDERS_EPILOG = """\
examples:
  toolwire providers              every provider, its title and what it cannot express
  toolwire providers gemini       one provider in full: docs, spec, models, stream framing,
                                  features, what it cannot express and why

The same data, as a compatibility matrix: docs/providers.md (generated from spec/providers/).
"""

STREAM_EPILOG = (
    """\
examples:
  curl -N https://api.openai.com/v1/chat/completions ... | toolwire stream --from openai_chat --to anthropic
  toolwire stream --from anthropic --to gemini < recorded.sse > translated.sse

Reads the raw stream body (SSE, NDJSON, AWS event stream: the source's framing) from stdin and
writes the target's raw body to stdout as the events arrive, flushing after each one.

"""
    + EXIT_CODES
)

ACCUMULATE_EPILOG = (
    """\
examples:
  toolwire accumulate --provider anthropic < recorded.sse
  curl -N ... | toolwire accumulate --provider openai_chat --compact

Reads a raw stream body on stdin and prints the complete response body the provider's
non-streamed API would have answered.

"""
    + EXIT_CODES
)

JSONL_EPILOG = """\
Converts JSON Lines files in bulk; its own options follow the subcommand
(toolwire convert-jsonl --help).
"""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help keeps the epilog's layout (examples)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kw)


def _provider(value: str) -> str:
    """An argparse type: a provider name, or the registry's "did you mean" as a usage error."""
    import toolwire

    if value not in toolwire.PROVIDERS:
        try:
            toolwire._registry.get(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _tool_names(value: str) -> list[str]:
    return [name.strip() for name in value.split(",") if name.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="toolwire",
        description="Translate LLM tool use (function calling) between provider wire formats.",
        epilog=MAIN_EPILOG,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    conv = sub.add_parser("convert", help="convert a request or response body", epilog=CONVERT_EPILOG,
                          description="Convert a request (or response) body from one provider's format to another's.",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    conv.add_argument("--from", dest="source", required=True, type=_provider, metavar="PROVIDER", help="the input's provider")
    conv.add_argument("--to", dest="target", required=True, type=_provider, metavar="PROVIDER", help="the output's provider")
    conv.add_argument("--kind", choices=("request", "response"), default="request", help="the kind of body (default: request)")
    conv.add_argument("--strict", action="store_true", help="fail (exit 3) instead of reporting a loss")
    conv.add_argument("--model", metavar="M", help="the target's model name (Gemini and Bedrock bodies name none)")
    conv.add_argument("--tool-names", type=_tool_names, metavar="A,B",
                      help="the original tool names of the request, to map fitted names in a response back")
    _output_options(conv)
    conv.add_argument("file", nargs="?", default="-", metavar="FILE", help="the JSON body (default: stdin, also `-`)")

    prov = sub.add_parser("providers", help="list providers, or show one", epilog=PROVIDERS_EPILOG,
                          description="The providers toolwire converts, from their specs.",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    prov.add_argument("name", nargs="?", type=_provider, metavar="NAME", help="show this provider in full")

    strm = sub.add_parser("stream", help="translate a raw stream body (stdin → stdout)", epilog=STREAM_EPILOG,
                          description="Translate a streamed response body from one provider's stream format to another's.",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    strm.add_argument("--from", dest="source", required=True, type=_provider, metavar="PROVIDER", help="the input stream's provider")
    strm.add_argument("--to", dest="target", required=True, type=_provider, metavar="PROVIDER", help="the output stream's provider")
    strm.add_argument("--strict", action="store_true", help="fail (exit 3) instead of reporting a loss")

    acc = sub.add_parser("accumulate", help="a raw stream body → the complete response JSON", epilog=ACCUMULATE_EPILOG,
                         description="Fold a streamed response body into the complete response body.",
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    acc.add_argument("--provider", required=True, type=_provider, metavar="PROVIDER", help="the stream's provider")
    acc.add_argument("--strict", action="store_true", help="fail on an early end or an unknown event")
    _output_options(acc)

    # the bulk converter owns its flags: everything after the subcommand is handed to it
    jsonl = sub.add_parser("convert-jsonl", help="convert JSON Lines files in bulk", add_help=False,
                           description="Convert JSON Lines files in bulk.", epilog=JSONL_EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    jsonl.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


def _output_options(parser: argparse.ArgumentParser) -> None:
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--indent", type=int, default=2, metavar="N", help="indent the JSON output by N spaces (default: 2)")
    out.add_argument("--compact", action="store_true", help="print the JSON on one line, without spaces")


def _dump(value: Any, args: argparse.Namespace) -> None:
    if args.compact:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(value, ensure_ascii=False, indent=args.indent)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _error(message: str) -> None:
    print(f"toolwire: error: {message}", file=sys.stderr, flush=True)


@contextmanager
def _report_warnings() -> Iterator[None]:
    """Print each toolwire warning as it is raised, one line on stderr: "<Category>: <message>"."""
    from toolwire_runtime.errors import ConversionWarning

    def show(message: Any, category: type, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        if issubclass(category, ConversionWarning):
            text = " ".join(str(message).split())  # one line, whatever the message holds
            print(f"{category.__name__}: {text}", file=sys.stderr, flush=True)
        else:
            previous(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        previous = warnings.showwarning
        warnings.simplefilter("always", ConversionWarning)  # two losses with the same text are two lines
        warnings.showwarning = show
        yield


def _conversion_failed(exc: Exception) -> int:
    """A ConversionError: its path and message; a LossError (strict mode) exits with its own code."""
    from toolwire_runtime.errors import LossError

    text = " ".join(str(exc).split())
    _error(f"{type(exc).__name__}: {text}")
    return STRICT_LOSS if isinstance(exc, LossError) else BAD_INPUT


def _read_json(name: str) -> Any:
    """The JSON document of a file (``-``: stdin); raises ValueError with a message to show."""
    try:
        if name == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(name, "rb") as fh:
                text = fh.read().decode("utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{'stdin' if name == '-' else name} is not UTF-8: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = "stdin" if name == "-" else name
        raise ValueError(f"invalid JSON in {where}: line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def cmd_convert(args: argparse.Namespace) -> int:
    import toolwire

    try:
        payload = _read_json(args.file)
    except ValueError as exc:
        _error(str(exc))
        return BAD_INPUT
    with _report_warnings():
        try:
            out = toolwire.convert(payload, source=args.source, target=args.target, kind=args.kind,
                                   strict=args.strict, tool_names=args.tool_names, model=args.model)
        except toolwire.ConversionError as exc:
            return _conversion_failed(exc)
    _dump(out, args)
    return OK


def _module(name: str) -> Any:
    import importlib

    import toolwire

    return importlib.import_module(toolwire._MODULES[name])


def _wrap(text: str, indent: str, width: int = 100) -> str:
    return textwrap.fill(" ".join(str(text).split()), width=width, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False, break_long_words=False)


def cmd_providers(args: argparse.Namespace) -> int:
    import toolwire

    if args.name is not None:
        sys.stdout.write(describe(args.name))
        return OK
    width = max(map(len, toolwire.PROVIDERS))
    lines = []
    for name in toolwire.PROVIDERS:
        m = _module(name)
        lines.append(f"{name:<{width}}  {m.TITLE}")
        whats = "; ".join(what for what, _why in m.CANNOT_EXPRESS)
        lines.append(_wrap(f"cannot express: {whats}" if whats else "cannot express: nothing documented", " " * (width + 2)))
    lines.append("")
    lines.append("`toolwire providers NAME` shows one in full; docs/providers.md has the compatibility matrix.")
    sys.stdout.write("\n".join(lines) + "\n")
    return OK


def describe(name: str) -> str:
    """One provider in full, from the constants its generated module carries (from its spec)."""
    from toolwire import stream

    m = _module(name)
    lines = [f"{name}: {m.TITLE}"]
    if m.EXTENDS:
        lines.append(f"  extends:        {m.EXTENDS}")
    lines.append(f"  wire family:    {m.FAMILY}")
    lines.append(f"  spec:           {m.SPEC}")
    lines.append(f"  models:         {', '.join(m.MODELS) if m.MODELS else 'any'}")
    framing = stream.FRAMINGS.get(name)
    lines.append(f"  stream framing: {framing or 'none: ' + stream.NO_STREAM.get(name, 'no stream grammar')}")
    if m.DOCS:
        lines.append("  docs:")
        lines.extend(f"    {url}" for url in m.DOCS)
    if m.SDK:
        lines.append("  SDK types:")
        lines.append(_wrap(m.SDK, "    "))
    features = getattr(m, "FEATURES", ())
    if features:
        lines.append("  features (docs/providers.md, compatibility matrix):")
        width = max(len(label) for label, _ in features)
        lines.extend(f"    {label + ':':<{width + 1}} {value}" for label, value in features)
    lines.append("  cannot express:" if m.CANNOT_EXPRESS else "  cannot express: nothing documented")
    for what, why in m.CANNOT_EXPRESS:
        lines.append(_wrap(f"- {what}", "    "))
        lines.append(_wrap(why, "      "))
    return "\n".join(lines) + "\n"


def _stdin_chunks() -> Iterator[bytes]:
    """stdin's bytes as they arrive (a chunk as soon as some are there, not a full buffer)."""
    read = getattr(sys.stdin.buffer, "read1", sys.stdin.buffer.read)
    while True:
        chunk = read(65536)
        if not chunk:
            return
        yield chunk


def cmd_stream(args: argparse.Namespace) -> int:
    from toolwire import ConversionError, stream

    out = sys.stdout.buffer
    with _report_warnings():
        try:
            for chunk in stream.translate(_stdin_chunks(), source=args.source, target=args.target, strict=args.strict):
                out.write(chunk)
                out.flush()
        except ConversionError as exc:
            return _conversion_failed(exc)
    return OK


def cmd_accumulate(args: argparse.Namespace) -> int:
    from toolwire import ConversionError, stream

    with _report_warnings():
        try:
            body = stream.accumulate(stream.parse(_stdin_chunks(), provider=args.provider),
                                     provider=args.provider, as_provider=True, strict=args.strict)
        except ConversionError as exc:
            return _conversion_failed(exc)
    _dump(body, args)
    return OK


def cmd_convert_jsonl(rest: list[str]) -> int:
    from toolwire_runtime import bulk  # (docs/bulk.md; it parses its own flags)

    return bulk.main(rest)


COMMANDS = {"convert": cmd_convert, "providers": cmd_providers, "stream": cmd_stream, "accumulate": cmd_accumulate}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["convert-jsonl"]:  # the bulk converter parses its own flags, all of them
        return cmd_convert_jsonl(argv[1:])
    args = build_parser().parse_args(argv)  # SystemExit(2) on a usage error, (0) for --help
    try:
        return COMMANDS[args.command](args)
    except BrokenPipeError:  # `toolwire ... | head`: the reader left; nothing more to say
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return OK
    except KeyboardInterrupt:
        return 130
