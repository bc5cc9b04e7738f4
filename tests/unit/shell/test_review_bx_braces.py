"""Review BX8: bash's brace expansion skips a `}` met before the first comma, so `cat
{x},.env}` reads `x}` and `.env`, and `find . -name {x},-o,-delete}` deletes. The
analyser paired each `{` with the next `}` and took such words as literal. Generated
words are held against a real bash: a word the model calls literal is one bash leaves
alone."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from policylang.shell.model import ExpansionKind
from policylang.shell.parse import parse_command

_PIECES = ("{", "}", ",", "..", "a", "b", "\\{", "\\}", "\\,", "','", '"}"', "x", "-o")


def _words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    found: set[str] = set()
    while len(found) < count:
        found.add("".join(rng.choice(_PIECES) for _ in range(rng.randint(2, 9))))
    return sorted(found)


def _bash_fields(words: list[str]) -> list[list[str]]:
    script = "".join(f"printf '%s\\x1f' {word}; printf '\\x1e'\n" for word in words)
    done = subprocess.run(
        ["bash", "--norc", "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    return [record.split("\x1f")[:-1] for record in done.stdout.split("\x1e")[: len(words)]]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("seed", [6, 7])
def test_a_word_the_model_calls_literal_is_one_bash_does_not_expand(seed: int) -> None:
    words = _words(seed, 1500)
    missed = []
    for word, fields in zip(words, _bash_fields(words), strict=True):
        line = parse_command("echo " + word)
        if line.problems or len(line.segments[0].words) != 2:
            continue  # (asks anyway)
        value = line.segments[0].words[1].value
        if value is not None and fields != [value]:
            missed.append((word, value, fields))
    assert missed == []


@pytest.mark.parametrize(
    "word", ["{x},.env}", "{x}y,.env}", "{x}\\{,.env}", '{x}"}",.env}', "{x},-o,-delete}"]
)
def test_a_brace_closed_only_after_a_comma_expands(word: str) -> None:
    (segment,) = parse_command("cat " + word).segments
    expanded = segment.words[1]
    assert expanded.value is None
    assert ExpansionKind.BRACE in {e.kind for e in expanded.expansions}


@pytest.mark.parametrize("word", ["{x}", "{a}{b}", "{a\\,b}", "{a','b}", "x{}y,z"])
def test_braces_bash_leaves_alone_stay_literal(word: str) -> None:
    (segment,) = parse_command("cat " + word).segments
    assert segment.words[1].value is not None
