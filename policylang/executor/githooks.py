"""Executor stage: the hooks folders git would use for a work tree; stdlib only.

A sandboxed command can write the workspace, and git runs what it finds in the hooks
folder later, outside the sandbox. The sandbox keeps that folder read-only (review AQ4),
so it must be found the way git finds it (review AS7): `core.hooksPath` may sit on the
section's own line (`[core] hooksPath = x`), carry a trailing comment or quotes, come from
a file the config includes (`include.path`, `includeIf.*.path`, whatever the condition),
from the common directory of a linked worktree (`.git` is then a `gitdir:` file), or from
the user's or the system's config, where a relative path is relative to each work tree.

The config is read as git's own parser reads it (review AT7), and loosely where loose is
safe: every `includeIf` counts, a line git would refuse is skipped (git then refuses to
run), and the folders and included files found are returned whether or not they exist
yet (the caller makes a missing one, so that it cannot be planted: review AT4). A
workspace inside a repository is under that repository's setting, and `core.worktree`
moves a relative path (review AT6). The engine reads git
configuration in full for its own purpose; the executor imports nothing from it.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_MAX_FILES = 32  # config files read per work tree, includes included
_MAX_BYTES = 1 << 20  # of one config file



@dataclass(slots=True)
class HookPlaces:
    """What one look found: hooks folders (absolute) and the config files that were read
    (a sandboxed command must not rewrite an included file into a new `hooksPath`)."""

    folders: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def hook_places(
    work_trees: Iterable[str], *, home: str, env: Mapping[str, str]
) -> HookPlaces:
    """The `core.hooksPath` folders git would use in each of `work_trees`, and the config
    files it reads for them (an included file that does not exist yet too: a command
    could create it, review AT4)."""
    found = HookPlaces()
    global_settings = _settings(_global_files(home, env), home, found.files)
    for tree in work_trees:
        configs = _repository_configs(tree)
        settings = global_settings + _settings([c for c, _ in configs], home, found.files)
        base = tree
        for key, value in settings:
            if key == "core.worktree" and configs:  # relative to the git directory
                base = os.path.normpath(os.path.join(configs[0][1], value))
        for key, value in settings:
            if key != "core.hookspath":
                continue
            folder = _absolute(value, base, home)
            if folder is not None and folder not in found.folders:
                found.folders.append(folder)
    return found


def git_directories(work_trees: Iterable[str]) -> list[str]:
    """The git directories (and common directories) of `work_trees` that `.git` *files*
    lead to: `gitdir: ./.bare` keeps the hooks, config and refs of a bare-clone layout
    under another name than `.git` (review AU2)."""
    found: list[str] = []
    for tree in work_trees:
        dot_git = os.path.join(tree, ".git")
        if os.path.isdir(dot_git):
            continue  # `.git` itself, protected by name
        configs = _repository_configs(tree)
        for config, gitdir in configs[:1]:
            for folder in (os.path.dirname(config), gitdir):
                # a git directory has a HEAD: any `.git` file naming `../..` had made the
                # whole workspace read-only (review AV4)
                if folder not in found and os.path.isfile(os.path.join(folder, "HEAD")):
                    found.append(folder)
    return found


def enclosing_tree(folder: str) -> str | None:
    """The work tree of the repository `folder` lies inside (its nearest ancestor with a
    `.git`), not `folder` itself: a workspace opened in a monorepo's subfolder is under
    the monorepo's hooks setting (review AT6)."""
    current = os.path.abspath(folder)
    while True:
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
        if os.path.lexists(os.path.join(current, ".git")):
            return current


def _repository_configs(tree: str) -> list[tuple[str, str]]:
    """The repository's own config files for work tree `tree`, each with its git
    directory: the common directory's `config` and the worktree's `config.worktree`."""
    gitdir = _gitdir(os.path.join(tree, ".git"))
    if gitdir is None:
        return []
    common = gitdir
    named = (_read(os.path.join(gitdir, "commondir")) or "").strip()
    if named:
        common = os.path.normpath(os.path.join(gitdir, named))
    return [(os.path.join(common, "config"), gitdir),
            (os.path.join(gitdir, "config.worktree"), gitdir)]


def _gitdir(dot_git: str) -> str | None:
    """The git directory `.git` names: itself, or the target of its `gitdir:` line."""
    if os.path.isdir(dot_git):
        return dot_git
    line = (_read(dot_git) or "").strip()
    if not line.startswith("gitdir:"):
        return None
    target = line[len("gitdir:") :].strip()
    return os.path.normpath(os.path.join(os.path.dirname(dot_git), target))


def _global_files(home: str, env: Mapping[str, str]) -> list[str]:
    system = env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    user = [env["GIT_CONFIG_GLOBAL"]] if env.get("GIT_CONFIG_GLOBAL") else [
        os.path.join(xdg, "git", "config"),
        os.path.join(home, ".gitconfig"),
    ]
    return [system, *user]


def _settings(files: list[str], home: str, read: list[str]) -> list[tuple[str, str]]:
    """The `core.hooksPath` and `core.worktree` settings of `files` and of the files they
    include, in git's order; `read` gets every existing file read and every include
    target, existing or not."""
    found: list[tuple[str, str]] = []
    todo = list(files)
    seen: set[str] = set()
    while todo and len(seen) < _MAX_FILES:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        text = _read(path)
        if text is None:
            continue
        if path not in read:
            read.append(path)
        for key, value in entries(text):
            if key in ("core.hookspath", "core.worktree"):
                found.append((key, value))
            elif key == "include.path" or (key.startswith("includeif.") and
                                           key.endswith(".path")):
                target = _include_target(value, os.path.dirname(path), home)
                if target is not None:
                    todo.append(target)
                    if target not in read:
                        read.append(target)
    return found


def _read(path: str) -> str | None:
    """The text of regular file `path`, or None. Opened without blocking and checked to be
    a regular file: a FIFO a sandboxed command made at `sub/.git` had hung the host's
    `open` for good (review AU4)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, _MAX_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace")


def entries(text: str) -> list[tuple[str, str]]:
    """`(section[.subsection].key, value)` pairs of a git config text, read the way git's
    own parser reads it (review AT7): several headers and a key may share a line, a
    comment ends at its line even after a backslash, blanks outside quotes become one
    space, quotes and `\\"`, `\\\\`, `\\t`, `\\n`, `\\b` escapes are undone. Keys
    are lower-cased, a subsection keeps its case. Where git would stop at a bad line,
    this skips it: git then refuses to run, so nothing it names is used.

    >>> entries('[core] hooksPath = "tools/hooks" ; team hooks\\n[includeIf "gitdir:x"]\\n'
    ...         '  path = ../inc\\n')
    [('core.hookspath', 'tools/hooks'), ('includeif.gitdir:x.path', '../inc')]
    >>> entries('[a] [core] # c \\\\\\n hooksPath = t\\th  x\\n')
    [('core.hookspath', 't h  x')]
    """
    text = text.replace("\r\n", "\n").removeprefix("\ufeff")
    pairs: list[tuple[str, str]] = []
    section = ""
    index, end = 0, len(text)
    while index < end:
        char = text[index]
        if char.isspace():
            index += 1
        elif char in "#;":
            index = _line_end(text, index)
        elif char == "[":
            header = _header(text, index + 1)
            if header is None:
                section, index = "", _line_end(text, index)
            else:
                section, index = header
        elif (key := _KEY_CHARS.match(text, index)) is not None:
            # (an ASCII letter starts a key: `é` had raised, after the command ran: AU3)
            index = key.end()
            while index < end and text[index] in " \t":
                index += 1
            if index >= end or text[index] == "\n":
                value: str | None = "true"
            elif text[index] == "=":
                value, index = _value(text, index + 1)
            else:
                value, index = None, _line_end(text, index)
            if value is not None and section:
                pairs.append((f"{section}.{key.group().lower()}", value))
        else:
            index = _line_end(text, index)
    return pairs


_KEY_CHARS = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


def _line_end(text: str, index: int) -> int:
    found = text.find("\n", index)
    return len(text) if found < 0 else found + 1


def _header(text: str, index: int) -> tuple[str, int] | None:
    """The section a `[` header at `index - 1` names and where reading goes on, or None
    for a header git would refuse."""
    name: list[str] = []
    end = len(text)
    while index < end:
        char = text[index]
        index += 1
        if char == "]":
            return "".join(name).lower(), index
        if char.isspace():
            return _subsection_header("".join(name).lower(), text, index)
        if not (char.isalnum() or char in "-."):
            return None
        name.append(char)
    return None


def _subsection_header(name: str, text: str, index: int) -> tuple[str, int] | None:
    end = len(text)
    while index < end and text[index] in " \t":
        index += 1
    if index >= end or text[index] != '"':
        return None
    index += 1
    sub: list[str] = []
    while index < end and text[index] != '"':
        char = text[index]
        if char == "\n":
            return None
        if char == "\\":
            index += 1
            if index >= end or text[index] == "\n":
                return None
            char = text[index]
        sub.append(char)
        index += 1
    if index + 1 >= end or text[index + 1] != "]":
        return None
    return f"{name}.{''.join(sub)}", index + 2


def _value(text: str, index: int) -> tuple[str | None, int]:
    """A value as git's `parse_value` reads it, and where its line ends; None for one git
    refuses (an open quote, an unknown escape)."""
    out: list[str] = []
    quoted = comment = False
    spaces = 0
    end = len(text)
    while index < end:
        char = text[index]
        index += 1
        if char == "\n":
            return (None if quoted else "".join(out)), index
        if comment:
            continue
        if char.isspace() and not quoted:
            spaces += bool(out)
            continue
        if not quoted and char in ";#":
            comment = True
            continue
        out.extend(" " * spaces)
        spaces = 0
        if char == "\\":
            following = text[index] if index < end else ""
            index += 1
            if following == "\n":
                continue
            escaped = {"t": "\t", "b": "\b", "n": "\n", "\\": "\\", '"': '"'}.get(following)
            if escaped is None:
                return None, _line_end(text, index - 1)
            out.append(escaped)
        elif char == '"':
            quoted = not quoted
        else:
            out.append(char)
    return (None if quoted else "".join(out)), index


def _include_target(value: str, base: str, home: str) -> str | None:
    if not value:
        return None
    if value.startswith("~/"):
        return os.path.join(home, value[2:])
    if value.startswith("~"):
        expanded = os.path.expanduser(value)
        return None if expanded.startswith("~") else expanded
    return os.path.normpath(os.path.join(base, value))


def _absolute(value: str, tree: str, home: str) -> str | None:
    if not value:
        return None
    if value.startswith("~/") or value == "~":
        return os.path.normpath(os.path.join(home, value[2:]))
    if value.startswith("~"):
        expanded = os.path.expanduser(value)
        return None if expanded.startswith("~") else os.path.normpath(expanded)
    return os.path.normpath(os.path.join(tree, value))
