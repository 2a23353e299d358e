"""Lighter pages: drop what the renderers write that changes nothing a reader sees. An MkDocs hook.

Every element of a page is styled again each time Material's script touches the whole page at load
(its palette sets and clears `data-md-color-switching` on <body>, and sets the `color-scheme` meta:
each a full style recalculation), so the page's element count is most of its main-thread time on a
phone, and Pygments' spans are most of a code-heavy page's elements. Inside <pre> blocks this removes

- `<span class="n">name</span>` (a Name token): Material colours `.highlight .n` with
  `--md-code-hl-name-color`, which both its palettes define as `--md-code-fg-color`, the colour the
  code block already has; the notebook's Pygments stylesheet has no `.n` rule at all;
- `<span class="w"> </span>` (whitespace): no colour shows on a space, and no stylesheet gives
  `.w` anything but a colour;
- on the pages (not the notebook, whose cells mkdocs-jupyter colours with its own stylesheet)
  `<span class="p">(</span>` and `<span class="o">=</span>` (punctuation, operators): the site's
  palette (docs/assets/palette.css) draws both in the code's own colour, where Material drew them
  grey. They were half of a code-heavy page's elements: on mixed-precision (4261 elements) Lighthouse
  measured a total blocking time of 158-568 ms (median 467, 7 runs) with them and 103-199 ms
  (median 161, 5 runs) without. Word operators (`in`, `not`: `.ow`) keep their span and take the
  keywords' colour;
- the empty `<span></span>` Pygments writes at the start of every block.

The text is left byte for byte, so copying, search and the tests that read code blocks see the same
code. Table cells that the notebook's Markdown renderer aligns with an inline style
(`<td style="text-align:right">`, each cell its own style to resolve) get the `align` attribute that
Python-Markdown writes for the pages (mkdocs.yml, `tables: use_align_attribute`) and Material's
stylesheet expects (`td:not([align])`). tests/tooling/test_lean_html.py holds Material's palettes
to the first premise; tests/content/test_site.py holds every page to an element budget.
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

_PRE_RE = re.compile(r"<pre\b.*?</pre>", re.S)


def _spans_of(token_classes: str) -> re.Pattern[str]:
    """A Pygments span of one of these one-letter token classes, its text as group 1."""
    return re.compile(rf'<span class="[{token_classes}]">([^<]*)</span>')


# notebook or not -> the spans that change nothing there (the notebook's stylesheet colours p and o)
_PLAIN_SPANS = {True: _spans_of("nw"), False: _spans_of("nwop")}
_EMPTY_SPAN = "<span></span>"
_CELL_ALIGN_STYLE_RE = re.compile(r'<(t[dh]) style="text-align: ?(left|right|center);?">')


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return lighter(output, notebook=page.file.src_uri.endswith(".ipynb"))


def lighter(html: str, notebook: bool = False) -> str:
    """`html` without the spans of its <pre> blocks that do not change how the code looks, and with
    its table cells aligned by attribute."""
    plain = _PLAIN_SPANS[notebook]
    html = _PRE_RE.sub(lambda m: plain.sub(r"\1", m[0]).replace(_EMPTY_SPAN, ""), html)
    return _CELL_ALIGN_STYLE_RE.sub(r'<\1 align="\2">', html)
