"""The print edition of each language on the real site (docsys/build/print_edition): every page in nav order
with its figures and graphs, ids unique, links landing; a light page whose script fills in every article;
printed by Chromium, Chinese in the site's own font."""

from __future__ import annotations

import gzip

import pytest

from docsys.checks import print_edition as edition
from docsys.checks.browser import serve
from docsys.core.paths import ARTIFACTS_DIR, LANGS

LIGHT_PAGE_BYTES = 60_000  # the print page before its script fills it: ~25 KB; all its articles are ~2.6 MB


def _page(built_site, lang: str) -> str:
    """The print page as its script leaves it, every article in place."""
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    return edition.assembled(built_site.path, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_print_page_is_light_and_names_every_article_file_once(built_site, lang):
    """Its articles come after it has shown (assets/print.js): 2.6 MB of HTML in one document scored 28 for
    Lighthouse's performance on a phone."""
    filled = _page(built_site, lang)
    shell = (built_site.path / edition.print_url(lang) / "index.html").read_text(encoding="utf-8")
    named = edition.named_article_files(shell)
    on_disk = [f"{edition.ARTICLES_DIR}/{path.name}" for path in edition.article_files(built_site.path, lang)]
    assert len(shell.encode()) < LIGHT_PAGE_BYTES, f"{len(shell.encode())} bytes before its articles are in"
    assert sorted(named) == on_disk and len(set(named)) == len(named) > 30, (named, on_disk)
    titled = filled.count('<span class="filename">')
    assert titled > 30 and '<span class="filename"><a' not in filled  # no downloads on paper


@pytest.mark.parametrize("lang", LANGS)
def test_the_print_edition_holds_every_page_title_in_nav_order(built_site, lang):
    found = edition.parse(_page(built_site, lang))
    expected = edition.nav_titles(built_site.path, lang)
    assert len(expected) > 30
    problems = edition.order_problems(found.titles, expected)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_print_edition_holds_every_figure_and_graph_and_they_load(built_site, lang):
    page_html = _page(built_site, lang)
    found = edition.parse(page_html)
    in_pages = edition.article_images(built_site.path, lang)
    print(
        f"\n{lang}: {found.images} images, {len(page_html.encode())} bytes, "
        f"{len(gzip.compress(page_html.encode()))} gzipped"
    )
    assert found.images == in_pages > 20, f"{found.images} images in the print page, {in_pages} in the pages"
    missing = edition.unresolved_urls(built_site.path, edition.print_url(lang), found)
    assert not missing, f"URLs of the print page that name no file: {missing[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_ids_are_unique_and_every_in_page_link_lands(built_site, lang):
    found = edition.parse(_page(built_site, lang))
    assert not edition.duplicate_ids(found), edition.duplicate_ids(found)[:20]
    assert not edition.dangling_fragments(found), edition.dangling_fragments(found)[:20]


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_links_its_languages_print_edition_in_its_footer(built_site, lang):
    _page(built_site, lang)
    assert not edition.pages_without_print_link(built_site.path, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_print_edition_stays_out_of_the_sitemap(built_site, lang):
    _page(built_site, lang)
    assert f"/{edition.print_url(lang)}<" not in (built_site.path / "sitemap.xml").read_text(encoding="utf-8")


@pytest.mark.browser
def test_chromium_prints_the_zh_edition_with_the_sites_own_cjk_font(built_site, browser):
    """The PDF's font list, not its rendering: a system font would render the same characters."""
    filled = _page(built_site, "zh")
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    pdf = ARTIFACTS_DIR / "print-zh.pdf"
    with serve(built_site.path) as base:
        printed = edition.print_to_pdf(browser, base, "zh", pdf)
    print(
        f"\nzh: filled in {printed.filled_in:.1f} s ({printed.elements} elements); {printed.pages} PDF pages "
        f"in {printed.seconds:.1f} s; fonts: {sorted(set(printed.fonts))}"
    )
    assert printed.titles == edition.parse(filled).titles == edition.nav_titles(built_site.path, "zh")
    problems = edition.font_problems(printed.fonts)
    assert not problems, "\n".join(problems)
