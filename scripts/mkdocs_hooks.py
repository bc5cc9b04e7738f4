"""MkDocs hooks: a nav that may name pages not written yet, and GitHub-style table pipes.

The site grows page by page while several people write it. mkdocs.yml lists the whole
planned site; this hook removes nav entries whose Markdown file does not exist yet (and
sections left empty), logging each at info level. The opposite mistake still fails the
strict build: a page on disk that the nav does not list is reported by mkdocs itself
(`validation.nav.omitted_files: warn`), and so is a nav entry with a typo, because the
real page it meant is then omitted.

The second hook: in a Markdown table, GitHub needs a `|` inside a code span written as
`\\|`, and renders it as `|`; Python-Markdown keeps the backslash. Pages are written the
GitHub way (so they read right on both), and `on_page_content` drops that backslash from
code spans inside table cells of the built site.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TypeAlias

from mkdocs.config.defaults import MkDocsConfig

log = logging.getLogger("mkdocs.hooks.policylang")

NavItem: TypeAlias = "str | dict[str, str | list[NavItem]]"


def _is_external(target: str) -> bool:
    return "://" in target


def prune_nav(items: list[NavItem], docs_dir: Path) -> list[NavItem]:
    """The nav without entries whose page is missing from `docs_dir`, nor empty sections."""
    kept: list[NavItem] = []
    for item in items:
        if isinstance(item, str):
            if _is_external(item) or (docs_dir / item).is_file():
                kept.append(item)
            else:
                log.info("nav: page %s is not written yet; left out of the site", item)
            continue
        pruned: dict[str, str | list[NavItem]] = {}
        for title, target in item.items():
            if isinstance(target, list):
                children = prune_nav(target, docs_dir)
                if children:
                    pruned[title] = children
            elif _is_external(target) or (docs_dir / target).is_file():
                pruned[title] = target
            else:
                log.info("nav: page %s (%s) is not written yet; left out", target, title)
        if pruned:
            kept.append(pruned)
    return kept


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if config.nav is not None:
        config.nav = prune_nav(config.nav, Path(config.docs_dir))
    return config


_TABLE_CELL = re.compile(r"(<t[dh]\b[^>]*>)(.*?)(</t[dh]>)", re.DOTALL)
_CODE_SPAN = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.DOTALL)


def unescape_table_pipes(html: str) -> str:
    """`\\|` as `|` in code spans of table cells; code blocks and prose are left alone."""

    def code(match: re.Match[str]) -> str:
        return match[1] + match[2].replace("\\|", "|") + match[3]

    def cell(match: re.Match[str]) -> str:
        return match[1] + _CODE_SPAN.sub(code, match[2]) + match[3]

    return _TABLE_CELL.sub(cell, html)


def on_page_content(html: str, **_: object) -> str:
    return unescape_table_pipes(html)
