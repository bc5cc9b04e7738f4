"""The option view of a command: pure Python over `shell.model` words; imports only the model.

A rule that asks "does this `sed` have `-i` or `--in-place`" must not be dodged by another
spelling of the same option. `option_view` normalises the spellings bash and getopt accept:

- bundled short flags are split (`-rf` → `-r`, `-f`), and a value-taking short option takes
  the rest of its bundle (`-n5` → `-n` = `5`, `sed -ni` → `-n`, `-i`);
- `--opt=value` is split, and `--opt value` consumes the next word when the spec says so;
- unique prefixes of known long options are expanded (`--in-pl` → `--in-place`), as
  getopt_long does;
- `--` ends the options; quote removal already turned `-\\i` and `"-i"` into `-i`.

Words that are not literal (`$X`, `*`) in an option position are listed in `unknown`: a glob
may expand to `-delete` and a variable to `-rf`.

>>> from policylang.shell.parse import parse_command
>>> words = parse_command("sed -ni.bak --expr=p file").segments[0].words
>>> view = option_view(words, DEFAULT_OPTION_SPECS["sed"])
>>> [(o.name, o.value) for o in view.options]
[('-n', None), ('-i', '.bak'), ('--expression', 'p')]
>>> view.operands
(3,)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from policylang._frozen import picklable, twin
from policylang.shell.model import Word


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionSpec:
    """How one command spells its options (data; extend it for new commands).

    Attributes:
        takes_value: options whose value is the rest of the bundle or the next word.
        single_dash_long: options spelt with one dash and several letters (`-exec`, `-name`).
        optional_value: options whose value may only be attached (`--color[=WHEN]`, `-i[SUF]`).
        flags: known options that take no value (used only to tell known from unknown).
        long_names: further known long options, for prefix expansion (`--verb` → `--verbose`).
        terminated: options whose arguments run up to a `;` or `+` word (`find -exec … ;`).
        bundling: whether `-abc` means `-a -b -c` (False: `-abc` is one option).
        stop_at_operand: POSIX style: the first operand ends the options (`sudo`, `env`).
        options_first: the first operand ends the options and every later word is an
            operand too (`less a.txt -x key` reads `-x` and `key`).
        bundle_without_dash: old-style first word without a dash (`tar xzf FILE`).
        long_nocase: long option names match ignoring case (less: `--LESSKEY-SRC` is
            `--lesskey-src`); they are normalised to lower case.
        plus_options: a word `+X…` is an option too (bash's `+e`, `+o NAME` turn a
            setting off), read as `-X…`: what the policy checks of an option it checks
            of both spellings, and `+o`/`+O` take their value as `-o`/`-O` do (review
            BG9: `bash +e` was read as a script named `+e`).
        any_dashes: nopt's reading (npm, pnpm): the number of dashes before a long name
            does not matter, so `---script-shell` is `--script-shell`, and `-script-shell`
            is too unless it is a bundle of short flags; such a word is read both ways
            (review BT3: `npm run build -script-shell=./x` ran `./x`).
        values_from_next: bash's reading of a bundle: each value-taking letter takes the
            next word in turn and the letters after it are options too, so `-ox pipefail
            F` is `-o pipefail -x F` (read the getopt way, `-o x`, the script was taken
            to be `pipefail`: review EI7).
        less_words: less's reading of an option word (its scan_option): a number's value
            ends where its digits do, `-x`'s, `-#`'s and `-j`'s where their characters
            do, any other string's at `$`, and the letters after it are options again,
            `--NAME` among them (`-x4k F` is `-k F`: review EY1); a `+` in the word
            starts less commands, listed as the option `-+` (`-S+!CMD`).
        long_first: bash's reading of `single_dash_long`: such a word is a long option
            only before the first other option word (`bash -norc -c x`, but `bash -c
            -posix x` is `-p -o six`: review EW1).
        short_equals: clap's reading of a value glued to a short option: a leading `=`
            is dropped (`rg -g=.env` is `rg -g .env`, `-ng=.env` too: review EQ5). "all"
            drops every one (clap 2, ripgrep 13: `-g==.env` is `-g .env`), "one" drops
            one (clap 3 and 4, fd); "" keeps it (getopt: `grep -e=x` looks for `=x`).
    """

    takes_value: frozenset[str] = frozenset()
    single_dash_long: frozenset[str] = frozenset()
    optional_value: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    long_names: frozenset[str] = frozenset()
    terminated: frozenset[str] = frozenset()
    bundling: bool = True
    stop_at_operand: bool = False
    options_first: bool = False
    bundle_without_dash: bool = False
    long_nocase: bool = False
    plus_options: bool = False
    any_dashes: bool = False
    values_from_next: bool = False
    less_words: bool = False
    short_equals: str = ""
    long_first: bool = False
    known: frozenset[str] = field(init=False, repr=False, compare=False)
    _long: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        known = (
            self.takes_value
            | self.single_dash_long
            | self.optional_value
            | self.flags
            | self.long_names
            | self.terminated
        )
        object.__setattr__(self, "known", known)
        object.__setattr__(self, "_long", tuple(sorted(n for n in known if n.startswith("--"))))

    def expand_long(self, name: str) -> str:
        """The known long option `name` abbreviates uniquely, or `name` itself."""
        if name in self.known:
            return name
        matches = [n for n in self._long if n.startswith(name)]
        return matches[0] if len(matches) == 1 else name


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One option occurrence, normalised (`-r`, `--recursive`, `-exec`).

    `value` is the option's value when it has one and it is literal; `literal` is False when
    the value word is not literal (then `value` is None). `arg_indexes` lists the words the
    option consumed after its own (the separate value word, or `find -exec`'s command).
    `known` says whether the spec lists the option.
    """

    name: str
    value: str | None = None
    word_index: int
    literal: bool = True
    known: bool = True
    arg_indexes: tuple[int, ...] = ()

    # written out rather than generated by `dataclass`: mypyc compiles it to plain
    # stores, where the generated one stays interpreted (see `policylang._frozen`)
    def __init__(
        self,
        *,
        name: str,
        value: str | None = None,
        word_index: int,
        literal: bool = True,
        known: bool = True,
        arg_indexes: tuple[int, ...] = (),
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "word_index", word_index)
        object.__setattr__(self, "literal", literal)
        object.__setattr__(self, "known", known)
        object.__setattr__(self, "arg_indexes", arg_indexes)


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionView:
    """The options and operands of one command, independent of spelling.

    `operands` and `unknown` hold word indexes. An `unknown` word is not literal and stands
    where an option could: it may be an option, a value or an operand. `rest` is the index
    where option parsing stopped (the first operand for POSIX-style specs, else len(words)).
    """

    options: tuple[Option, ...]
    operands: tuple[int, ...]
    unknown: tuple[int, ...] = ()
    rest: int = 0

    # written out rather than generated by `dataclass`: mypyc compiles it to plain
    # stores, where the generated one stays interpreted (see `policylang._frozen`)
    def __init__(
        self,
        *,
        options: tuple[Option, ...],
        operands: tuple[int, ...],
        unknown: tuple[int, ...] = (),
        rest: int = 0,
    ) -> None:
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "operands", operands)
        object.__setattr__(self, "unknown", unknown)
        object.__setattr__(self, "rest", rest)

    def has(self, *names: str) -> bool:
        """Whether any of the named options occurs."""
        return any(o.name in names for o in self.options)

    def values(self, name: str) -> tuple[str | None, ...]:
        """The values given to option `name`, in order (None for a non-literal value)."""
        return tuple(o.value for o in self.options if o.name == name)

    def find(self, *names: str) -> tuple[Option, ...]:
        """The occurrences of any of the named options."""
        return tuple(o for o in self.options if o.name in names)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(o.name for o in self.options)


_OptionTwin: Final = twin(Option)
_ViewTwin: Final = twin(OptionView)
TWINS: Final = {Option: _OptionTwin, OptionView: _ViewTwin}


def _option(
    name: str,
    value: str | None,
    word_index: int,
    literal: bool,
    known: bool,
    arg_indexes: tuple[int, ...],
) -> Option:
    """`Option(…)` with every field given (the twin's stores: see `policylang._frozen`)."""
    if _OptionTwin is None:
        return Option(
            name=name,
            value=value,
            word_index=word_index,
            literal=literal,
            known=known,
            arg_indexes=arg_indexes,
        )
    obj = _OptionTwin()
    obj.name = name
    obj.value = value
    obj.word_index = word_index
    obj.literal = literal
    obj.known = known
    obj.arg_indexes = arg_indexes
    obj.__class__ = Option
    result: Option = obj
    return result


def _view(
    options: tuple[Option, ...], operands: tuple[int, ...], unknown: tuple[int, ...], rest: int
) -> OptionView:
    """`OptionView(…)` with every field given."""
    if _ViewTwin is None:
        return OptionView(options=options, operands=operands, unknown=unknown, rest=rest)
    obj = _ViewTwin()
    obj.options = options
    obj.operands = operands
    obj.unknown = unknown
    obj.rest = rest
    obj.__class__ = OptionView
    result: OptionView = obj
    return result


_MAY_BECOME_OPTION = frozenset("-$`\"'*?[{\\")
_TERMINATORS = frozenset({";", "+"})


def could_be_option(word: Word) -> bool:
    """Whether a non-literal word may expand to something starting with `-` (one that
    bash splits at blanks may hold one later too: `option_view` lists it as both). A
    quoted word whose first quoted character is a plain one other than `-` cannot
    (review EU3: `grep -rn "x$HOME" docs` had read `docs` as the pattern and `.`)."""
    text = word.text
    if not text:
        return True
    second = text[1:2]
    if text[0] in "\"'" and second and second not in _MAY_BECOME_OPTION:
        return False
    return text[0] in _MAY_BECOME_OPTION


class _Scanner:
    """Mutable state of one `option_view` run (kept out of the frozen result types)."""

    __slots__ = ("i", "longs_done", "operands", "options", "spec", "unknown", "words")

    def __init__(self, words: Sequence[Word], spec: OptionSpec, start: int) -> None:
        self.words = words
        self.spec = spec
        self.i = start
        # (`long_first`: a word that is no long option ends bash's long options)
        self.longs_done = False
        self.options: list[Option] = []
        self.operands: list[int] = []
        self.unknown: list[int] = []

    def take_next(self, name: str, index: int, known: bool) -> None:
        """`name` takes the next word as its value (if there is one)."""
        if self.i < len(self.words):
            word = self.words[self.i]
            self.options.append(_option(name, word.value, index, word.is_literal, known, (self.i,)))
            if word.value is None and word.splits_at_blanks:
                # bash may make several words of the value: the option takes the first,
                # the rest are options or operands (`ps -o args${IFS}e`, `date
                # --rfc-3339 date${IFS}-f${IFS}$HOME/.netrc`: review CF3, CF4)
                self.unknown.append(self.i)
            self.i += 1
        else:
            self.options.append(_option(name, None, index, True, known, ()))

    def take_terminated(self, name: str, index: int) -> None:
        args: list[int] = []
        while self.i < len(self.words):
            word = self.words[self.i]
            self.i += 1
            if word.value in _TERMINATORS:
                break
            args.append(self.i - 1)
        self.options.append(_option(name, None, index, True, True, tuple(args)))

    def long(self, text: str, index: int) -> None:
        name, eq, value = text.partition("=")
        spec = self.spec
        if spec.long_nocase:
            name = name.lower()
        name = spec.expand_long(name)
        known = name in spec.known
        if eq:
            self.options.append(_option(name, value, index, True, known, ()))
        elif name in spec.takes_value:
            self.take_next(name, index, known)
        else:
            self.options.append(_option(name, None, index, True, known, ()))

    def short(self, text: str, index: int) -> None:
        spec = self.spec
        if spec.long_first and (self.longs_done or text not in spec.single_dash_long):
            # bash reads `-posix` as a long option only before its first short option:
            # `bash -c -posix x` is `-p -o six …` (review EW1)
            self.longs_done = True
            self.bundle(text, index)
            return
        if text in spec.terminated:
            self.take_terminated(text, index)
            return
        if spec.single_dash_long and text not in spec.single_dash_long:
            # `-toolexec=./x` (Go's flags), `-fplugin=x.so`, `-Wl,-plugin,x.so` (gcc): a
            # single-dash long option with its value glued after `=` or `,`
            glue = _GLUE.search(text)
            if glue is not None and text[: glue.start()] in spec.single_dash_long:
                name = text[: glue.start()]
                self.options.append(_option(name, text[glue.end() :], index, True, True, ()))
                return
        if spec.any_dashes and not spec.bundling and "=" in text and text not in spec.known:
            # a parser that reads `-f` whole and cuts a word at `=` reads `-f=x` as `-f`
            # with the value `x` (jake: review IE1, `jake build -f=/tmp/x.js` ran that file
            # under `jake build`); not find's, which refuses `-name=x`
            name, _eq, value = text.partition("=")
            if name in spec.known:
                self.options.append(_option(name, value, index, True, True, ()))
                return
        if text in spec.single_dash_long or not spec.bundling or text in spec.known:
            if text in spec.takes_value:
                self.take_next(text, index, True)
            else:
                known = text in spec.known
                self.options.append(_option(text, None, index, True, known, ()))
            return
        self.bundle(text, index)

    def bundle(self, text: str, index: int) -> None:
        """`-abc`: each letter an option, up to one that takes a value."""
        spec = self.spec
        for pos in range(1, len(text)):
            name = "-" + text[pos]
            rest = text[pos + 1 :]
            known = name in spec.known
            if name in spec.takes_value and spec.values_from_next:
                self.take_next(name, index, known)
                continue
            if name in spec.takes_value:
                if rest:
                    value = _unglued(rest, spec.short_equals)
                    self.options.append(_option(name, value, index, True, True, ()))
                else:
                    self.take_next(name, index, known)
                return
            if name in spec.optional_value:
                self.options.append(_option(name, rest or None, index, True, True, ()))
                return
            self.options.append(_option(name, None, index, True, known, ()))

    def less_word(self, text: str, index: int) -> None:
        """An option word as less 590's scan_option reads it (`OptionSpec.less_words`).

        A value glued to its letter ends where less ends it and the scan goes on in the
        same word (review EY1: `less -x4k key.bin F` loads `key.bin`, whose `#env` may
        set LESSOPEN to a command). Where the reading may part from less's (a value that
        ended inside the word, an option less may not know), a value taken from the next
        word is listed as an operand too, so that a file less opens is never hidden.
        """
        pos = 0
        resumed = False
        while 0 <= pos < len(text):
            char = text[pos]
            pos += 1
            if char in _LESS_SKIPPED:
                continue
            if char == "-":
                if text.startswith("-", pos):
                    pos, resumed = self.less_long(text, pos + 1, index, resumed)
                elif text.startswith("+", pos):
                    pos += 1  # `-+X` resets X
                continue
            if char == "+":
                # less commands, run at the first file (`-S+!CMD`, a newline ends them)
                value, pos = _less_string(text, pos, None)
                self.options.append(_option("-+", value, index, True, True, ()))
                resumed = True
                continue
            if "0" <= char <= "9":
                name, pos = "-z", pos - 1  # `-5` is `-z5`
            else:
                name = "-" + char
            pos, resumed = self.less_value(name, text, pos, index, resumed)

    def less_long(self, text: str, pos: int, index: int, resumed: bool) -> tuple[int, bool]:
        """`--NAME`, `--NAME=VALUE` inside a less option word (from `pos`, after the dashes)."""
        end = pos
        while end < len(text) and _less_name_character(text[end]):
            end += 1
        if end == pos:
            return -1, resumed  # less: no such option, the rest of the word is ignored
        spec = self.spec
        name = spec.expand_long("--" + text[pos:end].lower())
        follow = text[end : end + 1]
        if follow in ("", " ") and name in spec.takes_value:
            return self.less_value(name, text, end, index, resumed)
        if follow in ("", " "):
            self.options.append(_option(name, None, index, True, name in spec.known, ()))
            return end, resumed or name not in spec.known
        if follow == "=" and name in spec.takes_value:
            return self.less_value(name, text, end + 1, index, resumed)
        # a flag given `=`, or a name the spec does not know (less may know it as a string
        # option): less stops or reads a string; the stricter reading is the string's
        self.options.append(_option(name, None, index, True, False, ()))
        return _less_string(text, end + 1, None)[1], True

    def less_value(
        self, name: str, text: str, pos: int, index: int, resumed: bool
    ) -> tuple[int, bool]:
        """Option `name` of a less option word, its value (if it takes one) from `pos`."""
        spec = self.spec
        known = name in spec.known
        if name not in spec.takes_value:
            self.options.append(_option(name, None, index, True, known, ()))
            return pos, resumed or not known
        if pos >= len(text):
            # the value is the next word, whole (less's pending option)
            following = self.i
            self.take_next(name, index, known)
            if resumed and following < len(self.words):
                self.operands.append(following)
            return -1, resumed
        if name in _LESS_NUMBERS:
            value, end = _less_number(text, pos)
        else:
            value, end = _less_string(text, pos, _LESS_CHARACTERS.get(name))
        self.options.append(_option(name, value, index, True, known, ()))
        return end, resumed or end < len(text)

    def old_style(self, text: str, index: int) -> None:
        """`tar xzf FILE`: each letter an option; value-taking letters take following words."""
        for letter in text:
            name = "-" + letter
            if name in self.spec.takes_value:
                self.take_next(name, index, True)
            else:
                known = name in self.spec.known
                self.options.append(_option(name, None, index, True, known, ()))


_GLUE: Final = re.compile("[=,]")

# less 590's options whose value is a number (getnum: blanks, a `-`, digits), and those
# whose string takes only some characters (optstring's `validchars`): review EY1
_LESS_NUMBERS: Final = frozenset(
    ("-b", "--buffers", "-h", "--max-back-scroll", "-y", "--max-forw-scroll", "-z", "--window",
     "--line-num-width", "--status-col-width", "--wheel-lines")
)  # fmt: skip
_LESS_CHARACTERS: Final = {
    **dict.fromkeys(("-x", "--tabs", "--header"), "0123456789,"),
    **dict.fromkeys(("-#", "--shift"), "0123456789."),
    **dict.fromkeys(("-j", "--jump-target"), "0123456789.-"),
}
# characters less passes over between options (END_OPTION_STRING is `$`)
_LESS_SKIPPED: Final = frozenset(" \t$")


def _less_name_character(char: str) -> bool:
    """A character of a long option's name, as less reads one (a letter or `-`)."""
    return ("a" <= char <= "z") or ("A" <= char <= "Z") or char == "-"


def _less_number(text: str, pos: int) -> tuple[str | None, int]:
    """A number at `pos` as less's getnum reads it, and where it ends; no number (less
    says so and reads on from `pos`) gives None."""
    end = pos
    while text.startswith(" ", end):
        end += 1
    start = end
    if text.startswith("-", end):
        end += 1
    digits = end
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    if end == digits:
        return None, pos
    return text[start:end], end


def _less_string(text: str, pos: int, characters: str | None) -> tuple[str, int]:
    """A string value at `pos` as less's optstring reads it: up to `$` (or the first
    character not among `characters`), blanks before it skipped; and where it ends.
    (With `--use-backslash`, `\\$` would not end it: the scan then reads more options
    than less does, which is the stricter side.)"""
    while text.startswith(" ", pos):
        pos += 1
    end = pos
    while end < len(text) and text[end] != "$":
        if characters is not None and text[end] not in characters:
            break
        end += 1
    return text[pos:end], end


def _unglued(rest: str, short_equals: str) -> str:
    """A value glued to a short option as the program reads it (`OptionSpec.short_equals`).

    >>> _unglued("==.env", "all"), _unglued("==.env", "one"), _unglued("=.env", "")
    ('.env', '=.env', '=.env')
    """
    if short_equals == "all":
        return rest.lstrip("=")
    if short_equals == "one":
        return rest.removeprefix("=")
    return rest


def option_view(words: Sequence[Word], spec: OptionSpec, *, start: int = 1) -> OptionView:
    """Split a command's words (argv[0] first) into normalised options and operands.

    Args:
        words: the command's words, usually `segment.command_words`.
        spec: how the command spells options (see `DEFAULT_OPTION_SPECS`).
        start: index of the first word to consider (1 skips the command name).

    Returns:
        The option view; word indexes refer to `words`.
    """
    if start >= len(words):  # `ls`, `git status`: nothing to scan
        return _view((), (), (), len(words))
    scan = _Scanner(words, spec, start)
    first = True
    while scan.i < len(words):
        index = scan.i
        word = words[index]
        scan.i += 1
        text = word.value
        if text is None:
            if could_be_option(word):
                scan.unknown.append(index)
            else:
                if word.splits_at_blanks:
                    # an operand, and maybe options after it: `x$IFS-f$IFS$HOME/.netrc` is
                    # `x -f ~/.netrc` (review CF3); a glob's names start as its pattern does
                    scan.unknown.append(index)
                if spec.options_first:
                    scan.operands.extend(range(index, len(words)))
                    return _finish(scan, len(words))
                scan.operands.append(index)
                if spec.stop_at_operand:
                    return _finish(scan, index)
            first = False
            continue
        if first and spec.bundle_without_dash and text and not text.startswith("-"):
            scan.old_style(text, index)
        elif text == "--":
            scan.operands.extend(range(scan.i, len(words)))
            return _finish(scan, scan.i)
        elif spec.less_words and len(text) > 1 and text.startswith("-"):
            scan.less_word(text, index)
        elif text.startswith("--"):
            scan.long("--" + text.lstrip("-") if spec.any_dashes else text, index)
        elif len(text) > 1 and text.startswith("-"):
            if spec.any_dashes and len(text.partition("=")[0]) > 2:
                scan.options.append(_any_dashes_long(text, index))
            scan.short(text, index)
        elif spec.plus_options and len(text) > 1 and text.startswith("+"):
            scan.short("-" + text[1:], index)
        else:
            if spec.stop_at_operand:
                return _finish(scan, index)
            if spec.options_first:
                scan.operands.extend(range(index, len(words)))
                return _finish(scan, len(words))
            scan.operands.append(index)
        first = False
    return _finish(scan, len(words))


def _any_dashes_long(text: str, index: int) -> Option:
    """`-script-shell=./x` read as the long option nopt may take it for (`any_dashes`);
    its value only when attached: the word is read as a bundle of flags too, which takes
    none, and either reading alone only adds an option for the clauses to see."""
    name, eq, value = text.partition("=")
    return _option("-" + name, value if eq else None, index, True, False, ())


def _finish(scan: _Scanner, rest: int) -> OptionView:
    return _view(tuple(scan.options), tuple(scan.operands), tuple(scan.unknown), rest)


def _fs(names: str) -> frozenset[str]:
    """A frozenset from whitespace-separated option names (keeps the tables compact)."""
    return frozenset(names.split())


_FIND_VALUE = _fs(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type "
    "-xtype -size -user -group -uid -gid -perm -mtime -mmin -atime -amin -ctime "
    "-cmin -newer -anewer -cnewer -maxdepth -mindepth -links -inum -samefile "
    "-lname -ilname -fstype -used -printf -fprintf -fprint -fprint0 -fls "
    "-regextype -context -newerXY -files0-from"
)
_FIND_FLAGS = _fs(
    "-delete -print -print0 -ls -prune -quit -depth -mount -xdev -empty "
    "-executable -readable -writable -follow -noleaf -true -false -not -and -or "
    "-a -o -daystart -ignore_readdir_race -nouser -nogroup -L -H -P -O"
)

_NOPT_SPEC = OptionSpec(any_dashes=True)

DEFAULT_OPTION_SPECS: Mapping[str, OptionSpec] = MappingProxyType(
    {
        # less 590: long names ignore case (upper case picks the "capital" variant of the
        # same option where there is one: `--LOG-FILE` is `-O`)
        "less": OptionSpec(
            takes_value=_fs(
                "-b --buffers -D --color -h --max-back-scroll -j --jump-target -k "
                "--lesskey-file --lesskey-src --lesskey-content -o --log-file -O -p "
                "--pattern -P --prompt -t --tag -T --tag-file -x --tabs -y "
                "--max-forw-scroll -z --window -# --shift --line-num-width "
                "--status-col-width --wheel-lines --rscroll --quotes --header --intr "
                "--search-options -\""
            ),
            flags=_fs(
                "-? --help -a --search-skip-screen -A -B --auto-buffers -c --clear-screen "
                "-C -d --dumb -e --quit-at-eof -E -f --force -F --quit-if-one-screen -g "
                "--hilite-search -G -i --ignore-case -I -J --status-column -K "
                "--quit-on-intr -L --no-lessopen -m --long-prompt -M -n --line-numbers "
                "-N -q --quiet --silent -Q -r --raw-control-chars -R -s "
                "--squeeze-blank-lines -S --chop-long-lines -u --underline-special -U "
                "-V --version -w --hilite-unread -W -X --no-init -~ --tilde --file-size "
                "--follow-name --incsearch --mouse --no-keypad --no-histdups --save-marks "
                "--use-backslash --use-color --exit-follow-on-close --redraw-on-quit "
                "--no-number-headers --no-search-headers --no-vbell --show-preproc-errors "
                "--status-line --wordwrap"
            ),
            long_nocase=True,
            less_words=True,
            # less reads options only up to its first file: `less a.txt -x ~/.ssh/id_rsa`
            # opens `-x` and the key as files (review BC9)
            options_first=True,
        ),
        # tree 2.1 gives each value-taking letter of a bundle the next word in turn: `-Lo
        # 1 F` is `-L 1 -o F`, and `-L2` no level (review EY2); the policy lists its
        # options (`options tree`)
        "tree": OptionSpec(values_from_next=True),
        # npm and pnpm read options with nopt (review BT3); yarn's readers do not, but
        # the policy's rules name the three together, and reading more is stricter
        "npm": _NOPT_SPEC,
        "pnpm": _NOPT_SPEC,
        "yarn": _NOPT_SPEC,
        # grunt-cli reads its options with nopt too (grunt-known-options and liftup's
        # `--require`): `-gruntfile x`, `---tasks=x`, `-gru x` are `--gruntfile`,
        # `--tasks` (review IC1, real grunt-cli 1.5.0); jake strips one `--` and then one
        # `-` and looks the rest up as a long or a short name, so `---f`, `--f=x`,
        # `-jakefile x`, `--J x` are its options (IC2, real jake 10.9.4): the clauses name
        # the short ones' `--` spellings
        "grunt": OptionSpec(
            takes_value=_fs(
                "-b --base --gruntfile --tasks --npm --completion -p --preload --require"
            ),
            flags=_fs(
                "-h --help -d --debug -f --force -v --verbose -V --version --stack "
                "--color --no-color --write --no-write"
            ),
            any_dashes=True,
        ),
        "jake": OptionSpec(
            takes_value=_fs("-f --jakefile -C --directory -J --jakelibdir"),
            flags=_fs(
                "-q --quiet -B --always-make -T -t --tasks -h --help -V -v --version "
                "--allow-rejection"
            ),
            long_names=_fs("--ls --ar"),
            bundling=False,
            any_dashes=True,
        ),
        # awk's operands after its program are files it reads (`awk 1 .env` prints it:
        # review EI7); these options take the next word (`-v n=1`, `-F :`)
        **dict.fromkeys(
            ("awk", "gawk", "mawk", "nawk"),
            OptionSpec(
                takes_value=_fs(
                    "-v -F -f -E -e -i -l -W --assign --field-separator --file --exec "
                    "--source --include --load"
                ),
                optional_value=_fs(
                    "-d --dump-variables -D --debug -o --pretty-print -p --profile -L --lint"
                ),
            ),
        ),
        "find": OptionSpec(
            takes_value=_FIND_VALUE,
            single_dash_long=_FIND_VALUE | _FIND_FLAGS,
            terminated=_fs("-exec -execdir -ok -okdir"),
            flags=_FIND_FLAGS,
            bundling=False,
        ),
        "git": OptionSpec(
            takes_value=_fs(
                "-C -c --git-dir --work-tree --namespace --config-env --super-prefix --list-cmds"
            ),
            optional_value=_fs("--exec-path"),
            flags=_fs(
                "-p -P --paginate --no-pager --bare --version --help "
                "--no-replace-objects --literal-pathspecs --no-optional-locks "
                "--glob-pathspecs --noglob-pathspecs --icase-pathspecs --html-path "
                "--man-path --info-path"
            ),
            stop_at_operand=True,
        ),
        "sed": OptionSpec(
            takes_value=_fs("-e --expression -f --file -l --line-length"),
            optional_value=_fs("-i --in-place"),
            flags=_fs(
                "-n --quiet --silent -E -r --regexp-extended -s --separate -u "
                "--unbuffered -z --null-data --debug --posix --sandbox "
                "--follow-symlinks --help --version"
            ),
        ),
        "sort": OptionSpec(
            takes_value=_fs(
                "-k --key -t --field-separator -o --output -T "
                "--temporary-directory -S --buffer-size --parallel --files0-from "
                "--batch-size --compress-program --random-source --sort"
            ),
            flags=_fs(
                "-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --reverse --unique "
                "--check --merge --stable --numeric-sort --human-numeric-sort"
            ),
        ),
        "rg": OptionSpec(
            takes_value=_fs(
                "-e --regexp -f --file -g --glob --iglob -t --type -T --type-not "
                "-A --after-context -B --before-context -C --context -m "
                "--max-count -j --threads -M --max-columns --max-depth -d -E "
                "--encoding -r --replace --pre --pre-glob --type-add --type-clear "
                "--ignore-file --path-separator --sort --sortr --color --colors "
                "--context-separator --field-match-separator "
                "--field-context-separator --max-filesize --engine "
                "--dfa-size-limit --regex-size-limit --generate -V"
            ),
            flags=_fs(
                "-i -s -S -v -w -x -l -c -n -N -H -I -u -uu -uuu -L -F -U -o -p -q -a "
                "-z -0 -b --hidden --files --json --no-ignore --follow --fixed-strings "
                "--multiline --pcre2"
            ),
            # clap 2 drops the `=` of `-g=.env`, `-f=/x` (review EQ5)
            short_equals="all",
        ),
        # fd's table is the policy's (`options fd …`); clap 4 drops one `=` (review EQ5)
        **dict.fromkeys(("fd", "fdfind"), OptionSpec(short_equals="one")),
        "grep": OptionSpec(
            takes_value=_fs(
                "-e --regexp -f --file -m --max-count -A --after-context -B "
                "--before-context -C --context -d --directories -D --devices "
                "--include --exclude --exclude-dir --exclude-from --label "
                "--binary-files --group-separator"
            ),
            optional_value=_fs("--color --colour"),
            flags=_fs(
                "-i -v -w -x -c -l -L -n -h -H -o -q -s -r -R -E -F -G -P -z -Z -a -I "
                "-b -T -U --recursive --dereference-recursive --null --binary"
            ),
        ),
        "tar": OptionSpec(
            takes_value=_fs(
                "-f --file -C --directory -T --files-from -X --exclude-from "
                "--exclude -b --blocking-factor -H --format -I "
                "--use-compress-program --to-command --checkpoint-action --owner "
                "--group --mode --transform --xform -g --listed-incremental -K "
                "--starting-file -L --tape-length -N --newer --after-date -V "
                "--label --strip-components --index-file --rsh-command -F "
                "--info-script --new-volume-script --newer-mtime --suffix --owner-map "
                "--group-map --volno-file"
            ),
            flags=_fs(
                "-c -x -t -r -u -A -d -z -j -J -Z -a -v -k -p -P -h -O -m -W -S -U -w "
                "--create --extract --get --list --append --update --delete --to-stdout "
                "--absolute-names --overwrite --keep-old-files --remove-files --gzip "
                "--bzip2 --xz --zstd --verbose --interactive --unlink-first"
            ),
            bundle_without_dash=True,
        ),
        "xargs": OptionSpec(
            takes_value=_fs(
                "-a --arg-file -d --delimiter -E -I -L -n --max-args "
                "-P --max-procs -s --max-chars --process-slot-var"
            ),
            # as in the wrapper table: `--max-lines` takes a value only with `=` (AZ3)
            optional_value=_fs("-e --eof -i --replace -l --max-lines"),
            flags=_fs(
                "-0 --null -o --open-tty -p --interactive -r --no-run-if-empty -t "
                "--verbose -x --exit --show-limits --help --version"
            ),
            stop_at_operand=True,
        ),
        "rm": OptionSpec(
            optional_value=_fs("--interactive --preserve-root"),
            flags=_fs(
                "-f --force -i -I -r -R --recursive -d --dir -v --verbose "
                "--one-file-system --no-preserve-root --help --version"
            ),
        ),
        # rsync 3.5's popt table (`options.c`, `--help`): popt reads options after the
        # operands too, and drops one `=` of a value glued to a short option (`-T=tmp` is
        # `tmp`). Its `-t` is `--times` and its `-T` `--temp-dir`, not cp's target options
        # (review HF2b: `rsync -rt pl/ docs/` was read as `-t pl/`). rsync takes no
        # abbreviation; the spec's expansion of one is the stricter reading
        "rsync": OptionSpec(
            takes_value=_fs(
                "-B -M -T -e -f -@ --address --backup-dir --block-size --bwlimit --cc "
                "--checksum-choice --checksum-seed --chmod --chown --compare-dest "
                "--compress-choice --compress-level --compress-threads --config "
                "--confine-root --contimeout --copy-as --copy-dest --debug --dparam "
                "--early-input --exclude --exclude-from --files-from --filter --groupmap "
                "--iconv --include --include-from --info --link-dest --log-file "
                "--log-file-format --log-format --max-alloc --max-delete --max-size "
                "--min-size --modify-window --only-write-batch --out-format --outbuf "
                "--partial-dir --password-file --port --protocol --read-batch "
                "--remote-option --rsh --rsync-path --skip-compress --sockopts --stderr "
                "--stop-after --stop-at --suffix --temp-dir --time-limit --timeout "
                "--usermap --write-batch --zc --zl --zt"
            ),
            flags=_fs(
                "-0 -4 -6 -8 -A -C -D -E -F -H -I -J -K -L -N -O -P -R -S -U -V -W -X -a "
                "-b -c -d -g -h -i -k -l -m -n -o -p -q -r -s -t -u -v -x -y -z "
                "--8-bit-output --acls --append --append-verify --archive --atimes --backup "
                "--blocking-io --checksum --copy-devices --copy-dirlinks --copy-links "
                "--copy-unsafe-links --crtimes --cvs-exclude --daemon --del --delay-updates "
                "--delete --delete-after --delete-before --delete-delay --delete-during "
                "--delete-excluded --delete-missing-args --detach --devices --dirs "
                "--drop-D --dry-run --executability --existing --fake-super --force "
                "--from0 --fsync --fuzzy --group --hard-links --help --human-readable "
                "--i-d --i-r --ignore-errors --ignore-existing --ignore-missing-args "
                "--ignore-non-existing --ignore-times --implied-dirs --inc-recursive "
                "--inplace --insecure-links --ipv4 --ipv6 --itemize-changes "
                "--keep-dirlinks --links --list-only --mkpath --motd --msgs2stderr "
                "--munge-links --new-compress --numeric-ids --old-args --old-compress "
                "--old-d --old-dirs --omit-dir-times --omit-link-times --one-file-system "
                "--open-noatime --owner --partial --perms --preallocate --progress "
                "--protect-args --prune-empty-dirs --qsort --quiet --recursive --relative "
                "--remove-sent-files --remove-source-files --safe-links --secluded-args "
                "--sender --server --size-only --sparse --specials --stats --super "
                "--times --trust-sender --update --verbose --version --whole-file "
                "--write-devices --compress --no-D --no-W --no-i-r --no-i-d --xattrs "
                # (the negations rsync 3.5 takes: an option not in the table asks, review HI3)
                "--no-8 --no-8-bit-output --no-A --no-H --no-J --no-N --no-O --no-R --no-S "
                "--no-U --no-X --no-acls --no-append --no-atimes --no-backup "
                "--no-blocking-io --no-bwlimit --no-c --no-checksum --no-compress "
                "--no-contimeout --no-crtimes --no-d --no-delay-updates --no-detach "
                "--no-devices --no-dirs --no-drop-D --no-force --no-from0 --no-fuzzy --no-g "
                "--no-group --no-h --no-hard-links --no-human-readable --no-i --no-iconv "
                "--no-ignore-errors --no-implied-dirs --no-inc-recursive --no-inplace "
                "--no-insecure-links --no-itemize-changes --no-l --no-links --no-m "
                "--no-mkpath --no-motd --no-msgs2stderr --no-munge-links --no-numeric-ids "
                "--no-o --no-old-args --no-omit-dir-times --no-omit-link-times "
                "--no-one-file-system --no-open-noatime --no-owner --no-p --no-partial "
                "--no-perms --no-progress --no-protect-args --no-prune-empty-dirs --no-r "
                "--no-recursive --no-relative --no-s --no-secluded-args --no-sparse "
                "--no-specials --no-super --no-t --no-timeout --no-times --no-v "
                "--no-verbose --no-whole-file --no-write-devices --no-x --no-xattrs --no-y "
                "--no-z"
            ),
            short_equals="one",
        ),
        "curl": OptionSpec(
            takes_value=_fs(
                "-o --output -d --data --data-binary --data-raw --data-urlencode "
                "-H --header -X --request -u --user -A --user-agent -e --referer "
                "-F --form -T --upload-file -x --proxy -b --cookie -c "
                "--cookie-jar -K --config -m --max-time -w --write-out -r --range "
                "-z --time-cond -E --cert --key --cacert --connect-timeout "
                "--retry --url -D --dump-header --output-dir --resolve -Y -y -C "
                "--continue-at -Q --quote --json"
            ),
            flags=_fs(
                "-s --silent -S --show-error -L --location -f --fail -k --insecure -v "
                "--verbose -I --head -O --remote-name -J --remote-header-name -G --get "
                "-i --include -# -N --compressed -n -q -0 -4 -6"
            ),
        ),
    }
)
_GREP = DEFAULT_OPTION_SPECS["grep"]
# the zgrep script (gzip's) reads its words itself: `-[ABCDXdefm]`, `--binary-*`,
# `--file`, `--[lm]a*` and `--reg*` take a value, and any other long option is passed on
# alone, so the word after it is a file (review DE5: `zgrep -e '' --group-separator
# ~/.aws/credentials -n` printed the credentials, read by grep's table as a separator)
_ZGREP = OptionSpec(
    takes_value=_fs(
        "-A -B -C -D -X -d -e -f -m --binary-files --file --label --max-count --regexp"
    ),
    optional_value=_GREP.optional_value,
    flags=_GREP.flags
    | (_GREP.takes_value - _fs("--binary-files --file --label --max-count --regexp"))
    - _fs("-A -B -C -D -d -e -f -m")
    # the script's patterns (`--binary-*`, `--[lm]a*`, `--reg*`) leave these flags, and
    # a flag spelt in full is never read as a prefix of a valued one (review DG1)
    | _fs("--b --bi --bin --bina --binar --binary --f --fi --fil --l --m --r --re"),
)
# grep's other names take grep's options: without them `egrep -f~/.aws/credentials x`
# read `-f~/…` as a flag bundle, and the file went unchecked (review AW3)
DEFAULT_OPTION_SPECS = MappingProxyType(
    dict(DEFAULT_OPTION_SPECS)
    | dict.fromkeys(("egrep", "fgrep", "rgrep"), _GREP)
    | dict.fromkeys(("zgrep", "zegrep", "zfgrep"), _ZGREP)
)


# (a compiled class leaves pickle and copy no blank instance to fill: see `picklable`)
picklable(OptionSpec, Option, OptionView)
