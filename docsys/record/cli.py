"""`python -m docsys record [--gpu] [--check] [--budget S] [PATTERN ...]`

Runs the chosen snippets (all, or those whose path matches a glob or substring) with the reader's
command, and writes each recording as soon as it has it (docsys.core.verdict). One entry point for
every kind: plain scripts, benchmarks (refused on a busy machine), launched (torchrun) scripts,
and, with `--gpu`, the snippets marked cuda/multi_gpu on a CUDA machine.

Without `--gpu`, a snippet this machine cannot run is skipped with its marker's reason; a GPU
snippet whose recording is stale is forgotten, so its page says "not yet recorded on a GPU".

With `--gpu` (a lent GPU has minutes, not hours): GPU snippets run in priority order — their
`# estimate:` seconds, quickest first, so the most evidence fits — and those already recorded
from their current source are skipped, so a second call resumes where the first stopped
(`--force` re-records them). `--budget S` starts no snippet whose estimate no longer fits in S
seconds. `--check` also fails when a GPU output that was recorded before has changed.

Imports only the standard library, torch and docsys.core (tests/tooling/test_record_cli.py
holds it to that): the GPU machine has no MkDocs.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time

from docsys.core import recording
from docsys.core.machine import facts
from docsys.core.markers import skip_reason
from docsys.core.normalize import normalize
from docsys.core.paths import NOTEBOOKS_DIR, ROOT
from docsys.core.snippet import Snippet, discover, select
from docsys.core.verdict import check

DEFAULT_ESTIMATE_S = 60.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m docsys")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run snippets and record their outputs with provenance")
    rec.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all)")
    rec.add_argument("--gpu", action="store_true", help="record the snippets marked cuda/multi_gpu (on a GPU)")
    rec.add_argument("--check", action="store_true", help="with --gpu: fail when a recorded output changed")
    rec.add_argument("--force", action="store_true", help="with --gpu: re-record current recordings too")
    rec.add_argument("--budget", type=float, default=None, help="with --gpu: seconds available for the whole run")
    return parser


def gpu_order(snippets: list[Snippet]) -> list[Snippet]:
    """Quickest first: with a fixed loan of GPU time, the most recordings fit."""
    return sorted(snippets, key=lambda s: (s.estimate or DEFAULT_ESTIMATE_S, s.rel))


def _record_here(snippet: Snippet) -> str:
    if reason := skip_reason(snippet.marks):
        if snippet.platform == "cuda" and recording.state(snippet) == recording.STALE:
            recording.forget(snippet)
            return f"skip     {snippet.rel}: {reason}\n         stale GPU recording removed: pages say not yet recorded"
        return f"skip     {snippet.rel}: {reason}"
    return ""


def record_cpu(chosen: list[Snippet]) -> int:
    failures = 0
    for snippet in chosen:
        if skipped := _record_here(snippet):
            print(skipped, flush=True)
            continue
        outcome = check(snippet, update=True)
        failures += not outcome.ok
        print(outcome.message, flush=True)
    return 1 if failures else 0


def not_now(snippet: Snippet, force: bool, left: float | None) -> str | None:
    """Why a GPU run does not record this snippet now (None: record it)."""
    if reason := skip_reason(snippet.marks):
        return f"skip     {snippet.rel}: {reason}"
    if not force and recording.state(snippet) == recording.CURRENT:
        return f"current  {snippet.rel} (recorded {recording.read(snippet).date}; --force re-records)"
    estimate = snippet.estimate or DEFAULT_ESTIMATE_S
    if left is not None and estimate > left:
        return f"later    {snippet.rel}: estimate {estimate:g} s > {left:.0f} s left"
    return None


def record_gpu(chosen: list[Snippet], check_changes: bool, force: bool, budget: float | None) -> int:
    if reason := skip_reason(["cuda"]):
        print(f"cannot record GPU outputs here: {reason}", file=sys.stderr)
        return 3
    info = facts()
    print(f"recording on {info['gpu']} x{info['gpu_count']} (driver {info['driver']}), torch {info['torch']}, "
          f"CUDA {info['cuda']}", flush=True)
    start, failures, changed = time.monotonic(), 0, []
    for snippet in gpu_order(chosen):
        left = None if budget is None else budget - (time.monotonic() - start)
        if reason := not_now(snippet, force, left):
            print(reason, flush=True)
        else:
            before = snippet.output_path.read_text(encoding="utf-8") if snippet.output_path.exists() else None
            outcome = check(snippet, update=True)
            failures += not outcome.ok
            print(outcome.message, flush=True)
            after = snippet.output_path.read_text(encoding="utf-8") if snippet.output_path.exists() else None
            if outcome.ok and before is not None and normalize(before) != normalize(after or ""):
                changed.append(snippet.rel)
    took = time.monotonic() - start
    print(f"\n{took:.0f} s; {failures} failed; changed since their last recording: {changed or 'none'}")
    return 1 if failures or (check_changes and changed) else 0


def notebook_sources(patterns: list[str]) -> list[str]:
    """`notebooks/<name>.py` sources a CPU recording run covers: all, or those a pattern names."""
    found = sorted(p.relative_to(ROOT).as_posix() for p in NOTEBOOKS_DIR.glob("*.py"))
    return [rel for rel in found if not patterns or any(fnmatch.fnmatch(rel, p) or p in rel for p in patterns)]


def record_notebooks(sources: list[str]) -> int:
    from docsys.record import notebook  # jupytext and nbclient: the site's environment, not a GPU machine's

    failures = 0
    for rel in sources:
        ok, message = notebook.record(rel)
        failures += not ok
        print(message, flush=True)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.gpu and args.patterns and all(p.startswith("notebooks/") for p in args.patterns):
        return record_notebooks(notebook_sources(args.patterns)) if notebook_sources(args.patterns) else 2
    snippets = discover()
    if args.gpu:
        snippets = [s for s in snippets if s.platform == "cuda"]
    chosen = select(snippets, args.patterns)
    if not chosen:
        print(f"no snippet matches {args.patterns}", file=sys.stderr)
        return 2
    if args.gpu:
        return record_gpu(chosen, args.check, args.force, args.budget)
    status = record_cpu(chosen)
    if not args.patterns:
        status |= record_notebooks(notebook_sources([]))
    return status
