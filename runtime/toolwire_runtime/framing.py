"""Stream wire framing: raw HTTP response bodies <-> stream events, for every wire family.

Events have the shape the streaming corpus (``../shared/streams``) stores:

- SSE: ``{"event": name, "data": <parsed JSON>}``; ``event`` only when the block had an
  ``event:`` field; a terminator such as OpenAI Chat's ``data: [DONE]`` is kept as
  ``{"data": "[DONE]"}``.
- NDJSON: ``{"data": <parsed JSON line>}``.
- AWS event stream: ``{"event": eventType, "data": {eventType: payload}}``; ``data`` is exactly
  what boto3 yields for the event (payload unchanged, so Bedrock's ``p`` padding is still there).

Parsers are incremental: ``framing.parse(chunks)`` takes bytes (or str) chunks cut anywhere (inside a
line, a CRLF, a UTF-8 character, a binary frame) and yields each event as soon as it is complete;
``framing.aparse`` does the same over an async iterable. Both drive one decoder object
(``framing.decoder()``: ``feed(chunk) -> events``, ``close() -> events``), which a caller with its own
loop can drive directly. Writers (``write`` / ``awrite`` / ``encode``) give one chunk per event.

Malformed bodies raise ``StreamFormatError`` with the event's position (``events[i]``); an AWS
exception frame raises ``ProviderStreamError`` (boto3 raises too). Stdlib only; this module is
hand-written runtime; which framing a provider uses is its spec's ``stream: {framing: NAME}``
(names: ``FRAMING_BY_NAME``), published as ``toolwire.stream.FRAMINGS``.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import json
import re
import struct
import uuid
import zlib
from typing import Any, AsyncIterable, AsyncIterator, Iterable, Iterator, NamedTuple

from .errors import ProviderStreamError, StreamFormatError

__all__ = [
    "FRAMING_BY_NAME",
    "SseFraming", "NdjsonFraming", "AwsEventStreamFraming", "AwsChunksFraming",
    "SseDecoder", "NdjsonDecoder", "AwsEventStreamDecoder", "AwsChunksDecoder",
    "Header", "Frame", "encode_frame", "decode_frame",
]

Event = dict  # {"event"?: str, "data": Any}


def _position(index: int, field: str = "") -> str:
    return f"events[{index}]{field}"


def _loads(text: str, index: int, where: str) -> Any:
    """Strict JSON: NaN / Infinity are not JSON and no provider sends them."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as exc:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise StreamFormatError(_position(index, ".data"), f"{where} is not JSON ({exc}): {shown!r}", index) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Decoder:
    """Base of the decoders: ``feed`` a chunk, get the events it completed; ``close`` at end of body.

    An error found in a chunk is raised only after the events completed before it are returned (on
    the next ``feed`` or ``close``), so a consumer gets every good event that preceded it.
    """

    def __init__(self) -> None:
        self.count = 0  # events produced so far = position of the next one
        self._closed = False
        self._error: Exception | None = None

    def feed(self, chunk: bytes | str) -> list[Event]:
        if self._closed:
            raise ValueError("feed() after close()")
        return self._run(self._feed, chunk)

    def close(self) -> list[Event]:
        if self._closed and self._error is None:
            return []
        self._closed = True
        return self._run(self._close)

    def _run(self, step, *args) -> list[Event]:
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        out: list[Event] = []
        try:
            step(out, *args)
        except (StreamFormatError, ProviderStreamError) as exc:
            if not out:
                raise
            self._error = exc
        return out

    def _feed(self, out: list[Event], chunk: bytes | str) -> None:
        raise NotImplementedError

    def _close(self, out: list[Event]) -> None:
        raise NotImplementedError


class _TextDecoder(_Decoder):
    """Bytes/str chunks -> text -> complete lines (``\\n``, ``\\r\\n``; ``\\r`` too when asked)."""

    def __init__(self, *, bare_cr: bool) -> None:
        super().__init__()
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._buf = ""
        self._parts: list[str] = []  # text after _buf that holds no line end yet
        self._scan = 0  # where the search for the next line end resumes (no rescanning a long line)
        self._line_end = re.compile("[\r\n]" if bare_cr else "\n")
        self._offset = 0  # bytes (or characters, for str input) consumed, for error messages
        self._line_no = 0

    def _text(self, chunk: bytes | str) -> str:
        if isinstance(chunk, str):
            if self._utf8.getstate()[0]:
                raise StreamFormatError(_position(self.count), "a str chunk arrived inside a UTF-8 character", self.count)
            self._offset += len(chunk)
            return chunk
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError(f"stream chunks must be bytes or str, not {type(chunk).__name__}")
        try:
            text = self._utf8.decode(bytes(chunk))
        except UnicodeDecodeError as exc:
            raise StreamFormatError(_position(self.count), f"invalid UTF-8 at byte {self._offset + exc.start}", self.count) from None
        self._offset += len(chunk)
        return text

    def _feed(self, out: list[Event], chunk: bytes | str) -> None:
        self._lines(out, self._text(chunk), eof=False)

    def _close(self, out: list[Event]) -> None:
        try:
            tail = self._utf8.decode(b"", final=True)
        except UnicodeDecodeError:
            raise StreamFormatError(_position(self.count), "the body ends inside a UTF-8 character", self.count) from None
        self._lines(out, tail, eof=True)
        if self._buf:  # a last line without a line end (_lines(eof=True) joined _parts)
            self._line_no += 1
            line, self._buf = self._buf, ""
            self._line(out, line)
        self._end(out)

    def _lines(self, out: list[Event], text: str, eof: bool) -> None:
        if text and self._buf and not eof and self._line_end.search(text) is None and self._buf[-1] != "\r":
            self._parts.append(text)  # no line end yet: join once, not per chunk (a long line in small chunks)
            return
        if self._parts:
            self._buf = "".join([self._buf, *self._parts])
            self._parts = []
            # _scan stays valid: the joined parts hold no line end
        if text:
            self._buf = self._buf + text if self._buf else self._prepare(text)
        buf, start = self._buf, 0
        try:
            while True:
                m = self._line_end.search(buf, max(start, self._scan))
                if m is None:
                    self._scan = len(buf)
                    break
                end = m.start()
                step = 1
                if buf[end] == "\r":
                    if end + 1 == len(buf) and not eof:
                        self._scan = end  # a CR at the end of the buffer: wait to see whether LF follows
                        break
                    if buf.startswith("\n", end + 1):
                        step = 2
                self._line_no += 1
                line, start = buf[start:end], end + step
                self._scan = start
                self._line(out, line)
        finally:  # also when a line was in error: it is consumed, not seen again
            if start:
                self._buf = buf[start:]
                self._scan -= start

    def _prepare(self, text: str) -> str:
        return text

    def _line(self, out: list[Event], line: str) -> None:
        raise NotImplementedError

    def _end(self, out: list[Event]) -> None:
        pass


class SseDecoder(_TextDecoder):
    """Server-sent events per the WHATWG HTML spec, section "Parsing an event stream".

    Lines end with LF, CRLF or CR; a leading BOM is skipped; ``:`` lines are comments (keep-alives);
    ``field: value`` loses one space after the colon; ``data`` lines are joined with LF; ``id`` and
    ``retry`` are kept (``last_event_id``, ``retry``) and never produce events; unknown fields are
    ignored; a blank line dispatches, a block without ``data`` dispatches nothing. One deliberate
    difference from the spec: a last block not followed by a blank line is still dispatched at the
    end of the body (servers that close without the final blank line lose no event).

    ``data`` is parsed as JSON, except a terminator (``[DONE]``) when the framing has one.
    """

    def __init__(self, terminator: str | None = None) -> None:
        super().__init__(bare_cr=True)
        self.terminator = terminator
        self.last_event_id = ""
        self.retry: int | None = None
        self._started = False
        self._event = ""
        self._data: list[str] = []
        self._has_data = False

    def _prepare(self, text: str) -> str:
        if not self._started:
            self._started = True
            if text.startswith("\ufeff"):
                return text[1:]
        return text

    def _line(self, out: list[Event], line: str) -> None:
        if not line:
            return self._dispatch(out)
        if line[0] == ":":  # a comment (keep-alive); the same as a field with an empty name, ignored
            return
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
            self._has_data = True
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry":
            if value.isascii() and value.isdigit():
                self.retry = int(value)

    def _dispatch(self, out: list[Event]) -> None:
        name, data, has_data = self._event, self._data, self._has_data
        self._event, self._data, self._has_data = "", [], False
        if not has_data:
            return
        text = "\n".join(data)
        index = self.count
        value: Any = text if text == self.terminator else _loads(text, index, f"the data of SSE event {index} (block ending at line {self._line_no})")
        self.count += 1
        out.append({"event": name, "data": value} if name else {"data": value})

    def _end(self, out: list[Event]) -> None:
        self._dispatch(out)


class NdjsonDecoder(_TextDecoder):
    """Newline-delimited JSON: one JSON value per line (LF or CRLF); blank lines are skipped; a last
    line without LF counts; a line that is not JSON (e.g. cut off when the body ended) is an error."""

    def __init__(self) -> None:
        super().__init__(bare_cr=False)

    def _line(self, out: list[Event], line: str) -> None:
        if line.endswith("\r"):
            line = line[:-1]
        if not line.strip():
            return
        index = self.count
        value = _loads(line, index, f"NDJSON line {self._line_no}")
        self.count += 1
        out.append({"data": value})


# --- AWS event stream -------------------------------------------------------------------------
# Binary framing of application/vnd.amazon.eventstream (Bedrock ConverseStream and other AWS
# streaming APIs), as specified in "Appendix: SelectObjectContent response" of the S3 API reference
# (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html) and implemented by
# botocore/eventstream.py. A message is
#   prelude:  total length (uint32 BE) | headers length (uint32 BE) | CRC32 of those 8 bytes
#   headers:  repeated  name length (uint8) | name (UTF-8) | value type (uint8) | value
#   payload:  total - headers - 16 bytes
#   CRC32 of everything before it (prelude included).
# Header value types: 0 true, 1 false (no value bytes), 2 int8, 3 int16, 4 int32, 5 int64,
# 6 bytes (uint16 length), 7 string (uint16 length, UTF-8), 8 timestamp (int64 ms since epoch), 9 uuid (16 bytes).
# Integers are big-endian and signed.

_PRELUDE = 12
_MAX_HEADERS = 128 * 1024  # the limits botocore enforces, so a corrupt length fails fast
_MAX_PAYLOAD = 24 * 1024 * 1024
_INT_FORMATS = {2: ">b", 3: ">h", 4: ">i", 5: ">q", 8: ">q"}


class Header(NamedTuple):
    """One event-stream header; ``type`` is the wire type code (kept so frames re-encode byte-exact).
    Values: bool (0, 1), int (2-5; 8 = ms since the epoch), bytes (6), str (7), uuid.UUID (9)."""

    name: str
    type: int
    value: Any


class Frame(NamedTuple):
    headers: tuple[Header, ...]
    payload: bytes

    def header(self, name: str, default: Any = None) -> Any:
        for h in self.headers:
            if h.name == name:
                return h.value
        return default


def encode_frame(headers: Iterable[Header], payload: bytes) -> bytes:
    """One event-stream message (prelude, headers, payload, CRCs)."""
    raw = bytearray()
    for h in headers:
        name = h.name.encode("utf-8")
        if not 0 < len(name) < 256:
            raise ValueError(f"header name {h.name!r} must be 1 to 255 bytes")
        raw += struct.pack(">B", len(name)) + name + struct.pack(">B", h.type)
        if h.type in (0, 1):
            if h.value is not (h.type == 0):
                raise ValueError(f"header {h.name}: type {h.type} is the boolean {h.type == 0}, not {h.value!r}")
        elif h.type in _INT_FORMATS:
            raw += struct.pack(_INT_FORMATS[h.type], h.value)
        elif h.type in (6, 7):
            value = h.value.encode("utf-8") if h.type == 7 else bytes(h.value)
            if len(value) > 0xFFFF:
                raise ValueError(f"header {h.name}: value longer than 65535 bytes")
            raw += struct.pack(">H", len(value)) + value
        elif h.type == 9:
            raw += h.value.bytes
        else:
            raise ValueError(f"header {h.name}: unknown value type {h.type}")
    total = _PRELUDE + len(raw) + len(payload) + 4
    prelude = struct.pack(">II", total, len(raw))
    message = prelude + struct.pack(">I", zlib.crc32(prelude)) + bytes(raw) + payload
    return message + struct.pack(">I", zlib.crc32(message))


def decode_frame(message: bytes) -> Frame:
    """Exactly one complete message (see ``AwsEventStreamDecoder`` for a stream of them)."""
    decoder = _FrameReader()
    decoder.add(message)
    frame = decoder.next_frame(0)
    if frame is None or decoder.pending:
        raise StreamFormatError(_position(0), f"not exactly one event-stream message ({len(message)} bytes)", 0)
    return frame


class _FrameReader:
    """Cuts frames out of a byte buffer, checking lengths and CRCs."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._offset = 0  # body offset of self._buf[0], for error messages

    @property
    def pending(self) -> int:
        return len(self._buf)

    def add(self, chunk: bytes) -> None:
        self._buf += chunk

    def next_frame(self, index: int) -> Frame | None:
        buf = self._buf
        if len(buf) < _PRELUDE:
            return None
        where = f"the event-stream message at byte {self._offset}"
        total, headers_len = struct.unpack_from(">II", buf)
        (prelude_crc,) = struct.unpack_from(">I", buf, 8)
        if zlib.crc32(buf[:8]) != prelude_crc:
            raise StreamFormatError(_position(index), f"{where}: prelude CRC mismatch", index)
        if headers_len > _MAX_HEADERS or total < _PRELUDE + headers_len + 4 or total - headers_len - 16 > _MAX_PAYLOAD:
            raise StreamFormatError(_position(index), f"{where}: impossible lengths (total {total}, headers {headers_len})", index)
        if len(buf) < total:
            return None
        (message_crc,) = struct.unpack_from(">I", buf, total - 4)
        if zlib.crc32(buf[: total - 4]) != message_crc:
            raise StreamFormatError(_position(index), f"{where}: message CRC mismatch", index)
        headers = self._headers(bytes(buf[_PRELUDE: _PRELUDE + headers_len]), index, where)
        payload = bytes(buf[_PRELUDE + headers_len: total - 4])
        del buf[:total]
        self._offset += total
        return Frame(headers, payload)

    @staticmethod
    def _headers(raw: bytes, index: int, where: str) -> tuple[Header, ...]:
        out: list[Header] = []
        seen: set[str] = set()
        pos = 0
        try:
            while pos < len(raw):
                n = raw[pos]
                name = raw[pos + 1: pos + 1 + n].decode("utf-8")
                pos += 1 + n
                kind = raw[pos]
                pos += 1
                if kind in (0, 1):
                    value: Any = kind == 0
                elif kind in _INT_FORMATS:
                    fmt = _INT_FORMATS[kind]
                    (value,) = struct.unpack_from(fmt, raw, pos)
                    pos += struct.calcsize(fmt)
                elif kind in (6, 7):
                    (length,) = struct.unpack_from(">H", raw, pos)
                    value = raw[pos + 2: pos + 2 + length]
                    if len(value) != length:
                        raise IndexError
                    value = value.decode("utf-8") if kind == 7 else bytes(value)
                    pos += 2 + length
                elif kind == 9:
                    if pos + 16 > len(raw):
                        raise IndexError
                    value = uuid.UUID(bytes=raw[pos: pos + 16])
                    pos += 16
                else:
                    raise StreamFormatError(_position(index), f"{where}: header {name!r} has unknown value type {kind}", index)
                if name in seen:
                    raise StreamFormatError(_position(index), f"{where}: header {name!r} appears twice", index)
                seen.add(name)
                out.append(Header(name, kind, value))
        except (IndexError, struct.error, UnicodeDecodeError):
            raise StreamFormatError(_position(index), f"{where}: malformed headers", index) from None
        return tuple(out)


class AwsEventStreamDecoder(_Decoder):
    """AWS event-stream bytes -> ``{"event": eventType, "data": {eventType: payload}}``.

    ``:message-type: event`` frames become events (JSON payload; empty payload = ``{}``, as boto3);
    ``exception`` frames (``:exception-type``, JSON ``{"message": ...}``) and ``error`` frames
    (``:error-code``, ``:error-message``) raise ``ProviderStreamError``.
    """

    def __init__(self) -> None:
        super().__init__()
        self._reader = _FrameReader()

    def _feed(self, out: list[Event], chunk: bytes | str) -> None:
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError(f"an AWS event stream is binary: chunks must be bytes, not {type(chunk).__name__}")
        self._reader.add(bytes(chunk))
        while (frame := self._reader.next_frame(self.count)) is not None:
            out.append(self._event(frame))

    def _close(self, out: list[Event]) -> None:
        if self._reader.pending:
            raise StreamFormatError(_position(self.count), f"the body ends inside an event-stream message ({self._reader.pending} bytes left over)", self.count)

    def _event(self, frame: Frame) -> Event:
        index = self.count
        kind = frame.header(":message-type")
        if kind == "exception":
            error_type = str(frame.header(":exception-type", "exception"))
            raise ProviderStreamError(_position(index), error_type, _exception_message(frame.payload), index)
        if kind == "error":
            raise ProviderStreamError(_position(index), str(frame.header(":error-code", "error")),
                                      str(frame.header(":error-message", "")), index)
        if kind != "event":
            raise StreamFormatError(_position(index), f"unknown :message-type {kind!r}", index)
        name = frame.header(":event-type")
        if not isinstance(name, str) or not name:
            raise StreamFormatError(_position(index), "an event frame without :event-type", index)
        content_type = frame.header(":content-type", "application/json")
        if content_type != "application/json":
            raise StreamFormatError(_position(index), f"event {name}: payload :content-type {content_type!r}, expected application/json", index)
        try:
            text = frame.payload.decode("utf-8")
        except UnicodeDecodeError:
            raise StreamFormatError(_position(index, ".data"), f"event {name}: payload is not UTF-8", index) from None
        payload = _loads(text, index, f"the payload of event {name}") if text else {}
        self.count += 1
        return {"event": name, "data": {name: payload}}


class AwsChunksDecoder(AwsEventStreamDecoder):
    """Bedrock InvokeModelWithResponseStream: AWS event-stream ``chunk`` frames whose payload
    ``{"bytes": base64}`` (botocore's PayloadPart blob) holds one event of the model's own stream —
    for Anthropic's Messages body an Anthropic event — yielded as ``{"event": type, "data": event}``,
    the shape of the provider's own SSE stream. Other keys of the chunk payload (``p`` padding)
    are not kept."""

    def _event(self, frame: Frame) -> Event:
        outer = super()._event(frame)
        index = self.count - 1
        name = outer["event"]
        part = outer["data"][name]
        if name != "chunk" or not isinstance(part, dict) or not isinstance(part.get("bytes"), str):
            raise StreamFormatError(_position(index, ".data"), f"expected a chunk event {{\"bytes\": base64}}, got event {name!r}", index)
        try:
            text = base64.b64decode(part["bytes"], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise StreamFormatError(_position(index, ".data.chunk.bytes"), "not base64 of UTF-8 text", index) from None
        event = _loads(text, index, "the event in chunk.bytes")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise StreamFormatError(_position(index, ".data.chunk.bytes"), "the chunk holds no event with a `type`", index)
        return {"event": event["type"], "data": event}


def _exception_message(payload: bytes) -> str:
    try:
        body = json.loads(payload.decode("utf-8")) if payload else {}
    except ValueError:
        return payload.decode("utf-8", "replace")
    if isinstance(body, dict):
        for key in ("message", "Message"):
            if isinstance(body.get(key), str):
                return body[key]
    return json.dumps(body)


# --- framings: decoder + writer ---------------------------------------------------------------

class _Framing:
    name: str
    content_type: str

    def decoder(self) -> _Decoder:
        raise NotImplementedError

    def encode(self, event: Event, index: int = 0) -> bytes:
        raise NotImplementedError

    def parse(self, chunks: Iterable[bytes | str]) -> Iterator[Event]:
        """Events of a body given as chunks cut anywhere; each as soon as it is complete."""
        decoder = self.decoder()
        for chunk in chunks:
            yield from decoder.feed(chunk)
        yield from decoder.close()

    async def aparse(self, chunks: AsyncIterable[bytes | str]) -> AsyncIterator[Event]:
        """``parse`` over an async iterable (same decoder)."""
        decoder = self.decoder()
        async for chunk in chunks:
            for event in decoder.feed(chunk):
                yield event
        for event in decoder.close():
            yield event

    def write(self, events: Iterable[Event]) -> Iterator[bytes]:
        """One body chunk per event."""
        for index, event in enumerate(events):
            yield self.encode(event, index)

    async def awrite(self, events: AsyncIterable[Event]) -> AsyncIterator[bytes]:
        index = 0
        async for event in events:
            yield self.encode(event, index)
            index += 1

    def __repr__(self) -> str:
        return f"<framing {self.name}>"


def _check_keys(event: Any, index: int, allowed: tuple[str, ...]) -> None:
    if not isinstance(event, dict) or "data" not in event:
        raise StreamFormatError(_position(index), "an event must be a dict with 'data'", index)
    extra = [k for k in event if k not in allowed]
    if extra:
        raise StreamFormatError(_position(index), f"the framing has no place for {', '.join(map(repr, extra))}", index)


class _JsonText:
    """JSON text the way a provider writes it. ``separators`` and ``ensure_ascii`` as in json.dumps;
    ``go_escapes``: Go's encoding/json also escapes <, > and & and U+2028/2029 (Ollama is Go)."""

    _GO = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})

    def __init__(self, separators: tuple[str, str], go_escapes: bool = False) -> None:
        self.separators = separators
        self.go_escapes = go_escapes

    def dumps(self, value: Any, index: int) -> str:
        try:
            text = json.dumps(value, separators=self.separators, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise StreamFormatError(_position(index, ".data"), f"cannot be written as JSON: {exc}", index) from None
        # the characters Go escapes only occur inside JSON strings, where \\u escapes mean the same
        return text.translate(self._GO) if self.go_escapes else text


_COMPACT = (",", ":")


class SseFraming(_Framing):
    """Server-sent events. ``terminator``: a non-JSON ``data`` value the stream may carry
    (``[DONE]``); ``json`` and ``line_end``: how the provider writes each event, for byte-exact
    output (``event: <name>`` line when the event has a name, one ``data:`` line, a blank line)."""

    content_type = "text/event-stream"

    def __init__(self, name: str, *, terminator: str | None = None, json_text: _JsonText = _JsonText(_COMPACT), line_end: str = "\n") -> None:
        self.name = name
        self.terminator = terminator
        self.json_text = json_text
        self.line_end = line_end

    def decoder(self) -> SseDecoder:
        return SseDecoder(self.terminator)

    def encode_text(self, event: Event, index: int = 0) -> str:
        _check_keys(event, index, ("event", "data"))
        nl = self.line_end
        out = ""
        if "event" in event:
            name = event["event"]
            # an empty name would not come back (the parser has no event name then); CR/LF would end the line
            if not isinstance(name, str) or not name or "\r" in name or "\n" in name:
                raise StreamFormatError(_position(index, ".event"), f"not a writable SSE event name: {name!r}", index)
            out = f"event: {name}{nl}"
        data = event["data"]
        if isinstance(data, str):
            if data != self.terminator:
                raise StreamFormatError(_position(index, ".data"), f"a string that is not this framing's terminator ({self.terminator!r}): {data[:40]!r}", index)
            text = data
        else:
            text = self.json_text.dumps(data, index)
        return f"{out}data: {text}{nl}{nl}"

    def encode(self, event: Event, index: int = 0) -> bytes:
        return self.encode_text(event, index).encode("utf-8")


class NdjsonFraming(_Framing):
    """Newline-delimited JSON (``application/x-ndjson``): one compact JSON line per event."""

    content_type = "application/x-ndjson"

    def __init__(self, name: str, *, json_text: _JsonText = _JsonText(_COMPACT)) -> None:
        self.name = name
        self.json_text = json_text

    def decoder(self) -> NdjsonDecoder:
        return NdjsonDecoder()

    def encode_text(self, event: Event, index: int = 0) -> str:
        _check_keys(event, index, ("data",))
        return self.json_text.dumps(event["data"], index) + "\n"

    def encode(self, event: Event, index: int = 0) -> bytes:
        return self.encode_text(event, index).encode("utf-8")


class AwsEventStreamFraming(_Framing):
    """AWS event stream (``application/vnd.amazon.eventstream``). ``encode`` writes the headers in
    the order and form Bedrock sends them (``:event-type``, ``:content-type: application/json``,
    ``:message-type: event``, all strings) and the payload as compact JSON."""

    name = "aws_eventstream"
    content_type = "application/vnd.amazon.eventstream"

    def decoder(self) -> AwsEventStreamDecoder:
        return AwsEventStreamDecoder()

    def encode(self, event: Event, index: int = 0) -> bytes:
        _check_keys(event, index, ("event", "data"))
        name, data = event.get("event"), event["data"]
        if not isinstance(name, str) or not name:
            raise StreamFormatError(_position(index, ".event"), f"an AWS event needs its event type, got {name!r}", index)
        if not isinstance(data, dict) or list(data) != [name]:
            raise StreamFormatError(_position(index, ".data"), f"expected {{{name!r}: payload}} (the boto3 shape)", index)
        payload = _JsonText(_COMPACT).dumps(data[name], index).encode("utf-8")
        headers = (Header(":event-type", 7, name), Header(":content-type", 7, "application/json"), Header(":message-type", 7, "event"))
        return encode_frame(headers, payload)

    def encode_exception(self, error_type: str, message: str) -> bytes:
        """An exception frame, as AWS sends for throttling, validation errors, ..."""
        headers = (Header(":exception-type", 7, error_type), Header(":content-type", 7, "application/json"),
                   Header(":message-type", 7, "exception"))
        return encode_frame(headers, json.dumps({"message": message}, separators=_COMPACT, ensure_ascii=False).encode("utf-8"))


class AwsChunksFraming(AwsEventStreamFraming):
    """Bedrock InvokeModelWithResponseStream (``AwsChunksDecoder``): each event goes out as a
    ``chunk`` frame whose payload is ``{"bytes": base64 of the event's compact JSON}``."""

    name = "aws_eventstream_chunks"

    def decoder(self) -> AwsChunksDecoder:
        return AwsChunksDecoder()

    def encode(self, event: Event, index: int = 0) -> bytes:
        _check_keys(event, index, ("event", "data"))
        data = event["data"]
        if not isinstance(data, dict) or event.get("event", data.get("type")) != data.get("type"):
            raise StreamFormatError(_position(index, ".event"), "the event name must be its data's `type`", index)
        raw = _JsonText(_COMPACT).dumps(data, index).encode("utf-8")
        return super().encode({"event": "chunk", "data": {"chunk": {"bytes": base64.b64encode(raw).decode("ascii")}}}, index)


# Byte forms checked against recordings: OpenAI Chat (openai-python inline snapshots), Anthropic
# (anthropic-sdk-python tests/lib/streaming/fixtures), Cohere v2 (openllmetry cassette) write compact
# JSON (",", ":") with LF line ends; Gemini alt=sse separates items with "," but keys with ": " and
# ends each event with CRLF CRLF (crewAI / pydantic-ai cassettes); Bedrock's binary frames carry the
# three string headers above and compact JSON (openllmetry cassette: re-encoding its events gives the
# recorded bytes).
FRAMING_BY_NAME: dict[str, _Framing] = {
    # event names, no terminator: Anthropic Messages, OpenAI Responses
    "sse": SseFraming("sse"),
    # data (event names possible, e.g. Groq's `event: error`), closed by `data: [DONE]`:
    # OpenAI Chat and every compatible server, Mistral; Cohere v2 (event names and [DONE])
    "sse_done": SseFraming("sse_done", terminator="[DONE]"),
    # :streamGenerateContent?alt=sse: data only, no terminator
    "gemini_sse": SseFraming("gemini_sse", json_text=_JsonText((",", ": ")), line_end="\r\n"),
    # Ollama /api/chat (a Go server)
    "ndjson_go": NdjsonFraming("ndjson_go", json_text=_JsonText(_COMPACT, go_escapes=True)),
    # Cohere v1 /v1/chat stream (the SDK reads it line by line: cohere base_client chat_stream iter_lines)
    "ndjson": NdjsonFraming("ndjson"),
    # Bedrock ConverseStream
    "aws_eventstream": AwsEventStreamFraming(),
    # Bedrock InvokeModelWithResponseStream: the model's own events, base64 in `chunk` frames
    "aws_eventstream_chunks": AwsChunksFraming(),
}
