"""Review DO: the include scan of approved compilers (and the fixes of review DM) again.

DO1 a linker script given as an operand (or found by `-l`); DO2 a header named by
`-include` in an include folder; DO3 gcc's abbreviated long options; DO4 includes named
by macros whose value is more than one quoted name; DO5 a byte order mark, a `\\` before
a form feed, a trigraph splice; DO6 an assembler's includes looked for in its working
folder; DO7 nasm's `incbin` after a label, through a macro, in a file of any name,
`--before`; DO8 a directive joined from strings or pasted by a macro; DO9 Rust's `mod`
files and a macro called through a metavariable; DO10 `as @file`; DO11 a `#define`
that a system header includes; DO12 (and DM3) a global git value whose shell command runs
the work tree's program past an operator, in a default, or as an operand with `=`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, default_verdict, env_beside, printed, scan_judge

from policylang import Verdict

_LINKER_SCRIPT = "TARGET(binary)\nINPUT({secret})\nTARGET(elf64-x86-64)\n"


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    include = f'#include "{secret}"\n'
    home = secret.parent.parent
    files = {
        "main.c": "int main(void) { return 0; }\n",
        "x.ld": _LINKER_SCRIPT.format(secret=secret),
        "notes.txt": _LINKER_SCRIPT.format(secret=secret),
        "libfoo.so": _LINKER_SCRIPT.format(secret=secret),
        "inc/conf": include,
        "inc/conf.h": include,
        "src/plain.c": "int x;\n",
        "src/mb.c": "#include <conf.h>\n",
        "src/m1.c": f'#define E\n#define H E "{secret}"\n#include H\n',
        "src/m2.c": f'#define H "{secret}" junk\n#include H\n',
        "src/t2.c": f"#define A aws\n#define H <{home}/.A/credentials>\n#include H\n",
        "src/d.c": "#include H\n",
        "src/bom.c": "\ufeff" + include,
        "src/ff.c": f'#include \\\f\n"{secret}"\n',
        "src/tri.c": f'#include ??/\n"{secret}"\n',
        "src/sys.c": f'#define MDCPUCFG "{secret}"\n#include <stdio.h>\n',
        "sub/a.s": '.include "b.s"\n',
        "sub/b.s": ".byte 1\n",
        "b.s": f'.incbin "{secret}"\n',
        "label.asm": f'x: incbin "{secret}"\n',
        "times.asm": f'times 1 incbin "{secret}"\n',
        "defstr.asm": f"%defstr P {secret}\nx: incbin P\n",
        "define.asm": f'%define I incbin\nI "{secret}"\n',
        "prog.txt": f'incbin "{secret}"\n',
        "joined.c": f'__asm__(".inc" "bin \\"{secret}\\""); int main(void) {{ return 0; }}\n',
        "paste.s": f'.macro m x\n.inc\\x "{secret}"\n.endm\nm bin\n',
        "g.rs": f'std::arch::global_asm!(concat!(".inc", "bin \\"{secret}\\"")); fn main(){{}}\n',
        "r.rs": "mod foo; fn main() {}\n",
        "foo.rs": f'pub fn f() {{ let _x: u8 = include!("{secret}"); }}\n',
        "mm.rs": f'macro_rules! m {{ ($n:ident) => {{ $n!("{secret}") }} }}\n'
        "fn main() { let _x: u8 = m!(include); }\n",
        "args": f"-al\n{secret}\n",
        "plain.s": ".byte 1\n",
        "plain.asm": "db 1\n",
        "ok.rs": "mod util; fn main() { util::f(); }\n",
        "util.rs": "pub fn f() {}\n",
    }
    for name, text in files.items():
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc main.c x.ld -o out"), ("gcc", "gcc main.c notes.txt -o o1"),
     ("gcc", "gcc main.c -L. -lfoo -o o3"), ("gcc", "gcc main.c -l:x.ld -L. -o out"),
     ("gcc", "gcc main.c libfoo.so"), ("cc", "cc main.c -T x.ld -o out"),
     ("clang", "clang main.c x.ld"), ("gcc", "gcc --library-directory . -lfoo main.c"),
     ("cpp", "cpp -Iinc -include conf src/plain.c"),
     ("gcc", "gcc -E -Iinc --include=conf src/plain.c"),
     ("gcc", "gcc -E -Iinc -includeconf src/plain.c"),
     ("cpp", "cpp -Iinc -imacros conf src/plain.c"),
     ("cpp", "cpp --include-directory-a inc src/mb.c"), ("cpp", "cpp --imacr inc/conf src/plain.c"),
     ("clang", "clang --config=x.cfg main.c"),
     ("cpp", "cpp src/m1.c"), ("cpp", "cpp src/m2.c"), ("cpp", "cpp src/t2.c"),
     ("cpp", "cpp -DH='\"{secret}\"' src/d.c"), ("cpp", "cpp src/bom.c"), ("cpp", "cpp src/ff.c"),
     ("cpp", "cpp -std=c11 src/tri.c"), ("cpp", "cpp src/sys.c"),
     ("as", "as sub/a.s -o a.o"), ("nasm", "nasm -f elf64 label.asm -o o.o"),
     ("nasm", "nasm -f elf64 times.asm -o o.o"), ("nasm", "nasm -f elf64 defstr.asm -o o.o"),
     ("nasm", "nasm -f elf64 define.asm -o o.o"), ("nasm", "nasm -f elf64 prog.txt -o o.o"),
     ("nasm", "nasm -f elf64 --before '%include \"b.s\"' plain.asm -o o.o"),
     ("gcc", "gcc -c joined.c -o j.o"), ("as", "as paste.s -o p.o"),
     ("rustc", "rustc --emit=obj g.rs -o g.o"), ("rustc", "rustc r.rs"), ("rustc", "rustc mm.rs"),
     ("as", "as @args -o a.o")],
)  # fmt: skip
def test_what_an_approved_compiler_reads_is_seen(sources: Path, approval: str, line: str) -> None:
    line = line.replace("{secret}", str(sources.parent / "home" / ".aws" / "credentials"))
    decision = scan_judge(line, sources, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc main.c -o out"), ("gcc", "gcc -O2 -Wall --std=c11 main.c -o out -lm"),
     ("gcc", "gcc -c src/plain.c -o plain.o --verbose"), ("cpp", "cpp src/plain.c"),
     ("gcc", "gcc -Iinc -c src/plain.c"), ("as", "as plain.s -o p.o"),
     ("nasm", "nasm -f elf64 plain.asm -o p.o"), ("rustc", "rustc ok.rs")],
)  # fmt: skip
def test_plain_compiles_stay_approved(sources: Path, approval: str, line: str) -> None:
    decision = scan_judge(line, sources, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("program", "line", "shows"),
    [("gcc", "gcc main.c notes.txt -o o1 && strings o1", "AKIASECRET"),
     ("cpp", "cpp src/bom.c", "AKIASECRET"), ("cpp", "cpp src/m1.c", "AKIASECRET"),
     ("cpp", "cpp --include-directory-a inc src/mb.c", "AKIASECRET"),
     ("as", "as sub/a.s -o a.o && strings a.o", "AKIASECRET"),
     ("nasm", "nasm -f elf64 label.asm -o l.o && strings l.o", "AKIASECRET")],
)  # fmt: skip
def test_the_real_compilers_read_the_secret(
    sources: Path, program: str, line: str, shows: str
) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"`{program}` is not installed (scripts/system-deps.sh installs it)")
    assert shows in printed(["bash", "-c", line], sources, sources.parent / "home")


@pytest.mark.parametrize(
    "fsmonitor",
    ['"/bin/true;tools/ed"', "/bin/true&&tools/ed", "/usr/bin/less|tools/ed",
     '"${XDG_X:-tools/ed}"', "sh d=/x"],
)  # fmt: skip
def test_do12_dm3_a_global_value_that_runs_the_work_trees_program(
    tmp_path: Path, fsmonitor: str
) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    for name in ("tools/ed", "d=/x"):
        program = workspace / name
        program.parent.mkdir(parents=True, exist_ok=True)
        program.write_text(f"#!/bin/sh\ntouch {marker}\n")
        program.chmod(0o755)
    env = env_beside(tmp_path, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b",
                     GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@b")  # fmt: skip
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)
    (tmp_path / "home" / ".gitconfig").write_text(f"[core]\n\tfsmonitor = {fsmonitor}\n")
    subprocess.run(["git", "status"], cwd=workspace, env=env, capture_output=True, check=False)
    assert marker.exists()  # the real git ran the work tree's program
    assert default_verdict("git status", workspace, env) is Verdict.ASK


def test_the_include_scan_has_a_budget_in_bytes(tmp_path: Path) -> None:
    # (review DI6: 8 chained headers of 16 MiB took 18 s; each may be that large, all the
    # sources of a line together no larger than 24 MiB)
    workspace = copy_workspace(tmp_path)
    padding = " " * (13 << 20)
    (workspace / "a.c").write_text(f'#include "b.h"\n{padding}\n')
    (workspace / "b.h").write_text(f"{padding}\n")
    decision = scan_judge("gcc -c a.c", workspace, "gcc")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "more text" in decision.explain()
    (workspace / "b.h").write_text("int b;\n")
    assert scan_judge("gcc -c a.c", workspace, "gcc").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("line", "verdict"),
    [("pytest --url=mqtt://home/sensors", Verdict.ALLOW),
     ("pytest --base-url=smb://srv/share", Verdict.ALLOW),
     ("pytest --url=tcp://dev/", Verdict.ALLOW),
     ("pytest --x=CREATE://home/u/.bashrc", Verdict.DENY),
     ("pytest --url=tcp://home/u/.ssh/id_rsa", Verdict.DENY)],
)  # fmt: skip
def test_dc7_a_network_scheme_whose_host_is_named_like_a_root_folder(
    tmp_path: Path, line: str, verdict: Verdict
) -> None:
    # (review DC7: `mqtt://home/…` named no folder of this machine, yet asked as one)
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"  # (the canary environment's HOME)
    decision = scan_judge(line.replace("/home/u", str(home)), workspace, "pytest")
    assert decision.verdict is verdict, decision.explain()
