"""The built site in a real browser (Debian Chromium via Playwright), served by a local static server.

Every page is opened once per language in one tab per worker, and everything the browser saw is
checked: requests to other hosts, console errors, failed requests, copy buttons. The language
selector is clicked both ways on one page of each kind; where it leads from every other page is its
link, which tests/content/test_site.py checks on every built page. Under pytest-xdist the pages
spread over the workers, each with its own browser.
"""

from __future__ import annotations

import pytest

from docsys.checks.browser import PagePair, Tab, audit, language_switches, pairs_of, serve
from docsys.core.paths import ARTIFACTS_DIR, DEFAULT_LANG, DOCS_DIR, page_paths

EN_PAGES = [p.relative_to(DOCS_DIR / DEFAULT_LANG).with_suffix("") for p in page_paths(DEFAULT_LANG)]
NOTEBOOKS = ["notebooks/speed-up-training"]
PRINT_EDITIONS = ["print"]  # every page of a language on one (docsys/build/print_edition)
ONE_OF_EACH_KIND = ["index", "autograd", *NOTEBOOKS, *PRINT_EDITIONS]  # home, a text page, a notebook, the print page


def _pair(slug) -> PagePair:
    path = "/" if str(slug) == "index" else f"/{slug}/"
    return PagePair(path, "/zh" + path)


@pytest.fixture(scope="module")
def site(built_site):
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    with serve(built_site.path) as base:
        yield base


@pytest.fixture(scope="module")
def reader(browser, site):
    """One tab that reads page after page, as a reader does (the HTTP cache is kept between pages)."""
    tab = Tab(browser, site)
    yield tab
    tab.close()


def test_every_built_page_pair_is_audited(built_site):
    audited = {_pair(slug).en for slug in [*EN_PAGES, *NOTEBOOKS, *PRINT_EDITIONS]}
    assert {pair.en for pair in pairs_of(built_site.path)} == audited


@pytest.mark.parametrize("slug", [*EN_PAGES, *NOTEBOOKS, *PRINT_EDITIONS], ids=str)
def test_page_pair_in_the_browser(reader, slug):
    report = audit(reader, [_pair(slug)])
    assert report.visited == 2
    assert not report.findings.offsite, "\n".join(report.findings.offsite)
    assert not report.findings.console, "\n".join(report.findings.console)
    assert not report.findings.failed, "\n".join(report.findings.failed)
    assert not report.no_copy_button, "code blocks without a copy button:\n" + "\n".join(report.no_copy_button)


@pytest.mark.parametrize("slug", ONE_OF_EACH_KIND)
def test_language_selector_stays_on_the_page_both_ways(reader, slug):
    lost = language_switches(reader, [_pair(slug)])
    assert not lost, "\n".join(lost)
    assert not reader.findings.console, reader.findings.console


def test_screenshots_of_an_en_and_a_zh_page(reader):
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    for lang, path in (("en", "/autograd/"), ("zh", "/zh/autograd/")):
        reader.open(path)
        shot = ARTIFACTS_DIR / f"{lang}-autograd.png"
        reader.page.screenshot(path=shot)
        assert shot.stat().st_size > 10_000


def test_tables_off_screen_are_laid_out_only_when_scrolled_to(browser, site):
    """docs/assets/extra.css: twenty tables laid out at load kept the benchmarks page under Lighthouse 95
    on a phone. The last table is skipped at load and shown, at its own size, once scrolled to."""
    page = browser.new_page(viewport={"width": 412, "height": 823})
    try:
        page.goto(site + "/benchmarks/", wait_until="load")
        last = page.locator("article table").last
        cell_shown = "t => t.querySelector('td').checkVisibility({contentVisibilityAuto: true})"
        assert not last.evaluate(cell_shown), "the last table was laid out at load"
        last.scroll_into_view_if_needed()
        page.wait_for_timeout(200)
        assert last.evaluate(cell_shown)
        assert last.evaluate("t => t.getBoundingClientRect().height") != 300  # its own height, not the placeholder's
    finally:
        page.close()
