"""Review CI (of review CH's fixes): `BASHPID` is assignable (CI1); extraction by 7-Zip in
any case or order, `ar -x`, `jar -xf`, `bsdtar xf`, `dpkg -x` is never approvable
(CI2-CI5); a copy's glob source matches what the line itself writes (CI6), lands with
its folders' trees (CI7) and keeps its path under `--parents` (CI8); `cfg/sub/..` lands
in the target (CI9); `ln -s SOURCE` makes SOURCE's name here (CI10); a brace expansion
beside another expansion (CI11); links with a wildcard name (`.venv*`, CI13). Real runs
with bash where the programs are here."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import approved, canary_environment, judge

from policylang import Verdict


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    for folder in ("cfg", ".vscode", "docs", "pkg/sub/.claude", "src/.vscode"):
        (workspace / folder).mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / "pkg" / "sub" / "CLAUDE.md").write_text("PWNED\n")
    (workspace / "pkg" / "sub" / ".claude" / "settings.json").write_text("{}\n")
    (workspace / "pkg" / ".mcp.json").write_text("{}\n")
    (workspace / "src" / ".vscode" / "tasks.json").write_text('{"PWNED": 1}\n')
    return workspace


def test_ci1_bashpid_is_assignable(workspace: Path) -> None:
    line = 'unset BASHPID; read BASHPID <<< "args ex"; ps -o $BASHPID'
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    ran = subprocess.run(["bash", "-c", line], cwd=workspace, env=canary_environment(workspace),
                         capture_output=True, text=True, check=False)
    assert "ghp_CANARY" in ran.stdout


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("7z", "7z X h.zip"), ("7z", "7z -y x h.zip"), ("ar", "ar -x h.a"), ("ar", "ar x h.a"),
        ("jar", "jar -xf h.jar"), ("jar", "jar --extract -f h.jar"), ("bsdtar", "bsdtar xf h.tar"),
        ("dpkg", "dpkg -x h.deb ."), ("dpkg-deb", "dpkg-deb -R h.deb d"),
        ("unrar", "unrar x a.rar"), ("cabextract", "cabextract a.cab"), ("unar", "unar a.zip"),
        ("lha", "lha x a.lzh"), ("bsdcpio", "bsdcpio -i"), ("pax", "pax -r -f a.tar"),
        ("patool", "patool extract a.zip"), ("unsquashfs", "unsquashfs a.sqfs"),
    ],
)  # fmt: skip
def test_ci2_to_ci5_extraction_is_never_approved(
    workspace: Path, approval: str, line: str
) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("7z", "7z l h.zip"), ("ar", "ar t h.a"), ("jar", "jar tf h.jar"),
     ("unrar", "unrar l a.rar"), ("cabextract", "cabextract -l a.cab")],
)
def test_archive_listings_stay_approvable(workspace: Path, approval: str, line: str) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_ci3_ar_extracts_what_its_archive_names(workspace: Path) -> None:
    assert shutil.which("ar") is not None, "binutils' ar: scripts/system-deps.sh installs it"
    payload = workspace / "payload"
    payload.mkdir()
    (payload / "CLAUDE.md").write_text("PWNED\n")
    subprocess.run(["ar", "rc", str(workspace / "h.a"), "CLAUDE.md"], cwd=payload, check=True)
    decision = approved("ar").evaluate("ar -x h.a", workspace=str(workspace),
                                       env=canary_environment(workspace))
    assert decision.verdict is not Verdict.ALLOW
    subprocess.run(["ar", "-x", "h.a"], cwd=workspace, check=True)
    assert (workspace / "CLAUDE.md").read_text() == "PWNED\n"


@pytest.mark.parametrize(
    ("approvals", "line", "landed"),
    [
        (("cp",), "cp cfg/tasks.json docs/ && cp docs/* .vscode/", ".vscode/tasks.json"),
        (("cp",), "cp -r pkg/* docs/", "docs/sub/CLAUDE.md"),
        (("mv",), "mv pkg/* docs/", "docs/sub/.claude/settings.json"),
        (("cp",), "cp -r -t .vscode cfg/sub/..", ".vscode/tasks.json"),
        (("ln",), "ln -s pkg/.mcp.json", ".mcp.json"),
    ],
)
def test_ci6_to_ci10_copies_land_where_bash_puts_them(
    workspace: Path, approvals: tuple[str, ...], line: str, landed: str
) -> None:
    (workspace / "cfg" / "sub").mkdir()
    env = canary_environment(workspace)
    decision = approved(*approvals).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, check=True)
    assert (workspace / landed).exists()


def test_ci8_parents_keeps_a_glob_match_s_path(workspace: Path) -> None:
    env = canary_environment(workspace)
    line = "cp --parents .vscode/t* .."
    decision = approved("cp").evaluate(line, cwd=str(workspace / "src"),
                                       workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace / "src", env=env, check=True)
    assert "PWNED" in (workspace / ".vscode" / "tasks.json").read_text()


@pytest.mark.parametrize("line", ["cp -r cfg/* docs/", "mv cfg/* docs/", "ln -s cfg/tasks.json",
                                  "cp cfg/*.json docs/"])
def test_copies_elsewhere_stay_allowed(workspace: Path, line: str) -> None:
    approval = line.split()[0]
    decision = approved(approval).evaluate(line, workspace=str(workspace),
                                           env=canary_environment(workspace))
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("line", ["ps -p {$$,e}", "pgrep {-F,-d}$HOME/.netrc"])
def test_ci11_a_brace_expansion_beside_another(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_ci13_a_link_with_a_wildcard_name(workspace: Path) -> None:
    # `**/.venv*/bin/**` is protected for writes: a `.venv -> build` link leads there
    (workspace / ".venv").symlink_to("build")
    (workspace / "build" / "bin").mkdir(parents=True)
    decision = approved("cp").evaluate("cp cfg/tasks.json build/bin/python",
                                       workspace=str(workspace), env=canary_environment(workspace))
    assert decision.verdict is Verdict.ASK, decision.explain()  # (install folders ask)
    assert any("/.venv/bin/python" in r.message for r in decision.reasons)


# -- review CJ (of the CI fixes) --------------------------------------------------------


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("jar", "jar -v -x -f h.jar"), ("jar", "jar -f h.jar -x"),
        ("jar", "jar --file h.jar --extract"), ("jar", "jar @argfile"),
        ("dpkg-deb", "dpkg-deb -xv h.deb ."), ("dpkg-deb", "dpkg-deb --control h.deb ."),
        ("dpkg", "dpkg --control h.deb ."), ("bsdcpio", "bsdcpio -pd docs"),
        ("bsdcpio", "bsdcpio --ex"), ("lha", "lha xv a.lzh"), ("lha", "lha -xv a.lzh"),
        ("atool", "atool -x a.zip"), ("uudecode", "uudecode f.uu"),
        ("fastjar", "fastjar -xf a.jar"), ("7zzs", "7zzs x a.7z"), ("p7zip", "p7zip -d a.7z"),
    ],
)  # fmt: skip
def test_cj1_to_cj4_extraction_spellings(workspace: Path, approval: str, line: str) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("jar", "jar -tf h.jar"), ("dpkg-deb", "dpkg-deb --fsys-tarfile h.deb"),
     ("lha", "lha l a.lzh"), ("atool", "atool -l a.zip")],
)
def test_cj8_listings_stay_approvable(workspace: Path, approval: str, line: str) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["cp cfg/tasks.json docs/ && cp ./docs/t* .vscode/",
     "cp cfg/tasks.json docs/ && cp docs//t* .vscode/",
     "cp cfg/tasks.json docs/ && cp cfg/../docs/t* .vscode/"],
)
def test_cj5_the_line_s_own_writes_meet_any_spelling_of_the_glob(
    workspace: Path, line: str
) -> None:
    env = canary_environment(workspace)
    decision = approved("cp").evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, check=True)
    assert "PWNED" in (workspace / ".vscode" / "tasks.json").read_text()


def test_cj6_a_tree_copied_through_its_links_asks(workspace: Path) -> None:
    (workspace / "x").mkdir()
    (workspace / "x" / "CLAUDE.md").write_text("PWNED\n")
    (workspace / "pkg" / "sub" / "inner").symlink_to("../../x")
    env = canary_environment(workspace)
    for line in ("cp -rL pkg/sub docs/", "cp -rL cfg docs/"):
        decision = approved("cp").evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is not Verdict.ALLOW, decision.explain()
    subprocess.run(["cp", "-rL", "pkg/sub", "docs/"], cwd=workspace, check=True)
    assert (workspace / "docs" / "sub" / "inner" / "CLAUDE.md").exists()


# -- review CK (of the CJ fixes) --------------------------------------------------------


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("ar", "ar -v -x h.a"), ("ar", "ar -v h.a -x"), ("bsdcpio", "bsdcpio --e"),
        ("p7zip", "p7zip --uncompress h.7z"), ("lzop", "lzop -x h.lzo"),
        ("lzop", "lzop -dN h.lzo"), ("unshar", "unshar x.shar"),
    ],
)  # fmt: skip
def test_ck_extraction_spellings(workspace: Path, approval: str, line: str) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("dpkg-deb", "dpkg-deb -Zxz -b pkg out.deb"), ("ar", "ar rcs lib.a a.o"),
     ("lzop", "lzop -dc h.lzo")],  # (`lzop -d` restores an archive's names: review CL2)
)
def test_ck6_values_and_plain_uses_stay_approvable(
    workspace: Path, approval: str, line: str
) -> None:
    env = canary_environment(workspace)
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=env)
    assert not any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


def test_ck4_a_glob_through_a_link_then_up(workspace: Path) -> None:
    (workspace / "cfg2").mkdir()
    (workspace / "docs" / "lnk").symlink_to("../cfg2")
    line = "cp cfg/tasks.json . && cp docs/lnk/../t* .vscode/"
    env = canary_environment(workspace)
    decision = approved("cp").evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    subprocess.run(["bash", "-c", line], cwd=workspace, env=env, check=True)
    assert "PWNED" in (workspace / ".vscode" / "tasks.json").read_text()


def test_an_index_that_cannot_be_read_hides_no_link(tmp_path: Path) -> None:
    # the links a repository tracks come from its index: one that cannot be parsed may
    # hide a `.vscode -> docs` link, so a write in the workspace asks (fail closed)
    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / "a.txt").write_text("a\n")
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    readable = approved("cp").evaluate("cp a.txt docs/", workspace=str(workspace), env=env)
    assert readable.verdict is Verdict.ALLOW, readable.explain()
    (workspace / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x09garbage")
    decision = approved("cp").evaluate("cp a.txt docs/", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.unknown-links" for r in decision.reasons)
