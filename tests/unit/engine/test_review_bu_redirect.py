"""Review BU1, BU2, BU3, BU5, BU7: the default ruleset allowed these lines because the
shell model read a redirect differently from bash, which ran an argument the model did not
have (`sed … -i2>/dev/null` edits in place, `find . 2>&- -delete` deletes) or assigned a
variable (`echo {PATH}>/dev/null` sets PATH to a descriptor number). The model's argv is
checked against bash in tests/unit/shell/test_review_bu_redirect.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine.policy import Policy

Decide = Callable[[str], Decision]


@pytest.mark.parametrize(
    "command",
    [
        # BU1: `-i2` before `>` is sed's `-i2` (in place, backup suffix 2), not a descriptor
        "sed s/hello/pwned/ README.md -i2>/dev/null",
        "sed s/hello/pwned/ README.md -i2<&0",
        "sed s/hello/pwned/ README.md -i2>|/dev/null",
        "sort README.md -o2>/dev/null",
        "sed '1a fsmonitor = touch x' .git/config -i2>/dev/null; git status >/dev/null",
        # … and any `-WORD` right before a here-document
        "sed s/hello/pwned/ README.md -i<<E\nq\nE",
        'find . -name "*.md" -delete<<E\nq\nE',
        # BU5: `<& -WORD` closes stdin and passes WORD
        "sed s/hello/pwned/ README.md <& --i",
        "sed s/hello/pwned/ README.md <&--i",
        "find . -name victim.txt <& --delete",
        "git log -1 <& ---output=.git/hooks/post-checkout",
        "cat <& -~/.aws/credentials",
        # BU7: `2>&-` takes no word: the next one is the command's
        "find . 2>&- -delete",
        'find . -name "*.md" 2>&- -delete',
        "git log -1 2>&- --output=.git/hooks/pre-commit",
        "git diff 2>&- --output=README.md",
        "find . 2>&--delete",
    ],
)
def test_a_hidden_argument_is_not_allowed(decide: Decide, command: str) -> None:
    assert decide(command).verdict is not Verdict.ALLOW


@pytest.mark.parametrize(
    "command",
    [
        "sed '$a alias ls=x' ~/.bashrc -i2>/dev/null",  # a shell start-up file
        "sed '$a alias ls=x' ~/.bashrc <& --i",
        "cat <& -~/.aws/credentials",
    ],
)
def test_a_hidden_argument_naming_a_protected_file_is_denied(decide: Decide, command: str) -> None:
    assert decide(command).verdict is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    [
        "echo {PATH}>/dev/null; ls",
        "true {PATH}>/dev/null && ls",
        ": {PATH}</dev/null; git status",
        "echo {HOME}>/dev/null; git status",
        "cd {CDPATH}</dev/null; cd docs",
        "echo {IFS}<<<x",
        "printf x {BASH_ENV}>&2",
    ],
)
def test_a_variable_redirect_is_judged_as_an_assignment(decide: Decide, command: str) -> None:
    decision = decide(command)
    assert decision.verdict is Verdict.ASK


@pytest.fixture
def blank_link(workspace: Path) -> Path:
    """A workspace that ships a file named ` `, a link to a key in the home folder (the
    link a repository can hold)."""
    home = workspace.parent / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (workspace / "README.md").write_text("hello\n")
    (workspace / " ").symlink_to(home / ".ssh" / "id_rsa")
    return workspace


@pytest.mark.parametrize(
    "command",
    [
        "cat \\ ",  # (what the lines below are: denied before the fix too)
        "cat <README.md \\ ",
        "cat 2>/dev/null \\ ",
        "cat >/dev/null \\ ;ls",
        "cat <<<w \\ ",
        "head -5 >/dev/stdout \\ ",
        "cat 2>&- \\ ",
        "cat <README.md \\  README.md",
        "cat \\  >/dev/null README.md",
        "cat >\\  README.md",
    ],
)
def test_an_escaped_blank_word_around_a_redirect_is_checked(
    default_policy: Policy, blank_link: Path, command: str
) -> None:
    env = {"HOME": str(blank_link.parent / "home"), "PATH": "/usr/bin:/bin"}
    decision = default_policy.evaluate(command, workspace=str(blank_link), env=env)
    assert decision.verdict is Verdict.DENY


@pytest.mark.parametrize(
    "command",
    [
        "ls 2>/dev/null",
        "cat x 2>&1",
        "cat README.md 2>&-",
        "ls 2>&- src",
        "cat <&0 README.md",
        "ls >&2",
        "grep -r x . 2>/dev/null",
        "ls -la 2>&1 | head",
        "cat <README.md",
        "cat - 2>&1",
        "cat <& -README.md",
        "echo x{PATH}>/dev/null",
        "echo {PATH} >/dev/null",
        "cat a-i2>/dev/null",
        "cat x.py <<E\nq\nE",
    ],
)
def test_redirects_bash_reads_the_same_way_stay_allowed(decide: Decide, command: str) -> None:
    assert decide(command).verdict is Verdict.ALLOW
