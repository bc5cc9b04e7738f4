"""Review BR7: the ci policy (and the readonly policy, which includes it) denies what the
default policy asks about, rule by rule.

ci.policy is `default deny` over common.policy, but an ask rule is a candidate, so the
default never applies to what one matches: `uniq in.txt out.txt`, `sqlite3 x.db`,
`git branch newb` asked under ci, where nobody is there to answer. And an allow rule
whose `checked-by` check failed asked too (`sed '1e id' f`), where its `unless` would have
left the command to the default.
"""

from __future__ import annotations

import importlib.resources
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import EXPECTATION_CONTEXT, Policy, load_policy, shipped_ruleset
from policylang.rules import ast
from policylang.rules.parser import parse_ruleset

COMMON = Path(str(importlib.resources.files("policylang") / "rulesets" / "common.policy"))

# Ask rules of common.policy that ci.policy may leave asking, each with the reason why.
# Empty: every ask rule is covered by a deny. An entry here is a decision, not a backlog.
EXEMPT: dict[str, str] = {}


@pytest.fixture(scope="module")
def policies() -> dict[str, Policy]:
    return {
        name: load_policy(shipped_ruleset(name), check=False, snapshot=False)
        for name in ("default", "ci", "readonly")
    }


def _decide(policy: Policy, command: str) -> Decision:
    return policy.evaluate_in(command, EXPECTATION_CONTEXT, approvals=False)


def _ask_rules() -> list[ast.Rule]:
    parsed, diagnostics = parse_ruleset(COMMON.read_text(), filename=str(COMMON))
    assert not diagnostics
    return [
        s for s in parsed.statements
        if isinstance(s, ast.Rule) and s.verdict is ast.RuleVerdict.ASK
    ]


def _rule_id(rule: ast.Rule) -> str:
    assert rule.explicit_id is not None, "every ask rule of common.policy has an id"
    return rule.explicit_id.value


def _word_for(glob: str) -> str:
    """A word the glob matches: `*`, `**` and `?` become `x`, a set its first member (or
    a letter outside a negated one)."""
    out: list[str] = []
    index = 0
    while index < len(glob):
        char = glob[index]
        if char == "*":
            out.append("x")
            while index < len(glob) and glob[index] == "*":
                index += 1
            continue
        if char == "?":
            out.append("x")
        elif char == "[":
            start = index + 2 if glob[index + 1] == "!" else index + 1
            end = glob.index("]", start + 1)
            members = glob[start:end]
            if glob[index + 1] == "!":
                out.append(next(c for c in "xyzq0" if c not in members))
            else:
                out.append(members[0])
            index = end
        else:
            out.append(char)
        index += 1
    return "".join(out)


# options an option view lists for words that spell them otherwise: less's commands after
# a `+` inside an option word (`-S+G`) are `-+`, which as a word alone is a no-op (EY1)
_SPELT_OTHERWISE = {"-+": "-S+G"}


def _samples(rule: ast.Rule) -> Iterator[str]:
    """Commands the rule matches: each alternative of each pattern word once, with each
    `when` option once, and an operand for each `operand` glob (a rule's `unless` and
    `only` hold with no options)."""
    choices = [
        [_word_for(a) if ast.is_glob_text(a) else a for a in word.alternatives]
        if not word.is_any else ["x"]
        for word in rule.pattern
        if not word.is_rest
    ]
    base = [alternatives[0] for alternatives in choices]
    patterns = [base]
    for position, alternatives in enumerate(choices):
        for alternative in alternatives[1:]:
            patterns.append([*base[:position], alternative, *base[position + 1 :]])
    options: list[list[str]] = [[]]
    for clause in rule.clauses:
        if clause.kind is ast.ClauseKind.WHEN:
            items = [
                item.value[:-1] + "x" if item.value.endswith("*") else item.value
                for item in clause.items
            ]
            items = [_SPELT_OTHERWISE.get(item, item) for item in items]
            options = [[*chosen, item] for chosen in options for item in items]
    operands: list[list[str]] = [[]]
    for clause in rule.clauses:
        if clause.kind is ast.ClauseKind.OPERAND:
            operands = [[*chosen, _word_for(i.value)] for chosen in operands for i in clause.items]
    verbs = [
        [_word_for(item.value)]
        for clause in rule.clauses
        if clause.kind is ast.ClauseKind.FIRST_OPERAND
        for item in clause.items
    ] or [[]]  # (`first-operand`: the verb right after the pattern, review GM5)
    for words in patterns:
        for verb in verbs:
            for chosen in options:
                for operand in operands:
                    yield shlex.join([*words, *verb, *chosen, *operand])


ASK_RULES = _ask_rules()
ASK_IDS = frozenset(_rule_id(rule) for rule in ASK_RULES)


def test_the_exemptions_name_ask_rules() -> None:
    assert set(EXEMPT) <= ASK_IDS


@pytest.mark.parametrize("rule", ASK_RULES, ids=[_rule_id(r) for r in ASK_RULES])
def test_ci_denies_what_each_ask_rule_of_common_asks(
    rule: ast.Rule, policies: dict[str, Policy]
) -> None:
    rule_id = _rule_id(rule)
    if rule_id in EXEMPT:
        pytest.skip(EXEMPT[rule_id])
    asked = []
    for command in dict.fromkeys(_samples(rule)):
        decision = _decide(policies["default"], command)
        # a command a more specific allow decides (`git branch -a` under `git-write`), or
        # one only the engine asks about, is not this rule's to cover
        by_rule = {r.rule_id for r in decision.reasons if r.verdict is Verdict.ASK}
        if decision.verdict is Verdict.ASK and by_rule & ASK_IDS:
            asked.append(command)
    assert asked, f"no sample of `{rule_id}` is asked about by a rule: add a sample"
    for name in ("ci", "readonly"):
        loose = {
            command: decision.explain()
            for command in asked
            if (decision := _decide(policies[name], command)).verdict is not Verdict.DENY
        }
        assert not loose, f"{name} does not deny what `{rule_id}` asks: {loose}"


# the review's lines: ask under default, deny under ci and readonly
REVIEW = [
    "uniq in.txt out.txt",
    "xxd in.txt out.txt",
    "tree -o out.txt",
    "less -o log.txt README.md",
    "info -o out.txt ls",
    "sdiff -o merged a b",
    "date 010100002020",
    "hostname evil",
    "ulimit -c unlimited",
    "ps e",
    "man -P 'sh -c id' ls",
    "unzip x.zip",
    "unzip x.zip '*' -l",
    "cpio -i < x.cpio",
    "7z x a.7z",
    "ar x a.a",
    "sqlite3 x.db",
    "yq -i .a=1 x.yml",
    "policylang check x",
    "git instaweb",
    "git difftool -x x",
    "vagrant ssh",
    "sbatch x",
    "gcc --version -wrapper sh,-c,id x.c",
    # failing `checked-by` checks
    "sed '1e id' README.md",
    "sed 's/a/b/w out.txt' README.md",
    "tar -tf host:x.tar",
    "ulimit -cunlimited",
    "ps eww",
    "jq -L . .a x.json",
    # git's listing commands also change
    "git tag v1",
    "git tag -d v1",
    "git tag -n",
    "git branch newb",
    "git branch -v newb",
    "git branch -D old",
    "git branch -a -d origin/x",
    "git branch --unset-upstream",
    "git worktree",
    "git worktree add ../x",
    "git config core.hooksPath x",
    "git config set core.pager x",
    "git config --get x -f other",
    "git remote add evil https://x",
    "git remote -v show origin",
]


@pytest.mark.parametrize("command", REVIEW)
def test_what_the_default_asks_ci_and_readonly_deny(
    command: str, policies: dict[str, Policy]
) -> None:
    assert _decide(policies["default"], command).verdict is Verdict.ASK
    for name in ("ci", "readonly"):
        decision = _decide(policies[name], command)
        assert decision.verdict is Verdict.DENY, (name, decision.explain())


# what the default allows stays allowed under ci (the readonly policy denies git's
# listings with the rest of those commands)
READS = [
    "git branch",
    "git branch -a",
    "git branch -vv",
    "git branch --show-current",
    "git branch --list 'feat*'",
    "git branch -a -v",
    "git tag",
    "git tag -l 'v*'",
    "git tag --contains HEAD",
    "git remote",
    "git remote -v",
    "git remote get-url origin",
    "git config --get user.name",
    "git config -l",
    "git worktree list",
    "unzip -l x.zip",
    "tar -tf x.tar",
    "sed -n 1p README.md",
    "date +%Y",
    "hostname -s",
    "ulimit -n",
    "ps aux",
    "man ls",
    "less README.md",
    "tree src",
    "uniq in.txt",
    "strings README.md",
    "gcc --version",
    "python3 --version",
]


@pytest.mark.parametrize("command", READS)
def test_reads_stay_allowed_under_ci(command: str, policies: dict[str, Policy]) -> None:
    assert _decide(policies["default"], command).verdict is Verdict.ALLOW
    decision = _decide(policies["ci"], command)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("default", "expected"),
    [("allow", Verdict.ASK), ("ask", Verdict.ASK), ("deny", Verdict.DENY)],
)
def test_a_failed_check_leaves_the_command_to_the_default_at_least_ask(
    tmp_path: Path, default: str, expected: Verdict
) -> None:
    # as when the rule's `unless` fires (`sed -i`: no candidate, the default), but never
    # looser than ask: a policy's `default allow` does not allow what a check refused
    path = tmp_path / "p.policy"
    path.write_text(
        f'policy "p"\ndefault {default}\n'
        "readonly sed ** unless -i checked-by sed-script id sed-print\n"
    )
    policy = load_policy(path, check=False, snapshot=False)
    decision = _decide(policy, "sed '1e id' README.md")
    assert decision.verdict is expected, decision.explain()
    reason = next(r for r in decision.reasons if r.rule_id == "sed-print")
    assert reason.verdict is expected
    assert "check sed-script" in reason.message
    assert ("policy's default is deny" in reason.message) is (expected is Verdict.DENY)
    assert _decide(policy, "sed -n 1p README.md").verdict is Verdict.ALLOW


def test_a_failed_check_under_a_locked_ask_is_denied_by_default_deny(tmp_path: Path) -> None:
    # the locked ask makes the failed check's match locked; the default still decides
    path = tmp_path / "p.policy"
    path.write_text(
        'policy "p"\ndefault deny\nlocked ask sed ** id sed-locked\n'
        "readonly sed ** unless -i checked-by sed-script id sed-print\n"
    )
    policy = load_policy(path, check=False, snapshot=False)
    assert _decide(policy, "sed '1e id' README.md").verdict is Verdict.DENY
