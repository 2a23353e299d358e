"""The real site's changelog (docsys.build.changelog): both pages list every page of their language, both
feeds are RSS with absolute links into that language, and every page announces its language's feed."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from docsys.build.changelog import CHANGELOG_SLUG, feed_name
from docsys.core.paths import LANGS, page_paths

FEED_LINK_RE = re.compile(r'<link rel="alternate" type="application/rss\+xml" title="[^"]+" href="([^"]+)">')
ARTICLE_RE = re.compile(r"<article[^>]*>(.*)</article>", re.S)


def _root(lang: str) -> str:
    return "" if lang == "en" else f"{lang}/"


def test_both_changelog_pages_link_every_page_of_their_language(built_site):
    missing = []
    for lang in LANGS:
        article = ARTICLE_RE.search((built_site.path / _root(lang) / CHANGELOG_SLUG / "index.html").read_text())[1]
        for page in page_paths(lang):
            href = {"index": "../", CHANGELOG_SLUG: "./"}.get(page.stem, f"../{page.stem}/")
            if f'href="{href}"' not in article:
                missing.append(f"{lang}/{CHANGELOG_SLUG}: no link to {lang}/{page.stem}")
        if f'href="{"../" * (lang != "en")}../{feed_name(lang)}"' not in article:
            missing.append(f"{lang}/{CHANGELOG_SLUG}: no link to its feed {feed_name(lang)}")
    assert not missing, "\n".join(missing)


def test_both_feeds_are_rss_with_absolute_links_into_their_language(built_site):
    for lang in LANGS:
        rss = ET.parse(built_site.path / feed_name(lang)).getroot()  # noqa: S314 (this build's own feed)
        assert rss.tag == "rss" and rss.get("version") == "2.0", lang
        items = rss.findall("channel/item")
        assert items, f"{feed_name(lang)} has no items"
        base = rss.findtext("channel/link").removesuffix(f"{_root(lang)}{CHANGELOG_SLUG}/")
        assert base.startswith(("http://", "https://")), base
        for item in items:
            link = item.findtext("link")
            slug = link.removeprefix(base + _root(lang)).strip("/")
            assert link.startswith(base + _root(lang)) and (slug == "" or "/" not in slug), link
            assert (built_site.path / _root(lang) / slug / "index.html").is_file(), link
            assert item.findtext("pubDate") and item.findtext("title") and item.findtext("guid")


def test_every_page_announces_its_languages_feed(built_site):
    wrong = []
    for page in built_site.path.rglob("index.html"):
        rel = page.relative_to(built_site.path).as_posix()
        lang = "zh" if rel.startswith("zh/") else "en"
        if rel.split("/")[0] in ("pagefind", "assets"):
            continue
        found = FEED_LINK_RE.findall(page.read_text(encoding="utf-8"))
        target = (page.parent / found[0]).resolve() if len(found) == 1 else None
        if target != (built_site.path / feed_name(lang)).resolve():
            wrong.append(f"{rel}: {found}")
    assert not wrong, "\n".join(wrong[:10])
