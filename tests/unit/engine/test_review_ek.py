"""Review EK: files in home that allowed programs read on every run, written under an
approved `cp`.

The reviewer's home lay under /tmp, where the ruleset's `outside-workspace write ask
except /dev/null /tmp/**` had excepted every write into home: an approved `cp` wrote
`~/.curlrc` (whose `upload-file` an approved `curl URL` then sent), `~/bin/ls`, the man
pages man-db finds beside a home PATH entry (`.so ~/.ssh/id_rsa` in a page prints the key
under an allowed `man ls`) and less 6xx's binary `~/.config/less` (`#env LESSOPEN=|CMD`).
An exception that does not name home no longer reaches into it, and those files are
protected as the start-up files are (deny), wherever home is. Also: `~/.config/less`
leading into the workspace asks as `~/.lesskey` does (EK2), and more raw devices are
system secrets (EK6)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict


def _setting(tmp_path: Path, home: Path | None = None) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("a\n")
    (workspace / "README.md").write_text("hi\n")
    home = home or tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("CANARY_EK_KEY\n")
    return workspace, {"HOME": str(home), "PATH": f"{home}/.local/bin:/usr/bin:/bin"}


# written under an approved `cp` (the engine suggests `cp` for `cp a.txt b.txt`)
_DENIED_WRITES = [
    "cp a.txt ~/.config/less",
    "cp a.txt ~/.curlrc",
    "cp a.txt ~/.config/.curlrc",
    "cp a.txt ~/.wgetrc",
    "cp a.txt ~/.config/wget/wgetrc",
    "cp a.txt ~/bin/ls",
    "cp -r man ~/.local/share/man",
    "cp a.txt ~/.local/share/man/man1/ls.1",
    "cp a.txt ~/.local/man/man1/ls.1",
    "cp a.txt ~/man/man1/ls.1",
]


@pytest.mark.parametrize("line", _DENIED_WRITES)
def test_files_allowed_programs_read_from_home_are_protected(tmp_path: Path, line: str) -> None:
    workspace, env = _setting(tmp_path)
    assert decide("cp a.txt b.txt", workspace, env).suggested_rule == "cp"
    decision = decide(line, workspace, env, "cp")
    assert decision.verdict is Verdict.DENY, decision.explain()
    assert any(r.rule_id == "shell-startup" for r in decision.reasons)


def test_an_exception_outside_home_does_not_reach_into_a_home_below_it(tmp_path: Path) -> None:
    """Home here lies under /tmp (pytest's folders do), as a container user's may."""
    assert str(tmp_path).startswith("/tmp/")
    workspace, env = _setting(tmp_path)
    decision = decide("cp a.txt ~/notes.txt", workspace, env, "cp")
    assert decision.verdict is Verdict.ASK
    assert any("outside the workspace" in r.message for r in decision.reasons)
    # /tmp outside home stays excepted, and /dev/null everywhere
    other = tmp_path / "elsewhere"
    assert decide(f"cp a.txt {other}", workspace, env, "cp").verdict is Verdict.ALLOW
    assert decide("ls > /dev/null", workspace, env).verdict is Verdict.ALLOW


def test_a_home_at_the_root_keeps_the_exceptions(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    env["HOME"] = "/"
    assert decide("ls > /dev/null", workspace, env).verdict is Verdict.ALLOW
    assert decide(f"cp a.txt {tmp_path}/x", workspace, env, "cp").verdict is Verdict.ALLOW


def test_a_binary_lesskey_file_leading_into_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = _setting(tmp_path)
    (workspace / "keys.less").write_bytes(b"\0M+G")
    config = Path(env["HOME"]) / ".config"
    config.mkdir()
    assert decide("less README.md", workspace, env).verdict is Verdict.ALLOW
    (config / "less").symlink_to(workspace / "keys.less")
    decision = decide("less README.md", workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "lesskey" in decision.explain()
    (config / "less").unlink()
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    (tmp_path / "xdg").mkdir()
    (tmp_path / "xdg" / "less").symlink_to(workspace / "keys.less")
    assert decide("less README.md", workspace, env).verdict is Verdict.ASK


@pytest.mark.parametrize(
    "device", ["/dev/zram0", "/dev/ram0", "/dev/zd0", "/dev/rbd0", "/dev/pmem0",
               "/dev/bcache0", "/dev/mtdblock0", "/dev/ubi0", "/dev/vcsa1",
               "/dev/input/event0", "/dev/drbd0", "/dev/zvol/pool/vol"],
)  # fmt: skip
def test_raw_devices_are_system_secrets(tmp_path: Path, device: str) -> None:
    workspace, env = _setting(tmp_path)
    decision = decide(f"strings {device}", workspace, env)
    assert decision.verdict is Verdict.DENY
    assert any(r.rule_id == "system-secrets" for r in decision.reasons)


@pytest.mark.parametrize("device", ["/dev/random", "/dev/zero", "/dev/null", "/dev/urandom"])
def test_the_ordinary_devices_stay_readable(tmp_path: Path, device: str) -> None:
    workspace, env = _setting(tmp_path)
    assert decide(f"head -c 4 {device}", workspace, env).verdict is Verdict.ALLOW


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_curl_reads_its_home_configuration_on_every_run(tmp_path: Path) -> None:
    """The premise of protecting `~/.curlrc`: a bare `curl` takes its URL from it."""
    workspace, env = _setting(tmp_path)
    (Path(env["HOME"]) / ".curlrc").write_text(f'url = "file://{env["HOME"]}/.ssh/id_rsa"\n')
    done = subprocess.run(["curl", "-s"], cwd=workspace, env=env, capture_output=True,
                          text=True, timeout=60, check=False)  # fmt: skip
    assert "CANARY_EK_KEY" in done.stdout


@pytest.mark.skipif(shutil.which("man") is None, reason="needs man-db (scripts/system-deps.sh)")
def test_man_finds_pages_beside_a_home_path_entry(tmp_path: Path) -> None:
    """The premise of protecting `~/.local/share/man`: with `~/.local/bin` on PATH, man-db
    looks there first, and a page's `.so` includes any file."""
    workspace, env = _setting(tmp_path)
    home = Path(env["HOME"])
    (home / ".local" / "bin").mkdir(parents=True)
    pages = home / ".local" / "share" / "man" / "man1"
    pages.mkdir(parents=True)
    (pages / "ekpage.1").write_text(f".TH EKPAGE 1\n.SH NAME\nekpage\n.so {home}/.ssh/id_rsa\n")
    run_env = {**env, "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"}
    run_env.pop("MANPATH", None)
    done = subprocess.run(["man", "ekpage"], cwd=workspace, env=run_env, capture_output=True,
                          text=True, timeout=60, check=False)  # fmt: skip
    assert "CANARY_EK_KEY" in done.stdout, done.stdout + done.stderr


def test_a_file_git_only_reads_is_explained_as_read(tmp_path: Path) -> None:
    """EK8: `blame.ignoreRevsFile` names a file git reads and echoes; no program runs."""
    workspace, env = _setting(tmp_path)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True, timeout=60)
    subprocess.run(["git", "-C", str(workspace), "config", "blame.ignoreRevsFile", ".env"],
                   check=True, timeout=60)  # fmt: skip
    decision = decide("git blame README.md", workspace, env)
    assert decision.verdict is Verdict.ASK
    messages = [r.message for r in decision.reasons if r.rule_id == "engine.git-config"]
    assert any("reads the file it names" in m for m in messages), messages
    assert not any("run a program" in m for m in messages)
