"""The runners' own options (`RUNNER_WRAPPERS`: where `strace`, `setpriv`, `script -c` …
start the command they run), and string options with a glued value (`su -c'…'`,
`flock FILE --command=…`): open items A2."""

from __future__ import annotations

import pytest

from policylang.shell.model import CommandLine
from policylang.shell.parse import parse_command
from policylang.shell.wrappers import DEFAULT_WRAPPERS, RUNNER_WRAPPERS, Unwrapped, unwrap
from policylang.span import Span

_TABLE = DEFAULT_WRAPPERS.extend(RUNNER_WRAPPERS)


def _kept(code: str, _anchor: Span, _where: str) -> CommandLine:
    return CommandLine(text=code, segments=())


def _runner(text: str) -> Unwrapped:
    return unwrap(parse_command(text).segments[0].words, _TABLE, parse=_kept)


@pytest.mark.parametrize(
    ("text", "chain", "words"),
    [
        ("setpriv --reuid 1000 --clear-groups cat x", ["setpriv"], ["cat", "x"]),
        ("setpriv --reuid=1000 cat x", ["setpriv"], ["cat", "x"]),
        ("strace -f -o out -e trace=open -s 99 cat x", ["strace"], ["cat", "x"]),
        ("strace -E A=1 -u nobody cat x", ["strace"], ["cat", "x"]),
        ("strace -p 1", ["strace"], []),
        ("strace nice -n 5 cat x", ["strace", "nice"], ["cat", "x"]),
        ("nsenter -t 1 -m -u cat x", ["nsenter"], ["cat", "x"]),
        ("nsenter -m/proc/1/ns/mnt -S 0 cat x", ["nsenter"], ["cat", "x"]),
        ("unshare -r --propagation private cat x", ["unshare"], ["cat", "x"]),
        ("unshare -m -U cat x", ["unshare"], ["cat", "x"]),
        # prlimit's limits take a value only glued (`-n5`, `--nofile=10`): `-n 5` runs `5`
        ("prlimit --nofile=10 -n5 cat x", ["prlimit"], ["cat", "x"]),
        ("prlimit -n 5 cat x", ["prlimit"], ["5", "cat", "x"]),
        # setarch reads its options after the architecture too
        ("setarch x86_64 -R cat x", ["setarch"], ["cat", "x"]),
        ("setarch i686 cat x", ["setarch"], ["cat", "x"]),
        ("linux32 -R cat x", ["linux32"], ["cat", "x"]),
        ("systemd-run --user -p A=b --wait cat x", ["systemd-run"], ["cat", "x"]),
        # valgrind takes no value in a separate word (`--log-file x` runs `x`)
        ("valgrind --tool=none --log-file=vg.log -q cat x", ["valgrind"], ["cat", "x"]),
        ("valgrind --log-file x cat", ["valgrind"], ["x", "cat"]),
        ("script -q", ["script"], []),
    ],
)
def test_runner_command_starts_after_its_options(
    text: str, chain: list[str], words: list[str]
) -> None:
    found = _runner(text)
    assert not found.opaque, found.reason
    assert [use.name for use in found.chain] == chain
    assert [w.value for w in found.words] == words


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("script -qc 'cat x' /dev/null", "cat x"),
        ("script out.log -c 'cat x'", "cat x"),
        ("script --command='cat x'", "cat x"),
        ("script -c'cat x'", "cat x"),
    ],
)
def test_script_runs_its_command_string(text: str, code: str) -> None:
    found = _runner(text)
    assert found.nested is not None, found.reason
    assert found.nested.text == code


@pytest.mark.parametrize(
    "text", ["valgrind --weird=1 cat x", "strace --no-such-option cat x", "setpriv -Q cat x"]
)
def test_an_unknown_option_of_a_runner_hides_its_command(text: str) -> None:
    assert _runner(text).opaque


def test_runners_are_not_seen_through_by_the_default_table() -> None:
    assert not any(spec.name in DEFAULT_WRAPPERS for spec in RUNNER_WRAPPERS)
    assert parse_command("strace cat x").segments[0].wrapped is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("su -c'cat x'", "cat x"),
        ("su --command='cat x'", "cat x"),
        ("flock --command='cat x' /tmp/l", "cat x"),
        ("flock /tmp/l --command='cat x'", "cat x"),
        ("flock /tmp/l -c'cat x'", "cat x"),
    ],
)
def test_a_glued_command_string_is_read(text: str, code: str) -> None:
    found = parse_command(text).segments[0].wrapped
    assert found is not None
    assert found.nested is not None, found.reason
    assert found.nested.text == code
