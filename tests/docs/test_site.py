"""The documentation site builds with `mkdocs build --strict` (broken links, pages missing
from the nav and nav entries with typos all fail it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from doc_examples import ROOT, venv_bin


def test_mkdocs_strict_build(tmp_path: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [str(venv_bin() / "mkdocs"), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    for page in sorted((ROOT / "docs").rglob("*.md")):
        relative = page.relative_to(ROOT / "docs").with_suffix("")
        html = (
            tmp_path
            / "site"
            / ("index.html" if relative.name == "index" else f"{relative.as_posix()}/index.html")
        )
        assert html.is_file(), f"docs/{relative}.md was not rendered to {html}"
