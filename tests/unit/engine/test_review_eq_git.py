"""Review EQ, the git findings (EQ1, EQ2, EQ6–EQ10): matchers that decide what git sees.
Each premise is shown with the real git (and bash), then the engine's verdict under the
approval of the everyday verb is checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import bash_ran, copy_workspace, git_ok, judge, printed, run_real

from policylang import Decision, Verdict

CANARY = "API_KEY=CANARY_EQ_1234"


def _asks(decision: Decision, rule_id: str) -> None:
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(reason.rule_id == rule_id for reason in decision.reasons), decision.explain()


def _status(workspace: Path) -> str:
    return printed(["git", "status", "--porcelain", "--untracked-files=all"], workspace)


def _repository(tmp_path: Path, ignore: str) -> Path:
    """A repository whose committed `.gitignore` is `ignore`, with an untracked `.env`."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / ".gitignore").write_text(ignore)
    (workspace / "README").write_text("r\n")
    git_ok(workspace, "add", ".gitignore", "README")
    git_ok(workspace, "commit", "-qm", "i")
    (workspace / ".env").write_text(CANARY + "\n")
    return workspace


def _tracked_env(tmp_path: Path) -> Path:
    """A repository that tracks a `.env` template, which the user then filled in."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "README").write_text("r\n")
    (workspace / "src").mkdir()
    (workspace / "src" / "a").write_text("a\n")
    (workspace / ".env").write_text("API_KEY=changeme\n")
    os.utime(workspace / ".env", (1_600_000_000, 1_600_000_000))  # (not racy to git)
    git_ok(workspace, "add", ".")
    git_ok(workspace, "commit", "-qm", "i")
    return workspace


def _fill_in(workspace: Path) -> None:
    (workspace / ".env").write_text(CANARY + "\n")


# EQ1: a bracket with a class spelling is a class to git's wildmatch (`[:.:]` is none
# known: the line matches nothing); the engine had read a plain set matching `.env`
CLASS_SPELLINGS = ["[[:.:]env\n", ".en[[:v:]\n", "node_modules/\n*.log\n[[:.:]env\n",
                   "[}[:alpha:]**\n"]  # fmt: skip


@pytest.mark.parametrize("ignore", CLASS_SPELLINGS)
def test_eq1_git_ignores_nothing_on_a_class_spelling(tmp_path: Path, ignore: str) -> None:
    workspace = _repository(tmp_path, ignore)
    assert "?? .env" in _status(workspace)  # git does not ignore it
    bash_ran("git add .", workspace)
    assert "A  .env" in _status(workspace)


@pytest.mark.parametrize("ignore", CLASS_SPELLINGS)
@pytest.mark.parametrize(
    ("line", "approval", "rule_id"),
    [("git add .", "git add", "engine.git-stage"), ("git add -A", "git add", "engine.git-stage"),
     ("git clean -f", "git clean", "engine.git-clean")],
)  # fmt: skip
def test_eq1_a_class_spelling_ignores_nothing_to_the_engine(
    tmp_path: Path, ignore: str, line: str, approval: str, rule_id: str
) -> None:
    workspace = _repository(tmp_path, ignore)
    _asks(judge(line, workspace, approval), rule_id)


def test_eq1_a_folder_by_a_class_spelling(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, "confi[[:g:]\n")
    (workspace / ".env").unlink()
    (workspace / "config").mkdir()
    (workspace / "config" / "id_rsa").write_text("KEY\n")
    bash_ran("git add .", workspace)
    assert "A  config/id_rsa" in _status(workspace)
    git_ok(workspace, "reset", "-q")
    for line in ("git add .", "git add config"):
        assert judge(line, workspace, "git add").verdict is not Verdict.ALLOW


def test_eq1_a_plain_ignore_line_still_ignores(tmp_path: Path) -> None:
    """No new ask where git does ignore the file."""
    workspace = _repository(tmp_path, "*.log\n.e[n]v\n")
    assert ".env" not in _status(workspace)
    assert judge("git add .", workspace, "git add").verdict is Verdict.ALLOW


# EQ9: git's wildmatch takes `?` and a set for one byte; `é` is two in UTF-8


def test_eq9_a_multibyte_name_is_matched_by_bytes(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, ".env\n.env.?\n")
    (workspace / ".env.é").write_text(CANARY + "\n")
    assert ".env." in _status(workspace)  # not ignored by git
    _asks(judge("git add .", workspace, "git add"), "engine.git-stage")


def test_eq9_two_bytes_by_two_marks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, ".env\n.env.??\n")
    (workspace / ".env.é").write_text(CANARY + "\n")
    assert ".env." not in _status(workspace)  # ignored by git: no ask
    assert judge("git add .", workspace, "git add").verdict is Verdict.ALLOW


# EQ2: a backslash is a pathspec escape to git (`.en\v` is `.env`)
BACKSLASHED_ADDS = [r"git add '.en\v'", r"git stage '.en\v'", r"git add -N '.en\v'",
                    r"git add -- '.en\v'"]  # fmt: skip


def test_eq2_git_stages_and_cleans_by_an_escaped_pathspec(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, "*.log\n")
    bash_ran(r"git add '.en\v'", workspace)
    assert "A  .env" in _status(workspace)
    git_ok(workspace, "rm", "-q", "--cached", ".env")
    bash_ran(r"git clean -f '.en\v'", workspace)
    assert not (workspace / ".env").exists()


@pytest.mark.parametrize("line", BACKSLASHED_ADDS)
def test_eq2_an_escaped_add_asks(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path, "*.log\n")
    _asks(judge(line, workspace, "git add", "git stage"), "engine.git-stage")


def test_eq2_an_escaped_clean_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path, "*.log\n")
    _asks(judge(r"git clean -f '.en\v'", workspace, "git clean"), "engine.git-clean")


# EQ6: a glob or escaped pathspec of `git checkout` / `git restore` overwrites a protected
# file whose literal name is denied
OVERWRITES = [r"git checkout -- '.e*'", r"git checkout -- '.en\v'", r"git restore '.en\v'",
              r"git restore --source=HEAD~0 '.en\v'", r"git checkout HEAD -- '.en\v'",
              r"git restore -s HEAD -- '.en[v]'", r"git checkout HEAD -- ':(glob).e*'",
              r"git checkout HEAD -- ':!src'"]  # fmt: skip


def test_eq6_git_overwrites_the_filled_in_env(tmp_path: Path) -> None:
    workspace = _tracked_env(tmp_path)
    _fill_in(workspace)
    bash_ran(r"git checkout -- '.en\v'", workspace)
    assert (workspace / ".env").read_text() == "API_KEY=changeme\n"  # the secret is lost


@pytest.mark.parametrize("line", OVERWRITES)
def test_eq6_a_glob_or_escaped_pathspec_asks(tmp_path: Path, line: str) -> None:
    workspace = _tracked_env(tmp_path)
    _fill_in(workspace)
    _asks(judge(line, workspace, "git checkout", "git restore"), "engine.git-pathspec")


# EQ7: the whole tree spelt other than `.`
WHOLE_TREE = ["git restore '*'", "git checkout -- '*'", "git restore ':(top)'",
              "git restore --staged --worktree '*'", "git checkout -- src/..",
              "cd src && git checkout -- ..", "cd src && git restore ../",
              "git restore \"$PWD\""]  # fmt: skip


def test_eq7_git_discards_every_change(tmp_path: Path) -> None:
    workspace = _tracked_env(tmp_path)
    (workspace / "README").write_text("changed\n")
    (workspace / "src" / "a").write_text("changed\n")
    bash_ran("cd src && git checkout -- ..", workspace)
    assert _status(workspace) == ""


@pytest.mark.parametrize("line", WHOLE_TREE)
def test_eq7_a_whole_tree_pathspec_asks(tmp_path: Path, line: str) -> None:
    workspace = _tracked_env(tmp_path)
    (workspace / "README").write_text("changed\n")
    decision = judge(line, workspace, "git checkout", "git restore")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["git checkout -- README", "git restore README", "git restore --staged README",
     "git checkout main", "git checkout -b topic", "git checkout -", "git checkout HEAD~0",
     "git restore -s HEAD -- src/a", "cd src && git restore a"],
)  # fmt: skip
def test_eq6_eq7_everyday_lines_stay_approved(tmp_path: Path, line: str) -> None:
    workspace = _tracked_env(tmp_path)
    decision = judge(line, workspace, "git checkout", "git restore")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# EQ8: the changes of a tracked protected file, staged by a whole-tree add or commit
STAGING_CHANGES = [
    ("git add -u", "git add"), ("git add .", "git add"), ("git add -A", "git add"),
    ("git stage --update", "git stage"), ("git commit -a -m wip", "git commit"),
    ("git commit -am wip", "git commit"), ("git commit -m wip .", "git commit"),
]  # fmt: skip


def test_eq8_git_stages_the_filled_in_env(tmp_path: Path) -> None:
    workspace = _tracked_env(tmp_path)
    _fill_in(workspace)
    bash_ran("git add -u", workspace)
    assert CANARY in printed(["git", "diff", "--cached"], workspace)


@pytest.mark.parametrize(("line", "approval"), STAGING_CHANGES)
def test_eq8_staging_a_changed_tracked_secret_asks(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace = _tracked_env(tmp_path)
    _fill_in(workspace)
    _asks(judge(line, workspace, approval), "engine.git-stage")


@pytest.mark.parametrize(
    ("line", "approval"), [*STAGING_CHANGES, ("git commit -m wip", "git commit")]
)
def test_eq8_an_unchanged_tracked_secret_stays_approved(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace = _tracked_env(tmp_path)
    (workspace / "README").write_text("changed\n")
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_eq8_a_commit_of_the_index_alone_stays_approved(tmp_path: Path) -> None:
    workspace = _tracked_env(tmp_path)
    _fill_in(workspace)
    decision = judge("git commit -m wip", workspace, "git commit")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# EQ10: `git archive` writes the tracked files of a tree, a committed `.env` among them
ARCHIVES = ["git archive HEAD", r"git archive HEAD '.en\v'", "git archive HEAD '.e*'",
            "git archive --remote=. HEAD", "git archive --format=tar HEAD",
            "git archive -o out.tar HEAD", "git archive HEAD -o out.tar",
            "git archive HEAD -- '.e*'", "git archive HEAD -o out.tar -- ."]  # fmt: skip


def test_eq10_git_archive_prints_the_tracked_env(tmp_path: Path) -> None:
    workspace = _tracked_env(tmp_path)
    done = run_real(["bash", "-c", r"git archive HEAD '.en\v'"], workspace)
    assert "API_KEY=changeme" in done.stdout


@pytest.mark.parametrize("line", ARCHIVES)
def test_eq10_an_archive_holding_a_tracked_secret_asks(tmp_path: Path, line: str) -> None:
    workspace = _tracked_env(tmp_path)
    _asks(judge(line, workspace, "git archive"), "engine.git-tracked")


@pytest.mark.parametrize(
    "line", ["git archive -o out.tar HEAD src", "git archive HEAD -o out.tar -- src"]
)
def test_eq10_an_archive_of_a_folder_without_one_stays_approved(
    tmp_path: Path, line: str
) -> None:
    workspace = _tracked_env(tmp_path)
    decision = judge(line, workspace, "git archive")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_eq10_git_takes_options_after_the_tree(tmp_path: Path) -> None:
    workspace = _tracked_env(tmp_path)
    bash_ran("git archive HEAD -o out.tar", workspace)
    assert "API_KEY=changeme" in printed(["tar", "-xOf", "out.tar", ".env"], workspace)
