"""Run every example the tests run, once each, as a reader runs it; print the wall time.

`make test` runs each example once (docsys.checks.collect) besides its checks; what the suite costs
beyond the examples themselves is its wall time minus this script's, measured on the same idle
machine with as many examples at a time as the suite has workers:

    .venv/bin/python scripts/time-examples.py --jobs 2

Examples are the snippets shown on the English pages that this machine can run (markers decide, as
in the tests), each with `python snippets/<slug>/<name>.py` or its torchrun line in a fresh process
(docsys.core.runner.run without the tests' fork server), and the notebook with `python notebooks/<name>.py`.
Longest first, as the suite schedules them.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from docsys.core import recording
from docsys.core.markers import skip_reason
from docsys.core.paths import NOTEBOOKS_DIR, ROOT, SNIPPETS_DIR
from docsys.core.runner import run
from docsys.core.snippet import load

ITEM = re.compile(r"^docs/en/[^:]+\.md::(\S+\.py)$", re.M)


def examples() -> list:
    """The snippets the tests run as examples, from pytest's own collection of the pages."""
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "docs/en"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    snippets = [load(SNIPPETS_DIR / rel, SNIPPETS_DIR) for rel in ITEM.findall(listed)]
    return [s for s in snippets if skip_reason(list(s.marks)) is None]


def _seconds(snippet) -> float:
    found = recording.read(snippet)
    return float(found.data.get("seconds", 0.0)) if found else 0.0


def _run_notebook(source: Path) -> tuple[str, float, int]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(source)], cwd=ROOT, capture_output=True, text=True)
    return f"notebooks/{source.name}", time.monotonic() - start, done.returncode


def _run_snippet(snippet) -> tuple[str, float, int]:
    result = run(snippet)
    return snippet.rel, result.seconds, result.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="examples at a time (the suite's workers)")
    parser.add_argument("--json", type=Path, help="also write each example's seconds to this file")
    args = parser.parse_args()
    jobs = [(_seconds(s), _run_snippet, s) for s in examples()]
    jobs += [(60.0, _run_notebook, source) for source in sorted(NOTEBOOKS_DIR.glob("*.py"))]
    jobs.sort(key=lambda job: -job[0])
    start = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda job: job[1](job[2]), jobs))
    wall = time.monotonic() - start
    failed = [name for name, _, code in done if code != 0]
    if args.json:
        args.json.write_text(json.dumps({name: round(seconds, 2) for name, seconds, _ in done}, indent=1) + "\n")
    for name, seconds, code in sorted(done, key=lambda d: -d[1])[:10]:
        print(f"{seconds:7.1f} s  {name}{'' if code == 0 else f'  (exit {code})'}")
    print(f"{len(done)} examples, {args.jobs} at a time: {wall:.1f} s wall, {sum(d[1] for d in done):.1f} s summed")
    if failed:
        print(f"failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
