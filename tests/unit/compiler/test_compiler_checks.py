"""Built-in checks: sed-script, find-expr, git-config-keys, xargs-target, tar-local, jq-program."""

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


RUNS = "sed script runs a command (`e` flag of `s`)"
WRITES = "sed script writes a file (`w` flag of `s`)"
UNTERMINATED_ADDRESS = "sed script has an unterminated address regex"


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        # review BK2: a delimiter inside a bracket expression does not end a regex
        ("sed 's/[/]/;/e' f", RUNS),  # regex `[/]`, replacement `;`, flag `e`
        ("sed 's/[/]/;/w out' f", WRITES),
        ("sed 's/[^/]/;/w out' f", WRITES),
        ("sed 's/[]/]/;/e' f", RUNS),  # a `]` first is in the list
        ("sed 's/[^]/]/;/e' f", RUNS),
        ("sed 's/[[:alpha:]/]/;/e' f", RUNS),  # `]` of a class does not end the list
        ("sed 's/[[.].]/]/;/e' f", RUNS),
        ("sed 's/[[=/=]/]/;/e' f", RUNS),
        ("sed 's/[\\/]/;/e' f", RUNS),  # a backslash is a character in a list
        ("sed 's/[/]/}/e' f", RUNS),
        ("sed 's|[|]|;|e' f", RUNS),
        ("sed -n 's/x/y/;s/[/]/;/gpw out' f", WRITES),
        ("sed '\\%[%]%s/a/b/e' f", RUNS),  # in an address too
        ("sed -n '/[/]/w out' f", "sed script uses the `w` command"),
        ("sed -n '/[^/]/,/[/]/{s/a/b/e}' f", RUNS),
        # no bracket expressions in the replacement of `s` or in `y`
        ("sed 's/a/[/;e ls' f", "sed script uses the `e` command"),
        ("sed 'y/[/]/;e ls' f", "sed script uses the `e` command"),
        # what the check cannot read to its end is a problem, never a pass
        ("sed -n '/abc' f", UNTERMINATED_ADDRESS),
        ("sed -n '/[/]' f", UNTERMINATED_ADDRESS),
        ("sed -n '/[a-z/p' f", UNTERMINATED_ADDRESS),  # the list never ends
        ("sed -n '/a\n/p' f", UNTERMINATED_ADDRESS),  # sed ends a regex at a newline
        ("sed -n '/[a\n]/p' f", UNTERMINATED_ADDRESS),
        ("sed -n '\\' f", UNTERMINATED_ADDRESS),
        ("sed -n '\\%abc' f", UNTERMINATED_ADDRESS),
        ("sed 's/[/x/' f", "sed script has an unterminated `s` command"),
        ("sed 's/a\nb/c/' f", "sed script has an unterminated `s` command"),
        ("sed 'y/abc/' f", "sed script has an unterminated `y` command"),
        ("sed 's/a/b/x' f", "sed script has an unknown flag `x` of `s`"),
        ("sed 's/a/b/g;s/c/d/2q' f", "sed script has an unknown flag `q` of `s`"),
        # everyday scripts, read to the end as sed reads them
        ("sed -n '/[a-z]/p' f", None),
        ("sed -n 's/[/]/x/p' f", None),
        ("sed -n '/^#/!p' f", None),
        ("sed 's/[[:space:]]*$//' f", None),
        ("sed 's/[]]/x/g' f", None),
        ("sed 'y/[]/()/' f", None),
        ("sed 's/a/[/' f", None),
        ("sed -n '/[/]/,/end/p' f", None),
        ("sed -n '/a\\\n/p' f", None),  # an escaped newline does not end the regex
        ("sed 's/x/y/2g;s/a/b/Ip' f", None),
        ("sed 's/x/y/ # the new name' f", None),  # `#` ends the flags: a comment follows
        ("sed -n '/x/{s/a/b/p}' f", None),
    ],
)
def test_sed_script_reads_regexes_as_gnu_sed(command: str, problem: str | None) -> None:
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
        ('git -c "$KEY" log', "git -c value is not literal"),
        # bash may split it: `-c x -p`, an option after the value (review CF3)
        ("git -c $KEY log", "git has a non-literal word where an option could be"),
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


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("tar -tf x.tar", None),
        ("tar tzf archive.tar.gz", None),
        ("tar -tf ./a:b.tar", None),
        ("tar -tf dir/host:x.tar", None),
        ("tar -tf /abs/host:x.tar", None),
        ("tar -tf ~/x.tar", None),
        ('tar -tf ./"$D"/x.tar', None),
        ("tar -tf localhost:x.tar --force-local", None),
        ("tar -t", None),
        (
            "tar -tf localhost:x.tar",
            "tar archive `localhost:x.tar` is on a remote host (tar runs rsh for it)",
        ),
        (
            "tar tf user@example.com:x.tar",
            "tar archive `user@example.com:x.tar` is on a remote host (tar runs rsh for it)",
        ),
        (
            "tar --list --file=h:x",
            "tar archive `h:x` is on a remote host (tar runs rsh for it)",
        ),
        (
            "tar -tf x.tar -f h:y",
            "tar archive `h:y` is on a remote host (tar runs rsh for it)",
        ),
        ('tar -tf "$ARCHIVE"', "tar archive name is not literal"),
        ('tar -tf "$H":x.tar', "tar archive name is not literal"),
        ('tar -tf "$D"/x.tar', "tar archive name is not literal"),  # $D may be `host:dir`
        ("tar -tf x.tar $OPTS", "tar has a non-literal word where an option could be"),
    ],
)
def test_tar_local(command: str, problem: str | None) -> None:
    assert run("tar-local", command) == problem


_IMPORTS = "jq program imports a module (it can read any JSON file)"


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("jq .name package.json", None),
        ("jq -n 1", None),
        ("jq -r '.[] | .name' f.json", None),
        ("jq -n --arg x 1 '$x'", None),
        ("jq -n -- '.a'", None),
        (
            "jq -n 'import \"../../home/u/.docker/config\" as $c; $c'",
            _IMPORTS,
        ),
        ("jq -n 'include \"x\"; 1'", _IMPORTS),
        ("jq -n -- 'import \"x\" as $c; $c'", _IMPORTS),
        ("jq -n -L /dir 1", "jq option `-L` adds a module search path"),
        ("jq -nL/dir 1", "jq option `-L` adds a module search path"),
        (
            "jq -n --library-path=/dir 1",
            "jq option `--library-path` reads modules or a program from files",
        ),
        ("jq -nf prog.jq", "jq option `-f` reads the program from a file"),
        (
            "jq --from-file prog.jq data.json",
            "jq option `--from-file` reads modules or a program from files",
        ),
        ('jq "$PROGRAM" f.json', "jq has a non-literal word"),
        ('jq -n -- "$PROGRAM"', "jq has a non-literal word"),
    ],
)
def test_jq_program(command: str, problem: str | None) -> None:
    assert run("jq-program", command) == problem
