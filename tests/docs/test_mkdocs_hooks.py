"""The nav hook leaves out pages not written yet, and nothing else."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

from doc_examples import ROOT


def _load_hooks() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("hooks", ROOT / "scripts/mkdocs_hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _load_hooks()


def test_prune_nav_drops_missing_pages_and_empty_sections(tmp_path: Path) -> None:
    for name in ("index.md", "a.md", "sub/b.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("# x\n")
    nav = [
        "index.md",
        "missing.md",
        {"A": "a.md"},
        {"Gone": "gone.md"},
        {"Section": [{"B": "sub/b.md"}, {"Later": "later.md"}]},
        {"Empty": [{"Later": "later.md"}]},
        {"Site": "https://example.com/"},
    ]
    assert hooks.prune_nav(nav, tmp_path) == [
        "index.md",
        {"A": "a.md"},
        {"Section": [{"B": "sub/b.md"}]},
        {"Site": "https://example.com/"},
    ]


def test_table_pipes_are_unescaped_only_in_code_spans_of_table_cells() -> None:
    html = (
        "<table><tr><td><code>a \\| b</code> x \\| y</td><th><code>c\\|d</code></th></tr></table>"
        "<p><code>grep 'a\\|b'</code></p><pre><code>grep 'a\\|b'</code></pre>"
    )
    assert hooks.unescape_table_pipes(html) == (
        "<table><tr><td><code>a | b</code> x \\| y</td><th><code>c|d</code></th></tr></table>"
        "<p><code>grep 'a\\|b'</code></p><pre><code>grep 'a\\|b'</code></pre>"
    )
