#!/usr/bin/env python3
"""Hold the lines a policy allows against what bash runs for them; see docs/fuzzing.md.

    .venv/bin/python fuzz/argv_differential.py --seed 1 --lines 5000
    .venv/bin/python fuzz/argv_differential.py my.policy --seed 7
    .venv/bin/python fuzz/argv_differential.py --mutate --seed 3 --lines 20000

Exits 1 when bash ran a command the analyser's model lacks, 2 when the sandbox is unusable.
"""

from __future__ import annotations

import sys

from policylang.testing.argvcheck import main

if __name__ == "__main__":
    sys.exit(main())
