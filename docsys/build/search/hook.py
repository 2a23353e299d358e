"""The MkDocs hook of site search (mkdocs.yml `hooks:`): it keeps each page's article while a
language builds, tells every page where its language's index is, and writes that index at the end
of the language's build (the package docstring says what is indexed and how)."""

from __future__ import annotations

import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from docsys.build.config import project_dir
from docsys.build.search.bundle import BUNDLE, CACHE_DIR, CACHE_ENV, write_index
from docsys.build.search.languages import Language, glossary_terms, language_root
from docsys.core.paths import DEFAULT_LANG, page_lang

# Under the "mkdocs" logger, so that `--strict` counts this module's warnings.
log = logging.getLogger("mkdocs.hooks.search")

_ARTICLE_RE = re.compile(r'<article class="md-content__inner md-typeset">(.*)</article>', re.S)


@dataclass
class _Build:
    """The pages of the language being built (mkdocs-static-i18n builds one language at a time)."""

    lang: str = DEFAULT_LANG
    pages: dict[str, str] = field(default_factory=dict)  # path under the language root -> article HTML


_state = _Build()


def on_pre_build(config: MkDocsConfig) -> None:
    global _state
    _state = _Build()


def on_page_context(context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
    """Tell the search box where this language's index is (overrides/partials/search-bridge.html)."""
    context["search_bundle"] = get_relative_url(f"{language_root(page_lang(page.file.src_uri))}{BUNDLE}/", page.url)
    return context


def on_template_context(context: dict, template_name: str, config: MkDocsConfig) -> dict:
    """The 404 page has search too; it is served at any path, so its index's URL is absolute."""
    if template_name == "404.html":
        lang = getattr(config.plugins.get("i18n"), "current_language", None) or DEFAULT_LANG
        context["search_bundle"] = f"{urlsplit(config.site_url or '/').path.rstrip('/')}/{language_root(lang)}{BUNDLE}/"
    return context


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Keep the page's article for the index (the 404 page is not a search result, nor a page whose
    front matter says `search: {exclude: true}`, as the print editions' do: docsys/build/print_edition)."""
    if ((getattr(page, "meta", None) or {}).get("search") or {}).get("exclude"):
        return output
    lang = page_lang(page.file.src_uri)
    article = _ARTICLE_RE.search(output)
    if article and page.file.dest_uri not in ("404.html", f"{lang}/404.html"):
        _state.lang = lang
        _state.pages[page.file.dest_uri.removeprefix(language_root(lang))] = article[1]
    return output


def on_post_build(config: MkDocsConfig) -> None:
    """Index this language's pages into <site>/<language root>/pagefind/."""
    if not _state.pages:
        return
    start = time.perf_counter()
    language = Language(_state.lang, glossary_terms(Path(config.docs_dir), _state.lang))
    cache_root = Path(os.environ.get(CACHE_ENV) or project_dir(config) / CACHE_DIR)
    write_index(_state.pages, language, Path(config.site_dir) / language_root(language.code) / BUNDLE, cache_root)
    log.info(f"Search ({language.code}): {len(_state.pages)} pages indexed in {time.perf_counter() - start:.2f} s")
