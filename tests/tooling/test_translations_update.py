"""docsys/translations/update.py on the small site's pages, in a throwaway git repository
(tests/tooling/translated_pages.py): `update` cannot be run blind."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.translations.check import TranslationError, check_tree, pair
from docsys.translations.update import update
from tests.tooling.translated_pages import EN_EDIT, SLUG, ZH_EDIT, edit, recorded_docs


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return recorded_docs(tmp_path)


def test_update_refuses_when_zh_was_not_touched_and_writes_nothing(docs):
    edit(docs, "en", EN_EDIT)
    before = (docs / "zh" / f"{SLUG}.md").read_text(encoding="utf-8")
    shown: list[str] = []
    with pytest.raises(TranslationError) as refused:
        update(pair(SLUG, docs), {}, out=shown.append)
    assert "#mixed-precision: zh unchanged since it was recorded" in str(refused.value)
    assert (docs / "zh" / f"{SLUG}.md").read_text(encoding="utf-8") == before
    diff = "\n".join(shown)  # the en diff of the section, against the committed version the record names
    assert "-Mixed precision runs some operations" in diff and "+Mixed precision runs most operations" in diff


def test_update_accepts_an_edited_zh_section(docs):
    edit(docs, "en", EN_EDIT)
    edit(docs, "zh", ZH_EDIT)
    lines = update(pair(SLUG, docs), {}, out=lambda _: None)
    assert lines == ["zh/mixed-precision.md: follows en/mixed-precision.md now",
                     "  #mixed-precision: zh section edited"]
    assert check_tree(docs) == []


def test_update_accepts_an_explicit_reason_and_only_for_a_changed_section(docs):
    edit(docs, "en", EN_EDIT)
    with pytest.raises(TranslationError, match="#autocast, which did not change in en"):
        update(pair(SLUG, docs), {"autocast": "typo"}, out=lambda _: None)
    lines = update(pair(SLUG, docs), {"mixed-precision": "zh already says 大部分"}, out=lambda _: None)
    assert lines[1] == "  #mixed-precision: unchanged: zh already says 大部分"
    assert check_tree(docs) == []


def test_on_a_terminal_the_reason_is_asked_for_and_an_empty_answer_refuses(docs):
    edit(docs, "en", EN_EDIT)
    with pytest.raises(TranslationError):
        update(pair(SLUG, docs), {}, ask=lambda prompt: "  ", out=lambda _: None)
    asked: list[str] = []
    update(pair(SLUG, docs), {}, ask=lambda prompt: asked.append(prompt) or "wording only", out=lambda _: None)
    assert asked == ["#mixed-precision: why does zh need no change? "]


def test_a_section_added_to_en_needs_its_zh_section_and_one_removed_from_both_is_accepted(docs):
    en, zh = docs / "en" / f"{SLUG}.md", docs / "zh" / f"{SLUG}.md"
    en.write_text(en.read_text(encoding="utf-8") + "\n## Scaling { #scaling }\n\nGradScaler.\n", encoding="utf-8")
    with pytest.raises(TranslationError, match="#scaling: zh has no such section yet"):
        update(pair(SLUG, docs), {}, out=lambda _: None)
    zh.write_text(zh.read_text(encoding="utf-8") + "\n## 缩放 { #scaling }\n\nGradScaler。\n", encoding="utf-8")
    assert update(pair(SLUG, docs), {}, out=lambda _: None)[1] == "  #scaling: zh section edited"
    for page, heading in ((en, "## Scaling { #scaling }"), (zh, "## 缩放 { #scaling }")):
        text = page.read_text(encoding="utf-8")
        page.write_text(text[: text.index(heading)], encoding="utf-8")
    assert update(pair(SLUG, docs), {}, out=lambda _: None)[1] == "  #scaling: removed from both"
    assert check_tree(docs) == []
