"""An approval covers no more than the reviewed snapshot says, over the tldr pages.

scripts/approval_widening.py approves, page by page, each rule suggested for an asking
tldr example and lists the page's other examples it turns into allow (reviews FL, FV: an
approved listing had covered a form that runs code or prints a secret). The result must
equal tests/corpus/data/approval_widening.tsv, the snapshot a person reviewed:

- a pair not in it fails: an approval now lets more through. Review the new pairs (does
  the widened form run code, print a secret, delete or send anything the innocent one did
  not?) and accept them with `scripts/approval_widening.py --update`;
- a pair of it no longer found fails too, with the same remedy: a stale line would let a
  later change bring that widening back unnoticed (the fix of a finding removes its pair).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from test_shell_corpus import CORPORA  # tests/corpus is not a package

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "approval_widening.py"
Pair = tuple[str, str, str]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("approval_widening", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks its module up)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def found() -> tuple[ModuleType, list[Pair], list[Pair]]:
    """The script, the pairs not in the snapshot, and the snapshot's pairs not found."""
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA.resolve()} (outside the repository)")
    script = _script()
    pairs = script.compute(CORPORA / "tldr.tsv")
    assert len(pairs) > 1000  # (the scan ran: most approvals widen to intended forms)
    new, removed = script.differences(pairs, script.read_snapshot())
    return script, new, removed


def test_no_approval_covers_more_than_reviewed(
    found: tuple[ModuleType, list[Pair], list[Pair]],
) -> None:
    script, new, _ = found
    if new:
        pytest.fail(
            f"{len(new)} approval widening(s) not in the reviewed snapshot "
            f"({script.SNAPSHOT.name}): an approved rule now allows these lines.\n"
            f"{script.describe(new, [], limit=50)}\n"
            "Review each: does the allowed line run code, print a secret, delete outside "
            "the workspace or send data out where the approved form did not? If not, accept "
            f"them with: python {script.UPDATE}",
            pytrace=False,
        )


def test_snapshot_has_no_stale_pairs(found: tuple[ModuleType, list[Pair], list[Pair]]) -> None:
    script, _, removed = found
    if removed:
        pytest.fail(
            f"{len(removed)} pair(s) of the snapshot ({script.SNAPSHOT.name}) no longer widen "
            "(the engine is stricter: fine). Drop them so that a later change cannot bring "
            f"them back unnoticed: python {script.UPDATE}\n"
            f"{script.describe([], removed, limit=50)}",
            pytrace=False,
        )
