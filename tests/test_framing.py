"""Stream wire framing (runtime/toolwire_runtime/framing.py): raw bodies <-> events.

Every recorded stream of ``../shared/streams`` (read in place; skipped when absent) is written with
its wire family's framing and parsed back from chunks cut at random places and byte by byte; plus
one focused test per SSE / NDJSON / AWS event-stream rule.
"""

from __future__ import annotations

import asyncio
import json
import random
import struct
import uuid
import zlib
from pathlib import Path

import pytest

from toolwire import stream
from toolwire_runtime import framing as F
from toolwire_runtime.errors import ConversionError, ProviderStreamError, StreamFormatError

STREAMS = Path(__file__).resolve().parents[2] / "shared" / "streams"
CORPUS = sorted(p.name for p in STREAMS.glob("*.json")) if STREAMS.is_dir() else []
needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/streams is not present")

SSE, DONE, GEMINI, NDJSON, AWS = (F.FRAMING_BY_NAME[n] for n in ("sse", "sse_done", "gemini_sse", "ndjson_go", "aws_eventstream"))


def cut(body: bytes, seed: int) -> list[bytes]:
    """The body in chunks of random sizes (1 to 64 bytes), so cuts fall anywhere."""
    rng = random.Random(seed)
    out, pos = [], 0
    while pos < len(body):
        n = rng.randint(1, 64)
        out.append(body[pos: pos + n])
        pos += n
    return out


def parse(framing, body: bytes | str, chunk: int | None = None) -> list[dict]:
    if chunk is None:
        return list(framing.parse([body]))
    return list(framing.parse([body[i: i + chunk] for i in range(0, len(body), chunk)]))


def error_of(framing, body, **kw) -> ConversionError:
    with pytest.raises(ConversionError) as info:
        parse(framing, body, **kw)
    return info.value


# --- the corpus -------------------------------------------------------------------------------

def _load(name: str) -> dict:
    return json.loads((STREAMS / name).read_text(encoding="utf-8"))


@needs_corpus
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_stream_round_trips(name):
    doc = _load(name)
    if doc.get("kind") == "non_stream_reference":
        pytest.skip("a complete response, not a stream")
    framing = stream.framing(doc["provider"])  # the provider's spec: `stream: {framing: ...}`
    events = doc["events"]
    chunks = list(framing.write(events))
    assert len(chunks) == len(events)  # one chunk per event
    body = b"".join(chunks)
    for seed in range(3):
        parsed = list(framing.parse(cut(body, seed)))
        assert json.dumps(parsed) == json.dumps(events)  # key order kept too
    if len(body) < 20_000:
        assert list(framing.parse(body[i: i + 1] for i in range(len(body)))) == events


@needs_corpus
def test_corpus_covers_every_framing():
    used = {stream.FRAMINGS[_load(n)["provider"]] for n in CORPUS if _load(n).get("kind") != "non_stream_reference"}
    assert used == {"sse", "sse_done", "gemini_sse", "ndjson_go", "aws_eventstream"}


def test_every_provider_names_its_framing_or_why_it_has_none():
    import toolwire

    assert set(stream.FRAMINGS) | set(stream.NO_STREAM) == set(toolwire.PROVIDERS)
    assert all(name in F.FRAMING_BY_NAME for name in stream.FRAMINGS.values())
    assert stream.FRAMINGS["groq"] == "sse_done" and stream.FRAMINGS["vertex"] == "gemini_sse"  # flavours inherit
    assert stream.FRAMINGS["anthropic_bedrock"] == "aws_eventstream_chunks"  # overrides anthropic's sse


def test_a_provider_without_a_framing_says_why(monkeypatch):
    monkeypatch.delitem(stream.FRAMINGS, "ollama")
    monkeypatch.setitem(stream.NO_STREAM, "ollama", "the reason its spec gives")
    with pytest.raises(ValueError, match="reads no stream of 'ollama' yet: the reason its spec gives"):
        stream.framing("ollama")
    with pytest.raises(ValueError, match="did you mean 'anthropic'"):
        stream.framing("anthropc")


def test_public_api_takes_a_whole_body_chunks_or_an_async_stream():
    events = [{"event": "ping", "data": {"type": "ping"}}, {"event": "message_stop", "data": {"type": "message_stop"}}]
    body = b"".join(stream.write(events, provider="anthropic"))
    assert body == b'event: ping\ndata: {"type":"ping"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n'
    assert list(stream.parse(body, provider="anthropic")) == events
    assert list(stream.parse(body.decode(), provider="anthropic")) == events
    assert list(stream.parse(cut(body, 1), provider="anthropic")) == events

    async def chunks():
        for c in cut(body, 2):
            yield c

    async def run():
        got = [e async for e in stream.aparse(chunks(), provider="anthropic")]
        async def evs():
            for e in got:
                yield e
        return got, b"".join([c async for c in stream.awrite(evs(), provider="anthropic")])

    assert asyncio.run(run()) == (events, body)


# --- writers: the providers' byte forms -------------------------------------------------------

def test_writers_byte_forms():
    ev = {"event": "content_block_stop", "data": {"type": "content_block_stop", "index": 1}}
    assert SSE.encode(ev) == b'event: content_block_stop\ndata: {"type":"content_block_stop","index":1}\n\n'
    assert DONE.encode({"data": {"a": "é"}}) == 'data: {"a":"é"}\n\n'.encode()  # raw UTF-8, as providers send
    assert DONE.encode({"data": "[DONE]"}) == b"data: [DONE]\n\n"
    assert GEMINI.encode({"data": {"candidates": [{"index": 0, "x": [1, 2]}]}}) == b'data: {"candidates": [{"index": 0,"x": [1,2]}]}\r\n\r\n'
    assert NDJSON.encode({"data": {"content": "<a & b>\u2028"}}) == b'{"content":"\\u003ca \\u0026 b\\u003e\\u2028"}\n'
    assert F.FRAMING_BY_NAME["ndjson"].encode({"data": {"content": "<&>"}}) == b'{"content":"<&>"}\n'
    assert SSE.encode_text(ev).startswith("event: ")


@pytest.mark.parametrize("framing, event, where", [
    (SSE, {"data": "[DONE]"}, "events[0].data"),  # no terminator in Anthropic / Responses streams
    (DONE, {"data": "hello"}, "events[0].data"),
    (SSE, {"event": "a\nb", "data": {}}, "events[0].event"),
    (SSE, {"event": "", "data": {}}, "events[0].event"),
    (SSE, {"event": "x", "data": {}, "id": "7"}, "events[0]"),  # nothing dropped silently
    (SSE, {"data": float("nan")}, "events[0].data"),
    (NDJSON, {"event": "x", "data": {}}, "events[0]"),
    (AWS, {"event": "messageStart", "data": {"other": {}}}, "events[0].data"),
    (AWS, {"data": {"messageStart": {}}}, "events[0].event"),
])
def test_writers_refuse_what_would_not_come_back(framing, event, where):
    with pytest.raises(StreamFormatError) as info:
        framing.encode(event)
    assert info.value.path == where


def test_writer_position_is_the_event_index():
    with pytest.raises(StreamFormatError) as info:
        list(DONE.write([{"data": {}}, {"data": {}}, {"data": "oops"}]))
    assert info.value.path == "events[2].data" and info.value.index == 2


# --- SSE rules --------------------------------------------------------------------------------

def test_sse_line_ends_lf_crlf_cr_mixed():
    body = b'event: a\r\ndata: {"x":1}\r\n\r\ndata: 2\r\rdata: 3\n\r\nevent: b\rdata: "s"\r\n\n'
    expected = [{"event": "a", "data": {"x": 1}}, {"data": 2}, {"data": 3}, {"event": "b", "data": "s"}]
    assert parse(SSE, body) == expected
    for size in range(1, 9):  # every cut, inside CRLF too: a CR at a chunk end waits for the next byte
        assert parse(SSE, body, size) == expected


def test_sse_crlf_split_is_one_line_end():
    # "\r" then "\n" in the next chunk is one line end; were it two, the blank line between would
    # dispatch {"a": and fail as JSON
    assert list(SSE.parse([b'data: {"a":\r', b'\ndata: 1}\r', b'\n\r', b'\n'])) == [{"data": {"a": 1}}]


def test_sse_multiline_data_joined_with_lf():
    assert parse(SSE, b'data: ["a",\ndata: "b"]\n\n') == [{"data": ["a", "b"]}]
    dec = F.SseDecoder(terminator="x\ny")
    assert dec.feed(b"data: x\ndata: y\n\n") == [{"data": "x\ny"}]  # joined with exactly one LF


def test_sse_comments_id_retry_unknown_fields():
    body = b': keep-alive\n:\nid: 42\nretry: 3000\nfoo: bar\nevent: ping\ndata: {"type":"ping"}\n\nid\nretry: x\n\n'
    dec = SSE.decoder()
    assert dec.feed(body) + dec.close() == [{"event": "ping", "data": {"type": "ping"}}]
    assert dec.last_event_id == "" and dec.retry == 3000  # `id` with no value resets it; a bad retry is ignored
    dec = SSE.decoder()
    dec.feed(b"id: 7\n\n")
    assert dec.last_event_id == "7"


def test_sse_leading_bom_skipped_once():
    bom = "\ufeff".encode()
    assert parse(SSE, bom + b"data: 1\n\n", 1) == [{"data": 1}]  # split inside the BOM's bytes too
    # a second BOM is not at the start of the stream: it is part of the field name, an unknown field
    assert parse(SSE, bom + bom + b"data: 1\n\n") == []
    assert parse(SSE, "\ufeffdata: 1\n\n") == [{"data": 1}]  # str input


def test_sse_one_optional_space_after_colon():
    assert parse(SSE, b'event:x\ndata:{"a":"b"}\n\n') == [{"event": "x", "data": {"a": "b"}}]
    # only one space is removed: the second belongs to the value (harmless JSON whitespace here)
    assert parse(SSE, b'event:  x\ndata:  1\n\n') == [{"event": " x", "data": 1}]
    # a bare field name is the field with an empty value, and data "" is not JSON: an error, not nothing
    assert isinstance(error_of(SSE, b"data\n\n"), StreamFormatError)


def test_sse_dataless_blocks_dispatch_nothing_and_reset_the_name():
    assert parse(SSE, b"event: a\n\nevent: b\nid: 1\n\ndata: 1\n\n") == [{"data": 1}]


def test_sse_last_block_without_blank_line_is_dispatched():
    assert parse(SSE, b'event: message_stop\ndata: {"type":"message_stop"}') == [{"event": "message_stop", "data": {"type": "message_stop"}}]
    assert parse(SSE, b'data: 1\r') == [{"data": 1}]  # a CR at the very end still ends the line


def test_sse_utf8_split_anywhere():
    text = '{"t":"héllo 世界 🙂"}'
    body = f"data: {text}\n\n".encode()
    for size in (1, 2, 3):
        assert parse(DONE, body, size) == [{"data": json.loads(text)}]
    assert list(DONE.parse(["data: ", '{"t":', '"🙂"}\n', "\n"])) == [{"data": {"t": "🙂"}}]  # str chunks


def test_sse_terminator_only_where_the_framing_has_one():
    assert parse(DONE, b"data: [DONE]\n\n") == [{"data": "[DONE]"}]
    err = error_of(SSE, b"data: {}\n\ndata: [DONE]\n\n")
    assert isinstance(err, StreamFormatError) and err.path == "events[1].data" and err.index == 1


def test_sse_non_json_data_error_carries_position():
    body = b'data: {"a":1}\n\n: ping\n\ndata: {"a":\n\n'
    err = error_of(DONE, body, chunk=3)
    assert isinstance(err, StreamFormatError) and err.index == 1 and err.path == "events[1].data"
    assert "ending at line 6" in str(err) and "not JSON" in str(err)
    for bad in (b"data: NaN\n\n", b"data: {'a': 1}\n\n", b"data: DONE\n\n"):
        assert isinstance(error_of(DONE, bad), StreamFormatError)


def test_events_before_an_error_in_the_same_chunk_are_delivered_first():
    for framing, body in ((DONE, b"data: 1\n\ndata: 2\n\ndata: x\n\ndata: 4\n\n"), (NDJSON, b"1\n2\nx\n4\n")):
        got = []
        with pytest.raises(StreamFormatError) as info:
            got.extend(framing.parse([body]))
        assert got == [{"data": 1}, {"data": 2}] and info.value.index == 2
        dec = framing.decoder()
        assert dec.feed(body) == [{"data": 1}, {"data": 2}]
        with pytest.raises(StreamFormatError):  # the error comes with the next call
            dec.close()


def test_sse_invalid_utf8_is_an_error():
    err = error_of(SSE, b'data: {"a":"\xff"}\n\n')
    assert isinstance(err, StreamFormatError) and "byte 12" in str(err)
    assert "inside a UTF-8 character" in str(error_of(SSE, "data: 1\n\n".encode() + "é".encode()[:1]))


def test_sse_events_come_as_soon_as_complete():
    dec = SSE.decoder()
    assert dec.feed(b"data: 1\n") == []
    assert dec.feed(b"\ndata: 2\n") == [{"data": 1}]
    assert dec.feed(b"\n") == [{"data": 2}]
    assert dec.close() == []


def test_groq_error_event_inside_a_data_only_stream():
    # the same parser for every SSE framing: an `event:` line in an OpenAI-style stream is kept
    body = b'data: {"id":"c"}\n\nevent: error\ndata: {"error":{"message":"m"}}\n\n'
    assert parse(DONE, body) == [{"data": {"id": "c"}}, {"event": "error", "data": {"error": {"message": "m"}}}]


# --- NDJSON -----------------------------------------------------------------------------------

def test_ndjson_blank_lines_crlf_and_last_line_without_lf():
    body = b'{"a":1}\r\n\n  \r\n{"a":2}\n\n{"done":true}'
    expected = [{"data": {"a": 1}}, {"data": {"a": 2}}, {"data": {"done": True}}]
    for size in (None, 1, 2, 5):
        assert parse(NDJSON, body, size) == expected


def test_ndjson_truncated_last_line_is_an_error_with_position():
    err = error_of(NDJSON, b'{"a":1}\n\n{"a":2}\n{"message":{"con', chunk=4)
    assert isinstance(err, StreamFormatError) and err.index == 2 and err.path == "events[2].data"
    assert "line 4" in str(err)


def test_ndjson_utf8_split():
    body = '{"c":"世界"}\n'.encode()
    assert parse(NDJSON, body, 1) == [{"data": {"c": "世界"}}]


# --- AWS event stream -------------------------------------------------------------------------

EVENTS = [
    {"event": "messageStart", "data": {"messageStart": {"role": "assistant"}}},
    {"event": "contentBlockDelta", "data": {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "héllo 🙂"}, "p": "abc"}}},
    {"event": "messageStop", "data": {"messageStop": {"stopReason": "end_turn"}}},
]


def test_aws_round_trip_and_split_anywhere():
    body = b"".join(AWS.write(EVENTS))
    for size in range(1, 20):
        assert parse(AWS, body, size) == EVENTS


def test_aws_encoding_agrees_with_botocore():
    eventstream = pytest.importorskip("botocore.eventstream")  # botocore only checks, never at run time
    buf = eventstream.EventStreamBuffer()
    buf.add_data(b"".join(AWS.write(EVENTS)))
    messages = list(buf)
    assert [m.headers for m in messages] == [
        {":event-type": e["event"], ":content-type": "application/json", ":message-type": "event"} for e in EVENTS]
    assert [json.loads(m.payload) for m in messages] == [e["data"][e["event"]] for e in EVENTS]


def test_aws_every_header_type_round_trips_and_agrees_with_botocore():
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    headers = (F.Header("t", 0, True), F.Header("f", 1, False), F.Header("b", 2, -3), F.Header("s", 3, -300),
               F.Header("i", 4, -70000), F.Header("l", 5, -(2 ** 40)), F.Header("ba", 6, b"\x00\xff"),
               F.Header("str", 7, "héllo"), F.Header("ts", 8, 1700000000000), F.Header("u", 9, u))
    frame = F.encode_frame(headers, b"payload")
    assert F.decode_frame(frame) == F.Frame(headers, b"payload")
    assert F.encode_frame(F.decode_frame(frame).headers, b"payload") == frame  # byte-exact
    eventstream = pytest.importorskip("botocore.eventstream")
    buf = eventstream.EventStreamBuffer()
    buf.add_data(frame)
    (message,) = list(buf)
    assert message.headers == {"t": True, "f": False, "b": -3, "s": -300, "i": -70000, "l": -(2 ** 40),
                               "ba": b"\x00\xff", "str": "héllo", "ts": 1700000000000, "u": u.bytes}
    assert message.payload == b"payload"


def _flip(body: bytes, pos: int) -> bytes:
    return body[:pos] + bytes([body[pos] ^ 0x01]) + body[pos + 1:]


def test_aws_bad_crcs_and_truncation_are_errors_with_position():
    body = b"".join(AWS.write(EVENTS))
    second = len(AWS.encode(EVENTS[0]))
    err = error_of(AWS, _flip(body, second + 9))  # the second frame's prelude CRC
    assert isinstance(err, StreamFormatError) and err.index == 1 and "prelude CRC" in str(err)
    assert f"byte {second}" in str(err)
    err = error_of(AWS, _flip(body, second + 40), chunk=7)  # a header byte of the second frame
    assert isinstance(err, StreamFormatError) and err.index == 1 and "message CRC" in str(err)
    err = error_of(AWS, _flip(body, len(body) - 1))  # the last frame's message CRC itself
    assert err.index == 2 and "message CRC" in str(err)
    err = error_of(AWS, body[:-5], chunk=3)
    assert isinstance(err, StreamFormatError) and err.index == 2 and "ends inside" in str(err)
    err = error_of(AWS, body + b"\x00\x00")  # stray bytes after the last frame
    assert err.index == 3


def test_aws_impossible_lengths_and_bad_headers():
    prelude = struct.pack(">II", 10, 0)  # shorter than a prelude plus CRC
    err = error_of(AWS, prelude + struct.pack(">I", zlib.crc32(prelude)))
    assert isinstance(err, StreamFormatError) and "impossible lengths" in str(err)
    bad_type = b"\x01x\x0a"  # header type 10 does not exist
    err = error_of(AWS, _raw_frame(bad_type, b"{}"))
    assert "unknown value type 10" in str(err)
    err = error_of(AWS, _raw_frame(b"\x01x\x07\x00\x09ab", b"{}"))  # string longer than the headers
    assert "malformed headers" in str(err)
    dup = F.encode_frame((F.Header("a", 0, True), F.Header("a", 1, False)), b"")
    assert "appears twice" in str(error_of(AWS, dup))


def _raw_frame(headers: bytes, payload: bytes) -> bytes:
    prelude = struct.pack(">II", 12 + len(headers) + len(payload) + 4, len(headers))
    message = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
    return message + struct.pack(">I", zlib.crc32(message))


def test_aws_exception_frame_raises_with_the_providers_message():
    body = AWS.encode(EVENTS[0]) + AWS.encode_exception("throttlingException", "Too many requests, please wait.")
    got = []
    with pytest.raises(ProviderStreamError) as info:
        got.extend(AWS.parse([body]))  # the event and the exception in one chunk
    assert got == [EVENTS[0]]  # the event before the exception is delivered first
    err = info.value
    assert err.error_type == "throttlingException" and err.provider_message == "Too many requests, please wait."
    assert err.index == 1 and err.path == "events[1]" and "Too many requests" in str(err)
    assert isinstance(err, ConversionError)


def test_aws_error_frame_and_other_message_types():
    error = F.encode_frame((F.Header(":message-type", 7, "error"), F.Header(":error-code", 7, "InternalError"),
                            F.Header(":error-message", 7, "boom")), b"")
    err = error_of(AWS, error)
    assert isinstance(err, ProviderStreamError) and err.error_type == "InternalError" and err.provider_message == "boom"
    weird = F.encode_frame((F.Header(":message-type", 7, "gossip"),), b"{}")
    assert "unknown :message-type" in str(error_of(AWS, weird))
    no_type = F.encode_frame((F.Header(":message-type", 7, "event"),), b"{}")
    assert "without :event-type" in str(error_of(AWS, no_type))
    not_json = F.encode_frame((F.Header(":event-type", 7, "x"), F.Header(":message-type", 7, "event")), b"{nope")
    err = error_of(AWS, not_json)
    assert isinstance(err, StreamFormatError) and err.path == "events[0].data"
    empty = F.encode_frame((F.Header(":event-type", 7, "x"), F.Header(":message-type", 7, "event")), b"")
    assert parse(AWS, empty) == [{"event": "x", "data": {"x": {}}}]  # as boto3: no members = {}


def test_aws_is_binary_only():
    with pytest.raises(TypeError):
        parse(AWS, "text")


# --- async variants ---------------------------------------------------------------------------

async def _agen(items):
    for item in items:
        await asyncio.sleep(0)
        yield item


async def _collect(aiter):
    return [x async for x in aiter]


@pytest.mark.parametrize("framing, events", [
    (SSE, [{"event": "a", "data": {"x": "é"}}, {"event": "b", "data": [1]}]),
    (DONE, [{"data": {"x": 1}}, {"data": "[DONE]"}]),
    (GEMINI, [{"data": {"candidates": []}}]),
    (NDJSON, [{"data": {"done": False}}, {"data": {"done": True}}]),
    (AWS, EVENTS),
])
def test_async_parse_and_write_share_the_sync_state_machine(framing, events):
    chunks = asyncio.run(_collect(framing.awrite(_agen(events))))
    assert chunks == list(framing.write(events))
    body = b"".join(chunks)
    assert asyncio.run(_collect(framing.aparse(_agen(cut(body, 7))))) == events
    assert asyncio.run(_collect(framing.aparse(_agen([body[i: i + 1] for i in range(len(body))])))) == events


def test_async_parse_raises_with_position():
    with pytest.raises(StreamFormatError) as info:
        asyncio.run(_collect(NDJSON.aparse(_agen([b'{"a":1}\n{"a"', b":}\n"]))))
    assert info.value.index == 1


# --- Bedrock InvokeModelWithResponseStream: Anthropic events inside AWS `chunk` frames -------------

ANTHROPIC = [n for n in CORPUS if n.startswith("anthropic__")]


@needs_corpus
@pytest.mark.parametrize("name", ANTHROPIC[:12])
def test_anthropic_on_bedrock_stream_round_trips_and_reads_as_the_sdk_reads_it(name):
    from anthropic.lib.bedrock._stream_decoder import AWSEventStreamDecoder  # the official reader

    events = _load(name)["events"]
    body = b"".join(stream.write(events, provider="anthropic_bedrock"))
    assert list(stream.parse(cut(body, 0), provider="anthropic_bedrock")) == events
    sdk = [{"event": e.event, "data": json.loads(e.data)} for e in AWSEventStreamDecoder().iter_bytes(iter(cut(body, 1)))]
    assert sdk == events


def test_anthropic_on_bedrock_chunk_errors_have_positions():
    chunks = F.FRAMING_BY_NAME["aws_eventstream_chunks"]
    good = chunks.encode({"event": "ping", "data": {"type": "ping"}})
    not_chunk = AWS.encode({"event": "other", "data": {"other": {}}})
    bad_b64 = AWS.encode({"event": "chunk", "data": {"chunk": {"bytes": "***"}}})
    untyped = AWS.encode({"event": "chunk", "data": {"chunk": {"bytes": "eyJhIjoxfQ=="}}})  # {"a":1}
    for body, where in ((not_chunk, "events[1].data"), (bad_b64, "events[1].data.chunk.bytes"), (untyped, "events[1].data.chunk.bytes")):
        with pytest.raises(StreamFormatError) as info:
            list(stream.parse(good + body, provider="anthropic_bedrock"))
        assert str(info.value).startswith(where + ":"), str(info.value)
    with pytest.raises(StreamFormatError, match="must be its data's `type`"):
        chunks.encode({"event": "ping", "data": {"type": "pong"}})
