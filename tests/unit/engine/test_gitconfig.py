from __future__ import annotations

from pathlib import Path

import pytest

from policylang.engine.gitconfig import GitConfigInspector, find_config


def _repo(tmp_path: Path, config: str) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text(config)
    (tmp_path / "src").mkdir()
    return tmp_path


def test_plain_repository_has_no_risks(tmp_path: Path) -> None:
    repo = _repo(tmp_path, '[core]\n\tbare = false\n[remote "origin"]\n\turl = x\n')
    assert GitConfigInspector().risks_for(str(repo / "src")) == ((), True)


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ("[core]\n\tfsmonitor = ./evil\n", "core.fsmonitor"),
        ("[core]\n  pager = evil\n", "core.pager"),
        ("[core]\nsshCommand = evil\n", "core.sshcommand"),
        ("[core]\nhooksPath = /tmp/h\n", "core.hookspath"),
        ("[diff]\nexternal = evil\n", "diff.external"),
        ('[diff "bin"]\ntextconv = evil\n', "diff.bin.textconv"),
        ('[filter "lfs"]\nsmudge = evil\n', "filter.lfs.smudge"),
        ("[alias]\nst = !evil\n", "alias.st"),
        ("[pager]\nlog = evil\n", "pager.log"),
        ("[diff.x]\ntextconv = evil\n", "diff.x.textconv"),
        ("[core] fsmonitor = evil\n", "core.fsmonitor"),
    ],
)
def test_risky_keys_are_reported(tmp_path: Path, config: str, key: str) -> None:
    repo = _repo(tmp_path, config)
    risks, complete = GitConfigInspector().risks_for(str(repo))
    assert complete
    assert [r.key for r in risks] == [key]


def test_plain_alias_is_not_risky(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[alias]\nst = status\n")
    assert GitConfigInspector().risks_for(str(repo))[0] == ()


def test_includes_are_followed(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        '[include]\n\tpath = extra.cfg\n[includeIf "gitdir:/x/"]\n\tpath = "../other.cfg"\n',
    )
    (repo / ".git" / "extra.cfg").write_text("[core]\nfsmonitor = a\n")
    (repo / "other.cfg").write_text("[diff]\nexternal = b\n")
    risks, _ = GitConfigInspector().risks_for(str(repo))
    assert sorted(r.key for r in risks) == ["core.fsmonitor", "diff.external"]


def test_include_cycle_terminates(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[include]\npath = config\n")
    assert GitConfigInspector().risks_for(str(repo)) == ((), True)


def test_unparsable_config_is_incomplete(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "this is not = [git config\n")
    assert GitConfigInspector().risks_for(str(repo))[1] is False


def test_cache_notices_changes(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "[core]\nbare = false\n")
    inspector = GitConfigInspector()
    assert inspector.risks_for(str(repo))[0] == ()
    (repo / ".git" / "config").write_text("[core]\nbare = false\npager = less -evil\n")
    assert [r.key for r in inspector.risks_for(str(repo))[0]] == ["core.pager"]


def test_gitfile_worktree(tmp_path: Path) -> None:
    (tmp_path / "main").mkdir()
    main = _repo(tmp_path / "main", "[core]\nfsmonitor = x\n")
    wt_gitdir = main / ".git" / "worktrees" / "wt"
    wt_gitdir.mkdir(parents=True)
    (wt_gitdir / "commondir").write_text("../..\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {wt_gitdir}\n")
    assert find_config(str(wt)) == str(main / ".git" / "config")
    assert [r.key for r in GitConfigInspector().risks_for(str(wt))[0]] == ["core.fsmonitor"]


def test_no_repository(tmp_path: Path) -> None:
    found = find_config(str(tmp_path))
    assert found is None or not found.startswith(str(tmp_path))


def test_fifo_config_is_incomplete_not_a_hang(tmp_path: Path) -> None:
    import os

    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / ".git" / "config")
    assert GitConfigInspector().risks_for(str(tmp_path)) == ((), False)
