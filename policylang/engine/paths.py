"""Engine stage: where paths point — `cd` tracking and path resolution; imports `shell.model`.

Paths in a command are resolved two ways and both results are checked against the
protected paths: *lexically* (against the tracked working directory and home, `..`
collapsed without touching the disk) and through `realpath` where the file system has
something there, so a symlink or a `../..` into a protected directory is caught.

The working directory is tracked as a *set of candidates* rather than one value: after
`cd D; X`, X runs in D if the `cd` succeeded and in the old directory otherwise, so both
are checked. A `cd` whose argument is not a literal makes the directory unknown; a
relative path checked under an unknown directory fails closed (the caller asks).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass

from policylang.shell.model import Connector, ExpansionKind, Scope, Segment, Word

# Cap on tracked candidate directories; past it the directory counts as unknown.
MAX_CANDIDATES = 8

_LOOP_SCOPES = frozenset({Scope.LOOP_BODY, Scope.WHILE_CONDITION, Scope.FOR, Scope.SELECT})
_CD_COMMANDS = frozenset({"cd", "pushd", "popd", "chdir"})
_MAY_CD = _CD_COMMANDS | {"builtin", "command"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Cwd:
    """The directories a segment may run in; `known` is False when one is unknowable."""

    candidates: frozenset[str]
    known: bool = True

    def with_target(self, target: str | None) -> Cwd:
        """The candidates after a `cd` to `target` (None: not a literal) that may fail."""
        if target is None:
            return Cwd(candidates=self.candidates, known=False)
        added = self.candidates | {target}
        if len(added) > MAX_CANDIDATES:
            return Cwd(candidates=self.candidates, known=False)
        return Cwd(candidates=added, known=self.known)

    def merge(self, other: Cwd) -> Cwd:
        merged = self.candidates | other.candidates
        known = self.known and other.known and len(merged) <= MAX_CANDIDATES
        return Cwd(candidates=merged, known=known)


def expand_home(path: str, home: str) -> str | None:
    """`~` and `~/x` expanded with `home`; `~user` is not knowable here (None)."""
    if not path.startswith("~"):
        return path
    if path == "~" or path.startswith("~/"):
        return home + path[1:]
    return None


def lexical(path: str, cwd: str, home: str) -> str | None:
    """The absolute, `..`-collapsed form of `path`; None for `~user` forms.

    >>> lexical("../.ssh/id_rsa", "/home/u/proj", "/home/u")
    '/home/u/.ssh/id_rsa'
    >>> lexical("~/x/./y", "/tmp", "/home/u")
    '/home/u/x/y'
    """
    expanded = expand_home(path, home)
    if expanded is None:
        return None
    # posixpath.join, spelt out: this runs for every path argument
    if expanded[:1] == "/":
        joined = expanded
    elif not cwd or cwd[-1] == "/":
        joined = cwd + expanded
    else:
        joined = f"{cwd}/{expanded}"
    if "/." not in joined and "//" not in joined and joined[-1:] != "/" and joined[:1] == "/":
        return joined  # no `.`, `..` or empty component: already normal (the usual case)
    normal = posixpath.normpath(joined)
    # normpath keeps a leading `//` (POSIX allows it to mean something else); we don't.
    if normal.startswith("//"):
        normal = "/" + normal.lstrip("/")
    return normal


def real(path: str) -> str:
    """`path` with symlinks resolved as far as the file system has them.

    The same answer as `os.path.realpath` for an absolute, normalised `path` (what
    `lexical` returns), in fewer system calls and without exceptions on the common paths:
    the kernel resolves the deepest existing prefix (an `O_PATH` open, then the
    descriptor's `/proc` link), and what lies below it is appended as written, since
    nothing can exist below a component that does not.
    """
    try:
        return _real(path)
    except (OSError, ValueError, RecursionError):
        return path


_O_PATH: int | None = getattr(os, "O_PATH", None)
_PROC_FD = "/proc/self/fd/"
_NOFOLLOW = os.access in os.supports_follow_symlinks


def _real(path: str) -> str:
    if _O_PATH is None or not _NOFOLLOW or not path.startswith("/") or "\0" in path:
        return os.path.realpath(path)
    if os.access(path, os.F_OK):
        return _kernel_real(path) or os.path.realpath(path)
    # the deepest prefix that exists as a directory entry (a link counts, even dangling)
    existing, missing = path, ""
    while existing and not os.access(existing, os.F_OK, follow_symlinks=False):
        existing, _, part = existing.rpartition("/")
        missing = f"{part}/{missing}" if missing else part
    if not existing:
        return path  # nothing below `/` exists: no link can be involved
    if not missing or not os.access(existing, os.F_OK):
        return os.path.realpath(path)  # a dangling link: the library follows its text
    resolved = _kernel_real(existing)
    if resolved is None:
        return os.path.realpath(path)
    return f"{resolved.rstrip('/')}/{missing}"


def _kernel_real(path: str) -> str | None:
    """The kernel's canonical name of an existing `path` (None: not available here)."""
    assert _O_PATH is not None
    try:
        fd = os.open(path, _O_PATH | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        target = os.readlink(f"{_PROC_FD}{fd}")
    except OSError:
        return None  # no /proc
    finally:
        os.close(fd)
    # anything but a plain absolute path (`/x (deleted)`, `pipe:[…]`) is not trusted
    if not target.startswith("/") or target.endswith(" (deleted)"):
        return None
    return target


def resolve(path: str, cwd: Cwd, home: str) -> tuple[tuple[str, ...], bool]:
    """Every absolute form `path` may take (lexical and real, per candidate cwd).

    Returns the forms and whether they are complete: False when the path is relative
    and the working directory is unknown, or it names another user's home (`~user`).
    """
    forms: list[str] = []
    complete = True
    bases = sorted(cwd.candidates)
    if not path.startswith(("/", "~")) and not cwd.known:
        complete = False
    for base in bases:
        absolute = lexical(path, base, home)
        if absolute is None:
            return (), False
        if absolute not in forms:
            forms.append(absolute)
        resolved = real(absolute)
        if resolved not in forms:
            forms.append(resolved)
        if path.startswith(("/", "~")):
            break  # the base does not matter for absolute paths
    return tuple(forms), complete


def cd_target(
    segment: Segment, home: str, env_oldpwd: str | None = None
) -> tuple[bool, str | None]:
    """Whether `segment` changes directory, and where to (None: not knowable).

    `cd` with no operand goes home; `cd -`, `popd` and non-literal operands are unknown.
    """
    words = segment.words
    while words and words[0].value in ("builtin", "command"):
        words = words[1:]
    if not words or words[0].value not in _CD_COMMANDS:
        return False, None
    name = words[0].value
    if name == "popd":
        return True, None
    texts = [path_text(w) for w in words[1:]]
    if any(text is None or any(ch in text for ch in "*?[") for text in texts):
        return True, None
    operands = [t for t in texts if t is not None and (not t.startswith("-") or t == "-")]
    if not operands:
        return True, home if name != "pushd" else None
    target = operands[0]
    if target == "-":
        return True, env_oldpwd
    return True, target


_PATH_TEXT_KINDS = frozenset({ExpansionKind.GLOB, ExpansionKind.BRACE, ExpansionKind.TILDE})


def path_text(word: Word) -> str | None:
    """A word's value, or for an unquoted word whose only expansions are `~`, globs or
    braces, its raw text (checked as a path pattern); None when it cannot be known."""
    if word.value is not None:
        return word.value
    if any(exp.kind not in _PATH_TEXT_KINDS for exp in word.expansions):
        return None
    text = word.text
    if any(ch in text for ch in "'\"$`\\"):
        return None
    return text


def in_loop(segment: Segment) -> bool:
    return any(scope in _LOOP_SCOPES for scope in segment.scopes)


def track(segments: Iterable[Segment], start: Cwd, home: str) -> list[Cwd]:
    """The candidate working directories of each segment, in order.

    A `cd` changes the directory for later segments of its own group (a subshell or a
    pipeline stage is a group of its own, so its `cd` does not leak out); a group seen for
    the first time inherits the directory of the segment before it. A `cd` inside a loop
    may run before any segment of the line on a later iteration, so its target is added to
    every segment's candidates.
    """
    segs = list(segments)
    if not any(seg.words and seg.words[0].value in _MAY_CD for seg in segs):
        return [start] * len(segs)  # the common case: no `cd` anywhere
    looped: Cwd | None = None
    by_group: dict[int, Cwd] = {0: start}
    result: list[Cwd] = []
    previous = start
    piped = False
    for seg in segs:
        # a group seen first inherits the directory its parent had; after `|` that is
        # the directory the previous stage started in (stages run side by side)
        inherited = result[-1] if piped and result else previous
        current = by_group.get(seg.group, inherited)
        result.append(current)
        piped = seg.connector in (Connector.PIPE, Connector.PIPE_ALL)
        is_cd, target = cd_target(seg, home)
        if is_cd:
            absolute = None if target is None else _absolute_dirs(target, current, home)
            new = current
            if absolute is None:
                new = current.with_target(None)
            else:
                for one in absolute:
                    new = new.with_target(one)
            current = new
            if in_loop(seg):
                looped = new if looped is None else looped.merge(new)
        by_group[seg.group] = current
        previous = current
    if looped is not None:
        result = [cwd.merge(looped) for cwd in result]
    return result


def moved(current: Cwd, target: str, home: str) -> Cwd:
    """Where a command runs that changes to `target` itself (`git -C DIR`): no fallback.

    >>> moved(Cwd(candidates=frozenset({"/w"})), "../x", "/h").candidates
    frozenset({'/x'})
    """
    absolute = _absolute_dirs(target, current, home)
    if absolute is None:
        return Cwd(candidates=current.candidates, known=False)
    return Cwd(candidates=frozenset(absolute), known=current.known)


def _absolute_dirs(target: str, current: Cwd, home: str) -> tuple[str, ...] | None:
    if not target.startswith(("/", "~")) and not current.known:
        return None
    out: list[str] = []
    for base in sorted(current.candidates):
        absolute = lexical(target, base, home)
        if absolute is None:
            return None
        out.append(absolute)
    return tuple(out)


def is_within(path: str, root: str) -> bool:
    """Whether absolute `path` is `root` or below it.

    >>> is_within("/w/src/a.py", "/w"), is_within("/wx", "/w"), is_within("/w", "/w")
    (True, False, True)
    """
    if root == "/":
        return True
    return path == root or path.startswith(root.rstrip("/") + "/")
