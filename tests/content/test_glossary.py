"""The zh pages use the glossary's Chinese terms, and the two glossaries list the same terms."""

from __future__ import annotations

from docsys.checks import glossary


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
