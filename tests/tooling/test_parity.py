"""docsys.checks.parity: small page pairs that break parity in each way it checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.checks.parity import check_tree

EN = """# Autograd { #autograd }

::: example autograd/backward.py

## Leaves { #leaves }

::: example autograd/leaf.py

It took {{ ratio: a/bench_x, "a" > "b", "t (ms)" }} as long.
"""
ZH = """# 自动微分 { #autograd }

::: example autograd/backward.py

## 叶子节点 { #leaves }

::: example autograd/leaf.py

耗时是 {{ ratio: a/bench_x, "a" > "b", "t (ms)" }}。
"""


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    for lang, text in (("en", EN), ("zh", ZH)):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "autograd.md").write_text(text, encoding="utf-8")
    assert check_tree(tmp_path) == []
    return tmp_path


def _plant(docs: Path, old: str, new: str, lang: str = "zh") -> str:
    page = docs / lang / "autograd.md"
    page.write_text(page.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return "\n".join(check_tree(docs))


def test_missing_zh_page(docs):
    (docs / "zh" / "autograd.md").unlink()
    assert "zh/autograd.md is missing" in check_tree(docs)[0]


def test_reordered_examples(docs):
    assert "examples (same snippets, same order) differ" in _plant(
        docs, "autograd/backward.py", "autograd/TMP").replace("TMP", "x")


def test_changed_anchor(docs):
    assert "anchors differ" in _plant(docs, "{ #leaves }", "{ #leaves-zh }")


def test_heading_without_anchor(docs):
    assert "has no explicit anchor" in _plant(docs, "## Leaves { #leaves }", "## Leaves", lang="en")


def test_a_claim_stated_differently(docs):
    assert "claims about measured numbers" in _plant(docs, '"a" > "b"', '"b" < "a"')
