"""Hand-written runtime of toolwire: errors, the conversion context, and the transform vocabulary;
here, ``first_use`` (a module loaded at the first call of a function of it).

The generator never writes here. Generated converters (package ``toolwire``) call these functions
with constant arguments taken from the spec; nothing here reads the spec.
"""


def first_use(namespace: dict, name: str, module: str, attr: str):  # noqa: ANN201 (a function of any signature)
    """A stand-in for ``module.attr`` that a module binds to ``name`` (its ``namespace``: its
    globals) to load ``module`` at the first call, not at its own import (not by `import toolwire`).
    That call imports it and puts ``module.attr`` in the stand-in's place, so the import runs once:
    an import statement in a function runs on every call (resolving a relative one costs 1.5–3 µs,
    more than many steps of a conversion or of a stream event)."""

    def stand_in(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        real = getattr(__import__(module, fromlist=(attr,)), attr)
        namespace[name] = real
        return real(*args, **kwargs)

    stand_in.__name__ = stand_in.__qualname__ = name
    return stand_in
