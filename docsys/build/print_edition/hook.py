"""The MkDocs hook of the print edition (mkdocs.yml `hooks:`; the package docstring says what it is).

mkdocs-static-i18n builds one language at a time; for each, this hook adds the language's print page
to its files (after i18n has rebuilt them), keeps every page's built article and the nav's order, links
the print page from every page's footer, and at the end of the language's build fills the print page
with those articles (and, where the language needs one, the font it is printed with).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.utils import get_relative_url

from docsys.build.config import language, project_dir, serving
from docsys.build.print_edition import font
from docsys.build.print_edition.pages import Edition, Page, article, article_file, article_of, body
from docsys.build.strings import strings
from docsys.core.paths import DEFAULT_LANG, lang_root
from docsys.core.print_layout import SLUG

log = logging.getLogger("mkdocs.hooks.print_edition")  # under "mkdocs": --strict counts its warnings

PLACEHOLDER = '<div id="print-edition-pages"></div>'
STYLESHEET = "assets/print.css"  # the print page's own rules (docs/assets/print.css)
SCRIPT = "assets/print.js"  # what puts each page's article into the print page (docs/assets/print.js)
FONTS_DIR = "assets/fonts"
FONTED = {"zh"}  # languages printed with the site's own CJK font (docsys.build.print_edition.font)


@dataclass
class _Build:
    """What one language's build knows about its print page."""

    lang: str = DEFAULT_LANG
    file: File | None = None
    order: list[tuple[MkDocsPage, str | None]] = field(default_factory=list)  # nav order, with each page's section
    articles: dict[str, str] = field(default_factory=dict)  # page URL -> its article


_state = _Build()
_dirty = False


def on_startup(*, command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty


@event_priority(-150)  # after i18n's on_files (-100), which rebuilds every File from docs/
def on_files(files: Files, config: MkDocsConfig) -> Files:
    global _state
    _state = _Build(lang=language(config))
    file = File.generated(
        config, f"{_state.lang}/{SLUG}.md", content=markdown(_state.lang), inclusion=InclusionLevel.NOT_IN_NAV
    )
    file.dest_uri = f"{lang_root(_state.lang)}{SLUG}/index.html"
    file.url = f"{lang_root(_state.lang)}{SLUG}/"
    file.abs_dest_path = os.path.normpath(os.path.join(config.site_dir, file.dest_uri))
    languages = getattr(config.plugins.get("i18n"), "build_languages", None) or [_state.lang]
    file.locale = file.locale_alternate_of = _state.lang  # what i18n's language switcher reads
    file.alternates = {lang: SimpleNamespace(url=f"{lang_root(lang)}{SLUG}/") for lang in languages}
    files.append(file)
    _state.file = file
    return files


def markdown(lang: str) -> str:
    """The print page's source: its title and introduction; the build fills in the pages."""
    s = strings(lang)
    front = {"title": s["print_title"], "description": s["print_description"]}
    yaml = "".join(f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in front.items())
    return (
        f"---\n{yaml}hide: [navigation, toc]\nsearch: {{exclude: true}}\n---\n\n"
        f"# {s['print_title']} {{ #print-edition }}\n\n{s['print_intro']}\n\n{PLACEHOLDER}\n"
    )


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    _state.order = list(_in_order(nav.items, None))
    return nav


def _in_order(items, section: str | None):
    for item in items:
        if isinstance(item, Section):
            yield from _in_order(item.children, section or item.title)
        elif isinstance(item, MkDocsPage):
            yield item, section


def on_page_context(context: dict, page: MkDocsPage, config: MkDocsConfig, nav) -> dict:
    """The footer's link to this language's print page (overrides/partials/copyright.html)."""
    if _state.file is not None and page.file is not _state.file:
        context["print_edition"] = {
            "url": get_relative_url(_state.file.url, page.url),
            "label": strings(_state.lang)["print_link"],
        }
    return context


def on_post_page(output: str, page: MkDocsPage, config: MkDocsConfig) -> str:
    if page.file is not _state.file:
        article = article_of(output)
        if article is not None:
            _state.articles[page.url] = article
    return output


def on_post_build(config: MkDocsConfig) -> None:
    """Fill this language's print page (before i18n's on_post_build, -100, starts the next language)."""
    if _state.file is None or not _state.order:
        return
    if _dirty:  # a dirty rebuild renders only the changed pages: the others' articles are not at hand
        log.info(f"Print edition ({_state.lang}): not filled in a dirty build; a full build fills it")
        return
    start = time.perf_counter()
    target = Path(_state.file.abs_dest_path)
    page_html = target.read_text(encoding="utf-8")
    if PLACEHOLDER not in page_html:
        log.warning(
            f"print edition ({_state.lang}): {_state.file.dest_uri} has no {PLACEHOLDER} to fill; "
            "something between its Markdown and its HTML removed it"
        )
        return
    edition = _edition()
    page_html = page_html.replace(PLACEHOLDER, body(edition, strings(_state.lang)), 1)
    articles = _write_articles(edition, target.parent)
    head = (
        f'<link rel="stylesheet" href="{get_relative_url(STYLESHEET, _state.file.url)}">'
        f'<script src="{get_relative_url(SCRIPT, _state.file.url)}" defer></script>'
    )
    made = ""
    if _state.lang in FONTED:
        style, made = _font_style(page_html + "".join(articles), config)
        head += style
    target.write_text(page_html.replace("</head>", head + "</head>", 1), encoding="utf-8")
    log.info(
        f"Print edition ({_state.lang}): {len(edition.pages)} pages, {len(page_html) // 1024} KiB and "
        f"{sum(map(len, articles)) // 1024} KiB of articles{made} in {time.perf_counter() - start:.2f} s"
    )


def _write_articles(edition: Edition, folder: Path) -> list[str]:
    """Each page's article, written where its section in the print page names it."""
    written = []
    for page in edition.pages:
        text = article(edition, page.url, _state.articles[page.url])
        path = folder / article_file(edition.key(page.url))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(text)
    return written


def _edition() -> Edition:
    missing = [page.file.src_uri for page, _ in _state.order if page.url not in _state.articles]
    if missing:
        log.warning(f"print edition ({_state.lang}): no article in {', '.join(missing)}; left out")
    pages = tuple(
        Page(page.url, page.title or "", section) for page, section in _state.order if page.url in _state.articles
    )
    return Edition(url=_state.file.url, root=lang_root(_state.lang), pages=pages)


def _font_style(page_html: str, config: MkDocsConfig) -> tuple[str, str]:
    """The print page's font rules, with the subsets copied into the site; ("", "") and a warning
    when the source font is missing."""
    chars = font.characters(page_html)
    try:
        cache = Path(os.environ.get(font.CACHE_ENV) or project_dir(config) / font.CACHE_DIR)
        faces = font.faces(chars, cache, reuse_newest=serving())
    except font.FontMissing as error:
        log.warning(f"print edition ({_state.lang}): {error}")
        return "", ""
    urls = {}
    for face in faces:
        name = f"{lang_root(_state.lang)}{FONTS_DIR}/{face.path.name}"
        destination = Path(config.site_dir) / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(face.path, destination)
        urls[face.weight] = get_relative_url(name, _state.file.url)
    made = sum(face.made for face in faces)
    size = sum(face.path.stat().st_size for face in faces) // 1024
    return font.stylesheet(urls), f"; {len(chars)} CJK characters, font {size} KiB ({made} of {len(faces)} subset now)"
