"""Review HZ (fixer CH, 2026): lxc/incus options written before the verb, `lxd.lxc`.

HZ1: cobra's `Find` strips the options to find the verb, then the verb's own flag set
parses every remaining word (`argsMinusFirstX` drops only the verb word), so an option
written before the verb is the verb's as one after it: `lxc -c security.privileged=true
launch img c`, `lxc -d eth0,nictype=physical launch img c`, `lxc -T c exec sh -- -c CMD`
(runs CMD in `c`), `lxc --auto=true admin init --dump` (sets the server up). They were
allowed under bare `lxc` / `incus`, which the engine offered for `lxc --project p launch
img c`; such a line is now offered exactly or not at all. lxc and incus are not installed
here: the premise is from cobra's source (`command.go`: `Find`, `stripFlags`,
`argsMinusFirstX`), as review HZ read it. HZ2: `lxd.lxc` (the lxd snap's name for lxc,
/snap/bin/lxd.lxc) was not read as lxc. HZ4: `-d eth0,network=lxdbr1` (a managed network
the admin made) and `-d eth0,name=eth1` (the name in the instance) asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc --project dev -d p,connect=unix:/var/run/docker.sock launch img c", "lxc"),
        ("lxc -d eth0,nictype=physical launch img c", "lxc"),
        ("lxc -ddata,readonly=false launch img c", "lxc"),
        ("lxc --project dev --device=p,listen=unix:/tmp/x launch img c", "lxc"),
        ("incus -d g,type=gpu copy a b", "incus"),
        ("lxc -c security.privileged=true launch img c", "lxc"),
        ("incus --config=security.privileged=true launch img c", "incus"),
        ("lxc --auto=true admin init --dump", "lxc"),
        ("lxd.lxc launch img c -c security.privileged=true", "lxd.lxc launch"),
        ("lxd.lxc config set c security.privileged true", "lxd.lxc"),
        ("lxd.lxc launch img c -d eth0,nictype=physical", "lxd.lxc launch"),
        ("/snap/bin/lxd.lxc config set c raw.lxc=x", "/snap/bin/lxd.lxc"),
    ],
)
def test_options_before_verb_ask(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.ASK, (line, decision.explain())
    assert any(r.rule_id == "engine.instance-privileges" for r in decision.reasons), line
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc -T c exec sh -- -c 'rm -rf ~'", "lxc"),
        ("lxd.lxc exec c -- sh -c 'rm -rf ~'", "lxd.lxc"),
        ("lxd.lxc exec c -- sh -c 'rm -rf ~'", "lxd.lxc exec"),
    ],
)
def test_exec_command_denied(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.DENY, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        "lxc --project p launch img c",
        "lxc -q launch img c",
        "lxc -q exec c -- ls",  # (`-d exec c -- ls` may be `c -- ls`: review IC5)
        "lxc --project p list",
        "lxc -d launch img c",
        "incus --project dev launch images:debian/12 c1",
    ],
)
def test_option_first_offered_exactly(tmp_path: Path, line: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, line
    assert decision.suggested_rule == f"{line} $", decision.suggested_rule
    assert judge("lxc delete c", tmp_path, decision.suggested_rule).verdict is Verdict.ASK
    assert judge(line, tmp_path, decision.suggested_rule).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc --project p launch img c", "lxc"),
        ("lxc -q launch img c", "lxc"),
        ("lxc -d exec c -- ls", "lxc"),
        ("lxc --project p list", "lxc"),
        ("lxc launch img c -d root,size=10GB", "lxc launch"),
        ("incus --project dev launch images:debian/12 c1", "incus"),
        ("lxc --project p admin init --dump", "lxc"),
        ("lxc --project p config set c limits.cpu 2", "lxc"),
        ("lxc --project p exec c -- ls -la", "lxc"),
        ("lxd.lxc launch img c", "lxd.lxc launch"),
        ("lxd.lxc list", "lxd.lxc"),
        ("lxc launch img c -d eth0,network=lxdbr1", "lxc launch"),
        ("lxc launch img c -d eth0,name=eth1", "lxc launch"),
    ],
)
def test_ordinary_lines_keep_allowed(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    [
        "lxc launch img c -d eth0,vlan=10",
        "lxc launch img c -d eth0,parent=eth0",
        "lxc launch img c -d eth0,security.mac_filtering=false",
    ],
)
def test_other_override_keys_keep_asking(tmp_path: Path, line: str) -> None:
    assert judge(line, tmp_path, "lxc launch").verdict is Verdict.ASK, line
