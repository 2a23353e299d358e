"""The built pages of one language, joined into the body of its print page.

Each page's article keeps its HTML, with what would break on one page made page-local: every id
becomes `<page key>--<id>` (the key is the page's URL as one word: `autograd`, `notebooks-speed-up-training`,
`index`), and so do the references to ids (`href="#…"`, `for`, `aria-*`) and the names that group a
page's tab radio buttons; a link to another page of the print edition becomes a link within the print
page; any other relative URL (a graph's SVG, a figure, a notebook download, a stylesheet) is rewritten
for the print page's own URL. Scripts and the edit, view and report links are left out (they do nothing on
paper), and images load at once (`loading="lazy"` dropped: a printed page has nothing to scroll).
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import urlsplit

# A start tag, its quoted attribute values allowed to hold ">" (text never holds a raw "<": it is escaped).
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
# Scripts, and each page's edit, view and report links (docsys/build/page_links.py), which mean nothing on paper.
_SCRIPT_RE = re.compile(r'<script\b.*?</script>\s*|<p class="page-links">.*?</p>\s*', re.S)
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


def body(edition: Edition, articles: dict[str, str], words: dict[str, str]) -> str:
    """The print page's contents list, then every page's article, each in its own <section>."""
    parts, section = [contents(edition, words)], None
    for page in edition.pages:
        if page.section and page.section != section:
            parts.append(f'<p class="print-part">{html.escape(page.section)}</p>')
        section = page.section
        key = edition.key(page.url)
        article = localized(edition, page.url, articles[page.url])
        parts.append(f'<section class="print-page" id="{key}">\n{article}\n</section>')
    return "\n".join(parts)


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
    article = _SCRIPT_RE.sub("", article)
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
