"""Review FL11: the approval of `ruff check app.py` (`ruff check`) or `black --check
app.py` (`black`) covered `ruff check .` and `black .`, which check, print and rewrite the
files the repository's own configuration picks: a committed `ruff.toml` with `include =
["*.py", ".env"]` and `respect-gitignore = false` makes `ruff check` print `.env`'s lines.
An approved ruff or black now asks where a configuration file it reads (in the folder, above
it, or for ruff anywhere in the workspace) sets which files it reads or where it writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from realrun import canary_environment, judge

from policylang import Verdict

CANARY = "canary-FL-env-42"
RUFF = Path(sys.executable).parent / "ruff"


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    (workspace / ".env").write_text(f"SECRET={CANARY}\n")
    (workspace / ".gitignore").write_text("/.env\n")
    (workspace / "app.py").write_text("x = 1\n")
    return workspace


def _ruff(workspace: Path, *args: str) -> str:
    done = subprocess.run([str(RUFF), *args], cwd=workspace, capture_output=True, text=True,
                          env=canary_environment(workspace), timeout=60)  # fmt: skip
    return done.stdout + done.stderr


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is not installed beside this Python")
@pytest.mark.parametrize("config", ["ruff.toml", "sub/ruff.toml"])
def test_ruff_follows_the_configuration_to_env(tmp_path: Path, config: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".env").write_text(f"SECRET={CANARY}\n")
    (workspace / config).write_text('include = ["*.py", ".env"]\nrespect-gitignore = false\n')
    assert CANARY in _ruff(workspace, "check", "--no-cache", ".")
    approval = judge("ruff check app.py", workspace).suggested_rule
    assert approval is None  # (its approval would not let `ruff check app.py` through)
    for line in ("ruff check", "ruff check .", "ruff check --fix", "ruff format ."):
        decision = judge(line, workspace, "ruff check", "ruff format")
        assert decision.verdict is Verdict.ASK, line
        assert "engine.linter-config" in decision.explain()


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is not installed beside this Python")
def test_ruff_without_such_settings_stays_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text(
        '[tool.ruff]\nline-length = 100\nextend-exclude = ["build"]\n'
    )
    assert CANARY not in _ruff(workspace, "check", "--no-cache", ".")
    assert judge("ruff check app.py", workspace).suggested_rule == "ruff check"
    assert judge("ruff check .", workspace, "ruff check").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "settings",
    ["[tool.black]\ninclude = '(\\\\.pyi?|\\\\.env)$'\nexclude = '/nothing/'\n",
     "[tool.black]\nexclude = '/nothing/'\n"],
)  # fmt: skip
def test_black_follows_the_pyproject_of_the_project(tmp_path: Path, settings: str) -> None:
    """(black is not installed here: its `include`/`exclude` settings are read from the
    project's pyproject.toml, and `exclude` turns off its use of .gitignore)"""
    workspace = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text(settings)
    assert judge("black --check app.py", workspace).suggested_rule is None
    for line in ("black --check .", "black --diff .", "black ."):
        assert judge(line, workspace, "black").verdict is Verdict.ASK, line


def test_black_without_such_settings_stays_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    assert judge("black --check app.py", workspace).suggested_rule == "black"
    assert judge("black .", workspace, "black").verdict is Verdict.ALLOW


def test_an_unreadable_configuration_counts(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ruff.toml").write_text("include = [\n")  # (not TOML)
    assert judge("ruff check .", workspace, "ruff check").verdict is Verdict.ASK
