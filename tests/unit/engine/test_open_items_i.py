"""Open items I: plain `git grep` is judged by the files it can print, the index's tracked
regular files below where it searches: an untracked `.env` beside them is no longer a deny
(it was read as `grep -r KEY .`). Wherever git may read more, or the engine cannot be sure
of the index, the whole tree counts as before: `--untracked`, `--no-index`, `--cached`,
revisions, `-f`, `--recurse-submodules`, git's global options (`-C`), `GIT_*` variables, a
`.git` file (submodules, worktrees), a sparse checkout, `core.worktree`. Each layout is run
with the real git: where it prints the protected `.env`, the engine must not allow the line."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, run_printed

from policylang import Verdict

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _repository(tmp_path: Path) -> Path:
    """A repository with a committed `a.txt` and an untracked `.env`, both holding KEY."""
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "a.txt").write_text("KEY=plain\n")
    git_ok(workspace, "add", "a.txt")
    git_ok(workspace, "commit", "-qm", "one")
    (workspace / ".env").write_text("KEY=abc\n")
    return workspace


def _leaks(line: str, workspace: Path, env: dict[str, str] | None = None) -> None:
    """Real git prints the protected `.env`, and the engine does not allow the line."""
    env = env or env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert "KEY=abc" in out or "AKIASECRET" in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _holds(line: str, workspace: Path) -> None:
    """Real git does not print `.env`, and the engine allows the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert "KEY=plain" in out, out
    assert "KEY=abc" not in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def _strict(line: str, workspace: Path, env: dict[str, str] | None = None) -> None:
    """The engine reads the whole tree, as for `grep -r KEY .`: the `.env` there denies."""
    decision = decide(line, workspace, env or env_beside(workspace.parent))
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["git grep KEY", "git grep -n KEY", "git grep -e KEY", "git grep KEY -- a.txt",
     "git grep -i -A1 KEY .", "git grep -eKEY", "git grep KEY a.txt", "git grep -n -- KEY"],
)  # fmt: skip
def test_untracked_env_is_not_printed(tmp_path: Path, line: str) -> None:
    _holds(line, _repository(tmp_path))


def test_from_a_subfolder(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / "src").mkdir()
    (workspace / "src" / "b.txt").write_text("KEY=plain\n")
    (workspace / "src" / ".env").write_text("KEY=abc\n")
    git_ok(workspace, "add", "src/b.txt")
    env = env_beside(tmp_path)
    line = "cd src && git grep KEY"
    assert "KEY=abc" not in run_printed(line, workspace, env)
    assert decide(line, workspace, env).verdict is Verdict.ALLOW


def test_tracked_env_still_denies(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "add", ".env")
    _leaks("git grep KEY", workspace)
    assert decide("git grep KEY", workspace, env_beside(tmp_path)).verdict is Verdict.DENY


def test_intent_to_add_env_denies(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "add", "-N", ".env")
    _leaks("git grep KEY", workspace)


def test_tracked_env_in_a_subfolder_named_by_pathspec(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / "src").mkdir()
    (workspace / "src" / ".env").write_text("KEY=abc\n")
    git_ok(workspace, "add", "src/.env")
    _leaks("git grep KEY -- src", workspace)
    _leaks("git grep KEY src", workspace)
    _leaks("cd src && git grep KEY", workspace)


def test_tracked_file_replaced_by_a_link(tmp_path: Path) -> None:
    # the index says `notes.txt` is a regular file; git 2.39 reads only a regular file
    # there (it prints nothing of the link's target), the engine judges the target still
    workspace = _repository(tmp_path)
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("KEY=AKIASECRET\n")
    (workspace / "notes.txt").write_text("x\n")
    git_ok(workspace, "add", "notes.txt")
    (workspace / "notes.txt").unlink()
    (workspace / "notes.txt").symlink_to(secret)
    env = env_beside(tmp_path)
    assert "AKIASECRET" not in run_printed("git grep KEY", workspace, env)
    assert decide("git grep KEY", workspace, env).verdict is Verdict.DENY


def test_tracked_folder_replaced_by_a_link(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("KEY=AKIASECRET\n")
    (workspace / "d").mkdir()
    (workspace / "d" / "credentials").write_text("x\n")
    git_ok(workspace, "add", "d/credentials")
    shutil.rmtree(workspace / "d")
    (workspace / "d").symlink_to(secret.parent)
    _leaks("git grep KEY", workspace)


@pytest.mark.parametrize(
    "line",
    ["git grep --untracked KEY", "git grep --untr KEY", "git grep --no-index KEY",
     "git grep --no-ind KEY", "git grep --untracked --no-exclude-standard KEY",
     "git grep -n --untracked -e KEY"],
)  # fmt: skip
def test_untracked_reading_options_stay_strict(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    _leaks(line, workspace)
    _strict(line, workspace)


@pytest.mark.parametrize(
    "line",
    ["git grep --cached KEY", "git grep --recurse-submodules KEY", "git grep -f pat",
     "git grep --textconv KEY", "git -C . grep KEY", "git --no-pager grep KEY",
     "git grep -e KEY HEAD", "git grep KEY $X", "git grep KEY -- '*.txt'"],
)  # fmt: skip
def test_other_options_stay_strict(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    (workspace / "pat").write_text("KEY\n")
    git_ok(workspace, "add", "pat")
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_a_revision_reads_a_committed_env(tmp_path: Path) -> None:
    # `.env` committed, then untracked: the commit's tree still holds it
    workspace = _repository(tmp_path)
    git_ok(workspace, "add", ".env")
    git_ok(workspace, "commit", "-qm", "two")
    git_ok(workspace, "rm", "-q", "--cached", ".env")
    git_ok(workspace, "commit", "-qm", "three")
    _leaks("git grep KEY HEAD~1", workspace)
    _strict("git grep KEY HEAD~1", workspace)


def test_git_index_file_in_the_environment(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    env = env_beside(tmp_path, GIT_INDEX_FILE=str(tmp_path / "other-index"))
    done = run_printed("git add .env", workspace, env)
    assert "fatal" not in done, done
    _leaks("git grep KEY", workspace, env)
    _strict("git grep KEY", workspace, env)


@pytest.mark.parametrize(
    "line",
    ["GIT_INDEX_FILE=../other-index git grep KEY", "env GIT_INDEX_FILE=../other-index git grep KEY",
     "export GIT_INDEX_FILE=../other-index; git grep KEY"],
)  # fmt: skip
def test_git_index_file_set_on_the_line(tmp_path: Path, line: str) -> None:
    workspace = _repository(tmp_path)
    env = env_beside(tmp_path, GIT_INDEX_FILE=str(tmp_path / "other-index"))
    run_printed("git add .env", workspace, env)
    _leaks(line, workspace)


def test_sparse_checkout_stays_strict(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "sparse-checkout", "set", "--no-cone", "/*")
    _strict("git grep KEY", workspace)


def test_core_worktree_stays_strict(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    git_ok(workspace, "config", "core.worktree", str(workspace))
    decision = decide("git grep KEY", workspace, env_beside(tmp_path))
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_a_git_file_stays_strict(tmp_path: Path) -> None:
    # a worktree or submodule: `.git` is a file naming the git directory elsewhere
    workspace = _repository(tmp_path)
    os.rename(workspace / ".git", tmp_path / "gd")
    (workspace / ".git").write_text(f"gitdir: {tmp_path / 'gd'}\n")
    git_ok(workspace, "config", "core.worktree", str(workspace))
    _strict("git grep KEY", workspace)


def test_an_unreadable_index_stays_strict(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x09junk")
    _strict("git grep KEY", workspace)


def test_outside_a_repository_stays_strict(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("KEY=abc\n")
    _strict("git grep KEY", workspace)


@pytest.mark.parametrize(
    "first",
    [
        "git reset -q HEAD~1 -- .env",
        "git reset -q HEAD~1",
        "git add -N .env",
        "git read-tree HEAD~1",
        "git update-index --add .env",
    ],
)
def test_an_index_change_in_the_line_asks(tmp_path: Path, first: str) -> None:
    # `.env` committed once, untracked since: another segment stages it again first
    workspace = _repository(tmp_path)
    git_ok(workspace, "add", ".env")
    git_ok(workspace, "commit", "-qm", "two")
    git_ok(workspace, "rm", "-q", "--cached", ".env")
    git_ok(workspace, "commit", "-qm", "three")
    git_ok(workspace, "tag", "three")
    env = env_beside(tmp_path)
    verb = first.split()[1]
    line = f"{first} && git grep KEY"
    assert "KEY=abc" in run_printed(line, workspace, env)
    git_ok(workspace, "reset", "-q", "three")
    # under an approval of the first command, the grep asks
    decision = decide(line, workspace, env, f"git {verb}")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert decide("git grep KEY", workspace, env).verdict is Verdict.ALLOW


def _crafted_index(workspace: Path, name: bytes) -> None:
    """Rename the index entry `zz/home/.aws/credentials` to `name` (as long), checksum
    kept right: git reads such an index and greps the path it names."""
    index = workspace / ".git" / "index"
    data = bytearray(index.read_bytes())
    at = data.find(b"zz/home/.aws/credentials")
    data[at : at + len(name)] = name
    body = bytes(data[:-20])
    index.write_bytes(body + hashlib.sha1(body).digest())  # (the checksum git verifies)


def test_an_index_entry_outside_the_work_tree_asks(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("KEY=AKIASECRET\n")
    done = run_printed(
        "git hash-object -w ../home/.aws/credentials", workspace, env_beside(tmp_path)
    )
    blob = done.strip()
    git_ok(
        workspace, "update-index", "--add", "--cacheinfo", f"100644,{blob},zz/home/.aws/credentials"
    )
    _crafted_index(workspace, b"../")
    _leaks("git grep KEY", workspace)


def test_git_diff_of_an_index_entry_outside_the_work_tree_asks(tmp_path: Path) -> None:
    # any blob will do: `git diff` compares it with the file the entry names, and prints it
    workspace = _repository(tmp_path)
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True)
    secret.write_text("KEY=AKIASECRET\n")
    blob = run_printed("git hash-object -w a.txt", workspace, env_beside(tmp_path)).strip()
    git_ok(
        workspace, "update-index", "--add", "--cacheinfo", f"100644,{blob},zz/home/.aws/credentials"
    )
    _crafted_index(workspace, b"../")
    _leaks("git diff", workspace)
    _leaks("git grep KEY", workspace)


@pytest.mark.parametrize(
    "line", ["git grep -eKEY ..", "git grep -ie KEY ..", "git grep -e KEY -- ..", "git grep KEY .."]
)
def test_a_pathspec_after_a_glued_pattern(tmp_path: Path, line: str) -> None:
    # run in `src`, `..` names the repository's top, whose tracked `.env` git prints (the
    # plain option view had read `..` as the pattern of `-eKEY`)
    workspace = _repository(tmp_path)
    git_ok(workspace, "add", ".env")
    src = workspace / "src"
    src.mkdir()
    env = env_beside(tmp_path)
    out = run_printed(line, src, env)
    assert "KEY=abc" in out, out
    decision = decide(line, workspace, env, cwd=src)
    assert decision.verdict is Verdict.DENY, decision.explain()
