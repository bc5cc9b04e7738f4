"""Frozen dataclass instances built without their `__init__`, for the hot paths.

A frozen dataclass `__init__` sets each field through `object.__setattr__`, several times
slower than an ordinary attribute store; the analyser, the option views and the engine
build many small frozen objects per command. A builder fills a *twin* of the class (a
plain class with exactly the same `__slots__`) with ordinary stores and then retypes it to
the frozen class (`__class__` assignment, which CPython allows between classes of
identical slot layout). The result is an ordinary frozen instance of that class.

Used by `shell._build`, `shell.options` and `engine._objects`; each keeps its `TWINS` for
the tests that compare built instances with constructed ones. `builder` writes the
straightforward builders (every field a positional argument, in declaration order);
builders that fix or derive a field are written out by hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


def twin(cls: type) -> Any:  # the twin's attributes are set dynamically
    """A plain class with `cls`'s slot layout (fields in declaration order).

    Raises:
        TypeError: at import time, when `cls` has no slots mirroring its fields.
    """
    slots = tuple(f.name for f in dataclasses.fields(cls))
    if tuple(getattr(cls, "__slots__", ())) != slots:
        raise TypeError(f"{cls.__name__} slots differ from its fields {slots}")
    return type(f"_{cls.__name__}Twin", (), {"__slots__": slots})


def builder(cls: type, twin_cls: Any) -> Callable[..., Any]:
    """A function building `cls` from its fields, positionally, through `twin_cls`.

    The function is generated (as dataclasses generate `__init__`) so that it is plain
    stores, as fast as a builder written out: `builder(Span, SpanTwin)(3, 7)` is
    `Span(3, 7)`. Callers give it a precise `Callable[[…], cls]` type.
    """
    names = tuple(f.name for f in dataclasses.fields(cls))
    lines = [f"def build({', '.join(names)}):", "    obj = _twin()"]
    lines += [f"    obj.{name} = {name}" for name in names]
    lines += ["    obj.__class__ = _cls", "    return obj"]
    namespace: dict[str, Any] = {"_twin": twin_cls, "_cls": cls}
    exec("\n".join(lines), namespace)
    function: Callable[..., Any] = namespace["build"]
    function.__qualname__ = function.__name__ = f"build_{cls.__name__}"
    return function
