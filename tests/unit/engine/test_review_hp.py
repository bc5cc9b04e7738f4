"""Review HP: container images from files of this machine still allowed under offered
approvals after review HN.

HP1: `podman container clone CTR NAME IMAGE` runs IMAGE (`oci-archive:img.tar`).
HP2: a quoted local transport with an expansion after it (`"oci-archive:$F"`).
HP3: copying a local image into storage, then running it by name, carries its
annotations (`podman pull oci-archive:…`, `podman load`, `skopeo copy
oci-archive:… containers-storage:…`, `buildah from|pull oci-archive:…`).
HP4: `podman-remote` was known to no rule (`podman-remote run --privileged`).
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
        ("podman container clone web web2 oci-archive:img.tar", "podman container clone"),
        ("podman container clone --run web web2 dir:./img", "podman container clone"),
        ('podman run "oci-archive:$F"', "podman run"),
        ('podman run "dir:$PWD/img"', "podman run"),
        ("podman pull oci-archive:x.tar", "podman pull"),
        ("podman image pull dir:./img", "podman image pull"),
        ("podman load -i x.tar", "podman load"),
        ("podman load < x.tar", "podman load"),
        ("podman image load --input=x.tar", "podman image load"),
        ("skopeo copy oci-archive:x.tar containers-storage:x", "skopeo copy"),
        ("skopeo copy dir:./img containers-storage:localhost/x", "skopeo"),
        ("buildah from oci-archive:x.tar", "buildah from"),
        ("buildah pull dir:./img", "buildah pull"),
        ("podman-remote run --privileged alpine", "podman-remote run"),
        ("podman-remote run oci-archive:x.tar", "podman-remote run"),
        ("podman-remote --root /tmp/x ps", "podman-remote"),
    ],
)  # fmt: skip
def test_asks_under_the_approval(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("podman pull docker.io/library/alpine", "podman pull"),
        ("podman run --rm alpine echo hi", "podman run"),
        ("podman run --rm alpine echo load", "podman run"),
        ("podman container clone web web2", "podman container clone"),
        ("skopeo copy docker://alpine containers-storage:alpine", "skopeo copy"),
        ("skopeo copy containers-storage:alpine oci-archive:out.tar", "skopeo copy"),
        ("buildah from alpine", "buildah from"),
        ("podman import x.tar img", "podman import"),
        ("podman-remote run --rm alpine echo hi", "podman-remote run"),
        ("podman-remote ps", "podman-remote ps"),
    ],
)
def test_ordinary_uses_keep_their_offer(tmp_path: Path, line: str, offer: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == offer, decision.explain()
    assert judge(line, tmp_path, offer).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize(
    ("line", "offer"),
    [("podman load --help", "podman load"), ("podman image load --help", "podman image load")],
)
def test_help_keeps_its_offer(tmp_path: Path, line: str, offer: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.suggested_rule == offer, decision.explain()


@pytest.mark.skipif(shutil.which("podman") is None, reason="podman is not installed")
def test_clone_takes_an_image_operand() -> None:
    # the premise of HP1: clone's third operand is the image the clone runs
    usage = subprocess.run(
        ["podman", "container", "clone", "--help"], capture_output=True, text=True, check=False
    ).stdout
    assert "IMAGE" in usage, usage
