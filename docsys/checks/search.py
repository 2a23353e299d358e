"""Search as a reader uses it, in the real browser: the header search box, its results, what it
downloads, and the contrast of the colours around it.

Helpers for tests/content/test_search.py and tests/tooling/test_search_*.py. The query table
(tests/content/search_queries.toml) is data: `load_queries` reads it and says in one line what
is wrong with a bad row.
"""

from __future__ import annotations

import functools
import gzip
import json
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, Request
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from docsys.checks.browser import Tab, _QuietHandler, serve
from docsys.core import glossary
from docsys.core.paths import DEFAULT_LANG, LANGS

BOX = "input.md-search__input"
RESULT_LINKS = "a.md-search-result__link"
ANSWERED = "[data-md-component=search-result][data-search-query={}]"  # set by the search bridge
# What only search downloads: the index, its worker, words, Material's own index and worker.
SEARCH_URL_PARTS = ("/pagefind/", "/assets/javascripts/search.js", "search_index.json", "/workers/search.")


# --- the query table -----------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    lang: str
    query: str
    page: str  # slug: /<slug>/ in the default language, /<lang>/<slug>/ otherwise
    known: str = ""  # why the query does not rank its page first yet (the test expects that)

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
            queries.append(Query(lang, row["query"], row["page"], row.get("known", "")))
    return queries


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
    return [urlsplit(href).path + (f"#{urlsplit(href).fragment}" if urlsplit(href).fragment else "") for href in hrefs]


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


def rank(browser: Browser, base: str, queries: list[Query]) -> list[Ranked]:
    """Each query typed on its language's home page (one tab per language)."""
    ranked = []
    for lang in dict.fromkeys(q.lang for q in queries):
        tab = Tab(browser, base)
        try:
            tab.open("/" if lang == DEFAULT_LANG else f"/{lang}/")
            for query in (q for q in queries if q.lang == lang):
                found = pages(results(tab, query.query))
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


# --- what search downloads ---------------------------------------------------------------------


class _GzipHandler(_QuietHandler):
    """Compresses text responses when the client accepts gzip, as a static host does (GitHub Pages)."""

    COMPRESSIBLE = (".html", ".js", ".css", ".json", ".svg", ".xml", ".txt", ".map")

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        gzip_ok = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (gzip_ok and path.suffix in self.COMPRESSIBLE and path.is_file()):
            return super().send_head()
        body = _gzipped(path, path.stat().st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, *_: object) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


@functools.lru_cache(maxsize=512)
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


@contextmanager
def serve_gzip(site_dir: Path) -> Iterator[str]:
    """Serve a built site on a free local port with gzip, as a static host would; yields its base URL.
    (Lighthouse and transfer sizes need it: python -m http.server compresses nothing.)"""
    with serve(site_dir, _GzipHandler) as base:
        yield base


@dataclass
class Transfer:
    """Bytes on the wire (compressed, headers included) of each request, as Chromium counted them."""

    sizes: dict[str, int] = field(default_factory=dict)  # url -> bytes

    def total(self) -> int:
        return sum(self.sizes.values())

    def search(self) -> dict[str, int]:
        return {url: n for url, n in self.sizes.items() if any(part in url for part in SEARCH_URL_PARTS)}


@dataclass
class SearchCost:
    page_load: Transfer  # everything the page loaded before the reader touched the search box
    query: Transfer  # everything the query loaded


def search_cost(browser: Browser, base: str, path: str, query: str) -> SearchCost:
    """Open `path` with an empty cache, then search `query`: what each step transferred."""
    tab = Tab(browser, base)  # a new page is a new browser context: an empty cache
    try:
        meter = _Meter(tab.page)
        tab.open(path)
        page_load = meter.take()
        results(tab, query)
        tab.page.wait_for_timeout(300)  # requests the worker makes after answering (none expected)
        return SearchCost(page_load, meter.take())
    finally:
        tab.close()


class _Meter:
    """Each finished request's bytes on the wire: the encoded (compressed) body and the headers.

    Context events, not page events: the search worker's requests (Pagefind) are the worker's own.
    """

    def __init__(self, page: Page) -> None:
        self._done = Transfer()
        page.context.on("requestfinished", self._finished)

    def _finished(self, request: Request) -> None:
        sizes = request.sizes()
        body = sizes["responseBodySize"]
        if not body and (response := request.response()):  # Chromium reports 0 for a worker's own script
            body = int(response.headers.get("content-length", 0))
        self._done.sizes[request.url] = self._done.sizes.get(request.url, 0) + body + sizes["responseHeadersSize"]

    def take(self) -> Transfer:
        taken, self._done = self._done, Transfer()
        return taken


# --- contrast ---------------------------------------------------------------------------------

# Text colour and the background it is drawn on, as the reader sees them (alpha composited).
_CONTRAST_JS = """
(selectors) => {
  const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => top.map((c, i) => i < 3 ? c * top[3] + under[i] * (1 - top[3]) : 1);
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const found = {};
  for (const [name, selector] of Object.entries(selectors)) {
    const el = document.querySelector(selector);
    if (!el) { found[name] = null; continue; }
    const bg = background(el);
    const fg = over(rgba(getComputedStyle(el).color), bg);
    found[name] = [fg.slice(0, 3), bg.slice(0, 3)];
  }
  return found;
}
"""
CONTRAST_TARGETS = {
    "header": ".md-header__topic .md-ellipsis",
    "link": "article.md-content__inner p a[href]:not(.headerlink)",
    "code comment": ".md-typeset .highlight .c1, .md-typeset .highlight .c",
}
AA = 4.5  # WCAG 2 AA, normal text


def ratio(foreground: list[float], background: list[float]) -> float:
    """WCAG contrast ratio of two sRGB colours (0-255 channels)."""

    def luminance(rgb: list[float]) -> float:
        linear = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast(browser: Browser, base: str, path: str, scheme: str) -> dict[str, float | None]:
    """Contrast of the header title, a link in the article and a code comment on `path`, with the
    reader's system set to `scheme` ("light" or "dark"; the site's palette follows it)."""
    page = browser.new_page(color_scheme=scheme)
    try:
        page.goto(base + path, wait_until="load")
        found = page.evaluate(_CONTRAST_JS, CONTRAST_TARGETS)
    finally:
        page.close()
    return {name: (round(ratio(*pair), 2) if pair else None) for name, pair in found.items()}


# --- the glossary's "section that explains" -------------------------------------------------------


def glossary_pages(lang: str, data: Path = glossary.GLOSSARY_FILE) -> dict[str, str]:
    """Each glossary term of `lang` (lowercase) -> the slug of the page its `see` names (glossary.toml,
    the data both glossary pages are generated from)."""
    return {term.word(lang).lower(): term.page.removesuffix(".md") for term in glossary.load(data)}
