"""git's global ignore file (`~/.config/git/ignore`, `$XDG_CONFIG_HOME/git/ignore`) counts
for `git clean` and `git add`, where git reads it: Claude Code lists
`.claude/settings.local.json` there, and `git clean -fd` asked in every such project.
Where git may read another file, or none, it does not count (a question, not a removal).
Each case is compared with what real git does."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import approved, bash_ran, canary_environment, copy_workspace, git_ok, judge, run_real

from policylang import Decision, Verdict


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository with an untracked `CLAUDE.md` and `.claude/settings.local.json`, and a
    global ignore file in the fake home that lists both."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "README").write_text("r\n")
    git_ok(workspace, "add", "README")
    git_ok(workspace, "commit", "-qm", "r")
    (workspace / "CLAUDE.md").write_text("Never run rm.\n")
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.local.json").write_text("{}\n")
    ignore = tmp_path / "home" / ".config" / "git" / "ignore"
    ignore.parent.mkdir(parents=True)
    ignore.write_text("CLAUDE.md\n.claude/settings.local.json\n")
    return workspace


def _home(workspace: Path) -> Path:
    return workspace.parent / "home"


def _removed_by_git(workspace: Path, **env: str) -> set[str]:
    """What real `git clean -fdn` says it would remove, in the review tests' environment
    with `env` added."""
    done = subprocess.run(
        ["git", "clean", "-fdn"], cwd=workspace, env=canary_environment(workspace, **env),
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return {line.removeprefix("Would remove ") for line in done.stdout.splitlines()}


def _cleaning(workspace: Path, **env: str) -> Decision:
    """The decision on `git clean -fd` under an approval of `git clean`, in the review
    tests' environment with `env` added."""
    environment = canary_environment(workspace, **env)
    return approved("git clean").evaluate(
        "git clean -fd", workspace=str(workspace), env=environment
    )


def test_what_the_global_ignore_file_lists_is_kept(repository: Path) -> None:
    assert _removed_by_git(repository) == {"cfg/", "x/"}
    assert _cleaning(repository).verdict is Verdict.ALLOW
    bash_ran("git clean -fd", repository)
    assert (repository / "CLAUDE.md").exists()
    assert (repository / ".claude" / "settings.local.json").exists()


def test_the_repository_s_negation_wins_over_it(repository: Path) -> None:
    (repository / ".gitignore").write_text("!CLAUDE.md\n")
    assert "CLAUDE.md" in _removed_by_git(repository)
    decision = _cleaning(repository)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any("CLAUDE.md" in reason.message for reason in decision.reasons)


@pytest.mark.parametrize(
    "setting",
    [
        "[core]\n\texcludesFile = ~/other-ignore\n",  # another file
        "[core]\n\texcludesfile =\n",  # none at all
        "[include]\n\tpath = ~/more.inc\n",  # set in an included file
    ],
)
def test_a_configured_excludes_file_is_not_taken_for_it(repository: Path, setting: str) -> None:
    home = _home(repository)
    (home / ".gitconfig").write_text(setting)
    (home / "other-ignore").write_text("")
    (home / "more.inc").write_text("[core]\n\texcludesFile = ~/other-ignore\n")
    assert "CLAUDE.md" in _removed_by_git(repository)
    assert _cleaning(repository).verdict is Verdict.ASK


def test_an_excludes_file_set_in_git_s_environment_is_not_taken_for_it(
    repository: Path,
) -> None:
    given = {"GIT_CONFIG_PARAMETERS": "'core.excludesfile'='/dev/null'"}
    assert "CLAUDE.md" in _removed_by_git(repository, **given)
    decision = _cleaning(repository, **given)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_another_xdg_config_home_reads_its_own(repository: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "xdg"
    (elsewhere / "git").mkdir(parents=True)
    given = {"XDG_CONFIG_HOME": str(elsewhere)}
    assert "CLAUDE.md" in _removed_by_git(repository, **given)
    assert _cleaning(repository, **given).verdict is Verdict.ASK
    (elsewhere / "git" / "ignore").write_text("CLAUDE.md\n.claude/\n")
    assert "CLAUDE.md" not in _removed_by_git(repository, **given)
    assert _cleaning(repository, **given).verdict is Verdict.ALLOW


def test_git_add_does_not_stage_what_it_lists(repository: Path) -> None:
    (repository / ".env").write_text("TOKEN=SECRET\n")
    decision = judge("git add -A", repository, "git add")
    assert decision.verdict is Verdict.ASK, decision.explain()  # `.env` is not listed
    (_home(repository) / ".config" / "git" / "ignore").write_text(".env\nCLAUDE.md\n.claude/\n")
    assert judge("git add -A", repository, "git add").verdict is Verdict.ALLOW
    bash_ran("git add -A", repository)
    staged = run_real(["git", "diff", "--cached", "--name-only"], repository).stdout
    assert ".env" not in staged.split()
