"""What the search hook indexes (docsys/build/search.py), without a browser: the indexed copy of
a page, the glossary's terms, and one clear line when Pagefind is missing or fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from docsys.build import search
from docsys.checks.search import load_queries

EN = search.Language("en", ("gradient accumulation", "mixed precision"))
ZH = search.Language("zh", ("分布式数据并行", "梯度检查"))


def _text(document: str) -> str:
    """The indexed body's text, tags dropped (as Pagefind joins inline elements)."""
    return re.sub(r"<[^>]+>", "", document.split("<body data-pagefind-body>", 1)[1])


def test_only_the_article_is_kept_and_the_404_page_is_not(monkeypatch):
    monkeypatch.setattr(search, "_state", search._Build())
    page = type("P", (), {})()
    for uri, dest in (("en/autograd.md", "autograd/index.html"), ("en/404.md", "404.html")):
        page.file = type("F", (), {"src_uri": uri, "dest_uri": dest})()
        html = '<nav>Navigation</nav><article class="md-content__inner md-typeset"><h1>Autograd</h1></article><footer/>'
        search.on_post_page(html, page, None)
    assert search._state.pages == {"autograd/index.html": "<h1>Autograd</h1>"}


def test_api_names_are_split_at_punctuation_into_whole_words():
    document, _ = search.index_document('<p><code>torch.amp.GradScaler("cuda").step()</code></p>', EN)
    assert _text(document).split() == ["torch.^", "amp.^", 'GradScaler("^', 'cuda").^', "step()"]


def test_permalinks_hidden_text_and_notebook_clipboard_copies_are_not_indexed():
    article = (
        '<h2 id="a">Autocast<a class="headerlink" href="#a">¶</a></h2><span hidden="">Copied!</span>'
        '<div class="clipboard-copy-txt" id="cell-1">x = 1</div><h3 id="b">B<a class="anchor-link" href="#b">¶</a></h3>'
    )
    assert _text(search.index_document(article, EN)[0]) == "Autocast^ B"  # (two headings: two words)


def test_alt_text_is_body_text_and_code_and_tables_weigh_half():
    article = '<p><img src="g.svg" alt="the graph"></p><pre>F.relu(x)</pre><table></table>'
    document, _ = search.index_document(article, EN)
    assert "<span>the graph^ </span>" in document and "<img" not in document
    assert '<pre data-pagefind-weight="0.5">' in document and '<table data-pagefind-weight="0.5">' in document


def test_chinese_is_segmented_and_a_tag_after_chinese_is_a_word_break():
    document, words = search.index_document("<p><a>张量并行</a>在每个设备上（<code>gradcheck</code>）应</p>", ZH)
    text = _text(document)
    assert "张量^ 并行^ 在^ 每个^ 设备^ 上^ （^ gradcheck^ ）^ 应" in text, text
    assert '<html lang="x-zh">' in document  # Pagefind must not segment it again, nor the queries
    assert words["张量"] < 0 and words["并行"] < 0


def test_glossary_terms_are_one_word_with_their_parts():
    en = _text(search.index_document("<h2>Gradient accumulation</h2><p>gradient-accumulations</p>", EN)[0])
    assert "Gradient^accumulation" in en and "gradient^accumulations" in en
    zh_document, words = search.index_document("<p>用梯度检查和分布式数据并行</p>", ZH)
    assert "梯度^检查" in _text(zh_document) and "分布式^数据^并行" in _text(zh_document)
    assert words["梯度检查"] == 0.0 and words["分布式数据并行"] == 0.0  # search.js must keep them whole


def test_glossary_terms_come_from_the_glossary_data(tmp_path):
    assert "gradient accumulation" in search.glossary_terms(search.Path("docs"), "en")
    assert "梯度检查" in search.glossary_terms(search.Path("docs"), "zh")
    assert search.glossary_terms(tmp_path, "en") == ()  # a site without a glossary has no terms
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "glossary.md").write_text("# Glossary\n\n::: glossary\n", encoding="utf-8")
    broken = tmp_path / "glossary.toml"
    broken.write_text('[[term]]\nen = "autograd"\n', encoding="utf-8")
    with pytest.raises(PluginError, match=r"^search: the en glossary cannot be read: .*missing") as error:
        search.glossary_terms(tmp_path, "en", broken)
    assert "\n" not in str(error.value)


def test_a_missing_pagefind_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pagefind_bin_extended", None)
    with pytest.raises(PluginError, match=r"^search: pagefind-bin-extended is not installed; run scripts/setup.sh$"):
        search.pagefind_binary()


def test_a_failing_pagefind_is_one_clear_line(monkeypatch, tmp_path):
    monkeypatch.setattr(search, "pagefind_binary", lambda: "false")
    with pytest.raises(PluginError, match=r"^search: pagefind failed \(1\): no output$"):
        search.run_pagefind({"index.html": "<html></html>"}, tmp_path / "pagefind")


def test_a_query_table_row_without_a_page_is_one_clear_line(tmp_path):
    table = tmp_path / "queries.toml"
    table.write_text('en = [{ query = "autocast" }]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^queries.toml: en row 1 needs a query and a page \(strings\)"):
        load_queries(table)


def test_the_cache_is_keyed_by_the_article(tmp_path, monkeypatch):
    calls = []
    original = search.index_document
    monkeypatch.setattr(search, "index_document", lambda a, lang: calls.append(a) or original(a, lang))
    for _ in range(2):
        search.indexed_copies({"a/index.html": "<p>x</p>"}, EN, tmp_path)
    search.indexed_copies({"a/index.html": "<p>y</p>"}, EN, tmp_path)
    assert calls == ["<p>x</p>", "<p>y</p>"]
    assert len(list(Path(tmp_path).glob("*.json"))) == 2


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
    text = _text(search.index_document(article, EN)[0])
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
    document, _ = search.index_document("<p>Use <code>no_sync()</code>.</p>" + code, EN)
    indexed = re.search(r"<pre[^>]*>(.*)</pre>", document, re.S)[1].split()
    assert indexed == ["default_hooks", "distributed", "algorithms", "ddp_comm_hooks", "register_comm_hook",
                       "allreduce_hook", "environ", "OMP_NUM_THREADS", "zero_grad", "set_to_none"], indexed


def test_section_headings_weigh_more_than_pagefinds_defaults():
    document, _ = search.index_document("<h1>A</h1><h2>B</h2><h3>C</h3><h4>D</h4>", EN)
    assert '<h1 data-pagefind-weight="10">' in document and '<h3 data-pagefind-weight="8">' in document
    assert "<h4>" in document


def test_the_chinese_words_file_groups_words_by_probability():
    assert search.words_by_probability({"张量": -9.5, "并行": -11.0, "数据": -9.5}) == {
        "-11.0": "并行", "-9.5": "张量 数据"}
