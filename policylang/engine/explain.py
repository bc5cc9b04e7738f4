"""Engine output: a decision's trace with the source line of every rule; imports decision only.

`Decision.explain()` gives the trace; `explain_with_sources` adds, under each reason that
points at a policy file, the line of that file, so an approver sees the rule itself:

    segment 1: `sudo ls` -> deny (has effects)
        deny: wrapper `sudo`: runs with elevated privileges [privilege (common.policy:59:1)] …
          | deny sudo|doas|su|pkexec|run0 ** id privilege reason "runs with elevated privileges"
"""

from __future__ import annotations

import functools
import linecache

from policylang.decision import Decision, visible_line


@functools.lru_cache(maxsize=256)
def _source_line(location: str) -> str | None:
    path, _, rest = location.rpartition(":")  # strip the column
    path, _, line = path.rpartition(":")
    if not path or not line.isdigit() or not rest.isdigit():
        return None
    number = int(line)
    text = linecache.getline(path, number).rstrip("\n")
    # a rule continued with `\` is shown whole: its clauses and reason are on the next
    # lines (review AO13); bounded, as a file may end in a `\`
    parts = [text]
    while text.rstrip().endswith("\\") and len(parts) < 50:
        number += 1
        text = linecache.getline(path, number).rstrip("\n")
        parts.append(text)
    joined = " ".join(part.strip().removesuffix("\\").strip() for part in parts)
    return visible_line(joined) or None


def explain_with_sources(decision: Decision) -> str:
    """`decision.explain()` with each rule's source line quoted under its reason."""
    by_render: dict[str, str] = {}
    for reason in decision.reasons:
        if reason.location:
            line = _source_line(reason.location)
            if line is not None:
                by_render[reason.render()] = line
    out: list[str] = []
    for text in decision.explain().splitlines():
        out.append(text)
        source = by_render.get(text.strip())
        if source is not None:
            indent = len(text) - len(text.lstrip()) + 2
            out.append(" " * indent + "| " + source)
    return "\n".join(out)
