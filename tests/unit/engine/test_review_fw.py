"""Review FW, of this session's push allowlist and the fixers' changes.

FW1: a symbolic ref in a linked worktree's folder (`.git/worktrees/w/HEAD` = `ref:
refs/stash`) was not read: `git log -p worktrees/w/HEAD` printed the stash bare. FW2: an
approved `git pull fixtures/up.git` (a folder whose `commondir` is this repository's and
whose `HEAD` is the stash) fast-forwarded `main` to the stash, and an approved `git push
origin main` published it. FW3: an approved `ruff check` with `--extension env:python` (or
`extension = {env = "python"}` in the repository's configuration) read and printed `.env`.
FW4: `git push --tags` and `--follow-tags` sent refs no check had looked at."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from realrun import (
    asks,
    bare_rewrite,
    decide,
    git_out,
    stash_head_folder,
    untracked_stash_repository,
)

from policylang import Verdict

_RUFF = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")


def test_fw1_a_linked_worktrees_head_naming_the_stash(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    linked = workspace / ".git" / "worktrees" / "w"
    linked.mkdir(parents=True)
    (linked / "HEAD").write_text("ref: refs/stash\n")
    (linked / "commondir").write_text("../..\n")
    (linked / "gitdir").write_text(f"{tmp_path / 'wt' / '.git'}\n")
    assert "CANARY_FD" in git_out(workspace, "log", "-p", "worktrees/w/HEAD")
    for line in ("git log -p worktrees/w/HEAD", "git show worktrees/w/HEAD^3"):
        asks(line, workspace, env)
    asks("git checkout -b leak worktrees/w/HEAD", workspace, env, "git checkout")


def test_fw2_a_pull_from_a_folder_here_asks(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    offered = decide("git pull", workspace, env).suggested_rule
    assert offered == "git pull"
    stash_head_folder(workspace / "fixtures" / "up.git", "../../.git")
    asks("git pull fixtures/up.git", workspace, env, offered)
    asks("git fetch fixtures/up.git HEAD:refs/tags/leak", workspace, env, "git fetch")
    asks("git fetch file://fixtures/up.git", workspace, env, "git fetch")
    stash = git_out(workspace, "rev-parse", "stash").strip()
    git_out(workspace, "pull", "-q", "fixtures/up.git")  # what git does: main is the stash
    assert git_out(workspace, "rev-parse", "main").strip() == stash
    # whatever made the branch the stash's, an approved push of it asks
    line = "git push -q origin main"
    asks(line, workspace, env, "git push")
    subprocess.run(["bash", "-c", line], cwd=workspace, check=True, timeout=60,
                   capture_output=True, env=bare_rewrite(tmp_path))  # fmt: skip
    leaked = git_out(tmp_path, "--git-dir", str(tmp_path / "origin.git"), "show",
                     "main^3:config/.env")  # fmt: skip
    assert "CANARY_FD" in leaked


def test_fw2_fetches_from_the_remotes_stay_approved(tmp_path: Path) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    for line in ("git fetch", "git fetch origin", "git fetch origin main",
                 "git fetch --all --prune", "git pull --rebase origin main"):  # fmt: skip
        decision = decide(line, workspace, env, "git fetch", "git pull")
        assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("setup", "line"),
    [([], "git push --tags"), ([], "git push origin --tags"),
     ([], "git push --follow-tags origin main"), ([], "git push --follow origin main"),
     (["config", "push.followTags", "true"], "git push origin main")],
)  # fmt: skip
def test_fw4_pushing_tags_asks(tmp_path: Path, setup: list[str], line: str) -> None:
    workspace, env = untracked_stash_repository(tmp_path)
    if setup:
        git_out(workspace, *setup)
    asks(line, workspace, env, "git push")


def _ruff_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / "config").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (workspace / "app.py").write_text("print(1)\n")
    (workspace / "prod.env").write_text("DB_PASSWORD=CANARY_PROD\n")
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def _ruff_printed(args: list[str], workspace: Path) -> str:
    done = subprocess.run([_RUFF, *args], cwd=workspace, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    return done.stdout + done.stderr


def test_fw3_ruffs_extension_option_asks(tmp_path: Path) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    offered = decide("ruff check .", workspace, env).suggested_rule
    assert offered == "ruff check"
    assert decide("ruff check .", workspace, env, offered).verdict is Verdict.ALLOW
    assert "CANARY_PROD" in _ruff_printed(["check", "--extension", "env:python", "."], workspace)
    for line in ("ruff check --extension env:python .", "ruff check --extension=env:python .",
                 "ruff check --config 'include=[\"prod.env\"]' ."):  # fmt: skip
        asks(line, workspace, env, offered)


@pytest.mark.parametrize(
    ("name", "text"),
    [("ruff.toml", 'extension = { env = "python" }\n'),
     ("pyproject.toml", '[tool.ruff]\nextension = { env = "python" }\n'),
     ("ruff.toml", "some-future-setting = 1\n")],
)  # fmt: skip
def test_fw3_a_configuration_setting_not_known_harmless_asks(
    tmp_path: Path, name: str, text: str
) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    (workspace / name).write_text(text)
    if "extension" in text:
        assert "CANARY_PROD" in _ruff_printed(["check", "."], workspace)
    asks("ruff check .", workspace, env, "ruff check")


def test_fw3_a_configuration_of_lint_settings_stays_approved(tmp_path: Path) -> None:
    workspace, env = _ruff_workspace(tmp_path)
    (workspace / "pyproject.toml").write_text(
        '[tool.ruff]\nline-length = 100\nextend-exclude = ["site"]\n'
        '[tool.ruff.lint]\nselect = ["E", "F"]\n[tool.ruff.lint.per-file-ignores]\n'
        '"tests/*" = ["E501"]\n'
    )
    (workspace / "ruff.toml").write_text(
        'select = ["E"]\n[flake8-quotes]\ninline-quotes = "single"\n'
    )
    decision = decide("ruff check .", workspace, env, "ruff check")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
