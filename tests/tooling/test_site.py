"""docsys.checks.site: sidebar entries are their pages' own titles, in each language's sidebar."""

from __future__ import annotations

from docsys.checks.site import page_title, sidebar_entries, sidebar_title_mismatches, titled_nav_pages
from tests.tooling import minisite


def test_sidebars_show_each_page_title_and_a_titled_nav_entry_is_caught(tmp_path):
    docs = minisite.write_docs(tmp_path)
    clean = minisite.build(docs, tmp_path / "clean")
    assert sidebar_entries((clean.path / "zh" / "index.html").read_text(encoding="utf-8")) == [
        ("./", "首页"), ("mixed-precision/", "混合精度")]
    assert sidebar_title_mismatches(clean.path) == []
    # The fault: a page titled in nav (the en title), so the zh sidebar shows English.
    titled = minisite.build(docs, tmp_path / "titled", nav=["index.md", {"Mixed precision": "mixed-precision.md"}])
    assert sidebar_title_mismatches(titled.path) == [
        "zh sidebar: 'Mixed precision' links to zh/mixed-precision/, whose title is '混合精度'"]


def test_the_title_is_the_first_heading_without_its_permalink():
    page = '<h1 id="x">Mixed <code>precision</code><a class="headerlink" href="#x" title="Permanent link">¶</a></h1>'
    assert page_title(page) == "Mixed precision"
    assert page_title("<p>no heading</p>") is None


def test_a_page_titled_in_nav_is_reported_and_sections_are_not():
    nav = ["index.md", {"Part I": ["autograd.md", {"Autograd": "autograd.md"}]}, {"PyTorch": "https://pytorch.org"}]
    assert titled_nav_pages(nav) == [
        "nav › Part I: 'Autograd: autograd.md' titles a page; write '- autograd.md' and let the page's own title "
        "name it"]
