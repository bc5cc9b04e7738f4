"""The compiled engine: the hot modules built by mypyc from this same source, or the source.

`make native` (`scripts/build_native.py`) compiles the modules of `MODULES` with mypyc
into extension modules beside their source, and writes `_native.json`: for each module,
the digest, size and modification time of the source it was built from. The source stays
the reference: the compiled modules are that code, type-checked and translated to C, about
1.6 times faster on the median, and the whole test suite runs against them.

This module decides, once, when `policylang` is imported and before any of those modules
is, which of the two runs:

- the compiled modules, when all of them were built and every source file is still the
  one they were built from;
- otherwise the source, and `STATUS` says why. A compiled module whose source changed is
  never used: it would be the old code under the new name (a developer who edits
  `evaluate.py` and runs the tests must test the edit). Modules of one build call each
  other directly, in C, so it is all of them or none.

`POLICYLANG_PURE=1` chooses the source whatever was built (the tests compare both).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

ENV_PURE: Final = "POLICYLANG_PURE"
MANIFEST: Final = "_native.json"
#: the name of the library holding every compiled module's code (`policylang/<name>*.so`)
GROUP: Final = "policylang._native_group"

# The modules `policylang.evaluate` runs through, compiled together. Not the rules
# language (lark) nor the compiler's passes: they run once per policy load; nor
# `engine.snapshot`, whose unpickler subclasses C code (mypyc's build of it crashed).
MODULES: Final = (
    "policylang._frozen",
    "policylang.span",
    "policylang.decision",
    "policylang.compiler.paths",
    "policylang.compiler.tables",
    "policylang.compiler.tree",
    "policylang.shell._build",
    "policylang.shell._exposure",
    "policylang.shell._keywords",
    "policylang.shell._scan",
    "policylang.shell.braces",
    "policylang.shell.fragments",
    "policylang.shell.model",
    "policylang.shell.options",
    "policylang.shell.parse",
    "policylang.shell.plain",
    "policylang.shell.quoting",
    "policylang.shell.walk",
    "policylang.shell.wrappers",
    "policylang.engine._objects",
    "policylang.engine._rgtypes",
    "policylang.engine.approvals",
    "policylang.engine.cases",
    "policylang.engine.checks",
    "policylang.engine.composefiles",
    "policylang.engine.context",
    "policylang.engine.envpoison",
    "policylang.engine.evaluate",
    "policylang.engine.explain",
    "policylang.engine.gitconfig",
    "policylang.engine.gitrefs",
    "policylang.engine.gitstage",
    "policylang.engine.gocgo",
    "policylang.engine.infra",
    "policylang.engine.launchers",
    "policylang.engine.linewrites",
    "policylang.engine.linterconfig",
    "policylang.engine.paths",
    "policylang.engine.policy",
    "policylang.engine.prefixes",
    "policylang.engine.rules",
    "policylang.engine.subtree",
)

_log = logging.getLogger("policylang")
_PACKAGE: Final = Path(__file__).resolve().parent


def source_path(module: str) -> Path:
    """The source file of one of `MODULES`."""
    return _PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def extension_paths(module: str) -> list[Path]:
    """The compiled files that would be imported for `module`, if any."""
    stem = source_path(module).with_suffix("")
    return [
        p for p in built_files() if p.name.startswith(f"{stem.name}.") and p.parent == stem.parent
    ]


def source_stamp(path: Path) -> dict[str, object]:
    """What the manifest records of a source file."""
    data = path.read_bytes()
    info = path.stat()
    return {
        "sha256": hashlib.sha256(data).hexdigest(),
        "size": info.st_size,
        "mtime_ns": info.st_mtime_ns,
    }


def _unchanged(path: Path, recorded: object) -> bool:
    """Whether `path` is the source a module was compiled from: same size and time
    (a stat), else the same digest (a copy, a checkout that touched it)."""
    if not isinstance(recorded, dict):
        return False
    try:
        info = path.stat()
        if info.st_size == recorded.get("size") and info.st_mtime_ns == recorded.get("mtime_ns"):
            return True
        return hashlib.sha256(path.read_bytes()).hexdigest() == recorded.get("sha256")
    except OSError:
        return False


def _source_asked() -> bool:
    """Whether `POLICYLANG_PURE` asks for the source (`1`, `yes`…; not `0` or empty)."""
    return os.environ.get(ENV_PURE, "").strip().lower() not in ("", "0", "no", "false", "off")


def _why_not_compiled(modules: Sequence[str]) -> str | None:
    """None when the compiled modules may be used; else the reason they may not."""
    if _source_asked():
        return f"{ENV_PURE} is set"
    built = [m for m in modules if extension_paths(m)]
    if not built:
        return "not compiled (`make native` builds the compiled engine)"
    try:
        manifest = json.loads((_PACKAGE / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"compiled modules without a readable {MANIFEST}: rebuild with `make native`"
    if not isinstance(manifest, dict) or manifest.get("python") != sys.version:
        return "compiled for another Python: rebuild with `make native`"
    recorded = manifest.get("modules")
    if not isinstance(recorded, dict):
        return f"{MANIFEST} lists no modules: rebuild with `make native`"
    missing = [m for m in modules if m not in built or m not in recorded]
    if missing:
        return f"{missing[0]} was not compiled: rebuild with `make native`"
    changed = [m for m in modules if not _unchanged(source_path(m), recorded[m])]
    if changed:
        relative = source_path(changed[0]).relative_to(_PACKAGE.parent)
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        return f"{relative}{more} changed since the build: rebuild with `make native`"
    return None


@functools.cache
def built_files() -> tuple[Path, ...]:
    """Every compiled file in the package and its subpackages (a build's modules, its
    library, and any left by an older build whose list of modules differed), looked for
    once."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    folders = {_PACKAGE, *(p.parent for p in _PACKAGE.glob("*/__init__.py"))}
    found: list[Path] = []
    for folder in sorted(folders):
        with os.scandir(folder) as entries:
            found.extend(Path(e.path) for e in entries if e.name.endswith(suffixes))
    return tuple(sorted(found))


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the package's modules from source when the compiled file beside them may
    not be used: all of them (`chosen` empty), or those not in `chosen`."""

    def __init__(self, chosen: Sequence[str]) -> None:
        self.chosen = frozenset(chosen)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("policylang.") or fullname in self.chosen:
            return None
        source = source_path(fullname)
        if not source.is_file() or not extension_paths(fullname):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _select() -> tuple[bool, str]:
    built = built_files()
    reason = _why_not_compiled(MODULES)
    if reason is None:
        # (the finder keeps files an older build left for other modules from being used)
        sys.meta_path.insert(0, _SourceFinder(MODULES))
        return True, "compiled (mypyc)"
    if built:
        # compiled files exist but may not be used: keep the import system from them
        sys.meta_path.insert(0, _SourceFinder(()))
        if not _source_asked():  # a stale or broken build: say so, once
            _log.warning("policylang runs its engine from source: %s", reason)
    return False, f"source ({reason})"


#: whether the engine's modules are the compiled ones, and a line saying which run and why
COMPILED, STATUS = _select()
