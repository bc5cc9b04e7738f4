"""Golden diagnostics: each malformed policy here renders exactly its `.expected` file.

Every `.policy` file starts with `# expect: CODE UNDERLINED` lines; the test asserts those
(code and underlined text, not offsets) and then the whole rendered output, caret lines
included. Regenerate the `.expected` files with `POLICYLANG_UPDATE_GOLDEN=1` and review the
diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from policylang.rules.load import check_ruleset

HERE = Path(__file__).parent
CASES = sorted(HERE.glob("*.policy"))
UPDATE = os.environ.get("POLICYLANG_UPDATE_GOLDEN") == "1"


def _expectations(text: str) -> list[tuple[str, str]]:
    out = []
    for line in text.splitlines():
        if line.startswith("# expect: "):
            code, _, underlined = line.removeprefix("# expect: ").partition(" ")
            out.append((code, underlined))
    return out


def test_there_are_at_least_thirty_cases() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_golden(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(HERE)
    result = check_ruleset(path.name)
    found = {(d.code, d.underlined) for d in result.diagnostics}
    expected = _expectations(path.read_text())
    assert expected, "a golden case needs at least one `# expect:` line"
    for item in expected:
        assert item in found, f"missing {item} in {sorted(found)}"
    rendered = "\n".join(d.render() for d in result.diagnostics) + "\n"
    golden = path.with_suffix(".expected")
    if UPDATE:
        golden.write_text(rendered)
    assert rendered == golden.read_text()
