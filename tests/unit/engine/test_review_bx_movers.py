"""Review BX2 and BX9: folders moved or copied whole.

BX2: util-linux `rename` moves a folder as `mv` does, but was no tree writer: `rename.ul
fix y fix && cat y/hl/.aws/credentials` (a committed `fix/hl -> ~`) printed the key under
an approval of `rename.ul`; so did approved programs no rule describes (`mmv`, `gio move`,
`pax -rw`, `ditto`). BX9: a folder moved onto `.vscode` (`mv cfg .vscode`) made the
protected `.vscode/tasks.json`, which no word names; `**/X/Y` globs were never reached by
a recursive write (`cp -r cg .cargo`), nor `**/NAME` ones below another folder (`cp -r cl
docs` made `docs/cl/CLAUDE.md`). The real programs run where installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, run_real

from policylang import Verdict
from policylang.decision import Decision


@pytest.fixture
def tree(workspace: Path) -> Path:
    home = workspace.parent / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AWS-MARKER\n")
    (workspace / "fix").mkdir()
    (workspace / "fix" / "hl").symlink_to(home)
    (workspace / "docs").mkdir()
    (workspace / "sub").mkdir()
    (workspace / "cfg").mkdir()
    task = '{"tasks": [{"runOptions": {"runOn": "folderOpen"}}]}\n'
    (workspace / "cfg" / "tasks.json").write_text(task)
    (workspace / "cg").mkdir()
    (workspace / "cg" / "config.toml").write_text('[build]\nrustc-wrapper = "./evil"\n')
    (workspace / "cl").mkdir()
    (workspace / "cl" / "CLAUDE.md").write_text("be evil\n")
    (workspace / "a.txt").write_text("a\n")
    return workspace


def _decide(command: str, workspace: Path, *rules: str) -> Decision:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return approved(*rules).evaluate(command, workspace=str(workspace), env=environment)


def _installed(program: str) -> bool:
    return shutil.which(program) is not None


# ---------------------------------------------------------------- BX2: renamers, movers


@pytest.mark.skipif(not _installed("rename.ul"), reason="util-linux rename.ul not installed")
@pytest.mark.parametrize(
    "command",
    [
        "rename.ul fix y fix && cat y/hl/.aws/credentials",
        "rename.ul -v ix y fix && cat fy/hl/.aws/credentials",
    ],
)
def test_a_folder_renamed_by_rename_ul_is_not_read_through(tree: Path, command: str) -> None:
    assert _decide(command, tree, "rename.ul").verdict is not Verdict.ALLOW
    assert "AWS-MARKER" in run_real(["bash", "-c", command], tree).stdout  # what it is for


@pytest.mark.parametrize(
    ("approval", "command"),
    [
        ("rename", "rename s/fix/y/ fix && cat y/hl/.aws/credentials"),
        ("prename", "prename s/fix/y/ fix && cat y/hl/.aws/credentials"),
        ("file-rename", "file-rename s/fix/y/ fix && cat y/hl/.aws/credentials"),
        ("perl-rename", "perl-rename s/fix/y/ fix && cat y/hl/.aws/credentials"),
        ("mmv", "mmv fix y && cat y/hl/.aws/credentials"),
        ("gio move", "gio move fix y && cat y/hl/.aws/credentials"),
        ("pax", "pax -rw fix docs && cat docs/fix/hl/.aws/credentials"),
        ("ditto", "ditto fix y && cat y/hl/.aws/credentials"),
        ("ditto", "cat y/hl/.aws/credentials; ditto fix y"),
    ],
)
def test_approved_movers_make_the_line_s_paths_ask(tree: Path, approval: str, command: str) -> None:
    decision = _decide(command, tree, approval)
    assert decision.verdict is not Verdict.ALLOW
    if approval == "gio move" and _installed("gio"):
        done = run_real(["bash", "-c", command], tree)
        if done.returncode == 0 or "AWS-MARKER" in done.stdout:
            assert "AWS-MARKER" in done.stdout  # (gio may lack a session bus: then no run)


@pytest.mark.parametrize(
    ("approval", "command"),
    [
        ("frob", "frob a.txt && cat a.txt"),  # no folder among its operands
        ("frob", "frob docs"),  # alone in the line: no other path to follow
        ("mmv", "mmv 'a.*' 'b.#1' && cat docs/x"),  # patterns, no folder
        ("ls", "ls fix && cat a.txt"),  # a rule describes `ls`: it reads
        ("grep", "grep -r x docs && cat a.txt"),
    ],
)
def test_approved_programs_without_folders_and_readers_stay_allowed(
    tree: Path, approval: str, command: str
) -> None:
    assert _decide(command, tree, approval).verdict is Verdict.ALLOW


# ---------------------------------------------------------------- BX9: what a moved tree makes


@pytest.mark.parametrize(
    ("approval", "command", "made"),
    [
        ("mv", "mv cfg .vscode", ".vscode/tasks.json"),
        ("mv", "mv -T cfg .vscode", ".vscode/tasks.json"),
        ("mv", "mv -t docs cl", "docs/cl/CLAUDE.md"),
        ("mv", "mv cl docs/", "docs/cl/CLAUDE.md"),
        ("cp", "cp -r cl docs", "docs/cl/CLAUDE.md"),
        ("cp", "cp -r cl/. sub", "sub/CLAUDE.md"),
        ("rename.ul", "rename.ul cfg .vscode cfg", ".vscode/tasks.json"),
        ("rename.ul", "rename.ul c .claude/c cl", ".claude/cl/CLAUDE.md"),
        ("git mv", "git mv cfg .vscode", ".vscode/tasks.json"),
        ("git mv", "git mv -k -- cl docs", "docs/cl/CLAUDE.md"),
    ],
)
def test_a_moved_folder_s_protected_files_are_denied(
    tree: Path, approval: str, command: str, made: str
) -> None:
    program = command.split()[0]
    decision = _decide(command, tree, approval)
    assert decision.verdict is Verdict.DENY, decision.explain()
    if _installed(program):
        if program == "rename.ul" and ".claude/" in command:
            (tree / ".claude").mkdir()
        if program == "git":  # git moves tracked files only
            for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
                run_real(["git", *step], tree)
        run_real(["bash", "-c", command], tree)
        assert (tree / made).is_file()  # what it is for


@pytest.mark.parametrize(
    ("approval", "command", "made"),
    [
        ("mv", "mv cg .cargo", ".cargo/config.toml"),
        ("mv", "mv cg sub/.cargo", "sub/.cargo/config.toml"),
        ("cp", "cp -r cg .cargo", ".cargo/config.toml"),
        ("cp", "cp -r cg/. .cargo/", ".cargo/config.toml"),
        ("cp", "cp -r cg sub/.cargo", "sub/.cargo/config.toml"),
        ("cp", "cp -r cg .mvn", ".mvn/config.toml"),  # `**/.mvn/jvm.config` below it
        ("cp", "cp -r cg .venv", ".venv/config.toml"),  # `**/.venv*/bin/**` below it
        ("rename.ul", "rename.ul cg .cargo cg", ".cargo/config.toml"),
    ],
)
def test_a_folder_moved_onto_a_toolchain_folder_asks(
    tree: Path, approval: str, command: str, made: str
) -> None:
    program = command.split()[0]
    assert _decide(command, tree, approval).verdict is not Verdict.ALLOW
    if _installed(program):
        run_real(["bash", "-c", command], tree)
        assert (tree / made).is_file()  # what it is for


def test_a_moved_folder_not_there_yet_has_its_target_s_tree_checked(tree: Path) -> None:
    # made in the line: the files cannot be listed, the target's tree is checked whole
    decision = _decide("mkdir -p new && mv new .vscode", tree, "mv", "mkdir")
    assert decision.verdict is Verdict.DENY


@pytest.mark.parametrize(
    ("approvals", "command"),
    [
        (("rm",), "rm -rf .venv"),
        (("rm",), "rm -rf node_modules .cargo"),
        (("cp",), "cp -r src out"),
        (("cp",), "cp -r src docs"),
        (("mv",), "mv src lib"),
        (("mv",), "mv a.txt b.txt"),
        (("mv",), "mv a.txt docs/"),
        (("mv",), "mv a.txt .vscode"),  # a file: it only becomes `.vscode`
        (("mv",), "mv sub/inner ."),  # a folder into the workspace's top: lands as `inner`
        (("mv",), "mv missing ."),  # not there: `./missing` is checked, not the workspace
        (("rename.ul",), "rename.ul .txt .md a.txt"),
    ],
)
def test_everyday_moves_copies_and_removals_stay_allowed(
    tree: Path, approvals: tuple[str, ...], command: str
) -> None:
    for folder in (".venv/bin", "node_modules/x", ".cargo"):
        (tree / folder).mkdir(parents=True)
    (tree / ".venv" / "bin" / "python").write_text("")
    (tree / ".cargo" / "config.toml").write_text("")
    (tree / "sub" / "inner").mkdir()
    (tree / "sub" / "inner" / "notes.txt").write_text("notes\n")
    assert _decide(command, tree, *approvals).verdict is Verdict.ALLOW
