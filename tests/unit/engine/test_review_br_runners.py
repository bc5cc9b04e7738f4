"""Review BR (runners): npm-family runners, global installs, bun's fallback, Windows program
names seen from WSL, lima's quoting.

BR1: `npx CMD`, `yarn exec CMD`, `pnpm exec CMD` (npm, yarn 1, pnpm run PATH's program
when no package has the name), `npm exec -c 'CMD'`, `yarn|pnpm dlx`, `bun x`, `bunx`
asked where the same command alone (`rm -rf ~`) is denied: their command is judged for
a deny, as `env CMD` is.
BR2: `yarn global add x` was offered `yarn global add`, where `npm install -g x`, `pnpm
add -g x`, `bun add -g x` are offered nothing.
BR3: bun runs a first word that is none of its commands and no file as a script, a
package's program or a program of PATH: `bun git push` was offered `bun git`, and an
approved `bun` allowed it.
HH6: a Windows program run from WSL by its file's name (`git.exe`) had none of the checks
of the program it is: an approved `git.exe` allowed `git.exe -c core.pager=x log`;
`rm.exe -rf ~` asked; Windows' shells (`cmd.exe`, `powershell.exe`, `pwsh`) read
command strings no check reads.
HH7: limactl quotes a leading word that holds a `=` after its first `=` only (`lima
'x;cat ~/.ssh/id_rsa;y=1'` runs `cat` in the machine), and `limactl shell --tty=false
default CMD` was not read (an option it did not know).

The real npm-family programs run where they are installed (see `realrun`); the engine's
verdicts are asserted everywhere.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import NODE as _NODE
from realrun import PNPMS as _PNPMS
from realrun import YARN1 as _YARN1
from realrun import canary_workspace, decide, program_printed
from realrun import node_tool as _real
from realrun import yarn_env as _run_env

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A package with a `lint` script and a program `tsc` in its `node_modules/.bin`."""
    workspace, env = canary_workspace(
        tmp_path, None,
        {"package.json": '{"name": "p", "version": "1.0.0", "scripts": {"lint": "eslint ."}}',
         "node_modules/.bin/tsc": "#!/bin/sh\n"},
    )  # fmt: skip
    (workspace / "node_modules/.bin/tsc").chmod(0o755)
    return workspace, env


# -- BR1: the command of an npm-family runner ---------------------------------------------
def _premise_runs_path_program(args: list[str], tmp_path: Path, env: dict[str, str]) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "f").write_text("x")
    program_printed([*args, "rm", "-rf", str(victim)], tmp_path / "ws", env)
    assert not victim.exists(), args


@pytest.mark.skipif(shutil.which("npx") is None, reason="npx is not installed")
def test_br1_npx_runs_a_program_of_path(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    real = {**env, "PATH": f"{Path(str(_NODE or 'node')).parent}:/usr/bin:/bin",
            "npm_config_cache": str(tmp_path / "cache")}  # fmt: skip
    _premise_runs_path_program(["npx", "--offline", "--yes"], tmp_path, real)
    assert decide("npx rm -rf ~", workspace, env).verdict is Verdict.DENY


@pytest.mark.skipif(not (_real(_YARN1) and _PNPMS), reason="yarn or pnpm is not installed")
def test_br1_yarn_and_pnpm_exec_run_a_program_of_path(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    real = _run_env({**env, "PATH": f"{Path(str(_NODE)).parent}:/usr/bin:/bin"})
    # (yarn 1 reads the options before `--` as its own; berry passes them on)
    _premise_runs_path_program([str(_NODE), str(_YARN1), "exec", "--"], tmp_path, real)
    _premise_runs_path_program([str(_NODE), str(_PNPMS[0]), "exec"], tmp_path, real)
    for line in ("yarn exec -- rm -rf ~", "yarn exec rm -rf ~", "pnpm exec rm -rf ~"):
        assert decide(line, workspace, env).verdict is Verdict.DENY, line


@pytest.mark.parametrize(
    "line",
    [
        "npx rm -rf ~",
        "npx -y rm -rf ~",
        "npx --package foo rm -rf ~",
        "npx -c 'rm -rf ~'",
        "pnpx rm -rf ~",
        "bunx rm -rf ~",
        "npm exec rm -rf ~",
        "npm exec -- rm -rf ~",
        "npm x -- rm -rf ~",
        "npm ex rm -rf ~",
        "npm exec -c 'rm -rf ~'",
        "npm exec --call='rm -rf ~'",
        "yarn exec rm -rf ~",
        "yarnpkg exec rm -rf ~",
        "yarn dlx rm -rf ~",
        "pnpm exec rm -rf ~",
        "pnpm -C sub exec rm -rf ~",
        "pnpm --filter app exec rm -rf ~",
        "pnpm exec --shell-mode 'rm -rf ~'",
        "pnpm dlx rm -rf ~",
        "bun x rm -rf ~",
        "bun exec 'rm -rf ~'",
    ],
)
def test_br1_a_runners_command_keeps_its_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide("rm -rf ~", workspace, env).verdict is Verdict.DENY
    runner = line.split(" rm ")[0].split(" '")[0].split(" --call")[0].split(" --")[0]
    for approvals in ((), (runner,)):
        found = decide(line, workspace, env, *approvals)
        assert found.verdict is Verdict.DENY, (line, approvals, found.explain())
        assert "engine.runner-command" in {r.rule_id for r in found.reasons}


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("yarn exec tsc", "yarn exec"),
        ("npx prettier --check .", "npx"),
        ("pnpm exec tsc --noEmit", "pnpm exec"),
        ("npx rimraf dist", "npx"),
        ("yarn exec rm -rf node_modules", "yarn exec"),
        ("npx echo 'rm -rf'", "npx"),
    ],
)
def test_br1_ordinary_runner_lines_keep_their_verdicts(
    tmp_path: Path, line: str, approval: str
) -> None:
    # (guard: they asked before and still do; nothing is denied)
    workspace, env = _workspace(tmp_path)
    for approvals in ((), (approval,)):
        found = decide(line, workspace, env, *approvals)
        assert found.verdict is Verdict.ASK, (line, approvals, found.explain())


# -- BR2: global installs are offered nothing ---------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        "yarn global add cowsay",
        "yarn global upgrade",
        "yarn global remove cowsay",
        "npm install -g cowsay",
        "pnpm add -g cowsay",
        "bun add -g cowsay",
        "bun install --global cowsay",
    ],
)
def test_br2_global_installs_are_offered_nothing(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    found = decide(line, workspace, env)
    assert found.verdict is Verdict.ASK
    assert found.suggested_rule is None, (line, found.suggested_rule)
    words = line.split()
    for size in range(1, len(words) + 1):
        approval = " ".join(words[:size])
        assert decide(line, workspace, env, approval).verdict is Verdict.ASK, (line, approval)


@pytest.mark.parametrize(
    ("line", "offer"),
    [("yarn add cowsay", "yarn add"), ("yarn global bin", "yarn global"),
     ("pnpm add cowsay", "pnpm add"), ("bun add cowsay", "bun add")],
)  # fmt: skip
def test_br2_project_installs_stay_offered(tmp_path: Path, line: str, offer: str) -> None:
    # (guard)
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).suggested_rule == offer


# -- BR3: bun's first word ----------------------------------------------------------------
@pytest.mark.parametrize(
    "line", ["bun git push origin main", "bun node x.js", "bun --silent git push"]
)
def test_br3_no_bun_approval_covers_a_program_of_path(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    found = decide(line, workspace, env)
    assert found.verdict is Verdict.ASK
    assert found.suggested_rule is None, found.suggested_rule
    program = line.split()[1] if line.split()[1] != "--silent" else "git"
    for approval in ("bun", f"bun {program}"):
        found = decide(line, workspace, env, approval)
        assert found.verdict is Verdict.ASK, (line, approval, found.explain())


@pytest.mark.parametrize(
    ("line", "offer"),
    [("bun lint", "bun lint"), ("bun tsc --noEmit", "bun tsc"), ("bun test", "bun test"),
     ("bun install", "bun install")],
)  # fmt: skip
def test_br3_scripts_and_project_programs_stay_approved(
    tmp_path: Path, line: str, offer: str
) -> None:
    # (guard)
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).suggested_rule == offer
    for approval in ("bun", offer):
        assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW, (line, approval)


# -- HH6: Windows program names -------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("git.exe -c core.pager=x log", "git.exe"),
        ("git.exe push origin main", "git.exe"),
        ("GIT.EXE log", "GIT.EXE"),
        ("git.exe log", "git.exe log"),
        ("cmd.exe /c 'del x'", "cmd.exe"),
        ("powershell.exe -c 'Remove-Item -Recurse x'", "powershell.exe"),
        ("pwsh.exe -c ls", "pwsh.exe"),
        ("pwsh -c ls", "pwsh"),
    ],
)
def test_hh6_no_approval_covers_a_windows_program(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).suggested_rule is None
    found = decide(line, workspace, env, approval)
    assert found.verdict is Verdict.ASK, (line, found.explain())
    assert "engine.windows-program" in {r.rule_id for r in found.reasons}


@pytest.mark.parametrize(
    "line",
    [
        "rm.exe -rf ~",
        "git.exe push --force origin main",
        "limactl.exe shell default cat ~/.ssh/id_rsa",
        "multipass.exe exec vm -- rm -rf ~",
        "wsl.exe rm -rf ~",
    ],
)
def test_hh6_a_windows_program_is_denied_as_the_program_it_is(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.DENY, line


def test_hh6_git_status_keeps_its_verdict(tmp_path: Path) -> None:
    # (guard: `git status` is allowed; `git.exe status` asks, as it did)
    workspace, env = _workspace(tmp_path)
    assert decide("git status", workspace, env).verdict is Verdict.ALLOW
    assert decide("git.exe status", workspace, env).verdict is Verdict.ASK


# -- HH7: lima's quoting and options --------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        "lima 'x;cat ~/.ssh/id_rsa;y=1'",
        "limactl shell default 'x;cat ~/.ssh/id_rsa;y=1'",
        "limactl shell --tty=false default cat ~/.ssh/id_rsa",
    ],
)
def test_hh7_lima_lines_keep_their_deny(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    found = decide(line, workspace, env)
    assert found.verdict is Verdict.DENY, (line, found.explain())


@pytest.mark.parametrize(
    "line", ["lima A=1 ls", "lima echo 'a;cat x;b=1'", "limactl shell --tty=false default ls"]
)
def test_hh7_ordinary_lima_lines_keep_their_verdicts(tmp_path: Path, line: str) -> None:
    # (guard)
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env).verdict is Verdict.ASK, line
