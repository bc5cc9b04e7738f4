"""The worked examples in the rules and compiler module docstrings run as doctests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = (
    "policylang.compiler.arity",
    "policylang.compiler.checks",
    "policylang.compiler.paths",
    "policylang.compiler.tables",
    "policylang.rules.globs",
    "policylang.rules.format",
)


@pytest.mark.source  # a compiled module's docstrings hold no doctests to find
@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
