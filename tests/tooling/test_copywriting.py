"""docsys.checks.copywriting: each planted fault is reported, at the line where it was planted."""

from __future__ import annotations

from pathlib import Path

from docsys.checks.copywriting import lint_config, lint_glossary, lint_pages, lint_text
from docsys.core.paths import MKDOCS_YML


def test_bad_spacing_in_a_zh_page_is_caught(tmp_path: Path):
    pages = tmp_path / "zh"
    pages.mkdir()
    page = pages / "autograd.md"
    lines = ["# 自动微分 { #autograd }\n", "\n", "PyTorch 的自动微分会记录运算。\n", "\n", "正文。\n"]
    lines.insert(5, "\n用torch.compile编译模型后，速度提升了2倍.\n")  # planted: no spaces, half-width full stop
    page.write_text("".join(lines), encoding="utf-8")
    assert lint_text("".join(lines[:5]), "x.md") == []
    planted = [f for f in lint_pages(pages) if f.path == "zh/autograd.md" and f.line == 7]
    assert planted, "the planted sentence was not reported"
    assert planted[0].new == "用 torch.compile 编译模型后，速度提升了 2 倍。"


ADMONITIONS = """\
# 标题 { #t }

!!! note "说明"
    在GPU上运行。

    ??? tip "提示"
        嵌套的CPU块。

正文。
"""


def test_bad_spacing_inside_an_admonition_is_caught():
    findings = lint_text(ADMONITIONS, "x.md")
    assert [(f.line, f.new) for f in findings] == [(4, "在 GPU 上运行。"), (7, "嵌套的 CPU 块。")]


def test_an_exception_covers_only_its_block():
    page = (
        "# 标题 { #t }\n\n<!-- autocorrect-disable -->\n\n在GPU上运行\n\n<!-- autocorrect-enable -->\n\n"
        "在CPU上运行\n"
    )
    assert [(f.line, f.new) for f in lint_text(page, "x.md")] == [(9, "在 CPU 上运行")]


def test_an_exception_that_would_silence_the_rest_of_the_page_is_caught():
    unspaced = (
        "# 标题 { #t }\n\n<!-- autocorrect-disable -->\n在GPU上运行\n<!-- autocorrect-enable -->\n\n"
        "在CPU上运行\n"
    )
    assert [f.line for f in lint_text(unspaced, "x.md")] == [3, 5]
    unclosed = "# 标题 { #t }\n\n<!-- autocorrect-disable -->\n\n在GPU上运行\n"
    assert [(f.line, f.new) for f in lint_text(unclosed, "x.md")] == [(3, "add <!-- autocorrect-enable --> after")]


def test_bad_spacing_in_a_zh_nav_title_is_caught(tmp_path: Path):
    config = tmp_path / "mkdocs.yml"
    text = MKDOCS_YML.read_text(encoding="utf-8")
    assert '"参考"' in text  # a section title: pages are titled by their own headings (checked in docs/zh)
    config.write_text(text.replace('"参考"', '"PyTorch参考"', 1), encoding="utf-8")
    assert any("PyTorch 参考" in f.new for f in lint_config(config))


def test_bad_spacing_in_a_glossary_definition_is_caught(tmp_path: Path):
    data = tmp_path / "glossary.toml"
    data.write_text('[[term]]\nen = "GPU memory"\nzh = "显存"\ndefinition.zh = "GPU自身的内存."\n', encoding="utf-8")
    assert [(f.path, f.line, f.new) for f in lint_glossary(data)] == [("glossary.toml", 4, "GPU 自身的内存。")]
