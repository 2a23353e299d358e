"""docsys.checks.parity: a small page pair (tests/fixtures/parity) in parity, and each way it can break.

What a translation may change is checked too: link texts, alt texts, admonition titles, code
comments, block titles and the order of links inside one section."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docsys.checks.parity import admonitions, check_tree, code_blocks, figures, links

FIXTURE = Path(__file__).parents[1] / "fixtures" / "parity"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    copy = tmp_path / "docs"
    shutil.copytree(FIXTURE, copy)
    assert check_tree(copy) == []
    return copy


def _plant(docs: Path, old: str, new: str, lang: str = "zh") -> str:
    page = docs / lang / "autograd.md"
    text = page.read_text(encoding="utf-8")
    assert old in text, old
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    return "\n".join(check_tree(docs))


def test_the_fixture_has_each_kind_of_structure():
    text = (FIXTURE / "en" / "autograd.md").read_text(encoding="utf-8")
    assert sorted(links(text)["autograd"]) == ["#leaves", "glossary.md#terms",
                                               "https://pytorch.org/docs/stable/autograd.html"]
    assert sorted(links(text)["leaves"]) == ["devices.md", "https://pytorch.org/docs/stable/notes/autograd.html"]
    assert figures(text) == ["graph:autograd/leaf.py#dot", "figure.svg"]
    assert admonitions(text) == ["!!! warning", "??? note"]
    assert [block[:2] for block in code_blocks(text)] == [("python", 3), ("text", 1)]


def test_missing_zh_page(docs):
    (docs / "zh" / "autograd.md").unlink()
    assert "zh/autograd.md is missing" in check_tree(docs)[0]


def test_reordered_examples(docs):
    found = _plant(docs, "::: example autograd/backward.py", "::: example autograd/leaf.py")
    assert "examples (same snippets, same order) differ" in found


def test_changed_anchor(docs):
    assert "anchors differ" in _plant(docs, "{ #leaves }", "{ #leaves-zh }")


def test_heading_without_anchor(docs):
    assert "has no explicit anchor" in _plant(docs, "## Leaves { #leaves }", "## Leaves", lang="en")


def test_a_claim_stated_differently(docs):
    assert "claims about measured numbers" in _plant(docs, '"a" > "b"', '"b" < "a"')


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("、[官方文档](https://pytorch.org/docs/stable/autograd.html)", "、官方文档",
         "links in #autograd differ from en: only in en ['https://pytorch.org/docs/stable/autograd.html'], "
         "only here []"),
        ("(https://pytorch.org/docs/stable/autograd.html)", "(https://pytorch.org/docs/2.5/autograd.html)",
         "only here ['https://pytorch.org/docs/2.5/autograd.html']"),
        ("[glossary]: glossary.md#terms", "[glossary]: glossary.md", "only in en ['glossary.md#terms']"),
        ('<a href="devices.md">', '<a href="mixed-precision.md">', "links in #leaves differ"),
        ("<https://pytorch.org/docs/stable/notes/autograd.html>", "https://pytorch.org/docs/stable/notes/autograd.html",
         "only in en ['https://pytorch.org/docs/stable/notes/autograd.html']"),
    ],
)
def test_a_link_dropped_or_changed_in_the_translation(docs, old, new, expected):
    assert expected in _plant(docs, old, new)


def test_a_link_moved_to_another_section(docs):
    found = _plant(docs, "与[叶子节点](#leaves)。", "。")
    found += _plant(docs, "原地修改叶子节点会报错。", "原地修改[叶子节点](#leaves)会报错。")
    assert "links in #autograd differ from en: only in en ['#leaves']" in found
    assert "links in #leaves differ from en: only in en [], only here ['#leaves']" in found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("x = torch.ones(2, requires_grad=True)", "x = torch.ones(3, requires_grad=True)",
         "code block 1 ('python') differs from en in its code"),
        ("import torch  # 唯一的导入\n", "import torch\n# 唯一的导入\n", "code block 1 ('python') differs"),
        ("```text", "```console", "code block 2 is fenced as 'console', en as 'text'"),
        ("tensor([1., 1.], requires_grad=True)", "tensor([1., 1.])", "code block 2 ('text') differs"),
        ("```text\ntensor([1., 1.], requires_grad=True)\n```\n", "", "1 code blocks, en has 2"),
    ],
)
def test_a_code_block_changed_in_the_translation(docs, old, new, expected):
    assert expected in _plant(docs, old, new)


def test_comments_and_titles_of_code_may_be_translated(docs):
    assert _plant(docs, "```text", '```text title="输出"') == ""
    assert _plant(docs, "```text", '```text title="Output"', lang="en") == ""


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("![叶子节点及其损失的计算图](graph:autograd/leaf.py#dot)", "", "figures and graphs (same images, same order)"),
        ("graph:autograd/leaf.py#dot", "graph:autograd/leaf.py#saved", "figures and graphs"),
        ("![一张图](figure.svg)", '<img src="other.svg" alt="一张图">', "figures and graphs"),
        ('!!! warning "原地操作"', '!!! note "原地操作"', "admonitions (same kinds, same order) differ"),
        ('??? note "原因"', '???+ note "原因"', "admonitions"),
    ],
)
def test_a_figure_or_admonition_changed_in_the_translation(docs, old, new, expected):
    assert expected in _plant(docs, old, new)


def test_a_link_or_image_whose_text_runs_over_two_lines_is_still_seen():
    en = "# T { #t }\n\nSee [the first\nsection](#t) and ![a long\nalt text](x.svg).\n"
    assert dict(links(en)["t"]) == {"#t": 1} and figures(en) == ["x.svg"]


def test_an_image_whose_title_holds_the_other_quote_is_still_seen():
    en = '![Bits](figure:mp/f.py#formats "float32\'s exponent") ![Ranges](r.svg \'a "quoted" word\')\n'
    assert figures(en) == ["figure:mp/f.py#formats", "r.svg"]
