"""`import toolwire` stays light (issue 13): a structural check of what it imports, in a fresh
interpreter, never a timing threshold. Heavy or rarely needed modules load where they are used
(function-level imports), provider modules on first use, dataclasses' machinery on first use of
``dataclasses.fields`` & co. on an IR class."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

# stdlib modules `import toolwire` must not import (each costs milliseconds and serves a rare path)
HEAVY = {
    "dataclasses", "inspect", "ast", "dis", "tokenize",  # @dataclass at import (the IR's methods are generated instead)
    "hashlib", "calendar", "datetime", "base64", "binascii", "copy", "fnmatch", "difflib", "json",
    "urllib.parse", "ipaddress", "importlib.util", "uuid", "zlib", "struct",
}
# `typing` and what it imports (more than the rest of `import toolwire` together): the IR's
# annotations name `typing.Any` & co., read on first use; the runtime imports typing's names for
# type checkers only (`if TYPE_CHECKING:`). functools: ir.py copies what `wraps` would by hand;
# warnings: imported when a conversion reports something.
TYPING = {"typing", "re", "enum", "collections", "functools", "contextlib", "operator", "warnings"}


def _imported(code: str) -> set[str]:
    """Modules a fresh interpreter gains by running ``code``: without site (-S) and with the two
    packages on PYTHONPATH, as a wheel install imports (an editable install's path hook imports
    pathlib, hence re, fnmatch, urllib.parse, ... at startup, which would hide them)."""
    import toolwire
    import toolwire_runtime

    path = os.pathsep.join(str(Path(m.__file__).resolve().parent.parent) for m in (toolwire, toolwire_runtime))
    probe = f"import sys\nbefore = set(sys.modules)\n{code}\nprint(repr(sorted(set(sys.modules) - before)))"
    env = {**os.environ, "PYTHONPATH": path}
    out = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, check=True, env=env).stdout
    return set(ast.literal_eval(out))


def test_import_toolwire_is_light():
    new = _imported("import toolwire")
    assert "toolwire" in new and "toolwire.ir" in new
    assert HEAVY & new == set()
    assert TYPING & new == set()
    # providers and the converters' runtime load on first use, whatever the number of providers
    assert {m for m in new if m.startswith(("toolwire.providers", "toolwire.types", "toolwire.stream"))} == set()
    assert {m for m in new if m.startswith("toolwire_runtime.")} == {"toolwire_runtime.api", "toolwire_runtime.context", "toolwire_runtime.errors", "toolwire_runtime.fused"}


def test_first_use_loads_what_it_needs():
    new = _imported(
        "import toolwire, dataclasses\n"
        "assert dataclasses.is_dataclass(toolwire.ir.Request)\n"
        "assert [f.name for f in dataclasses.fields(toolwire.ir.TextPart)] == ['text', 'type', 'provider_data']\n"
        "out = toolwire.convert({'model': 'm', 'messages': [{'role': 'user', 'content': 'hi'}]}, source='openai_chat', target='anthropic', model='claude-sonnet-4-5')\n"
        "assert out['messages'] == [{'role': 'user', 'content': 'hi'}], out\n"
    )
    # a fused pair (generated/toolwire/fused/) needs neither provider module while its body is in
    # the fused converter's shapes; any other conversion loads the two it converts between
    assert {"toolwire.fused.openai_chat", "toolwire_runtime.transforms"} <= new
    assert not {m for m in new if m.startswith("toolwire.providers.")}
    assert "typing" not in new  # nor does a conversion need it (the fused converters, provider modules and their runtime)
    new = _imported(
        "import toolwire\n"
        "out = toolwire.convert({'model': 'm', 'messages': [{'role': 'user', 'content': 'hi'}]}, source='openai_chat', target='bedrock_converse')\n"
    )
    assert {"toolwire.providers.openai_chat", "toolwire.providers.bedrock_converse", "toolwire_runtime.transforms"} <= new
    assert "toolwire.providers.gemini" not in new and "toolwire.fused.openai_chat" not in new
    assert "typing" not in new


def test_type_hints_resolve_on_first_use():
    """Without ``typing`` imported, the IR's annotations still resolve: the first read of
    ``toolwire.ir.typing`` imports it (tests/test_ir_dataclasses.py compares every class)."""
    new = _imported(
        "import toolwire, sys\n"
        "assert 'typing' not in sys.modules and repr(toolwire.ir.typing) == \"<module 'typing' (imported on first use)>\"\n"
        "import typing\n"
        "hints = typing.get_type_hints(toolwire.ir.ToolCall)\n"
        "assert hints['arguments'] == dict[str, typing.Any] and hints['type'] == typing.Literal['tool_call'], hints\n"
        "assert hints['provider_data'] == toolwire.ir.ProviderData | None, hints\n"
        "assert toolwire.ir.typing is typing and toolwire.ir.Model is typing.Any\n"
    )
    assert "typing" in new
