"""`git add` that would stage a protected file (review AL9), against real git."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from policylang import load_policy
from policylang.engine.gitstage import (
    StagePlan,
    stage_plan,
    surely_ignored,
    surely_ignored_folder,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd),
           "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src" / "deep").mkdir(parents=True)
    _git(root, "init", "-q")
    (root / ".env").write_text("SECRET=1\n")
    (root / "src" / "deep" / "id_rsa").write_text("key\n")
    (root / "src" / "a.py").write_text("x\n")
    return root


def _verdict(repo: Path, command: str) -> str:
    policy = load_policy()
    policy.approvals.add("git add", persist=False)
    env = {"HOME": str(repo.parent / "home"), "PATH": "/usr/bin:/bin"}
    return str(policy.evaluate(command, workspace=repo, env=env).verdict)


@pytest.mark.parametrize("command", ["git add -A", "git add .", "git add src", "git add :/",
                                     "git add -- src/deep", "git add --all"])
def test_staging_an_untracked_protected_file_asks(repo: Path, command: str) -> None:
    assert _verdict(repo, command) == "ask"


@pytest.mark.parametrize("command", ["git add src/a.py", "git add -u", "git add -n .",
                                     "git add -A --dry-run"])
def test_staging_nothing_protected_stays_approved(repo: Path, command: str) -> None:
    assert _verdict(repo, command) == "allow"


def test_ignored_or_tracked_protected_files_do_not_ask(repo: Path) -> None:
    (repo / ".gitignore").write_text(".env\nid_rsa\n")
    assert _verdict(repo, "git add -A") == "allow"
    assert _verdict(repo, "git add -f .") == "ask"  # forced: ignored files are staged too
    (repo / ".gitignore").write_text(".env\n")
    assert _verdict(repo, "git add -A") == "ask"
    (repo / "src" / ".gitignore").write_text("deep/\n")
    assert _verdict(repo, "git add -A") == "allow"
    # the last pattern that matches decides (review CT3): a negation of another file
    # leaves `deep/` ignored, as git does; one that matches the file asks (git would keep
    # it ignored, since its folder is: asking is the safe side)
    (repo / "src" / ".gitignore").write_text("deep/\n!deep/keep\n")
    assert _verdict(repo, "git add -A") == "allow"
    assert "id_rsa" not in _git(repo, "add", "-A", "--dry-run").stdout
    (repo / "src" / ".gitignore").write_text("deep/*\n!deep/id_rsa\n")
    assert _verdict(repo, "git add -A") == "ask"
    assert "id_rsa" in _git(repo, "add", "-A", "--dry-run").stdout


def test_the_staging_check_agrees_with_git(repo: Path) -> None:
    (repo / ".gitignore").write_text(".env\n")
    result = _git(repo, "add", "-A")
    assert result.returncode == 0
    staged = _git(repo, "diff", "--cached", "--name-only").stdout.split()
    assert "src/deep/id_rsa" in staged  # what the engine asked about is what git stages
    assert ".env" not in staged


@pytest.mark.parametrize(
    ("patterns", "path"),
    [
        (".env\n", ".env"),
        (".env*\n", "app/.env.local"),
        ("/.env\n", ".env"),
        ("**/secrets/\n", "a/secrets/k.pem"),
        ("deep/\n", "src/deep/id_rsa"),
        ("src/deep/*\n", "src/deep/id_rsa"),
        ("*.pem\n", "certs/x.pem"),
        ("id_rsa\n", "src/deep/id_rsa"),
    ],
)
def test_surely_ignored_only_when_git_ignores(tmp_path: Path, patterns: str, path: str) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text(patterns)
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x\n")
    assert surely_ignored(str(target), str(tmp_path))
    assert _git(tmp_path, "check-ignore", "-q", path).returncode == 0


@pytest.mark.parametrize(
    ("patterns", "path"),
    [
        ("/.env\n", "sub/.env"),  # anchored at the top only
        ("deep/\n", "deep"),  # a file named like a folder pattern
        (".env\n!.env\n", ".env"),  # negation: uncertain
        ("\\#env\n", "#env"),  # an escape: not read here
    ],
)
def test_not_surely_ignored(tmp_path: Path, patterns: str, path: str) -> None:
    (tmp_path / ".gitignore").write_text(patterns)
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x\n")
    assert not surely_ignored(str(target), str(tmp_path))


def test_stage_plan_reads_the_options() -> None:
    assert stage_plan(["-A"], "/w/src", "/w") == StagePlan(roots=("/w",), force=False)
    assert stage_plan(["-Af"], "/w", "/w") == StagePlan(roots=("/w",), force=True)
    assert stage_plan(["-u"], "/w", "/w") is None
    assert stage_plan([], "/w", "/w") is None
    assert stage_plan(["--", "-A"], "/w", "/w") == StagePlan(roots=("/w/-A",), force=False)
    assert stage_plan([None], "/w/src", "/w") == StagePlan(roots=("/w",), force=False)
    assert stage_plan(["--chmod", "+x", "a"], "/w", "/w") == StagePlan(roots=("/w/a",),
                                                                       force=False)


_FILES = ("CLAUDE.md", "a/CLAUDE.md", "a/b/CLAUDE.md", "a/b/.env", ".env", "b/a/.env",
          "x/.mcp.json", "a/b/c/CLAUDE.md")  # fmt: skip
_PATTERNS = (
    "CLAUDE.md", "*.md", "a", "b", "a/", "b/", "a/b", "/a", "*", "**", "a/**", "**/b",
    "**/CLAUDE.md", "a/**/CLAUDE.md", "*/", "!a", "!*/", "!CLAUDE.md", "!a/", "!b/", ".env",
    "!.env", "[Cc]LAUDE.md", "C*", "?LAUDE.md", "a/*", "!a/*", "!**/b/", "b/**", "!a/b/",
    "[!x]*", "**/", "a/**/", "*/b/", "!**", "[a-c]", "a/b/**", "!/a", "!a/CLAUDE.md",
    "!a/.env",
)  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_what_the_engine_takes_as_ignored_git_ignores(tmp_path: Path, seed: int) -> None:
    """A differential against real git (reviews CU1, CU2: `a/**` beside `!a/CLAUDE.md`,
    and `a/**/`, made the engine skip the folder `a` whole, which git walks): no file or
    folder the engine surely ignores is one git would clean or stage. The engine may say
    "not ignored" where git ignores (that only asks)."""
    rng = random.Random(seed)
    for case in range(25):
        root = tmp_path / f"w{case}"
        root.mkdir()
        _git(root, "init", "-q")
        for name in _FILES:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text("x\n")
        for place in ("", "a/", "a/b/", ".git/info/exclude"):
            if rng.random() < 0.6:
                lines = [rng.choice(_PATTERNS) for _ in range(rng.randint(1, 4))]
                target = root / (place if place.endswith("exclude") else place + ".gitignore")
                target.write_text("\n".join(lines) + "\n")
        listed = _git(root, "ls-files", "-o", "-i", "--exclude-standard", "-z").stdout
        ignored = {name for name in listed.split("\0") if name}
        for name in _FILES:
            if surely_ignored(str(root / name), str(root)):
                assert name in ignored, (name, [p.read_text() for p in root.rglob(".gitignore")])
        for folder in ("a", "a/b", "a/b/c", "b", "b/a", "x"):
            if surely_ignored_folder(str(root / folder), top=str(root)):
                inside = [name for name in _FILES if name.startswith(folder + "/")]
                assert all(name in ignored for name in inside), (folder, inside)
