"""Link checking of the built site (lychee, offline): every internal link and #anchor resolves, in both languages."""

from __future__ import annotations

from docsys.checks.links import check_site
from docsys.checks.site import TEST_REPO_URL
from docsys.core.paths import ARTIFACTS_DIR


def test_every_internal_link_and_anchor_resolves(built_site):
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    report = check_site(built_site.path)
    assert report.checked > 0
    # CI has no internet: external links are listed for a person to review (the run names the file), never failed.
    # Not the edit, view and report links: the tests build them for a placeholder repository (TEST_REPO_URL).
    external = [url for url in report.external if not url.startswith(TEST_REPO_URL + "/")]
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    (ARTIFACTS_DIR / "external-links.txt").write_text(
        f"# {len(external)} external links of the built site, not checked (offline)\n"
        + "".join(f"{url}\n" for url in external)
    )
    assert not report.broken, f"{len(report.broken)} broken link(s):\n" + "\n".join(report.broken)
