"""Review HM (of review BR's change): Windows shells under their other names, Windows'
case-blind names, `.com` programs, workspace builds named `.exe`, bun's own commands, and
the npm-family runners that quote their command's words.

HM1: PowerShell installed as `pwsh-lts`, `pwsh-preview` or `powershell-preview` was
offered its name, and approved it allowed `-Command 'Remove-Item -Recurse -Force ~'`.
HM2: `RM.EXE -rf ~` asked where `rm.exe -rf ~` is denied (Windows ignores case).
HM3: `format.com D:` was offered `format.com` (WSL runs `.com` programs too).
HM4 / HP5: a native build named `.exe` run by its workspace path (dune's
`./_build/default/bin/main.exe`) lost its offer to the Windows-program check; telling it
from a Windows drive's program by its path (review HM's fix) let `//mnt/c/…/git.exe` and
`/c/…/git.exe` through (HP5), so every `.exe` path is a Windows program.
HM5: bun's own `list`, `whoami`, `uninstall` were read as programs bun falls back to.
HM6: `npx`, `npm exec` and `bun x` quote their command's words, so `npx cowsay 'a >
~/.bashrc'` prints the text; judging its words joined denied it. yarn's `exec` and the
code options (`-c`, `--call`, `--shell-mode`) still get the joined reading.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import canary_workspace, decide

from policylang import Verdict


def _ws(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    return canary_workspace(tmp_path, "TOKEN=hm-canary")


@pytest.mark.parametrize("name", ["pwsh-preview", "pwsh-lts", "powershell-preview", "PWSH.EXE"])
def test_hm1_powershell_names_are_windows_shells(tmp_path: Path, name: str) -> None:
    workspace, env = _ws(tmp_path)
    asked = decide(f"{name} -Command Get-Date", workspace, env)
    assert asked.verdict is Verdict.ASK
    assert asked.suggested_rule is None
    line = f"{name} -Command 'Remove-Item -Recurse -Force ~'"
    approved = decide(line, workspace, env, name)
    assert approved.verdict is not Verdict.ALLOW
    assert "engine.windows-program" in {r.rule_id for r in approved.reasons}


@pytest.mark.parametrize(
    "line", ["RM.EXE -rf ~", "Rm.Exe -rf ~", "GIT.EXE push --force origin main", "rm.com -rf ~"]
)
def test_hm2_windows_names_ignore_case(tmp_path: Path, line: str) -> None:
    workspace, env = _ws(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.DENY


def test_hm3_com_programs_are_windows_programs(tmp_path: Path) -> None:
    workspace, env = _ws(tmp_path)
    assert decide("format.com D:", workspace, env).suggested_rule is None
    assert decide("format.com D:", workspace, env, "format.com").verdict is Verdict.ASK


@pytest.mark.parametrize(
    "line",
    [
        "//mnt/c/Git/cmd/git.exe log --ext-diff -p",
        "/./mnt/c/Git/cmd/git.exe -c core.pager=x log",
        "/c/Git/cmd/git.exe log --ext-diff -p",
        "./win/git.exe log --ext-diff -p",
        "./_build/default/bin/main.exe --help",
    ],
)
def test_hp5_any_exe_path_is_a_windows_program(tmp_path: Path, line: str) -> None:
    # review HP5: a Windows drive has many spellings and mount points, and a workspace or
    # a link may lie on one; so every `.exe` asks under its approval, a native build named
    # `.exe` too (HM4's over-strictness, kept on purpose)
    workspace, env = _ws(tmp_path)
    program = line.split()[0]
    decision = decide(line, workspace, env, program, line)
    assert decision.verdict is Verdict.ASK
    assert "engine.windows-program" in {r.rule_id for r in decision.reasons}
    assert decide(line, workspace, env).suggested_rule is None


@pytest.mark.parametrize("line", ["bun list", "bun whoami", "bun uninstall left-pad"])
def test_hm5_bun_commands_are_not_programs(tmp_path: Path, line: str) -> None:
    workspace, env = _ws(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.suggested_rule is not None
    assert "engine.approved-runs-program" not in {r.rule_id for r in decision.reasons}


@pytest.mark.parametrize(
    "line",
    ["npx cowsay 'hello > ~/.bashrc'", "npm exec -- cowsay 'a; rm -rf ~'", "bunx cowsay 'a >~/x'"],
)
def test_hm6_quoted_runner_words_are_not_denied(tmp_path: Path, line: str) -> None:
    workspace, env = _ws(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.ASK


@pytest.mark.parametrize(
    "line",
    [
        "npm exec -c 'rm -rf ~'",
        "npm exec --call 'rm -rf ~'",
        "npx -c 'rm -rf ~'",
        "pnpm -c exec 'rm -rf ~'",
        "pnpm exec --shell-mode 'rm -rf ~'",
        "pnpm --shell-mode exec 'rm -rf ~'",
        "pnpm exec --shell-mode=true 'rm -rf ~'",
        "pnpm dlx --shell-mode=true 'rm -rf ~'",
        "yarn exec 'rm -rf ~'",
        "bun exec 'rm -rf ~'",
        "npx rm -rf ~",
    ],
)
def test_hm6_shell_code_runners_keep_the_joined_reading(tmp_path: Path, line: str) -> None:
    workspace, env = _ws(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.DENY


@pytest.mark.skipif(shutil.which("npx") is None, reason="premise only: npx is not installed")
def test_hm6_premise_npx_quotes_each_word(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(
        ["npx", "--offline", "echo", f"a > {out}; touch {out}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"a > {out}; touch {out}" in done.stdout
    assert not out.exists()
