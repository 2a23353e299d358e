"""All Python in the repository — machinery, tests and snippets — is ruff-clean."""

import subprocess
import sys
from pathlib import Path

from docsys.paths import ROOT


def test_ruff_is_clean():
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run([str(ruff), "check", "--no-cache", str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_catches_a_planted_fault(tmp_path):
    """The same command, with the project's configuration, on a copy of a module with a planted fault."""
    ruff = Path(sys.executable).with_name("ruff")
    copy = tmp_path / "paths.py"
    copy.write_text((ROOT / "docsys" / "paths.py").read_text() + "\n\ndef unused():\n    import os\n")
    config = f"--config={ROOT / 'pyproject.toml'}"
    proc = subprocess.run([str(ruff), "check", "--no-cache", config, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 1 and "F401" in proc.stdout, proc.stdout + proc.stderr
