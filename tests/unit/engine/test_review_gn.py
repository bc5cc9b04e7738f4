"""Review GN, of the launcher and checker fixes of reviews GK and GM.

GN1: npm takes every configuration key as a line option: `npm view x --registry=http://
registry.npmjs.org/ --proxy=http://HOST/` sent the token of the user's `~/.npmrc` (chosen
by the registry's host name, whatever the scheme) through the line's proxy, under the
approval of `npm view` the engine offers. GN2: an https repository in the pom serves a
parent pom (`<relativePath/>`) that chooses plugins and their repositories. GN3: mypy
searches from a file operand's package base, the folder above its `__init__.py` chain
(`mypy .hidden/pkg/a.py` imported `.hidden/leak.py`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from realrun import canary_workspace, decide, program_printed

from policylang import Verdict

_MYPY = Path(sys.executable).parent / "mypy"


def _workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    files = {"app.py": "x = 1\n", "package.json": '{"name": "x", "version": "1.0.0"}\n'}
    return canary_workspace(tmp_path, "canaryGN\n", files)


@pytest.mark.parametrize(
    "line",
    [
        "npm view lodash --registry=http://registry.npmjs.org/ --proxy=http://127.0.0.1:9/",
        "npm view lodash --https-proxy http://127.0.0.1:9/ --strict-ssl=false",
        "npm view lodash --ca=x",
        "npm view lodash --reg=http://127.0.0.1:9/",
        "npm view lodash -reg http://127.0.0.1:9/",
    ],
)
def test_gn1_npm_settings_on_the_line_ask(tmp_path: Path, line: str) -> None:
    workspace, env = _workspace(tmp_path)
    offered = decide("npm view lodash", workspace, env).suggested_rule
    assert offered is not None
    assert decide(line, workspace, env, offered).verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("npm view lodash version --json", "npm view"),
        ("npm ls --depth=0", "npm ls"),
        ("npm ls --all --json -g", "npm ls"),
        ("npm outdated --json", "npm outdated"),
    ],
)
def test_gn1_display_options_stay_approved(tmp_path: Path, line: str, approval: str) -> None:
    workspace, env = _workspace(tmp_path)
    assert decide(line, workspace, env, approval).verdict is Verdict.ALLOW


def test_gn2_any_repository_of_the_pom_asks(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    pom = (
        '<project><modelVersion>4.0.0</modelVersion><parent><groupId>e</groupId>'
        "<artifactId>p</artifactId><version>1</version><relativePath/></parent>"
        "<artifactId>x</artifactId>{}</project>"
    )
    (workspace / "pom.xml").write_text(pom.format(""))
    assert decide("mvn dependency:tree", workspace, env, "mvn dependency:tree").verdict is (
        Verdict.ALLOW
    )  # (a parent from the user's own repositories)
    repository = "<repositories><repository><id>c</id><url>https://127.0.0.1:9/m2</url>"
    (workspace / "pom.xml").write_text(pom.format(repository + "</repository></repositories>"))
    for line in ("mvn dependency:tree", "mvn clean", "mvn validate"):
        assert decide(line, workspace, env, line).verdict is Verdict.ASK, line


def test_gn3_mypy_searches_a_file_operands_package_base(tmp_path: Path) -> None:
    workspace, env = _workspace(tmp_path)
    package = workspace / ".hidden" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("import leak\n")
    (workspace / ".hidden" / "leak.py").symlink_to("../.env")
    if _MYPY.exists():
        printed = program_printed([str(_MYPY), "--no-incremental", ".hidden/pkg/a.py"], workspace)
        assert "canaryGN" in printed
    decision = decide("mypy .hidden/pkg/a.py", workspace, env, "mypy")
    assert decision.verdict is not Verdict.ALLOW, decision.explain()
