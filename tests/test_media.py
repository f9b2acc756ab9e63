"""Documents, audio, video and files (IR FilePart) and provider file ids, in every provider.

Shapes from the official SDK types: anthropic.types.DocumentBlockParam / FileImageSourceParam /
SearchResultBlockParam / ToolReferenceBlockParam; google.genai.types.Blob / FileData /
FunctionResponsePart; botocore bedrock-runtime DocumentBlock / VideoBlock / AudioBlock;
openai.types.chat ChatCompletionContentPartInputAudioParam / File;
openai.types.responses ResponseInputFileParam / ResponseInputImageParam (file_id).
"""

from __future__ import annotations

import warnings

import pytest

import toolwire
from toolwire import ir

from sdk_validation import validate

PDF = "JVBERi0xLjQKJSVFT0YK"
MP3 = "SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4Ljc2LjEwMAAAAAAAAAAAAAAA"


def convert(payload, source, target, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = toolwire.convert(payload, source=source, target=target, **kw)
    return out, [str(w.message) for w in caught]


def round_trips(payload, provider):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert toolwire.convert(payload, source=provider, target=provider) == payload


def gemini_user(*parts):
    return {"contents": [{"role": "user", "parts": [{"text": "What is in it?"}, *parts]}]}


def test_a_gemini_pdf_is_a_file_part_and_never_becomes_an_image():
    body = gemini_user({"inlineData": {"mimeType": "application/pdf", "data": PDF}})
    part = toolwire.to_ir(body, provider="gemini").messages[0].parts[1]
    assert type(part) is ir.FilePart and part.media_type == "application/pdf" and part.data == PDF
    round_trips(body, "gemini")
    anthropic, _ = convert(body, "gemini", "anthropic", model="claude-sonnet-4-5")
    assert anthropic["messages"][0]["content"][1] == {
        "type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}}
    bedrock, warns = convert(body, "gemini", "bedrock_converse")
    assert bedrock["messages"][0]["content"][1] == {"document": {"format": "pdf", "name": "document", "source": {"bytes": PDF}}}
    assert any("name is required" in w for w in warns)
    chat, _ = convert(body, "gemini", "openai_chat", model="gpt-4.1")
    assert chat["messages"][0]["content"][1] == {"type": "file", "file": {"file_data": "data:application/pdf;base64," + PDF}}
    for target, out in (("anthropic", anthropic), ("bedrock_converse", bedrock), ("openai_chat", chat)):
        assert validate(target, "request", out) == []


def test_images_stay_images_by_their_media_type():
    body = gemini_user({"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
                       {"fileData": {"mimeType": "video/mp4", "fileUri": "gs://bucket/clip.mp4"}})
    parts = toolwire.to_ir(body, provider="gemini").messages[0].parts
    assert [type(p) for p in parts] == [ir.TextPart, ir.ImagePart, ir.FilePart]
    round_trips(body, "gemini")


@pytest.mark.parametrize("target", ["anthropic", "cohere", "groq", "fireworks", "deepseek", "ollama", "mistral"])
def test_a_part_the_target_has_no_place_for_is_dropped_whole_and_reported(target):
    body = gemini_user({"inlineData": {"mimeType": "audio/mpeg", "data": MP3}})
    out, warns = convert(body, "gemini", target, model="m-1")
    assert MP3 not in str(out)
    assert any("FilePart" in w for w in warns), warns
    assert validate(target, "request", out) == []
    with pytest.raises(toolwire.LossError):
        toolwire.convert(body, source="gemini", target=target, model="m-1", strict=True)


def test_openai_chat_audio_and_files_round_trip_and_convert():
    body = {"model": "gpt-4o-audio-preview", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Listen and read."},
        {"type": "input_audio", "input_audio": {"data": MP3, "format": "mp3"}},
        {"type": "file", "file": {"file_data": "data:application/pdf;base64," + PDF, "filename": "a.pdf"}},
        {"type": "file", "file": {"file_id": "file-abc123"}},
    ]}]}
    assert validate("openai_chat", "request", body) == []
    round_trips(body, "openai_chat")
    gemini, warns = convert(body, "openai_chat", "gemini")
    assert gemini["contents"][0]["parts"][1:] == [
        {"inlineData": {"mimeType": "audio/mpeg", "data": MP3}},
        {"inlineData": {"mimeType": "application/pdf", "data": PDF}},
    ]
    assert any("filename" in w for w in warns) and any("cannot express FilePart" in w for w in warns)
    responses, warns = convert(body, "openai_chat", "openai_responses")
    content = responses["input"][0]["content"]
    assert [c["type"] for c in content] == ["input_text", "input_file", "input_file"]  # no audio in Responses
    assert content[2]["file_id"] == "file-abc123"
    assert any("FilePart (audio/mpeg)" in w for w in warns)
    anthropic, warns = convert(body, "openai_chat", "anthropic")
    assert anthropic["messages"][0]["content"][2:] == [{"type": "document", "source": {"type": "file", "file_id": "file-abc123"}}]
    assert any("file id 'file-abc123' is sent as is: it must be a file uploaded to anthropic" in w for w in warns)


def test_responses_image_by_file_id_round_trips():
    body = {"model": "gpt-4.1", "input": [{"role": "user", "content": [
        {"type": "input_text", "text": "Describe it."},
        {"type": "input_image", "file_id": "file-BVTjj4", "detail": "auto"},
        {"type": "input_file", "file_url": "https://example.com/a.pdf"},
    ]}]}
    assert validate("openai_responses", "request", body) == []
    round_trips(body, "openai_responses")
    image = toolwire.to_ir(body, provider="openai_responses").messages[0].parts[1]
    assert type(image) is ir.ImagePart and image.file_id == "file-BVTjj4" and image.url is None
    gemini, warns = convert(body, "openai_responses", "gemini")
    assert gemini["contents"][0]["parts"][1:] == [{"fileData": {"fileUri": "https://example.com/a.pdf"}}]
    assert any("cannot express" in w and "ImagePart" in w for w in warns)


def test_anthropic_documents_file_sources_and_opaque_result_blocks_round_trip():
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "Read these."},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "plain words"}, "title": "notes"},
            {"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"}},
            {"type": "image", "source": {"type": "file", "file_id": "file_011C"}},
        ]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}},
            {"type": "search_result", "source": "https://example.com", "title": "t", "content": [{"type": "text", "text": "x"}]},
            {"type": "tool_reference", "tool_name": "lookup"},
        ]}]},
    ], "tools": [{"name": "search", "input_schema": {"type": "object"}}]}
    assert validate("anthropic", "request", body) == []
    round_trips(body, "anthropic")
    text_doc = toolwire.to_ir(body, provider="anthropic").messages[0].parts[1]
    assert type(text_doc) is ir.FilePart and text_doc.media_type == "text/plain" and text_doc.filename == "notes"
    gemini, warns = convert(body, "anthropic", "gemini")
    response = gemini["contents"][2]["parts"][0]["functionResponse"]
    assert response["parts"] == [{"inlineData": {"mimeType": "application/pdf", "data": PDF}}]
    assert any("search_result" in w for w in warns) and any("tool_reference" in w for w in warns)


def test_bedrock_documents_videos_and_audio_round_trip_with_s3_locations():
    body = {"messages": [{"role": "user", "content": [
        {"text": "Watch and read."},
        {"document": {"format": "pdf", "name": "Document 1", "source": {"s3Location": {"uri": "s3://bucket-1/d.pdf"}}}},
        {"video": {"format": "mp4", "source": {"s3Location": {"uri": "s3://bucket-1/v.mp4"}}}},
        {"audio": {"format": "mp3", "source": {"bytes": MP3}}},
        {"document": {"format": "md", "name": "notes", "source": {"text": "# hi"}}},
    ]}]}
    assert validate("bedrock_converse", "request", body) == []
    round_trips(body, "bedrock_converse")
    parts = toolwire.to_ir(body, provider="bedrock_converse").messages[0].parts
    assert [p.media_type for p in parts[1:]] == ["application/pdf", "video/mp4", "audio/mpeg", "text/markdown"]
    # an http(s) URL is not an s3 location: the part is dropped, not half-built
    http = {"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Read."}, {"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"}}]}]}
    out, warns = convert(http, "anthropic", "bedrock_converse")
    assert out["messages"][0]["content"] == [{"text": "Read."}]
    assert any("cannot express FilePart" in w for w in warns)


# An OpenAI Chat `file` part whose file_data is a URL: OpenAI documents file_data as base64 file data
# (openai.types.chat ChatCompletionContentPartParam File.file_data, "The base64 encoded file data");
# OpenRouter takes PDF URLs there (https://openrouter.ai/docs/features/multimodal/pdfs). Recorded in
# pydantic-ai's test_openrouter_document_url_no_force_download cassette.
PDF_URL = "https://www.w3.org/WAI/ER/tests/xhtml/testfiles/resources/pdf/dummy.pdf"
URL_FILE_BODY = {"model": "openai/gpt-4.1-mini", "messages": [{"role": "user", "content": [
    {"type": "text", "text": "What is the main content of this document?"},
    {"type": "file", "file": {"file_data": PDF_URL, "filename": "filename.pdf"}},
]}]}


def test_a_url_in_chat_file_data_is_the_parts_url_and_comes_back_identical():
    part = toolwire.to_ir(URL_FILE_BODY, provider="openai_chat").messages[0].parts[1]
    assert (part.url, part.data, part.media_type, part.filename) == (PDF_URL, None, "application/pdf", "filename.pdf")
    round_trips(URL_FILE_BODY, "openai_chat")


@pytest.mark.parametrize("target, expected", [
    ("anthropic", {"type": "document", "source": {"type": "url", "url": PDF_URL}, "title": "filename.pdf"}),
    ("gemini", {"fileData": {"mimeType": "application/pdf", "fileUri": PDF_URL}}),
    ("openai_responses", {"type": "input_file", "file_url": PDF_URL, "filename": "filename.pdf"}),
    ("mistral", {"type": "document_url", "document_url": PDF_URL, "document_name": "filename.pdf"}),
])
def test_a_url_in_chat_file_data_goes_where_the_target_takes_urls(target, expected):
    out, _ = convert(URL_FILE_BODY, "openai_chat", target, model="m-1")
    messages = out.get("messages") or out.get("contents") or out.get("input")
    content = messages[0].get("content") or messages[0].get("parts")
    assert content[1] == expected
    assert validate(target, "request", out) == []


def test_a_url_in_chat_file_data_is_dropped_and_reported_where_the_target_takes_no_urls():
    out, warns = convert(URL_FILE_BODY, "openai_chat", "bedrock_converse")
    assert PDF_URL not in str(out) and any("FilePart (application/pdf)" in w for w in warns)
    assert validate("bedrock_converse", "request", out) == []


def test_a_document_url_from_elsewhere_is_not_sent_as_chat_file_data():
    # OpenAI's file_data takes base64 only: an Anthropic URL document is dropped and reported
    body = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Read it."}, {"type": "document", "source": {"type": "url", "url": PDF_URL}}]}]}
    out, warns = convert(body, "anthropic", "openai_chat")
    assert PDF_URL not in str(out) and any("cannot express FilePart" in w for w in warns)


def test_bare_base64_file_data_gets_its_media_type_from_the_bytes():
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Read it."}, {"type": "file", "file": {"file_data": PDF, "filename": "a.pdf"}}]}]}
    assert toolwire.to_ir(body, provider="openai_chat").messages[0].parts[1].media_type == "application/pdf"
    round_trips(body, "openai_chat")
    anthropic, _ = convert(body, "openai_chat", "anthropic")
    assert anthropic["messages"][0]["content"][1]["source"] == {"type": "base64", "media_type": "application/pdf", "data": PDF}
    assert validate("anthropic", "request", anthropic) == []


def test_base64_data_of_unknown_media_type_is_not_sent_to_anthropic_as_an_octet_stream_document():
    # Anthropic base64 documents are application/pdf (DocumentBlockParam Base64PDFSourceParam); a file of
    # unknown type is dropped and reported rather than sent with a media type the API rejects
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Read it."}, {"type": "file", "file": {"file_data": "AAECAwQF", "filename": "blob"}}]}]}
    out, warns = convert(body, "openai_chat", "anthropic")
    assert "AAECAwQF" not in str(out) and any("cannot express FilePart" in w for w in warns)
    assert validate("anthropic", "request", out) == []


def test_a_part_of_a_media_type_the_variant_takes_from_nowhere_else_round_trips_through_it():
    # Recorded (pydantic-ai test_multimodal_tool_return_matrix, openai_responses): an mp3 as a
    # Responses input_file (ResponseInputFileParam takes any file_data). Converted elsewhere, Responses
    # has no audio input and drops such a part (reported); its own part goes back as it came.
    part = {"file_data": "data:audio/mpeg;base64," + MP3, "filename": "filename.mp3", "type": "input_file"}
    body = {"model": "gpt-4.1", "input": [{"role": "user", "content": [part]}]}
    round_trips(body, "openai_responses")
    gemini, _ = convert(body, "openai_responses", "gemini")
    back, warns = convert(gemini, "gemini", "openai_responses", model="gpt-4.1")
    assert MP3 not in str(back) and any("FilePart (audio/mpeg)" in w for w in warns)
