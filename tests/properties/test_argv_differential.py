"""What bash runs for a line the default policy allows is in the analyser's model of it.

The lines run in a real bash inside bubblewrap (`policylang.testing.argvcheck`), with
every command name logging its argv; each logged argv must match a command of the model
(nested and wrapped ones included). Review BU found nine ways to break this; its lines
are the fixed table, generated soup the rest.
"""

from __future__ import annotations

import shutil

import pytest

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import load_policy
from policylang.testing.argvcheck import (
    differential,
    executed_argvs,
    mutated_lines,
    soup_lines,
    uncovered,
)

pytestmark = pytest.mark.skipif(
    shutil.which("bwrap") is None or shutil.which("bash") is None,
    reason="needs bubblewrap and bash (scripts/system-deps.sh installs them)",
)

_POLICY = load_policy()
_ENV = {"HOME": "/nonexistent/home", "PATH": "/usr/bin:/bin"}


def _evaluate(line: str) -> Decision:
    return _POLICY.evaluate(line, workspace="/nonexistent/workspace", env=_ENV)


# review BU: each line was allowed while bash ran a command its model lacked
_REVIEW_BU = [
    "sed s/hello/pwned/ README.md -i2>/dev/null",  # BU1: `-i2` read as a descriptor
    "sort README.md -o2>/dev/null",
    "sed s/hello/pwned/ README.md -i<<E\nq\nE",
    "echo {PATH}>/dev/null; ls",  # BU2: `{NAME}>` assigns NAME
    "cat <README.md \\ ",  # BU3: an escaped blank after a redirect
    "cat \\ 2>&1",  # (found by this test: ` 2` is one word, `>&1` the redirect)
    "cat == $'.env' ]]",  # BU4: a `regex` node outside `[[ ]]`
    "echo == $GITHUB_TOKEN ]]",
    "sed s/hello/pwned/ README.md <& --i",  # BU5: `<& -WORD` closes and passes WORD
    "cat <&--i",
    "find . 2>&- -delete",  # BU7: `>&-` takes no target
    "git log -1 2>&- --output=.git/hooks/pre-commit",
    "cat .en'v'$1",  # BU8: `$` ending a concatenation
    'cat """"$HOME/.aws/credentials',
    "[ a|| rm -rf docs ]",  # BU9: `[ … ]` read with the `[[ ]]` grammar
    "[ a|touch x ]",
    "[ a > README.md ]",
]


@pytest.mark.parametrize("line", _REVIEW_BU)
def test_a_line_of_review_bu_is_not_allowed_or_seen_whole(line: str) -> None:
    decision = _evaluate(line)
    if decision.verdict is not Verdict.ALLOW:
        return
    (ran,) = executed_argvs([line])
    assert ran is not None
    assert uncovered(line, ran) == [], decision.explain()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_lines_the_policy_allows_run_what_their_model_holds(seed: int) -> None:
    found = differential(_evaluate, soup_lines(seed, 1500))
    assert found == [], "\n".join(f"{line!r}: bash ran {missing}" for line, missing in found)


@pytest.mark.parametrize("seed", [1, 2])
def test_allowed_lines_with_one_character_put_in_run_what_their_model_holds(seed: int) -> None:
    # a sweep of single insertions into allowed lines finds what soup rarely does
    found = differential(_evaluate, mutated_lines(seed, 600, _evaluate))
    assert found == [], "\n".join(f"{line!r}: bash ran {missing}" for line, missing in found)
