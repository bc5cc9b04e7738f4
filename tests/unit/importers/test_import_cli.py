"""`policylang import` as a real process: outputs, warnings on stderr, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from policylang.engine.policy import load_policy

from .conftest import FIXTURES


def policylang(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "policylang.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("fmt", "name", "code"),
    [
        ("claude-code", "claude-settings.json", 1),
        ("opencode", "opencode.jsonc", 0),
        ("gemini", "gemini-policy.toml", 1),
        ("codex", "codex-default.rules", 0),
    ],
)
def test_import_writes_a_loadable_policy(fmt: str, name: str, code: int, tmp_path: Path) -> None:
    out = tmp_path / "out.policy"
    proc = policylang("import", "--from", fmt, str(FIXTURES / name), "-o", str(out))
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    assert "rule(s) written to" in proc.stderr
    load_policy(out)


def test_import_to_stdout_with_warnings_on_stderr() -> None:
    proc = policylang("import", "--from", "opencode", str(FIXTURES / "opencode.jsonc"))
    assert proc.returncode == 0
    assert proc.stdout.startswith("# Imported by `policylang import --from opencode`")
    assert "policylang import: stricter: opencode.jsonc:16:" in proc.stderr


def test_import_json_report() -> None:
    proc = policylang("import", "--from", "codex", str(FIXTURES / "codex-default.rules"), "--json")
    report = json.loads(proc.stdout)
    assert report["format"] == "codex"
    assert report["rules"] == 5
    assert report["policy"].startswith("# Imported")
    assert {w["severity"] for w in report["warnings"]} == {"note"}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--from", "codex", "/nonexistent/x.rules"), "cannot read"),
        (("--from", "gemini", str(FIXTURES / "claude-settings.json")), "not TOML"),
    ],
)
def test_import_errors_exit_2(args: tuple[str, ...], needle: str) -> None:
    proc = policylang("import", *args)
    assert proc.returncode == 2
    assert needle in proc.stderr
    assert proc.stdout == ""


def test_codex_examples_take_the_stricter_verdict_of_the_converted_policy(tmp_path: Path) -> None:
    rules = tmp_path / "team.rules"
    rules.write_text('prefix_rule(pattern=["cat"], match=["cat $HOME/notes", "cat README"])\n')
    out = tmp_path / "team.policy"
    proc = policylang("import", "--from", "codex", str(rules), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert 'expect ask "cat $HOME/notes"' in text
    assert 'expect allow "cat README"' in text
    assert "stricter: `cat $HOME/notes`: the peer says allow, policylang says ask" in proc.stderr
    load_policy(out)  # passes its own expectations
