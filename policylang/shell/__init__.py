"""The shell analyser: one untrusted command line → a typed model with nothing hidden.

Façade over `shell.model` (the types), `shell.parse` (the only tree-sitter user),
`shell.options` (spelling-insensitive options), `shell.wrappers` (wrappers as data) and
`shell.walk` (visiting nested lines).
"""

from policylang.shell.model import (
    Assignment,
    CommandLine,
    Connector,
    Expansion,
    ExpansionKind,
    Heredoc,
    Limits,
    Problem,
    Redirect,
    Scope,
    Segment,
    SegmentKind,
    Unwrapped,
    Word,
    WrapperUse,
)
from policylang.shell.options import (
    DEFAULT_OPTION_SPECS,
    Option,
    OptionSpec,
    OptionView,
    option_view,
)
from policylang.shell.parse import parse_command
from policylang.shell.walk import lines, nested_lines, walk
from policylang.shell.wrappers import (
    DEFAULT_WRAPPERS,
    WrapperKind,
    WrapperSpec,
    WrapperTable,
    unwrap,
)

__all__ = [
    "DEFAULT_OPTION_SPECS",
    "DEFAULT_WRAPPERS",
    "Assignment",
    "CommandLine",
    "Connector",
    "Expansion",
    "ExpansionKind",
    "Heredoc",
    "Limits",
    "Option",
    "OptionSpec",
    "OptionView",
    "Problem",
    "Redirect",
    "Scope",
    "Segment",
    "SegmentKind",
    "Unwrapped",
    "Word",
    "WrapperKind",
    "WrapperSpec",
    "WrapperTable",
    "WrapperUse",
    "lines",
    "nested_lines",
    "option_view",
    "parse_command",
    "unwrap",
    "walk",
]
