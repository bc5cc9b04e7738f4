"""Engine stage: segments that change what later words mean; imports `shell.model` only.

After `PATH=/tmp/x; ls`, `alias ls='rm -rf ~'`, `ls() { …; }`, `hash -p /tmp/x ls` or
`export LD_PRELOAD=…`, a later `ls` in the same line is not the `ls` the rules know. The
engine raises every later segment to at least ask and says which segment poisoned it.

Prefix assignments (`PATH=/x cmd`) only affect their own command; the policy's env rules
judge those. Bare assignments and declaration builtins (`export`, `declare`, `typeset`,
`local`, `readonly`) persist, and so poison what follows.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from policylang.shell.model import Expansion, Segment, SegmentKind, Word

# Variables that change how later commands are found, loaded, expanded or resolved.
POISON_NAMES: tuple[str, ...] = (
    "PATH",
    "LD_*",
    "DYLD_*",
    "BASH_ENV",
    "ENV",
    "IFS",
    "CDPATH",
    "HOME",
    "OLDPWD",
    "PWD",
    "PROMPT_COMMAND",
    "PS4",
    "SHELLOPTS",
    "BASHOPTS",
    "GLOBIGNORE",
    "BASH_FUNC_*",
    "BASH_LOADABLES_PATH",
    # bash evaluates every value stored in these as arithmetic, wherever it comes from
    # (`for OPTIND in 'a[$(cmd)]'`, `read RANDOM < notes.txt`): a subscript runs commands
    # and `PATH=11` assigns (review BZ4)
    "OPTIND",
    "RANDOM",
    "SRANDOM",
    "SECONDS",
    "HISTCMD",
    "EXECIGNORE",
    # bash acts on these when they are assigned, or its builtins read the files they name:
    # assigning HISTFILESIZE truncates the file HISTFILE names, `history -r|-w|-a` read
    # and write it, `bind` reads INPUTRC, `compgen -A hostname` HOSTFILE, and xtrace writes
    # to the descriptor BASH_XTRACEFD names (review FI4-FI7)
    "HISTFILE",
    "HISTFILESIZE",
    "HISTSIZE",
    "INPUTRC",
    "HOSTFILE",
    "BASH_XTRACEFD",
    "TMPDIR",
    # bash's command hash table and alias table: `BASH_CMDS[ls]=/bin/rm` makes `ls` run rm
    "BASH_CMDS",
    "BASH_ALIASES",
    # a translated `$"…"` is expanded again (message catalogs from TEXTDOMAINDIR);
    # POSIXLY_CORRECT turns on posix mode and BASH_COMPAT older parsing rules
    "TEXTDOMAIN",
    "TEXTDOMAINDIR",
    "POSIXLY_CORRECT",
    "BASH_COMPAT",
    "GIT_*",
    "PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "LESSOPEN",
    "LESSCLOSE",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "RUBYOPT",
    "RUBYLIB",
)

# the variables that choose how bash and the programs it runs read a byte string as
# characters (review CG1): under GBK, GB18030, Big5 or Shift_JIS the last byte of a UTF-8
# character and a `\` or a backquote after it are one character to bash, which then reads
# the rest of the line otherwise than the analyser (`echo "中\"; cat .env; #"`)
LOCALE_NAMES = frozenset({"LC_ALL", "LC_CTYPE", "LANG"})
# charsets (lower case, without `-` and `_`) whose multibyte characters may end in an
# ASCII byte; and locales whose default charset is one of them
_ASCII_TRAILING_CHARSETS = frozenset(
    {"gbk", "gb18030", "big5", "big5hkscs", "sjis", "shiftjis", "cp932", "cp936", "cp949",
     "cp950", "johab", "uhc", "windows31j", "mskanji", "ms932", "ms936", "ms949", "ms950",
     "cp1361"}
)  # fmt: skip
_ASCII_TRAILING_LOCALES = frozenset({"zh_TW", "zh_HK"})


def locale_charset_risk(value: str | None, *, strict: bool) -> bool:
    """Whether the locale `value` may make bash read bytes otherwise than as UTF-8.

    `strict` (a value the line assigns): only `C`, `POSIX`, the empty value and UTF-8
    locales are known to be safe, `None` (not literal) is not. Otherwise (the locale of
    the environment the caller gives): only the charsets known to end characters in an
    ASCII byte, named or by a locale's default, are a risk."""
    if value is None:
        return True
    name, _dot, charset = value.partition("@")[0].partition(".")
    folded = charset.lower().replace("-", "").replace("_", "")
    if strict:
        return value not in ("", "C", "POSIX") and folded != "utf8"
    if charset:
        return folded in _ASCII_TRAILING_CHARSETS
    return name in _ASCII_TRAILING_LOCALES


def environment_locale(env: Mapping[str, str]) -> str | None:
    """A locale of `env` whose charset may end characters in an ASCII byte, or None.

    Any of `LC_ALL`, `LC_CTYPE` and `LANG` counts, not only the one that decides now:
    the line may empty or unset the others (`LC_ALL=`, `env -u LC_ALL bash -c …`), and
    the next one takes over (review CH5)."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value and locale_charset_risk(value, strict=False):
            return value
    return None


DECLARATION_BUILTINS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Commands whose mere presence changes the meaning of what follows.
_POISONING_COMMANDS = {
    "alias": "an alias can redefine any later command",
    "enable": "`enable` can load or swap builtins",
    "trap": "a trap runs code before or after later commands",
    "source": "a sourced file can define functions, aliases and variables",
    ".": "a sourced file can define functions, aliases and variables",
    "eval": "`eval` can define functions, aliases and variables",
    "shopt": "`shopt` changes how later words expand",
    "set": "`set` can change how later words expand",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Poison:
    """Why segments after `segment_text` are not what they seem."""

    reason: str
    segment_text: str


_POISON = re.compile("|".join(fnmatch.translate(pattern) for pattern in POISON_NAMES))


def is_poison_name(name: str) -> bool:
    return _POISON.match(name) is not None


def lasting_change(segment: Segment) -> str | None:
    """Why `segment` changes the shell for every command after it, calls to come
    included: `set -k` (or any `set` that changes how words are read) and a `trap` with an
    action. Poison covers the rest of the line; a runtime that keeps one shell between
    tool calls (a persistent terminal) would carry the change into the next call, which
    is judged on its own (review BD, "not covered"). None for harmless forms (`set -e`,
    `set -o pipefail`, `trap -p`, `trap - INT`, `trap '' HUP`)."""
    if segment.kind is not SegmentKind.SIMPLE:
        return None
    words = run_words(segment.words)
    name = words[0].value if words else None
    if name == "set":
        found = _lasting_set_option(words)
        if found is not None:
            return f"`set {found}` changes how the shell reads the commands after it"
        return None
    if name == "trap":
        operands = [w for w in words[1:] if w.value not in ("--",)]
        if not operands or (operands[0].value or "").startswith("-"):
            return None  # lists, prints or resets traps
        if operands[0].value == "":
            return None  # ignores the signals: no code runs
        return "`trap` sets code that runs around or after the commands that follow"
    return None


# `set` options whose effect on later commands the engine does not follow: `NAME=VALUE`
# arguments become the environment (`-k`), every variable set is exported (`-a`), `!`
# expands history (`-H`); `-e`, `-u`, `-x`, `-o pipefail`, `-C` and the like do not matter
_LASTING_SET_LETTERS: Final = frozenset("kaH")
_LASTING_SET_NAMES: Final = frozenset({"keyword", "allexport", "histexpand", "posix"})


def _lasting_set_option(words: Sequence[Word]) -> str | None:
    """The first `set` option of `words` (`set` first) that changes how later commands
    are read, or None; a word that is not literal counts. Operands (`set -- a b`,
    `set x y`) only set the positional parameters.

    >>> from policylang.shell import parse_command
    >>> def first(text):
    ...     return _lasting_set_option(parse_command(text).segments[0].words)
    >>> first("set -euo pipefail"), first("set -o errexit -o noclobber"), first("set -ek")
    (None, None, '-ek')
    >>> first("set -o keyword"), first("set +a"), first("set x -k")
    ('-o keyword', None, None)
    """
    index = 1
    while index < len(words):
        value = words[index].value
        if value is None:
            return words[index].text
        if value == "--" or value == "-" or value[:1] not in ("-", "+"):
            return None  # the rest are positional parameters
        letters = value[1:]
        if value[0] == "-" and _LASTING_SET_LETTERS & set(letters):
            return value
        if "o" in letters and index + 1 < len(words):
            index += 1
            option = words[index].value
            if option is None or (value[0] == "-" and option in _LASTING_SET_NAMES):
                return f"{value} {words[index].text}"
        index += 1
    return None


def poison_of(segment: Segment) -> Poison | None:
    """The poisoning effect of `segment` on later segments, if any."""
    reason = _reason(segment)
    if reason is None:
        return None
    return Poison(reason=reason, segment_text=segment.text)


def _hash_path_option(value: str | None) -> bool:
    """`hash -p PATH`, spelt any way bash takes it (`-rp/bin/echo`: review BC12)."""
    return value is None or (value.startswith("-") and "p" in value[1:] and value != "--")


def _reason(segment: Segment) -> str | None:
    assigned_here = _expansion_assignment(segment)
    if assigned_here is not None:
        return assigned_here
    if segment.kind is SegmentKind.FUNCTION_DEF:
        return f"function `{segment.name or '?'}` is defined earlier and can shadow any command"
    if segment.kind is SegmentKind.ASSIGNMENT_ONLY:
        return _assignment_reason(segment)
    if segment.kind is SegmentKind.LOOP_HEADER and segment.name:
        if is_poison_name(base_name(segment.name)):
            return f"`{segment.name}` is changed earlier in the line (the loop's variable)"
        return None
    if segment.kind is not SegmentKind.SIMPLE or not segment.words:
        return None
    assigned = assigned_by_builtin(segment)
    if assigned is not None:
        for name in assigned.names:
            if name is None:
                return f"`{assigned.command}` sets a variable whose name is not a literal word"
            base = base_name(name)
            if is_poison_name(base):
                return f"`{base}` is changed earlier in the line (by `{assigned.command}`)"
    words = run_words(segment.words)
    first = words[0].value if words else None
    if first is None:
        return None
    name = first
    if name in DECLARATION_BUILTINS:
        return _declaration_reason(segment, words)
    if name == "hash" and any(_hash_path_option(w.value) for w in words[1:]):
        return "`hash -p` can point a later command name at any program"
    if name == "set" and not _set_changes_expansion(words):
        return None
    if name == "shopt" and not _shopt_sets(words):
        return None
    return _POISONING_COMMANDS.get(name)


# prefixes that run the builtin after them in this shell: `builtin set -k`, `command -p
# export X=…`, `time set -k` change later segments as the bare builtin does (review BF1)
_BUILTIN_PREFIXES = frozenset({"builtin", "command", "time"})


def run_words(words: Sequence[Word]) -> Sequence[Word]:
    """The words of the builtin a segment runs, past `builtin`, `command [-p] [--]` and
    `time [-p] [--]`; () for `command -v NAME` (a lookup, nothing runs).

    >>> from policylang.shell import parse_command
    >>> [w.value for w in run_words(parse_command("command -p -- set -k").segments[0].words)]
    ['set', '-k']
    """
    index = 0
    while index < len(words) and words[index].value in _BUILTIN_PREFIXES:
        prefix = words[index].value
        index += 1
        while index < len(words) and _PREFIX_OPTION.fullmatch(words[index].value or ""):
            # bash reads these with getopt: `-pp`, `-p -p` are `-p` (review BG1)
            if prefix == "command" and any(c in "vV" for c in words[index].value or ""):
                return ()
            index += 1
    return words[index:]


_PREFIX_OPTION: Final = re.compile(r"--|-[pvV]+")


# `${NAME:=word}` and `${NAME=word}` assign NAME when it is unset (or empty)
_ASSIGNING_EXPANSION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?:?=")


def expansion_assignments(segment: Segment) -> list[tuple[str, str]]:
    """The variables `segment`'s expansions assign, with the operator: `${NAME:=word}`
    and `${NAME=word}` (also `${NAME[i]:=word}`) assign NAME when it is unset (or empty).

    >>> from policylang.shell import parse_command
    >>> expansion_assignments(parse_command("echo ${x:=1} ${y[2]=2} ${z:-3}").segments[0])
    [('x', ':='), ('y', '=')]
    """
    found: list[tuple[str, str]] = []
    for text in _expanded_texts(segment):
        if "=" not in text:
            continue  # the hot path: most expansions assign nothing
        # bash removes `\⏎` before it reads the name: `${\⏎CDPATH=x}` assigns CDPATH
        for match in _ASSIGNING_EXPANSION.finditer(text.replace("\\\n", "")):
            operator = ":=" if match.group().endswith(":=") else "="
            found.append((match.group(1), operator))
    return list(dict.fromkeys(found))


def _expanded_texts(segment: Segment) -> Iterator[str]:
    """The text of each expansion of the segment, and of each unquoted here-document
    body whole: tree-sitter records no expansion in a body whose first line starts with
    a blank (`: <<E⏎ ${CDPATH=y}⏎E` assigns CDPATH: found by the argv oracle)."""
    for expansion in _expansions(segment):
        yield expansion.text
    for redirect in segment.redirects:
        heredoc = redirect.heredoc
        if heredoc is not None and not heredoc.quoted:
            yield heredoc.body


def _expansions(segment: Segment) -> Iterator[Expansion]:
    """The expansions of the segment's words, redirect targets, here-document bodies and
    assignments (values, array elements, subscripts): bash expands them in this shell
    (review BY3: `: <<E⏎${CDPATH=$HOME}⏎E`; BY4: `LC_ALL=(${CDPATH=$HOME})`)."""
    for word in _expanding_words(segment):
        yield from word.expansions
    for redirect in segment.redirects:
        if redirect.heredoc is not None:
            yield from redirect.heredoc.expansions


def _expanding_words(segment: Segment) -> Iterator[Word]:
    """The segment's words, redirect targets and assignment values, elements and
    subscripts that expand."""
    for word in segment.words:
        if word.expansions:
            yield word
    for redirect in segment.redirects:
        if redirect.target is not None and redirect.target.expansions:
            yield redirect.target
    for assignment in (*segment.assignments, *segment.declared):
        parts = (assignment.value, assignment.subscript, *(assignment.array or ()))
        yield from (part for part in parts if part is not None and part.expansions)


def _expansion_assignment(segment: Segment) -> str | None:
    """`: ${CDPATH:=~}`, `echo ${PATH=/x}`: an expansion that assigns a poisoning name.

    >>> from policylang.shell import parse_command
    >>> _expansion_assignment(parse_command(": ${CDPATH:=/x}").segments[0])
    '`CDPATH` is changed earlier in the line (by `${CDPATH:=…}`)'
    >>> _expansion_assignment(parse_command("echo ${x:=1} ${PATH:-/x}").segments[0]) is None
    True
    """
    for name, operator in expansion_assignments(segment):
        if is_poison_name(name):
            return f"`{name}` is changed earlier in the line (by `${{{name}{operator}…}}`)"
    return None


def _assignment_reason(segment: Segment) -> str | None:
    for assignment in segment.assignments:
        if is_poison_name(assignment.name):
            return f"`{assignment.name}` is changed earlier in the line"
    return None


def _declaration_reason(segment: Segment, words: Sequence[Word]) -> str | None:
    for assignment in segment.assignments + segment.declared:
        if is_poison_name(assignment.name):
            return f"`{assignment.name}` is changed earlier in the line"
    for word in words[1:]:
        if word.value is None:
            return "a declaration with a word that is not literal may change any variable"
        if word.value in ("-f", "-F") or (word.value.startswith("-") and "f" in word.value):
            return "exported or declared functions can shadow any command"
        name = word.value.split("=", 1)[0].rstrip("+")
        if "=" in word.value and is_poison_name(name):
            return f"`{name}` is changed earlier in the line"
    return None


def _set_changes_expansion(words: Sequence[Word]) -> bool:
    # `set -e`, `set -u`, `set -x`, `set -o pipefail` are harmless; `set +f` (globbing on),
    # `set -o posix`, `set -k` (assignments anywhere) and non-literal words are not.
    harmless = {"-e", "-u", "-x", "-v", "+e", "+u", "+x", "+v", "-o", "+o", "pipefail", "-eu"}
    harmless |= {"-ex", "-eux", "-euo", "-eo", "errexit", "nounset", "xtrace", "-ux", "-xe"}
    return any(w.value is None or w.value not in harmless for w in words[1:])


def _shopt_sets(words: Sequence[Word]) -> bool:
    """Whether `shopt` may change an option: a word not known, or an option bundle with
    `s`, `u` or `o` in it (`-uo braceexpand` turns brace expansion off, `-so keyword`
    turns `set -k` on: review EP4; only a lone `-s` had counted)."""
    return any(
        w.value is None
        or (w.value.startswith("-") and any(letter in w.value[1:] for letter in "suo"))
        for w in words[1:]
    )


# -- builtins that assign variables ----------------------------------------------------------
# `read PATH`, `printf -v HOME …`, `mapfile NAME`, `getopts … NAME`, `unset NAME`,
# `export -n NAME`, `declare NAME`: each changes a shell variable exactly as `NAME=value`
# does, so the env rules and the poisoning above apply to the names they are given.


@dataclass(frozen=True, slots=True, kw_only=True)
class Assigned:
    """The variables a builtin assigns (None: an operand that is not a literal word)."""

    command: str
    names: tuple[str | None, ...]
    # the values come from input or a format string (`read`, `mapfile`, `printf -v`,
    # `getopts`), not from the line's text
    data: bool


# per builtin: options that take a value, and the one whose value names a variable
_READ_VALUE_OPTIONS = "adinNptu"
_MAPFILE_VALUE_OPTIONS = "dnOsuCc"
DATA_BUILTINS = frozenset({"read", "printf", "mapfile", "readarray", "getopts"})


def assigned_by_builtin(segment: Segment) -> Assigned | None:
    """The variables `segment`'s builtin assigns by name, if it is such a builtin.

    Seen through `command`/`builtin`; for `declare`/`export`/… only the operands without
    `=` (the `NAME=VALUE` ones are `segment.declared`, judged like assignments).

    >>> from policylang.shell.parse import parse_command
    >>> def names(line):
    ...     found = assigned_by_builtin(parse_command(line).segments[0])
    ...     return None if found is None else found.names
    >>> names("read -r -p 'say: ' x PATH"), names("printf -vHOME %s x"), names("read")
    (('x', 'PATH'), ('HOME',), ('REPLY',))
    >>> names("mapfile -t -u 3 lines"), names("getopts ab opt"), names("export -n PATH")
    (('lines',), ('opt', 'OPTARG', 'OPTIND'), ('PATH',))
    >>> names("wait -n -p BASH_CMDS"), names("wait %1")
    (('BASH_CMDS',), ())
    >>> names("unset -f ls"), names("declare -p PATH"), names("export PATH"), names("ls")
    ((), (), (), None)
    >>> names("local PATH"), names("declare -x A B=1"), names("unset -v IFS")
    (('PATH',), ('A',), ('IFS',))
    """
    words = segment.command_words
    if not words or words[0].value is None:
        return None
    command = words[0].value
    args = words[1:]
    names: list[str | None]
    if command == "read":
        given, operands, _ = _options(args, _READ_VALUE_OPTIONS, "a")
        names = [*given, *(w.value for w in operands)]
        if not names:
            names = ["REPLY"]
        return Assigned(command=command, names=tuple(names), data=True)
    if command == "printf":
        given, _, _ = _options(args, "v", "v")
        return Assigned(command=command, names=tuple(given), data=True)
    if command in ("mapfile", "readarray"):
        _, operands, _ = _options(args, _MAPFILE_VALUE_OPTIONS, "")
        names = [w.value for w in operands[:1]] or ["MAPFILE"]
        return Assigned(command=command, names=tuple(names), data=True)
    if command == "wait":
        # `wait -p NAME` stores the id of the job that ended
        given, _, _ = _options(args, "p", "p")
        return Assigned(command=command, names=tuple(given), data=True)
    if command == "getopts":
        _, operands, _ = _options(args, "", "")
        names = [w.value for w in operands[1:2]]
        return Assigned(command=command, names=(*names, "OPTARG", "OPTIND"), data=True)
    if command == "unset":
        _, operands, flags = _options(args, "", "")
        if "f" in flags:
            return Assigned(command=command, names=(), data=False)
        return Assigned(command=command, names=tuple(w.value for w in operands), data=False)
    if command in DECLARATION_BUILTINS:
        _, operands, flags = _options(args, "", "", plus=True)
        if flags & {"p", "f", "F"} or (command in ("export", "readonly") and "n" not in flags):
            # printing or functions; `export NAME`/`readonly NAME` keep the value as it is
            return Assigned(command=command, names=(), data=False)
        names = [w.value for w in operands if w.value is None or "=" not in w.value]
        return Assigned(command=command, names=tuple(names), data=False)
    return None


def exported_names(segment: Segment) -> tuple[str | None, ...]:
    """Names `export NAME` or `declare -x NAME` (no `=`) puts in the environment of later
    commands with whatever value they have, which the line may have set unseen
    (`read TAR_OPTIONS …; export TAR_OPTIONS; tar …`).

    >>> from policylang.shell.parse import parse_command
    >>> def names(line):
    ...     return exported_names(parse_command(line).segments[0])
    >>> names("export A B=1"), names("declare -x C"), names("export -n D"), names("ls")
    (('A',), ('C',), (), ())
    """
    words = segment.command_words
    if not words or words[0].value not in DECLARATION_BUILTINS:
        return ()
    command = words[0].value
    _, operands, flags = _options(words[1:], "", "", plus=True)
    exporting = (command == "export" and "n" not in flags) or (
        command != "export" and "x" in flags
    )
    if not exporting or flags & {"p", "f", "F"}:
        return ()
    return tuple(w.value for w in operands if w.value is None or "=" not in w.value)


def base_name(name: str) -> str:
    """`NAME` of `NAME`, `NAME[SUBSCRIPT]` or `NAME+`."""
    return name.partition("[")[0].rstrip("+")


def _options(
    args: Sequence[Word],
    with_value: str,
    naming: str,
    *,
    plus: bool = False,
) -> tuple[list[str | None], list[Word], set[str]]:
    """Bash's option parsing for a builtin: (values of the `naming` options, the operand
    words, the flags seen). A word that is not literal before the operands may be an
    option naming a variable: it yields a None name."""
    names: list[str | None] = []
    flags: set[str] = set()
    index = 0
    while index < len(args):
        value = args[index].value
        if value is None:
            names.append(None)
            return names, list(args[index + 1 :]), flags
        if value == "--":
            index += 1
            break
        if len(value) < 2 or value[0] not in ("-+" if plus else "-"):
            break
        for position, letter in enumerate(value[1:], 1):
            if letter in with_value:
                given: str | None = value[position + 1 :]
                if not given:
                    index += 1
                    given = args[index].value if index < len(args) else ""
                if letter in naming:
                    names.append(given)
                break
            flags.add(letter)
        index += 1
    return names, list(args[index:]), flags


# env's options that take a value: `-u NAME`, `-C DIR`, `-S STRING` (`-ui` unsets `i`)
_ENV_VALUE_LETTERS = frozenset("uCS")
_ENV_VALUE_LONG = ("--unset", "--chdir", "--split-string")


def _empties_environment(args: Sequence[str | None]) -> bool:
    """Whether env's options start from an empty environment (`-i`, `-`,
    `--ignore-environment`, `-0i`), read as env reads them: `-ui` and `-u -i` unset the
    variable `i` (review AA3). A word that cannot be read counts as not emptying."""
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word is None or word == "--" or not word.startswith("-"):
            return False  # an assignment or a word not known: options end (strict side)
        if word in ("-", "--ignore-environment"):
            return True
        if word.startswith("--"):
            if word in _ENV_VALUE_LONG:
                index += 1
            continue
        for position, letter in enumerate(word[1:], start=1):
            if letter == "i":
                return True
            if letter in _ENV_VALUE_LETTERS:
                if position == len(word) - 1:
                    index += 1  # the value is the next word
                break
    return False


# `declare -f|-F` prints functions, not variables
_FUNCTION_LETTERS = frozenset("fF")


def printed_variables(values: Sequence[str | None]) -> tuple[str | None, ...] | None:
    """The variables a command prints with their values: None when it prints none, `()`
    when it prints them all (`env`, `printenv`, bare `set`, `export -p`, `declare -p`),
    else the names it prints (`printenv HOME`, `declare -p X`; None for a word that cannot
    be read).

    `values` are the command's words, wrappers removed: an `env` that runs a command is
    seen as that command, so an `env` here prints (`env`, `env -0`, `env X=1`).
    """
    if not values or values[0] is None:
        return None
    # (`genv`, `gprintenv`: GNU's under Homebrew's names, review CD3)
    name = values[0].rpartition("/")[2]
    name = name[1:] if name in ("genv", "gprintenv") else name
    args = values[1:]
    if name == "env":
        # `env -i` starts from an empty environment: it prints only what it is given
        return None if _empties_environment(args) else ()
    if name == "printenv":
        names = [a for a in args if a is None or not a.startswith("-")]
        return tuple(names)
    if name == "set":
        return () if not args else None
    if name in DECLARATION_BUILTINS:
        letters: set[str] = set()
        operands: list[str | None] = []
        for arg in args:
            if arg is not None and arg[:1] in ("-", "+") and len(arg) > 1:
                letters.update(arg[1:])
            else:
                operands.append(arg)
        if letters & _FUNCTION_LETTERS:
            return None  # `declare -f`: function bodies and names, not variables
        if not operands:
            return ()  # `export`, `export -p`, `declare`, `declare -x`, `readonly`
        if "p" not in letters:
            return None  # `export X=1`, `declare X`: sets, prints nothing
        return tuple(o for o in operands if o is None or "=" not in o)
    return None
