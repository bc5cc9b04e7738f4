"""Review HQ (of fixers BU's and BV's changes).

HQ1-HQ6: BU let a line of help or version words keep an exact offer where the arity
names a verb (for `devcontainer --help`). That offered `poetry --version $` (real poetry
2.5 runs `.poetry/plugins/*.pth` before it reads an option), `hardhat --help $` (loads
`hardhat.config.js`), `nx --help $` and `turbo --version $` (hand off to the
workspace's own copy), `rails --help $` (runs `bin/rails`) and `vagrant --help $`
(evaluates the Vagrantfile): each approval ran project code. They are offered nothing.
HQ7: skopeo takes options after its operands, so the last word holding a `:` was not its
destination: `skopeo copy oci-archive:x containers-storage:y --src-creds u:p` copied a
workspace archive into podman's storage (its annotations then reach crun) under the
offered `skopeo copy`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from realrun import canary_workspace, decide

from policylang import Verdict

_PROJECT = {
    "pyproject.toml": "[tool.poetry]\nname = 'x'\n",
    ".poetry/plugins/x.pth": "import os\n",
    "hardhat.config.js": "module.exports = {}\n",
    "nx.json": "{}\n",
    "turbo.json": "{}\n",
    "package.json": '{"name": "x"}\n',
    "bin/rails": "APP_PATH = 1\n",
    "Vagrantfile": "Vagrant.configure('2') {}\n",
}


@pytest.mark.parametrize(
    "line",
    [
        "poetry --version",
        "poetry -V",
        "poetry --help",
        "hardhat --help",
        "nx --help",
        "turbo --version",
        "turbo -h",
        "rails --version",
        "rails --help",
        "vagrant --help",
        "vagrant -h",
        "devcontainer --help",
    ],
)
def test_hq1_6_help_lines_of_verb_programs_are_offered_nothing(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, "TOKEN=hq-canary", _PROJECT)
    decision = decide(line, workspace, env)
    assert decision.verdict is Verdict.ASK
    assert decision.suggested_rule is None


@pytest.mark.parametrize(
    "line",
    [
        "skopeo copy oci-archive:img.tar containers-storage:localhost/x:1 --src-creds u:p",
        "skopeo copy oci-archive:img.tar containers-storage:localhost/x --dest-creds u:p",
        "skopeo copy dir:img containers-storage:localhost/x --additional-tag a:b",
        "skopeo copy --src-creds=u:p docker-archive:x.tar containers-storage:y --dest-creds x:y",
        "skopeo copy oci-archive:img.tar \"$DEST\"",
    ],
)
def test_hq7_skopeo_options_after_operands(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"img.tar": "x"})
    decision = decide(line, workspace, env, "skopeo copy")
    assert decision.verdict is Verdict.ASK
    assert "engine.container-local-image" in {r.rule_id for r in decision.reasons}


@pytest.mark.parametrize(
    "line",
    [
        "skopeo copy containers-storage:localhost/a oci-archive:out.tar",
        "skopeo copy docker://docker.io/library/alpine containers-storage:alpine --src-creds u:p",
        "skopeo copy oci-archive:img.tar docker://registry.example/x --dest-creds u:p",
    ],
)
def test_hq7_guards_keep_the_approval(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, None, {"img.tar": "x"})
    assert decide(line, workspace, env, "skopeo copy").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "line",
    [
        "pytest --help",
        "py.test -h",
        "scons --help",
        "grunt --help",
        "jest --help",
        "hardhat --version",
        "nx --help",
        "poetry --version",
        "tox --version",
        "pdm --version",
    ],
)
def test_hq_help_lines_that_load_the_project_are_offered_nothing(
    tmp_path: Path, line: str
) -> None:
    # found by review HQ beside BU's change: these were offered exactly (`pytest --help
    # $`), and their help (or version) loads the project's code (conftest.py, SConstruct,
    # Gruntfile, project plugins)
    workspace, env = canary_workspace(tmp_path, None, _PROJECT)
    assert decide(line, workspace, env).suggested_rule is None


@pytest.mark.parametrize("line", ["pytest --version", "scons --version", "flask --version"])
def test_hq_version_lines_that_load_nothing_keep_their_offer(tmp_path: Path, line: str) -> None:
    workspace, env = canary_workspace(tmp_path, None, _PROJECT)
    assert decide(line, workspace, env).suggested_rule == f"{line} $"


def test_hq_premise_pytest_help_imports_conftest(tmp_path: Path) -> None:
    # the premise, with the pytest that runs this suite: `--help` imports the
    # project's conftest.py, `--version` does not
    marker = tmp_path / "ran"
    (tmp_path / "conftest.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    for option, runs in (("--version", False), ("--help", True)):
        subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", option],
            cwd=tmp_path,
            capture_output=True,
            timeout=120,
            check=False,
        )
        assert marker.exists() is runs, option
