"""`python -m policylang …`: the command line, as the `policylang` script runs it."""

from __future__ import annotations

import sys

from policylang.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
