"""Building the site, for the tests that inspect what a reader gets."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from docsys.core.paths import DEFAULT_LANG, DOCS_DIR, MKDOCS_YML


@dataclass(frozen=True)
class Build:
    path: Path
    returncode: int
    log: str


def build(site_dir: Path, config_file: Path = MKDOCS_YML) -> Build:
    """`mkdocs build --strict` of a site (the real one by default) into site_dir."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config_file), "--site-dir", str(site_dir)],
        cwd=config_file.parent,
        env=env,
        capture_output=True,
        text=True,
    )
    return Build(site_dir, proc.returncode, proc.stdout + proc.stderr)


def warnings_of(result: Build) -> list[str]:
    """The WARNING and ERROR lines of a build's log."""
    return [line for line in result.log.splitlines() if line.startswith(("WARNING", "ERROR"))]


def built_page(site_dir: Path, page: Path, docs_dir: Path = DOCS_DIR) -> Path:
    """Where a docs/<lang>/<slug>.md page lands in the built site."""
    lang, *parts = page.relative_to(docs_dir).with_suffix("").parts
    prefix = site_dir if lang == DEFAULT_LANG else site_dir / lang
    if parts[-1] == "index":
        parts = parts[:-1]
    return prefix.joinpath(*parts, "index.html")
