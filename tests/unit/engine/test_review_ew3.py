"""Review EW3: whether a tracked protected file changed was judged by its size and
modification time alone. An edit that keeps the size, with the mtime put back (`touch -r`,
`cp -p`, `rsync -t`, `tar x`), looked unchanged, and `git add -u` / `git commit -am` were
allowed under approval while git, which also compares the change time and the inode,
staged the secret. Now the stat data git compares are compared, and a file whose stat data
differ is hashed as a blob and compared with the staged object id, as git does."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
_TEMPLATE = "DB_PASS=template\n"
_SECRET = "DB_PASS=CANARYEW\n"  # the same size as the template


def _git(workspace: Path, *args: str) -> str:
    done = subprocess.run(
        [*_GIT, *args], cwd=workspace, check=True, timeout=60, capture_output=True, text=True
    )
    return done.stdout


def _repository(tmp_path: Path, object_format: str) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / "config").mkdir(parents=True)
    (workspace / "config" / ".env").write_text(_TEMPLATE)
    (workspace / "src.txt").write_text("x\n")
    _git(workspace, "init", "-q", f"--object-format={object_format}", ".")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "x")
    time.sleep(0.05)  # past the racy window: the index is written after the files
    _git(workspace, "update-index", "--refresh")
    (tmp_path / "home").mkdir()
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def _edit_keeping_size_and_mtime(path: Path) -> None:
    before = os.stat(path)
    assert len(_SECRET) == len(_TEMPLATE)
    path.write_text(_SECRET)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # what `touch -r` does


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
@pytest.mark.parametrize("line", ["git add -u", "git add config", "git commit -am x"])
def test_an_edit_with_its_mtime_put_back_is_a_change(
    tmp_path: Path, object_format: str, line: str
) -> None:
    workspace, env = _repository(tmp_path, object_format)
    _edit_keeping_size_and_mtime(workspace / "config" / ".env")
    approval = line.rsplit(" ", 1)[0] if line.startswith("git commit") else "git add"
    approval = "git commit" if line.startswith("git commit") else approval
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("config/.env" in r.message for r in decision.reasons)
    # what git does: it sees the change and stages the secret
    subprocess.run([*_GIT, *line.split()[1:]], cwd=workspace, check=True, timeout=60)
    assert "CANARYEW" in _git(workspace, "show", "HEAD:config/.env" if "commit" in line
                                else ":config/.env")  # fmt: skip


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_a_touched_file_is_judged_by_its_stat_data(tmp_path: Path, object_format: str) -> None:
    workspace, env = _repository(tmp_path, object_format)
    (workspace / "config" / ".env").touch()  # new mtime and ctime, the same contents
    assert decide("git add -u", workspace, env, "git add").verdict is Verdict.ASK
    assert decide("git diff", workspace, env).verdict is Verdict.ASK


def test_an_untouched_file_stays_out(tmp_path: Path) -> None:
    workspace, env = _repository(tmp_path, "sha1")
    (workspace / "src.txt").write_text("y\n")
    decision = decide("git add -u", workspace, env, "git add")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    assert decide("git diff", workspace, env).verdict is Verdict.ALLOW


def test_a_real_edit_still_asks(tmp_path: Path) -> None:
    workspace, env = _repository(tmp_path, "sha1")
    (workspace / "config" / ".env").write_text("DB_PASS=a longer real secret\n")
    assert decide("git add -u", workspace, env, "git add").verdict is Verdict.ASK
    assert decide("git diff", workspace, env).verdict is Verdict.ASK
