"""Engine input: the explicit context of one evaluation; imports only the standard library.

The engine never reads `os.environ` or the process cwd on its own: `EvalContext.build`
does that once, at the boundary, so evaluations are deterministic given a context.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final

# a variable, its value joined to the cwd, and each name below it with the place it
# makes as written: the text of `env_secrets`, made once per context (`_spots`)
_Spot = tuple[str, str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class EvalContext:
    """Where a command would run: working directory, workspace root, home, environment.

    All paths are absolute and normalised. `real_workspace` and `real_home` are the same
    directories with symbolic links resolved ("" when no different): a protected path is
    protected under either spelling, since the engine checks both the lexical and the
    resolved form of every path (review H9: a workspace given as `/tmp/x` on macOS, where
    `/tmp` links to `/private/tmp`).
    """

    cwd: str
    workspace: str
    home: str
    env: Mapping[str, str] = field(default_factory=dict)
    real_workspace: str = ""
    real_home: str = ""
    # the working directory with links resolved ("" when no different): what a command
    # reads without naming it is read there (review CG5: a cwd given through a link into
    # `~/.ssh` made `grep -r k` read the keys while `.` was judged by the link's name)
    real_cwd: str = ""
    # the environment as a key of the decision cache: PATH, git's and ripgrep's variables
    # and the secret-named ones change decisions (a PATH entry into the workspace makes
    # `rg` the repository's), so a decision made under one environment is not another's
    env_items: frozenset[tuple[str, str]] = field(init=False, repr=False, compare=False)
    # the environment of the process that judges (the user's), where `env` is the scrubbed
    # one the command will get: only the credential places it names are read from it,
    # nothing of it is expanded in the command. `policylang run` and the MCP server had
    # judged in the scrubbed environment alone, which drops `GOOGLE_APPLICATION_CREDENTIALS`
    # and the like, so the key it named was read under an allow (review GE1)
    host_env: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    # the credential files and folders the environment moves elsewhere (`KUBECONFIG`,
    # `DOCKER_CONFIG`, `GH_CONFIG_DIR` …), protected as their usual places are, each with
    # the variable that names it (review DR5)
    env_secrets: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)
    # their text, from both environments: `current` resolves only their links again
    env_spots: tuple[_Spot, ...] = field(init=False, repr=False, compare=False)
    # the process's working folder, which a relative `host_env` value is relative to
    # (review GK4: `KUBECONFIG=k/prod` of the server had been joined to the command's cwd)
    host_cwd: str = field(default="", repr=False, compare=False)
    # the host's HOME where it is not the command's (`ToolOptions(env={"HOME": …})`), as
    # given and resolved: its protected places are protected too (review GK4: the host
    # user's `~/.aws/credentials` was read by its absolute path under an allow)
    host_homes: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "env_items", frozenset(self.env.items()))
        spots = _spots(self.env, self.cwd, self.home)
        homes = self._other_homes()
        if self.host_env:
            host_home = homes[0] if homes else self.home
            host = _spots(self.host_env, self.host_cwd or self.cwd, host_home)
            spots = tuple(dict.fromkeys(spots + host))
        object.__setattr__(self, "env_spots", spots)
        object.__setattr__(self, "host_homes", homes)
        object.__setattr__(self, "env_secrets", self._credential_places())

    def _other_homes(self) -> tuple[str, ...]:
        """`host_env`'s HOME, as given and resolved, where it is not the command's."""
        given = self.host_env.get("HOME", "")
        if not given.startswith("/"):
            return ()
        home = posixpath.normpath(given)
        mine = (self.home, self.real_home or self.home)
        found = (home, _resolved(home) or home)
        return tuple(h for h in dict.fromkeys(found) if h not in mine)

    def _credential_places(self) -> tuple[tuple[str, str], ...]:
        """`env_secrets` as the file system gives them now."""
        if not self.env_spots:
            return ()
        mine = (self.workspace, self.home)
        # a value that holds the workspace or home (`CODEX_HOME=/`, `CLAUDE_CONFIG_DIR=.`)
        # names no credential place of its own: everything there would be denied (DZ5)
        return tuple(
            (place, variable)
            for place, variable in _resolved_spots(self.env_spots)
            if not (_at_or_below(mine[0], place) or _at_or_below(mine[1], place))
        )

    def anchors(self) -> tuple[tuple[str, str], ...]:
        """(home, workspace) as given, then resolved if that differs."""
        given = (self.home, self.workspace)
        real = (self.real_home or self.home, self.real_workspace or self.workspace)
        return (given,) if real == given else (given, real)

    def current(self) -> EvalContext:
        """This context with its folders' links resolved again, as they are now.

        A context kept for many lines (`eval --jsonl`) must not judge a line by a folder
        resolved for an earlier one: a command run in between may have replaced the
        working folder with a link into `~/.ssh` (review EL1: `grep -r KEY` was judged as
        reading the old folder, and printed the keys under an allow). The credential places
        the environment names are resolved again too: `KUBECONFIG=~/.kube/current`, a link
        re-pointed to `~/clusters/prod.yaml` between two lines, had left that file readable
        (review GE2)."""
        workspace = _resolved(self.workspace)
        home = workspace if self.home == self.workspace else _resolved(self.home)
        cwd = workspace if self.cwd == self.workspace else _resolved(self.cwd)
        if (workspace, home, cwd) == (
            self.real_workspace,
            self.real_home,
            self.real_cwd,
        ) and self._credential_places() == self.env_secrets:
            return self
        return replace(self, real_workspace=workspace, real_home=home, real_cwd=cwd)

    @classmethod
    def build(
        cls,
        *,
        cwd: str | os.PathLike[str] | None = None,
        workspace: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        host_env: Mapping[str, str] | None = None,
    ) -> EvalContext:
        """A context with the documented defaults.

        `cwd` defaults to `workspace` and vice versa, then both to the process cwd; home
        comes from `env["HOME"]`, then from the process environment. `host_env`: see the
        field (the environment whose credential places are protected too).
        """
        cwd_s = None if cwd is None else os.fspath(cwd)
        ws_s = None if workspace is None else os.fspath(workspace)
        # one stands for the other: made absolute once, against the process cwd (review
        # CG4: a relative cwd alone was joined to itself, `proj` judged as `proj/proj`)
        same = cwd_s is None or ws_s is None
        if cwd_s is None and ws_s is None:
            cwd_s = ws_s = os.getcwd()
        elif cwd_s is None:
            cwd_s = ws_s
        elif ws_s is None:
            ws_s = cwd_s
        assert cwd_s is not None
        assert ws_s is not None
        environment = dict(env) if env is not None else {}
        home = environment.get("HOME") or os.environ.get("HOME") or os.path.expanduser("~")
        workspace_abs = _absolute(ws_s)
        home_abs = _absolute(home)
        cwd_abs = workspace_abs if same else _absolute(cwd_s, base=workspace_abs)
        return cls(
            cwd=cwd_abs,
            workspace=workspace_abs,
            home=home_abs,
            env=environment,
            host_env=dict(host_env) if host_env else {},
            host_cwd=os.getcwd() if host_env else "",
            real_workspace=_resolved(workspace_abs),
            real_home=_resolved(home_abs),
            real_cwd=_resolved(cwd_abs),
        )


def _resolved(path: str) -> str:
    """`path` with symbolic links resolved, or "" when that changes nothing."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return ""
    return "" if real == path else real


def _absolute(path: str, *, base: str | None = None) -> str:
    """`path` made absolute (a relative cwd is relative to the workspace) and normalised."""
    if not posixpath.isabs(path):
        path = posixpath.join(base or os.getcwd(), path)
    return posixpath.normpath(path)


# variables that name a credential file (or a folder of them, `/`), and the files below a
# folder that hold them (`DOCKER_CONFIG/config.json`); `:` lists for `KUBECONFIG`
_SECRET_FILE_VARIABLES: dict[str, tuple[str, ...]] = {
    "KUBECONFIG": ("",), "AWS_SHARED_CREDENTIALS_FILE": ("",), "AWS_CONFIG_FILE": ("",),
    "GOOGLE_APPLICATION_CREDENTIALS": ("",), "NETRC": ("",), "NPM_CONFIG_USERCONFIG": ("",),
    "DOCKER_CONFIG": ("config.json",), "GH_CONFIG_DIR": ("",), "CLOUDSDK_CONFIG": ("",),
    "GNUPGHOME": ("",), "PASSWORD_STORE_DIR": ("",), "AZURE_CONFIG_DIR": ("",),
    "CARGO_HOME": ("credentials", "credentials.toml"), "PIP_CONFIG_FILE": ("",),
    "VAULT_CONFIG_PATH": ("",), "TF_CLI_CONFIG_FILE": ("",), "OCI_CLI_CONFIG_FILE": ("",),
    "XDG_CONFIG_HOME": ("gh", "gcloud", "git/credentials", "rclone", "op", "configstore",
                        "doctl", "helm/repositories.yaml", "github-copilot", "glab-cli",
                        "stripe", "ngrok", "netlify", "sops", "openstack", "pip/pip.conf",
                        "composer/auth.json", "1Password"),
    "XDG_DATA_HOME": ("keyrings", "mkcert"),
    # review DX7: more tools' credential files, and the agents' own folders moved (their
    # settings run hooks, as `~/.claude`'s do: no access at all where the variable says)
    "SOPS_AGE_KEY_FILE": ("",), "REGISTRY_AUTH_FILE": ("",), "RCLONE_CONFIG": ("",),
    "HELM_REGISTRY_CONFIG": ("",), "AWS_WEB_IDENTITY_TOKEN_FILE": ("",),
    "TALOSCONFIG": ("",), "BOTO_CONFIG": ("",),
    # huggingface_hub keeps every saved token in `stored_tokens` beside `token` (DZ2)
    "HF_TOKEN_PATH": ("", "../stored_tokens"), "HF_STORED_TOKENS_PATH": ("",),
    "HF_HOME": ("token", "stored_tokens"), "GRADLE_USER_HOME": ("gradle.properties",),
    "COMPOSER_HOME": ("auth.json",), "KAGGLE_CONFIG_DIR": ("kaggle.json",),
    "CLAUDE_CONFIG_DIR": ("",), "CODEX_HOME": ("",),
}  # fmt: skip


def _spots(env: Mapping[str, str], cwd: str, home: str) -> tuple[_Spot, ...]:
    """The credential places `_SECRET_FILE_VARIABLES` name in `env`, made absolute, as
    written and with `~` and `$VAR` expanded: some tools expand them (huggingface_hub:
    review DZ3), most do not. Only for the variables set; `_resolved_spots` adds where
    their links lead."""
    found: list[_Spot] = []
    for variable, below in _SECRET_FILE_VARIABLES.items():
        value = env.get(variable)
        if not value:
            continue
        for entry in value.split(":") if variable == "KUBECONFIG" else (value,):
            if not entry or "\0" in entry:
                continue
            for written in dict.fromkeys((entry, _expanded(entry, env, home))):
                joined = posixpath.join(cwd, written)
                base = posixpath.normpath(joined)
                names = tuple((name, _below(base, name) if name else base) for name in below)
                found.append((variable, joined, names))
    return tuple(dict.fromkeys(found))


def _resolved_spots(spots: tuple[_Spot, ...]) -> tuple[tuple[str, str], ...]:
    """Each place of `spots` with its variable, and where its links lead now (review DT5:
    `KUBECONFIG=~/kc-current`, a link to `~/clusters/prod.yaml`, or a path through a
    linked folder, left the file readable at its real place). Resolved as the tool opens
    it: links first, then `..` (`lnk/../x` is `x` beside where `lnk` leads: review
    DW10); the folder once, then each name below it (review GE2: this runs for every line
    of `eval --jsonl`)."""
    found: list[tuple[str, str]] = []
    for variable, joined, names in spots:
        real_base = _real_place(joined)
        for name, place in names:
            found.append((place, variable))
            real = _real_below(real_base, name) if real_base and name else real_base
            if real and real != place:
                found.append((real, variable))
    return tuple(dict.fromkeys(found))


# the names below a variable's place that are one plain name (`gh`, `config.json`)
_PLAIN_NAMES: Final = frozenset(
    name
    for names in _SECRET_FILE_VARIABLES.values()
    for name in names
    if name and "/" not in name and name not in (".", "..")
)


def _below(folder: str, name: str) -> str:
    """`folder/name` normalised, where `folder` is."""
    if name in _PLAIN_NAMES:
        return folder + name if folder.endswith("/") else f"{folder}/{name}"
    return posixpath.normpath(posixpath.join(folder, name))


def _real_below(real: str, name: str) -> str:
    """`os.path.realpath(real + "/" + name)` where `real` is already resolved: only the
    names of `name` are looked up (`XDG_CONFIG_HOME` has eighteen places below it, and
    a context kept for many lines resolves them again for each: review GE2)."""
    if name in _PLAIN_NAMES:  # the usual case, one look-up
        path = _below(real, name)
        try:
            link = stat.S_ISLNK(os.lstat(path).st_mode)
        except (OSError, ValueError):
            return path
        return _realpath(path) if link else path
    parts = [part for part in name.split("/") if part and part != "."]
    path = real
    for index, part in enumerate(parts):
        if part == "..":  # `path` has no links left: its parent is where `..` leads
            path = posixpath.dirname(path)
            continue
        path = posixpath.join(path, part)
        try:
            link = stat.S_ISLNK(os.lstat(path).st_mode)
        except (OSError, ValueError):
            continue  # missing: kept as written, as `realpath` keeps it
        if link:
            return _realpath(posixpath.join(path, *parts[index + 1 :]))
    return path


def _realpath(path: str) -> str:
    """`os.path.realpath(path)`, "" where it fails (`_real_place` had looked it up)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return ""


_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def _expanded(value: str, env: Mapping[str, str], home: str) -> str:
    """`value` with a leading `~` (`~/x`) and the `$VAR`s `env` sets expanded, as
    `os.path.expandvars(os.path.expanduser(value))` would in the tool's process."""
    if value == "~" or value.startswith("~/"):
        value = home + value[1:]
    return _VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), m.group(0)), value)


def _at_or_below(path: str, place: str) -> bool:
    """Whether `path` is `place` or lies below it (both absolute and normal)."""
    return path == place or path.startswith(place.rstrip("/") + "/")


def _real_place(path: str) -> str:
    """`path` with its links resolved, "" where it is not looked up: below an
    automounter's host folder (`/net/HOST`: a lookup there resolves the host, DT1)."""
    if path[:7].lower().startswith(("/net/", "/hosts/")):
        return ""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return ""
