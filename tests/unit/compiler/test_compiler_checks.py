"""Built-in checks: sed-script, find-expr, git-config-keys, xargs-target."""

from __future__ import annotations

import pytest
from rules.helpers import words

from policylang.compiler.checks import CHECKS
from policylang.shell.options import DEFAULT_OPTION_SPECS, OptionSpec, option_view


def run(check: str, command: str) -> str | None:
    argv = words(command)
    spec = DEFAULT_OPTION_SPECS.get(argv[0].value or "", OptionSpec())
    return CHECKS[check](argv, option_view(argv, spec))


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("sed -n 1,5p f", None),
        ("sed 's/a/b/g;p' f", None),
        ("sed -e '/x/!d' -e 's|a|b|' f", None),
        ("sed '$!N;P;D' f", None),
        ("sed 'y/abc/xyz/' f", None),
        ("sed -n '/start/,/end/{p;q}' f", None),
        ("sed 's/a\\/b/c/p' f", None),
        ("sed 's/x/y/e' f", "sed script runs a command (`e` flag of `s`)"),
        ("sed 's/x/y/w out' f", "sed script writes a file (`w` flag of `s`)"),
        ("sed 's/x/y/gw out' f", "sed script writes a file (`w` flag of `s`)"),
        ("sed -e p -e 'w out' f", "sed script uses the `w` command"),
        ("sed 'e ls' f", "sed script uses the `e` command"),
        ("sed '1r /etc/passwd' f", "sed script uses the `r` command"),
        ("sed 'W x' f", "sed script uses the `W` command"),
        ("sed -f script.sed f", "sed reads its script from a file"),
        ('sed "$S" f', "sed has a non-literal word where an option could be"),
        ("sed 's/a/b' f", "sed script has an unterminated `s` command"),
        ("sed 'k' f", "sed script has an unknown command `k`"),
    ],
)
def test_sed_script(command: str, problem: str | None) -> None:
    assert run("sed-script", command) == problem


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("find . -name '*.py' -print", None),
        ("find . -delete", "find expression uses `-delete`"),
        ("find . -exec rm {} +", "find expression uses `-exec`"),
        ("find . -fprint out", "find expression uses `-fprint`"),
        ("find $DIR -name x", "find has a non-literal word"),
    ],
)
def test_find_expr(command: str, problem: str | None) -> None:
    assert run("find-expr", command) == problem


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("git log", None),
        ("git -c color.ui=always log", None),
        ("git -c core.quotepath=off status", None),
        (
            "git -c core.pager=evil log",
            "git -c sets `core.pager`, which is not known to be harmless",
        ),
        (
            "git -c core.fsmonitor=x status",
            "git -c sets `core.fsmonitor`, which is not known to be harmless",
        ),
        ("git --config-env=core.pager=X log", "git option `--config-env` can run programs"),
        ("git -c $KEY log", "git -c value is not literal"),
        ("git $OPT log", "git has a non-literal word where an option could be"),
    ],
)
def test_git_config_keys(command: str, problem: str | None) -> None:
    assert run("git-config-keys", command) == problem


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("xargs grep -l foo", None),
        ("xargs -0 -n 1 wc -l", None),
        ("xargs", None),
        ("xargs rm -f", "xargs runs `rm`, which is not a read-only tool"),
        ("xargs -I{} sh -c 'echo {}'", "xargs runs `sh`, which is not a read-only tool"),
        ("xargs rg --pre cat x", "xargs runs a search with a preprocessor"),
    ],
)
def test_xargs_target(command: str, problem: str | None) -> None:
    assert run("xargs-target", command) == problem
