"""Fixer CG: review HV7 repaired narrowly, and HX's false deny of `gulp --cwd ..`.

HV7: an approved task runner moved to another folder by its option (`gulp --cwd ~`,
`grunt --base ~`, `snakemake --directory ~`, `makers --cwd ~`) runs its tasks there, which
read that folder as they read the project: under the program's approval the home read
whole was denied, until CA's `*-other-file` ask clauses matched first and the line asked.
It is denied again, but only for the folder such an option names (fixer CC's repair read
every operand of any line whose clause asked, and denied `uv sync --directory /tmp`,
which reads one project file there, where the home lies below `/tmp`).
HX: a folder holding the workspace (`gulp --cwd ..`) is read beside the workspace, whose
own `.env` files the approved tasks read anyway: the rest of it is judged, not those.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from realrun import decide, env_beside

from policylang import Decision, Verdict

Judge = Callable[..., Decision]


@pytest.fixture
def judge_in_ws(tmp_path: Path) -> Judge:
    """The default policy's decision in `tmp_path/ws`, the home `tmp_path/home` beside it."""
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    env = env_beside(tmp_path)

    def judge(command: str, approvals: tuple[str, ...] = ()) -> Decision:
        return decide(command, workspace, env, *approvals)

    return judge


@pytest.mark.parametrize(
    ("command", "approval"),
    [
        ("gulp --cwd ~", "gulp"),
        ("grunt --base ~", "grunt"),
        ("grunt --tasks ~", "grunt"),
        ("snakemake --directory ~", "snakemake"),
        ("snakemake -d ~", "snakemake"),
        ("makers --cwd ~", "makers"),
        ("cargo make --cwd ~", "cargo make"),
        ("gulp --cwd ~ --gulpfile x.js", "gulp"),
        ("gulp --cwd /", "gulp"),
        # the tests' `..` holds the home (`tmp_path/home`)
        ("gulp --cwd ..", "gulp"),
    ],
)
def test_home_read_whole_by_an_approved_runner_denied(
    command: str, approval: str, judge_in_ws: Judge
) -> None:
    decision = judge_in_ws(command, (approval,))
    assert decision.verdict is Verdict.DENY
    assert "secrets-home" in {reason.rule_id for reason in decision.reasons}


@pytest.mark.parametrize(
    ("command", "approval", "verdict"),
    [
        # one project file read there, not the folder: the clause asks (test_review_cv)
        ("uv sync --directory /tmp", "uv sync", Verdict.ASK),
        ("uv sync --directory sub", "uv sync", Verdict.ASK),
        ("poetry install -C /tmp", "poetry install", Verdict.ASK),
        # inside the workspace: the clause asks, nothing more
        ("gulp --cwd sub", "gulp", Verdict.ASK),
        ("grunt --base sub", "grunt", Verdict.ASK),
        ("snakemake --directory sub", "snakemake", Verdict.ASK),
        ("gulp build", "gulp", Verdict.ALLOW),
        ("grunt build", "grunt", Verdict.ALLOW),
        # without the approval: the clause asks, as before
        ("gulp --cwd ~", None, Verdict.ASK),
        # bash leaves `~` after `--cwd=` as it is: gulp is given a folder `./~`
        ("gulp --cwd=~", "gulp", Verdict.ASK),
    ],
)
def test_other_lines_keep_their_verdicts(
    command: str, approval: str | None, verdict: Verdict, judge_in_ws: Judge
) -> None:
    approvals = (approval,) if approval else ()
    assert judge_in_ws(command, approvals).verdict is verdict


def test_bash_leaves_a_tilde_after_an_option_equals() -> None:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    done = subprocess.run(
        [bash, "-c", "printf %s --cwd=~"], capture_output=True, text=True, check=True,
        env={"HOME": "/nonexistent-home"},
    )  # fmt: skip
    assert done.stdout == "--cwd=~"


@pytest.mark.parametrize("command", ["gulp --cwd ..", "grunt --base .."])
def test_workspace_parent_apart_from_the_home_asks(command: str, tmp_path: Path) -> None:
    """HX: `..` holds the workspace (its `.env` files, read by the approved tasks anyway)
    and a sibling project, not the home: the clause asks, no deny."""
    workspace = tmp_path / "p" / "ws"
    workspace.mkdir(parents=True)
    (tmp_path / "p" / "other").mkdir()
    (tmp_path / "p" / "other" / "gulpfile.js").write_text("")
    (tmp_path / "h" / "home").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "h" / "home"), "PATH": "/usr/bin:/bin"}
    program = command.split()[0]
    assert decide(command, workspace, env, program).verdict is Verdict.ASK
    # the home two levels up is reached still
    deep = command.replace("..", "../..")
    assert decide(deep, workspace, env, program).verdict is Verdict.DENY
