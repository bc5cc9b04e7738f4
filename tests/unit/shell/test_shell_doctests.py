"""The shell modules' docstring examples run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "policylang.shell.parse",
    "policylang.shell.plain",
    "policylang.shell.fragments",
    "policylang.shell.braces",
    "policylang.shell.wrappers",
]


@pytest.mark.source  # a compiled module's docstrings hold no doctests to find
@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
