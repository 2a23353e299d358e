"""docsys.core.glossary: the data file's shape, and one clear line for each kind of mistake in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.core.glossary import GLOSSARY_FILE, GlossaryError, load, parse

FIXTURE = Path(__file__).parents[1] / "fixtures" / "glossary" / "glossary.toml"
GOOD = """
[[term]]
en = "autograd"
zh = "自动微分"
see = "autograd.md#autograd"
zh_avoid = ["自动求导"]
definition.en = "Records operations."
definition.zh = "记录运算。"
"""


def test_a_term_has_both_words_a_section_definitions_and_variants():
    (term,) = parse(GOOD)
    assert (term.en, term.zh, term.page, term.anchor) == ("autograd", "自动微分", "autograd.md", "autograd")
    assert term.word("zh") == "自动微分" and term.word("en") == "autograd"
    assert term.avoid == {"en": (), "zh": ("自动求导",)}
    assert term.definition == {"en": "Records operations.", "zh": "记录运算。"}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('definition.zh = "记录运算。"\n', "", "glossary term 'autograd': missing definition.zh"),
        ('see = "autograd.md#autograd"', 'see = "autograd.md"', "is not 'page.md#anchor'"),
        ('zh_avoid = ["自动求导"]', 'zh_avoids = ["自动求导"]', "unknown key(s) ['zh_avoids']"),
        ('en = "autograd"', 'en = "autograd', "not valid TOML"),
    ],
)
def test_a_malformed_term_is_one_line_naming_it(old, new, message):
    with pytest.raises(GlossaryError) as error:
        parse(GOOD.replace(old, new))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_term_listed_twice_is_refused():
    with pytest.raises(GlossaryError, match="listed twice"):
        parse(GOOD + GOOD)


def test_the_site_glossary_and_the_fixture_load():
    assert len(load(GLOSSARY_FILE)) > 40
    assert [t.en for t in load(FIXTURE)][:2] == ["autograd", "leaf tensor"]
