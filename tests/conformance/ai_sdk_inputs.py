"""Hand translations of the AI-SDK-format conformance cases into toolwire IR.

Cases with ``input_format: ai_sdk`` keep the AI SDK's own prompt format because OpenAI Chat cannot
carry what they test. Where the meaning maps onto the IR exactly, the case is translated here by
hand; every other ai_sdk case is classified in ``ai_sdk_divergences.yaml`` (pending or
not_expressible) and never reaches this module.

Translation rules (the same for every case):

- ``providerOptions.google.thoughtSignature`` / ``providerOptions.vertex.thoughtSignature`` on a
  tool call is Gemini provider data: ``ProviderData(provider="gemini", fields={"thoughtSignature": …})``,
  exactly what ``toolwire.to_ir`` makes of a Gemini ``functionCall`` part that carries one.
- A tool output ``{"type": "error-text", "value": v}`` is ``ToolResult(result=v, is_error=True)``.
- A tool output ``{"type": "content", "value": [text…, file(image/*)…]}`` is
  ``ToolResult(result=None, parts=[TextPart…, ImagePart…])`` in source order — the IR toolwire itself
  builds from an Anthropic ``tool_result`` with text and image blocks.
- A tool call whose ``input`` is undefined has no arguments: ``arguments={}``.
- Tool results with no preceding call in the prompt stay as they are; the test harness supplies
  the call turn (see ``test_conformance_ai_sdk.py``, "orphan results").
"""

from __future__ import annotations

from typing import Callable

from toolwire import ir


def _gemini_signature(signature: str) -> ir.ProviderData:
    return ir.ProviderData(provider="gemini", fields={"thoughtSignature": signature})


def _anthropic_tool_result_image_content() -> ir.Request:
    return ir.Request(
        messages=[
            ir.Message(
                role="tool",
                parts=[
                    ir.ToolResult(
                        tool_call_id="image-gen-1",
                        name="image-generator",
                        parts=[
                            ir.TextPart(text="Image generated successfully"),
                            ir.ImagePart(media_type="image/png", data="AAECAw=="),
                        ],
                    )
                ],
            )
        ]
    )


def _gemini_tool_result_image_parts() -> ir.Request:
    return ir.Request(
        messages=[
            ir.Message(
                role="tool",
                parts=[
                    ir.ToolResult(
                        tool_call_id="testCallId",
                        name="imageGenerator",
                        parts=[
                            ir.TextPart(text="Here is the generated image:"),
                            ir.ImagePart(media_type="image/jpeg", data="base64encodedimagedata"),
                        ],
                    )
                ],
            )
        ]
    )


def _gemini3_no_sentinel_after_signed_parallel() -> ir.Request:
    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[
                    ir.ToolCall(
                        id="tc_paris",
                        name="get_weather",
                        arguments={"city": "Paris"},
                        provider_data=_gemini_signature("parallel_batch_signature"),
                    ),
                    ir.ToolCall(id="tc_tokyo", name="get_weather", arguments={"city": "Tokyo"}),
                    ir.ToolCall(id="tc_new_york", name="get_weather", arguments={"city": "New York"}),
                ],
            )
        ]
    )


def _gemini_error_result_no_signature_on_response() -> ir.Request:
    # The AI SDK tool-result part also carries providerOptions.google.thoughtSignature; the AI SDK
    # ignores it on results (the note says so) and Gemini has no place for it on a functionResponse.
    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[
                    ir.ToolCall(
                        id="call1",
                        name="readdata",
                        arguments={"userId": "123"},
                        provider_data=_gemini_signature("sig_original"),
                    )
                ],
            ),
            ir.Message(
                role="tool",
                parts=[ir.ToolResult(tool_call_id="call1", name="readdata", result="file not found", is_error=True)],
            ),
        ]
    )


def _responses_missing_tool_input() -> ir.Request:
    return ir.Request(
        messages=[
            ir.Message(role="assistant", parts=[ir.ToolCall(id="call_123", name="search", arguments={})]),
        ]
    )


#: case id → builder of the IR request (a fresh object per call: conversions must not share state)
IR_INPUTS: dict[str, Callable[[], ir.Request]] = {
    "anthropic-tool-result-image-content": _anthropic_tool_result_image_content,
    "gemini-tool-result-image-parts": _gemini_tool_result_image_parts,
    "gemini3-no-sentinel-after-signed-parallel": _gemini3_no_sentinel_after_signed_parallel,
    "gemini-error-result-no-signature-on-response": _gemini_error_result_no_signature_on_response,
    "responses-missing-tool-input": _responses_missing_tool_input,
}


def _mistral_content_result_stringified() -> ir.Request:
    """A call whose result is AI SDK "content" output: a text part and an image file part."""
    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[ir.ToolCall(id="tool-call-id-3", name="image-tool", arguments={"query": "generate image"})],
            ),
            ir.Message(
                role="tool",
                parts=[
                    ir.ToolResult(
                        tool_call_id="tool-call-id-3",
                        name="image-tool",
                        parts=[
                            ir.TextPart(text="Here is the result:"),
                            ir.ImagePart(media_type="image/png", data="base64data"),
                        ],
                    )
                ],
            ),
        ]
    )


IR_INPUTS["mistral-content-result-stringified"] = _mistral_content_result_stringified


def _bedrock_empty_text_blocks_filtered() -> ir.Request:
    """An assistant turn with blank text around a call (text after a call: OpenAI Chat cannot order it)."""
    return ir.Request(
        messages=[
            ir.Message(role="user", parts=[ir.TextPart(text="Hello")]),
            ir.Message(
                role="assistant",
                parts=[
                    ir.TextPart(text="\n\n"),
                    ir.ToolCall(id="call-123", name="test", arguments={}),
                    ir.TextPart(text="  "),
                    ir.TextPart(text="actual content"),
                ],
            ),
        ]
    )


def _bedrock_tool_result_image() -> ir.Request:
    """A result whose AI SDK "content" output is one image file part (no text)."""
    return ir.Request(
        messages=[
            ir.Message(
                role="tool",
                parts=[
                    ir.ToolResult(
                        tool_call_id="call-123",
                        name="image-generator",
                        parts=[ir.ImagePart(media_type="image/jpeg", data="base64data")],
                    )
                ],
            )
        ]
    )


IR_INPUTS["bedrock-empty-text-blocks-filtered"] = _bedrock_empty_text_blocks_filtered
IR_INPUTS["bedrock-tool-result-image"] = _bedrock_tool_result_image
