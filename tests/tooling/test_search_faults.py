"""The search and contrast checks of docsys/checks/search.py catch what they are for: a small site
built with the project's configuration (tests/tooling/minisite.py) passes every check, and each fault planted
in a copy of its output is reported by its check. One build and one browser for the module."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from docsys.build import search as search_hook
from docsys.checks import search
from docsys.checks.browser import Tab
from docsys.core.paths import DEFAULT_LANG, LANGS
from tests.tooling import minisite

pytestmark = pytest.mark.browser

BUDGET = 150_000
EN_QUERY = search.Query("en", "autocast", "mixed-precision")
ZH_QUERY = search.Query("zh", "混合精度", "mixed-precision")


@pytest.fixture(scope="module")
def built(tmp_path_factory, worker_id) -> Path:
    """The small site, built once per test run (shared by the workers); tests plant faults in copies."""
    return minisite.shared(tmp_path_factory, worker_id, "small-site-search", _build_small_site)


def _build_small_site(tmp: Path) -> Path:
    return minisite.build(minisite.write_docs(tmp), tmp / "site").path


@pytest.fixture
def planted(built, tmp_path) -> Callable[[Callable[[Path], None]], Path]:
    """A copy of the small site with a fault written into it by `plant(site_dir)`."""

    def copy_with(plant: Callable[[Path], None]) -> Path:
        site = tmp_path / "site"
        shutil.copytree(built, site)
        plant(site)
        return site

    return copy_with


def _edit(site: Path, pattern: str, old: str, new: str) -> None:
    files = [f for f in site.glob(pattern) if old in f.read_text(encoding="utf-8")]
    assert files, f"nothing to plant: {old!r} is in no {pattern}"
    for file in files:
        file.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _ranks(browser, site: Path) -> list[search.Ranked]:
    with search.serve_gzip(site) as base:
        return search.rank(browser, base, [EN_QUERY, ZH_QUERY])


def _on(browser, site: Path, path: str, check: Callable[[Tab], list[str]]) -> list[str]:
    with search.serve_gzip(site) as base:
        tab = Tab(browser, base)
        try:
            tab.open(path)
            return check(tab)
        finally:
            tab.close()


def test_clean_small_site_passes_every_search_check(browser, built):
    assert [r.rank for r in _ranks(browser, built)] == [1, 1]
    assert not _on(browser, built, "/zh/", lambda tab: search.language_problems(tab, "zh", "autocast"))
    assert not _on(browser, built, "/", lambda tab: search.excerpt_problems(tab, "autocast"))
    assert not _on(browser, built, "/", lambda tab: search.keyboard_problems(tab, "/", "autocast", "/mixed-precision/"))
    with search.serve_gzip(built) as base:
        cost = search.search_cost(browser, base, "/zh/", "混合精度")
        ratios = search.contrast(browser, base, "/", "light")  # (the small site's code has no comment)
    assert not cost.page_load.search() and 0 < cost.query.total() < BUDGET, cost
    assert ratios["header"] >= search.AA and ratios["link"] >= search.AA, ratios


def _reindexed(site: Path, lang: str, edit: Callable[[str, str], str]) -> None:
    """Write the site's `lang` index again, as the build does, from its pages' articles passed
    through edit(path, article): a fault in what a page says, without building the site again."""
    root = site / search_hook.language_root(lang)
    others = {f"{other}/" for other in LANGS if other != DEFAULT_LANG}
    pages = {}
    for page in root.rglob("index.html"):
        path = page.relative_to(root).as_posix()
        article = search_hook._ARTICLE_RE.search(page.read_text(encoding="utf-8"))
        if article and not path.startswith(("pagefind/", *(others if lang == DEFAULT_LANG else ()))):
            pages[path] = edit(path, article[1])
    shutil.rmtree(root / search_hook.BUNDLE)
    language = search_hook.Language(lang)  # (the small site has no glossary, so no terms)
    search_hook.write_index(pages, language, root / search_hook.BUNDLE, site.parent / "search-cache")


def test_planted_page_that_outranks_the_teaching_page_is_caught(browser, planted):
    """The home page repeats 混合精度 in its heading and text: the ranking check names it first."""

    def louder_home(path: str, article: str) -> str:
        louder = article.replace("首页", "混合精度首页", 1) + "<p>混合精度，混合精度。</p>"
        return louder if path == "index.html" else article

    site = planted(lambda s: _reindexed(s, "zh", louder_home))
    ranked = {r.query.lang: r for r in _ranks(browser, site)}
    assert ranked["en"].rank == 1 and ranked["zh"].rank == 2, ranked
    assert str(ranked["zh"]) == "zh '混合精度': /zh/mixed-precision/ rank 2; first: /zh/, /zh/mixed-precision/"


def test_planted_index_of_the_other_language_is_caught(browser, planted):
    site = planted(lambda s: _edit(s, "zh/**/*.html", '"bundle": "../pagefind/"', '"bundle": "../../pagefind/"'))
    problems = _on(browser, site, "/zh/mixed-precision/", lambda tab: search.language_problems(tab, "zh", "autocast"))
    assert any("-> /mixed-precision/" in p and "is not in zh" in p for p in problems), problems


def test_planted_search_download_on_page_load_is_caught(browser, planted):
    """Material's own search form (name="search") fetches its index on every page load."""
    named = '<form class="md-search__form" name="search">'
    site = planted(lambda s: _edit(s, "**/*.html", '<form class="md-search__form">', named))
    with search.serve_gzip(site) as base:
        cost = search.search_cost(browser, base, "/", "autocast")
    assert any("search/search_index.json" in url for url in cost.page_load.search()), cost.page_load.sizes


def test_planted_index_artifact_in_excerpts_is_caught(browser, planted):
    site = planted(lambda s: _edit(s, "assets/javascripts/search.js", 'html.replace(BREAK, "$1")', "html"))
    problems = _on(browser, site, "/zh/", lambda tab: search.excerpt_problems(tab, "混合精度"))
    assert any("an index word break (^) shows" in p for p in problems), problems


def test_planted_search_box_without_the_bridge_is_caught(browser, planted):
    """Without the bridge, Material's own worker waits forever for an index: no results, no Enter."""
    site = planted(lambda s: _edit(s, "**/*.html", "window.Worker = function", "window.WorkerUnused = function"))
    problems = _on(browser, site, "/", lambda tab: search.keyboard_problems(tab, "/", "autocast", "/mixed-precision/"))
    assert problems == ["/: 'autocast' typed after '/' got no results"], problems


def test_planted_heavy_words_file_is_caught(browser, planted):
    heavy = json.dumps({"-9.0": " ".join(f"词{i:06d}" for i in range(60_000))}, ensure_ascii=False)
    site = planted(lambda s: (s / "zh" / "pagefind" / "words.json").write_text(heavy, encoding="utf-8"))
    with search.serve_gzip(site) as base:
        cost = search.search_cost(browser, base, "/zh/", "混合精度")
    assert cost.query.total() > BUDGET, cost.query.total()


def test_planted_materials_deep_orange_is_caught(browser, planted):
    """Material's own deep orange header: white on #ff6e42 is 2.78:1."""
    material = "--md-primary-fg-color: #ff6e42;"
    site = planted(lambda s: _edit(s, "assets/palette.css", "--md-primary-fg-color: #bf360c;", material))
    with search.serve_gzip(site) as base:
        ratios = search.contrast(browser, base, "/", "light")
    assert ratios["header"] < search.AA and ratios["link"] < search.AA, ratios
