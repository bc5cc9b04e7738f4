"""The compiled engine (`policylang._native`): the same decisions as its source, and never
a stale build.

`make test` builds the compiled engine first, so the rest of the suite runs against it;
these tests hold the two builds to each other: every corpus and golden line decided by
both, the source's own builders, and the choice made at import.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from policylang import _native
from policylang.engine.cases import read_cases

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
GOLDEN = sorted((ROOT / "tests" / "golden" / "commands").glob("*.tsv"))

# prints, for each command line on stdin (JSON strings), what decides it
# (with an argument: in that workspace, a real one, in this process's environment)
_DECIDE = r"""
import json, os, sys
import policylang
from policylang.engine.context import EvalContext
from policylang.engine.policy import EXPECTATION_CONTEXT, load_policy
policy = load_policy()
context = EXPECTATION_CONTEXT
if len(sys.argv) > 1:
    context = EvalContext.build(workspace=sys.argv[1], env=dict(os.environ))
print(json.dumps(policy_status := policylang._native.STATUS))
for line in sys.stdin:
    command = json.loads(line)
    d = policy.evaluate_in(command, context, approvals=False)
    print(json.dumps([
        d.verdict.value,
        d.retention.value if d.retention else None,
        d.suggested_rule,
        [[r.rule_id, r.message, r.verdict.value, r.location, r.segment] for r in d.reasons],
        [[s.text, s.verdict.value, s.read_only, s.context] for s in d.segments],
    ]))
"""


def _run(
    code: str, *, pure: bool, stdin: str = "", cwd: Path = ROOT, args: tuple[str, ...] = ()
) -> list[str]:
    env = dict(os.environ)
    env.pop(_native.ENV_PURE, None)
    if pure:
        env[_native.ENV_PURE] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def _lines() -> list[str]:
    commands = [case.command for table in GOLDEN for case in read_cases(table)]
    if CORPORA.is_dir():
        for name in ("codex_cases.tsv", "tldr.tsv", "nl2bash.tsv"):
            rows = (CORPORA / name).read_text(encoding="utf-8").splitlines()
            column = rows[0].split("\t").index("command")
            commands += [r.split("\t")[column] for r in rows[1:] if len(r.split("\t")) > column]
    return list(dict.fromkeys(c for c in commands if "\n" not in c or c.strip()))


@pytest.mark.slow
@pytest.mark.parametrize("setting", ["bare", "real"])
def test_compiled_and_source_decide_alike(setting: str) -> None:
    # The compiled modules are the source translated by mypyc; what could differ is what
    # mypyc does otherwise (it checks declared types at run time, its classes pickle and
    # build otherwise). Every golden and corpus line, decided by both, reasons included;
    # and in a real setting (this checkout as the workspace, this process's environment:
    # paths that exist, git's configuration, PATH), the golden lines and every 8th one.
    commands = _lines()
    assert len(commands) > 1_000
    args: tuple[str, ...] = ()
    if setting == "real":
        commands, args = commands[:2_000] + commands[2_000::8], (str(ROOT),)
    stdin = "".join(json.dumps(c) + "\n" for c in commands)
    compiled = _run(_DECIDE, pure=False, stdin=stdin, args=args)
    source = _run(_DECIDE, pure=True, stdin=stdin, args=args)
    assert json.loads(source[0]).startswith("source")
    # (where no current build exists both are the source: `make test` builds one first)
    assert json.loads(compiled[0]).startswith("compiled") == _built()
    assert len(compiled) == len(source) == len(commands) + 1
    differing = [
        (command, a, b)
        for command, a, b in zip(commands, compiled[1:], source[1:], strict=True)
        if a != b
    ]
    assert differing == []


def test_the_source_builders_pass_their_tests() -> None:
    # the suite runs against one build; the builders of the other (the twins of
    # `policylang._frozen`) are tested here in a process of the source's
    tests = [
        "tests/unit/engine/test_objects.py",
        "tests/unit/shell/test_build.py",
        "tests/unit/shell/test_options.py",
        "tests/unit/engine/test_snapshot.py",
    ]
    arguments = ["-o", "addopts=--strict-markers", "-p", "no:cacheprovider", *tests]
    code = f"import sys, pytest; sys.exit(pytest.main({arguments!r}))"
    out = _run(code, pure=True)  # (which fails the test unless pytest exits 0)
    assert any(" passed" in line and "skipped" not in line for line in out), out[-5:]


_STATUS = (
    "import policylang, policylang.engine.evaluate as e;"
    "print(policylang._native.STATUS); print(e.__file__)"
)


def _built() -> bool:
    """Whether a process that does not ask for the source runs the compiled engine (this
    one may have been told to run the source)."""
    return _run(_STATUS, pure=False)[0].startswith("compiled")


def _copy_package(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "policylang", tmp_path / "policylang", symlinks=True)
    return tmp_path


def test_an_edited_source_is_never_run_compiled(tmp_path: Path) -> None:
    root = _copy_package(tmp_path)
    if not _built():
        status, module = _run(_STATUS, pure=False, cwd=root)
        assert status.startswith("source")
        assert module.endswith(".py")
        return
    status, module = _run(_STATUS, pure=False, cwd=root)
    assert status == "compiled (mypyc)", status  # a copy, times changed, same text
    assert not module.endswith(".py")
    edited = root / "policylang" / "engine" / "rules.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    status, module = _run(_STATUS, pure=False, cwd=root)
    assert "policylang/engine/rules.py changed since the build" in status
    assert module.endswith("evaluate.py")  # all of them from source, not only the edited
    status, module = _run(_STATUS, pure=True, cwd=root)
    assert status == f"source ({_native.ENV_PURE} is set)"


def test_a_build_without_its_record_is_not_used(tmp_path: Path) -> None:
    root = _copy_package(tmp_path)
    (root / "policylang" / _native.MANIFEST).unlink(missing_ok=True)
    status, module = _run(_STATUS, pure=False, cwd=root)
    assert status.startswith("source (")
    assert module.endswith(".py")
    if _built():
        assert "without a readable _native.json" in status


def test_a_compiled_file_left_by_an_older_build_is_never_imported(tmp_path: Path) -> None:
    # a module compiled once and since taken off the list (or a build's leftover): its
    # file would be imported before its source; here it is not even a library
    import importlib.machinery

    root = _copy_package(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (root / "policylang" / "rules" / f"files{suffix}").write_bytes(b"not a library")
    code = "import policylang.rules.files as f; print(f.__file__)"
    for pure in (False, True):
        (module,) = _run(code, pure=pure, cwd=root)
        assert module.endswith("files.py")
