"""Review EW: bash reads `-posix` as a long option only before its first short option
(`bash -c -posix history CODE` runs CODE; the EV2 fix had read `-posix` as long anywhere
and judged `history`, which the engine offers for approval: EW1). A `.gitignore` set the
engine cannot compile (`.[z-a]nv`) ignores nothing, without an internal error (EW5)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    home.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("CANARY_EW_ENV\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    "line",
    ["bash -c -posix history 'cat .env'", "bash -ec -posix history 'cat .env'",
     "bash -c -verbose history 'cat .env'"],
)  # fmt: skip
def test_a_long_option_after_a_short_one_is_letters(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EW_ENV" in run_printed(line, workspace, env)
    assert decide("history", workspace, env).suggested_rule == "history"
    decision = decide(line, workspace, env, "history")
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_leading_long_options_after_one_dash_stay_long(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    assert decide("bash -norc -verbose -c ls", workspace, env).verdict is Verdict.ALLOW
    assert decide("bash -norc errexit -c ls", workspace, env).verdict is Verdict.ASK


def test_an_ignore_set_the_engine_cannot_compile_ignores_nothing(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "."], cwd=workspace, check=True, timeout=60)
    (workspace / ".gitignore").write_text(".[z-a]nv\n")
    assert decide("git add x.txt", workspace, env).suggested_rule == "git add"
    decision = decide("git add .", workspace, env, "git add")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert not any("internal" in r.rule_id for r in decision.reasons)
