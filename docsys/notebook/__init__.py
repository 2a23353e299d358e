"""Notebooks: one jupytext source for both languages, executed once as a recording.

Source: `notebooks/<name>.py` (jupytext percent format). Markdown cells carry `lang="en"` or
`lang="zh"`; code cells are shared, so there is one copy of the code. Recording it
(`python -m docsys record notebooks/<name>.py`, on a quiet machine: it measures) executes the
code cells in a fresh kernel and writes, beside the source:

    <name>.out.ipynb      the executed code cells, with their outputs (what the page shows)
    <name>.out            what each code cell printed, in the compared form of every `.out`
                          (docsys.core.normalize): the same on every machine
    <name>.record.json    provenance, in the format of every recording (docsys.core.recording)

The site build only reads them (docsys.build.notebook); the tests execute the notebook again and
compare its text outputs, normalized, with `<name>.out`.

Needs jupytext, nbformat and nbclient (the site's environment), so the GPU path never imports it.
"""

from __future__ import annotations

import copy
import functools
import os
import tempfile
from pathlib import Path

import jupytext
import nbformat

from docsys.core.normalize import normalize, portable
from docsys.core.paths import LANGS

EXECUTION_TIMEOUT_S = 600
TEXT_TYPES = ("text/markdown", "text/plain")


class NotebookError(RuntimeError):
    pass


def output_path(source: Path) -> Path:
    return source.with_suffix(".out.ipynb")


def record_path(source: Path) -> Path:
    return source.with_suffix(".record.json")


def compared_path(source: Path) -> Path:
    return source.with_suffix(".out")


_CELL_HEADING = "[code cell {}]"


def compared_text(texts: list[str]) -> str:
    """The `.out` of a notebook: each code cell's text output normalized, under its number."""
    return "".join(f"{_CELL_HEADING.format(n)}\n" + (f"{t}\n" if (t := normalize(text)) else "")
                   for n, text in enumerate(texts, start=1))


def compared_cells(text: str) -> list[str]:
    """The inverse of compared_text: each cell's normalized output."""
    cells: list[list[str]] = []
    for line in text.splitlines():
        if line == _CELL_HEADING.format(len(cells) + 1):
            cells.append([])
        else:
            cells[-1].append(line)
    return ["\n".join(lines) for lines in cells]


def read(source: Path) -> nbformat.NotebookNode:
    """The bilingual source as a notebook (a fresh copy: callers may change it)."""
    stat = source.stat()
    return copy.deepcopy(_parsed(source, stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=8)
def _parsed(source: Path, mtime_ns: int, size: int) -> nbformat.NotebookNode:
    """Parsed once per version of the file: a build reads each source three times per language."""
    notebook = jupytext.read(source)
    problems = language_problems(notebook)
    if problems:
        raise NotebookError(f"{source.name}: " + "; ".join(problems))
    return notebook


def language_problems(notebook: nbformat.NotebookNode) -> list[str]:
    """Every run of Markdown cells between code cells must have one cell per language, in order."""
    problems, run, runs = [], [], []
    for cell in [*notebook.cells, None]:
        if cell is not None and cell.cell_type == "markdown":
            run.append(cell.metadata.get("lang"))
        elif run:
            runs.append(run)
            run = []
    for number, langs in enumerate(runs, start=1):
        if langs != list(LANGS):
            problems.append(f"Markdown block {number} has languages {langs}, expected {list(LANGS)}")
    return problems


def execute(notebook: nbformat.NotebookNode, label: str) -> nbformat.NotebookNode:
    """Run the code cells in a fresh kernel; any failing cell raises NotebookError."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    code_only = nbformat.v4.new_notebook(
        cells=[cell for cell in notebook.cells if cell.cell_type == "code"], metadata=notebook.metadata
    )
    with tempfile.TemporaryDirectory(prefix="notebook-") as workdir:
        client = NotebookClient(
            code_only, timeout=EXECUTION_TIMEOUT_S, kernel_name="python3", allow_errors=False,
            resources={"metadata": {"path": workdir}},
        )
        try:
            # The debugger's frozen-modules notice would otherwise land in the output.
            client.execute(env={**os.environ, "PYDEVD_DISABLE_FILE_VALIDATION": "1", "PYTHONHASHSEED": "0",
                                "SOURCE_DATE_EPOCH": "0"})  # figures carry no date
        except CellExecutionError as error:
            failed = next((i for i, c in enumerate(code_only.cells, 1) if _has_error(c)), "?")
            raise NotebookError(f"{label}: code cell {failed} failed: {error.ename}: {error.evalue}") from None
        for cell in code_only.cells:
            cell.metadata.pop("execution", None)  # timestamps: they change every run
            for output in cell.get("outputs", []):
                if "text" in output:
                    output["text"] = portable(output["text"], workdir)
    return code_only


def _has_error(cell: nbformat.NotebookNode) -> bool:
    return any(output.get("output_type") == "error" for output in cell.get("outputs", []))


def text_outputs(run: nbformat.NotebookNode) -> list[str]:
    """What each code cell printed or displayed as text, in order (images left out)."""
    texts = []
    for cell in run.cells:
        parts = []
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                parts.append(output["text"])
            for kind in TEXT_TYPES:
                if kind in output.get("data", {}):
                    parts.append(output["data"][kind])
                    break
        texts.append("".join(part if part.endswith("\n") else part + "\n" for part in parts))
    return texts


def for_language(source: nbformat.NotebookNode, run: nbformat.NotebookNode, lang: str) -> nbformat.NotebookNode:
    """The notebook a reader of `lang` gets: their Markdown cells and the executed code."""
    code_cells = iter(run.cells)
    cells = []
    for cell in source.cells:
        if cell.cell_type == "code":
            cells.append(next(code_cells))
        elif cell.metadata.get("lang") == lang:
            cells.append(nbformat.v4.new_markdown_cell(cell.source))
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": source.metadata["kernelspec"]})
    for number, cell in enumerate(notebook.cells):
        cell.id = f"cell-{number}"
    return notebook
