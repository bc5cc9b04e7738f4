"""Glob translation shared by patterns, operands and protected paths; imports nothing.

`*`, `?` and `[…]` match within one path component (they never match `/`); a `**`
component matches any number of components. Used for word globs in patterns (`test:*`),
`operand` clauses and protected paths, so one word means one thing everywhere.

>>> bool(glob_regex("src/*.py").fullmatch("src/a.py"))
True
>>> bool(glob_regex("src/*").fullmatch("src/a/b"))
False
>>> bool(glob_regex("**/.env*").fullmatch("a/b/.env.local"))
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

# flags a policy's regexes may carry: none that prints (`re.DEBUG` wrote to a hook's stdout,
# review M8) or changes the syntax (`re.VERBOSE`)
REGEX_FLAGS: Final = re.IGNORECASE | re.DOTALL | re.UNICODE | re.MULTILINE
_COMPILED_ON_USE: Final = frozenset({"fullmatch", "match", "search", "_compiled"})


class LazyRegex:
    """A regex compiled when first used, with the `re.Pattern` methods the rules use.

    WHY: a policy holds hundreds of glob regexes, and a one-shot process (a hook call)
    loads the policy, evaluates one command and exits; compiling them all at load cost
    more than the rest of the load, and most are never tried (the rules of one anchor are
    first matched as one alternation, `compiler.paths`). Once compiled, `fullmatch`,
    `match` and `search` are the compiled pattern's own bound methods, stored in the
    instance: no Python call is added on the hot path. A pattern that fails to compile
    raises `re.error` at first use; policy validation compiles every glob first
    (`glob_problem`).

    >>> regex = LazyRegex("a.*b")
    >>> bool(regex.fullmatch("axxb")), regex.pattern
    (True, 'a.*b')
    """

    __slots__ = ("_compiled", "flags", "fullmatch", "match", "pattern", "search")

    pattern: str
    flags: int
    fullmatch: Callable[[str], re.Match[str] | None]
    match: Callable[[str], re.Match[str] | None]
    search: Callable[[str], re.Match[str] | None]
    _compiled: re.Pattern[str]

    def __init__(self, pattern: str, flags: int = 0) -> None:
        _check_plain(pattern, flags)  # here: a snapshot builds these through this constructor
        self.pattern = pattern
        self.flags = int(flags)  # not `re.RegexFlag`, which a snapshot may not name

    def __getattr__(self, name: str) -> Any:
        # only reached while a slot is unset: before the first use
        if name not in _COMPILED_ON_USE:
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self.flags)
        self._compiled = compiled
        self.fullmatch = compiled.fullmatch
        self.match = compiled.match
        self.search = compiled.search
        return getattr(self, name)

    def __reduce__(self) -> tuple[type[LazyRegex], tuple[str, int]]:
        return (LazyRegex, (self.pattern, self.flags))

    def __setstate__(self, state: object) -> None:
        # a pickle of ours calls the constructor (`__reduce__`); one that sets the slots
        # directly skipped its flag check (review BF5: `re.DEBUG` from a forged snapshot)
        raise TypeError("a LazyRegex is built from its pattern and flags only")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LazyRegex):
            return NotImplemented
        return (self.pattern, self.flags) == (other.pattern, other.flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r}, {self.flags!r})"


def _check_plain(pattern: object, flags: object) -> None:
    if not isinstance(pattern, str) or not isinstance(flags, int) or flags & ~REGEX_FLAGS:
        raise ValueError(f"a policy regex with unexpected flags or type: {pattern!r}")


def glob_regex(glob: str) -> LazyRegex:
    """Translate a path glob (`*`, `?`, `[…]`, `**` components) to a full-match regex.

    The glob is cut at its `**` components into runs of ordinary components. The last run
    is anchored at the end of the path; every run between two `**` is found at its
    earliest place and kept there (an atomic group). Earliest is never wrong: a later `**`
    can swallow whatever lies between two places, so the earliest leaves the most room for
    the rest. Without that, three `**` took seconds on a deep path (review M12).
    """
    runs = _runs(glob.split("/"))
    regex = ["/".join(_component(part) for part in runs[0])]
    for index, run in enumerate(runs[1:], start=1):
        leading = index == 1 and not runs[0]  # the glob starts with `**`
        body = "/".join(_component(part) for part in run)
        if not run:  # the glob ends with `**` (runs of `**` are one, so only the last)
            regex.append(".*" if leading else "(?:/.*)?")
        elif index < len(runs) - 1:  # another `**` follows: earliest place, kept
            skip = "(?:.*?/)??" if leading else "(?:/.*?)??/"
            regex.append(f"(?>{skip}{body}(?=/|\\Z))")
        else:  # the last run ends the path
            regex.append(f"(?:.*/)?{body}" if leading else f"(?:/.*)?/{body}")
    return LazyRegex("".join(regex), re.DOTALL)


def _runs(parts: list[str]) -> list[list[str]]:
    """The components between `**` components; `**/**` means what `**` means.

    >>> _runs(["a", "**", "**", "b", "c", "**"])
    [['a'], ['b', 'c'], []]
    """
    runs: list[list[str]] = [[]]
    for index, part in enumerate(parts):
        if part != "**":
            runs[-1].append(part)
        elif index == 0 or parts[index - 1] != "**":
            runs.append([])
    return runs


def glob_problem(glob: str) -> str | None:
    """Why `glob` cannot be used, or None: a bracket set this translation would not mean
    as a shell does (POSIX classes, empty sets, reversed ranges)."""
    for part in glob.split("/"):
        i = 0
        while i < len(part):
            if part[i] == "[" and (close := _set_end(part, i)) > 0:
                body = part[i + 1 : close]
                if "[:" in body or "[=" in body or "[." in body:
                    return (f"`{glob}`: character classes such as `[[:alpha:]]` are not "
                            "supported; write the set out, e.g. `[a-zA-Z]`")
                i = close
            i += 1
    try:
        re.compile(glob_regex(glob).pattern, re.DOTALL)
    except re.error as error:
        return f"`{glob}`: not a valid bracket set ({error.msg})"
    return None


def _set_end(part: str, start: int) -> int:
    """Index of the `]` closing the set opened at `start`, or -1 (then `[` is a literal).
    A `]` right after `[` or `[!` belongs to the set, as in the shell."""
    first = start + 2 if part[start + 1 : start + 2] in ("!", "^") else start + 1
    return part.find("]", first + 1)


def _component(part: str) -> str:
    """One path component as a regex that cannot backtrack catastrophically.

    The component is split at its stars into fixed-width chunks. Every chunk between two
    stars is found at its earliest place and kept there (an atomic group): with fixed-width
    chunks and stars that match any run of the component, the earliest place always
    leaves the most room for the rest, so no match is lost. A plain `[^/]*` per star let
    `a*a*a*a*b` take minutes on a long word (review K5).
    """
    chunks: list[list[str]] = [[]]
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            if chunks[-1] or len(chunks) == 1:
                chunks.append([])  # runs of stars are one star
        elif ch == "?":
            chunks[-1].append("[^/]")
        elif ch == "[" and (close := _set_end(part, i)) > 0:
            chunks[-1].append(_bracket(part[i + 1 : close]))
            i = close
        else:
            chunks[-1].append(re.escape(ch))
        i += 1
    if len(chunks) == 1:
        return "".join(chunks[0])
    first, *middle, last = ("".join(chunk) for chunk in chunks)
    return first + "".join(f"(?>[^/]*?{chunk})" for chunk in middle if chunk) + "[^/]*" + last


def _bracket(body: str) -> str:
    """A shell bracket set as a regex set; it never matches `/`, like `?`.

    `[!…]` and `[^…]` both negate, as in bash. The `/` is excluded by a lookahead, not
    added to the set, where it could start a range (`[!-x]` is not `[^/-x]`).
    """
    negated = body[:1] in ("!", "^")
    if negated:
        body = body[1:]
    body = body.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    if body.startswith("^"):
        body = "\\" + body  # a literal caret, not a negation
    # a positive set never holds `/`: globs are split into components first
    return f"(?!/)[^{body}]" if negated else f"[{body}]"


def component_tokens(part: str) -> tuple[tuple[str, bool], ...]:
    """One path component of a glob as tokens `(regex of one character, repeats)`: a
    star is `([^/], True)`, any other piece matches one character. For reasoning about
    names a glob may match (`engine.prefixes`), where a regex cannot be walked.

    >>> component_tokens("a*[!x]")
    (('a', False), ('[^/]', True), ('(?!/)[^x]', False))
    """
    tokens: list[tuple[str, bool]] = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            if not tokens or tokens[-1] != ("[^/]", True):  # runs of stars are one star
                tokens.append(("[^/]", True))
        elif ch == "?":
            tokens.append(("[^/]", False))
        elif ch == "[" and (close := _set_end(part, i)) > 0:
            tokens.append((_bracket(part[i + 1 : close]), False))
            i = close
        else:
            tokens.append((re.escape(ch), False))
        i += 1
    return tuple(tokens)
