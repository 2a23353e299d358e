"""MkDocs hook: a translation marked pending says so at its top, and the build lists such pages.

A zh page whose front matter says `translation: {pending: true}` follows an older version of its
en page (docsys.translations.records). Under its title the reader gets a notice in the page's language
(strings.yml: translation_pending*), naming the sections whose English text changed and linking
each to the English page. The build's log lists every pending page (INFO: a pending page is a
deliberate state, not a failure; docsys.translations fails the suite for a page that is
behind without saying so).
"""

from __future__ import annotations

import html
import logging
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from docsys.build.strings import strings
from docsys.core.paths import DEFAULT_LANG, page_lang
from docsys.core.text import inside_fences, sections
from docsys.translations.records import changed_sections, record_of, section_hashes

log = logging.getLogger("mkdocs.hooks.translations")
_pending: list[str] = []


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    lang = page_lang(page.file.src_uri)
    record = record_of(page.meta)
    if lang == DEFAULT_LANG or record is None or not record.pending:
        return markdown
    en_source = Path(config.docs_dir) / DEFAULT_LANG / page.file.src_uri.split("/", 1)[1]
    changed = changed_sections(section_hashes(en_source.read_text(encoding="utf-8")), record) \
        if en_source.is_file() else []
    _pending.append(f"{page.file.src_uri} ({', '.join('#' + a for a in changed) or 'no changed section'})")
    en_url = page.url.split("/", 1)[1] if "/" in page.url else ""
    relative = get_relative_url(en_url, page.url).rstrip("/") + "/"
    return insert_under_title(markdown, notice(markdown, changed, relative, lang))


def on_post_build(config: MkDocsConfig) -> None:
    if _pending:
        log.info("Translations pending (each shows a notice): " + "; ".join(_pending))
    _pending.clear()


def notice(markdown: str, changed: list[str], en_url: str, lang: str) -> list[str]:
    """The notice's HTML: the changed sections by their title in this page, each linked to en."""
    s = strings(lang)
    titles = {section.anchor: s["translation_pending_top"] if section.level == 1 else section.title
              for section in sections(markdown)}
    links = [f'<a href="{html.escape(en_url)}#{a}" hreflang="en">{html.escape(titles.get(a, a))}</a>' for a in changed]
    body = s["translation_pending_body"].format(sections=s["list_separator"].join(links), url=html.escape(en_url))
    return ['<div class="admonition warning translation-pending">',
            f'<p class="admonition-title">{html.escape(s["translation_pending"])}</p>', f"<p>{body}</p>", "</div>"]


def insert_under_title(markdown: str, block: list[str]) -> str:
    """The page with `block` after its first `# ` heading (at the top when it has none)."""
    lines = markdown.split("\n")
    fenced = inside_fences(lines)
    title = next((i for i, line in enumerate(lines) if i not in fenced and line.startswith("# ")), -1)
    return "\n".join([*lines[: title + 1], "", *block, "", *lines[title + 1 :]])
