"""Review FL19: approvals of read forms covered deleting caches outside the workspace:
`pip cache dir` offered `pip cache`, which approved `pip cache purge` (and `uv cache dir`
→ `uv cache clean`, `yarn cache dir` → `yarn cache clean`, `pnpm store path` → `pnpm store
prune`); `go clean -n` (a dry run) offered `go clean`, which approved `go clean -modcache`
/ `-cache` / `-i`. A cache's verbs are now offered one by one, and go's cache deletions
are a locked ask."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from realrun import canary_environment, judge

from policylang import Verdict


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


def test_pip_cache_purge_deletes_the_cache(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    wheel = tmp_path / "cache" / "wheels" / "ab" / "x-1.0-py3-none-any.whl"
    wheel.parent.mkdir(parents=True)
    wheel.write_bytes(b"")
    approval = judge("pip cache dir", workspace).suggested_rule
    assert approval == "pip cache dir"
    assert judge("pip cache purge", workspace, approval).verdict is Verdict.ASK
    env = canary_environment(workspace, PIP_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "pip", "cache", "purge"], env=env,
                          cwd=workspace, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert "Files removed: 1" in done.stdout
    assert not wheel.exists()


@pytest.mark.parametrize(
    ("innocent", "lines"),
    [("pip cache dir", ["pip cache purge", "pip cache remove x"]),
     ("pip3 cache dir", ["pip3 cache purge"]),
     ("python3 -m pip cache dir", ["python3 -m pip cache purge"]),
     ("uv cache dir", ["uv cache clean", "uv cache prune"]),
     ("yarn cache dir", ["yarn cache clean"]),
     ("pnpm store path", ["pnpm store prune"]),
     ("go clean -n", ["go clean -modcache", "go clean -cache", "go clean -testcache",
                      "go clean -fuzzcache", "go clean -i", "go clean --modcache",
                      "go clean -modcache=true"]),
     ("dotnet nuget locals all --list", ["dotnet nuget locals all --clear"])],
)  # fmt: skip
def test_the_read_forms_approval_deletes_no_cache(
    tmp_path: Path, innocent: str, lines: list[str]
) -> None:
    workspace = _workspace(tmp_path)
    approval = judge(innocent, workspace).suggested_rule
    assert approval is not None
    assert judge(innocent, workspace, approval).verdict is Verdict.ALLOW
    for line in lines:
        assert judge(line, workspace, approval).verdict is Verdict.ASK, (approval, line)
