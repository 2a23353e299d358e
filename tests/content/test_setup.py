"""The README's two commands install what each needs (README.md, "Two commands"): `make serve` the venv,
Graphviz and the CJK fonts, with no root where they are installed; `make test` also Chromium and poppler-utils."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from docsys.core.paths import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _recipes(target: str) -> str:
    """What `make <target>` would run on a fresh clone (-B: every stamp out of date; -n: run nothing)."""
    make = shutil.which("make")
    assert make is not None
    return subprocess.run([make, "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_serve_and_build_set_up_only_what_serving_needs() -> None:
    for target in ("serve", "build"):
        recipes = _recipes(target)
        assert "bash scripts/setup.sh python" in recipes and "bash scripts/setup.sh site" in recipes
        assert "setup.sh system" not in recipes, f"make {target} would install the tests' Debian packages"


def test_test_sets_up_everything_the_tests_need() -> None:
    recipes = _recipes("test")
    for part in ("python", "site", "system"):
        assert f"bash scripts/setup.sh {part}" in recipes


@pytest.fixture
def no_root_path(tmp_path: Path) -> dict[str, str]:
    """A PATH with `dot` and an fc-list that knows Noto Sans CJK SC, but without chromium, pdffonts, apt-get or
    sudo, on which `id -u` is not 0."""
    shims = tmp_path / "bin"
    shims.mkdir()
    for tool in ("dirname", "grep"):
        (shims / tool).symlink_to(shutil.which(tool))
    (shims / "dot").write_text("#!/bin/sh\nexit 0\n")
    (shims / "id").write_text('#!/bin/sh\n[ "$1" = -u ] && echo 1000 && exit 0\nexit 1\n')
    (shims / "fc-list").write_text('#!/bin/sh\necho "/fonts/NotoSansCJK-Regular.ttc: Noto Sans CJK SC:style=Regular"\n')
    for shim in ("dot", "id", "fc-list"):
        (shims / shim).chmod(0o755)
    return {**os.environ, "PATH": str(shims)}


def _setup(part: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    bash = shutil.which("bash")
    return subprocess.run([bash, "scripts/setup.sh", part], cwd=ROOT, env=env, capture_output=True, text=True)


def test_serving_needs_no_root_where_graphviz_and_the_cjk_fonts_are_installed(no_root_path: dict[str, str]) -> None:
    done = _setup("site", no_root_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_serving_asks_for_the_cjk_fonts_without_root(no_root_path: dict[str, str]) -> None:
    """The zh print edition is printed with a subset of Noto Sans CJK SC (docsys/build/print_edition/font.py)."""
    (Path(no_root_path["PATH"]) / "fc-list").write_text("#!/bin/sh\nexit 0\n")
    done = _setup("site", no_root_path)
    assert done.returncode == 1
    assert done.stderr.startswith("setup: missing fonts-noto-cjk; install them"), done.stderr


def test_the_tests_ask_for_the_browser_and_poppler_without_root(no_root_path: dict[str, str]) -> None:
    done = _setup("system", no_root_path)
    assert done.returncode == 1
    assert done.stderr.startswith("setup: missing chromium poppler-utils; install them"), done.stderr
