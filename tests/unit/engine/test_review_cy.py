"""Review CY: bypasses of the session's own fixes.

CY1 a link chain past PATH_MAX that climbs back with `..`; CY2 `TYPE://PATH`; CY4, CY5
`python3 -m TOOL` spellings and verbs; CY6 a local `git clone` hard-links the objects;
CY7 `meson compile --n`; CY8 includes in the sources an approved compiler reads; CY9
remote `HOST:PATH` operands are no local paths."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, git_ok, scan_judge

from policylang import Verdict
from policylang.engine import paths


def test_cy1_a_link_chain_past_path_max_and_back(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    # a folder whose absolute path is 2 bytes short of PATH_MAX, made one step at a time:
    # its link `s` is past the limit, the kernel follows it all the same
    names: list[str] = []
    folder = os.open(workspace, os.O_RDONLY)
    length = len(str(workspace))
    while paths.PATH_MAX - 3 - length > 0:
        name = "c" * min(250, paths.PATH_MAX - 3 - length)
        os.mkdir(name, dir_fd=folder)
        inner = os.open(name, os.O_RDONLY, dir_fd=folder)
        os.close(folder)
        folder = inner
        names.append(name)
        length += 1 + len(name)
    os.symlink("/", "s", dir_fd=folder)
    os.close(folder)
    depth = len(names)
    deep = "/".join(names)
    os.symlink(deep, workspace / "a")
    # `a/s` is `/`: the rest climbs out of it and down to the credentials
    up = "/".join([".."] * (depth + 5))
    os.symlink(f"a/s/{up}{home}/.aws/credentials", workspace / "C")
    done = subprocess.run(["cat", "C"], cwd=workspace, capture_output=True, text=True)
    assert "AKIASECRET" in done.stdout
    decision = scan_judge("cat C", workspace)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["pytest --cov=. --cov-report=lcov:/{home}/.bashrc",
     "pytest --cov-report=xml://{home}/.bashrc", "pytest --cov-report=json:///{home}/.zshrc"],
)  # fmt: skip
def test_cy2_a_typed_path_after_two_slashes(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    home = str(tmp_path / "home").lstrip("/")
    decision = scan_judge(line.format(home=home), workspace, "pytest")
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("asked", "offered"),
    [
        ("python3 -m coverage report", "python3 -m coverage report"),
        ("python3 -m twine check dist/x.whl", "python3 -m twine check"),
        ("python3 -m mkdocs build", "python3 -m mkdocs build"),
        ("python3 -m uv.__main__ sync", "python3 -m uv.__main__ sync"),
        ("python3.13t -m uv sync", "python3.13t -m uv sync"),
        ("python3 -m uv.cli sync", None),
        ("python3 -m pytest tests", "python3 -m pytest"),
    ],
)
def test_cy4_cy5_a_tools_module_by_any_spelling(
    tmp_path: Path, asked: str, offered: str | None
) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(asked, workspace).suggested_rule == offered


def test_cy5_the_old_offer_of_a_main_module_does_not_reach_other_verbs(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "python3 -m uv.__main__ tool run evil"
    assert scan_judge(line, workspace, "python3 -m uv.__main__").verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        # (an ask: a second name is no write, review CZ5)
        ("git clone --bare . c.git", Verdict.ASK),
        ("git clone . copy", Verdict.ASK),
        ("git -C . clone --mirror . m.git", Verdict.ASK),
        ("git clone --no-hardlinks . copy", Verdict.ALLOW),
        ("git clone https://github.com/a/b", Verdict.ALLOW),
        ("git clone git@github.com:a/b.git", Verdict.ALLOW),
    ],
)
def test_cy6_a_local_clone_hard_links_the_objects(
    tmp_path: Path, line: str, verdict: Verdict
) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    decision = scan_judge(line, workspace, "git clone")
    assert decision.verdict is verdict, decision.explain()


def test_cy6_the_objects_really_share_their_inodes(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "CLAUDE.md").write_text("Be careful.\n")
    git_ok(workspace, "add", "CLAUDE.md")
    git_ok(workspace, "clone", "-q", "--bare", ".", "c.git")
    objects = [p for p in (workspace / "c.git" / "objects").rglob("*") if p.is_file()]
    assert any(p.stat().st_nlink > 1 for p in objects)


def test_cy7_meson_takes_any_unique_prefix(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "meson compile -C b --n=-f,x.ninja"
    assert scan_judge(line, workspace, "meson compile").verdict is Verdict.ASK


def test_cy8_an_approved_compilers_sources_include_a_secret(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("aws_secret_access_key=AKIASECRET\n")
    (workspace / "x.c").write_text(f'#include "{home}/.aws/credentials"\n')
    (workspace / "m.c").write_text('#include "y.h"\nint main(void) { return 0; }\n')
    (workspace / "y.h").write_text('#include "../home/.aws/credentials"\n')
    (workspace / "ok.c").write_text("#include <stdio.h>\nint main(void) { return 0; }\n")
    assert scan_judge("cpp x.c", workspace, "cpp").verdict is Verdict.DENY
    assert scan_judge("gcc -E m.c", workspace, "gcc").verdict is Verdict.DENY
    assert scan_judge("gcc -c ok.c -o ok.o", workspace, "gcc").verdict is Verdict.ALLOW
    done = subprocess.run(["cpp", "m.c"], cwd=workspace, capture_output=True, text=True)
    assert "AKIASECRET" in done.stdout


@pytest.mark.parametrize(
    ("approval", "line"),
    [("scp", "scp host:/etc/hosts ."), ("docker cp", "docker cp ctr:/etc/hosts ./hosts")],
)
def test_cy9_a_remote_path_is_no_local_path(tmp_path: Path, approval: str, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, approval).verdict is not Verdict.DENY


@pytest.mark.parametrize(
    ("approval", "line"),
    [("smbget", "smbget smb://server/share/file"), ("apptainer pull", "apptainer pull x.sif "
     "library://user/c/img:tag"), ("virsh connect", "virsh connect qemu:///system")],
)  # fmt: skip
def test_cy2_a_url_of_a_scheme_no_table_knows_stays_approved(
    tmp_path: Path, approval: str, line: str
) -> None:
    """What follows `TYPE://` is checked against the protect rules only: a URL's host
    and path are no place outside the workspace to ask about."""
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace).suggested_rule == approval
    assert scan_judge(line, workspace, approval).verdict is Verdict.ALLOW
