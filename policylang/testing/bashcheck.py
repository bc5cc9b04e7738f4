"""Ask a real bash about generated commands, in batches; imports nothing from policylang.

Two questions, each answered by ONE bash process looping over a directory of sample
files (one `bash -n` or one short `bash FILE` per sample, spawned by that loop), so
hundreds of samples cost about a second instead of hundreds of Python subprocesses:

- `syntax_ok(commands)`: does `bash -n` accept each command?
- `printf_words(spellings)`: what argv does each spelling produce, via `printf '%s\\0'`?

and one asked of a single text, where a property is about to report it:
`complete_command(text)`, whether bash reads it as whole commands, without a warning.

Both run with `LC_ALL=C.UTF-8` (so `$'\\u00e9'` decodes to UTF-8) and extglob on for
parsing (`bash -O extglob -n`), since extglob patterns are a syntax error otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

_ENV = {"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}

_SYNTAX_LOOP = r"""
for f in "$1"/*.sh; do
  if bash -O extglob -n "$f" 2>/dev/null; then r=ok; else r=bad; fi
  printf '%s %s\n' "${f##*/}" "$r"
done
"""

# Each sample runs in its own restricted bash (no output redirection, no `/` in command
# names, no cd, no `command -p`) with PATH naming an empty directory and `kill` disabled,
# so a spelling that smuggles an operator or a `$(…)` (corpus commands do: `x; rm -rf ~`)
# can reach no program at all: only builtins that print or set variables remain. This is
# a safety property, not a convenience: these checks run generated and corpus text as root.
# \036 and the file name mark where each output starts.
_PRINTF_LOOP = r"""
for f in "$1"/*.sh; do
  printf '\036%s\0' "${f##*/}"
  PATH="$2" "$BASH" -r "$f" 2>/dev/null
done
"""
_PRINTF_PROLOGUE = "enable -n kill ulimit trap\n"


class BashUnavailableError(RuntimeError):
    """No `bash` on PATH: the real-shell checks cannot run."""


def _bash() -> str:
    path = shutil.which("bash")
    if path is None:
        raise BashUnavailableError("`bash` was not found on PATH")
    return path


def _write_samples(directory: Path, texts: Sequence[str]) -> None:
    for index, text in enumerate(texts):
        # surrogatepass keeps lone surrogates from crashing the writer; bash sees bytes
        data = text.encode("utf-8", "surrogatepass")
        (directory / f"{index:07d}.sh").write_bytes(data + b"\n")


def _run_loop(script: str, texts: Sequence[str], timeout: float) -> bytes:
    bash = _bash()
    with tempfile.TemporaryDirectory(prefix="policylang-bashcheck-") as tmp:
        directory = Path(tmp) / "samples"
        empty_path = Path(tmp) / "empty-path"
        directory.mkdir()
        empty_path.mkdir()
        _write_samples(directory, texts)
        proc = subprocess.run(
            [bash, "-c", script, "bashcheck", str(directory), str(empty_path)],
            capture_output=True,
            timeout=timeout,
            env=_ENV,
            cwd=tmp,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    return proc.stdout


def syntax_ok(commands: Sequence[str], *, timeout: float = 120.0) -> tuple[bool, ...]:
    """For each command, whether `bash -O extglob -n` accepts it.

    Raises:
        BashUnavailableError: no bash on PATH.
        subprocess.TimeoutExpired: the whole batch took longer than `timeout` seconds.
    """
    if not commands:
        return ()
    out = _run_loop(_SYNTAX_LOOP, commands, timeout).decode("utf-8", "replace")
    verdicts: dict[int, bool] = {}
    for line in out.splitlines():
        name, _, result = line.partition(" ")
        verdicts[int(name.removesuffix(".sh"))] = result == "ok"
    return tuple(verdicts.get(i, False) for i in range(len(commands)))


def printf_words(spellings: Sequence[str], *, timeout: float = 120.0
                 ) -> tuple[tuple[str, ...] | None, ...]:
    """For each text, the words bash passes to `printf '%s\\0' TEXT` (None if it failed).

    The text is placed after `printf '%s\\0' ` verbatim, so a spelling of several words
    yields several values. Output is decoded as UTF-8 (errors as surrogates).
    """
    if not spellings:
        return ()
    scripts = [f"{_PRINTF_PROLOGUE}printf '%s\\0' {text} && printf '\\037'"
               for text in spellings]
    out = _run_loop(_PRINTF_LOOP, scripts, timeout)
    results: dict[int, tuple[str, ...]] = {}
    for record in out.split(b"\x1e")[1:]:
        name, _, rest = record.partition(b"\x00")
        if not rest.endswith(b"\x1f"):
            continue  # the sample failed (syntax error or printf error)
        fields = rest[:-1].split(b"\x00")[:-1]
        words = tuple(f.decode("utf-8", "surrogateescape") for f in fields)
        results[int(name.decode().removesuffix(".sh"))] = words
    return tuple(results.get(i) for i in range(len(spellings)))


def complete_command(text: str, *, timeout: float = 30.0) -> bool | None:
    """Whether `bash -O extglob -n` reads `text` as whole commands, with no error and no
    warning (`cat <<EOF` warns that its body runs to the end: in `$(cat <<EOF⏎)` the `)`
    is part of it); None without a bash. Inside `$(…⏎)` such a text is the substitution
    bash runs; another (`ls ) (`) ends it early or makes the line a syntax error."""
    if not bash_available():
        return None
    try:
        proc = subprocess.run(
            [_bash(), "-O", "extglob", "-n"],
            input=text.encode("utf-8", "surrogatepass") + b"\n",
            capture_output=True, timeout=timeout, env=_ENV, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return None
    return proc.returncode == 0 and not proc.stderr


def bash_available() -> bool:
    """Whether a bash binary is on PATH (tests skip the real-shell checks without one)."""
    return shutil.which("bash") is not None and os.name == "posix"
