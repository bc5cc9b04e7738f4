"""Review DG: bypasses and regressions of the fixes of reviews DD and DE.

DG1 `grep --binary` is a flag (zgrep's `--m` too); DG2 `rg -t TYPE` admits the hidden
files its globs match, and only those (DG8: `rg -g '*.py'` judged as reading every hidden
file); DG3 `RIPGREP_CONFIG_PATH` in the workspace; DG4 git's global configuration or
`~/.lesskey` linked into the workspace; DG5 any module of a PYTHONPATH entry, and
PYTHONUSERBASE; DG6 `LANGUAGE` set by `printf -v`, `read`, `for`; DG7 `;` in
LD_LIBRARY_PATH and a literal `~`; DG8 no errors on odd values, `$HOME` in git values,
a parent's `!` line re-includes what it names only."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, default_verdict, env_beside, run_printed

from policylang import Verdict, load_policy


def _secrets(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    aws_secret(tmp_path)
    (workspace / ".env").write_text("SECRET=topsecret\n")
    (workspace / ".env.json").write_text('{"SECRET": "topsecret"}\n')
    (workspace / "a.py").write_text("TODO = 1\n")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["grep --binary .env -e ''", "egrep --binary .env -e ''",
     "zgrep -e '' --m ../home/.aws/credentials -1", "zgrep --binary .env -e ''"],
)  # fmt: skip
def test_dg1_a_flag_that_prefixes_a_valued_option(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    printed = run_printed(line, workspace, env_beside(tmp_path))
    assert "topsecret" in printed or "AKIASECRET" in printed  # the real program printed it
    assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.DENY


@pytest.mark.parametrize("line", ["rg -tjson SECRET", "rg -t json SECRET", "rg -tall SECRET",
                                  "rg --type=json SECRET", "rg -tnosuchtype SECRET"])
def test_dg2_rg_types_admit_the_hidden_files_they_match(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    if "nosuch" not in line:
        assert "topsecret" in run_printed(line, workspace, env_beside(tmp_path))  # the real rg
    assert default_verdict(line, workspace, env_beside(tmp_path)) is not Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    ["rg TODO", "rg -t py TODO", "rg -tpy TODO", "rg -g '*.py' TODO", "rg -g '!*.md' TODO",
     "rg --type-add 'web:*.html' -tweb TODO"],
)  # fmt: skip
def test_dg8_rg_whitelists_that_match_no_protected_file_hold(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    assert "topsecret" not in run_printed(line, workspace, env_beside(tmp_path))
    assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.ALLOW, line


def test_dg8_a_parents_ignore_file_re_includes_what_it_names_only(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    (tmp_path / ".ignore").write_text("*.log\n!important.log\n")
    assert default_verdict("rg TODO", workspace, env_beside(tmp_path)) is Verdict.ALLOW
    (tmp_path / ".ignore").write_text("!.env\n")
    assert "topsecret" in run_printed("rg SECRET", workspace, env_beside(tmp_path))
    assert default_verdict("rg SECRET", workspace, env_beside(tmp_path)) is not Verdict.ALLOW


def test_dg3_an_rg_configuration_of_the_workspace(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "a.py").write_text("TODO = 1\n")
    (workspace / "pre.sh").write_text(f"#!/bin/sh\ntouch {tmp_path}/PWNED\ncat \"$1\"\n")
    (workspace / "pre.sh").chmod(0o755)
    (workspace / ".rgrc").write_text("--pre=./pre.sh\n")
    for value in (str(workspace / ".rgrc"), ".rgrc"):
        env = env_beside(tmp_path, RIPGREP_CONFIG_PATH=value)
        run_printed("rg TODO", workspace, env)
        assert (tmp_path / "PWNED").exists()  # the real rg ran the workspace's program
        assert default_verdict("rg TODO", workspace, env) is Verdict.ASK


def _git_env(tmp_path: Path) -> dict[str, str]:
    return env_beside(tmp_path, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b",
                GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b")  # fmt: skip


def _repository(workspace: Path, env: dict[str, str]) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)


@pytest.mark.parametrize("how", ["link", "include", "include-up"])
def test_dg4_git_global_configuration_linked_into_the_workspace(tmp_path: Path, how: str) -> None:
    workspace = _secrets(tmp_path)
    env = _git_env(tmp_path)
    _repository(workspace, env)
    marker = tmp_path / "PWNED"
    (workspace / "dotfiles").mkdir()
    (workspace / "dotfiles" / "gitconfig").write_text(
        f'[core]\n\tfsmonitor = "touch {marker}; false"\n'
    )
    home = tmp_path / "home"
    if how == "link":
        (home / ".gitconfig").symlink_to(workspace / "dotfiles" / "gitconfig")
    elif how == "include":
        (home / ".gitconfig").write_text(f"[include]\n\tpath = {workspace}/dotfiles/gitconfig\n")
    else:
        (home / ".gitconfig").write_text("[include]\n\tpath = ../ws/dotfiles/gitconfig\n")
    run_printed("git status", workspace, env)
    assert marker.exists()  # the real git ran the workspace's fsmonitor
    assert default_verdict("git status", workspace, env) is Verdict.ASK


def test_dg4_a_lesskey_linked_into_the_workspace(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    (workspace / "lesskey").write_text(f"#env\nLESSOPEN=|touch {tmp_path}/PWNED; cat %s\n")
    (tmp_path / "home" / ".lesskey").symlink_to(workspace / "lesskey")
    env = env_beside(tmp_path)
    run_printed("less a.py | cat", workspace, env)
    assert (tmp_path / "PWNED").exists()
    assert default_verdict("less a.py", workspace, env) is Verdict.ASK


def test_dg5_any_module_of_a_pythonpath_entry(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    tool = tmp_path / "sysbin" / "tomlq"
    tool.parent.mkdir()
    tool.write_text("#!/usr/bin/python3\nimport yaml\n")
    tool.chmod(0o755)
    (workspace / "src" / "yaml").mkdir(parents=True)
    marker = str(tmp_path / "PWNED")
    (workspace / "src" / "yaml" / "__init__.py").write_text(f"open({marker!r}, 'w')\n")
    env = env_beside(tmp_path, PATH=f"{tool.parent}:/usr/bin:/bin", PYTHONPATH="src")
    run_printed("tomlq . x.toml", workspace, env)
    assert (tmp_path / "PWNED").exists()
    assert default_verdict("tomlq . x.toml", workspace, env) is Verdict.ASK
    outside = {**env, "PYTHONPATH": "/opt/x"}
    assert default_verdict("tomlq . x.toml", workspace, outside) is Verdict.ALLOW
    (workspace / "ub" / "lib").mkdir(parents=True)
    user_base = env_beside(tmp_path, PATH=env["PATH"], PYTHONUSERBASE=str(workspace / "ub"))
    assert default_verdict("tomlq . x.toml", workspace, user_base) is Verdict.ASK


@pytest.mark.parametrize(
    "line",
    ["printf -v LANGUAGE %s ../x; export LANGUAGE; ls", "read LANGUAGE < f; ls",
     "for LANGUAGE in ../x; do ls; done", "LANGUAGE=$(cat f) ls"],
)  # fmt: skip
def test_dg6_language_set_by_builtins(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    assert default_verdict(line, workspace, env_beside(tmp_path)) is Verdict.ASK


@pytest.mark.parametrize("value", ["/usr/local/cuda/lib64;", "~/lib", "/x;lib"])
def test_dg7_the_loaders_own_reading_of_its_path(tmp_path: Path, value: str) -> None:
    workspace = _secrets(tmp_path)
    for folder in (workspace, workspace / "~" / "lib", workspace / "lib"):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "libpcre2-8.so.0").write_bytes(b"")
    env = env_beside(tmp_path, LD_LIBRARY_PATH=value)
    assert default_verdict("ls", workspace, env) is Verdict.ASK


@pytest.mark.parametrize(
    ("variable", "value"),
    [("LD_LIBRARY_PATH", "lib\0x"), ("LD_LIBRARY_PATH", "/x\0y"), ("LD_PRELOAD", "\0")],
)
def test_dg8_odd_values_never_raise(tmp_path: Path, variable: str, value: str) -> None:
    workspace = _secrets(tmp_path)
    decision = load_policy().evaluate(
        "ls", workspace=str(workspace), env=env_beside(tmp_path, **{variable: value})
    )
    assert not any(r.rule_id == "engine.internal-error" for r in decision.reasons)


def test_dg8_git_values_of_the_users_places(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    env = _git_env(tmp_path)
    _repository(workspace, env)
    home = tmp_path / "home"
    for config in ('[core]\n\teditor = $HOME/bin/ed\n', '[core]\n\tpager = "  "\n',
                   "[core]\n\tpager = ${XDG_CONFIG_HOME}/x/pager\n"):  # fmt: skip
        (home / ".gitconfig").write_text(config)
        decision = load_policy().evaluate("git status", workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ALLOW, (config, decision.explain())
