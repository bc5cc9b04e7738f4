"""Review DA: bypasses of review CZ's fixes.

DA1 more ways for an approved compiler's sources to include a file; DA2 `git clone -qo
up`, a linked worktree as the source; DA3 an unreadable folder of the agent's own in a
tree scan; DA4 rclone backends and configurations on the command line; DA5 cscope,
ctags and clang-format file lists; DA6 `UNIX:///path`; DA7 everyday sources stay
approved; DA8 another user's unsearchable folder; DA9 more Python names."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from realrun import as_nobody, aws_secret, copy_workspace, git_ok, scan_judge

from policylang import Verdict


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    workspace = copy_workspace(tmp_path)
    secret = aws_secret(tmp_path)
    files = {
        "string.c": f'char *s = "/*";\n#include "{secret}"\n// */\n',
        "formfeed.c": f'#\finclude "{secret}"\n',
        "cr.c": f'#include "{secret}"\r',
        "blanks.c": f'#include \\   \n"{secret}"\n',
        "marker.c": f'# 1 "{secret}"\nint x = ;\n',
        "concat.c": f'__asm__(".incbin \\"{secret.parent}\\" \\"/credentials\\"");\n',
        "escaped.rs": 'const S: &str = include_str!("\\x2fhome/x");\n',
        "alias.rs": f'use std::include_str as inc;\nconst S: &str = inc!("{secret}");\n',
        "spaced.rs": f'const S: &str = include_str !("{secret}");\n',
        "cfg.rs": f'#[cfg_attr(unix, path = "{secret}")] mod m;\n',
        "upper.s": f'.INCBIN "{secret}"\n',
        "bin.asm": f'incbin "{secret}"\n',
        "inc.asm": f'%include "{secret}"\n',
        "header.h": f'#include "{secret}"\n',
        "ft.c": "#include <ft2build.h>\n#include FT_FREETYPE_H\nint main(void) { return 0; }\n",
        "bindgen.rs": 'include!(concat!(env!("OUT_DIR"), "/bindings.rs"));\n',
        "ok.c": "#include <stdio.h>\nint main(void) { return 0; }\n",
    }
    for name, text in files.items():
        (workspace / name).write_text(text)
    return workspace


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc -E string.c"), ("gcc", "gcc -E formfeed.c"), ("gcc", "gcc -E cr.c"),
     ("gcc", "gcc -E blanks.c"), ("gcc", "gcc -fsyntax-only marker.c"), ("gcc", "gcc -c concat.c"),
     ("gcc", "gcc -include./header.h -c ok.c"), ("gcc", "gcc --include=header.h -c ok.c"),
     ("rustc", "rustc escaped.rs"), ("rustc", "rustc alias.rs"), ("rustc", "rustc spaced.rs"),
     ("rustc", "rustc cfg.rs"), ("as", "as upper.s"), ("nasm", "nasm bin.asm"),
     ("nasm", "nasm inc.asm")],
)  # fmt: skip
def test_da1_more_ways_to_include(sources: Path, approval: str, line: str) -> None:
    decision = scan_judge(line, sources, approval)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [("gcc", "gcc -c ft.c"), ("rustc", "rustc bindgen.rs"), ("gcc", "gcc -c ok.c")],
)
def test_da7_everyday_sources_stay_approved(sources: Path, approval: str, line: str) -> None:
    assert scan_judge(line, sources, approval).verdict is Verdict.ALLOW


def test_da1_the_preprocessor_reads_past_a_comment_in_a_string(sources: Path) -> None:
    done = subprocess.run(["cpp", "string.c"], cwd=sources, capture_output=True, text=True)
    assert "AKIASECRET" in done.stdout


@pytest.mark.parametrize(
    "line",
    ["git clone -qo up --bare . c1.git", "git clone -vb main --bare . c2.git",
     "git clone -qj 2 --bare . c3.git", "git clone --bare wt c4.git"],
)  # fmt: skip
def test_da2_a_local_clone_by_other_spellings(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "x")
    git_ok(workspace, "worktree", "add", "-q", "wt")
    decision = scan_judge(line, workspace, "git clone")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_da2_a_clone_of_a_url_with_options_stays_approved(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "git clone -qb main https://example.com/r x"
    assert scan_judge(line, workspace, "git clone").verdict is Verdict.ALLOW


@pytest.fixture
def locked_app() -> Iterator[Path]:
    """A workspace, owned by `nobody`, whose folder `app` (mode 000) holds a `.env`."""
    root = Path(tempfile.mkdtemp(prefix="policylang-da3-"))
    try:
        (root / "home").mkdir()
        (root / "ws" / "app").mkdir(parents=True)
        (root / "ws" / "app" / ".env").write_text("DB_PASSWORD=hunter2\n")
        for path in (root, root / "ws", root / "ws" / "app", root / "home"):
            path.chmod(0o755)
            if os.geteuid() == 0:
                os.chown(path, 65534, 65534)
        (root / "ws" / "app").chmod(0)
        yield root
    finally:
        (root / "ws" / "app").chmod(0o755)
        shutil.rmtree(root)


def test_da3_a_folder_of_ones_own_that_cannot_be_read_is_not_passed_over(
    locked_app: Path,
) -> None:
    script = (
        "from policylang import load_policy; "
        f"p = load_policy(); ws = '{locked_app}/ws'; "
        f"env = {{'HOME': '{locked_app}/home', 'PATH': '/usr/bin:/bin'}}; "
        "print(p.evaluate('grep -r PASSWORD .', workspace=ws, env=env).verdict.value)"
    )
    assert as_nobody(script) == "ask"


def test_da8_another_users_folder_stays_shut(tmp_path: Path) -> None:
    """`cat /root/x` as an account that cannot search `/root` (`nobody`, or the tests'
    own account): the command fails there too, so no question (review DA8)."""
    assert oct(Path("/root").stat().st_mode & 0o777) == "0o700", "/root is searchable here"
    script = (
        "from policylang import load_policy; "
        "d = load_policy().evaluate('cat /root/x', workspace='/tmp', "
        "env={'HOME': '/nonexistent', 'PATH': '/usr/bin:/bin'}); print(d.verdict.value)"
    )
    assert as_nobody(script) == "allow"


@pytest.mark.parametrize(
    ("approval", "line"),
    [("rclone copyto", "rclone copyto p :alias,remote=.git:hooks/pre-commit"),
     ("rclone copyto", "rclone copyto --config rc.conf p r:x"), ("cscope", "cscope -b"),
     ("cscope", "cscope -bi l"), ("ctags", "ctags -R ."), ("clang-format", "clang-format -files=l"),
     ("clang-format", "clang-format @rsp")],
)  # fmt: skip
def test_da4_da5_lists_and_backends_ask(tmp_path: Path, approval: str, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(line, workspace, approval).verdict is Verdict.ASK


def test_da6_a_unix_socket_path_after_two_slashes(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = f"socat -u OPEN:a UNIX://{tmp_path}/home/.bashrc,unlink-close"
    assert scan_judge(line, workspace, "socat -u").verdict is Verdict.DENY


@pytest.mark.parametrize(
    "name", ["python3-intel64", "pypy3.10-c", "pythonw", "jython", "python3.13td"]
)
def test_da9_more_python_names_run_scripts(tmp_path: Path, name: str) -> None:
    workspace = copy_workspace(tmp_path)
    assert scan_judge(f"{name} -m pip list", workspace).suggested_rule == f"{name} -m pip list"
    offered = scan_judge(f"{name} evil.py", workspace).suggested_rule
    assert offered is not None
    assert offered.endswith("/evil.py")  # the script, never the bare interpreter


def test_da5_a_style_named_file_is_no_list(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    line = "clang-format --style file src/a.c"
    assert scan_judge(line, workspace, "clang-format").verdict is Verdict.ALLOW
