"""Search on the built site, as a reader uses it in the real browser (Debian Chromium, the site
served with gzip as a static host serves it): every query of search_queries.toml ranks its page
first in the reader's language, every query of search_reader_queries.toml (the readers' own words)
finds its page in the top three, results stay in that language, carry marked words and sections,
work from the keyboard, and cost little to download. One build and one browser for the module.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from docsys.checks import downloads, print_edition, search
from docsys.checks.browser import Tab
from docsys.core.paths import DEFAULT_LANG, LANGS

QUERIES = Path(__file__).with_name("search_queries.toml")
READER_QUERIES = Path(__file__).with_name("search_reader_queries.toml")
READER_TOP = 3  # a reader's query finds its page among the first READER_TOP result pages
ROOT = Path(__file__).resolve().parents[2]
BUDGET = 180_000  # bytes on the wire for one query with an empty cache (issue #15; 150 000 until 2026-12-01,
# when the truth fixes grew the pages: "mixed precision" 157 438, "distributed data parallel" 152 570, "计算图" 165 235;
# 170 000 until 2026-12-02, when the one-device pages' review fixes grew them: "自动微分" 172 083 on a fresh clone)


@pytest.fixture
def tab(browser, gzip_site):
    tab = Tab(browser, gzip_site)
    yield tab
    assert not (tab.findings.console or tab.findings.offsite or tab.findings.failed), tab.findings
    tab.close()


def test_every_page_has_the_search_box_and_its_bridge(built_site):
    """Including the 404 pages, which are served at any path (not the print edition's article files, which its
    page fetches: docsys/build/print_edition)."""
    articles = {path for lang in LANGS for path in print_edition.article_files(built_site.path, lang)}
    pages = [p for p in built_site.path.rglob("*.html")
             if "pagefind" not in p.parts and "assets" not in p.parts and p not in articles]
    assert len(pages) > 40 and any(p.name == "404.html" for p in pages)
    missing = [str(p.relative_to(built_site.path)) for p in pages
               if 'data-md-component="search"' not in (text := p.read_text(encoding="utf-8"))
               or "window.Worker = function" not in text]
    assert not missing, f"pages without search: {missing}"


def test_the_query_table_has_twenty_queries_per_language():
    counts = Counter(query.lang for query in search.load_queries(QUERIES))
    assert all(counts[lang] >= 20 for lang in LANGS), counts


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_terms_in_the_query_table_expect_the_glossarys_page(lang):
    """Where a query is a glossary term, its page is the one the glossary's "See" column names."""
    explains = search.glossary_pages(lang)
    queries = [q for q in search.load_queries(QUERIES) if q.lang == lang and q.query.lower() in explains]
    assert len(queries) >= 10, "the table should draw on the glossary"
    wrong = [f"{q.query}: {q.page}, glossary: {explains[q.query.lower()]}" for q in queries
             if q.page != explains[q.query.lower()]]
    assert not wrong, "\n".join(wrong)


def test_the_reader_table_has_twelve_queries_per_language_each_with_its_source():
    queries = search.load_queries(READER_QUERIES)
    counts = Counter(query.lang for query in queries)
    assert all(counts[lang] >= 12 for lang in LANGS), counts
    problems = search.source_problems(queries, ROOT)
    assert not problems, "\n".join(problems)


def _rank_within(browser, gzip_site, table: Path, lang: str, top: int) -> None:
    """Every query of `table` in `lang` finds its page among the first `top` result pages, except
    those marked `known`, which must not (so that a marker is removed once it is fixed)."""
    start = time.perf_counter()
    ranked = search.rank(browser, gzip_site, [q for q in search.load_queries(table) if q.lang == lang])
    print(f"\n{lang}: {len(ranked)} queries in {time.perf_counter() - start:.1f} s")
    for result in ranked:
        print(f"  {result}")
    within = {r.query: r.rank is not None and r.rank <= top for r in ranked}
    wrong = [f"{r}" for r in ranked if not within[r.query] and not r.query.known]
    fixed = [f"{r}" for r in ranked if within[r.query] and r.query.known]
    place = "first" if top == 1 else f"in the top {top}"
    assert not wrong, f"queries that do not rank their page {place}:\n" + "\n".join(wrong)
    assert not fixed, f"now {place}: remove `known` from their rows in {table.name}:\n" + "\n".join(fixed)


@pytest.mark.parametrize("lang", LANGS)
def test_each_query_ranks_its_page_first(browser, gzip_site, lang):
    _rank_within(browser, gzip_site, QUERIES, lang, top=1)


@pytest.mark.parametrize("lang", LANGS)
def test_each_reader_query_finds_its_page_in_the_top_three(browser, gzip_site, lang):
    _rank_within(browser, gzip_site, READER_QUERIES, lang, top=READER_TOP)


@pytest.mark.parametrize(
    ("lang", "query"), [("en", "GradScaler"), ("en", "autocast"), ("zh", "GradScaler"), ("zh", "混合精度")]
)
def test_results_are_in_the_readers_language(tab, lang, query):
    tab.open("/" if lang == DEFAULT_LANG else f"/{lang}/")
    assert not search.language_problems(tab, lang, query)


@pytest.mark.parametrize(("path", "query"), [("/", "GradScaler"), ("/zh/", "混合精度"), ("/zh/", "fully_shard")])
def test_results_mark_the_words_and_show_sections(tab, path, query):
    tab.open(path)
    assert not search.excerpt_problems(tab, query)


@pytest.mark.parametrize(("shortcut", "path", "query", "expected"), [
    ("/", "/autograd/", "GradScaler", "/mixed-precision/"),
    ("s", "/zh/autograd/", "分布式数据并行", "/zh/ddp/"),
])
def test_search_works_from_the_keyboard(tab, shortcut, path, query, expected):
    tab.open(path)
    assert not search.keyboard_problems(tab, shortcut, query, expected)


# The heaviest queries measured (2026-11-30): the most result pages, words in several index chunks.
HEAVY = {"en": ["mixed precision", "distributed data parallel", "hook"], "zh": ["自动微分", "计算图", "torchrun"]}


@pytest.mark.parametrize("lang", LANGS)
def test_pages_load_nothing_for_search_and_a_query_stays_within_budget(browser, gzip_site, lang):
    """Each query on a fresh page with an empty cache: nothing for search until typing, then <= BUDGET."""
    home = "/" if lang == DEFAULT_LANG else f"/{lang}/"
    costs = {query: downloads.search_cost(browser, gzip_site, home, query) for query in HEAVY[lang]}
    for query, cost in costs.items():
        print(f"{lang} {query!r}: page {cost.page_load.total()} B, query {cost.query.total()} B")
    eager = {query: c.page_load.search() for query, c in costs.items() if c.page_load.search()}
    assert not eager, f"search files downloaded before the reader typed: {eager}"
    over = {query: c.query.total() for query, c in costs.items() if c.query.total() > BUDGET}
    assert not over, f"queries over {BUDGET} bytes: {over}"
