"""Build the compiled engine in place: `python scripts/build_native.py` (what `make native` runs).

Compiles `policylang._native.MODULES` with mypyc (shipped with mypy, a dev dependency)
into extension modules beside their source, then writes `policylang/_native.json`, the
record `policylang._native` checks before it uses them. `--clean` removes a build.

A build that fails leaves no manifest, and the engine then runs from source with a
warning that says so; this script exits non-zero, so `make` stops there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["POLICYLANG_PURE"] = "1"  # importing the list must not load a stale build

from policylang import _native  # noqa: E402


def clean() -> int:
    """Remove every compiled file of the engine and the manifest; the count removed."""
    removed = 0
    for path in _native.built_files():
        path.unlink()
        removed += 1
    manifest = ROOT / "policylang" / _native.MANIFEST
    if manifest.exists():
        manifest.unlink()
        removed += 1
    return removed


def build(jobs: int) -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution

    sources = [str(_native.source_path(m).relative_to(ROOT)) for m in _native.MODULES]
    stamps = {m: _native.source_stamp(_native.source_path(m)) for m in _native.MODULES}
    os.chdir(ROOT)
    extensions = mypycify(
        sources, multi_file=True, opt_level="3", group_name=_native.GROUP, verbose=False
    )
    for extension in extensions:
        # mypyc writes the headers of a group inside a package to that package's folder
        # of the build tree, and includes them from its top (mypy 2.4)
        extension.include_dirs.append("build/policylang")
    # a bare Distribution: `setup()` would read pyproject.toml, which older setuptools
    # reject, and which says nothing about this build anyway
    distribution = Distribution({"name": "policylang-native", "ext_modules": extensions})
    distribution.script_args = ["-q", "build_ext", "--inplace", "--build-temp", "build/native"]
    distribution.script_args += ["-j", str(jobs)]
    distribution.parse_command_line()
    distribution.run_commands()
    changed = [
        m for m in _native.MODULES if _native.source_stamp(_native.source_path(m)) != stamps[m]
    ]
    if changed:
        raise SystemExit(f"sources changed during the build ({changed[0]}): build again")
    manifest = {"python": sys.version, "modules": stamps}
    (ROOT / "policylang" / _native.MANIFEST).write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled engine")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    removed = clean()
    if args.clean:
        print(f"removed {removed} compiled files")
        return 0
    started = time.monotonic()
    print(f"compiling {len(_native.MODULES)} modules with mypyc ({args.jobs} jobs)…", flush=True)
    build(args.jobs)
    print(f"compiled engine built in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
