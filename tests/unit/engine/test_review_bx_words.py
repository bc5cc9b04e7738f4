"""Review BX4, BX8 under the default ruleset, with a real bash beside each verdict.

BX4: two line continuations in a row made an empty argument in the model, so `cd
\\⏎\\⏎; cat .aws/credentials` was `cd ''` (staying in the workspace) where bash runs a
bare `cd` to home. BX8: a `}` before the first comma does not close a brace expansion,
so `find README.md -name {x},-o,-exec,sh,-c,id,\\;}` ran `sh -c id`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import run_real

from policylang import Verdict
from policylang.engine.policy import load_policy

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("AWS-MARKER\n")
    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / "README.md").write_text("hello\n")
    return home


def _verdict(line: str, home: Path) -> Verdict:
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    workspace = str(home.parent / "ws")
    return load_policy().evaluate(line, workspace=workspace, env=environment).verdict


@pytest.mark.parametrize(
    "line", ["cd \\\n\\\n; cat .aws/credentials", "cd \\\n\\\n&& cat .aws/credentials"]
)
def test_line_continuations_alone_are_no_argument(line: str, home: Path) -> None:
    printed = run_real(["bash", "-c", line], home.parent / "ws", home).stdout
    assert "AWS-MARKER" in printed  # bash went home
    assert _verdict(line, home) is Verdict.DENY


def test_a_brace_expansion_closed_after_its_first_comma_is_not_literal(home: Path) -> None:
    line = "find README.md -name {x},-o,-exec,touch,made,\\;}"
    run_real(["bash", "-c", line], home.parent / "ws", home)
    assert (home.parent / "ws" / "made").exists()  # bash ran `-exec touch made`
    assert _verdict(line, home) is not Verdict.ALLOW
    assert _verdict("find docs -name {x},-o,-delete}", home) is not Verdict.ALLOW


@pytest.mark.parametrize("line", ["cat 2147483648>/dev/stdout", "cat 2&>/dev/stdout"])
def test_digits_bash_passes_as_a_word_are_read_as_a_path(line: str, home: Path) -> None:
    # review BX5: a committed link named with digits; bash passes the digits to cat
    workspace = home.parent / "ws"
    name = line.split()[1].split("&")[0].split(">")[0]
    (workspace / name).symlink_to(home / ".aws" / "credentials")
    assert "AWS-MARKER" in run_real(["bash", "-c", line], workspace, home).stdout
    assert _verdict(line, home) is Verdict.DENY


def test_a_comment_after_an_escaped_blank_target_ends_the_command(home: Path) -> None:
    # found by the argv oracle: tree-sitter looked past `#c\` for the target of `<\ `, so
    # the model read `ls`… as that target; bash reads the file ` `, ends the line at the
    # comment and runs the next line
    line = "true <\\  #c\\\ncat ~/.aws/credentials"
    assert "AWS-MARKER" in run_real(["bash", "-c", line], home.parent / "ws", home).stdout
    assert _verdict(line, home) is Verdict.DENY
    assert _verdict("true <\\  #c\\\nrm -rf ~", home) is Verdict.DENY


@pytest.mark.parametrize(
    "line", ["cd <& -\\\n; cat .aws/credentials", "cd >& -\\\n&& cat .aws/credentials"]
)
def test_a_closing_dash_followed_by_a_continuation_passes_no_word(line: str, home: Path) -> None:
    # found by the argv oracle: the model passed `cd` an empty word (staying in the
    # workspace); bash removes the continuation and runs a bare `cd` to home
    printed = run_real(["bash", "-c", line], home.parent / "ws", home).stdout
    assert "AWS-MARKER" in printed
    assert _verdict(line, home) is Verdict.DENY
