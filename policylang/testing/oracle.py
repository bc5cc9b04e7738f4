"""The dynamic read-only oracle: run commands labelled read-only for real, in a sandbox, and
flag every one the real system contradicts. Imports `policylang.executor` (the bubblewrap
probe and the process-group kill), `policylang.errors`, `policylang.decision` and the
private `_trace` reader; the engine only when a policy file is loaded.

Each command runs as `bash -c COMMAND` under `strace -ff` INSIDE bubblewrap, never outside:
if bubblewrap or strace is unusable the oracle raises `SandboxUnavailableError` and runs
nothing (it never falls back to an unconfined run). The sandbox sees a minimal, read-only
world, narrower than the executor's (which shows all of `/` read-only and the workspace
read-write) because here the point is to see every attempt to change anything:

- `/usr` (and the `/bin`, `/lib*`, `/sbin` links into it) and `/etc`, read-only;
- a fresh `/dev` and `/proc`, a private tmpfs `/tmp`;
- a scratch COPY of a small workspace at `/workspace` (the cwd), read-only: a git
  repository with a few commits and the files tldr pages name (`path/to/file` …);
- a scratch home at `/home/oracle` (`HOME`), read-only, with a fake `~/.ssh`, `.gitconfig`;
- the directory strace writes its logs to (`/.oracle-trace`), the only writable bind;
- `--unshare-all` (no network), `--cap-drop ALL`, `--die-with-parent`, `--new-session`,
  `--clearenv`; stdin, stdout and stderr are `/dev/null`.

A per-command wall-clock limit (2 s by default) kills the whole process group; a run has
an overall budget too. What the trace shows is classified by `_trace`; a command is
**flagged** when it attempted a write outside `/tmp`, opened an internet socket, or ran a
program outside the read-only set (by default: a program the policy would not allow, on
its own, as read-only).
"""

from __future__ import annotations

import collections
import logging
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from policylang.decision import Decision, Retention, Verdict
from policylang.errors import SandboxUnavailableError
from policylang.executor.process import terminate_group
from policylang.executor.sandbox import BubblewrapBackend
from policylang.testing._trace import TRACED_CALLS, Effect, Event, parse_log

if TYPE_CHECKING:
    from policylang.engine.policy import Policy

logger = logging.getLogger(__name__)

WORKSPACE = "/workspace"
HOME = "/home/oracle"
_TRACE_DIR = "/.oracle-trace"
_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"

#: The files of the scratch workspace (tldr placeholders included), relative path → text.
WORKSPACE_FILES: dict[str, str] = {
    "README": "policylang oracle workspace\n",
    "README.md": "# oracle\n\nA scratch workspace.\n",
    "file": "alpha\nbeta\ngamma\n",
    "file.txt": "one\ntwo\nthree\n",
    "file1": "a\nb\nc\n",
    "file2": "a\nc\nd\n",
    "data.csv": "name,value\nx,1\ny,2\n",
    "notes.txt": "TODO: nothing\n",
    "src/main.py": "print('hello')\n",
    "src/util.sh": "#!/bin/sh\necho util\n",
    "path/to/file": "alpha\nbeta\n",
    "path/to/file1": "a\nb\n",
    "path/to/file2": "a\nc\n",
    "path/to/file.txt": "text\n",
    "path/to/file.py": "print(1)\n",
    "path/to/file.json": '{"a": 1}\n',
    "path/to/file_or_directory": "x\n",
    "path/to/input_file": "input\n",
    "path/to/directory/a.txt": "a\n",
    "path/to/directory/b.txt": "b\n",
    "path/to/directory1/a.txt": "a\n",
    "path/to/directory2/a.txt": "b\n",
    "path/to/source/s.txt": "s\n",
}
_HOME_FILES: dict[str, str] = {
    ".ssh/id_ed25519": "FAKE PRIVATE KEY (policylang oracle)\n",
    ".ssh/id_ed25519.pub": "ssh-ed25519 FAKE oracle@example.invalid\n",
    ".ssh/known_hosts": "",
    ".gitconfig": "[user]\n\tname = Oracle\n\temail = oracle@example.invalid\n",
    ".bashrc": "",
    ".profile": "",
    ".config/.keep": "",
}
_GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",
            "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z", "LC_ALL": "C"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """What one command did in the sandbox; `flags` are the effects that contradict read-only."""

    command: str
    events: tuple[Event, ...]
    flags: tuple[Event, ...]
    returncode: int | None
    timed_out: bool
    seconds: float

    @property
    def flagged(self) -> bool:
        return bool(self.flags)

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(sorted({str(e.effect) for e in self.flags}))

    def render(self) -> str:
        status = "timed out" if self.timed_out else f"exit {self.returncode}"
        lines = [f"{self.command!r} ({status}, {self.seconds:.2f}s)"]
        lines += [f"    {event.render()}" for event in _unique(self.flags)]
        return "\n".join(lines)


def _unique(events: Iterable[Event]) -> list[Event]:
    return list(dict.fromkeys(events))


def _write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _git(workspace: Path, home: Path, *args: str) -> None:
    # trusted, fixed arguments on our own scratch copy (no corpus text reaches this)
    env = {**_GIT_ENV, "HOME": str(home), "PATH": _PATH}
    subprocess.run(["git", *args], cwd=workspace, env=env, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=30)


def make_scratch(root: Path, source: Path | None = None) -> tuple[Path, Path]:
    """Create `root/workspace` (a copy of `source`, or the built-in one) and `root/home`."""
    workspace, home = root / "workspace", root / "home"
    home.mkdir(parents=True)
    _write_tree(home, _HOME_FILES)
    (home / ".ssh").chmod(0o700)
    if source is not None:
        shutil.copytree(source, workspace, symlinks=True)
        return workspace, home
    workspace.mkdir()
    _write_tree(workspace, WORKSPACE_FILES)
    if shutil.which("git") is not None:
        _git(workspace, home, "init", "-q", "-b", "main")
        _git(workspace, home, "add", "README", "README.md", "src")
        _git(workspace, home, "commit", "-q", "-m", "first commit")
        _git(workspace, home, "add", "-A")
        _git(workspace, home, "commit", "-q", "-m", "second commit")
    return workspace, home


def _system_binds() -> list[str]:
    argv = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            argv += ["--ro-bind", str(path), str(path)]
    return argv


def sandbox_argv(*, bwrap: str, workspace: Path, home: Path, trace_dir: Path,
                 inner: Sequence[str]) -> list[str]:
    """The bubblewrap command line that runs `inner` in the oracle's sandbox (see module doc)."""
    argv = [bwrap, *_system_binds(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--ro-bind", str(workspace), WORKSPACE, "--ro-bind", str(home), HOME,
            "--bind", str(trace_dir), _TRACE_DIR]
    # INVARIANT: no network, no capabilities (root keeps them by default), dies with us
    argv += ["--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session",
             "--clearenv", "--setenv", "PATH", _PATH, "--setenv", "HOME", HOME,
             "--setenv", "LANG", "C.UTF-8", "--setenv", "USER", "oracle",
             "--setenv", "LOGNAME", "oracle", "--setenv", "TERM", "dumb",
             "--setenv", "SHELL", "/bin/bash", "--chdir", WORKSPACE, "--", *inner]
    return argv


def _strace_argv(strace: str, shell: str, command: str) -> list[str]:
    return [strace, "-ff", "-qq", "-y", "-s", "512", "-e", "signal=none",
            "-e", f"trace={TRACED_CALLS}", "-o", f"{_TRACE_DIR}/log", "--",
            shell, "-c", command]


class Oracle:
    """A sandbox for observing commands; use as a context manager (it owns a scratch dir).

    Args:
        read_only_program: whether running a program (by base name) is read-only; an
            exec of any other program flags the command. Default: every program is.
        timeout_s: wall-clock limit per command; the process group is killed after it.
        source: a workspace directory to copy instead of the built-in one.

    Raises:
        SandboxUnavailableError: bubblewrap does not work here, or strace is missing.
    """

    def __init__(self, *, read_only_program: Callable[[str], bool] | None = None,
                 timeout_s: float = 2.0, source: Path | None = None) -> None:
        self.read_only_program = read_only_program or (lambda _name: True)
        self.timeout_s = timeout_s
        self._root = Path(tempfile.mkdtemp(prefix="policylang-oracle-"))
        try:
            self.workspace, self.home = make_scratch(self._root, source)
            self._bwrap, self._strace, self._shell = self._tools()
        except BaseException:
            shutil.rmtree(self._root, ignore_errors=True)
            raise
        self._counter = 0

    def _tools(self) -> tuple[str, str, str]:
        available = BubblewrapBackend(str(self.workspace)).probe()
        if not available.ok:
            raise SandboxUnavailableError(f"the oracle needs bubblewrap: {available.detail}")
        bwrap, strace = shutil.which("bwrap"), shutil.which("strace")
        if bwrap is None or strace is None:
            raise SandboxUnavailableError("the oracle needs strace (install the strace package)")
        shell = os.path.realpath(shutil.which("bash") or "/usr/bin/bash")
        if not shell.startswith("/usr/"):
            raise SandboxUnavailableError(f"bash at `{shell}` is not visible in the sandbox")
        return bwrap, os.path.realpath(strace), shell

    def close(self) -> None:
        shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def observe(self, command: str) -> Observation:
        """Run `command` in the sandbox under strace and classify what it did."""
        self._counter += 1
        trace_dir = self._root / "trace" / str(self._counter)
        trace_dir.mkdir(parents=True)
        try:
            return self._observe(command, trace_dir)
        finally:
            shutil.rmtree(trace_dir, ignore_errors=True)

    def _observe(self, command: str, trace_dir: Path) -> Observation:
        inner = _strace_argv(self._strace, self._shell, command)
        argv = sandbox_argv(bwrap=self._bwrap, workspace=self.workspace, home=self.home,
                            trace_dir=trace_dir, inner=inner)
        start = time.monotonic()
        # INVARIANT: the only process the oracle starts for a command is bubblewrap
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True,
                                close_fds=True, cwd=self._root)
        timed_out = False
        try:
            proc.wait(timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            if proc.returncode is None:
                terminate_group(proc, grace_s=0.2)
        events = self._events(trace_dir)
        return Observation(command=command, events=events, flags=self._flags(events),
                           returncode=None if timed_out else proc.returncode,
                           timed_out=timed_out, seconds=time.monotonic() - start)

    def _events(self, trace_dir: Path) -> tuple[Event, ...]:
        logs = sorted(trace_dir.glob("log.*"), key=lambda p: int(p.suffix[1:] or 0))
        events: list[Event] = []
        for index, log in enumerate(logs):
            found = parse_log(log.read_text(encoding="utf-8", errors="replace").splitlines())
            if index == 0 and found and found[0].effect is Effect.EXEC:
                found = found[1:]  # our own `bash -c`, the first thing the first process runs
            events.extend(found)
        return tuple(events)

    def _flags(self, events: Sequence[Event]) -> tuple[Event, ...]:
        flags = []
        for event in events:
            match event.effect:
                case Effect.WRITE | Effect.NETWORK:
                    flags.append(event)
                case Effect.EXEC:
                    if not self.read_only_program(os.path.basename(event.target)):
                        flags.append(event)
                case Effect.TMP_WRITE:
                    pass
        return tuple(flags)


# --- a run over many commands -------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class OracleReport:
    """The outcome of running the oracle over a set of commands."""

    candidates: int  # commands offered (labelled read-only)
    observations: tuple[Observation, ...] = ()
    seconds: float = 0.0
    sources: dict[str, str] = field(default_factory=dict)  # command -> corpus file

    @property
    def flagged(self) -> tuple[Observation, ...]:
        return tuple(o for o in self.observations if o.flagged)

    def by_category(self) -> dict[str, list[Observation]]:
        groups: dict[str, list[Observation]] = collections.defaultdict(list)
        for observation in self.flagged:
            for category in observation.categories:
                groups[category].append(observation)
        return dict(sorted(groups.items()))

    def render(self, *, examples: int = 8) -> str:
        ran = len(self.observations)
        timeouts = sum(o.timed_out for o in self.observations)
        tmp = sum(any(e.effect is Effect.TMP_WRITE for e in o.events) for o in self.observations)
        lines = [f"dynamic oracle: {ran} of {self.candidates} read-only command(s) run in "
                 f"{self.seconds:.0f}s; {len(self.flagged)} flagged, {timeouts} timed out, "
                 f"{tmp} wrote only under /tmp (not flagged)"]
        for category, group in self.by_category().items():
            lines.append(f"{category}: {len(group)} command(s)")
            lines += ["  " + o.render().replace("\n", "\n  ") for o in group[:examples]]
        return "\n".join(lines)


def run_oracle(oracle: Oracle, commands: Sequence[str], *, budget_s: float = 600.0,
               jobs: int = 1, progress: Callable[[Observation], None] | None = None
               ) -> OracleReport:
    """Observe each command until `budget_s` is spent (commands not reached are not run)."""
    start = time.monotonic()
    deadline = start + budget_s

    def one(command: str) -> Observation | None:
        if time.monotonic() >= deadline:
            return None
        observation = oracle.observe(command)
        if progress is not None:
            progress(observation)
        return observation

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = [o for o in pool.map(one, commands) if o is not None]
    return OracleReport(candidates=len(commands), observations=tuple(results),
                        seconds=time.monotonic() - start)


def is_read_only(decision: Decision) -> bool:
    """The label the oracle checks: ALLOW with `requery` retention."""
    return decision.verdict is Verdict.ALLOW and decision.retention is Retention.REQUERY


def interleave(groups: Iterable[Sequence[str]]) -> list[str]:
    """Round-robin over the groups, so a short budget still samples every one of them."""
    buckets = [list(g) for g in groups]
    out: list[str] = []
    for index in range(max((len(b) for b in buckets), default=0)):
        out += [b[index] for b in buckets if index < len(b)]
    return out


def by_program(commands: Iterable[str]) -> list[str]:
    """Commands reordered round-robin by first word (`find` must not eat the budget)."""
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for command in commands:
        groups[(command.split() or [""])[0]].append(command)
    return interleave(groups.values())


class PolicyLabels:
    """The read-only labels of a policy, as seen from the oracle's scratch workspace."""

    def __init__(self, policy: Policy, oracle: Oracle) -> None:
        self.policy = policy
        self.workspace = oracle.workspace
        self.env = {"HOME": str(oracle.home)}
        self._programs: dict[str, bool] = {}

    def decide(self, command: str) -> Decision:
        return self.policy.evaluate(command, cwd=self.workspace, workspace=self.workspace,
                                    env=self.env)

    def read_only(self, command: str) -> bool:
        return is_read_only(self.decide(command))

    def program(self, name: str) -> bool:
        """Whether the policy allows running `name` on its own as read-only (cached)."""
        if name not in self._programs:
            self._programs[name] = self.read_only(name)
        return self._programs[name]
