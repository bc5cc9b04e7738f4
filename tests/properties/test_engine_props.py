"""Properties of `Policy.evaluate` under the shipped default ruleset (issue 4 §5)."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import EXPECTATION_CONTEXT, Policy, load_policy
from policylang.testing.quoting import spellings

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Simple, self-contained commands (no `cd`, comments, heredocs or trailing operators, which
# legitimately change the meaning of what is glued after them) covering every verdict.
POOL: tuple[str, ...] = (
    "ls -la",
    "git status",
    "cat README.md",
    "grep -rn foo src",
    "echo hi",
    "true",
    "npm install",
    "touch x",
    "echo hi > out.txt",
    "python3 -c 'print(1)'",
    "curl https://example.com",
    "rm -rf build",
    "sudo ls",
    "rm -rf /",
    "cat ~/.ssh/id_rsa",
    "cat .env",
    "echo x >> ~/.bashrc",
    "git push --force",
    "dd if=/dev/zero of=/dev/sda",
    "find . -delete",
    "sed -i s/a/b/ f",
    "PATH=/tmp ls",
    "echo $(sudo id)",
    "ls $X",
    "$CMD",
    "bash -c 'sudo ls'",
    "ls | wc -l",
    "git log --oneline | head -3",
    "sort names.txt",
    "x=1",
)
OPERATORS = (";", "&&", "||", "|", "|&", "&", "\n", " && true;")


@pytest.fixture(scope="module")
def policy() -> Policy:
    return load_policy()


def _eval(policy: Policy, command: str) -> Decision:
    return policy.evaluate_in(command, EXPECTATION_CONTEXT, approvals=False)


def _rank(policy: Policy, command: str) -> int:
    return _eval(policy, command).verdict.rank


@_SETTINGS
@given(text=st.text(max_size=300))
def test_totality_and_determinism(policy: Policy, text: str) -> None:
    first = _eval(policy, text)
    assert isinstance(first, Decision)
    assert first.verdict in tuple(Verdict)
    assert _eval(policy, text) == first


@_SETTINGS
@given(
    text=st.text(alphabet=st.sampled_from(list("ab $(){};|&<>'\"`\\\n#=*~-/.rmsudo")), max_size=80)
)
def test_totality_on_shell_soup(policy: Policy, text: str) -> None:
    decision = _eval(policy, text)
    assert decision.verdict in tuple(Verdict)
    if decision.retention is None:
        assert decision.verdict is not Verdict.ALLOW


@_SETTINGS
@given(a=st.sampled_from(POOL), b=st.sampled_from(POOL), op=st.sampled_from(OPERATORS))
def test_compound_monotonicity(policy: Policy, a: str, b: str, op: str) -> None:
    combined = f"{a} {op} {b}" if op != "\n" else f"{a}\n{b}"
    assert _rank(policy, combined) >= max(_rank(policy, a), _rank(policy, b)), combined


TEMPLATES: tuple[tuple[str, ...], ...] = (
    ("rm", "-rf", "/"),
    ("sudo", "ls"),
    ("cat", ".env"),
    ("git", "status"),
    ("git", "push", "--force"),
    ("ls", "-la", "src"),
    ("npm", "run", "build"),
    ("sed", "-i", "s/a/b/", "f"),
    ("find", ".", "-delete"),
    ("python3", "-c", "print(1)"),
)


@_SETTINGS
@given(data=st.data(), words=st.sampled_from(TEMPLATES))
def test_quoting_invariance(policy: Policy, data: st.DataObject, words: tuple[str, ...]) -> None:
    plain = " ".join(shlex.quote(w) for w in words)
    respelled = " ".join(data.draw(st.sampled_from(spellings(w))) for w in words)
    assert _eval(policy, respelled).verdict is _eval(policy, plain).verdict, respelled


@_SETTINGS
@given(command=st.sampled_from(POOL))
def test_substitution_soundness(policy: Policy, command: str) -> None:
    inner = _rank(policy, command)
    assert _rank(policy, f"echo $({command})") >= inner
    assert _rank(policy, f'echo "$({command})"') >= inner
    assert _rank(policy, f"cat <({command})") >= inner


@_SETTINGS
@given(command=st.sampled_from(POOL))
def test_wrapper_transparency(policy: Policy, command: str) -> None:
    inner = _rank(policy, command)
    for wrapped in (
        f"env {command}",
        f"timeout 5 {command}",
        f"nice -n 5 {command}",
        f"bash -c {shlex.quote(command)}",
        f"sh -c {shlex.quote(command)}",
    ):
        assert _rank(policy, wrapped) >= inner, wrapped


# An approval never lifts a protected path (reviews P to S): whatever program was approved,
# and however its later words spell a protected file, the line is not allowed. (`docker run
# IMAGE CMD` is left out on purpose: its words are the container's, not this machine's.)
_APPROVED = ("gcc", "pytest", "curl", "git commit", "make test", "npm install",
             "strace", "poetry run", "cp", "openssl enc", "ruff check", "zip", "pip install")
_PROTECTED = ("~/.ssh/id_rsa", "/nonexistent/home/.aws/credentials", ".env",
              ".git/hooks/pre-commit", "~/.bashrc", ".claude/settings.json")
_SPELLINGS = ("{p}", "--out={p}", "-o{p}", "-o {p}", "@{p}", "--files=a,{p}", "-Wl,@{p}",
              "x=@{p}")
_FILLER = st.sampled_from(("-v", "--fast", "src", "2.0", "-j4", "--name=x", "a.txt"))


@_SETTINGS
@given(
    approved=st.sampled_from(_APPROVED),
    protected=st.sampled_from(_PROTECTED),
    spelling=st.sampled_from(_SPELLINGS),
    before=st.lists(_FILLER, max_size=3),
    after=st.lists(_FILLER, max_size=3),
)
def test_an_approval_never_lifts_a_protected_path(
    approved: str, protected: str, spelling: str, before: list[str], after: list[str]
) -> None:
    policy = load_policy()
    policy.approvals.add(approved, persist=False)
    word = spelling.format(p=protected)
    line = " ".join([approved, *before, word, *after])
    decision = policy.evaluate_in(line, EXPECTATION_CONTEXT)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
