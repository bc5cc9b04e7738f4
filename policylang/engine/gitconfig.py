"""Engine stage: whether a repository's git config can run programs; imports nothing above.

`git status` runs no program of the repository's choosing only when the repository's
own configuration says nothing that git turns into a command. A cloned or generated
repository (or an agent tricked into writing `.git/config`) can set `core.fsmonitor`,
`core.pager`, `diff.external`, a `textconv` driver or a `!` alias, and the next "read-only"
`git status` or `git log` runs it. This module reads `.git/config` and the files it
includes (`include.path`, every `includeIf.*.path`, conservatively regardless of the
condition) and reports the keys that can run programs.

Reading is cached per file by `(mtime_ns, size, inode)`, so repeated evaluations cost a
few `stat` calls. Unreadable or unparsable config counts as dangerous (fail closed).
"""

from __future__ import annotations

import os
import re
import stat
import threading
from dataclasses import dataclass

# Keys (lowercased; `*` is one subsection) whose value git may execute.
_EXACT_KEYS = frozenset(
    {
        "core.fsmonitor",
        "core.pager",
        "core.sshcommand",
        "core.hookspath",
        "core.editor",
        "core.askpass",
        "core.gitproxy",
        "core.alternaterefscommand",
        "diff.external",
        "diff.tool",
        "merge.tool",
        "sequence.editor",
        "gpg.program",
        "credential.helper",
        "interactive.difffilter",
        "uploadpack.packobjectshook",
        "web.browser",
        "pager.*",
        "diff.*.textconv",
        "diff.*.command",
        "filter.*.clean",
        "filter.*.smudge",
        "filter.*.process",
        "merge.*.driver",
        "gpg.*.program",
        "credential.*.helper",
        "remote.*.uploadpack",
        "remote.*.receivepack",
        "remote.*.vcs",
        "difftool.*.cmd",
        "mergetool.*.cmd",
        "browser.*.cmd",
        "man.*.cmd",
    }
)
_MAX_INCLUDES = 32
_SECTION = re.compile(r'^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$')
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$")


@dataclass(frozen=True, slots=True, kw_only=True)
class GitRisk:
    """A config entry that lets git run a program: the key and the file that sets it."""

    key: str
    file: str


def _key_pattern(section: str, sub: str | None, name: str) -> tuple[str, str]:
    """The lowercased full key and its wildcard form (`diff.x.textconv` → `diff.*.textconv`)."""
    section = section.lower()
    name = name.lower()
    if sub is None:
        full = f"{section}.{name}"
        return full, full
    return f"{section}.{sub}.{name}", f"{section}.*.{name}"


def _dangerous(section: str, sub: str | None, name: str, value: str) -> bool:
    full, wild = _key_pattern(section, sub, name)
    if full in _EXACT_KEYS or wild in _EXACT_KEYS:
        return True
    if section.lower() == "alias":
        return value.lstrip().startswith("!")
    return sub is None and section.lower() == "pager"


def _parse(text: str) -> tuple[list[tuple[str, str | None, str, str]], bool]:
    """Entries `(section, subsection, name, value)` and whether every line parsed."""
    entries: list[tuple[str, str | None, str, str]] = []
    ok = True
    section: str | None = None
    sub: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        match = _SECTION.match(line)
        if match:
            name = match.group(1)
            if "." in name and match.group(2) is None:
                # old-style [section.sub] form
                name, _, old_sub = name.partition(".")
                section, sub = name, old_sub
            else:
                section, sub = name, match.group(2)
            line = match.group(3).strip()
            if not line or line[0] in "#;":
                continue
        key = _KEY.match(line)
        if key is None or section is None:
            ok = False
            continue
        entries.append((section, sub, key.group(1), (key.group(2) or "true").strip()))
    return entries, ok


@dataclass(frozen=True, slots=True)
class _FileResult:
    risks: tuple[GitRisk, ...]
    includes: tuple[str, ...]


class GitConfigInspector:
    """Finds the repository of a directory and the risky keys of its config (cached)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[tuple[int, int, int], _FileResult]] = {}
        self._lock = threading.Lock()

    def risks_for(self, directory: str) -> tuple[tuple[GitRisk, ...], bool]:
        """The risky keys for the repository containing `directory`.

        Returns `(risks, complete)`; `complete` is False when some config could not be
        read or parsed (the caller treats that as a risk).
        """
        config = find_config(directory)
        if config is None:
            return (), True
        return self._collect(config)

    def _collect(self, config: str) -> tuple[tuple[GitRisk, ...], bool]:
        risks: list[GitRisk] = []
        complete = True
        seen: set[str] = set()
        pending = [config]
        while pending:
            path = pending.pop()
            if path in seen:
                continue
            seen.add(path)
            if len(seen) > _MAX_INCLUDES:
                return tuple(risks), False
            result = self._read(path)
            if result is None:
                complete = False
                continue
            risks.extend(result.risks)
            pending.extend(result.includes)
        return tuple(risks), complete

    def _read(self, path: str) -> _FileResult | None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            # A missing include is ignored by git itself.
            return _FileResult(risks=(), includes=())
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return None  # a FIFO or device would block or lie: not a config we can trust
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        with self._lock:
            cached = self._cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read(1_000_000)
        except OSError:
            return None
        entries, ok = _parse(text)
        if not ok:
            return None
        result = _analyse(entries, path)
        with self._lock:
            self._cache[path] = (stamp, result)
        return result


def _analyse(entries: list[tuple[str, str | None, str, str]], path: str) -> _FileResult:
    risks: list[GitRisk] = []
    includes: list[str] = []
    base = os.path.dirname(path)
    for section, sub, name, value in entries:
        low = section.lower()
        if name.lower() == "path" and low in ("include", "includeif"):
            target = _unquote(value)
            if target.startswith("~/"):
                target = os.path.expanduser(target)
            includes.append(os.path.normpath(os.path.join(base, target)))
            continue
        if _dangerous(section, sub, name, value):
            full, _ = _key_pattern(section, sub, name)
            risks.append(GitRisk(key=full, file=path))
    return _FileResult(risks=tuple(risks), includes=tuple(includes))


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def find_config(directory: str) -> str | None:
    """The config file of the repository containing `directory` (walking up), if any.

    Handles a `.git` directory and a `.git` file (`gitdir: …`, worktrees, submodules).
    """
    current = directory
    if not current.startswith("/") or "/." in current or "//" in current:
        current = os.path.abspath(current)
    current = current.rstrip("/")  # `/` becomes "" and `/.git` is then "" + "/.git"
    for _ in range(256):
        dot_git = current + "/.git"
        mode = 0
        # `access` first: on the hot path most levels have no `.git`, and a failing `stat`
        # costs a Python exception
        try:
            if os.access(dot_git, os.F_OK):
                mode = os.stat(dot_git).st_mode
        except (OSError, ValueError):  # ValueError: a NUL in the path
            mode = 0
        if stat.S_ISDIR(mode):
            return dot_git + "/config"
        if stat.S_ISREG(mode):
            return _config_from_gitfile(dot_git)
        if not current:
            return None
        current = current.rpartition("/")[0]
    return None


def _config_from_gitfile(path: str) -> str | None:
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            first = handle.readline().strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    gitdir = os.path.join(os.path.dirname(path), first[len("gitdir:") :].strip())
    commondir = os.path.join(gitdir, "commondir")
    if os.path.isfile(commondir):
        try:
            with open(commondir, encoding="utf-8", errors="replace") as handle:
                gitdir = os.path.join(gitdir, handle.readline().strip())
        except OSError:
            return None
    return os.path.normpath(os.path.join(gitdir, "config"))
