"""The notebook: one source with both languages, executed honestly, rendered (not raw) per language."""

from __future__ import annotations

import json
import re

import jupytext
import pytest

from docsys.notebooks import NotebookError, execute, language_problems, read, sources
from docsys.paths import DEFAULT_LANG, LANGS

SOURCE = sources()[0]


def test_every_markdown_block_exists_in_both_languages():
    for source in sources():
        assert language_problems(read(source)) == [], source.name


def test_missing_translation_is_reported():
    notebook = read(SOURCE)
    zh_cell = next(i for i, c in enumerate(notebook.cells) if c.metadata.get("lang") == "zh")
    del notebook.cells[zh_cell]
    assert language_problems(notebook) == ["Markdown block 1 has languages ['en'], expected ['en', 'zh']"]


def test_failing_cell_fails_execution():
    notebook = jupytext.reads('# %%\nx = 1\n\n# %%\nraise RuntimeError("planted")\n', fmt="py:percent")
    with pytest.raises(NotebookError, match=r"code cell 2 failed: RuntimeError: planted"):
        execute(notebook, "planted.py")


def is_rendered_notebook(page_html: str) -> bool:
    """True for a page mkdocs-jupyter rendered; False for a notebook emitted as raw JSON."""
    return "jp-Notebook" in page_html and '"cell_type"' not in page_html


def test_raw_notebook_is_detected():
    raw = json.dumps({"cells": [{"cell_type": "markdown", "source": ["# Title"]}]})
    assert not is_rendered_notebook(raw)


@pytest.mark.xdist_group("site")
@pytest.mark.parametrize("lang", LANGS)
def test_notebook_page_is_rendered_with_outputs_and_download(built_site, lang):
    prefix = built_site.path if lang == DEFAULT_LANG else built_site.path / lang
    page_dir = prefix / "notebooks" / SOURCE.stem
    page = (page_dir / "index.html").read_text(encoding="utf-8")
    assert is_rendered_notebook(page), f"{lang}: the notebook page is raw source, not a rendered notebook"
    assert "saved activations (MiB)" in page, f"{lang}: the final table (an executed output) is missing"
    assert "data:image/png;base64" in page, f"{lang}: the plot is missing"
    toc = page[page.index("md-nav--secondary"):]
    assert re.search(r'href="#stage-5-torchcompile"[^>]*>\s*<span class="md-ellipsis">[^<]*torch\.compile', toc), (
        f"{lang}: the table of contents lost the heading's anchor or its code span"
    )
    download = json.loads((page_dir / f"{SOURCE.stem}.ipynb").read_text(encoding="utf-8"))
    first_markdown = "".join(download["cells"][0]["source"])
    assert ("一步步" in first_markdown) == (lang == "zh"), f"{lang}: the download is not this language's notebook"


@pytest.mark.xdist_group("site")
def test_language_switcher_stays_on_the_notebook(built_site):
    links = {
        lang: dict(re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', (base / "index.html").read_text()))
        for lang, base in (
            ("en", built_site.path / "notebooks" / SOURCE.stem),
            ("zh", built_site.path / "zh" / "notebooks" / SOURCE.stem),
        )
    }
    assert {v: k for k, v in links["en"].items()}["zh"].endswith(f"zh/notebooks/{SOURCE.stem}/")
    assert {v: k for k, v in links["zh"].items()}["en"].rstrip("/").endswith(f"notebooks/{SOURCE.stem}")
