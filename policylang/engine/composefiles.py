"""Engine helper: what an approved compose verb reads and may print (review GS1).

Every compose verb that loads the project (`logs`, `ps`, `images`, `top`, `pull`,
`stats`, `events`, `alpha viz` …, not only `config`) interpolates the compose files with
the project's `.env` and prints the values in its validation errors: `ports:
["${SECRET}"]` gives `invalid containerPort: CANARY`, and an `include:` entry's
`env_file: ["${HOME}/.aws/credentials"]` reaches a file outside the workspace. So where
the project's compose files may interpolate or read another file, the verb asks, with
no approval offered: any `$` (or a backslash, whose YAML escape `\\x24` is one), any
`env_file`, `label_file`, `include` or `extends` (its `file` key may be a YAML alias:
review GV3), a `provider` (compose runs the program its `type` names: GV4), a compose
file or `.env` that is no regular file or too large, a `.env` setting `COMPOSE_*`
beside the compose file or in the working folder (compose reads `COMPOSE_FILE` in both:
GV2), and options or variables that move the files compose reads (`-f`,
`--project-directory`, `--env-file`, `COMPOSE_FILE` …). Compose looks for its files in
the working folder and those above it: a search that leaves the workspace asks. The
scan is textual and cheap.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from policylang.engine.containers import ENGINES
from policylang.engine.gitconfig import read_regular

# the container tools whose `compose` verb is compose, and compose's own names
FRONTS: Final = frozenset({"docker", "podman", "nerdctl", "finch"})
STANDALONE: Final = frozenset({"docker-compose", "podman-compose"})
# the verbs that load no project: versions, help, the project listing
_QUIET: Final = frozenset({"version", "ls", "help"})
_HELP: Final = frozenset({"-h", "--help", "-v", "--version"})
# options before the verb that take the next word (`rules._COMPOSE_VALUED`'s list)
_VALUED: Final = frozenset(
    {"-p", "--project-name", "--profile", "--ansi", "--parallel", "--progress", "-c",
     "--context", "-H", "--host", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
     "-f", "--file", "--project-directory", "--env-file", "--podman-path", "--podman-args",
     "--in-pod", "--pod-args"}
)  # fmt: skip
# options that choose the files compose reads (and so what it prints)
_MOVERS: Final = ("-f", "--file", "--project-directory", "--env-file", "--workdir")
_MOVER_ENV: Final = ("COMPOSE_FILE", "COMPOSE_PROJECT_DIRECTORY", "COMPOSE_ENV_FILES")
# the files compose (v2, v1, podman-compose) looks for in a folder
_NAMES: Final = tuple(
    f"{stem}{extra}.{ext}"
    for stem in ("compose", "docker-compose", "podman-compose", "container-compose")
    for extra in ("", ".override")
    for ext in ("yaml", "yml")
)
# what makes a compose file interpolate or read another file, or run a program: any
# `extends` (its `file` key may be spelled with a YAML alias, `*k : b.yml`: review GV3)
# and any `provider` (whose `type` compose runs on `down`, `./evil.sh`: review GV4)
_READS: Final = re.compile(rb"[$\\]|env_file|label_file|\b(?:include|extends|provider)\b")
_MAX_BYTES: Final = 256 * 1024


def words_after(program: str, words: Sequence[str | None]) -> Sequence[str | None] | None:
    """The words after compose's name (`docker compose`, `docker-compose`), None for a
    line that is no compose."""
    if program in STANDALONE:
        return words
    if program in FRONTS and words and words[0] == "compose":
        return words[1:]
    return None


def front_options(program: str, words: Sequence[str | None]) -> str | None:
    """The first word of a container tool's line that begins with its own options
    (`docker --context x compose ps`, `docker -c x run --privileged img`, `--config D`,
    `-H`, `-l`), None where there is none (or the line is only `--version`/`--help`).
    The policy's rules (`compose config`, `run --privileged`, `run -e`) match only
    `docker run …` as written, and `--config` moves the plugin folder docker runs
    `compose`, `buildx` … from: such a line asks (reviews AW4, GV5)."""
    if program not in ENGINES or not words:  # (buildah's too: review HF5)
        return None
    first = words[0]
    if first is None:
        return "a word that is not literal"
    if not first.startswith("-") or (len(words) == 1 and first in _HELP):
        return None
    return first


# docker's words that load no CLI plugin (`docker --help`, `info` run each plugin of
# the configuration folder to list it: review GV5)
_NO_PLUGINS: Final = frozenset({("--version",), ("-v",), ("version",)})


def runs_plugins(program: str, words: Sequence[str | None]) -> bool:
    """Whether a docker line may run a CLI plugin of docker's configuration folder:
    its plugin verbs (`compose`, `buildx`), `build` (buildx's alias), and `--help`,
    `info` and hooks, which run every plugin found (review GV5)."""
    return program == "docker" and tuple(words) not in _NO_PLUGINS


def _verb_at(words: Sequence[str | None]) -> int:
    """Where compose's verb is among its words: the first word that is no option (or
    not literal), past the options before it and their values (`len(words)`: none)."""
    index = 0
    while index < len(words):
        word = words[index]
        if word is None or not word.startswith("-") or word == "-":
            return index
        index += 2 if word in _VALUED else 1
    return index


def _options_before(words: Sequence[str | None]) -> list[str]:
    """Compose's options before its verb (without their values)."""
    options: list[str] = []
    index, end = 0, _verb_at(words)
    while index < end:
        word = words[index]
        if word is not None:
            options.append(word)
        index += 2 if word in _VALUED else 1
    return options


def loads_project(words: Sequence[str | None]) -> str | None:
    """Why a compose line (its words after compose's name) may read and print the
    project's files: the verb (a word not literal counts), None for a line that loads
    none (`version`, `ls`, help)."""
    if any(word in _HELP for word in _options_before(words)):
        return None
    at = _verb_at(words)
    if at == len(words):
        return None  # (no verb: compose prints its usage)
    verb = words[at]
    return "a word that is not literal" if verb is None else _verb_loads(verb, words[at + 1 :])


def _verb_loads(verb: str, after: Sequence[str | None]) -> str | None:
    """The verb, None where it loads no project: `version`, `ls`, or a help request,
    which is `-h`/`--help` as the first word after the verb only. A later one may be
    an option's value (`ps --format -h`, `logs --tail -h`) or a service's name after
    `--` (`ps -- -h`), and compose loads the project then (review GV1)."""
    if verb in _QUIET or (after and after[0] in ("-h", "--help")):
        return None
    return verb


def mover(words: Sequence[str | None], env: Mapping[str, str]) -> str | None:
    """An option before the verb or a variable that chooses the files compose reads
    (`-f x.yml`, `--env-file`, `COMPOSE_FILE`): the engine does not follow them, so the
    line asks; so does a word before the verb that is not literal."""
    for word in _options_before(words):
        name = word.partition("=")[0]
        if name in _MOVERS or (name.startswith("-f") and not name.startswith("--")):
            return word
    at = _verb_at(words)
    if at < len(words):
        verb = words[at]
        if verb is None:
            return "a word that is not literal"
        if verb == "compose":
            # a doubled `compose` is read as the verb's place by some builds (review GS6)
            return verb
    return _moved(env)


def _moved(env: Mapping[str, str]) -> str | None:
    return next((name for name in _MOVER_ENV if env.get(name)), None)


def finding(
    starts: Sequence[str] | None, ancestors: Callable[[str], list[str]],
    inside: Callable[[str], bool],
) -> str | None:  # fmt: skip
    """What in the project compose would load (from each working folder `starts`, None:
    not known) may make it read or print a file's values: a compose file or `.env`
    (`_file_reads`), or a search for the compose file that leaves the workspace."""
    if starts is None:
        return "a working folder not known here"
    for start in starts:
        found = _project_finding(start, ancestors, inside)
        if found is not None:
            return found
    return None


def _project_finding(
    start: str, ancestors: Callable[[str], list[str]], inside: Callable[[str], bool]
) -> str | None:
    # compose reads `COMPOSE_*` from the `.env` of the working folder too, where the
    # compose file it finds lies above it: `sub/.env` `COMPOSE_FILE=../leak.yml` (GV2)
    dotenv = os.path.join(start, ".env")
    if inside(start) and os.path.lexists(dotenv) and _file_reads(dotenv, compose=False):
        return dotenv
    for folder in ancestors(start):
        if not inside(folder):
            return f"{folder} (compose looks for its file above the workspace)"
        present = [os.path.join(folder, n) for n in _NAMES]
        present = [path for path in present if os.path.lexists(path)]
        if present:
            for path in present:
                if _file_reads(path, compose=True):
                    return path
            dotenv = os.path.join(folder, ".env")
            if os.path.lexists(dotenv) and _file_reads(dotenv, compose=False):
                return dotenv
            return None
    return None


def _file_reads(path: str, *, compose: bool) -> bool:
    """Whether a compose file (or `.env`) may make compose read or print another file's
    values; a link, a file not regular, too large or not UTF-8 counts."""
    if os.path.islink(path):
        return True
    data = read_regular(path, _MAX_BYTES + 1)
    if data is None or len(data) > _MAX_BYTES or b"\0" in data:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    if not compose:
        return b"COMPOSE_" in data  # (`.env`'s `COMPOSE_FILE=other.yml` is honoured)
    return _READS.search(data) is not None
