"""Writing a language's search index (docsys/build/search/bundle.py): the cache of indexed copies,
the Chinese words file, and one clear line when Pagefind is missing or fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from docsys.build.search import bundle
from tests.tooling.search_index import EN


def test_a_missing_pagefind_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pagefind_bin_extended", None)
    with pytest.raises(PluginError, match=r"^search: pagefind-bin-extended is not installed; run scripts/setup.sh$"):
        bundle.pagefind_binary()


def test_a_failing_pagefind_is_one_clear_line(monkeypatch, tmp_path):
    monkeypatch.setattr(bundle, "pagefind_binary", lambda: "false")
    with pytest.raises(PluginError, match=r"^search: pagefind failed \(1\): no output$"):
        bundle.run_pagefind({"index.html": "<html></html>"}, tmp_path / "pagefind")


def test_the_cache_is_keyed_by_the_article(tmp_path, monkeypatch):
    calls = []
    original = bundle.index_document
    monkeypatch.setattr(bundle, "index_document", lambda a, lang: calls.append(a) or original(a, lang))
    for _ in range(2):
        bundle.indexed_copies({"a/index.html": "<p>x</p>"}, EN, tmp_path)
    bundle.indexed_copies({"a/index.html": "<p>y</p>"}, EN, tmp_path)
    assert calls == ["<p>x</p>", "<p>y</p>"]
    assert len(list(Path(tmp_path).glob("*.json"))) == 2


def test_the_chinese_words_file_groups_words_by_probability():
    assert bundle.words_by_probability({"张量": -9.5, "并行": -11.0, "数据": -9.5}) == {
        "-11.0": "并行", "-9.5": "张量 数据"}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_pagefind_runs_once_per_set_of_documents_and_the_cache_keeps_the_newest(tmp_path, monkeypatch):
    runs = []
    original = bundle.run_pagefind
    monkeypatch.setattr(bundle, "run_pagefind", lambda docs, out: runs.append(docs) or original(docs, out))
    page = {"a/index.html": '<html lang="en"><body><h1>Autocast</h1><p>mixed precision</p></body></html>'}
    bundle.cached_pagefind(page, tmp_path / "first", tmp_path / "cache")
    bundle.cached_pagefind(page, tmp_path / "again", tmp_path / "cache")
    assert len(runs) == 1 and _files(tmp_path / "again") == _files(tmp_path / "first") != {}
    for n in range(bundle.KEEP_BUNDLES + 1):
        changed = {"a/index.html": page["a/index.html"].replace("precision", f"precision {n}")}
        bundle.cached_pagefind(changed, tmp_path / f"changed-{n}", tmp_path / "cache")
    assert len(runs) == bundle.KEEP_BUNDLES + 2
    assert len([p for p in (tmp_path / "cache").iterdir() if not p.name.startswith(".")]) == bundle.KEEP_BUNDLES
