"""Lighthouse scores of the built site, served with gzip as a static host serves it.

Usage: .venv/bin/python scripts/lighthouse.py [--runs N] [--all] [--reports DIR] [SITE_DIR] [PATH ...]
(default: site/, and a text page, a graph page, the notebook and the benchmarks, in both languages;
--all: every page of the built site, both languages; with --runs N each score is the median of N runs:
one run's total blocking time on a code-heavy page ranged 158-568 ms on this machine, a performance
score of 85-97; --reports DIR keeps each run's JSON report there, for the audits behind a score)

Needs Lighthouse 12.2.3 outside the repository (CONTRIBUTING.md, "Site checks"):
    npm install --prefix /opt/lh lighthouse@12.2.3
and runs it against Debian's chromium. A measurement for a person, not a test: each page takes
20-40 s. python -m http.server would not do: it compresses nothing, which costs ~30 points.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from docsys.checks.browser import CHROMIUM
from docsys.checks.downloads import serve_gzip

LIGHTHOUSE = Path(os.environ.get("LIGHTHOUSE", "/opt/lh/node_modules/.bin/lighthouse"))
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = [f"{lang}{page}" for page in ("/autograd/", "/visualizing-graphs/", "/notebooks/speed-up-training/",
                                      "/benchmarks/") for lang in ("", "/zh")]


def scores(url: str, keep: Path | None = None) -> dict[str, int]:
    """The four category scores (0-100) of one page, mobile emulation, Lighthouse's defaults; the
    report is written to `keep` when given."""
    with tempfile.TemporaryDirectory() as tmp:
        report = keep or Path(tmp) / "report.json"
        flags = "--headless=new --no-sandbox --disable-gpu"
        command = [str(LIGHTHOUSE), url, f"--only-categories={','.join(CATEGORIES)}", "--output=json",
                   f"--output-path={report}", f"--chrome-flags={flags}", "--quiet"]
        subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300)
        result = json.loads(report.read_text(encoding="utf-8"))
    return {c: round(result["categories"][c]["score"] * 100) for c in CATEGORIES}


def median_scores(url: str, runs: int, reports: Path | None, path: str) -> dict[str, int]:
    name = path.strip("/").replace("/", "_") or "home"
    rows = [scores(url, reports / f"{name}.{run}.json" if reports else None) for run in range(runs)]
    return {c: round(statistics.median(row[c] for row in rows)) for c in CATEGORIES}


def every_page(site: Path) -> list[str]:
    """The URL path of every page of a built site (each folder with an index.html), in file order."""
    folders = (index.parent.relative_to(site).as_posix() for index in site.rglob("index.html"))
    return sorted("/" if folder == "." else f"/{folder}/" for folder in folders)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page; each score is their median")
    parser.add_argument("--all", action="store_true", help="every page of the built site")
    parser.add_argument("--reports", type=Path, help="keep each run's JSON report in this folder")
    parser.add_argument("site", nargs="?", default="site")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        print(f"lighthouse: {LIGHTHOUSE} not found; npm install --prefix /opt/lh lighthouse@12.2.3", file=sys.stderr)
        return 1
    site = Path(args.site)
    if not (site / "index.html").exists():
        print(f"lighthouse: {site} is not a built site; run `make build` first", file=sys.stderr)
        return 1
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    paths = args.paths or (every_page(site) if args.all else PAGES)
    with serve_gzip(site) as base:
        print(f"| page | {' | '.join(CATEGORIES)} |\n|---|{'---|' * len(CATEGORIES)}")
        for path in paths:
            row = median_scores(base + path, args.runs, args.reports, path)
            print(f"| {path} | {' | '.join(str(row[c]) for c in CATEGORIES)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
