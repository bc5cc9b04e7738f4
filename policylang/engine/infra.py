"""Provider binaries a terraform or OpenTofu line runs from the workspace (review GP2).

terraform starts the provider plugins of its data folder (`.terraform/providers/…`) to
validate, graph, show or plan, and `terraform providers schema` prints their schemas: a
binary committed there (with a matching `.terraform.lock.hcl` hash) ran under an approved
`terraform validate`. A CLI configuration (`~/.terraformrc`, `TF_CLI_CONFIG_FILE`) may
point `dev_overrides` at any folder. `provider_finding` says what, in the working folder
or those settings, may hand terraform a provider of the workspace; the caller asks then.
`backend_finding` says which declared backend a verb sets up (review GU2; a `local` one
that stays in the workspace is none: AW3); `chdirs` and `cli_args_finding` what moves
the paths a line names or adds words to it (review AW1, AW2).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from policylang.engine import paths
from policylang.engine.gitconfig import read_regular

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
_PLUGIN_CACHE: Final = "TF_PLUGIN_CACHE_DIR"
_CLI_ARGS: Final = "TF_CLI_ARGS"
# the words of a `TF_CLI_ARGS*` variable that name no file and run nothing (review AW2)
_HARMLESS_ARGS: Final = re.compile(
    r"--?(?:no-color|compact-warnings|json|raw|input=(?:true|false)|lock=(?:true|false)"
    r"|lock-timeout=\w+|parallelism=\d+)"
)
_CONFIG_ENV: Final = ("TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TOFU_CLI_CONFIG_FILE")
_CONFIG_FILES: Final = (".terraformrc", "terraform.rc", ".tofurc", "tofu.rc")
# the CLI configuration folders, read when no `TF_CLI_CONFIG_FILE` is set: terraform loads
# every `~/.terraform.d/*.tfrc` (`dev_overrides`, review GU3) and `plugins/` there is an
# implied provider mirror, as are the XDG data folders; OpenTofu reads
# `$XDG_CONFIG_HOME/opentofu/tofurc`. Anything in one of them in the workspace counts
_CONFIG_FOLDERS: Final = (
    ".terraform.d", ".config/opentofu", ".local/share/terraform", ".local/share/opentofu"
)
_XDG_FOLDERS: Final = (("XDG_CONFIG_HOME", "opentofu"), ("XDG_DATA_HOME", "terraform"),
                       ("XDG_DATA_HOME", "opentofu"))  # fmt: skip
_WRITTEN_BY_TERRAFORM: Final = frozenset(
    {"checkpoint_signature", "checkpoint_cache", "credentials.tfrc.json"}
)
# the verbs that read neither the backend nor the CLI configuration (review GU2)
_OFFLINE: Final = frozenset({"version", "fmt", "help"})
# those that do not set up the backend either (real terraform 1.11.4, review GU2: no
# request reached the backend's host); `workspace show` prints only the selected name
_NO_BACKEND: Final = _OFFLINE | {"get", "modules", "metadata", "login", "logout"}
# the configuration files of the working folder (OpenTofu also reads `.tofu`)
_CONFIGURATION: Final = (".tf", ".tf.json", ".tofu", ".tofu.json")
_SCAN_LIMIT: Final = 4_000_000  # (bytes read over the folder's files; more asks)
# a `backend "…" {` or `cloud {` block of the native syntax: the type word, not part of a
# longer name or of a string (`"backend"`, `var.backend`), its label and the brace, with
# comments between them (review GU2); anything unsure is judged as a block
_COMMENT: Final = r"(?:\s|/\*.*?\*/)*"
_BLOCK: Final = re.compile(
    r'(?<![\w".\-])(?:backend' + _COMMENT
    + r'(?P<label>"(?:[^"\\\n]|\\.)*"|[^\W\d][\w-]*)|cloud)'
    + _COMMENT + r"\{",
    re.DOTALL,
)
_JSON_BLOCKS: Final = frozenset({"backend", "cloud"})
# the body of a `backend "local"` block that keeps its state in the working folder:
# blank, comments, and `path`/`workspace_dir` set to a plain name (review AW3)
_PLAIN_NAME: Final = r'"([\w.][\w./-]*)"'
_LOCAL_SETTING: Final = re.compile(r"(?:path|workspace_dir)[ \t]*=[ \t]*" + _PLAIN_NAME)
_MAX_RECORD: Final = 64 * 1024  # (bytes of the data folder's backend record)
# the local backend's default state, backup and lock record (review HC3)
_DEFAULT_STATE_NAMES: Final = (
    "terraform.tfstate", "terraform.tfstate.backup", ".terraform.tfstate.lock.info"
)


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


def chdirs(words: Sequence[str | None]) -> list[str] | None:
    """Every folder a `-chdir=` of the line names, None where a word is not literal.
    terraform changes into the last one before the verb before it reads any other
    option, so the relative paths of `-state=`, `-state-out=`, `-backup=`, `-var-file=`
    and the operands are relative to it (review AW1); each one named counts."""
    found: list[str] = []
    for word in words:
        if word is None:
            return None
        name, _equals, value = word.lstrip("-").partition("=")
        if word.startswith("-") and name == "chdir" and value:
            found.append(value)
    return found


def _folders(words: Sequence[str | None], starts: Sequence[str] | None) -> list[str] | None:
    """The folders terraform runs in: each working folder `starts` moved by `-chdir`
    (None: one not known)."""
    _operands_found, chdir = _operands(words)
    if chdir is None or starts is None:
        return None
    return [os.path.normpath(os.path.join(start, chdir)) for start in starts]


def cli_args_finding(words: Sequence[str | None], env: Mapping[str, str]) -> str | None:
    """The `TF_CLI_ARGS` or `TF_CLI_ARGS_<verb>` variable of the environment that adds
    a word terraform reads as if typed after the verb (`-state=~/.aws/credentials`) and
    that is not one of `_HARMLESS_ARGS` (review AW2); terraform takes `TF_CLI_ARGS_` with
    the verb's words joined by `_` (`state_list`), so any variable of the verb's first
    word counts (every one where the verb is not literal)."""
    verb = _verb(words)
    first = None if verb is None else verb[0]
    for name, value in env.items():
        if name != _CLI_ARGS and not name.startswith(_CLI_ARGS + "_"):
            continue
        if name != _CLI_ARGS and first is not None:
            wanted = _CLI_ARGS + "_" + first.replace("-", "_")
            if name != wanted and not name.startswith(wanted + "_"):
                continue
        if not all(_HARMLESS_ARGS.fullmatch(arg) for arg in value.split()):
            return name
    return None


def data_places(env: Mapping[str, str]) -> list[str]:
    """The folders the environment makes terraform write: `TF_DATA_DIR` (the data
    folder) and `TF_PLUGIN_CACHE_DIR` (providers it installs, then runs) (review AW2)."""
    return [env[name] for name in (_DATA_DIR, _PLUGIN_CACHE) if env.get(name)]


def _verb(words: Sequence[str | None]) -> tuple[str | None, str] | None:
    """The verb and the word after it (None: no verb, `terraform -version`)."""
    operands, _chdir = _operands(words)
    if not operands:
        return None
    return operands[0], (operands[1] or "\0") if len(operands) > 1 else ""


def reads_configuration(words: Sequence[str | None]) -> bool:
    """Whether the verb reads the CLI configuration or the backend (all but `_OFFLINE`'s;
    a word that is not literal counts)."""
    verb = _verb(words)
    return verb is not None and verb[0] not in _OFFLINE


def reads_backend(words: Sequence[str | None]) -> bool:
    """Whether the verb sets up the configuration's backend (review GU2)."""
    verb = _verb(words)
    if verb is None or verb[0] in _NO_BACKEND:
        return False
    return not (verb[0] == "workspace" and verb[1] == "show")


def deletes_state(words: Sequence[str | None]) -> bool:
    """`workspace delete`, which removes a workspace's state, with the backend's folder
    under it (`RemoveAll`: review GU1); a verb that is not literal counts."""
    verb = _verb(words)
    if verb is None:
        return False
    if verb[0] is None:
        return True
    return verb[0] == "workspace" and verb[1] in ("delete", "\0")


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


def _plugins_in(
    folder: str, data_dir: str, env: Mapping[str, str], inside: Callable[[str], bool]
) -> str | None:
    """The plugin folder under `folder` (the data folder's or the project's), or the
    plugin cache `TF_PLUGIN_CACHE_DIR` whose providers `init` links into the data folder
    (review AW2), in the workspace, that holds anything or cannot be read. (One outside
    it, a `TF_DATA_DIR` of the user's, holds what the user installed.)"""
    looked = [os.path.join(folder, data_dir, name) for name in _PLUGIN_FOLDERS]
    looked.append(os.path.join(folder, _PROJECT_PLUGINS))
    if env.get(_PLUGIN_CACHE):
        looked.append(os.path.join(folder, env[_PLUGIN_CACHE]))
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
    if not reads_configuration(words):
        return None
    folders = _folders(words, starts)
    if folders is None or starts is None:
        return "a working folder not known here"
    data_dir = env.get(_DATA_DIR) or ".terraform"
    for folder in folders:
        found = _plugins_in(folder, data_dir, env, inside) if runs_providers(words) else None
        if found is not None:
            return found
    return _config_finding(starts, env, home, inside)


def _config_finding(
    starts: Sequence[str], env: Mapping[str, str], home: str, inside: Callable[[str], bool]
) -> str | None:
    """A CLI configuration file, or a configuration folder holding anything, in the
    workspace: its `dev_overrides`, provider mirrors and `credentials_helper` run any
    folder's programs (reviews GP2, GU3)."""
    configs = [env[name] for name in _CONFIG_ENV if env.get(name)]
    configs += [os.path.join(home, name) for name in _CONFIG_FILES]
    for folder in _config_folders(env, home):
        if inside(folder) and _holds_configuration(folder):
            return folder
    for config in configs:
        for start in starts:
            path = os.path.normpath(os.path.join(start, config))
            if paths.lexists(path) and inside(path):
                return path
    return None


def _config_folders(env: Mapping[str, str], home: str) -> list[str]:
    """The CLI configuration folders under `home` and the XDG folders (review GU3)."""
    folders = [os.path.join(home, name) for name in _CONFIG_FOLDERS]
    folders += [os.path.join(env[name], sub) for name, sub in _XDG_FOLDERS if env.get(name)]
    return [os.path.normpath(folder) for folder in folders]


def _holds_configuration(folder: str) -> bool:
    """Whether a CLI configuration folder holds what configures terraform (anything, but
    the files terraform writes itself in `.terraform.d`: its checkpoint records and the
    `login` credentials); one that cannot be read counts."""
    if os.path.basename(folder) != ".terraform.d":
        return _holds_entries(folder) is not False
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return False
    except OSError:
        return paths.lexists(folder)
    return any(name not in _WRITTEN_BY_TERRAFORM for name in names)


def backend_finding(
    words: Sequence[str | None],
    starts: Sequence[str] | None,
    env: Mapping[str, str],
    inside: Callable[[str], bool],
) -> str | None:
    """What makes the line's verb set up a backend of the workspace's choosing (reviews
    GU1, GU2): a `-backend-config` or `-from-module` (GW1) on the line, or in the
    working folder (or `-chdir`'s) a `backend`/`cloud` block, a `*.tfbackend` file or
    the data folder's record of an initialised backend. `starts`: the working folders
    (None: not known)."""
    if not reads_backend(words):
        return None
    if any(word is None or word.lstrip("-").startswith("backend-config") for word in words):
        return "a `-backend-config` (or a word not known here)"
    if any(word.startswith("-") and word.lstrip("-").startswith("from-module") for word in words
           if word is not None):  # fmt: skip
        # `init -from-module=../mod` copies a configuration (its backend) into the
        # folder after the scan below looked at it (review GW1)
        return "a `-from-module` (its backend is copied in after this scan)"
    folders = _folders(words, starts)
    if folders is None:
        return "a working folder not known here"
    data_dir = env.get(_DATA_DIR) or ".terraform"
    for folder in folders:
        found = _declared_backend(folder, data_dir, inside)
        if found is not None:
            return found
    return None


def _declared_backend(folder: str, data_dir: str, inside: Callable[[str], bool]) -> str | None:
    """The file of `folder` that declares or records a backend, or the folder when it
    cannot be read whole (fail closed). A `local` backend whose state stays in the
    workspace is none (review AW3)."""
    state = os.path.join(folder, data_dir, "terraform.tfstate")
    if paths.lexists(state) and not _records_local(state, folder, inside):
        return state
    if not os.path.isdir(folder):
        return None  # (terraform stops: no such folder)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return folder
    budget = _SCAN_LIMIT
    for name in names:
        path = os.path.join(folder, name)
        if name.endswith(".tfbackend"):
            return path
        if not name.endswith(_CONFIGURATION):
            continue
        try:
            with open(path, "rb") as handle:
                data = handle.read(budget + 1)
        except OSError:
            return path
        budget -= len(data)
        if budget < 0 or _declares_backend(name, data, folder, inside):
            return path
    # no backend declared: the implicit local one, whose lock record and workspaces'
    # state a committed link leads anywhere as well (review HC3)
    return _state_link(folder, {})


def _declares_backend(name: str, data: bytes, folder: str, inside: Callable[[str], bool]) -> bool:
    """Whether the file's text declares a `backend` or `cloud` block (the native syntax
    by `_BLOCK`, JSON by any key of those names; a file that does not decode counts),
    other than a `local` backend that keeps its state in the workspace (`_local_stays`)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    if not name.endswith(".json"):
        return any(not _local_stays(text, m, folder, inside) for m in _BLOCK.finditer(text))
    keys: list[str] = []

    def pairs(found: list[tuple[str, object]]) -> dict[str, object]:
        keys.extend(key for key, _value in found)
        return {}

    try:
        json.loads(text, object_pairs_hook=pairs)
    except ValueError:
        return True
    return any(key in _JSON_BLOCKS for key in keys)


def _local_stays(
    text: str, block: re.Match[str], folder: str, inside: Callable[[str], bool]
) -> bool:
    """Whether the block `_BLOCK` found is `backend "local"` whose body sets nothing but
    `path` and `workspace_dir` to plain relative names that stay in the workspace: the
    local backend keeps its state (`terraform.tfstate`, `terraform.tfstate.d/`) in the
    working folder, and `workspace delete` removes only under `workspace_dir` (review
    AW3). The body is read as HCL reads it, comments skipped whole (`# }` ends no body:
    review HC2); anything else counts as another backend. The state files the settings
    name must hold no link either (review HC3, `_state_link`)."""
    if block.group("label") not in ('"local"', "local"):
        return False
    settings = _local_settings(text, block.end())
    if settings is None:
        return False
    if not all(_stays(folder, value, inside) for value in settings.values()):
        return False
    return _state_link(folder, settings) is None


# what HCL skips between a local backend's settings: blanks, newlines (a CR only before
# its LF) and comments (`#` and `//` to the end of the line, `/* … */`) (review HC2)
_LOCAL_SKIP: Final = re.compile(
    r"(?:[ \t\n]|\r\n|(?:#|//)[^\r\n]*|/\*(?:[^*]|\*(?!/))*\*/)+"
)


def _local_settings(text: str, start: int) -> dict[str, str] | None:
    """The settings of a `backend "local"` body that starts at `start`, read up to its
    closing `}` as HCL tokenises it: comments are skipped whole, so a `}` inside one
    ends nothing (review HC2); None for any other text (a string not plain, an
    interpolation, an odd character, a repeated setting, no closing brace)."""
    found: dict[str, str] = {}
    index = start
    while index < len(text):
        skip = _LOCAL_SKIP.match(text, index)
        if skip is not None:
            index = skip.end()
            continue
        if text[index] == "}":
            return found
        setting = _LOCAL_SETTING.match(text, index)
        if setting is None:
            return None
        name = setting.group(0).partition("=")[0].strip()
        if name in found:
            return None
        found[name] = setting.group(1)
        index = setting.end()
    return None


def _state_link(folder: str, settings: Mapping[str, str]) -> str | None:
    """The first of a local backend's state files in `folder` that is a link (or its
    folder), or a folder not read: the state (`path`, default `terraform.tfstate`), its
    `.backup` and `.lock.info` files, and each workspace's under `workspace_dir`
    (default `terraform.tfstate.d`), which `init -force-copy`, `apply` and `state push`
    write through a committed link anywhere (`s.tfstate.backup -> ~/.bash_login`: review
    HC3)."""
    state = settings.get("path", "terraform.tfstate")
    places = [folder]
    workspaces = os.path.join(folder, settings.get("workspace_dir", "terraform.tfstate.d"))
    if os.path.islink(workspaces):
        return workspaces
    if os.path.isdir(workspaces):
        try:
            names = sorted(os.listdir(workspaces))
        except OSError:
            return workspaces
        places += [os.path.join(workspaces, name) for name in names]
    for place in places:
        if place != folder and os.path.islink(place):
            return place
        for name in _state_names(state):
            path = os.path.join(place, name)
            if os.path.islink(path):
                return path
    return None


def _state_names(state: str) -> list[str]:
    """The files the local backend writes for its state path `state` (relative): the
    state, its backup and the lock record (`.name.lock.info` beside it); the default
    names are also judged, as terraform keeps them when migrating."""
    head, tail = os.path.split(state)
    lock = os.path.join(head, "." + tail + ".lock.info")
    return [state, state + ".backup", lock, *_DEFAULT_STATE_NAMES]



def _stays(folder: str, value: str, inside: Callable[[str], bool]) -> bool:
    """Whether a local backend's `path` or `workspace_dir` names a place in the workspace
    (relative, no `..`, and inside it with its links resolved)."""
    if value.startswith(("/", "~")) or ".." in value.split("/"):
        return False
    return inside(os.path.realpath(os.path.join(folder, value)))


def _records_local(state: str, folder: str, inside: Callable[[str], bool]) -> bool:
    """Whether the data folder's record of the initialised backend is a `local` backend
    whose settings stay in the workspace (as `terraform init` writes it for a plain
    `backend "local" {}`: review AW3); anything else, or unreadable, is not."""
    data = read_regular(state, _MAX_RECORD + 1)
    if data is None or len(data) > _MAX_RECORD:
        return False
    try:
        record = json.loads(data)
    except ValueError:
        return False
    backend = record.get("backend") if isinstance(record, dict) else None
    if not isinstance(backend, dict) or backend.get("type") != "local":
        return False
    config = backend.get("config")
    if not isinstance(config, dict) or not set(config) <= {"path", "workspace_dir"}:
        return False
    settings = {key: value for key, value in config.items() if isinstance(value, str)}
    if not all(
        value is None or (isinstance(value, str) and value and _stays(folder, value, inside))
        for value in config.values()
    ):
        return False
    return _state_link(folder, settings) is None  # (review HC3)
