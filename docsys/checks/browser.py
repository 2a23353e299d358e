"""Real-browser checks of a built site: Debian's Chromium, driven by Playwright, against a local server.

Playwright's own browser downloads are never used (`playwright install` is not run anywhere):
scripts/setup.sh installs Debian's `chromium`, and `launch()` points Playwright at it.
Requests to any host other than the local server are recorded and aborted, so a page that would
load a font, script or tracker from elsewhere is reported even on a machine without internet.
"""

from __future__ import annotations

import functools
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, ConsoleMessage, Page, Request, sync_playwright

from docsys.core.paths import DEFAULT_LANG

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium itself calls Google hosts; --no-sandbox: CI runs as root.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Every host but the local server resolves to nothing: a request elsewhere is seen, and fails here.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
TIMEOUT_MS = 15_000


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        # As a static host would (GitHub Pages sends max-age=600): assets are reused between pages.
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()


@contextmanager
def serve(site_dir: Path, handler: type[SimpleHTTPRequestHandler] = _QuietHandler) -> Iterator[str]:
    """Serve a built site on a free local port, as a static file server would; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def launch() -> Iterator[Browser]:
    """Headless Debian Chromium under Playwright (each launch gets a fresh profile directory)."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError("chromium is not installed; run scripts/setup.sh (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Findings:
    """What went wrong while a tab was open: each entry names the page it happened on."""

    offsite: list[str] = field(default_factory=list)  # requests to other hosts (aborted)
    console: list[str] = field(default_factory=list)  # console errors and uncaught exceptions
    failed: list[str] = field(default_factory=list)  # local requests that failed or returned >= 400


class Tab:
    """One browser page that records every request, console error and failure it sees."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.base = base.rstrip("/")
        self.host = urlsplit(self.base).netloc
        self.page: Page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.set_default_timeout(TIMEOUT_MS)
        self.findings = Findings()
        self.page.on("request", self._request)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self._note("console", f"uncaught: {error}"))
        self.page.on("requestfailed", self._request_failed)
        self.page.on("response", lambda r: r.status >= 400 and self._note("failed", f"{r.status} {r.url}"))
        self._inflight: set[Request] = set()
        self._last_activity = time.monotonic()
        self.page.on("request", self._started)
        self.page.on("requestfinished", self._ended)
        self.page.on("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        self._inflight.add(request)
        self._last_activity = time.monotonic()

    def _ended(self, request: Request) -> None:
        self._inflight.discard(request)
        self._last_activity = time.monotonic()

    def settle(self, quiet_s: float = 0.15) -> None:
        """Wait until no request has been in flight for quiet_s (the search index and its worker's
        scripts load after the page's load event). Playwright's "networkidle" waits 0.5 s per page."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while self._inflight or time.monotonic() - self._last_activity < quiet_s:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.path()}: requests still in flight: {[r.url for r in self._inflight]}")
            self.page.wait_for_timeout(25)

    def _note(self, kind: str, text: str) -> None:
        getattr(self.findings, kind).append(f"{self.path()}: {text}")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self._note("console", f"{message.text} ({message.location['url']})")

    def _request(self, request: Request) -> None:
        url = urlsplit(request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.netloc != self.host:
            self._note("offsite", request.url)

    def _request_failed(self, request: Request) -> None:
        # ERR_ABORTED: the reader moved on to the next page before this request finished.
        if urlsplit(request.url).netloc == self.host and request.failure != "net::ERR_ABORTED":
            self._note("failed", f"{request.failure} {request.url}")

    def path(self) -> str:
        """The current page's path on the site ("/zh/autograd/")."""
        return urlsplit(self.page.url).path

    def open(self, path: str) -> None:
        """Load a page and let it settle, so that late requests are seen too."""
        self.page.goto(self.base + path, wait_until="load")
        self.settle()

    def switch_language(self, lang: str, settle: bool = True) -> str:
        """Choose `lang` in the header's language selector, as a reader does; returns the path landed on.

        settle: load the new page and let it settle; else only until its URL is known.
        """
        self.page.hover(".md-header__option:has(a.md-select__link)")
        with self.page.expect_navigation(wait_until="load" if settle else "commit"):
            self.page.click(f'.md-header a.md-select__link[hreflang="{lang}"]')
        if settle:
            self.settle()
        return self.path()

    def html_lang(self) -> str:
        return self.page.evaluate("document.documentElement.lang")

    def code_blocks(self) -> tuple[int, int]:
        """(code blocks in the article, how many of them have a copy-to-clipboard button). The print edition's
        articles are left out: its script puts them in after Material has added its buttons, and a button
        means nothing on paper (docsys/build/print_edition)."""
        return tuple(
            self.page.evaluate(
                "(() => { const codes = [...document.querySelectorAll('article pre > code')]"
                ".filter(c => !c.closest('section.print-page[data-src]'));"
                " return [codes.length, codes.filter(c => c.parentElement.querySelector("
                "'button[data-clipboard-target]')).length]; })()"
            )
        )

    def pending_notice(self) -> dict | None:
        """The "original updated" notice of a translation marked pending (docsys.build.translations):
        its title, text and links as the reader sees them, or None when the page has none."""
        return self.page.evaluate(
            "(() => { const n = document.querySelector('article .translation-pending');"
            " if (!n) return null;"
            " return {title: n.querySelector('.admonition-title').innerText, text: n.innerText,"
            " visible: n.checkVisibility(), links: [...n.querySelectorAll('a')].map(a => a.href)}; })()"
        )

    def close(self) -> None:
        self.page.close()


@dataclass(frozen=True)
class PagePair:
    en: str  # "/autograd/"
    zh: str  # "/zh/autograd/"


def pairs_of(site_dir: Path) -> list[PagePair]:
    """Every page that the built site has in both languages (a missing one is parity's to report)."""
    pairs = []
    for page in sorted(site_dir.rglob("index.html")):
        rel = page.parent.relative_to(site_dir)
        if rel.parts[:1] in (("zh",), ("search",), ("assets",)):
            continue
        path = "/" + "".join(f"{part}/" for part in rel.parts)
        pairs.append(PagePair(path, "/zh" + path))
    return pairs


@dataclass
class SiteReport:
    switches: list[str] = field(default_factory=list)  # language switches that lost the page
    no_copy_button: list[str] = field(default_factory=list)
    code_blocks: int = 0
    findings: Findings = field(default_factory=Findings)
    visited: int = 0


def audit(tab: Tab, pairs: list[PagePair]) -> SiteReport:
    """Open every page of every pair in one tab, as a reader would, and record what goes wrong there:
    requests to other hosts, console errors, failed requests, code blocks without a copy button."""
    report = SiteReport()
    tab.findings = Findings()
    for path in [path for pair in pairs for path in (pair.en, pair.zh)]:
        tab.open(path)
        report.visited += 1
        blocks, buttons = tab.code_blocks()
        report.code_blocks += blocks
        if buttons < blocks:
            report.no_copy_button.append(f"{path}: {blocks - buttons} of {blocks} code blocks")
    report.findings = tab.findings
    return report


def language_switches(tab: Tab, pairs: list[PagePair]) -> list[str]:
    """Click the header's language selector on each page of each pair, as a reader does; returns the
    switches that did not land on the other page of the pair. Material's script, not the link alone,
    decides where a click lands (it looks the target up in the sitemap first). Afterwards
    tab.findings holds what the browser saw during the switches."""
    lost = []
    tab.findings = Findings()
    for pair in pairs:
        tab.open(pair.en)
        for want, lang in ((pair.zh, "zh"), (pair.en, "en")):
            here = tab.path()
            # The other-language page must load before its own selector is used; the way back needs its URL only.
            landed = tab.switch_language(lang, settle=lang != DEFAULT_LANG)
            if landed != want:
                lost.append(f"{here} -> {lang}: landed on {landed}, not {want}")
                break
    return lost
