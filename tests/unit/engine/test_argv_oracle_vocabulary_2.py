"""Found by the argv oracle's second vocabulary (`eval`, traps, `case` patterns, here-
documents, `\\⏎` and control characters anywhere): lines the default policy allowed
while bash ran or assigned something the analyser did not see. bash runs for real."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import judged_and_run

from policylang import Verdict


@pytest.mark.parametrize(
    "line",
    [
        'LC_ALL=(${\\\nCDPATH=x}); echo "CDPATH=$CDPATH"',
        'echo ${\\\nCDPATH=x}; echo "CDPATH=$CDPATH"',
        ': "${\\\nCDPATH:=x}"; echo "CDPATH=$CDPATH"',
    ],
)
def test_an_expansion_assigning_a_name_split_by_a_continuation_asks(
    workspace: Path, line: str
) -> None:
    # bash removes `\⏎` before it reads the name: `${\⏎CDPATH=x}` is `${CDPATH=x}`, and
    # `cd` then looks in `x`; the name was matched in the text as written
    verdict, output = judged_and_run(line, workspace, workspace.parent / "home")
    assert "CDPATH=x" in output.splitlines()
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize("glue", ["\v", "\f"])
def test_a_control_character_in_the_words_of_eval_asks(workspace: Path, glue: str) -> None:
    # tree-sitter splits `a<VT>\;` at the VT and `eval`'s string joined the pieces with a
    # blank (`echo a ;`); bash keeps one word, so `eval` runs `echo a<VT>;`
    line = f"eval echo a{glue}\\;"
    verdict, output = judged_and_run(line, workspace, workspace.parent / "home")
    assert output == f"a{glue}\n"
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "LC_X=(a)#; echo ran",
        "export LC_X=(a)#; echo ran",
        "echo $(true)\\\n#; echo ran",
        "LC_X=(a)\\ echo echo ran",
    ],
)
def test_a_command_after_an_array_or_substitution_glued_to_a_hash_asks(
    workspace: Path, line: str
) -> None:
    # bash reads on into the word after the `)`: the `#` starts no comment and `echo ran`
    # runs; the model had made the rest of the line a comment (or `echo` the command of
    # `LC_X=(a)\ echo echo ran`, where bash assigns `(a) echo` and runs `echo ran`)
    verdict, output = judged_and_run(line, workspace, workspace.parent / "home")
    assert "ran" in output.splitlines()
    assert verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        '(( HOME\\\n=5 )); echo "HOME=$HOME"',
        ': $[HOME\\\n=5]; echo "HOME=$HOME"',
    ],
)
def test_an_arithmetic_assignment_split_by_a_continuation_asks(
    workspace: Path, line: str
) -> None:
    # bash removes `\⏎` before it reads the expression, so HOME is assigned; a later
    # `git status` would read `5/.gitconfig` (review BY2's class)
    home = workspace.parent / "home"
    verdict, output = judged_and_run(line, workspace, home)
    assert "HOME=5" in output.splitlines()
    assert verdict is not Verdict.ALLOW


def test_a_blank_before_the_equals_sign_of_a_subscript_runs_a_command(workspace: Path) -> None:
    # bash runs the command `LC_X[1]` with `=a`, `echo` and `ran` (not found here); the
    # model read an assignment and held only `echo ran`
    verdict, output = judged_and_run("LC_X[1] =a echo ran", workspace, workspace.parent / "home")
    assert "LC_X[1]: command not found" in output
    assert "ran" not in output.splitlines()
    assert verdict is not Verdict.ALLOW


def test_a_closing_dash_after_a_continuation_passes_an_option_and_asks(workspace: Path) -> None:
    # `<& \⏎--i` closes standard input and passes `-i`: sed edits the file in place
    (workspace / "notes.txt").write_text("hello\n")
    line = "sed s/hello/pwned/ notes.txt <& \\\n--i"
    verdict, _ = judged_and_run(line, workspace, workspace.parent / "home")
    assert (workspace / "notes.txt").read_text() == "pwned\n"
    assert verdict is not Verdict.ALLOW


def test_a_command_after_a_here_document_ending_in_a_dollar_asks(workspace: Path) -> None:
    # bash ends the body at `E` and runs the next line; tree-sitter read `$⏎E` as `$E`
    home = workspace.parent / "home"
    verdict, output = judged_and_run("cat <<E\n$\nE\necho ran", workspace, home)
    assert output.splitlines() == ["$", "ran"]
    assert verdict is not Verdict.ALLOW


def test_a_bracket_glued_to_a_word_runs_that_command(workspace: Path) -> None:
    verdict, output = judged_and_run("[[= -v x ]] || ls", workspace, workspace.parent / "home")
    assert "[[=: command not found" in output
    assert verdict is not Verdict.ALLOW


def test_an_expansion_assigning_a_name_in_a_blank_indented_here_document_asks(
    workspace: Path,
) -> None:
    # tree-sitter records no expansion in a body whose first line starts with a blank;
    # bash expands `${CDPATH=x}` there, in this shell (found by the argv oracle)
    line = ': <<E\n ${CDPATH=x}\nE\necho "CDPATH=$CDPATH"'
    verdict, output = judged_and_run(line, workspace, workspace.parent / "home")
    assert "CDPATH=x" in output.splitlines()
    assert verdict is not Verdict.ALLOW
