"""Review FL14: script runners missing from the interpreter tables were offered by their
bare name or verb as the "always allow" suggestion (`dart x.dart` → `dart`, `crystal x.cr`
→ `crystal`, `janet x.janet` → `janet`, `nim r x.nim` → `nim r`, `stack runghc x.hs` →
`stack runghc`), whose approval then ran any other script, or code given inline (`janet
-e CODE`). Now they are offered with their script, made absolute, as `python3 x.py` is.

None of dart, crystal, janet, nim, stack, coffee, k6 or mix is installed here: the tests
judge the engine's verdicts, as the review did; that the programs run the script or code
they are given is their documented behaviour (`janet -e`, `nim r`, `stack runghc`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import judge

from policylang import Verdict


def _workspace(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return workspace


# (the innocent line, its suggestion's words before the script, the script, and lines
# that approval must not cover)
ANCHORED = [
    ("dart x.dart", "dart", "x.dart", ["dart y.dart", "dart run y.dart",
                                       "dart pub global activate evil"]),
    ("crystal x.cr", "crystal", "x.cr", ["crystal y.cr", "crystal run y.cr",
                                         "crystal eval 'system(\"id\")'"]),
    ("janet x.janet", "janet", "x.janet", ["janet y.janet", "janet -e '(os/shell \"id\")'"]),
    ("nim r x.nim", "nim r", "x.nim", ["nim r y.nim", "nim e y.nims"]),
    ("nim e x.nims", "nim e", "x.nims", ["nim e y.nims"]),
    ("stack runghc x.hs", "stack runghc", "x.hs", ["stack runghc y.hs",
                                                   "stack runhaskell y.hs"]),
    ("dart run bin/x.dart", "dart run", "bin/x.dart", ["dart run y.dart"]),
    ("coffee x.coffee", "coffee", "x.coffee", ["coffee y.coffee", "coffee -e 'x'"]),
    ("k6 run script.js", "k6 run", "script.js", ["k6 run evil.js"]),
    ("mix run x.exs", "mix run", "x.exs", ["mix run evil.exs"]),
]  # fmt: skip


@pytest.mark.parametrize(("innocent", "words", "script", "lines"), ANCHORED)
def test_the_suggestion_names_the_script_and_covers_no_other(
    tmp_path: Path, innocent: str, words: str, script: str, lines: list[str]
) -> None:
    workspace = _workspace(tmp_path)
    decision = judge(innocent, workspace)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule == f"{words} {workspace / script}"
    assert judge(innocent, workspace, decision.suggested_rule).verdict is Verdict.ALLOW
    for line in lines:
        verdict = judge(line, workspace, decision.suggested_rule).verdict
        assert verdict is not Verdict.ALLOW, line


@pytest.mark.parametrize(
    "line", ["janet -e '(print 1)'", "nim r -d:release x.nim", "dart run", "coffee -e 'x'"]
)
def test_code_inline_or_after_an_option_is_approved_once(tmp_path: Path, line: str) -> None:
    decision = judge(line, _workspace(tmp_path))
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


def test_verbs_that_run_no_script_keep_their_suggestion(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    assert judge("dart pub get", workspace).suggested_rule == "dart pub get"
    assert judge("dart format .", workspace).suggested_rule == "dart format"
    assert judge("crystal build x.cr", workspace).suggested_rule == "crystal build"
    assert judge("nim c x.nim", workspace).suggested_rule == "nim c"


def test_an_approved_compile_does_not_run_another_program(tmp_path: Path) -> None:
    """`nim c -r y.nim` compiles and runs y: not under the approval of `nim c`."""
    workspace = _workspace(tmp_path)
    for line in ("nim c -r y.nim", "nim c --run y.nim", "nim c -d:release -r y.nim"):
        assert judge(line, workspace, "nim c").verdict is Verdict.ASK, line
    assert judge("nim c y.nim", workspace, "nim c").verdict is Verdict.ALLOW


def test_the_programs_are_not_installed_here() -> None:
    """(why the tests above judge the engine only)"""
    for program in ("dart", "crystal", "janet", "nim", "stack"):
        assert shutil.which(program) is None
