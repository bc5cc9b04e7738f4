"""The hooks folders the sandbox keeps read-only are the ones git itself uses (review AS7).

Each case writes a configuration, asks the real git where its hooks are
(`git rev-parse --git-path hooks`) and checks that `hook_places` names that folder.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policylang.executor.githooks import enclosing_tree, entries, git_directories, hook_places

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def home(tmp_path: pathlib.Path) -> pathlib.Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def _env(home: pathlib.Path) -> dict[str, str]:
    return {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_SYSTEM": "/nonexistent",
        "XDG_CONFIG_HOME": str(home / ".config"),
    }


def _git(tree: pathlib.Path, home: pathlib.Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=tree, env=_env(home), capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout.strip()


def _repo(tmp_path: pathlib.Path, home: pathlib.Path) -> pathlib.Path:
    tree = tmp_path / "ws"
    tree.mkdir()
    _git(tree, home, "init", "-q")
    return tree


def _gits_hooks(tree: pathlib.Path, home: pathlib.Path) -> str:
    return os.path.normpath(os.path.join(tree, _git(tree, home, "rev-parse", "--git-path",
                                                     "hooks")))


def _found(tree: pathlib.Path, home: pathlib.Path) -> list[str]:
    return hook_places([str(tree)], home=str(home), env=_env(home)).folders


CONFIG_LINES = {
    "own-line": "[core]\n\thooksPath = tools/hooks\n",
    # review AT7: git ends a comment at its line, backslash or not, and reads headers
    # and a key on one line
    "comment-backslash": "[core]\n# was C:\\hooks\\\n\thooksPath = tools/hooks\n",
    "value-comment-backslash": "[core]\n\tfoo = bar ; c \\\n\thooksPath = tools/hooks\n",
    "two-headers": "[foo] [core] hooksPath = tools/hooks\n",
    "section-line": "[core] hooksPath = tools/hooks\n",
    "comment": "[core]\n\thooksPath = tools/hooks ; team hooks\n",
    "quoted": '[core]\n\thooksPath = "tools/hooks" # team\n',
    "continued": "[core]\n\thooksPath = tools/\\\nhooks\n",
    "case": "[CORE]\n\tHOOKSPATH = tools/hooks\n",
}


@pytest.mark.parametrize("config", CONFIG_LINES.values(), ids=CONFIG_LINES.keys())
def test_config_spellings(tmp_path: pathlib.Path, home: pathlib.Path, config: str) -> None:
    tree = _repo(tmp_path, home)
    with open(tree / ".git" / "config", "a") as handle:
        handle.write(config)
    expected = _gits_hooks(tree, home)
    assert expected == str(tree / "tools" / "hooks")  # git reads it so
    assert expected in _found(tree, home)


@pytest.mark.parametrize("section", ["[include]", '[includeIf "gitdir:**"]'])
def test_an_included_file(tmp_path: pathlib.Path, home: pathlib.Path, section: str) -> None:
    tree = _repo(tmp_path, home)
    (tree / "gitconfig.inc").write_text("[core]\n\thooksPath = tools/hooks\n")
    with open(tree / ".git" / "config", "a") as handle:
        handle.write(f"{section}\n\tpath = ../gitconfig.inc\n")
    places = hook_places([str(tree)], home=str(home), env=_env(home))
    assert _gits_hooks(tree, home) in places.folders
    # the included file is named too: rewritten, it would name another folder
    assert str(tree / "gitconfig.inc") in places.files


def test_a_global_setting_is_relative_to_each_work_tree(
    tmp_path: pathlib.Path, home: pathlib.Path
) -> None:
    tree = _repo(tmp_path, home)
    (home / ".gitconfig").write_text("[core]\n\thooksPath = scripts/hooks\n")
    assert _gits_hooks(tree, home) == str(tree / "scripts" / "hooks")
    assert str(tree / "scripts" / "hooks") in _found(tree, home)


def test_a_linked_worktree_uses_the_common_config(
    tmp_path: pathlib.Path, home: pathlib.Path
) -> None:
    main = _repo(tmp_path, home)
    _git(main, home, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
         "--allow-empty", "-m", "x")
    with open(main / ".git" / "config", "a") as handle:
        handle.write("[core]\n\thooksPath = tools/hooks\n")
    linked = tmp_path / "linked"
    _git(main, home, "worktree", "add", "-q", str(linked))
    assert (linked / ".git").is_file()
    assert _gits_hooks(linked, home) == str(linked / "tools" / "hooks")
    assert str(linked / "tools" / "hooks") in _found(linked, home)


def test_blanks_are_read_as_git_reads_them(tmp_path: pathlib.Path, home: pathlib.Path) -> None:
    tree = _repo(tmp_path, home)
    with open(tree / ".git" / "config", "a") as handle:
        handle.write('[core]\n\thooksPath = tools\th  x\n[include]\n\tpath = " x.inc"\n')
    (tree / ".git" / " x.inc").write_text("[core]\n\thooksPath = other\n")
    places = hook_places([str(tree)], home=str(home), env=_env(home))
    assert str(tree / "tools h  x") in places.folders
    assert _gits_hooks(tree, home) == str(tree / "other")  # the include comes later
    assert str(tree / "other") in places.folders


def test_core_worktree_moves_a_relative_hooks_path(
    tmp_path: pathlib.Path, home: pathlib.Path
) -> None:
    # review AT6: git resolves `hooksPath` against `core.worktree`
    tree = _repo(tmp_path, home)
    (tree / "inner").mkdir()
    with open(tree / ".git" / "config", "a") as handle:
        handle.write("[core]\n\tworktree = ../inner\n\thooksPath = th\n")
    expected = _gits_hooks(tree / "inner", home)
    assert expected == str(tree / "inner" / "th")
    assert expected in _found(tree, home)


def test_the_repository_a_folder_lies_in(tmp_path: pathlib.Path, home: pathlib.Path) -> None:
    tree = _repo(tmp_path, home)
    (tree / "pkg" / "deep").mkdir(parents=True)
    assert enclosing_tree(str(tree / "pkg" / "deep")) == str(tree)
    assert enclosing_tree(str(tree)) is None  # not inside another repository


def test_no_setting_no_folder(tmp_path: pathlib.Path, home: pathlib.Path) -> None:
    assert _found(_repo(tmp_path, home), home) == []
    assert _found(tmp_path, home) == []  # not a repository at all


def test_entries_are_loose_but_never_raise() -> None:
    assert entries("[core\nhooksPath = x\n[ok]\nk\n") == [("ok.k", "true")]
    assert entries('[a "b\\"c"]\n\tK = "v\\tw"\n') == [('a.b"c.k', "v\tw")]


@given(st.text(max_size=200))
def test_reading_a_config_never_raises(text: str) -> None:
    # review AU3: a non-ASCII letter where a key starts had raised, after the command ran
    for key, value in entries(text):
        assert key.count(".") >= 1
        assert isinstance(value, str)


def test_a_non_ascii_key_is_skipped_like_git_refuses_it() -> None:
    assert entries("[core]\n\téx = 1\n\thooksPath = h\n") == [("core.hookspath", "h")]


def test_a_fifo_is_not_waited_for(tmp_path: pathlib.Path, home: pathlib.Path) -> None:
    # review AU4: a FIFO at `sub/.git` or a config path had blocked the host's `open`
    tree = tmp_path / "ws"
    tree.mkdir()
    os.mkfifo(tree / ".git")
    assert hook_places([str(tree)], home=str(home), env=_env(home)).folders == []
    os.unlink(tree / ".git")
    (tree / ".git").mkdir()
    os.mkfifo(tree / ".git" / "config")
    assert hook_places([str(tree)], home=str(home), env=_env(home)).folders == []


def test_the_git_directory_a_git_file_leads_to(tmp_path: pathlib.Path) -> None:
    # review AU2: `gitdir: ./.bare` keeps hooks and config under another name
    tree = tmp_path / "ws"
    (tree / ".bare").mkdir(parents=True)
    (tree / ".git").write_text("gitdir: ./.bare\n")
    assert git_directories([str(tree)]) == []  # no HEAD: not a git directory (AV4)
    (tree / ".bare" / "HEAD").write_text("ref: refs/heads/main\n")
    assert git_directories([str(tree)]) == [str(tree / ".bare")]
    (tmp_path / "plain" / ".git").mkdir(parents=True)
    assert git_directories([str(tmp_path / "plain")]) == []  # `.git` is protected by name
