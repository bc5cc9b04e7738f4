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
