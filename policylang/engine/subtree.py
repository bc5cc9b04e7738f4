"""Engine stage: what a recursive read of a directory reaches; touches the file system only.

`grep -r key .` reads every file below `.`. Protected globs such as `**/.env` name files
that may exist anywhere in that tree, so whether the read reaches one is a question about
the tree, not about the text. `scan` lists the tree, bounded: past `budget` entries it
stops and says so (the caller then asks rather than guess).

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> os.makedirs(f"{root}/src/.cache"); open(f"{root}/src/.env", "w").close()
>>> found = scan(root, hidden=True, budget=100)
>>> sorted(p[len(root):] for p in found.entries), found.complete
(['/src', '/src/.cache', '/src/.env'], True)
>>> sorted(p[len(root):] for p in scan(root, hidden=False, budget=100).entries)
['/src']
>>> scan(root, hidden=True, budget=2).complete
False
"""

from __future__ import annotations

import functools
import os
import re
import stat
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from policylang.engine.paths import Stamp, folder_stamp, owned, settled

__all__ = [
    "IGNORE_FILES", "RUST_WHITESPACE", "TreeScan", "git_excludes", "rg_glob",
    "rg_global_ignores", "rg_trimmed", "scan", "scan_names", "whitelisted",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class TreeScan:
    """The entries below a directory (absolute paths), its links and whether all were seen.

    `links` pairs each symbolic link with the real path it points to; links are listed
    but not followed (a reader that follows them reaches their targets, which the caller
    checks on their own).
    """

    entries: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    complete: bool
    # ignore files met (listed even when hidden), a repository's `.git/info/exclude` too
    ignore_files: tuple[str, ...] = ()
    # whether a `.git` was met whose exclude file cannot be told as rg finds it (a link,
    # a `gitdir:` relative to rg's working folder where that is not known: review EA1):
    # every hidden name counts
    unsure: bool = False
    # regular files that share an inode number (hard links), each group with whether the
    # scan listed each name: a hidden `.env` a reader skips is still in its group, so a
    # `leak.py` linked to it reads as that file (review FY4)
    shared: tuple[tuple[tuple[str, bool], ...], ...] = ()
    # each regular file's inode number (the listing's `d_ino`: no `stat`), with the first
    # name met and whether it was listed (the others are in `shared`): a name here on the
    # inode of a protected file elsewhere reads that file (review GJ6)
    inodes: Mapping[int, tuple[str, bool]] | None = None
    # whether a folder was passed over because this process cannot list it (what lies
    # there cannot be told: review GJ6)
    blind: bool = False


def scan(
    root: str,
    *,
    hidden: bool,
    budget: int,
    skip: frozenset[str] = frozenset(),
    admit: tuple[str, ...] = (),
    cwds: Sequence[str] = (),
) -> TreeScan:
    """Every entry below directory `root`, depth first, at most `budget` of them.

    Args:
        root: an absolute directory path.
        hidden: whether to list names starting with `.` (and descend into such
            directories); `rg` and `ag` skip them unless told otherwise.
        budget: the most entries to list; one more makes the scan incomplete.
        skip: names of directories listed but not descended into.
        admit: globs of the hidden names listed all the same (a reader's whitelist:
            `rg -g '*.json'` reads `.env.json`), case aside.
        cwds: the reader's working folder (each it may be), from which rg takes a
            relative `gitdir:` (`git_excludes`).

    A directory that cannot be read is skipped, as the reader would skip it.

    A complete listing is kept with the stamp of every folder it listed (`paths.
    folder_stamp`, taken before the folder was listed): making, removing or renaming an
    entry anywhere in the tree changes its folder's stamp, and a folder moved, replaced
    or mounted over gets another device, inode or change time. Kept only where every
    folder had settled (`paths.settled`), and checked folder by folder on each use (a
    `grep -r` of a checkout: a `stat` a folder instead of a listing and a look at each
    entry). Where the links lead, and the exclude files a `.git` names, are looked up
    again each time (with `cwds`, which is no part of the listing): they depend on more
    than the tree's folders.
    """
    key = (root, hidden, budget, skip, admit)
    kept = _KEPT_SCANS.get(key)
    if kept is not None and _unchanged(kept.folders):
        return _revived(kept, cwds)
    read_at = time.time_ns()
    found, kept = _scan(root, hidden=hidden, budget=budget, skip=skip, admit=admit, cwds=cwds)
    if kept is not None and all(settled(stamp, read_at) for _folder, stamp in kept.folders):
        if len(_KEPT_SCANS) >= _MAX_KEPT_SCANS:
            _KEPT_SCANS.clear()
        _KEPT_SCANS[key] = kept
    return found


def scan_names(
    root: str, *, hidden: bool, budget: int, skip: frozenset[str] = frozenset(), keep: bool = True
) -> TreeScan:
    """`scan`, for a caller that wants the names and inodes alone: a kept listing is
    checked by its folders' stamps as there, but where its links lead and the exclude
    files its `.git` entries name are not looked up again (`links` and `ignore_files`
    empty): the protected files' inodes of a workspace, for each recursive read
    (review GJ6). Without `keep`, the listing is neither looked for nor kept (a caller
    that keeps what it found for a while itself: the home's protected folders, many of
    which would push the trees of the lines out of the few listings kept)."""
    if not keep:
        return _scan(root, hidden=hidden, budget=budget, skip=skip, admit=(), cwds=())[0]
    kept = _KEPT_SCANS.get((root, hidden, budget, skip, ()))
    if kept is not None and _unchanged(kept.folders):
        return TreeScan(kept.entries, (), True, (), False, kept.shared, kept.inodes, kept.blind)
    return scan(root, hidden=hidden, budget=budget, skip=skip)


@dataclass(frozen=True, slots=True)
class _KeptScan:
    """A complete listing of a tree, as `scan` keeps it (see there)."""

    folders: tuple[tuple[str, Stamp], ...]  # every folder listed, with its stamp
    entries: tuple[str, ...]
    link_paths: tuple[str, ...]
    # the ignore files and `.git` entries met, in order: (True, a `.git`) whose exclude
    # files are looked up again, (False, an ignore file) kept as is
    ignore_sources: tuple[tuple[bool, str], ...]
    # (a name's inode changes only with its folder, whose stamp is kept: review FY4)
    shared: tuple[tuple[tuple[str, bool], ...], ...] = ()
    inodes: Mapping[int, tuple[str, bool]] | None = None
    blind: bool = False


_KEPT_SCANS: dict[tuple[str, bool, int, frozenset[str], tuple[str, ...]], _KeptScan] = {}
_MAX_KEPT_SCANS: Final = 16


def _unchanged(folders: tuple[tuple[str, Stamp], ...]) -> bool:
    return all(folder_stamp(folder) == stamp for folder, stamp in folders)


def _revived(kept: _KeptScan, cwds: Sequence[str]) -> TreeScan:
    """The `TreeScan` of a kept listing whose folders are unchanged."""
    links = tuple((path, os.path.realpath(path)) for path in kept.link_paths)
    ignores: list[str] = []
    unsure = False
    for is_git, path in kept.ignore_sources:
        if is_git:
            excludes = git_excludes(path, cwds)
            unsure = unsure or excludes is None
            ignores.extend(excludes or ())
        else:
            ignores.append(path)
    return TreeScan(
        kept.entries, links, True, tuple(ignores), unsure, kept.shared, kept.inodes, kept.blind
    )


def _scan(
    root: str,
    *,
    hidden: bool,
    budget: int,
    skip: frozenset[str],
    admit: tuple[str, ...],
    cwds: Sequence[str],
) -> tuple[TreeScan, _KeptScan | None]:
    """`scan`'s listing, and what to keep of it (None: not complete, or a folder's stamp
    could not be taken)."""
    entries: list[str] = []
    links: list[tuple[str, str]] = []
    ignores: list[str] = []
    sources: list[tuple[bool, str]] = []
    folders: list[tuple[str, Stamp]] | None = []
    unsure = False
    blind = False
    inodes = _Inodes()
    pending = [root]
    while pending:
        directory = pending.pop()
        # (before the listing: a change made while it is read gets a stamp of its own)
        stamp = folder_stamp(directory)
        if stamp is None:
            folders = None
        elif folders is not None:
            folders.append((directory, stamp))
        try:
            with os.scandir(directory) as listing:
                children = list(listing)
        except PermissionError:
            if owned(directory):
                # the agent's own folder, which an earlier command may open again
                # (`chmod 700 app && grep -r x .`: review DA3): not seen, so not complete
                return TreeScan(tuple(entries), tuple(links), False, tuple(ignores), unsure), None
            blind = True
            continue  # the reader cannot go there either (a `chmod` changes its stamp)
        except (FileNotFoundError, NotADirectoryError):
            folders = None  # (gone while the tree was read)
            continue
        except (OSError, ValueError):
            # a directory the reader can reach but this scan cannot (a path longer than
            # PATH_MAX, which `grep -r` walks relative to its parent: review H7)
            return TreeScan(tuple(entries), tuple(links), False, tuple(ignores), unsure), None
        for child in children:
            if child.name in IGNORE_FILES:
                ignores.append(child.path)
                sources.append((False, child.path))
            elif child.name == ".git":
                excludes = git_excludes(child.path, cwds)
                unsure = unsure or excludes is None
                ignores.extend(excludes or ())
                sources.append((True, child.path))
            if not hidden and child.name.startswith(".") and not _admitted(child.name, admit):
                inodes.note(child, listed=False)
                continue
            inodes.note(child, listed=True)
            if len(entries) >= budget:
                return TreeScan(tuple(entries), tuple(links), False, tuple(ignores), unsure), None
            entries.append(child.path)
            try:
                if child.is_symlink():
                    links.append((child.path, os.path.realpath(child.path)))
                elif child.is_dir(follow_symlinks=False) and child.name not in skip:
                    pending.append(child.path)
            except (OSError, ValueError):
                folders = None  # (an entry whose kind could not be told: not kept)
                continue
    shared = inodes.shared()
    found = TreeScan(
        tuple(entries), tuple(links), True, tuple(ignores), unsure, shared, inodes.first, blind
    )
    if folders is None:
        return found, None
    kept = _KeptScan(
        folders=tuple(folders),
        entries=found.entries,
        link_paths=tuple(path for path, _target in links),
        ignore_sources=tuple(sources),
        shared=shared,
        inodes=inodes.first,
        blind=blind,
    )
    return found, kept


class _Inodes:
    """The inode numbers of a tree's regular files, as its listing gives them (no `stat`:
    `d_ino`, `d_type`), to find the names that share one (review FY4). Numbers of files
    on different devices may meet; the caller compares `lstat` results."""

    __slots__ = ("first", "groups")

    def __init__(self) -> None:
        self.first: dict[int, tuple[str, bool]] = {}
        self.groups: dict[int, list[tuple[str, bool]]] = {}

    def note(self, child: os.DirEntry[str], *, listed: bool) -> None:
        try:
            if not child.is_file(follow_symlinks=False):
                return
            number = child.inode()
        except (OSError, ValueError):
            return  # (the scan itself treats this entry as the reader would)
        entry = (child.path, listed)
        seen = self.first.get(number)
        if seen is None:
            self.first[number] = entry
        else:
            self.groups.setdefault(number, [seen]).append(entry)

    def shared(self) -> tuple[tuple[tuple[str, bool], ...], ...]:
        return tuple(tuple(group) for group in self.groups.values())


# the files in which rg and ag read ignore patterns, whose `!` lines re-include files
IGNORE_FILES = frozenset({".gitignore", ".ignore", ".rgignore", ".agignore"})


def _admitted(name: str, admit: tuple[str, ...]) -> bool:
    """Whether a whitelist glob admits `name`, as written or case aside (`--iglob`): the
    two together, since folding the case of a negated class (`[!E]`) changes what it
    excludes (review DI1). Matched on the name's bytes, as globset's `(?-u)` expressions
    are (a `?` is one byte); a glob that cannot be told admits every name."""
    raw = name.encode("utf-8", "surrogateescape").decode("latin-1")
    for glob in admit:
        matchers = rg_glob(glob)
        if matchers is None or any(m.fullmatch(raw) for m in matchers):
            return True
    return False


@functools.lru_cache(maxsize=512)
def rg_glob(glob: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """A ripgrep glob (`-g`, `--iglob`, a type's, an ignore file's `!` line) without `/`,
    as globset 0.4 (ripgrep 13) reads it, for names given as Latin-1 text of their UTF-8
    bytes: the expression as written and the one case aside, folded as Rust's `(?i)`
    folds (each member of a class gets its ASCII other case, so `[E-_]` holds `e`:
    review EQ4). Braces are split at the commas outside a class (review EQ3: `{.[e,]nv}`
    had been split inside `[e,]` and matched nothing), a `}` with no `{` matches nothing,
    as globset's does (`.e}nv` is `.env`), and `[^x]` negates as `[!x]` does (review
    DH1).

    None where rg's reading cannot be told here or rg rejects the glob (the caller then
    admits every name): a `\\` escape (review DI1), nested or unclosed braces, an
    unclosed class or a reversed range, a class with a character beyond ASCII (globset
    writes it as bytes).

    >>> [bool(m.fullmatch(".env")) for m in rg_glob("{.[e,]nv,x}")]
    [True, True]
    >>> [bool(m.fullmatch(".env")) for m in rg_glob(".[E-_]nv")]
    [False, True]
    >>> rg_glob("{a,{b}}") is None, rg_glob(".[z-a]") is None, rg_glob("a\\\\b") is None
    (True, True, True)
    """
    if "\\" in glob:
        return None
    plain: list[str] = []
    folded: list[str] = []
    in_braces = False
    index = 0
    while index < len(glob):
        char = glob[index]
        index += 1
        if char == "[":
            parsed = _class(glob, index)
            if parsed is None:
                return None
            index, negated, members = parsed
            plain.append(_class_regex(members, negated))
            folded.append(_class_regex(members | _swapped(members), negated))
            continue
        if char == "{":
            if in_braces:
                return None  # (globset 0.4: nested alternate groups are an error)
            in_braces = True
            piece = "(?:"
        elif char == "}":
            piece = ")" if in_braces else ""
            in_braces = False
        elif char == "," and in_braces:
            piece = "|"
        elif char == "?":
            piece = "[^/]"
        elif char == "*":
            piece = "[^/]*"
        else:
            raw = char.encode("utf-8").decode("latin-1")
            plain.append(re.escape(raw))
            folded.append(_folded_literal(raw))
            continue
        plain.append(piece)
        folded.append(piece)
    if in_braces:
        return None  # (an unclosed alternate group: rg rejects the glob)
    return re.compile("".join(plain), re.DOTALL), re.compile("".join(folded), re.DOTALL)


def _class(glob: str, index: int) -> tuple[int, bool, frozenset[int]] | None:
    """The class that opens before `glob[index]`, as globset parses one: a leading `!` or
    `^` negates, a `]` or `-` first is a member, a `-` last is one too, a `-` after a
    range extends that range (`[a-c-e]` is `[a-e]`); `{`, `,` and `}` are plain members.
    Returns the index after its `]`, whether it is negated and its members (code
    points); None where it is unclosed, holds a reversed range or a character beyond
    ASCII."""
    negated = glob[index : index + 1] in ("!", "^")
    index += negated
    ranges: list[list[int]] = []
    first = True
    in_range = False
    while index < len(glob):
        char = glob[index]
        index += 1
        code = ord(char)
        if code > 0x7F:
            return None
        if char == "]" and not first:
            if in_range:
                ranges.append([ord("-"), ord("-")])
            members = frozenset(m for low, high in ranges for m in range(low, high + 1))
            return index, negated, members
        if char == "-" and not first and not in_range:
            in_range = True
        elif in_range:
            if code < ranges[-1][0]:
                return None  # (rg: invalid range)
            ranges[-1][1] = code
            in_range = False
        else:
            ranges.append([code, code])
        first = False
    return None


def _swapped(members: frozenset[int]) -> frozenset[int]:
    """The other ASCII case of each letter among `members`."""
    letters = (chr(m) for m in members if chr(m).isascii() and chr(m).isalpha())
    return frozenset(ord(letter.swapcase()) for letter in letters)


def _class_regex(members: frozenset[int], negated: bool) -> str:
    """A class of bytes (Latin-1 characters) holding `members`, or every other byte."""
    chosen = set(range(256)) - members if negated else members
    return "[" + "".join(f"\\x{m:02x}" for m in sorted(chosen)) + "]"


def _folded_literal(char: str) -> str:
    """`char` as Rust's `(?i)` matches it: an ASCII letter in either case."""
    if char.isascii() and char.isalpha():
        return f"[{char.lower()}{char.upper()}]"
    return re.escape(char)


def whitelisted(
    found: TreeScan, root: str, extra: Sequence[str] = (), cwds: Sequence[str] = ()
) -> tuple[str, ...] | bool:
    """The names an ignore file in the tree, or in any directory above `root` up to `/`,
    re-includes (`!pattern`): rg and ag then read the hidden files those match. rg reads
    `.ignore` and `.rgignore` in every parent and `.gitignore` up to the repository's top,
    which may lie above the workspace (review DE4: a monorepo's `!.env`), the `info/exclude`
    of each repository it meets or is in, and the files of `extra` (git's global ignore
    file, `--ignore-file`'s: closing 28). Only the `!` lines count (review DG8: any line of
    a parent's had made every hidden file count).

    True (every hidden name) for a pattern with a `/` inside, a file that cannot be read
    or is larger than what is read (review EA3), or a `.git` whose exclude file cannot be
    told (`git_excludes`: the check fails closed); an empty tuple where none re-includes
    anything. The ignore files inside the hidden folders the names admit are not in
    `found`: the caller scans again with them admitted and asks again (review EA2).
    """
    if found.unsure:
        return True
    admitted: list[str] = []
    candidates = list(found.ignore_files)
    directory = root
    while True:
        excludes = git_excludes(os.path.join(directory, ".git"), cwds)
        if excludes is None:
            return True
        candidates.extend(excludes)
        if directory == os.path.dirname(directory):
            break
        directory = os.path.dirname(directory)
        candidates.extend(os.path.join(directory, name) for name in sorted(IGNORE_FILES))
    candidates.extend(os.path.join(root, name) for name in sorted(IGNORE_FILES))
    candidates.extend(extra)
    for path in dict.fromkeys(candidates):
        try:
            text = _read_regular(path)
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return True
        if text is None:
            return True
        for line in text.split(b"\n"):
            # as rg reads the line: split at `\n` only, trailing Unicode whitespace dropped
            # (review EC2); leading ASCII blanks dropped too, which only counts more lines
            stripped = rg_trimmed(line.decode("utf-8", "replace")).lstrip(" \t\r\x0b\x0c")
            if not stripped.startswith("!"):
                continue
            pattern = stripped[1:].strip("/")
            if "/" in pattern or "\\" in pattern:
                return True
            if pattern:
                admitted.append(pattern)
    return tuple(dict.fromkeys(admitted))


# Rust's `char::is_whitespace` (Unicode White_Space), which the `ignore` crate's
# `trim_end` drops from the end of an ignore file's line and of a `-g` glob (review EC2,
# EC3: `!.env<U+00A0>` re-included `.env`); `str.strip()` drops a different set
RUST_WHITESPACE: Final = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def rg_trimmed(line: str) -> str:
    """An ignore file's line or a `-g`/`--glob`/`--iglob` value as rg's gitignore parser
    reads it: its trailing whitespace dropped (`RUST_WHITESPACE`) unless it ends in an
    escaped blank (`\\ `); leading blanks are kept.

    >>> rg_trimmed("!.env\\u00a0 \\t"), rg_trimmed(".env\\u200b"), rg_trimmed("x\\\\ ")
    ('!.env', '.env\\u200b', 'x\\\\ ')
    """
    return line if line.endswith("\\ ") else line.rstrip(RUST_WHITESPACE)


def git_excludes(dot_git: str, cwds: Sequence[str] = ()) -> tuple[str, ...] | None:
    """The `info/exclude` of the repository whose `.git` is `dot_git`, as rg's `ignore`
    crate (ripgrep 13) finds it: in that folder, or for a `.git` file (a linked worktree,
    a submodule) in the `commondir` of the git directory its first line's `gitdir: `
    names (its own `info/exclude` is read too: one more file only counts more `!` lines).
    rg takes a relative `gitdir:`, and a `commondir` that starts with neither `.` nor `/`
    (an empty one too), from its own working folder, not the `.git` file's: `cwds`, the
    folder (or each folder) rg runs in (a submodule's `gitdir: ../.git/modules/x`, run
    from the repository's top, names a folder above it, with no `commondir`: rg reads no
    exclude file there). () where there is no `.git`.

    None (every hidden name counts) where that place cannot be told as rg tells it
    (review EA1, EA1b, EC1): a `.git` that is a link, or that cannot be read; a relative
    place and no working folder known (`cwds` empty); a file that is not a plain
    `gitdir: ` line, or not UTF-8."""
    try:
        mode = os.lstat(dot_git).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return ()
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(mode):
        return (os.path.join(dot_git, "info", "exclude"),)
    if not stat.S_ISREG(mode):
        return None  # a link (rg reads through it) or anything else
    try:
        gitdir = _first_line(dot_git)
    except (OSError, ValueError):
        return None
    if gitdir is None or not gitdir.startswith("gitdir: "):
        return None
    gitdir = gitdir[len("gitdir: ") :]
    if "\0" in gitdir or (not gitdir.startswith("/") and not cwds):
        return None  # (rg takes it from its working folder, not the `.git` file's)
    # (joined, not normalised: the system resolves `..` after each link, as for rg)
    places = [gitdir] if gitdir.startswith("/") else [os.path.join(c, gitdir) for c in cwds]
    found: list[str] = []
    for place in dict.fromkeys(places):
        found.append(os.path.join(place, "info", "exclude"))
        try:
            text = _read_regular(os.path.join(place, "commondir"))
        except (FileNotFoundError, NotADirectoryError):
            continue  # rg reads no exclude file then
        except (OSError, ValueError):
            return None
        if text == b"":
            continue  # (no line at all: rg reads no exclude file either)
        common = None if text is None else _line_of(text)
        if common is None or "\0" in common:
            return None
        if common.startswith((".", "/")):
            found.append(os.path.join(place, common, "info", "exclude"))
        elif not cwds:
            return None
        else:
            # an empty first line too (`\n`, `\r\n`): rg joins `info/exclude` to its
            # own working folder then (review EC1)
            found.extend(os.path.join(c, common, "info", "exclude") for c in cwds)
    return tuple(dict.fromkeys(found))


def _first_line(path: str) -> str | None:
    """A file's first line as Rust's `lines()` gives it (without `\\n` or `\\r\\n`); None
    where the file is not a regular one within the read limit, or not UTF-8."""
    text = _read_regular(path)
    return None if text is None else _line_of(text)


def _line_of(text: bytes) -> str | None:
    """The first line of `text` as Rust's `lines()` gives it; None where not UTF-8."""
    line = text.split(b"\n", 1)[0].removesuffix(b"\r")
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


# `core.excludesFile` in a git configuration, as rg's `ignore` crate finds it (a line of
# the file, sections and includes aside; its `(.+)` keeps trailing blanks and quotes)
_EXCLUDES_FILE: Final = re.compile(rb"(?im)^\s*excludesfile\s*=\s*(.+)\s*$")


def rg_global_ignores(env: Mapping[str, str]) -> tuple[str, ...] | None:
    """The global ignore files rg reads with `env` as its environment: `core.excludesFile`
    of `$XDG_CONFIG_HOME/git/config` (or `~/.config/git/config`) and `~/.gitconfig`, and
    git's default `$XDG_CONFIG_HOME/git/ignore` (or `~/.config/git/ignore`), all of them
    (reading one too many only counts more `!` lines); None where a configuration cannot
    be read, or where rg would look elsewhere than can be told here (review EA8): no
    absolute `HOME` (rg falls back to the passwd home), an `XDG_CONFIG_HOME` that is not
    absolute (rg takes it from its working folder), a value not absolute."""
    home = env.get("HOME", "")
    xdg = env.get("XDG_CONFIG_HOME", "")
    if not home.startswith("/") or (xdg and not xdg.startswith("/")):
        return None
    base = xdg or f"{home}/.config"
    found = [f"{base}/git/ignore"]
    for config in (f"{base}/git/config", f"{home}/.gitconfig"):
        try:
            text = _read_regular(config)
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return None
        if text is None:
            return None
        matches = _EXCLUDES_FILE.findall(text)
        if len(matches) != text.lower().count(b"exclude"):
            # a spelling rg's expression may read otherwise (its `(?i)` takes `ſ` for `s`)
            return None
        for value in matches:
            try:
                named = value.decode("utf-8").replace("~", home)
            except UnicodeDecodeError:
                return None
            if not named.startswith("/"):
                return None  # (relative to rg's working folder: not followed here)
            found.extend(dict.fromkeys((named, named.strip(), named.strip().strip('"'))))
    return tuple(found)


# the most of an ignore or configuration file read; a larger one counts every hidden
# name (rg reads it whole: review EA3)
_READ_LIMIT: Final = 1 << 20


def _read_regular(path: str) -> bytes | None:
    """A regular file's bytes; None for anything else (a FIFO would block) or for a file
    larger than `_READ_LIMIT`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= _READ_LIMIT:
            chunk = os.read(fd, _READ_LIMIT + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return None if size > _READ_LIMIT else b"".join(chunks)
    finally:
        os.close(fd)
