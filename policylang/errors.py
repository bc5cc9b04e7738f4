"""The exception tree of policylang; imports only `diagnostics`.

::

    PolicylangError
     ├── RulesetError (ValueError)      a ruleset failed to load: holds every diagnostic
     ├── ExecutionRefusedError (ValueError)
     │                                  the executor refused before spawning anything
     └── SandboxUnavailableError (ExecutionRefusedError)
                                        a sandbox was requested and cannot be set up here

Untrusted command text never raises out of `evaluate`: it yields a `Decision`.
Exceptions are for programmer errors and ruleset errors.
"""

from __future__ import annotations

from policylang.diagnostics import Diagnostic, Severity, render_all


class PolicylangError(Exception):
    """Base of every error policylang raises on purpose."""


class RulesetError(PolicylangError, ValueError):
    """A ruleset could not be loaded; `diagnostics` holds every problem found (non-empty)."""

    def __init__(self, diagnostics: tuple[Diagnostic, ...]) -> None:
        if not diagnostics:
            raise ValueError("RulesetError needs at least one diagnostic")
        self.diagnostics = diagnostics
        errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
        super().__init__(f"{errors} error(s) in ruleset\n{render_all(diagnostics)}")


class ExecutionRefusedError(PolicylangError, ValueError):
    """The executor refused to run a command; nothing was spawned."""


class SandboxUnavailableError(ExecutionRefusedError):
    """A sandbox was requested but cannot be set up on this host; the command never ran."""
