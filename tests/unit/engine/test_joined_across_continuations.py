r"""Words bash joins across a line continuation that tree-sitter reads as two: in
`LC_ALL=C\⏎echo rm -rf DIR` tree-sitter ends the assignment's value at the `\`, so the
model ran `echo rm -rf DIR` (allowed) while bash sets `LC_ALL=Cecho` and runs `rm -rf DIR`
(found this session, no set-up needed). Checked against real bash."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import Verdict, load_policy

JOINED = [
    "LC_ALL=C\\\necho rm -rf victim",
    "LANG=C\\\necho rm -rf victim",
    "LC_ALL=C\\\n\\\necho rm -rf victim",
    "LC_ALL='C'\\\necho rm -rf victim",
    'LC_ALL="C"\\\necho rm -rf victim',
    "ls && LC_ALL=C\\\necho rm -rf victim",
    "echo $(LC_ALL=C\\\necho rm -rf victim)",
    "(LC_ALL=C\\\necho rm -rf victim)",
    "LC_ALL=C\\\necho rm -rf victim | cat",
]


@pytest.mark.parametrize("line", JOINED)
def test_bash_runs_the_word_after_the_joined_assignment(line: str, tmp_path: Path) -> None:
    (tmp_path / "victim").mkdir()
    subprocess.run(
        ["bash", "-c", line], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
        capture_output=True, timeout=30, check=False,
    )  # fmt: skip
    assert not (tmp_path / "victim").exists()  # bash ran `rm -rf victim`
    decision = load_policy().evaluate(line, workspace=str(tmp_path))
    assert decision.verdict is not Verdict.ALLOW
    assert any("line continuation" in reason.message for reason in decision.reasons)


@pytest.mark.parametrize(
    "line",
    [
        "LC_ALL=C \\\necho hi",  # a blank before the continuation: two words for bash too
        "LC_ALL=C\\\n echo hi",  # and after it
        "ls \\\n-l",
        "echo a\\\nb",  # one word for both
        'echo "a"\\\nb',
    ],
)
def test_words_split_by_a_blank_around_a_continuation_stay_allowed(
    line: str, tmp_path: Path
) -> None:
    decision = load_policy().evaluate(line, workspace=str(tmp_path))
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("prefix", ["CI=\\\n ", "LC_ALL=\\\n ", "case a in a) CI=\\\n "])
def test_an_assignment_continued_onto_a_blank_runs_the_next_word(
    prefix: str, tmp_path: Path
) -> None:
    # `CI=\⏎ reboot` runs `reboot` (the mutation sweep with replacements, seed 1):
    # tree-sitter read the value `reboot` and no command; here a marker program stands in
    program = tmp_path / "marker-program"
    program.write_text("#!/bin/sh\ntouch ran\n")
    program.chmod(0o755)
    line = prefix + "marker-program" + (";; esac" if prefix.startswith("case") else "")
    subprocess.run(
        ["bash", "-c", line], cwd=tmp_path, env={"PATH": f"{tmp_path}:/usr/bin:/bin"},
        capture_output=True, timeout=30, check=False,
    )  # fmt: skip
    assert (tmp_path / "ran").exists()
    policy = load_policy()
    for command in (line, line.replace("marker-program", "reboot")):
        assert policy.evaluate(command, workspace=str(tmp_path)).verdict is not Verdict.ALLOW


@pytest.mark.parametrize("line", ["CI=\\\n1", "CI=1 LC_ALL=\\\nC"])
def test_an_assignment_joined_across_a_continuation_stays_allowed(
    line: str, tmp_path: Path
) -> None:
    decision = load_policy().evaluate(line, workspace=str(tmp_path))
    assert decision.verdict is Verdict.ALLOW, decision.explain()
