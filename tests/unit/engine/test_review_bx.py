"""Review BX: container and runner gaps under approvals the engine offered.

BX1: `docker load -i img.tar` (offered `docker load`) was allowed, where `podman load`
asks: `docker` may be podman's wrapper (podman-docker), whose `load` stores the archive's
image, annotations and all, to run by name later.
BX2: an image word that is not literal (`podman pull "$IMG"`) may start with a local
transport (`oci-archive:/tmp/x`): it now asks as the engine's own check, not only by
chance of another (`engine.container-local-image`).
BX3: `skopeo sync --dest TRANSPORT` other than `docker` or `dir` (skopeo 1.9 refuses
the rest; a later one might write podman's storage) asks as `skopeo copy … containers-storage:`.
BX5: `npm_config_call='CMD' npx` (`NPM_CONFIG_CALL=… npm exec`): real npm runs CMD in a
shell, as `npx -c CMD`; the value is judged as the runner's command (a deny holds).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import assert_local_image_asks, canary_environment, judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("docker load -i img.tar", "docker load"),
        ("docker load < img.tar", "docker load"),
        ("docker image load -i img.tar", "docker image load"),
        ("docker image load -i img.tar", "docker image"),
        ('podman pull "$IMG"', "podman pull"),
        ('podman run --rm "$IMG" ls', "podman run"),
        ('podman create "oci$X"', "podman create"),
        ('skopeo copy "$SRC" containers-storage:x', "skopeo copy"),
        ("skopeo sync --src dir --dest containers-storage ./d x", "skopeo sync"),
        ("skopeo sync --src dir --dest=oci ./d x", "skopeo sync"),
        ('skopeo sync --src dir -d "$D" ./d x', "skopeo sync"),
    ],
)
def test_local_image_asks_under_approval(tmp_path: Path, line: str, approval: str) -> None:
    assert_local_image_asks(line, tmp_path, approval)


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("podman pull docker.io/library/alpine", "podman pull"),
        ("podman run --rm alpine ls", "podman run"),
        ("docker load --help", "docker load"),
        ("skopeo sync --src docker --dest dir docker.io/library/alpine ./out", "skopeo sync"),
        ("skopeo sync --src docker -d docker docker.io/library/alpine reg.example.com/x",
         "skopeo sync"),
        ("lxc exec c -- ls", "lxc exec"),
        ("lxc file push ./x c/tmp/", "lxc file"),
    ],
)
def test_ordinary_lines_keep_allowed(tmp_path: Path, line: str, approval: str) -> None:
    assert judge(line, tmp_path, approval).verdict is Verdict.ALLOW, line


def test_ordinary_lines_keep_offers(tmp_path: Path) -> None:
    assert judge("lxc list", tmp_path).suggested_rule == "lxc list"
    assert judge("podman pull docker.io/library/alpine", tmp_path).verdict is not Verdict.DENY


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("npm_config_call='rm -rf ~' npx", "npx"),
        ("NPM_CONFIG_CALL='rm -rf ~' npm exec", "npm exec"),
        ("env npm_config_call='rm -rf ~' npx", "npx"),
        ("npm_config_call='rm -rf ~' npx", ""),
    ],
)
def test_npm_call_variable_is_judged(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, *([approval] if approval else []))
    assert decision.verdict is Verdict.DENY, line
    assert any(r.rule_id == "engine.runner-command" for r in decision.reasons), line


def test_npm_call_variable_from_environment(tmp_path: Path) -> None:
    from policylang import load_policy

    env = {**canary_environment(tmp_path), "npm_config_call": "rm -rf ~"}
    decision = load_policy().evaluate("npx", workspace=str(tmp_path), env=env)
    assert decision.verdict is Verdict.DENY


def test_npm_call_harmless_keeps_ask(tmp_path: Path) -> None:
    assert judge("npm_config_call='ls' npx", tmp_path, "npx").verdict is Verdict.ASK


@pytest.mark.skipif(shutil.which("npx") is None, reason="npm not installed")
def test_premise_npm_runs_call_variable(tmp_path: Path) -> None:
    """Real npm runs `npm_config_call`'s value in a shell (premise only)."""
    for name, program in (("npm_config_call", ["npx"]), ("NPM_CONFIG_CALL", ["npm", "exec"])):
        env = {**canary_environment(tmp_path), name: "echo BX-$((40+2))"}
        env["PATH"] = f"{Path(shutil.which('npx') or '').parent}:/usr/bin:/bin"
        done = subprocess.run(program, cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, check=False)  # fmt: skip
        assert "BX-42" in done.stdout, (name, done.stdout, done.stderr)


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc exec c -- sh -c 'rm -rf ~'", "lxc exec"),
        ("lxc exec c sh -c 'rm -rf ~'", "lxc exec"),
        ("lxc exec --env A=1 c -- bash -c 'rm -rf ~'", "lxc exec"),
        ("incus exec c -- sh -c 'rm -rf ~'", "incus exec"),
        ("lxc exec \"$C\" -- sh -c 'rm -rf ~'", "lxc exec"),
    ],
)
def test_instance_command_is_judged(tmp_path: Path, line: str, approval: str) -> None:
    """BX4: an lxc/incus instance may have this machine's folders as disk devices."""
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.DENY, line
    assert any(r.rule_id == "engine.runner-command" for r in decision.reasons), line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc file pull c/etc/x ~/.bashrc", "lxc file"),
        ("incus file pull c/etc/x ~/.bashrc", "incus file"),
        ("lxc file push ~/.ssh/id_rsa c/tmp/", "lxc file"),
        ("incus file push ~/.ssh/id_rsa c/tmp/", "incus file"),
    ],
)
def test_instance_file_host_paths_locked(tmp_path: Path, line: str, approval: str) -> None:
    """BX4 (held already before this review: a lock): `lxc file pull` writes its last
    operand on this machine, `push` reads its sources here."""
    assert judge(line, tmp_path, approval).verdict is Verdict.DENY, line


def test_instance_harmless_command_keeps_allowed(tmp_path: Path) -> None:
    assert judge("lxc exec c -- sh -c 'ls -la /tmp'", tmp_path, "lxc exec").verdict is Verdict.ALLOW
