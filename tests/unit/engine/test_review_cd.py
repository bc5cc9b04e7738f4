"""Review CD (of this session's fixes): GNU's wrappers under Homebrew's names kept none of
their wrappers' checks (CD1, CD3: tested in `test_review_cc.py`); a hard link to a
relative symbolic link lands as that link (CD4: `ln cfg2/.vscode .`); a link's text is
followed by the system link by link, not tidied as text (CD5: `lnk2/../evil` with `lnk2 ->
a/b` is `a/evil`); zstd's and lzop's output folders (CD6), 7-Zip's `-spf` (CD7) and macOS's
`gzcat` (CD8). Real runs where the program is here."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import approved

from policylang import Verdict


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": ["CFG-MARKER"]}\n')
    (workspace / "cfg2").mkdir()
    (workspace / "cfg2" / ".vscode").symlink_to("cfg")  # dangling where it lies
    (workspace / "a" / "evil").mkdir(parents=True)
    (workspace / "a" / "b").mkdir()
    (workspace / "a" / "evil" / "tasks.json").write_text('{"tasks": ["EVIL-MARKER"]}\n')
    (workspace / "lnk2").symlink_to("a/b")
    (workspace / "cfg4").mkdir()
    (workspace / "cfg4" / ".vscode").symlink_to("lnk2/../evil")
    (workspace / "notes.txt").write_text("n\n")
    (tmp_path / "home").mkdir()
    return workspace


def _judge(workspace: Path, approval: str, line: str) -> Verdict:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return approved(approval).evaluate(line, workspace=str(workspace), env=environment).verdict


@pytest.mark.parametrize(
    ("approval", "line", "marker"),
    [
        ("ln", "ln cfg2/.vscode .", "CFG-MARKER"),
        ("ln", "ln -t . cfg2/.vscode", "CFG-MARKER"),
        ("ln", "ln -P cfg2/.vscode .vscode", "CFG-MARKER"),
        ("link", "link cfg2/.vscode .vscode", "CFG-MARKER"),
        ("mv", "mv cfg4/.vscode .", "EVIL-MARKER"),
        ("cp", "cp -P cfg4/.vscode .", "EVIL-MARKER"),
        ("ln", "ln cfg4/.vscode .", "EVIL-MARKER"),
        ("rsync", "rsync -l cfg4/.vscode .", "EVIL-MARKER"),
    ],
)
def test_a_link_landing_as_vscode_is_checked_from_where_it_lands(
    workspace: Path, approval: str, line: str, marker: str
) -> None:
    assert _judge(workspace, approval, line) is not Verdict.ALLOW
    if shutil.which(line.split()[0]) is None:
        return
    subprocess.run(["bash", "-c", line], cwd=workspace, check=True, timeout=30)
    assert marker in (workspace / ".vscode" / "tasks.json").read_text()


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("zstd", "zstd -d --output-dir-flat .vscode payload/tasks.json.zst"),
        ("zstd", "zstd -d --output-dir-mirror=out x.zst"),
        ("unzstd", "unzstd --output-dir-flat .vscode payload/tasks.json.zst"),
        ("lzop", "lzop -d -p.vscode x.lzo"),
        ("7z x", "7z x -spf -y x.7z"),
        ("7z x", "7z x -y -spf2 x.7z"),
        ("7z e", "7z e -spf x.7z"),
        ("gzcat", "gzcat -rf ."),
    ],
)
def test_output_folders_absolute_paths_and_gzcat_ask(
    workspace: Path, approval: str, line: str
) -> None:
    (workspace / ".env").write_text("ENV-MARKER\n")
    assert _judge(workspace, approval, line) is not Verdict.ALLOW


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("ln", "ln notes.txt notes2.txt"),
        ("ln", "ln -s notes.txt n.txt"),
        ("mv", "mv notes.txt n.txt"),
        ("zstd", "zstd -d x.zst"),
        ("gzcat", "gzcat x.gz"),
    ],
)
def test_the_everyday_spellings_stay_allowed(workspace: Path, approval: str, line: str) -> None:
    assert _judge(workspace, approval, line) is Verdict.ALLOW
