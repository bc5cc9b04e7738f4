"""Review DH: bypasses and regressions of the fixes of reviews DF and DG.

DH1 ripgrep's glob syntax (`{a,b}`, `\\.`, `[^x]`) in whitelists; DH2 input fed to a
command inside `eval`, `bash -c`, `$(…)`, `<(…)`; DH3 headers of an include folder
outside the workspace are read in turn (the system's aside); DH4 a header a macro names
is read for its own includes; DH5 `rustdoc --test`, `--runtool`; DH6 `PERL5OPT=-Ilib`."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, env_beside, run_printed, scan_judge

from policylang import Verdict, load_policy


def _secrets(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    aws_secret(tmp_path)
    (workspace / ".env").write_text("SECRET=topsecret\n")
    (workspace / "a.py").write_text("TODO = 1\n")
    return workspace


@pytest.mark.parametrize(
    "line",
    ["rg -g '{.env,x}' SECRET", "rg -g '\\.env' SECRET", "rg -g '[^x]env' SECRET",
     "rg --type-add 'e:{.env,x}' -te SECRET"],
)  # fmt: skip
def test_dh1_ripgrep_glob_syntax(tmp_path: Path, line: str) -> None:
    workspace = _secrets(tmp_path)
    assert "topsecret" in run_printed(line, workspace, env_beside(tmp_path))  # the real rg
    assert scan_judge(line, workspace).verdict is not Verdict.ALLOW


def test_dh1_an_ignore_file_in_ripgrep_glob_syntax(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    (workspace / ".ignore").write_text("!{.env,x}\n")
    assert "topsecret" in run_printed("rg SECRET", workspace, env_beside(tmp_path))
    assert scan_judge("rg SECRET", workspace).verdict is not Verdict.ALLOW


def test_dh1_braces_that_match_no_protected_name_hold(tmp_path: Path) -> None:
    workspace = _secrets(tmp_path)
    assert scan_judge("rg -g '*.{py,pyi}' TODO", workspace).verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    ["eval redis-cli <<< x", "echo x | eval redis-cli", "bash -c redis-cli <<< x",
     "echo CMD | echo $(redis-cli)", "echo CMD | cat <(redis-cli)", "sh -c redis-cli < f"],
)  # fmt: skip
def test_dh2_input_fed_to_a_nested_command(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, "redis-cli $").verdict is Verdict.ASK


def test_dh2_a_substitution_of_a_line_that_feeds_nothing(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge("echo $(redis-cli)", workspace, "redis-cli $").verdict is Verdict.ALLOW


def _headers(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    elsewhere = tmp_path / "tmpinc"
    elsewhere.mkdir()
    (elsewhere / "h.h").write_text(f'#include "{secret}"\n')
    (workspace / "src").mkdir()
    (workspace / "src" / "a.c").write_text('#include "h.h"\n')
    (workspace / "vend").mkdir()
    (workspace / "vend" / "v.h").write_text(f'#include "{secret}"\n')
    (workspace / "src" / "mac.c").write_text('#define H "v.h"\n#include H\n')
    (workspace / "src" / "v2.h").write_text(f'#include "{secret}"\n')
    (workspace / "src" / "mac3.c").write_text('#define H "v2.h"\n#include H\n')
    return workspace


@pytest.mark.parametrize(
    "line", ["cpp -I{tmp}/tmpinc src/a.c", "cpp -Ivend src/mac.c", "cpp src/mac3.c"]
)
def test_dh3_dh4_headers_read_in_turn(tmp_path: Path, line: str) -> None:
    workspace = _headers(tmp_path)
    line = line.format(tmp=tmp_path)
    assert "AKIASECRET" in run_printed(line, workspace, env_beside(tmp_path))  # the real cpp
    assert scan_judge(line, workspace, "cpp").verdict is not Verdict.ALLOW


@pytest.mark.parametrize("line", ["rustdoc --test lib.rs", "rustdoc --runtool x lib.rs"])
def test_dh5_rustdoc_runs_the_examples(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, "rustdoc").verdict is Verdict.ASK


def test_dh6_perl5opt_include_folders(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "lib" / "Digest").mkdir(parents=True)
    (workspace / "lib" / "Digest" / "SHA.pm").write_text("package Digest::SHA; 1;\n")
    policy = load_policy()
    policy.approvals.add("shasum", persist=False)
    cases = (("-Ilib", Verdict.ASK), ("-I lib", Verdict.ASK), ("-w", Verdict.ALLOW))
    for options, verdict in cases:
        env = env_beside(tmp_path, PERL5OPT=options)
        decision = policy.evaluate("shasum x.txt", workspace=str(workspace), env=env)
        assert decision.verdict is verdict, (options, decision.explain())


@pytest.mark.parametrize("variable", ["RIPGREP_CONFIG_PATH", "BAT_CONFIG_PATH"])
def test_dh8_a_nul_in_a_configuration_variable(tmp_path: Path, variable: str) -> None:
    workspace = copy_workspace(tmp_path)
    for value in ("/x\0y", "x\0y", "\0"):
        decision = load_policy().evaluate(
            "rg x", workspace=str(workspace), env=env_beside(tmp_path, **{variable: value})
        )
        assert not any(r.rule_id == "engine.internal-error" for r in decision.reasons)
