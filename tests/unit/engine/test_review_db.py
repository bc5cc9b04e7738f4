"""Review DB: bypasses and regressions of review DA's fixes.

DB1 a file holding `gitdir: .git` as a clone's source; DB2 more include spellings
(function-like macros, C++ raw strings, nasm without a blank, Rust attribute tricks);
DB3 ctags under its distributions' names; DB4 `CREATE://home/…` outside the workspace;
DB5 a quoted `#define` no include uses; DB6 prose that starts a line with `include`;
DB7 `ctags --version`."""

from __future__ import annotations

from pathlib import Path

import pytest
from realrun import aws_secret, copy_workspace, git_ok, scan_judge

from policylang import Verdict


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    files = {
        "stringify.c": f"#define S(x) #x\n#include S({secret})\n",
        "raw.cc": f'auto s = R"(a"/*)";\n#include "{secret}"\n// */\n',
        "digits.cc": f"int n = 1'2'/*';\n#include \"{secret}\"\n// */\n",
        "nospace.asm": f'incbin"{secret}"\n',
        "pre.inc": f'%include "{secret}"\n',
        "main.asm": "nop\n",
        "cfg.rs": f'#[cfg_attr(all(), doc = "]", path = "{secret}")] mod m;\n',
        "raw.rs": f'#[path = r"{secret}"] mod m;\n',
        "escaped.rs": '#[path = "\\x2fhome/x"] mod m;\n',
        "gdb.rs": f'#![debugger_visualizer(gdb_script_file = "{secret}")]\n',
        "paths.c": '#define SHADOW_FILE "/etc/shadow"\n#define DOTENV ".env"\nint x;\n',
        "macro.c": '#include "macro.h"\n#include P\n',
        "macro.h": f'#define P "{secret}"\n',
        "readme.rs": 'const R: &str = include_str!("README.md");\n',
        "README.md": "Include the crate in your build.\n",
        "nginx.cc": 'const char *c = "server {\\n"\n"include mime.types;\\n";\n',
    }
    for name, text in files.items():
        (workspace / name).write_text(text)
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc -E stringify.c"), ("g++", "g++ -E raw.cc"), ("g++", "g++ -E digits.cc"),
     ("nasm", "nasm nospace.asm"), ("nasm", "nasm -Ppre.inc main.asm"), ("rustc", "rustc cfg.rs"),
     ("rustc", "rustc raw.rs"), ("rustc", "rustc escaped.rs"), ("rustc", "rustc gdb.rs"),
     ("gcc", "gcc -E macro.c")],
)  # fmt: skip
def test_db2_more_include_spellings(sources: Path, approval: str, line: str) -> None:
    decision = scan_judge(line, sources, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("rustc", "rustc readme.rs"), ("g++", "g++ -c nginx.cc")],
)
def test_db5_db6_names_no_include_uses_stay_approved(
    sources: Path, approval: str, line: str
) -> None:
    decision = scan_judge(line, sources, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_a_protected_name_a_define_quotes_asks(sources: Path) -> None:
    # (DB5 had kept `#define DOTENV ".env"` approved as no include uses it; review DO11:
    # a system header, which is not read, may include through that very macro)
    decision = scan_judge("gcc -c paths.c", sources, "gcc")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "a header may include" in decision.explain()


def test_db1_a_gitdir_file_as_the_source(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "g").write_text("gitdir: .git\n")
    decision = scan_judge("git clone --bare g c1.git", workspace, "git clone")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("name", ["ctags-universal", "universal-ctags", "uctags"])
def test_db3_ctags_by_its_other_names(tmp_path: Path, name: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(f"{name} -x a.c", workspace, name).verdict is Verdict.ASK


def test_db7_ctags_version_is_no_list(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge("ctags --version", workspace, "ctags").verdict is Verdict.ALLOW


def test_db4_a_typed_path_into_a_folder_of_this_machine(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "socat -u OPEN:payload CREATE://usr/local/share/gradle/init.d/x.gradle"
    assert scan_judge(line, workspace, "socat -u").verdict is Verdict.ASK  # outside the workspace
    url = "socat -u OPEN:payload CREATE://no-such-host/share/x"
    assert scan_judge(url, workspace, "socat -u").verdict is Verdict.ALLOW


@pytest.fixture
def macro_sources(tmp_path: Path) -> Path:
    """Review DC: includes named through macros, and everyday code that is no include."""
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    files = {
        "nested.c": f"#define S(x) #x\n#define P S({secret})\n#include P\n",
        "redefined.c": f'#define P "{secret}"\n#include P\n#undef P\n#define P "ok.h"\n',
        "line.c": f"#define S(x) #x\n#define L S({secret})\n#line 1 L\n",
        "field.c": "struct o { int include_hidden; } o;\n// see .includes\n",
        "commented.c": "#include FT_FREETYPE_H /* FreeType (font engine) */\nint x;\n",
        "boost.c": "#if 0\n#include BOOST_PP_ITERATE()\n#endif\nint x;\n",
        "attr.rs": '#[cfg(windows)] fn f() { let path = "C:\\\\Windows"; }\n',
        "ok.h": "",
    }
    for name, text in files.items():
        (workspace / name).write_text(text)
    return workspace


@pytest.mark.parametrize(
    ("approval", "line", "verdict"),
    [("gcc", "gcc -E nested.c", Verdict.ASK), ("gcc", "gcc -E redefined.c", Verdict.DENY),
     ("gcc", "gcc -E line.c", Verdict.ASK), ("gcc", "gcc -c field.c", Verdict.ALLOW),
     ("gcc", "gcc -c commented.c", Verdict.ALLOW), ("gcc", "gcc -c boost.c", Verdict.ALLOW),
     ("rustc", "rustc attr.rs", Verdict.ALLOW)],
)  # fmt: skip
def test_dc2_to_dc5_macros_followed_and_everyday_code(
    macro_sources: Path, approval: str, line: str, verdict: Verdict
) -> None:
    decision = scan_judge(line, macro_sources, approval)
    assert decision.verdict is verdict, decision.explain()


def test_dc1_dc6_a_repository_folder_without_objects_and_a_bundle(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "x" / "refs").mkdir(parents=True)
    (workspace / "x" / "HEAD").write_text("ref: refs/heads/main\n")
    (workspace / "x" / "commondir").write_text("../.git\n")
    assert scan_judge("git clone --bare x c.git", workspace, "git clone").verdict is Verdict.ASK
    (workspace / "repo.bundle").write_text("# v2 git bundle\n")
    assert scan_judge("git clone repo.bundle out", workspace, "git clone").verdict is Verdict.ALLOW


def test_a_macro_chain_longer_than_is_followed_asks(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    chain = [f"#define M{n} M{n + 1}" for n in range(80)]
    (workspace / "chain.c").write_text(
        "\n".join([*chain, f'#define M80 "{secret}"', "#include M0", ""])
    )
    assert scan_judge("gcc -E chain.c", workspace, "gcc").verdict is Verdict.ASK
