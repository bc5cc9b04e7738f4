"""`policylang eval`: decide one command, or a stream of them (`--jsonl`).

Batch mode reads one JSON object per stdin line (`{"command": …, "cwd"?: …,
"workspace"?: …}`) and writes one JSON object per line. The policy is loaded once and
reused, so the per-line cost is one evaluation plus JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from policylang.engine.context import EvalContext
from policylang.engine.policy import Policy, load_policy
from policylang.errors import RulesetError

EXIT_OK = 0
EXIT_RULESET_ERROR = 1


def add_policy_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every evaluating subcommand shares (`eval`, `explain`)."""
    parser.add_argument(
        "--policy",
        action="append",
        metavar="FILE",
        default=[],
        help="policy file; repeat to add layers (default: the shipped default ruleset)",
    )
    parser.add_argument("--cwd", metavar="DIR", help="where the command would run")
    parser.add_argument("--workspace", metavar="DIR", help="the workspace root")
    parser.add_argument(
        "--approvals", metavar="FILE", help="a TOML file of learned approvals to honour"
    )


def load_from_args(args: argparse.Namespace) -> Policy | None:
    """The policy the arguments name, or None after printing the diagnostics."""
    paths: list[str] = list(args.policy)
    cache: int = getattr(args, "cache", 1024)
    try:
        return load_policy(
            paths[0] if paths else None,
            extra=paths[1:],
            approvals=args.approvals,
            check=False,
            parse_cache=cache,
            decision_cache=cache,
        )
    except RulesetError as error:
        print(str(error), file=sys.stderr)
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
    return None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="decide whether a command may run",
        description=(
            "Evaluate a command line against a policy and print the verdict, retention and "
            "reasons. With --jsonl, evaluate one JSON object per stdin line."
        ),
    )
    add_policy_arguments(parser)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print the decision as JSON")
    mode.add_argument(
        "--jsonl",
        action="store_true",
        help='batch mode: stdin lines {"command": …, "cwd"?: …, "workspace"?: …} → JSON lines',
    )
    parser.add_argument(
        "--cache",
        type=int,
        default=1024,
        metavar="N",
        help=(
            "keep the last N parses and file-system-independent decisions (0: none; default 1024)"
        ),
    )
    parser.add_argument("command", nargs="?", metavar="COMMAND", help="the command line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jsonl == (args.command is not None):
        print("error: give either COMMAND or --jsonl", file=sys.stderr)
        return 2
    policy = load_from_args(args)
    if policy is None:
        return EXIT_RULESET_ERROR
    if args.jsonl:
        batch(policy, sys.stdin, sys.stdout, cwd=args.cwd, workspace=args.workspace)
        return EXIT_OK
    decision = policy.evaluate(args.command, cwd=args.cwd, workspace=args.workspace)
    if args.json:
        print(decision.to_json())
        return EXIT_OK
    retention = decision.retention or "unknown until run"
    print(f"{decision.verdict} (retention: {retention})")
    for reason in decision.reasons:
        print(f"  {reason.render()}")
    if decision.suggested_rule:
        print(f"suggested rule: {decision.suggested_rule}")
    return EXIT_OK


def batch(
    policy: Policy,
    stdin: TextIO,
    stdout: TextIO,
    *,
    cwd: str | None = None,
    workspace: str | None = None,
) -> int:
    """Evaluate every JSON line of `stdin`; returns the number of lines evaluated.

    Output goes out in chunks of `_CHUNK` lines (and at the end): one write per line costs
    more than many evaluations.
    """
    default = EvalContext.build(cwd=cwd, workspace=workspace)
    contexts: dict[tuple[str | None, str | None], EvalContext] = {}
    decode = json.JSONDecoder().decode
    encode = _ENCODER.encode
    pending: list[str] = []
    count = 0
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            item = decode(raw)
            command = item["command"]
            if not isinstance(command, str):
                raise TypeError("`command` must be a string")
            key = (item.get("cwd"), item.get("workspace"))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            pending.append(encode({"error": f"bad input line: {error}", "line": raw.rstrip("\n")}))
            continue
        ctx = default
        if key != (None, None):
            ctx = contexts.get(key) or contexts.setdefault(
                key, EvalContext.build(cwd=key[0] or cwd, workspace=key[1] or workspace)
            )
        decision = policy.evaluate_in(command, ctx)
        pending.append(
            encode(
                {
                    "command": command,
                    "verdict": decision.verdict.value,
                    "retention": None if decision.retention is None else decision.retention.value,
                    "concurrency_safe": decision.concurrency_safe,
                    "reasons": [r.to_dict() for r in decision.reasons],
                    "suggested_rule": decision.suggested_rule,
                }
            )
        )
        count += 1
        if len(pending) >= _CHUNK:
            stdout.write("\n".join(pending) + "\n")
            pending.clear()
    if pending:
        stdout.write("\n".join(pending) + "\n")
    stdout.flush()
    return count


_CHUNK = 256
_ENCODER = json.JSONEncoder(ensure_ascii=False)
