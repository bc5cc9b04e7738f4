"""Open items left by earlier sessions (fixer brief A): a loop's deny kept through `eval`
(a literal `eval`'s code is read, so the word `eval` no longer makes the loop's variable
unknowable); the wrappers the analyser sees through (DX6's runners, each with its own
options); `make -j4`'s suggested rule; `python -m policylang` run from the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env`, beside a fake home with `~/.ssh/id_rsa`."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("TOKEN=1\n")
    (workspace / "README").write_text("hi\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("key\n")
    return workspace, env_beside(tmp_path)


# -- 1. a loop's deny through eval, bash -c, sh -c, a subshell, a substitution --------------

_LOOPS = [
    'for f in ~/.ssh/*; do cat "$f"; done',
    'for f in ~/.aws/*; do cat "$f"; done',
    'for f in .env*; do cat "$f"; done',
    'for f in ~/.bashrc .env; do cat "$f"; done',
    'for f in ~/.ssh/id_rsa; do cat "$f"; done',
]
_WRAPS = [
    "{}",
    "eval '{}'",
    "eval -- '{}'",
    "command eval '{}'",
    "builtin eval '{}'",
    "bash -c '{}'",
    "sh -c '{}'",
    "( {} )",
    "echo $( {} )",
    "x=$(eval '{}')",
    "bash -c \"eval '{escaped}'\"",
]


def _wrapped(wrap: str, loop: str) -> str:
    """`loop` written into `wrap` (`{escaped}`: escaped for double quotes)."""
    escaped = loop.replace("$", "\\$").replace('"', '\\"')
    return wrap.replace("{escaped}", escaped).replace("{}", loop)


@pytest.mark.parametrize("wrap", _WRAPS)
@pytest.mark.parametrize("loop", _LOOPS)
def test_a1_a_loops_deny_holds_when_wrapped(tmp_path: Path, loop: str, wrap: str) -> None:
    workspace, env = _workspace(tmp_path)
    line = _wrapped(wrap, loop)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        'eval \'for f in README; do cat "$f"; done\'',
        "eval for f in README\\; do cat '\"$f\"'\\; done",
    ],
)
def test_a1_a_harmless_loop_through_eval_is_allowed(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    [
        # the variable is set again inside the loop, where the eval's code says so
        'for f in README; do eval f\\=.env; cat "$f"; done',
        "eval 'for f in README; do f=.env; cat \"$f\"; done'",
        "eval 'for f in README; do eval f\\=.env; cat \"$f\"; done'",
        "eval 'for f in README; do read f; cat \"$f\"; done'",
        'for f in README; do eval "$x"; cat "$f"; done',
        'trap f\\=.env DEBUG; for f in README; do cat "$f"; done',
        "eval 'trap f\\=.env DEBUG'; for f in README; do cat \"$f\"; done",
        'for f in README; do eval $(printf f=.env); cat "$f"; done',
    ],
)
def test_a1_a_loop_variable_set_again_is_not_trusted(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert "engine.unknown-path" in decision.explain(), decision.explain()
