"""What the indexed copy of a page keeps (docsys/build/search/document.py): the reading matter,
weighted; of outputs only errors and warnings; of code only the API names the prose does not name."""

from __future__ import annotations

import re

from docsys.build.search.document import index_document
from tests.tooling.search_index import EN, indexed_text


def test_permalinks_hidden_text_and_notebook_clipboard_copies_are_not_indexed():
    article = (
        '<h2 id="a">Autocast<a class="headerlink" href="#a">¶</a></h2><span hidden="">Copied!</span>'
        '<div class="clipboard-copy-txt" id="cell-1">x = 1</div><h3 id="b">B<a class="anchor-link" href="#b">¶</a></h3>'
    )
    assert indexed_text(index_document(article, EN)[0]) == "Autocast^ B"  # (two headings: two words)


def test_alt_text_is_body_text_and_code_and_tables_weigh_half():
    article = '<p><img src="g.svg" alt="the graph"></p><pre>F.relu(x)</pre><table></table>'
    document, _ = index_document(article, EN)
    assert "<span>the graph^ </span>" in document and "<img" not in document
    assert '<pre data-pagefind-weight="0.5">' in document and '<table data-pagefind-weight="0.5">' in document


def test_of_a_recorded_output_only_its_error_and_warning_lines_are_indexed():
    article = (
        '<p class="verified-with">Verified with: CPU — torch 2.13.0+cpu</p><p>Run it:</p>'
        '<div class="highlight"><span class="filename">Output of `torchrun --standalone train.py` '
        "(each rank&#x27;s lines together, rank by rank)</span><pre><code>tensor([1.5000])\n"
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied\n</code></pre></div>"
        '<div class="highlight"><span class="filename">Output</span><pre><code>loss 0.25</code></pre></div>'
        '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain"><pre>step 1: 12.5 ms\n'
        "UserWarning: TF32 is off</pre></div>"
    )
    text = indexed_text(index_document(article, EN)[0])
    assert "RuntimeError" in text and "UserWarning" in text and "shapes^ cannot" not in text, text
    assert "1.5000" not in text and "loss" not in text and "12.5" not in text and "Verified" not in text, text


def test_of_a_code_block_only_the_api_names_the_prose_does_not_name_are_indexed():
    code = (
        '<div class="highlight"><span class="filename">ddp/no_sync.py</span><pre><code>'
        "from torch.distributed.algorithms.ddp_comm_hooks import default_hooks\n"
        "my_steps = 4\nmodel.register_comm_hook(None, default_hooks.allreduce_hook)\n"
        'os.environ["OMP_NUM_THREADS"] = "1"\nopt.zero_grad(set_to_none=True)\nwith model.no_sync(): pass\n'
        "</code></pre></div>"
    )
    document, _ = index_document("<p>Use <code>no_sync()</code>.</p>" + code, EN)
    indexed = re.search(r"<pre[^>]*>(.*)</pre>", document, re.S)[1].split()
    assert indexed == ["default_hooks", "distributed", "algorithms", "ddp_comm_hooks", "register_comm_hook",
                       "allreduce_hook", "environ", "OMP_NUM_THREADS", "zero_grad", "set_to_none"], indexed


def test_section_headings_weigh_more_than_pagefinds_defaults():
    document, _ = index_document("<h1>A</h1><h2>B</h2><h3>C</h3><h4>D</h4>", EN)
    assert '<h1 data-pagefind-weight="10">' in document and '<h3 data-pagefind-weight="8">' in document
    assert "<h4>" in document
