"""Review GK1, GK2, GK3, GK5: what an approved checker (mypy, pylint, flake8) still did.
GK1: only the first MiB of its configuration file was read, so `plugins = evil.py` below
a padding ran. GK2: pylint turns each setting into `--key value`, so the value of a key
that takes none (`exit-zero = --output-format=text:~/.bashrc`) is an option. GK3: a
checker walks folders the line does not name (bare `flake8` walks `.`, mypy the `files`
of its configuration and the modules it imports), and followed the links there to
`~/.ssh/id_rsa`. GK5: with HOME the workspace, mypy's `~/.config/mypy/config` is the
repository's. The real mypy shows each premise; pylint and flake8 where the reviewer
installed them (/tmp/review-GK)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from realrun import (
    approved,
    canary_environment,
    canary_workspace,
    git_out,
    judge,
    program_printed,
)

from policylang import Verdict

CANARY = "canary-GK-env-7"
MYPY = Path(sys.executable).parent / "mypy"
REVIEW_BIN = Path("/tmp/review-GK/bin")
EVIL = """print("PWNED:", open(".env").read())


def plugin(version):
    from mypy.plugin import Plugin

    return Plugin
"""
needs_mypy = pytest.mark.skipif(not MYPY.exists(), reason="mypy is not installed here")


def _workspace(tmp_path: Path) -> Path:
    workspace, _ = canary_workspace(
        tmp_path, f"SECRET={CANARY}\n", {"app.py": "x = 1\n"},
        home={".ssh/id_rsa": "canary-GK-ssh\n"},
    )  # fmt: skip
    git_out(workspace, "init", "-q")
    return workspace


def _run(args: list[str], workspace: Path, env: dict[str, str]) -> str:
    return program_printed(args, workspace, env, timeout=180)


def _mypy(workspace: Path, env: dict[str, str] | None = None, *args: str) -> str:
    env = env or canary_environment(workspace)
    return _run([str(MYPY), "--no-incremental", *args], workspace, env)


@needs_mypy
@pytest.mark.parametrize(
    ("config", "text"),
    [("mypy.ini", "[mypy]\n" + ("# " + "a" * 1000 + "\n") * 1100 + "plugins = evil.py\n"),
     ("pyproject.toml", "#" + "a" * (1 << 20) + '\n[tool.mypy]\nplugins = ["evil.py"]\n')],
)  # fmt: skip
def test_gk1_a_padded_configuration_asks(tmp_path: Path, config: str, text: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "evil.py").write_text(EVIL)
    (workspace / config).write_text(text)
    assert CANARY in _mypy(workspace, None, "app.py")  # (the premise: the plugin ran)
    decision = judge("mypy app.py", workspace, "mypy")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.linter-config" in decision.explain()


def test_gk1_a_padded_ruff_configuration_asks(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "ruff.toml").write_text("#" + "a" * (1 << 20) + '\ninclude = [".env"]\n')
    decision = judge("ruff check app.py", workspace, "ruff check")
    assert decision.verdict is Verdict.ASK, decision.explain()


def _pylint_workspace(tmp_path: Path) -> tuple[Path, Path]:
    workspace = _workspace(tmp_path)
    home = tmp_path / "home"
    (home / ".bashrc").write_text("# the user's\n")
    (workspace / "pylintrc").write_text(
        f"[MAIN]\nexit-zero = --output-format=text:{home}/.bashrc\n"
        "[MESSAGES CONTROL]\nmsg-template = echo PWNED; cat $PWD/.env #{path}\n"
    )
    (workspace / "app.py").write_text("import os\n")
    return workspace, home


def test_gk2_a_pylint_value_that_is_an_option_asks(tmp_path: Path) -> None:
    workspace, home = _pylint_workspace(tmp_path)
    if (REVIEW_BIN / "pylint").exists():  # (the premise, where pylint is installed)
        env = canary_environment(workspace, PATH=f"{REVIEW_BIN}:/usr/bin:/bin")
        _run([str(REVIEW_BIN / "pylint"), "app.py"], workspace, env)
        assert "PWNED" in (home / ".bashrc").read_text()
    for line in ("pylint app.py", "pylint ."):
        decision = judge(line, workspace, "pylint")
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert "engine.linter-config" in decision.explain()


def test_gk2_ordinary_pylint_values_stay_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pylintrc").write_text(
        "[MAIN]\njobs = 0\nfail-under = -5\n[MESSAGES CONTROL]\ndisable = C0114,C0115\n"
    )
    assert judge("pylint app.py", workspace, "pylint").verdict is Verdict.ALLOW


def _linked(workspace: Path, folder: str = ".") -> None:
    (workspace / folder).mkdir(exist_ok=True)
    os.symlink(workspace.parent / "home" / ".ssh" / "id_rsa", workspace / folder / "key.py")


@needs_mypy
def test_gk3_mypy_walks_the_folders_its_configuration_names(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace, "src")
    (workspace / "setup.cfg").write_text("[mypy]\nfiles = src\npretty = True\n")
    assert "canary-GK-ssh" in _mypy(workspace)  # (the premise: mypy printed the key)
    decision = judge("mypy", workspace, "mypy")
    assert decision.verdict is Verdict.DENY, decision.explain()


@needs_mypy
def test_gk3_mypy_reads_the_modules_a_file_imports(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace)
    (workspace / "app.py").write_text("import key\n")
    (workspace / "setup.cfg").write_text("[mypy]\npretty = True\n")
    assert "canary-GK-ssh" in _mypy(workspace, None, "app.py")  # (the premise)
    assert judge("mypy app.py", workspace, "mypy").verdict is Verdict.DENY


def test_gk3_bare_flake8_walks_its_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace)
    (workspace / "setup.cfg").write_text("[flake8]\nshow-source = true\n")
    if (REVIEW_BIN / "flake8").exists():  # (the premise, where flake8 is installed)
        env = canary_environment(workspace, PATH=f"{REVIEW_BIN}:/usr/bin:/bin")
        assert "canary-GK-ssh" in _run([str(REVIEW_BIN / "flake8")], workspace, env)
    decision = judge("flake8", workspace, "flake8")
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_gk3_checkers_without_links_stay_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "src").mkdir()
    (workspace / "src" / "lib.py").write_text("y = 2\n")
    os.symlink("lib.py", workspace / "src" / "alias.py")  # (a link inside: read, fine)
    for line, rule in (("flake8", "flake8"), ("mypy app.py", "mypy"), ("pylint src", "pylint")):
        decision = judge(line, workspace, rule)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


@needs_mypy
def test_gk5_the_user_configuration_in_the_workspace_asks(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".config" / "mypy").mkdir(parents=True)
    (workspace / ".config" / "mypy" / "config").write_text("[mypy]\nplugins = evil.py\n")
    (workspace / ".config" / "mypy" / "evil.py").write_text(EVIL)
    env = {**canary_environment(workspace), "HOME": str(workspace)}
    assert CANARY in _mypy(workspace, env, "app.py")  # (the premise: HOME's config ran it)
    decision = approved("mypy").evaluate("mypy app.py", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.linter-config" in decision.explain()
    (workspace / ".config" / "pylintrc").write_text("[MAIN]\ninit-hook = print(1)\n")
    (workspace / ".config" / "mypy" / "config").unlink()
    decision = approved("pylint").evaluate("pylint app.py", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_gk3_a_runner_s_checker_walks_too(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace)
    decision = judge("uv run flake8", workspace, "uv run flake8")
    assert decision.verdict is Verdict.DENY, decision.explain()


@pytest.mark.parametrize(
    ("config", "line", "reads", "verdict"),
    [("[flake8]\nexclude = .git,.venv\n", "flake8", False, Verdict.ALLOW),
     ("[flake8]\nextend-exclude = .venv\n", "flake8", False, Verdict.ALLOW),
     ("[flake8]\nextend-exclude = .venv\n", "flake8 --isolated", True, Verdict.DENY),
     # (a pattern is not matched by the engine: the link is judged, a deny to spare)
     ("[flake8]\nextend-exclude = .ven*\n", "flake8", False, Verdict.DENY),
     ("[flake8]\nmax-line-length = 100\n", "flake8", True, Verdict.DENY)],
)  # fmt: skip
def test_gk3_flake8_skips_what_its_configuration_excludes(
    tmp_path: Path, config: str, line: str, reads: bool, verdict: Verdict
) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace, ".venv")
    (workspace / "setup.cfg").write_text(config)
    if (REVIEW_BIN / "flake8").exists():  # (the premise: what flake8 reads)
        env = canary_environment(workspace, PATH=f"{REVIEW_BIN}:/usr/bin:/bin")
        out = _run([str(REVIEW_BIN / "flake8"), *line.split()[1:]], workspace, env)
        assert ("key.py" in out) is reads, out
    decision = judge(line, workspace, "flake8")
    assert decision.verdict is verdict, decision.explain()
