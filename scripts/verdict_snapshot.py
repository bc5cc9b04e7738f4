"""Snapshot of the default ruleset's decisions, to prove an optimisation changes none.

Run from a checkout: `PYTHONPATH=. POLICYLANG_PURE=1 python scripts/verdict_snapshot.py
OUT.jsonl`, once on main and once on the branch, then `diff` the two files: they must be
identical. Every command of the corpora (tldr.tsv, nl2bash.tsv, codex_cases.tsv in
../shared/corpora, or --corpora) and of the golden tables (tests/golden/commands) is
evaluated in (a) a bare context (nothing exists) and (b) a temporary git workspace with a
.env and a .git/config and a temporary home. One JSON line per command and context: the
whole decision (verdict, retention, concurrency_safe, reasons, per-segment decisions,
suggested_rule, locked).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import policylang
from policylang.engine.cases import read_cases
from policylang.engine.context import EvalContext
from policylang.engine.policy import load_policy

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ("tldr.tsv", "nl2bash.tsv", "codex_cases.tsv")


def corpus_commands(corpora: Path) -> list[str]:
    """The `command` column of every corpus, then every golden table's commands."""
    commands: list[str] = []
    for name in CORPORA:
        lines = (corpora / name).read_text(encoding="utf-8").splitlines()
        index = lines[0].split("\t").index("command")
        commands.extend(line.split("\t")[index] for line in lines[1:] if line.count("\t") >= index)
    for table in sorted((ROOT / "tests" / "golden" / "commands").glob("*.tsv")):
        commands.extend(case.command for case in read_cases(table))
    return list(dict.fromkeys(commands))


def populated_workspace(base: Path) -> tuple[Path, Path]:
    """A git workspace with a .env and a .git/config, and a home, under `base`."""
    workspace = base / "workspace"
    home = base / "home"
    workspace.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(workspace)], check=False)
    (workspace / ".git").mkdir(exist_ok=True)
    (workspace / ".git" / "config").write_text("[core]\n\tbare = false\n", encoding="utf-8")
    (workspace / ".env").write_text("TOKEN=x\n", encoding="utf-8")
    (workspace / "src").mkdir()
    return workspace, home


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    args = parser.parse_args()
    commands = corpus_commands(args.corpora)
    # the checkout's own path (rule locations) is written as a placeholder, so that two
    # checkouts compare equal
    checkout = str(Path(policylang.__file__).resolve().parent.parent)
    policy = load_policy(parse_cache=0, decision_cache=0)
    with tempfile.TemporaryDirectory(prefix="pf-snapshot-") as tmp:
        workspace, home = populated_workspace(Path(tmp))
        contexts = {
            "bare": EvalContext.build(
                workspace="/nonexistent/workspace", env={"HOME": "/nonexistent/home"}
            ),
            "repo": EvalContext.build(workspace=workspace, env={"HOME": str(home)}),
        }
        with args.out.open("w", encoding="utf-8") as out:
            for name, context in contexts.items():
                for command in commands:
                    decision = policy.evaluate_in(command, context)
                    # (the temporary directory's name differs per run: a placeholder too)
                    line = decision.to_dict() | {"context": name, "locked": decision.locked}
                    text = json.dumps(line, ensure_ascii=False, sort_keys=True)
                    out.write(text.replace(tmp, "<tmp>").replace(checkout, "<checkout>") + "\n")
    print(f"{len(commands)} commands x {len(contexts)} contexts -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
