"""CONTRIBUTING's promise: a page pair with one example is five new files, one nav line and the zh page's
translation record (`make translation`), nothing else."""

from __future__ import annotations

from pathlib import Path

from docsys.checks.parity import check_tree as parity_problems
from docsys.checks.site import warnings_of
from docsys.core.snippet import load
from docsys.core.verdict import check
from docsys.translations.check import check_tree as translation_problems
from docsys.translations.update import record_after_merge
from tests.tooling.site_fixture import build_copy, text_of


def contents(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_new_page_pair_with_one_example_builds_strictly_in_both_languages(fixture_copy):
    docs = fixture_copy / "docs"
    # The fixture's own pairs have no records; in the repository every pair has one before a page is added.
    record_after_merge(docs)
    before = contents(fixture_copy)
    snippet = fixture_copy / "snippets" / "fresh" / "one.py"
    snippet.parent.mkdir()
    snippet.write_text('import torch\n\nprint(torch.ones(2).sum().item())\n')
    assert check(load(snippet, fixture_copy / "snippets"), update=True).ok  # writes one.out, one.record.json
    for lang, title in (("en", "# One { #one }"), ("zh", "# 一 { #one }")):
        (docs / lang / "one.md").write_text(f"{title}\n\n::: example fresh/one.py\n")
    config = fixture_copy / "mkdocs.yml"
    config.write_text(config.read_text() + "  - one.md\n")
    recorded, refused = record_after_merge(docs)  # what `make translation` runs
    assert refused == [] and len(recorded) == 1, recorded
    assert translation_problems(docs) == []
    after = contents(fixture_copy)
    assert set(after) - set(before) == {"snippets/fresh/one.py", "snippets/fresh/one.out",
                                        "snippets/fresh/one.record.json", "docs/en/one.md", "docs/zh/one.md"}
    assert {name for name in before if after.get(name) != before[name]} == {"mkdocs.yml"}
    assert b"translation:" in after["docs/zh/one.md"]  # rewritten by `make translation`: its record
    assert parity_problems(docs) == []
    built = build_copy(fixture_copy)
    assert built.returncode == 0 and warnings_of(built) == [], built.log
    for prefix in (built.path, built.path / "zh"):
        page = text_of((prefix / "one" / "index.html").read_text(encoding="utf-8"))
        assert "print(torch.ones(2).sum().item())" in page and "2.0" in page
