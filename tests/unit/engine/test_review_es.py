"""Review ES: values trusted from loop variables.

ES1: for an unquoted `$f` over a glob's matches, bash splits each match at blanks and
globs the pieces again: a committed file named `a .env b.txt` made `for f in *.txt; do head
$f; done` read `.env`. A match with a blank, a glob character or a backslash asks now, and
so does the loop where the line writes files (it may make such a name). ES2: `""$f` is an
unquoted `$f` between empty strings, not `"$f"`."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("CANARY_ES_AWS\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("CANARY_ES_ENV\n")
    (workspace / "notes.txt").write_text("notes\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    ("name", "line"),
    [("a .env b.txt", "for f in *.txt; do head -n 5 $f; done"),
     ("x .e*", "for f in *; do cat $f; done"),
     ("\\.en?", "for f in *; do cat ${f}; done")],
)  # fmt: skip
def test_a_match_bash_splits_again_asks(tmp_path: Path, name: str, line: str) -> None:
    workspace, env = _setting(tmp_path)
    (workspace / name).write_text("x\n")
    assert "CANARY_ES_ENV" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_a_name_the_line_makes_may_be_split_again(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    line = "touch 'x .e*'; for f in x*; do cat $f; done"
    assert "CANARY_ES_ENV" in run_printed(line, workspace, env)
    (workspace / "x .e*").unlink()
    assert decide("touch notes.txt", workspace, env).suggested_rule == "touch"
    decision = decide(line, workspace, env, "touch")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_plain_names_and_quoted_uses_stay_allowed(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    for line in ("for f in *.txt; do head -n 5 $f; done",
                 "for f in *.txt; do head -n 5 \"$f\"; done"):  # fmt: skip
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line
    (workspace / "a .env b.txt").write_text("x\n")
    assert decide('for f in *.txt; do head "$f"; done', workspace, env).verdict is Verdict.ALLOW


@pytest.mark.parametrize("use", ['""$f', '""${f}', '""$f""'])
def test_empty_strings_around_a_variable_leave_it_unquoted(tmp_path: Path, use: str) -> None:
    workspace, env = _setting(tmp_path)
    line = f'for f in "notes.txt {env["HOME"]}/.aws/credentials"; do cat {use}; done'
    assert "CANARY_ES_AWS" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
