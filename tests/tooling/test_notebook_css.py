"""docsys/build/notebook_css.py makes the notebook pages lighter without changing how they look:
every element of the page has the same computed style as in a build that keeps mkdocs-jupyter's
whole stylesheet (NOTEBOOK_CSS_KEEP=1).

The pruned pages are the session's build of the site (`built_site`); the whole stylesheet comes
from the small site (tests/tooling/minisite.py) built with the notebook alone, a few seconds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from docsys.build import notebook_css
from docsys.checks.downloads import serve_gzip
from docsys.checks.site import TEST_REPO_URL
from docsys.core.paths import NOTEBOOKS_DIR, ROOT
from tests.tooling import minisite

pytestmark = pytest.mark.browser

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


def test_a_class_that_the_themes_scripts_add_keeps_its_rules(tmp_path):
    """Material's script wraps a notebook's table in div.md-typeset__scrollwrap after load: no page
    names it, and JupyterLab's stylesheet sets its margin."""
    script = tmp_path / "bundle.min.js"
    script.write_text('t=h("div",{class:"md-typeset__scrollwrap"},h("div",{class:"md-typeset__table"}))')
    names = notebook_css.page_names('<div class="jupyter-wrapper"></div>') | notebook_css.script_names((script,))
    css = ".jupyter-wrapper .md-typeset__scrollwrap{margin:0}.jupyter-wrapper .jp-Absent{margin:0}"
    assert notebook_css.pruned(css, names, tmp_path) == ".jupyter-wrapper .md-typeset__scrollwrap{margin:0}"


@pytest.fixture(scope="module")
def whole(tmp_path_factory, worker_id) -> Path:
    """The notebook pages built with the whole stylesheet (the small site, with the notebook in its nav),
    once per test run."""
    return minisite.shared(tmp_path_factory, worker_id, "notebook-whole-css", _build_whole)


def _build_whole(tmp: Path) -> Path:
    docs = minisite.write_docs(tmp)
    (tmp / NOTEBOOKS_DIR.name).symlink_to(NOTEBOOKS_DIR)  # the hooks find notebooks beside mkdocs.yml
    nav = [*minisite.NAV, *(f"notebooks/{source.stem}.ipynb" for source in sorted(NOTEBOOKS_DIR.glob("*.py")))]
    os.environ[notebook_css.KEEP_ENV] = "1"
    try:
        # as the real site is built (docsys.checks.site.build): with the page links a deploy has, which name
        # the pinned torch
        shutil.copy(ROOT / "requirements.txt", tmp / "requirements.txt")
        return minisite.build(docs, tmp / "site", nav=nav, env={"REPO_URL": TEST_REPO_URL}).path
    finally:
        del os.environ[notebook_css.KEEP_ENV]


def _styles(browser, site, path: str) -> list[str]:
    with serve_gzip(site) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            page.goto(base + path, wait_until="load")
            return page.evaluate(_STYLES_JS)
        finally:
            page.close()


@pytest.mark.parametrize("path", PAGES)
def test_notebook_pages_look_the_same_with_a_fraction_of_the_stylesheet(built_site, whole, browser, path):
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    pruned = built_site.path
    sizes = {site: sum(f.stat().st_size for f in (site / "assets").glob("notebook-*.css")) for site in (pruned, whole)}
    assert sizes[pruned] < sizes[whole] / 5, sizes
    lean, full = _styles(browser, pruned, path), _styles(browser, whole, path)
    assert len(lean) == len(full) > 100
    changed = [f"{a}\n  whole stylesheet: {b}" for a, b in zip(lean, full, strict=True) if a != b]
    assert not changed, f"{len(changed)} elements look different:\n" + "\n".join(changed[:5])
