"""Reading `strace -ff -y` logs into effects (write, exec, network, secret); pure, imports
nothing.

The dynamic oracle (`policylang.testing.oracle`) runs a command under strace inside a
sandbox; this module turns each per-process log into `Event`s. It only reads text, so
it is tested on recorded lines without running anything.

What counts:

- a **write**: an open with a writing flag (`O_WRONLY`, `O_RDWR`, `O_CREAT`, `O_TRUNC`,
  `O_APPEND`, `O_TMPFILE`) or a call that changes the file system (rename, unlink, mkdir,
  link, symlink, chmod, chown, truncate, utimensat with a path, mknod, mount, xattrs),
  attempted, whether or not it succeeded (but not `mkdir` of a directory that exists).
  A call that names two paths (rename, link, symlink) is a write of both: `parse_log`
  gives the second (the new name: where `mv x .git/hooks/pre-commit` writes) an event
  of its own (`parse_line` gives the first).
  Terminal and null devices and a process's own descriptors (`/dev/null`, `/dev/tty`,
  `/dev/fd/N` …) are not writes; a write under
  `/tmp` (a private tmpfs in the sandbox) is a `tmp-write`, reported but not flagged.
- an **exec**: a successful `execve` of a program (the oracle decides which are outside
  the read-only set).
- a **system** change: setting the clock or the host name, mounting, modules, reboot,
  attempted (the sandbox refuses them all, having no capabilities).
- **network**: an internet or packet socket, or a connect/bind/send to an internet address.
  Unix sockets (name service lookups) and netlink (`ip`, `ss` reading the kernel's
  tables) are not network access.
- a **secret** read, only when the caller names the secret files (`secrets`, absolute
  paths as the traced process sees them) and traces `SECRET_TRACED_CALLS`: a call that
  moved content out of a descriptor strace's `-y` shows as one of them (`read`, `pread64`,
  `readv`, `preadv`, `sendfile`, `copy_file_range`, `splice` returning more than 0 bytes,
  or an `mmap` of it that did not fail), which sees through symbolic links since `-y`
  shows the file itself; or an `execve` of one that the kernel did not refuse before
  reading it (`EACCES`, `ENOENT` …). An open alone is not a read: `df FILE` and
  `wc -c FILE` open a file only to `fstat` it. A `stat`, a directory listing or a glob
  reads no content either.
"""

from __future__ import annotations

import enum
import posixpath
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field


class Effect(enum.StrEnum):
    """The kinds of effect a trace shows."""

    WRITE = "write"
    TMP_WRITE = "tmp-write"
    EXEC = "exec"
    NETWORK = "network"
    SYSTEM = "system"
    SECRET = "secret"


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One effect seen in a trace: its kind, the call, what it touched, and the result."""

    effect: Effect
    syscall: str
    target: str  # a path, a program path, or an address family
    result: str = ""
    # an exec's arguments as the trace shows them; None where it cut any short
    argv: tuple[str, ...] | None = field(default=None, compare=False)

    def render(self) -> str:
        result = f" = {self.result}" if self.result else ""
        return f"{self.effect}: {self.syscall}({self.target}){result}"


_LINE = re.compile(r"^(?P<name>[a-z_0-9]+)\((?P<args>.*?)"
                   r"(?:\)\s+=\s+(?P<result>.*)|\s*<unfinished \.\.\.>)?$")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_DIRFD = re.compile(r"^(?:AT_FDCWD|-?\d+)<([^>]*)>")
_WRITE_FLAGS = re.compile(r"\bO_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND|TMPFILE)\b")
_ANNOTATED_FD = re.compile(r"\b\d+<(?P<path>[^>]*)>")
# an execve the kernel refused before it read the file (a missing or unreadable program)
_EXEC_UNREAD = re.compile(r"^-1 E(?:ACCES|NOENT|NOTDIR|LOOP|NAMETOOLONG|PERM)\b")
_FAMILY = re.compile(r"\b(?:sa_family=)?(AF_[A-Z0-9]+)\b")

_OPENS = frozenset({"open", "openat", "openat2", "creat"})
# calls that change the file system by path (their first string argument)
_CHANGES = frozenset({
    "rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir",
    "link", "linkat", "symlink", "symlinkat", "chmod", "fchmodat", "chown", "lchown",
    "fchownat", "truncate", "utime", "utimes", "futimesat", "mknod", "mknodat", "mount",
    "setxattr", "lsetxattr", "removexattr", "lremovexattr",
})
# calls whose second path is a new name (written too): the destination of a rename or link,
# the link a symlink makes (its first string is the link's text, not a path it writes)
_TWO_PATHS = frozenset({"rename", "renameat", "renameat2", "link", "linkat", "symlink",
                        "symlinkat"})
# calls that change a file through a descriptor (annotated with its path by -y)
_FD_CHANGES = frozenset({"fchmod", "fchown", "ftruncate", "fsetxattr", "fremovexattr"})
_EXECS = frozenset({"execve", "execveat"})
# calls that move a file's content out of a descriptor (`mmap` maps it)
_READS = frozenset({"read", "pread64", "readv", "preadv", "preadv2", "mmap", "sendfile",
                    "sendfile64", "copy_file_range", "splice"})
_NET_CALLS = frozenset({"connect", "bind", "sendto", "sendmsg"})
_NET_FAMILIES = frozenset({"AF_INET", "AF_INET6", "AF_PACKET"})
# calls that change the system itself (clock, names, mounts, modules, power)
_SYSTEM = frozenset({
    "sethostname", "setdomainname", "settimeofday", "clock_settime", "reboot", "swapon",
    "swapoff", "init_module", "finit_module", "delete_module", "umount2", "pivot_root",
    "chroot", "acct", "kexec_load",
})

#: Paths that are never a write: terminals, null devices, a process's own descriptors.
_HARMLESS = re.compile(r"^/(?:dev/(?:null|zero|full|tty\d*|pts/\d+|ptmx|std(?:in|out|err)|fd/\d+)"
                       r"|proc/(?:self|thread-self|\d+)/fd/\d+)$")

#: The strace `-e trace=` list; a `?` marks calls that some architectures lack.
TRACED_CALLS = ",".join(sorted(
    f"?{name}" for name in (*_OPENS, *_CHANGES, *_FD_CHANGES, *_EXECS, *_NET_CALLS,
                            *_SYSTEM, "socket", "utimensat")))
#: The list for the secrets oracle: the reads as well.
SECRET_TRACED_CALLS = ",".join(sorted({*TRACED_CALLS.split(","), *(f"?{n}" for n in _READS)}))


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _first_path(args: str) -> tuple[str, str] | None:
    """(path, rest of the arguments) of the first string argument, joined to its dirfd."""
    match = _STRING.search(args)
    if match is None:
        return None
    path = _unescape(match.group(1))
    dirfd = _DIRFD.match(args[:match.start()])
    if not path.startswith("/") and dirfd is not None:
        path = dirfd.group(1).rstrip("/") + "/" + path
    return path, args[match.end():]


_ARGV_ITEM = re.compile(r'"((?:[^"\\]|\\.)*)"(\.\.\.)?(, |\])')


_OTHER_ESCAPE = re.compile(r'\\[^"\\nt]')


def _argv(rest: str) -> tuple[str, ...] | None:
    """The argument array of an exec, from what follows its path (`, ["git", "config"],
    0x… /* 20 vars */`); None where strace cut a string (`"…"...`) or the array (`...]`)
    short, or it is not there (review DY7: the oracle judges a helper by what it runs)."""
    if not rest.startswith(", ["):
        return None
    position, items = 3, []
    if rest.startswith("]", position):
        return ()
    while True:
        match = _ARGV_ITEM.match(rest, position)
        if match is None or match.group(2) or _OTHER_ESCAPE.search(match.group(1)):
            return None  # (an octal escape `\303` is not read back as the byte it was)
        items.append(_unescape(match.group(1)))
        position = match.end()
        if match.group(3) == "]":
            return tuple(items)


def _write_event(syscall: str, path: str, result: str) -> Event | None:
    if _HARMLESS.match(path):
        return None
    effect = Effect.TMP_WRITE if path == "/tmp" or path.startswith("/tmp/") else Effect.WRITE
    return Event(effect=effect, syscall=syscall, target=path, result=result)


def _fd_path(args: str) -> str | None:
    match = _DIRFD.match(args)
    return match.group(1) if match else None


def _secret_read(line: str, name: str, secrets: Collection[str]) -> Event | None:
    """A read of a secret's content through a descriptor, or None."""
    # the data read is a quoted string that may hold `) = `: the result is after the last
    args, _, result = line.rpartition(") = ")
    if not args:
        args, result = line, "?"  # unfinished: killed while reading
    result = result.strip()
    moved = result.startswith("0x") if name == "mmap" else result[:1] in set("123456789?")
    if not moved:
        return None
    for found in _ANNOTATED_FD.finditer(_STRING.sub('""', args)):
        if found["path"] in secrets:
            return Event(effect=Effect.SECRET, syscall=name, target=found["path"],
                         result=result)
    return None


def parse_line(line: str, secrets: Collection[str] = ()) -> Event | None:
    """The effect one strace line shows, or None; `secrets` are the files whose reads count."""
    match = _LINE.match(line.strip())
    if match is None:
        return None
    name, args, result = match["name"], match["args"], (match["result"] or "?").strip()
    if name in _READS:
        return _secret_read(line.strip(), name, secrets) if secrets else None
    if name in _OPENS or name in _CHANGES or name == "utimensat":
        found = _first_path(args)
        if found is None:
            if name == "utimensat" and (path := _fd_path(args)):  # futimens on a descriptor
                return _write_event(name, path, result)
            return None
        path, rest = found
        if name in ("open", "openat", "openat2") and not _WRITE_FLAGS.search(rest):
            return None
        if name in ("mkdir", "mkdirat") and "EEXIST" in result:
            return None  # an existing directory: nothing changed
        return _write_event(name, path, result)
    if name in _FD_CHANGES:
        path = _fd_path(args)
        return _write_event(name, path, result) if path else None
    if name in _EXECS:
        found = _first_path(args)
        if found is None:
            return None
        if (secrets and posixpath.normpath(found[0]) in secrets
                and not _EXEC_UNREAD.match(result)):
            return Event(effect=Effect.SECRET, syscall=name, target=posixpath.normpath(found[0]),
                         result=result)
        if not result.startswith("0"):
            return None
        return Event(effect=Effect.EXEC, syscall=name, target=found[0], result="0",
                     argv=_argv(found[1]))
    if name in _SYSTEM:
        return Event(effect=Effect.SYSTEM, syscall=name, target=args[:80], result=result)
    if name == "socket" or name in _NET_CALLS:
        family = _FAMILY.search(args)
        if family is None or family.group(1) not in _NET_FAMILIES:
            return None
        return Event(effect=Effect.NETWORK, syscall=name, target=family.group(1), result=result)
    return None


def destination(line: str) -> Event | None:
    """The write of a two-path call's second path (`rename`'s new name), or None."""
    match = _LINE.match(line.strip())
    if match is None or match["name"] not in _TWO_PATHS:
        return None
    found = _first_path(match["args"])
    if found is None:
        return None
    second = _first_path(found[1].lstrip(", "))
    if second is None:
        return None
    return _write_event(match["name"], second[0], (match["result"] or "?").strip())


def parse_log(lines: Iterable[str], secrets: Collection[str] = ()) -> tuple[Event, ...]:
    """Every effect in one process's log, in order (`secrets` as for `parse_line`); a
    two-path call gives two (`destination`)."""
    events: list[Event] = []
    for line in lines:
        if (event := parse_line(line, secrets)) is not None:
            events.append(event)
            if (second := destination(line)) is not None:
                events.append(second)
    return tuple(events)
