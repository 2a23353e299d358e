"""The glossary terms search indexes as one word (docsys/build/search/languages.py), and one clear
line when the glossary cannot be read."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from docsys.build.search.languages import glossary_terms


def test_glossary_terms_come_from_the_glossary_data(tmp_path):
    assert "gradient accumulation" in glossary_terms(Path("docs"), "en")
    assert "梯度检查" in glossary_terms(Path("docs"), "zh")
    assert glossary_terms(tmp_path, "en") == ()  # a site without a glossary has no terms
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "glossary.md").write_text("# Glossary\n\n::: glossary\n", encoding="utf-8")
    broken = tmp_path / "glossary.toml"
    broken.write_text('[[term]]\nen = "autograd"\n', encoding="utf-8")
    with pytest.raises(PluginError, match=r"^search: the en glossary cannot be read: .*missing") as error:
        glossary_terms(tmp_path, "en", broken)
    assert "\n" not in str(error.value)
