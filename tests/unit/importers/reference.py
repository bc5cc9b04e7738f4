"""Plain reference evaluators of the peers' own semantics, written from their docs.

Each takes the peer's rules and ONE simple command (no operators) and returns the
peer's verdict. They are deliberately naive (string matching, as the peers do) so that
the importers' word patterns and precedence handling are checked against something
independent of them.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Sequence

from policylang.decision import Verdict

ALLOW, ASK, DENY = Verdict.ALLOW, Verdict.ASK, Verdict.DENY


def _glob_regex(glob: str) -> re.Pattern[str]:
    """A peer's command glob: `*` any characters, `?` one; a trailing ` *` is optional."""
    body = glob[:-2] if glob.endswith(" *") else glob
    out = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in body)
    if glob.endswith(" *"):
        out += "( .*)?"
    return re.compile(out, re.DOTALL)


def claude_code(rules: Sequence[tuple[Verdict, str]], command: str) -> Verdict:
    """Claude Code: deny, then ask, then allow; the first list with a match decides."""

    def matches(spec: str | None) -> bool:
        if spec is None or spec.strip() in ("", "*"):
            return True
        if spec.endswith(":*"):
            prefix = spec[:-2]
            return command == prefix or command.startswith(prefix + " ")
        if "*" in spec:
            return bool(_glob_regex(spec).fullmatch(command))
        return command == spec

    for verdict in (DENY, ASK, ALLOW):
        if any(v is verdict and matches(spec) for v, spec in rules):
            return verdict
    return ASK


def opencode(rules: Sequence[tuple[str, Verdict]], command: str) -> Verdict:
    """OpenCode: the last matching entry wins; no match asks (the imported default)."""
    verdict = ASK
    for glob, action in rules:
        if glob.strip() == "*" or _glob_regex(glob).fullmatch(command):
            verdict = action
    return verdict


def codex(rules: Sequence[tuple[Verdict, list[str | list[str]]]], command: str) -> Verdict:
    """Codex: an argv-prefix match per token; the strictest matching rule wins."""
    words = shlex.split(command)
    found = [
        verdict
        for verdict, pattern in rules
        if len(words) >= len(pattern)
        and all(
            w in (t if isinstance(t, list) else [t]) for w, t in zip(words, pattern, strict=False)
        )
    ]
    return max(found, key=lambda v: v.rank, default=ASK)


_GEMINI = {"allow": ALLOW, "deny": DENY, "ask_user": ASK}


def gemini(text: str, command: str, *, mode: str = "default", tie_loosest: bool = True) -> Verdict:
    """Gemini CLI in `mode`, interactive: the highest priority matching rule wins.

    Equal priorities with different decisions resolve to the loosest when `tie_loosest`
    (the worst case an importer must not be looser than).
    """
    best: list[tuple[float, Verdict]] = []
    for rule in tomllib.loads(text).get("rule", []):
        if "modes" in rule and mode not in rule["modes"]:
            continue
        if rule.get("interactive") is False:
            continue
        if not _gemini_matches(rule, command):
            continue
        best.append((float(rule.get("priority", 0)), _GEMINI[rule["decision"]]))
    if not best:
        return ASK
    top = max(p for p, _ in best)
    tied = [v for p, v in best if p == top]
    return min(tied, key=lambda v: v.rank) if tie_loosest else max(tied, key=lambda v: v.rank)


def _gemini_matches(rule: dict[str, object], command: str) -> bool:
    prefix = rule.get("commandPrefix")
    if prefix is not None:
        prefixes = prefix if isinstance(prefix, list) else [prefix]
        return any(re.match(re.escape(str(p)) + r"(?:\s|$)", command) for p in prefixes)
    regex = rule.get("commandRegex")
    if isinstance(regex, str):
        return re.match(regex, command) is not None
    tools = rule.get("toolName")
    names = tools if isinstance(tools, list) else [tools]
    return "run_shell_command" in names or "*" in names
