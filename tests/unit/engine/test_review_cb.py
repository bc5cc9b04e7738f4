"""Review CB (all under approvals): options that name files no path check saw, and long
options spelt short. `echo tasks.json | rsync --files-from=- cfg .vscode/` wrote
`.vscode/tasks.json` (CB1); `echo ~/.ssh/id_rsa | xz -dcf --files` and `zstd --filelist`
printed what the list named (CB2); `gunzip` had no path rule, so `gunzip -rcf fix` read
through a shipped `fix/hl -> ~` (CB3); `zip --recurse-patt`, `gzip --to` are
`--recurse-patterns` and `--to-stdout` (CB4, CB5). Real runs where the program is here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, run_real

from policylang import Verdict


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    workspace = tmp_path / "ws"
    (workspace / "fix").mkdir(parents=True)
    (workspace / "fix" / "hl").symlink_to(home)
    (workspace / "cfg").mkdir()
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": []}\n')
    (workspace / "docs").mkdir()
    (workspace / "docs" / "a.md").write_text("a\n")
    (workspace / ".env").write_text("TOKEN=ENV-MARKER\n")
    return home


@pytest.mark.parametrize(
    ("approval", "line", "effect"),
    [
        ("rsync", "echo tasks.json | rsync --files-from=- cfg .vscode/", ".vscode/tasks.json"),
        ("xz", "echo ~/.ssh/id_rsa | xz -dcf --files", "SSH-MARKER"),
        ("xz", "printf '%s\\0' ~/.ssh/id_rsa | xz -dcf --files0", "SSH-MARKER"),
        ("zstd", "zstd -dcf --filelist=names", "SSH-MARKER"),
        ("gunzip", "gunzip -rcf fix", "SSH-MARKER"),
        ("zip", "zip -0 --recurse-patt - '.e*'", "ENV-MARKER"),
        ("zip", "zip -0 --recurse-path - fix", "SSH-MARKER"),
        ("gzip", "gzip -r --to fix | gzip -dc", "SSH-MARKER"),
    ],
)
def test_files_named_where_no_path_check_looked(
    home: Path, approval: str, line: str, effect: str
) -> None:
    workspace = home.parent / "ws"
    (workspace / "names").write_text(f"{home}/.ssh/id_rsa\n")
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    program = line.split("|")[-1].split()[0] if line.startswith("echo") else line.split()[0]
    if shutil.which(program) is None:
        return  # (the verdict alone: not installed here)
    done = run_real(["bash", "-c", line + " | tr -c '[:print:]\\n' ."], workspace, home)
    if effect.startswith("."):
        assert (workspace / effect).is_file()
    else:
        assert effect in done.stdout


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("gunzip", "gunzip -c docs.gz"),
        ("gzip", "gzip -rc docs"),
        ("gzip", "gzip -r --to docs"),
        ("rsync", "rsync -a docs/ out/"),
        ("zip", "zip -r out.zip docs"),
    ],
)
def test_the_everyday_spellings_stay_allowed(home: Path, approval: str, line: str) -> None:
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    decision = approved(approval).evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
