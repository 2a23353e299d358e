"""Search as a reader uses it, in the real browser: the header search box and its results (what
it downloads: docsys.checks.downloads).

Helpers for tests/content/test_search.py and tests/tooling/test_search_faults.py. The query tables
(tests/content/search_queries.toml: the page's own terms; search_reader_queries.toml: the readers'
words, each with its `source`) are data: `load_queries` reads one and says in one line what is wrong
with a bad row; `source_problems` says which reader rows lack a provenance that can be checked.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from docsys.checks.browser import TIMEOUT_MS, Tab
from docsys.core import glossary
from docsys.core.paths import DEFAULT_LANG, LANGS

BOX = "input.md-search__input"
RESULT_LINKS = "a.md-search-result__link"
RESULT_LIST = "[data-md-component=search-result]"
ANSWERED = RESULT_LIST + "[data-search-query={}]"  # the query its results are for: set by the search bridge


# --- the query table -----------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    lang: str
    query: str
    page: str  # slug: /<slug>/ in the default language, /<lang>/<slug>/ otherwise
    known: str = ""  # why the query does not rank where its table asks yet (the test expects that)
    source: str = ""  # where a reader's wording comes from: a URL, or the snippet file whose text holds it

    @property
    def path(self) -> str:
        return ("" if self.lang == DEFAULT_LANG else f"/{self.lang}") + f"/{self.page}/"


def load_queries(path: Path) -> list[Query]:
    """Every row of the query table, in order; ValueError (one line) for a row that lacks a field."""
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    queries = []
    for lang in LANGS:
        for number, row in enumerate(table.get(lang, []), start=1):
            if not isinstance(row.get("query"), str) or not isinstance(row.get("page"), str):
                raise ValueError(f"{path.name}: {lang} row {number} needs a query and a page (strings): {row}")
            queries.append(Query(lang, row["query"], row["page"], row.get("known", ""), row.get("source", "")))
    return queries


def source_problems(queries: list[Query], root: Path) -> list[str]:
    """One line per query whose `source` is neither an http(s) URL nor a file under `root` that
    holds the query's text (a recorded error is cited by the file that recorded it)."""
    problems = []
    for q in queries:
        if q.source.startswith(("https://", "http://")):
            continue
        where = f"{q.lang} {q.query!r}"
        if not q.source:
            problems.append(f"{where}: no source (the URL or the snippet file its wording comes from)")
        elif not (root / q.source).is_file():
            problems.append(f"{where}: source {q.source} is neither a URL nor a file of the repository")
        elif q.query.lower() not in (root / q.source).read_text(encoding="utf-8").lower():
            problems.append(f"{where}: {q.source} does not hold the query's text")
    return problems


# --- typing into the search box --------------------------------------------------------------


def results(tab: Tab, query: str, timeout_ms: float | None = None) -> list[str]:
    """Type `query` into the header search box, as a reader does; the result links in order
    (path, and #anchor for a section), once the results shown are this query's."""
    box = tab.page.locator(BOX)
    box.click()
    box.fill("")
    box.press_sequentially(query)
    # Characters without a key (Chinese, as an input method commits them) send no keyup, and
    # Material searches on keyup: the input method's own commit key plays that part here.
    box.press("End")
    tab.page.wait_for_selector(_answered(query), state="attached", timeout=timeout_ms)
    hrefs = tab.page.eval_on_selector_all(RESULT_LINKS, "links => links.map(a => a.href)")
    return [_path(href) for href in hrefs]


def _answered(query: str) -> str:
    """The selector of the result list once it shows `query`'s results."""
    return ANSWERED.format(json.dumps(query, ensure_ascii=False))


def pages(links: list[str]) -> list[str]:
    """The distinct pages of result links, in order."""
    return list(dict.fromkeys(link.split("#")[0] for link in links))


@dataclass(frozen=True)
class Ranked:
    query: Query
    rank: int | None  # where query.path is among the result pages (1 = first); None: not found
    top: tuple[str, ...]  # the first three result pages

    def __str__(self) -> str:
        found = f"rank {self.rank}" if self.rank else "not found"
        return f"{self.query.lang} {self.query.query!r}: {self.query.path} {found}; first: {', '.join(self.top) or '-'}"


# Each query entered into the header box as an input method commits it (the whole text, then the
# key Material searches on), one after another inside the page: no round trip to the test per query.
_SEARCH_EACH = """async ({ queries, box, list, links, timeoutMs }) => {
  const input = document.querySelector(box);
  const shown = query => new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = () => {
      if (document.querySelector(list)?.getAttribute("data-search-query") === query) return resolve();
      if (Date.now() > deadline) return reject(new Error(`no results shown for ${JSON.stringify(query)}`));
      requestAnimationFrame(poll);
    };
    poll();
  });
  const found = [];
  input.click();
  for (const query of queries) {
    input.value = query;
    input.dispatchEvent(new KeyboardEvent("keyup", { key: "End", bubbles: true }));
    await shown(query);
    found.push([...document.querySelectorAll(links)].map(a => a.href));
  }
  return found;
}"""


def _path(href: str) -> str:
    """A result link as the site's path, and #anchor for a section."""
    parts = urlsplit(href)
    return parts.path + (f"#{parts.fragment}" if parts.fragment else "")


def rank(browser: Browser, base: str, queries: list[Query]) -> list[Ranked]:
    """Each query entered on its language's home page (one tab per language). Typing key by key is
    what `results` does (the language, excerpt and keyboard tests); here only the ranking is asked."""
    ranked = []
    for lang in dict.fromkeys(q.lang for q in queries):
        tab = Tab(browser, base)
        try:
            tab.open("/" if lang == DEFAULT_LANG else f"/{lang}/")
            mine = [q for q in queries if q.lang == lang]
            args = {"queries": [q.query for q in mine], "box": BOX, "list": RESULT_LIST, "links": RESULT_LINKS,
                    "timeoutMs": TIMEOUT_MS}
            for query, links in zip(mine, tab.page.evaluate(_SEARCH_EACH, args), strict=True):
                found = pages([_path(link) for link in links])
                where = found.index(query.path) + 1 if query.path in found else None
                ranked.append(Ranked(query, where, tuple(found[:3])))
        finally:
            tab.close()
    return ranked


# --- what a reader sees and can do --------------------------------------------------------------


def language_problems(tab: Tab, lang: str, query: str) -> list[str]:
    """Results of `query` that are not in `lang` (tab is on a page in `lang`)."""
    prefix = "" if lang == DEFAULT_LANG else f"/{lang}/"
    others = tuple(f"/{other}/" for other in LANGS if other not in (lang, DEFAULT_LANG))
    found = results(tab, query)
    if not found:
        return [f"{tab.path()}: {query!r} found nothing"]
    wrong = [link for link in found if not link.startswith(prefix) or link.startswith(others)]
    return [f"{tab.path()}: {query!r} -> {link} is not in {lang}" for link in wrong]


def excerpt_problems(tab: Tab, query: str) -> list[str]:
    """The results of `query` must mark the query's words, show sections, and show no index artifacts."""
    links = results(tab, query)
    shown = tab.page.eval_on_selector_all(
        "a.md-search-result__link article", "articles => articles.map(a => a.innerHTML)"
    )
    problems = []
    if not any("<mark>" in html for html in shown):
        problems.append(f"{query!r}: no result marks the words searched for")
    if not any("#" in link for link in links):
        problems.append(f"{query!r}: no section-level result (no link to a #heading)")
    for html in shown:
        text = html.replace("<mark>", "").replace("</mark>", "")
        if "^" in text:
            problems.append(f"{query!r}: an index word break (^) shows in a result: {text[:120]!r}")
            break
    return problems


def keyboard_problems(tab: Tab, shortcut: str, query: str, expected: str) -> list[str]:
    """Open search with `shortcut` ("/" or "s"), type `query`, go down to the first result with the
    arrow key and follow it with Enter: the reader must land on `expected` (a path)."""
    tab.page.locator("body").click(position={"x": 5, "y": 300})  # focus the page, not the box
    tab.page.keyboard.press(shortcut)
    if not tab.page.evaluate("document.activeElement?.matches('input.md-search__input')"):
        return [f"{tab.path()}: {shortcut!r} did not open the search box"]
    tab.page.keyboard.type(query)
    tab.page.keyboard.press("End")
    try:
        tab.page.wait_for_selector(_answered(query), state="attached", timeout=3000)
    except PlaywrightTimeout:
        return [f"{tab.path()}: {query!r} typed after {shortcut!r} got no results"]
    tab.page.keyboard.press("ArrowDown")
    focused = tab.page.evaluate("document.activeElement?.getAttribute('href') || ''")
    if urlsplit(focused).path != urlsplit(tab.base + expected).path:
        return [f"{tab.path()}: ArrowDown focused {focused or 'nothing'}, not the first result {expected}"]
    with tab.page.expect_navigation(wait_until="load"):
        tab.page.keyboard.press("Enter")
    landed = tab.path()
    return [] if landed == expected else [f"Enter on the first result of {query!r} landed on {landed}, not {expected}"]


# --- the glossary's "section that explains" -------------------------------------------------------


def glossary_pages(lang: str, data: Path = glossary.GLOSSARY_FILE) -> dict[str, str]:
    """Each glossary term of `lang` (lowercase) -> the slug of the page its `see` names (glossary.toml,
    the data both glossary pages are generated from)."""
    return {term.word(lang).lower(): term.page.removesuffix(".md") for term in glossary.load(data)}
