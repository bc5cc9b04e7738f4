"""`policylang hook claude-code|gemini-cli`: answer an agent's pre-tool hook from a policy.

The hook reads one JSON payload on stdin and writes the agent's answer on stdout; see
docs/integrations.md for the settings snippets and for how each payload is answered.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import BinaryIO, TextIO

from policylang._posix import not_dumpable
from policylang.decision import Verdict
from policylang.integrations import claude_code, gemini_cli
from policylang.integrations._common import HookResult, PayloadError, policy_factory

EXIT_OK = 0
EXIT_BLOCKED = 2  # the agent blocks the call; the reason is on stderr

# Longest a policy check may take before the call is blocked: below Gemini CLI's default
# hook timeout (60 s), after which it would let the call through.
DEFAULT_DEADLINE_S = 20.0

# A PreToolUse payload is a few kilobytes; anything this large is not one.
MAX_PAYLOAD_BYTES = 16 * 1024 * 1024

_EPILOG = """\
examples (write the absolute path `which policylang` prints: a hook that cannot
start exits 127, which the agents read as "go ahead"):
  in .claude/settings.json (Claude Code):
    {"hooks": {"PreToolUse": [{"matcher": "Bash",
      "hooks": [{"type": "command", "command": "/path/to/venv/bin/policylang hook claude-code"}]}]}}
  in .gemini/settings.json (Gemini CLI):
    {"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
      "hooks": [{"type": "command", "command": "/path/to/venv/bin/policylang hook gemini-cli"}]}]}}
  try it by hand:
    echo '{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"."}' \\
      | policylang hook claude-code --policy rulesets/default.policy

exit codes: 0 answered (the answer is on stdout, or nothing for other tools);
2 the call is blocked (reason on stderr): the payload was unreadable, or the check
crashed or gave no answer within --deadline seconds
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
        help=(
            "workspace root (default: $CLAUDE_PROJECT_DIR / $GEMINI_PROJECT_DIR, then the "
            "repository above the payload's cwd, else the strictest over cwd and its parents)"
        ),
    )
    parser.add_argument(
        "--ask-as",
        choices=("ask", "deny"),
        default="ask",
        help="answer ask as deny (gemini-cli: releases without `ask`, or headless runs; "
        "claude-code: modes that do not prompt, which the hook also denies by itself)",
    )
    parser.add_argument(
        "--deadline",
        type=_seconds,
        default=DEFAULT_DEADLINE_S,
        metavar="S",
        help=f"block the call if there is no answer S seconds after the start, reading the "
        f"payload included (default {DEFAULT_DEADLINE_S:g}); keep it below the agent's hook "
        "timeout",
    )
    parser.set_defaults(func=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    # the clock starts before the payload is read: a writer that never closes stdin must
    # not hold the hook past the agent's own timeout, which lets the call through (AM3)
    deadline = time.monotonic() + args.deadline
    # the agent's environment (its API keys) is this process's too: not readable through
    # `/proc/PID/environ` by the commands the agent runs meanwhile (review DU2)
    not_dumpable()
    try:
        text = _read_bounded(sys.stdin.fileno(), deadline)
    except PayloadError as error:
        result = HookResult(stderr=f"policylang: refused: {error}\n", exit_code=EXIT_BLOCKED)
    else:
        try:
            remaining = max(deadline - time.monotonic(), 0.001)
            result = isolated(lambda: _guarded(args, text), deadline_s=remaining)
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
        _silenced(sys.stdout)
        _tell(f"policylang: refused: cannot write the answer: {error}\n")
        return EXIT_BLOCKED
    _tell(result.stderr)
    return result.exit_code


def _tell(message: str) -> None:
    """Write `message` to stderr; a stderr that cannot take it (a closed pipe) changes
    nothing of the exit status (review CQ1: a blocked call exited 141, which agents read
    as "go ahead")."""
    try:
        sys.stderr.buffer.write(message.encode("utf-8", "backslashreplace"))
        sys.stderr.flush()
    except Exception:
        _silenced(sys.stderr)


def _silenced(stream: TextIO) -> None:
    """Point `stream` at /dev/null, so that the interpreter's last flush cannot fail and
    change the exit status."""
    with contextlib.suppress(Exception):
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def _guarded(args: argparse.Namespace, text: str) -> HookResult:
    try:
        return _answer(args, text)
    except PayloadError as error:
        return HookResult(stderr=f"policylang: refused: {error}\n", exit_code=EXIT_BLOCKED)
    except Exception as error:  # INVARIANT: a crashing hook must block, not exit 1 (= proceed)
        message = f"policylang: refused: internal error: {error}\n"
        return HookResult(stderr=message, exit_code=EXIT_BLOCKED)


def isolated(compute: Callable[[], HookResult], *,
             deadline_s: float = DEFAULT_DEADLINE_S) -> HookResult:
    """`compute()` in a forked child, so that a crash in native code blocks the call.

    WHY: the agents read any exit status but 0 and 2 as "the hook failed, go ahead", and
    tree-sitter-bash's C scanner is not memory-safe: a segfault in this process would let
    the command run. The child sends its answer back through a pipe; a child that dies by
    a signal, exits without an answer, or has not answered after `deadline_s` (it is
    killed) is a blocked call: an agent lets a call through once its own hook timeout
    passes (review N2). Without `fork` (not POSIX), `compute` runs here.
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
    with os.fdopen(read_end, "rb", buffering=0) as answer:
        data = _read_until(answer, time.monotonic() + deadline_s)
    if data is None:
        _kill_and_reap(pid)
        message = (f"policylang: refused: the policy check gave no answer within "
                   f"{deadline_s:.3g} s (see `--deadline`)\n")
        return HookResult(stderr=message, exit_code=EXIT_BLOCKED)
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


def _read_until(stream: BinaryIO, deadline: float) -> bytes | None:
    """Everything `stream` gives until its end, or None if the deadline passes first."""
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([stream], [], [], remaining)
        if not ready:
            return None
        chunk = stream.read(1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _kill_and_reap(pid: int) -> None:
    """Kill the child; reap it if it dies soon (one stuck in the kernel may not)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    for _ in range(50):
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] != 0:
                return
        time.sleep(0.01)


def _answer(args: argparse.Namespace, text: str) -> HookResult:
    factory = policy_factory(tuple(args.policy))
    if args.agent == "claude-code":
        return claude_code.handle(text, factory, workspace=args.workspace,
                                  ask_as=Verdict(args.ask_as))
    return gemini_cli.handle(text, factory, workspace=args.workspace, ask_as=Verdict(args.ask_as))


def _read_bounded(descriptor: int, deadline: float) -> str:
    """The whole payload on `descriptor`, refused if it is too large or has not ended by
    `deadline` (a monotonic time)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        remaining = deadline - time.monotonic()
        ready = remaining > 0 and select.select([descriptor], [], [], remaining)[0]
        if not ready:
            raise PayloadError("the hook payload did not end before the deadline "
                               "(see `--deadline`)")
        chunk = os.read(descriptor, 1 << 16)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_PAYLOAD_BYTES:
            raise PayloadError(f"hook payload is larger than {MAX_PAYLOAD_BYTES} bytes")
        chunks.append(chunk)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PayloadError(f"hook payload is not UTF-8: {error}") from None
