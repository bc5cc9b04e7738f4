"""What one approval lets through beyond the line it was offered for, over the tldr pages.

For every tldr page (../shared/corpora/tldr.tsv; a page's `common/` and `linux/` versions
count as one page) each example is evaluated with the default ruleset; each rule suggested
for an asking example is approved in memory, and every *other* example of the page that
this approval turns from ask or deny into allow is a widened pair: (approved rule, allowed
command, bare verdict of that command). Most pairs are intended (`docker compose down`
approved lets `docker compose down --rmi local` through); a pair where the innocent form
reads or lists and the widened one runs code, prints a secret, deletes outside the
workspace or sends data out is a finding (reviews FL and FV).

The evaluation runs in a fresh temporary HOME and workspace, with a PATH of one empty
folder and no system git configuration, so the result depends on the engine and the
rulesets only; paths in that folder are written as `$WS`, `$HOME` and `$TMP`.

Usage (from the repository root):

    .venv/bin/python scripts/approval_widening.py           # compare with the snapshot
    .venv/bin/python scripts/approval_widening.py --update  # rewrite it (after review)

The snapshot, tests/corpus/data/approval_widening.tsv, holds one sorted line per pair;
tests/corpus/test_approval_widening.py fails when the pairs differ from it. Exit status:
0 when they agree (or with `--update`), 1 when they differ, 2 when the corpus is absent.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # (run as a script from anywhere: the checkout's engine)
    sys.path.insert(0, str(ROOT))

from policylang.decision import Verdict  # noqa: E402
from policylang.engine.policy import Policy, load_policy  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "tldr.tsv"
SNAPSHOT = ROOT / "tests" / "corpus" / "data" / "approval_widening.tsv"
HEADER = ("approved", "allowed", "bare")
UPDATE = "scripts/approval_widening.py --update"

Pair = tuple[str, str, str]
"""(approved rule, allowed command, bare verdict of that command), placeholders in."""


@dataclass(frozen=True)
class Place:
    """Where the lines are judged: a workspace, its environment, and how to write its paths."""

    workspace: str
    env: Mapping[str, str]
    placeholders: tuple[tuple[str, str], ...]  # (path, placeholder), longest path first

    def neutral(self, text: str) -> str:
        """`text` with this machine's temporary paths replaced by their placeholders."""
        for path, placeholder in self.placeholders:
            text = text.replace(path, placeholder)
        return text


@contextmanager
def fresh_place() -> Iterator[Place]:
    """A temporary folder with an empty HOME, an empty workspace and an empty PATH folder.

    PATH names one empty folder outside the workspace: the engine reads the programs PATH
    finds (a script's interpreter), so the machine's /usr/bin would change the result.
    GIT_CONFIG_SYSTEM names a file that does not exist, for the same reason."""
    with tempfile.TemporaryDirectory(prefix="policylang-widening-") as top:
        names = {"$WS": "ws", "$HOME": "home", "$TMP": ""}
        paths = {key: os.path.join(top, name) if name else top for key, name in names.items()}
        for key in ("$WS", "$HOME"):
            os.mkdir(paths[key])
        os.mkdir(os.path.join(top, "bin"))
        env = {
            "HOME": paths["$HOME"],
            "PATH": os.path.join(top, "bin"),
            "GIT_CONFIG_SYSTEM": os.path.join(top, "gitconfig"),
        }
        spellings = {}
        for key, path in paths.items():
            spellings[path] = key
            spellings.setdefault(os.path.realpath(path), key)  # (macOS: /private/var/…)
        order = sorted(spellings.items(), key=lambda item: -len(item[0]))
        yield Place(workspace=paths["$WS"], env=env, placeholders=tuple(order))


def read_pages(corpus: Path) -> dict[str, list[str]]:
    """The commands of each tldr page, in file order, keyed by the page's name."""
    csv.field_size_limit(1 << 24)
    pages: dict[str, list[str]] = {}
    with open(corpus, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        for row in reader:
            name = row["page"].partition("/")[2] or row["page"]
            pages.setdefault(name, []).append(row["command"])
    return pages


def page_pairs(policy: Policy, place: Place, commands: Sequence[str]) -> set[Pair]:
    """The widened pairs of one page (see the module's docstring)."""

    def judge(command: str) -> tuple[Verdict, str | None]:
        decision = policy.evaluate(
            command, workspace=place.workspace, cwd=place.workspace, env=place.env
        )
        return decision.verdict, decision.suggested_rule

    bare = {command: judge(command) for command in commands}
    offered: dict[str, str] = {}  # suggested rule -> the first line it was offered for
    for command, (verdict, rule) in bare.items():
        if verdict is Verdict.ASK and rule is not None:
            offered.setdefault(rule, command)
    pairs: set[Pair] = set()
    for rule, innocent in offered.items():
        policy.approvals.add(rule, persist=False)
        try:
            for command, (verdict, _) in bare.items():
                if command == innocent or verdict is Verdict.ALLOW:
                    continue
                if judge(command)[0] is Verdict.ALLOW:
                    pairs.add((place.neutral(rule), place.neutral(command), verdict.value))
        finally:
            policy.approvals.remove(rule)
    return pairs


def compute(corpus: Path = CORPUS) -> list[Pair]:
    """Every widened pair over the tldr pages with the default ruleset, sorted."""
    pages = read_pages(corpus)
    policy = load_policy()
    pairs: set[Pair] = set()
    with fresh_place() as place:
        for commands in pages.values():
            pairs |= page_pairs(policy, place, commands)
    return sorted(pairs)


def _check_field(text: str) -> str:
    # (the corpus has no tab or newline in a command; a rule made of its words neither)
    if "\t" in text or "\n" in text:
        raise ValueError(f"a tab or newline cannot be written to the snapshot: {text!r}")
    return text


def format_pair(pair: Pair) -> str:
    return "\t".join(_check_field(field) for field in pair)


def write_snapshot(pairs: Sequence[Pair], path: Path = SNAPSHOT) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["\t".join(HEADER), *(format_pair(pair) for pair in pairs)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_snapshot(path: Path = SNAPSHOT) -> list[Pair]:
    """The recorded pairs; ValueError if a line is not three fields or the header is wrong."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or tuple(lines[0].split("\t")) != HEADER:
        raise ValueError(f"{path}: the first line is not the header {HEADER}")
    pairs: list[Pair] = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != 3:
            raise ValueError(f"{path}:{number}: {len(fields)} fields, not 3")
        pairs.append((fields[0], fields[1], fields[2]))
    return pairs


def differences(current: Sequence[Pair], recorded: Sequence[Pair]) -> tuple[list[Pair], list[Pair]]:
    """(pairs not in the snapshot, pairs of the snapshot no longer found), each sorted."""
    now, before = set(current), set(recorded)
    return sorted(now - before), sorted(before - now)


def describe(new: Sequence[Pair], removed: Sequence[Pair], limit: int | None = None) -> str:
    """A report of the differences, one pair a line (the first `limit` of each kind)."""
    parts: list[str] = []
    for title, pairs in (("new (an approval covers more)", new), ("removed", removed)):
        if not pairs:
            continue
        shown = pairs if limit is None else pairs[:limit]
        parts.append(f"{len(pairs)} {title}: approved / now allowed / bare verdict")
        parts.extend("  " + "  |  ".join(pair) for pair in shown)
        if len(shown) < len(pairs):
            parts.append(f"  … and {len(pairs) - len(shown)} more")
    return "\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--update", action="store_true", help="rewrite the snapshot")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="tldr.tsv to read")
    parser.add_argument("--snapshot", type=Path, default=SNAPSHOT, help="the snapshot file")
    options = parser.parse_args(argv)
    if not options.corpus.is_file():
        print(f"corpus not found: {options.corpus}", file=sys.stderr)
        return 2
    pairs = compute(options.corpus)
    if options.update:
        write_snapshot(pairs, options.snapshot)
        print(f"{len(pairs)} pairs written to {options.snapshot}")
        return 0
    recorded = read_snapshot(options.snapshot) if options.snapshot.is_file() else []
    new, removed = differences(pairs, recorded)
    if not new and not removed:
        print(f"{len(pairs)} pairs, as recorded in {options.snapshot}")
        return 0
    print(describe(new, removed))
    print(f"after reviewing them: {UPDATE}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
