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
to mirror.

A compiled class's constructor is plain stores only where its `__init__` is written out
in its body: the one `dataclass` generates is Python code made at import time, which mypyc
never sees, so it stays interpreted and sets each field through `object.__setattr__`
(a `Word` took 1.9 µs, a `Segment` 2.8 µs; written out, 0.08 and 0.23 µs). The classes
built on every line have theirs written out (`dataclass` keeps an `__init__` the class
defines); `written_init` tells them apart, and tests/unit/test_frozen.py checks that each
takes and sets exactly the fields the generated one would.
"""

from __future__ import annotations

import copyreg
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


def written_init(cls: type) -> bool:
    """Whether dataclass `cls` defines its own `__init__`, rather than the one `dataclass`
    generated (which is compiled from a string at import time, in either build)."""
    init = vars(cls).get("__init__")
    if init is None:
        return False
    code = getattr(init, "__code__", None)
    return code is None or code.co_filename != "<string>"


def picklable(*classes: type) -> None:
    """Let `pickle` and `copy` rebuild instances of the dataclasses `classes` through their
    constructor, from the fields it takes.

    Their own way makes a blank instance and then fills it: where the class is compiled
    (`policylang._native`), a written-out `__init__` leaves no blank instance (the class's
    `__new__` runs it), and a frozen class refuses the filling (`__setstate__` assigns), so
    the compiled build could not copy a decision the source copies. These classes hold
    values and trees of them, never a reference back to themselves, so building each
    whole from fields read before it loses nothing.
    """
    for cls in classes:
        copyreg.pickle(cls, _reduce)


def _reduce(obj: Any) -> tuple[Any, ...]:
    cls = type(obj)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    return _rebuild, (cls, tuple((f.name, getattr(obj, f.name)) for f in fields))


def _rebuild(cls: type, values: tuple[tuple[str, Any], ...]) -> Any:
    """An instance of `cls` (see `picklable`) from the (name, value) of its fields."""
    return cls(**dict(values))
