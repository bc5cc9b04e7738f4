"""What the committed configuration of an approved Python checker (mypy, pylint, flake8)
makes it do beyond checking the files it is given: each runs code its configuration names
(mypy's `plugins = evil.py` imported the repository's Python, which printed `.env`: review
GI1; pylint's `init-hook` is executed, its `load-plugins` imported; flake8's
`[flake8:local-plugins]` imports a module of the repository: GI2), or reads, writes and
prints other files (mypy's `files`, `mypy_path`, its reports and cache; pylint's `output`;
flake8's `filename`, `output-file`, `append-config`). An allowlist of the settings known
harmless, read from every file the tool reads; a file that cannot be parsed counts.

(ruff's and black's settings are `evaluate._LINTER_CONFIG_KEYS`' to judge: review FL11.)"""

from __future__ import annotations

import configparser
import os
import re
import tomllib
from collections.abc import Sequence
from typing import Final

from policylang.engine.gitconfig import read_regular

# the configuration files each reads, looked for in the folder it runs in and the folders
# above: mypy (`mypy.ini`, `.mypy.ini`, `pyproject.toml` `[tool.mypy]`, `setup.cfg`
# `[mypy]`), pylint (`pylintrc`, `.pylintrc`, their `.toml` forms, `pyproject.toml`
# `[tool.pylint.*]`, `setup.cfg` and `tox.ini` `[pylint.*]`), flake8 (`setup.cfg`,
# `tox.ini`, `.flake8` `[flake8]`, `[flake8:local-plugins]`)
CHECKER_FILES: Final = {
    "mypy": ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"),
    "pylint": ("pylintrc", ".pylintrc", "pylintrc.toml", ".pylintrc.toml", "pyproject.toml",
               "setup.cfg", "tox.ini"),
    "flake8": ("setup.cfg", "tox.ini", ".flake8"),
}  # fmt: skip
_CHECKERS: Final = {"mypy": "mypy", "dmypy": "mypy", "pylint": "pylint", "flake8": "flake8"}


def checker_name(program: str) -> str | None:
    """The checker `program` is (`dmypy` reads mypy's configuration), or None."""
    return _CHECKERS.get(program)


_MYPY_FLAGS: Final = """allow_empty_bodies allow_redefinition allow_redefinition_new
    allow_redefinition_old allow_untyped_globals check_untyped_defs check_unreachable
    disallow_any_decorated disallow_any_explicit disallow_any_expr disallow_any_generics
    disallow_any_unimported disallow_incomplete_defs disallow_subclassing_any
    disallow_untyped_calls disallow_untyped_decorators disallow_untyped_defs
    extra_checks follow_imports_for_stubs follow_untyped_imports ignore_errors
    ignore_missing_imports implicit_optional implicit_reexport local_partial_types
    strict_concatenate strict_equality strict_equality_for_none strict_optional strict_bytes
    warn_no_return warn_return_any warn_unreachable warn_unused_ignores warn_redundant_casts
    warn_unused_configs warn_incomplete_stub disable_bytearray_promotion
    disable_memoryview_promotion report_deprecated_as_note hide_error_codes pretty
    color_output error_summary show_absolute_path show_column_numbers show_error_context
    show_error_end show_error_code_links show_traceback incremental sqlite_cache
    cache_fine_grained skip_version_check skip_cache_mtime_checks fixed_format_cache
    fast_module_lookup namespace_packages explicit_package_bases scripts_are_modules
    exclude_gitignore no_site_packages force_uppercase_builtins force_union_syntax
    old_type_inference new_type_inference""".split()  # noqa: SIM905
# mypy's settings that neither import nor run anything, nor choose the files it reads
# (beyond narrowing: `exclude`) or where it writes: its checks, messages and module
# patterns (review GI1). Its inverted spellings of those flags (`no_implicit_reexport`,
# `allow_untyped_defs`, `show_error_codes`) are read as the flags; `install_types`,
# `python_executable`, `plugins` (but see `_MYPY_PLUGINS`), `mypy_path`, `files`,
# `modules`, `packages`, `cache_dir`, `custom_typeshed_dir`, `*_report`, `junit_xml`,
# `package_root` are not here.
_MYPY_KEYS: Final = frozenset(
    [*_MYPY_FLAGS, *(f"no_{flag}" for flag in _MYPY_FLAGS),
     *(f"allow_{flag[9:]}" for flag in _MYPY_FLAGS if flag.startswith("disallow_")),
     *(f"show_{flag[5:]}" for flag in _MYPY_FLAGS if flag.startswith("hide_")),
     "strict", "python_version", "platform", "always_true", "always_false", "exclude",
     "follow_imports", "enable_error_code", "disable_error_code", "enable_incomplete_feature",
     "untyped_calls_exclude", "deprecated_calls_exclude", "many_errors_threshold",
     "num_workers", "verbosity", "module"]
)  # fmt: skip
# plugins that ship with a package of mypy's own environment and run none of the
# project's code (django-stubs' does: it imports the project's settings). The console
# `mypy` imports them from that environment only; `python -m mypy` puts the folder it runs
# in first on `sys.path`, where a `pydantic/` folder is the repository's.
_MYPY_PLUGINS: Final = frozenset(
    {"pydantic.mypy", "pydantic.v1.mypy", "numpy.typing.mypy_plugin",
     "sqlalchemy.ext.mypy.plugin", "strawberry.ext.mypy_plugin",
     "returns.contrib.mypy.returns_plugin"}
)  # fmt: skip

# pylint's settings that neither run code nor choose where it writes (review GI2):
# messages, names, checks' limits, the files it skips. Not here: `init-hook` (executed),
# `load-plugins`, `extension-pkg-allow-list`, `unsafe-load-any-extension` (imported) and
# `output-format`, `evaluation` (`_pylint_value` judges those by their value), `output`,
# `rcfile`, `use-local-configs`, the import graphs (written), `spelling-private-dict-file`.
_PYLINT_KEYS: Final = frozenset(
    """analyse-fallback-blocks clear-cache-post-run confidence disable enable exit-zero
    fail-on fail-under from-stdin ignore ignore-paths ignore-patterns ignored-modules jobs
    limit-inference-results msg-template persistent prefer-stubs py-version recursive
    reports score suggestion-mode enable-all-extensions argument-naming-style argument-rgx
    attr-naming-style attr-rgx bad-names bad-names-rgxs class-attribute-naming-style
    class-attribute-rgx class-const-naming-style class-const-rgx class-naming-style
    class-rgx const-naming-style const-rgx docstring-min-length function-naming-style
    function-rgx good-names good-names-rgxs include-naming-hint inlinevar-naming-style
    inlinevar-rgx method-naming-style method-rgx module-naming-style module-rgx name-group
    no-docstring-rgx property-classes typealias-rgx typevar-rgx paramspec-rgx
    typevartuple-rgx variable-naming-style variable-rgx
    check-protected-access-in-special-methods defining-attr-methods exclude-protected
    valid-classmethod-first-arg valid-metaclass-classmethod-first-arg
    exclude-too-few-public-methods ignored-parents max-args max-attributes max-bool-expr
    max-branches max-locals max-parents max-positional-arguments max-public-methods
    max-returns max-statements min-public-methods overgeneral-exceptions
    expected-line-ending-format ignore-long-lines indent-after-paren indent-string
    max-line-length max-module-lines single-line-class-stmt single-line-if-stmt
    no-space-check allow-any-import-level allow-reexport-from-package
    allow-wildcard-with-all deprecated-modules known-standard-library known-third-party
    preferred-modules logging-format-style logging-modules timeout-methods notes notes-rgx
    max-nested-blocks never-returning-functions suggest-join-with-non-empty-separator
    ignore-comments ignore-docstrings ignore-imports ignore-signatures min-similarity-lines
    max-spelling-suggestions spelling-ignore-comment-directives spelling-ignore-words
    spelling-store-unknown-words check-quote-consistency check-str-concat-over-line-jumps
    contextmanager-decorators generated-members ignore-mixin-members ignore-none
    ignore-on-opaque-inference ignored-checks-for-mixins ignored-classes
    missing-member-hint missing-member-hint-distance missing-member-max-choices
    mixin-class-rgx signature-mutators additional-builtins allow-global-unused-variables
    allowed-redefined-builtins callbacks dummy-variables-rgx ignored-argument-names
    init-import redefining-builtins-modules max-complexity accept-no-param-doc
    accept-no-raise-doc accept-no-return-doc accept-no-yields-doc default-docstring-type
    max-try-statements bad-functions good-dunder-names valid-magic-values
    max-line-length-suggestions runtime-typing""".split()  # noqa: SIM905
)
# pylint's own reporters, named by `output-format` (a dotted name is a class imported;
# `json:out.json` writes a file)
_PYLINT_REPORTERS: Final = frozenset(
    {"text", "parseable", "colorized", "json", "json2", "msvs", "github"}
)
# the words of pylint's `evaluation` expression (evaluated with `eval`) that run nothing:
# its documented defaults are made of these
_EVALUATION_WORDS: Final = frozenset(
    {"max", "min", "float", "if", "else", "and", "or", "not", "fatal", "error", "warning",
     "refactor", "convention", "info", "statement"}
)  # fmt: skip
_EVALUATION: Final = re.compile(r"[\w\s.+\-*/(),<>=]*")

# flake8's own settings and those of common plugins that import nothing and choose no
# file (review GI2): not `filename` (which files are read as Python and printed with
# `show-source`), `output-file`, `append-config`, `config`, nor any of
# `[flake8:local-plugins]` (which imports the repository's modules)
_FLAKE8_KEYS: Final = frozenset(
    """select extend-select ignore extend-ignore per-file-ignores extend-per-file-ignores
    max-line-length max-doc-length max-complexity indent-size hang-closing count
    statistics show-source quiet verbose color exit-zero disable-noqa doctests benchmark
    builtins jobs exclude extend-exclude format tee require-plugins enable-extensions
    docstring-convention inline-quotes multiline-quotes docstring-quotes avoid-escape
    import-order-style application-import-names application-package-names
    max-cognitive-complexity max-annotations-complexity max-expression-complexity
    max-function-length rst-roles rst-directives rst-substitutions ban-relative-imports
    banned-modules classmethod-decorators staticmethod-decorators ignore-names
    extend-immutable-calls noqa-require-code noqa-include-name""".split()  # noqa: SIM905
)


def config_runs_code(name: str, path: str, run_in: str, module_run: bool) -> bool:
    """Whether the configuration file `path`, as `name` (mypy, pylint, flake8) run in the
    folder `run_in` reads it, sets anything but the harmless settings; one that exists but
    cannot be read or parsed counts (the tool may read it). `module_run`: run as `python
    -m`, which puts the folder it runs in first on `sys.path`."""
    if not os.path.lexists(path):
        return False
    settings = _settings(name, path)
    if settings is None:
        return True
    if name == "mypy":
        return not all(_mypy_harmless(k, v, run_in, module_run) for k, v in settings)
    return not all(_harmless(name, key, value) for key, value in settings)


_Settings = list[tuple[str, object]]


# the most of a configuration file read: a larger one is not judged and asks (review GK1:
# a `mypy.ini` padded past what was read hid `plugins = evil.py` below it)
CONFIG_LIMIT: Final = 1 << 20


def read_config(path: str) -> str | None:
    """The whole text of the configuration file `path`, or None where it cannot be read
    or is larger than `CONFIG_LIMIT` (then what the tool reads past it is not known:
    review GK1)."""
    data = read_regular(path, CONFIG_LIMIT + 1)
    if data is None or len(data) > CONFIG_LIMIT:
        return None
    return data.decode("utf-8", "replace")


def _settings(name: str, path: str) -> _Settings | None:
    """The settings `name` reads from `path`, or None where it cannot be parsed."""
    text = read_config(path)
    if text is None:
        return None
    try:
        if path.endswith(".toml"):
            return _toml_settings(name, tomllib.loads(text))
        parser = configparser.RawConfigParser()
        parser.read_string(text)
    except (ValueError, configparser.Error):
        return None
    return _ini_settings(name, os.path.basename(path), parser)


def _ini_settings(name: str, base: str, parser: configparser.RawConfigParser) -> _Settings:
    """The settings of the sections `name` reads of an INI file (a section's keys include
    the file's `[DEFAULT]` ones, as the tools read them)."""
    settings: _Settings = []
    for section in parser.sections():
        if name == "mypy":
            read = section == "mypy" or section.startswith("mypy-")
        elif name == "pylint":
            read = base in ("pylintrc", ".pylintrc") or section.startswith("pylint")
        else:
            read = section in ("flake8", "flake8:local-plugins")
        if not read:
            continue
        if section == "flake8:local-plugins":
            settings.extend(("local-plugins", key) for key in parser[section])
            continue
        settings.extend((key, parser[section][key]) for key in parser[section])
    return settings


def _toml_settings(name: str, data: dict[str, object]) -> _Settings:
    """The settings of `[tool.NAME]` (pylint's by table too, mypy's `overrides` too)."""
    tool = data.get("tool")
    section = tool.get(name) if isinstance(tool, dict) else None
    if not isinstance(section, dict):
        return []
    settings: _Settings = []
    for key, value in section.items():
        if name == "pylint" and isinstance(value, dict):
            settings.extend(value.items())
        elif name == "mypy" and key == "overrides" and isinstance(value, list):
            for override in value:
                settings.extend(override.items() if isinstance(override, dict) else [(key, value)])
        else:
            settings.append((key, value))
    return settings


def _mypy_harmless(key: str, value: object, run_in: str, module_run: bool) -> bool:
    """Whether mypy's setting `key = value`, run in `run_in`, runs nothing and picks no
    file but Python's: the folders and modules of the project are (`files = src`,
    `mypy_path = stubs`), but `files = src/*` checked `src/data.txt` and printed its
    lines (review GI1)."""
    key = key.lower().replace("-", "_")
    entries = _entries(value)
    if key == "plugins":
        return not module_run and all(p in _MYPY_PLUGINS for p in entries)
    if key == "files":
        return all(_project_path(e) and _python_or_folder(run_in, e) for e in entries)
    if key == "mypy_path":
        # (it finds modules by name: `.py` and `.pyi` files only; mypy splits it at `:`
        # too, so `stubs:/abs` names `/abs`)
        entries = _mypy_path_entries(value)
        return all(_project_path(e.removeprefix("$MYPY_CONFIG_FILE_DIR/")) for e in entries)
    if key in ("packages", "modules"):
        return all(re.fullmatch(r"[\w.]+", e) for e in entries)
    if key == "cache_dir":
        return entries in ([".mypy_cache"], ["/dev/null"])
    return key in _MYPY_KEYS


def _mypy_path_entries(value: object) -> list[str]:
    """The folders of mypy's `mypy_path`, split at `,` and `:` as mypy does."""
    return [e for entry in _entries(value) for e in (p.strip() for p in entry.split(":")) if e]


def mypy_folders(path: str) -> list[str]:
    """The paths mypy's `files` and `mypy_path` settings of the configuration file `path`
    name (`$MYPY_CONFIG_FILE_DIR/` made the file's folder; the others are the folder's
    mypy runs in): it reads the Python files below them (review GK3). Nothing where the
    file cannot be read (`config_runs_code` asks for it)."""
    settings = _settings("mypy", path) if os.path.lexists(path) else None
    found: list[str] = []
    for key, value in settings or []:
        key = key.lower().replace("-", "_")
        if key == "files":
            found.extend(_entries(value))
        elif key == "mypy_path":
            base = os.path.dirname(path)
            found.extend(
                os.path.join(base, e.removeprefix("$MYPY_CONFIG_FILE_DIR/"))
                if e.startswith("$MYPY_CONFIG_FILE_DIR/")
                else e
                for e in _mypy_path_entries(value)
            )
    return found


def flake8_excludes(folder: str, home: str) -> tuple[frozenset[str], bool] | None:
    """The folder names flake8 run in `folder` skips by the configuration file it reads,
    the first of `setup.cfg`, `tox.ini`, `.flake8` with a `[flake8]` section in the folder
    and each folder above up to (not into) `home`, as flake8 finds it, and whether they
    replace its default skips (`exclude`) or add to them (`extend-exclude`); None where it
    reads none; none skipped, in place of the defaults, where one cannot be read or
    parsed (flake8 then reads the next: review GM4). Only plain names (no `/`, no glob) are
    taken: others are not skipped, so their links are looked at (review GK3: a project's
    `exclude = .venv` keeps bare `flake8` from the walk's budget)."""
    place = os.path.normpath(folder)
    stop = os.path.realpath(home) if home else ""
    while True:
        for base in CHECKER_FILES["flake8"]:
            path = os.path.join(place, base)
            if not os.path.lexists(path):
                continue
            # (one flake8 would skip, or read where the engine cannot: flake8 goes on to
            # the next file, whose `exclude` is not known, so nothing is taken as skipped:
            # review GM4)
            data = read_regular(path, CONFIG_LIMIT + 1)
            if data is None or len(data) > CONFIG_LIMIT:
                return frozenset(), True
            parser = configparser.RawConfigParser()
            try:
                parser.read_string(data.decode("utf-8"))
            except (ValueError, configparser.Error):
                return frozenset(), True
            if parser.has_section("flake8") or parser.has_section("flake8:local-plugins"):
                return _flake8_skips(parser)
        parent = os.path.dirname(place)
        if parent == place or os.path.realpath(parent) == stop:
            return None
        place = parent


def _flake8_skips(parser: configparser.RawConfigParser) -> tuple[frozenset[str], bool] | None:
    """The plain names of `[flake8]`'s `exclude` (replacing) or `extend-exclude`."""
    if not parser.has_section("flake8"):
        return None
    section = {key.replace("_", "-"): value for key, value in parser["flake8"].items()}
    names = frozenset(
        name
        for key in ("exclude", "extend-exclude")
        for name in re.split(r"[,\s]+", section.get(key, ""))
        if re.fullmatch(r"[\w.\-]+", name) and name not in (".", "..")
    )
    return names, "exclude" in section


def _project_path(entry: str) -> bool:
    """Whether `entry` is a plain relative path below the folder (no glob, variable, home
    or `..`, which mypy expands or follows)."""
    parts = entry.replace("\\", "/").split("/")
    return (
        bool(entry)
        and not entry.startswith("/")
        and ".." not in parts
        and not any(c in entry for c in "*?[]{}$~%")
    )


def _python_or_folder(run_in: str, entry: str) -> bool:
    """Whether mypy run in `run_in` reads `entry` as a Python file by its name, or as a
    folder it walks for those."""
    if entry.endswith((".py", ".pyi")):
        return True
    return bool(run_in) and os.path.isdir(os.path.join(run_in, entry))


def _harmless(name: str, key: str, value: object) -> bool:
    """Whether pylint's or flake8's setting `key = value` runs nothing and chooses no
    file."""
    key = key.lower().replace("_", "-")
    if name == "pylint":
        if _pylint_option_value(value):
            return False
        return key in _PYLINT_KEYS or _pylint_value(key, value)
    return key in _FLAKE8_KEYS


# a number argparse takes as a value, never as an option
_NEGATIVE_NUMBER: Final = re.compile(r"-\d+|-\d*\.\d+")


def _pylint_option_value(value: object) -> bool:
    """Whether pylint may read the value of a setting as an option of its own: it turns
    each setting into the words `--key value` that argparse parses, so after a key that
    takes no value (`exit-zero`, `from-stdin`) a value `--output-format=text:~/.bashrc`
    is an option, which wrote the report over `~/.bashrc` (review GK2). A value that
    starts with `-` asks (not a negative number), and one that starts with `%` too (pylint
    reads INI files with interpolation)."""
    text = _pylint_text(value).strip()
    return text.startswith("%") or (
        text.startswith("-") and _NEGATIVE_NUMBER.fullmatch(text) is None
    )


def _pylint_text(value: object) -> str:
    """A setting's value as pylint passes it to argparse (its `_parse_rich_type_value`)."""
    if isinstance(value, (list, tuple)):
        return ",".join(_pylint_text(entry) for entry in value)
    if isinstance(value, dict):
        return ",".join(f"{key}:{entry}" for key, entry in value.items())
    return str(value)


def _pylint_value(key: str, value: object) -> bool:
    """pylint's settings harmless with some values only: those of a generated pylintrc
    (empty plugin lists, a reporter of its own, the default score expression)."""
    entries = _entries(value)
    if key in ("load-plugins", "extension-pkg-allow-list", "extension-pkg-whitelist"):
        # (pylint's own optional checkers, inside its package)
        return all(re.fullmatch(r"pylint\.extensions\.\w+", e) for e in entries)
    if key in ("spelling-dict", "spelling-private-dict-file", "init-hook"):
        return not entries
    if key == "unsafe-load-any-extension":
        return all(e.lower() in ("n", "no", "false", "0", "off") for e in entries)
    if key == "output-format":
        return all(e in _PYLINT_REPORTERS for e in entries)
    if key == "evaluation" and isinstance(value, str):
        return _EVALUATION.fullmatch(value) is not None and "**" not in value and all(
            word in _EVALUATION_WORDS or word[0].isdigit() for word in re.findall(r"\w+", value)
        )
    return False


def _entries(value: object) -> list[str]:
    """A list setting's entries, from TOML's list or INI's comma-separated string."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return [v.strip() for v in str(value).replace("\n", ",").split(",") if v.strip()]


# the long options of each on the command line that do the same: another configuration,
# an interpreter, a file written or read in place of a source (any abbreviation argparse
# takes, `--python-exec`, too); mypy reads more arguments from an `@file`
_RISKY_OPTIONS: Final = {
    "mypy": ("config-file", "python-executable", "install-types", "custom-typeshed-dir",
             "cache-dir", "cache-map", "shadow-file", "package-root", "junit-xml",
             "any-exprs-report", "cobertura-xml-report", "html-report", "linecount-report",
             "linecoverage-report", "lineprecision-report", "txt-report", "xml-report",
             "xslt-html-report", "xslt-txt-report", "status-file", "log-file"),
    "pylint": ("rcfile", "init-hook", "load-plugins", "output", "extension-pkg-allow-list",
               "extension-pkg-whitelist", "unsafe-load-any-extension", "evaluation",
               "spelling-private-dict-file", "spelling-dict", "import-graph",
               "ext-import-graph", "int-import-graph", "use-local-configs"),
    "flake8": ("config", "append-config", "output-file", "filename"),
}  # fmt: skip


def checker_line_option(name: str, values: Sequence[str | None]) -> str:
    """The word of the line that sets what `name`'s configuration would (another
    configuration file, plugins, an interpreter, a file written), or ""."""
    risky = _RISKY_OPTIONS[name]
    for index, word in enumerate(values):
        if word is None:
            continue
        if name == "mypy" and word.startswith("@"):
            return word
        if name == "pylint" and _pylint_format(word, values[index + 1 : index + 2]):
            return word
        option = word[2:].partition("=")[0]
        if word.startswith("--") and len(option) > 1 and any(r.startswith(option) for r in risky):
            return word
    return ""


def _pylint_format(word: str, following: Sequence[str | None]) -> bool:
    """Whether `word` (with the word after it) names a reporter pylint imports or a file
    it writes: `-f mod.Class`, `--output-format=json:out.json`."""
    if word.startswith("--") and len(word.partition("=")[0]) > 8:
        option, equals, value = word[2:].partition("=")
        if not "output-format".startswith(option):
            return False
    elif word.startswith("-f"):
        equals, value = ("=", word[2:]) if len(word) > 2 else ("", "")
    else:
        return False
    if not equals:
        value = (following[0] if following else "") or ""
    return not all(e in _PYLINT_REPORTERS for e in _entries(value.removeprefix("=")))
