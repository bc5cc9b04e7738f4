"""Review EY: option parsers the engine has for programs that read their options otherwise.

EY1: less ends a number's value where its digits end, `-x`'s, `-#`'s and `-j`'s where their
characters end, and any string's at `$`, then reads the next letters of the word as options:
`less -x4k key.bin F` loads `key.bin`, a lesskey file whose `#env` sets LESSOPEN to a
command, which less runs with its output a pipe too. A `+` inside the word starts less
commands (`-S+!CMD`, run on a terminal). EY2: tree gives each value-taking letter of a
bundle the next word in turn (`tree -Lo 1 F` writes F). EY3: unzip reads a `-` inside an
option word as negating the next letter (`-l-l` extracts), and `-P`/`-d` take the rest of
the word (`-Pt` is a password). EY4: man-db puts its `-r` prompt into less's options
unescaped (`man -r 'x$k./key.bin$' ls` loads the lesskey file). EY5: `type -p` only prints
a path. Each premise is shown with the real program, then the engine's verdict."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from realrun import decide, env_beside, run_printed

from policylang import Verdict

_CANARY = "CANARY-EY"


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    (workspace / "README.md").write_text("hello\n")
    return workspace


def _lesskey(workspace: Path, name: str, command: str) -> None:
    """A binary lesskey file `name` whose `#env` makes LESSOPEN run `command` (the file an
    attacker commits), compiled by the real lesskey."""
    source = workspace / (name + ".src")
    source.write_text(f"#env\nLESSOPEN={command}\n")
    done = subprocess.run(
        ["lesskey", "-o", str(workspace / name), str(source)], capture_output=True, check=False
    )
    assert (workspace / name).exists(), done.stderr


_needs_lesskey = pytest.mark.skipif(
    shutil.which("less") is None or shutil.which("lesskey") is None, reason="needs less, lesskey"
)

_LESS_SPELLINGS = [
    "-x4k",
    "-h5k",
    "'-#3k'",
    "-b5k",
    "-j5k",
    "-y5k",
    "-z5k",
    "-5k",
    "-bk",
    "'-Pfoo$k'",
    "'-pfoo$k'",
    "'-Dfoo$k'",
    "-x4\\k",
    "-h5-k",
    "--line-num-width=3k",
]


@_needs_lesskey
@pytest.mark.parametrize("spelling", _LESS_SPELLINGS)
def test_less_reads_the_letters_after_a_value_as_options(tmp_path: Path, spelling: str) -> None:
    workspace = _workspace(tmp_path)
    _lesskey(workspace, "key.bin", f"|echo {_CANARY}; cat %s")
    env = env_beside(tmp_path)
    line = f"less {spelling} key.bin README.md"
    assert _CANARY in run_printed(line, workspace, env)  # the lesskey file's command ran
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "less-keys" for r in decision.reasons)


@_needs_lesskey
def test_less_values_that_take_the_whole_word_stay_allowed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _lesskey(workspace, "key.bin", f"|echo {_CANARY}; cat %s")
    env = env_beside(tmp_path)
    lines = ("less -x4 README.md", "less -N -S README.md", "less -p'^hel' README.md",
             "less '-Pfoo$' README.md", "less -R -j5 README.md",
             "less -x4,8 README.md")  # fmt: skip
    for line in lines:
        assert _CANARY not in run_printed(line, workspace, env)
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line


def test_a_file_after_a_resumed_bundle_is_still_read(tmp_path: Path) -> None:
    """Where a value letter after the end of another value takes the next word, the word
    is read as a file too: less would open it if it read the bundle otherwise."""
    workspace = _workspace(tmp_path)
    (workspace / ".env").write_text(f"KEY={_CANARY}\n")
    for line in ("less -x4p .env", "less '-Pa$p' .env", "less -Yp .env"):
        decision = decide(line, workspace, env_beside(tmp_path))
        assert decision.verdict is Verdict.DENY, (line, decision.explain())


def _on_a_terminal(line: str, workspace: Path, env: dict[str, str]) -> None:
    """Run `line` on a pseudo-terminal (`script`), typing `q` a moment later."""
    command = f"(sleep 1; printf q) | script -qc {_quote(line)} /dev/null >/dev/null 2>&1"
    terminal = {**env, "TERM": "xterm", "SHELL": "/bin/bash"}
    subprocess.run(["bash", "-c", command], cwd=workspace, env=terminal, timeout=30, check=False)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


@pytest.mark.skipif(shutil.which("script") is None or shutil.which("less") is None,
                    reason="needs script and less")  # fmt: skip
def test_less_runs_commands_after_a_plus_inside_an_option_word(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    env = env_beside(tmp_path)
    line = "less $'-S+!touch PWNED\\n' README.md"
    _on_a_terminal(line, workspace, env)
    assert (workspace / "PWNED").exists()
    (workspace / "PWNED").unlink()
    for spelling in (line, "less '-S+!id>PWNED' README.md"):
        decision = decide(spelling, workspace, env)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "pager-commands-option" for r in decision.reasons)
    # `-+S` resets `-S`: no commands
    assert decide("less -+S README.md", workspace, env).verdict is Verdict.ALLOW


def _tree() -> str | None:
    """A real tree 2.x (Debian's, which `scripts/system-deps.sh` installs)."""
    return shutil.which("tree")


_TREE_WRITES = [
    ("tree -Lo 1 out.txt", "out.txt"),
    ("tree -iLo 1 .claude/settings.json", ".claude/settings.json"),
    ("tree -Po '*' ../home/.profile", "../home/.profile"),
    ("tree -Ho . ../home/.bashrc", "../home/.bashrc"),
    ("tree -Io x out.txt", "out.txt"),
]


@pytest.mark.parametrize(("line", "written"), _TREE_WRITES)
def test_tree_gives_each_value_letter_the_next_word(
    tmp_path: Path, line: str, written: str
) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".claude").mkdir()
    env = env_beside(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
    tree = _tree()
    if tree is None:
        pytest.skip("needs tree 2.x for the real run (the verdict was checked)")
    program = line.replace("tree", tree, 1)
    run_printed(program, workspace, env)
    assert (workspace / written).exists()  # the real tree wrote the file


def test_tree_reading_lines_stay_allowed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    for line in ("tree", "tree -L 2", "tree -a -L 2 .", "tree -d -L 3 -I node_modules"):
        assert decide(line, workspace, env_beside(tmp_path)).verdict is Verdict.ALLOW, line


def _archive(workspace: Path) -> None:
    with zipfile.ZipFile(workspace / "x.zip", "w") as archive:
        archive.writestr("payload.txt", "payload\n")


_UNZIP_EXTRACTS = [
    ("unzip -l-l x.zip", "payload.txt"),
    ("unzip -l --l x.zip", "payload.txt"),
    ("unzip -t-t x.zip", "payload.txt"),
    ("unzip -qql-l x.zip", "payload.txt"),
    ("unzip -l -x-l x.zip", "payload.txt"),
    ("unzip -Pt x.zip", "payload.txt"),
    ("unzip -Pv x.zip", "payload.txt"),
    ("unzip -dl x.zip", "l/payload.txt"),
    ("unzip -dt x.zip", "t/payload.txt"),
]


@pytest.mark.skipif(shutil.which("unzip") is None, reason="needs unzip")
@pytest.mark.parametrize(("line", "written"), _UNZIP_EXTRACTS)
def test_unzip_option_words_read_as_unzip_reads_them(
    tmp_path: Path, line: str, written: str
) -> None:
    workspace = _workspace(tmp_path)
    _archive(workspace)
    env = env_beside(tmp_path)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    run_printed(line, workspace, env)
    assert (workspace / written).exists()  # the real unzip extracted


@pytest.mark.skipif(shutil.which("unzip") is None, reason="needs unzip")
def test_unzip_listings_stay_allowed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    _archive(workspace)
    env = env_beside(tmp_path)
    for line in ("unzip -l x.zip", "unzip -t x.zip", "unzip -lv x.zip", "unzip -Z1 x.zip",
                 "unzip -l -d out x.zip", "unzip -qql x.zip", "unzip -v x.zip"):  # fmt: skip
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line
        run_printed(line, workspace, env)
        assert not (workspace / "payload.txt").exists(), line


@_needs_lesskey
@pytest.mark.skipif(shutil.which("man") is None or shutil.which("script") is None,
                    reason="needs man-db and script")  # fmt: skip
def test_man_prompt_becomes_less_options(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    marker = workspace / "PWNED"
    _lesskey(workspace, "key.bin", f"|-touch {marker}; cat %s")
    env = env_beside(tmp_path)
    line = "man -r 'x$k./key.bin$' ls"
    if not run_printed("man -w ls", workspace, env).strip().startswith("/"):
        pytest.skip("no manual page for ls")
    _on_a_terminal(line, workspace, env)
    assert marker.exists()  # less loaded the lesskey file and ran its LESSOPEN
    for spelling in (line, "man --prom='x$kkey.bin$' ls", "man -ar x ls", "man --prompt x ls"):
        decision = decide(spelling, workspace, env)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "man-prompt" for r in decision.reasons)
    # apropos's and whatis's `-r` is `--regex`
    for other in ("man ls", "apropos -r '^ls'", "whatis -r ls"):
        assert decide(other, workspace, env).verdict is Verdict.ALLOW, other


def test_type_p_prints_a_path(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    env = env_beside(tmp_path)
    assert run_printed("type -p ls", workspace, env).strip().endswith("/ls")
    for line in ("type -p ls", "type -P ls", "type -a ls", "which ls"):
        assert decide(line, workspace, env).verdict is Verdict.ALLOW, line
    # `hash -p PATH NAME` sets the program NAME runs: it still asks
    assert decide("hash -p /tmp/x ls", workspace, env).verdict is Verdict.ASK
