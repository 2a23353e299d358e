"""What the tests of docsys/translations/ share: the small site's pages (tests/fixtures/minisite)
with every translation recorded and committed in a throwaway git repository, and edits to plant in them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from docsys.translations.check import check_tree
from docsys.translations.update import record_new
from tests.tooling import minisite

SLUG = "mixed-precision"
EN_EDIT = ("Mixed precision runs some operations", "Mixed precision runs most operations")
ZH_EDIT = ("混合精度让部分运算", "混合精度让大部分运算")


def _git(repo: Path, *args: str) -> None:
    git = shutil.which("git") or "git"
    subprocess.run([git, "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True)


def recorded_docs(tmp_path: Path) -> Path:
    """The small site's pages with every translation recorded and committed."""
    docs = minisite.write_docs(tmp_path)
    assert "no translation record" in "\n".join(check_tree(docs))
    assert len(record_new(docs)) == 2 and check_tree(docs) == []
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "recorded")
    return docs


def edit(docs: Path, lang: str, change: tuple[str, str]) -> None:
    page = docs / lang / f"{SLUG}.md"
    text = page.read_text(encoding="utf-8")
    assert change[0] in text
    page.write_text(text.replace(*change), encoding="utf-8")
