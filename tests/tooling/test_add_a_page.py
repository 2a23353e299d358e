"""CONTRIBUTING's promise: a page pair with one example is five files and one nav line, nothing else."""

from __future__ import annotations

from docsys.checks.parity import check_tree
from docsys.checks.site import warnings_of
from docsys.core.check import check
from docsys.core.snippet import load
from tests.tooling.site_fixture import build_copy, text_of


def test_a_new_page_pair_with_one_example_builds_strictly_in_both_languages(fixture_copy):
    before = set(fixture_copy.rglob("*"))
    snippet = fixture_copy / "snippets" / "fresh" / "one.py"
    snippet.parent.mkdir()
    snippet.write_text('import torch\n\nprint(torch.ones(2).sum().item())\n')
    assert check(load(snippet, fixture_copy / "snippets"), update=True).ok  # writes one.out, one.record.json
    for lang, title in (("en", "# One { #one }"), ("zh", "# 一 { #one }")):
        (fixture_copy / "docs" / lang / "one.md").write_text(f"{title}\n\n::: example fresh/one.py\n")
    config = fixture_copy / "mkdocs.yml"
    config.write_text(config.read_text() + "  - one.md\n")
    touched = {p.relative_to(fixture_copy).as_posix() for p in set(fixture_copy.rglob("*")) - before if p.is_file()}
    assert touched == {"snippets/fresh/one.py", "snippets/fresh/one.out", "snippets/fresh/one.record.json",
                       "docs/en/one.md", "docs/zh/one.md"}
    assert check_tree(fixture_copy / "docs") == []
    built = build_copy(fixture_copy)
    assert built.returncode == 0 and warnings_of(built) == [], built.log
    for prefix in (built.path, built.path / "zh"):
        page = text_of((prefix / "one" / "index.html").read_text(encoding="utf-8"))
        assert "print(torch.ones(2).sum().item())" in page and "2.0" in page
