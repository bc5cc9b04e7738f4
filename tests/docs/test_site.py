"""The documentation site builds with `mkdocs build --strict` (broken links and anchors,
pages missing from the nav and nav entries with typos all fail it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from doc_examples import ROOT, venv_bin

# The pages on disk when the site was built (listed first, so a page written meanwhile
# by someone else cannot make the check below flaky).
PAGES: list[Path] = []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this module with `mkdocs build --strict`."""
    PAGES[:] = sorted((ROOT / "docs").rglob("*.md"))
    out = tmp_path_factory.mktemp("mkdocs") / "site"
    done = subprocess.run(
        [str(venv_bin() / "mkdocs"), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


def test_every_page_is_rendered(site: Path) -> None:
    assert PAGES
    for page in PAGES:
        relative = page.relative_to(ROOT / "docs").with_suffix("")
        name = "index.html" if relative.name == "index" else f"{relative.as_posix()}/index.html"
        assert (site / name).is_file(), f"docs/{relative}.md was not rendered to {name}"


def test_built_site_loads_nothing_from_the_network(site: Path) -> None:
    """The theme's web fonts are off (`theme.font: false`): pages must render offline."""
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text, html
        assert 'src="http' not in text, f"{html} loads a script or image from the network"


def test_contributing_page_includes_the_root_contributing_file(site: Path) -> None:
    html = (site / "contributing/index.html").read_text(encoding="utf-8")
    assert '<p>--8&lt;-- "CONTRIBUTING.md"</p>' not in html  # the include was resolved
    assert "Where things live" in html


def test_table_code_spans_show_plain_pipes(site: Path) -> None:
    """Pages escape `|` in table code spans the GitHub way; the site shows a plain `|`."""
    html = (site / "concepts/index.html").read_text(encoding="utf-8")
    assert "<code>cat README.md | wc -l</code>" in html
    assert "<code>cat README.md \\| wc -l</code>" not in html
