"""Review EX: rg's `-t all` selects the types `--type-add` makes too (EX1); a type glob of
`**/` alone matches every file (EX2); Debian's `rgrep` is `grep -r` (EX3: approved as the
engine suggested, `rgrep API .` printed `.env`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / ".env").write_text("API=CANARY_EX_ENV\n")
    (workspace / "docs" / "a.md").write_text("API in docs\n")
    (tmp_path / "home").mkdir()
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.skipif(shutil.which("rg") is None, reason="needs ripgrep (scripts/system-deps.sh)")
@pytest.mark.parametrize(
    "line",
    ["rg --type-add 'x:.env' -tall API", "rg --type-add 'x:**/' -tx API",
     "rg --type-add 'x:**/**/' -tx API"],
)  # fmt: skip
def test_added_types_are_read_as_rg_reads_them(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EX_ENV" in run_printed(line, workspace, env)
    assert decide(line, workspace, env).verdict is Verdict.DENY


def test_the_built_in_types_stay_allowed(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    for line in ("rg -tall API", "rg -tmd API", "rg --type-add 'x:*.md' -tx API"):
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line


@pytest.mark.skipif(shutil.which("rgrep") is None, reason="needs rgrep (Debian's grep)")
@pytest.mark.parametrize("line", ["rgrep API .", "rgrep API"])
def test_rgrep_is_grep_r(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EX_ENV" in run_printed(line, workspace, env)
    assert decide("rgrep TODO docs", workspace, env).suggested_rule == "rgrep"
    assert decide(line, workspace, env, "rgrep").verdict is Verdict.DENY
    assert decide("rgrep API docs", workspace, env, "rgrep").verdict is Verdict.ALLOW
