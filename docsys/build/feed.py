"""MkDocs hook: each language's changelog as an RSS 2.0 feed, announced in the <head> of its home page and changelog.

The entries are docsys.build.changelog's, the same ones the changelog page lists, read once per
build. The feed is written at the end of the language's build to `<site>/feed-<lang>.xml`, its links
absolute from `site_url` (the deploy workflow sets SITE_URL). That language's home page and changelog
(announces_feed; no other page) link it with `<link rel="alternate" type="application/rss+xml">`
(overrides/main.html), by a relative URL:
Material's script fetches `sitemap.xml` beside every alternate link, which must be the served site's.

Why not mkdocs-rss-plugin: it dates each page by its own file's git dates, so it cannot say that a
page's output was re-recorded (a change to snippets/, not to the page), and it writes one feed for
the whole build, not one per mkdocs-static-i18n language (CONTRIBUTING.md, "The changelog").
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from docsys.build import changelog
from docsys.build.config import language
from docsys.build.files import write_atomically
from docsys.build.strings import strings
from docsys.core.paths import DEFAULT_LANG, page_lang

log = logging.getLogger("mkdocs.hooks.feed")


def _has_changelog(config: MkDocsConfig, lang: str) -> bool:
    return (Path(config.docs_dir) / lang / f"{changelog.CHANGELOG_SLUG}.md").is_file()


def _lang_root(lang: str) -> str:
    return "" if lang == DEFAULT_LANG else f"{lang}/"


def on_pre_build(config: MkDocsConfig) -> None:
    """A new build reads the history again (mkdocs-static-i18n builds the other languages inside the first)."""
    if not getattr(config.plugins.get("i18n"), "building", False):  # True while it builds another language
        changelog.forget()


def announces_feed(src_uri: str) -> bool:
    """Only the home page and the changelog link the feed in <head>: Material's script fetches sitemap.xml
    beside every rel="alternate" link (overrides/main.html), a request per page view that the others need not
    make; a feed reader given the site's address finds the feed on its home page."""
    return src_uri.split("/", 1)[-1] in ("index.md", f"{changelog.CHANGELOG_SLUG}.md")


def on_page_context(context: dict, page: Page, config: MkDocsConfig, nav) -> dict:
    lang = page_lang(page.file.src_uri)
    if _has_changelog(config, lang) and announces_feed(page.file.src_uri):
        context["changelog_feed"] = {
            "href": get_relative_url(changelog.feed_name(lang), page.url),
            "title": strings(lang)["changelog_feed_title"],
        }
    return context


def on_post_build(config: MkDocsConfig) -> None:
    lang = language(config)
    if not _has_changelog(config, lang):
        return
    docs_dir = Path(config.docs_dir)
    log_ = changelog.changelog(docs_dir, lang)
    title = strings(lang)["changelog_channel"].format(site=config.site_name)
    site_url = config.site_url or "/"

    def make() -> str:
        return changelog.feed(log_, lang, log_.titles, site_url, _lang_root(lang), title)

    past = changelog.history_of(docs_dir)
    if past.problem:
        text = make()
    else:
        key = hashlib.sha256(f"{past.key}\n{site_url}\n{title}".encode()).hexdigest()[:20]
        text = changelog.cached_text(changelog.cache_path(docs_dir.resolve().parent, f"feed-{lang}", key), make)
    write_atomically(Path(config.site_dir) / changelog.feed_name(lang), text)
