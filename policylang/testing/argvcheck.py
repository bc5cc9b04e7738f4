"""The commands bash really runs for a line, held against the analyser's model of it.

A parser differential fails open when the engine allows a line whose model lacks a command
bash runs (review BU: `[ a|| rm -rf docs ]`, `sed … -i2>/dev/null`, `find . 2>&- -delete`).
`executed_argvs` runs each line in bash with every command name turned into a function that
logs its argv (and `command_not_found_handle` logging any other name), so nothing but
builtins runs and each command bash would start is written down; `uncovered` lists the
logged argvs that no segment of the model, nested ones and wrapped commands included,
matches. `soup_lines` generates lines from shell metacharacters for both.

INVARIANT: the lines run inside bubblewrap: no network, no capabilities, the system
read-only, a fresh empty folder as the working directory and `/tmp`; they are generated
text run as whatever user the tests run as (root on CI), and a redirect may name any path.
Without bubblewrap `executed_argvs` refuses (`SandboxUnavailableError`) rather than running
anything unconfined.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final, NamedTuple

from policylang.decision import Decision, Verdict
from policylang.shell.model import CommandLine, SegmentKind
from policylang.shell.parse import parse_command
from policylang.shell.walk import walk

__all__ = [
    "LOGGED_NAMES",
    "Run",
    "SandboxUnavailableError",
    "differential",
    "executed",
    "executed_argvs",
    "main",
    "mutated_lines",
    "soup_lines",
    "uncovered",
    "unexpected_files",
]

#: names the prelude turns into logging functions; any other name reaches
#: `command_not_found_handle` (PATH names an empty folder)
LOGGED_NAMES = (
    "echo", "printf", "ls", "cat", "grep", "wc", "true", "false", ":", "test", "[", "cd",
    "head", "sort", "read", "set", "export", "unset", "date", "pwd", "type", "find", "sed",
    "tr", "xargs", "timeout", "nice", "env", "command", "git", "rm", "touch", "bash", "sh",
    "declare", "readonly", "typeset",
)  # fmt: skip

# a newline is logged as `\x1d`: bash's printf writes a line at a time, and the line of
# a command running beside another (`a | b`, `coproc`) would interleave with its record
_FIELD, _RECORD, _NEWLINE = "\x1f", "\x1e", "\x1d"
_CONTROL_MARK = "<separator-bytes>"
_FILE_LIMIT = 1024 * 1024  # `ulimit -f 1024` in `_LOOP`
_PRELUDE = (
    # an argument holding one of the log's separators (`$'\c='` is `\x1d`) is logged as
    # the command's name and a mark: its words cannot be told apart (`uncovered`)
    "__rec() { local __s; if [[ \"$*\" == *[$'\\035\\036\\037']* ]]; then "
    f"builtin printf -v __s '%s\\037%s\\037' \"$1\" '{_CONTROL_MARK}'; "
    "else builtin printf -v __s '%s\\037' \"$@\"; fi; "
    "builtin printf '%s\\036' \"${__s//$'\\n'/$'\\035'}\" >> \"$__LOG\"; }\n"
    # the variables that change what later words mean, when they differ from the start
    '__env() { [[ $PATH == /empty && $HOME == /tmp && "${IFS-unset}" == $\' \\t\\n\' && '
    '"${CDPATH-unset}" == unset ]] || '
    '__rec "<env>" "PATH=$PATH" "HOME=$HOME" "IFS=${IFS-unset}" "CDPATH=${CDPATH-unset}"; }\n'
    "command_not_found_handle() { __env; __rec \"$@\"; return $__RC; }\n"
    + "".join(
        f"function {name} {{ __env; __rec {name} \"$@\"; return $__RC; }}\n"
        for name in LOGGED_NAMES
        if name != "bash"
    )
    # `bash -c STRING` runs STRING in a real bash that inherits the logging functions, so
    # the commands of nested lines are logged too
    + 'function bash { __env; __rec bash "$@"; /bin/bash "$@"; }\n'
    + "builtin export -f __rec __env command_not_found_handle "
    + " ".join(name for name in LOGGED_NAMES if name.isidentifier())
    + " 2>/dev/null\n"
)
#: what `__env` logs a variable as when it has the value the runs start with
_START_ENVIRONMENT: Final = {"PATH": "/empty", "HOME": "/tmp", "IFS": " \t\n", "CDPATH": "unset"}
_ENV_MARK: Final = "<env>"
# one bash loops over the samples, each run by its own bash in a fresh folder, twice: with
# every logged command succeeding, then failing, so that both sides of `&&` and `||` run;
# killed after two seconds or past 1 MiB of files (a loop may not end), a sample has no
# `.done` mark: its log is not the whole of what it would run
_LOOP = r"""
ulimit -f 1024
for f in /samples/*.sh; do
  n=${f##*/}; n=${n%.sh}
  /usr/bin/mkdir "/tmp/w$n" && cd "/tmp/w$n" || continue
  for rc in 0 1; do
    __RC=$rc __LOG="/log/$n" /usr/bin/timeout -s KILL 2 /bin/bash --norc --noprofile "$f" \
      </dev/null >/dev/null 2>&1 || [ $? -lt 128 ] || continue 2
  done
  /usr/bin/find . -mindepth 1 -printf '%P\0' > "/log/$n.files"
  : > "/log/$n.done"
done
: > /log/finished
"""


class SandboxUnavailableError(RuntimeError):
    """bubblewrap is missing or cannot make a sandbox here: nothing is run."""


def _system_binds() -> list[str]:
    argv = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            argv += ["--symlink", str(path.readlink()), str(path)]
        elif path.is_dir():
            argv += ["--ro-bind", str(path), str(path)]
    return argv


def _sandboxed(bwrap: str, samples: Path, log: Path, empty: Path) -> list[str]:
    return [
        bwrap, *_system_binds(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
        "--ro-bind", str(samples), "/samples", "--bind", str(log), "/log",
        "--ro-bind", str(empty), "/empty",
        "--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session",
        "--clearenv", "--setenv", "PATH", "/empty", "--setenv", "HOME", "/tmp",
        "--setenv", "LC_ALL", "C.UTF-8", "--chdir", "/tmp",
        "--", "/bin/bash", "--norc", "--noprofile", "-c", _LOOP,
    ]  # fmt: skip


class Run(NamedTuple):
    """What bash did for one line: the argv of every command it ran, and the files and
    folders it made in its working folder (by redirects: every command is a function)."""

    argvs: tuple[tuple[str, ...], ...]
    files: tuple[str, ...]


def executed_argvs(
    lines: Sequence[str], *, timeout: float = 600.0
) -> tuple[tuple[tuple[str, ...], ...] | None, ...]:
    """For each line, the argv of every command bash ran for it (in two runs: every
    command succeeding, then failing); None where a run did not finish.

    Raises:
        SandboxUnavailableError: no bubblewrap, or it cannot make a sandbox here.
        subprocess.TimeoutExpired: the whole batch took longer than `timeout` seconds.
    """
    return tuple(None if run is None else run.argvs for run in executed(lines, timeout=timeout))


def executed(lines: Sequence[str], *, timeout: float = 600.0) -> tuple[Run | None, ...]:
    """`executed_argvs` with the files each line made (relative to its working folder)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailableError("bubblewrap (`bwrap`) was not found on PATH")
    with tempfile.TemporaryDirectory(prefix="policylang-argvcheck-") as tmp:
        samples, log, empty = Path(tmp, "samples"), Path(tmp, "log"), Path(tmp, "empty")
        for folder in (samples, log, empty):
            folder.mkdir()
        for index, line in enumerate(lines):
            text = _PRELUDE + line + "\n"
            (samples / f"{index:07d}.sh").write_bytes(text.encode("utf-8", "surrogatepass"))
        proc = subprocess.run(
            _sandboxed(bwrap, samples, log, empty),
            capture_output=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if lines and not (log / "finished").exists():
            message = proc.stderr.decode("utf-8", "replace").strip()[:300]
            raise SandboxUnavailableError(f"bubblewrap could not run the samples: {message}")
        return tuple(_read_run(log, index) for index in range(len(lines)))


def _read_run(log: Path, index: int) -> Run | None:
    argvs = _read_log(log, index)
    if argvs is None:
        return None
    listing = (log / f"{index:07d}.files").read_bytes().decode("utf-8", "surrogateescape")
    return Run(argvs=argvs, files=tuple(name for name in listing.split("\0") if name))


def _read_log(log: Path, index: int) -> tuple[tuple[str, ...], ...] | None:
    name = f"{index:07d}"
    if not (log / f"{name}.done").exists():
        return None
    path = log / name
    if not path.exists():
        return ()
    raw = path.read_bytes()
    *records, rest = raw.decode("utf-8", "surrogateescape").split(_RECORD)
    if len(raw) >= _FILE_LIMIT or rest or not all(r.endswith(_FIELD) for r in records):
        # the file limit stopped a loop, maybe mid-record: this is not the whole of what
        # the line ran
        return None
    return tuple(tuple(record.replace(_NEWLINE, "\n").split(_FIELD)[:-1]) for record in records)


def model_argvs(line: CommandLine) -> Iterator[tuple[str | None, ...]]:
    """The argv of every simple command of the model (None: a word not known), nested
    lines included, and the command each wrapper runs."""
    for _line, segment in walk(line):
        if segment.kind is not SegmentKind.SIMPLE or not segment.words:
            continue
        words = tuple(word.value for word in segment.words)
        yield words
        if segment.wrapped is None:
            continue
        # each wrapper of the chain runs the rest of the words (`time xargs`: bash runs
        # `xargs`, `time` being a keyword), the innermost its command
        for use in segment.wrapped.chain:
            start = next((i for i, w in enumerate(segment.words) if w is use.words[0]), 0)
            if start:
                yield words[start:]
        if segment.wrapped.words:
            yield tuple(word.value for word in segment.wrapped.words)


def _matches(pattern: tuple[str | None, ...], argv: tuple[str, ...]) -> bool:
    """Whether `argv` is what `pattern` may expand to: a known word is itself, a word not
    known may become any number of words (splitting, globs, `"$@"`)."""

    @functools.cache
    def match(i: int, j: int) -> bool:
        if i == len(pattern):
            return j == len(argv)
        if pattern[i] is None:
            return any(match(i + 1, k) for k in range(j, len(argv) + 1))
        return j < len(argv) and pattern[i] == argv[j] and match(i + 1, j + 1)

    return match(0, 0)


def model_targets(line: CommandLine) -> Iterator[str | None]:
    """The target of every redirect of the model (None: a word not known), nested lines
    included."""
    for _line, segment in walk(line):
        for redirect in segment.redirects:
            if redirect.target is not None:
                yield redirect.target.value


def unexpected_files(text: str, files: Sequence[str]) -> list[str]:
    """The files bash made for `text` in its working folder that no redirect target of
    the model names (a target not known may name any)."""
    targets = set(model_targets(parse_command(text)))
    if None in targets:
        return []
    named = {os.path.normpath(t) for t in targets if t is not None and not t.startswith("/")}
    return [name for name in files if name not in named]


def uncovered(text: str, argvs: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The argvs bash ran for `text` that no command of the analyser's model matches,
    and the variables (`PATH`, `HOME`, `IFS`) a command ran with changed where the model
    assigns them nowhere, as `("<env>", "NAME=value", …)`."""
    line = parse_command(text)
    patterns = [_as_logged(pattern) for pattern in model_argvs(line)]
    found = []
    for argv in argvs:
        if argv[:1] == (_ENV_MARK,):
            changed = {
                name
                for name, _, value in (field.partition("=") for field in argv[1:])
                if _START_ENVIRONMENT.get(name) != value
            }
            if not changed <= set(model_assigned(line)):
                found.append(argv)
        elif argv[1:] == (_CONTROL_MARK,):
            # (its words held the log's separators: only its name can be compared)
            if not any(p and (p[0] is None or p[0] == argv[0]) for p in patterns):
                found.append(argv)
        elif not any(_matches(p, argv) for p in patterns):
            found.append(argv)
    return found


# the declaration builtins the prelude shadows: bash still reads `NAME=(…)` after them as
# an array assignment, and passes the function only `NAME`
_DECLARATIONS: Final = frozenset({"export", "declare", "readonly", "typeset"})
_ARRAY_OPERAND: Final = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\+?=\(")


def _as_logged(pattern: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """`pattern` as the logging function of a declaration builtin receives it."""
    if not pattern or pattern[0] not in _DECLARATIONS:
        return pattern
    return tuple(
        word if word is None or (found := _ARRAY_OPERAND.match(word)) is None else found[1]
        for word in pattern
    )


def model_assigned(line: CommandLine) -> Iterator[str]:
    """The names the model's segments assign: prefix assignments, declarations, a
    wrapper's `NAME=value`, `{NAME}>` descriptors."""
    for _line, segment in walk(line):
        for assignment in (*segment.assignments, *segment.declared):
            yield assignment.name
        if segment.wrapped is not None:
            yield from (assignment.name for assignment in segment.wrapped.assignments)


# the pieces `soup_lines` draws from: words and metacharacters bash reads specially, glued
# to their neighbours or not (review BU found its differentials in exactly such glue),
# redirections in their many spellings, and compound commands around a command (review
# BW found `{NAME}>` after `>&-` with these)
_NAMES = ("echo", "ls", "cat", "grep", "wc", "true", "printf", "test", "[", "head", "sort",
          "read", "unset", "find", "sed", "timeout 5", "env", "command", "git", "cd", ":",
          "date", "pwd", "tr", "xargs", "nice", "git status", "git log", "export",
          "declare -x", "readonly", "'ls'", "l\\s", '"ec"ho', "$'cat'", "\\git log",
          "x=1 echo", "x=$(echo a) cat", "~", "~+", "~-",
          # builtins that run code or assign (the logging functions shadow `printf`,
          # `read`, `cd`, `declare`…; `builtin NAME` reaches the real one), wrappers with
          # their options, `eval` of literal strings
          "eval", "eval 'ls -l'", "eval echo a\\;", "eval 'cat <<E'", "builtin eval",
          "builtin printf -v x", "builtin read -r", "builtin read -a x", "builtin cd",
          "builtin echo", "builtin", "let x=1", "getopts ab: o", "mapfile -t", "readarray",
          "printf -v x", "read -r", "read -a x", "local", "exec", "exec 2>/dev/null",
          "command -p", "command -v", "env -i", "env -u PATH", "env PATH=x", "nice -n 5",
          "timeout -s 9 5", "xargs -0", "xargs -I{} echo", "command exec", "\\eval", "'eval'",
          "trap 'ls -t' EXIT", "trap -- 'date' RETURN", "LC_X[1]=a echo", "CI=1 echo",
          "wait", "jobs", "pushd", "dirs", "popd")  # fmt: skip
_WORDS = (
    "a", "b", "-n", "-i", "-i2", "-delete", "x.py", "'q'", '"q w"', "$HOME", "${HOME}",
    "$x", "\\ ", "#c", "~", "*", "[ab]", "{a,b}", "{x}", "{PATH}", "$'\\x41'", '$"x"',
    "$(echo i)", "`echo j`", "$((1+2))", "<(ls)", ">/dev/null", "2>&1", "2>&-", "<&-", "<&",
    ">&", "-", "<<<w", "'", '"', "\\", "$", "$1", "$$", "{", "}", "(", ")", "=", "==", "=~",
    "]", "]]", "[[", "!", "|", "||", "&&", "&", ";", ">", ">>", "<", "x=1", "--", "-e",
    "\\\t", "2", "-1", "$'\\''", "$'\\\\'", "$'a\\nb'", "$'\\e'", "$'\\c['", "$\"x\"",
    "\\\n", "\r", "\t", ">(ls)", "$(date)", "#", "a#b", "\\#", "\\;", "?", "PATH=x",
    "~root", "~+/x", "~-", "a=~", "x:~", '"$@"', "${x:-a b}", "${x:=$(date)}", "${x/a/b}",
    "${#x}", "$[1]", '"${HOME}"x', "'a'\\''b'", "$'\\047'", "\\$x", "\\`", "@(a|b)",
    # review BX: backquotes in double quotes, continuations, braces closed after a comma
    '"`echo \\"a\\"`"', '"`: \\"\'\\"; ls; \\"\'\\"`"', "`echo 'a\\\nb'`", "\\\n\\\n",
    "{x},a}", "{x},-n}", "2147483648", "{PA\\\nTH}", "{x}\\{,b}",
    # review BY: assignments in arithmetic and subscripts
    "$((PATH=1))", "${x[HOME=2]}", "$[IFS=3]", "$((CDPATH=4))", "${x:0:HOME=6}",
    "${#x[PATH=7]}", "${x[@]:CDPATH=8}", "$(cat <<E\nx\nE\n)", '"$(echo "a b")"', "<(ls 2>&1)",
    "$(case a in a) ls;; esac)", "`ls \\`date\\``",
    # parameter operators, nested substitutions with quotes and comments, backquotes in
    # `$( )`, `$"…"`, extglobs, arrays, odd blanks, comments, special parameters
    "${x@Q}", "${x@E}", "${x@A}", "${x@a}", "${x@U}", "${!H*}", "${!H@}", "${!x}",
    "${x##*/}", "${x%.*}", "${x//\\//-}", "${x/#a/b}", "${x/%a/$(ls)}", "${x^^}", "${x,}",
    "${x:-$(ls)}", "${x[@]}", "${x[*]:1:2}", "${#x[@]}", "${!x[@]}", "${x-'a b'}",
    '${x-"$(ls)"}', "${x:+`ls`}", "${x[1]}", '"${x[@]}"', "${x:-'}'}", '$"a $(ls)"',
    "$'a\\x27'", "$(echo 'a)' # c\n)", "$( (ls) )", "$((\n1))", '$( echo "$( ls )" )',
    "$(echo `echo a`)", "$(echo \\`date\\`)", "`echo $(ls)`", "`echo \\$(date)`",
    '"$(echo "`ls`")"', "$(ls # )\n)", "$(: ')'; ls)", "$(#\nls)", '$(echo "#")',
    "$(echo $'\\'')'", "$((`echo 1`+1))", "$(( $(echo 1) + 1 ))", "$((1?2:3))",
    "$((x[1]+1))", "$(<x)", "$(< /dev/null)", "!(a)", "+(a)", "*(a|b)", "?(x)",
    # arrays and arithmetic on a name the policy lets a line assign (`x=` asks)
    "LC_X[1]=x", "LC_X=(a b)", "LC_X+=(c)", "LC_X[$(echo 1)]=1", "${LC_X[@]}", "$LC_X",
    "${LC_X[1]}", "${!LC_X[@]}", "${LC_X@Q}", "CI=$(ls)", "$((LC_X+1))", "$((LC_X=2))",
    "$((LC_X[1]))", "LC_X=([1]=a [2]=$(ls))", "\v", "\f", "\r\n", "\\\r", "\\\v", "\\\f",
    "<<<$'a\\nb'", '<<<"$(ls)"', "<<<`ls`", "<<<$((1))", "#$(ls)", "a#$(ls)", "\\#$(ls)",
    "# ;ls", "-v", "-eq", "-lt", "'a[$(ls)]'", "{a..c}", "{1..2}x", "a{,\\ }b", "$@",
    "$*", "$#", "$?", "$-", "$!", "$_", "${@:2}", "${*// /}", "$'\\u263a'", "$'\\x'",
    "$'\\0'", "'\\'", "$'\\c?'", "$'\\1012'", "\"\\\n\"", "'\\\n'", "$'\\\n'",
)  # fmt: skip
_REDIRECTS = (
    ">/dev/null", "2>/dev/null", ">&2", "2>&1", ">&-", "2>&-", "<&-", "<& -", "<& -x",
    ">& -", "<&0", "0<&-", "<<<w", "<<<$x", "<>/dev/null", ">|/dev/null", "&>/dev/null",
    "&>>/dev/null", "3>&-", "{v}>&-", "{v}>/dev/null", "<<E\nx\nE\n", "<<-E\n\tx\n\tE\n",
    "<<'E'\n$(date)\nE\n", "< /dev/null", "> /dev/null", "2> /dev/null", ">\\ ", "<\\ ",
    ">x", "2>y", ">>z", "&>w", ">|v", "{v}>u", "> t", "1>s", "<>r",
    # here-documents: `<<-`, quoted delimiters, several on one line, bodies with `$( )`,
    # backquotes and continuations; here-strings; process substitutions as targets
    "<<-'E'\n\t$(ls)\n\tE\n", '<<"E"\n`ls`\nE\n', "<<E\n$(ls)\n`date`\nE\n",
    "<<\\E\n$(ls)\nE\n", "<<E <<F\na\nE\nb\nF\n", "<<E\na\\\nE\nE\n", "<<E\\\nF\nx\nEF\n",
    "<<E\n${x:-$(ls)}\nE\n", "<<E\n$((1+2))\nE\n", "<<E;ls\nx\nE\n", "<<E|ls\nx\nE\n",
    "<<E&&ls\nE\n", "<<$x\nx\n$x\n", '<<E""\n$(ls)\nE\n', "<<E\n\\$(ls)\nE\n",
    "<<E\n#$(ls)\nE\n", "<<-E\n\t\tE\n", "<<E\nE \nE\n", "<<E\n$(cat <<F\nx\nF\n)\nE\n",
    "<<E 2>y\nx\nE\n", "<<E\n\\\nE\n", "<<E\n'$(ls)'\nE\n", "<<E\n\"`ls`\"\nE\n",
    "<<<'a b'", "<<< $(ls)", '<<<"`ls`"', "< <(ls)", "> >(ls)", "2> >(ls)", "&>>x",
    ">x\\\ny", "{fd}<&0", "3<>y", "<<<a\\\nb", ">$'x'", ">\"y\"", ">'z'", ">${x:-w}",
)  # fmt: skip
# a compound command or prefix around one command, and what closes it
_AROUND = (
    ("", ""), ("", ""), ("", ""), ("", ""), ("time ", ""), ("! ", ""), ("coproc ", ""),
    ("time -p ", ""), ("exec 3>&- ; ", ""), ("(", ")"), ("{ ", "; }"),
    ("if true; then ", "; fi"), ("while (( i++ < 1 )); do ", "; done"),
    ("case a in a) ", ";; esac"), ("f() { ", "; }; f"), ("(( 1 )) && ", ""),
    ("[[ a ]] && ", ""), ("for i in a; do ", "; done"), ("coproc CDPATH { ", "; }"),
    ("(( HOME=5 )); ", ""), ("LC_ALL=(${CDPATH=x}); ", ""), (": <<E\n${CDPATH=y}\nE\n", ""),
    ("case a in a|b) ", ";;& esac"), ("select i in a; do ", "; break; done <<<1"),
    ("for ((j=0;j<1;j++)); do ", "; done"), ("until (( k++ > 0 )); do ", "; done"),
    ("bash -c '", "'"), ('bash -c "', '"'), ("bash -c '", "' x y"),
    # traps
    ("trap 'ls -t' EXIT; ", ""), ('trap "date" DEBUG; ', ""), ("trap 'date' ERR; ", ""),
    ("f() { trap 'ls r' RETURN; ", "; }; f"), ("trap -- 'ls' EXIT && ", ""),
    ("trap 'ls t' EXIT DEBUG; ", ""),
    # `case` patterns with substitutions, arithmetic, extglobs, fall-through
    ("case 3 in $((1+2))) ", ";; esac"), ("case a in $(echo a)) ", ";; esac"),
    ("case a in @(a|b)|!(c)) ", ";; esac"), ("case a in a) ", ";& b) ls;; esac"),
    ("case a in (a) ", ";; esac"), ('case "$x" in *) ', ";; esac"),
    ("case $'a\\n' in $'a\\n') ", ";; esac"), ("case a in \"$(echo a)\"|'b') ", ";; esac"),
    ("case a in a ) ", "\nesac"), ("case x in x|$(ls)) ", ";; esac"),
    ("case a in `echo a`) ", ";;& *) ls;; esac"),
    # `[[ ]]` with `=~`, `-v`, arithmetic comparisons (a quoted subscript runs `$( )`)
    ("[[ a =~ ^(a|b)$ ]] && ", ""), ("[[ -v x ]] || ", ""), ("[[ 1 -lt 2 && a == a ]] && ", ""),
    ("[[ $(echo a) == @(a|b) ]] && ", ""), ("[[ a =~ [[:alpha:]]+\\ ? ]] || ", ""),
    ("[[ 'a[$(ls)]' -eq 0 ]] || ", ""), ("[[ x -eq 0 ]] && ", ""), ("[[ ( a < b ) ]] && ", ""),
    ("[[ ! -v HOME ]] || ", ""), ("[[ a =~ $(echo a) ]] && ", ""), ("[[ -v x[1] ]] || ", ""),
    ("[[ a =~ (a)|b ]] && ", ""), ("[[ $x == @(a|$(ls)) ]] || ", ""),
    # `select`, `eval`, `let`, namerefs, `printf -v`, `read`, `getopts`, `mapfile`, arrays
    ("select i; do ", "; break; done"), ("select i in $(echo a); do ", "; break; done <<<1"),
    ("eval '", "'"), ('eval "', '"'), ("eval ", ""), ("eval -- ", ""), ("builtin eval '", "'"),
    ("eval 'for i in a b; do echo $i; done'; ", ""), ("let 'x=1+2' && ", ""),
    ("(( x = 1 + 2 )) && ", ""), ("(( x[1] )) || ", ""), ("let 'x=1' 'y=x+1'; ", ""),
    ("declare -n r=x; ", ""), ("f() { local -n r=HOME; ", "; }; f"),
    ("f() { local x=1; ", "; }; f"),
    ("declare -n r=HOME; echo $r; ", ""), ("printf -v x %s a; ", ""),
    ("builtin printf -v x %s a && ", ""), ("builtin printf -v HOME %s /tmp; ", ""),
    ("builtin read -r x <<<a; ", ""), ("builtin read -a x <<<'a b'; ", ""),
    ("while getopts a o -a; do ", "; break; done"), ("getopts 'a:' o -a x; ", ""),
    ("mapfile -t a <<<x; ", ""), ("readarray a < /dev/null; ", ""),
    ("mapfile -C 'ls' -c 1 a <<<x; ", ""), ("LC_X=(a b [3]=c $(echo d)); ", ""),
    ("LC_X[1]=a; ", ""), ("LC_X=(a 'b c' $(ls)); ", ""), ("LC_X+=(c); ", ""),
    ("LC_X=1; (( LC_X++ )); ", ""), ("for LC_X in a b; do ", "; done"),
    ("for LC_X; do ", "; done"), ("(( LC_X = 1 + 2 )) && ", ""), ("CI=$(echo 1); ", ""),
    ("LC_X=a; case $LC_X in a) ", ";; esac"), ("LC_X=(a); echo ${LC_X[@]@Q}; ", ""),
    ("LC_X='a b'; ", ""), ("DEBUG=1 ", ""), ("TZ=UTC ", ""),
    ("LC_X=(a\\\n b); ", ""), ("LC_X=( # c\n a ); ", ""),
    # `exec` with and without redirections, and wrappers around the command
    ("exec 2>/dev/null; ", ""), ("exec {fd}>/dev/null; ", ""), ("exec 3<<<x; ", ""),
    ("exec ", ""), ("command ", ""), ("builtin ", ""), ("env ", ""), ("nice ", ""),
    ("timeout 5 ", ""), ("xargs ", ""), ("time nice ", ""), ("command -- ", ""),
    # the command inside substitutions (backquotes unescape backslashes first)
    ("x=$(", ")"), ('x="$(', ')"'), ("x=`", "`"), ('echo "$(', ')"'), ("echo `", "`"),
    ('echo "`', '`"'), ("cat <(", ")"), ("echo $(( $(", ") ))"), ("echo ${x:-$(", ")}"),
    ("echo $(\n", "\n)"), ("echo $( ", " # c\n)"), ("echo $(echo `", "`)"),
    ('echo "$(echo "`', '`")"'), ('echo $"$(', ')"'),
    # here-documents before and around the command
    ("cat <<E; ", "\nx\nE\n:"), (": <<'E' && ", "\n$(ls)\nE\n:"),
    ("cat <<-E; ", "\n\t`ls`\n\tE\n:"),
    ("cat <<A <<B; ", "\na\nA\nb\nB\n:"), ("cat <<E\n$(\n", "\n)\nE\n:"),
    # newlines, comments and continuations as the glue of compound commands
    ("{ ", "\n}"), ("( ", "\n)"), ("if ", "; then :; fi"),
    ("if false; then :; elif ", "; then :; fi"),
    ("while ", "; do break; done"), ("until ", "; do break; done"), ("# c\n", ""),
    (": # c ; ls\n", ""), ("{ # c\n", "\n}"), ("\\\n", ""), ("{ \\\n", "; }"),
    ("time { ", "; }"), ("if\n", "\nthen :\nfi"),
)  # fmt: skip
_OPERATORS = (" ; ", ";", " && ", "&&", " || ", " | ", "|", " & ", "\n", "\r\n", " |& ")


def soup_lines(seed: int, count: int) -> list[str]:
    """`count` lines of one to three commands, each a name and up to four words,
    metacharacters or redirections, glued by blanks or not, some inside a compound
    command (a fixed `seed` gives the same lines)."""
    rng = random.Random(seed)
    return [_soup_line(rng) for _ in range(count)]


def _soup_piece(rng: random.Random) -> str:
    draw = rng.random()
    if draw < 0.55:
        return rng.choice(_WORDS)
    if draw < 0.8:
        return rng.choice(_REDIRECTS)
    return rng.choice(_WORDS) + rng.choice(_WORDS + _REDIRECTS)


def _soup_line(rng: random.Random) -> str:
    commands = []
    for _ in range(rng.randint(1, 3)):
        pieces = [rng.choice(_NAMES)]
        pieces.extend(_soup_piece(rng) for _ in range(rng.randint(0, 4)))
        glue = [rng.choice((" ", " ", " ", "", "\t")) for _ in pieces]
        opening, closing = rng.choice(_AROUND)
        text = "".join(p + g for p, g in zip(pieces, glue, strict=True)).rstrip(" ")
        commands.append(opening + text + closing)
    line = commands[0]
    for command in commands[1:]:
        line += rng.choice(_OPERATORS) + command
    return _glued(rng, line)


# bash removes `\⏎` before it reads anything but quotes and comments, and reads CR, VT and
# FF as word characters: one of them anywhere in a line (inside a word, a quote, a here
# document, a substitution) must be read as bash reads it; so must a `#` (a comment only
# where a word starts: `a=(b)#; rm` runs `rm`), a blank, `=` or `$` dropped anywhere
_GLUE = ("\\\n", "\\\n", "\\\n", "\r", "\t", "\v", "\f", "#", "\\\n#", " ", "=", "$")


def _glued(rng: random.Random, line: str) -> str:
    if rng.random() < 0.25:
        at = rng.randint(0, len(line))
        line = line[:at] + rng.choice(_GLUE) + line[at:]
    return line


# the characters `mutated_lines` puts into a line: the glue above, and every character
# that ends a word, opens or closes a quote, a group or a substitution, or escapes the
# next (a sweep of one of these at every position of allowed lines found differentials
# far faster than soup, of which only a few lines in a hundred are allowed)
_INSERTS: Final = (
    "\\\n", "\r", "\v", "\f", "\t", "#", " ", "=", "$", "\\", "'", '"', ";", "&", "|",
    "<", ">", "(", ")", "{", "}", "`",
)  # fmt: skip
# lines the default policy allows, each a construct whose edges tree-sitter and bash may
# read apart: here-documents, arrays, `[[ ]]`, `case`, substitutions, redirects
_MUTATION_BASES: Final = (
    "cat <<E\nx $(date)\nE\n", "cat <<'E' >/dev/null\na b\nE\nls", "cat <<-E\n\tx\n\tE\n",
    "cat <<E && ls\n$x\nE\n", "cat <<<'a b' && ls", "LC_X=(a 'b c' $(ls)); echo ${LC_X[@]}",
    "LC_X[1]=a; echo ${LC_X[1]}", "LC_X+=(c) && echo ${#LC_X[@]}", "[[ a == b ]] && echo x",
    "[[ -n $x && a =~ ^a ]] || ls", "[[ $(date) == @(a|b) ]] && pwd",
    "case a in a) echo x;; b|c) ls;; esac", "case $x in (*) pwd;; b) ls;; esac",
    "echo $(ls) `date` $((1+2))", 'echo "a $(pwd) `ls`" \'b\' $\'c\'', "echo ${x:-$(ls)} ${#x}",
    "cat <(ls) && ls >/dev/null 2>&1 </dev/null", "ls 2>/dev/null | wc -l; echo a\\ b",
    "{ ls; echo a; } >/dev/null", "(cd docs && ls) || pwd", "for i in a b; do echo $i; done",
    "if true; then ls; elif false; then pwd; else date; fi", "echo a | (cat; ls) && ! pwd",
    "echo $'a\\nb' a#b # c", "LC_X=$(ls) echo \"$LC_X\"", "while read -r l; do echo $l; done <<<a",
)  # fmt: skip


def mutated_lines(
    seed: int, count: int, evaluate: Callable[[str], Decision] | None = None
) -> list[str]:
    """`count` lines (fewer if there are fewer), each a base line with one of `_INSERTS`
    put in at one position or put in place of one character, drawn without repeats (a
    fixed `seed` gives the same lines). The bases are `_MUTATION_BASES` and, given
    `evaluate`, the soup lines it allows. Replacing matters where an insertion keeps what
    separated two words: `LC_ALL=C\\⏎echo rm` (the blank replaced) is one word for bash."""
    bases = list(_MUTATION_BASES)
    if evaluate is not None:
        soup = soup_lines(seed, 3000)
        bases.extend(line for line in soup if evaluate(line).verdict is Verdict.ALLOW)
    variants = list(dict.fromkeys(itertools.chain(_insertions(bases), _replacements(bases))))
    if count >= len(variants):
        return variants
    return random.Random(seed).sample(variants, count)


def _insertions(bases: Sequence[str]) -> Iterator[str]:
    for base in bases:
        for insert in _INSERTS:
            for at in range(len(base) + 1):
                yield base[:at] + insert + base[at:]


def _replacements(bases: Sequence[str]) -> Iterator[str]:
    for base in bases:
        for insert in _INSERTS:
            for at in range(len(base)):
                if base[at] != insert:
                    yield base[:at] + insert + base[at + 1 :]


_BATCH: Final = 5000  # lines per sandbox run of `differential`


def differential(
    evaluate: Callable[[str], Decision], lines: Sequence[str]
) -> list[tuple[str, list[tuple[str, ...]]]]:
    """The lines `evaluate` allows for which bash ran a command the model lacks, or made
    a file no redirect of the model names, with those commands and files (a file as
    `(">", name)`; lines whose run did not finish are left out)."""
    allowed = [line for line in lines if evaluate(line).verdict is Verdict.ALLOW]
    found: list[tuple[str, list[tuple[str, ...]]]] = []
    # in batches: one sandbox run per batch, each with its own time limit (a sweep of
    # 60,000 allowed lines in one run outlasted the limit on a busy machine, losing all)
    runs = itertools.chain.from_iterable(
        executed(allowed[start : start + _BATCH]) for start in range(0, len(allowed), _BATCH)
    )
    for line, run in zip(allowed, runs, strict=True):
        if run is None:
            continue
        missing = uncovered(line, run.argvs)
        missing.extend((">", name) for name in unexpected_files(line, run.files))
        if missing:
            found.append((line, missing))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """`fuzz/argv_differential.py`: soup lines a policy allows, against bash (exit 1 when
    bash ran a command the model lacks, 2 when the sandbox is unusable)."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("policy", nargs="?", help="policy file (default: the shipped one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", type=int, default=5000, help="lines to generate")
    parser.add_argument("--show", type=int, default=20, help="findings to print")
    parser.add_argument(
        "--mutate",
        action="store_true",
        help="one character put into lines the policy allows (`mutated_lines`), not soup",
    )
    args = parser.parse_args(argv)
    from policylang.engine.policy import load_policy  # (the engine only for the CLI)

    policy = load_policy(args.policy)
    environment = {"HOME": "/nonexistent/home", "PATH": "/usr/bin:/bin"}

    def evaluate(line: str) -> Decision:
        return policy.evaluate(line, workspace="/nonexistent/workspace", env=environment)

    if args.mutate:
        lines = mutated_lines(args.seed, args.lines, evaluate)
    else:
        lines = soup_lines(args.seed, args.lines)
    try:
        found = differential(evaluate, lines)
    except SandboxUnavailableError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    kind = "mutated lines" if args.mutate else "lines"
    print(f"{len(lines)} {kind} (seed {args.seed}): {len(found)} allowed with a command or "
          "file the model lacks")  # fmt: skip
    for line, missing in found[: args.show]:
        what = "made" if missing[0][0] == ">" else "ran"
        print(f"  {line!r}: bash {what} {missing[0]!r}")
    return 1 if found else 0
