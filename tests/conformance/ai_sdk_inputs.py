"""Hand translations of the AI-SDK-format conformance cases into toolwire IR.

Cases with ``input_format: ai_sdk`` keep the AI SDK's own prompt format because OpenAI Chat cannot
carry what they test. Where the meaning maps onto the IR exactly, the case is translated here by
hand; every other ai_sdk case is classified in ``ai_sdk_divergences.yaml`` (pending or
not_expressible) and never reaches this module.

Translation rules (the same for every case):

- ``providerOptions.google.thoughtSignature`` / ``providerOptions.vertex.thoughtSignature`` on a
  tool call is the call's own signature: ``ToolCall(signature=…, signature_verifier="gemini")``; on
  a text part it is Gemini provider data,
  ``ProviderData(provider="gemini", fields={"thoughtSignature": …})`` — exactly what
  ``toolwire.to_ir`` makes of a Gemini ``functionCall`` / text part that carries one.
- A ``reasoning`` part is a ``ReasoningPart`` in the same place of its turn, its ``text`` the
  reasoning text. Its provider options say who signed it (``verifier``), as ``toolwire.to_ir`` of
  that provider's own block would: ``anthropic.signature`` → ``signature``, ``verifier="anthropic"``
  (``anthropic.redactedData`` → ``data``, ``redacted=True``, no text); ``bedrock.signature`` /
  ``bedrock.redactedData`` likewise (Bedrock Converse's reasoning is Claude's: family
  ``anthropic``); ``google.thoughtSignature`` → ``signature``, ``verifier="gemini"``. A reasoning
  part without provider options is unsigned (``verifier=None``).
- ``openai`` reasoning: the AI SDK splits one Responses reasoning item into one reasoning part per
  summary entry, each carrying the item's ``itemId`` and ``reasoningEncryptedContent``. Consecutive
  parts with the same ``itemId`` are therefore one ``ReasoningPart(summary=True, id=itemId,
  data=reasoningEncryptedContent, verifier="openai")`` whose text is the summary texts joined by a
  blank line, as ``toolwire.to_ir`` joins a Responses ``summary`` list. (toolwire keeps the split
  itself only as a spelling hint for Responses → Responses round trips; the translation does not
  invent one.)
- A tool output ``{"type": "json", "value": v}`` or ``{"type": "text", "value": v}`` is
  ``ToolResult(result=v)``.
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


def _gemini_text_signature(signature: str) -> ir.ProviderData:
    """A thoughtSignature on a Gemini text part that is not a thought: the part's Gemini provider data."""
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
                        signature="parallel_batch_signature",
                        signature_verifier="gemini",
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
                        signature="sig_original",
                        signature_verifier="gemini",
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


# --- reasoning (ReasoningPart, ToolCall.signature) ------------------------------------------------


def _anthropic_thinking_with_signature() -> ir.Request:
    """A signed Anthropic reasoning part, then the answer text."""
    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[
                    ir.ReasoningPart(
                        text='I need to count the number of "r"s in the word "strawberry".',
                        signature="test-signature",
                        verifier="anthropic",
                    ),
                    ir.TextPart(text='The word "strawberry" has 2 "r"s.'),
                ],
            )
        ]
    )


def _anthropic_tool_use_not_moved_across_thinking() -> ir.Request:
    """Signed reasoning interleaved with two calls, then both (JSON) results."""
    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[
                    ir.ReasoningPart(text="Think before the initial note.", signature="test-signature-1", verifier="anthropic"),
                    ir.ToolCall(id="toolu_initial", name="saveNote", arguments={"note": "phase 1: initial plan"}),
                    ir.ReasoningPart(text="Think before the revised note.", signature="test-signature-2", verifier="anthropic"),
                    ir.ToolCall(id="toolu_revised", name="saveNote", arguments={"note": "phase 2: revised plan"}),
                ],
            ),
            ir.Message(
                role="tool",
                parts=[
                    ir.ToolResult(tool_call_id="toolu_initial", name="saveNote", result={"success": True}),
                    ir.ToolResult(tool_call_id="toolu_revised", name="saveNote", result={"success": True}),
                ],
            ),
        ]
    )


def _gemini_thought_signatures_preserved() -> ir.Request:
    """Gemini signatures on a text part, a thought and a call."""
    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[
                    ir.TextPart(text="Regular text", provider_data=_gemini_text_signature("sig1")),
                    ir.ReasoningPart(text="Reasoning text", signature="sig2", verifier="gemini"),
                    ir.ToolCall(id="call1", name="test", arguments={"value": "test"}, signature="sig3", signature_verifier="gemini"),
                ],
            )
        ]
    )


def _bedrock_unsigned_reasoning_dropped() -> ir.Request:
    """Unsigned reasoning (no provider options) before a call, and the call's text result."""
    return ir.Request(
        messages=[
            ir.Message(role="user", parts=[ir.TextPart(text="What is the weather?")]),
            ir.Message(
                role="assistant",
                parts=[
                    ir.ReasoningPart(text="I should call the weather tool."),
                    ir.ToolCall(id="call-1", name="getWeather", arguments={"city": "SF"}),
                ],
            ),
            ir.Message(
                role="tool",
                parts=[ir.ToolResult(tool_call_id="call-1", name="getWeather", result="Sunny, 72F")],
            ),
        ]
    )


def _responses_reasoning_and_tools_store_false() -> ir.Request:
    """Two Responses reasoning items (2 and 3 summary parts, encrypted content), each before a call."""

    def item(item_id: str, data: str, summaries: list[str]) -> ir.ReasoningPart:
        return ir.ReasoningPart(text="\n\n".join(summaries), summary=True, id=item_id, data=data, verifier="openai")

    return ir.Request(
        messages=[
            ir.Message(
                role="assistant",
                parts=[
                    item("reasoning_001", "encrypted_content_001", ["Initial analysis step 1", "Initial analysis step 2"]),
                    ir.ToolCall(id="call_001", name="search", arguments={"query": "initial search"}),
                ],
            ),
            ir.Message(
                role="tool",
                parts=[ir.ToolResult(tool_call_id="call_001", name="search", result={"results": ["result1", "result2"]})],
            ),
            ir.Message(
                role="assistant",
                parts=[
                    item(
                        "reasoning_002",
                        "encrypted_content_002",
                        ["Processing results step 1", "Processing results step 2", "Processing results step 3"],
                    ),
                    ir.ToolCall(id="call_002", name="calculator", arguments={"expression": "2 + 2"}),
                ],
            ),
            ir.Message(
                role="tool",
                parts=[ir.ToolResult(tool_call_id="call_002", name="calculator", result={"result": 4})],
            ),
            ir.Message(role="assistant", parts=[ir.TextPart(text="Based on my analysis and calculations, here is the final answer.")]),
        ]
    )


IR_INPUTS["anthropic-thinking-with-signature"] = _anthropic_thinking_with_signature
IR_INPUTS["anthropic-tool-use-not-moved-across-thinking"] = _anthropic_tool_use_not_moved_across_thinking
IR_INPUTS["gemini-thought-signatures-preserved"] = _gemini_thought_signatures_preserved
IR_INPUTS["bedrock-unsigned-reasoning-dropped"] = _bedrock_unsigned_reasoning_dropped
IR_INPUTS["responses-reasoning-and-tools-store-false"] = _responses_reasoning_and_tools_store_false
