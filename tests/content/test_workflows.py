"""The GitHub Actions workflows: zizmor (with .github/zizmor.yml) finds nothing, and neither do the
project's own rules (docsys.checks.workflows)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from docsys.checks.workflows import WORKFLOWS_DIR, load, problems, readme_test_command
from docsys.core.paths import ROOT


def test_project_rules_hold():
    found = problems(load(), readme_test_command())
    assert not found, "\n".join(found)


def test_ci_runs_exactly_what_the_readme_says():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert readme_test_command() in lines


def test_zizmor_finds_nothing():
    zizmor = Path(sys.executable).with_name("zizmor")
    assert zizmor.exists(), "zizmor is not installed in this environment; run `make setup` (requirements.txt pins it)"
    files = [str(f) for f in sorted(WORKFLOWS_DIR.glob("*.y*ml"))]
    config = ROOT / ".github" / "zizmor.yml"
    proc = subprocess.run([str(zizmor), "--offline", "--no-progress", f"--config={config}", *files],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
