"""Lighter notebook pages: of the stylesheet mkdocs-jupyter puts into each notebook page, keep the
rules that can match something on the page. Called by the notebook hook (docsys/build/notebook.py,
on_post_page) before it moves what is left into a file: one place orders the two.

mkdocs-jupyter inlines JupyterLab's whole stylesheet (~575 KB, 86 KB gzipped); docsys/build/notebook.py
moves it into a file, which every notebook page still loads before it can render. Most of it
styles JupyterLab's own interface, and 80 KB are custom properties under `.jupyter-wrapper :root`,
a selector that matches nothing (:root is never inside another element). A rule is kept when
every class and id its selector names appears in a class or id attribute of the page, or in the
theme's scripts (Material's JavaScript adds elements and classes after load: a notebook's table is
wrapped in `div.md-typeset__scrollwrap`, which JupyterLab's stylesheet styles), and it cannot be
ruled out in another way (@media and @supports blocks are pruned inside; other at-rules
are kept). Nothing on the page changes its look: tests/tooling/test_notebook_css.py compares
every element's computed style with a build that keeps the whole stylesheet
(NOTEBOOK_CSS_KEEP=1).

Parsing the stylesheet takes ~1 s, so the result is cached in `.cache/notebook-css/` by a hash of
the stylesheet and the names the pages use.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from docsys.build.config import project_dir
from docsys.build.files import write_atomically

CACHE_DIR = Path(".cache") / "notebook-css"  # relative to mkdocs.yml's folder
KEEP_ENV = "NOTEBOOK_CSS_KEEP"  # set: keep the whole stylesheet (to compare against)
VERSION = "3"  # bump when the pruning changes, to invalidate the cache

_STYLE_RE = re.compile(r"(<style[^>]*>)(?P<css>(?:(?!</style>).){4096,}?)(</style>)", re.S)
_NAMES_RE = re.compile(r'\b(?:class|id)="([^"]*)"')
_SELECTOR_NAME_RE = re.compile(r"[.#]((?:[\w-]|\\.)+)")
_NEVER_MATCHES_RE = re.compile(r"\S\s+:root\b")  # :root below another element
_INNERMOST_PARENTHESES_RE = re.compile(r"\([^()]*\)")
_SCRIPT_WORD_RE = re.compile(r"[A-Za-z_][\w-]*")
SCRIPTS = "assets/javascripts/*.js"  # under each theme folder and docs/: the scripts every page loads


def prune_styles(output: str, page: Page, config: MkDocsConfig) -> str:
    """A notebook page with each inline stylesheet pruned to the rules that can match it."""
    if not page.file.src_uri.endswith(".ipynb") or os.environ.get(KEEP_ENV):
        return output
    names = page_names(output) | script_names(_script_files(config))
    cache = Path(os.environ.get("NOTEBOOK_CSS_CACHE_DIR") or project_dir(config) / CACHE_DIR)
    return _STYLE_RE.sub(lambda m: m[1] + pruned(m["css"], names, cache) + m[3], output)


def page_names(html: str) -> frozenset[str]:
    """Every class and id on the page."""
    return frozenset(name for value in _NAMES_RE.findall(html) for name in value.split())


def _script_files(config: MkDocsConfig) -> tuple[Path, ...]:
    folders = [*config.theme.dirs, config.docs_dir]
    return tuple(sorted(path for folder in folders for path in Path(folder).glob(SCRIPTS)))


@cache
def script_names(scripts: tuple[Path, ...]) -> frozenset[str]:
    """Every word in the scripts: any of them may be a class or id a script adds to the page
    (a word that is not one only keeps a rule that matches nothing)."""
    return frozenset(word for path in scripts for word in _SCRIPT_WORD_RE.findall(path.read_text(encoding="utf-8")))


def pruned(css: str, names: frozenset[str], cache: Path) -> str:
    """`css` without the rules that cannot match a page with these class and id names (cached)."""
    key = hashlib.sha256(f"{VERSION}\0{css}\0{' '.join(sorted(names))}".encode()).hexdigest()[:32]
    entry = cache / f"{key}.css"
    try:
        return entry.read_text(encoding="utf-8")
    except OSError:
        pass
    import tinycss2  # (installed with nbconvert) imported only when the cache lacks this stylesheet

    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    text = "".join(_kept(rules, names))
    write_atomically(entry, text)
    return text


def _kept(rules: list, names: frozenset[str]) -> list[str]:
    import tinycss2

    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            matching = [s for s in _selectors(rule.prelude) if can_match(s, names)]
            if matching:
                kept.append(f"{','.join(matching)}{{{tinycss2.serialize(rule.content)}}}")
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports") and rule.content:
            inner = _kept(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True), names)
            if inner:
                kept.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{''.join(inner)}}}")
        elif rule.type == "at-rule":
            kept.append(tinycss2.serialize([rule]))
    return kept


def _selectors(prelude: list) -> list[str]:
    """The selectors of a rule's selector list: split at its top-level commas (not those in :is())."""
    import tinycss2

    groups: list[list] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            groups.append([])
        else:
            groups[-1].append(token)
    return [tinycss2.serialize(group).strip() for group in groups]


def can_match(selector: str, names: frozenset[str]) -> bool:
    """False only for a selector that certainly matches nothing on the page: one that puts :root
    below another element, or names a class or id the page lacks outside any :is(), :not() ..."""
    if _NEVER_MATCHES_RE.search(selector):
        return False
    while _INNERMOST_PARENTHESES_RE.search(selector):  # alternatives and negations: no requirement
        selector = _INNERMOST_PARENTHESES_RE.sub("", selector)
    return all(name.replace("\\", "") in names for name in _SELECTOR_NAME_RE.findall(selector))
