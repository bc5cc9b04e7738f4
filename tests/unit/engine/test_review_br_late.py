"""Review BR's findings left for a later session (BR8, BR11, BR13): approvals offered for
programs that run what a file or the compose file says. Each case offered, or allowed
under an approval, a wider rule before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import Policy, load_policy


def _decide(policy: Policy, command: str, workspace: Path, cwd: Path | None = None) -> Decision:
    environment = {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin"}
    return policy.evaluate(
        command, cwd=str(cwd or workspace), workspace=str(workspace), env=environment
    )


@pytest.mark.parametrize(
    ("command", "offered"),
    [
        # BR11: a program that runs the file it is given is offered with that file
        ("m4 macros.m4", "m4 {ws}/macros.m4"),
        ("gnuplot plot.gp", "gnuplot {ws}/plot.gp"),
        ("gp script.gp", "gp {ws}/script.gp"),
        ("papermill in.ipynb out.ipynb", "papermill {ws}/in.ipynb"),
        ("pdflatex paper.tex", "pdflatex {ws}/paper.tex"),
        ("xelatex paper.tex", "xelatex {ws}/paper.tex"),
        ("unknowntool query.sql", "unknowntool {ws}/query.sql"),
        # BR13: `dotnet x.dll` runs the assembly; its verbs stay verbs
        ("dotnet app.dll", "dotnet {ws}/app.dll"),
        ("dotnet build", "dotnet build"),
        # BR8: podman's compose verbs are told apart as docker's are
        ("podman compose ps", "podman compose ps"),
        ("docker compose logs web", "docker compose logs"),
    ],
)
def test_a_program_running_a_file_is_offered_with_that_file(
    workspace: Path, command: str, offered: str
) -> None:
    # (a compose project that interpolates nothing: compose verbs are offered, GS1)
    (workspace / "compose.yaml").write_text("services:\n  web:\n    image: alpine\n")
    decision = _decide(load_policy(), command, workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == offered.format(ws=workspace)


@pytest.mark.parametrize(
    "command",
    [
        # BR11: database shells and scriptable clients run any client command
        "psql db",
        "psql db -c 'select 1'",
        "mysql db",
        "mysql db < dump.sql",
        "duckdb x.db",
        "mongosh x.js",
        "lftp -f script",
        "jupyter nbconvert --execute --to notebook x.ipynb",
        "jupyter execute x.ipynb",
        # BR8: compose starts and builds what the compose file says at the time
        "docker compose up",
        "docker compose up --build",
        "docker compose run web",
        "podman compose up",
        "docker-compose up",
        "docker compose watch",
        # an interpreter's bare name is never offered
        "m4",
        "gnuplot",
    ],
)
def test_nothing_is_offered_for_a_program_that_runs_what_it_is_given(
    workspace: Path, command: str
) -> None:
    decision = _decide(load_policy(), command, workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    ("approved", "command"),
    [
        # BR8: an approval of `compose up` (or of podman's whole `compose`, once offered)
        # built and started whatever the compose file said
        ("docker compose up", "docker compose up --build"),
        ("docker compose up", "docker compose up"),
        ("podman compose", "podman compose up --build"),
        ("docker-compose up", "docker-compose up --build"),
        # BR11: approvals offered before the fix ran any notebook or client command (an
        # approval of an interpreter's bare name says "any script": it is no longer offered)
        ("jupyter nbconvert", "jupyter nbconvert --execute --to notebook /tmp/evil.ipynb"),
        ("mysql db", "mysql db < dump.sql"),
        ("psql db", "psql db -c 'select 1'"),
        ("duckdb", "duckdb x.db"),
    ],
)
def test_an_approval_does_not_cover_what_the_program_is_given_to_run(
    workspace: Path, approved: str, command: str
) -> None:
    policy = load_policy()
    policy.approvals.add(approved, persist=False)
    assert _decide(policy, command, workspace).verdict is Verdict.ASK


def test_an_approved_script_runs_from_where_it_was_approved_only(workspace: Path) -> None:
    """BR13: `dotnet x.dll` was offered relative, so approved once it covered any
    `x.dll` in any folder; anchored, it covers the one file."""
    (workspace / "sub").mkdir()
    policy = load_policy()
    offered = _decide(policy, "dotnet app.dll", workspace).suggested_rule
    assert offered is not None
    policy.approvals.add(offered, persist=False)
    assert _decide(policy, "dotnet app.dll", workspace).verdict is Verdict.ALLOW
    assert _decide(policy, "dotnet app.dll", workspace, workspace / "sub").verdict is Verdict.ASK
    policy.approvals.add(f"gnuplot {workspace}/plot.gp", persist=False)
    assert _decide(policy, "gnuplot plot.gp", workspace).verdict is Verdict.ALLOW
    assert _decide(policy, "gnuplot ../plot.gp", workspace, workspace / "sub").verdict is (
        Verdict.ALLOW
    )
    assert _decide(policy, "gnuplot /tmp/plot.gp", workspace).verdict is Verdict.ASK


@pytest.mark.parametrize(
    "command",
    ["docker compose up", "psql db", "m4 x.m4", "jupyter execute x.ipynb", "dotnet app.dll"],
)
def test_ci_denies_what_the_default_asks_here(workspace: Path, command: str) -> None:
    ci = load_policy(Path(__file__).parents[3] / "rulesets" / "ci.policy")
    assert _decide(ci, command, workspace).verdict is Verdict.DENY
