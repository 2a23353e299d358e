"""docsys.checks.glossary on a small fixture (tests/fixtures/glossary): each planted fault is reported."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docsys.checks import glossary
from docsys.core.glossary import Term, parse

FIXTURE = Path(__file__).parents[1] / "fixtures" / "glossary"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    copy = tmp_path / "glossary"
    shutil.copytree(FIXTURE, copy)
    return copy


def _terms(site: Path) -> tuple[Term, ...]:
    return tuple(parse((site / "glossary.toml").read_text(encoding="utf-8")))


def _findings(site: Path) -> list[glossary.Finding]:
    return glossary.check_tree(site / "docs", site / "notebooks", _terms(site))


def _append(page: Path, text: str) -> None:
    page.write_text(page.read_text(encoding="utf-8") + f"\n{text}\n", encoding="utf-8")


def test_the_clean_fixture_has_no_findings(site):
    assert _findings(site) == []
    assert glossary.unexplained_terms(site / "docs", _terms(site)) == []


@pytest.mark.parametrize(
    ("lang", "planted", "variant", "term"),
    [
        ("zh", "自动求导会记录每个运算。", "自动求导", "自动微分"),
        ("zh", "把数据放进固定内存后再拷贝。", "固定内存", "锁页内存"),
        ("zh", "峰值 GPU内存 是 2 GB。", "GPU内存", "显存"),
        ("zh", "每个微批都做一次反向传播。", "微批", "微批次"),
        ("en", "Copy from page-locked memory.", "page-locked memory", "pinned memory"),
    ],
)
def test_a_planted_variant_is_reported_with_the_term_to_use(site, lang, planted, variant, term):
    _append(site / "docs" / lang / "autograd.md", planted)
    findings = _findings(site)
    assert [(f.page, f.variant, f.term) for f in findings] == [(f"{lang}/autograd.md", variant, term)]
    assert f"use '{term}'" in str(findings[0]) and str(findings[0]).startswith(f"{lang}/autograd.md:9: ")


def test_a_variant_in_a_notebook_cell_of_its_language_is_reported_with_its_line(site):
    source = site / "notebooks" / "demo.py"
    source.write_text(source.read_text(encoding="utf-8").replace("自动微分在工作", "自动求导在工作"), encoding="utf-8")
    assert [str(f) for f in _findings(site)] == [
        "demo.py (zh):9: '自动求导' is not the site's term; use '自动微分' (autograd), as in the glossary"
    ]


def test_code_comments_and_parts_of_terms_are_not_findings():
    text = "\n".join(["每个微批次单独做一次反向传播。", "代码 `x = 自动求导` 不检查。<!-- 自动求导 -->",
                      "```python", "# 自动求导", "```"])
    terms = tuple(parse((FIXTURE / "glossary.toml").read_text(encoding="utf-8")))
    assert glossary.check_text(text, "zh/x.md", terms) == []
    assert len(glossary.check_text("一个微批就够了。", "zh/x.md", terms)) == 1


def test_the_glossary_pages_themselves_are_not_checked(site):
    _append(site / "docs" / "zh" / "glossary.md", "自动求导是常见的另一种译法。")
    assert _findings(site) == []


def test_latin_words_need_their_space_cjk_boundaries_do_not():
    assert glossary._pattern("GPU 内存").search("峰值GPU内存")
    assert not glossary._pattern("data parallel").search("nn.DataParallel")
    assert glossary._pattern("data parallel").search("Data  parallel training")


@pytest.mark.parametrize(
    ("lang", "old", "new", "problem"),
    [
        ("en", "A leaf tensor keeps", "A leaf keeps", "en/autograd.md#leaf-tensors never says 'leaf tensor'"),
        ("zh", "叶子节点会保留", "叶子会保留", "zh/autograd.md#leaf-tensors never says '叶子节点'"),
        ("zh", "{ #leaf-tensors }", "{ #leaves }", "zh/autograd.md#leaf-tensors does not exist"),
    ],
)
def test_a_term_its_section_never_uses_is_reported(site, lang, old, new, problem):
    page = site / "docs" / lang / "autograd.md"
    page.write_text(page.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    problems = glossary.unexplained_terms(site / "docs", _terms(site))
    assert len(problems) >= 1 and all(p.startswith("glossary term '") for p in problems)
    assert problem in problems[0], problems
