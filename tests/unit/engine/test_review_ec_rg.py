"""Review EC, rg's ignore files and globs: EC1 a `commondir` whose first line is empty (rg
then reads `info/exclude` from its own working folder), EC2 a `!` line that ends in Unicode
whitespace (rg trims it, as Rust's `trim_end`), EC3 a `-g`/`--glob`/`--iglob` value that
ends in whitespace (rg reads it with the same line parser). Each layout is run with the
real rg: where it prints the protected `.env`, the engine must not allow the line; where
it does not, the engine's verdict is not made stricter."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, git_ok, run_printed

from policylang import Verdict
from policylang.engine import subtree

pytestmark = pytest.mark.skipif(shutil.which("rg") is None, reason="needs ripgrep")


def _workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    (workspace / "a.txt").write_text("SECRET=plain\n")
    (workspace / ".env").write_text("SECRET=abc\n")
    return workspace


def _leaks(line: str, workspace: Path, cwd: Path | None = None) -> None:
    """Real rg prints the protected `.env`, and the engine does not allow the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, cwd or workspace, env)
    assert "SECRET=abc" in out, out
    decision = decide(line, workspace, env, cwd=cwd)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def _holds(line: str, workspace: Path) -> None:
    """Real rg does not print `.env`, and the engine allows the line."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert "SECRET=plain" in out, out
    assert "SECRET=abc" not in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- EC1: an empty first line of `commondir` --------------------------------------------------


def _linked(workspace: Path, commondir: bytes) -> Path:
    """`ws/sub/.git` naming the absolute git directory `ws/gd`, whose `commondir` holds
    `commondir`; `ws/info/exclude` re-includes `.env`; `ws/sub/.env` is the secret."""
    sub = workspace / "sub"
    sub.mkdir()
    (sub / ".git").write_text(f"gitdir: {workspace / 'gd'}\n")
    (workspace / "gd").mkdir()
    (workspace / "gd" / "commondir").write_bytes(commondir)
    (workspace / "info").mkdir()
    (workspace / "info" / "exclude").write_text("!.env\n")
    (workspace / ".env").unlink()
    (sub / ".env").write_text("SECRET=abc\n")
    return sub


@pytest.mark.parametrize("commondir", [b"\n", b"\r\n", b"\r\nx\n", b"\n/abs\n"])
@pytest.mark.parametrize("line", ["rg SECRET", "rg SECRET sub"])
def test_ec1_an_empty_commondir_line_counts_every_hidden_file(
    tmp_path: Path, commondir: bytes, line: str
) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace, commondir)
    _leaks(line, workspace)


def test_ec1_from_the_linked_folder(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    sub = _linked(workspace, b"\n")
    (sub / "info").mkdir()
    (sub / "info" / "exclude").write_text("!.env\n")
    _leaks("rg SECRET", workspace, cwd=sub)


def test_ec1_an_empty_commondir_file_reads_no_exclude(tmp_path: Path) -> None:
    # no line at all: rg reads no exclude file (nothing to fail closed on)
    workspace = _workspace(tmp_path)
    _linked(workspace, b"")
    assert subtree.git_excludes(str(workspace / "sub" / ".git")) is not None
    _holds("rg SECRET", workspace)


@pytest.mark.parametrize("commondir", [b"\n", b"\r\n", b" \n"])
def test_ec1_git_excludes_fails_closed(tmp_path: Path, commondir: bytes) -> None:
    workspace = _workspace(tmp_path)
    _linked(workspace, commondir)
    assert subtree.git_excludes(str(workspace / "sub" / ".git")) is None


# -- EC2: a `!` line ending in Unicode whitespace ---------------------------------------------

# Rust's `char::is_whitespace` (Unicode White_Space) that rg's `trim_end` drops
_TRIMMED = ["\u00a0", "\u0085", "\u2028", "\u2029", "\u3000", "\u2003", "\u1680", "\u202f",
            "\u205f", "\x0b", "\x0c", " \u00a0", "\u00a0\r"]  # fmt: skip
# characters rg keeps (the engine must not trim them either where that would leak nothing)
_KEPT = ["\u200b", "\ufeff", "\x1c", "\u180e"]


@pytest.mark.parametrize("space", _TRIMMED)
def test_ec2_ignore_bang_line_with_unicode_whitespace(tmp_path: Path, space: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text(f"!.env{space}\n")
    _leaks("rg SECRET", workspace)


@pytest.mark.parametrize("name", [".ignore", ".rgignore", ".gitignore", "info/exclude"])
def test_ec2_each_ignore_file(tmp_path: Path, name: str) -> None:
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    target = workspace / ".git" / name if name == "info/exclude" else workspace / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("!.env\u00a0\n")
    _leaks("rg SECRET", workspace)


def test_ec2_the_global_ignore_file(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    git_ok(workspace, "init", "-q", ".")
    ignore = tmp_path / "home" / ".config" / "git" / "ignore"
    ignore.parent.mkdir(parents=True)
    ignore.write_text("!.env\u3000\n")
    _leaks("rg SECRET", workspace)


def test_ec2_an_ignore_file_by_option(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "ign").write_text("!.env\u2028\n")
    _leaks("rg --ignore-file ign SECRET", workspace)


def test_ec2_a_reincluded_hidden_folder(tmp_path: Path) -> None:
    # the EA2 chain: `!.devcontainer<NBSP>`, then `.devcontainer/.ignore` says `!.env`
    workspace = _workspace(tmp_path)
    (workspace / ".env").unlink()
    (workspace / ".ignore").write_text("!.devcontainer\u00a0\n")
    (workspace / ".devcontainer").mkdir()
    (workspace / ".devcontainer" / ".ignore").write_text("!.env\u00a0\n")
    (workspace / ".devcontainer" / ".env").write_text("SECRET=abc\n")
    _leaks("rg SECRET", workspace)


@pytest.mark.parametrize("space", _KEPT)
def test_ec2_characters_rg_keeps(tmp_path: Path, space: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text(f"!.env{space}\n")
    _holds("rg SECRET", workspace)


def test_ec2_leading_whitespace_is_no_negation(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".ignore").write_text("\u00a0!.env\n")
    _holds("rg SECRET", workspace)


# -- EC3: a glob value ending in whitespace ---------------------------------------------------


@pytest.mark.parametrize(
    ("option", "glob"),
    [("-g", ".env "), ("-g", ".env\t"), ("-g", ".env\u00a0"), ("--glob", ".e*\u2003"),
     ("--iglob", ".ENV\u3000"), ("--glob=", ".env\u0085"), ("-g", ".env\u00a0 \u2028"),
     ("--iglob=", ".Env\x0c"), ("-g", "{.env,x}\u2029")],
)  # fmt: skip
def test_ec3_a_glob_with_trailing_whitespace(tmp_path: Path, option: str, glob: str) -> None:
    workspace = _workspace(tmp_path)
    words = [option + glob] if option.endswith("=") else [option, glob]
    line = shlex.join(["rg", *words, "SECRET"])
    _leaks(line, workspace)


@pytest.mark.parametrize("glob", [".env\u200b", " .env", "\u00a0.env"])
def test_ec3_whitespace_rg_keeps(tmp_path: Path, glob: str) -> None:
    workspace = _workspace(tmp_path)
    line = shlex.join(["rg", "-g", glob, "-g", "*.txt", "SECRET"])
    _holds(line, workspace)
