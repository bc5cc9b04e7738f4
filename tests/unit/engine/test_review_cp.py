"""Findings of the twelfth session's own review of the approval oracle's open list:
`git clean` removes untracked protected files no word names (oracle run 2, H7). Real
runs with git and bash."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import bash_ran, copy_workspace, git_ok, judge

from policylang import Verdict
from policylang.engine.gitstage import StagePlan, clean_plan


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository with a commit, untracked agent configuration at its top and deeper,
    and an untracked build folder."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "README").write_text("r\n")
    (workspace / ".gitignore").write_text(".env\n")
    git_ok(workspace, "add", "README", ".gitignore")
    git_ok(workspace, "commit", "-qm", "r")
    (workspace / "CLAUDE.md").write_text("Never run rm.\n")
    (workspace / "src" / "sub" / ".claude").mkdir(parents=True)
    (workspace / "src" / "sub" / ".claude" / "settings.json").write_text("{}\n")
    (workspace / "build").mkdir()
    (workspace / "build" / "a.o").write_text("o\n")
    (workspace / "build" / ".env").write_text("KEY=1\n")  # ignored: git clean keeps it
    return workspace


@pytest.mark.parametrize(
    "line",
    [
        "git clean -fd",
        "git clean -f",
        "git clean -fd src",  # `src/sub/.claude/settings.json`, deeper down
        "git clean -fd -n --no-dry-run",  # the last one wins
        "git clean -f 'C*'",  # a pathspec glob
        "git clean -f :/build",  # pathspec magic: read as the whole top
        "cd src && git clean -fd",
    ],
)
def test_an_approval_of_git_clean_does_not_remove_untracked_protected_files(
    repository: Path, line: str
) -> None:
    decision = judge(line, repository, "git clean")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(reason.rule_id == "engine.git-clean" for reason in decision.reasons)


def test_git_clean_really_removes_them(repository: Path) -> None:
    """What the asks are for: git removes the untracked agent configuration."""
    bash_ran("git clean -fd", repository)
    assert not (repository / "CLAUDE.md").exists()
    assert not (repository / "src" / "sub" / ".claude").exists()
    assert (repository / "README").exists()


@pytest.mark.parametrize(
    "line",
    ["git clean -fd build", "git clean -f -- build", "git clean -n", "git clean -fdn",
     "git clean -fd --dry-run", "git -C build clean -f"],
)  # fmt: skip
def test_git_clean_of_a_folder_without_them_stays_approvable(repository: Path, line: str) -> None:
    decision = judge(line, repository, "git clean")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_tracked_and_ignored_protected_files_are_kept(repository: Path) -> None:
    """git keeps what it tracks and, without `-x`, what it ignores: no question then."""
    git_ok(repository, "add", "CLAUDE.md", "src")
    git_ok(repository, "commit", "-qm", "c")
    (repository / ".env").write_text("KEY=1\n")
    assert judge("git clean -fd", repository, "git clean").verdict is Verdict.ALLOW
    bash_ran("git clean -fd", repository)
    assert (repository / "CLAUDE.md").exists()
    assert (repository / ".env").exists()
    assert not (repository / "build" / "a.o").exists()


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], ["/ws/sub"]),
        (["-fd"], ["/ws/sub"]),
        (["-n"], None),
        (["-fdn"], None),
        (["--dry-run", "-f"], None),
        (["--dry", "-f"], ["/ws/sub"]),  # an abbreviation git may read otherwise
        (["-n", "--no-dry-run"], ["/ws/sub"]),
        (["--no-dry-run", "-n"], None),
        (["-e", "--dry-run"], ["/ws/sub"]),
        (["-en"], ["/ws/sub"]),
        (["-fen"], ["/ws/sub"]),
        (["--exclude", "-n"], ["/ws/sub"]),
        (["--exclude=-n"], ["/ws/sub"]),
        (["-f", "build", "../docs"], ["/ws/sub/build", "/ws/docs"]),
        (["-f", "--", "-n"], ["/ws/sub/-n"]),
        (["-f", "b*"], ["/ws"]),
        (["-f", None], ["/ws"]),
        (["-f", ":(top)x"], ["/ws"]),
        (["--pathspec-from-file", "list"], ["/ws"]),
        (["--pathspec-from-file=list", "docs"], ["/ws"]),
    ],
)
def test_clean_plan(words: list[str | None], expected: list[str] | None) -> None:
    plan = clean_plan(words, "/ws/sub", "/ws")
    assert (None if plan is None else list(plan.roots)) == expected


def test_clean_plan_counts_ignored_files_under_x() -> None:
    assert clean_plan(["-fdx"], "/ws", "/ws") == StagePlan(roots=("/ws",), force=True)
    assert clean_plan(["-fX"], "/ws", "/ws") == StagePlan(roots=("/ws",), force=True)
    assert clean_plan(["-fd"], "/ws", "/ws") == StagePlan(roots=("/ws",), force=False)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("docker cp . c:/x", Verdict.DENY),  # the workspace's `.env` goes into the container
        ("docker cp keys c:/x", Verdict.DENY),  # `keys/server.pem`
        ("podman cp -a keys c:/x", Verdict.DENY),
        ("docker container cp . c:/x", Verdict.DENY),
        ("docker cp c:/x/. .", Verdict.DENY),  # a folder's contents land here whole
        ("docker cp c:/ .", Verdict.DENY),
        ("docker cp c:.mcp.json .", Verdict.DENY),  # lands as `./.mcp.json`
        ("docker cp c:/x .vscode", Verdict.DENY),  # a new `.vscode` is the copied folder
        ("docker cp c:/x .", Verdict.ALLOW),  # lands as `./x`
        ("docker cp c:/app/out.txt ./", Verdict.ALLOW),
        ("docker cp c:/x .claude", Verdict.DENY),
        ("docker cp c:/app/log.txt log.txt", Verdict.ALLOW),
        ("docker cp dist c:/app", Verdict.ALLOW),
        ("docker cp c:/app/dist ./dist", Verdict.ALLOW),
    ],
)
def test_docker_cp_copies_folders_whole(tmp_path: Path, line: str, expected: Verdict) -> None:
    """The approval oracle, run 2: under an approval of `docker cp`, the host's side is a
    path like scp's (judged only: no container runtime here)."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("KEY=1\n")
    (workspace / "keys").mkdir()
    (workspace / "keys" / "server.pem").write_text("PEM\n")
    (workspace / "dist").mkdir()
    (workspace / "dist" / "app.js").write_text("1\n")
    approvals = ("docker cp", "podman cp", "docker container cp")
    decision = judge(line, workspace, *approvals)
    assert decision.verdict is expected, decision.explain()


def test_npm_explore_is_never_approvable(tmp_path: Path) -> None:
    """`npm explore PKG -- CMD` runs CMD (the approval oracle, run 2: H11)."""
    workspace = copy_workspace(tmp_path)
    assert judge("npm explore lodash", workspace).suggested_rule is None
    decision = judge("npm explore lodash -- ./probe", workspace, "npm explore", "npm")
    assert decision.verdict is Verdict.ASK, decision.explain()
