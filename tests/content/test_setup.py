"""The README's two commands install what each needs (README.md, "Two commands"): `make serve` the venv
and Graphviz, with no root where `dot` is installed; `make test` also Chromium and CJK fonts."""

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
        assert "bash scripts/setup.sh python" in recipes and "bash scripts/setup.sh graphviz" in recipes
        assert "setup.sh system" not in recipes, f"make {target} would install the tests' Debian packages"


def test_test_sets_up_everything_the_tests_need() -> None:
    recipes = _recipes("test")
    for part in ("python", "graphviz", "system"):
        assert f"bash scripts/setup.sh {part}" in recipes


@pytest.fixture
def no_root_path(tmp_path: Path) -> dict[str, str]:
    """A PATH with `dot` but without chromium, fc-list, apt-get or sudo, on which `id -u` is not 0."""
    shims = tmp_path / "bin"
    shims.mkdir()
    for tool in ("dirname", "grep"):
        (shims / tool).symlink_to(shutil.which(tool))
    (shims / "dot").write_text("#!/bin/sh\nexit 0\n")
    (shims / "id").write_text('#!/bin/sh\n[ "$1" = -u ] && echo 1000 && exit 0\nexit 1\n')
    for shim in ("dot", "id"):
        (shims / shim).chmod(0o755)
    return {**os.environ, "PATH": str(shims)}


def _setup(part: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    bash = shutil.which("bash")
    return subprocess.run([bash, "scripts/setup.sh", part], cwd=ROOT, env=env, capture_output=True, text=True)


def test_serving_needs_no_root_where_graphviz_is_installed(no_root_path: dict[str, str]) -> None:
    done = _setup("graphviz", no_root_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_the_tests_ask_for_the_browser_and_fonts_without_root(no_root_path: dict[str, str]) -> None:
    done = _setup("system", no_root_path)
    assert done.returncode == 1
    assert done.stderr.startswith("setup: missing chromium fonts-noto-cjk; install them"), done.stderr
