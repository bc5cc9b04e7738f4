"""Review GS: compose's verbs print what they interpolate.

GS1: every compose verb that loads the project (`logs`, `ps`, `pull` …) prints the
values its compose file interpolates from `.env` (or an `include:` entry's `env_file:`,
`~/.aws/credentials`) in its validation errors: `ports: ["${SECRET}"]` gives `invalid
containerPort: CANARY`. Such a project (any `$`, a backslash escape, `env_file`,
`include`, `extends` with `file`), a search for the compose file that leaves the
workspace, and the options and variables that move its files now ask under an approval,
with nothing offered. GS2: `config --images`, `--profiles` and `--models` print
interpolated values: locked. GS3: `alpha viz` is offered exactly. GS4: `publish` is
offered nothing, and `--with-env` is a locked ask. GS5: `bridge` is offered nothing.
GS6: a doubled `compose` is offered nothing and asks under an old approval.

The real compose v2.40.3 runs where the review installed it (/tmp/review-GS); the
engine's verdicts are asserted always.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import decide

from policylang import Verdict

_CANARY = "CANARY_GS"
_COMPOSE = Path("/tmp/review-GS/cv/lib/python3.11/site-packages/compose/docker-compose")
_SPELLINGS = ["docker compose", "docker-compose", "podman compose", "podman-compose",
              "nerdctl compose", "finch compose"]  # fmt: skip
_PLAIN = "services:\n  web:\n    image: alpine\n    ports: ['8080:80']\n"


def _workspace(
    tmp_path: Path, compose: str, name: str = "compose.yml"
) -> tuple[Path, dict[str, str]]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(f"[default]\naws_secret_access_key = {_CANARY}\n")
    (workspace / ".env").write_text(f"SECRET={_CANARY}\n")
    (workspace / name).write_text(compose)
    return workspace, {"HOME": str(home), "PATH": "/usr/bin:/bin"}


def _real(workspace: Path, env: dict[str, str], *args: str) -> str | None:
    """What the real compose printed (None where it is not installed)."""
    if not _COMPOSE.is_file():
        return None
    done = subprocess.run([str(_COMPOSE), *args], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    return done.stdout + done.stderr


def _asks_unoffered(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> None:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert "engine.compose-project" in decision.explain() or decision.locked, decision.explain()
    assert decide(line, workspace, env).suggested_rule is None


_LEAKING = {
    "interpolation": ("services:\n  web:\n    image: alpine\n    ports: ['${SECRET}']\n", {}),
    "escape": ('services:\n  web:\n    image: alpine\n    ports: ["\\x24{SECRET}"]\n', {}),
    "include": (
        "include:\n  - path: sub.yml\n    env_file: ['${HOME}/.aws/credentials']\n",
        {"sub.yml": "services:\n  web:\n    image: alpine\n"
                    "    ports: ['${aws_secret_access_key}']\n"},
    ),
    "dotenv COMPOSE_FILE": (_PLAIN, {"other.yml": "services:\n  web:\n    image: alpine\n"
                                                  "    ports: ['${SECRET}']\n",
                                     ".env": f"SECRET={_CANARY}\nCOMPOSE_FILE=other.yml\n"}),
    "env_file": ("services:\n  web:\n    image: alpine\n    env_file: [x.env]\n", {}),
    "extends file": ("services:\n  web:\n    extends: {file: b.yml, service: w}\n", {}),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(_LEAKING))
@pytest.mark.parametrize("verb", ["logs", "ps", "images", "pull", "top", "alpha viz"])
def test_gs1_a_project_that_interpolates_gets_no_approval(
    tmp_path: Path, case: str, verb: str
) -> None:
    compose, more = _LEAKING[case]
    workspace, env = _workspace(tmp_path, compose)
    for name, text in more.items():
        (workspace / name).write_text(text)
    if case in ("interpolation", "escape", "include", "dotenv COMPOSE_FILE") and verb == "ps":
        printed = _real(workspace, env, "ps")
        assert printed is None or _CANARY in printed, printed  # (the premise)
    for spelling in _SPELLINGS:
        line = f"{spelling} {verb}"
        _asks_unoffered(line, workspace, env, line, spelling)


@pytest.mark.parametrize(
    "line",
    ["-f compose.yml ps", "--file=compose.yml ps", "-fcompose.yml ps",
     "--project-directory . ps", "--env-file x.env ps", "-p x -f compose.yml ps"],
)  # fmt: skip
def test_gs1_options_that_move_the_project_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN)
    for spelling in ("docker compose", "docker-compose"):
        full = f"{spelling} {line}"
        decision = decide(full, workspace, env, full, spelling)
        assert decision.verdict is not Verdict.ALLOW, decision.explain()


@pytest.mark.parametrize("name", ["COMPOSE_FILE", "COMPOSE_PROJECT_DIRECTORY", "COMPOSE_ENV_FILES"])
def test_gs1_variables_that_move_the_project_ask(tmp_path: Path, name: str) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN)
    env[name] = "other.yml"
    decision = decide("docker compose ps", workspace, env, "docker compose ps")
    assert decision.verdict is Verdict.ASK, decision.explain()


def test_gs1_a_compose_file_above_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN, name="notes.txt")
    (tmp_path / "compose.yml").write_text("services:\n  web:\n    ports: ['${SECRET}']\n")
    decision = decide("docker compose ps", workspace, env, "docker compose ps")
    assert decision.verdict is Verdict.ASK, decision.explain()


@pytest.mark.parametrize("spelling", _SPELLINGS)
def test_gs1_a_plain_project_keeps_its_approvals(tmp_path: Path, spelling: str) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN, name="docker-compose.yaml")
    (workspace / "sub").mkdir()
    for verb in ("logs", "ps", "logs -f web", "pull"):
        line = f"{spelling} {verb}"
        offered = decide(line, workspace, env).suggested_rule
        assert offered is not None, line
        assert decide(line, workspace, env, offered).verdict is Verdict.ALLOW, line
        assert decide(line, workspace, env, offered, cwd=workspace / "sub").verdict is Verdict.ALLOW
    for quiet in ("version", "ls", "ps --help"):
        line = f"{spelling} {quiet}"
        assert decide(line, workspace, env, line).verdict is Verdict.ALLOW, line


@pytest.mark.parametrize("listing", ["--images", "--profiles", "--models"])
def test_gs2_listings_that_interpolate_are_locked(tmp_path: Path, listing: str) -> None:
    compose = (
        "services:\n  web:\n    image: 'alpine:${SECRET}'\n    models: [m]\n"
        "  job:\n    image: alpine\n    profiles: ['${SECRET}']\n"
        "models:\n  m:\n    model: 'ai/${SECRET}'\n"
    )
    workspace, env = _workspace(tmp_path, compose)
    printed = _real(workspace, env, "config", listing)
    assert printed is None or _CANARY in printed, printed  # (the premise)
    (workspace / "compose.yml").write_text(_PLAIN)  # (locked whatever the file says)
    for spelling in _SPELLINGS:
        line = f"{spelling} config {listing}"
        decision = decide(line, workspace, env, f"{line} $", spelling)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.locked, decision.explain()


@pytest.mark.parametrize("listing", ["--services", "--volumes", "--networks"])
def test_gs2_listings_of_keys_are_offered(tmp_path: Path, listing: str) -> None:
    compose = (
        "services:\n  web:\n    image: alpine\n    networks: {n1: {aliases: ['${SECRET}']}}\n"
        "    volumes: ['v1:/x']\nnetworks:\n  n1: {name: 'n${SECRET}'}\n"
        "volumes:\n  v1: {name: 'v${SECRET}'}\n"
    )
    workspace, env = _workspace(tmp_path, compose)
    printed = _real(workspace, env, "config", listing)
    assert printed is None or _CANARY not in printed, printed  # (keys only)
    (workspace / "compose.yml").write_text(_PLAIN)
    line = f"docker compose config {listing}"
    assert decide(line, workspace, env).suggested_rule == f"{line} $"


def test_gs3_alpha_viz_is_offered_exactly(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN)
    for spelling in ("docker compose", "docker-compose"):
        offered = decide(f"{spelling} alpha viz", workspace, env).suggested_rule
        assert offered == f"{spelling} alpha viz $"
        for wider in ("alpha viz --image", "alpha viz --ports", "alpha watch"):
            line = f"{spelling} {wider}"
            assert decide(line, workspace, env, offered).verdict is Verdict.ASK, line


@pytest.mark.parametrize("spelling", _SPELLINGS)
def test_gs4_publish_gets_no_offer_and_with_env_is_locked(tmp_path: Path, spelling: str) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN)
    for verb in ("publish localhost:5000/x", "alpha publish localhost:5000/x"):
        assert decide(f"{spelling} {verb}", workspace, env).suggested_rule is None, verb
        line = f"{spelling} {verb} --with-env -y"
        old = f"{spelling} {verb.rpartition(' ')[0]}"  # (the old offer)
        decision = decide(line, workspace, env, old, spelling)
        assert decision.verdict is Verdict.ASK, decision.explain()
        assert decision.locked, decision.explain()


@pytest.mark.parametrize("spelling", ["docker compose", "docker-compose", "podman compose"])
def test_gs5_bridge_gets_no_offer(tmp_path: Path, spelling: str) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN)
    for line in ("bridge convert", "bridge transformations list"):
        assert decide(f"{spelling} {line}", workspace, env).suggested_rule is None, line


@pytest.mark.parametrize("spelling", ["docker compose", "docker-compose", "podman-compose"])
def test_gs6_a_doubled_compose_gets_no_offer(tmp_path: Path, spelling: str) -> None:
    workspace, env = _workspace(tmp_path, _PLAIN)
    assert decide(f"{spelling} compose ps", workspace, env).suggested_rule is None
    old = f"{spelling} compose"
    for line in ("compose ps", "compose config"):
        decision = decide(f"{spelling} {line}", workspace, env, old)
        assert decision.verdict is Verdict.ASK, decision.explain()
