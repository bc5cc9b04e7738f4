"""The worked examples in the executor's and the tool's docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "policylang.executor.env",
    "policylang.executor.githooks",
    "policylang.executor.runner",
    "policylang.executor.sandbox",
    "policylang.tool.schema",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0
    assert failed == 0
