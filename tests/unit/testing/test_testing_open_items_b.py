"""Closing 28's fuzz tooling items: substitution-soundness judged a seed bash does not
read as one command (`ls ) (` closes `echo "$(ls ) (⏎)"` at its first `)`), and
option-invariance respelled `tar tzf` as `tar -- tzf`."""

from __future__ import annotations

import subprocess

import pytest
from fuzz_toys import naive_evaluate
from hypothesis import given, settings
from hypothesis import strategies as st

from policylang import load_policy
from policylang.testing import bashcheck, strategies
from policylang.testing.cases import Substituted
from policylang.testing.invariants import Subjects, check_substitution_soundness
from policylang.testing.optiontables import (
    TOOLS_BY_NAME,
    Invocation,
    SpellingChoice,
    parse_invocation,
    respell,
)

needs_bash = pytest.mark.skipif(not bashcheck.bash_available(), reason="needs bash on PATH")


def _engine() -> Subjects:
    policy = load_policy()
    return Subjects(evaluate=lambda text: policy.evaluate(text, workspace="/nonexistent/ws"))


@needs_bash
def test_bash_closes_the_substitution_at_the_first_paren() -> None:
    """What the property's false alarm rested on, asked of a real bash."""
    line = 'echo "$(echo in ) (\n)"'
    assert bashcheck.syntax_ok([line, "echo in ) ("]) == (True, False)
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, check=True)
    assert done.stdout == "in (\n)\n"


@needs_bash
@pytest.mark.parametrize("host", ['echo "$({}\n)"', "echo $({}\n)", "Y=$({}\n) true"])
def test_a_seed_bash_reads_as_no_whole_command_is_no_counterexample(host: str) -> None:
    case = Substituted(text=host.replace("{}", "ls ) ("), inner="ls ) (", position="argument")
    assert check_substitution_soundness(_engine(), case) is None
    assert check_substitution_soundness(Subjects(evaluate=naive_evaluate), case) is None


def test_a_whole_inner_command_is_still_judged() -> None:
    case = Substituted(text="echo $(rm x\n)", inner="rm x", position="argument")
    violation = check_substitution_soundness(Subjects(evaluate=naive_evaluate), case)
    assert violation is not None
    assert violation.related == ("rm x",)


@needs_bash
def test_complete_command_asks_bash() -> None:
    assert bashcheck.complete_command("ls && ls") is True
    assert bashcheck.complete_command("ls ) (") is False
    assert bashcheck.complete_command("ls && && ls") is False
    assert bashcheck.complete_command("cat <<EOF") is False  # (a warning: the body runs on)
    assert bashcheck.complete_command("case x in x) echo x;; esac") is True


# -- DY6: `--` before tar's old-style first argument ------------------------------------------


_ALL_CHOICES = [
    SpellingChoice(bundle=b, long_flags=frozenset(), value_style=v, options_last=o,
                   double_dash=d, abbreviate=a)
    for b in (False, True) for v in ("separate", "joined", "long-separate", "long-equals")
    for o in (False, True) for d in (False, True) for a in (False, True)
]  # fmt: skip


def test_tar_old_style_first_argument_gets_no_double_dash() -> None:
    inv = parse_invocation(["tar", "tzf", "archive.tar.gz"])
    assert inv is not None
    for choice in _ALL_CHOICES:
        assert respell(inv, choice) == ("tar", "tzf", "archive.tar.gz"), choice
    bare = Invocation(tool=TOOLS_BY_NAME["tar"], flags=(), valued=(), operands=("x",))
    assert respell(bare, SpellingChoice(double_dash=True)) == ("tar", "x")


def test_tar_with_dashed_options_keeps_its_double_dash() -> None:
    inv = Invocation(tool=TOOLS_BY_NAME["tar"], flags=("t", "z"), valued=(("f", "a.tgz"),),
                     operands=("x",))
    assert respell(inv, SpellingChoice(double_dash=True)) == (
        "tar", "-t", "-z", "-f", "a.tgz", "--", "x")


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_no_respelling_puts_double_dash_before_an_old_style_bundle(data: st.DataObject) -> None:
    case = data.draw(strategies.option_respellings(None, ["tar tzf archive.tar.gz", "tar x"]))
    for spelling in case.spellings:
        words = spelling.split()
        if words[0] == "tar" and "--" in words:
            assert words.index("--") > 1, spelling
            assert words[1].startswith("-"), spelling
