from __future__ import annotations

from pathlib import Path

import pytest

from policylang.testing import seeds
from policylang.testing.quoting import Style


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_corpus_command_column_and_missing_files(tmp_path: Path) -> None:
    _write(tmp_path / "tldr.tsv", "page\tdescription\tcommand\ncommon/ls\tList\tls -la\n"
                                  "common/rm\tRemove\trm x\ncommon/ls\tdup\tls -la\n")
    _write(tmp_path / "codex_cases.tsv", "command\texpected\tsource\ngit status\tsafe\ts\n")
    assert seeds.load_corpus_commands(tmp_path) == ("ls -la", "rm x", "git status")


def test_golden_tables_first_column(tmp_path: Path) -> None:
    _write(tmp_path / "commands" / "a.tsv", "# comment\nls\tallow\trequery\tr1\n\n"
                                            "command\tverdict\nrm -rf ~\tdeny\tdurable\tr2\n")
    assert seeds.load_golden_commands(tmp_path) == ("ls", "rm -rf ~")
    assert seeds.load_golden_commands(tmp_path / "absent") == ()


def test_load_seeds_puts_golden_first_and_limits(tmp_path: Path) -> None:
    _write(tmp_path / "c" / "nl2bash.tsv", "description\tcommand\nd\tfind .\nd\tls\n")
    _write(tmp_path / "g" / "t.tsv", "ls\tallow\n")
    assert seeds.load_seeds(tmp_path / "c", tmp_path / "g") == ("ls", "find .")
    assert seeds.load_seeds(tmp_path / "c", tmp_path / "g", limit=1) == ("ls",)


def test_corpus_dir_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLICYLANG_CORPORA", str(tmp_path))
    assert seeds.default_corpus_dir() == tmp_path
    monkeypatch.setenv("POLICYLANG_CORPORA", str(tmp_path / "nope"))
    assert seeds.default_corpus_dir() is None
    assert seeds.load_corpus_commands() == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ls -la 'a b'", ("ls", "-la", "a b")),
        ('grep "x y" file', ("grep", "x y", "file")),
        ("ls $HOME", None),
        ("ls | wc", None),
        ("echo 'unclosed", None),
        ("   ", None),
    ],
)
def test_simple_words(text: str, words: tuple[str, ...] | None) -> None:
    assert seeds.simple_words(text) == words


def test_requote_keeps_assignments_assignments() -> None:
    text = seeds.requote(["A=x y", "cmd", "--opt=v", "B="], [Style.SINGLE])
    assert text == "A='x y' 'cmd' '--opt=v' B="
    assert seeds.requote(["a b"], [Style.PLAIN]) == "'a b'"


def test_text_mutations() -> None:
    assert seeds.splice("a", "b", "&&") == "a && b"
    assert seeds.splice("a", "b", "\n") == "a\nb"
    assert seeds.insert_token("ab", 1, ";") == "a ; b"
    assert seeds.insert_token("ab", 99, "|") == "ab | "
    assert seeds.delete_span("abcdef", 2, 2) == "abef"
    assert seeds.replace_char("abc", 1, "X") == "aXc"
    assert seeds.replace_char("", 0, "X") == "X"
    assert seeds.crossover("hello", "world", 2, 3) == "held"
    assert seeds.dedupe(["a", "b", "a"]) == ("a", "b")


@pytest.mark.parametrize(
    ("field", "command"),
    [
        ("ls⏎sudo id", "ls\nsudo id"),
        ('"cat <<EOF\\nhi\\nEOF"', "cat <<EOF\nhi\nEOF"),
        ('"\\"r\\"\\"m\\" -rf /"', '"r""m" -rf /'),
        ('"$@"', '"$@"'),  # JSON would decode it, but the encoder would not have encoded it
        ('"rm" -rf /', '"rm" -rf /'),
        ('"', '"'),
    ],
)
def test_decode_golden_field(field: str, command: str) -> None:
    assert seeds.decode_golden_field(field) == command


def test_golden_tables_decode_their_conventions(tmp_path: Path) -> None:
    _write(tmp_path / "t.tsv", 'ls⏎pwd\tallow\n"a\\tb"\t[x]\n')
    assert seeds.load_golden_commands(tmp_path) == ("ls\npwd", "a\tb")


def test_corpus_dir_prefers_the_package_to_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a workspace that plants `../shared/corpora` must not choose the fuzzer's seeds when
    # the package has its own (review N, low)
    monkeypatch.delenv("POLICYLANG_CORPORA", raising=False)
    package_corpora = seeds.default_corpus_dir()
    planted = tmp_path / "shared" / "corpora"
    _write(planted / "README.md", "planted\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    monkeypatch.chdir(workspace)
    found = seeds.default_corpus_dir()
    if package_corpora is None:  # no corpora beside this checkout: the cwd's are the fallback
        assert found == planted
    else:
        assert found == package_corpora != planted


def test_golden_seeds_come_only_from_a_policylang_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from policylang.testing.campaign import _in_policylang_checkout

    (tmp_path / "tests" / "golden").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert not _in_policylang_checkout()  # another project's tests/golden
    _write(tmp_path / "pyproject.toml", '[project]\nname = "other"\n')
    assert not _in_policylang_checkout()
    _write(tmp_path / "pyproject.toml", '[project]\nname = "policylang"\n')
    assert _in_policylang_checkout()
