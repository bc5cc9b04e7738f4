r"""Review CC's findings about line continuations (CC1, CC2, CC8, CC9): bash removes each
`\⏎` before it reads tokens, tree-sitter only where it expects one. `t\⏎ime -v ls` is the
`time` keyword running `-v` (CC1), `$(\⏎(` is arithmetic (CC2), `$GITHUB_TO\⏎KEN`
expands GITHUB_TOKEN (CC8) and `${_@\⏎P}` is a prompt expansion (CC9); each was allowed.
Text glued to a continuation on both sides is now `shell.syntax-mismatch`, unless one
literal word of the model spans it and bash reads that word as a plain word. Checked
against real bash."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import Verdict, load_policy
from policylang.shell.parse import parse_command


def _bash(line: str, cwd: Path, **env: str) -> str:
    done = subprocess.run(
        ["bash", "-c", line], cwd=cwd, env={"PATH": f"{cwd}:/usr/bin:/bin", **env},
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


def _verdict(line: str, workspace: Path, **env: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin", **env}
    return load_policy().evaluate(line, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    "line",
    [
        "echo \"$GITHUB_TO\\\nKEN\"",
        "echo $G\\\nITHUB_TOKEN",
        "echo \"$GITHUB\\\n_TOKEN\"",
        "echo \"${x:-$GITHUB_TO\\\nKEN}\"",
        "printf %s \"$GITHUB_TO\\\nKEN\"",
        "echo ${GITHUB_TO\\\nKEN}",
    ],
)
def test_cc8_a_secret_name_spelt_across_a_continuation_asks(line: str, tmp_path: Path) -> None:
    assert "ghp_MARKER" in _bash(line, tmp_path, GITHUB_TOKEN="ghp_MARKER")
    assert _verdict(line, tmp_path, GITHUB_TOKEN="ghp_MARKER") is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        ": '\\044(echo RAN-MARKER >&2)'; echo ${_@\\\nP}",
        ": '\\044(echo RAN-MARKER >&2)'; echo \"${_@\\\nP}\"",
        "printf -v LC_X '%s[%b(echo RAN-MARKER >&2)]' a '\\044'; echo $(\\\n(ls , LC_X))",
        "printf -v LC_X '%s[%b(echo RAN-MARKER >&2)]' a '\\044'; echo $(\\\n\\\n(1 , LC_X))",
    ],
)
def test_cc2_cc9_code_bash_finds_across_a_continuation_asks(line: str, tmp_path: Path) -> None:
    assert "RAN-MARKER" in _bash(line, tmp_path)
    assert _verdict(line, tmp_path) is not Verdict.ALLOW


@pytest.mark.parametrize("line", ["t\\\nime -v ls", "ti\\\nme -v ls", "! t\\\nime -v ls"])
def test_cc1_the_time_keyword_spelt_across_a_continuation_asks(line: str, tmp_path: Path) -> None:
    # bash's `time` keyword runs `-v`: here a program of that name on PATH
    program = tmp_path / "-v"
    program.write_text("#!/bin/sh\necho RAN-MARKER\n")
    program.chmod(0o755)
    assert "RAN-MARKER" in _bash(line, tmp_path)
    assert _verdict(line, tmp_path) is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "echo fi\\\nx",  # one literal word for both
        "echo a\\\nb",
        "echo 'a\\\nb'",
        'echo "a\\\nb"',
        "ls \\\n-l",  # a blank on one side: two words for both
        "ls\\\n -l",
        "git log --one\\\nline",
        "cat <<'E'\na\\\nb\nE",  # a body bash does not expand
        "LC_X[1]\\\n=a echo",  # an assignment read whole
    ],
)
def test_a_continuation_inside_a_plain_word_stays_allowed(line: str, tmp_path: Path) -> None:
    assert not any(p.code == "shell.syntax-mismatch" for p in parse_command(line).problems)


def test_a_here_document_body_starts_after_its_continued_first_line() -> None:
    # the body bash does not expand starts after the line holding `<<'E'`, which may be
    # continued: both continuations of the argument are before it, neither in the body
    from policylang.shell.parse import _glued_continuations

    text = "cat <<'E' \"$G\\\nITHUB_TO\\\nKEN\"\nx\nE"
    runs = [p.span.start for p in _glued_continuations(parse_command(text))]
    assert runs == [text.index("\\\n"), text.index("\\\n", text.index("\\\n") + 1)]
    assert _glued_continuations(parse_command("cat <<'E'\na\\\nb\nE")) == []
