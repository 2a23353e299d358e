"""The built pages of one language, made into its print page: the page holds the contents list and an
empty section per page; each page's article is a file of its own beside it, which assets/print.js puts
into its section once the page has loaded, a piece at a time (`pieces`, at the article's top-level
elements). The page itself then weighs a few KiB and shows at once on a phone, and no step of filling it
holds the page for long: all 42 articles in one document were 2.6 MB of HTML (530 KB gzipped) and scored
28 for Lighthouse's performance (`scripts/lighthouse.py`).

Each page's article keeps its HTML, with what would break on one page made page-local: every id
becomes `<page key>--<id>` (the key is the page's URL as one word: `autograd`, `notebooks-speed-up-training`,
`index`), and so do the references to ids (`href="#…"`, `for`, `aria-*`) and the names that group a
page's tab radio buttons; a link to another page of the print edition becomes a link within the print
page; any other relative URL (a graph's SVG, a figure, a notebook download, a stylesheet) is rewritten
for the print page's own URL. Scripts, the edit, view and report links and the notebook download are left
out, and a code block's title is its file's name without the download link (they do nothing on paper), and
images load at once (`loading="lazy"` dropped: a printed page has nothing to scroll).
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from urllib.parse import urlsplit

from docsys.core.print_layout import ARTICLE_SUFFIX, ARTICLES_DIR, PIECE

# A start tag (Python-Markdown escapes ">" in attribute values, and text never holds a raw "<"); a code
# block is passed over whole: its tags are the highlighter's spans, which carry no id or URL. Only tags
# with an attribute that _ATTR_RE may rewrite are matched.
_TAG_RE = re.compile(
    r"(?P<pre><pre\b.*?</pre>)|<[a-zA-Z][^<>]*?\s(?:id|for|name|href|src|xlink:href|loading|aria-)[^<>]*>", re.S
)
_ID_RE = re.compile(r'\sid="([^"]*)"')
# The attributes this rewrites (any other is left as it is).
_ATTR_RE = re.compile(
    r'(\s)(id|for|name|href|src|xlink:href|loading|aria-(?:labelledby|describedby|controls))="([^"]*)"'
)
# Scripts, each page's edit, view and report links (docsys/build/page_links.py) and its notebook download
# (docsys/build/page_notebooks.py), which mean nothing on paper.
_SCRIPT_RE = re.compile(r'<script\b.*?</script>\s*|<p class="page-(?:links|downloads)">.*?</p>\s*', re.S)
# A code block's title is a download of its file (docsys/build/page_notebooks.py): on paper, just its name.
_DOWNLOAD_TITLE_RE = re.compile(r'(<span class="filename">)<a href="[^"]*" download[^>]*>([^<]*)</a>')
_ARTICLE_RE = re.compile(r'<article class="md-content__inner md-typeset">(.*)</article>', re.S)
_ID_REFERENCES = ("for", "aria-labelledby", "aria-describedby", "aria-controls")
_URLS = ("href", "src", "xlink:href")
_TAB_GROUP = "__tabbed_"  # pymdownx.tabbed names each tab set's radio buttons __tabbed_<n>, counting per page


@dataclass(frozen=True)
class Page:
    """One page of the print edition."""

    url: str  # its URL in the site, "zh/autograd/"
    title: str
    section: str | None  # the nav section it is listed under, if any


@dataclass(frozen=True)
class Edition:
    """A language's print page and the pages it holds, in nav order."""

    url: str  # "zh/print/"
    root: str  # the language's root in the site: "" or "zh/"
    pages: tuple[Page, ...]

    def key(self, page_url: str) -> str:
        return page_url.removeprefix(self.root).strip("/").replace("/", "-") or "index"

    @cached_property
    def by_path(self) -> dict[str, Page]:
        """Its pages by their path from the site's root, without slashes at its ends."""
        return {page.url.strip("/"): page for page in self.pages}


def article_of(page_html: str) -> str | None:
    """The inside of a built page's <article>."""
    match = _ARTICLE_RE.search(page_html)
    return match[1] if match else None


PIECE_CHARS = 12_000  # a piece's size at least (one top-level element may be larger): ~2 ms of parsing here


def body(edition: Edition, words: dict[str, str]) -> str:
    """The print page's contents list, what it says while it fills, and an empty <section> per page,
    which names the file of its article (`data-src`)."""
    parts, section = [contents(edition, words), _filling(edition, words)], None
    for page in edition.pages:
        if page.section and page.section != section:
            parts.append(f'<p class="print-part">{html.escape(page.section)}</p>')
        section = page.section
        key = edition.key(page.url)
        parts.append(f'<section class="print-page" id="{key}" data-src="{article_file(key)}"></section>')
    return "\n".join(parts)


def _filling(edition: Edition, words: dict[str, str]) -> str:
    total = len(edition.pages)
    loading = html.escape(words["print_loading"], quote=True)
    done = html.escape(words["print_done"].format(total=total), quote=True)
    return (
        f'<p class="print-status" id="print-status" role="status" data-loading="{loading}" data-done="{done}">'
        f"{html.escape(words['print_loading'].format(count=0, total=total))}</p>"
        f'<noscript><p class="print-status">{html.escape(words["print_noscript"])}</p></noscript>'
    )


def article_file(key: str) -> str:
    """Where a page's article is, relative to the print page."""
    return f"{ARTICLES_DIR}/{key}{ARTICLE_SUFFIX}"


def article(edition: Edition, page_url: str, built_article: str) -> str:
    """A page's article as the print page's file of it: made a part of the print page, in pieces."""
    return PIECE.join(pieces(localized(edition, page_url, built_article).strip()))


# A tag, a comment, or a code block passed over whole (its tags are the highlighter's balanced spans).
_ELEMENT_RE = re.compile(r"<pre\b.*?</pre>|<!--.*?-->|<(/?)([a-zA-Z][\w:-]*)[^<>]*?(/?)>", re.S)
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})


def pieces(fragment: str, size: int = PIECE_CHARS) -> list[str]:
    """A fragment of HTML cut between its top-level elements into pieces of at least `size` characters,
    each one well-formed on its own (a tag left open would be closed where a piece ends)."""
    cuts, depth, start = [], 0, 0
    for match in _ELEMENT_RE.finditer(fragment):
        closing, name, self_closing = match.groups()
        if name is None or name.lower() in _VOID or self_closing:
            pass
        elif closing:
            depth -= 1
        else:
            depth += 1
        if depth == 0 and match.end() - start >= size:
            cuts.append(match.end())
            start = match.end()
    bounds = [0, *cuts, len(fragment)]
    return [fragment[a:b] for a, b in pairwise(bounds) if fragment[a:b].strip()]


def contents(edition: Edition, words: dict[str, str]) -> str:
    """The list of pages, grouped by nav section, each linked to its place in the print page."""
    items, section, group = [], None, []
    for page in edition.pages:
        link = f'<li><a href="#{edition.key(page.url)}">{html.escape(page.title)}</a></li>'
        if page.section != section and group:
            items.append(f"<li>{html.escape(section)}<ol>{''.join(group)}</ol></li>")
            group = []
        section = page.section
        if section:
            group.append(link)
        else:
            items.append(link)
    if group:
        items.append(f"<li>{html.escape(section)}<ol>{''.join(group)}</ol></li>")
    title = html.escape(words["print_contents"])
    return (
        f'<nav class="print-contents" aria-labelledby="print-contents"><h2 id="print-contents">{title}</h2>'
        f"<ol>{''.join(items)}</ol></nav>"
    )


def localized(edition: Edition, page_url: str, article: str) -> str:
    """One page's article, made a part of the print page (the module's docstring says how)."""
    article = _DOWNLOAD_TITLE_RE.sub(r"\1\2", _SCRIPT_RE.sub("", article))
    ids = set(_ID_RE.findall(article))
    rewrite = _Rewrite(edition, page_url, edition.key(page_url), ids)
    return _TAG_RE.sub(lambda m: m[0] if m["pre"] else _ATTR_RE.sub(rewrite.attribute, m[0]), article)


@dataclass(frozen=True)
class _Rewrite:
    edition: Edition
    page_url: str
    key: str
    ids: set[str]

    def attribute(self, match: re.Match[str]) -> str:
        space, name, value = match.groups()
        if name == "loading" and value == "lazy":
            return ""
        if name == "id" or (name == "name" and value.startswith(_TAB_GROUP)):
            value = f"{self.key}--{value}"
        elif name in _ID_REFERENCES:
            value = " ".join(f"{self.key}--{v}" if v in self.ids else v for v in value.split())
        elif name in _URLS:
            value = self.url(value)
        return f'{space}{name}="{value}"'

    def url(self, value: str) -> str:
        if value.startswith("#"):
            return f"#{self.key}--{value[1:]}" if html.unescape(value[1:]) in self.ids else value
        parts = urlsplit(value)
        if parts.scheme or parts.netloc or value.startswith("/"):
            return value
        target = _resolve(self.page_url, parts.path)
        page = self.edition.by_path.get(target)
        if page is not None:
            key = self.edition.key(page.url)
            return f"#{key}--{parts.fragment}" if parts.fragment else f"#{key}"
        relative = posixpath.relpath(target or ".", self.edition.url.strip("/") or ".")
        relative += "/" if parts.path.endswith("/") or not parts.path else ""
        return relative + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def _resolve(page_url: str, path: str) -> str:
    """A relative path from a page, as a path from the site's root without slashes at its ends ("" for the root)."""
    path = path.removesuffix("index.html")
    joined = posixpath.normpath(posixpath.join(page_url or ".", path or "."))
    return "" if joined == "." else joined.strip("/")
