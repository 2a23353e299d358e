"""The built site in a real browser (Debian Chromium via Playwright), served by a local static server.

One browser for the whole module. The site audit visits every page pair once, switching language
both ways, and the tests below read its findings: where the switcher lands, requests to other
hosts, console errors, failed requests, copy buttons. Search is typed into the real search box.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from docsys import minisite
from docsys.browser import Tab, audit, launch, pairs_of, serve
from docsys.paths import ARTIFACTS_DIR, DEFAULT_LANG, page_paths
from docsys.site import built_page

pytestmark = pytest.mark.xdist_group("site")


@pytest.fixture(scope="module")
def browser():
    with launch() as browser:
        yield browser


@pytest.fixture(scope="module")
def site(built_site):
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    with serve(built_site.path) as base:
        yield base


@pytest.fixture(scope="module")
def report(browser, site, built_site):
    start = time.perf_counter()
    result = audit(browser, site, pairs_of(built_site.path))
    print(f"\nbrowser audit: {result.visited} pages, {time.perf_counter() - start:.1f} s")
    return result


@pytest.fixture
def tab(browser, site):
    tab = Tab(browser, site)
    yield tab
    tab.close()


def test_audit_covers_every_page_pair(report, built_site):
    pairs = pairs_of(built_site.path)
    en_paths = {pair.en for pair in pairs}
    for page in page_paths(DEFAULT_LANG):  # notebooks are pages too, so pairs may be more
        path = "/" + built_page(built_site.path, page).parent.relative_to(built_site.path).as_posix() + "/"
        assert path.replace("/./", "/") in en_paths, f"{page.name} was not visited"
    assert report.visited == 2 * len(pairs)


def test_language_switcher_keeps_the_reader_on_the_same_page(report):
    assert not report.switches, "\n".join(report.switches)


def test_pages_make_no_requests_to_other_hosts(report):
    assert not report.findings.offsite, "\n".join(report.findings.offsite)


def test_pages_log_no_console_errors(report):
    assert not report.findings.console, "\n".join(report.findings.console)


def test_pages_request_nothing_missing(report):
    assert not report.findings.failed, "\n".join(report.findings.failed)


def test_every_code_block_has_a_copy_button(report):
    assert report.code_blocks > 0, "no code block anywhere: the copy-button check would be vacuous"
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
        print(f"screenshot: {shot}")


# Fault injection: a small site built with the project's configuration (docsys.minisite), first clean,
# then with three faults planted in different places, each of which its check must report.


def _audit_small_site(browser, docs: Path, site_dir: Path, without_overrides: bool = False):
    built = minisite.build(docs, site_dir, without_overrides=without_overrides)
    with serve(built.path) as base:
        return audit(browser, base, pairs_of(built.path))


# These need no full build: their own xdist group lets them run beside the full site's tests.
SMALL_SITE = pytest.mark.xdist_group("small-site")
EXTERNAL_FONT = "https://fonts.googleapis.com/css2?family=Roboto&display=swap"


@pytest.fixture(scope="module")
def small_site_reports(browser, tmp_path_factory):
    """Reports of the small site: clean, without overrides/, and with three faults planted."""
    tmp = tmp_path_factory.mktemp("small-site")
    docs = minisite.write_docs(tmp)
    clean = _audit_small_site(browser, docs, tmp / "clean")
    # 0. The theme without overrides/main.html: Material fetches <page>/sitemap.xml for every language.
    unfixed = _audit_small_site(browser, docs, tmp / "without-overrides", without_overrides=True)
    # 1. An external font, imported by the stylesheet: invisible to an HTML scan, not to the browser.
    css = docs / "assets" / "extra.css"
    css.write_text(f'@import url("{EXTERNAL_FONT}");\n' + css.read_text())
    # 2. A broken language-switch target: the zh translation renamed, so it no longer pairs with its page.
    zh = docs / "zh" / "mixed-precision.md"
    zh.rename(zh.with_name("mixed-precision-zh.md"))
    # 3. A console error: an image that was never added.
    home = docs / "en" / "index.md"
    home.write_text(home.read_text() + '\n<img src="missing-figure.png" alt="a figure that was never added">\n')
    return clean, _audit_small_site(browser, docs, tmp / "faulty"), unfixed


@SMALL_SITE
def test_clean_small_site_passes_every_browser_check(small_site_reports):
    clean, *_ = small_site_reports
    assert clean.visited == 4 and clean.code_blocks == 2
    assert not (clean.switches or clean.no_copy_button), clean
    assert not (clean.findings.offsite or clean.findings.console or clean.findings.failed), clean.findings


@SMALL_SITE
def test_planted_external_font_is_caught(small_site_reports):
    offsite = small_site_reports[1].findings.offsite
    assert any(entry.endswith(f": {EXTERNAL_FONT}") for entry in offsite), offsite


@SMALL_SITE
def test_planted_broken_language_switch_target_is_caught(small_site_reports):
    switches = small_site_reports[1].switches
    assert any(s.startswith("/mixed-precision/ -> zh: landed on /zh/,") for s in switches), switches


@SMALL_SITE
def test_planted_console_error_is_caught(small_site_reports):
    findings = small_site_reports[1].findings
    assert any(c.startswith("/: ") and "404" in c and "missing-figure.png" in c for c in findings.console), findings
    assert any("404" in f and "missing-figure.png" in f for f in findings.failed), findings


@SMALL_SITE
def test_without_the_sitemap_fix_console_errors_are_caught(small_site_reports):
    """overrides/main.html exists for this: without it every page requests two sitemaps that do not exist."""
    console = small_site_reports[2].findings.console
    assert any(c.startswith("/mixed-precision/: ") and "/zh/mixed-precision/sitemap.xml" in c for c in console), console
    assert any(c.startswith("/zh/: ") and "/zh/sitemap.xml" in c for c in console), console
