"""All Python in the repository — machinery, tests, snippets and the notebook — is ruff-clean, and docsys's
rooms import only what their rules allow (import-linter's contracts in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

from docsys.core.paths import ROOT


def test_ruff_is_clean():
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run([str(ruff), "check", "--no-cache", str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_each_room_imports_only_what_its_rule_allows():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    broken = [line for line in proc.stdout.splitlines() if line.endswith("BROKEN") or " -> " in line]
    assert proc.returncode == 0, "a room imports what its rule forbids (pyproject.toml, [tool.importlinter]):\n" + (
        "\n".join(broken) or proc.stdout[-3000:] + proc.stderr[-2000:])
