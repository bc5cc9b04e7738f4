"""Review GA, of the session's final state.

GA1: the repository's `http.proxy` (with `http.sslVerify = false`, or `remote.X.proxy`,
`http.sslCAInfo` …) sent an approved pull through the attacker's proxy, which read the
user's token. GA2: a remote's name counted from files git never reads (`config.worktree`
without `extensions.worktreeConfig`, an `includeIf` whose condition is false), so a
committed `up.git` passed as a named remote. GA3: a push's path was looked for from the
working folder, while git reads it from the work tree's top. GA4: black's documented
`include = '\\.pyi?$'` made every approved `black` ask."""

from __future__ import annotations

import socket
import subprocess
import threading
from pathlib import Path

import pytest
from realrun import asks, decide, git_out, untracked_stash_repository

from policylang import Verdict


def _first_request_through(workspace: Path, proxy: socket.socket) -> str:
    """Run `git ls-remote origin` in `workspace` and return the first line its proxy got."""
    got: list[bytes] = []

    def accept() -> None:
        connection, _address = proxy.accept()
        with connection:
            got.append(connection.recv(4096))

    listener = threading.Thread(target=accept, daemon=True)
    listener.start()
    subprocess.run(["git", "ls-remote", "origin"], cwd=workspace, capture_output=True,
                   timeout=30, check=False)  # fmt: skip
    listener.join(timeout=10)
    return got[0].decode("latin-1").splitlines()[0] if got else ""


@pytest.mark.parametrize(
    ("key", "value"),
    [("http.sslVerify", "false"), ("http.sslCAInfo", "ca.pem"),
     ("remote.origin.proxy", "http://127.0.0.1:9"), ("http.https://example.invalid/.proxy", "x")],
)  # fmt: skip
def test_ga1_the_repositorys_network_settings_ask(tmp_path: Path, key: str, value: str) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    git_out(workspace, "config", key, value)
    for line, approval in (("git pull", "git pull"), ("git fetch origin", "git fetch"),
                           ("git push origin main", "git push"),
                           ("git ls-remote origin", "git ls-remote"),
                           ("git remote update", "git remote update")):  # fmt: skip
        asks(line, workspace, env, approval)


def test_ga1_git_goes_through_the_repositorys_proxy(tmp_path: Path) -> None:
    workspace, _env = untracked_stash_repository(tmp_path)
    with socket.socket() as proxy:
        proxy.bind(("127.0.0.1", 0))
        proxy.listen(1)
        git_out(workspace, "config", "http.proxy", f"http://127.0.0.1:{proxy.getsockname()[1]}")
        first = _first_request_through(workspace, proxy)
    assert first.startswith("CONNECT example.invalid:443"), first  # what git did


def _crafted_bare(workspace: Path, marker: Path) -> None:
    """A bare `up.git` committed at the top, whose `pre-receive` hook leaves `marker`."""
    git_out(workspace, "init", "-q", "--bare", "up.git")
    hook = workspace / "up.git" / "hooks" / "pre-receive"
    hook.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    hook.chmod(0o755)


@pytest.mark.parametrize("where", ["worktree", "includeif"])
def test_ga2_ga3_a_remote_named_where_git_does_not_read(tmp_path: Path, where: str) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    (workspace / "src").mkdir()
    marker = tmp_path / "hook-ran"
    _crafted_bare(workspace, marker)
    section = '[remote "up.git"]\n\turl = https://example.invalid/up.git\n'
    if where == "worktree":
        (workspace / ".git" / "config.worktree").write_text(section)
    else:
        (workspace / ".git" / "never.cfg").write_text(section)
        with (workspace / ".git" / "config").open("a") as config:
            config.write('[includeIf "gitdir:/nowhere/"]\n\tpath = never.cfg\n')
    assert "up.git" not in git_out(workspace, "remote").split()  # git reads no such remote
    src = workspace / "src"
    asks("git push up.git main", workspace, env, "git push", cwd=src)
    asks("git pull --no-ff --no-edit up.git", workspace, env, "git pull", cwd=src)
    git_out(src, "push", "-q", "up.git", "main")  # what git does: from the top, hooks run
    assert marker.exists()


@pytest.mark.parametrize(
    ("include", "verdict"),
    [(r"'\.pyi?$'", Verdict.ALLOW), (r"'(\.pyi?|\.ipynb)$'", Verdict.ALLOW),
     (r"'\.env$'", Verdict.ASK), (r"'.*'", Verdict.ASK)],
)  # fmt: skip
def test_ga4_blacks_documented_include_stays_approved(
    tmp_path: Path, include: str, verdict: Verdict
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "app.py").write_text("x = 1\n")
    (workspace / "pyproject.toml").write_text(
        f"[tool.black]\nline-length = 100\ninclude = {include}\n"
    )
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    assert decide("black .", workspace, env, "black").verdict is verdict
