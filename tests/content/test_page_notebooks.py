"""Every page as a notebook, every example as a file (docsys.build.page_notebooks), in the built site.

A page's notebook is valid nbformat, its code cells are exactly the code the page shows (its whole
examples in order, and the blocks typed into it that the tests run), each with the output recorded
for it; four of them run top to bottom in a Jupyter kernel and print what their pages show.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import nbformat
import pytest
import torch
from pytest_codeblocks.main import extract_from_buffer

from docsys.checks.pages import examples, expand
from docsys.core import recording
from docsys.core.normalize import diff, normalize
from docsys.core.paths import DEFAULT_LANG, DOCS_DIR, LANGS, SNIPPETS_DIR
from docsys.core.snippet import load
from docsys.core.text import PROFILER_LOG_RE, RUNNABLE_FENCES, SECTION_MARKER_RE
from docsys.notebook import pages as page_notebooks

RUN_IN_A_KERNEL = ("autograd", "no-grad-inference", "saving-loading", "ddp")  # the four; ddp is launched


def slugs() -> list[str]:
    return sorted(p.stem for p in (DOCS_DIR / DEFAULT_LANG).glob("*.md"))


def page_dir(site: Path, lang: str, slug: str) -> Path:
    root = site if lang == DEFAULT_LANG else site / lang
    return root if slug == "index" else root / slug


def notebook_of(site: Path, lang: str, slug: str) -> nbformat.NotebookNode:
    path = page_dir(site, lang, slug) / f"{slug}.ipynb"
    assert path.is_file(), f"{lang}/{slug}: no {path.name} in the built site (docsys/build/page_notebooks.py)"
    return nbformat.read(path, as_version=4)


def whole_examples(slug: str) -> list[str]:
    """The snippets the page shows whole, in page order."""
    text = (DOCS_DIR / DEFAULT_LANG / f"{slug}.md").read_text(encoding="utf-8")
    return [target for target in examples(text) if ":" not in target]


def typed_blocks(lang: str, slug: str) -> list[str]:
    """The blocks typed into the page that pytest-codeblocks runs (not marked skip), in order."""
    text = (DOCS_DIR / lang / f"{slug}.md").read_text(encoding="utf-8")
    blocks = extract_from_buffer(io.StringIO(expand(text) + "\n"))
    return [b.code for b in blocks if b.syntax in RUNNABLE_FENCES and not any("skip" in mark for mark in b.marks)]


def shown_code(rel: str) -> str:
    """The code of a whole example as the page shows it (pymdownx.snippets drops section markers)."""
    snippet = load(SNIPPETS_DIR / rel)
    lines = snippet.path.read_text(encoding="utf-8").split("\n")[snippet.header_lines :]
    return "\n".join(line for line in lines if not SECTION_MARKER_RE.match(line)).rstrip("\n")


def code_of(cell: nbformat.NotebookNode) -> str:
    """A code cell's code as the page shows it: without `%%writefile`/`%%bash` or the GPU note line."""
    lines = cell.source.split("\n")
    if lines[0].startswith(("%%writefile ", "%%bash")) or "needs-cuda" in cell.metadata.get("tags", []):
        lines = lines[1:]
    return "\n".join(lines)


def printed(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_with_code_has_a_valid_notebook_linked_under_its_title(built_site, lang):
    missing, invalid = [], []
    for slug in slugs():
        path = page_dir(built_site.path, lang, slug) / f"{slug}.ipynb"
        if not (whole_examples(slug) or typed_blocks(lang, slug)):
            assert not path.exists(), f"{lang}/{slug}: a notebook for a page without code"
            continue
        if not path.is_file():
            missing.append(slug)
            continue
        try:
            nbformat.validate(nbformat.read(path, as_version=4))
        except nbformat.ValidationError as error:
            invalid.append(f"{slug}: {error.message}")
        page = (path.parent / "index.html").read_text(encoding="utf-8")
        assert f'<p class="page-downloads"><a href="{slug}.ipynb" download>' in page, f"{lang}/{slug}: no link"
    assert not missing, f"{lang}: pages without their notebook: {missing}"
    assert not invalid, f"{lang}: notebooks nbformat rejects: {invalid}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_notebooks_code_cells_are_the_pages_code_with_its_recorded_outputs(built_site, lang):
    problems = []
    for slug in slugs():
        if not whole_examples(slug):
            continue
        notebook = notebook_of(built_site.path, lang, slug)
        about = [c.metadata.get("pytorch_proven", {}) for c in notebook.cells if c.cell_type == "code"]
        cells = [c for c in notebook.cells if c.cell_type == "code"]
        code_cells = [c for c, a in zip(cells, about, strict=True) if a.get("part") in ("code", "file")]
        names = [c.metadata["pytorch_proven"]["example"] for c in code_cells]
        if names != whole_examples(slug):
            problems.append(f"{slug}: example cells {names}, the page shows {whole_examples(slug)}")
            continue
        problems += [f"{slug}: {rel}: the cell's code is not the page's"
                     for rel, cell in zip(names, code_cells, strict=True) if code_of(cell) != shown_code(rel)]
        typed = [code_of(c) for c, a in zip(cells, about, strict=True) if "typed" in a]
        if typed != [code.rstrip("\n") for code in typed_blocks(lang, slug)]:
            problems.append(f"{slug}: typed cells differ from the page's runnable blocks")
        problems += _output_problems(slug, cells, about)
    assert not problems, f"{lang}:\n" + "\n".join(problems)


def _output_problems(slug: str, cells: list, about: list[dict]) -> list[str]:
    """Each example's output cell holds its recording (the page's output block: what the run printed)."""
    problems = []
    for cell, a in zip(cells, about, strict=True):
        if a.get("part") not in ("code", "launch") or (a["part"] == "code" and _launched(a["example"])):
            continue
        rec = recording.read(load(SNIPPETS_DIR / a["example"]))
        if rec is None:
            if cell.outputs:
                problems.append(f"{slug}: {a['example']}: an output with no recording")
            continue
        if normalize(printed(cell)) != normalize(_page_shown(rec.printed)):
            problems.append(f"{slug}: {a['example']}: the cell's output is not its recording\n"
                            + diff(normalize(rec.printed), printed(cell), a["example"]))
    return problems


def _launched(rel: str) -> bool:
    return load(SNIPPETS_DIR / rel).torchrun


def _page_shown(text: str) -> str:
    """The recording as an output block shows it: kineto's profiler_start/stop lines left out."""
    return "\n".join(line for line in text.split("\n") if not PROFILER_LOG_RE.match(line))


@pytest.mark.parametrize("lang", LANGS)
def test_each_whole_example_is_a_download_beside_its_code(built_site, lang):
    for slug in slugs():
        page = page_dir(built_site.path, lang, slug) / "index.html"
        if not whole_examples(slug):
            continue
        html = page.read_text(encoding="utf-8")
        for rel in whole_examples(slug):
            link = rf'<span class="filename"><a href="(?P<href>[^"]+)" download[^>]*>{re.escape(rel)}</a>'
            href = re.search(link, html)
            assert href, f"{lang}/{slug}: {rel}'s code block title is not a download"
            file = (page.parent / href["href"]).resolve()
            assert file.read_text(encoding="utf-8").rstrip("\n") == shown_code(rel), f"{lang}/{slug}: {href['href']}"


@pytest.mark.slow
@pytest.mark.parametrize("slug", RUN_IN_A_KERNEL)
def test_the_notebook_runs_top_to_bottom_and_prints_what_its_page_shows(built_site, slug):
    """In a fresh kernel, in an empty folder; GPU cells only where a CUDA GPU is (each says so in its first line)."""
    notebook = notebook_of(built_site.path, "zh" if slug == "ddp" else DEFAULT_LANG, slug)
    has_cuda = torch.cuda.is_available()
    shown = page_notebooks.stored(notebook, has_cuda)
    now = page_notebooks.execute(notebook, f"{slug}.ipynb", has_cuda)
    problems = [diff(a, b["stdout"] + b["stderr"], f"{slug}.ipynb code cell {i} (stdout, then stderr)")
                for i, (a, b) in enumerate(zip(shown, now, strict=True), 1) if not page_notebooks.interleaves(a, b)]
    assert not problems, "\n".join(problems)
