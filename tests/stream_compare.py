"""Comparing IR responses of streams: content, not the spelling of the body they came from."""

from __future__ import annotations

import dataclasses


def _spelling(hints: dict) -> dict | None:
    """Hints without those that only spell the body: key order, and a null vs an absent empty value."""
    return {a: b for a, b in hints.items() if a != "$order" and b not in ("null", "absent")} or None


def _drop_empty(node):
    if isinstance(node, dict):
        node = {k: _drop_empty(v) for k, v in node.items()}
        return {k: v for k, v in node.items() if v not in (None, [], {})}
    return node


def comparable(response) -> dict:
    """The IR as a dict without the hints that only spell the body (not its content)."""

    def walk(node):
        if isinstance(node, dict):
            out = {k: walk(_spelling(v) if k == "hints" and isinstance(v, dict) else v) for k, v in node.items()}
            if isinstance(out.get("fields"), dict) and "provider" in out:  # a null or empty field spells an absent one
                out["fields"] = _drop_empty(out["fields"]) or None
            if out.keys() == {"provider", "fields", "hints"} and out["fields"] is None and out["hints"] is None:
                return None  # provider data left empty once spellings are set aside
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(dataclasses.asdict(response))


def covers(ours, ref, path="") -> list[str]:
    """Where ``ours`` differs from the reference; provider_data fields the reference has must be in
    ours with the same value (ours may hold more: the reference accumulations drop fields)."""
    if ref is None and isinstance(ours, dict) and ours.keys() == {"provider", "fields", "hints"} and ours["hints"] is None:
        return []  # provider data only ours has: fields the reference accumulation dropped
    if isinstance(ref, dict) and isinstance(ours, dict):
        if {"provider", "fields"} <= set(ref) and (ref.get("fields") or ours.get("fields")):
            rf, of = ref.get("fields") or {}, ours.get("fields") or {}
            diffs = [f"{path}.fields.{k}: {v!r} != {of.get(k)!r}" for k, v in rf.items() if of.get(k) != v]
            ref, ours = {**ref, "fields": None}, {**ours, "fields": None}
            return diffs + covers(ours, ref, path)
        return [d for k in set(ref) | set(ours) for d in covers(ours.get(k), ref.get(k), f"{path}.{k}")]
    if isinstance(ref, list) and isinstance(ours, list) and len(ref) == len(ours):
        return [d for i, (a, b) in enumerate(zip(ours, ref)) for d in covers(a, b, f"{path}[{i}]")]
    return [] if ours == ref else [f"{path}: reference {ref!r:.120} != ours {ours!r:.120}"]
