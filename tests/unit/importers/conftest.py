"""Helpers: import a fixture, load the emitted policy with the real engine, evaluate."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from policylang.decision import Verdict
from policylang.engine.policy import Policy, load_policy
from policylang.importers import ImportResult, import_text, render_policy

_SERIAL = itertools.count()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "import"


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def emitted_policy(result: ImportResult, directory: Path) -> Policy:
    """The emitted policy text, loaded (and its inline expectations checked) by the engine."""
    # A fresh name each time: a loader may cache by path.
    path = directory / f"{result.source_format}-{next(_SERIAL)}.policy"
    path.write_text(render_policy(result), encoding="utf-8")
    return load_policy(path)


class Ours:
    """Our verdict for a command under an emitted policy."""

    def __init__(self, fmt: str, text: str, directory: Path, filename: str = "rules") -> None:
        self.result = import_text(fmt, text, filename=filename)
        self.policy = emitted_policy(self.result, directory)
        self.directory = str(directory)

    def __call__(self, command: str) -> Verdict:
        decision = self.policy.evaluate(command, cwd=self.directory, workspace=self.directory)
        return decision.verdict


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path
