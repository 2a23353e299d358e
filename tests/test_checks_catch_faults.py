"""Each check of the pipeline, shown failing on a planted fault (and passing without it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pymdownx.snippets import SnippetMissingError

from docsys.codeblocks import execute, output_problem, page_blocks, unrun_python_fences
from docsys.pages import expand
from docsys.parity import check_tree
from docsys.paths import DOCS_DIR, SNIPPETS_DIR
from docsys.snippets import failure_message, load, run

SAMPLE = SNIPPETS_DIR / "autograd" / "requires_grad.py"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A copy of a real snippet and its recording, safe to break."""
    copy = tmp_path / SAMPLE.name
    shutil.copy(SAMPLE, copy)
    shutil.copy(SAMPLE.with_suffix(".out"), copy.with_suffix(".out"))
    return copy


def test_untouched_copy_passes(sample):
    assert failure_message(load(sample), run(load(sample))) is None


def test_changed_recorded_line_fails(sample):
    out = sample.with_suffix(".out")
    out.write_text(out.read_text().replace("SumBackward0", "MulBackward0"))
    message = failure_message(load(sample), run(load(sample)))
    assert message is not None and "-y: True False MulBackward0" in message


def test_appended_print_fails(sample):
    sample.write_text(sample.read_text() + 'print("one more line")\n')
    message = failure_message(load(sample), run(load(sample)))
    assert message is not None and "+one more line" in message


def test_raising_snippet_fails(sample):
    sample.write_text(sample.read_text() + 'raise ValueError("planted")\n')
    message = failure_message(load(sample), run(load(sample)))
    assert message is not None and "exited with 1" in message and "ValueError: planted" in message


def test_missing_recording_fails(sample):
    sample.with_suffix(".out").unlink()
    assert "no recorded output" in failure_message(load(sample), run(load(sample)))


def test_hanging_snippet_times_out(tmp_path):
    snippet = tmp_path / "hang.py"
    snippet.write_text("# timeout: 1\nimport time\ntime.sleep(30)\n")
    assert "timed out after 1 s" in failure_message(load(snippet), run(load(snippet)))


def test_unknown_mark_is_rejected(tmp_path):
    snippet = tmp_path / "typo.py"
    snippet.write_text("# marks: cdua\nprint(1)\n")
    with pytest.raises(ValueError, match="unknown mark"):
        load(snippet)


def test_missing_include_fails_expansion():
    with pytest.raises(SnippetMissingError):
        expand('--8<-- "autograd/no_such_snippet.py"')
    with pytest.raises(SnippetMissingError):
        expand('--8<-- "autograd/requires_grad.py:no-such-section"')


@pytest.fixture
def docs_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "docs"
    shutil.copytree(DOCS_DIR, copy)
    assert check_tree(copy) == []
    return copy


def test_missing_zh_page_breaks_parity(docs_copy):
    (docs_copy / "zh" / "autograd.md").unlink()
    assert any("zh/autograd.md is missing" in p for p in check_tree(docs_copy))


def test_reordered_includes_break_parity(docs_copy):
    page = docs_copy / "zh" / "autograd.md"
    text = page.read_text()
    page.write_text(
        text.replace('"autograd/detach.py"', '"autograd/PLACEHOLDER"')
        .replace('"autograd/autograd_grad.py"', '"autograd/detach.py"')
        .replace('"autograd/PLACEHOLDER"', '"autograd/autograd_grad.py"')
    )
    assert any("snippet includes differ" in p for p in check_tree(docs_copy))


def test_changed_anchor_breaks_parity(docs_copy):
    page = docs_copy / "zh" / "autograd.md"
    page.write_text(page.read_text().replace("{ #detach }", "{ #detach-zh }"))
    assert any("anchors differ" in p for p in check_tree(docs_copy))


def test_heading_without_anchor_is_reported(docs_copy):
    page = docs_copy / "en" / "autograd.md"
    page.write_text(page.read_text() + "\n## An unanchored heading\n")
    assert any("has no explicit anchor" in p for p in check_tree(docs_copy))


HIDDEN_FENCES = """\
# Page

```py
print("py fence")
```

~~~python
print("tilde fence")
~~~

```pycon
>>> 1 + 1
```

<!--pytest.mark.skip-->
```python
print("skipped without a reason")
```

```python title="shown.py"
print("titled fence")
```
"""


def test_unrun_python_fences_are_reported(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(HIDDEN_FENCES)
    problems = "\n".join(unrun_python_fences(page))
    assert "~~~ fence is invisible" in problems
    assert "'pycon' blocks are not executed" in problems
    assert "needs a reason" in problems
    assert "titled" not in problems and ":3:" not in problems  # py and title= fences are run
    assert [b.block.code.strip() for b in page_blocks(page)][-1] == 'print("titled fence")'


def test_wrong_output_under_a_block_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(1 + 1)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n3\n```\n")
    (block,) = page_blocks(page)
    assert "-3\n+2" in output_problem(block, execute(block))


def test_raising_page_block_fails(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('```python\nraise RuntimeError("planted")\n```\n')
    (block,) = page_blocks(page)
    with pytest.raises(RuntimeError, match="planted"):
        execute(block)


def test_main_guarded_page_block_really_runs(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('```python\nif __name__ == "__main__":\n    print("ran")\n```\n')
    (block,) = page_blocks(page)
    assert execute(block) == "ran\n"


def test_markers_skip_exactly_where_their_condition_is_missing(monkeypatch):
    from docsys import markers

    monkeypatch.setattr(markers, "_cuda_device_count", lambda: 1)
    assert markers.skip_reason(["cpu_only"]).startswith("cpu_only: its recorded output shows the fallback")
    assert markers.skip_reason(["cuda"]) is None
    assert markers.skip_reason(["multi_gpu"]).startswith("multi_gpu: needs 2+ CUDA GPUs, found 1")
    monkeypatch.setattr(markers, "_cuda_device_count", lambda: 0)
    assert markers.skip_reason(["cpu_only"]) is None
    assert markers.skip_reason(["cuda"]).startswith("cuda: needs a CUDA GPU")
