"""Review CM (of review CL's fixes): links inside a protected folder that is itself a
link (CM1) and deeper in a shipped `.git` (CM2); GNU ar's MRI scripts (CM3); `gar`,
`gcpio`, `llvm-ar-mp-14` (CM4); wrappers the tables missed, offered with the program
they run (CM5); archivers' options that run programs or read lists (CM6, CM7); a listing
word that is an option's value (CM8); a glob copy after an approved program no rule
describes (CM9). Real runs with bash where the programs are here."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import approved, bash_ran, canary_environment, copy_workspace, judge

from policylang import Verdict


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copy_workspace(tmp_path)


def test_cm1_links_inside_a_linked_protected_folder(workspace: Path) -> None:
    (workspace / "cfgdir").mkdir()
    (workspace / ".claude").symlink_to("cfgdir")
    (workspace / "cfgdir" / "settings.json").symlink_to("../x/s.json")
    line = "cp cfg/tasks.json x/s.json"
    decision = judge(line, workspace, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    bash_ran(line, workspace)
    assert "PWNED" in (workspace / ".claude" / "settings.json").read_text()
    assert judge("cp cfg/tasks.json x/other.json", workspace, "cp").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("link", "target"),
    [(".git/modules/sub/config", "../../../x/c"),
     (".git/modules/sub/hooks/pre-commit", "../../../../x/c"),
     (".git/info/attributes", "../../x/c")],
)
def test_cm2_links_deeper_in_a_shipped_git_folder(
    workspace: Path, link: str, target: str
) -> None:
    (workspace / link).parent.mkdir(parents=True)
    (workspace / link).symlink_to(target)
    line = "cp cfg/tasks.json x/c"
    decision = judge(line, workspace, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    bash_ran(line, workspace)
    assert "PWNED" in (workspace / link).read_text()


def test_cm2_a_protected_folder_deeper_than_looked_asks(workspace: Path) -> None:
    deep = workspace / ".claude" / "a" / "b" / "c" / "d" / "e" / "f"
    deep.mkdir(parents=True)
    (deep / "s.md").symlink_to("../../../../../../../x/deep")
    decision = judge("cp cfg/tasks.json x/deep", workspace, "cp")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.unknown-links" for r in decision.reasons)


@pytest.fixture
def archive(workspace: Path) -> Path:
    payload = workspace.parent / "payload"
    payload.mkdir()
    (payload / "CLAUDE.md").write_text("PWNED\n")
    subprocess.run(["ar", "rc", str(workspace / "h.a"), "CLAUDE.md"], cwd=payload, check=True)
    return workspace


def test_cm3_ar_s_mri_script_extracts(archive: Path) -> None:
    (archive / "s.mri").write_text("OPEN h.a\nEXTRACT CLAUDE.md\nEND\n")
    line = "ar -M < s.mri"
    decision = judge(line, archive, "ar")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)
    bash_ran(line, archive)
    assert (archive / "CLAUDE.md").read_text() == "PWNED\n"


@pytest.mark.parametrize(
    ("name", "line"), [("gar", "gar x h.a"), ("llvm-ar-mp-14", "llvm-ar-mp-14 x h.a")]
)
def test_cm4_other_install_names_of_ar(archive: Path, name: str, line: str) -> None:
    bin_folder = archive.parent / "bin"
    bin_folder.mkdir()
    ar = shutil.which("ar")
    assert ar is not None
    (bin_folder / name).symlink_to(ar)  # (the name MacPorts or a port installs it under)
    decision = judge(line, archive, name)
    assert decision.verdict is Verdict.ASK, decision.explain()
    if name == "gar":  # (llvm-ar refuses a name it does not know; GNU ar takes any)
        env = canary_environment(archive, PATH=f"{bin_folder}:/usr/bin:/bin")
        bash_ran(line, archive, env)
        assert (archive / "CLAUDE.md").read_text() == "PWNED\n"


@pytest.mark.parametrize("line", ["gcpio -id < h.cpio", "gcpio -o < list"])
def test_cm4_gnu_cpio_by_its_port_name(workspace: Path, line: str) -> None:
    decision = judge(line, workspace, "gcpio")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("eatmydata ar", "eatmydata ar x h.a"), ("gosu root", "gosu root sh x.sh"),
     ("nocache sh", "nocache sh x.sh"), ("toybox", "toybox sh -c id"),
     ("mpirun", "mpirun -np 2 sh x.sh"), ("tsp", "tsp sh x.sh")],
)
def test_cm5_wrappers_the_tables_missed(workspace: Path, approval: str, line: str) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert judge(line, workspace).suggested_rule is None


@pytest.mark.parametrize(
    "line",
    ["acme-wrap sh x.sh", "acme-wrap python3 x.py", "acme-wrap root ar x h.a",
     "acme-wrap /bin/sh x.sh", "acme-wrap -p x ./sh x.sh"],
)
def test_cm5_an_unknown_program_given_a_program_is_not_offered(
    workspace: Path, line: str
) -> None:
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule is None


@pytest.mark.parametrize("line", ["acme-tool build", "acme-tool env", "acme-tool time now"])
def test_cm5_an_unknown_program_s_verbs_are_still_offered(workspace: Path, line: str) -> None:
    decision = judge(line, workspace)
    assert decision.suggested_rule is not None, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("jar", "jar -J-javaagent:a.jar -tf lib.jar"),
     ("jar tf", "jar tf lib.jar -J-javaagent:a.jar"),
     ("javadoc", "javadoc -J-javaagent:a.jar X.java"),
     ("keytool", "keytool -J-javaagent:a.jar -list"),
     ("gpgtar", "gpgtar --gpg ./x.sh -t h.tar"), ("dar", "dar -l h -E ./x.sh"),
     ("afio", "afio -t -D ./x.sh c.afio"), ("gem build", "gem build x.gemspec"),
     ("gpgtar", "gpgtar --create --files-from list --output o.tar"),
     ("paxtar cf", "paxtar cf o.tar -I list"), ("ptar", "ptar -c -T list")],
)  # fmt: skip
def test_cm6_cm7_options_that_run_programs_or_read_lists(
    workspace: Path, approval: str, line: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert judge(line, workspace).suggested_rule is None


@pytest.mark.parametrize(
    ("approval", "line"),
    [("munpack", "munpack -C -h m.eml"), ("unshar", "unshar -d --help x.shar"),
     ("innoextract", "innoextract -d -l x.exe"), ("unalz", "unalz -d -l x.alz"),
     ("msiextract", "msiextract -C -l x.msi"), ("cabextract", "cabextract -d -l x.cab")],
)
def test_cm8_a_listing_word_that_is_a_value(workspace: Path, approval: str, line: str) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.archive-extract" for r in decision.reasons)


def test_cm9_a_glob_copy_after_an_approved_unknown_program(workspace: Path) -> None:
    # `acme-copy` stands for `rclone copy`: approved, no rule describes what it writes
    bin_folder = workspace.parent / "bin"
    bin_folder.mkdir()
    (bin_folder / "acme-copy").write_text('#!/bin/sh\nmkdir -p "$2" && cp "$1" "$2"/\n')
    (bin_folder / "acme-copy").chmod(0o755)
    (workspace / ".vscode").mkdir()
    line = "acme-copy cfg/tasks.json docs/x && cp docs/x/t* .vscode/"
    env = canary_environment(workspace, PATH=f"{bin_folder}:/usr/bin:/bin")
    decision = approved("acme-copy", "cp").evaluate(line, workspace=str(workspace), env=env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert any(r.rule_id == "engine.glob-path" for r in decision.reasons)
    bash_ran(line, workspace, env)
    assert "PWNED" in (workspace / ".vscode" / "tasks.json").read_text()
    alone = approved("acme-copy", "cp").evaluate(
        "acme-copy cfg/tasks.json docs/y", workspace=str(workspace), env=env
    )
    assert alone.verdict is Verdict.ALLOW, alone.explain()
