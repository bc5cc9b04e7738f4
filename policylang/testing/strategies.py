"""Hypothesis strategies that build bash command lines structurally; needs the `fuzz` extra.

Install with ``pip install 'policylang[fuzz]'`` (this module imports Hypothesis). The
public façade over `_shellgen` (words, expansions, commands, compound lines) and
`_casegen` (examples for the invariants, corpus-seeded mutation); nothing here imports
the engine, so the strategies can drive any evaluator.

Text strategies (each draws a `str` that is valid bash far more often than not; the
test suite measures the rate with `bash -n`):

- `word_values`, `spelled_words(value)`, `expansion_words(kind, position)`
- `redirects`, `heredoc_commands`, `simple_commands`, `command_lines`
- `corpus_commands(seeds)`, `mutated_commands(seeds)`, `any_command_text(seeds)`

Example strategies for the invariants (`policylang.testing.cases`):

- `quoted_words`, `respelled_commands`, `option_respellings`, `path_respellings`,
  `corpus_respelled(seeds)` → `Respelled`
- `compounds` → `Compound`, `wrapped_commands`, `corpus_wrapped(seeds)` → `Wrapped`,
  `substituted_commands`, `corpus_substituted(seeds)` → `Substituted`,
  `broken_commands` → `Broken`,
  `deny_cases(seeds)` → `DenyCase`

`draw_sample(strategy, n, seed=0)` draws a reproducible sample outside a test.
"""

from __future__ import annotations

from typing import TypeVar

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "policylang.testing.strategies needs Hypothesis: pip install 'policylang[fuzz]'"
    ) from exc

from policylang.testing._casegen import (
    OPAQUE_WRAPPERS,
    WRAPPERS,
    any_command_text,
    broken_commands,
    compounds,
    corpus_commands,
    corpus_respelled,
    corpus_substituted,
    corpus_wrapped,
    deny_cases,
    deny_rules,
    mutated_commands,
    option_respellings,
    path_respellings,
    respelled_commands,
    substituted_commands,
    wrapped_commands,
)
from policylang.testing._shellgen import (
    COMMAND_NAMES,
    CONNECTORS,
    CONSTRUCTS,
    EXPANSION_KINDS,
    POSITIONS,
    REDIRECT_OPERATORS,
    command_lines,
    expansion_words,
    heredoc_commands,
    quoted_words,
    redirects,
    simple_commands,
    spelled_words,
    word_values,
)

T = TypeVar("T")

__all__ = [
    "COMMAND_NAMES",
    "CONNECTORS",
    "CONSTRUCTS",
    "EXPANSION_KINDS",
    "OPAQUE_WRAPPERS",
    "POSITIONS",
    "REDIRECT_OPERATORS",
    "WRAPPERS",
    "any_command_text",
    "broken_commands",
    "command_lines",
    "compounds",
    "corpus_commands",
    "corpus_respelled",
    "corpus_substituted",
    "corpus_wrapped",
    "deny_cases",
    "deny_rules",
    "draw_sample",
    "expansion_words",
    "heredoc_commands",
    "mutated_commands",
    "option_respellings",
    "path_respellings",
    "quoted_words",
    "redirects",
    "respelled_commands",
    "simple_commands",
    "spelled_words",
    "substituted_commands",
    "word_values",
    "wrapped_commands",
]


def draw_sample(strategy: st.SearchStrategy[T], count: int, *, seed: int = 0) -> list[T]:
    """`count` examples of `strategy`, the same ones for the same `seed` (no shrinking).

    For measuring generators (validity rates, exactness) outside a test: Hypothesis's
    own `example()` is random and warns when used this way.
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed

    out: list[T] = []

    @fixed_seed(seed)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: T) -> None:
        out.append(example)

    collect()
    return out
