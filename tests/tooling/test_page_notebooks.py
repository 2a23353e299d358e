"""docsys/build/page_notebooks.py and docsys/notebook/pages.py, on small inputs: a page's Markdown as Jupyter
reads it, and the comparison of a kernel's two streams with a recording."""

from __future__ import annotations

import pytest

from docsys.build.page_notebooks import _for_jupyter, _page_url, fenced_blocks
from docsys.notebook.pages import interleaves


def test_mkdocs_markdown_becomes_plain_markdown():
    page = [
        "## Buckets { #buckets }",
        "Text.",
        "<!-- source: torch/nn/parallel/distributed.py DistributedDataParallel -->",
        '!!! warning "Not on the CPU"',
        "",
        "    Needs a GPU.",
        "",
        "After.",
    ]
    assert _for_jupyter(page) == "## Buckets\nText.\n\n> **Not on the CPU**\n>\n> Needs a GPU.\n>\nAfter."


def test_an_output_title_with_backticks_is_still_a_fenced_block():
    lines = ['```python title="ddp/train.py"', "print(1)", "```", '```text title="Output of `torchrun x.py`"',
             "[rank0] 1", "```"]
    assert [(b.info.split()[0], b.body) for b in fenced_blocks(lines)] == [
        ("python", ["print(1)"]), ("text", ["[rank0] 1"])]


@pytest.mark.parametrize(("src_uri", "url"), [("en/ddp.md", "ddp/"), ("zh/ddp.md", "zh/ddp/"), ("en/index.md", ""),
                                              ("zh/index.md", "zh/")])
def test_a_page_link_becomes_the_pages_url(src_uri, url):
    assert _page_url(src_uri) == url


def test_streams_interleave_as_the_recording_or_not():
    recorded = "a\nwarning\nb\n"
    assert interleaves(recorded, {"stdout": "a\nb\n", "stderr": "warning\n"})
    assert not interleaves(recorded, {"stdout": "b\na\n", "stderr": "warning\n"})  # stdout out of order
    assert not interleaves(recorded, {"stdout": "a\nb\n", "stderr": ""})  # a line missing
    assert not interleaves(recorded, {"stdout": "a\nb\nc\n", "stderr": "warning\n"})  # a line too many
