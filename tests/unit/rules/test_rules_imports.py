"""Import direction of the rules front end and the compiler (docs: house style 2.1).

span -> rules.ast -> rules.transform -> rules.parser -> rules.validate -> compiler; only
`rules.load` (the loader façade) sits above both. Neither imports the engine, and only
`rules.parser` and `rules.transform` import lark.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "policylang"


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).glob("*.py"))


@pytest.mark.parametrize("path", modules("rules") + modules("compiler"), ids=lambda p: p.stem)
def test_no_engine_and_no_lark_outside_the_front_end(path: Path) -> None:
    found = imports_of(path)
    assert not any(name.startswith("policylang.engine") for name in found)
    if path.stem not in ("parser", "transform"):
        assert not any(name == "lark" or name.startswith("lark.") for name in found)


@pytest.mark.parametrize("path", modules("rules"), ids=lambda p: p.stem)
def test_rules_front_end_does_not_import_the_compiler(path: Path) -> None:
    if path.stem == "load":
        return  # the loader façade runs the compiler
    assert not any(name.startswith("policylang.compiler") for name in imports_of(path))


def test_ast_imports_only_span() -> None:
    found = {n for n in imports_of(PACKAGE / "rules" / "ast.py") if n.startswith("policylang")}
    assert found <= {"policylang.span", "policylang.span.SourceText", "policylang.span.Span"}
