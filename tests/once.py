"""Work done once per test run and shared by the pytest-xdist workers (a site build)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def once_per_run(tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str,
                 make: Callable[[Path], dict]) -> dict:
    """make(folder) once per test run: the first worker to ask runs it in the run's shared temporary
    folder (the workers' common parent), the others wait for it; every worker gets what it returned
    (JSON data, kept beside the folder)."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    done = shared / f"{name}.json"
    with FileLock(str(shared / f"{name}.lock")):
        if not done.exists():
            done.write_text(json.dumps(make(shared / name)), encoding="utf-8")
    return json.loads(done.read_text(encoding="utf-8"))
