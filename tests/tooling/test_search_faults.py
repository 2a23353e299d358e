"""The search checks of docsys/checks/search.py catch what they are for: a small site built with the
project's configuration (tests/tooling/search_site.py) passes every check, and each fault planted
in a copy of its output is reported by its check. One build for the run, one browser for the module;
the query table's bad row is one clear line."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from docsys.build.search.bundle import BUNDLE, write_index
from docsys.build.search.hook import _ARTICLE_RE
from docsys.build.search.languages import Language, language_root
from docsys.checks import search
from docsys.checks.downloads import serve_gzip
from docsys.core.paths import DEFAULT_LANG, LANGS
from tests.tooling.search_site import EN_QUERY, ZH_QUERY, edit, on


def _ranks(browser, site: Path) -> list[search.Ranked]:
    with serve_gzip(site) as base:
        return search.rank(browser, base, [EN_QUERY, ZH_QUERY])


@pytest.mark.browser
def test_clean_small_site_passes_every_search_check(browser, small_search_site):
    built = small_search_site
    assert [r.rank for r in _ranks(browser, built)] == [1, 1]
    assert not on(browser, built, "/zh/", lambda tab: search.language_problems(tab, "zh", "autocast"))
    assert not on(browser, built, "/", lambda tab: search.excerpt_problems(tab, "autocast"))
    assert not on(browser, built, "/", lambda tab: search.keyboard_problems(tab, "/", "autocast", "/mixed-precision/"))


def _reindexed(site: Path, lang: str, change: Callable[[str, str], str]) -> None:
    """Write the site's `lang` index again, as the build does, from its pages' articles passed
    through change(path, article): a fault in what a page says, without building the site again."""
    root = site / language_root(lang)
    others = {f"{other}/" for other in LANGS if other != DEFAULT_LANG}
    pages = {}
    for page in root.rglob("index.html"):
        path = page.relative_to(root).as_posix()
        article = _ARTICLE_RE.search(page.read_text(encoding="utf-8"))
        # The print edition is no search result (its front matter says `search: {exclude: true}`).
        if article and not path.startswith(("pagefind/", "print/", *(others if lang == DEFAULT_LANG else ()))):
            pages[path] = change(path, article[1])
    shutil.rmtree(root / BUNDLE)
    language = Language(lang)  # (the small site has no glossary, so no terms)
    write_index(pages, language, root / BUNDLE, site.parent / "search-cache")


@pytest.mark.browser
def test_planted_page_that_outranks_the_teaching_page_is_caught(browser, planted):
    """The home page repeats 混合精度 in its heading and text: the ranking check names it first."""

    def louder_home(path: str, article: str) -> str:
        louder = article.replace("首页", "混合精度首页", 1) + "<p>混合精度，混合精度。</p>"
        return louder if path == "index.html" else article

    site = planted(lambda s: _reindexed(s, "zh", louder_home))
    ranked = {r.query.lang: r for r in _ranks(browser, site)}
    assert ranked["en"].rank == 1 and ranked["zh"].rank == 2, ranked
    assert str(ranked["zh"]) == "zh '混合精度': /zh/mixed-precision/ rank 2; first: /zh/, /zh/mixed-precision/"


@pytest.mark.browser
def test_planted_index_of_the_other_language_is_caught(browser, planted):
    site = planted(lambda s: edit(s, "zh/**/*.html", '"bundle": "../pagefind/"', '"bundle": "../../pagefind/"'))
    problems = on(browser, site, "/zh/mixed-precision/", lambda tab: search.language_problems(tab, "zh", "autocast"))
    assert any("-> /mixed-precision/" in p and "is not in zh" in p for p in problems), problems


@pytest.mark.browser
def test_planted_index_artifact_in_excerpts_is_caught(browser, planted):
    site = planted(lambda s: edit(s, "assets/javascripts/search.js", 'html.replace(BREAK, "$1")', "html"))
    problems = on(browser, site, "/zh/", lambda tab: search.excerpt_problems(tab, "混合精度"))
    assert any("an index word break (^) shows" in p for p in problems), problems


@pytest.mark.browser
def test_planted_search_box_without_the_bridge_is_caught(browser, planted):
    """Without the bridge, Material's own worker waits forever for an index: no results, no Enter."""
    site = planted(lambda s: edit(s, "**/*.html", "window.Worker = function", "window.WorkerUnused = function"))
    problems = on(browser, site, "/", lambda tab: search.keyboard_problems(tab, "/", "autocast", "/mixed-precision/"))
    assert problems == ["/: 'autocast' typed after '/' got no results"], problems


def test_a_query_table_row_without_a_page_is_one_clear_line(tmp_path):
    table = tmp_path / "queries.toml"
    table.write_text('en = [{ query = "autocast" }]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^queries.toml: en row 1 needs a query and a page \(strings\)"):
        search.load_queries(table)


ROW = "en 'grad can be implicitly created'"


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("https://github.com/pytorch/pytorch/issues/1", None),
        ("snippets/x.out", None),
        ("", f"{ROW}: no source (the URL or the snippet file its wording comes from)"),
        ("snippets/y.out", f"{ROW}: source snippets/y.out is neither a URL nor a file of the repository"),
        ("snippets/other.out", f"{ROW}: snippets/other.out does not hold the query's text"),
    ],
)
def test_a_reader_query_without_a_checkable_source_is_one_clear_line(tmp_path, source, problem):
    """A reader's wording is cited by a URL, or by the recording that holds it (checked here)."""
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets/x.out").write_text("RuntimeError: grad can be implicitly created only\n", encoding="utf-8")
    (tmp_path / "snippets/other.out").write_text("RuntimeError: something else\n", encoding="utf-8")
    query = search.Query("en", "grad can be implicitly created", "autograd", source=source)
    assert search.source_problems([query], tmp_path) == ([problem] if problem else [])
