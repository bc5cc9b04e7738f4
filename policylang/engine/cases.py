"""External case tables: `command<TAB>verdict[<TAB>retention[<TAB>note]]`; imports decision
and the rules front end's bounded file reader.

One case per line; `#` starts a comment line; a header line starting with `command` is
skipped. The command is taken literally except that `⏎` stands for a newline (a TSV
field cannot hold one). Retention is `requery`, `durable`, `none` (unknown before
running) or `*`/empty (not checked).

```text
# command	verdict	retention	note
git status	allow	requery
cat ~/.ssh/id_rsa	deny	*	secrets
```
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from policylang.decision import Decision, Retention, Verdict
from policylang.rules.files import read_policy_file

NEWLINE_MARK = "⏎"
_ANY = ("", "*")


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    command: str
    verdict: Verdict
    retention: Retention | None
    check_retention: bool
    note: str
    location: str  # "file:line"


class CaseTableError(ValueError):
    """A malformed case table line."""


def parse_cases(text: str, *, name: str = "<cases>") -> tuple[Case, ...]:
    """The cases of a table; every malformed line is reported at once (review AR13).

    Raises:
        CaseTableError: one line per malformed table line.
    """
    cases: list[Case] = []
    problems: list[str] = []
    # lines end at `\n` only (a `\r\n` ending is one): a bare `\r`, which `splitlines`
    # took for a line end, split one case in two (review AX7)
    for number, line in enumerate(text.split("\n"), 1):
        raw = line.removesuffix("\r")
        if not raw.strip() or raw.lstrip().startswith("#") or raw.startswith("command\t"):
            continue
        try:
            cases.append(_case(raw, f"{name}:{number}"))
        except CaseTableError as problem:
            problems.append(str(problem))
    if problems:
        raise CaseTableError("\n".join(problems))
    return tuple(cases)


def _case(raw: str, location: str) -> Case:
    fields = raw.split("\t")
    if len(fields) < 2:
        raise CaseTableError(f"{location}: expected `command<TAB>verdict`, got {raw!r}")
    try:
        verdict = Verdict(fields[1].strip())
    except ValueError:
        raise CaseTableError(f"{location}: unknown verdict {fields[1]!r}") from None
    retention_text = fields[2].strip() if len(fields) > 2 else ""
    retention: Retention | None = None
    check = retention_text not in _ANY
    if check and retention_text != "none":
        try:
            retention = Retention(retention_text)
        except ValueError:
            raise CaseTableError(f"{location}: unknown retention {retention_text!r}") from None
    return Case(
        command=fields[0].replace(NEWLINE_MARK, "\n"),
        verdict=verdict,
        retention=retention,
        check_retention=check,
        note=fields[3].strip() if len(fields) > 3 else "",
        location=location,
    )


def read_cases(path: str | Path) -> tuple[Case, ...]:
    """The cases of the table at `path`.

    Raises:
        OSError: the file cannot be read, is not a regular file, is too large or is not
            UTF-8 (a binary table had ended `policylang test` in a traceback: review AX7).
        CaseTableError: see `parse_cases`.
    """
    path = Path(path)
    return parse_cases(read_policy_file(path), name=str(path))


def failures(cases: Iterable[Case], evaluate: Callable[[str], Decision]) -> list[str]:
    """One readable line per case whose decision differs from the table."""
    out: list[str] = []
    for case in cases:
        decision = evaluate(case.command)
        bad = decision.verdict is not case.verdict
        if case.check_retention and decision.retention is not case.retention:
            bad = True
        if bad:
            want = (
                f"{case.verdict}/{case.retention or 'none'}"
                if case.check_retention
                else str(case.verdict)
            )
            got = f"{decision.verdict}/{decision.retention or 'none'}"
            why = "; ".join(r.message for r in decision.reasons[:3])
            out.append(f"{case.location}: `{case.command}`: expected {want}, got {got} ({why})")
    return out
