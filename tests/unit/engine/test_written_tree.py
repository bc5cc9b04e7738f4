"""A recursive write of an existing folder reaches every file in it, the protected ones no
word names among them: under an approval of `rm`, `rm -rf sub` removed
`sub/.claude/settings.json` where `rm -rf sub/.claude` is denied (noted open by the
twelfth and thirteenth sessions). Such a write now asks (`engine.written-tree`); folders
of installed packages are not walked, so `rm -rf node_modules` stays approvable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import bash_ran, copy_workspace, judge

from policylang import Verdict
from policylang.engine import checks


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Protected files below ordinary folders, and package folders holding files named
    like protected ones (a test key, a packaged CLAUDE.md, certifi's bundle)."""
    ws = copy_workspace(tmp_path)
    files = {
        "sub/.claude/settings.json": "{}\n",
        "nested/.git/config": "[core]\n",
        "certs/server.pem": "KEY\n",
        "docs/deep/er/CLAUDE.md": "Never push.\n",
        "build/a.o": "o\n",
        "node_modules/pkg/test/key.pem": "fixture\n",
        "node_modules/pkg/CLAUDE.md": "packaged\n",
        ".venv/lib/python3.11/site-packages/certifi/cacert.pem": "bundle\n",
        ".venv/bin/python": "#!\n",
        "frontend/src/app.js": "x\n",
        "frontend/node_modules/dep/.env.example": "A=1\n",
    }
    for name, text in files.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text)
    return ws


@pytest.mark.parametrize(
    ("approval", "line", "reached"),
    [
        ("rm", "rm -rf sub", "sub/.claude"),
        ("rm", "rm -r nested", "nested/.git"),
        ("rm", "rm -rf certs", "certs/server.pem"),
        ("rm", "rm -rf docs", "docs/deep/er/CLAUDE.md"),
        ("rm", "rm --recursive --force ./docs/deep/", "docs/deep/er/CLAUDE.md"),
        ("rm", "cd docs && rm -rf deep", "docs/deep/er/CLAUDE.md"),
        ("chmod", "chmod -R 777 certs", "certs/server.pem"),
        ("chown", "chown -R nobody sub", "sub/.claude"),
        ("mv", "mv sub /tmp/elsewhere", "sub/.claude"),
        ("mv", "mv -t /tmp certs", "certs/server.pem"),
    ],
)
def test_a_recursive_write_reaching_a_protected_file_asks_under_its_approval(
    workspace: Path, approval: str, line: str, reached: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    found = [r.message for r in decision.reasons if r.rule_id == "engine.written-tree"]
    assert found, [r.message for r in decision.reasons]
    assert reached in found[0]


def test_the_reached_files_are_really_touched(workspace: Path) -> None:
    bash_ran("rm -rf sub docs && chmod -R 777 certs", workspace)
    assert not (workspace / "sub" / ".claude" / "settings.json").exists()
    assert not (workspace / "docs" / "deep" / "er" / "CLAUDE.md").exists()
    assert (workspace / "certs" / "server.pem").stat().st_mode & 0o777 == 0o777


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("rm", "rm -rf node_modules"),  # a test key and a packaged CLAUDE.md
        ("rm", "rm -rf frontend/node_modules"),
        ("rm", "rm -rf .venv"),  # certifi's cacert.pem
        ("rm", "rm -rf frontend"),  # walked, but not its node_modules
        ("rm", "rm -rf build"),
        ("rm", "rm -rf not-there"),
        ("mv", "mv build /tmp/old-build"),
        ("cp", "cp -r build sub"),  # copied into, not through: judged where it lands
    ],
)
def test_package_folders_and_plain_trees_stay_approvable(
    workspace: Path, approval: str, line: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_a_protected_folder_moved_into_a_package_folder_is_judged_where_it_lands(
    workspace: Path,
) -> None:
    """The walk's premise: nothing protected gets into a package folder unjudged."""
    (workspace / "x" / "node_modules").mkdir(parents=True)
    decision = judge("mv sub x/node_modules/", workspace, "mv")
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_a_tree_too_large_to_walk_asks(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "TREE_BUDGET", 5)
    (workspace / "data").mkdir()
    for n in range(10):
        (workspace / "data" / f"{n}.csv").write_text("o\n")
    decision = judge("rm -rf data", workspace, "rm")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.tree-budget" for r in decision.reasons)


def test_a_link_to_a_folder_is_walked_where_it_leads(workspace: Path) -> None:
    """`rm -rf link/` goes through the link; walking its target errs toward asking."""
    os.symlink("sub", workspace / "lnk")
    assert judge("rm -rf lnk/", workspace, "rm").verdict is Verdict.ASK
    assert judge("chmod -R u+w lnk", workspace, "chmod").verdict is Verdict.ASK


def test_removing_a_link_removes_only_the_link(workspace: Path) -> None:
    """Review CY11: `rm -rf lnk` (no slash) removes the link, not what it leads to."""
    os.symlink("sub", workspace / "lnk")
    assert judge("rm -rf lnk", workspace, "rm").verdict is Verdict.ALLOW
    bash_ran("rm -rf lnk", workspace)
    assert (workspace / "sub" / ".claude" / "settings.json").exists()


@pytest.mark.parametrize("folder", ["target", "build", "dist", ".next", "__pycache__"])
def test_build_output_is_not_walked(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """Review CY10: a build folder past the walk's budget asked on every removal."""
    monkeypatch.setattr(checks, "TREE_BUDGET", 5)
    (workspace / folder / "deep").mkdir(parents=True, exist_ok=True)
    for n in range(10):
        (workspace / folder / "deep" / f"{n}.o").write_text("o\n")
    assert judge(f"rm -rf {folder}", workspace, "rm").verdict is Verdict.ALLOW
    assert judge(f"rm -rf {folder}/deep", workspace, "rm").verdict is Verdict.ALLOW
