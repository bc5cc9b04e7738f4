"""Properties of the shell analyser: total, deterministic, spans in range, quoting exact.

`parse_command` catches any internal exception and reports it as a `shell.internal-error`
problem, so "never raises" is checked as "never reports an internal error".
"""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from policylang.cli.parse_cmd import render_summary
from policylang.shell._exposure import may_substitute
from policylang.shell.model import CommandLine, Limits
from policylang.shell.options import OptionSpec, option_view
from policylang.shell.parse import parse_command
from policylang.shell.walk import nested_lines, walk

SETTINGS = settings(max_examples=200, deadline=None)

# Fragments that reach many node kinds when glued together at random.
FRAGMENTS = (
    " ", "\n", "\t", ";", "&", "&&", "||", "|", "|&", "(", ")", "{", "}", "$(", "`", "'", '"',
    "\\", "$", "${", "}", "$((", "))", "[[", "]]", "[", "]", "<", ">", ">>", "<<", "<<<",
    "<<-", "2>&1", ">&-", "<(", ">(", "EOF", "\nEOF\n", "#", "!", "~", "*", "?", "=", "+=",
    "a", "rm", "-rf", "/", "if", "then", "fi", "for", "in", "do", "done", "while", "case",
    "esac", ";;", "function", "export", "declare", "sudo", "bash", "-c", "eval", "xargs",
    "env", "A=1", "$'\\x72'", "\x00", "\ud800", "é", "😀", "\\\n", "((", "let", "time",
)  # fmt: skip

shellish = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)
any_text = st.one_of(st.text(max_size=200), shellish)


def check_line(text: str, line: CommandLine) -> None:
    assert all(p.code != "shell.internal-error" for p in line.problems), line.problems
    # the model is bash's reading, which drops NUL bytes (review AI3)
    assert line.text == text.replace("\x00", "")
    _check_spans(line, line.text)
    for problem in line.problems:
        assert problem.span.start >= 0


def _check_spans(line: CommandLine, base: str) -> None:
    """Spans index the text of the nearest enclosing reparsed line, else the input text
    (`` ``0`\\0 ``: a line nested in a reparsed one points into that one's text)."""
    if line.reparsed:
        base = line.text
    for segment in line.segments:
        assert 0 <= segment.span.start <= segment.span.end <= len(base)
        for word in segment.words:
            assert 0 <= word.span.start <= word.span.end <= len(base)
            if not line.reparsed and word.text:
                assert word.span.slice(base) == word.text
        for nested in nested_lines(segment):
            _check_spans(nested, base)


@SETTINGS
@given(any_text)
def test_any_text_is_analysed_without_internal_error(text: str) -> None:
    line = parse_command(text)
    check_line(text, line)
    for _ in walk(line):
        pass


@SETTINGS
@given(any_text)
def test_analysis_is_deterministic(text: str) -> None:
    assert render_summary(parse_command(text)) == render_summary(parse_command(text))


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_characters="\x00"), min_size=1, max_size=40))
def test_shlex_quoted_words_keep_their_value(value: str) -> None:
    text = f"echo {shlex.quote(value)}"
    line = parse_command(text)
    assert line.segments[0].argv == ("echo", value)
    # the safety net honours no quoting: a quoted `$(`, backquote, `<(`, `>(` or CR/VT/FF
    # is reported all the same (stricter, by design); nothing else is
    net = {"shell.unseen-substitution", "shell.control-blank"}
    expected = net if may_substitute(text) else set()
    assert {p.code for p in line.problems} <= expected


def ansi_c(value: str) -> str:
    # every UTF-8 byte as `\\xHH`: what bash passes whatever its locale
    return "$'" + "".join(f"\\x{byte:02x}" for byte in value.encode()) + "'"


@SETTINGS
@given(
    st.text(
        alphabet=st.characters(min_codepoint=1, max_codepoint=0xFFFF, blacklist_categories=("Cs",)),
        min_size=1,
        max_size=30,
    )
)
def test_ansi_c_quoting_decodes_exactly(value: str) -> None:
    assert parse_command(f"echo {ansi_c(value)}").segments[0].argv == ("echo", value)


@SETTINGS
@given(st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, blacklist_categories=("Cs",)))
def test_a_unicode_escape_beyond_ascii_is_not_literal(char: str) -> None:
    # bash gives `$'\\u00e9'` UTF-8 bytes in a UTF-8 locale and the text `\\u00E9` in C
    escape = f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"
    word = parse_command(f"cat $'{escape}'").segments[0].words[1]
    assert word.value is None


@SETTINGS
@given(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6, unique=True))
def test_bundled_flags_equal_separate_flags(letters: list[str]) -> None:
    spec = OptionSpec()
    bundled = option_view(parse_command("cmd -" + "".join(letters)).segments[0].words, spec)
    separate = option_view(
        parse_command("cmd " + " ".join("-" + x for x in letters)).segments[0].words, spec
    )
    assert [o.name for o in bundled.options] == [o.name for o in separate.options]


def test_nul_and_lone_surrogates() -> None:
    for text in ("\x00", "echo \x00; rm x", "\ud800", "echo \udfff$(\ud800)", "a\x00&&\x00b"):
        check_line(text, parse_command(text))


def test_a_100_kb_line_terminates() -> None:
    text = "echo " + "a" * 99_990
    line = parse_command(text)
    check_line(text, line)
    assert line.segments[0].words[1].value == "a" * 99_990
    over = parse_command(text + "b" * 100)
    assert [p.code for p in over.problems] == ["shell.limit-length"]


def test_500_deep_substitution_terminates() -> None:
    for opener, closer in (("$(", ")"), ("<(", ")"), ('"$(', ')"')):
        text = "echo " + opener * 500 + "x" + closer * 500
        line = parse_command(text)
        check_line(text, line)
        assert "shell.limit-depth" in {p.code for p in line.problems}


def test_10000_and_operators_terminate() -> None:
    text = " && ".join(["true"] * 10_000)
    line = parse_command(text)
    check_line(text, line)
    assert len(line.segments) == Limits().max_segments
    assert [p.code for p in line.problems] == ["shell.limit-segments"]
    relaxed = parse_command(text, limits=Limits(max_segments=20_000))
    assert len(relaxed.segments) == 10_000
    assert relaxed.problems == ()


def test_a_surrogate_outside_the_escapes_range_keeps_its_value() -> None:
    # hypothesis found it (15th session): `bytes_to_text` raised on `\ud800\udc80`, and
    # the analyser failed the line (an ask, never an allow)
    value = "\ud800\udc80"
    assert parse_command(f"echo {shlex.quote(value)}").segments[0].argv == ("echo", value)
