"""`policylang mcp`: serve the policy-gated `bash` tool to an MCP client over stdio.

Needs the optional `mcp` extra (``pip install policylang[mcp]``). See docs/integrations.md.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from typing import Any

from policylang.cli.run_cmd import add_sandbox_options
from policylang.executor import not_dumpable, own_children, terminate_all

_EPILOG = """\
examples:
  policylang mcp --workspace .
  policylang mcp --policy team.policy --approvals ~/.config/policylang/approvals.toml
  in a client's MCP configuration (Claude Desktop, Cursor, …):
    {"mcpServers": {"shell": {"command": "policylang",
                              "args": ["mcp", "--workspace", "/path/to/project"]}}}

exit codes: 0 the client disconnected; 2 usage error, the policy did not load, or the
`mcp` package is missing (the message says which)
"""


EXIT_OK = 0
EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve the policy-gated bash tool over MCP (stdio)",
        description="Run an MCP stdio server exposing `bash`, `job_status`, `jobs` and "
        "`cleanup_jobs`; every command is evaluated by the policy, asks go to the user "
        "through MCP elicitation when the client supports it.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="P",
        help="policy file (repeat to add layers); default: the shipped default ruleset",
    )
    parser.add_argument(
        "--workspace", metavar="D", default=".", help="workspace root (default: current directory)"
    )
    parser.add_argument(
        "--approvals",
        metavar="FILE",
        default=os.environ.get("POLICYLANG_APPROVALS"),
        help="TOML file where 'always' approvals are saved (default: $POLICYLANG_APPROVALS)",
    )
    add_sandbox_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    try:
        import anyio

        from policylang.integrations.mcp_server import PolicyShellServer
    except ImportError as error:
        print(f"policylang mcp: the MCP SDK is not installed ({error})", file=sys.stderr)
        print("hint: pip install 'policylang[mcp]'", file=sys.stderr)
        return EXIT_USAGE
    from policylang import __version__
    from policylang.errors import PolicylangError
    from policylang.integrations._common import approvals_problem, policy_factory

    workspace = os.path.abspath(args.workspace)
    if not os.path.isdir(workspace):
        print(f"policylang mcp: workspace {workspace} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    unusable = approvals_problem(args.approvals, workspace)
    if unusable is not None:
        print(f"policylang mcp: {unusable}", file=sys.stderr)
        return EXIT_USAGE
    try:
        policy = policy_factory(tuple(args.policy), approvals=args.approvals)()
    except (PolicylangError, OSError) as error:
        print(f"policylang mcp: the policy did not load: {error}", file=sys.stderr)
        return EXIT_USAGE

    # a client stops a stdio server with SIGTERM (and a closed terminal sends SIGHUP):
    # without a handler Python dies at once, and the `with JobStore()` below never closed,
    # so background jobs and a running foreground command outlived the server under pid 1
    # (review AQ2)
    for stop in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, _exit_on_signal)
    not_dumpable()
    own_children()  # what a command leaves as this server's own child is its (review DU7)
    try:
        return _serve(args, policy, workspace, anyio, PolicyShellServer, __version__)
    finally:
        terminate_all()  # whatever is left, however the server ended


def _exit_on_signal(signum: int, _frame: object) -> None:
    # every command this server started (foreground calls and background jobs) is stopped,
    # then the process ends at once: an orderly shutdown would wait for the thread that
    # reads stdin, which the client may never close
    # a second signal must not interrupt the stopping itself (review AT8)
    with contextlib.suppress(ValueError, OSError):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP})
    terminate_all(final=True)  # and no command is started after it (review AS4)
    sys.stderr.flush()
    os._exit(128 + signum)


def _serve(
    args: argparse.Namespace, policy: Any, workspace: str, anyio: Any, server_class: Any,
    version: str,
) -> int:
    from policylang.executor import JobStore
    from policylang.integrations._common import policy_files, sandbox_backend
    from policylang.tool import Approver, BashTool

    with JobStore() as jobs:
        backend = sandbox_backend(args.sandbox, workspace, network=args.network,
                                  readonly=policy_files(policy, args.approvals),
                                  nested_folders=args.nested_folders)

        def make_tool(approver: Approver | None) -> BashTool:
            return BashTool(
                policy, workspace=workspace, approver=approver, job_store=jobs, backend=backend
            )

        server = server_class(make_tool, jobs, version=version)
        anyio.run(server.run_stdio)
    return EXIT_OK
