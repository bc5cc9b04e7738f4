"""Review GH: programs that read `.env` (or a home secret) with no word naming it.

GH1: `docker compose config --services` was offered as `docker compose config`, which
approved `config` and `config --environment`: they print the compose file with `.env` and
the `env_file:` entries put in. GH2: honcho, nf, forego, overmind, `heroku local:run`,
`railway run`, `netlify dev:exec` load `.env` and run any command, and were offered as
`X run`. GH3: `python3 -m MODULE` lines were offered the module bare, help lines included
(`python3 -m dotenv --help` approved `python3 -m dotenv list`). GH4: `task --list`
(`mytool --list`) was offered the bare name, which approved `task deploy`. GH5, GH6:
`bun build`, `deno bundle` print every file the sources import (`.env`, `~/.ssh/id_rsa`
as text). GH7: `flask --help` imports the app after loading `.env`.

The real programs (podman-compose, honcho, python-dotenv, task, bun, deno, flask) run
where they are installed (the review put some under /tmp/review-GH): the premise is
shown then, and the engine's verdicts are asserted always.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_CANARY = "CANARY_ENV_GH"
_REVIEW = Path("/tmp/review-GH")
_REVIEW_BINS = (
    _REVIEW / "py" / "bin", _REVIEW / "venv" / "bin",
    _REVIEW / "nodebun" / "node_modules" / ".bin", _REVIEW / "nodedeno" / "node_modules" / ".bin",
)  # fmt: skip


def _tool(name: str) -> str | None:
    """The real program `name`: on PATH, or where the review installed it."""
    for folder in _REVIEW_BINS:
        if (folder / name).is_file():
            return str(folder / name)
    return shutil.which(name)


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = {".ssh/id_rsa": "CANARY_SSH\n"}
    return canary_workspace(tmp_path, f"DB_PASSWORD={_CANARY}\n", home=home)


def _run(args: list[str], cwd: Path, home: Path, **more: str) -> str:
    """What the real program printed (both streams), with the review's Python packages."""
    path = os.pathsep.join([str(_REVIEW / "stub"), os.environ.get("PATH", "/usr/bin:/bin")])
    env = {"HOME": str(home), "PATH": path, "PYTHONPATH": str(_REVIEW / "py"), **more}
    env["PYENV_ROOT"] = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))  # (shims)
    if (_REVIEW / "home" / ".cache" / "deno").is_dir():  # (deno's bundler, fetched once)
        env["DENO_DIR"] = str(_REVIEW / "home" / ".cache" / "deno")
    return program_printed(args, cwd, env)


def _offer(line: str, workspace: Path, env: dict[str, str]) -> str | None:
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK, decision.explain()
    return decision.suggested_rule


def _asks(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> str:
    decision = decide(line, workspace, env, *approvals)
    assert decision.verdict is Verdict.ASK, decision.explain()
    return decision.explain()


_COMPOSES = ["docker compose", "podman compose", "docker-compose", "podman-compose"]


@pytest.mark.parametrize("compose", _COMPOSES)
def test_gh1_compose_config_listing_offered_exactly(tmp_path: Path, compose: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "compose.yml").write_text(
        "services:\n  web:\n    image: alpine\n    environment: ['DB=${DB_PASSWORD}']\n"
    )
    real = _tool("podman-compose")
    if compose == "podman-compose" and real is not None:  # `config` prints `.env`'s value
        assert _CANARY in _run([real, "config"], workspace, tmp_path / "home")
        assert _CANARY not in _run([real, "config", "--services"], workspace, tmp_path / "home")
    # a compose file that interpolates gets no offer at all (review GS1)
    assert _offer(f"{compose} config --services", workspace, env) is None
    (workspace / "compose.yml").write_text("services:\n  web:\n    image: alpine\n")
    offered = _offer(f"{compose} config --services", workspace, env)
    assert offered == f"{compose} config --services $"
    assert decide(f"{compose} config --services", workspace, env, offered).verdict is Verdict.ALLOW
    for approval in (offered, f"{compose} config"):  # (the old offer too)
        for line in ("config", "config --environment", "config --format json", "config -q"):
            explained = _asks(f"{compose} {line}", workspace, env, approval)
            assert "compose-config-prints" in explained
    assert _offer(f"{compose} config", workspace, env) is None


_RUNNERS = ["honcho run", "nf run", "forego run", "overmind run", "heroku local:run",
            "railway run", "netlify dev:exec"]  # fmt: skip


@pytest.mark.parametrize("runner", _RUNNERS)
def test_gh2_dotenv_runners_get_no_offer(tmp_path: Path, runner: str) -> None:
    workspace, env = _workspace(tmp_path)
    real = _tool("honcho")
    if runner == "honcho run" and real is not None:  # honcho loads `.env` on its own
        printed = _run([real, "run", "printenv", "DB_PASSWORD"], workspace, tmp_path / "home")
        assert _CANARY in printed
    assert _offer(f"{runner} pytest", workspace, env) is None
    for line in ("printenv DB_PASSWORD", "sh -c id"):  # the old offer approved them
        _asks(f"{runner} {line}", workspace, env, runner)


def test_gh3_python_m_dotenv_is_a_runner(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    python = shutil.which("python3")
    if python is not None and (_REVIEW / "py" / "dotenv").is_dir():
        assert _CANARY in _run([python, "-m", "dotenv", "list"], workspace, tmp_path / "home")
    for line in ("python3 -m dotenv run pytest", "python3 -m dotenv --help"):
        assert _offer(line, workspace, env) is None
    for line in ("python3 -m dotenv list", "python3 -m dotenv get DB_PASSWORD"):
        _asks(line, workspace, env, "python3 -m dotenv")
    _asks("python3 -m honcho run printenv", workspace, env, "python3 -m honcho")


@pytest.mark.parametrize(
    ("line", "offered", "other"),
    [
        ("python3 -m honcho -v", "python3 -m honcho -v $", "python3 -m honcho run id"),
        ("python3 -m fastapi --help", "python3 -m fastapi --help $", "python3 -m fastapi run x.py"),
        ("python3 -m mymod --help", "python3 -m mymod --help $", "python3 -m mymod deploy"),
        ("python3 -m mymod deploy", "python3 -m mymod deploy", "python3 -m mymod destroy"),
    ],
)
def test_gh3_python_m_help_offered_exactly(
    tmp_path: Path, line: str, offered: str, other: str
) -> None:
    workspace, env = _workspace(tmp_path)
    assert _offer(line, workspace, env) == offered
    assert decide(line, workspace, env, offered).verdict is Verdict.ALLOW
    _asks(other, workspace, env, offered)


_TASKFILE = """version: '3'
dotenv: ['.env']
tasks:
  build: {desc: "Build (db {{.DB_PASSWORD}})", cmds: [echo building]}
  deploy: {desc: Deploy, cmds: ['echo deployed']}
"""


@pytest.mark.parametrize(
    ("line", "other"),
    [("task --list", "task deploy"), ("task -l", "task deploy"),
     ("mytool --list", "mytool deploy")],
)  # fmt: skip
def test_gh4_a_listing_is_offered_exactly(tmp_path: Path, line: str, other: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "Taskfile.yml").write_text(_TASKFILE)
    real = _tool("task")
    if line.startswith("task") and real is not None:  # the bare name approved a task
        assert "deployed" in _run([real, "deploy"], workspace, tmp_path / "home")
    offered = _offer(line, workspace, env)
    if line.startswith("task"):
        # (review HR5: go-task runs the Taskfile's `sh:` variables to list: no offer)
        assert offered is None
        offered = f"{line} $"
    else:
        assert offered == f"{line} $"
    _asks(other, workspace, env, offered)
    assert _offer("task", workspace, env) == "task $"


_IMPORTS = (
    'import env from "./.env" with { type: "text" };\n'
    'import key from "../home/.ssh/id_rsa" with { type: "text" };\n'
    "console.log(env, key);\n"
)


@pytest.mark.parametrize(
    ("line", "real_args", "old"),
    [
        ("bun build ./x.ts", ["bun", "build", "./x.ts"], "bun build"),
        ("bun build ./x.ts --env=inline", None, "bun build"),
        ("deno bundle --unstable-raw-imports x.ts",
         ["deno", "bundle", "--unstable-raw-imports", "x.ts"], "deno bundle"),
        ("deno compile x.ts", None, "deno compile"),
    ],
)  # fmt: skip
def test_gh5_gh6_bundlers_are_locked_asks(
    tmp_path: Path, line: str, real_args: list[str] | None, old: str
) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "x.ts").write_text(_IMPORTS)
    real = _tool(real_args[0]) if real_args else None
    if real_args and real is not None:  # the bundle printed `.env` and the key
        printed = _run([real, *real_args[1:]], workspace, tmp_path / "home")
        assert _CANARY in printed
        assert "CANARY_SSH" in printed
    assert _offer(line, workspace, env) is None
    assert "reads-sources" in _asks(line, workspace, env, old)
    help_line = f"{old} --help"
    assert decide(help_line, workspace, env, f"{help_line} $").verdict is Verdict.ALLOW


def test_gh7_flask_help_gets_no_exact_approval(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "app.py").write_text(
        "import os\nfrom flask import Flask\nprint('APP RAN', os.environ.get('DB_PASSWORD'))\n"
        "app = Flask(__name__)\n"
    )
    real = _tool("flask")
    if real is not None:  # `--help` imports the app, with `.env` loaded; `--version` not
        printed = _run([real, "--help"], workspace, tmp_path / "home")
        assert "APP RAN" in printed
        assert "APP RAN" not in _run([real, "--version"], workspace, tmp_path / "home")
    for line in ("flask --help", "python3 -m flask --help", "flask -h"):
        assert _offer(line, workspace, env) is None, line
    assert _offer("flask --version", workspace, env) == "flask --version $"
    _asks("flask --help", workspace, env, "flask --version $")
    assert "flask-help-loads-app" in _asks("flask --help", workspace, env, "flask --help $")
