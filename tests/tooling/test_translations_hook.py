"""docsys.build.translations: a translation marked pending says so at its top, in Chinese, linking to
the English page; the build lists it. Built from the small site (tests/tooling/minisite.py) and read in
Debian Chromium, as a reader sees it."""

from __future__ import annotations

import pytest

from docsys.build.translations import insert_under_title, notice
from docsys.checks.browser import Tab, launch, serve
from docsys.translations.check import check_tree, pair
from docsys.translations.update import mark_pending, record_new
from tests.tooling import minisite


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The small site twice: every translation current, then the zh mixed-precision page pending."""
    tmp = tmp_path_factory.mktemp("pending")
    docs = minisite.write_docs(tmp)
    record_new(docs)
    current = minisite.build(docs, tmp / "current")
    en = docs / "en" / "mixed-precision.md"
    en.write_text(en.read_text(encoding="utf-8").replace("some operations", "most operations"), encoding="utf-8")
    assert check_tree(docs) != []  # behind, and not yet saying so
    mark_pending(pair("mixed-precision", docs))
    assert check_tree(docs) == []
    return current, minisite.build(docs, tmp / "pending")


def test_only_a_pending_page_carries_the_notice_and_the_build_lists_it(built):
    current, pending = built
    assert 'class="admonition warning translation-pending"' not in (
        current.path / "zh" / "mixed-precision" / "index.html").read_text(encoding="utf-8")
    assert "Translations pending" not in current.log
    html = (pending.path / "zh" / "mixed-precision" / "index.html").read_text(encoding="utf-8")
    assert html.count('class="admonition warning translation-pending"') == 1
    assert "Translations pending (each shows a notice): zh/mixed-precision.md (#mixed-precision)" in pending.log
    assert "translation-pending" not in (pending.path / "mixed-precision" / "index.html").read_text(encoding="utf-8")


def test_a_reader_sees_the_notice_under_the_title_and_reaches_the_english_page(built):
    _, pending = built
    with launch() as browser, serve(pending.path) as base:
        tab = Tab(browser, base)
        tab.open("/zh/mixed-precision/")
        found = tab.pending_notice()
        assert found is not None and found["visible"], found
        assert found["title"] == "英文原文已更新"
        assert "本页译自较早版本的英文原文" in found["text"] and "开头的导言" in found["text"]
        assert found["links"] == [f"{base}/mixed-precision/#mixed-precision", f"{base}/mixed-precision/"]
        # the notice sits directly under the page title
        assert tab.page.evaluate("document.querySelector('article h1').nextElementSibling"
                                 ".classList.contains('translation-pending')")
        tab.page.click("article .translation-pending a >> nth=1")
        tab.settle()
        assert tab.path() == "/mixed-precision/" and tab.html_lang() == "en"
        assert not tab.findings.console and not tab.findings.failed, tab.findings
        tab.open("/zh/")
        assert tab.pending_notice() is None
        tab.close()


def test_the_notice_names_changed_sections_by_their_zh_titles():
    page = "# 标题 { #top }\n\n正文。\n\n## 小节 { #part }\n\n内容。\n"
    html = "\n".join(notice(page, ["part", "gone"], "../../page/", "zh"))
    assert ('<a href="../../page/#part" hreflang="en">小节</a>、'
            '<a href="../../page/#gone" hreflang="en">gone</a>') in html
    assert insert_under_title(page, ["<div>n</div>"]).split("\n")[:4] == ["# 标题 { #top }", "", "<div>n</div>", ""]
