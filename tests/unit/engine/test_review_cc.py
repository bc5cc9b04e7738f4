"""Review CC (all under approvals): `rsync -l` copies a link to a folder as a link (CC3);
a relative link moved or copied as a link points from where it lands (CC4: the shipped
`cfg2/.vscode -> cfg` moved to `.` is the active `.vscode`); the decompressing cats and
zstd's other names read trees (CC5: `zcat -rf .` printed `.env`); 7-Zip's list files and
`-i!`/`-x` switches (CC6) and bsdtar's `-T` and `@ARCHIVE` (CC7) name files no path check
sees; GNU's tools under Homebrew's names (`gmv`, `gcp`, `gfind`, `gtar`) are those tools
(CC10). Real runs where the program is here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from realrun import approved, git_ok, run_real

from policylang import Verdict


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("SSH-MARKER\n")
    workspace = tmp_path / "ws"
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"tasks": ["CFG-MARKER"]}\n')
    (workspace / "docs").mkdir()
    (workspace / "docs" / "a.md").write_text("a\n")
    (workspace / "src").mkdir()
    (workspace / "src" / "m.c").write_text("int x;\n")
    (workspace / ".env").write_text("TOKEN=ENV-MARKER\n")
    (workspace / "a.txt").write_text("a\n")
    (workspace / "names").write_text(f"{home}/.ssh/id_rsa\n")
    # shipped links: `lnk` to a folder, and `cfg2/.vscode`, which points to the
    # workspace's `cfg` only from the workspace's root (dangling where it lies)
    (workspace / "lnk").symlink_to("cfg")
    (workspace / "cfg2").mkdir()
    (workspace / "cfg2" / ".vscode").symlink_to("cfg")
    return home


def _judge(home: Path, approval: str, line: str) -> Verdict:
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    policy = approved(*approval.split(","))
    return policy.evaluate(line, workspace=str(workspace), env=environment).verdict


def _gnu_names(home: Path) -> str:
    """A folder holding `gmv`, `gcp`, … as links to the system's programs: GNU's tools
    under Homebrew's names (those whose program is here)."""
    folder = home.parent / "gnubin"
    folder.mkdir(exist_ok=True)
    for name in ("mv", "cp", "ln", "find", "tar"):
        found = shutil.which(name)
        if found is not None and not (folder / f"g{name}").exists():
            (folder / f"g{name}").symlink_to(found)
    return str(folder)


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("rsync", "rsync -l lnk .vscode"),
        ("rsync", "rsync --links lnk .vscode"),
        ("rsync", "rsync -l -- lnk .vscode"),
        ("rsync", "rsync --links cfg2/.vscode ."),
        ("mv", "mv cfg2/.vscode ."),
        ("mv", "mv cfg2/.vscode .vscode"),
        ("mv", "mv -t . cfg2/.vscode"),
        ("cp", "cp -P cfg2/.vscode ."),
        ("cp", "cp -d cfg2/.vscode ."),
        ("git mv", "git mv cfg2/.vscode ."),
        ("gmv", "gmv cfg .vscode"),
        ("gmv", "gmv cfg2/.vscode ."),
        ("gcp", "gcp -r cfg .vscode"),
        ("gcp", "gcp -P cfg2/.vscode ."),
        ("gln", "gln -s cfg .vscode"),
    ],
)
def test_a_folder_landing_as_vscode(home: Path, approval: str, line: str) -> None:
    workspace = home.parent / "ws"
    assert _judge(home, approval, line) is not Verdict.ALLOW
    program = line.split()[0]
    if program == "git":
        if shutil.which("git") is None:
            return  # (the verdict alone: not installed here)
        git_ok(workspace, "init", "-q")
        git_ok(workspace, "add", "cfg", "cfg2")
        git_ok(workspace, "commit", "-qm", "shipped")
    gnubin = _gnu_names(home)
    if shutil.which(program, path=f"{gnubin}:/usr/bin:/bin") is None:
        return
    done = run_real(["env", f"PATH={gnubin}:/usr/bin:/bin", "bash", "-c", line], workspace, home)
    assert done.returncode == 0, done.stderr
    assert "CFG-MARKER" in (workspace / ".vscode" / "tasks.json").read_text()


@pytest.mark.parametrize(
    ("approval", "line", "effect"),
    [
        ("zcat", "zcat -rf . | grep TOKEN", "ENV-MARKER"),
        ("zstdcat", "zstdcat -r . | grep TOKEN", "ENV-MARKER"),
        ("lz4cat", "lz4cat -r . | grep TOKEN", "ENV-MARKER"),
        ("zstdmt", "zstdmt -dcfr . | grep TOKEN", "ENV-MARKER"),
        ("lz4c", "lz4c -rc . | grep -a TOKEN", "ENV-MARKER"),
        ("zstdmt", "zstdmt -dcf --filelist=names", "SSH-MARKER"),
        ("7z a", "7z a -tzip -so x.zip @names | zgrep -a MARKER", "SSH-MARKER"),
        ("7z a", "7z a -tzip -so x.zip -i@names | zgrep -a MARKER", "SSH-MARKER"),
        ("7z a", "7z a -tzip -so x.zip '-i!.e*' | zgrep -a MARKER", "ENV-MARKER"),
        ("7z a", "7z a -tzip -so x.zip '-ir!{home}/.ssh/*' | zgrep -a MARKER", "SSH-MARKER"),
        ("7z a", "7z a -tzip -so x.zip docs -x@names | zgrep -a MARKER", ""),
        ("7z a", "7z a -tzip -so x.zip docs '-xr!*.tmp' | zgrep -a MARKER", ""),
        ("bsdtar", "bsdtar -cz -f - -T <(echo ~/.ssh/id_rsa) | zgrep -a MARKER", "SSH-MARKER"),
        ("bsdtar", "bsdtar -czf - --files-from names | zgrep -a MARKER", "SSH-MARKER"),
        ("bsdtar", "bsdtar -czf - --files-fr=names | zgrep -a MARKER", "SSH-MARKER"),
        ("bsdtar", "bsdtar -czTnames -f - | zgrep -a MARKER", "SSH-MARKER"),
        ("bsdtar", "bsdtar -czf - -I names | zgrep -a MARKER", "SSH-MARKER"),
        ("bsdtar", "bsdtar czTf names - | zgrep -a MARKER", "SSH-MARKER"),
        ("bsdtar", "bsdtar -cf - @spec.mtree", "SSH-MARKER"),
    ],
)
def test_files_named_where_no_path_check_looked(
    home: Path, approval: str, line: str, effect: str
) -> None:
    workspace = home.parent / "ws"
    line = line.replace("{home}", str(home))
    # an mtree file names files on disk, whose contents bsdtar copies from there
    (workspace / "spec.mtree").write_text(f"#mtree\n./key type=file contents={home}/.ssh/id_rsa\n")
    assert _judge(home, approval, line) is not Verdict.ALLOW
    program = line.split()[0]
    if not effect or shutil.which(program) is None or shutil.which("lz4") is None:
        return  # (the verdict alone: an exclusion, or not installed here)
    done = run_real(["bash", "-c", line + " | tr -c '[:print:]\\n' ."], workspace, home)
    assert effect in done.stdout


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("gfind", "gfind . -name a.txt -exec touch ran \\;"),
        ("gtar", "gtar --checkpoint=1 --checkpoint-action=exec='touch ran' -cf /dev/null a.txt"),
        ("gtar", "gtar -czf - -T names | zgrep -a MARKER"),
    ],
)
def test_a_gnu_name_keeps_its_programs_exceptions(home: Path, approval: str, line: str) -> None:
    """Approved `gfind` is no approval of what `find` asks about (`-exec`), nor `gtar` of
    what `tar` asks about."""
    workspace = home.parent / "ws"
    assert _judge(home, approval, line) is not Verdict.ALLOW
    gnubin = _gnu_names(home)
    if shutil.which(line.split()[0], path=gnubin) is None:
        return
    done = run_real(["env", f"PATH={gnubin}:/usr/bin:/bin", "bash", "-c", line], workspace, home)
    assert (workspace / "ran").exists() or "SSH-MARKER" in done.stdout


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("rsync", "rsync -a src/ build/"),
        ("rsync", "rsync -av docs/ out/"),
        ("rsync", "rsync -l docs/a.md out.md"),
        ("rsync", "rsync -P a.txt b.txt"),
        ("mv", "mv a.txt b.txt"),
        ("mv", "mv lnk lnk2"),
        ("cp", "cp -P lnk lnk2"),
        ("zcat", "zcat x.gz"),
        ("zstdcat", "zstdcat x.zst"),
        ("7z a", "7z a x.7z docs"),
        ("7z a", "7z a -tzip x.zip docs"),
        ("bsdtar", "bsdtar -czf out.tgz docs"),
        ("bsdtar", "bsdtar -tzf x.tgz"),
        ("gmv", "gmv a.txt b.txt"),
        ("gcp", "gcp -r docs out"),
        ("gls", "gls -la"),
        ("gtar", "gtar -tzf x.tgz"),
    ],
)
def test_the_everyday_spellings_stay_allowed(home: Path, approval: str, line: str) -> None:
    assert _judge(home, approval, line) is Verdict.ALLOW


@pytest.mark.parametrize(
    ("line", "harmful"),
    [
        ("gtimeout 5 ls", "gtimeout 5 rm -rf docs"),
        ("genv -i ls -la", "genv -i rm -rf docs"),
        ("gnice -n 5 cat a.txt", "gnice -n 5 rm -rf docs"),
        ("gnohup ls", "gnohup rm -rf docs"),
        ("gstdbuf -oL cat a.txt", "gstdbuf -oL rm -rf docs"),
        ("echo a.txt | gxargs cat", "echo docs | gxargs rm -rf"),
        ("gtime -v ls", "gtime -v rm -rf docs"),
    ],
)
def test_gnu_wrappers_under_homebrew_names_are_seen_through(
    home: Path, line: str, harmful: str
) -> None:
    # `gtimeout 5 ls` suggested approving the bare `gtimeout`, which then allowed
    # `gtimeout 5 rm -rf build`: it is GNU timeout, and runs its operands
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    wrapper = harmful.split("|")[-1].split()[0]
    # judged as GNU's tool of that name is (review CD1: `echo ~/.ssh/id_rsa | gxargs cat`
    # was allowed where `xargs` asks, the names it passes unseen; `gnohup` skipped nohup's
    # output file)
    base = "\\time" if wrapper == "gtime" else wrapper[1:]  # (not bash's keyword)
    for spelt in (line, line.replace(wrapper, base)):
        decision = approved().evaluate(spelt, workspace=str(workspace), env=environment)
        assert decision.verdict is (Verdict.ASK if "xargs" in line or "nohup" in line
                                    else Verdict.ALLOW), decision.explain()  # fmt: skip
    judged = approved(wrapper).evaluate(harmful, workspace=str(workspace), env=environment)
    assert judged.verdict is not Verdict.ALLOW
    assert judged.suggested_rule != wrapper


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("", "echo ~/.ssh/id_rsa | gxargs cat"),
        ("", "echo .env | gxargs cat"),
        ("gprintenv", "gprintenv GITHUB_TOKEN"),
        ("genv", "genv | grep TOKEN"),
        ("genv", "genv -0"),
    ],
)
def test_review_cd1_cd3_gnu_wrappers_keep_their_checks(
    home: Path, approval: str, line: str
) -> None:
    workspace = home.parent / "ws"
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin", "GITHUB_TOKEN": "ghp_MARKER"}
    policy = approved(approval) if approval else approved()
    decision = policy.evaluate(line, workspace=str(workspace), env=environment)
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
