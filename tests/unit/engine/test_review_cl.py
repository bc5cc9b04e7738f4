"""Review CL (of review CK's fixes) and what I found beside it: extractors the floor did
not know (Schily's star and its emulations, dtrx, zpaq's dashed and abbreviated commands,
patool's unknown ones, bsdunzip, lhasa, innoextract, ptar, gpgtar, dar, afio, munpack …)
were approvable by their own suggestion, and `ar` under a toolchain's names (CL1, CL7);
`lzop -d` restores stored names (CL2); a glob copy after a tree copy (CL3); links resolved
before their `..` (CL4) and links inside protected folders (CL5); archivers that read
names from stdin (CL6); gzip's `uncompress -N`; `gnutar` is GNU tar; quilt. Real runs
with bash where the programs are here (binutils' ar, cp, rsync, gzip's `uncompress`)."""

from __future__ import annotations

import glob
import gzip
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import approved, canary_environment, judge

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
     ("ouch", "ouch list h.zip"), ("cabextract", "cabextract -q -l a.cab")],
    # (the star family is never approvable since review CM6: its options run programs)
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


def test_cl1_ar_under_a_toolchain_s_name_extracts(workspace: Path) -> None:
    found = sorted(glob.glob("/usr/bin/*-linux-gnu-ar"))
    assert found, "binutils' target-named ar (scripts/system-deps.sh installs binutils)"
    program = os.path.basename(found[0])
    payload = workspace / "payload"
    payload.mkdir()
    (payload / "CLAUDE.md").write_text("PWNED\n")
    subprocess.run(["ar", "rc", str(workspace / "h.a"), "CLAUDE.md"], cwd=payload, check=True)
    line = f"{program} -v -x h.a"
    decision = judge(line, workspace, program)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)
    subprocess.run(["bash", "-c", line], cwd=workspace, env=canary_environment(workspace),
                   check=True, capture_output=True)
    assert (workspace / "CLAUDE.md").read_text() == "PWNED\n"


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc-ar", "gcc-ar -x h.a"), ("gcc-ar x", "gcc-ar x h.a"), ("llvm-ar", "llvm-ar @opts"),
     ("llvm-ar-14 x", "llvm-ar-14 x h.a"), ("lzop", "lzop -d m2.lzo"), ("lzop", "lzop -dv m2.lzo"),
     ("lzop", "lzop --uncompress m2.lzo"), ("ptar", "ptar -x -f h.tar"),
     ("gpgtar", "gpgtar -d --skip-crypto -C . h.tar"), ("paxtar xf", "paxtar xf h.tar"),
     ("paxcpio", "paxcpio -id"), ("dtrx", "dtrx -f h.tar"), ("dar", "dar -x h -Q"),
     ("afio", "afio -i h.afio"), ("munpack", "munpack m.eml"), ("lhasa", "lhasa -x h.lzh")],
)  # fmt: skip
def test_cl1_cl2_cl7_extraction_is_never_approved(
    workspace: Path, approval: str, line: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("ar rcs", "ar rcs libmatrix.a matrix.o"), ("lzop", "lzop -dc m.lzo"),
     ("lzop", "lzop -oPx.lzo file"), ("gcc-ar rcs", "gcc-ar rcs l.a x.o")],
)  # fmt: skip
def test_cl9_what_writes_no_stored_name_stays_approvable(
    workspace: Path, approval: str, line: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("bsdcpio", "bsdcpio -o < list"), ("bsdcpio", "bsdcpio -o -Fout.cpio < list"),
     ("pax", "pax -w < list"), ("paxcpio", "paxcpio -o < list"), ("afio", "afio -o - < list")],
)
def test_cl6_names_read_from_stdin_are_never_approved(
    workspace: Path, approval: str, line: str
) -> None:
    (workspace / "list").write_text(".env\n")
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.stdin-names" for r in decision.reasons)


@pytest.fixture
def copies(workspace: Path) -> Path:
    (workspace / "cfg").mkdir()
    (workspace / "cfg" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / ".vscode").mkdir()
    return workspace


@pytest.mark.parametrize(
    "line",
    ["rsync -r cfg docs/ && cp docs/cfg/t* .vscode/",
     "rsync -r cfg/ docs/ && cp docs/t* .vscode/",
     "rsync --recursive cfg docs/ && cp docs/cfg/t* .vscode/"],
)
def test_cl3_a_glob_copy_after_a_tree_copy(copies: Path, line: str) -> None:
    assert shutil.which("rsync") is not None, "rsync (scripts/system-deps.sh installs it)"
    decision = judge(line, copies, "rsync", "cp")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=copies, env=canary_environment(copies), check=True)
    assert "PWNED" in (copies / ".vscode" / "tasks.json").read_text()


def test_cl4_a_link_s_dots_come_after_its_links(copies: Path) -> None:
    # `.vscode -> docs/lnk/../tgt` with `docs/lnk -> ../cfg2/sub` is `cfg2/tgt`
    shutil.rmtree(copies / ".vscode")
    for folder in ("cfg2/sub", "cfg2/tgt", "docs", "docs/tgt"):
        (copies / folder).mkdir(parents=True)
    (copies / "docs" / "lnk").symlink_to("../cfg2/sub")
    (copies / ".vscode").symlink_to("docs/lnk/../tgt")
    line = "cp cfg/tasks.json cfg2/tgt/"
    decision = judge(line, copies, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=copies, env=canary_environment(copies), check=True)
    assert "PWNED" in (copies / ".vscode" / "tasks.json").read_text()
    # and the folder the lexical reading named is no protected one
    elsewhere = judge("cp cfg/tasks.json docs/tgt/", copies, "cp")
    assert elsewhere.verdict is Verdict.ALLOW, elsewhere.explain()


@pytest.mark.parametrize(
    "line", ["cp cfg/tasks.json cfgx/settings.json", "cp cfg/tasks.json cfgx/", "cp cfg/t* cfgx/"]
)
def test_cl5_a_protected_file_that_is_a_link(copies: Path, line: str) -> None:
    (copies / ".claude").mkdir()
    (copies / "cfgx").mkdir()
    (copies / ".claude" / "settings.json").symlink_to("../cfgx/settings.json")
    (copies / ".vscode" / "tasks.json").symlink_to("../cfgx/tasks.json")
    decision = judge(line, copies, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=copies, env=canary_environment(copies), check=True)
    written = [(copies / p).read_text() for p in (".claude/settings.json", ".vscode/tasks.json")
               if (copies / p).exists()]
    assert any("PWNED" in text for text in written)


def test_a_protected_folder_too_large_to_list_asks(copies: Path) -> None:
    (copies / ".claude" / "many").mkdir(parents=True)
    for index in range(600):
        (copies / ".claude" / "many" / f"f{index}").write_text("")
    decision = judge("cp cfg/tasks.json docs/", copies, "cp")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.unknown-links" for r in decision.reasons)
