"""The contrast check of docsys/checks/contrast.py catches what it is for: the small search site
(tests/tooling/search_site.py) reaches WCAG AA, and Material's own deep orange, planted in a copy
of it, does not."""

from __future__ import annotations

import pytest

from docsys.checks.contrast import AA, contrast
from docsys.checks.downloads import serve_gzip
from tests.tooling.search_site import edit

pytestmark = pytest.mark.browser


def test_clean_small_site_reaches_aa(browser, small_search_site):
    with serve_gzip(small_search_site) as base:
        ratios = contrast(browser, base, "/", "light")  # (the small site's code has no comment)
    assert ratios["header"] >= AA and ratios["link"] >= AA, ratios


def test_planted_materials_deep_orange_is_caught(browser, planted):
    """Material's own deep orange header: white on #ff6e42 is 2.78:1."""
    material = "--md-primary-fg-color: #ff6e42;"
    site = planted(lambda s: edit(s, "assets/palette.css", "--md-primary-fg-color: #bf360c;", material))
    with serve_gzip(site) as base:
        ratios = contrast(browser, base, "/", "light")
    assert ratios["header"] < AA and ratios["link"] < AA, ratios
