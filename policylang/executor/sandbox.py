"""Executor stage: execution backends (plain Unix, bubblewrap) and their probes; imports
only `executor.env` (the secret-looking names a login shell must drop again) and
`executor.githooks` (the hooks folders to keep read-only).

A backend turns a command into the argv that runs it and says, through `probe`,
whether it can work on this host. The executor refuses to run when the requested
backend is unusable: a sandbox that cannot be set up is never replaced by an
unconfined run.

The bubblewrap backend mounts the whole filesystem read-only, then a fresh `/dev`,
`/proc` and a private `/tmp`, then the workspace (and any extra writable paths)
read-write; it unshares every namespace (network included unless allowed), drops
every capability (even when the host runs as root) and dies with its parent. It
raises the cost of an attack; it is not a boundary on its own.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import errno
import logging
import os
import re
import shutil
import site
import stat
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from policylang.errors import ExecutionRefusedError, SandboxUnavailableError
from policylang.executor.env import SECRET_MARKERS
from policylang.executor.githooks import (
    HookPlaces,
    enclosing_tree,
    git_directories,
    hook_places,
)

_log = logging.getLogger(__name__)

#: What a denied write looks like in a sandboxed command's output (EROFS).
READ_ONLY_MESSAGE = "Read-only file system"

#: Names in the workspace that stay read-only inside the sandbox when they exist: what a
#: command there could change to run code outside it later (git hooks and config, agent
#: and editor configuration, direnv) or to widen the policy (review L2). The default
#: ruleset protects the same names from plain commands' writes.
PROTECTED_NAMES = (
    ".git", ".claude", ".gemini", ".codex", ".agents", ".opencode", ".cursor", ".idea",
    ".vscode", ".mcp.json", ".envrc", ".policylang", "AGENTS.md", "CLAUDE.md", "GEMINI.md",
    # git hooks kept in the work tree (husky, lefthook, pre-commit) and tool-version files
    # that run code on `cd` (mise): a sandboxed command could plant what git or the
    # shell runs outside the sandbox later (review AQ4)
    ".husky", ".githooks", ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml",
    "lefthook-local.yml", ".lefthook", "mise.toml", ".mise.toml", "mise.local.toml",
    # lefthook's and mise's other spellings, and the configuration of other agents and
    # editors that names MCP servers, hooks or commands their host runs (review AY5)
    "lefthook.yaml", "lefthook.toml", "lefthook.json", ".lefthook.yaml", ".lefthook.toml",
    ".lefthook.json", ".lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yaml",
    ".mise", ".mise.local.toml", "opencode.json", "opencode.jsonc", ".windsurf", ".kiro",
    ".clinerules", ".roo", ".continue", ".amazonq", ".zed", ".qwen", ".crush.json",
    "crush.json", ".aider.conf.yml", ".devcontainer", ".devcontainer.json",
    "CLAUDE.local.md", "lefthook-local.toml", "lefthook-local.json", ".lefthook-local.toml",
    ".lefthook-local.json", ".cursorrules", ".windsurfrules",
)  # fmt: skip
#: Of those, the folders made (empty) when missing, so that a sandboxed command cannot
#: create them: a new `.claude/settings.json` defines hooks that the agent's host runs
#: unsandboxed. An empty folder is harmless and invisible to git; `.git` is not among
#: them (an empty `.git` would hide the enclosing repository), nor are files.
CREATED_WHEN_MISSING = (".claude", ".gemini", ".codex", ".agents", ".opencode", ".cursor",
                        ".vscode")
#: Files and folders under the home directory that run code outside the sandbox later
#: (shell start-up files, git's and systemd's configuration, `~/.local/bin`, ssh's keys
#: and `authorized_keys`): kept read-only when the home directory lies inside a writable
#: area (a workspace of `~`), where they had been writable (review AY4).
HOME_STARTUP_NAMES = (
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile",
    ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc",
    ".xprofile", ".xsessionrc", ".pam_environment", ".inputrc", ".gitconfig", ".ssh",
    ".gnupg", ".config/git", ".config/systemd", ".config/autostart", ".config/fish",
    ".config/environment.d", ".config/policylang", ".local/bin", ".claude.json",
    # and what the shipped policy protects there too (review BA7): a `.pth` file or
    # `usercustomize.py` runs at every Python start, agents' and tools' configuration
    # names programs to run, and policylang's own snapshots
    ".mkshrc", ".local/lib", ".config/opencode", ".claude", ".codex", ".gemini", ".cursor",
    ".agents", ".cache/policylang", ".cargo/config.toml", ".cargo/config", ".docker",
    ".npmrc", ".pypirc", ".netrc", ".git-credentials", ".config/gh", ".aws", ".kube",
)  # fmt: skip
#: Service sockets hidden inside the sandbox (a folder becomes an empty tmpfs, a socket
#: `/dev/null`): the per-user runtime folder (D-Bus, ssh and gpg agents, podman) and the
#: container engines', which are as good as root.
MASKED_PATHS = ("/run/user", "/var/run/docker.sock", "/run/docker.sock",
                "/run/podman/podman.sock", "/run/containerd/containerd.sock",
                "/var/run/containerd/containerd.sock", "/run/dbus/system_bus_socket",
                # GNU screen sessions (`screen -X stuff` types into the user's terminal)
                # and daemons as good as root (review AS8)
                "/run/screen", "/var/run/screen", "/run/libvirt", "/var/run/libvirt",
                "/var/snap/lxd/common/lxd/unix.socket", "/run/incus", "/run/crio",
                "/run/k3s", "/run/containerd", "/var/run/crio",
                # the folders that exist only for container daemons, wherever they keep
                # their sockets, with or without network: Incus's default
                # (`/var/lib/incus/unix.socket`), LXD's outside snap, rootful podman's and
                # docker's own runtime folders (review DV2)
                "/var/lib/incus", "/var/lib/lxd", "/var/snap/lxd/common/lxd",
                "/run/podman", "/var/run/podman", "/var/run/incus", "/run/docker",
                "/var/run/docker", "/var/run/containerd", "/var/run/k3s")
#: Folders under the home directory where sockets of this user's sessions live: ssh
#: `ControlMaster` connections (a command over an authenticated connection, no key
#: needed), gpg agents, Docker Desktop. Each socket found in them is hidden (review AS8).
#: Without network, the runtime folders of the host's services are hidden whole (an empty
#: tmpfs): every socket there is a way out of "no network" (systemd-resolved's varlink
#: socket resolves any name the command chooses, nscd too; PostgreSQL, MySQL, snapd,
#: CUPS: review DU4). A list of sockets to hide always missed one; what is bound back
#: is `RUN_KEPT` (and the links at their top, and the files links in `/etc` lead to).
RUN_FOLDERS = ("/run", "/var/run")
#: What commands need in those folders: NixOS's system profile and setuid wrappers (the
#: shell and `stat` live there), and the lock folder (made empty).
RUN_KEPT = ("wrappers",)
#: Sockets elsewhere hidden too when the network is off: the Nix daemon's (a
#: fixed-output derivation fetches from the network) and MySQL's old default.
OFFLINE_MASKED_PATHS = ("/nix/var/nix/daemon-socket", "/var/lib/mysql/mysql.sock",
                        "/var/lib/mysqld/mysqld.sock")
HOME_SOCKET_FOLDERS = (".ssh", ".gnupg", ".docker", ".lima", ".colima",
                       # Rancher Desktop (`~/.rd/docker.sock`), Colima under XDG, and
                       # podman machines' API sockets (review DV2); Docker Desktop's
                       # `~/.docker/run` and `~/.docker/desktop` are in `.docker`
                       ".rd", ".config/colima", ".local/share/containers/podman/machine",
                       ".local/share/containers/podman-desktop", ".orbstack")
_SOCKET_DEPTH = 3  # folder levels searched below each of those
#: Where system daemons other than those named keep sockets outside `/run`: every socket
#: found there (`_system_sockets`, a bounded search) is hidden too, with or without
#: network; a list of names always misses one (review DV2).
SYSTEM_SOCKET_ROOTS = ("/var/lib", "/var/snap")
_SYSTEM_SOCKET_DEPTH = 3  # folder levels searched below each of those
_SYSTEM_SOCKET_FOLDERS = 5_000  # folders listed at most, the shallowest first


@dataclass(frozen=True, slots=True, kw_only=True)
class Availability:
    """The result of a backend's probe: whether it works here, and why not."""

    ok: bool
    detail: str


@runtime_checkable
class Backend(Protocol):
    """How a command is turned into a process (see module docstring)."""

    @property
    def name(self) -> str: ...

    @property
    def confined(self) -> bool:
        """True for a sandbox: an unusable confined backend is a `SandboxUnavailableError`."""
        ...

    def probe(self) -> Availability: ...

    def argv(
        self, command: str, *, cwd: str, login: bool, keep: Iterable[str] = ()
    ) -> list[str]: ...


def _shell_argv(shell: str, command: str, *, login: bool, keep: Iterable[str] = ()) -> list[str]:
    """`SHELL -c COMMAND`; for a login shell, the profile files are read, then every
    variable with a secret-looking name is dropped again before the command runs:
    `~/.profile` commonly exports API keys, which had reached the command although its
    environment was scrubbed (review AQ3). `keep`: names the caller forced through.

    Review AS6 hardened the scrub: every shell variable, not only exported ones (the
    command runs in the profile's shell and could read `$GITHUB_TOKEN` set without
    `export`); names read line by line (a profile's `IFS=_` had split `GITHUB_TOKEN`
    into two names); one that cannot be unset (`readonly`) ends the run with 126 instead;
    patterns that need no bash 4 (`${v^^}` broke bash 3.2); forced names compared as
    given; and a shell that is not bash, where none of this works, refuses with 126.
    """
    if command[:1] in ("-", "+"):
        # bash reads a `-c` string that starts with `-` or `+` as its own options: what
        # ran was not the text judged (review AQ15); a leading blank changes nothing else
        command = " " + command
    if not login:
        return [shell, "-c", command]
    markers = "|".join(f"*{_any_case(marker)}*" for marker in SECRET_MARKERS)
    kept = "|".join(name for name in keep if _NAME.fullmatch(name))
    spared = f"{kept}) ;; " if kept else ""
    refuse = 'echo "policylang: %s; the command did not run" >&2; exit 126'
    # the command runs in the login shell itself (`shopt login_shell`, the profile's
    # functions), by `eval`, with no positional parameters and no helper variable left
    # `builtin`: a profile's function named `read` or `unset` had turned the scrub off;
    # `unset -n` first: a nameref is dropped itself, not the variable it names (a plain
    # variable is left to `unset -v`); `BASH_ENV` and
    # `ENV` go too, or every bash the command starts reads the profile's secrets again
    # (review AT10)
    script = (
        '[ -n "${BASH_VERSION-}" ] && builtin type compgen >/dev/null 2>&1 || { '
        + refuse % "a login shell is scrubbed of secrets only under bash" + "; }\n"
        'while IFS= builtin read -r __v; do case "$__v" in '
        f'{spared}{markers}|BASH_ENV|ENV) builtin unset -n "$__v" 2>/dev/null; '
        'builtin unset -v "$__v" 2>/dev/null || { '
        + refuse % "the profile makes $__v read-only, so it cannot be dropped"
        + '; } ;; esac; done <<< "$(builtin compgen -v)"; builtin unset __v; '
        '__c=$1; builtin set --; builtin eval "builtin unset __c\n$__c"'
    )
    return [shell, "-l", "-c", script, shell, command]


def _any_case(word: str) -> str:
    """A `case` pattern for `word` in either case, without bash 4's `${v^^}`.

    >>> _any_case("KEY_1")
    '[Kk][Ee][Yy]_1'
    """
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class PlainBackend:
    """Runs `bash -c COMMAND` directly, unconfined.

    The shell is found on PATH as a careful `which` finds it: absolute entries only (an
    empty entry or `.` is the working folder, where a repository may ship a `bash`), and
    never one that lies in `workspace` (when given: `BashTool` gives its own): every
    allowed command would run through the repository's own program (review CG2: an
    activated `.venv/bin` on PATH ran a shipped `.venv/bin/bash` for `git status`). Such
    a shell is refused, not skipped: the command never runs, and the reason says why."""

    name = "plain"
    confined = False

    def __init__(self, *, shell: str = "bash", workspace: str | None = None) -> None:
        self.shell = shell
        self.workspace = workspace
        self._cache: tuple[str | None, str | None] = (None, None)  # (PATH, resolved)

    def _resolved(self) -> str | None:
        # Resolving walks PATH; cache it for as long as PATH is unchanged.
        path_var = os.environ.get("PATH")
        cached_for, resolved = self._cache
        if resolved is None or cached_for != path_var:
            resolved = _absolute_which(self.shell, path_var)
            self._cache = (path_var, resolved)
        return resolved

    def _inside(self, program: str, *folders: str | None) -> str | None:
        """The first of `folders` that holds `program`, as found or where its links lead
        (a shipped `.venv/bin/bash -> /usr/bin/python3` lies in the workspace all the
        same: review CK5), or None."""
        found = os.path.abspath(program)
        # (and the folder it was found in, resolved: PATH may reach the workspace's
        # `.venv/bin` through a link, as `cd ~/proj-link && source .venv/bin/activate`
        # makes it: review CL8)
        places = {
            found,
            os.path.realpath(program),
            os.path.join(os.path.realpath(os.path.dirname(found)), os.path.basename(found)),
        }
        for folder in folders:
            if folder is None:
                continue
            roots = {os.path.abspath(folder), os.path.realpath(folder)}
            if any(p.startswith(r.rstrip("/") + "/") for p in places for r in roots):
                return folder
        return None

    def probe(self) -> Availability:
        if os.name != "posix":
            return Availability(ok=False, detail=f"not a POSIX system ({os.name})")
        path = self._resolved()
        if path is None:
            return Availability(ok=False, detail=f"shell `{self.shell}` not found")
        folder = self._inside(path, self.workspace)
        if folder is not None:
            return Availability(ok=False, detail=f"the shell `{path}` lies in the workspace")
        return Availability(ok=True, detail=f"plain {path}")

    def argv(
        self, command: str, *, cwd: str, login: bool, keep: Iterable[str] = ()
    ) -> list[str]:
        shell = self._resolved() or self.shell
        folder = self._inside(shell, self.workspace)
        if folder is not None:  # (`probe` says so first)
            raise ExecutionRefusedError(
                f"refused: the shell `{shell}` that PATH finds lies in the workspace "
                f"`{folder}`: it may be the repository's own program; the command never ran"
            )
        if self.workspace is None and "/" not in self.shell and not _system_program(shell):
            # no workspace given (`executor.run`'s own backend): where the repository is
            # cannot be known (the working folder may be below it: review CL8, CI14), so a
            # shell PATH finds outside the system's folders may be the repository's
            raise ExecutionRefusedError(
                f"refused: the shell `{shell}` that PATH finds is not in a system folder, "
                "and with no workspace given it may be the repository's own program (give "
                "`PlainBackend(workspace=…)`, or the shell's path); the command never ran"
            )
        return _shell_argv(shell, command, login=login, keep=keep)

    def __repr__(self) -> str:
        return f"PlainBackend(shell={self.shell!r})"


# where systems and package managers install their shells (Nix's profiles, MacPorts,
# Linuxbrew too: review CM11)
_SYSTEM_BIN = frozenset(
    {"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin",
     "/opt/homebrew/bin", "/run/current-system/sw/bin", "/nix/var/nix/profiles/default/bin",
     "/opt/local/bin", "/home/linuxbrew/.linuxbrew/bin"}
)  # fmt: skip
_USER_SYSTEM_BIN = re.compile(r"/etc/profiles/per-user/[^/]+/bin")


def _system_program(program: str) -> bool:
    """Whether `program` is found in a system folder: where it is found, not where a link
    leads (review CK5: `.venv/bin/bash -> /usr/bin/python3` is no system shell)."""
    found = os.path.abspath(program)
    folder = os.path.dirname(found)
    return (
        folder in _SYSTEM_BIN
        or found.startswith("/nix/store/")
        or _USER_SYSTEM_BIN.fullmatch(folder) is not None
        or folder == os.path.expanduser("~/.nix-profile/bin")
    )


def _absolute_which(program: str, path_var: str | None) -> str | None:
    """`shutil.which` over the absolute entries of `path_var` only; a `program` given with
    a slash is taken as it is (the caller chose that file)."""
    if "/" in program:
        # (absolute: a relative one would be looked up below the command's working
        # folder when it runs, not where it was checked: review CM10)
        found = shutil.which(program)
        return None if found is None else os.path.abspath(found)
    entries = (path_var if path_var is not None else os.defpath).split(os.pathsep)
    absolute = os.pathsep.join(e for e in entries if os.path.isabs(e))
    return shutil.which(program, path=absolute) if absolute else None


class BubblewrapBackend:
    """Runs the command inside bubblewrap (see module docstring for the layout)."""

    name = "bubblewrap"
    confined = True

    def __init__(
        self,
        workspace: str,
        *,
        network: bool = False,
        writable: Sequence[str] = (),
        readonly: Sequence[str] = (),
        protected_names: Sequence[str] = PROTECTED_NAMES,
        masked: Sequence[str] = MASKED_PATHS,
        created_when_missing: Sequence[str] = CREATED_WHEN_MISSING,
        bwrap: str = "bwrap",
        shell: str = "bash",
        probe_timeout_s: float = 10.0,
        nested_folders: int = 0,
    ) -> None:
        self.workspace = os.path.abspath(workspace)
        # how many folders the search for nested protected names may list before the
        # sandbox refuses to run (0: `NESTED_FOLDERS`)
        self.nested_folders = nested_folders if nested_folders > 0 else NESTED_FOLDERS
        self.network = network
        self.writable = tuple(os.path.abspath(p) for p in writable)
        # kept read-only inside the writable areas: `readonly` paths (policy files, the
        # approvals file) and the `protected_names` of the workspace
        self.readonly = tuple(os.path.abspath(p) for p in readonly)
        self.protected_names = tuple(protected_names)
        self.masked = tuple(os.path.abspath(p) for p in masked)
        self.created_when_missing = tuple(created_when_missing)
        self.bwrap = bwrap
        self.shell = shell
        self.probe_timeout_s = probe_timeout_s
        self._probed: Availability | None = None
        self._programs: tuple[str, str] | None = None  # (bwrap, shell), fixed by the probe
        self._lock = threading.Lock()
        # the last search `argv` made, per thread (see `protected_state_at_start`)
        self._searched = threading.local()

    def _base(self, bwrap: str, cwd: str, *, probing: bool = False) -> list[str]:
        argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                "--tmpfs", "/tmp"]
        hidden = [] if self.network else _run_folders()
        for folder in hidden:
            argv += ["--tmpfs", folder, *_run_kept(folder)]
        # mounted where they really are, so that the read-only mounts below, which are made
        # at real paths, land inside them; a path given through a link under `/tmp` (which
        # the sandbox replaces) is linked again inside (review M4)
        for given in (self.workspace, *self.writable):
            real = os.path.realpath(given)
            argv += ["--bind", real, real]
            if given != real and _within(given, ["/tmp"]):
                argv += ["--symlink", real, given]
        read_only = self._read_only_again(strict=not probing)
        # every folder between a writable root and a read-only path becomes a mount point
        # of its own, which cannot be renamed: `mv pol pol.orig && mkdir pol` replaced a
        # policy layer's folder, read-only file and all (review M1)
        for folder in _folders_between(read_only, self._areas()):
            argv += ["--bind", folder, folder]
        for path in read_only:
            argv += ["--ro-bind", path, path]
        # sockets of services that act for this user outside the sandbox: `connect`
        # ignores read-only mounts, so they are hidden (review AQ16); after the read-only
        # mounts, which had shown them again (`~/.docker/run/docker.sock` under a
        # read-only `~/.docker`, for a home folder in a writable area: review DV2)
        offline = () if self.network else OFFLINE_MASKED_PATHS
        emptied = list(hidden)
        for path in (*self.masked, *offline, *_home_sockets(self._home()),
                     *_system_sockets(SYSTEM_SOCKET_ROOTS)):
            if _within(os.path.realpath(path), emptied) or _within(path, emptied):
                continue  # hidden with its folder already
            if os.path.isdir(path):
                argv += ["--tmpfs", path]
                emptied.append(path)
            elif os.path.lexists(path):
                argv += ["--ro-bind", "/dev/null", path]
        # INVARIANT: --cap-drop ALL. bubblewrap started by root keeps every capability by
        # default, and a sandboxed root could then remount `/` read-write (tested).
        argv += ["--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--chdir", cwd]
        if self.network:
            argv.append("--share-net")
        return argv

    def _read_only_again(self, *, strict: bool = True) -> list[str]:
        """The existing paths inside the writable areas to mount read-only over them.

        Looked up at each run: a `.git` made by the previous command is covered by the
        next. The folders of `created_when_missing` are made first; any other name that
        does not exist is not covered, since mounting over it would leave an empty file in
        the workspace (a documented gap: a new `.mcp.json` or `CLAUDE.md`). `strict`:
        refuse a workspace that cannot be searched whole; the probe, which runs only
        `true` and whose answer is kept, is not (a workspace too big to search had crashed
        `policylang run` with a traceback there, and it would have stayed refused after
        its folders were removed).
        """
        areas = self._areas()
        for name in self.created_when_missing:
            # where it leads: a dangling link `.claude -> x` would let `x` be created
            real = os.path.realpath(os.path.join(self.workspace, name))
            if _within(real, areas) and not os.path.exists(real):
                with contextlib.suppress(OSError):  # then it stays uncovered, as before
                    os.makedirs(real, 0o755)
        wanted = [os.path.join(self.workspace, name) for name in self.protected_names]
        search = self._search()
        nested = self._nested(search, strict=strict)
        if strict:
            # the walk is shared with the state taken before the command starts (review
            # DV3: four walks per command had cost 3 s at 48,000 folders)
            self._searched.last = search
        wanted += [path for path in nested if os.path.basename(path) in self.protected_names]
        wanted += self._hooks_folders(areas, nested)
        wanted += self._home_startup(areas)
        wanted += _own_installation(areas)
        wanted += _installations(search.venvs, areas)
        found: list[str] = []
        for path in (*wanted, *self.readonly):
            if not os.path.lexists(path):
                continue
            real = os.path.realpath(path)  # a link is covered where it leads
            if _within(real, areas) and real not in found and os.path.exists(real):
                found.append(real)
        return found

    @staticmethod
    def _home() -> str:
        return os.environ.get("HOME") or os.path.expanduser("~")

    def _home_startup(self, areas: Sequence[str]) -> list[str]:
        """`HOME_STARTUP_NAMES` under the home directory, when a writable area holds it."""
        home = os.path.realpath(self._home())
        if not _within(home, areas):
            return []
        return [os.path.join(home, name) for name in HOME_STARTUP_NAMES]

    def _search(self) -> _Search:
        """One walk of the workspace for nested names (see `_nested_names`)."""
        return _nested_names(os.path.realpath(self.workspace),
                             (*self.protected_names, ".git"), limit=self.nested_folders)

    def _nested(self, search: _Search, *, strict: bool) -> list[str]:
        """The protected names (and `.git`) in the workspace's subfolders that `search`
        found; `strict`: refuse (`SandboxUnavailableError`) when it could not look
        everywhere it should (review DU1), else what it found (for the reports made after
        a command)."""
        if search.why is not None and strict:
            raise SandboxUnavailableError(
                f"refused: the sandbox could not search the workspace `{self.workspace}` "
                f"for nested repositories and agent configuration to keep read-only: "
                f"{search.why}; the command never ran (a sandboxed command could otherwise "
                "write what the search missed, such as a nested `.git`'s hooks; remove "
                "the extra folders, or raise the limit: `--nested-folders N` of "
                "`policylang run` and `policylang mcp`, "
                "`BubblewrapBackend(nested_folders=…)`)"
            )
        return list(search.found)

    def _trees(self, nested: Sequence[str] | None = None) -> list[str]:
        """The work trees of the workspace's repositories: its own, nested ones, and the
        one it lies in (review AT6)."""
        if nested is None:
            nested = self._nested(self._search(), strict=False)
        trees = [self.workspace]
        trees += [os.path.dirname(path) for path in nested if os.path.basename(path) == ".git"]
        enclosing = enclosing_tree(self.workspace)
        if enclosing is not None:
            trees.append(enclosing)
        return trees

    def _hook_places(self, trees: Sequence[str] | None = None) -> HookPlaces:
        return hook_places(trees if trees is not None else self._trees(), home=self._home(),
                           env=os.environ)

    def _hooks_folders(self, areas: list[str], nested: Sequence[str]) -> list[str]:
        """The hooks folders git would use in the workspace's repositories (nested ones
        and one the workspace lies in too), the config files naming them, and what keeps
        their paths in place, where a sandboxed command could write them.

        A folder that does not exist yet is made (empty), and so is an included config
        file, since a command could otherwise create it and plant a hook there (reviews
        AS7, AT4). A link on the way, or a file where a folder should be, could be
        replaced: the folder holding the link, or the file, is kept read-only as well
        (review AT5); a link directly in a writable root cannot be, and is reported by
        `protected_state` when a command changes it.
        """
        # (the repositories are looked up by `.git` names alone, whatever
        # `protected_names` holds)
        trees = self._trees(nested)
        places = self._hook_places(trees)
        for folder in places.folders:
            real = os.path.realpath(folder)
            if _within(real, areas) and not os.path.exists(real):
                with contextlib.suppress(OSError):  # then it stays uncovered, as before
                    os.makedirs(real, 0o755)
        for path in places.files:
            real = os.path.realpath(path)
            if _within(real, areas) and not os.path.lexists(real):
                with contextlib.suppress(OSError):  # an empty include changes nothing
                    os.makedirs(os.path.dirname(real), 0o755, exist_ok=True)
                    with open(real, "x", encoding="utf-8"):
                        pass
        keepers = [k for p in (*places.folders, *places.files) for k in _path_keepers(p, areas)]
        # a git directory a `.git` file leads to (`gitdir: ./.bare`), whole (review AU2)
        gitdirs: list[str] = []
        for gitdir in git_directories(trees):
            real = os.path.realpath(gitdir)
            if any(_within(area, [real]) for area in areas):
                # the workspace lies inside it (a bare clone with its worktrees inside,
                # review AV3): what git runs or reads for commands, not the whole
                hooks = os.path.join(real, "hooks")
                if not os.path.lexists(hooks):
                    with contextlib.suppress(OSError):
                        os.makedirs(hooks, 0o755)
                gitdirs += [hooks, os.path.join(real, "config"), os.path.join(real, "info")]
            else:
                gitdirs.append(gitdir)
        return [*places.folders, *places.files, *keepers, *gitdirs]

    def _loose_links(self, trees: Sequence[str] | None = None) -> list[str]:
        """Links on the way to a hooks folder or config file that sit directly in a
        writable root, where no mount can keep them (see `_hooks_folders`)."""
        areas = self._areas()
        places = self._hook_places(trees)
        return [
            link
            for path in (*places.folders, *places.files)
            for link in _links_on_the_way(path)
            if os.path.realpath(os.path.dirname(link)) in areas
        ]

    def protected_state_at_start(self) -> dict[str, tuple[object, ...]]:
        """`protected_state` as the sandbox the last `argv` of this thread made saw it:
        that call's search of the workspace is used again, not walked a second time
        (review DV3); the runner takes it right after `argv`, before the spawn. Without
        such a search (taken once only), a fresh `protected_state`."""
        search: _Search | None = getattr(self._searched, "last", None)
        self._searched.last = None
        return self.protected_state(search)

    def protected_state(self, search: _Search | None = None) -> dict[str, tuple[object, ...]]:
        """The protected names at the workspace's top: kind, identity and, for a file, its
        size and modification time; for a link, its target.

        The runner compares them before and after a command, to report what the sandbox
        could not keep read-only: a name created where none was (`.mcp.json`), or a
        link replaced (`CLAUDE.md -> AGENTS.md`, review M6). The names found in subfolders
        are compared too (`sub/.mcp.json`, review DU1). `search`: a walk of the workspace
        to use (`protected_state_at_start`), else a new one.
        """
        state: dict[str, tuple[object, ...]] = {}
        names = [*self.protected_names]
        nested = self._nested(self._search() if search is None else search, strict=False)
        real = os.path.realpath(self.workspace)
        names += [os.path.relpath(path, real) for path in nested
                  if os.path.basename(path) in self.protected_names]
        names += [os.path.relpath(link, self.workspace)
                  for link in self._loose_links(self._trees(nested))]
        # a start-up file made where none was (`~/.gitconfig` with `core.fsmonitor`)
        home = self._home_startup(self._areas())
        names += [os.path.relpath(path, self.workspace) for path in home]
        for name in names:
            path = os.path.join(self.workspace, name)
            try:
                info = os.lstat(path)
                target = os.readlink(path) if stat.S_ISLNK(info.st_mode) else ""
            except OSError:  # gone, or no longer a link: as the command left it
                continue
            kind = stat.S_IFMT(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                state[name] = (kind, info.st_ino, target)
            elif stat.S_ISDIR(info.st_mode):
                state[name] = (kind, info.st_ino)
            else:
                state[name] = (kind, info.st_ino, info.st_size, info.st_mtime_ns)
        return state

    def _areas(self) -> list[str]:
        return [os.path.realpath(a) for a in (self.workspace, *self.writable)]

    def probe(self) -> Availability:
        """Run `true` inside a real sandbox once; the answer is cached per backend."""
        with self._lock:
            if self._probed is None:
                self._probed = self._probe()
                _log.debug("bubblewrap probe: %s", self._probed)
            return self._probed

    def _probe(self) -> Availability:
        bwrap = shutil.which(self.bwrap)
        if bwrap is None:
            return Availability(ok=False, detail=f"`{self.bwrap}` not found (install bubblewrap)")
        if not os.path.isdir(self.workspace):
            return Availability(ok=False, detail=f"workspace `{self.workspace}` is not a directory")
        shell = shutil.which(self.shell)
        if shell is None:
            return Availability(ok=False, detail=f"shell `{self.shell}` not found")
        bwrap, shell = os.path.realpath(bwrap), os.path.realpath(shell)
        for role, program in (("bubblewrap", bwrap), ("the shell", shell)):
            unsafe = self._replaceable(program)
            if unsafe is not None:
                return Availability(ok=False, detail=f"{role} `{program}` {unsafe}")
        argv = [*self._base(bwrap, self.workspace, probing=True), "--", shell, "-c", "true"]
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=self.probe_timeout_s, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return Availability(ok=False, detail=f"bubblewrap could not start: {exc}")
        if done.returncode != 0:
            why = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
            return Availability(ok=False, detail=f"bubblewrap does not work here: {why}")
        # INVARIANT: every later run uses exactly these files. Looking `bwrap` up on PATH
        # again let a sandboxed command plant one in a workspace directory on PATH (an
        # activated `.venv/bin`) and run every later command unconfined (review J1).
        self._programs = (bwrap, shell)
        return Availability(ok=True, detail=f"bubblewrap {bwrap}")

    def _replaceable(self, program: str) -> str | None:
        """Why a sandboxed command (or another user) could replace `program`, or None.

        The sandbox's writable areas hold no program it trusts, and neither does a
        directory that others may write to (`/tmp`, without being the owner's own).
        """
        for area in (self.workspace, *self.writable):
            root = os.path.realpath(area)
            if program == root or program.startswith(root.rstrip("/") + "/"):
                return f"lies in `{area}`, which sandboxed commands may write"
        path = program
        while True:
            try:
                info = os.stat(path)
            except OSError as exc:
                return f"cannot be checked: {exc}"
            if info.st_uid not in (0, os.geteuid()):
                return f"is replaceable by another user: `{path}` belongs to uid {info.st_uid}"
            if info.st_mode & 0o022 and not info.st_mode & 0o1000:
                return f"is replaceable by other users: `{path}` is group- or world-writable"
            parent = os.path.dirname(path)
            if parent == path:
                return None
            path = parent

    def argv(
        self, command: str, *, cwd: str, login: bool, keep: Iterable[str] = ()
    ) -> list[str]:
        if self._programs is None and not self.probe().ok:
            raise RuntimeError("the bubblewrap backend is used before a successful probe")
        assert self._programs is not None
        bwrap, shell = self._programs
        return [*self._base(bwrap, cwd), "--",
                *_shell_argv(shell, command, login=login, keep=keep)]

    def __repr__(self) -> str:
        return (f"BubblewrapBackend(workspace={self.workspace!r}, network={self.network}, "
                f"writable={self.writable!r}, readonly={self.readonly!r})")


#: What of a Python installation is kept read-only when the whole cannot be (it is the
#: workspace itself): its programs, libraries and configuration.
_PREFIX_PARTS = ("bin", "lib", "lib64", "Lib", "Scripts", "pyvenv.cfg")


def _own_installation(areas: Sequence[str]) -> list[str]:
    """The running policylang, as far as it lies in a writable area: its package folder,
    the interpreter, and the Python installation (a venv) that holds them, whose
    `site-packages` a `.pth` file, `sitecustomize.py` or a changed dependency would run
    from at every later start. A project's `.venv` is a usual home for policylang, and a
    sandboxed command had planted a `.pth` there that made the hook answer `allow` to
    everything (review DU5).
    """
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    places = [package, sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    if sys.executable:
        places += [sys.executable, os.path.realpath(sys.executable)]
    with contextlib.suppress(AttributeError):  # (absent in some embedded interpreters)
        places += site.getsitepackages()
    if site.ENABLE_USER_SITE:
        with contextlib.suppress(AttributeError):
            places.append(site.getusersitepackages())
    found: list[str] = []
    for place in places:
        real = os.path.realpath(place)
        if not _within(real, areas):
            continue
        if real in areas:  # a writable root itself: what Python runs from it
            found += [os.path.join(real, part) for part in _PREFIX_PARTS]
        else:
            found.append(real)
    return found


#: What in a `site-packages` folder says that policylang can be imported from it: its
#: package, its distribution's metadata, an editable install's finder or link.
_OURS = re.compile(
    r"(policylang|policylang-[^/]*\.(dist-info|egg-info|egg-link)|policylang\.egg-link"
    r"|__editable__[._]policylang[-_.].*)",
    re.IGNORECASE,
)
_PTH_FILES = 64  # `.pth` files read per `site-packages`, at most
_PTH_BYTES = 64 * 1024  # and bytes of each
_FINDER_MAPPING = re.compile(r"^MAPPING\b[^=\n]*=\s*(\{[^\n]*\})", re.MULTILINE)


def _installations(venvs: Sequence[str], areas: Sequence[str]) -> list[str]:
    """The virtual environments among `venvs` (found by the workspace's search) from
    which policylang can be imported, whole, and the policylang source folders their
    `.pth` files, `.egg-link`s and editable finders lead to, as far as they lie in a
    writable area.

    `_own_installation` keeps only the running policylang. A project's `.venv` holding
    another (a dev dependency, the one the Claude Code hook is started from while
    `policylang run` comes from `pipx`) had stayed writable, and a `.pth` planted there
    made the hook answer `allow` to everything (review DV1). A venv that cannot import
    policylang stays writable (`pip install` in the sandbox keeps working there).
    """
    found: list[str] = []
    for venv in venvs:
        sources: list[str] = []
        if not any(_imports_policylang(folder, sources) for folder in _site_packages(venv)):
            continue
        real = os.path.realpath(venv)
        if real in areas:  # the workspace is the venv: what Python runs from it
            found += [os.path.join(real, part) for part in _PREFIX_PARTS]
        else:
            found.append(real)
        found += [source for source in sources if _within(os.path.realpath(source), areas)]
    return found


def _site_packages(venv: str) -> list[str]:
    """The `site-packages` folders of the venv `venv` (`lib/pythonX.Y/`, `lib64/…`, and
    Windows' `Lib/`)."""
    folders = [os.path.join(venv, "Lib", "site-packages")]
    for lib in ("lib", "lib64"):
        with contextlib.suppress(OSError):
            folders += [os.path.join(venv, lib, entry.name, "site-packages")
                        for entry in os.scandir(os.path.join(venv, lib))
                        if entry.name.startswith(("python", "pypy"))]
    return [folder for folder in folders if os.path.isdir(folder)]


def _imports_policylang(site_packages: str, sources: list[str]) -> bool:
    """Whether policylang can be imported from `site_packages`: its package or its
    metadata is there, or a `.pth` file (an editable install's too) leads to a folder
    that holds it; the source folders those lead to are added to `sources`."""
    try:
        names = sorted(entry.name for entry in os.scandir(site_packages))
    except OSError:
        return False
    ours = any(_OURS.fullmatch(name) for name in names)
    for name in [n for n in names if n.endswith((".pth", ".egg-link"))][:_PTH_FILES]:
        text = _head(os.path.join(site_packages, name))
        lines = text.splitlines()
        if name.endswith(".egg-link"):
            lines = lines[:1]
        for line in lines:
            line = line.strip()
            if not line or line.startswith(("#", "import ", "import\t")):
                continue
            folder = os.path.join(site_packages, line)
            if os.path.isfile(os.path.join(folder, "policylang", "__init__.py")):
                sources.append(os.path.join(folder, "policylang"))
                ours = True
            elif folder != site_packages and _holds_metadata(folder):
                ours = True
    for name in names:
        if name.startswith("__editable__") and "policylang" in name.lower() and (
            name.endswith(".py")
        ):
            match = _FINDER_MAPPING.search(_head(os.path.join(site_packages, name)))
            with contextlib.suppress(ValueError, SyntaxError, TypeError, MemoryError):
                mapping = ast.literal_eval(match.group(1)) if match else {}
                sources += [str(path) for path in dict(mapping).values()]
    return ours


def _holds_metadata(folder: str) -> bool:
    """Whether `folder` (a path a `.pth` file adds) holds policylang's distribution."""
    try:
        with os.scandir(folder) as entries:
            return any(_OURS.fullmatch(entry.name) for entry in entries)
    except OSError:
        return False


def _head(path: str) -> str:
    """The start of a small text file, or "" (a FIFO or a folder is not read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, _PTH_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def _links_on_the_way(path: str) -> list[str]:
    """The links among `path` and its parents (lexically), innermost first."""
    found: list[str] = []
    current = os.path.normpath(path)
    while True:
        if os.path.islink(current):
            found.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            return found
        current = parent


def _path_keepers(path: str, areas: Sequence[str]) -> list[str]:
    """What to keep read-only so that `path` cannot be made to lead elsewhere: the folder
    holding each link on its way (unless that folder is a writable root itself), and a
    file standing where one of its folders should be (a mount cannot be removed)."""
    keepers: list[str] = []
    for link in _links_on_the_way(path):
        holder = os.path.realpath(os.path.dirname(link))
        if _within(holder, areas) and holder not in areas:
            keepers.append(holder)
    current = os.path.dirname(os.path.normpath(path))
    while current != os.path.dirname(current):
        real = os.path.realpath(current)
        if os.path.lexists(current) and not os.path.isdir(current) and _within(real, areas):
            keepers.append(real)
        current = os.path.dirname(current)
    return keepers


def _within(path: str, areas: Sequence[str]) -> bool:
    return any(path == a or path.startswith(a.rstrip("/") + "/") for a in areas)


def _folders_between(paths: Sequence[str], areas: Sequence[str]) -> list[str]:
    """The folders strictly between a writable root and each path, outermost first."""
    folders: list[str] = []
    for path in paths:
        root = max((a for a in areas if _within(path, [a])), key=len, default=None)
        if root is None:
            continue
        chain: list[str] = []
        folder = os.path.dirname(path)
        while folder != root and _within(folder, [root]):
            chain.append(folder)
            folder = os.path.dirname(folder)
        folders.extend(f for f in reversed(chain) if f not in folders)
    return sorted(folders, key=lambda f: f.count("/"))


NESTED_DEPTH = 3  # how deep below the workspace protected names are looked for
#: How many folders the search lists at most. A workspace with more folders within
#: `NESTED_DEPTH` levels is refused, not searched in part: a sandboxed command had made
#: 2,000 empty folders, after which no nested `.git` was found, and the next command wrote
#: its hooks (review DU1).
NESTED_FOLDERS = 50_000


@dataclass(frozen=True, slots=True)
class _Search:
    """What one walk of the workspace found (see `_nested_names`)."""

    found: tuple[str, ...]  # protected names in subfolders
    why: str | None  # why the search is incomplete, or None
    venvs: tuple[str, ...] = ()  # the folders holding a `pyvenv.cfg` (Python venvs)


def _nested_names(workspace: str, names: Sequence[str], *, limit: int = NESTED_FOLDERS
                  ) -> _Search:
    """Protected names in subfolders (`sub/.git`, a nested repository; `pkg/.claude`),
    down to `NESTED_DEPTH` levels (M2), in every folder: `.venv`, `node_modules` and
    `target` too (a pip editable install clones to `.venv/src/PKG/.git`). The folders
    that hold a `pyvenv.cfg` are listed too (`venvs`, see `_installations`).

    The search is incomplete (`why` says so, `found` holds what was found) when it cannot
    look everywhere: more than `limit` folders to list (`why` names the top folder that
    holds most of them), or a folder of this user's that cannot be listed (a sandboxed
    command may `chmod 000` one to hide what is inside, and undo that in the next run).
    The caller refuses to run then: it never stops silently (review DU1).
    """
    wanted = set(names)
    found: list[str] = []
    venvs: list[str] = []
    # (folder, depth, the top folder it lies in, for the count of a search too big)
    queue: collections.deque[tuple[str, int, str]] = collections.deque([(workspace, 0, "")])
    visited = 0
    per_top: collections.Counter[str] = collections.Counter()
    me = os.geteuid()
    while queue:
        if visited >= limit:
            top, count = per_top.most_common(1)[0] if per_top else ("", 0)
            most = (f" (`{top}` holds {count:,} of those listed; a sandboxed command may "
                    "also have made them)") if top else ""
            return _Search(tuple(found), f"it holds more than {limit:,} folders within "
                           f"{NESTED_DEPTH} levels{most}", tuple(venvs))
        folder, depth, top = queue.popleft()
        visited += 1
        if top:
            per_top[top] += 1
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            with contextlib.suppress(OSError):
                if exc.errno not in (errno.ENOENT, errno.ENOTDIR) and (
                    os.lstat(folder).st_uid == me
                ):
                    return _Search(tuple(found),
                                   f"the folder `{folder}` cannot be listed ({exc.strerror})",
                                   tuple(venvs))
            continue
        for entry in entries:
            if entry.name in wanted:
                if depth > 0:
                    found.append(entry.path)
                continue  # not searched inside: it is covered whole
            if entry.name == "pyvenv.cfg":
                venvs.append(folder)
            if depth < NESTED_DEPTH:
                with contextlib.suppress(OSError):
                    if entry.is_dir(follow_symlinks=False):
                        queue.append((entry.path, depth + 1, top or entry.name))
    return _Search(tuple(found), None, tuple(venvs))


def _run_folders() -> list[str]:
    """`RUN_FOLDERS` that are real folders (`/var/run` is mostly a link to `/run`)."""
    return [f for f in RUN_FOLDERS if os.path.isdir(f) and not os.path.islink(f)]


def _run_kept(folder: str) -> list[str]:
    """bubblewrap arguments that bring back, over the empty `folder`, what commands
    need of it (see `RUN_FOLDERS`): its links (`shm -> /dev/shm`, NixOS's
    `current-system`; where they lead is visible anyway), `RUN_KEPT`, an empty `lock`,
    and the regular files that links in `/etc` lead to (`/etc/resolv.conf ->
    /run/systemd/resolve/stub-resolv.conf`). Never a socket."""
    kept: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return kept
    for entry in entries:
        with contextlib.suppress(OSError):
            if entry.is_symlink():
                kept += ["--symlink", os.readlink(entry.path), entry.path]
            elif entry.name in RUN_KEPT and entry.is_dir(follow_symlinks=False):
                kept += ["--ro-bind", entry.path, entry.path]
            elif entry.name == "lock" and entry.is_dir(follow_symlinks=False):
                kept += ["--dir", entry.path]
    with contextlib.suppress(OSError):
        for entry in os.scandir("/etc"):
            if not entry.is_symlink():
                continue
            real = os.path.realpath(entry.path)
            with contextlib.suppress(OSError):
                if _within(real, [folder]) and stat.S_ISREG(os.stat(real).st_mode):
                    kept += ["--ro-bind", real, real]
    return kept


def _home_sockets(home: str) -> list[str]:
    """The sockets in `HOME_SOCKET_FOLDERS` of `home` (links not followed)."""
    roots = [os.path.join(home, name) for name in HOME_SOCKET_FOLDERS]
    return _sockets_below(roots, _SOCKET_DEPTH, None)


def _system_sockets(roots: Sequence[str]) -> list[str]:
    """The sockets below `roots` (`SYSTEM_SOCKET_ROOTS`), down to `_SYSTEM_SOCKET_DEPTH`
    levels, listing at most `_SYSTEM_SOCKET_FOLDERS` folders. What lies deeper, or past
    the bound (a `/var/lib/docker` with thousands of layers), is not found:
    `MASKED_PATHS` names the daemons known to be as good as root, and this search
    catches the others it can."""
    return _sockets_below(roots, _SYSTEM_SOCKET_DEPTH, _SYSTEM_SOCKET_FOLDERS)


def _sockets_below(roots: Sequence[str], depth: int, folders: int | None) -> list[str]:
    """The sockets below `roots`, down to `depth` folder levels, breadth first (the
    shallowest first), listing at most `folders` folders when given; links not followed."""
    found: list[str] = []
    queue: collections.deque[tuple[str, int]] = collections.deque((r, 0) for r in roots)
    listed = 0
    while queue and (folders is None or listed < folders):
        folder, level = queue.popleft()
        listed += 1
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            with contextlib.suppress(OSError):
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISSOCK(mode):
                    found.append(entry.path)
                elif stat.S_ISDIR(mode) and level < depth:
                    queue.append((entry.path, level + 1))
    return found


def write_denied(confined: bool, *outputs: bytes) -> bool:
    """Whether a sandboxed run's output shows a write the read-only mount refused.

    Only a positive signal: a command may swallow the error, so False proves nothing.
    """
    marker = READ_ONLY_MESSAGE.encode()
    return confined and any(marker in out for out in outputs)
