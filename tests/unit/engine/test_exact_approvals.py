"""Exact approvals (`make $`): offered where no prefix can be (the line is shorter than its
arity prefix: bare `make`, `npm run`, `ip a`; never with an option, review DF1), they
approve that line and no longer one, and the words after the program's name are checked
as those after any approved prefix are."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import approved, aws_secret, canary_environment, copy_workspace, judge

from policylang import Verdict, load_policy
from policylang.engine.approvals import (
    EXACT_END,
    ApprovalError,
    Approvals,
    format_rule,
    rule_words,
)


@pytest.mark.parametrize(
    ("rule", "words"),
    [("make $", ("make", EXACT_END)), ("npm run $", ("npm", "run", EXACT_END)),
     ("make '$'", ("make", "$")), ("make \\$", ("make", "$")), ("make \\ $", ("make", " $")),
     ("make \\\\ $", ("make", "\\", EXACT_END)), ("$", ("$",)), ("make x$", ("make", "x$")),
     ("make  $  ", ("make", EXACT_END)), ("'make x' $", ("make x", EXACT_END))],
)  # fmt: skip
def test_an_exact_rule_is_a_dollar_of_its_own(rule: str, words: tuple[str, ...]) -> None:
    assert rule_words(rule) == words
    assert rule_words(format_rule(words)) == words  # what is written reads back the same


def test_a_nul_is_no_part_of_a_rule() -> None:
    with pytest.raises(ApprovalError):
        rule_words("make \0")


def test_an_exact_rule_matches_its_words_alone() -> None:
    approvals = Approvals()
    approvals.add("make $", persist=False)
    approvals.add("ip a $", persist=False)
    assert approvals.match(("make",)) == ("make", EXACT_END)
    assert approvals.match(("make", "deploy")) is None
    assert approvals.match(("ip", "a")) == ("ip", "a", EXACT_END)
    assert approvals.match(("ip", "a", "add", "x")) is None
    assert approvals.match(("ip",)) is None
    approvals.add("make test", persist=False)
    assert approvals.match(("make", "test", "-j4")) == ("make", "test")
    assert approvals.match(("make",)) == ("make", EXACT_END)
    assert approvals.rules() == ("ip a $", "make $", "make test")
    assert approvals.remove("make $")
    assert approvals.match(("make",)) is None


def test_an_exact_rule_is_kept_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "approvals.toml"
    Approvals(path).add("make $", persist=True)
    assert '"make $"' in path.read_text()
    assert Approvals(path).match(("make",)) == ("make", EXACT_END)
    assert Approvals(path).match(("make", "x")) is None


@pytest.mark.parametrize(
    ("line", "suggestion"),
    [("make", "make $"), ("npm run", "npm run $"), ("ip a", "ip a $"),
     ("make -j4", "make -j4 $"), ("systemctl --user", None), ("tmux", None),
     ("make test", "make test"), ("python3", None), ("bash", None), ("env", None),
     ("timeout 5", None), ("make $X", None), ("make -j4 -k -s -w -B -e -i -n", None)],
)  # fmt: skip
def test_what_is_offered(tmp_path: Path, line: str, suggestion: str | None) -> None:
    workspace = copy_workspace(tmp_path)
    decision = judge(line, workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == suggestion


@pytest.mark.parametrize(
    ("rule", "allowed", "not_allowed"),
    [("make $", ["make", "cd x && make", "make 2>/dev/null"],
      ["make deploy", "make -f x.mk", "make; curl https://example.com", "make > ~/.bashrc",
       "MAKEFLAGS=--eval=x make", "make && make install", "gmake", "make ''"]),
     ("npm run $", ["npm run"], ["npm run build", "npm run-script", "npm"]),
     ("ip a $", ["ip a"], ["ip a add 10.0.0.1/24 dev eth0", "ip"])],
)  # fmt: skip
def test_an_exact_approval_lets_its_line_alone_through(
    tmp_path: Path, rule: str, allowed: list[str], not_allowed: list[str]
) -> None:
    workspace = copy_workspace(tmp_path)
    for line in allowed:
        assert judge(line, workspace, rule).verdict is Verdict.ALLOW, line
        assert judge(line, workspace).verdict is not Verdict.ALLOW, line
    for line in not_allowed:
        decision = judge(line, workspace, rule)
        assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_the_words_after_the_program_are_still_checked(tmp_path: Path) -> None:
    # a link made after the approval: the exact words now name a secret (an approval
    # of `cat notes.txt $` must not print what `notes.txt` has become)
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    (workspace / "notes.txt").symlink_to(secret)
    (workspace / "run.sh").write_text("#!/bin/sh\n")
    for rule, line in (("mytool notes.txt $", "mytool notes.txt"),
                       ("make notes.txt $", "make notes.txt")):  # fmt: skip
        decision = judge(line, workspace, rule)
        assert decision.verdict is Verdict.DENY, decision.explain()
    done = subprocess.run(["cat", "notes.txt"], cwd=workspace, capture_output=True, text=True)
    assert "AKIASECRET" in done.stdout


def test_every_exact_suggestion_round_trips(tmp_path: Path) -> None:
    # a suggestion is a promise: approved, it lets the line it was offered for through
    workspace = copy_workspace(tmp_path)
    env = canary_environment(workspace)
    lines = ["make", "npm run", "ip a", "yarn", "just", "bundle", "git", "docker", "npm",
             "cargo", "kubectl"]  # fmt: skip
    for line in lines:
        policy = load_policy()
        rule = policy.evaluate(line, workspace=str(workspace), env=env).suggested_rule
        assert rule is not None, line
        assert rule.endswith(" $"), line
        policy.approvals.add(rule, persist=False)
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ALLOW, decision.explain()
        assert approved(rule).evaluate(f"{line} x", workspace=str(workspace), env=env).verdict \
            is not Verdict.ALLOW  # fmt: skip
