"""Open items left by earlier sessions (fixer brief K): a loop's variable set again by a
plain assignment just before its use no longer reads the loop's words (a false deny); a
loop in a subshell or group gives its words to the pipelines, loops and bodies inside it
(a false question); a line that does not parse keeps the deny of its redirects."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env` and `README`, beside a fake home with `~/.ssh/id_rsa`."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("TOKEN=secret\n")
    (workspace / "README").write_text("readme\n")
    (workspace / "x").write_text("x\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_rsa").write_text("key\n")
    return workspace, env_beside(tmp_path)


# -- 1. a loop's variable set again before its only use -------------------------------------

_SET_BEFORE_USE = [
    'for f in .env; do f=README; cat "$f"; done',
    'for f in .env; do f=README\ncat "$f"; done',
    'for f in .env ~/.ssh/id_rsa; do f=README; cat "$f"; done',
    'for f in .env; do echo hi; f=README; cat "$f" | wc -l; done',
    'for f in .env; do\n  f=README\n  cat "$f"\ndone',
    'for f in .env; do { f=README; g=x; cat "$f"; }; done',
    'for f in .env; do if true; then f=README; cat "$f"; fi; done',
    '(for f in .env; do f=README; cat "$f" | wc; done)',
]


@pytest.mark.parametrize("line", _SET_BEFORE_USE)
def test_a_loop_variable_set_before_its_use_is_not_the_loops_word(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    assert "secret" not in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    # as `cat "$f"` with an unknown `$f`: a question, no deny
    assert decision.verdict is Verdict.ASK, (line, decision.explain())


def test_the_assigned_value_is_checked(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    line = 'for f in README; do f=.env; cat "$f"; done'
    assert "secret" in run_printed(line, workspace, env)
    assert decide(line, workspace, env).verdict is Verdict.DENY


_LOOP_VALUE_REACHES = [
    'for f in .env; do cat "$f"; f=README; done',
    'for f in .env; do [ x ] && f=README; cat "$f"; done',
    'for f in .env; do false && f=README; cat "$f"; done',
    'for f in .env; do false &&\nf=README; cat "$f"; done',
    'for f in .env; do false && \n f=README; cat "$f"; done',
    'for f in .env; do false && # c\nf=README; cat "$f"; done',
    'for f in .env; do false ||\n\nf=README\ncat "$f"; done',
    'for f in .env; do { false && { f=README; }; cat "$f"; }; done',
    'for f in .env; do case x in x) f=README;; esac; cat "$f"; done',
    'for f in .env; do true || f=README; cat "$f"; done',
    'for f in .env; do (f=README); cat "$f"; done',
    'for f in .env; do f=README | true; cat "$f"; done',
    'for f in .env; do f=README & wait; cat "$f"; done',
    'for f in .env; do g() { f=README; }; cat "$f"; done',
    'for f in .env; do g() { f=README; }; f=README; g; cat "$f"; done',
    'for f in .env; do g=$f; f=README; f=$g; cat "$f"; done',
    'for f in .env; do f=$f; cat "$f"; done',
    'for f in .env; do f="$f"; cat "$f"; done',
    'for f in .env; do f+=; cat "$f"; done',
    'for f in .env; do f[1]=README; cat "$f"; done',
    'for f in .env; do f=README cat "$f"; done',
    'for f in .env; do f=README; unset f; cat "$f"; done',
    'for f in .env; do g=$f; f=; cat "${f:=$g}" "$f"; done',
    'for f in .env; do false && { f=README; }; { cat "$f"; }; done',
    'for f in .env; do if false; then f=README; fi; cat "$f"; done',
    'for f in .env; do { false && f=README; }; cat "$f"; done',
    "for f in .env; do g=$f; trap 'f=$g' DEBUG; f=README; cat \"$f\"; done",
    "for f in .env; do g=$f; f=README; eval 'f=$g'; cat \"$f\"; done",
    'for f in .env; do read f < /dev/null; cat "$f"; done',
    'for f in .env; do printf -v f %s .env; cat "$f"; done',
    'for f in .env; do declare f=README; cat "$f"; done',
    'for f in .env; do f=README; ! cat "$f"; done',
    "for f in .env; do f='.env x'; cat $f; done",
    'for f in .env; do f=README; for g in x; do :; done; cat "$f"; done',
]


@pytest.mark.parametrize("line", _LOOP_VALUE_REACHES)
def test_a_loop_value_that_may_reach_the_use_keeps_its_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        'for f in .env; do false && { f=README; }; { cat "$f"; }; done',
        'for f in .env; do false && # c\nf=README; cat "$f"; done',
        'for f in .env; do g=$f; f=; cat "${f:=$g}" "$f"; done',
        "for f in .env; do f='.env x'; cat $f; done",
        "for f in .env; do g=$f; trap 'f=$g' DEBUG; f=README; cat \"$f\"; done",
    ],
)
def test_real_bash_reads_the_loop_value(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert "secret" in run_printed(line, workspace, env)


# -- 2. a loop in a subshell or group: the pipelines inside it see its words ----------------

_INSIDE = [
    '(for f in x; do cat "$f" | wc; done)',
    '(for f in x; do cat "$f" | wc -l | cat; done)',
    '{ for f in x; do cat "$f" | wc; done; }',
    'for f in x; do cat "$f" | wc; done | wc',
    'for f in x; do cat "$f" | wc; done & wait',
    '(for f in x; do for g in README; do cat "$f" "$g" | wc; done; done)',
    '(for f in x; do if true; then cat "$f" | wc; fi; done)',
    '(for f in x; do while false; do :; done; cat "$f" | wc; done)',
    '(for f in x; do (cat "$f"); done)',
    '(for f in x; do echo "$(cat "$f" | wc)"; done)',
    'echo | (for f in x; do cat "$f" | wc; done)',
]


@pytest.mark.parametrize("line", _INSIDE)
def test_a_loop_in_a_subshell_gives_its_words_to_its_pipelines(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


_INSIDE_DENIED = [
    '(for f in .env; do cat "$f" | wc; done)',
    '{ for f in x .env; do cat "$f" | wc; done; }',
    '(for f in x; do for g in .env; do cat "$g" | wc; done; done)',
]


@pytest.mark.parametrize("line", _INSIDE_DENIED)
def test_a_loop_in_a_subshell_keeps_its_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.DENY


_OUTSIDE = [
    '(for f in README; do :; done); cat "$f" | wc',
    '(for f in README; do :; done) ; (cat "$f" | wc)',
    '(for f in README; do :; done | cat; cat "$f" | wc)',
    '(for f in README; do :; done) | cat "$f"',
    '{ for f in README; do :; done; } | wc; cat "$f" | wc',
    'for f in README; do :; done & cat "$f" | wc',
]


@pytest.mark.parametrize("line", _OUTSIDE)
def test_a_loop_value_set_in_a_subshell_does_not_leak(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    key = str(tmp_path / "home" / ".ssh" / "id_rsa")
    env = {**env, "f": key}
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, (line, decision.explain())


# -- 3. text that does not parse keeps the deny of its parts (fuzz, compound monotonicity) -

_QUOTED_LS = (
    "ls x x `ls x x '\"'" + r"\\''' < $'\\x{66}\\x{69}\\x{6c}\\x{65}\\x{2e}\\x{74}\\x{78}\\x{74}'`"
    " < '.env'"
)
_UNPARSED = [
    # (campaign seed 20261206: the recovery cut `$'\x{78}'` at its braces, and the piece
    # that held `/etc/pass*` was an unterminated quote)
    ("ls; ls <<EOF &&\nEOF\ndu $'\\x{78}' /etc/pass*", "du $'\\x{78}' /etc/pass*"),
    # (campaign seed 20261230, `--examples 200`: a here-document after `# it's )` and a
    # backquoted word whose quote holds braces, before `< '.env'`)
    (
        "for i in 1 2; do ls x >&1 <<'EOF' # it's ) `done` $(x\n<)\nEOF\n" + _QUOTED_LS
        + "; done",
        _QUOTED_LS,
    ),
]


@pytest.mark.parametrize(("line", "part"), _UNPARSED)
def test_text_that_does_not_parse_keeps_the_deny_of_its_part(
    tmp_path: Path, line: str, part: str
) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(part, workspace, env).verdict is Verdict.DENY
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, (line, decision.explain())
