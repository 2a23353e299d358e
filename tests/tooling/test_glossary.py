"""docsys.checks.glossary: a variant of a glossary term in zh prose is reported with the term to use."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.checks import glossary

GLOSSARY_ZH = """# 术语表 { #glossary }

## 术语 { #terms }

| 术语 | 英文 | 避免的译法 |
|---|---|---|
| 自动微分 | autograd | 自动求导 |
| 反向传播 | backward pass | 反向传递 |
| 锁页内存 | pinned memory | 固定内存 |
| 内存 | memory (CPU) | CPU显存 |
| 微批次 | micro-batch | 微批量 |
"""


@pytest.fixture
def docs_copy(tmp_path: Path) -> Path:
    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "glossary.md").write_text(GLOSSARY_ZH, encoding="utf-8")
    (tmp_path / "zh" / "autograd.md").write_text("# 自动微分 { #autograd }\n\n自动微分记录运算。\n", encoding="utf-8")
    assert glossary.check_tree(tmp_path) == []
    return tmp_path




@pytest.mark.parametrize(
    ("planted", "variant", "term"),
    [
        ("自动求导会记录每个运算。", "自动求导", "自动微分"),
        ("调用 backward() 完成反向传递。", "反向传递", "反向传播"),
        ("把数据放进固定内存后再拷贝。", "固定内存", "锁页内存"),
        ("峰值 CPU显存 是 2 GB。", "CPU显存", "内存"),
        ("每个微批量都做一次反向传播。", "微批量", "微批次"),
    ],
)
def test_a_planted_variant_is_reported_with_the_term_to_use(docs_copy, planted, variant, term):
    page = docs_copy / "zh" / "autograd.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n{planted}\n", encoding="utf-8")
    findings = glossary.check_tree(docs_copy)
    assert [(f.page, f.variant, f.term) for f in findings] == [("zh/autograd.md", variant, term)]
    assert f"use '{term}'" in str(findings[0])


def test_code_comments_and_parts_of_terms_are_not_findings():
    text = "\n".join(
        [
            "每个微批次单独做一次反向传播。",
            "代码 `x = 自动求导` 不检查。<!-- 自动求导 -->",
            "```python",
            "# 自动求导",
            "```",
        ]
    )
    entries = [
        glossary.Entry("微批次", "micro-batch", ("微批",)),
        glossary.Entry("自动微分", "autograd", ("自动求导",)),
    ]
    assert glossary.check_text(text, "zh/x.md", entries) == []
    assert len(glossary.check_text("一个微批就够了。", "zh/x.md", entries)) == 1


def test_the_glossary_page_itself_is_not_checked(docs_copy):
    assert "自动求导" in (docs_copy / "zh" / "glossary.md").read_text(encoding="utf-8")
    assert glossary.check_tree(docs_copy) == []


def test_a_glossary_without_its_table_is_an_error():
    with pytest.raises(ValueError, match="no heading with"):
        glossary.entries("# Glossary { #glossary }\n\nNo table.\n", "术语", "英文")
