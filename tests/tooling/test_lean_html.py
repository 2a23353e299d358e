"""docsys/build/lean_html.py: code blocks lose only the spans that change nothing a reader sees."""

from __future__ import annotations

import re
from pathlib import Path

import material

from docsys.build.lean_html import lighter

BLOCK = ('<div class="highlight"><pre><span></span><code><span class="n">x</span><span class="w"> </span>'
         '<span class="o">=</span><span class="w"> </span><span class="nb">len</span><span class="p">(</span>'
         '<span class="n">xs</span><span class="p">)</span>\n</code></pre></div>')


def test_names_whitespace_punctuation_operators_and_the_empty_span_go_and_the_text_stays():
    out = lighter(BLOCK)
    assert out == '<div class="highlight"><pre><code>x = <span class="nb">len</span>(xs)\n</code></pre></div>'
    assert re.sub(r"<[^>]+>", "", out) == re.sub(r"<[^>]+>", "", BLOCK)


def test_a_notebook_cell_keeps_its_punctuation_and_operators_and_nothing_outside_pre_is_touched():
    cell = ('<div class="highlight-ipynb hl-python"><pre><span></span><span class="n">torch</span>'
            '<span class="o">.</span><span class="n">ones</span><span class="p">()</span></pre></div>')
    prose = '<p><span class="n">not code</span><span class="p">(</span><span></span></p>'
    kept = '<pre>torch<span class="o">.</span>ones<span class="p">()</span></pre>'
    assert lighter(prose + cell, notebook=True) == prose + f'<div class="highlight-ipynb hl-python">{kept}</div>'


def _material_css(name: str) -> str:
    return next((Path(material.__file__).parent / "templates/assets/stylesheets").glob(f"{name}.*.min.css")).read_text()


def test_material_colours_a_name_as_the_code_around_it_in_both_palettes():
    """The premise of dropping `.n`: if Material ever colours names, this fails and the hook must go."""
    for css in (_material_css("main"), _material_css("palette")):
        assert re.findall(r"--md-code-hl-name-color:([^;}]+)", css) == ["var(--md-code-fg-color)"]
    assert ".highlight .kc,.highlight .n{color:var(--md-code-hl-name-color)}" in _material_css("main")
    assert not re.search(r"\.w\b", _material_css("main"))
    ours = "".join(p.read_text(encoding="utf-8") for p in Path("docs/assets").glob("*.css"))
    assert "--md-code-hl-name-color" not in ours
    assert not re.search(r"\.[nwop]\b", ours)


def test_the_site_colours_punctuation_and_operators_as_the_code_around_them_in_both_palettes():
    """The premise of dropping `.p` and `.o` on the pages: Material colours them through these two variables,
    which the site's palette sets to the code's colour for both schemes."""
    main = _material_css("main")
    assert ".highlight .o,.highlight .ow{color:var(--md-code-hl-operator-color)}" in main
    assert ".highlight .p{color:var(--md-code-hl-punctuation-color)}" in main
    palette = Path("docs/assets/palette.css").read_text(encoding="utf-8")
    rule = re.search(r'\[data-md-color-scheme="default"\], \[data-md-color-scheme="slate"\] \{([^}]*)\}', palette)
    assert rule, "docs/assets/palette.css: no rule for both schemes"
    for token in ("operator", "punctuation"):
        assert f"--md-code-hl-{token}-color: var(--md-code-fg-color);" in rule[1]
        assert len(re.findall(f"--md-code-hl-{token}-color", palette)) == 1, f"{token}: set again elsewhere"


def test_a_cell_aligned_by_an_inline_style_is_aligned_by_attribute():
    table = '<table><tr><th style="text-align:right">ms</th><td style="text-align: left;">a</td><td>b</td></tr></table>'
    assert lighter(table) == '<table><tr><th align="right">ms</th><td align="left">a</td><td>b</td></tr></table>'
