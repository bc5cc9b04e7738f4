"""Review FD, of this session's first fixes.

FD1/FD2: the stash holds local changes put aside, a filled-in `.env` among them (EW4).
`git push origin stash:refs/heads/leak` published it under the approval of `git push`,
and `:/WIP on` (the newest commit whose message matches, searched from every ref, the
stash's too) named it without the word `stash`. FD3: equal raw bytes were taken for an
unchanged file, while git compares after the conversions a committed `.gitattributes`
asks for, and `git diff` printed the staged secret. FD4: more copies of the secrets."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import bare_rewrite, decide, git_out, stashed_repository

from policylang import Verdict

_git = git_out
_rewrite = bare_rewrite
_stashed = stashed_repository


@pytest.mark.parametrize(
    "line",
    ["git push origin stash:refs/heads/leak", "git push origin 'stash@{0}:refs/heads/leak'",
     "git push origin 'stash^1:refs/heads/leak'", "git push -q origin -- stash:refs/heads/leak",
     "git push origin \"$(git rev-parse stash)\":refs/heads/leak"],
)  # fmt: skip
def test_fd1_pushing_a_stash_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _stashed(tmp_path)
    assert decide("git push origin main", workspace, env).suggested_rule == "git push"
    decision = decide(line, workspace, env, "git push")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.approved-push-source" for r in decision.reasons)
    if "^1" in line:
        return  # (the stash's first parent: the commit it was made on)
    subprocess.run(["bash", "-c", line], cwd=workspace, check=True, timeout=60,
                   capture_output=True, env=_rewrite(tmp_path))  # fmt: skip
    leaked = _git(tmp_path, "--git-dir", str(tmp_path / "origin.git"), "show",
                  "leak:config/.env")  # fmt: skip
    assert "CANARY_FD" in leaked  # what git did: the stash went out


def test_fd1_pushing_branches_stays_approved(tmp_path: Path) -> None:
    workspace, env = _stashed(tmp_path)
    for line in ("git push origin main", "git push -u origin main:main", "git push origin HEAD",
                 "git push origin main:refs/heads/other", "git push"):  # fmt: skip
        assert decide(line, workspace, env, "git push").verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    ("approval", "line"),
    [("git reset", "git reset ':/WIP on' -- config"),
     ("git read-tree", "git read-tree ':/WIP on'"),
     ("git cherry-pick", "git cherry-pick -n -m1 ':/WIP on'"),
     ("git merge", "git merge --squash ':/WIP on'"),
     ("git switch", "git switch --detach ':/WIP on'")],
)  # fmt: skip
def test_fd2_a_stash_found_by_its_message_asks(tmp_path: Path, approval: str, line: str) -> None:
    workspace, env = _stashed(tmp_path)
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, check=True, timeout=60,
                   capture_output=True)  # fmt: skip
    shown = _git(workspace, "show", "HEAD:config/.env" if "switch" in line else ":config/.env")
    assert "CANARY_FD" in shown  # what git did: the stashed secret is staged or checked out


def test_fd3_a_converted_file_with_equal_bytes_still_asks(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("SECRET=CANARY_FD3\n$Id: x $\n")
    _git(workspace, "init", "-q", ".")
    _git(workspace, "add", ".env")
    _git(workspace, "commit", "-qm", "x")
    # the repository's attributes arrive later (a pull), and the file's stat data change:
    # git reads it through the `ident` conversion, which differs from the staged bytes
    (workspace / ".gitattributes").write_text(".env ident\n")
    os.utime(workspace / ".env")
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    decision = decide("git diff", workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "CANARY_FD3" in _git(workspace, "diff")  # what git prints


_COPIES = [".server.key.swp", ".id_rsa.swp", "#server.key#", "#id_rsa#", "server.key.bak",
           "tls.pem.orig", ".env (copy)", ".env copy", ".env(1)", ".netrc~", ".pgpass~",
           "#.netrc#", "sa.key.json"]  # fmt: skip


@pytest.mark.parametrize("name", _COPIES)
def test_fd4_copies_of_secrets_are_protected(tmp_path: Path, name: str) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / name).write_text("KEY=CANARY_FD4\n")
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    quoted = "'" + name + "'"
    ran = subprocess.run(["bash", "-c", f"cat {quoted}"], cwd=workspace, capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert "CANARY_FD4" in ran.stdout
    decision = decide(f"cat {quoted}", workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize("name", ["keys.py", "monkey.txt", "pem.md", "README.env.md"])
def test_fd4_names_alike_stay_readable(tmp_path: Path, name: str) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / name).write_text("x\n")
    (tmp_path / "home").mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    assert decide(f"cat {name}", workspace, env).verdict is Verdict.ALLOW
