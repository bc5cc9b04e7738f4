"""Words: quote removal, ANSI-C decoding, and expansions that make a word non-literal."""

from __future__ import annotations

import pytest

from policylang.shell.model import ExpansionKind as K
from policylang.shell.parse import parse_command


def words(text: str) -> tuple[str | None, ...]:
    return parse_command(text).segments[0].argv


def kinds(text: str, index: int = 1) -> list[K]:
    word = parse_command(text).segments[0].words[index]
    assert word.value is None, f"{word.text!r} should not be literal"
    return [e.kind for e in word.expansions]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("echo 'a'b\"c\"", "abc"),
        ("echo r\\m", "rm"),
        ("echo $'\\x72\\x6d'", "rm"),
        ('echo "r""m"', "rm"),
        ("echo $'\\162\\155'", "rm"),
        ("echo $'\\u0072m'", "rm"),
        ("echo $'\\U00000072m'", "rm"),
        ("echo $'a\\tb'", "a\tb"),
        ("echo $'\\cA'", "\x01"),
        ("echo $'it\\'s'", "it's"),
        ("echo $'a\\x00b'", "a"),  # bash truncates at NUL
        ("echo \"a\\$b\"", "a$b"),
        ('echo "a\\qb"', "a\\qb"),  # only $ ` " \ newline are escapes in double quotes
        ("echo 'a\\qb'", "a\\qb"),
        ("echo -\\i", "-i"),
        ('echo "-i"', "-i"),
        ("echo $\"tr\"", "tr"),
        ("echo a\\ b", "a b"),
        ("echo \\*", "*"),
        ("echo '*'", "*"),
        ('echo "~"', "~"),
        ("echo {}", "{}"),
        ("echo a,b", "a,b"),
        ("echo ''", ""),
        ("echo é😀", "é😀"),
    ],
)
def test_literal_values(text: str, value: str) -> None:
    assert words(text)[1] == value


def test_line_continuation_inside_a_word_joins_it() -> None:
    # tree-sitter splits `r\<newline>m` into two words; bash runs `rm`
    assert words("r\\\nm -rf /") == ("rm", "-rf", "/")
    assert words("echo a\\\nb\"c\"") == ("echo", "abc")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("echo $X", [K.PARAMETER]),
        ("echo ${X}", [K.PARAMETER]),
        ("echo ${X:-a}", [K.PARAMETER]),
        ("echo ${IFS}", [K.PARAMETER]),
        ('echo "$1"', [K.PARAMETER]),
        ("echo $(id)", [K.COMMAND_SUBSTITUTION]),
        ("echo `id`", [K.COMMAND_SUBSTITUTION]),
        ("echo <(id)", [K.PROCESS_SUBSTITUTION]),
        ("echo >(id)", [K.PROCESS_SUBSTITUTION]),
        ("echo $((1+2))", [K.ARITHMETIC]),
        ("echo {a,b}", [K.BRACE]),
        ("echo {1..3}", [K.BRACE]),
        ("echo x{a,b}y", [K.BRACE]),
        ("echo *", [K.GLOB]),
        ("echo a?c", [K.GLOB]),
        ("echo [ab]", [K.GLOB]),
        ("echo ~", [K.TILDE]),
        ("echo ~/x", [K.TILDE]),
        ("echo ~root/x", [K.TILDE]),
        ("echo a=~/x", [K.TILDE]),
        ("echo ${X:-$(id)}", [K.PARAMETER, K.COMMAND_SUBSTITUTION]),
    ],
)
def test_expansions(text: str, expected: list[K]) -> None:
    assert kinds(text) == expected


def test_quoted_pattern_characters_stay_literal() -> None:
    assert words("echo '*' \"?\" \\[a] '{a,b}' \"~\"") == ("echo", "*", "?", "[a]", "{a,b}", "~")


def test_brackets_without_a_pair_are_literal() -> None:
    assert words("[ -f a ]") == ("[", "-f", "a", "]")
    assert words("echo a[") == ("echo", "a[")


def test_parameter_expansion_names() -> None:
    word = parse_command('echo "$HOME" ${IFS} $1 ${#a[@]} $@').segments[0].words
    names = [e.name for w in word[1:] for e in w.expansions]
    assert names == ["HOME", "IFS", "1", "a", "@"]


def test_non_literal_word_keeps_its_text_and_span() -> None:
    line = parse_command("ls  'a'$X")
    word = line.segments[0].words[1]
    assert word.value is None
    assert word.text == "'a'$X"
    assert word.span.slice(line.text) == "'a'$X"


def test_spans_are_character_offsets() -> None:
    text = "echo é😀 \ud800 $(ls 'ü')"
    line = parse_command(text)
    for word in line.segments[0].words:
        assert word.span.slice(text) == word.text
    nested = line.segments[0].words[3].expansions[0].nested
    assert nested is not None
    inner = nested.segments[0].words[1]
    assert inner.value == "ü"
    assert inner.span.slice(text) == "'ü'"


def test_nul_and_lone_surrogates_do_not_break_words() -> None:
    assert words("echo a\x00b") == ("echo", "ab")  # bash's reading: it drops NUL (AI3)
    assert words("echo \udcff") == ("echo", "\udcff")
