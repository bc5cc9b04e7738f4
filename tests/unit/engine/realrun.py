"""Running the real programs the review tests compare the engine with: git without the
system's configuration and with an author, HOME beside the folder (the tests' fake home)."""

from __future__ import annotations

import functools
import importlib.resources
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from policylang.decision import Decision, Verdict
from policylang.engine.policy import Policy, load_policy


def run_real(
    args: list[str], cwd: Path, home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home if home is not None else cwd.parent / "home"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def printed(args: list[str], cwd: Path, home: Path | None = None) -> str:
    """What the program wrote, on either stream."""
    done = run_real(args, cwd, home)
    return done.stdout + done.stderr


def git_ok(workspace: Path, *args: str) -> None:
    """Run git in `workspace`; the test stops if it fails."""
    done = run_real(["git", *args], workspace)
    assert done.returncode == 0, (args, done.stderr)


def pushable_repository(workspace: Path, *branches: str) -> None:
    """Make `workspace` a repository an approved `git push` covers: branch `main` (and
    `branches`) holding a commit, and a remote `origin` on the network (which is never
    reached: the tests judge the line, they do not push)."""
    workspace.mkdir(parents=True, exist_ok=True)
    git_ok(workspace, "init", "-q")
    git_ok(workspace, "commit", "-q", "--allow-empty", "-m", "first")
    for branch in branches:
        git_ok(workspace, "branch", branch)
    network_origin(workspace)


def network_origin(workspace: Path) -> None:
    """Name the current branch of the repository `workspace` `main`, and add a remote
    `origin` on the network (never reached)."""
    git_ok(workspace, "branch", "-M", "main")
    git_ok(workspace, "remote", "add", "origin", "https://example.invalid/r.git")


# the remote URL of `stashed_repository`, on the network for the engine; the real runs
# reach the bare repository beside the workspace through `bare_rewrite`
NETWORK_URL = "https://example.invalid/origin.git"


def git_out(workspace: Path, *args: str) -> str:
    """What `git ARGS` printed in `workspace` (with an author); it must succeed."""
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=workspace, check=True, timeout=60, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout


def bare_rewrite(tmp_path: Path) -> dict[str, str]:
    """The environment of a real run: git's `insteadOf` takes `NETWORK_URL` to the bare
    repository `origin.git` beside the workspace."""
    return {**os.environ, "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": f"url.{tmp_path / 'origin.git'}.insteadOf",
            "GIT_CONFIG_VALUE_0": NETWORK_URL}  # fmt: skip


def stashed_repository(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """`tmp_path/ws`: a committed `config/.env` template the user filled in and stashed,
    branch `main` pushed to `origin` (`NETWORK_URL`, the bare `tmp_path/origin.git` for
    the real runs); and the engine's environment (a fake home)."""
    remote = tmp_path / "origin.git"
    git_out(tmp_path, "init", "-q", "--bare", str(remote))
    workspace = tmp_path / "ws"
    (workspace / "config").mkdir(parents=True)
    (workspace / "config" / ".env").write_text("DB_PASS=template\n")
    (workspace / "src.txt").write_text("x\n")
    git_out(workspace, "init", "-q", "-b", "main", ".")
    git_out(workspace, "add", "-A")
    git_out(workspace, "commit", "-qm", "x")
    git_out(workspace, "remote", "add", "origin", str(remote))
    git_out(workspace, "push", "-q", "origin", "main")
    # a repository on this machine as a remote asks under any approval of `git push`
    # (review FR3): the engine sees the network URL
    git_out(workspace, "remote", "set-url", "origin", NETWORK_URL)
    (workspace / "config" / ".env").write_text("DB_PASS=CANARY_FD\n")
    git_out(workspace, "stash", "-q")
    (tmp_path / "home").mkdir()
    return workspace, {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}


def untracked_stash_repository(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """`stashed_repository` with no tracked secret: the filled-in `.env` is untracked and
    put aside with `git stash -u` (the stash's third parent holds it), so the printers
    of the history are allowed until a ref makes them print the stash."""
    workspace, env = stashed_repository(tmp_path)
    git_out(workspace, "stash", "drop", "-q")
    git_out(workspace, "rm", "-q", "--cached", "config/.env")
    git_out(workspace, "commit", "-qm", "untrack")
    git_out(workspace, "push", "-q", str(tmp_path / "origin.git"), "main")
    (workspace / "config" / ".env").write_text("DB_PASS=CANARY_FD\n")
    git_out(workspace, "stash", "-q", "-u")
    return workspace, env


def stash_head_folder(folder: Path, common: str) -> None:
    """A crafted git directory at `folder`, committed as any file would be: its `HEAD` is
    the stash and its refs are the repository's own (`commondir` = `common`), so git
    fetches or pulls the stash from it (reviews FW2, FY2, FZ1, GB1)."""
    (folder / "objects").mkdir(parents=True)
    (folder / "refs" / "heads").mkdir(parents=True)
    (folder / "HEAD").write_text("ref: refs/stash\n")
    (folder / "commondir").write_text(f"{common}\n")


def asks(
    line: str, workspace: Path, env: dict[str, str], *approvals: str, cwd: Path | None = None
) -> None:
    """The default policy (with `approvals`) asks on `line`."""
    decision = decide(line, workspace, env, *approvals, cwd=cwd)
    assert decision.verdict is Verdict.ASK, decision.explain()


def approved(*rules: str) -> Policy:
    """The default policy with `rules` approved for the session (in memory)."""
    policy = load_policy()
    for rule in rules:
        policy.approvals.add(rule, persist=False)
    return policy


def judged_and_run(line: str, workspace: Path, home: Path) -> tuple[Verdict, str]:
    """The default policy's verdict on `line`, and what a real bash printed running it
    (both streams), with `home` as HOME and PATH `/usr/bin:/bin` for the verdict."""
    environment = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    verdict = load_policy().evaluate(line, workspace=str(workspace), env=environment).verdict
    return verdict, printed(["bash", "-c", line], workspace, home)


def canary_environment(workspace: Path, **more: str) -> dict[str, str]:
    """The environment of the review tests' lines: the fake home beside `workspace`, the
    system's PATH and a canary token a line must not print."""
    return {"HOME": str(workspace.parent / "home"), "PATH": "/usr/bin:/bin",
            "GITHUB_TOKEN": "ghp_CANARY", **more}  # fmt: skip


def bash_printed(line: str, workspace: Path) -> str:
    """What a real bash printed running `line` in `workspace` (both streams)."""
    done = subprocess.run(
        ["bash", "-c", line], cwd=workspace, env=canary_environment(workspace),
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@functools.lru_cache(maxsize=1)
def _scan_rulesets() -> Path:
    """A copy of the shipped rulesets without the locked `compiler-reads-sources` rule
    and rustfmt's (`formatter-reads-sources`, `cargo-fmt-reads-sources`: review GF3), and
    the expectations that name them, made once per process."""
    source = Path(str(importlib.resources.files("policylang") / "rulesets"))
    copy = Path(tempfile.mkdtemp(prefix="policylang-scan-")) / "rulesets"
    shutil.copytree(source, copy)
    for path in copy.rglob("*.policy"):
        lines = path.read_text().splitlines(keepends=True)
        kept = [line for line in lines if "-reads-sources" not in line]
        path.write_text("".join(kept))
    return copy


def scan_policy(*rules: str) -> Policy:
    """The default policy as a ruleset that lets compilers be approved would have it
    (without the locked `compiler-reads-sources` and rustfmt's), `rules` approved: where
    the engine's include scan of an approved compiler's sources is the only check. The
    scan's own tests use it; the shipped rulesets ask for every compile."""
    policy = load_policy(_scan_rulesets() / "default.policy", check=False)
    for rule in rules:
        policy.approvals.add(rule, persist=False)
    return policy


def scan_judge(line: str, workspace: Path, *approvals: str) -> Decision:
    """`judge` under `scan_policy`."""
    policy = scan_policy(*approvals)
    return policy.evaluate(line, workspace=str(workspace), env=canary_environment(workspace))


def judge(line: str, workspace: Path, *approvals: str) -> Decision:
    """The default policy's decision on `line` in `workspace` (with `approvals`), in
    `canary_environment`."""
    policy = approved(*approvals) if approvals else load_policy()
    return policy.evaluate(line, workspace=str(workspace), env=canary_environment(workspace))


def assert_local_image_asks(line: str, workspace: Path, approval: str) -> None:
    """`line` names a local image (an archive, a folder, the image store: a file that can
    carry code for the engine to run) and so is not allowed under `approval`, for that
    reason (`engine.container-local-image`), and offers no approval of its own."""
    decision = judge(line, workspace, approval)
    assert decision.verdict is not Verdict.ALLOW, line
    assert any(r.rule_id == "engine.container-local-image" for r in decision.reasons), line
    assert judge(line, workspace).suggested_rule is None, line


def copy_workspace(tmp_path: Path) -> Path:
    """A workspace beside a fake home, with `cfg/tasks.json` (a payload a line copies) and
    an empty `x/` (where links lead): reviews CM and CN."""
    (tmp_path / "home").mkdir()
    workspace = tmp_path / "ws"
    (workspace / "cfg").mkdir(parents=True)
    (workspace / "cfg" / "tasks.json").write_text('{"PWNED": 1}\n')
    (workspace / "x").mkdir()
    return workspace


def bash_ran(line: str, workspace: Path, env: dict[str, str] | None = None) -> None:
    """Run `line` with a real bash in `workspace` (`canary_environment` by default); it
    must succeed."""
    subprocess.run(["bash", "-c", line], cwd=workspace, check=True, capture_output=True,
                   env=env or canary_environment(workspace))


REPOSITORY = Path(__file__).resolve().parents[3]


def aws_secret(tmp_path: Path) -> Path:
    """`home/.aws/credentials` in the fake home beside the workspace, holding a test key."""
    secret = tmp_path / "home" / ".aws" / "credentials"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text("aws_secret_access_key=AKIASECRET\n")
    return secret


def as_nobody(script: str) -> str:
    """What the Python `script` prints, run by an account that permissions hold (`nobody`
    where the tests run as root, through the real `setpriv`; the tests' own otherwise),
    with this checkout's policylang and no policy snapshots."""
    command = [sys.executable, "-c", script]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    env = {"PYTHONPATH": str(REPOSITORY), "PATH": "/usr/bin:/bin", "HOME": "/nonexistent",
           "POLICYLANG_SNAPSHOTS": "0"}  # fmt: skip
    done = subprocess.run(
        command, cwd="/", env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def env_beside(tmp_path: Path, **more: str) -> dict[str, str]:
    """The environment of a line judged and run in `tmp_path/ws`: the fake home beside
    it, the system's PATH, and `more` (the variables a review's attack sets)."""
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", **more}


def canary_workspace(
    tmp_path: Path,
    dotenv: str | None,
    files: dict[str, str] | None = None,
    path: str = "/usr/bin:/bin",
    home: dict[str, str] | None = None,
    **more: str,
) -> tuple[Path, dict[str, str]]:
    """The review tests' workspace `tmp_path/ws`, holding `.env` with the text `dotenv`
    (the canary a line must not print; None: no `.env`) and `files` (name: text), beside
    the fake home `tmp_path/home` holding `home` (name: text); and the environment of a
    line judged or run there: that HOME, PATH `path` and `more`."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    written = {workspace / name: text for name, text in (files or {}).items()}
    written.update({tmp_path / "home" / name: text for name, text in (home or {}).items()})
    if dotenv is not None:
        written[workspace / ".env"] = dotenv
    for file, text in written.items():
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text)
    return workspace, env_beside(tmp_path, PATH=path, **more)


def program_printed(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 120
) -> str:
    """What the real program `args` printed run in `cwd` (both streams), with `env` (this
    process's own environment when None)."""
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    return done.stdout + done.stderr


def run_printed(line: str, workspace: Path, env: dict[str, str], timeout: int = 60) -> str:
    """What a real bash printed running `line` in `workspace` with `env` (both streams)."""
    return program_printed(["bash", "-c", line], workspace, env, timeout)


def default_verdict(line: str, workspace: Path, env: dict[str, str]) -> Verdict:
    """The default policy's verdict on `line` in `workspace` with `env`."""
    return load_policy().evaluate(line, workspace=str(workspace), env=env).verdict


def decide(
    line: str, workspace: Path, env: dict[str, str], *approvals: str, cwd: Path | None = None
) -> Decision:
    """The default policy's decision on `line` in `workspace` (or `cwd`) with `env`
    (`approvals` added in memory)."""
    policy = load_policy()
    for rule in approvals:
        policy.approvals.add(rule, persist=False)
    return policy.evaluate(line, workspace=str(workspace), cwd=str(cwd or workspace), env=env)


def workspace_judge(tmp_path: Path) -> Callable[..., Decision]:
    """A judge of lines in a fresh workspace `tmp_path/ws` beside the fake home
    `tmp_path/home` (`env_beside`): `judge(line, approvals=())` is the default policy's
    decision there, the approvals added in memory."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "home").mkdir()
    env = env_beside(tmp_path)

    def judge_there(command: str, approvals: tuple[str, ...] = ()) -> Decision:
        return decide(command, workspace, env, *approvals)

    return judge_there


# the npm-family programs the review tests run for real: yarn 1, berry (yarn 4), pnpm 9 and
# 10, which `scripts/real-tools.sh` (run by `make test`) installs into build/real-tools or
# $POLICYLANG_REAL_TOOLS; their premise checks skip where these are absent (no node, no
# registry), and the engine's verdicts are asserted everywhere
NODE = shutil.which("node")
NPM_TOOLS = Path(
    os.environ.get("POLICYLANG_REAL_TOOLS")
    or Path(__file__).resolve().parents[3] / "build" / "real-tools"
)
#: programs to put first on a PATH: `pnpm` (pnpm 10) and `yarn` (yarn 1)
REAL_BIN = NPM_TOOLS / "bin"
YARN1 = NPM_TOOLS / "node_modules" / "yarn" / "bin" / "yarn.js"
BERRY = NPM_TOOLS / "berry" / "node_modules" / "@yarnpkg" / "cli-dist" / "bin" / "yarn.js"
PNPMS = tuple(
    path
    for path in (
        NPM_TOOLS / "node_modules" / "pnpm" / "bin" / "pnpm.cjs",
        NPM_TOOLS / "p10" / "node_modules" / "pnpm" / "bin" / "pnpm.cjs",
    )
    if NODE is not None and path.exists()
)


def node_tool(path: Path) -> bool:
    """Whether the node program at `path` can run here."""
    return NODE is not None and path.exists()


def yarn_env(env: dict[str, str], **more: str) -> dict[str, str]:
    """`env` for a real yarn: no telemetry, no `yarnPath` of the project's."""
    return {**env, "YARN_ENABLE_TELEMETRY": "0", "YARN_IGNORE_PATH": "1", **more}


def npm_modules(variable: str, *needed: str) -> Path | None:
    """The node_modules folder holding `needed` (a program the review tests run for real,
    such as grunt-cli or jake): `$variable`'s, else `NPM_TOOLS`'s; None where absent (the
    premise checks then skip)."""
    for candidate in (os.environ.get(variable), NPM_TOOLS / "node_modules"):
        if candidate and all((Path(candidate) / name).exists() for name in needed):
            return Path(candidate)
    return None


GRUNT_MODULES = npm_modules("POLICYLANG_GRUNT_MODULES", "grunt-cli/bin/grunt", "grunt")
JAKE_MODULES = npm_modules("POLICYLANG_JAKE_MODULES", "jake/bin/cli.js")
