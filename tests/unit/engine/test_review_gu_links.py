"""Fixer AR: review GU4, GU5 (hard links).

GU4: a hard link `docs/cfg.txt` of `.git/config` (a token in the remote URL), which an
approved `tar xf` of a crafted archive makes, was printed by `cat docs/cfg.txt`, `rg
TOKEN docs`, `grep -r TOKEN docs` and `head docs/*`, all allowed, while `cat .git/config`
asks: the protected inodes left `.git` out. The git configs are now named (a `stat`
each) and a file on one's inode is judged as that config.

GU5: a read-protected home folder too large to list (a browser profile's caches) made
every read of a hard-linked file ask (pnpm's `node_modules`, uv's `.venv`). A hard link
never crosses devices: only a folder on the read file's device asks now."""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

import pytest
from realrun import decide, git_ok, printed

from policylang import Verdict

_TOKEN = "ghp_TOKENCANARY789"
_URL = f"https://user:{_TOKEN}@github.com/x/y.git"
_LINES = ("cat docs/cfg.txt", "grep -r TOKEN docs", "head docs/*", "cat ./docs/cfg.txt")


def _env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _repository(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "README.md").write_text("# app\n")
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "remote", "add", "origin", _URL)
    return workspace


def _evil_tar(path: Path) -> None:
    """The crafted archive: a hard-link entry `docs/cfg.txt` to `.git/config`."""
    with tarfile.open(path, "w") as archive:
        entry = tarfile.TarInfo("docs/cfg.txt")
        entry.type = tarfile.LNKTYPE
        entry.linkname = ".git/config"
        archive.addfile(entry, io.BytesIO(b""))


def _verdict(line: str, workspace: Path) -> Verdict:
    return decide(line, workspace, _env(workspace.parent / "home")).verdict


def test_gu4_a_hard_link_of_git_config_is_git_config(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    (workspace / "docs").mkdir()
    assert _verdict("cat .git/config", workspace) is Verdict.ASK
    _evil_tar(tmp_path / "evil.tar")
    printed(["tar", "xf", str(tmp_path / "evil.tar")], workspace)
    assert os.path.samefile(workspace / "docs" / "cfg.txt", workspace / ".git" / "config")
    lines = (*_LINES, "rg TOKEN docs") if shutil.which("rg") else _LINES
    for line in lines:
        assert _TOKEN in printed(["bash", "-c", line.replace("TOKEN", _TOKEN)], workspace)
        decision = decide(line, workspace, _env(tmp_path / "home"))
        assert decision.verdict is Verdict.ASK, line
        assert "engine.git-credentials" in decision.explain(), line
    assert _verdict("cat README.md", workspace) is Verdict.ALLOW


def test_gu4_a_submodule_config_and_a_config_without_a_credential(tmp_path: Path) -> None:
    workspace = _repository(tmp_path)
    module = workspace / ".git" / "modules" / "libs" / "a"
    module.mkdir(parents=True)
    (module / "HEAD").write_text("ref: refs/heads/main\n")
    (module / "config").write_text(f'[remote "origin"]\n\turl = {_URL}\n')
    os.link(module / "config", workspace / "sub.txt")
    assert _TOKEN in printed(["cat", "sub.txt"], workspace)
    assert _verdict("cat sub.txt", workspace) is Verdict.ASK
    # a config that holds no credential is no secret: its hard link reads as it does
    git_ok(workspace, "remote", "set-url", "origin", "https://github.com/x/y.git")
    os.link(workspace / ".git" / "config", workspace / "plain.txt")
    assert _verdict("cat .git/config", workspace) is Verdict.ALLOW
    assert _verdict("cat plain.txt", workspace) is Verdict.ALLOW


def _profile(home: Path) -> None:
    """A browser profile too large to list (the engine lists 20,000 entries)."""
    cache = home / ".config" / "google-chrome" / "Default" / "Service Worker" / "CacheStorage"
    cache.mkdir(parents=True)
    for index in range(20_001):
        (cache / str(index)).touch()


def _pnpm(workspace: Path, store: Path) -> None:
    """pnpm's layout: an installed file is a hard link of its store's."""
    store.mkdir()
    (store / "package.json").write_text('{"name": "react"}\n')
    package = workspace / "node_modules" / "react"
    package.mkdir(parents=True)
    os.link(store / "package.json", package / "package.json")


def _other_device(tmp_path: Path) -> Path | None:
    """A folder on another device than `tmp_path` (`/dev/shm`), None if there is none."""
    base = Path("/dev/shm")
    try:
        if not base.is_dir() or base.stat().st_dev == tmp_path.stat().st_dev:
            return None
        return Path(tempfile.mkdtemp(dir=base))
    except OSError:
        return None


def test_gu5_a_large_home_folder_on_another_device(tmp_path: Path) -> None:
    home = _other_device(tmp_path)
    if home is None:
        pytest.skip("no second device")
    try:
        _profile(home)
        workspace = tmp_path / "ws"
        workspace.mkdir()
        _pnpm(workspace, tmp_path / "store")
        assert "react" in printed(["cat", "node_modules/react/package.json"], workspace, home)
        assert os.stat(workspace / "node_modules/react/package.json").st_nlink == 2
        for line in ("cat node_modules/react/package.json", "grep -r react node_modules"):
            assert decide(line, workspace, _env(home)).verdict is Verdict.ALLOW, line
    finally:
        shutil.rmtree(home)


def test_gu5_a_large_home_folder_on_the_same_device_still_asks(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _profile(home)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _pnpm(workspace, tmp_path / "store")
    decision = decide("cat node_modules/react/package.json", workspace, _env(home))
    assert decision.verdict is Verdict.ASK
    # the message names the folder that could not be listed (review GU5)
    assert ".config/google-chrome" in decision.explain()
