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
  repository with a few commits, an `archive.tar`, and the files tldr pages name
  (`path/to/file` …);
- a scratch home at `/home/oracle` (`HOME`), read-only, with a fake `~/.ssh`, `.gitconfig`;
- the directory strace writes its logs to (`/.oracle-trace`), the only writable bind;
- `--unshare-all` (no network), `--cap-drop ALL`, `--die-with-parent`, `--new-session`,
  `--clearenv`; stdin, stdout and stderr are `/dev/null`.

A per-command wall-clock limit (2 s by default) kills the whole process group; a run has
an overall budget too. What the trace shows is classified by `_trace`; a command is
**flagged** when it attempted a write outside `/tmp`, a change to the system (clock, host
name, mounts …), opened an internet socket, or ran a program outside the read-only set.
Every descendant is traced, so a program's own writes are caught anyway; the exec check
is for effects a trace of file and socket calls cannot see (a request to a daemon over a
Unix socket, a signal). The read-only set: programs named in the command itself (the
policy judged those), `HELPER_PROGRAMS`, and programs `read_only_program` accepts (for a
policy: the ones it allows on their own as read-only).

With `secrets=True` (the secrets oracle) the scratch home and workspace also hold canary
secrets (`_secrets`: `~/.ssh/id_rsa`, `~/.aws/credentials`, `.env`, `certs/server.pem`
…, each with a token of its own, and a workspace link to one), stdout and stderr go to a
pipe that is searched for the tokens, strace also traces the calls that read, and a
command is also flagged when it read a secret's content or printed a token (category
`secret`). The candidates are then the
commands a policy ALLOWS, read-only or not, plus lines that go looking for secrets.

With `approvals=True` (the approval-width oracle, `check_approvals`) the sandbox also
holds protected files (`_approvals`: `.git/hooks/pre-commit`, `.claude/settings.json`,
`~/.bashrc` …), and the candidates are the commands an "always allow" approval the engine
suggests newly allows; a command is flagged when it reads a secret, writes a protected
path, or runs a program from the workspace or home (not from `/usr`).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import fnmatch
import functools
import logging
import os
import posixpath
import re
import secrets as _random
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Final, TypeVar

from policylang.decision import Decision, Retention, Verdict
from policylang.errors import SandboxUnavailableError
from policylang.executor.env import SAFE_DEFAULTS
from policylang.executor.process import terminate_group
from policylang.executor.sandbox import BubblewrapBackend
from policylang.testing import _approvals, _secrets
from policylang.testing._optionprobe import PROBE_VALUE
from policylang.testing._trace import (
    SECRET_TRACED_CALLS,
    TRACED_CALLS,
    Effect,
    Event,
    parse_log,
)

if TYPE_CHECKING:
    from policylang.engine.approvals import Approvals
    from policylang.engine.policy import Policy

logger = logging.getLogger(__name__)
T = TypeVar("T")

WORKSPACE = "/workspace"
HOME = "/home/oracle"
_TRACE_DIR = "/.oracle-trace"
_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
_TOKEN_SPLIT = re.compile(r"[\s;|&()<>'\"`{}$\\]+")

#: Programs that read-only tools run behind the scenes and whose every effect the trace
#: sees (no IPC to a daemon): shells (`watch` runs `sh -c`), man's formatting pipeline,
#: the decompressors `zgrep`/`tar tzf` use, pagers. What they do is still traced.
HELPER_PROGRAMS = frozenset({
    "sh", "bash", "dash", "preconv", "tbl", "eqn", "pic", "refer", "nroff", "groff", "troff",
    "grotty", "grops", "gropdf", "grodvi", "grohtml", "pre-grohtml", "post-grohtml", "col",
    "locale", "gzip", "gunzip", "bzip2", "xz", "zstd", "lzma", "less",
    "more", "pager",
})

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
    """Create `root/workspace` (a copy of `source`, or the built-in one) and
    `root/home/oracle`: the same layout as `/workspace` and `/home/oracle` in the sandbox,
    so a relative path from one to the other (`../home/oracle/.netrc`) names the same file
    for the policy and for the command."""
    workspace, home = root / "workspace", root / "home" / "oracle"
    home.mkdir(parents=True)
    _write_tree(home, _HOME_FILES)
    (home / ".ssh").chmod(0o700)
    if source is not None:
        shutil.copytree(source, workspace, symlinks=True)
        return workspace, home
    workspace.mkdir()
    _write_tree(workspace, WORKSPACE_FILES)
    with tarfile.open(workspace / "archive.tar", "w") as archive:
        archive.add(workspace / "README", arcname="README")
    probe = workspace / PROBE_VALUE  # what option probes name: run, it shows as an exec
    probe.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    probe.chmod(0o755)
    if shutil.which("git") is not None:
        _git(workspace, home, "init", "-q", "-b", "main")
        _git(workspace, home, "add", "README", "README.md", "src")
        _git(workspace, home, "commit", "-q", "-m", "first commit")
        _git(workspace, home, "add", "-A")
        _git(workspace, home, "commit", "-q", "-m", "second commit")
    return workspace, home


def plant_secrets(workspace: Path, home: Path, salt: str) -> dict[str, str]:
    """Write the canary secrets of `_secrets` (mode 0600, after the scratch repository's
    commits, so none is tracked) and the workspace links to them.

    Returns each secret's path in the sandbox → its token, and each secret variable of
    the commands' environment (`$GITHUB_TOKEN`) → its token.
    """
    planted: dict[str, str] = {}
    places = [(home, HOME, name, text) for name, text in _secrets.HOME_SECRETS.items()]
    places += [(workspace, WORKSPACE, name, text)
               for name, text in _secrets.WORKSPACE_SECRETS.items()]
    for index, (base, inside, name, text) in enumerate(places):
        token = _secrets.canary_token(index, salt)
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(token=token), encoding="utf-8")
        path.chmod(0o600)
        planted[f"{inside}/{name}"] = token
    for index, name in enumerate(_secrets.ENV_SECRETS, start=len(places)):
        planted[f"${name}"] = _secrets.canary_token(index, salt)  # (set in `_observe`)
    for name, target in _secrets.WORKSPACE_LINKS.items():
        link = workspace / name
        link.parent.mkdir(parents=True, exist_ok=True)
        # relative, so that it resolves alike on the host and in the sandbox
        link.symlink_to(os.path.relpath(f"{HOME}/{target}", os.path.dirname(
            f"{WORKSPACE}/{name}")))
    return planted


def plant_protected(workspace: Path, home: Path) -> tuple[str, ...]:
    """Write the protected files of `_approvals` (not executable), after the scratch
    repository's commits; their paths in the sandbox."""
    planted = []
    places = [(workspace, WORKSPACE, _approvals.WORKSPACE_TARGETS),
              (home, HOME, _approvals.HOME_TARGETS)]
    for base, inside, files in places:
        for name, text in files.items():
            path = base / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            path.chmod(0o644)
            planted.append(f"{inside}/{name}")
    if (workspace / ".git" / "config").is_file():
        planted.append(f"{WORKSPACE}/.git/config")
    return tuple(planted)


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
                 inner: Sequence[str], inherit: bool = False) -> list[str]:
    """The bubblewrap command line that runs `inner` in the oracle's sandbox (see module
    doc). `inherit`: keep the environment bubblewrap is started with (the secrets oracle's
    canary variables, which on its command line `ps aux` would print: the caller starts
    it with those alone)."""
    argv = [bwrap, *_system_binds(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--ro-bind", str(workspace), WORKSPACE, "--ro-bind", str(home), HOME,
            "--bind", str(trace_dir), _TRACE_DIR]
    # INVARIANT: no network, no capabilities (root keeps them by default), dies with us
    argv += ["--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session",
             *(() if inherit else ("--clearenv",)), "--setenv", "PATH", _PATH,
             "--setenv", "HOME", HOME,
             "--setenv", "LANG", "C.UTF-8", "--setenv", "USER", "oracle",
             "--setenv", "LOGNAME", "oracle", "--setenv", "TERM", "dumb",
             "--setenv", "SHELL", "/bin/bash"]
    # the variables the executor sets for every command (GIT_OPTIONAL_LOCKS=0): the oracle
    # judges commands as they really run
    for name, value in SAFE_DEFAULTS.items():
        argv += ["--setenv", name, value]
    argv += ["--chdir", WORKSPACE, "--", *inner]
    return argv


def _strace_argv(strace: str, shell: str, command: str, *, reads: bool = False) -> list[str]:
    # `reads` (secrets): the read calls too, with less of the data they read in the log
    calls, size = (SECRET_TRACED_CALLS, "64") if reads else (TRACED_CALLS, "512")
    return [strace, "-ff", "-qq", "-y", "-s", size, "-e", "signal=none",
            "-e", f"trace={calls}", "-o", f"{_TRACE_DIR}/log", "--",
            shell, "-c", command]


def _named_programs(command: str) -> set[str]:
    """Base names of the words of `command` that could name a program the policy saw.

    Options and assignments are left out, so `--rsh-command=/usr/bin/x` or `p=/usr/bin/x`
    does not make `x` a named program.
    """
    return {os.path.basename(token) for token in _TOKEN_SPLIT.split(command)
            if token and not token.startswith("-") and "=" not in token}


class Oracle:
    """A sandbox for observing commands; use as a context manager (it owns a scratch dir).

    Args:
        read_only_program: whether running a program (by base name) is read-only; an
            exec of any other program flags the command. Default: every program is.
        timeout_s: wall-clock limit per command; the process group is killed after it.
        source: a workspace directory to copy instead of the built-in one.
        bwrap: the bubblewrap program (a name on PATH, or a path).
        secrets: plant canary secrets, capture the output, and flag reads of them.
        approvals: plant the protected files of `_approvals` too (the approval-width
            oracle judges the events itself: see `approval_flags`).

    Raises:
        SandboxUnavailableError: bubblewrap does not work here, or strace is missing.
    """

    def __init__(self, *, read_only_program: Callable[[str], bool] | None = None,
                 timeout_s: float = 2.0, source: Path | None = None,
                 bwrap: str = "bwrap", secrets: bool = False,
                 approvals: bool = False) -> None:
        self.read_only_program = read_only_program or (lambda _name: True)
        #: whether a whole command line is read-only: judges what a helper ran with its
        #: arguments (`ag` runs `git config --get core.excludesfile`), where the trace
        #: shows them all (review DY7); None: programs are judged by name only
        self.read_only_command: Callable[[str], bool] | None = None
        self.timeout_s = timeout_s
        self._root = Path(tempfile.mkdtemp(prefix="policylang-oracle-"))
        #: the planted secrets, by their path in the sandbox → token (empty: no secrets)
        self.secrets: dict[str, str] = {}
        #: the protected files planted, by their path in the sandbox (empty: none)
        self.protected: tuple[str, ...] = ()
        try:
            self.workspace, self.home = make_scratch(self._root, source)
            if secrets:
                self.secrets = plant_secrets(self.workspace, self.home, _random.token_hex(8))
            if approvals:
                self.protected = plant_protected(self.workspace, self.home)
            self._bwrap, self._strace, self._shell = self._tools(bwrap)
        except BaseException:
            shutil.rmtree(self._root, ignore_errors=True)
            raise
        self._counter = 0

    def _tools(self, name: str) -> tuple[str, str, str]:
        available = BubblewrapBackend(str(self.workspace), bwrap=name).probe()
        if not available.ok:
            raise SandboxUnavailableError(f"the oracle needs bubblewrap: {available.detail}")
        bwrap, strace = shutil.which(name), shutil.which("strace")
        if bwrap is None or strace is None:
            raise SandboxUnavailableError("the oracle needs strace (install the strace package)")
        shell = os.path.realpath(shutil.which("bash") or "/usr/bin/bash")
        if not shell.startswith("/usr/"):
            raise SandboxUnavailableError(f"bash at `{shell}` is not visible in the sandbox")
        return bwrap, os.path.realpath(strace), shell

    def close(self) -> None:
        shutil.rmtree(self._root, ignore_errors=True)

    def host_path(self, path: str) -> Path:
        """Where a sandbox path under the workspace or the home is on this side."""
        for inside, outside in ((WORKSPACE, self.workspace), (HOME, self.home)):
            if path.startswith(inside + "/"):
                return outside / path[len(inside) + 1:]
        raise ValueError(f"`{path}` is not in the scratch workspace or home")

    def spelled(self, path: str) -> str:
        """A sandbox path under the workspace or the home, written as a command names it
        (relative to the workspace, or `~/…`), so the policy and the sandbox agree on it."""
        if path.startswith(HOME + "/"):
            return "~/" + shlex.quote(path[len(HOME) + 1:])
        return shlex.quote(path.removeprefix(WORKSPACE + "/"))

    def to_sandbox(self, text: str) -> str:
        """`text` with the scratch workspace and home written as the sandbox sees them
        (`/workspace`, `/home/oracle`): what the engine resolved on this side, such as a
        suggestion naming a script (`python3 /tmp/…/workspace/x.py`)."""
        return text.replace(str(self.workspace), WORKSPACE).replace(str(self.home), HOME)

    def to_host(self, text: str) -> str:
        """The reverse of `to_sandbox`: `/workspace` and `/home/oracle` as whole path
        prefixes written as the scratch folders, for the policy to judge."""
        for inside, outside in ((WORKSPACE, self.workspace), (HOME, self.home)):
            pattern = rf"(?<![\w./~-]){re.escape(inside)}(?=/|$|[\s'\";|&)])"
            text = re.sub(pattern, str(outside).replace("\\", "\\\\"), text)
        return text

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

    def output_of(self, command: str, *, limit: int = 1 << 16) -> str:
        """What `command` prints (stdout and stderr, up to `limit` bytes), run in the sandbox."""
        self._counter += 1
        trace_dir = self._root / "trace" / str(self._counter)
        trace_dir.mkdir(parents=True)
        try:
            self._observe(f"exec >{_TRACE_DIR}/output 2>&1\n{command}", trace_dir)
            output = trace_dir / "output"
            data = output.read_bytes()[:limit] if output.is_file() else b""
            return data.decode("utf-8", "replace")
        finally:
            shutil.rmtree(trace_dir, ignore_errors=True)

    def _observe(self, command: str, trace_dir: Path) -> Observation:
        inner = _strace_argv(self._strace, self._shell, command, reads=bool(self.secrets))
        variables = {k[1:]: v for k, v in self.secrets.items() if k.startswith("$")}
        argv = sandbox_argv(bwrap=self._bwrap, workspace=self.workspace, home=self.home,
                            trace_dir=trace_dir, inner=inner, inherit=bool(variables))
        start = time.monotonic()
        scanner = _secrets.TokenScanner({t: p for p, t in self.secrets.items()})
        output = subprocess.PIPE if self.secrets else subprocess.DEVNULL
        # INVARIANT: the only process the oracle starts for a command is bubblewrap
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=output,
                                env=variables if variables else None,
                                stderr=subprocess.STDOUT if self.secrets else subprocess.DEVNULL,
                                start_new_session=True, close_fds=True, cwd=self._root)
        reader = None
        if proc.stdout is not None:  # secrets: every byte printed is searched for a token
            reader = threading.Thread(target=_drain, args=(proc.stdout, scanner), daemon=True)
            reader.start()
        timed_out = False
        try:
            proc.wait(timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            if proc.returncode is None:
                terminate_group(proc, grace_s=0.2)
            if reader is not None and proc.stdout is not None:
                reader.join(timeout=2.0)
                proc.stdout.close()
        events = self._events(trace_dir)
        events += tuple(Event(effect=Effect.SECRET, syscall="output", target=path,
                              result="its canary token was printed")
                        for path in scanner.found)
        return Observation(command=command, events=events, flags=self._flags(command, events),
                           returncode=None if timed_out else proc.returncode,
                           timed_out=timed_out, seconds=time.monotonic() - start)

    def _events(self, trace_dir: Path) -> tuple[Event, ...]:
        logs = sorted(trace_dir.glob("log.*"), key=lambda p: int(p.suffix[1:] or 0))
        events: list[Event] = []
        for index, log in enumerate(logs):
            found = parse_log(log.read_text(encoding="utf-8", errors="replace").splitlines(),
                              self.secrets)
            if index == 0 and found and found[0].effect is Effect.EXEC:
                found = found[1:]  # our own `bash -c`, the first thing the first process runs
            events.extend(found)
        return tuple(events)

    def _flags(self, command: str, events: Sequence[Event]) -> tuple[Event, ...]:
        named = _named_programs(command)
        flags = []
        secrets_read: set[tuple[str, str]] = set()
        for event in events:
            match event.effect:
                case Effect.WRITE | Effect.NETWORK | Effect.SYSTEM:
                    flags.append(event)
                case Effect.SECRET:  # the first read of each secret by each call says it
                    if (event.syscall, event.target) not in secrets_read:
                        secrets_read.add((event.syscall, event.target))
                        flags.append(event)
                case Effect.EXEC:
                    program = os.path.basename(event.target.rstrip("/"))
                    if _anonymous_program(event.target) or not (
                        program in named or program in HELPER_PROGRAMS
                        or self.read_only_program(program)
                        or self._read_only_run(event.target, event.argv)
                    ):
                        flags.append(event)
                case Effect.TMP_WRITE:
                    pass
        return tuple(flags)


    def _read_only_run(self, target: str, argv: tuple[str, ...] | None) -> bool:
        """Whether the system program `target` run with the arguments `argv` (its own name
        first, replaced by the file's: what runs is the file) is a read-only command line.
        Only a program of the system's folders is judged so: the labels judge a name as
        the system's program, and a file of that name elsewhere (`/tmp/t/git`, which the
        command may have written) is not it (review DZ6)."""
        if self.read_only_command is None or not argv:
            return False
        if os.path.dirname(os.path.normpath(target)) not in _SYSTEM_PROGRAM_FOLDERS:
            return False
        return self.read_only_command(shlex.join((os.path.basename(target), *argv[1:])))


# the folders of the programs the labels mean by a name (the sandbox's, read-only)
_SYSTEM_PROGRAM_FOLDERS: Final = frozenset(
    {"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/local/sbin"}
)


def _anonymous_program(target: str) -> bool:
    """Whether an exec ran a file with no name of its own: `execveat` of a descriptor
    with an empty path (`fexecve`, a `memfd_create` file, a deleted one), which a name
    cannot judge (review DZ6: its empty name was judged as an empty, allowed line)."""
    name = os.path.basename(target.rstrip("/"))
    return not name or "memfd:" in target or target.rstrip("/").endswith(" (deleted)")


def _drain(stream: IO[bytes], scanner: _secrets.TokenScanner) -> None:
    """Read `stream` to its end, handing every chunk to `scanner` (a reader thread)."""
    try:
        while chunk := os.read(stream.fileno(), 1 << 16):
            scanner.feed(chunk)
    except (OSError, ValueError):  # closed under us after a timeout
        pass


# --- a run over many commands -------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class KnownFinding:
    """One line of a baseline file: `EFFECT PATTERN  # why`, e.g. `write
    /home/oracle/.config/procps*  # top makes its config folder`. A flag of that effect
    whose target matches the glob is known, and a command flagged only for known findings
    does not fail the run (review AR12: the shipped ruleset's `top` was flagged on every
    run, so `make fuzz` could never pass)."""

    effect: str
    pattern: str
    why: str
    where: str  # file:line

    def covers(self, event: Event) -> bool:
        return str(event.effect) == self.effect and fnmatch.fnmatchcase(event.target,
                                                                          self.pattern)


def read_known(path: Path) -> tuple[KnownFinding, ...]:
    """The known findings of a baseline file.

    Raises:
        ValueError: a line is not `EFFECT PATTERN  # why` (every bad line is named), or a
            finding has no reason: a baseline without reasons hides holes.
    """
    effects = {str(effect) for effect in Effect}
    found: list[KnownFinding] = []
    problems: list[str] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body, _, why = raw.partition("#")
        words = body.split()
        if not words:
            continue
        where = f"{path}:{number}"
        if len(words) != 2 or words[0] not in effects:
            problems.append(f"{where}: expected `EFFECT PATTERN  # why`, EFFECT one of "
                            f"{', '.join(sorted(effects))}")
        elif not why.strip():
            problems.append(f"{where}: say why `{words[1]}` is accepted, after a `#`")
        else:
            found.append(KnownFinding(effect=words[0], pattern=words[1], why=why.strip(),
                                      where=where))
    if problems:
        raise ValueError("\n".join(problems))
    return tuple(found)


@dataclass(frozen=True, slots=True, kw_only=True)
class OracleReport:
    """The outcome of running the oracle over a set of commands."""

    candidates: int  # commands offered (labelled read-only)
    observations: tuple[Observation, ...] = ()
    seconds: float = 0.0
    sources: dict[str, str] = field(default_factory=dict)  # command -> corpus file
    known: tuple[KnownFinding, ...] = ()  # flags accepted on purpose (a baseline file)
    notes: tuple[str, ...] = ()  # printed under the first line (the secrets planted …)
    label: str = "read-only"  # what the candidates were labelled ("allowed": secrets)

    @property
    def flagged(self) -> tuple[Observation, ...]:
        """The flagged observations, those whose every flag is a known finding left out."""
        return tuple(o for o in self.observations if o.flagged and not self._is_known(o))

    @property
    def known_flagged(self) -> tuple[Observation, ...]:
        return tuple(o for o in self.observations if o.flagged and self._is_known(o))

    def _is_known(self, observation: Observation) -> bool:
        return bool(self.known) and all(
            any(k.covers(event) for k in self.known) for event in observation.flags
        )

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
        lines = [f"dynamic oracle: {ran} of {self.candidates} {self.label} command(s) run in "
                 f"{self.seconds:.0f}s; {len(self.flagged)} flagged, {timeouts} timed out, "
                 f"{tmp} wrote only under /tmp (not flagged)"]
        lines += self.notes
        known = self.known_flagged
        if known:
            lines.append(f"known: {len(known)} command(s) flagged only for known findings "
                         "(not counted)")
            lines += ["  " + o.render().replace("\n", "\n  ") for o in known[:examples]]
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


def interleave(groups: Iterable[Sequence[T]]) -> list[T]:
    """Round-robin over the groups, so a short budget still samples every one of them."""
    buckets = [list(g) for g in groups]
    out: list[T] = []
    for index in range(max((len(b) for b in buckets), default=0)):
        out += [b[index] for b in buckets if index < len(b)]
    return out


def by_program(commands: Iterable[str]) -> list[str]:
    """Commands reordered round-robin by first word (`find` must not eat the budget)."""
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for command in commands:
        groups[(command.split() or [""])[0]].append(command)
    return interleave(groups.values())


class Labels:
    """The read-only labels an evaluator gives (commands, and programs on their own)."""

    def __init__(self, evaluate: Callable[[str], Decision]) -> None:
        self.evaluate = evaluate
        self._programs: dict[str, bool] = {}

    def read_only(self, command: str) -> bool:
        return is_read_only(self.evaluate(command))

    def allowed(self, command: str) -> bool:
        """Whether the verdict is ALLOW, whatever the retention (the secrets oracle's label)."""
        return self.evaluate(command).verdict is Verdict.ALLOW

    def program(self, name: str) -> bool:
        """Whether running `name` on its own is labelled read-only (cached)."""
        if name not in self._programs:
            self._programs[name] = self.read_only(name)
        return self._programs[name]


def policy_labels(policy: Policy, oracle: Oracle) -> Labels:
    """A policy's labels, evaluated as if run in the oracle's scratch workspace and home."""
    env = {"HOME": str(oracle.home)}

    def evaluate(command: str) -> Decision:
        return policy.evaluate(command, cwd=oracle.workspace, workspace=oracle.workspace,
                               env=env)

    return Labels(evaluate)


def check_labels(oracle: Oracle, labels: Labels, commands: Sequence[str], *,
                 budget_s: float = 300.0, jobs: int = 1,
                 progress: Callable[[Observation], None] | None = None) -> OracleReport:
    """Observe the `commands` that `labels` call read-only; execs are judged by `labels`.

    With an oracle that holds secrets, every command `labels` ALLOW is observed; one that
    is allowed without the read-only label is flagged only for a secret (it may write:
    the policy said so).
    """
    oracle.read_only_program = labels.program
    oracle.read_only_command = labels.read_only
    keep = labels.allowed if oracle.secrets else labels.read_only
    candidates = [c for c in commands if keep(c)]
    report = run_oracle(oracle, candidates, budget_s=budget_s, jobs=jobs, progress=progress)
    if not oracle.secrets:
        return report
    observations = tuple(
        o if not o.flags or labels.read_only(o.command) else dataclasses.replace(
            o, flags=tuple(e for e in o.flags if e.effect is Effect.SECRET))
        for o in report.observations)
    return dataclasses.replace(report, observations=observations)


# --- a policy over the corpora ------------------------------------------------------------

#: The corpus files the oracle reads from `../shared/corpora` (or `--corpora DIR`).
ORACLE_CORPORA = ("tldr.tsv", "nl2bash.tsv", "codex_cases.tsv")


def corpus_candidates(labels: Labels, corpus_dir: Path | None, *, secrets: bool = False
                      ) -> tuple[list[str], dict[str, str]]:
    """The probes and corpus commands the policy labels read-only, interleaved by source
    and program (so a short budget still samples each).

    With `secrets`: the commands it ALLOWS, and the lines that go looking for secrets
    (`_secrets`: hand-written ones, every reader with every operand, and the corpus
    commands with their path operand replaced) that it allows, as sources of their own.
    """
    from policylang.testing._probes import PROBES
    from policylang.testing.seeds import load_corpus_commands

    keep = labels.allowed if secrets else labels.read_only
    sources: dict[str, str] = {}
    groups = []
    texts: dict[str, Sequence[str]] = {"probes": PROBES}
    for name in ORACLE_CORPORA:
        texts[name] = load_corpus_commands(corpus_dir, files=(name,))
    if secrets:
        corpus = [c for name in ORACLE_CORPORA for c in texts[name] if keep(c)]
        texts = {"secret-probes": _secrets.SECRET_PROBES,
                 "secret-operands": _secrets.operand_lines(),
                 "secret-corpus": _secrets.corpus_lines(corpus),
                 "secret-option-globs": _secrets.option_value_lines(corpus), **texts}
    for name, lines in texts.items():
        commands = [c for c in lines if c not in sources and keep(c)]
        sources.update(dict.fromkeys(commands, name))
        groups.append(by_program(commands))
    return interleave(groups), sources


def option_probes(oracle: Oracle, labels: Labels, commands: Sequence[str]) -> list[str]:
    """Option probes (`_optionprobe`) for the programs that start `commands`, keeping
    those the labels call read-only; each program's help is read inside the sandbox.

    With an oracle that holds secrets, each valued option also gets a secret's path as
    its value (`--date-file=.env`), kept when the labels ALLOW it: an option that reads
    a file shows as a secret read."""
    from policylang.testing import _optionprobe
    from policylang.testing._probes import PROBES

    probes: list[str] = []
    examples = [c for c in commands if c not in PROBES]  # probes may write already
    for target, example in _optionprobe.probe_targets(examples).items():
        text = oracle.output_of(_optionprobe.help_command(target))
        probes += [p for p in _optionprobe.probes_for(example, text) if labels.read_only(p)]
        if oracle.secrets:
            lines = _secrets.option_lines(example, _optionprobe.valued_options(text),
                                          _secrets.OPTION_VALUES)
            probes += [p for p in lines if labels.allowed(p)]
    return probes


def secret_notes(oracle: Oracle, labels: Labels) -> tuple[str, ...]:
    """What the report says about the planted secrets: how many, and which ones the
    policy itself lets `cat` read (reading those is flagged all the same; a policy that
    means it can name them in a baseline, `secret PATH  # why`)."""
    files = [path for path in oracle.secrets if not path.startswith("$")]
    variables = [name for name in oracle.secrets if name.startswith("$")]
    readable = [path for path in files if labels.allowed(f"cat {oracle.spelled(path)}")]
    notes = [f"secrets: {len(files)} canary file(s) planted and {len(variables)} secret "
             "variable(s) set; a command is flagged `secret` when it reads a file or prints "
             "a token"]
    if readable:
        notes.append(f"secrets the policy itself lets `cat` read: {', '.join(readable)}")
    return tuple(notes)


def check_policy(path: Path, *, commands: Sequence[str] | None = None,
                 corpus_dir: Path | None = None, budget_s: float = 300.0,
                 timeout_s: float = 2.0, jobs: int = 1, option_probing: bool = True,
                 secrets: bool = False,
                 progress: Callable[[Observation], None] | None = None) -> OracleReport:
    """Run the oracle over the commands (default: probes and corpora) `path` labels read-only.

    With the corpora (no `commands`) and `option_probing`, every program that starts a
    read-only corpus command also gets one probe per option its `--help` says takes a
    value (`_optionprobe`). With `secrets`, the secrets oracle: canary secrets in the
    sandbox, every command the policy ALLOWS, and the secret-seeking lines of `_secrets`.

    Raises:
        SandboxUnavailableError: the sandbox cannot run here (nothing was run).
        RulesetError: the policy does not load.
    """
    from policylang.engine.policy import load_policy

    policy = load_policy(path)
    with Oracle(timeout_s=timeout_s, secrets=secrets) as oracle:
        labels = policy_labels(policy, oracle)
        sources: dict[str, str] = {}
        if commands is None:  # already filtered and ordered; check_labels keeps the order
            commands, sources = corpus_candidates(labels, corpus_dir, secrets=secrets)
            if option_probing:  # examples from the corpora: a generated line may just fail
                examples = [c for c in commands if not sources[c].startswith("secret-")]
                probes = option_probes(oracle, labels, examples)
                sources.update(dict.fromkeys(probes, "option-probes"))
                commands = interleave([probes, commands])
        report = check_labels(oracle, labels, commands, budget_s=budget_s, jobs=jobs,
                              progress=progress)
        notes = secret_notes(oracle, labels) if secrets else ()
    return OracleReport(candidates=report.candidates, observations=report.observations,
                        seconds=report.seconds, sources=sources, notes=notes,
                        label="allowed" if secrets else "read-only")


# --- the approval-width oracle ------------------------------------------------------------

#: What each kind of approval finding is called in the report.
APPROVAL_CATEGORIES = {Effect.SECRET: "secret", Effect.WRITE: "protected-write",
                       Effect.EXEC: "workspace-exec"}
#: Folders of the sandbox whose programs are the system's (not the workspace's).
_SYSTEM_PROGRAMS = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/libx32/")
#: Newly allowed commands run per approval, at most (probes and corpus lines interleaved).
PER_APPROVAL = 150


def _normal(path: str) -> str:
    return posixpath.normpath(posixpath.join(WORKSPACE, path))


class ProtectedJudge:
    """Whether a path the sandbox wrote (as it sees it) is protected: under a glob of
    `_approvals` (`.git/hooks/*`, `~/.bashrc` …), or a path the policy would refuse to
    `touch` (`touch -- PATH` denied: the engine's own protected paths). A git process's
    writes to the repository's other internals (`.git/index`, objects, refs) are its job.
    """

    def __init__(self, oracle: Oracle, evaluate: Callable[[str], Decision]) -> None:
        self.oracle = oracle
        self.evaluate = evaluate
        self._cache: dict[str, bool] = {}

    def __call__(self, path: str, *, by_git: bool) -> bool:
        path = _normal(path)
        if path == "/tmp" or path.startswith("/tmp/"):
            return False
        for inside, globs in ((WORKSPACE, _approvals.WORKSPACE_GLOBS),
                              (HOME, _approvals.HOME_GLOBS)):
            if path.startswith(inside + "/") and _approvals.is_target(
                    path[len(inside) + 1:], globs):
                return True
        if by_git and path.startswith(f"{WORKSPACE}/.git/"):
            return False
        if path not in self._cache:
            host = (str(self.oracle.host_path(path))
                    if path.startswith((WORKSPACE + "/", HOME + "/")) else path)
            verdict = self.evaluate(f"touch -- {shlex.quote(host)}").verdict
            self._cache[path] = verdict is Verdict.DENY
        return self._cache[path]


def baseline_of(observation: Observation) -> frozenset[tuple[str, str]]:
    """What the command the approver was asked about did: (effect, path) of its secret
    reads, writes (and the folders written in: a log file named by the hour) and execs."""
    keys: set[tuple[str, str]] = set()
    for event in observation.events:
        target = _normal(event.target)
        keys.add((str(event.effect), target))
        if event.effect is Effect.WRITE:
            keys.add(("write-in", posixpath.dirname(target)))
    return frozenset(keys)


def approval_flags(observation: Observation, approval: Sequence[str],
                   protected: ProtectedJudge,
                   baseline: frozenset[tuple[str, str]] = frozenset()) -> tuple[Event, ...]:
    """What makes a newly allowed command a finding: a secret read or printed (the
    oracle's own flags), a write (attempted) of a protected path, and a successful exec of
    a program outside the system folders that the approval itself does not name; unless
    the command the approver was asked about, or the approval on its own, did the same
    (`baseline_of`: `gcloud …` writes `~/.config/gcloud`, `pg_dump` reads `~/.pgpass`,
    whatever its arguments)."""
    named = {_normal(word) for word in approval if "/" in word}
    by_git = approval[0] == "git" or any(
        e.effect is Effect.EXEC and os.path.basename(e.target) == "git"
        for e in observation.events)
    flags = [e for e in observation.flags if e.effect is Effect.SECRET]
    for event in _unique(observation.events):
        program = _normal(event.target)
        workspace_exec = (event.effect is Effect.EXEC and program not in named
                          and not program.startswith(_SYSTEM_PROGRAMS))
        if workspace_exec or (event.effect is Effect.WRITE
                              and protected(event.target, by_git=by_git)):
            flags.append(event)
    return tuple(e for e in flags if not _in_baseline(e, baseline))


def _in_baseline(event: Event, baseline: frozenset[tuple[str, str]]) -> bool:
    target = _normal(event.target)
    return ((str(event.effect), target) in baseline
            or (event.effect is Effect.WRITE
                and ("write-in", posixpath.dirname(target)) in baseline))


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalRun:
    """One newly allowed command run: the approval that allows it, where it came from."""

    approval: str  # as the sandbox spells it
    source: str  # probes, corpus, corpus-variants, command
    origin: str  # the command the approver was asked about (its effects are not findings)
    observation: Observation  # its flags are the approval findings


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalReport:
    """The outcome of the approval-width oracle."""

    policy: Path
    suggestions: int  # distinct suggestions (or --approve rules)
    runnable: int  # of those, the ones whose program is installed here
    tried: int  # approvals whose newly allowed commands were worked out
    widening: int  # of those, the ones that newly allow at least one candidate
    runs: tuple[ApprovalRun, ...] = ()
    seconds: float = 0.0
    known: tuple[KnownFinding, ...] = ()
    notes: tuple[str, ...] = ()

    def _is_known(self, run: ApprovalRun) -> bool:
        return bool(self.known) and all(
            any(k.covers(event) for k in self.known) for event in run.observation.flags)

    @property
    def flagged(self) -> tuple[ApprovalRun, ...]:
        return tuple(r for r in self.runs if r.observation.flagged and not self._is_known(r))

    @property
    def known_flagged(self) -> tuple[ApprovalRun, ...]:
        return tuple(r for r in self.runs if r.observation.flagged and self._is_known(r))

    def reproduce(self, run: ApprovalRun) -> str:
        """The command line that checks this one command under this one approval."""
        return shlex.join(["python", "fuzz/oracle.py", str(self.policy), "--approvals",
                           "--approve", run.approval, "--command", run.observation.command,
                           "--no-option-probes"])

    def _render_run(self, run: ApprovalRun) -> list[str]:
        observation = run.observation
        status = "timed out" if observation.timed_out else f"exit {observation.returncode}"
        lines = [f"  approval `{run.approval}` (asked for {run.origin!r}) allows "
                 f"{observation.command!r} ({status}, {observation.seconds:.2f}s, "
                 f"{run.source})"]
        lines += [f"      {event.render()}" for event in _unique(observation.flags)]
        lines.append(f"      reproduce: {self.reproduce(run)}")
        return lines

    def render(self, *, examples: int = 8) -> str:
        timeouts = sum(r.observation.timed_out for r in self.runs)
        lines = [f"approval oracle: {self.suggestions} suggested approval(s), {self.runnable} "
                 f"of a program installed here; {self.tried} tried ({self.widening} newly "
                 f"allow a candidate), {len(self.runs)} newly allowed command(s) run in "
                 f"{self.seconds:.0f}s; {len(self.flagged)} flagged, {timeouts} timed out"]
        lines += self.notes
        known = self.known_flagged
        if known:
            lines.append(f"known: {len(known)} command(s) flagged only for known findings "
                         "(not counted)")
            for run in known[:examples]:
                lines += self._render_run(run)
        groups: dict[str, list[ApprovalRun]] = collections.defaultdict(list)
        for run in self.flagged:
            for effect in sorted({e.effect for e in run.observation.flags}):
                groups[APPROVAL_CATEGORIES.get(effect, str(effect))].append(run)
        for category, group in sorted(groups.items()):
            approvals = len({r.approval for r in group})
            lines.append(f"{category}: {len(group)} command(s) under {approvals} approval(s)")
            for run in group[:examples]:
                lines += self._render_run(run)
        return "\n".join(lines)


def _installed(oracle: Oracle, program: str) -> bool:
    """Whether the sandbox can run `program` (by name on its PATH, or a scratch path)."""
    if "/" in program:
        path = _normal(oracle.to_sandbox(program))
        try:
            return os.access(oracle.host_path(path), os.X_OK)
        except ValueError:
            return path.startswith(_SYSTEM_PROGRAMS) and os.access(path, os.X_OK)
    return shutil.which(program, path=_PATH) is not None


class _Planner:
    """Works out, for one approval at a time, the candidates it newly allows."""

    def __init__(self, oracle: Oracle, base: Policy, approved: Policy,
                 store: Approvals, corpus: Sequence[str], *, option_probing: bool) -> None:
        self.oracle = oracle
        self.store = store
        env = {"HOME": str(oracle.home)}

        def evaluate_base(command: str) -> Decision:
            return base.evaluate(command, cwd=oracle.workspace, workspace=oracle.workspace,
                                 env=env)

        def evaluate_approved(command: str) -> Decision:
            return approved.evaluate(command, cwd=oracle.workspace,
                                     workspace=oracle.workspace, env=env)

        self.evaluate_base = functools.lru_cache(maxsize=1 << 16)(evaluate_base)
        self.evaluate_approved = evaluate_approved
        self.corpus = corpus
        self.option_probing = option_probing
        self._help: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def options(self, words: Sequence[str]) -> tuple[list[str], list[str]]:
        """The valued long and short options the approval's program lists (cached)."""
        from policylang.testing import _optionprobe

        long: dict[str, None] = {}
        short: dict[str, None] = {}
        for target in _approvals.help_targets(words):
            if target not in self._help:
                text = self.oracle.output_of(self.oracle.to_sandbox(target))
                self._help[target] = (_optionprobe.valued_options(text),
                                      _optionprobe.valued_short_options(text))
            long.update(dict.fromkeys(self._help[target][0]))
            short.update(dict.fromkeys(self._help[target][1]))
        return list(long), list(short)

    def candidates(self, rule: str, given: Sequence[str] | None) -> list[tuple[str, str]]:
        """(command, source) the approval `rule` (host spelling) may newly allow."""
        from policylang.engine.approvals import rule_words

        words = rule_words(rule)
        lines: dict[str, list[str]] = {}
        examples = [rule]
        if given is not None:
            lines["command"] = list(given)
            examples += [c for c in given if _approvals.matching(words, [c])]
        else:
            corpus = _approvals.matching(words, self.corpus)
            lines["corpus"] = by_program(corpus)
            lines["corpus-variants"] = _approvals.corpus_variants(corpus)
            simple = [c for c in corpus if c.startswith(rule + " ") and "|" not in c
                      and ";" not in c and "&" not in c]
            examples += sorted(simple, key=len)[:1]
        if self.option_probing:
            long, short = self.options(words)
            lines["probes"] = interleave(
                [_approvals.operand_lines(e) for e in dict.fromkeys(examples)]
                + [_approvals.option_lines(e, long, short) for e in dict.fromkeys(examples)])
        return interleave([[(c, name) for c in group] for name, group in lines.items()])

    def newly_allowed(self, rule: str, candidates: Sequence[tuple[str, str]], *,
                      limit: int) -> list[tuple[str, str]]:
        """The candidates allowed with `rule` approved and not without it (at most `limit`)."""
        found: list[tuple[str, str]] = []
        self.store.add(rule, persist=False)
        try:
            for command, source in candidates:
                if len(found) >= limit:
                    break
                if (self.evaluate_approved(command).verdict is Verdict.ALLOW
                        and self.evaluate_base(command).verdict is not Verdict.ALLOW):
                    found.append((command, source))
        finally:
            self.store.remove(rule)
        return found


def suggestions_of(evaluate: Callable[[str], Decision], commands: Iterable[str]
                   ) -> dict[str, str]:
    """The distinct suggested approvals of the commands that ask, in order, each with the
    first command that suggests it (what the approver was asked about)."""
    found: dict[str, str] = {}
    for command in commands:
        decision = evaluate(command)
        if decision.verdict is Verdict.ASK and decision.suggested_rule:
            found.setdefault(decision.suggested_rule, command)
    return found


def check_approvals(path: Path, *, approve: Sequence[str] | None = None,
                    commands: Sequence[str] | None = None, corpus_dir: Path | None = None,
                    budget_s: float = 300.0, timeout_s: float = 2.0, jobs: int = 1,
                    option_probing: bool = True, per_approval: int = PER_APPROVAL,
                    progress: Callable[[Observation], None] | None = None
                    ) -> ApprovalReport:
    """The approval-width oracle: does an approval the engine suggests allow too much?

    The approvals tried are `approve` (as the sandbox spells paths), or else the distinct
    `suggested_rule`s of the `commands` (default: the corpora) that ask, of programs
    installed here, interleaved by program. For each, the candidates are the `commands`
    (default: the corpus lines where its words stand in a row, and those with a protected
    target or secret as their last path operand) and, with `option_probing`, probe lines
    (`_approvals`: the approval, and its shortest corpus example, followed by a protected
    target, a secret or the workspace program as an operand, after `-c`/`-e`/`--exec`-like
    options, and as the value of each valued option its `--help` lists). Those the policy
    allows with the approval and not without it (up to `per_approval`) run in the sandbox
    with canary secrets and protected files; `approval_flags` says which are findings.

    Raises:
        SandboxUnavailableError: the sandbox cannot run here (nothing was run).
        RulesetError: the policy does not load.
        ApprovalError: an `approve` rule cannot be split into words.
    """
    from policylang.engine.approvals import Approvals, rule_words
    from policylang.engine.policy import load_policy
    from policylang.testing.seeds import load_corpus_commands

    start = time.monotonic()
    deadline = start + budget_s
    base = load_policy(path, snapshot=False)
    store = Approvals(None)
    approved = load_policy(path, approvals=store, snapshot=False)
    with Oracle(timeout_s=timeout_s, secrets=True, approvals=True) as oracle:
        given = None if commands is None else [oracle.to_host(c) for c in commands]
        corpus = () if given is not None else load_corpus_commands(corpus_dir,
                                                                    files=ORACLE_CORPORA)
        planner = _Planner(oracle, base, approved, store, corpus,
                           option_probing=option_probing)
        if approve is not None:  # asked about the approval itself
            origins = {oracle.to_host(rule): oracle.to_host(rule) for rule in approve}
            for rule in origins:
                rule_words(rule)  # an unreadable rule is an error before anything runs
        else:
            origins = suggestions_of(planner.evaluate_base, given if given is not None
                                     else corpus)
        rules = list(origins)
        runnable = [r for r in rules if _installed(oracle, rule_words(r)[0])]
        groups: dict[str, list[str]] = collections.defaultdict(list)
        for rule in runnable:
            groups[rule_words(rule)[0]].append(rule)
        order = interleave(groups.values())
        judge = ProtectedJudge(oracle, planner.evaluate_base)
        seen: set[str] = set()
        runs: list[ApprovalRun] = []
        tried = widening = 0

        def one(rule: str, command: str, source: str,
                baseline: frozenset[tuple[str, str]]) -> ApprovalRun | None:
            if time.monotonic() >= deadline:
                return None
            observation = oracle.observe(command)
            flags = approval_flags(observation, rule_words(rule), judge, baseline)
            observation = dataclasses.replace(observation, flags=flags)
            if progress is not None:
                progress(observation)
            return ApprovalRun(approval=oracle.to_sandbox(rule), source=source,
                               origin=oracle.to_sandbox(origins[rule]),
                               observation=observation)

        pending: collections.deque[Future[ApprovalRun | None]] = collections.deque()

        def collect(keep: int) -> None:
            while len(pending) > keep:
                result = pending.popleft().result()
                if result is not None:
                    runs.append(result)

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for rule in order:
                if time.monotonic() >= deadline:
                    break
                tried += 1
                found = planner.newly_allowed(rule, planner.candidates(rule, given),
                                              limit=per_approval)
                widening += bool(found)
                if not found:
                    continue
                # what was asked, and the approval on its own: a line that fails early
                # in the read-only sandbox (`pg_dump db > out.sql`: the redirect) shows
                # little, and the program alone shows what it always does (read ~/.pgpass)
                baseline = frozenset().union(*(
                    baseline_of(oracle.observe(oracle.to_sandbox(asked)))
                    for asked in dict.fromkeys((origins[rule], rule))))
                for command, source in found:
                    sandboxed = oracle.to_sandbox(command)
                    if sandboxed in seen:
                        continue
                    seen.add(sandboxed)
                    collect(2 * max(1, jobs))
                    pending.append(pool.submit(one, rule, sandboxed, source, baseline))
            collect(0)
        notes = (f"canaries: {sum(1 for p in oracle.secrets if not p.startswith('$'))} "
                 f"secret file(s), {len(oracle.protected)} protected file(s) "
                 f"({', '.join(oracle.protected)}) and `{PROBE_VALUE}` in the workspace; "
                 "a newly allowed command is flagged when it reads a secret or prints its "
                 "token, writes a protected path, or runs a program from outside /usr",)
    return ApprovalReport(policy=path, suggestions=len(rules), runnable=len(runnable),
                          tried=tried, widening=widening, runs=tuple(runs),
                          seconds=time.monotonic() - start, notes=notes)


# --- command line -------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser, *, prefix: str = "") -> None:
    """The oracle's options (`prefix` keeps them apart inside `policylang fuzz`)."""
    from policylang.testing.campaign import parse_budget

    parser.add_argument(f"--{prefix}budget", dest="oracle_budget", type=parse_budget,
                        default=300.0, metavar="DURATION",
                        help="time budget for the oracle run (default 5m)")
    parser.add_argument(f"--{prefix}timeout", dest="oracle_timeout", type=parse_budget,
                        default=2.0, metavar="DURATION",
                        help="wall-clock limit per command (default 2s)")
    parser.add_argument(f"--{prefix}jobs", dest="oracle_jobs", type=int, default=1,
                        metavar="N", help="commands run at once (default 1)")
    parser.add_argument(f"--{prefix}show", dest="oracle_show", type=int, default=8,
                        metavar="N", help="examples printed per category (default 8)")
    parser.add_argument(f"--{prefix}known", dest="oracle_known", type=Path, metavar="FILE",
                        help="a baseline of known findings (`EFFECT PATTERN  # why` per "
                             "line): commands flagged only for those do not fail the run")
    parser.add_argument(f"--{prefix}no-option-probes", dest="oracle_option_probes",
                        action="store_false",
                        help="do not probe the valued options each program's --help lists")
    parser.add_argument(f"--{prefix}secrets", dest="oracle_secrets", action="store_true",
                        help="the secrets oracle: plant canary secrets in the sandbox, run "
                             "every allowed command and lines that look for secrets, and "
                             "flag each that reads one or prints its token")
    parser.add_argument(f"--{prefix}approvals", dest="oracle_approvals", action="store_true",
                        help="the approval-width oracle: approve each rule the engine "
                             "suggests, one at a time, run the commands it newly allows "
                             "(corpus lines and probes), and flag each that reads a secret, "
                             "writes a protected path or runs a program from the workspace")


def run_from_args(policy: Path, args: argparse.Namespace,
                  commands: Sequence[str] | None = None) -> int:
    """Run the oracle as `add_arguments` describes; print the report; 1 if any flagged."""
    from policylang.errors import PolicylangError

    known: tuple[KnownFinding, ...] = ()
    if args.oracle_known is not None:
        try:
            known = read_known(args.oracle_known)
        except (OSError, ValueError) as exc:
            print(f"dynamic oracle: error: {exc}", file=sys.stderr)
            return 2
    if args.oracle_approvals:
        return _run_approvals(policy, args, commands, known)
    if getattr(args, "approve", None):
        print("dynamic oracle: error: --approve needs --approvals", file=sys.stderr)
        return 2
    try:
        report = check_policy(policy, commands=commands, corpus_dir=args.corpora,
                              budget_s=args.oracle_budget, timeout_s=args.oracle_timeout,
                              jobs=args.oracle_jobs, option_probing=args.oracle_option_probes,
                              secrets=args.oracle_secrets)
    except (PolicylangError, OSError) as exc:
        print(f"dynamic oracle: error: {exc}", file=sys.stderr)
        return 2
    report = dataclasses.replace(report, known=known)
    print(report.render(examples=args.oracle_show), flush=True)
    return 1 if report.flagged else 0


def _run_approvals(policy: Path, args: argparse.Namespace, commands: Sequence[str] | None,
                   known: tuple[KnownFinding, ...]) -> int:
    from policylang.errors import PolicylangError

    try:
        report = check_approvals(policy, approve=getattr(args, "approve", None),
                                 commands=commands, corpus_dir=args.corpora,
                                 budget_s=args.oracle_budget, timeout_s=args.oracle_timeout,
                                 jobs=args.oracle_jobs,
                                 option_probing=args.oracle_option_probes)
    except (PolicylangError, OSError, ValueError) as exc:
        print(f"approval oracle: error: {exc}", file=sys.stderr)
        return 2
    report = dataclasses.replace(report, known=known)
    print(report.render(examples=args.oracle_show), flush=True)
    return 1 if report.flagged else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="fuzz/oracle.py",
        description="Run the commands a policy labels read-only (from the corpora, or "
                    "--command) in a bubblewrap sandbox under strace; flag every write, "
                    "network socket or program outside the read-only set (--secrets: "
                    "every allowed command, and every read of a planted secret; "
                    "--approvals: the commands each suggested approval newly allows, and "
                    "every secret read, protected write or workspace program run).")
    parser.add_argument("policy", type=Path, metavar="RULESET")
    parser.add_argument("--corpora", type=Path, metavar="DIR",
                        help="directory of tldr.tsv, nl2bash.tsv, codex_cases.tsv")
    parser.add_argument("--command", action="append", dest="commands", metavar="TEXT",
                        help="check this command instead of the corpora (repeatable)")
    parser.add_argument("--commands-file", type=Path, metavar="FILE",
                        help="check the commands in FILE (one a line) instead of the corpora")
    parser.add_argument("--probes", action="store_true",
                        help="check only the built-in probe commands")
    parser.add_argument("--approve", action="append", metavar="RULE",
                        help="with --approvals: try this approval instead of the engine's "
                             "suggestions (repeatable)")
    add_arguments(parser)
    args = parser.parse_args(argv)
    commands: list[str] | None = None
    if args.commands or args.commands_file or args.probes:
        from policylang.testing._probes import PROBES

        commands = list(args.commands or ())
        if args.commands_file:
            text = args.commands_file.read_text(encoding="utf-8")
            commands += [line for line in text.splitlines() if line.strip()]
        if args.probes:
            commands += PROBES
    return run_from_args(args.policy, args, commands)
