"""Recording a notebook: execute it on a quiet machine, keep its outputs and their provenance.

The notebook measures (its table compares training-loop stages), so it is held to the benchmarks'
discipline: the load other processes put on the machine is sampled for a second before and after
the run, and the recording is refused when either exceeds the limit (docsys.core.verdict.LOAD_LIMIT).
"""

from __future__ import annotations

import time

import nbformat

from docsys import notebook
from docsys.core import verdict
from docsys.core.paths import ROOT
from docsys.core.processes import idle_load
from docsys.core.recording import provenance, record_text
from docsys.core.snippet import Snippet


def record(source_rel: str) -> tuple[bool, str]:
    """Execute `notebooks/<name>.py` and write its `.out.ipynb`, `.out` and `.record.json`; (ok, one line)."""
    source = ROOT / source_rel
    before = idle_load()
    if before.others > verdict.LOAD_LIMIT:
        return False, f"REFUSED  {source_rel}: other processes kept {before.others:.2f} cores busy before the run"
    start = time.monotonic()
    try:
        run = notebook.execute(notebook.read(source), source.name)
    except notebook.NotebookError as error:
        return False, f"FAILED   {source_rel} (nothing recorded): {error}"
    seconds = time.monotonic() - start
    after = idle_load()
    if after.others > verdict.LOAD_LIMIT:
        return False, f"REFUSED  {source_rel}: other processes kept {after.others:.2f} cores busy after the run"
    notebook.output_path(source).write_text(nbformat.writes(run) + "\n", encoding="utf-8")
    notebook.compared_path(source).write_text(notebook.compared_text(notebook.text_outputs(run)), encoding="utf-8")
    load = {"before": before.as_dict(), "after": after.as_dict(), "limit_cores": verdict.LOAD_LIMIT}
    prov = provenance(Snippet(path=source, root=ROOT), seconds, {"load": load})
    notebook.record_path(source).write_text(record_text(prov), encoding="utf-8")
    return True, f"recorded {source_rel} ({seconds:.1f} s)"
