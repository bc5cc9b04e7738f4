"""Property-based testing of policies: generators, invariants, campaigns (issue 7).

A public package; its modules import nothing from the engine or the parsers except where
noted, so they can drive any evaluator:

- `quoting`: exact bash spellings of literal values (pure Python).
- `optiontables`: GNU option tables and equivalent option spellings (pure Python).
- `seeds`: seed commands from corpora and golden tables, and text mutations.
- `cases`: the example types the invariants take (`Compound`, `Wrapped`, …).
- `invariants`: the properties as checks over an `evaluate(command) -> Decision` callable.
- `bashcheck`: batched questions to a real bash (`bash -n`, what argv a spelling makes).
- `strategies`: Hypothesis strategies (needs the `fuzz` extra: ``pip install 'policylang[fuzz]'``),
  a façade over the internal `_shellgen` and `_casegen`.
- `oracle`: the dynamic read-only oracle: runs commands a policy labels read-only inside
  bubblewrap under strace and flags writes, system changes, sockets and stray programs
  (refuses to run without a working sandbox; reads traces with the private `_trace`); with
  `secrets`, it plants canary secrets (the private `_secrets`), runs every allowed command
  and flags each one that reads a canary or prints its token.
- `argvcheck`: the argv oracle: runs lines in bash inside bubblewrap with every command
  name logging its argv, and lists what bash ran that the shell analyser's model does not
  hold (a parser differential; uses the shell analyser; refuses without bubblewrap).
- `campaign`: the fuzzing campaign runner behind `fuzz/campaign.py` (needs the `fuzz` extra;
  loads the engine lazily for a policy file, and the shell analyser to judge writes).

Importing this package imports none of them.
"""

from __future__ import annotations

__all__ = [
    "argvcheck",
    "bashcheck",
    "campaign",
    "cases",
    "invariants",
    "optiontables",
    "oracle",
    "quoting",
    "seeds",
    "strategies",
]
