"""Review EC, the approved runners: EC4 strace's own options read with its option table
(glued short options, long options by any unique prefix): only the options known to
harm nothing pass; EC5 ninja's glued `-Csub`, `-tclean`, `-fX` under `ninja all`; EC6
valgrind's log files judged as written paths."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace with `.env` and `README.md`, beside a fake home."""
    workspace = copy_workspace(tmp_path)
    (workspace / ".env").write_text("TOKEN=1\n")
    (workspace / "README.md").write_text("touch PWNED_FROM_README\n")
    (tmp_path / "home" / ".ssh").mkdir(parents=True, exist_ok=True)
    return workspace, env_beside(tmp_path)


_RANK = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}

# -- EC4: strace's options under a bare `strace` approval ------------------------------------

_STRACE_ASKS = [
    # an abbreviated long option before -o: its value is not the next word
    "strace --follow -o'|touch PWNED' ls",
    "strace --foll -o'|touch PWNED' ls",
    "strace --seccomp -o'|touch PWNED' ls",
    "strace --pidns -o'|touch PWNED' ls",
    "strace --stack -o'|touch PWNED' ls",
    "strace --seccomp --output='|id' ls",
    "strace -f --outp='|id' ls",
    "strace --out='|id' ls",
    "strace --outp=trace.txt ls",
    # the traced program's environment
    "strace -EBASH_ENV=README.md bash -c true",
    "strace -o/dev/null --env=BASH_ENV=README.md bash -c true",
    "strace --env=LD_PRELOAD=./x.so ls",
    "strace -ELD_PRELOAD=./x.so ls",
    "strace --en=LD_PRELOAD=./x.so ls",
    "strace -fELD_PRELOAD=./x.so ls",
    "strace -E LD_PRELOAD=./x.so ls",
    # attaching to another process
    "strace -p1",
    "strace -fp1",
    "strace -p 1",
    "strace --attach=1",
    "strace --att=1",
    "strace -s9999 -p1",
    "strace -fs200 -p1",
    # tampering, another user, detaching
    "strace --inject=read:retval=0 ls",
    "strace --inj=read:retval=0 ls",
    "strace -einject=read:retval=0 ls",
    "strace -e inject=read:retval=0 ls",
    "strace -e fault=open ls",
    "strace --fault=open ls",
    "strace --detach-on=execve ls",
    "strace -bexecve ls",
    "strace -b execve ls",
    "strace --user=nobody ls",
    "strace --us=nobody ls",
    "strace -unobody ls",
    # options not known, or ambiguous, ask
    "strace --s ls",
    "strace --always ls",
    "strace -e 'x=1' ls",
]


@pytest.mark.parametrize("line", _STRACE_ASKS)
def test_ec4_strace_options_that_do_more_than_trace_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "strace")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


_STRACE_ALLOWS = [
    "strace ls",
    "strace -f ls",
    "strace -ff -otrace.txt ls",
    "strace -c ls",
    "strace -C ls",
    "strace -tt -T ls",
    "strace -ttt ls",
    "strace -yy ls",
    "strace -s200 ls",
    "strace -s200 -fv ls",
    "strace -etrace=openat ls",
    "strace -etrace=%file ls",
    "strace -eopenat,read ls",
    "strace -esignal=none -qq ls",
    "strace --trace=openat ls",
    "strace --follow-forks --output=trace.txt ls",
    "strace --foll ls",
    "strace --seccomp-bpf -f ls",
    "strace -otrace.txt ls",
    "strace -xx -a60 -z ls",
    "strace -Z -k ls",
    "strace --string-limit=99 ls",
    "strace -- ls",
]


@pytest.mark.parametrize("line", _STRACE_ALLOWS)
def test_ec4_tracing_options_stay_allowed(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    decision = decide(line, workspace, env, "strace")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "target", ["/tmp/ec4x", "~/ec4x", "../ec4x", ".git/hooks/pre-commit", "~/.bashrc"]
)
def test_ec4_strace_output_is_judged_as_a_written_path(tmp_path: Path, target: str) -> None:
    # at least as an approved `touch` writing it (`/tmp` is no protected place)
    workspace, env = _workspace(tmp_path)
    expected = decide(f"touch {target}", workspace, env, "touch").verdict
    for line in (f"strace -o{target} ls", f"strace -fo{target} ls", f"strace --output={target} ls"):
        assert _RANK[decide(line, workspace, env, "strace").verdict] >= _RANK[expected], line


def _real_strace(workspace: Path, *argv: str) -> None:
    done = subprocess.run(
        ["strace", *argv], cwd=workspace, capture_output=True, timeout=60, check=False
    )
    if b"ptrace" in done.stderr and b"Operation not permitted" in done.stderr:
        pytest.skip("ptrace is not allowed here")


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_ec4_the_real_strace_reads_abbreviations_and_glued_env(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    _real_strace(workspace, "--seccomp", "-o|touch PWNED", "true")
    assert (workspace / "PWNED").exists()
    _real_strace(workspace, "-o/dev/null", "-EBASH_ENV=README.md", "bash", "-c", "true")
    assert (workspace / "PWNED_FROM_README").exists()


# -- EC5: ninja's glued options under `ninja all` -------------------------------------------

_NINJA_ASKS = [
    "ninja all -tcleandead",
    "ninja all -tclean",
    "ninja all -tbrowse",
    "ninja all -tcommands",
    "ninja all -t clean",
    "ninja all -Csub",
    "ninja all -C/tmp/ecx",
    "ninja all -C\"sub\"",
    "ninja all -nCsub",
    "ninja all -j4 -Csub",
    "ninja all -C sub",
    "ninja all -fother.ninja",
    "ninja all -f other.ninja",
    "ninja all -dexplain",
    "ninja all -d explain",
    "ninja all -wdupbuild=warn",
    "ninja all -vtclean",
]


@pytest.mark.parametrize("line", _NINJA_ASKS)
def test_ec5_ninja_glued_options_ask_under_a_target_approval(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    decision = decide(line, workspace, env, "ninja all")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    ("line", "approval"),
    [("ninja all", "ninja all"), ("ninja all -j4", "ninja all"), ("ninja all -v", "ninja all"),
     ("ninja all -n", "ninja all"), ("ninja -j4", "ninja -j4 $")],
)  # fmt: skip
def test_ec5_ninja_lines_the_approval_names_stay_allowed(
    tmp_path: Path, line: str, approval: str
) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    decision = decide(line, workspace, env, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_ec5_ninja_C_asks_even_where_named_as_make_C_does(tmp_path: Path) -> None:
    # (an ask of an option holds under any approval: `make -C sub` under `make -C sub`)
    workspace, env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    assert decide("make -C sub", workspace, env, "make -C sub").verdict is Verdict.ASK
    assert decide("ninja -C sub", workspace, env, "ninja -C sub").verdict is Verdict.ASK


@pytest.mark.skipif(shutil.which("ninja") is None, reason="ninja is not installed")
def test_ec5_the_real_ninja_reads_glued_C(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / "build.ninja").write_text("build all: phony\n")
    (workspace / "sub" / "build.ninja").write_text(
        "rule t\n  command = touch PWNED\nbuild all: t\n"
    )
    subprocess.run(["ninja", "all", "-Csub"], cwd=workspace, capture_output=True, timeout=60,
                   check=False)  # fmt: skip
    assert (workspace / "sub" / "PWNED").exists()


# -- EC6: valgrind's log files are written paths ---------------------------------------------


@pytest.mark.parametrize("target", ["/tmp/ec6x", "~/ec6x", "../ec6x", ".git/hooks/x"])
@pytest.mark.parametrize("option", ["--log-file", "--vgdb-prefix", "--xml-file"])
def test_ec6_valgrind_files_are_judged_as_written_paths(
    tmp_path: Path, option: str, target: str
) -> None:
    # at least as an approved `touch` writing it: `/tmp` is no protected place, both pass
    # (bash leaves `~` after `--log-file=` as it is: that asks)
    workspace, env = _workspace(tmp_path)
    expected = decide(f"touch {target}", workspace, env, "touch").verdict
    decision = decide(f"valgrind {option}={target} ls", workspace, env, "valgrind")
    assert _RANK[decision.verdict] >= _RANK[expected], decision.explain()


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_ec6_the_real_valgrind_writes_its_log_file(tmp_path: Path) -> None:
    workspace, _env = _workspace(tmp_path)
    log = tmp_path / "outside.log"
    subprocess.run(["valgrind", "--tool=none", f"--log-file={log}", "true"], cwd=workspace,
                   capture_output=True, timeout=120, check=False)  # fmt: skip
    assert log.exists()
