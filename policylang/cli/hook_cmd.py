"""`policylang hook claude-code|gemini-cli`: answer an agent's pre-tool hook from a policy.

The hook reads one JSON payload on stdin and writes the agent's answer on stdout; see
docs/integrations.md for the settings snippets and for how each payload is answered.
"""

from __future__ import annotations

import argparse
import sys
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
        result = _answer(args, _read_bounded(sys.stdin.buffer))
    except PayloadError as error:
        result = HookResult(stderr=f"policylang: refused: {error}\n", exit_code=EXIT_BLOCKED)
    except Exception as error:  # INVARIANT: a crashing hook must block, not exit 1 (= proceed)
        message = f"policylang: refused: internal error: {error}\n"
        result = HookResult(stderr=message, exit_code=EXIT_BLOCKED)
    sys.stdout.write(result.stdout)
    sys.stdout.flush()
    sys.stderr.write(result.stderr)
    return result.exit_code


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
