"""docsys/build/highlight_cache.py: a warm build reuses the last build's highlighted code, and only that."""

from __future__ import annotations

import json
from types import SimpleNamespace

import markdown
import pytest
from pymdownx import highlight

from docsys.build import highlight_cache

PAGE = "```python\nx = torch.ones(2)\n```\n"


@pytest.fixture
def hook(tmp_path, monkeypatch):
    monkeypatch.setattr(highlight.Highlight, "highlight", highlight_cache._original)
    monkeypatch.setattr(highlight_cache, "_previous", {})
    monkeypatch.setattr(highlight_cache, "_current", {})
    monkeypatch.setattr(highlight_cache, "_used", {})
    config = SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml"))
    yield config, tmp_path / highlight_cache.CACHE_FILE


def _build(config) -> str:
    highlight_cache.on_config(config)
    html = markdown.Markdown(extensions=["pymdownx.highlight", "pymdownx.superfences"]).convert(PAGE)
    highlight_cache.on_post_build(config)
    return html


def _restart():
    """A new `mkdocs build` process: nothing kept in memory."""
    highlight_cache._previous.clear()
    highlight_cache._current.clear()
    highlight_cache._used.clear()


def test_a_warm_build_gives_the_same_html_without_running_pygments(hook, monkeypatch):
    config, cache = hook
    cold = _build(config)
    assert cache.exists() and len(json.loads(cache.read_text())) == 1
    _restart()
    calls = []
    monkeypatch.setattr(highlight_cache, "_original", lambda *a, **k: calls.append(a) or "never used")
    assert _build(config) == cold
    assert calls == []


def test_changed_code_or_options_are_highlighted_again(hook):
    config, _ = hook
    _build(config)
    _restart()
    highlight_cache.on_config(config)
    other = markdown.Markdown(extensions=["pymdownx.highlight", "pymdownx.superfences"],
                              extension_configs={"pymdownx.highlight": {"linenums": True}})
    assert "linenos" in other.convert(PAGE) or "linenums" in other.convert(PAGE)
    assert len(highlight_cache._current) == 1 and not set(highlight_cache._current) & set(highlight_cache._previous)


def test_a_damaged_cache_is_rebuilt_not_trusted(hook):
    config, cache = hook
    cache.parent.mkdir(parents=True)
    cache.write_text("{not json")
    assert "highlight" in _build(config)
    assert json.loads(cache.read_text())


def test_under_serve_each_rebuild_keeps_only_its_own_blocks(hook):
    """`mkdocs serve` builds again in the same process after every edit: the cache holds the blocks of the
    last two configured builds (one per language), not every version of an edited block."""
    global PAGE
    config, cache = hook
    original = PAGE
    try:
        for n in range(4):  # four edits of one block, no restart
            PAGE = f"```python\nx = torch.ones({n})\n```\n"
            _build(config)
        assert len(json.loads(cache.read_text())) == 2
    finally:
        PAGE = original


def test_a_build_of_two_languages_keeps_both_languages_blocks(hook, monkeypatch):
    """mkdocs-static-i18n configures a build per language in one process: the second must not drop the first's
    blocks (seen once: the zh build cleared them, and every warm build highlighted all en blocks again)."""
    global PAGE
    config, _ = hook
    original = PAGE
    try:
        for code in ("x = 1", "y = 2"):  # en, then zh, in one `mkdocs build`
            PAGE = f"```python\n{code}\n```\n"
            _build(config)
        _restart()
        calls = []
        monkeypatch.setattr(highlight_cache, "_original", lambda *a, **k: calls.append(a) or "never used")
        for code in ("x = 1", "y = 2"):
            PAGE = f"```python\n{code}\n```\n"
            _build(config)
        assert calls == []
    finally:
        PAGE = original
