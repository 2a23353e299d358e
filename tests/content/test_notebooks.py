"""The notebook: one source with both languages, executed honestly, rendered (not raw) per language."""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from docsys import notebook
from docsys.core.normalize import diff, normalize
from docsys.core.paths import DEFAULT_LANG, LANGS, NOTEBOOKS_DIR
from docsys.core.snippet import source_sha256

SOURCES = sorted(p for p in NOTEBOOKS_DIR.glob("*.py"))
SOURCE = SOURCES[0]


def test_every_markdown_block_exists_in_both_languages():
    for source in SOURCES:
        assert notebook.language_problems(notebook.read(source)) == [], source.name


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_the_notebook_runs_and_prints_what_its_recording_holds(source):
    """Executed again, it prints what its `.out` holds (docsys.core.normalize: timings and table cells
    masked); the `.out` is the compared form of the executed notebook the page shows; and the
    recording is of the current source."""
    record = json.loads(notebook.record_path(source).read_text(encoding="utf-8"))
    assert record["source_sha256"] == source_sha256(source), (
        f"{source.name} changed since it was recorded: run `make record SNIPPETS=notebooks/{source.name}`")
    compared = notebook.compared_path(source).read_text(encoding="utf-8")
    shown = notebook.text_outputs(nbformat.read(notebook.output_path(source), as_version=4))
    assert notebook.compared_text(shown) == compared, (
        f"{notebook.compared_path(source).name} is not what {notebook.output_path(source).name} printed: "
        f"run `make record SNIPPETS=notebooks/{source.name}`")
    now = notebook.text_outputs(notebook.execute(notebook.read(source), source.name))
    problems = [diff(a, b, f"code cell {i}") for i, (a, b)
                in enumerate(zip(notebook.compared_cells(compared), now, strict=True), 1) if a != normalize(b)]
    assert not problems, "\n".join(problems)


def is_rendered_notebook(page_html: str) -> bool:
    """True for a page mkdocs-jupyter rendered; False for a notebook emitted as raw JSON."""
    return "jp-Notebook" in page_html and '"cell_type"' not in page_html


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_page_is_rendered_with_outputs_and_download(built_site, lang):
    prefix = built_site.path if lang == DEFAULT_LANG else built_site.path / lang
    page_dir = prefix / "notebooks" / SOURCE.stem
    page = (page_dir / "index.html").read_text(encoding="utf-8")
    assert is_rendered_notebook(page), f"{lang}: the notebook page is raw source, not a rendered notebook"
    assert "saved activations (MiB)" in page, f"{lang}: the final table (an executed output) is missing"
    assert "<svg" in page, f"{lang}: the plot is missing"
    toc = page[page.index("md-nav--secondary"):]
    assert re.search(r'href="#stage-7-torchcompile"[^>]*>\s*<span class="md-ellipsis">[^<]*torch\.compile', toc), (
        f"{lang}: the table of contents lost the heading's anchor or its code span"
    )
    download = json.loads((page_dir / f"{SOURCE.stem}.ipynb").read_text(encoding="utf-8"))
    first_markdown = "".join(download["cells"][0]["source"])
    assert ("一步步" in first_markdown) == (lang == "zh"), f"{lang}: the download is not this language's notebook"
