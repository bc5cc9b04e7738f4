"""Engine stage: segments that change what later words mean; imports `shell.model` only.

After `PATH=/tmp/x; ls`, `alias ls='rm -rf ~'`, `ls() { …; }`, `hash -p /tmp/x ls` or
`export LD_PRELOAD=…`, a later `ls` in the same line is not the `ls` the rules know. The
engine raises every later segment to at least ask and says which segment poisoned it.

Prefix assignments (`PATH=/x cmd`) only affect their own command; the policy's env rules
judge those. Bare assignments and declaration builtins (`export`, `declare`, `typeset`,
`local`, `readonly`) persist, and so poison what follows.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from policylang.shell.model import Segment, SegmentKind

# Variables that change how later commands are found, loaded, expanded or resolved.
POISON_NAMES: tuple[str, ...] = (
    "PATH",
    "LD_*",
    "DYLD_*",
    "BASH_ENV",
    "ENV",
    "IFS",
    "CDPATH",
    "HOME",
    "OLDPWD",
    "PWD",
    "PROMPT_COMMAND",
    "PS4",
    "SHELLOPTS",
    "BASHOPTS",
    "GLOBIGNORE",
    "BASH_FUNC_*",
    "BASH_LOADABLES_PATH",
    "EXECIGNORE",
    "GIT_*",
    "PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "LESSOPEN",
    "LESSCLOSE",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "RUBYOPT",
    "RUBYLIB",
)

DECLARATION_BUILTINS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Commands whose mere presence changes the meaning of what follows.
_POISONING_COMMANDS = {
    "alias": "an alias can redefine any later command",
    "enable": "`enable` can load or swap builtins",
    "trap": "a trap runs code before or after later commands",
    "source": "a sourced file can define functions, aliases and variables",
    ".": "a sourced file can define functions, aliases and variables",
    "eval": "`eval` can define functions, aliases and variables",
    "shopt": "`shopt` changes how later words expand",
    "set": "`set` can change how later words expand",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Poison:
    """Why segments after `segment_text` are not what they seem."""

    reason: str
    segment_text: str


def is_poison_name(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in POISON_NAMES)


def poison_of(segment: Segment) -> Poison | None:
    """The poisoning effect of `segment` on later segments, if any."""
    reason = _reason(segment)
    if reason is None:
        return None
    return Poison(reason=reason, segment_text=segment.text)


def _reason(segment: Segment) -> str | None:
    if segment.kind is SegmentKind.FUNCTION_DEF:
        return f"function `{segment.name or '?'}` is defined earlier and can shadow any command"
    if segment.kind is SegmentKind.ASSIGNMENT_ONLY:
        return _assignment_reason(segment)
    if segment.kind is not SegmentKind.SIMPLE or not segment.words:
        return None
    first = segment.words[0].value
    if first is None:
        return None
    name = first
    if name in DECLARATION_BUILTINS:
        return _declaration_reason(segment)
    if name == "hash" and any(w.value is None or w.value.startswith("-p") for w in segment.words):
        return "`hash -p` can point a later command name at any program"
    if name == "set" and not _set_changes_expansion(segment):
        return None
    if name == "shopt" and not _shopt_sets(segment):
        return None
    return _POISONING_COMMANDS.get(name)


def _assignment_reason(segment: Segment) -> str | None:
    for assignment in segment.assignments:
        if is_poison_name(assignment.name):
            return f"`{assignment.name}` is changed earlier in the line"
    return None


def _declaration_reason(segment: Segment) -> str | None:
    for assignment in segment.assignments + segment.declared:
        if is_poison_name(assignment.name):
            return f"`{assignment.name}` is changed earlier in the line"
    for word in segment.words[1:]:
        if word.value is None:
            return "a declaration with a word that is not literal may change any variable"
        if word.value in ("-f", "-F") or (word.value.startswith("-") and "f" in word.value):
            return "exported or declared functions can shadow any command"
        name = word.value.split("=", 1)[0].rstrip("+")
        if "=" in word.value and is_poison_name(name):
            return f"`{name}` is changed earlier in the line"
    return None


def _set_changes_expansion(segment: Segment) -> bool:
    # `set -e`, `set -u`, `set -x`, `set -o pipefail` are harmless; `set +f` (globbing on),
    # `set -o posix`, `set -k` (assignments anywhere) and non-literal words are not.
    harmless = {"-e", "-u", "-x", "-v", "+e", "+u", "+x", "+v", "-o", "+o", "pipefail", "-eu"}
    harmless |= {"-ex", "-eux", "-euo", "-eo", "errexit", "nounset", "xtrace", "-ux", "-xe"}
    return any(w.value is None or w.value not in harmless for w in segment.words[1:])


def _shopt_sets(segment: Segment) -> bool:
    return any(w.value is None or w.value == "-s" for w in segment.words[1:])
