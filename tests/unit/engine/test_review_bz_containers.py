"""Review HS on BX's container and runner changes (fixer BZ).

HS1: `skopeo copy --src-creds sync oci-archive:x.tar containers-storage:x` was read as a
`skopeo sync` (any word `sync`) and allowed under `skopeo copy`: the verb is found where
skopeo (cobra) finds it. HS2: a glob or brace in an image word (`o?i-archive:x.tar`)
may expand to a file named `oci-archive:x.tar`: the word's literal start ends there.
HS3: `lxc --project p exec …` hid the verb behind a global option's value. HS4: pflag
drops the first `--` wherever it stands (`lxc exec c sh -- -c CMD` runs `sh -c CMD`).
HS5: instance settings that give the container this machine (`security.privileged`,
`raw.lxc`, `raw.idmap`, `-c security.nesting=true`, `config edit`) ask, offered nothing.
HS6: `docker logs load` (a container named `load`) no longer asks as `docker load`.
HS7: `export npm_config_call=…; npx`, `npm -c CMD exec`, `npm --call=CMD exec` judged.
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
        ("skopeo copy --src-creds sync oci-archive:x.tar containers-storage:x", "skopeo copy"),
        ("skopeo copy --authfile sync oci-archive:x.tar containers-storage:x", "skopeo copy"),
        ("skopeo copy --additional-tag sync oci-archive:x.tar containers-storage:x",
         "skopeo copy"),
        ("skopeo --tmpdir /tmp sync --src dir --dest containers-storage ./d x", "skopeo"),
        ("podman run --rm o?i-archive:x.tar", "podman run"),
        ("podman run --rm oci-archive*", "podman run"),
        ("podman run --rm o{c,x}i-archive:x.tar", "podman run"),
        ("docker run --rm o?i-archive:x.tar", "docker run"),
        ("podman pull o?i-archive:x.tar", "podman pull"),
        ("podman pull [o]ci-archive:x.tar", "podman pull"),
        ("buildah from d?r:img", "buildah from"),
        ("skopeo copy o?i-archive:x.tar containers-storage:x", "skopeo copy"),
    ],
)
def test_local_image_asks(tmp_path: Path, line: str, approval: str) -> None:
    assert_local_image_asks(line, tmp_path, approval)


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("podman pull docker.io/library/alpine", "podman pull"),
        ("podman run --rm alpine ls", "podman run"),
        ("podman run --rm 'o?i'x alpine ls", "podman run"),
        ("skopeo copy docker://alpine containers-storage:x", "skopeo copy"),
        ("skopeo sync --src docker --dest dir docker.io/library/alpine ./out", "skopeo sync"),
        ("docker logs web", "docker logs"),
        # HS6: a container or image named `load` is no `docker load`
        ("docker logs load", "docker logs"),
        ("docker stop load", "docker stop"),
        ("docker inspect load", "docker inspect"),
        ("docker exec web load", "docker exec"),
        ("docker images load", "docker images"),
        ("lxc list", "lxc"),
        ("lxc --project p list", "lxc"),
        ("lxc exec c -- ls", "lxc exec"),
        ("lxc exec c -- sh -c 'ls -- -x'", "lxc exec"),
        ("lxc config show c", "lxc config"),
        ("lxc config set c limits.cpu 2", "lxc config"),
        ("lxc launch ubuntu:22.04 c", "lxc launch"),
    ],
)
def test_ordinary_lines_keep_allowed(tmp_path: Path, line: str, approval: str) -> None:
    assert judge(line, tmp_path, approval).verdict is Verdict.ALLOW, line


def test_docker_load_still_asks(tmp_path: Path) -> None:
    for line in ("docker load -i x.tar", "docker image load -i x.tar", "podman load -i x"):
        assert judge(line, tmp_path, line.rsplit(" ", 2)[0]).verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc --project p exec c -- sh -c 'rm -rf ~'", "lxc"),
        ("incus --project p exec c -- sh -c 'rm -rf ~'", "incus"),
        ("lxc --debug exec c -- sh -c 'rm -rf ~'", "lxc"),
        ("lxc exec c sh -- -c 'rm -rf ~'", "lxc exec"),
        ("incus exec c bash -- -c 'rm -rf ~'", "incus exec"),
    ],
)
def test_instance_command_found(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.DENY, line
    assert any(r.rule_id == "engine.runner-command" for r in decision.reasons), line


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("lxc config set c security.privileged true", "lxc config"),
        ("lxc config set c raw.lxc 'lxc.mount.entry = / host none bind,create=dir 0 0'",
         "lxc config set"),
        ("lxc launch ubuntu:22.04 c -c security.privileged=true -c raw.lxc=x", "lxc launch"),
        ("lxc init ubuntu:22.04 c -c security.privileged=true", "lxc init"),
        ("lxc launch ubuntu:22.04 c --config=security.nesting=true", "lxc"),
        ("incus config set c raw.idmap 'both 0 0'", "incus config"),
        ("incus config set c security.idmap.isolated=false", "incus config"),
        ("lxc config set c security.syscalls.intercept.mount true", "lxc config"),
        ("lxc config set c linux.kernel_modules ip_tables", "lxc config"),
        ("lxc config set c raw.qemu -x", "lxc config"),
        ("lxc profile set default raw.apparmor x", "lxc profile"),
        ("lxc config edit c < c.yaml", "lxc config"),
        ("lxc profile edit default < p.yaml", "lxc profile"),
        ("lxc --project p config set c security.privileged true", "lxc"),
        ("lxc config device add c d disk source=/ path=/mnt", "lxc config"),
        ('lxc config set c "$K" true', "lxc config"),
    ],
)
def test_instance_privileges_ask(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is not Verdict.ALLOW, line
    assert any(r.rule_id == "engine.instance-privileges" for r in decision.reasons), line
    assert judge(line, tmp_path).suggested_rule is None, line


def test_instance_ordinary_offers(tmp_path: Path) -> None:
    assert judge("lxc config show c", tmp_path).suggested_rule is not None
    assert judge("lxc config set c limits.cpu 2", tmp_path).suggested_rule is not None


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("export npm_config_call='rm -rf ~'; npx", "npx"),
        ("export npm_config_call='rm -rf ~' && npm exec", "npm exec"),
        ("npm --call='rm -rf ~' exec", "npm exec"),
        ("npm -c 'rm -rf ~' exec", "npm"),
    ],
)
def test_npm_call_judged(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is Verdict.DENY, line
    assert any(r.rule_id == "engine.runner-command" for r in decision.reasons), line


def test_npm_harmless_keeps_verdict(tmp_path: Path) -> None:
    assert judge("npm run build", tmp_path, "npm run build").verdict is Verdict.ALLOW
    assert judge("npm --call=ls exec", tmp_path).verdict is Verdict.ASK


@pytest.mark.skipif(shutil.which("skopeo") is None, reason="skopeo not installed")
def test_premise_skopeo_option_value_is_no_verb(tmp_path: Path) -> None:
    """Real skopeo reads `copy --src-creds sync SRC DST` as a copy of SRC (premise)."""
    done = subprocess.run(
        ["skopeo", "copy", "--src-creds", "sync", f"oci-archive:{tmp_path}/none.tar",
         f"dir:{tmp_path}/out"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "none.tar" in done.stderr, done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_premise_glob_names_local_transport(tmp_path: Path) -> None:
    """Real bash expands `o?i-archive:x.tar` to a file named `oci-archive:x.tar`."""
    (tmp_path / "oci-archive:x.tar").write_text("")
    done = subprocess.run(
        ["bash", "-c", "echo o?i-archive:x.tar oci-archive* [o]ci-archive:x.tar"],
        cwd=tmp_path, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert done.stdout.split() == ["oci-archive:x.tar"] * 3


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm not installed")
def test_premise_npm_call_before_subcommand(tmp_path: Path) -> None:
    """Real npm runs `-c CMD` / `--call=CMD` given before `exec` (premise)."""
    env = canary_environment(tmp_path)
    env["PATH"] = f"{Path(shutil.which('npm') or '').parent}:/usr/bin:/bin"
    for args in (["npm", "-c", "touch c-ran", "exec"], ["npm", "--call=touch call-ran", "exec"]):
        subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, timeout=120,
                       check=False)  # fmt: skip
    assert (tmp_path / "c-ran").exists()
    assert (tmp_path / "call-ran").exists()
