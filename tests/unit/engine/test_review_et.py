"""Review ET: a program run on a descriptor (`python3 /dev/stdin`, `source /dev/fd/5`) had
its script offered as an approval; once approved, any code fed on that descriptor ran
(`.env` and `~/.ssh/id_rsa` printed). No such suggestion is offered now, and an approval
that names a descriptor (made before) covers nothing the input gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / ".env").write_text("API_KEY=CANARY_ET_ENV\n")
    (workspace / "a.txt").write_text("print(1)\n")
    (workspace / "tool.py").write_text("print(open('.env').read())\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


_INNOCENT = [
    ("python3 /dev/stdin <<< 'print(1)'", "python3 /dev/stdin <<< 'print(open(\".env\").read())'"),
    ("python3 /dev/fd/0 <<< 'print(1)'", "python3 /dev/fd/0 <<< 'print(open(\".env\").read())'"),
    ("python3 /dev/fd/5 5<a.txt", "python3 /dev/fd/5 5<tool.py"),
    ("perl /dev/stdin <<< 'print 1'", "perl /dev/stdin <<< 'open F,q(.env);print <F>'"),
    ("source /dev/stdin <<< 'echo hi'", "source /dev/stdin <<< 'cat .env'"),
    (". /dev/stdin <<< 'echo hi'", ". /dev/stdin <<< 'cat .env'"),
    ("source /dev/fd/5 5<a.txt", "echo 'cat .env' | source /dev/fd/5 5<&0"),
]


@pytest.mark.parametrize(("innocent", "attack"), _INNOCENT)
def test_no_approval_is_offered_for_code_on_a_descriptor(
    tmp_path: Path, innocent: str, attack: str
) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_ET_ENV" in run_printed(attack, workspace, env)
    decision = decide(innocent, workspace, env)
    assert decision.suggested_rule is None, decision.suggested_rule
    # an approval of that form made before still covers nothing fed on the descriptor
    program, _, rest = innocent.partition(" ")
    made_before = f"{program} {rest.split()[0]}"
    attacked = decide(attack, workspace, env, made_before)
    assert attacked.verdict is not Verdict.ALLOW, attacked.explain()


def test_a_script_file_is_still_offered(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    decision = decide("python3 a.txt", workspace, env)
    assert decision.suggested_rule == f"python3 {workspace}/a.txt"
