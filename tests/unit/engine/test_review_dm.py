"""Review DM: a file an approved compiler includes as code is read for its own includes
whatever its name (`#include "data.txt"`, `.include "asm.txt"`, `include!("r.txt")`), and
a global git value that is a path with a blank is read as the shell reads it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, default_verdict, env_beside, run_printed, scan_judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("approval", "line", "source", "included"),
    [("cpp", "cpp m8.c", '#include "data.txt"\n', "data.txt"),
     ("gcc", "gcc -E m8.c", '#include "settings"\n', "settings"),
     ("cpp", "cpp -Iinc m8.c", "#include <conf>\n", "inc/conf")],
)  # fmt: skip
def test_dm1_a_file_included_as_code_whatever_its_name(
    tmp_path: Path, approval: str, line: str, source: str, included: str
) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "inc").mkdir()
    (workspace / "m8.c").write_text(source)
    (workspace / included).write_text(f'#include "{secret}"\n')
    assert "AKIASECRET" in run_printed(line, workspace, env_beside(tmp_path))  # real cpp
    assert scan_judge(line, workspace, approval).verdict is not Verdict.ALLOW


def test_dm1_assembler_and_rust_includes(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "a.s").write_text('.include "asm.txt"\n')
    (workspace / "asm.txt").write_text(f'.incbin "{secret}"\n')
    (workspace / "r.rs").write_text('include!("r.txt");\nfn main() {}\n')
    (workspace / "r.txt").write_text(f'const K: &str = include_str!("{secret}");\n')
    assert scan_judge("as a.s", workspace, "as").verdict is not Verdict.ALLOW
    assert scan_judge("rustc r.rs", workspace, "rustc").verdict is not Verdict.ALLOW


def test_dm1_data_includes_are_checked_not_read(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "r.rs").write_text('const T: &str = include_str!("t.txt");\nfn main() {}\n')
    (workspace / "t.txt").write_text('#include "/nonexistent/x"\n')  # (text, not code)
    assert scan_judge("rustc r.rs", workspace, "rustc").verdict is Verdict.ALLOW


def test_dm2_a_global_editor_whose_path_has_a_blank(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b",
                     GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b")  # fmt: skip
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)
    editor = "'/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code' --wait"
    (tmp_path / "home" / ".gitconfig").write_text(f"[core]\n\teditor = {editor}\n")
    assert default_verdict("git status", workspace, env) is Verdict.ALLOW
