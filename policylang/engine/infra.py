"""Provider binaries a terraform or OpenTofu line runs from the workspace (review GP2).

terraform starts the provider plugins of its data folder (`.terraform/providers/…`) to
validate, graph, show or plan, and `terraform providers schema` prints their schemas: a
binary committed there (with a matching `.terraform.lock.hcl` hash) ran under an approved
`terraform validate`. A CLI configuration (`~/.terraformrc`, `TF_CLI_CONFIG_FILE`) may
point `dev_overrides` at any folder. `provider_finding` says what, in the working folder
or those settings, may hand terraform a provider of the workspace; the caller asks then.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from policylang.engine import paths

PROGRAMS: Final = frozenset({"terraform", "tofu"})
# the verbs that start no provider (terraform 1.11, review GP2): versions, formatting,
# the state's own listings, installing (`init` and `get` install, run nothing) and the
# bare `providers` listing (`providers schema|mirror|lock` are not)
_QUIET: Final = frozenset(
    {"version", "fmt", "output", "workspace", "init", "get", "modules", "metadata", "help",
     "login", "logout", "force-unlock"}
)  # fmt: skip
_QUIET_STATE: Final = frozenset({"list", "pull"})
# the data folder's plugin folders, and the project's legacy plugin folder
_PLUGIN_FOLDERS: Final = ("providers", "plugins")
_PROJECT_PLUGINS: Final = "terraform.d/plugins"
# variables that move the data folder or the CLI configuration, or add arguments
_DATA_DIR: Final = "TF_DATA_DIR"
_CONFIG_ENV: Final = ("TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TOFU_CLI_CONFIG_FILE")
_CONFIG_FILES: Final = (".terraformrc", "terraform.rc", ".tofurc", "tofu.rc")


def _operands(words: Sequence[str | None]) -> tuple[list[str | None], str | None]:
    """The words that are no option, and `-chdir`'s folder (`.` without one)."""
    found: list[str | None] = []
    chdir: str | None = "."
    for word in words:
        if word is not None and word.startswith("-"):
            name, _equals, value = word.lstrip("-").partition("=")
            if name == "chdir":
                chdir = value or None
            continue
        found.append(word)
    return found, chdir


def runs_providers(words: Sequence[str | None]) -> bool:
    """Whether the verb may start the providers (any verb but `_QUIET`'s; a word that is
    not literal counts)."""
    operands, _chdir = _operands(words)
    if not operands:
        return False  # (`terraform -version`, `terraform -help`)
    verb = operands[0]
    if verb is None:
        return True
    following = operands[1] if len(operands) > 1 else ""
    if verb == "providers":
        return following != ""
    if verb == "state":
        return following not in _QUIET_STATE
    return verb not in _QUIET


def _holds_entries(folder: str) -> bool | None:
    """Whether `folder` holds any entry (None: it cannot be read)."""
    if not os.path.isdir(folder):
        return None if paths.lexists(folder) else False  # (a file there: not judged)
    try:
        with os.scandir(folder) as entries:
            return next(entries, None) is not None
    except OSError:
        return None


def _plugins_in(folder: str, data_dir: str, inside: Callable[[str], bool]) -> str | None:
    """The plugin folder under `folder` (the data folder's or the project's), in the
    workspace, that holds anything or cannot be read. (One outside it, a `TF_DATA_DIR`
    of the user's, holds what the user installed.)"""
    looked = [os.path.join(folder, data_dir, name) for name in _PLUGIN_FOLDERS]
    looked.append(os.path.join(folder, _PROJECT_PLUGINS))
    for path in looked:
        if inside(path) and _holds_entries(path) is not False:
            return path
    return None


def provider_finding(
    words: Sequence[str | None],
    starts: Sequence[str] | None,
    env: Mapping[str, str],
    home: str,
    inside: Callable[[str], bool],
) -> str | None:
    """What may hand the line's terraform a provider binary of the workspace: a plugin
    folder of the working folder (or `-chdir`'s) that holds anything, a data folder moved
    by `TF_DATA_DIR`, or a CLI configuration in the workspace (its `dev_overrides` run any
    folder's provider). `starts`: the working folders (None: not known)."""
    if not runs_providers(words):
        return None
    _operands_found, chdir = _operands(words)
    if chdir is None or starts is None:
        return "a working folder not known here"
    data_dir = env.get(_DATA_DIR) or ".terraform"
    for start in starts:
        folder = os.path.normpath(os.path.join(start, chdir))
        found = _plugins_in(folder, data_dir, inside)
        if found is not None:
            return found
    configs = [env[name] for name in _CONFIG_ENV if env.get(name)]
    configs += [os.path.join(home, name) for name in _CONFIG_FILES]
    for config in configs:
        for start in starts:
            path = os.path.normpath(os.path.join(start, config))
            if paths.lexists(path) and inside(path):
                return path
    return None
