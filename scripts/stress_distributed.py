"""Launch every multi-process snippet (`# launch:` header) N times, the way the tests do.

    .venv/bin/python scripts/stress_distributed.py --runs 3 [PATTERN ...]

Each launch goes through docsys.core.verdict, as the tests do: torchrun with 2 processes, per-rank
output compared with the recording, every process of the run killed when it ends. Prints one line
per failure, then the totals and any process this script started that is still alive.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docsys.core.markers import skip_reason
from docsys.core.processes import with_env
from docsys.core.snippet import discover, select
from docsys.core.verdict import check

STRESS_ID_VAR = "DOCSYS_STRESS_ID"


def _processes_started_here() -> list[str]:
    """Every launcher, rank and grandchild started by this run (they inherit STRESS_ID_VAR)."""
    return [f"{pid} {cmd}" for pid, cmd in with_env(STRESS_ID_VAR, os.environ[STRESS_ID_VAR])]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20, help="launches of each snippet")
    parser.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all launched)")
    args = parser.parse_args()
    chosen = [s for s in select(discover(), args.patterns) if s.launch and skip_reason(s.marks) is None]
    os.environ[STRESS_ID_VAR] = uuid.uuid4().hex  # inherited by every process we start
    failures = launches = 0
    start = time.monotonic()
    for i in range(args.runs):
        for snippet in chosen:
            launches += 1
            outcome = check(snippet)
            if not outcome.ok:
                failures += 1
                message = outcome.message
                print(f"run {i + 1} FAILED {message.splitlines()[0]}\n  " + "\n  ".join(message.splitlines()[-6:]))
        print(f"round {i + 1}/{args.runs}: {launches} launches, {failures} failures", flush=True)
    time.sleep(1)
    left = "\n".join(_processes_started_here())
    print(f"snippets: {', '.join(s.rel for s in chosen)}")
    print(f"launches: {launches}  failures: {failures}  wall: {time.monotonic() - start:.0f} s")
    print(f"leftover processes started by this run: {left or 'none'}")
    return 1 if failures or left else 0


if __name__ == "__main__":
    sys.exit(main())
