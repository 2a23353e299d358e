"""Command line: `python -m docsys record [PATTERN ...]` re-records snippet outputs;
`python -m docsys bench [PATTERN ...]` re-measures benchmarks (outputs and result files);
`python -m docsys gpu [--check] [PATTERN ...]` records GPU outputs with provenance (docsys.gpu)."""

from __future__ import annotations

import argparse
import sys

from docsys.bench import bench_command, is_benchmark, measure
from docsys.gpu import gpu_command, is_gpu_snippet, mark_not_recorded, record_one
from docsys.markers import skip_reason
from docsys.snippets import discover, record, select


def _record(patterns: list[str]) -> int:
    chosen = select(discover(), patterns)
    if not chosen:
        print(f"no snippet matches {patterns}", file=sys.stderr)
        return 2
    failures = 0
    for snippet in chosen:
        reason = skip_reason(snippet.marks)
        if reason:
            note = mark_not_recorded(snippet)  # a GPU snippet this machine cannot run
            print(f"skip     {snippet.rel}: {reason}" + (f"\n         {note}" if note else ""))
            continue
        if is_gpu_snippet(snippet):  # its output and its provenance must come from the same run
            outcome = record_one(snippet)
            failures += not outcome.ok
            print(outcome.message)
            continue
        if is_benchmark(snippet):  # its table and result file must come from the same run
            ok, message = measure(snippet)
            failures += not ok
            print(message)
            continue
        result = record(snippet)
        if result.returncode == 0:
            print(f"recorded {snippet.rel} -> {snippet.output_path.name}")
        else:
            failures += 1
            print(
                f"FAILED   {snippet.rel} (exit {result.returncode}); recording left unchanged\n{result.stderr[-2000:]}"
            )
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docsys")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run snippets and write their outputs beside them")
    rec.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all)")
    bench = sub.add_parser("bench", help="run bench_*.py snippets; write outputs and benchmarks/<machine>/ results")
    bench.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all benchmarks)")
    gpu = sub.add_parser("gpu", help="on a CUDA machine: record every cuda snippet's output with its provenance")
    gpu.add_argument("--check", action="store_true", help="also fail when a recorded GPU output no longer matches")
    gpu.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all GPU snippets)")
    args = parser.parse_args(argv)
    if args.command == "gpu":
        return gpu_command(args.patterns, check=args.check)
    if args.command == "record":
        return _record(args.patterns)
    if args.command == "bench":
        return bench_command(args.patterns)
    return 2


if __name__ == "__main__":
    sys.exit(main())
