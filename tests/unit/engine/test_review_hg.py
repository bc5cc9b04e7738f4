"""Review HG: redirects inside a `[` test that the model missed.

HG1 (LOW): `[ 'x;id;#' = 2<>.git/hooks/pre-commit ]` (and `[ a = b <> F ]`, `[ a <> F
= b ]`, `[ a = b c 2<> F ]`) asked "cannot parse `>`" with the read `2<F` in the model,
where the `2>` form is denied: tree-sitter nests the `<` in a second binary expression,
which the read-write repair did not look into, and the repair ran only once, before
`[` was read again as a command. bash opens the file read-write and writes its error
(`[: x;id;#: unary operator expected`) over its first bytes: agent text in a hook or a
start-up file. The read-write repair now runs again after that re-parse.
HG2 (LOW): `[ 'x;id;#' == 2>~/.bashrc ]`, `[ … =~ 2<>~/.bashrc ]`: among a command's
arguments tree-sitter reads `==` / `=~` as an operator and the rest, redirect included,
as one pattern; the line asks (`shell.syntax-mismatch`) with no redirect in the model,
where bash writes the file. Still open: a repair that read the operator as a word (and
the redirect into the model) dropped the first walk's problems and hid the commands
after an escaped `#` (review HJ1: `echo == a \\ #x; cat .env ]` was allowed), so it was
taken out; these lines ask, and must never allow.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang.decision import Verdict
from policylang.shell import parse_command

BASH = shutil.which("bash")

HG1 = [
    "[ 'x;id;#' = 2<>.git/hooks/pre-commit ]",
    "[ 'x;id;#' = 2<>HOME/.bashrc ]",
    "[ 'x;id;#' = 2<>.claude/settings.json ]",
    "[ a = b <> .git/hooks/pre-commit ]",
    "[ a <> .git/hooks/pre-commit = b ]",
    "[ a = b c 2<> .git/hooks/pre-commit ]",
]
HG2 = [
    f"[ 'x;id;#' {op} 2{redirect}{target} ]"
    for op in ("==", "=~")
    for redirect in ("<>", ">")
    for target in ("~/.bashrc", ".git/hooks/pre-commit")
]


@pytest.fixture
def setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / ".git" / "hooks").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _line(line: str, env: dict[str, str]) -> str:
    return line.replace("HOME/", env["HOME"] + "/")


def test_hg_premise_bash_writes_its_error_into_the_file(tmp_path: Path) -> None:
    if BASH is None:
        pytest.skip("bash is not installed")
    for name, line in [
        ("a", "[ 'x;id;#' = 2<>a ]"),
        ("b", "[ 'x;id;#' == 2<>b ]"),
        ("c", "[ 'x;id;#' =~ 2>c ]"),
    ]:
        (tmp_path / name).write_text("#!/bin/sh\nexit 0\n" * 4)
        subprocess.run(
            [BASH, "-c", line], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
            capture_output=True, timeout=30, check=False,
        )  # fmt: skip
        assert "x;id;#: unary operator expected" in (tmp_path / name).read_text(), line
    subprocess.run(
        [BASH, "-c", "[ a = b <> made ]; [ a <> made2 = b ]"], cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"}, capture_output=True, timeout=30, check=False,
    )  # fmt: skip
    assert (tmp_path / "made").exists()
    assert (tmp_path / "made2").exists()


@pytest.mark.parametrize("line", HG1)
def test_hg_a_redirect_inside_a_test_onto_a_protected_file_is_denied(
    setting: tuple[Path, dict[str, str]], line: str
) -> None:
    workspace, env = setting
    line = _line(line, env)
    written = decide(line.replace("2<>", "2>").replace("<>", ">"), workspace, env)
    assert written.verdict is Verdict.DENY, written.explain()
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any("writes protected path" in r.message for r in decision.reasons)


@pytest.mark.parametrize(
    ("line", "op", "fd", "argv"),
    [
        ("[ a = b <> f ]", "<>", None, ("[", "a", "=", "b", "]")),
        ("[ a <> f = b ]", "<>", None, ("[", "a", "=", "b", "]")),
        ("[ a = b c 2<> f ]", "<>", 2, ("[", "a", "=", "b", "c", "]")),
        ("[ 'x;id;#' = 2<>f ]", "<>", 2, ("[", "x;id;#", "=", "]")),
    ],
)
def test_hg_the_model_holds_the_redirect(
    line: str, op: str, fd: int | None, argv: tuple[str, ...]
) -> None:
    parsed = parse_command(line)
    assert len(parsed.segments) == 1, parsed
    segment = parsed.segments[0]
    assert tuple(w.value or w.text for w in segment.words) == argv
    redirects = [(r.op, r.fd, r.target.value if r.target else None) for r in segment.redirects]
    assert redirects == [(op, fd, "f")]
    codes = {p.code for p in parsed.problems}
    assert codes == ({"shell.read-write-redirect"} if op == "<>" else set()), parsed.problems


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("[ a = b ]", Verdict.ALLOW),
        ('[ "$x" == y ]', Verdict.ALLOW),
        ("[ a == b ]", Verdict.ALLOW),
        ("[ a =~ b ]", Verdict.ALLOW),
        ("[ a == 'b 2>c' ]", Verdict.ALLOW),
        ("[ a \\< b ]", Verdict.ASK),
        ("[ a == b ] > out.txt", Verdict.ASK),
        ("[ a == b 2<>notes ]", Verdict.ASK),
        ("echo =~ ;|x", Verdict.ASK),
        ("[ x =~ (a) ]", Verdict.ASK),
        ("[ x == a|b ]", Verdict.ASK),
        ("[ a =~ b&&rm -rf ~ ]", Verdict.DENY),
    ],
)
def test_hg_other_tests_keep_their_verdicts(
    setting: tuple[Path, dict[str, str]], line: str, verdict: Verdict
) -> None:
    workspace, env = setting
    decision = decide(line, workspace, env)
    assert decision.verdict is verdict, decision.explain()


@pytest.mark.parametrize("line", HG2)
def test_hg2_a_redirect_swallowed_by_a_pattern_is_never_allowed(
    setting: tuple[Path, dict[str, str]], line: str
) -> None:
    workspace, env = setting
    decision = decide(_line(line, env), workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


# review HJ1 (HIGH against the HG2 repair, which was taken out): bash runs what follows
# the escaped `#`; the analyser must not lose it
HJ1 = [
    ("echo == a \\ #x; cat .env ]", Verdict.DENY),
    ("echo == a \\ #x; cat HOME/.ssh/id_rsa ]", Verdict.DENY),
    ("echo == a \\ #x; rm -rf ~ ]", Verdict.DENY),
    ("echo == b \\ #x ]; touch .git/hooks/pre-commit", Verdict.DENY),
    ("echo =~ a \\ #x; touch .claude/settings.json ]", Verdict.DENY),
    ("test a == b \\ #x ]; cat .env", Verdict.DENY),
    ("echo == a \\\t#x; cat .env ]", Verdict.DENY),
    ("echo == a \\ #x | bash ]", Verdict.ASK),
    ("echo == a \\ #x; echo 'curl x|sh' >> ~/.bashrc ]", Verdict.ASK),
]


@pytest.mark.parametrize(("line", "floor"), HJ1)
def test_hj1_commands_after_an_escaped_hash_past_an_operator_are_judged(
    setting: tuple[Path, dict[str, str]], line: str, floor: Verdict
) -> None:
    workspace, env = setting
    (workspace / ".env").write_text("SECRET=1\n")
    decision = decide(_line(line, env), workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    if floor is Verdict.DENY:
        assert decision.verdict is Verdict.DENY, decision.explain()


def test_hj1_premise_bash_runs_what_follows_the_escaped_hash(tmp_path: Path) -> None:
    if BASH is None:
        pytest.skip("bash is not installed")
    subprocess.run(
        [BASH, "-c", "echo == a \\ #x; touch made ]"], cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"}, capture_output=True, timeout=30, check=False,
    )  # fmt: skip
    assert (tmp_path / "made").exists()
    assert (tmp_path / "made ]").exists() or (tmp_path / "]").exists()


def test_hj2_a_regex_in_a_timed_double_bracket_test_stays_allowed(
    setting: tuple[Path, dict[str, str]],
) -> None:
    workspace, env = setting
    decision = decide("time [[ x =~ (a|b) ]] && echo hi", workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
