#!/usr/bin/env python3
"""Run the dynamic read-only oracle over the corpora for a policy; see docs/fuzzing.md.

    .venv/bin/python fuzz/oracle.py policylang/rulesets/default.policy --budget 10m
    .venv/bin/python fuzz/oracle.py my.policy --command 'git status' --command 'ls -la'

Every command runs inside bubblewrap under strace (never outside: without a working
sandbox the oracle refuses). Exits 1 when a command was flagged, 2 on a setup error.
"""

from __future__ import annotations

import sys

from policylang.testing.oracle import main

if __name__ == "__main__":
    sys.exit(main())
