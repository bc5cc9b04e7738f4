"""Review EQ, rg's globs and options: EQ3 a comma inside a class within braces (globset
keeps `[e,]` whole; the engine had split the braces there), EQ4 a range in a glob read
case aside (`--iglob '.[E-_]nv'`: Rust folds each member of the range, the engine had
lowercased the glob's text), EQ5 a value glued to a short option with `=` (clap drops
the `=`: `-g=.env` is `-g .env`, `-f=FILE` reads FILE). Each layout is run with the real
rg: where it prints the protected `.env` (or a credential), the engine must not allow
the line; where it does not, the engine's verdict is not made stricter."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, run_printed

from policylang import Verdict
from policylang.engine import subtree

pytestmark = pytest.mark.skipif(shutil.which("rg") is None, reason="needs ripgrep")


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "a.txt").write_text("SECRET=plain\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    return workspace


def _leaks(line: str, workspace: Path) -> None:
    """Real rg prints the protected `.env`, and the engine does not allow the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert "SECRET=abc" in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _holds(line: str, workspace: Path) -> None:
    """Real rg does not print `.env`, and the engine allows the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert "SECRET=abc" not in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- EQ3: a comma inside a class within braces ------------------------------------------------


@pytest.mark.parametrize(
    ("option", "glob"),
    [("-g", "{.[e,]nv}"), ("-g", "{.[,e]nv,*.txt}"), ("--iglob", "{.[,E]NV}"),
     ("-g", "{x,.[e,}]nv}"), ("-g", ".e}nv"), ("-g", "{.[!,]nv}")],
)  # fmt: skip
def test_eq3_a_comma_in_a_class_within_braces(tmp_path: Path, option: str, glob: str) -> None:
    workspace = _workspace(tmp_path)
    _leaks(shlex.join(["rg", option, glob, "SECRET"]), workspace)


@pytest.mark.parametrize("line", ["rg SECRET", "rg -n SECRET"])
def test_eq3_an_ignore_line_with_a_comma_in_a_class(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text("!{.[e,]nv}\n")
    _leaks(line, workspace)


@pytest.mark.parametrize("glob", [".e[{]nv", "{*.txt,.[!e]nv}", "{*.py,*.txt}"])
def test_eq3_braces_that_admit_no_env(tmp_path: Path, glob: str) -> None:
    # a `{` inside a class is a plain member (it had made the glob admit every name)
    workspace = _workspace(tmp_path)
    _holds(shlex.join(["rg", "-g", glob, "-g", "*.txt", "SECRET"]), workspace)


# -- EQ4: a range read case aside -------------------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [["--iglob", ".[E-_]nv"], ["--glob-case-insensitive", "-g", ".[E-_]nv"],
     ["--iglob", ".[A-F]NV"], ["--iglob", "{.[E-_]nv,x}"]],
)  # fmt: skip
def test_eq4_a_range_folded_by_rg(tmp_path: Path, words: list[str]) -> None:
    workspace = _workspace(tmp_path)
    _leaks(shlex.join(["rg", *words, "SECRET"]), workspace)


def test_eq4_an_ignore_file_read_case_aside(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text("!.[E-_]nv\n")
    _leaks("rg --ignore-file-case-insensitive SECRET", workspace)


# -- EQ5: clap drops the `=` of a value glued to a short option -------------------------------


@pytest.mark.parametrize(
    "line",
    ["rg -g=.env SECRET", "rg -n -g=.env SECRET", "rg -ng=.env SECRET", "rg -g==.env SECRET",
     "rg -g='.e*' SECRET", "rg -ig=.env SECRET"],
)  # fmt: skip
def test_eq5_a_glob_glued_with_equals(tmp_path: Path, line: str) -> None:
    _leaks(line, _workspace(tmp_path))


def test_eq5_a_pattern_file_glued_with_equals(tmp_path: Path) -> None:
    # `-f=FILE` reads FILE: its lines become the patterns, which `--debug` prints
    workspace = _workspace(tmp_path)
    credentials = tmp_path / "home" / ".aws" / "credentials"
    credentials.parent.mkdir()
    credentials.write_text("aws_secret_access_key = CANARY_AWS_SECRET\n")
    line = f"rg --debug -f={credentials} a.txt"
    env = env_beside(tmp_path)
    assert "CANARY_AWS_SECRET" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_eq5_other_values_glued_with_equals(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _holds("rg -g='*.txt' SECRET", workspace)
    _holds("rg -e=SECRET=plain", workspace)


# -- the glob reader against rg's own ---------------------------------------------------------

_NAMES = (".env", ".ENV", ".e,nv", ".e-nv", ".e]nv", ".e{nv", ".e}nv", ".e_nv", ".envrc",
          ".e\u00e9v", ".e")  # fmt: skip
_GLOBS = ("{.[e,]nv}", ".[E-_]nv", ".[a-c-f]nv", ".[]e]nv", ".[!-]nv", ".[^e]nv", "{,.env}",
          ".env{}", "[.][e-e]*", ".e??", ".e?v", "{.e[,}]nv,q}", ".[--f]nv", ".[e-]nv",
          ".e}nv", "{.E*}", ".[%-f]nv")  # fmt: skip


@pytest.mark.parametrize("glob", _GLOBS)
@pytest.mark.parametrize("option", ["-g", "--iglob"])
def test_eq_the_engine_admits_what_rg_lists(tmp_path: Path, option: str, glob: str) -> None:
    for name in _NAMES:
        (tmp_path / name).write_text("x\n")
    done = subprocess.run(
        ["rg", "--files", "--hidden", option, glob], cwd=tmp_path, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    listed = {line for line in done.stdout.splitlines() if line}
    admitted = {name for name in _NAMES if subtree._admitted(name, (glob,))}
    assert listed <= admitted, (listed, admitted)


@pytest.mark.parametrize("glob", ["{a,{b}}", "{a", ".[z-a]", "a\\b", ".[\u00e9]nv", "[a"])
def test_eq_globs_rg_rejects_or_the_engine_cannot_read(glob: str) -> None:
    assert subtree.rg_glob(glob) is None
    assert subtree._admitted(".env", (glob,))
