"""Where the search index breaks words (docsys/build/search/words.py), seen in the indexed copy of
a page: API names split at punctuation, Chinese segmented, glossary terms one word with their parts."""

from __future__ import annotations

from docsys.build.search.document import index_document
from tests.tooling.search_index import EN, ZH, indexed_text


def test_api_names_are_split_at_punctuation_into_whole_words():
    document, _ = index_document('<p><code>torch.amp.GradScaler("cuda").step()</code></p>', EN)
    assert indexed_text(document).split() == ["torch.^", "amp.^", 'GradScaler("^', 'cuda").^', "step()"]


def test_chinese_is_segmented_and_a_tag_after_chinese_is_a_word_break():
    document, words = index_document("<p><a>张量并行</a>在每个设备上（<code>gradcheck</code>）应</p>", ZH)
    text = indexed_text(document)
    assert "张量^ 并行^ 在^ 每个^ 设备^ 上^ （^ gradcheck^ ）^ 应" in text, text
    assert '<html lang="x-zh">' in document  # Pagefind must not segment it again, nor the queries
    assert words["张量"] < 0 and words["并行"] < 0


def test_glossary_terms_are_one_word_with_their_parts():
    en = indexed_text(index_document("<h2>Gradient accumulation</h2><p>gradient-accumulations</p>", EN)[0])
    assert "Gradient^accumulation" in en and "gradient^accumulations" in en
    zh_document, words = index_document("<p>用梯度检查和分布式数据并行</p>", ZH)
    assert "梯度^检查" in indexed_text(zh_document) and "分布式^数据^并行" in indexed_text(zh_document)
    assert words["梯度检查"] == 0.0 and words["分布式数据并行"] == 0.0  # search.js must keep them whole
