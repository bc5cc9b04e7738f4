"""The engine modules' docstring examples run (the combination table among them)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "policylang.engine.evaluate",
    "policylang.engine.policy",
    "policylang.engine.paths",
    "policylang.engine.approvals",
    "policylang.engine.subtree",
    "policylang.engine.envpoison",
    "policylang.engine.rules",
]


@pytest.mark.source  # a compiled module's docstrings hold no doctests to find
@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
