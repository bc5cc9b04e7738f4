"""Review HI1-HI4 (fixer BO): rsync's file destinations, `-d` with links, options popt
may alias, and its filter patterns.

HI2: with one source that is no folder and a destination that is no existing folder,
rsync's receiver names the file by the destination and works in its PARENT
(`get_local_name`), so a relative `--backup-dir` (`--partial-dir`, `-T`, `--link-dest`,
`--compare-dest`, `--copy-dest`) is read from there: `rsync -b --backup-dir=../.vscode pl/a
out/tasks.json` replaced the committed `.vscode/tasks.json` under the offered `rsync`,
where the engine had read `../.vscode` from `out/tasks.json/`. HI1: `-d`/`--dirs` copies a
folder's own entries, following links with `-L`/`--copy-unsafe-links`: `rsync -dL pl/
out/` copied the key `pl/k` led to. HI3: rsync reads popt's `~/.popt`, whose `exec` alias
runs a program for an option rsync does not have (`rsync --pw`). HI4: `--exclude .git` is
a pattern, which an approval's checks read as a path written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import decide, git_ok, run_real

from policylang import Verdict

_HAS_RSYNC = shutil.which("rsync") is not None
_TASKS = '{"tasks": []}\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A repository with a committed `.vscode/tasks.json`, `pl/a` (a payload), `pl/k`
    (a link to the home's key), `out/` holding old files, `src/`, and a home beside it."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".aws").mkdir()
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY\n")
    (home / ".bashrc").write_text("export A=1\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    git_ok(ws, "init", "-q")
    for folder in ("pl", "out", "src", "dst", "a", "b", ".vscode"):
        (ws / folder).mkdir()
    (ws / ".vscode" / "tasks.json").write_text(_TASKS)
    (ws / "pl" / "a").write_text("payload, longer than the old files\n")
    (ws / "out" / "tasks.json").write_text("old\n")
    (ws / "out" / ".bashrc").write_text("old\n")
    (ws / "src" / "s.txt").write_text("s\n")
    (ws / "a" / "x.txt").write_text("x\n")
    (ws / "a.txt").write_text("x\n")
    return ws


def _home(ws: Path) -> Path:
    return ws.parent / "home"


def _env(ws: Path) -> dict[str, str]:
    return {"HOME": str(_home(ws)), "PATH": "/usr/bin:/bin"}


def _offer(line: str, ws: Path) -> str:
    decision = decide(line, ws, _env(ws))
    assert decision.suggested_rule is not None, decision.explain()
    return decision.suggested_rule


def _verdict(line: str, ws: Path, *approvals: str) -> Verdict:
    return decide(line, ws, _env(ws), *approvals).verdict


def _guards(ws: Path, approval: str) -> None:
    """Ordinary copies keep the approval."""
    for line in (
        "rsync -av src/ dst/",
        "rsync -b --backup-dir=bak a/ b/",
        "rsync a.txt out/",
        "rsync pl/a out/",
        "rsync -b --backup-dir=bak pl/a out/x.txt",
        "rsync -b --backup-dir=../bak pl/a out/",
        "rsync -av --no-perms --no-times --xattrs src/ dst/",
        "rsync -d src/ dst/",
    ):
        decision = decide(line, ws, _env(ws), approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


# ------------------------------------------ HI2: a destination that names the file


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("rsync -b --backup-dir=../.vscode pl/a out/tasks.json", ".vscode/tasks.json"),
        ("rsync -b --backup-dir=../../home pl/a out/.bashrc", "../home/.bashrc"),
        ("rsync pl/a out/.bashrc -b --backup-dir ../../home", "../home/.bashrc"),
    ],
)
def test_hi2_a_backup_folder_is_read_from_the_file_destination_s_parent(
    workspace: Path, line: str, written: str
) -> None:
    approval = _offer("rsync pl/a out/", workspace)
    assert approval == "rsync"
    assert _verdict(line, workspace, approval) is not Verdict.ALLOW, line
    _guards(workspace, approval)
    if _HAS_RSYNC:
        # the premise: real rsync moves the old file to the folder read from `out/`
        target = workspace / written
        before = target.read_text()
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        assert target.read_text() == "old\n" != before


@pytest.mark.parametrize(
    "line",
    [
        "rsync -b --backup-dir=../../home/.ssh pl/a out/authorized_keys",
        "rsync --partial-dir=../.vscode pl/a out/tasks.json",
        "rsync --partial-dir=../../home pl/a out/.profile",
        "rsync -T ../../home pl/a out/x",
        "rsync --temp-dir=../../home/.ssh pl/a out/x",
        "rsync --copy-dest=../../home/.aws pl/a out/credentials",
        "rsync --compare-dest=../../home/.ssh pl/a out/x",
        "rsync -b --backup-dir=../.vscode pl/a out/tasks.json/../tasks.json",
        "rsync -b --backup-dir=../.vscode pl/a missing out/tasks.json",
    ],
)
def test_hi2_every_receiver_folder_is_read_from_both_bases(workspace: Path, line: str) -> None:
    """Where the spelling does not tell whether the destination names a folder, both
    it and its parent are checked (fail closed: a missing source drops out of rsync's
    list, which then holds one file)."""
    approval = _offer("rsync pl/a out/", workspace)
    assert _verdict(line, workspace, approval) is not Verdict.ALLOW, line


def test_hi2_a_hard_link_from_the_parent_s_folder_is_written_through(workspace: Path) -> None:
    """`--link-dest=../.vscode` with the file destination `out/tasks.json` hard-links it
    to `.vscode/tasks.json`, which a later write to `out/tasks.json` then writes."""
    shutil.copy2(workspace / ".vscode" / "tasks.json", workspace / "pl" / "tasks.json")
    (workspace / "out" / "tasks.json").unlink()
    link = "rsync --link-dest=../.vscode pl/tasks.json out/tasks.json"
    line = f"{link} && cp pl/a out/tasks.json"
    for current in (link, line):
        decision = decide(current, workspace, _env(workspace), "rsync", "cp")
        assert decision.verdict is not Verdict.ALLOW, decision.explain()
    _guards(workspace, "rsync")
    if _HAS_RSYNC:
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        assert (workspace / ".vscode" / "tasks.json").read_text() != _TASKS


# --------------------------------------------------- HI1: `-d` following links


@pytest.mark.parametrize(
    "line",
    [
        "rsync -dL pl/ out/",
        "rsync -d --copy-links pl/ out/",
        "rsync --dirs --copy-unsafe-links pl/ out/",
        "rsync -dk pl/ out/",
    ],
)
def test_hi1_dirs_with_links_followed_asks(workspace: Path, line: str) -> None:
    (workspace / "pl" / "k").symlink_to(_home(workspace) / ".ssh" / "id_rsa")
    approval = _offer("rsync pl/a out/", workspace)
    decision = decide(line, workspace, _env(workspace), approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    if _HAS_RSYNC and line != "rsync -dk pl/ out/":
        # the premise: the key lands in `out/`
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        assert (workspace / "out" / "k").read_text() == "PRIVATE KEY\n"


# ------------------------------------------------- HI3: options popt may alias


@pytest.mark.parametrize(
    "line",
    ["rsync --pw pl/a out/", "rsync -a src/ dst/ --frobnicate", "rsync --inp pl/a out/",
     "rsync -Q pl/a out/", "rsync --no-exclude src/ dst/"],
)  # fmt: skip
def test_hi3_an_option_not_in_rsync_s_table_asks(workspace: Path, line: str) -> None:
    approval = _offer("rsync pl/a out/", workspace)
    decision = decide(line, workspace, _env(workspace), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.rsync-option" for r in decision.reasons)
    _guards(workspace, approval)


def test_hi3_popt_s_configuration_is_a_start_up_file(workspace: Path) -> None:
    script = workspace.parent / "evil.sh"
    script.write_text("#!/bin/sh\necho RAN > \"$HOME/ran\"\n")
    script.chmod(0o755)
    write = f"echo 'rsync exec --pw {script}' >> ~/.popt"
    for approvals in ((), ("echo",)):
        assert _verdict(write, workspace, *approvals) is Verdict.DENY
    assert _verdict("cp pl/a ~/.popt", workspace, "cp") is Verdict.DENY
    if _HAS_RSYNC:
        # the premise: with the alias, `rsync --pw` runs the script
        assert run_real(["bash", "-c", write], workspace).returncode == 0
        run_real(["rsync", "--pw", "pl/a", "out/"], workspace)
        assert (_home(workspace) / "ran").read_text() == "RAN\n"


# ------------------------------------------------------ HI4: filter patterns


@pytest.mark.parametrize(
    "line",
    ["rsync -a --exclude .git src/ dst/", "rsync -a --exclude=.env src/ dst/",
     "rsync -a --include=.claude --exclude='*' src/ dst/", "rsync -a src/ dst/ --exclude .git"],
)  # fmt: skip
def test_hi4_an_exclude_pattern_is_no_path(workspace: Path, line: str) -> None:
    (workspace / ".env").write_text("SECRET=1\n")
    approval = _offer("rsync -a src/ dst/", workspace)
    decision = decide(line, workspace, _env(workspace), approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    # (guards: a filter rule may merge a file, a path operand is still judged)
    for guard in ("rsync -a --filter='. .env' src/ dst/", "rsync -a --exclude .git .env dst/",
                  "rsync -a --exclude .git src/ .git/"):  # fmt: skip
        assert _verdict(guard, workspace, approval) is Verdict.DENY, guard
