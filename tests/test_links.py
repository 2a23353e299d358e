"""Link checking of the built site (lychee, offline): every internal link and #anchor resolves, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsys import minisite
from docsys.links import check_site
from docsys.paths import ARTIFACTS_DIR

pytestmark = pytest.mark.xdist_group("site")


def test_every_internal_link_and_anchor_resolves(built_site):
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    report = check_site(built_site.path)
    assert report.checked > 0
    # CI has no internet: external links are listed for a person to review (the run names the file), never failed.
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    (ARTIFACTS_DIR / "external-links.txt").write_text(
        f"# {len(report.external)} external links of the built site, not checked (offline)\n"
        + "".join(f"{url}\n" for url in report.external)
    )
    assert not report.broken, f"{len(report.broken)} broken link(s):\n" + "\n".join(report.broken)


@pytest.mark.xdist_group("small-site")  # needs no full build: may run beside the full site's tests
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
