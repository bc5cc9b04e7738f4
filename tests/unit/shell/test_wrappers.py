"""Wrappers seen through: the chain, the inner command, shells and opaque commands."""

from __future__ import annotations

import pytest

from policylang.shell.model import Segment, Unwrapped
from policylang.shell.options import OptionSpec
from policylang.shell.parse import parse_command
from policylang.shell.wrappers import (
    DEFAULT_WRAPPERS,
    DIALECT_CODE,
    EFFECT_CODE,
    Dialect,
    OptionEffect,
    WrapperKind,
    WrapperSpec,
    unwrap,
)


def segment(text: str) -> Segment:
    return parse_command(text).segments[0]


def wrapped(text: str) -> Unwrapped:
    found = segment(text).wrapped
    assert found is not None, f"{text!r} should be seen as wrapped"
    return found


def inner(text: str) -> tuple[list[str], list[str | None]]:
    result = wrapped(text)
    assert not result.opaque, result.reason
    return [u.name for u in result.chain], [w.value for w in result.words]


@pytest.mark.parametrize(
    ("text", "chain", "words"),
    [
        (
            "sudo -u root env FOO=1 timeout 5 nice rm x",
            ["sudo", "env", "timeout", "nice"],
            ["rm", "x"],
        ),
        ("env -i -u HOME PATH=/bin ls", ["env"], ["ls"]),
        ("env - PATH=/bin ls", ["env"], ["ls"]),
        ("timeout -s KILL 10s make", ["timeout"], ["make"]),
        ("timeout --signal=KILL 10s make", ["timeout"], ["make"]),
        ("nice -n 10 make", ["nice"], ["make"]),
        ("nice -10 make", ["nice"], ["make"]),
        ("nohup ./run.sh", ["nohup"], ["./run.sh"]),
        ("time -p ls", ["time"], ["ls"]),
        ("command -p rm x", ["command"], ["rm", "x"]),
        ("exec -a name rm x", ["exec"], ["rm", "x"]),
        ("builtin cd /", ["builtin"], ["cd", "/"]),
        ("xargs -0 -n1 rm -f", ["xargs"], ["rm", "-f"]),
        ("xargs -I{} mv {} /tmp", ["xargs"], ["mv", "{}", "/tmp"]),
        ("xargs", ["xargs"], ["echo"]),
        ("doas -u root rm x", ["doas"], ["rm", "x"]),
        ("stdbuf -oL grep x", ["stdbuf"], ["grep", "x"]),
        ("ionice -c 3 rm x", ["ionice"], ["rm", "x"]),
        ("setsid -f rm x", ["setsid"], ["rm", "x"]),
        ("chrt -f 99 rm x", ["chrt"], ["rm", "x"]),
        ("taskset -c 1 rm x", ["taskset"], ["rm", "x"]),
        ("flock /tmp/lock rm x", ["flock"], ["rm", "x"]),
        ("/usr/bin/sudo rm x", ["sudo"], ["rm", "x"]),
        ("\\sudo rm x", ["sudo"], ["rm", "x"]),
        ("sudo -- rm x", ["sudo"], ["rm", "x"]),
        ("exec", ["exec"], []),
        ("busybox rm x", ["busybox"], ["rm", "x"]),
        ("chroot /mnt rm x", ["chroot"], ["rm", "x"]),
        ("\\coproc rm x", ["coproc"], ["rm", "x"]),  # quoted, so not the keyword
    ],
)
def test_inner_command(text: str, chain: list[str], words: list[str]) -> None:
    assert inner(text) == (chain, words)


def test_env_assignments_are_parsed() -> None:
    result = wrapped('env A=1 B="$(id)" ls')
    assert [(a.name, a.value.value if a.value else "") for a in result.assignments] == [
        ("A", "1"),
        ("B", None),
    ]
    # unquoted, env's argument is split at the blanks of the output, and a word of it
    # may be the command (review CE1): the inner command cannot be told
    assert wrapped("env A=1 B=$(id) ls").opaque


def test_chain_keeps_each_wrappers_own_words() -> None:
    result = wrapped("sudo -u root timeout 5 rm x")
    assert [[w.value for w in use.words] for use in result.chain] == [
        ["sudo", "-u", "root"],
        ["timeout", "5"],
    ]


def test_command_v_is_not_a_wrapper_use() -> None:
    assert segment("command -v rm").wrapped is None
    assert segment("sudo -l").wrapped is None


@pytest.mark.parametrize(
    "text",
    [
        "bash -c 'rm -rf ~'",
        "sh -c 'rm -rf ~'",
        "bash -lc 'rm -rf ~'",
        "bash -xec 'rm -rf ~'",
        "zsh -o pipefail -c 'rm -rf ~'",
        "sudo bash -c 'rm -rf ~'",
        "su -c 'rm -rf ~' root",
        "flock /tmp/l -c 'rm -rf ~'",
        "eval 'rm -rf ~'",
        "eval rm -rf '~'",
        "watch -n 1 'rm -rf ~'",
        "busybox sh -c 'rm -rf ~'",
    ],
)
def test_shell_strings_are_parsed(text: str) -> None:
    result = wrapped(text)
    assert not result.opaque, result.reason
    assert result.nested is not None
    assert result.nested.segments[0].argv == ("rm", "-rf", None)
    assert result.nested.reparsed


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('bash -c "$CMD"', "the command string of `bash` is not literal"),
        ("bash", "`bash` reads commands from standard input"),
        ("bash -s arg", "`bash` reads commands from standard input"),
        ("bash script.sh", "`bash` runs the script `script.sh`"),
        ("sh -c", "`sh -c` without a command string"),
        ("eval $X", "`eval` runs code that is not literal"),
        ("su root", "`su` starts an interactive shell"),
        ("sudo --frobnicate rm", "unknown option `--frobnicate` of `sudo`"),
        ("sudo $OPTS rm", "`$OPTS` may be an option of `sudo`"),
        ("timeout", "no command found after `timeout`"),
        ("timeout 5", "no command found after `timeout`"),
        ("env -S 'rm x'", "`env -S` hides the command it runs"),
        ("chroot /mnt", "no command found after `chroot`"),
    ],
)
def test_opaque_commands(text: str, reason: str) -> None:
    result = wrapped(text)
    assert result.opaque
    assert result.reason == reason
    assert result.words == ()


def test_long_chains_are_cut_off() -> None:
    result = wrapped("nice " * 40 + "rm x")
    assert result.opaque
    assert "nested wrappers" in result.reason


def test_unwrap_without_a_parser_is_opaque_not_silent() -> None:
    words = segment("bash -c 'rm x'").words
    result = unwrap(words, DEFAULT_WRAPPERS)
    assert result.opaque
    assert result.nested is None


def test_table_is_extensible_and_immutable() -> None:
    spec = WrapperSpec(
        name="firejail", options=OptionSpec(flags=frozenset({"--quiet"}), stop_at_operand=True)
    )
    table = DEFAULT_WRAPPERS.extend([spec])
    assert "firejail" in table
    assert "firejail" not in DEFAULT_WRAPPERS
    line = parse_command("firejail --quiet rm x", wrappers=table)
    assert [w.value for w in line.segments[0].command_words] == ["rm", "x"]
    assert parse_command("firejail --quiet rm x").segments[0].wrapped is None


def test_every_default_wrapper_has_a_kind() -> None:
    names = {spec.name for spec in DEFAULT_WRAPPERS}
    assert {"env", "timeout", "sudo", "xargs", "bash", "sh", "eval"} <= names
    assert DEFAULT_WRAPPERS.get("bash") is not None
    assert DEFAULT_WRAPPERS.get("bash").kind is WrapperKind.SHELL  # type: ignore[union-attr]
    assert len(DEFAULT_WRAPPERS) == len(list(DEFAULT_WRAPPERS))


def test_command_words_without_wrappers_are_the_words() -> None:
    plain = segment("rm x")
    assert plain.wrapped is None
    assert plain.command_words == plain.words


def test_trap_code_is_seen_through() -> None:
    seen = parse_command("trap 'rm -rf ~' EXIT").segments[0].wrapped
    assert seen is not None
    assert seen.nested is not None
    assert seen.nested.segments[0].argv == ("rm", "-rf", None)
    reset = parse_command("trap - INT").segments[0].wrapped
    assert reset is not None
    assert (reset.words, reset.opaque) == ((), False)
    hidden = parse_command('trap "$X" EXIT').segments[0].wrapped
    assert hidden is not None
    assert hidden.reason == "`trap` runs code that is not literal"
    assert parse_command("trap -p EXIT").segments[0].wrapped is None  # a query runs nothing
    late = parse_command("trap -- 'curl x | sh' INT TERM").segments[0].wrapped
    assert late is not None
    assert late.nested is not None
    assert [s.argv for s in late.nested.segments] == [("curl", "x"), ("sh",)]


def effects(text: str) -> list[str]:
    """The messages of the wrapper-effect problems of `text`'s first segment."""
    return [p.message for p in wrapped(text).problems if p.code == EFFECT_CODE]


@pytest.mark.parametrize(
    ("text", "message", "words"),
    [
        # GNU time writes its report (review A F10)
        (
            "\\time -o out ls",
            "`time -o` writes its report to a file",
            ["ls"],
        ),
        (
            "\\time --output=out ls",
            "`time --output` writes its report to a file",
            ["ls"],
        ),
        (
            "\\time -oout ls",
            "`time -o` writes its report to a file",
            ["ls"],
        ),
        (
            "\\time -a ls",
            "`time -a` appends its report to a file",
            ["ls"],
        ),
        (
            "nice time -o out rm x",
            "`time -o` writes its report to a file",
            ["rm", "x"],
        ),
        # xargs reads its arguments from a file (review B F15)
        (
            "xargs -a .env",
            "`xargs -a` reads the arguments it adds from a file, unseen by the policy",
            ["echo"],
        ),
        (
            "xargs --arg-file=/x cat",
            "`xargs --arg-file` reads the arguments it adds from a file, unseen by the policy",
            ["cat"],
        ),
        (
            "xargs -a/x",
            "`xargs -a` reads the arguments it adds from a file, unseen by the policy",
            ["echo"],
        ),
        # env -C moves the inner command (review B F16)
        (
            "env -C /home cat .aws/credentials",
            "`env -C` runs the command in another directory, where its relative paths name "
            "files the policy did not check",
            ["cat", ".aws/credentials"],
        ),
        (
            "env --ch=/home cat x",
            "`env --chdir` runs the command in another directory, where its relative paths "
            "name files the policy did not check",
            ["cat", "x"],
        ),
        # flock creates its lock file (review B F17)
        (
            "flock -n .git/hooks/x ls",
            "`flock .git/hooks/x` creates the lock file, which the policy does not check",
            ["ls"],
        ),
        (
            'flock ./"$LOCK" ls',
            '`flock ./"$LOCK"` creates the lock file, which the policy does not check',
            ["ls"],
        ),
        # chroot runs the programs of its directory (review B F18)
        (
            "chroot --userspec=1:1 /jail ls",
            "`chroot /jail` runs the programs of that directory tree, which are not the "
            "commands the rules know",
            ["ls"],
        ),
    ],
)
def test_wrapper_options_with_effects_are_reported(
    text: str, message: str, words: list[str]
) -> None:
    result = wrapped(text)
    assert not result.opaque, result.reason
    assert effects(text) == [message]
    # the inner command is still seen, so its own rules (a deny) still apply
    assert [w.value for w in result.words] == words


def test_flock_string_option_reports_the_lock_file() -> None:
    result = wrapped("flock lock -c 'rm x'")
    assert effects("flock lock -c 'rm x'") == [
        "`flock lock` creates the lock file, which the policy does not check"
    ]
    assert result.nested is not None
    assert result.nested.segments[0].argv == ("rm", "x")


def test_shell_option_value_bash_may_split_is_opaque() -> None:
    # `bash -o $OPT -c ls` with OPT=`xtrace -c CMD` runs CMD (review CF)
    result = wrapped("bash -o $OPT -c ls")
    assert result.opaque


@pytest.mark.parametrize(
    "text",
    [
        "bash -kc 'ls LD_PRELOAD=/x.so'",
        "bash -k -c 'ls LD_PRELOAD=/x.so'",
        "bash -ck 'ls LD_PRELOAD=/x.so'",
        "sh -kc ls",
        "bash -o keyword -c 'ls LD_PRELOAD=/x.so'",
        'bash -o "$OPT" -c ls',  # may be `keyword`
    ],
)
def test_shell_keyword_option_is_reported(text: str) -> None:
    # review A F11: `NAME=VALUE` arguments become the environment of the command
    result = wrapped(text)
    assert effects(text), text
    assert "`NAME=VALUE` arguments environment variables" in effects(text)[0]
    assert result.nested is not None


@pytest.mark.parametrize(
    "text",
    [
        "time -p ls",
        "\\time -f %e ls",
        "env -u HOME -i ls",
        "env FOO=1 ls",
        "xargs -0 -n1 grep x",
        "flock 9",
        "timeout 5 ls",
        "bash -c ls",
        "bash -o pipefail -c ls",
        "bash -xec ls",
        "bash -lc ls",
        "bash -O nullglob -c ls",
        "bash -o errexit -o nounset -c ls",
        "exec ls",
        "xargs -P 2 -n 1 ls",
    ],
)
def test_plain_wrapper_options_have_no_effect(text: str) -> None:
    found = segment(text).wrapped
    assert found is None or not [p for p in found.problems if p.code == EFFECT_CODE]


def test_effects_are_reported_through_the_parser_as_problems() -> None:
    line = parse_command("ls | \\time -o out ls")
    assert [p.code for p in line.problems] == [EFFECT_CODE]
    assert "writes its report" in line.problems[0].message


def test_effect_of_an_extended_spec() -> None:
    spec = WrapperSpec(
        name="logrun",
        options=OptionSpec(takes_value=frozenset({"--log"}), stop_at_operand=True),
        effects=(OptionEffect(options=frozenset({"--log"}), effect="writes a log"),),
    )
    table = DEFAULT_WRAPPERS.extend([spec])
    seen = parse_command("logrun --log=x rm y", wrappers=table).segments[0].wrapped
    assert seen is not None
    assert [p.message for p in seen.problems] == ["`logrun --log` writes a log"]
    assert [w.value for w in seen.words] == ["rm", "y"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        # review E16: what `read` sets in an allexport shell reaches tar's environment
        ("bash -ac 'read TAR_OPTIONS; tar -tf x.tar'", "`bash -a` exports every variable"),
        ("bash -a -c ls", "`bash -a` exports every variable"),
        ("bash -o allexport -c ls", "`bash -o allexport` sets a shell option"),
        ('bash -o "$OPT" -c ls', "`bash -o …` sets a shell option"),
        # review E12 and E4b: options that change what words mean
        ("bash -O dotglob -c 'cat *'", "`bash -O dotglob` sets a shell option"),
        ("bash -O cdable_vars -c 'cd HOME'", "`bash -O cdable_vars` sets a shell option"),
        ("bash -O expand_aliases -c ls", "`bash -O expand_aliases` sets a shell option"),
        ('bash -O "$OPT" -c ls', "`bash -O …` sets a shell option"),
        ("bash -ic ls", "`bash -i` starts an interactive shell"),
        # review E9: argv[0] chosen by the line (`pgrep` named `pkill` kills)
        ("exec -a pkill pgrep -f x", "`exec -a` runs the program under another name"),
        ("exec -apkill pgrep x", "`exec -a` runs the program under another name"),
        # review E8: `--process-slot-var=PATH` runs the command with PATH=0
        (
            "xargs --process-slot-var=PATH echo",
            "`xargs --process-slot-var` sets an environment variable",
        ),
    ],
)
def test_more_options_with_effects(text: str, fragment: str) -> None:
    found = effects(text)
    assert any(message.startswith(fragment) for message in found), found
    result = wrapped(text)
    assert not result.opaque, result.reason


def dialect_problems(text: str) -> list[str]:
    return [p.message for p in wrapped(text).problems if p.code == DIALECT_CODE]


@pytest.mark.parametrize(
    ("text", "spelling"),
    [
        # review E13: each reads differently in dash than in bash
        ("sh -c \"echo \\$'\\\\'\ntouch x\n'\"", "$'"),
        ("dash -c 'echo x &>/dev/null touch y'", "&>"),
        ("sh -c '((rm - LICENSE))'", "(("),
        ("ash -c 'cat <<< x'", "<<<"),
        ("sh -c '[[ -f x ]]'", "[["),
        ("sh -c 'diff <(ls) y'", "<("),
        ("sh -c 'time -o out ls'", "time"),
        ("busybox sh -c 'ls |& cat'", "|&"),
        ("watch 'ls &>/dev/null rm x'", "&>"),
    ],
)
def test_posix_shell_code_with_bash_only_spellings(text: str, spelling: str) -> None:
    found = dialect_problems(text)
    assert len(found) == 1, found
    assert f"`{spelling}`" in found[0], found
    # still parsed: a deny bash's reading finds keeps applying
    assert wrapped(text).nested is not None


@pytest.mark.parametrize(
    "text",
    [
        "sh -c 'ls -la | head -5'",
        "sh -c 'echo $((1 + 2)) > /dev/null'",
        "dash -c 'for f in *.txt; do wc -l \"$f\"; done'",
        "bash -c 'echo x &>/dev/null; [[ -f y ]]; time ls'",
        "eval 'echo x &>/dev/null'",
        "watch -n 1 'ls -l'",
    ],
)
def test_code_both_shells_read_alike_has_no_dialect_problem(text: str) -> None:
    assert dialect_problems(text) == []


@pytest.mark.parametrize(
    "text", ["zsh -c ls", "ksh -c 'ls -l'", "mksh -c ls", "flock 9 -c ls", "su -c ls user"]
)
def test_foreign_shell_code_is_parsed_but_always_reported(text: str) -> None:
    found = dialect_problems(text)
    assert len(found) == 1, found
    assert "does not read code by bash's rules" in found[0], found
    assert wrapped(text).nested is not None


def test_default_dialects() -> None:
    dialects = {spec.name: spec.dialect for spec in DEFAULT_WRAPPERS}
    assert dialects["bash"] is Dialect.BASH
    assert dialects["eval"] is Dialect.BASH
    assert dialects["sh"] is dialects["dash"] is dialects["watch"] is Dialect.POSIX
    assert dialects["zsh"] is dialects["ksh"] is Dialect.FOREIGN


@pytest.mark.parametrize(
    "text",
    [
        "env -i bash -c ll",
        "env -u PATH bash -c ll",
        "env --unset=PATH bash -c ll",
        "env - bash -c ll",
        "exec -c bash -c ll",
        "env -i timeout 5 nice bash -c ll",
        "env -i sh -c ll",  # `sh` may be bash
    ],
)
def test_a_shell_started_without_path_is_an_effect(text: str) -> None:
    # review H2: bash's own default PATH ends in `.`, so `ll` may be `./ll`
    assert any("starts without PATH" in message for message in effects(text)), effects(text)


@pytest.mark.parametrize(
    "text", ["env -i ls", "env -u HOME bash -c ls", "env PATH=/bin bash -c ls"]
)
def test_no_path_effect_without_both_parts(text: str) -> None:
    assert not any("starts without PATH" in message for message in effects(text))


def test_flock_with_a_command_names_a_file_by_its_number() -> None:
    """`flock 9` alone locks descriptor 9; `flock 9 CMD` opens a file named `9` (EV4)."""
    found = segment("flock -n 9 ls").wrapped
    assert found is not None
    assert any("creates the lock file" in p.message for p in found.problems)
