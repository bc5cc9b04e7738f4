"""Executor stage: the hooks folders git would use for a work tree; stdlib only.

A sandboxed command can write the workspace, and git runs what it finds in the hooks
folder later, outside the sandbox. The sandbox keeps that folder read-only (review AQ4),
so it must be found the way git finds it (review AS7): `core.hooksPath` may sit on the
section's own line (`[core] hooksPath = x`), carry a trailing comment or quotes, come from
a file the config includes (`include.path`, `includeIf.*.path`, whatever the condition),
from the common directory of a linked worktree (`.git` is then a `gitdir:` file), or from
the user's or the system's config, where a relative path is relative to each work tree.

The reading is loose where loose is safe: every `includeIf` counts, a value that cannot
be read is skipped, and the folders found are returned whether or not they exist yet
(the caller makes a missing one, so that it cannot be planted). The engine reads git
configuration in full for its own purpose; the executor imports nothing from it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_MAX_FILES = 32  # config files read per work tree, includes included
_MAX_BYTES = 1 << 20  # of one config file

_SECTION = re.compile(r'\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')
_KEY = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*(=?)")


@dataclass(slots=True)
class HookPlaces:
    """What one look found: hooks folders (absolute) and the config files that were read
    (a sandboxed command must not rewrite an included file into a new `hooksPath`)."""

    folders: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def hook_places(
    work_trees: Iterable[str], *, home: str, env: Mapping[str, str]
) -> HookPlaces:
    """The `core.hooksPath` folders git would use in each of `work_trees`."""
    found = HookPlaces()
    global_values = _values_of(_global_files(home, env), home, found.files)
    for tree in work_trees:
        config = _repository_configs(tree)
        values = global_values + _values_of(config, home, found.files)
        for value in values:
            folder = _absolute(value, tree, home)
            if folder is not None and folder not in found.folders:
                found.folders.append(folder)
    return found


def _repository_configs(tree: str) -> list[str]:
    """The repository's own config files for work tree `tree`: the common directory's
    `config` and the worktree's `config.worktree`."""
    gitdir = _gitdir(os.path.join(tree, ".git"))
    if gitdir is None:
        return []
    common = gitdir
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as handle:
            named = handle.read(65536).strip()
        if named:
            common = os.path.normpath(os.path.join(gitdir, named))
    except (OSError, UnicodeDecodeError):
        pass
    return [os.path.join(common, "config"), os.path.join(gitdir, "config.worktree")]


def _gitdir(dot_git: str) -> str | None:
    """The git directory `.git` names: itself, or the target of its `gitdir:` line."""
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as handle:
            line = handle.read(65536).strip()
    except (OSError, UnicodeDecodeError):
        return None
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


def _values_of(files: list[str], home: str, read: list[str]) -> list[str]:
    """Every `core.hooksPath` value of `files` and of the files they include."""
    values: list[str] = []
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
            if key == "core.hookspath":
                values.append(value)
            elif key == "include.path" or (key.startswith("includeif.") and
                                           key.endswith(".path")):
                target = _include_target(value, os.path.dirname(path), home)
                if target is not None:
                    todo.append(target)
    return values


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", "replace")


def entries(text: str) -> list[tuple[str, str]]:
    """`(section[.subsection].key, value)` pairs of a git config text, keys lower-cased
    (a subsection keeps its case), values unquoted; loose: a line it cannot read is
    skipped.

    >>> entries('[core] hooksPath = "tools/hooks" ; team hooks\\n[includeIf "gitdir:x"]\\n'
    ...         '  path = ../inc\\n')
    [('core.hookspath', 'tools/hooks'), ('includeif.gitdir:x.path', '../inc')]
    """
    pairs: list[tuple[str, str]] = []
    section = ""
    lines = _joined(text)
    for line in lines:
        rest = line
        head = _SECTION.match(rest)
        if head is not None:
            name, sub = head.group(1).lower(), head.group(2)
            section = name if sub is None else f"{name}.{_unescape(sub)}"
            rest = rest[head.end() :]
        key = _KEY.match(rest)
        if key is None or not section:
            continue
        value = _value(rest[key.end() :]) if key.group(2) else "true"
        pairs.append((f"{section}.{key.group(1).lower()}", value))
    return pairs


def _joined(text: str) -> list[str]:
    """Lines, with a backslash-newline continuation joined (outside comments)."""
    return re.sub(r"\\\r?\n", "", text).splitlines()


def _value(raw: str) -> str:
    """A value as git reads it: quotes removed, `;`/`#` outside quotes start a comment,
    `\\"`, `\\\\`, `\\t`, `\\n` escapes."""
    out: list[str] = []
    quoted = False
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            out.append({"t": "\t", "n": "\n", "b": "\b"}.get(raw[index + 1], raw[index + 1]))
            index += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char in ";#" and not quoted:
            break
        else:
            out.append(char)
        index += 1
    return "".join(out).strip()


def _unescape(sub: str) -> str:
    return re.sub(r"\\(.)", r"\1", sub)


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
