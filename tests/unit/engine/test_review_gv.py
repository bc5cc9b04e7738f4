"""Review GV: the compose project scan (GS1) and docker's own options and plugins.

GV1: `-h` counted as a help request wherever it stood after the verb: `ps --format -h`,
`logs --tail -h` and `ps -- -h` load the project (pflag takes `-h` as the value, or as a
service after `--`) and printed `.env`'s canary. GV2: compose reads `COMPOSE_*` from the
working folder's `.env` too: `sub/.env` `COMPOSE_FILE=../leak.yml` with the compose
file above. GV3: `extends` whose `file` key is a YAML alias (`*k : b.yml`). GV4: a
`provider:` service runs its `type` program on `down`. GV5: a `DOCKER_CONFIG` (or a
HOME) in the workspace supplies `cli-plugins/docker-compose`. AW's note: docker's own
options before the verb (`docker -c x run --privileged img`) escaped every `docker run`
rule under an approval of `docker`, and `--config D` runs `D/cli-plugins/docker-<verb>`.

The real compose v2.40.3 (/tmp/review-GS) and docker CLI run where installed; the
engine's verdicts are asserted always.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from realrun import decide, program_printed

from policylang import Verdict

CANARY = "CANARY_GV"
COMPOSE = Path("/tmp/review-GS/cv/lib/python3.11/site-packages/compose/docker-compose")
DOCKER = shutil.which("docker")
FAKE_DAEMON = Path("/tmp/review-GV/fd.py")
needs_compose = pytest.mark.skipif(not COMPOSE.is_file(), reason="compose is not installed")
needs_docker = pytest.mark.skipif(DOCKER is None, reason="docker is not installed")
LEAKY = "services:\n  web:\n    image: alpine\n    ports: ['${SECRET}']\n"
PLAIN = "services:\n  web:\n    image: alpine\n"
SPELLINGS = ["docker compose", "docker-compose", "podman compose", "nerdctl compose"]
PLUGIN = (
    "#!/bin/sh\n"
    "if [ \"$1\" = docker-cli-plugin-metadata ]; then\n"
    "  echo '{\"SchemaVersion\":\"0.1.0\",\"Vendor\":\"x\",\"Version\":\"1\"}'; exit 0\n"
    "fi\n"
    "echo PWNED_PLUGIN_GV\n"
)


def _workspace(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(f"[default]\naws_secret_access_key = A{CANARY}\n")
    for name, text in {".env": f"SECRET={CANARY}\n", **files}.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _compose(cwd: Path, env: dict[str, str], *args: str) -> str:
    return program_printed([str(COMPOSE), *args], cwd, env, timeout=60)


def _asks_unoffered(
    line: str, workspace: Path, env: dict[str, str], approval: str, cwd: Path | None = None
) -> None:
    decision = decide(line, workspace, env, approval, cwd=cwd)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decide(line, workspace, env, cwd=cwd).suggested_rule is None


# -- GV1 ---------------------------------------------------------------------------

HIDDEN_HELP = ["ps -- -h", "ps --format -h", "logs --tail -h", "logs --since -h", "pull -- -h",
               "ps --format --help"]  # fmt: skip


@needs_compose
@pytest.mark.parametrize("words", ["ps -- -h", "ps --format -h", "logs --tail -h"])
def test_gv1_premise_a_later_h_loads_the_project(tmp_path: Path, words: str) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": LEAKY})
    assert CANARY in _compose(workspace, env, *words.split())
    assert CANARY not in _compose(workspace, env, "ps", "-h")  # (help: nothing loaded)


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("words", HIDDEN_HELP)
def test_gv1_a_later_h_asks(tmp_path: Path, spelling: str, words: str) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": LEAKY})
    line = f"{spelling} {words}"
    decision = decide(line, workspace, env, f"{spelling} {words.split()[0]}")
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.compose-project" in decision.explain()


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_gv1_help_right_after_the_verb_keeps_the_approval(tmp_path: Path, spelling: str) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": LEAKY})
    for words in ("ps -h", "ps --help", "logs --help"):
        line = f"{spelling} {words}"
        decision = decide(line, workspace, env, f"{spelling} {words.split()[0]}")
        assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- GV2 ---------------------------------------------------------------------------

GV2_FILES = {"compose.yml": PLAIN, "sub/.env": "COMPOSE_FILE=../leak.yml\n", "leak.yml": LEAKY}


@needs_compose
def test_gv2_premise_the_working_folders_env_moves_the_file(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, GV2_FILES)
    assert CANARY in _compose(workspace / "sub", env, "ps")


def test_gv2_the_working_folders_env_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, GV2_FILES)
    approval = "docker compose ps"
    _asks_unoffered("docker compose ps", workspace, env, approval, cwd=workspace / "sub")
    for line in ("cd sub && docker compose ps", "(cd sub && docker compose ps)"):
        decision = decide(line, workspace, env, approval)
        assert decision.verdict is Verdict.ASK, decision.explain()
    # (the plain project at its root keeps the approval)
    decision = decide("docker compose ps", workspace, env, approval)
    assert decision.verdict is Verdict.ALLOW, decision.explain()


# -- GV3 ---------------------------------------------------------------------------

GV3_FILES = {
    "compose.yml": "x-k: &k file\nservices:\n  web:\n    extends:\n      *k : b.yml\n"
                   "      service: w\n",
    "b.yml": "services:\n  w:\n    image: alpine\n    ports: ['${SECRET}']\n",
}  # fmt: skip


@needs_compose
def test_gv3_premise_an_alias_key_extends_another_file(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, GV3_FILES)
    assert CANARY in _compose(workspace, env, "ps")


def test_gv3_any_extends_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, GV3_FILES)
    _asks_unoffered("docker compose ps", workspace, env, "docker compose ps")


# -- GV4 ---------------------------------------------------------------------------

GV4_COMPOSE = (
    "services:\n  web:\n    image: alpine\n"
    "  db:\n    provider:\n      type: ./evil.sh\n      options:\n        a: b\n"
)


def _fake_daemon(tmp_path: Path) -> subprocess.Popen[bytes] | None:
    """The review's fake docker daemon, on a socket of its own (None: not there)."""
    if not FAKE_DAEMON.is_file():
        return None
    sock = tmp_path / "d.sock"
    source = FAKE_DAEMON.read_text().replace("/tmp/review-GV/d.sock", str(sock)).replace(
        "/tmp/review-GV/fd.log", str(tmp_path / "fd.log"))
    (tmp_path / "fd.py").write_text(source)
    daemon = subprocess.Popen([sys.executable, str(tmp_path / "fd.py")])
    for _ in range(100):
        if sock.exists():
            return daemon
        time.sleep(0.05)
    daemon.kill()
    return None


@needs_compose
def test_gv4_premise_down_runs_the_provider(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": GV4_COMPOSE})
    marker = tmp_path / "pwned.txt"
    (workspace / "evil.sh").write_text(f"#!/bin/sh\necho PWNED_GV \"$@\" >> {marker}\n")
    (workspace / "evil.sh").chmod(0o755)
    daemon = _fake_daemon(tmp_path)
    if daemon is None:
        pytest.skip("no fake docker daemon")
    try:
        _compose(workspace, {**env, "DOCKER_HOST": f"unix://{tmp_path / 'd.sock'}"}, "down")
    finally:
        daemon.kill()
        daemon.wait()
    assert "PWNED_GV" in marker.read_text()


def test_gv4_a_provider_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": GV4_COMPOSE})
    (workspace / ".env").write_text("")
    for verb in ("down", "ps", "stop"):
        _asks_unoffered(f"docker compose {verb}", workspace, env, f"docker compose {verb}")


# -- GV5 and AW's note ---------------------------------------------------------------


def _plugin_folder(folder: Path) -> Path:
    plugins = folder / "cli-plugins"
    plugins.mkdir(parents=True)
    for name in ("docker-compose", "docker-buildx"):
        (plugins / name).write_text(PLUGIN)
        (plugins / name).chmod(0o755)
    return folder


@needs_docker
def test_gv5_premise_a_workspace_docker_config_runs_its_plugin(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": PLAIN})
    config = _plugin_folder(workspace / ".docker")
    assert DOCKER is not None
    moved = {**env, "DOCKER_CONFIG": str(config)}
    out = program_printed([DOCKER, "compose", "ps"], workspace, moved)
    assert "PWNED_PLUGIN_GV" in out
    out = program_printed([DOCKER, "--config", str(config), "buildx", "ls"], workspace, env)
    assert "PWNED_PLUGIN_GV" in out


@pytest.mark.parametrize("line", ["docker compose ps", "docker buildx ls", "docker ps",
                                  "docker --help", "docker info"])  # fmt: skip
def test_gv5_a_workspace_docker_config_asks(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path, {"compose.yml": PLAIN})
    (workspace / ".env").write_text("")
    _plugin_folder(workspace / ".docker")
    for moved in ({"DOCKER_CONFIG": str(workspace / ".docker")}, {"HOME": str(workspace)}):
        decision = decide(line, workspace, {**env, **moved}, line, "docker")
        assert decision.verdict is Verdict.ASK, (moved, decision.explain())
    decision = decide("docker --version", workspace, {**env, "HOME": str(workspace)}, "docker")
    assert decision.verdict is Verdict.ALLOW, decision.explain()
    # (the user's own configuration folder keeps the approval)
    decision = decide(line, workspace, env, line, "docker")
    assert decision.verdict is Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize(
    "line",
    ["docker -c x run --privileged img", "docker --context=x run -e SECRET img",
     "docker -H unix:///x.sock run --pid=host img", "docker -D exec --privileged c sh",
     "docker --config D buildx ls", "docker -l error container run --privileged img",
     "podman --remote run --privileged img", "nerdctl -n x run --privileged img"],
)  # fmt: skip
def test_aw_note_own_options_before_the_verb_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path, {})
    decision = decide(line, workspace, env, line.split()[0])
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


def test_aw_note_plain_docker_lines_keep_the_approval(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, {})
    for line in ("docker ps", "docker --version", "docker -v", "docker images"):
        decision = decide(line, workspace, env, "docker")
        assert decision.verdict is Verdict.ALLOW, decision.explain()
