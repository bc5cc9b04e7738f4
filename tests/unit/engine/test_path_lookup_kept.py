"""PATH lookups that keep a folder's listing and where an entry leads between lines, by
the folder's stamp: a long-lived policy still sees every change made between lines."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from policylang import Policy, Verdict, load_policy
from policylang.engine import paths

pytestmark = pytest.mark.source  # (the guard below is a module global of the source)


@pytest.fixture(autouse=True)
def _every_folder_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    # folders changed less than 3 s before they were read are not kept; here every folder
    # is, so that what is kept is what decides
    monkeypatch.setattr(paths, "_SETTLED_NS", -(10**18))


def _program(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\necho pwned\n")
    path.chmod(0o755)


def _verdict(policy: Policy, workspace: Path, env: dict[str, str]) -> Verdict:
    decision = policy.evaluate("whoami", workspace=str(workspace), env=env)
    time.sleep(0.02)  # the next change comes a clock tick later (the guard is off)
    return decision.verdict


def test_a_program_made_in_a_kept_workspace_entry_is_seen(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "bin").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{workspace}/bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    assert f"{workspace}/bin" in paths._NAMES  # its listing was kept
    _program(workspace / "bin" / "whoami")
    assert _verdict(policy, workspace, env) is Verdict.ASK
    (workspace / "bin" / "whoami").rename(workspace / "bin" / "other")
    assert _verdict(policy, workspace, env) is Verdict.ALLOW


def test_an_entry_that_comes_to_lead_into_the_workspace_is_seen(tmp_path: Path) -> None:
    workspace, system = tmp_path / "ws", tmp_path / "opt" / "bin"
    _program(system / "whoami")
    _program(workspace / "bin" / "whoami")
    entry = tmp_path / "tools"
    entry.symlink_to(system)
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{entry}:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    entry.unlink()
    entry.symlink_to(workspace / "bin")  # the link leads into the workspace now
    assert _verdict(policy, workspace, env) is Verdict.ASK
    entry.unlink()
    entry.symlink_to(system)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    # the folder itself moved into the workspace, a link left where it was
    system.rename(workspace / "moved")
    system.symlink_to(workspace / "moved")
    assert _verdict(policy, workspace, env) is Verdict.ASK


def test_an_entry_whose_parent_folder_moves_into_the_workspace_is_seen(tmp_path: Path) -> None:
    # review DZ4: the folder an entry leads to keeps its stamp when a folder above it
    # moves (and a link is left where it was): where it leads is not kept between lines
    workspace, tools = tmp_path / "ws", tmp_path / "opt" / "tools"
    _program(tools / "bin" / "whoami")
    workspace.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{tools}/bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    tools.rename(workspace / "tools")
    tools.symlink_to(workspace / "tools")
    assert _verdict(policy, workspace, env) is Verdict.ASK
    fresh = load_policy(snapshot=False, decision_cache=0)  # (nothing kept per process)
    assert _verdict(fresh, workspace, env) is Verdict.ASK


def test_a_decision_that_looked_at_path_entries_is_not_kept(tmp_path: Path) -> None:
    # (the decision cache keeps decisions that touched no file system: where a PATH entry
    # leads is the file system's answer, the same text may get another decision)
    workspace, tools = tmp_path / "ws", tmp_path / "opt" / "tools"
    _program(tools / "bin" / "whoami")
    workspace.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{tools}/bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=1024)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    tools.rename(workspace / "tools")
    tools.symlink_to(workspace / "tools")
    assert _verdict(policy, workspace, env) is Verdict.ASK


@pytest.mark.parametrize("how", ["link", "variable"])
def test_an_entry_through_proc_names_the_lines_folder(tmp_path: Path, how: str) -> None:
    # review DZ1: `node_modules/.bin -> /proc/self/cwd/.t` (shipped by the repository) or
    # `PATH=/proc/self/cwd/bin` is looked up by bash in the line's working directory, by
    # policylang in its own
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    _program(workspace / "sub" / ".t" / "cat")
    _program(workspace / "bin" / "ls")
    if how == "link":
        (workspace / "node_modules").mkdir()
        (workspace / "node_modules" / ".bin").symlink_to("/proc/self/cwd/.t")
        entry = f"{workspace}/node_modules/.bin"
    else:
        entry = "/proc/self/cwd/bin"
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{entry}:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    for line in ("cd sub && cat README", "ls -la"):
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ASK, (line, decision.explain())
        assert any("/proc" in r.message for r in decision.reasons), decision.explain()


# -- entries only the superuser can change: kept a second (`paths.note_fixed`) -----------


@pytest.fixture
def unprivileged(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if policylang ran as an ordinary user (this suite runs as root in CI)."""
    monkeypatch.setattr(paths, "_PRIVILEGE", [True])
    monkeypatch.setattr(paths, "_FIXED", {})


def test_system_folders_are_root_chains() -> None:
    assert paths._root_chain("/")
    assert paths._root_chain("/usr/bin")  # root's, 0755, on every Debian and macOS


def test_a_folder_below_a_world_writable_one_is_no_root_chain(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    assert not paths._root_chain(str(tmp_path / "bin"))  # /tmp is writable by all
    assert not paths._root_chain("/nonexistent/bin")


def test_a_link_on_the_way_is_no_root_chain(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to("/usr")
    assert not paths._root_chain(str(link / "bin"))


def test_root_and_capabilities_are_privileged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths.os, "geteuid", lambda: 0)
    assert not paths._find_unprivileged()
    monkeypatch.setattr(paths.os, "geteuid", lambda: 1000)
    status = Path("/proc/self/status").read_text()
    line = next(x for x in status.splitlines() if x.startswith("CapEff:"))
    capabilities = int(line.split()[1], 16)
    # (a user with effective capabilities writes folders root owns)
    assert paths._find_unprivileged() is (capabilities == 0)


@pytest.mark.usefixtures("unprivileged")
def test_an_unprivileged_process_keeps_system_entries(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{tmp_path}/tools:/usr/bin"}
    (tmp_path / "tools").mkdir()
    policy = load_policy(snapshot=False, decision_cache=0)
    assert _verdict(policy, workspace, env) is Verdict.ALLOW
    assert paths.fixed_entry("/usr/bin") == "/usr/bin"
    assert paths.fixed_entry(f"{tmp_path}/tools") is None  # below /tmp: resolved each line
    # and its folder's stamp stands for a `stat` of it on the next lines
    assert paths.fixed_stamp("/usr/bin") == (True, paths.folder_stamp("/usr/bin"))
    assert paths.fixed_stamp(f"{tmp_path}/tools") == (False, None)


@pytest.mark.usefixtures("unprivileged")
def test_a_kept_entry_is_looked_at_again_after_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    paths.note_fixed("/usr/bin", "/usr/bin")
    assert paths.fixed_entry("/usr/bin") == "/usr/bin"
    monkeypatch.setattr(paths, "_FIXED_RECHECK", 0.0)
    assert paths.fixed_entry("/usr/bin") is None
    assert paths.fixed_stamp("/usr/bin") == (False, None)


@pytest.mark.usefixtures("unprivileged")
def test_a_link_entry_is_kept_only_where_its_folder_is_roots(tmp_path: Path) -> None:
    paths.note_fixed("/bin", "/usr/bin", "/")  # usrmerge's `/bin -> usr/bin`
    assert paths.fixed_entry("/bin") == "/usr/bin"
    paths.note_fixed(f"{tmp_path}/bin", "/usr/bin", str(tmp_path))  # a link anyone re-points
    assert paths.fixed_entry(f"{tmp_path}/bin") is None


def test_a_privileged_process_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "_PRIVILEGE", [False])
    monkeypatch.setattr(paths, "_FIXED", {})
    paths.note_fixed("/usr/bin", "/usr/bin")
    assert paths.fixed_entry("/usr/bin") is None


@pytest.mark.usefixtures("unprivileged")
def test_moved_entries_are_seen_by_an_unprivileged_process(tmp_path: Path) -> None:
    # review DZ4's case again, as an ordinary user: an entry below /tmp is never kept
    test_an_entry_whose_parent_folder_moves_into_the_workspace_is_seen(tmp_path)
    test_an_entry_that_comes_to_lead_into_the_workspace_is_seen(tmp_path / "second")


@pytest.mark.usefixtures("unprivileged")
def test_an_entry_with_dot_dot_through_a_link_takes_no_fixed_stamp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review EA5: `R/lnk/../bin` leads where `lnk` leads, not to `R/bin`; it had taken the
    # fixed stamp of `R/bin` (whose chain is root's here), so a program planted in the
    # folder it really leads to stayed unseen for as long as the process lived
    monkeypatch.setattr(paths, "_root_chain", lambda folder: True)
    root, workspace = tmp_path / "r", tmp_path / "r" / "ws"
    (root / "bin").mkdir(parents=True)
    (workspace / "sub").mkdir(parents=True)
    (workspace / "bin").mkdir()
    (root / "lnk").symlink_to(workspace / "sub")
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{root}/bin:{root}/lnk/../bin:/usr/bin:/bin"}
    policy = load_policy(snapshot=False, decision_cache=0)
    decision = policy.evaluate("ls", workspace=str(workspace), env=env)
    assert decision.verdict is Verdict.ALLOW
    time.sleep(0.02)
    _program(workspace / "bin" / "ls")
    assert policy.evaluate("ls", workspace=str(workspace), env=env).verdict is Verdict.ASK
