"""Executor stage: the scrubbed child environment; imports nothing from policylang.

A command gets only an allowlist of the parent's variables plus explicit additions.
Any name that looks like a secret is dropped, even when it was added on purpose,
unless the caller forces that exact name through.

>>> parent = {"PATH": "/usr/bin", "OPENAI_API_KEY": "sk-1", "EDITOR": "vi", "LC_ALL": "C"}
>>> sorted(scrub_env(parent, cwd="/srv"))
['GIT_OPTIONAL_LOCKS', 'LC_ALL', 'LESSHISTFILE', 'PATH', 'PWD']
>>> scrub_env(parent, cwd="/srv", extra={"GH_TOKEN": "x", "MODE": "ci"})["MODE"]
'ci'
>>> "GH_TOKEN" in scrub_env(parent, cwd="/srv", extra={"GH_TOKEN": "x"})
False
>>> scrub_env(parent, cwd="/srv", extra={"GH_TOKEN": "x"}, force=("GH_TOKEN",))["GH_TOKEN"]
'x'
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

_log = logging.getLogger(__name__)

#: Variables passed from the parent environment by default.
ALLOWED_NAMES: frozenset[str] = frozenset(
    {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TERM", "TZ", "TMPDIR", "SHELL"}
)
#: Prefixes passed from the parent environment by default (locale categories).
ALLOWED_PREFIXES: tuple[str, ...] = ("LC_",)
#: Substrings (matched case-insensitively) that mark a name as a secret.
SECRET_MARKERS: tuple[str, ...] = (
    "KEY", "TOKEN", "SECRET", "PASS", "CREDENTIAL", "AUTH", "DSN", "DATABASE_URL",
    # review AT10: MYSQL_PWD, CI_JOB_JWT, AZURE_STORAGE_CONNECTION_STRING (not PRIVATE:
    # GOPRIVATE names module paths, and go needs it: review AU9)
    "_PWD", "JWT", "CONNECTION_STRING",
    # .NET's configuration names (`ConnectionStrings__Default`: review DT4)
    "CONNECTIONSTRINGS",
)  # fmt: skip
#: Set for every command unless the caller overrides them. `git status` otherwise takes
#: `.git/index.lock` and refreshes the index: a write that contradicts its read-only
#: label (the dynamic oracle found it) and makes two "concurrency-safe" git reads race.
#: `LESSHISTFILE=-`: on a terminal, `less` (and git's pager) writes `~/.lesshst` on exit
#: (review BL3, seen when the audit ran allowed lines with a terminal).
SAFE_DEFAULTS: Mapping[str, str] = {"GIT_OPTIONAL_LOCKS": "0", "LESSHISTFILE": "-"}


def looks_secret(name: str) -> bool:
    """Whether a variable name matches one of the secret patterns (`*KEY*`, `*TOKEN*`, ...)."""
    upper = name.upper()
    return any(marker in upper for marker in SECRET_MARKERS)


def scrub_env(
    parent: Mapping[str, str],
    *,
    cwd: str,
    extra: Mapping[str, str] | None = None,
    force: Iterable[str] = (),
) -> dict[str, str]:
    """Build the environment a command runs with.

    Args:
        parent: the environment to take allowlisted variables from (usually `os.environ`).
        cwd: the working directory; `PWD` is set to it (an inherited `PWD` would lie).
        extra: variables to add or override; secret-looking names are still dropped.
        force: exact names that pass even though they look secret (from `parent` or `extra`).

    Returns:
        A new dict; the inputs are not modified.
    """
    forced = frozenset(force)
    # Look the fixed names up and scan only for prefixes: os.environ decodes on every
    # access, and this runs once per command.
    env = {k: parent[k] for k in ALLOWED_NAMES if k in parent and not looks_secret(k)}
    env.update({k: parent[k] for k in parent
                if k.startswith(ALLOWED_PREFIXES) and (k in forced or not looks_secret(k))})
    env.update({k: parent[k] for k in forced if k in parent})
    env.update(SAFE_DEFAULTS)
    for name, value in (extra or {}).items():
        if looks_secret(name) and name not in forced:
            _log.info("dropping secret-looking variable %s from the command environment", name)
            continue
        env[name] = value
    env["PWD"] = cwd
    return env
