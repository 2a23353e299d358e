"""The print edition as a reader gets it (docsys/build/print_edition): every page's title in nav order,
its images present and loadable, ids unique and every in-page link landing, and, printed to PDF by
Chromium once its script has put every article in place, Chinese set in the site's own font.

The checks read the page as the script leaves it: `assembled` puts each article file into its section
as assets/print.js does (the browser test compares the two)."""

from __future__ import annotations

import html
import posixpath
import re
import shutil
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from docsys.checks.site import sidebar_entries
from docsys.core.paths import lang_root
from docsys.core.print_layout import ARTICLE_SUFFIX, ARTICLES_DIR, PIECE, print_url

_EMPTY_SECTION_RE = re.compile(r'(<section class="print-page" id="[^"]*" data-src="([^"]*)">)(</section>)')
SITE_FONTS = ("PTPNotoSansCJKsc-Regular", "PTPNotoSansCJKsc-Bold")  # the PostScript names the build gives its subsets
SYSTEM_CJK = "NotoSansCJK"  # how the system's Noto CJK fonts are named in a PDF


@dataclass
class Parsed:
    """What the checks read in a print page."""

    ids: list[str] = field(default_factory=list)
    fragments: list[str] = field(default_factory=list)  # href="#..." targets
    urls: list[str] = field(default_factory=list)  # relative src and href values (not "#...")
    images: int = 0
    titles: list[str] = field(default_factory=list)  # each .print-page section's first h1


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = Parsed()
        self._in_section = False
        self._title: list[str] | None = None
        self._skip = 0  # depth inside a permalink, whose ¶ is not part of a title

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.found.ids.append(a["id"])
        for name in ("href", "src"):
            value = a.get(name)
            if value is None or tag in ("base",):
                continue
            if value.startswith("#"):
                self.found.fragments.append(value[1:])
            elif not (urlsplit(value).scheme or value.startswith("/")):
                self.found.urls.append(value)
        self.found.images += tag == "img"
        self._track_title(tag, a)

    def _track_title(self, tag: str, a: dict[str, str]) -> None:
        if tag == "section" and "print-page" in a.get("class", "").split():
            self._in_section = True
        elif tag == "h1" and self._in_section:
            self._in_section, self._title = False, []
        elif tag == "a" and self._title is not None and a.get("class") in ("headerlink", "anchor-link"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._skip:
            self._skip -= 1
        elif tag == "h1" and self._title is not None:
            self.found.titles.append(" ".join("".join(self._title).split()))
            self._title = None

    def handle_data(self, data: str) -> None:
        if self._title is not None and not self._skip:
            self._title.append(data)


def assembled(site_dir: Path, lang: str) -> str:
    """A language's print page with every article file put into its section (what assets/print.js does);
    a section whose file is missing raises FileNotFoundError naming it."""
    folder = site_dir / print_url(lang)
    page_html = (folder / "index.html").read_text(encoding="utf-8")

    def fill(match: re.Match[str]) -> str:
        article = (folder / match[2]).read_text(encoding="utf-8").replace(PIECE, "")
        return match[1] + article + match[3]

    return _EMPTY_SECTION_RE.sub(fill, page_html)


def article_files(site_dir: Path, lang: str) -> list[Path]:
    return sorted((site_dir / print_url(lang) / ARTICLES_DIR).glob(f"*{ARTICLE_SUFFIX}"))


def named_article_files(page_html: str) -> list[str]:
    """The article files the print page's empty sections name, in page order."""
    return [match[2] for match in _EMPTY_SECTION_RE.finditer(page_html)]


def parse(page_html: str) -> Parsed:
    reader = _Reader()
    reader.feed(page_html)
    return reader.found


def nav_titles(site_dir: Path, lang: str) -> list[str]:
    """Every page's title in the order of the language's sidebar (read on its home page)."""
    home = site_dir / lang_root(lang) / "index.html"
    return [html.unescape(text) for _, text in sidebar_entries(home.read_text(encoding="utf-8"))]


def order_problems(titles: list[str], expected: list[str]) -> list[str]:
    """How the print page's section titles differ from the sidebar's, in order."""
    if titles == expected:
        return []
    missing = [t for t in expected if t not in titles]
    extra = [t for t in titles if t not in expected]
    if missing or extra:
        return [f"missing: {missing}"] * bool(missing) + [f"not in the sidebar: {extra}"] * bool(extra)
    first = next(i for i, (a, b) in enumerate(zip(titles, expected, strict=True)) if a != b)
    return [f"out of order from #{first + 1}: '{titles[first]}' where the sidebar has '{expected[first]}'"]


def duplicate_ids(found: Parsed) -> list[str]:
    return sorted(i for i, n in Counter(found.ids).items() if n > 1)


def dangling_fragments(found: Parsed) -> list[str]:
    """In-page links whose target id is not on the page."""
    ids = set(found.ids)
    return sorted({f for f in found.fragments if html.unescape(f) not in ids and f})


def unresolved_urls(site_dir: Path, page_url: str, found: Parsed) -> list[str]:
    """Relative URLs of the page that name no file of the built site."""
    missing = set()
    for url in found.urls:
        path = urlsplit(url).path
        target = site_dir / posixpath.normpath(posixpath.join(page_url, path))
        if path.endswith("/") or target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            missing.add(url)
    return sorted(missing)


_FOOTER_LINK = re.compile(r'<a href="([^"]*)" class="md-copyright__print">')


def pages_without_print_link(site_dir: Path, lang: str) -> list[str]:
    """Pages of a language whose footer does not link that language's print page."""
    root = site_dir / lang_root(lang)
    want = (site_dir / print_url(lang) / "index.html").resolve()
    missing = []
    for href, _ in sidebar_entries((root / "index.html").read_text(encoding="utf-8")):
        page = (root / href / "index.html").resolve()
        link = _FOOTER_LINK.search(page.read_text(encoding="utf-8"))
        if link is None or (page.parent / link[1] / "index.html").resolve() != want:
            missing.append(str(page.parent.relative_to(site_dir.resolve())))
    return missing


def article_images(site_dir: Path, lang: str) -> int:
    """The images of every page of a language, in their articles (what the print page should hold)."""
    total = 0
    root = site_dir / lang_root(lang)
    for href, _ in sidebar_entries((root / "index.html").read_text(encoding="utf-8")):
        page = (root / href / "index.html").resolve()
        text = page.read_text(encoding="utf-8")
        article = text[text.find("<article") : text.find("</article>")]
        total += parse(article).images
    return total


@dataclass(frozen=True)
class Printed:
    fonts: list[str]  # the PDF's fonts, as pdffonts names them (subset prefix removed)
    pages: int
    seconds: float  # from opening the page to the PDF written
    filled_in: float  # from opening the page to every article in place
    titles: list[str]  # each .print-page section's h1, as the browser holds them when it printed
    elements: int  # in the filled page


_DOM_TITLES = """[...document.querySelectorAll("section.print-page")].map(s => {
  const h1 = s.querySelector("h1"); if (!h1) return "";
  const copy = h1.cloneNode(true); copy.querySelectorAll("a.headerlink, a.anchor-link").forEach(a => a.remove());
  return copy.textContent.split(/\\s+/).filter(Boolean).join(" "); })"""


def print_to_pdf(browser, base: str, lang: str, pdf: Path) -> Printed:
    """Chromium's print-to-PDF of a language's print page (A4) once its script has put every article in
    place, and the PDF's fonts and page count."""
    page = browser.new_page()
    start = time.perf_counter()
    try:
        page.goto(f"{base}/{print_url(lang)}", wait_until="load", timeout=120_000)
        page.wait_for_selector("html[data-print-edition=complete]", state="attached", timeout=120_000)
        filled_in = time.perf_counter() - start
        titles = page.evaluate(_DOM_TITLES)
        elements = page.evaluate("document.getElementsByTagName('*').length")
        page.evaluate("document.fonts.ready.then(() => true)")
        page.pdf(path=str(pdf), format="A4")
    finally:
        page.close()
    seconds = time.perf_counter() - start
    return Printed(pdf_fonts(pdf), pdf_pages(pdf), seconds, filled_in, titles, elements)


def _poppler(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise RuntimeError(f"{tool} is not installed; run scripts/setup.sh (apt-get install poppler-utils)")
    return found


def pdf_fonts(pdf: Path) -> list[str]:
    out = subprocess.run([_poppler("pdffonts"), str(pdf)], capture_output=True, text=True, check=True, timeout=120)
    names = [line.split()[0] for line in out.stdout.splitlines()[2:] if line.strip()]
    return [name.split("+", 1)[-1] for name in names]


def pdf_pages(pdf: Path) -> int:
    out = subprocess.run([_poppler("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True, timeout=60)
    return next(int(line.split()[-1]) for line in out.stdout.splitlines() if line.startswith("Pages:"))


def font_problems(fonts: list[str]) -> list[str]:
    """The site's two CJK subsets must be embedded, and no system Noto CJK font beside them."""
    problems = [f"the site's font {name} is not embedded" for name in SITE_FONTS if name not in fonts]
    system = sorted({f for f in fonts if SYSTEM_CJK in f and f not in SITE_FONTS})
    if system:
        problems.append(f"system CJK fonts embedded: {system}")
    return problems
