"""docsys.build.glossary: `::: glossary` renders the data file as each language's table."""

from __future__ import annotations

from pathlib import Path

import markdown

from docsys.build.glossary import table
from docsys.core.glossary import load

FIXTURE = Path(__file__).parents[1] / "fixtures" / "glossary"
TERMS = load(FIXTURE / "glossary.toml")


def test_the_zh_table_names_each_section_by_its_zh_headings_and_lists_the_variants():
    rows = table(TERMS, "zh", FIXTURE / "docs" / "zh")
    assert rows[0] == "| 术语 | 英文 | 释义 | 详见 | 避免的译法 |"
    assert rows[2] == ("| **自动微分** | autograd | 记录运算并计算梯度的机制。 | [自动微分](autograd.md#autograd) "
                       "| 自动求导 |")
    assert "[自动微分 › 叶子](autograd.md#leaf-tensors)" in rows[3]
    assert len(rows) == 2 + len(TERMS)


def test_the_en_table_has_an_avoid_column_only_when_some_term_has_en_variants():
    rows = table(TERMS, "en", FIXTURE / "docs" / "en")
    assert rows[0] == "| Term | 中文 | Definition | Explained in | Not used |"
    assert "[Autograd › Leaves](autograd.md#leaf-tensors)" in rows[3]
    without = table(tuple(t for t in TERMS if not t.avoid["en"]), "en", FIXTURE / "docs" / "en")
    assert without[0] == "| Term | 中文 | Definition | Explained in |"


def test_a_missing_section_is_a_warning(caplog):
    rows = table(TERMS, "zh", FIXTURE / "docs" / "en")  # the en pages have no zh headings, but the same anchors
    assert not caplog.records and "Autograd" in rows[2]
    table(TERMS[:1], "zh", FIXTURE)  # no pages there
    assert "names no section of zh/autograd.md" in caplog.records[0].getMessage()


def test_the_directive_becomes_the_site_glossary_table():
    html = markdown.Markdown(extensions=["tables", "docsys.build.glossary"]).convert("::: glossary\n")
    assert html.count("<tr>") == 1 + len(load())
    assert "<strong>autograd</strong>" in html


def test_each_language_separates_the_avoided_renderings_in_its_own_way():
    import dataclasses

    avoid = {"en": ("loss scaling", "loss scaler"), "zh": ("自动求导", "自动求微分")}
    term = dataclasses.replace(TERMS[0], avoid=avoid)
    assert table((term,), "en", None)[2].endswith("| loss scaling, loss scaler |")
    assert table((term,), "zh", None)[2].endswith("| 自动求导、自动求微分 |")
