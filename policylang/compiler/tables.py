"""The compiled tables other than the rule trie: arity, paths, disqualifiers, programs.

Stage: compiler output (re-exported by `compiler.tree`, the artefact's public module).
Imports `decision`, the shell model and wrapper table, and `compiler.paths`.
"""

from __future__ import annotations

import enum
import fnmatch
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from policylang.compiler import paths
from policylang.decision import Verdict
from policylang.shell.model import ExpansionKind


class Access(enum.StrEnum):
    """How a path is used. Rules may say READ_WRITE; lookups ask READ or WRITE."""

    READ = "read"
    WRITE = "write"
    READ_WRITE = "read-write"

    def covers(self, access: Access) -> bool:
        return self is Access.READ_WRITE or self is access


class ExpansionPosition(enum.StrEnum):
    COMMAND_NAME = "command-name"
    ARGUMENT = "argument"
    REDIRECT_TARGET = "redirect-target"
    ASSIGNMENT_VALUE = "assignment-value"
    HEREDOC_BODY = "heredoc-body"


class ExpansionAction(enum.StrEnum):
    """What an expansion in a position does: no floor, a floor, or inspect the inner line."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"
    INSPECT = "inspect"

    @property
    def floor(self) -> Verdict:
        """The verdict floor; INSPECT imposes none by itself (the inner commands decide)."""
        if self is ExpansionAction.ASK:
            return Verdict.ASK
        if self is ExpansionAction.DENY:
            return Verdict.DENY
        return Verdict.ALLOW


class OperandRole(enum.StrEnum):
    READ = "read"  # every operand is read
    WRITE = "write"  # every operand is written
    COPY = "copy"  # the last operand is written, the others are read
    MOVE = "move"  # as COPY, and the others are written too: they are removed (`mv`)


# Words that put a program's verb in another scope, each with how many operands follow
# it: yarn's `workspace NAME` (yarn 1 and berry) and berry's `workspaces foreach [OPTS]`
# run the verb after them in a workspace, so a runner's verb may follow them (`yarn
# workspace a exec CMD`, `yarn workspaces foreach -A exec CMD`: review BI1). Only
# stricter: a line they do not scope reads as before.
RUNNER_SCOPES: Mapping[str, tuple[tuple[tuple[str, ...], int], ...]] = dict.fromkeys(
    ("yarn", "yarnpkg"), ((("workspace",), 1), (("workspaces", "foreach"), 0))
)
# readings `RunnerTable.find` tries where a scope's word may be an option's value
_MAX_SCOPE_FORKS = 8


def scope_operand_ends(values: Sequence[str | None], start: int, operands: int) -> list[int]:
    """Where the `operands` operands of a scope that start at `start` may end: yarn reads
    its options, and `--`, between `workspace` and its NAME (`yarn workspace --silent a
    build`, `yarn workspace -- a exec CMD`: review HH1). An option without `=` may take
    the next word as its value (`--cwd d`), and a word that cannot be read may be an
    option: each reading is one end, the one that reads every option as a flag first."""
    ends: list[int] = []
    seen: set[tuple[int, int, bool]] = set()  # (each state once: options do not multiply)
    stack = [(start, operands, True)]
    while stack and len(ends) < _MAX_SCOPE_FORKS:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        index, left, options = state
        if left == 0:
            if index not in ends:
                ends.append(index)
            continue
        if index >= len(values):
            continue
        value = values[index]
        # (pushed last, read first: every option a flag)
        if options and value == "--":
            stack.append((index + 1, left, False))
        elif options and value is not None and value.startswith("-") and value != "-":
            if "=" not in value:
                stack.append((index + 2, left, True))  # (the option's value, perhaps)
            stack.append((index + 1, left, True))
        else:
            if value is None and options:
                stack.append((index + 1, left, True))  # (an option, perhaps)
            stack.append((index + 1, left - 1, options))
    return ends


def _scope_widths(
    scopes: Sequence[tuple[tuple[str, ...], int]], values: Sequence[str | None], index: int
) -> list[int]:
    """How many words the scope at `index` of `values` may take (`workspace a`: 2; each
    reading of `scope_operand_ends`), or none. A word that cannot be read may be the
    scope's later word (`workspaces "$x"`)."""
    for words, operands in scopes:
        if index + len(words) > len(values) or values[index] != words[0]:
            continue
        if all(values[index + k] in (word, None) for k, word in enumerate(words[1:], 1)):
            ends = scope_operand_ends(values, index + len(words), operands)
            return [end - index for end in ends]
    return []


@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerTable:
    """Programs that run a command given in their operands: alone (`strace CMD`) or by
    verbs (`poetry run CMD`, `uv tool run CMD`). An approval of a runner never covers the
    command it runs.

    `exact` names the runners whose command is known to start at their first operand
    after their own options, with every later word the command's (`strace`, `uv run`).
    Others take positional words first (`faketime TIME CMD`, `aws-vault exec PROFILE`),
    shell strings (`hyperfine 'CMD'`, `tmux send-keys`), or their own options after the
    command (`npm exec PKG --registry …`, `gdb PROG -ex …`): their command cannot be
    told, so no approval covers a use of them and none is suggested (review U).

    >>> table = RunnerTable(programs=frozenset({"strace"}),
    ...                     verbs=frozenset({("uv", "run"), ("uv", "tool", "run")}),
    ...                     exact=frozenset({("strace",), ("uv", "run")}))
    >>> [table.length(w.split()) for w in ("strace ls", "/usr/bin/uv run x", "uv sync", "uv")]
    [1, 2, 0, 0]
    >>> [table.length(w.split()) for w in ("uv --directory d run x", "uv -q ru x", "uv x run")]
    [4, 3, 0]
    >>> table.find("uv tool run x".split()), table.find("uv tool list".split())
    ((3, ('uv', 'tool', 'run')), (0, None))
    >>> table.is_exact(("uv", "run")), table.is_exact(("uv", "tool", "run"))
    (True, False)
    """

    programs: frozenset[str] = frozenset()
    verbs: frozenset[tuple[str, ...]] = frozenset()  # (program, verb, …)
    exact: frozenset[tuple[str, ...]] = frozenset()
    # the verb paths by program: most commands are none of them, and are answered at once
    by_program: dict[str, tuple[tuple[str, ...], ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        grouped: dict[str, list[tuple[str, ...]]] = {}
        for entry in self.verbs:
            grouped.setdefault(entry[0], []).append(entry[1:])
        object.__setattr__(
            self, "by_program", {name: tuple(paths) for name, paths in grouped.items()}
        )

    def is_exact(self, runner: tuple[str, ...] | None) -> bool:
        """Whether the command `runner` runs starts at its first operand (see above)."""
        return runner is not None and runner in self.exact

    def length(self, values: Sequence[str | None]) -> int:
        """How many leading words name a runner, through its verbs, or 0 (see `find`)."""
        return self.find(values)[0]

    def find(self, values: Sequence[str | None]) -> tuple[int, tuple[str, ...] | None]:
        """How many leading words name a runner, through its verbs (`poetry -C d run`: 4),
        and which runner (its table entry), or (0, None): the command it runs starts after
        those words.

        Fail closed, since an approval of a runner is what this limits:
        - a verb may be abbreviated (tmux and npm take any unambiguous prefix: `new-s`,
          `ex`), so any prefix of a verb counts as the verb;
        - options before a verb may take a value, which cannot be told from an operand
          without the program's option table, so a word after an option (without `=`) is
          skipped as its possible value;
        - a word that cannot be read may be the verb, and counts as one (the runner is
          then none of the exact ones);
        - a verb may follow a scope of the program's (`RUNNER_SCOPES`: `yarn workspace a
          exec CMD`, `yarn workspaces foreach -A exec CMD`), any number of them; where the
          scope's first word may also be an option's value, both readings are tried.

        >>> table = RunnerTable(verbs=frozenset({("yarn", "exec"), ("yarn", "node")}))
        >>> [table.length(w.split()) for w in ("yarn workspace a exec ls",
        ...     "yarn workspaces foreach -A exec ls", "yarn workspace a build",
        ...     "yarn workspace a workspace b node x.js", "yarn --cwd workspace exec ls",
        ...     "yarn workspace -- a exec ls", "yarn workspace --silent a exec ls")]
        [4, 5, 0, 6, 4, 5, 5]
        """
        if not values or values[0] is None:
            return 0, None
        name = values[0].rpartition("/")[2]
        if name in self.programs:
            return 1, (name,)
        pending = self.by_program.get(name)
        if pending is None:
            return 0, None
        return self._scan(values, 1, name, pending, after_option=False, forks=0)

    def _scan(
        self,
        values: Sequence[str | None],
        start: int,
        name: str,
        pending: tuple[tuple[str, ...], ...],
        *,
        after_option: bool,
        forks: int,
    ) -> tuple[int, tuple[str, ...] | None]:
        """`find` from the word at `start`, where no verb word has matched yet; `forks`
        counts the readings tried so far (past `_MAX_SCOPE_FORKS`, a runner not known)."""
        path: list[str] = [name]
        scopes = RUNNER_SCOPES.get(name, ())
        index = start
        while index < len(values):
            value = values[index]
            if value is None:
                return index + 1, None
            if value.startswith("-") and value != "-":
                after_option = "=" not in value
                index += 1
                continue
            matched = [rest for rest in pending if rest and rest[0].startswith(value)]
            widths = _scope_widths(scopes, values, index) if len(path) == 1 else []
            if matched and value:
                done = [rest for rest in matched if len(rest) == 1]
                if done:
                    return index + 1, (*path, done[0][0])
                path.append(matched[0][0])
                pending, after_option = tuple(rest[1:] for rest in matched), False
            elif widths:
                # (`yarn --cwd workspace exec CMD`: the option's value, perhaps; `yarn
                # workspace -s a exec CMD`: `a` the value of `-s`, perhaps)
                others = [index + 1] if after_option else []
                for start in (*others, *(index + width for width in widths[1:])):
                    if forks >= _MAX_SCOPE_FORKS:
                        return index + 1, None
                    forks += 1
                    found = self._scan(
                        values, start, name, pending, after_option=False, forks=forks
                    )
                    if found[0]:
                        return found
                index += widths[0]
                after_option = False
                continue
            elif after_option:
                after_option = False  # the option's value, perhaps
            else:
                return 0, None  # another verb (`uv sync`)
            index += 1
        return 0, None

    def extend(self, names: Sequence[str]) -> RunnerTable:
        """The table with `names` added (`strace`, or `poetry run`: a program and verbs)."""
        programs, verbs = set(self.programs), set(self.verbs)
        for name in names:
            words = tuple(name.split())
            if len(words) == 1:
                programs.add(words[0])
            elif words:
                verbs.add(words)
        return RunnerTable(
            programs=frozenset(programs), verbs=frozenset(verbs), exact=self.exact
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleRef:
    """Provenance of a rule: what explanations print."""

    id: str
    location: str  # "file:line:col"
    message: str  # the rule's reason, or a generated description
    layer: int = 0


# --------------------------------------------------------------------------- arity


@dataclass(frozen=True, slots=True, kw_only=True)
class ArityTable:
    """How many leading words identify a command (its "always allow" prefix)."""

    entries: Mapping[tuple[str, ...], int]
    longest: int = 1

    def prefix(self, words: Sequence[str]) -> tuple[str, ...]:
        """The always-allow prefix: the longest matching entry's arity, else 1 word.

        >>> table = ArityTable(entries={("git",): 2, ("npm", "run"): 3}, longest=2)
        >>> table.prefix(["git", "status", "-s"])
        ('git', 'status')
        >>> table.prefix(["npm", "run", "build", "--", "--watch"])
        ('npm', 'run', 'build')
        >>> table.prefix(["ls", "-la"])
        ('ls',)
        """
        for size in range(min(self.longest, len(words)), 0, -1):
            arity = self.entries.get(tuple(words[:size]))
            if arity is not None:
                return tuple(words[:arity])
        return tuple(words[:1])

    def arity(self, words: Sequence[str]) -> int:
        """The matching entry's arity (`git`: 2, `npm run`: 3), 1 for none.

        >>> ArityTable(entries={("npm",): 2}, longest=1).arity(["npm"])
        2
        """
        for size in range(min(self.longest, len(words)), 0, -1):
            arity = self.entries.get(tuple(words[:size]))
            if arity is not None:
                return arity
        return 1

    def key_length(self, words: Sequence[str]) -> int:
        """How many leading words the matching entry names (`python3 -m`: 2), 0 for none."""
        for size in range(min(self.longest, len(words)), 0, -1):
            if tuple(words[:size]) in self.entries:
                return size
        return 0


# --------------------------------------------------------------------------- paths


@dataclass(frozen=True, slots=True, kw_only=True)
class ProtectedRule:
    glob: str  # as written: `~/.ssh/**`, `/etc/**`, `**/.env*`
    access: Access
    verdict: Verdict
    ref: RuleRef
    anchor: str  # "home", "absolute" or "workspace"
    regex: paths.LazyRegex = field(compare=False, repr=False)
    literal_prefix: str = ""  # the glob's leading literal directory (for subtree checks)


@dataclass(frozen=True, slots=True, kw_only=True)
class ProtectedMatch:
    rule: ProtectedRule | None  # None for an outside-workspace match
    verdict: Verdict
    ref: RuleRef
    path: str


BUILTIN_LOCATION = "<built-in>"


def builtin_ref(rule_id: str, message: str) -> RuleRef:
    """Provenance for a built-in default (no line in any policy file)."""
    return RuleRef(id=rule_id, location=BUILTIN_LOCATION, message=message, layer=-1)


@dataclass(frozen=True, slots=True, kw_only=True)
class OutsideWorkspace:
    """Verdicts for paths outside the workspace root (`exceptions` are not "outside")."""

    read: Verdict = Verdict.ALLOW
    write: Verdict = Verdict.ASK
    read_ref: RuleRef = field(
        default_factory=lambda: builtin_ref("outside-workspace-read", "read outside the workspace")
    )
    write_ref: RuleRef = field(
        default_factory=lambda: builtin_ref(
            "outside-workspace-write", "write outside the workspace"
        )
    )
    exceptions: tuple[ProtectedRule, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ProtectedTable:
    """Protected-path rules and the outside-workspace rule, over absolute normalised paths."""

    rules: tuple[ProtectedRule, ...] = ()
    outside: OutsideWorkspace = field(default_factory=OutsideWorkspace)

    def match_protected(
        self,
        path: str,
        access: Access,
        *,
        home: str,
        workspace: str,
        subtree: bool = False,
        removal: bool = False,
    ) -> ProtectedMatch | None:
        """The strictest protected-path rule that `path` violates for `access`, or None.

        Args:
            path: absolute, normalised (the engine resolves cwd, `~` and symlinks).
            access: READ or WRITE.
            home: the home directory (absolute).
            workspace: the workspace root (absolute).
            subtree: also match when a protected glob lies *inside* `path` (a recursive
                operation such as `rm -r ~` or `chmod -R` touches everything below).
            removal: the recursive write only removes what is there (`rm -r`): a
                `**/X/…` glob is not reached through the path's own name (`rm -rf .venv`).
        """
        return paths.match_rules(
            self.rules,
            path,
            access,
            home=home,
            workspace=workspace,
            subtree=subtree,
            removal=removal,
        )

    def match_outside(
        self, path: str, access: Access, *, home: str, workspace: str
    ) -> ProtectedMatch | None:
        """The outside-workspace verdict for `path` when it lies outside `workspace`."""
        return paths.match_outside(self.outside, path, access, home=home, workspace=workspace)


# --------------------------------------------------------------------------- expansions


@dataclass(frozen=True, slots=True, kw_only=True)
class DisqualifierEntry:
    action: ExpansionAction
    ref: RuleRef | None  # None: the built-in default


@dataclass(frozen=True, slots=True, kw_only=True)
class DisqualifierTable:
    """(expansion kind, position) -> action; total over both enums."""

    entries: Mapping[tuple[ExpansionKind, ExpansionPosition], DisqualifierEntry]

    def action(self, kind: ExpansionKind, position: ExpansionPosition) -> ExpansionAction:
        return self.entry(kind, position).action

    def entry(self, kind: ExpansionKind, position: ExpansionPosition) -> DisqualifierEntry:
        # INVARIANT: the compiler fills every pair; a missing one fails closed to ASK.
        return self.entries.get((kind, position), _UNKNOWN_DISQUALIFIER)


_UNKNOWN_DISQUALIFIER = DisqualifierEntry(action=ExpansionAction.ASK, ref=None)


# --------------------------------------------------------------------------- programs


@dataclass(frozen=True, slots=True, kw_only=True)
class InterpreterSpec:
    """An interpreter: running code through it is at least `floor`."""

    name: str
    floor: Verdict
    inline: frozenset[str] = frozenset()  # options whose value is program text (`-c`, `-e`)
    program_operand: bool = False  # the first operand is the program (awk)
    ref: RuleRef | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvMatch:
    verdict: Verdict
    ref: RuleRef | None  # None: the default floor
    glob: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvTable:
    """Environment assignments: free globs, floors per glob, a default floor; and the
    globs of variables that hold secrets (`env secret`), whose values must not be printed."""

    rules: tuple[tuple[str, Verdict, RuleRef | None], ...] = ()
    default: Verdict = Verdict.ASK
    default_ref: RuleRef | None = None
    secrets: tuple[tuple[str, RuleRef | None], ...] = ()
    # every secret glob in one pattern: most expansions (`$HOME`) are no secret
    _any_secret: paths.LazyRegex | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.secrets:
            pattern = "|".join(fnmatch.translate(glob.upper()) for glob, _ref in self.secrets)
            object.__setattr__(self, "_any_secret", paths.LazyRegex(pattern, re.DOTALL))

    def secret(self, name: str) -> tuple[str, RuleRef | None] | None:
        """The `env secret` glob (and its rule) that `name` matches, in any case, or None.

        Case is ignored: `*TOKEN*` names `gh_token` too (the executor's scrub does the same).
        """
        upper = name.upper()
        if self._any_secret is None or self._any_secret.match(upper) is None:
            return None
        for glob, ref in self.secrets:
            if fnmatch.fnmatchcase(upper, glob.upper()):
                return glob, ref
        return None

    def match(self, name: str) -> EnvMatch:
        """The strictest matching glob's verdict (free = allow), else the default."""
        best: EnvMatch | None = None
        for glob, verdict, ref in self.rules:
            if fnmatch.fnmatchcase(name, glob) and (
                best is None or verdict.rank > best.verdict.rank
            ):
                best = EnvMatch(verdict=verdict, ref=ref, glob=glob)
        return best or EnvMatch(verdict=self.default, ref=self.default_ref)

    def floor(self, name: str) -> Verdict:
        return self.match(name).verdict


@dataclass(frozen=True, slots=True, kw_only=True)
class PathRoles:
    operands: OperandRole | None = None
    options: Mapping[str, Access] = field(default_factory=dict)  # "-o" -> WRITE
    keys: Mapping[str, Access] = field(default_factory=dict)  # dd "of" -> WRITE


@dataclass(frozen=True, slots=True, kw_only=True)
class PathArgTable:
    commands: Mapping[str, PathRoles] = field(default_factory=dict)

    def roles(self, command: str) -> PathRoles | None:
        return self.commands.get(command)
