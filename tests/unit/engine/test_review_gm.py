"""Review GM, of the checkers' walk (review GK3).

GM1: mypy follows an import into any folder named like a module, `node_modules` and
`__pycache__` included, which the walk skipped. GM2: mypy puts a file operand's own folder
on its search path (`mypy .hidden/a.py` imported `.hidden/leak.py`). GM3: `flake8
--exclude=foo` replaces flake8's default skips, so `.tox` is walked. GM4: flake8 skips a
configuration file it cannot decode and reads the next one, whose `exclude` may drop the
defaults. Each link to `.env` was printed by the real checker (mypy's error names the
undefined word, flake8 with `show-source` the whole line)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_MYPY = Path(sys.executable).parent / "mypy"
_FLAKE8 = Path("/tmp/review-GK/bin/flake8")  # (the reviewer's; flake8 is not installed)


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    return canary_workspace(tmp_path, "canaryGM\n", {"app.py": "x = 1\n"})


@pytest.mark.parametrize("folder", ["node_modules", "__pycache__", "site-packages"])
def test_gm1_mypy_follows_an_import_into_any_folder(tmp_path: Path, folder: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide("mypy app.py", workspace, env).suggested_rule == "mypy"
    (workspace / folder).mkdir()
    (workspace / folder / "evil.py").symlink_to("../.env")
    module = folder.replace("-", "_")
    if folder != "site-packages":
        (workspace / "app.py").write_text(f"import {module}.evil\n")
        if _MYPY.exists():  # what mypy does: the link's word is in its error
            printed = program_printed([str(_MYPY), "--no-incremental", "app.py"], workspace)
            assert "canaryGM" in printed
    decision = decide("mypy app.py", workspace, env, "mypy")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_gm2_mypy_searches_a_file_operands_folder(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    hidden = workspace / ".hidden"
    hidden.mkdir()
    (hidden / "a.py").write_text("import leak\n")
    (hidden / "leak.py").symlink_to("../.env")
    if _MYPY.exists():
        printed = program_printed([str(_MYPY), "--no-incremental", ".hidden/a.py"], workspace)
        assert "canaryGM" in printed
    decision = decide("mypy .hidden/a.py", workspace, env, "mypy")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _tox_link(workspace: Path) -> None:
    (workspace / ".tox").mkdir()
    (workspace / ".tox" / "leak.py").symlink_to("../.env")


@pytest.mark.parametrize(
    "line", ["flake8 --exclude=foo", "flake8 --isolated --exclude foo", "flake8 --exclu=foo"]
)
def test_gm3_flake8_exclude_on_the_line_replaces_the_defaults(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    _tox_link(workspace)
    assert decide("flake8", workspace, env, "flake8").verdict is Verdict.ALLOW  # (skipped)
    if _FLAKE8.exists():
        assert "canaryGM" in program_printed([str(_FLAKE8), "--exclude=foo"], workspace)
    decision = decide(line, workspace, env, "flake8")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_gm4_an_undecodable_configuration_leaves_nothing_skipped(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _tox_link(workspace)
    (workspace / "setup.cfg").write_bytes(b"[metadata]\nname = caf\xe9\n")
    (workspace / "tox.ini").write_text("[flake8]\nexclude = foo\nshow-source = true\n")
    if _FLAKE8.exists():  # flake8 skips setup.cfg and takes tox.ini's `exclude`
        assert "canaryGM" in program_printed([str(_FLAKE8)], workspace)
    decision = decide("flake8", workspace, env, "flake8")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
