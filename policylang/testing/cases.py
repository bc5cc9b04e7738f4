"""The generated examples the invariants check; frozen data, imports nothing from policylang.

Each type pairs command texts whose verdicts an invariant relates, e.g. a compound line
and the standalone commands it is made of. Generators in `policylang.testing.strategies`
build them; `policylang.testing.invariants` checks them; users can also build them by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Respelled:
    """Several spellings of the same argv (quoting or option spelling differs only).

    `values` is the argv every spelling means, when known exactly (quoting); for option
    re-spellings it is the canonical argv.
    """

    values: tuple[str, ...]
    spellings: tuple[str, ...]
    how: str = "quoting"


@dataclass(frozen=True, slots=True, kw_only=True)
class Compound:
    """A command line built from standalone `parts` by connectors or a compound construct."""

    text: str
    parts: tuple[str, ...]
    construct: str  # "&&", "|", "subshell", "if", "function", …


@dataclass(frozen=True, slots=True, kw_only=True)
class Wrapped:
    """`inner` run through a wrapper (`env`, `timeout 5`, `bash -c '…'`, …) as `text`.

    `opaque` marks forms an analyser cannot be expected to see through (a script piped
    or fed by heredoc to a shell, code an interpreter runs with system()): for those the
    wrapped line need only never be ALLOW when `inner` is not.
    """

    text: str
    inner: str
    wrapper: str
    opaque: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Substituted:
    """`inner` embedded as a substitution (`$(…)`, `` `…` ``, `<(…)`, heredoc …) in `text`."""

    text: str
    inner: str
    position: str  # "argument", "command-name", "redirect-target", "heredoc-body", …


@dataclass(frozen=True, slots=True, kw_only=True)
class Broken:
    """A command line that is not valid bash: `how` names the damage done to `origin`."""

    text: str
    origin: str
    how: str
