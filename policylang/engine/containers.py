"""Engine helper: what a container engine's line takes from this machine (review HF3-HF6).

The policy's rules judge the options of a container's run, build or exec where they are
the container's (`container-host`, `container-env`, `container-host-files`). Some
options are the engine's own plumbing instead, and the engine runs them on this machine
as its user (root, for a rootful engine): podman's `--runtime PATH` runs PATH as the OCI
runtime (`PATH create --bundle …`, seen with podman 4.3), `--conmon`,
`--network-cmd-path` and the hooks of `--hooks-dir` are programs too, `--storage-opt
overlay.mount_program=PATH` another, and nerdctl's `--runtime` and `--cni-path` name the
runc binary and the CNI plugins it runs. podman, nerdctl and buildah take their global
options after any verb (`podman ps --runtime PATH` syncs a container's state through
PATH), so they are read in every line of these programs, wherever they stand, by their
exact names (cobra takes no abbreviations), and so is a configuration of theirs the
workspace holds (containers.conf names the runtime; `CONTAINERS_CONF`, `NERDCTL_TOML`).
`--network host` (and `ns:PATH`, or slirp4netns' and pasta's own options) hands the
container this machine's network, its loopback services included (review HF6).
`--build-arg NAME` without a value passes the build NAME's value from this environment.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence
from typing import Final

# the container engines with docker's command line, and buildah, which builds and runs
# containers with podman's options
ENGINES: Final = frozenset({"docker", "podman", "nerdctl", "finch", "buildah"})

_PROGRAM = "a program the container engine runs on this machine, or options for it"
_PLACE = "a configuration or storage folder of this machine the container engine uses"
_FILE = "a file of this machine the container engine reads, into the container or its errors"
_REMOTE = "another machine's container engine (and the SSH key that reaches it)"
# the options that name what the engine itself uses here, and what they name: podman's
# and buildah's global options, nerdctl's (`--cni-path`, `--data-root`, `--hosts-dir`),
# the runtime of a run or build (docker's names a runtime of daemon.json, but podman's
# `docker` wrapper is podman), and the files a run puts into the container (`--init-path`
# bind-mounts any file as the init; `--pod-id-file` prints the file in its error)
_HOST_OPTIONS: Final = {
    "--runtime": _PROGRAM, "--runtime-flag": _PROGRAM, "--conmon": _PROGRAM,
    "--network-cmd-path": _PROGRAM, "--cni-path": _PROGRAM, "--hooks-dir": _PROGRAM,
    "--storage-opt": _PROGRAM, "--cpp-flag": _PROGRAM,
    "--network-config-dir": _PLACE, "--cni-netconfpath": _PLACE, "--root": _PLACE,
    "--runroot": _PLACE, "--data-root": _PLACE, "--tmpdir": _PLACE, "--volumepath": _PLACE,
    "--module": _PLACE, "--registries-conf": _PLACE, "--registries-conf-dir": _PLACE,
    "--short-name-alias-conf": _PLACE, "--hosts-dir": _PLACE,
    "--init-path": _FILE, "--init-binary": _FILE, "--pod-id-file": _FILE,
    "--url": _REMOTE, "--connection": _REMOTE, "--identity": _REMOTE,
    "--decryption-key": _FILE,
}  # fmt: skip
_NETWORK_OPTIONS: Final = frozenset({"--network", "--net"})
# network modes that are this machine's network, or reach its loopback: `host`, a
# namespace by its path (`ns:/proc/1/ns/net`), and slirp4netns' or pasta's options
# (`slirp4netns:allow_host_loopback=true`; pasta's may name files it writes)
_HOST_NETWORK_STARTS: Final = ("ns:", "slirp4netns:", "pasta:")


# the variables that name the configuration files an engine reads (containers.conf names
# the runtime, conmon, hooks and helper programs; storage.conf a mount program;
# nerdctl.toml the CNI folders), and the user's configuration folder each reads
_PODMAN_CONFIG_ENV: Final = (
    "CONTAINERS_CONF", "CONTAINERS_CONF_OVERRIDE", "CONTAINERS_STORAGE_CONF",
    "CONTAINERS_REGISTRIES_CONF", "REGISTRIES_CONFIG_PATH",
)  # fmt: skip
_NERDCTL_CONFIG_ENV: Final = ("NERDCTL_TOML", "CNI_PATH", "NETCONFPATH")


def config_places(name: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(how it is named, the path) of each configuration file or folder engine `name`
    reads from the environment or the user's configuration folder (`~/.config/containers`
    for podman and buildah, and docker, which may be podman's wrapper;
    `~/.config/nerdctl` for nerdctl and finch)."""
    config_home = env.get("XDG_CONFIG_HOME") or "~/.config"
    nerdctl = name in ("nerdctl", "finch")
    variables: Sequence[str] = _NERDCTL_CONFIG_ENV if nerdctl else _PODMAN_CONFIG_ENV
    folder = f"{config_home}/{'nerdctl' if nerdctl else 'containers'}"
    found = [(variable, env[variable]) for variable in variables if env.get(variable)]
    found.append(("the user's configuration folder", folder))
    return found


def version_only(words: Sequence[str | None]) -> bool:
    """Whether the words after the engine's name only ask for its version (which reads
    no configuration)."""
    return tuple(words) in _VERSION_ONLY


_VERSION_ONLY: Final = frozenset({("--version",), ("-v",), ("version",)})


def host_option(program: str, words: Sequence[str | None]) -> tuple[str, str] | None:
    """(the option, what it names) of the first option in `words` (the words after the
    engine's name) that names a program, folder or file of this machine the engine uses,
    or None. Every word is read (the container's own command's too: stricter, never
    looser, than finding where the engine's options end)."""
    for index, word in enumerate(words):
        if word is None or not word.startswith("--"):
            continue
        name, equals, value = word.partition("=")
        what = _HOST_OPTIONS.get(name)
        if what is None:
            continue
        if name == "--runtime" and program != "buildah":
            following = words[index + 1] if index + 1 < len(words) else ""
            if _named_runtime(value if equals else following):
                continue
        return name, what
    return None


# annotations the OCI runtime reads as its own settings (review BQ2, crun 1.8.1's
# crun(1)): `run.oci.seccomp.plugins=PATH` dlopen()s PATH into crun on this machine,
# `run.oci.hooks.stdout=FILE` appends to FILE, `run.oci.keep_original_groups` keeps the
# user's groups, `run.oci.handler` picks another runtime; runc's `org.criu.config` names
# CRIU's configuration file; podman's `io.podman.annotations.*` (`…label=disable`,
# `…seccomp`) mirror `--security-opt`
_RUNTIME_ANNOTATIONS: Final = ("run.oci.", "org.criu.", "io.podman.annotations.")


def runtime_option(words: Sequence[str | None], program: str = "") -> str | None:
    """The `--annotation KEY=VALUE` of `words` whose key the OCI runtime reads as its own
    setting (a program it loads, a file it writes, the groups it keeps), or podman's
    `--group-add keep-groups` (the user's own groups, crun's `keep_original_groups`), as
    written, or None; a value that is not literal counts. podman splits both options'
    values on commas as CSV, quotes removed (`--annotation a=b,run.oci.…`, `--group-add
    '"keep-groups"'`: review HN1), so every item is read, quotes dropped; a value that is
    no clean CSV record counts. `buildah config -a` is `--annotation` (an image's
    annotations reach the runtime of each container made from it: HN2). Every word is
    read, as `host_option`."""
    config = program == "buildah" and "config" in words
    for index, word in enumerate(words):
        if word is None or not word.startswith("-"):
            continue
        if config and word.startswith("-a") and not word.startswith("--"):
            name, equals, value = "--annotation", word[2:3], word[2:].removeprefix("=")
            equals = "=" if value else ""
        else:
            name, equals, value = word.partition("=")
        if name not in ("--annotation", "--group-add"):
            continue
        if not equals:
            following = words[index + 1] if index + 1 < len(words) else ""
            if following is None:
                return f"{name} …"
            value = following
        if _runtime_setting(name, value):
            return f"{name} {value}"
    return None


def _runtime_setting(name: str, value: str) -> bool:
    """Whether an item of `--annotation VALUE` (or `--group-add VALUE`), split on commas
    with every quote dropped (stricter than podman's CSV reading), is a setting of the
    OCI runtime, or VALUE is no clean CSV record (HN1)."""
    try:
        records = list(csv.reader(io.StringIO(value), strict=True))
    except csv.Error:
        return True
    if len(records) > 1 or "\r" in value:
        return True
    if any('"' in field for record in records for field in record):
        return True  # a quote inside a field: an escaped or stray one, no clean CSV
    for item in value.replace('"', "").split(","):
        item = item.strip().lower()
        if name == "--group-add":
            if item == "keep-groups":
                return True
        elif item.startswith(_RUNTIME_ANNOTATIONS):
            return True
    return False


# the transports that name an image by a file or folder of this machine (or another
# store's root: `containers-storage:[/path]img`), which the agent may have written
_LOCAL_TRANSPORTS: Final = (
    "dir:", "oci:", "oci-archive:", "docker-archive:", "containers-storage:",
    "docker-daemon:", "sif:", "ostree:", "tarball:",
)  # fmt: skip
# the verbs whose later words name an image a container runs, or that podman or buildah
# copies into its storage, annotations and all (`podman pull oci-archive:x.tar`, then
# `podman run x`: review HP3); `podman container clone CTR NAME IMAGE` (review HP1)
_RUN_VERBS: Final = frozenset({"run", "create", "clone", "pull"})
# the verbs that always read an image archive of this machine (a file, or stdin: review
# HP3); not `import`, whose tarball is a root filesystem with no image configuration (its
# `--change LABEL` stays a label: podman 4.3 gives the container no annotation of it)
_ARCHIVE_VERBS: Final = frozenset({"load"})
_HELP: Final = frozenset({"--help", "-h", "help"})


def literal_start(text: str) -> str:
    """The literal start of a shell word's text, quotes removed, up to its first expansion
    (`$`, a backquote): `"oci-archive:$F"` starts `oci-archive:` (review HP2), or its first
    unquoted glob or brace (`*`, `?`, `[`, extglob's `@(` `+(` `!(`, `{`): bash may expand
    `o?i-archive:x.tar` to a file named `oci-archive:x.tar` (review BZ HS2)."""
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote == "'":
            if ch == "'":
                quote = ""
            else:
                out.append(ch)
            i += 1
            continue
        if ch in "$`":
            break
        if not quote and (ch in "*?[{" or (ch in "@+!" and text[i + 1 : i + 2] == "(")):
            break
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == '"':
            quote = "" if quote else '"'
        elif ch == "'" and not quote:
            quote = "'"
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def cobra_verb(
    words: Sequence[str | None], switches: Collection[str], unknown: Collection[int] = ()
) -> int | None:
    """Where a cobra program's verb is among the words after its name, as cobra finds it
    (`stripFlags`): past its options, where `--name` and `-x` without `=` take the next
    word unless they are switches of the program (`skopeo copy --src-creds sync …` is a
    copy; `lxc --project p exec …` an exec: review BZ HS1, HS3); `len(words)` where there
    is none, None where a word before it is not literal (it may be the verb, or not)."""
    index = 0
    while index < len(words):
        word = words[index]
        if word is None or index in unknown:
            return None
        if word == "--":
            return len(words)
        if not word.startswith("-") or word == "-":
            return index
        valued = "=" not in word and word not in switches and (
            word.startswith("--") or len(word) == 2
        )
        index += 2 if valued else 1
    return len(words)


def cobra_verbs(
    words: Sequence[str | None],
    switches: Collection[str],
    unknown: Collection[int] = (),
    either: Collection[str] | bool = (),
) -> list[int] | None:
    """Every place a cobra program's verb may be (`cobra_verb`), where an option in
    `either` (every option not among the switches, for True) is read both as a switch
    and as taking the next word: its arity is not known (old lxc's `-d` is `--debug`,
    podman's root options reach its subcommands: review HU1, HU3). None where a word
    before a place is not literal."""
    found: set[int] = set()
    todo = [0]
    seen: set[int] = set()
    while todo:
        index = todo.pop()
        if index in seen:
            continue
        seen.add(index)
        if index >= len(words):
            found.add(len(words))
            continue
        word = words[index]
        if word is None or index in unknown:
            return None
        if word == "--":
            found.add(len(words))
            continue
        if not word.startswith("-") or word == "-":
            found.add(index)
            continue
        if "=" in word or word in switches or not (word.startswith("--") or len(word) == 2):
            todo.append(index + 1)
            continue
        todo.append(index + 2)
        if either is True or (not isinstance(either, bool) and word in either):
            todo.append(index + 1)
    return sorted(found)


# podman's (and docker's) global switches; every other option may take a value or not
# (podman's root options are inherited by its subcommands: review HU1)
PODMAN_SWITCHES: Final = frozenset({"--noout", "--remote", "-r", "--syslog", "--help", "-h",
                                    "--version", "-v", "--transient-store", "--debug", "-D",
                                    "--tls", "--tlsverify"})  # fmt: skip


# skopeo's global switches (skopeo 1.9's `--help`; every other global option takes a value)
SKOPEO_SWITCHES: Final = frozenset(
    {"--debug", "--insecure-policy", "--help", "-h", "--version", "-v", "--tls-verify"}
)


def _maybe_local(word: str | None, index: int, unknown: Collection[int]) -> bool:
    """Whether a word may name a local transport: it starts with one, or it is not
    literal and its literal start could begin one (`"$IMG"`, `"oci$X"`: review BX2)."""
    if word is None:
        return False
    lowered = word.lower()
    if lowered.startswith(_LOCAL_TRANSPORTS):
        return True
    return index in unknown and any(t.startswith(lowered) for t in _LOCAL_TRANSPORTS)


def local_image(
    program: str, words: Sequence[str | None], unknown: Collection[int] = ()
) -> str | None:
    """The word of a podman (or docker, which may be podman's wrapper) `run`, `create`,
    `container clone` or `pull` (or buildah's `from` or `pull`, skopeo's `copy` into
    `containers-storage:`) that names its image by a local transport (`oci-archive:img.tar`,
    `oci:dir`, `dir:` …), or podman's `load` (an archive, always), or None: the
    image's annotations reach the OCI runtime as the container's own
    (`run.oci.seccomp.plugins=PATH` loads PATH here), and the agent may have written the
    archive (reviews HN2, HP1, HP3). Every word after the verb is read, as `host_option`
    (a named volume `-v dir:/data` asks too: stricter, never looser); the caller gives an
    unknown word's literal start (`"oci-archive:$F"`: review HP2), and `unknown` the
    indexes of such words, which count when that start could begin a transport (`"$IMG"`:
    review BX2). skopeo's `sync` into a transport other than `docker` or `dir` counts too
    (skopeo 1.9 has no other: review BX3)."""
    if program == "skopeo":
        # (the verb where skopeo finds it, not an option's value: review BZ HS1)
        at = cobra_verb(words, SKOPEO_SWITCHES, unknown)
        if at is None:
            return "…"
        verb_word = words[at] if at < len(words) else None
        if verb_word == "sync":
            return _skopeo_sync_destination(words[at + 1 :])
        if verb_word != "copy":
            return None
        later = {index - at - 1 for index in unknown if index > at}
        return _skopeo_into_storage(words[at + 1 :], later)
    if program in ("podman", "docker"):
        # (`docker` may be podman's wrapper, podman-docker: its `load` is podman's, review BX1)
        verbs = _RUN_VERBS | _ARCHIVE_VERBS
    elif program == "buildah":
        verbs = frozenset({"from", "pull"})
    elif program == "skopeo":
        verbs = frozenset({"copy"})
    else:
        return None
    # (`docker logs load`: a container named `load`, review BZ HS6; any `load` where
    # cobra may find it, `podman image --log-level=debug load`: review HU1)
    for place, word in enumerate(words):
        if word in _ARCHIVE_VERBS and word in verbs and _archive_verb_at(words, place, unknown):
            if any(w in _HELP for w in words[place + 1 :]):
                return None
            return word
    verb = next((i for i, w in enumerate(words) if w in verbs - _ARCHIVE_VERBS), None)
    if verb is None:
        return None
    rest = words[verb + 1 :]
    later = {index - verb - 1 for index in unknown if index > verb}
    return next(
        (w or "…" for i, w in enumerate(rest) if _maybe_local(w, i, later)), None
    )


def _archive_verb_at(words: Sequence[str | None], verb: int, unknown: Collection[int]) -> bool:
    """Whether the archive verb at `verb` is the engine's own verb (`load`, `image load`),
    or may be: the line starts with options or a word that is not literal (such a line
    asks anyway, `front_options`), rather than a later operand (`docker logs load`)."""
    first = words[0] if words else None
    if first is None or 0 in unknown or first.startswith("-"):
        return True
    # as cobra finds it, past root options inherited by `image` (review HU1)
    places = cobra_verbs(words, PODMAN_SWITCHES, unknown, True)
    if places is None or verb in places:
        return True
    for place in places:
        if place < verb and words[place] in ("image", "container"):
            later = {index - place - 1 for index in unknown if index > place}
            inner = cobra_verbs(words[place + 1 :], PODMAN_SWITCHES, later, True)
            if inner is None or verb - place - 1 in inner:
                return True
    return False


def _skopeo_sync_destination(words: Sequence[str | None]) -> str | None:
    """The `--dest` (`-d`) transport of a `skopeo sync` that is not literally `docker` or
    `dir` (the only ones skopeo 1.9 takes; a later one may write podman's storage), or
    None (review BX3). Short options bundle as pflag reads them (`-ad X`, `-adX`, `-ad=X`:
    `-a` is `--all`; `-s` and `-f` take the rest of the bundle: review CF2)."""
    for index, word in enumerate(words):
        if word is None:
            continue
        following = words[index + 1] if index + 1 < len(words) else ""
        if word == "--dest" or word.startswith("--dest="):
            name = "--dest"
            value = word[len(name) :].removeprefix("=") if "=" in word else following
        elif word.startswith("-") and not word.startswith("--"):
            letters = word[1:]
            cut = next((i for i, c in enumerate(letters) if c in "dsf"), None)
            if cut is None or letters[cut] != "d":
                continue
            name = "-d"
            rest = letters[cut + 1 :].removeprefix("=")
            value = rest if rest else following
        else:
            continue
        if value not in ("docker", "dir"):
            return f"{name} {value or '…'}"
    return None


def _skopeo_into_storage(rest: Sequence[str | None], unknown: Collection[int] = ()) -> str | None:
    """The local-transport source of a `skopeo copy` whose destination may be podman's
    storage (`local_image`), or None: a registry's image into it is a pull, a copy out
    of it no run here. Which word is the destination is not read from the operands'
    places, since skopeo takes options after them and an option's value may hold a `:`
    (review HQ7: `skopeo copy oci-archive:x containers-storage:y --src-creds u:p`): any
    word after a local source that names the storage, or is not known, may be it."""
    for index, word in enumerate(rest):
        if not _maybe_local(word, index, unknown):
            continue
        # (a destination that is not literal counts when its literal start could begin
        # the storage's name, `c?ntainers-storage:x`: review HU2)
        if any(not later or later.lower().startswith("containers-storage:")
               or (place in unknown and "containers-storage:".startswith(later.lower()))
               for place, later in enumerate(rest[index + 1 :], index + 1)):
            return word or "…"
    return None


def _named_runtime(value: str | None) -> bool:
    """Whether `--runtime VALUE` names a runtime the engine's configuration lists (docker's
    daemon.json, podman's containers.conf: podman 4.3 refuses a name it does not list) or
    a containerd shim (`io.containerd.runsc.v1`, nerdctl's `crun`, found in the daemon's
    PATH): no path. buildah looks a name up in the PATH it is given: never one there."""
    return value is not None and value != "" and "/" not in value and not value.startswith(".")


def host_network(words: Sequence[str | None]) -> str | None:
    """The `--network VALUE` (or `--net`) of `words` that gives the container this
    machine's network, or None; a value that is not literal counts."""
    for index, word in enumerate(words):
        if word is None:
            continue
        name, equals, value = word.partition("=")
        if name not in _NETWORK_OPTIONS:
            continue
        if not equals:
            following = words[index + 1] if index + 1 < len(words) else ""
            if following is None:
                return f"{name} …"
            value = following
        if _host_network(value):
            return f"{name} {value}"
    return None


def _host_network(value: str) -> bool:
    mode = value.lower()
    if mode.startswith(_HOST_NETWORK_STARTS):
        return True
    return "host" in mode.split(",")


def build_arg_names(words: Sequence[str | None]) -> list[str | None]:
    """The variables whose values `--build-arg NAME` (no `=VALUE`) passes the build from
    this environment (None for a word that is not literal)."""
    names: list[str | None] = []
    for index, word in enumerate(words):
        if word is None:
            continue
        if word == "--build-arg":
            value = words[index + 1] if index + 1 < len(words) else ""
        elif word.startswith("--build-arg="):
            value = word.partition("=")[2]
        else:
            continue
        if value is None:
            names.append(None)
        elif value and "=" not in value:
            names.append(value)
    return names


# podman's and buildah's builds run a Containerfile whose name ends in `.in` through cpp,
# whose `#include "/any/path"` puts any file of this machine in the build (and its error
# output): review HL3, seen with podman 4.3. docker may be podman's wrapper.
_CPP_BUILDERS: Final = frozenset({"podman", "buildah", "docker"})
_BUILD_VERBS: Final = frozenset({"build", "bud", "build-using-dockerfile"})


def cpp_containerfile(program: str, words: Sequence[str | None]) -> str | None:
    """The `-f`/`--file` value of a podman or buildah build (the words after the engine's
    name) that names a Containerfile the build runs through cpp (a name ending in `.in`;
    a value that is not literal counts), or None. Every word is read, as `host_option`."""
    if program not in _CPP_BUILDERS or not any(w in _BUILD_VERBS for w in words):
        return None
    for index, word in enumerate(words):
        if word is None or not word.startswith("-") or word == "-" or word == "--":
            continue
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            if name != "--file":
                continue
        else:
            # `-f X`, `-fX`, `-f=X`, and short flags bundled before it (`-qf X`)
            flags, f, value = word[1:].partition("f")
            if not f or (flags and not flags.isalpha()):
                continue
            equals = "=" if value else ""
            value = value.removeprefix("=")
        if not equals:
            following = words[index + 1] if index + 1 < len(words) else ""
            if following is None:
                return f"{word} …"
            value = following
        if value.lower().endswith(".in"):
            return word if equals else f"{word} {value}"
    return None


# the names of lxc and incus (`lxd.lxc` is the lxd snap's name for lxc, /snap/bin/lxd.lxc:
# review HZ2)
INSTANCE_PROGRAMS: Final = frozenset({"lxc", "incus", "lxd.lxc"})
# lxc's and incus's global switches (every other global option, `--project`, takes a value;
# `--all` shows every command in the help: review HW7)
INSTANCE_SWITCHES: Final = frozenset({"--all", "--debug", "--force-local", "--help", "-h",
                                      "--quiet", "-q", "--sub-commands", "--verbose", "-v",
                                      "--version"})  # fmt: skip
# instance settings that hand the container this machine: its root user
# (`security.privileged`, `security.idmap.*`, `raw.idmap`, `volatile.idmap.*`), nested
# containers, the kernel's modules and system calls, and raw LXC, AppArmor, seccomp or QEMU
# configuration (`raw.lxc "lxc.mount.entry = / host none bind"`; `raw.dnsmasq` of a
# network: dnsmasq runs its `dhcp-script` as root), a disk device's or a storage pool's
# host `source=`, a network's host `parent=` (review HW1, HW4)
_INSTANCE_DANGER: Final = ("security.", "raw.", "linux.", "source=", "connect=unix:", "core.",
                           "volatile.", "parent=")  # fmt: skip
# lxc's global options whose arity differs between versions (old lxc's `-d` is `--debug`)
INSTANCE_EITHER: Final = frozenset({"-d"})
# verbs (and the words after them, at their verb places) that always ask: `alias add` /
# `alias rename` may hide `exec`, `config trust add` / `remote add` / `remote set-url`
# trust a server or client, `import` / `storage volume import` restore a backup with any
# settings, `admin init` sets the server up (review HU5, HU6, HW3, HW6, HW8)
_INSTANCE_LOCKED: Final = (("alias", "add"), ("alias", "rename"), ("config", "trust", "add"),
                           ("config", "trust", "add-certificate"),
                           ("config", "trust", "list-tokens"), ("remote", "add"),
                           ("remote", "set-url"), ("import",), ("admin", "init"),
                           ("storage", "volume", "import"), ("storage", "bucket", "import"),
                           ("file", "mount"))  # fmt: skip
# verbs whose every subcommand but these asks: `auth` grants identities and permissions,
# `cluster` adds servers (join tokens), as `config trust add` (review HW2)
_INSTANCE_GRANTING: Final = frozenset({"auth", "cluster"})
_INSTANCE_READING: Final = frozenset({"list", "ls", "show", "get", "info"})
# the verbs that take settings by `-c KEY=VALUE` (`lxc launch IMG c -c …`)
_INSTANCE_CREATE: Final = frozenset({"launch", "init", "create", "copy", "cp", "move", "mv"})
# the verbs whose `set`, `create`, `device` or `override` take `KEY=VALUE` settings
_INSTANCE_SETTERS: Final = frozenset({"config", "profile", "network", "storage"})
_INSTANCE_VERBS: Final = (_INSTANCE_CREATE | _INSTANCE_SETTERS | _INSTANCE_GRANTING
                          | {"alias", "remote", "import", "admin", "file"})  # fmt: skip
# a proxy device that forwards a TCP or UDP port of this machine into the instance (its
# default `bind=host`) takes nothing from this machine; every other device (a disk, a
# `unix-char`, `unix-hotplug`, `usb`, `gpu`, `pci`, a `nic` with `nictype=physical` or
# `parent=`, a proxy binding in the instance to this machine's loopback) may (review HW5)
_PROXY_SAFE: Final = ("listen=tcp:", "listen=udp:", "connect=tcp:", "connect=udp:",
                      "bind=host", "nat=", "proxy_protocol=", "security.uid=",
                      "security.gid=", "security.mode=")  # fmt: skip


def instance_setting(
    words: Sequence[str | None], unknown: Collection[int] = (), fed: bool = False
) -> str | None:
    """The word of an `lxc` (`incus`) line, the words after its name with an unknown
    word's literal start, that sets an instance or profile setting that gives the
    container this machine (`config set c security.privileged true`, `launch img c -c
    raw.lxc=…`, `config device add c d disk source=/`), or `config edit` / `profile edit`
    (YAML from stdin), or None (review BZ HS5). A word that is not literal where a
    setting stands counts when its literal start could begin such a setting. With `fed`
    (the line may give its standard input), `launch`, `init`, `create`, `profile create`,
    `network create` and `storage … create` read their configuration from it, as `config
    edit` (review HU5, HW3)."""
    # every place the verb may be: old lxc's `-d` is `--debug` (review HU3)
    places = cobra_verbs(words, INSTANCE_SWITCHES, unknown, INSTANCE_EITHER)
    if places is None:
        places = [i for i, w in enumerate(words) if w in _INSTANCE_VERBS]
    for at in places:
        found = _instance_setting_at(words, at, unknown)
        if found is not None:
            return found
        verb = words[at] if at < len(words) else None
        if fed and (verb in ("launch", "init", "create") or (
            verb in ("profile", "network", "storage") and "create" in words[at + 1 :]
        )):
            return f"{verb} … < stdin"
    return None


def _instance_paths(
    words: Sequence[str | None], at: int, unknown: Collection[int], depth: int
) -> list[list[str | None]]:
    """Every reading of the subcommand words (up to `depth`) after the verb at `at`, past
    their options, any option read both as a switch and as taking a value; a word that
    is not literal ends a reading with None (it may be any subcommand)."""
    readings: list[list[str | None]] = []
    todo: list[tuple[int, list[str | None]]] = [(at + 1, [])]
    while todo:
        start, path = todo.pop()
        if len(path) >= depth:
            readings.append(path)
            continue
        shifted = {i - start for i in unknown if i >= start}
        places = cobra_verbs(words[start:], INSTANCE_SWITCHES, shifted, True)
        if places is None:
            readings.append([*path, None])
            continue
        for place in places:
            index = start + place
            if index >= len(words):
                readings.append(path)
            else:
                todo.append((index + 1, [*path, words[index]]))
    return readings


def _instance_setting_at(
    words: Sequence[str | None], at: int, unknown: Collection[int]
) -> str | None:
    """`instance_setting` for the verb at `at`."""
    if at >= len(words):
        return None
    verb = words[at]
    # cobra parses every word but the verb with the verb's options (`argsMinusFirstX`):
    # an option written before the verb is the verb's as one after it (`lxc -c
    # security.privileged=true launch img c`, `lxc -d eth0,nictype=physical launch …`:
    # review HZ1)
    rest = [(i, w) for i, w in enumerate(words) if i != at]
    operands = [w for _, w in rest]
    # (an alias may hide `exec`; trust, remotes, imported backups and the server's own
    # `core.*` settings hand out this machine: review HU5, HU6), matched at the places of
    # the subcommands (`config trust list` reads: review HW6)
    readings = _instance_paths(words, at, unknown, 2)
    for first, *after in _INSTANCE_LOCKED:
        if verb != first:
            continue
        for reading in readings:
            if _instance_match(reading, after):
                if (first, *after) == ("admin", "init") and "--dump" in operands and all(
                    w in ("init", "--dump") for w in _past_globals(words[:at]) + operands[at:]
                ):
                    # (`admin init --dump` prints the configuration; any other word may
                    # undo it: pflag keeps a switch's last value, `--dump --dump=false
                    # --auto` sets the server up: review HX2)
                    continue
                if first == "file" and not any(
                    w is None or w.startswith("--listen") for w in operands
                ):
                    continue  # (`file mount c/p here` mounts the instance's files here)
                return " ".join([first, *after])
    if verb in _INSTANCE_GRANTING:
        for reading in _instance_paths(words, at, unknown, 3):
            if not any(w in _INSTANCE_READING for w in reading):
                return f"{verb} {' '.join(w or '…' for w in reading)}".strip()
        return None
    if verb in _INSTANCE_SETTERS:
        if any(w == "edit" for _, w in rest):
            return f"{verb} edit"
        for reading in _instance_paths(words, at, unknown, 3):
            for place, word in enumerate(reading[:-1]):
                if word in ("device", None) and reading[place + 1] in (
                    "add", "set", "override", None
                ):
                    found = _device_setting(rest)
                    if found is not None:
                        return found
            if any(w == "override" for w in reading):
                found = _device_setting(rest)
                if found is not None:
                    return found
        if not any(w in ("set", "device", "override", "create") for _, w in rest):
            return None
        candidates = rest
    elif verb in _INSTANCE_CREATE:
        candidates = []
        for place, (index, word) in enumerate(rest):
            if word is None:
                continue
            if word.startswith("--config="):
                candidates.append((index, word.removeprefix("--config=")))
            elif word == "--config" and place + 1 < len(rest):
                candidates.append(rest[place + 1])
            elif word.startswith("-") and not word.startswith("--"):
                # clustered short options: `-ec KEY=V`, `-ecKEY=V` (review HU4)
                _, c, value = word[1:].partition("c")
                if c and value:
                    candidates.append((index, value))
                elif c and place + 1 < len(rest):
                    candidates.append(rest[place + 1])
        found = _device_override(rest, unknown)
        if found is not None:
            return found
    else:
        return None
    for index, word in candidates:
        lowered = (word or "").lower().lstrip("=")
        if lowered.startswith(_INSTANCE_DANGER):
            return word
        if index in unknown and any(d.startswith(lowered) for d in _INSTANCE_DANGER):
            return word or "…"
    return None


# the keys of a `-d DEVICE,KEY=VALUE` override (`launch`, `init`, `create`, `copy`, `move`)
# that give the instance nothing of this machine whatever the device is (a root disk's
# `size`, its `pool`, a NIC's addresses, limits, its name in the instance, a `network=` the
# admin made and manages); any other key (`source=`, `path=`, `nictype=`, `parent=`,
# `type=`, `readonly=`, `connect=`, `listen=`, `bind=`, `vlan=` (a VLAN of the host's
# uplink), `security.*` …) may (review CF1, HZ4)
_DEVICE_OVERRIDE_SAFE: Final = ("size=", "size.state=", "pool=", "limits.", "boot.priority=",
                                "hwaddr=", "mtu=", "ipv4.address=", "ipv6.address=",
                                "network=", "name=")  # fmt: skip
# the short options of `launch`/`init`/`create`/`copy`/`move` that take a value (pflag:
# the rest of a cluster after one is its value, `-pdefault` is the profile `default`)
_INSTANCE_CREATE_VALUED: Final = frozenset("cpstnd")


def _device_override(
    rest: Sequence[tuple[int, str | None]], unknown: Collection[int] = ()
) -> str | None:
    """The `-d DEVICE,KEY=VALUE` (`--device`) device override of an `lxc launch`, `init`,
    `copy`, `move` (`incus create` …) whose key may give the instance this machine (a
    profile's NIC overridden with `nictype=physical`, a disk with `source=/`), or None
    (review CF1). Each override sets one key of one device (`parseDeviceOverrides`); a
    word after `-d` without `,` and `=` is no override (old lxc's `-d` is `--debug`, and
    lxc refuses such an override); a word that is not literal (its literal start given,
    its index in `unknown`) counts unless its start already names a harmless key."""
    values: list[tuple[str | None, bool]] = []
    for place, (index, word) in enumerate(rest):
        after = rest[place + 1] if place + 1 < len(rest) else (-1, "")
        following = (after[1], after[0] in unknown)
        if word is None or index in unknown:
            # (a word that is not literal may be `-d`, the next word its value, or `-dX`)
            start = word or ""
            if start.startswith("--device") or (
                start.startswith("-") and not start.startswith("--") and "d" in start[1:]
            ):
                return f"{start}…"
            if not start or start == "-" or "--device".startswith(start):
                values.append(following)
            continue
        if word == "--device":
            values.append(following)
        elif word.startswith("--device="):
            values.append((word.removeprefix("--device="), False))
        elif word.startswith("-") and not word.startswith("--"):
            # (`-d X`, `-dX`, `-d=X`, `-ed X`; a valued option before `d` takes it)
            for at, letter in enumerate(word[1:], 1):
                if letter == "d":
                    value = word[at + 1 :].removeprefix("=")
                    values.append((value, False) if value else following)
                    break
                if letter in _INSTANCE_CREATE_VALUED:
                    break
    for override, open_ended in values:
        if override is None:
            return "-d …"
        _, comma, setting = override.partition(",")
        key, equals, _ = setting.partition("=")
        if not comma or not equals:
            if open_ended:
                return f"-d {override}…"  # (its key not known yet: `-d "eth0,$K=V"`)
            continue  # (`-d` as `--debug` before an operand, or a refused override)
        if not (key.lower() + "=").startswith(_DEVICE_OVERRIDE_SAFE):
            return f"-d {override}"
    return None


# lxc's global options that change nothing of what its verb does (`--project` takes a value)
_INSTANCE_PLAIN: Final = frozenset({"--debug", "--force-local", "--quiet", "-q", "--verbose",
                                    "-v"})  # fmt: skip


def _past_globals(words: Sequence[str | None]) -> list[str | None]:
    """The words before an `lxc` verb but its plain global options (`--project P`,
    `--quiet`): what else stands there is the verb's (review HZ1)."""
    kept: list[str | None] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word in _INSTANCE_PLAIN or (word or "").startswith("--project="):
            index += 1
        elif word == "--project" and index + 1 < len(words) and words[index + 1] is not None:
            index += 2
        else:
            kept.append(word)
            index += 1
    return kept


def _instance_match(reading: Sequence[str | None], words: Sequence[str]) -> bool:
    """Whether the subcommand words `reading` may be `words` (a word that is not literal,
    and every word after it, may be any)."""
    for place, word in enumerate(words):
        if place >= len(reading):
            return bool(reading) and reading[-1] is None
        if reading[place] is None:
            return True
        if reading[place] != word:
            return False
    return True


def _device_setting(rest: Sequence[tuple[int, str | None]]) -> str | None:
    """The word of a `config device add|set|override` (`profile device …`) that may give
    the instance this machine's hardware, network or folders, or None: only a proxy that
    forwards a port of this machine into the instance does not (review HW5)."""
    operands = [w for _, w in rest]
    if "add" in operands:
        after = operands[operands.index("add") + 1 :]
        # (`device add INSTANCE NAME proxy KEY=VALUE…`, every word literal, no option)
        if len(after) >= 3 and after[2] == "proxy" and all(
            w is not None and not w.startswith("-") for w in after
        ) and all(
            (w or "").lower().startswith(_PROXY_SAFE) for w in after[3:]
        ):
            return None
    return "device " + " ".join(w or "…" for w in operands if w in ("add", "set", "override"))
