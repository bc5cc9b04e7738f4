"""Review CF (fixer CF, 2026): lxc/incus device overrides, skopeo's bundled `-d`, tox/ant offers.

CF1: `lxc launch|init|copy|move IMG c -d DEVICE,KEY=VALUE` (`incus create`, `--device`)
overrides a profile's device key by key (`parseDeviceOverrides` in lxc/incus's client):
`-d eth0,nictype=physical`, `-d root,source=/`, `-d p,connect=unix:/run/docker.sock`
give the instance this machine's hardware, folders or sockets, and were allowed under an
approval of `lxc launch`. lxc is not installed here: the premise is from the LXD / Incus
client's source (`copy.go`, `create.go`: `-d, --device  New key/value to apply to a
specific device`). CF2: skopeo's `sync -ad containers-storage` (pflag bundles `-a` with
`-d`) was read as no destination. CF3: `tox -e py`, `ant -d build` (an option where a
target would be) were offered the bare program, which approved every environment and
target (`tox -e deploy`, `ant deploy`) and tox's listing (`tox -l`, which loads the
project's `toxfile.py`): the line itself is offered, exactly.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc launch img c -d eth0,nictype=physical", "lxc launch"),
        ("lxc launch img c -deth0,nictype=physical", "lxc launch"),
        ("lxc launch img c -ed=eth0,parent=eth1", "lxc launch"),
        ("lxc launch img c -d proxy0,connect=unix:/run/docker.sock", "lxc launch"),
        ("lxc launch img c -d root,readonly=false", "lxc launch"),
        ("lxc launch img c -d gpu0,type=gpu", "lxc"),
        ("lxc init img c -d root,pool=x -d data,source=/home", "lxc init"),
        ("incus create img c --device=root,source=/srv", "incus create"),
        ("incus launch img c --device eth0,nictype=macvlan", "incus launch"),
        ("lxc copy a b -d eth0,parent=eth0", "lxc copy"),
        ("lxc move a b --device eth0,nictype=physical", "lxc move"),
        ("lxc launch img c -d eth0,security.mac_filtering=false", "lxc launch"),
    ],
)
def test_device_override_asks(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.ASK, (line, approval)
    assert any(r.rule_id == "engine.instance-privileges" for r in decision.reasons), line
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc launch ubuntu:22.04 c", "lxc launch"),
        ("lxc launch img c -d root,size=10GB", "lxc launch"),
        ("lxc launch img c -p default", "lxc launch"),
        ("lxc launch img c -pdefault", "lxc launch"),
        ("lxc init img c -d root,pool=fast -d eth0,ipv4.address=10.0.0.2", "lxc init"),
        ("lxc launch img c -e -d eth0,limits.ingress=10Mbit", "lxc launch"),
        ("lxc list", "lxc"),
    ],
)
def test_ordinary_instance_lines_keep_allowed(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.ALLOW, (line, decision.explain())
    assert judge(line, tmp_path).suggested_rule is not None, line


@pytest.mark.parametrize(
    "line",
    [
        "skopeo sync --src docker -ad containers-storage reg/x /tmp/d",
        "skopeo sync --src docker -adcontainers-storage reg/x /tmp/d",
        "skopeo sync --src docker -ad=containers-storage reg/x /tmp/d",
    ],
)
def test_skopeo_sync_bundled_dest_asks(tmp_path: Path, line: str) -> None:
    decision = judge(line, tmp_path, "skopeo sync")
    assert decision.verdict is Verdict.ASK, line
    assert any(r.rule_id == "engine.container-local-image" for r in decision.reasons), line


@pytest.mark.parametrize(
    "line",
    [
        "skopeo sync --src docker --dest dir reg/x /tmp/d",
        "skopeo sync --src docker -ad dir reg/x /tmp/d",
        "skopeo sync -sd --dest dir reg/x /tmp/d",
    ],
)
def test_skopeo_sync_dir_keeps_allowed(tmp_path: Path, line: str) -> None:
    assert judge(line, tmp_path, "skopeo sync").verdict is Verdict.ALLOW, line


@pytest.mark.skipif(shutil.which("skopeo") is None, reason="skopeo not installed")
@pytest.mark.parametrize("bundle", [["-ad", "containers-storage"], ["-adcontainers-storage"],
                                    ["-ad=containers-storage"]])  # fmt: skip
def test_premise_skopeo_reads_bundled_dest(tmp_path: Path, bundle: list[str]) -> None:
    """Real skopeo reads `-ad X` as `--all --dest X` (premise: it names X the
    destination transport before reaching any registry)."""
    done = subprocess.run(
        ["skopeo", "sync", "--src", "docker", *bundle, "reg.invalid/x", str(tmp_path / "d")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "containers-storage" in done.stderr, done.stderr
    assert "is not a valid destination transport" in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("tox -e py", "tox -e py $"),
        ("tox -p", "tox -p $"),
        ("ant -d build", "ant -d build $"),
        ("nox -s lint", "nox -s lint $"),
    ],
)
def test_option_first_offer_is_exact(tmp_path: Path, line: str, offer: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, line
    assert decision.suggested_rule == offer, decision.suggested_rule
    assert judge(line, tmp_path, offer).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [("tox -e deploy", "tox -e py $"), ("tox -l", "tox -e py $"),
     ("tox -e py -e deploy", "tox -e py $"), ("ant deploy", "ant -d build $")],
)  # fmt: skip
def test_exact_offer_covers_nothing_else(tmp_path: Path, line: str, approval: str) -> None:
    assert judge(line, tmp_path, approval).verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    ("line", "offer"), [("ant build", "ant build"), ("tox", "tox $"), ("ant", "ant $")]
)
def test_target_offers_unchanged(tmp_path: Path, line: str, offer: str) -> None:
    assert judge(line, tmp_path).suggested_rule == offer, line
