"""Review HW on CB's lxc/incus changes (fixer CD).

HW1: `network create` / `storage create` given privileged `KEY=VALUE` settings
(`raw.dnsmasq`: dnsmasq runs its `dhcp-script` as root; a pool's host `source=`, a
network's host `parent=`). HW2: `auth` and `cluster` grant identities, permissions and
servers, as `config trust add`. HW3: `storage volume set|create` of `security.shifted` /
`security.unmapped`, a volume created from standard input, `storage volume import`.
HW4: `volatile.*` set by the user (`volatile.idmap.next`). HW5: a device given to an
instance (`unix-hotplug`, `pci`, a physical `nic`, a proxy bound in the instance, a proxy
listening on a host socket): every device add/set/override asks but a proxy forwarding a
port of this machine. HW6: `config trust list`, `admin init --dump` and `launch … <
/dev/null` no longer ask (locked words matched at the subcommand places). HW7: lxc's
global `--all` is a switch. HW8: `remote set-url`, `alias rename`, `file mount --listen`.
lxc is not installed here: the premises are from the LXD / Incus documentation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        # HW1
        ("lxc network create n raw.dnsmasq=dhcp-script=/tmp/x.sh", "lxc network"),
        ("incus network create n raw.dnsmasq=dhcp-script=/tmp/x.sh", "incus"),
        ("lxc storage create p dir source=/home/u", "lxc storage"),
        ("lxc network create n --type=physical parent=eth0", "lxc network"),
        # HW2
        ("lxc auth identity create tls/x", "lxc auth"),
        ("lxc auth group permission add g server admin", "lxc auth"),
        ("lxc auth identity group add tls/x admins", "lxc"),
        ("incus cluster add node2", "incus"),
        ("lxc cluster add node2", "lxc cluster"),
        # HW3
        ("lxc storage volume set p v security.shifted=true", "lxc storage"),
        ("lxc storage volume create p v security.shifted=true", "lxc storage volume"),
        ("lxc storage volume create p v security.unmapped=true", "lxc"),
        ("cat v.yaml | lxc storage volume create p v", "lxc storage"),
        ("lxc storage volume import p backup.tar.gz", "lxc storage"),
        # HW4
        ("lxc config set c volatile.idmap.next='[]'", "lxc config"),
        ("lxc profile set default volatile.idmap.base=0", "lxc profile"),
        ("lxc launch img c -c volatile.idmap.next=x", "lxc launch"),
        # HW5
        ("lxc config device add c u unix-hotplug vendorid=1234", "lxc config"),
        ("lxc config device add c g pci address=0000:01:00.0", "lxc config"),
        ("lxc config device add c n nic nictype=physical parent=eth0", "lxc config"),
        ("lxc config device add c p proxy bind=instance listen=tcp:127.0.0.1:2222 "
         "connect=tcp:127.0.0.1:22", "lxc config"),
        ("lxc config device add c p proxy listen=unix:/etc/x.sock connect=tcp:127.0.0.1:22",
         "lxc config"),
        ("lxc config device add c proxy gpu", "lxc config"),
        ("lxc config device set c p bind=instance", "lxc config"),
        ("lxc config device override c eth0 parent=eth0", "lxc config"),
        ("incus profile device add default u usb vendorid=1", "incus profile"),
        # HW7
        ("lxc --all config set c security.privileged=true", "lxc"),
        # HW8
        ("lxc remote set-url r https://10.0.0.1:8443", "lxc remote"),
        ("lxc alias rename list ls", "lxc alias"),
        ("lxc file mount c/root --listen 0.0.0.0:2222", "lxc file"),
    ],
)
def test_instance_grant_asks(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.ASK, (line, approval)
    assert any(r.rule_id == "engine.instance-privileges" for r in decision.reasons), line
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        # HW6: CB's false asks
        ("lxc config trust list", "lxc config"),
        ("lxc config show trust", "lxc config"),
        ("lxc admin init --dump", "lxc admin"),
        ("lxc launch img c < /dev/null", "lxc launch"),
        # guards
        ("lxc list", "lxc"),
        ("lxc exec c -- ls", "lxc exec"),
        ("lxc config show c", "lxc config"),
        ("lxc config set c limits.cpu 2", "lxc config"),
        ("lxc config device show c", "lxc config"),
        ("lxc config device list c", "lxc config"),
        ("lxc config device add c p proxy listen=tcp:0.0.0.0:80 connect=tcp:127.0.0.1:80",
         "lxc config"),
        ("lxc network list", "lxc"),
        ("lxc storage list", "lxc"),
        ("lxc storage volume list p", "lxc storage"),
        ("lxc remote list", "lxc"),
        ("lxc auth identity list", "lxc"),
        ("lxc cluster list", "lxc"),
        ("lxc --all list", "lxc"),
    ],
)
def test_ordinary_lines_keep_allowed(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())
    assert judge(line, tmp_path).suggested_rule is not None, line


@pytest.mark.parametrize(
    "line",
    ["lxc admin init --dump --preseed", "lxc launch img c < /dev/null < x.yaml",
     "cat x.yaml | lxc launch img c", "lxc config --project p trust add"],
)
def test_still_fed_or_locked(tmp_path: Path, line: str) -> None:
    decision = judge(line, tmp_path, "lxc")
    assert decision.verdict is Verdict.ASK, line
    assert any(r.rule_id == "engine.instance-privileges" for r in decision.reasons), line
