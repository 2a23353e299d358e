"""docsys/translations/check.py on the small site's pages, in a throwaway git repository
(tests/tooling/translated_pages.py): a zh page behind its en page fails unless marked pending."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys.translations.check import check_tree, pair
from docsys.translations.update import mark_pending
from tests.tooling.translated_pages import EN_EDIT, SLUG, edit, recorded_docs


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return recorded_docs(tmp_path)


def test_an_en_change_without_a_zh_update_fails_naming_the_pair_and_section(docs):
    edit(docs, "en", EN_EDIT)
    assert check_tree(docs) == [
        "zh/mixed-precision.md is behind en/mixed-precision.md: en changed in #mixed-precision; update the "
        "translation and run `make translation PAGE=mixed-precision`, or mark it `pending: true` under "
        "`translation:` to publish it with a notice"]


def test_a_pending_page_passes_and_a_needless_pending_mark_fails(docs):
    edit(docs, "en", EN_EDIT)
    assert "marked pending" in mark_pending(pair(SLUG, docs))
    assert check_tree(docs) == []
    edit(docs, "en", EN_EDIT[::-1])  # en back to what the translation follows
    assert check_tree(docs) == [
        "zh/mixed-precision.md is marked pending but follows en/mixed-precision.md; "
        "run `make translation PAGE=mixed-precision`"]
