"""Python-Markdown extension: an inline-code PyTorch API name in the prose links to its reference.

The names and their URLs are the symbol map, docsys/core/api_links.toml (docsys.core.api_links): a
`<code>` whose whole text is a mapped name or alias, with or without a trailing `()`, becomes a link,
on every page of both languages. Polars' docs link every occurrence; here the first of each name in each
h2 section is: a reader who lands on a section by its anchor finds the link there, and every link is one
more element on the page (the element budgets of docsys/checks/site.py: errata would gain 43 elements,
fsdp 34, linking all of them). Left alone: code in a code block, code already inside a link, code in a
heading (its text is the heading's anchor and its table of contents entry).

Once per build process the map's form is checked and every name resolved in the installed torch,
the result kept in `.cache/api-links.json` by torch's version and the map's hash (a warm build imports
no torch); a problem is logged as a warning, which fails a strict build, one line per name.
"""

from __future__ import annotations

import functools
import html
import logging
import xml.etree.ElementTree as etree
from pathlib import Path

from markdown import Markdown, util
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from docsys.core import api_links

log = logging.getLogger("mkdocs.extensions.api_links")
CACHE_FILE = Path(".cache") / "api-links.json"  # relative to the folder mkdocs runs in, like pymdownx's base_path
SKIPPED = {"a", "pre", "h1", "h2", "h3", "h4", "h5", "h6"}
SECTION_STARTS = {"h1", "h2"}


@functools.cache
def checked_map(path: Path, cache_file: Path, modified: int = 0) -> dict[str, api_links.Symbol]:
    """The map's spellings, once per process and version of the file (`modified`: its mtime, so that `mkdocs
    serve` rereads an edited map); its problems logged as warnings (a strict build fails)."""
    try:
        api_map = api_links.load(path)
    except api_links.ApiMapError as error:
        log.warning(str(error))
        return {}
    for line in api_links.unresolved_cached(api_map, cache_file):
        log.warning(line)
    return api_map.lookup()


def spelled(md: Markdown, code: etree.Element) -> str:
    """The name a code span writes (`torch.no_grad()` names torch.no_grad); "" for anything else."""
    if code.tag != "code" or len(code) or not code.text:
        return ""
    text = code.text
    stashed = util.HTML_PLACEHOLDER_RE.fullmatch(text)  # pymdownx.inlinehilite stashes a span's escaped text
    if stashed:
        text = html.unescape(str(md.htmlStash.rawHtmlBlocks[int(stashed.group(1))]))
    return text.removesuffix("()")


def link_code(md: Markdown, root: etree.Element, spellings: dict[str, api_links.Symbol], seen: set[str]) -> int:
    """Wrap each mapped `<code>` under `root` (outside SKIPPED) not yet in `seen` in a link; how many.

    `seen` holds the symbols linked in this section so far; an h1 or h2 starts a new section."""
    linked = 0
    for parent in root:
        if parent.tag in SECTION_STARTS:
            seen.clear()
        if parent.tag in SKIPPED:
            continue
        for index, child in enumerate(list(parent)):
            name = spelled(md, child)
            symbol = spellings.get(name) if name else None
            if symbol is None or symbol.name in seen:
                continue
            seen.add(symbol.name)
            link = etree.Element("a", {"href": symbol.url})
            if name != symbol.name:
                link.set("title", symbol.name)  # an alias: the full name on hover
            link.tail, child.tail = child.tail, None
            parent.remove(child)
            parent.insert(index, link)
            link.append(child)
            linked += 1
        linked += link_code(md, parent, spellings, seen)
    return linked


class ApiLinkTreeprocessor(Treeprocessor):
    def __init__(self, md: Markdown, map_file: Path, cache_file: Path) -> None:
        super().__init__(md)
        self.map_file, self.cache_file = map_file, cache_file

    def run(self, root: etree.Element) -> None:
        spellings = checked_map(self.map_file, self.cache_file, self.map_file.stat().st_mtime_ns)
        if spellings:
            link_code(self.md, root, spellings, set())


class ApiLinkExtension(Extension):
    def __init__(self, **kwargs) -> None:
        self.config = {
            "map_file": [str(api_links.MAP_FILE), "the symbol map (TOML)"],
            "cache_file": [str(CACHE_FILE), "where the map's resolution in torch is kept"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        files = Path(self.getConfig("map_file")), Path(self.getConfig("cache_file"))
        # After the inline patterns (20), which make the <code> elements; before attr_list (8) and toc (5).
        md.treeprocessors.register(ApiLinkTreeprocessor(md, *files), "api_links", 15)


def makeExtension(**kwargs) -> ApiLinkExtension:
    return ApiLinkExtension(**kwargs)
