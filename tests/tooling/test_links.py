"""docsys.checks.links: lychee finds what a strict build lets through, in both languages."""

from __future__ import annotations

from pathlib import Path

from docsys.checks.links import check_site
from tests.tooling import minisite


def test_planted_broken_links_are_caught(tmp_path: Path):
    """Faults the strict build lets through (raw HTML is not validated by MkDocs), in both languages."""
    docs = minisite.write_docs(tmp_path)
    assert check_site(minisite.build(docs, tmp_path / "clean").path).broken == []
    en, zh = docs / "en" / "mixed-precision.md", docs / "zh" / "mixed-precision.md"
    en.write_text(en.read_text() + '\n<a href="../no-such-page/">gone</a> <img src="../assets/no-such.png">\n')
    zh.write_text(zh.read_text() + '\n<a href="../#no-such-anchor">首页</a>\n')
    broken = "\n".join(check_site(minisite.build(docs, tmp_path / "faulty").path).broken)
    assert "mixed-precision/index.html: /no-such-page (File not found" in broken
    assert "mixed-precision/index.html: /assets/no-such.png (File not found" in broken
    assert "zh/mixed-precision/index.html: /zh#no-such-anchor (Cannot find fragment)" in broken
