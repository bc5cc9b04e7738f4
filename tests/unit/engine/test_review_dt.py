"""Review DT: bypasses of reviews DR's and DS's fixes.

DT2 a pretty format of a subsection (`[pretty "x"] y = %G?`); DT1 `/NET` in capitals;
DT6 more ways into the assembler's text (`__section__`, `symver`, `#ident`, `asm/**/(`)
and DT11 the false asks of the coarse rule (`##` in a string, `asm` in a comment, a
function named `section`, Rust's `r##"`), both under a ruleset that lets compilers be
approved; DT8 a jar manifest too large to read; DT10 an `OnError` command in backticks;
DT13 BSD's `ps auxE`. The shipped rulesets ask for every compile (DS)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from realrun import copy_workspace, git_ok, judge, scan_judge

from policylang import Verdict
from policylang.engine.evaluate import _jvm_option_paths


def test_dt2_a_pretty_format_of_a_subsection(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    with (workspace / ".git" / "config").open("a") as config:
        config.write('[pretty "x"]\n\ty = %h %G?\n')
    assert judge("git log", workspace).verdict is Verdict.ASK


def test_dt1_dt13_names_and_environments(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    for line in ("ls /NET/evil.example.com", "ps auxE", "ps wwE"):
        assert judge(line, workspace).verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    "source",
    ['__attribute__((__section__(".data\\n.incbin \\"x\\"\\n#"))) int x = 1;\n',
     '__attribute__((symver("f@V1\\n.incbin \\"x\\""))) int f(void) { return 0; }\n',
     '#ident "x"\nint y;\n', 'int main(void) { asm/**/("nop"); }\n'],
)  # fmt: skip
def test_dt6_more_ways_into_the_assemblers_text(tmp_path: Path, source: str) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "q.c").write_text(source)
    assert scan_judge("gcc -c q.c", workspace, "gcc").verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("name", "source", "line"),
    [("a.c", 'const char *s = "a##b"; /* asm("x") */\nint section(int x) { return x; }\n',
      "gcc -c a.c"),
     ("r.rs", 'fn main() { let _s = r##"x"##; }\n', "rustc r.rs")],
)  # fmt: skip
def test_dt11_ordinary_sources_under_an_approval(
    tmp_path: Path, name: str, source: str, line: str
) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / name).write_text(source)
    decision = scan_judge(line, workspace, line.split()[0])
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_dt8_a_manifest_too_large_to_read(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "X.java").write_text("class X {}\n")
    (workspace / "lib").mkdir()
    manifest = b"Manifest-Version: 1.0\n" + b"X-Pad: " + b"a" * (2 << 20) + b"\nClass-Path: p.jar\n"
    with zipfile.ZipFile(workspace / "lib" / "big.jar", "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", manifest)
    assert scan_judge("javac -cp lib/big.jar X.java", workspace, "javac").verdict is Verdict.ASK


def test_dt10_an_on_error_command_in_backticks() -> None:
    assert _jvm_option_paths("-XX:OnError=/bin/true`./evil`") == ["/bin/true", "./evil"]
