"""Review BY: shell state bash changes through channels the engine did not read as
assignments. Arithmetic assigns (`(( PATH=11 )); ls` ran a shipped `11/ls`), a
here-document body of a builtin or compound expands in this shell (`: <<E⏎${CDPATH=$HOME}⏎E`),
an array assignment's elements and subscripts expand (`LC_ALL=(${CDPATH=$HOME})`), and
`coproc NAME` assigns NAME (`coproc CDPATH { :; }` made `cd docs` go to a shipped
`63/docs`). Each line runs in a real bash beside its verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import judged_and_run

from policylang import Verdict
from policylang.engine.policy import load_policy

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("AWS-MARKER\n")
    workspace = tmp_path / "ws"
    for folder in ("10", "11", "12", "13"):
        fake = workspace / folder / "ls"
        fake.parent.mkdir(parents=True)
        fake.write_text(f"#!/bin/sh\necho FAKE-LS-{folder}\n")
        fake.chmod(0o755)
    (workspace / "63").mkdir()
    (workspace / "63" / "docs").symlink_to(home)
    return home


def _run(line: str, home: Path) -> tuple[Verdict, str]:
    return judged_and_run(line, home.parent / "ws", home)


@pytest.mark.parametrize(
    "line",
    [
        "(( PATH=11 )); ls",
        ": $(( PATH=11 )); ls",
        "echo $[ PATH=13 ]; ls",
        "[[ 1 -lt PATH=10 ]] && ls",
        "echo ${x[PATH=12]}; ls",
        "test -v 'x[PATH=11]'; ls",
        "for ((PATH=11;0;)); do :; done; ls",
        "for x in PATH=11; do (( x )); done; ls",
        "LC_ALL[PATH=11]=C; ls",
        "LC_ALL=([PATH=11]=C); ls",
        "true <<-E\n\t$[PATH=11]\n\tE\nls",
    ],
)
def test_an_arithmetic_assignment_of_path_asks(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "FAKE-LS-1" in printed  # bash ran the shipped ls
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        ": <<E\n${CDPATH=$HOME}\nE\ncd .aws && cat credentials",  # BY3
        "{ :; } <<E\n${CDPATH=$HOME}\nE\ncd .aws && cat credentials",
        "LC_ALL=(${CDPATH=$HOME}); cd .aws && cat credentials",  # BY4
        "TZ[${HOME#${CDPATH=$HOME}}0]=UTC; cd .aws && cat credentials",
        "(( CDPATH=63 )); cd docs && cat .aws/credentials",  # BY2
        "coproc CDPATH { :; }; cd docs && cat .aws/credentials",  # BY1
    ],
)
def test_a_hidden_cdpath_assignment_asks(line: str, home: Path) -> None:
    verdict, printed = _run(line, home)
    assert "AWS-MARKER" in printed
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "for ((i=0;i<3;i++)); do echo $i; done",
        "echo $((x+1)) $((y==2)) $((a<=b)) ${arr[i+1]}",
        "(( count++ ))",
        "cat <<E\nexport PATH=/x\nE",
        "coproc { ls; }",
    ],
)
def test_arithmetic_and_bodies_that_assign_nothing_of_note_stay_allowed(
    line: str, home: Path
) -> None:
    verdict, _printed = _run(line, home)
    assert verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line", ["(( PATH[0]=11 ))", "echo $(( 1 + (HOME[0]=3) ))", ": $(( ++CDPATH ))"]
)
def test_the_arithmetic_assignment_is_named_whatever_the_subscript(line: str) -> None:
    decision = load_policy().evaluate(line, workspace="/nonexistent/ws", env={"HOME": "/h"})
    assert "engine.arithmetic-assignment" in {reason.rule_id for reason in decision.reasons}
