"""The site's figures: drawn at build time from recorded data, on the pages that show their snippets, in
both languages, small, captioned, with alt text, and cached so that a second build draws none."""

from __future__ import annotations

import json
import re

import pytest

from docsys.build import figures
from docsys.checks.site import built_page
from docsys.core import recording
from docsys.core.paths import DOCS_DIR, ROOT, SNIPPETS_DIR

# The pages where a figure teaches, and how many figures each shows.
FIGURE_PAGES = {"mixed-precision": 2, "devices": 1, "profiling": 1, "data-loading": 1, "ddp": 1, "fsdp": 3,
                "tensor-parallel": 3, "model-parallel": 2, "flex-attention": 1, "llm-decoding": 1,
                "memory-saving": 1, "cuda-streams": 1, "multi-node": 1, "fault-tolerance": 1}
FIGURE_RE = re.compile(r'<figure class="figure">(?P<body>.*?)<figcaption>(?P<caption>[^<]+)</figcaption></figure>',
                       re.S)
IMG_RE = re.compile(r'<a class="figure" href="(?P<href>[^"]+)" title="[^"]+"><img loading="lazy" decoding="async" '
                    r'alt="(?P<alt>[^"]+)" src="(?P<src>[^"]+)" width="\d+" height="\d+"></a>')
CJK_RE = re.compile(r"[\u4e00-\u9fff]")


def _figures(built_site, slug: str, lang: str) -> tuple[str, list[re.Match[str]]]:
    page = built_page(built_site.path, DOCS_DIR / lang / f"{slug}.md")
    text = page.read_text(encoding="utf-8")
    return str(page), list(FIGURE_RE.finditer(text))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("slug", FIGURE_PAGES)
def test_built_page_shows_its_figures_captioned_with_alt_text(built_site, slug, lang):
    page, found = _figures(built_site, slug, lang)
    assert len(found) == FIGURE_PAGES[slug], f"{lang}/{slug}: {len(found)} figures"
    for figure in found:
        assert bool(CJK_RE.search(figure["caption"])) == (lang == "zh"), figure["caption"]
        image = IMG_RE.fullmatch(figure["body"])
        if image is None:  # a GPU figure that no GPU has recorded yet
            assert 'class="figure-missing"' in figure["body"], figure["body"]
            continue
        assert image["href"] == image["src"] and re.search(rf"\.{lang}\.[0-9a-f]{{10}}\.svg$", image["src"])
        assert bool(CJK_RE.search(image["alt"])) == (lang == "zh"), f"alt text not in {lang}: {image['alt']}"
        svg = (built_site.path / page).parent.joinpath(image["src"]).resolve()
        assert svg.is_file() and svg.stat().st_size <= figures.MAX_SVG_BYTES, svg
    assert 'src="figure:' not in (built_site.path / page).read_text(encoding="utf-8")


def _drawn(built_site, lang: str) -> int:
    return sum(bool(IMG_RE.fullmatch(f["body"])) for slug in FIGURE_PAGES for f in _figures(built_site, slug, lang)[1])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_least_eight_figures_per_language_are_drawn_from_recorded_data(built_site, lang):
    assert _drawn(built_site, lang) >= 8


def test_every_drawn_figure_is_cached_so_a_second_build_draws_none(built_site):
    for ref, (snippet, var, kind) in figures.declared(SNIPPETS_DIR).items():
        if snippet.platform == "cuda" and recording.state(snippet) != recording.CURRENT:
            continue
        data = json.loads(snippet.figure_path(var).read_text(encoding="utf-8"))
        for lang in ("en", "zh"):
            svg = figures.cache_path(kind, data, lang, ROOT / figures.CACHE_DIR)
            assert svg.exists(), f"{ref} ({lang}) is not in the cache after the build"


def test_no_drawn_figure_is_kept_beside_the_sources():
    kept = [*ROOT.joinpath("docs").rglob("*.svg"), *SNIPPETS_DIR.rglob("*.svg")]
    assert not kept, f"figures are drawn into the built site only: {kept}"
