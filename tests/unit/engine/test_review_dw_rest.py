"""Review DW, the items left open: DW6 a node wrapper that runs another wrapper script or
a version manager (`exec asdf exec node`, `mise x -- node`); DW9 `host:port@db` and Maven
`group:artifact:version@type` values are no scheme-less `user:pw@host` credentials; DW1
`cd -` back to the tracked previous folder, and xargs handing stdin's words to a probe."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from realrun import copy_workspace, decide, env_beside

from policylang import Verdict
from policylang.decision import Decision
from policylang.engine import paths
from policylang.shell.parse import parse_command

# -- DW6: wrappers that run other wrapper scripts, and version managers ----------------------


def _wrapbin(tmp_path: Path) -> Path:
    """`tmp_path/wrapbin`, holding `inner` (a wrapper that execs node), `noderun` (a node
    script), `lib.sh` (sourced text that runs node) and `plain` (a wrapper that runs no
    interpreter)."""
    folder = tmp_path / "wrapbin"
    folder.mkdir()
    scripts = {
        "inner": '#!/bin/sh\nexec node /opt/tsc.js "$@"\n',
        "noderun": "#!/usr/bin/env node\nconsole.log(1)\n",
        "lib.sh": "node /opt/tsc.js\n",
        "plain": '#!/bin/sh\necho "$@"\n',
        "pyrun": "#!/usr/bin/env python3\nprint(1)\n",
    }
    for name, body in scripts.items():
        (folder / name).write_text(body)
        (folder / name).chmod(0o755)
    return folder


def _wrapper_verdicts(
    tmp_path: Path, body: str, more: dict[str, str] | None = None
) -> tuple[Decision, Decision]:
    """The decisions on an approved `tsc --version`, `tsc` being a wrapper of `body`
    (`BIN/` there and in `more`, more scripts by name, the wrapper folder), with
    `NODE_OPTIONS` preloading the workspace's `x.js` and without it."""
    workspace = copy_workspace(tmp_path)
    (workspace / "x.js").write_text("// x\n")
    folder = _wrapbin(tmp_path)
    for name, text in {"tsc": body, **(more or {})}.items():
        (folder / name).write_text(text.replace("BIN/", f"{folder}/"))
        (folder / name).chmod(0o755)
    env = env_beside(tmp_path, PATH=f"{folder}:/usr/bin:/bin", NODE_OPTIONS="--require ./x.js")
    risky = decide("tsc --version", workspace, env, "tsc")
    env.pop("NODE_OPTIONS")
    return risky, decide("tsc --version", workspace, env, "tsc")


@pytest.mark.parametrize(
    "body",
    ['#!/bin/sh\nexec BIN/inner "$@"\n',
     '#!/bin/sh\nexec BIN/noderun "$@"\n',
     '#!/bin/sh\nexec inner "$@"\n',
     '#!/bin/sh\nset -e\nnoderun "$@"\n',
     '#!/bin/sh\nexec ../wrapbin/inner "$@"\n',
     '#!/bin/sh\n. BIN/lib.sh\n',
     '#!/bin/sh\nsource "$(dirname "$0")/lib.sh"\n',
     '#!/bin/sh\nexec "$(dirname "$0")/inner" "$@"\n',
     '#!/bin/sh\nexec "${0%/*}/noderun" "$@"\n',
     '#!/usr/bin/env bash\n# asdf-plugin: nodejs 20.1.0\n'
     'exec /home/u/.asdf/bin/asdf exec "tsc" "$@" # asdf_allow: \' asdf \'\n',
     '#!/bin/sh\nexec asdf exec node "$@"\n',
     '#!/bin/sh\nexec mise x -- node "$@"\n',
     '#!/bin/sh\nexec mise exec node@20 -- node "$@"\n',
     '#!/bin/sh\nexec rtx exec node "$@"\n',
     '#!/bin/sh\nexec rtx x "$@"\n',
     '#!/usr/bin/env bash\nset -e\nprogram="${0##*/}"\n'
     'exec "/home/u/.rbenv/libexec/rbenv" exec "$program" "$@"\n',
     '#!/bin/sh\nexec nodenv exec npx "$@"\n',
     '#!/bin/sh\nperl /opt/setup.pl\nexec node /opt/tsc.js "$@"\n',
     '#!/bin/sh\nBIN/pyrun --check\nexec BIN/inner "$@"\n'],
)  # fmt: skip
def test_dw6_wrappers_of_wrapper_scripts_and_version_managers(tmp_path: Path, body: str) -> None:
    risky, plain = _wrapper_verdicts(tmp_path, body)
    assert risky.verdict is Verdict.ASK, risky.explain()
    assert "NODE_OPTIONS" in risky.explain(), risky.explain()
    assert plain.verdict is Verdict.ALLOW, plain.explain()


@pytest.mark.parametrize(
    "body",
    ['#!/bin/sh\nexec "$(dirname "$0")/plain" "$@"\n',
     '#!/bin/sh\nexec BIN/plain "$@"\n',
     '#!/bin/sh\nplain "$@"\nexec cat "$@"\n',
     '#!/bin/sh\nexec BIN/pyrun "$@"\n',
     '#!/bin/sh\n[ -x /opt/none/tool ] && exec /opt/none/tool "$@"\nexec cat "$@"\n',
     '#!/bin/sh\nasdf current\nexec cat "$@"\n'],
)  # fmt: skip
def test_dw6_wrappers_reaching_no_node_stay_allowed(tmp_path: Path, body: str) -> None:
    risky, plain = _wrapper_verdicts(tmp_path, body)
    assert risky.verdict is Verdict.ALLOW, risky.explain()
    assert plain.verdict is Verdict.ALLOW, plain.explain()


def test_dw6_python_through_a_wrapper_script(tmp_path: Path) -> None:
    workspace = copy_workspace(tmp_path)
    (workspace / "json").mkdir()
    (workspace / "json" / "__init__.py").write_text("")
    folder = _wrapbin(tmp_path)
    (folder / "tool").write_text(f'#!/bin/sh\nexec {folder}/pyrun "$@"\n')
    (folder / "tool").chmod(0o755)
    env = env_beside(tmp_path, PATH=f"{folder}:/usr/bin:/bin", PYTHONPATH=".")
    decision = decide("tool --version", workspace, env, "tool")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "PYTHONPATH" in decision.explain(), decision.explain()
    # Python by name, without `exec`
    (folder / "tool").write_text('#!/bin/sh\npython3 /opt/tool.py "$@"\n')
    assert decide("tool --version", workspace, env, "tool").verdict is Verdict.ASK
    env.pop("PYTHONPATH")
    assert decide("tool --version", workspace, env, "tool").verdict is Verdict.ALLOW


def test_dw6_a_chain_too_deep_or_a_loop_counts_as_every_language(tmp_path: Path) -> None:
    for sub in ("deep", "loop", "short"):
        (tmp_path / sub).mkdir()
    # eight wrapper scripts deep, the last running no node: past the levels followed
    chain = {f"c{i}": f'#!/bin/sh\nexec BIN/c{i + 1} "$@"\n' for i in range(1, 8)}
    chain["c8"] = "#!/bin/sh\necho done\n"
    risky, plain = _wrapper_verdicts(tmp_path / "deep", '#!/bin/sh\nexec BIN/c1 "$@"\n', chain)
    assert risky.verdict is Verdict.ASK, risky.explain()
    assert plain.verdict is Verdict.ALLOW, plain.explain()
    # two wrappers running each other
    loop = {"back": '#!/bin/sh\nexec BIN/tsc "$@"\n'}
    risky, plain = _wrapper_verdicts(tmp_path / "loop", '#!/bin/sh\nexec BIN/back "$@"\n', loop)
    assert risky.verdict is Verdict.ASK, risky.explain()
    assert plain.verdict is Verdict.ALLOW, plain.explain()
    # three deep is followed: no node at its end, no language
    short = {"c1": '#!/bin/sh\nexec BIN/c2 "$@"\n', "c2": "#!/bin/sh\necho done\n"}
    risky, plain = _wrapper_verdicts(tmp_path / "short", '#!/bin/sh\nexec BIN/c1 "$@"\n', short)
    assert risky.verdict is Verdict.ALLOW, risky.explain()


@pytest.mark.source
def test_dw6_an_unreadable_script_in_the_chain_counts_as_every_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "wrapbin"
    hidden = str(folder / "plain")
    real_access = os.access

    def access(path: object, mode: int, *args: object, **kwargs: object) -> bool:
        if str(path) == hidden and mode & os.R_OK:
            return False  # (root reads everything: the test runs as root in CI)
        return real_access(path, mode, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    risky, plain = _wrapper_verdicts(tmp_path, '#!/bin/sh\nexec BIN/plain "$@"\n')
    assert risky.verdict is Verdict.ASK, risky.explain()
    assert plain.verdict is Verdict.ALLOW, plain.explain()


# -- DW9: host:port@db and Maven coordinates are no credentials ------------------------------


@pytest.mark.parametrize(
    "value",
    ["redis:6379@0", "com.example:lib:1.0@jar", "host:5432@replica", "org.apache:commons:3.1@pom",
     "mongo:27017@rs0", "junit:junit:4.13.2@jar", "com.google.guava:guava:33.0-jre@jar",
     "org.example:lib:1.0:sources@jar", "redis://localhost:6379/0", "git@github.com:o/r.git",
     "node:20@sha256:" + "0123456789abcdef" * 4, "localhost:8080@dev",
     "pkg:npm/lodash@4.17.21", "org.example:dist:2.0@tar.gz"],
)  # fmt: skip
def test_dw9_host_port_and_coordinates_stay_plain(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, PLAIN=value)
    for line in ("echo $PLAIN", "printenv PLAIN"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ALLOW, (line, value, decision.explain())


@pytest.mark.parametrize(
    "value",
    ["alice:ProxyPw1@proxy.corp:3128", "u:pw@proxy:3128", "root:S3cret@/app",
     "u:pw@[::1]:3128", "admin:hunter2@10.0.0.1", "svc:S3cret@db", "user:12345678@host",
     "deploy:tok3n@registry.example.com", "u:p@ss@host", "a:b:c@proxy.corp",
     "x,u:pw@proxy:8080", "u:pw@localhost", "bob:1234@proxy.corp:3128", "u:pw@0",
     "com.example:lib:1.0@proxy.corp"],
)  # fmt: skip
def test_dw9_scheme_less_credentials_still_ask(tmp_path: Path, value: str) -> None:
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path, CRED=value)
    for line in ("echo $CRED", "printenv CRED"):
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, (line, value, decision.explain())


# -- DW1: `cd -` and xargs' probes ----------------------------------------------------------


def _track(line: str, start: str, home: str = "/nonexistent-home") -> list[paths.Cwd]:
    return paths.track(parse_command(line).segments, paths.Cwd(candidates=frozenset({start})), home)


def test_dw1_cd_dash_returns_to_the_tracked_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    start = str(tmp_path)
    last = _track("cd a; cd -; ls", start)[-1]
    assert last == paths.Cwd(candidates=frozenset({start})), last
    last = _track(f"cd a; cd {tmp_path}/b; cd -; ls", start)[-1]
    assert last.known, last
    assert str(tmp_path / "a") in last.candidates, last
    assert str(tmp_path / "b") not in last.candidates, last
    last = _track("cd a && cd - && cd - && ls", start)[-1]
    assert last.known, last
    assert str(tmp_path / "a") in last.candidates, last
    last = _track("pushd a; pushd -; ls", start)[-1]
    assert last == paths.Cwd(candidates=frozenset({start})), last
    # (a subshell's `cd` does not set the outer shell's previous folder)
    assert not _track("(cd a); cd -; ls", start)[-1].known


def test_dw1_cd_dash_stays_unknown_where_the_previous_folder_is_not(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    start = str(tmp_path)
    # the environment's OLDPWD is not the agent's shell's: unknown
    assert not _track("cd -; ls", start)[-1].known
    # a `cd` that may fail leaves OLDPWD as it was (unknown)
    assert not _track("cd missing; cd -; ls", start)[-1].known
    assert not _track("cd $X; cd -; ls", start)[-1].known
    # (`cd missing` fails: OLDPWD stays where `cd a` left it)
    last = _track("cd a; cd missing; cd -; ls", start)[-1]
    assert start in last.candidates, last
    # what may set OLDPWD otherwise: an assignment, `read`, `printf -v`, a function, a loop
    for line in ("cd a; OLDPWD=/x; cd -; ls", "cd a; read OLDPWD; cd -; ls",
                 "cd a; printf -v OLDPWD /x; cd -; ls", "cd a; : ${OLDPWD:=/x}; cd -; ls",
                 "f() { cd /; }; cd a; f; cd -; ls", "cd a; for i in 1; do cd /; done; cd -; ls",
                 "cd a; $X; cd -; ls", "cd a; unset OLDPWD; cd -; ls"):  # fmt: skip
        assert not _track(line, start)[-1].known, line


@pytest.mark.source
def test_dw1_cd_net_and_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (no /net here: as on macOS, `cd /net` enters it)
    real_isdir = os.path.isdir
    monkeypatch.setattr(
        paths, "_enterable", lambda folder: folder == "/net" or real_isdir(folder)
    )
    workspace = copy_workspace(tmp_path)
    env = env_beside(tmp_path)
    assert decide("cd /net; cd -; test -e x", workspace, env).verdict is Verdict.ALLOW
    for line in ("cd /net; test -e x", "cd /net; cd -; cd -; test -e x",
                 "cd /net; cd missing; cd -; test -e x"):  # fmt: skip
        decision = decide(line, workspace, env)
        assert decision.verdict is Verdict.ASK, (line, decision.explain())


@pytest.mark.parametrize(
    "line",
    ["xargs test -e <<< ../net/x", "echo ../../net/x | xargs test -e",
     "xargs -a list [ -d", "cat list | xargs realpath", "xargs readlink -f < list",
     "xargs -I{} test -e {} < list", "printf '%s\\n' x | xargs lsof +D"],
)  # fmt: skip
def test_dw1_xargs_feeding_a_probe_asks(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.xargs-paths" in decision.explain(), decision.explain()


@pytest.mark.parametrize("line", ["xargs echo < list", "test -e x", "echo x | xargs -n1 echo"])
def test_dw1_other_xargs_lines_allowed(tmp_path: Path, line: str) -> None:
    workspace = copy_workspace(tmp_path)
    decision = decide(line, workspace, env_beside(tmp_path))
    assert decision.verdict is Verdict.ALLOW, decision.explain()
