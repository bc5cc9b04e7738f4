"""Engine input: the explicit context of one evaluation; imports only the standard library.

The engine never reads `os.environ` or the process cwd on its own: `EvalContext.build`
does that once, at the boundary, so evaluations are deterministic given a context.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, kw_only=True)
class EvalContext:
    """Where a command would run: working directory, workspace root, home, environment.

    All paths are absolute and normalised. `real_workspace` and `real_home` are the same
    directories with symbolic links resolved ("" when no different): a protected path is
    protected under either spelling, since the engine checks both the lexical and the
    resolved form of every path (review H9: a workspace given as `/tmp/x` on macOS, where
    `/tmp` links to `/private/tmp`).
    """

    cwd: str
    workspace: str
    home: str
    env: Mapping[str, str] = field(default_factory=dict)
    real_workspace: str = ""
    real_home: str = ""
    # the working directory with links resolved ("" when no different): what a command
    # reads without naming it is read there (review CG5: a cwd given through a link into
    # `~/.ssh` made `grep -r k` read the keys while `.` was judged by the link's name)
    real_cwd: str = ""
    # the environment as a key of the decision cache: PATH, git's and ripgrep's variables
    # and the secret-named ones change decisions (a PATH entry into the workspace makes
    # `rg` the repository's), so a decision made under one environment is not another's
    env_items: frozenset[tuple[str, str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "env_items", frozenset(self.env.items()))

    def anchors(self) -> tuple[tuple[str, str], ...]:
        """(home, workspace) as given, then resolved if that differs."""
        given = (self.home, self.workspace)
        real = (self.real_home or self.home, self.real_workspace or self.workspace)
        return (given,) if real == given else (given, real)

    @classmethod
    def build(
        cls,
        *,
        cwd: str | os.PathLike[str] | None = None,
        workspace: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> EvalContext:
        """A context with the documented defaults.

        `cwd` defaults to `workspace` and vice versa, then both to the process cwd; home
        comes from `env["HOME"]`, then from the process environment.
        """
        cwd_s = None if cwd is None else os.fspath(cwd)
        ws_s = None if workspace is None else os.fspath(workspace)
        # one stands for the other: made absolute once, against the process cwd (review
        # CG4: a relative cwd alone was joined to itself, `proj` judged as `proj/proj`)
        same = cwd_s is None or ws_s is None
        if cwd_s is None and ws_s is None:
            cwd_s = ws_s = os.getcwd()
        elif cwd_s is None:
            cwd_s = ws_s
        elif ws_s is None:
            ws_s = cwd_s
        assert cwd_s is not None
        assert ws_s is not None
        environment = dict(env) if env is not None else {}
        home = environment.get("HOME") or os.environ.get("HOME") or os.path.expanduser("~")
        workspace_abs = _absolute(ws_s)
        home_abs = _absolute(home)
        cwd_abs = workspace_abs if same else _absolute(cwd_s, base=workspace_abs)
        return cls(
            cwd=cwd_abs,
            workspace=workspace_abs,
            home=home_abs,
            env=environment,
            real_workspace=_resolved(workspace_abs),
            real_home=_resolved(home_abs),
            real_cwd=_resolved(cwd_abs),
        )


def _resolved(path: str) -> str:
    """`path` with symbolic links resolved, or "" when that changes nothing."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return ""
    return "" if real == path else real


def _absolute(path: str, *, base: str | None = None) -> str:
    """`path` made absolute (a relative cwd is relative to the workspace) and normalised."""
    if not posixpath.isabs(path):
        path = posixpath.join(base or os.getcwd(), path)
    return posixpath.normpath(path)
