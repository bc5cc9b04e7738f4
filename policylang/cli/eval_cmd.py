"""`policylang eval`: decide one command, or a stream of them (`--jsonl`).

Batch mode reads one JSON object per stdin line (`{"command": …, "cwd"?: …,
"workspace"?: …}`) and writes one JSON object per line, in input order. The policy is
loaded once and reused, so the per-line cost is one evaluation plus JSON; large blocks
of input are spread over worker processes (`--jobs`).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import select
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TextIO

from policylang.decision import visible_line
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
    if args.approvals is not None and not os.path.exists(args.approvals):
        # honouring a file that is not there honours nothing: most likely a typo (AR13)
        print(f"warning: approvals file {args.approvals} does not exist; no approval is "
              "honoured", file=sys.stderr)
    try:
        policy = load_policy(
            paths[0] if paths else None,
            extra=paths[1:],
            approvals=args.approvals,
            check=False,
            parse_cache=cache,
            decision_cache=cache,
        )
        failures = policy.check_expectations()
        if failures:
            # loaded anyway, to show verdicts; but the hook, `run` and `mcp` will refuse
            # it, which a team trying its layer here had not been told (review AR6)
            print(f"warning: {len(failures)} inline expectation(s) fail, so the hook, "
                  f"`run` and `mcp` will not load this policy:\n{failures[0].render()}",
                  file=sys.stderr)
        return policy
    except RulesetError as error:
        print(str(error), file=sys.stderr)
    except OSError as error:
        # an error without a file name (not UTF-8, too large) names the file it is about
        # in its message: the first layer's name in front of it named the wrong one
        # (review FK7)
        if error.filename:
            print(f"policylang: cannot read {error.filename}: {error.strerror or error}",
                  file=sys.stderr)
        else:
            print(f"policylang: cannot read the policy: {error}", file=sys.stderr)
    return None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="decide whether a command may run",
        description=(
            "Evaluate a command line against a policy and print the verdict, retention and "
            "reasons. With --jsonl, evaluate one JSON object per stdin line. Commands are "
            "judged in this process's environment (PATH, CDPATH, HOME, the locale, git's "
            "variables), as the hooks judge them."
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
    parser.add_argument(
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help=(
            "with --jsonl: worker processes for large blocks of input "
            "(default 0: one per CPU; 1: evaluate in this process only)"
        ),
    )
    parser.add_argument("command", nargs="?", metavar="COMMAND", help="the command line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jsonl and args.command is not None:
        print("policylang eval: give COMMAND or --jsonl, not both", file=sys.stderr)
        return 2
    if not args.jsonl and args.command is None:
        print("policylang eval: give a COMMAND, or --jsonl to read JSON lines from stdin",
              file=sys.stderr)
        return 2
    if args.cache < 0:
        print("policylang eval: --cache must be 0 (none) or more", file=sys.stderr)
        return 2
    policy = load_from_args(args)
    if policy is None:
        return EXIT_RULESET_ERROR
    if args.jsonl:
        if args.jobs < 0:
            print("error: --jobs must be 0 (one per CPU) or more", file=sys.stderr)
            return 2
        jobs = args.jobs or default_jobs()
        batch(policy, sys.stdin, sys.stdout, cwd=args.cwd, workspace=args.workspace, jobs=jobs)
        return EXIT_OK
    # the process's environment, as the hook's: PATH, CDPATH and git's variables change
    # decisions (review CG3: judged with none, `rg foo` was allowed where the workspace's
    # `bin/rg` comes first on PATH)
    decision = policy.evaluate(
        args.command, cwd=args.cwd, workspace=args.workspace, env=dict(os.environ)
    )
    if args.json:
        print(decision.to_json())
        return EXIT_OK
    retention = decision.retention or "unknown until run"
    print(f"{decision.verdict} (retention: {retention})")
    for reason in decision.reasons:
        print(f"  {reason.render()}")
    if decision.suggested_rule:
        print(f"suggested rule: {visible_line(decision.suggested_rule)}")
    return EXIT_OK


def batch(
    policy: Policy,
    stdin: TextIO,
    stdout: TextIO,
    *,
    cwd: str | None = None,
    workspace: str | None = None,
    jobs: int = 1,
) -> int:
    """Evaluate every JSON line of `stdin`; returns the number of lines evaluated.

    Input is taken a block at a time, as it arrives (`_blocks`), and each block is
    answered before the next read: a client that sends one line and waits gets its answer.
    Answers are written a slice of lines at a time (one write per line would cost more
    than many evaluations). With `jobs` > 1, a block of at least `_PARALLEL_MIN` lines is
    cut into slices spread over that many worker processes, forked after the policy is
    loaded so they share it; answers keep the input order.
    """
    state = _BatchState(policy, cwd, workspace)
    workers: _Workers | None = None
    count = 0
    try:
        for block in _blocks(stdin):
            if jobs > 1 and workers is None and len(block) >= _PARALLEL_MIN:
                workers = _Workers.start(state, jobs)
                jobs = jobs if workers is not None else 1
            if workers is not None and len(block) >= _PARALLEL_MIN:
                parts = workers.answer(block)
            else:
                parts = iter([state.answer_all(block)])
            for outputs in parts:
                # a decision's object starts with its command; a bad line's with `error`
                count += sum(1 for line in outputs if line.startswith('{"command"'))
                stdout.write("\n".join(outputs) + "\n")
            stdout.flush()
    finally:
        if workers is not None:
            workers.close()
    return count


class _BatchState:
    """What answering one input line needs: the policy and the contexts built so far."""

    def __init__(self, policy: Policy, cwd: str | None, workspace: str | None) -> None:
        self.policy = policy
        self.cwd = cwd
        self.workspace = workspace
        self.env = dict(os.environ)  # (see `run`: the process's, as the hook's)
        # the contexts built so far, by (cwd, workspace) as the input gave them; (None,
        # None) is the command line's
        self.contexts: dict[tuple[str | None, str | None], EvalContext] = {
            (None, None): EvalContext.build(cwd=cwd, workspace=workspace, env=self.env)
        }
        self.decode = json.JSONDecoder().decode
        self.encode = _ENCODER.encode

    def answer(self, raw: str) -> str:
        """The output line for one input line (an `error` object for a bad one)."""
        try:
            if not raw.strip():
                raise ValueError("a blank line")
            item = self.decode(raw)
            if not isinstance(item, dict):
                raise TypeError("a line must be a JSON object")
            command = item.get("command")
            if not isinstance(command, str):
                raise TypeError("no string `command`")
            key = (_folder(item, "cwd"), _folder(item, "workspace"))
        # RecursionError: JSON nested thousands deep (review AO11)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
            return self.encode({"error": f"bad input line: {error}", "line": raw})
        try:
            kept = self.contexts.get(key)
            if kept is None:
                kept = EvalContext.build(
                    cwd=key[0] or self.cwd, workspace=key[1] or self.workspace, env=self.env
                )
            # the folders' links as they are now, not as an earlier line found them: a
            # command run in between may have re-pointed one (review EL1)
            ctx = self.contexts[key] = kept.current()
        except (OSError, ValueError) as error:
            return self.encode({"error": f"bad input line: {error}", "line": raw})
        decision = self.policy.evaluate_in(command, ctx)
        answer = {
            "command": command,
            "verdict": decision.verdict.value,
            "retention": None if decision.retention is None else decision.retention.value,
            "concurrency_safe": decision.concurrency_safe,
            "reasons": [r.to_dict() for r in decision.reasons],
            "suggested_rule": decision.suggested_rule,
        }
        text = self.encode(answer)
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate (`"\ud800"` in the input)
                text = _ASCII_ENCODER.encode(answer)
        return text

    def answer_all(self, lines: list[str]) -> list[str]:
        return [self.answer(raw) for raw in lines]


def _folder(item: dict[str, object], name: str) -> str | None:
    """The `cwd` or `workspace` of an input object: absent, null or a path without NUL.
    Any other value had stopped the whole batch with a traceback (review AO11)."""
    value = item.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"`{name}` must be a string")
    if "\0" in value:
        raise ValueError(f"`{name}` holds a NUL byte")
    return value


def _blocks(stdin: TextIO) -> Iterator[list[str]]:
    """Input lines, in blocks of what one read returned.

    A blank line is passed on too, and answered with an error object: every input line
    gets exactly one output line, so a client may match answers by position (review BJ4).

    A real stream is read with `read1` (whatever is there) for as long as more input is
    already waiting, up to `_BLOCK_BYTES`: a batch arrives in large blocks, and an
    interactive client's single line is answered at once.
    A line that is not UTF-8 is passed on as text with replacement characters, where it
    fails JSON decoding or evaluates as written; it is never dropped.
    """
    buffer = getattr(stdin, "buffer", None)
    read1 = getattr(buffer, "read1", None)
    if read1 is None:  # an in-memory text stream
        lines = [line.rstrip("\n").rstrip("\r") for line in stdin]
        for start in range(0, len(lines), _BLOCK_LINES):
            yield lines[start : start + _BLOCK_LINES]
        return
    fd = _fileno(buffer)
    partial = b""
    ended = False
    while not ended:
        data = read1(1 << 16)
        if not data:
            break
        chunks = [partial, data]
        size = len(data)
        # take what is already waiting too (a batch), but never wait for more
        while fd is not None and size < _BLOCK_BYTES and _readable(fd):
            more = read1(1 << 16)
            if not more:
                ended = True
                break
            chunks.append(more)
            size += len(more)
        data = b"".join(chunks)
        cut = data.rfind(b"\n") + 1
        partial = data[cut:]
        block = [
            line.decode("utf-8", "replace").rstrip("\r")
            for line in data[:cut].split(b"\n")[:-1]
        ]
        if block:
            yield block
    if partial.strip():
        yield [partial.decode("utf-8", "replace").rstrip("\r")]


def _fileno(stream: object) -> int | None:
    try:
        fileno = getattr(stream, "fileno", None)
        return int(fileno()) if fileno is not None else None
    except (OSError, ValueError):
        return None


def _readable(fd: int) -> bool:
    """Whether `fd` has input waiting (or is at its end) right now."""
    try:
        ready, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return False
    return bool(ready)


# the worker processes' state, set before they are forked (see `_Workers.start`)
_WORKER: _BatchState | None = None


def _worker_answer(lines: list[str]) -> list[str]:
    assert _WORKER is not None  # INVARIANT: set in the parent before the fork
    return _WORKER.answer_all(lines)


class _Workers:
    """Forked worker processes answering slices of a block, in order."""

    def __init__(self, executor: ProcessPoolExecutor, state: _BatchState, jobs: int) -> None:
        self.executor: ProcessPoolExecutor | None = executor
        self.state = state
        self.jobs = jobs

    @classmethod
    def start(cls, state: _BatchState, jobs: int) -> _Workers | None:
        """Workers that inherit `state`, or None (with a warning) where none can start."""
        global _WORKER
        _WORKER = state
        try:
            # fork: the workers inherit the loaded policy instead of loading it again
            context = multiprocessing.get_context("fork")
            return cls(ProcessPoolExecutor(jobs, mp_context=context), state, jobs)
        except (ValueError, OSError) as error:
            print(f"warning: no batch workers ({error}); evaluating in-process", file=sys.stderr)
            return None

    def answer(self, block: list[str]) -> Iterator[list[str]]:
        """The answers to `block`, a slice at a time, in input order.

        A worker that dies (killed, out of memory) breaks the pool: its slices and all
        later ones are answered in this process instead, with a warning; none is lost.
        """
        size = max(16, min(_SLICE_LINES, -(-len(block) // (self.jobs * 2))))
        slices = [block[i : i + size] for i in range(0, len(block), size)]
        executor = self.executor
        futures = [executor.submit(_worker_answer, part) for part in slices] if executor else []
        for index, part in enumerate(slices):
            if index < len(futures):
                try:
                    yield futures[index].result()
                    continue
                except BrokenProcessPool as error:
                    print(
                        f"warning: a batch worker failed ({error}); evaluating in-process",
                        file=sys.stderr,
                    )
                    self.close()
                    futures = []
            yield self.state.answer_all(part)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


def default_jobs() -> int:
    """Worker processes for a batch: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


_BLOCK_LINES = 4096  # lines per block of an in-memory stream
_BLOCK_BYTES = 1 << 20  # most input taken at once from a stream
_PARALLEL_MIN = 128  # a smaller block is answered in-process: forking would cost more
_SLICE_LINES = 256  # most lines per slice a worker answers (and per write)
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_ASCII_ENCODER = json.JSONEncoder()  # escapes what UTF-8 cannot carry
