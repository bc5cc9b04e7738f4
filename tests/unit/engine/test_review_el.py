"""Review EL: the CLI judges as the API does.

EL1: `eval --jsonl` kept each (cwd, workspace)'s context, with its folders' links resolved,
for the life of the process: once the working folder was replaced by a link into
`~/.ssh` (an approved `git checkout` of a branch that commits it), `grep -r KEY` was still
judged as reading the old folder, and printed the keys under an allow.
EL3: `policylang explain` judged without the process's environment (no PATH), and
explained `allow` where `eval` decides `ask`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from policylang.cli.main import main


def _setting(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "sub" / "a.txt").write_text("nothing here\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "notes").write_text("CANARY_EL1 PRIVATE\n")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    return workspace, ssh, env


def test_jsonl_judges_each_line_by_the_folders_as_they_are_then(tmp_path: Path) -> None:
    workspace, ssh, env = _setting(tmp_path)
    sub = workspace / "sub"
    process = subprocess.Popen(
        [sys.executable, "-m", "policylang.cli.main", "eval", "--jsonl", "--jobs", "1",
         "--workspace", str(workspace)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert process.stdin is not None
    assert process.stdout is not None

    def verdict(command: str, cwd: Path | None) -> str:
        item: dict[str, str] = {"command": command}
        if cwd is not None:
            item["cwd"] = str(cwd)
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write(json.dumps(item) + "\n")
        process.stdin.flush()
        return str(json.loads(process.stdout.readline())["verdict"])

    try:
        assert verdict("grep -r PRIVATE", sub) == "allow"
        assert verdict("grep -r PRIVATE", None) == "allow"
        # the folder becomes a link into ~/.ssh between two lines
        (sub / "a.txt").unlink()
        sub.rmdir()
        sub.symlink_to(ssh)
        done = subprocess.run(["bash", "-c", "grep -r PRIVATE"], cwd=sub, env=env,
                              capture_output=True, text=True, timeout=60, check=False)
        assert "CANARY_EL1" in done.stdout  # what an allow would have let out
        assert verdict("grep -r PRIVATE", sub) == "deny"
        assert verdict("ls", sub) == "deny"
        # and the workspace itself, the context of lines that give no cwd
        workspace.rename(tmp_path / "ws-old")
        workspace.symlink_to(ssh)
        assert verdict("grep -r PRIVATE", None) == "deny"
    finally:
        process.stdin.close()
        process.stdout.close()
        assert process.wait(timeout=30) == 0


def test_explain_judges_with_the_process_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = tmp_path / "ws"
    (workspace / "bin").mkdir(parents=True)
    planted = workspace / "bin" / "cat"
    planted.write_text("#!/bin/sh\necho planted\n")
    planted.chmod(0o755)
    (workspace / "README").write_text("hi\n")
    monkeypatch.setenv("PATH", f"{workspace / 'bin'}{os.pathsep}/usr/bin:/bin")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert main(["eval", "--workspace", str(workspace), "cat README"]) == 0
    assert capsys.readouterr().out.startswith("ask")
    assert main(["explain", "--workspace", str(workspace), "cat README"]) == 0
    shown = capsys.readouterr().out
    assert "verdict: ask" in shown
    assert "engine.path-program" in shown
