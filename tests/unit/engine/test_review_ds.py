"""Review DS: bypasses of review DQ's fixes.

DS1 inline assembly that builds `.incbin` past any textual join (pieces across comments
or in macros, an operand in the directive's name, `asm` pasted with `##`, a section
attribute): inline assembly of any kind now asks under an approved compiler; DS2 a line
that assembles reads its headers, `-include`s and `-D` macros as assembly; DS3 a `'"'`
character literal and a `mod` handed to a macro; DS4 rustc with a `LIBRARY_PATH` of the
workspace; DS5 javac's manifests (`\\r` lines, any case), a `folder/*` of too many jars,
a class path outside the workspace; DS6 `.venv/local/lib/…/dist-packages`; DS7 JVM
class loaders named `default`, `OnError` commands joined by `&&`; DS8 an `env bash`
wrapper and one that runs node without `exec`; DS9 false asks."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, judge, printed, scan_judge

from policylang import Verdict, load_policy
from policylang.engine.evaluate import _jvm_option_paths


def _write(workspace: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


_SOURCES = {
    "m3.c": '__asm__(".data\\n.in" /**/ "cbin \\"{secret}\\"\\n.text");\n',
    "m2.c": '#define A ".in"\n#define B "cbin \\"{secret}\\""\n__asm__(A B);\n',
    "s1.c": 'void bin(void) {{}}\n__asm__(".inc%c0 \\"{secret}\\"" :: "i"(bin));\n',
    "q1.c": '#define CAT(a, b) a##b\nCAT(__as, m__)(".incbin \\"{secret}\\"");\n',
    "q2.c": '__attribute__((section(".data\\n.incbin \\"{secret}\\"\\n#"))) int x = 1;\n',
    "r1.rs": 'std::arch::global_asm!(".inc{{x}} \\"{secret}\\"", x = sym bin);\n',
    "defs.h": "#define I .incbin\n",
    "p2.S": '#include "defs.h"\nI "{secret}"\n',
    "p3.S": 'I "{secret}"\n',
    "d1.c": '#define I .incbin\nI "{secret}"\n',
    "p1.S": '#define J(a, b) .a##b\nJ(inc, bin) "{secret}"\n',
    "a.rs": "const Q: char = '\"';\nmod foo {{ pub mod bar; }}\nfn main() {{}}\n",
    "foo/bar.rs": 'pub fn f() {{ let _x: u8 = include!("{secret}"); }}\n',
    "b.rs": "macro_rules! m {{ ($k:tt $n:ident) => {{ $k $n; }} }}\nm!(mod evil);\n",
    "evil.rs": 'pub fn f() {{ let _x: u8 = include!("{secret}"); }}\n',
}


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc -c m3.c -o m3.o"), ("gcc", "gcc -c m2.c -o m2.o"), ("gcc", "gcc -c s1.c -o s1.o"),
     ("gcc", "gcc -c q1.c -o q1.o"), ("gcc", "gcc -c q2.c -o q2.o"),
     ("rustc", "rustc --emit=obj r1.rs -o r1.o"), ("gcc", "gcc -c p2.S -o p2.o"),
     ("gcc", "gcc -include defs.h -c p3.S -o p3.o"), ("gcc", "gcc -DI=.incbin -c p3.S -o p3.o"),
     ("gcc", "gcc -x assembler-with-cpp -c d1.c -o d1.o"), ("gcc", "gcc -c p1.S -o p1.o"),
     ("rustc", "rustc a.rs -o a"), ("rustc", "rustc b.rs -o b")],
)  # fmt: skip
def test_ds1_ds2_ds3_what_the_scan_cannot_follow_asks(
    tmp_path: Path, approval: str, line: str
) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    _write(workspace, {n: t.format(secret=secret) for n, t in _SOURCES.items()})
    decision = scan_judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_ds1_gcc_really_assembles_a_section_attribute(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    _write(workspace, {"q2.c": _SOURCES["q2.c"].format(secret=secret)})
    assert "AKIASECRET" in printed(["bash", "-c", "gcc -c q2.c -o q2.o; strings q2.o"], workspace)


def test_ds4_rustc_with_a_library_path_of_the_workspace(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "LIBRARY_PATH": str(workspace)}
    policy = load_policy()
    policy.approvals.add("rustc", persist=False)
    decision = policy.evaluate("rustc k5.rs -o k5", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()


def _jar(path: Path, members: dict[str, bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def test_ds5_javacs_class_path_read_as_the_jvm_reads_it(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _write(workspace, {"X.java": "class X {}\n"})
    _jar(
        workspace / "lib" / "cr.jar",
        {"META-INF/MANIFEST.MF": b"Manifest-Version: 1.0\rClass-Path: p.jar\r\r"},
    )
    _jar(
        workspace / "lib" / "lower.jar",
        {"meta-inf/services/javax.annotation.processing.Processor": b"P\n"},
    )
    _jar(workspace / "lib" / "plain.jar", {"X.java": b"class X {}\n"})
    outside = tmp_path / "outside" / "p.jar"
    _jar(outside, {"META-INF/services/javax.annotation.processing.Processor": b"P\n"})
    for index in range(4100):
        (workspace / "big").mkdir(exist_ok=True)
        (workspace / "big" / f"j{index:04}.jar").write_bytes(b"")
    for line in ("javac -cp lib/cr.jar X.java", "javac -cp lib/lower.jar X.java",
                 "javac -cp 'big/*' X.java", f"javac -cp {outside} X.java"):  # fmt: skip
        decision = scan_judge(line, workspace, "javac")
        assert decision.verdict is Verdict.ASK, (line, decision.explain())
    assert scan_judge("javac -cp lib/plain.jar X.java", workspace, "javac").verdict is Verdict.ALLOW


def test_ds6_a_debian_venvs_local_dist_packages(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "printf 'import os\\n' | tee .venv/local/lib/python3.11/dist-packages/x.pth"
    assert scan_judge(line, workspace, "tee").verdict is Verdict.ASK


def test_ds7_jvm_class_loaders_and_on_error_commands() -> None:
    assert _jvm_option_paths("-Djava.system.class.loader=default") == ["."]
    assert _jvm_option_paths("-Djava.security.manager=default") == []
    assert _jvm_option_paths("-XX:OnError=/bin/true&&./evil") == ["/bin/true", "./evil"]


@pytest.mark.parametrize(
    "wrapper",
    ['#!/usr/bin/env bash\nexec /usr/bin/npm "$@"\n', '#!/bin/sh\nnode /opt/tsc/cli.js "$@"\n'],
)
def test_ds8_wrappers_of_node_programs(tmp_path: Path, wrapper: str) -> None:
    workspace = copy_workspace(tmp_path)
    program = tmp_path / "wrapbin" / "tsc"
    program.parent.mkdir()
    program.write_text(wrapper)
    program.chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{program.parent}:/usr/bin:/bin",
           "NODE_OPTIONS": "--require ./x.js"}  # fmt: skip
    policy = load_policy()
    policy.approvals.add("tsc", persist=False)
    decision = policy.evaluate("tsc", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_ds9_ordinary_sources_stay_approved(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    _write(workspace, {
        "lin.c": "#include <asm/unistd.h>\nchar z[] = {'\\0'};\n#define INCREMENT 1\n",
        "src/a.c": "#include <stdio.h>\nint main(void) { return puts(\"\\033[0m\"); }\n",
        "ok.rs": "mod util;\nfn main() { util::f(); }\n"
        "#[cfg(test)]\nmod tests { #[test] fn t() {} }\n",
        "util.rs": "pub fn f() {}\n",
    })  # fmt: skip
    cases = (
        ("gcc", "gcc -c lin.c"), ("rustc", "rustc ok.rs"),
        ("gcc", "gcc -O2 -g -Wall -std=c11 -DNDEBUG -Iinclude -c src/a.c -o a.o"),
        ("cc", "cc -shared -fPIC src/a.c -o libx.so"),
    )  # fmt: skip
    for approval, line in cases:
        decision = scan_judge(line, workspace, approval)
        assert decision.verdict is Verdict.ALLOW, (line, decision.explain())


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc main.c -o out"), ("cc", "cc -c x.c"), ("cpp", "cpp x.c"),
     ("rustc", "rustc main.rs"), ("as", "as x.s -o x.o"), ("nasm", "nasm -f elf64 x.asm"),
     ("gcc-12", "gcc-12 -c x.c"), ("x86_64-linux-gnu-gcc", "x86_64-linux-gnu-gcc -c x.c"),
     ("ld", "ld x.o -o x")],
)  # fmt: skip
def test_no_approval_covers_compiling_under_the_shipped_rulesets(
    tmp_path: Path, approval: str, line: str
) -> None:
    # reviews DO, DQ, DS and DT each got a secret into an approved compile's output past
    # the include scan: the shipped rulesets lock an ask on every compile, which no
    # approval loosens (the scan still serves a ruleset that lets compilers be approved)
    workspace = copy_workspace(tmp_path)
    _write(workspace, {"main.c": "int main(void) { return 0; }\n", "x.c": "int x;\n"})
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "compiler-reads-sources" in decision.explain()
    assert decision.suggested_rule is None


def test_a_compilers_version_stays_allowed(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    for line in ("gcc --version", "clang --version"):
        assert judge(line, workspace).verdict is Verdict.ALLOW, line
