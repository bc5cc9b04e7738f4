"""Snapshots of compiled policies: a process that loads an unchanged policy skips the work.

A hook runs one process per tool call, and loading the default policy (importing the rules
language, parsing, compiling, running the inline expectations) was about half of such a
call. A snapshot is that compiled policy, pickled, in this user's cache folder
(`cache_dir()`: `$POLICYLANG_CACHE_DIR`, else `$XDG_CACHE_HOME/policylang/snapshots`, else
`~/.cache/policylang/snapshots`):

    <cache>/<file>.<key>.policylang-snapshot

It is used only while it provably describes the same policy: its header names the
snapshot format, the Python version, a digest of policylang's own engine code and of the
tree-sitter bindings, the paths the layers were loaded as, and every file the loader read
(policy files, includes, arity files) with a digest of its text. Each of those files is
read again and compared; anything different, and the policy is compiled from its text as
before and the snapshot rewritten.

Those checks tell a stale snapshot from a fresh one; they cannot tell a forged one, since
anyone can compute the digests. So snapshots are kept out of reach of the agent: not
beside the policy, whose folder may be in the workspace (review L1: a snapshot planted
there by a sandboxed command ran its code in the next hook process, on the host), but in
a folder and a file that belong to this user (or to root), that no one else may write,
and that the default ruleset protects from writes. And they are read with an unpickler
that builds nothing but policylang's own data (`_SnapshotUnpickler`), so even a forged
one cannot run code.

Set `POLICYLANG_SNAPSHOTS=0` (or pass `snapshot=False`) to neither read nor write them. A
snapshot that cannot be used is reported in the log, and the same policy is compiled
instead.
"""

from __future__ import annotations

import copyreg
import dataclasses
import enum
import functools
import hashlib
import importlib.util
import io
import json
import logging
import os
import pickle
import re
import stat
import sys
import tempfile
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from policylang import _native
from policylang._frozen import written_init
from policylang.compiler.tree import CompiledPolicy
from policylang.rules.files import SourceInput, digest_text, read_policy_file

_log = logging.getLogger(__name__)

FORMAT = 1
SUFFIX = ".policylang-snapshot"
ENV_SWITCH = "POLICYLANG_SNAPSHOTS"
CACHE_ENV = "POLICYLANG_CACHE_DIR"
_MAGIC = b"policylang-snapshot "
_MAX_HEADER = 1 << 20
KEEP = 8  # snapshots kept per policy file (one per set of layers it was loaded with)
# the parts of the package whose code decides what a compiled policy is and does
_CODE_FOLDERS = ("rules", "compiler", "engine", "shell")
_CODE_SUFFIXES = (".py", ".lark", ".toml")  # arity.toml is compiled in (review AX9)
_BINDINGS = ("tree_sitter", "tree_sitter_bash")


def _proxy(mapping: dict[Any, Any]) -> Mapping[Any, Any]:
    return types.MappingProxyType(mapping)


def _reduce_proxy(proxy: types.MappingProxyType[Any, Any]) -> tuple[Any, ...]:
    return _proxy, (dict(proxy),)


def _blank(cls: object) -> Any:  # what a snapshot gives: checked
    """An instance of a policylang dataclass whose fields `_fill` sets next.

    Every dataclass of a snapshot is stored this way (`_reduce_dataclass`): the compiled
    engine's classes (`policylang._native`) are frozen without slots, and pickle's own
    way (`__setstate__`, which assigns) fails on them; `object.__setattr__` sets a frozen
    field in both builds. Made first, filled after, as pickle does, so that a structure
    that refers back to an object (or is deep) is read as it was written.
    """
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
        raise pickle.UnpicklingError(f"a snapshot may not make {cls!r}")
    return cls.__new__(cls)


def _fill(obj: object, values: object) -> None:
    """Set the fields of `_blank`'s instance, in declaration order."""
    fields = dataclasses.fields(obj)  # type: ignore[arg-type]  # (a TypeError if not one)
    if not isinstance(values, tuple) or len(values) != len(fields):
        raise pickle.UnpicklingError(f"a snapshot's {type(obj).__name__} has other fields")
    for field, value in zip(fields, values, strict=True):
        object.__setattr__(obj, field.name, value)


def _built(cls: object, values: object) -> Any:  # what a snapshot gives: checked
    """An instance of a policylang dataclass whose `__init__` is written out, from its
    fields in declaration order.

    A compiled class of that kind makes no blank instance (its `__new__` runs the
    `__init__`), so it is built by its constructor, which only stores the values. These are
    small values (spans, words, reasons) that never refer back to what holds them, so
    building them whole from values read before them loses nothing.
    """
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls) or not written_init(cls):
        raise pickle.UnpicklingError(f"a snapshot may not build {cls!r}")
    fields = dataclasses.fields(cls)
    if not isinstance(values, tuple) or len(values) != len(fields):
        raise pickle.UnpicklingError(f"a snapshot's {cls.__name__} has other fields")
    return cls(**{field.name: value for field, value in zip(fields, values, strict=True)})


def _reduce_dataclass(obj: Any) -> tuple[Any, ...]:
    values = tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
    if written_init(type(obj)):
        return _built, (type(obj), values)
    return _blank, (type(obj),), values, None, None, _fill


def _dataclasses() -> list[type]:
    """Every dataclass policylang's loaded modules define (those a policy can hold)."""
    found: list[type] = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != "policylang" or module is None:
            continue
        for value in list(vars(module).values()):
            if (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == name
            ):
                found.append(value)
    return found


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A compiled policy read back, with what loading it from text had reported."""

    policy: CompiledPolicy
    warnings: tuple[str, ...]  # rendered warning diagnostics, logged again on each load
    checked: bool  # whether the inline expectations were run and passed
    inputs: tuple[str, ...] = ()  # every file the loader read, as recorded


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "no", "false", "off")


def cache_dir() -> Path:
    """This user's folder for snapshots: `$POLICYLANG_CACHE_DIR`, else
    `$XDG_CACHE_HOME/policylang`, else `~/.cache/policylang`."""
    chosen = os.environ.get(CACHE_ENV) or os.environ.get("XDG_CACHE_HOME")
    base = Path(chosen) if chosen else Path.home() / ".cache"
    return (base if os.environ.get(CACHE_ENV) else base / "policylang") / "snapshots"


def _home_missing() -> bool:
    """Whether the snapshot folder would be made below a home folder that is not there.

    Making `~/.cache/policylang` with its parents had made the home itself: a run with
    `HOME=/nonexistent/home` left a `/nonexistent` folder behind, which then changed what
    later runs judging that home found on disk. A folder chosen by name
    (`$POLICYLANG_CACHE_DIR`, `$XDG_CACHE_HOME`) is made as asked."""
    if os.environ.get(CACHE_ENV) or os.environ.get("XDG_CACHE_HOME"):
        return False
    return not Path.home().is_dir()


def snapshot_path(layers: Sequence[str]) -> Path:
    """Where the snapshot of these layers (paths as given, first the main file) lives.

    Not beside the policy: a policy layer in the workspace has a folder that the agent's
    commands (and the sandbox) may write, and a snapshot written there ran its code in
    the next process that loaded the policy, outside any sandbox (review L1).
    """
    first = Path(layers[0])
    key = hashlib.sha256(json.dumps(_layer_key(layers)).encode()).hexdigest()[:16]
    return cache_dir() / f"{first.name}.{key}{SUFFIX}"


def _layer_key(layers: Sequence[str]) -> list[list[str]]:
    # names as given are what reasons show (`rulesets/x.policy:3:1`), so they are part of
    # the policy; absolute paths tell apart two folders that use the same relative name
    return [[name, os.path.abspath(name)] for name in layers]


@functools.cache
def code_digest() -> str:
    """A digest of the engine's code and of the tree-sitter bindings it parses with."""
    package = Path(__file__).resolve().parents[1]
    # compiled classes pickle otherwise than their source's: a snapshot is one build's
    digest = hashlib.sha256(f"{FORMAT} {sys.version} {_native.COMPILED}".encode())
    for path in digested_files(package):
        digest.update(str(path.relative_to(package)).encode() + b"\0")
        digest.update(path.read_bytes())
    for name in _BINDINGS:
        digest.update(_binding_identity(name).encode())
    return digest.hexdigest()


def digested_files(package: Path) -> list[Path]:
    """The files of the package whose change makes every snapshot stale: the code and
    the data the compiler reads (`arity.toml`), not the parser's cache of the grammar."""
    files = sorted(p for p in package.glob("*.py"))
    for folder in _CODE_FOLDERS:
        files.extend(sorted(p for p in (package / folder).rglob("*") if p.suffix in _CODE_SUFFIXES))
    return files


def _binding_identity(name: str) -> str:
    """Name, size and modification time of a binding's shared libraries (a version check
    through `importlib.metadata` would cost 50 ms, the very time snapshots save)."""
    spec = importlib.util.find_spec(name)
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    parts = [name]
    for folder in folders:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            if entry.name.endswith(".so") or entry.name.endswith(".pyd"):
                info = entry.stat()
                parts.append(f"{entry.name}:{info.st_size}:{info.st_mtime_ns}")
    return "|".join(parts)


def read(layers: Sequence[str]) -> Snapshot | None:
    """The snapshot of these layers if one exists and still describes them, else None."""
    path = snapshot_path(layers)
    try:
        with open(path, "rb") as handle:
            if not _trusted(path, os.fstat(handle.fileno())):
                _log.warning("ignoring policy snapshot %s: writable by others", path)
                return None
            blob = handle.read()
    except FileNotFoundError:
        return None
    except OSError as error:
        _log.info("cannot read policy snapshot %s: %s", path, error)
        return None
    try:
        return _decode(blob, layers)
    except _Stale as stale:
        _log.info("policy snapshot %s is out of date: %s", path, stale)
    except Exception:  # a damaged snapshot only costs a compile
        _log.warning("ignoring damaged policy snapshot %s", path, exc_info=True)
    return None


class _Stale(Exception):
    pass


def _decode(blob: bytes, layers: Sequence[str]) -> Snapshot:
    if not blob.startswith(_MAGIC):
        raise _Stale("not a snapshot")
    end = blob.find(b"\n", 0, _MAX_HEADER)
    if end < 0:
        raise _Stale("no header")
    header = json.loads(blob[len(_MAGIC) : end])
    if header.get("format") != FORMAT:
        raise _Stale("another snapshot format")
    if header.get("layers") != _layer_key(layers):
        raise _Stale("other layers")
    if header.get("code") != code_digest():
        raise _Stale("policylang's code or the tree-sitter bindings changed")
    for path, resolved, sha in header["inputs"]:
        if not _unchanged(SourceInput(path=path, resolved=resolved, sha256=sha)):
            raise _Stale(f"{path} changed")
    policy = _SnapshotUnpickler(io.BytesIO(blob[end + 1 :])).load()
    if not isinstance(policy, CompiledPolicy) or list(policy.sources) != header["sources"]:
        raise _Stale("the snapshot holds something else")
    return Snapshot(
        policy=policy,
        warnings=tuple(header["warnings"]),
        checked=bool(header["checked"]),
        inputs=tuple(str(path) for path, _, _ in header["inputs"]),
    )


# what a snapshot may name besides the classes policylang defines in these packages
_DATA_PACKAGES = ("policylang.compiler.", "policylang.shell.", "policylang.rules.")
_DATA_MODULES = frozenset({"policylang.decision", "policylang.span"})
_FUNCTIONS = frozenset(
    {
        ("re", "_compile"),
        ("policylang.engine.snapshot", "_proxy"),
        ("policylang.engine.snapshot", "_blank"),
        ("policylang.engine.snapshot", "_fill"),
        ("policylang.engine.snapshot", "_built"),
    }
)
_CHECKS = "policylang.compiler.checks"  # the built-in checks, named by rules


class _SnapshotUnpickler(pickle.Unpickler):
    """An unpickler that builds only policylang's data: its classes, its built-in check
    functions, compiled regexes and read-only mappings, and nothing else.

    Defence in depth for review L1: whoever can write a snapshot could otherwise make its
    loading call any function (`os.system`). A forged snapshot can still describe some
    other policy, which is why snapshots live where only this user writes (`cache_dir`).
    """

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("re", "_compile"):
            return _compile_plain
        if (module, name) == ("builtins", "getattr"):
            return _enum_member  # how some Python releases (3.11.2) store an enum member
        if (module, name) in _FUNCTIONS:
            return super().find_class(module, name)
        if "." in name or not (module in _DATA_MODULES or module.startswith(_DATA_PACKAGES)):
            raise pickle.UnpicklingError(f"a snapshot may not load `{module}.{name}`")
        found = super().find_class(module, name)
        # defined there, not imported (`subprocess.Popen` is a class too)
        if getattr(found, "__module__", None) != module:
            raise pickle.UnpicklingError(f"`{module}.{name}` is not policylang's own")
        if isinstance(found, type) or (module == _CHECKS and callable(found)):
            return found
        raise pickle.UnpicklingError(f"a snapshot may not call `{module}.{name}`")


def _enum_member(cls: object, name: object) -> enum.Enum:
    """`getattr(cls, name)` for a member of one of policylang's enums, and nothing else.

    Some Python 3.11 releases pickle an enum member as `getattr(EnumClass, "NAME")`
    (3.11.2, Debian 12's, does; 3.11.7 stores it by value): a snapshot written by one of
    them names `builtins.getattr`, which reaches any attribute of anything, so only this
    narrow form of it is given (review DU8: every snapshot there was refused as damaged,
    and each start compiled the policy again).
    """
    if (
        not isinstance(cls, type)
        or not issubclass(cls, enum.Enum)
        or not isinstance(name, str)
        or name not in cls.__members__
    ):
        raise pickle.UnpicklingError(f"a snapshot may not look up {name!r} on {cls!r}")
    return cls.__members__[name]


_REGEX_FLAGS = re.IGNORECASE | re.DOTALL | re.UNICODE | re.MULTILINE


def _compile_plain(pattern: object, flags: object) -> re.Pattern[str]:
    """`re.compile` for the regexes a compiled policy holds: flags that print (`re.DEBUG`
    wrote to the hook's stdout, review M8) or change the syntax are refused."""
    if not isinstance(pattern, str) or not isinstance(flags, int) or flags & ~_REGEX_FLAGS:
        raise pickle.UnpicklingError("a snapshot regex with unexpected flags")
    return re.compile(pattern, flags)


def _unchanged(source: SourceInput) -> bool:
    try:
        text = read_policy_file(Path(source.path))
        resolved = str(Path(source.path).resolve())
    except OSError:
        return False
    return resolved == source.resolved and digest_text(text) == source.sha256


def _trusted(path: Path, info: os.stat_result) -> bool:
    """Owned by this user or root, a regular file, and neither it nor its folder writable
    by anyone else (the folder: a file could be swapped in)."""
    try:
        folder = os.stat(path.parent)
    except OSError:
        return False
    owners = {os.getuid(), 0}
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_uid in owners
        and folder.st_uid in owners
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        and not folder.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def write(
    layers: Sequence[str],
    policy: CompiledPolicy,
    inputs: Sequence[SourceInput],
    warnings: Sequence[str],
    *,
    checked: bool,
) -> Path | None:
    """Store a snapshot (atomically); None when the folder cannot be written."""
    path = snapshot_path(layers)
    if _home_missing():
        _log.info("no policy snapshot: the home folder %s does not exist", Path.home())
        return None
    header = {
        "format": FORMAT,
        "layers": _layer_key(layers),
        "code": code_digest(),
        "inputs": [[i.path, i.resolved, i.sha256] for i in inputs],
        "sources": list(policy.sources),
        "warnings": list(warnings),
        "checked": checked,
    }
    pickler_table = copyreg.dispatch_table.copy()
    pickler_table[types.MappingProxyType] = _reduce_proxy
    for cls in _dataclasses():
        pickler_table[cls] = _reduce_dataclass
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(_MAGIC + json.dumps(header).encode() + b"\n")
                pickler = pickle.Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL)
                pickler.dispatch_table = pickler_table
                pickler.dump(policy)
            os.chmod(temporary, 0o600)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        _prune(path)
    except OSError as error:
        _log.info("cannot write policy snapshot %s: %s", path, error)
        return None
    except Exception:  # a snapshot is only an optimisation: loading goes on without it
        _log.warning("cannot write policy snapshot %s", path, exc_info=True)
        return None
    return path


def _prune(kept: Path) -> None:
    """Keep only the `KEEP` newest snapshots of the same first file: each set of layers
    (`--policy` with another user file, a test's temporary layer) has its own, and a
    folder beside a shipped policy must not fill up with them."""

    def first_file(name: str) -> str:
        return name[: -len(SUFFIX)].rpartition(".")[0]

    siblings: list[tuple[float, Path]] = []
    try:
        for entry in os.scandir(kept.parent):
            if entry.name.endswith(SUFFIX) and first_file(entry.name) == first_file(kept.name):
                siblings.append((entry.stat().st_mtime, Path(entry.path)))
        siblings.sort(reverse=True)
        for _, old in siblings[KEEP:]:
            if old != kept:
                old.unlink(missing_ok=True)
    except OSError as error:  # pruning is housekeeping: the snapshot itself was written
        _log.info("cannot prune policy snapshots beside %s: %s", kept, error)


__all__ = ["FORMAT", "Snapshot", "code_digest", "enabled", "read", "snapshot_path", "write"]
