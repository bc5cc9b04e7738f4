"""Review HK1, HK2: rsync's `--old-dirs` (and its alias `--old-d`) copies a folder's
own entries as `-d` does (rsync's `xfer_dirs` 4: `-r` one level deep), and follows
links with `-L`; the engine's list of rsync's folder-copying options lacked it, so under
the offered `rsync` approval `rsync --old-dirs -L pl/ out/` copied the key `pl/k` led to
and `rsync --old-dirs cfg/ .` overwrote `CLAUDE.md` (both seen with rsync 3.5.0).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import decide, git_ok, run_real

from policylang import Verdict

_HAS_RSYNC = shutil.which("rsync") is not None


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A repository with `pl/k` (a link to the home's key), `cfg/` holding a
    `CLAUDE.md`, `src/` holding a plain file, and a home beside it."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    git_ok(ws, "init", "-q")
    for folder in ("pl", "out", "cfg", "src", "dst"):
        (ws / folder).mkdir()
    (ws / "pl" / "k").symlink_to(home / ".ssh" / "id_rsa")
    (ws / "cfg" / "CLAUDE.md").write_text("evil\n")
    (ws / "CLAUDE.md").write_text("the project's\n")
    (ws / "src" / "s.txt").write_text("s\n")
    return ws


def _env(ws: Path) -> dict[str, str]:
    return {"HOME": str(ws.parent / "home"), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    "line",
    ["rsync --old-dirs -L pl/ out/", "rsync --old-d -L pl/ out/",
     "rsync --old-dirs --copy-links pl/ out/", "rsync --old-dirs --copy-unsafe-links pl/ out/"],
)  # fmt: skip
def test_hk1_old_dirs_following_links_is_not_approved(workspace: Path, line: str) -> None:
    offered = decide(line, workspace, _env(workspace))
    assert offered.verdict is not Verdict.ALLOW, offered.explain()
    for approval in ("rsync", offered.suggested_rule):
        if approval is None:
            continue
        decision = decide(line, workspace, _env(workspace), approval)
        assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("line", ["rsync --old-dirs cfg/ .", "rsync --old-d cfg/ ."])
def test_hk2_old_dirs_onto_agent_files_is_denied_as_dirs_is(workspace: Path, line: str) -> None:
    dirs = decide("rsync -d cfg/ .", workspace, _env(workspace), "rsync")
    assert dirs.verdict is Verdict.DENY, dirs.explain()
    decision = decide(line, workspace, _env(workspace), "rsync")
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_hk_old_dirs_guard(workspace: Path) -> None:
    """A folder copy with no link followed and nothing protected keeps the approval."""
    decision = decide("rsync --old-dirs src/ dst/", workspace, _env(workspace), "rsync")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(not _HAS_RSYNC, reason="rsync is not installed (premise only)")
def test_hk_premise_real_rsync_copies_through_the_link_and_writes_claude_md(
    workspace: Path,
) -> None:
    done = run_real(["rsync", "--old-dirs", "-L", "pl/", "out/"], workspace)
    assert done.returncode == 0, done.stderr
    assert (workspace / "out" / "k").read_text() == "PRIVATE KEY\n"
    done = run_real(["rsync", "--old-dirs", "cfg/", "."], workspace)
    assert done.returncode == 0, done.stderr
    assert (workspace / "CLAUDE.md").read_text() == "evil\n"
