"""splice.py: the change between two conversions of a window of parts, said into the conversion of
the whole body (a stream translation's sync at a text part's first fragment, Encoder._sync_text)."""

from __future__ import annotations

import pytest

from toolwire_runtime.splice import Unspliced, moved, splice

# Anthropic's content blocks: the whole body of three blocks, the window of its last one, and the
# window with a new block after it
_BLOCK = {"type": "text", "text": "Second. "}
_WHOLE = {"id": "msg_1", "content": [{"type": "text", "text": "First. "}, {"type": "text", "text": "Cited. ", "citations": [{"url": "u"}]}, _BLOCK], "usage": {"output_tokens": 3}}
_BEFORE = {"id": "msg_1", "content": [_BLOCK], "usage": {"output_tokens": 3}}
_AFTER = {"id": "msg_1", "content": [_BLOCK, {"type": "text", "text": "Third"}], "usage": {"output_tokens": 3}}


def test_an_element_the_window_adds_is_appended_after_the_whole_bodys_last() -> None:
    starts: dict = {}
    out = splice(_WHOLE, _BEFORE, _AFTER, starts)
    assert out == {**_WHOLE, "content": [*_WHOLE["content"], {"type": "text", "text": "Third"}]}
    assert starts == {("content",): 3}
    assert out["content"][0] is _WHOLE["content"][0]  # (what did not change is shared, not copied)
    assert _WHOLE["content"][-1] == _BLOCK and len(_WHOLE["content"]) == 3  # (the whole body is left as it was)


def test_text_the_window_adds_to_a_joined_string_is_appended_to_the_whole_bodys() -> None:
    """OpenAI Chat's content: the parts' texts joined; the route of the new part is the same field."""
    whole = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "First. Second. "}}]}
    before = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Second. "}}]}
    after = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "Second. Third"}}]}
    starts: dict = {}
    assert splice(whole, before, after, starts) == {"choices": [{"index": 0, "message": {"role": "assistant", "content": "First. Second. Third"}}]}
    assert starts == {("choices",): 0}


def test_an_element_the_window_changes_is_spliced_in_turn() -> None:
    """Responses: the new text part goes into the message item the last one is in."""
    item = lambda *texts: {"type": "message", "id": "msg_0", "content": [{"type": "output_text", "text": t} for t in texts]}  # noqa: E731
    whole = {"output": [{"type": "web_search_call", "id": "ws_1"}, item("First. ", "Second. ")]}
    starts: dict = {}
    out = splice(whole, {"output": [item("Second. ")]}, {"output": [item("Second. ", "Third")]}, starts)
    assert out == {"output": [whole["output"][0], item("First. ", "Second. ", "Third")]}
    assert starts == {("output",): 1, ("output", 1, "content"): 2}


@pytest.mark.parametrize(
    "whole, before, after",
    [
        # a value the window's conversions agree on that the whole body has otherwise (a finish reason
        # another part decides, a value the last sync took from the client)
        ({"n": 1, "content": ["a"]}, {"n": 2, "content": ["a"]}, {"n": 2, "content": ["a", "b"]}),
        # a key one conversion has and the other not (OpenAI Chat's content beside tool_calls)
        ({"tool_calls": [1]}, {"tool_calls": [1]}, {"tool_calls": [1], "content": "x"}),
        # the window's last element is not the whole body's last (a target that orders its parts)
        ({"content": ["a", "call"]}, {"content": ["a"]}, {"content": ["a", "b"]}),
        # an empty window list: what the new element follows is not shown (Gemini joins text parts)
        ({"parts": [{"text": "a"}]}, {"parts": []}, {"parts": [{"text": "b"}]}),
        # a list that lost elements, a kind that changed (Mistral: one part is a string, more a list)
        ({"content": ["a", "b"]}, {"content": ["a", "b"]}, {"content": ["a"]}),
        ({"content": "ab"}, {"content": "b"}, {"content": [{"text": "b"}, {"text": "c"}]}),
        # a string the window does not end the whole body's with, or changes otherwise than by more
        ({"content": "ab"}, {"content": "x"}, {"content": "xy"}),
        ({"content": "ab"}, {"content": "b"}, {"content": "c"}),
        # a number that changed
        ({"index": 3}, {"index": 0}, {"index": 1}),
    ],
)
def test_a_change_a_splice_cannot_say_is_refused(whole, before, after) -> None:
    with pytest.raises(Unspliced):
        splice(whole, before, after, {})


def test_a_path_in_the_window_moves_to_the_same_place_in_the_whole_body() -> None:
    out = splice(_WHOLE, _BEFORE, _AFTER, {})
    assert moved(("content", 1, "text"), _AFTER, out) == ("content", 3, "text")
    assert out["content"][3]["text"] == "Third"
