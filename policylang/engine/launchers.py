"""Project files that choose the program a launcher runs (reviews GG1-GG5).

Some tools do not run themselves: they start the interpreter, the release or the
wrapper a file of the project names (uv's `.python-version` holding a path, pdm's
`.pdm-python`, yarn's `yarnPath`, Maven's `.mvn/jvm.config`, bazelisk's `tools/bazel`).
An approved `yarn info` or `uv tree` then runs the repository's code, which the person
approved the tool for, not the project. `LAUNCHERS` says, per tool, which files it reads
and what in each names a program; `judge` looks in one folder. What cannot be read (too
large, not a regular file, not parsed) counts as naming one: the line asks.

rustup's and cargo's files are judged by `Evaluator.rust_configuration` (reviews DP4,
DP5), whose shape this table follows.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final, NamedTuple

from policylang.compiler.tables import scope_operand_ends
from policylang.engine import paths
from policylang.engine.gitconfig import read_regular

# at most this much of a launcher's file is read: more asks
_MAX_BYTES: Final = 256 * 1024
# entries of a `tools/` folder looked through for bazel's wrappers
_TOOLS_SCAN: Final = 4096

# whether a path lies in the workspace (the caller's `_reaches_workspace`)
Inside = Callable[[str], bool]


class LaunchFile(NamedTuple):
    """A file a launcher reads, relative to the project's folder (or any above it), and
    what in its text names a program: None, nothing (the caller knows the file exists)."""

    name: str
    names: Callable[[str, str, Inside], str | None]


class Finding(NamedTuple):
    path: str
    what: str  # the part of the file that names a program (or why it cannot be read)


def _exists(_path: str, _text: str, _inside: Inside) -> str | None:
    """A file whose mere presence makes the tool run what it names (`.mvn/extensions.xml`
    loads its extensions, `.corepack.env` sets corepack's variables)."""
    return "the file itself"


def _searched(pattern: re.Pattern[str]) -> Callable[[str, str, Inside], str | None]:
    def found(_path: str, text: str, _inside: Inside) -> str | None:
        match = pattern.search(text)
        return None if match is None else match.group(0).strip()

    return found


def _tokens(allowed: re.Pattern[str]) -> Callable[[str, str, Inside], str | None]:
    """Every blank-separated word must be one `allowed` matches: Maven's start scripts
    split `.mvn/jvm.config` and `.mvn/maven.config` on blanks (some versions through
    `eval`), and a `#` is no comment for every version."""

    def found(_path: str, text: str, _inside: Inside) -> str | None:
        for token in text.split():
            if not allowed.fullmatch(token):
                return token
        return None

    return found


# a `.python-version` line that is a path (`/x/python`, `tools/python`), which uv, rye
# and pdm run as the interpreter; versions and names (`3.12`, `cpython@3.12`, `pypy`)
# are found among the machine's interpreters (review GG1)
_PATH_LINE: Final = re.compile(r"(?m)^[ \t]*[^#\s][^\n]*[/\\~][^\n]*")
# an interpreter's name, and an installed environment's (`.venv/bin/python`), which the
# engine trusts as it trusts an activated `.venv/bin` (`_INSTALLED_BIN`)
_PYTHON_FILE: Final = re.compile(r"(?:python|pypy)[0-9.]*")
_INSTALLED_PYTHON: Final = re.compile(r".*/(?:\.?venv[^/]*|\.?env)/bin/[^/]+")


def _pdm_python(_path: str, text: str, inside: Inside) -> str | None:
    """`.pdm-python` holds the interpreter pdm runs (review GG1): an interpreter outside
    the workspace, or an installed environment's in it, is the machine's; another file,
    a relative path or more than one line asks."""
    value = text.strip()
    if not value.startswith("/") or "\n" in value:
        return value or "no interpreter"
    if not _PYTHON_FILE.fullmatch(value.rpartition("/")[2]):
        return value
    if inside(value) and not _INSTALLED_PYTHON.fullmatch(value):
        return value
    return None


# yarn 1 and yarn berry run the release `yarnPath` (`.yarnrc`: `yarn-path`) names in
# place of themselves, and berry loads the `plugins` of `.yarnrc.yml` (review GG2); a
# backslash may spell either key in a quoted YAML key (`"yarn\x50ath"`)
_YARNRC: Final = re.compile(r"(?m)^[ \t]*[\"']?(?:--)?(?:yarn-path|yarnPath)\b[^\n]*")
_YARNRC_YML: Final = re.compile(r"(?:yarnPath|plugins)[\"']?[ \t]*:[^\n]*|\\|^[ \t]*\?", re.M)
# where yarn sends its requests and token (review GK6, as `.npmrc`): yarn 1's `.yarnrc`
# registry, auth, proxy and TLS keys or a `${…}`, berry's `npmRegistryServer`,
# `npmAuthToken`, `npmScopes`, proxies and certificate files; the default registry's
# own line is no finding
_YARNRC_NET: Final = re.compile(
    r"(?m)^[^\n]*(?:registry|_auth|proxy|cafile|strict-ssl|\$\{)[^\n]*"
    r"|^[ \t]*[\"']?(?:--)?ca\b[^\n]*"
)
_YARNRC_YML_NET: Final = re.compile(
    r"(?im)^[^\n]*(?:npm\w*(?:registry|auth|scopes)|proxy|filepath|unsafehttp|strictssl"
    r"|\$\{)[^\n]*"
)
_DEFAULT_REGISTRY_LINE: Final = re.compile(
    r"[ \t]*[\"']?(?:registry|npmRegistryServer)[\"']?[ \t]*:?[ \t]*[\"']?"
    r"https://registry\.(?:npmjs\.org|yarnpkg\.com)/?[\"']?[ \t]*"
)


def _network(pattern: re.Pattern[str]) -> Callable[[str, str, Inside], str | None]:
    """The first line `pattern` finds that is not the default registry's (GK6)."""

    def found(_path: str, text: str, _inside: Inside) -> str | None:
        for match in pattern.finditer(text):
            if not _DEFAULT_REGISTRY_LINE.fullmatch(match.group(0)):
                return match.group(0).strip()[:80]
        return None

    return found


# pnpm's hooks file, loaded before it reads the lockfile
# (any key that names it, in any case, quoted, or in ini's list form `pnpmfile[]=`: pnpm 10
# takes a list of hooks files, review HB4); a line starting `;` or `#` is a comment
_PNPMFILE: Final = re.compile(r"(?mi)^[ \t]*(?![;#])[^=\n]*pnpmfile[^=\n]*=[^\n]*")
_PNPMFILE_BYTES: Final = re.compile(rb"(?mi)^[ \t]*(?![;#])[^=\n]*pnpmfile[^=\n]*=[^\n]*")
# `.npmrc` keys that name no program, registry, host, file or shell (review GK6: a
# committed `registry=http://evil/` with `//evil/:_authToken=${GITHUB_TOKEN}` sent the token
# out under an approved `npm view`); any other key, a section, a quoted or escaped key or
# value, `${…}`, a path or a URL asks. npm, pnpm and yarn 1 read the file.
_NPMRC_KEYS: Final = frozenset(
    {"save-exact", "save-prefix", "save", "engine-strict", "fund", "audit", "audit-level",
     "loglevel", "package-lock", "package-lock-only", "lockfile-version", "legacy-peer-deps",
     "strict-peer-deps", "strict-peer-dependencies", "auto-install-peers", "progress",
     "color", "update-notifier", "prefer-offline", "prefer-online", "offline",
     "ignore-scripts", "shamefully-hoist", "hoist", "hoist-pattern", "public-hoist-pattern",
     "node-linker", "resolution-mode", "link-workspace-packages", "prefer-workspace-packages",
     "save-workspace-protocol", "shared-workspace-lockfile", "dedupe-peer-dependents",
     "include-workspace-root", "recursive-install", "lockfile", "frozen-lockfile",
     "prefer-frozen-lockfile", "unicode", "timing", "fetch-retries", "fetch-timeout",
     "maxsockets", "network-concurrency", "child-concurrency", "workspaces-update",
     "install-links", "omit", "include", "production", "optional", "use-lockfile-v6",
     "enable-pre-post-scripts", "save-peer", "strict-ssl-warnings", "cache-min"}
)  # fmt: skip
_NPMRC_LINE: Final = re.compile(r"[ \t]*([a-z][a-z0-9-]*)(?:\[\])?[ \t]*(?:=[ \t]*([^\n]*))?")
_NPMRC_VALUE: Final = re.compile(r"[A-Za-z0-9._@^~*<>=|+!,-]*")
# the registry's own address, as npm and yarn 1 use it unless told otherwise
_DEFAULT_REGISTRY: Final = re.compile(r"https://registry\.(?:npmjs\.org|yarnpkg\.com)/?")


def _npmrc(_path: str, text: str, _inside: Inside) -> str | None:
    """The first line of an `.npmrc` that sets anything outside `_NPMRC_KEYS` (or that
    cannot be read as npm's `ini` reads it), None when every line is harmless (GK6)."""
    for raw in re.split(r"[\r\n]+", text):
        line = raw.strip(" \t")
        if not line or line.startswith((";", "#")):
            continue
        match = _NPMRC_LINE.fullmatch(line)
        if match is None:
            return line[:80]
        key, value = match.group(1), (match.group(2) or "").strip(" \t")
        if key == "registry" and _DEFAULT_REGISTRY.fullmatch(value):
            continue
        if key not in _NPMRC_KEYS or not _NPMRC_VALUE.fullmatch(value):
            return line[:80]
    return None


_NPMRC: Final = LaunchFile(".npmrc", _npmrc)


# `pnpm-workspace.yaml`, where pnpm 9 and 10 read their catalogs and most of the `.npmrc`
# settings (`registry`, `registries`, `httpsProxy`, `strictSsl`, `scriptShell`,
# `configDependencies`, `pnpmfile`, `executionEnv` …), from the workspace's root: an
# approved `pnpm why` sent its requests where the repository chose (review AK1). No YAML
# parser: lines are scanned, and only these top-level keys (with the `.npmrc` keys of
# `_NPMRC_KEYS`, camel-cased) pass, holding plain names and versions; anything the scan
# does not understand (a flow, an anchor, a tag, a quoted key, a block scalar) asks.
_YAML_LISTS: Final = frozenset(
    {"packages", "onlyBuiltDependencies", "ignoredBuiltDependencies", "neverBuiltDependencies"}
)
_YAML_CATALOGS: Final = frozenset({"catalog", "catalogs"})
_YAML_KEY: Final = re.compile(r"([A-Za-z][A-Za-z0-9-]*):(?:[ \t]+(.*))?")
_YAML_ENTRY: Final = re.compile(r"[ \t]+(\S[^:]*?):(?:[ \t]+(.*))?")
_YAML_ITEM: Final = re.compile(r"[ \t]*-[ \t]+(.*)")
# a package's name, a version range or dist-tag, a glob of workspace folders
_YAML_NAME: Final = re.compile(r"@?[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)?")
_YAML_RANGE: Final = re.compile(r"[A-Za-z0-9._^~*<>=|+ -]+")
_YAML_GLOB: Final = re.compile(r"!?[A-Za-z0-9._@/*+-]+")
# what makes a plain YAML scalar something else (a flow, alias, anchor, tag, block …)
_YAML_INDICATORS: Final = "-?:,[]{}#&*!|>'\"%@`"
# controls, and the line breaks of YAML 1.1 no line scan splits on
_YAML_ODD: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\ufeff]")


def _yaml_bare(value: str | None) -> str:
    """A YAML value with its comment and blanks removed ("" for none)."""
    return "" if value is None else re.sub(r"(?:^|[ \t]+)#.*", "", value).strip(" \t")


def _yaml_scalar(value: str | None) -> str | None:
    """The text of a one-line plain or quoted YAML scalar with no escape; None for
    anything else (a flow, alias, anchor, tag, block scalar, mapping)."""
    value = _yaml_bare(value)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return None if any(c in inner for c in "'\"\\") else inner
    if not value or value[0] in _YAML_INDICATORS or ": " in value:
        return None
    return value


def _camel_setting(key: str, value: str | None) -> bool:
    """Whether `key: value` is a harmless `.npmrc` setting (`shamefullyHoist: true`,
    `hoistPattern:` heading a list), as `_npmrc` judges it."""
    name = re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), key)
    text = "" if not _yaml_bare(value) else _yaml_scalar(value)
    if text is None:
        return False
    if name == "registry":
        return bool(_DEFAULT_REGISTRY.fullmatch(text))
    return name in _NPMRC_KEYS and bool(_NPMRC_VALUE.fullmatch(text))


def _yaml_nested(section: str, line: str) -> bool:
    """Whether an indented (or `- item`) line below top-level key `section` holds only
    a glob (in a list), or a package's name and version range (in a catalog)."""
    item = _YAML_ITEM.fullmatch(line)
    if item is not None:
        text = _yaml_scalar(item.group(1)) if section not in _YAML_CATALOGS else None
        return text is not None and bool(_YAML_GLOB.fullmatch(text))
    entry = _YAML_ENTRY.fullmatch(line)
    if entry is None or section not in _YAML_CATALOGS:
        return False
    name = _yaml_scalar(entry.group(1))
    if name is None or not _YAML_NAME.fullmatch(name):
        return False
    if not _yaml_bare(entry.group(2)):
        return section == "catalogs"  # (a named catalog's heading)
    text = _yaml_scalar(entry.group(2))
    return text is not None and bool(_YAML_RANGE.fullmatch(text))


def _yaml_section(line: str) -> str | None:
    """The top-level key a line opens ("" for a harmless setting on the line), None
    when it is none `_pnpm_workspace` lets through."""
    key = _YAML_KEY.fullmatch(line)
    if key is None:
        return None
    name, value = key.group(1), key.group(2)
    if _yaml_bare(value):
        return "" if _camel_setting(name, value) else None
    known = name in _YAML_LISTS or name in _YAML_CATALOGS or _camel_setting(name, None)
    return name if known else None


def _pnpm_workspace(_path: str, text: str, _inside: Inside) -> str | None:
    """The first line of a `pnpm-workspace.yaml` outside its packages, catalogs and
    harmless settings, or that the scan cannot read (review AK1)."""
    text = text.removeprefix("\ufeff")
    if _YAML_ODD.search(text):
        return "a character the scan does not read"
    section = ""
    for raw in re.split(r"\r\n|\r|\n", text):
        line = raw.rstrip(" \t")
        if not _yaml_bare(line):
            continue  # (a blank or comment line)
        if line.startswith((" ", "\t", "-")):
            # YAML indents with blanks only; what lies below a setting on its line asks
            if not (section and line.lstrip(" ")[:1] != "\t" and _yaml_nested(section, line)):
                return line.strip()[:80]
            continue
        opened = _yaml_section(line)
        if opened is None:
            return line[:80]
        section = opened
    return None


_PNPM_WORKSPACE: Final = LaunchFile("pnpm-workspace.yaml", _pnpm_workspace)


# `package.json`'s `pnpm` field (and yarn's `resolutions`), which pnpm reads from the root
# project's manifest for every command (review GR1): `configDependencies` are fetched
# from the tarball the repository names (or taken from a committed
# `node_modules/.pnpm-config/`) and their `pnpmfile.cjs` runs under an approved `pnpm why`;
# `executionEnv`, `patchedDependencies`, `packageExtensions` … name programs and files.
# Only the `*BuiltDependencies` lists, plain-range `overrides` and
# `allowedDeprecatedVersions`, and `peerDependencyRules` pass; JSON not read asks.
_PNPM_NAME_LISTS: Final = frozenset(
    {"onlyBuiltDependencies", "ignoredBuiltDependencies", "neverBuiltDependencies"}
)
_PNPM_RANGE_MAPS: Final = frozenset({"overrides", "allowedDeprecatedVersions"})
_PNPM_NAME: Final = re.compile(r"@?[A-Za-z0-9_*-][A-Za-z0-9._*-]*(?:/[A-Za-z0-9._*-]+)?")
# an override's selector (`foo`, `@a/b@1`, `foo@1>bar`, yarn's `**/foo`)
_PNPM_SELECTOR: Final = re.compile(r"[@A-Za-z0-9._/^~<>=|* -]+")


def _names(value: object) -> bool:
    """Whether `value` is a list of package names or name patterns (`esbuild`,
    `@babel/*`: `onlyBuiltDependencies`, `peerDependencyRules.ignoreMissing`)."""
    return isinstance(value, list) and all(
        isinstance(item, str) and _PNPM_NAME.fullmatch(item) for item in value
    )


def _ranges(value: object) -> bool:
    """Whether `value` maps package selectors to plain version ranges (`overrides`: no
    `npm:`, `file:`, `link:`, URL, `$` reference or `${…}`)."""
    return isinstance(value, dict) and all(
        _PNPM_SELECTOR.fullmatch(key) and isinstance(item, str) and _YAML_RANGE.fullmatch(item)
        for key, item in value.items()
    )


def _peer_rules(value: object) -> bool:
    """Whether `peerDependencyRules` holds only its name lists and version ranges."""
    if not isinstance(value, dict):
        return False
    for key, item in value.items():
        if key in ("ignoreMissing", "allowAny"):
            if not _names(item):
                return False
        elif key != "allowedVersions" or not _ranges(item):
            return False
    return True


def _pnpm_setting(key: str, value: object) -> bool:
    """Whether a key of `package.json`'s `pnpm` field is a harmless one (GR1)."""
    if key in _PNPM_NAME_LISTS:
        return _names(value)
    if key == "peerDependencyRules":
        return _peer_rules(value)
    return key in _PNPM_RANGE_MAPS and _ranges(value)


def _pnpm_field(_path: str, text: str, _inside: Inside) -> str | None:
    """The first setting of `package.json`'s `pnpm` field (or `resolutions`) outside the
    harmless ones, or why the file cannot be read (review GR1)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except ValueError:
        return "JSON that cannot be read"
    if not isinstance(data, dict):
        return "JSON that is no object"
    if "resolutions" in data and not _ranges(data["resolutions"]):
        return "resolutions"
    field = data.get("pnpm") or {}
    if not isinstance(field, dict):
        return "pnpm"
    for key, value in field.items():
        if not _pnpm_setting(key, value):
            return f"pnpm.{key}"[:80]
    return None


# the hooks file pnpm loads by default (review GR2): it `require`s `<dir>/.pnpmfile.cjs`,
# which Node also resolves as `.pnpmfile.cjs.js`, `.json`, `.node` or a folder's
# `index.js`; any entry whose name starts with `.pnpmfile` counts as it. The names are
# also looked up one by one, for a folder of more entries than the prefix scan reads.
_PNPMFILES: Final = (
    LaunchFile(".pnpmfile*", _exists),
    *(LaunchFile(f".pnpmfile{end}", _exists)
      for end in (".cjs", ".mjs", ".cjs.js", ".cjs.json", ".cjs.node")),
)  # fmt: skip


# `pom.xml`: what makes Maven run a plugin or extension the project chooses for a goal
# of no phase (`dependency:tree`, `help:effective-pom`) or an early phase (`validate`,
# `clean`): a plugin repository, any repository (GN2), a `file:` URL (one
# served from the workspace), build extensions (loaded at every start), an entity (which
# may spell any of these) or a repository URL built from properties (review GK8)
# (any repository: an https one serves a parent pom too, `<relativePath/>` or one whose
# `../pom.xml` is not it, which declares plugins and their repositories: review GN2)
_POM: Final = re.compile(
    r"<(?:[\w.-]+:)?(?:pluginRepositor|extensions?\b|repositor(?:y|ies)\b)|file:"
    r"|<!ENTITY|<!DOCTYPE|&#",
    re.I | re.S,
)
# a parent found elsewhere than the folder above (`../pom.xml`, the default, which is
# looked at as a folder above), or Maven 4's subprojects (which it may also find by
# itself): their poms are not looked at, so they ask
_POM_ELSEWHERE: Final = re.compile(
    r"<(?:[\w.-]+:)?relativePath>(?!\s*(?:\.\./?|\.\./pom\.xml)?\s*</)[^<]*"
    r"|<(?:[\w.-]+:)?subprojects?\b[^<]*|<(?:[\w.-]+:)?modelVersion>\s*4\.[1-9][^<]*",
    re.I,
)
# a module the reactor builds too, whose pom is judged as well
_POM_MODULE: Final = re.compile(r"<(?:[\w.-]+:)?module>([^<]*)</(?:[\w.-]+:)?module>", re.I)
_POM_MODULES_MAX: Final = 256
# the executions an early phase runs: the `validate` lifecycle's phases run those bound
# there and a plugin's own default phase is not known, so any execution asks; `clean`
# and `site` run those the pom binds to their phases (and `site` the reports), not
# others, so a `mvn clean` of an everyday pom stays approvable
_EARLY_EXECUTIONS: Final = {
    "validate": re.compile(r"<(?:[\w.-]+:)?executions?\b", re.I),
    "clean": re.compile(r"<(?:[\w.-]+:)?phase>\s*(?:pre-|post-)?clean\b", re.I),
    "site": re.compile(
        r"<(?:[\w.-]+:)?phase>\s*(?:pre-|post-)?site\b|<(?:[\w.-]+:)?reporting\b", re.I
    ),
}
# the early phases, each with its lifecycle's entry of `_EARLY_EXECUTIONS`
_MAVEN_EARLY: Final = {
    "validate": "validate", "initialize": "validate", "generate-sources": "validate",
    "pre-clean": "clean", "clean": "clean", "post-clean": "clean", "pre-site": "site",
    "site": "site", "post-site": "site", "site-deploy": "site",
}  # fmt: skip


def _pom_setting(text: str, early: tuple[re.Pattern[str], ...]) -> str | None:
    """What in one pom's text `_POM`, `_POM_ELSEWHERE` (and for an early phase its
    lifecycle's `_EARLY_EXECUTIONS`) find."""
    match = _POM.search(text) or _POM_ELSEWHERE.search(text)
    for pattern in early:
        match = match or pattern.search(text)
    return None if match is None else match.group(0).strip()[:80]


def _pom_tree(
    path: str, text: str, inside: Inside, early: tuple[re.Pattern[str], ...]
) -> str | None:
    """What in a `pom.xml` or the poms of its modules (recursively) makes an approved
    `mvn dependency:tree` run a plugin the project chooses (review GK8); a module outside
    the workspace, not read or one too many asks."""
    seen = {os.path.normpath(path)}
    todo = [(path, text)]
    while todo:
        where, body = todo.pop()
        found = _pom_setting(body, early)
        if found is not None:
            return found
        for name in _POM_MODULE.findall(body):
            module = os.path.normpath(os.path.join(os.path.dirname(where), name.strip()))
            if not module.endswith(".xml"):
                module = os.path.join(module, "pom.xml")
            if module in seen:
                continue
            seen.add(module)
            data = read_regular(module, _MAX_BYTES + 1) if inside(module) else None
            if data is None or len(data) > _MAX_BYTES or len(seen) > _POM_MODULES_MAX:
                return f"module {name.strip()[:60]}, whose pom cannot be read here"
            todo.append((module, data.decode("utf-8", "replace")))
    return None


def _pom_judge(
    early: tuple[re.Pattern[str], ...],
) -> Callable[[str, str, Inside], str | None]:
    """`_pom_tree` for a goal of no phase (`dependency:tree`, `help:effective-pom`:
    `early` empty) or for early phases, which also run the executions `early` finds."""

    def found(path: str, text: str, inside: Inside) -> str | None:
        return _pom_tree(path, text, inside, early)

    return found


# the words of `.mvn/jvm.config` that start no code of the project: heap and stack sizes,
# the JVM's boolean and numeric `-XX` flags, modules opened, and a few properties of no
# program (`-javaagent:`, `-agentpath:`, `-Xbootclasspath`, `-XX:OnError=`, a class
# loader, `maven.ext.class.path` and any other word ask: review GG4)
_JVM_WORD: Final = re.compile(
    r"-X(?:mx|ms|ss|mn)[0-9]+[kKmMgGtT]?|-XX:[+-][A-Za-z0-9]+"
    r"|-XX:(?!On)[A-Za-z0-9]+=[0-9.]+[kKmMgG%]?|-server|-client|-ea|-da|-esa|-dsa"
    r"|--add-(?:opens|exports|reads)(?:=[A-Za-z0-9._/=,-]+)?|[A-Za-z0-9._]+/[A-Za-z0-9._]+="
    r"[A-Za-z0-9._,-]+|-Djava\.awt\.headless=\w+|-D(?:file|sun\.jnu|sun\.stdout|sun\.stderr)"
    r"\.encoding=[\w-]+|-Duser\.(?:timezone|language|country|region)=[\w/+-]+"
    r"|-Djava\.net\.prefer\w+=\w+|-Djdk\.tls\.client\.protocols=[\w.,]+|-Dhttps\.protocols="
    r"[\w.,]+|-Dmaven\.wagon\.[\w.]+=[\w.-]+|-Dorg\.slf4j\.simpleLogger\.[\w.]+=[\w.-]+"
    r"|-Dstyle\.color=\w+|-Djansi\.\w+=\w+"
)
# the words of `.mvn/maven.config` that name nothing to load (`-s`, `-f`, `-D…`, an
# extension or local repository path and any other word ask)
_MAVEN_WORD: Final = re.compile(
    r"-B|--batch-mode|-ntp|--no-transfer-progress|-U|--update-snapshots|-e|--errors|-q"
    r"|--quiet|-X|--debug|-V|--show-version|-fae|--fail-at-end|-ff|--fail-fast|-fn"
    r"|--fail-never|-o|--offline|-nsu|--no-snapshot-updates|-C|--strict-checksums|-c"
    r"|--lax-checksums|-T|--threads|[0-9.]+C?|-T[0-9.]+C?|--threads=[0-9.]+C?"
    r"|-P|--activate-profiles|-P?[\w,!.?-]+|-Dstyle\.color=\w+|-Dmaven\.test\.skip=\w+"
    r"|-DskipTests(?:=\w+)?|-Daether\.[\w.]+=[\w.-]+|-Dmaven\.artifact\.threads=[0-9]+"
)
# `.bazelversion`: a version (`7.1.0`, `latest`, `last_green`, `7.x`); `FORK/VERSION`
# downloads another fork's release, a path runs a file (review GG5)
_BAZEL_VERSION: Final = re.compile(r"[^\n]*[/\\:~][^\n]*")
# `.bazelrc` lines that reach the server's start (`startup --host_jvm_args=-javaagent…`,
# `--server_javabase`) or read another file that may
_BAZELRC: Final = re.compile(r"(?m)^[ \t]*(?:startup|import|try-import)\b[^\n]*")


# a release of the registry: a name, a version or range, and a hash (no URL, no path)
_RELEASE: Final = re.compile(
    r"(?:npm|yarn|pnpm)@[0-9A-Za-z.^~<>=*| -]+(?:\+sha(?:1|224|256|384|512)\.[0-9a-f]+)?"
)


def _package_manager(path: str, text: str, inside: Inside) -> str | None:
    """`package.json`'s `packageManager` (and `devEngines.packageManager`), which corepack
    downloads and runs: a name, a version and a hash are the registry's release; a URL,
    a path or anything else (or JSON not read) asks (review GG3)."""
    try:
        data = json.loads(text)
    except ValueError:
        return "JSON that cannot be read"
    if not isinstance(data, dict):
        return "JSON that is no object"
    values: list[object] = []
    if "packageManager" in data:
        values.append(data["packageManager"])
    engines = data.get("devEngines")
    if engines is not None:
        if not isinstance(engines, dict):
            return "devEngines"
        manager = engines.get("packageManager")
        if manager is not None:
            values += manager if isinstance(manager, list) else [manager]
    for value in values:
        if isinstance(value, dict):
            value = f"{value.get('name')}@{value.get('version', '')}"
        if not isinstance(value, str) or not _RELEASE.fullmatch(value):
            return f"packageManager {str(value)[:80]}"
    return None


_PYTHON_VERSION: Final = (
    LaunchFile(".python-version", _searched(_PATH_LINE)),
    LaunchFile(".python-versions", _searched(_PATH_LINE)),
)
_MAVEN: Final = (
    LaunchFile(".mvn/jvm.config", _tokens(_JVM_WORD)),
    LaunchFile(".mvn/maven.config", _tokens(_MAVEN_WORD)),
    LaunchFile(".mvn/extensions.xml", _exists),
)
_BAZEL: Final = (
    LaunchFile("tools/bazel*", _exists),
    LaunchFile(".bazeliskrc", _exists),
    LaunchFile(".bazelversion", _searched(_BAZEL_VERSION)),
    LaunchFile(".bazelrc", _searched(_BAZELRC)),
)
# tool -> the files in its project folder (or one above it) that may name the program it
# runs in place of itself, or load into itself
LAUNCHERS: Final[dict[str, tuple[LaunchFile, ...]]] = {
    "uv": _PYTHON_VERSION,
    "rye": _PYTHON_VERSION,
    "pdm": (LaunchFile(".pdm-python", _pdm_python), *_PYTHON_VERSION),
    "yarn": (
        LaunchFile(".yarnrc", _searched(_YARNRC)),
        LaunchFile(".yarnrc.yml", _searched(_YARNRC_YML)),
        LaunchFile(".yarnrc", _network(_YARNRC_NET)),
        LaunchFile(".yarnrc.yml", _network(_YARNRC_YML_NET)),
        _NPMRC,
    ),
    "pnpm": (
        *_PNPMFILES,
        LaunchFile(".npmrc", _searched(_PNPMFILE)),
        _NPMRC,
        _PNPM_WORKSPACE,
        # the root manifest's `pnpm` field, the other manifests pnpm reads in its place,
        # and the config dependencies whose `pnpmfile.cjs` it loads (review GR1)
        LaunchFile("package.json", _pnpm_field),
        LaunchFile("package.json5", _exists),
        LaunchFile("package.yaml", _exists),
        LaunchFile("node_modules/.pnpm-config", _exists),
    ),
    "npm": (_NPMRC,),
    "mvn": _MAVEN,
    "mvnw": _MAVEN,
    "bazel": _BAZEL,
    "bazelisk": _BAZEL,
}
# the names a launcher also goes by
ALIASES: Final = {"yarnpkg": "yarn", "pn": "pnpm"}  # (`pn`: pnpm 11's second name, HH3)
# corepack's shims (`yarn`, `pnpm`, `npm` linked to corepack's scripts): what it
# downloads and runs, and the file that sets its variables (`COREPACK_ENABLE_UNSAFE_
# CUSTOM_URLS`, `COREPACK_NPM_REGISTRY`: review GG3)
COREPACK: Final = (
    LaunchFile(".corepack.env", _exists),
    LaunchFile("package.json", _package_manager),
)
# the files a version manager's shim reads to choose the program it runs (`_SHIM_BIN`),
# and what in each the engine cannot follow: a version names an install of the
# manager's own folder, a path (`node path:./.tools`, `../../ws/x`), a git ref built from
# source or mise's configuration (its `[env]`, hooks and tasks) name anything; volta
# reads `package.json`'s `volta.extends` and a project's `.volta/hooks.json` (download
# addresses); nvm's `lts/NAME` is a release
_PINNED_PATH: Final = re.compile(
    r"(?m)^[ \t]*(?!lts/[\w*-]+[ \t]*$)[^#\s][^\n]*(?:[/\\~]|path:|ref:|\.\.)[^\n]*"
)
VERSION_FILES: Final = (
    LaunchFile("package.json", _searched(re.compile(r'"extends"[ \t\r\n]*:'))),
    LaunchFile(".volta/hooks.json", _exists),
    *(LaunchFile(name, _searched(_PINNED_PATH)) for name in (
        ".tool-versions", ".node-version", ".nvmrc", ".python-version", ".ruby-version",
        ".go-version", ".java-version", ".terraform-version",
    )),
    *(LaunchFile(name, _exists) for name in (
        "mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".config/mise.toml",
        ".config/mise/config.toml", "mise/config.toml", ".mise/config.toml", ".rtx.toml",
    )),
)  # fmt: skip

# the verbs whose approval covers the project's own code anyway (a build, the project's
# scripts, an install that runs them): the files are not looked at. Any other verb,
# one not known among them, or one that cannot be read, is judged.
_CODE_VERBS: Final[dict[str, frozenset[str]]] = {
    "yarn": frozenset(
        {"", "run", "test", "start", "install", "add", "remove", "up", "upgrade", "exec",
         "node", "dlx", "rebuild", "pack", "publish", "link", "unplug", "workspace",
         "import", "create",
         # berry's dedupe installs again, running the install scripts (closing-36 AV3)
         "dedupe"}
    ),
    "pnpm": frozenset(
        {"", "run", "test", "start", "install", "i", "add", "remove", "rm", "update", "up",
         "exec", "dlx", "create", "rebuild", "pack", "publish", "link", "import", "install-test",
         "it",
         # they install again, running the project's install scripts, as npm's do (closing-36
         # AV3: `pnpm prune` ran the project's `postinstall`)
         "dedupe", "prune"}
    ),
    # npm's install, script and exec verbs, in their aliases (GK6)
    "npm": frozenset(
        {"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
         "isntall", "add", "ci", "clean-install", "ic", "install-clean", "isntall-clean",
         "install-test", "it", "install-ci-test", "cit", "clean-install-test", "sit", "run",
         "run-script", "rum", "urn", "rebuild", "rb", "test", "tst", "t", "start", "stop",
         "restart", "exec", "x", "pack", "publish", "link", "ln", "update", "up", "upgrade",
         "udpate", "explore",
         # they reify the tree as install does, running the install scripts of a
         # `file:` dependency (review GO3); `audit fix` too (`_npm_code_verb`)
         "uninstall", "unlink", "remove", "rm", "r", "un", "dedupe", "ddp", "prune"}
    ),
    "bazel": frozenset(
        {"build", "test", "run", "coverage", "query", "cquery", "aquery", "fetch", "sync",
         "mobile-install", "mod", "vendor", "print_action"}
    ),
}  # fmt: skip
_CODE_VERBS["bazelisk"] = _CODE_VERBS["bazel"]
# yarn's and pnpm's own verbs: any other is a script of `package.json` (project code)
_OWN_VERBS: Final = frozenset(
    {"info", "list", "ls", "why", "config", "outdated", "licenses", "owner", "cache", "bin",
     "dir", "versions", "help", "audit", "npm", "explain", "constraints", "check", "tag",
     "team", "login", "logout", "access", "global", "policies", "generate-lock-entry",
     "workspaces", "root", "store", "view", "show", "search", "doctor", "env", "plugin",
     "set", "version", "init", "patch", "patch-commit", "dedupe", "prune", "fetch", "deploy",
     "setup", "server"}
)  # fmt: skip
# Maven's phases from `compile` on: the project's code builds and runs
_MAVEN_PHASES: Final = frozenset(
    {"process-sources", "generate-resources", "process-resources", "compile",
     "process-classes", "generate-test-sources", "process-test-sources",
     "generate-test-resources", "process-test-resources", "test-compile",
     "process-test-classes", "test", "prepare-package", "package", "pre-integration-test",
     "integration-test", "post-integration-test", "verify", "install", "deploy"}
)  # fmt: skip
# the options that make a line of no verb print the version or help, no install
_INFO_OPTIONS: Final = frozenset({"--version", "-v", "-V", "--help", "-h"})
# options that move the project folder the files are looked up from
_MOVERS: Final[dict[str, frozenset[str]]] = {
    "yarn": frozenset({"--cwd"}),
    "pnpm": frozenset({"-C", "--dir"}),
    "pdm": frozenset({"-p", "--project"}),
    "rye": frozenset({"--pyproject"}),
    # npm reads the `.npmrc` of the prefix, and the files these name (review GK6)
    "npm": frozenset({"--prefix", "-C", "--userconfig", "--globalconfig"}),
}


# the options of npm, pnpm and yarn on the line that set nothing but what they print or
# which packages they list (review GN1: `npm view x --registry=http://registry.npmjs.org/
# --proxy=http://HOST/` sent the user's `~/.npmrc` token through the line's proxy); any
# other option is a setting of theirs (npm takes every configuration key as an option, and
# abbreviations of them) and asks, as it would in `.npmrc`
_NODE_LINE_OPTIONS: Final = _NPMRC_KEYS | frozenset(
    {"depth", "all", "json", "long", "parseable", "global", "workspace", "workspaces",
     "link", "silent", "quiet", "verbose", "dev", "development", "prod", "recursive",
     "filter", "pattern", "pretty", "help", "version", "yes", "no", "only", "installed",
     "outdated", "tree", "extended", "fields", "reporter", "exclude-peers", "lockfile-only",
     "dry-run", "find-by", "format", "porcelain", "summary", "why", "diff", "diff-name-only",
     "diff-ignore-all-space", "diff-unified", "diff-text", "diff-no-prefix",
     "diff-src-prefix", "diff-dst-prefix", "ws", "list", "scope", "omit-scope", "author",
     "searchlimit", "searchopts", "searchexclude", "description", "lock", "strict", "otp"}
)  # fmt: skip
_NODE_SHORT_OPTIONS: Final = frozenset(
    {"-g", "-d", "-dd", "-ddd", "-s", "-q", "-l", "-p", "-a", "-w", "-ws", "-y", "-v", "-h",
     "-r", "-D", "-P", "-R", "-F", "-?"}
)  # fmt: skip
_NODE_TOOLS: Final = frozenset({"npm", "pnpm", "yarn"})


def line_setting(program: str, words: list[str | None]) -> str | None:
    """An option of an npm, pnpm or yarn line that sets more than what it prints
    (`_NODE_LINE_OPTIONS`): `--registry`, `--proxy`, `--ca`, `--strict-ssl` … (GN1)."""
    if program not in _NODE_TOOLS:
        return None
    for word in words:
        if word is None or word == "--":
            return None if word == "--" else "a word that is not literal"
        if word.startswith("--"):
            name = word[2:].partition("=")[0].removeprefix("no-")
            if name not in _NODE_LINE_OPTIONS:
                return word
        elif word.startswith("-") and word != "-" and word not in _NODE_SHORT_OPTIONS:
            return word
    return None


# npm's and pnpm's settings given in variables: `npm_config_KEY` (npm, and pnpm 9 and 10,
# read it in any case, `_` as `-`) and pnpm 11's `pnpm_config_KEY` (`PNPM_CONFIG_KEY`)
_ENV_PREFIXES: Final = ("npm_config_", "pnpm_config_")
# the settings that move npm's user and global `.npmrc` (npm, pnpm and yarn 1 read them;
# pnpm 11's `npmrc-auth-file` is its user `.npmrc`)
_USER_CONFIG_SETTINGS: Final = frozenset({"userconfig", "globalconfig", "npmrc-auth-file"})
# the setting that moves npm's global prefix, whose `etc/npmrc` is then the global
# `.npmrc` (review GR3: `npm_config_prefix=<ws>/dotfiles/.npm-global` sent the user's
# token to the registry a committed `.npm-global/etc/npmrc` named), and the `PREFIX` npm
# and pnpm take as the default prefix
_PREFIX_SETTINGS: Final = frozenset({"prefix"})
# the hooks files pnpm's settings name (review GR2): `require` resolves each as the hooks
# file does (`x.js`, `x.node` …)
_PNPMFILE_SETTINGS: Final = frozenset({"pnpmfile", "global-pnpmfile"})
# the settings that move the folder pnpm takes as its workspace root or lockfile folder,
# where it loads `.pnpmfile.cjs` and reads `pnpm-workspace.yaml`, `.npmrc` and the root
# manifest (review BI3: `npm_config_lockfile_dir=<ws>/evil`, `NPM_CONFIG_WORKSPACE_DIR`,
# or `lockfile-dir=` in `~/.npmrc` ran `<ws>/evil/.pnpmfile.cjs` under an approved `pnpm
# why`); `lockfile-directory` is its old name, `dir` what `--dir` sets (pnpm 9 and 10 take
# those two from the line only, which asks)
_ROOT_SETTINGS: Final = frozenset({"lockfile-dir", "lockfile-directory", "workspace-dir", "dir"})
# the file of a user-level setting naming a hooks file: any entry starting with its name
_PNPMFILE_NAMED: Final = (LaunchFile("*", _exists), LaunchFile("", _exists))
# `DESTDIR` puts npm's default prefix (the node install's) below it: a `DESTDIR` in the
# workspace asks, as the engine does not know where node lies (GR3)
_DESTDIR: Final = (LaunchFile("", _exists),)
# the lines of a user-level `.npmrc` that set a root (`_ROOT_SETTINGS`), as `_PNPMFILE_BYTES`
# finds the hooks files': any key naming one, in any case, quoted or in ini's list form
_ROOT_BYTES: Final = re.compile(
    rb"(?mi)^[ \t]*(?![;#])(?:[^=\n]*(?:lockfile|workspace)[-_]?dir[^=\n]*"
    rb"|[\"' \t]*dir[\"' \t]*(?:\[\])?[ \t]*)=[^\n]*"
)


def env_setting(key: str) -> str | None:
    """The npm or pnpm setting the variable `key` gives (`npm_config_lockfile_dir`,
    `NPM_CONFIG_LOCKFILE_DIR`, `pnpm_config_pnpmfile`: `lockfile-dir`, `pnpmfile`), or
    None. Read as npm's `envKeyToSetting` reads it (any case, `_` as `-`), which covers
    pnpm 11's stricter spellings too."""
    name = key.lower()
    for prefix in _ENV_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix) :].replace("_", "-")
    return None


def _home_path(home: str, value: str) -> str:
    """`value`, a `~/` in front read as the home (as npm reads a path setting)."""
    return os.path.join(home, value[2:]) if value.startswith("~/") else value


def _env_files(home: str, env: Mapping[str, str]) -> list[tuple[str, tuple[LaunchFile, ...]]]:
    """The user-level files the session's variables name: the `.npmrc` files, the
    global one of a moved prefix (GR3) and the hooks files of pnpm's settings (GR2)."""
    found: list[tuple[str, tuple[LaunchFile, ...]]] = []
    for key, value in env.items():
        setting = env_setting(key)
        if not value:
            continue  # (npm and pnpm skip an empty variable)
        if setting in _USER_CONFIG_SETTINGS:
            found.append((_home_path(home, value), (_NPMRC,)))
        elif setting in _PREFIX_SETTINGS or key == "PREFIX":
            found.append((os.path.join(_home_path(home, value), "etc", "npmrc"), (_NPMRC,)))
        elif setting in _PNPMFILE_SETTINGS:
            found.append((_home_path(home, value), _PNPMFILE_NAMED))
        elif key == "DESTDIR" and not env.get("PREFIX"):
            found.append((value, _DESTDIR))
    return found


def _config_files(
    program: str, home: str, env: Mapping[str, str]
) -> list[tuple[str, tuple[LaunchFile, ...]]]:
    """`user_files` without the hooks files the user-level files name."""
    if program not in _NODE_TOOLS:
        return []
    found = [(os.path.join(home, ".npmrc"), (_NPMRC,)), *_env_files(home, env)]
    if program == "pnpm":
        config = os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "pnpm")
        found.append((os.path.join(config, "rc"), (_NPMRC,)))
        # (pnpm 11's global settings, camel-cased as in `pnpm-workspace.yaml`)
        found.append((os.path.join(config, "config.yaml"), (_PNPM_WORKSPACE,)))
    if program == "yarn":
        for name in (".yarnrc", ".yarnrc.yml"):
            entries = tuple(entry for entry in LAUNCHERS["yarn"] if entry.name == name)
            found.append((os.path.join(home, name), entries))
    return found


def user_files(
    program: str, home: str, env: Mapping[str, str]
) -> list[tuple[str, tuple[LaunchFile, ...]]]:
    """The user-level files npm, pnpm or yarn read besides the project's (`~/.npmrc`,
    the files `npm_config_userconfig` and `npm_config_globalconfig` name, the
    `etc/npmrc` of `npm_config_prefix` or `PREFIX` and the hooks files of pnpm's
    `pnpmfile` settings (`_env_files`), pnpm's
    `~/.config/pnpm/rc` and `config.yaml` and the hooks files they name, yarn's `~/.yarnrc`
    and `~/.yarnrc.yml`), each with what judges it: one that lies in the workspace (a home
    in it, a dotfiles repository) is the repository's, judged as the project's files
    (review AK2). A relative path is the working folder's."""
    found = _config_files(program, home, env)
    if program == "pnpm":
        found.extend(_named_pnpmfiles(home, found))
    return found


def relative_pnpmfile(program: str, home: str, env: Mapping[str, str]) -> str | None:
    """A hooks file pnpm is told of by a relative path: a `pnpmfile` variable's, or a
    `pnpmfile=` line of a user-level `.npmrc` (a `pnpmfile:` or `globalPnpmfile:` of
    pnpm 11's `config.yaml`: review BI2) outside the workspace (the one inside is
    judged as the project's). pnpm resolves it against the workspace root (its lockfile
    folder), not the working folder: `npm_config_pnpmfile=hooks.cjs` in `packages/a` ran
    the root's `hooks.cjs` (closing-36 AV4). Where that folder is is not worked out here: a
    relative value asks, as does a value spelt with quotes or `${…}`, or one the scan of
    `config.yaml` does not read."""
    if program != "pnpm":
        return None
    for key, value in env.items():
        if env_setting(key) in _PNPMFILE_SETTINGS and value and _relative(home, value):
            return f"{key}={value}"
    for path, line, setting in _file_settings(
        _config_files(program, home, env), _PNPMFILE_BYTES, _PNPMFILE_SETTINGS
    ):
        if setting is None or _relative(home, setting):
            return f"{path}: {line[:80]}"
    return None


def root_settings(program: str, home: str, env: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """The settings that move pnpm's workspace root or lockfile folder (`_ROOT_SETTINGS`),
    each as it is shown and its value (None: one the scan does not read): a variable's
    (`npm_config_lockfile_dir`, `NPM_CONFIG_WORKSPACE_DIR`, pnpm 11's `pnpm_config_…`),
    a line of a user-level `.npmrc` or `~/.config/pnpm/rc` (`lockfile-dir=`), or of pnpm
    11's `config.yaml` (`lockfileDir:`) (review BI3)."""
    if program != "pnpm":
        return []
    found: list[tuple[str, str | None]] = [
        (f"{key}={value}", value)
        for key, value in env.items()
        if value and env_setting(key) in _ROOT_SETTINGS
    ]
    for path, line, value in _file_settings(
        _config_files(program, home, env), _ROOT_BYTES, _ROOT_SETTINGS
    ):
        found.append((f"{path}: {line[:80]}", value))
    return found


def _file_settings(
    files: Sequence[tuple[str, tuple[LaunchFile, ...]]],
    ini: re.Pattern[bytes],
    names: frozenset[str],
) -> list[tuple[str, str, str | None]]:
    """(file, line, value) for each line of the user-level `.npmrc` files and
    `config.yaml` among `files` (at absolute paths) that sets one of the settings
    `names` (the `.npmrc` lines `ini` finds); None for a value the scan does not read."""
    found: list[tuple[str, str, str | None]] = []
    for path, entries in files:
        if not os.path.isabs(path):
            continue
        if _NPMRC in entries:
            found.extend((path, line, value) for line, value in _ini_settings(path, ini))
        elif _PNPM_WORKSPACE in entries:
            found.extend((path, line, value) for line, value in _yaml_settings(path, names))
    return found


def _ini_settings(path: str, pattern: re.Pattern[bytes]) -> list[tuple[str, str]]:
    """The lines of the `.npmrc` at `path` that `pattern` finds, each with its value."""
    data = read_regular(path, _MAX_BYTES + 1)
    found: list[tuple[str, str]] = []
    for match in pattern.finditer(b"" if data is None else data[:_MAX_BYTES]):
        line = match.group(0).decode("utf-8", "replace").strip()
        found.append((line, line.partition("=")[2].strip()))
    return found


# a top-level key of a YAML file: plain, or quoted without an escape
_YAML_TOP: Final = re.compile(
    r"(?:([A-Za-z_][A-Za-z0-9_-]*)|\"([^\"\\]*)\"|'([^'\n]*)')[ \t]*:(?:[ \t]+(.*))?"
)
# what YAML reads as no value
_YAML_NULL: Final = frozenset({"", "~", "null", "Null", "NULL"})


def _setting_name(key: str) -> str:
    """A YAML key as the setting it is, case and separators aside (`globalPnpmfile`,
    `global-pnpmfile`: `globalpnpmfile`)."""
    return re.sub(r"[-_]", "", key).lower()


def _yaml_settings(path: str, names: frozenset[str]) -> list[tuple[str, str | None]]:
    """The top-level settings `names` of pnpm 11's `config.yaml` at `path` (`pnpmfile:
    x.cjs`, a list of them, `lockfileDir: …`), each line with its value; None for one its
    line scan does not read (review BI2). No YAML parser: a file that mentions none of
    them (nor holds a backslash, which may spell one) sets none; otherwise each line that
    mentions one must be a plain top-level key with a plain scalar, a one-line flow list
    or a block list of plain scalars, and any other (an anchor's body, a merge key, a
    flow mapping, an escape, a nested key) is a value not read."""
    data = read_regular(path, _MAX_BYTES + 1)
    if data is None:
        return []
    text = data.decode("utf-8", "replace")
    wanted = {_setting_name(name) for name in names}
    tokens = tuple(name for name in wanted if len(name) > 3)  # (`dir` as a key alone)

    def mentions(line: str) -> bool:
        compact = re.sub(r"[-_\s\"']", "", line).lower()
        return "\\" in line or any(token in compact for token in tokens)

    if len(data) > _MAX_BYTES:
        return [("a file larger than the scan reads", None)] if mentions(text) else []
    if not mentions(text) and not re.search(r"(?m)^[\"']?dir[\"']?[ \t]*:", text):
        return []
    found: list[tuple[str, str | None]] = []
    listed = False  # (in the block list of one of `names`)
    for raw in re.split(r"\r\n|\r|\n", text):
        line = raw.rstrip(" \t")
        if not _yaml_bare(line):
            continue  # (a blank or comment line)
        if line[0] in " \t-":
            if listed:
                item = _YAML_ITEM.fullmatch(line)
                found.append((line.strip(), _yaml_scalar(item.group(1)) if item else None))
            elif mentions(line):
                found.append((line.strip(), None))
            continue
        listed = False
        key = _YAML_TOP.fullmatch(line)
        if key is None:
            if line not in ("---", "...") and mentions(line):
                found.append((line, None))
            continue
        name = key.group(1) or key.group(2) or key.group(3) or ""
        if _setting_name(name) not in wanted:
            if mentions(line) and _yaml_scalar(key.group(4)) is None:
                found.append((line, None))  # (`x: &a {pnpmfile: …}`, merged by `<<: *a`)
            continue
        value = _yaml_bare(key.group(4))
        if not value:
            listed = True
        elif value.startswith("[") and value.endswith("]"):
            found.extend((line, _yaml_scalar(entry)) for entry in value[1:-1].split(","))
        elif value not in _YAML_NULL:
            found.append((line, _yaml_scalar(value)))
    return found


_INI_COMMENT: Final = re.compile(r"[;#]")


def _named_pnpmfiles(
    home: str, found: Sequence[tuple[str, tuple[LaunchFile, ...]]]
) -> list[tuple[str, tuple[LaunchFile, ...]]]:
    """The hooks files the user-level `.npmrc` files and `config.yaml` among `found` name
    by an absolute path (or a `~/` one), judged where they lie as the variables' are
    (GR2): a user `.npmrc` whose `pnpmfile=` names the repository's `hooks.cjs` ran it
    under an approved `pnpm why` (review HB5; pnpm 11's `config.yaml`: BI2). The value is
    taken whole, without its quotes, and without what follows a `;` or `#` (ini's
    comments); a relative one, or one not read, asks anyway (`relative_pnpmfile`)."""
    named: list[tuple[str, tuple[LaunchFile, ...]]] = []
    for _path, _line, value in _file_settings(found, _PNPMFILE_BYTES, _PNPMFILE_SETTINGS):
        if value is None:
            continue
        cut = _INI_COMMENT.split(value, maxsplit=1)[0].strip()
        for form in sorted({value, value.strip("\"'"), cut, cut.strip("\"'")}):
            absolute = _home_path(home, form)
            if absolute.startswith("/"):
                named.append((absolute, _PNPMFILE_NAMED))
    return named


def home_path(home: str, value: str) -> str:
    """`value` as npm and pnpm read a path setting: a `~/` in front is the home."""
    return _home_path(home, value)


def _relative(home: str, value: str) -> bool:
    """Whether a path setting is not an absolute path, read as npm and pnpm read it (a
    `~/` in front is the home); an empty one is no setting."""
    return bool(value) and not _home_path(home, value).startswith("/")


def user_entry(entry: LaunchFile, path: str) -> LaunchFile:
    """`entry` for the user-level file `path`: its name, with a trailing `*` kept (the
    entries starting with that name: `require`'s resolutions of a hooks file, GR2)."""
    return entry._replace(name=os.path.basename(path) + ("*" if entry.name.endswith("*") else ""))


def covers_code(program: str, words: list[str | None], scripts: Callable[[], set[str]]) -> bool:
    """Whether the approved command runs the project's own code anyway (`yarn build`,
    `mvn test`, `bazel build`), so the launcher's files change nothing."""
    if program in ("mvn", "mvnw"):
        return any(word in _MAVEN_PHASES for word in words)
    verbs = _CODE_VERBS.get(program)
    if verbs is None:
        return False
    scoped = _scoped_verb_words(program, words)
    if scoped is not None:
        # `yarn workspace a why x`, `pnpm recursive why`: the verb after the prefix says
        # whether the project's code runs; now offered with it, an approval of `yarn
        # workspace a why` is no approval of running its scripts (review HB2); yarn runs
        # a workspace's script or bin for a verb of its own it does not know
        if program == "pnpm":
            return covers_code(program, scoped, scripts)
        verb = next((w for w in scoped if w is None or not w.startswith("-")), "")
        return verb is not None and verb not in _OWN_VERBS
    verb = next((w for w in words if w is None or not w.startswith("-")), "")
    if verb is None:
        return False
    if verb == "" and any(word in _INFO_OPTIONS for word in words):
        # `yarnpkg --version`: no install, but yarn 1 and berry run `yarnPath`'s release
        # to print its version or help (review GK7)
        return False
    if verb in verbs or (program == "npm" and _npm_audit_fix(words)):
        return True
    # yarn and pnpm run a script of `package.json` for a verb they do not know
    return program in ("yarn", "pnpm") and verb not in _OWN_VERBS and verb in scripts()


def _scoped_verb_words(program: str, words: list[str | None]) -> list[str | None] | None:
    """The words after pnpm's `recursive` (`m`, `multi`) or yarn's `workspace NAME` and
    `workspaces foreach` at the verb's place, where the verb is (review HB1, HB2)."""
    at = next((i for i, w in enumerate(words) if w is None or not w.startswith("-")), None)
    first = None if at is None else words[at]
    if at is None or first is None:
        return None
    if program == "pnpm" and first in ("recursive", "m", "multi"):
        return words[at + 1 :]
    if program == "yarn" and first == "workspace":
        # (yarn's options and `--` may come before the NAME: review HH1)
        ends = scope_operand_ends(words, at + 1, 1)
        return words[ends[0] :] if ends else None
    if program == "yarn" and first == "workspaces" and words[at + 1 : at + 2] == ["foreach"]:
        return words[at + 2 :]
    return None


# pnpm's own commands (9 and 10: their `commandNames`): any other command is a script
# of the project, or, where no script has that name, a program pnpm runs from
# `node_modules/.bin` or PATH (review BI1: `pnpm git push origin main`, `pnpm node x.js`,
# `pnpm curl URL` ran those programs, and `pnpm git`, `pnpm node`, `pnpm curl` were
# offered)
_PNPM_COMMANDS: Final = frozenset(
    {"add", "approve-builds", "audit", "bin", "c", "cache", "cat-file", "cat-index", "ci",
     "clean-install", "completion", "config", "create", "dedupe", "deploy", "dislink",
     "dlx", "doctor", "env", "exec", "fetch", "find-hash", "get", "help", "i", "ic",
     "ignored-builds", "import", "init", "install", "install-clean", "install-test", "it",
     "la", "licenses", "link", "list", "ll", "ln", "ls", "m", "multi", "outdated", "pack",
     "patch", "patch-commit", "patch-remove", "prune", "publish", "rb", "rebuild",
     "recursive", "remove", "restart", "rm", "root", "run", "run-script", "self-update",
     "server", "set", "setup", "store", "un", "uni", "uninstall", "unlink", "up", "update",
     "upgrade", "why"}
)  # fmt: skip
# the words pnpm 9 and 10 hand to npm, only as the line's first word (`pnpm view x`):
# after an option they are no command of pnpm's, and it runs the program of that name
# (review HH2: `pnpm -s find` ran find, `pnpm --silent view` opened vim)
_PNPM_NPM_COMMANDS: Final = frozenset(
    {"access", "adduser", "bugs", "deprecate", "dist-tag", "docs", "edit", "find", "home",
     "info", "issues", "login", "logout", "owner", "ping", "prefix", "profile", "pkg",
     "repo", "s", "se", "search", "set-script", "show", "star", "stars", "team", "token",
     "unpublish", "unstar", "v", "version", "view", "whoami", "xmas"}
)  # fmt: skip
# yarn's own commands, yarn 1's (its `commands` and their aliases) and berry's (4, with
# its bundled plugins): any other first word is a script of the project, or, where no
# script has that name, the program yarn runs from `node_modules/.bin` (`yarn gulp`, `yarn
# workspace web gulp`: review HX4)
YARN_COMMANDS: Final = frozenset(
    {"access", "add", "audit", "autoclean", "bin", "cache", "check", "config",
     "constraints", "create", "dedupe", "dlx", "exec", "explain", "generate-lock-entry",
     "generateLockEntry", "global", "help", "import", "info", "init", "install",
     "licenses", "link", "list", "lockfile", "login", "logout", "node", "npm", "outdated",
     "owner", "pack", "patch", "patch-commit", "plugin", "policies", "prune", "publish",
     "rebuild", "remove", "run", "search", "set", "stage", "tag", "team", "unlink",
     "unplug", "up", "upgrade", "upgrade-interactive", "upgradeInteractive", "version",
     "versions", "why", "workspace", "workspaces"}
)  # fmt: skip
PNPM_COMMANDS: Final = _PNPM_COMMANDS
PNPM_NPM_COMMANDS: Final = _PNPM_NPM_COMMANDS
# pnpm's options that take no value (nopt reads a flag's `true` or `false` only, and
# the program pnpm runs is then that word, which is judged as any other)
_PNPM_FLAGS: Final = frozenset(
    {"-s", "--silent", "-w", "--workspace-root", "--stream", "--parseable", "--json",
     "--long", "--aggregate-output", "--use-stderr", "--ignore-workspace",
     "--include-workspace-root", "--fail-if-no-match", "-g", "--global", "-D", "--dev",
     "-P", "--prod", "-O", "--optional", "--offline", "--prefer-offline", "-h", "--help",
     "-v", "--version", "--if-present", "--frozen-lockfile", "--shell-mode", "-c"}
)  # fmt: skip
PNPM_FLAGS: Final = _PNPM_FLAGS
# the options whose value pnpm reads from the next word, in both of its readings of the
# line, only where the word is one of their values (`--loglevel warn install` installs;
# `--loglevel mkb x` runs `mkb`)
_PNPM_ENUMS: Final = {
    "--loglevel": frozenset({"silent", "error", "warn", "info", "debug"}),
    "--reporter": frozenset({"silent", "default", "append-only", "ndjson"}),
}
# the options that make pnpm run its fallback in every selected package, where a
# command no script names is an error, not a program it runs
_PNPM_RECURSIVE: Final = frozenset({"-r", "--recursive", "-F", "--filter", "--filter-prod"})


class PnpmFallback(NamedTuple):
    """The program a pnpm line runs where no script runs (`pnpm_fallback`)."""

    program: str | None  # the program pnpm runs (None: a word not read)
    scripts: tuple[str | None, ...]  # the script names of its readings: all must be scripts
    root: bool  # pnpm's workspace root is the folder (`-w`)


def pnpm_fallback(words: Sequence[str | None]) -> PnpmFallback | None:
    """How a pnpm line (the words after `pnpm`) may run a program where no script of the
    project has its name (`pnpm node x.js`, `pnpm git push`), or None where it runs a
    command of pnpm's or runs none (recursive: `pnpm -r X`, `pnpm --filter a X` need a
    script).

    Read as pnpm 9 and 10 read it (review HH2): the command is the first word its parse
    leaves (`--loglevel warn install` installs); one that is none of pnpm's makes pnpm
    run the script of that name, or, where there is none, the program named by the first
    word that is not an option (the line's words after its leading options: no value is
    skipped there; `pnpm --loglevel mkb x` runs `mkb`, `pnpm --loglevel warn x` `warn`);
    `--` ends the options. npm's commands pnpm hands to npm count only as the first word.
    An option not known as a flag may take the next word as its value: the word after
    that is then the command or the script too, and the program runs unless each script
    name is a script."""
    root = False
    ambiguous = False
    program: str | None = None
    found = False  # (whether `program` is known yet)
    index = 0
    while index < len(words):
        word = words[index]
        if word is None:
            return PnpmFallback(program if found else None, (None,), root)
        if word == "--":
            after = words[index + 1] if index + 1 < len(words) else None
            if index + 1 >= len(words) or after in _PNPM_COMMANDS:
                return None
            return PnpmFallback(program if found else after, (after,), root)
        if not word.startswith("-") or word == "-":
            break
        name = word.partition("=")[0]
        if name in _PNPM_RECURSIVE:
            return None
        root = root or name in ("-w", "--workspace-root")
        values = _PNPM_ENUMS.get(name)
        following = words[index + 1] if index + 1 < len(words) else None
        if values is not None and "=" not in word and following in values:
            if not found:
                program, found = following, True  # (the value: `warn`)
            index += 2  # (read as its value by both of pnpm's parses)
            ambiguous = False
            continue
        ambiguous = "=" not in word and name not in _PNPM_FLAGS and not name.startswith("--no-")
        index += 1
    else:
        return None
    command = words[index]
    if not found:
        program = command
    if index == 0 and command in _PNPM_NPM_COMMANDS:
        return None  # (handed to npm)
    following = words[index + 1] if index + 1 < len(words) else ""
    if not ambiguous:
        return None if command in _PNPM_COMMANDS else PnpmFallback(program, (command,), root)
    if command in _PNPM_COMMANDS and following in _PNPM_COMMANDS:
        return None
    return PnpmFallback(program, (command, following), root)


# bun 1.3's commands (`bun --help`, and the names its `which()` knows: `r`, `list`,
# `whoami`, the reserved `deploy`… (review HM5); `bun ci` is `bun install
# --frozen-lockfile`): any other first word is a file, a script of package.json or a
# program (review BR3)
_BUN_COMMANDS: Final = frozenset(
    {"run", "test", "x", "repl", "exec", "install", "i", "ci", "add", "a", "remove", "rm",
     "update", "outdated", "audit", "link", "unlink", "publish", "patch", "patch-commit",
     "pm", "info", "why", "init", "create", "c", "upgrade", "build", "feedback", "help",
     "completions", "getcompletes", "discord", "r", "uninstall", "list", "whoami",
     "deploy", "cloud", "config", "use", "auth", "login", "logout", "prune"}
)  # fmt: skip
# bun's options before the command that take no value
_BUN_FLAGS: Final = frozenset(
    {"--watch", "--hot", "--no-clear-screen", "--smol", "--bun", "-b", "--silent",
     "--if-present", "--no-install", "-i", "--prefer-offline", "--prefer-latest",
     "--inspect", "--inspect-wait", "--inspect-brk", "--no-deprecation",
     "--throw-deprecation", "--no-addons", "--no-macros", "--no-env-file", "-h", "--help",
     "-v", "--version", "--revision", "--verbose"}
)  # fmt: skip
# the names of files bun runs (`bun x.ts`), besides any name with a `/`
_BUN_FILE: Final = re.compile(r".*\.(?:[cm]?[jt]sx?|json|toml|html|sh|wasm|txt)")


def bun_fallback(words: Sequence[str | None]) -> tuple[str | None, ...] | None:
    """The names a bun line (the words after `bun`) may run as a program where no script
    of the project and no program of its `node_modules/.bin` has it (`bun git push`,
    `bun node x.js`), or None where it runs a command of bun's or a file (`bun x.ts`,
    `bun ./x.ts`). bun runs a first word that is none of its commands as a file, the
    package.json script of that name or a program (review BR3, as pnpm: BI1); an option
    not known as a flag may take the next word as its value, so that word and the one
    after it are both read (None: a word not read)."""
    names: list[str | None] = []
    ambiguous = False
    for index, word in enumerate(words):
        if word is None:
            return (*names, None)
        if word == "--" or (word.startswith("-") and word != "-"):
            if word == "--" or word in ("-e", "--eval", "-p", "--print"):
                return None  # (bun's own code: judged as such elsewhere)
            ambiguous = "=" not in word and word not in _BUN_FLAGS
            continue
        if word in _BUN_COMMANDS or "/" in word or _BUN_FILE.fullmatch(word):
            if not ambiguous or index + 1 >= len(words):
                return tuple(names) or None
        else:
            names.append(word)
        if not ambiguous:
            break
        ambiguous = False
    return tuple(names) or None


def _npm_audit_fix(words: list[str | None]) -> bool:
    """Whether the npm line is `npm audit fix`, which installs (review GO3)."""
    return words[:2] == ["audit", "fix"]


def hidden_audit_fix(program: str, words: list[str | None]) -> str | None:
    """The word that makes an npm line other than `npm audit fix …` run `audit fix`:
    npm takes its first operand after `audit` wherever it stands (`npm audit --json
    fix`, `npm audit -- fix`), so the approval of `npm audit` would cover it (review GO3);
    a word not known counts."""
    if program != "npm" or _npm_audit_fix(words):
        return None
    operands = [word for word in words if word is None or not word.startswith("-")]
    if operands[:1] != ["audit"] or len(operands) < 2 or operands[1] not in (None, "fix"):
        return None
    return operands[1] or "a word that is not literal"


def files_for(program: str, words: list[str | None]) -> tuple[LaunchFile, ...]:
    """`LAUNCHERS[program]`, and for Maven with a goal or phase the project's `pom.xml`,
    whose plugin repositories and extensions choose the plugin a goal runs (review GK8;
    `mvn --version` reads no pom)."""
    files = LAUNCHERS[program]
    if program not in ("mvn", "mvnw"):
        return files
    goals = [word for word in words if word is None or not word.startswith("-")]
    if not goals:
        return files
    early = dict.fromkeys(_MAVEN_EARLY[word] for word in goals if word in _MAVEN_EARLY)
    patterns = tuple(_EARLY_EXECUTIONS[name] for name in early)
    return (*files, LaunchFile("pom.xml", _pom_judge(patterns)))


def mover(program: str, words: list[str | None]) -> str | None:
    """An option that moves the folder the tool reads its project's files from."""
    options = _MOVERS.get(program, frozenset())
    for word in words:
        if word is None:
            continue
        name = word.partition("=")[0]
        if name in options:
            return word
    return None


def judge(folder: str, files: tuple[LaunchFile, ...], inside: Inside) -> Finding | None:
    """The first of `files` in `folder` that names a program, or cannot be read."""
    for entry in files:
        if entry.name.endswith("*"):
            found = _wrapper(folder, entry.name[:-1])
            if found is not None:
                return Finding(found, "the file itself")
            continue
        path = os.path.join(folder, entry.name)
        if not paths.lexists(path):
            continue
        if entry.names is _exists:
            return Finding(path, "the file itself")
        data = read_regular(path, _MAX_BYTES + 1)
        if data is None or len(data) > _MAX_BYTES:
            return Finding(path, "a file that cannot be read here")
        what = entry.names(path, data.decode("utf-8", "replace"), inside)
        if what is not None:
            return Finding(path, what)
    return None


def _wrapper(folder: str, name: str) -> str | None:
    """`tools/bazel`, `tools/bazel.linux-x86_64` …: the wrapper bazelisk and Bazel's
    own launcher run in place of Bazel."""
    parent, _slash, prefix = name.rpartition("/")
    where = os.path.join(folder, parent)
    if not os.path.isdir(where):
        return None
    try:
        names = paths.names_starting(where, prefix, _TOOLS_SCAN)
    except OSError:
        return where
    return os.path.join(where, names[0]) if names else None


def scripts(folder: str) -> set[str]:
    """The script names of `folder`'s `package.json` (none when it cannot be read)."""
    data = read_regular(os.path.join(folder, "package.json"), _MAX_BYTES + 1)
    if data is None or len(data) > _MAX_BYTES:
        return set()
    try:
        parsed = json.loads(data)
    except ValueError:
        return set()
    found = parsed.get("scripts") if isinstance(parsed, dict) else None
    return {str(key) for key in found} if isinstance(found, dict) else set()


# Tools whose project manifest is code they run for verbs that look like reads (reviews
# GP4, GP8): bundler evaluates the `Gemfile` (Ruby) for `bundle list|show|check|env …`,
# SwiftPM compiles and runs `Package.swift`, Composer loads the plugins of `vendor/`,
# sbt and Gradle evaluate their build definitions at every start, Leiningen evaluates
# `project.clj`, MSBuild (`dotnet list`) runs property functions and imports
# `Directory.Build.props`, uv builds a project's dynamic metadata with its build backend.
# An approval of such a read verb covered the repository's code, which the person did not
# mean to approve: where a manifest lies in the working folder or one above it in the
# workspace (or, with no names, anywhere: Gradle's and sbt's builds are found upward and
# in the user's init scripts), the verb asks with no offer. The verbs that build, test,
# install or run are the project's code anyway, and keep their offers.
class ManifestTool(NamedTuple):
    manifests: tuple[str, ...]  # () : looked at wherever the tool runs
    verbs: frozenset[str]  # the verbs (one or two words) judged, or with `listed` False
    listed: bool  # those not judged: any other verb is (bundler's are a closed set)
    what: str  # what the manifest is, for the message
    many: bool = False  # takes several tasks (`gradle clean tasks`): each is looked at


# bundler's verbs that install or run the bundle (the Gemfile's code is what is approved
# then), and those that read no Gemfile (`config` lists settings, `init` writes one)
_BUNDLE_FREE: Final = frozenset(
    {"", "install", "update", "exec", "add", "remove", "lock", "cache", "package", "pack",
     "binstubs", "pristine", "clean", "console", "plugin", "inject", "config", "help",
     "version", "init", "gem"}
)  # fmt: skip
# Composer's verbs that install, build or run the project (its plugins' code is approved
# with them), as `_BUNDLE_FREE`: any other verb, none, or `help` is judged (review GT7)
_COMPOSER_FREE: Final = frozenset(
    {"install", "i", "update", "u", "upgrade", "require", "r", "remove", "rm",
     "run-script", "run", "exec", "create-project", "dump-autoload", "dumpautoload",
     "reinstall", "bump", "archive", "test"}
)  # fmt: skip
# Leiningen's verbs that build, test or run the project (review GT7)
_LEIN_FREE: Final = frozenset(
    {"run", "test", "retest", "uberjar", "jar", "compile", "javac", "repl", "install",
     "deploy", "check", "trampoline", "do", "with-profile", "release", "new", "clean", "pom"}
)  # fmt: skip
_GRADLE_READS: Final = frozenset(
    {"tasks", "dependencies", "dependencyInsight", "projects", "properties", "help",
     "buildEnvironment", "outgoingVariants", "resolvableConfigurations", "javaToolchains",
     "model", "components", "dependentComponents", "htmlDependencyReport",
     "kotlinDslAccessorsReport", "artifactTransforms"}
)  # fmt: skip
_GRADLE: Final = ManifestTool(
    (), _GRADLE_READS, True, "the Gradle build, code Gradle evaluates at its start,", True
)
MANIFEST_TOOLS: Final[dict[str, ManifestTool]] = {
    "bundle": ManifestTool(
        ("Gemfile", "gems.rb", ".bundle/config"), _BUNDLE_FREE, False,
        "the Gemfile, Ruby code bundler evaluates,",
    ),
    "swift": ManifestTool(
        ("Package.swift",),
        frozenset(f"package {verb}" for verb in (
            "describe", "show-dependencies", "dump-package", "tools-version",
            "show-executables", "plugin", "config", "archive-source", "dump-symbol-graph",
            "diagnose-api-breaking-changes", "completion-tool")),
        True, "Package.swift, which SwiftPM compiles and runs,",
    ),
    # Composer loads the plugins of `vendor/` for every command, `help` and bare
    # `composer` (`list`) too, and a plugin or a script of composer.json may add any verb:
    # its verbs are a closed set, those not install, build or run ones judged (review GT7)
    "composer": ManifestTool(
        ("composer.json", "vendor"), _COMPOSER_FREE, False,
        "the project, whose installed plugins Composer loads,",
    ),
    "sbt": ManifestTool(
        (),
        frozenset({"version", "sbtVersion", "about", "projects", "tasks", "settings", "help",
                   "inspect", "show", "dependencyTree", "dependencyList",
                   "dependencyBrowseTree", "scalaVersion", "name", "update"}),
        True, "the sbt build, Scala code sbt evaluates at its start,", True,
    ),
    # bare `lein` is `lein help`, and project.clj's aliases and plugins may add any verb:
    # a closed set too (review GT7)
    "lein": ManifestTool(
        ("project.clj",), _LEIN_FREE, False, "project.clj, Clojure code Leiningen evaluates,",
    ),
    "gradle": _GRADLE,
    "gradlew": _GRADLE,
    "dotnet": ManifestTool(
        (),
        frozenset({"list", "package list", "reference list", "sln list", "nuget why",
                   "package search"}),
        True, "the MSBuild project, whose property functions and imports MSBuild runs,",
    ),
    "uv": ManifestTool(
        ("pyproject.toml",),
        frozenset({"tree", "lock", "export", "version"}),
        True, "pyproject.toml, whose build backend uv runs for dynamic metadata,",
    ),
}  # fmt: skip
MANIFEST_ALIASES: Final = {"bundler": "bundle"}
# the variables that move bundler's Gemfile or its `.bundle/config`
BUNDLE_ENV: Final = ("BUNDLE_GEMFILE", "BUNDLE_APP_CONFIG")
# Gradle's tasks its own defaults are named after, which an abbreviation does not stand for
_GRADLE_EXACT: Final = frozenset({"build", "clean", "test", "check", "assemble", "run", "jar"})


def _abbreviates(word: str, verb: str) -> bool:
    """Whether Gradle reads `word` as `verb` (`dep`, `dI` for `dependencyInsight`): each
    camel-case piece of the word starts the verb's piece in its place."""
    pieces = re.findall(r"[A-Z]?[^A-Z]*", word)[:-1] or [word]
    parts = re.findall(r"[A-Z]?[^A-Z]*", verb)[:-1]
    if len(pieces) > len(parts):
        return False
    pairs = zip(pieces, parts, strict=False)
    return all(part.lower().startswith(piece.lower()) for piece, part in pairs)


# Gradle's options that take the next word (common.policy's `options gradle value`): their
# values are no tasks (`gradle init --dsl kotlin`)
_GRADLE_VALUED: Final = frozenset(
    {"--tests", "-x", "--exclude-task", "-p", "--project-dir", "-b", "--build-file", "-c",
     "--settings-file", "-I", "--init-script", "-P", "--project-prop", "-D", "--system-prop",
     "-g", "--gradle-user-home", "--console", "--warning-mode", "--project-cache-dir",
     "--configuration", "--type", "--dsl", "--gradle-version", "--group", "--dependency",
     "--priority", "--test-framework", "--project-name", "--package", "--distribution-type",
     "--max-workers", "--include-build", "--task"}
)  # fmt: skip


def _operands(program: str, words: list[str | None]) -> list[str | None]:
    """The words of a line that are no options (nor, for Gradle, an option's value)."""
    found: list[str | None] = []
    valued = False
    for word in words:
        if not valued and (word is None or not word.startswith("-")):
            found.append(word)
        valued = program in ("gradle", "gradlew") and word in _GRADLE_VALUED
    return found


def manifest_verb(program: str, words: list[str | None]) -> str | None:
    """The verb of a `MANIFEST_TOOLS` line that runs the manifest's code although it looks
    like a read (reviews GP4, GP8), None for another; a word that is not literal counts."""
    tool = MANIFEST_TOOLS[program]
    operands = _operands(program, words)
    if None in operands:
        return "a word that is not literal"
    names = [w for w in operands if w is not None]
    if not names and program in _BARE_RUNS:
        return "(no verb)"  # (review GT7)
    odd = next((name for name in names if _ODD_VERB.search(name)), None)
    if odd is not None and (tool.many or odd == names[0]):
        return odd  # `sbt "show name"`: several commands in one word (review GT7)
    if not tool.listed:
        verb = names[0] if names else ""
        return None if verb in tool.verbs else verb
    for index, name in enumerate(names if tool.many else names[:1]):
        pair = " ".join(names[index : index + 2])
        if name in tool.verbs or pair in tool.verbs:
            return pair if pair in tool.verbs else name
        if tool is _GRADLE:
            task = name.rpartition(":")[2]  # (`:app:dependencies`)
            if task and task not in _GRADLE_EXACT and any(
                _abbreviates(task, verb) for verb in tool.verbs
            ):
                return name
    return None


# tools whose bare name evaluates the manifest: Gradle's default tasks, sbt's build, `lein
# help`, `composer list` with the plugins (review GT7)
_BARE_RUNS: Final = frozenset({"gradle", "gradlew", "sbt", "lein", "composer"})
# a verb word holding spaces, quotes or `;`: sbt runs each command it holds (`sbt "show
# name"`), which the verb tables cannot tell apart (review GT7)
_ODD_VERB: Final = re.compile(r"[\s;'\"`\\]")
# bundler's option that names the Gemfile to evaluate, on any verb (review GT3); bundler's
# option parser (Thor) takes `--gemfile FILE` and `--gemfile=FILE`
_GEMFILE_OPTION: Final = re.compile(r"--gemfile(?:=.*)?", re.S)


def moves_gemfile(words: list[str | None]) -> bool:
    """Whether a bundler line names its Gemfile (`--gemfile evil.rb`): any Ruby file,
    whatever its name, is evaluated (review GT3); a word not literal counts."""
    return any(word is None or _GEMFILE_OPTION.fullmatch(word) for word in words)


# Composer's option that moves it to another folder, whose composer.json and `vendor/`
# plugins it loads (review GW6): `-d DIR`, `-dDIR`, `-nd DIR` (Symfony's short options
# bundle, the one that takes a value ending the bundle), `--working-dir[=DIR]` and any
# start of it (read loosely: which spellings Symfony takes is not reproduced)
_COMPOSER_SHORT_D: Final = re.compile(r"-[A-Za-z]*d.*", re.S)


def composer_working_dir(words: list[str | None]) -> bool:
    """Whether a Composer line names the folder it works in (`show -d sub`), where the
    manifest check of the working folder does not reach (review GW6); a word not literal
    counts."""
    for word in words:
        if word is None:
            return True
        if word.startswith("--"):
            name = word[2:].partition("=")[0]
            if len(name) >= 2 and "working-dir".startswith(name):
                return True
        elif _COMPOSER_SHORT_D.fullmatch(word):
            return True
    return False


def bundle_user_config(home: str | None, env: Mapping[str, str]) -> str | None:
    """Bundler's user settings file (`BUNDLE_USER_CONFIG`, else `config` in
    `BUNDLE_USER_HOME` or `~/.bundle`), whose `BUNDLE_GEMFILE` bundler takes as the
    project's (review GT4); None where no home is known."""
    named = env.get("BUNDLE_USER_CONFIG")
    if named:
        return named
    folder = env.get("BUNDLE_USER_HOME") or (os.path.join(home, ".bundle") if home else None)
    return os.path.join(folder, "config") if folder else None


# `gem exec`'s options that take the next word (RubyGems >= 3.5)
_GEM_EXEC_VALUED: Final = frozenset({"-g", "--gem", "-v", "--version", "--platform"})


def gem_exec_line(words: list[str | None]) -> tuple[str, list[str | None]] | None:
    """The program and words `gem exec` runs (`gem exec bundle list`: `bundle`, [`list`]),
    the gem's version (`bundler:2.3.7`) left off; ("", []) where they cannot be told
    (a word not literal); None for a line that is no `gem exec` (review GT8)."""
    if words[:1] != ["exec"]:
        return None
    rest = words[1:]
    index = 0
    while index < len(rest):
        word = rest[index]
        if word is None:
            return ("", [])
        if word == "--":
            index += 1
            break
        if not word.startswith("-"):
            break
        index += 2 if word in _GEM_EXEC_VALUED else 1
    if index >= len(rest) or rest[index] is None:
        return ("", []) if index < len(rest) else None
    program = str(rest[index]).partition(":")[0].rpartition("/")[2]
    return (program, rest[index + 1 :])


def manifest_files(tool: ManifestTool) -> tuple[LaunchFile, ...]:
    """A `MANIFEST_TOOLS` entry's manifests, as `judge` looks for them (there: found)."""
    return tuple(LaunchFile(name, _exists) for name in tool.manifests)
