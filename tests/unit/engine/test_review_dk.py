"""Review DK: the DJ fixes and the session's environment checks as a whole.

DK1 the include scan reads the file the compiler opens (`lnk/../h.h` through the link);
DK2 `PERL5OPT=-Mblib`, `-Mif=…`; DK3 pip's shell start of a Python program; DK4 the
environment's files are looked at without a PATH; DK5 a global git setting that hands a
work-tree script to a program (`sh .githooks/fsm`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, default_verdict, env_beside, run_printed, scan_judge

from policylang import Verdict, load_policy


def test_dk1_a_header_reached_through_a_link_and_dot_dot(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "vend" / "deep").mkdir(parents=True)
    (workspace / "vend" / "h.h").write_text(f'#include "{secret}"\n')
    (workspace / "src").mkdir()
    (workspace / "src" / "h.h").write_text("/* the file the text names */\n")
    (workspace / "src" / "lnk").symlink_to("../vend/deep")
    (workspace / "src" / "rel.c").write_text('#include "lnk/../h.h"\n')
    assert "AKIASECRET" in run_printed("cpp src/rel.c", workspace, env_beside(tmp_path))
    for line in ("cpp src/rel.c", "gcc -E src/rel.c"):
        assert scan_judge(line, workspace, line.split()[0]).verdict is not Verdict.ALLOW, line


@pytest.mark.parametrize("options", ["-Mblib", "-Mif=1,lib,lib", "-mblib"])
def test_dk2_perl5opt_modules_that_add_folders(tmp_path: Path, options: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "blib" / "lib" / "Digest").mkdir(parents=True)
    (workspace / "blib" / "lib" / "Digest" / "SHA.pm").write_text("package Digest::SHA; 1;\n")
    policy = load_policy()
    policy.approvals.add("shasum", persist=False)
    env = env_beside(tmp_path, PERL5OPT=options)
    decision = policy.evaluate("shasum x.txt", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_dk3_a_python_program_started_through_the_shell(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    tool = tmp_path / "sp bin" / "xq"
    tool.parent.mkdir()
    tool.write_text(
        "#!/bin/sh\n'''exec' \"/usr/bin/python3\" \"$0\" \"$@\"\n' '''\nimport yq\n"
    )
    tool.chmod(0o755)
    (workspace / "src" / "yq").mkdir(parents=True)
    (workspace / "src" / "yq" / "__init__.py").write_text("")
    env = env_beside(tmp_path, PATH=f"{tool.parent}:/usr/bin:/bin", PYTHONPATH="src")
    assert default_verdict("xq . x.xml", workspace, env) is Verdict.ASK
    assert default_verdict("xq . x.xml", workspace, {**env, "PYTHONPATH": "/opt"}) is (
        Verdict.ALLOW
    )


@pytest.mark.parametrize("path", [None, ""])
def test_dk4_the_environments_files_without_a_path(tmp_path: Path, path: str | None) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / ".rgrc").write_text("--pre=./x\n")
    (workspace / "lk").write_text("#env\nLESSOPEN=|id %s\n")
    env = {"HOME": str(tmp_path / "home")}
    if path is not None:
        env["PATH"] = path
    rg = {**env, "RIPGREP_CONFIG_PATH": str(workspace / ".rgrc")}
    assert default_verdict("rg TODO", workspace, rg) is Verdict.ASK
    less = {**env, "LESSKEYIN": str(workspace / "lk")}
    assert default_verdict("less x.txt", workspace, less) is Verdict.ASK


def test_dk5_a_global_setting_that_hands_a_work_tree_script_to_a_program(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b",
                     GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b")  # fmt: skip
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)
    home = tmp_path / "home"
    (home / ".gitconfig").write_text("[core]\n\tfsmonitor = sh .githooks/fsm\n")
    assert default_verdict("git status", workspace, env) is Verdict.ASK
    (home / ".gitconfig").write_text("[core]\n\tpager = less -R\n")
    assert default_verdict("git status", workspace, env) is Verdict.ALLOW
