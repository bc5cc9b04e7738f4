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


# tools built on go/packages, which runs `go list -compiled=true -export=true` for any
# tool that needs types or syntax: cgo, gcc and the assembler run as for `go vet`
# (review GW3); `dlv` and `gotestsum` run `go build` / `go test`, `tinygo` cgo itself.
# Review HC5 added the loaders mockery, enumer, impl, callgraph, bodyclose, go-licenses
# (and other common analyzers and generators: moq, counterfeiter, the Kubernetes
# generators, easyjson, msgp, gomarkdoc), the builders goreleaser, ko, mage, air,
# garble, gox, gomobile, and the test runners ginkgo, richgo, goconvey, goveralls,
# gocov, gremlins. No list is complete: `go-*` names count too (`is_packages_tool`)
PACKAGES_TOOLS: Final = frozenset(
    {"staticcheck", "gopls", "golangci-lint", "govulncheck", "errcheck", "revive", "dlv",
     "gosec", "gocritic", "go-critic", "ineffassign", "unparam", "nilaway", "deadcode",
     "gotestsum", "stringer", "wire", "gqlgen", "mockgen", "shadow", "fieldalignment",
     "nilness", "unused", "structslop", "exhaustive", "gomodguard", "tinygo",
     # review HC5
     "mockery", "enumer", "impl", "callgraph", "bodyclose", "go-licenses", "goreleaser",
     "ko", "ginkgo", "richgo", "moq", "counterfeiter", "controller-gen", "deepcopy-gen",
     "client-gen", "conversion-gen", "defaulter-gen", "informer-gen", "lister-gen",
     "openapi-gen", "register-gen", "applyconfiguration-gen", "easyjson", "msgp",
     "gomarkdoc", "goda", "mage", "air", "garble", "gox", "gobind", "gomobile",
     "gopherjs", "goconvey", "goveralls", "gocov", "courtney", "gremlins", "unconvert",
     "gotype", "guru", "gorename", "gomvpkg", "fillstruct", "fillswitch", "keyify",
     "structlayout", "gosimple", "stylecheck", "interfacer", "maligned", "varcheck",
     "structcheck", "exportloopref", "wrapcheck", "errorlint", "exhaustruct", "forbidigo",
     "ireturn", "nilerr", "noctx", "paralleltest", "rowserrcheck", "sqlclosecheck",
     "thelper", "tparallel", "wastedassign", "contextcheck", "containedctx", "errchkjson",
     "errname", "forcetypeassert", "musttag", "perfsprint", "testifylint", "usestdlibvars",
     "copyloopvar", "intrange", "fatcontext", "spancheck", "sloglint", "zerologlint",
     "ent", "entc", "gotip"}
)  # fmt: skip
# a `go-…` or `go_…` program is taken for a Go tool that may load packages (review HC5:
# `go-licenses`, `go-callvis`, `go-mutesting`, `go-arch-lint` …), judged as those are
_GO_TOOL_NAME: Final = re.compile(r"go[-_].+")
# `gotip` is go itself (the development toolchain's wrapper: review HC5)
GO_PROGRAMS: Final = frozenset({"go", "gotip"})


def is_packages_tool(program: str) -> bool:
    """Whether `program` is go, or a tool that may load, build or test Go packages (its
    name listed, or `go-…`): its line is judged by `compiles` / `tool_loads`."""
    return (
        program in GO_PROGRAMS or program in PACKAGES_TOOLS
        or _GO_TOOL_NAME.fullmatch(program) is not None
    )


# the words that only ask a tool for its help or version
_TOOL_HELP: Final = frozenset(
    {"version", "help", "-h", "--help", "-help", "-version", "--version", "-V", "-v"}
)


def tool_loads(program: str, words: Sequence[str | None]) -> str | None:
    """What a go/packages tool's line runs (`staticcheck ./...`: `go list -compiled
    -export`), None for a line that only asks for its help or version (review GW3)."""
    if words and all(word in _TOOL_HELP for word in words):
        return None
    return f"{program} (`go list -compiled -export`)"


# `-mod=mod` fetches the modules missing imports name, `-modfile` reads another go.mod
# that may require any (review GW2); in any spelling, but `-mod=vendor` (the vendor
# folder, scanned) and `-mod=readonly` (the default)
_MOD_OPTION: Final = re.compile(r"--?mod(?:file)?(?:=.*)?", re.S)
_MOD_KEPT: Final = re.compile(r"--?mod=(?:vendor|readonly)")
# go.mod's directives that bring in code from outside the workspace: a required module
# comes from the module cache or GOPROXY, a replacement from any folder (review GW2).
# go's modfile lexer takes space, tab and CR as blanks (`\r require …` is a directive:
# review HC1), so the words are looked for as tokens anywhere, between any of go's
# blanks, newlines or punctuation (a comment or module path naming one counts too)
_TOKEN_EDGE: Final = rb"\s(){}\[\],"
_OUTSIDE_DIRECTIVE: Final = re.compile(
    rb"(?<![^" + _TOKEN_EDGE + rb"])(?:require|replace)(?![^" + _TOKEN_EDGE + rb"])"
)
# a control byte go does not take as a blank, which the scan does not reproduce
_ODD_BYTE: Final = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SETTINGS: Final = ("GOFLAGS", "GOWORK", "GO111MODULE")
# go 1.20's `-C dir` (`--C`, `-C=dir`, after the verb too: `go build -C sub`) moves go
# into `dir` first, whose go.mod the upward look from the working folder does not find
# (review HC4): any spelling asks, `-Cdir` too (go takes none, the scan reads loosely)
_CHDIR_OPTION: Final = re.compile(r"--?C.*", re.S)


def dependency_source(
    words: Sequence[str | None],
    env: Mapping[str, str],
    env_path: str | None,
    starts: Sequence[str] | None,
) -> str | None:
    """Why a compiling go line may compile packages from outside the workspace (the
    module cache, GOPROXY, GOPATH, a folder a `go.work` or a `replace` names), whose cgo
    preambles `cgo_file` cannot look through; None where every package is the
    workspace's or the standard library's (review GW2). The cache lies outside the
    workspace and GOFLAGS/GOPROXY decide what fills it: any requirement counts."""
    for word in words:
        if word is None:
            return "a word that is not literal"
        if "@" in word and not word.startswith("-"):
            return f"`{word}` (a module fetched by its version)"
        if _MOD_OPTION.fullmatch(word) and not _MOD_KEPT.fullmatch(word):
            return f"`{word}`"
        if _CHDIR_OPTION.fullmatch(word):
            return f"`{word}` (go moves to another folder, whose go.mod it reads)"
    settings = _go_settings(env, env_path)
    flags = settings.get("GOFLAGS", "").split()
    if any(_MOD_OPTION.fullmatch(flag) and not _MOD_KEPT.fullmatch(flag) for flag in flags):
        return f"GOFLAGS `{settings['GOFLAGS']}`"
    if starts is None:
        return "a working folder not known here"
    for start in starts:
        found = _module_finding(start, settings)
        if found is not None:
            return found
    return None


def _go_settings(env: Mapping[str, str], env_path: str | None) -> dict[str, str]:
    """go's settings that choose the modules: the user's env file, then the environment
    (which go reads over it)."""
    found: dict[str, str] = {}
    data = read_regular(env_path, _MAX_GO_BYTES) if env_path and os.path.isabs(env_path) else None
    for line in (data or b"").decode("utf-8", "replace").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key in _SETTINGS:
            found[key] = value
    found.update({key: env[key] for key in _SETTINGS if key in env})
    return found


def _module_finding(start: str, settings: Mapping[str, str]) -> str | None:
    """The `go.work`, or the go.mod with requirements, go would use from `start`
    (each looked for upward); GOPATH mode counts (its imports come from GOPATH)."""
    work = settings.get("GOWORK", "")
    if work and work != "off":
        return f"GOWORK `{work}`"
    mode = settings.get("GO111MODULE", "")
    if mode == "off":
        return "GO111MODULE `off` (GOPATH's packages)"
    module = None
    for folder in _upward(start):
        if not work and os.path.lexists(os.path.join(folder, "go.work")):
            return os.path.join(folder, "go.work")
        if module is None and os.path.lexists(os.path.join(folder, "go.mod")):
            module = os.path.join(folder, "go.mod")
    if module is None:
        return "GO111MODULE `auto` (GOPATH's packages)" if mode == "auto" else None
    return module if _requires(module) else None


def _upward(start: str) -> list[str]:
    """`start` and the folders above it, up to the root."""
    found = [os.path.normpath(start)]
    while (parent := os.path.dirname(found[-1])) != found[-1]:
        found.append(parent)
    return found


def _requires(path: str) -> bool:
    """Whether a go.mod has a `require` or `replace` token (between any of go's blanks:
    review HC1) or a control byte go does not take as blank; one that cannot be read,
    or is too large, counts."""
    if not os.path.isfile(path):
        return True
    data = read_regular(path, _MAX_GO_BYTES + 1)
    if data is None or len(data) > _MAX_GO_BYTES:
        return True
    return _OUTSIDE_DIRECTIVE.search(data) is not None or _ODD_BYTE.search(data) is not None
