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

import glob
import itertools
import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from policylang.decision import Decision, Reason, Retention, SegmentDecision, Verdict
from policylang.engine import paths
from policylang.engine.approvals import Approvals, format_rule
from policylang.engine.context import EvalContext
from policylang.engine.envpoison import Poison, poison_of
from policylang.engine.gitconfig import GitConfigInspector
from policylang.engine.rules import RuleView, SegmentRules
from policylang.shell.model import (
    CommandLine,
    Expansion,
    ExpansionKind,
    Redirect,
    Scope,
    Segment,
    SegmentKind,
    Word,
)
from policylang.span import Span

_log = logging.getLogger(__name__)

_HARMLESS_DEVICES = frozenset(
    {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero"}
)
_NETWORK_PREFIXES = ("/dev/tcp/", "/dev/udp/")
_SUBSTITUTIONS = frozenset({ExpansionKind.COMMAND_SUBSTITUTION, ExpansionKind.PROCESS_SUBSTITUTION})
_WORD_KINDS = frozenset(
    {SegmentKind.LOOP_HEADER, SegmentKind.CASE_HEADER, SegmentKind.TEST, SegmentKind.ARITHMETIC}
)


@dataclass(slots=True)
class _Seg:
    """Mutable accumulator for one segment's verdict."""

    text: str
    context: str
    verdict: Verdict = Verdict.ALLOW
    read_only: bool = True
    reasons: list[Reason] = field(default_factory=list)
    # only an unlocked rule-level ask (no floor) can be approved; this is its prefix
    suggestion: tuple[str, ...] | None = None
    floored: bool = False
    locked: bool = False
    writes: str | None = None  # the first file a redirect writes

    def floor(
        self, verdict: Verdict, rule_id: str, message: str, location: str | None = None
    ) -> None:
        if verdict is Verdict.ALLOW:
            return
        self.floored = True
        self.verdict = self.verdict.at_least(verdict)
        reason = Reason(
            rule_id=rule_id, message=message, verdict=verdict, location=location, segment=self.text
        )
        if reason not in self.reasons:
            self.reasons.append(reason)


class Evaluator:
    """Evaluates command lines against one compiled policy (reusable, thread-safe)."""

    def __init__(
        self, rules: RuleView, approvals: Approvals | None = None, *, cache: int = 0
    ) -> None:
        self._rules = rules
        self._approvals = approvals
        self._git = GitConfigInspector()
        self._cache_size = cache
        self._cache: dict[tuple[str, str, str, str, str | None, int], Decision] = {}
        self._lock = threading.Lock()

    def evaluate(self, command: str, ctx: EvalContext) -> Decision:
        """The decision for `command`; never raises (an internal error asks).

        With a cache, a decision is reused only if reaching it touched no file system
        (no path was resolved, no git config read): such a decision depends on nothing but
        the text, the context and the approvals, which are all in the key.
        """
        try:
            key = None
            if self._cache_size > 0 and isinstance(command, str):
                generation = self._approvals.generation if self._approvals is not None else 0
                oldpwd = ctx.env.get("OLDPWD")
                key = (command, ctx.cwd, ctx.workspace, ctx.home, oldpwd, generation)
                cached = self._cache.get(key)
                if cached is not None:
                    return cached
            walk = _Walk(self._rules, ctx, self._approvals, self._git)
            decision = walk.run(command)
            if key is not None and not walk.fs:
                self._remember(key, decision)
            return decision
        except Exception as error:  # INVARIANT: untrusted text never raises out of evaluate
            _log.exception("internal error while evaluating %r", str(command)[:200])
            return internal_error(command, error)

    def _remember(self, key: tuple[str, str, str, str, str | None, int], value: Decision) -> None:
        with self._lock:
            if len(self._cache) >= self._cache_size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = value


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


class _Walk:
    """One evaluation: walks the line and its nested lines, accumulating segments."""

    def __init__(
        self,
        rules: RuleView,
        ctx: EvalContext,
        approvals: Approvals | None,
        git: GitConfigInspector,
    ) -> None:
        self.rules = rules
        self.ctx = ctx
        self.approvals = approvals
        self.git = git
        self.segments: list[_Seg] = []
        self.line_reasons: list[Reason] = []
        self.complete = True
        self.fs = False  # whether the decision depended on the file system
        self.text = ""
        self.functions: set[str] = set()
        # `for f in a *.py` → f: ("a", "*.py"), so `cat "$f"` checks those paths
        self.loop_values: dict[str, tuple[str, ...] | None] = {}
        self.start = paths.Cwd(candidates=frozenset({ctx.cwd}))

    def run(self, command: str) -> Decision:
        self.text = command
        line = self.rules.parse(command)
        self.visit_line(line, self.start, None, "")
        return self.assemble(command)

    # -- structure -------------------------------------------------------------------
    def visit_line(
        self, line: CommandLine, start: paths.Cwd, poison: Poison | None, context: str
    ) -> None:
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
        cwds = paths.track(line.segments, start, self.ctx.home)
        for segment, cwd in zip(line.segments, cwds, strict=True):
            self.visit_segment(segment, cwd, poison, context or line.context)
            poison = poison or poison_of(segment)

    def visit_segment(
        self, segment: Segment, cwd: paths.Cwd, poison: Poison | None, context: str
    ) -> None:
        seg = _Seg(text=segment.text, context=context)
        self.segments.append(seg)
        kind = segment.kind
        if kind is SegmentKind.FUNCTION_DEF and segment.name:
            self.functions.add(segment.name)
        if kind is SegmentKind.SIMPLE and Scope.FUNCTION_BODY in segment.scopes:
            self.recursion(segment, seg)
        # redirects first: a `readonly` rule does not cover a segment that writes a file
        self.redirects(segment.redirects, seg, cwd, poison, segment.words)
        self.assignments(segment, seg, cwd, poison)
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
                self.loop_header(segment)
        # ASSIGNMENT_ONLY and FUNCTION_DEF run nothing by themselves (bodies are segments)
        if poison is not None:
            seg.floor(
                Verdict.ASK,
                "engine.env-poisoned",
                f"not what it seems: {poison.reason} (`{_short(poison.segment_text)}`)",
            )

    def loop_header(self, segment: Segment) -> None:
        name = segment.name or ""
        texts = tuple(paths.path_text(w) for w in segment.words)
        known = segment.words and all(t is not None for t in texts)
        if name in self.loop_values or not known or _may_reassign(self.text, name):
            self.loop_values[name] = None  # reused or unknowable: never trusted
        else:
            self.loop_values[name] = tuple(t for t in texts if t is not None)

    def recursion(self, segment: Segment, seg: _Seg) -> None:
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
        self, word: Word, position: str, seg: _Seg, cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        for expansion in word.expansions:
            self.expansion(expansion, position, seg, cwd, poison)

    def expansion(
        self, exp: Expansion, position: str, seg: _Seg, cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        if exp.kind is ExpansionKind.ANSI_C:
            return
        action = self.rules.disqualifier(exp.kind, position)
        if exp.kind in _SUBSTITUTIONS:
            if exp.nested is None:
                self.complete = False
                seg.floor(
                    Verdict.ASK,
                    "engine.unseen-substitution",
                    f"cannot see inside `{_short(exp.text)}`",
                )
            else:
                self.nested(exp.nested, cwd, poison, f"inside `{_short(exp.text)}`")
            # output of a substitution is data the policy cannot see
            seg.read_only = seg.read_only and exp.nested is not None
        if action is None:
            return
        verdict, rule_id, location = action
        seg.floor(
            verdict,
            rule_id,
            f"{exp.kind} expansion `{_short(exp.text)}` in {position.replace('-', ' ')}",
            location,
        )

    # -- simple commands ---------------------------------------------------------------
    def simple(self, segment: Segment, seg: _Seg, cwd: paths.Cwd, poison: Poison | None) -> None:
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
                    f"`{_short(left.text)}` runs into `{_short(right.text)}`: bash reads one word",
                )
                break
        if words[0].value is None:
            seg.read_only = False
            seg.floor(
                Verdict.ASK,
                "engine.non-literal-command",
                f"the command name `{_short(words[0].text)}` is not a literal word",
            )
            return
        found = self.rules.segment_rules(segment)
        self.apply(found, segment, seg, cwd, poison)

    def apply(
        self,
        found: SegmentRules,
        segment: Segment,
        seg: _Seg,
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
        self.rule_verdict(found, seg)
        self.path_checks(found, seg, cwd)
        if found.git_dirs is not None and seg.verdict is Verdict.ALLOW:
            self.git_check(found, seg, cwd)

    def rule_verdict(self, found: SegmentRules, seg: _Seg) -> None:
        verdict = found.verdict
        reason = found.reason
        if verdict is Verdict.ALLOW and found.read_only and seg.writes is not None:
            # the rule no longer applies; what would without it is at least ask
            rule = reason.rule_id if reason is not None else "readonly"
            verdict = self.rules.policy.default.at_least(Verdict.ASK)
            reason = Reason(
                rule_id=rule,
                message=f"the read-only rule `{rule}` does not cover writing `{seg.writes}`",
                verdict=verdict,
                location=reason.location if reason is not None else None,
            )
        if (
            verdict is Verdict.ASK
            and not found.locked
            and not found.exception
            and self.approvals is not None
            and found.inner_values
        ):
            approved = self.approvals.match(found.inner_values)
            if approved is not None and len(approved) >= found.specificity:
                verdict = Verdict.ALLOW
                reason = Reason(
                    rule_id="approval",
                    message=f"approved: `{format_rule(approved)}`",
                    verdict=Verdict.ALLOW,
                    segment=seg.text,
                )
        if reason is not None:
            seg.reasons.append(
                Reason(
                    rule_id=reason.rule_id,
                    message=reason.message,
                    verdict=reason.verdict,
                    location=reason.location,
                    segment=seg.text,
                )
            )
        if verdict is Verdict.ASK and not found.locked:
            seg.suggestion = found.suggest()
        seg.locked = found.locked and verdict is not Verdict.ALLOW
        seg.verdict = seg.verdict.at_least(verdict)

    # -- paths -------------------------------------------------------------------------
    def path_checks(self, found: SegmentRules, seg: _Seg, cwd: paths.Cwd) -> None:
        for word, access, recursive in found.path_words:
            if access != "read":
                seg.read_only = False
            self.check_path_word(word, access, seg, cwd, subtree=recursive)
        if found.implicit_cwd_read:
            for directory in sorted(cwd.candidates):
                self.check_absolute((directory,), "read", seg, directory)
            if not cwd.known:
                seg.floor(
                    Verdict.ASK,
                    "engine.unknown-cwd",
                    "the working directory is not known after a `cd` to a non-literal path",
                )

    def check_path_word(
        self, word: Word, access: str, seg: _Seg, cwd: paths.Cwd, *, subtree: bool = False
    ) -> None:
        value = word.value
        if value is None:
            if _is_process_substitution(word):
                return  # the path is a pipe; its command is evaluated on its own
            values = self.loop_variable(word)
            if values is not None:
                for one in values:
                    self.check_path_word(
                        Word(text=one, value=None, span=word.span, expansions=_GLOB_MARK),
                        access,
                        seg,
                        cwd,
                        subtree=subtree,
                    )
                return
            value = paths.path_text(word)
            if value is None:
                seg.floor(
                    Verdict.ASK,
                    "engine.unknown-path",
                    f"cannot tell which file `{_short(word.text)}` names",
                )
                return
            if _glob_may_reach_hidden(value):
                seg.floor(
                    Verdict.ASK,
                    "engine.glob-path",
                    f"the glob `{_short(word.text)}` may match a protected file",
                )
            if subtree and any(ch in value for ch in "*?[{"):
                directory = _glob_directory(value)
                self.check_path(directory, access, seg, cwd, subtree=True)
            if any(ch in value for ch in "*?["):
                self.check_glob(value, access, seg, cwd, subtree=subtree)
        self.check_path(value, access, seg, cwd, subtree=subtree)

    def check_glob(
        self, pattern: str, access: str, seg: _Seg, cwd: paths.Cwd, *, subtree: bool
    ) -> None:
        """Check what a glob matches now (`cat *` reading a workspace `server.key`).

        The glob is expanded the way bash would (no dotfiles unless the pattern says so);
        too many matches to check is itself a reason to ask.
        """
        self.fs = True
        expanded = paths.expand_home(pattern, self.ctx.home)
        if expanded is None:
            return  # `~user/…`: resolve() already reports it as unknowable
        for base in sorted(cwd.candidates):
            absolute = expanded if expanded.startswith("/") else f"{base.rstrip('/')}/{expanded}"
            try:
                matches = list(itertools.islice(glob.iglob(absolute), _GLOB_CAP + 1))
            except (OSError, ValueError, RecursionError):
                matches = [""] * (_GLOB_CAP + 1)
            if len(matches) > _GLOB_CAP:
                seg.floor(
                    Verdict.ASK,
                    "engine.glob-path",
                    f"the glob `{_short(pattern)}` matches more than {_GLOB_CAP} files to check",
                )
                return
            for match in matches:
                self.check_path(match, access, seg, cwd, subtree=subtree)
            if expanded.startswith("/"):
                return

    def loop_variable(self, word: Word) -> tuple[str, ...] | None:
        """The values of a `for` variable a word consists of (`$f`, `"${f}"`), if known."""
        if len(word.expansions) != 1 or word.expansions[0].kind is not ExpansionKind.PARAMETER:
            return None
        name = word.expansions[0].name
        if name is None or word.text.strip('"') not in (f"${name}", f"${{{name}}}"):
            return None
        return self.loop_values.get(name)

    def check_path(
        self, value: str, access: str, seg: _Seg, cwd: paths.Cwd, *, subtree: bool = False
    ) -> None:
        if value in _HARMLESS_DEVICES or value.startswith("/dev/fd/"):
            return
        if value.startswith(_NETWORK_PREFIXES):
            seg.read_only = False
            seg.floor(
                Verdict.ASK, "engine.network-redirect", f"`{value}` opens a network connection"
            )
            return
        self.fs = True
        forms, complete = paths.resolve(value, cwd, self.ctx.home)
        if (
            subtree
            and access == "read"
            and all(paths.is_within(form, self.ctx.workspace) for form in forms)
        ):
            # reading a tree inside the workspace is the everyday case (`grep -r x .`); a
            # recursive read of anything else (`grep -r x ~`) must not reach protected files
            subtree = False
        if not complete:
            seg.floor(
                Verdict.ASK,
                "engine.unknown-path",
                f"cannot tell where `{_short(value)}` points (working directory or user unknown)",
            )
        self.check_absolute(forms, access, seg, value, subtree=subtree)

    def check_absolute(
        self, forms: Sequence[str], access: str, seg: _Seg, shown: str, *, subtree: bool = False
    ) -> None:
        for reason in self.rules.path_verdicts(forms, access, self.ctx, shown, subtree=subtree):
            seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)

    # -- redirects, assignments ------------------------------------------------------
    def redirects(
        self,
        redirects: Sequence[Redirect],
        seg: _Seg,
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
                    f"the redirect target `{_short(target.text)}` runs into the next word",
                )
            heredoc = redirect.heredoc
            if heredoc is not None:
                for exp in heredoc.expansions:
                    self.expansion(exp, "heredoc-body", seg, cwd, poison)
            target = redirect.target
            if target is None:
                continue
            self.expansions(target, "redirect-target", seg, cwd, poison)
            self.redirect_target(redirect, target, seg, cwd)

    def redirect_target(self, redirect: Redirect, target: Word, seg: _Seg, cwd: paths.Cwd) -> None:
        op = redirect.op
        if op in ("<<<", "<<", "<<-"):
            return
        value = target.value
        if op in (">&", "<&", "&>") and value is not None and _is_fd_word(value):
            if op == "&>":
                seg.read_only = False
            return
        writes = redirect.writes or op == ">&"
        access = "write" if writes else "read"
        if value is not None and (value in _HARMLESS_DEVICES or value.startswith("/dev/fd/")):
            return
        if writes:
            seg.read_only = False
            if seg.writes is None:
                seg.writes = _short(target.text)
        self.check_path_word(target, access, seg, cwd)
        if redirect.op == "<>":
            self.check_path_word(target, "read", seg, cwd)

    def assignments(
        self, segment: Segment, seg: _Seg, cwd: paths.Cwd, poison: Poison | None
    ) -> None:
        for assignment in segment.assignments + segment.declared:
            values = (assignment.value,) if assignment.value is not None else ()
            for word in values + (assignment.array or ()):
                self.expansions(word, "assignment-value", seg, cwd, poison)
            if assignment.subscript is not None:
                self.expansions(assignment.subscript, "assignment-value", seg, cwd, poison)
            for reason in self.rules.env_verdicts(assignment.name, seg.text):
                seg.floor(reason.verdict, reason.rule_id, reason.message, reason.location)

    # -- git -----------------------------------------------------------------------------
    def git_check(self, found: SegmentRules, seg: _Seg, cwd: paths.Cwd) -> None:
        self.fs = True
        directories: list[str] = []
        for target in found.git_dirs or ():
            forms, complete = paths.resolve(target, cwd, self.ctx.home)
            if not complete or not forms:
                seg.floor(
                    Verdict.ASK, "engine.git-config", f"cannot tell which repository `{target}` is"
                )
                return
            directories.append(forms[0])
        if not found.git_dirs:
            directories.extend(sorted(cwd.candidates))
            if not cwd.known:
                seg.floor(
                    Verdict.ASK, "engine.git-config", "cannot tell which repository git runs in"
                )
        for directory in directories:
            risks, complete = self.git.risks_for(directory)
            if not complete:
                seg.floor(
                    Verdict.ASK,
                    "engine.git-config",
                    f"the git config of `{directory}` could not be read; it may run programs",
                )
            for risk in risks:
                seg.read_only = False
                seg.floor(
                    Verdict.ASK,
                    "engine.git-config",
                    f"the repository's git config sets `{risk.key}` ({risk.file}), "
                    "so git may run a program",
                )

    # -- assembly ------------------------------------------------------------------------
    def assemble(self, command: str) -> Decision:
        decisions = tuple(
            SegmentDecision(
                text=s.text,
                verdict=s.verdict,
                read_only=s.read_only,
                reasons=tuple(s.reasons),
                context=s.context,
            )
            for s in self.segments
        )
        verdict = Verdict.ALLOW
        for s in self.segments:
            verdict = verdict.at_least(s.verdict)
        for reason in self.line_reasons:
            verdict = verdict.at_least(reason.verdict)
        reasons: list[Reason] = []
        for s in self.segments:
            reasons.extend(s.reasons)
        reasons.extend(self.line_reasons)
        read_only = all(s.read_only for s in self.segments)
        retention: Retention | None
        if not self.complete:
            retention = None
        else:
            retention = Retention.REQUERY if read_only else Retention.DURABLE
        return Decision(
            command=command,
            verdict=verdict,
            retention=retention,
            concurrency_safe=retention is Retention.REQUERY,
            reasons=tuple(reasons),
            segments=decisions,
            suggested_rule=self.suggestion(verdict),
            locked=any(s.locked for s in self.segments),
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


def _is_fd_word(value: str) -> bool:
    return value == "-" or value.rstrip("-").isdigit()


_GLOB_CAP = 256  # files a glob may match before the engine stops checking them one by one

# marks a re-checked loop value as a possible glob (path_text takes its text)
_GLOB_MARK = (Expansion(kind=ExpansionKind.GLOB, text="", span=Span(0, 0)),)


_REASSIGNERS = re.compile(
    r"\b(read|declare|typeset|local|export|readonly|eval|let|printf|mapfile|readarray|getopts"
    r"|unset|source)\b|\(\(|\$\[|(^|[\s;&|(]|\\)\.\s"
)


def _may_reassign(text: str, name: str) -> bool:
    """Whether a line may change variable `name` other than by its `for` loop (textual)."""
    return re.search(rf"\b{re.escape(name)}(\[[^]]*\])?\+?=", text) is not None or (
        _REASSIGNERS.search(text) is not None
    )


def _is_process_substitution(word: Word) -> bool:
    return (
        bool(word.expansions)
        and all(exp.kind is ExpansionKind.PROCESS_SUBSTITUTION for exp in word.expansions)
        and word.text.startswith(("<(", ">("))
    )


def _glob_directory(pattern: str) -> str:
    """The literal directory a glob lies in: `/*` → `/`, `~/x/*.py` → `~/x`."""
    parts = pattern.split("/")
    literal: list[str] = []
    for part in parts:
        if any(ch in part for ch in "*?[{"):
            break
        literal.append(part)
    joined = "/".join(literal)
    return joined or ("/" if pattern.startswith("/") else ".")


def _glob_may_reach_hidden(pattern: str) -> bool:
    """Whether a glob may match a name the literal text does not show.

    A glob char in a directory component, a leading-dot or bracket final component, or
    braces can reach files the text does not spell out.
    """
    head, _, last = pattern.rpartition("/")
    if any(ch in head for ch in "*?[{"):
        return True
    return last.startswith((".", "[", "?", "{")) or "{" in last


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _snippet(text: str, start: int, end: int) -> str:
    piece = text[start:end] if 0 <= start < end <= len(text) else ""
    return f"`{_short(piece)}`" if piece.strip() else "part of the line"


__all__ = ["Evaluator", "internal_error"]
