"""Review FK2: under the ci and readonly policies, a deny rule that "may match" (its clause
looks at a word that is not literal) asked, and that ask hid a deny that holds whichever
way the word goes: a read-only rule's write (`echo "$X" > out.txt` under readonly, `date
$X > out.txt` under ci), or an allow rule's certain exception left to `default deny` (`git
blame $X --contents x README.md`). A floor beside a read-only rule hid its write the same
way (`nohup echo hi > out.txt`, `xargs echo > out.txt`). Whatever `$X` holds, the redirect
writes: the line is denied. A line with only an undecidable deny still asks under the
default policy; ci and readonly, where nobody answers, deny it (review FW5)."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

import pytest
from realrun import canary_environment, git_ok

from policylang import Verdict
from policylang.engine.policy import Policy, load_policy, shipped_ruleset


@functools.cache
def _policy(name: str) -> Policy:
    return load_policy(shipped_ruleset(name), check=False, snapshot=False)


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README.md").write_text("line one\n")
    (workspace / "x").write_text("CANARY_CONTENTS\n")
    git_ok(workspace, "init", "-q", "-b", "main", ".")
    git_ok(workspace, "add", "README.md")
    git_ok(workspace, "commit", "-qm", "x")
    return workspace


def _verdict(name: str, line: str, workspace: Path) -> Verdict:
    decision = _policy(name).evaluate(
        line, workspace=str(workspace), env=canary_environment(workspace)
    )
    return decision.verdict


def _bash(line: str, workspace: Path) -> str:
    done = subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=canary_environment(workspace, X=""),
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("policy", "line"),
    [("readonly", 'echo "$X" > out.txt'), ("readonly", "echo $X >> out.txt"),
     ("ci", "date $X > out.txt"), ("readonly", "date $X > out.txt"),
     ("ci", "less $X > out.txt"), ("ci", "ps $X > out.txt"),
     ("ci", "nohup echo hi > out.txt"), ("readonly", "xargs echo > out.txt")],
)  # fmt: skip
def test_fk2_a_write_beside_an_undecidable_rule_is_denied(
    tmp_path: Path, policy: str, line: str
) -> None:
    workspace = _workspace(tmp_path)
    assert _verdict(policy, line, workspace) is Verdict.DENY
    _bash(f"{line} < /dev/null", workspace)
    assert (workspace / "out.txt").exists()  # (the redirect wrote, whatever $X held)


@pytest.mark.parametrize("policy", ["ci", "readonly"])
def test_fk2_a_certain_exception_beside_an_undecidable_deny_is_denied(
    tmp_path: Path, policy: str
) -> None:
    workspace = _workspace(tmp_path)
    line = "git blame $X --contents x README.md"
    assert _verdict(policy, line, workspace) is Verdict.DENY
    # the exception holds whatever $X is: `--contents x` prints the file x
    assert "CANARY_CONTENTS" in _bash(line, workspace)
    assert _verdict(policy, "git blame --contents x README.md", workspace) is Verdict.DENY


@pytest.mark.parametrize(
    ("policy", "line"),
    [("default", "date $X > out.txt"), ("default", "git blame $X --contents x README.md"),
     ("ci", "cat $X")],
)  # fmt: skip
def test_fk2_an_undecidable_deny_alone_still_asks(tmp_path: Path, policy: str, line: str) -> None:
    workspace = _workspace(tmp_path)
    assert _verdict(policy, line, workspace) is Verdict.ASK


@pytest.mark.parametrize("policy", ["ci", "readonly"])
def test_fw5_an_undecidable_deny_alone_is_denied_where_nobody_answers(
    tmp_path: Path, policy: str
) -> None:
    workspace = _workspace(tmp_path)
    assert _verdict(policy, "tree $X", workspace) is Verdict.DENY
