"""All Python in the repository — machinery, tests, snippets and the notebook — is ruff-clean."""

import subprocess
import sys
from pathlib import Path

from docsys.core.paths import ROOT


def test_ruff_is_clean():
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run([str(ruff), "check", "--no-cache", str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
