"""Review EU: EU1 a `--type-add` glob starting with `**/` (rg matches a type's globs
against the file name, where globset lets `**/` match no folder: `**/.env*` admits the
hidden `.env`; the engine had read it as needing a `/` and admitting nothing), EU2 the
root-anchored protect rules (`/**/.pgpass`, `/**/.git-credentials`,
`/**/git-credentials-*.config`) inside the workspace (a recursive read there had been
matched against the workspace-anchored rules only). Each layout is run with the real
program: where it prints the secret, the engine must deny the line; where it does not,
the verdict is not made stricter."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside, run_printed

from policylang import Verdict

needs_rg = pytest.mark.skipif(shutil.which("rg") is None, reason="needs ripgrep")


def _git_workspace(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True, capture_output=True)
    (workspace / "a.txt").write_text("API=plain\n")
    return workspace


def _denied(line: str, workspace: Path, secret: str) -> None:
    """The real line prints `secret`, and the engine denies it."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert secret in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.DENY, decision.explain()


def _allowed(line: str, workspace: Path, secret: str) -> None:
    """The real line does not print `secret`, and the engine allows it."""
    env = env_beside(workspace.parent)
    out = run_printed(line, workspace, env)
    assert secret not in out, out
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- EU1: a type glob starting with `**/` -----------------------------------------------------


def _env_workspace(tmp_path: Path, *, ignored: bool) -> Path:
    workspace = _git_workspace(tmp_path)
    (workspace / ".env").write_text("API=ENVCANARY\n")
    if ignored:
        (workspace / ".gitignore").write_text(".env*\n")
    return workspace


@needs_rg
@pytest.mark.parametrize(
    "line",
    [
        "rg -u -n API --type-add 'cfg:**/.env*' -t cfg",
        "rg --no-ignore -n API --type-add 'cfg:**/.e[n]v*' -tcfg",
        "rg -u API --type-add 'x:**/**/.env' -tx",
        "rg -u API --type-add 'x:**/*' -tx",
        "rg -u API --type-add 'x:**/.*' -tx",
    ],
)
def test_eu1_a_type_glob_with_a_leading_globstar(tmp_path: Path, line: str) -> None:
    _denied(line, _env_workspace(tmp_path, ignored=True), "ENVCANARY")


@needs_rg
def test_eu1_bare_when_the_env_is_not_ignored(tmp_path: Path) -> None:
    _denied("rg . --type-add 'x:**/.env' -tx", _env_workspace(tmp_path, ignored=False), "ENVCANARY")


@needs_rg
@pytest.mark.parametrize(
    "line",
    [
        "rg -u -n API --type-add 'cfg:**/*.txt' -t cfg",
        "rg -u -n API --type-add 'cfg:*.txt' -t cfg",
        "rg -n API -ttxt",
    ],
)
def test_eu1_a_type_glob_that_admits_no_env(tmp_path: Path, line: str) -> None:
    _allowed(line, _env_workspace(tmp_path, ignored=True), "ENVCANARY")


# -- EU2: the root-anchored rules inside the workspace -----------------------------------------


def _credentials_workspace(tmp_path: Path) -> Path:
    workspace = _git_workspace(tmp_path)
    (workspace / ".pgpass").write_text("localhost:5432:db:u:PGCANARY\n")
    (workspace / ".git-credentials").write_text("https://u:GITCREDCANARY@github.com\n")
    (workspace / "sub").mkdir()
    (workspace / "sub" / "git-credentials-abc.config").write_text(
        "https://u:TOKCANARY@github.com\n"
    )
    return workspace


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        pytest.param("rg CANARY", "TOKCANARY", marks=needs_rg),
        pytest.param("rg --hidden CANARY", "GITCREDCANARY", marks=needs_rg),
        pytest.param("rg . -g '.pgpass'", "PGCANARY", marks=needs_rg),
        ("grep -r CANARY .", "PGCANARY"),
        ("grep -r CANARY .", "GITCREDCANARY"),
        ("grep -r CANARY sub", "TOKCANARY"),
    ],
)
def test_eu2_a_recursive_read_of_an_anywhere_secret(
    tmp_path: Path, line: str, secret: str
) -> None:
    _denied(line, _credentials_workspace(tmp_path), secret)


@pytest.mark.parametrize("line", ["grep -rn API .", "grep -r API --exclude-dir=sub ."])
def test_eu2_a_tree_without_one_is_still_read(tmp_path: Path, line: str) -> None:
    # (the same names, empty of secrets, in a folder the read does not reach)
    workspace = _git_workspace(tmp_path)
    (workspace / "docs").mkdir()
    (workspace / "docs" / "pgpass.md").write_text("API: the .pgpass format\n")
    _allowed(line, workspace, "CANARY")


def test_eu2_cat_of_each_was_already_denied(tmp_path: Path) -> None:
    workspace = _credentials_workspace(tmp_path)
    env = env_beside(tmp_path)
    for name in (".pgpass", ".git-credentials", "sub/git-credentials-abc.config"):
        decision = decide(shlex.join(["cat", name]), workspace, env)
        assert decision.verdict is Verdict.DENY, decision.explain()


# -- EU3: a quoted pattern that starts with a plain character ---------------------------------


def _docs_workspace(tmp_path: Path) -> Path:
    workspace = _git_workspace(tmp_path)
    home = str(tmp_path / "home")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "index.md").write_text(f"x{home} in the docs\n")
    (workspace / ".env").write_text(f"x{home}ENVCANARY\n")
    return workspace


@pytest.mark.parametrize("line", ['grep -rn "x$HOME" docs', "grep -rn 'x'\"$HOME\" docs"])
def test_eu3_a_quoted_pattern_is_no_option(tmp_path: Path, line: str) -> None:
    # bash gives grep one word starting with `x`: the pattern, and only `docs` is read
    workspace = _docs_workspace(tmp_path)
    out = run_printed(line, workspace, env_beside(tmp_path))
    assert "in the docs" in out, out
    _allowed(line, workspace, "ENVCANARY")


def test_eu3_a_quoted_variable_may_be_an_option(tmp_path: Path) -> None:
    # (`"$P"` may hold `-e`: `docs` is then the pattern and `.` the tree read)
    workspace = _docs_workspace(tmp_path)
    (workspace / ".env").write_text("docs ENVCANARY\n")
    line, env = 'grep -rn "$P" docs', env_beside(tmp_path, P="-e")
    assert "ENVCANARY" in run_printed(line, workspace, env)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
