"""docs/language.md shows docs/examples/language-example.policy verbatim; keep them equal."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_language_page_shows_the_example_file() -> None:
    page = (ROOT / "docs" / "language.md").read_text()
    example = (ROOT / "docs" / "examples" / "language-example.policy").read_text()
    start = page.index("```policy\n") + len("```policy\n")
    end = page.index("```\n", start)
    assert page[start:end] == example
