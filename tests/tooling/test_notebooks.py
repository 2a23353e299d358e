"""docsys.build.notebook: one source, both languages in step, and a failing cell fails the build."""

from __future__ import annotations

import jupytext
import nbformat
import pytest

from docsys.notebook import NotebookError, execute, for_language, language_problems

SOURCE = """\
# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown] lang="en"
# # Title

# %% [markdown] lang="zh"
# # 标题

# %%
print(1 + 1)

# %% [markdown] lang="en"
# Done.

# %% [markdown] lang="zh"
# 完成。
"""


def test_a_notebook_in_step_splits_into_two_languages_sharing_code():
    notebook = jupytext.reads(SOURCE, fmt="py:percent")
    assert language_problems(notebook) == []
    run = execute(notebook, "small.py")
    zh = for_language(notebook, run, "zh")
    assert [c.cell_type for c in zh.cells] == ["markdown", "code", "markdown"]
    assert zh.cells[0].source == "# 标题" and zh.cells[1].outputs[0]["text"] == "2\n"


def test_missing_translation_is_reported():
    notebook = jupytext.reads(SOURCE.replace('# %% [markdown] lang="zh"\n# 完成。\n', ""), fmt="py:percent")
    assert language_problems(notebook) == ["Markdown block 2 has languages ['en'], expected ['en', 'zh']"]


def test_failing_cell_fails_execution():
    notebook = jupytext.reads('# %%\nx = 1\n\n# %%\nraise RuntimeError("planted")\n', fmt="py:percent")
    with pytest.raises(NotebookError, match=r"code cell 2 failed: RuntimeError: planted"):
        execute(notebook, "planted.py")


def test_a_notebook_is_recorded_only_on_a_quiet_machine(tmp_path, monkeypatch):
    from docsys.core import verdict
    from docsys.core.processes import Load
    from docsys.record import notebook as recorder

    monkeypatch.setattr(verdict, "LOAD_LIMIT", 0.25)
    monkeypatch.setattr(recorder, "idle_load", lambda: Load(others=1.2, steal=0.0, seconds=1.0))
    ok, message = recorder.record("notebooks/speed-up-training.py")
    assert not ok and message.startswith("REFUSED  notebooks/speed-up-training.py: other processes kept 1.20 cores")


def test_a_missing_or_stale_recording_is_a_build_warning(tmp_path, caplog):
    from docsys.build.notebook import recorded

    source = tmp_path / "small.py"
    source.write_text(SOURCE, encoding="utf-8")
    assert recorded(source) is None
    assert "small.py has no recording; run `make record SNIPPETS=notebooks/small.py`" in caplog.text
    run = execute(jupytext.reads(SOURCE, fmt="py:percent"), "small.py")
    source.with_suffix(".out.ipynb").write_text(nbformat.writes(run), encoding="utf-8")
    source.with_suffix(".record.json").write_text('{"source_sha256": "old"}', encoding="utf-8")
    assert recorded(source) is not None and "small.py changed since it was recorded" in caplog.text


PLOT = SOURCE.replace("# %%\nprint(1 + 1)\n", '# %% alt_en="A bar chart" alt_zh="一张柱状图"\nprint(1 + 1)\n')
PLACEHOLDER = '<img alt="No description has been provided for this image" src="data:image/svg+xml;base64,PHN2Zy8+">'


def _recorded_plot(tmp_path, source_text: str):
    source = tmp_path / "plot.py"
    source.write_text(source_text, encoding="utf-8")
    code = [cell for cell in jupytext.reads(source_text, fmt="py:percent").cells if cell.cell_type == "code"]
    code[0].outputs = [nbformat.v4.new_output("display_data", data={"image/svg+xml": "<svg/>"})]
    run = nbformat.v4.new_notebook(cells=code)
    source.with_suffix(".out.ipynb").write_text(nbformat.writes(run), encoding="utf-8")
    return source


def test_output_images_get_their_code_cells_alt_text_in_each_language(tmp_path):
    from docsys.build.notebook import _with_alt_text

    source = _recorded_plot(tmp_path, PLOT)
    page = f"<div>{PLACEHOLDER}</div>"
    assert _with_alt_text(page, source, "en") == page.replace("No description has been provided for this image",
                                                              "A bar chart")
    assert 'alt="一张柱状图"' in _with_alt_text(page, source, "zh")


def test_an_output_image_without_alt_text_is_a_build_warning(tmp_path, caplog):
    from docsys.build.notebook import _with_alt_text

    source = _recorded_plot(tmp_path, SOURCE)
    page = f"<div>{PLACEHOLDER}</div>"
    assert _with_alt_text(page, source, "zh") == page
    assert 'plot.py: an output image has no zh alt text; give its code cell one: `# %% alt_en="..."' in caplog.text


def test_a_source_is_parsed_once_per_version_and_each_reader_gets_its_own_copy(tmp_path, monkeypatch):
    from docsys import notebook

    source = tmp_path / "cached.py"
    source.write_text(SOURCE, encoding="utf-8")
    parses = []
    real_read = jupytext.read
    monkeypatch.setattr(jupytext, "read", lambda path: parses.append(path) or real_read(path))
    first = notebook.read(source)
    first.cells.clear()
    assert notebook.read(source).cells, "a reader's change reached the next reader"
    assert len(parses) == 1
    source.write_text(SOURCE.replace("1 + 1", "2 + 2"), encoding="utf-8")
    assert "2 + 2" in notebook.read(source).cells[2].source
    assert len(parses) == 2
