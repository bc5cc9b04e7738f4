"""Benchmark: how long the credential check of a variable's value takes on long adversarial
values (review EA4). `echo "$NOTES"` looks at NOTES's value for a credential (a URL's
password, an Oracle logon after sqlplus, mysql's `-pPW` …); a value that repeats a tool's
name or a scheme's letters made one regex restart a scan to its end at every repeat.

Run: .venv/bin/python benchmarks/bench_secret_values.py [--sizes 16,64,256] [--repeat 3]

Each row is one value repeated to the size in KiB; the figure is the fastest of the runs
(thread CPU time, in ms). The time must grow linearly: four times the size, about four times
the time (the last column is the ratio of the last two sizes). Against a build without
`has_credential` it times `_SECRET_VALUE.search`, the check that build made.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from policylang.engine import evaluate

UNITS = [
    "sql ", "sqlplus ", "mysql ", "x mysql ", "/mysql ", "sql a/", " a/b@",
    "0123456789abcdef", "a", "x:", ",a:", ",a:b", "-u x ", "=", '"', "'", "-p", "sk-.",
    "sql =a/", "userid=,a:",
]


def checker() -> Callable[[str], object]:
    found: Callable[[str], object] | None = getattr(evaluate, "has_credential", None)
    return found if found is not None else evaluate._SECRET_VALUE.search


def timed(check: Callable[[str], object], value: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        check(value)
        best = min(best, time.thread_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,64,256", help="KiB, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    check = checker()
    print(f"{'value':20}" + "".join(f"{size:>9} KiB" for size in sizes) + "    ratio")
    for unit in UNITS:
        times = []
        for size in sizes:
            value = unit * (size * 1024 // len(unit))
            times.append(timed(check, value, args.repeat))
        ratio = times[-1] / times[-2] if len(times) > 1 and times[-2] > 0 else float("nan")
        print(f"{unit!r:20}" + "".join(f"{ms:10.1f} ms" for ms in times) + f"  {ratio:7.1f}")


if __name__ == "__main__":
    main()
