"""Wrappers seen through, as data: pure Python over `shell.model` and `shell.options`.

`sudo -u root env FOO=1 timeout 5 nice rm x` runs `rm x`. `unwrap` walks a table of
wrapper specs (which options each wrapper takes, how many positionals precede the inner
command) to find the inner command while keeping the chain, so a rule can still see `sudo`.
Shells (`bash -c STRING`) and `eval`/`watch` turn a string back into a command line: a literal
string is parsed by the `parse` callback `shell.parse` passes in (this module may not import
`shell.parse`); a non-literal one makes the command opaque.

>>> from policylang.shell.parse import parse_command
>>> seg = parse_command("sudo -u root env FOO=1 timeout 5 nice rm x").segments[0]
>>> [use.name for use in seg.wrapped.chain], [w.value for w in seg.wrapped.words]
(['sudo', 'env', 'timeout', 'nice'], ['rm', 'x'])
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from policylang.shell.model import Assignment, CommandLine, Problem, Unwrapped, Word, WrapperUse
from policylang.shell.options import Option, OptionSpec, OptionView, option_view
from policylang.span import Span

__all__ = [
    "DEFAULT_WRAPPERS",
    "DIALECT_CODE",
    "EFFECT_CODE",
    "MACHINES",
    "OPTIONAL_WRAPPERS",
    "RUNNER_WRAPPERS",
    "VERB_RUNNERS",
    "Dialect",
    "MachineRunner",
    "OptionEffect",
    "ParseCallback",
    "Unwrapped",
    "WrapperKind",
    "WrapperSpec",
    "WrapperTable",
    "WrapperUse",
    "machine_commands",
    "program_word",
    "unwrap",
    "verb_runner",
    "written_code",
]

#: Parses a shell string found inside a command: (text, anchor span, context) -> line.
ParseCallback = Callable[[str, Span, str], CommandLine]

MAX_CHAIN = 16  # `nice nice nice …` deeper than this is opaque rather than walked forever


_NO_OPTIONS: Final = OptionSpec(stop_at_operand=True)


class Dialect(enum.StrEnum):
    """Whose rules a shell reads its code by; the analyser parses bash only."""

    BASH = "bash"  # bash itself (`eval`, `trap` run in the calling bash)
    # dash, ash, busybox sh: POSIX sh, read by bash's rules only where both agree
    POSIX = "posix"
    FOREIGN = "foreign"  # zsh, ksh, mksh, fish …: too different to read by bash's rules


class WrapperKind(enum.StrEnum):
    WRAPPER = "wrapper"  # runs its operands as a command (sudo, env, timeout …)
    SHELL = "shell"  # bash/sh …: `-c STRING`, a script file, or standard input
    EVAL = "eval"  # joins its operands with spaces and runs them as shell code (eval, watch)


#: The problem code of a wrapper option (or operand) with an effect of its own.
EFFECT_CODE: Final = "shell.wrapper-effect"
#: The problem code of code for another shell (`sh -c`, `zsh -c`) that bash reads otherwise.
DIALECT_CODE: Final = "shell.dialect"


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionEffect:
    """A wrapper option that does something besides running the inner command.

    `time -o FILE` writes FILE, `xargs -a FILE` reads FILE, `env -C DIR` moves the inner
    command's relative paths, `bash -o keyword` turns `NAME=VALUE` arguments into the
    environment. Seeing through such a wrapper as if the option were not there would miss
    what it does, so `unwrap` reports a problem (code `EFFECT_CODE`) the engine asks about,
    while the inner command is still judged on its own (a deny for it holds).

    Attributes:
        options: the option's spellings (`-o --output`).
        effect: what it does, for the message (`writes its report to a file …`).
        values: only these values have the effect (`-o keyword`); empty: any value. A value
            that is not literal may be any of them.
        harmless: when `values` is empty, values that do not have the effect
            (`-O nullglob`); any other value does.
    """

    options: frozenset[str]
    effect: str
    values: frozenset[str] = frozenset()
    harmless: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class WrapperSpec:
    """How to find the inner command of one wrapper.

    Attributes:
        name: the command name (matched on the basename: `/usr/bin/sudo` is `sudo`).
        options: the wrapper's own options; an option it does not list makes the use opaque.
        positionals: operands before the inner command (`timeout DURATION` = 1).
        assignments: whether `NAME=VALUE` operands set the environment (`env`).
        kind: wrapper, shell or eval.
        string_options: options whose value is shell code (`flock -c CMD`, `su -c CMD`).
        query_options: options meaning there is no inner command (`command -v`, `sudo -l`);
            the word list is then a plain command, not a wrapper use.
        opaque_options: options that hide the inner command (`env -S STRING`).
        default_command: the command run when none is given (`xargs` runs `echo`).
        command_optional: no inner command is fine (`exec` with only redirections).
        code_operands: for the eval kind, how many operands are code (0: all of them,
            joined with spaces as `eval` does; 1 for `trap CODE SIGNAL…`).
        effects: options with an effect of their own (`time -o FILE` writes FILE): the
            inner command is still seen, and a problem says what the option does.
        positional_effect: what the positionals do besides (`flock FILE` creates FILE,
            `chroot DIR` runs DIR's programs); "" when nothing.
        descriptor_positional: a positional that is a number is a file descriptor and
            has no `positional_effect` (`flock 9`).
        options_after_positionals: its options are read after the positionals as well,
            up to the inner command (`setarch ARCH -R CMD`).
        dialect: the language of the code it runs (shell and eval kinds, string options):
            POSIX code is parsed but asks where bash would read it differently; FOREIGN
            code is opaque.
        program: the one program it runs, with every word after its name as that
            program's (`docker.lima ARGS` runs `docker ARGS` in lima's machine): the
            inner command is that program's name and those words; "" for none.
    """

    name: str
    options: OptionSpec = _NO_OPTIONS
    positionals: int = 0
    assignments: bool = False
    kind: WrapperKind = WrapperKind.WRAPPER
    string_options: frozenset[str] = frozenset()
    query_options: frozenset[str] = frozenset()
    opaque_options: frozenset[str] = frozenset()
    default_command: str | None = None
    command_optional: bool = False
    code_operands: int = 0  # eval kind: how many operands are code (0: all; `trap CODE SIG…`: 1)
    # eval kind: options under which its operands are a command run as they are, not code
    # joined with spaces (`watch -x bash -c 'cat .env'` runs that `bash -c`: review AZ2)
    argv_options: frozenset[str] = frozenset()
    effects: tuple[OptionEffect, ...] = ()
    positional_effect: str = ""
    descriptor_positional: bool = False
    dialect: Dialect = Dialect.BASH
    # its options may follow the positionals too (`setarch x86_64 -R CMD`)
    options_after_positionals: bool = False
    program: str = ""  # (`docker.lima ARGS` runs `docker ARGS`: review BH-VM)


class WrapperTable:
    """An immutable table of wrapper specs by name; `extend` returns a new table."""

    __slots__ = ("_specs",)

    def __init__(self, specs: Iterable[WrapperSpec] = ()) -> None:
        self._specs: Mapping[str, WrapperSpec] = MappingProxyType({s.name: s for s in specs})

    def extend(self, specs: Iterable[WrapperSpec]) -> WrapperTable:
        """A new table with `specs` added (a spec replaces one of the same name)."""
        return WrapperTable([*self._specs.values(), *specs])

    def get(self, name: str) -> WrapperSpec | None:
        return self._specs.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[WrapperSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def __eq__(self, other: object) -> bool:
        # by value, like the frozen dataclasses of a compiled policy it sits in
        return isinstance(other, WrapperTable) and dict(self._specs) == dict(other._specs)

    def __hash__(self) -> int:
        return hash(frozenset(self._specs.items()))

    def lookup(self, word: Word) -> WrapperSpec | None:
        """The spec for a command word (literal, matched on its basename)."""
        return self.lookup_name(word.value)

    def lookup_name(self, program: str | None) -> WrapperSpec | None:
        """The spec of the wrapper a program word names (matched on its basename), or
        None; never one named by a program and its verb: a word `"snap run"` names a
        program of that name (review IE2: it had been read as the wrapper `snap run`)."""
        if not program or " " in program:
            return None
        return self._specs.get(program.rpartition("/")[2])

    def lookup_verb(self, words: Sequence[Word]) -> WrapperSpec | None:
        """The spec of a wrapper named by a program and its verb (`snap run SNAP.APP`,
        named `snap run`) for a command's first two words, both literal, or None."""
        if len(words) < 2 or not words[0].value or not words[1].value:
            return None
        name = f"{words[0].value.rpartition('/')[2]} {words[1].value}"
        return self._specs.get(name)

    def lookup_start(self, words: Sequence[Word]) -> WrapperSpec | None:
        """The spec of the wrapper a command starts with: named by its first word, or by
        its first two (`lookup_verb`)."""
        if not words:
            return None
        return self.lookup(words[0]) or self.lookup_verb(words)


_NAME_EQ = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _takes_assignment(spec: WrapperSpec, word: str) -> bool:
    """Whether a leading word is an assignment to the wrapper: GNU env takes any word
    with a `=` (`env 1=2 find …` runs `find`, where the engine had judged a program `1=2`
    and offered `1=2 find` for approval: review EV3); bash's `time` a shell name's."""
    if spec.name == "env":
        return "=" in word and not word.startswith("=")
    return _NAME_EQ.match(word) is not None


def unwrap(
    words: Sequence[Word], table: WrapperTable, *, parse: ParseCallback | None = None
) -> Unwrapped:
    """See through the wrappers at the start of a command.

    Args:
        words: the command's words (argv[0] first).
        table: the wrapper specs (`DEFAULT_WRAPPERS` or an extension of it).
        parse: parses shell strings (`bash -c STRING`); without it such strings are opaque.

    Returns:
        The chain of wrappers, the inner command's words, and the nested line or the
        reason the inner command is opaque. With no wrapper the chain is empty. A wrapper
        option with an effect of its own (`WrapperSpec.effects`) adds a problem with code
        `EFFECT_CODE`; the inner command is still returned.
    """
    effects: list[Problem] = []
    result = _unwrap(words, table, parse, effects)
    if effects:
        result = replace(result, problems=(*effects, *result.problems))
    return result


def _unwrap(
    words: Sequence[Word], table: WrapperTable, parse: ParseCallback | None, effects: list[Problem]
) -> Unwrapped:
    chain: list[WrapperUse] = []
    assignments: list[Assignment] = []
    rest = tuple(words)
    no_path = False  # an earlier wrapper emptied the environment or unset PATH
    while rest:
        spec = table.lookup(rest[0])
        verb = 0  # a wrapper named with its verb (`snap run`): its options follow the verb
        if spec is None:
            spec = table.lookup_verb(rest)
            verb = 1
        if spec is None:
            break
        if len(chain) >= MAX_CHAIN:
            return _opaque(chain, assignments, f"more than {MAX_CHAIN} nested wrappers")
        if spec.program:
            # every later word is the program's: it is the command, named by the program
            chain.append(WrapperUse(name=spec.name, kind=spec.kind.value, words=rest[:1]))
            rest = (program_word(spec.program, rest[0]), *rest[1:])
            continue
        view = option_view(rest, spec.options, start=1 + verb)
        if view.find(*spec.query_options):
            break
        effects.extend(_option_effects(spec, rest, view))
        if spec.kind is WrapperKind.SHELL and no_path:
            # bash's built-in PATH when it inherits none ends in `.` (review H2), and `sh`
            # may be bash
            effects.append(
                Problem(
                    code=EFFECT_CODE,
                    message=f"`{spec.name}` starts without PATH and then looks for commands "
                    "in the working directory too",
                    span=rest[0].span,
                )
            )
        no_path = no_path or _clears_path(spec, rest, view)
        as_argv = bool(spec.argv_options) and bool(view.find(*spec.argv_options))
        if spec.kind is not WrapperKind.WRAPPER and not as_argv:
            chain.append(WrapperUse(name=spec.name, kind=spec.kind.value, words=rest))
            return _reenter(spec, rest, view, chain, assignments, parse)
        kind = WrapperKind.WRAPPER.value  # (an eval kind in its argv mode runs a command)
        problem = _check_options(spec, rest, view)
        if problem:
            chain.append(WrapperUse(name=spec.name, kind=kind, words=rest))
            return _opaque(chain, assignments, problem)
        for option in view.find(*spec.string_options):
            chain.append(WrapperUse(name=spec.name, kind=kind, words=rest))
            return _string(
                _value_indexes(option), rest, option.value, chain, assignments, parse, spec.dialect
            )
        start = view.rest
        if start < len(rest) and rest[start].value == "-" and "-" in spec.options.flags:
            start += 1  # `env - NAME=V cmd`: a lone `-` is `-i`
        if spec.assignments:
            # what env receives: quotes mean nothing to it, so `env 'A=1' cat .env` sets A
            # and runs `cat .env` (the quoted word had been taken for the program, AZ14)
            while start < len(rest) and _takes_assignment(spec, _received(rest[start])):
                if rest[start].may_split:  # (`env LC_X=$(echo a xargs) cat`: review CE1)
                    chain.append(WrapperUse(name=spec.name, kind=kind, words=rest))
                    return _opaque(
                        chain, assignments,
                        f"bash may split `{rest[start].text}` of `{spec.name}` into words "
                        "that move its command",
                    )  # fmt: skip
                assignments.append(_assignment(rest[start]))
                start += 1
        effects.extend(
            _positional_effects(
                spec,
                rest[start : start + spec.positionals],
                command_follows=start + spec.positionals < len(rest),
            )
        )
        start += spec.positionals
        if spec.options_after_positionals and start < len(rest):
            after = option_view(rest, spec.options, start=start)
            problem = _check_options(spec, rest, after)
            if problem:
                chain.append(WrapperUse(name=spec.name, kind=kind, words=rest))
                return _opaque(chain, assignments, problem)
            start = after.rest
        if start < len(rest) and rest[start].value in spec.string_options:
            # `flock FILE -c CMD`: the string option comes after the positionals
            chain.append(WrapperUse(name=spec.name, kind=kind, words=rest))
            code = rest[start + 1].value if start + 1 < len(rest) else None
            indexes = (start + 1,) if start + 1 < len(rest) else ()
            return _string(indexes, rest, code, chain, assignments, parse, spec.dialect)
        glued = _glued_string(spec, rest[start].value) if start < len(rest) else None
        if glued is not None:
            # `flock FILE --command=CMD`, `flock FILE -cCMD`
            chain.append(WrapperUse(name=spec.name, kind=kind, words=rest))
            return _string((start,), rest, glued, chain, assignments, parse, spec.dialect)
        chain.append(WrapperUse(name=spec.name, kind=kind, words=rest[:start]))
        if start >= len(rest):
            return _no_command(spec, rest, chain, assignments, start > len(rest))
        rest = rest[start:]
    return Unwrapped(chain=tuple(chain), words=rest, assignments=tuple(assignments))


def program_word(program: str, named: Word) -> Word:
    """The name of the program a wrapper runs (`WrapperSpec.program`), as a word at the
    place of the word that named the wrapper (`docker.lima` → `docker`)."""
    return Word(text=program, value=program, span=named.span)


def _glued_string(spec: WrapperSpec, value: str | None) -> str | None:
    """The code of a string option with its value glued (`--command=CMD`, `-cCMD`), or
    None when `value` is none."""
    if value is None or not value.startswith("-"):
        return None
    for option in spec.string_options:
        if option.startswith("--"):
            if value.startswith(option + "="):
                return value[len(option) + 1 :]
        elif len(value) > 2 and value[:2] == option:
            return value[2:]
    return None


def _value_indexes(option: Option) -> tuple[int, ...]:
    """The words an option's value is in: its own where it is glued (`su -c'cat .env'`,
    `script --command=CMD`, which had been taken for a missing command string)."""
    if option.arg_indexes or option.value is None:
        return option.arg_indexes
    return (option.word_index,)


def written_code(words: Sequence[Word], spec: WrapperSpec) -> str | None:
    """The code an eval-like wrapper or a shell's string runs, as written, for a use
    `unwrap` found opaque because that code is not literal: the operands' texts joined
    (`eval rm -rf ~`, `watch cat ~/x` → `rm -rf ~`, `cat ~/x`), a double-quoted word by
    its inside (`bash -c "rm -rf $HOME"` → `rm -rf $HOME`). Not what runs, which the
    expansions decide: a reading in which a deny may be found (the engine's). None when
    the use names no such code."""
    view = option_view(words, spec.options)
    first = min(view.rest, *view.unknown) if view.unknown else view.rest
    operands: Sequence[Word] = ()
    found = view.find(*spec.string_options)
    if found:
        operands = [words[index] for index in found[0].arg_indexes]
    elif spec.kind is WrapperKind.EVAL:
        stop = first + spec.code_operands if spec.code_operands else len(words)
        operands = words[first:stop]
    elif spec.kind is WrapperKind.SHELL and view.has("-c"):
        operands = words[first : first + 1]
    if not operands:
        return None
    return " ".join(_inside_quotes(word.text) for word in operands)


def _inside_quotes(text: str) -> str:
    """A word wholly in double quotes by what is inside them (`"rm -rf $HOME"`)."""
    if len(text) >= 2 and text[0] == text[-1] == '"' and '"' not in text[1:-1].replace('\\"', ""):
        return text[1:-1]
    return text


def _clears_path(spec: WrapperSpec, words: Sequence[Word], view: OptionView) -> bool:
    """`env -i`, `env -`, `env -u PATH`, `exec -c`: the command starts without PATH."""
    if gnu_base(spec.name) == "env":
        start = view.rest
        bare_dash = start < len(words) and words[start].value == "-"
        if view.has("-i", "--ignore-environment") or bare_dash:
            return True
        return any(v in (None, "PATH") for v in (*view.values("-u"), *view.values("--unset")))
    return spec.name == "exec" and view.has("-c")


def _check_options(spec: WrapperSpec, words: Sequence[Word], view: OptionView) -> str:
    """Why the wrapper's own options hide the inner command ("" when they do not)."""
    if view.unknown:
        return f"`{words[view.unknown[0]].text}` may be an option of `{spec.name}`"
    for word in words[1 : view.rest + spec.positionals]:
        if word.may_split:
            # bash may make several words of it, and one of them the command (review CE1:
            # `env -u /usr/bin/t[ae][ce] cat ~/.bashrc` ran `tee`, `nice -n $(echo 5 xargs)`)
            return f"bash may split `{word.text}` of `{spec.name}` into words that move its command"
    for option in view.options:
        if not option.known:
            return f"unknown option `{option.name}` of `{spec.name}`"
        if option.name in spec.opaque_options:
            return f"`{spec.name} {option.name}` hides the command it runs"
    return ""


def _option_effects(spec: WrapperSpec, words: Sequence[Word], view: OptionView) -> list[Problem]:
    """Problems for the wrapper's options that do something of their own."""
    found: list[Problem] = []
    for effect in spec.effects:
        for option in view.find(*effect.options):
            if effect.values and option.literal and option.value not in effect.values:
                continue
            if effect.harmless and option.literal and option.value in effect.harmless:
                continue
            span = words[option.word_index].span
            for index in option.arg_indexes:
                span = span.cover(words[index].span)
            valued = effect.values or effect.harmless
            shown = option.name if not valued else f"{option.name} {option.value or '…'}"
            found.append(
                Problem(
                    code=EFFECT_CODE,
                    message=f"`{spec.name} {shown}` {effect.effect}",
                    span=span,
                )
            )
            break
    return found


def _positional_effects(
    spec: WrapperSpec, positionals: Sequence[Word], *, command_follows: bool
) -> list[Problem]:
    """A problem for positionals that do something of their own (`flock FILE`, `chroot DIR`)."""
    if not spec.positional_effect or not positionals:
        return []
    if (
        spec.descriptor_positional
        and all((w.value or "").isdigit() for w in positionals)
        and not command_follows
    ):
        # (`flock 9` alone locks descriptor 9; with a command after it, flock opens or
        # makes a file named `9`, following links: review EV4)
        return []
    shown = " ".join(w.text for w in positionals)
    return [
        Problem(
            code=EFFECT_CODE,
            message=f"`{spec.name} {shown}` {spec.positional_effect}",
            span=positionals[0].span.cover(positionals[-1].span),
        )
    ]


def _no_command(
    spec: WrapperSpec,
    words: tuple[Word, ...],
    chain: list[WrapperUse],
    assignments: list[Assignment],
    missing_positional: bool,
) -> Unwrapped:
    if spec.default_command is not None and not missing_positional:
        last = words[-1].span
        word = Word(
            text=spec.default_command,
            value=spec.default_command,
            span=Span(last.end, last.end),
        )
        return Unwrapped(chain=tuple(chain), words=(word,), assignments=tuple(assignments))
    if spec.command_optional:
        return Unwrapped(chain=tuple(chain), words=(), assignments=tuple(assignments))
    return _opaque(chain, assignments, f"no command found after `{spec.name}`")


def _reenter(
    spec: WrapperSpec,
    words: tuple[Word, ...],
    view: OptionView,
    chain: list[WrapperUse],
    assignments: list[Assignment],
    parse: ParseCallback | None,
) -> Unwrapped:
    """A shell (`bash -c STRING`, script, stdin) or eval-like wrapper: the code it runs."""
    if spec.kind is WrapperKind.EVAL:
        first = min(view.rest, *view.unknown) if view.unknown else view.rest
        stop = first + spec.code_operands if spec.code_operands else len(words)
        operands = words[first:stop]
        if not operands or operands[0].value == "-":  # nothing to run; `trap - INT` resets
            return Unwrapped(chain=tuple(chain), words=(), assignments=tuple(assignments))
        values = [w.value for w in operands]
        if None in values:
            return _opaque(chain, assignments, f"`{spec.name}` runs code that is not literal")
        joined = " ".join(v for v in values if v is not None)
        indexes = tuple(range(first, first + len(operands)))
        return _string(indexes, words, joined, chain, assignments, parse, spec.dialect)
    for option in view.find(*spec.string_options):
        return _string(
            _value_indexes(option), words, option.value, chain, assignments, parse, spec.dialect
        )
    if spec.string_options:
        return _opaque(chain, assignments, f"`{spec.name}` starts an interactive shell")
    if view.has("-c"):
        first = min(view.rest, *view.unknown) if view.unknown else view.rest
        if first >= len(words):
            return _opaque(chain, assignments, f"`{spec.name} -c` without a command string")
        code = words[first].value
        return _string((first,), words, code, chain, assignments, parse, spec.dialect)
    if view.has("--version", "--help"):
        return Unwrapped(chain=tuple(chain), words=(), assignments=tuple(assignments))
    if view.unknown:
        # `bash +e`, `bash +o errexit`: whatever the words are, code on its standard input
        # may be what it runs, and the engine reads literal code there (review BG9)
        found = _opaque(chain, assignments, f"cannot tell what `{spec.name}` runs")
        return replace(found, reads_stdin=True)
    first = view.rest
    if first < len(words) - 1 and words[first].value == "-":
        first += 1  # `bash - script.sh`: `-` ends the options, the script follows
    script = words[first].value if first < len(words) else None
    if first < len(words) and not view.has("-s") and script not in _STDIN_SCRIPTS:
        return _opaque(
            chain, assignments, f"`{spec.name}` runs the script `{words[first].text}`"
        )
    found = _opaque(chain, assignments, f"`{spec.name}` reads commands from standard input")
    return replace(found, reads_stdin=True)


# script operands that are standard input: `bash - <<< CODE`, `bash /dev/stdin <<< CODE`
_STDIN_SCRIPTS: Final = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _string(
    indexes: tuple[int, ...],
    words: Sequence[Word],
    code: str | None,
    chain: list[WrapperUse],
    assignments: list[Assignment],
    parse: ParseCallback | None,
    dialect: Dialect,
) -> Unwrapped:
    """Shell code given as a string: parsed when literal, opaque otherwise."""
    name = chain[-1].name
    if not indexes:
        return _opaque(chain, assignments, f"`{name}` is missing its command string")
    if code is None:
        return _opaque(chain, assignments, f"the command string of `{name}` is not literal")
    if parse is None:
        return _opaque(chain, assignments, f"the command string of `{name}` was not analysed")
    anchor = words[indexes[0]].span.cover(words[indexes[-1]].span)
    nested = parse(code, anchor, f"inside the command string of `{name}`")
    problems = nested.problems
    if dialect is Dialect.POSIX:
        problems = (*_bash_only(code, name, anchor), *problems)
    elif dialect is Dialect.FOREIGN:
        # still parsed, so a deny bash's reading finds holds; never more than a question
        message = f"`{name}` does not read code by bash's rules, the only ones the policy knows"
        problems = (Problem(code=DIALECT_CODE, message=message, span=anchor), *problems)
    return Unwrapped(
        chain=tuple(chain),
        words=(),
        assignments=tuple(assignments),
        nested=nested,
        problems=problems,
    )

# Spellings bash and POSIX shells (dash, ash) split or run differently. The code is parsed
# by bash's rules, so where one of these appears the line the policy judged may not be the
# line dash runs: `$'\''` ends a quote only for bash, `&>` is `&` then `>` for dash (the
# words after it are a new command), `((…))` is arithmetic for bash and two subshells for
# dash, `time` a keyword for bash and the program for dash. Searched in the raw text,
# quotes and all: a match inside quotes costs a question, never a missed command.
_BASH_ONLY: Final = (
    (re.compile(r"\$['\"]"), "`$'…'` and `$\"…\"` are quoting for bash only"),
    (re.compile(r"&>"), "`&>` is a redirect for bash, but a background `&` then `>` for sh"),
    (re.compile(r"(?<!\$)\(\("), "`((…))` is arithmetic for bash, but two subshells for sh"),
    (re.compile(r"\[\[|<<<|[<>]\(|\|&|;&"), "bash-only syntax that sh reads differently"),
    (re.compile(r"(?<![\w-])time(?![\w-])"), "`time` is a keyword for bash, a program for sh"),
    # dash expands no braces: `for f in x{a,b}` loops once, over the name `x{a,b}` (EN4);
    # looked for outside quotes (`_unquoted`) and not in `${…}` (EP8)
    (re.compile(r"(?<!\$)\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}"), "braces expand for bash, not for sh"),
)
_BRACE_CHECK: Final = _BASH_ONLY[-1][0]
# quoted text (no braces expand there), for the brace check of `_bash_only`
_QUOTED_TEXT: Final = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"", re.DOTALL)


def _bash_only(code: str, name: str, anchor: Span) -> list[Problem]:
    """Problems for spellings of `code` (run by POSIX shell `name`) bash reads otherwise."""
    for pattern, why in _BASH_ONLY:
        text = _QUOTED_TEXT.sub("''", code) if pattern is _BRACE_CHECK else code
        found = pattern.search(text)
        if found is not None:
            message = (
                f"`{name}` is not bash and `{found.group()}` differs: {why}; the policy "
                "reads the code by bash's rules"
            )
            return [Problem(code=DIALECT_CODE, message=message, span=anchor)]
    return []


def _opaque(chain: list[WrapperUse], assignments: list[Assignment], reason: str) -> Unwrapped:
    return Unwrapped(
        chain=tuple(chain), words=(), assignments=tuple(assignments), opaque=True, reason=reason
    )


def _received(word: Word) -> str:
    """The word as a program receives it when it is literal, else as written."""
    return word.value if word.value is not None else word.text


def _assignment(word: Word) -> Assignment:
    """`NAME=VALUE` given to `env`: split the word (the value keeps the word's expansions)."""
    if word.value is not None and word.value != word.text:  # quoted (`'A=1'`, `A\=1`)
        name, _, given = word.value.partition("=")
        return Assignment(
            name=name, value=Word(text=given, value=given, span=word.span), span=word.span
        )
    name, _, raw = word.text.partition("=")
    start = word.span.start + len(name) + 1
    span = Span(min(start, word.span.end), word.span.end)
    if word.value is not None:
        value = Word(text=raw, value=word.value.partition("=")[2], span=span)
    else:
        value = Word(text=raw, value=None, expansions=word.expansions, span=span)
    return Assignment(name=name, value=value, span=word.span)


def _fs(names: str) -> frozenset[str]:
    """A frozenset from whitespace-separated option names (keeps the tables compact)."""
    return frozenset(names.split())


# bash reads a long option after one dash too (`-norc`, `-rcfile F`): read as two letters
# and a value, `bash -norc errexit -c …` had been judged as `-c …` where bash runs the
# script `errexit` (review EV2)
BASH_SINGLE_DASH_LONG: Final = _fs(
    "-norc -noprofile -login -posix -verbose -restricted -debugger -dump-strings "
    "-dump-po-strings -help -version -noediting -pretty-print -wordexp -rcfile -init-file"
)
_SHELL_OPTIONS = OptionSpec(
    takes_value=_fs("-o -O --init-file --rcfile -init-file -rcfile"),
    single_dash_long=BASH_SINGLE_DASH_LONG,
    flags=_fs(
        "-c -i -l -r -s -e -u -x -v -n -f -h -m -a -b -C -E -H -k -p -t -B -P -T -D "
        "--login --noprofile --norc --posix --restricted --verbose --version --help "
        "--debugger --dump-strings --dump-po-strings --noediting --pretty-print"
    ),
    stop_at_operand=True,
    plus_options=True,
    values_from_next=True,
    long_first=True,
)


_KEYWORD_EFFECT = (
    "makes `NAME=VALUE` arguments environment variables, which the policy does not check"
)
# `set -o` / `shopt -s` options that change nothing the policy relies on; any other changes
# how the code expands or runs (`-o allexport`, `-O dotglob`, `-O expand_aliases` …)
_HARMLESS_SET_OPTIONS = _fs(
    "errexit nounset xtrace verbose pipefail noclobber noglob noexec errtrace functrace"
)
_HARMLESS_SHOPT_OPTIONS = _fs("nullglob failglob inherit_errexit lastpipe")
# `bash -k` / `-o keyword`: `ls LD_PRELOAD=x.so` sets LD_PRELOAD for `ls` (as `set -k` does)
_SHELL_EFFECTS = (
    OptionEffect(options=_fs("-k"), effect=_KEYWORD_EFFECT),
    OptionEffect(options=_fs("-o"), effect=_KEYWORD_EFFECT, values=_fs("keyword")),
    # `bash -ac 'read TAR_OPTIONS; tar …'`: what `read` sets reaches tar's environment
    OptionEffect(
        options=_fs("-a"),
        effect="exports every variable the code sets, which the policy does not check",
    ),
    OptionEffect(
        options=_fs("-o"),
        effect="sets a shell option that changes how the code runs",
        harmless=_HARMLESS_SET_OPTIONS,
    ),
    # `-O dotglob` lets `*` match `.env`, `-O cdable_vars` makes `cd HOME` go home,
    # `-O expand_aliases` runs aliases the code defines through `BASH_ALIASES`
    OptionEffect(
        options=_fs("-O"),
        effect="sets a shell option that changes what the code's words mean",
        harmless=_HARMLESS_SHOPT_OPTIONS,
    ),
    # `+B` turns brace expansion off: `for f in x{a,b}` loops over the name `x{a,b}`,
    # where the policy reads two names (review EN3); `-B`, the default, is read the same
    OptionEffect(
        options=_fs("-B"),
        effect="turns brace expansion on or off, which changes what the code's words mean",
    ),
    # an interactive shell reads ~/.bashrc or $ENV and expands aliases
    OptionEffect(
        options=_fs("-i"),
        effect="starts an interactive shell, which reads start-up files and expands aliases",
    ),
    # `bash --rcfile ./x.sh -ic …` runs x.sh before the command the policy judges
    OptionEffect(
        options=_fs("--rcfile --init-file -rcfile -init-file"),
        effect="sources a start-up file the policy does not see",
    ),
)


# `sh` is dash on Debian, bash in POSIX mode elsewhere: read as the common subset of both
_SHELL_DIALECTS: Final = {
    "bash": Dialect.BASH,
    "sh": Dialect.POSIX,
    "dash": Dialect.POSIX,
    "ash": Dialect.POSIX,
    "busybox-sh": Dialect.POSIX,
    "zsh": Dialect.FOREIGN,
    "ksh": Dialect.FOREIGN,
    "mksh": Dialect.FOREIGN,
    # review AF1: shells the tables missed, whose bare names were offered as approvals
    "rbash": Dialect.BASH,  # bash, restricted only where an interactive user types
    "posh": Dialect.POSIX,
    "yash": Dialect.POSIX,
    "fish": Dialect.FOREIGN,
    "csh": Dialect.FOREIGN,
    "tcsh": Dialect.FOREIGN,
    "nu": Dialect.FOREIGN,
    "xonsh": Dialect.FOREIGN,
    "elvish": Dialect.FOREIGN,
}


def _wrapper(name: str, **kwargs: object) -> WrapperSpec:
    return WrapperSpec(name=name, **kwargs)  # type: ignore[arg-type]


def _options(
    *,
    takes_value: frozenset[str] = frozenset(),
    optional_value: frozenset[str] = frozenset(),
    flags: frozenset[str] = frozenset(),
) -> OptionSpec:
    return OptionSpec(
        takes_value=takes_value, optional_value=optional_value, flags=flags, stop_at_operand=True
    )


DEFAULT_WRAPPERS = WrapperTable(
    [
        _wrapper(
            "env",
            options=_options(
                takes_value=_fs("-u --unset -C --chdir -S --split-string"),
                optional_value=_fs("--default-signal --ignore-signal --block-signal"),
                flags=_fs("-i --ignore-environment -0 --null -v --debug --list-signal-handling -"),
            ),
            assignments=True,
            opaque_options=_fs("-S --split-string"),
            command_optional=True,
            effects=(
                OptionEffect(
                    options=_fs("-C --chdir"),
                    effect="runs the command in another directory, where its relative paths "
                    "name files the policy did not check",
                ),
            ),
        ),
        _wrapper(
            "timeout",
            options=_options(
                takes_value=_fs("-k --kill-after -s --signal"),
                flags=_fs("--preserve-status --foreground -v --verbose"),
            ),
            positionals=1,
        ),
        _wrapper(
            "nice",
            options=_options(
                takes_value=_fs("-n --adjustment"),
                # (not a lone `-`: GNU nice runs a program of that name: review EV5)
                flags=frozenset(f"-{n}" for n in range(-20, 20)),
            ),
            command_optional=True,
        ),
        _wrapper("nohup", options=_options()),
        # snapd's `snap run [OPTIONS] SNAP.APP ARGS` runs the snap's app (`SNAP` alone: its
        # default app, `snap run lxd` is `lxd`; /snap/bin/SNAP.APP is the same): the app is
        # the command (review IC3: `snap run lxd.lxc launch … security.privileged=true` had
        # been allowed under an offered `snap run`). Options stop at the app (go-flags'
        # PassAfterNonOption); those that run something besides the app ask; the hidden
        # `--command`, `--hook` and `-r` run another of the snap's commands: not seen through
        _wrapper(
            "snap run",
            options=_options(
                takes_value=_fs("--timer --command --hook -r"),
                optional_value=_fs("--strace --gdbserver --experimental-gdbserver"),
                flags=_fs("--shell --gdb --debug-log --trace-exec --parser-ran -h --help"),
            ),
            query_options=_fs("-h --help"),
            opaque_options=_fs("--command --hook -r"),
            effects=(
                OptionEffect(
                    options=_fs("--shell"),
                    effect="runs a shell in the snap's environment instead of its app",
                ),
                OptionEffect(
                    options=_fs("--gdb --gdbserver --experimental-gdbserver"),
                    effect="runs the app under a debugger, which can run any command",
                ),
                OptionEffect(
                    options=_fs("--strace"),
                    effect="runs the app under strace with the options it is given",
                ),
                OptionEffect(
                    options=_fs("--timer"),
                    effect="runs the app later, as a timer service on the schedule it gives",
                ),
            ),
        ),
        _wrapper(
            "time",
            options=_options(
                takes_value=_fs("-o --output -f --format"),
                flags=_fs("-p --portability -a --append -v --verbose -q --quiet"),
            ),
            command_optional=True,
            # bash's `time` keyword takes a whole pipeline, prefix assignments included
            # (`time A=1 cat .env` runs `cat .env`: review BG10); the program would fail
            # to run `A=1`, so reading them as assignments is the stricter side
            assignments=True,
            # GNU time (the program, not the keyword: `\time`, `cmd | time`, `env time`)
            effects=(
                OptionEffect(
                    options=_fs("-o --output"),
                    effect="writes its report to a file",
                ),
                OptionEffect(
                    options=_fs("-a --append"),
                    effect="appends its report to a file",
                ),
            ),
        ),
        _wrapper(
            "command",
            options=_options(flags=_fs("-p -v -V")),
            query_options=_fs("-v -V"),
            command_optional=True,
        ),
        _wrapper(
            "exec",
            options=_options(takes_value=_fs("-a"), flags=_fs("-c -l")),
            command_optional=True,
            # procps `pgrep` named `pkill` kills; multi-call programs act on argv[0]
            effects=(
                OptionEffect(
                    options=_fs("-a"),
                    effect="runs the program under another name, which multi-call programs "
                    "act on (`pgrep` named `pkill` kills)",
                ),
            ),
        ),
        _wrapper("builtin", options=_options(), command_optional=True),
        _wrapper(
            "xargs",
            options=_options(
                takes_value=_fs(
                    "-a --arg-file -d --delimiter -E -I -L -n "
                    "--max-args -P --max-procs -s --max-chars --process-slot-var"
                ),
                # GNU xargs: `--max-lines` takes a value only as `--max-lines=N`; read as
                # taking the next word, `xargs --max-lines rm echo` was judged as `echo`
                # while xargs ran `rm echo …` (review AZ3)
                optional_value=_fs("-e --eof -i --replace -l --max-lines"),
                flags=_fs(
                    "-0 --null -o --open-tty -p --interactive -r --no-run-if-empty -t "
                    "--verbose -x --exit --show-limits --help --version"
                ),
            ),
            query_options=_fs("--help --version --show-limits"),
            default_command="echo",
            effects=(
                OptionEffect(
                    options=_fs("-a --arg-file"),
                    effect="reads the arguments it adds from a file, unseen by the policy",
                ),
                # `--process-slot-var=PATH` runs the command with PATH=0 (`./0/echo`)
                OptionEffect(
                    options=_fs("--process-slot-var"),
                    effect="sets an environment variable of the command it runs, which the "
                    "policy does not check",
                ),
            ),
        ),
        _wrapper(
            "sudo",
            options=_options(
                takes_value=_fs(
                    "-u --user -g --group -h --host -p --prompt -C --close-from "
                    "-D --chdir -r --role -t --type -U --other-user -T "
                    "--command-timeout -R --chroot"
                ),
                optional_value=_fs("--preserve-env"),
                flags=_fs(
                    "-E -H --set-home -n --non-interactive -S --stdin -b --background "
                    "-i --login -s --shell -k --reset-timestamp -K --remove-timestamp "
                    "-l --list -v --validate -A --askpass -P --preserve-groups -e "
                    "--edit -V --version --help -B --bell -N --no-update"
                ),
            ),
            query_options=_fs(
                "-l --list -v --validate -e --edit -V --version --help -k -K --remove-timestamp"
            ),
        ),
        _wrapper(
            "doas",
            options=_options(takes_value=_fs("-u -C"), flags=_fs("-n -s -L")),
            query_options=_fs("-C -L"),
        ),
        _wrapper(
            "stdbuf",
            options=_options(
                takes_value=_fs("-i --input -o --output -e --error"),
            ),
        ),
        _wrapper(
            "ionice",
            options=_options(
                takes_value=_fs("-c --class -n --classdata -p --pid -P --pgid -u --uid"),
                flags=_fs("-t --ignore"),
            ),
            query_options=_fs("-p --pid -P --pgid -u --uid"),
            command_optional=True,
        ),
        _wrapper(
            "setsid",
            options=_options(flags=_fs("-c --ctty -f --fork -w --wait")),
        ),
        # procps watch runs its joined operands with `sh -c`
        _wrapper(
            "watch",
            kind=WrapperKind.EVAL,
            dialect=Dialect.POSIX,
            argv_options=_fs("-x --exec"),
            options=_options(
                takes_value=_fs("-n --interval -q --equexit"),
                optional_value=_fs("-d --differences"),
                flags=_fs(
                    "-b --beep -c --color -C --no-color -e --errexit -g --chgexit -p "
                    "--precise -t --no-title -w --no-wrap -x --exec -r --no-rerun"
                ),
            ),
        ),
        _wrapper(
            "chrt",
            options=_options(
                takes_value=_fs("-T --sched-runtime -P --sched-period -D --sched-deadline"),
                flags=_fs(
                    "-a --all-tasks -b --batch -d --deadline -f --fifo -i --idle -o "
                    "--other -r --rr -R --reset-on-fork -v --verbose -m --max"
                ),
            ),
            positionals=1,
            query_options=_fs("-p --pid -m --max"),
        ),
        _wrapper(
            "taskset",
            options=_options(flags=_fs("-a --all-tasks -c --cpu-list -p --pid")),
            positionals=1,
            query_options=_fs("-p --pid"),
        ),
        _wrapper(
            "flock",
            options=_options(
                takes_value=_fs("-w --timeout -E --conflict-exit-code -c --command"),
                flags=_fs(
                    "-s --shared -x -e --exclusive -u --unlock -n --nb --nonblock -o "
                    "--close -F --no-fork --verbose"
                ),
            ),
            positionals=1,
            string_options=_fs("-c --command"),
            dialect=Dialect.FOREIGN,  # `-c` runs $SHELL, whichever shell that is
            command_optional=True,
            # `flock FILE …` opens FILE with O_CREAT; `flock 9` locks a descriptor
            positional_effect="creates the lock file, which the policy does not check",
            descriptor_positional=True,
        ),
        _wrapper(
            "su",
            kind=WrapperKind.SHELL,
            options=OptionSpec(
                takes_value=_fs(
                    "-c --command -s --shell -g --group -G --supp-group -w "
                    "--whitelist-environment --session-command"
                ),
                flags=_fs("- -l --login -m -p --preserve-environment -P --pty -f --fast"),
            ),
            string_options=_fs("-c --command --session-command"),
            dialect=Dialect.FOREIGN,  # the target account's login shell
        ),
        _wrapper("eval", kind=WrapperKind.EVAL, options=_options(flags=_fs("--"))),
        # `trap CODE SIGNAL…` runs CODE later in this shell (at exit, on a signal): seen
        # through, `trap 'rm -rf ~' EXIT` is the `rm` it runs, not an unknown command
        _wrapper(
            "trap",
            kind=WrapperKind.EVAL,
            options=_options(flags=_fs("-l -p -P")),
            query_options=_fs("-l -p -P"),
            code_operands=1,
        ),
        _wrapper("coproc", options=_options()),
        _wrapper("busybox", options=_options()),
        _wrapper(
            "chroot",
            options=_options(
                takes_value=_fs("--userspec --groups"), flags=_fs("--skip-chdir --help --version")
            ),
            positionals=1,
            positional_effect="runs the programs of that directory tree, which are not the "
            "commands the rules know",
        ),
        *(
            _wrapper(
                shell,
                kind=WrapperKind.SHELL,
                options=_SHELL_OPTIONS,
                effects=_SHELL_EFFECTS,
                dialect=dialect,
            )
            for shell, dialect in _SHELL_DIALECTS.items()
        ),
        # lima's scripts (review BH-VM): `nerdctl.lima ARGS` is `limactl shell default
        # nerdctl ARGS`, `docker.lima`, `podman.lima` run the host's client against the
        # machine's daemon (or `lima docker ARGS`), `kubectl.lima`, `apptainer.lima` the
        # machine's: each is that program, whose rules hold for it (the machine mounts
        # the home, so its containers' mounts reach the host's files as docker's do)
        *(
            _wrapper(f"{program}.lima", program=program)
            for program in ("nerdctl", "docker", "podman", "kubectl", "apptainer")
        ),
        # `kubenerdctl.lima ARGS` is `lima sudo CONTAINERD_NAMESPACE=k8s.io nerdctl ARGS`
        # in lima's `k8s` machine (its `load` and `build` first copy the host's image file
        # or build folder there): nerdctl's rules hold for it (review HH5)
        _wrapper("kubenerdctl.lima", program="nerdctl"),
    ]
)
# GNU's wrappers under Homebrew's names (coreutils, findutils and gnu-time on macOS): each
# runs its operands as the tool it renames does (review CC: `gtimeout 5 ls` suggested
# approving `gtimeout`, which then allowed `gtimeout 5 rm -rf build`)
_GNU_WRAPPERS: Final = frozenset(
    {"env", "timeout", "nice", "nohup", "stdbuf", "chroot", "xargs", "time"}
)
DEFAULT_WRAPPERS = DEFAULT_WRAPPERS.extend(
    replace(spec, name=f"g{spec.name}")
    for spec in (DEFAULT_WRAPPERS.get(name) for name in sorted(_GNU_WRAPPERS))
    if spec is not None
)


def gnu_base(name: str) -> str:
    """The GNU wrapper `name` is under Homebrew's name (`gxargs` → `xargs`), or `name`:
    what the checks of one wrapper (xargs's file names, nohup's output file, env's
    printing) look for (review CD1: `echo ~/.ssh/id_rsa | gxargs cat` was allowed)."""
    return name[1:] if name[:1] == "g" and name[1:] in _GNU_WRAPPERS else name


def with_options(spec: WrapperSpec, **changes: object) -> WrapperSpec:
    """A copy of `spec` with fields replaced (convenience for extending the table)."""
    return replace(spec, **changes)  # type: ignore[arg-type]


#: Specs kept out of `DEFAULT_WRAPPERS` (none at present; `trap` used to be one), for
#: tables that want them: `DEFAULT_WRAPPERS.extend(OPTIONAL_WRAPPERS)`.
OPTIONAL_WRAPPERS: tuple[WrapperSpec, ...] = ()


# util-linux's setarch under an architecture's name takes no architecture word
_SETARCH_OPTIONS = _options(
    flags=_fs(
        "-B --32bit -F --fdpic-funcptrs -I --short-inode -L --addr-compat-layout -R "
        "--addr-no-randomize -S --whole-seconds -T --sticky-timeouts -X --read-implies-exec "
        "-Z --mmap-page-zero -3 --3gb --4gb --uname-2.6 -v --verbose --list -h --help "
        "-V --version"
    ),
)
_SETARCH_QUERIES = _fs("--list -h --help -V --version")
# valgrind reads every word that starts with `-` as one of its options, a value only
# glued after `=` (`--log-file x` takes no `x`: valgrind 3.19 ran `x`)
_VALGRIND_VALUED = _fs(
    "--alignment --allow-mismatched-debuginfo --aspace-minaddr --avg-transtab-entry-size "
    "--child-silent-after-fork --debuginfo-server --default-suppressions --demangle "
    "--dsymutil --error-exitcode --error-limit --error-markers --errors-for-leak-kinds "
    "--exit-on-first-error --expensive-definedness-checks --extra-debuginfo-path "
    "--fair-sched --free-fill --freelist-big-blocks --freelist-vol --fullpath-after "
    "--gen-suppressions --ignore-range-below-sp --ignore-ranges --input-fd "
    "--keep-debuginfo --keep-stacktraces --kernel-variant --leak-check "
    "--leak-check-heuristics --leak-resolution --log-fd --log-file --log-socket "
    "--main-stacksize --malloc-fill --max-stackframe --max-threads "
    "--merge-recursive-frames --num-callers --num-transtab-sectors --partial-loads-ok "
    "--read-inline-info --read-var-info --redzone-size --require-text-symbol "
    "--resync-filter --run-cxx-freeres --run-libc-freeres --show-below-main "
    "--show-emwarns --show-error-list --show-leak-kinds --show-mismatched-frees "
    "--show-reachable --sigill-diagnostics --sim-hints --smc-check --soname-synonyms "
    "--suppressions --time-stamp --tool --trace-children --trace-children-skip "
    "--trace-children-skip-by-arg --track-fds --track-origins --undef-value-errors "
    "--unw-stack-scan-frames --unw-stack-scan-thresh --valgrind-stacksize --vgdb "
    "--vgdb-error --vgdb-poll --vgdb-prefix --vgdb-shadow-registers --vgdb-stop-at "
    "--workaround-gcc296-bugs --xml --xml-fd --xml-file --xml-socket --xml-user-comment "
    "--xtree-leak --xtree-leak-file --xtree-memory --xtree-memory-file"
)

#: Where the command of a runner starts (`runner` programs: `strace CMD`, `setpriv …
#: CMD`): each one's own options, as its `--help` gives them (util-linux 2.38, strace
#: 6.1, systemd 252, valgrind 3.19, ltrace 0.7.3), and those later versions add (review
#: EB7: strace's `--argv0`, `--trace-fds`; setpriv's `--landlock-access`; systemd-run's
#: `--json`).
#: They are not in `DEFAULT_WRAPPERS`: a runner does more than run its command (traces
#: it, changes its user, namespaces, root or limits), so the analyser does not see
#: through it and its use asks; the engine reads the command through this table and
#: judges it on its own, so that a deny in it holds
#: (`strace cat .env`, `setpriv --reuid=1000 rm -rf ~`). A runner whose options are not
#: known here (gdb's single-dash `-ex`, bwrap's two-word `--bind SRC DEST`, GNU parallel,
#: or a program not installed where the table was written: firejail, entr,
#: catchsegv, macOS's `arch` and `caffeinate`) is left out: its use asks, unread.
RUNNER_WRAPPERS = WrapperTable(
    [
        _wrapper(
            "setpriv",
            options=_options(
                takes_value=_fs(
                    "--ambient-caps --inh-caps --bounding-set --ruid --euid --rgid --egid "
                    "--reuid --regid --groups --securebits --pdeathsig --selinux-label "
                    "--apparmor-profile --landlock-access --landlock-rule --seccomp-filter "
                    "--ptracer"
                ),
                flags=_fs(
                    "-d --dump --nnp --no-new-privs --clear-groups --keep-groups "
                    "--init-groups --reset-env -h --help -V --version"
                ),
            ),
            query_options=_fs("-d --dump -h --help -V --version"),
        ),
        # `script [FILE]` logs an interactive shell; only `-c STRING` names a command,
        # which runs through $SHELL
        _wrapper(
            "script",
            options=_options(
                takes_value=_fs(
                    "-I --log-in -O --log-out -B --log-io -T --log-timing -m "
                    "--logging-format -c --command -E --echo -o --output-limit"
                ),
                optional_value=_fs("-t --timing"),
                flags=_fs(
                    "-a --append -e --return -f --flush --force -q --quiet -h --help -V "
                    "--version"
                ),
            ),
            positionals=1,
            string_options=_fs("-c --command"),
            dialect=Dialect.FOREIGN,
            command_optional=True,
            query_options=_fs("-h --help -V --version"),
        ),
        _wrapper(
            "strace",
            options=_options(
                takes_value=_fs(
                    "-I -b -e -a -o -s -X -O -S -P -p -U -E -u --attach --user --detach-on "
                    "--interruptible --trace --signal --status --trace-path --columns "
                    "--abbrev --verbose --raw --read --write --kvm --output --string-limit "
                    "--const-print-style --summary-syscall-overhead --summary-sort-by "
                    "--summary-columns --inject --fault --env --decode-pids --argv0 "
                    "--trace-fds --syscall-limit --stack-trace-frame-limit"
                ),
                optional_value=_fs(
                    "--daemonize --relative-timestamps --absolute-timestamps "
                    "--syscall-times --strings-in-hex --decode-fds --tips --quiet "
                    "--timestamps --secontext"
                ),
                flags=_fs(
                    "-A -C -c -d -D -f -h -i -k -n -q -r -t -T -v -V -w -x -y -Y -z -Z "
                    "--follow-forks --output-separately --successful-only --failed-only "
                    "--instruction-pointer --stack-traces --syscall-number "
                    "--output-append-mode --no-abbrev --summary-only --summary-wall-clock "
                    "--debug --help --version --seccomp-bpf --summary --pidns-translation "
                    "--always-show-pid --kill-on-exit"
                ),
            ),
            command_optional=True,  # (`strace -p PID` attaches instead)
            query_options=_fs("-h --help -V --version"),
        ),
        _wrapper(
            "nsenter",
            options=_options(
                takes_value=_fs("-t --target -S --setuid -G --setgid -W --wdns"),
                optional_value=_fs(
                    "-m --mount -u --uts -i --ipc -n --net -p --pid -C --cgroup -U --user "
                    "-T --time -r --root -w --wd"
                ),
                flags=_fs(
                    "-a --all --preserve-credentials -F --no-fork -Z --follow-context "
                    "-h --help -V --version"
                ),
            ),
            command_optional=True,  # (it then runs $SHELL)
            query_options=_fs("-h --help -V --version"),
        ),
        _wrapper(
            "unshare",
            options=_options(
                takes_value=_fs(
                    "--map-user --map-group --map-users --map-groups --propagation "
                    "--setgroups -R --root -w --wd -S --setuid -G --setgid --monotonic "
                    "--boottime"
                ),
                optional_value=_fs(
                    "-m --mount -u --uts -i --ipc -n --net -p --pid -U --user -C --cgroup "
                    "-T --time --kill-child --mount-proc"
                ),
                flags=_fs(
                    "-f --fork -r --map-root-user -c --map-current-user --map-auto "
                    "--keep-caps -h --help -V --version"
                ),
            ),
            command_optional=True,  # (it then runs $SHELL)
            query_options=_fs("-h --help -V --version"),
        ),
        _wrapper(
            "prlimit",
            options=_options(
                takes_value=_fs("-p --pid -o --output"),
                optional_value=_fs(
                    "-c --core -d --data -e --nice -f --fsize -i --sigpending -l --memlock "
                    "-m --rss -n --nofile -q --msgqueue -r --rtprio -s --stack -t --cpu "
                    "-u --nproc -v --as -x --locks -y --rttime"
                ),
                flags=_fs("--noheadings --raw --verbose -h --help -V --version"),
            ),
            command_optional=True,  # (it then prints the limits)
            query_options=_fs("-h --help -V --version"),
        ),
        _wrapper(
            "setarch",
            options=_SETARCH_OPTIONS,
            positionals=1,
            options_after_positionals=True,
            command_optional=True,  # (it then runs /bin/sh)
            query_options=_SETARCH_QUERIES,
        ),
        *(
            _wrapper(
                name,
                options=_SETARCH_OPTIONS,
                command_optional=True,
                query_options=_SETARCH_QUERIES,
            )
            for name in ("linux32", "linux64", "i386", "x86_64")
        ),
        _wrapper(
            "systemd-run",
            options=_options(
                takes_value=_fs(
                    "-H --host -M --machine -u --unit -p --property --description --slice "
                    "--service-type --uid --gid --nice --working-directory -E --setenv "
                    "--path-property --socket-property --on-active --on-boot --on-startup "
                    "--on-unit-active --on-unit-inactive --on-calendar --timer-property "
                    "--json --expand-environment --shell-prompt-prefix --background "
                    "--job-mode"
                ),
                flags=_fs(
                    "-h --help --version --no-ask-password --user --scope --slice-inherit "
                    "--no-block -r --remain-after-exit --wait --send-sighup -d --same-dir "
                    "-t --pty -P --pipe -q --quiet -G --collect -S --shell "
                    "--on-timezone-change --on-clock-change"
                ),
            ),
            command_optional=True,  # (`-S` runs $SHELL)
            query_options=_fs("-h --help --version"),
        ),
        # ltrace 0.7.3 (getopt `+cfhiLrStTVbCa:A:D:e:F:l:n:o:p:s:u:x:`, long options by
        # any unique prefix), and the `-X FILTER`, `-w NR` of later versions (review EE9)
        _wrapper(
            "ltrace",
            options=_options(
                takes_value=_fs(
                    "-a --align -A -D --debug -e -F --config -l --library -n --indent -o "
                    "--output -p -s -u -x -X -w --where"
                ),
                flags=_fs("-b --no-signals -c -C --demangle -f -h --help -i -L -r -S -t -T "
                          "-V --version"),
            ),
            command_optional=True,  # (`ltrace -p PID` attaches instead)
            query_options=_fs("-h --help -V --version"),
        ),
        _wrapper(
            "valgrind",
            options=_options(
                optional_value=_VALGRIND_VALUED,
                flags=_fs(
                    "-h --help --help-debug --help-dyn-options -q --quiet -v --verbose -s "
                    "-d --version"
                ),
            ),
            query_options=_fs("-h --help --help-debug --help-dyn-options --version"),
        ),
    ]
)


# perf 6.1's parse-options (long options by any unique prefix; `-o FILE` written)
_PERF_COMMON = "-C --cpu -D --delay -e --event -G --cgroup -o --output -p --pid -t --tid"
#: Runners named by a program and its verb (`uv run CMD`, `perf stat CMD`), each with the
#: options the verb reads before its command (uv 0.13 and poetry 2.5 `--help`, pdm 2.29,
#: pipenv, hatch, rye 0.44, perf 6.1); judged as `RUNNER_WRAPPERS` are, for a deny only
#: (`_Walk.runner_command`). A project's script of the same name as a program (`pdm run
#: lint`) is judged as that program: a deny there costs a question, never a hole.
VERB_RUNNERS: Final[Mapping[tuple[str, str], WrapperSpec]] = MappingProxyType(
    {
        ("uv", "run"): _wrapper(
            "uv run",
            options=_options(
                takes_value=_fs(
                    "--extra --no-extra --group --no-group --only-group "
                    "--no-editable-package --env-file -w --with --with-editable "
                    "--with-requirements --package --python-platform --index "
                    "--default-index -i --index-url --extra-index-url -f --find-links "
                    "--index-strategy --keyring-provider -P --upgrade-package "
                    "--upgrade-group --resolution --prerelease --prerelease-package "
                    "--fork-strategy --exclude-newer --exclude-newer-package "
                    "--no-sources-package --reinstall-package --link-mode -C "
                    "--config-setting --config-settings-package "
                    "--no-build-isolation-package --no-build-package --no-binary-package "
                    "--cache-dir --refresh-package -p --python --color "
                    "--allow-insecure-host --directory --project --config-file "
                    "--preview-features --python-preference"
                ),
                flags=_fs(
                    "--all-extras --no-dev --only-dev --no-default-groups --all-groups -m "
                    "--module --no-editable --exact --no-env-file --isolated --active "
                    "--no-sync --locked --frozen -s --script --gui-script --all-packages "
                    "--no-project --no-index -U --upgrade --no-sources --reinstall "
                    "--compile-bytecode --no-build-isolation --no-build --no-binary "
                    "--require-build-hashes --no-require-build-hashes -n --no-cache "
                    "--refresh --managed-python --no-managed-python --no-python-downloads "
                    "-q --quiet -v --verbose --system-certs --offline --no-progress "
                    "--no-config -h --help --preview --no-preview --native-tls "
                    "--no-native-tls --no-offline --show-settings --no-installer-metadata "
                    "--allow-python-downloads --no-system-certs"
                ),
            ),
            query_options=_fs("-h --help"),
        ),
        ("poetry", "run"): _wrapper(
            "poetry run",
            options=_options(
                takes_value=_fs("-P --project -C --directory"),
                flags=_fs(
                    "-h --help -q --quiet -V --version --ansi --no-ansi -n --no-interaction "
                    "--no-plugins --no-cache -v -vv -vvv --verbose"
                ),
            ),
            query_options=_fs("-h --help -V --version"),
        ),
        ("pdm", "run"): _wrapper(
            "pdm run",
            options=_options(
                takes_value=_fs(
                    "-p --project -k --skip --env --env-file --working-dir"
                ),
                optional_value=_fs("--venv"),
                flags=_fs(
                    "-h --help -v --verbose -q --quiet -g --global -l --list -j --json -s "
                    "--site-packages --recreate"
                ),
            ),
            query_options=_fs("-h --help -l --list -j --json"),
        ),
        ("pipenv", "run"): _wrapper(
            "pipenv run",
            options=_options(flags=_fs("--system -h --help")),
            query_options=_fs("-h --help"),
        ),
        ("hatch", "run"): _wrapper(
            "hatch run", options=_options(flags=_fs("-h --help")), query_options=_fs("-h --help")
        ),
        ("rye", "run"): _wrapper(
            "rye run",
            options=_options(
                takes_value=_fs("--pyproject"),
                flags=_fs("-l --list -v --verbose -q --quiet -h --help"),
            ),
            query_options=_fs("-l --list -h --help"),
        ),
        ("perf", "stat"): _wrapper(
            "perf stat",
            options=_options(
                takes_value=_fs(
                    f"{_PERF_COMMON} -I --interval-print -M --metrics -r --repeat -x "
                    "--field-separator --control --cputype --filter --for-each-cgroup "
                    "--interval-count --log-fd --post --pre --td-level --timeout"
                ),
                optional_value=_fs("--iostat"),
                flags=_fs(
                    "-a --all-cpus -A --no-aggr -B --big-num -d --detailed -g --group -i "
                    "--no-inherit -j --json-output -n --null -S --sync -T --transaction -v "
                    "--verbose --all-kernel --all-user --append --hybrid-merge "
                    "--interval-clear --metric-no-group --metric-no-merge --metric-only "
                    "--no-csv-summary --no-merge --per-core --per-die --per-node "
                    "--per-socket --per-thread --percore-show-thread --quiet --scale "
                    "--smi-cost --summary --table --topdown -h --help"
                ),
            ),
            command_optional=True,
            query_options=_fs("-h --help"),
        ),
        ("perf", "record"): _wrapper(
            "perf record",
            options=_options(
                takes_value=_fs(
                    f"{_PERF_COMMON} -c --count -F --freq -j --branch-filter -k --clockid "
                    "-m --mmap-pages -r --realtime -u --uid --affinity --call-graph "
                    "--clang-opt --clang-path --control --filter --max-size --mmap-flush "
                    "--num-thread-synthesize --proc-map-timeout --switch-max-files "
                    "--switch-output-event --synth --vmlinux"
                ),
                optional_value=_fs(
                    "-I --intr-regs -S --snapshot -z --compression-level --aio "
                    "--aux-sample --debuginfod --switch-output --threads --user-regs"
                ),
                flags=_fs(
                    "-a --all-cpus -b --branch-any -B --no-buildid -d --data -g -i "
                    "--no-inherit -N --no-buildid-cache -n --no-samples -P --period -q "
                    "--quiet -R --raw-samples -s --stat -T --timestamp -v --verbose -W "
                    "--weight --all-cgroups --all-kernel --all-user --buildid-all "
                    "--buildid-mmap --code-page-size --data-page-size --dry-run "
                    "--exclude-perf --group --kcore --kernel-callchains --namespaces "
                    "--no-bpf-event --no-buffering --off-cpu --overwrite --per-thread "
                    "--phys-data --running-time --sample-cpu --sample-identifier "
                    "--strict-freq --switch-events --tail-synthesize --timestamp-boundary "
                    "--timestamp-filename --transaction --user-callchains -h --help"
                ),
            ),
            command_optional=True,
            query_options=_fs("-h --help"),
        ),
        ("perf", "trace"): _wrapper(
            "perf trace",
            options=_options(
                takes_value=_fs(
                    f"{_PERF_COMMON} -F --pf -i --input -m --mmap-pages -u --uid "
                    "--call-graph --duration --expr --filter --filter-pids --map-dump "
                    "--max-events --max-stack --min-stack --proc-map-timeout --switch-off "
                    "--switch-on"
                ),
                flags=_fs(
                    "-a --all-cpus -f --force -s --summary -S --with-summary -T --time -v "
                    "--verbose --comm --errno-summary --failure --kernel-syscall-graph "
                    "--libtraceevent_print --no-inherit --print-sample --sched "
                    "--show-on-off-events --sort-events --syscalls --tool_stats -h --help"
                ),
            ),
            command_optional=True,
            query_options=_fs("-h --help"),
        ),
    }
)


def verb_runner(words: Sequence[Word]) -> tuple[int, WrapperSpec] | None:
    """The verb runner a command is (`uv run …`, `/usr/bin/perf stat …`): the index of its
    verb and the spec of the options after it (`VERB_RUNNERS`), or None. uv's and
    poetry's global options may come before the verb too (`uv -q run`, `poetry -C dir
    run`): they are read with the verb's table, which holds them."""
    if len(words) < 2 or not words[0].value:
        return None
    program = words[0].value.rpartition("/")[2]
    index = 1
    if program in _GLOBAL_BEFORE_VERB and (words[1].value or "").startswith("-"):
        view = option_view(words, VERB_RUNNERS[(program, "run")].options)
        if view.unknown or not all(option.known for option in view.options):
            return None  # (an option not known: where the verb is cannot be told)
        index = view.rest
    if index >= len(words) or not words[index].value:
        return None
    spec = VERB_RUNNERS.get((program, words[index].value or ""))
    return (index, spec) if spec is not None else None


# programs whose global options may come before the verb (`uv -q run CMD`)
_GLOBAL_BEFORE_VERB: Final = frozenset({"uv", "poetry", "pdm"})


@dataclass(frozen=True, slots=True, kw_only=True)
class MachineRunner:
    """A runner whose command runs in a virtual machine or a container that mounts the
    user's home, and often the workspace at its own path (review BH-VM: lima's `lima CMD`,
    `limactl shell INSTANCE CMD`, colima's `ssh`, multipass's `exec` …): how its
    command is found in its words, for the check that a deny in it holds (`MACHINES`,
    `machine_commands`). The machine shares the files a deny protects, so the command is
    judged as it would be here.

    Attributes:
        options: its own options (after its verb); an option not known hides the command.
        positionals: words before the command (`limactl shell INSTANCE CMD`: 1).
        optional_positional: that word may be absent (`podman machine ssh [NAME] CMD`):
            both readings are judged.
        assignments: `NAME=VALUE` words before the command set its environment (lima).
        after_dashdash: the command is what follows the first `--`, and nothing else
            (distrobox).
        skip: a verb that may come first and is not the command (`orb run CMD`).
        program: the program it runs with those words (`colima nerdctl ARGS` runs
            `sudo nerdctl ARGS` in the machine), or "".
        joined: the words reach a shell joined with spaces, as ssh sends them: the
            command is read that way too.
        home: it runs in the working folder when the machine has it there, else in the
            home (lima's `cd DIR || cd HOME`): relative names may be the home's.
        command_options: its options whose value is a command for the machine's shell
            (`vagrant ssh -c CMD`), judged as such too.
    """

    options: OptionSpec = _NO_OPTIONS
    positionals: int = 0
    optional_positional: bool = False
    assignments: bool = False
    after_dashdash: bool = False
    skip: frozenset[str] = frozenset()
    program: str = ""
    joined: bool = False
    home: bool = False
    command_options: frozenset[str] = frozenset()


# limactl 1.x and 2.x (`limactl shell --help`, the `lima` script); colima 0.8; multipass
# 1.14; podman 5; minikube 1.3x; WSL 2; OrbStack 1.x (`orb --help`); Rancher Desktop 1.x
_LIMA_SHELL_OPTIONS = _options(
    takes_value=_fs("--workdir --shell --sync"),
    flags=_fs("--preserve-env --start --reconnect"),
)
_COLIMA_OPTIONS = _options(
    takes_value=_fs("-p --profile"),
    flags=_fs("-l --layer -v --verbose --very-verbose -h --help"),
)
_DISTROBOX = MachineRunner(after_dashdash=True, home=True)
_WSL = MachineRunner(
    options=_options(
        takes_value=_fs("-d --distribution -u --user --cd --shell-type --distribution-id"),
        flags=_fs("-e --exec --system"),
    ),
    joined=True,
)
_ORB = MachineRunner(
    options=_options(
        takes_value=_fs("-m --machine -u --user -w --workdir"),
        flags=_fs("-s --shell -p --path"),
    ),
    skip=frozenset({"run"}),
    joined=True,
)
#: The machine runners by their entry in the runner table (`compiler.defaults`): each
#: is a runner there (no approval covers its command; `lima`'s is judged, as an exact
#: runner's is), and here how its command is found (review BH-VM).
MACHINES: Final[Mapping[tuple[str, ...], MachineRunner]] = MappingProxyType(
    {
        ("lima",): MachineRunner(options=_LIMA_SHELL_OPTIONS, assignments=True, home=True),
        ("limactl", "shell"): MachineRunner(
            options=_options(
                takes_value=_fs("--workdir --shell --sync --log-level --log-format"),
                flags=_fs("--preserve-env --start --reconnect --debug --tty"),
            ),
            positionals=1,
            assignments=True,
            home=True,
        ),
        ("rdctl", "shell"): MachineRunner(
            options=_options(takes_value=_fs("--config-path --host --port --user --password")),
            assignments=True,
            home=True,
        ),
        ("colima", "ssh"): MachineRunner(options=_COLIMA_OPTIONS, home=True),
        ("colima", "exec"): MachineRunner(options=_COLIMA_OPTIONS, home=True),
        ("colima", "x"): MachineRunner(options=_COLIMA_OPTIONS, home=True),
        ("colima", "nerdctl"): MachineRunner(
            options=_COLIMA_OPTIONS, program="nerdctl", home=True
        ),
        ("multipass", "exec"): MachineRunner(
            options=_options(
                takes_value=_fs("-d --working-directory"),
                flags=_fs("-n --no-map-working-directory -v -vv -vvv -vvvv --verbose"),
            ),
            positionals=1,
        ),
        ("podman", "machine", "ssh"): MachineRunner(
            options=_options(takes_value=_fs("--username")),
            positionals=1,
            optional_positional=True,
            joined=True,
        ),
        ("minikube", "ssh"): MachineRunner(
            options=_options(takes_value=_fs("-n --node -p --profile"), flags=_fs("--native-ssh")),
            joined=True,
        ),
        ("docker-machine", "ssh"): MachineRunner(positionals=1, joined=True),
        # (review BW) vagrant 2.x: `vagrant ssh [NAME] -c CMD`, `vagrant ssh [NAME] -- CMD`
        # (ssh's arguments, its command among them); the machine's synced folder is the
        # workspace, read-write
        ("vagrant", "ssh"): MachineRunner(
            options=_options(
                takes_value=_fs("-c --command"),
                flags=_fs("-p --plain -t --tty --no-tty -h --help"),
            ),
            positionals=1,
            optional_positional=True,
            joined=True,
            command_options=_fs("-c --command"),
        ),
        # (review HR1, fixer BY) the docker provider's `vagrant docker-exec [NAME] -- CMD`
        # and `vagrant docker-run [NAME] -- CMD`: the container mounts the project
        ("vagrant", "docker-exec"): MachineRunner(after_dashdash=True),
        ("vagrant", "docker-run"): MachineRunner(after_dashdash=True),
        # (toolbox's container shares the home and the working folder)
        ("toolbox", "run"): MachineRunner(
            options=_options(
                takes_value=_fs("-c --container -d --distro -r --release --preserve-fds"),
                flags=_fs("-y --assumeyes --log-podman -v --verbose"),
            ),
            home=True,
        ),
        ("distrobox", "enter"): _DISTROBOX,
        ("distrobox", "ephemeral"): _DISTROBOX,
        ("distrobox-enter",): _DISTROBOX,
        ("distrobox-ephemeral",): _DISTROBOX,
        ("wsl",): _WSL,
        ("wsl.exe",): _WSL,
        ("orb",): _ORB,
        ("orbctl",): _ORB,
        # (review BS-host) flatpak's way out of its sandbox: the command runs on this
        # machine (`--directory` moves it, so it is not read: the line asks whatever it runs)
        ("flatpak-spawn",): MachineRunner(
            options=_options(
                takes_value=_fs("--forward-fd --env --unset-env --sandbox-expose "
                                "--sandbox-expose-ro --sandbox-expose-path "
                                "--sandbox-expose-path-ro --sandbox-flag --app-path --usr-path"),
                flags=_fs("--host --clear-env --watch-bus --expose-pids --share-pids "
                          "--latest-pid --sandbox --no-network --verbose -v"),
            ),
        ),
        # systemd's `machinectl shell [[USER@]MACHINE [PATH [ARGS…]]]` (`.host`: this machine)
        ("machinectl", "shell"): MachineRunner(
            options=_options(
                takes_value=_fs("-E --setenv --uid -M --machine -H --host"),
                flags=_fs("-q --quiet --no-pager --no-ask-password"),
            ),
            positionals=1,
        ),
        # `systemd-nspawn -D DIR CMD` runs CMD in DIR's tree (`-D /` is this system's)
        ("systemd-nspawn",): MachineRunner(
            options=_options(
                takes_value=_fs("-D --directory -i --image -M --machine -u --user -E "
                                "--setenv --bind --bind-ro --template"),
                flags=_fs("-q --quiet -x --ephemeral --read-only --as-pid2 -a"),
            ),
        ),
        # the devcontainers CLI's `exec`: its container mounts the workspace read-write
        ("devcontainer", "exec"): MachineRunner(
            options=_options(
                takes_value=_fs("--workspace-folder --container-id --id-label --config "
                                "--override-config --remote-env --docker-path "
                                "--docker-compose-path --log-level --log-format "
                                "--terminal-columns --terminal-rows --user-data-folder "
                                "--container-data-folder --container-system-data-folder "
                                "--default-user-env-probe"),
                flags=_fs("--mount-workspace-git-root --skip-feature-auto-mapping -h --help"),
            ),
        ),
    }
)


def _read_option(option: Option, words: Sequence[Word]) -> bool:
    """Whether a machine runner's option is read: one its table knows, or a long option
    it does not know whose value is its own word's (`--tty=false`: review HH7), which
    cannot take the next word as its value."""
    if option.known:
        return True
    word = words[option.word_index].value or ""
    return word.startswith("--") and "=" in word and not option.arg_indexes


def machine_commands(words: Sequence[Word], runner: MachineRunner) -> tuple[tuple[Word, ...], ...]:
    """The commands a machine runner may run: `words` from its name or its verb on (its
    argv[0]; global options before the verb are the program's), one command for each
    reading of an optional positional word. None where its options cannot be read: the
    runner is not seen through, so its line asks whatever they hide.

    >>> from policylang.shell.parse import parse_command
    >>> def inner(line, key):
    ...     found = machine_commands(parse_command(line).segments[0].words, MACHINES[key])
    ...     return [" ".join(w.text for w in words) for words in found]
    >>> inner("lima --preserve-env A=1 rm -rf ~", ("lima",))
    ['rm -rf ~']
    >>> inner("shell --workdir . default -- cat .env", ("limactl", "shell"))
    ['cat .env']
    >>> inner("nerdctl -p dev -- run --privileged img", ("colima", "nerdctl"))
    ['nerdctl run --privileged img']
    >>> inner("ssh dev ls ~", ("podman", "machine", "ssh"))
    ['dev ls ~', 'ls ~']
    >>> inner("distrobox-enter -n box -- sh -c x", ("distrobox-enter",))
    ['sh -c x']
    """
    starts: list[int] = []
    if runner.after_dashdash:
        dashes = next((i for i, w in enumerate(words) if i and w.value == "--"), None)
        if dashes is None:
            return ()
        starts.append(dashes + 1)
    else:
        view = option_view(words, runner.options)
        if view.unknown or not all(_read_option(option, words) for option in view.options):
            return ()
        start = view.rest
        if start < len(words) and words[start].value in runner.skip:
            view = option_view(words, runner.options, start=start + 1)
            if view.unknown or not all(_read_option(o, words) for o in view.options):
                return ()
            start = view.rest
        counts = (0, runner.positionals) if runner.optional_positional else (runner.positionals,)
        starts.extend(dict.fromkeys(start + count for count in counts))
    found: list[tuple[Word, ...]] = []
    for start in starts:
        if start < len(words) and words[start].value == "--":
            start += 1
        while runner.assignments and start < len(words) and _NAME_EQ.match(_received(words[start])):
            start += 1
        inner = tuple(words[start:])
        if runner.program:
            inner = (program_word(runner.program, words[0]), *inner)
        if inner:
            found.append(inner)
    return tuple(found)
