"""The IR module: the dataclasses datamodel-code-generator writes for spec/ir.yaml, with their
methods generated as source (templates/ir.py.j2) instead of built by ``@dataclass`` at import.

``@dataclass`` costs ``import dataclasses`` (which imports ``inspect``) and an ``exec`` per method
at every ``import toolwire``. The generated classes are what ``@dataclass(kw_only=True,
slots=True)`` makes of the same declarations: the same ``__init__`` (keyword-only, defaults and
default factories), ``__repr__`` (recursion-safe), ``__eq__``, ``__hash__ = None``,
``__match_args__``, ``__slots__`` and annotations; ``__dataclass_fields__`` and
``__dataclass_params__`` are made by ``dataclasses`` itself on first use, from the class.
The reference for all of it is the datamodel-code-generator output, executed here (and in
tests/test_ir_dataclasses.py, which compares both).

``import typing`` is left out of ``import toolwire`` too (it costs more than the rest of the
package): ``qualify`` spells the names the output imports from ``typing`` as attributes of the
module (``dict[str, typing.Any]``), and ir.py binds ``typing`` to a stand-in that imports the
module on first attribute read, so ``typing.get_type_hints`` resolves the annotations to the same
objects as before; type aliases whose values come from ``typing`` are made on first use.
"""

from __future__ import annotations

import ast
import sys
import types
from dataclasses import MISSING, dataclass, field, fields, is_dataclass

SUPPORTED = {"kw_only": True, "slots": True}  # the @dataclass arguments main.CODEGEN_FLAGS asks for
_LITERALS = (str, int, float, bool, type(None))


@dataclass
class IRField:
    name: str
    annotation: str  # the annotation as a string (what `from __future__ import annotations` stores)
    default: str | None = None  # source of the default value, None when required
    factory: str | None = None  # source of the default_factory, None when there is none
    doc: str | None = None  # the field's docstring (the string statement after it), as written


@dataclass
class IRClass:
    name: str
    doc: str  # the class's docstring, as written
    fields: list[IRField] = field(default_factory=list)

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)


@dataclass
class IRModule:
    imports: list[str]  # import statements to keep, but `import typing` (see `typing`)
    aliases: list[tuple[str, str, str]]  # module-level `name: annotation = value`, made at import
    classes: list[IRClass]
    typing: bool = False  # the annotations name `typing.X`: `typing` is imported on first use
    lazy_aliases: list[tuple[str, str, str]] = field(default_factory=list)  # aliases whose value needs typing

    @property
    def supported(self) -> dict:
        return SUPPORTED

    @property
    def factories(self) -> bool:
        return any(f.factory is not None for c in self.classes for f in c.fields)


def _fail(msg: str) -> SystemExit:
    return SystemExit(f"spec/ir.yaml: generating the IR classes: {msg}")


def reference(source: str, name: str = "_toolwire_ir_reference") -> types.ModuleType:
    """datamodel-code-generator's module, executed: the classes as ``@dataclass`` makes them."""
    module = types.ModuleType(name)
    before = sys.modules.get(name)
    sys.modules[name] = module  # dataclasses looks the module up (string annotations)
    try:
        exec(compile(source, f"<{name}>", "exec", dont_inherit=True), module.__dict__)
    finally:
        if before is None:
            del sys.modules[name]
        else:
            sys.modules[name] = before
    return module


def qualify(source: str) -> str:
    """The same module with the names it imports from ``typing`` spelled as attributes of the
    module: ``from typing import Any, Literal`` becomes ``import typing``, ``dict[str, Any] | None``
    ``dict[str, typing.Any] | None`` (lines keep their numbers; everything else is unchanged)."""
    tree = ast.parse(source)
    data = source.encode("utf-8")  # AST column offsets count UTF-8 bytes
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def span(node: ast.AST) -> tuple[int, int]:
        return starts[node.lineno - 1] + node.col_offset, starts[node.end_lineno - 1] + node.end_col_offset

    names: dict[str, str] = {}  # local name → name in typing
    edits: list[tuple[int, int, bytes]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "typing" and not node.level:
            names.update((a.asname or a.name, a.name) for a in node.names)
            start, end = span(node)
            edits.append((start, end, b"import typing" + b"\n" * data.count(b"\n", start, end)))
    if not names:
        return source
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and (node.id in names or node.id == "typing"):
            if node.id == "typing" or not isinstance(node.ctx, ast.Load):
                raise _fail(f"line {node.lineno}: the name {node.id!r} is bound by the module (it stands for the module typing in ir.py)")
            start, end = span(node)
            edits.append((start, end, f"typing.{names[node.id]}".encode()))
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text + data[end:]
    return data.decode("utf-8")


def parse(source: str) -> IRModule:
    """Read datamodel-code-generator's output (``qualify``-ed): the declarations from its AST, the
    values (annotation strings, defaults) from the dataclasses it builds when executed."""
    source = qualify(source)
    tree = ast.parse(source)
    namespace = reference(source).__dict__
    module = IRModule(imports=[], aliases=[], classes=[])
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in ("__future__", "dataclasses"):
            continue
        if isinstance(node, ast.Import) and [a.name for a in node.names] == ["typing"] and node.names[0].asname is None:
            module.typing = True
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            module.imports.append(ast.get_source_segment(source, node))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            alias = (node.target.id, ast.unparse(node.annotation), ast.get_source_segment(source, node.value))
            lazy = any(isinstance(n, ast.Name) and n.id == "typing" for n in ast.walk(node.value))
            (module.lazy_aliases if lazy else module.aliases).append(alias)
        elif isinstance(node, ast.ClassDef):
            module.classes.append(_class(node, source, namespace[node.name]))
        else:
            raise _fail(f"line {node.lineno}: unexpected statement {ast.unparse(node)[:60]!r}")
    lazy = {name for name, _, _ in module.lazy_aliases}
    for c in module.classes:
        for f in c.fields:
            used = lazy & {n.id for n in ast.walk(ast.parse(f.annotation, mode="eval")) if isinstance(n, ast.Name)}
            if used:  # get_type_hints reads the module's namespace, where these are not until first use
                raise _fail(f"class {c.name}: field {f.name}: the annotation names the type alias {min(used)}, whose value needs typing (made on first use)")
    return module


def _class(node: ast.ClassDef, source: str, cls: type) -> IRClass:
    decorators = node.decorator_list
    if node.bases or node.keywords or len(decorators) != 1 or not is_dataclass(cls):
        raise _fail(f"line {node.lineno}: class {node.name} is not a plain @dataclass")
    deco = decorators[0]
    args = {kw.arg: ast.literal_eval(kw.value) for kw in deco.keywords} if isinstance(deco, ast.Call) else {}
    if args != SUPPORTED:
        raise _fail(f"line {node.lineno}: class {node.name}: @dataclass({args}) (the generated methods are those of {SUPPORTED})")
    docs: dict[str, str] = {}
    stmts = node.body[1:] if ast.get_docstring(node, clean=False) is not None else node.body
    for prev, stmt in zip(stmts, stmts[1:]):
        if isinstance(prev, ast.AnnAssign) and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            docs[prev.target.id] = ast.get_source_segment(source, stmt)
    values = {s.target.id: s.value for s in stmts if isinstance(s, ast.AnnAssign)}
    # the docstring as written; without one, the one @dataclass makes from the signature
    doc = ast.get_source_segment(source, node.body[0]) if ast.get_docstring(node) is not None else repr(cls.__doc__)
    out = IRClass(name=node.name, doc=doc)
    for f in fields(cls):
        if not (f.init and f.repr and f.compare and f.hash is None and not f.metadata):
            raise _fail(f"class {node.name}: field {f.name} has options the generated methods do not implement")
        item = IRField(name=f.name, annotation=f.type, doc=docs.get(f.name))
        if f.default is not MISSING:
            if type(f.default) not in _LITERALS or ast.literal_eval(repr(f.default)) != f.default:
                raise _fail(f"class {node.name}: field {f.name}: default {f.default!r} is not a literal")
            item.default = repr(f.default)
        elif f.default_factory is not MISSING:
            call = values[f.name]
            factory = next(kw.value for kw in call.keywords if kw.arg == "default_factory")
            item.factory = ast.get_source_segment(source, factory)
        out.fields.append(item)
    return out


def render(module: IRModule, env, header: str, doc: str) -> str:
    """The module's source (before black)."""
    return env.get_template("ir.py.j2").render(m=module, header=header, doc=doc)
