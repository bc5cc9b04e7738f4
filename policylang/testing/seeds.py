"""Seed commands for mutation fuzzing, and the mutations; pure Python, imports `testing.quoting`.

Seeds come from the shared corpora (tldr, nl2bash, codex cases; see their README) and
from the project's own golden tables (`tests/golden/**/*.tsv`, first column), so the
corpus doubles as the seed set. Missing files are not an error: a fuzzer with fewer
seeds still runs. Every mutation here is a plain function of its inputs, so the
Hypothesis strategies (and shrinking) stay in `policylang.testing.strategies`.
"""

from __future__ import annotations

import json
import logging
import os
import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from policylang.testing import quoting

if TYPE_CHECKING:
    from policylang.rules.ast import RuleSet

logger = logging.getLogger(__name__)

CORPUS_FILES: tuple[str, ...] = ("tldr.tsv", "nl2bash.tsv", "codex_cases.tsv")
_COMMAND_COLUMN = "command"

# Tokens that damage or re-shape a command line when inserted; used by `insert_token`.
SYNTAX_TOKENS: tuple[str, ...] = (
    ";", "&&", "||", "|", "&", "\n", "(", ")", "{", "}", "'", '"', "`", "$(", "${", "\\",
    "#", "<<", "<<<", ">", ">>", "2>&1", "!", "*", "~", "$'", "=", "if", "then", "done",
)


def default_corpus_dir() -> Path | None:
    """`$POLICYLANG_CORPORA`, else the first `../shared/corpora` above this file, else above
    the cwd.

    This file's folders come first: the cwd may be a workspace someone else wrote, and the
    seeds of `fuzz --dynamic` are run (in a sandbox) when the policy allows them (review N).
    """
    env = os.environ.get("POLICYLANG_CORPORA")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for start in (Path(__file__).resolve(), Path.cwd()):
        for base in (start, *start.parents):
            candidate = base.parent / "shared" / "corpora"
            if (candidate / "README.md").is_file():
                return candidate
    return None


def decode_golden_field(field: str) -> str:
    """A command as written in a golden table, decoded.

    Two conventions are in use: the engine's table writes a newline as `⏎`; the shell
    analyser's table writes a command with a newline, tab, control character or lone
    surrogate, or one starting with `"`, as a JSON string. A field is only taken as JSON
    when that rule would have encoded what it decodes to (`"$@"` stays `"$@"`).
    """
    field = field.replace("⏎", "\n")
    if field.startswith('"') and field.endswith('"') and len(field) > 1:
        try:
            decoded = json.loads(field)
        except ValueError:
            return field
        if isinstance(decoded, str) and (decoded.startswith('"') or any(
                ord(ch) < 0x20 or 0xD800 <= ord(ch) <= 0xDFFF for ch in decoded)):
            return decoded
    return field


def _tsv_commands(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        return []
    header = lines[0].split("\t")
    has_header = _COMMAND_COLUMN in header
    if has_header:
        column, rows = header.index(_COMMAND_COLUMN), lines[1:]
    else:  # golden tables: command in the first column, maybe no header
        column, rows = 0, lines
    out = []
    for row in rows:
        if not row.strip() or row.startswith("#"):
            continue
        fields = row.split("\t")
        if column < len(fields) and fields[column].strip():
            out.append(fields[column] if has_header else decode_golden_field(fields[column]))
    return out


def load_corpus_commands(directory: Path | None = None,
                         files: Sequence[str] = CORPUS_FILES) -> tuple[str, ...]:
    """The `command` column of each corpus file (deduplicated, in file order)."""
    directory = directory if directory is not None else default_corpus_dir()
    if directory is None:
        logger.info("no corpora directory found; no corpus seeds")
        return ()
    commands: dict[str, None] = {}
    for name in files:
        path = directory / name
        if path.is_file():
            commands.update(dict.fromkeys(_tsv_commands(path)))
        else:
            logger.info("corpus file %s is missing; skipped", path)
    return tuple(commands)


def load_golden_commands(directory: Path) -> tuple[str, ...]:
    """The first column of every `*.tsv` under `directory` (golden command tables)."""
    if not directory.is_dir():
        return ()
    commands: dict[str, None] = {}
    for path in sorted(directory.rglob("*.tsv")):
        rows = _tsv_commands(path)
        commands.update(dict.fromkeys(r for r in rows if r != _COMMAND_COLUMN))
    return tuple(commands)


def load_seeds(corpus_dir: Path | None = None, golden_dir: Path | None = None,
               *, limit: int | None = None) -> tuple[str, ...]:
    """Golden commands first (they are few and precise), then corpus commands."""
    golden = load_golden_commands(golden_dir) if golden_dir is not None else ()
    seeds = dict.fromkeys((*golden, *load_corpus_commands(corpus_dir)))
    out = tuple(seeds)
    return out[:limit] if limit is not None else out


def policy_seeds(path: Path) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Commands made from a policy file's own rules, and the operand words its rules name
    per command (`deny rm -rf /srv` gives `rm -rf /srv`, and `/srv` for `rm`).

    Generators that only use fixed words (`x`, `file.txt`) never reach a rule about
    `/srv`, so a hole in it went unseen (review AR1). Unreadable files give nothing.
    """
    from policylang.rules import ast

    commands: dict[str, None] = {}
    operands: dict[str, dict[str, None]] = {}
    statements = [s for ruleset in _rulesets(Path(path), set()) for s in ruleset.statements]
    for statement in statements:
        if not isinstance(statement, ast.Rule) or not statement.pattern:
            continue
        words = [_example_word(word) for word in statement.pattern]
        if words[0] is None:
            continue
        program = words[0]
        concrete = [w for w in words if w]
        named = [_example_glob(item.value) for item in
                 statement.clause_items(ast.ClauseKind.OPERAND)]
        named = [n for n in named if n]
        for option in [i.value for i in statement.clause_items(ast.ClauseKind.WHEN)][:3]:
            commands.setdefault(quoting.shell_join([*concrete, option, *named[:1]]))
        commands.setdefault(quoting.shell_join([*concrete, *named[:1]]))
        pool = operands.setdefault(program, {})
        for word in (*concrete[1:], *named):
            if not word.startswith("-"):
                pool.setdefault(word)
    return tuple(commands), {k: tuple(v) for k, v in operands.items() if v}


def _rulesets(path: Path, seen: set[Path]) -> list[RuleSet]:
    """The rulesets of the policy file `path` and of the files it includes, as the loader
    follows them: a file whose rules are all `include`d (the shipped `default.policy`) had
    given no seeds (review DY4). Unreadable files, and each file after its first time (a
    cycle), give nothing."""
    from policylang.rules import ast
    from policylang.rules.parser import parse_ruleset

    try:
        key = path.resolve()
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError, RuntimeError):
        return []
    if key in seen or len(seen) >= _MAX_SEED_FILES:
        return []
    seen.add(key)
    ruleset, _problems = parse_ruleset(text, filename=str(path))
    found: list[RuleSet] = []
    for statement in ruleset.statements:
        if isinstance(statement, ast.Include):
            found.extend(_rulesets(path.parent / statement.path, seen))
    found.append(ruleset)
    return found


_MAX_SEED_FILES = 256  # policy files followed through includes


def _example_word(word: object) -> str | None:
    """A concrete word a pattern word matches (its first alternative, `*` as `x`); ""
    for `**`."""
    alternatives = getattr(word, "alternatives", ())
    if getattr(word, "is_any", False):
        return "" if "**" in alternatives else "x"
    if not alternatives:
        return None
    return _example_glob(alternatives[0]) or None


def _example_glob(glob: str) -> str:
    """A word a glob matches: `*` and `?` filled in, a bracket set's first member."""
    out: list[str] = []
    index = 0
    while index < len(glob):
        char = glob[index]
        if char == "*":
            index += 2 if glob.startswith("**", index) else 1
            continue
        if char == "?":
            out.append("x")
        elif char == "[":
            end = glob.find("]", index + 2)
            if end < 0:
                return ""
            members = glob[index + 1 : end].lstrip("!^")
            out.append(members[:1] or "x")
            index = end
        else:
            out.append(char)
        index += 1
    return "".join(out).rstrip("/") or ""


# --- mutations -------------------------------------------------------------------------

_SIMPLE_FORBIDDEN = frozenset("$`\\;|&<>()*?[]{}~#!\n\t")


def simple_words(text: str) -> tuple[str, ...] | None:
    """The words of `text` if it is so simple that `shlex` splits it exactly as bash does.

    That holds for text with only spaces, ordinary characters and balanced '…' or "…"
    without any expansion, operator or glob character; otherwise None.
    """
    if not text.strip() or any(ch in _SIMPLE_FORBIDDEN for ch in text):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    return tuple(words) or None


def requote(words: Sequence[str], styles: Sequence[quoting.Style]) -> str:
    """`words` joined, word i spelled in `styles[i % len(styles)]`.

    A word `NAME=value` keeps `NAME=` unquoted and re-spells only the value, so that an
    assignment stays an assignment (quoting the name would make it a command word).
    """
    out = []
    for index, word in enumerate(words):
        style = styles[index % len(styles)] if styles else quoting.Style.SINGLE
        name, eq, value = word.partition("=")
        prefix = ""
        if eq and name.isidentifier() and name.isascii():
            prefix, word = name + "=", value
            if not word:
                out.append(prefix)
                continue
        if style is quoting.Style.PLAIN and not quoting.can_spell_plain(word):
            style = quoting.Style.SINGLE
        out.append(prefix + quoting.spell(word, style))
    return " ".join(out)


def splice(first: str, second: str, connector: str) -> str:
    """`first CONNECTOR second` (a newline connector puts `second` on the next line)."""
    if connector == "\n":
        return f"{first}\n{second}"
    return f"{first} {connector} {second}"


def insert_token(text: str, position: int, token: str) -> str:
    """`token` inserted at character `position` (clamped), padded with spaces."""
    position = max(0, min(position, len(text)))
    return f"{text[:position]} {token} {text[position:]}"


def delete_span(text: str, start: int, length: int) -> str:
    """`text` without `length` characters from `start` (clamped)."""
    start = max(0, min(start, len(text)))
    return text[:start] + text[start + max(0, length):]


def replace_char(text: str, position: int, char: str) -> str:
    """`text` with the character at `position` (clamped) replaced by `char`."""
    if not text:
        return char
    position = max(0, min(position, len(text) - 1))
    return text[:position] + char + text[position + 1:]


def crossover(first: str, second: str, cut_first: int, cut_second: int) -> str:
    """A prefix of `first` joined to a suffix of `second`."""
    return first[:max(0, cut_first)] + second[max(0, cut_second):]


def dedupe(texts: Iterable[str]) -> tuple[str, ...]:
    """`texts` without repeats, order kept."""
    return tuple(dict.fromkeys(texts))
