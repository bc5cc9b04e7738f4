"""Deliberately broken toy evaluators: each invariant must be able to catch one of them.

Not an engine: these exist only to prove that the invariant checks can fail (and that
they pass for the trivially safe `always_ask`).
"""

from __future__ import annotations

import itertools
import shlex

from policylang.decision import Decision, Retention, SegmentDecision, Verdict

_DENIED = frozenset({"rm", "mv", "dd", "shred", "truncate", "chmod", "kill"})
_ALLOWED = frozenset({"ls", "cat", "echo", "bash", "sh", "env", "timeout", "nice", "xargs",
                      "sudo", "python3", "grep", "head", "tail", "true", "printf", "wc"})


def _decision(command: str, verdict: Verdict, *, read_only: bool,
              retention: Retention | None = None) -> Decision:
    if retention is None and verdict is Verdict.ALLOW:
        retention = Retention.REQUERY if read_only else Retention.DURABLE
    segment = SegmentDecision(text=command, verdict=verdict, read_only=read_only)
    return Decision(command=command, verdict=verdict, retention=retention,
                    concurrency_safe=False, segments=(segment,))


def always_ask(command: str) -> Decision:
    """Trivially safe: every line needs a human."""
    return _decision(command, Verdict.ASK, read_only=False)


def naive_evaluate(command: str) -> Decision:
    """Looks only at the first shlex word; a shlex error means ALLOW (fail open).

    So `rm x` is denied but `bash -c 'rm x'`, `ls && rm x`, `echo $(rm x)` are allowed.
    """
    try:
        words = shlex.split(command)
    except ValueError:
        return _decision(command, Verdict.ALLOW, read_only=True)
    name = words[0] if words else ""
    if name in _DENIED:
        return _decision(command, Verdict.DENY, read_only=False)
    if name in _ALLOWED:
        return _decision(command, Verdict.ALLOW, read_only=True)
    return _decision(command, Verdict.ASK, read_only=False)


def raising_evaluate(command: str) -> Decision:
    """Crashes on any `(`."""
    if "(" in command:
        raise RuntimeError("cannot handle parentheses")
    return always_ask(command)


_counter = itertools.count()


def flaky_evaluate(command: str) -> Decision:
    """Alternates between ASK and DENY from one call to the next."""
    verdict = Verdict.ASK if next(_counter) % 2 else Verdict.DENY
    return _decision(command, verdict, read_only=False)


def spelling_sensitive(command: str) -> Decision:
    """ALLOW unless the raw text contains `--`, `./` or a quote: spelling matters."""
    if "--" in command or "./" in command or "'" in command or '"' in command:
        return always_ask(command)
    return _decision(command, Verdict.ALLOW, read_only=True)


def requery_everything(command: str) -> Decision:
    """Says `requery` although it marks the segment as having effects."""
    return _decision(command, Verdict.ASK, read_only=False, retention=Retention.REQUERY)


def loosened_by_rules(rule: str) -> object:
    """A broken `with_rule`: any added rule turns the policy into allow-everything."""
    del rule
    return lambda command: _decision(command, Verdict.ALLOW, read_only=True)


def allowed_when_quoted(command: str) -> Decision:
    """ASK, but ALLOW as soon as the text holds a quote: a re-spelling opens a hole."""
    if "'" in command or '"' in command:
        return _decision(command, Verdict.ALLOW, read_only=True)
    return always_ask(command)
