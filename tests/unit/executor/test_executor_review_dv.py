"""Review DV: the sandbox's search of the workspace (walked once per command before the
spawn), other policylang installations in the workspace, and container daemons' sockets
outside `/run`.

Every test runs real processes in a real bubblewrap sandbox; where bubblewrap cannot
work on this host, the refusal (and that nothing ran) is asserted instead.
"""

from __future__ import annotations

import pathlib
import subprocess

import pytest

from policylang.errors import SandboxUnavailableError
from policylang.executor import BubblewrapBackend, ExecResult, JobStore, run
from policylang.executor import sandbox as sandbox_module

from .conftest import decision


@pytest.fixture
def workspace(tmp_path: pathlib.Path) -> pathlib.Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def _usable(ws: pathlib.Path) -> bool:
    return BubblewrapBackend(str(ws)).probe().ok


def _confined(command: str, ws: pathlib.Path, backend: BubblewrapBackend,
              marker: pathlib.Path) -> ExecResult | None:
    """`command` run in `backend`; where bubblewrap cannot work here, the refusal is
    asserted instead (nothing ran) and None returned."""
    if not backend.probe().ok:
        with pytest.raises(SandboxUnavailableError, match="never ran"):
            run(command, decision=decision(command), cwd=str(ws), sandbox=backend,
                timeout_s=20)
        assert not marker.exists()
        return None
    return run(command, decision=decision(command), cwd=str(ws), sandbox=backend, timeout_s=60)


# -- DV3: one walk of the workspace before the spawn ---------------------------------------


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    walks: list[str] = []
    walk = sandbox_module._nested_names

    def counting(workspace: str, *args: object, **kwargs: object) -> object:
        walks.append(workspace)
        return walk(workspace, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sandbox_module, "_nested_names", counting)
    return walks


def test_dv3_a_sandboxed_command_walks_the_workspace_once_before_and_once_after(
    workspace: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the sandbox's argv, its hooks folders and the state before the command each walked
    # the workspace (3.1 s for `true` at 48,000 folders); the walk made for the argv is
    # used for the state before the spawn, and one more is needed after the command
    subprocess.run(["git", "init", "-q", str(workspace / "vendor" / "lib")], check=True)
    backend = BubblewrapBackend(str(workspace))
    if not _usable(workspace):
        pytest.skip("bubblewrap does not work here")
    assert backend.probe().ok
    walks = _counted(monkeypatch)
    command = "mkdir -p sub && git init -q sub && echo ok > made.txt"
    res = run(command, decision=decision(command), cwd=str(workspace), sandbox=backend,
              timeout_s=60)
    assert res.exit_code == 0, res.stderr
    assert len(walks) == 2
    # and what the shared walk stands for still holds: the repository made by the command
    # is reported, the nested one was read-only
    assert "sub/.git" in res.protected_changed
    command = "echo x > vendor/lib/.git/hooks/post-checkout"
    walks.clear()
    res = run(command, decision=decision(command), cwd=str(workspace), sandbox=backend,
              timeout_s=60)
    assert res.exit_code != 0
    assert res.sandbox_write_denied
    assert not (workspace / "vendor" / "lib" / ".git" / "hooks" / "post-checkout").exists()
    assert len(walks) == 2


def test_dv3_a_background_job_walks_the_workspace_once_before_and_once_after(
    workspace: pathlib.Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = BubblewrapBackend(str(workspace))
    if not _usable(workspace):
        pytest.skip("bubblewrap does not work here")
    assert backend.probe().ok
    walks = _counted(monkeypatch)
    command = "mkdir -p pkg && echo '{}' > pkg/.mcp.json"
    with JobStore(drain_s=0.05) as store:
        job = store.start(command, decision=decision(command), cwd=str(workspace),
                          sandbox=backend)
        info = store.wait(job, timeout_s=60)
    assert info.exit_code == 0
    assert "pkg/.mcp.json" in info.protected_changed
    assert len(walks) == 2


def test_dv3_the_refusal_of_a_workspace_too_big_names_the_folder_and_the_way_out(
    workspace: pathlib.Path,
) -> None:
    for i in range(150):
        (workspace / "data" / f"d{i:03}").mkdir(parents=True)
    marker = workspace / "made.txt"
    backend = BubblewrapBackend(str(workspace), nested_folders=100)
    command = "echo ok > made.txt"
    # the probe (only `true`, its answer kept) does not refuse: a workspace too big to
    # search had raised out of `probe()`, a traceback in `policylang run`
    backend.probe()
    with pytest.raises(SandboxUnavailableError) as info:
        run(command, decision=decision(command), cwd=str(workspace), sandbox=backend,
            timeout_s=20)
    assert not marker.exists()
    message = str(info.value)
    if backend.probe().ok:
        assert "more than 100 folders" in message
        assert "`data` holds" in message
        assert "--nested-folders" in message
