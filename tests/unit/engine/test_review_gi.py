"""Review GI1, GI2: an approved `mypy` (offered for `mypy .`), `pylint` or `flake8` ran
the code its committed configuration names: mypy's `plugins = evil.py` in `mypy.ini`
imported the repository's Python, which printed `.env`; pylint's `init-hook` is executed
and its `load-plugins` imported; flake8's `[flake8:local-plugins]` imports a module of the
repository. An approved checker now asks where a configuration file it reads (in the
folder or above it) sets anything but the settings known harmless, or where the line
names another configuration, interpreter or output file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from realrun import canary_environment, canary_workspace, git_out, judge, program_printed

from policylang import Verdict

CANARY = "canary-GI-env-42"
MYPY = Path(sys.executable).parent / "mypy"
EVIL = """print("PWNED:", open(".env").read())


def plugin(version):
    from mypy.plugin import Plugin

    return Plugin
"""


def _workspace(tmp_path: Path) -> Path:
    workspace, _ = canary_workspace(tmp_path, f"SECRET={CANARY}\n", {"app.py": "x = 1\n"})
    git_out(workspace, "init", "-q")
    return workspace


def _asks(line: str, workspace: Path, *approvals: str) -> None:
    decision = judge(line, workspace, *approvals)
    assert decision.verdict is Verdict.ASK, (line, decision.explain())
    assert "engine.linter-config" in decision.explain(), line


@pytest.mark.skipif(not MYPY.exists(), reason="mypy is not installed beside this Python")
@pytest.mark.parametrize(
    ("config", "text"),
    [("mypy.ini", "[mypy]\nplugins = evil.py\n"),
     ("setup.cfg", "[metadata]\nname = x\n[mypy]\nplugins = evil.py\n"),
     ("pyproject.toml", '[tool.mypy]\nplugins = ["evil.py"]\n')],
)  # fmt: skip
def test_mypy_runs_the_plugin_its_configuration_names(
    tmp_path: Path, config: str, text: str
) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "evil.py").write_text(EVIL)
    (workspace / config).write_text(text)
    printed = program_printed([str(MYPY), "--no-incremental", "app.py"], workspace,
                              canary_environment(workspace))  # fmt: skip
    assert CANARY in printed  # (the premise: the plugin ran)
    assert judge("mypy app.py", workspace).suggested_rule is None
    for line in ("mypy .", "mypy app.py", "mypy --strict ."):
        _asks(line, workspace, "mypy")
    _asks("python3 -m mypy .", workspace, "python3 -m mypy")
    _asks("dmypy run -- .", workspace, "dmypy run")
    (workspace / "sub").mkdir()
    decision = judge("cd sub && mypy ../app.py", workspace, "mypy")  # (the folder above)
    assert decision.verdict is Verdict.ASK


def test_an_ordinary_mypy_configuration_stays_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "mypy.ini").write_text(
        "[mypy]\nstrict = True\nignore_missing_imports = True\npython_version = 3.11\n"
        "warn_unused_configs = True\nexclude = build/\n\n"
        "[mypy-tests.*]\ndisallow_untyped_defs = False\nallow_untyped_calls = True\n"
    )
    (workspace / "pyproject.toml").write_text(
        '[tool.mypy]\nplugins = ["pydantic.mypy"]\nstrict = true\n\n'
        '[[tool.mypy.overrides]]\nmodule = "vendor.*"\nignore_errors = true\n'
    )
    assert judge("mypy app.py", workspace).suggested_rule == "mypy"
    for line in ("mypy .", "mypy --strict app.py"):
        assert judge(line, workspace, "mypy").verdict is Verdict.ALLOW, line
    # (`python -m` puts this folder on `sys.path`, where `pydantic/` would be the repository's)
    _asks("python3 -m mypy .", workspace, "python3 -m mypy")


@pytest.mark.skipif(not MYPY.exists(), reason="mypy is not installed beside this Python")
def test_mypy_files_setting_picks_files_it_prints(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "src").mkdir()
    (workspace / "src" / "notes.txt").write_text(f"TOKEN = {CANARY} x\n")
    (workspace / "mypy.ini").write_text("[mypy]\nfiles = src/*\npretty = True\n")
    done = subprocess.run([str(MYPY), "--no-incremental"], cwd=workspace, capture_output=True,
                          text=True, env=canary_environment(workspace), timeout=120,
                          check=False)  # fmt: skip
    assert CANARY in done.stdout  # (the premise: a syntax error prints the line)
    _asks("mypy", workspace, "mypy")
    (workspace / "mypy.ini").write_text("[mypy]\nfiles = src, app.py\nmypy_path = stubs\n")
    assert judge("mypy", workspace, "mypy").verdict is Verdict.ALLOW


@pytest.mark.parametrize(
    "setting",
    ["files = .env", "mypy_path = ../other", "python_executable = ./py", "cache_dir = /tmp/c",
     "html_report = out", "install_types = True", "no_install_types = False",
     "plugins = mypy_django_plugin.main"],
)  # fmt: skip
def test_mypy_settings_that_read_write_or_run_ask(tmp_path: Path, setting: str) -> None:
    workspace = _workspace(tmp_path)
    (workspace / ".mypy.ini").write_text(f"[mypy]\n{setting}\n")
    _asks("mypy .", workspace, "mypy")


@pytest.mark.parametrize(
    "line",
    ["mypy @args.txt", "mypy --junit-xml=out.xml .", "mypy --cache-dir=/tmp/c .",
     "mypy --html-report out .", "mypy --shadow-file app.py .env app.py"],
)  # fmt: skip
def test_mypy_options_that_do_the_same_ask(tmp_path: Path, line: str) -> None:
    workspace = _workspace(tmp_path)
    assert judge(line, workspace, "mypy").verdict is Verdict.ASK


@pytest.mark.parametrize(
    ("config", "text"),
    [(".pylintrc", "[MASTER]\ninit-hook='print(open(\".env\").read())'\n"),
     ("pylintrc", "[MAIN]\nload-plugins=evil\n"),
     ("pyproject.toml", '[tool.pylint.main]\nload-plugins = ["evil"]\n'),
     ("setup.cfg", "[pylint.main]\ninit-hook = import evil\n"),
     ("tox.ini", "[pylint.reports]\noutput-format = evil.Reporter\n"),
     ("pylintrc", "[MAIN]\nevaluation = __import__('os').system('id')\n")],
)  # fmt: skip
def test_pylint_runs_the_code_its_configuration_names(
    tmp_path: Path, config: str, text: str
) -> None:
    """(suspected: pylint is not installed here; `init-hook` is executed, `load-plugins`
    and a dotted `output-format` imported, `evaluation` evaluated, by pylint's documentation)"""
    lines = ("pylint app.py", "pylint .")
    _configured_code_asks(_workspace(tmp_path), config, text, lines, "python3 -m pylint app.py")


def _configured_code_asks(
    workspace: Path, config: str, text: str, lines: tuple[str, ...], module_line: str
) -> None:
    """With `config` (`text`) beside the repository's `evil.py`, the checker of `lines`
    gets no offer, and `lines` (`module_line`: the checker under `python3 -m`) ask under
    its approval."""
    checker = lines[0].split()[0]
    (workspace / "evil.py").write_text(EVIL)
    (workspace / config).write_text(text)
    assert judge(f"{checker} app.py", workspace).suggested_rule is None
    for line in lines:
        _asks(line, workspace, checker)
    _asks(module_line, workspace, f"python3 -m {checker}")


def test_a_generated_pylintrc_stays_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "pylintrc").write_text(
        "[MAIN]\nload-plugins=pylint.extensions.docparams\nextension-pkg-allow-list=\n"
        "unsafe-load-any-extension=no\njobs=1\n\n[REPORTS]\nevaluation=max(0, 0 if fatal "
        "else 10.0 - ((float(5 * error + warning + refactor + convention) / statement) * 10))\n"
        "output-format=text\nreports=no\n\n[BASIC]\ngood-names=i,j,k\n[FORMAT]\n"
        "max-line-length=100\n"
    )
    assert judge("pylint app.py", workspace).suggested_rule == "pylint"
    for line in ("pylint app.py", "pylint -f json app.py", "pylint --output-format=colorized ."):
        assert judge(line, workspace, "pylint").verdict is Verdict.ALLOW, line
    for line in ("pylint -f evil.Reporter app.py", "pylint --output=out.txt app.py",
                 "pylint --output-format=json:out.json app.py"):  # fmt: skip
        assert judge(line, workspace, "pylint").verdict is Verdict.ASK, line


@pytest.mark.parametrize(
    ("config", "text"),
    [("tox.ini", "[flake8:local-plugins]\nextension =\n  X = evil:Plugin\npaths = ./\n"),
     (".flake8", "[flake8]\nfilename = *.py,.env\nshow-source = true\n"),
     ("setup.cfg", "[flake8]\nappend-config = ../other.cfg\n"),
     ("setup.cfg", "[flake8\n")],
)  # fmt: skip
def test_flake8_runs_the_plugins_its_configuration_names(
    tmp_path: Path, config: str, text: str
) -> None:
    """(suspected: flake8 is not installed here; `[flake8:local-plugins]` imports the
    module `paths` makes importable, by flake8's documentation; an unparseable file asks)"""
    lines = ("flake8", "flake8 .")
    _configured_code_asks(_workspace(tmp_path), config, text, lines, "python3 -m flake8 .")


def test_an_ordinary_flake8_configuration_stays_approved(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    (workspace / "setup.cfg").write_text(
        "[metadata]\nname = x\n\n[flake8]\nmax-line-length = 100\nexclude = .git,build\n"
        "extend-ignore = E203\nper-file-ignores =\n  __init__.py: F401\n"
    )
    assert judge("flake8 app.py", workspace).suggested_rule == "flake8"
    assert judge("flake8 .", workspace, "flake8").verdict is Verdict.ALLOW
    for line in ("flake8 --append-config x.cfg .", "flake8 --output-file=out .",
                 "flake8 --filename=*.txt ."):  # fmt: skip
        assert judge(line, workspace, "flake8").verdict is Verdict.ASK, line
