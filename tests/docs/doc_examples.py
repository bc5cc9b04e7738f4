"""Extract fenced examples from Markdown and run them: the documentation example runner.

Conventions (also written down in CONTRIBUTING.md):

- ```` ```console ````: lines starting with `$ ` are shell commands, run one by one with
  bash from the repository root, `.venv/bin` first on PATH. The lines after a command, up
  to the next `$ ` line, are its expected stdout: compared exactly, trailing whitespace
  ignored; a line holding only `...` matches any number of lines (zero included), and
  `...` inside a line matches any text within that line (doctest's ELLIPSIS). The exit
  status is not checked (a `deny` may exit non-zero by design), but a Python traceback on
  stderr fails the example.
- ```` ```pycon ````: a doctest (ELLIPSIS enabled).
- ```` ```python ````: executed; must not raise.
- ```` ```policy ````: loaded with the rules loader (includes resolve from the repository
  root) and its inline `expect` lines checked with the engine; any error fails. A block
  holding only a snippet line (`--8<-- "rulesets/x.policy"`) loads that file. A block
  containing `…` is a syntax summary (`[locked] allow|ask|deny PATTERN …`): shown only.
- ```` ```json ````, ```` ```toml ````: must parse (`json.loads`, `tomllib.loads`).
- Anything else (```` ```sh ````, ```` ```text ````...): shown only.

In a ```policy, ```json or ```toml block, a `…` marks a syntax summary or an excerpt:
such a block is shown only.

Every block runs in a fresh namespace, from the repository root, with HOME pointing at an
empty temporary directory (an example can never touch the real home), so any one of them
can be run alone (`pytest 'tests/docs/test_examples.py::test_example[docs/concepts.md:42]'`).
"""

from __future__ import annotations

import doctest
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXECUTED_LANGUAGES = frozenset({"console", "pycon", "python", "policy", "json", "toml"})
SYNTAX_SUMMARY_MARK = "…"
_DATA_LANGUAGES = frozenset({"policy", "json", "toml"})  # `…` makes these shown only
WILDCARD = "..."
COMMAND_PREFIX = "$ "
COMMAND_TIMEOUT_S = 120.0

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")
# Commands that would run the test suite from inside the test suite: `make test`, `pytest`,
# `python -m pytest` or `.ci/run` in command position (not inside an argument, such as a
# command line handed to `policylang eval`).
_RECURSIVE = re.compile(
    r"(?:^|[;&|(]\s*)"
    r"(?:make\b[^;&|]*\b(?:test|check)\b|(?:\S*/)?pytest\b"
    r"|(?:\S*/)?python3?\s+-m\s+pytest\b|(?:\./)?\.ci/run\b)"
)
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")


class DocExampleError(Exception):
    """A Markdown file or block that breaks the example conventions."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    """One fenced code block: where it starts, its language and its text (dedented)."""

    path: str  # relative to the repository root, with forward slashes
    line: int  # 1-based line of the opening fence
    lang: str
    body: str

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def executed(self) -> bool:
        if self.lang in _DATA_LANGUAGES and SYNTAX_SUMMARY_MARK in self.body:
            return False
        return self.lang in EXECUTED_LANGUAGES


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsoleCommand:
    command: str
    expected: tuple[str, ...]
    line: int  # 1-based line of the `$ ` line in the Markdown file


def _language(info: str) -> str:
    """The language of a fence's info string: ```python title="x"``` and ```{.python}``` both."""
    words = info.strip().lstrip("{").split()
    return words[0].lstrip(".").rstrip("}").lower() if words else ""


def _dedent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip(" \t")


def extract_blocks(text: str, path: str) -> tuple[Block, ...]:
    """Every fenced code block of a Markdown text, in order.

    Raises:
        DocExampleError: a fence is never closed.
    """
    blocks: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        index += 1
        if opening is None:
            continue
        fence, indent = opening["fence"], opening["indent"]
        start, body = index, []
        while index < len(lines):
            closing = _FENCE.match(lines[index])
            # A closing fence: same character, at least as long, no info string.
            if (
                closing
                and closing["fence"][0] == fence[0]
                and len(closing["fence"]) >= len(fence)
                and not closing["info"]
            ):
                break
            body.append(_dedent(lines[index], indent))
            index += 1
        else:
            raise DocExampleError(f"{path}:{start}: code fence {fence} is never closed")
        index += 1
        blocks.append(
            Block(path=path, line=start, lang=_language(opening["info"]), body="\n".join(body))
        )
    return tuple(blocks)


def parse_console(block: Block) -> tuple[ConsoleCommand, ...]:
    """The commands of a ```console block, each with its expected output lines.

    Raises:
        DocExampleError: the block is empty, or has output before its first command.
    """
    commands: list[ConsoleCommand] = []
    for offset, line in enumerate(block.body.splitlines(), start=1):
        if line.startswith(COMMAND_PREFIX):
            command = line[len(COMMAND_PREFIX) :].strip()
            commands.append(ConsoleCommand(command=command, expected=(), line=block.line + offset))
        elif commands:
            last = commands[-1]
            commands[-1] = ConsoleCommand(
                command=last.command, expected=(*last.expected, line), line=last.line
            )
        elif line.strip():
            raise DocExampleError(
                f"{block.path}:{block.line + offset}: console block has output before its "
                f"first `$ ` command: {line!r}"
            )
    if not commands:
        raise DocExampleError(f"{block.id}: console block has no `$ ` command")
    return tuple(commands)


def _normalise(lines: Iterable[str]) -> list[str]:
    """Trailing whitespace off every line, trailing blank lines off the end."""
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def line_matches(want: str, got: str) -> bool:
    """One expected line against one actual line; `...` inside a line matches any text."""
    if WILDCARD not in want:
        return want == got
    pattern = ".*".join(re.escape(part) for part in want.split(WILDCARD))
    return re.fullmatch(pattern, got, flags=re.DOTALL) is not None


def _prefix_table(expected: Sequence[str], actual: Sequence[str]) -> list[list[bool]]:
    """table[i][j]: expected[:i] matches actual[:j] (`...` matching any run of lines)."""
    table = [[False] * (len(actual) + 1) for _ in range(len(expected) + 1)]
    table[0][0] = True
    for i, want in enumerate(expected, start=1):
        wild = want.strip() == WILDCARD
        for j in range(len(actual) + 1):
            if wild:
                table[i][j] = table[i - 1][j] or (j > 0 and table[i][j - 1])
            else:
                table[i][j] = j > 0 and table[i - 1][j - 1] and line_matches(want, actual[j - 1])
    return table


def match_output(expected: Sequence[str], actual: str) -> str | None:
    """None when `actual` matches the expected lines, else a message saying where it fails."""
    want, got = _normalise(expected), _normalise(actual.splitlines())
    table = _prefix_table(want, got)
    if table[len(want)][len(got)]:
        return None
    # The longest run of expected lines that matched some prefix of the output.
    matched = max(i for i in range(len(want) + 1) if any(table[i]))
    at = max(j for j in range(len(got) + 1) if table[matched][j])
    if matched == len(want):
        where = f"unexpected output from line {at + 1}: {got[at]!r}"
    elif at == len(got):
        where = f"output ended; expected line {matched + 1}: {want[matched]!r}"
    else:
        where = (
            f"expected line {matched + 1}: {want[matched]!r}\n     got line {at + 1}: {got[at]!r}"
        )
    shown_want = "\n".join(f"  | {line}" for line in want) or "  (nothing)"
    shown_got = "\n".join(f"  | {line}" for line in got) or "  (nothing)"
    return f"{where}\nexpected:\n{shown_want}\nactual:\n{shown_got}"


def venv_bin() -> Path:
    candidate = ROOT / ".venv" / "bin"
    return candidate if candidate.is_dir() else Path(sys.executable).parent


def command_env() -> dict[str, str]:
    """The environment of console commands: .venv/bin first, fixed width, no colour."""
    env = dict(os.environ)
    env["PATH"] = f"{venv_bin()}{os.pathsep}{env.get('PATH', '')}"
    env.update(COLUMNS="100", NO_COLOR="1", TERM="dumb", PYTHONIOENCODING="utf-8")
    return env


def run_console(block: Block) -> list[str]:
    """Run every command of a ```console block; the list of failures (empty: it passed)."""
    failures: list[str] = []
    for cmd in parse_console(block):
        where = f"{block.path}:{cmd.line}: $ {cmd.command}"
        if _RECURSIVE.search(_QUOTED.sub("''", cmd.command)):
            failures.append(f"{where}\nwould run the test suite from inside it; use ```sh")
            continue
        try:
            done = subprocess.run(
                ["bash", "-c", cmd.command],
                cwd=ROOT,
                env=command_env(),
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            failures.append(f"{where}\ntimed out after {COMMAND_TIMEOUT_S:.0f}s")
            continue
        problem = match_output(cmd.expected, done.stdout)
        if problem is None and "Traceback (most recent call last)" in done.stderr:
            problem = "a Python traceback on stderr"
        if problem is not None:
            failures.append(
                f"{where}\n{problem}\nexit status: {done.returncode}\nstderr:\n{done.stderr}"
            )
    return failures


def run_pycon(block: Block) -> list[str]:
    """Run a ```pycon block as a doctest; the failure report, or [] when it passed."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(
        block.body, {"__name__": "__docs__"}, block.id, block.path, block.line
    )
    if not test.examples:
        return [f"{block.id}: pycon block has no `>>>` example"]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    runner.run(test, out=report.write, clear_globs=True)
    return [report.getvalue()] if runner.failures else []


def run_python(block: Block) -> list[str]:
    """Execute a ```python block; exceptions propagate to the caller (and fail the test)."""
    # Padding puts traceback line numbers on the Markdown file's own lines.
    source = "\n" * block.line + block.body
    code = compile(source, block.path, "exec")
    exec(code, {"__name__": "__docs__"})
    return []


@contextmanager
def _scratch_home() -> Iterator[None]:
    """HOME is an empty temporary directory while an example runs.

    An example that goes wrong (or a policy that regresses and lets `rm -rf ~` through)
    must not be able to touch the real home directory.
    """
    previous = os.environ.get("HOME")
    with tempfile.TemporaryDirectory(prefix="policylang-docs-home-") as home:
        os.environ["HOME"] = home
        try:
            yield
        finally:
            if previous is None:
                del os.environ["HOME"]
            else:
                os.environ["HOME"] = previous


_SNIPPET = re.compile(r'^\s*--8<--\s+"(?P<path>[^"]+)"\s*$')


def run_policy(block: Block) -> list[str]:
    """Load a ```policy block and check its inline expectations; the problems found."""
    from policylang.engine.policy import Policy
    from policylang.errors import RulesetError
    from policylang.rules.load import load_ruleset, load_ruleset_text

    snippet = _SNIPPET.match(block.body)
    try:
        if snippet:
            compiled = load_ruleset(ROOT / snippet["path"])
        else:
            compiled = load_ruleset_text(block.body, filename=block.id)
    except (RulesetError, OSError) as error:
        return [str(error)]
    failed = Policy(compiled).check_expectations()
    return ["\n".join(d.render() for d in failed)] if failed else []


def run_data(block: Block) -> list[str]:
    """Parse a ```json or ```toml block; the parse error, or [] when it parsed."""
    try:
        if block.lang == "json":
            json.loads(block.body)
        else:
            tomllib.loads(block.body)
    except ValueError as error:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        return [f"{block.id}: not valid {block.lang}: {error}"]
    return []


def run_block(block: Block) -> list[str]:
    """Run one executed block from the repository root; the failures (empty: it passed)."""
    runners = {
        "console": run_console,
        "pycon": run_pycon,
        "python": run_python,
        "policy": run_policy,
        "json": run_data,
        "toml": run_data,
    }
    previous = Path.cwd()
    os.chdir(ROOT)
    try:
        with _scratch_home():
            return runners[block.lang](block)
    finally:
        os.chdir(previous)


def documentation_files(root: Path = ROOT) -> tuple[Path, ...]:
    """README.md, CONTRIBUTING.md and every Markdown page under docs/, sorted."""
    top = [root / name for name in ("README.md", "CONTRIBUTING.md") if (root / name).is_file()]
    return (*top, *sorted((root / "docs").rglob("*.md")))
