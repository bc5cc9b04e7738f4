"""Semantic checks over parsed layers; returns every diagnostic, sorted. Rules front end.

Imports `span`, `diagnostics`, `rules.ast`, `shell.model` (expansion kinds). The caller
passes the names of built-in checks and expansion positions (they live in the compiler,
which imports this module, not the other way round).

Codes: rules.never-matches, rules.not-an-option, rules.option-like-path,
rules.unknown-check, rules.useless-check, rules.duplicate-clause, rules.keyword-like-word,
rules.duplicate-rule, rules.contradictory-rules, rules.shadowed-by-deny,
rules.dead-under-locked, rules.duplicate-id, rules.duplicate-header,
rules.duplicate-default, rules.invalid-arity, rules.invalid-number, rules.bad-glob,
rules.unknown-expansion-kind, rules.unknown-position, rules.inspect-needs-substitution,
rules.unknown-retention, rules.bad-env-name, rules.bad-runner, rules.bad-option-glob,
rules.bare-command, rules.protect-folder.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from policylang.diagnostics import Diagnostic, Severity, sort_diagnostics
from policylang.rules import ast
from policylang.rules.globs import glob_problem, glob_regex
from policylang.rules.parser import INVISIBLE, codepoint
from policylang.shell.model import ExpansionKind
from policylang.span import SourceText, Span

_OPTION_CLAUSES = (ast.ClauseKind.WHEN, ast.ClauseKind.UNLESS, ast.ClauseKind.ONLY)
# an option clause's only pattern: the start of long options (`--config.*`)
_OPTION_START = re.compile(r"--[^*=\s]+\*")
_CLAUSE_WORDS = tuple(k.value for k in ast.ClauseKind)
_SUBSTITUTIONS = frozenset({"command-substitution", "process-substitution"})
_ENV_NAME = re.compile(r"[A-Za-z_*?\[][A-Za-z0-9_*?\[\]!-]*")


@dataclass(frozen=True, slots=True)
class Context:
    """What the validator must know from later stages."""

    checks: Collection[str]
    positions: Collection[str]
    # the single-dash long options (`find -name`) the shell analyser knows per command
    long_options: Mapping[str, frozenset[str]] = field(default_factory=dict)
    unbundled: Collection[str] = ()  # commands that never bundle (`-abc` is one option)


class _Sink:
    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(
        self,
        source: SourceText,
        span: Span,
        code: str,
        message: str,
        *,
        help: str | None = None,
        warning: bool = False,
    ) -> None:
        severity = Severity.WARNING if warning else Severity.ERROR
        self.items.append(
            Diagnostic(
                code=code, message=message, source=source, span=span, severity=severity, help=help
            )
        )


def _suggest(word: str, choices: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def validate(layers: Sequence[ast.RuleSet], context: Context) -> tuple[Diagnostic, ...]:
    """Every semantic problem in the layers (earliest layer first), sorted by position."""
    sink = _Sink()
    for ruleset in layers:
        _check_file(ruleset, context, sink)
    _check_ids(layers, sink)
    _check_expected_rules(layers, sink)
    _check_rule_relations(layers, sink)
    _check_bundles(layers, context, sink)
    return sort_diagnostics(sink.items)


_BUNDLE = re.compile(r"-[^-=*\s][^=*\s]+")  # `-rf`, `-auto-approve` (review AP7)


def _spec_keys(pattern: Sequence[ast.PatternWord]) -> set[str]:
    """The names an option spec may be declared under for a rule's pattern: each spelling
    of its leading literal words (`zig cc|c++ **` → `zig`, `zig cc`, `zig c++`)."""
    keys: set[str] = set()
    spellings = [""]
    for word in pattern[:3]:
        if not word.is_literal or len(word.alternatives) > 8:
            break
        spellings = [f"{s} {a}".strip() for s in spellings for a in word.alternatives]
        keys.update(spellings)
    return keys


def _check_bundles(layers: Sequence[ast.RuleSet], context: Context, sink: _Sink) -> None:
    """`when -rf`: the option view splits a bundle of short options (`-rf` is `-r -f`), so
    a clause naming the bundle never sees it and the rule is dead, unless the command
    takes `-rf` as one single-dash long option (`find -name`, or an `options … long` line
    of any layer). `deny rm ** when -rf` had allowed `rm -rf build` (review AO9)."""
    declared: dict[str, set[str]] = defaultdict(set)
    for ruleset in layers:
        for statement in ruleset.statements:
            if isinstance(statement, ast.Options):
                spec = statement.spec
                items = (*spec.long, *spec.value, *spec.optional, *spec.flag)
                declared[statement.command.value].update(n.value for n in items)
    for ruleset in layers:
        for statement in ruleset.statements:
            if not isinstance(statement, ast.Rule) or not statement.pattern:
                continue
            keys = _spec_keys(statement.pattern)
            if keys & set(context.unbundled):
                continue
            longs = set().union(*(declared[k] | context.long_options.get(k, set()) for k in keys))
            for clause in statement.clauses:
                if clause.kind not in _OPTION_CLAUSES:
                    continue
                strict = statement.verdict in (ast.RuleVerdict.DENY, ast.RuleVerdict.ASK)
                # an error where the dead item loosens the rule, a warning where it only
                # makes it stricter
                loosens = (clause.kind is ast.ClauseKind.UNLESS) is not strict
                for item in clause.items:
                    if _BUNDLE.fullmatch(item.value) and item.value not in longs:
                        letters = " ".join(f"-{c}" for c in item.value[1:] if c != "-")
                        sink.add(
                            ruleset.source,
                            item.span,
                            "rules.never-matches",
                            f"`{item.value}` is read as the bundle `{letters}`, so this "
                            "clause never sees it",
                            help=f"name one option per item (`{clause.kind} -{item.value[1]}`;"
                            f" repeat `when` to require several), or declare it with "
                            f"`options NAME long {item.value}`",
                            warning=not loosens,
                        )


# of the invisible characters, what moves text on screen: a line break, a return to the
# line's start, a change of direction (a NUL or an escape inside a quoted word is
# `_check_pattern`'s to warn of; outside quotes the parser reports it)
_DISPLACING = re.compile(
    "[\\r\\x0b\\x0c\\x1c-\\x1e\\x85\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]"
)


def _check_invisible(ruleset: ast.RuleSet, sink: _Sink) -> None:
    """A character that moves text on screen, in a file that parsed: `allow curl ** id net
    \\r# disabled` shows only the comment in a terminal while the rule is live, and a line
    separator in a comment shows what follows it as a line of its own (review AX11)."""
    source = ruleset.source
    text = source.text
    comments = [(c.span.start, c.span.end) for c in ruleset.comments]
    # lines that parsed into a statement (one that did not has its syntax error already)
    parsed = {source.position(st.span.start).line for st in ruleset.statements}
    for match in INVISIBLE.finditer(text):
        start = match.start()
        in_comment = any(low <= start < high for low, high in comments)
        if not in_comment and (
            _DISPLACING.match(text, start) is None
            or source.position(start).line not in parsed
        ):
            continue
        if start == 0 and text[0] == "\ufeff":
            continue
        sink.add(
            ruleset.source,
            Span(start, start + 1),
            "rules.invisible-character",
            f"a character that a viewer may hide or show as a line break "
            f"({codepoint(text[start])}) in {'a comment' if in_comment else 'a statement'}",
            help="what the file says may not be what a reader sees; remove the character",
            warning=True,
        )


_DOUBLE_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_SINGLE_QUOTED_WORD = re.compile(r"(?:^|(?<=[\s|]))'[^\s]*")


def _check_single_quotes(ruleset: ast.RuleSet, sink: _Sink) -> None:
    """A word in single quotes (`deny 'sudo' **`): only double quotes quote in a policy,
    so the rule names a word with quote characters in it, which no command has, and is
    dead without a word said (review BJ2)."""
    text = ruleset.source.text
    for statement in ruleset.statements:
        start, end = statement.span.start, statement.span.end
        piece = _DOUBLE_QUOTED.sub(lambda m: " " * len(m.group()), text[start:end])
        for match in _SINGLE_QUOTED_WORD.finditer(piece):
            at = start + match.start()
            sink.add(
                ruleset.source,
                Span(at, at + len(match.group())),
                "rules.single-quote",
                f"`{match.group()}` is a word with quote characters in it: policy files "
                "quote with double quotes only, so this matches no command or path",
                help='write the word bare, or in double quotes ("…")',
                warning=True,
            )


def _check_file(ruleset: ast.RuleSet, context: Context, sink: _Sink) -> None:
    source = ruleset.source
    _check_invisible(ruleset, sink)
    _check_single_quotes(ruleset, sink)
    seen: dict[type[ast.Statement], ast.Statement] = {}
    for statement in ruleset.statements:
        if isinstance(statement, ast.Header | ast.Default):
            if type(statement) in seen:
                kind = "policy header" if isinstance(statement, ast.Header) else "default"
                code = (
                    "rules.duplicate-header"
                    if isinstance(statement, ast.Header)
                    else "rules.duplicate-default"
                )
                first = source.position(seen[type(statement)].span.start).line
                sink.add(
                    source,
                    statement.span,
                    code,
                    f"second {kind} in this file",
                    help=f"the first is on line {first}",
                )
            seen[type(statement)] = statement
        for checker in _CHECKERS.get(type(statement), ()):
            checker(statement, source, context, sink)


def _check_rule(rule: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(rule, ast.Rule)
    _check_pattern(rule, source, sink)
    for clause in rule.clauses:
        if clause.kind in _OPTION_CLAUSES:
            _check_options(clause, source, sink)
        elif clause.kind in (ast.ClauseKind.OPERAND, ast.ClauseKind.FIRST_OPERAND):
            for item in clause.items:
                _check_glob_syntax(item.value, item.span, source, sink)
        elif clause.kind is ast.ClauseKind.CHECKED_BY:
            name = clause.items[0]
            if name.value not in context.checks:
                sink.add(
                    source,
                    name.span,
                    "rules.unknown-check",
                    f"unknown check `{name.value}`",
                    help=_suggest(name.value, sorted(context.checks))
                    or f"known checks: {', '.join(sorted(context.checks))}",
                )
            elif rule.verdict in (ast.RuleVerdict.DENY, ast.RuleVerdict.ASK):
                sink.add(
                    source,
                    clause.span,
                    "rules.useless-check",
                    f"a check on a `{rule.verdict}` rule has no effect",
                    help="checks only keep `allow` and `readonly` rules from allowing",
                    warning=True,
                )
    for kind in (ast.ClauseKind.REASON, ast.ClauseKind.ID):
        clauses = [c for c in rule.clauses if c.kind is kind]
        for extra in clauses[1:]:
            sink.add(
                source,
                extra.span,
                "rules.duplicate-clause",
                f"second `{kind}` in one rule",
                help="the last one is used",
                warning=True,
            )
    _check_contradiction(rule, source, sink)


MAX_PATTERN_PATHS = 4096  # a pattern's alternatives expand into at most this many trie paths


MAX_PATTERN_WORDS = 64  # far more than any command prefix; the rule trie is that deep


def _check_pattern(rule: ast.Rule, source: SourceText, sink: _Sink) -> None:
    if len(rule.pattern) > MAX_PATTERN_WORDS:
        sink.add(
            source,
            rule.pattern_span,
            "rules.pattern-too-large",
            f"this pattern has {len(rule.pattern)} words, more than {MAX_PATTERN_WORDS}",
            help="match the leading words and end the pattern with `**`",
        )
        return
    if (
        rule.verdict is ast.RuleVerdict.DENY
        or (rule.locked and rule.verdict is ast.RuleVerdict.ASK)
    ) and (len(rule.pattern) == 1 and rule.pattern[0].is_literal):
        # `locked ask kubectl` is `kubectl` alone: an approval of `kubectl` then allowed
        # `kubectl delete pods --all` (review CW5)
        name = rule.pattern[0].alternatives[0]
        sink.add(
            source,
            rule.pattern_span,
            "rules.bare-command",
            f"this matches `{name}` run without arguments only",
            help=f"end the pattern with `**` to cover every use: `{rule.verdict} {name} **`",
            warning=True,
        )
    if rule.verdict in (ast.RuleVerdict.DENY, ast.RuleVerdict.ASK):
        for word in rule.pattern[1:]:
            # a lone short option (`python -m venv`) is left alone: its other spellings
            # glue its value (`-mvenv`), which interpreters' floors already ask about
            if word.is_literal and any(
                a.startswith("-") and len(a) > 2 and a != "--" for a in word.alternatives
            ):
                # `deny rm -rf /srv` does not cover `rm -fr /srv` or `rm -r -f /srv`
                # (review AR5): clauses read options in any spelling
                sink.add(
                    source,
                    word.span,
                    "rules.option-in-pattern",
                    "an option in a pattern matches only this spelling of it (not `-fr`, "
                    "`-r -f` or the long form)",
                    help="write the options as a clause: `deny rm ** when -r operand /srv`",
                    warning=True,
                )
    spelled: list[tuple[Span, tuple[str, ...]]] = [
        (w.span, w.alternatives) for w in rule.pattern[1:]
    ]
    spelled += [(n.span, (n.value,)) for n in rule.clause_items(ast.ClauseKind.OPERAND)]
    for span, values in spelled:
        if any(value.startswith(("~", "$")) for value in values):
            # bash expands `~` and `$HOME` before the command sees its words: the rule
            # matches only the quoted literal `"~/secret.txt"` (review AR4)
            sink.add(
                source,
                span,
                "rules.expanded-word",
                "bash expands `~` and `$…` before a command sees its words, so this "
                "matches only the literal, quoted text",
                help="to protect a path, write `protect read-write ~/… deny`; rules match "
                "the words a command gets",
                warning=True,
            )
    for word in rule.pattern:
        if any(_CONTROL.search(alternative) for alternative in word.alternatives):
            # a NUL or escape in a pattern word never matches what a person reads there
            # (review AO13)
            sink.add(
                source,
                word.span,
                "rules.control-character",
                "a control character in a pattern word: the word matches only a command "
                "that holds one",
                help="remove it if it was not meant; a command word is usually printable",
                # a warning: an imported deny of such a word is still a deny (review AR9)
                warning=True,
            )
    paths = 1
    for word in rule.pattern:
        paths *= len(word.alternatives) if not word.is_any else 1
    if paths > MAX_PATTERN_PATHS:
        sink.add(
            source,
            rule.pattern_span,
            "rules.pattern-too-large",
            f"this pattern stands for more than {MAX_PATTERN_PATHS} word sequences",
            help="split it into several rules, or use `*` for a position with many words",
        )
    for index, pw in enumerate(rule.pattern):
        if pw.is_glob:
            for alternative in pw.alternatives:
                if ast.is_glob_text(alternative):
                    _check_glob_syntax(alternative, pw.span, source, sink)
        if pw.is_rest and index != len(rule.pattern) - 1:
            sink.add(
                source,
                pw.span,
                "rules.never-matches",
                "`**` must be the last pattern word",
                help="`**` already matches every remaining word",
            )
        if pw.is_literal and any(alt == "" for alt in pw.alternatives):
            sink.add(
                source,
                pw.span,
                "rules.never-matches",
                f"empty alternative in `{'|'.join(pw.alternatives)}`",
                help="remove the extra `|`",
            )
        if pw.is_literal and index > 0 and len(pw.alternatives) == 1 and _keyword_like(pw):
            close = difflib.get_close_matches(pw.alternatives[0], _CLAUSE_WORDS, n=1, cutoff=0.8)
            if close and close[0] != pw.alternatives[0]:
                sink.add(
                    source,
                    pw.span,
                    "rules.keyword-like-word",
                    f"pattern word `{pw.alternatives[0]}` looks like the keyword `{close[0]}`",
                    help=f'write `"{pw.alternatives[0]}"` to keep the word',
                    warning=True,
                )


def _keyword_like(word: ast.PatternWord) -> bool:
    """Cheap pre-filter before difflib: could this word be a misspelt clause keyword?"""
    value = word.alternatives[0]
    return 1 < len(value) < 13 and value[0].isalpha() and value[0] in "wuoicr"


def _check_options(clause: ast.Clause, source: SourceText, sink: _Sink) -> None:
    for item in clause.items:
        value = item.value
        if not value.startswith("-"):
            if "/" in value or value.startswith("~"):
                sink.add(
                    source,
                    item.span,
                    "rules.option-like-path",
                    f"`{value}` looks like a path, not an option",
                    help="use `operand GLOB` to match operands",
                )
            else:
                sink.add(
                    source,
                    item.span,
                    "rules.not-an-option",
                    f"`{value}` is not an option",
                    help=f"options start with `-`: did you mean `-{value}`?",
                )
        elif "=" in value or value in ("-", "--"):
            sink.add(
                source,
                item.span,
                "rules.never-matches",
                f"`{value}` can never be an option name",
                help="conditions match option names; write `--output`, not `--output=FILE`",
            )
        elif "*" in value and not _OPTION_START.fullmatch(value):
            sink.add(
                source,
                item.span,
                "rules.bad-option-glob",
                f"`{value}`: `*` in an option clause only ends a long option's start",
                help="`--config.*` matches `--config.registry`, `--config.script-shell` …",
            )


def _check_contradiction(rule: ast.Rule, source: SourceText, sink: _Sink) -> None:
    when = {n.value for n in rule.clause_items(ast.ClauseKind.WHEN)}
    unless = {n.value: n for n in rule.clause_items(ast.ClauseKind.UNLESS)}
    for value in sorted(when & unless.keys()):
        sink.add(
            source,
            unless[value].span,
            "rules.never-matches",
            f"`{value}` is both required (`when`) and excluded (`unless`)",
        )
    only = {n.value for n in rule.clause_items(ast.ClauseKind.ONLY)}
    if only:
        for clause in rule.clauses:
            if clause.kind is ast.ClauseKind.WHEN and not any(
                n.value in only for n in clause.items
            ):
                sink.add(
                    source,
                    clause.span,
                    "rules.never-matches",
                    "`when` requires an option that `only` excludes",
                )


def _check_number(name: ast.Name | None, source: SourceText, sink: _Sink, what: str) -> None:
    if name is not None and not (
        name.value.isascii() and name.value.isdigit() and int(name.value) >= 1
    ):
        sink.add(
            source,
            name.span,
            "rules.invalid-number",
            f"{what} must be a positive whole number, not `{name.value}`",
        )


def _check_arity(node: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(node, ast.Arity)
    if not node.words:
        sink.add(
            source,
            node.span,
            "rules.invalid-arity",
            "`arity` needs a command prefix and a number",
            help="e.g. `arity git 2`",
        )
        return
    if not (node.count.value.isascii() and node.count.value.isdigit()):
        sink.add(
            source,
            node.count.span,
            "rules.invalid-arity",
            f"the last word of `arity` must be a number, not `{node.count.value}`",
            help="e.g. `arity npm run 3`",
        )
    elif int(node.count.value) < 1:
        sink.add(source, node.count.span, "rules.invalid-arity", "an arity must be at least 1")


def _check_glob_syntax(value: str, span: Span, source: SourceText, sink: _Sink) -> None:
    problem = glob_problem(value)
    if problem is not None:
        sink.add(source, span, "rules.bad-glob", problem,
                 help="bracket sets are `[abc]`, `[a-z]` or `[!abc]`")


def _check_glob(name: ast.Name, source: SourceText, sink: _Sink) -> None:
    value = name.value
    parts = value.split("/")
    _check_glob_syntax(value, name.span, source, sink)
    if value.startswith("~") and not (value == "~" or value.startswith("~/")):
        sink.add(
            source,
            name.span,
            "rules.bad-glob",
            f"`{value}`: only `~/` (the home directory) is supported",
            help="write the absolute path",
        )
    elif ".." in parts or not value:
        sink.add(
            source,
            name.span,
            "rules.bad-glob",
            f"`{value}` is not a normalised path glob",
            help="paths are matched after normalisation; remove `..`",
        )
    elif "{" in value and "}" in value and "," in value:
        sink.add(
            source,
            name.span,
            "rules.bad-glob",
            f"`{value}`: braces are not expanded in a path glob (`{{a,b}}` is literal)",
            help="list each path: `~/.ssh/** ~/.aws/**`, or `a|b`",
        )
    elif any("**" in p and p != "**" for p in parts):
        sink.add(
            source,
            name.span,
            "rules.bad-glob",
            f"`**` must be a whole path component in `{value}`",
            help="e.g. `**/.env` or `.git/**`",
        )
    elif "$" in value:
        # `$HOME/.ssh/**` is a workspace folder literally named `$HOME` (review AO9)
        sink.add(
            source,
            name.span,
            "rules.bad-glob",
            f"`{value}`: globs are not expanded, so `$` is a literal character",
            help="write `~/…` for the home directory, or the absolute path",
        )
    elif value not in ("/", "~/") and (
        value.endswith("/") or "" in parts[1:-1] or "." in parts[1:]
    ):
        # paths are matched normalised: `~/.aws/` and `a//b` match nothing (review AO9)
        sink.add(
            source,
            name.span,
            "rules.bad-glob",
            f"`{value}` matches nothing: paths are matched without a trailing `/`, `//` or `/./`",
            help="write `DIR/**` for a folder and everything in it",
        )


def _check_protect(node: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(node, ast.Protect | ast.OutsideWorkspace)
    globs = node.globs if isinstance(node, ast.Protect) else node.exceptions
    for glob in globs:
        _check_glob(glob, source, sink)
        if isinstance(node, ast.Protect) and node.verdict != "allow":
            _check_folder_glob(glob, source, sink)


# folders whose files are what a protect rule means: one named without `/**` covers the
# folder's own entry only (`protect read ~/.ssh deny` left `~/.ssh/id_rsa` readable)
_FOLDER_NAMES = frozenset({
    ".ssh", ".aws", ".azure", ".gnupg", ".kube", ".docker", ".git", ".claude", ".codex",
    ".gemini", ".agents", ".opencode", ".cursor", ".config", "gcloud", ".password-store",
    ".vscode", ".idea", ".husky", ".githooks",
})  # fmt: skip


def _check_folder_glob(glob: ast.Name, source: SourceText, sink: _Sink) -> None:
    value = glob.value
    if any(ch in value for ch in "*?[") or value.rpartition("/")[2] not in _FOLDER_NAMES:
        return
    sink.add(
        source,
        glob.span,
        "rules.protect-folder",
        f"`{value}` covers the folder's own entry, not the files in it",
        help=f"write `{value}/**` for everything in it (or both)",
        warning=True,
    )


def _check_expansion(
    node: ast.Statement, source: SourceText, context: Context, sink: _Sink
) -> None:
    assert isinstance(node, ast.Expansion)
    kinds = [k.value for k in ExpansionKind]
    for name in node.kinds:
        if name.value != "*" and name.value not in kinds:
            sink.add(
                source,
                name.span,
                "rules.unknown-expansion-kind",
                f"unknown expansion kind `{name.value}`",
                help=_suggest(name.value, kinds) or f"kinds: {', '.join(kinds)}",
            )
    positions = sorted(context.positions)
    for name in node.positions:
        if name.value != "*" and name.value not in context.positions:
            sink.add(
                source,
                name.span,
                "rules.unknown-position",
                f"unknown position `{name.value}`",
                help=_suggest(name.value, positions) or f"positions: {', '.join(positions)}",
            )
    if node.action == "inspect" and any(k.value not in _SUBSTITUTIONS for k in node.kinds):
        sink.add(
            source,
            node.span,
            "rules.inspect-needs-substitution",
            "`inspect` applies only to command and process substitutions",
            help="use `ask` or `deny` for other expansion kinds",
        )


def _check_expect(node: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(node, ast.Expect)
    if node.retention is not None and node.retention.value not in ("requery", "durable"):
        sink.add(
            source,
            node.retention.span,
            "rules.unknown-retention",
            f"unknown retention `{node.retention.value}`",
            help=_suggest(node.retention.value, ["requery", "durable"])
            or "use `requery` or `durable`",
        )


def _check_env(node: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(node, ast.Env)
    for name in node.names:
        if not _ENV_NAME.fullmatch(name.value):
            sink.add(
                source,
                name.span,
                "rules.bad-env-name",
                f"`{name.value}` is not an environment variable name or glob",
            )


def _check_path_args(
    node: ast.Statement, source: SourceText, context: Context, sink: _Sink
) -> None:
    assert isinstance(node, ast.PathArgs)
    if node.form != "option":
        return
    if not node.items:
        sink.add(
            source,
            node.span,
            "rules.never-matches",
            "`path-args option` needs at least one option",
            help="e.g. `path-args option sort -o|--output write`",
        )
    for item in node.items:
        if not item.value.startswith("-"):
            sink.add(
                source,
                item.span,
                "rules.not-an-option",
                f"`{item.value}` is not an option",
                help="list the commands first, then the options: "
                "`path-args option md5sum sha256sum -o write`",
            )


def _check_wrapper(node: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(node, ast.Wrapper | ast.Options)
    if isinstance(node, ast.Wrapper):
        _check_number(node.positionals, source, sink, "`positionals`")
    spec = node.spec
    for item in (*spec.value, *spec.optional, *spec.long, *spec.flag):
        if not item.value.startswith("-"):
            sink.add(
                source,
                item.span,
                "rules.not-an-option",
                f"`{item.value}` is not an option",
                help=f"options start with `-`: did you mean `-{item.value}`?",
            )


def _check_runner(node: ast.Statement, source: SourceText, context: Context, sink: _Sink) -> None:
    assert isinstance(node, ast.Runners)
    for name in node.names:
        words = name.value.split()
        if not words or any(w.startswith("-") for w in words) or "/" in words[0]:
            sink.add(
                source,
                name.span,
                "rules.bad-runner",
                f"`{name.value}` is not a program name, or a program name and its verbs",
                help='e.g. `runner strace "poetry run" "uv tool run"`: a name without `/` '
                "(runners are matched by name wherever they are installed), or a quoted "
                "name and verbs",
            )


_Checker = Callable[[ast.Statement, SourceText, Context, _Sink], None]
_CHECKERS: dict[type[ast.Statement], tuple[_Checker, ...]] = {
    ast.Rule: (_check_rule,),
    ast.Arity: (_check_arity,),
    ast.Protect: (_check_protect,),
    ast.OutsideWorkspace: (_check_protect,),
    ast.Expansion: (_check_expansion,),
    ast.Expect: (_check_expect,),
    ast.Env: (_check_env,),
    ast.Wrapper: (_check_wrapper,),
    ast.Options: (_check_wrapper,),
    ast.PathArgs: (_check_path_args,),
    ast.Runners: (_check_runner,),
}


# --------------------------------------------------------------------------- cross-rule


def _rules(layers: Sequence[ast.RuleSet]) -> Iterator[tuple[int, ast.RuleSet, ast.Rule]]:
    for index, ruleset in enumerate(layers):
        for statement in ruleset.statements:
            if isinstance(statement, ast.Rule):
                yield index, ruleset, statement


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_RULE_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def _check_expected_rules(layers: Sequence[ast.RuleSet], sink: _Sink) -> None:
    """`expect … by ID` names a rule of the stack by its `id`, or a check built into the
    engine (`engine.…`, `shell.…`): else it could never pass, and a typo would read as a
    broken rule. Not a rule by location (`FILE:LINE`): that name depends on the path the
    policy was loaded by, so the file passed from one folder and failed from another
    (review BA8)."""
    known: set[str] = set()
    for ruleset in layers:
        for statement in ruleset.statements:
            if isinstance(statement, ast.Rule) and statement.explicit_id is not None:
                known.add(statement.explicit_id.value)
            elif isinstance(statement, ast.Protect) and statement.rule_id is not None:
                known.add(statement.rule_id.value)
    for ruleset in layers:
        for statement in ruleset.statements:
            if not isinstance(statement, ast.Expect) or statement.rule is None:
                continue
            name = statement.rule.value
            if name in known or name.startswith(("engine.", "shell.")):
                continue
            located = ":" in name
            sink.add(
                ruleset.source,
                statement.rule.span,
                "rules.unknown-rule",
                f"`{name}` names a rule by its location, which depends on the path the "
                "policy is loaded by" if located else f"no rule has the id `{name}`",
                help="give the rule an `id` and name that"
                if located
                else _suggest(name, sorted(known)) or "name a rule by its `id`",
            )


def _check_ids(layers: Sequence[ast.RuleSet], sink: _Sink) -> None:
    first: dict[str, tuple[ast.RuleSet, ast.Name]] = {}
    for ruleset in layers:
        for statement in ruleset.statements:
            name = (
                statement.explicit_id
                if isinstance(statement, ast.Rule)
                else (statement.rule_id if isinstance(statement, ast.Protect) else None)
            )
            if name is None:
                continue
            if not _RULE_ID.fullmatch(name.value):
                # `id org.policy:3` in a user layer read as the org's rule in `explain`
                # (review AO13); a control character hides in a terminal
                sink.add(
                    ruleset.source,
                    name.span,
                    "rules.bad-id",
                    f"rule id `{name.value}` may hold only letters, digits, `_`, `.` and `-`",
                    help="an id that looks like a location or holds blanks misleads readers",
                )
            if name.value in first:
                other, other_name = first[name.value]
                where = other.source.location(other_name.span)
                sink.add(
                    ruleset.source,
                    name.span,
                    "rules.duplicate-id",
                    f"rule id `{name.value}` is already used",
                    help=f"first used at {where}",
                )
            else:
                first[name.value] = (ruleset, name)


def _conditions(rule: ast.Rule) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple(
        (c.kind.value, frozenset(n.value for n in c.items))
        for c in rule.clauses
        if c.kind not in (ast.ClauseKind.REASON, ast.ClauseKind.ID)
    )


def covers(general: Sequence[ast.PatternWord], specific: Sequence[ast.PatternWord]) -> bool:
    """Whether every command matched by `specific` is matched by `general` (patterns only)."""
    for index, g in enumerate(general):
        if g.is_rest:
            return True
        if index >= len(specific):
            return False
        s = specific[index]
        if s.is_rest or (s.is_any and not g.is_any):
            return False
        if (g.is_literal or g.is_glob) and not all(_alt_covered(s, a, g) for a in s.alternatives):
            return False
    return len(general) == len(specific)


def _alt_covered(word: ast.PatternWord, alternative: str, general: ast.PatternWord) -> bool:
    """Whether every word `alternative` matches is matched by `general` (globs: if equal)."""
    if word.is_glob and ast.is_glob_text(alternative):
        return alternative in general.alternatives
    if alternative in general.alternatives:
        return True
    return general.is_glob and any(
        ast.is_glob_text(g) and glob_regex(g).fullmatch(alternative) for g in general.alternatives
    )


def _literal_prefix(rule: ast.Rule) -> tuple[str, ...]:
    """The leading single-literal words. A rule can only cover another whose literal
    prefix extends its own, so floors are bucketed by it (no quadratic scan)."""
    prefix: list[str] = []
    for word in rule.pattern:
        if not word.is_literal or len(word.alternatives) != 1:
            break
        prefix.append(word.alternatives[0])
    return tuple(prefix)


def _check_rule_relations(layers: Sequence[ast.RuleSet], sink: _Sink) -> None:
    seen: dict[tuple[object, ...], tuple[int, ast.RuleSet, ast.Rule]] = {}
    floors: dict[tuple[str, ...], list[tuple[int, ast.RuleSet, ast.Rule]]] = defaultdict(list)
    all_rules = list(_rules(layers))
    for index, ruleset, rule in all_rules:
        key = (tuple(rule.pattern), _conditions(rule))
        if key in seen:
            _report_same(seen[key], (index, ruleset, rule), sink)
        else:
            seen[key] = (index, ruleset, rule)
        if not _conditions(rule) and (
            rule.verdict is ast.RuleVerdict.DENY
            or (rule.locked and rule.verdict is ast.RuleVerdict.ASK)
        ):
            floors[_literal_prefix(rule)].append((index, ruleset, rule))
    for index, ruleset, rule in all_rules:
        if rule.verdict is ast.RuleVerdict.DENY:
            continue
        prefix = _literal_prefix(rule)
        nearby = [f for size in range(len(prefix) + 1) for f in floors.get(prefix[:size], ())]
        for f_index, f_ruleset, floor in nearby:
            if floor is rule or not covers(floor.pattern, rule.pattern):
                continue
            where = f_ruleset.source.location(floor.span)
            if floor.verdict is ast.RuleVerdict.DENY and f_index <= index:
                sink.add(
                    ruleset.source,
                    rule.pattern_span,
                    "rules.shadowed-by-deny",
                    "this rule can never decide: a `deny` rule covers it",
                    help=f"the deny is at {where}",
                    warning=True,
                )
                break
            if f_index < index and rule.verdict in (
                ast.RuleVerdict.ALLOW,
                ast.RuleVerdict.READONLY,
            ):
                sink.add(
                    ruleset.source,
                    rule.pattern_span,
                    "rules.dead-under-locked",
                    "this allow is dead: a `locked ask` rule of an earlier layer covers it",
                    help=f"the locked rule is at {where}",
                    warning=True,
                )
                break


def _report_same(
    first: tuple[int, ast.RuleSet, ast.Rule], second: tuple[int, ast.RuleSet, ast.Rule], sink: _Sink
) -> None:
    f_index, f_ruleset, f_rule = first
    index, ruleset, rule = second
    where = f_ruleset.source.location(f_rule.span)
    if f_rule.verdict is rule.verdict and f_rule.locked == rule.locked:
        sink.add(
            ruleset.source,
            rule.pattern_span,
            "rules.duplicate-rule",
            "duplicate rule",
            help=f"the same rule is at {where}",
            warning=True,
        )
    elif f_index == index:
        sink.add(
            ruleset.source,
            rule.pattern_span,
            "rules.contradictory-rules",
            f"`{rule.verdict}` contradicts `{f_rule.verdict}` for the same pattern and clauses",
            help=f"the other rule is at {where}; keep one",
        )
