"""Every shipped ruleset loads and its inline expectations hold."""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import pytest

from policylang.engine.policy import load_policy, shipped_ruleset

RULESETS = Path(str(importlib.resources.files("policylang") / "rulesets"))
FILES = sorted(p for p in RULESETS.rglob("*.policy") if p.name != "common.policy")


def test_shipped_rulesets_are_package_data() -> None:
    names = {p.relative_to(RULESETS).as_posix() for p in RULESETS.rglob("*.policy")}
    assert {"default.policy", "ci.policy", "readonly.policy", "common.policy"} <= names
    assert {"org-example/org.policy", "org-example/team.policy"} <= names
    assert shipped_ruleset("default") == RULESETS / "default.policy"


def test_top_level_rulesets_is_the_package_directory() -> None:
    top = Path(__file__).resolve().parents[3] / "rulesets"
    assert top.resolve() == RULESETS.resolve()


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(RULESETS).as_posix() for p in FILES])
def test_expectations_hold(path: Path) -> None:
    policy = load_policy(path, check=False)
    assert policy.compiled.expectations, f"{path.name} carries no expectations"
    assert policy.check_expectations() == ()


def test_load_policy_raises_on_failing_expectation(tmp_path: Path) -> None:
    from policylang.errors import RulesetError

    bad = tmp_path / "bad.policy"
    bad.write_text('policy "bad"\nreadonly ls **\nexpect deny "ls"\n')
    with pytest.raises(RulesetError) as info:
        load_policy(bad)
    assert "expectation" in str(info.value)
    assert load_policy(bad, check=False).evaluate("ls", workspace="/w").verdict.value == "allow"


@pytest.mark.parametrize("name", ["PS0", "PS1", "PS2", "PS4"])
def test_prompts_are_listed_as_ask(tmp_path: Path, name: str) -> None:
    # a prompt is expanded like a command line (`PS4='$(…)'` with `set -x` runs it), so
    # common.policy lists it: a later layer's `env default allow` does not free it
    user = tmp_path / "user.policy"
    user.write_text('policy "user"\nenv default allow\n')
    policy = load_policy(extra=[user], check=False, snapshot=False)
    assert policy.evaluate(f"{name}=x ls", workspace="/w").verdict.value == "ask"
    assert policy.evaluate("FOO=x ls", workspace="/w").verdict.value == "allow"


def test_ci_denies_prompts() -> None:
    policy = load_policy(shipped_ruleset("ci"), check=False, snapshot=False)
    assert policy.evaluate("PS4='$(id)' ls", workspace="/w").verdict.value == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "echo x >> .local/bin/ls",
        "echo x >> .bash_aliases",
        "echo x >> .local/lib/python3.11/site-packages/evil.pth",
        "echo x >> .pam_environment",
        "echo x >> .config/environment.d/10-path.conf",
    ],
)
def test_startup_files_deny_even_when_the_workspace_is_home(tmp_path: Path, command: str) -> None:
    # review AM5: with the workspace at $HOME these writes were workspace writes (ask); each
    # runs code later, outside any check
    home = str(tmp_path)
    decision = load_policy().evaluate(command, cwd=home, workspace=home, env={"HOME": home})
    assert decision.verdict == "deny", decision.explain()
    assert load_policy().evaluate(f"cat {command.split()[-1]}", workspace=home,
                                  env={"HOME": home}).verdict == "allow"


@pytest.mark.parametrize(
    "name", ["default.policy", "ci.policy", "readonly.policy", "org-example/org.policy"]
)
def test_shipped_rulesets_load_without_a_diagnostic(name: str) -> None:
    # every warning here is printed at every load; and the validator's checks found dead
    # clause items in our own rules this way (`-vv`, `sqlite3 -version`, `ctest -SP`)
    from policylang.rules.load import check_ruleset

    result = check_ruleset(RULESETS / name)
    assert [d.render() for d in result.diagnostics] == []


def test_the_team_example_shows_exactly_its_intended_warning() -> None:
    from policylang.rules.load import check_ruleset

    result = check_ruleset(RULESETS / "org-example" / "team.policy")
    assert [d.code for d in result.diagnostics] == ["rules.dead-under-locked"]
