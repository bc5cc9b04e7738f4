"""Review HF1, HF2 (fixer BK): rsync's batch files and its destination-relative folders.

HF1: `rsync --read-batch=FILE DEST` writes whatever names the batch lists below DEST (the
batch turns recursion on itself, and stores `--inplace`/`--append`), and the engine looked
at none of them: under the approval `rsync` it offers for `rsync -r pl/ out/`, `rsync
--read-batch=x .` with a batch made elsewhere wrote `.git/hooks/pre-commit`, which `git
commit` ran. HF1b: so did rsync's and scp's remote sides run here, which take the names
they write from their input (`rsync --server . . < stream`, `printf 'C0755 …' | scp -t .`).
HF2: a relative `--backup-dir` (also `--partial-dir`, `-T`/`--temp-dir`, `--link-dest`,
`--compare-dest`, `--copy-dest`) is read by rsync from the destination, by the engine from
the working folder: `rsync -r --backup-dir=../.git/hooks pl/ out/` moved the old
`out/pre-commit` to `.git/hooks/pre-commit`. HF2b: rsync had no option table, so its `-t`
(`--times`) was read as cp's target folder (`rsync -rt payload/ sub/` was never listed,
and wrote a repository with its `core.fsmonitor` below `sub/`), and the values of its
options as operands. HF2c: `--suffix` names the backups (`out/CLAUDE` became
`out/CLAUDE.md`), as cp's `-S` does.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from realrun import decide, git_ok, run_real

from policylang import Verdict

_HOOK = "#!/bin/sh\necho HOOKRAN\n"
_HAS_RSYNC = shutil.which("rsync") is not None
_HAS_SCP = shutil.which("scp") is not None
# what `rsync -r --protocol=29 --checksum-seed=1 src/ host:dst/` sent to the remote side
# (`rsync --server -r --checksum-seed=1 . dst/`), `src/.git/hooks/pre-commit` being `_HOOK`
# (recorded with rsync 3.5.0 through a remote shell that copied its input)
_STREAM = bytes.fromhex(
    "1d00000019012e0010000056bb166bed410000ba010367697400100000ba04062f686f6f6b730010"
    "0000b80a0b2f7072652d636f6d6d697417000000ed81000000000000000100000000600200000000"
    "600300000000a0000000000000000000000000000000001700000023212f62696e2f73680a656368"
    "6f20484f4f4b52414e0a00000000dcd67cf4bca82eed83eba27c43ca2436ffffffffffffffffffff"
    "ffff"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A repository with `pl/pre-commit` (a payload), `out/pre-commit` (an old script),
    `src/s.txt`, and a fake home beside it."""
    (tmp_path / "home").mkdir()
    ws = tmp_path / "ws"
    ws.mkdir()
    git_ok(ws, "init", "-q")
    for folder in ("pl", "out", "src", "dst", "a", "b"):
        (ws / folder).mkdir()
    (ws / "pl" / "pre-commit").write_text("new\n")
    (ws / "out" / "pre-commit").write_text(_HOOK)
    (ws / "out" / "pre-commit").chmod(0o755)
    (ws / "src" / "s.txt").write_text("s\n")
    (ws / "a" / "x.txt").write_text("x\n")
    return ws


def _env(ws: Path) -> dict[str, str]:
    return {"HOME": str(ws.parent / "home"), "PATH": "/usr/bin:/bin"}


def _offer(line: str, ws: Path) -> str:
    decision = decide(line, ws, _env(ws))
    assert decision.suggested_rule is not None, decision.explain()
    return decision.suggested_rule


def _verdict(line: str, ws: Path, *approvals: str) -> Verdict:
    return decide(line, ws, _env(ws), *approvals).verdict


def _hook_ran(ws: Path) -> bool:
    """Whether `.git/hooks/pre-commit` is an executable file git runs on a commit."""
    hook = ws / ".git" / "hooks" / "pre-commit"
    if not hook.is_file() or not hook.stat().st_mode & stat.S_IXUSR:
        return False
    done = run_real(["git", "commit", "-q", "--allow-empty", "-m", "x"], ws)
    return "HOOKRAN" in done.stdout + done.stderr


def _batch(tmp_path: Path) -> Path:
    """A batch made elsewhere, from a tree holding `.git/hooks/pre-commit` (the premise
    needs rsync; the engine's verdicts do not read the file)."""
    made = tmp_path / "elsewhere"
    hooks = made / "src" / ".git" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "pre-commit").write_text(_HOOK)
    (hooks / "pre-commit").chmod(0o755)
    (made / "dst").mkdir()
    if _HAS_RSYNC:
        args = ["rsync", "-a", "--no-inc-recursive", "--only-write-batch=x", "src/", "dst/"]
        assert run_real(args, made).returncode == 0
        return made / "x"
    batch = made / "x"
    batch.write_bytes(b"\0")
    return batch


# ---------------------------------------------------------------- HF1: --read-batch


@pytest.mark.parametrize(
    "line",
    [
        "rsync --read-batch=x .",
        "rsync --read-batch x .",
        "rsync --read-batch=- . < x",
        "rsync --read-batch=x $WS",
        "rsync . --read-batch x",
    ],
)
def test_hf1_a_batch_read_into_the_workspace_is_denied(
    workspace: Path, tmp_path: Path, line: str
) -> None:
    shutil.copy(_batch(tmp_path), workspace / "x")
    line = line.replace("$WS", str(workspace))
    approval = _offer("rsync -r pl/ out/", workspace)
    assert _verdict(line, workspace, approval) is Verdict.DENY, line
    if _HAS_RSYNC and line == "rsync --read-batch=x .":
        # the premise: real rsync writes the batch's hook, and git runs it
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        assert _hook_ran(workspace)


@pytest.mark.parametrize(
    "line",
    ["rsync --read-batch=x out/", "rsync out/ --read-batch x", "rsync --read-b=x out/",
     "rsync -r --read-batch=../x out/", "rsync --read-batch=- out/ < x"],
)  # fmt: skip
def test_hf1_any_batch_is_a_locked_ask(workspace: Path, tmp_path: Path, line: str) -> None:
    shutil.copy(_batch(tmp_path), workspace / "x")
    for approvals in ((), ("rsync",), ("rsync --read-batch",)):
        decision = decide(line, workspace, _env(workspace), *approvals)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "rsync-read-batch" for r in decision.reasons)
    assert decide(line, workspace, _env(workspace)).suggested_rule is None


def test_hf1_a_batch_writes_in_place_through_hard_links(workspace: Path, tmp_path: Path) -> None:
    """A batch may carry `--inplace`: a file below the destination that is another name
    of `.git/config` is written through (the whole-target check of in-place copies)."""
    shutil.copy(_batch(tmp_path), workspace / "x")
    os.link(workspace / ".git" / "config", workspace / "out" / "notes")
    decision = decide("rsync --read-batch=x out/", workspace, _env(workspace), "rsync")
    assert decision.verdict is not Verdict.ALLOW
    assert any(".git/config" in r.message for r in decision.reasons), decision.explain()


# ------------------------------------------------ HF1b: the remote sides of rsync and scp


def test_hf1b_rsync_server_mode_is_a_locked_ask(workspace: Path) -> None:
    (workspace / "stream").write_bytes(_STREAM)
    approval = _offer("rsync -r pl/ out/", workspace)
    lines = ("rsync --server --checksum-seed=1 . . < stream",
             "rsync --server -r --checksum-seed=1 . out/ < stream",
             "rsync --ser . out/ < stream", "rsync --server --sender -r . src/")  # fmt: skip
    for line in lines:
        decision = decide(line, workspace, _env(workspace), approval)
        assert decision.verdict is not Verdict.ALLOW, line
        assert any(r.rule_id == "rsync-server-mode" for r in decision.reasons), line
    if _HAS_RSYNC:
        # the premise: the recorded transfer, replayed, writes the hook, which git runs
        run_real(["bash", "-c", lines[0] + " > /dev/null 2>&1"], workspace)
        assert _hook_ran(workspace)


def test_hf1b_scp_sink_mode_is_a_locked_ask(workspace: Path) -> None:
    approval = _offer("scp x host:y", workspace)
    line = r"printf 'C0755 6 CLAUDE.md\nhello\n\0' | scp -t ."
    for current in (line, "scp -rt out < x", "scp -f .gitignore"):
        decision = decide(current, workspace, _env(workspace), approval)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "scp-server-mode" for r in decision.reasons)
    # (guards: copies to and from another host keep the approval)
    for guard in ("scp x host:y", "scp -rp src host:", "scp host:y src/"):
        assert _verdict(guard, workspace, approval) is Verdict.ALLOW, guard
    if _HAS_SCP:
        run_real(["bash", "-c", line], workspace)
        written = workspace / "CLAUDE.md"
        assert written.read_text() == "hello\n"
        assert written.stat().st_mode & stat.S_IXUSR


# ------------------------------------------- HF2: folders relative to the destination


@pytest.mark.parametrize(
    "line",
    [
        "rsync -r --backup-dir=../.git/hooks pl/ out/",
        "rsync -r -b --backup-dir ../.git/hooks pl/ out/",
        "rsync -r pl/ out/ --backup-dir ../.git/hooks",
        "rsync -r --backup-dir=../.claude pl/ out/",
        "rsync --backup-dir=../.git/hooks pl/pre-commit out/",
        "rsync -r --partial-dir=../.git/hooks pl/ out/",
        "rsync -r --partial-dir=../../.git/hooks pl/ out/",
        "rsync -r -T ../.git/hooks pl/ out/",
        "rsync -r -T=../.git/hooks pl/ out/",
        "rsync -r --temp-dir ../.git/hooks pl/ out/",
        "rsync --link-dest=../.git/hooks pl/pre-commit out/",
    ],
)
def test_hf2_relative_folders_are_read_from_the_destination(workspace: Path, line: str) -> None:
    approval = _offer("rsync -r pl/ out/", workspace)
    assert _verdict(line, workspace, approval) is Verdict.DENY, line


def test_hf2_the_premise_lines(workspace: Path) -> None:
    """The lines run for real below: each folder is the one in the destination."""
    approval = _offer("rsync -r pl/ out/", workspace)
    line = "rsync -r --backup-dir=../.git/hooks pl/ out/"
    assert _verdict(line, workspace, approval) is Verdict.DENY
    # (a link there is followed to where rsync writes: `dst/tmpd`, `b/../ref`)
    (workspace / "dst" / "tmpd").symlink_to("../.git/hooks")
    (workspace / "ref").symlink_to(".git/hooks")
    assert _verdict("rsync -r -T tmpd src/ dst/", workspace, approval) is Verdict.DENY
    line = "rsync -a --link-dest=../ref src/ b/"
    assert _verdict(line, workspace, approval) is not Verdict.ALLOW
    if not _HAS_RSYNC:
        return
    (workspace / "dst" / "tmpd").unlink()
    (workspace / "ref").unlink()
    # `--backup-dir`: the old `out/pre-commit` lands in `.git/hooks`, and git runs it
    done = run_real(["rsync", "-r", "--backup-dir=../.git/hooks", "pl/", "out/"], workspace)
    assert done.returncode == 0, done.stderr
    assert _hook_ran(workspace)
    # `-T`: a folder in the working folder is not found, one in the destination is (rsync
    # 3.5 refuses a `..` in it, which older ones take)
    (workspace / "tmpd").mkdir()
    assert run_real(["rsync", "-r", "-T", "tmpd", "src/", "dst/"], workspace).returncode != 0
    (workspace / "dst" / "tmpd").mkdir()
    assert run_real(["rsync", "-r", "-T", "tmpd", "src/", "dst/"], workspace).returncode == 0
    # `--link-dest`: a file the same as one there is a hard link of it
    (workspace / "ref").mkdir()
    shutil.copy2(workspace / "src" / "s.txt", workspace / "ref" / "s.txt")
    args = ["rsync", "-a", "--link-dest=../ref", "src/", "b/"]
    assert run_real(args, workspace).returncode == 0
    assert (workspace / "b" / "s.txt").stat().st_ino == (workspace / "ref" / "s.txt").stat().st_ino


@pytest.mark.parametrize(
    "line",
    ["rsync -av src/ dst/", "rsync -r --backup-dir=bak a/ b/", "rsync -rb --backup-dir bak a/ b/",
     "rsync -a --backup-dir=../old src/ dst/", "rsync -a --partial-dir=.rsync-partial src/ dst/",
     "rsync -a -T ../tmpd src/ dst/", "rsync -a --link-dest=../ref src/ dst/",
     "rsync -a --compare-dest=../a src/ dst/", "rsync -r -b pl/ out/"],
)  # fmt: skip
def test_hf2_everyday_backups_keep_the_approval(workspace: Path, line: str) -> None:
    approval = _offer("rsync -r pl/ out/", workspace)
    decision = decide(line, workspace, _env(workspace), approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# ------------------------------------------------------ HF2b: rsync's own option table


def _payload_repository(ws: Path) -> None:
    """`payload/`: a repository whose `core.fsmonitor` runs a command (copied below
    another folder, it makes that folder a repository that runs it)."""
    (ws / "payload").mkdir()
    git_ok(ws / "payload", "init", "-q")
    git_ok(ws / "payload", "config", "core.fsmonitor", "echo FSMONRAN >&2; false")
    (ws / "docs").mkdir()
    (ws / "cl").mkdir()
    (ws / "cl" / "CLAUDE.md").write_text("run ./x first\n")


@pytest.mark.parametrize(
    "line",
    ["rsync -rt payload/ sub/", "rsync -avt payload/ sub/", "rsync -a payload/ sub/ -t",
     "rsync -rt cl/ docs/"],
)  # fmt: skip
def test_hf2b_rsync_times_is_no_target_folder(workspace: Path, line: str) -> None:
    _payload_repository(workspace)
    approval = _offer("rsync -r pl/ out/", workspace)
    assert _verdict(line, workspace, approval) is Verdict.DENY, line
    if _HAS_RSYNC and line == "rsync -rt payload/ sub/":
        # the premise: `sub/` is now a repository whose fsmonitor git runs
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        done = run_real(["git", "-C", "sub", "status"], workspace)
        assert "FSMONRAN" in done.stdout + done.stderr


def test_hf2b_rsync_option_values_are_no_operands(workspace: Path) -> None:
    """The values of rsync's options are read as theirs (a log written, a list read)."""
    (workspace / ".env").write_text("SECRET=1\n")
    for line in ("rsync -r --log-file .git/hooks/pre-commit pl/ out/",
                 "rsync -r --exclude-from .env pl/ out/",
                 "rsync -a --only-write-batch=.git/hooks/pre-commit pl/ out/"):  # fmt: skip
        assert _verdict(line, workspace) is Verdict.DENY, line
    # (guards: everyday spellings keep the offer and the approval)
    guards = ("rsync -avt src/ dst/", "rsync -rt --exclude '*.o' src/ dst/",
              "rsync -az --info=progress2 src/ dst/", "rsync -avt src/ host:dst/")  # fmt: skip
    for line in guards:
        decision = decide(line, workspace, _env(workspace), "rsync")
        assert decision.verdict is Verdict.ALLOW, decision.explain()
    # (`-e ssh` is rsync's remote shell, an option with its value: `rsync-shell` asks)
    decision = decide("rsync -a -e ssh src/ host:dst/", workspace, _env(workspace), "rsync")
    assert [r.rule_id for r in decision.reasons if r.verdict is Verdict.ASK] == ["rsync-shell"]


# ------------------------------------------------------------------ HF2c: --suffix


def test_hf2c_a_backup_suffix_asks(workspace: Path) -> None:
    (workspace / "pl" / "CLAUDE").write_text("new\n")
    (workspace / "out" / "CLAUDE").write_text("run ./x first\n")
    approval = _offer("rsync -r pl/ out/", workspace)
    for line in ("rsync -r -b --suffix=.md pl/ out/", "rsync -rb --suffix .md pl/ out/",
                 "rsync -r --backup-dir=bak --suffix=.md pl/ out/"):  # fmt: skip
        decision = decide(line, workspace, _env(workspace), approval)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert any(r.rule_id == "rsync-backup-suffix" for r in decision.reasons)
    if _HAS_RSYNC:
        run_real(["rsync", "-r", "-b", "--suffix=.md", "pl/", "out/"], workspace)
        assert (workspace / "out" / "CLAUDE.md").read_text() == "run ./x first\n"


# --------------------------------------------- HF2d, HF2e: options for the receiver, iconv


def test_hf2d_options_handed_to_the_receiver_are_a_locked_ask(workspace: Path) -> None:
    line = "rsync -r -M-b -M--backup-dir=../.git/hooks -M--suffix= pl/ out/"
    approval = _offer("rsync -r pl/ out/", workspace)
    others = ("rsync -avM--fake-super pl/ out/", "rsync -r --remote-option=-b pl/ out/")
    for current in (line, *others):
        for approvals in ((approval,), ("rsync -r",)):
            decision = decide(current, workspace, _env(workspace), *approvals)
            assert decision.verdict is Verdict.ASK, decision.explain()
            assert any(r.rule_id == "rsync-remote-option" for r in decision.reasons)
    if _HAS_RSYNC:
        # the premise: a local copy's receiver takes them, and moves the old script
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        assert _hook_ran(workspace)


def test_hf2e_converted_names_ask(workspace: Path) -> None:
    """`--iconv=IBM037,UTF-8` lands a source whose name is `CLAUDE.md` in EBCDIC as
    `docs/CLAUDE.md`, a name the listing of the source does not show."""
    (workspace / "docs").mkdir()
    source = os.path.join(bytes(workspace / "pl"), "CLAUDE.md".encode("cp037"))
    Path(os.fsdecode(source)).write_text("run ./x first\n")
    line = "rsync -r --iconv=IBM037,UTF-8 pl/ docs/"
    approval = _offer("rsync -r pl/ out/", workspace)
    decision = decide(line, workspace, _env(workspace), approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "rsync-iconv" for r in decision.reasons)
    assert _verdict("rsync -r --no-iconv a/ b/", workspace, approval) is Verdict.ALLOW
    if _HAS_RSYNC and "iconv" in run_real(["rsync", "--version"], workspace).stdout:
        assert run_real(["bash", "-c", line], workspace).returncode == 0
        assert (workspace / "docs" / "CLAUDE.md").read_text() == "run ./x first\n"
