"""The command's entry point: subcommand dispatch and a reader that goes away."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from policylang.cli.main import SUBCOMMANDS, build_parser, main


def test_every_subcommand_registers() -> None:
    parser = build_parser()
    help_text = parser.format_help()
    for name in SUBCOMMANDS:
        assert name in help_text


def test_unknown_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_closed_pipe_is_not_a_traceback(tmp_path: Path) -> None:
    """`policylang eval --jsonl … | head -1` must end quietly, not with a traceback."""
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps({"command": f"ls dir{i}"}) + "\n" for i in range(20_000)))
    with batch.open("rb") as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "policylang.cli.main", "eval", "--jsonl"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None
        assert proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader goes away, as `head -1` does
        err = proc.stderr.read().decode()
        proc.stderr.close()
        proc.wait(timeout=120)
    assert json.loads(first)["command"] == "ls dir0"
    assert "Traceback" not in err
    assert proc.returncode == 141


def test_version_and_an_unreadable_policy_are_plain(capsys: pytest.CaptureFixture[str]) -> None:
    # review AR13: no `--version`; `[Errno 2] No such file or directory: '…'`
    from policylang import __version__, _native
    from policylang.cli.main import main as cli

    with pytest.raises(SystemExit) as exit_info:
        cli(["--version"])
    assert exit_info.value.code == 0
    # the version, and which engine runs (compiled or source, and why)
    version = " ".join(capsys.readouterr().out.split())
    assert version == f"policylang {__version__} (engine: {_native.STATUS})"
    assert cli(["eval", "--policy", "/nonexistent/p.policy", "ls"]) == 1
    assert capsys.readouterr().err.strip() == (
        "policylang: cannot read /nonexistent/p.policy: No such file or directory")
