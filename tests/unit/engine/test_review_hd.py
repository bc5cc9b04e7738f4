"""Review HD: attacks on the tree-copied-onto-a-folder check (HA1/HA3) and the approvals
reader.

HD1: `rsync --write-devices` implies `--inplace`: it wrote through `out/notes`, a hard
link of `.git/config`, under the engine's own suggested approval `rsync`.
HD2: the whole-target check of a copy whose source is made in the line skipped folders
named `build`, `out`, `node_modules`…; HD3: it ignored a listing cut short at the budget.
HD4: past 5,000 packages in `node_modules`, a clone's `.git/config` was not looked for.
HD5: a symbolic link as the approvals file was replaced by a regular file on a write.
HD6: non-string entries of `allow` were dropped without a log line."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest
from realrun import decide, git_ok, printed, run_real

from policylang import Verdict
from policylang.engine.approvals import Approvals

_ORIGINAL = "original\n"
_PAYLOAD = "PAYLOAD\n"
_APPROVED = ("cp", "rsync")
_NEEDS_RSYNC = pytest.mark.skipif(shutil.which("rsync") is None, reason="needs rsync")


def _env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _setup(tmp_path: Path, link: str) -> tuple[Path, Path]:
    """A repository holding `pl/<link>` (the payload) and `out/<link>`, a hard link of
    `.git/config`; returns the workspace and the config's path."""
    workspace = tmp_path / "ws"
    (tmp_path / "home").mkdir(parents=True)
    workspace.mkdir()
    git_ok(workspace, "init", "-q")
    source = workspace / "pl" / link
    source.parent.mkdir(parents=True)
    source.write_text(_PAYLOAD)
    (workspace / "out").mkdir()
    (workspace / "out" / "other.txt").write_text("o\n")
    config = workspace / ".git" / "config"
    config.write_text(_ORIGINAL)
    landing = workspace / "out" / link
    landing.parent.mkdir(parents=True, exist_ok=True)
    os.link(config, landing)
    return workspace, config


def _judged_then_run(tmp_path: Path, link: str, line: str) -> Verdict:
    """The verdict on `line` under the approvals `cp` and `rsync`; the line is then run
    for real and must have written the config through its hard link (the premise)."""
    workspace, config = _setup(tmp_path, link)
    decision = decide(line, workspace, _env(tmp_path / "home"), *_APPROVED)
    printed(["bash", "-c", line], workspace)
    assert config.read_text() == _PAYLOAD, line
    return decision.verdict


@_NEEDS_RSYNC
def test_hd1_rsync_write_devices_writes_in_place(tmp_path: Path) -> None:
    lines = ("rsync -r --write-devices pl/ out/", "rsync -a --write-devices pl/ out/")
    for number, line in enumerate(lines):
        verdict = _judged_then_run(tmp_path / str(number), "notes", line)
        assert verdict is Verdict.DENY, line
    line = "rsync -r pl/ q/ && rsync -r --write-devices q/ out/"
    assert _judged_then_run(tmp_path / "made", "notes", line) is not Verdict.ALLOW
    # an abbreviation is no way around it (rsync 3.5 refuses it; one that takes it would not)
    workspace, _config = _setup(tmp_path / "short", "notes")
    for line in ("rsync -r --write-d pl/ out/", "rsync -r --inp pl/ out/", "rsync -r --ap pl/ out"):
        decision = decide(line, workspace, _env(tmp_path / "short" / "home"), *_APPROVED)
        assert decision.verdict is not Verdict.ALLOW, line
    # everyday rsync, which renames a new file over the name, stays allowed
    decision = decide("rsync -a pl/ out/", workspace, _env(tmp_path / "short" / "home"), *_APPROVED)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@_NEEDS_RSYNC
def test_hd2_a_copy_with_a_source_made_in_the_line_enters_build_folders(tmp_path: Path) -> None:
    for number, folder in enumerate(("build", "node_modules", "target")):
        line = "rsync -r pl/ q/ && rsync -r --inplace q/ out/"
        verdict = _judged_then_run(tmp_path / str(number), f"{folder}/notes", line)
        assert verdict is Verdict.ASK, (folder, verdict)


@_NEEDS_RSYNC
def test_hd3_a_target_past_the_listing_budget_asks(tmp_path: Path) -> None:
    workspace, config = _setup(tmp_path, "zz/notes")
    big = workspace / "out" / "big"
    big.mkdir()
    for number in range(20_500):
        (big / str(number)).touch()
    line = "rsync -r pl/ q/ && rsync -r --inplace q/ out/"
    decision = decide(line, workspace, _env(tmp_path / "home"), *_APPROVED)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.tree-budget" in decision.explain()
    printed(["bash", "-c", line], workspace)
    assert config.read_text() == _PAYLOAD


def test_hd4_a_node_modules_past_the_package_cap_asks(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    home = tmp_path / "home"
    home.mkdir()
    (workspace / "pl").mkdir(parents=True)
    git_ok(workspace, "init", "-q")
    canary = tmp_path / "PWNED"
    (workspace / "pl" / "notes").write_text(f'[core]\n\tfsmonitor = "touch {canary}; false"\n')
    (workspace / "src.txt").write_text("s\n")
    modules = workspace / "node_modules"
    modules.mkdir()
    for number in range(6_000):
        (modules / f"p{number}").mkdir()
    last = [entry.name for entry in os.scandir(modules)][-1]  # past the cap in any order
    git_ok(modules / last, "init", "-q")
    os.link(modules / last / ".git" / "config", workspace / "nmcfg")
    env = _env(home)
    decision = decide("cp pl/notes nmcfg", workspace, env, "cp")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    # a copy onto a file with one name stays allowed
    decision = decide("cp src.txt other.txt", workspace, env, "cp")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    # the premise: the copy writes the clone's config, and git there runs the payload
    printed(["cp", "pl/notes", "nmcfg"], workspace)
    run_real(["git", "-C", f"node_modules/{last}", "status"], workspace)
    assert canary.exists()


def test_hd5_a_symbolic_link_as_the_approvals_file_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "approvals.toml"
    real.parent.mkdir()
    real.write_text('allow = ["rsync", "npm run build"]\n')
    link = tmp_path / "config" / "approvals.toml"
    link.parent.mkdir()
    link.symlink_to(real)
    store = Approvals(link)
    store.add("git status", persist=True)
    assert store.remove("rsync")
    assert link.is_symlink()
    # a process given the file's real name no longer holds the revoked approval
    assert Approvals(real).rules() == ("git status", "npm run build")
    assert "rsync" not in real.read_text()


def test_hd6_non_string_entries_are_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "approvals.toml"
    path.write_text('allow = ["rsync", 1, ["x"], "npm run build"]\n')
    with caplog.at_level(logging.WARNING, logger="policylang.engine.approvals"):
        assert Approvals(path).rules() == ("npm run build", "rsync")
    skipped = [r for r in caplog.records if "not a string" in r.getMessage()]
    assert len(skipped) == 2, caplog.text
    caplog.clear()
    path.write_text('[[allow]]\nx = "rsync"\n')
    with caplog.at_level(logging.WARNING, logger="policylang.engine.approvals"):
        assert Approvals(path).rules() == ()
    assert "not a string" in caplog.text
