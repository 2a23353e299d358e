"""The pages use the glossary's terms (docsys/core/glossary.toml), each term is used where the glossary
says it is explained, and the built glossary pages list every term in both languages."""

from __future__ import annotations

import re

from docsys.checks import glossary
from docsys.core.glossary import load


def test_pages_and_notebook_cells_use_the_glossary_terms():
    findings = glossary.check_tree()
    assert not findings, "\n".join(map(str, findings))


def test_every_term_is_used_in_the_section_that_explains_it_in_both_languages():
    problems = glossary.unexplained_terms()
    assert not problems, "\n".join(problems)


def test_the_glossary_has_the_terms_readers_asked_for():
    by_english = {t.en: t for t in load()}
    for english, chinese in [("autograd", "自动微分"), ("leaf tensor", "叶子节点"), ("guard", "守卫"),
                             ("fusion", "融合"), ("bubble", "气泡"), ("worker", "worker 进程"),
                             ("GPU memory", "显存"), ("inference tensor", "推理张量")]:
        assert by_english[english].zh == chinese
    assert "自动求导" in by_english["autograd"].avoid["zh"]


def test_both_built_glossary_pages_list_every_term(built_site):
    terms = load()
    for prefix, lang in ((built_site.path, "en"), (built_site.path / "zh", "zh")):
        page = (prefix / "glossary" / "index.html").read_text(encoding="utf-8")
        strong = re.findall(r"<td><strong>(.*?)</strong></td>", page)
        assert strong == [t.word(lang) for t in terms], lang
