"""Review DI: bypasses of the fixes of review DH.

DI1 rg globs: a negated class keeps its case, an escape asks the whole tree; DI2 a header
named by an absolute path is read for its own includes; DI3 `command exec < FILE` feeds
every later command; DI4 `PERL5OPT`'s other spellings of a folder (`-Mlib=lib`, `Ilib`);
DI5 `/usr/local` is no system folder of headers."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, env_beside, run_printed, scan_judge

from policylang import Verdict, load_policy


@pytest.mark.parametrize(
    "line",
    ["rg -g '.[!E]nv' SECRET", "rg -g '.[^E]nv' SECRET", "rg -g '[\\.]env' SECRET",
     "rg --type-add 'e:.[!E]nv' -te SECRET"],
)  # fmt: skip
def test_di1_rg_globs(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("SECRET=topsecret\n")
    assert "topsecret" in run_printed(line, workspace, env_beside(tmp_path))  # the real rg
    assert scan_judge(line, workspace).verdict is not Verdict.ALLOW


def test_di1_an_ignore_file_with_a_negated_class(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("SECRET=topsecret\n")
    (workspace / ".ignore").write_text("!.[!E]nv\n")
    assert "topsecret" in run_printed("rg SECRET", workspace, env_beside(tmp_path))
    assert scan_judge("rg SECRET", workspace).verdict is not Verdict.ALLOW


def test_di2_a_header_named_by_an_absolute_path(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "vend").mkdir()
    (workspace / "vend" / "h.h").write_text(f'#include "{secret}"\n')
    (workspace / "abs.c").write_text(f'#include "{workspace}/vend/h.h"\n')
    (workspace / "mac.c").write_text(f'#define H "{workspace}/vend/h.h"\n#include H\n')
    for line in ("cpp abs.c", "cpp mac.c"):
        assert "AKIASECRET" in run_printed(line, workspace, env_beside(tmp_path))  # the real cpp
        assert scan_judge(line, workspace, "cpp").verdict is not Verdict.ALLOW, line


@pytest.mark.parametrize(
    "line",
    ["command exec < c.txt; redis-cli", "builtin exec < c.txt; redis-cli",
     "command command exec < c.txt; redis-cli", "{ command exec <<< x; }; redis-cli"],
)  # fmt: skip
def test_di3_an_exec_that_feeds_every_later_command(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, "redis-cli $").verdict is Verdict.ASK


@pytest.mark.parametrize("options", ["-Mlib=lib", "-mlib=lib", "Ilib", "-Mlib=./lib", "-wIlib"])
def test_di4_perl5opt_spellings(tmp_path: Path, options: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "lib" / "Digest").mkdir(parents=True)
    (workspace / "lib" / "Digest" / "SHA.pm").write_text("package Digest::SHA; 1;\n")
    policy = load_policy()
    policy.approvals.add("shasum", persist=False)
    env = env_beside(tmp_path, PERL5OPT=options)
    decision = policy.evaluate("shasum x.txt", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_di5_usr_local_is_no_system_folder() -> None:
    from policylang.engine.evaluate import _system_header

    assert _system_header("/usr/include/stdio.h")
    assert not _system_header("/usr/local")
    assert not _system_header("/usr/local/include/x.h")
    assert not _system_header("/tmp/x.h")
