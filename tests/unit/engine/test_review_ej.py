"""Review EJ: `\\c` in `$'…'` decoded as bash does.

bash reads `\\c\\\\` as one escape (control-backslash, 0x1c) using both backslashes; the
engine had used one, so the second began an escape of its own: `$'\\c\\\\0h/.ssh/id_rsa'`
gave a NUL, which cut the word to `\\x1c`, while bash read `<0x1c>0h/.ssh/id_rsa` through a
link the repository commits (EJ1). bash takes the byte after `\\c`: for a character beyond
ASCII the engine had taken the whole character, and `$'\\cà'` became a NUL too (EJ2); such
a word is not known now (its bytes depend on how the text is encoded), and `$'\\cß'` no
longer makes the analyser fail (EJ3)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict
from policylang.shell.parse import parse_command


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A home with a key, and a workspace two levels below it that commits a link named
    `<0x1c>0h` to home and a folder `<0x1c>00`, beside its `.env`."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("CANARY_EJ_KEY\n")
    workspace = home / "src" / "repo"
    workspace.mkdir(parents=True)
    (workspace / ".env").write_text("CANARY_EJ_ENV\n")
    os.symlink("../..", workspace / "\x1c0h")
    (workspace / "\x1c00").mkdir()
    os.symlink("../..", os.fsencode(workspace) + b"/\x03\xa0")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


_LINES = [
    ("cat $'\\c\\\\0h/.ssh/id_rsa'", "CANARY_EJ_KEY"),
    ("cat $'\\c\\\\00/../.env'", "CANARY_EJ_ENV"),
    ("grep -r . $'\\c\\\\0h/.ssh'", "CANARY_EJ_KEY"),
]


@pytest.mark.parametrize(("line", "canary"), _LINES)
def test_control_backslash_is_one_escape(tmp_path: Path, line: str, canary: str) -> None:
    workspace, env = _setting(tmp_path)
    assert canary in run_printed(line, workspace, env)  # what an allow let out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_an_approval_does_not_reach_through_the_spelling(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    assert decide("echo hi | tee out.txt", workspace, env).suggested_rule == "tee"
    line = "echo x | tee -a $'\\c\\\\00/../../../.bashrc'"
    assert decide(line, workspace, env, "tee").verdict is Verdict.DENY


def test_control_of_a_character_beyond_ascii_is_not_known(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    line = "cat $'\\cà/.ssh/id_rsa'"
    assert "CANARY_EJ_KEY" in run_printed(line, workspace, env)
    words = parse_command(line).segments[0].words
    assert words[1].value is None  # not `''`
    assert decide(line, workspace, env).verdict is not Verdict.ALLOW


@pytest.mark.parametrize("word", ["$'\\cß'", "$'\\cﬁ'", "$'\\cé'"])
def test_no_character_after_control_fails_the_analyser(word: str) -> None:
    segment = parse_command(f"echo {word}").segments[0]
    assert segment.words[1].value is None
    assert not parse_command(f"echo {word}").problems
