from __future__ import annotations

import subprocess
import sys

import policylang.testing


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)


def test_pure_modules_do_not_need_hypothesis() -> None:
    result = _run(
        "import sys; sys.modules['hypothesis'] = None\n"
        "import policylang.testing.invariants, policylang.testing.quoting\n"
        "import policylang.testing.seeds, policylang.testing.bashcheck\n"
        "import policylang.testing.optiontables, policylang.testing.cases\n"
        "import policylang.testing.oracle, policylang.testing._trace\n"
        "print('ok')")
    assert result.stdout.strip() == "ok", result.stderr


def test_strategies_explain_the_missing_extra() -> None:
    result = _run("import sys; sys.modules['hypothesis'] = None\n"
                  "import policylang.testing.strategies")
    assert result.returncode != 0
    assert "needs Hypothesis: pip install 'policylang[fuzz]'" in result.stderr


def test_package_lists_its_modules() -> None:
    assert set(policylang.testing.__all__) == {
        "argvcheck", "bashcheck", "campaign", "cases", "invariants", "optiontables", "oracle",
        "quoting", "seeds",
        "strategies"}


def test_the_campaign_registers_and_explains_without_hypothesis() -> None:
    result = _run(
        "import sys; sys.modules['hypothesis'] = None\n"
        "from policylang.cli.main import main\n"
        "print(main(['fuzz', '--list'])); print(main(['fuzz', '--evaluator', "
        "'policylang.decision:Verdict']))")
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("totality: ")
    assert lines[-2:] == ["0", "2"], result.stdout
    assert "fuzzing needs Hypothesis: pip install 'policylang[fuzz]'" in result.stderr
