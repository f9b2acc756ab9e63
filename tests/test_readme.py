"""The README's quick example runs verbatim, and each ``print`` shows what the comment under it says."""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _example(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(title):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.mark.parametrize("title", ["## Quick example", "## Streams", "## Tools from Python functions", "## MCP", "## Bulk conversion", "## The IR"])
def test_readme_example_runs_and_prints_what_its_comments_say(title):
    code = _example(title)
    lines = code.splitlines()
    expected = []
    for n, line in enumerate(lines):  # a print and the comment under it: what it prints
        if line.startswith("print(") and n + 1 < len(lines) and lines[n + 1].startswith("# "):
            expected.append(lines[n + 1][2:])
        elif line.lstrip().startswith("print("):  # a print in a loop: every comment line under it
            for comment in lines[n + 1 :]:
                if not comment.startswith("#"):
                    break
                expected.append(comment[2:])
    assert len(expected) >= 2, "the example shows its results with print() and a comment under each"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, str(README), "exec"), {})
    assert out.getvalue().splitlines() == expected
