"""Review GG: launchers that run the program a project file names, under approvals.

GG1: uv runs the interpreter a `.python-version` path names (`uv python find`, `uv tree`),
pdm the one `.pdm-python` names (`pdm info`, `pdm list`). GG2: yarn runs the release
`.yarnrc.yml`'s `yarnPath` (`.yarnrc`'s `yarn-path`) names in place of itself, so an
approved `yarn info` ran the repository's JS. GG3: corepack's shims download and run the
`packageManager` a project names (a URL, once `.corepack.env` lifts corepack's refusal),
and the engine still offered `yarn info`. GG4: Maven starts its JVM with `.mvn/jvm.config`
(`-javaagent:`). GG5: bazelisk runs a workspace's `tools/bazel` in place of Bazel.

Each such file asks under an approval of the tool (and withdraws the suggestion); the
real programs run where installed (uv and yarn 1 from `scripts/real-tools.sh`, a pdm there if any,
the system's mvn, javac and corepack): the engine's verdicts are asserted always."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from realrun import REAL_BIN, canary_workspace, decide, run_printed

from policylang import Verdict

_REVIEW_BIN = REAL_BIN
_COREPACK_DIST = Path("/usr/lib/node_modules/corepack/dist")
_PAYLOAD = "#!/bin/sh\ntouch \"$(dirname \"$0\")/../PWNED\"\nexec /usr/bin/python3 \"$@\"\n"


def _workspace(tmp_path: Path, path: str = "/usr/bin:/bin") -> tuple[Path, dict[str, str]]:
    return canary_workspace(tmp_path, "SECRET=CANARY_ENV_GG\n", path=path)


def _run(line: str, workspace: Path, env: dict[str, str]) -> str:
    return run_printed(line, workspace, env, timeout=180)


def _verdict(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> Verdict:
    return decide(line, workspace, env, *approvals).verdict


def _unsuggested(line: str, workspace: Path, env: dict[str, str]) -> None:
    """Bare, `line` asks without offering an approval that would let it through."""
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None, decision.suggested_rule


def _python_project(workspace: Path) -> None:
    (workspace / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0.1"\nrequires-python = ">=3.8"\n'
    )
    (workspace / "tools").mkdir()
    (workspace / "tools" / "python").write_text(_PAYLOAD)
    (workspace / "tools" / "python").chmod(0o755)


# -- GG1 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pin", ["tools/python", "./tools/python", "{ws}/tools/python"])
def test_uv_python_version_path_asks_under_approval(tmp_path: Path, pin: str) -> None:
    workspace, env = _workspace(tmp_path, f"{_REVIEW_BIN}:/usr/bin:/bin")
    _python_project(workspace)
    (workspace / ".python-version").write_text(pin.format(ws=workspace) + "\n")
    uv = _REVIEW_BIN / "uv"
    if uv.exists():  # the reviewer's uv: the project's interpreter runs
        _run("uv python find", workspace, env)
        assert (workspace / "PWNED").exists()
    assert _verdict("uv python find", workspace, env, "uv python") is Verdict.ASK
    assert _verdict("uv tree --offline", workspace, env, "uv tree") is Verdict.ASK
    _unsuggested("uv python find", workspace, env)
    (workspace / "sub").mkdir()
    assert decide("uv tree", workspace, env, "uv tree", cwd=workspace / "sub").verdict is (
        Verdict.ASK
    )


def test_uv_python_version_number_is_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _python_project(workspace)
    (workspace / ".python-version").write_text("3.11\n")
    assert _verdict("uv python find", workspace, env, "uv python") is Verdict.ALLOW
    # (a project's `uv tree` runs its build backend: no offer, review GP8)
    assert decide("uv sync", workspace, env).suggested_rule == "uv sync"


def test_pdm_python_in_the_workspace_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path, f"{_REVIEW_BIN}:/usr/bin:/bin")
    _python_project(workspace)
    (workspace / ".pdm-python").write_text(f"{workspace}/tools/python")
    if (_REVIEW_BIN / "pdm").exists():  # the reviewer's pdm
        _run("pdm info", workspace, env)
        assert (workspace / "PWNED").exists()
    assert _verdict("pdm info", workspace, env, "pdm info") is Verdict.ASK
    assert _verdict("pdm list", workspace, env, "pdm list") is Verdict.ASK
    _unsuggested("pdm list", workspace, env)
    (workspace / ".pdm-python").write_text("tools/python")  # (relative: asks too)
    assert _verdict("pdm info", workspace, env, "pdm info") is Verdict.ASK


@pytest.mark.parametrize("interpreter", ["/usr/bin/python3", "{ws}/.venv/bin/python"])
def test_pdm_python_of_the_machine_is_allowed(tmp_path: Path, interpreter: str) -> None:
    workspace, env = _workspace(tmp_path)
    _python_project(workspace)
    (workspace / ".pdm-python").write_text(interpreter.format(ws=workspace) + "\n")
    assert _verdict("pdm list", workspace, env, "pdm list") is Verdict.ALLOW


# -- GG2 ---------------------------------------------------------------------------------
def _yarn_project(workspace: Path) -> None:
    (workspace / "package.json").write_text(
        '{"name": "x", "version": "1.0.0", "scripts": {"build": "true"}}\n'
    )
    (workspace / "evil.js").write_text(
        'require("fs").writeFileSync(require("path").join(__dirname, "PWNED"), "x");\n'
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [(".yarnrc.yml", "yarnPath: ./evil.js\n"), (".yarnrc", 'yarn-path "./evil.js"\n')],
)
def test_yarn_path_asks_under_approval(tmp_path: Path, name: str, text: str) -> None:
    workspace, env = _workspace(tmp_path, f"{_REVIEW_BIN}:/usr/bin:/bin")
    _yarn_project(workspace)
    (workspace / name).write_text(text)
    if (_REVIEW_BIN / "yarn").exists() and shutil.which("node"):  # the reviewer's yarn 1
        _run("yarn config get registry", workspace, env)
        assert (workspace / "PWNED").exists()
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ASK
    assert _verdict("yarn config get registry", workspace, env, "yarn config get") is Verdict.ASK
    assert _verdict("yarnpkg list", workspace, env, "yarnpkg list") is Verdict.ASK
    assert _verdict("yarn --cwd sub list", workspace, env, "yarn") is Verdict.ASK
    _unsuggested("yarn info react", workspace, env)
    # the project's own script runs under that approval anyway: no new question
    assert _verdict("yarn build", workspace, env, "yarn build") is Verdict.ALLOW


def test_yarn_without_a_release_is_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _yarn_project(workspace)
    (workspace / ".yarnrc.yml").write_text("nodeLinker: node-modules\n")
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ALLOW


# -- GG3 ---------------------------------------------------------------------------------
@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """An HTTP server on the loopback serving a yarn "release" that marks the workspace."""
    root = tmp_path / "srv"
    root.mkdir()
    (root / "evil.js").write_text(
        'require("fs").writeFileSync(require("path").join(process.cwd(), "PWNED"), "x");\n'
    )
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/evil.js"
    finally:
        server.shutdown()
        server.server_close()


def _corepack_shims(tmp_path: Path) -> Path:
    shims = tmp_path / "cpbin"
    shims.mkdir()
    for name in ("yarn", "pnpm"):
        os.symlink(_COREPACK_DIST / f"{name}.js", shims / name)
    return shims


def test_corepack_custom_url_asks_under_approval(tmp_path: Path, served: str) -> None:
    shims = _corepack_shims(tmp_path)
    workspace, env = _workspace(tmp_path, f"{shims}:/usr/bin:/bin")
    (workspace / "package.json").write_text(f'{{"name": "x", "packageManager": "yarn@{served}"}}\n')
    (workspace / ".corepack.env").write_text("COREPACK_ENABLE_UNSAFE_CUSTOM_URLS=1\n")
    if (_COREPACK_DIST / "yarn.js").exists() and shutil.which("node"):
        _run("yarn info react", workspace, {**env, "COREPACK_ENABLE_DOWNLOAD_PROMPT": "0"})
        assert (workspace / "PWNED").exists()
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ASK
    assert _verdict("yarn config get registry", workspace, env, "yarn config get") is Verdict.ASK
    assert _verdict("pnpm list", workspace, env, "pnpm list") is Verdict.ASK
    _unsuggested("yarn info react", workspace, env)
    _unsuggested("pnpm list", workspace, env)


def test_corepack_registry_release_is_allowed(tmp_path: Path) -> None:
    shims = _corepack_shims(tmp_path)
    workspace, env = _workspace(tmp_path, f"{shims}:/usr/bin:/bin")
    (workspace / "package.json").write_text('{"name": "x", "packageManager": "yarn@1.22.22"}\n')
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ALLOW


def test_version_manager_shim_with_a_pin_asks_under_approval(tmp_path: Path) -> None:
    shims = tmp_path / "mise" / "shims"
    shims.mkdir(parents=True)
    (shims / "yarn").write_text("#!/bin/sh\n")
    (shims / "yarn").chmod(0o755)
    workspace, env = _workspace(tmp_path, f"{shims}:/usr/bin:/bin")
    (workspace / "package.json").write_text('{"name": "x"}\n')
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ALLOW
    (workspace / ".tool-versions").write_text("nodejs 20.1.0\nyarn 1.22.22\n")
    (workspace / ".nvmrc").write_text("lts/iron\n")
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ALLOW
    (workspace / ".tool-versions").write_text("yarn path:./.tools\n")
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ASK
    _unsuggested("yarn info react", workspace, env)


# -- GG4 ---------------------------------------------------------------------------------
def _agent_jar(workspace: Path) -> bool:
    """A java agent that marks the workspace, built with the JDK (False: none here)."""
    javac, jar = shutil.which("javac"), shutil.which("jar")
    if javac is None or jar is None:
        return False
    source = workspace.parent / "agent"
    source.mkdir()
    (source / "Agent.java").write_text(
        "public class Agent { public static void premain(String a) throws Exception {\n"
        f'  new java.io.File("{workspace}/PWNED").createNewFile(); }} }}\n'
    )
    (source / "m.txt").write_text("Premain-Class: Agent\n")
    subprocess.run([javac, "Agent.java"], cwd=source, check=True, capture_output=True)
    subprocess.run(
        [jar, "cfm", str(workspace / "agent.jar"), "m.txt", "Agent.class"],
        cwd=source, check=True, capture_output=True,
    )  # fmt: skip
    return True


def _maven_project(workspace: Path) -> None:
    (workspace / "pom.xml").write_text(
        "<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId>"
        "<artifactId>x</artifactId><version>1</version></project>\n"
    )
    (workspace / ".mvn").mkdir()


def test_maven_jvm_config_agent_asks_under_approval(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _maven_project(workspace)
    (workspace / ".mvn" / "jvm.config").write_text("-Xmx1g -javaagent:agent.jar\n")
    if shutil.which("mvn") and _agent_jar(workspace):
        _run("mvn -o -q validate", workspace, env)
        assert (workspace / "PWNED").exists()
    for goal in ("dependency:tree", "help:help", "validate"):
        assert _verdict(f"mvn {goal}", workspace, env, f"mvn {goal}") is Verdict.ASK
        _unsuggested(f"mvn {goal}", workspace, env)
    # a build runs the project's code under its approval anyway
    assert _verdict("mvn test", workspace, env, "mvn test") is Verdict.ALLOW


@pytest.mark.parametrize(
    ("name", "text"),
    [("extensions.xml", "<extensions/>\n"), ("maven.config", "-Dmaven.ext.class.path=x.jar\n")],
)
def test_maven_config_that_loads_code_asks(tmp_path: Path, name: str, text: str) -> None:
    workspace, env = _workspace(tmp_path)
    _maven_project(workspace)
    (workspace / ".mvn" / name).write_text(text)
    assert _verdict("mvn help:help", workspace, env, "mvn help:help") is Verdict.ASK


def test_maven_memory_settings_are_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    _maven_project(workspace)
    (workspace / ".mvn" / "jvm.config").write_text(
        "-Xmx2g -Xss4m -XX:+UseG1GC --add-opens java.base/java.lang=ALL-UNNAMED\n"
    )
    (workspace / ".mvn" / "maven.config").write_text("-B -ntp -T 1C\n")
    assert _verdict("mvn dependency:tree", workspace, env, "mvn dependency:tree") is (
        Verdict.ALLOW
    )


# -- GG5 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("tools/bazel", "#!/bin/sh\n"),
        ("tools/bazel.linux-x86_64", "#!/bin/sh\n"),
        (".bazeliskrc", "BAZELISK_BASE_URL=http://127.0.0.1:1/\n"),
        (".bazelversion", "someone/7.1.0\n"),
        (".bazelrc", "startup --host_jvm_args=-javaagent:agent.jar\n"),
    ],
)
def test_bazel_wrapper_asks_under_approval(tmp_path: Path, name: str, text: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "MODULE.bazel").write_text("")
    (workspace / name).parent.mkdir(exist_ok=True)
    (workspace / name).write_text(text)
    for verb in ("version", "info", "help"):
        assert _verdict(f"bazel {verb}", workspace, env, f"bazel {verb}") is Verdict.ASK
    assert _verdict("bazelisk version", workspace, env, "bazelisk version") is Verdict.ASK
    _unsuggested("bazel version", workspace, env)


def test_bazel_plain_workspace_is_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "MODULE.bazel").write_text("")
    (workspace / ".bazelversion").write_text("7.1.0\n")
    (workspace / ".bazelrc").write_text("build --jobs=4\n")
    assert _verdict("bazel version", workspace, env, "bazel version") is Verdict.ALLOW
    (workspace / "tools").mkdir()
    (workspace / "tools" / "bazel").write_text("#!/bin/sh\n")
    assert _verdict("bazel build x", workspace, env, "bazel build") is Verdict.ALLOW
