"""The real site builds strictly, and what a reader gets is complete and self-contained."""

from __future__ import annotations

import re

from docsys.checks.site import built_page, warnings_of
from docsys.core.paths import DEFAULT_LANG, page_paths

EXTERNAL_ASSET_RE = re.compile(r'<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)


def test_strict_build_passes_without_warnings(built_site):
    assert built_site.returncode == 0, built_site.log
    assert not warnings_of(built_site), "\n".join(warnings_of(built_site))


def test_language_switcher_links_the_same_page(built_site):
    for page in page_paths(DEFAULT_LANG):
        built = built_page(built_site.path, page).read_text(encoding="utf-8")
        links = dict(re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', built))
        zh = {v: k for k, v in links.items()}.get("zh")
        assert zh is not None, f"{page.name}: no zh link in the language switcher"
        base = built_site.path if zh.startswith("/") else built_page(built_site.path, page).parent
        target = (base / zh.lstrip("/") / "index.html").resolve()
        assert target == built_page(built_site.path, page.parents[1] / "zh" / page.name).resolve()


def test_built_pages_load_nothing_from_other_hosts(built_site):
    offenders = []
    for page in built_site.path.rglob("*.html"):
        for tag in EXTERNAL_ASSET_RE.findall(page.read_text(encoding="utf-8")):
            offenders.append(f"{page.relative_to(built_site.path)}: {tag}")
    offenders = [o for o in offenders if 'rel="canonical"' not in o and "hreflang" not in o]
    assert not offenders, "\n".join(offenders[:10])


def test_every_page_with_examples_and_the_notebook_carry_a_verified_with_stamp(built_site):
    from docsys.checks.pages import examples
    from docsys.core.paths import LANGS

    missing = []
    for lang in LANGS:
        for page in page_paths(lang):
            if examples(page.read_text(encoding="utf-8")):
                built = built_page(built_site.path, page).read_text(encoding="utf-8")
                missing += [] if 'class="verified-with"' in built else [f"{lang}/{page.name}"]
    notebook = built_site.path / "notebooks" / "speed-up-training" / "index.html"
    missing += [] if 'class="verified-with"' in notebook.read_text(encoding="utf-8") else ["notebook"]
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
