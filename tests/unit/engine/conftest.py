from __future__ import annotations

from collections.abc import Callable
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
