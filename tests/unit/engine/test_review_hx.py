"""Review HX (of fixers CC and CD), fixed by the lead.

HX1: `lxc launch img c < /dev/null 3<x.yaml 0>&3` was allowed under `lxc launch`: the
`< /dev/null` that feeds nothing (HW6) does not stand alone when another redirect puts a
file on fd 0 (real bash: `cat < /dev/null 3<x.yaml 0>&3` prints the file), and `0>&3` is
standard input too. HX2: `lxc admin init --dump --dump=false --auto` was allowed as a
`--dump` (pflag keeps a switch's last value: the server was set up). HX3: ant's launcher
takes `-lib`, `-cp`, `-main` out of the words wherever they stand, so `ant -logfile -lib
x.jar y.log` and `ant -- -lib x.jar` load the jar, and were allowed under `ant`. HX5:
`config trust list-tokens` prints the tokens that make a client trusted.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide, env_beside

from policylang import Decision, Verdict


def _judge(tmp_path: Path, line: str, *approvals: str) -> Decision:
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    return decide(line, workspace, env_beside(tmp_path), *approvals)


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc launch img c < /dev/null 3<x.yaml 0>&3", "lxc launch"),
        ("lxc launch img c 3< x.yaml < /dev/null 0>&3", "lxc launch"),
        ("{ lxc launch img c < /dev/null 0>&3; } 3< x.yaml", "lxc launch"),
        ("lxc launch img c < /dev/null 0>&3-", "lxc launch"),
        ("lxc launch img c 3<x.yaml 0>&3", "lxc launch"),
        ("lxc profile create p < /dev/null 3<x.yaml 0>&3", "lxc profile"),
        ("lxc network create n < /dev/null 3<x.yaml 0>&3", "lxc network"),
        ("lxc admin init --dump --dump=false --auto --network-address=0.0.0.0", "lxc"),
        ("incus admin init --dump --dump=false --auto --network-address=0.0.0.0", "incus"),
        ("lxc admin init --dump --dump=0 < answers.txt", "lxc admin init"),
        ('lxc admin init "--dump" "--dump=false" --auto', "lxc"),
        ("lxc config trust list-tokens", "lxc config"),
        ("incus config trust list-tokens", "incus"),
        ("ant -logfile -lib /tmp/evil.jar build.log", "ant"),
        ("ant -l -lib /tmp/evil.jar build.log", "ant"),
        ("ant -nice -lib /tmp/evil.jar 5", "ant"),
        ("ant -D -lib /tmp/evil.jar a=b", "ant"),
        ("ant -logfile -cp /tmp/evil.jar build.log", "ant"),
        ("ant -l -main Evil build.log", "ant"),
        ("ant -nice -cp /tmp/evil.jar 5", "ant"),
        ("ant -- -lib /tmp/evil.jar", "ant"),
    ],
)
def test_not_allowed_under_approval(tmp_path: Path, line: str, approval: str) -> None:
    decision = _judge(tmp_path, line, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert _judge(tmp_path, line).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc launch img c < /dev/null", "lxc launch"),
        ("lxc launch img c", "lxc launch"),
        ("lxc admin init --dump", "lxc"),
        ("lxc config trust list", "lxc config"),
        ("ant -verbose build", "ant"),
        ("ant -version", "ant"),
        ("ant -silent build", "ant"),
        ("ant -logfile build.log build", "ant"),
        ("ant -Dx=y compile", "ant"),
        ("ant compile", "ant"),
    ],
)
def test_ordinary_lines_stay_allowed(tmp_path: Path, line: str, approval: str) -> None:
    assert _judge(tmp_path, line, approval).verdict is Verdict.ALLOW, line


def test_premise_fd_zero_duplicate_feeds_the_file(tmp_path: Path) -> None:
    """Real bash: a later `0>&3` replaces `< /dev/null` on standard input."""
    (tmp_path / "x.yaml").write_text("security.privileged: true\n")
    done = subprocess.run(
        ["bash", "-c", "cat < /dev/null 3<x.yaml 0>&3"], cwd=tmp_path, capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    assert "security.privileged" in done.stdout
