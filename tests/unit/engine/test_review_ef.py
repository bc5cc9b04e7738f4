"""Review EF: EF3 a loop variable trusted at a use that an enclosing loop runs again
after a later `for` over the same name set it; EF1 the recovery's pieces after a
here-document the parser loses, which start with a reserved word (`then cat .env`); EF2
an alias that makes the assignment before a loop variable's use conditional; EF4 brace
expansion in a `for` list. Each line below reads a protected file in a real bash."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def _setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `README` (`hi`) and `.env` (`SECRET`), beside a fake home holding
    `.ssh/id_rsa` (`KEY`) and `.aws/credentials`."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README").write_text("hi\n")
    (workspace / ".env").write_text("SECRET\n")
    return workspace, env_beside(tmp_path)


def _denied_and_read(tmp_path: Path, line: str, secret: str) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, (line, decision.explain())
    if shutil.which("bash") is not None:
        assert secret in run_printed(line, workspace, env), line


# -- EF3: a later `for` over the same name, run again by an enclosing loop -----------------

_RUN_AGAIN = [
    ('for f in README; do :; done; for i in 1 2; do cat "$f"; for f in ~/.ssh/id_rsa; do :; '
     "done; done", "KEY"),
    ('for f in README; do :; done; for i in 1 2; do cat "$f"; for f in .env; do :; done; '
     "done", "SECRET"),
    ('for f in README; do :; done; for i in 1 2; do head -c 4096 "$f"; '
     "for f in ~/.aws/credentials; do :; done; done", "AKIASECRET"),
    ('for f in README; do :; done; until cat "$f" | grep SECRET; do for f in .env; do :; '
     "done; done", "SECRET"),
    ('for f in README; do :; done; while cat "$f" && test "$f" = README; do '
     "for f in .env; do :; done; done", "SECRET"),
    ('(for f in README; do for i in 1 2; do cat "$f" | cat; for f in ~/.ssh/id_rsa; do :; '
     "done; done; done)", "KEY"),
    ('(for f in README; do for i in 1 2; do (cat "$f"); for f in ~/.ssh/id_rsa; do :; '
     "done; done; done)", "KEY"),
    ('for i in 1 2; do cat "$f"; for f in .env; do :; done; done', "SECRET"),
    ('for i in 1 2; do cat "$f" 2>/dev/null; for f in ~/.ssh/id_rsa; do :; done; done', "KEY"),
    ('g() { for f in .env; do :; done; }; for f in README; do g; cat "$f"; done', "SECRET"),
    # (code fed to a shell: its own line, met after the line's own headers were counted)
    ("bash <<'E'\nfor f in README; do :; done; for i in 1 2; do cat \"$f\"; for f in .env; "
     "do :; done; done\nE", "SECRET"),
    ("bash <<'E'\nfor i in 1 2; do cat \"$f\"; for f in .env; do :; done; done\nE", "SECRET"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "secret"), _RUN_AGAIN)
def test_ef3_a_name_looped_over_twice_is_not_trusted(
    tmp_path: Path, line: str, secret: str
) -> None:
    _denied_and_read(tmp_path, line, secret)


@pytest.mark.parametrize(
    "line",
    [
        'for f in README; do cat "$f"; done',
        '(for f in README; do cat "$f" | cat; done)',
        'for f in README; do :; done; for i in 1 2; do cat "$f"; done',
    ],
)
def test_ef3_one_loop_over_a_name_is_still_trusted(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


# -- EF1: the recovery's pieces after a lost here-document start with a reserved word -------

_AFTER_HEREDOC = [
    ("ls <<E &&\nE\nif true; then cat ~/.ssh/id_rsa; fi", "KEY"),
    ("ls <<E &&\nE\nif true; then cat ~/.ssh/id_rsa\nfi", "KEY"),
    ("ls <<E &&\nE\nif true\nthen cat .env\nfi", "SECRET"),
    ("ls <<E &&\nE\nwhile :; do cat .env; break; done", "SECRET"),
    ("ls <<E &&\nE\nif false; then :; elif cat .env; then :; fi", "SECRET"),
    ("ls <<E &&\nE\nif false; then :; else cat .env; fi", "SECRET"),
    ('ls <<E &&\nE\nfor f in .env; do cat "$f"; done', "SECRET"),
    ("cat <<E |\nE\nif true; then cat .env; fi", "SECRET"),
    ("ls <<E &&\nE\nuntil cat .env; do :; done", "SECRET"),
]


@pytest.mark.parametrize(("line", "secret"), _AFTER_HEREDOC)
def test_ef1_commands_after_a_lost_here_document_keep_their_deny(
    tmp_path: Path, line: str, secret: str
) -> None:
    _denied_and_read(tmp_path, line, secret)


@needs_bash
def test_ef1_a_destructive_body_after_a_lost_here_document_is_denied(tmp_path: Path) -> None:
    line = "ls <<E &&\nE\nif true; then rm -rf ~/.ssh; fi"
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    run_printed(line, workspace, env)
    assert not (tmp_path / "home" / ".ssh").exists()  # (bash did remove it)


def test_ef1_a_harmless_body_after_a_lost_here_document_still_asks(tmp_path: Path) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide("ls <<E &&\nE\nif true; then cat README; fi", workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()


# -- EF2: an alias that makes the assignment before the use conditional ---------------------

_ALIASED = [
    "shopt -s expand_aliases\nalias y='false &&'\nfor f in .env; do y\nf=README; cat \"$f\"; done",
    "shopt -s expand_aliases\nal\\ias y='false &&'\nfor f in .env; do y\nf=README; cat \"$f\"; "
    "done",
    "shopt -s expand_aliases\n'alias' y='false &&'\nfor f in .env; do y\nf=README; cat \"$f\"; "
    "done",
]


@pytest.mark.parametrize("line", _ALIASED)
def test_ef2_a_line_with_an_alias_keeps_the_loops_words(tmp_path: Path, line: str) -> None:
    _denied_and_read(tmp_path, line, "SECRET")


# -- EF4: brace expansion in a `for` list -----------------------------------------------

@pytest.mark.parametrize(
    "line",
    [
        'for f in {README,.env}; do cat "$f"; done',
        'for f in .env{,}; do cat "$f"; done',
        'for f in README{,.x} .e{nv,x}; do cat "$f" 2>/dev/null; done',
        'for f in {README,.env}; do :; done; cat "$f"',
    ],
)
def test_ef4_braces_in_a_for_list_are_expanded(tmp_path: Path, line: str) -> None:
    _denied_and_read(tmp_path, line, "SECRET")


def test_ef4_braces_to_a_home_file_are_expanded(tmp_path: Path) -> None:
    _denied_and_read(tmp_path, 'for f in ~/.ssh/{id_rsa,x}; do cat "$f" 2>/dev/null; done', "KEY")


def test_ef4_braces_to_plain_files_are_allowed(tmp_path: Path) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide('for f in {README,x}; do cat "$f"; done', workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
