"""docsys/build/notebook_css.py makes the notebook pages lighter without changing how they look:
every element of the page has the same computed style as in a build that keeps mkdocs-jupyter's
whole stylesheet (NOTEBOOK_CSS_KEEP=1)."""

from __future__ import annotations

import os

import pytest

from docsys.build import notebook_css
from docsys.checks.browser import launch
from docsys.checks.search import serve_gzip
from docsys.checks.site import build

PAGES = ["/notebooks/speed-up-training/", "/zh/notebooks/speed-up-training/"]
# Each element's box and colours, in document order, as the reader's browser computes them.
_STYLES_JS = """() => [...document.querySelectorAll('.md-content *:not(style, link, script)')].map(e => {
  const s = getComputedStyle(e);
  return [e.tagName, e.className && String(e.className), s.display, s.color, s.backgroundColor, s.fontSize,
          s.fontWeight, s.fontFamily, s.margin, s.padding, s.borderTop, s.whiteSpace, s.overflowX].join('|');
})"""


def test_a_selector_is_dropped_only_when_it_cannot_match():
    names = frozenset({"jp-Cell", "highlight"})
    assert notebook_css.can_match(".jp-Cell .highlight pre", names)
    assert notebook_css.can_match("pre:not(.absent)", names)
    assert notebook_css.can_match(".jp-Cell :is(.absent, .highlight:hover)", names)
    assert not notebook_css.can_match(".jp-Cell .absent", names)
    assert not notebook_css.can_match(".jupyter-wrapper :root", names)  # :root is never below an element


def test_the_pruned_stylesheet_is_cached(tmp_path):
    css = ".a{color:red}.b,:is(.b,.a) p{color:blue}@media print{.b{color:green}.a{color:black}}"
    expected = ".a{color:red}:is(.b,.a) p{color:blue}@media print{.a{color:black}}"
    assert notebook_css.pruned(css, frozenset({"a"}), tmp_path) == expected
    (entry,) = tmp_path.glob("*.css")
    entry.write_text("cached", encoding="utf-8")
    assert notebook_css.pruned(css, frozenset({"a"}), tmp_path) == "cached"


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The site built as usual, and built with the whole notebook stylesheet."""
    pruned = build(tmp_path_factory.mktemp("pruned"))
    os.environ[notebook_css.KEEP_ENV] = "1"
    try:
        whole = build(tmp_path_factory.mktemp("whole"))
    finally:
        del os.environ[notebook_css.KEEP_ENV]
    assert pruned.returncode == 0 and whole.returncode == 0, pruned.log[-2000:] + whole.log[-2000:]
    return pruned.path, whole.path


def _styles(browser, site, path: str) -> list[str]:
    with serve_gzip(site) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            page.goto(base + path, wait_until="load")
            return page.evaluate(_STYLES_JS)
        finally:
            page.close()


@pytest.mark.parametrize("path", PAGES)
def test_notebook_pages_look_the_same_with_a_fraction_of_the_stylesheet(sites, path):
    pruned, whole = sites
    sizes = {site: sum(f.stat().st_size for f in (site / "assets").glob("notebook-*.css")) for site in sites}
    assert sizes[pruned] < sizes[whole] / 5, sizes
    with launch() as browser:
        lean, full = _styles(browser, pruned, path), _styles(browser, whole, path)
    assert len(lean) == len(full) > 100
    changed = [f"{a}\n  whole stylesheet: {b}" for a, b in zip(lean, full, strict=True) if a != b]
    assert not changed, f"{len(changed)} elements look different:\n" + "\n".join(changed[:5])
