"""Tool contract: the `bash` tool's JSON Schema and argument checks; imports no policylang.

Validation never raises on bad input from a model: `parse_arguments` returns either
`BashArgs` or an `ArgumentProblems` whose message teaches the model how to fix the
call (what was wrong, what was expected, an example).

>>> parse_arguments({"cmd": "ls", "timeout": 5}).message.splitlines()[0]
"Missing command (got top-level keys: cmd, timeout; expected key 'command')"
>>> parse_arguments({"command": "ls", "timeout_s": 900}).timeout_s
600.0
"""

from __future__ import annotations

import difflib
import enum
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_TIMEOUT_S = 600.0
DEFAULT_TIMEOUT_S = 120.0
MAX_DESCRIPTION_CHARS = 300


class SandboxRequest(enum.StrEnum):
    DEFAULT = "default"
    ESCALATED = "escalated"


_DESCRIPTIONS: dict[str, str] = {
    "command": "The shell command line to run with `bash -c` (stdin is empty). "
    "Must be non-empty.",
    "timeout_s": f"Seconds before the command's whole process group is killed. Default "
    f"{DEFAULT_TIMEOUT_S:g}; values above {MAX_TIMEOUT_S:g} are clamped; must be > 0. "
    "Background jobs have no timeout unless this is given.",
    "workdir": "Working directory, absolute or relative to the workspace. Prefer this "
    "over `cd DIR && ...`.",
    "description": "What the command does in 5-10 words, shown to the person asked to "
    "approve it.",
    "background": "Start the command and return a job id at once; poll the job for its "
    "output. Default false.",
    "login": "Run as a login shell (`bash -lc`). Default false: profile files can print "
    "text, change PATH or start daemons.",
    "sandbox": "\"default\" runs inside the host's sandbox. \"escalated\" asks to run "
    "outside it and requires `justification`; it is refused unless the host lets you ask.",
    "justification": "Required with sandbox \"escalated\": one sentence on why the "
    "command cannot run inside the sandbox.",
}

ALLOWED_KEYS: tuple[str, ...] = tuple(_DESCRIPTIONS)

# Keys models commonly send in place of ours.
_ALIASES: dict[str, str] = {
    "cmd": "command", "script": "command", "commandline": "command", "command_line": "command",
    "timeout": "timeout_s", "timeout_ms": "timeout_s", "timeout_seconds": "timeout_s",
    "cwd": "workdir", "dir": "workdir", "directory": "workdir", "working_directory": "workdir",
    "run_in_background": "background", "bg": "background",
}


def bash_tool_schema(*, sandbox_keys: bool = True) -> dict[str, Any]:
    """The JSON Schema for the `bash` tool's arguments.

    `command` is the only required key and there is no `anyOf`: some model providers
    reject or mishandle both. Pass `sandbox_keys=False` for a host without a sandbox.
    """
    types = {"command": "string", "timeout_s": "number", "workdir": "string",
             "description": "string", "background": "boolean", "login": "boolean",
             "sandbox": "string", "justification": "string"}
    props: dict[str, dict[str, Any]] = {
        key: {"type": types[key], "description": text} for key, text in _DESCRIPTIONS.items()
    }
    for key in ("command", "workdir", "justification"):
        props[key]["minLength"] = 1
    props["description"]["maxLength"] = MAX_DESCRIPTION_CHARS
    props["timeout_s"].update(exclusiveMinimum=0, default=DEFAULT_TIMEOUT_S)
    props["background"]["default"] = False
    props["login"]["default"] = False
    props["sandbox"].update(enum=[str(s) for s in SandboxRequest], default="default")
    if not sandbox_keys:
        del props["sandbox"], props["justification"]
    return {"type": "object", "properties": props, "required": ["command"],
            "additionalProperties": False}


@dataclass(frozen=True, slots=True, kw_only=True)
class BashArgs:
    """Validated arguments of one `bash` tool call."""

    command: str
    timeout_s: float
    timeout_given: bool
    timeout_clamped: bool
    workdir: str | None
    description: str | None
    background: bool
    login: bool
    sandbox: SandboxRequest
    justification: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ArgumentProblems:
    """Why a call's arguments were rejected, written for the model to act on."""

    problems: tuple[str, ...]

    @property
    def message(self) -> str:
        return "\n".join((*self.problems, _EXAMPLE))


_EXAMPLE = ('Example of a valid call: {"command": "ls -la src", '
            '"description": "List the files in src"}')


def json_type(value: object) -> str:
    """The JSON name of a Python value's type, as a model would think of it."""
    match value:
        case None:
            return "null"
        case bool():
            return "boolean"
        case int() | float():
            return "number"
        case str():
            return "string"
        case list() | tuple():
            return "array"
        case Mapping():
            return "object"
        case _:
            return type(value).__name__


def _shown(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        try:
            text = repr(value)
        except ValueError:  # an integer past Python's digit limit
            text = f"<{type(value).__name__} too long to show>"
    return text if len(text) <= 60 else text[:57] + "..."


def _got(value: object) -> str:
    return "got null" if value is None else f"got {json_type(value)} {_shown(value)}"


def parse_arguments(arguments: object) -> BashArgs | ArgumentProblems:
    """Validate a tool call's arguments; every problem found is reported at once."""
    if not isinstance(arguments, Mapping):
        hint = ' {"command": "..."}' if isinstance(arguments, str) else ""
        return ArgumentProblems(problems=(
            f"Arguments must be a JSON object with key 'command' ({_got(arguments)});"
            f" wrap the command line as{hint or ' an object'}",))
    problems: list[str] = []
    keys = [str(k) for k in arguments]
    if "command" not in arguments:
        shown = ", ".join(keys) if keys else "none"
        problems.append(f"Missing command (got top-level keys: {shown}; expected key 'command')")
    problems += [_unknown_key(k) for k in keys if k not in ALLOWED_KEYS]
    fields = _Fields(arguments, problems)
    command = fields.command()
    timeout_s, given, clamped = fields.timeout()
    args = BashArgs(
        command=command, timeout_s=timeout_s, timeout_given=given, timeout_clamped=clamped,
        workdir=fields.text("workdir", nonempty=True),
        description=fields.text("description", limit=MAX_DESCRIPTION_CHARS),
        background=fields.flag("background"), login=fields.flag("login"),
        sandbox=fields.sandbox(), justification=fields.text("justification", nonempty=True),
    )
    problems += _escalation_problems(args, arguments)
    return ArgumentProblems(problems=tuple(problems)) if problems else args


def _unknown_key(key: str) -> str:
    guess = _ALIASES.get(key.lower()) or next(
        iter(difflib.get_close_matches(key, ALLOWED_KEYS, n=1, cutoff=0.6)), None)
    hint = f" (did you mean '{guess}'?)" if guess else ""
    return f"Unknown key '{key}'{hint}; allowed keys: {', '.join(ALLOWED_KEYS)}"


def _escalation_problems(args: BashArgs, arguments: Mapping[Any, Any]) -> list[str]:
    if args.sandbox is SandboxRequest.ESCALATED and args.justification is None:
        if "justification" not in arguments:
            return ["'justification' is required when 'sandbox' is \"escalated\": say in one "
                    "sentence why the command cannot run inside the sandbox"]
    elif args.sandbox is SandboxRequest.DEFAULT and "justification" in arguments:
        return ["'justification' is only used with \"sandbox\": \"escalated\"; remove it"]
    return []


def _encodable(text: str) -> bool:
    """Whether `text` can be passed to the OS (`os.fsencode`): no lone surrogate, except
    the escapes of undecodable bytes (U+DC80-U+DCFF) that Python itself makes."""
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


class _Fields:
    """Typed access to optional fields; each problem is appended to `problems`."""

    def __init__(self, arguments: Mapping[Any, Any], problems: list[str]) -> None:
        self.arguments = arguments
        self.problems = problems

    def command(self) -> str:
        value = self.arguments.get("command", "")
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            joined = " ".join(value)
            self.problems.append(f"'command' must be a string ({_got(value)}); join the words "
                                 f"into one shell command line, e.g. {_shown(joined)}")
        elif not isinstance(value, str):
            self.problems.append(f"'command' must be a string holding a shell command line "
                                 f"({_got(value)})")
        elif "command" in self.arguments and not value.strip():
            self.problems.append("'command' is empty; put the shell command line to run in it")
        elif "\x00" in value:
            self.problems.append("'command' contains a NUL character, which no shell command "
                                 "can carry; remove it")
        elif not _encodable(value):
            self.problems.append("'command' holds a lone surrogate (such as \\ud800), which is "
                                 "not valid Unicode and no shell command can carry; send the "
                                 "command as valid UTF-8 text")
        else:
            return value
        return ""

    def timeout(self) -> tuple[float, bool, bool]:
        if "timeout_s" not in self.arguments:
            return DEFAULT_TIMEOUT_S, False, False
        value = self.arguments["timeout_s"]
        if isinstance(value, str):
            self.problems.append(f"'timeout_s' must be a number of seconds ({_got(value)}); "
                                 "write it without quotes, e.g. 30")
        elif isinstance(value, bool) or not isinstance(value, int | float):
            self.problems.append(f"'timeout_s' must be a number of seconds ({_got(value)})")
        elif isinstance(value, float) and not math.isfinite(value):
            self.problems.append(f"'timeout_s' must be a finite number of seconds ({_got(value)})")
        elif value <= 0:
            self.problems.append(f"'timeout_s' must be greater than 0 ({_got(value)}); omit it "
                                 f"for the default of {DEFAULT_TIMEOUT_S:g} s")
        else:
            # compared before converting: an integer of 400 digits has no float (review J5)
            return float(min(value, MAX_TIMEOUT_S)), True, value > MAX_TIMEOUT_S
        return DEFAULT_TIMEOUT_S, True, False

    def text(self, key: str, *, nonempty: bool = False, limit: int | None = None) -> str | None:
        if key not in self.arguments or self.arguments[key] is None:
            return None
        value = self.arguments[key]
        if not isinstance(value, str):
            self.problems.append(f"'{key}' must be a string ({_got(value)})")
        elif nonempty and not value.strip():
            self.problems.append(f"'{key}' is empty; give a value or omit the key")
        elif limit is not None and len(value) > limit:
            self.problems.append(f"'{key}' is {len(value)} characters long; keep it to 5-10 "
                                 f"words (at most {limit} characters)")
        else:
            return value
        return None

    def flag(self, key: str) -> bool:
        value = self.arguments.get(key, False)
        if isinstance(value, bool):
            return value
        hint = "; write true or false without quotes" if isinstance(value, str) else ""
        self.problems.append(f"'{key}' must be a boolean, true or false ({_got(value)}){hint}")
        return False

    def sandbox(self) -> SandboxRequest:
        value = self.arguments.get("sandbox", "default")
        try:
            return SandboxRequest(value)
        except ValueError:
            self.problems.append(f"'sandbox' must be \"default\" or \"escalated\" ({_got(value)})")
        return SandboxRequest.DEFAULT
