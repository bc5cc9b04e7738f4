"""Review HL: podman gaps under approvals the engine offered.

HL2: `podman system service --time=0` was offered `podman system service`, which approved
`… tcp:0.0.0.0:8080` (podman's API, unauthenticated on TCP). HL1: `podman push img
oci-archive:/root/.bashrc` (real podman replaced ~/.bashrc with a tar) was allowed under
`podman push`. HL4: `podman pod clone` met none of `pod create`'s host-option and mount
checks. HL3: a build whose `-f` ends in `.in` runs the Containerfile through cpp, whose
`#include "/any/path"` printed a secret in the build's error. Engine verdicts only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("podman system service --time=0 tcp:0.0.0.0:8080", "podman system service"),
        ("podman system service -t 0 tcp://0.0.0.0:2375", "podman system service"),
        ("podman system service --time=0", "podman system service"),
        ("podman push img oci-archive:/root/.bashrc", "podman push"),
        ("podman push img docker-archive:/root/.bashrc", "podman push"),
        ("podman push --tls-verify=false img dir:/root/.ssh", "podman push"),
        ("podman image push img oci-archive:/root/.bashrc", "podman image push"),
        ("podman manifest push lst oci:out", "podman manifest push"),
        ("podman pod clone --pid host p", "podman pod clone"),
        ("podman pod clone --userns=host p", "podman pod clone"),
        ("podman pod clone --security-opt label=disable --start p", "podman pod clone"),
        ("podman build -f Containerfile.in .", "podman build"),
        ("podman build --file=sub/Containerfile.in .", "podman build"),
        ("podman build -qfContainerfile.in .", "podman build"),
        ("buildah bud -f X.in .", "buildah bud"),
    ],
)
def test_asks_under_the_approval(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    "line", ["podman pod clone -v ~/.ssh:/h --start p", "podman pod clone -v /etc:/h p"]
)
def test_pod_clone_mounts_are_checked(tmp_path: Path, line: str) -> None:
    assert judge(line, tmp_path, "podman pod clone").verdict is Verdict.DENY, line


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("podman push img docker://registry.example/x", "podman push"),
        ("podman push img registry.example:5000/x:tag", "podman push"),
        ("podman image push img docker://registry.example/x", "podman image push"),
        ("podman pod create p", "podman pod create"),
        ("podman pod clone p", "podman pod clone"),
        ("podman build -f Containerfile .", "podman build"),
        ("podman build -t info .", "podman build"),
    ],
)
def test_ordinary_uses_keep_their_offer(tmp_path: Path, line: str, offer: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == offer, decision.explain()
    assert judge(line, tmp_path, offer).verdict is Verdict.ALLOW, line
