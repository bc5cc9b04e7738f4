"""Review DD: the engine in the environment an agent's runtime passes (its own: PATH,
LESSOPEN, PYTHONPATH, LD_LIBRARY_PATH, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL), where a
common setting makes an allowed program run a file of the workspace.

DD1 `less` runs LESSOPEN's lesspipe, which runs programs by PATH; DD2 a PYTHONPATH that
reaches the workspace; DD3 man-db's formatting pipeline by PATH; DD4 LD_LIBRARY_PATH;
DD5 git's global configuration and less's lesskey file in the workspace; DD6 lesspipe's
`~/.config/lessfilter`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from realrun import copy_workspace

from policylang import Verdict, load_policy

_PLANT = "#!/bin/sh\ntouch {marker}\nexec /usr/bin/{name} \"$@\"\n"


def _plant(folder: Path, name: str, marker: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text(_PLANT.format(marker=marker, name=name))
    program.chmod(0o755)


def _run(line: str, workspace: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


def _verdict(line: str, workspace: Path, env: dict[str, str]) -> Verdict:
    decision = load_policy().evaluate(line, workspace=str(workspace), env=env)
    return decision.verdict


@pytest.mark.parametrize("entries", ["{ws}/bin:/usr/bin:/bin", ":/usr/bin:/bin"])
def test_dd1_less_runs_lesspipe_which_runs_programs_by_path(tmp_path: Path, entries: str) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    _plant(workspace / ("bin" if "{ws}" in entries else "."), "tr", marker)
    (workspace / "x.txt").write_text("hello\n")
    env = {"HOME": str(tmp_path / "home"), "PATH": entries.format(ws=workspace),
           "LESSOPEN": "| /usr/bin/lesspipe %s"}  # fmt: skip
    _run("less x.txt | cat", workspace, env)
    assert marker.exists()  # the real less ran lesspipe, which ran the workspace's `tr`
    for line in ("less x.txt", "less x.txt | cat", "/usr/bin/less x.txt", "zless x.txt"):
        assert _verdict(line, workspace, env) is Verdict.ASK, line
    # the same environment without LESSOPEN, or a LESSOPEN of the system's, holds
    plain = {**env, "PATH": "/usr/bin:/bin"}
    assert _verdict("less x.txt", workspace, plain) is Verdict.ALLOW
    assert _verdict("less x.txt", workspace, {k: v for k, v in env.items() if k != "LESSOPEN"}) \
        is Verdict.ALLOW  # fmt: skip


@pytest.mark.parametrize(
    "lessopen", ["| ./pre %s", "|| {ws}/pre %s", "|pre %s", "| pre %s; id", "-|$(pre) %s"]
)
def test_dd1_a_lessopen_program_of_the_workspace(tmp_path: Path, lessopen: str) -> None:
    workspace = copy_workspace(tmp_path)
    _plant(workspace, "pre", tmp_path / "PWNED")
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{workspace}:/usr/bin:/bin",
           "LESSOPEN": lessopen.format(ws=workspace)}  # fmt: skip
    assert _verdict("less x.txt", workspace, env) is Verdict.ASK


def test_dd3_man_runs_its_formatting_pipeline_by_path(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    col = workspace / "col"
    col.write_text("#!/bin/sh\necho PLANTED-COL-RAN >&2\nexec /usr/bin/col \"$@\"\n")
    col.chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "PATH": ":/usr/bin:/bin", "MANPAGER": "cat"}
    page = tmp_path / "man" / "man1" / "probe.1"  # (a page of its own: images drop theirs)
    page.parent.mkdir(parents=True)
    page.write_text(".TH PROBE 1\n.SH NAME\nprobe \\- a page\n")
    done = _run(f"MANPATH={tmp_path}/man man probe | head -3", workspace, env)
    assert "PLANTED-COL-RAN" in done.stderr, done  # the real man-db ran the workspace's `col`
    for line in ("man ls", "man ls | head -3", "git help log", "info ls", "git log --help"):
        assert _verdict(line, workspace, env) is Verdict.ASK, line
    assert _verdict("man ls", workspace, {**env, "PATH": "/usr/bin:/bin"}) is Verdict.ALLOW


def test_dd6_lessfilter_is_a_start_up_file(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    policy = load_policy()
    for rule in ("cp", "tee"):
        policy.approvals.add(rule, persist=False)
    for line in ("cp x.txt ~/.config/lessfilter", "echo x | tee ~/.config/lessfilter"):
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.DENY, decision.explain()


def test_the_environment_of_this_process_is_judged_without_error(tmp_path: Path) -> None:
    # a smoke check of the real setting: whatever this machine's environment holds
    workspace = copy_workspace(tmp_path)
    decision = load_policy().evaluate("ls", workspace=str(workspace), env=dict(os.environ))
    assert decision.verdict in (Verdict.ALLOW, Verdict.ASK)


def _python_tool(folder: Path, name: str) -> None:
    """A program outside the workspace written in Python, as pip, xq and tomlq are."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"#!{sys.executable}\nprint('tool ran')\n")
    (folder / name).chmod(0o755)


@pytest.mark.parametrize(
    ("pythonpath", "planted"),
    [(":/opt/x", "sitecustomize.py"), ("src", "src/sitecustomize.py"),
     ("{ws}/src", "src/yq/__init__.py"), ("{ws}/src:", "src/json/__init__.py")],
)  # fmt: skip
def test_dd2_a_pythonpath_into_the_workspace(
    tmp_path: Path, pythonpath: str, planted: str
) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    module = workspace / planted
    module.parent.mkdir(parents=True, exist_ok=True)
    module.write_text(f"open({str(marker)!r}, 'w').close()\n")
    _python_tool(tmp_path / "sysbin", "xq")
    env = {"HOME": str(tmp_path / "home"), "PATH": f"{tmp_path}/sysbin:/usr/bin:/bin",
           "PYTHONPATH": pythonpath.format(ws=workspace)}  # fmt: skip
    if "sitecustomize" in planted:
        _run("xq . x.xml", workspace, env)
        assert marker.exists()  # the real interpreter imported the workspace's module
    assert _verdict("xq . x.xml", workspace, env) is Verdict.ASK
    # the same tool with a PYTHONPATH outside the workspace, or none, holds
    assert _verdict("xq . x.xml", workspace, {**env, "PYTHONPATH": "/opt/x"}) is Verdict.ALLOW
    if "yq" not in planted:  # (an approved `python3 -m json.tool` imports no `yq`)
        policy = load_policy()
        policy.approvals.add("python3 -m json.tool", persist=False)
        line = "python3 -m json.tool x.json"
        decision = policy.evaluate(line, workspace=str(workspace), env=env)
        assert decision.verdict is Verdict.ASK, decision.explain()


def test_dd2_perl5lib_relative(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "Digest").mkdir()
    (workspace / "Digest" / "SHA.pm").write_text("package Digest::SHA; 1;\n")
    policy = load_policy()
    policy.approvals.add("shasum", persist=False)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    assert policy.evaluate("shasum x.txt", workspace=str(workspace), env=env).verdict \
        is Verdict.ALLOW  # fmt: skip
    for perl5lib in (".", "lib:.", str(workspace)):
        decision = policy.evaluate(
            "shasum x.txt", workspace=str(workspace), env={**env, "PERL5LIB": perl5lib}
        )
        assert decision.verdict is Verdict.ASK, (perl5lib, decision.explain())
    decision = policy.evaluate(
        "shasum x.txt", workspace=str(workspace), env={**env, "PERL5LIB": ":/opt/x"}
    )
    assert decision.verdict is Verdict.ALLOW  # (perl skips an empty entry)


@pytest.mark.parametrize(
    "variable", ["LD_LIBRARY_PATH=:/usr/local/cuda/lib64", "LD_LIBRARY_PATH={ws}/lib",
                 "LD_LIBRARY_PATH=lib", "LD_PRELOAD=./x.so", "LD_PRELOAD={ws}/x.so /y.so",
                 "LD_AUDIT=lib/a.so"]
)  # fmt: skip
def test_dd4_libraries_loaded_from_the_workspace(tmp_path: Path, variable: str) -> None:
    workspace = copy_workspace(tmp_path)
    library = Path("/lib/x86_64-linux-gnu/libpcre2-8.so.0")
    for folder in (workspace, workspace / "lib"):
        folder.mkdir(exist_ok=True)
        (folder / "libpcre2-8.so.0").write_bytes(library.read_bytes() if library.exists() else b"")
    name, _, value = variable.format(ws=workspace).partition("=")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", name: value}
    if name == "LD_LIBRARY_PATH" and value.startswith(":") and library.exists():
        debug = {**env, "LD_DEBUG": "libs"}
        done = _run("ls > /dev/null", workspace, debug)
        assert "calling init: libpcre2-8.so.0" in done.stderr  # the workspace's copy loaded
    for line in ("ls", "git status", "echo hi", "cat cfg/tasks.json"):
        assert _verdict(line, workspace, env) is Verdict.ASK, (variable, line)
    assert _verdict("ls", workspace, {**env, name: "/usr/local/cuda/lib64"}) is Verdict.ALLOW


def test_dd4_a_library_folder_without_libraries_holds(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
           "LD_LIBRARY_PATH": ":/usr/local/cuda/lib64"}  # fmt: skip
    assert _verdict("ls", workspace, env) is Verdict.ALLOW


def _repository(workspace: Path, env: dict[str, str]) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True)


def _git_env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "a",
            "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b",
            **more}  # fmt: skip


@pytest.mark.parametrize(
    ("variable", "config"),
    [("XDG_CONFIG_HOME", ".cfg/git/config"), ("GIT_CONFIG_GLOBAL", "proj.gitconfig"),
     ("XDG_CONFIG_HOME", "")],
)  # fmt: skip
def test_dd5_git_global_configuration_in_the_workspace(
    tmp_path: Path, variable: str, config: str
) -> None:
    workspace = copy_workspace(tmp_path)
    marker = tmp_path / "PWNED"
    env = _git_env(tmp_path)
    _repository(workspace, env)
    if config:
        target = workspace / config
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f'[core]\n\tfsmonitor = "touch {marker}; false"\n')
        value = str(workspace / (".cfg" if variable == "XDG_CONFIG_HOME" else config))
    else:
        value = ".cfg"  # relative: below the folder git runs in
    env[variable] = value
    if config:
        _run("git status", workspace, env)
        assert marker.exists()  # the real git ran the workspace's fsmonitor
    for line in ("git status", "git log -1", "git diff"):
        assert _verdict(line, workspace, env) is Verdict.ASK, line


def test_dd5_less_reads_a_lesskey_file_of_the_workspace(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / ".cfg").mkdir()
    (workspace / ".cfg" / "lesskey").write_text(f"#env\nLESSOPEN=|touch {tmp_path}/PWNED; cat %s\n")
    (workspace / "x.txt").write_text("hello\n")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
           "XDG_CONFIG_HOME": str(workspace / ".cfg")}  # fmt: skip
    _run("less x.txt | cat", workspace, env)
    assert (tmp_path / "PWNED").exists()
    assert _verdict("less x.txt", workspace, env) is Verdict.ASK


def test_de7_a_global_setting_names_a_file_of_the_work_tree(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (workspace / ".env").write_text("SECRET=topsecret\n")
    (workspace / "a.txt").write_text("a\n")
    env = _git_env(tmp_path)
    _repository(workspace, env)
    (workspace / ".git-blame-ignore-revs").symlink_to(workspace / ".env")
    (home / ".gitconfig").write_text("[blame]\n\tignoreRevsFile = .git-blame-ignore-revs\n")
    done = _run("git blame a.txt", workspace, env)
    assert "SECRET=topsecret" in done.stderr  # the real git printed the file's line
    for line in ("git blame a.txt", "git annotate a.txt"):
        assert _verdict(line, workspace, env) is Verdict.ASK, line
    # GitHub's advice itself makes nothing else ask
    for line in ("git status", "git log -1"):
        assert _verdict(line, workspace, env) is Verdict.ALLOW, line
    (home / ".gitconfig").write_text("[core]\n\thooksPath = .githooks\n")
    assert _verdict("git status", workspace, env) is Verdict.ASK
    (home / ".gitconfig").write_text("[core]\n\thooksPath = ~/.githooks\n\tpager = less -R\n")
    assert _verdict("git status", workspace, env) is Verdict.ALLOW


def test_dd5_a_workspace_of_root_does_not_make_the_system_configuration_the_repositorys(
    tmp_path: Path,
) -> None:
    # with `/` as the workspace every file lies in it; a protected one (`/etc/gitconfig`,
    # `~/.gitconfig`) is still no file the agent may write (a regression the full suite
    # caught on this machine, whose /etc/gitconfig names a credential helper)
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    (home / ".gitconfig").write_text("[core]\n\tfsmonitor = /usr/local/bin/watchman-x\n")
    env = _git_env(tmp_path)
    _repository(workspace, env)
    del env["PATH"]  # (every PATH entry lies in a workspace of `/`: path-program asks)
    decision = load_policy().evaluate(f"git -C {workspace} status", workspace="/", env=env)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


def test_a_decision_that_looked_where_an_environment_file_leads_is_not_kept(
    tmp_path: Path,
) -> None:
    # the decision cache (on by default) keeps only decisions that did not depend on the
    # file system: whether `~/.lesskey` leads into the workspace does (a link made after
    # the first decision must be seen by the second)
    workspace = copy_workspace(tmp_path)
    home = tmp_path / "home"
    policy = load_policy()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    assert policy.evaluate("echo hi | less", workspace=str(workspace), env=env).verdict is (
        Verdict.ALLOW
    )
    (workspace / "lk").write_text("#env\nLESSOPEN=|id %s\n")
    (home / ".lesskey").symlink_to(workspace / "lk")
    assert policy.evaluate("echo hi | less", workspace=str(workspace), env=env).verdict is (
        Verdict.ASK
    )
