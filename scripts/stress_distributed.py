"""Launch every multi-process snippet (`# launch:` header) N times, the way the tests do.

    .venv/bin/python scripts/stress_distributed.py --runs 3 [PATTERN ...]

Each launch goes through docsys.snippets.run: torchrun with 2 processes, per-rank output
compared with the recording, every process of the run killed when it ends. Prints one line
per failure, then the totals and any process this script started that is still alive.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docsys.markers import skip_reason
from docsys.snippets import discover, failure_message, run

STRESS_ID_VAR = "DOCSYS_STRESS_ID"


def _processes_started_here() -> list[str]:
    """Live processes (other than this one) that inherited this script's STRESS_ID_VAR:
    every launcher, rank and grandchild started by this run, and nothing else."""
    needle = f"{STRESS_ID_VAR}={os.environ[STRESS_ID_VAR]}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                found.append(f"{entry.name} {cmdline.strip()}")
        except OSError:
            continue
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20, help="launches of each snippet")
    parser.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all launched)")
    args = parser.parse_args()
    chosen = [
        s
        for s in discover()
        if s.launch
        and skip_reason(s.marks) is None
        and (not args.patterns or any(fnmatch.fnmatch(s.rel, p) or p in s.rel for p in args.patterns))
    ]
    os.environ[STRESS_ID_VAR] = uuid.uuid4().hex  # inherited by every process we start
    failures = launches = 0
    start = time.monotonic()
    for i in range(args.runs):
        for snippet in chosen:
            launches += 1
            message = failure_message(snippet, run(snippet))
            if message:
                failures += 1
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
