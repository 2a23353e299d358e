"""Building the site, for the tests that inspect what a reader gets."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from docsys.paths import DEFAULT_LANG, DOCS_DIR, ROOT


@dataclass(frozen=True)
class Build:
    path: Path
    returncode: int
    log: str


def build(site_dir: Path) -> Build:
    """`mkdocs build --strict` of the whole site into site_dir."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return Build(site_dir, proc.returncode, proc.stdout + proc.stderr)


def built_page(site_dir: Path, page: Path) -> Path:
    """Where a docs/<lang>/<slug>.md page lands in the built site."""
    lang, *parts = page.relative_to(DOCS_DIR).with_suffix("").parts
    prefix = site_dir if lang == DEFAULT_LANG else site_dir / lang
    if parts[-1] == "index":
        parts = parts[:-1]
    return prefix.joinpath(*parts, "index.html")
