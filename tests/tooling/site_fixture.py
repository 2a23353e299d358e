"""Helpers for the fixture site (tests/fixtures/site): the project's extension and hooks on a few small pages."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

from docsys.checks.site import Build, build

FIXTURE = Path(__file__).parents[1] / "fixtures" / "site"


def text_of(page_html: str) -> str:
    """What a reader reads in a built page's article (tags removed)."""
    article = page_html[page_html.index("<article"):page_html.index("</article>")]
    return html.unescape(re.sub(r"<[^>]+>", "", article))


def copy_fixture(tmp_path: Path) -> Path:
    """A copy of the fixture site to plant a fault in; returns its folder."""
    copy = tmp_path / "site-src"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns(".cache"))
    mkdocs_yml = copy / "mkdocs.yml"  # its hooks are named relative to the fixture's own folder
    hooks = str(FIXTURE.resolve().parents[2] / "docsys" / "build")
    mkdocs_yml.write_text(mkdocs_yml.read_text().replace("../../../docsys/build", hooks), encoding="utf-8")
    return copy


def build_copy(copy: Path) -> Build:
    return build(copy.parent / "built", copy / "mkdocs.yml")

