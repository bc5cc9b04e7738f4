#!/usr/bin/env python3
"""Run a fuzzing campaign against a policy file (or an evaluator); see docs/fuzzing.md.

    .venv/bin/python fuzz/campaign.py rulesets/default.policy --budget 5m --seed 1
    .venv/bin/python fuzz/campaign.py --evaluator mymodule:evaluate --property fail-closed

Exits 1 when a counterexample was found, 2 on a usage or setup error, 3 when an invariant
stopped on an error of the campaign itself.
"""

from __future__ import annotations

import sys

from policylang.testing.campaign import main

if __name__ == "__main__":
    sys.exit(main())
