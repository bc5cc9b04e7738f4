"""The engine's façade: `load_policy` and `Policy`; imports the loader and the engine stages.

>>> from policylang import load_policy
>>> policy = load_policy()
>>> decision = policy.evaluate("git status && ls -la", workspace="/w")
>>> decision.verdict, decision.retention
(<Verdict.ALLOW: 'allow'>, <Retention.REQUERY: 'requery'>)
"""

from __future__ import annotations

import importlib.resources
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from policylang.compiler.tree import CompiledPolicy, check_expectations
from policylang.decision import Decision
from policylang.diagnostics import Diagnostic
from policylang.engine import snapshot as snapshots
from policylang.engine.approvals import Approvals
from policylang.engine.context import EvalContext
from policylang.engine.evaluate import Evaluator, internal_error
from policylang.engine.rules import RuleView
from policylang.errors import RulesetError
from policylang.shell.model import Limits

if TYPE_CHECKING:
    from policylang.rules.files import SourceInput

_log = logging.getLogger(__name__)

# Expectations run in a fixed, synthetic place so they mean the same on every machine.
EXPECTATION_CONTEXT = EvalContext(
    cwd="/nonexistent/workspace", workspace="/nonexistent/workspace", home="/nonexistent/home"
)

PathLike = str | os.PathLike[str]


def shipped_ruleset(name: str = "default") -> Path:
    """The path of a ruleset shipped inside the package (`default`, `readonly`, `ci`, …)."""
    root = importlib.resources.files("policylang") / "rulesets"
    return Path(str(root / f"{name}.policy"))


class Policy:
    """A loaded policy: evaluate commands, learn approvals.

    Attributes:
        compiled: the compiled policy (rules, tables, expectations).
        approvals: the session's approvals (the tool's `ApprovalSink`: `add(rule, persist=)`).
    """

    def __init__(
        self,
        compiled: CompiledPolicy,
        *,
        approvals: Approvals | None = None,
        limits: Limits | None = None,
        parse_cache: int = 1024,
        decision_cache: int = 1024,
    ) -> None:
        self.compiled = compiled
        # every file the loader read (layers, includes, arity files), as absolute paths:
        # what a sandbox keeps read-only (review M9); empty for a policy built in memory
        self.approvals = approvals if approvals is not None else Approvals()
        self._view = RuleView(compiled, limits=limits, parse_cache=parse_cache)
        self._evaluator = Evaluator(self._view, self.approvals, cache=decision_cache)
        self._plain = Evaluator(self._view, None)
        self._input_files: tuple[str, ...] = ()
        self._protect_state()

    @property
    def input_files(self) -> tuple[str, ...]:
        """Every file the loader read (layers, includes, arity files), as absolute paths:
        what a sandbox keeps read-only (review M9); empty for a policy built in memory.
        Writes to them, and to the approvals file, are denied (review AH4)."""
        return self._input_files

    @input_files.setter
    def input_files(self, files: tuple[str, ...]) -> None:
        self._input_files = tuple(files)
        self._protect_state()

    def _protect_state(self) -> None:
        state = [*self._input_files]
        if self.approvals.path is not None:
            state.append(str(self.approvals.path))
        # a forged snapshot is a policy too (review AM2): the folder they are kept in
        state.append(str(snapshots.cache_dir()))
        self._evaluator.protect_state(state)
        self._plain.protect_state(state)

    @property
    def name(self) -> str:
        return self.compiled.name

    @property
    def sources(self) -> tuple[str, ...]:
        return self.compiled.sources

    def evaluate(
        self,
        command: str,
        *,
        cwd: PathLike | None = None,
        workspace: PathLike | None = None,
        env: Mapping[str, str] | None = None,
        host_env: Mapping[str, str] | None = None,
    ) -> Decision:
        """Decide whether `command` may run. Never raises on any command text.

        Args:
            command: the command line, as the agent wrote it.
            cwd: where it would run (defaults to `workspace`, then the process cwd).
            workspace: the workspace root (defaults to `cwd`, then the process cwd).
            env: the environment it would run with (`HOME` defaults to the process's):
                `HOME`, `OLDPWD`, `PATH`, git's and ripgrep's variables and the names of
                the others are read.
            host_env: where `env` is a scrubbed one, the environment of the process that
                runs the command (the user's): the credential files its variables name
                (`KUBECONFIG`, `GOOGLE_APPLICATION_CREDENTIALS` …) are protected too,
                though the command does not get them (review GE1).

        Returns:
            The `Decision`: verdict, retention, reasons, per-segment verdicts, suggested rule.
        """
        try:
            ctx = EvalContext.build(cwd=cwd, workspace=workspace, env=env, host_env=host_env)
        except Exception as error:  # INVARIANT: evaluate never raises
            _log.exception("cannot build the evaluation context")
            return internal_error(str(command), error)
        return self._evaluator.evaluate(command, ctx)

    def evaluate_in(self, command: str, ctx: EvalContext, *, approvals: bool = True) -> Decision:
        """Evaluate with an explicit context (`approvals=False` ignores learned approvals)."""
        evaluator = self._evaluator if approvals else self._plain
        return evaluator.evaluate(command, ctx)

    def check_expectations(self) -> tuple[Diagnostic, ...]:
        """Run the policy's inline expectations; a diagnostic per failure."""

        def run(command: str) -> Decision:
            return self._plain.evaluate(command, EXPECTATION_CONTEXT)

        return check_expectations(self.compiled, run)

    def __repr__(self) -> str:
        return f"Policy(name={self.name!r}, sources={self.sources!r})"


def load_policy(
    path: PathLike | None = None,
    *,
    extra: Iterable[PathLike] = (),
    approvals: Approvals | PathLike | None = None,
    check: bool = True,
    limits: Limits | None = None,
    parse_cache: int = 1024,
    decision_cache: int = 1024,
    snapshot: bool = True,
) -> Policy:
    """Load a policy file (the shipped default when `path` is None) with extra layers.

    Args:
        path: the policy file; None loads the shipped `default.policy`.
        extra: later layers (team, user) loaded on top, in order.
        approvals: an `Approvals` store, or the path of a persistent approvals TOML file.
        check: run the inline expectations and raise if any fails.
        limits: analysis limits (the shell model's defaults otherwise).
        parse_cache: how many parsed command lines to keep (0: none). Parsing is a pure
            function of the text; every evaluation still checks paths, git config and
            approvals afresh.
        decision_cache: how many decisions to keep (0: none). Only decisions that touched
            no file system (no path resolved, no git config read) are kept; the key holds
            the text, the context and the approvals' generation.
        snapshot: reuse and keep a snapshot of the compiled policy in the user's cache
            folder (see `policylang.engine.snapshot`; `POLICYLANG_SNAPSHOTS=0` turns it off).

    Raises:
        RulesetError: the files do not load, or an expectation fails (with `check`).
    """
    layers = [str(shipped_ruleset() if path is None else path), *(str(p) for p in extra)]
    store = approvals if isinstance(approvals, Approvals) else Approvals(approvals)

    def make(compiled: CompiledPolicy, inputs: Sequence[str]) -> Policy:
        policy = Policy(
            compiled,
            approvals=store,
            limits=limits,
            parse_cache=parse_cache,
            decision_cache=decision_cache,
        )
        policy.input_files = tuple(inputs)
        return policy

    use_snapshot = snapshot and snapshots.enabled()
    if use_snapshot:
        found = snapshots.read(layers)
        if found is not None and (found.checked or not check):
            for warning in found.warnings:
                _log.warning("%s", warning)
            return make(found.policy, found.inputs)
    compiled, inputs, warnings = _compile(layers)
    policy = make(compiled, [i.path for i in inputs])
    if check:
        failures = policy.check_expectations()
        if failures:
            raise RulesetError(failures)
    if use_snapshot:
        snapshots.write(layers, compiled, inputs, warnings, checked=check)
    return policy


def _compile(
    layers: Sequence[str],
) -> tuple[CompiledPolicy, tuple[SourceInput, ...], tuple[str, ...]]:
    """Compile from the files' text; the inputs read and the rendered warnings with it."""
    from policylang.rules.load import check_ruleset

    result = check_ruleset(layers[0], extra_layers=layers[1:])
    if result.policy is None:
        raise RulesetError(result.diagnostics)
    warnings = tuple(d.render() for d in result.diagnostics)
    for warning in warnings:
        _log.warning("%s", warning)
    return result.policy, result.inputs, warnings
