"""The real site builds strictly, and what a reader gets is complete and self-contained."""

from __future__ import annotations

import re
from pathlib import Path

from docsys.checks.browser import pairs_of
from docsys.checks.site import (
    DEFAULT_ELEMENT_BUDGET,
    ELEMENT_BUDGETS,
    TEST_REPO_URL,
    built_page,
    element_count,
    page_link_problems,
    pinned_torch,
    warnings_of,
)
from docsys.core.paths import ROOT, page_paths

SWITCHER_LINK = re.compile(r'<a href="([^"]+)" hreflang="([^"]+)"')
HTML_LANG = re.compile(r'<html lang="([^"]+)"')
EXTERNAL_ASSET_RE = re.compile(r'<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)


def test_strict_build_passes_without_warnings(built_site):
    assert built_site.returncode == 0, built_site.log
    assert not warnings_of(built_site), "\n".join(warnings_of(built_site))


def _switcher_target(site_dir: Path, path: str, lang: str) -> Path | None:
    """The built file that the language selector of the page at `path` links for `lang`."""
    page = site_dir / path.strip("/") / "index.html"
    links = {hreflang: href for href, hreflang in SWITCHER_LINK.findall(page.read_text(encoding="utf-8"))}
    if lang not in links:
        return None
    base = site_dir if links[lang].startswith("/") else page.parent
    return (base / links[lang].lstrip("/") / "index.html").resolve()


def test_language_selector_of_every_page_links_its_other_language_page(built_site):
    """Both ways, notebook pages included; tests/content/test_browser.py clicks it on a few of them."""
    site_dir = built_site.path
    lost = []
    for pair in pairs_of(site_dir):
        for here, there, lang in ((pair.en, pair.zh, "zh"), (pair.zh, pair.en, "en")):
            target = _switcher_target(site_dir, here, lang)
            if target != (site_dir / there.strip("/") / "index.html").resolve():
                lost.append(f"{here} -> {lang}: links {target}, not {there}")
            html_lang = HTML_LANG.search((site_dir / there.strip("/") / "index.html").read_text(encoding="utf-8"))
            if html_lang is None or html_lang.group(1) != lang:
                lost.append(f"{there}: <html lang> is not {lang!r}")
    assert not lost, "\n".join(lost)


def test_built_pages_load_nothing_from_other_hosts(built_site):
    offenders = []
    for page in built_site.path.rglob("*.html"):
        for tag in EXTERNAL_ASSET_RE.findall(page.read_text(encoding="utf-8")):
            offenders.append(f"{page.relative_to(built_site.path)}: {tag}")
    offenders = [o for o in offenders if 'rel="canonical"' not in o and "hreflang" not in o]
    assert not offenders, "\n".join(offenders[:10])


def test_every_page_links_its_own_source_and_a_report_naming_it_its_language_and_torch(built_site):
    """Edit and view link docs/<lang>/<slug>.md (a notebook: its jupytext source); the report link's new issue
    names the page's URL, its language and the pinned torch; no page has Material's repository widget."""
    problems = page_link_problems(built_site.path, ROOT, TEST_REPO_URL, pinned_torch())
    assert not problems, "\n".join(problems[:10])


def test_every_page_with_recordings_and_the_notebook_carry_a_verified_with_stamp(built_site):
    """A page that shows an example, or includes a recorded output on its own (getting-started)."""
    from docsys.build.examples import OUT_INCLUDE_RE
    from docsys.checks.pages import examples
    from docsys.core.paths import LANGS

    missing = []
    for lang in LANGS:
        for page in page_paths(lang):
            text = page.read_text(encoding="utf-8")
            if examples(text) or any(map(OUT_INCLUDE_RE.match, text.splitlines())):
                built = built_page(built_site.path, page).read_text(encoding="utf-8")
                missing += [] if 'class="verified-with"' in built else [f"{lang}/{page.name}"]
        notebook = built_site.path / ("" if lang == "en" else lang) / "notebooks" / "speed-up-training" / "index.html"
        text = notebook.read_text(encoding="utf-8")
        missing += [] if 'class="verified-with"' in text else [f"{lang} notebook"]
        missing += [] if 'class="bench-caption"' in text else [f"{lang} notebook: the machine it measured on"]
    assert not missing, f"pages without a stamp: {missing}"


def test_both_sidebars_show_each_page_s_own_title(built_site):
    from docsys.checks.site import sidebar_title_mismatches

    problems = sidebar_title_mismatches(built_site.path)
    assert not problems, "\n".join(problems)


def test_nav_titles_no_page():
    from mkdocs.utils import yaml_load

    from docsys.checks.site import titled_nav_pages
    from docsys.core.paths import MKDOCS_YML

    with MKDOCS_YML.open(encoding="utf-8") as f:
        problems = titled_nav_pages(yaml_load(f)["nav"])
    assert not problems, "\n".join(problems)


def test_every_page_stays_within_its_element_budget(built_site):
    """Every page in both languages: its element count is most of its main-thread time on a phone
    (docsys/build/lean_html.py), which Lighthouse 95 needs kept down."""
    built = {built_page(built_site.path, page) for lang in ("en", "zh") for page in page_paths(lang)}
    built |= {built_site.path / prefix / slug / "index.html" for slug in ELEMENT_BUDGETS for prefix in ("", "zh/")}
    over = []
    for page in sorted(built):
        slug = page.parent.relative_to(built_site.path).as_posix().removeprefix("zh").strip("/")
        budget = ELEMENT_BUDGETS.get(slug, DEFAULT_ELEMENT_BUDGET)
        count = element_count(page.read_text(encoding="utf-8"))
        over += [f"{page.relative_to(built_site.path)}: {count} elements, budget {budget}"] if count > budget else []
    assert len(built) > 80 and not over, "\n".join(over) or f"only {len(built)} pages found"


def test_no_page_carries_an_element_per_code_line_or_a_style_per_table_cell(built_site):
    """Two ways a page grows by hundreds of elements or styles that a reader never sees: pymdownx's line
    anchors (anchor_linenums: an invisible <a> per line) and Markdown's per-cell inline text-align."""
    offenders = []
    for page in built_site.path.rglob("*.html"):
        built = page.read_text(encoding="utf-8")
        if 'id="__codelineno-' in built or re.search(r'<t[dh] style="text-align', built):
            offenders.append(str(page.relative_to(built_site.path)))
    assert not offenders, offenders[:10]
