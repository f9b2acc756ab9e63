"""The IR module: the dataclasses datamodel-code-generator writes for spec/ir.yaml, with their
methods generated as source (templates/ir.py.j2) instead of built by ``@dataclass`` at import.

``@dataclass`` costs ``import dataclasses`` (which imports ``inspect``) and an ``exec`` per method
at every ``import toolwire``. The generated classes are what ``@dataclass(kw_only=True,
slots=True)`` makes of the same declarations: the same ``__init__`` (keyword-only, defaults and
default factories), ``__repr__`` (recursion-safe), ``__eq__``, ``__hash__ = None``,
``__match_args__``, ``__slots__`` and annotations; ``__dataclass_fields__`` and
``__dataclass_params__`` are made by ``dataclasses`` itself on first use, from the class.
The reference for all of it is the datamodel-code-generator output, executed here (and in
tests/test_ir_codegen.py, which compares both).
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
    imports: list[str]  # import statements to keep (typing: the annotations' names stay resolvable)
    aliases: list[tuple[str, str, str]]  # module-level `name: annotation = value`
    classes: list[IRClass]

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


def parse(source: str) -> IRModule:
    """Read datamodel-code-generator's output: the declarations from its AST, the values (annotation
    strings, defaults) from the dataclasses it builds when executed."""
    tree = ast.parse(source)
    namespace = reference(source).__dict__
    module = IRModule(imports=[], aliases=[], classes=[])
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in ("__future__", "dataclasses"):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module.imports.append(ast.get_source_segment(source, node))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            module.aliases.append((node.target.id, ast.unparse(node.annotation), ast.get_source_segment(source, node.value)))
        elif isinstance(node, ast.ClassDef):
            module.classes.append(_class(node, source, namespace[node.name]))
        else:
            raise _fail(f"line {node.lineno}: unexpected statement {ast.unparse(node)[:60]!r}")
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
