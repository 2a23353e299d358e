"""How long an edit takes to show under `mkdocs serve` (the authoring loop), measured as an author sees it.

Starts `mkdocs serve` on a free port, then, `--runs` times each: appends a marker to a page (a page edit)
and to a snippet the page shows (a snippet edit, which also makes its recording stale), and polls the
served page over HTTP until the marker appears — not in a browser, whose live-reload connection never
lets a page settle. Every edit is undone before the next one. Prints each time and the medians.

    .venv/bin/python scripts/serve-latency.py --runs 5
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE, SNIPPET, URL_PATH = ROOT / "docs/en/autograd.md", ROOT / "snippets/autograd/backward.py", "/autograd/"
TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:  # noqa: S310 (our own server)
            return response.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def wait_for(url: str, present: str | None = None, absent: str | None = None) -> float:
    start = time.monotonic()
    while time.monotonic() - start < TIMEOUT_S:
        text = page(url)
        if text and (present is None or present in text) and (absent is None or absent not in text):
            return time.monotonic() - start
        time.sleep(0.05)
    raise TimeoutError(f"{url}: not seen in {TIMEOUT_S:g} s (present={present!r}, absent={absent!r})")


def edit_and_time(path: Path, line: str, url: str) -> float:
    original = path.read_text(encoding="utf-8")
    marker = line.split()[-1]
    try:
        path.write_text(original + line + "\n", encoding="utf-8")
        return wait_for(url, present=marker)
    finally:
        path.write_text(original, encoding="utf-8")
        wait_for(url, absent=marker)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}{URL_PATH}"
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    server = subprocess.Popen([mkdocs, "serve", "--dev-addr", f"127.0.0.1:{port}"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        print(f"served after {wait_for(url):.1f} s")
        times: dict[str, list[float]] = {"page edit": [], "snippet edit": []}
        for _ in range(args.runs):
            times["page edit"].append(edit_and_time(PAGE, f"\nlatency probe p{uuid.uuid4().hex[:12]}", url))
            times["snippet edit"].append(edit_and_time(SNIPPET, f"# latency probe s{uuid.uuid4().hex[:12]}", url))
        for kind, seconds in times.items():
            print(f"{kind}: median {statistics.median(seconds):.2f} s ({', '.join(f'{s:.2f}' for s in seconds)})")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
