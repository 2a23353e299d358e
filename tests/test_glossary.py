"""The zh pages use the glossary's Chinese terms, and the two glossaries list the same terms."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docsys import glossary
from docsys.paths import DOCS_DIR


def test_zh_pages_use_the_glossary_terms():
    findings = glossary.check_tree()
    assert not findings, "\n".join(map(str, findings))


def test_en_and_zh_glossaries_list_the_same_terms_in_order():
    en = [(e.english, e.term) for e in glossary.en_entries()]
    zh = [(e.english, e.term) for e in glossary.zh_entries()]
    assert [english for english, _ in en] == [english for english, _ in zh]
    assert en == zh, "the 中文 column of the en glossary differs from the 术语 column of the zh glossary"


def test_glossary_has_the_core_terms_and_variants():
    by_english = {e.english: e for e in glossary.zh_entries()}
    assert by_english["autograd"].term == "自动微分"
    assert "自动求导" in by_english["autograd"].variants
    assert by_english["leaf tensor"].term == "叶子节点"


@pytest.fixture
def docs_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "docs"
    shutil.copytree(DOCS_DIR, copy)
    return copy


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
    assert glossary.check_tree(docs_copy) == []
    assert "自动求导" in (docs_copy / "zh" / "glossary.md").read_text(encoding="utf-8")


def test_a_glossary_without_its_table_is_an_error():
    with pytest.raises(ValueError, match="no heading with"):
        glossary.entries("# Glossary { #glossary }\n\nNo table.\n", "术语", "英文")
