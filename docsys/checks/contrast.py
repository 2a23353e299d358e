"""The contrast of the colours a reader sees, in the real browser, in either palette: the header
title, a link in the article and a code comment against what is drawn behind them (WCAG).

Helpers for tests/content/test_contrast.py and tests/tooling/test_contrast.py.
"""

from __future__ import annotations

from playwright.sync_api import Browser

# Text colour and the background it is drawn on, as the reader sees them (alpha composited).
_CONTRAST_JS = """
(selectors) => {
  const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, under) => top.map((c, i) => i < 3 ? c * top[3] + under[i] * (1 - top[3]) : 1);
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const found = {};
  for (const [name, selector] of Object.entries(selectors)) {
    const el = document.querySelector(selector);
    if (!el) { found[name] = null; continue; }
    const bg = background(el);
    const fg = over(rgba(getComputedStyle(el).color), bg);
    found[name] = [fg.slice(0, 3), bg.slice(0, 3)];
  }
  return found;
}
"""
CONTRAST_TARGETS = {
    "header": ".md-header__topic .md-ellipsis",
    "link": "article.md-content__inner p a[href]:not(.headerlink)",
    "page link": "article.md-content__inner p.page-links a",  # edit, view, report (docsys/build/page_links.py)
    "code comment": ".md-typeset .highlight .c1, .md-typeset .highlight .c",
}
AA = 4.5  # WCAG 2 AA, normal text


def ratio(foreground: list[float], background: list[float]) -> float:
    """WCAG contrast ratio of two sRGB colours (0-255 channels)."""

    def luminance(rgb: list[float]) -> float:
        linear = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast(browser: Browser, base: str, path: str, scheme: str) -> dict[str, float | None]:
    """Contrast of the header title, a link in the article and a code comment on `path`, with the
    reader's system set to `scheme` ("light" or "dark"; the site's palette follows it)."""
    page = browser.new_page(color_scheme=scheme)
    try:
        page.goto(base + path, wait_until="load")
        found = page.evaluate(_CONTRAST_JS, CONTRAST_TARGETS)
    finally:
        page.close()
    return {name: (round(ratio(*pair), 2) if pair else None) for name, pair in found.items()}
