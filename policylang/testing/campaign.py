"""A fuzzing campaign: run the invariants against a policy and report counterexamples.

Running a campaign needs the `fuzz` extra (Hypothesis, imported when a campaign runs, so
the command-line hooks `add_arguments` and `run_from_args` can be registered without it).
Imports `policylang.testing.*`; the engine is imported lazily, only when a policy file is
loaded, so the campaign also drives any evaluator named with `--evaluator MODULE:NAME`.

Each invariant gets an equal share of the time budget, spent in rounds of Hypothesis
runs with consecutive seeds (`--examples N` runs exactly N examples per invariant
instead, for a reproducible CI run). A violation is shrunk by Hypothesis to a minimal
command and printed with the explain trace of every decision involved.

Exit codes: 0 no counterexample, 1 counterexamples found, 2 usage or setup error.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import re
import shutil
import sys
import tempfile
import time
import traceback
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from policylang.decision import Decision
from policylang.errors import PolicylangError
from policylang.testing import seeds
from policylang.testing.invariants import (
    DEFECT,
    INVARIANTS,
    LOOSER,
    STRICTER,
    Evaluate,
    Invariant,
    Subjects,
    Violation,
)

if TYPE_CHECKING:
    from hypothesis import strategies as st

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_USAGE = 2
EXIT_ERROR = 3  # a property stopped on an error of the campaign itself (review DY3)

ROUND_EXAMPLES = 200
_FIRST_ROUND = 20  # examples in a budget run's first round, which measures their cost


def strategy_for(
    name: str,
    seed_texts: Sequence[str] = (),
    policy_operands: Mapping[str, Sequence[str]] | None = None,
) -> st.SearchStrategy[Any]:
    """The example strategy for invariant `name` (seeded from `seed_texts` if any, and
    from the operand words the policy's own rules name per command)."""
    from hypothesis import strategies as st

    from policylang.testing import strategies

    corpus: list[st.SearchStrategy[Any]] = []
    if seed_texts:
        corpus = [strategies.corpus_commands(seed_texts),
                  strategies.mutated_commands(seed_texts)]
    match name:
        case "totality" | "determinism" | "differential":
            return strategies.any_command_text(seed_texts)
        case "fail-closed":
            return strategies.broken_commands()
        case "compound-monotonicity":
            return strategies.compounds()
        case "quoting-invariance":
            quoted = [strategies.respelled_commands()]
            if any(seeds.simple_words(s) for s in seed_texts[:2000]):
                quoted.append(strategies.corpus_respelled(seed_texts))
            return st.one_of(quoted)
        case "option-invariance":
            return strategies.option_respellings(policy_operands, seed_texts[:500])
        case "path-invariance":
            return strategies.path_respellings()
        case "substitution-soundness":
            if seed_texts:
                return st.one_of(strategies.substituted_commands(),
                                 strategies.corpus_substituted(seed_texts))
            return strategies.substituted_commands()
        case "wrapper-transparency":
            if seed_texts:
                return st.one_of(strategies.wrapped_commands(),
                                 strategies.corpus_wrapped(seed_texts))
            return strategies.wrapped_commands()
        case "deny-monotonicity":
            return strategies.deny_cases(seed_texts)
        case "retention-soundness":
            return st.one_of(strategies.command_lines(), *corpus)
    raise ValueError(f"unknown invariant `{name}`")


@dataclass(frozen=True, slots=True, kw_only=True)
class PropertyReport:
    """What a campaign learnt about one invariant."""

    name: str
    examples: int  # examples run before the first counterexample (or in all)
    seconds: float
    violation: Violation | None = None
    skipped: str | None = None  # why the invariant could not run
    reproduce: tuple[int, int] | None = None  # (seed, examples) of the run that found it
    error: str | None = None  # the traceback of an error that stopped it (not a finding)

    def render(self) -> str:
        if self.skipped:
            return f"{self.name}: skipped ({self.skipped})"
        if self.error is not None:
            head = (
                f"{self.name}: ERROR after {self.examples} examples in {self.seconds:.1f}s "
                "(the campaign's own error, not a finding of the policy)"
            )
            lines = [head, *("  " + line for line in self.error.rstrip().splitlines())]
            if self.reproduce is not None:
                seed, examples = self.reproduce
                lines.append(f"  reproduce with: --property {self.name} --seed {seed} "
                             f"--examples {examples}")
            return "\n".join(lines)
        status = "FAILED" if self.violation else "ok"
        head = f"{self.name}: {status} after {self.examples} examples in {self.seconds:.1f}s"
        if self.violation is None:
            return head
        lines = [head, self.violation.render()]
        if self.reproduce is not None:
            seed, examples = self.reproduce
            lines.append(f"  reproduce with: --property {self.name} --seed {seed} "
                         f"--examples {examples}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True, kw_only=True)
class CampaignReport:
    properties: tuple[PropertyReport, ...]

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(p.violation for p in self.properties if p.violation is not None)

    @property
    def errors(self) -> tuple[PropertyReport, ...]:
        """The properties an error of the campaign itself stopped."""
        return tuple(p for p in self.properties if p.error is not None)

    def summary(self) -> str:
        """`N counterexample(s)`, with how many are looser, stricter or defects, and the
        properties that stopped on an error."""
        found = self.violations
        text = f"{len(found)} counterexample(s)"
        if found:
            counts = [(sum(v.direction == kind for v in found), kind)
                      for kind in (LOOSER, STRICTER, DEFECT)]
            text += " (" + ", ".join(f"{n} {kind}" for n, kind in counts if n) + ")"
        if self.errors:
            names = ", ".join(p.name for p in self.errors)
            text += f"; {len(self.errors)} property(ies) stopped on an error ({names})"
        return text

    def render(self) -> str:
        total = sum(p.examples for p in self.properties)
        lines = [p.render() for p in self.properties]
        lines.append(f"{self.summary()}; {total} examples run")
        return "\n".join(lines)


class _Found(Exception):
    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message)
        self.violation = violation


def _find_violation(exc: BaseException) -> Violation | None:
    if isinstance(exc, _Found):
        return exc.violation
    if isinstance(exc, BaseExceptionGroup):  # Hypothesis's FlakyFailure wraps the errors
        for inner in exc.exceptions:
            found = _find_violation(inner)
            if found is not None:
                return found
    return None


def _run_round(invariant: Invariant, subjects: Subjects, strategy: st.SearchStrategy[Any],
               *, seed: int, examples: int, counter: list[int], shrink: bool
               ) -> Violation | None:
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as fixed_seed

    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)

    @fixed_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=phases,
              report_multiple_bugs=False, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(example: Any) -> None:
        violation = invariant.check(subjects, example)
        if violation is None:
            if not counter[1]:
                counter[0] += 1
            return
        counter[1] = 1
        raise _Found(violation)

    try:
        run()
    except Exception as exc:
        found = _find_violation(exc)
        if found is None:
            raise _RoundFailed(seed, examples) from exc
        return found
    return None


class _RoundFailed(Exception):
    """A round stopped on an error that is no violation (its cause): a campaign bug."""

    def __init__(self, seed: int, examples: int) -> None:
        super().__init__(f"round of seed {seed}, {examples} examples")
        self.reproduce = (seed, examples)


def run_property(invariant: Invariant, subjects: Subjects, strategy: st.SearchStrategy[Any],
                 *, seed: int = 0, budget_s: float = 10.0,
                 examples: int | None = None, shrink: bool = True) -> PropertyReport:
    """Run one invariant: `examples` examples, or rounds until `budget_s` is spent.

    With `shrink` (the default) a counterexample is shrunk to a minimal command.
    """
    missing = invariant.missing(subjects)
    if missing:
        return PropertyReport(name=invariant.name, examples=0, seconds=0.0,
                              skipped="needs " + ", ".join(missing))
    start = time.monotonic()
    counter = [0, 0]  # examples passed, whether a violation was seen
    try:
        return _run_rounds(invariant, subjects, strategy, seed=seed, budget_s=budget_s,
                           examples=examples, shrink=shrink, start=start, counter=counter)
    except Exception as error:  # a bug of the campaign: reported, and the others still run
        cause = error.__cause__ if isinstance(error, _RoundFailed) else error
        return PropertyReport(name=invariant.name, examples=counter[0],
                              seconds=time.monotonic() - start,
                              error="".join(traceback.format_exception(cause or error)[-12:]),
                              reproduce=error.reproduce if isinstance(error, _RoundFailed)
                              else None)


def _run_rounds(invariant: Invariant, subjects: Subjects, strategy: st.SearchStrategy[Any],
                *, seed: int, budget_s: float, examples: int | None, shrink: bool,
                start: float, counter: list[int]) -> PropertyReport:
    """`run_property`'s rounds."""
    if examples is not None:  # one reproducible run
        violation = _run_round(invariant, subjects, strategy, seed=seed, examples=examples,
                               counter=counter, shrink=shrink)
        return PropertyReport(name=invariant.name, examples=counter[0],
                              seconds=time.monotonic() - start, violation=violation,
                              reproduce=(seed, examples))
    round_seed = seed
    size = _FIRST_ROUND
    while time.monotonic() - start < budget_s:
        began, before = time.monotonic(), counter[0]
        violation = _run_round(invariant, subjects, strategy, seed=round_seed,
                               examples=size, counter=counter, shrink=shrink)
        if violation is not None:
            return PropertyReport(name=invariant.name, examples=counter[0],
                                  seconds=time.monotonic() - start, violation=violation,
                                  reproduce=(round_seed, size))
        round_seed += 1
        # the next round sized to what is left of the budget: fixed rounds of 200 had
        # made `--budget 10s` take 44 s (review AR12)
        each = (time.monotonic() - began) / max(1, counter[0] - before)
        left = budget_s - (time.monotonic() - start)
        size = max(_FIRST_ROUND, min(ROUND_EXAMPLES, int(left / max(each, 1e-6))))
    return PropertyReport(name=invariant.name, examples=counter[0],
                          seconds=time.monotonic() - start)


def run_campaign(subjects: Subjects, *, names: Sequence[str] | None = None,
                 budget_s: float = 60.0, seed: int = 0, examples: int | None = None,
                 seed_texts: Sequence[str] = (),
                 policy_operands: Mapping[str, Sequence[str]] | None = None,
                 progress: Callable[[PropertyReport], None] | None = None) -> CampaignReport:
    """Run each named invariant (all by default) with an equal share of what is left of
    the budget: the time one did not use (it failed early, was skipped) goes to the rest
    (review DY: a 15-minute campaign had ended after 10.5)."""
    chosen = [INVARIANTS[n] for n in (names or tuple(INVARIANTS))]
    deadline = time.monotonic() + budget_s
    reports = []
    for index, invariant in enumerate(chosen):
        share = max(0.0, deadline - time.monotonic()) / (len(chosen) - index)
        strategy = strategy_for(invariant.name, seed_texts, policy_operands)
        report = run_property(invariant, subjects, strategy,
                              seed=seed, budget_s=share, examples=examples)
        reports.append(report)
        if progress is not None:
            progress(report)
    return CampaignReport(properties=tuple(reports))


# --- subjects -----------------------------------------------------------------------------

def load_callable(spec: str) -> Evaluate:
    """`MODULE:NAME` or `path/to/file.py:NAME` → an evaluate callable.

    NAME may be an evaluate function or an object with an `evaluate` method.
    """
    target, _, name = spec.rpartition(":")
    if not target or not name:
        raise ValueError(f"expected MODULE:NAME or FILE.py:NAME, got `{spec}`")
    if target.endswith(".py"):
        module_spec = importlib.util.spec_from_file_location(Path(target).stem, target)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load `{target}`")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    obj = getattr(module, name)
    evaluate = getattr(obj, "evaluate", obj)
    if not callable(evaluate):
        raise ValueError(f"`{spec}` is not callable and has no evaluate method")
    return _typed(evaluate)


def _typed(func: Callable[..., Any]) -> Evaluate:
    def evaluate(command: str) -> Decision:
        result: Decision = func(command)
        return result
    return evaluate


def _line_writes(command: str) -> bool:
    """Whether the shell analyser sees a writing redirect (or cannot see everything)."""
    from policylang.shell.parse import parse_command
    from policylang.shell.walk import walk

    line = parse_command(command)
    if line.problems:
        return True
    # the engine's list (docs/engine.md): `/dev/fd/N` is a descriptor the line itself
    # opened (`exec 3>f`, checked where it is opened) or one it inherits
    return any(r.writes and not (r.target is not None and _QUIET.fullmatch(r.target.value or ""))
               for _, segment in walk(line) for r in segment.redirects)


_QUIET = re.compile(r"/dev/(?:null|stdout|stderr|fd/[0-9]+)")


def policy_subjects(path: Path) -> Subjects:
    """Subjects for a policy file via the engine's `policylang.load_policy`.

    Raises:
        RuntimeError: the engine (`policylang.load_policy`) is not available.
    """
    import policylang

    load = getattr(policylang, "load_policy", None)
    if load is None:
        raise RuntimeError("the engine is not available: policylang.load_policy is missing")
    policy = load(path)
    cache: dict[str, Evaluate] = {}
    scratch = Path(tempfile.mkdtemp(prefix="policylang-fuzz-"))
    workspace = scratch / "workspace"
    workspace.mkdir()

    def bind(loaded: Any) -> Evaluate:
        # INVARIANT: a fixed, empty workspace keeps verdicts independent of the cwd
        def evaluate(command: str) -> Decision:
            result: Decision = loaded.evaluate(command, cwd=workspace, workspace=workspace)
            return result
        return evaluate

    def with_rule(rule: str) -> Evaluate:
        if rule not in cache:
            extra = scratch / f"extra{len(cache)}.policy"
            extra.write_text(rule + "\n", encoding="utf-8")
            # the added rule may break the policy's own expectations: that is the point
            cache[rule] = bind(load(path, extra=(extra,), check=False))
        return cache[rule]

    # the scratch directory goes when `with_rule` does (at the latest, at exit), silently
    weakref.finalize(with_rule, shutil.rmtree, scratch, True)
    return Subjects(evaluate=bind(policy), with_rule=with_rule, writes=_line_writes)


def assert_policy_invariants(path: Path | str, *, names: Sequence[str] | None = None,
                             examples: int = 200, seed: int = 0,
                             seed_texts: Sequence[str] = ()) -> CampaignReport:
    """Run a reproducible campaign on a policy file; raise if it finds a counterexample.

    For a test suite: `assert_policy_invariants("my.policy", examples=300, seed=1)`.
    Invariants whose subjects are missing (`differential` without a reference) are
    skipped and reported as such.

    Raises:
        AssertionError: with every counterexample and its explain trace.
    """
    report = run_campaign(policy_subjects(Path(path)), names=names, examples=examples,
                          seed=seed, seed_texts=seed_texts)
    if report.violations:
        raise AssertionError(report.render())
    return report


# --- command line -------------------------------------------------------------------------

def parse_budget(text: str) -> float:
    """`90`, `90s`, `2m`, `1h` → seconds."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text)
    if match is None:
        raise argparse.ArgumentTypeError(f"invalid budget `{text}` (try 60s, 5m)")
    return float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]


def _positive_int(text: str) -> int:
    """`--examples`: 0 or a negative number had ended in a Hypothesis traceback and the
    exit status of a counterexample (review AR3)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def _directory(text: str) -> Path:
    """`--corpora`: a folder that does not exist had silently given no seeds (AR2)."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {text!r}")
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The campaign's arguments, for this script's parser or a `policylang fuzz` subcommand."""
    parser.add_argument("policy", nargs="?", type=Path, metavar="RULESET",
                        help="the policy file to check")
    parser.add_argument("--budget", type=parse_budget, default=60.0, metavar="DURATION",
                        help="time budget for the whole campaign (default 60s)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="random seed (default 0)")
    parser.add_argument("--property", action="append", dest="properties",
                        choices=tuple(INVARIANTS), metavar="NAME",
                        help="run only this invariant (repeatable); see --list")
    parser.add_argument("--examples", type=_positive_int, metavar="N",
                        help="run exactly N examples per invariant instead of a time budget")
    parser.add_argument("--evaluator", metavar="MODULE:NAME",
                        help="check this evaluate callable instead of the policy's")
    parser.add_argument("--reference", metavar="MODULE:NAME",
                        help="a reference evaluator for the differential invariant")
    parser.add_argument("--corpora", type=_directory, metavar="DIR",
                        help="directory of seed corpora (tldr.tsv, nl2bash.tsv, "
                        "codex_cases.tsv with a `command` column)")
    parser.add_argument("--golden", type=Path, metavar="DIR",
                        help="directory of golden command tables (default: tests/golden)")
    parser.add_argument("--fail-on", choices=("any", "looser"), default="any",
                        help="which counterexamples make the exit status 1: any (default), "
                             "or only looser ones (possible holes), so that an over-strict "
                             "verdict does not fail a CI gate")
    parser.add_argument("--no-seeds", action="store_true", help="structural generators only")
    parser.add_argument("--list", action="store_true", help="list the invariants and exit")
    from policylang.testing import oracle

    parser.add_argument("--dynamic", action="store_true",
                        help="also run the dynamic read-only oracle: the corpus commands "
                             "RULESET labels read-only run in a sandbox under strace")
    oracle.add_arguments(parser, prefix="dynamic-")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fuzz/campaign.py",
        description="Check a policy against the invariants; print counterexamples.")
    add_arguments(parser)
    return parser


def _subjects(args: argparse.Namespace) -> Subjects:
    reference = load_callable(args.reference) if args.reference else None
    if args.evaluator:
        return Subjects(evaluate=load_callable(args.evaluator), reference=reference)
    if args.policy is None:
        raise ValueError("give a RULESET file or --evaluator MODULE:NAME")
    base = policy_subjects(args.policy)
    return Subjects(evaluate=base.evaluate, reference=reference, with_rule=base.with_rule,
                    writes=base.writes)


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_args(build_parser().parse_args(argv))


def run_from_args(args: argparse.Namespace) -> int:
    """Run the campaign `add_arguments` describes; returns the exit code."""
    if args.list:
        for invariant in INVARIANTS.values():
            needs = f" (needs {', '.join(sorted(invariant.needs))})" if invariant.needs else ""
            print(f"{invariant.name}: {invariant.summary}{needs}")
        return EXIT_OK
    try:
        subjects = _subjects(args)
    except (ValueError, RuntimeError, ImportError, AttributeError, OSError,
            PolicylangError) as exc:
        print(f"policylang fuzz: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        print("policylang fuzz: error: fuzzing needs Hypothesis: "
              "pip install 'policylang[fuzz]'", file=sys.stderr)
        return EXIT_USAGE
    seed_texts: tuple[str, ...] = ()
    own: tuple[str, ...] = ()
    operands: dict[str, tuple[str, ...]] = {}
    if args.policy is not None:
        # the policy's own words first: its rules are what the campaign tests (review AR1)
        own, operands = seeds.policy_seeds(args.policy)
    if not args.no_seeds:
        golden = args.golden
        if golden is None and _in_policylang_checkout():
            golden = Path("tests/golden")
        seed_texts = seeds.load_seeds(args.corpora, golden)
        corpora = args.corpora or seeds.default_corpus_dir()
        print(f"seeds: {len(own)} commands from the policy's rules, {len(seed_texts)} from "
              f"{golden or 'no golden tables'} and {corpora or 'no corpora'}", flush=True)
    seed_texts = tuple(dict.fromkeys((*own, *seed_texts)))
    report = run_campaign(subjects, names=args.properties, budget_s=args.budget,
                          seed=args.seed, examples=args.examples, seed_texts=seed_texts,
                          policy_operands=operands,
                          progress=lambda r: print(r.render(), flush=True))
    total = sum(p.examples for p in report.properties)
    print(f"{report.summary()}; {total} examples run")
    failing = report.violations
    if args.fail_on == "looser":
        failing = tuple(v for v in failing if v.direction == LOOSER)
    status = EXIT_FOUND if failing else EXIT_ERROR if report.errors else EXIT_OK
    if args.dynamic:
        status = max(status, _run_oracle(args))
    return status


def _run_oracle(args: argparse.Namespace) -> int:
    from policylang.testing import oracle

    if args.policy is None:
        print("policylang fuzz: error: --dynamic needs a RULESET file", file=sys.stderr)
        return EXIT_USAGE
    return oracle.run_from_args(args.policy, args)


def _in_policylang_checkout() -> bool:
    """Whether the cwd is a policylang checkout, whose golden tables make good seeds (a
    `tests/golden` in some other project is not ours to run)."""
    try:
        project = Path("pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return 'name = "policylang"' in project and Path("tests/golden").is_dir()
