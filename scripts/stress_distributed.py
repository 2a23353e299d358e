"""Launch every multi-process snippet (`# launch:` header) N times, the way the tests do.

    .venv/bin/python scripts/stress_distributed.py --runs 20 [PATTERN ...]

Each launch goes through docsys.snippets.run: torchrun with 2 processes, per-rank output
compared with the recording, every process of the run killed when it ends. Prints one line
per failure, then the totals and any process still alive that looks like a launch.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docsys.snippets import discover, failure_message, run


def _launch_processes(paths: list[str]) -> list[str]:
    """Live processes whose command line is torchrun or one of these snippets (like `pgrep -af`)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if entry.name.isdigit() and ("torchrun" in cmd or any(p in cmd for p in paths)):
            found.append(f"{entry.name} {cmd.strip()}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20, help="launches of each snippet")
    parser.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all launched)")
    args = parser.parse_args()
    chosen = [
        s
        for s in discover()
        if s.launch and (not args.patterns or any(fnmatch.fnmatch(s.rel, p) or p in s.rel for p in args.patterns))
    ]
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
    left = "\n".join(_launch_processes([str(s.path) for s in chosen]))
    print(f"snippets: {', '.join(s.rel for s in chosen)}")
    print(f"launches: {launches}  failures: {failures}  wall: {time.monotonic() - start:.0f} s")
    print(f"leftover processes (torchrun, or a launched snippet): {left or 'none'}")
    return 1 if failures or left else 0


if __name__ == "__main__":
    sys.exit(main())
