"""Suite-wide set-up: policy snapshots go to a folder of the test run's own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


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
