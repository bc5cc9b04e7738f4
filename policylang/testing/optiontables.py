"""Option tables of common tools and their equivalent spellings; pure data and functions.

The generators use these to produce option re-spellings that GNU tools treat the same:
bundled (`-rf`), split (`-r -f`), long (`--recursive --force`), joined or
separate values (`-n5`, `-n 5`, `--lines=5`, `--lines 5`), unambiguous long-option
abbreviations (`--recur`), options after operands (GNU argument permutation: `rm x -rf`)
and an explicit `--` before operands. Options are never reordered among themselves
(`ls -l -1` and `ls -1 -l` differ: the last wins). Only facts checked against GNU coreutils, grep,
sed, tar and curl are listed; a wrong entry would make the invariance tests lie.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolOptions:
    """The options of one tool that the generators may use.

    `flags` maps a short flag letter to its long name (or None when there is no long form);
    `valued` maps a short option letter that takes a value to its long name; `abbrev`
    maps a long name to an unambiguous abbreviation; `permutes` says whether options may
    follow operands (GNU getopt without POSIXLY_CORRECT); `old_style` whether a first
    argument without a `-` is a bundle of options (`tar tzf a.tgz`: review DY6).
    """

    name: str
    flags: Mapping[str, str | None]
    valued: Mapping[str, str | None] = field(default_factory=dict)
    abbrev: Mapping[str, str] = field(default_factory=dict)
    permutes: bool = True
    old_style: bool = False
    operand: str = "file"  # what the operands look like: file, pattern, url, dir


TOOLS: tuple[ToolOptions, ...] = (
    ToolOptions(name="rm", flags={"r": "recursive", "f": "force", "v": "verbose", "d": "dir"},
                abbrev={"recursive": "recur", "force": "forc"}),
    ToolOptions(name="ls", flags={"l": None, "a": "all", "h": "human-readable", "R": "recursive",
                                  "r": "reverse", "1": None}, operand="dir"),
    ToolOptions(name="grep", flags={"i": "ignore-case", "r": "recursive", "n": "line-number",
                                    "v": "invert-match", "c": "count",
                                    "l": "files-with-matches"},
                valued={"e": "regexp", "m": "max-count"}, abbrev={"ignore-case": "ignore"},
                operand="pattern"),
    ToolOptions(name="cp", flags={"r": "recursive", "f": "force", "v": "verbose",
                                  "n": "no-clobber"}, abbrev={"recursive": "recur"}),
    ToolOptions(name="mv", flags={"f": "force", "v": "verbose", "n": "no-clobber"}),
    ToolOptions(name="sort", flags={"r": "reverse", "n": "numeric-sort", "u": "unique"},
                valued={"o": "output", "k": "key", "t": "field-separator"},
                abbrev={"reverse": "rev"}),
    ToolOptions(name="head", flags={"q": "quiet"}, valued={"n": "lines", "c": "bytes"}),
    ToolOptions(name="tail", flags={"q": "quiet"}, valued={"n": "lines", "c": "bytes"}),
    ToolOptions(name="sed", flags={"n": "quiet", "E": "regexp-extended"},
                valued={"e": "expression"}, operand="file"),
    ToolOptions(name="tar", flags={"c": "create", "x": "extract", "z": "gzip", "v": "verbose",
                                   "t": "list"}, valued={"f": "file"}, permutes=False,
                old_style=True),
    ToolOptions(name="curl", flags={"s": "silent", "L": "location", "f": "fail",
                                    "k": "insecure"},
                valued={"o": "output", "X": "request", "H": "header", "d": "data"},
                operand="url"),
    ToolOptions(name="chmod", flags={"R": "recursive", "v": "verbose"}, operand="mode"),
    ToolOptions(name="wc", flags={"l": "lines", "w": "words", "c": "bytes"}),
    ToolOptions(name="du", flags={"s": "summarize", "h": "human-readable"}, operand="dir"),
    ToolOptions(name="cut", flags={"s": "only-delimited"},
                valued={"d": "delimiter", "f": "fields"}),
    ToolOptions(name="mkdir", flags={"p": "parents", "v": "verbose"}, operand="dir"),
    ToolOptions(name="tee", flags={"a": "append"}),
    ToolOptions(name="ln", flags={"s": "symbolic", "f": "force", "v": "verbose"}),
)

TOOLS_BY_NAME: Mapping[str, ToolOptions] = {t.name: t for t in TOOLS}


@dataclass(frozen=True, slots=True, kw_only=True)
class Invocation:
    """A tool call in canonical form: flags, valued options and plain-spellable operands."""

    tool: ToolOptions
    flags: tuple[str, ...]  # short letters, no repeats
    valued: tuple[tuple[str, str], ...]  # (short letter, value); values are plain words
    operands: tuple[str, ...]

    def canonical(self) -> tuple[str, ...]:
        """The argv with every option split and short, values separate, operands last."""
        argv = [self.tool.name, *(f"-{f}" for f in self.flags)]
        for letter, value in self.valued:
            argv += [f"-{letter}", value]
        return (*argv, *self.operands)


@dataclass(frozen=True, slots=True, kw_only=True)
class SpellingChoice:
    """How to write an `Invocation`; every combination means the same command."""

    bundle: bool = False  # all short flags in one word
    long_flags: frozenset[str] = frozenset()  # flags written in long form (if they have one)
    abbreviate: bool = False  # use a listed abbreviation for long forms
    value_style: str = "separate"  # separate | joined | long-separate | long-equals
    options_last: bool = False  # GNU permutation: operands first
    double_dash: bool = False  # `--` before the operands (when they do not start with -)


def _long(tool: ToolOptions, name: str, abbreviate: bool) -> str:
    return "--" + (tool.abbrev.get(name, name) if abbreviate else name)


def _flag_words(inv: Invocation, choice: SpellingChoice) -> list[str]:
    # INVARIANT: the order of options is kept (some override each other: `ls -l -1`);
    # bundling only merges runs of adjacent short flags
    words: list[str] = []
    run = ""
    for flag in inv.flags:
        name = inv.tool.flags.get(flag)
        if flag in choice.long_flags and name is not None:
            if run:
                words.append("-" + run)
                run = ""
            words.append(_long(inv.tool, name, choice.abbreviate))
        elif choice.bundle:
            run += flag
        else:
            words.append(f"-{flag}")
    if run:
        words.append("-" + run)
    return words


def _valued_words(inv: Invocation, choice: SpellingChoice) -> list[list[str]]:
    groups: list[list[str]] = []
    for letter, value in inv.valued:
        name = inv.tool.valued.get(letter)
        style = choice.value_style if name is not None else "separate"
        match style:
            case "joined":
                groups.append([f"-{letter}{value}"])
            case "long-separate":
                groups.append([_long(inv.tool, str(name), choice.abbreviate), value])
            case "long-equals":
                groups.append([f"{_long(inv.tool, str(name), choice.abbreviate)}={value}"])
            case _:
                groups.append([f"-{letter}", value])
    return groups


def respell(inv: Invocation, choice: SpellingChoice) -> tuple[str, ...]:
    """The argv of `inv` written as `choice` says (same meaning for the GNU tool)."""
    groups = [[w] for w in _flag_words(inv, choice)] + _valued_words(inv, choice)
    options = [w for g in groups for w in g]
    operands = list(inv.operands)
    if inv.tool.old_style and not options and operands and not operands[0].startswith("-"):
        # `tar tzf a.tgz`: the first argument is options, old style; `tar -- tzf a.tgz`
        # reads `tzf` as a member's name, not a respelling (review DY6)
        return (inv.tool.name, *operands)
    safe_dd = choice.double_dash and not choice.options_last
    if safe_dd and all(not o.startswith("-") for o in operands):
        operands = ["--", *operands]
    if choice.options_last and inv.tool.permutes and operands:
        return (inv.tool.name, *operands, *options)
    return (inv.tool.name, *options, *operands)


def respellings(inv: Invocation, choices: Sequence[SpellingChoice]) -> tuple[tuple[str, ...], ...]:
    """`respell` for each choice, canonical first, duplicates dropped."""
    seen: dict[tuple[str, ...], None] = {inv.canonical(): None}
    for choice in choices:
        seen.setdefault(respell(inv, choice))
    return tuple(seen)


def parse_invocation(words: Sequence[str]) -> Invocation | None:
    """`words` as an `Invocation` of a known tool when every option is one of its short
    flags or valued options (bundles split, long names mapped back), else None: the
    policy's own `deny rm -rf /srv` becomes `rm -r -f /srv`, to be respelled."""
    tool = TOOLS_BY_NAME.get(words[0]) if words else None
    if tool is None:
        return None
    longs = {name: letter for letter, name in (*tool.flags.items(), *tool.valued.items())
             if name}
    flags: list[str] = []
    valued: list[tuple[str, str]] = []
    operands: list[str] = []
    rest = list(words[1:])
    while rest:
        word = rest.pop(0)
        if word.startswith("--") and word[2:] in longs:
            letter = longs[word[2:]]
            if letter in tool.valued:
                if not rest:
                    return None
                valued.append((letter, rest.pop(0)))
            elif letter not in flags:
                flags.append(letter)
        elif word.startswith("-") and len(word) > 1 and not word.startswith("--"):
            for index, letter in enumerate(word[1:], 1):
                if letter in tool.valued:
                    value = word[index + 1 :] or (rest.pop(0) if rest else "")
                    if not value:
                        return None
                    valued.append((letter, value))
                    break
                if letter not in tool.flags:
                    return None
                if letter not in flags:
                    flags.append(letter)
        elif word.startswith("-"):
            return None
        else:
            operands.append(word)
    if not operands:
        return None
    return Invocation(tool=tool, flags=tuple(flags), valued=tuple(valued),
                      operands=tuple(operands))
