"""Shared helpers for the rules and compiler tests."""

from __future__ import annotations

from collections.abc import Sequence

from policylang.compiler.tree import CompiledPolicy, RuleMatch
from policylang.diagnostics import Diagnostic
from policylang.rules.load import check_ruleset, load_ruleset_text
from policylang.rules.parser import parse_ruleset
from policylang.shell.model import Word
from policylang.shell.parse import parse_command


def words(command: str) -> tuple[Word, ...]:
    """The words of the first segment of `command`."""
    return parse_command(command).segments[0].words


def compile_text(text: str) -> CompiledPolicy:
    return load_ruleset_text(text, filename="t.policy")


def lookup(policy: CompiledPolicy, command: str) -> RuleMatch | None:
    return policy.lookup(words(command))


def verdict_of(policy: CompiledPolicy, command: str) -> str:
    """`allow`/`ask`/`deny`, `readonly`, or `default` when no rule matched."""
    match = lookup(policy, command)
    if match is None:
        return "default"
    return "readonly" if match.readonly else str(match.verdict)


def diagnostics_of(text: str) -> tuple[Diagnostic, ...]:
    """Every diagnostic (syntax, validation) for a one-file policy text."""
    return check_ruleset(text=text, filename="t.policy").diagnostics


def syntax_of(text: str) -> tuple[Diagnostic, ...]:
    return parse_ruleset(text, filename="t.policy")[1]


def assert_diag(
    diagnostics: Sequence[Diagnostic],
    *,
    code: str,
    underlined: str,
    help: str | None = None,
) -> Diagnostic:
    """Find the diagnostic with this code and underlined text (and help, if given)."""
    for diagnostic in diagnostics:
        if diagnostic.code == code and diagnostic.underlined == underlined:
            if help is not None:
                assert diagnostic.help == help
            return diagnostic
    rendered = "\n".join(d.render() for d in diagnostics)
    raise AssertionError(f"no {code} underlining {underlined!r} in:\n{rendered}")
