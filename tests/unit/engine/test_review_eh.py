"""Review EH: tools that run a verb they do not know as `TOOL-VERB`, found by PATH (perf,
cargo, kubectl …): a workspace folder on PATH holding such a program made an approved
`perf foo` (or `cargo foo`, `kubectl foo`) run the repository's code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict, load_policy


def _planted(tmp_path: Path, name: str) -> tuple[Path, dict[str, str]]:
    """A workspace whose `bin/` (on PATH, first) holds an executable `name`."""
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (workspace / "bin").mkdir(parents=True)
    home.mkdir()
    program = workspace / "bin" / name
    program.write_text("#!/bin/sh\ntouch PWNED\n")
    program.chmod(0o755)
    return workspace, {"HOME": str(home), "PATH": f"{workspace}/bin:/usr/bin:/bin"}


_PLUGINS = [
    ("perf foo", "perf-foo", "perf foo"),
    ("perf foo", "perf-foo", "perf"),
    ("perf --no-pager foo", "perf-foo", "perf --no-pager foo"),
    ("cargo foo", "cargo-foo", "cargo foo"),
    ("cargo +nightly foo --x", "cargo-foo", "cargo +nightly foo"),
    ("kubectl foo", "kubectl-foo", "kubectl foo"),
    ("kubectl -n ns foo bar", "kubectl-foo-bar", "kubectl -n ns foo bar"),
    ("kubectl foo bar", "kubectl-foo", "kubectl foo bar"),
    ("oc foo", "kubectl-foo", "oc foo"),
    ("dotnet foo", "dotnet-foo", "dotnet foo"),
    ("brew foo", "brew-foo", "brew foo"),
    ("cabal foo", "cabal-foo", "cabal foo"),
    ("opam foo", "opam-foo", "opam foo"),
    ("bundle foo", "bundler-foo", "bundle foo"),
    ("env perf foo", "perf-foo", "perf foo"),
]


@pytest.mark.parametrize(("line", "plugin", "approval"), _PLUGINS)
def test_a_workspace_plugin_found_by_path_asks_under_any_approval(
    tmp_path: Path, line: str, plugin: str, approval: str
) -> None:
    workspace, env = _planted(tmp_path, plugin)
    for approvals in ((), (approval,)):
        decision = decide(line, workspace, env, *approvals)
        assert decision.verdict is not Verdict.ALLOW, (approvals, decision.explain())
        assert any(r.rule_id == "engine.path-program" for r in decision.reasons), (
            decision.explain()
        )


def test_without_a_workspace_plugin_the_approval_holds(tmp_path: Path) -> None:
    """The same approvals still allow where PATH has no such program in the workspace."""
    workspace, env = _planted(tmp_path, "unrelated")
    for line, approval in (("perf foo", "perf foo"), ("cargo foo", "cargo foo")):
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_bare_perf_is_offered_with_its_verb_only(tmp_path: Path) -> None:
    """Bare `perf` was offered as `perf`, which approved every verb; now as the line."""
    workspace, env = _planted(tmp_path, "unrelated")
    policy = load_policy()
    assert policy.evaluate("perf", workspace=str(workspace), env=env).suggested_rule != "perf"
    found = policy.evaluate("perf foo -x", workspace=str(workspace), env=env).suggested_rule
    assert found is not None
    assert found.startswith("perf foo")


@pytest.mark.skipif(shutil.which("perf") is None, reason="perf is not installed")
def test_the_real_perf_runs_a_workspace_perf_foo_found_by_path(tmp_path: Path) -> None:
    workspace, env = _planted(tmp_path, "perf-foo")
    subprocess.run(["perf", "foo"], cwd=workspace, env=env, capture_output=True, timeout=60,
                   check=False)  # fmt: skip
    assert (workspace / "PWNED").exists()
