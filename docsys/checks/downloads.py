"""What a page and a search download, in the real browser, from a built site served with gzip as
a static host serves it: bytes on the wire per request, before and after the reader searches.

Helpers for tests/content/test_search.py and tests/tooling/test_downloads.py; serve_gzip also
serves the site to the contrast tests, the notebook stylesheet tests and scripts/lighthouse.py.
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page, Request

from docsys.checks.browser import Tab, _QuietHandler, serve
from docsys.checks.search import results

# What only search downloads: the index, its worker, words, Material's own index and worker.
SEARCH_URL_PARTS = ("/pagefind/", "/assets/javascripts/search.js", "search_index.json", "/workers/search.")


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
