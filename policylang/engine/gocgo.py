"""Engine helper: whether an approved `go` verb reaches a C compiler (review GP6).

`go build`, `go vet`, `go install`, `go test`, `go run`, `go generate` and `go list
-compiled|-export` run cgo on every package that has `import "C"`, which hands the
preamble to gcc: `#include "/home/u/.aws/credentials"` prints the secret in gcc's error,
as for an approved `gcc` (`compiler-reads-sources`, a locked ask). The Go assembler
reads the `#include`s of `.s` files the same way, and a `.swig` file makes go run SWIG
(its `%include`s) and then cgo. So where the workspace holds such a package or file the
verb asks (no approval covers it, as none covers compiling); a pure Go tree keeps its
approvals. The scan is textual and cheap: any `"C"` (or raw `C`) import path in a `.go`
file counts, whatever build tags say; a tree too large to look through, or a file too
large to read, counts too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Final

from policylang.engine.gitconfig import read_regular
from policylang.engine.subtree import scan

# the verbs that compile the packages they name (and their tests, tools, generators)
_COMPILING: Final = frozenset({"build", "vet", "install", "test", "run", "generate"})
# `go list` builds with these: `-compiled` runs cgo, `-export` compiles; `-test` is
# judged with them (a test package's files); `-json=Fields` naming them counts too (go
# 1.19 does not build for them; the scan does not tell versions apart)
_LIST_BUILDS: Final = re.compile(r"--?(?:compiled|export|test)(?:=.*)?")
_LIST_FIELDS: Final = re.compile(r"--?json=.*(?:Compiled|Export|Cgo).*")
# Go's own assembly, whose `#include`s the Go assembler reads in any package, and SWIG's
# interfaces (a package's C, C++, `.S` … files are compiled only with cgo, which its `.go`
# files then import; a `.c` file beside pure Go is an error, no compile)
_ASSEMBLY: Final = re.compile(r".*\.(?:s|swig|swigcxx)")
# an import of the pseudo-package "C" (as `"C"` or `` `C` ``), read loosely: any such
# string in a Go file counts
_IMPORT_C: Final = re.compile(rb"[\"`]C[\"`]")
_BUDGET: Final = 20000  # entries of the tree listed; more asks
_MAX_GO_BYTES: Final = 1024 * 1024


def compiles(words: Sequence[str | None]) -> str | None:
    """The words of a `go` line (after `go`) that compile its packages (`build`, `list
    -compiled`), None for a line that compiles nothing; a word not literal counts."""
    operands = [w for w in words if w is None or not w.startswith("-")]
    if not operands:
        return None
    verb = operands[0]
    if verb is None:
        return "a word that is not literal"
    if verb in _COMPILING:
        return f"go {verb}"
    if verb != "list":
        return None
    for word in words:
        if word is None:
            return "a word that is not literal"
        if _LIST_BUILDS.fullmatch(word) or _LIST_FIELDS.fullmatch(word):
            return f"go list {word}"
    return None


def cgo_file(root: str) -> str | None:
    """The first file below `root` that makes go run cgo, gcc or the assembler's
    includes, or why the tree cannot be looked through; None for a pure Go tree."""
    found = scan(root, hidden=True, budget=_BUDGET, skip=frozenset({".git"}))
    if not found.complete:
        return f"{root} (too many files to look through)"
    for path in found.entries:
        name = os.path.basename(path)
        if _ASSEMBLY.fullmatch(name):
            return path
        if name.endswith(".go") and _imports_c(path):
            return path
    return None


def _imports_c(path: str) -> bool:
    """Whether a `.go` file may import "C": one that cannot be read counts, a link too
    (go follows it to a file this scan does not read); a folder named `x.go` is none."""
    if os.path.islink(path):
        return True
    if not os.path.isfile(path):
        return False
    data = read_regular(path, _MAX_GO_BYTES + 1)
    if data is None or len(data) > _MAX_GO_BYTES:
        return True
    return _IMPORT_C.search(data) is not None


def env_file(home: str | None, env: Mapping[str, str]) -> str | None:
    """go's user env file, which `go env -w` writes and every go command reads: `GOENV`
    (None where `off`), else `go/env` in `XDG_CONFIG_HOME` or `$HOME/.config` (Go's
    `os.UserConfigDir`; review GT5)."""
    named = env.get("GOENV")
    if named:
        return None if named == "off" else named
    config = env.get("XDG_CONFIG_HOME") or (os.path.join(home, ".config") if home else "")
    return os.path.join(config, "go", "env") if config else None


def has_settings(path: str) -> bool:
    """Whether go's env file at `path` sets anything (a `KEY=VALUE` line); one that
    cannot be read, or is too large, counts (review GT5)."""
    if not os.path.lexists(path):
        return False
    if os.path.isdir(path):
        return False
    data = read_regular(path, _MAX_GO_BYTES + 1)
    if data is None or len(data) > _MAX_GO_BYTES:
        return True
    return any(b"=" in line for line in data.splitlines() if not line.lstrip().startswith(b"#"))
