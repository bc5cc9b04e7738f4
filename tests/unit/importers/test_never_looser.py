"""The property that matters: an imported policy is never looser than the original.

For every probe command, the verdict of the emitted policy (loaded and evaluated by the
real engine) is at least as strict as the peer's own verdict, computed by the naive
reference evaluators in `reference.py`. Fixtures are realistic files; the Hypothesis
tests draw random rule sets over a small vocabulary, where overlaps are frequent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policylang.decision import Verdict
from policylang.importers import Severity

from . import reference
from .conftest import Ours, fixture_text

PROBES = (
    "ls",
    "ls -la",
    "lsof -i",
    "git status",
    "git status --short",
    "git statusx",
    "git diff HEAD",
    "git log -3",
    "git push",
    "git push origin main",
    "git push --force origin main",
    "git push -f",
    "git pushx",
    "git commit -m x",
    "git commitx",
    "git merge dev",
    "npm",
    "npm run test",
    "npm run test:unit",
    "npm run lint",
    "npm run deploy",
    "npm run deploy-prod",
    "npm install",
    "npm install --no-save",
    "npm i left-pad",
    "rm x",
    "rm -rf build",
    "rm -rf /",
    "curl https://example.com",
    "pytest",
    "pytest -x",
    "pytestx",
    "docker ps",
    "docker compose ps",
    "docker run -it alpine",
    "make",
    "make test",
    "make deploy",
    "terraform apply",
    "terraform -chdir=infra apply",
    "terraform plan",
    "kubectl get pods",
    "kubectl delete pod x",
    "kubectl deletex",
    "kubectl drain node1",
    "cargo test",
    "cargo build",
    "gitk",
    "echo hi",
)


def assert_never_looser(ours: Ours, theirs: dict[str, Verdict]) -> None:
    """No probe is looser under ours; unless a rule was reported as not converted."""
    if not all(w.severity is not Severity.UNCONVERTED for w in ours.result.warnings):
        return
    looser = {
        cmd: (str(theirs[cmd]), str(ours(cmd)))
        for cmd in theirs
        if ours(cmd).rank < theirs[cmd].rank
    }
    assert looser == {}, f"imported policy is looser than the original: {looser}"


def test_claude_code_fixture(workdir: Path) -> None:
    text = fixture_text("claude-settings.json")
    permissions = json.loads(text)["permissions"]
    rules = [
        (verdict, m.group(1))
        for key, verdict in (("allow", Verdict.ALLOW), ("ask", Verdict.ASK), ("deny", Verdict.DENY))
        for entry in permissions[key]
        if (m := re.fullmatch(r"Bash\((.*)\)", entry))
    ]
    ours = Ours("claude-code", text, workdir)
    assert_never_looser(ours, {c: reference.claude_code(rules, c) for c in PROBES})


def test_opencode_fixture(workdir: Path) -> None:
    from policylang.importers.opencode import strip_jsonc

    text = fixture_text("opencode.jsonc")
    bash = json.loads(strip_jsonc(text))["permission"]["bash"]
    rules = [(glob, Verdict(action)) for glob, action in bash.items()]
    ours = Ours("opencode", text, workdir)
    assert_never_looser(ours, {c: reference.opencode(rules, c) for c in PROBES})


def test_gemini_fixture_in_every_mode(workdir: Path) -> None:
    text = fixture_text("gemini-policy.toml")
    ours = Ours("gemini", text, workdir)
    for mode in ("default", "autoEdit", "yolo", "plan"):
        assert_never_looser(ours, {c: reference.gemini(text, c, mode=mode) for c in PROBES})


def test_codex_fixture(workdir: Path) -> None:
    text = fixture_text("codex-default.rules")
    rules: list[tuple[Verdict, list[str | list[str]]]] = [
        (Verdict.ALLOW, ["git", ["status", "log", "diff", "show"]]),
        (Verdict.ASK, ["git", "push"]),
        (Verdict.DENY, ["git", "push", ["--force", "-f"]]),
        (Verdict.ASK, ["npm", ["i", "install"]]),
        (Verdict.ALLOW, ["npm", "install", "--no-save"]),
        (Verdict.ALLOW, ["cargo", "test"]),
    ]
    ours = Ours("codex", text, workdir)
    assert_never_looser(ours, {c: reference.codex(rules, c) for c in PROBES})


# --- random rule sets -------------------------------------------------------------------

WORDS = ("git", "npm", "rm", "push", "run", "status", "-f", "x")
word = st.sampled_from(WORDS)
verdict = st.sampled_from(list(Verdict))
commands = st.lists(word, min_size=1, max_size=4).map(" ".join)


@st.composite
def globs(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(st.one_of(word, st.just("*"), word.map(lambda w: w + "*")), min_size=1, max_size=3)
    )
    if parts[0] == "*" and len(parts) == 1:
        return "*"
    return " ".join(parts)


SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(
    rules=st.lists(st.tuples(globs(), verdict), min_size=1, max_size=5),
    probes=st.lists(commands, min_size=5, max_size=10),
)
def test_random_opencode_maps(
    workdir: Path, rules: list[tuple[str, Verdict]], probes: list[str]
) -> None:
    unique = dict(rules)  # a JSON object keeps the last value of a repeated key
    text = json.dumps({"permission": {"bash": {g: str(v) for g, v in unique.items()}}})
    ours = Ours("opencode", text, workdir)
    pairs = list(unique.items())
    assert_never_looser(ours, {c: reference.opencode(pairs, c) for c in probes})


@st.composite
def claude_specs(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["exact", "prefix", "glob", "all"]))
    words = draw(st.lists(word, min_size=1, max_size=3))
    if kind == "exact":
        return " ".join(words)
    if kind == "prefix":
        return " ".join(words) + ":*"
    if kind == "all":
        return "*"
    return draw(globs())


@SETTINGS
@given(
    rules=st.lists(st.tuples(verdict, claude_specs()), min_size=1, max_size=5),
    probes=st.lists(commands, min_size=5, max_size=10),
)
def test_random_claude_code_settings(
    workdir: Path, rules: list[tuple[Verdict, str]], probes: list[str]
) -> None:
    lists: dict[str, list[str]] = {"allow": [], "ask": [], "deny": []}
    for v, spec in rules:
        lists[str(v)].append(f"Bash({spec})")
    text = json.dumps({"permissions": lists})
    ours = Ours("claude-code", text, workdir)
    assert_never_looser(ours, {c: reference.claude_code(rules, c) for c in probes})


@pytest.mark.parametrize("seed_rule", ["git push*", "rm * -f", "* x", "npm run*"])
def test_broadened_deny_still_covers_original(workdir: Path, seed_rule: str) -> None:
    text = json.dumps({"permission": {"bash": {"*": "allow", seed_rule: "deny"}}})
    ours = Ours("opencode", text, workdir)
    pairs = [("*", Verdict.ALLOW), (seed_rule, Verdict.DENY)]
    probes = [
        "git push",
        "git pushx",
        "git push a",
        "rm a -f",
        "rm a b -f",
        "npm x",
        "a x",
        "npm run",
        "npm runx y",
    ]
    assert_never_looser(ours, {c: reference.opencode(pairs, c) for c in probes})


@st.composite
def gemini_rules(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(WORDS[:6]), min_size=1, max_size=2))
    kind = draw(st.sampled_from(["prefix", "regex", "regex-end", "regex-group", "all"]))
    decision = draw(st.sampled_from(["allow", "deny", "ask_user"]))
    priority = draw(st.sampled_from([0, 10, 20]))
    if kind == "prefix":
        condition = f'commandPrefix = "{" ".join(words)}"'
    elif kind == "regex":
        condition = f'commandRegex = "{" ".join(words)}"'
    elif kind == "regex-end":
        condition = f'commandRegex = "{" ".join(words)}$"'
    elif kind == "regex-group":
        condition = f'commandRegex = "{words[0]} ({"|".join(WORDS[3:6])})\\\\b"'
    else:
        condition = 'toolName = "run_shell_command"'
    return f'[[rule]]\n{condition}\ndecision = "{decision}"\npriority = {priority}\n'


@SETTINGS
@given(
    rules=st.lists(gemini_rules(), min_size=1, max_size=5),
    probes=st.lists(commands, min_size=5, max_size=10),
)
def test_random_gemini_policies(workdir: Path, rules: list[str], probes: list[str]) -> None:
    text = "\n".join(rules)
    ours = Ours("gemini", text, workdir)
    assert_never_looser(ours, {c: reference.gemini(text, c) for c in probes})


def test_a_broadened_winner_never_proves_a_rule_dead(workdir: Path) -> None:
    # Found by Hypothesis: `git git*` (ask, later) broadened to `git **` seemed to cover
    # the exact `git` deny, which was then dropped as "never applies" (it did apply).
    pairs = [("*", Verdict.ALLOW), ("git", Verdict.DENY), ("git git*", Verdict.ASK)]
    text = json.dumps({"permission": {"bash": {g: str(v) for g, v in pairs}}})
    ours = Ours("opencode", text, workdir)
    assert ours("git") is Verdict.DENY
    assert_never_looser(
        ours, {c: reference.opencode(pairs, c) for c in ("git", "git gitx", "git x")}
    )


def test_a_broadened_looser_winner_is_dropped(workdir: Path) -> None:
    # Found by Hypothesis: a catch-all deny (priority 0) and `commandRegex = "git git"` ask
    # (priority 10). The regex can only be broadened to `git **`; Gemini applies the ask
    # only where the regex matches and the deny elsewhere (`git`), so keeping the broadened
    # ask would loosen `git` from deny to ask.
    text = (
        '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\npriority = 0\n\n'
        '[[rule]]\ncommandRegex = "git git"\ndecision = "ask_user"\npriority = 10\n'
    )
    ours = Ours("gemini", text, workdir)
    assert ours("git") is Verdict.DENY
    assert any("broadened" in w.message for w in ours.result.warnings)
    assert_never_looser(ours, {c: reference.gemini(text, c) for c in ("git", "git git", "ls")})
