"""`python -m docsys next --python PATH [--report FILE]`: every CPU snippet against another torch.

Runs each snippet this machine can run with another interpreter (a venv with the next torch
release, built by `make test-next TORCH=<version>`), exactly as the tests do, and writes a Markdown
report without touching any recording:

- outputs that changed (a diff after docsys.core.normalize),
- warnings that appear (or disappear) — deprecations announced by the new release first of all,
- snippets that fail,
- and which of these come from the torch *build* rather than its version, listed apart: the
  regular Linux wheels are built with CUDA, the pin here is a `+cpu` build, and on a machine
  without a GPU a CUDA build says so ("No CUDA runtime is found", "gpuGetDeviceCount failed").
  When the two builds differ, a snippet marked `cpu_only` (it prints what a torch without CUDA
  does), or a difference whose every changed line names CUDA, a GPU or NCCL, is a build
  difference.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from docsys.core import policy, recording
from docsys.core.normalize import diff, normalize
from docsys.core.runner import run
from docsys.core.snippet import Snippet, discover, select
from docsys.core.verdict import warning_lines

PROBE = (
    "import json, sys, torch, torch.distributed as dist; print(json.dumps({'torch': torch.__version__, "
    "'cuda_build': torch.backends.cuda.is_built(), 'nccl': dist.is_available() and dist.is_nccl_available(), "
    "'python': sys.version.split()[0]}))"
)


@dataclass
class Report:
    this: dict
    other: dict
    same: list[str] = field(default_factory=list)
    changed: list[tuple[str, str]] = field(default_factory=list)  # (snippet, diff)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (snippet, last lines)
    build: list[tuple[str, str]] = field(default_factory=list)  # (snippet, what differs) from the build
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (snippet, "+ Category: message")
    skipped: list[tuple[str, str]] = field(default_factory=list)


def torch_facts(python: str) -> dict:
    done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


_BUILD_WORDS = re.compile(r"cuda|gpu|nccl", re.I)


def only_build_lines(difference: str) -> bool:
    """True when every line a diff adds or removes names CUDA, a GPU or NCCL."""
    changed = [line for line in difference.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    return bool(changed) and all(_BUILD_WORDS.search(line) for line in changed)


def compare_one(snippet: Snippet, python: str, report: Report, builds_differ: bool) -> None:
    """Run one snippet with the other torch and file its difference from the recording in the report."""
    there = run(snippet, python=python)
    rec = recording.read(snippet)
    recorded = snippet.output_path.read_text(encoding="utf-8") if snippet.output_path.exists() else ""
    before = set(rec.data["warnings"]) if rec and "warnings" in rec.data else set(warning_lines(run(snippet).warnings))
    after = set(warning_lines(there.warnings))
    new_warnings, gone_warnings = sorted(after - before), sorted(before - after)
    report.warnings += [(snippet.rel, f"+ {w}") for w in new_warnings]
    report.warnings += [(snippet.rel, f"- {w}") for w in gone_warnings]
    deprecations = [w for w in there.warnings if policy.is_deprecation(w)] if new_warnings else []
    if deprecations:
        report.warnings += [(snippet.rel, "  (a deprecation the warnings policy will fail on)")]
    if there.returncode != 0 or there.timed_out:
        target = report.build if builds_differ and "cpu_only" in snippet.marks else report.failed
        target.append((snippet.rel, "\n".join(there.output.strip().splitlines()[-8:])))
    elif normalize(there.output) != normalize(recorded):
        difference = diff(recorded, there.output, snippet.output_path.name)
        build = builds_differ and ("cpu_only" in snippet.marks or only_build_lines(difference))
        (report.build if build else report.changed).append((snippet.rel, difference))
    else:
        report.same.append(snippet.rel)


def render(report: Report) -> str:
    """The report as Markdown."""
    t, o = report.this, report.other
    out = [
        "# Snippets against another torch",
        "",
        f"- recorded with: torch {t['torch']} (CUDA build: {t['cuda_build']}, NCCL: {t['nccl']}), Python {t['python']}",
        f"- run with: torch {o['torch']} (CUDA build: {o['cuda_build']}, NCCL: {o['nccl']}), Python {o['python']}",
        f"- {len(report.same)} identical, {len(report.changed)} changed, {len(report.failed)} failed, "
        f"{len(report.build)} differ because of the build, {len(report.skipped)} skipped",
        "",
    ]
    sections = (("Changed outputs", report.changed), ("Failures", report.failed),
                ("Build differences (not the version)", report.build))
    for title, items in sections:
        entries = [f"### {name}\n\n```diff\n{text}\n```\n" for name, text in items]
        out += [f"## {title}", "", *(entries or ["None.", ""])]
    out += ["## Warnings that appear (+) or disappear (-)", ""]
    out += [f"- `{name}`: {text}" for name, text in report.warnings] or ["None."]
    out += ["", "## Skipped", ""] + ([f"- `{name}`: {why}" for name, why in report.skipped] or ["None."])
    return "\n".join(out) + "\n"


def next_command(snippets: list[Snippet], python: str, report_path: Path) -> int:
    import os

    from docsys.core.markers import skip_reason

    python = os.path.abspath(python)  # runs start in a temporary folder; a venv's python must not be resolved
    this, other = torch_facts_here(), torch_facts(python)
    report = Report(this, other)
    builds_differ = this["cuda_build"] != other["cuda_build"] or this["nccl"] != other["nccl"]
    for snippet in snippets:
        if reason := skip_reason(snippet.marks):
            report.skipped.append((snippet.rel, reason))
            continue
        compare_one(snippet, python, report, builds_differ)
        print(f"{len(report.same)} same, {len(report.changed)} changed, {len(report.failed)} failed: {snippet.rel}",
              flush=True)
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(render(report), encoding="utf-8")
    print(f"report: {report_path}")
    return 1 if report.failed else 0


def torch_facts_here() -> dict:
    import sys

    return torch_facts(sys.executable)


def main(argv: list[str] | None = None) -> int:
    """`python -m docsys next --python <interpreter> [--report <file>] [patterns]` (`make test-next`)."""
    parser = argparse.ArgumentParser(prog="python -m docsys next",
                                     description="run every CPU snippet with another torch and report what changes")
    parser.add_argument("--python", required=True, help="the interpreter of an environment with the other torch")
    parser.add_argument("--report", type=Path, default=Path("test-artifacts/test-next.md"), help="where to write it")
    parser.add_argument("patterns", nargs="*", help="glob or substring of snippet paths (default: all)")
    args = parser.parse_args(argv)
    chosen = [s for s in select(discover(), args.patterns) if s.platform == "cpu"]
    return next_command(chosen, args.python, args.report)
