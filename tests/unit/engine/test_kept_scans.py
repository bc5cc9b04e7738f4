"""A recursive read's listing is kept by the stamp of every folder it listed
(`subtree.scan`): a long-lived policy still sees every change made between lines."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policylang import Verdict, load_policy
from policylang.engine import paths, subtree

pytestmark = pytest.mark.source  # (the guard below is a module global of the source)


@pytest.fixture(autouse=True)
def _every_folder_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    # folders changed less than 3 s before they were read are not kept; here every folder
    # is, so that what is kept is what decides
    monkeypatch.setattr(paths, "_SETTLED_NS", -(10**18))
    monkeypatch.setattr(subtree, "_KEPT_SCANS", {})


def _tick() -> None:
    # the next change comes a clock tick later: with the guard off, a change in the tick
    # of the listing could keep its folder's stamp (which is what the guard is for)
    time.sleep(0.02)


def _tree(root: Path) -> None:
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "a.py").write_text("a\n")
    (root / "docs").mkdir()
    (root / "README").write_text("r\n")


def _fresh(root: Path, **how: object) -> subtree.TreeScan:
    found, _kept = subtree._scan(str(root), **{**_DEFAULTS, **how})  # type: ignore[arg-type]
    return found


_DEFAULTS: dict[str, object] = {
    "hidden": True, "budget": 1000, "skip": frozenset(), "admit": (), "cwds": (),
}  # fmt: skip


def _same(kept: subtree.TreeScan, fresh: subtree.TreeScan) -> None:
    assert sorted(kept.entries) == sorted(fresh.entries)
    assert sorted(kept.links) == sorted(fresh.links)
    assert kept.complete == fresh.complete
    assert sorted(kept.ignore_files) == sorted(fresh.ignore_files)
    assert kept.unsure == fresh.unsure


def test_a_listing_is_kept_and_each_change_below_is_seen(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _tree(root)
    first = subtree.scan(str(root), hidden=True, budget=1000)
    again = subtree.scan(str(root), hidden=True, budget=1000)
    assert again.entries is first.entries  # kept: the same listing
    changes = [
        lambda: (root / "src" / "deep" / ".env").write_text("KEY=1\n"),  # made deep down
        lambda: (root / "src" / "deep").rename(root / "src" / "moved"),  # renamed
        lambda: (root / "docs" / "link").symlink_to(tmp_path),  # a link made
        lambda: shutil.rmtree(root / "src" / "moved"),  # a folder removed
        lambda: (root / "README").unlink(),
    ]
    for change in changes:
        _tick()
        change()
        seen = subtree.scan(str(root), hidden=True, budget=1000)
        _same(seen, _fresh(root))


def test_a_folder_replaced_by_another_is_seen(tmp_path: Path) -> None:
    """A folder swapped for another by two renames (its parent's stamp may be the same
    as before where both renames fall in one tick): the swapped-in folder's own inode
    differs."""
    root = tmp_path / "ws"
    _tree(root)
    other = tmp_path / "other"
    other.mkdir()
    (other / ".env").write_text("KEY=1\n")
    subtree.scan(str(root), hidden=True, budget=1000)
    _tick()
    os.rename(root / "docs", tmp_path / "old-docs")
    os.rename(other, root / "docs")
    seen = subtree.scan(str(root), hidden=True, budget=1000)
    assert str(root / "docs" / ".env") in seen.entries


def test_where_a_kept_link_leads_is_looked_up_again(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _tree(root)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    hop = tmp_path / "hop"
    hop.symlink_to(tmp_path / "a")
    (root / "docs" / "l").symlink_to(hop)
    first = subtree.scan(str(root), hidden=True, budget=1000)
    assert (str(root / "docs" / "l"), str(tmp_path / "a")) in first.links
    _tick()
    hop.unlink()
    hop.symlink_to(tmp_path / "b")  # outside the tree: no folder of it changes
    seen = subtree.scan(str(root), hidden=True, budget=1000)
    assert seen.entries is first.entries
    assert (str(root / "docs" / "l"), str(tmp_path / "b")) in seen.links


def test_a_git_files_exclude_place_is_looked_up_again(tmp_path: Path) -> None:
    """What a `.git` file's `gitdir:` names may change with no folder of the tree
    changing (the file's contents): its exclude files are read again on each use."""
    root = tmp_path / "ws"
    _tree(root)
    (tmp_path / "g1").mkdir()
    (tmp_path / "g2").mkdir()
    dot_git = root / "src" / ".git"
    dot_git.write_text(f"gitdir: {tmp_path / 'g1'}\n")
    first = subtree.scan(str(root), hidden=False, budget=1000)
    assert str(tmp_path / "g1" / "info" / "exclude") in first.ignore_files
    _tick()
    with open(dot_git, "r+") as handle:  # the same size, written in place
        handle.write(f"gitdir: {tmp_path / 'g2'}\n")
    seen = subtree.scan(str(root), hidden=False, budget=1000)
    assert str(tmp_path / "g2" / "info" / "exclude") in seen.ignore_files
    assert str(tmp_path / "g1" / "info" / "exclude") not in seen.ignore_files


def test_an_unsettled_or_incomplete_listing_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    _tree(root)
    assert subtree.scan(str(root), hidden=True, budget=2).complete is False
    assert not subtree._KEPT_SCANS
    monkeypatch.setattr(paths, "_SETTLED_NS", 3_000_000_000)  # just made: not settled
    subtree.scan(str(root), hidden=True, budget=1000)
    assert not subtree._KEPT_SCANS


def test_a_long_lived_policy_sees_a_protected_file_made_between_lines(tmp_path: Path) -> None:
    root, home = tmp_path / "ws", tmp_path / "home"
    _tree(root)
    home.mkdir()
    policy = load_policy(snapshot=False, decision_cache=0)
    env = {"HOME": str(home)}
    for _ in range(2):
        decision = policy.evaluate("grep -r KEY .", workspace=str(root), env=env)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
    _tick()
    (root / "src" / "deep" / ".env").write_text("KEY=1\n")
    decision = policy.evaluate("grep -r KEY .", workspace=str(root), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()
    decision = policy.evaluate("rg KEY", workspace=str(root), env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()  # rg skips hidden files
    _tick()
    (root / "src" / ".ignore").write_text("!.env\n")  # unless an ignore file says so
    decision = policy.evaluate("rg KEY", workspace=str(root), env=env)
    assert decision.verdict is Verdict.DENY, decision.explain()


_NAMES = st.sampled_from(["a", "b", ".env", ".h", "c"])
_STEPS = st.lists(
    st.tuples(st.sampled_from(["file", "dir", "link", "remove", "rename"]), _NAMES, _NAMES),
    max_size=12,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=_STEPS, hidden=st.booleans())
def test_a_kept_listing_is_always_what_a_fresh_one_is(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str, str]], hidden: bool
) -> None:
    """Property: after any sequence of changes, each made between two scans, the scan
    (kept or not) lists what a fresh listing lists."""
    root = tmp_path_factory.mktemp("ws")
    subtree._KEPT_SCANS.clear()
    for kind, name, other in steps:
        subtree.scan(str(root), hidden=hidden, budget=1000)
        _tick()
        folder = root / name if (root / name).is_dir() and not (root / name).is_symlink() else root
        target = folder / other
        if kind == "file" and not os.path.lexists(target):
            target.write_text("x\n")
        elif kind == "dir" and not os.path.lexists(target):
            target.mkdir()
        elif kind == "link" and not os.path.lexists(target):
            target.symlink_to(root)
        elif kind == "remove" and os.path.lexists(target):
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink()
        elif kind == "rename" and os.path.lexists(target) and not os.path.lexists(root / other):
            os.rename(target, root / other)
        _same(subtree.scan(str(root), hidden=hidden, budget=1000), _fresh(root, hidden=hidden))
