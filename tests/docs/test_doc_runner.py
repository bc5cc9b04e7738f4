"""The example runner's own logic: fence extraction, console parsing, output matching."""

from __future__ import annotations

import os

import pytest
from doc_examples import (
    Block,
    DocExampleError,
    extract_blocks,
    match_output,
    parse_console,
    run_block,
)

# --- output matching ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (["a", "b"], "a\nb\n"),
        (["a  ", "b"], "a\nb   \n"),  # trailing whitespace ignored on both sides
        (["a", ""], "a\n\n\n"),  # trailing blank lines ignored
        ([], ""),
        (["..."], ""),  # the wildcard matches zero lines
        (["..."], "x\ny\nz\n"),
        (["a", "...", "z"], "a\nz\n"),
        (["a", "...", "z"], "a\nb\nc\nz\n"),
        (["...", "z"], "a\nb\nz\n"),
        (["a", "..."], "a\nb\nc\n"),
        (["a", "...", "c", "...", "e"], "a\nb\nc\nd\ne\n"),
        (["a", "...", "b"], "a\nb\nb\nb\n"),  # backtracks: the wildcard takes the first b's
        (["  ...  "], "anything\n"),  # surrounding spaces allowed around the wildcard
        (["rule (rules/x.policy:...)"], "rule (rules/x.policy:29:1)\n"),  # inside a line
        (["a...b...c"], "abc\n"),
        (["usage: x COMMAND ..."], "usage: x COMMAND ...\n"),  # a literal `...` matches itself
        (["[.*]..."], "[.*] and more\n"),  # the rest of the line is literal, not a regex
    ],
)
def test_matches(expected: list[str], actual: str) -> None:
    assert match_output(expected, actual) is None


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (["a"], "b\n"),
        (["a"], "a\nb\n"),  # extra output
        (["a", "b"], "a\n"),  # missing output
        (["a", "...", "z"], "a\nb\n"),  # wildcard cannot invent the last line
        (["  a"], "a\n"),  # leading whitespace is significant
        (["a...b"], "a-b-c\n"),  # `...` inside a line stays inside the line
        (["a...b"], "a\nb\n"),
        (["[.*]..."], "x and more\n"),
        ([], "a\n"),
    ],
)
def test_mismatches(expected: list[str], actual: str) -> None:
    assert match_output(expected, actual) is not None


def test_mismatch_report_points_at_the_first_differing_line() -> None:
    report = match_output(["one", "...", "three", "four"], "one\ntwo\nthree\nFOUR\n")
    assert report is not None
    assert report.splitlines()[:2] == [
        "expected line 4: 'four'",
        "     got line 4: 'FOUR'",
    ]
    assert "  | FOUR" in report
    assert "  | four" in report


def test_mismatch_report_for_missing_and_extra_output() -> None:
    missing = match_output(["a", "b"], "a\n")
    assert missing is not None
    assert missing.startswith("output ended; expected line 2: 'b'")
    extra = match_output(["a"], "a\nsurprise\n")
    assert extra is not None
    assert extra.startswith("unexpected output from line 2: 'surprise'")
    nothing = match_output(["a"], "")
    assert nothing is not None
    assert "actual:\n  (nothing)" in nothing


# --- fence extraction ------------------------------------------------------------------

MARKDOWN = """\
# Title

```console
$ echo hi
hi
```

Text with `inline` code.

~~~python title="example"
x = 1
~~~

- a list item:

    ```pycon
    >>> 1 + 1
    2
    ```

````markdown
```python
not a separate block
```
````

```
no language
```
"""


def test_extract_blocks_languages_lines_and_bodies() -> None:
    blocks = extract_blocks(MARKDOWN, "docs/x.md")
    assert [(b.line, b.lang) for b in blocks] == [
        (3, "console"),
        (10, "python"),
        (16, "pycon"),
        (21, "markdown"),
        (27, ""),
    ]
    assert blocks[0].body == "$ echo hi\nhi"
    assert blocks[2].body == ">>> 1 + 1\n2"  # dedented by the fence's indent


def test_nested_fence_is_content_of_the_longer_fence() -> None:
    block = extract_blocks(MARKDOWN, "docs/x.md")[3]
    assert block.body == "```python\nnot a separate block\n```"
    assert not block.executed


def test_attribute_style_info_string() -> None:
    (block,) = extract_blocks("``` { .python }\npass\n```\n", "x.md")
    assert block.lang == "python"


def test_unclosed_fence_is_reported_with_its_line() -> None:
    with pytest.raises(DocExampleError, match=r"x\.md:2: code fence ``` is never closed"):
        extract_blocks("text\n```python\nprint()\n", "x.md")


# --- console parsing -------------------------------------------------------------------


def _console(body: str) -> Block:
    return Block(path="docs/x.md", line=10, lang="console", body=body)


def test_parse_console_commands_and_expected_lines() -> None:
    commands = parse_console(_console("$ echo a\na\n\n$ true\n$ printf 'x\\n'\nx"))
    assert [(c.command, c.expected, c.line) for c in commands] == [
        ("echo a", ("a", ""), 11),
        ("true", (), 14),
        ("printf 'x\\n'", ("x",), 15),
    ]


@pytest.mark.parametrize("body", ["output first\n$ echo", "", "\n\n"])
def test_parse_console_rejects_malformed_blocks(body: str) -> None:
    with pytest.raises(DocExampleError):
        parse_console(_console(body))


# --- running ---------------------------------------------------------------------------


def test_console_block_passes_and_fails_on_stdout() -> None:
    assert run_block(_console("$ printf 'a\\nb\\n'\na\nb")) == []
    (failure,) = run_block(_console("$ echo actual\nexpected"))
    assert "docs/x.md:11: $ echo actual" in failure
    assert "expected line 1: 'expected'" in failure


def test_console_runs_from_the_repository_root_with_the_venv_first() -> None:
    assert run_block(_console("$ test -f pyproject.toml && echo root\nroot")) == []
    assert run_block(_console("$ command -v mkdocs\n...\n")) == []
    (failure,) = run_block(_console("$ command -v python\n/usr/bin/python"))
    assert ".venv/bin/python" in failure or "/bin/python" in failure


def test_examples_run_with_a_scratch_home() -> None:
    real = os.environ.get("HOME")
    (failure,) = run_block(_console("$ ls -A ~; echo $HOME"))
    assert "policylang-docs-home-" in failure  # the shown HOME, not the real one
    assert f"got line 1: {real!r}" not in failure
    assert os.environ.get("HOME") == real
    block = Block(path="x.md", line=1, lang="python", body=_PYTHON_HOME_CHECK)
    assert run_block(block) == []


_PYTHON_HOME_CHECK = """\
import os, pathlib
home = pathlib.Path(os.environ["HOME"])
assert home.name.startswith("policylang-docs-home-"), home
assert not any(home.iterdir())
"""


def test_console_exit_status_is_not_checked_but_tracebacks_are() -> None:
    assert run_block(_console("$ echo denied; exit 1\ndenied")) == []
    (failure,) = run_block(_console("$ python -c 'raise SystemExit(1/0)'"))
    assert "traceback" in failure


@pytest.mark.parametrize(
    "command",
    [
        "make test",
        "make -C . test",
        "pytest -q",
        ".venv/bin/pytest tests/docs",
        "python -m pytest",
        ".ci/run",
        "cd x && make check",
        "true; pytest",
    ],
)
def test_console_refuses_to_recurse_into_the_test_suite(command: str) -> None:
    (failure,) = run_block(_console(f"$ {command}"))
    assert "would run the test suite" in failure


@pytest.mark.parametrize(
    "command",
    ["echo 'make test && pytest -q'", "echo make-test", "echo 'python -m pytest'"],
)
def test_test_commands_inside_arguments_are_not_refused(command: str) -> None:
    assert run_block(_console(f"$ {command}\n...")) == []


def test_pycon_block_is_a_doctest() -> None:
    good = Block(
        path="x.md", line=1, lang="pycon", body=">>> 1 + 1\n2\n>>> list(range(9))\n[0, ...]"
    )
    assert run_block(good) == []
    bad = Block(path="x.md", line=1, lang="pycon", body=">>> 1 + 1\n3")
    (report,) = run_block(bad)
    assert "Expected:\n    3\nGot:\n    2" in report
    empty = Block(path="x.md", line=1, lang="pycon", body="just text")
    assert run_block(empty) == ["x.md:1: pycon block has no `>>>` example"]


def test_python_block_raises_with_the_markdown_line_number() -> None:
    assert run_block(Block(path="x.md", line=5, lang="python", body="x = 1\nassert x == 1")) == []
    block = Block(path="x.md", line=5, lang="python", body="x = 1\nraise ValueError(x)")
    with pytest.raises(ValueError, match="1") as info:
        run_block(block)
    assert info.traceback[-1].lineno + 1 == 7  # the second body line, line 7 of the file


def test_blocks_do_not_share_a_namespace() -> None:
    run_block(Block(path="x.md", line=1, lang="python", body="leaked = 1"))
    with pytest.raises(NameError):
        run_block(Block(path="x.md", line=9, lang="python", body="leaked"))


# --- policy blocks ---------------------------------------------------------------------


def _policy(body: str) -> Block:
    return Block(path="docs/x.md", line=3, lang="policy", body=body)


def test_policy_block_is_loaded_and_its_expectations_checked() -> None:
    assert run_block(_policy('allow ls **\nexpect allow "ls -la"')) == []
    (failure,) = run_block(_policy('allow ls **\nexpect deny "ls -la"'))
    assert "expected `deny` for `ls -la`, got `allow`" in failure


def test_policy_block_with_an_error_fails_with_the_rendered_diagnostic() -> None:
    (failure,) = run_block(_policy("allow ls **\nprotectd write ~/.ssh/** deny"))
    assert "docs/x.md:3:2:1: error[rules.unknown-directive]" in failure
    assert "^^^^^^^^" in failure


def test_policy_snippet_block_loads_the_included_file() -> None:
    block = _policy('--8<-- "rulesets/org-example/team.policy"')
    assert block.executed
    assert run_block(block) == []
    (failure,) = run_block(_policy('--8<-- "docs/no-such.policy"'))
    assert "no-such.policy" in failure


def test_policy_syntax_summary_is_shown_only() -> None:
    assert not _policy("[locked] allow|ask|deny PATTERN [when OPT…]").executed
    assert _policy("allow ls **").executed


# --- data blocks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "body"),
    [("json", '{"a": [1, 2]}'), ("toml", '[arity]\n"git" = 2')],
)
def test_data_blocks_must_parse(lang: str, body: str) -> None:
    assert run_block(Block(path="x.md", line=1, lang=lang, body=body)) == []


@pytest.mark.parametrize(
    ("lang", "body"),
    [("json", '{"a": [1, 2],}'), ("toml", "[arity\ngit = 2")],
)
def test_data_blocks_that_do_not_parse_fail(lang: str, body: str) -> None:
    (failure,) = run_block(Block(path="x.md", line=1, lang=lang, body=body))
    assert failure.startswith(f"x.md:1: not valid {lang}:")


def test_data_excerpts_with_an_ellipsis_are_shown_only() -> None:
    assert not Block(path="x.md", line=1, lang="json", body='{"hooks": …}').executed
