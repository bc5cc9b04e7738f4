"""`policylang hook claude-code|gemini-cli`: answer an agent's pre-tool hook from a policy.

The hook reads one JSON payload on stdin and writes the agent's answer on stdout; see
docs/integrations.md for the settings snippets and for how each payload is answered.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import BinaryIO

from policylang.decision import Verdict
from policylang.integrations import claude_code, gemini_cli
from policylang.integrations._common import HookResult, PayloadError, policy_factory

EXIT_OK = 0
EXIT_BLOCKED = 2  # the agent blocks the call; the reason is on stderr

# A PreToolUse payload is a few kilobytes; anything this large is not one.
MAX_PAYLOAD_BYTES = 16 * 1024 * 1024

_EPILOG = """\
examples:
  in .claude/settings.json (Claude Code):
    {"hooks": {"PreToolUse": [{"matcher": "Bash",
      "hooks": [{"type": "command", "command": "policylang hook claude-code"}]}]}}
  in .gemini/settings.json (Gemini CLI):
    {"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
      "hooks": [{"type": "command", "command": "policylang hook gemini-cli"}]}]}}
  try it by hand:
    echo '{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"."}' \\
      | policylang hook claude-code --policy rulesets/default.policy

exit codes: 0 answered (the answer is on stdout, or nothing for other tools);
2 the payload was unreadable and the call is blocked (reason on stderr)
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "hook",
        help="answer a Claude Code or Gemini CLI pre-tool hook",
        description="Read a pre-tool hook payload on stdin and answer it from a policy.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("agent", choices=("claude-code", "gemini-cli"), help="which agent calls")
    parser.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="P",
        help="policy file (repeat to add layers); default: the shipped default ruleset",
    )
    parser.add_argument(
        "--workspace",
        metavar="D",
        help="workspace root (default: $CLAUDE_PROJECT_DIR / $GEMINI_PROJECT_DIR, then cwd)",
    )
    parser.add_argument(
        "--ask-as",
        choices=("ask", "deny"),
        default="ask",
        help="gemini-cli only: answer ask as deny (for releases without `ask`, or headless runs)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = _read_bounded(sys.stdin.buffer)
    except PayloadError as error:
        result = HookResult(stderr=f"policylang: refused: {error}\n", exit_code=EXIT_BLOCKED)
    else:
        try:
            result = isolated(lambda: _guarded(args, text))
        except Exception as error:  # no process to fork, no pipe: blocked, never "go ahead"
            message = f"policylang: refused: internal error: {error}\n"
            result = HookResult(stderr=message, exit_code=EXIT_BLOCKED)
    return _deliver(result)


def _deliver(result: HookResult) -> int:
    """Write the answer; if even that fails, block (exit 2), never exit 1 (= "go ahead").

    The answer is ASCII (JSON escapes), but a reason may quote text with lone surrogates
    from the payload (`"\\ud800"`), which a strict UTF-8 stream refuses (review H1)."""
    try:
        sys.stdout.buffer.write(result.stdout.encode("utf-8", "backslashreplace"))
        sys.stdout.flush()
    except Exception as error:  # INVARIANT: a hook that cannot answer blocks the call
        message = f"policylang: refused: cannot write the answer: {error}\n"
        sys.stderr.buffer.write(message.encode("utf-8", "backslashreplace"))
        return EXIT_BLOCKED
    sys.stderr.buffer.write(result.stderr.encode("utf-8", "backslashreplace"))
    sys.stderr.flush()
    return result.exit_code


def _guarded(args: argparse.Namespace, text: str) -> HookResult:
    try:
        return _answer(args, text)
    except PayloadError as error:
        return HookResult(stderr=f"policylang: refused: {error}\n", exit_code=EXIT_BLOCKED)
    except Exception as error:  # INVARIANT: a crashing hook must block, not exit 1 (= proceed)
        message = f"policylang: refused: internal error: {error}\n"
        return HookResult(stderr=message, exit_code=EXIT_BLOCKED)


def isolated(compute: Callable[[], HookResult]) -> HookResult:
    """`compute()` in a forked child, so that a crash in native code blocks the call.

    WHY: the agents read any exit status but 0 and 2 as "the hook failed, go ahead", and
    tree-sitter-bash's C scanner is not memory-safe: a segfault in this process would let
    the command run. The child sends its answer back through a pipe; a child that dies by
    a signal, or exits without an answer, is a blocked call. Without `fork` (not POSIX),
    `compute` runs here.
    """
    if not hasattr(os, "fork"):
        return compute()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, hand the answer over, and leave at once
        try:
            os.close(read_end)
            result = compute()
            payload = json.dumps([result.stdout, result.stderr, result.exit_code])
            with os.fdopen(write_end, "wb") as out:
                out.write(payload.encode("utf-8", "surrogatepass"))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as answer:
        data = answer.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and data:
        try:
            stdout, stderr, code = json.loads(data.decode("utf-8", "surrogatepass"))
            return HookResult(stdout=str(stdout), stderr=str(stderr), exit_code=int(code))
        except (ValueError, TypeError):
            pass  # a torn answer: blocked below
    if os.WIFSIGNALED(status):
        how = f"killed by signal {signal.Signals(os.WTERMSIG(status)).name}"
    else:
        how = f"exit status {os.waitstatus_to_exitcode(status)} without an answer"
    message = f"policylang: refused: the policy check crashed ({how})\n"
    return HookResult(stderr=message, exit_code=EXIT_BLOCKED)


def _answer(args: argparse.Namespace, text: str) -> HookResult:
    factory = policy_factory(tuple(args.policy))
    if args.agent == "claude-code":
        return claude_code.handle(text, factory, workspace=args.workspace)
    return gemini_cli.handle(text, factory, workspace=args.workspace, ask_as=Verdict(args.ask_as))


def _read_bounded(stream: BinaryIO) -> str:
    data = stream.read(MAX_PAYLOAD_BYTES + 1)
    if len(data) > MAX_PAYLOAD_BYTES:
        raise PayloadError(f"hook payload is larger than {MAX_PAYLOAD_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PayloadError(f"hook payload is not UTF-8: {error}") from None
