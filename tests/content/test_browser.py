"""The built site in a real browser (Debian Chromium via Playwright), served by a local static server.

Each page pair is visited by one test: the English page is opened, the language switched to Chinese
and back, and everything the browser saw is checked: where the switcher lands, requests to other
hosts, console errors, failed requests, copy buttons. Under pytest-xdist the pairs spread over the
workers, each with its own browser.
"""

from __future__ import annotations

import pytest

from docsys.checks.browser import PagePair, Tab, audit, pairs_of, serve
from docsys.core.paths import ARTIFACTS_DIR, DEFAULT_LANG, DOCS_DIR, page_paths

EN_PAGES = [p.relative_to(DOCS_DIR / DEFAULT_LANG).with_suffix("") for p in page_paths(DEFAULT_LANG)]
NOTEBOOKS = ["notebooks/speed-up-training"]


def _pair(slug) -> PagePair:
    path = "/" if str(slug) == "index" else f"/{slug}/"
    return PagePair(path, "/zh" + path)


@pytest.fixture(scope="module")
def site(built_site):
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    with serve(built_site.path) as base:
        yield base


@pytest.fixture
def tab(browser, site):
    tab = Tab(browser, site)
    yield tab
    tab.close()


def test_every_built_page_pair_is_audited(built_site):
    audited = {_pair(slug).en for slug in [*EN_PAGES, *NOTEBOOKS]}
    assert {pair.en for pair in pairs_of(built_site.path)} == audited


@pytest.mark.parametrize("slug", [*EN_PAGES, *NOTEBOOKS], ids=str)
def test_page_pair_in_the_browser(browser, site, slug):
    report = audit(browser, site, [_pair(slug)])
    assert report.visited == 2
    assert not report.switches, "\n".join(report.switches)
    assert not report.findings.offsite, "\n".join(report.findings.offsite)
    assert not report.findings.console, "\n".join(report.findings.console)
    assert not report.findings.failed, "\n".join(report.findings.failed)
    assert not report.no_copy_button, "code blocks without a copy button:\n" + "\n".join(report.no_copy_button)


@pytest.mark.parametrize(("start", "query", "expected"), [
    ("/zh/autograd/", "混合精度", "/zh/mixed-precision/"),
    ("/autograd/", "mixed precision", "/mixed-precision/"),
])
def test_search_finds_the_mixed_precision_page(tab, start, query, expected):
    tab.open(start)
    results = tab.search(query)
    assert expected in results, f"searching {query!r} on {start} gave {results}"
    assert not tab.findings.console and not tab.findings.offsite, tab.findings


def test_screenshots_of_an_en_and_a_zh_page(tab):
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    for lang, path in (("en", "/autograd/"), ("zh", "/zh/autograd/")):
        tab.open(path)
        shot = ARTIFACTS_DIR / f"{lang}-autograd.png"
        tab.page.screenshot(path=shot)
        assert shot.stat().st_size > 10_000
