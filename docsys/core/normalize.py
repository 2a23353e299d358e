"""The one rule for what may differ between a recorded output and a new run.

Two steps, both applied to every run (recording and test alike):

1. `portable(text)`: paths of this machine become what any reader's machine prints — the
   repository root is dropped (`snippets/<slug>/<name>.py:9: UserWarning`), an installed package is
   `.../site-packages/torch/...`, the standard library `.../lib/python3/copyreg.py`, the run's
   temporary folder is `./`, and torch's own build path in "Triggered internally at ..." is cut
   to its source tree (`.../aten/src/...`). Recordings are stored in this form.
2. `normalize(text)`, what is compared and stored as `<name>.out`: provenance lines are dropped
   — lines that say where or how the code ran rather than what it computed: a benchmark's
   `threads: N` line, also after a launched rank's `[rankN] ` prefix (docsys.core.bench; the
   page's caption says it from `.record.json`), and
   torchrun's banner "Setting OMP_NUM_THREADS environment variable for each process to be 1"
   (with its empty and `*****` lines), which torchrun prints only when the variable is unset in
   the reader's environment — then memory addresses (`0x` + 6 or more hex digits),
   durations (a number followed by ns, us, µs, ms or s), ratios (`2.4x`), line numbers of
   files inside torch (they move between releases), the time/pid prefix of torch's C++ and
   torchrun log lines (`W1130 18:43:20.103000 8788 torch/distributed/run.py:874] `, and the `V` of
   the debug-level lines that TORCH_LOGS artifacts print) and of the
   profiler's (`USDT:2026-11-30 18:53:00 15048:15048 SyncActivityProfilerHandler.cpp:52] `), also
   after a launched rank's `[rankN] ` prefix (a log line naming its file through an unresolved
   site-packages path, as torch does when the environment is a symlink, names it as `torch/...`), and the
   numeric cells of a benchmark table (a Markdown table whose first column is `variant`, its
   lines also after a launched rank's prefix)
   become placeholders; trailing whitespace is dropped.

Nothing else is touched: every other character of a recorded output must be reproduced.
`normalize` is idempotent, so `<name>.out` (already normalized) compares with a normalized run.
What the run printed (step 1 only) is kept in `<name>.record.json` and shown on the page.

A figure's data (`# figure:`, docsys.core.recording) is compared by its shape: `figure_shape(data)`
keeps every key, every string and boolean, the length and order of every list, and replaces each
number by a placeholder. Numbers in figure data are measurements (timestamps, durations, bytes)
or values the snippet also prints, where its output comparison checks them.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from docsys.core.bench import RANK_PREFIX
from docsys.core.paths import ROOT

_SITE_PACKAGES = re.compile(r"(?:/[^\s:\"'()]+)?/(?:site|dist)-packages/")
_STDLIB = re.compile(r"(?:/[^\s:\"'()]+)?/lib/python3\.\d+/")
_TRIGGERED = re.compile(r"(Triggered internally at )[^\s()]*?/((?:aten|c10|torch)/src/|torch/csrc/)")
_LOG_PREFIX = r"[IWEFV]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ "
_PROVENANCE_LINES = re.compile(
    rf"^{RANK_PREFIX}threads:[ \t]*\d.*$\n?"
    rf"|^{RANK_PREFIX}{_LOG_PREFIX}(?:\.\.\./site-packages/)?torch/distributed/run\.py:\d+\] "
    r"(?:\*+|Setting OMP_NUM_THREADS environment variable for each process to be 1 .*|)[ \t]*$\n?",
    re.M,
)
_VOLATILE = (
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x<addr>"),
    (re.compile(rf"^(\[rank\d+\] )?{_LOG_PREFIX}(?:\.\.\./site-packages/)?(\S+?):\d+\] ", re.M),
     r"\1<log> \2:<line>] "),
    (re.compile(r"^(\[rank\d+\] )?USDT:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \d+:\d+ (\S+?):\d+\] ", re.M),
     r"\1USDT:<log> \2:<line>] "),
    (re.compile(r"(\.\.\./(?:site-packages|lib/python3)/\S+?\.py):\d+"), r"\1:<line>"),
    (re.compile(r"(\.\.\./(?:aten|c10|torch)/\S+?\.(?:h|cpp|cu)):\d+"), r"\1:<line>"),
    (re.compile(r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s?(?:ns|us|µs|ms|s)\b"), "<time>"),
    (re.compile(r"\b\d+(?:\.\d+)?x\b(?!<addr>)"), "<ratio>x"),
)
_TABLE_ROW_RE = re.compile(rf"^{RANK_PREFIX}\s*\|.*\|\s*$")
_BENCH_HEADER_RE = re.compile(rf"^{RANK_PREFIX}\s*\|\s*variant\s*\|")
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
    """Step 2 of the rule (module docstring): provenance lines dropped, volatile values masked."""
    text = _mask_benchmark_tables(_PROVENANCE_LINES.sub("", text))
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


NUMBER = "<number>"


def figure_shape(data: object) -> object:
    """Figure data with every number masked (module docstring): what must be the same in every run."""
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return data
    if isinstance(data, int | float):
        return NUMBER
    if isinstance(data, list | tuple):
        return [figure_shape(item) for item in data]
    if isinstance(data, dict):
        return {key: figure_shape(value) for key, value in data.items()}
    return repr(data)


def shape_difference(recorded: object, actual: object, where: str = "$") -> str | None:
    """Where two figure data first differ in shape, in words (None: the same shape)."""
    recorded, actual = figure_shape(recorded), figure_shape(actual)
    if type(recorded) is not type(actual):
        return f"{where}: {_kind(actual)} now, {_kind(recorded)} recorded"
    if isinstance(recorded, list):
        if len(recorded) != len(actual):
            return f"{where}: {len(actual)} items now, {len(recorded)} recorded"
        pairs = [(f"{where}[{i}]", r, a) for i, (r, a) in enumerate(zip(recorded, actual, strict=True))]
    elif isinstance(recorded, dict):
        if list(recorded) != list(actual):
            return f"{where}: keys {list(actual)} now, {list(recorded)} recorded"
        pairs = [(f"{where}.{key}", recorded[key], actual[key]) for key in recorded]
    else:
        return None if recorded == actual else f"{where}: {actual!r} now, {recorded!r} recorded"
    return next((d for path, r, a in pairs if (d := shape_difference(r, a, path))), None)


def _kind(value: object) -> str:
    return "a number" if value == NUMBER else type(value).__name__
