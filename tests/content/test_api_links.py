"""The symbol map (docsys/core/api_links.toml) against the pinned torch and the real pages, and the API names
it links on the built site, in both languages."""

from __future__ import annotations

import re

from docsys.checks import api_docs
from docsys.checks.site import built_page
from docsys.core import api_links
from docsys.core.paths import DOCS_DIR, LANGS

API_MAP = api_links.load()
NO_GRAD = "https://docs.pytorch.org/docs/stable/generated/torch.no_grad.html"
HEADING_RE = re.compile(r"<h([1-6])\b.*?</h\1>", re.S)


def test_every_mapped_name_resolves_in_the_pinned_torch():
    """A renamed or removed API is one line naming it and the map (the build says the same, cached)."""
    assert api_links.unresolved(API_MAP) == []


def test_the_official_documentation_lists_agree_with_the_map():
    problems = api_docs.all_official_docs_problems(API_MAP)
    assert not problems, "\n".join(problems)


def test_every_map_url_is_linked_by_a_page_or_on_the_generated_page_pattern():
    problems = api_docs.unsourced_urls(API_MAP)
    assert not problems, "\n".join(problems)


def test_prose_api_names_link_to_their_reference_on_both_languages_pages(built_site):
    """autograd's prose writes `torch.no_grad()` in its first sections (its Official documentation list does not
    link it): the build links it there, in both languages, and never inside a heading."""
    unlinked, in_headings = [], []
    for lang in LANGS:
        html = built_page(built_site.path, DOCS_DIR / lang / "autograd.md").read_text(encoding="utf-8")
        unlinked += [lang] if f'<a href="{NO_GRAD}"><code>torch.no_grad()</code></a>' not in html else []
        in_headings += [lang for h in HEADING_RE.finditer(html) if "docs.pytorch.org" in h.group(0)]
    assert not unlinked, f"autograd: torch.no_grad() not linked in {unlinked}"
    assert not in_headings, f"autograd: a heading holds an API link in {sorted(set(in_headings))}"
