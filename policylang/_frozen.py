"""Frozen dataclass instances built without their `__init__`, for the hot paths.

A frozen dataclass `__init__` sets each field through `object.__setattr__`, several times
slower than an ordinary attribute store; the analyser, the option views and the engine
build many small frozen objects per command. A builder fills a *twin* of the class (a
plain class with exactly the same `__slots__`) with ordinary stores and then retypes it to
the frozen class (`__class__` assignment, which CPython allows between classes of
identical slot layout). The result is an ordinary frozen instance of that class.

Used by `shell._build`, `shell.options` and `engine._objects`; each keeps its `TWINS` for
the tests that compare built instances with constructed ones, and calls the constructor
instead where the class is compiled (`policylang._native`): a compiled class has no slots
to mirror, and its constructor is already plain stores.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from policylang import _native


def twin(cls: type) -> Any:  # the twin's attributes are set dynamically
    """A plain class with `cls`'s slot layout (fields in declaration order); None when
    `cls` is compiled (its builder then calls `cls` itself).

    Raises:
        TypeError: at import time, when `cls` has no slots mirroring its fields.
    """
    if _native.COMPILED and cls.__module__ in _native.MODULES:
        return None
    slots = tuple(f.name for f in dataclasses.fields(cls))
    if tuple(getattr(cls, "__slots__", ())) != slots:
        raise TypeError(f"{cls.__name__} slots differ from its fields {slots}")
    return type(f"_{cls.__name__}Twin", (), {"__slots__": slots})

