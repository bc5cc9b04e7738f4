"""Every executed example of README.md, CONTRIBUTING.md and docs/ runs and shows its output.

One test per block, with the id `file:line` of its opening fence. The conventions are in
tests/docs/doc_examples.py and CONTRIBUTING.md.
"""

from __future__ import annotations

import pytest
from doc_examples import (
    ROOT,
    Block,
    DocExampleError,
    documentation_files,
    extract_blocks,
    run_block,
)


def _collect() -> tuple[list[Block], list[DocExampleError]]:
    blocks: list[Block] = []
    problems: list[DocExampleError] = []
    for path in documentation_files():
        relative = path.relative_to(ROOT).as_posix()
        try:
            blocks.extend(extract_blocks(path.read_text(encoding="utf-8"), relative))
        except DocExampleError as problem:
            problems.append(problem)
    return blocks, problems


BLOCKS, PROBLEMS = _collect()
EXECUTED = [block for block in BLOCKS if block.executed]


@pytest.mark.parametrize("block", EXECUTED, ids=[block.id for block in EXECUTED])
def test_example(block: Block) -> None:
    failures = run_block(block)
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)


def test_markdown_fences_are_well_formed() -> None:
    assert not PROBLEMS, "\n".join(str(problem) for problem in PROBLEMS)


def test_the_runner_sees_the_documentation() -> None:
    """Guards against a glob that silently matches nothing: the README is always read."""
    paths = {block.path for block in BLOCKS}
    assert "README.md" in paths
    assert any(path.startswith("docs/") for path in paths)
    assert EXECUTED, "no executed example found in README.md or docs/"
