"""A page's notebook (docsys.build.page_notebooks) run top to bottom in a Jupyter kernel, for the tests.

Each code cell's text output is kept, as the cell printed it. A `!torchrun …` cell runs with
torchrun's per-rank logs on (`PET_LOG_DIR` / `PET_REDIRECTS`, as docsys.core.runner records a
launched example), and each rank's lines are added after the launcher's own, rank by rank, so
that its output compares with the recording; a reader who runs the cell sees the ranks' lines
interleaved instead. Cells tagged `needs-cuda` are left out on a machine without a CUDA GPU.

The comparison is the rule of every output (docsys.core.normalize), taken per stream: a kernel
sends stdout and stderr as two streams, each flushed on its own, so a warning can arrive before the
lines printed ahead of it. A cell prints what its recording holds when the recording's lines are its
stdout's and its stderr's lines, each in order, interleaved.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat

from docsys.core.normalize import normalize, portable
from docsys.core.runner import per_rank
from docsys.core.text import NEEDS_CUDA_TAG, PROFILER_LOG_RE
from docsys.notebook import EXECUTION_TIMEOUT_S, TEXT_TYPES, NotebookError


def runnable_cells(notebook: nbformat.NotebookNode, has_cuda: bool) -> list[nbformat.NotebookNode]:
    """The code cells this machine can run, in order."""
    return [cell for cell in notebook.cells if cell.cell_type == "code"
            and (has_cuda or NEEDS_CUDA_TAG not in cell.metadata.get("tags", []))]


def execute(notebook: nbformat.NotebookNode, label: str, has_cuda: bool) -> list[dict[str, str]]:
    """What each runnable code cell printed, per stream, run in a fresh kernel in an empty folder."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    cells = runnable_cells(notebook, has_cuda)
    code_only = nbformat.v4.new_notebook(cells=[nbformat.from_dict(dict(cell, outputs=[])) for cell in cells],
                                         metadata=notebook.metadata)
    with tempfile.TemporaryDirectory(prefix="page-notebook-") as workdir:
        ranks = Path(workdir) / ".ranks"
        launched: dict[int, str] = {}

        def collect_ranks(cell, cell_index, **_) -> None:
            if any(line.startswith("!torchrun") for line in cell.source.split("\n")):
                launched[cell_index] = per_rank(ranks) if ranks.exists() else ""
                _clear(ranks)

        client = NotebookClient(code_only, timeout=EXECUTION_TIMEOUT_S, kernel_name="python3", allow_errors=False,
                                resources={"metadata": {"path": workdir}}, on_cell_executed=collect_ranks)
        env = {**os.environ, "PYDEVD_DISABLE_FILE_VALIDATION": "1", "PYTHONHASHSEED": "0",
               "PET_LOG_DIR": str(ranks), "PET_REDIRECTS": "3",
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        try:
            client.execute(env=env)
        except CellExecutionError as error:
            raise NotebookError(f"{label}: code cell {_failed(code_only)} failed: {error.ename}: {error.evalue}") \
                from None
        runs = []
        for i, cell in enumerate(code_only.cells):
            streams = {name: printed(cell, name) for name in ("stdout", "stderr")}
            streams["stdout"] += launched.get(i, "")
            # `!` runs a command in a pseudo-terminal, whose lines end in \r\n
            runs.append({name: portable(text.replace("\r\n", "\n"), workdir) for name, text in streams.items()})
        return runs


def stored(notebook: nbformat.NotebookNode, has_cuda: bool) -> list[str]:
    """What each runnable code cell's stored output holds (what the page shows under it)."""
    return [printed(cell) for cell in runnable_cells(notebook, has_cuda)]


def printed(cell: nbformat.NotebookNode, stream: str | None = None) -> str:
    """A cell's text output (or one stream of it) as a terminal shows it: stream pieces joined as they
    came (the kernel sends a stream in pieces that need not end a line), a displayed value on lines of
    its own (with stdout)."""
    text = ""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            text += output["text"] if stream in (None, output["name"]) else ""
            continue
        if stream == "stderr":
            continue
        elif kind := next((k for k in TEXT_TYPES if k in output.get("data", {})), None):
            text += ("" if not text or text.endswith("\n") else "\n") + output["data"][kind].rstrip("\n") + "\n"
    return text


def interleaves(recorded: str, run: dict[str, str]) -> bool:
    """True when the recording's lines are the run's stdout lines and stderr lines, each in order,
    interleaved (each side compared in docsys.core.normalize's form)."""
    want, out, err = (_lines(text) for text in (recorded, run["stdout"], run["stderr"]))
    if len(want) != len(out) + len(err):
        return False
    reachable = {(0, 0)}  # (lines of stdout, lines of stderr) that can make the first i recorded lines
    for line in want:
        reachable = {(o + 1, e) for o, e in reachable if o < len(out) and out[o] == line} | \
                    {(o, e + 1) for o, e in reachable if e < len(err) and err[e] == line}
        if not reachable:
            return False
    return (len(out), len(err)) in reachable


def _lines(text: str) -> list[str]:
    """The compared form's lines, without kineto's profiler_start/stop lines (the page leaves them out)."""
    compared = normalize(text)
    return [line for line in compared.split("\n") if not PROFILER_LOG_RE.match(line)] if compared else []


def _clear(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), reverse=True) if folder.exists() else []:
        path.unlink() if path.is_file() else path.rmdir()


def _failed(notebook: nbformat.NotebookNode) -> str:
    for number, cell in enumerate(notebook.cells, 1):
        if any(output.get("output_type") == "error" for output in cell.get("outputs", [])):
            return f"{number} ({cell.source.splitlines()[0][:60]!r})"
    return "?"
