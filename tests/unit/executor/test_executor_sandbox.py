"""Backends: the bubblewrap sandbox confines writes and the network, or the run is refused.

Whether bubblewrap works depends on the host (user namespaces, seccomp, privileges).
Each test that needs a working sandbox asks the backend's own probe: where it works,
the confinement is asserted; where it does not, the refusal (and that the command
never ran) is asserted instead. Both branches check something real.
"""

from __future__ import annotations

import os
import pathlib
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator

import pytest

from policylang.errors import ExecutionRefusedError, SandboxUnavailableError
from policylang.executor import (
    BubblewrapBackend,
    ExecResult,
    JobStore,
    PlainBackend,
    render_for_model,
    run,
)
from policylang.executor.render import SANDBOX_MARKER
from policylang.tool import JobTools

from .conftest import decision, live_group_members, tagged


@pytest.fixture
def workspace(tmp_path: pathlib.Path) -> pathlib.Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest.fixture
def outside() -> Iterator[pathlib.Path]:
    """A host directory outside /tmp (which the sandbox replaces) and outside the workspace."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="policylang-sbx-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _sandboxed(command: str, ws: pathlib.Path, **backend_kwargs: object) -> ExecResult:
    backend = BubblewrapBackend(str(ws), **backend_kwargs)  # type: ignore[arg-type]
    return run(command, decision=decision(command), cwd=str(ws), sandbox=backend, timeout_s=20)


def _refused_and_not_run(command: str, ws: pathlib.Path, marker: pathlib.Path,
                         **backend_kwargs: object) -> None:
    with pytest.raises(SandboxUnavailableError, match="never ran") as info:
        _sandboxed(command, ws, **backend_kwargs)
    assert isinstance(info.value, ExecutionRefusedError)
    assert not marker.exists()


def _confined(command: str, ws: pathlib.Path, backend: BubblewrapBackend,
              marker: pathlib.Path) -> ExecResult | None:
    """`command` run in `backend`; where bubblewrap cannot work on this host, the refusal
    is asserted instead (nothing ran) and None returned."""
    if not backend.probe().ok:
        _refused_and_not_run(command, ws, marker)
        return None
    return run(command, decision=decision(command), cwd=str(ws), sandbox=backend, timeout_s=20)


def _ran_to_the_end(command: str, ws: pathlib.Path) -> ExecResult | None:
    """`command` (which ends by writing `ok` to `made.txt`) run in the default sandbox of
    `ws`, checked to have run to its end; None where bubblewrap cannot work here."""
    res = _confined(command, ws, BubblewrapBackend(str(ws)), ws / "made.txt")
    if res is not None:
        assert (ws / "made.txt").read_text() == "ok\n"
    return res


def test_write_outside_the_workspace_is_denied_and_marked(workspace: pathlib.Path,
                                                          outside: pathlib.Path) -> None:
    target, inside = outside / "escaped", workspace / "made"
    command = (f"echo x > {shlex.quote(str(target))}; echo y > {shlex.quote(str(inside))}; "
               "echo done")
    if not BubblewrapBackend(str(workspace)).probe().ok:
        _refused_and_not_run(command, workspace, inside)
        return
    res = _sandboxed(command, workspace)
    assert not target.exists()
    assert inside.read_text() == "y\n"
    assert res.sandboxed
    assert res.backend == "bubblewrap"
    assert res.sandbox_write_denied
    assert SANDBOX_MARKER in render_for_model(res).text
    assert res.stdout == "done\n"


def test_tmp_is_private_and_network_is_off(workspace: pathlib.Path) -> None:
    name = f"policylang-private-{os.getpid()}"
    command = f"echo z > /tmp/{name} && cat /tmp/{name}; cat /proc/net/dev | tail -n +3"
    if not BubblewrapBackend(str(workspace)).probe().ok:
        _refused_and_not_run(command, workspace, pathlib.Path("/tmp") / name)
        return
    res = _sandboxed(command, workspace)
    lines = res.stdout.splitlines()
    assert lines[0] == "z"
    assert not (pathlib.Path("/tmp") / name).exists()
    interfaces = [line.split(":")[0].strip() for line in lines[1:]]
    assert interfaces == ["lo"]
    assert not res.sandbox_write_denied  # nothing was denied: no marker


def test_network_can_be_allowed(workspace: pathlib.Path) -> None:
    command = "cat /proc/net/dev | tail -n +3 | wc -l"
    backend = BubblewrapBackend(str(workspace), network=True)
    if not backend.probe().ok:
        _refused_and_not_run(command, workspace, workspace / "never", network=True)
        return
    res = _sandboxed(command, workspace, network=True)
    host = pathlib.Path("/proc/net/dev").read_text().splitlines()[2:]
    assert int(res.stdout) == len(host)


def test_missing_bubblewrap_refuses_and_the_command_never_runs(workspace: pathlib.Path) -> None:
    marker = workspace / "ran"
    command = f"touch {shlex.quote(str(marker))}"
    backend = BubblewrapBackend(str(workspace), bwrap="/nonexistent/bwrap")
    assert not backend.probe().ok
    assert "not found" in backend.probe().detail
    _refused_and_not_run(command, workspace, marker, bwrap="/nonexistent/bwrap")


def test_broken_bubblewrap_refuses_and_the_command_never_runs(workspace: pathlib.Path) -> None:
    # a "bwrap" that exists but fails, as bubblewrap does without user namespaces
    fake = workspace.parent / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    marker = workspace / "ran"
    backend = BubblewrapBackend(str(workspace), bwrap=str(fake))
    availability = backend.probe()
    assert not availability.ok
    assert "No permissions to create new namespace" in availability.detail
    _refused_and_not_run(f"touch {shlex.quote(str(marker))}", workspace, marker,
                         bwrap=str(fake))


def test_workspace_must_exist_for_the_sandbox(tmp_path: pathlib.Path) -> None:
    backend = BubblewrapBackend(str(tmp_path / "missing"))
    assert not backend.probe().ok
    assert "not a directory" in backend.probe().detail


def test_probe_is_cached(workspace: pathlib.Path) -> None:
    backend = BubblewrapBackend(str(workspace))
    assert backend.probe() is backend.probe()


def test_plain_backend_without_a_shell_refuses(tmp_path: pathlib.Path) -> None:
    marker = tmp_path / "ran"
    command = f"touch {shlex.quote(str(marker))}"
    backend = PlainBackend(shell="/nonexistent/bash")
    with pytest.raises(ExecutionRefusedError, match="no usable execution backend") as info:
        run(command, decision=decision(command), cwd=str(tmp_path), sandbox=backend)
    assert not isinstance(info.value, SandboxUnavailableError)
    assert not marker.exists()


def test_marker_is_not_claimed_without_a_sandbox(tmp_path: pathlib.Path) -> None:
    res = run("echo 'Read-only file system' >&2", decision=decision(
        "echo 'Read-only file system' >&2"), cwd=str(tmp_path))
    assert not res.sandboxed
    assert not res.sandbox_write_denied
    assert SANDBOX_MARKER not in render_for_model(res).text


def test_sandboxed_processes_die_at_the_timeout(workspace: pathlib.Path) -> None:
    marker = workspace / "ran"
    command = (f"touch {shlex.quote(str(marker))}; trap '' TERM; "
               "(trap '' TERM; sleep 60) & sleep 60")
    if not BubblewrapBackend(str(workspace)).probe().ok:
        _refused_and_not_run(command, workspace, marker)
        return
    backend = BubblewrapBackend(str(workspace))
    res = run(command, decision=decision(command), cwd=str(workspace), sandbox=backend,
              timeout_s=0.5, grace_s=0.2)
    assert res.timed_out
    assert marker.exists()
    assert live_group_members(res.pid) == []


@pytest.mark.parametrize("timeout_s", [0.5, None], ids=["timeout", "normal-exit"])
def test_setsid_cannot_escape_the_sandbox(workspace: pathlib.Path,
                                          timeout_s: float | None) -> None:
    # Unconfined, `setsid` leaves the process group and outlives killpg; inside the
    # sandbox the pid namespace ends with the command and takes it along.
    tag = f"policylang-setsid-{os.getpid()}-{timeout_s}"
    started = workspace / "started"
    command = (f"setsid bash -c 'touch {started}; exec -a {tag} sleep 60' & "
               f"sleep {0.2 if timeout_s is None else 30}")
    if not BubblewrapBackend(str(workspace)).probe().ok:
        _refused_and_not_run(command, workspace, started)
        return
    try:
        res = run(command, decision=decision(command), cwd=str(workspace),
                  sandbox=BubblewrapBackend(str(workspace)), timeout_s=timeout_s, grace_s=0.2)
        assert res.timed_out is (timeout_s is not None)
        assert started.exists()  # the detached process did start
        assert _until(lambda: not tagged(tag), timeout_s=5)
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)


_HOST = """
import sys
from policylang.decision import Decision, Verdict
from policylang.executor import BubblewrapBackend, run
command = sys.argv[2]
decision = Decision(command=command, verdict=Verdict.ALLOW, retention=None,
                    concurrency_safe=False)
run(command, decision=decision, cwd=sys.argv[1], sandbox=BubblewrapBackend(sys.argv[1]))
"""


def _until(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_the_sandbox_dies_with_its_host(workspace: pathlib.Path) -> None:
    tag = f"policylang-orphan-{os.getpid()}"
    ready = workspace / "ready"
    command = f"touch {shlex.quote(str(ready))}; exec -a {tag} sleep 60"
    if not BubblewrapBackend(str(workspace)).probe().ok:
        _refused_and_not_run(command, workspace, ready)
        return
    host = subprocess.Popen([sys.executable, "-c", _HOST, str(workspace), command])
    try:
        assert _until(lambda: ready.exists() and bool(tagged(tag)))
        host.kill()
        host.wait()
        assert _until(lambda: not tagged(tag)), "sandboxed process outlived its host"
    finally:
        host.kill()
        host.wait()
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)


def test_sandboxed_root_cannot_remount_the_filesystem_writable(workspace: pathlib.Path,
                                                              outside: pathlib.Path) -> None:
    target = outside / "through-remount"
    command = (f"grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>/dev/null; "
               f"echo x > {shlex.quote(str(target))}")
    if not BubblewrapBackend(str(workspace)).probe().ok:
        _refused_and_not_run(command, workspace, target)
        return
    res = _sandboxed(command, workspace)
    assert res.stdout.split() == ["CapEff:", "0000000000000000"]
    assert not target.exists()
    assert res.sandbox_write_denied


def test_a_bwrap_planted_on_path_by_a_sandboxed_command_is_never_run(
    workspace: pathlib.Path, outside: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review J1: an activated `.venv/bin` in the workspace is on PATH; a sandboxed command
    # may write there, and must not choose the `bwrap` of later runs
    venv_bin = workspace / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    monkeypatch.setenv("PATH", f"{venv_bin}:{os.environ['PATH']}")
    escaped = outside / "escaped"
    plant = (f"printf '#!/bin/sh\\necho unconfined > {shlex.quote(str(escaped))}\\n"
             f"exec {shutil.which('bwrap') or '/usr/bin/bwrap'} \"$@\"\\n' > .venv/bin/bwrap; "
             "chmod +x .venv/bin/bwrap")
    backend = BubblewrapBackend(str(workspace))
    if not backend.probe().ok:
        _refused_and_not_run(plant, workspace, venv_bin / "bwrap")
        return
    run(plant, decision=decision(plant), cwd=str(workspace), sandbox=backend, timeout_s=20)
    assert (venv_bin / "bwrap").exists()  # the sandbox lets it write in the workspace
    res = run("echo hello", decision=decision("echo hello"), cwd=str(workspace),
              sandbox=backend, timeout_s=20)
    assert res.stdout == "hello\n"
    assert res.sandboxed
    assert not escaped.exists(), "the planted bwrap ran on the host"
    # a new backend resolving `bwrap` to the planted file refuses to use it at all
    fresh = BubblewrapBackend(str(workspace))
    availability = fresh.probe()
    assert not availability.ok
    assert "sandboxed commands may write" in availability.detail
    _refused_and_not_run("echo x", workspace, escaped)


def test_a_bwrap_others_can_replace_is_refused(workspace: pathlib.Path,
                                               outside: pathlib.Path) -> None:
    shared = outside / "shared-bin"
    shared.mkdir()
    shared.chmod(0o777)  # world-writable, no sticky bit: anyone may swap the file
    real = shutil.which("bwrap")
    fake = shared / "bwrap"
    fake.write_text(f"#!/bin/sh\nexec {real or '/nonexistent/bwrap'} \"$@\"\n")
    fake.chmod(0o755)
    backend = BubblewrapBackend(str(workspace), bwrap=str(fake))
    availability = backend.probe()
    assert not availability.ok
    assert "world-writable" in availability.detail
    marker = workspace / "ran"
    _refused_and_not_run(f"touch {shlex.quote(str(marker))}", workspace, marker,
                         bwrap=str(fake))


def test_protected_names_and_policy_files_stay_read_only(workspace: pathlib.Path) -> None:
    # review L2: a sandboxed `make test` rewrote the agent's settings, planted a git hook
    # and widened a policy layer kept in the workspace
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text("{}")
    layer = workspace / "team.policy"
    layer.write_text("allow ls **\n")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "CLAUDE.md").symlink_to(workspace / ".claude" / "settings.json")
    command = ("echo x > .git/hooks/pre-commit; echo x > .claude/settings.json; "
               "echo x >> team.policy; echo x > docs/CLAUDE.md; echo ok > made.txt")
    backend = BubblewrapBackend(str(workspace), readonly=[str(layer)])
    res = _confined(command, workspace, backend, workspace / "made.txt")
    if res is None:
        return
    assert (workspace / "made.txt").read_text() == "ok\n"  # the workspace stays writable
    assert not (workspace / ".git" / "hooks" / "pre-commit").exists()
    assert (workspace / ".claude" / "settings.json").read_text() == "{}"
    assert layer.read_text() == "allow ls **\n"
    assert res.sandbox_write_denied
    assert res.stderr.count("Read-only file system") == 4


def test_hooks_kept_in_the_work_tree_stay_read_only(workspace: pathlib.Path) -> None:
    # review AQ4: with `core.hooksPath = .husky` (husky), a sandboxed write to
    # `.husky/pre-commit` ran unsandboxed at the next `git commit`
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text("[core]\n\thooksPath = tools/hooks\n")
    (workspace / "tools" / "hooks").mkdir(parents=True)
    (workspace / ".husky").mkdir()
    (workspace / ".pre-commit-config.yaml").write_text("repos: []\n")
    command = ("echo x > tools/hooks/pre-commit; echo x > .husky/pre-commit; "
               "echo x >> .pre-commit-config.yaml; echo ok > made.txt")
    res = _confined(command, workspace, BubblewrapBackend(str(workspace)), workspace / "made.txt")
    if res is None:
        return
    assert (workspace / "made.txt").read_text() == "ok\n"
    assert not (workspace / "tools" / "hooks" / "pre-commit").exists()
    assert not (workspace / ".husky" / "pre-commit").exists()
    assert (workspace / ".pre-commit-config.yaml").read_text() == "repos: []\n"
    assert res.stderr.count("Read-only file system") == 3


@pytest.mark.parametrize("layout", ["missing", "section-line", "included"])
def test_the_hooks_folder_git_would_use_stays_read_only(
    workspace: pathlib.Path, layout: str
) -> None:
    # review AS7: a folder not yet made, a key on the section's line, a setting in an
    # included file (itself writable) had each let the sandbox plant a hook
    (workspace / ".git").mkdir()
    config = {
        "missing": "[core]\n\thooksPath = tools/hooks\n",
        "section-line": "[core] hooksPath = tools/hooks ; team hooks\n",
        "included": "[include]\n\tpath = ../gitconfig.inc\n",
    }[layout]
    (workspace / ".git" / "config").write_text(config)
    (workspace / "gitconfig.inc").write_text("[core]\n\thooksPath = tools/hooks\n")
    if layout != "missing":
        (workspace / "tools" / "hooks").mkdir(parents=True)
    command = ("mkdir -p tools/hooks; echo x > tools/hooks/pre-commit; "
               "echo '[core] hooksPath = other' >> gitconfig.inc; echo ok > made.txt")
    if _ran_to_the_end(command, workspace) is None:
        return
    assert not (workspace / "tools" / "hooks" / "pre-commit").exists()
    if layout == "included":
        assert "other" not in (workspace / "gitconfig.inc").read_text()


@pytest.mark.parametrize("layout", ["include-missing", "link-below", "file-in-the-way"])
def test_the_way_to_the_hooks_folder_stays_in_place(
    workspace: pathlib.Path, layout: str
) -> None:
    # review AT4: an include target that did not exist was created with a `hooksPath`;
    # AT5: a link on the way, or a file where a folder should be, was replaced
    (workspace / ".git").mkdir()
    if layout == "include-missing":
        (workspace / ".git" / "config").write_text("[include]\n\tpath = ../team.inc\n")
        attack = "echo '[core] hooksPath = planted' >> team.inc; mkdir -p planted"
        target = workspace / "planted"
    elif layout == "link-below":
        (workspace / "lib" / "real" / "hooks").mkdir(parents=True)
        (workspace / "lib" / "tools").symlink_to("real")
        (workspace / ".git" / "config").write_text("[core]\n\thooksPath = lib/tools/hooks\n")
        attack = "rm lib/tools; mkdir -p lib/tools/hooks"
        target = workspace / "lib" / "tools" / "hooks"
    else:
        (workspace / "tools").write_text("not a folder\n")
        (workspace / ".git" / "config").write_text("[core]\n\thooksPath = tools/hooks\n")
        attack = "rm -f tools; mkdir -p tools/hooks"
        target = workspace / "tools" / "hooks"
    command = f"{attack}; echo x > {target}/pre-commit; echo ok > made.txt"
    if _ran_to_the_end(command, workspace) is None:
        return
    if layout == "include-missing":
        # made empty and kept read-only: `planted` is then no hooks folder of git's
        assert (workspace / "team.inc").read_text() == ""
    else:
        assert not (target / "pre-commit").exists()


def test_a_workspace_inside_a_repository_keeps_its_hooks_folder(tmp_path: pathlib.Path) -> None:
    # review AT6: a monorepo's subfolder opened as the workspace
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text("[core]\n\thooksPath = pkg/githooks\n")
    workspace = repo / "pkg"
    workspace.mkdir()
    command = "mkdir -p githooks; echo x > githooks/pre-commit; echo ok > made.txt"
    if _ran_to_the_end(command, workspace) is None:
        return
    assert not (workspace / "githooks" / "pre-commit").exists()


def test_a_link_to_the_hooks_folder_in_the_workspace_root_is_watched(
    workspace: pathlib.Path,
) -> None:
    # AT5: no mount can keep a link in a writable root; a command that replaces it is
    # reported as a change the sandbox could not prevent
    (workspace / ".git").mkdir()
    (workspace / "h").mkdir()
    (workspace / "hk").symlink_to("h")
    (workspace / ".git" / "config").write_text("[core]\n\thooksPath = hk\n")
    assert "hk" in BubblewrapBackend(str(workspace)).protected_state()


def test_missing_agent_folders_cannot_be_created_in_the_sandbox(workspace: pathlib.Path) -> None:
    # a new `.claude/settings.json` defines hooks that the agent's host runs unsandboxed
    (workspace / "elsewhere").mkdir()
    (workspace / ".gemini").symlink_to(workspace / "elsewhere" / "gemini")  # dangling
    command = ("mkdir -p .claude && echo '{}' > .claude/settings.json; "
               "echo x > .gemini/settings.json; echo ok > made.txt")
    backend = BubblewrapBackend(str(workspace))
    res = _confined(command, workspace, backend, workspace / "made.txt")
    if res is None:
        return
    assert (workspace / "made.txt").read_text() == "ok\n"
    assert (workspace / ".claude").is_dir()  # made empty, and read-only inside
    assert list((workspace / ".claude").iterdir()) == []
    assert list((workspace / "elsewhere" / "gemini").iterdir()) == []
    assert res.sandbox_write_denied


def test_read_only_paths_hold_against_renames_nesting_and_links(tmp_path: pathlib.Path) -> None:
    # review M1: `mv pol pol.orig && mkdir pol` replaced a read-only policy layer;
    # M2: `sub/.git` (a nested repository) stayed writable; M4: a workspace given through
    # a link under /tmp put the read-only mounts outside the mounted workspace
    real = tmp_path / "real"
    (real / "pol").mkdir(parents=True)
    (real / "pol" / "main.policy").write_text("allow ls **\n")
    (real / "sub" / ".git" / "hooks").mkdir(parents=True)
    link = pathlib.Path(tempfile.mkdtemp(prefix="policylang-link-", dir="/tmp")) / "ws"
    link.symlink_to(real)
    command = ("pwd; mv pol pol.orig; mkdir -p pol; echo 'default allow' >> pol/main.policy; "
               "echo x > sub/.git/hooks/pre-commit; echo ok > made.txt")
    backend = BubblewrapBackend(str(link), readonly=[str(link / "pol" / "main.policy")])
    try:
        res = _confined(command, link, backend, real / "made.txt")
        if res is None:
            return
        assert res.stdout.splitlines()[0] == str(link)  # the link works inside too
        assert (real / "made.txt").read_text() == "ok\n"
        assert (real / "pol" / "main.policy").read_text() == "allow ls **\n"
        assert not (real / "pol.orig").exists()
        assert not (real / "sub" / ".git" / "hooks" / "pre-commit").exists()
    finally:
        shutil.rmtree(link.parent, ignore_errors=True)


def test_what_the_sandbox_cannot_keep_read_only_is_reported(workspace: pathlib.Path,
                                                            tmp_path: pathlib.Path) -> None:
    # the gaps: a protected file created where none was (`.mcp.json`), and a protected
    # name that is a link, replaced (review M6: `CLAUDE.md -> AGENTS.md`)
    (workspace / "AGENTS.md").write_text("rules\n")
    (workspace / "CLAUDE.md").symlink_to("AGENTS.md")
    command = ("echo '{}' > .mcp.json; rm CLAUDE.md; echo 'new rules' > CLAUDE.md; "
               "echo ok > made.txt")
    backend = BubblewrapBackend(str(workspace))
    res = _confined(command, workspace, backend, workspace / "made.txt")
    if res is None:
        return
    assert res.protected_changed == (".mcp.json", "CLAUDE.md")
    text = render_for_model(res, spill_dir=str(tmp_path)).text
    assert "created, removed or replaced .mcp.json, CLAUDE.md" in text
    quiet = run("echo ok > made.txt", decision=decision("echo ok > made.txt"),
                cwd=str(workspace), sandbox=backend, timeout_s=20)
    assert quiet.protected_changed == ()


def _mcp_jobs_text(store: JobStore) -> str:
    mcp_server = pytest.importorskip("policylang.integrations.mcp_server")
    text: str = mcp_server._jobs_text(store)
    return text


def test_a_background_job_reports_what_the_sandbox_could_not_keep(workspace: pathlib.Path
                                                                   ) -> None:
    # the foreground check, for jobs too: a job seen as done has its names compared
    command = "echo '{}' > .mcp.json; echo ok > made.txt"
    backend = BubblewrapBackend(str(workspace))
    with JobStore() as store:
        if not backend.probe().ok:
            with pytest.raises(SandboxUnavailableError, match="never ran"):
                store.start(command, decision=decision(command), cwd=str(workspace),
                            sandbox=backend)
            assert not (workspace / "made.txt").exists()
            return
        changed = store.start(command, decision=decision(command), cwd=str(workspace),
                              sandbox=backend, timeout_s=20)
        info = store.wait(changed, timeout_s=30)
        # one after the other: a change is reported by every job whose run overlapped it
        quiet = store.start("echo ok > other.txt", decision=decision("echo ok > other.txt"),
                            cwd=str(workspace), sandbox=backend, timeout_s=20)
        calm = store.wait(quiet, timeout_s=30)
        listing = JobTools(store).list().model_text
        mcp_listing = _mcp_jobs_text(store)  # the MCP server's own listing (review AQ6)
    assert (workspace / "made.txt").read_text() == "ok\n"
    assert mcp_listing.count("created, removed or replaced .mcp.json") == 1
    assert info.exit_code == 0
    assert info.protected_changed == (".mcp.json",)
    assert calm.exit_code == 0
    assert calm.protected_changed == ()
    assert listing.count("created, removed or replaced .mcp.json") == 1


def _connect_from_sandbox(path: pathlib.Path, ws: pathlib.Path,
                          **backend_kwargs: object) -> ExecResult | None:
    """A UNIX socket server listening at `path` outside, and a sandboxed command of `ws`
    that tries to connect to it (printing `connected` if it can); None where bubblewrap
    cannot work here."""
    import socket

    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    try:
        probe = (f"{sys.executable} -c \"import socket; s = socket.socket(socket.AF_UNIX); "
                 f"s.connect('{path}'); print('connected')\"; echo ok > made.txt")
        backend = BubblewrapBackend(str(ws), **backend_kwargs)  # type: ignore[arg-type]
        res = _confined(probe, ws, backend, ws / "made.txt")
        if res is not None:
            assert (ws / "made.txt").exists()
        return res
    finally:
        server.close()


def test_service_sockets_are_hidden_in_the_sandbox(workspace: pathlib.Path,
                                                   outside: pathlib.Path) -> None:
    # review AQ16: `connect` ignores read-only mounts; a same-user service socket (tmux,
    # an agent, a container engine) let a sandboxed command act outside the sandbox
    path = outside / "service.sock"
    res = _connect_from_sandbox(path, workspace, masked=[str(path)])
    if res is not None:
        assert "connected" not in res.stdout


def test_sockets_of_the_users_sessions_are_hidden(
    workspace: pathlib.Path, outside: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review AS8: an ssh ControlMaster socket under ~/.ssh runs commands over the user's
    # authenticated connection; the sandbox had connected to it
    monkeypatch.setenv("HOME", str(outside))
    (outside / ".ssh" / "cm").mkdir(parents=True)
    res = _connect_from_sandbox(outside / ".ssh" / "cm" / "git@github.com:22", workspace)
    if res is not None:
        assert "connected" not in res.stdout


@pytest.mark.parametrize("login", [False, True], ids=["plain", "login"])
def test_a_sandboxed_command_checks_its_directory_again_inside(
    workspace: pathlib.Path, outside: pathlib.Path, login: bool
) -> None:
    # review AS3: bubblewrap enters the directory by its path, after `start` compared it;
    # a folder swapped for a link in that window had been followed (48 of 300 races)
    from policylang.executor import runner

    folder = workspace / "d"
    folder.mkdir()
    (folder / "hosts.yml").write_text("harmless\n")
    (outside / "hosts.yml").write_text("SECRET\n")
    found = folder.stat()
    backend = BubblewrapBackend(str(workspace))
    command = "cat hosts.yml"

    def prepared() -> runner.Prepared:
        return runner.prepare(
            command, decision=decision(command), approval=None, cwd=str(folder), env=None,
            force_env=(), login=login, sandbox=backend, cwd_identity=(found.st_dev, found.st_ino),
        )

    if not backend.probe().ok:
        with pytest.raises(SandboxUnavailableError, match="never ran"):
            prepared()
        return
    ready = prepared()
    same = subprocess.run(ready.argv, cwd=ready.cwd, env=ready.env, capture_output=True,
                          text=True, timeout=20)
    assert (same.returncode, same.stdout) == (0, "harmless\n")
    # the swap lands after the comparison in `start`: the sandbox is spawned by path
    folder.rename(workspace / "d.dir")
    folder.symlink_to(outside)
    swapped = subprocess.run(ready.argv, cwd=ready.cwd, env=ready.env, capture_output=True,
                             text=True, timeout=20)
    assert swapped.returncode == 126
    assert "SECRET" not in swapped.stdout
    assert "no longer the one the command was judged in" in swapped.stderr


def test_the_directory_check_leaves_the_command_text_alone(workspace: pathlib.Path) -> None:
    # review AT11: as a first line of the text, the check had moved `$LINENO`
    found = workspace.stat()
    backend = BubblewrapBackend(str(workspace))
    command = 'echo "$LINENO"; echo "$BASH_EXECUTION_STRING"'
    if not backend.probe().ok:
        _refused_and_not_run(command, workspace, workspace / "made.txt")
        return
    res = run(command, decision=decision(command), cwd=str(workspace), sandbox=backend,
              timeout_s=20, cwd_identity=(found.st_dev, found.st_ino))
    assert res.exit_code == 0
    assert res.stdout == f"1\n{command}\n"


def test_a_bare_clone_layouts_git_directory_stays_read_only(workspace: pathlib.Path) -> None:
    # review AU2: `.git` a file with `gitdir: ./.bare`; `.bare/hooks` had been planted
    (workspace / ".bare" / "hooks").mkdir(parents=True)
    (workspace / ".bare" / "HEAD").write_text("ref: refs/heads/main\n")
    (workspace / ".bare" / "config").write_text("[core]\n\tbare = true\n")
    (workspace / ".git").write_text("gitdir: ./.bare\n")
    command = "echo x > .bare/hooks/pre-commit; echo ok > made.txt"
    if _ran_to_the_end(command, workspace) is None:
        return
    assert not (workspace / ".bare" / "hooks" / "pre-commit").exists()


def test_the_directory_check_does_not_use_a_stat_on_path(
    workspace: pathlib.Path, outside: pathlib.Path
) -> None:
    # review AU5: a `stat` planted in a folder on `PATH` had answered the check
    fake = outside / "bin"
    fake.mkdir()
    (fake / "stat").write_text("#!/bin/sh\necho 0:0\n")
    (fake / "stat").chmod(0o755)
    found = workspace.stat()
    backend = BubblewrapBackend(str(workspace))
    if not backend.probe().ok:
        _refused_and_not_run("true", workspace, workspace / "made.txt")
        return
    res = run("echo ran", decision=decision("echo ran"), cwd=str(workspace), sandbox=backend,
              timeout_s=20, env={"PATH": f"{fake}:{os.environ.get('PATH', '/usr/bin:/bin')}"},
              cwd_identity=(found.st_dev, found.st_ino))
    assert (res.exit_code, res.stdout) == (0, "ran\n")


def test_a_git_file_naming_the_workspace_does_not_freeze_it(workspace: pathlib.Path) -> None:
    # review AV4: `vendor/pkg/.git` saying `gitdir: ../..` had made the whole workspace
    # read-only for good
    (workspace / "vendor" / "pkg").mkdir(parents=True)
    (workspace / "vendor" / "pkg" / ".git").write_text("gitdir: ../..\n")
    _ran_to_the_end("echo ok > made.txt", workspace)  # asserts that `made.txt` was written


def test_a_bare_clone_holding_its_worktrees_keeps_only_its_hooks_and_config(
    workspace: pathlib.Path,
) -> None:
    # review AV3: the common directory is the workspace itself; all of it had become
    # read-only, so nothing could be written
    (workspace / "HEAD").write_text("ref: refs/heads/main\n")
    (workspace / "config").write_text("[core]\n\tbare = true\n")
    (workspace / "worktrees" / "main").mkdir(parents=True)
    (workspace / "worktrees" / "main" / "HEAD").write_text("ref: refs/heads/main\n")
    (workspace / "worktrees" / "main" / "commondir").write_text("../..\n")
    (workspace / "main").mkdir()
    (workspace / "main" / ".git").write_text(f"gitdir: {workspace}/worktrees/main\n")
    command = "echo x > hooks/pre-commit; echo y > main/file.txt; echo ok > made.txt"
    if _ran_to_the_end(command, workspace) is None:
        return
    assert (workspace / "main" / "file.txt").read_text() == "y\n"
    assert not (workspace / "hooks" / "pre-commit").exists()


def test_no_stat_for_the_directory_check_is_said_plainly(
    workspace: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review AV6: every command had ended with 126 and "the directory was replaced"
    from policylang.executor import runner

    monkeypatch.setattr(runner, "_STAT_PROGRAMS", ("/nonexistent/stat",))
    found = workspace.stat()
    backend = BubblewrapBackend(str(workspace))
    expected = "needs `stat`" if backend.probe().ok else "never ran"
    with pytest.raises(ExecutionRefusedError, match=expected):
        run("true", decision=decision("true"), cwd=str(workspace), sandbox=backend,
            timeout_s=20, cwd_identity=(found.st_dev, found.st_ino))


def test_start_up_files_stay_read_only_when_the_home_folder_is_in_the_workspace(
    workspace: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review AY4: with the workspace at `~`, a sandboxed command appended to `.bashrc`,
    # wrote `.ssh/authorized_keys`, and made a `~/.gitconfig` (core.fsmonitor runs at
    # every later git command), and nothing was reported
    home = workspace / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".bashrc").write_text("# mine\n")
    site = home / ".local" / "lib" / "python3.12" / "site-packages"
    site.mkdir(parents=True)
    (home / ".config" / "opencode").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    # review BA7: a `.pth` file runs at every Python start; opencode runs its plugins
    command = ("echo evil >> home/.bashrc; echo key > home/.ssh/authorized_keys; "
               "echo 'import os' > home/.local/lib/python3.12/site-packages/x.pth; "
               "echo x > home/.config/opencode/plugin.js; "
               "printf '[core]\\n\\tfsmonitor = x\\n' > home/.gitconfig; echo ok > made.txt")
    res = _ran_to_the_end(command, workspace)
    if res is None:
        return
    assert (home / ".bashrc").read_text() == "# mine\n"
    assert not (home / ".ssh" / "authorized_keys").exists()
    assert not (site / "x.pth").exists()
    assert not (home / ".config" / "opencode" / "plugin.js").exists()
    assert res.stderr.count("Read-only file system") == 4
    # a start-up file made where none was cannot be prevented by a read-only mount; it
    # is reported
    assert "home/.gitconfig" in res.protected_changed


def test_other_agents_and_tools_configuration_stays_read_only(workspace: pathlib.Path) -> None:
    # review AY5: MCP servers and hooks other agents and editors run on the host
    (workspace / "opencode.json").write_text("{}\n")
    (workspace / ".windsurf").mkdir()
    (workspace / ".devcontainer").mkdir()
    (workspace / "lefthook.yaml").write_text("pre-commit: {}\n")
    command = ("echo x > opencode.json; echo x > .windsurf/mcp.json; "
               "echo x > .devcontainer/devcontainer.json; echo x >> lefthook.yaml; "
               "echo x > CLAUDE.local.md; echo ok > made.txt")
    res = _ran_to_the_end(command, workspace)
    if res is None:
        return
    assert (workspace / "opencode.json").read_text() == "{}\n"
    assert not (workspace / ".windsurf" / "mcp.json").exists()
    assert not (workspace / ".devcontainer" / "devcontainer.json").exists()
    assert (workspace / "lefthook.yaml").read_text() == "pre-commit: {}\n"
    assert res.stderr.count("Read-only file system") == 4
    assert "CLAUDE.local.md" in res.protected_changed  # made where none was: reported
