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

    All paths are absolute and normalised. `env` is only consulted for `OLDPWD`.
    """

    cwd: str
    workspace: str
    home: str
    env: Mapping[str, str] = field(default_factory=dict)

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
        return cls(
            cwd=_absolute(cwd_s, base=workspace_abs),
            workspace=workspace_abs,
            home=_absolute(home),
            env=environment,
        )


def _absolute(path: str, *, base: str | None = None) -> str:
    """`path` made absolute (a relative cwd is relative to the workspace) and normalised."""
    if not posixpath.isabs(path):
        path = posixpath.join(base or os.getcwd(), path)
    return posixpath.normpath(path)
