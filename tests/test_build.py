"""The whole site builds strictly, and the built pages show the snippets and outputs they include."""

from __future__ import annotations

import html
import re

import pytest

from docsys.pages import expand, includes
from docsys.paths import DEFAULT_LANG, LANGS, page_paths
from docsys.site import built_page

pytestmark = pytest.mark.xdist_group("site")


def _text_of(page_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page_html))


def test_strict_build_passes_without_warnings(built_site):
    assert built_site.returncode == 0, built_site.log
    warnings = [line for line in built_site.log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert not warnings, "\n".join(warnings)


@pytest.mark.parametrize("lang", LANGS)
def test_built_pages_show_every_included_line(built_site, lang):
    missing = []
    for page in page_paths(lang):
        text = _text_of(built_page(built_site.path, page).read_text(encoding="utf-8"))
        for target in includes(page.read_text(encoding="utf-8")):
            for line in expand(f'--8<-- "{target}"').splitlines():
                if line.strip() and line.strip() not in text:
                    missing.append(f"{page.name}: {target}: {line.strip()!r}")
    assert not missing, "\n".join(missing[:20])


def test_language_switcher_links_the_same_page(built_site):
    for page in page_paths(DEFAULT_LANG):
        built = built_page(built_site.path, page).read_text(encoding="utf-8")
        links = dict(re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', built))
        zh = {v: k for k, v in links.items()}.get("zh")
        assert zh is not None, f"{page.name}: no zh link in the language switcher"
        base = built_site.path if zh.startswith("/") else built_page(built_site.path, page).parent
        target = (base / zh.lstrip("/") / "index.html").resolve()
        assert target == built_page(built_site.path, page.parents[1] / "zh" / page.name).resolve()


EXTERNAL_ASSET_RE = re.compile(r'<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="(?:https?:)?//', re.I)


def test_built_pages_load_nothing_from_other_hosts(built_site):
    offenders = []
    for page in built_site.path.rglob("*.html"):
        for tag in EXTERNAL_ASSET_RE.findall(page.read_text(encoding="utf-8")):
            offenders.append(f"{page.relative_to(built_site.path)}: {tag}")
    offenders = [o for o in offenders if 'rel="canonical"' not in o and 'hreflang' not in o]
    assert not offenders, "\n".join(offenders[:10])


def test_site_tests_share_one_worker(request):
    """The tests that share one build are one xdist group (see conftest's loadgroup shim)."""
    if not hasattr(request.config, "workerinput"):
        pytest.skip("runs without pytest-xdist: nothing to group")
    assert request.node.nodeid.endswith("@site"), request.node.nodeid
