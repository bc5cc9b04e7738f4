"""`policylang run COMMAND`: evaluate a command line and run it only if the policy allows.

On ask it prompts on a terminal (once / session / always / deny) and refuses without one
unless `--yes`; on deny it refuses with the reasons. The command runs through the
policy-gated bash tool (docs/executor.md): `bash -c`, empty stdin, output captured and
then written to this process's stdout and stderr.

Exit codes: the command's own; 124 it timed out; 128+N a signal N ended it; 125 denied
(by the policy or by you); 126 it needed approval and none could be given (no terminal,
no `--yes`); 2 usage error or the policy did not load. Nothing runs in the 125/126/2 cases.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
from typing import TYPE_CHECKING, TextIO

from policylang.decision import Verdict

if TYPE_CHECKING:  # the tool (and the executor under it) loads only when a command runs
    from policylang.executor import ExecResult
    from policylang.tool import ApprovalAnswer, ApprovalRequest, ToolResult

EXIT_OUTPUT_CUT = 1  # the command succeeded, but its output was longer than the cap
EXIT_USAGE = 2
EXIT_TIMEOUT = 124
EXIT_DENIED = 125
EXIT_NO_APPROVAL = 126
DEFAULT_TIMEOUT_S = 600.0

_EPILOG = """\
examples:
  policylang run -- git status
  policylang run --policy team.policy "npm test && npm run lint"
  policylang run --yes --json -- make check          # approve an ask once, no prompt

exit codes: the command's own; 124 timed out; 128+N killed by signal N; 125 denied by the
policy or by you; 126 needed approval but there is no terminal (use --yes); 2 usage error
or the policy did not load; 1 when the command succeeded but its output was longer than
the cap (1 MB a stream: the cut is marked in the output); 130 interrupted (Ctrl-C)
"""

_CHOICES = {"o": "once", "s": "session", "a": "always", "d": "deny"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="evaluate a command and run it if the policy allows",
        description="Evaluate a command line against the policy; run it on allow, ask on "
        "a terminal on ask, refuse on deny.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", nargs="+", metavar="COMMAND",
                        help="the command line as one argument, or its words as several "
                        "(quoted as given)")
    parser.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="P",
        help="policy file (repeat to add layers); default: the shipped default ruleset",
    )
    parser.add_argument("--workspace", metavar="D", default=".", help="workspace root (default: .)")
    parser.add_argument("--cwd", metavar="D", help="working directory (default: the workspace)")
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"kill the command after S seconds (default and maximum {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument("--yes", action="store_true", help="approve an ask once without a prompt")
    parser.add_argument(
        "--approvals",
        metavar="FILE",
        default=os.environ.get("POLICYLANG_APPROVALS"),
        help="TOML file where 'always' approvals are saved (default: $POLICYLANG_APPROVALS)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON report on stdout")
    add_sandbox_options(parser)
    parser.set_defaults(func=run)


def add_sandbox_options(parser: argparse.ArgumentParser) -> None:
    """`--sandbox`, `--network` and `--nested-folders`, as `run` and `mcp` take them."""
    parser.add_argument(
        "--sandbox",
        choices=("none", "bubblewrap"),
        default="none",
        help="run commands inside bubblewrap: the file system read-only except the "
        "workspace and a private /tmp, no network unless --network (refused if unusable)",
    )
    parser.add_argument("--network", action="store_true", help="with --sandbox: allow network")
    parser.add_argument(
        "--nested-folders",
        metavar="N",
        type=nested_folders,
        default=0,
        help="with --sandbox: how many folders within three levels of the workspace the "
        "sandbox may search for nested repositories and agent configuration to keep "
        "read-only; a larger workspace is refused (default: 50,000)",
    )


def _timeout(text: str) -> float:
    """A timeout in seconds, more than 0 and at most the tool's maximum: a larger one had
    been cut to the maximum without a word (review AR13)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= DEFAULT_TIMEOUT_S:  # NaN fails this too
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most {DEFAULT_TIMEOUT_S:g} seconds, not {text}"
        )
    return value


def nested_folders(text: str) -> int:
    """`--nested-folders N`: a whole number of folders, at least 1 (review DV3: a workspace
    past the sandbox's 50,000 could not be run by `policylang run` or `mcp` at all)."""
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of folders: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


_SHELL_SYNTAX = frozenset({"|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "2>&1"})


def _reads_as_a_line(word: str) -> bool:
    """Whether a word among several looks meant as shell syntax: an operator, a glob, or
    a word with blanks."""
    return word in _SHELL_SYNTAX or any(char in word for char in " \t*?")


def run(args: argparse.Namespace) -> int:
    from policylang.errors import PolicylangError
    from policylang.executor import not_dumpable, own_children
    from policylang.integrations._common import (
        approvals_problem,
        policy_factory,
        policy_files,
        sandbox_backend,
    )
    from policylang.tool import ApprovalAnswer, BashTool

    # the command's environment is scrubbed, but this process's own was readable through
    # `/proc/$PPID/environ` (review DU2); and what a command leaves as this process's own
    # child is the command's (review DU7)
    not_dumpable()
    own_children()
    # one argument is a command line; several are the words of one command, kept as
    # they are (`run -- rm "my file"` had run `rm my file`: review AQ17)
    command = args.command[0] if len(args.command) == 1 else shlex.join(args.command)
    if len(args.command) > 1 and any(_reads_as_a_line(word) for word in args.command):
        # the old blank join ran such words as shell syntax: say what changed (AS5)
        print(
            "policylang run: several words are run as one command, each word quoted as "
            "given; to run a shell line (operators, globs), pass it as one argument",
            file=sys.stderr,
        )
    workspace = os.path.abspath(args.workspace)
    unusable = approvals_problem(args.approvals, workspace)
    if unusable is not None:
        print(f"policylang run: {unusable}", file=sys.stderr)
        return EXIT_USAGE
    try:
        policy = policy_factory(tuple(args.policy), approvals=args.approvals)()
    except (PolicylangError, OSError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        print(f"policylang run: the policy did not load: {first}", file=sys.stderr)
        print("hint: `policylang check FILE` shows every problem", file=sys.stderr)
        return EXIT_USAGE

    interactive = sys.stdin.isatty() and sys.stderr.isatty()

    def approver(request: ApprovalRequest) -> ApprovalAnswer:
        if args.yes:
            return ApprovalAnswer.ONCE
        return ApprovalAnswer(prompt(request, sys.stdin, sys.stderr))

    tool = BashTool(
        policy,
        workspace=workspace,
        approver=approver if (args.yes or interactive) else None,
        backend=sandbox_backend(args.sandbox, workspace, network=args.network,
                                readonly=policy_files(policy, args.approvals),
                                nested_folders=args.nested_folders),
    )
    arguments: dict[str, object] = {"command": command, "timeout_s": args.timeout}
    if args.cwd:
        arguments["workdir"] = os.path.abspath(args.cwd)
    try:
        result = tool.call(arguments)
    except KeyboardInterrupt:  # the command's group is already killed by the executor
        print("policylang run: interrupted; the command was stopped", file=sys.stderr)
        return 128 + signal.SIGINT
    code = _exit_code(result)
    if args.json:
        report = result.to_dict()
        if result.result is not None:
            report["stdout"] = result.result.stdout
            report["stderr"] = result.result.stderr
        else:
            report["message"] = result.model_text
        print(json.dumps(report, ensure_ascii=False))
        return code
    if result.result is None:
        print(f"policylang run: {result.display_text}", file=sys.stderr)
        if code == EXIT_NO_APPROVAL:
            print("hint: run it on a terminal to be asked, or pass --yes", file=sys.stderr)
        return code
    _write(result.result)
    if result.result.stdout_truncated or result.result.stderr_truncated:
        print("policylang run: output was longer than the cap and was cut (marked where)",
              file=sys.stderr)
        # a pipeline must not take cut output for the command's success (review AQ8)
        code = code or EXIT_OUTPUT_CUT
    if result.result.timed_out:
        print(f"policylang run: timed out after {args.timeout:g} s", file=sys.stderr)
    return code


def _exit_code(result: ToolResult) -> int:
    from policylang.tool import ToolStatus

    exec_result = result.result
    if exec_result is not None:
        if exec_result.timed_out:
            return EXIT_TIMEOUT
        if exec_result.signal is not None:
            return 128 + exec_result.signal
        return exec_result.exit_code if exec_result.exit_code is not None else 1
    if result.status is ToolStatus.DENIED:
        return EXIT_DENIED
    if result.status is ToolStatus.REFUSED and result.decision is not None:
        return EXIT_NO_APPROVAL if result.decision.verdict is Verdict.ASK else EXIT_DENIED
    return EXIT_USAGE


def _write(result: ExecResult) -> None:
    """The kept output in the order it arrived, with a marker where bytes were left out
    (they had been spliced head to tail, and stdout written before all of stderr: AQ8)."""
    sys.stdout.flush()
    sys.stderr.flush()
    streams = {1: (sys.stdout.buffer, result.stdout_bytes, result.stdout_gap_at,
                   result.stdout_omitted),
               2: (sys.stderr.buffer, result.stderr_bytes, result.stderr_gap_at,
                   result.stderr_omitted)}
    offsets = {1: 0, 2: 0}
    marked: set[int] = set()

    def mark(stream: int) -> None:
        out, _data, _gap, omitted = streams[stream]
        if omitted and stream not in marked:
            out.write(f"\n[policylang run: {omitted} bytes not kept here]\n".encode())
            marked.add(stream)

    for stream, length in result.interleaving:
        out, data, gap, _omitted = streams[stream]
        start = offsets[stream]
        end = start + length
        if start <= gap < end:
            out.write(data[start:gap])
            mark(stream)
            out.write(data[gap:end])
        else:
            out.write(data[start:end])
        offsets[stream] = end
    for stream, (out, data, _gap, _omitted) in streams.items():
        out.write(data[offsets[stream]:])  # anything the runs did not cover
        mark(stream)  # cut at the very end, where no run begins
        out.flush()


def prompt(request: ApprovalRequest, stdin: TextIO, stderr: TextIO) -> str:
    """Ask on the terminal; returns once, session, always or deny (deny on EOF/unknown)."""
    allowed = "od" if request.locked or not request.suggested_rule else "osad"
    choices = " / ".join(f"[{k}]{_CHOICES[k][1:]}" for k in allowed)
    stderr.write(request.render() + "\n")
    stderr.write(f"{choices}? ")
    stderr.flush()
    line = stdin.readline()
    key = line.strip().lower()[:1]
    return _CHOICES[key] if key in allowed and key else "deny"
