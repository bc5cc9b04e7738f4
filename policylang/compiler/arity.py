"""The arity table in TOML (read with tomllib, edited with tomlkit keeping comments and order).

A table file has one `[arity]` table whose keys are command prefixes (words separated by one
space) and whose values are the number of leading words that identify the command::

    # my additions
    [arity]
    "git" = 2
    "npm run" = 3

>>> entries = parse_arity_toml('[arity]\\n"npm run" = 3  # scripts\\n')
>>> entries[("npm", "run")]
3
>>> print(add_arity_entry('# keep me\\n[arity]\\n"git" = 2\\n', ("cargo", "run"), 3), end="")
# keep me
[arity]
"git" = 2
"cargo run" = 3
"""

from __future__ import annotations

import functools
import importlib.resources
import tomllib
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import tomlkit
from tomlkit.items import Table


class ArityFileError(ValueError):
    """A TOML arity file is malformed; the message says where."""


def parse_arity_toml(text: str) -> dict[tuple[str, ...], int]:
    """Entries of an arity TOML document (`[arity]` table of prefix -> positive int).

    Raises:
        ArityFileError: on TOML syntax errors, a missing `[arity]` table, or bad values.
    """
    # reading needs no round trip: the standard library's parser is many times faster
    # than tomlkit (30 ms for the shipped table), and every process start pays for it
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ArityFileError(f"invalid TOML: {error}") from error
    except RecursionError:  # a hostile file nesting arrays thousands deep (review K4)
        raise ArityFileError("invalid TOML: nested too deeply") from None
    table = document.get("arity")
    if not isinstance(table, dict):
        raise ArityFileError("expected an `[arity]` table")
    entries: dict[tuple[str, ...], int] = {}
    for key, value in table.items():
        words = tuple(str(key).split())
        if not words:
            raise ArityFileError("empty command prefix in `[arity]`")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ArityFileError(f"arity of `{key}` must be a positive integer")
        entries[words] = int(value)
    return entries


def add_arity_entry(text: str, words: Sequence[str], arity: int) -> str:
    """`text` with `words = arity` set in its `[arity]` table; comments and order kept."""
    document = tomlkit.parse(text) if text.strip() else tomlkit.document()
    table = document.get("arity")
    if not isinstance(table, Table):
        table = tomlkit.table()
        document["arity"] = table
    table[" ".join(words)] = arity
    return tomlkit.dumps(document)


@functools.cache
def default_arity() -> Mapping[tuple[str, ...], int]:
    """The shipped table (`policylang/compiler/arity.toml`)."""
    text = importlib.resources.files("policylang.compiler").joinpath("arity.toml").read_text()
    return MappingProxyType(parse_arity_toml(text))
