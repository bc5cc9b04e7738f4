"""Review EB, the `for` loop's values: EB1 a builtin that sets the loop's variable again,
spelt so a text search misses it (`pr\\intf -v f`, `re\\ad f`); EB2 a loop over a
variable bash sets itself (`_`, `BASH_REMATCH`, `REPLY`); EB6 a loop's values outside
the subshell, pipeline stage or background job that ran it. Each line's `$f` is not the
loop's word, so the loop's word is not what the line reads: it must not be allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict


def _setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `README` and `list` (one line: the fake home's key), beside a
    fake home holding `.ssh/id_rsa`."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "README").write_text("readme\n")
    (workspace / "list").write_text(f"{home}/.ssh/id_rsa\n")
    return workspace, env_beside(tmp_path)


# -- EB1: the variable set again by a builtin or construct, however it is spelt ------------

_SET_AGAIN = [
    r'for f in README; do pr\intf -v f %s ~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do pr""intf -v f %s ~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do p\rintf -vf %s ~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do re\ad f < list; cat "$f"; done',
    r'for f in README; do re\ad -r f < list; cat "$f"; done',
    r'for f in README; do builtin re\ad f < list; cat "$f"; done',
    r'for f in README; do command re\ad f < list; cat "$f"; done',
    r'for f in README; do map\file -t f < list; cat "$f"; done',
    r'for f in README; do read\array -t f < list; cat "$f"; done',
    r'for f in README; do de\clare f=~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do ty\peset f=~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do ex\port f=~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do de\clare -n f=g; g=~/.ssh/id_rsa; cat "$f"; done',
    r'for f in README; do de\clare -l f; cat "$f"; done',
    r'for f in README; do : ${f:=x}; cat "$f"; done',
    r'f=~/.ssh/id_rsa; for f in README; do :; done; un\set f; cat "$f"',
    r'for f in README; do ev\al "$(<list)"; cat "$f"; done',
    r'for f in README; do so\urce /dev/null; cat "$f"; done',
    r'for f in README; do \. /dev/null; cat "$f"; done',
    r'for f in README; do g\etopts a: f -a x; cat "$f"; done',
    r'for f in README; do l\et x=1; cat "$f"; done',
    r'for f in README; do coproc f { :; }; cat "$f"; done',
    r'for f in README; do select f in x; do break; done < /dev/null; cat "$f"; done',
    r'for f in README; do r=read; $r f < list; cat "$f"; done',
    r'for f in README; do : "${x[f=2]}"; cat "$f"; done',
    r'for f in README; do [[ -v x[f=2] ]]; cat "$f"; done',
    r'for f in README; do test -v "x[f=2]"; cat "$f"; done',
]


@pytest.mark.parametrize("line", _SET_AGAIN)
def test_eb1_a_loop_variable_set_again_is_not_trusted(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        r'for f in README; do pr\intf -v f %s ~/.ssh/id_rsa; cat "$f"; done',
        r'for f in README; do re\ad f < list; cat "$f"; done',
    ],
)
def test_eb1_real_bash_reads_the_key(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    assert run_printed(line, workspace, env).strip() == "key"
    assert decide(line, workspace, env).verdict is not Verdict.ALLOW


def test_eb1_a_deny_among_the_loop_words_holds(tmp_path: Path) -> None:
    workspace, env = _setup(tmp_path)
    line = r'for f in ~/.ssh/id_rsa; do pr\intf -v x %s y; cat "$f"; done'
    assert decide(line, workspace, env).verdict is Verdict.DENY


_STILL_TRUSTED = [
    'for f in README; do cat "$f"; done',
    # builtins that set other variables, or none (a text search had distrusted them all)
    "for f in README; do printf '%s\\n' \"$f\"; cat \"$f\"; done",
    'for f in README; do printf -v g %s x; cat "$f"; done',
    'for f in README; do export LC_ALL=C; cat "$f"; done',
    'for f in README; do echo read; cat "$f"; done',
    "for f in README; do grep -v '^#' \"$f\"; done",
    'for f in README; do [[ -v f ]] && cat "$f"; done',
]


@pytest.mark.parametrize("line", _STILL_TRUSTED)
def test_eb1_a_loop_nothing_else_sets_keeps_its_words(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


# -- EB2: a loop over a variable bash sets itself --------------------------------------------

_SET_BY_BASH = [
    'for BASH_REMATCH in README; do [[ ~/.ssh/id_rsa =~ .* ]]; cat "$BASH_REMATCH"; done',
    'for _ in README; do : ~/.ssh/id_rsa; cat "$_"; done',
    'for REPLY in README; do re\\ad < list; cat "$REPLY"; done',
    'for REPLY in README; do read < list; cat "$REPLY"; done',
    'for MAPFILE in README; do mapfile < list; cat "$MAPFILE"; done',
    'for OPTARG in README; do getopts a: o -a ~/.ssh/id_rsa; cat "$OPTARG"; done',
    'for PWD in README; do cd ~/.ssh; cat "$PWD/id_rsa"; done',
    'for OLDPWD in README; do cd ~/.ssh; cd -; cat "$OLDPWD/id_rsa"; done',
    'for PIPESTATUS in README; do :; cat "$PIPESTATUS"; done',
    'for BASH_ARGV0 in README; do :; cat "$BASH_ARGV0"; done',
    'for COMP_LINE in README; do :; cat "$COMP_LINE"; done',
    'for EPOCHSECONDS in README; do :; cat "$EPOCHSECONDS"; done',
    'for RANDOM in README; do :; cat "$RANDOM"; done',
    'for LINENO in README; do :; cat "$LINENO"; done',
]


@pytest.mark.parametrize("line", _SET_BY_BASH)
def test_eb2_a_loop_over_a_variable_bash_sets_is_not_trusted(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        'for BASH_REMATCH in README; do [[ ~/.ssh/id_rsa =~ .* ]]; cat "$BASH_REMATCH"; done',
        'for _ in README; do : ~/.ssh/id_rsa; cat "$_"; done',
    ],
)
def test_eb2_real_bash_reads_the_key(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    assert run_printed(line, workspace, env).strip() == "key"


# -- EB6: a loop's values stay in its subshell -----------------------------------------------

_SCOPED = [
    # `DEBUG` and `TZ` are free in the environment: `$DEBUG` is read through its value
    '(for DEBUG in README; do :; done); cat "$DEBUG"',
    'for DEBUG in README; do :; done | cat; cat "$DEBUG"',
    'for TZ in README; do :; done & cat "$TZ"',
    'echo "$(for DEBUG in README; do :; done)"; cat "$DEBUG"',
    'echo "$(for DEBUG in README; do :; done)" "$(cat "$DEBUG")"',
    '(for DEBUG in README; do :; done; cat "$DEBUG"); cat "$DEBUG"',
    # a loop that does not run leaves the environment's value
    'false && for DEBUG in README; do :; done; cat "$DEBUG"',
    'if false; then for DEBUG in README; do :; done; fi; cat "$DEBUG"',
    'for g in $(true); do for DEBUG in README; do :; done; done; cat "$DEBUG"',
    're\\ad f < list; (for f in README; do :; done); cat "$f"',
    're\\ad f < list; for f in README; do :; done | cat; cat "$f"',
    're\\ad f < list; for f in README; do :; done & cat "$f"',
    ': ~/.ssh/id_rsa; (for _ in README; do :; done); cat "$_"',
    '(for f in README; do :; done); cat "$f"',
    'for f in README; do :; done | cat; cat "$f"',
    'for f in README; do :; done & cat "$f"',
    'echo "$(for f in README; do :; done)"; cat "$f"',
    'echo "$(for f in README; do :; done)" "$(cat "$f")"',
    'g() { for f in README; do :; done; }; cat "$f"',
]


@pytest.mark.parametrize("line", _SCOPED)
def test_eb6_loop_values_stay_in_their_subshell(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    key = str(tmp_path / "home" / ".ssh" / "id_rsa")
    env = {**env, "f": key, "DEBUG": key, "TZ": key}
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        're\\ad f < list; (for f in README; do :; done); cat "$f"',
        '(for DEBUG in README; do :; done); cat "$DEBUG"',
        'for DEBUG in README; do :; done | cat; cat "$DEBUG"',
        'false && for DEBUG in README; do :; done; cat "$DEBUG"',
    ],
)
def test_eb6_real_bash_keeps_the_value_from_before_the_subshell(
    tmp_path: Path, line: str
) -> None:
    workspace, env = _setup(tmp_path)
    env = {**env, "DEBUG": str(tmp_path / "home" / ".ssh" / "id_rsa")}
    assert run_printed(line, workspace, env).strip() == "key"
    assert decide(line, workspace, env).verdict is not Verdict.ALLOW


_SCOPED_USES = [
    '(for f in README; do cat "$f"; done)',
    'for f in README; do cat "$f"; done | cat',
    'for f in README; do cat "$f"; done & wait',
    'echo "$(for f in README; do cat "$f"; done)"',
    'for f in README; do echo "$(cat "$f")"; done',
    "bash -c 'for f in README; do cat \"$f\"; done'",
]


@pytest.mark.parametrize("line", _SCOPED_USES)
def test_eb6_uses_inside_the_subshell_keep_the_words(tmp_path: Path, line: str) -> None:
    workspace, env = _setup(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())
