"""The tool sits above the executor and never imports the engine or either parser."""

from __future__ import annotations

import ast
import pathlib

import policylang.tool

ALLOWED = ("policylang.decision", "policylang.errors", "policylang.executor", "policylang.tool")


def test_tool_imports_only_decision_errors_and_executor() -> None:
    root = pathlib.Path(policylang.tool.__file__).parent
    seen = set()
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith("policylang"):
                    seen.add(name)
                    assert name.startswith(ALLOWED), f"{path.name} imports {name}"
    assert "policylang.executor" in seen


def test_public_surface() -> None:
    for name in policylang.tool.__all__:
        assert hasattr(policylang.tool, name), name
