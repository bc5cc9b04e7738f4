from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from policylang.decision import Decision
from policylang.engine.policy import EXPECTATION_CONTEXT, Policy, load_policy


@pytest.fixture(scope="session")
def default_policy() -> Policy:
    return load_policy()


@pytest.fixture
def decide(default_policy: Policy) -> Callable[[str], Decision]:
    """Evaluate in the synthetic workspace the golden tables use."""

    def run(command: str) -> Decision:
        return default_policy.evaluate_in(command, EXPECTATION_CONTEXT, approvals=False)

    return run


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "src").mkdir()
    (root / "src" / "main.py").write_text("print(1)\n")
    return root


@pytest.fixture
def registry() -> Iterator[tuple[str, list[str]]]:
    """A registry on the loopback that records the Authorization header of each request
    (the npm-family reviews: a token sent where the repository chose)."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(str(self.headers.get("authorization")))
            self.send_response(404)
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
