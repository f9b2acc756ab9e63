"""Load YAML keeping the line of every key, so spec errors can say file:line."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class Located(dict):
    """A mapping that remembers the file and the line of itself and of each of its keys."""

    file: str = ""
    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LocatedList(list):
    file: str = ""
    line: int = 0
    item_lines: list


@dataclass
class SpecError:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class Errors:
    items: list[SpecError] = field(default_factory=list)

    def add(self, file: str, line: int, message: str) -> None:
        self.items.append(SpecError(file, line, message))

    def at(self, node: Any, key: str | None, message: str) -> None:
        file = getattr(node, "file", "?")
        line = node.line_of(key) if (key is not None and isinstance(node, Located)) else getattr(node, "line", 0)
        self.add(file, line, message)

    def __bool__(self) -> bool:
        return bool(self.items)


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    out = Located()
    out.file = loader.name
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            loader.duplicate_keys.append((key, key_node.start_mark.line + 1))
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocatedList:
    out = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
    out.file = loader.name
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml(path: Path, display: str, errors: Errors) -> Any:
    """Parse one YAML file; a syntax error or a duplicate key becomes a SpecError, not a traceback."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        errors.add(display, 0, f"cannot read file: {exc.strerror}")
        return None
    loader = _Loader(text)
    loader.name = display
    loader.duplicate_keys = []
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        problem = getattr(exc, "problem", None) or str(exc)
        errors.add(display, line, f"invalid YAML: {problem}")
        return None
    finally:
        loader.dispose()
    for key, line in loader.duplicate_keys:
        errors.add(display, line, f"duplicate key {key!r}")
    return data


def plain(value: Any) -> Any:
    """Located containers → plain dicts and lists (for JSON Schema and code emission)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
