"""Review BW2: a folder moved or copied in the line keeps its links under a name no word
spells, and later segments resolved that name before it existed: `mv fix y && cat
y/hl/.aws/credentials` (a committed `fix/hl -> ~`) printed the key under an approval of
`mv`. Such moves and copies now make the line's other path users ask, as a checkout
does (review BV5). bash runs for real."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import approved, run_real

from policylang import Verdict


@pytest.fixture
def linked(workspace: Path) -> Path:
    home = workspace.parent / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AWS-MARKER\n")
    (workspace / "fix").mkdir()
    (workspace / "docs").mkdir()
    (workspace / "fix" / "hl").symlink_to(home)
    return workspace


def _verdict(command: str, workspace: Path) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    policy = approved("mv", "cp", "mkdir")
    return policy.evaluate(command, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "command",
    [
        "mv fix y && cat y/hl/.aws/credentials",
        "mv fix docs/ && cat docs/fix/hl/.aws/credentials",
        "mkdir -p d && mv fix d && cat d/fix/hl/.aws/credentials",
        "cp -r fix -t docs && cat docs/fix/hl/.aws/credentials",
        "cp -rt docs fix && cat docs/fix/hl/.aws/credentials",
    ],
)
def test_a_moved_folder_s_links_are_not_read_through_under_approvals(
    linked: Path, command: str
) -> None:
    assert _verdict(command, linked) is not Verdict.ALLOW
    assert "AWS-MARKER" in run_real(["bash", "-c", command], linked).stdout  # what it is for


@pytest.mark.parametrize(
    "command", ["mv a.txt b.txt", "mv a b && echo done", "cp a b && cat b", "cp -r src out"]
)
def test_plain_moves_and_copies_stay_approved(linked: Path, command: str) -> None:
    assert _verdict(command, linked) is Verdict.ALLOW
