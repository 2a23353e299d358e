"""Colour contrast as a reader sees it (real browser, both palettes): the header title, a link in
the article and a code comment reach WCAG AA (4.5:1) on the pages of both languages."""

from __future__ import annotations

import pytest

from docsys.checks import contrast


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["/mixed-precision/", "/zh/mixed-precision/"])
def test_header_links_and_code_comments_reach_aa(browser, gzip_site, path, scheme):
    ratios = contrast.contrast(browser, gzip_site, path, scheme)
    print(f"{path} {scheme}: {ratios}")
    assert None not in ratios.values(), f"{path} lacks one of {list(contrast.CONTRAST_TARGETS)}: {ratios}"
    low = {name: r for name, r in ratios.items() if r < contrast.AA}
    assert not low, f"{path} ({scheme}): below {contrast.AA}:1: {low}"
