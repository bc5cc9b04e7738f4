"""Generators of invariant examples, and corpus-seeded mutation generators.

Internal to `policylang.testing.strategies` (the public façade); needs Hypothesis.
Builds on `policylang.testing._shellgen`; imports `quoting`, `optiontables`, `seeds`,
`cases` and `invariants` (for `DenyCase`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from hypothesis import strategies as st

from policylang.testing import optiontables, quoting, seeds
from policylang.testing._shellgen import (
    _ALPHABET,
    _BOOL,
    _EFFECTS,
    _INTERESTING_VALUES,
    _READ_ONLY,
    _STYLES,
    COMMAND_NAMES,
    CONNECTORS,
    CONSTRUCTS,
    _construct,
    _line_piece,
    _Piece,
    _simple_piece,
    command_lines,
    redirects,
    simple_commands,
    spelled_words,
    word_values,
)
from policylang.testing.cases import Broken, Compound, Respelled, Substituted, Wrapped
from policylang.testing.invariants import DenyCase

# --- examples for the invariants ---------------------------------------------------------

_SAFE_PARTS = _READ_ONLY + _EFFECTS  # no state-changing builtins, no interpreters


@st.composite
def compounds(draw: st.DrawFn) -> Compound:
    """Standalone parts joined by a connector or wrapped in a compound construct."""
    parts = draw(st.lists(_simple_piece(names=_SAFE_PARTS, assignments=False),
                          min_size=2, max_size=3))
    kind = draw(st.sampled_from(CONSTRUCTS))
    conns = draw(st.lists(st.sampled_from(CONNECTORS), min_size=len(parts) - 1,
                          max_size=len(parts) - 1))
    piece = _construct(kind, parts, conns)
    used = _used_parts(kind, parts)
    label = kind if kind != "list" else "/".join(conns).replace("\n", "newline").replace(
        "#", "comment")
    return Compound(text=piece.standalone(), parts=tuple(p.standalone() for p in used),
                    construct=label)


def _used_parts(kind: str, parts: Sequence[_Piece]) -> Sequence[_Piece]:
    if kind in ("negation", "time", "background", "arith-for", "coproc", "regex-test",
                "array", "arith-command"):
        return parts[:1]
    if kind in ("if", "while", "until", "test", "arithmetic"):
        return parts[:2]
    return parts


def _python(inner: str) -> str:
    return "python3 -c " + quoting.single_quoted(f"import os; os.system({inner!r})")


def _node(inner: str) -> str:
    code = f"require('child_process').execSync({json.dumps(inner)})"
    return "node -e " + quoting.single_quoted(code)


def _perl(inner: str) -> str:
    escaped = "".join("\\" + c if c in '\\"$@' else c for c in inner)
    return "perl -e " + quoting.single_quoted(f'system("{escaped}")')


def _awk(inner: str) -> str:
    escaped = inner.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return "awk " + quoting.single_quoted(f'BEGIN {{ system("{escaped}") }}')


WRAPPERS: dict[str, str] = {
    "env": "env {}", "env-assign": "env A=1 {}", "env-unset": "env -u HOME {}",
    "timeout": "timeout 5 {}", "timeout-signal": "timeout -s KILL 10s {}",
    "nice": "nice {}", "nice-n": "nice -n 10 {}", "nohup": "nohup {}",
    "command": "command {}", "exec": "exec {}", "time": "time {}", "stdbuf": "stdbuf -oL {}",
    "setsid": "setsid {}", "ionice": "ionice -c3 {}", "sudo": "sudo {}",
    "sudo-user": "sudo -u root {}", "xargs": "xargs {}", "xargs-null": "xargs -0 {}",
    "doas": "doas {}", "taskset": "taskset 1 {}", "flock": "flock /tmp/lock {}",
    "nohup-env": "nohup env {}", "sudo-timeout": "sudo timeout 5 {}",
    # review AZ2, AZ3: an eval wrapper in its argv mode, an option with an optional value
    "watch-exec": "watch -x {}", "watch-exec-bundle": "watch -tx {}",
    "xargs-max-lines": "xargs --max-lines {}",
}
"""Argv wrappers: `{}` is replaced by the inner command's text."""

_STRING_WRAPPERS: dict[str, Callable[[str], str]] = {
    "bash-c": lambda x: "bash -c " + quoting.single_quoted(x),
    "bash-c-double": lambda x: "bash -c " + quoting.double_quoted(x),
    "sh-c": lambda x: "sh -c " + quoting.single_quoted(x),
    "bash-lc": lambda x: "bash -lc " + quoting.single_quoted(x),
    "eval": lambda x: "eval " + quoting.single_quoted(x),
    # watch joins its operands with spaces and hands them to `sh -c`, like eval: an argv
    # form (`watch -n 1 date x '<' -s`) would mean a different command than its inner one
    "watch": lambda x: "watch -n 1 " + quoting.single_quoted(x),
    "pipe-to-bash": lambda x: "echo " + quoting.single_quoted(x) + " | bash",
    "bash-heredoc": lambda x: "bash <<'EOF'\n" + x + "\nEOF\n",
    "python-os-system": _python, "node-exec-sync": _node, "perl-system": _perl,
    "awk-system": _awk,
    "dash-c": lambda x: "dash -c " + quoting.single_quoted(x),
    "zsh-c": lambda x: "zsh -c " + quoting.single_quoted(x),
    "sudo-sh-c": lambda x: "sudo sh -c " + quoting.single_quoted(x),
    "nohup-bash-c": lambda x: "nohup bash -c " + quoting.single_quoted(x),
    "su-c": lambda x: "su -c " + quoting.single_quoted(x),
    "script-c": lambda x: "script -qc " + quoting.single_quoted(x) + " /dev/null",
    "git-alias": lambda x: "git -c " + quoting.single_quoted("alias.x=!" + x) + " x",
    "find-exec": lambda x: "find . -maxdepth 0 -exec sh -c " + quoting.single_quoted(x)
                           + " \\;",
}


OPAQUE_WRAPPERS = frozenset({"pipe-to-bash", "bash-heredoc", "python-os-system",
                             "node-exec-sync", "perl-system", "awk-system", "script-c",
                             "git-alias", "find-exec"})
"""Wrappers whose inner command is data to the analyser (stdin scripts, interpreter code)."""


@st.composite
def wrapped_commands(draw: st.DrawFn) -> Wrapped:
    """`inner` behind a wrapper: argv wrappers, `bash -c '…'` (exactly re-quoted), eval,
    a script piped or fed by heredoc to a shell, and interpreters calling system()."""
    names = tuple(WRAPPERS) + tuple(_STRING_WRAPPERS)
    wrapper = draw(st.sampled_from(names))
    if wrapper in WRAPPERS:
        # argv wrappers take a plain argv: no assignments, no heredoc, no compound
        inner = draw(_simple_piece(heredocs=False, assignments=False, names=_SAFE_PARTS))
        return Wrapped(text=WRAPPERS[wrapper].format(inner.text), inner=inner.text,
                       wrapper=wrapper)
    inner_text = draw(st.one_of(
        simple_commands(names=_SAFE_PARTS, heredocs=False),
        _line_piece(1, _SAFE_PARTS).filter(lambda p: not p.heredocs).map(_Piece.standalone),
    ))
    if wrapper == "bash-heredoc" and "EOF" in inner_text:
        inner_text = inner_text.replace("EOF", "END")
    return Wrapped(text=_STRING_WRAPPERS[wrapper](inner_text), inner=inner_text,
                   wrapper=wrapper, opaque=wrapper in OPAQUE_WRAPPERS)


_SUBSTITUTION_HOSTS: dict[str, str] = {
    "argument": "echo $({})", "argument-quoted": 'ls "$({})"', "argument-nested":
    "echo $(echo $({}))", "command-name": "$({}) x", "assignment-value": "Y=$({}) true",
    "assignment-only": "Y=$({})", "export": "export Y=$({})",
    "redirect-target": "echo x > $({})", "process-substitution": "diff <({}) file.txt",
    "process-substitution-out": "echo x > >({})", "input-process": "cat < <({})",
    "double-quoted": 'echo "a $({}) b"', "test": "[[ -n $({}) ]]",
    "test-single": '[ -n "$({})" ]', "for-list": "for i in $({}); do echo $i; done",
    "case-subject": "case $({}) in *) true;; esac", "arithmetic": "echo $(( $({}) + 1 ))",
    "parameter-default": "echo ${{Y:-$({})}}", "option-value": "ls --color=$({})",
    "heredoc-body": "cat <<EOF\n$({})\nEOF\n",
}


@st.composite
def substituted_commands(draw: st.DrawFn) -> Substituted:
    """`inner` as a command or process substitution, backticks or heredoc expansion,
    in every position (argument, command name, assignment, redirect target, …)."""
    inner = draw(_simple_piece(heredocs=False, assignments=False, names=_SAFE_PARTS)).text
    position = draw(st.sampled_from((*_SUBSTITUTION_HOSTS, "backtick")))
    if position == "backtick":
        text = "echo `" + inner.replace("\\", "\\\\").replace("`", "\\`") + "`"
    else:
        text = _SUBSTITUTION_HOSTS[position].format(inner)
    return Substituted(text=text, inner=inner, position=position)


@st.composite
def respelled_commands(draw: st.DrawFn, *, redirect: bool = True) -> Respelled:
    """One argv (and maybe a redirect) written with different quoting per word.

    `values` is the argv only; with `redirect`, some spellings also carry `> TARGET`
    with the target spelled differently too.
    """
    name = draw(st.sampled_from(COMMAND_NAMES))
    values = tuple(name.split()) + tuple(draw(st.lists(word_values(min_size=1), max_size=3)))
    target = draw(st.none() | st.sampled_from(_INTERESTING_VALUES[:12])) if redirect else None
    variants: dict[str, None] = {}
    for _ in range(draw(st.integers(2, 4))):
        words = [draw(spelled_words(v)) for v in values]
        if target is not None:
            words.append("> " + draw(spelled_words(target)))
        variants.setdefault(" ".join(words))
    plain = quoting.shell_join(values) + ("" if target is None
                                          else " > " + quoting.single_quoted(target))
    return Respelled(values=values, spellings=(plain, *variants), how="quoting")


@st.composite
def _invocation(
    draw: st.DrawFn, policy_operands: Mapping[str, Sequence[str]] | None = None
) -> optiontables.Invocation:
    named = [t for t in optiontables.TOOLS if t.name in (policy_operands or {})]
    # the tools the policy's rules name, half the time, with the operands they name
    tools = st.sampled_from(optiontables.TOOLS)
    tool = draw(st.one_of(tools, st.sampled_from(named)) if named else tools)
    own = tuple((policy_operands or {}).get(tool.name, ()))
    flags = draw(st.lists(st.sampled_from(sorted(tool.flags)), unique=True, max_size=3))
    valued_letters = draw(st.lists(st.sampled_from(sorted(tool.valued) or ["-"]),
                                   unique=True, max_size=2)) if tool.valued else []
    value_words = st.sampled_from(("5", "out.txt", "x", "GET", "1,2", "p"))
    valued = tuple((letter, draw(value_words)) for letter in valued_letters)
    operands = tuple(draw(st.lists(st.sampled_from(("x", "dir", "file.txt", "/tmp/out", *own)),
                                   min_size=1, max_size=2)))
    return optiontables.Invocation(tool=tool, flags=tuple(flags), valued=valued,
                                   operands=operands)


@st.composite
def _spelling_choice(draw: st.DrawFn, inv: optiontables.Invocation
                     ) -> optiontables.SpellingChoice:
    return optiontables.SpellingChoice(
        bundle=draw(_BOOL),
        long_flags=frozenset(draw(st.sets(st.sampled_from(inv.flags))) if inv.flags else ()),
        abbreviate=draw(_BOOL),
        value_style=draw(st.sampled_from(("separate", "joined", "long-separate",
                                          "long-equals"))),
        options_last=draw(_BOOL),
        double_dash=draw(_BOOL),
    )


@st.composite
def option_respellings(
    draw: st.DrawFn,
    policy_operands: Mapping[str, Sequence[str]] | None = None,
    policy_commands: Sequence[str] = (),
) -> Respelled:
    """One tool call with its options spelled differently (bundled, split, long, `=`,
    abbreviated, moved after the operands, `--`): GNU tools read them all the same.
    `policy_operands`: operand words per tool that the policy's rules name;
    `policy_commands`: commands made from its rules (`seeds.policy_seeds`)."""
    own = [parsed for command in (policy_commands or ())
           if (parsed := optiontables.parse_invocation(command.split())) is not None]
    # the policy's own commands half the time: a rule about `rm -rf /srv` is tested on
    # `rm -rf /srv` itself, respelled (review AR1)
    invocations = _invocation(policy_operands)
    inv = draw(st.one_of(st.sampled_from(own), invocations) if own else invocations)
    choices = draw(st.lists(_spelling_choice(inv), min_size=1, max_size=3))
    argvs = optiontables.respellings(inv, choices)
    return Respelled(values=inv.canonical(), spellings=tuple(" ".join(a) for a in argvs),
                     how="options")


_PATHS = (".env", ".env.local", ".git/config", ".git/hooks/pre-commit", "src/main.py",
          "file.txt", ".ssh/id_rsa", "docs/a b.md")
_PATH_USES = ("cat {}", "rm {}", "ls -l {}", "echo x > {}", "cp {} /tmp/copy", "tee {}",
              "head -n 1 {}", "chmod 600 {}", "sed -i s/a/b/ {}", "cat < {}")


def _path_forms(path: str) -> tuple[str, ...]:
    """Lexically equivalent spellings of a relative path (no `..`: it depends on the tree)."""
    head, _, tail = path.rpartition("/")
    forms = [path, "./" + path, ".//" + path, "././" + path]
    if head:
        forms += [f"{head}/./{tail}", f"{head}//{tail}"]
    return tuple(forms)


@st.composite
def path_respellings(draw: st.DrawFn) -> Respelled:
    """One command on one path, the path spelled `p`, `./p`, `.//p`, `dir/./p`, … (and
    quoted): the same file, so the same verdict."""
    path = draw(st.sampled_from(_PATHS))
    use = draw(st.sampled_from(_PATH_USES))
    forms = draw(st.lists(st.sampled_from(_path_forms(path)[1:]), min_size=1, max_size=3,
                          unique=True))
    spellings = [use.format(quoting.shell_join([path]))]
    spellings += [use.format(draw(spelled_words(form))) for form in forms]
    return Respelled(values=(use.format(path),), spellings=tuple(dict.fromkeys(spellings)),
                     how="paths")


_BREAKERS: tuple[tuple[str, str], ...] = (
    ("unclosed-single-quote", "{} '"), ("unclosed-double-quote", '{} "'),
    ("unclosed-substitution", "{} $("), ("unclosed-backtick", "{} `"),
    ("unclosed-parameter", "{} ${"), ("stray-paren", "{} )"), ("leading-paren", ") {}"),
    ("trailing-pipe", "{} |"), ("trailing-and", "{} &&"), ("leading-pipe", "| {}"),
    ("missing-fi", "if {}; then true"), ("missing-done", "while {}; do true"),
    ("stray-done", "{}; done"), ("stray-case-end", "{} ;;"), ("open-paren", "{} ("),
    ("leading-then", "then {}"),
)


@st.composite
def broken_commands(draw: st.DrawFn, origins: st.SearchStrategy[str] | None = None
                    ) -> Broken:
    """A command line damaged so that bash rejects it (unclosed quote, stray `)`, …)."""
    origin = draw(origins if origins is not None else command_lines(max_depth=1))
    how, template = draw(st.sampled_from(_BREAKERS))
    # a heredoc-bearing line ends in a newline, so appended damage lands on a line of
    # its own, after the body: still outside any quote or heredoc
    return Broken(text=template.replace("{}", origin, 1), origin=origin, how=how)


# --- corpus-seeded ------------------------------------------------------------------------

def corpus_commands(seed_texts: Sequence[str]) -> st.SearchStrategy[str]:
    """Seed commands as they are (raises ValueError for an empty seed list)."""
    if not seed_texts:
        raise ValueError("no seed commands: pass a non-empty sequence (see seeds.load_seeds)")
    return st.sampled_from(tuple(seed_texts))


_MUTATIONS = ("splice", "subshell", "group", "wrap", "bash-c", "substitute", "requote",
              "redirect", "insert-token", "delete", "replace-char", "crossover")


def mutated_commands(seed_texts: Sequence[str]) -> st.SearchStrategy[str]:
    """A seed command mutated once or twice: structurally (splice with another seed,
    wrap, nest as a substitution, re-quote, add a redirect) or textually (insert a
    syntax token, delete, replace a character, crossover). Some results are invalid
    bash on purpose: they exercise the fail-closed paths."""
    pick = corpus_commands(seed_texts)

    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(pick)
        for _ in range(draw(st.integers(1, 2))):
            text = _mutate(draw, text, pick)
        return text

    return build()


def _mutate(draw: st.DrawFn, text: str, pick: st.SearchStrategy[str]) -> str:
    position = st.integers(0, max(0, len(text)))
    match draw(st.sampled_from(_MUTATIONS)):
        case "splice":
            return seeds.splice(text, draw(pick), draw(st.sampled_from(CONNECTORS)))
        case "subshell":
            return f"( {text} )"
        case "group":
            return "{ " + text + "; }"
        case "wrap":
            return draw(st.sampled_from(tuple(WRAPPERS.values()))).format(text)
        case "bash-c":
            # (a NUL cannot be in an argument: the golden table's `echo a\0b`, review DY3)
            return text if "\0" in text else "bash -c " + quoting.single_quoted(text)
        case "substitute":
            return f"{text} $({draw(pick)})"
        case "requote":
            words = seeds.simple_words(text)
            styles = draw(st.lists(st.sampled_from(_STYLES), min_size=1, max_size=4))
            return seeds.requote(words, styles) if words and "\0" not in text else text
        case "redirect":
            return f"{text} {draw(redirects(expansions=False))}"
        case "insert-token":
            return seeds.insert_token(text, draw(position), draw(st.sampled_from(
                seeds.SYNTAX_TOKENS)))
        case "delete":
            return seeds.delete_span(text, draw(position), draw(st.integers(1, 5)))
        case "replace-char":
            return seeds.replace_char(text, draw(position), draw(_ALPHABET))
        case _:
            other = draw(pick)
            return seeds.crossover(text, other, draw(position),
                                   draw(st.integers(0, max(0, len(other)))))


def corpus_respelled(seed_texts: Sequence[str]) -> st.SearchStrategy[Respelled]:
    """A simple seed command (plain words and quotes only) re-quoted several ways."""
    simple = tuple(s for s in seed_texts if seeds.simple_words(s))
    if not simple:
        raise ValueError("no seed command is simple enough to re-quote")

    @st.composite
    def build(draw: st.DrawFn) -> Respelled:
        text = draw(st.sampled_from(simple))
        words = seeds.simple_words(text) or ()
        variants = dict.fromkeys([text])
        for _ in range(draw(st.integers(1, 3))):
            styles = draw(st.lists(st.sampled_from(_STYLES), min_size=1, max_size=4))
            variants.setdefault(seeds.requote(words, styles))
        return Respelled(values=words, spellings=tuple(variants), how="quoting")

    return build()


_CORPUS_WRAPPERS = ("bash-c", "sh-c", "bash-lc", "eval", "bash-c-double")


def corpus_wrapped(seed_texts: Sequence[str]) -> st.SearchStrategy[Wrapped]:
    """A seed command run through a shell-string wrapper (`bash -c '…'`, `eval '…'`),
    exactly re-quoted: the same text, so never a looser verdict."""
    # a NUL cannot be quoted into a shell word (bash would cut the string there)
    pick = corpus_commands(seed_texts).filter(lambda text: "\0" not in text)

    @st.composite
    def build(draw: st.DrawFn) -> Wrapped:
        inner = draw(pick)
        wrapper = draw(st.sampled_from(_CORPUS_WRAPPERS))
        return Wrapped(text=_STRING_WRAPPERS[wrapper](inner), inner=inner, wrapper=wrapper)

    return build()


_CORPUS_HOSTS = {"argument": "echo $({}\n)", "argument-quoted": 'echo "$({}\n)"',
                 "assignment-value": "Y=$({}\n) true", "process-substitution": "cat <({}\n)"}


def corpus_substituted(seed_texts: Sequence[str]) -> st.SearchStrategy[Substituted]:
    """A seed command inside `$(…)` or `<(…)` (closed on a line of its own, so a comment
    in the seed cannot swallow the `)`)."""
    pick = corpus_commands(seed_texts)

    @st.composite
    def build(draw: st.DrawFn) -> Substituted:
        inner = draw(pick)
        position = draw(st.sampled_from(tuple(_CORPUS_HOSTS)))
        return Substituted(text=_CORPUS_HOSTS[position].replace("{}", inner), inner=inner,
                           position=position)

    return build()


EXTREMES: tuple[str, ...] = (
    "", " ", "\n", "\x00", "ls\x00rm -rf ~", "\ud800", "ls \udcff", "\ufeffls",
    "ls " + "a" * 120_000,  # over the default length limit
    "echo " + "$(" * 600 + "ls" + ")" * 600,  # deeper than the default depth limit
    " && ".join(["true"] * 5_000),  # more segments than the default limit
    "bash -c " * 200 + "ls",
    "{ " * 300 + "ls; " + "}; " * 300,
    "cat <<EOF\n" + "x\n" * 10_000 + "EOF\n",
)
"""Pathological lines: NUL, lone surrogates, BOM, and each analysis limit exceeded."""


def any_command_text(seed_texts: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """Everything: structural lines, broken lines, arbitrary text (lone surrogates and NUL
    included), pathological lines, seeds and mutants."""
    options: list[st.SearchStrategy[str]] = [
        command_lines(), broken_commands().map(lambda b: b.text),
        wrapped_commands().map(lambda w: w.text), substituted_commands().map(lambda s: s.text),
        st.text(st.characters(exclude_categories=()), max_size=40),
        st.sampled_from(EXTREMES),
    ]
    if seed_texts:
        options += [corpus_commands(seed_texts), mutated_commands(seed_texts)]
    return st.one_of(options)


_DENY_PREFIXES = tuple(dict.fromkeys(n.split()[0] for n in COMMAND_NAMES if n[0].isalpha()))


_PROTECT_GLOBS = ("**/.env*", "**", "/tmp/**", "~/**", ".git/**", "src/**", "/etc/**")
_EXPANSION_KINDS = ("*", "command-substitution", "parameter", "glob", "brace", "tilde")
_EXPANSION_POSITIONS = ("*", "argument", "command-name", "redirect-target")


@st.composite
def deny_rules(draw: st.DrawFn) -> str:
    """One deny-ish policy line: a deny rule (maybe locked), a protected path with a deny
    verdict, an expansion disqualifier or an environment name set to deny."""
    prefix = draw(st.sampled_from(_DENY_PREFIXES))
    match draw(st.sampled_from(("rule", "rule", "protect", "expansion", "env"))):
        case "rule":
            locked = draw(st.sampled_from(("", "", "locked ")))
            return locked + draw(st.sampled_from((f"deny {prefix} **", f"deny {prefix}")))
        case "protect":
            access = draw(st.sampled_from(("read", "write", "read-write")))
            return f"protect {access} {draw(st.sampled_from(_PROTECT_GLOBS))} deny"
        case "expansion":
            kind = draw(st.sampled_from(_EXPANSION_KINDS))
            return f"expansion {kind} in {draw(st.sampled_from(_EXPANSION_POSITIONS))} deny"
        case _:
            return f"env deny {draw(st.sampled_from(('PATH', 'X', 'LD_*', 'HOME')))}"


@st.composite
def deny_cases(draw: st.DrawFn, seed_texts: Sequence[str] = ()) -> DenyCase:
    """A command line and a deny-ish line (see `deny_rules`) to add to the policy."""
    lines = [command_lines(), compounds().map(lambda c: c.text),
             wrapped_commands().map(lambda w: w.text)]
    if seed_texts:
        lines.append(corpus_commands(seed_texts))
    return DenyCase(command=draw(st.one_of(lines)), rule=draw(deny_rules()))
