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

import itertools
import os
import posixpath
import re
import stat
import threading
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from policylang.shell.model import Connector, ExpansionKind, Scope, Segment, SegmentKind, Word

# Cap on tracked candidate directories; past it the directory counts as unknown.
MAX_CANDIDATES = 8

_LOOP_SCOPES = frozenset({Scope.LOOP_BODY, Scope.WHILE_CONDITION, Scope.FOR, Scope.SELECT})
_CD_COMMANDS = frozenset({"cd", "pushd", "popd", "chdir"})
# words that may stand before a `cd` that still runs in this shell: `command -p cd`,
# `builtin -- cd`, and the `time` keyword (`time -p cd ~/.aws` changes directory)
_CD_PREFIXES = frozenset({"builtin", "command", "time"})
_MAY_CD = _CD_COMMANDS | _CD_PREFIXES


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
    joined = join(path, cwd, home)
    return None if joined is None else normal(joined)


def join(path: str, cwd: str, home: str) -> str | None:
    """`path` joined to `cwd` with `~` expanded, *not* normalised (None for `~user`).

    The kernel resolves `lnk/..` physically (the parent of where `lnk` points), so the
    real form of a path must be computed from this, not from the `..`-collapsed form.

    >>> join("lnk/../x", "/w", "/h"), join("~/y", "/w", "/h")
    ('/w/lnk/../x', '/h/y')
    """
    expanded = expand_home(path, home)
    if expanded is None:
        return None
    # posixpath.join, spelt out: this runs for every path argument
    if expanded[:1] == "/":
        return expanded
    if not cwd or cwd[-1] == "/":
        return cwd + expanded
    return f"{cwd}/{expanded}"


def normal(joined: str) -> str:
    """`joined` with `.`, `..` and empty components collapsed textually."""
    if "/." not in joined and "//" not in joined and joined[-1:] != "/" and joined[:1] == "/":
        return joined  # no `.`, `..` or empty component: already normal (the usual case)
    collapsed = posixpath.normpath(joined)
    # normpath keeps a leading `//` (POSIX allows it to mean something else); we don't.
    if collapsed.startswith("//"):
        collapsed = "/" + collapsed.lstrip("/")
    return collapsed


class Unresolvable(Exception):
    """A step of a path cannot be looked up here (a folder without search permission,
    past PATH_MAX, a loop, an I/O error), so a link there is not known: where the path
    leads cannot be told (reviews CX1, CY1, CZ3). Not an `OSError`: `real` lets it out."""


def owned(path: str) -> bool:
    """Whether this process's user owns `path` (and so may change its mode): yes when
    that cannot be told."""
    try:
        return os.lstat(path).st_uid == os.geteuid()
    except (OSError, ValueError):
        return True


def lexists(path: str) -> bool:
    """`os.path.lexists`, without the exception a missing file costs `lstat` (a directory
    entry, a dangling link too; False for a name the system cannot take)."""
    if not _NOFOLLOW:
        return os.path.lexists(path)
    try:
        return os.access(path, os.F_OK, follow_symlinks=False)
    except (OSError, ValueError):
        return False


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
    if (
        missing
        and not os.access(existing, os.X_OK)  # (one call, and true for most folders)
        and os.path.isdir(existing)
        and owned(existing)
    ):
        # a folder this process cannot search: what lies below it, a link among it, is
        # not known (review CZ3: `chmod 000 d` hid `d/lnk -> ~/.aws/credentials`), where
        # the agent may open it again; another user's (`/root/x`) stays shut (DA8)
        raise Unresolvable(existing)
    if not missing or not os.access(existing, os.F_OK):
        return os.path.realpath(path)  # a dangling link: the library follows its text
    resolved = _kernel_real(existing)
    if resolved is None:
        return os.path.realpath(path)
    tail = f"{resolved.rstrip('/')}/{missing}"
    if "/." in f"/{missing}" or "//" in tail or tail[-1] == "/":
        # an un-normalised path: `missing/..` leads back to what exists (realpath's answer)
        return os.path.realpath(path) if ".." in missing.split("/") else normal(tail)
    return tail


def kernel_real(path: str) -> str | None:
    """The kernel's canonical name of `path`, all its links followed, where it exists and
    the system can tell (None otherwise): what `os.path.realpath` answers for it, in three
    system calls."""
    if _O_PATH is None or "\0" in path:
        return None
    return _kernel_real(path)


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


# A process's own directory in /proc: `/proc/self`, `/proc/thread-self`, `/proc/PID`. What
# lies below it (`cwd`, `root`, `fd/N`, `task/TID/cwd`, …) depends on the process that opens
# it, so resolving it here would answer for policylang's process, not the command's.
_PROCESS_DIR = re.compile(r"/proc/(?:self|thread-self|[0-9]+)(?=/|$)")
# plain files of a process directory that hold no link (`cat /proc/self/status`), and the
# per-namespace `net/…` tables `/proc/net` links to
_PROCESS_SAFE_TAIL = re.compile(
    r"(?:status|stat|statm|cmdline|comm|limits|cgroup|mounts|mountinfo|mountstats|io|"
    r"oom_score|sched|schedstat|wchan|maps|smaps|smaps_rollup|personality|loginuid|"
    r"sessionid|uid_map|gid_map|net(?:/[^./][^/]*)*)"
)
_MAX_LINKS = 40  # the kernel's limit on symlinks in one resolution
PATH_MAX = 4096  # Linux's limit on a path given to a system call, its final NUL counted


def too_long(path: str) -> bool:
    """Whether the system refuses `path` whole (ENAMETOOLONG): its links cannot be looked
    up here, though a shell that `cd`s step by step reaches them (review CX1)."""
    if len(path) < PATH_MAX // 4:
        return False
    try:
        size = len(os.fsencode(path))
    except UnicodeEncodeError:
        # a lone surrogate that stands for no byte, which no file name holds: counted as
        # the 3 bytes it takes (it had failed the line as an internal error, review DN)
        size = len(path.encode("utf-8", "surrogatepass"))
    return size >= PATH_MAX


def physical(joined: str, lexical_form: str) -> tuple[str, bool]:
    """Where the kernel resolves absolute `joined` (`..` after a link is physical), and
    whether that depends on the process resolving it (a process directory in /proc,
    reached by name or through a link, such as `/proc/self/cwd` or `/dev/fd/..`).

    `lexical_form` is `normal(joined)`. The usual path has neither a link nor `..` in it:
    the kernel's answer is then the lexical form and one resolution suffices. Otherwise the
    path is walked component by component, so that a link into /proc is seen before
    policylang's own process would answer for it. (With `..`, equal answers prove nothing:
    `lnk/../..` may climb out of a link to `/proc/self/cwd` to the same text.)
    """
    if (
        "/.." not in joined
        and not lexical_form.startswith(("/proc/", "/dev/"))
        and not automounts_here()
    ):
        resolved = real(joined)
        if resolved == lexical_form:
            return resolved, False
    return _walk(joined)


def _walk(path: str) -> tuple[str, bool]:
    """`os.path.realpath(path)`, done by hand to notice a process directory of /proc.

    True when a link inside `/proc/PID` (or `self`, `thread-self`) is crossed (`cwd`,
    `root`, `fd/N`, `exe`: links the kernel resolves per process), or the path ends inside
    one other than at a plain file of `_PROCESS_SAFE_TAIL`. `..` out of it is harmless:
    `/dev/fd/../../..` is `/` for every process.
    """
    pending = path.split("/")[::-1]  # components still to resolve, next one last
    resolved = ""  # "" is the root
    links = 0
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            resolved = resolved.rpartition("/")[0]
            continue
        candidate = f"{resolved}/{name}"
        if _automount_parent(resolved):
            # a host name to an automounter: looking it up is a DNS query and a packet to
            # that host, so it is not (review DT1); the rest as written, `..` kept (the
            # lookup happens before a `..` climbs back out)
            rest = "/".join(part for part in reversed(pending) if part not in ("", "."))
            return (f"{candidate}/{rest}" if rest else candidate), False
        if too_long(candidate):
            # the system refuses it whole: a link here cannot be looked up, and a later
            # `..` would bring the answer back under the limit as if there were none
            # (review CY1)
            raise Unresolvable(candidate)
        try:
            is_link = stat.S_ISLNK(os.lstat(candidate).st_mode)
        except (FileNotFoundError, NotADirectoryError):
            is_link = False  # missing: taken as written (`missing/..` is where realpath goes)
        except PermissionError as error:
            if owned(resolved or "/"):
                raise Unresolvable(candidate) from error  # (review CZ3)
            is_link = False  # another user's folder, shut to the command too (DA8)
        except (OSError, ValueError) as error:
            raise Unresolvable(candidate) from error  # (ELOOP, EIO: review CZ3)
        if not is_link:
            resolved = candidate
            continue
        if _PROCESS_DIR.match(resolved):
            # a link in a process's directory: `cwd`, `root`, `fd/N` (`self` is in /proc);
            # the rest as written, `..` kept: at a process's root it stays there (BF3)
            rest = "/".join(part for part in reversed(pending) if part not in ("", "."))
            return (f"{candidate}/{rest}" if rest else candidate), True
        links += 1
        try:
            target = os.readlink(candidate)
        except (OSError, ValueError):
            target = ""
        if links > _MAX_LINKS or not target:
            return os.path.realpath(path), False  # a loop: the kernel gives ELOOP
        if target.startswith("/"):
            resolved = ""
        pending.extend(reversed(target.split("/")))
    resolved = resolved or "/"
    inside = _PROCESS_DIR.match(resolved)
    if inside is not None and not _PROCESS_SAFE_TAIL.fullmatch(resolved[inside.end() + 1 :]):
        return resolved, True
    return resolved, False


def _usual_process_form(path: str, base: str) -> str | None:
    """Where a path through a process's `root` or `cwd` link leads for the usual process:
    `/proc/self/root/x` is `/x` (a `..` right after it stays at the root) and
    `/proc/self/cwd/x` is `x` in the directory the command runs in. The path still asks
    (another process, a chroot, may differ), but the rules of that place hold too:
    `cat /proc/self/root$HOME/.aws/credentials` is denied like the file itself (reviews
    BD7, BF3). `path` is as `_walk` leaves it: the link, then the rest as written.

    >>> _usual_process_form("/proc/self/root/../../home/u/.bashrc", "/w")
    '/home/u/.bashrc'
    >>> _usual_process_form("/proc/1/task/1/cwd/.env", "/w")
    '/w/.env'
    >>> _usual_process_form("/proc/self/fd/3", "/w") is None
    True
    """
    match = _PROCESS_LINK.match(path)
    if match is None:
        return None
    rest = match.group(2) or ""
    if match.group(1) == "root":
        # `..` at the root stays there: drop the leading ones, keep the rest as written
        # (a further process link in it is resolved by the caller: review BH8)
        parts = rest.split("/")
        while parts and parts[0] in ("..", ".", ""):
            parts.pop(0)
        return "/" + "/".join(parts)
    return f"{base.rstrip('/')}/{rest}"


def _usual_places(path: str, base: str) -> list[str]:
    """The places (lexical and real) `_usual_process_form` gives, following one process
    link after another (`/proc/self/root/proc/self/root/x`), a bounded number of times."""
    found: list[str] = []
    for _ in range(_MAX_PROCESS_HOPS):
        usual = _usual_process_form(path, base)
        if usual is None:
            break
        try:
            path, again = physical(usual, normal(usual))
        except Unresolvable:
            break  # (the process path asks already)
        if not again:
            found.extend((normal(usual), path))
            break
    return found


_MAX_PROCESS_HOPS = 8


_PROCESS_LINK = re.compile(
    r"/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(root|cwd)(?:/(.*))?\Z", re.DOTALL
)


def physical_target(path: str) -> str | None:
    """Where absolute `path` leads, links and `..` resolved as the kernel does, or None
    when a step of it is past PATH_MAX (`os.path.realpath` takes such a step as no link,
    and a later `..` hides it: review CY1)."""
    try:
        resolved, _process = physical(path, normal(path))
    except Unresolvable:
        return None
    return None if too_long(path) or too_long(resolved) else resolved


def resolve(path: str, cwd: Cwd, home: str) -> tuple[tuple[str, ...], bool]:
    """Every absolute form `path` may take (lexical and real, per candidate cwd).

    Returns the forms and whether they are complete: False when the path is relative
    and the working directory is unknown, it names another user's home (`~user`), or it
    leads through a process directory of /proc (see `resolve_all`).
    """
    forms, complete, process = resolve_all(path, cwd, home)
    return forms, complete and not process


def ancestors(path: str) -> list[str]:
    """`path` and every folder above it (`/a/b`: `/a/b`, `/a`, `/`)."""
    found = [path]
    while path not in ("/", ""):
        path = os.path.dirname(path)
        found.append(path)
    return found


# folder listings kept between lines by the folder's stamp (see `names_starting`)
_LISTINGS: dict[tuple[str, str], tuple[tuple[int, int, int, int], tuple[str, ...]]] = {}
_LISTINGS_LOCK: Final = threading.Lock()
_MAX_LISTINGS: Final = 64
# a folder changed less than this long before it was read may change again unseen
_SETTLED_NS: Final = 3_000_000_000


def names_starting(folder: str, prefix: str, limit: int) -> tuple[str, ...]:
    """The names starting with `prefix` among the first `limit` entries of `folder`.

    Kept between calls, and trusted while the folder's stamp (device, inode, modification
    and change times) stays the same: making, removing or renaming an entry changes its
    modification time. Not kept when the folder had changed less than 3 s before it was
    read: a file system whose clock is coarser than that gap could stamp a later change
    with the same time (git's "racy" index entries). For folders read on every line whose
    entries seldom change (a version manager's shims: hundreds of names).

    Raises:
        OSError: as `os.stat` and `os.scandir` do.
    """
    st = os.stat(folder)
    stamp = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    key = (folder, prefix)
    known = _LISTINGS.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    read_at = time.time_ns()
    with os.scandir(folder) as listing:
        names = tuple(
            item.name
            for count, item in enumerate(listing)
            if count < limit and item.name.startswith(prefix)
        )
    if read_at - max(st.st_mtime_ns, st.st_ctime_ns) > _SETTLED_NS:
        with _LISTINGS_LOCK:
            if len(_LISTINGS) >= _MAX_LISTINGS:
                _LISTINGS.clear()
            _LISTINGS[key] = (stamp, names)
    return names



# what a folder is, as `folder_stamp` tells it: (device, inode, modification time, change
# time), links followed
Stamp = tuple[int, int, int, int]


def folder_stamp(folder: str) -> Stamp | None:
    """The stamp of the folder `folder` leads to, or None where it is no folder this
    process can look at (missing, a file, not searchable): a folder that holds nothing.

    Making, removing or renaming an entry changes the folder's modification time; moving
    the folder itself changes its change time, which no program can set back."""
    try:
        st = os.stat(folder)
    except (OSError, ValueError):
        return None
    if not stat.S_ISDIR(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def _settled(stamp: Stamp, read_at: int) -> bool:
    """Whether a folder with `stamp` had last changed long enough before `read_at` for
    a later change to get another stamp (see `names_starting`)."""
    return read_at - max(stamp[2], stamp[3]) > _SETTLED_NS


_UNSETTLED: Final = itertools.count()


def file_version(info: os.stat_result) -> tuple[int, ...]:
    """A key for what was read from a file whose `os.stat` is `info`, for memos kept by it
    (`functools.lru_cache`): its modification and change times, size, inode and device.
    A file changed less than 3 s before (`_SETTLED_NS`) gets a key of its own each time,
    never found again: a change within the same timestamp tick would keep its stamp."""
    version = (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino, info.st_dev)
    if _settled((info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns), time.time_ns()):
        return version
    return (*version, next(_UNSETTLED))


def folded_name(name: str) -> str:
    """`name` as a file system that ignores case and Unicode normalisation matches it
    (macOS's usual one: `NODE`, a Kelvin sign for `K`): the key `folder_names` holds. On
    a file system that does not, a name that folds alike is looked up and not found."""
    return name.lower() if name.isascii() else unicodedata.normalize("NFKC", name).casefold()


_NAMES: dict[str, tuple[Stamp, frozenset[str]]] = {}
_MAX_FOLDER_NAMES: Final = 65_536


def folder_names(folder: str, stamp: Stamp) -> frozenset[str] | None:
    """The names of the entries of `folder`, whose stamp is `stamp` now, each folded
    (`folded_name`): a name whose folded form is not among them is no entry there.

    For PATH lookups: a program name is looked up in each PATH entry before the one that
    holds it, one `stat` each per line, where one `stat` of each entry per line tells
    whether its listing is still the one kept. Kept as `names_starting`'s listings are.
    None where the folder cannot be listed or holds more than 65,536 entries: look the
    name up itself."""
    known = _NAMES.get(folder)
    if known is not None and known[0] == stamp:
        return known[1]
    read_at = time.time_ns()
    names: set[str] = set()
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                if len(names) >= _MAX_FOLDER_NAMES:
                    return None
                names.add(folded_name(item.name))
    except OSError:
        return None
    found = frozenset(names)
    if _settled(stamp, read_at):
        with _LISTINGS_LOCK:
            if len(_NAMES) >= _MAX_LISTINGS:
                _NAMES.clear()
            _NAMES[folder] = (stamp, found)
    return found


# the folders whose names an automounter resolves as host names (`/net/HOST`)
AUTOMOUNT_ROOTS: Final = ("/net/", "/hosts/")


def under_automount(path: str) -> bool:
    """Whether absolute, normalised `path` names something below an automounter's host
    folder (`/net/HOST`), in any case: macOS's usual file system ignores it (`/NET`, DT1).

    >>> under_automount("/NET/evil.example.com/x"), under_automount("/proc/net/dev")
    (True, False)
    """
    return path[:7].lower().startswith(AUTOMOUNT_ROOTS)


def _automount_parent(folder: str) -> bool:
    """Whether a name looked up in `folder` is a host name to an automounter."""
    return len(folder) <= 6 and folder.lower() in ("/net", "/hosts")


_AUTOMOUNTS: list[bool] = []  # whether this system has `/net` or `/hosts`: found once


def automounts_here() -> bool:
    """Whether this system has an automounter's host folder (`/net`, `/hosts`: macOS,
    autofs's `-hosts` map). There, a path is resolved one step at a time so that no link
    leads a lookup below it (review DT1: `lnk -> /net/evil.example.com`); elsewhere a
    lookup there resolves no host name, and the fast way stays."""
    if not _AUTOMOUNTS:
        _AUTOMOUNTS.append(any(os.path.lexists(root) for root in ("/net", "/hosts")))
    return _AUTOMOUNTS[0]


def resolve_all(path: str, cwd: Cwd, home: str) -> tuple[tuple[str, ...], bool, bool]:
    """`resolve`, telling a path that leads through /proc's directory of the process
    resolving it (`/proc/self/cwd/x`, `/dev/fd/../cwd`, a link to them) apart: its forms
    are the lexical ones only, and the third value is True.

    The real form is resolved from the joined path as written, not from the lexical form:
    the kernel takes `lnk/..` to the parent of `lnk`'s target.
    """
    forms: list[str] = []
    complete = True
    process = False
    bases = sorted(cwd.candidates)
    absolute_path = path.startswith(("/", "~"))
    if not absolute_path and not cwd.known:
        complete = False
    for base in bases:
        joined = join(path, base, home)
        if joined is None:
            return (), False, False
        lexical_form = normal(joined)
        if lexical_form not in forms:
            forms.append(lexical_form)
        if under_automount(lexical_form):  # (`/NET`: macOS, DT1)
            # an automounter resolves `/net/HOST` (macOS, autofs's `-hosts` map): a lookup
            # is a DNS query and a packet to that host, so the path is not looked up here,
            # and where it leads cannot be told (review DR3)
            complete = False
            continue
        try:
            resolved, through_process = physical(joined, lexical_form)
        except Unresolvable:
            complete = False  # (where it leads cannot be told: reviews CY1, CZ3)
            continue
        if too_long(joined) or too_long(resolved):
            # past PATH_MAX a lookup fails, and a link there is taken as no link: where
            # the path leads cannot be told (review CX1: a repository's deep folders)
            complete = False
        if through_process:
            process = True
            for one in _usual_places(resolved, base):
                if one not in forms:
                    forms.append(one)
        elif resolved not in forms:
            forms.append(resolved)
        if under_automount(resolved):
            complete = False  # a link into `/net/HOST`: not looked up (`_walk`, DT1)
        if absolute_path:
            break  # the base does not matter for absolute paths
    return tuple(forms), complete, process


def cd_target(
    segment: Segment, home: str, env_oldpwd: str | None = None, cdpath: str | None = None
) -> tuple[bool, str | None]:
    """Whether `segment` changes directory, and where to (None: not knowable).

    `cd` with no operand goes home; `cd -`, `popd` and non-literal operands are unknown,
    and so is a relative operand bash may look up in `cdpath` (a CDPATH the environment
    has). Words after `--` are operands, whatever they look like (`cd -- -aws`).
    """
    words = _without_cd_prefixes(segment.words)
    if not words or words[0].value not in _CD_COMMANDS:
        return False, None
    name = words[0].value
    if name == "popd":
        return True, None
    texts = [path_text(w) for w in words[1:]]
    if any(text is None or any(ch in text for ch in "*?[") for text in texts):
        return True, None
    if any(not _plain_cd_word(w) for w in words[1:]):
        return True, None
    operands: list[str] = []
    options = True
    for text in texts:
        assert text is not None  # INVARIANT: checked above
        if options and text == "--":
            options = False
        elif not options or not text.startswith("-") or text == "-":
            operands.append(text)
    if not operands:
        return True, home if name != "pushd" else None
    target = operands[0]
    if target == "-":
        return True, env_oldpwd
    if cdpath and not target.startswith(("/", "./", "../", "~")) and target not in (".", ".."):
        return True, None  # `cd .aws` may be `$CDPATH/.aws`
    return True, target


def _plain_cd_word(word: Word) -> bool:
    """A `cd` word whose directory the engine reads as bash does: no brace expansion
    (`cd {~/.aws,}` goes to `~/.aws`, review AC1), and a `~` only where bash expands it
    the way the path rules do, at the start of an unquoted word (`cd "~/x"` enters a
    directory named `~`, `cd x=~/x` one named `x=`: review AC3)."""
    if any(e.kind is ExpansionKind.BRACE for e in word.expansions):
        return False
    if word.value is not None:
        return not word.value.startswith("~")  # (`cd a~b` is plain)
    return "=~" not in word.text and ":~" not in word.text


def _without_cd_prefixes(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """`command -p -- cd x` → `cd x`: the prefixes before a `cd` and their options."""
    while words and words[0].value in _CD_PREFIXES:
        words = words[1:]
        while words and words[0].value is not None and words[0].value.startswith("-"):
            done = words[0].value == "--"
            words = words[1:]
            if done:
                break
    return words


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
        if all(exp.kind is ExpansionKind.TILDE for exp in word.expansions):
            return _tilde_with_quotes(text)
        return None
    return text


# `~/".aws/credentials"`: bash expands the unquoted `~/` and removes the quotes of the
# literal rest (review AE8: it asked where `~/.aws/credentials` is denied)
_TILDE_QUOTED = re.compile(r"~/((?:[A-Za-z0-9_./@%+,:=-]|'[^']*'|\"[^\"$`\\!]*\")+)")
_QUOTED_PIECE = re.compile(r"'([^']*)'|\"([^\"]*)\"|([^'\"]+)")


def _tilde_with_quotes(text: str) -> str | None:
    """The pattern of a `~/` word whose rest is quoted literal text, else None."""
    match = _TILDE_QUOTED.fullmatch(text)
    if match is None:
        return None
    rest = "".join(a or b or c for a, b, c in _QUOTED_PIECE.findall(match.group(1)))
    return "~/" + rest


def in_loop(segment: Segment) -> bool:
    return any(scope in _LOOP_SCOPES for scope in segment.scopes)


def track(
    segments: Iterable[Segment], start: Cwd, home: str, cdpath: str | None = None
) -> list[Cwd]:
    """The candidate working directories of each segment, in order.

    A `cd` changes the directory for later segments of its own group (a subshell or a
    pipeline stage is a group of its own, so its `cd` does not leak out); a group seen for
    the first time inherits the directory of the segment before it. A `cd` inside a loop
    may run before any segment of the line on a later iteration, so its target is added to
    every segment's candidates. `cdpath`: the CDPATH of the environment, if any.
    """
    segs = list(segments)
    if not any(seg.words and seg.words[0].value in _MAY_CD for seg in segs):
        return [start] * len(segs)  # the common case: no `cd` anywhere
    looped: Cwd | None = None
    by_group: dict[int, Cwd] = {0: start}
    # where `cd -` goes back to (OLDPWD) in each group, None where it is not known: the
    # environment's OLDPWD is not the agent's shell's, and a line that may set it
    # otherwise than by a `cd` tracked in order keeps it unknown (review DW1)
    back = _PREVIOUS if _oldpwd_tracked(segs) else None
    old_by_group: dict[int, Cwd | None] = {0: None}
    olds: list[Cwd | None] = []
    result: list[Cwd] = []
    previous = start
    previous_old: Cwd | None = None
    piped = False
    for seg in segs:
        # a group seen first inherits the directory its parent had; after `|` that is
        # the directory the previous stage started in (stages run side by side)
        inherited = result[-1] if piped and result else previous
        current = by_group.get(seg.group, inherited)
        old = (
            old_by_group[seg.group]
            if seg.group in old_by_group
            else (olds[-1] if piped and olds else previous_old)
        )
        result.append(current)
        olds.append(old)
        piped = seg.connector in (Connector.PIPE, Connector.PIPE_ALL)
        is_cd, target = cd_target(seg, home, back, cdpath=cdpath)
        if is_cd:
            if target == _PREVIOUS:
                new, old = _back(current, old)
            else:
                absolute = None if target is None else _absolute_dirs(target, current, home)
                new = current
                if absolute is None:
                    new = current.with_target(None)
                else:
                    for one in absolute:
                        new = new.with_target(one)
                # OLDPWD is where it ran from once it enters, else as it was
                if absolute is not None and all(_enterable(one) for one in absolute):
                    old = current
                else:
                    old = None if old is None else old.merge(current)
            current = new
            if in_loop(seg) or Scope.FUNCTION_BODY in seg.scopes:
                # a loop's next pass, or a function's next call (review BG14), runs the
                # segments before it again from there
                looped = new if looped is None else looped.merge(new)
        by_group[seg.group] = current
        old_by_group[seg.group] = old
        previous = current
        previous_old = old
    if looped is not None:
        result = [cwd.merge(looped) for cwd in result]
    return result


# what `cd_target` answers for `cd -` where `track` knows the folder it goes back to
_PREVIOUS: Final = "\0-"
# the shell's commands that may set OLDPWD other than by changing directory (`read`,
# `printf -v`, `declare`, `unset`, a function's or sourced file's code), and `time`,
# `builtin` and `command` before one
_VARIABLE_SETTERS: Final = frozenset(
    {"export", "declare", "typeset", "local", "readonly", "read", "mapfile", "readarray",
     "printf", "getopts", "eval", "source", ".", "unset", "let", "builtin", "command",
     "time", "enable", "trap", "select"}
)  # fmt: skip


def _oldpwd_tracked(segments: list[Segment]) -> bool:
    """Whether OLDPWD changes only by the `cd`s `track` follows in order: no assignment
    or command that may set a variable (`OLDPWD=x`, `read OLDPWD`, `${OLDPWD:=x}`, a
    command named by an expansion), no function defined, no `cd` in a loop."""
    for seg in segments:
        if seg.kind is SegmentKind.FUNCTION_DEF or seg.kind is SegmentKind.ARITHMETIC:
            return False
        if seg.assignments or seg.declared or "OLDPWD" in seg.text:
            return False
        if seg.kind is not SegmentKind.SIMPLE or not seg.words:
            continue
        name = seg.words[0].value
        if name is None or name in _VARIABLE_SETTERS:
            return False
        if name in _CD_COMMANDS and in_loop(seg):
            return False
    return True


def _back(current: Cwd, old: Cwd | None) -> tuple[Cwd, Cwd | None]:
    """Where `cd -` goes from `current`, and OLDPWD after it: back to `old` where it is
    known and can be entered; else it may stay (unknown where `old` is)."""
    if old is None:
        return current.with_target(None), None
    if old.known and all(_enterable(one) for one in old.candidates):
        return old, current
    return current.merge(old), old.merge(current)


def _enterable(folder: str) -> bool:
    """Whether `cd` enters absolute `folder` now: a directory that may be searched (one
    below an automounter's host folder is not looked up)."""
    if under_automount(folder):
        return False
    return os.path.isdir(folder) and os.access(folder, os.X_OK)


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
    """The directories `cd target` may lead to from each candidate: bash's `cd` is logical
    (`lnk/..` is the directory holding `lnk`) but falls back to the physical directory,
    `cd -P` and `git -C` are physical; both forms are candidates when they differ. A target
    in a process directory of /proc (`/proc/self/cwd`) is unknown (None)."""
    if not target.startswith(("/", "~")) and not current.known:
        return None
    out: list[str] = []
    for base in sorted(current.candidates):
        joined = join(target, base, home)
        if joined is None:
            return None
        lexical_form = normal(joined)
        out.append(lexical_form)
        if under_automount(lexical_form):
            continue  # not looked up (review DT1: `cd /net/HOST`)
        try:
            resolved, through_process = physical(joined, lexical_form)
        except Unresolvable:
            return None
        if through_process:
            return None
        if resolved != lexical_form:
            out.append(resolved)
    return tuple(dict.fromkeys(out))


def is_within(path: str, root: str) -> bool:
    """Whether absolute `path` is `root` or below it.

    >>> is_within("/w/src/a.py", "/w"), is_within("/wx", "/w"), is_within("/w", "/w")
    (True, False, True)
    """
    if root == "/":
        return True
    return path == root or path.startswith(root.rstrip("/") + "/")


_GLOB_MAGIC = re.compile(r"[*?[]")


def bounded_glob(
    pattern: str, *, matches: int, visits: int, spent: list[int] | None = None
) -> list[str] | None:
    """The files an absolute glob names now, as bash expands it (a component's `*`, `?`
    or `[…]` does not match a leading dot unless the component starts with one), or None
    when more than `matches` files match or more than `visits` directory entries would
    have to be read to tell (`/sys/*/*/*/*/*/x` reads without end). `spent[0]`, when
    given, grows by the entries read (a line's globs share one budget: review AW6).

    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> for name in ("a.txt", "b.txt", ".env"): open(f"{root}/{name}", "w").close()
    >>> [p[len(root):] for p in bounded_glob(f"{root}/*", matches=10, visits=10)]
    ['/a.txt', '/b.txt']
    >>> bounded_glob(f"{root}/*", matches=1, visits=10) is None
    True
    >>> [p[len(root):] for p in bounded_glob(f"{root}/.e*", matches=10, visits=10)]
    ['/.env']
    """
    import fnmatch

    parts = [part for part in pattern.split("/") if part]
    current = ["/"]
    budget = visits
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        following: list[str] = []
        if not _GLOB_MAGIC.search(part):
            for base in current:
                path = posixpath.join(base, part)
                if os.path.lexists(path) and (last or os.path.isdir(path)):
                    following.append(path)
        else:
            dots = part.startswith(".")
            for base in current:
                try:
                    with os.scandir(base) as entries:
                        names = []
                        for entry in entries:
                            budget -= 1
                            if spent is not None:
                                spent[0] += 1
                            if budget < 0:
                                return None
                            names.append(entry.name)
                except OSError:
                    continue
                for name in sorted(names):
                    if name.startswith(".") and not dots:
                        continue
                    if fnmatch.fnmatchcase(name, part):
                        path = posixpath.join(base, name)
                        if last or os.path.isdir(path):
                            following.append(path)
        if len(following) > matches:
            return None
        current = following
    return current
