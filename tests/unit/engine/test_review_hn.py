"""Review HN: container lines still allowed under offered approvals after review BQ.

HN1: podman reads `--annotation` and `--group-add` as CSV (commas split, quotes dropped):
`--annotation a=b,run.oci.seccomp.plugins=/tmp/p.so` and `--group-add '"keep-groups"'`.
HN2: an image's annotations reach crun: `buildah config -a run.oci.…` (short `-a`), and
`podman run oci-archive:img.tar` of an archive the agent wrote.
HN3: `docker buildx create` points builds (and their registry credentials) at a builder
the line names. HN4: `podman system connection rename|mv` replaces the default.
HN5: `docker context export prod -` prints the TLS key. HN6: `podman container restore
IMAGE` makes the container a checkpoint image describes.
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
        ("podman run --annotation a=b,run.oci.seccomp.plugins=/tmp/p.so alpine", "podman run"),
        ("podman run --annotation '\"run.oci.hooks.stdout=/root/.bashrc\"' alpine", "podman run"),
        ("podman run --group-add '\"keep-groups\"' alpine", "podman run"),
        ("podman run --group-add 1000,keep-groups alpine", "podman run"),
        ("podman create --annotation=a=b,io.podman.annotations.label=disable alpine",
         "podman create"),
        ("podman run --annotation 'a=\"b,run.oci.x=1' alpine", "podman run"),
        ("buildah config -a run.oci.seccomp.plugins=/tmp/p.so ctr", "buildah config"),
        ("buildah config -arun.oci.hooks.stdout=/tmp/o ctr", "buildah config"),
        ("podman run oci-archive:img.tar", "podman run"),
        ("podman run --rm oci:dir echo hi", "podman run"),
        ("podman run docker-archive:x.tar", "podman run"),
        ("podman create dir:./img", "podman create"),
        ("podman container run oci-archive:./img.tar", "podman container run"),
        ("docker buildx create --driver remote unix:///tmp/x.sock --use", "docker buildx create"),
        ("docker buildx create --driver docker-container --driver-opt image=evil/bk",
         "docker buildx"),
        ("docker buildx create --config ./bk.toml", "docker buildx create"),
        ("docker builder create --use", "docker builder create"),
        ("docker-buildx create --use", "docker-buildx create"),
        ("podman system connection rename evil prod", "podman system connection"),
        ("podman system connection mv evil prod", "podman system connection"),
        ("docker context export prod -", "docker context export"),
        ("docker context export prod", "docker context"),
        ("podman container restore quay.io/x/ckpt:latest", "podman container restore"),
        ("podman container restore --all", "podman container restore"),
    ],
)  # fmt: skip
def test_asks_under_the_approval(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("podman run --rm alpine echo hi", "podman run"),
        ("podman run --annotation a=b alpine", "podman run"),
        ("podman run --annotation a=b,c=d alpine", "podman run"),
        ("podman run --group-add 1000,wheel alpine", "podman run"),
        ("podman run -a stdout alpine echo hi", "podman run"),
        ("buildah config -a team=web ctr", "buildah config"),
        ("docker buildx ls", "docker buildx ls"),
        ("docker buildx build .", "docker buildx build"),
        ("docker context ls", "docker context ls"),
        ("podman system connection list", "podman system connection list"),
    ],
)
def test_ordinary_uses_keep_their_offer(tmp_path: Path, line: str, offer: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == offer, decision.explain()
    assert judge(line, tmp_path, offer).verdict is Verdict.ALLOW, line


def test_real_podman_splits_annotations_as_csv(tmp_path: Path) -> None:
    line = "podman run --annotation a=b,run.oci.seccomp.plugins=/tmp/p.so alpine"
    assert judge(line, tmp_path, "podman run").verdict is not Verdict.ALLOW
    podman = shutil.which("podman")
    if podman is None:
        pytest.skip("the premise needs podman")
    # podman's `--annotation` is a CSV string slice: a stray quote is refused by its
    # CSV reader before anything runs, so the value is read as CSV
    done = subprocess.run(
        [podman, "--root", str(tmp_path / "r"), "--runroot", str(tmp_path / "rr"),
         "create", "--annotation", 'a="b', "alpine"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert "quote" in (done.stderr + done.stdout).lower(), done.stderr
