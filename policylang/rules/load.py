"""Load policy files: read, resolve includes and arity files, validate, compile.

Stage: the loader façade over the rules front end and the compiler (it may import both; the
engine imports it). File access happens here and nowhere else in `rules` or `compiler`.

Layers are ordered depth-first with includes before their includer, then `extra_layers` in
the order given (org -> team -> user). A file included twice is loaded once. An include
cycle or a missing file is a diagnostic at the `include` line.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from policylang.compiler.arity import ArityFileError, parse_arity_toml
from policylang.compiler.checks import CHECKS
from policylang.compiler.defaults import DEFAULT_INTERPRETERS
from policylang.compiler.passes import Layer, compile_layers
from policylang.compiler.tree import CompiledPolicy, ExpansionPosition, check_expectations
from policylang.decision import Decision, Verdict
from policylang.diagnostics import Diagnostic, Severity, sort_diagnostics
from policylang.errors import RulesetError
from policylang.rules import ast
from policylang.rules.files import MAX_FILE_CHARS, SourceInput, digest_text, read_policy_file
from policylang.rules.parser import parse_ruleset
from policylang.rules.validate import Context, validate
from policylang.shell.options import DEFAULT_OPTION_SPECS
from policylang.span import Span

__all__ = [
    "MAX_FILE_CHARS",
    "Evaluator",
    "LoadResult",
    "SourceInput",
    "check_ruleset",
    "digest_text",
    "load_ruleset",
    "load_ruleset_text",
    "read_policy_file",
]

_log = logging.getLogger(__name__)

#: How many files deep `include` may nest (a file, what it includes, what that includes …).
MAX_INCLUDE_DEPTH = 32

#: Builds an evaluator for a compiled policy: command -> (verdict, retention). The engine
#: provides it; the loader then checks inline expectations.
Evaluator = Callable[[CompiledPolicy], Callable[[str], Decision]]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class LoadResult:
    """What `check_ruleset` found: the policy (None when there are errors) and diagnostics.

    `inputs` lists every file read, in order (policy files, includes, arity files).
    """

    policy: CompiledPolicy | None
    diagnostics: tuple[Diagnostic, ...] = ()
    inputs: tuple[SourceInput, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)


@dataclass(slots=True)
class _Loader:
    layers: list[Layer] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    loaded: set[Path] = field(default_factory=set)
    stack: list[Path] = field(default_factory=list)
    # the `first` layer of each file being loaded, innermost last (`Layer.parent`)
    firsts: list[int] = field(default_factory=list)
    inputs: list[SourceInput] = field(default_factory=list)

    def read(self, path: Path) -> str:
        text = read_policy_file(path)
        self.inputs.append(
            SourceInput(
                path=os.path.abspath(path), resolved=str(path.resolve()), sha256=digest_text(text)
            )
        )
        return text

    def load_file(self, path: Path, *, name: str | None = None) -> None:
        text = self.read(path)
        self.load_text(text, name=name or str(path), base=path.parent, key=path.resolve())

    def load_text(self, text: str, *, name: str, base: Path, key: Path | None) -> None:
        ruleset, diagnostics = parse_ruleset(text, filename=name)
        self.diagnostics.extend(diagnostics)
        if key is not None:
            self.loaded.add(key)
            self.stack.append(key)
        first = len(self.layers)
        parent = self.firsts[-1] if self.firsts else -1
        self.firsts.append(first)
        for statement in ruleset.statements:
            if isinstance(statement, ast.Include):
                self._include(ruleset, statement, base)
        self.firsts.pop()
        if key is not None:
            self.stack.pop()
        arity_files = self._arity_files(ruleset, base)
        self.layers.append(
            Layer(
                index=len(self.layers),
                ruleset=ruleset,
                arity_files=arity_files,
                first=first,
                parent=parent,
            )
        )

    def _include(self, ruleset: ast.RuleSet, statement: ast.Include, base: Path) -> None:
        try:
            target = (base / statement.path).resolve()
            present = target.exists()
            regular = present and target.is_file()
        except (OSError, ValueError, RuntimeError) as error:
            # a NUL in the path, a loop of links: a diagnostic, not a traceback (found by
            # the rules' totality property: `include "\x00"`)
            self._error(
                ruleset,
                statement.path_span,
                "rules.include-unreadable",
                f"included path `{statement.path!r}` cannot be resolved: {error}",
                "include a policy file by a plain path",
            )
            return
        if len(self.stack) >= MAX_INCLUDE_DEPTH:
            # each level is a recursion of the loader: 400 levels ended `check` in a
            # RecursionError traceback (review AX8)
            self._error(
                ruleset,
                statement.path_span,
                "rules.include-depth",
                f"includes nest deeper than {MAX_INCLUDE_DEPTH} files",
                "include the files from one policy rather than each from the one before",
            )
        elif target in self.stack:
            self._error(
                ruleset,
                statement.path_span,
                "rules.include-cycle",
                f"`{statement.path}` includes itself",
                "remove one of the includes in the cycle",
            )
        elif target in self.loaded:
            return
        elif not present:
            self._error(
                ruleset,
                statement.path_span,
                "rules.include-missing",
                f"included file `{statement.path}` not found",
                "include paths are relative to the including file",
            )
        elif not regular:
            self._error(
                ruleset,
                statement.path_span,
                "rules.include-unreadable",
                f"included `{statement.path}` is not a regular file",
                "include a policy file, not a folder or a pipe",
            )
        else:
            folder = os.path.dirname(ruleset.source.name)
            name = os.path.normpath(os.path.join(folder, statement.path))
            try:
                self.load_file(target, name=name)
            except OSError as error:
                self._error(
                    ruleset,
                    statement.path_span,
                    "rules.include-unreadable",
                    f"cannot read included file `{statement.path}`",
                    error.strerror or str(error),
                )

    def _arity_files(
        self, ruleset: ast.RuleSet, base: Path
    ) -> dict[str, dict[tuple[str, ...], int]]:
        found: dict[str, dict[tuple[str, ...], int]] = {}
        for statement in ruleset.statements:
            if not isinstance(statement, ast.ArityFile):
                continue
            target = base / statement.path
            try:
                found[statement.path] = parse_arity_toml(self.read(target))
            except OSError as error:
                self._error(
                    ruleset,
                    statement.path_span,
                    "rules.arity-file-error",
                    f"cannot read `{statement.path}`",
                    error.strerror or str(error),
                )
            except ArityFileError as error:
                self._error(
                    ruleset,
                    statement.path_span,
                    "rules.arity-file-error",
                    f"bad arity file `{statement.path}`: {error}",
                    None,
                )
        return found

    def _error(
        self, ruleset: ast.RuleSet, span: Span, code: str, message: str, help: str | None
    ) -> None:
        self.diagnostics.append(
            Diagnostic(code=code, message=message, source=ruleset.source, span=span, help=help)
        )


_CONTEXT = Context(
    checks=frozenset(CHECKS),
    positions=frozenset(p.value for p in ExpansionPosition),
    long_options={
        name: spec.single_dash_long | spec.terminated | spec.takes_value | spec.flags
        | spec.optional_value
        for name, spec in DEFAULT_OPTION_SPECS.items()
    },
    unbundled=frozenset(name for name, spec in DEFAULT_OPTION_SPECS.items() if not spec.bundling),
)


# statements that change how a command is read or judged beyond its rules: from a later
# layer, each makes the earlier layers a floor (`CompiledPolicy.floors`), unless it can
# only tighten what the earlier layers say (`_Reading.loosens`)
_READING_STATEMENTS = (
    ast.Wrapper,
    ast.Shells,
    ast.Options,
    ast.PathArgs,
    ast.Interpreter,
    ast.OutsideWorkspace,
    ast.Env,
    ast.Expansion,
)


def _changes_reading(statement: ast.Statement) -> bool:
    """A table line, or a `protect … allow`, which lifts the outside-workspace verdict
    for the paths it names (review AP1)."""
    if isinstance(statement, ast.Protect):
        return statement.verdict == "allow"
    return isinstance(statement, _READING_STATEMENTS)


@dataclass(slots=True)
class _Reading:
    """What the layers seen so far say in the tables whose lines can be told to only
    tighten: the interpreters, and the environment-assignment table.

    A line that only tightens needs no floor, which would cost one more evaluation of
    every command: `ci.policy`'s `interpreter python … inline -c floor deny` and `env
    default deny` over `common.policy`'s `floor ask` lines give the shipped CI and
    read-only policies none. Every other table line is taken to loosen, as it may.
    """

    interpreters: dict[str, tuple[Verdict, frozenset[str], bool]] = field(
        default_factory=lambda: {
            name: (spec.floor, spec.inline, spec.program_operand)
            for name, spec in DEFAULT_INTERPRETERS.items()
        }
    )
    env_listed: bool = False  # a layer said something about assignments (not `secret`)
    env_default: Verdict = Verdict.ASK

    def loosens(self, statement: ast.Statement) -> bool:
        """Whether `statement`, in a later layer, may make a command read or judged more
        loosely than by the layers seen so far."""
        if isinstance(statement, ast.Interpreter):
            # the name's spec is replaced: it must keep every inline option and the
            # program operand of the one before, and a floor at least as strict
            floor = Verdict(statement.floor)
            inline = frozenset(n.value for n in statement.inline)
            for name in statement.names:
                before = self.interpreters.get(name.value)
                if before is None:
                    return True  # a new interpreter: kept out of the analysis
                old_floor, old_inline, old_operand = before
                if (
                    floor.rank < old_floor.rank
                    or not old_inline <= inline
                    or (old_operand and not statement.program_operand)
                ):
                    return True
            return False
        if isinstance(statement, ast.Env):
            if statement.kind == "secret":
                return False  # more secret variables: more checks, never fewer
            if not self.env_listed:
                return True  # it replaces the built-in table (`PATH`, `LD_*` … ask)
            # the strictest matching glob decides, else the default: a glob or a default
            # at least as strict as the default before cannot lower a name's verdict
            kind = statement.kind
            verdict = (statement.verdict or "ask") if kind == "default" else kind
            return verdict not in ("ask", "deny") or Verdict(verdict).rank < self.env_default.rank
        return _changes_reading(statement)

    def absorb(self, layer: Layer) -> None:
        """Take in a layer's interpreter and env lines (as the compiler merges them)."""
        for statement in layer.ruleset.statements:
            if isinstance(statement, ast.Interpreter):
                entry = (
                    Verdict(statement.floor),
                    frozenset(n.value for n in statement.inline),
                    statement.program_operand,
                )
                for name in statement.names:
                    self.interpreters[name.value] = entry
            elif isinstance(statement, ast.Env) and statement.kind != "secret":
                if not self.env_listed:
                    self.env_listed = True
                    self.env_default = Verdict.ASK  # the built-in table is dropped
                if statement.kind == "default":
                    self.env_default = Verdict(statement.verdict or "ask")


def _floors(layers: tuple[Layer, ...]) -> tuple[CompiledPolicy, ...]:
    """The earlier layers' own policies, one for each file (layer) with a line that may
    change how commands are read, whether it came in as an extra file (team, user) or by
    `include` (a team file that includes the org's).

    Rules alone need no floor: a deny always wins and a locked rule is a floor by the
    rule tree's precedence. But a later `wrapper timeout positionals 2` or `options sed
    value -n` changes what the command *is* (`timeout 5 sudo id` reads as `id`), so the
    earlier layers' denies would stop matching (review AO1 to AO7). The engine evaluates
    each floor too and keeps its denies and locked asks. The floors follow file
    boundaries, not the files the caller names: a team file that includes the org's and
    is loaded as the main file is a later layer as much as a `--layer` file (review BR3).
    A file of rules alone gets no floor of its own: the floor of the next file that
    changes the reading holds its rules too. So a policy has one floor per file that may
    loosen the reading, and the shipped ones have none.
    """
    floors: list[CompiledPolicy] = []
    reading = _Reading()
    for index, layer in enumerate(layers):
        if index > 0 and any(reading.loosens(s) for s in layer.ruleset.statements):
            floors.append(compile_layers(layers[:index]))
        reading.absorb(layer)
    # a file judged by its own reading (itself and its includes) where a file included
    # before it by the same file changes the reading: in a team file that includes
    # `helper.policy` before `org.policy`, the helper is the earlier layer, and no floor
    # above held the org's denies under the org's own reading (review CW1). (The files
    # the caller names are in authority order, org first: no such floor between them.)
    changers = [
        index
        for index, layer in enumerate(layers)
        if any(_changes_reading(s) for s in layer.ruleset.statements)
    ]
    for layer in layers:
        if layer.parent >= 0 and any(layer.parent <= c < layer.first for c in changers):
            floors.append(compile_layers(layers[layer.first : layer.index + 1]))
    return tuple(floors)


def _finish(loader: _Loader, evaluator: Evaluator | None) -> LoadResult:
    layers = tuple(loader.layers)
    diagnostics = list(loader.diagnostics)
    diagnostics.extend(validate([layer.ruleset for layer in layers], _CONTEXT))
    inputs = tuple(loader.inputs)
    if any(d.severity is Severity.ERROR for d in diagnostics):
        return LoadResult(policy=None, diagnostics=sort_diagnostics(diagnostics), inputs=inputs)
    policy = compile_layers(layers)
    floors = _floors(layers)
    if floors:
        policy = dataclasses.replace(policy, floors=floors)
    if evaluator is not None:
        diagnostics.extend(check_expectations(policy, evaluator(policy)))
        if any(d.severity is Severity.ERROR for d in diagnostics):
            return LoadResult(policy=None, diagnostics=sort_diagnostics(diagnostics), inputs=inputs)
    return LoadResult(policy=policy, diagnostics=sort_diagnostics(diagnostics), inputs=inputs)


def check_ruleset(
    path: PathLike | None = None,
    *,
    text: str | None = None,
    filename: str = "<policy>",
    extra_layers: Sequence[PathLike] = (),
    evaluator: Evaluator | None = None,
) -> LoadResult:
    """Load and compile, returning every diagnostic instead of raising (for `policylang check`).

    Give either `path`, or `text` (includes then resolve against the current directory).
    """
    loader = _Loader()
    if text is not None:
        loader.load_text(text, name=filename, base=Path.cwd(), key=None)
    elif path is not None:
        loader.load_file(Path(path))
    else:
        raise TypeError("check_ruleset needs a path or text")
    for extra in extra_layers:
        if Path(extra).resolve() not in loader.loaded:
            loader.load_file(Path(extra))
    return _finish(loader, evaluator)


def load_ruleset(
    path: PathLike,
    *,
    extra_layers: Sequence[PathLike] = (),
    evaluator: Evaluator | None = None,
) -> CompiledPolicy:
    """Load a policy file (and its includes and extra layers) into a `CompiledPolicy`.

    Args:
        path: the main policy file.
        extra_layers: later layers (team, user), each with its own includes.
        evaluator: when given, inline `expect` lines are checked with it.

    Returns:
        The compiled policy; warnings are logged.

    Raises:
        RulesetError: holding every diagnostic (sorted) when any is an error.
        OSError: when `path` itself cannot be read.
    """
    return _raise_or_return(check_ruleset(path, extra_layers=extra_layers, evaluator=evaluator))


def load_ruleset_text(
    text: str,
    *,
    filename: str = "<policy>",
    extra_layers: Sequence[PathLike] = (),
    evaluator: Evaluator | None = None,
) -> CompiledPolicy:
    """Like `load_ruleset` for policy text (includes resolve against the current directory)."""
    result = check_ruleset(
        text=text, filename=filename, extra_layers=extra_layers, evaluator=evaluator
    )
    return _raise_or_return(result)


def _raise_or_return(result: LoadResult) -> CompiledPolicy:
    if result.policy is None:
        raise RulesetError(result.diagnostics)
    for diagnostic in result.diagnostics:
        _log.warning("%s", diagnostic.render())
    return result.policy
