"""`expand_braces` against the machine's bash: the same words, or None (a doubt)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from policylang.shell.braces import MAX_WORDS, expand_braces

EXPLICIT = [
    "{rm,-rf,/}",
    # zero padding as bash's expand_seqterm does it (review EN1)
    "x{+01..1}",
    "x{0..+03}",
    "x{00..+03}",
    "x{+00..1}",
    "src/{a,b}.py",
    "x{a,}",
    "{,a}b",
    "{,,}x",
    "{a,b}{1,2}",
    "a{b,c}d{e,f}",
    "{1..3}",
    "{03..1}",
    "{a..e..2}",
    "{1..10..-3}",
    "{-2..2}",
    "{x..y..0}",
    "{+1..3}",
    "~/{.ssh,.aws}/x",
    "{cat,~/.ssh/id_rsa}",
    "*.{py,md}",
    "{A=1,ls}",
]
# words whose braces bash reads by rules `expand_braces` does not follow: None
DOUBTS = [
    "{a}",
    "{}",
    "{a{b,c}}",
    "{{a,b}",
    "{a,b}}",
    "a}b{c,d}",
    "{1{a..c}..x}",
    "{Z..b}",  # passes through a backslash and a backquote
    "{a..}",
    "{1...3}",
    "{-01..1}",
    "{1..100000}",
    "a b",  # no brace at all
    "{a,$x}",  # not a plain word
    "'{a,b}'",
]


def _generated(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = [*"{},{},.ab10-Z~x", "..", "{1..3}", "{a..c}", "{,}", "{a,b}"]
    words: set[str] = set()
    while len(words) < count:
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9)))
        if "{" in word:
            words.add(word)
    return sorted(words)


def _bash_words(words: list[str], cwd: Path) -> list[list[str]]:
    """What bash passes as arguments for each unquoted word (HOME=/h for tildes; in an
    empty folder, where a glob matches nothing and stays as written)."""
    bash = shutil.which("bash")
    assert bash is not None, "bash is needed for this test"
    script = "f() { printf '%s\\0' \"$#\" \"$@\"; printf '\\1'; }\n"
    script += "".join(f"f {word}\n" for word in words)
    done = subprocess.run(
        [bash, "--norc", "-c", script],
        capture_output=True,
        env={"HOME": "/h", "PATH": "/usr/bin:/bin"},
        cwd=cwd,
        check=True,
        timeout=60,
    )
    found: list[list[str]] = []
    for chunk in done.stdout.decode().split("\1")[: len(words)]:
        count, *args = chunk.split("\0")[:-1]
        assert int(count) == len(args)
        found.append(args)
    return found


def _with_home(word: str) -> str:
    return "/h" + word[1:] if word == "~" or word.startswith("~/") else word


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_expansions_match_bash(seed: int, tmp_path: Path) -> None:
    words = EXPLICIT + _generated(1500, seed)
    expanded = 0
    for word, real in zip(words, _bash_words(words, tmp_path), strict=True):
        ours = expand_braces(word)
        if ours is None:
            continue
        expanded += 1
        assert [_with_home(w) for w in ours] == real, word
    assert expanded > 300  # the generator reaches the expansions, not only doubts


def test_explicit_cases_expand() -> None:
    assert all(expand_braces(word) is not None for word in EXPLICIT)
    assert expand_braces("{rm,-rf,/}") == ["rm", "-rf", "/"]
    assert expand_braces("{,,}x") == ["x", "x", "x"]
    assert expand_braces("{03..1}") == ["03", "02", "01"]


@pytest.mark.parametrize("word", DOUBTS)
def test_doubts_are_none(word: str) -> None:
    assert expand_braces(word) is None


def test_the_result_count_is_capped() -> None:
    assert expand_braces("{a,b}" * 8) is not None  # 256 words
    assert expand_braces("{a,b}" * 9) is None
    assert len(expand_braces("{1..256}") or []) == MAX_WORDS
    assert expand_braces("{1..257}") is None
