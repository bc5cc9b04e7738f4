"""Review CZ: bypasses of review CY's fixes.

CZ1 includes an approved compiler's sources hide (macros, splices, comments, digraphs,
`#line`, `.incbin`, links, Rust's `concat!` and `#[path]`, `as`); CZ2 `cpp -D V=1.0 <<<`;
CZ3 a folder without search permission hid a link; CZ4, CZ5 local clones; CZ6
`--pathspec-from-file`; CZ7 `rclone … :local:PATH`, `UNIX:PATH`; CZ8 a workspace below a
folder named `build`; CZ9, CZ10 `python -m` suggestions and interpreter names."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from realrun import as_nobody, aws_secret, copy_workspace, git_ok, run_real, scan_judge

from policylang import Verdict


@pytest.fixture
def sources(tmp_path: Path) -> tuple[Path, Path]:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    files = {
        "macro.c": f'#define P "{secret}"\n#include P\n',
        "splice.c": f'#include \\\n"{secret}"\n',
        "comment.c": f'#/**/include "{secret}"\n',
        "digraph.c": f'%:include "{secret}"\n',
        "line.c": f'#line 1 "{secret}"\nint x = ;\n',
        "asm.c": f'__asm__(".incbin \\"{secret}\\"");\n',
        "linked.c": '#include "cred.h"\n',
        "concat.rs": 'const S: &str = include_str!(concat!("/a", "/b"));\n',
        "path.rs": f'#[path = "{secret}"] mod m;\n',
        "bin.s": f'.incbin "{secret}"\n',
        "ok.c": '#include <stdio.h>\n#include "ok.h"\nint main(void) { return 0; }\n',
        "ok.h": "#define OK 1\n",
    }
    for name, text in files.items():
        (workspace / name).write_text(text)
    (workspace / "cred.h").symlink_to(secret)
    return workspace, secret


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc -E macro.c"), ("gcc", "gcc -E splice.c"), ("gcc", "gcc -E comment.c"),
     ("gcc", "gcc -E digraph.c"), ("gcc", "gcc -fsyntax-only line.c"), ("gcc", "gcc -c asm.c"),
     ("gcc", "gcc -E linked.c"), ("rustc", "rustc concat.rs"), ("rustc", "rustc path.rs"),
     ("as", "as bin.s -o bin.o")],
)  # fmt: skip
def test_cz1_what_an_approved_compilers_sources_include_is_judged(
    sources: tuple[Path, Path], approval: str, line: str
) -> None:
    workspace, _secret = sources
    decision = scan_judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


def test_cz1_an_everyday_source_stays_approved(sources: tuple[Path, Path]) -> None:
    workspace, _secret = sources
    assert scan_judge("gcc -c ok.c -o ok.o", workspace, "gcc").verdict is Verdict.ALLOW


def test_cz1_the_preprocessor_reads_through_a_comment(sources: tuple[Path, Path]) -> None:
    workspace, _secret = sources
    done = subprocess.run(["cpp", "comment.c"], cwd=workspace, capture_output=True, text=True)
    assert "AKIASECRET" in done.stdout


@pytest.mark.parametrize(
    "line",
    ["cpp -D V=1.0 <<< '#include \"x\"'", "cpp -I inc.d <<< x", "cpp -MF deps.d -MD <<< x",
     "cpp -include a.h <<< x"],
)  # fmt: skip
def test_cz2_option_values_are_no_source(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, "cpp").verdict is Verdict.ASK


@pytest.fixture
def unsearchable() -> Iterator[Path]:
    """A workspace of `nobody`'s whose folder `d`, mode 000, holds a link to a
    credentials file."""
    root = Path(tempfile.mkdtemp(prefix="policylang-cz3-"))
    try:
        (root / "home" / ".aws").mkdir(parents=True)
        (root / "home" / ".aws" / "credentials").write_text("KEY\n")
        (root / "ws" / "d").mkdir(parents=True)
        (root / "ws" / "d" / "lnk").symlink_to(root / "home" / ".aws" / "credentials")
        for folder in (root, root / "ws", root / "home", root / "ws" / "d"):
            folder.chmod(0o755)
            if os.geteuid() == 0:
                os.chown(folder, 65534, 65534)  # the agent's own, which it may open again
        (root / "ws" / "d").chmod(0)
        yield root
    finally:
        (root / "ws" / "d").chmod(0o755)
        shutil.rmtree(root)


def test_cz3_a_folder_that_cannot_be_searched_hides_no_link(unsearchable: Path) -> None:
    """Judged as an account that permissions hold (`nobody` where the tests run as root,
    through the real `setpriv`), as an agent's is."""
    script = (
        "from policylang import load_policy; "
        f"d = load_policy().evaluate('cat d/lnk', workspace='{unsearchable}/ws', "
        f"env={{'HOME': '{unsearchable}/home', 'PATH': '/usr/bin:/bin'}}); "
        "print(d.verdict.value)"
    )
    assert as_nobody(script) == "ask"


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("git clone --no-local --local --bare . c2.git", Verdict.ASK),
        ("git clone --no-hardlinks --hardlinks --bare . c3.git", Verdict.ASK),
        ("git clone -s --no-shared --bare . c4.git", Verdict.ASK),
        ("git clone --bare h:x c1.git", Verdict.ASK),
        ("git clone lib vendor-lib", Verdict.ASK),  # CZ5: an ask, not a deny
        ("git clone --no-hardlinks . copy", Verdict.ALLOW),
        ("git clone -s . shared", Verdict.ALLOW),
        ("git clone host:repo x", Verdict.ALLOW),
    ],
)
def test_cz4_cz5_local_clones(tmp_path: Path, line: str, verdict: Verdict) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "lib").mkdir()
    git_ok(workspace / "lib", "init", "-q")
    (workspace / "h:x").symlink_to(".")
    decision = scan_judge(line, workspace, "git clone")
    assert decision.verdict is verdict, decision.explain()


@pytest.fixture
def listed(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    (workspace / "CLAUDE.md").write_text("Be careful.\n")
    git_ok(workspace, "add", "CLAUDE.md")
    git_ok(workspace, "commit", "-qm", "c")
    (workspace / "l").write_text("CLAUDE.md\n")
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [("git rm", "git rm --pathspec-from-file=l"),
     ("git restore", "git restore --source=HEAD --pathspec-from-file=l"),
     ("git checkout", "git checkout HEAD --pathspec-from-file l"),
     ("git reset", "git reset --pathspec-from=l"), ("clang-format", "clang-format --files=l"),
     ("ctags", "ctags -L l -x"), ("b3sum", "b3sum -c l")],
)  # fmt: skip
def test_cz6_a_pathspec_file_asks(listed: Path, approval: str, line: str) -> None:
    decision = scan_judge(line, listed, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_cz6_git_really_removes_what_the_file_lists(listed: Path) -> None:
    assert run_real(["git", "rm", "-q", "--pathspec-from-file=l"], listed).returncode == 0
    assert not (listed / "CLAUDE.md").exists()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("rclone copyto", "rclone copyto payload :local:{home}/.bashrc"),
     ("rclone copyto", "rclone copyto payload :local:.git/config"),
     ("socat -u", "socat -u OPEN:a.txt UNIX:{home}/.bashrc,unlink-close"),
     ("skopeo copy", "skopeo copy docker://a oci:.git/hooks")],
)  # fmt: skip
def test_cz7_a_local_path_behind_a_backend_or_address(
    tmp_path: Path, approval: str, line: str
) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    decision = scan_judge(line.format(home=home), workspace, approval)
    assert decision.verdict is Verdict.DENY, decision.explain()


def test_cz8_a_workspace_below_a_build_folder_is_walked(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    workspace = copy_workspace(tmp_path / "build")
    (workspace / "sub" / ".claude").mkdir(parents=True)
    (workspace / "sub" / ".claude" / "settings.json").write_text("{}\n")
    assert scan_judge("rm -rf sub", workspace, "rm").verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("asked", "offered"),
    [("python3 -m flask routes", "python3 -m flask routes"),
     ("python3 -m ruff check .", "python3 -m ruff check"),
     ("python3.13td -m uv sync", "python3.13td -m uv sync"),
     ("graalpy -m uv sync", "graalpy -m uv sync"), ("graalpy x.py", None)],
)  # fmt: skip
def test_cz9_cz10_module_suggestions(tmp_path: Path, asked: str, offered: str | None) -> None:
    workspace = copy_workspace(tmp_path)
    suggestion = scan_judge(asked, workspace).suggested_rule
    if offered is None:
        assert suggestion is None or suggestion.split()[-1].endswith("x.py")
    else:
        assert suggestion == offered
