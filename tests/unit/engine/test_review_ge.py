"""Review GE: the surfaces that run commands, and `eval --jsonl`, judge as `eval` does.

GE1: `policylang run` and the MCP server judged a command in the scrubbed environment it
runs with, which drops `GOOGLE_APPLICATION_CREDENTIALS`, `CLAUDE_CONFIG_DIR`,
`XDG_CONFIG_HOME` …: the credential files those name were read under an allow, while
`eval`, the API and the hooks deny them. The places now come from the process's own
environment, and the command's expansions still from the one it gets.
GE2: `eval --jsonl` kept a context's credential places as the first line found them: a
`KUBECONFIG` link re-pointed to `~/clusters/prod.yaml` left that file readable.
GE3: `eval --jsonl` checked the logical `PWD` (review EO2) once: a link re-pointed so that
`PWD` names the cwd left `cd ../.. && cat .aws/credentials` allowed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from realrun import run_printed

import policylang

ROOT = Path(policylang.__file__).resolve().parents[1]
TIMEOUT_S = 60


def _base_env(home: Path, tmp_path: Path) -> dict[str, str]:
    """A plain environment for the real programs: this checkout's code, a fake home."""
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}  # fmt: skip
    if "POLICYLANG_PURE" in os.environ:
        env["POLICYLANG_PURE"] = os.environ["POLICYLANG_PURE"]
    return env


def _bash(command: str, cwd: Path, env: dict[str, str]) -> str:
    return run_printed(command, cwd, env, timeout=TIMEOUT_S)


def _credentials(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A home whose credential files only the environment names, a workspace, and the
    user's environment naming them (as the agent's runtime has it)."""
    home, workspace = tmp_path / "home", tmp_path / "ws"
    files = {"keys/sa.json": "CANARY_GCP", "alt-claude/.credentials.json": "CANARY_CLAUDE",
             "xdgconf/gh/hosts.yml": "CANARY_GH", "keys/aws-creds": "CANARY_AWS"}  # fmt: skip
    for name, text in files.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text + "\n")
    workspace.mkdir()
    (workspace / "README").write_text("hello\n")
    env = _base_env(home, tmp_path)
    env.update(GOOGLE_APPLICATION_CREDENTIALS=str(home / "keys/sa.json"),
               CLAUDE_CONFIG_DIR=str(home / "alt-claude"),
               XDG_CONFIG_HOME=str(home / "xdgconf"),
               AWS_SHARED_CREDENTIALS_FILE=str(home / "keys/aws-creds"))  # fmt: skip
    return home, workspace, env


READS = {
    "cat ~/keys/sa.json": "CANARY_GCP",
    "cat ~/alt-claude/.credentials.json": "CANARY_CLAUDE",
    "cat ~/xdgconf/gh/hosts.yml": "CANARY_GH",
    "cat ~/keys/aws-creds": "CANARY_AWS",
}


class _Mcp:
    """`policylang mcp` spoken to in JSON-RPC lines over its stdin and stdout."""

    def __init__(self, workspace: Path, env: dict[str, str]) -> None:
        args = [sys.executable, "-m", "policylang.cli.main", "mcp", "--workspace", str(workspace)]
        self.process = subprocess.Popen(args, cwd=workspace, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)  # fmt: skip
        self.next_id = 0
        params = {"protocolVersion": "2025-06-18", "capabilities": {},
                  "clientInfo": {"name": "ge", "version": "1"}}  # fmt: skip
        assert "result" in self.request("initialize", params)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def bash(self, command: str) -> tuple[str, str]:
        """(verdict, text shown to the model) of a `bash` tool call."""
        params = {"name": "bash", "arguments": {"command": command}}
        result = self.request("tools/call", params)["result"]
        verdict = result["structuredContent"]["decision"]["verdict"]
        return str(verdict), str(result["content"][0]["text"])

    def close(self) -> None:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        self.process.stdout.close()
        self.process.wait(timeout=TIMEOUT_S)


def test_mcp_protects_the_credential_places_of_the_servers_environment(tmp_path: Path) -> None:
    _, workspace, env = _credentials(tmp_path)
    server = _Mcp(workspace, env)
    try:
        for command, canary in READS.items():
            assert canary in _bash(command, workspace, env)  # the file is there to read
            verdict, shown = server.bash(command)
            assert (verdict, canary in shown) == ("deny", False), command
        # an everyday line still runs, and the scrubbed variables stay out of the child
        verdict, shown = server.bash("cat README")
        assert (verdict, shown.endswith("hello")) == ("allow", True)
        verdict, shown = server.bash("echo x${XDG_CONFIG_HOME}x")
        assert (verdict, shown.endswith("xx")) == ("allow", True)
    finally:
        server.close()


def _run(workspace: Path, env: dict[str, str], command: str) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "policylang.cli.main", "run", "--workspace", str(workspace)]
    return subprocess.run([*args, command], cwd=workspace, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT_S, check=False)  # fmt: skip


def test_run_protects_the_credential_places_of_its_environment(tmp_path: Path) -> None:
    _, workspace, env = _credentials(tmp_path)
    for command, canary in READS.items():
        assert canary in _bash(command, workspace, env)
        done = _run(workspace, env, command)
        assert (done.returncode, canary in done.stdout + done.stderr) == (125, False), command
    done = _run(workspace, env, "cat README")
    assert (done.returncode, done.stdout) == (0, "hello\n")


class _Jsonl:
    """A long-running `policylang eval --jsonl`, one line at a time."""

    def __init__(self, workspace: Path, env: dict[str, str]) -> None:
        args = [sys.executable, "-m", "policylang.cli.main", "eval", "--jsonl", "--jobs", "1",
                "--workspace", str(workspace), "--cwd", str(workspace)]  # fmt: skip
        self.process = subprocess.Popen(args, cwd=workspace, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)  # fmt: skip

    def verdict(self, command: str) -> str:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(json.dumps({"command": command}) + "\n")
        self.process.stdin.flush()
        return str(json.loads(self.process.stdout.readline())["verdict"])

    def close(self) -> None:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        self.process.stdout.close()
        assert self.process.wait(timeout=TIMEOUT_S) == 0


def test_jsonl_resolves_the_environments_credential_links_for_each_line(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    (home / ".kube").mkdir(parents=True)
    (home / "clusters").mkdir()
    (home / "clusters" / "dev.yaml").write_text("token: CANARY_DEV\n")
    (home / "clusters" / "prod.yaml").write_text("token: CANARY_PROD\n")
    workspace.mkdir()
    current = home / ".kube" / "current"
    current.symlink_to("../clusters/dev.yaml")
    env = dict(_base_env(home, tmp_path), KUBECONFIG=str(current))
    batch = _Jsonl(workspace, env)
    try:
        assert batch.verdict("cat ~/clusters/prod.yaml") == "allow"  # not named yet
        assert batch.verdict("cat ~/clusters/dev.yaml") == "deny"
        # a context switcher re-points the link between two lines
        _bash("ln -sfn ../clusters/prod.yaml ~/.kube/current", workspace, env)
        assert "CANARY_PROD" in _bash("cat ~/clusters/prod.yaml", workspace, env)
        assert batch.verdict("cat ~/clusters/prod.yaml") == "deny"
    finally:
        batch.close()


def test_jsonl_checks_the_logical_pwd_for_each_line(tmp_path: Path) -> None:
    home, real = tmp_path / "home", tmp_path / "data" / "src"
    workspace = real / "repo"
    workspace.mkdir(parents=True)
    (tmp_path / "other" / "repo").mkdir(parents=True)
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("CANARY_AWS_HOME\n")
    (home / "src").symlink_to("../other")  # PWD names another folder than the cwd
    env = dict(_base_env(home, tmp_path), PWD=str(home / "src" / "repo"))
    command = "cd ../.. && cat .aws/credentials"
    batch = _Jsonl(workspace, env)
    try:
        assert batch.verdict(command) == "allow"  # `../..` of the real cwd: tmp_path
        (home / "src").unlink()
        (home / "src").symlink_to("../data/src")  # now PWD is the cwd by another path
        assert "CANARY_AWS_HOME" in _bash(command, workspace, env)  # bash starts at PWD
        assert batch.verdict(command) == "deny"
    finally:
        batch.close()


def test_places_below_a_resolved_folder_resolve_as_realpath_does(tmp_path: Path) -> None:
    from policylang.engine.context import _real_below  # (GE2: resolved for every line)

    (tmp_path / "t" / "gh").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "t" / "git").symlink_to("../other")
    (tmp_path / "t" / "stripe").symlink_to("/nonexistent/stripe")
    (tmp_path / "gh").symlink_to("t/gh")
    names = ("gh", "git/credentials", "../stored_tokens", "stripe", "gh/../git/x",
             "missing/../gh", "./gh/hosts.yml", "..")  # fmt: skip
    for base in (tmp_path / "t", tmp_path / "gh", tmp_path / "missing"):
        real = os.path.realpath(base)
        for name in names:
            assert _real_below(real, name) == os.path.realpath(f"{base}/{name}"), (base, name)
