"""The search hook (docsys/build/search/hook.py) keeps each page's article, and no other page part."""

from __future__ import annotations

from docsys.build.search import hook


def test_only_the_article_is_kept_and_the_404_page_is_not(monkeypatch):
    monkeypatch.setattr(hook, "_state", hook._Build())
    page = type("P", (), {})()
    for uri, dest in (("en/autograd.md", "autograd/index.html"), ("en/404.md", "404.html")):
        page.file = type("F", (), {"src_uri": uri, "dest_uri": dest})()
        html = '<nav>Navigation</nav><article class="md-content__inner md-typeset"><h1>Autograd</h1></article><footer/>'
        hook.on_post_page(html, page, None)
    assert hook._state.pages == {"autograd/index.html": "<h1>Autograd</h1>"}
