"""Review EN: the analyser's own expansions against bash.

EN1/EN2: brace sequences as bash reads them (`{+01..1}` is `1`, not `01`); bounds or a
step beyond 64 bits keep the word as written, and are not expanded. EN3: `bash +B` turns
brace expansion off. EN4: dash expands no braces. EN5: escaped blanks before a loop's
first word belong to it (`for f in \\ y` loops over ` y`). EN6: globs are matched as bash
matches them (`[^x]`, `[[:alpha:]]`), not by Python's `fnmatch`. Each was a loop or glob
that reached `~/.ssh/id_rsa` or a workspace secret through a committed link under an
allow; the real bash runs below show what an allow let out."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict
from policylang.engine.paths import bounded_glob, glob_matches
from policylang.shell.braces import expand_braces


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("CANARY_EN_SSH\n")
    workspace = home / "src" / "repo"
    workspace.mkdir(parents=True)
    (workspace / "server.key").write_text("CANARY_EN_KEY\n")
    (workspace / "cert.pem").write_text("CANARY_EN_PEM\n")
    for name in ("x1", "x{a,b}", " y", "x{99999999999999999999..99999999999999999999}"):
        os.symlink("../../.ssh/id_rsa", workspace / name)
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


_LOOPS = [
    'for f in x{+01..1}; do cat "$f"; done',
    'for f in x{99999999999999999999..99999999999999999999}; do cat "$f"; done',
    "bash +B -c 'for f in x{a,b}; do cat \"$f\"; done'",
    "bash +euB -c 'for f in x{a,b}; do cat \"$f\"; done'",
    'for f in \\ y; do cat "$f"; done',
    'for f in \\ y README.md; do cat "$f"; done',
]


@pytest.mark.parametrize("line", _LOOPS)
def test_loops_bash_expands_otherwise_are_not_allowed(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EN_SSH" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.skipif(shutil.which("dash") is None, reason="needs dash (Debian's sh)")
def test_dash_expands_no_braces(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    line = "dash -c 'for f in x{a,b}; do cat \"$f\"; done'"
    assert "CANARY_EN_SSH" in run_printed(line, workspace, env)
    for spelled in (line, line.replace("dash", "sh", 1)):
        assert decide(spelled, workspace, env).verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    ["cat server.ke[^x]", "cat server.ke[[:alpha:]]", "cat server[[:punct:]]key",
     "cat server[^a-z]key", "cat server.[[:lower:]]ey", "cat *.ke[^x]", "cat cert.pe[^x]",
     "head cert.pe[[:alpha:]]", "cat x[[:digit:]]", "cat x[^a]"],
)  # fmt: skip
def test_bracket_globs_are_matched_as_bash_matches_them(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EN_" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_an_approved_writer_does_not_reach_a_secret_through_a_bracket(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    assert decide("echo hi | tee out.txt", workspace, env).suggested_rule == "tee"
    assert decide("echo x | tee server.ke[^x]", workspace, env, "tee").verdict is Verdict.DENY


def test_the_glob_matcher_agrees_with_bash(tmp_path: Path) -> None:
    """Patterns over one folder of names, matched by real bash and by `bounded_glob`; the
    engine may match more (classes are any character), never less."""
    folder = tmp_path / "names"
    folder.mkdir()
    names = ["fa", "fb", "fz", "f0", "f9", "f-", "f^", "f]", "f!", "fA", "f.", "f_"]
    for name in names:
        (folder / name).write_text("")
    patterns = ["f[^a]", "f[!a]", "f[a-c]", "f[^a-c]", "f[[:alpha:]]", "f[[:digit:]]",
                "f[]]", "f[^]]", "f[-a]", "f[a-]", "f[[:digit:]0]", "f[[=a=]]", "f[[.a.]]",
                "f[!^]", "f[^^]", "f?", "f*", "f[[:upper:]]", "f[![:alnum:]]"]
    for pattern in patterns:
        done = subprocess.run(
            ["bash", "-c", f"shopt -s nullglob; printf '%s\\n' {pattern}"], cwd=folder,
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        by_bash = {line for line in done.stdout.splitlines() if line}
        found = bounded_glob(f"{folder}/{pattern}", matches=100, visits=100)
        assert found is not None
        ours = {Path(p).name for p in found}
        assert by_bash <= ours, (pattern, by_bash, ours)
        if not any(kind in pattern for kind in ("[:", "[=", "[.")):
            assert ours == by_bash, (pattern, by_bash, ours)


@pytest.mark.parametrize(
    ("word", "expected"),
    [("x{+01..1}", ["x1"]), ("x{0..+03}", ["x0", "x1", "x2", "x3"]),
     ("x{00..+03}", ["x000", "x001", "x002", "x003"]), ("x{+00..1}", ["x0", "x1"]),
     ("x{99999999999999999999..99999999999999999999}", None),
     ("x{1..1..9223372036854775808}", None), ("x{a..c..-9223372036854775808}", None),
     ("x{01..03}", ["x01", "x02", "x03"]), ("x{-1..1}", ["x-1", "x0", "x1"])],
)  # fmt: skip
def test_brace_sequences_bash_reads_otherwise_are_not_expanded(
    word: str, expected: list[str] | None
) -> None:
    assert expand_braces(word) == expected


def test_a_bracket_with_a_class_is_never_narrower() -> None:
    assert glob_matches("key", "ke[[:alpha:]]")
    assert glob_matches("ke7", "ke[^[:alpha:]]")  # any one character: the strict side
    assert not glob_matches("kex", "ke[^x]")


def test_git_pathspec_brackets_are_matched_as_git_matches_them(tmp_path: Path) -> None:
    """git's wildmatch reads `[^x]` and `[[:alpha:]]` too: under an approved `git rm`,
    `git rm 'deploy.ke[^x]'` removed the tracked `deploy.key`."""
    workspace, env = _setting(tmp_path)
    (workspace / "deploy.key").write_text("CANARY_EN_DEPLOY\n")
    (workspace / "old.txt").write_text("old\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "."], cwd=workspace, check=True, timeout=60)
    subprocess.run([*git, "add", "deploy.key", "old.txt"], cwd=workspace, check=True, timeout=60)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=workspace, check=True, timeout=60)
    assert decide("git rm old.txt", workspace, env).suggested_rule == "git rm"
    for line in ("git rm 'deploy.ke[^x]'", "git rm 'deploy.ke[[:alpha:]]'"):
        decision = decide(line, workspace, env, "git rm")
        assert decision.verdict is not Verdict.ALLOW, (line, decision.explain())
    listed = subprocess.run(["git", "ls-files", "--", "deploy.ke[^x]"], cwd=workspace,
                            capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    assert listed.stdout.strip() == "deploy.key"  # what git's pathspec names
