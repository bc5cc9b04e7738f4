"""Relative links in README.md and CONTRIBUTING.md point at files that exist.

Pages under docs/ are checked by `mkdocs build --strict`; these two files are read on the
code host instead, so nothing else would notice a link to a renamed page.
"""

from __future__ import annotations

import re

import pytest
from doc_examples import ROOT

_LINK = re.compile(r"\[[^\]]*\]\((?P<target>[^)\s]+)\)")
_EXTERNAL = ("http://", "https://", "mailto:", "#")


def relative_links(text: str) -> list[str]:
    """The relative link targets of a Markdown text, fragments removed, in order."""
    targets = (match["target"] for match in _LINK.finditer(text))
    return [t.partition("#")[0] for t in targets if not t.startswith(_EXTERNAL)]


def test_relative_links_are_found() -> None:
    text = "[a](docs/a.md) [b](https://x.org) [c](#top) [d](docs/d.md#part) ![e](img.png)"
    assert relative_links(text) == ["docs/a.md", "docs/d.md", "img.png"]


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md"])
def test_relative_links_resolve(name: str) -> None:
    path = ROOT / name
    missing = [
        t for t in relative_links(path.read_text(encoding="utf-8")) if not (ROOT / t).exists()
    ]
    assert not missing, f"{name} links to files that do not exist: {missing}"
