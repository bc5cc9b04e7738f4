"""Review CX: path identity.

CX1: past PATH_MAX a lookup fails and a link there was taken as no link (a repository's
deep folders led a `cat` to `~/.aws/credentials`); CX2: hard-linked tree copies gave a
protected file a second, unprotected name; CX3, CX4: the files a list names
(`--files0-from`, `sha256sum -c`) were read unchecked."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import bash_ran, copy_workspace, judge

from policylang import Verdict
from policylang.engine import paths
from policylang.engine.policy import load_policy

_PART = "d" * 250


def _deep(workspace: Path, parts: int) -> str:
    """Make `parts` nested folders of 250 letters below `workspace`, step by step (the
    system refuses the whole path at once), and return their relative path."""
    folder = os.open(workspace, os.O_RDONLY)
    try:
        for _ in range(parts):
            os.mkdir(_PART, dir_fd=folder)
            inner = os.open(_PART, os.O_RDONLY, dir_fd=folder)
            os.close(folder)
            folder = inner
        # a link at the bottom to the root of the file system
        os.symlink("/", "root", dir_fd=folder)
    finally:
        os.close(folder)
    return "/".join([_PART] * parts)


@pytest.fixture
def deep(tmp_path: Path) -> tuple[Path, str, str]:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    relative = _deep(workspace, 18)
    half = "/".join([_PART] * 9)
    return workspace, relative, half


def test_cx1_a_path_past_path_max_is_not_known(deep: tuple[Path, str, str]) -> None:
    workspace, relative, half = deep
    assert paths.too_long(f"{workspace}/{relative}/root")
    credentials = f"{workspace.parent}/home/.aws/credentials"
    line = f"cd {half} && cd {half} && cat root{credentials}"
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    # what it would read: the shell walks the folders one `cd` at a time
    done = subprocess.run(
        ["bash", "-c", line], cwd=workspace, capture_output=True, text=True, check=True
    )
    assert "AKIASECRET" in done.stdout


def test_cx1_a_short_path_through_the_same_link_is_still_judged(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    os.symlink("/", workspace / "root")
    credentials = f"{workspace.parent}/home/.aws/credentials"
    assert judge(f"cat root{credentials}", workspace).verdict is Verdict.DENY


@pytest.fixture
def vscode(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "tasks.json").write_text('{"tasks": []}\n')
    (workspace / "src").mkdir()
    (workspace / "src" / "a.py").write_text("print(1)\n")
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("cp", "cp -al .vscode v"),
        ("cp", "cp -rl --parents .vscode v"),
        ("cp", "cp --link -r .vscode/ v"),
        ("cp", "cp -al . bk"),
        ("rsync", "rsync -a --link-dest={ws}/ .vscode v2"),
        ("rsync", "rsync -a --link-dest=../ws/ src/ v/"),
    ],
)
def test_cx2_a_hard_linked_tree_copy_of_protected_files_is_denied(
    vscode: Path, approval: str, line: str
) -> None:
    decision = judge(line.format(ws=vscode), vscode, approval)
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("cp", "cp -al src bk"), ("cp", "cp -r .vscode v"), ("rsync", "rsync -a src/ v/")],
)
def test_cx2_other_copies_stay_approved(vscode: Path, approval: str, line: str) -> None:
    assert judge(line, vscode, approval).verdict is Verdict.ALLOW


def test_cx2_the_link_really_shares_the_file(vscode: Path) -> None:
    bash_ran("cp -al .vscode v && echo '{\"pwned\": 1}' > v/tasks.json", vscode)
    assert "pwned" in (vscode / ".vscode" / "tasks.json").read_text()


@pytest.mark.parametrize(
    "line",
    [
        "printf '%s\\0' ~/.ssh | find -files0-from - -type f",
        "printf '%s\\0' ~/.ssh/id_rsa | wc --files0-from=-",
        "du -a --files0-from=list0",
        "wc --files0=list0",
        "sha256sum -c sums.txt",
        "b2sum --check sums.txt",
        "md5sum -c - <<< 'x  /etc/shadow'",
    ],
)
def test_cx3_cx4_files_a_list_names_ask(vscode: Path, line: str) -> None:
    decision = judge(line, vscode)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None


def test_a_long_path_with_a_lone_surrogate_is_measured_not_an_error() -> None:
    # review DN (beside the build comparison): `os.fsencode` raised on a lone high
    # surrogate, and `cat <1,100 characters>\ud800` failed as an internal error
    assert paths.too_long("x" * 1100 + "\ud800") is False
    assert paths.too_long("x" * 4094 + "\ud800") is True  # 4,097 bytes
    assert paths.too_long("x" * 4000 + "\udcc3") is False  # one byte, as the file name has
    policy = load_policy()
    decision = policy.evaluate(
        "cat " + "x" * 1100 + "\ud800", workspace="/nonexistent/ws", env={"HOME": "/nonexistent/h"}
    )
    assert all(r.rule_id != "shell.internal-error" for r in decision.reasons), decision.explain()
    assert all(r.rule_id != "engine.internal-error" for r in decision.reasons), decision.explain()
