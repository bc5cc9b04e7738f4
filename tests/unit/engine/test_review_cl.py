"""Review CL (of review CK's fixes) and what I found beside it: extractors the floor did
not know (Schily's star and its emulations, dtrx, zpaq's dashed and abbreviated commands,
patool's unknown ones, bsdunzip, lhasa, innoextract, …) were approvable by their own
suggestion; gzip's `uncompress` script restores the name stored in the file under `-N`;
`gnutar` is GNU tar; quilt applies the patches a repository ships. Real runs with bash
where the programs are here (gzip's `uncompress` is)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import approved, canary_environment

from policylang import Verdict, load_policy


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


def _suggested(line: str, workspace: Path) -> str | None:
    decision = load_policy().evaluate(
        line, workspace=str(workspace), env=canary_environment(workspace)
    )
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    return None if decision.suggested_rule is None else str(decision.suggested_rule)


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("star", "star -xf h.tar"), ("star", "star xf h.tar"), ("star", "star -x f=h.tar"),
        ("ustar", "ustar -x f=h.tar"), ("suntar", "suntar xf h.tar"), ("spax", "spax -r"),
        ("scpio", "scpio -i"), ("dtrx", "dtrx h.zip"), ("dtrx", "dtrx h.zip -l"),
        ("zpaq", "zpaq -extract h.zpaq"), ("zpaq", "zpaq e h.zpaq"), ("zpaq", "zpaq x h.zpaq"),
        ("zpaq", "zpaq -ex h.zpaq"), ("patool", "patool x h.zip"),
        ("patool", "patool --verbose extract h.zip"), ("bsdunzip", "bsdunzip h.zip"),
        ("bsdunzip", "bsdunzip h.zip -l"), ("lhasa", "lhasa x h.lzh"), ("lhasa", "lhasa e h.lzh"),
        ("innoextract", "innoextract setup.exe"), ("unshield", "unshield x d.cab"),
        ("unace", "unace x h.ace"), ("unalz", "unalz h.alz"), ("unarj", "unarj e h.arj"),
        ("msiextract", "msiextract h.msi"), ("unp", "unp h.zip"), ("zoo", "zoo -extract h.zoo"),
        ("zoo", "zoo xO h.zoo"), ("arc", "arc x h.arc"), ("ouch", "ouch d h.zip"),
        ("ouch", "ouch decompress h.zip"), ("dpkg-source", "dpkg-source -x x.dsc"),
        ("wheel", "wheel unpack x.whl"), ("gem", "gem unpack x.gem"),
    ],
)  # fmt: skip
def test_more_extractors_are_never_approved(workspace: Path, approval: str, line: str) -> None:
    # each was approvable before: its suggestion, or the bare name a listing suggests
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)
    assert _suggested(line, workspace) is None


@pytest.mark.parametrize(
    ("approval", "line"),
    [("zpaq", "zpaq l h.zpaq"), ("zpaq", "zpaq -list h.zpaq"), ("zpaq", "zpaq a h.zpaq src"),
     ("patool", "patool list h.zip"), ("dtrx", "dtrx -l h.zip"), ("lhasa", "lhasa l h.lzh"),
     ("ouch", "ouch list h.zip"), ("star", "star -t f=h.tar"),
     ("cabextract", "cabextract -q -l a.cab")],
)  # fmt: skip
def test_their_listings_stay_approvable(workspace: Path, approval: str, line: str) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_uncompress_restores_the_stored_name(workspace: Path) -> None:
    # Debian's `uncompress` is gzip's script `gzip -d "$@"`: `-N` writes the name stored in
    # the file, whatever the file is called
    assert shutil.which("uncompress") is not None, "gzip's `uncompress` script"
    with (workspace / "h.Z").open("wb") as raw, gzip.GzipFile(".mcp.json", "wb", fileobj=raw) as z:
        z.write(b'{"mcpServers": "PWNED"}\n')  # (the name given is the one stored)
    line = "uncompress -N h.Z"
    assert _suggested("uncompress h.Z", workspace) == "uncompress"
    env = canary_environment(workspace)
    decision = approved("uncompress").evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "compress-stored-name" for r in decision.reasons)
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, check=True)
    assert "PWNED" in (workspace / ".mcp.json").read_text()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gnutar tf", "gnutar xf h.tar"), ("gnutar tf", "gnutar --to-command=sh -xf h.tar"),
     ("gnutar cf", "gnutar cf x.tar --checkpoint=1 --checkpoint-action=exec=id src")],
)
def test_gnutar_is_gnu_tar(workspace: Path, approval: str, line: str) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert _suggested(line, workspace) is None


@pytest.mark.parametrize("line", ["quilt push -a", "quilt pop", "quilt --quiltrc x series"])
def test_quilt_is_never_approvable(workspace: Path, line: str) -> None:
    assert _suggested(line, workspace) is None
    for name in ("ci", "readonly"):
        policy = load_policy(Path(__file__).parents[3] / "rulesets" / f"{name}.policy")
        decision = policy.evaluate(line, workspace=str(workspace),
                                   env=canary_environment(workspace))
        assert decision.verdict is Verdict.DENY, decision.explain()
