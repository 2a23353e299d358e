"""GPU recordings: the outputs of `cuda` snippets, recorded only on a real GPU, with provenance.

`python -m docsys gpu` (`make gpu`) runs, on a CUDA machine, every snippet marked `cuda`
(and `multi_gpu` when two or more GPUs are visible) — benchmarks included — and writes
beside each one:

    <name>.out        what it printed (a benchmark also writes its result file, docsys.bench)
    <name>.gpu.json   where it was recorded: GPU, driver, CUDA, torch, Python, date, and the
                      SHA-256 of the snippet source that printed it

`--check` does the same and also fails when an output that was already recorded no longer
matches (after `docsys.snippets.normalize`), or was recorded from an older version of the
snippet. The GPU workflow runs it; the run's recordings are left in the tree to be kept.

A GPU snippet is in one of two honest states, and the tests hold it there:
- recorded: its `.gpu.json` exists and matches the current snippet source;
- not yet recorded: it has no `.gpu.json`, and its `.out` is empty or absent (`make record`
  on a machine without a GPU writes the empty placeholder a page can include). Pages then say "not yet recorded on a
  GPU" in place of the output (docsys.gpu_outputs, a build hook).

Imports: the standard library, and docsys modules that import only the standard library.
The GPU machine has Python, torch, pytest and numpy and nothing else (no MkDocs, no
internet); tests/test_gpu.py checks that this command imports nothing more.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from docsys.bench import is_benchmark
from docsys.machine import facts as machine
from docsys.markers import skip_reason
from docsys.snippets import Snippet, discover, normalize, output_diff, record, select, source_sha256

GPU_MARKS = ("cuda", "multi_gpu")
PROVENANCE_SUFFIX = ".gpu.json"
COMMAND = "python -m docsys gpu"


def is_gpu_snippet(snippet: Snippet) -> bool:
    return any(mark in GPU_MARKS for mark in snippet.marks)


def gpu_snippets(root: Path | None = None) -> list[Snippet]:
    return [s for s in (discover(root) if root else discover()) if is_gpu_snippet(s)]


def provenance_path(snippet: Snippet) -> Path:
    return snippet.path.with_name(snippet.path.stem + PROVENANCE_SUFFIX)


def read_provenance(snippet: Snippet) -> dict | None:
    path = provenance_path(snippet)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


# ----------------------------------------------------------------------------- states

RECORDED = "recorded"
NOT_RECORDED = "not yet recorded"
STALE = "stale"


def state(snippet: Snippet) -> str:
    """`recorded`, `not yet recorded`, or `stale` (recorded from an older source)."""
    prov = read_provenance(snippet)
    if prov is None:
        return NOT_RECORDED
    return RECORDED if prov.get("source_sha256") == source_sha256(snippet.path) else STALE


def problems(snippets: list[Snippet]) -> list[str]:
    """Why the recordings of these GPU snippets are not honest, one line each."""
    found = []
    for s in snippets:
        out, prov = s.output_path, provenance_path(s)
        fix = f"`make record SNIPPETS={s.rel}` here marks it not yet recorded; `make gpu` on a GPU records it"
        if not out.exists():
            continue  # not yet recorded; a page that includes it is told by tests/test_gpu.py
        if not prov.exists() and out.read_text(encoding="utf-8").strip():
            found.append(
                f"{s.rel}: {out.name} has output but no {prov.name}: a GPU output must come from `make gpu`; {fix}"
            )
        elif prov.exists() and state(s) == STALE:
            found.append(f"{s.rel}: changed since its GPU recording of {read_provenance(s).get('date')}; {fix}")
    return found


def orphan_provenance(root: Path) -> list[Path]:
    """`.gpu.json` files whose snippet is gone or is no longer marked for a GPU."""
    orphans = []
    for path in sorted(root.rglob(f"*{PROVENANCE_SUFFIX}")):
        snippet_path = path.with_name(path.name.removesuffix(PROVENANCE_SUFFIX) + ".py")
        if not snippet_path.exists() or not is_gpu_snippet(_load(snippet_path)):
            orphans.append(path)
    return orphans


def _load(path: Path) -> Snippet:
    from docsys.snippets import load

    return load(path)


def mark_not_recorded(snippet: Snippet) -> str | None:
    """On a machine that cannot run it: make a missing or stale recording say "not yet
    recorded" (empty `.out`, no `.gpu.json`). Returns what was done, or None."""
    if not is_gpu_snippet(snippet):
        return None
    current = state(snippet)
    if current != STALE and (snippet.output_path.exists() or is_benchmark(snippet)):
        return None  # a benchmark's page shows its result file, not its `.out`
    snippet.output_path.write_text("", encoding="utf-8")
    provenance_path(snippet).unlink(missing_ok=True)
    why = "changed since its GPU recording" if current == STALE else "never recorded"
    return f"{why}: wrote an empty {snippet.output_path.name} (pages say: not yet recorded on a GPU)"


# ----------------------------------------------------------------------------- provenance


def provenance(snippet: Snippet, seconds: float, now: dt.datetime | None = None) -> dict:
    now = now or dt.datetime.now(dt.UTC)
    return {
        "snippet": snippet.rel,
        **machine(),
        "date": now.strftime("%Y-%m-%d"),
        "recorded_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seconds": round(seconds, 2),
        "source_sha256": source_sha256(snippet.path),
        "command": f"{COMMAND} {snippet.rel}",
    }


def write_provenance(snippet: Snippet, prov: dict) -> Path:
    path = provenance_path(snippet)
    path.write_text(json.dumps(prov, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


TEXT = {
    "en": {
        "recorded": "Recorded on a GPU: {line}",
        "line": "{gpu} (driver {driver}), torch {torch}, CUDA {cuda}, {date}",
        "not_recorded": "Not yet recorded on a GPU",
        "not_recorded_body": (
            "This example needs a CUDA GPU and has not been run on one yet. Its output appears here once "
            "`make gpu` has recorded it on a GPU; no output from another machine is shown in its place."
        ),
    },
    "zh": {
        "recorded": "GPU 输出录制环境：{line}",
        "line": "{gpu}（驱动 {driver}），torch {torch}，CUDA {cuda}，{date}",
        "not_recorded": "尚未在 GPU 上录制",
        "not_recorded_body": (
            "这个示例需要 CUDA GPU，目前还没有在 GPU 上运行过。在 GPU 上运行 `make gpu` 录制之后，"
            "它的输出会显示在这里；在此之前，这里不显示其他机器的输出。"
        ),
    },
}


def provenance_line(prov: dict, lang: str = "en") -> str:
    """`NVIDIA H200 (driver 580.95.05), torch 2.11.0+cu130, CUDA 13.0, 2026-11-29`."""
    fields = {k: prov.get(k) or "?" for k in ("gpu", "driver", "torch", "cuda", "date")}
    return TEXT.get(lang, TEXT["en"])["line"].format(**fields)


# ----------------------------------------------------------------------------- running


@dataclass(frozen=True)
class Outcome:
    snippet: Snippet
    ok: bool
    message: str
    mismatch: str | None = None  # why a previous recording no longer matches (for --check)


def record_one(snippet: Snippet) -> Outcome:
    """Run one GPU snippet here and record its output and provenance (benchmarks: also
    their result file). A failing run leaves the previous recording untouched."""
    from docsys.bench import measure

    before_state = state(snippet)
    before = snippet.output_path.read_text(encoding="utf-8") if snippet.output_path.exists() else None
    start = time.perf_counter()
    if is_benchmark(snippet):
        ok, message = measure(snippet)
    else:
        result = record(snippet)
        ok = result.returncode == 0
        message = (
            f"recorded {snippet.rel} -> {snippet.output_path.name}"
            if ok
            else f"FAILED   {snippet.rel} (exit {result.returncode}); recording left unchanged\n{result.stderr[-2000:]}"
        )
    seconds = time.perf_counter() - start
    if not ok:
        return Outcome(snippet, False, message)
    write_provenance(snippet, provenance(snippet, seconds))
    message += f", {provenance_path(snippet).name} ({seconds:.1f} s)"
    mismatch = None
    if before_state == STALE:
        mismatch = f"{snippet.rel}: its previous recording came from an older version of the snippet"
    elif before_state == RECORDED and before is not None:
        after = snippet.output_path.read_text(encoding="utf-8")
        if normalize(before) != normalize(after):
            diff = output_diff(before, after, snippet.output_path.name)
            mismatch = f"{snippet.rel}: the GPU output no longer matches its recording:\n{diff}"
    return Outcome(snippet, True, message, mismatch)


def cuda_missing() -> str | None:
    """Why this machine cannot record GPU outputs, or None."""
    return skip_reason(["cuda"])


def gpu_command(patterns: list[str], check: bool = False) -> int:
    """`python -m docsys gpu [--check] [PATTERN ...]`; see the module docstring."""
    chosen = select(gpu_snippets(), patterns)
    if not chosen:
        print(f"no snippet marked {' or '.join(GPU_MARKS)} matches {patterns or 'anything'}")
        return 2 if patterns else 0
    if reason := cuda_missing():
        print(f"cannot record GPU outputs here: {reason}", file=sys.stderr)
        return 3
    info = machine()
    print(
        f"recording {len(chosen)} GPU snippet(s) on {info['gpu']} x{info['gpu_count']} "
        f"(driver {info['driver']}), torch {info['torch']}, CUDA {info['cuda']}"
    )
    failures, mismatches, skipped = [], [], []
    start = time.perf_counter()
    for snippet in chosen:
        if reason := skip_reason(snippet.marks):
            skipped.append(snippet.rel)
            print(f"skip     {snippet.rel}: {reason}")
            continue
        outcome = record_one(snippet)
        print(outcome.message)
        if not outcome.ok:
            failures.append(snippet.rel)
        elif outcome.mismatch:
            mismatches.append(outcome.mismatch)
    total = time.perf_counter() - start
    print(
        f"\n{len(chosen) - len(failures) - len(skipped)} recorded, {len(failures)} failed, "
        f"{len(skipped)} skipped in {total:.1f} s"
    )
    for mismatch in mismatches:
        print(("MISMATCH " if check else "changed  ") + mismatch)
    if failures:
        return 1
    return 1 if check and mismatches else 0
