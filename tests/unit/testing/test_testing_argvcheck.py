"""The argv oracle runs lines in a real bash inside bubblewrap and logs what they run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from policylang.testing import argvcheck
from policylang.testing.argvcheck import executed_argvs, soup_lines, uncovered

pytestmark = pytest.mark.skipif(
    shutil.which("bwrap") is None or shutil.which("bash") is None,
    reason="needs bubblewrap and bash (scripts/system-deps.sh installs them)",
)


def test_each_command_bash_runs_is_logged_on_both_sides_of_and_or() -> None:
    ran = executed_argvs(["echo hi $((1+2))", "true && ls -l || cat x", "exit 3"])
    assert ran[0] == (("echo", "hi", "3"), ("echo", "hi", "3"))
    # first with every command succeeding, then failing
    assert ran[1] == (("true",), ("ls", "-l"), ("true",), ("cat", "x"))
    assert ran[2] == ()


def test_a_run_that_does_not_end_has_no_argvs() -> None:
    assert executed_argvs(["while :; do :; done", "echo after"]) == (None, (("echo", "after"),) * 2)


def test_commands_inside_substitutions_and_unknown_names_are_logged() -> None:
    (ran,) = executed_argvs(["echo $(date -u) `pwd`; frobnicate --x"])
    assert ran is not None
    assert ("date", "-u") in ran
    assert ("pwd",) in ran
    assert ("frobnicate", "--x") in ran


def test_the_lines_cannot_write_outside_their_sandbox(tmp_path: Path) -> None:
    target = tmp_path / "written"
    (ran,) = executed_argvs([f"echo x > {target}; echo y >> /etc/policylang-argvcheck"])
    assert ran is not None
    assert not target.exists()
    assert not Path("/etc/policylang-argvcheck").exists()


def test_uncovered_lists_what_the_model_does_not_hold() -> None:
    assert uncovered("echo $x b", [("echo", "1", "2", "b"), ("echo", "b")]) == []
    assert uncovered("echo a", [("echo", "a"), ("rm", "-rf", "/")]) == [("rm", "-rf", "/")]
    # wrapped commands and nested lines are part of the model
    line = "timeout 5 ls a $(date)"
    assert uncovered(line, [("date",), ("ls", "a", "d1", "d2"), ("timeout", "5", "ls", "a")]) == []
    assert uncovered(line, [("date",), ("ls", "x")]) == [("ls", "x")]


def test_without_bubblewrap_nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(argvcheck.shutil, "which", lambda _name: None)
    with pytest.raises(argvcheck.SandboxUnavailableError, match="bubblewrap"):
        executed_argvs(["echo hi"])


def test_soup_lines_are_reproducible() -> None:
    assert soup_lines(7, 50) == soup_lines(7, 50)
    assert soup_lines(7, 50) != soup_lines(8, 50)
    assert all(line.strip() for line in soup_lines(7, 50))
