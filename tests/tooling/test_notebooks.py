"""docsys.build.notebooks: one source, both languages in step, and a failing cell fails the build."""

from __future__ import annotations

import jupytext
import pytest

from docsys.build.notebooks import NotebookError, execute, for_language, language_problems

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
