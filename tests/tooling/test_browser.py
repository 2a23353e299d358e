"""docsys.checks.browser: each check of a built site in a real browser, seen failing on a planted fault.

A small site built with the project's configuration (tests/tooling/minisite.py), first clean, then
with faults planted in different places, each of which its check must report.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.checks.browser import Tab, audit, language_switches, pairs_of, serve
from tests.tooling import minisite

pytestmark = pytest.mark.browser


def _audit_small_site(browser, docs: Path, site_dir: Path, without_overrides: bool = False):
    return _audit(browser, minisite.build(docs, site_dir, without_overrides=without_overrides).path)


def _audit(browser, site: Path):
    """Every page opened, and the language selector clicked both ways on every pair: one report."""
    with serve(site) as base:
        tab = Tab(browser, base)
        try:
            report = audit(tab, pairs_of(site))
            report.switches = language_switches(tab, pairs_of(site))
            for kind in ("offsite", "console", "failed"):
                getattr(report.findings, kind).extend(getattr(tab.findings, kind))
            return report
        finally:
            tab.close()


EXTERNAL_FONT = "https://fonts.googleapis.com/css2?family=Roboto&display=swap"


@pytest.fixture(scope="module")
def small_site_reports(browser, tmp_path_factory, small_search_site):
    """Reports of the small site: clean (the build the search tests share), without overrides/, and with
    three faults planted."""
    tmp = tmp_path_factory.mktemp("small-site")
    docs = minisite.write_docs(tmp)
    clean = _audit(browser, small_search_site)
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


def test_clean_small_site_passes_every_browser_check(small_site_reports):
    clean, *_ = small_site_reports
    # Two page pairs and the print edition's pair; the print pages' code blocks are not counted (their
    # articles are put in after load, without copy buttons: Browser.code_blocks), so each language's one.
    assert clean.visited == 6 and clean.code_blocks == 2
    assert not (clean.switches or clean.no_copy_button), clean
    assert not (clean.findings.offsite or clean.findings.console or clean.findings.failed), clean.findings


def test_planted_external_font_is_caught(small_site_reports):
    offsite = small_site_reports[1].findings.offsite
    assert any(entry.endswith(f": {EXTERNAL_FONT}") for entry in offsite), offsite


def test_planted_broken_language_switch_target_is_caught(small_site_reports):
    switches = small_site_reports[1].switches
    assert any(s.startswith("/mixed-precision/ -> zh: landed on /zh/,") for s in switches), switches


def test_planted_console_error_is_caught(small_site_reports):
    findings = small_site_reports[1].findings
    assert any(c.startswith("/: ") and "404" in c and "missing-figure.png" in c for c in findings.console), findings
    assert any("404" in f and "missing-figure.png" in f for f in findings.failed), findings


def test_without_the_sitemap_fix_console_errors_are_caught(small_site_reports):
    """overrides/main.html exists for this: without it every page requests two sitemaps that do not exist."""
    console = small_site_reports[2].findings.console
    assert any(c.startswith("/mixed-precision/: ") and "/zh/mixed-precision/sitemap.xml" in c for c in console), console
    assert any(c.startswith("/zh/: ") and "/zh/sitemap.xml" in c for c in console), console
