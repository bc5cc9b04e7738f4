"""Glob translation shared by patterns, operands and protected paths; imports nothing.

`*`, `?` and `[…]` match within one path component (they never match `/`); a `**`
component matches any number of components. Used for word globs in patterns (`test:*`),
`operand` clauses and protected paths, so one word means one thing everywhere.

>>> bool(glob_regex("src/*.py").fullmatch("src/a.py"))
True
>>> bool(glob_regex("src/*").fullmatch("src/a/b"))
False
>>> bool(glob_regex("**/.env*").fullmatch("a/b/.env.local"))
True
"""

from __future__ import annotations

import re


def glob_regex(glob: str) -> re.Pattern[str]:
    """Translate a path glob (`*`, `?`, `[…]`, `**` components) to a full-match regex."""
    parts = glob.split("/")
    regex: list[str] = []
    after_leading_stars = False
    for index, part in enumerate(parts):
        if part == "**":
            if index == 0:
                regex.append(".*" if len(parts) == 1 else "(?:.*/)?")
                after_leading_stars = True
            else:
                regex.append("(?:/.*)?")
                after_leading_stars = False
            continue
        if index > 0 and not after_leading_stars:
            regex.append("/")
        regex.append(_component(part))
        after_leading_stars = False
    return re.compile("".join(regex), re.DOTALL)


def _component(part: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and (close := part.find("]", i + 2)) > 0:
            body = part[i + 1 : close]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = close
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)
