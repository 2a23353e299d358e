"""The download checks of docsys/checks/downloads.py catch what they are for: the small search site
(tests/tooling/search_site.py) downloads nothing for search before the reader types and stays
within the budget after, and each fault planted in a copy of its output is measured."""

from __future__ import annotations

import json

import pytest

from docsys.checks.downloads import search_cost, serve_gzip
from tests.tooling.search_site import BUDGET, edit

pytestmark = pytest.mark.browser


def test_clean_small_site_loads_nothing_for_search_and_a_query_stays_within_budget(browser, small_search_site):
    with serve_gzip(small_search_site) as base:
        cost = search_cost(browser, base, "/zh/", "混合精度")
    assert not cost.page_load.search() and 0 < cost.query.total() < BUDGET, cost


def test_planted_search_download_on_page_load_is_caught(browser, planted):
    """Material's own search form (name="search") fetches its index on every page load."""
    named = '<form class="md-search__form" name="search">'
    site = planted(lambda s: edit(s, "**/*.html", '<form class="md-search__form">', named))
    with serve_gzip(site) as base:
        cost = search_cost(browser, base, "/", "autocast")
    assert any("search/search_index.json" in url for url in cost.page_load.search()), cost.page_load.sizes


def test_planted_heavy_words_file_is_caught(browser, planted):
    heavy = json.dumps({"-9.0": " ".join(f"词{i:06d}" for i in range(60_000))}, ensure_ascii=False)
    site = planted(lambda s: (s / "zh" / "pagefind" / "words.json").write_text(heavy, encoding="utf-8"))
    with serve_gzip(site) as base:
        cost = search_cost(browser, base, "/zh/", "混合精度")
    assert cost.query.total() > BUDGET, cost.query.total()
