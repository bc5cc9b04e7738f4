"""Review DJ: bypasses of the fixes of review DI.

DJ1 `exec`'s own options (`command exec -c < f`) and an `exec < f` in a loop, whose next
pass feeds the commands before it; DJ2 a header named by an absolute path that only seems
to lie in `/usr` (`/usr/../…`, a link out of it); DJ3 `PERL5OPT=-d` runs the debugger,
which reads `.perldb` from the working folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, scan_judge

from policylang import Verdict, load_policy


@pytest.mark.parametrize(
    "line",
    ["command exec -- < c.txt; redis-cli", "command exec -c < c.txt; redis-cli",
     "command exec -cl < c.txt; redis-cli", "command exec -a x < c.txt; redis-cli",
     "for i in 1 2; do redis-cli; command exec < c.txt; done",
     "until false; do redis-cli; command exec < c.txt; done"],
)  # fmt: skip
def test_dj1_exec_options_and_loops(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, "redis-cli $").verdict is Verdict.ASK


def test_dj1_a_loop_without_such_an_exec_holds(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "for i in 1 2; do redis-cli; done"
    assert scan_judge(line, workspace, "redis-cli $").verdict is Verdict.ALLOW


def test_dj2_an_absolute_header_that_only_seems_to_be_the_systems(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "h.h").write_text(f'#include "{secret}"\n')
    up = "/usr/" + "../" * 1 + str(workspace).lstrip("/") + "/h.h"
    (workspace / "u.c").write_text(f'#include "{up}"\n')
    done = subprocess.run(["cpp", "u.c"], cwd=workspace, capture_output=True, text=True)
    assert "AKIASECRET" in done.stdout + done.stderr  # the real cpp followed it
    assert scan_judge("cpp u.c", workspace, "cpp").verdict is not Verdict.ALLOW


@pytest.mark.parametrize("options", ["-d", "-w -d", "-d:NYTProf", "-wd"])
def test_dj3_perl5opt_runs_the_debugger(tmp_path: Path, options: str) -> None:
    workspace = copy_workspace(tmp_path)
    policy = load_policy()
    policy.approvals.add("shasum", persist=False)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "PERL5OPT": options}
    decision = policy.evaluate("shasum x.txt", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    quiet = policy.evaluate("shasum x.txt", workspace=str(workspace), env={**env, "PERL5OPT": "-w"})
    assert quiet.verdict is Verdict.ALLOW
