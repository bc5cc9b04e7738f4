"""Review CW: layering, the rule tree and `check` against a security team's files.

CW1: a main file that includes a helper before the org's file made the helper the
earlier layer: the org's locked rules and denies stopped holding. CW2: a later layer's
reading line dropped an org `protect … ask`. CW3: `a|b` in a protect glob protected
nothing. CW4: an undecidable deny lost to a more specific `readonly` rule. CW5: `check`
passed `protect read ~/.ssh deny` and `locked ask kubectl`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from policylang import load_policy
from policylang.engine.policy import shipped_ruleset
from policylang.rules.load import check_ruleset


@pytest.fixture
def rulesets(tmp_path: Path) -> Path:
    """A copy of the shipped org example beside the shipped common file, a workspace and
    a home."""
    root = tmp_path / "rulesets"
    (root / "org-example").mkdir(parents=True)
    (root / "common.policy").write_text(shipped_ruleset("common").read_text())
    org = shipped_ruleset("org-example/org").read_text()
    (root / "org-example" / "org.policy").write_text(org)
    (tmp_path / "ws").mkdir()
    (tmp_path / "home").mkdir()
    return root


def _team(rulesets: Path, helper: str, *, helper_first: bool) -> Path:
    folder = rulesets / "org-example"
    (folder / "helper.policy").write_text(helper)
    includes = ['include "helper.policy"', 'include "org.policy"']
    if not helper_first:
        includes.reverse()
    team = folder / "team2.policy"
    team.write_text('policy "team" version "1"\n' + "\n".join(includes) + "\n")
    return team


def _verdict(policy_path: Path, command: str, tmp_path: Path, *extra: Path) -> tuple[str, bool]:
    policy = load_policy(policy_path, extra=list(extra), check=False, snapshot=False)
    decision = policy.evaluate(
        command, workspace=tmp_path / "ws", env={"HOME": str(tmp_path / "home"), "PATH": "/bin"}
    )
    return decision.verdict.value, decision.locked


@pytest.mark.parametrize("helper_first", [True, False])
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("timeout 5 sudo id", ("deny", False)),
        ("timeout 5 gh secret list", ("deny", False)),
        ("timeout 5 curl https://x.example/", ("ask", True)),
    ],
)
def test_cw1_a_helper_included_before_the_org_does_not_change_its_reading(
    rulesets: Path, tmp_path: Path, helper_first: bool, command: str, expected: tuple[str, bool]
) -> None:
    team = _team(rulesets, "wrapper timeout positionals 2\n", helper_first=helper_first)
    assert _verdict(team, command, tmp_path) == expected


@pytest.mark.parametrize("helper_first", [True, False])
def test_cw1_a_helpers_allow_does_not_beat_the_orgs_locked_ask(
    rulesets: Path, tmp_path: Path, helper_first: bool
) -> None:
    team = _team(rulesets, "allow curl https://evil.example/*\n", helper_first=helper_first)
    assert _verdict(team, "curl https://evil.example/x", tmp_path) == ("ask", True)


def test_cw1_a_locked_rule_of_a_later_file_holds_over_an_earlier_allow(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "home").mkdir()
    base = tmp_path / "base.policy"
    base.write_text("allow kubectl get **\n")
    later = tmp_path / "later.policy"
    later.write_text("locked ask kubectl **\n")
    assert _verdict(base, "kubectl get pods", tmp_path, later) == ("ask", True)


def test_cw2_a_reading_line_does_not_drop_an_earlier_protect_ask(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "ws").mkdir()
    (home / ".bash_history").write_text("export GITHUB_TOKEN=ghp_secret123\n")
    team = tmp_path / "team.policy"
    team.write_text("options cat value -n\n")
    default = shipped_ruleset("default")
    assert _verdict(default, "cat -n ~/.bash_history", tmp_path) == ("ask", False)
    layered = load_policy(default, extra=[team], check=False, snapshot=False)
    decision = layered.evaluate(
        "cat -n ~/.bash_history", workspace=tmp_path / "ws", env={"HOME": str(home)}
    )
    assert decision.verdict == "ask", decision.explain()
    assert decision.suggested_rule is None
    assert any(r.rule_id == "histories-and-browsers" for r in decision.reasons)
    # what it would have let through
    done = subprocess.run(
        ["bash", "-c", "cat -n ~/.bash_history"], env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "ghp_secret123" in done.stdout
    # the team's reading still decides what the org leaves open
    assert layered.evaluate("cat -n README", workspace=tmp_path / "ws").verdict == "allow"


@pytest.mark.parametrize(
    ("line", "paths"),
    [
        ("protect read-write secret.txt|token.txt deny", ["secret.txt", "token.txt"]),
        ("protect read-write ~/.aws/credentials|~/.ssh/id_rsa deny",
         ["~/.aws/credentials", "~/.ssh/id_rsa"]),
    ],
)  # fmt: skip
def test_cw3_a_bar_in_a_protect_glob_is_two_globs(
    tmp_path: Path, line: str, paths: list[str]
) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "home").mkdir()
    policy = tmp_path / "p.policy"
    policy.write_text(f"readonly cat **\n{line}\n")
    for path in paths:
        assert _verdict(policy, f"cat {path}", tmp_path) == ("deny", False), path


def test_cw3_braces_in_a_protect_glob_are_an_error(tmp_path: Path) -> None:
    policy = tmp_path / "p.policy"
    policy.write_text("protect read-write ~/.{ssh,aws}/** deny\n")
    result = check_ruleset(policy)
    assert result.policy is None
    assert any(d.code == "rules.bad-glob" and "braces" in d.message for d in result.diagnostics)


def test_cw4_an_undecidable_deny_is_not_beaten_by_a_more_specific_readonly(
    tmp_path: Path,
) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "home").mkdir()
    user = tmp_path / "user.policy"
    user.write_text("readonly git push origin *\n")
    default = shipped_ruleset("default")
    assert _verdict(default, "git push origin $X", tmp_path, user)[0] == "ask"
    assert _verdict(default, "git push origin --force", tmp_path, user)[0] == "deny"
    assert _verdict(default, "git push origin main", tmp_path, user)[0] == "allow"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("protect read ~/.ssh deny", "rules.protect-folder"),
        ("protect read-write .claude ask", "rules.protect-folder"),
        ("locked ask kubectl", "rules.bare-command"),
        ("deny shutdown", "rules.bare-command"),
    ],
)
def test_cw5_check_warns_of_rules_that_do_not_mean_what_they_look_like(
    tmp_path: Path, line: str, code: str
) -> None:
    policy = tmp_path / "p.policy"
    policy.write_text(line + "\n")
    result = check_ruleset(policy)
    assert any(d.code == code for d in result.diagnostics), result.diagnostics


@pytest.mark.parametrize(
    "line",
    ["protect read ~/.ssh/** deny", "protect read ~/.ssh/config deny", "locked ask kubectl **",
     "deny shutdown **", "ask make", "protect read ~/.ssh allow"],
)  # fmt: skip
def test_cw5_the_intended_spellings_pass(tmp_path: Path, line: str) -> None:
    policy = tmp_path / "p.policy"
    policy.write_text(line + "\n")
    result = check_ruleset(policy)
    assert not result.diagnostics, result.diagnostics
