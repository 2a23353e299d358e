"""The one rule for what may differ between a recorded output and a new run.

Two steps, both applied to every run (recording and test alike):

1. `portable(text)`: paths of this machine become what any reader's machine prints — the
   repository root is dropped (`snippets/autograd/x.py:9: UserWarning`), an installed package is
   `.../site-packages/torch/...`, the standard library `.../lib/python3/copyreg.py`, the run's
   temporary folder is `./`, and torch's own build path in "Triggered internally at ..." is cut
   to its source tree (`.../aten/src/...`). Recordings are stored in this form.
2. `normalize(text)`, for comparison only: memory addresses (`0x` + 6 or more hex digits),
   durations (a number followed by ns, us, µs, ms or s), ratios (`2.4x`), line numbers of
   files inside torch (they move between releases), the time/pid prefix of torch's C++ and
   torchrun log lines (`W1130 18:43:20.103000 8788 torch/distributed/run.py:874] `, and the `V` of
   the debug-level lines that TORCH_LOGS artifacts print) and of the
   profiler's (`USDT:2026-11-30 18:53:00 15048:15048 SyncActivityProfilerHandler.cpp:52] `), and the
   numeric cells of a benchmark table (a Markdown table whose first column is `variant`)
   become placeholders; trailing whitespace is dropped.

Nothing else is touched: every other character of a recorded output must be reproduced.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from docsys.core.paths import ROOT

_SITE_PACKAGES = re.compile(r"(?:/[^\s:\"'()]+)?/(?:site|dist)-packages/")
_STDLIB = re.compile(r"(?:/[^\s:\"'()]+)?/lib/python3\.\d+/")
_TRIGGERED = re.compile(r"(Triggered internally at )[^\s()]*?/((?:aten|c10|torch)/src/|torch/csrc/)")
_VOLATILE = (
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x<addr>"),
    (re.compile(r"^[IWEFV]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ (\S+?):\d+\] ", re.M), r"<log> \1:<line>] "),
    (re.compile(r"^USDT:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \d+:\d+ (\S+?):\d+\] ", re.M), r"USDT:<log> \1:<line>] "),
    (re.compile(r"(\.\.\./(?:site-packages|lib/python3)/\S+?\.py):\d+"), r"\1:<line>"),
    (re.compile(r"(\.\.\./(?:aten|c10|torch)/\S+?\.(?:h|cpp|cu)):\d+"), r"\1:<line>"),
    (re.compile(r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s?(?:ns|us|µs|ms|s)\b"), "<time>"),
    (re.compile(r"\b\d+(?:\.\d+)?x\b(?!<addr>)"), "<ratio>x"),
)
_TABLE_ROW_RE = re.compile(r"^\s*\|.*\|\s*$")
_BENCH_HEADER_RE = re.compile(r"^\s*\|\s*variant\s*\|")
_NUMBER_CELL_RE = re.compile(r"(?<=\|)[ \t]*-?\d+(?:\.\d+)?(?:e[-+]?\d+)?[ \t]*(?=\|)")


def portable(text: str, workdir: str | None = None, root: Path = ROOT) -> str:
    """Step 1 of the rule (module docstring): this machine's paths as any machine prints them."""
    if workdir:
        for form in {workdir, str(Path(workdir).resolve())}:
            text = text.replace(form.rstrip("/") + "/", "./")
    text = _SITE_PACKAGES.sub(".../site-packages/", text)
    text = _STDLIB.sub(".../lib/python3/", text)
    text = text.replace(str(root) + "/", "")
    return _TRIGGERED.sub(r"\1.../\2", text)


def _mask_benchmark_tables(text: str) -> str:
    lines, in_table = text.split("\n"), False
    for i, line in enumerate(lines):
        in_table = bool(_TABLE_ROW_RE.match(line)) and (in_table or bool(_BENCH_HEADER_RE.match(line)))
        if in_table:
            lines[i] = _NUMBER_CELL_RE.sub(" <n> ", line)
    return "\n".join(lines)


def normalize(text: str) -> str:
    """Step 2 of the rule (module docstring): volatile values masked for comparison."""
    text = _mask_benchmark_tables(text)
    for pattern, placeholder in _VOLATILE:
        text = pattern.sub(placeholder, text)
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def diff(expected: str, actual: str, label: str) -> str:
    """A unified diff of two outputs after normalization."""
    lines = difflib.unified_diff(
        normalize(expected).splitlines(),
        normalize(actual).splitlines(),
        fromfile=f"{label} (recorded)",
        tofile=f"{label} (this run)",
        lineterm="",
    )
    return "\n".join(lines)


_DOT_ID_RE = re.compile(r"(?m)(^\s*|->\s*)(\d{6,})\b")


def normalize_dot(source: str) -> str:
    """torchviz names graph nodes by `id()`: rename them n0, n1, ... in order of first
    appearance, so the same code gives the same DOT source in every process."""
    names: dict[str, str] = {}
    return _DOT_ID_RE.sub(lambda m: m[1] + names.setdefault(m[2], f"n{len(names)}"), source)
