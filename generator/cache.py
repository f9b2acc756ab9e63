"""A content-addressed cache of the generator's slow, pure steps: black, datamodel-code-generator
and the derivation of spec/wire/derived/ from the pinned SDKs.

Each entry is keyed on the step's whole input — the text to format, the schema and flags, or the
derivation's sources and every installed distribution's version — plus the tool's version, so a hit
returns exactly what the step would compute. `make check` and the hash-seed tests then pay for the
rendering only: a template or spec change, or a hash-seed dependence in the rendered text, still
misses and is computed. Entries live in `.cache/generator/` (git-ignored; `make clean` removes it).
`TOOLWIRE_GENERATOR_CACHE=0` turns the cache off; `=black` keeps only black's (a pure function of
its input text, whatever the hash seed: what the hash-seed test keeps, so the rest is recomputed).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable

DIR = Path(__file__).resolve().parent.parent / ".cache" / "generator"


def enabled(step: str) -> bool:
    setting = os.environ.get("TOOLWIRE_GENERATOR_CACHE", "1")
    return setting == "1" or step in setting.split(",")


def cached(step: str, key: str, compute: Callable[[], str]) -> str:
    """``compute()``, or what it returned before for the same ``step`` and ``key``."""
    if not enabled(step):
        return compute()
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
    path = DIR / step / digest[:2] / digest
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    text = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{digest}.{os.getpid()}.tmp")  # atomic: concurrent runs never read half a file
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only checkout: computing is always correct
    return text
