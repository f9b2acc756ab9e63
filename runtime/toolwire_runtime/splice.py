"""Splicing the conversion of a window of parts into the conversion of the whole body.

A stream translation syncs at the first fragment of every text part: the target body the source so
far converts to, and where that part's text goes in it. A long answer opens a new text part every
sentence or two (Anthropic's cited answers), and converting the whole body at each made the stream
quadratic in its parts. The encoder converts a *window* instead: the body with only its last part
or two (``before``), and with them and the new one (``after``). Where the whole body's conversion
(``whole``) ends as ``before`` does, the new part changes it as it changes ``before``, and
``splice`` says that change into ``whole``:

- a value the window's conversions agree on is the whole body's, and must be that value there too
  (an object's keys are the same in all three; their order is the whole body's, which the client
  has);
- a list: ``before``'s elements (one at least) are ``whole``'s last ones, those ``after`` changes
  are spliced in turn, and what ``after`` adds is appended;
- a string: ``before`` ends ``whole``, and what ``after`` adds to it is appended (OpenAI Chat's
  content, the parts' texts joined).

Anything else (a key one conversion has and the other not, a number or a kind that changed, a
list that lost elements, ``before`` not at the end of ``whole``) raises ``Unspliced``: the change
is not one a splice can say, and the whole body is converted. Hand-written runtime; stdlib only.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Unspliced", "splice", "moved"]


class Unspliced(Exception):
    """The window's change is not one a splice says (the path where it showed)."""


def splice(whole: Any, before: Any, after: Any, starts: dict, path: tuple = ()) -> Any:
    """``whole`` changed as ``before`` changes into ``after`` (which differ); only the objects along
    the changes are new, the rest is ``whole``'s. ``starts``: each list changed (by its path in
    the result) → its first element changed or added."""
    kind = type(before)
    if kind is dict:
        if type(after) is not dict or type(whole) is not dict or after.keys() != before.keys() or whole.keys() != before.keys():
            raise Unspliced(path)
        out = dict(whole)
        for key, b in before.items():
            a = after[key]
            if a == b:
                if whole[key] != b:
                    raise Unspliced(path + (key,))
            else:
                out[key] = splice(whole[key], b, a, starts, path + (key,))
        return out
    if kind is list:
        if not before or type(after) is not list or type(whole) is not list or len(after) < len(before) or len(whole) < len(before):
            # (an empty ``before`` does not show what the new elements follow: a target that joins
            # them to the one before, Gemini's text parts, would join them across the window)
            raise Unspliced(path)
        at = len(whole) - len(before)  # (before's elements are whole's last ones)
        out = whole[:at]
        first = None
        for i, b in enumerate(before):
            a, w = after[i], whole[at + i]
            if a == b:
                if w != b:
                    raise Unspliced(path + (at + i,))
                out.append(w)
            else:
                first = at + i if first is None else first
                out.append(splice(w, b, a, starts, path + (at + i,)))
        if len(after) > len(before):
            first = len(whole) if first is None else first
            out.extend(after[len(before):])
        starts[path] = first
        return out
    if kind is str and type(after) is str and type(whole) is str and after.startswith(before) and whole.endswith(before):
        return whole + after[len(before):]
    raise Unspliced(path)


def moved(path: tuple, small: Any, big: Any) -> tuple:
    """``path`` in ``small`` (a window's conversion) as the same place in ``big`` (its splice into
    the whole body): an index of a list is counted from the list's end, where the window's
    elements are."""
    out = []
    for key in path:
        there = key + len(big) - len(small) if type(small) is list else key
        small, big = small[key], big[there]
        out.append(there)
    return tuple(out)
