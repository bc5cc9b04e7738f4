"""Engine stage: one command line → a `Decision`; imports the shell model and `engine.rules`.

Every segment anywhere in the line is evaluated — nested lines inside substitutions,
unquoted heredoc bodies, assignment values and redirect targets, `bash -c` strings, and
the inner commands of wrappers — and the line's verdict is the strictest of them all.

Combination, for one line (the strictest wins; a floor is never lifted):

>>> from policylang import load_policy
>>> policy = load_policy()
>>> for line in ("ls && git status", "ls && rm -rf ~", "cat ~/.ssh/id_rsa | wc -l",
...              "echo $(sudo id)", "npm install"):
...     print(f"{line:28} {policy.evaluate(line, workspace='/w').verdict}")
ls && git status             allow
ls && rm -rf ~               deny
cat ~/.ssh/id_rsa | wc -l    deny
echo $(sudo id)              deny
npm install                  ask

Fail closed: a parse problem, a limit, an opaque wrapper, an unresolvable path where a
protected path could be at stake, or any internal error yields at least ask with a reason
that names what could not be seen.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
import os
import re
import shlex
import sys
import threading
import tomllib
import urllib.parse
import zipfile
from collections.abc import Collection, Container, Iterator, Mapping, Sequence
from typing import Final, Protocol

from policylang.compiler.checks import unzip_options
from policylang.compiler.defaults import HANDED_CODE, SENT_FILES, STDIN_SENDERS
from policylang.compiler.paths import HOME, WORKSPACE
from policylang.compiler.tables import Access
from policylang.decision import Decision, Reason, Retention, SegmentDecision, Verdict
from policylang.engine import (
    _objects,
    checks,
    composefiles,
    containers,
    gitrefs,
    gitstage,
    gocgo,
    infra,
    launchers,
    paths,
)
from policylang.engine.approvals import Approvals, covered_words, format_rule, is_exact
from policylang.engine.checks import (
    JAVAC_CLASS_PATH,
    SegmentState,
    class_path_words,
    class_path_written,
    home_parameter_glob,
    home_parameter_path,
    read_path_values,
    removes_only,
    short,
    tree_path,
    working_folder_path,
)
from policylang.engine.context import EvalContext
from policylang.engine.envpoison import (
    DECLARATION_BUILTINS,
    LOCALE_NAMES,
    Poison,
    assigned_by_builtin,
    base_name,
    environment_locale,
    expansion_assignments,
    exported_names,
    is_poison_name,
    lasting_change,
    locale_charset_risk,
    poison_of,
    printed_variables,
    run_words,
)
from policylang.engine.gitconfig import (
    GIT_BUILTINS,
    REWRITE_MARK,
    GitConfigInspector,
    find_gitdirs,
    read_regular,
    split_alias,
)
from policylang.engine.linewrites import LineWrites
from policylang.engine.linterconfig import (
    CHECKER_FILES,
    checker_line_option,
    checker_name,
    config_runs_code,
    flake8_excludes,
    mypy_folders,
    read_config,
)
from policylang.engine.prefixes import PREFIX_PROGRAMS
from policylang.engine.rules import (
    RSYNC_FOLDERS,
    TARGET_TAKERS,
    RuleView,
    SegmentRules,
    file_url_path,
    has_xargs,
    is_compiler,
    is_python,
    loopback_reach,
    module_tool,
    named_toolchain,
    names_descriptor,
    package_bin_line,
    package_scopes_unread,
    program_name,
    program_starts,
    rsync_destination,
    rsync_remote,
    runs_elsewhere,
    ssh_loopback_aliases,
    ssh_options_end,
    time_zone_word,
    yarn_drops_dash,
    yarn_rc_word,
)
from policylang.engine.subtree import scan as scan_tree
from policylang.shell.braces import expand_braces
from policylang.shell.fragments import (
    brace_written,
    command_pieces,
    list_pieces,
    substitution_bodies,
)
from policylang.shell.model import (
    CommandLine,
    Connector,
    Expansion,
    ExpansionKind,
    Redirect,
    Scope,
    Segment,
    SegmentKind,
    Word,
)
from policylang.shell.options import Option, OptionView, option_view
from policylang.shell.parse import parse_command
from policylang.shell.quoting import LocaleDependent, decode_ansi_c
from policylang.shell.walk import expansions as written_expansions
from policylang.shell.walk import lines, walk
from policylang.shell.wrappers import (
    BASH_SINGLE_DASH_LONG,
    MACHINES,
    RUNNER_WRAPPERS,
    VERB_RUNNERS,
    WrapperSpec,
    WrapperTable,
    machine_commands,
    unwrap,
    verb_runner,
    with_options,
    written_code,
)
from policylang.span import Span

_log = logging.getLogger(__name__)
_MAX_RECOVERY_DEPTH = 3
# (command, cwd, real cwd, workspace, home, environment, credential places, approvals
# generation)
_CacheKey = tuple[
    str, str, str, str, str, frozenset[tuple[str, str]], tuple[tuple[str, str], ...], int
]

_SUBSTITUTIONS = frozenset({ExpansionKind.COMMAND_SUBSTITUTION, ExpansionKind.PROCESS_SUBSTITUTION})
_WORD_KINDS = frozenset(
    {SegmentKind.LOOP_HEADER, SegmentKind.CASE_HEADER, SegmentKind.TEST, SegmentKind.ARITHMETIC}
)


def _hold_floor(decision: Decision, floor: Decision, protects: frozenset[str]) -> Decision:
    """`decision` raised to what an earlier layers' policy (`floor`) holds: its deny, its
    locked ask, or an ask of one of its protect rules (`protects`, their ids), which no
    later rule or approval lifts either (review CW2: a team's `options cat value -n` made
    `cat -n ~/.bash_history` an allowed read). Its other verdicts are the later layers'
    to change, as rules are (an `interpreter` line may lower a floor)."""
    protected = floor.verdict is Verdict.ASK and any(
        reason.verdict is Verdict.ASK and reason.rule_id in protects for reason in floor.reasons
    )
    locked_ask = floor.verdict is Verdict.ASK and floor.locked
    if not (floor.verdict is Verdict.DENY or locked_ask or protected):
        return decision
    raises = floor.verdict.rank > decision.verdict.rank
    if not raises and not (floor.locked and not decision.locked) and not protected:
        return decision
    note = " (by the earlier layers' own reading of the command)"
    held = tuple(
        dataclasses.replace(reason, message=reason.message + note)
        for reason in floor.reasons
        if reason.verdict is floor.verdict and reason not in decision.reasons
    )
    verdict = floor.verdict if raises else decision.verdict
    unapprovable = verdict is Verdict.DENY or floor.locked or protected
    if not (raises or held or decision.suggested_rule or (floor.locked and not decision.locked)):
        return decision  # (it already asks for the same protected path, unapprovably)
    return dataclasses.replace(
        decision,
        verdict=verdict,
        concurrency_safe=False,
        locked=decision.locked or floor.locked,
        reasons=decision.reasons + held,
        suggested_rule=None if unapprovable else decision.suggested_rule,
    )


class Evaluator:
    """Evaluates command lines against one compiled policy (reusable, thread-safe)."""

    def __init__(
        self, rules: RuleView, approvals: Approvals | None = None, *, cache: int = 0
    ) -> None:
        self._rules = rules
        self._approvals = approvals
        self._git = GitConfigInspector()
        self._cache_size = cache
        self._cache: dict[_CacheKey, Decision] = {}
        self._lock = threading.Lock()
        # the files the policy is loaded from and its approvals file (`protect_state`)
        self.state_files: tuple[str, ...] = ()
        # the earlier layers' own policies where a later layer changes how commands are
        # read: their denies and locked asks hold (`CompiledPolicy.floors`, review AO1)
        self._floors = tuple(
            Evaluator(RuleView(floor, limits=rules.limits, parse_cache=0))
            for floor in rules.policy.floors
        )
        # the ids of this policy's protect rules (`_hold_floor`)
        self.protects = frozenset(rule.ref.id for rule in rules.policy.protected.rules)

    def protect_state(self, files: Sequence[str]) -> None:
        """Deny writes to `files` (the policy's layers, its approvals file), as written and
        with links resolved: an agent that could append `"bash"` to the approvals file,
        or rewrite a team layer kept in the workspace, would approve itself (review AH4)."""
        found: set[str] = set()
        for name in files:
            absolute = os.path.abspath(name)
            found.update((absolute, os.path.realpath(absolute)))
        # sorted: a reason names the first a write reaches, the same in every process
        self.state_files = tuple(sorted(found))
        self._cache.clear()
        for floor in self._floors:
            floor.protect_state(files)

    def evaluate(self, command: str, ctx: EvalContext) -> Decision:
        """The decision for `command`; never raises (an internal error asks).

        With a cache, a decision is reused only if reaching it touched no file system
        (no path was resolved, no git config read): such a decision depends on nothing but
        the text, the context and the approvals, which are all in the key.
        """
        try:
            key = None
            if self._approvals is not None:
                self._approvals.refresh()  # approvals another process added or revoked
            if self._cache_size > 0 and isinstance(command, str):
                generation = self._approvals.generation if self._approvals is not None else 0
                key = (
                    command,
                    ctx.cwd,
                    ctx.real_cwd,
                    ctx.workspace,
                    ctx.home,
                    ctx.env_items,
                    # the credential places also come from the host's environment and
                    # from where links lead now (reviews GE1, GE2), neither in `env_items`
                    ctx.env_secrets,
                    generation,
                )
                cached = self._cache.get(key)
                if cached is not None:
                    return cached
            decision, touched = self._decide(command, ctx)
            for floor in self._floors:
                held, floor_touched = floor._decide(command, ctx)
                touched = touched or floor_touched
                decision = _hold_floor(decision, held, floor.protects)
            if key is not None and not touched:
                self._remember(key, decision)
            return decision
        except Exception as error:  # INVARIANT: untrusted text never raises out of evaluate
            _log.exception("internal error while evaluating %r", str(command)[:200])
            return internal_error(command, error)

    def _decide(self, command: str, ctx: EvalContext) -> tuple[Decision, bool]:
        """The decision of this policy alone, and whether reaching it touched the file
        system (then it is not cached)."""
        # the start is found again for every line, not kept with a context: the logical
        # `PWD` check (review EO2) stats the file system, and `eval --jsonl` keeps its
        # context while a link re-pointed between lines makes `PWD` name the cwd (GE3)
        # (the walk finds it, with the candidates it keeps: `_start_candidates` once)
        walk = _Walk(self._rules, ctx, self._approvals, self._git, None, self.state_files)
        return walk.run(command), walk.fs

    def _remember(self, key: _CacheKey, value: Decision) -> None:
        with self._lock:
            if len(self._cache) >= self._cache_size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = value


# first words after which a segment may change the shell or declare variables
# (`lasting_change`, `unread_declaration`)
_SHELL_STATE_WORDS: Final = frozenset(
    {"set", "trap", "builtin", "command", "time", *DECLARATION_BUILTINS}
)
# scopes whose segments may run again after a later segment of the same line: a loop's
# next pass, a function's next call
_REPEATING_SCOPES: Final = frozenset(
    {Scope.LOOP_BODY, Scope.WHILE_CONDITION, Scope.FOR, Scope.SELECT, Scope.FUNCTION_BODY}
)


def _runs_again(segment: Segment) -> bool:
    return any(scope in _REPEATING_SCOPES for scope in segment.scopes)


def _repeated_poison(segments: Sequence[Segment]) -> Poison | None:
    """The poison of a segment that may run before an earlier one runs again.

    In `for i in 1 2; do less LESSOPEN=… x; set -k; done`, the second pass runs `less`
    after `set -k`, which makes `LESSOPEN=…` its environment (review BD1): a poisoning
    segment in a loop or function body changes every segment of such a body, those
    written before it too."""
    for segment in segments:
        if segment.scopes and _runs_again(segment):
            found = poison_of(segment)
            if found is not None:
                return found
    return None


def internal_error(command: str, error: BaseException) -> Decision:
    reason = Reason(
        rule_id="engine.internal-error",
        message=f"internal error: {type(error).__name__}: {error}"[:300],
        verdict=Verdict.ASK,
    )
    return Decision(
        command=command,
        verdict=Verdict.ASK,
        retention=None,
        concurrency_safe=False,
        reasons=(reason,),
    )


class ApprovalLookup(Protocol):
    """What a walk asks of approvals: the longest approved prefix of a command's words."""

    def match(self, words: Sequence[str | None]) -> tuple[str, ...] | None: ...


class _WithPrefix:
    """Approvals plus one prefix: the command an approved runner runs, approved by the
    words of the runner's approval that name it (`pytest` of `uv run pytest`)."""

    def __init__(self, base: ApprovalLookup | None, prefix: tuple[str, ...]) -> None:
        self.base = base
        self.prefix = prefix

    def match(self, words: Sequence[str | None]) -> tuple[str, ...] | None:
        found = self.base.match(words) if self.base is not None else None
        size = len(self.prefix)
        if tuple(words[:size]) == self.prefix and (found is None or len(found) < size):
            return self.prefix
        return found


class _Walk(LineWrites):
    """One evaluation: walks the line and its nested lines, accumulating segments."""

    def __init__(
        self,
        rules: RuleView,
        ctx: EvalContext,
        approvals: ApprovalLookup | None,
        git: GitConfigInspector,
        start: paths.Cwd | None = None,
        state_files: tuple[str, ...] = (),
    ) -> None:
        self.rules = rules
        self.ctx = ctx
        self.approvals = approvals
        self.git = git
        self.state_files = state_files
        self.segments: list[SegmentState] = []
        self.line_reasons: list[Reason] = []
        self.complete = True
        self.fs = False  # whether the decision depended on the file system
        self.recovering = 0  # depth of `recover` (text that did not parse)
        self.text = ""
        self.functions: set[str] = set()
        # `for f in a *.py` → f: ("a", "*.py"), so `cat "$f"` checks those paths
        self.loop_values: dict[str, tuple[str, ...] | None] = {}
        self.loop_words: dict[str, tuple[str, ...]] = {}  # (see `PathChecks.loop_words`)
        self.loop_scopes = {}  # see `PathChecks.loop_scopes`
        self.loop_where = []  # see `PathChecks.loop_where`
        # how the current segment reads trees (set per segment by `path_checks`)
        self.reads_hidden = True
        self.ignore_files = ()
        self.reads_contents = False
        self.tracked_reads = None
        self.reader_cwds = ()
        self.tracked_repository = ()
        self.env_unsure = False
        # recursive reads of the line: each tree scanned once (review H8: `grep -r x . . …`)
        self.trees: dict[
            tuple[
                str,
                bool | tuple[str, ...],
                tuple[str, ...],
                frozenset[str] | None,
                tuple[str, ...],
            ],
            tuple[list[Reason], bool],
        ] = {}
        self.resolved = {}  # see `PathChecks.resolved`
        self.includes = {}  # see `PathChecks.includes`
        self.git_files = None  # see `PathChecks.git_files`
        self.git_files_whole = None  # see `PathChecks.git_files`
        self.gitdirs = {}  # see `PathChecks.gitdirs`
        self.protected_links = None  # see `PathChecks.protected_links`
        self.links_complete = True
        self.glob_landings = []  # see `PathChecks.glob_landings`
        self.config_rewrites = []  # see `PathChecks.config_rewrites`
        self.init_line_writes()  # see `LineWrites`
        # the context's working directory and where its links lead (`automount_pattern`)
        self._context_cwd = _start_candidates(ctx)
        self.start = start if start is not None else paths.Cwd(candidates=self._context_cwd)
        self.root: CommandLine | None = None
        self._data_names: frozenset[str] | None = None  # see `data_names`
        self._reassigned: tuple[frozenset[str] | None] | None = None  # see `reassigned`
        self._trap: bool | None = None  # see `_sets_trap`
        # the `for` headers of the lines met, by name (see `note_loops`)
        self._loop_headers: dict[str, int] = {}
        self._loops_noted: dict[int, CommandLine] = {}
        self._aliases: dict[str, set[str]] = {}  # see `_data_names`
        # segments that make a link (`ln`, `cp -s`): see `floor_after_links`
        self.link_makers: list[SegmentState] = []
        self.std_swaps: list[tuple[SegmentState, str]] = []  # see `PathChecks._swapped`
        self.std_reopens: list[SegmentState] = []
        self.std_swaps_paired = self.std_reopens_paired = 0
        self.follows_links = False  # see `PathChecks.path_checks`
        self.whole_folder_reads = False
        self.removing = False  # (the same)
        self.moving = False  # (the same)
        self.copying = False  # (the same)
        self.copies_over = (False, False)  # (the same)
        self.written_trees: dict[str, tuple[tuple[str, Reason] | None, bool]] = {}
        # approved segments that run in a folder the line moved to (`_approval_elsewhere`)
        self.moved_approvals: list[tuple[SegmentState, str]] = []
        self._path_entries: list[str] | None = None  # see `_workspace_path_entries`
        self._shims: bool | None = None  # see `_shimmed`
        self._entry_places: dict[str, bool] = {}  # see `_in_workspace`
        self._entry_stamps: dict[str, paths.Stamp | None] = {}  # see `_entry_stamp`
        self._process_entries: set[str] = set()  # see `_in_workspace`
        self._found_on_path: dict[tuple[str, frozenset[str]], tuple[str, bool] | None] = {}
        self._next_fed = False  # whether the segment visited next is fed (`SegmentState.fed`)
        self._fed_scope = False  # whether the segment being visited is (see `visit_segment`)
        self._loaded_paths: dict[str, list[str]] | None = None  # see `environment_code`
        self._loaded_found: dict[tuple[str, str], str | None] = {}  # (the same)
        self._defined_seen: set[tuple[str, paths.Cwd]] = set()  # see `_defined_path`
        # allowed `python -m X` segments and the files the line writes (`python_module_path`)
        self.module_runs: list[tuple[SegmentState, paths.Cwd, str]] = []
        self.line_writes: list[tuple[SegmentState, str, paths.Cwd, bool]] = []
        self.depth = 0  # commands run by approved programs, judged one inside another
        self.budget = [_MAX_APPROVED_WALKS]  # such judgements left for the whole line
        self.runner_budget = [_MAX_APPROVED_WALKS]  # the same for `runner_command`
        self._runners: WrapperTable | None = None  # see `runner_command`
        self.recovery = _Recovery()  # shared with inner walks, as `budget` is
        self.fed = _Recovery()  # the code fed to shells' standard input (`fed_code`)
        self._braced: _Recovery | None = None  # see `braced`
        self.glob_visits = [0, 0]  # shared with inner walks too (`PathChecks.check_glob`)

    def run(self, command: str) -> Decision:
        self.text = command
        locale = environment_locale(self.ctx.env)
        if locale is not None:
            self.line_reasons.append(
                Reason(
                    rule_id="engine.locale-charset",
                    message=f"the environment's locale `{locale}` has characters whose last "
                    "byte may be `\\` or a backquote: bash may read this line otherwise than "
                    "the analyser",
                    verdict=Verdict.ASK,
                )
            )
        line = self.rules.parse(command)
        self.root = line
        self.note_loops(line)
        self.visit_line(line, self.start, None, "")
        return self.assemble(command)

    # -- structure -------------------------------------------------------------------
    def visit_line(
        self, line: CommandLine, start: paths.Cwd, poison: Poison | None, context: str
    ) -> None:
        self.note_loops(line)  # (code fed to a shell, pieces of text that did not parse)
        domain = self.ctx.env.get("TEXTDOMAIN")
        if domain and _TRANSLATED.search(line.text):
            # `$"…"` is read as the quoted text it holds, which bash takes it for only
            # where it translates nothing: with TEXTDOMAIN set (and a locale other than C
            # or POSIX, which the line may set for its later lines) bash replaces it by
            # the catalog's text and expands that (`$(…)` runs), the catalog found in
            # TEXTDOMAINDIR (confirmed with bash 5.2: fuzz finding, review BJ3)
            reason = Reason(
                rule_id="engine.translated-string",
                message=f"the environment's TEXTDOMAIN `{short(domain)}` makes bash replace "
                'each `$"…"` by the text its message catalog gives, then expand that: '
                "the words are not what they seem",
                verdict=Verdict.ASK,
                segment="",
            )
            if reason not in self.line_reasons:
                self.line_reasons.append(reason)
        mismatched = False
        for problem in line.problems:
            self.complete = False
            where = context or line.context
            text = _snippet(line.text, problem.span.start, problem.span.end)
            message = f"could not analyse {text}: {problem.message}"
            if where:
                message += f" ({where})"
            reason = Reason(
                rule_id=problem.code, message=message, verdict=Verdict.ASK, segment=text
            )
            # the root line repeats the problems of its nested lines: report each once
            if reason not in self.line_reasons:
                self.line_reasons.append(reason)
            if problem.code == "shell.syntax-error":
                self.recover(line.text[problem.span.start : problem.span.end], start, poison)
            if problem.code in _MISREAD and not mismatched:
                # tree-sitter read part of the line otherwise than bash does (`! { …; }`,
                # `ls⏎\rm -rf /` as one word): the whole line's pieces are read on their
                # own, so a deny among them holds (review AZ6, AZ13)
                mismatched = True
                self.recover(line.text, start, poison)
                written = brace_written(line.text)
                if written is not None:
                    # `{rm,-rf,/}`, `{cat,.env} | head`: tree-sitter reads a group where
                    # bash reads one word (review BM1: with an operator after it too), and
                    # in `( {rm,-rf,~} )`, `$({cat,.env}⏎)` it reads nothing (review DY1)
                    self.brace_line(written, start, poison)
        segments = line.segments
        cwds = paths.track(segments, start, self.ctx.home, self.ctx.env.get("CDPATH"))
        last = len(segments) - 1
        where = context or line.context
        again = _repeated_poison(segments) if poison is None else None
        # an `exec < FILE` feeds every later command (review DI3), and in a loop every
        # command of the line, which the next pass runs after it (review DJ1)
        line_fed = any(
            _lasting_input(s) and any(scope in _LOOP_SCOPES for scope in s.scopes)
            for s in segments
        )
        for index, segment in enumerate(segments):
            held = poison
            if held is None and again is not None and _runs_again(segment):
                held = again
            self._next_fed = line_fed or _stdin_fed(segments, index)
            inside = Scope.FUNCTION_BODY in segment.scopes
            self.loop_where.append((line, segment.group, inside, index))
            try:
                self.visit_segment(segment, cwds[index], held, where)
            finally:
                self.loop_where.pop()
            line_fed = line_fed or _lasting_input(segment)
            if segment.wrapped is not None and segment.wrapped.reads_stdin:
                code = _stdin_code(segments, index)
                if code is not None:
                    self.fed_code(code, cwds[index], held)
            if segment.kind is SegmentKind.SIMPLE:
                for word in segment.words:  # (a loop: this runs for every segment)
                    if word.value is None and _braced(word):
                        braced = [(w.text, w.value is None and _braced(w)) for w in segment.words]
                        self.brace_expanded(braced, cwds[index], held)
                        break
            if poison is None and index < last:  # it only changes later segments
                poison = poison_of(segment)

    def fed_code(self, code: str, cwd: paths.Cwd, poison: Poison | None) -> None:
        """The literal code a shell reads on its standard input (`bash <<< 'rm -rf ~'`,
        a quoted here-document, `echo 'cat ~/.aws/credentials' | sh`), read as a line of
        its own: the shell stays opaque (it asks), and a deny in the code holds (review
        BD6). It has a budget of its own, as large as the recovery's (review BF4: 33
        fed shells spent the recovery's before the one that mattered)."""
        body = self.fed.take(code)
        if body is not None:
            nested = self.rules.parse(body)
            self.visit_line(nested, cwd, poison, "code a shell reads on its standard input")
        else:
            self.report_cut(self.fed, "the code fed to shells on their standard input")

    @property
    def braced(self) -> _Recovery:
        """The budget of the commands brace expansion writes, made on first use: few
        lines have braces, and every line pays for what its walk builds."""
        if self._braced is None:
            self._braced = _Recovery()
        return self._braced

    def brace_expanded(
        self, words: Sequence[tuple[str, bool]], cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        """The command as bash's brace expansion writes it (`{rm,-rf,/}` is `rm -rf /`,
        `cat {README,.env}` reads `.env`), read as a line of its own: the braced words
        keep their own verdict (a glob-like word asks), and a deny among the expanded
        words holds (review BG15). `words`: each word's text, and whether bash expands
        braces in it. A word bash would expand by rules `expand_braces` does not read
        leaves the line as it was."""
        written: list[str] = []
        for text, braced in words:
            expanded = expand_braces(text) if braced else [text]
            if expanded is None:
                return
            written.extend(expanded)
        self.brace_line(" ".join(written), cwd, poison)

    def brace_line(self, written: str, cwd: paths.Cwd, poison: Poison | None) -> None:
        """`written`, a line as brace expansion writes it, read as a line of its own."""
        body = self.braced.take(written)
        if body is not None:
            nested = self.rules.parse(body)
            self.visit_line(nested, cwd, poison, "the command as brace expansion writes it")
        else:
            self.report_cut(self.braced, "the commands that brace expansion writes")

    def git_alias_expanded(
        self,
        found: SegmentRules,
        verb: str,
        seg: SegmentState,
        cwd: paths.Cwd,
        poison: Poison | None,
    ) -> None:
        """`git sync …` where the configuration says `alias.sync = push`: read as the git
        command the alias writes, as a line of its own, so that a deny of `git push
        --force` holds and its asks stay (review BR2: approved `git sync` force-pushed).
        The segment keeps its own verdict (a verb no rule names asks). An alias of a
        builtin's name is never used by git, so only other verbs are looked up. (The lines
        share the budget of brace expansion's.)

        git splits the alias into words by quotes and backslashes only (`split_alias`); the
        line is written from those words quoted, so a `#` or `;` of the alias is a word, as
        for git, and cannot make a comment of the words after it (review BT4)."""
        self.fs = True
        rest = " ".join(word.text for word in found.inner[2:])
        complete = cwd.known
        for directory in sorted(cwd.candidates):
            values, read = self.git.aliases_of(verb, directory, self.ctx.home, self.ctx.env)
            complete = complete and read
            for value in dict.fromkeys(values):
                words = split_alias(value)
                if words is None:  # (git refuses it; the words are not known here)
                    seg.floor(
                        Verdict.ASK,
                        "engine.git-alias",
                        f"`git {verb}` is an alias (`{short(value)}`) with an unclosed quote "
                        "or a backslash at its end, which is not read here",
                    )
                    seg.suggestion = None
                    continue
                written = " ".join(shlex.quote(word) for word in words)
                body = self.braced.take(f"git {written} {rest}")
                if body is None:
                    self.report_cut(self.braced, "the commands git aliases write")
                    return
                nested = self.rules.parse(body)
                self.visit_line(nested, cwd, poison, f"`git {verb}` as its alias writes it")
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.git-alias",
                f"cannot tell whether `git {verb}` is an alias of another git command: the "
                "repository or git's configuration could not be read",
            )
            seg.suggestion = None

    def report_cut(self, budget: _Recovery, what: str) -> None:
        """Say once per line that `budget` ran out: a command in what was left unread
        was not seen (the line asks)."""
        if budget.cut and not budget.reported:
            budget.reported = True
            self.line_reasons.append(
                Reason(
                    rule_id="engine.recovery-limit",
                    message=(
                        f"{what} was read up to {_RECOVERY_PARSES} pieces or "
                        f"{_RECOVERY_CHARS} characters; a command in the rest was not seen"
                    ),
                    verdict=Verdict.ASK,
                    segment="",
                )
            )

    def recover(self, text: str, start: paths.Cwd, poison: Poison | None) -> None:
        """The command substitutions and operator pieces inside text that did not parse,
        analysed on their own: a deny among them holds (`echo $((( i = $(sudo id) ))⏎)`,
        review AR10). The line is a question already; this can only make it stricter.
        The whole line shares one small budget: text built to fail the parser again and
        again (`$(((; a $(b; a $(b …`) had cost minutes (review AS1). The pieces are
        taken shortest and longest in turn: long padding cannot spend the budget before
        a short `; sudo id`, nor sixteen `$(aN)` before the enclosing body that the
        parser reads whole (review AT2)."""
        if self.recovering >= _MAX_RECOVERY_DEPTH:
            return
        pieces = [*substitution_bodies(text), *command_pieces(text), *list_pieces(text)]
        pieces = list(dict.fromkeys(pieces))
        self.recovering += 1
        try:
            for piece in _both_ends(pieces):
                body = self.recovery.take(piece)
                if body is None:
                    continue
                nested = self.rules.parse(body)
                self.visit_line(nested, start, poison, "inside text that did not parse")
        finally:
            self.recovering -= 1
        self.report_cut(self.recovery, "the text that did not parse, in pieces,")

    def visit_segment(
        self, segment: Segment, cwd: paths.Cwd, poison: Poison | None, context: str
    ) -> None:
        # the commands inside a segment whose input the line feeds read that input too:
        # `eval`'s and `bash -c`'s, a `$(…)`'s, a `<(…)`'s (review DH2)
        fed = self._next_fed or self._fed_scope
        self._next_fed = False
        outer, self._fed_scope = self._fed_scope, fed
        try:
            self._visit_segment(segment, cwd, poison, context, fed)
        finally:
            self._fed_scope = outer

    def _visit_segment(
        self, segment: Segment, cwd: paths.Cwd, poison: Poison | None, context: str, fed: bool
    ) -> None:
        seg = SegmentState(text=segment.text, context=context, fed=fed)
        self.segments.append(seg)
        kind = segment.kind
        if (
            _AUTOMOUNT_TEXT.search(segment.text) is not None
            or any(paths.under_automount(place) for place in cwd.candidates)
            or _probes(segment)[0]
            or _glob_words(segment)
        ):
            self.automount_words(segment, seg, cwd)
        if kind is SegmentKind.FUNCTION_DEF and segment.name:
            self.functions.add(segment.name)
        if kind is SegmentKind.SIMPLE and Scope.FUNCTION_BODY in segment.scopes:
            self.recursion(segment, seg)
        # redirects first: a `readonly` rule does not cover a segment that writes a file
        if segment.redirects:
            self.redirects(segment.redirects, seg, cwd, poison, segment.words)
        if segment.assignments or segment.declared:
            self.assignments(segment, seg, cwd, poison)
        if kind is SegmentKind.SIMPLE:
            first = segment.words[0] if segment.words else None
            # the hot path: most commands are neither builtins that change the shell nor
            # spelt with quotes, so neither check below has anything to find
            special = first is not None and (
                first.value in _SHELL_STATE_WORDS or first.value != first.text
            )
            if special and not segment.declared:
                self.unread_declaration(segment, seg)
            lasting = lasting_change(segment) if special else None
            if lasting is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.shell-state",
                    f"{lasting}: in this line, and in later calls where the shell persists",
                )
            assigned = assigned_by_builtin(segment)
            if assigned is not None:
                self.assigned_names(assigned.command, assigned.names, seg)
            for name in exported_names(segment):
                self.exported(name, seg)
        elif kind is SegmentKind.LOOP_HEADER and segment.name:
            self.assigned_names("for", (segment.name,), seg)
        for name, operator in expansion_assignments(segment):
            self.assigned_names(f"${{{name}{operator}…}}", (name,), seg)
        if kind in _EVALUATING_KINDS and not (kind is SegmentKind.LOOP_HEADER and segment.name):
            # `for ((…))` evaluates its words; `for NAME in WORDS` only expands them
            self.evaluated_words(segment, seg)
        if seg.writes is not None and (kind is not SegmentKind.SIMPLE or not segment.words):
            # `> file`, `x=1 > file`: no command, and the shell still creates or truncates
            seg.floor(
                self.rules.policy.default.at_least(Verdict.ASK),
                "engine.bare-redirect",
                f"a redirect with no command creates or truncates `{seg.writes}`",
            )
        if kind is SegmentKind.SIMPLE:
            self.simple(segment, seg, cwd, poison)
        elif kind in _WORD_KINDS:
            for word in segment.words:
                self.expansions(word, "argument", seg, cwd, poison)
            if kind is SegmentKind.LOOP_HEADER and segment.name:
                self.check_glob_names(segment.words, seg, cwd)
                self.loop_header(segment)
        # ASSIGNMENT_ONLY and FUNCTION_DEF run nothing by themselves (bodies are segments)
        if poison is not None:
            seg.floor(
                Verdict.ASK,
                "engine.env-poisoned",
                f"not what it seems: {poison.reason} (`{short(poison.segment_text)}`)",
            )

    def automount_words(self, segment: Segment, seg: SegmentState, cwd: paths.Cwd) -> None:
        """A segment that names a path below `/net` or `/hosts` in any word, whatever the
        command (`cd`, `test -e`, `realpath`, `lsof +D`: no rule reads them as paths), or
        runs there, asks: an automounter resolves the folder name as a host (review
        DT1). A word whose value is not known is judged by its text (`/net/$(whoami).x`);
        where this system has an automounter's folder (`paths.automounts_here`), a probe's
        word whose value or working directory is not known asks too (review DX1)."""
        place = next((p for p in sorted(cwd.candidates) if paths.under_automount(p)), None)
        if place is not None:
            checks.automount_path(place, place, seg)
            return
        for word in segment.words:  # (a redirect's target is a path `check_path` judges)
            if _AUTOMOUNT_WORD.search(word.text) is not None:
                checks.automount_path(word.text, word.text, seg)
                return
        name, words = _probes(segment)
        if name in _CD_PROBES and self.automount_cd(segment, seg, cwd):
            return
        maybe = paths.automounts_here()
        for word in words:
            # a probe's words are looked up as paths, whatever the command reads them as
            # (`test -e`, `realpath`, `lsof +D`, `df`, `command -v`): where each leads from
            # the working directory, through links (`cd /net; test -e HOST`,
            # `../../../../net/HOST`, `lnk -> /net/HOST`: review DW1)
            if self.automount_probe(word, seg, cwd, maybe=maybe):
                return
        for word in _glob_words(segment):
            # the shell opens the folders of a glob to expand it, whatever the command
            # (`echo ../../../../net/HOST/*`, `for f in HOST/*` in `/net`: review DX1)
            text = paths.path_text(word) or home_parameter_glob(word.text, self.ctx.home)
            if text is None:
                if maybe:
                    checks.automount_maybe(word.text, seg)
                    return
                continue
            if self.automount_pattern(text, word.text, seg, cwd, maybe=maybe):
                return

    def automount_probe(
        self, word: Word, seg: SegmentState, cwd: paths.Cwd, *, maybe: bool
    ) -> bool:
        """Whether a probe's `word` leads below `/net` (asked), or may where `maybe`
        (asked too): a value or a working directory not known, `~-`, `~N` (review DX1).
        A word not known is judged by the folder its known start names
        (`../../net/$(whoami).x`), everywhere."""
        value = word.value
        tilde = any(e.kind is ExpansionKind.TILDE for e in word.expansions)
        if value is not None and tilde and value.startswith("~") and not _HOME_TILDE.match(value):
            # `~+` is the working directory; `~-` is OLDPWD, `~N`, `~+N`, `~-N` the folder
            # stack, `~user` a user's home: not known here (the environment's OLDPWD is
            # checked as well: a persistent shell's previous command may have left it)
            here = working_folder_path(word)
            if here is not None:
                value = here
            else:
                old = self.ctx.env.get("OLDPWD", "")
                if value.startswith("~-") and old.startswith("/"):
                    rest = value[2:]
                    if not rest or rest.startswith("/"):
                        forms = self.resolve_all(old + rest, cwd)[0]
                        hit = next((f for f in forms if paths.under_automount(f)), None)
                        if hit is not None:
                            checks.automount_path(word.text, hit, seg)
                            return True
                value = None
        elif value is None:
            # (`"$PWD/x"`: the working directory's; `"$HOME/.bashrc"`: the home folder's)
            value = working_folder_path(word) or home_parameter_path(word.text, self.ctx.home)
        if value is None:
            if _AUTOMOUNT_TEXT.search(word.text) is not None:  # (`"$PWD"/../net/x`)
                checks.automount_path(word.text, word.text, seg)
                return True
            pattern = paths.path_text(word) or home_parameter_glob(word.text, self.ctx.home)
            if pattern is not None:  # (a glob: `ls cfg/*`, `ls $HOME/*`)
                return self.automount_pattern(pattern, word.text, seg, cwd, maybe=maybe)
            values = self.loop_variable(word)
            if values is not None:
                # (`for f in *.txt; do test -e "$f"; done`: the loop's words)
                return any(
                    self.automount_pattern(one, word.text, seg, cwd, maybe=maybe)
                    for one in values
                )
            folder = _known_folder(word.text)
            if folder is not None:
                forms = self.resolve_all(folder, cwd)[0]
                hit = next((f for f in forms if _automount_folder(f)), None)
                if hit is not None:
                    checks.automount_path(word.text, hit, seg)
                    return True
            if maybe:
                # its expansion may supply a `/` or `..` (`${PWD:0:1}net/HOST`,
                # `$(printf /ne)t/HOST`, `foo/$(printf ../..)/net/HOST`)
                checks.automount_maybe(word.text, seg)
                return True
            return False
        forms, complete, _process = self.resolve_all(value, cwd)
        hit = next((f for f in forms if paths.under_automount(f)), None)
        if hit is not None:
            checks.automount_path(word.text, hit, seg)
            return True
        if maybe and not complete:
            # (a relative word where the working directory is not known: `cd "$X"`,
            # `cd -`, a CDPATH, `~user/..`)
            checks.automount_maybe(word.text, seg)
            return True
        return False

    def automount_pattern(
        self, text: str, shown: str, seg: SegmentState, cwd: paths.Cwd, *, maybe: bool
    ) -> bool:
        """Whether a glob pattern `text` (or a plain path) leads below `/net` where the
        shell opens a folder to expand it (asked); or, where `maybe`, may: a glob in `/`
        followed by more (`/*/HOST`, `ne?/HOST` in `/`), a folder where the working
        directory is not known, a value not known (review DX1)."""
        if "$" in text or "`" in text:
            if maybe:
                checks.automount_maybe(shown, seg)
            return maybe
        cut = min((i for i in (text.find(c) for c in "*?[") if i >= 0), default=-1)
        if cut < 0:
            folder, rest = text, ""
        else:
            head, slash, _name = text[:cut].rpartition("/")
            folder = (head or "/") if slash else "."
            rest = text[cut:]
        if folder == "." and cwd.known and cwd.candidates == self._context_cwd:
            # a glob in the context's working directory (`*.txt`, the usual one): where
            # its links lead was resolved with the context (a lookup per glob cost 8 µs)
            forms: tuple[str, ...] = tuple(sorted(cwd.candidates))
            complete = True
        else:
            forms, complete, _process = self.resolve_all(folder, cwd)
        hit = next((f for f in forms if paths.under_automount(f)), None)
        if hit is not None:
            checks.automount_path(shown, hit, seg)
            return True
        if not maybe:
            return False
        more = "/" in rest.rstrip("/")
        if not complete or (more and "/" in forms):
            checks.automount_maybe(shown, seg)
            return True
        return False

    def automount_cd(self, segment: Segment, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """`cd lnk` where the link leads below `/net` (review DT1): where `cd` goes; `cd -`
        where the environment's OLDPWD is below it (review DX1)."""
        _changes, target = paths.cd_target(segment, self.ctx.home)
        if target is None:
            old = self.ctx.env.get("OLDPWD", "")
            operands = [w.value for w in segment.command_words[1:] if w.value != "--"]
            if operands[:1] == ["-"] and paths.under_automount(os.path.normpath(old) + "/"):
                checks.automount_path("-", old, seg)
                return True
            return False
        forms, _complete, _process = self.resolve_all(target, cwd)
        place = next((form for form in forms if paths.under_automount(form)), None)
        if place is not None:
            checks.automount_path(target, place, seg)
            return True
        return False

    def unread_declaration(self, segment: Segment, seg: SegmentState) -> None:
        """`builtin export X=…`, `command -p export X=…`, `'export' X=…`, `\\export X=…`:
        bash runs the declaration builtin, but the analyser records declarations only for
        the bare keyword, so the env rules never saw `X=…` (reviews BG2, BG3:
        `builtin export TAR_OPTIONS=…; tar tf x.tar` ran a checkpoint action)."""
        words = run_words(segment.words)
        first = words[0] if words else None
        if first is None or first.value not in DECLARATION_BUILTINS:
            return
        # (a bare `export` the analyser read has `declared` filled and is not here; one it
        # did not, after a leading redirect or `!`, is: review BI1)
        if any(w.value is None or "=" in w.value for w in words[1:]):
            seg.floor(
                Verdict.ASK,
                "engine.unread-declaration",
                f"`{short(segment.text)}` declares variables in a spelling the analyser does "
                "not read as a declaration, so the environment rules could not judge them",
            )

    def loop_header(self, segment: Segment) -> None:
        name = segment.name or ""
        # a quoted `~` is a character (`for f in "~/x"`: `$f` names `./~/x`, review AC4)
        texts = tuple(_loop_word_texts(w) for w in segment.words)
        known = segment.words and all(t is not None for t in texts)
        words = tuple(one for t in texts if t is not None for one in t)
        if known:  # (what any of its loops gives it, checked where it is not trusted)
            self.loop_words[name] = tuple(dict.fromkeys((*self.loop_words.get(name, ()), *words)))
        reassigned = self.reassigned()
        if (
            name in self.loop_values
            # another header anywhere in the line, even a later one: a loop around both
            # runs a use again after it (`for i in 1 2; do cat "$f"; for f in .env; …`)
            or self._loop_headers.get(name, 0) > 1
            or not known
            or _set_by_bash(name)
            # the environment's value stays where the loop does not run (`false && for
            # DEBUG in README; do :; done; cat "$DEBUG"`) or runs in a subshell (EB6)
            or name in self.ctx.env
            or reassigned is None
            or name in reassigned
            or segment.text.lstrip().startswith("select")
        ):
            self.loop_values[name] = None  # reused or unknowable: never trusted
            return
        self.loop_values[name] = words
        # a loop in a subshell, a pipeline's stage, a background job, a substitution or a
        # function's body sets its variable there only (review EB6): its words hold in
        # the segments of that group, of that line (and of the lines nested in them)
        if not self.loop_where:
            return
        where = self.loop_where[-1]
        if where[0] is self.root and where[1] == 0 and not where[2]:
            self.loop_scopes.pop(name, None)  # (the line's own: every later segment's)
        else:
            self.loop_scopes[name] = where

    def note_loops(self, line: CommandLine) -> None:
        """Count the `for` (and `select`) headers of `line` and of the lines nested in it,
        by name, and add their words to `loop_words` (those whose words are all known),
        before any of their segments is judged: a name that more than one header of the
        lines met sets is never trusted, as a segment judged before a later header in
        the text may run after it (an enclosing loop, a function called later: review
        EF3). Each line once (kept, so that its id stays its own)."""
        if id(line) in self._loops_noted:
            return
        for one in lines(line):
            if id(one) in self._loops_noted:
                continue
            self._loops_noted[id(one)] = one
            for segment in one.segments:
                name = segment.name
                if segment.kind is not SegmentKind.LOOP_HEADER or not name:
                    continue
                self._loop_headers[name] = self._loop_headers.get(name, 0) + 1
                texts = tuple(_loop_word_texts(w) for w in segment.words)
                if segment.words and all(t is not None for t in texts):
                    known = (text for t in texts if t is not None for text in t)
                    old = self.loop_words.get(name, ())
                    self.loop_words[name] = tuple(dict.fromkeys((*old, *known)))

    def assigned_before(self, name: str) -> str | None:
        """The literal value of a plain assignment to `name` (`f=README`) that runs
        just before the segment being judged, in the same list of the same line, with
        nothing between them that may set `name` again: a `for` loop's words do not
        reach that segment's `$name` (`for f in .env; do f=README; cat "$f"; done`).

        Straight-line only: the assignment and each segment after it up to the one
        judged are in one list, joined by `;` or a newline alone (not `&&`, `||`, `|`,
        `&`, nor a compound's edge); the segments between only assign other variables;
        the judged one sets no variable. None on a line that may set variables the
        analyser cannot name, that sets a trap (a DEBUG trap runs before every
        command), or that names an alias or the files bash loads (`BASH_ENV`, `ENV`):
        an alias ending in `&&` makes the assignment after it conditional (review EF2),
        where the loop's words are still checked."""
        if not self.loop_where:
            return None
        line, _group, _inside, index = self.loop_where[-1]
        if index == 0 or index >= len(line.segments):
            return None
        reassigned = self.reassigned()
        if reassigned is None or name not in reassigned or self._sets_trap():
            return None
        return _assigned_before(line, index, name)

    def _sets_trap(self) -> bool:
        """Whether the line's text names `trap`, `alias` (`expand_aliases`), `BASH_ENV`
        or `ENV`, however quoted (`t\\rap`, `al\\ias`)."""
        if self._trap is None:
            root = self.root
            texts = [] if root is None else [one.text for one in lines(root)]
            self._trap = _CHANGES_FLOW.search(_QUOTING_CHARS.sub("", "\n".join(texts))) is not None
        return self._trap

    def reassigned(self) -> frozenset[str] | None:
        """The variables the line may set other than by a `for` loop, None where it may set
        any (see `_reassigned`), found once."""
        if self._reassigned is None:
            root = self.root
            self._reassigned = (None if root is None else _reassigned(root),)
        return self._reassigned[0]

    def recursion(self, segment: Segment, seg: SegmentState) -> None:
        """A function body that calls a function of the line is the fork-bomb shape."""
        name = segment.words[0].value if segment.words else None
        if name is not None and name in self.functions:
            seg.read_only = False
            seg.floor(
                Verdict.DENY,
                "engine.fork-bomb",
                f"function `{name}` calls itself (the shape of a fork bomb)",
            )

    def nested(self, line: CommandLine, cwd: paths.Cwd, poison: Poison | None, where: str) -> None:
        self.visit_line(line, cwd, poison, line.context or where)

    # -- words -----------------------------------------------------------------------
    def expansions(
        self, word: Word, position: str, seg: SegmentState, cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        for expansion in word.expansions:
            self.expansion(expansion, position, seg, cwd, poison)

    def expansion(
        self,
        exp: Expansion,
        position: str,
        seg: SegmentState,
        cwd: paths.Cwd,
        poison: Poison | None,
    ) -> None:
        if exp.kind is ExpansionKind.ANSI_C:
            return
        if exp.kind is ExpansionKind.ARITHMETIC:
            self.data_use(_names_in(exp.text), exp.text, "arithmetic", seg)
            if _joins_in_text(exp.text[3:]):  # past the `$((` (`$((q[a${z}b]))`: BG4)
                self.joined_name(exp.text, seg)
        elif exp.kind is ExpansionKind.PARAMETER and exp.text.startswith("${"):
            if "@P" in exp.text:
                # whatever the value, prompt decoding turns `\044(` into `$(` and runs it
                seg.floor(
                    Verdict.ASK,
                    "engine.prompt-expansion",
                    f"`{short(exp.text)}` expands a value as a prompt string, which runs "
                    "commands spelt with prompt escapes (`\\044(cmd)`)",
                )
            for names, what in _parameter_uses(exp):
                self.data_use(names, exp.text, what, seg)
            if "[" in exp.text and _JOINED_NAME.search(_QUOTING_CHARS.sub("", exp.text)):
                self.joined_name(exp.text, seg)
            if "[" in exp.text and ("$'" in exp.text or '$"' in exp.text):
                # `${a[$'\x24(cmd)']}`: the subscript is expanded, then evaluated
                seg.floor(
                    Verdict.ASK,
                    "engine.data-evaluated",
                    f"`{short(exp.text)}` evaluates a subscript spelt with escapes",
                )
        if exp.kind is ExpansionKind.PARAMETER:
            self.secret_expansion(exp, seg)
        action = self.rules.disqualifier(exp.kind, position)
        if exp.kind in _SUBSTITUTIONS:
            if exp.nested is None:
                self.complete = False
                seg.floor(
                    Verdict.ASK,
                    "engine.unseen-substitution",
                    f"cannot see inside `{short(exp.text)}`",
                )
            else:
                self.nested(exp.nested, cwd, poison, f"inside `{short(exp.text)}`")
            # output of a substitution is data the policy cannot see
            seg.read_only = seg.read_only and exp.nested is not None
        if action is None:
            return
        verdict, rule_id, location = action
        seg.floor(
            verdict,
            rule_id,
            f"{exp.kind} expansion `{short(exp.text)}` in {position.replace('-', ' ')}",
            location,
        )

    def secret_expansion(self, exp: Expansion, seg: SegmentState) -> None:
        """`$GITHUB_TOKEN` puts a secret's value in the command's output or arguments,
        from where the model reads it; `${!X}` may name any variable."""
        table = self.rules.policy.env
        if not table.secrets:
            return
        text = exp.text
        if "${!" in text and text != "${!}" and not _NAMES_ONLY.fullmatch(text):
            seg.floor(
                Verdict.ASK,
                "engine.secret-variable",
                f"`{short(text)}` expands a variable that another one names, which may hold "
                "a secret",
            )
            return
        # every name the text mentions: the word of `${X:-…}` is expanded too, and inside
        # double quotes its single quotes are plain characters (`"${X:-'$T'}"`: review AA2).
        # A `for` variable is no exception: the loop may not run, or run in a subshell (AA1)
        names = [exp.name] if exp.name is not None else []
        for name in dict.fromkeys([*names, *_MENTIONED.findall(text)]):
            self.secret_name(name, f"`{short(text)}` expands", seg)

    def secret_name(self, name: str, what: str, seg: SegmentState) -> None:
        found = self.rules.policy.env.secret(name)
        if found is None:
            # a value that is plainly a credential, whatever the name: a URL with a user
            # and password (`HTTPS_PROXY`, `REDIS_URL`, `PIP_INDEX_URL`), a token of a
            # known kind (`GITHUB_PAT=ghp_…`) (review DR4)
            value = self.ctx.env.get(name)
            if value is not None and has_credential(value):
                seg.floor(
                    Verdict.ASK,
                    "engine.secret-variable",
                    f"{what} `{name}`, whose value holds a credential (a URL's password, a "
                    "token): it would reach the output the model reads",
                )
            return
        glob, ref = found
        seg.floor(
            Verdict.ASK,
            "engine.secret-variable",
            f"{what} `{name}`, which holds a secret (`env secret {glob}`): its value would "
            "reach the output the model reads",
            ref.location if ref is not None else None,
        )

    def printed_environment(
        self, found: SegmentRules, segment: Segment, seg: SegmentState
    ) -> None:
        """`env`, `printenv`, `export -p` … print variables, secrets among them."""
        table = self.rules.policy.env
        if not table.secrets:
            return
        words = found.inner
        wrapped = segment.wrapped
        if wrapped is not None and wrapped.chain and not wrapped.words:
            words = wrapped.chain[-1].words  # `timeout 5 env`: the last wrapper runs alone
        printed = printed_variables([w.value for w in words])
        if printed is None:
            return
        if printed and wrapped is not None and has_xargs(wrapped):
            printed = (None,)  # xargs adds names from its input (review AA4)
        if not printed:
            globs = " ".join(glob for glob, _ref in table.secrets[:4])
            seg.floor(
                Verdict.ASK,
                "engine.secret-variable",
                "prints every variable of the environment, those that hold secrets "
                f"(`env secret {globs}` …) included",
                table.secrets[0][1].location if table.secrets[0][1] is not None else None,
            )
            return
        for name in printed:
            if name is None:
                seg.floor(
                    Verdict.ASK,
                    "engine.secret-variable",
                    "prints a variable whose name is not a literal word, which may hold a secret",
                )
            else:
                self.secret_name(name, "prints", seg)

    # -- simple commands ---------------------------------------------------------------
    def simple(
        self, segment: Segment, seg: SegmentState, cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        words = segment.words
        if not words:
            return
        if words[0].expansions:
            self.expansions(words[0], "command-name", seg, cwd, poison)
        for word in words[1:]:
            if word.expansions:
                self.expansions(word, "argument", seg, cwd, poison)
        for left, right in itertools.pairwise(words):
            if left.span.end == right.span.start:
                seg.floor(
                    Verdict.ASK,
                    "engine.split-word",
                    f"`{short(left.text)}` runs into `{short(right.text)}`: bash reads one word",
                )
                break
        if words[0].value is None:
            seg.read_only = False
            seg.floor(
                Verdict.ASK,
                "engine.non-literal-command",
                f"the command name `{short(words[0].text)}` is not a literal word",
            )
            return
        self.evaluating_builtin(segment, seg)
        found = self.rules.segment_rules(segment)
        self.apply(found, segment, seg, cwd, poison)
        if self._loaded_paths is None:  # once per line: the environment is fixed
            self._loaded_paths = self._risky_loaded_paths()
        names = _path_names(segment, found)
        if self._loaded_paths:
            self.environment_code(names, seg, cwd)
        # files the environment names for a program (`LESSOPEN`, a lesskey file,
        # `RIPGREP_CONFIG_PATH`), whatever PATH holds: bash has its own where it has none
        # (review DK4)
        for name in names:
            if name.rpartition("/")[2] in _LESS_NAMES and self._less_preprocessor(name, seg, cwd):
                break
            if self._configured_elsewhere(name, seg):
                break
        # a PATH that is set but empty is one entry, the working folder, for bash and execvp
        # alike (`PATH= ls` runs `./ls`; bash 5.3's NEWS says so too): looked up like
        # `:/usr/bin`'s (review GQ4: it had been taken for no PATH, and allowed)
        if "PATH" in self.ctx.env:
            self.path_programs(names, seg, cwd, _login_shell(segment))
            if _runs_man(found.inner or words):
                self._documentation_path("git help", seg)
                self._pipeline_helpers("git help", seg, cwd)
        if _makes_link(found):
            self.link_makers.append(seg)
        if seg.verdict is Verdict.ALLOW:
            self.python_module_path(found, seg, cwd)
        writer = _tree_writer(found)
        folders = self.named_folders(found, cwd) if found.unruled and seg.approved else ()
        if found.unruled and seg.approved:
            self.unnamed_writers.append((seg, " ".join(w.text for w in found.inner[:2])))
            self.land_possible_copies(found, seg, cwd)
        if seg.approved or seg.shadowed:
            # `gulp --cwd ~` under `gulp`: the ask clause that matched first describes the
            # program no better; the folder it runs in is read whole (review HV7)
            moved = self.run_folders(found, cwd)
            if moved:
                self.read_folders_whole(moved, seg, cwd)
        if folders:
            # `pax -w -f x ~/.config`, `restic backup ~`: an approved program no rule
            # describes may read a folder it is given whole, into an archive the next
            # call prints (review BZ; inside the workspace: `read_folders_whole`)
            self.read_folders_whole(folders, seg, cwd)
        if seg.approved:
            self.formatter_links(found, seg, cwd)
        if writer is None and folders:
            # `mmv fix y`, `pax -rw fix docs`, `gio move fix y`: an approved program no rule
            # describes, given a folder, may move or copy it, links and all (review BX2)
            writer = " ".join(w.text for w in found.inner[:2])
        if writer is not None:  # `git switch`, `tar -x`: see `LineWrites` (review BV)
            self.tree_writers.append((seg, writer, found.git_dirs is not None))
        elif removes_only(found):
            self.removers.add(id(seg))
        elif _makes_git_directory(found):
            self.gitdir_makers.append((seg, " ".join(w.text for w in found.inner[:2])))

    def run_folders(self, found: SegmentRules, cwd: paths.Cwd) -> list[str]:
        """The existing folders `found`'s task runner is moved to by its options
        (`_WHOLE_FOLDER_OPTIONS`: `gulp --cwd ~`, `grunt --base ~`), whose approved tasks
        then read that folder, not the project's."""
        words = found.inner
        program = words[0].value if words else None
        name = program_name(program.rpartition("/")[2]) if program else ""
        start = 1
        if name in _WHOLE_FOLDER_VERBS:
            if len(words) < 2 or words[1].value != _WHOLE_FOLDER_VERBS[name]:
                return []
            name, start = f"{name} {words[1].value}", 2
        options = _WHOLE_FOLDER_OPTIONS.get(name)
        if options is None:
            return []
        folders: list[str] = []
        taking = False  # whether the word before takes this one as its value
        for word in words[start:]:
            value: str | None = None
            text = word.value
            if taking:
                value = tree_path(word)
            taking = False
            if text == "--":
                break
            if text is not None and len(text) > 1 and text.startswith("-"):
                glued, taking = _folder_option_values(text, options)
                for item in glued:
                    self._run_folder(item, cwd, folders)
            if value:
                self._run_folder(value, cwd, folders)
        return folders

    def _run_folder(self, value: str, cwd: paths.Cwd, folders: list[str]) -> None:
        """`run_folders`' reading of one folder a task runner's option names."""
        self.fs = True
        forms, _complete, _process = self.resolve_all(value, cwd)
        for form in forms:
            if os.path.isdir(form):
                folders.extend(self._around_workspace(form))

    def _around_workspace(self, folder: str) -> list[str]:
        """What the approved tasks moved to `folder` read that the workspace's do not,
        compared by real paths (review IA2: a workspace reached through a link): nothing
        for a folder inside the workspace (`gulp --cwd sub`, `gulp --cwd .`: the tasks
        read the workspace anyway, and the clause asks); for a folder holding it (`gulp
        --cwd ..`), at each level down to the workspace, the entries beside it that are,
        hold or lie in a protected place or lead to one (`~/.ssh`, the home, `/root`),
        not every sibling with a budget of its own (review IA3: the clause asks);
        any other folder whole."""
        real = os.path.realpath(folder)
        real_workspace = os.path.realpath(self.ctx.real_workspace or self.ctx.workspace)
        if paths.is_within(real, real_workspace):
            return []
        pairs = ((real, real_workspace), (folder, self.ctx.workspace))
        held = [(top, w) for top, w in pairs if w != top and paths.is_within(w, top)]
        if not held:
            return [folder]
        homes = self._protected_places(homes_only=True)
        if any(paths.is_within(home, top) for home in homes for top in (folder, real)):
            # (`gulp --cwd ..` from `~/proj`, `gulp --cwd /`: the home read whole)
            return [self.ctx.home]
        level, workspace = held[0]
        places = self._protected_places()
        found: list[str] = []
        try:
            while level != workspace:
                step = workspace[len(level.rstrip("/")) + 1 :].partition("/")[0]
                with os.scandir(level) as entries:
                    for entry in entries:
                        if entry.name != step and _near_places(entry.path, places):
                            found.append(entry.path)
                level = os.path.join(level, step)
        except OSError:
            return [folder]
        return found

    def _protected_places(self, *, homes_only: bool = False) -> tuple[str, ...]:
        """The homes, as given and resolved, and (unless `homes_only`) the literal places
        the protected read rules name (`~/.ssh`, `/root/.ssh`, `/run/secrets`)."""
        homes = dict.fromkeys(home for home, _ in self.ctx.anchors())
        places: dict[str, None] = dict.fromkeys(homes)
        for rule in () if homes_only else self.rules.policy.protected.rules:
            prefix = rule.literal_prefix
            if not prefix or rule.anchor == WORKSPACE or not rule.access.covers(Access.READ):
                continue
            for base in homes if rule.anchor == HOME else ("",):
                places[f"{base.rstrip('/')}/{prefix.lstrip('/')}"] = None
        return tuple({**places, **dict.fromkeys(os.path.realpath(p) for p in places)})

    def named_folders(self, found: SegmentRules, cwd: paths.Cwd) -> list[str]:
        """The operands of `found` that name a folder that exists (links followed); not
        a class path's (`checks.READ_PATH_OPTIONS`: javac reads classes there, review
        DT12)."""
        folders: list[str] = []
        program = found.inner[0].value if found.inner else None
        name = program_name(program.rpartition("/")[2]) if program else ""
        skipped = read_path_values(name, found.inner[1:])
        for word in found.inner[1:]:
            value = tree_path(word)
            if value is None or value.startswith("-") or id(word) in skipped:
                continue
            self.fs = True
            forms, _complete, _process = self.resolve_all(value, cwd)
            if any(os.path.isdir(form) for form in forms):
                folders.append(value)
        tool = module_tool([w.value for w in found.inner])
        if not folders and (tool[0] if tool is not None else name) == "ruff":
            folders.append(".")  # (bare `ruff check` walks its folder: review FX2)
        return folders

    def formatter_links(self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd) -> None:
        """A formatter (ruff, black, `cargo fmt`, `terraform fmt` …) reads and rewrites the
        files it finds below the folders it is given, or the one it runs in, by their names;
        a committed link named like one takes the read and the rewrite elsewhere: `x.tf ->
        .env` printed by an approved `terraform fmt -diff`, `src/y.rs -> ../.env` by `cargo
        fmt`'s parse error (review GF1), `lib.py -> ~/.config/…/startup/00.py` rewritten by
        ruff's `--fix` (FX3). Each such link's target is judged as read and as written;
        so is the folder of a link to one, whole, for the tools that walk into it (isort,
        mypy: review GO1; not `_LINK_SKIPPERS`).
        Which folders each formatter skips is `_FORMATTERS`' to say; a tree too large to
        look through asks."""
        formatter = _formatter(found)
        if formatter is None:
            return
        tool, (suffixes, hidden, skip) = formatter
        self.fs = True
        folders = self.named_folders(found, cwd)
        if not folders and not self._names_a_path(found, cwd):
            folders = ["."]
        if tool in ("mypy", "dmypy"):
            # mypy finds the modules a file imports by name below the folder it runs in
            # and the folders its configuration names (`files = src`, `mypy_path`), and
            # prints their lines (`pretty`): a `src/key.py -> ~/.ssh/id_rsa` (review GK3)
            # and puts a file operand's own folder on its search path (`mypy .hidden/a.py`
            # imported `.hidden/leak.py`: review GM2)
            folders = list(
                dict.fromkeys(
                    [
                        *folders,
                        ".",
                        *self._file_operand_folders(found, cwd),
                        *self._mypy_config_folders(cwd),
                    ]
                )
            )
        if tool == "flake8":
            skip = self._flake8_skipped(found, cwd, skip)
        if skip is _NODE_SKIPPED and any(
            w.value is None or w.value.startswith(_NODE_UNSKIPPING) for w in found.inner[1:]
        ):
            skip = _GIT_ONLY  # (`prettier --with-node-modules`, `eslint --no-ignore`)
        # (a checker only reads: its links are judged as read, review GK3)
        modes = ("read",) if tool in _READ_ONLY_TOOLS else ("read", "write")
        for folder in folders:
            for form in self.resolve_all(folder, cwd)[0]:
                if not os.path.isdir(form):
                    continue
                tree = scan_tree(form, hidden=hidden, budget=checks.TREE_BUDGET, skip=skip)
                if not tree.complete:
                    seg.floor(
                        Verdict.ASK,
                        "engine.tree-budget",
                        f"the links below `{short(folder)}` are too many to look through",
                    )
                    return
                root = os.path.realpath(form)
                for link, target in tree.links:
                    if os.path.isdir(target):
                        if tool not in _LINK_SKIPPERS and not _walked(target, root, hidden, skip):
                            # (isort and mypy walk into a link to a folder: review GO1)
                            for mode in modes:
                                self.check_path(target, mode, seg, cwd, subtree=True)
                    elif link.endswith(suffixes):
                        for mode in modes:
                            self.check_path(target, mode, seg, cwd)

    def _flake8_skipped(
        self, found: SegmentRules, cwd: paths.Cwd, defaults: frozenset[str]
    ) -> frozenset[str]:
        """The folders flake8 skips where the line runs: its configuration's `exclude`
        (in place of its defaults) or `extend-exclude` plain names, those every folder
        the line may run in has; its defaults where the line gives options that change
        them (`--exclude`, `--isolated`, `--config`, in any abbreviation) none: `--exclude
        foo` replaces the defaults, so flake8 walked `.tox` (review GM3)."""
        for word in found.inner[1:]:
            option = (word.value or "-").partition("=")[0]
            if option.startswith("--") and any(
                name.startswith(option[2:]) for name in _FLAKE8_CONFIG_OPTIONS
            ):
                return frozenset()
            if word.value is None:
                return frozenset()
        skipped: frozenset[str] | None = None
        for folder in sorted(cwd.candidates):
            excludes = flake8_excludes(folder, self.ctx.home)
            if excludes is None:
                return defaults
            names, replaces = excludes
            here = names if replaces else names | defaults
            skipped = here if skipped is None else skipped & here
        return defaults if skipped is None else skipped

    def _file_operand_folders(self, found: SegmentRules, cwd: paths.Cwd) -> list[str]:
        """The folders of the operands of `found` that name a file that exists, each up
        to its package base: mypy searches from the folder above a file's chain of
        `__init__.py` folders (review GN3: `mypy .hidden/pkg/a.py` read `.hidden/leak.py`)."""
        folders: list[str] = []
        for word in found.inner[1:]:
            value = tree_path(word)
            if value is None or value.startswith("-"):
                continue
            forms = self.resolve_all(value, cwd)[0]
            if not any(os.path.isfile(form) for form in forms):
                continue
            folder = os.path.dirname(value) or "."
            folders.append(folder)
            for form in forms:
                base = os.path.dirname(form)
                while os.path.lexists(os.path.join(base, "__init__.py")) or os.path.lexists(
                    os.path.join(base, "__init__.pyi")
                ):
                    parent = os.path.dirname(base)
                    if parent == base:
                        break
                    base = parent
                    folders.append(base)
        return folders

    def _mypy_config_folders(self, cwd: paths.Cwd) -> list[str]:
        """The folders the mypy configuration files read where the line runs name
        (`files`, `mypy_path`), the user's too where they lie in the workspace."""
        folders: list[str] = []
        for folder in sorted(cwd.candidates):
            users = [os.path.join(folder, path) for path in self._checker_user_files("mypy")]
            for path in [*_checker_files("mypy", folder), *users]:
                folders.extend(mypy_folders(path))
        return folders

    def _checker_user_files(self, name: str) -> list[str]:
        """The user-level configuration files checker `name` reads (mypy's
        `$XDG_CONFIG_HOME/mypy/config`, `~/.config/mypy/config`, `~/.mypy.ini`; pylint's
        `$PYLINTRC`, `~/.pylintrc`, `~/.config/pylintrc`; flake8 reads none since 4.0)
        that lie in the workspace: a home that is the workspace (a dotfiles repository)
        makes them the repository's, as the EM3 start-up files (review GK5)."""
        home, env = self.ctx.home, self.ctx.env
        if name == "mypy":
            xdg = env.get("XDG_CONFIG_HOME")
            found = [os.path.join(xdg, "mypy", "config")] if xdg else []
            found += [os.path.join(home, ".config/mypy/config"), os.path.join(home, ".mypy.ini")]
        elif name == "pylint":
            rc = env.get("PYLINTRC")
            found = [rc] if rc else []
            found += [os.path.join(home, ".pylintrc"), os.path.join(home, ".config", "pylintrc")]
        else:
            return []
        return [path for path in found if self._reaches_workspace(path)]

    def _names_a_path(self, found: SegmentRules, cwd: paths.Cwd) -> bool:
        """Whether an operand of `found` names a file or folder that exists: a formatter
        given none walks the folder it runs in (`cargo fmt`, `terraform fmt`)."""
        for word in found.inner[1:]:
            value = tree_path(word)
            if value is None or value.startswith("-"):
                continue
            if any(os.path.lexists(form) for form in self.resolve_all(value, cwd)[0]):
                return True
        return False

    def read_folders_whole(self, folders: Sequence[str], seg: SegmentState, cwd: paths.Cwd) -> None:
        """Each folder read as a whole tree, hidden files too: a protected folder below
        one outside the workspace is found (`restic backup ~` reaches `~/.ssh`). Inside
        the workspace only the folder itself and the links below it are checked, not the
        `.env` files in it, as for `ls -RL`: `black .`, `eslint .` are what such approvals
        are for, and whether the program prints what it reads cannot be told."""
        self.reads_contents = False  # (these are set per segment: `path_checks`)
        self.tracked_reads = None
        self.reader_cwds = ()
        self.reads_hidden = True
        self.ignore_files = ()
        # it may follow the links below, wherever they lead (review CA5: an approved `lz4
        # -rc fix` printed `~/.ssh/id_rsa` through a shipped `fix/hl -> ~`)
        self.follows_links = True
        self.whole_folder_reads = True
        for folder in folders:
            self.check_path(folder, "read", seg, cwd, subtree=True)
        self.whole_folder_reads = False

    def apply(
        self,
        found: SegmentRules,
        segment: Segment,
        seg: SegmentState,
        cwd: paths.Cwd,
        poison: Poison | None,
    ) -> None:
        for reason in found.floors:
            seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
        if found.opaque:
            self.complete = False
        for line in found.nested:
            self.nested(line, cwd, poison, "inside a shell's -c string")
        seg.read_only = seg.read_only and found.read_only
        self.rule_verdict(found, seg, cwd)
        self.container_options(found.inner, seg)
        self.runner_command(found.inner, seg, cwd)
        self.npm_call_variable(segment, found.inner, seg, cwd)
        self.instance_command(found.inner, seg, cwd)
        self.instance_setting(found.inner, segment, seg)
        self.windows_program(found.inner, seg, cwd)
        self.unread_code(segment, seg, cwd)
        # (`GIT_DIR=x git grep`, `env GIT_INDEX_FILE=i git grep`, `export …; git grep`)
        self.env_unsure = poison is not None or bool(segment.assignments) or (
            len(found.inner) != len(segment.words)
        )
        self.path_checks(found, seg, cwd)
        self.printed_environment(found, segment, seg)
        values = [w.value for w in found.inner]
        elsewhere = runs_elsewhere(values)
        offered = seg.approved or seg.suggestion is not None
        remote = offered and _REMOTE_NAMES.search(values[0] or "") is not None
        here = None
        if remote:
            # ~/.ssh/config is read: a decision that depends on it is not kept (review AX5)
            self.fs = True
            here = loopback_reach(values, ssh_loopback_aliases(self.ctx.home))
        if here is not None:
            # the approval was given for other hosts; this one runs here (review S9)
            if seg.approved:
                message = f"connects back to this machine (`{here}`), which no approval covers"
                seg.floor(Verdict.ASK, "engine.approved-loopback", message)
            seg.suggestion = None
            elsewhere = True  # asks already: the later words need no trial
        segment_cwd = cwd  # where `git -C DIR` finds DIR (review BN5)
        if found.run_in is not None:  # `git -C DIR add x`: x is relative to DIR (review S4)
            cwd = paths.moved(cwd, found.run_in, self.ctx.home)
        verb = found.inner[1].value if found.git_dirs is not None and len(found.inner) > 1 else None
        if verb is not None and verb not in GIT_BUILTINS and not verb.startswith("-"):
            self.git_alias_expanded(found, verb, seg, cwd, poison)
        covered = seg.approved or seg.shadowed
        judged: frozenset[int] = frozenset()
        if found.standing and not covered and seg.verdict is Verdict.ALLOW:
            # an `allow X **` rule is a standing approval of `X`: its `**` covers words,
            # not the protected files or other programs they name (review AF5: a team's
            # `allow pytest -q **` let `--junitxml=~/.bashrc` past the org's protect rule);
            # words the path-role table judged keep that judgement
            covered = found.specificity
            judged = frozenset(id(word) for word, _access, _deep in found.path_words)
        patterns = _rsync_patterns(found)
        judged |= patterns | _rsync_receiver_words(found)
        if covered and not elsewhere:
            self.approved_rest(found.inner[:covered], found.inner[covered:], seg, cwd, judged)
        elif seg.suggestion is not None and not elsewhere:
            # a suggestion is a promise: approved, it lets this segment through. Where the
            # words after it would still ask or deny (a path outside the workspace, a word
            # not known), approving is no use: nothing is offered (approve once instead)
            # (fed as the segment is: an approved sender asks when fed, `STDIN_SENDERS`)
            trial = SegmentState(text=seg.text, context=seg.context, fed=seg.fed)
            size = _covered(seg.suggestion)
            self.approved_rest(
                found.inner[:size], found.inner[size:], trial, cwd, patterns, trial=True
            )
            if trial.verdict is not Verdict.ALLOW or self._config_chosen_files(found, cwd):
                seg.suggestion = None  # (`engine.linter-config` would ask: review FL11)
        if not covered and seg.verdict is Verdict.ALLOW:
            self.rust_toolchain(found.inner, seg, cwd)  # (a rule's allow: review GD1)
        if found.git_dirs is not None and seg.verdict is not Verdict.DENY:
            self.git_tree_state(found, seg)
        if found.git_dirs is not None and (
            seg.verdict is Verdict.ALLOW or (seg.approved and seg.verdict is Verdict.ASK)
        ):
            # the `-C` directories are relative to the segment's own folder: resolved from
            # the moved one, `cd sub && git -C .. status` looked for the repository above
            # the workspace and missed its `core.fsmonitor` (review BN5). An approved line
            # the approval's own checks made ask is checked too: the configuration may
            # deny it (a remote in `~/.aws`), which an ask must not hide (as review FK2)
            self.git_check(found, seg, segment_cwd)

    def rule_verdict(
        self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd | None = None
    ) -> None:
        verdict = found.verdict
        reason = found.reason
        # (a floor beside a read-only rule takes nothing from its write: review FK2)
        placeholder = found.read_only or found.opaque or found.rule_read_only
        # a read-only rule's write is no prefix to approve: approved once as `echo` (for
        # `echo hi > notes.txt`), `echo x > ANY-FILE` was allowed from then on (review L3)
        approvable = not found.locked and not found.exception
        program = _program_path(found.invoked_as, cwd)
        if found.invoked_as is not None and program is None:
            approvable = False  # a script whose folder is not known: approved by nothing
        if verdict is Verdict.ALLOW and placeholder and seg.writes is not None:
            approvable = False
            # the rule no longer applies; what would without it is at least ask. An opaque
            # wrapper's placeholder allow is no rule at all: its own writes are judged the same
            # way (`watch -n 1 ls $X > x` must be no looser than `ls $X > x`). A failed
            # `checked-by` check is left to the default the same way (`rules._match_verdict`).
            reason = self._write_reason(reason, seg.writes)
            verdict = reason.verdict
        if found.otherwise is not None:
            # an undecidable rule asks; what holds where it does not apply may be a deny,
            # and then the line is denied whichever way the word goes (review FK2)
            otherwise = found.otherwise
            if found.otherwise_read_only and seg.writes is not None:
                otherwise = self._write_reason(otherwise, seg.writes)
            if otherwise.verdict.rank > verdict.rank:
                verdict, reason, approvable = otherwise.verdict, otherwise, False
        # only an ask is approved or suggested: the script is looked at for those alone
        scripts, placed = (
            self.script_operand(found, cwd) if verdict is Verdict.ASK else ((), True)
        )
        if not placed:
            approvable = False
        if (
            verdict is Verdict.ASK
            and approvable
            and self.approvals is not None
            and found.inner
        ):
            words = [w.value for w in found.inner]
            if program is not None:
                words[0] = program
            for index, script in scripts:
                words[index] = script
            approved = self.approvals.match(tuple(words))
            if approved is not None and found.from_xargs:
                # `echo -o.git/hooks/x | xargs gcc x.c`: the approval's checks of the words
                # after its prefix cannot see the ones xargs adds (review AF3)
                seg.floor(
                    Verdict.ASK,
                    "engine.xargs-arguments",
                    f"`{format_rule(approved)}` is approved, but xargs adds words to it that "
                    "the approval's checks cannot see",
                )
            elif approved is not None and (elsewhere := self._approval_elsewhere(seg, cwd)):
                # an approval is given for this project's commands: `make test` approved
                # here ran the Makefile of any folder, one a clone had just made too
                # (review AH5)
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-elsewhere",
                    f"`{format_rule(approved)}` is approved, but this {elsewhere}",
                )
            elif approved is not None and (chosen := self._config_chosen_files(found, cwd)):
                # `ruff check .`, `black .`: the files read, printed and rewritten are the
                # ones the repository's configuration picks (`include = [".env"]`), which
                # no word of the approved line names (review FL11)
                seg.floor(
                    Verdict.ASK,
                    "engine.linter-config",
                    f"`{format_rule(approved)}` is approved, but {chosen}",
                )
            elif approved is not None and is_exact(approved) and seg.fed:
                # `redis-cli $`, `openssl $` approved bare: fed commands on their input,
                # they do what those say (review DF3); an exact approval is of the line
                # as it was offered, run with nothing fed
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-fed-input",
                    f"`{format_rule(approved)}` is approved, but here the line feeds the "
                    "command its input, which that exact approval does not cover",
                )
            elif approved is not None and len(approved) >= found.specificity:
                if cwd is not None and cwd.candidates != self.start.candidates:
                    self.moved_approvals.append((seg, format_rule(approved)))
                seg.approved = _covered(approved)
                verdict = Verdict.ALLOW
                reason = Reason(
                    rule_id="approval",
                    message=f"approved: `{format_rule(approved)}`",
                    verdict=Verdict.ALLOW,
                    segment=seg.text,
                )
                self._package_bin_clauses(found, seg)
        elif verdict is Verdict.ASK and found.exception and self.approvals is not None:
            # `pytest --junitxml=~/.bashrc` under `pytest`: a clause asks first (the `~…`
            # word might be `--basetemp`), but the approval's checks still deny the write
            words = [w.value for w in found.inner] or [None]
            if program is not None:
                words[0] = program
            for index, script in scripts:
                words[index] = script
            shadow = self.approvals.match(tuple(words))
            seg.shadowed = len(shadow) if shadow is not None else 0
        if reason is not None:
            seg.reasons.append(
                _objects.reason(
                    reason.rule_id, reason.message, reason.verdict, reason.location, seg.text
                )
            )
        if (
            verdict is Verdict.ASK
            and approvable
            and found.inner
            and not found.from_xargs
            and not self._approval_elsewhere(seg, cwd)
        ):
            suggestion = self.rules.suggest(found.inner, found.view, ruled=found.specificity > 0)
            if suggestion is not None and len(suggestion) < found.specificity:
                # `ask git bisect run **` is not lifted by approving `git bisect`: offer the
                # rule's own words, when they are plain words
                words = [w.value for w in found.inner[: found.specificity]]
                plain = all(w is not None and not w.startswith("-") for w in words)
                suggestion = tuple(w for w in words if w is not None) if plain else None
            if suggestion is not None and seg.fed and is_exact(suggestion):
                suggestion = None  # (its approval would not cover this line: see above)
            if suggestion is not None and program is not None:
                suggestion = (program, *suggestion[1:])
            for index, script in scripts:
                if suggestion is not None and 0 < index < len(suggestion):
                    suggestion = (*suggestion[:index], script, *suggestion[index + 1 :])
            seg.suggestion = suggestion
        seg.locked = found.locked and verdict is not Verdict.ALLOW
        seg.verdict = seg.verdict.at_least(verdict)

    def _package_bin_clauses(self, found: SegmentRules, seg: SegmentState) -> None:
        """An approved package runner's line (`yarn snakemake -s /tmp/x` under `yarn
        snakemake`, `yarn run gulp --gulpfile /tmp/x.js` under `yarn run gulp`) is held to
        the clauses of its program's own ask and deny rules (`snakemake-other-file`), which
        its approval covers no more than the program's own approval does (review HV3)."""
        if package_scopes_unread([w.value for w in found.inner]):
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                "the line nests more `workspace`, `workspaces` or `recursive` scopes than "
                "are read here, so the program it runs is not known, and no approval "
                "covers it",
            )
            return
        for inner in self.rules.package_bin_variants(found.inner):
            # (a yarn line with `--` both as yarn 1 reads it and as berry does: HY1)
            if inner.unruled or inner.verdict is Verdict.ALLOW:
                continue
            if not inner.exception or inner.reason is None:
                continue  # (a rule of the program's whole line is what the approval is of)
            reason = inner.reason
            seg.floor(inner.verdict, reason.rule_id, reason.message, reason.location)

    def _write_reason(self, reason: Reason | None, writes: str) -> Reason:
        """A read-only rule (`reason`'s) no longer applies to a line that writes `writes`:
        what would without it is at least ask, the policy's default raised to ask."""
        rule = reason.rule_id if reason is not None else "readonly"
        verdict = self.rules.policy.default.at_least(Verdict.ASK)
        return Reason(
            rule_id=rule,
            message=f"the read-only rule `{rule}` does not cover writing `{writes}`",
            verdict=verdict,
            location=reason.location if reason is not None else None,
        )

    def script_operand(
        self, found: SegmentRules, cwd: paths.Cwd | None
    ) -> tuple[tuple[tuple[int, str], ...], bool]:
        """The scripts an interpreter, a shell or `source` runs (`python3 x.py`), directly
        or through an exact runner (`uv run python3 x.py`, `uv run x.py`), made absolute as
        approvals name them: approved in one folder, `python3 x.py` was approved in every
        folder and project (reviews AF6, AG4). Returns `(anchors, placed)`: `anchors` are
        `(index, absolute path)` for each relative script word; `placed` is False when the
        folder is not known (then nothing approves it)."""
        values = [w.value for w in found.inner]
        runners = self.rules.policy.runners
        size, runner = runners.find(values)
        if size == 0:
            found_at = self._script_at(values, 0, ruled=found.specificity > 0)
            indexes: tuple[int, ...] = () if found_at is None else (found_at,)
        elif runners.is_exact(runner):
            starts, _complete = program_starts(values, size)
            indexes = tuple(
                index
                for start in starts
                if (index := self._script_at(values, start, ruled=True, run=True)) is not None
            )
        else:
            indexes = ()  # an inexact runner's command cannot be told: nothing approves it
        anchors: list[tuple[int, str]] = []
        if size and runners.is_exact(runner):
            # `uv run ls` runs the project environment's `ls` when it has one: approved by
            # where that is, as a program run by path (review EE7)
            for start in program_starts(values, size)[0]:
                where = self.project_program(found.inner, start, cwd)
                if where is not None:
                    anchors.append((start, where))
        for index in indexes:
            path = _program_path(values[index] or "", cwd)
            if path is None:
                return (), False
            anchors.append((index, path))
        return tuple(anchors), True

    def _script_at(
        self, values: Sequence[str | None], start: int, *, ruled: bool, run: bool = False
    ) -> int | None:
        """Where the relative script of the command at `start` is: the word after a
        program that runs one (`python3 x.py`), or, for a runner's command (`run`), the
        command word itself when it names a script (`uv run x.py`, `uv run ./x.sh`)."""
        name = values[start] if start < len(values) else None
        if name is None:
            return None
        relative = name[:1] not in ("-", "/", "")
        if run and relative and ("/" in name or self.rules.names_script(name)):
            return start
        verb_script = self.rules.verb_script_at(values, start)
        if verb_script is not None:
            return verb_script  # `nim r x.nim`, `stack runghc x.hs` (review FL14)
        value = values[start + 1] if start + 1 < len(values) else None
        if not value or value[0] in "-/" or not self.rules.runs_script(name, value, ruled=ruled):
            return None
        if self.rules.has_verb(name, value):
            return None  # `bun pm ls`, `bun install`: a verb, not a script
        if not run and self.rules.policy.runners.find([name, value])[0]:
            return None  # `uv run …` read as a script: the runner's branch judges it
        return start + 1

    def approved_rest(
        self,
        prefix: Sequence[Word],
        rest: Sequence[Word],
        seg: SegmentState,
        cwd: paths.Cwd,
        judged: frozenset[int] = frozenset(),
        *,
        trial: bool = False,
    ) -> None:
        """What an approval of `prefix` does not cover in the words after it (review R).

        A person approves what a program does, not every file or program its later words
        may name. So each word is checked as a path both read and written (approved `gcc`,
        `gcc x.c -o .git/hooks/pre-commit`; approved `pytest`, `--basetemp=/home/u`): a
        protected path still denies, a place outside the workspace asks, a word that cannot
        be known asks. An approved runner (`strace`, `poetry run`: `RunnerTable`) does not
        cover the command it runs: that command is judged on its own (`approved_runner`).

        `trial`: only deciding whether to offer a suggestion (see `apply`); cheaper: it
        skips names that plainly lie in the workspace. A runner's command is judged even
        then (within the line's budget), since the suggestion names it.
        """
        inside = trial and self._cwd_inside(cwd)
        program = prefix[0].value.rpartition("/")[2] if prefix and prefix[0].value else ""
        program = self.rules.renamed(program) or program_name(program)
        for word in prefix[1:]:
            if word.value is not None and names_descriptor(word.value):
                # an approval of `python3 /dev/stdin` (offered before review ET2) covers
                # whatever code is fed on that descriptor: it holds no more
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-inline-code",
                    f"`{short(word.text)}` is what the input gives, so `{program}` runs any "
                    "code fed to it, which no approval covers",
                )
            # the approved words themselves may name a protected file that a program no
            # table knows reads (`tclsh .env`, offered as `tclsh /ws/.env`: review EI6):
            # an approval never beats a protected path. (Deciding on a suggestion, a word
            # whose name no rule may cover is skipped, without a look at the file system:
            # the approval's use checks it all.)
            for path in _named_paths(word, typed=program not in _REMOTE_PATHS):
                value = path.value
                if value is not None and (not trial or self._may_name_protected(value, cwd)):
                    self.check_protected_only(value, seg, cwd)
        if len(prefix) > 1 and program in TARGET_TAKERS:
            self.extra_targets(program, prefix, rest, seg)
        if program == "git" and len(prefix) > 1 and prefix[1].value == "push":
            self.approved_push(prefix, rest, seg, cwd)
        elif program == "git" and len(prefix) > 1 and _fetches((*prefix, *rest)):
            # (`git remote update` fetches every remote, `git maintenance` prefetches
            # them where configured: reviews FZ2, FZ3)
            self.approved_fetch((*prefix, *rest), seg, cwd)
        handed = _HANDED_CODE.get(program)
        sent = _SENT_FILES.get(program)
        if program in STDIN_SENDERS and seg.fed:
            seg.floor(
                Verdict.ASK,
                "engine.approved-upload",
                f"`{program}` sends what the line feeds its input, which no approval covers",
            )
        prefixes = program in _PREFIX_WRITERS and bool(self.state_files)
        forges = program in ("gh", "hub", "glab")
        if program in _TREE_SWITCHERS and self.state_files and (
            not forges or any(w.value in _FORGE_SWITCHES for w in (*prefix, *rest))
        ):
            # `gh pr checkout 12`, `hub checkout`, `jj`, `hg update`: another tool that
            # rewrites the work tree, near the policy's files (review AK7)
            self.tree_switcher_state(program, seg)
        read_lists = read_path_values(program, rest)
        # the class path javac writes classes into, beside the sources it finds there
        beside = class_path_written(program, rest)
        written = class_path_words(rest) if beside else set()
        if beside and not written:
            # (`CLASSPATH=.claude javac Z.java`; not set, it is `.`, the working folder)
            for entry in self.ctx.env.get("CLASSPATH", "").split(":"):
                if entry:
                    self.class_path_entry(entry, seg, cwd)
        for word in rest:
            if prefixes:
                self.check_state_prefix(word, seg, cwd)
            if handed is not None and word.value is not None and handed.fullmatch(word.value):
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-inline-code",
                    f"`{short(word.text)}` makes `{program}` run code or a program it names, "
                    "which no approval covers",
                )
            if sent is not None and word.value is not None and sent.fullmatch(word.value):
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-upload",
                    f"`{short(word.text)}` makes `{program}` send a file's contents (or "
                    "write a file), which no approval covers",
                )
            if id(word) in judged:
                continue  # (`judged`: the ids of words the path-role table checked)
            value = word.value
            if value is not None and _INLINE_CODE.search(value):
                # `exiftool -p '${x;system(…)}'`, `sox '|sh -c …'`, `gs -sOutputFile=%pipe%…`:
                # code or a command handed to the approved program (review AH2)
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-inline-code",
                    f"`{short(word.text)}` looks like code or a command for "
                    f"`{prefix[0].text if prefix else '?'}` to run, which no approval covers",
                )
            entries = read_lists.get(id(word))
            if entries is not None:
                # a class path: read, not written (`checks.READ_PATH_OPTIONS`, review DT12)
                for entry in entries:
                    self.check_path(entry, "read", seg, cwd)
                    if id(word) in written:
                        self.class_path_entry(entry, seg, cwd)
                self.check_embedded(word, seg, cwd)
                continue
            # deciding whether to offer a suggestion only: a relative name that does not
            # exist and that no protected rule names is skipped; offering a suggestion in
            # vain would cost a question, never a hole (the approval's use checks it all)
            if not (inside and value is not None and self._plainly_inside(value, cwd)):
                for path in _named_paths(word, typed=program not in _REMOTE_PATHS):
                    if inside and path.value is not None and self._plain_name(path.value, cwd):
                        continue  # (`09:30`, `k=v`: each piece one such name)
                    self.check_path_word(path, "read", seg, cwd)
                    self.check_path_word(path, "write", seg, cwd)
                if value is not None and program not in _REMOTE_PATHS:
                    for url_path in _url_paths(value):
                        if _rooted(url_path):
                            # `CREATE://home/u/.gradle/init.gradle`: a folder of this
                            # machine, no URL's host (review DB4)
                            self.check_path(url_path, "read", seg, cwd)
                            self.check_path(url_path, "write", seg, cwd)
                        else:
                            self.check_protected_only(url_path, seg, cwd)
                self.check_embedded(word, seg, cwd)
        if program in _RUNNER_OWN_OPTIONS:
            self.runner_own_options(program, (*prefix[1:], *rest), seg, cwd)
        self.approved_runner(prefix, rest, seg, cwd)
        if launchers.ALIASES.get(program, program) == "pnpm":
            self.pnpm_fallback([w.value for w in (*prefix[1:], *rest)], seg, cwd)
        if program == "bun":
            self.bun_fallback([w.value for w in (*prefix[1:], *rest)], seg, cwd)
        self.approved_module(prefix, rest, seg, cwd)
        if is_compiler(program):
            self.included_files(rest, seg, cwd, assembler=_ASSEMBLER.fullmatch(program) is not None)
            self.compiler_inputs(program, rest, seg, cwd)
        if program == "javac":
            self.annotation_processors(rest, seg, cwd)
        if program in _RUST_TOOLS:
            self.rust_configuration(program, [w.value for w in (*prefix[1:], *rest)], seg, cwd)
        launcher = launchers.ALIASES.get(program, program)
        if launcher in launchers.LAUNCHERS:
            self.launcher_files(launcher, [w.value for w in (*prefix[1:], *rest)], seg, cwd)
        self.task_runner_line(program, [w.value for w in (*prefix[1:], *rest)], seg)
        if program in infra.PROGRAMS:
            self.terraform_paths(program, (*prefix[1:], *rest), seg, cwd)
            self.terraform_providers(program, [w.value for w in (*prefix[1:], *rest)], seg, cwd)
        manifest = launchers.MANIFEST_ALIASES.get(program, program)
        if manifest in launchers.MANIFEST_TOOLS:
            self.manifest_code(manifest, [w.value for w in (*prefix[1:], *rest)], seg, cwd)
        if program == "gem":
            self.gem_exec([w.value for w in (*prefix[1:], *rest)], seg, cwd)
        if gocgo.is_packages_tool(program):
            # go/packages tools run `go list -compiled -export` (reviews GW3, HC5)
            self.go_cgo(program, [w.value for w in (*prefix[1:], *rest)], seg, cwd)
            self.go_env_file(seg)
        compose = composefiles.words_after(program, [w.value for w in (*prefix[1:], *rest)])
        if compose is not None:
            self.compose_project(program, compose, seg, cwd)

    def container_options(self, inner: Sequence[Word], seg: SegmentState) -> None:
        """A container tool's own options before its verb (`docker -c x run
        --privileged img`): the rules match `docker run …` as written, so the line asks
        (reviews AW4, AW's note); docker's configuration folder in the workspace (a
        `DOCKER_CONFIG` there, or a HOME there) supplies the plugins docker runs
        (`cli-plugins/docker-compose`: review GV5). Judged for every line, approved or
        not (a `docker --context=x run` runs elsewhere, so the approval's later checks
        skip it), and offered nothing."""
        if not inner or inner[0].value is None:
            return
        program = inner[0].value.rpartition("/")[2]
        program = self.rules.renamed(program) or program_name(program)
        # an unknown word by its literal start (`"oci-archive:$F"`: review HP2)
        starts = [w.value if w.value is not None else containers.literal_start(w.text)
                  for w in inner[1:]]  # fmt: skip
        unknown = {i for i, w in enumerate(inner[1:]) if w.value is None}
        if program == "skopeo":
            self.container_local_image(program, starts, seg, unknown)  # (review HP3)
            return
        if program not in containers.ENGINES:
            return
        words = [w.value for w in inner[1:]]
        self.container_host(program, words, seg)
        self.container_local_image(program, starts, seg, unknown)
        fronted = composefiles.front_options(program, words)
        if fronted is not None:
            compose = "compose" in words
            seg.floor(
                Verdict.ASK,
                "engine.compose-project" if compose else "engine.container-options",
                f"`{program} {short(fronted)} …`: a verb after {program}'s own options "
                "escapes the rules written for it (and `--config` chooses the plugin "
                "programs docker runs), which no approval covers",
            )
            seg.suggestion = None
        if composefiles.runs_plugins(program, words):
            config = self.ctx.env.get("DOCKER_CONFIG") or "~/.docker"
            if self._reaches_workspace(config):
                seg.floor(
                    Verdict.ASK,
                    "engine.container-options",
                    f"docker's configuration folder `{short(config)}` lies in the "
                    "workspace, whose `cli-plugins` docker runs (`docker compose`, "
                    "`--help`), which no approval covers",
                )
                seg.suggestion = None

    def container_local_image(
        self,
        program: str,
        starts: Sequence[str | None],
        seg: SegmentState,
        unknown: Collection[int] = (),
    ) -> None:
        """An image a container engine runs, or copies into its storage, from a file or
        folder of this machine (`containers.local_image`: reviews HN2, HP1, HP3), judged
        for every line, approved or not, and offered nothing, as `container_options`."""
        image = containers.local_image(program, starts, unknown)
        if image is not None:
            seg.floor(
                Verdict.ASK,
                "engine.container-local-image",
                f"`{program} … {short(image)}` runs (or stores, to run) an image from a file "
                "or folder of this machine (which the agent may have written), whose "
                "annotations are settings of the OCI runtime (a library it loads, a file it "
                "appends to), which no approval covers",
            )
            seg.suggestion = None

    def container_host(self, program: str, words: Sequence[str | None], seg: SegmentState) -> None:
        """What a container engine's line takes from this machine beyond its rules' reach
        (`containers`): a program, folder or file of this machine its options name
        (`--runtime PATH`, `--conmon`, `--cni-path`, `--hooks-dir`, `--root`,
        `--init-path` …: review HF3; podman's, buildah's and nerdctl's after any verb),
        this machine's network (`--network host`: HF6), the OCI runtime's own settings
        (`--annotation run.oci.…`, `--group-add keep-groups`: BQ2), and the variables `--build-arg
        NAME` passes a build from this environment. Judged for every line, approved or
        not, and offered nothing, as `container_options`."""
        found = containers.host_option(program, words)
        if found is not None:
            option, what = found
            seg.floor(
                Verdict.ASK,
                "engine.container-host-option",
                f"`{program} … {option}` names {what}, which no approval covers",
            )
            seg.suggestion = None
        annotation = containers.runtime_option(words, program)
        if annotation is not None:
            seg.floor(
                Verdict.ASK,
                "engine.container-runtime-option",
                f"`{program} … {short(annotation)}` is a setting of the OCI runtime (crun's "
                "`run.oci.seccomp.plugins` loads a library of this machine into it, "
                "`run.oci.hooks.stdout` appends to a file of this machine, "
                "`keep-groups` keeps the user's groups), which no approval covers",
            )
            seg.suggestion = None
        cpp = containers.cpp_containerfile(program, words)
        if cpp is not None:
            seg.floor(
                Verdict.ASK,
                "engine.container-cpp-file",
                f"`{program} … {short(cpp)}` builds from a Containerfile run through cpp "
                "(its name ends in `.in`), whose `#include` reads any file of this "
                "machine into the build, which no approval covers",
            )
            seg.suggestion = None
        network = containers.host_network(words)
        if network is not None:
            seg.floor(
                Verdict.ASK,
                "engine.container-host-network",
                f"`{program} … {short(network)}` gives the container (or the build's steps) "
                "this machine's network, the services it serves on its loopback included, "
                "which no approval covers",
            )
            seg.suggestion = None
        places = [] if containers.version_only(words) else containers.config_places(
            program, self.ctx.env
        )
        for named, place in places:
            # a configuration the agent may write names the programs the engine runs
            # (containers.conf's `runtime`, `conmon_path`, `hooks_dir`; nerdctl.toml's
            # `cni_path`): the line's options are not all it takes (review HF3)
            for entry in place.split(":") if named in ("CNI_PATH", "NETCONFPATH") else (place,):
                if entry and self._reaches_workspace(entry):
                    seg.floor(
                        Verdict.ASK,
                        "engine.container-host-option",
                        f"{named} (`{short(entry)}`) lies in the workspace: {program} reads "
                        "its configuration there, which names the programs it runs, and no "
                        "approval covers that",
                    )
                    seg.suggestion = None
                    break
        for name in containers.build_arg_names(words):
            if name is None:
                seg.floor(
                    Verdict.ASK,
                    "engine.secret-variable",
                    "passes the build a variable whose name is not a literal word, which "
                    "may hold a secret",
                )
            else:
                self.secret_name(name, "passes the build the variable", seg)

    def terraform_paths(
        self, program: str, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """What an approved terraform line reads and writes beyond what its words name
        from the working folder (review AW1, AW2): after `-chdir=DIR` terraform resolves
        `-state=`, `-state-out=`, `-backup=`, `-var-file=` and its operands from DIR,
        so each relative path is judged there too (read and written); its state files
        there (`terraform.tfstate`, a committed link) likewise. `TF_CLI_ARGS*` add words
        as if typed: any but a few that name no file ask; `TF_DATA_DIR` and
        `TF_PLUGIN_CACHE_DIR` are judged against the protect rules."""
        values = [w.value for w in words]
        folders = infra.chdirs(values)
        if folders is None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"a word of `{program}` that is not known here may be a `-chdir=`, from "
                "which its paths are read and written, and no approval covers that",
            )
            return
        for folder in folders:
            for word in words:
                for path in _named_paths(word, typed=True):
                    if path.value is not None and not path.value.startswith("/"):
                        joined = os.path.join(folder, path.value)
                        self.check_path(joined, "read", seg, cwd)
                        self.check_path(joined, "write", seg, cwd)
        for folder in (".", *folders):
            for name in _TERRAFORM_STATE_FILES:
                self.check_protected_only(os.path.join(folder, name), seg, cwd)
            for place in infra.data_places(self.ctx.env):
                self.check_protected_only(os.path.join(folder, place), seg, cwd)
        found = infra.cli_args_finding(values, self.ctx.env)
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{found}` adds options to `{program}` as if typed (which may name any "
                "file to read or write), and no approval covers them",
            )

    def terraform_providers(
        self, program: str, words: list[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """An approved terraform verb that starts providers (`validate`, `graph`, `show`,
        `providers schema`) runs the binaries of a plugin folder in the workspace, or a
        CLI configuration's `dev_overrides` there: such a folder or file asks, with no
        approval offered (review GP2, `infra.provider_finding`)."""
        if not infra.reads_configuration(words):
            return
        self.fs = True
        starts = sorted(cwd.candidates) if cwd.known else None
        self.terraform_backend(program, words, starts, seg)
        found = infra.provider_finding(
            words, starts, self.ctx.env, self.ctx.home, self._reaches_workspace
        )
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{program}` may start the provider programs of `{short(found)}` in the "
                "workspace, which no approval covers",
            )

    def terraform_backend(
        self, program: str, words: list[str | None], starts: list[str] | None,
        seg: SegmentState,
    ) -> None:
        """A verb that sets up the backend the configuration declares sends the backend's
        credentials (a kubeconfig's token, AWS keys) to the host it names, and `workspace
        delete` removes a folder under the backend's (`workspace_dir` at HOME): such a
        declaration asks with no approval offered, `workspace delete` always (reviews
        GU1, GU2, `infra.backend_finding`)."""
        if infra.deletes_state(words):
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{program} workspace delete` removes a workspace's state, in a folder the "
                "configuration's backend chooses, which no approval covers",
            )
        found = infra.backend_finding(words, starts, self.ctx.env, self._reaches_workspace)
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{program}` sets up the backend `{short(found)}` declares, which may send "
                "credentials to any host or change any folder, and no approval covers that",
            )

    def class_path_entry(self, entry: str, seg: SegmentState, cwd: paths.Cwd) -> None:
        """A class path entry of an approved javac that writes the classes it compiles
        from the sources it finds there beside them (`checks.class_path_written`, review
        DX2): a place written, unless it holds no folder (`lib/*`, an existing jar)."""
        if entry == "*" or entry.endswith("/*"):
            return  # (the jars of a folder)
        self.fs = True
        forms, complete, _process = self.resolve_all(entry, cwd)
        if complete and forms and all(os.path.isfile(form) for form in forms):
            return
        self.check_path(entry, "write", seg, cwd)

    def rust_configuration(
        self, program: str, words: Sequence[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """What the project's configuration makes an approved Rust tool run (reviews DP4,
        DP5): rustup's proxies (`cargo`, `rustc`, `rustfmt` …) run the toolchain a
        `rust-toolchain.toml` names, a `path =` one of the workspace included; and cargo
        runs what a `.cargo/config.toml` names (an `[alias]` for the verb, `rustc-wrapper`,
        a `runner`, `[env]` for the programs it starts). An approved `cargo tree`,
        `cargo metadata` or `cargo fmt` runs none of the project's code by itself: such a
        file in the working folder or one above it, in the workspace, asks. (The verbs that
        build run the project's code anyway: `build.rs`, tests.) The toolchain files are
        looked at for every verb: the toolchain runs whatever the verb (review GD1)."""
        verb = next((w for w in words if w is None or not w.startswith(("-", "+"))), "")
        looked = list(_TOOLCHAIN_FILES)
        if program == "cargo" and verb is not None and verb in _CARGO_QUIET_VERBS:
            looked += [".cargo/config.toml", ".cargo/config"]
        self.rust_files(program, looked, seg, cwd)

    def rust_toolchain(self, inner: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """A rule's allow of a rustup proxy (`cargo install --list`, FL7) holds only when
        no toolchain file of the project names a toolchain of its own (review GD1: a
        `path` toolchain's `cargo` ran under the bare allow)."""
        first = inner[0].value if inner else None
        program = first.rpartition("/")[2] if first else ""
        program = self.rules.renamed(program) or program_name(program)
        if program in _RUST_TOOLS:
            self.rust_files(program, _TOOLCHAIN_FILES, seg, cwd)

    def rust_files(
        self, program: str, looked: Sequence[str], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """Asks when one of the files `looked` (relative to the working folder or a folder
        above it, in the workspace) sets what makes `program` run a program the project
        names, or cannot be judged (`_rust_file_setting`)."""
        self.fs = True
        for start in sorted(cwd.candidates):
            for folder in paths.ancestors(start):
                if not self._reaches_workspace(folder):
                    break
                for name in looked:
                    path = os.path.join(folder, name)
                    if not _lexists(path):
                        continue
                    found = _rust_file_setting(path, name.startswith(".cargo"))
                    if found is not None:
                        seg.floor(
                            Verdict.ASK,
                            "engine.approved-inline-code",
                            f"`{short(path)}` {found}, so `{program}` may run a program the "
                            "project names, which no rule or approval covers",
                        )
                        return

    def annotation_processors(
        self, rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """An approved `javac` loads code from its class path (which is `CLASSPATH`, else
        the working folder, unless an option names one): the annotation processors and
        the plugins (`autoStart`, whatever `-proc:` says: review DQ2) that a folder or jar
        there names under `META-INF/services/` (Lombok's way), and the jars a jar's
        manifest adds (`Class-Path:`, DQ3). A class path entry that is relative or in the
        workspace and holds any service file, or a jar with such a manifest or one that
        cannot be read, asks; so do options javac also reads from `JDK_JAVAC_OPTIONS`.
        (A processor path, `-XD`, `--system` and the like ask by `HANDED_CODE`.)"""
        if self.ctx.env.get("JDK_JAVAC_OPTIONS", "").strip():
            seg.floor(
                Verdict.ASK,
                "engine.approved-inline-code",
                "`javac` also takes the options of JDK_JAVAC_OPTIONS (a class or processor "
                "path among them), which no approval covers",
            )
            return
        values = [w.value for w in rest]
        entries: str | None = None
        for index, value in enumerate(values):
            if value is None:
                continue
            name, equals, glued = value.partition("=")
            if value in JAVAC_CLASS_PATH:
                if index + 1 >= len(values) or values[index + 1] is None:
                    # (`-cp "$CP"`: a class path that cannot be read here asks)
                    seg.floor(
                        Verdict.ASK,
                        "engine.approved-inline-code",
                        "`javac` is given a class path that cannot be read here, whose "
                        "services it may load",
                    )
                    return
                entries = values[index + 1]
            elif equals and name == "--class-path":
                entries = glued
        if entries is None:
            entries = self.ctx.env.get("CLASSPATH") or "."
        for entry in entries.split(":"):
            entry = entry or "."
            if entry.startswith("/") and _system_header(entry):
                continue  # (the system's jars: `/usr/share/java`; `/tmp` is anyone's, DS5)
            if not entry.startswith("/") and not cwd.known:
                found: str | None = entry
            else:
                found = None
                for start in sorted(cwd.candidates):
                    found = found or _services_in(os.path.normpath(os.path.join(start, entry)))
            if found is not None:
                self.fs = True
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-inline-code",
                    f"`javac` loads the services of `{short(found)}` (annotation processors, "
                    "plugins), on its class path in the workspace, which no approval covers",
                )
                return

    def task_runner_line(self, program: str, words: list[str | None], seg: SegmentState) -> None:
        """What a task runner's line hands on that no approval of it covers (review IE3-IE5,
        real grunt-cli 1.5.0 and jake 10.9.4), also when a package runner runs it (`npx
        grunt build`: `package_bin_line`): grunt-cli and gulp-cli restart node with any
        word of their line that is one of node's or V8's flags, past any `--` (`grunt
        build --import=/tmp/x.mjs` ran the module), so a word starting with `-` that is
        none of their own options asks; jake reads its options past a `--` (`jake build
        -- -f /tmp/x.js` ran the file), and jake and rake copy a `NAME=VALUE` operand into
        the environment of the tasks' programs (`jake build "NODE_OPTIONS=--require
        /tmp/x.js"` ran it), so a `--`, and an operand assigning a variable the engine
        treats as poisoning (`envpoison.POISON_NAMES`: `PATH`, `NODE_OPTIONS`, `LD_*` …)
        or not literal, ask."""
        name = program
        if program not in _TASK_RUNNER_OPTIONS and program not in _ENV_OPERAND_RUNNERS:
            if None in words:
                return
            line = package_bin_line([program, *(w for w in words if w is not None)])
            if not line:
                return
            name = program_name(line[0].rpartition("/")[2])
            if name not in _TASK_RUNNER_OPTIONS and name not in _ENV_OPERAND_RUNNERS:
                return
            words = list(line[1:])
        known = _TASK_RUNNER_OPTIONS.get(name)
        for word in words:
            if word is None:
                what = "a word that is not literal"
            elif known is not None and _unknown_runner_option(word, known):
                seg.floor(
                    Verdict.ASK,
                    "engine.task-runner-line",
                    f"`{short(word)}` is none of `{name}`'s own options: it may be a node flag "
                    "the runner restarts node with (`--import=F`, `--require F`, `--inspect`), "
                    "which no approval covers",
                )
                return
            elif name == "jake" and word == "--":
                seg.floor(
                    Verdict.ASK,
                    "engine.task-runner-line",
                    "`--` does not end jake's options: the words after it are read as its own "
                    "(`-- -f F` runs another Jakefile), which no approval covers",
                )
                return
            elif name in _ENV_OPERAND_RUNNERS and "=" in word and not word.startswith("-"):
                variable = word.partition("=")[0]
                if not is_poison_name(variable):
                    continue
                what = f"`{short(word)}`"
            else:
                continue
            if name in _ENV_OPERAND_RUNNERS or known is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.task-runner-line",
                    f"{what} may set a variable `{name}` hands to the programs its tasks run "
                    "(`NAME=VALUE`: `PATH`, `NODE_OPTIONS` …) or be an option of its own, "
                    "which no approval covers",
                )
                return

    def launcher_files(
        self, program: str, words: list[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """What a project file makes an approved launcher run in place of itself (reviews
        GG1-GG5: uv's `.python-version` holding a path, pdm's `.pdm-python`, yarn's
        `yarnPath`, `.mvn/jvm.config`, bazelisk's `tools/bazel`): such a file in the
        working folder or one above it, in the workspace, asks (`launchers.LAUNCHERS`),
        unless the approved command runs the project's own code anyway (`yarn build`)."""
        rc = yarn_rc_word([program, *words])
        if rc is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{short(rc)}` is or may be `--use-yarnrc`, which yarn 1 reads from anywhere "
                "on its line (past any `--`): the file it names may name the program yarn "
                "runs in place of itself (`yarn-path`), which no approval covers",
            )
            return
        variants = _yarn_readings(program, words)
        moved = next((m for v in variants if (m := launchers.mover(program, v))), None)
        if moved is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{short(moved)}` makes `{program}` read its project's files (which may "
                "name the program it runs) from another folder, which no approval covers",
            )
            return
        if launchers.covers_code(program, words, lambda: self._package_scripts(cwd)):
            return
        fix = launchers.hidden_audit_fix(program, words)
        if fix is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{short(fix)}` makes `npm audit` run `audit fix`, which installs packages "
                "and runs their install scripts, which no approval covers",
            )
            return
        # (yarn's own options are the words before the first `--`; the line without it is
        # read for the program's clauses alone: review IB3), except where yarn starts
        # another yarn that reads those words as its own (`yarn workspaces -- run
        # --use-yarnrc=F lint`, `yarn workspace w1 -- --modules-folder=X gulp`: review ID1)
        nested = any(word in ("workspace", "workspaces") for word in words)
        readings = [_nested_yarn_options(v) for v in variants] if nested else [words]
        setting = next((m for v in readings if (m := launchers.line_setting(program, v))), None)
        if setting is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{short(setting)}` is a setting of `{program}` (where it connects, what "
                "it trusts or runs, where the user's token goes), which its approval does "
                "not cover",
            )
            return
        hooks = launchers.relative_pnpmfile(program, self.ctx.home, self.ctx.env)
        if hooks is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{short(hooks)}` names pnpm's hooks file by a relative path, which pnpm "
                "finds from the workspace root (its lockfile folder), a file of the "
                "repository's it loads and runs, which no approval covers",
            )
            return
        root = self.moved_root(program, launchers.files_for(program, words))
        if root is not None:
            seg.floor(Verdict.ASK, "engine.launcher-file", root)
            return
        found = self.launcher_finding(launchers.files_for(program, words), cwd)
        found = found or self.launcher_user_finding(program, cwd)
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.launcher-file",
                f"`{short(found.path)}` names a program `{program}` runs or loads "
                f"(`{short(found.what)}`), which no approval covers",
            )

    def manifest_code(
        self, program: str, words: list[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """A read-looking verb of a tool whose manifest is code it runs (`bundle list`
        evaluates the Gemfile, `gradle tasks` the build scripts: reviews GP4, GP8) asks,
        with no offer, where the manifest is found (`launchers.MANIFEST_TOOLS`): the
        approval of a listing covered the repository's code."""
        if program == "bundle" and launchers.moves_gemfile(words):
            # `bundle check --gemfile=evil.rb`: a Ruby file of any name, on any verb, which
            # no approval of the verb covered (review GT3)
            seg.floor(
                Verdict.ASK,
                "engine.manifest-code",
                "`--gemfile` makes bundler evaluate the Ruby file it names, which no "
                "approval covers",
            )
            return
        verb = launchers.manifest_verb(program, words)
        if verb is None:
            return
        tool = launchers.MANIFEST_TOOLS[program]
        moved = program == "bundle" and (
            next((key for key in launchers.BUNDLE_ENV if self.ctx.env.get(key)), None)
            or self.bundle_user_config()
        )
        # `composer show -d sub` loads sub's plugins, not the working folder's (review GW6)
        moved = moved or (program == "composer" and launchers.composer_working_dir(words))
        files = launchers.manifest_files(tool)
        if files and not moved and self.launcher_finding(files, cwd) is None:
            return  # (no project here: nothing of the repository's runs)
        seg.floor(
            Verdict.ASK,
            "engine.manifest-code",
            f"`{program} {short(verb)}` runs {tool.what} which no approval covers",
        )

    def bundle_user_config(self) -> bool:
        """Whether bundler's user settings file lies in the workspace (a home, or
        `BUNDLE_USER_HOME`/`BUNDLE_USER_CONFIG`, there): its `BUNDLE_GEMFILE` or
        `BUNDLE_PATH` is the repository's then, as the project's `.bundle/config`
        (review GT4). One named relative, or not looked at, counts."""
        path = launchers.bundle_user_config(self.ctx.home, self.ctx.env)
        if path is None or not self._reaches_workspace(path):
            return False
        self.fs = True
        return not os.path.isabs(path) or os.path.lexists(path)

    def gem_exec(
        self, words: list[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """`gem exec bundle list` runs the `bundle` of the bundler gem: its line is judged
        as `bundle list` would be, where the alias escaped the no-offer (review GT8); a
        program that cannot be told asks."""
        inner = launchers.gem_exec_line(words)
        if inner is None:
            return
        program, rest = inner
        if not program:
            seg.floor(
                Verdict.ASK,
                "engine.manifest-code",
                "`gem exec` runs a program that cannot be told here, which may evaluate "
                "the project's manifest",
            )
            return
        manifest = launchers.MANIFEST_ALIASES.get(program, program)
        if manifest in launchers.MANIFEST_TOOLS:
            self.manifest_code(manifest, rest, seg, cwd)

    def go_env_file(self, seg: SegmentState) -> None:
        """go's user env file (`GOENV`, else `go/env` in `XDG_CONFIG_HOME` or
        `~/.config`) in the workspace: its `GOFLAGS=-toolexec=…`, `CC`, `CGO_CFLAGS`,
        `GOTOOLCHAIN`, `GOPROXY` are the repository's, which run its code for any go
        command that builds or switches toolchains (review GT5): every go line asks."""
        path = gocgo.env_file(self.ctx.home, self.ctx.env)
        if path is None or not self._reaches_workspace(path):
            return
        self.fs = True
        if os.path.isabs(path) and not gocgo.has_settings(path):
            return
        seg.floor(
            Verdict.ASK,
            "engine.go-env-file",
            f"go reads its settings from `{short(path)}`, a file of the workspace, which "
            "may make it run any program (`GOFLAGS=-toolexec`, `CC`, `GOTOOLCHAIN`): no "
            "approval covers it",
        )

    def compose_project(
        self, program: str, words: Sequence[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """An approved compose verb that loads the project (any but `version`, `ls`,
        help) prints the values its compose files interpolate from `.env` and the files
        they name in its validation errors (`invalid containerPort: CANARY`): where the
        project's files may interpolate or read a file, or the line or environment moves
        them, it asks, with no approval offered (review GS1, `composefiles`)."""
        verb = composefiles.loads_project(words)
        if verb is None:
            return
        self.fs = True
        found = composefiles.mover(words, self.ctx.env)
        if found is None:
            starts = sorted(cwd.candidates) if cwd.known else None
            found = composefiles.finding(starts, paths.ancestors, self._reaches_workspace)
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.compose-project",
                f"`{program} … {short(verb)}` loads the compose project (`{short(found)}`), "
                "whose values from `.env` and the files it names compose prints in its "
                "errors, which no approval covers",
            )

    def go_cgo(
        self, program: str, words: list[str | None], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """An approved go verb that compiles (`go build`, `go vet`, `go list -compiled`),
        or a go/packages tool (`staticcheck`, review GW3), in a workspace whose packages
        use cgo or hold C or assembly files, or that requires modules from outside it
        (review GW2): gcc and the assembler read every file their sources include and
        print it in their errors, which no approval covers, as none covers `gcc` (review
        GP6)."""
        compiling = (
            gocgo.compiles(words) if program in gocgo.GO_PROGRAMS
            else gocgo.tool_loads(program, words)
        )
        if compiling is None:
            return
        self.fs = True
        root = self.ctx.workspace
        found = gocgo.cgo_file(root) if root and os.path.isdir(root) else "the workspace"
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.go-cgo",
                f"`{short(compiling)}` hands `{short(found)}` to a C compiler or the "
                "assembler, which read and print every file its sources include: no "
                "approval covers compiling",
            )
            return
        outside = self.go_dependencies(words, cwd)
        if outside is not None:
            seg.floor(
                Verdict.ASK,
                "engine.go-cgo",
                f"`{short(compiling)}` compiles packages from outside the workspace "
                f"({short(outside)}), whose cgo may hand any file to a C compiler that "
                "prints it: no approval covers compiling",
            )

    def go_dependencies(self, words: list[str | None], cwd: paths.Cwd) -> str | None:
        """The packages from outside the workspace a compiling go line may build (a
        module go.mod requires, a `go.work`, `-modfile`, `pkg@version`), whose cgo the
        engine cannot look through: the module cache is outside the workspace and
        GOFLAGS/GOPROXY decide what fills it (review GW2)."""
        return gocgo.dependency_source(
            words,
            self.ctx.env,
            gocgo.env_file(self.ctx.home, self.ctx.env),
            sorted(cwd.candidates) if cwd.known else None,
        )

    def launcher_finding(
        self, files: tuple[launchers.LaunchFile, ...], cwd: paths.Cwd
    ) -> launchers.Finding | None:
        """The first of `files` that names a program in the working folder or one above
        it in the workspace (`launchers.judge`); a working folder not known counts."""
        if not cwd.known:
            return launchers.Finding("the working folder", "a folder not known here")
        self.fs = True
        for start in sorted(cwd.candidates):
            for folder in paths.ancestors(start):
                if not self._reaches_workspace(folder):
                    break
                found = launchers.judge(folder, files, self._reaches_workspace)
                if found is not None:
                    return found
        return None

    def moved_root(self, program: str, files: tuple[launchers.LaunchFile, ...]) -> str | None:
        """Why a setting that moves pnpm's workspace root or lockfile folder asks
        (`launchers.root_settings`: `npm_config_lockfile_dir`, `NPM_CONFIG_WORKSPACE_DIR`,
        `lockfile-dir=` in `~/.npmrc`), or None. pnpm loads that folder's `.pnpmfile.cjs`
        and reads its settings, where `launcher_finding` looks only in the working folder
        and those above it (review BI3). A relative value, or one not read, asks (pnpm
        resolves it from a folder not worked out here); a folder in the workspace asks where
        one of pnpm's files there names a program, as it would in the working folder."""
        if program != "pnpm":
            return None
        self.fs = True  # (the user's files are read: a decision on them is not kept)
        for shown, value in launchers.root_settings(program, self.ctx.home, self.ctx.env):
            folder = None if value is None else launchers.home_path(self.ctx.home, value)
            if folder is None or not folder.startswith("/"):
                return (
                    f"`{short(shown)}` names pnpm's workspace root or lockfile folder by a "
                    "relative path (or in a way not read here), where pnpm loads its hooks "
                    "file and reads its settings, which no approval covers"
                )
            if not self._reaches_workspace(folder):
                continue
            found = launchers.judge(folder, files, self._reaches_workspace)
            if found is not None:
                return (
                    f"`{short(shown)}` makes pnpm take its workspace root or lockfile folder "
                    f"from the workspace, where `{short(found.path)}` names a program it runs "
                    f"or loads (`{short(found.what)}`), which no approval covers"
                )
        return None

    def launcher_user_finding(self, program: str, cwd: paths.Cwd) -> launchers.Finding | None:
        """The first user-level file of npm, pnpm or yarn (`launchers.user_files`) that
        lies in the workspace and sets what its project's file may not: a home in the
        workspace makes `~/.npmrc` the repository's (review AK2)."""
        for path, entries in launchers.user_files(program, self.ctx.home, self.ctx.env):
            if not path.startswith("/") and not cwd.known:
                return launchers.Finding(path, "a file of a working folder not known here")
            forms = {os.path.normpath(os.path.join(start, path)) for start in cwd.candidates}
            for form in sorted(forms | {os.path.normpath(path)} if path.startswith("/") else forms):
                if not self._reaches_workspace(form):
                    continue
                self.fs = True
                named = tuple(launchers.user_entry(entry, form) for entry in entries)
                found = launchers.judge(os.path.dirname(form), named, self._reaches_workspace)
                if found is not None:
                    return found
        return None

    def _package_scripts(self, cwd: paths.Cwd) -> set[str]:
        """The scripts every working folder's `package.json` names (yarn runs one for a
        verb it does not know)."""
        found: set[str] | None = None
        for start in cwd.candidates:
            names = launchers.scripts(start)
            found = names if found is None else found & names
        return found or set()

    def compiler_inputs(
        self, program: str, rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """What else an approved compiler driver reads as instructions (review DO1, DO3):
        gcc takes any word that starts a long option's name as that option
        (`--include-directory-a` is `--include-directory-after`), so a long option not
        known here asks; and it hands the linker every operand it does not compile, which
        ld reads as a linker script when it is no object (`INPUT(/home/u/.aws/x)` links
        that file into the output): an operand of another kind, `-T`, and an object or
        library (one `-l` finds in a folder of the workspace included) that is text ask."""
        values = [w.value for w in rest]
        if program == "rustc":
            # rustc's `-l` looks in `LIBRARY_PATH` too, and hands the linker what it finds
            # (`-l dylib:+verbatim=z.ld`, a linker script: review DQ11)
            # (a `#[link(name = …)]` of the source links as `-l` does: review DS4)
            entries = self.ctx.env.get("LIBRARY_PATH", "")
            if entries and any(
                not e.startswith("/") or self._reaches_workspace(e) for e in entries.split(":")
            ):
                why = "rustc links libraries found in LIBRARY_PATH, which leads into the workspace"
                seg.floor(Verdict.ASK, "engine.compiler-includes", why)
            return
        if _GCC_DRIVER.fullmatch(program) is None:
            return
        folders: list[str] = []
        libraries: list[str] = []
        operands: list[str] = []
        skip = False
        for index, value in enumerate(values):
            if skip or value is None:
                skip = False
                continue
            following = values[index + 1] if index + 1 < len(values) else None
            if value.startswith("--"):
                name, _equals, glued = value.partition("=")
                if name == "--library-directory":
                    folders.append(glued if _equals else following or "")
                elif name not in _GCC_LONG_OPTIONS and not name.startswith(_GCC_LONG_FAMILIES):
                    why = (
                        f"`{short(value)}` is no option known here, and gcc takes the start "
                        "of an option's name for the option (`--include-directory-a`)"
                    )
                    seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                    return
                skip = name in _GCC_LONG_VALUED and not _equals
            elif value.startswith("-") and value != "-":
                option = value[:2]
                if value.startswith("-T"):
                    why = f"`{short(value)}` links with a linker script, which may name any file"
                    seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                    return
                if option == "-L":
                    folders.append(value[2:] or following or "")
                elif option == "-l":
                    libraries.append(value[2:] or following or "")
                skip = value in _DRIVER_VALUED
            elif not program.startswith("cpp") and not _DRIVER_INPUT.search(value):
                why = (
                    f"`{short(value)}` is no source or object, which the linker reads as a "
                    "linker script (one may name any file)"
                )
                seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                return
            else:
                operands.append(value)
        library_path = self.ctx.env.get("LIBRARY_PATH")
        if library_path is not None:
            folders.extend(library_path.split(":"))
        candidates = [name for name in operands if _LINKED_INPUT.search(name)]
        for folder in folders:
            for library in libraries:
                if library.startswith(":"):
                    candidates.append(os.path.join(folder or ".", library[1:]))
                else:
                    candidates.append(os.path.join(folder or ".", f"lib{library}.so"))
                    candidates.append(os.path.join(folder or ".", f"lib{library}.a"))
        for name in candidates:
            for base in sorted(cwd.candidates):
                path = os.path.join(base, name)
                if _lexists(path) and not _object_file(path):
                    self.fs = True
                    why = (
                        f"`{short(name)}` is no object or library, which the linker reads as "
                        "a linker script (one may name any file)"
                    )
                    seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                    return

    def included_files(
        self, rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd, *, assembler: bool = False
    ) -> None:
        """The files the sources given to an approved compiler include (`#include
        "/home/u/.aws/credentials"`, Rust's `include_str!`, `#[path]`, `#line`, `#embed`,
        `.incbin`): the output or the errors print them, and the agent writes the sources
        with its own tools (review CY8). Each is checked as a read, and one in the
        workspace is read in turn, up to 32 files. A tripwire, not a proof (review CZ1):
        an include named by a macro or built by `concat!`, a source too large or too many,
        ask; a file another segment of the line writes is not seen. A header is also looked
        for in the include folders (`_include_folders`: `-I inc` held a link to a secret),
        a header named by option (`-include config.h`) and by a macro too (review DF4).
        An assembler (`assembler`) reads every file as assembly, and looks for the files
        it includes in its working folder as well as beside the includer (review DO6)."""
        pending = [(w.value, cwd) for w in rest if w.value and not w.value.startswith("-")]
        folders = self._include_folders(rest, seg, cwd)
        # headers given by option, glued (`-include./x.h`, `--include=x.h`: review DA1) or
        # not (`-include x.h`), looked for in the include folders too (review DF4)
        named = [
            value
            for w in rest
            if w.value and (value := _GLUED_HEADER.sub("", w.value, count=1)) != w.value and value
        ]
        named.extend(
            after.value
            for before, after in itertools.pairwise(rest)
            if before.value in _HEADER_OPTIONS and after.value
        )
        for name in named:
            pending.append((name, cwd))
            # (a header named by option is code, whatever its name: review DO2)
            self._header_in_folders(name, folders, seg, pending, code=True)
        seen: set[str] = set()
        read = scanned_bytes = 0
        # a line that assembles (an assembler, a `.S` source, `-x assembler-with-cpp`)
        # reads every file as assembly: its headers and `-include`s are preprocessed into
        # the assembler's text (`#define I .incbin` in `defs.h`: review DS2)
        assembler = assembler or _assembles(rest)
        defines: dict[str, list[tuple[str, paths.Cwd]]] = {}
        for macro, value in _command_line_defines(rest):  # (`-DH="/x"`: an include's name)
            defines.setdefault(macro, []).append((value, cwd))
            self._defined_path(value, seg, cwd)
            if assembler and _ANY_INC.search(value):
                why = f"the macro `{short(macro)}` names `inc…` in a line that assembles"
                seg.floor(Verdict.ASK, "engine.compiler-includes", why)
        macros: list[str] = []
        while True:
            if not pending:
                # the headers macros name are read too, and may name more (review DH4)
                self._macro_includes(macros, defines, folders, seg, pending)
                pending = [(n, h) for n, h in pending if not _seen_in(n, h, seen)]
                if not pending:
                    return
            name, here = pending.pop()
            for base in sorted(here.candidates):
                source, where = _opened(base, name), _opened_in(base, name)
                if f"{source}\0{where}" in seen:
                    continue
                seen.add(f"{source}\0{where}")
                text = _small_text(source)
                self.fs = True
                if text is None:
                    if os.path.isfile(source):
                        why = f"`{short(name)}` is too large to read for its includes"
                        seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                    continue
                read += 1
                scanned_bytes += len(text)
                if read > _MAX_SCANNED_SOURCES or scanned_bytes > _MAX_SCANNED_BYTES:
                    # (a budget in bytes too: 8 chained headers of 16 MiB took 18 s, DI6)
                    why = "the sources include more files, or more text, than are read here"
                    seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                    return
                assembly = assembler or _ASSEMBLY.search(source) is not None
                folder = paths.Cwd(
                    candidates=frozenset({where, *cwd.candidates} if assembler else {where})
                )
                found = _includes(text, assembly=assembly)
                if found.opaque is not None:
                    seg.floor(
                        Verdict.ASK,
                        "engine.compiler-includes",
                        f"`{short(name)}` has `{short(found.opaque)}`, through which it may "
                        "include a file in a way that cannot be read here (inline assembly, "
                        "a macro, a built name)",
                    )
                for macro, value in found.defines:
                    defines.setdefault(macro, []).append((value, folder))
                    self._defined_path(value, seg, folder)
                macros.extend(found.macros)
                for module in found.modules:
                    # rustc reads `mod m;` from `m.rs` or `m/mod.rs`, beside the file or
                    # in the folder named after it (`src/a.rs`: `src/a/m.rs`)
                    stem = os.path.splitext(os.path.basename(source))[0]
                    for form in (f"{module}.rs", f"{module}/mod.rs"):
                        pending.append((form, folder))
                        pending.append((f"{stem}/{form}", folder))
                for path in found.paths:
                    self.check_path(path, "read", seg, folder)
                    scanned = path in found.code or _SOURCE_NAME.search(path) is not None
                    if scanned and not _system_header(path):
                        # (a README or SQL file: read, not scanned; one named by an
                        # absolute path is read in turn too: review DI2)
                        pending.append((path, folder))
                    self._header_in_folders(path, folders, seg, pending, code=scanned)

    def _header_in_folders(
        self,
        path: str,
        folders: list[paths.Cwd],
        seg: SegmentState,
        pending: list[tuple[str, paths.Cwd]],
        *,
        code: bool = False,
    ) -> None:
        """`path` as an include folder holds it (`-I inc`, `CPATH`): checked as a read,
        and read for its own includes, except in the system's folders (`/usr/include`,
        `/nix/store`: review DF8, their headers used up the budget of scanned files),
        which no approved copy reaches (review DH3: `/tmp` is one's to write)."""
        if path.startswith(("/", "~")):
            return
        for where in folders:
            if not any(os.path.lexists(os.path.join(c, path)) for c in where.candidates):
                continue
            self.check_path(path, "read", seg, where)
            scanned = code or _SOURCE_NAME.search(path) is not None
            if scanned and not all(_system_header(c) for c in where.candidates):
                pending.append((path, where))

    def _include_folders(
        self, rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> list[paths.Cwd]:
        """The folders a compiler looks in for the headers its sources name: `-I DIR` and
        its kin, glued or not, and `CPATH` and the like of the environment (an empty entry
        is the working folder). Relative ones are below `cwd`; `~/x` is taken both ways
        (bash expands it only as a word of its own). A folder that cannot be told asks:
        `-I "$X"`, one built from `-iprefix`, and a system root (`--sysroot`, `-isysroot`,
        a `=` or `$SYSROOT` before a folder), where gcc also looks in folders named after
        the target (`usr/include/x86_64-linux-gnu`: review DF5)."""
        named: list[str] = []
        unknown = False
        words = list(rest)
        for index, word in enumerate(words):
            value = word.value
            if value is None:
                continue
            if value.startswith(_SYSROOT_OPTIONS):
                unknown = True
                continue
            glued = _GLUED_INCLUDE_DIR.match(value)
            if value in _INCLUDE_DIR_OPTIONS:
                following = words[index + 1] if index + 1 < len(words) else None
                option, folder = value, following.value if following is not None else ""
            elif glued is not None and len(value) > glued.end():
                option, folder = glued.group(1), value[glued.end() :]
            else:
                continue
            built = option.startswith(("-iprefix", "-iwithprefix"))
            if folder is None or built or folder.startswith(("=", "$SYSROOT")):
                unknown = True  # (`=` and `$SYSROOT` name a folder of the system root)
            elif folder:
                named.append(folder)
        for variable in _INCLUDE_PATH_VARIABLES:
            text = self.ctx.env.get(variable)
            if text is not None:
                named.extend(entry or "." for entry in text.split(":"))
        if unknown:
            why = "the compiler is given a folder of headers that cannot be told here"
            seg.floor(Verdict.ASK, "engine.compiler-includes", why)
        folders: list[paths.Cwd] = []
        for name in dict.fromkeys(named):
            if "\0" in name:
                continue  # (no such folder)
            forms = [name]
            if name.startswith("~"):
                forms.append(paths.lexical(name, "/", self.ctx.home) or name)
            bases = {
                _opened(base, form)  # (`src/lnk/..` where the kernel leads it: review DL2)
                for form in forms
                for base in cwd.candidates
            }
            folders.append(paths.Cwd(candidates=frozenset(bases)))
        return folders

    def _macro_includes(
        self,
        macros: list[str],
        defines: dict[str, list[tuple[str, paths.Cwd]]],
        folders: list[paths.Cwd],
        seg: SegmentState,
        sources: list[tuple[str, paths.Cwd]],
    ) -> None:
        """An include named by a macro, followed through every `#define` of it in the
        files read, and through the macros those name (review DC2: `#define P S(C)`, a
        `#undef` and a second `#define`): a quoted name is checked as a read, and added
        to `sources` to be read in turn (review DH4: its own includes had gone unread); a
        function-like macro defined there, which builds the name, asks; a macro no file
        read defines (`FT_FREETYPE_H`, Boost's) is the system's (review DB5: a quoted
        `#define` no include uses is no include)."""
        pending = [name.split("(")[0] for name in macros]
        seen: set[str] = set()
        while pending:
            name = pending.pop()
            if name in seen or name not in defines:
                continue
            if len(seen) >= _MAX_MACRO_STEPS:
                # (a chain longer than is followed here: not seen, so not allowed)
                why = "an include is named through more macros than are followed here"
                seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                return
            seen.add(name)
            for value, folder in defines[name]:
                # every name quoted in the value, and every macro it names, count: gcc
                # takes the first string after expanding them all (`#define H E "/x"`
                # with an empty `E`, `"/x" junk`: review DO4)
                rest_of_value = _QUOTED.sub(" ", value)
                if value.startswith("(") or "#" in rest_of_value:
                    why = f"an include is named by the macro `{short(name)}`, which builds it"
                    seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                    return
                for quoted in _QUOTED.finditer(value):
                    header = quoted.group(1) or quoted.group(2)
                    if quoted.group(2) and any(
                        n in defines for n in _MACRO_NAME.findall(header)
                    ):
                        # (the words of a `<…>` name are expanded: `<A/.aws/x>`)
                        why = f"the include `{short(value)}` is built from macros"
                        seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                        return
                    self.check_path(header, "read", seg, folder)
                    if not _system_header(header):  # (an `#include` by macro: code)
                        sources.append((header, folder))
                    self._header_in_folders(header, folders, seg, sources, code=True)
                pending.extend(_MACRO_NAME.findall(rest_of_value))

    def _defined_path(self, value: str, seg: SegmentState, folder: paths.Cwd) -> None:
        """A name quoted in a `#define` that looks like a path (`"/x/y"`, `".env"`) may be
        what a system header, which is not read, includes through that macro
        (`#define MDCPUCFG "/home/u/.aws/credentials"` before `#include <nspr/prtypes.h>`:
        review DO11): one a protect rule covers for reading asks."""
        for quoted in _QUOTED.finditer(value):
            name = quoted.group(1) or quoted.group(2)
            if ("/" not in name and "." not in name) or (name, folder) in self._defined_seen:
                continue
            self._defined_seen.add((name, folder))
            if len(self._defined_seen) > _MAX_DEFINED_PATHS:
                why = "the sources define more quoted paths than are looked at here"
                seg.floor(Verdict.ASK, "engine.compiler-includes", why)
                return
            forms, _complete, _process = self.resolve_all(name, folder)
            self.fs = True
            # (read only: a `#define` of a system file to write is no include, DQ12)
            found = self.rules.path_verdicts(forms, "read", self.ctx, name, protected_only=True)
            if found:
                seg.floor(
                    Verdict.ASK,
                    "engine.compiler-includes",
                    f"a `#define` names `{short(name)}`, which a header may include: "
                    f"{found[0].message}",
                )
                return

    def check_protected_only(self, value: str, seg: SegmentState, cwd: paths.Cwd) -> None:
        """Floors for the protect rules that cover `value` as read or written, and only
        those: a path that may be a URL's host and path (`lcov://home/u/.bashrc` is
        `/home/u/.bashrc` to pytest-cov, `smb://server/share` is no file) is denied where
        it is protected, not asked about as a place outside the workspace (review CY2)."""
        forms, _complete, _process = self.resolve_all(value, cwd)
        self.fs = True
        for access in ("read", "write"):
            for reason in self.rules.path_verdicts(
                forms, access, self.ctx, value, protected_only=True
            ):
                seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)

    def approved_module(
        self, prefix: Sequence[Word], rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """Judge `python3 -m TOOL …` under its approval as the tool's own program: `python3
        -m pip install --user x` is `pip install --user x`, `python3 -m uv run bash` is
        `uv run bash`, with the approved words after `-m` as the tool's approval (review
        CV2, CV3: the tool's rules never applied, and `python3 -m uv` approved every verb)."""
        words = (*prefix, *rest)
        tool = module_tool([w.value for w in words])
        if tool is None:
            return
        program, start = tool
        if not program:
            module = words[start - 1].text
            seg.floor(
                Verdict.ASK,
                "engine.approved-runs-program",
                f"`{short(module)}` is a module of a command-line tool, whose command "
                "cannot be told, which no approval covers",
            )
            return
        approved = " ".join(w.value or "" for w in prefix)
        named = [w.value for w in prefix[start:]]
        extra = (program, *(v for v in named if v is not None)) if None not in named else ()
        text = " ".join((program, *(w.text for w in words[start:])))
        self.approved_program(approved, words[start - 1 :], seg, cwd, extra, text=text)

    def git_tree_state(self, found: SegmentRules, seg: SegmentState) -> None:
        """A git command that rewrites files of the work tree by pathspec globs, a pathspec
        file or whole (`git checkout FETCH_HEAD -- '*.policy'`, `git merge`, `git clean`)
        asks where one of the policy's own files lies in the workspace: no path check sees
        which files those are (review AJ1)."""
        verb = found.inner[1].value if len(found.inner) > 1 else None
        # any verb but those known to leave the work tree alone: an alias (`co =
        # checkout`) or an extension (`git lfs pull`) may write it (review AK7)
        if verb in _GIT_TREE_KEEPERS:
            return
        if self.state_files:
            self.tree_switcher_state(f"git {verb}", seg)
        self.note_config_rewrite(f"git {verb}", seg)

    def tree_switcher_state(self, program: str, seg: SegmentState) -> None:
        """`program` may rewrite files of the work tree: it asks where one of the policy's
        own files lies in the workspace."""
        inside = [s for s in self.state_files if paths.is_within(s, self.ctx.workspace)]
        if inside:
            seg.floor(
                Verdict.ASK,
                "engine.policy-state",
                f"`{program}` may rewrite files of the work tree, where `{min(inside)}`, a "
                "file this policy is loaded from, lies",
            )

    def extra_targets(
        self, name: str, prefix: Sequence[Word], rest: Sequence[Word], seg: SegmentState
    ) -> None:
        """`make test deploy` under `make test`: a build tool runs every target, goal or
        task it is given, and the approval named one (review AH6)."""
        words = (*prefix, *rest)
        view = option_view(words, self.rules.policy.tree.option_spec(name), start=1)
        end = len(words)
        if name in _TASK_ARGUMENTS:
            end = next((i for i, w in enumerate(words) if w.value == "--"), end)
        for index in view.operands:
            if index < len(prefix) or index > end:
                continue  # (after `--`: the task's own arguments, `task build -- -x`)
            value = words[index].value
            if value is None or "=" in value:
                continue  # (`V=1`: an override, judged by its own rule)
            if _NUMBER.fullmatch(value) and words[index - 1].value in _NUMBER_OPTIONS:
                continue  # `make -j 4`: make's `-j` and `-l` take a number that follows
            seg.floor(
                Verdict.ASK,
                "engine.approved-extra-target",
                f"`{short(value)}` is another target than the approved "
                f"`{short(' '.join(w.text for w in prefix))}`",
            )
            return

    def approved_push(
        self, prefix: Sequence[Word], rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """`git push …` under an approval of `git push` or `git push origin`. A person
        approves pushing the repository's branches to its remotes; every spelling a
        blocklist missed sent something else or somewhere else (a URL or folder on the
        line: review BR9, CP1; a stash by name or id: FD1, FO5, FR1; the configuration's
        refspecs, mirror, push targets and local remotes: FO6, FR3, FS1, FT1, FT2; a
        symbolic ref or a remote-tracking ref holding the stash: FR6, FQ7). So it is an
        allowlist: the destination is a remote the repository names with a `url`, every
        source on the line is a local branch whose ref holds an object id, no symbolic ref
        stands where git keeps none, and the configuration chooses no other source or
        destination; anything else asks."""
        words = [(w.text, w.value) for w in (*prefix, *rest)[2:]]
        refspecs: list[tuple[str, str | None]] = []
        destinations, unknown = _push_destination(words, refspecs)
        if unknown is None:
            unknown = _push_recursion_option(words)
        if unknown is not None:
            seg.floor(
                Verdict.ASK,
                "engine.approved-push-destination",
                f"`git push` is given `{short(unknown)}`, an option not known here or one "
                "that pushes other repositories, so where it sends what cannot be told",
            )
            return
        for text, value in destinations:  # (none: the configured upstream)
            if value is None or _PUSH_PLACE.search(value) or self._a_repository_here(value, cwd):
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-push-destination",
                    f"`git push` sends the repository to `{short(text)}`, which is no "
                    "remote the approval names",
                )
                return
        self._configured_push(seg, cwd, [value for _text, value in destinations])
        for text, value in refspecs:
            spec = (value or "").lstrip("+")
            source = spec.partition(":")[0]
            if (
                value is None
                or gitstage.may_name_stash(spec)
                or _PUSHED_ID.fullmatch(source)
                or gitstage.UPSTREAM_REF.search(source)
                or not self._sends_branch(source, cwd)
            ):
                # `git push origin stash:refs/heads/x` publishes the local changes put
                # aside, a filled-in `.env` among them (review FD1); so does any source
                # that is not certainly a local branch: an id in any spelling (FO5), a
                # remote-tracking ref a crafted fetch refspec filled (FQ7), a tag
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-push-source",
                    f"`git push` sends `{short(text)}`, which is not certainly a local "
                    "branch (it may be a stash, local changes put aside, of protected "
                    "files too), and only branches are what the approval covers",
                )
                return

    def approved_fetch(
        self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """`git fetch`, `git pull`, `git remote update` or `git maintenance` under an
        approval: a person approves taking the branches and tags of the repository's
        remotes. An allowlist, since each blocklisted source had another (reviews FQ7, FW2,
        FX1, FY1, FY2, FZ1-FZ3, FZ5): every repository the line names is a remote the
        configuration names with a `url` (not a path, which git reads from the work tree's
        top: FZ1; not `host:path`, a URL or a group), and the configuration fetches from no
        repository on this machine, copies nothing but branches and tags, and names no
        branch remote that is not such a remote; anything else asks."""
        self.fs = True
        verb = words[1].value if len(words) > 1 else None
        named_on_line, unknown = _fetched_repositories(verb, words)
        if unknown is not None:
            seg.floor(
                Verdict.ASK,
                "engine.approved-fetch-refspec",
                f"`git {verb}` is given `{short(unknown)}`, which the approval's checks "
                "cannot read, so where it fetches from cannot be told",
            )
            return
        if not cwd.known:
            seg.floor(
                Verdict.ASK,
                "engine.approved-fetch-refspec",
                "the working folder is not known, so what the repository's configuration "
                "makes git fetch cannot be read",
            )
            return
        here = next((name for name in named_on_line if self._a_repository_here(name, cwd)), None)
        if here is not None:
            # a remote's name that is also a folder here (review GB2: git may read it as
            # that folder, whose refs may be this repository's own)
            seg.floor(
                Verdict.ASK,
                "engine.approved-fetch-refspec",
                f"`{short(here)}` also names a folder here, which git may read as a repository",
            )
            return
        for directory in sorted(cwd.candidates):
            why = self._fetch_refusal(directory, named_on_line, cwd)
            if why is not None:
                seg.floor(Verdict.ASK, "engine.approved-fetch-refspec", why)
                return

    def _fetch_refusal(
        self, directory: str, named_on_line: Sequence[str], cwd: paths.Cwd
    ) -> str | None:
        """Why an approved fetch from the repository of `directory` asks
        (`approved_fetch`), or None."""
        inspection = self.git.inspect(directory, home=self.ctx.home)
        named = set(inspection.remote_names)
        stray = next((name for name in named_on_line if name not in named), None)
        if stray is not None:
            return (
                f"`{short(stray)}` is no remote the repository's configuration names with a "
                "`url` (a path, read from the work tree's top, a URL or `host:path`: its "
                "refs may be this one's own, the stash among them)"
            )
        local = next((url for url in inspection.remotes if _local_remote(url)), None)
        if local is None:
            # git's old-style remotes (`.git/remotes/origin` = `URL: .`, `Pull:
            # refs/stash:…`), which the configuration checks do not read (review FY1)
            local = _legacy_remotes(directory)
        if local is not None:
            return (
                f"the repository's configuration names `{short(local)}`, a repository on "
                "this machine, as a remote: its refs may be this one's own"
            )
        stray = next((t for t in inspection.push_targets
                      if t not in named or self._a_repository_here(t, cwd)), None)  # fmt: skip
        if stray is not None:
            # `branch.main.remote = .` with `branch.main.merge = refs/stash`: a bare
            # approved `git pull` merged the stash into `main` (review FX1); a branch
            # remote that is also a folder here may be read as that folder (GC1)
            return (
                f"the repository's configuration names `{short(stray)}` as a branch's "
                "remote, which is no remote with a `url` (`.` is this repository)"
            )
        if inspection.fetch_sources or not inspection.complete:
            found = inspection.fetch_sources[0] if inspection.fetch_sources else "a setting"
            return (
                f"the repository's configuration sets `{found}` (or could not be read in "
                "full), which copies more than the remotes' branches and tags or names "
                "another repository (a group, the stash of one on this machine)"
            )
        return None

    def _sends_branch(self, source: str, cwd: paths.Cwd) -> bool:
        """Whether `source` certainly names a local branch in every repository the line
        may push from (`gitrefs.sends_branch`)."""
        self.fs = True
        if not cwd.known:
            return False
        found = [find_gitdirs(folder) for folder in sorted(cwd.candidates)]
        return all(complete and dirs for dirs, complete in found) and all(
            gitrefs.sends_branch(gitdir, source) for dirs, _complete in found for gitdir, _ in dirs
        )

    def _configured_push(
        self, seg: SegmentState, cwd: paths.Cwd, destinations: Sequence[str | None]
    ) -> None:
        """What the repository's configuration and refs choose for an approved `git push`:
        `remote.origin.push = refs/stash:refs/heads/wip` published a stash, and a true
        `remote.origin.mirror` deleted the remote's other branches (review FO6); a remote
        on this machine runs its hooks (FR3); a destination or push target that names no
        remote with a `url` is read as a path or URL (FS1, FT1, FT2); a symbolic ref such
        as `HEAD` = `ref: refs/stash` makes a branch or `HEAD` the stash (FR6). Each reason
        is given."""
        self.fs = True
        if not cwd.known:
            seg.floor(
                Verdict.ASK,
                "engine.approved-push-remote",
                "the working folder is not known, so the repository `git push` sends from "
                "cannot be read",
            )
            return
        for directory in sorted(cwd.candidates):
            for rule, message in self._push_refusals(directory, cwd, destinations):
                seg.floor(Verdict.ASK, rule, message)

    def _push_refusals(
        self, directory: str, cwd: paths.Cwd, destinations: Sequence[str | None]
    ) -> list[tuple[str, str]]:
        """Why an approved `git push` from `directory` asks (`_configured_push`): each
        rule id with its message."""
        refusals: list[tuple[str, str]] = []
        inspection = self.git.inspect(directory, home=self.ctx.home)
        local = next((url for url in inspection.remotes if _local_remote(url)), None)
        if local is None:
            local = next((t for t in inspection.push_targets
                          if self._a_repository_here(t, cwd)), None)  # fmt: skip
        if local is None:
            local = _legacy_remotes(directory)
        if local is not None:
            # a remote (or push URL) in a folder here: git runs that repository's
            # `pre-receive` hook, as for `git push bare.git` (review FR3, CP1)
            refusals.append((
                "engine.approved-push-remote",
                f"the repository's configuration names `{short(local)}`, a repository "
                "on this machine, as a remote: a push there runs its hooks",
            ))  # fmt: skip
        if inspection.push_sources:
            refusals.append((
                "engine.approved-push-source",
                f"the repository's configuration sets `{inspection.push_sources[0]}`, which "
                "chooses what `git push` sends (a stash, every ref as a mirror, or the "
                "submodules' refs), not the branch the approval covers",
            ))  # fmt: skip
        named = set(inspection.remote_names)
        # (no destination and no push target configured: git pushes to `origin`)
        wanted = [d for d in destinations if d is not None] or [*inspection.push_targets]
        if not wanted:
            wanted = ["origin"]
        stray = next((name for name in wanted if name not in named), None)
        if stray is not None or not inspection.complete:
            # git reads a name no remote of the repository has as a URL or a path (FT1)
            shown = f"`{short(stray)}`" if stray is not None else "a remote"
            refusals.append((
                "engine.approved-push-destination",
                f"`git push` would send to {shown}, which the repository's configuration "
                "(read in full) does not name as a remote with a `url`",
            ))  # fmt: skip
        gitdirs = find_gitdirs(directory)[0]
        odd = next(filter(None, (gitrefs.odd_symref(gitdir) for gitdir, _top in gitdirs)), None)
        if odd is not None:
            refusals.append((
                "engine.approved-push-source",
                f"the repository holds a symbolic ref git does not make itself "
                f"(`{short(odd)}`): what `git push` sends through it cannot be told",
            ))  # fmt: skip
        stashed = next(filter(None, (gitrefs.branch_at_stash(g) for g, _top in gitdirs)), None)
        if stashed is not None:
            # a branch fast-forwarded to the stash (a pull from a crafted folder: review
            # FW2) publishes it, though it is a branch
            refusals.append((
                "engine.approved-push-source",
                f"a branch of the repository may be the stash's commit (`{short(stashed)}`), "
                "local changes put aside, of protected files too",
            ))  # fmt: skip
        return refusals

    def _a_repository_here(self, name: str, cwd: paths.Cwd) -> bool:
        """Whether git may open `name` as a repository in any working folder the line may be
        in: `NAME` or `NAME.git`, a folder or a file (`gitdir: …`), as `enter_repo` tries
        them (unknown working folders count as yes)."""
        self.fs = True
        if not cwd.known:
            return True
        # the work tree's top too: git reads a push's or fetch's path from there, not from
        # the working folder (`git push up.git` from `src/` ran `up.git`'s hooks: GA3)
        tops = {top for folder in cwd.candidates for _gitdir, top in find_gitdirs(folder)[0]
                if top is not None}  # fmt: skip
        return any(
            os.path.lexists(os.path.join(folder, spelt))
            for folder in (*cwd.candidates, *sorted(tops))
            for spelt in (name, f"{name}.git")
        )

    def runner_own_options(
        self, program: str, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """What an approved runner's own options (the words before its command) do
        besides tracing it: strace's and ltrace's `-o`/`--output` value that starts with
        `!` or `|` runs as a shell command (review EB3: `strace -fo'!touch x' ls`);
        valgrind's `--log-socket`, `--xml-socket` and `--debuginfo-server` reach the
        network, a `--tool=` with a `/` runs the file it names (valgrind looks for it
        beside its own tools: `--tool=../../../home/u/ws/evil`), and a file option's
        `%p`/`%q{VAR}` makes a name that cannot be known here (review EB4); valgrind reads
        more options from the working folder's `.valgrindrc`, `~/.valgrindrc` and
        `VALGRIND_OPTS` (review EB5). Each asks: no approval covers it."""
        values = [w.value for w in words]
        if program == "valgrind":
            found = _valgrind_reach(values)
            if found is None:
                found = self._valgrind_settings(cwd)
        elif program == "lima":
            found = _lima_reach(values, self.ctx.env)
        elif program == "strace":
            found, written = _strace_reach(values)
            for path in written:
                # (`-o FILE`: the trace is written there, `-ff` beside it: review EC4)
                self.check_path(path, "write", seg, cwd)
        else:
            found, read = _ltrace_reach(values)
            for path in read:
                self.check_path(path, "read", seg, cwd)  # (`-F FILE`, its prototypes)
        if found is not None:
            seg.floor(
                Verdict.ASK,
                "engine.approved-runner-option",
                f"`{program}` is approved, but {found}, which no approval covers",
            )

    def _valgrind_settings(self, cwd: paths.Cwd) -> str | None:
        """Where valgrind takes options the line does not show (review EB5): a
        `.valgrindrc` in the working folder (a cloned repository's: valgrind reads it
        where its owner runs it), `~/.valgrindrc` where it leads into the workspace, or
        `VALGRIND_OPTS`; why it asks, or None."""
        if self.ctx.env.get("VALGRIND_OPTS", "").strip():
            return "it takes more options from `VALGRIND_OPTS`"
        self.fs = True
        if not cwd.known or any(
            os.path.lexists(os.path.join(folder, ".valgrindrc")) for folder in cwd.candidates
        ):
            return "it reads more options from the working folder's `.valgrindrc`"
        if self._reaches_workspace("~/.valgrindrc"):
            return "it reads more options from `~/.valgrindrc`, which leads into the workspace"
        return None

    def approved_runner(
        self, prefix: Sequence[Word], rest: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """Judge the command an approved runner runs (`strace CMD`, `perf stat CMD`).

        What was approved is the runner (`strace`, `perf`), or the runner and a command
        (`uv run pytest`): the command it runs is judged on its own, with the approved
        words that name it (`pytest`) as its approval. So `uv run pytest -x` passes, and
        `uv run python -c …` under `uv run python x.py`, `perf stat rm -rf ~` under
        `perf`, or `uv run pip install -g x` under `uv run pip install` do not (review T).
        Where an option's value may hide the command's start, each start is judged.
        """
        words = (*prefix, *rest)
        values = [w.value for w in words]
        runners = self.rules.policy.runners
        size, runner = runners.find(values)
        if size == 0:
            return
        approved = " ".join(w.value or "" for w in prefix)
        machine = MACHINES.get(runner) if runner is not None else None
        if machine is not None and machine.home:
            cwd = self.machine_cwd(cwd)  # (`lima CMD`: the home's names too, review BH-VM)
        starts, complete = program_starts(values, size) if runners.is_exact(runner) else ((), False)
        if not complete:
            what = " ".join(v or "…" for v in values[:size])
            seg.floor(
                Verdict.ASK,
                "engine.approved-runs-program",
                f"`{short(approved)}` is approved, but `{short(what)}` runs a command whose "
                "start in its words cannot be told (an option's value, a positional word "
                "or a shell string), which no approval covers",
            )
        for start in starts:
            named = values[start : len(prefix)]
            # the approved words past the runner, when they are the command's own
            extra = tuple(v for v in named if v is not None) if None not in named else ()
            if extra and "/" in extra[0]:
                # a program run by path is approved by where it is (`rule_verdict`)
                where = _program_path(extra[0], cwd)
                extra = (where, *extra[1:]) if where is not None else ()
            project = self.project_program(words, start, cwd)
            if project is not None and not (extra and extra[0] == values[start]):
                # the project environment's program (review EE7), which the approval does
                # not name (`uv run` alone): judged as the file it is. An approval that
                # names it names its path (`script_operand` anchors it where approvals
                # are matched: `uv run ls` approves nothing here), and then its words are
                # judged as that program's (`uv run pytest --junitxml=…`)
                text = " ".join((shlex.quote(project), *(w.text for w in words[start + 1 :])))
                self.approved_program(approved, words[start:], seg, cwd, (), text=text)
                continue
            if (
                len(extra) > 1
                and extra[1][:1] not in ("-", "/", "")
                and self.rules.runs_script(extra[0], extra[1])
            ):
                # and a script by where it is (`script_operand`)
                where = _program_path(extra[1], cwd)
                extra = (extra[0], where, *extra[2:]) if where is not None else ()
            self.approved_program(approved, words[start:], seg, cwd, extra)

    def pnpm_fallback(self, words: list[str | None], seg: SegmentState, cwd: paths.Cwd) -> None:
        """An approved pnpm line whose first word is no command of pnpm's runs the
        project's script of that name, or, where there is none, the program of that name:
        pnpm 9 and 10 then run it as `pnpm exec` does, from the project's
        `node_modules/.bin` or PATH (review BI1: under an approved `pnpm`, `pnpm git push
        origin main` pushed and `pnpm node x.js` ran x.js; `pnpm git`, `pnpm node` were
        offered). A name that is neither a script of the working folder's `package.json`
        (the workspace root's for `-w`) nor a program in the `node_modules/.bin` of the
        working folder or of pnpm's workspace root is a runner's command: no approval of
        pnpm covers it, as none covers `pnpm exec` (`launchers.pnpm_fallback`)."""
        found = launchers.pnpm_fallback(words)
        if found is None:
            return
        name = found.program
        if name is not None and self._pnpm_bin(name, cwd):
            return  # (the project's own program)
        if name is not None and all(
            script is not None and self._pnpm_project_name(script, found.root, cwd)
            for script in found.scripts
        ):
            return
        shown = short(name) if name is not None else "…"
        seg.floor(
            Verdict.ASK,
            "engine.approved-runs-program",
            f"`pnpm {shown}` runs the program `{shown}` where no script of the project "
            "and no program of its `node_modules/.bin` has that name (pnpm runs a "
            "command it does not know as `pnpm exec` does, named by the first word after "
            "its options), which no approval of pnpm covers",
        )

    def bun_fallback(self, words: list[str | None], seg: SegmentState, cwd: paths.Cwd) -> None:
        """A bun line whose first word is none of bun's commands and no file runs the
        project's script of that name, a program of its `node_modules/.bin`, or the
        program of that name (review BR3: an approved `bun` or `bun git` allowed `bun git
        push`, `bun node x.js`; `bun git` was offered): unless every name is a script of
        the working folder's `package.json` or a program of its `node_modules/.bin`, no
        approval covers it, as none covers `bun x` (`launchers.bun_fallback`)."""
        names = launchers.bun_fallback(words)
        if not names:
            return
        if all(
            name is not None and (self._pnpm_bin(name, cwd) or self._bun_script(name, cwd))
            for name in names
        ):
            return
        shown = short(next((n for n in names if n is not None), "…"))
        seg.floor(
            Verdict.ASK,
            "engine.approved-runs-program",
            f"`bun {shown}` runs the program `{shown}` where no script of the project and "
            "no program of its `node_modules/.bin` has that name (bun runs a first word "
            "that is none of its commands and no file as a script or a package's program; "
            "which versions look in PATH too is not known here), which no approval of bun "
            "covers",
        )

    def _bun_script(self, name: str, cwd: paths.Cwd) -> bool:
        """Whether `name` is a script of the working folder's `package.json`, in every
        working folder (`bun_fallback`)."""
        if not name or "/" in name or name in (".", "..") or not cwd.known:
            return False
        self.fs = True
        return all(name in launchers.scripts(start) for start in cwd.candidates)

    def _pnpm_bin(self, name: str, cwd: paths.Cwd) -> bool:
        """Whether `name` is a program of the `node_modules/.bin` of the working folder or
        of pnpm's workspace root, in every working folder (`pnpm_fallback`)."""
        if not name or "/" in name or name in (".", "..") or not cwd.known:
            return False
        self.fs = True
        for start in cwd.candidates:
            top = self._pnpm_workspace_root(start)
            bins = (start, top) if top is not None else (start,)
            if not any(os.path.lexists(os.path.join(b, "node_modules/.bin", name)) for b in bins):
                return False
        return True

    def _pnpm_project_name(self, name: str, root: bool, cwd: paths.Cwd) -> bool:
        """Whether `pnpm NAME` runs a script of the project in every working folder
        (`pnpm_fallback`)."""
        if name in ("start", "test"):
            # (with no script of the name, `start` runs `node server.js`, the project's,
            # and `test` the `test` utility, which runs nothing)
            return True
        if not name or "/" in name or name in (".", "..") or not cwd.known:
            return False
        self.fs = True
        script = "test" if name in ("t", "tst") else name  # (pnpm's names of `test`)
        for start in cwd.candidates:
            top = self._pnpm_workspace_root(start)
            folder = top if root and top is not None else start
            if script not in launchers.scripts(folder):
                return False
        return True

    def _pnpm_workspace_root(self, start: str) -> str | None:
        """The folder pnpm takes as its workspace root from `start`: the nearest one at or
        above it, in the workspace, that holds `pnpm-workspace.yaml`."""
        for folder in paths.ancestors(start):
            if not self._reaches_workspace(folder):
                return None
            if os.path.lexists(os.path.join(folder, "pnpm-workspace.yaml")):
                return folder
        return None

    def project_program(
        self, words: Sequence[Word], start: int, cwd: paths.Cwd | None
    ) -> str | None:
        """The program of the project's Python environment that the command of `uv run`,
        `poetry run`, `pdm run`, `pipenv run` or `rye run` at `start` names (review EE7):
        those put the environment's `bin` first on PATH, so `uv run ls` runs a committed
        `.venv/bin/ls`, and they install the project's own `[project.scripts]` there
        before running. Looked for in `.venv/bin` of the working folder and of each folder
        above it in the workspace (where the project may be); a link there to a program
        outside the workspace (the environment's `python`) is that program, if it is one
        of that name (`python -> /usr/bin/python3.11`). None when the name is the system's
        as far as can be told."""
        name = words[start].value if start < len(words) else None
        if not name or "/" in name or name in (".", "..") or cwd is None or not cwd.known:
            return None
        runner = verb_runner(words)
        if runner is None or runner[1].name not in _PROJECT_RUNNERS:
            return None
        self.fs = True  # (a program made there later changes the answer)
        workspaces = {self.ctx.workspace, self.ctx.real_workspace or self.ctx.workspace}
        for candidate in sorted(cwd.candidates):
            folder = candidate
            while any(paths.is_within(folder, top) for top in workspaces):
                program = os.path.join(folder, ".venv", "bin", name)
                if os.path.lexists(program):
                    real = os.path.realpath(program)
                    installed = os.path.islink(program) and not any(
                        paths.is_within(real, top) for top in workspaces
                    )
                    # (a link to another program is that program, not `name`: a committed
                    # `.venv/bin/ls -> /usr/bin/bash` made `uv run ls -c CODE` bash: EI1)
                    same = _unversioned(os.path.basename(real)) == _unversioned(name)
                    if not installed or not same or not os.path.isfile(real):
                        return program
                if name in _declared_scripts(folder) or _other_environment(folder):
                    return program
                parent = os.path.dirname(folder)
                if parent == folder:
                    break
                folder = parent
        return None

    def runner_command(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """The command a runner runs (`strace cat .env`, `setpriv --reuid=1000 rm -rf ~`,
        `script -qc 'cat .env'`), found by its own options (`RUNNER_WRAPPERS`) and judged
        on its own: a deny there holds. The runner is not seen through (its use asks, or
        its approval has the command judged: `approved_runner`), so only a deny is taken
        (review DX6's runners had asked where the command alone is denied)."""
        if not words:
            return
        size, runner = self.rules.policy.runners.find([w.value for w in words])
        machine = MACHINES.get(runner) if runner is not None else None
        if machine is not None:
            self.machine_command(words, size, runner or (), seg, cwd)
            return
        if (words[0].value or "").rpartition("/")[2] == "perf":
            self._perf_line(words, seg, cwd)
        self._package_runner_command(words, seg, cwd)
        verb = verb_runner(words)
        if verb is not None:
            self._verb_runner_command(words, *verb, seg, cwd)
            self._project_runner_files(words, *verb, seg, cwd)
            return
        if RUNNER_WRAPPERS.lookup(words[0]) is None:
            return
        self._runner_writes(words, seg, cwd)
        if self._runners is None:  # (the policy's `wrapper` lines first)
            self._runners = RUNNER_WRAPPERS.extend(self.rules.policy.wrappers)
        if program_name((words[0].value or "").rpartition("/")[2]) == "valgrind":
            # valgrind reads every word that starts with `-` as its own, tools' options
            # and `--vex-…` included, whatever the table lists (review EB7)
            start = next(
                (i for i, w in enumerate(words) if i and not (w.value or "x").startswith("-")),
                len(words),
            )
            words = (words[0], *words[start:])
        found = unwrap(words, self._runners, parse=_code_only)
        if found.nested is not None:
            text = found.nested.text
        elif found.words:
            text = " ".join(w.text for w in found.words)  # (as written: `~` and all)
        elif found.opaque and found.chain:
            # a shell's string that is not literal, read as written (`strace bash -c
            # "cat $HOME/.ssh/id_rsa"`: review EB7), as `unread_code` reads one unwrapped
            use = found.chain[-1]
            spec = self._runners.get(use.name)
            code = written_code(use.words, spec) if spec is not None else None
            if not code:
                return
            text = code
        else:
            return
        what = f"`{short(words[0].text)}` runs"
        self.denied_inside(what, text, "engine.runner-command", seg, cwd)

    def windows_program(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """A Windows program run from WSL by its file's name (`git.exe`, `limactl.exe`,
        `cmd.exe /c …`, `powershell.exe -c …`; review HH6): no rule knows it by that name,
        so none of the checks of the program it is apply (an approved `git.exe` had
        allowed `git.exe -c core.pager=x log`). It asks whatever is approved, is offered
        nothing, and its line is judged as the program of the name without `.exe` for a
        deny (`rm.exe -rf ~` as `rm -rf ~`). Windows' shells (`cmd`, `powershell`, `pwsh`)
        run a command string no check here reads, under any of their names (`pwsh-lts`,
        `pwsh-preview`: review HM1). A `.com` program is one too (`format.com`: HM3).
        Whatever its path: a Windows drive is mounted where WSL's configuration says
        (`/mnt/c`, `/c`), a workspace may lie on one, a link may lead to one, and a path
        has many spellings (`//mnt/c`, `/./mnt/c`: review HP5), so a native build named
        `.exe` (dune's `./_build/default/bin/main.exe`) asks under approvals too (HM4)."""
        if not words or words[0].value is None:
            return
        name = words[0].value.replace("\\", "/").rpartition("/")[2]
        lowered = name.lower()
        suffix = next((s for s in _WINDOWS_SUFFIXES if lowered.endswith(s)), "")
        stem = lowered.removesuffix(suffix)
        shell = stem in _WINDOWS_SHELLS or stem.startswith(_WINDOWS_SHELL_STEMS)
        if not shell and not suffix:
            return
        if shell:
            why = (
                f"`{short(name)}` is a Windows shell, whose commands (and the command "
                "strings it is given) no check here reads, which no approval covers"
            )
        else:
            why = (
                f"`{short(name)}` is a Windows program run by its file's name, which no rule "
                "or check of the program it is knows by that name, which no approval covers"
            )
        seg.floor(Verdict.ASK, "engine.windows-program", why)
        if suffix and stem:
            # Windows' names are not case-sensitive: `RM.EXE` is `rm` (review HM2)
            text = " ".join((shlex.quote(stem), *(w.text for w in words[1:] if w.text)))
            self.denied_inside(f"`{short(name)}` runs", text, "engine.runner-command", seg, cwd)

    def _package_runner_command(
        self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """The command an npm-family runner runs (`npx rm -rf ~`, `yarn exec CMD`, `pnpm
        exec CMD`, `npm exec -c 'CMD'`, `yarn|pnpm dlx`, `bun x|exec`, `bunx`: review BR1),
        found as `approved_runner` finds it (the policy's runner table, `program_starts`):
        npx, yarn's and pnpm's `exec` run a program of PATH when no package's bin has the
        name, so the command is judged on its own for a deny, as `env CMD` is. Which
        option takes a value is not modelled: each start an option's value could hide is
        judged, and a value is judged as a shell string too (npm's `-c CODE`,
        `--call=CODE`; pnpm's `--shell-mode` joins the words, yarn berry's `exec` runs
        its words in its shell). The use of such a runner asks already."""
        values = [w.value for w in words]
        size, runner = self.rules.policy.runners.find(values)
        if runner is None or runner[0] not in _PACKAGE_RUNNER_NAMES:
            return
        texts: list[str] = []
        starts, _complete = program_starts(values, size)
        for index in range(size, starts[0] if starts else len(words)):
            value = values[index]
            if value is not None and value.startswith("-") and "=" in value:
                texts.append(value.partition("=")[2])  # (`--call=CODE`)
        for start in starts:
            inner = words[start:]
            texts.append(" ".join(w.text for w in inner if w.text))
            if _shell_joined(runner, values[1:start]):
                texts.append(" ".join(w.value if w.value is not None else w.text for w in inner))
        what = f"`{short(' '.join(v or '…' for v in values[:size]))}` runs"
        for text in dict.fromkeys(texts):
            if text.strip():
                self.denied_inside(what, text, "engine.runner-command", seg, cwd)

    def instance_command(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """The command `lxc exec INSTANCE [--] CMD` (`incus exec`) runs, judged on its own
        for a deny (review BX4): the instance may have this machine's folders as disk
        devices, so a deny here holds there (`lxc exec c -- sh -c 'rm -rf ~'` was allowed
        under `lxc exec`, where `lxc exec c -- rm -rf ~` is denied). Its approval keeps
        allowing the rest, as `docker exec`'s does. The verb is found as cobra finds it,
        past global options and their values (`lxc --project p exec …`), or at any word
        where one before it is not literal; pflag takes options after the command's first
        word as lxc's own and drops the first `--` wherever it stands (`lxc exec c sh --
        -c 'rm -rf ~'` runs `sh -c 'rm -rf ~'`), so that reading is judged too (review BZ
        HS3, HS4)."""
        values = [w.value for w in words]
        if len(values) < 3 or (values[0] or "").rpartition("/")[2] not in (
            containers.INSTANCE_PROGRAMS
        ):
            return
        # (every place the verb may be, old lxc's `-d` a switch: review HU3; `shell` is
        # `exec @ARGS@ -- su -l`, its words after `--` run first: review HU6)
        places = containers.cobra_verbs(
            values[1:], containers.INSTANCE_SWITCHES, (), containers.INSTANCE_EITHER
        )
        if places is None:
            verbs = [i for i, v in enumerate(values) if i and v in ("exec", "shell")]
        else:
            verbs = [at + 1 for at in places
                     if at + 1 < len(values) and values[at + 1] in ("exec", "shell")]  # fmt: skip
        texts: list[str] = []
        for verb in verbs:
            texts += self._instance_texts(words, verb)
        what = f"`{values[0]} exec` runs"
        for text in dict.fromkeys(texts):
            if text.strip():
                self.denied_inside(what, text, "engine.runner-command", seg, cwd)

    def instance_setting(
        self, words: Sequence[Word], segment: Segment, seg: SegmentState
    ) -> None:
        """An `lxc` (`incus`) line that gives an instance this machine by its settings
        (`config set c security.privileged true`, `raw.lxc`, `raw.idmap`, `launch img c -c
        security.nesting=true`, a disk device's `source=`, `config edit` from stdin:
        `containers.instance_setting`, review BZ HS5): it asks under any approval and is
        offered nothing, as podman's `--privileged`."""
        if not words or (words[0].value or "").rpartition("/")[2] not in (
            containers.INSTANCE_PROGRAMS
        ):
            return
        starts = [w.value if w.value is not None else containers.literal_start(w.text)
                  for w in words[1:]]  # fmt: skip
        unknown = {i for i, w in enumerate(words[1:]) if w.value is None}
        # (`< /dev/null`, its own last input, feeds nothing: review HW6; but not beside
        # another redirect of fd 0, `0>&3` puts a file there too: review HX1)
        inputs = [
            r for r in segment.redirects
            if r.fd in (None, 0) and (r.heredoc is not None or r.op in _INPUT_OPS)
        ]  # fmt: skip
        last = inputs[-1] if inputs else None
        emptied = last is not None and last.op == "<" and last.heredoc is None and (
            last.target is not None and last.target.value == "/dev/null"
        ) and not any(r is not last and r.fd == 0 for r in segment.redirects)
        fed = seg.fed or any(r.fd == 0 for r in segment.redirects)
        found = containers.instance_setting(starts, unknown, fed and not emptied)
        if found is None:
            return
        seg.floor(
            Verdict.ASK,
            "engine.instance-privileges",
            f"`{words[0].value} … {short(found)}` sets what the instance may take from this "
            "machine (its root user, raw LXC or QEMU configuration, nested containers, "
            "kernel modules, system calls, a folder or socket of this machine, the server's "
            "own settings, trust, or an alias that hides what it runs), which no approval "
            "covers",
        )
        seg.suggestion = None

    @staticmethod
    def _instance_texts(words: Sequence[Word], verb: int) -> list[str]:
        """The readings of the command of `lxc exec` at `verb` (`instance_command`)."""
        values = [w.value for w in words]
        index = verb + 1
        instance = False
        while index < len(values):
            value = values[index]
            if value == "--":
                index += 1
                break
            if value is None:
                index += 1  # (not literal: the command may start anywhere after it)
                instance = True
                continue
            if value.startswith("-"):
                if value in _INSTANCE_EXEC_VALUES:
                    index += 1
                index += 1
                continue
            if instance:
                break
            instance = True
            index += 1
        texts = [" ".join(w.text for w in words[start:] if w.text)
                 for start in range(index, len(words))] if None in values else [
                 " ".join(w.text for w in words[index:] if w.text)]  # fmt: skip
        # pflag's reading: the operands before the first `--` (options and their values
        # are lxc's), then every word after it; the first operand is the instance. cobra
        # parses every word but the verb so, those before it too (`lxc -T c exec rm -- -rf
        # ~` runs `rm -rf ~` in `c`: review HZ1)
        operands: list[Word] = []
        index = 1
        while index < len(words):
            value = values[index]
            if index == verb:
                index += 1
                continue
            if value == "--":
                operands += words[index + 1 :]
                break
            if value is not None and value.startswith("-") and value != "-":
                index += 2 if value in _INSTANCE_EXEC_VALUES else 1
                continue
            operands.append(words[index])
            index += 1
        texts.append(" ".join(w.text for w in operands[1:] if w.text))
        return texts

    def npm_call_variable(
        self, segment: Segment, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """npm's `call` setting given by the environment (`npm_config_call='CMD' npx`,
        `NPM_CONFIG_CALL=… npm exec`: npm reads its variables in any case): npm 9 runs the
        value in a shell as `npx -c CMD` does (review BX5, confirmed with real npm), so
        it is judged as the runner's command for a deny, from the line's assignments
        (`env` ones too, and any `export` of the line: review BZ HS7) and the environment
        given. The variable asks already. npm's `--call=CMD` (`-c CMD`) before its
        subcommand (`npm -c 'CMD' exec`: real npm runs it) is judged so too."""
        if not words:
            return
        values = [w.value for w in words]
        program = (values[0] or "").rpartition("/")[2]
        texts: list[str] = []
        if program == "npm":
            for index, word in enumerate(words[1:], 1):
                value = word.value
                if value == "--":
                    break
                if value in ("-c", "--call") and index + 1 < len(words):
                    following = words[index + 1]
                    texts.append(following.value if following.value is not None
                                 else following.text)  # fmt: skip
                elif value is not None and value.startswith("--call="):
                    texts.append(value.removeprefix("--call="))
                elif value is None and word.text.startswith("--call="):
                    texts.append(word.text.removeprefix("--call="))
        size, runner = self.rules.policy.runners.find(values)
        if runner is None or runner[0].rpartition("/")[2] not in ("npx", "npm"):
            if program not in ("npm", "npx"):
                return
            size = 1
        assignments = segment.assignments + segment.declared
        if segment.wrapped is not None:
            assignments += segment.wrapped.assignments
        if self.root is not None:
            for _, other in walk(self.root):
                assignments += other.declared
        texts += [
            a.value.value if a.value.value is not None else a.value.text
            for a in assignments
            if a.name.lower() == "npm_config_call" and a.value is not None
        ]
        texts += [v for k, v in self.ctx.env.items() if k.lower() == "npm_config_call"]
        what = f"`{short(' '.join(w.value or '…' for w in words[:size]))}` runs"
        for text in dict.fromkeys(texts):
            if text.strip():
                self.denied_inside(what, text, "engine.runner-command", seg, cwd)

    def machine_command(
        self,
        words: Sequence[Word],
        size: int,
        runner: tuple[str, ...],
        seg: SegmentState,
        cwd: paths.Cwd,
    ) -> None:
        """The command a machine runner runs (`MACHINES`, review BH-VM: `lima rm -rf ~`,
        `colima ssh -- cat ~/.ssh/id_rsa`, `colima nerdctl -- run -v ~/.ssh:/k img`),
        judged on its own for a deny: the machine mounts the home (lima read-only by
        default, colima and others writable), so a deny here holds there. Read as
        written, and for an ssh-like runner also as the words joined with spaces, which
        the machine's shell reads again (`podman machine ssh 'rm -rf ~'`); in lima's
        machine it runs in the working folder, or in the home when the machine does not
        have that folder (`machine_cwd`). The runner is not seen through: its use asks."""
        machine = MACHINES[runner]
        where = self.machine_cwd(cwd) if machine.home else cwd
        texts: list[str] = []
        for inner in machine_commands(words[size - 1 :], machine):
            texts.append(" ".join(w.text for w in inner if w.text))
            if machine.joined:
                texts.append(" ".join(w.value if w.value is not None else w.text for w in inner))
        if machine.command_options:
            texts.extend(_vagrant_ssh_commands(words[size - 1 :]))
        if machine.assignments:
            # limactl quotes a leading word that holds a `=` after its first `=` only, so
            # the machine's shell reads what comes before it (review HH7: `lima 'x;cat
            # ~/.ssh/id_rsa;y=1'` ran `cat`)
            plain = dataclasses.replace(machine, assignments=False)
            for inner in machine_commands(words[size - 1 :], plain):
                texts.append(_lima_line(inner))
        what = f"`{' '.join(runner)}` runs"
        for text in dict.fromkeys(texts):
            if text.strip():
                self.denied_inside(what, text, "engine.runner-command", seg, where)

    def machine_cwd(self, cwd: paths.Cwd) -> paths.Cwd:
        """Where lima's machine (colima's, Rancher Desktop's; distrobox's container) runs
        a command: in the working folder, which it mounts at its own path when it lies in
        the home, else in the home (`cd DIR || cd HOME`; review BH-VM): a relative name may
        be the home's (`lima cat .ssh/id_rsa` from a folder outside the home)."""
        home = self.ctx.home
        if not home or (cwd.known and all(paths.is_within(c, home) for c in cwd.candidates)):
            return cwd
        return cwd.with_target(home)

    def _verb_runner_command(
        self, words: Sequence[Word], at: int, spec: WrapperSpec, seg: SegmentState,
        cwd: paths.Cwd,
    ) -> None:
        """`runner_command` for a runner named with its verb (`uv run CMD`, `perf stat
        CMD`: `VERB_RUNNERS`): the command after the verb's own options, judged for a
        deny only, and the files `perf -o` writes (`perf record` moves an old one to
        `FILE.old`, `--switch-output` adds `FILE.<time>`), `perf stat --pre/--post` code."""
        runner = words[at:]  # (the verb is its argv[0]; options before it are global)
        verb = runner[0].value or ""
        view = option_view(runner, spec.options)
        program = words[0].value or ""
        if program.rpartition("/")[2] == "perf":
            for option in view.find("-o", "--output"):
                beside = (".old", ".1") if verb == "record" else ()
                self._written_option(runner, option, beside, seg, cwd)
            for option in view.find("--pre", "--post"):
                if option.value:
                    what = f"`perf stat {option.name}` runs"
                    self.denied_inside(what, option.value, "engine.runner-command", seg, cwd)
        found = unwrap(runner, WrapperTable([with_options(spec, name=verb)]), parse=_code_only)
        if found.opaque or not found.chain:
            return  # (an option not known, or no command: the line asks)
        inner = list(runner[len(found.chain[0].words) :])
        if not inner:
            return
        texts = [w.text for w in inner]
        if spec.name == "hatch run" and ":" in (inner[0].value or ""):
            # `hatch run ENV:CMD …` runs CMD in the environment ENV
            texts[0] = (inner[0].value or "").partition(":")[2]
        text = " ".join(t for t in texts if t)
        if text:
            what = f"`{short(spec.name)}` runs"
            self.denied_inside(what, text, "engine.runner-command", seg, cwd)

    def _perf_line(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """What a perf line reads and writes that `_verb_runner_command` does not see
        (review EE1, EE9): the verb after perf's global options (`perf -v record`,
        `perf --no-pager stat`), the recording of `perf sched|mem|stat|trace|kvm… record`
        (its command and `-o`), the `./perf.data` (and `perf.data.old`) every recording
        writes in its working folder when no `-o` names another file (through a link
        there too: an approved `perf record ls` had written a committed `perf.data ->
        AGENTS.md`), and the file `-i`/`--input` reads."""
        index = 1
        while index < len(words) and (words[index].value or "-").startswith("-"):
            index += 2 if words[index].value in _PERF_GLOBAL_VALUED else 1
        if index >= len(words) or words[index].value is None:
            return
        verb = words[index].value or ""
        spec = VERB_RUNNERS.get(("perf", verb))
        if index > 1 and spec is not None:  # (`verb_runner` reads only `perf VERB`)
            self._verb_runner_command(words, index, spec, seg, cwd)
        if verb not in _PERF_INHERIT:
            self._perf_input(words[index + 1 :], seg, cwd)
        at: int | None = index if verb == "record" else None
        if verb in _PERF_RECORDERS:
            at = next(
                (i for i in range(index + 1, len(words)) if _perf_record_word(words[i].value)),
                None,
            )
        if at is None:
            return
        record = VERB_RUNNERS[("perf", "record")]
        if at != index:
            self._verb_runner_command(words, at, record, seg, cwd)
        view = option_view(words[at:], record.options)
        named = bool(view.find("-o", "--output")) and not view.unknown
        defaults = _PERF_KVM_DATA if verb == "kvm" else () if named else ("perf.data",)
        for name in defaults:
            self.check_path(name, "write", seg, cwd)
            self.check_path(f"{name}.old", "write", seg, cwd)

    def _perf_input(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """The files perf's `-i FILE`, `-iFILE`, `--input[=]FILE` (any unique prefix of
        `--input`) read (`perf report -i .env`: review EE9), judged as read."""
        for index, word in enumerate(words):
            value = word.value or ""
            name, eq, given = value.partition("=")
            following = words[index + 1] if index + 1 < len(words) else None
            if value == "-i" or (
                len(name) >= 4 and "--input".startswith(name) and not eq
            ):
                if following is not None:
                    self.check_path_word(following, "read", seg, cwd)
            elif value.startswith("-i") and len(value) > 2 and value[2] != "-":
                self.check_path(value[2:], "read", seg, cwd)
            elif eq and given and len(name) >= 4 and "--input".startswith(name):
                self.check_path(given, "read", seg, cwd)

    def _pid_named(
        self, prefix: str, seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """The entries a program writes as `PREFIX<pid>…` (strace -ff's `FILE.<pid>`,
        valgrind's `massif.out.<pid>`: review EE5), judged as written: each entry of the
        folder whose name is the prefix and a digit (a link a repository holds for a
        range of pids, `trace.4242 -> CLAUDE.md`), beside `PREFIX1` (a new one). A folder
        too large to list asks."""
        self.check_path(f"{prefix}1", "write", seg, cwd)
        expanded = paths.expand_home(prefix, self.ctx.home)
        if expanded is None:
            return
        folder, _, base = expanded.rpartition("/")
        shown = prefix.rpartition("/")[0] if "/" in prefix else None
        places = (
            [folder or "/"] if expanded.startswith("/")
            else [os.path.join(c, folder) for c in cwd.candidates]
        )  # fmt: skip
        for place in places:
            try:
                with os.scandir(place) as listing:
                    names = []
                    for count, item in enumerate(listing):
                        if count >= _PID_SCAN:
                            seg.floor(
                                Verdict.ASK,
                                "engine.runner-writes",
                                f"`{short(prefix)}<pid>` may name any of the more than "
                                f"{_PID_SCAN} entries of `{short(place)}`, not all read here",
                            )
                            break
                        rest = item.name[len(base) :]
                        if item.name.startswith(base) and rest[:1].isdigit():
                            names.append(item.name)
            except OSError:
                continue
            for name in names:
                written = f"{shown}/{name}" if shown is not None else name
                self.check_path(written, "write", seg, cwd)

    def _project_runner_files(
        self, words: Sequence[Word], at: int, spec: WrapperSpec, seg: SegmentState,
        cwd: paths.Cwd,
    ) -> None:
        """The files a project runner's own options read (`uv run --env-file .env`, whose
        variables the command is given; `--with-requirements`, `--config-file`, `pdm run
        --env-file`, `rye run --pyproject`), judged as read whether the runner is approved
        or not; and its command judged for a deny in the folder `uv --directory` or
        `poetry -C` moves to (`uv run --directory ~/.aws cat credentials`), where uv also
        finds the files those options name (review EE9). Options before the verb are
        uv's and poetry's global ones, read with the verb's table (`verb_runner`)."""
        reads = _RUNNER_READ_OPTIONS.get(spec.name)
        folders = _RUNNER_FOLDER_OPTIONS.get(spec.name)
        if reads is None and folders is None:
            return
        runner = words[at:]
        views: list[tuple[Sequence[Word], OptionView]] = [
            (runner, option_view(runner, spec.options))
        ]
        if at > 1:
            views.append((words[:at], option_view(words[:at], spec.options)))
        places: list[paths.Cwd] = []
        for view_words, view in views:
            for option in view.find(*(folders or ())):
                if option.arg_indexes:
                    target = paths.path_text(view_words[option.arg_indexes[0]])
                else:
                    target = option.value
                if not target:
                    seg.floor(
                        Verdict.ASK,
                        "engine.runner-command",
                        f"`{short(spec.name)} {option.name}` moves its command to a folder "
                        "that cannot be known here",
                    )
                    continue
                places.append(paths.moved(cwd, target, self.ctx.home))
        for view_words, view in views:
            for option in view.find(*(reads or ())):
                for place in (cwd, *places):
                    if option.arg_indexes:
                        word = view_words[option.arg_indexes[0]]
                        self.check_path_word(word, "read", seg, place)
                    elif option.value:
                        self.check_path(option.value, "read", seg, place)
        if spec.name == "uv run":
            self._uv_project_writes((cwd, *places), seg)
            view = views[0][1]
            if view.has("-s", "--script", "--gui-script") and view.rest < len(runner):
                # `uv run --script .env` runs the file as Python whatever its name, and
                # prints the line it cannot parse (review EI7)
                for place in (cwd, *places):
                    self.check_path_word(runner[view.rest], "read", seg, place)
        if not places:
            return
        verb = runner[0].value or ""
        found = unwrap(runner, WrapperTable([with_options(spec, name=verb)]), parse=_code_only)
        if found.opaque or not found.chain:
            return
        text = " ".join(w.text for w in runner[len(found.chain[0].words) :] if w.text)
        for place in places if text else ():
            what = f"`{short(spec.name)}` runs, in another folder,"
            self.denied_inside(what, text, "engine.runner-command", seg, place)

    def _uv_project_writes(self, places: Sequence[paths.Cwd], seg: SegmentState) -> None:
        """`uv run` locks and syncs its project before running: it writes `uv.lock` and
        `.venv` beside the `pyproject.toml` it finds in the working folder or above, and
        follows a link there (a committed `uv.lock -> CLAUDE.md` is written: review EE6).
        Those are judged as written, approved or not, in every folder of the workspace
        from `places` up that holds a `pyproject.toml` (a member's lock may be its
        workspace root's)."""
        workspaces = {self.ctx.workspace, self.ctx.real_workspace or self.ctx.workspace}
        seen: set[str] = set()
        for place in places:
            if not place.known:
                continue
            for folder in sorted(place.candidates):
                while folder not in seen and any(paths.is_within(folder, t) for t in workspaces):
                    seen.add(folder)
                    self.fs = True  # (a project made there later changes the answer)
                    if os.path.isfile(os.path.join(folder, "pyproject.toml")):
                        here = paths.Cwd(candidates=frozenset({folder}))
                        for name in ("uv.lock", ".venv"):
                            self.check_path(name, "write", seg, here)
                    parent = os.path.dirname(folder)
                    if parent == folder:
                        break
                    folder = parent

    def _runner_writes(self, words: Sequence[Word], seg: SegmentState, cwd: paths.Cwd) -> None:
        """The files a runner's own options write, judged as written (deny, or ask, hold
        whether the runner is approved or not): strace's and ltrace's `-o FILE`, with
        strace's `-ff` `FILE.<pid>` beside it (judged as `FILE.1`), and valgrind's log
        files with `%p` as a number."""
        program = program_name((words[0].value or "").rpartition("/")[2])
        spec = RUNNER_WRAPPERS.get(program)
        if spec is None:
            return
        written: list[str] = []
        if program == "valgrind":
            given_names: dict[str, str] = {}
            for word in words[1:]:
                value = word.value
                if value is None or not value.startswith("-"):
                    break
                name, eq, given = value.partition("=")
                if eq:
                    given_names[name] = given
                if eq and given and name in _VALGRIND_WRITTEN:
                    written.append(given.replace("%p", "1").replace("%%", "%"))
                    if name == "--vgdb-prefix":
                        written.append(f"{given}-1")
                    before, pid, after = given.replace("%%", "\0").partition("%p")
                    if pid and "%" not in before and "/" not in after:
                        self._pid_named(before.replace("\0", "%"), seg, cwd)
            for named_by, default in _valgrind_defaults(given_names):
                if named_by not in given_names:
                    self._pid_named(default, seg, cwd)
        elif program in ("strace", "ltrace"):
            view = option_view(words, spec.options)
            for option in view.find("-o", "--output"):
                # (strace's `-o |CMD` runs CMD through the shell; ltrace's is a file)
                if program == "strace" and (option.value or "")[:1] in ("!", "|"):
                    code = (option.value or "")[1:]
                    what = "`strace -o` hands its output to"
                    self.denied_inside(what, code, "engine.runner-command", seg, cwd)
                    continue
                beside = (".1",) if program == "strace" else ()
                self._written_option(words, option, beside, seg, cwd)
                text = (
                    paths.path_text(words[option.arg_indexes[0]])
                    if option.arg_indexes else option.value
                )  # fmt: skip
                if program == "strace" and text:
                    self._pid_named(f"{text}.", seg, cwd)  # (`-ff`'s `FILE.<pid>`)
        for path in dict.fromkeys(written):
            self.check_path(path, "write", seg, cwd)

    def _written_option(
        self, words: Sequence[Word], option: Option, beside: Sequence[str], seg: SegmentState,
        cwd: paths.Cwd,
    ) -> None:
        """The file an option's value names judged as written (its own word as a path
        word: `-o ~/.bashrc`), and the files the program writes beside it, named by
        `beside`'s suffixes (`FILE.1`, `FILE.old`)."""
        if option.arg_indexes:
            word = words[option.arg_indexes[0]]
            self.check_path_word(word, "write", seg, cwd)
            text = paths.path_text(word)
        else:
            text = option.value
            if text:
                self.check_path(text, "write", seg, cwd)
        for suffix in beside if text else ():
            self.check_path(f"{text}{suffix}", "write", seg, cwd)

    def unread_code(self, segment: Segment, seg: SegmentState, cwd: paths.Cwd) -> None:
        """The code of an `eval`, `watch` or shell string that is not literal (`eval rm -rf
        ~`, `bash -c "cat $HOME/.ssh/id_rsa"`), read as written: the use asks, as it
        cannot be seen, and a deny in that reading holds (those had asked where the
        command alone is denied)."""
        wrapped = segment.wrapped
        if wrapped is None or not wrapped.opaque or not wrapped.chain:
            return
        use = wrapped.chain[-1]
        spec = self.rules.policy.wrappers.get(use.name)
        code = written_code(use.words, spec) if spec is not None else None
        if code:
            what = f"`{use.name}` runs code that is not literal, here read as written"
            self.denied_inside(what, code, "engine.unread-code", seg, cwd)

    def denied_inside(
        self, what: str, text: str, rule_id: str, seg: SegmentState, cwd: paths.Cwd
    ) -> None:
        """`text`, a command a segment runs that its own judgement does not see, judged
        on its own: its deny holds; nothing else is taken from it (`runner_command`,
        `unread_code`). The line shares a budget of such judgements."""
        self.runner_budget[0] -= 1
        if self.depth >= _MAX_APPROVED_DEPTH or self.runner_budget[0] < 0:
            return  # (the segment asks already)
        inner = _Walk(self.rules, self.ctx, self.approvals, self.git, cwd)
        inner.depth = self.depth + 1
        inner.budget = self.budget
        inner.runner_budget = self.runner_budget
        inner.recovery = self.recovery
        inner.glob_visits = self.glob_visits
        decision = inner.run(text)
        self.fs = self.fs or inner.fs
        if decision.verdict is Verdict.DENY:
            denied = next((r for r in decision.reasons if r.verdict is Verdict.DENY), None)
            why = denied.message if denied is not None else "denied"
            seg.floor(
                Verdict.DENY, rule_id, f"{what} `{short(text)}`, which is denied: {short(why, 120)}"
            )

    def _config_chosen_files(self, found: SegmentRules, cwd: paths.Cwd | None) -> str:
        """Why the files a linter reads or rewrites, or the code it runs, are the
        configuration's to choose ("" where they are not): ruff or black, where a
        configuration file it reads here sets which files it checks, where it writes or
        what it extends (review FL11); mypy, pylint or flake8, where one sets anything
        but the settings known harmless (`plugins = evil.py`: review GI1, GI2)."""
        values = [w.value for w in found.inner]
        name = _linter_name(found)
        if name is None:
            return ""
        what = _LINTER_CONFIG_RISK.get(name, "runs code or picks the files it reads and writes")
        # (a word that cannot be known asks under any approval on its own; a glob is
        # looked at by its text: `flake8 --filename=*.txt` is no file name)
        given = _linter_line_option(name, [_word_text(w) for w in found.inner])
        if given:
            # `ruff check --extension env:python .` read, printed and rewrote `.env`
            # (review FW3); `--config` takes a file or any setting, `include=[".env"]`
            return f"`{short(given)}` {what}"
        if cwd is None or not cwd.known:
            return f"the folder {name} runs in is not known, whose configuration {what}"
        module_run = module_tool(values) is not None
        for folder in sorted(cwd.candidates):
            chosen = _linter_config(name, folder, self.ctx.workspace or folder, module_run)
            if chosen:
                return f"{name} reads {chosen}, which {what}"
            for path in self._checker_user_files(name):
                # (a relative `XDG_CONFIG_HOME` is the folder's it runs in)
                path = os.path.join(folder, path)
                if config_runs_code(name, path, folder, module_run):
                    return f"{name} reads `{path}`, a file of the workspace, which {what}"
        return ""

    def _approval_elsewhere(self, seg: SegmentState, cwd: paths.Cwd | None) -> str:
        """Why approvals do not hold where `seg` runs ("" where they do): outside the
        workspace, or in a folder the line moved to after a segment that may have made it
        (`git clone URL sub && cd sub && make test`)."""
        if cwd is None:
            return ""
        if not self._cwd_inside(cwd):
            return "runs outside the workspace, where no approval holds"
        if cwd.candidates != self.start.candidates and any(
            not other.read_only for other in self.segments if other is not seg
        ):
            return (
                "runs in a folder the line moved to after commands that change files "
                "(which may have made what runs there)"
            )
        return ""

    def _cwd_inside(self, cwd: paths.Cwd) -> bool:
        # (a workspace given through a link is where its links lead too: the start's
        # resolved cwd lies there, review CH9)
        roots = (self.ctx.workspace, self.ctx.real_workspace or self.ctx.workspace)
        return cwd.known and all(_inside_roots(c, roots) for c in cwd.candidates)

    def _may_name_protected(self, value: str, cwd: paths.Cwd) -> bool:
        """Whether a protect rule may cover what `value` names, by its text alone (joined
        to each working folder): a cheap test, no False wrong (links aside)."""
        forms = [paths.lexical(value, c, self.ctx.home) for c in cwd.candidates]
        return not cwd.known or any(f is None or self.rules.may_be_protected(f) for f in forms)

    def _plain_name(self, path: str, cwd: paths.Cwd) -> bool:
        """A path a word names (`_named_paths`) that is one relative name, which does not
        exist and no protected rule names (as `_plainly_inside`, for the pieces of words
        such as `09:30` or `key=value`, which name each piece and themselves)."""
        if path[:1] == "-" or path in ("", ".", "..") or any(c in path for c in "/~*?[\\"):
            return False
        if self.rules.may_be_protected("/" + path):
            return False
        self.fs = True
        return not any(_lexists(os.path.join(c, path)) for c in cwd.candidates)

    def _plainly_inside(self, value: str, cwd: paths.Cwd) -> bool:
        """A word that names nothing but one relative name that does not exist (so no link)
        and that no protected rule names: an option without a value, `2.0`, `build`."""
        if value[:1] == "-":  # `-s`, `--verbose`: no value glued (`-o/x`, `--o=x` have)
            return "=" not in value and (value.startswith("--") or len(value) <= 2)
        # one name, no glob: a folder on a longer path may be a link (review S8)
        if any(c in value for c in "/~=,@:*?[") or value in ("", ".", ".."):
            return False
        if self.rules.may_be_protected("/" + value):
            return False
        self.fs = True
        return not any(_lexists(os.path.join(c, value)) for c in cwd.candidates)

    def approved_program(
        self,
        approved: str,
        words: Sequence[Word],
        seg: SegmentState,
        cwd: paths.Cwd,
        extra: tuple[str, ...] = (),
        *,
        text: str | None = None,
    ) -> None:
        """Judge the command an approved program runs (its words from a program name on,
        or `text`), with `extra` approved for it as well (the approval's words that name
        it)."""
        # the words as written: the shell reads them so, expansions and all
        if text is None:
            text = " ".join(w.text for w in words)
        self.budget[0] -= 1
        if self.depth >= _MAX_APPROVED_DEPTH or self.budget[0] < 0:
            seg.floor(
                Verdict.ASK,
                "engine.approved-runs-program",
                f"`{short(approved)}` is approved, but it runs `{short(text)}` through more "
                "approved programs than are followed in one line",
            )
            return
        approvals = _WithPrefix(self.approvals, extra) if extra else self.approvals
        inner = _Walk(self.rules, self.ctx, approvals, self.git, cwd)
        inner.depth = self.depth + 1
        inner.budget = self.budget  # shared: nested `$(…)` cannot multiply the work
        inner.recovery = self.recovery
        inner.glob_visits = self.glob_visits
        decision = inner.run(text)
        self.fs = self.fs or inner.fs
        if inner.link_makers:  # `strace ln -s … ; cat …`
            self.link_makers.append(seg)
        self.adopt_line_writes(inner, seg)
        if decision.verdict is Verdict.ALLOW:
            return
        why = decision.reasons[0].message if decision.reasons else str(decision.verdict)
        seg.floor(
            decision.verdict,
            "engine.approved-runs-program",
            f"`{short(approved)}` is approved, but it runs `{short(text)}`, which is "
            f"{decision.verdict}: {short(why, 120)}",
        )

    # -- redirects, assignments ------------------------------------------------------
    def redirects(
        self,
        redirects: Sequence[Redirect],
        seg: SegmentState,
        cwd: paths.Cwd,
        poison: Poison | None,
        words: Sequence[Word] = (),
    ) -> None:
        starts = {w.span.start for w in words} if redirects and words else set()
        for redirect in redirects:
            target = redirect.target
            if target is not None and target.span.end in starts:
                # bash reads `> '/'\e\t\c` as one word; a word that starts where the
                # target ends means the analyser split it: the target is not what it seems
                seg.floor(
                    Verdict.ASK,
                    "engine.split-word",
                    f"the redirect target `{short(target.text)}` runs into the next word",
                )
            heredoc = redirect.heredoc
            if heredoc is not None:
                for exp in heredoc.expansions:
                    self.expansion(exp, "heredoc-body", seg, cwd, poison)
                if not heredoc.quoted and ("$[" in heredoc.body or "$((" in heredoc.body):
                    # `$[PATH=11]` in a body assigns as it does on the line (review BY2)
                    for found in _BODY_ARITHMETIC.finditer(heredoc.body):
                        self.arithmetic_assignments(found.group(), "arithmetic", seg)
            target = redirect.target
            if target is None:
                continue
            self.expansions(target, "redirect-target", seg, cwd, poison)
            self.redirect_target(redirect, target, seg, cwd)

    def assignments(
        self, segment: Segment, seg: SegmentState, cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        for assignment in segment.assignments + segment.declared:
            values = (assignment.value,) if assignment.value is not None else ()
            for word in values + (assignment.array or ()):
                self.expansions(word, "assignment-value", seg, cwd, poison)
            for word in assignment.array or ():
                key = _element_key(word.text)
                if key is not None:  # `a=([PATH=11]=C)`: an indexed array's key is arithmetic
                    self.data_use(_names_in(key), key, "an array subscript", seg)
            if assignment.subscript is not None:
                self.expansions(assignment.subscript, "assignment-value", seg, cwd, poison)
                subscript = assignment.subscript.text
                self.data_use(_names_in(subscript), subscript, "an array subscript", seg)
            for reason in self.rules.env_verdicts(assignment.name, seg.text):
                seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)
            if assignment.name in LOCALE_NAMES:
                value = assignment.value.value if assignment.value is not None else None
                self.locale_assignment(assignment.name, value, seg)
            elif assignment.name == "LANGUAGE" or assignment.name.startswith("LC_"):
                value = assignment.value.value if assignment.value is not None else ""
                self.message_catalogs(assignment.name, value, seg)
            if assignment.name == "TZ" and assignment.value is not None:
                self.time_zone_file(assignment.value, seg, cwd)

    def locale_assignment(self, name: str, value: str | None, seg: SegmentState) -> None:
        """`LC_ALL=zh_CN.GBK`: bash reads the rest of the line, and a shell it runs reads
        its code, in a charset where a character may end in `\\` or a backquote, which
        the analyser does not follow (review CG1). Only C and UTF-8 locales are known."""
        if locale_charset_risk(value, strict=True):
            seg.floor(
                Verdict.ASK,
                "engine.locale-charset",
                f"sets `{name}` to {'a value not known' if value is None else f'`{value}`'}: "
                "in a charset other than UTF-8, bash may read the line's bytes as other "
                "characters than the analyser did",
            )

    def message_catalogs(self, name: str, value: str | None, seg: SegmentState) -> None:
        """`LANGUAGE=../../ws/x`: gettext joins each name of the list to the locale folder
        without refusing `..`, so every program that prints a translated message takes its
        formats from a catalog of the workspace, `%n` and `%N$s` included (review DE6: an
        allowed `ls` printed a token of the environment). A `/` in the value, or a value
        not known, asks; an `LC_*` category is a locale name, which glibc refuses with a
        `/` (one written so asks all the same; one not known does not)."""
        if (value is None and name == "LANGUAGE") or (value is not None and "/" in value):
            shown = "a value not known" if value is None else f"`{short(value)}`"
            seg.floor(
                Verdict.ASK,
                "engine.locale-files",
                f"sets `{name}` to {shown}: programs may read their messages from files "
                "that path names",
            )

    def time_zone_file(self, value: Word, seg: SegmentState, cwd: paths.Cwd) -> None:
        """`TZ=/path` and `TZ=:path` name a file every program that prints a time opens
        (review BK11: `TZ=/home/u/.ssh/id_rsa date` opened the key). Checked as a read."""
        zone = time_zone_word(value)
        if zone is not None:
            self.check_path_word(zone, "read", seg, cwd)

    def assigned_names(self, command: str, names: Sequence[str | None], seg: SegmentState) -> None:
        """`read PATH`, `printf -v HOME`, `for IFS in …`: the env rules that name a variable
        judge it as they judge `PATH=…` (the `env default` does not: `read line` is fine,
        unless `line` is in the environment given, where bash keeps it exported)."""
        for name in names:
            if name is None:
                seg.floor(
                    Verdict.ASK,
                    "engine.unknown-variable",
                    f"`{command}` sets a variable whose name is not a literal word",
                )
                continue
            base = base_name(name)
            if base != name and any(ch in name for ch in "$`"):
                seg.floor(
                    Verdict.ASK,
                    "engine.variable-subscript",
                    f"`{command}` evaluates the subscript of `{short(name)}`, "
                    "which can run a command",
                )
            if not base:
                continue
            if base in LOCALE_NAMES:  # `read LC_ALL`: a value not known
                self.locale_assignment(base, None, seg)
            elif base == "LANGUAGE" or base.startswith("LC_"):  # (review DG6)
                self.message_catalogs(base, None, seg)
            listed = not is_poison_name(base) and base not in self.ctx.env
            for reason in self.rules.env_verdicts(base, seg.text, listed=listed):
                seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)

    def exported(self, name: str | None, seg: SegmentState) -> None:
        """`export NAME`: the environment gets NAME's value, which this line may have set
        by `read` or a loop; judged like `export NAME=…` with a value not shown."""
        if name is None:
            message = "exports a variable whose name is not literal"
            seg.floor(Verdict.ASK, "engine.unknown-variable", message)
            return
        for reason in self.rules.env_verdicts(base_name(name), seg.text):
            seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)

    # -- values evaluated as arithmetic or as names ------------------------------------
    def data_names(self) -> frozenset[str]:
        """Variables of the line whose values are data (see `_data_names`), found once."""
        if self._data_names is None:
            if self.root is None:
                self._data_names, self._aliases = frozenset(), {}
            else:
                self._data_names, self._aliases = _data_names(self.root)
        return self._data_names

    def aliased(self, name: str) -> set[str]:
        """The variables whose values `name`'s value names, transitively (`for x in
        MY_API_KEY` makes `$((x))` evaluate MY_API_KEY: review BD4)."""
        self.data_names()
        found: set[str] = set()
        pending = [name]
        while pending:
            for target in self._aliases.get(pending.pop(), ()):
                if target not in found:
                    found.add(target)
                    pending.append(target)
        return found

    def data_use(self, names: set[str], shown: str, what: str, seg: SegmentState) -> None:
        """Bash evaluates a variable's value where `shown` uses it as `what`, recursively,
        and runs the `$(…)` of any array subscript in it (`x='a[$(id)]'; echo $((x))`).
        The output of a command substitution in `shown` is data too (review AI1:
        `$(( $(base64 -d <<< …) ))` ran the `a[$(…)]` it decoded)."""
        if "=" in shown or "++" in shown or "--" in shown:
            self.arithmetic_assignments(shown, what, seg)
        if _EVALUATED_OUTPUT.search(_NUMERIC_SUBSTITUTION.sub("", shown)):
            seg.floor(
                Verdict.ASK,
                "engine.data-evaluated",
                f"`{short(shown)}` evaluates the output of a command substitution as {what}: "
                "an array subscript in it (`a[$(…)]`) runs a command",
            )
        if not names:
            return
        data = self.data_names()  # (also fills `_aliases`)
        evaluates = f"`{short(shown)}` evaluates"
        for name in sorted(names) if what != "a variable name" else ():
            # `$((GITHUB_TOKEN))`, `${a[GITHUB_TOKEN]}`, `${s:GITHUB_TOKEN}`, `read 'a[X]'`:
            # arithmetic, and a value that is no number is printed in bash's error (review
            # AE1; an associative array's key is not evaluated, but which kind `a` is
            # cannot be told here)
            if _is_identifier(name):
                self.secret_name(name, evaluates, seg)
                if name not in self._aliases:
                    continue  # the usual case: a name no variable of the line stands for
                for target in sorted(self.aliased(name)):
                    if _is_identifier(target):
                        self.secret_name(target, f"{evaluates} (`{name}`)", seg)
        for name in sorted(names):
            if name in data or not _is_identifier(name):
                source = (
                    "is a positional parameter" if not _is_identifier(name) else "is set from data"
                )
                seg.floor(
                    Verdict.ASK,
                    "engine.data-evaluated",
                    f"`{name}` {source} in this line and `{short(shown)}` evaluates its value "
                    f"as {what}: an array subscript in it (`a[$(…)]`) runs a command",
                )
                return

    def arithmetic_assignments(self, shown: str, what: str, seg: SegmentState) -> None:
        r"""`(( PATH=11 ))`, `$[HOME=10]`, `${x[CDPATH=63]}`, `test -v 'x[PATH=1]'`: bash
        assigns in arithmetic, in this shell, so a later `ls` runs a shipped `11/ls` and
        `git status` reads a shipped `10/.gitconfig` (review BY2). A name that changes
        what later commands mean asks, as `PATH=11` does. The text is read as bash
        reads it after quote removal: `"PATH"=11`, `PA""TH=11`, `PATH\⏎=11` assign PATH
        too (review BZ3), so do `P\ATH=11` and `$'\x50ATH'=11` (review CA2), and a name
        spelt with an expansion (`PA${x}TH=11`, `$x=11`) may be any name."""
        plain = _arithmetic_plain(shown)
        if "$" in plain and _EXPANSION_NAMED_ASSIGNMENT.search(
            _ARITHMETIC_EXPANSION.sub("\0", plain)
        ):
            seg.floor(
                Verdict.ASK,
                "engine.arithmetic-assignment",
                f"`{short(shown)}` assigns a variable whose name is spelt with an expansion "
                f"when bash evaluates it as {what}",
            )
            return
        for match in _ARITHMETIC_ASSIGNMENT.finditer(plain):
            name = match.group(1) or match.group(2)
            if is_poison_name(name):
                seg.floor(
                    Verdict.ASK,
                    "engine.arithmetic-assignment",
                    f"`{short(shown)}` assigns `{name}` when bash evaluates it as {what}, "
                    "which changes what later commands mean",
                )
                return

    def evaluated_words(self, segment: Segment, seg: SegmentState) -> None:
        """`(( … ))`, `for (( … ))`, and `[[ … ]]` with `-eq` or `-v`: words bash evaluates."""
        words = segment.words
        if segment.kind is not SegmentKind.TEST or any(w.value in _ARITHMETIC_TESTS for w in words):
            text = " ".join(w.text for w in words)
            names = _names_in(text)
            if _joins_in_text(text):  # `(( q[a$""b] ))`, `[[ q[a${z}b] -eq 1 ]]` (BG4)
                self.joined_name(text, seg)
            for word in words:
                if word.value is not None and word.value != word.text:
                    # `GITHUB_TO$''KEN`, `a$""b`: quote removal joins the pieces (BF2)
                    names |= _names_in(word.value)
                elif word.value is None and _expansion_joins_name(word):
                    self.joined_name(word.text, seg)
            self.data_use(names, text, "arithmetic", seg)
            if segment.kind is not SegmentKind.TEST:
                return
            for word in words:
                self.shaped_word(word, seg)
        self.tested_names(words, seg)
        self.subscripted_names(words, seg)

    def joined_name(self, text: str, seg: SegmentState) -> None:
        """An expansion next to a name's letters (`GITHUB_TO${z}KEN`, `a${q:-}b`) where
        bash evaluates the result: the name is built at run time (review BF2)."""
        seg.floor(
            Verdict.ASK,
            "engine.data-evaluated",
            f"`{short(text)}` builds a name from an expansion next to its letters, and bash "
            "evaluates it: which variable (a secret, or data with `a[$(…)]`) is not known",
        )

    def tested_names(self, words: Sequence[Word], seg: SegmentState) -> None:
        """`-v $x`: the value of x is a variable name (its subscript is evaluated)."""
        for left, right in itertools.pairwise(words):
            if left.value == "-v" and right.value is None:
                self.expanded_name(right, seg)

    def expanded_name(self, word: Word, seg: SegmentState) -> None:
        """A name operand whose value is not known (`test -v "$x"`, `unset "$x"`): bash
        evaluates the subscript of the name it expands to, so a name the line's data gives
        (`read x`, `for f in *`) may run a command (`GROUPS[$(cmd)]`: reviews AE1, BU6)."""
        self.named_by_expansion(word, seg)
        if _expansion_joins_name(word) or _JOINED_NAME.search(_QUOTING_CHARS.sub("", word.text)):
            self.joined_name(word.text, seg)  # `-v q[a${z}b]` (review BH1)
        self.data_use(_names_in(word.text), word.text, "a variable name", seg)
        if "[" in word.text:  # `[[ -v a[X] ]]`: a subscript, not a glob (AE1)
            subscript = word.text[word.text.index("[") + 1 :]
            self.data_use(_names_in(subscript), word.text, "an array subscript", seg)
        self.shaped_word(word, seg)

    def shaped_word(self, word: Word, seg: SegmentState) -> None:
        """A word bash evaluates (a name, arithmetic) whose value ANSI-C quoting or
        escapes shape: `$'a\\x5b\\x24(cmd)]'${x}` is `a[$(cmd)]` to bash."""
        if word.value is None and (
            any(e.kind is ExpansionKind.ANSI_C for e in word.expansions) or "\\" in word.text
        ):
            seg.floor(
                Verdict.ASK,
                "engine.data-evaluated",
                f"`{short(word.text)}` is evaluated as a name or arithmetic, and its value "
                "is spelt with escapes the policy does not follow there",
            )

    def named_by_expansion(self, word: Word, seg: SegmentState) -> None:
        """A name operand that a glob or brace expansion builds: `test -v a?*` where the
        repository holds a folder named `a[$(cmd)]`, `unset a[{$,x}'(cmd)]'` (review BD2,
        BD3). Bash evaluates the subscript of the name it expands to."""
        if _may_build_a_subscript(word):
            seg.floor(
                Verdict.ASK,
                "engine.data-evaluated",
                f"`{short(word.text)}` expands to a variable name the policy cannot see "
                "(a file named `a[$(…)]`, braces around `$(`), and bash evaluates its "
                "subscript, which can run a command",
            )

    def subscripted_names(self, words: Sequence[Word], seg: SegmentState) -> None:
        """`test -v 'a[_]'`, `printf -v 'a[i]'`, `read 'a[i]'`: a literal name's subscript
        is arithmetic, so the variables it names are evaluated."""
        for word in words:
            value = word.value
            unquoted = _QUOTING_CHARS.sub("", word.text) if value is None else None
            if unquoted is not None and _SUBSCRIPTED.match(unquoted):
                # an unquoted `DIRSTACK[ab]` (or `"DIRSTACK"[ab]`: BI2) is a glob; matching
                # no file, bash passes it on as written and evaluates the subscript (BH1)
                value = unquoted
                if _expansion_joins_name(word) or _JOINED_NAME.search(value):
                    self.joined_name(word.text, seg)
            if value is not None and _SUBSCRIPTED.match(value):
                subscript = value[value.index("[") + 1 :]
                self.data_use(_names_in(subscript), value, "an array subscript", seg)

    def evaluating_builtin(self, segment: Segment, seg: SegmentState) -> None:
        """`let`, `test -v`/`[ -v`, `declare -i NAME=VALUE`: arguments bash evaluates."""
        words = segment.command_words
        command = words[0].value if words else None
        if command == "let":
            text = " ".join(w.text for w in words[1:])
            self.data_use(_names_in(text), text, "arithmetic", seg)
        elif command in ("test", "["):
            self.tested_names(words[1:], seg)
        if command in _NAMING_BUILTINS:
            self.subscripted_names(words[1:], seg)
        if command in ("unset", "read"):
            for word in _name_operands(words[1:]) if command == "read" else words[1:]:
                if word.value is None:
                    self.expanded_name(word, seg)
        elif command == "printf":
            for option, operand in itertools.pairwise(words[1:]):
                if option.value == "-v" and operand.value is None:
                    self.named_by_expansion(operand, seg)
        elif command in DECLARATION_BUILTINS and any(
            _may_set_integer(word) for word in words[1:]
        ):
            for assignment in segment.declared:
                if assignment.value is not None:
                    text = assignment.value.text
                    self.data_use(_names_in(text), text, "arithmetic", seg)

    # -- assembly ------------------------------------------------------------------------
    def path_programs(
        self, names: dict[str, bool], seg: SegmentState, cwd: paths.Cwd, login: str | None = None
    ) -> None:
        """A bare command name that PATH finds in the workspace: an empty or relative
        PATH entry (`PATH=$PATH:`), or one inside the workspace (`bin`, `node_modules/.bin`,
        an activated `.venv/bin`) runs the repository's `rg` where the policy judged the
        real one (reviews AL7, AM1).

        `names` maps each program the segment may run by PATH to whether a program execs
        it (a wrapper's command, a helper: then a builtin's name is a program too, `env
        echo`), rather than bash running it (see `_path_names`). `login`: a login shell of
        the chain (`bash -lc …`), whose start-up files run programs by PATH (`/etc/profile`
        runs `id`: review BE6), so any program in a workspace PATH entry may run."""
        if not cwd.known and any(
            not entry.startswith("/") for entry in self._path_list()
        ):
            # an empty or relative PATH entry names a folder below a working directory
            # that is not known here: any program may be found there (review BI3)
            self.fs = True
            seg.floor(
                Verdict.ASK,
                "engine.path-program",
                "PATH has an empty or relative entry, and the working directory it is "
                "relative to is not known: a program there may run",
            )
            return
        process_entry = self._process_entry()
        if process_entry is not None:
            # what policylang finds there is in its own working directory, not the
            # line's: any program may be found there (review DZ1)
            self.fs = True
            seg.floor(
                Verdict.ASK,
                "engine.path-program",
                f"the PATH entry `{short(process_entry)}` leads through /proc's folder of "
                "the process that looks in it, so it names a folder of the working directory "
                "the command runs in: a program there may run",
            )
            return
        if login is not None:
            # the start-up files a login shell sources, where one lies in or leads into
            # the workspace (home is the workspace, a dotfiles repository's `~/.profile`
            # linked into it): the repository's code runs before the command (EM3)
            started = [("the start-up file", f) for f in _LOGIN_FILES]
            if self._reads_workspace_file(f"{login} -l", started, seg):
                return
            entries = self._workspace_path_entries(cwd)
            if entries:
                self.fs = True
                if self._script_helpers(f"{login} -l", entries, seg, cwd):
                    return
        for name, execed in names.items():
            if "/" in name or (not execed and name in _SHELL_BUILTINS):
                continue
            if seg.verdict is Verdict.ALLOW and not seg.approved and (
                self._shimmed(name, seg, cwd)
                or (name == "git" and self._shimmed_git_helpers(seg, cwd))
            ):
                return
            if (seg.approved or seg.suggestion is not None) and self._approved_shim(
                name, seg, cwd
            ):
                return
            if name in _PATH_DOC_READERS:
                self._documentation_path(name, seg)
                if self._pipeline_helpers(name, seg, cwd):
                    return
            entries = self._workspace_path_entries(cwd)
            if entries:
                # looked in the workspace: a program made there later changes the answer,
                # so the decision is not kept even when nothing was found (review AX4)
                self.fs = True
            if name in _PATH_SCRIPTS and self._script_helpers(name, entries, seg, cwd):
                return
            if not entries:
                continue
            first = self._first_on_path(name, cwd)
            if first is not None and first[1]:
                seg.floor(
                    Verdict.ASK,
                    "engine.path-program",
                    f"`{name}` runs `{first[0]}`, a file of the workspace that PATH "
                    "finds before or instead of the program the policy judged",
                )
                return
            # `#!/usr/bin/env node` (npm, npx …) runs its interpreter by PATH (review BH4)
            interpreter = _env_interpreter(first[0]) if first is not None else None
            planted = self._workspace_program(interpreter, cwd) if interpreter else None
            if planted is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.path-program",
                    f"`{name}` is a script run by `env {interpreter}`, and PATH finds "
                    f"`{planted}`, a file of the workspace",
                )
                return
            if name == "git" and self._git_helpers(entries, seg, cwd):
                return

    def _shimmed(self, name: str, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """A version manager's shim (mise, asdf, pyenv, rbenv, nodenv, volta: `_SHIM_BIN`)
        runs the program a configuration file in the working folder or any parent names,
        and mise's and asdf's `path:` versions name any folder (`.tool-versions`: `node
        path:./.tools` runs `./.tools/bin/node`): what a rule allows of `node` or `python3`
        (`--version`) no longer holds when PATH finds that name, or the `#!/usr/bin/env`
        interpreter of the script it finds (npm's `node`), among the shims (review BV4).
        Approvals are judged by `_approved_shim`: only where a project file chooses what
        the shim runs in a way the engine cannot follow (review GG3). Whether it asked."""
        if name.rpartition("/")[2] in _COREPACK_NAMES and self._corepack_shim(name, seg, cwd):
            return True
        shim = self._manager_shim(name, cwd)
        if shim is None:
            return False
        program, via = shim
        seg.floor(
            Verdict.ASK,
            "engine.path-program",
            f"`{name}` runs `{short(program)}`{via}, a version manager's shim, which runs "
            "the program a configuration file in the working folder or a parent names "
            "(`.tool-versions`, `mise.toml`)",
        )
        return True

    def _manager_shim(self, name: str, cwd: paths.Cwd) -> tuple[str, str] | None:
        """The version manager's shim PATH finds for `name` (`_SHIM_BIN`), or for the
        `#!/usr/bin/env` interpreter of the script it finds, and how (`via`)."""
        if self._shims is None:  # once per line: PATH is fixed
            self._shims = any(
                _SHIM_BIN.search(_normal_entry(entry))
                for entry in self._path_list()
                if entry.startswith("/")
            )
        if not self._shims:
            return None
        self.fs = True
        first = self._first_on_path(name, cwd)
        if first is None:
            return None
        program, via = first[0], ""
        if not _SHIM_BIN.search(os.path.dirname(program)):
            interpreter = _env_interpreter(program)
            found = self._first_on_path(interpreter, cwd) if interpreter else None
            if found is None or not _SHIM_BIN.search(os.path.dirname(found[0])):
                return None
            program, via = found[0], f" through `#!/usr/bin/env {interpreter}`"
        return program, via

    def _corepack_target(self, name: str, cwd: paths.Cwd) -> str | None:
        """corepack's script that PATH finds for `name`, if it is one of its shims."""
        self.fs = True
        first = self._first_on_path(name, cwd) if "/" not in name else (name, False)
        if first is None:
            return None
        try:
            real = os.path.realpath(first[0])
        except (OSError, ValueError):
            return None
        return real if _COREPACK_SCRIPT.search(real) else None

    def _approved_shim(self, name: str, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """An approved (or suggested) command whose program PATH finds among corepack's or
        a version manager's shims, where a project file chooses what the shim runs
        (`package.json`'s `packageManager` a URL, `.corepack.env`, `.tool-versions`):
        the engine cannot tell what runs, so no approval covers it and none is offered
        (review GG3: an approved `yarn info` downloaded and ran the project's yarn).
        Whether it asked."""
        files: tuple[launchers.LaunchFile, ...] = launchers.COREPACK
        shim = None
        if name.rpartition("/")[2] in _COREPACK_NAMES:
            shim = self._corepack_target(name, cwd)
        if shim is None:
            files = launchers.VERSION_FILES
            found_shim = self._manager_shim(name, cwd)
            shim = None if found_shim is None else found_shim[0]
        if shim is None:
            return False
        found = self.launcher_finding(files, cwd)
        if found is None:
            return False
        seg.suggestion = None
        seg.floor(
            Verdict.ASK,
            "engine.path-program",
            f"`{name}` runs `{short(shim)}`, a shim that runs the program the project's "
            f"`{short(found.path)}` chooses (`{short(found.what)}`), which no approval covers",
        )
        return True

    def _corepack_shim(self, name: str, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """corepack's shims (`corepack enable` links `npm`, `yarn`, `pnpm` … to its
        `dist/` scripts, beside `node`) run the package manager and version a project's
        `package.json` (`packageManager`) and `.corepack.env` name, downloading it first,
        from a registry the project may choose (review DP1: `npm --version` ran a
        download of the project's choosing). Whether it asked."""
        real = self._corepack_target(name, cwd)
        if real is None:
            return False
        seg.floor(
            Verdict.ASK,
            "engine.path-program",
            f"`{name}` runs `{short(real)}`, corepack's shim, which runs (and may download) "
            "the package manager the project's `package.json` or `.corepack.env` names",
        )
        return True

    def _shimmed_git_helpers(self, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """git runs its `git-*` helpers by PATH (`git-lfs`, the filter a repository's
        `.gitattributes` asks for on `git status`): one PATH finds among a version
        manager's shims runs what the working folder's `.tool-versions` names (review
        DP3: `git-lfs path:./.tools`). Whether it asked."""
        if not self._shims:
            return False
        for entry in self._path_list():
            if not entry.startswith("/") or not _SHIM_BIN.search(_normal_entry(entry)):
                continue
            try:
                helpers = paths.names_starting(entry, "git-", _HELPER_SCAN)
            except OSError:
                continue
            for helper in helpers:
                first = self._first_on_path(helper, cwd)
                if first is not None and _SHIM_BIN.search(os.path.dirname(first[0])):
                    seg.floor(
                        Verdict.ASK,
                        "engine.path-program",
                        f"git runs `{helper}` by PATH, and PATH finds `{short(first[0])}`, a "
                        "version manager's shim, which runs the program a configuration file "
                        "in the working folder or a parent names (`.tool-versions`)",
                    )
                    return True
        return False

    def _workspace_program(self, name: str, cwd: paths.Cwd) -> str | None:
        """The workspace's program PATH finds for `name`, or None (a system one, none)."""
        first = self._first_on_path(name, cwd)
        return first[0] if first is not None and first[1] else None

    def _path_list(self) -> tuple[str, ...]:
        """PATH's entries as the lookups of a program by name read them: an entry that
        starts with `~` (`PATH="~/bin:$PATH"` in a profile) is bash's with its tilde
        expanded, and also stays as it is, relative, for `execvp` (`env`, `xargs`) and POSIX
        shells, which do not expand it (review GD5: a `~/ws/bin` entry ran the workspace's
        `ls`, and `~/.pyenv/shims` was no shim folder)."""
        env = self.ctx.env
        return _looked_up_entries(
            env.get("PATH", ""), env.get("HOME", self.ctx.home), env.get("OLDPWD", "")
        )

    def _first_on_path(self, name: str, cwd: paths.Cwd) -> tuple[str, bool] | None:
        """The program PATH finds for `name`, and whether it lies in the workspace (an
        entry inside it, or a relative one); None when PATH finds none. A workspace
        entry after a system one that holds the name does not run (review BH14).

        Looked up once per line for each name and set of working folders: several checks
        ask for the same program, and each lookup costs a `stat` of every PATH entry
        before the one that holds it (the line is judged as the file system is now)."""
        key = (name, cwd.candidates)
        if key in self._found_on_path:
            return self._found_on_path[key]
        found = self._look_up_on_path(name, cwd)
        self._found_on_path[key] = found
        return found

    def _look_up_on_path(self, name: str, cwd: paths.Cwd) -> tuple[str, bool] | None:
        """`_first_on_path` without its memo."""
        for entry in self._path_list():
            folders = (
                [os.path.join(c, entry) for c in sorted(cwd.candidates)]
                if not entry.startswith("/")
                else [entry]
            )
            for folder in folders:
                if entry.startswith("/") and not self._may_hold(entry, name):
                    continue
                candidate = os.path.join(folder, name)
                if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                    # where the entry leads is looked up only for the entry that holds
                    # the program (a lookup resolves every component of the entry)
                    workspace = not entry.startswith("/") or (
                        self._in_workspace(entry)
                        and not _INSTALLED_BIN.search(_normal_entry(entry))
                    )
                    return candidate, workspace
        return None

    def _script_helpers(
        self, name: str, entries: Sequence[str], seg: SegmentState, cwd: paths.Cwd
    ) -> bool:
        """A shell script (`zgrep`, `xzless` …) runs many programs by PATH (`grep`,
        `sed`, `expr`, `cat`, `rm` …): a program in a workspace PATH entry that PATH finds
        before the system's program of that name may be one of them (review BA2: `zgrep
        hi a.gz` ran the workspace's `grep`). A name no system folder holds is no such
        program (`gradlew`), nor is one a system folder earlier on PATH shadows (review
        BH14). Whether it asked."""
        for entry in entries:
            found: str | None = None
            try:
                with os.scandir(entry) as listing:
                    for count, item in enumerate(listing):
                        if count >= _SCRIPT_SCAN:
                            found = f"{entry}: more than {_SCRIPT_SCAN} entries"  # BI4
                            break
                        if (
                            item.is_file()
                            and os.access(item.path, os.X_OK)
                            and self._shadows_system(item.name, item.path, cwd)
                        ):
                            found = item.path
                            break
            except OSError:
                continue
            if found is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.path-program",
                    f"`{name}` is a script that runs programs by PATH, and PATH finds "
                    f"programs of the workspace first (`{short(found)}`)",
                )
                return True
        return False

    def _git_helpers(self, entries: Sequence[str], seg: SegmentState, cwd: paths.Cwd) -> bool:
        """git runs `git-*` programs by PATH: its filters (`git-lfs`, which a repository's
        `.gitattributes` asks for on `git status`: review BH5), credential helpers and
        remote helpers. Whether a workspace one that PATH finds first made it ask."""
        for entry in entries:
            names: list[str] = []
            try:
                with os.scandir(entry) as listing:
                    for count, item in enumerate(listing):
                        if count >= _HELPER_SCAN or len(names) >= _SCRIPT_SCAN:
                            # too many to look through: a helper may be past them (BI4)
                            seg.floor(
                                Verdict.ASK,
                                "engine.path-program",
                                f"git runs `git-*` helpers by PATH, and `{short(entry)}` holds "
                                "too many entries to look through",
                            )
                            return True
                        if item.name.startswith("git-"):
                            names.append(item.name)
            except OSError:
                continue
            for helper in names:
                planted = self._workspace_program(helper, cwd)
                if planted is not None:
                    seg.floor(
                        Verdict.ASK,
                        "engine.path-program",
                        f"git runs `{helper}` by PATH (filters, credential and remote "
                        f"helpers), and PATH finds `{planted}`, a file of the workspace",
                    )
                    return True
        return False

    def _shadows_system(self, name: str, path: str, cwd: paths.Cwd) -> bool:
        """Whether the workspace's program at `path` is what PATH finds for `name` while
        a system folder on PATH also holds a `name` (the one a script means to run)."""
        first = self._first_on_path(name, cwd)
        if first is None or not first[1] or os.path.realpath(first[0]) != os.path.realpath(path):
            return False
        for entry in self._path_list():
            if (
                entry.startswith("/")
                and not self._in_workspace(entry)
                and self._may_hold(entry, name)
            ):
                candidate = os.path.join(entry, name)
                if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                    return True
        return False

    def _documentation_path(self, name: str, seg: SegmentState) -> None:
        """man-db and GNU info look for pages next to every absolute PATH entry (`D/bin`
        → `D/man`, `D/share/man`, `D/share/info`), and a page may include any file
        (`.so ../.env`): a PATH entry inside the workspace, an activated `.venv/bin`
        included, makes them read the repository's pages (review AN2)."""
        for entry in self._path_list():
            if entry.startswith("/") and self._in_workspace(entry):
                seg.floor(
                    Verdict.ASK,
                    "engine.path-program",
                    f"`{name}` also reads the pages beside the PATH entry `{short(entry)}`, "
                    "which is in the workspace: a page there can include any file",
                )
                return

    def environment_code(self, names: dict[str, bool], seg: SegmentState, cwd: paths.Cwd) -> None:
        """Code the environment makes programs load from the workspace (review DD2, DD4):
        an entry of `LD_LIBRARY_PATH` that is empty or relative (the working folder: what
        `export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64` makes of an unset
        variable) or in the workspace, and holds a shared library, is loaded by every
        program the line runs, bash first; `LD_PRELOAD` or `LD_AUDIT` naming a file there
        too; such an entry of `PYTHONPATH` (`PERL5LIB`, `PERLLIB`) holding any module, which
        a Python (Perl) program may import first (`pip --version` imported the repository's
        `pip/`, `tomlq` its `yaml/`: review DG5), and a `PYTHONHOME` or `PYTHONUSERBASE`
        there. The same for node (`NODE_PATH`, and the modules `NODE_OPTIONS` preloads),
        ruby (`RUBYLIB`, `RUBYOPT`'s `-I` and `-r`, gem folders) and the JVM (an agent,
        class path or option file its option variables name). A `~` is no home to the
        loader, Python, node, ruby or the JVM: such an entry is relative."""
        for variable, entries in self._loaded_paths.items() if self._loaded_paths else ():
            language = _LOADED_PATHS[variable]
            if language == "native-file":
                seg.floor(
                    Verdict.ASK,
                    "engine.environment-code",
                    f"{variable} names `{short(entries[0])}`, a file of the workspace, "
                    "which every program the line runs loads",
                )
                return
            wanted = _NAMED_FILES.get(language, language.partition("-")[0])
            programs = (
                [""]
                if language == "native"
                else [
                    n for n in names if self._script_language(n, cwd) in (wanted, UNKNOWN_PROGRAM)
                ]
            )
            found = self._loaded_module(variable, entries, cwd) if programs else None
            if found is not None:
                runs = "every program the line runs" if not programs[0] else f"`{programs[0]}`"
                seg.floor(
                    Verdict.ASK,
                    "engine.environment-code",
                    f"{variable} leads {runs} to load `{short(found)}`, from the workspace",
                )
                return

    def _risky_loaded_paths(self) -> dict[str, list[str]]:
        """The entries of the environment's load-path variables (`_LOADED_PATHS`) that
        are empty or relative (below the working folder) or lead into the workspace."""
        risky: dict[str, list[str]] = {}
        if self.ctx.env.keys().isdisjoint(_LOADED_PATHS):
            return risky  # (the usual environment sets none: no need to look at each)
        for variable, language in _LOADED_PATHS.items():
            text = self.ctx.env.get(variable)
            if text is None or (language == "native-file" and not text.strip()):
                continue
            if variable == "PERL5OPT":  # (its `-I` folders: review DH6)
                split = _perl_include_dirs(text)
                if _perl_debugger(text):
                    # `-d` runs the debugger, which reads `.perldb` from the working
                    # folder (review DJ3): an entry every Perl program asks for
                    risky[variable] = [_PERL_DEBUGGER]
                    continue
            elif language == "native-file":  # (LD_PRELOAD takes blanks or colons between)
                split = [e for e in text.replace(" ", ":").split(":") if e]
            elif language in _OPTION_FILES:
                split = _OPTION_FILES[language](text)
            elif language in ("perl", "node", "ruby", "ruby-gems"):
                # (they skip an empty entry; an empty gem folder is the root's)
                split = [e for e in text.split(":") if e]
            else:
                split = text.split(":")
            if language == "native":
                # glibc also splits the loader's path on `;` (review DG7)
                split = [piece for entry in split for piece in entry.split(";")]
            if any("\0" in entry for entry in split):
                continue  # (no such path can be set in a process's environment)
            entries = [e for e in split if not e.startswith("/") or self._reaches_workspace(e)]
            if entries:
                risky[variable] = entries
        return risky

    def _script_language(self, name: str, cwd: paths.Cwd) -> str | None:
        """The language of the script `name` runs as (`pip` → python, `shasum` → perl),
        by the interpreter of its `#!` line; None for a binary or what PATH does not find."""
        base = name.rpartition("/")[2]
        if is_python(base):
            return "python"  # (the interpreter itself: `python3 -m json.tool`)
        named = _INTERPRETER_NAME.fullmatch(base)
        if named:
            return named.lastgroup
        if base in _JVM_PROGRAMS:
            return "java"  # (a JVM's launchers, and the scripts known to start one)
        if "/" in name:
            path = name if name.startswith("/") else os.path.join(min(cwd.candidates), name)
        else:
            first = self._first_on_path(name, cwd) if "PATH" in self.ctx.env else None
            path = first[0] if first is not None else ""
        interpreter = _script_interpreter(path, _Follower(self, cwd)) if path else None
        if interpreter is None or interpreter == UNKNOWN_PROGRAM:
            return interpreter
        if _PYTHON_NAME.match(interpreter):
            return "python"
        if interpreter.startswith("perl"):
            return "perl"
        if interpreter in _JVM_PROGRAMS:
            return "java"  # (a shell wrapper that execs `java`)
        named = _INTERPRETER_NAME.fullmatch(interpreter)
        return named.lastgroup if named else None

    def _loaded_module(self, variable: str, entries: list[str], cwd: paths.Cwd) -> str | None:
        """What an entry of `variable` that is empty, relative or in the workspace holds
        that a program may load, or the entry itself where the working folder it is
        relative to is not known."""
        for entry in entries:
            if entry == _PERL_DEBUGGER:
                return entry
            if not entry.startswith("/") and not cwd.known:
                return entry or "."
            if _LOADED_PATHS[variable] == "node-options" and _bare_module(entry):
                found = self._node_package(cwd)
                if found is not None:
                    return found
                continue
            if _LOADED_PATHS[variable] in _NAMED_FILES:
                return entry  # (relative, or in the workspace: `_risky_loaded_paths`)
            folders = (
                [entry]
                if entry.startswith("/")
                else [os.path.join(c, entry) for c in sorted(cwd.candidates)]
            )
            for folder in folders:
                key = (folder, _LOADED_PATHS[variable])
                if key not in self._loaded_found:
                    self.fs = True
                    language = _LOADED_PATHS[variable]
                    self._loaded_found[key] = (
                        (folder if _lexists(folder) else None)
                        if language == "python-home"
                        else _gem_code(folder)
                        if language == "ruby-gems"
                        else _loaded_from(folder, language)
                    )
                if self._loaded_found[key] is not None:
                    return self._loaded_found[key]
        return None

    def _node_package(self, cwd: paths.Cwd) -> str | None:
        """Where a bare specifier that `NODE_OPTIONS` preloads (`--require dotenv/config`,
        `--import #pre`) may resolve to the workspace's code: node looks in `node_modules`
        of the working folder and of each folder above it (a package folder or a plain
        `pre.js`), and in the nearest `package.json` (the package's own name with
        `exports`, its `imports` map: review DQ1). A `package.json` or `node_modules` of the
        workspace on that way counts, without reading it."""
        self.fs = True
        for start in sorted(cwd.candidates):
            for folder in paths.ancestors(start):
                for name in ("node_modules", "package.json"):
                    candidate = os.path.join(folder, name)
                    if _lexists(candidate) and self._reaches_workspace(candidate):
                        return candidate
        return None

    def _pipeline_helpers(self, name: str, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """man-db formats a page through a pipeline of programs it runs by PATH (`col`,
        `iconv`, `gzip`, `preconv`, `tbl`, `nroff`, `groff`), as info does `gzip`: a
        workspace PATH entry that holds one of them, an empty or relative entry
        included, runs it (review DD3: `man ls` with `PATH=:/usr/bin` ran the workspace's
        `col`, which printed a key past man's sandbox). Whether it asked."""
        entries = self._workspace_path_entries(cwd)
        if not entries:
            return False
        self.fs = True
        return self._script_helpers(name, entries, seg, cwd)

    def _less_preprocessor(self, name: str, seg: SegmentState, cwd: paths.Cwd) -> bool:
        """less runs the input preprocessor of `LESSOPEN` (and `LESSCLOSE`) through the
        shell, output to a pipe included: Debian's and Fedora's set it to lesspipe, a
        script that runs `file`, `tr`, `tar` … by PATH (review DD1); and it reads a
        lesskey file, whose `#env` section may set them, from `LESSKEYIN`, `LESSKEY` or
        `$XDG_CONFIG_HOME/lesskey` (DD5). Such a program, or a lesskey file, in the
        workspace, or a workspace PATH entry holding a program such a script runs, asks.
        Whether it asked."""
        env = self.ctx.env
        keys = [env.get(v) for v in ("LESSKEYIN", "LESSKEY", "LESSKEYIN_SYSTEM")]
        config = env.get("XDG_CONFIG_HOME")
        # less 6xx also reads the binary file `less` there, and `~/.config/less` (EK2)
        keys += [os.path.join(config, "lesskey"), os.path.join(config, "less")] if config else []
        # and where no variable says otherwise, home's, which a link may lead into the
        # workspace (review DG4: a dotfiles repository's `~/.lesskey`)
        keys += ["~/.lesskey", "~/.config/lesskey", "~/.less", "~/.config/less"]
        if self._reads_workspace_file(name, [("the lesskey file", k) for k in keys], seg):
            return True
        commands = [env.get("LESSOPEN", "").strip(), env.get("LESSCLOSE", "").strip()]
        commands = [c for c in commands if c]
        if not commands:
            return False
        self.fs = True
        for command in commands:
            program = _preprocessor_program(command)
            if program is None:
                reason = "that cannot be read here"
            elif "/" in program and self._reaches_workspace(program):
                reason = "in the workspace"
            elif "/" not in program and self._workspace_program(program, cwd) is not None:
                reason = "which PATH finds in the workspace"
            else:
                continue
            seg.floor(
                Verdict.ASK,
                "engine.path-program",
                f"`{name}` runs the preprocessor of LESSOPEN (`{short(command)}`), {reason}",
            )
            return True
        entries = self._workspace_path_entries(cwd)
        return bool(entries) and self._script_helpers(f"{name} (LESSOPEN)", entries, seg, cwd)

    def _configured_elsewhere(self, name: str, seg: SegmentState) -> bool:
        """A program whose configuration file the environment names (`RIPGREP_CONFIG_PATH`
        for rg, whose file may say `--pre=./x`, a program it runs on every file: review
        DG3), where that file is in the workspace. Whether it asked."""
        files = [
            (f"its options from {variable}", self.ctx.env.get(variable))
            for variable in _CONFIG_VARIABLES.get(name.rpartition("/")[2], ())
        ]
        return self._reads_workspace_file(name, files, seg)

    def _reads_workspace_file(
        self, name: str, files: Sequence[tuple[str, str | None]], seg: SegmentState
    ) -> bool:
        """Ask where one of the files `name` reads its settings from (a lesskey file, an
        rg configuration) lies in the workspace: such a file may name a program for it to
        run. Whether it asked."""
        for what, path in files:
            if path and self._reaches_workspace(path):
                seg.floor(
                    Verdict.ASK,
                    "engine.path-program",
                    f"`{name}` reads {what} (`{short(path)}`), a file of the workspace, "
                    "which may name a program for it to run",
                )
                return True
        return False

    def _reaches_workspace(self, path: str) -> bool:
        """Whether a file the environment names lies in the workspace: relative (to a
        working folder the line may move), or absolute and there, as written or with its
        links resolved. The answer depends on the links on disk: a decision that asked
        it is not kept (a link made later may lead the file into the workspace)."""
        if not path.startswith(("/", "~")):
            return True
        self.fs = True
        if path.startswith("~"):
            path = paths.lexical(path, "/", self.ctx.home) or path
        return self._in_workspace(path)

    def _in_workspace(self, entry: str) -> bool:
        """Whether an absolute PATH entry leads into the workspace, spelled with `..`
        or through a symbolic link included (review AP3), or through /proc's directory of
        the process that looks it up (`/proc/self/cwd/bin`, a link to it: review DZ1),
        which names a folder of the line's working directory, not of policylang's.

        Looked up once per line per entry: PATH is fixed for the line, and each lookup
        resolves every component. Not kept between lines: where an entry leads changes
        when any folder on its way moves or a link on its way is re-pointed, which no
        stamp of the folder it leads to shows (review DZ4)."""
        known = self._entry_places.get(entry)
        if known is None:
            workspace, real_workspace = self.ctx.workspace, self.ctx.real_workspace
            real_workspace = real_workspace or workspace
            # where it leads is the file system's answer now: a decision that asked is
            # not kept for the next line of the same text (the DZ4 case, decision cache)
            self.fs = True
            lexical = _normal_entry(entry)
            # (resolved even where it is written inside: an installed folder that links
            # to /proc's is no installed folder, `node_modules/.bin -> /proc/self/cwd/x`)
            resolved, through_process = _physical_entry(entry, lexical)
            if through_process:
                self._process_entries.add(entry)
            known = through_process or any(
                paths.is_within(form, place)
                for form in (lexical, resolved)
                for place in (workspace, real_workspace)
            )
            self._entry_places[entry] = known
        return known

    def _process_entry(self) -> str | None:
        """An absolute PATH entry that leads through /proc's directory of the process
        looking it up (see `_in_workspace`), or None."""
        for entry in self._path_list():
            if entry.startswith("/"):
                self._in_workspace(entry)
                if entry in self._process_entries:
                    return entry
        return None

    def _entry_stamp(self, entry: str) -> paths.Stamp | None:
        """The stamp of the folder an absolute PATH entry leads to, taken once per line:
        it tells whether what was kept of the entry (its listing, where it leads) is
        still true, in one `stat` for all the line's lookups; none for an entry only
        root can change (`paths.fixed_stamp`)."""
        if entry in self._entry_stamps:
            return self._entry_stamps[entry]
        # (an entry with `..` is not the folder its normal form names: `lnk/../bin` is the
        # parent of where `lnk` leads; only `_physical_entry` may note it fixed: EA5)
        fixed, found = (False, None) if "/.." in entry else paths.fixed_stamp(_normal_entry(entry))
        if not fixed:
            found = paths.folder_stamp(entry)
        self._entry_stamps[entry] = found
        return found

    def _may_hold(self, entry: str, name: str) -> bool:
        """Whether the folder of the absolute PATH entry `entry` may hold `name`: False
        only where its listing, kept by the folder's stamp, has no such name (and where
        it is no folder at all)."""
        stamp = self._entry_stamp(entry)
        if stamp is None:
            return False
        names = paths.folder_names(entry, stamp)
        return names is None or paths.folded_name(name) in names

    def _workspace_path_entries(self, cwd: paths.Cwd) -> list[str]:
        """The PATH entries that lead into the workspace, as directories to look in."""
        if self._path_entries is None:  # once per line: PATH and the workspace are fixed
            entries = self._path_list()
            self._path_entries = [
                e
                for e in entries
                if not e.startswith("/")
                or (self._in_workspace(e) and not _INSTALLED_BIN.search(_normal_entry(e)))
            ]
        found: list[str] = []
        for entry in self._path_entries:
            if not entry.startswith("/"):  # empty or relative: where the command runs
                found.extend(os.path.join(c, entry) for c in sorted(cwd.candidates))
            else:
                found.append(entry)
        return found

    def floor_moved_approvals(self) -> None:
        """An approved segment in a folder the line moved to asks when any other segment
        of the line changes files, before or after it in the text: a background job or a
        loop may run it after them (`(sleep 2; cd r && make test) & git clone URL r`,
        review AJ6)."""
        for seg, approved in self.moved_approvals:
            if any(not other.read_only for other in self.segments if other is not seg):
                seg.floor(
                    Verdict.ASK,
                    "engine.approved-elsewhere",
                    f"`{approved}` is approved, but this runs in a folder the line moved to, "
                    "and the line also changes files (which may make what runs there)",
                )

    def check_path(
        self,
        value: str,
        access: str,
        seg: SegmentState,
        cwd: paths.Cwd,
        *,
        subtree: bool = False,
        removal: bool | None = None,
    ) -> None:
        if access != "read":  # kept for `floor_module_shadows`
            self.line_writes.append((seg, value, cwd, subtree))
        super().check_path(value, access, seg, cwd, subtree=subtree, removal=removal)

    def python_module_path(self, found: SegmentRules, seg: SegmentState, cwd: paths.Cwd) -> None:
        """`python -m X` puts its working folder first on `sys.path`: a `json/__init__.py`
        or an `argparse.py` there is imported instead of the module an approval of
        `python3 -m json.tool` meant, or one it imports (review BV7). An allowed (approved)
        `python -m X` asks when its working folder holds a module or package named like
        X's top-level package or like a standard-library module, unless `-P`, `-I` or
        PYTHONSAFEPATH keeps the folder off the path; what the line itself writes there is
        looked at in `floor_module_shadows`. (A third-party module X imports is not known
        here: `click.py` beside an approved `python -m black`.)"""
        module = _python_module([w.value for w in found.inner], self.ctx.env)
        if module is None:
            return
        top = module.partition(".")[0]
        if not cwd.known:
            seg.floor(
                Verdict.ASK,
                "engine.python-module-path",
                f"`python -m {short(module)}` imports from its working folder first, "
                "which is not known here",
            )
            return
        self.fs = True
        for folder in sorted(cwd.candidates):
            shadow = _module_shadow(folder, top)
            if shadow is not None:
                seg.floor(
                    Verdict.ASK,
                    "engine.python-module-path",
                    f"`python -m {short(module)}` imports from its working folder first, "
                    f"and `{short(shadow)}` there is imported instead of the module of that "
                    "name (`-P` keeps the folder off the path)",
                )
                return
        self.module_runs.append((seg, cwd, top))

    def floor_module_shadows(self) -> None:
        """An allowed `python -m X` asks when another segment of the line writes in its
        working folder a file or folder named like a module it may import (`mkdir json &&
        … | tee json/__init__.py && python3 -m json.tool`): `python_module_path` looked at
        the folder as it was before the line ran."""
        for seg, cwd, top in self.module_runs:
            for other, value, where, subtree in self.line_writes:
                if other is seg:
                    continue
                hit = _shadow_write(value, where, cwd, top, subtree=subtree)
                if hit is not None:
                    seg.floor(
                        Verdict.ASK,
                        "engine.python-module-path",
                        f"`{short(other.text)}` writes `{short(hit)}` in the working folder "
                        "of a `python -m` command, which imports from there first",
                    )
                    break

    def floor_after_links(self) -> None:
        """Every other segment of a line that makes a link asks.

        Paths are resolved through the links that exist when the line is judged; one the
        line itself makes (`ln -s ../.. t; cat t/../home/u/.aws/credentials`) is not seen
        (review X1). Loops, background jobs and pipelines run segments in another order
        than they are written (review Y1), so no segment counts as "before" the link.
        """
        if not self.link_makers:
            return
        maker = short(self.link_makers[0].text)
        for seg in self.segments:
            if not any(seg is made for made in self.link_makers):
                seg.floor(
                    Verdict.ASK,
                    "engine.link-in-line",
                    f"`{maker}` makes a link in this line, so the paths of the other "
                    "commands may lead anywhere",
                )

    def assemble(self, command: str) -> Decision:
        self.floor_after_links()
        self.floor_module_shadows()
        self.floor_line_writes(self.segments)
        self.floor_moved_approvals()
        verdict = Verdict.ALLOW
        read_only = True
        locked = False
        decisions: list[SegmentDecision] = []
        reasons: list[Reason] = []
        for s in self.segments:
            decisions.append(
                _objects.segment_decision(
                    s.text, s.verdict, s.read_only, tuple(s.reasons), s.context
                )
            )
            verdict = verdict.at_least(s.verdict)
            read_only = read_only and s.read_only
            locked = locked or s.locked
            reasons.extend(s.reasons)
        for reason in self.line_reasons:
            verdict = verdict.at_least(reason.verdict)
        reasons.extend(self.line_reasons)
        if len(reasons) > 1:
            # the same reason on the same text (`:` twice in one loop) is listed once
            reasons = list(dict.fromkeys(reasons))
        retention: Retention | None
        if not self.complete:
            retention = None
        else:
            retention = Retention.REQUERY if read_only else Retention.DURABLE
        return _objects.decision(
            command,
            verdict,
            retention,
            tuple(reasons),
            tuple(decisions),
            self.suggestion(verdict),
            locked,
        )

    def suggestion(self, verdict: Verdict) -> str | None:
        """The prefix that, approved, would let this line through (None if none would)."""
        if verdict is not Verdict.ASK or self.line_reasons:
            return None
        prefixes: list[tuple[str, ...]] = []
        for s in self.segments:
            if s.verdict is Verdict.ALLOW:
                continue
            if s.floored or s.locked or s.suggestion is None:
                return None
            if s.suggestion not in prefixes:
                prefixes.append(s.suggestion)
        if len(prefixes) != 1:
            return None
        return format_rule(prefixes[0])


def _makes_link(found: SegmentRules) -> bool:
    """Whether a command makes a symbolic or hard link (`ln`, `cp -s`, `cp -l`, `link`)."""
    if not found.inner or found.inner[0].value is None:
        return False
    name = found.program
    if name in ("ln", "link", "symlink"):
        return True
    return name == "cp" and found.view.has("-s", "--symbolic-link", "-l", "--link")


def _inside_roots(folder: str, roots: tuple[str, str]) -> bool:
    """Whether `folder` lies in one of the workspace's spellings `roots`, as written or
    where its links lead (a cwd given through a link to the workspace: review EO3)."""
    if any(paths.is_within(folder, root) for root in roots):
        return True
    real = paths.real(folder)
    return real != folder and any(paths.is_within(real, root) for root in roots)


def _start_candidates(ctx: EvalContext) -> frozenset[str]:
    """Where the line starts: the cwd as given and, where links lead elsewhere, where they
    lead (a read of the working folder reads the folder the links reach: review CG5); and
    the environment's `PWD` where it names the same folder by another path, since bash
    keeps it as the logical working folder its `cd ..` starts from (review EO2: with the
    cwd given as the real path of `~/src/repo`, `cd ../.. && cat .aws/credentials` read
    home's)."""
    found = {ctx.cwd, ctx.real_cwd} if ctx.real_cwd else {ctx.cwd}
    logical = _inherited_pwd(ctx, found)
    if logical is not None:
        found.add(logical)
    return frozenset(found)


def _inherited_pwd(ctx: EvalContext, known: set[str]) -> str | None:
    """`PWD` of the environment, normalised, where bash would take it as the logical
    working folder: absolute, and the same folder as the cwd (None otherwise)."""
    raw = ctx.env.get("PWD")
    if not raw or not raw.startswith("/") or "\0" in raw:
        return None
    # bash looks at the value as given (the kernel resolves its `..` after links), then
    # tidies it as text (review EP6: `WS/deep/../..` with `deep` a link)
    pwd = os.path.normpath(raw)
    if pwd in known:
        return None
    try:
        here, there = os.stat(ctx.cwd), os.stat(raw)
    except (OSError, ValueError):
        return None
    same = (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
    return pwd if same else None


# the renamers `prefixes.made_names` knows (not split and csplit, which make new files)
_RENAMERS: Final = PREFIX_PROGRAMS - {"split", "gsplit", "csplit", "gcsplit"}


# rsync's options whose value is one pattern of its filter, never a file (unlike
# `--filter`/`-f`, whose `merge`/`.` rule reads one: real rsync 3.5 takes `--exclude='.
# rules'` as a pattern)
_RSYNC_PATTERN_OPTIONS: Final = frozenset({"--exclude", "--include"})


def _rsync_patterns(found: SegmentRules) -> frozenset[int]:
    """The ids of the words that only give rsync's `--exclude`/`--include` a pattern,
    which an approval's checks need not read as paths (review HI4: `rsync -a --exclude
    .git pl/ out/` was denied for writing `.git`, which it leaves alone)."""
    inner = found.inner
    words: set[int] = set()
    for option in _rsync_options_named(found, _RSYNC_PATTERN_OPTIONS):
        words.add(id(inner[option.word_index]))
        words.update(id(inner[index]) for index in option.arg_indexes)
    return frozenset(words)


def _rsync_options_named(found: SegmentRules, names: Container[str]) -> Iterator[Option]:
    """The options of an rsync segment whose name is one of `names`, written in full: an
    abbreviation keeps the stricter reading (and asks: `_rsync_odd_option`)."""
    inner = found.inner
    if not inner or inner[0].value is None or found.program != "rsync":
        return
    for option in found.view.options:
        if option.name in names and (inner[option.word_index].value or "").startswith(
            option.name
        ):
            yield option


def _rsync_receiver_words(found: SegmentRules) -> frozenset[int]:
    """The ids of the words that give rsync's receiver a relative folder (`--backup-dir`,
    `--partial-dir`, `--temp-dir`, `--compare-dest`, `--copy-dest`) that the path-role
    table reads from a local destination, as rsync does (`rules._rsync_folders`): an
    approval's checks need not read it from the working folder too (`rsync -a -b
    --backup-dir=../old src/ dst/` writes `old`, not `../old`). An absolute or `~` value,
    a remote or unknown destination and an abbreviated option keep those checks."""
    inner = found.inner
    if not inner or inner[0].value is None or found.program != "rsync":
        return frozenset()
    destination = rsync_destination(inner, found.view)
    if destination is None or destination.value is None or rsync_remote(destination.value):
        return frozenset()
    words: set[int] = set()
    for option in _rsync_options_named(found, RSYNC_FOLDERS):
        if option.arg_indexes:
            holder = inner[option.arg_indexes[0]]
            value = holder.value
        else:
            holder, value = inner[option.word_index], option.value
        if value is None or not value or value.startswith(("/", "~")):
            continue
        words.add(id(holder))
    return frozenset(words)


def _tree_writer(found: SegmentRules) -> str | None:
    """What runs, where a command writes files of the tree that no word of the line names,
    links among them (review BV5): a git verb that rewrites the work tree (any but
    `_GIT_TREE_KEEPERS`: a branch may commit `hl -> /home/u`), another version control
    tool's (`_TREE_SWITCHERS`), an archive extractor, `patch`, `rsync` copying links, and
    the movers: `mv`, `cp -r` (review BW2) and the renamers (`rename.ul`: review BX2)."""
    if not found.inner or found.inner[0].value is None:
        return None
    name = found.program or ""
    if found.git_dirs is None and name not in _TREE_WRITER_NAMES:
        return None  # (most segments: by name first, before any word is looked at)
    values = [w.value for w in found.inner]
    shown = " ".join(w.text for w in found.inner[:2])
    if found.git_dirs is not None:
        verb = values[1] if len(values) > 1 else None
        return None if verb in _GIT_TREE_KEEPERS else shown
    if name in ("gh", "hub", "glab"):
        return shown if any(v in _FORGE_SWITCHES for v in values[1:]) else None
    if name in _TREE_SWITCHERS or name == "patch":
        return shown
    options = [v for v in values[1:] if v is not None and v.startswith("-")]
    if name in _RENAMERS:
        # `rename.ul fix y fix` moves a folder as `mv` does (review BX2)
        return shown
    if name == "mv":
        # a folder moved in the line keeps its links under the new name, which later
        # segments resolved before it existed (review BW2: `mv fix y && cat y/hl/…`)
        return shown
    if name == "cp" and any(
        v in ("--recursive", "--archive", "--target-directory")
        or v.startswith("--target-directory=")
        or (not v.startswith("--") and set(v[1:]) & set("rRat"))
        for v in options
    ):
        # `cp -r fix -t docs`, `cp -r fix docs` (an existing folder): the copy lands
        # below a name no word spells, its links with it (review BW2)
        return shown
    if name in ("tar", "gtar", "bsdtar"):
        first = values[1] if len(values) > 1 else None
        old_style = first is not None and not first.startswith("-") and "x" in first
        extracts = old_style or any(
            v in ("--extract", "--get") or (not v.startswith("--") and "x" in v[1:])
            for v in options
        )
        return shown if extracts else None
    if name == "unzip":
        # `-l`, `-t`, `-v`, `-Z` list and `-p`, `-c` print: only these write nothing, read
        # as unzip reads them (`-l-l` extracts, `-Pt` is a password: review EY3)
        letters = unzip_options(values[1:])
        return None if isinstance(letters, str) and set(letters) & set("ltvZpc") else shown
    if name == "bsdunzip":
        lists = any(not v.startswith("--") and set(v[1:]) & set("ltvZpc") for v in options)
        return None if lists else shown
    if name == "cpio":
        extracts = any(
            v == "--extract" or (not v.startswith("--") and "i" in v[1:]) for v in options
        )
        return shown if extracts else None
    if name in ("7z", "7za", "7zr", "7zz"):
        return shown if len(values) > 1 and values[1] in ("x", "e") else None
    if name == "rsync":
        copies_links = any(
            v in ("--archive", "--links") or (not v.startswith("--") and set(v[1:]) & set("al"))
            for v in options
        )
        return shown if copies_links else None
    return None


def _makes_git_directory(found: SegmentRules) -> bool:
    """`git init` makes a git directory whose configuration may come from a template
    (`--template`, `init.templateDir`): `git init --bare evil`, then `git -C evil status`
    (review BV1). (Its verb leaves the work tree alone otherwise.)"""
    return found.git_dirs is not None and len(found.inner) > 1 and found.inner[1].value == "init"


# the task runners whose option moves them to another folder, which their approved tasks
# then read as they read the project (`_Walk.run_folders`, review HV7: `gulp --cwd ~`
# under `gulp` reads the home whole). Not a program that reads one project file there
# (`uv sync --directory /tmp` reads /tmp's pyproject.toml: its clause asks).
# (`grunt --tasks DIR` loads each task file in DIR: kept as before CA's ask rule.)
_WHOLE_FOLDER_OPTIONS: Final = {
    "gulp": frozenset({"--cwd"}),
    "grunt": frozenset({"--base", "-b", "--tasks"}),  # (`-b`: review IA1, real grunt)
    "snakemake": frozenset({"--directory", "-d"}),
    "makers": frozenset({"--cwd"}),
    "cargo make": frozenset({"--cwd"}),
    "cargo-make make": frozenset({"--cwd"}),
    # (`jake -C DIR`, `doit -d DIR` run the tasks there: their `*-other-file` clauses ask
    # first, review HZ3; the folder is still read, as for gulp)
    "jake": frozenset({"-C", "--directory"}),
    "doit": frozenset({"-d", "--dir"}),
}
_WHOLE_FOLDER_VERBS: Final = {"cargo": "make", "cargo-make": "make"}


def _folder_option_values(text: str, options: frozenset[str]) -> tuple[list[str], bool]:
    """The values a task runner's option word `text` glues to one of the folder options
    `options`, and whether it takes the next word as one, read every way its parser may
    (review IC4: the exact names only had let `grunt build -vb ~`, `grunt build -base
    ../..`, `doit run --di ~`, `doit run -vd ~`, `snakemake -nd ~` ask, not deny): any
    number of dashes before a long name (nopt, jake), a long name's unique prefix (nopt,
    argparse, getopt), `=VALUE` glued, a short name after one to three dashes (jake's
    `--C`), and a bundle of short letters whose option letter takes the rest of the word
    or the next one (`-vb ~`). Reading more than a parser does only checks more folders."""
    name, eq, rest = text.partition("=")
    body = name.lstrip("-")
    glued: list[str] = []
    taking = False
    for option in options:
        bare = option.lstrip("-")
        if not body:
            break
        hit = body == bare if len(bare) == 1 else bare.startswith(body)
        if hit:
            if eq:
                glued.append("./" + rest if rest.startswith("~") else rest)
            else:
                taking = True
    if not text.startswith("--"):
        # a bundle: `-vb ~`, `-vb~`, `-nd=x`
        for pos in range(1, len(name)):
            if "-" + name[pos] in options:
                glued_rest = text[pos + 1 :].removeprefix("=")
                if glued_rest:
                    glued.append("./" + glued_rest if glued_rest.startswith("~") else glued_rest)
                else:
                    taking = True
                break
    return glued, taking


def _near_places(path: str, places: Sequence[str]) -> bool:
    """Whether `path`, or where its links lead, is, holds or lies in one of `places`."""
    forms = {path, os.path.realpath(path)}
    return any(paths.is_within(f, p) or paths.is_within(p, f) for f in forms for p in places)
# the files a project runner's own options read, and the options that move its command
# to another folder (`_Walk._project_runner_files`, review EE9)
_RUNNER_READ_OPTIONS: Final = {
    "uv run": ("--env-file", "--with-requirements", "--config-file"),
    "pdm run": ("--env-file",),
    "rye run": ("--pyproject",),
}
_RUNNER_FOLDER_OPTIONS: Final = {"uv run": ("--directory",), "poetry run": ("-C", "--directory")}
# the runners that run their command in the project's Python environment, whose `bin`
# goes first on PATH (`_Walk.project_program`, review EE7)
_PROJECT_RUNNERS: Final = frozenset({"uv run", "poetry run", "pdm run", "pipenv run", "rye run"})
_PYPROJECT_LIMIT: Final = 1 << 20


# the settings of ruff's and black's configuration that cannot choose which files they
# read, print and rewrite, nor where they write: an allowlist, since every other one may
# (`include = [".env"]` with `respect-gitignore = false`: review FL11; `extension = {env =
# "python"}` made `.env` a Python file: FW3; `output-file`, `cache-dir`, `extend`, which
# reads another file). Ruff's lint settings, still read at the top, and its plugins'
# sections count as harmless too; `exclude` and `extend-exclude` narrow (ruff's own
# defaults stay where only `extend-exclude` is given).
_LINTER_CONFIG_KEYS: Final = {
    "ruff": frozenset(
        """line-length indent-width target-version src fix unsafe-fixes show-fixes preview
        required-version namespace-packages builtins extend-exclude force-exclude lint
        format per-file-target-version fix-only output-format select ignore extend-select
        extend-ignore per-file-ignores extend-per-file-ignores fixable unfixable
        extend-fixable extend-unfixable dummy-variable-rgx task-tags typing-modules
        allowed-confusables external logger-objects explicit-preview-rules
        ignore-init-module-imports extend-safe-fixes extend-unsafe-fixes isort pydocstyle
        pylint mccabe pycodestyle pyupgrade pep8-naming pyflakes""".split()  # noqa: SIM905
    ),
    "black": frozenset(
        """line-length target-version skip-string-normalization skip-magic-trailing-comma
        preview unstable enable-unstable-feature required-version fast pyi ipynb color
        python-cell-magics skip-source-first-line extend-exclude force-exclude""".split()  # noqa: SIM905
    ),
}  # (tables of words read best as words)

# black's `include` spelt as its documented default (review GA4: common in projects), which
# picks Python files only
_PYTHON_INCLUDES: Final = frozenset(
    {r"\.pyi?$", r"(\.pyi?|\.ipynb)$", r"\.py$", r"\.pyi?$|\.ipynb$", r"(\.pyi?)$"}
)
# the formatters whose approvals `formatter_links` looks at: by the program or its verb,
# the names of the files it reads and rewrites, whether it walks into hidden folders, and
# the folders it never walks into (told for ruff and black, their default skips;
# terraform and `go fmt ./...`, which skip hidden names; `cargo fmt` and rustfmt, which
# reach files by module names, never hidden; prettier and eslint, which skip
# `node_modules`; the others are taken to walk everywhere but `.git`)
_PYTHON_SUFFIXES: Final = (".py", ".pyi", ".ipynb")
_WEB_SUFFIXES: Final = (
    ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".json", ".jsonc",
    ".json5", ".css", ".scss", ".sass", ".less", ".html", ".htm", ".vue", ".svelte",
    ".astro", ".md", ".mdx", ".markdown", ".yaml", ".yml", ".graphql", ".gql", ".hbs",
    ".handlebars", ".toml", ".ipynb", ".sql",
)  # fmt: skip
# (every `.hcl` name: terraform 1.11 reads `.tftest.hcl` and `.tfmock.hcl`, and later
# versions and OpenTofu add more kinds, `.tfquery.hcl`, `.tofutest.hcl`: review GJ1)
_TERRAFORM_SUFFIXES: Final = (".tf", ".tfvars", ".hcl", ".tofu")
_NODE_SKIPPED: Final = frozenset({".git", ".hg", ".svn", ".sl", "node_modules"})
# the options that make prettier and eslint walk `node_modules` too (a word not known
# counts as one)
_NODE_UNSKIPPING: Final = ("--with-node-modules", "--no-ignore", "--ignore-path")
_Formatter = tuple[tuple[str, ...], bool, frozenset[str]]


def _linter_name(found: SegmentRules) -> str | None:
    """`ruff`, `black`, `mypy` (`dmypy` too), `pylint` or `flake8` where the segment runs
    one (`python -m ruff`, `uv run mypy` too), else None."""
    values = [w.value for w in found.inner]
    if not values:
        return None
    tool = module_tool(values)
    name = tool[0] if tool is not None else program_name((values[0] or "").rpartition("/")[2])
    if tool is None and name in _RUNNER_PROGRAMS and "run" in values[1:]:
        # `uv run mypy .` runs the checker (review GI1): any word after `run` that names
        # one is taken as the command (its options' values cannot be told apart)
        after = values[values.index("run") + 1 :]
        named = (program_name((v or "").rpartition("/")[2]) for v in after)
        name = next((n for n in named if n in _LINTER_CONFIG_KEYS or checker_name(n)), name)
    return name if name in _LINTER_CONFIG_KEYS else checker_name(name)


# what the configuration of each linter may do that its approval does not cover
_LINTER_CONFIG_RISK: Final = {
    "ruff": "picks the files it reads and writes",
    "black": "picks the files it reads and writes",
}
_RUNNER_PROGRAMS: Final = frozenset({"uv", "poetry", "pdm", "pipenv", "rye"})


def _word_text(word: Word) -> str | None:
    """The word's value, or for a glob or expansion its text without quotes."""
    if word.value is not None:
        return word.value
    return word.text.replace('"', "").replace("'", "")


def _linter_line_option(name: str, values: Sequence[str | None]) -> str:
    """The word of the line that sets what `name`'s configuration would, or ""."""
    if name in _LINTER_CONFIG_KEYS:
        return next((v for v in values if v is not None and _LINTER_LINE_OPTION.match(v)), "")
    return checker_line_option(name, values)


# the options of ruff and black on the line that do the same: ruff's `--extension`
# (`env:python` makes `.env` a Python file: review FW3), `--config` (a file, or any
# setting), `--no-respect-gitignore`; black's `--include`, `--exclude` (which turns off
# its use of .gitignore), `--config`
_LINTER_LINE_OPTION: Final = re.compile(
    r"--(?:extension|config|no-respect-gitignore|include|exclude|output-file|cache-dir)(?:=|$)"
)
# ruff's configuration files, each folder's nearest first (a pyproject.toml counts where it
# has `[tool.ruff]`); black reads `[tool.black]` of the project's pyproject.toml only
_RUFF_FILES: Final = ("pyproject.toml", "ruff.toml", ".ruff.toml")


def _linter_config(name: str, folder: str, workspace: str, module_run: bool = False) -> str:
    """The configuration file `name` (ruff, black; mypy, pylint, flake8: `CHECKER_FILES`)
    reads when run in `folder` that picks its files or runs code (any setting
    `_LINTER_CONFIG_KEYS` or `linterconfig` does not take as harmless), or "". Every
    folder above is looked at (the tools take the nearest; any may be it: review GI1),
    and for ruff every folder of the `workspace` too, since ruff applies the nearest
    configuration to each file of a folder it walks (a `sub/ruff.toml` with `include =
    [".env"]` checks `sub/.env`), and an operand may name any folder there (`ruff check
    ../sub`)."""
    for path in _checker_files(name, folder):
        if _config_picks(name, path, module_run, folder):
            return f"`{path}`"
    if name != "ruff":
        return ""
    tree = scan_tree(workspace, hidden=True, budget=checks.TREE_BUDGET, skip=_RUFF_SKIPPED)
    if not tree.complete:
        return "the configuration files of a tree too large to look through"
    for entry in tree.entries:
        if os.path.basename(entry) in _RUFF_FILES and _config_picks(name, entry):
            return f"`{entry}`"
    return ""


def _checker_files(name: str, folder: str) -> list[str]:
    """The configuration files `name` may read run in `folder`: its names in that folder
    and each folder above, the nearest first."""
    names = _RUFF_FILES if name == "ruff" else CHECKER_FILES.get(name, ("pyproject.toml",))
    found: list[str] = []
    place = os.path.normpath(folder)
    while True:
        found.extend(os.path.join(place, base) for base in names)
        parent = os.path.dirname(place)
        if parent == place:
            return found
        place = parent


def _config_picks(name: str, path: str, module_run: bool = False, run_in: str = "") -> bool:
    """Whether the configuration file `path` sets one of `name`'s file-picking settings
    (or, for mypy, pylint and flake8 run in `run_in`, runs code: `linterconfig`, GI1);
    a file that exists but cannot be read or parsed counts (the tool may read it)."""
    if name in CHECKER_FILES:
        return config_runs_code(name, path, run_in, module_run)
    if not os.path.lexists(path):
        return False
    # (read whole or not at all: a setting past a cut was not seen, review GK1)
    text = read_config(path)
    if text is None:
        return True
    try:
        data = tomllib.loads(text)
    except ValueError:
        return True
    if os.path.basename(path) == "pyproject.toml":
        tool = data.get("tool")
        section = tool.get(name) if isinstance(tool, dict) else None
        if not isinstance(section, dict):
            return False
        data = section
    harmless = _LINTER_CONFIG_KEYS[name]
    return any(
        key not in harmless
        and not key.startswith("flake8-")
        and not (key == "include" and isinstance(data[key], str) and data[key] in _PYTHON_INCLUDES)
        for key in data
    )


# the folders ruff never walks into unless a configuration's `exclude` (which
# `_LINTER_CONFIG_KEYS` asks for) replaces its defaults: their configuration files are
# never read (a `.venv`'s packages ship their own)
_GIT_ONLY: Final = frozenset({".git"})
_RUFF_SKIPPED: Final = frozenset(
    {".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints",
     ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache",
     ".svn", ".tox", ".venv", ".vscode", "__pypackages__", "_build", "buck-out", "dist",
     "node_modules", "site-packages", "venv"}
)  # fmt: skip


# (mypy follows an import into any folder of a module's name, `node_modules`,
# `__pycache__` and `site-packages` among them: review GM1; hidden names are no module's)
_MYPY_SKIPPED: Final[frozenset[str]] = frozenset()
_FLAKE8_SKIPPED: Final = frozenset(
    {".svn", "CVS", ".bzr", ".hg", ".git", "__pycache__", ".tox", ".nox", ".eggs"}
)
_FORMATTERS: Final[dict[str, _Formatter]] = {
    "ruff": (_PYTHON_SUFFIXES, True, _RUFF_SKIPPED),
    "black": (_PYTHON_SUFFIXES, True, _RUFF_SKIPPED),
    # (isort's `skip` setting replaces its default skips, and its configuration is not
    # read here: it is taken to walk everywhere but `.git`)
    "isort": ((*_PYTHON_SUFFIXES, ".pyx", ".pxd"), True, _GIT_ONLY),
    "autopep8": (_PYTHON_SUFFIXES, True, _GIT_ONLY),
    "yapf": (_PYTHON_SUFFIXES, True, _GIT_ONLY),
    "cargo fmt": ((".rs",), False, frozenset({"target"})),
    "rustfmt": ((".rs",), False, frozenset({"target"})),
    "gofmt": ((".go",), True, _GIT_ONLY),
    "go fmt": ((".go",), False, frozenset()),
    "terraform fmt": (_TERRAFORM_SUFFIXES, False, frozenset()),
    "tofu fmt": (_TERRAFORM_SUFFIXES, False, frozenset()),
    "prettier": (_WEB_SUFFIXES, True, _NODE_SKIPPED),
    "eslint": (_WEB_SUFFIXES, True, _NODE_SKIPPED),
    "deno fmt": (_WEB_SUFFIXES, True, _GIT_ONLY),
    "deno lint": (_WEB_SUFFIXES, True, _GIT_ONLY),
    "biome": (_WEB_SUFFIXES, True, _GIT_ONLY),
    "dart format": ((".dart",), True, _GIT_ONLY),
    "dart fix": ((".dart",), True, _GIT_ONLY),
    "mix format": ((".ex", ".exs", ".heex", ".eex", ".leex"), True, _GIT_ONLY),
    "shfmt": ((".sh", ".bash", ".mksh", ".bats", ".zsh", ".ksh"), True, _GIT_ONLY),
    "clang-format": (
        (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m", ".mm", ".proto"),
        True,
        _GIT_ONLY,
    ),
    "stylua": ((".lua", ".luau"), True, _GIT_ONLY),
    "taplo": ((".toml",), True, _GIT_ONLY),
    "ktlint": ((".kt", ".kts"), True, _GIT_ONLY),
    "swiftformat": ((".swift",), True, _GIT_ONLY),
    "scalafmt": ((".scala", ".sbt", ".sc"), True, _GIT_ONLY),
    "zig fmt": ((".zig", ".zon"), True, _GIT_ONLY),
    "nixfmt": ((".nix",), True, _GIT_ONLY),
    "buf format": ((".proto",), True, _GIT_ONLY),
    # the checkers, which read the files they find the same way (review GK3): mypy skips
    # hidden names and these three; pylint walks all but what `ignore` names (`CVS`);
    # flake8 all but its default `exclude`
    "mypy": ((".py", ".pyi"), False, _MYPY_SKIPPED),
    "dmypy": ((".py", ".pyi"), False, _MYPY_SKIPPED),
    "pylint": ((".py", ".pyi"), True, _GIT_ONLY),
    "flake8": ((".py",), True, _FLAKE8_SKIPPED),
}
# the entries of `_FORMATTERS` known not to walk into a link to a folder (ruff's and
# black's walkers, terraform, prettier, and Go's `filepath.Walk` and `./...`); every
# other one is taken to follow it as isort (`follow_links`) and mypy do, so the link's
# folder is judged as read and written whole (review GO1: an approved `isort .` rewrote
# the files of `sub -> ../other-project`)
_LINK_SKIPPERS: Final = frozenset(
    {"ruff", "black", "terraform fmt", "tofu fmt", "prettier", "gofmt", "go fmt"}
)


def _walked(target: str, root: str, hidden: bool, skip: frozenset[str]) -> bool:
    """Whether the folder `target` lies in the tree the walk of `root` looked through
    already (a venv's `lib64 -> lib`), so a link to it leads nowhere new (review GO1)."""
    relative = os.path.relpath(target, root)
    if relative == ".." or relative.startswith("../"):
        return False
    parts = [] if relative == "." else relative.split("/")
    return not any(part in skip or (not hidden and part.startswith(".")) for part in parts)


# flake8's options that replace or change where its `exclude` comes from
_FLAKE8_CONFIG_OPTIONS: Final = ("exclude", "extend-exclude", "isolated", "config",
                                 "append-config")  # fmt: skip
# the entries of `_FORMATTERS` that only read the files they find
_READ_ONLY_TOOLS: Final = frozenset({"mypy", "dmypy", "pylint", "flake8"})


def _formatter(found: SegmentRules) -> tuple[str, _Formatter] | None:
    """The name in `_FORMATTERS` of the formatter or checker the segment runs (`cargo
    fmt`, `python -m black` too) and what it says of it, or None where it runs none it
    knows."""
    values = [w.value for w in found.inner]
    if not values:
        return None
    tool = module_tool(values)
    name = tool[0] if tool is not None else program_name((values[0] or "").rpartition("/")[2])
    verb = values[1] if tool is None and len(values) > 1 else None
    for key in (f"{name} {verb}", name):
        if key in _FORMATTERS:
            return key, _FORMATTERS[key]
    # (`uv run mypy`, `poetry run flake8`: the checker the runner runs, review GK3)
    checker = _linter_name(found)
    if checker in _READ_ONLY_TOOLS:
        return checker, _FORMATTERS[checker]
    return None


def _declared_scripts(folder: str) -> frozenset[str]:
    """The commands `folder`'s `pyproject.toml` has installed into the environment's
    `bin` (`[project.scripts]`, `[project.gui-scripts]`, `[tool.poetry.scripts]`); a file
    that cannot be read declares none (then no runner builds it either)."""
    try:
        with open(os.path.join(folder, "pyproject.toml"), "rb") as handle:
            data = tomllib.loads(handle.read(_PYPROJECT_LIMIT).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return _pipfile_scripts(folder)
    found: set[str] = set()
    project = data.get("project")
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    pdm = tool.get("pdm") if isinstance(tool, dict) else None
    tables = (
        project.get("scripts") if isinstance(project, dict) else None,
        project.get("gui-scripts") if isinstance(project, dict) else None,
        poetry.get("scripts") if isinstance(poetry, dict) else None,
        # `pdm run NAME` runs a script of its own table, a shell command (review EI3)
        pdm.get("scripts") if isinstance(pdm, dict) else None,
    )
    for table in tables:
        if isinstance(table, dict):
            found.update(str(key) for key in table)
    return frozenset(found | _pipfile_scripts(folder))


def _other_environment(folder: str) -> bool:
    """Whether `folder` names a project environment elsewhere than its `.venv` folder:
    pdm's `.pdm-python`, or a `.venv` *file* (pipenv reads the environment's path from
    it), whose `bin` the runner puts first on PATH (review EI4)."""
    return os.path.lexists(os.path.join(folder, ".pdm-python")) or os.path.isfile(
        os.path.join(folder, ".venv")
    )


def _pipfile_scripts(folder: str) -> frozenset[str]:
    """The names of a `Pipfile`'s `[scripts]`, which `pipenv run NAME` runs as a shell
    command instead of the program (review EI3); a file that cannot be read: none."""
    try:
        with open(os.path.join(folder, "Pipfile"), "rb") as handle:
            data = tomllib.loads(handle.read(_PYPROJECT_LIMIT).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return frozenset()
    scripts = data.get("scripts")
    return frozenset(str(key) for key in scripts) if isinstance(scripts, dict) else frozenset()


def _program_path(invoked_as: str | None, cwd: paths.Cwd | None) -> str | None:
    """The absolute path of a program run by path (`./build.sh` in `/repo`:
    `/repo/build.sh`), which approvals name (review M7: approved as written, `./build.sh`
    was approved in every folder); None when it is not known."""
    if invoked_as is None or invoked_as.startswith("/"):
        return invoked_as
    if cwd is None or not cwd.known or len(cwd.candidates) != 1:
        return None
    (folder,) = cwd.candidates
    return os.path.normpath(os.path.join(folder, invoked_as)) if folder.startswith("/") else None


# a name after `$`, `${`, `${#`, `${!` anywhere in an expansion's text
# a word naming a path below an automounter's host folder (`/net/HOST`, `/hosts/HOST`),
# at its start or after `=` or `:` (`--dir=/net/h`, `-cp a:/net/h`), quoted or not
# (`"/net/$(whoami).x"`), in any case (macOS: `/NET`); not `/proc/net/…` nor a message
# that mentions one (`-m "fix /net/ paths"`) (review DT1); and the segment's text that
# may hold one (a cheap test first)
_AUTOMOUNT_WORD = re.compile(r"""(?:^|[=:])["']?/+(?i:net|hosts)/+[^/\s"']""")
# the commands that look their words up as paths where no rule reads them as paths (the
# others' path words meet `check_path`) (reviews DW1, DX1: `df`; `command -v`, `type`,
# `which` look up a name with a `/`)
_AUTOMOUNT_PROBES: Final = frozenset(
    {"test", "[", "realpath", "readlink", "lsof", "stat", "cd", "pushd", "ls", "chdir", "df",
     "gstat", "gls", "grealpath", "greadlink", "gdf"}
)  # fmt: skip
_CD_PROBES: Final = frozenset({"cd", "pushd", "chdir"})
_LOOKUP_PROBES: Final = frozenset({"command", "type", "which", "whence", "where"})
# the options of a probe whose value is a word that is no path (`ls -I PATTERN`)
_PROBE_VALUED: Final = {
    "ls": frozenset({"-I", "-w", "-T", "--ignore", "--hide", "--width", "--tabsize",
                     "--block-size", "--format", "--sort", "--time", "--time-style",
                     "--color", "--quoting-style", "--indicator-style"}),
    "stat": frozenset({"-c", "--format", "--printf"}),
    "df": frozenset({"-t", "-x", "-B", "--type", "--exclude-type", "--block-size", "--output"}),
    "lsof": frozenset({"-p", "-u", "-g", "-c", "-s", "-F", "-k", "-o", "-r", "-T"}),
}  # fmt: skip
# `test`'s operators whose operand is a file, and those with a file on each side; any
# other operand is a string (`[ "$x" = net/y ]`, `-z`, `-n`: review DX9)
_TEST_FILE_UNARY: Final = frozenset(
    {"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-u", "-w",
     "-x", "-G", "-L", "-N", "-O", "-S"}
)  # fmt: skip
_TEST_FILE_BINARY: Final = frozenset({"-nt", "-ot", "-ef"})
_HOME_TILDE: Final = re.compile(r"~(?:/|$)")


def _probes(segment: Segment) -> tuple[str, Sequence[Word]]:
    """The probe a segment runs (`_AUTOMOUNT_PROBES`, `_LOOKUP_PROBES`, by the command's
    own name, seen through wrappers: `env test`, `timeout 5 stat`, `/usr/bin/test`) and
    the words it looks up as paths: not its options and their values, nor `test`'s string
    operands; `[[ … ]]`'s file operands. ("", ()) for another command (`echo test x`:
    review DX9)."""
    if segment.kind is SegmentKind.TEST:
        return "[[", _test_paths(segment.words)
    if segment.kind is not SegmentKind.SIMPLE or not segment.words:
        return "", ()
    wrapped = segment.wrapped
    if wrapped is not None and wrapped.opaque:
        return "", ()
    words = run_words(segment.command_words)
    if not words and segment.command_words[:1] and segment.command_words[0].value == "command":
        words = segment.command_words  # (`command -v NAME`: a lookup)
    first = words[0].value if words else None
    if first is None:
        return "", ()
    name = first.rpartition("/")[2]
    if name in ("test", "["):
        operands = list(words[1:])
        if name == "[" and operands and operands[-1].value == "]":
            operands.pop()
        return name, _test_paths(operands)
    if name in _LOOKUP_PROBES:
        # (a name without a `/` is looked for in PATH, not in the working directory)
        found = [w for w in _probe_operands(name, words[1:]) if w.value is None or "/" in w.value]
        return name, found
    if name not in _AUTOMOUNT_PROBES:
        return "", ()
    return name, _probe_operands(name, words[1:])


def _probe_operands(name: str, words: Sequence[Word]) -> list[Word]:
    """The operands among a probe's `words`: not its options (`-l`, `--all`) nor their
    values (`ls -I PATTERN`); every word after `--`."""
    valued = _PROBE_VALUED.get(name, frozenset())
    found: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        value = word.value
        if value == "--":
            found.extend(words[index:])
            break
        if value is not None and value.startswith("-"):
            if value in valued:
                index += 1
            continue
        found.append(word)
    return found


def _test_paths(words: Sequence[Word]) -> list[Word]:
    """The operands of `test`, `[` or `[[` that are looked up as files: after a file
    operator (`-e X`), either side of `-nt`, `-ot`, `-ef`, and after a word not known (it
    may be such an operator)."""
    found: list[Word] = []
    for index, word in enumerate(words):
        before = words[index - 1].value if index else ""
        after = words[index + 1].value if index + 1 < len(words) else ""
        if (
            before is None
            or before in _TEST_FILE_UNARY
            or before in _TEST_FILE_BINARY
            or after in _TEST_FILE_BINARY
        ):
            found.append(word)
    return found


def _glob_words(segment: Segment) -> Sequence[Word]:
    """The words of a simple command or a `for` list that the shell may expand as a glob
    (`[[ … ]]` expands none)."""
    if segment.kind is not SegmentKind.SIMPLE and segment.kind is not SegmentKind.LOOP_HEADER:
        return ()
    return [w for w in segment.words if checks.may_glob(w)]


def _automount_folder(form: str) -> bool:
    """Whether normalised `form` is an automounter's host folder or below it."""
    return paths.under_automount(form) or form.lower() in ("/net", "/hosts")


def _known_folder(text: str) -> str | None:
    """The folder a word whose value is not known names before its first expansion
    (`"../net/$(x).com"`: `../net`; `$(x).com`: `.`), None when it starts with one that
    may be a path (`$PWD/…`, `~user`)."""
    cut = min((i for i in (text.find("$"), text.find("`")) if i >= 0), default=len(text))
    prefix = text[:cut].replace('"', "").replace("'", "").replace("\\", "")
    if not prefix and cut < len(text):
        rest = text[cut:].lstrip('"')
        # `$(…)`, `${x}` at the start: a name in the working directory unless a `/`
        # follows right away (`$PWD/x`, `$HOME/..`: its text is `_AUTOMOUNT_TEXT`'s)
        return None if re.match(r"\$\{?\w+\}?[\"']*/", rest) else "."
    if prefix.startswith("~") and not prefix.startswith(("~/",)) and prefix != "~":
        return None
    folder, slash, _name = prefix.rpartition("/")
    return (folder or "/") if slash else "."
_AUTOMOUNT_TEXT = re.compile(r"(?i)/(?:net|hosts)/")
_MENTIONED = re.compile(r"\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*)")
# `${!prefix*}`, `${!prefix@}`: the names of variables, not their values (and `${!}` is
# the last background job's process id)
_NAMES_ONLY = re.compile(r"\$\{![A-Za-z_][A-Za-z0-9_]*[*@]\}")


def _loop_word_texts(word: Word) -> tuple[str, ...] | None:
    """What a `for` word stands for as paths: the words bash's brace expansion makes of
    it (`for f in {README,.env}` is two words: review EF4), each as `_loop_word_text`;
    None when not known (braces `expand_braces` does not read, none left: `{,}`)."""
    if any(e.kind is ExpansionKind.BRACE for e in word.expansions):
        expanded = expand_braces(word.text)
        if expanded is not None:
            return tuple(expanded) or None
    text = _loop_word_text(word)
    return None if text is None else (text,)


def _loop_word_text(word: Word) -> str | None:
    """What a `for` word stands for as a path: a quoted `~` is a character there."""
    value = word.value
    if value is not None and value.startswith("~"):
        return "./" + value
    return paths.path_text(word)


def _reassigned(root: CommandLine) -> frozenset[str] | None:
    """The variables a line may set other than by a `for` loop's header, read from the
    parsed line and every line nested in it (review EB1: a search of the raw text missed
    `pr\\intf -v f`, `re\\ad f`, which bash runs as the builtins); None where the line
    may set any variable, or one the analyser cannot name: an `eval` or a `trap` whose
    code was not read, `source`, a command whose name is not literal, `coproc`, a
    nameref or integer declaration, arithmetic (`((…))`, `let`, `$((…))`, a subscript),
    a line the analyser had problems with. The raw text is searched as well for
    `NAME=` and arithmetic, so a piece the model may not hold still counts."""
    if root.problems:
        return None
    names: set[str] = set()
    texts: list[str] = []
    for line in lines(root):
        texts.append(line.text)
        if line.problems:
            return None
        for segment in line.segments:
            if not _segment_sets(segment, names):
                return None
    text = "\n".join(texts)
    if "((" in text or "$[" in text:
        return None
    names.update(m.group(1) for m in _ASSIGNED_TEXT.finditer(text))
    return frozenset(names)


def _assigned_before(line: CommandLine, index: int, name: str) -> str | None:
    """See `_Walk.assigned_before`: the literal value the plain assignment to `name`
    nearest before segment `index` of `line` gives it, where it is sure to run just
    before that segment with nothing between them that may set `name`."""
    segments = line.segments
    use = segments[index]
    text = line.text
    if text[use.span.start : use.span.end] != use.text:
        return None  # (a substitution's line, whose spans are its root's)
    names: set[str] = set()
    if not _segment_sets(use, names) or names:
        return None  # (`f=; cat "${f:=$g}" "$f"`)
    scopes = use.scopes
    group: int | None = use.group
    if scopes[-1:] == (Scope.PIPELINE,):
        # the first stage of a pipeline (`f=README; cat "$f" | wc`), in a subshell of
        # its own that the assignment before it gave the value
        scopes = scopes[:-1]
        group = None
    later = use
    for at in range(index - 1, -1, -1):
        before = segments[at]
        if group is None:
            group = before.group
        if (
            before.connector not in _SEQUENCE
            or before.group != group
            or before.scopes != scopes
            or before.kind is not SegmentKind.ASSIGNMENT_ONLY
            or before.declared
            or before.wrapped is not None
            or text[before.span.start : before.span.end] != before.text
            or not _SEPARATOR.fullmatch(text[before.span.end : later.span.start])
        ):
            return None
        names.clear()
        if not _segment_sets(before, names):
            return None
        if name in names:
            joined = at > 0 and segments[at - 1].connector in _JOINING
            if joined or not _starts_list(text[: before.span.start]):
                return None  # (`[ x ] && f=README; cat "$f"`, `false &&⏎f=README`)
            found = [a for a in before.assignments if base_name(a.name) == name]
            last = found[-1] if found else None
            if (
                last is None
                or any(a.name != name or a.append or a.array is not None for a in found)
                or any(a.subscript is not None for a in found)
                or last.value is None
                or last.value.value is None
                or last.value.expansions
            ):
                return None
            return last.value.value
        later = before
    return None


# what may run code before, or change the meaning of, the commands of a list in
# `_Walk.assigned_before`: a trap, an alias, the files bash loads (`_sets_trap`)
_CHANGES_FLOW: Final = re.compile(r"trap|alias|ENV")
# what joins two segments of one list in `_assigned_before`: `;` or newlines, blanks
_SEQUENCE: Final = frozenset({Connector.SEQ, Connector.NEWLINE})
_SEPARATOR: Final = re.compile(r"[ \t]*(?:;|\n)[ \t\n]*")
# what the text before an assignment ends with where it follows a `;` (not `;;`, `;&`)
# or starts a body (`do`, `then`, `else`, `{`)
_LIST_START: Final = re.compile(r"(?:(?<![;&])[;]|(?:^|[\s;])(?:do|then|else|\{))\Z")


def _starts_list(before: str) -> bool:
    """Whether a command after the text `before` runs whatever ran before it: it
    starts the line or a body, or follows a `;` or a newline that ends a command (not
    `[ x ] && f=…`, `false &&⏎f=…`, `false && # c⏎f=…`)."""
    head = before.rstrip(" \t\n")
    if not head:
        return True
    if _LIST_START.search(head):
        return True
    if "\n" not in before[len(head) :]:
        return False
    last = head.rpartition("\n")[2]
    return "#" not in last and not last.rstrip(" \t").endswith(("&", "|", "!", "\\"))


_JOINING: Final = frozenset({Connector.AND, Connector.OR, Connector.PIPE, Connector.PIPE_ALL})


def _segment_sets(segment: Segment, names: set[str]) -> bool:
    """Add the variables `segment` may set to `names`; False where it may set any."""
    kind = segment.kind
    if kind is SegmentKind.ARITHMETIC or Scope.COPROC in segment.scopes:
        return False  # (`coproc NAME …` sets NAME, which the model does not keep)
    if kind is SegmentKind.TEST and any(w.value in _ARITHMETIC_TESTS for w in segment.words):
        return False  # (`[[ f=1 -eq 1 ]]` evaluates its operands)
    tests = kind is SegmentKind.TEST or (
        kind is SegmentKind.SIMPLE and any(w.value in ("test", "[") for w in segment.words[:3])
    )
    if tests and any(
        before.value == "-v" and (word.value is None or not _PLAIN_NAME.fullmatch(word.value))
        for before, word in itertools.pairwise(segment.words)
    ):
        return False  # (`[[ -v a[f=1] ]]`, `test -v 'a[f=1]'` evaluate the subscript)
    if kind is SegmentKind.LOOP_HEADER:
        if not segment.name:
            return False  # `for ((…))`
        if segment.text.lstrip().startswith("select"):
            names.add(segment.name)
    for expansion in written_expansions(segment):
        if expansion.kind is ExpansionKind.ARITHMETIC:
            return False
        if expansion.kind is ExpansionKind.PARAMETER and _ASSIGNING_PARAMETER.search(
            expansion.text
        ):
            return False
    names.update(name for name, _ in expansion_assignments(segment))
    assignments = segment.assignments + segment.declared
    if segment.wrapped is not None:
        assignments += segment.wrapped.assignments
    for assignment in assignments:
        subscript = assignment.subscript
        if subscript is not None and not _PLAIN_SUBSCRIPT.fullmatch(subscript.text):
            return False  # (`a[f=1]=x` evaluates its subscript)
        names.add(base_name(assignment.name))
    if kind is not SegmentKind.SIMPLE:
        return True
    words = run_words(segment.words)
    if words and words[0].value is None:
        return False  # (`$r f`: `r=read`)
    if _unread_eval(segment):
        return False
    command = segment.command_words
    name = command[0].value if command else None
    if name in _SETTING_ANY:
        return False
    if name == "trap":
        wrapped = segment.wrapped
        if wrapped is None or wrapped.nested is None or wrapped.opaque:
            return False  # (`trap "$x" DEBUG`: code that runs before every command)
    if name in ("mapfile", "readarray") and any(
        w.value is None or (w.value.startswith("-") and "C" in w.value)
        for w in command[1:]
    ):
        return False  # (`mapfile -C CODE` runs CODE)
    if name in DECLARATION_BUILTINS and any(
        w.value is None or (w.value[:1] in "-+" and ("n" in w.value or "i" in w.value))
        for w in command[1:]
    ):
        return False  # a nameref (`declare -n r=f`) or an integer (`declare -i x`)
    assigned = assigned_by_builtin(segment)
    if assigned is not None:
        for found in assigned.names:
            if found is None:
                return False
            if "[" in found and not _PLAIN_SUBSCRIPT.fullmatch(found[found.index("[") :]):
                return False
            names.add(base_name(found))
    return True


def _set_by_bash(name: str) -> bool:
    """Whether bash itself sets variable `name` (review EB2: `for _ in README; do :
    ~/.ssh/id_rsa; cat "$_"; done` reads the key): a `for` over it is never trusted."""
    return name in _SET_BY_BASH or name in _BASH_OWN or name.startswith(_BASH_OWN_PREFIXES)


# commands that may set any variable: code from a file, an integer evaluation, a builtin
# loaded from a file
_SETTING_ANY: Final = frozenset({"source", ".", "let", "enable"})
# a parameter expansion that evaluates arithmetic (`${a[f=1]}`, `${x:f=1}`), assigns
# through a name (`${!r:=x}`) or expands a prompt (`${x@P}`)
_ASSIGNING_PARAMETER: Final = re.compile(
    r"\[(?![@*]\]|[0-9]+\])|^\$\{[^}]*?[^:}]:(?![-=?+])|\$\{![^}]*=|@P\}"
)
_PLAIN_SUBSCRIPT: Final = re.compile(r"\[?(?:[0-9]+|[@*])\]?")
_PLAIN_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[(?:[0-9]+|[@*])\])?")
# `f=`, `f+=`, `f[0]=` anywhere in the text, and the expansions that assign, `${f=…}`
# and `${f:=…}` (review AE5)
_ASSIGNED_TEXT: Final = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?(?:\+|:)?=")
# variables bash sets itself besides `_SET_BY_BASH` (review EB2)
_BASH_OWN: Final = frozenset(
    {"OPTIND", "PIPESTATUS", "FUNCNAME", "LINENO", "RANDOM", "SRANDOM", "SECONDS",
     "HISTCMD", "GROUPS", "IFS", "HOSTNAME", "HOSTTYPE", "MACHTYPE", "OSTYPE", "PPID",
     "SHLVL", "UID", "EUID", "SHELLOPTS", "BASHOPTS", "COLUMNS", "LINES", "PROMPT_COMMAND"}
)  # fmt: skip
_BASH_OWN_PREFIXES: Final = ("BASH", "COMP_", "EPOCH", "READLINE_", "HIST")


def _code_only(code: str, _anchor: Span, _where: str) -> CommandLine:
    """A shell string a runner runs (`script -c CODE`), kept as its text: `runner_command`
    judges it as a line of its own."""
    return CommandLine(text=code, segments=())


def _unread_eval(segment: Segment) -> bool:
    """Whether a segment names `eval` (as a command, a wrapper's command or an operand)
    other than as the `eval` whose code the analyser read (`Unwrapped.nested`)."""
    if not any(word.value == "eval" for word in segment.words):
        return False
    wrapped = segment.wrapped
    read = wrapped is not None and wrapped.nested is not None and not wrapped.opaque
    named = sum(word.value == "eval" for word in segment.words)
    return not (read and wrapped is not None and named == 1 and wrapped.chain[-1].name == "eval")


# builtins whose operands may be variable names (with subscripts bash evaluates)
_NAMING_BUILTINS = frozenset(
    {"test", "[", "printf", "read", "unset", "wait", "declare", "typeset", "local", "export",
     "readonly", "mapfile", "readarray", "getopts"}
)  # fmt: skip
_EVALUATING_KINDS = frozenset({SegmentKind.ARITHMETIC, SegmentKind.TEST, SegmentKind.LOOP_HEADER})
_ARITHMETIC_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
# a variable named in evaluated text: `x`, `$x`, `${x}`, and the positional `$1`, `$@`, `$*`
_NAME = re.compile(r"\$\{?([0-9]+|[@*])|([A-Za-z_][A-Za-z0-9_]*)")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTING_CHARS = re.compile(r"[\"'\\]")
# the programs `loopback_reach` looks at (ssh, sftp, scp, rsync, git), by name or path
_REMOTE_NAMES: Final = re.compile(r"(?:^|/)(?:ssh|sftp|scp|rsync|git)$")
# git's verbs that leave the files of the work tree alone (any other may write them, by
# pathspec globs or whole: `checkout`, `merge`, `clean`, `stash`, an alias, an extension)
_GIT_TREE_KEEPERS: Final = frozenset(
    {"status", "log", "diff", "show", "branch", "tag", "remote", "fetch", "push", "add",
     "stage", "commit", "ls-files", "ls-tree", "ls-remote", "cat-file", "rev-parse", "rev-list",
     "describe", "blame", "annotate", "grep", "shortlog", "reflog", "help", "version",
     "config", "count-objects", "fsck", "gc", "prune", "init", "for-each-ref", "show-ref",
     "name-rev", "whatchanged", "range-diff", "format-patch", "archive", "bundle",
     "notes", "verify-commit", "verify-tag", "merge-base", "diff-tree", "diff-index",
     "diff-files", "hash-object", "check-ignore", "check-attr", "var", "maintenance", None}
)  # fmt: skip
# programs besides git that may rewrite the work tree under an approval of any verb
_TREE_SWITCHERS: Final = frozenset({"gh", "hub", "glab", "jj", "hg", "sl", "tig", "git-lfs"})
_FORGE_SWITCHES: Final = frozenset({"checkout", "co", "sync", "clone", "merge", "pull"})
# every name `_tree_writer` may answer for, outside git: any other writes no tree
_TREE_WRITER_NAMES: Final = (
    _TREE_SWITCHERS
    | _RENAMERS
    | {"patch", "mv", "cp", "tar", "gtar", "bsdtar", "unzip", "bsdunzip", "cpio", "rsync"}
    | {"7z", "7za", "7zr", "7zz"}
)
# the folders package managers install programs into (an activated `.venv/bin`,
# `node_modules/.bin`): what is there came from an install, which ran the packages' own
# code anyway; a repository that commits such a folder is not told apart
_INSTALLED_BIN: Final = re.compile(
    r"/(?:\.?venv[^/]*|\.?env|\.tox/[^/]+|\.nox/[^/]+)/bin/?$|/node_modules/\.bin/?$"
)

# the folders of version managers' shims, which run the program a configuration file in
# the working folder or a parent picks (`_shimmed`): mise's and rtx's `…/mise/shims`,
# asdf's `~/.asdf/shims` (any `ASDF_DATA_DIR`), pyenv's, rbenv's, nodenv's, goenv's and
# jenv's `~/.X/shims`, and volta's `~/.volta/bin`
_SHIM_BIN: Final = re.compile(r"(?:^|/)shims/?$|/\.volta/bin/?$")
# the programs corepack can shim, and where its shims lead (`corepack/dist/npm.js`)
_COREPACK_NAMES: Final = frozenset({"npm", "npx", "yarn", "yarnpkg", "pnpm", "pnpx"})
_COREPACK_SCRIPT: Final = re.compile(r"/corepack/(?:dist|shims)(?:/[^/]+)?/[^/]+$")

# `python -m X` (`python_module_path`): the interpreters, and what imports from a folder
_PYTHON_NAME: Final = re.compile(r"(?:python|pypy)[0-9.]*")
_MODULE_SUFFIXES: Final = (".py", ".pyc", ".so")
_MODULE_SCAN: Final = 4096  # entries of a working folder looked through
_STDLIB_MODULES: Final = frozenset(sys.stdlib_module_names)


def _python_module(values: Sequence[str | None], env: Mapping[str, str]) -> str | None:
    """The module `python … -m MODULE` runs, read as CPython reads its options (`-Pm x`,
    `-W ignore -m x`), when its working folder goes first on `sys.path`: None for a
    script, `-c`, or `-P`, `-I` or PYTHONSAFEPATH (unless `-E` ignores it)."""
    if not values or values[0] is None:
        return None
    if not _PYTHON_NAME.fullmatch(values[0].rpartition("/")[2]):
        return None
    safe = ignore_env = False
    index = 1
    while index < len(values):
        word = values[index]
        if word is None or word in ("-", "--") or not word.startswith("-"):
            return None  # a script, standard input, or a word not known here
        index += 1
        if word.startswith("--"):
            index += word == "--check-hash-based-pycs"
            continue
        for at, letter in enumerate(word[1:], 2):
            safe = safe or letter in "PI"
            ignore_env = ignore_env or letter in "EI"
            if letter in "cmWX":
                value: str | None = word[at:]
                if not value:
                    value = values[index] if index < len(values) else None
                    index += 1
                if letter == "c":
                    return None
                if letter == "m":
                    if value is None or safe or (env.get("PYTHONSAFEPATH") and not ignore_env):
                        return None
                    return value
                break
    return None


def _module_shadow(folder: str, top: str) -> str | None:
    """An entry of `folder` that `import` finds before the module of that name: a module
    file or package named like `top` or like a standard-library module (a folder named
    `top` even without `__init__.py`: a namespace package's portion), or the folder
    itself when it cannot be looked through."""
    try:
        with os.scandir(folder) as listing:
            for count, item in enumerate(listing):
                if count >= _MODULE_SCAN:
                    return folder
                name = item.name
                try:
                    directory = item.is_dir()
                except OSError:
                    continue
                if directory:
                    package = _lexists(os.path.join(item.path, "__init__.py"))
                    if name == top or (package and name in _STDLIB_MODULES):
                        return item.path
                elif name.endswith(_MODULE_SUFFIXES):
                    stem = name.partition(".")[0]
                    if stem == top or stem in _STDLIB_MODULES:
                        return item.path
    except OSError:
        return None
    return None


def _shadow_write(
    value: str, where: paths.Cwd, cwd: paths.Cwd, top: str, *, subtree: bool
) -> str | None:
    """The path `value` (written in `where`) when it makes or changes a module that a
    `python -m` in `cwd` may import instead of the one meant (see `_module_shadow`), or
    (`subtree`) writes what lies below the working folder or a folder above it (`cp -r
    evil/. .`: which names it makes is not known)."""
    if value.startswith("/"):
        targets = [value]
    elif where.known:
        targets = [os.path.join(c, value) for c in where.candidates]
    else:
        return value  # relative to a folder that is not known
    for target in targets:
        target = os.path.normpath(target)
        for folder in cwd.candidates:
            if subtree and paths.is_within(folder, target):
                return value  # the folder itself, or one that holds it
            if not paths.is_within(target, folder):
                continue
            first, below, _rest = os.path.relpath(target, folder).partition("/")
            if below or "." not in first:  # a folder (`mkdir json`, `json/__init__.py`)
                name = first
            elif first.endswith(_MODULE_SUFFIXES):  # `argparse.py`
                name = first.partition(".")[0]
            else:
                continue
            if name == top or name in _STDLIB_MODULES:
                return value
    return None


def _lexists(path: str) -> bool:
    return paths.lexists(path)


def _runs_man(words: Sequence[Word]) -> bool:
    """`git help X`, `git X --help`: git shows the page with `man` (review AP4)."""
    if not words or words[0].value not in ("git", "scalar"):
        return False
    values = [word.value for word in words[1:]]
    return "help" in values[:3] or "--help" in values


# variables naming where programs load code from, and the code they load (review DD2,
# DD4): shared libraries for every program, a file every program preloads, modules for
# the programs of a language
_LOADED_PATHS: Final = {
    "LD_LIBRARY_PATH": "native", "DYLD_LIBRARY_PATH": "native",
    "DYLD_FALLBACK_LIBRARY_PATH": "native", "DYLD_FRAMEWORK_PATH": "native",
    "LD_PRELOAD": "native-file", "LD_AUDIT": "native-file", "DYLD_INSERT_LIBRARIES": "native-file",
    "PYTHONPATH": "python", "PERL5LIB": "perl", "PERLLIB": "perl", "PERL5OPT": "perl",
    # a home of the standard library, a user base whose `site-packages` `.pth` files run
    "PYTHONHOME": "python-home", "PYTHONUSERBASE": "python-home",
    # node's module folders, and the modules its options preload (`--require`, `--import`,
    # a loader: `npm --version` ran `NODE_OPTIONS=--require ./x.js` of the working folder)
    "NODE_PATH": "node", "NODE_OPTIONS": "node-options",
    # ruby's load path and its options' (`-I`, `-r`); gem folders, whose specifications
    # (Ruby code) and default gems (`did_you_mean`) every ruby start loads
    "RUBYLIB": "ruby", "RUBYOPT": "ruby-options", "GEM_PATH": "ruby-gems", "GEM_HOME": "ruby-gems",
    # the JVM's options (`-javaagent:`, class paths, option files), read by every JVM
    "JAVA_TOOL_OPTIONS": "java-options", "JDK_JAVA_OPTIONS": "java-options",
    "_JAVA_OPTIONS": "java-options",
    # OpenSSL's configuration, which may load a provider or engine library, and the
    # folders it loads them from, in every program linked with it (review DQ10)
    "OPENSSL_CONF": "native-file", "OPENSSL_MODULES": "native", "OPENSSL_ENGINES": "native",
}  # fmt: skip
# the variables whose values name files to load, which ask without a look inside them
# (an option file, an agent, a preloaded module), and the programs each concerns
_NAMED_FILES: Final = {
    "native-file": "", "node-options": "node", "ruby-options": "ruby", "java-options": "java",
}  # fmt: skip
_LIBRARY_NAME: Final = re.compile(r"\.so(?:\.[0-9]+)*$|\.dylib$")
# the subfolders the dynamic loader also looks in below each entry (glibc's hwcaps, and
# the legacy platform and `tls` folders)
_LIBRARY_SUBFOLDERS: Final = frozenset(
    {"glibc-hwcaps", "tls", "x86_64", "i686", "i586", "i486", "i386", "haswell", "xeon_phi",
     "avx512_1", "aarch64", "ppc64le", "s390x"}
)  # fmt: skip


_PERL_DEBUGGER: Final = (
    "perl's debugger (`-d`, which runs `.perldb` of the working folder) or a module that may "
    "add folders of its own"
)


def _perl_debugger(options: str) -> bool:
    """Whether `PERL5OPT` runs perl under its debugger (`-d`, `-d:Module`, `-wd`), or loads
    a module other than `lib` with its folders named, which may add folders of its own
    (`-Mblib`, `-Mif=1,lib,x`: review DK2)."""
    for word in options.split():
        switches = word.lstrip("-")
        for position, letter in enumerate(switches):
            if letter == "d":
                return True
            if letter in "Mm":
                if not switches[position + 1 :].lstrip("-").startswith("lib="):
                    return True
                break  # (`-Mlib=/abs`: the words after it still count, review DL3)
            if letter not in "CDTUWtwsv0123456789":
                break
    return False


def _perl_include_dirs(options: str) -> list[str]:
    """The folders `PERL5OPT` puts first on perl's path: `-I` options (`-Ilib`, `-I lib`,
    `Ilib` without its dash, after other switches `-wIlib`) and the `lib` module's
    (`-Mlib=lib,x`, `-mlib=./lib`: review DI4)."""
    words = options.split()
    found: list[str] = []
    for index, word in enumerate(words):
        switches = word.lstrip("-")
        for position, letter in enumerate(switches):
            rest = switches[position + 1 :]
            if letter == "I":
                found.append(rest or (words[index + 1] if index + 1 < len(words) else "."))
                break
            if letter in "Mm":
                module = rest.lstrip("-")
                if module.startswith("lib="):
                    found.extend(module[4:].split(","))
                break  # (another module: see `_perl_debugger`)
            if letter not in "CDTUWdtwsv0123456789":
                break
    return found


def _node_preloads(options: str) -> list[str]:
    """The modules `NODE_OPTIONS` makes node load before a program (`--require X`,
    `-r X`, `--import=X`, a loader, an OpenSSL configuration, which may load an engine
    library; `_` spells `-` in an option's name), a `file:` URL as its path. A value with a
    quote or a backslash (node's own quoting) is taken whole, as one relative entry."""
    if '"' in options or "\\" in options:
        return [options]
    words = options.split()
    found: list[str] = []
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name.replace("_", "-") not in _NODE_PRELOADS:
            continue
        if not equals:
            value = words[index + 1] if index + 1 < len(words) else ""
        if value.startswith("file:"):
            value = urllib.parse.unquote(value.removeprefix("file:").removeprefix("//"))
        elif re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", value):
            continue  # (`data:`, `node:`: no file)
        if value:
            found.append(value)
    return found


_NODE_MODULE_SUFFIXES: Final = (".js", ".cjs", ".mjs", ".json", ".node")
_NODE_PRELOADS: Final = frozenset(
    {"-r", "--require", "--import", "--loader", "--experimental-loader", "--openssl-config",
     "--snapshot-blob"}
)  # fmt: skip


def _bare_module(specifier: str) -> bool:
    """Whether node resolves a preloaded module by package name (`ts-node/register`),
    through `node_modules` folders, rather than as a path (`./x.js`, `/x.js`)."""
    return not specifier.startswith(("./", "../", "/")) and specifier not in (".", "..")


def _ruby_option_paths(options: str) -> list[str]:
    """The folders `RUBYOPT` puts first on ruby's load path (`-I lib`, `-Ilib`, `-wIlib`)
    and the files it requires by path (`-r./x`, `-r /w/x`; a name, `-rjson`, is looked
    for on the load path, whose folders are checked on their own)."""
    words = options.split()
    found: list[str] = []
    for index, word in enumerate(words):
        if not word.startswith("-") or word.startswith("--"):
            continue  # (ruby reads no option without its dash there; `--disable-gems`)
        switches = word[1:]
        for position, letter in enumerate(switches):
            rest = switches[position + 1 :]
            if letter in "Ir":
                value = rest or (words[index + 1] if index + 1 < len(words) else "")
                if letter == "I" or "/" in value or value.startswith("."):
                    found.append(value or ".")
                break
            if letter not in "dvwU":
                break  # (`-W2`, `-E enc`, `-K`: the rest is the switch's argument)
    return found


def _jvm_option_paths(options: str) -> list[str]:
    """The files a JVM option variable makes every JVM load: a Java agent or native
    agent (`-javaagent:a.jar=opts`, `-agentpath:`), class or module path entries (an empty
    one is the working folder), boot class path entries, option files (`@args`,
    `-XX:Flags=`, `-XX:VMOptionsFile=`), the programs `-XX:OnError=` runs. A value with
    a quote (the JVM's own quoting) is taken whole, as one relative entry."""
    if "'" in options or '"' in options:
        return [options]
    words = options.split()
    found: list[str] = []
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if word.startswith(("-javaagent:", "-agentpath:")):
            found.append(word.partition(":")[2].partition("=")[0])
        elif word.startswith("-Xbootclasspath"):
            found.extend(word.partition(":")[2].split(":"))
        elif word.startswith("@"):
            found.append(word[1:])
        elif word.startswith(("-XX:Flags=", "-XX:VMOptionsFile=")):
            found.append(word.partition("=")[2])
        elif word.startswith(("-XX:OnError=", "-XX:OnOutOfMemoryError=")):
            # (each command of the list, which the JVM runs with `sh -c`: `a;./evil`,
            # `a&&./evil`: reviews DQ5, DS7)
            commands = re.split(r"[;&|\n`]+|\$\(", word.partition("=")[2])
            found.extend(c.split()[0] for c in commands if c.split())
        elif _jvm_loads_class(word):
            found.append(".")  # (a class the JVM loads by name from its class path: `.`)
        elif word in _JVM_PATH_OPTIONS:
            found.extend(following.split(":"))
        elif word.partition("=")[0] in _JVM_PATH_OPTIONS:
            found.extend(word.partition("=")[2].split(":"))
    return [entry or "." for entry in found]


# JVM options whose value is a path list (those of the `java` launcher count in
# `JDK_JAVA_OPTIONS`); the system properties that set one
_JVM_PATH_OPTIONS: Final = frozenset(
    {"-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path",
     "-Djava.class.path", "-Djava.library.path", "-Djava.ext.dirs", "-Djava.endorsed.dirs",
     "-Djdk.module.path", "-Djdk.module.upgrade.path"}
)  # fmt: skip
def _jvm_loads_class(word: str) -> bool:
    """Whether a JVM option names a class the JVM loads by name (a security manager's
    `allow`, `disallow` and `default` are no class; a class loader's every name is one,
    `default` too: review DS7)."""
    name, equals, value = word.partition("=")
    if not equals or name not in _JVM_CLASS_LOADERS or not value:
        return False
    return name != "-Djava.security.manager" or value not in ("allow", "disallow", "default")


# system properties naming a class the JVM loads at start, from the class path (which
# is the working folder by default: review DQ5)
_JVM_CLASS_LOADERS: Final = frozenset(
    {"-Djava.system.class.loader", "-Djava.security.manager",
     "-Djava.rmi.server.RMIClassLoaderSpi", "-Djava.util.logging.manager",
     "-Djava.util.logging.config.class", "-Djavax.management.builder.initial"}
)  # fmt: skip
# the JDK's programs (each starts a JVM) and the scripts known to start one
_JVM_PROGRAMS: Final = frozenset(
    {"java", "javac", "javadoc", "javap", "jar", "jarsigner", "jshell", "jdeps", "jlink",
     "jmod", "jpackage", "jdeprscan", "jimage", "keytool", "jcmd", "jconsole", "jdb", "jfr",
     "jhsdb", "jinfo", "jmap", "jps", "jrunscript", "jstack", "jstat", "jstatd", "jwebserver",
     "rmiregistry", "serialver", "mvn", "mvnw", "gradle", "gradlew", "sbt", "ant", "kotlin",
     "kotlinc", "scala", "scalac", "groovy", "groovyc", "lein", "clojure", "clj"}
)  # fmt: skip
_INTERPRETER_NAME: Final = re.compile(
    r"(?P<perl>perl[0-9.]*)|(?P<node>node(?:js)?[0-9.]*|npm|npx|corepack|yarn|yarnpkg|pnpm|pnpx|pn|pnx"
    r"|tsx|ts-node(?:-esm)?)"
    r"|(?P<ruby>(?:ruby|irb|jruby)[0-9.]*|gem|bundle|bundler|rake|erb|rdoc|ri)"
)
_OPTION_FILES: Final = {
    "node-options": _node_preloads, "ruby-options": _ruby_option_paths,
    "java-options": _jvm_option_paths,
}  # fmt: skip



def _services_in(entry: str) -> str | None:
    """Where a class path entry holds code javac may load by itself: a folder with
    `META-INF/services/`, a jar (or, for `folder/*`, any jar of the folder) with such
    entries or a manifest that adds jars (`Class-Path:`); the entry when a jar cannot be
    read; None when it holds none or does not exist."""
    if entry.endswith("/*") or entry == "*":
        folder = entry[:-1] or "."
        try:
            jars = sorted(n for n in os.listdir(folder) if n.lower().endswith(".jar"))
        except OSError:
            return None
        if len(jars) > _MODULE_SCAN:
            return entry  # (more jars than are looked through: one may hold a service)
        for name in jars:
            found = _services_in(os.path.join(folder, name))
            if found is not None:
                return found
        return None
    if os.path.isdir(entry):
        services = os.path.join(entry, "META-INF", "services")
        return services if _lexists(services) else None
    if not _lexists(entry):
        return None
    try:
        with zipfile.ZipFile(entry) as archive:
            # (names compared without case, as a jar's reader may: review DS5)
            for name in archive.namelist():
                folded = name.lower()
                if folded.startswith("meta-inf/services/"):
                    return entry
                if folded == "meta-inf/manifest.mf":
                    if archive.getinfo(name).file_size > _MAX_MANIFEST:
                        return entry  # (a manifest too large to read: review DT8)
                    if _MANIFEST_CLASS_PATH.search(archive.read(name)):
                        return entry
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError, KeyError):
        return entry  # (javac may read what this cannot: a service unseen)
    return None


# a jar manifest's `Class-Path:` attribute, which adds jars to the class path
_MAX_MANIFEST: Final = 1 << 20
_MANIFEST_CLASS_PATH: Final = re.compile(rb"(?i)(?:^|[\r\n])class-path[ \t]*:")


def _gem_code(folder: str) -> str | None:
    """What of a gem folder (`GEM_PATH`, `GEM_HOME`) ruby runs: the specifications it
    evaluates at start (a newer `did_you_mean` there replaces the default one) and
    rubygems' plugins. The folder when it cannot be looked in."""
    for name in ("specifications", "plugins"):
        path = os.path.join(folder, name)
        if _lexists(path):
            return path
    return None


def _loaded_from(folder: str, language: str) -> str | None:
    """What in `folder` a program of `language` may load first: a shared library (or a
    folder the loader looks in) for `native`; for `python` any module or package (a name
    a program imports may be any: review DG5, `src/yaml/` under `tomlq`), or an
    installed distribution's metadata (whose entry points `importlib.metadata` reads);
    for `perl` a module or a folder of a namespace (`File/Temp.pm`). The folder itself
    when it cannot be looked through; None when nothing (or no such folder)."""
    try:
        listing = os.scandir(folder)
    except (OSError, ValueError):
        return None
    with listing:
        try:
            for count, item in enumerate(listing):
                if count >= _MODULE_SCAN:
                    return folder
                if _loads(item, language):
                    return item.path
        except OSError:
            return folder
    return None


def _loads(item: os.DirEntry[str], language: str) -> bool:
    """Whether a folder's entry is code a program of `language` may load from it."""
    name = item.name
    if language == "native":
        return bool(_LIBRARY_NAME.search(name)) or name in _LIBRARY_SUBFOLDERS
    if language == "perl":
        return name.endswith(".pm") or name[:1].isupper()
    if language in ("node", "ruby"):
        if name.endswith(_NODE_MODULE_SUFFIXES if language == "node" else (".rb", ".so")):
            return True
        try:
            return item.is_dir()  # (a package, a namespace)
        except OSError:
            return True
    if name.endswith((*_MODULE_SUFFIXES, ".pyd", ".dist-info", ".egg-info", ".egg-link")):
        return True
    try:
        directory = item.is_dir()
    except OSError:
        return True
    return directory and (
        _lexists(os.path.join(item.path, "__init__.py"))
        or _lexists(os.path.join(item.path, "__init__.pyc"))
    )


def _script_interpreter(path: str, follow: _Follower, depth: int = 0) -> str | None:
    """The name of the interpreter a script's `#!` line runs (`#!/usr/bin/python3` and
    `#!/usr/bin/env python3` → `python3`), or None (a binary, no such file); of a shell
    script, what `_wrapper_interpreter` finds it runs (`depth`: the wrapper scripts
    followed to reach it)."""
    words = _shebang(path)
    if not words:
        return None
    name = words[0].rpartition("/")[2]
    if name == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        name = rest[0].rpartition("/")[2] if rest else ""
        if not name:
            return None
    if name in ("sh", "bash", "dash", "zsh", "ksh"):
        # (pip's shell start for a path with a blank: review DK3; a wrapper that execs
        # the program: gcloud's, a Nix or distribution wrapper of npm, DQ14)
        return _wrapper_interpreter(path, follow, depth) or name
    runner = name in _COMMAND_RUNNERS or (
        bool(name) and follow.engine.rules.policy.runners.find([name])[0] > 0
    )
    if runner and not _names_language(name):
        # `#!/usr/bin/nice node`, `#!/usr/bin/env -S timeout 5 node`: the interpreter
        # its words name, else the program the analyser's wrapper table finds it runs
        # (`#!/usr/bin/nice cat`), else one not known (`#!/usr/bin/setpriv … /opt/x`)
        # (review DX6)
        for word in words[1:]:
            one = word.rpartition("/")[2]
            if _names_language(one):
                return one
        start = next(i for i, w in enumerate(words) if w.rpartition("/")[2] == name)
        line = parse_command(" ".join(shlex.quote(w) for w in words[start:]))
        segment = line.segments[0] if len(line.segments) == 1 else None
        wrapped = segment.wrapped if segment is not None else None
        inner = wrapped.words[0].value if wrapped and wrapped.words and not wrapped.opaque else None
        return inner.rpartition("/")[2] if inner else UNKNOWN_PROGRAM
    return name


# the variables that name a program's configuration file, which may name a program for
# it to run (review DG3)
_CONFIG_VARIABLES: Final = {
    "rg": ("RIPGREP_CONFIG_PATH",), "bat": ("BAT_CONFIG_PATH",), "batcat": ("BAT_CONFIG_PATH",),
}  # fmt: skip
# less and the scripts that run it, which run the preprocessor of LESSOPEN (review DD1)
_LESS_NAMES: Final = frozenset({"less", "zless", "bzless", "xzless", "lzless", "zstdless"})


def _preprocessor_program(command: str) -> str | None:
    """The program a `LESSOPEN`/`LESSCLOSE` value runs (`| /usr/bin/lesspipe %s` →
    `/usr/bin/lesspipe`), or None when it cannot be read as a plain command."""
    text = command.lstrip("|-").lstrip("|").strip()
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    if not words or any(c in text for c in ";&`$<>()\n"):
        return None
    return words[0]


# programs that derive where they look for documentation from PATH (review AN2)
_PATH_DOC_READERS: Final = frozenset(
    {"man", "apropos", "whatis", "info", "pinfo", "manpath", "lexgrog", "catman", "mandb"}
)
# programs that an allowed program runs by PATH: tar's and the z-tools' compressors,
# file's (`-z`); a workspace PATH entry holding one of them runs the repository's
# `gzip` under `tar -tzf x.tgz` (review AW2)
_COMPRESSORS: Final = ("gzip", "gunzip", "bzip2", "xz", "lzma", "zstd", "lzip", "lzop",
                       "compress", "uncompress", "brotli", "lz4")  # fmt: skip
_PATH_HELPERS: Final = {
    **dict.fromkeys(("tar", "gtar", "bsdtar", "file"), _COMPRESSORS),
    **dict.fromkeys(
        ("zgrep", "zegrep", "zfgrep", "zcat", "zless", "zmore", "zdiff", "zcmp", "zforce",
         "znew", "gzexe"),
        ("gzip",),
    ),
    **dict.fromkeys(("bzgrep", "bzegrep", "bzfgrep", "bzcat", "bzless", "bzmore", "bzdiff"),
                    ("bzip2",)),
    **dict.fromkeys(("xzgrep", "xzegrep", "xzfgrep", "xzcat", "xzless", "xzmore", "xzdiff",
                     "lzgrep", "lzcat", "lzless", "lzmore", "lzdiff"), ("xz",)),
    **dict.fromkeys(("zstdgrep", "zstdless", "zstdcat"), ("zstd",)),
    # found by running the allowed lines under strace (review BE3): GNU sdiff and diff3
    # exec `diff`, ag popens `git config`, the Python yq tools run `jq`, fd's
    # `--list-details` runs `ls`
    **dict.fromkeys(("sdiff", "diff3"), ("diff",)),
    "ag": ("git",),
    **dict.fromkeys(("tomlq", "xq", "yq"), ("jq",)),
    **dict.fromkeys(("fd", "fdfind"), ("ls",)),
}  # fmt: skip
# a translated string `$"…"` (bash removes a `\⏎` between `$` and `"` first)
_TRANSLATED: Final = re.compile(r'\$(?:\\\n)*"')
# problems where the analyser read part of a line otherwise than bash: its pieces are
# then also read on their own (`recover`)
# (a syntax error too: tree-sitter's error recovery may have misread the text around
# it, `ls > !(x); cat $'.env'` read `$'.env'` as an expansion: review AZ7)
# Not a substitution the analyser knows of but did not read (``${x-`cat .env`}``, AZ4):
# that safety net ignores quoting, and reading its line piecewise denied literal text
# (`git commit -m 'explain $(cat .env)'`, a heredoc writing `\$(…)` into a script:
# review BB1, BB2); such a line asks, as before
_MISREAD: Final = frozenset({"shell.syntax-mismatch", "shell.word-mismatch", "shell.syntax-error"})
# programs that are shell scripts running other programs by PATH (review BA2)
_PATH_SCRIPTS: Final = frozenset(
    {"zgrep", "zegrep", "zfgrep", "zcat", "zless", "zmore", "zdiff", "zcmp", "zforce",
     "znew", "gzexe", "gunzip", "uncompress", "bzgrep", "bzegrep", "bzfgrep",
     "bzless", "bzmore", "bzdiff", "bzcmp", "xzgrep", "xzegrep", "xzfgrep", "xzless",
     "xzmore", "xzdiff", "xzcmp", "lzgrep", "lzegrep", "lzfgrep", "lzless", "lzmore",
     "lzdiff", "lzcmp", "zstdgrep", "zstdless", "lesspipe", "lessfile", "ldd",
     "egrep", "fgrep"}
)  # fmt: skip
_SCRIPT_SCAN: Final = 256  # entries of a PATH folder looked at for any program
_HELPER_SCAN: Final = 65_536  # entries of a PATH folder looked through for `git-*` helpers
# wrappers after which bash, not a program, runs the command (a builtin stays one)
_BUILTIN_RUNNERS: Final = frozenset({"command", "builtin"})


def _physical_entry(entry: str, lexical: str) -> tuple[str, bool]:
    """Where the absolute PATH entry `entry` (whose normal form is `lexical`) leads,
    links followed, and whether that depends on the process looking (see
    `paths.physical`); itself, not through /proc, where it cannot be resolved."""
    if "/.." not in entry and not lexical.startswith(("/proc/", "/dev/")):
        fixed = paths.fixed_entry(lexical)
        if fixed is not None:
            return fixed, False  # (`/usr/bin` for a user: only root can change it)
        # the usual entry: the kernel's name for it is the one written, so no link on
        # its way (to /proc or elsewhere) was followed; three system calls
        found = paths.kernel_real(entry)
        if found == lexical:
            paths.note_fixed(lexical, found)
            return found, False
        if found is not None and _plain_link(lexical, found):
            paths.note_fixed(lexical, found, os.path.dirname(lexical))
            return found, False
    try:
        return paths.physical(entry, lexical)
    except paths.Unresolvable:
        return os.path.realpath(entry), False
    except (OSError, ValueError):
        return lexical, False


def _plain_link(lexical: str, found: str) -> bool:
    """Whether the entry `lexical`, which the kernel resolves to `found`, is itself a
    link (`/bin -> usr/bin`, usrmerge's) in a folder with no link on its way, to a
    place with none on its way either: then nothing on the way was /proc's (a walk
    component by component costs 9 µs)."""
    try:
        target = os.readlink(lexical)
    except (OSError, ValueError):
        return False  # not a link itself: a folder above it is
    parent = os.path.dirname(lexical)
    joined = os.path.normpath(os.path.join(parent, target))
    if ".." in target.split("/") or joined.startswith(("/proc/", "/dev/")) or joined != found:
        return False
    return parent == "/" or paths.kernel_real(parent) == parent


@functools.lru_cache(maxsize=256)
def _normal_entry(entry: str) -> str:
    """`os.path.normpath` of a PATH entry, kept: the same few entries come on every line."""
    return os.path.normpath(entry)


@functools.lru_cache(maxsize=64)
def _looked_up_entries(path: str, home: str, oldpwd: str) -> tuple[str, ...]:
    """PATH's entries (see `_path_list`): each `~` entry as it is, then as bash expands it
    (its lookup's `bash_tilde_expand` of a leading `~`) where it does."""
    if "~" not in path:
        return tuple(path.split(":"))
    found: list[str] = []
    for entry in path.split(":"):
        found.append(entry)
        if entry.startswith("~"):
            expanded = _tilde_entry(entry, home, oldpwd)
            if expanded is not None:
                found.append(expanded)
    return tuple(found)


def _tilde_entry(entry: str, home: str, oldpwd: str) -> str | None:
    """What bash makes of the PATH entry `entry` that starts with `~` when it looks up a
    command (checked with bash 5.2): `~` is HOME, `~user` that user's home, `~+` and
    `~0` the working folder (`.`), `~-` OLDPWD; None where it stays as written (an unknown
    user, an unset OLDPWD, a place on the empty folder stack: `~1`)."""
    prefix, slash, rest = entry[1:].partition("/")
    base: str | None
    if prefix == "":
        base = home
    elif prefix in ("+", "0", "+0", "-0"):
        base = "."
    elif prefix == "-":
        base = oldpwd or None
    elif prefix[0] in "+-" or prefix.isdigit():
        base = None
    else:
        base = _user_home(prefix)
    return None if base is None else base + slash + rest


def _user_home(user: str) -> str | None:
    """The home folder of `user` in the password database, or None."""
    try:
        import pwd  # (POSIX only)

        return pwd.getpwnam(user).pw_dir
    except (ImportError, KeyError, ValueError):
        return None


def _env_interpreter(path: str) -> str | None:
    """The program a script's `#!/usr/bin/env [-S] NAME` line runs by PATH, or None."""
    words = _shebang(path)
    if not words or words[0].rpartition("/")[2] != "env":
        return None
    rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    return rest[0] if rest else None


def _wrapper_interpreter(path: str, follow: _Follower, depth: int = 0) -> str | None:
    """The interpreter a `#!/bin/sh` script hands itself to: Python for a program started
    through the shell, as pip and uv write them where the interpreter's path has a blank
    or is too long for `#!`, or a wrapper that ends by `exec`ing Python (gcloud's `exec
    "$CLOUDSDK_PYTHON" … lib/gcloud.py`); the program another wrapper runs, by name
    (`exec /usr/bin/npm "$@"` → `npm`, a node program), or what a script it runs or
    sources runs in turn (`exec ./other-wrapper`, `. "$(dirname "$0")/lib.sh"`), or the
    program a version manager runs (`exec asdf exec node`, `mise x -- node`); and
    `UNKNOWN_PROGRAM` for one that runs a program a variable names (`"$NODE" cli.js`), a
    version manager's program that is no interpreter (asdf's shims: `asdf exec "tsc"`),
    or a chain of scripts too deep or unreadable to follow (review DW6); None for other
    scripts."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    steps = _wrapper_steps_of(path, paths.file_version(info))
    found: dict[str, str] = {}  # (the first interpreter of each language)
    for kind, text in steps:
        if kind == _STEP_RUNS:
            one: str | None = text
        elif kind == _STEP_COMMAND:
            # a runner of the policy's table (`runner NAME`, `perf stat`) runs a command
            # its words give, which is not modelled here: one not known (review DX6)
            values = [v or None for v in text.split("\0")]
            one = UNKNOWN_PROGRAM if follow.engine.rules.policy.runners.find(values)[0] else None
        else:
            one = _followed(text, kind == _STEP_SOURCES, follow, depth + 1)
        if one == UNKNOWN_PROGRAM:
            return one
        if one is not None:
            found.setdefault(_language_of(one), one)
    if len(found) > 1:
        return UNKNOWN_PROGRAM  # (`python3 setup.py; exec node …`: each language's)
    return next(iter(found.values()), None)


# what `_wrapper_interpreter` answers for a wrapper that runs a program a variable names:
# any language's load paths count for it (review DT9)
UNKNOWN_PROGRAM: Final = "?"
# the wrapper scripts followed from the program to the one that runs an interpreter
# (`tsc` → `exec ./bin/tsc-real` → `exec node …`), and the files looked at for one
# program; past either, the wrapper counts as every language's (review DW6)
_WRAPPER_DEPTH: Final = 4
_WRAPPER_FILES: Final = 48
# what a wrapper's command does to its language: runs the interpreter named (or
# `UNKNOWN_PROGRAM`), runs the program a path or name leads to, or sources a file
_STEP_RUNS: Final = "runs"
_STEP_FILE: Final = "file"
_STEP_SOURCES: Final = "sources"
_STEP_COMMAND: Final = "command"  # (a program's words, `\0`-joined: a runner's, maybe)
# version managers and their commands that run a program of the version they choose
# (`asdf exec node`, asdf's shims; `mise x -- node`, `rbenv exec "$program"`), and those
# that run whatever they are set up to (`mise run TASK`) (review DW6)
_VERSION_MANAGERS: Final = {
    **dict.fromkeys(("asdf", "rbenv", "pyenv", "nodenv", "plenv", "jenv", "goenv", "phpenv",
                     "luaenv", "scalaenv", "sbtenv"), ("exec",)),
    **dict.fromkeys(("mise", "rtx"), ("exec", "x")),
}  # fmt: skip
_VERSION_MANAGER_RUNNERS: Final = frozenset({"env", "run", "r", "watch", "w", "shell"})
# a wrapper's word that names a file in the script's own folder: `"$(dirname "$0")/x"`,
# `"$(dirname -- "$0")"/x`, `"${0%/*}/x"`
_SCRIPT_FOLDER_WORD: Final = re.compile(
    r"""["']?(?:\$\(dirname (?:-- )?"?\$0"?\)|\$\{0%/\*\})["']?/["']?([\w.+-]+)["']?"""
)


class _Follower:
    """What following a wrapper's scripts needs: where a program word leads from the
    line's working folder and PATH, and how many more files may be looked at."""

    def __init__(self, engine: _Walk, cwd: paths.Cwd) -> None:
        self.engine = engine
        self.cwd = cwd
        self.left = _WRAPPER_FILES

    def locate(self, program: str) -> str | None:
        """The file `program` runs (a relative path from the working folder, a name by
        PATH), None where PATH finds none, `UNKNOWN_PROGRAM` where the working folder
        is not known."""
        if program.startswith("/"):
            return program
        if "/" in program:
            if not self.cwd.known or len(self.cwd.candidates) != 1:
                return UNKNOWN_PROGRAM
            return os.path.join(min(self.cwd.candidates), program)
        if "PATH" not in self.engine.ctx.env:  # (an empty one is the working folder: GQ4)
            return None
        found = self.engine._first_on_path(program, self.cwd)
        return found[0] if found is not None else None


def _followed(program: str, sourced: bool, follow: _Follower, depth: int) -> str | None:
    """What a wrapper's program (or the file it sources) runs, as `_wrapper_interpreter`
    tells: an interpreter's name or `UNKNOWN_PROGRAM`; None for a program of no language
    and one that is not there (it does not run)."""
    place = follow.locate(program)
    if place is None:
        return None
    if place == UNKNOWN_PROGRAM:
        return UNKNOWN_PROGRAM
    try:
        os.stat(place)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError):
        return UNKNOWN_PROGRAM
    follow.left -= 1
    if depth > _WRAPPER_DEPTH or follow.left < 0 or not os.access(place, os.R_OK):
        return UNKNOWN_PROGRAM  # (fails closed, as `exec "$@"` does)
    if sourced:
        return _wrapper_interpreter(place, follow, depth)
    found = _script_interpreter(place, follow, depth)
    return found if found is not None and _names_language(found) else None


def _language_of(name: str) -> str:
    """The language of an interpreter's name `_names_language` accepts (`npm` → node)."""
    if is_python(name):
        return "python"
    if name in _JVM_PROGRAMS:
        return "java"
    named = _INTERPRETER_NAME.fullmatch(name)
    return named.lastgroup or name if named is not None else name


def _names_language(name: str) -> bool:
    """Whether `name` is an interpreter's whose load paths `_script_language` knows (or
    `UNKNOWN_PROGRAM`)."""
    return (
        name == UNKNOWN_PROGRAM
        or is_python(name)
        or _INTERPRETER_NAME.fullmatch(name) is not None
        or name in _JVM_PROGRAMS
    )


@functools.lru_cache(maxsize=128)
def _wrapper_steps_of(path: str, _version: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
    """What each command of the wrapper script `path` does to its language (`_STEP_…`),
    for one version of the file (the key changes with it)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_WRAPPER_SCAN)
    except OSError:
        return ((_STEP_RUNS, UNKNOWN_PROGRAM),)
    if _TRAMPOLINE.search(head[:512]) or _PYTHON_EXEC.search(head):
        # (and what else its `exec` lines name: `exec python3 -c "os.execvp('node', …)"`
        # runs node too: review DX6)
        lines = _EXEC_LINE.findall(head.decode("utf-8", "replace"))
        named = _named_interpreters(lines)
        return ((_STEP_RUNS, "python3"), *((_STEP_RUNS, name) for name in named))
    if len(head) == _WRAPPER_SCAN:
        head = head[: head.rfind(b"\n") + 1]  # (no line cut in two)
    return tuple(_wrapper_steps(head.decode("utf-8", "replace"), os.path.dirname(path)))


def _wrapper_steps(script: str, folder: str) -> list[tuple[str, str]]:
    """What each simple command of a shell script in `folder` does to its language, as
    the shell reads them: after `&&`, `||`, `then`, `!`, assignments, `command` and `exec`
    with its options (`exec -a NAME -c prog`) (review DT9: `_EXEC_PROGRAM`'s first word
    of a line missed them), and through the wrappers the analyser sees through (`exec env
    node`, `nice node`, `/usr/bin/env node`, `timeout 5 node`: review DW6); a wrapper
    whose program cannot be seen (`exec "$@"`, `eval …`, `env -S "$X"`) runs
    `UNKNOWN_PROGRAM`. The script's own functions and the shell's builtins run no
    program."""
    analysed = parse_command(script)
    functions = {
        s.name for s in analysed.segments if s.kind is SegmentKind.FUNCTION_DEF and s.name
    }
    steps: list[tuple[str, str]] = []
    for segment in analysed.segments:
        if segment.kind is not SegmentKind.SIMPLE:
            continue
        wrapped = segment.wrapped
        if wrapped is not None and (wrapped.opaque or not wrapped.words):
            # (`exec "$(dirname "$0")/x"`: a file beside the script)
            own = (
                _past_exec_options(list(segment.words[1:]))
                if all(use.name == "exec" for use in wrapped.chain)
                else []
            )
            place = _in_script_folder(own[0].text, folder) if own else None
            steps.append((_STEP_FILE, place) if place else (_STEP_RUNS, UNKNOWN_PROGRAM))
            continue
        words = list(run_words(segment.command_words))
        if words and words[0].value == "exec":
            words = _past_exec_options(words[1:])
        step = _wrapper_step(words, folder, functions) if words else None
        if step is not None:
            steps.append(step)
            if step[0] == _STEP_FILE:
                steps.append(_command_step(words))
        if step is not None or (
            words and words[0].value not in _SHELL_BUILTINS and words[0].value not in functions
        ):
            # a program that runs another named among its words or in a code string
            # (`setpriv … node`, `script -c "node …"`, `perl -e "exec q(node)"`), each
            # such name counts (review DX6)
            named = _named_interpreters([w.value for w in words[1:]])
            steps.extend((_STEP_RUNS, name) for name in named)
    return steps


def _named_interpreters(values: Sequence[str | None]) -> list[str]:
    """The interpreters' names (`_names_language`) among a command's words' `values` and
    the words of its literal strings (`-c "node x.js"`, `--runtime=node`)."""
    found: list[str] = []
    for value in values:
        if value is None:
            continue
        for token in _CODE_TOKEN.split(value):
            name = token.rpartition("/")[2]
            if name and name != UNKNOWN_PROGRAM and _names_language(name):
                found.append(name)
    return list(dict.fromkeys(found))


# what splits a word into the names it may run (`-c "exec node x"`, `q(node)`, `=node`)
_CODE_TOKEN: Final = re.compile(r"[\s'\"(),;`|&<>={}\[\]]+")
# programs that run a command given as their arguments (in their own syntax: `setpriv
# --reuid=0 CMD`, `script -c STRING`, `gdb --args CMD`, `sg GROUP -c STRING`), whose
# inner command a wrapper script's reading does not model: when none of their words
# names an interpreter, they run one not known (review DX6)
_COMMAND_RUNNERS: Final = frozenset(
    {"setpriv", "script", "unshare", "strace", "ltrace", "gdb", "lldb", "bwrap", "nsenter",
     "perf", "prlimit", "sg", "newgrp", "linux32", "linux64", "setarch", "arch", "i386",
     "x86_64", "caffeinate", "valgrind", "faketime", "proxychains", "proxychains4",
     "torsocks", "tsocks", "firejail", "systemd-run", "catchsegv", "runuser", "su", "sudo",
     "doas", "pkexec", "tini", "dumb-init", "entr", "numactl", "trickle", "rlwrap",
     "nocache", "eatmydata", "chpst", "daemonize", "chrt", "ionice", "taskset", "flock",
     "watch", "xargs", "chroot", "setsid", "cgexec", "systemd-inhibit", "unbuffer",
     "sandbox-exec", "fakeroot", "fakechroot", "setuidgid", "softlimit", "runcon",
     "dbus-run-session", "xvfb-run", "rr", "heaptrack", "hyperfine", "busybox", "nice",
     "nohup", "timeout", "stdbuf", "env", "time", "ssh-agent", "mpirun", "srun", "parallel",
     "with-contenv", "s6-setuidgid", "gosu", "su-exec", "capsh", "setcap", "ld.so",
     "ld-linux.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}
)  # fmt: skip


def _wrapper_step(words: list[Word], folder: str, functions: set[str]) -> tuple[str, str] | None:
    """What the command `words` of a wrapper script in `folder` does to its language."""
    first = words[0]
    if first.value is None:
        place = _in_script_folder(first.text, folder)
        return (_STEP_FILE, place) if place else (_STEP_RUNS, UNKNOWN_PROGRAM)
    name = first.value.rpartition("/")[2]
    if _names_language(name):
        return _STEP_RUNS, name
    if first.value in (".", "source"):
        operand = words[1] if len(words) > 1 else None
        if operand is None:
            return None
        place = operand.value if operand.value is not None else None
        if place is None:
            place = _in_script_folder(operand.text, folder)
        if place is None or "/" not in place:
            # (a variable's file, `. "$NVM_DIR/nvm.sh"`; a name bash looks for in PATH,
            # then in the working folder)
            return _STEP_RUNS, UNKNOWN_PROGRAM
        return _STEP_SOURCES, place
    if name in _VERSION_MANAGERS:
        return _managed_program(name, words[1:])
    if "/" not in first.value and (first.value in _SHELL_BUILTINS or first.value in functions):
        return None
    if name in _COMMAND_RUNNERS:
        # (what it runs: an interpreter its words name, counted by `_wrapper_steps`, or
        # one not known: `exec setpriv --reuid=0 "$@"`)
        named = _named_interpreters([w.value for w in words[1:]])
        return (_STEP_RUNS, UNKNOWN_PROGRAM) if not named else None
    return _STEP_FILE, first.value


def _command_step(words: Sequence[Word]) -> tuple[str, str]:
    """A step that holds a program's words, for the policy's runner table to judge."""
    return _STEP_COMMAND, "\0".join(w.value or "" for w in words)


def _managed_program(manager: str, words: list[Word]) -> tuple[str, str] | None:
    """What a version manager's command runs (`asdf exec node` → `node`; `asdf exec
    "tsc"`, a program the version it picks holds, and `mise x` without `--` →
    `UNKNOWN_PROGRAM`); None for one that runs no program (`asdf current`)."""
    command = words[0].value if words else None
    if command in _VERSION_MANAGER_RUNNERS or (words and command is None):
        return _STEP_RUNS, UNKNOWN_PROGRAM
    if command not in _VERSION_MANAGERS[manager]:
        return None
    rest = words[1:]
    if manager in ("mise", "rtx"):
        values = [w.value for w in rest]
        if "--" not in values:
            return _STEP_RUNS, UNKNOWN_PROGRAM  # (`mise x node@20`: a tool, not a program)
        rest = rest[values.index("--") + 1 :]
    program = rest[0].value if rest else None
    if program is None or program.startswith("-"):
        return _STEP_RUNS, UNKNOWN_PROGRAM
    name = program.rpartition("/")[2]
    return _STEP_RUNS, name if _names_language(name) else UNKNOWN_PROGRAM


def _in_script_folder(text: str, folder: str) -> str | None:
    """The file a word naming one beside the script names (`"$(dirname "$0")/x"`), or
    None for another word."""
    match = _SCRIPT_FOLDER_WORD.fullmatch(text)
    return None if match is None else os.path.join(folder, match.group(1))


def _past_exec_options(words: list[Word]) -> list[Word]:
    """The words after `exec`'s options (`-a NAME`, `-c`, `-l`, `-cl`, `--`)."""
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None or not value.startswith("-") or value == "-":
            break
        index += 1
        if value == "--":
            break
        if value.endswith("a"):
            index += 1  # (`-a NAME`, `-cla NAME`)
    return words[index:]


def _shebang(path: str) -> tuple[str, ...] | None:
    """The words of a script's `#!` line, or None (a binary, no such file)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return _shebang_of(path, paths.file_version(info))


@functools.lru_cache(maxsize=256)
def _shebang_of(path: str, _version: tuple[int, ...]) -> tuple[str, ...] | None:
    """`_shebang` for one version of the file (the key changes with it)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    return tuple(head[2:].split(b"\n", 1)[0].decode("latin-1").split())


def _login_shell(segment: Segment) -> str | None:
    """The name of a shell of the segment's wrapper chain started as a login shell (`-l`,
    `--login`, `-lc`, after `-o VALUE` too), or one that `exec -l` starts (its argv[0]
    gets a `-`), or None (reviews BE6, BH2, BH3)."""
    wrapped = segment.wrapped
    if wrapped is None:
        return None
    login_exec = False
    for use in wrapped.chain:
        if use.name == "exec" and any(_short_flag(w.value, "l") for w in use.words[1:]):
            login_exec = True
            continue
        if use.kind != "shell":
            continue
        if login_exec:
            return use.name
        words = use.words[1:]
        index = 0
        bundled = False
        while index < len(words):
            value = words[index].value
            index += 1
            if value is None:
                continue
            single_long = value in BASH_SINGLE_DASH_LONG and not bundled
            if value in ("--login", "-login") and (value == "--login" or single_long):
                return use.name
            if not single_long and _short_flag(value, "l"):
                return use.name
            if single_long and value not in _SHELL_VALUED:
                continue  # (`-norc`: one long option, no bundle of letters: review EV2)
            if single_long:
                index += 1  # `-rcfile FILE`
                continue
            if value[:1] in "-+" and not value.startswith("--"):
                bundled = True  # (long options after one dash end there: review EW1)
            if value in _SHELL_VALUED:
                index += 1  # `-o errexit`, `--rcfile FILE`: the next word is a value
            elif value[:1] in "-+" and not value.startswith("--"):
                # bash gives each `o`/`O` of a bundle the next word in turn, and reads the
                # letters after it too (`-oe pipefail -lc`: review EM2)
                index += sum(1 for letter in value[1:] if letter in "oO")
            elif not value.startswith(("-", "+")):
                break  # the code string or a script: the shell's options end there
    return None


_SHELL_VALUED: Final = frozenset(
    {"--rcfile", "--init-file", "-rcfile", "-init-file", "-o", "+o", "-O", "+O"}
)
# what a login shell sources before its command: bash the first of `~/.bash_profile`,
# `~/.bash_login`, `~/.profile` (and Debian's `.profile` sources `~/.bashrc`), dash and
# POSIX sh `~/.profile`, both `/etc/profile` first (review EM3)
_LOGIN_FILES: Final = (
    "/etc/profile", "/etc/bash.bashrc", "~/.bash_profile", "~/.bash_login", "~/.profile",
    "~/.bashrc",
)  # fmt: skip


def _short_flag(value: str | None, letter: str) -> bool:
    """Whether `value` is a bundle of short options holding `letter` (`-lc`, `-cl`)."""
    return (
        value is not None
        and value.startswith("-")
        and not value.startswith("--")
        and letter in value[1:]
    )


def _path_names(segment: Segment, found: SegmentRules) -> dict[str, bool]:
    """Every program name a simple command may run by PATH, and whether a program execs
    it (True) rather than bash (False): the command's own name, each wrapper of its chain
    (`timeout 5 nice ls` runs `nice` by PATH too), what the last wrapper runs (`echo` for
    a bare `xargs`), and the helpers of `_PATH_HELPERS` (review AW2)."""
    names: dict[str, bool] = {}
    first = segment.words[0].value if segment.words else None
    if first:
        names[first] = False
    wrapped = segment.wrapped
    if wrapped is None:
        inner_name = found.inner[0].value if found.inner else first
        execed = False
    else:
        for use in wrapped.chain[1:]:
            names.setdefault(use.name, True)
        inner_name = found.inner[0].value if found.inner else None
        # (a bare `xargs` has `echo` as its inner command: the wrapper table's default)
        execed = bool(wrapped.chain) and wrapped.chain[-1].name not in _BUILTIN_RUNNERS
    if inner_name:
        names[inner_name] = names.get(inner_name, False) or execed
        for helper in _PATH_HELPERS.get(inner_name.rpartition("/")[2], ()):
            names.setdefault(helper, True)
        for plugin in _plugin_names(inner_name.rpartition("/")[2], found.inner[1:]):
            names.setdefault(plugin, True)
    return names


def _vagrant_ssh_commands(words: Sequence[Word]) -> list[str]:
    """The commands `vagrant ssh` (`words` from its verb on) may run besides its plain
    reading (`machine_commands`): the value of `-c`/`--command` wherever it stands before
    `--` (review BW; ruby's parser takes options anywhere, after two names too: HR3, and
    in a cluster, `-pc CMD`, or abbreviated, `--comm CMD`), and after `--` the words ssh
    reads as its command once past its own options (`vagrant ssh default -- -t 'rm -rf
    ~'`: vagrant hands them to ssh, review HR2), read as `ssh HOST ARGS` reads them
    (`rules.ssh_options_end`); every start where a word there cannot be read."""
    texts: list[str] = []
    values = [w.value for w in words]
    dashes = next((i for i, v in enumerate(values) if i and v == "--"), len(values))
    for index in range(1, dashes):
        value = values[index]
        if value is None or not value.startswith("-") or value == "-":
            continue
        following = values[index + 1] if index + 1 < dashes else None
        if value.startswith("--"):
            name, equals, glued = value.partition("=")
            if len(name) > 2 and "--command".startswith(name):
                texts.append(glued if equals else following or "")
        elif "c" in value[1:]:
            glued = value[1:].partition("c")[2]
            texts.append(glued or following or "")
    if dashes < len(values):
        args = words[dashes + 1 :]
        end = ssh_options_end([w.value for w in args])
        starts = range(len(args)) if end is None else range(end, end + 1)
        for start in starts:
            inner = args[start:]
            texts.append(" ".join(w.text for w in inner if w.text))
            texts.append(" ".join(w.value if w.value is not None else w.text for w in inner))
    return texts


def _lima_line(words: Sequence[Word]) -> str:
    """The line limactl's shell runs for `words`: each leading word that holds a `=` with
    only what follows its first `=` quoted, the other words quoted (`machine_command`)."""
    parts: list[str] = []
    leading = True
    for word in words:
        value = word.value
        if value is None:
            parts.append(word.text)
            leading = False
        elif leading and "=" in value:
            name, _, rest = value.partition("=")
            parts.append(f"{name}={shlex.quote(rest)}")
        else:
            parts.append(shlex.quote(value) if value else "''")
            leading = False
    return " ".join(parts)


def _shell_joined(runner: Sequence[str], options: Sequence[str | None]) -> bool:
    """Whether an npm-family runner hands its command's words to a shell as one line
    (`_package_runner_command`): yarn berry's `exec` and `bun exec` run them in their own
    shell, and a code option (npm's `-c`/`--call`, pnpm's `-c`/`--shell-mode`) makes the
    next word shell code. npx, `npm exec` and `bun x` quote each word (review HM6: `npx
    cowsay 'a > ~/.bashrc'` prints the text). An option not read (None) may be any."""
    if runner[0] in ("yarn", "yarnpkg") or tuple(runner[:2]) == ("bun", "exec"):
        return True
    for value in options:
        # (`--shell-mode=true`, `--call=CODE`: review HP6)
        if value is None or value.startswith(("--call", "--shell-mode")):
            return True
        if value.startswith("-") and not value.startswith("--") and "c" in value:
            return True  # (`-c`, and a bundle that holds it: `-sc`)
    return False


# Windows' shells, run from WSL (`cmd.exe`, `powershell.exe`, `pwsh`: review HH6), and
# their other installed names (`pwsh-preview`, `pwsh-lts`, `powershell-preview`: review
# HM1), matched by how the name starts
_WINDOWS_SHELLS: Final = frozenset({"cmd", "powershell", "pwsh", "powershell_ise"})
_WINDOWS_SHELL_STEMS: Final = ("pwsh", "powershell")
# the names a Windows program has in WSL besides `.exe` (review HM3: `format.com`)
_WINDOWS_SUFFIXES: Final = (".exe", ".com")
# the npm-family runners (review BR1): `npx CMD`, `npm exec|x`, `yarn exec|dlx|node`,
# `pnpm exec|dlx` (pnpm 11's `pn`), `bun x|run|exec` … as the runner table names them
# the options of `lxc exec` and `incus exec` that take the next word (lxc 5, incus 6)
_INSTANCE_EXEC_VALUES: Final = frozenset({"--cwd", "--env", "--group", "--mode", "--user",
                                          "--project", "--remote"})  # fmt: skip
_PACKAGE_RUNNER_NAMES: Final = frozenset(
    {"npx", "pnpx", "pnx", "bunx", "npm", "pnpm", "pn", "yarn", "yarnpkg", "bun"}
)


def _unversioned(name: str) -> str:
    """A program's name without the version it ends with (`python3.11`, `pip3`: `python`,
    `pip`), as a Python environment's links name the interpreter they lead to."""
    return name.rstrip("0123456789.") or name


def _plugin_names(program: str, words: Sequence[Word]) -> list[str]:
    """The programs a tool that runs a verb it does not know as `TOOL-VERB` found by PATH
    (`perf foo` runs `perf-foo`, `cargo foo` `cargo-foo`, `kubectl foo bar` `kubectl-foo-bar`
    or `kubectl-foo`: review EH1, EH2) may run for these words: each literal word, and two
    or three in a row joined by `-`, after each of the tool's prefixes. Every word counts,
    not only the verb: which word is the verb depends on the tool's options; a name that
    is no verb only ever makes a workspace program of that name ask."""
    prefixes = _PLUGIN_PREFIXES.get(program)
    if prefixes is None:
        return []
    values = [w.value for w in words[:_PLUGIN_WORDS]]
    found: list[str] = []
    for start in range(len(values)):
        for end in range(start + 1, min(start + 4, len(values) + 1)):
            run = [v for v in values[start:end] if v and "/" not in v and v[0] != "-"]
            if len(run) < end - start:
                break  # (a word not known, a path or an option ends the run)
            found.extend(prefix + "-".join(run) for prefix in prefixes)
    return found


# tools that run a verb they do not know as a program found by PATH, by the names they
# look for (`git` has its own check: `_git_helpers`); `oc` is kubectl's OpenShift build
_PLUGIN_PREFIXES: Final = {
    "perf": ("perf-",), "cargo": ("cargo-",), "kubectl": ("kubectl-",),
    "oc": ("oc-", "kubectl-"), "dotnet": ("dotnet-",), "brew": ("brew-",),
    "cabal": ("cabal-",), "opam": ("opam-",), "bundle": ("bundler-",), "bundler": ("bundler-",),
}  # fmt: skip
_PLUGIN_WORDS: Final = 16  # the words after the tool looked at for a verb
# names bash runs itself, whatever PATH holds
_SHELL_BUILTINS: Final = frozenset(
    {"cd", "echo", "printf", "test", "[", "[[", "true", "false", "pwd", "read", "export",
     "set", "unset", "type", "command", "builtin", "exit", "return", "source", ".", "eval",
     "exec", "alias", "unalias", "declare", "local", "readonly", "shift", "trap", "wait",
     "jobs", "fg", "bg", "kill", "let", "ulimit", "umask", "hash", "getopts", "shopt",
     "mapfile", "readarray", "pushd", "popd", "dirs", "times", "enable", "help", ":"}
)  # fmt: skip
# programs that write files named by a prefix they are given and a suffix they add
_PREFIX_WRITERS: Final = frozenset({"split", "csplit", "gsplit", "gcsplit"})
# runners whose own options `_Walk.runner_own_options` reads under an approval
_RUNNER_OWN_OPTIONS: Final = frozenset({"strace", "ltrace", "valgrind", "lima"})
# the options grunt-cli 1.5.0 (grunt-known-options, liftup's `--require`) and gulp-cli
# (2.x and 3.x) read as their own: any other word starting with `-` on their line may be a
# node flag their launcher (liftup, Liftoff with v8flags and flagged-respawn) restarts node
# with, past any `--` (review IE3)
_GRUNT_OPTIONS: Final = frozenset(
    {"-b", "--base", "--gruntfile", "--tasks", "--npm", "--completion", "-p", "--preload",
     "--require", "-h", "--help", "-d", "--debug", "-f", "--force", "-v", "--verbose", "-V",
     "--version", "--stack", "--color", "--no-color", "--write", "--no-write"}
)  # fmt: skip
_GULP_OPTIONS: Final = frozenset(
    {"-h", "--help", "-v", "--version", "--require", "--preload", "--gulpfile", "-f",
     "--cwd", "--verify", "-T", "--tasks", "--tasks-simple", "--tasks-json", "--depth",
     "--compact-tasks", "--sort-tasks", "--color", "--no-color", "-S", "--silent",
     "--continue", "--series", "-L", "-LL", "-LLL", "-LLLL", "--log-level"}
)  # fmt: skip
_TASK_RUNNER_OPTIONS: Final = {"grunt": _GRUNT_OPTIONS, "gulp": _GULP_OPTIONS}
# the task runners that copy a `NAME=VALUE` operand into the environment of the programs
# their tasks run (jake 10.9.4, review IE5; rake sets `ENV[NAME]` the same way)
_ENV_OPERAND_RUNNERS: Final = frozenset({"jake", "rake"})


def _unknown_runner_option(word: str, known: frozenset[str]) -> bool:
    """Whether `word` starts with `-` and is none of the options `known` (a name before a
    glued `=VALUE`, or a bundle of their one-letter flags: `-vf`)."""
    if not word.startswith("-") or word in ("-", "--"):
        return False
    name = word.partition("=")[0]
    if name in known:
        return False
    letters = word[1:]
    return not (
        not word.startswith("--")
        and letters.isalpha()
        and all(f"-{letter}" in known for letter in letters)
    )
# lima's options (and the variables its script reads) that move its command: another
# folder (where relative names are not the ones judged), another shell, a copy of the
# folder synced back (review BH-VM)
_LIMA_MOVES: Final = frozenset({"--workdir", "--shell", "--sync"})
_LIMA_VARIABLES: Final = ("LIMA_WORKDIR", "LIMA_SHELL")


def _lima_reach(values: Sequence[str | None], env: Mapping[str, str]) -> str | None:
    """Why an approved `lima`'s own options take its command elsewhere (review BH-VM), or
    None: `--workdir`, `--shell`, `--sync` before the command, a word there that cannot
    be read, or `LIMA_WORKDIR`/`LIMA_SHELL` set."""
    for name in _LIMA_VARIABLES:
        if env.get(name, "").strip():
            return f"`{name}` is set, which moves the command it runs"
    for value in values:
        if value is None:
            return "a word before its command cannot be read (it may be an option)"
        if value == "--" or not value.startswith("-"):
            return None
        if value.partition("=")[0] in _LIMA_MOVES:
            return (
                f"`{short(value)}` runs its command in another folder, through another "
                "shell or on a copy of the folder"
            )
    return None
# valgrind's options that name a file it writes (`%p` its process's number)
_VALGRIND_WRITTEN: Final = frozenset(
    {"--log-file", "--xml-file", "--xtree-leak-file", "--xtree-memory-file", "--vgdb-prefix",
     "--massif-out-file", "--callgrind-out-file", "--cachegrind-out-file", "--dhat-out-file",
     "--bb-out-file", "--pc-out-file"}
)  # fmt: skip
# the files valgrind's tools write in the working folder with no option, named by the
# process's number (`massif.out.<pid>`: review EE5), each with the option that names
# another file instead
_VALGRIND_TOOL_FILES: Final = {
    "massif": (("--massif-out-file", "massif.out."),),
    "callgrind": (("--callgrind-out-file", "callgrind.out."),),
    "cachegrind": (("--cachegrind-out-file", "cachegrind.out."),),
    "dhat": (("--dhat-out-file", "dhat.out."),),
    "exp-dhat": (("--dhat-out-file", "dhat.out."),),
    "exp-bbv": (("--bb-out-file", "bb.out."), ("--pc-out-file", "pc.out.")),
}
# (the xtree files of memcheck, helgrind and massif, by their options' values)
_VALGRIND_XTREE: Final = (
    ("--xtree-memory", "--xtree-memory-file", "xtmemory.kcg."),
    ("--xtree-leak", "--xtree-leak-file", "xtleak.kcg."),
)
# entries of a folder read for the files named by a pid (`_Walk._pid_named`)
_PID_SCAN: Final = 20000
# perf's global options (perf 6.1's `handle_options`) that take the next word
_PERF_GLOBAL_VALUED: Final = frozenset({"--debugfs-dir", "--buildid-dir", "--debug"})
# perf verbs whose `-i` is `--no-inherit`, not an input file
_PERF_INHERIT: Final = frozenset({"stat", "record", "top"})
# perf verbs with a `record` verb of their own (`perf sched record CMD`), which writes
# `./perf.data` as `perf record` does (each takes `rec`, `reco`, `recor` too)
_PERF_RECORDERS: Final = frozenset(
    {"sched", "mem", "kmem", "lock", "c2c", "kvm", "kwork", "timechart", "stat", "trace",
     "script"}
)  # fmt: skip
# `perf kvm record`'s files (`--host`, `--guest`, both)
_PERF_KVM_DATA: Final = ("perf.data.guest", "perf.data.host", "perf.data.kvm")
# valgrind's options that reach the network (`--log-socket=HOST:PORT`)
_VALGRIND_NETWORK: Final = frozenset({"--log-socket", "--xml-socket", "--debuginfo-server"})


# strace 6.1's options (its getopt string `+a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ`
# and its long options, which getopt_long takes by any unique prefix: review EC4). Each
# long option: whether it takes a value (0 no, 1 yes, 2 only after `=`) and its name
# (aliases share it: `--silent` is `--quiet`)
_STRACE_SHORT_VALUED: Final = frozenset("abeEIoOpPsSuUX")
_STRACE_SHORT_FLAGS: Final = frozenset("AcCdDfFhiknqrtTvVwxyYzZ")
_STRACE_LONG: Final = {
    **{name: (0, name) for name in (
        "debug", "failed-only", "follow-forks", "help", "instruction-pointer", "no-abbrev",
        "output-append-mode", "output-separately", "pidns-translation", "seccomp-bpf",
        "stack-traces", "successful-only", "summary", "summary-only", "summary-wall-clock",
        "syscall-number", "version")},
    "failing-only": (0, "failed-only"),
    **{name: (2, name) for name in (
        "absolute-timestamps", "daemonize", "decode-fds", "quiet", "relative-timestamps",
        "secontext", "strings-in-hex", "syscall-times", "timestamps", "tips")},
    "daemonised": (2, "daemonize"), "daemonized": (2, "daemonize"),
    "silent": (2, "quiet"), "silence": (2, "quiet"),
    **{name: (1, name) for name in (
        "abbrev", "attach", "columns", "const-print-style", "decode-pids", "detach-on", "env",
        "fault", "inject", "interruptible", "kvm", "output", "raw", "read", "signals",
        "status", "string-limit", "summary-columns", "summary-sort-by",
        "summary-syscall-overhead", "trace", "trace-path", "user", "verbose", "write")},
}  # fmt: skip
# what only traces, the long options and the short ones (`-o`/`--output` aside: its file
# is judged as written): `--attach`/`-p`, `--env`/`-E`, `--user`/`-u`, `--detach-on`/`-b`,
# `--inject`, `--fault` and any option not known ask (an allowlist: review EC4)
_STRACE_LONG_TRACING: Final = frozenset(name for _takes, name in _STRACE_LONG.values()) - {
    "attach", "env", "user", "detach-on", "inject", "fault", "output"
}
_STRACE_SHORT_TRACING: Final = _STRACE_SHORT_FLAGS | frozenset("aIOPsSUX")
# `-e QUALIFIER=…`'s qualifiers that only trace (strace 6.1's names and aliases)
_STRACE_QUALIFIERS: Final = frozenset(
    {"trace", "t", "abbrev", "a", "verbose", "v", "raw", "x", "signal", "signals", "s",
     "read", "reads", "r", "write", "writes", "w", "status", "quiet", "silent", "silence",
     "q", "kvm", "decode-fds", "decode-fd", "decode-pids"}
)  # fmt: skip


def _strace_long(name: str) -> tuple[int, str] | None:
    """strace's long option `--NAME` as getopt_long reads it: the exact name, or the one
    name it begins (aliases count once), else None (not known, or ambiguous)."""
    if name in _STRACE_LONG:
        return _STRACE_LONG[name]
    found = {_STRACE_LONG[full] for full in _STRACE_LONG if full.startswith(name)}
    return found.pop() if len(found) == 1 else None


def _strace_reach(values: Sequence[str | None]) -> tuple[str | None, list[str]]:
    """What strace's own options (the words before its command) do besides tracing
    (review EC4), read with strace 6.1's option table: glued short clusters (`-fp1`,
    `-EBASH_ENV=x`), long options by any unique prefix (`--foll`, `--att=1`); why they
    ask (an option not known to only trace, an `-o` value that starts with `!` or `|`, a
    value that cannot be read), or None; and the files `-o`/`--output` names."""
    written: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        index += 1
        if value is None:
            return None, written  # (a word that cannot be read: the command's start asks)
        if value == "--" or value == "-" or not value.startswith("-"):
            break
        option: str
        given: str | None
        if value.startswith("--"):
            name, eq, glued = value[2:].partition("=")
            long = _strace_long(name)
            if long is None:
                return f"`{short(value)}` is no option strace reads as tracing only", written
            takes, option = long
            if takes == 0 and eq:
                return f"`{short(value)}` is no option strace reads as tracing only", written
            if eq:
                given = glued
            elif takes == 1:
                given = values[index] if index < len(values) else ""
                index += 1
            else:
                given = ""
            tracing = option in _STRACE_LONG_TRACING
        else:
            position = 1
            option, given, tracing = "", "", True
            while position < len(value):
                letter = value[position]
                position += 1
                if letter in _STRACE_SHORT_FLAGS:
                    continue
                if letter not in _STRACE_SHORT_VALUED:
                    return f"`{short(value)}` is no option strace reads as tracing only", written
                option = letter
                if position < len(value):
                    given = value[position:]
                else:
                    given = values[index] if index < len(values) else ""
                    index += 1
                break
            if not option:
                continue
            tracing = option in _STRACE_SHORT_TRACING
        if given is None:
            return f"the value of `{short(value)}` cannot be read here", written
        if option in ("o", "output"):
            if given[:1] in ("!", "|"):
                return (
                    f"`{short(given)}` hands its output to a command, which it runs through "
                    "the shell",
                    written,
                )
            written.append(given)
            continue
        if option == "e":
            qualifier, eq, _set = given.partition("=")
            tracing = not eq or qualifier in _STRACE_QUALIFIERS
        if not tracing:
            return (
                f"`{short(value)}` does more than trace (it attaches to another process, sets "
                "the traced program's environment or user, or tampers with its system calls)",
                written,
            )
    return None, written


# ltrace 0.7.3's options (getopt `+cfhiLrStTVbCa:A:D:e:F:l:n:o:p:s:u:x:` and its long
# options, by any unique prefix): each long option's letter; `-p` attaches to another
# process and `-u` runs the command as another user (they ask); `-o`'s file is written
# (`_Walk._runner_writes`), `-F`'s read
_LTRACE_SHORT_VALUED: Final = frozenset("aADeFlnopsux")
_LTRACE_SHORT_FLAGS: Final = frozenset("cfhiLrStTVbC")
_LTRACE_LONG: Final = {
    "help": "h", "indent": "n", "align": "a", "config": "F", "output": "o", "version": "V",
    "no-signals": "b", "demangle": "C", "library": "l", "debug": "D",
}  # fmt: skip


def _ltrace_reach(values: Sequence[str | None]) -> tuple[str | None, list[str]]:
    """What ltrace's own options (the words before its command) do besides tracing, read
    as its getopt_long reads them (glued clusters, long options by any unique prefix):
    why they ask (`-p`/`-u`, an option not known or ambiguous, a value that cannot be
    read), or None; and the files `-F`/`--config` reads."""
    read: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        index += 1
        if value is None:
            return None, read  # (the command's start asks)
        if value == "--" or value == "-" or not value.startswith("-"):
            break
        letter: str
        given: str | None = None
        if value.startswith("--"):
            name, eq, glued = value[2:].partition("=")
            names = {_LTRACE_LONG[n] for n in _LTRACE_LONG if n.startswith(name)} if name else set()
            if name in _LTRACE_LONG:
                names = {_LTRACE_LONG[name]}
            if len(names) != 1:
                return f"`{short(value)}` is no option ltrace reads as tracing only", read
            letter = names.pop()
            if letter in _LTRACE_SHORT_FLAGS:
                if eq:
                    return f"`{short(value)}` is no option ltrace reads as tracing only", read
                continue
            if eq:
                given = glued
            else:
                given = values[index] if index < len(values) else ""
                index += 1
        else:
            letter = ""
            for position in range(1, len(value)):
                if value[position] in _LTRACE_SHORT_FLAGS:
                    continue
                if value[position] not in _LTRACE_SHORT_VALUED:
                    return f"`{short(value)}` is no option ltrace reads as tracing only", read
                letter = value[position]
                if position + 1 < len(value):
                    given = value[position + 1 :]
                else:
                    given = values[index] if index < len(values) else ""
                    index += 1
                break
            if not letter:
                continue
        if given is None:
            return f"the value of `{short(value)}` cannot be read here", read
        if letter in ("p", "u"):
            return (
                f"`{short(value)}` does more than trace (it attaches to another process or "
                "runs the command as another user)",
                read,
            )
        if letter == "F":
            read.append(given)
        if letter == "o" and given[:1] in ("!", "|"):
            # (ltrace 0.7.3 writes a file of that name, where strace runs a command: the
            # spelling still asks, as it did when ltrace was read by strace's table)
            return f"`{short(given)}` may hand its output to a command", read
    return None, read


def _perf_record_word(value: str | None) -> bool:
    """Whether a perf verb reads `value` as its `record` (perf 6.1's
    `strlen(argv[0]) > 2 && strstarts("record", argv[0])`)."""
    return value is not None and len(value) > 2 and "record".startswith(value)


def _valgrind_defaults(given: Mapping[str, str]) -> list[tuple[str, str]]:
    """The files valgrind writes named by its pid with the options `given` (the tool's
    own output and the xtree files), each with the option that would name another file:
    the ones of every tool when the tool is not one known here."""
    tool = given.get("--tool", "memcheck")
    found: list[tuple[str, str]] = []
    if tool in _VALGRIND_TOOL_FILES:
        found.extend(_VALGRIND_TOOL_FILES[tool])
    elif tool not in ("memcheck", "helgrind", "drd", "none", "lackey", "exp-sgcheck"):
        found.extend(pair for pairs in _VALGRIND_TOOL_FILES.values() for pair in pairs)
    for switch, option, default in _VALGRIND_XTREE:
        if given.get(switch, "none") not in ("none", "no"):
            found.append((option, default))
    return found


def _valgrind_reach(values: Sequence[str | None]) -> str | None:
    """Why valgrind's own options (every word that starts with `-` before its command;
    a value only after `=`) reach past what it traces (review EB4), or None: an address
    of the network, a tool named by path, a file name made by `%p` or `%q{VAR}`."""
    for value in values:
        if value is None or not value.startswith("-"):
            return None
        name, eq, given = value.partition("=")
        if not eq:
            continue
        if name in _VALGRIND_NETWORK:
            return f"`{short(value)}` reaches the network"
        if name == "--tool" and "/" in given:
            return f"`{short(value)}` runs the tool file it names"
        if name.endswith(("-file", "-prefix")) and "%" in given.replace("%%", ""):
            return f"`{short(value)}` names a file by an expansion (`%p`, `%q{{VAR}}`)"
    return None


def _covered(approved: Sequence[str]) -> int:
    """`covered_words`, and the toolchain an exact approval of a rustup proxy names
    literally (`rustc +nightly --version $`): its later words are checked as usual, but
    `+nightly` is a name the approval gave, not handed code (`HANDED_CODE` asks for any
    `+` word, `+/ws/tc` among them: review GL7, DP4)."""
    covered = covered_words(approved)
    if is_exact(approved) and named_toolchain(approved):
        covered = 2
    return covered


# options and values that hand a program code to run (`HANDED_CODE`), compiled once
_HANDED_CODE: Final = {name: re.compile(text) for name, text in HANDED_CODE.items()}
# words that make a network client send a file (`SENT_FILES`), compiled once
_SENT_FILES: Final = {name: re.compile(text) for name, text in SENT_FILES.items()}
# build tools whose `--` hands the later words to the task (`task build -- -x`); make,
# ninja, just, rake, mvn read later words as more targets (review BR5: under an approved
# `make test`, `make test -- deploy` ran `deploy`)
_TASK_ARGUMENTS: Final = frozenset({"task", "invoke", "inv"})
# a push destination that is a URL or a folder rather than a remote's name
_PUSH_PLACE: Final = re.compile(r"[:/\\]|^[.~]")
# `git push`'s long options (git 2.39), taken by any unique prefix (review CR5: `--rep=`,
# `--push-opt X`, `--recurse-submodules X` hid the destination), those with a value
_PUSH_LONG = (
    "all", "branches", "mirror", "delete", "tags", "dry-run", "porcelain", "receive-pack",
    "exec", "force", "force-with-lease", "force-if-includes", "repo", "set-upstream",
    "thin", "quiet", "verbose", "progress", "recurse-submodules", "verify", "follow-tags",
    "signed", "atomic", "push-option", "ipv4", "ipv6", "prune",
)  # fmt: skip
_PUSH_VALUED = frozenset({"receive-pack", "exec", "repo", "push-option", "recurse-submodules"})


def _push_destination(
    words: Sequence[tuple[str, str | None]],
    refspecs: list[tuple[str, str | None]] | None = None,
) -> tuple[list[tuple[str, str | None]], str | None]:
    """Where `git push WORDS…` (the words after `push`) may send the repository: its
    first operand, wherever it is, which git takes over `--repo` (review CS1), and
    `--repo`'s values too, judged as well ([]: the configured upstream); and an option
    it cannot read (then the destination is not known), if any. The operands after the
    first, the refspecs, are added to `refspecs` when given."""
    found: list[tuple[str, str | None]] = []
    operand = False
    index = 0
    while index < len(words):
        text, value = words[index]
        following = words[index + 1] if index + 1 < len(words) else None
        if value is None or not value.startswith("-") or value == "-":
            if not operand:
                found.append((text, value))
            elif refspecs is not None:
                refspecs.append((text, value))
            operand = True
        elif value == "--":
            rest = words[index + 1 :]
            if rest and not operand:
                found.append(rest[0])
                rest = rest[1:]
            if refspecs is not None:
                refspecs.extend(rest)
            break
        elif value.startswith("--"):
            name, eq, given = value[2:].partition("=")
            long = gitstage.long_option(name, _PUSH_LONG)
            if long is None:
                return [], text
            option, negated = long
            if option == "repo" and not negated:
                repo = (text, given) if eq else following
                if repo is not None:
                    found.append(repo)
            if option in _PUSH_VALUED and not negated and not eq:
                index += 1  # (its value)
        elif value.find("o") == len(value) - 1:
            # `-o X`, `-qo X`: an `o` last takes the next word; `-ogo` is `-o go`, its
            # value the rest of the group (review CT1: read as `-o` and a word, the real
            # destination was skipped)
            index += 1
        index += 1
    return found, None


def _push_recursion_option(words: Sequence[tuple[str, str | None]]) -> str | None:
    """A word of `git push` that pushes more than branches: `--recurse-submodules` that
    pushes the submodules too (`on-demand`, `only`), whose remotes and refs no push check
    reads, or `--tags`, `--follow-tags` (a tag may be the stash's: review FW4); None
    otherwise."""
    for index, (text, value) in enumerate(words):
        if value == "--":
            return None
        if value is None or not value.startswith("--"):
            continue
        name, eq, given = value[2:].partition("=")
        long = gitstage.long_option(name, _PUSH_LONG)
        if long is None or long[1]:
            continue
        if long[0] in ("tags", "follow-tags"):
            return text
        if long[0] != "recurse-submodules":
            continue
        if not eq:
            given = words[index + 1][1] or "" if index + 1 < len(words) else ""
        if given.strip().lower() not in ("check", "no"):
            return text
    return None


# a push source that names an object by id, walked or peeled (`ID`, `ID^3`, `ID~0`,
# `ID^{commit}`, `ID@{0}`: review FO5), not a branch that holds digits (`release-2024`,
# `bugfix/ABC-1234`: review FQ9)
_PUSHED_ID: Final = re.compile(
    r"(?:[^:]*-g)?[0-9a-fA-F]{4,64}(?:[~^][0-9]*|\^\{[^}]*\}|@\{[^}]*\})*"
)  # (`NAME-gID` is git describe's spelling of the id: review FR1)

_NUMBER_OPTIONS: Final = frozenset({"-j", "--jobs", "-l", "--load-average"})
# `git fetch`'s and `git pull`'s long options (git 2.39), taken by any unique prefix; those
# with a value in the next word (`_fetched_repositories`)
_FETCH_LONG: Final = (
    "all", "append", "atomic", "depth", "deepen", "shallow-since", "shallow-exclude",
    "unshallow", "update-shallow", "negotiation-tip", "negotiate-only", "dry-run",
    "write-fetch-head", "force", "keep", "multiple", "auto-maintenance", "auto-gc",
    "write-commit-graph", "prefetch", "prune", "prune-tags", "tags", "refmap",
    "recurse-submodules", "jobs", "set-upstream", "submodule-prefix",
    "recurse-submodules-default", "update-head-ok", "upload-pack", "quiet", "verbose",
    "progress", "server-option", "show-forced-updates", "ipv4", "ipv6", "stdin", "filter",
    "porcelain", "commit", "edit", "cleanup", "ff", "ff-only", "gpg-sign", "log", "signoff",
    "stat", "summary", "autostash", "squash", "verify", "verify-signatures", "strategy",
    "strategy-option", "rebase", "allow-unrelated-histories", "no-rebase",
)  # fmt: skip
_FETCH_VALUED: Final = frozenset(
    {"depth", "deepen", "shallow-since", "shallow-exclude", "negotiation-tip", "refmap",
     "jobs", "submodule-prefix", "recurse-submodules-default", "upload-pack",
     "server-option", "filter", "cleanup", "strategy", "strategy-option"}
)  # fmt: skip
_FETCH_SHORT_VALUED: Final = frozenset("ojsX")  # (`-j 4`, `-o OPT`, `-s ours`, `-X theirs`)


def _fetches(words: Sequence[Word]) -> bool:
    """Whether an approved `git …` line fetches: `fetch`, `pull`, `remote update`, and
    `maintenance` (its prefetch task fetches every remote)."""
    verb = words[1].value
    if verb == "remote":
        return len(words) > 2 and words[2].value == "update"
    return verb in ("fetch", "pull", "maintenance")


def _fetched_repositories(
    verb: str | None, words: Sequence[Word]
) -> tuple[list[str], str | None]:
    """The repositories `git VERB …` names (`fetch`, `pull`: the first operand, or every
    operand with `--multiple`; `remote update`: every operand; `maintenance`: none), and
    a word that cannot be read (an unknown option, a word not known, `--upload-pack`,
    `--stdin`), if any."""
    if verb == "maintenance":
        return [], None
    rest = words[3:] if verb == "remote" else words[2:]
    operands: list[str] = []
    multiple = verb == "remote"
    index = 0
    while index < len(rest):
        value = rest[index].value
        if value is None:
            return [], rest[index].text
        if value == "--":
            operands.extend(w.value or "" for w in rest[index + 1 :])
            if any(w.value is None for w in rest[index + 1 :]):
                return [], "--"
            break
        if value.startswith("--"):
            name, eq, _given = value[2:].partition("=")
            long = gitstage.long_option(name, _FETCH_LONG)
            if long is None or long[0] in ("upload-pack", "stdin"):
                return [], rest[index].text
            multiple = multiple or long[0] == "multiple"
            if long[0] in _FETCH_VALUED and not long[1] and not eq:
                index += 1
        elif value.startswith("-") and value != "-":
            letters = value[1:]
            valued = next((i for i, c in enumerate(letters) if c in _FETCH_SHORT_VALUED), None)
            if valued is not None and valued == len(letters) - 1:
                index += 1  # (the value in the next word; glued, the rest of the group)
        else:
            operands.append(value)
        index += 1
    if verb == "remote" or multiple:
        return operands, None
    return operands[:1], None



def _legacy_remotes(directory: str) -> str | None:
    """A file of the git directory's `remotes/` or `branches/` folder (git's remotes before
    `remote.X` sections, still read), which the configuration checks do not see (review
    FT2), or None."""
    for gitdir, _top in find_gitdirs(directory)[0]:
        for folder in ("remotes", "branches"):
            try:
                names = os.listdir(os.path.join(gitdir, folder))
            except OSError:
                continue
            if names:
                return os.path.join(gitdir, folder, sorted(names)[0])
    return None


def _local_remote(url: str) -> bool:
    """Whether a configured remote URL (or an `insteadOf` base) names a folder on this
    machine: a path, `file://`, or a word without a `host:` before its first `/`."""
    url = url.removesuffix(REWRITE_MARK)
    if url.startswith(("/", ".", "~", "file:")) or not url:
        return True
    return ":" not in url.split("/", 1)[0]
_NUMBER: Final = re.compile(r"[0-9]+(?:\.[0-9]*)?")
# a word after an approved prefix that hands the program code or a command to run: a
# leading `|` (Perl's, sox's, ImageMagick's pipe open), Ghostscript's `%pipe%`, exiftool's
# `${TAG;EXPR}`, a call of a language's process or eval functions, TeX's `\write18`,
# OpenSSL 3's engine URI (`-sign org.openssl.engine:/abs/x.so:k` loads x.so: review FQ5)
_INLINE_CODE: Final = re.compile(
    r"^\||%pipe%|\$\{[^}]*;|\b(?:system|exec|popen|spawn|eval|__import__)\s*\("
    r"|os\.system|subprocess\.|\\write18|\\immediate|(?i:org\.openssl\.engine:)"
)
# a command substitution (not an arithmetic `$((`) or backquote whose output bash evaluates
_EVALUATED_OUTPUT: Final = re.compile(r"\$\((?!\()|`")
# arithmetic in a here-document body: `$[…]`, `$((…))`
_BODY_ARITHMETIC: Final = re.compile(r"\$\[[^]]*\]|\$\(\(.*?\)\)", re.DOTALL)


def _element_key(text: str) -> str | None:
    """The key of an array element written `[KEY]=VALUE`, or None."""
    if not text.startswith("[") or ("]=" not in text and "]+=" not in text):
        return None
    return text[1 : text.index("]")]


# an assignment in arithmetic: `N=`, `N+=` … (not `==`, `<=`, `>=`, `!=`), `N[i]=`,
# `++N`, `N--` (`arithmetic_assignments`, `_note_value`)
_ARITHMETIC_ASSIGNMENT: Final = re.compile(
    r"(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)"
    r"|([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(?:[^][]|\[[^][]*\])*\]\s*)?"
    r"(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)?=(?!=))"
)
# what quote removal takes out of a word before bash evaluates it: line continuations,
# the `\` of an escaped character, and quotes with the `$` of `$"…"` (reviews BZ3, CA2)
_ARITHMETIC_NOISE: Final = re.compile(r"\\\n|\\(?=.)|\$?[\"']", re.DOTALL)
# an ANSI-C quoted piece, which bash decodes before it evaluates the text
_ANSI_C_PIECE: Final = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.DOTALL)


def _arithmetic_plain(text: str) -> str:
    r"""`text` as bash evaluates it after quote removal, `$'…'` pieces decoded.

    >>> _arithmetic_plain('"PA"TH=1'), _arithmetic_plain(r"P\ATH=1")
    ('PATH=1', 'PATH=1')
    >>> _arithmetic_plain(r"[$'\x50ATH=1']")
    '[PATH=1]'
    """
    return _ARITHMETIC_NOISE.sub("", _ANSI_C_PIECE.sub(_decoded_piece, text))


def _decoded_piece(match: re.Match[str]) -> str:
    try:
        return decode_ansi_c(match.group(1))
    except LocaleDependent:
        return "$_"  # (`$'\u00e9'`: what it spells depends on the locale, as an expansion)
# a parameter expansion without a subscript inside arithmetic text, which may expand to
# any name (one with a subscript is the text being judged: `${x[PATH=1]}`)
_ARITHMETIC_EXPANSION: Final = re.compile(
    r"\$(?:\{[^][{}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])"
)
# an assignment whose name holds such an expansion (marked `\0`): `PA${x}TH=11`, `$x=11`
_EXPANSION_NAMED_ASSIGNMENT: Final = re.compile(
    r"[A-Za-z0-9_\0]*\0[A-Za-z0-9_\0]*\s*(?:\[(?:[^][]|\[[^][]*\])*\]\s*)?"
    r"(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)?=(?!=))"
)
# substitutions that print a number and nothing else, which evaluates to itself:
# `$(( $(wc -l < f) + 1 ))`, `$(nproc)`, `$(id -u)`, `$(date +%s)`
_NUMERIC_SUBSTITUTION: Final = re.compile(
    r"\$\(\s*(?:[^()$`'\"\\;&|<>]*\|\s*)?"
    r"(?:wc\s+-[lcmw]\s*(?:<\s*[\w./-]+\s*)?|nproc|id\s+-[ug]"
    # `date [-u] [-d 'when'] +%s`: seconds, whatever the date asked for
    r"|date(?:\s+-[a-zA-Z]+|\s+'[^'$`\\]*'|\s+\"[^\"$`\\]*\")*\s+['\"]?\+['\"]?%s['\"]?)\s*\)"
)
# a name with a subscript (`a[i]`), not any text with a `[` (`read -p "[Enter] key"`)
_SUBSCRIPTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[")
# expansions whose result is data, not the line's text: a value built from them is data
_SAFE_VALUE_KINDS = frozenset(
    {ExpansionKind.ARITHMETIC, ExpansionKind.TILDE, ExpansionKind.BRACE, ExpansionKind.ANSI_C}
)


def _name_operands(words: Sequence[Word]) -> list[Word]:
    """The words of `read` that name variables: its operands and `-a`'s value, not the
    values of `-p PROMPT`, `-d DELIM`, `-t`, `-n`, `-N`, `-u`, `-i` (a prompt is printed,
    not evaluated: `read -p "$1 " yn`). A word not known may be an option: it counts."""
    names: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        value = word.value
        index += 1
        if value == "--":
            names.extend(words[index:])
            break
        if value is None or not value.startswith("-") or value == "-":
            names.append(word)
            continue
        for position, letter in enumerate(value[1:], start=1):
            if letter in _READ_VALUE_OPTIONS:
                attached = position + 1 < len(value)
                if not attached and index < len(words):
                    if letter == "a":
                        names.append(words[index])
                    index += 1
                break
    return names


_READ_VALUE_OPTIONS: Final = frozenset("adinNptu")  # (`-a` takes a name)


def _names_in(text: str) -> set[str]:
    """The variables `text` may name when bash evaluates it as arithmetic.

    Bash removes quotes and backslashes before it evaluates (`[[ GITHUB_TO""KEN -eq 1 ]]`
    and `${z[a""b]}` evaluate `GITHUB_TOKEN` and `ab`: review BD5), so the names of the
    text without them count too.

    >>> sorted(_names_in("i<${#a}+$1 && x[j]"))
    ['1', 'a', 'i', 'j', 'x']
    >>> sorted(_names_in('GITHUB_TO""KEN'))
    ['GITHUB_TO', 'GITHUB_TOKEN', 'KEN']
    """
    names = {m.group(1) or m.group(2) for m in _NAME.finditer(text)}
    if "'" in text or '"' in text or "\\" in text:
        unquoted = _QUOTING_CHARS.sub("", text)
        names.update(m.group(1) or m.group(2) for m in _NAME.finditer(unquoted))
    return names


def _is_identifier(name: str) -> bool:
    return _IDENTIFIER.fullmatch(name) is not None


def _parameter_uses(exp: Expansion) -> list[tuple[set[str], str]]:
    """Where a `${…}` evaluates a variable's value: `${!x}` (a name), a subscript `${a[x]}`
    or a substring `${s:x:1}` (arithmetic). (`${x@P}` asks whatever x holds.)

    >>> from policylang.span import Span
    >>> def uses(text, name):
    ...     exp = Expansion(kind=ExpansionKind.PARAMETER, text=text, span=Span(0, 0), name=name)
    ...     return [(sorted(n), w) for n, w in _parameter_uses(exp)]
    >>> uses("${!x}", "x"), uses("${a[i+j]}", "a")
    ([(['x'], 'a variable name')], [(['i', 'j'], 'an array subscript')])
    >>> uses("${s:o:1}", "s"), uses("${x:-y}", "x")
    ([(['o'], 'a substring offset')], [])
    """
    text = exp.text
    inner = text[2:-1] if text.endswith("}") else text[2:]
    uses: list[tuple[set[str], str]] = []
    name = exp.name
    if name is not None and inner.startswith("!"):
        uses.append(({name}, "a variable name"))
    head = re.match(r"[!#]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])", inner)
    rest = inner[head.end() :] if head is not None else inner
    if rest.startswith("["):
        depth, end = 0, len(rest)
        for index, char in enumerate(rest):
            depth += (char == "[") - (char == "]")
            if depth == 0:
                end = index
                break
        uses.append((_names_in(rest[1:end]), "an array subscript"))
        rest = rest[end + 1 :]
    if rest.startswith(":") and rest[1:2] not in ("-", "=", "?", "+"):
        uses.append((_names_in(rest[1:]), "a substring offset"))
    if "$((" in inner or "$[" in inner:
        uses.append((_names_in(inner), "arithmetic"))
    return [(names, what) for names, what in uses if names]


# variables bash sets from data itself: `_` is the last argument of the previous command
# (`: "$x"; echo $((_))`), BASH_REMATCH what `[[ =~ ]]` matched, REPLY and MAPFILE what
# `read` and `mapfile` read without a name, PWD, OLDPWD and DIRSTACK the directories
# `cd` and `pushd` entered (a repository's folder may be named `a[$(cmd)]`: review BD3)
_SET_BY_BASH: Final = frozenset(
    {"_", "BASH_REMATCH", "REPLY", "MAPFILE", "OPTARG", "BASH_ARGV", "BASH_COMMAND",
     "BASH_EXECUTION_STRING", "READLINE_LINE", "COMP_LINE", "COMP_WORDS", "COPROC",
     "PWD", "OLDPWD", "DIRSTACK"}
)  # fmt: skip


def _may_set_integer(word: Word) -> bool:
    """A declaration builtin's operand that is, or may expand to, an option giving the
    integer attribute (`-i`, `-ai`, `$opts`), under which bash evaluates the assigned
    values as arithmetic. An operand that starts with a literal `NAME=` is an assignment
    whatever its value expands to, never an option (review FI10: `export FOO=$PWD/bin`
    was said to evaluate `$PWD` as arithmetic)."""
    if word.value is None:
        return _LITERAL_ASSIGNMENT_START.match(word.text) is None
    return word.value[:1] in "-+" and "i" in word.value


# an operand whose text begins with a literal name and `=` or `+=`
_LITERAL_ASSIGNMENT_START: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")


def _data_names(line: CommandLine) -> tuple[frozenset[str], dict[str, set[str]]]:
    """Variables of `line` whose values are data rather than the line's own text, and the
    names each other variable's value names (its aliases).

    Set by `read`, `mapfile`, `printf -v` or `getopts` (input, a format), by `select`, by a
    `for` over words that expand, or by an assignment whose value expands a parameter or
    a substitution or holds `[`, `$` or a backquote; and, by a fixpoint, any variable whose
    value names one of those (`y=x` makes `$((y))` evaluate x).
    """
    data: set[str] = set(_SET_BY_BASH)
    aliases: dict[str, set[str]] = {}
    for _, segment in walk(line):
        if segment.kind is SegmentKind.SIMPLE:
            assigned = assigned_by_builtin(segment)
            if assigned is not None and assigned.data:
                data.update(base_name(name) for name in assigned.names if name)
        # `${y:=$'a\x5b\x24(cmd)]'}`: the default's escapes are not followed here
        data.update(name for name, _ in expansion_assignments(segment))
        if segment.kind is SegmentKind.LOOP_HEADER and segment.name:
            if segment.text.lstrip().startswith("select"):
                data.add(segment.name)
            else:
                _note_value(segment.name, segment.words, data, aliases)
        assignments = segment.assignments + segment.declared
        if segment.wrapped is not None:
            assignments += segment.wrapped.assignments
        for assignment in assignments:
            values = (assignment.value,) if assignment.value is not None else ()
            _note_value(assignment.name, values + (assignment.array or ()), data, aliases)
    changed = True
    while changed:
        changed = False
        for name, named in aliases.items():
            if name not in data and named & data:
                data.add(name)
                changed = True
    return frozenset(data), aliases


def _note_value(
    name: str, words: Sequence[Word], data: set[str], aliases: dict[str, set[str]]
) -> None:
    for word in words:
        if word.value is None:
            if any(exp.kind not in _SAFE_VALUE_KINDS for exp in word.expansions) or _built(word):
                data.add(name)
                return
            aliases.setdefault(name, set()).update(_names_in(word.text))
        elif any(ch in word.value for ch in "[$`") or _ARITHMETIC_ASSIGNMENT.search(word.value):
            # (a value that assigns when evaluated: `for x in PATH=11; do (( x )); done`
            # assigns PATH, review BY2)
            data.add(name)
            return
        else:
            aliases.setdefault(name, set()).update(_names_in(word.value))


def _braced(word: Word) -> bool:
    return any(expansion.kind is ExpansionKind.BRACE for expansion in word.expansions)


def _lasting_input(segment: Segment) -> bool:
    """Whether `segment` is an `exec` without a command (`command exec`, `builtin exec`
    too) that redirects the shell's standard input for the rest of the line."""
    if segment.kind is not SegmentKind.SIMPLE or not segment.redirects:
        return False
    values = [word.value for word in segment.words]
    while values and values[0] in ("command", "builtin", "--"):
        values.pop(0)
    if not values or values[0] != "exec":
        return False
    rest = values[1:]
    while rest and rest[0] is not None and rest[0].startswith("-"):
        option = rest.pop(0)  # (`exec -c`, `-l`, `-a NAME`, `--`: review DJ1)
        if option == "-a" and rest:
            rest.pop(0)
        if option == "--":
            break
    if rest:
        return False
    return any(
        r.fd in (None, 0) and (r.heredoc is not None or r.op in _INPUT_OPS)
        for r in segment.redirects
    )


def _stdin_fed(segments: Sequence[Segment], index: int) -> bool:
    """Whether the line may give `segments[index]` its standard input: a stage after a
    pipe, a redirect of its input (its own or an enclosing compound's), or any segment
    inside a compound of a line with a pipe (which stage feeds it is not followed)."""
    segment = segments[index]
    for redirect in segment.redirects:
        if redirect.fd in (None, 0) and (redirect.heredoc is not None or redirect.op in _INPUT_OPS):
            return True
    if index > 0 and segments[index - 1].connector in _PIPES:
        return True
    compound = any(scope not in _STAGE_SCOPES for scope in segment.scopes)
    return compound and any(s.connector in _PIPES for s in segments)


def _stdin_code(segments: Sequence[Segment], index: int, depth: int = 0) -> str | None:
    """The literal text `segments[index]` reads on its standard input, when the line
    holds it: its last here-string or here-document whose text is literal, else what the
    stage piped into it prints: an `echo`, a `printf` of a plain format or of `%s`
    formats, or a `cat` (of `-` or of nothing) passing on its own input (reviews BD6,
    BF4, BH11). None when it is not known."""
    segment = segments[index]
    for redirect in reversed(segment.redirects):
        if redirect.fd not in (None, 0):
            continue
        if redirect.heredoc is not None:
            heredoc = redirect.heredoc
            return heredoc.body if heredoc.quoted or not heredoc.expansions else None
        if redirect.op == "<<<":
            return None if redirect.target is None else redirect.target.value
        if redirect.reads:
            return None  # a file: its contents are not in the line
    if index == 0 or depth > 4:
        return None
    before = segments[index - 1]
    if before.connector not in _PIPES or not before.words:
        return None
    values = [_fed_word(word) for word in before.words]
    if None in values:
        return None
    name, *operands = (value for value in values if value is not None)
    if name == "cat" and operands in ([], ["-"]):
        return _stdin_code(segments, index - 1, depth + 1)  # cat passes its input on
    if name == "echo":
        escapes = False
        while operands and operands[0] in ("-n", "-e", "-E", "-ne", "-en"):
            escapes = escapes or "e" in operands[0]
            operands = operands[1:]
        if any(value.startswith("-") for value in operands[:1]):
            return None
        text = " ".join(operands)
        return None if escapes and "\\" in text else text  # `-e`: no escape to decode
    if name == "printf" and operands:
        return _printed(operands[0], operands[1:])
    return None


def _printed(form: str, arguments: Sequence[str]) -> str | None:
    """What `printf FORM ARGS…` prints for a plain format (escapes `\\n`, `\\t`, `\\\\`
    only) that is either free of `%` (no arguments) or a run of `%s` placeholders."""
    text = form.replace("\\\\", "\0").replace("\\n", "\n").replace("\\t", "\t")
    if "\\" in text:
        return None
    text = text.replace("\0", "\\")
    if "%" not in text:
        return None if arguments else text
    pieces = text.split("%s")
    if any("%" in piece for piece in pieces) or not arguments:
        return None
    slots = len(pieces) - 1
    rounds = -(-len(arguments) // slots)
    if rounds * len(text) + sum(map(len, arguments)) > _MAX_FED:
        return None  # larger than a line may be: not read (review BI6: 1.2 GB, 16 s)
    out: list[str] = []
    for start in range(0, len(arguments), slots):  # printf reuses its format
        chunk = (list(arguments[start : start + slots]) + [""] * slots)[:slots]
        out.append("".join(p + a for p, a in zip(pieces[:-1], chunk, strict=True)) + pieces[-1])
    return "".join(out)


_PIPES: Final = frozenset({Connector.PIPE, Connector.PIPE_ALL})
_INPUT_OPS: Final = frozenset({"<", "<>", "<<", "<<-", "<<<", "<&"})
# the second line of pip's and uv's shell start of a Python program (`'''exec' "…python"`)
_TRAMPOLINE: Final = re.compile(rb"\n'''exec' [^\n]*python", re.IGNORECASE)
# a shell wrapper's `exec` of Python: a word naming python, or a `.py` file it runs
_PYTHON_EXEC: Final = re.compile(rb"(?im)^[ \t]*exec[ \t]+[^\n]*(?:python|\.py\b)")
_EXEC_LINE: Final = re.compile(r"(?m)^[ \t]*exec[ \t]+([^\n]*)")
_WRAPPER_SCAN: Final = 16384  # the head of a shell wrapper looked through
_LOOP_SCOPES: Final = frozenset({Scope.LOOP_BODY, Scope.FOR, Scope.WHILE_CONDITION, Scope.SELECT})
# scopes that give a segment no input of their own (`_stdin_fed`)
_STAGE_SCOPES: Final = frozenset({Scope.PIPELINE, Scope.TIME, Scope.NEGATION})
_MAX_FED: Final = 1 << 16  # the most text `_printed` builds


def _fed_word(word: Word) -> str | None:
    """A word of an `echo` feeding a shell, as the shell reads it again: its value, or
    for a word whose only expansion is a leading tilde its text (`echo rm -rf ~ | bash`:
    the shell gets the home folder, which `~` names for it too)."""
    if word.value is not None:
        return word.value
    kinds = {exp.kind for exp in word.expansions}
    if kinds == {ExpansionKind.TILDE} and word.text.startswith("~"):
        return word.text
    return None


def _may_build_a_subscript(word: Word) -> bool:
    """Whether the expansions of a name operand may give a name with a subscript that runs
    a command: a glob that can match any character (`a?*` meets a file named
    `a[$(cmd)]`), braces around `$`, `[`, a backquote or a backslash. A glob of plain
    character sets (`unset array[2]`, which matches only a file `array2`) cannot.

    >>> from policylang.shell.parse import parse_command
    >>> def word(text):
    ...     return parse_command(f"unset {text}").segments[0].words[1]
    >>> [_may_build_a_subscript(word(t)) for t in ("a?*", "array[2]", "a[!x]", "a[{$,x}'(c)]")]
    [True, False, True, True]
    """
    kinds = {exp.kind for exp in word.expansions}
    text = word.text
    if ExpansionKind.EXTGLOB in kinds:
        return True
    if ExpansionKind.BRACE in kinds and any(ch in text for ch in "$`[\\"):
        return True
    if ExpansionKind.GLOB in kinds:
        if "*" in text or "?" in text:
            return True
        return any(not _PLAIN_SET.fullmatch(found) for found in _BRACKET_SET.findall(text))
    return False


_BRACKET_SET: Final = re.compile(r"\[([^\]]*)\]")
_PLAIN_SET: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def _expansion_joins_name(word: Word) -> bool:
    """Whether an expansion of `word` stands next to a name character, quotes aside:
    `GITHUB_TO${z}KEN` and `"$x"KEN` build a name, `"$count"` and `$x+1` do not.

    >>> from policylang.shell.parse import parse_command
    >>> def word(text):
    ...     return parse_command(f"echo {text}").segments[0].words[1]
    >>> [_expansion_joins_name(word(t)) for t in ("GITHUB_TO${z}KEN", '"$x"', "$x+1", 'a"$x"')]
    [True, False, False, True]
    """
    text = word.text
    base = word.span.start
    for exp in word.expansions:
        start, end = exp.span.start - base, exp.span.end - base
        if not 0 <= start <= end <= len(text):
            return True  # spans the engine cannot place: assume the worst
        before = text[:start].rstrip("\"'")
        after = text[end:].lstrip("\"'")
        if (before and _NAME_CHAR.match(before[-1])) or (after and _NAME_CHAR.match(after[0])):
            return True
    return False


_NAME_CHAR: Final = re.compile(r"[A-Za-z0-9_]")


def _joins_in_text(text: str) -> bool:
    """Whether evaluated text, quotes removed, has a name character right before a `$`
    or right after the `}` of an expansion (`q[a${z}b]`, `a$""b`): a name is built there.

    >>> _joins_in_text('q[a${z}b]'), _joins_in_text('q[a$""b]'), _joins_in_text('$i + ${#a[@]}')
    (True, True, False)
    """
    return "$" in text and _JOINED_NAME.search(_QUOTING_CHARS.sub("", text)) is not None
# in raw evaluated text without quotes: a name character next to `$`, or after `}`
_JOINED_NAME: Final = re.compile(r"[A-Za-z0-9_]\$|\}[A-Za-z0-9_]")


def _built(word: Word) -> bool:
    """Whether the value of a word of "safe" expansions is built in a way the names of its
    text do not show (review BD2, BD3): a `[`, backslash or backquote in it can become a
    subscript (`{a,b}\\[\\$\\(cmd\\)\\]` is `a[$(cmd)]`), braces join names
    (`MY_{API,}_KEY`), and `~+`, `~-`, `~N` are directories, whose names are data."""
    text = word.text
    if any(ch in text for ch in "[\\`"):
        return True
    kinds = {exp.kind for exp in word.expansions}
    if ExpansionKind.BRACE in kinds and _LETTER.search(text):
        return True
    return ExpansionKind.TILDE in kinds and _DIRECTORY_TILDE.match(text) is not None


_LETTER: Final = re.compile(r"[A-Za-z_]")
_DIRECTORY_TILDE: Final = re.compile(r"~(?:[+-]|[+-]?[0-9])")


def _snippet(text: str, start: int, end: int) -> str:
    piece = text[start:end] if 0 <= start < end <= len(text) else ""
    return f"`{short(piece)}`" if piece.strip() else "part of the line"


__all__ = ["Evaluator", "internal_error"]


def _both_ends(pieces: list[str]) -> list[str]:
    """`pieces` shortest, longest, second shortest, second longest …"""
    ordered = sorted(pieces, key=len)
    taken: list[str] = []
    low, high = 0, len(ordered) - 1
    while low <= high:
        taken.append(ordered[low])
        if high != low:
            taken.append(ordered[high])
        low, high = low + 1, high - 1
    return taken


_RECOVERY_PARSES: Final = 32  # pieces of unparsed text read per line (review AS1)
_RECOVERY_CHARS: Final = 32_768  # characters of such pieces read per line
_MIN_PIECE: Final = 256  # a piece is not cut shorter than this; the budget ends instead
_MAX_PIECE: Final = 8_192  # nor read longer: one long piece cannot spend the whole budget
_BLANK_RUN: Final = re.compile(r"[ \t]{2,}")


class _Recovery:
    """What is left of one line's budget for reading text that did not parse."""

    __slots__ = ("chars", "cut", "parses", "reported", "seen")

    def __init__(self) -> None:
        self.parses = _RECOVERY_PARSES
        self.chars = _RECOVERY_CHARS
        self.seen: set[str] = set()
        self.cut = False  # a piece was left unread for want of budget
        self.reported = False

    def take(self, piece: str) -> str | None:
        """The text of `piece` to read now, or None: read before, or no budget left.

        Runs of blanks are squeezed, and a piece longer than what is left is read up to
        that length: padding had put a `sudo id` beyond the budget (review AU1). A cut
        piece does not parse, but the parser still reads the commands before the cut.
        """
        if piece in self.seen:
            return None
        self.seen.add(piece)
        text = _BLANK_RUN.sub(" ", piece)
        if self.parses <= 0 or self.chars < _MIN_PIECE:
            self.cut = True
            return None
        limit = min(self.chars, _MAX_PIECE)
        if len(text) > limit:
            self.cut = True
            text = text[:limit]
        self.parses -= 1
        self.chars -= len(text)
        return text


_MAX_APPROVED_DEPTH: Final = 4  # `strace strace strace …`: deeper asks
_MAX_APPROVED_WALKS: Final = 8  # per line, nested ones included (review S5); more asks
_PATH_PIECES: Final = re.compile(r"[,=]")
_TYPED: Final = re.compile(r"([A-Za-z][\w.+-]{0,31}):(?=.)")
_RCLONE_LOCAL: Final = re.compile(r":local(?:,[^:]*)?:(.+)", re.DOTALL)
# a credential in a variable's value: a URL's password (`scheme://user:pw@`, `://:pw@`),
# a token as a URL's user (`https://TOKEN@github.com`), a proxy's `user:pw@host` without
# a scheme (curl and pip take it), a `password=` of a JDBC URL's query, a libpq or .NET
# connection string (`host=db password=x`, `Server=db;Pwd=x`), or a token by its kind's
# prefix (GitHub, GitLab's personal, runner and deploy tokens, Slack's bot and app tokens,
# npm, PyPI, OpenAI, Anthropic, AWS access keys, long-term and temporary, Stripe, Hugging
# Face, SendGrid, Google API keys and OAuth access tokens, Vault, DigitalOcean, Docker
# Hub, Grafana, Shopify, Groq, Linear, Pulumi, Tailscale, Square); Azure's `AccountKey=`
# and SAS `sig=`, a JSON `"…password":`, `"…token":`, `"…secret":`, `"apiKey":`,
# `-D….password=`, a `NAME_PASSWORD=`, `keyStorePassword=`, `gpg.passphrase=`,
# `MYSQL_PWD=` key inside the value, `--password X`, mysql's `-uU -pPW` (any `-pPW` after
# mysql), `aws_secret_access_key =`, Oracle's `scott/pw@` (any after sqlplus and its kin),
# Go MySQL's `root:pw@/db`, Slack,
# Discord and Teams webhooks, HTTP Basic and opaque Bearer credentials, JWTs, private
# keys (PEM, age) (reviews DR4, DT4, DW8, DW9, DX8); a scheme-less `host:port@db`
# (`redis:6379@0`, a port before a bare name), a Maven coordinate's `@type`, Oracle's
# `thin:@//db` (no user), a GitHub action's `owner/repo@v4`, `Basic Authentication` (a
# plain word), a JSON flag (`"requirePassword": "true"`), a pagination token
# (`"next_token"`) and a flag as a password (`X_PASSWORD=off`) are plain values (DW9,
# DX9, closing 28)
_FLAG_VALUE: Final = (
    r"(?i:true|false|yes|no|on|off|1|0|none|null|enabled|disabled|required|optional)"
)
# a flag as a `_PASSWORD=`'s whole value, quoted or not (`REQUIRE_PASSWORD="false"`): a
# quoted one is closed right after the flag, an unquoted one ends the value (a blank or
# `&`); `"no pain no gain"`, `yes,S3cret` and `on;S3cret` are passwords (review EA6)
_FLAG_WORD: Final = (
    rf"(?!(?:\"{_FLAG_VALUE}\"|'{_FLAG_VALUE}')(?:$|[\s&;,])|{_FLAG_VALUE}(?:$|[\s&]))"
)
# Oracle's `user/password@`: an unquoted user or password is an identifier (letters,
# digits, `_`, `$`, `#`); any other password is in double quotes
_ORACLE_LOGON: Final = r"[A-Za-z][\w$#]*/(?:\"[^\"\n]+\"|[^\s/@.\"'-]+)@"
# the programs that take a logon as an argument (SQL*Plus, SQLcl, SQL*Loader, Data Pump,
# RMAN, Data Guard's broker) and SQL*Plus's `connect`; after one on the same command, any
# `user/pw@alias` asks, quoted or not, whose user or password may hold a `-` or `.`
# (python-oracledb takes them: `sqlplus app-user/S3cret@prod`), and a first argument
# `user/pw` without `@` (`sqlplus scott/tiger`; SQLcl's `sql` is too common a word for it)
# (reviews DX8, EA6, EA7). `has_credential` reads them word by word: one regex with a lazy
# scan to the end of the command took quadratic time on `sql sql sql …` (review EA4)
_ORACLE_TOOLS: Final = frozenset(
    {"sqlplus", "sql", "sqlldr", "expdp", "impdp", "exp", "imp", "rman", "dgmgrl", "conn",
     "connect"}
)
_ORACLE_AT: Final = re.compile(
    r"(?<=[\s=])[\"']?[A-Za-z][\w$#.-]*/(?:\"[^\"\n]*\"|[^\s/@\"']+)[\"']?@[\"']?[^\s@\"']"
)
_ORACLE_BARE: Final = re.compile(r"[\"']?[A-Za-z][\w$#]*/(?:\"[^\"\n]+\"|[\w$#]+)[\"']?")
_ORACLE_KEYWORDS: Final = frozenset({"target", "auxiliary", "catalog"})
# mysql and its kin as a command (not an option's value: `docker run -u mysql -p3306`;
# quoted, it begins a command string: `sh -c 'mysql -pPW'`) before a glued `-pPASSWORD` on
# it (any password: a docker `-u UID -pPORT` is told apart by the program; a port mapping
# `-p3306:3306` is none) (reviews DX8, EA7)
_MYSQL_TOOLS: Final = frozenset(
    {"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlpump",
     "mysqlslap", "mysqlbinlog", "mysqlsh", "mariadb"}
)
_MARIADB_TOOL: Final = re.compile(r"mariadb-[a-z]+")
_PORT_MAPPING: Final = re.compile(r"\d+(?::\d+)+(?:/\w+)?")
# a value's commands: `;`, `|`, `&` and newlines end one outside quotes (`mysql -e 'SELECT
# 1;' -pPW` is one command); an unclosed quote is a plain character
_VALUE_COMMANDS: Final = re.compile(r"(?:'[^'\n]*'|\"[^\"\n]*\"|[^;|&\n'\"]|['\"])+")
_WORDS: Final = re.compile(r"\S+")
_OPENERS: Final = "\"'`($"
_CLOSERS: Final = "\"'`)"


def _command_word(word: str) -> tuple[str, bool]:
    """A word's program name, and whether a quote, backtick or parenthesis opens it (a command
    string: `'mysql`, `db="mysql`, `` `mysql ``, `(mysql`)."""
    core = word.lstrip(_OPENERS)
    opened = len(core) != len(word)
    if not opened and "=" in word:
        rest = word.partition("=")[2]
        stripped = rest.lstrip(_OPENERS)
        if len(stripped) != len(rest):
            core, opened = stripped, True
    return core.rstrip(_CLOSERS).rpartition("/")[2], opened


def _tool_credential(command: str) -> bool:
    """A logon after an Oracle program, or a glued `-pPW` after mysql, on one command; each
    word is looked at once, and the rest of the command searched once (review EA4)."""
    previous = ""
    oracle = mysql = False
    bare: str | None = None  # the Oracle program whose first argument may be a bare logon
    for found in _WORDS.finditer(command):
        word = found.group()
        if mysql and word.strip(_OPENERS + _CLOSERS).startswith("-p"):
            password = word.strip(_OPENERS + _CLOSERS)[2:]
            if password and not _PORT_MAPPING.fullmatch(password):
                return True
        if bare is not None:
            if word.startswith("-") or word.lower() in _ORACLE_KEYWORDS:
                pass
            else:
                if _ORACLE_BARE.fullmatch(word):
                    return True
                bare = None
        name, opened = _command_word(word)
        if not oracle and name.lower() in _ORACLE_TOOLS and found.end() < len(command):
            oracle = True
            if _ORACLE_AT.search(command, found.end()):
                return True
            if name.lower() != "sql":
                bare = name
        if not mysql and (name in _MYSQL_TOOLS or _MARIADB_TOOL.fullmatch(name)):
            mysql = opened or not previous or not previous.startswith("-") or previous == "--"
        previous = word
    return False


def has_credential(value: str) -> bool:
    """Whether a variable's value plainly holds a credential (`_SECRET_VALUE`, an Oracle logon
    after sqlplus and its kin, mysql's `-pPW`), in time linear in the value (review EA4)."""
    if _SECRET_VALUE.search(value) or _comma_password(value):
        return True
    lowered = value.lower()
    tools = ("sql", "exp", "imp", "rman", "dgmgrl", "conn", "maria")
    if not any(tool in lowered for tool in tools):
        return False
    return any(_tool_credential(command) for command in _VALUE_COMMANDS.findall(value))


# the text before an `@` that may end a `user:password` (no blank, `/` or `@` in it; the
# `@` before what may be a host), each found from its start only
_AT_SEGMENT: Final = re.compile(r"(?<![^\s/@])[^\s/@]++(?=@(?!sha(?:1|256|384|512):)[\w\[/])")
# `user:password@` after a `,` (as `_SECRET_VALUE`'s branch, whose password holds no `,`)
_COMMA_USERINFO: Final = re.compile(
    r"(?!(?i:mailto|sips?|xmpp|urn|tel|news|data):)"
    r"(?![\w.-]+:[\w.-]+:\d[\w.+-]*(?::[\w.-]+)?@(?:[a-z][a-z0-9-]*|tar\.[a-z0-9]+)(?:$|[\s,]))"
    r"[^\s/@:,]+:(?!\d{1,5}@[\w-]+(?:$|[\s,]))[^\s/@]+(?<!:)@"
)


def _comma_password(value: str) -> bool:
    """A `user:pass,word@host` after a `,` (`mirror1,deploy:pa,ss@mirror2`: review ED2),
    which `_SECRET_VALUE` leaves out to stay linear: each `,` of a text before an `@` is
    tried where a user may start, and each try stops at the next `,` unless it matches."""
    for segment in _AT_SEGMENT.finditer(value):
        text = segment.group()
        if "," not in text or ":" not in text or text.endswith(":"):
            continue
        for comma in re.finditer(",", text):
            if _COMMA_USERINFO.match(value, segment.start() + comma.end()):
                return True
    return False


# a JSON key naming a page's place, not a credential (`"next_token"`, `"nextPageToken"`,
# AWS's `"NextToken"` and `"StartingToken"`, `"continuationToken"`): the whole key, so
# that `"homepage_token"`, `"restart_token"` and `"api.continue_token"` count (review EA7)
_PAGE_TOKEN: Final = (
    r"(?!(?:(?:next|prev|previous)[_.-]?)?(?:next|page|continuation|pagination|cursor|sync"
    r"|resume|continue|prev|previous|start|starting)[_.-]?token\")"
)
_SECRET_VALUE: Final = re.compile(
    # (a scheme begins after no scheme character: `aaaa…` is scanned once, review EA4)
    # (the run of scheme characters before `://` holds a letter: `1.https://u:pw@h`, ED1)
    r"(?<![A-Za-z0-9+.-])(?=[0-9+.-]*+[A-Za-z])[A-Za-z0-9+.-]*+://[^/@\s:]*:[^/@\s]+@"
    r"|://[^/@\s:]{20,}@"
    r"|(?:(?:^|(?<=\s))(?!(?i:mailto|sips?|xmpp|urn|tel|news|data):)"
    # (not a Maven or Gradle `group:artifact:version[:classifier]@type`)
    r"(?![\w.-]+:[\w.-]+:\d[\w.+-]*(?::[\w.-]+)?@(?:[a-z][a-z0-9-]*|tar\.[a-z0-9]+)(?:$|[\s,]))"
    # (nor `redis:6379@0`, nor Oracle's `jdbc:oracle:thin:@db`: no password before `@`)
    r"[^\s/@:,]+:(?!\d{1,5}@[\w-]+(?:$|[\s,]))[^\s/@]+"
    # after a `,`, a password without one, so that `,a:,a:,a:…` is scanned once (EA4)
    r"|(?<=,)(?!(?i:mailto|sips?|xmpp|urn|tel|news|data):)"
    r"(?![\w.-]+:[\w.-]+:\d[\w.+-]*(?::[\w.-]+)?@(?:[a-z][a-z0-9-]*|tar\.[a-z0-9]+)(?:$|[\s,]))"
    r"[^\s/@:,]+:(?!\d{1,5}@[\w-]+(?:$|[\s,]))[^\s/@,]+)(?<!:)@"
    r"(?!sha(?:1|256|384|512):)[\w\[/]"  # (not an image's digest: `postgres:16@sha256:…`)
    r"|(?i:(?:^|[?&;\s.-])(?:password|pwd|passwd|pass|sslpassword)\s*=\s*"
    rf"{_FLAG_WORD}[^\s&;])"
    # `POSTGRES_PASSWORD=`, `ansible_become_pass=`, `keyStorePassword=`, `PGPASSWORD=`
    r"|(?:^|[\s?&;\"'])(?:[\w.-]*[_.-](?i:password|passwd|pwd|pass|passphrase)"
    r"|[\w.-]*[a-z0-9](?:Password|Passwd|Passphrase|Pwd|Pass|PASSWORD|PASSWD|PASSPHRASE)"
    r"|(?i:passphrase|pgpassword|sshpass))"
    rf"\s*=\s*{_FLAG_WORD}(?!\$\{{)[^\s&;,]"
    r"|(?:^|\s)--password(?:=|\s+)(?!-)\S|(?:^|\s)-u\s?\S+\s+-p(?!\d{1,5}(?::\d{1,5})*(?:/\w+)?(?:\s|$))[^\s-]"
    r"|(?i:aws_secret_access_key|aws_session_token)\s*[=:]\s*\S"
    r"|(?i:(?:^|[;\s])(?:AccountKey|SharedAccessKey)\s*=\s*[^\s;])|[?&]sig=[\w%+/=-]{16,}"
    rf"|(?i:\"[\w.-]*(?:password|passphrase)\"\s*:\s*\"(?!{_FLAG_VALUE}\")[^\"]+\")"
    rf"|(?i:\"{_PAGE_TOKEN}[\w.-]*(?:token|secret|api_?key|access_?key)\"\s*:\s*\""
    rf"(?!{_FLAG_VALUE}\"|\$\{{)"
    r"[^\"\s]{8,}\")"
    # Oracle's `scott/pw@//db`, `scott/pw@orcl`, `scott/pw@db:1521/svc` (not an action's
    # or a package's `owner/repo@v4`, `@main`, `@SHA`, `@feature/x`, nor one whose owner or
    # name has a `-` or `.`, which an unquoted Oracle user or password has not); after
    # sqlplus and its kin, any `user/pw@alias` (`sqlplus scott/tiger@v2`)
    r"|thin:[\w.$#-]+/[^\s/@]+@"
    rf"|^{_ORACLE_LOGON}(?://|(?!(?:v?\d[\w.-]*|main|master|latest|stable|next|develop|dev"
    r"|trunk|HEAD|[0-9a-f]{7,40}|sha(?:1|256|384|512):\S*|(?:feature|feat|fix|bugfix"
    r"|hotfix|release|releases|chore|docs|dependabot|renovate)/\S*)(?:$|\s))[\w(])"
    rf"|(?:^|[\s=\"'])[\w$#]+/[^\s/@]+@(?://|\(|[\w.-]+:\d{{1,5}}(?:[/:\s]|$))"
    # `userid=` of SQL*Loader and Data Pump, quoted or not, with `@` or without (EA6, EA7)
    r"|(?:^|[\s,])(?i:userid)\s*=\s*[\"']?[A-Za-z][\w$#.-]*/(?:\"[^\"\n]*\"[\"']?"
    r"(?:@|$|[\s,])|[^\s/@\"']+[\"']?@[^\s@]|[\w$#]+[\"']?(?:$|[\s,]))"
    r"|hooks\.slack\.com/services/|discord(?:app)?\.com/api/webhooks/"
    r"|\.webhook\.office\.com/webhookb2/|outlook\.office(?:365)?\.com/webhook/"
    r"|\bBasic (?![A-Z]?[a-z]+\b)[A-Za-z0-9+/]{8,}=*|\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\."
    r"|\bBearer\s+(?![A-Z]?[a-z]+\b)[\w.~+/-]{16,}=*"
    r"|PRIVATE KEY(?: BLOCK)?-----|AGE-SECRET-KEY-1"
    r"|\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|gl(?:pat|rt|dt)-[\w-]{16,}"
    r"|xox[abposr]-[\w-]{10,}|xapp-[\w-]{10,}"
    r"|npm_[A-Za-z0-9]{30,}|pypi-[\w-]{30,}|sk-(?:ant-|proj-)?[\w-]{20,}|A(?:KI|SI)A[0-9A-Z]{16}"
    r"|[rs]k_live_[0-9A-Za-z]{20,}|hf_[A-Za-z0-9]{30,}|SG\.[\w-]{20,}\.[\w-]{20,}"
    r"|AIza[0-9A-Za-z_-]{35}|ya29\.[\w-]{20,}|hv[sb]\.[\w-]{20,}|dop_v1_[0-9a-f]{20,}"
    r"|dckr_pat_[\w-]{20,}|glsa_\w{20,}|shpat_[0-9a-fA-F]{32}|gsk_\w{20,}|lin_api_\w{20,}"
    r"|pul-[0-9a-f]{40}|tskey-[a-z]+-[\w-]{10,}|sq0atp-[\w-]{20,})"
)
# URL schemes: `https://host/x` names no local path (`file://` is read on its own)
_SCHEMES: Final = frozenset(
    {"http", "https", "ftp", "ftps", "sftp", "ssh", "git", "git+ssh", "git+https", "git+http",
     "svn", "svn+ssh", "hg", "s3", "gs", "az", "abfs", "wasb", "rsync", "ws", "wss", "docker",
     "oci", "registry", "npm", "pypi", "mailto",
     "redis", "rediss", "postgres", "postgresql", "mysql", "mongodb", "mongodb+srv", "amqp",
     "amqps", "smtp", "smtps", "imap", "imaps", "ldap", "ldaps", "grpc", "nats", "kafka",
     "hdfs", "jdbc", "urn", "github", "gitlab", "bitbucket", "gist", "magnet", "ipfs",
     # network services whose host may be named like a root folder (`tcp://dev/`,
     # `mqtt://home/sensors`: review DC7)
     "tcp", "udp", "tls", "smb", "cifs", "nfs", "afp", "mqtt", "mqtts", "amqp+ssl", "memcached",
     "telnet", "rtsp", "rtmp", "sip", "xmpp", "irc", "ircs", "coap", "dns", "ntp", "snmp",
     "zookeeper", "etcd", "consul", "nats+tls", "socks", "socks5", "socks5h", "http+unix"}
)  # fmt: skip
# programs whose operands may be `HOST:PATH` (a remote or container file, not a local one)
_REMOTE_PATHS: Final = frozenset(
    {"scp", "rsync", "rcp", "sftp", "docker", "podman", "nerdctl", "finch", "kubectl", "oc",
     "lxc", "incus", "multipass", "mcopy", "mdir", "mdel", "mtype", "gcloud", "az", "git",
     "hg", "svn", "ssh", "sshfs", "pscp", "croc", "mosh", "unison", "lftp", "tsh", "vagrant",
     "limactl", "colima", "distrobox", "toolbox", "machinectl", "gsutil", "aws", "rclone",
     "lxd.lxc"}
)  # fmt: skip
_LEADING_LETTERS: Final = re.compile(r"^-[A-Za-z]+")


# a source as the preprocessor reads it: line endings, lines spliced (a `\` before
# blanks too), comments out but not inside strings, digraph and trigraph `#` (reviews
# CZ1, DA1); directives are looked for in it and in the text as written, so that a
# string the tokens here misread (a C++ raw string, a digit separator) hides none (DB2)
_ENDINGS: Final = re.compile(r"\r\n?")
# (libcpp splices a `\` before any of its blanks, form feed, vertical tab and NUL
# included: review DO5)
_SPLICE: Final = re.compile(r"\\[ \t\f\v\0]*\n")
_TOKENS: Final = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?(?:\*/|\Z)', re.DOTALL
)
_HASH: Final = re.compile(r"%:|\?\?=")
_BLANK = r"[ \t\f\v\0]"
_DIRECTIVE: Final = re.compile(
    rf"^{_BLANK}*#{_BLANK}*(include(?:_next)?|import|embed|line|[0-9]+)\b{_BLANK}*(.*)$",
    re.MULTILINE,
)
_DEFINE: Final = re.compile(
    rf"^{_BLANK}*#{_BLANK}*define{_BLANK}+(\w+)(\([^)\n]*\))?{_BLANK}*(.*)$", re.MULTILINE
)
_QUOTED: Final = re.compile(r'"([^"\n]+)"|<([^>\n]+)>')
# Rust's `include!`/`include_str!`/`include_bytes!` with a plain string, or anything else
# (a name brought in by `use … as` too); a file an attribute names (`path`, a debugger
# script), a raw or escaped string there asking
_RUST_INCLUDE: Final = re.compile(
    r'include(?:_str|_bytes)?[ \t\n]*![ \t\n]*[(\[{][ \t\n]*("[^"\\\n]*"(?![ \t\n]*[^)\]} \t\n]))?'
)
_RUST_ALIAS: Final = re.compile(r"\buse\b[^;]*\binclude(?:_str|_bytes)?[ \t\n]+as\b")
_RUST_BUILD_OUTPUT: Final = re.compile(r'concat![ \t\n]*\([ \t\n]*env![ \t\n]*\([ \t\n]*"OUT_DIR"')
_RUST_ATTRIBUTE: Final = re.compile(
    r'#!?\[(?:"[^"\n]*"|[^\]"\n])*?\b(?:path|gdb_script_file|natvis_file)[ \t]*=[ \t]*'
    r'(r#*)?"([^"\n]*)"'
)
# an assembler's `.incbin`/`.include` (in an `asm` string too, `\"` quoted), nasm's
# `incbin`/`%include` (in assembly sources only: `include` starts lines of prose too)
_INCBIN: Final = re.compile(
    r'(?i)(?:\.|%)(incbin|include)\b[ \t]*(\\?"([^"\\\n]*)\\?"(?![ \t]*["\\\w])|[^\s=.].*)'
)
_NASM_LINE: Final = re.compile(
    r'(?im)^[ \t]*(incbin|include)\b[ \t]*(\\?"([^"\\\n]*)\\?"(?![ \t]*["\\\w])|[^\s=.].*)'
)
_ASSEMBLY: Final = re.compile(r"\.(?:s|S|asm|nasm|inc|sx)$")
# the names worth reading for their includes in turn: sources and headers
_SOURCE_NAME: Final = re.compile(
    r"\.(?:c|h|cc|cp|cpp|cxx|c\+\+|hh|hpp|hxx|h\+\+|ipp|tpp|inl|inc|i|ii|m|mm|rs|s|S|sx|"
    r"asm|nasm|def)$"
)


@dataclasses.dataclass(frozen=True)
class _Included:
    """What one source names: files, the `#define`s of its macros, the macros an
    include is named by, and the first include named otherwise (`concat!`, a call)."""

    paths: list[str]
    defines: list[tuple[str, str]]
    macros: list[str]
    opaque: str | None
    code: frozenset[str] = frozenset()  # the paths included as code, whatever their names
    modules: tuple[str, ...] = ()  # Rust's `mod name;`


def _without_comments(text: str) -> str:
    """`text` with its comments blanked and its strings kept (a `/*` in a string or
    after `//` starts no comment: review DA1)."""
    return _TOKENS.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text)


def _includes(text: str, *, assembly: bool = False) -> _Included:
    """The files a source names by `#include`, `#import`, `#embed`, `#line` (and GNU's
    `# 1 "file"`), Rust's `include*!` and attributes, `.incbin`, nasm's `incbin` and
    `%include` (`assembly`: a line starting `include` too)."""
    # a byte order mark anywhere is dropped (gcc skips one before a directive), and
    # where trigraphs may be on (`-std=c11`, `-trigraphs`), `??/` is a backslash that
    # splices too: both readings are looked in (review DO5)
    text = _ENDINGS.sub("\n", text.replace("\ufeff", ""))
    readings = [_SPLICE.sub("", text)]
    if "??/" in text:
        readings.append(_SPLICE.sub("", text.replace("??/", "\\")))
    views = tuple(
        view
        for spliced in readings
        for view in (_HASH.sub("#", _without_comments(spliced)), _HASH.sub("#", spliced))
    )
    spliced = "\n".join(readings)
    found: list[str] = []
    code: list[str] = []  # (`#include "data.txt"` is code: review DM1; `#embed` is data)
    macros: list[str] = []
    opaque: str | None = None
    for view in views:
        for directive, argument in _DIRECTIVE.findall(view):
            argument = argument.strip()
            marker = directive == "line" or directive.isdigit()
            quoted = _QUOTED.search(argument) if marker else _QUOTED.match(argument)
            if quoted is not None:
                found.append(quoted.group(1) or quoted.group(2))
                if not marker and directive != "embed":
                    code.append(found[-1])
            elif view is views[0] or view is views[-2]:
                if not argument:
                    continue
                # a macro (`#include FT_FREETYPE_H`, `#include S(/path)`, `#line 1 L`):
                # followed to its `#define`s in the files read (reviews DB2, DC2)
                words = argument.split()
                macros.append(words[1] if marker and len(words) > 1 else words[0])
    clean = views[0]
    for match in _RUST_INCLUDE.finditer(clean):
        literal = match.group(1)
        if literal is not None:
            found.append(literal[1:-1])
            if not match.group(0).startswith(("include_str", "include_bytes")):
                code.append(found[-1])
        elif not _RUST_BUILD_OUTPUT.match(clean, match.end()):
            opaque = opaque or match.group(0)
    alias = _RUST_ALIAS.search(clean)
    if alias is not None:
        opaque = opaque or alias.group(0)
    for raw, literal in _RUST_ATTRIBUTE.findall(spliced):
        if raw or "\\" in literal:
            opaque = opaque or literal
        else:
            found.append(literal)
            code.append(literal)
    # an `asm` string of C joined from pieces (`".inc" "bin \"f\""`) is looked in joined
    # (review DO8)
    joined = _JOINED_STRINGS.sub("", spliced) if '"' in spliced else spliced
    patterns = (_INCBIN, _NASM_LINE, _NASM_INCBIN) if assembly else (_INCBIN,)
    for pattern in patterns:
        for kind, argument, literal in pattern.findall(joined):
            if literal:
                found.append(literal)
                if kind.lower() == "include":
                    code.append(literal)
            elif not argument.startswith("<"):
                opaque = opaque or argument
    opaque = opaque or _built_directive(spliced, assembly=assembly)
    modules, unbalanced = _rust_modules(clean)
    if unbalanced and modules:
        opaque = opaque or "mod … (its nesting cannot be told here)"
    if _RUST_MACRO_MODULE.search(clean):
        opaque = opaque or "mod $…"  # (a `mod` a macro builds: review DQ8)
    defines = [
        (name, f"{params}{value.strip()}" if params else value.strip())
        for view in dict.fromkeys((views[0], views[-2]))
        for name, params, value in _DEFINE.findall(view)
    ]
    paths = [p for p in dict.fromkeys(found) if p]
    return _Included(paths, defines, macros, opaque, frozenset(code), modules)


# adjacent string literals, which C joins into one (`".inc" "bin"`)
_JOINED_STRINGS: Final = re.compile(r'(?<!\\)"[ \t\n]*"')
# nasm's `incbin` anywhere on a line: after a label (`x: incbin`) or `times N` (review DO7)
_NASM_INCBIN: Final = re.compile(
    r'(?i)\b(incbin)\b[ \t]*(\\?"([^"\\\n]*)\\?"(?![ \t]*["\\\w])|[^\s=.,].*)'
)
# inline assembly of C or Rust, a section attribute, and token pasting, which can make
# either: what hands the assembler text a textual scan cannot follow (DS1)
_ASSEMBLY_GATEWAY: Final = re.compile(
    r"(?m)\b(?:__asm__|__asm)\b|\basm\b[ \t\n]*(?:(?:volatile|__volatile__|goto|inline)\b[ \t\n]*)*"
    r"[({]|\b(?:global_asm|naked_asm|asm)[ \t\n]*!|\b(?:link_section|export_name|link_name)\b"
    r'|(?<!")##(?!")|^[ \t]*#[ \t]*(?:ident|sccs)\b'
)
# attributes whose string reaches the assembler as written (a section's name, a symbol
# version, an alias: `__attribute__((section(".data\n.incbin …")))`, review DS1, DT6),
# looked for where the file has attribute syntax at all
_ATTRIBUTE_SYNTAX: Final = re.compile(r"\b__attribute__\b|\b__declspec\b|\[\[[ \t]*gnu::")
_ASSEMBLER_ATTRIBUTE: Final = re.compile(
    r"\b_*(?:section|symver|alias|ifunc|weakref|allocate)_*[ \t\n]*\("
)


# strings, character literals (at most 4 characters: C's multi-character constants; a
# Rust lifetime `'a` starts none) and comments
_CODE_TOKENS: Final = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n]){1,4}\'|//[^\n]*|/\*.*?(?:\*/|\Z)', re.DOTALL
)


def _blank_token(match: re.Match[str]) -> str:
    """A comment as a blank, a string or character literal as an empty one."""
    token = match.group(0)
    return token[0] * 2 if token[0] in "\"'" else " "
# the lines of assembly the scan follows (a literal include or `.incbin`, after a label or
# `times N`, with nasm's offsets), and C's include directives, which it reads on its own
_FOLLOWED_INCLUDE: Final = re.compile(
    r'(?im)^[ \t]*(?:[A-Za-z_.$][\w.$]*:[ \t]*)?(?:times[ \t]+\S+[ \t]+)?[.%]?(?:incbin|include)'
    r'[ \t]*"[^"\\\n]*"(?:[ \t]*,[ \t]*\w+)*[ \t]*(?:[;@].*)?$'
    r"|^[ \t]*#[ \t]*(?:include|include_next|import)\b.*$"
)
_ANY_INC: Final = re.compile(r"(?i)inc")
# a macro handed a `mod` item (`m!(mod evil)`, expanded by a `$k:tt` matcher: DS3)
_MACRO_MODULE_ARGUMENT: Final = re.compile(r"![ \t\n]*[(\[{][^()\[\]{}]*\bmod\b")
_METAVARIABLE_CALL: Final = re.compile(r"\$[A-Za-z_]\w*[ \t\n]*!")
# Rust's `mod name;`, whose file (`name.rs`, `name/mod.rs`) rustc reads as code (DO9),
# below the folders of the inline modules around it (`mod a { mod b; }`: `a/b.rs`, DQ8)
_RUST_MODULE_TOKEN: Final = re.compile(r"\bmod[ \t\n]+(?:r#)?([A-Za-z_]\w*)[ \t\n]*([;{])|[{}]")
_RUST_MACRO_MODULE: Final = re.compile(r"\bmod[ \t\n]+\$")
# (a character literal first: `'"'` starts no string, review DS3)
_RUST_STRING: Final = re.compile(r"'(?:\\.|[^\\'\n])'|\"(?:\\.|[^\"\\])*\"")


def _rust_modules(text: str) -> tuple[tuple[str, ...], bool]:
    """The module files a Rust source declares (`mod b;` inside `mod a { … }` is
    `a/b`), and whether its braces could not be matched (then a path may be wrong)."""
    stack: list[str | None] = []
    found: list[str] = []
    unbalanced = False
    for match in _RUST_MODULE_TOKEN.finditer(_RUST_STRING.sub('""', text)):
        name, end = match.group(1), match.group(2)
        if name is not None and end == ";":
            found.append("/".join([*(n for n in stack if n), name]))
        elif name is not None:
            stack.append(name)
        elif match.group(0) == "{":
            stack.append(None)
        elif stack:
            stack.pop()
        else:
            unbalanced = True
    return tuple(dict.fromkeys(found)), unbalanced or bool(stack)


def _built_directive(text: str, *, assembly: bool) -> str | None:
    """What may hand the assembler text the scan cannot follow, asked about rather than
    followed: a textual scan cannot read what the compiler builds (reviews DO8, DQ6, DQ7,
    DS1, DS2). In a file read as assembly, an `inc…` anywhere but in the plain includes
    the scan follows (a macro, a `#define`, a pasted `\\x` or `a##b` can build `.incbin`);
    in C, C++ or Rust, inline assembly of any kind (`asm`, `__asm__`, `asm!`,
    `global_asm!`), a section attribute (its name reaches the assembler as written) and
    token pasting (which can make either); a Rust macro called through a metavariable or
    handed a `mod`."""
    if assembly:
        rest = _FOLLOWED_INCLUDE.sub(" ", text)
        found = _ANY_INC.search(rest)
        if found is not None:
            line_start = rest.rfind("\n", 0, found.start()) + 1
            line_end = rest.find("\n", found.end())
            return rest[line_start : line_end if line_end >= 0 else len(rest)].strip()
    else:
        # (comments out and strings blanked: `asm` in a comment, `##` in a string, are
        # no gateway; `asm/**/(` is one: review DT6, DT11)
        code = _CODE_TOKENS.sub(_blank_token, text)
        found = _ASSEMBLY_GATEWAY.search(code)
        if found is None and _ATTRIBUTE_SYNTAX.search(code):
            found = _ASSEMBLER_ATTRIBUTE.search(code)
        if found is not None:
            return found.group(0).strip()
    call = _METAVARIABLE_CALL.search(text) or _MACRO_MODULE_ARGUMENT.search(text)
    return call.group(0) if call else None


# rustup's proxies, which run the toolchain a `rust-toolchain.toml` names, and cargo's
# verbs that run none of the project's code by themselves
_RUST_TOOLS: Final = frozenset(
    {"cargo", "rustc", "rustdoc", "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver",
     "rust-analyzer", "rust-gdb", "rust-gdbgui", "rust-lldb", "rls", "cargo-miri",
     "rustup"}
)  # fmt: skip
_CARGO_QUIET_VERBS: Final = frozenset(
    {"", "tree", "metadata", "fmt", "version", "search", "locate-project", "pkgid",
     "verify-project", "read-manifest", "help", "config", "info", "owner", "fetch",
     "generate-lockfile", "update", "vendor", "package", "list",
     # the verbs that send the registry token (`publish --no-verify` builds nothing):
     # their `[http]` and `registries` settings are judged too (review GJ3)
     "yank", "publish", "login", "logout"}
)  # fmt: skip
# rustup's toolchain files, looked for in the working folder and each one above it
_TOOLCHAIN_FILES: Final = ("rust-toolchain.toml", "rust-toolchain")
# a toolchain's name (`stable`, `1.75.0`, `nightly-2024-01-01-x86_64-unknown-linux-gnu`):
# no path, which rustup would run the `bin/` of (review GD2)
_TOOLCHAIN_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# the keys of a `rust-toolchain.toml`'s `[toolchain]` that name no program (not `path`)
_TOOLCHAIN_KEYS: Final = frozenset({"channel", "components", "targets", "profile"})
# the tables of `.cargo/config.toml` whose keys name no program cargo runs on a quiet verb
# (review GD3), each with the keys allowed in it (None: any key the name check lets pass);
# any other table or key (`alias`, `env`, `target`, `host`, `unstable`, `paths`,
# `include`, `credential-alias` …) asks
_CARGO_CONFIG_TABLES: Final[Mapping[str, frozenset[str] | None]] = {
    "build": frozenset(
        {"target", "target-dir", "build-dir", "jobs", "incremental", "dep-info-basedir",
         "pipelining", "warnings"}
    ),
    # (not `net.ssh.known-hosts`, which trusts a host key for a git server: review GJ3)
    "net": frozenset({"retry", "offline"}),
    # (not `registry.index`, where the crates.io token would be sent: review GJ3)
    "registry": frozenset({"default", "token"}),
    "install": frozenset({"root"}),
    # only the harmless `[http]` keys: `proxy`, `cainfo`, `proxy-cainfo`, `check-revoke`,
    # `ssl-version`, `debug` choose where the registry token goes or who sees it (review
    # GJ3: `cargo owner --list` sent it through the project's proxy and CA)
    "http": frozenset({"timeout", "low-speed-limit", "multiplexing", "user-agent"}),
    "term": None, "cargo-new": None, "source": None,
    "profile": None, "patch": None, "future-incompat-report": None, "cache": None,
    "resolver": None, "gc": None,
}  # fmt: skip
# the tables whose second key is a name the project chooses (`registries.NAME.index`),
# each with the keys allowed below that name: a registry's `index` (or its token,
# credential) is where its token goes (review GJ3)
_CARGO_NAMED_TABLES: Final[Mapping[str, frozenset[str]]] = {
    "registries": frozenset({"protocol"}),
}
# key names (at any depth) that name a program or command, flags for rustc, credentials,
# or an environment: asked wherever they are
_CARGO_RISKY_KEY: Final = re.compile(
    r"alias|rustc|rustdoc|flags|wrapper|runner|linker|credential|fetch-with-cli|include|"
    r"paths|env|browser|program|command|cmd"
)
# programs that read every file they are given as assembly
_ASSEMBLER: Final = re.compile(r"(?:.*-)?(?:as|gas|nasm|yasm)(?:-[0-9][0-9.]*)?")
# gcc's drivers, which take the start of a long option's name for it, and link
_GCC_DRIVER: Final = re.compile(
    r"(?:.*-)?(?:gcc|g\+\+|cc|c\+\+|cpp|clang|clang\+\+|gfortran|gccgo)(?:-[0-9][0-9.]*)?"
)
# the long options of gcc's driver known here (the others, and abbreviations, ask)
_GCC_LONG_OPTIONS: Final = frozenset(
    {"--version", "--help", "--verbose", "--std", "--ansi", "--pedantic", "--pedantic-errors",
     "--all-warnings", "--extra-warnings", "--no-warnings", "--optimize", "--debug",
     "--compile", "--assemble", "--preprocess", "--output", "--shared", "--static", "--pie",
     "--pipe", "--save-temps", "--coverage", "--profile", "--time", "--trace-includes",
     "--traditional-cpp", "--comments", "--comments-in-macros", "--no-line-commands",
     "--dependencies", "--user-dependencies", "--print-search-dirs",
     "--print-libgcc-file-name", "--print-multi-lib", "--print-multi-directory",
     "--print-multi-os-directory", "--print-sysroot", "--print-file-name", "--print-prog-name",
     "--no-standard-includes", "--no-standard-libraries", "--undefine-macro", "--define-macro",
     "--language", "--param", "--target", "--quiet", "--no-canonical-prefixes",
     "--no-integrated-cpp", "--pass-exit-codes", "--trigraphs", "--include-directory",
     "--include-directory-after", "--include", "--imacros", "--library-directory"}
)  # fmt: skip
_GCC_LONG_VALUED: Final = frozenset(
    {"--output", "--language", "--param", "--define-macro", "--undefine-macro",
     "--include-directory", "--include-directory-after", "--include", "--imacros", "--std",
     "--print-file-name", "--print-prog-name", "--library-directory"}
)  # fmt: skip
_GCC_LONG_FAMILIES: Final = ("--warn-", "--machine-")
# the driver's options whose value is the next word
_DRIVER_VALUED: Final = frozenset(
    {"-o", "-D", "-U", "-I", "-L", "-l", "-x", "-include", "-imacros", "-isystem", "-iquote",
     "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-MF", "-MT",
     "-MQ", "-A", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-B", "-e", "-u", "-z",
     "-aux-info", "-dumpbase", "-dumpdir", "-specs", "-wrapper", "-Xclang", "-target", "-arch",
     "-mllvm", "-G", "-V", "-b"}
)  # fmt: skip
# what the driver compiles, assembles or links (anything else goes to ld, which reads a
# file that is no object as a linker script)
_DRIVER_INPUT: Final = re.compile(
    r"\.(?:c|h|cc|cp|cpp|cxx|c\+\+|C|CPP|CC|hh|hpp|hxx|H|h\+\+|tcc|ipp|tpp|inl|i|ii|m|mi|mm|"
    r"M|mii|s|S|sx|f|for|ftn|fpp|f90|f95|f03|f08|F|FOR|FTN|FPP|F90|F95|F03|F08|go|d|di|dd|"
    r"ads|adb|cu|cuh|gch|pch|o|obj|a|lo|so(?:\.[0-9]+)*|dylib|lib|tbd)$"
)
_LINKED_INPUT: Final = re.compile(r"\.(?:o|obj|a|lo|so(?:\.[0-9]+)*|dylib|lib)$")
# the first bytes of an ELF, Mach-O or COFF object, an archive or an LLVM bitcode file
_OBJECT_MAGIC: Final = (
    b"\x7fELF", b"!<arch>\n", b"!<thin>\n", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf",
    b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe", b"BC\xc0\xde",
    b"\xde\xc0\x17\x0b", b"\x64\x86", b"\x4c\x01",
)  # fmt: skip


def _object_file(path: str) -> bool:
    """Whether `path` starts as an object, library or archive does (not a linker script,
    which is text); a file that cannot be read counts as none."""
    data = read_regular(path, 8)
    return data is not None and data.startswith(_OBJECT_MAGIC)


def _assembles(rest: Sequence[Word]) -> bool:
    """Whether a compiler line assembles a source: one named as assembly (`start.S`), or
    a language chosen as assembly (`-x assembler-with-cpp`, `-xassembler`)."""
    values = [w.value or "" for w in rest]
    for index, value in enumerate(values):
        language = value[2:] if value.startswith("-x") and len(value) > 2 else ""
        if value == "-x" and index + 1 < len(values):
            language = values[index + 1]
        if language.startswith("assembler") or (
            not value.startswith("-") and _ASSEMBLY.search(value)
        ):
            return True
    return False


def _command_line_defines(rest: Sequence[Word]) -> list[tuple[str, str]]:
    """The macros the command line defines with a value (`-DH="/x"`, `-D H=<x>`,
    `--define-macro=H=x`), which a source's `#include H` takes."""
    values = [w.value or "" for w in rest]
    found: list[tuple[str, str]] = []
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else ""
        if value in ("-D", "--define-macro"):
            text = following
        elif value.startswith("-D"):
            text = value[2:]
        elif value.startswith("--define-macro="):
            text = value.partition("=")[2]
        else:
            continue
        name, equals, body = text.partition("=")
        if equals and name:
            found.append((name.partition("(")[0], body))
    return found


# (and nasm's pre-include, `-Pfile`, `--pre-include=file`: review DB2)
_MACRO_NAME: Final = re.compile(r"[A-Za-z_]\w*")
_MAX_MACRO_STEPS = 64
_MAX_DEFINED_PATHS = 4096  # quoted paths of `#define`s looked at on one line
_GLUED_HEADER: Final = re.compile(r"^(?:--?(?:include|imacros|pre-include)=?|-P(?=.))")
_MAX_SCANNED_SOURCES = 32
# the options that name a folder of headers (gcc, clang, cpp, nasm, as), and a sysroot,
# whose `usr/include` holds the system's headers
_INCLUDE_DIR_OPTIONS: Final = frozenset(
    {"-I", "-iquote", "-isystem", "-idirafter", "--include-directory",
     "--include-directory-after", "-iprefix", "-iwithprefix", "-iwithprefixbefore"}
)  # fmt: skip
_GLUED_INCLUDE_DIR: Final = re.compile(
    r"(-iquote|-isystem|-idirafter|-iprefix|-iwithprefixbefore|-iwithprefix|-I|"
    r"--include-directory=|--include-directory-after=)"
)
# a system root, and gcc's long names for `-iprefix` and `-iwithprefix` (review DF5)
_SYSROOT_OPTIONS: Final = (
    "--sysroot", "-isysroot", "--include-prefix", "--include-with-prefix",
)  # fmt: skip
# folders of the system's headers, which are checked but not read for their includes
_SYSTEM_HEADERS: Final = ("/usr/", "/nix/store/", "/Library/Developer/")


def _system_header(path: str) -> bool:
    """Whether `path` lies in the system's folders of headers (`/usr/local` aside: users
    write there, Homebrew's on macOS: review DI5), where it really is: `/usr/../work/h.h`
    and a link out of `/usr` are not (review DJ2)."""
    if not path.startswith(_SYSTEM_HEADERS):
        return False
    try:
        path = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    return path.startswith(_SYSTEM_HEADERS) and not (
        path == "/usr/local" or path.startswith("/usr/local/")
    )
# options whose next word is a header the compiler includes (`-include config.h`)
_HEADER_OPTIONS: Final = frozenset({"-include", "-imacros", "--include", "--imacros"})
_INCLUDE_PATH_VARIABLES: Final = (
    "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "OBJCPLUS_INCLUDE_PATH",
)  # fmt: skip


_MAX_SOURCE_BYTES = 16 << 20  # (sqlite's amalgamation is 9 MB)
_MAX_SCANNED_BYTES = 24 << 20  # all the sources of one line together


def _seen_in(name: str, here: paths.Cwd, seen: set[str]) -> bool:
    """Whether every file `name` names below `here` was read already."""
    return all(
        f"{_opened(base, name)}\0{_opened_in(base, name)}" in seen for base in here.candidates
    )


def _opened_in(base: str, name: str) -> str:
    """The folder a compiler looks in for the quoted includes of the file it opened for
    `name` below `base`: the folder of the path as named, where the kernel resolves it,
    not the folder a link to the file leads to (review DL1: `src/h.h -> ../vend/real.h`
    includes `src/sub.h`, not `vend/sub.h`)."""
    return _opened(base, os.path.dirname(name) or ".")


def _opened(base: str, name: str) -> str:
    """The file a compiler opens for `name` below `base`: the kernel resolves `..` after
    a link (`lnk/../h.h`), so the path's links are followed, not collapsed as text
    (review DK1: the scan read another file than `cpp` did)."""
    joined = os.path.join(base, name)
    try:
        return os.path.realpath(joined)
    except (OSError, ValueError):
        return os.path.normpath(joined)


def _small_text(path: str) -> str | None:
    """The text of a regular file of at most a MiB, or None (missing, a FIFO, too large)."""
    data = read_regular(path, _MAX_SOURCE_BYTES + 1)
    if data is None or len(data) > _MAX_SOURCE_BYTES:
        return None
    return data.decode("utf-8", "replace")


def _rust_file_setting(path: str, cargo_config: bool) -> str | None:
    """What in a toolchain file (`cargo_config` False) or a `.cargo/config.toml` at `path`
    may make a Rust tool run a program the project names, as words for a reason ("sets
    `toolchain.path`"); None when it sets nothing but harmless settings. A file that is not
    read whole (too large, not a regular file, unreadable: review GD4) or does not parse
    is not judged, and so is returned as a reason too."""
    data = read_regular(path, _MAX_SOURCE_BYTES + 1)
    if data is None:
        return "cannot be read (not a regular file, or unreadable)"
    if len(data) > _MAX_SOURCE_BYTES:
        return "is too large to read"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "is not UTF-8 text"
    if not cargo_config and "\n" not in text.strip() and "=" not in text:
        # rustup's one-line format: a toolchain's name, or a path it runs (review GD2)
        return None if _TOOLCHAIN_NAME.fullmatch(text.strip()) else "names a toolchain by a path"
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "does not parse as TOML here"
    key = _cargo_config_key(table) if cargo_config else _toolchain_key(table)
    return f"sets `{short(key)}`" if key is not None else None


def _toolchain_key(table: Mapping[str, object]) -> str | None:
    """The first setting of a parsed `rust-toolchain.toml` that is not a toolchain's name
    and its parts (`toolchain.path`, however it is spelt: review GD2), or None."""
    for name, value in table.items():
        if name != "toolchain" or not isinstance(value, dict):
            return name
        for key, setting in value.items():
            if key not in _TOOLCHAIN_KEYS:
                return f"toolchain.{key}"
            if key == "channel" and not (
                isinstance(setting, str) and _TOOLCHAIN_NAME.fullmatch(setting)
            ):
                return "toolchain.channel"
    return None


def _cargo_config_key(table: Mapping[str, object]) -> str | None:
    """The first key of a parsed `.cargo/config.toml` outside the harmless ones
    (`_CARGO_CONFIG_TABLES`), dotted, or None: keys as cargo reads them, whatever their
    spelling (inline tables, quoted and escaped names: review GD3)."""
    for keys in _toml_keys(table, ()):
        named = _CARGO_NAMED_TABLES.get(keys[0])
        if named is not None:
            if len(keys) != 3 or keys[2] not in named:
                return ".".join(keys)
            continue
        allowed = _CARGO_CONFIG_TABLES.get(keys[0], frozenset())
        if (
            len(keys) < 2
            or (allowed is not None and keys[1] not in allowed)
            or any(_CARGO_RISKY_KEY.search(key.lower()) for key in keys)
        ):
            return ".".join(keys)
    return None


def _toml_keys(value: object, above: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The key paths of the settings in a parsed TOML value (tables in arrays included)."""
    if isinstance(value, dict):
        found: list[tuple[str, ...]] = []
        for key, inner in value.items():
            found.extend(_toml_keys(inner, (*above, str(key))))
        return found
    if isinstance(value, list):
        return [keys for item in value for keys in _toml_keys(item, above)]
    return [above] if above else []


# the state files terraform reads and writes in its working folder without being told
# (a committed link there leads them anywhere: review AW1)
_TERRAFORM_STATE_FILES: Final = ("terraform.tfstate", "terraform.tfstate.backup")


def _named_paths(word: Word, *, typed: bool = True) -> list[Word]:
    """The paths a word after an approved prefix may name: itself, a value after `=`
    (`--out=FILE`), pieces of `a=b,c=d` lists, a value glued to a short option
    (`-o.git/x`), an `@FILE`, the path of a `file://` URL, and, unless the program takes
    `HOST:PATH` operands (`typed` False: scp, rsync, `docker cp`), the `PATH` of
    `TYPE:PATH`. A tilde or glob stays one for the checks; a word that cannot be known is
    returned as it is (the checks ask)."""
    text = word.value if word.value is not None else paths.path_text(word)
    if text is None:
        return [word]
    if text.startswith("-"):
        _name, eq, rest = text.partition("=")
        # `--out:FILE`, `-Xloggc:FILE`, `-o:FILE` (nim, java, dotnet): a value after `:`
        # too (review AL1)
        _name, colon, after = _name.partition(":")
        colon_value = _path_words(word, after + eq + rest) if colon else []
        if eq or colon:
            return [*_path_words(word, rest), *colon_value] if eq else colon_value
        # a value glued to a short option, or the rest of a single-dash long option:
        # `-oCLAUDE.md`, `-include/abs`, `-Wl,@FILE` (review S2)
        if text.startswith("--"):
            return []
        after = _LEADING_LETTERS.sub("", text)  # `-include/abs` → `/abs`
        return [*_path_words(word, text[2:]), *_path_words(word, text[1:]),
                *_path_words(word, after)]
    return _path_words(word, text, typed=typed)


def _rooted(path: str) -> bool:
    """Whether the first name of `//NAME/…` is a folder at this machine's root (`home`,
    `tmp`, `etc`), which a URL's host rarely is."""
    first = path.lstrip("/").partition("/")[0]
    return bool(first) and os.path.isdir("/" + first)


def _url_paths(text: str) -> list[str]:
    """What follows `TYPE://` in a word, or its `=` or `,` pieces, where `TYPE` is no URL
    scheme `_SCHEMES` knows, read as a path (`lcov://home/u/.bashrc`: review CY2)."""
    found: list[str] = []
    for piece in (text, *_PATH_PIECES.split(text)):
        rest = piece.rpartition("@")[2] if "@" in piece[1:] else piece
        kind = _TYPED.match(rest)
        if kind is not None and kind.group(1).lower() not in _SCHEMES:
            after = rest[kind.end() :]
            if after.startswith("//") and len(after) > 2:
                found.append(after)
    return list(dict.fromkeys(found))


def _path_words(word: Word, text: str, *, typed: bool = True) -> list[Word]:
    if not text:
        return []
    found = [text]
    found.extend(p for p in _PATH_PIECES.split(text) if p and p != text)
    found.extend(p[1:] for p in list(found) if p.startswith("@") and len(p) > 1)
    # `TYPE:PATH` (`--cov-report=xml:~/.bashrc`, review CV1; `lcov://home/u/.bashrc`
    # is `/home/u/.bashrc`, CY2): what follows a short word and `:`, but a URL's scheme
    for piece in list(found) if typed else ():
        rest = piece.rpartition("@")[2] if "@" in piece[1:] else piece
        while (kind := _TYPED.match(rest)) is not None and not rest.startswith("//", kind.end()):
            # (`unix:~/.bashrc` is a path, review CZ7; before `//` it may be a URL's host,
            # which `_url_paths` checks against the protect rules alone)
            rest = rest[kind.end() :]
            found.append(rest)
        if rest != piece:
            found.append(rest)
    # rclone's local backend on the command line (`:local:~/.bashrc`, review CZ7)
    found.extend(m.group(1) for p in list(found) if (m := _RCLONE_LOCAL.match(p)))
    # `git clone file:///home/u/.ssh x` reads what the path form reads (review W19); git
    # reads `file://h/x` as the relative `h/x`, curl as `/x` on host h: both are checked
    for piece in list(found):
        local = file_url_path(piece)
        if local is not None and local != "?":
            found.append(local)
        if piece[:7].lower() == "file://" and len(piece) > 7:
            found.append(piece[7:])
    if word.value is not None:
        return [Word(text=t, value=t, span=word.span) for t in dict.fromkeys(found)]
    # a tilde or glob: checked as the pattern it spells (`path_text`)
    return [
        Word(text=t, value=None, span=word.span, expansions=word.expansions)
        for t in dict.fromkeys(found)
    ]


def _looks_like_path(text: str) -> bool:
    return "/" in text or text.startswith((".", "~"))


def _nested_yarn_options(words: list[str | None]) -> list[str | None]:
    """`words` of a yarn line up to the script or program that the yarn started by
    `workspaces run` or `workspace NAME` runs: that yarn's own options, not the script's
    (`yarn workspaces -- run --use-yarnrc=F lint` sets the inner yarn's rc, review ID1;
    `yarn workspaces run test -- --watch` hands `--watch` to the script). A word that is
    not literal is read as an option (kept)."""
    start: int | None = None
    for index, word in enumerate(words):
        if word == "workspaces" and "run" in words[index + 1 :]:
            start = words.index("run", index + 1) + 1
        elif word == "workspace" and index + 1 < len(words):
            start = index + 2
    if start is None:
        return words
    end = start
    while end < len(words):
        word = words[end]
        if word is not None and not word.startswith("-") and word != "run":
            break  # (the script's or program's name: the words after it are its own)
        end += 1
    return words[:end]


def _yarn_readings(program: str, words: list[str | None]) -> list[list[str | None]]:
    """A launcher's words (`program`'s, after it) as each reads them: a yarn line also
    without its first `--`, which yarn 1 removes before reading the rest (review HY1);
    berry keeps it."""
    if not yarn_drops_dash([program, *words]):
        return [words]
    cut = words.index("--")
    return [words, [*words[:cut], *words[cut + 1 :]]]
