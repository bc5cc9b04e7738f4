"""Peers' globs made word patterns, and the words rendered in the policy language."""

from __future__ import annotations

import pytest

from policylang.decision import Verdict
from policylang.importers.common import ANY, Pattern, Word, literal
from policylang.importers.patterns import glob_to_pattern
from policylang.importers.render import quote_word, render_pattern

A, D = Verdict.ALLOW, Verdict.DENY


@pytest.mark.parametrize(
    ("glob", "verdict", "rendered", "approximated"),
    [
        ("git status", A, "git status", False),
        ("git log *", A, "git log **", False),
        ("git log *", D, "git log **", False),
        ("git push*", A, "git push **", True),
        ("git push*", D, "git **", True),
        ("docker * ps", A, "docker * ps", True),
        ("docker * ps", D, "docker **", True),
        ("a * b *", A, "a * b **", True),
        ("echo 'two words' *", A, 'echo "two words" **', False),
    ],
)
def test_glob_to_pattern(glob: str, verdict: Verdict, rendered: str, approximated: bool) -> None:
    pattern, note = glob_to_pattern(glob, verdict, multiword_star=True)
    assert pattern is not None
    assert render_pattern(pattern) == rendered
    assert (note is not None) is approximated


@pytest.mark.parametrize(
    ("glob", "verdict"),
    [("* --force", D), ("*.sh", A), ("ls; rm x", A), ("echo 'open", D), ("x$(y)", D)],
)
def test_unexpressible(glob: str, verdict: Verdict) -> None:
    pattern, note = glob_to_pattern(glob, verdict, multiword_star=True)
    assert pattern is None
    assert note


def test_single_word_star_when_the_peer_means_one_word() -> None:
    pattern, note = glob_to_pattern("npm * test", Verdict.DENY, multiword_star=False)
    assert pattern == Pattern((*literal("npm"), ANY, Word(("test",))))
    assert note is None


@pytest.mark.parametrize(
    ("word", "spelled"),
    [
        ("git", "git"),
        ("--output=x", "--output=x"),
        ("two words", '"two words"'),
        ("when", '"when"'),
        ("a|b", '"a|b"'),
        ("*", '"*"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("~/.ssh", '"~/.ssh"'),
    ],
)
def test_quote_word(word: str, spelled: str) -> None:
    assert quote_word(word) == spelled


def test_pattern_relations() -> None:
    git_any = Pattern(literal("git"), rest=True)
    git_push = Pattern(literal("git", "push"), rest=True)
    exact = Pattern(literal("git", "push"))
    assert git_push.within(git_any)
    assert not git_any.within(git_push)
    assert exact.within(git_push)
    assert not git_push.within(exact)
    assert git_push.meets(git_any)
    assert exact.meets(git_push)
    assert not exact.meets(Pattern(literal("git", "pull"), rest=True))
    assert not Pattern(literal("git")).meets(exact)
    assert git_push.specificity() > git_any.specificity()
    assert exact.specificity() > git_push.specificity()
