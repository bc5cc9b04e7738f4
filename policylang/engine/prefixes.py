"""Engine helper: the files a program names by joining a prefix to names it makes up.

`split -a 1 -n 4 F CLAUDE.m` writes `CLAUDE.ma` … `CLAUDE.md`; `csplit -f P F 1` writes
`P00`, `P01`; `git checkout-index --prefix=.gi t/hooks/pre-commit` writes
`.git/hooks/pre-commit`; util-linux `rename FROM TO FILE` writes FILE with FROM replaced.
No word of such a command spells the path it writes, so checking each word as a path
sees nothing (review BT6). Here the paths are worked out: exactly where the program
says (`checkout-index`, `rename.ul`), and for split and csplit, whose names depend on how
many pieces the input makes, as the names the prefix and the suffix alphabet allow that
a component of a protected glob also matches: each such name is checked as a write.
"""

from __future__ import annotations

import functools
import re
import string
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policylang.rules.globs import component_tokens
from policylang.shell.model import Word
from policylang.shell.options import OptionSpec, OptionView, option_view


@dataclass(frozen=True, slots=True)
class MadeNames:
    """The paths a command writes under names it makes (as typed, relative to the
    working directory), and why they cannot all be told (None when they can).

    `joined`: for `git checkout-index`, its `--prefix`; then `paths` are the operands,
    and the files written are the prefix (relative to the repository's top folder)
    joined to each operand's path from that top folder."""

    paths: tuple[str, ...]
    unknown: str | None = None
    joined: str | None = None


# a piece of a name: the characters one position may hold, and whether it repeats (any
# number of times, none too)
_Piece = tuple[str, bool]

PREFIX_PROGRAMS: Final = frozenset(
    {"split", "gsplit", "csplit", "gcsplit", "rename", "rename.ul", "prename", "file-rename",
     "perl-rename"}
)  # fmt: skip
_WITNESSES = 32  # names checked per prefix; more that may be protected asks
_WIDENINGS = 4  # suffix widths split reaches unbidden: 2, 4, 6, 8 (past that, 26⁸ pieces)


def makes_names(inner: Sequence[Word]) -> bool:
    """Whether `inner` is a command `made_names` knows (cheap: asked of every segment)."""
    name = inner[0].value if inner else None
    if name == "git":
        return len(inner) > 1 and inner[1].value == "checkout-index"
    return name in PREFIX_PROGRAMS


def made_names(inner: Sequence[Word], protected: Sequence[str]) -> MadeNames | None:
    """What `inner` (a command's words) writes by made names, or None for a command that
    makes none. `protected`: the globs of the protected paths writes are checked against
    (their components are the names worth trying)."""
    name = inner[0].value.rpartition("/")[2] if inner and inner[0].value else ""
    if name in ("split", "gsplit"):
        return _split(inner, protected)
    if name in ("csplit", "gcsplit"):
        return _csplit(inner, protected)
    if name == "rename.ul":
        return _rename_ul(inner)
    if name in PREFIX_PROGRAMS:  # `rename`: perl's on Debian, util-linux's elsewhere
        files = option_view(inner, _PLAIN, start=1).operands[1:]
        return MadeNames(
            tuple(v for i in files if (v := inner[i].value) is not None),
            f"`{name}` makes each new name with a Perl expression (or, where it is "
            "util-linux's, by replacing text): which files it writes cannot be told",
        )
    if name == "git" and len(inner) > 1 and inner[1].value == "checkout-index":
        return _checkout_index(inner)
    return None


def _names(text: str) -> frozenset[str]:
    """Option names from a string of them (a table of words reads best as words)."""
    return frozenset(text.split())


# GNU split (coreutils 9): `split [OPTION]… [FILE [PREFIX]]`
_SPLIT = OptionSpec(
    takes_value=_names(
        "-a --suffix-length -b --bytes -C --line-bytes -l --lines -n --number -t "
        "--separator --additional-suffix --filter"
    ),
    optional_value=frozenset({"--numeric-suffixes", "--hex-suffixes"}),
    flags=_names("-d -x -e --elide-empty-files -u --unbuffered --verbose"),
)
_CSPLIT = OptionSpec(
    takes_value=_names("-b --suffix-format -f --prefix -n --digits"),
    flags=_names(
        "-k --keep-files --suppress-matched -s -q --quiet --silent -z --elide-empty-files"
    ),
)
_CHECKOUT_INDEX = OptionSpec(
    takes_value=frozenset({"--prefix", "--stage"}),
    flags=_names(
        "-u --index -q --quiet -f --force -a --all -n --no-create --temp --stdin -z "
        "--ignore-skip-worktree-bits"
    ),
)
_RENAME_UL = OptionSpec(
    flags=_names(
        "-v --verbose -s --symlink -n --no-act -a --all -l --last -o --no-overwrite "
        "-i --interactive"
    ),
)
_PLAIN = OptionSpec()


def _last(view: OptionView, *names: str) -> tuple[bool, str | None]:
    """(given, value) of the last of the options `names` (value None: not literal)."""
    found = view.find(*names)
    return (True, found[-1].value) if found else (False, None)


def _split(inner: Sequence[Word], protected: Sequence[str]) -> MadeNames:
    view = option_view(inner, _SPLIT, start=1)
    prefix = _operand(inner, view, 1, "x")
    given, length = _last(view, "-a", "--suffix-length")
    extra_given, extra = _last(view, "--additional-suffix")
    if prefix is None or (given and length is None) or (extra_given and extra is None):
        return MadeNames((), "`split` is given a prefix or suffix that is not literal")
    alphabet = string.ascii_lowercase
    if view.has("-d", "--numeric-suffixes"):
        alphabet = string.digits
    if view.has("-x", "--hex-suffixes"):
        alphabet = string.hexdigits[:16]
    if given:  # `-a N`: exactly N characters (split stops when they run out)
        widths = [(0, min(int(length), 8) if length is not None and length.isdigit() else 8)]
    else:
        # two characters, then, as GNU split widens them when they run out, the last
        # character of the alphabet K times before K + 2 more (`yz`, `zaaa` … `zzzz`,
        # `zzaaaa`): `split … out.` never writes `out.pem` (found by the corpus)
        widths = [(k, k + 2) for k in range(_WIDENINGS)]
    made: dict[str, None] = {}
    for fixed, free in widths:
        shape = [(alphabet[-1], False)] * fixed + [(alphabet, False)] * free
        found = _prefixed(prefix, (*shape, *_literal(extra or "")), protected)
        if found.unknown is not None:
            return found
        made.update(dict.fromkeys(found.paths))
    return MadeNames(tuple(made))


def _csplit(inner: Sequence[Word], protected: Sequence[str]) -> MadeNames:
    view = option_view(inner, _CSPLIT, start=1)
    prefix_given, prefix = _last(view, "-f", "--prefix")
    format_given, suffix = _last(view, "-b", "--suffix-format")
    if (prefix_given and prefix is None) or (format_given and suffix is None):
        return MadeNames((), "`csplit` is given a prefix or suffix format that is not literal")
    if suffix is not None and "/" in suffix:
        return MadeNames((), f"`csplit`'s suffix format `{suffix}` names another folder")
    return _prefixed(prefix or "xx", _number_format(suffix or "%02d"), protected)


def _number_format(text: str) -> tuple[_Piece, ...]:
    """csplit's `-b FORMAT`: its text, with the one conversion as a run of the
    characters a number printed by it may hold (none too: `%.0d` prints 0 as nothing)."""
    pieces: list[_Piece] = []
    for literal, flags, letter in re.findall(r"([^%]+|%%)|%([-+ #0'0-9.]*)([a-zA-Z])", text):
        if literal:
            pieces.extend(_literal("%" if literal == "%%" else literal))
        else:
            pieces.append((_CONVERSIONS.get(letter, string.digits) + _flag_chars(flags), True))
    return tuple(pieces)


# the digits csplit's conversions print (it takes d, i, u, o, x and X)
_CONVERSIONS: Final = {"o": string.octdigits, "x": "0123456789abcdef", "X": "0123456789ABCDEF"}


def _flag_chars(flags: str) -> str:
    """What printf's flags add: a sign or blanks (`+`, ` `, `-` with a width), `0x`."""
    added = " +" if any(flag in flags for flag in "+ -") else ""
    return added + ("xX" if "#" in flags else "")


def _literal(text: str) -> list[_Piece]:
    return [(ch, False) for ch in text]


def _operand(inner: Sequence[Word], view: OptionView, index: int, default: str) -> str | None:
    if len(view.operands) <= index:
        return None if view.unknown else default
    return inner[view.operands[index]].value


def _prefixed(prefix: str, suffix: Sequence[_Piece], protected: Sequence[str]) -> MadeNames:
    """The names `prefix` + a suffix of `suffix`'s shape that a component of a
    `protected` glob matches (the shortest of each), and the plainest name of all."""
    return _prefixed_names(prefix, tuple(suffix), tuple(protected))


# (memoised: a search for each of hundreds of glob components made one `split` line
# cost 0.5 to 1.3 ms, and it depends on nothing but these texts)
@functools.lru_cache(maxsize=256)
def _prefixed_names(
    prefix: str, suffix: tuple[_Piece, ...], protected: tuple[str, ...]
) -> MadeNames:
    """`_prefixed`, of hashable arguments."""
    folder, _slash, start = prefix.rpartition("/")
    folder = f"{folder}/" if _slash else ""
    shape = (*_literal(start), *suffix)
    names = dict.fromkeys([_shortest(shape)])
    length = None if any(repeats for _, repeats in shape) else len(shape)
    first = shape[0][0] if shape and not shape[0][1] else None
    for component, fixed, initial in _components(protected):
        if length is not None and fixed is not None and fixed != length:
            continue  # (a quick no for most of hundreds of components: lengths apart)
        if first is not None and initial is not None and initial not in first.lower():
            continue  # (or a first character the other side does not take)
        found = _common_name(component, shape)
        if found is not None:
            names[found] = None
            if len(names) > _WITNESSES:
                return MadeNames(
                    tuple(folder + n for n in names),
                    f"names made from `{prefix}` may be any of many protected paths",
                )
    return MadeNames(tuple(folder + n for n in names))


def _shortest(shape: Sequence[_Piece]) -> str:
    return "".join(chars[0] for chars, repeats in shape if not repeats)


# one character of a glob component: the character itself (in lower case), or a set
_Matcher = str | re.Pattern[str]
_Component = tuple[tuple[_Matcher, bool], ...]


@functools.lru_cache(maxsize=4)
def _components(
    globs: tuple[str, ...],
) -> tuple[tuple[_Component, int | None, str | None], ...]:
    """Every component of the protected globs, tokenised (a `**` is a `*`: the name
    may lie anywhere below a protected folder), with its length when it has no star and
    its first character when that is a literal one (for `_prefixed`'s quick no)."""
    parts = dict.fromkeys(
        "*" if part == "**" else part
        for glob in globs
        for part in glob.split("/")
        if part not in ("", "~", ".", "..")
    )
    found = []
    for part in parts:
        component = tuple(_matcher(t) for t in component_tokens(part))
        fixed = None if any(repeats for _, repeats in component) else len(component)
        head = component[0] if component else None
        initial = head[0] if head is not None and not head[1] and isinstance(head[0], str) else None
        found.append((component, fixed, initial))
    return tuple(found)


def _matcher(token: tuple[str, bool]) -> tuple[_Matcher, bool]:
    """A literal character is compared, a set compiled (most are literal: a one-shot
    process compiling hundreds of regexes cost 90 ms)."""
    regex, repeats = token
    if len(regex) <= 2:  # `a`, `\.`: `re.escape` of one character
        return regex[-1].lower(), repeats
    return re.compile(regex, re.IGNORECASE), repeats


def _takes(matcher: _Matcher, char: str) -> bool:
    if isinstance(matcher, str):
        return matcher == char.lower()
    return matcher.fullmatch(char) is not None


def _common_name(component: _Component, shape: Sequence[_Piece]) -> str | None:
    """The shortest name both the glob `component` (any case: a rule may ignore case,
    which the path check of the name decides) and `shape` allow, spelt as `shape`
    writes it; None when there is none. A search over pairs of positions."""
    end = (len(component), len(shape))
    seen: dict[tuple[int, int], str] = {(0, 0): ""}
    queue = deque([(0, 0)])
    while queue:
        state = queue.popleft()
        if state == end:
            return seen[state]
        for following, char in _steps(component, shape, state):
            if following not in seen:
                seen[following] = seen[state] + char
                queue.append(following)
    return None


def _steps(
    component: _Component, shape: Sequence[_Piece], state: tuple[int, int]
) -> list[tuple[tuple[int, int], str]]:
    """The moves from `state`: past a repeating piece of either side (no character),
    or one character both sides take."""
    i, j = state
    moves: list[tuple[tuple[int, int], str]] = []
    if i < len(component) and component[i][1]:
        moves.append(((i + 1, j), ""))
    if j < len(shape) and shape[j][1]:
        moves.append(((i, j + 1), ""))
    if i < len(component) and j < len(shape):
        token, token_repeats = component[i]
        chars, chars_repeat = shape[j]
        after = (i if token_repeats else i + 1, j if chars_repeat else j + 1)
        if after != state:
            char = next((c for c in chars if _takes(token, c)), None)
            if char is not None:
                moves.append((after, char))
    return moves


def _checkout_index(inner: Sequence[Word]) -> MadeNames | None:
    """`git checkout-index --prefix=P PATH…` writes `P` + each PATH (no `/` added), both
    from the repository's top folder (`git -C sub checkout-index --prefix=x/ f` writes
    `x/sub/f`)."""
    view = option_view(inner, _CHECKOUT_INDEX, start=2)
    given, prefix = _last(view, "--prefix")
    if not given:
        return None
    if prefix is None:
        return MadeNames((), "`git checkout-index --prefix` has no literal value")
    paths = [inner[i].value for i in view.operands]
    known = tuple(p for p in paths if p is not None)
    if view.has("-a", "--all", "--stdin") or len(known) < len(paths) or view.unknown:
        return MadeNames(known, f"writes tracked files under the prefix `{prefix}`", prefix)
    return MadeNames(known, None, prefix)


def _rename_ul(inner: Sequence[Word]) -> MadeNames:
    """util-linux `rename FROM TO FILE…`: each FILE, and its new name. FROM is replaced
    in the file's last component, or in the whole path when FROM or TO holds a `/`
    (util-linux 2.38 `do_file`); once, the last time with `-l`, every time with `-a`."""
    view = option_view(inner, _RENAME_UL, start=1)
    values = [inner[i].value for i in view.operands]
    if len(values) < 3 or any(v is None for v in values) or view.unknown:
        return MadeNames((), "`rename.ul` is given words that are not literal")
    source, target, *files = (v or "" for v in values)
    if view.has("-s", "--symlink"):
        return MadeNames(tuple(files), "`rename.ul -s` changes where links point")
    renamed: list[str] = []
    for file in files:
        whole = "/" in source or "/" in target
        folder, slash, base = ("", "", file) if whole else file.rpartition("/")
        renamed.append(folder + slash + _replaced(base, source, target, view))
    return MadeNames((*files, *renamed))


def _replaced(text: str, source: str, target: str, view: OptionView) -> str:
    if not source or source not in text:
        return text
    if view.has("-a", "--all"):
        return text.replace(source, target)
    if view.has("-l", "--last"):
        head, _found, tail = text.rpartition(source)
        return head + target + tail
    return text.replace(source, target, 1)
