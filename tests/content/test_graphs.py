"""The site's graphs: every page where a graph teaches shows it, drawn at build time, in both languages."""

from __future__ import annotations

import re

import pytest

from docsys.checks.site import built_page
from docsys.core.paths import DOCS_DIR

# The pages where a graph teaches, and how many different graphs each shows.
GRAPH_PAGES = {"autograd": 1, "dynamic-graphs": 2, "visualizing-graphs": 2, "custom-functions": 1, "torch-compile": 1}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("slug", GRAPH_PAGES)
def test_built_page_shows_its_graphs(built_site, slug, lang):
    page = built_page(built_site.path, DOCS_DIR / lang / f"{slug}.md")
    text = page.read_text(encoding="utf-8")
    link_re = r'<a class="graph" href="([^"]+)" title="[^"]+"><img loading="lazy" alt="([^"]+)" src="([^"]+)"'
    links = re.findall(link_re, text)
    assert len({src for _, _, src in links}) >= GRAPH_PAGES[slug], f"{lang}/{slug}: {links}"
    for href, alt, src in links:
        assert href == src and src.endswith(".svg")
        assert (page.parent / src).resolve().is_file(), src
        assert bool(re.search(r"[\u4e00-\u9fff]", alt)) == (lang == "zh"), f"alt text not in {lang}: {alt}"
    assert 'src="graph:' not in text


def test_the_zh_build_draws_nothing_the_en_build_drew(built_site):
    assert re.search(r"Graphs \(zh\): 0 drawn, \d+ from cache", built_site.log), built_site.log
