"""The one execution path of an example: run it, judge the run, then compare or record.

`check(snippet)` is what the tests do; `check(snippet, update=True)` is what recording does
(`python -m docsys record`, the one recording command). Both run the snippet the same way
(docsys.core.runner) and apply the same rules:

- the run must exit 0, within its timeout, leaving no process behind;
- it may not raise an undeclared deprecation (docsys.core.policy);
- a benchmark's output must follow the table convention (docsys.core.bench);
- a declared graph must be a graph, and a declared figure's data JSON of at most
  recording.MAX_FIGURE_BYTES.

A test run adds runner.TEST_ENV to the environment (idle OpenMP threads wait passively, so
examples that share the cores with other tests are not slowed by spinning threads); a recording
runs with the reader's environment. Then a test compares the output in its compared form
(docsys.core.normalize) with `<name>.out`, the graphs and the shape of each figure's data
(docsys.core.normalize.figure_shape) with the recording, and fails if the recording is stale;
an update writes output, graphs, figure data and provenance from this one run
(docsys.core.recording). An output that declares a machine dependence (`# depends: <fact> -- why`)
is compared only where that fact is what it was when recorded; elsewhere the run must still
pass every rule above, and the test is skipped naming the fact, its two values and the reason,
never passed silently. A benchmark is recorded only on a quiet
machine: if other processes kept more than LOAD_LIMIT cores busy before or during the run, the
recording is refused with one line, and nothing is written.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from docsys.core import bench, machine, policy, recording
from docsys.core.normalize import diff, normalize_dot, shape_difference
from docsys.core.processes import Load, idle_load
from docsys.core.runner import TEST_ENV, RunResult, Zygote, run
from docsys.core.snippet import Snippet

LOAD_LIMIT = float(os.environ.get("DOCSYS_LOAD_LIMIT", "0.25"))  # cores kept busy by other processes


@dataclass(frozen=True)
class Outcome:
    snippet: Snippet
    ok: bool
    message: str
    skipped: bool = False  # ran and passed its rules; its output depends on a fact that differs here


def warning_lines(warnings: tuple[dict, ...]) -> list[str]:
    """The warnings a run raised, one `Category: first line of the message` each, sorted."""
    return sorted({f"{w['category']}: {w['message'].splitlines()[0][:200]}" for w in warnings})


def _run_problems(snippet: Snippet, result: RunResult) -> list[str]:
    if result.timed_out:
        return [f"{snippet.rel} timed out after {snippet.timeout:g} s (raise '# timeout:' if it must take longer)"]
    found = []
    if result.leftovers:
        leftovers = "\n".join(result.leftovers)
        found.append(f"{snippet.rel} left processes running after it ended (killed now):\n{leftovers}")
    if result.returncode != 0:
        tail = "\n".join(result.output.strip().splitlines()[-15:])
        found.append(f"{snippet.rel} exited with {result.returncode}:\n{tail}")
    found += policy.problems(snippet, result.warnings)
    found += [f"{snippet.rel}: '# graph: {var}': {value['error']}" for var, value in result.graphs.items()
              if isinstance(value, dict)]
    if result.returncode == 0:
        found += _figure_problems(snippet, result)
    if snippet.is_benchmark and result.returncode == 0:
        found += [f"{snippet.rel}: {p}" for p in bench.convention_problems(result.output)]
    return found


def _figure_problems(snippet: Snippet, result: RunResult) -> list[str]:
    found = []
    for var, value in result.figures.items():
        if "error" in value:
            found.append(f"{snippet.rel}: '# figure: {var}': {value['error']}")
        elif (size := len(recording.figure_text(value["data"]).encode())) > recording.MAX_FIGURE_BYTES:
            found.append(f"{snippet.rel}: '# figure: {var}': its data is {size / 1000:.0f} KB (limit "
                         f"{recording.MAX_FIGURE_BYTES / 1000:.0f} KB); keep only what the figure draws")
    return found


def _figure_texts(result: RunResult) -> dict[str, str]:
    return {var: recording.figure_text(value["data"]) for var, value in result.figures.items()}


def _compare_figures(snippet: Snippet, result: RunResult, fix: str) -> list[str]:
    found = []
    for var, value in result.figures.items():
        path = snippet.figure_path(var)
        if not path.exists():
            found.append(f"{snippet.rel}: figure {var!r} has no recorded data {path.name}; run {fix}")
        elif where := shape_difference(json.loads(path.read_text(encoding="utf-8")), value["data"]):
            found.append(f"{snippet.rel}: figure {var!r} differs from {path.name} at {where} "
                         f"(numbers are not compared; if intended, run {fix})")
    return found


def _graphs(result: RunResult) -> dict[str, str]:
    return {var: normalize_dot(source) for var, source in result.graphs.items() if isinstance(source, str)}


def _compare(snippet: Snippet, result: RunResult) -> list[str]:
    state = recording.state(snippet)
    fix = f"`make record SNIPPETS={snippet.rel}`"
    if state == recording.MISSING:
        return [f"{snippet.rel}: no recording ({snippet.output_path.name}, {snippet.record_path.name}); run {fix}"]
    recorded = snippet.output_path.read_text(encoding="utf-8")
    found = []
    if recording.compared_text(result.output) != recorded:
        found.append(f"{snippet.rel}: output differs from the recording (if intended, run {fix}):\n"
                     + diff(recorded, result.output, snippet.output_path.name))
    for var, source in _graphs(result).items():
        path = snippet.graph_path(var)
        if not path.exists() or path.read_text(encoding="utf-8") != source:
            found.append(f"{snippet.rel}: graph {var!r} differs from {path.name} (if intended, run {fix})")
    found += _compare_figures(snippet, result, fix)
    if state == recording.STALE and not found:
        found.append(f"{snippet.rel}: changed since it was recorded (same output); run {fix} to record its source")
    return found


def _not_comparable(snippet: Snippet, result: RunResult) -> str | None:
    """Why a run of a machine-dependent output is not compared with its recording, or None."""
    rec = recording.read(snippet)
    recorded = rec.data.get("run") if rec else None
    for dependence in snippet.depends:
        if recorded is None:
            return f"{snippet.rel}: its recording has no machine facts; run `make record SNIPPETS={snippet.rel}`"
        then, now = machine.fact(recorded, dependence.fact), machine.fact(result.facts, dependence.fact)
        if then != now:
            return (f"{snippet.rel}: ran and passed, output not compared: it depends on {dependence.fact} "
                    f"({dependence.reason}); recorded with {then}, this run has {now}")
    return None


def _busy(load: Load | None, when: str) -> str | None:
    if load is not None and load.others > LOAD_LIMIT:
        return (f"other processes kept {load.others:.2f} cores busy {when} (limit {LOAD_LIMIT}); "
                "nothing recorded: re-run on a quiet machine")
    return None


def _update(snippet: Snippet, result: RunResult, before: Load | None) -> Outcome:
    extra: dict = {"load": {"before": before.as_dict() if before else None,
                            "during": result.load.as_dict() if result.load else None,
                            "limit_cores": LOAD_LIMIT},
                   "warnings": warning_lines(result.warnings), "run": result.facts}
    if snippet.is_benchmark:
        if refusal := _busy(before, "before the run") or _busy(result.load, "during the run"):
            return Outcome(snippet, False, f"REFUSED  {snippet.rel}: {refusal}")
        extra["threads"] = bench.threads(result.output)
    figures = _figure_texts(result)
    if figures:
        extra["figures"] = recording.figure_provenance(snippet, figures)
    prov = recording.provenance(snippet, result.seconds, extra)
    recording.write(snippet, result.output, prov, _graphs(result), figures)
    return Outcome(snippet, True, f"recorded {snippet.rel} ({result.seconds:.1f} s)")


def check(snippet: Snippet, update: bool = False, zygote: Zygote | None = None) -> Outcome:
    """Run a snippet once; compare it with its recording, or (update) record it."""
    before = idle_load() if update and snippet.is_benchmark else None
    if before is not None and (refusal := _busy(before, "before the run")):
        return Outcome(snippet, False, f"REFUSED  {snippet.rel}: {refusal}")
    result = run(snippet, zygote=None if update else zygote, extra_env=None if update else TEST_ENV)
    problems = _run_problems(snippet, result)
    if problems:
        verb = "nothing recorded" if update else "failed"
        return Outcome(snippet, False, f"FAILED   {snippet.rel} ({verb}):\n" + "\n".join(problems))
    if update:
        return _update(snippet, result, before)
    if recording.state(snippet) == recording.CURRENT and (reason := _not_comparable(snippet, result)):
        return Outcome(snippet, True, reason, skipped=True)
    problems = _compare(snippet, result)
    if problems:
        return Outcome(snippet, False, "\n".join(problems))
    return Outcome(snippet, True, f"ok       {snippet.rel}")
