"""Review EP: the fixes of EN and EO attacked.

EP1: bash reads `[=y=]` as a class in some places and as text in others (`[x-[=y=]`
matches `y`): a glob with `[:`, `[=` or `[.` may match any name. EP2: bash matches bytes
(the C locale, or a name that is not UTF-8): `x??` matches `xé`. EP3: git reads `\\y` inside
a pathspec's bracket too. EP4: `shopt -uo braceexpand`, `shopt -so keyword` change what the
line's words mean. EP5: bash reads `pushd '+1 '` as a rotation. EP6: bash compares the
inherited `PWD` as given. EP7, EP8: false asks of the EN fixes (a line continuation after
`in`; braces inside quotes of `sh -c` code)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from realrun import decide, run_printed

from policylang import Verdict


def _setting(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("CANARY_EP_SSH\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("CANARY_EP_AWS\n")
    workspace = home / "src" / "repo"
    workspace.mkdir(parents=True)
    (workspace / "server.key").write_text("CANARY_EP_KEY\n")
    (workspace / "README.md").write_text("hi\n")
    (workspace / "old.txt").write_text("old\n")
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    "line", ["cat server.ke[x-[=y=]", "cat server.ke[]-[=y=]", "cat server.ke[z-[:y:]",
             "cat server.ke[[=y?=]", "cat server.ke[?-[=y=]"],
)  # fmt: skip
def test_a_bracket_with_a_class_spelling_may_match_anything(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert "CANARY_EP_KEY" in run_printed(line, workspace, env)
    assert decide(line, workspace, env).verdict is Verdict.DENY


@pytest.mark.parametrize("locale", [None, "C.UTF-8"])
def test_a_glob_counts_bytes_as_bash_does(tmp_path: Path, locale: str | None) -> None:
    workspace, env = _setting(tmp_path)
    if locale is not None:
        env["LANG"] = locale
    name = b"x\xc3\xa9" if locale is None else b"y\xc3\xa9\xff"
    os.symlink("../../.ssh/id_rsa", os.fsencode(workspace) + b"/" + name)
    line = "cat x??" if locale is None else "cat y???"
    assert "CANARY_EP_SSH" in run_printed(line, workspace, env)
    assert decide(line, workspace, env).verdict is Verdict.DENY


def test_a_git_pathspec_with_a_backslash_asks(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    (workspace / "deploy.key").write_text("CANARY_EP_DEPLOY\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "."], cwd=workspace, check=True, timeout=60)
    subprocess.run([*git, "add", "deploy.key", "old.txt"], cwd=workspace, check=True, timeout=60)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=workspace, check=True, timeout=60)
    for spec in ("deploy.ke[\\y]", "deploy.k[\\d-f]y", "deploy.k[!\\a]y", "deploy.ke[x-[=y=]"):
        named = subprocess.run(["git", "rm", "-n", "-q", "--", spec], cwd=workspace,
                               capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
        assert named.returncode == 0, spec  # git names `deploy.key` with each
        decision = decide(f"git rm '{spec}'", workspace, env, "git rm")
        assert decision.verdict is not Verdict.ALLOW, (spec, decision.explain())


@pytest.mark.parametrize(
    "line",
    ["shopt -uo braceexpand; for f in x{a,b}; do cat \"$f\"; done",
     "shopt -o -u braceexpand; for f in x{a,b}; do cat \"$f\"; done",
     "shopt -so keyword; cat LD_PRELOAD=./evil.so README.md"],
)  # fmt: skip
def test_shopt_bundles_are_seen(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    os.symlink("../../.ssh/id_rsa", workspace / "x{a,b}")
    decision = decide(line, workspace, env, "shopt")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("operand", ["'+1 '", "'+ 1'", '"+1\t"', "+01"])
def test_a_rotation_with_blanks_is_a_rotation(tmp_path: Path, operand: str) -> None:
    workspace, env = _setting(tmp_path)
    lines = f"pushd -n ~/.aws >/dev/null\npushd {operand} >/dev/null && cat credentials\n"
    done = subprocess.run(["bash", "--norc"], input=lines, cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert "CANARY_EP_AWS" in done.stdout
    line = f"pushd {operand} >/dev/null && cat credentials"
    assert decide(line, workspace, env).verdict is not Verdict.ALLOW


def test_the_inherited_pwd_is_compared_as_given(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    (workspace / "sub" / "d").mkdir(parents=True)
    (workspace / "deep").symlink_to("sub/d")
    env["PWD"] = f"{workspace}/deep/../.."  # the kernel: the workspace; as text: ~/src
    line = "cd .. && cat .aws/credentials"
    done = subprocess.run(["bash", "-c", line], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert "CANARY_EP_AWS" in done.stdout
    assert decide(line, workspace, env).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    ['for f in \\\n  README.md old.txt; do wc -l "$f"; done',
     "sh -c \"grep -E '[0-9]{2,}' README.md\"", "sh -c \"grep -E 'a{1,3}' README.md\"",
     "sh -c 'echo ${V:-a,b}'"],
)  # fmt: skip
def test_the_fixes_ask_no_more_than_they_must(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()
