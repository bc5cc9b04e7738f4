"""Review EA, rg's ignore files: EA1 a `.git` file's `gitdir:` and `commondir` as rg resolves
them (against its working folder), EA1b a `.git` that is a link, EA2 an ignore file inside a
hidden folder that another one re-includes, EA3 a `!` line past the first MiB, EA8 a
relative `XDG_CONFIG_HOME`, no `HOME`, a `core.excludesFile` with blanks. Each layout is run
with the real rg: where it prints the protected `.env`, the engine must not allow the line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, run_printed

from policylang import Verdict

pytestmark = pytest.mark.skipif(shutil.which("rg") is None, reason="needs ripgrep")


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "a.txt").write_text("SECRET=plain\n")
    return workspace


def _leaks(line: str, workspace: Path, env: dict[str, str], secret: str) -> None:
    """Real rg prints `secret` (a protected file's), and the engine does not allow it."""
    out = run_printed(line, workspace, env)
    assert secret in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


# -- EA1: a `.git` file -------------------------------------------------------------------


@pytest.mark.parametrize("common", ["cd", "."])
def test_a_relative_gitdir_is_not_read_beside_the_git_file(tmp_path: Path, common: str) -> None:
    workspace = _workspace(tmp_path)
    sub = workspace / "sub"
    sub.mkdir()
    (sub / ".git").write_text("gitdir: gd\n")
    (workspace / "gd").mkdir()
    (workspace / "gd" / "commondir").write_text(f"{common}\n")
    exclude = (workspace / "gd" / common if common == "." else workspace / common) / "info"
    exclude.mkdir(parents=True)
    (exclude / "exclude").write_text("!.env\n")
    (sub / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "SECRET=abc")


def test_a_parents_git_file_with_a_relative_gitdir(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".git").write_text("gitdir: gd\n")
    (workspace / "gd").mkdir()
    (workspace / "gd" / "commondir").write_text("cd\n")
    (workspace / "cd" / "info").mkdir(parents=True)
    (workspace / "cd" / "info" / "exclude").write_text("!.env\n")
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET sub", workspace, env_beside(tmp_path), "SECRET=abc")


def test_an_absolute_gitdir_whose_commondir_is_relative_to_rgs_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    gitdir = tmp_path / "gd"
    gitdir.mkdir()
    (workspace / ".git").write_text(f"gitdir: {gitdir}\n")
    (gitdir / "commondir").write_text("cd\n")
    (workspace / "cd" / "info").mkdir(parents=True)
    (workspace / "cd" / "info" / "exclude").write_text("!.env\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "SECRET=abc")


def test_a_worktree_without_reinclusions_still_allows(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    git_ok(workspace, "add", "a.txt")
    git_ok(workspace, "commit", "-qm", "x")
    git_ok(workspace, "worktree", "add", "-q", str(tmp_path / "wt"))
    tree = tmp_path / "wt"
    (tree / ".env").write_text("SECRET=abc\n")
    env = env_beside(tmp_path)
    assert "SECRET=abc" not in run_printed("rg SECRET", tree, env)
    decision = decide("rg SECRET", tree, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- EA1b: a `.git` link ------------------------------------------------------------------


def test_a_git_link_to_a_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "meta" / "info").mkdir(parents=True)
    (workspace / "meta" / "info" / "exclude").write_text("!.env\n")
    os.symlink("meta", workspace / ".git")
    (workspace / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "SECRET=abc")


# -- EA2: ignore files inside re-included hidden folders ----------------------------------


def test_an_ignore_file_inside_a_reincluded_hidden_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text("!.devcontainer\n")
    (workspace / ".devcontainer").mkdir()
    (workspace / ".devcontainer" / ".ignore").write_text("!.env\n")
    (workspace / ".devcontainer" / ".env").write_text("API_KEY=SECRET\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "API_KEY=SECRET")


def test_reinclusions_three_hidden_folders_deep(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    deep = workspace / ".a" / ".b"
    deep.mkdir(parents=True)
    (workspace / ".gitignore").write_text("!.a\n")
    (workspace / ".a" / ".gitignore").write_text("!.b\n")
    (deep / ".ignore").write_text("!.env\n")
    (deep / ".env").write_text("API_KEY=SECRET\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "API_KEY=SECRET")


def test_a_nested_repositorys_exclude_inside_a_reincluded_hidden_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text("!.tools\n")
    inner = workspace / ".tools"
    inner.mkdir()
    git_ok(inner, "init", "-q", ".")
    (inner / ".git" / "info" / "exclude").write_text("!.env\n")
    (inner / ".env").write_text("API_KEY=SECRET\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "API_KEY=SECRET")


# -- EA3: a `!` line past the first MiB ---------------------------------------------------


def test_a_reinclusion_past_the_first_mib(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text(("#" + "x" * 999 + "\n") * 1100 + "!.env\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "SECRET=abc")


def test_a_global_ignore_file_past_the_first_mib(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    ignore = tmp_path / "home" / ".config" / "git" / "ignore"
    ignore.parent.mkdir(parents=True)
    ignore.write_text(("#" + "x" * 999 + "\n") * 1100 + "!.env\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "SECRET=abc")


def test_a_small_ignore_file_without_reinclusions_still_allows(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text("*.log\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    env = env_beside(tmp_path)
    assert "SECRET=abc" not in run_printed("rg SECRET", workspace, env)
    decision = decide("rg SECRET", workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- EA8: where the global ignore file is looked up ---------------------------------------


def test_a_relative_xdg_config_home(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / "cfg" / "git").mkdir(parents=True)
    (workspace / "cfg" / "git" / "ignore").write_text("!.env\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path, XDG_CONFIG_HOME="cfg"), "SECRET=abc")


@pytest.mark.parametrize("home", [None, "", "home"])
def test_no_absolute_home_counts_every_hidden_file(tmp_path: Path, home: str | None) -> None:
    # rg then reads the passwd home's files (not shown with real files: that is /root)
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    (workspace / ".env").write_text("SECRET=abc\n")
    env = {"PATH": "/usr/bin:/bin"} if home is None else {"PATH": "/usr/bin:/bin", "HOME": home}
    decision = decide("rg SECRET", workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("value", ["{home}/my ignore", "~/ignore   "])
def test_an_excludes_file_with_blanks_is_read_as_rg_reads_it(tmp_path: Path, value: str) -> None:
    # rg takes the rest of the line (blanks inside and after included), `~` as HOME
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    home = tmp_path / "home"
    named = value.format(home=home)
    (home / ".gitconfig").write_text(f"[core]\n\texcludesFile = {named}\n")
    Path(named.replace("~", str(home))).write_text("!.env\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace, env_beside(tmp_path), "SECRET=abc")
