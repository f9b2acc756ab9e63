"""Support for the generated fused converters (``generated/toolwire/fused/``).

A fused converter turns one provider's request body into another's in one pass, without IR
objects: the generator (``generator/fuse.py``) composes the source's reading and the target's
writing of the common shapes (text, tool calls, text results, function tools, tool choice). It
is a fast path, never a second semantics: on anything outside those shapes (a key it does not
know, an id or name the target would rewrite, blank text, an unanswered call, a model with rules
of its own, any input that would raise) it gives up with :class:`Deopt` before reporting
anything, and ``toolwire.convert`` runs the general path (parse to the IR, render) with a fresh
context. ``tests/test_fused.py`` proves both paths give the same body, warnings and errors on
every fixture and corpus payload.
"""

from __future__ import annotations

__all__ = ["ENABLED", "Deopt"]

ENABLED = True  # tests switch it off to compare with the general path (toolwire_runtime.fused.ENABLED)


class Deopt(Exception):
    """The input leaves the fused converter's shapes: convert it through the IR instead."""
