"""Suite-wide set-up: policy snapshots go to a folder of the test run's own; tests marked
`source` run in a process of the engine's source when this one runs the compiled engine."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from policylang import _native

ROOT = Path(__file__).resolve().parents[1]


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A `source` test (one that monkeypatches the engine's functions or reads their
    docstrings) runs against the source: compiled modules call each other directly, so a
    patch would not reach them. Under the compiled engine it runs, whole, in a child
    pytest with `POLICYLANG_PURE=1`; its failure is this test's failure."""
    if not _native.COMPILED or pyfuncitem.get_closest_marker("source") is None:
        return None
    env = {**os.environ, _native.ENV_PURE: "1"}
    # (the ini's `-q` reset, so that the child prints its count: a skip is no pass)
    options = ["-o", "addopts=--strict-markers --strict-config", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, pyfuncitem.nodeid],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0 or " 1 passed" not in done.stdout:
        output = done.stdout[-4000:] + done.stderr[-2000:]
        pytest.fail(f"did not pass in a process of the source:\n{output}")
    return True


@pytest.fixture(autouse=True, scope="session")
def _private_snapshot_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # snapshots live in the user's cache folder; a test run writes its own, which the
    # command-line tests' child processes inherit through the environment
    before = os.environ.get("POLICYLANG_CACHE_DIR")
    os.environ["POLICYLANG_CACHE_DIR"] = str(tmp_path_factory.mktemp("policylang-cache"))
    yield
    if before is None:
        os.environ.pop("POLICYLANG_CACHE_DIR", None)
    else:
        os.environ["POLICYLANG_CACHE_DIR"] = before
