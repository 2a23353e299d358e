"""A small site built with the project's own mkdocs.yml, for planting faults the site checks must catch.

The pages are the few under tests/fixtures/minisite/docs, not a copy of docs/, so the fault tests stay
fast and do not depend on pages that are being written; everything else (theme, overrides, i18n,
search, hooks, assets) is the real configuration. A test writes its fault into a copy, then builds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from docsys.checks.site import Build
from docsys.core.paths import DOCS_DIR, MKDOCS_YML, ROOT
from tests.once import once_per_run

NAV = ["index.md", "mixed-precision.md"]  # as mkdocs.yml: each page titled by its own first heading

_BUILD = """\
import json, logging, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
logging.basicConfig(level=logging.INFO, format="%(levelname)s - %(message)s")
args = json.loads(sys.argv[1])
config = load_config(
    args["config"], docs_dir=args["docs_dir"], site_dir=args["site_dir"], nav=args["nav"], strict=False,
    **args["settings"]
)
# The hooks keep their caches and find notebooks beside mkdocs.yml: make that the small site's folder.
config.config_file_path = args["project_file"]
if args["without_overrides"]:  # the theme as Material ships it, without overrides/ (custom_dir)
    config.theme.dirs = [d for d in config.theme.dirs if d != args["overrides"]]
config.plugins.on_startup(command="build", dirty=False)
try:
    build(config)
finally:
    config.plugins.on_shutdown()
"""


PAGES = Path(__file__).parents[1] / "fixtures" / "minisite" / "docs"


def write_docs(tmp: Path) -> Path:
    """A copy of the small docs tree, with the real docs/assets/, under tmp/docs; returns it."""
    docs = tmp / "docs"
    shutil.copytree(PAGES, docs)
    shutil.copytree(DOCS_DIR / "assets", docs / "assets")
    return docs


def build(
    docs: Path,
    site_dir: Path,
    without_overrides: bool = False,
    nav: list | None = None,
    settings: dict | None = None,
    env: dict[str, str] | None = None,
) -> Build:
    """Build a docs tree with the project's mkdocs.yml (and its hooks); optionally without overrides/, with
    more mkdocs.yml settings, or with environment variables (REPO_URL is unset unless `env` sets it).

    Not strict: hooks rightly warn about products (graphs, tables) that no page of the small site
    shows. The checks under test must find the planted fault by themselves.
    """
    args = {
        "config": str(MKDOCS_YML),
        "docs_dir": str(docs),
        "site_dir": str(site_dir),
        "nav": NAV if nav is None else nav,
        "overrides": str(ROOT / "overrides"),
        "without_overrides": without_overrides,
        "project_file": str(docs.parent / "mkdocs.yml"),
        "settings": settings or {},
    }
    proc = subprocess.run(
        [sys.executable, "-c", _BUILD, json.dumps(args)],
        cwd=ROOT,
        # The zh print edition's font subset is keyed by its characters: share the project's (seconds each).
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "REPO_URL": "",
             "PRINT_FONT_CACHE_DIR": str(ROOT / ".cache" / "print-font"), **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )
    result = Build(site_dir, proc.returncode, proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError(f"small site build failed:\n{result.log}")
    return result


def shared(tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str, make: Callable[[Path], Path]) -> Path:
    """make(folder) once per test run, shared by the workers (tests/once.py); returns what make returned
    (a site folder); a failed make is raised again in every worker."""

    def attempt(folder: Path) -> dict:
        try:
            return {"path": str(make(folder))}
        except RuntimeError as error:
            return {"error": str(error)}

    result = once_per_run(tmp_path_factory, worker_id, name, attempt)
    if "error" in result:
        raise RuntimeError(result["error"])
    return Path(result["path"])
