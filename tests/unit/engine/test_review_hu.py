"""Review HU on BZ's container changes (fixer CB).

HU1: podman's root options reach its subcommands (`podman image --log-level=debug load
-i x.tar` loads): `load` is found where cobra finds it. HU2: a `skopeo copy` destination
whose literal start could begin `containers-storage:` (`c?ntainers-storage:x`) counts.
HU3: old lxc's `-d` is `--debug`: both readings are judged. HU4: clustered short options
(`-ec KEY=V`, `-ecKEY=V`). HU5: `network set raw.*`, a proxy's `connect=unix:`, the
server's `core.*`, `config trust add`, `remote add`, `import`, `admin init`, and
`launch`/`init`/`profile create` given their configuration on standard input ask, offered
nothing. HU6: `lxc shell c -- CMD` runs CMD (`shell` is `exec @ARGS@ -- su -l`); `alias
add` asks, offered nothing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import assert_local_image_asks, judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("podman image --log-level=debug load -i x.tar", "podman image"),
        ("podman image --log-level debug load -i x.tar", "podman"),
        ("podman image --log-level=debug load -i x.tar", "docker"),
        ("docker image --log-level=debug load -i x.tar", "docker"),
        ("podman image --remote load -i x.tar", "podman image"),
        ("podman image --remote load -i x.tar", "podman"),
        ("skopeo copy oci-archive:x.tar c?ntainers-storage:x", "skopeo copy"),
        ("skopeo copy oci-archive:x.tar containers-storage*", "skopeo copy"),
    ],
)
def test_local_image_asks(tmp_path: Path, line: str, approval: str) -> None:
    assert_local_image_asks(line, tmp_path, approval)


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc -d exec c -- sh -c 'rm -rf ~'", "lxc"),
        ("incus -d exec c -- sh -c 'rm -rf ~'", "incus"),
        ("lxc shell c -- sh -c 'rm -rf ~'", "lxc"),
        ("lxc shell c -- sh -c 'rm -rf ~'", "lxc shell"),
        ("incus shell c -- sh -c 'rm -rf ~'", "incus"),
    ],
)
def test_instance_command_denied(tmp_path: Path, line: str, approval: str) -> None:
    assert judge(line, tmp_path, approval).verdict is Verdict.DENY, line


@pytest.mark.parametrize(
    "line",
    [
        "lxc launch img c -ec security.privileged=true",
        "lxc launch img c -ecsecurity.privileged=true",
        "incus init img c -ec raw.lxc=x",
        "lxc -d launch img c -c security.privileged=true",
        "lxc network set n raw.dnsmasq x",
        "lxc config device add c s proxy connect=unix:/var/run/docker.sock listen=unix:/x",
        "lxc config set core.https_address :8443",
        "lxc config trust add",
        "lxc remote add r 10.0.0.1",
        "lxc import backup.tar.gz",
        "incus admin init",
        "lxc alias add x 'exec @ARGS@ -- sh'",
        # configuration from standard input, as `config edit`
        "lxc launch img c < config.yaml",
        "lxc init img c < x.yaml",
        "lxc profile create p < p.yaml",
        "incus create img c <<< 'config: {security.privileged: true}'",
    ],
)
def test_instance_setting_asks(tmp_path: Path, line: str) -> None:
    program = line.split()[0]
    for approval in (program, " ".join(line.split()[:2])):
        decision = judge(line, tmp_path, approval)
        assert decision.verdict is Verdict.ASK, (line, approval)
        assert any(r.rule_id == "engine.instance-privileges" for r in decision.reasons), line
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("podman image ls", "podman image"),
        ("podman image load --help", "podman image"),
        ("docker logs load", "docker logs"),
        ("docker logs -f load", "docker logs"),
        ("skopeo copy oci-archive:x.tar docker://x", "skopeo copy"),
        ("lxc list", "lxc"),
        ("lxc exec c -- ls", "lxc exec"),
        ("lxc shell c", "lxc shell"),
        ("lxc config show c", "lxc config"),
        ("lxc config set c limits.cpu 2", "lxc config"),
        ("lxc launch img c -e", "lxc launch"),
        ("lxc launch img c -c limits.cpu=2", "lxc launch"),
        ("lxc config device add c p proxy listen=tcp:0.0.0.0:80 connect=tcp:127.0.0.1:80",
         "lxc config"),
        ("lxc alias list", "lxc"),
        ("lxc remote list", "lxc"),
        ("lxc launch img c", "lxc"),
        ("lxc profile create p", "lxc"),
        ("lxc list < /dev/null", "lxc"),
        ("lxc exec c -- ls < x", "lxc"),
    ],
)
def test_ordinary_lines_keep_allowed(tmp_path: Path, line: str, approval: str) -> None:
    assert judge(line, tmp_path, approval).verdict is Verdict.ALLOW, line


def test_podman_finds_load_past_root_options(tmp_path: Path) -> None:
    """HU1's premise, with real podman: a root option after `image` still reaches `load`."""
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed")
    out = subprocess.run(["podman", "image", "--log-level=debug", "load", "--help"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)  # fmt: skip
    assert "Load image(s) from a tar archive" in out.stdout


def test_bash_expands_storage_glob(tmp_path: Path) -> None:
    """HU2's premise, with real bash: `c?ntainers-storage:x` names `containers-storage:x`."""
    (tmp_path / "containers-storage:x").touch()
    out = subprocess.run(["bash", "-c", "echo c?ntainers-storage:x"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=30)  # fmt: skip
    assert out.stdout.strip() == "containers-storage:x"
