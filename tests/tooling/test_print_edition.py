"""docsys.build.print_edition on a small two-language site (tests/fixtures/print), and the checks of
docsys.checks.print_edition on pages with a planted fault."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from docsys.build.print_edition import font
from docsys.build.print_edition.pages import pieces
from docsys.build.search import hook as search_hook
from docsys.checks import print_edition as edition
from docsys.checks.site import Build, build, warnings_of

FIXTURE = Path(__file__).parents[1] / "fixtures" / "print"
HOOKS = str(FIXTURE.resolve().parents[2] / "docsys" / "build")


def _copy(tmp: Path) -> Path:
    copy = tmp / "print-src"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns(".cache"))
    yml = copy / "mkdocs.yml"  # its hook is named relative to the fixture's own folder
    yml.write_text(yml.read_text(encoding="utf-8").replace("../../../docsys/build", HOOKS), encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return _copy(tmp_path_factory.mktemp("print"))


@pytest.fixture(scope="module")
def print_site(project) -> Build:
    result = build(project / "site", project / "mkdocs.yml")
    assert result.returncode == 0 and not warnings_of(result), result.log
    return result


def _page(site: Build, lang: str) -> str:
    return edition.assembled(site.path, lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_holds_empty_sections_and_each_article_is_a_file_in_pieces(print_site, lang):
    shell = (print_site.path / edition.print_url(lang) / "index.html").read_text(encoding="utf-8")
    assert edition.named_article_files(shell) == [f"pages/{key}.article.html" for key in ("index", "a", "sub-b")]
    assert "<h1" not in shell.split('id="print-status"', 1)[1].split("</article>")[0]  # no page's title yet
    assert 'src="../assets/print.js" defer' in shell.replace("../../", "../")
    page_a = (print_site.path / edition.print_url(lang) / "pages" / "a.article.html").read_text(encoding="utf-8")
    assert page_a.startswith("<h1") and "<script" not in page_a


@pytest.mark.parametrize(
    ("lang", "titles"), [("en", ["Home", "Page A", "Page B"]), ("zh", ["首页", "页面甲", "页面乙"])]
)
def test_every_page_is_there_in_nav_order(print_site, lang, titles):
    assert edition.nav_titles(print_site.path, lang) == titles
    assert edition.parse(_page(print_site, lang)).titles == titles


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_images_are_there_and_every_url_names_a_file(print_site, lang):
    found = edition.parse(_page(print_site, lang))
    assert found.images == edition.article_images(print_site.path, lang) == 2
    assert not edition.unresolved_urls(print_site.path, edition.print_url(lang), found)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ids_are_made_unique_and_links_between_pages_stay_in_the_page(print_site, lang):
    page_html = _page(print_site, lang)
    found = edition.parse(page_html)
    assert not edition.duplicate_ids(found) and not edition.dangling_fragments(found)
    assert {"a--pitfalls", "sub-b--pitfalls"} <= set(found.ids)  # the same anchor on two pages
    assert 'href="#sub-b--usage"' in page_html and 'href="#a--pitfalls"' in page_html  # another page's section
    assert page_html.count('href="#a"') == 2  # page B's link to page A, and the contents list's
    assert 'name="a--__tabbed_1"' in page_html and 'name="sub-b--__tabbed_1"' in page_html


def test_only_the_zh_edition_gets_the_cjk_font_and_it_is_served(print_site):
    zh, en = _page(print_site, "zh"), _page(print_site, "en")
    assert f'font-family:"{font.FAMILY}"' in zh and font.FAMILY not in en
    fonts = sorted((print_site.path / "zh" / "assets" / "fonts").glob("*.woff2"))
    assert sorted(f.name.rsplit("-", 1)[1] for f in fonts) == ["bold.woff2", "regular.woff2"]


def test_the_subset_holds_the_pages_characters_and_is_named_for_the_site(print_site):
    from fontTools.ttLib import TTFont

    regular = next((print_site.path / "zh" / "assets" / "fonts").glob("*-regular.woff2"))
    subset = TTFont(regular)
    assert set("首页页面甲乙常见陷阱用法脚注。，") <= {chr(c) for c in subset.getBestCmap()}
    assert "A" not in {chr(c) for c in subset.getBestCmap()}  # Latin stays with the page's own fonts
    assert subset["name"].getDebugName(6) == "PTPNotoSansCJKsc-Regular" and "glyf" in subset


def test_a_warm_build_subsets_nothing(print_site, project):
    again = build(project / "site-again", project / "mkdocs.yml")
    assert again.returncode == 0, again.log
    assert "(0 of 2 subset now)" in again.log, [line for line in again.log.splitlines() if "Print" in line]


def test_without_the_source_font_the_build_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(font, "DEBIAN_FILES", {style: tmp_path / "none.ttc" for style in font.STYLES.values()})
    monkeypatch.setattr(font.shutil, "which", lambda name: None)
    with pytest.raises(
        font.FontMissing,
        match=r"^Noto Sans CJK SC Regular is not installed; install the Debian "
        r"package fonts-noto-cjk \(bash scripts/setup\.sh site",
    ):
        font.faces("中文", tmp_path)


def test_under_serve_the_newest_cached_subset_stands_in_for_a_new_one(tmp_path):
    """A zh edit under `mkdocs serve` would otherwise cut a new subset (15-35 s) on every rebuild."""
    made = font.faces("中文", tmp_path)
    reused = font.faces("中文字", tmp_path, reuse_newest=True)
    assert [f.path for f in reused] == [f.path for f in made] and not any(f.made for f in reused)


def test_the_cache_keeps_a_few_subsets_per_style(tmp_path):
    for i in range(6):
        (tmp_path / f"k{i}-regular.woff2").write_bytes(b"x")
    (tmp_path / "k9-bold.woff2").write_bytes(b"x")
    font.prune(tmp_path, "Regular", keep=4)
    assert len(list(tmp_path.glob("*-regular.woff2"))) == 4 and (tmp_path / "k9-bold.woff2").exists()


def test_search_leaves_out_a_page_that_asks_to_be(monkeypatch):
    monkeypatch.setattr(search_hook, "_state", search_hook._Build())
    article = '<article class="md-content__inner md-typeset"><h1>All</h1></article>'
    for meta, url in (({"search": {"exclude": True}}, "print/index.html"), ({}, "a/index.html")):
        page = SimpleNamespace(meta=meta, file=SimpleNamespace(src_uri=f"en/{url}", dest_uri=url))
        search_hook.on_post_page(article, page, None)
    assert list(search_hook._state.pages) == ["a/index.html"]


# --- an article cut into pieces (docsys/build/print_edition/pages.py) ---------------------------

ARTICLE = """<h1 id="t">Title</h1>
<p>Text with <code>&lt;b&gt;</code> and <br> a break.</p>
<div class="admonition"><p class="admonition-title">Note</p><div><p>nested</p></div></div>
<!-- a comment with <div> in it -->
<div class="highlight"><pre><span></span><code><span class="n">x</span> <span class="o">&lt;</span> 1
</code></pre></div>
<svg viewBox="0 0 1 1"><path d="M0 0"/><g><circle r="1"/></g></svg>
<img src="a.svg" alt="a">
<p>Last.</p>"""


class _Balance(HTMLParser):
    """The open elements left at the end of a fragment (void elements and self-closed tags open none)."""

    VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing open"


def _balanced(fragment: str) -> bool:
    parser = _Balance()
    parser.feed(fragment)
    parser.close()
    return not parser.open


def test_an_article_is_cut_only_between_its_top_level_elements():
    cut = pieces(ARTICLE, size=1)
    assert "".join(cut) == ARTICLE
    assert [piece.split(">", 1)[0].strip() for piece in cut] == [
        '<h1 id="t"', "<p", '<div class="admonition"', "<!-- a comment with <div", '<div class="highlight"',
        '<svg viewBox="0 0 1 1"',
        '<img src="a.svg" alt="a"', "<p",
    ]
    assert all(_balanced(piece) for piece in cut), [piece for piece in cut if not _balanced(piece)]
    assert pieces(ARTICLE) == [ARTICLE]  # smaller than a piece: one piece


def test_the_balance_check_sees_a_piece_cut_inside_an_element():
    assert not _balanced('<div class="admonition"><p class="admonition-title">Note</p>')
    assert _balanced(ARTICLE)


# --- the checks, each on a page with its fault -------------------------------------------------

PAGE = """<section class="print-page" id="a"><h1 id="a--t">First<a class="headerlink" href="#a--t">¶</a></h1>
<a href="#a--t">up</a><img src="../assets/pic.svg"></section>
<section class="print-page" id="b"><h1 id="b--t">Second</h1></section>"""


def test_the_checks_pass_a_good_page(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "pic.svg").write_text("<svg/>")
    found = edition.parse(PAGE)
    assert found.titles == ["First", "Second"] and found.images == 1
    assert not (edition.duplicate_ids(found) or edition.dangling_fragments(found))
    assert not edition.unresolved_urls(tmp_path, "print/", found)
    assert not edition.order_problems(found.titles, ["First", "Second"])


def test_the_checks_find_each_planted_fault(tmp_path):
    found = edition.parse(PAGE.replace('id="b--t"', 'id="a--t"').replace('href="#a--t">up', 'href="#gone">up'))
    assert edition.duplicate_ids(found) == ["a--t"]
    assert edition.dangling_fragments(found) == ["gone"]
    assert edition.unresolved_urls(tmp_path, "print/", found) == ["../assets/pic.svg"]
    assert edition.order_problems(["Second", "First"], ["First", "Second"]) == [
        "out of order from #1: 'Second' where the sidebar has 'First'"
    ]
    assert edition.order_problems(["First"], ["First", "Second"])[0] == "missing: ['Second']"


def test_the_font_check_wants_the_sites_font_and_no_system_cjk():
    assert not edition.font_problems(["LiberationSans", *edition.SITE_FONTS, "[none]"])
    assert edition.font_problems(["LiberationSans", "NotoSansCJKsc-Regular"]) == [
        "the site's font PTPNotoSansCJKsc-Regular is not embedded",
        "the site's font PTPNotoSansCJKsc-Bold is not embedded",
        "system CJK fonts embedded: ['NotoSansCJKsc-Regular']",
    ]
