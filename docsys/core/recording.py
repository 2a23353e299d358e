"""Recordings: what a snippet printed, and where, when and from which source it was recorded.

One format for every snippet — plain, benchmark, GPU, launched:

    <name>.out           what the code computed: its output in the compared form
                         (docsys.core.normalize: provenance lines dropped, timings, addresses and
                         table cells masked), the same on every machine; the tests compare with it
    <name>.record.json   what this machine printed (`printed`, with this machine's paths made
                         portable: the page shows it) and its provenance (schema below); written
                         by the same run as the `.out`
    <name>.<var>.dot     a declared graph's DOT source (`# graph: <var>`), drawn by the site build
    <name>.<var>.figure.json   a declared figure's data (`# figure: <var>=<kind>`), drawn by the
                         site build; the provenance keeps its kind and SHA-256, so data typed or
                         edited by hand is told apart from what the run wrote

Re-recording an unchanged example on another machine changes only `.record.json` (and figure
data, whose numbers are measurements); a `.out` that changes is a change in what the code does,
or an output that depends on the machine and says so (`# depends:`, docsys.core.snippet).

Provenance: the snippet and the SHA-256 of its source; the platform (`cpu`, or `cuda` for a
snippet marked cuda or multi_gpu); the machine (CPU model, cores, the ISA features that decide
CPU kernels, GPU, driver); torch, CUDA and Python versions; date; the command that reproduces
it; and for a benchmark the threads it used, the load other processes put on the machine, and
its measured table's spread (docsys.core.bench).

One staleness rule: a recording is current when its `source_sha256` is the snippet's. A
snippet marked for a GPU that has no recording is "not yet recorded", which pages say.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from docsys.core.machine import facts, machine_id
from docsys.core.normalize import normalize
from docsys.core.snippet import Snippet, source_sha256

SCHEMA = 2  # 2: `printed` holds the shown output, `.out` the compared form
MAX_FIGURE_BYTES = 100_000  # a figure's data is what it draws, not a whole trace
NOTE = "DO NOT EDIT MANUALLY: written by `python -m docsys record` with the snippet's output"
CURRENT, STALE, MISSING = "current", "stale", "not yet recorded"


@dataclass(frozen=True)
class Record:
    data: dict

    @property
    def platform(self) -> str:
        return self.data["platform"]

    @property
    def machine(self) -> str:
        return self.data["machine"]

    @property
    def date(self) -> str:
        return self.data["recorded_at"][:10]

    @property
    def torch(self) -> str:
        return self.data["software"]["torch"]

    @property
    def host(self) -> dict:
        return self.data["host"]

    @property
    def threads(self) -> int | None:
        return self.data.get("threads")

    @property
    def command(self) -> str:
        return self.data["command"]

    @property
    def printed(self) -> str:
        """What the run printed, as the page shows it."""
        lines = self.data["printed"]
        return "".join(f"{line}\n" for line in lines)


def read(snippet: Snippet) -> Record | None:
    path = snippet.record_path
    return Record(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else None


def state(snippet: Snippet) -> str:
    """CURRENT, STALE (the snippet changed since) or MISSING."""
    record = read(snippet)
    if record is None or not snippet.output_path.exists():
        return MISSING
    return CURRENT if record.data.get("source_sha256") == source_sha256(snippet.path) else STALE


def provenance(snippet: Snippet, seconds: float, extra: dict | None = None, now: dt.datetime | None = None) -> dict:
    info = facts()
    now = now or dt.datetime.now(dt.UTC)
    host = {k: info[k] for k in ("cpu", "cores", "isa", "gpu", "gpu_count", "driver")}
    if snippet.platform == "cpu":
        host.update(gpu=None, gpu_count=0, driver=None)
    return {
        "note": NOTE,
        "schema": SCHEMA,
        "snippet": snippet.rel,
        "source_sha256": source_sha256(snippet.path),
        "platform": snippet.platform,
        "machine": machine_id(snippet.platform, info),
        "recorded_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": f"python -m docsys record {snippet.rel}",
        "seconds": round(seconds, 2),
        "host": host,
        "software": {"torch": info["torch"], "cuda": info["cuda"] if snippet.platform == "cuda" else None,
                     "python": info["python"]},
        **(extra or {}),
    }


_FLAT_LIST_RE = re.compile(r"\[\s+([^\[\]{}]*?)\s+\]")


def figure_text(data: object) -> str:
    """How a figure's data is stored: JSON in the snippet's order, one item per line, except that a
    list of plain values (a span: `[0.5, 1.25, "forward", "aten::addmm"]`) stays on one line."""
    text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False)
    return _FLAT_LIST_RE.sub(lambda m: "[" + re.sub(r",\s*\n\s*", ", ", m[1]) + "]", text) + "\n"


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def figure_provenance(snippet: Snippet, texts: dict[str, str]) -> dict:
    """What the recording says about each figure's data file: its kind and hash."""
    kinds = dict(snippet.figures)
    return {var: {"kind": kinds[var], "sha256": text_sha256(text)} for var, text in texts.items()}


def write(snippet: Snippet, output: str, prov: dict, graphs: dict[str, str] | None = None,
          figures: dict[str, str] | None = None) -> None:
    """Write the output (compared form), its graphs, its figures' data and its provenance with
    what was printed, together (provenance last: a crash in between leaves a stale recording,
    never a current-looking one with a different output)."""
    snippet.output_path.write_text(compared_text(output), encoding="utf-8")
    for var, source in (graphs or {}).items():
        snippet.graph_path(var).write_text(source, encoding="utf-8")
    for var, text in (figures or {}).items():
        snippet.figure_path(var).write_text(text, encoding="utf-8")
    snippet.record_path.write_text(record_text({**prov, "printed": output.splitlines()}), encoding="utf-8")


def compared_text(output: str) -> str:
    """A run's output as `.out` stores it (docsys.core.normalize.normalize, one final newline)."""
    text = normalize(output)
    return text + "\n" if text else ""


def record_text(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def forget(snippet: Snippet) -> None:
    """Remove a recording, so that its page says "not yet recorded" (GPU snippets on a CPU machine)."""
    for path in snippet.recorded_paths():
        path.unlink(missing_ok=True)


def orphans(root: Path, snippets: list[Snippet]) -> list[Path]:
    """Recorded files whose snippet is gone, or graph and figure files no header declares."""
    expected = {p for s in snippets for p in s.recorded_paths()}
    found = [*root.rglob("*.out"), *root.rglob("*.record.json"), *root.rglob("*.dot"), *root.rglob("*.figure.json")]
    return sorted(p for p in found if p not in expected)
