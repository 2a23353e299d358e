"""Snippets: the runnable examples under `snippets/<slug>/<name>.py`.

A snippet is a complete Python script a reader can run. Leading comment lines may declare what
the machinery needs to know; they are not shown to readers (docsys.build.examples strips them):

    # marks: cuda slow          pytest markers (docsys.core.markers)
    # timeout: 120              seconds before a run is killed (default 60)
    # launch: torchrun --standalone --nproc-per-node=2
                                how a reader starts it (default: python)
    # graph: dot                module-level torchviz graphs whose DOT source is recorded
    # figure: buckets=timeline  module-level data (JSON) that the site build draws as a figure:
                                `<variable>=<kind>`, or `<variable>` when its kind has its name
    # warns: FutureWarning: torch.cuda.amp.GradScaler -- the page shows the deprecation
                                a deprecation the page shows on purpose (docsys.core.policy)
    # estimate: 40              seconds it takes on a GPU (cuda snippets: recording order)
    # method: interleaved -- a slow moment of the machine hits every variant
                                how a benchmark runs its variants (a kind of METHODS); every
                                benchmark declares one, and its table's caption says it
    # depends: isa -- oneDNN's kernel is named after the instruction set it runs on
                                the output depends on the machine (a fact of DEPENDENCES): the
                                tests compare it only where the fact is what it was when recorded
                                (docsys.core.verdict); the page says where it was recorded
    # notebook: own-process -- it registers a serialization tagger for the whole process
                                a page's notebook (docsys.build.page_notebooks) runs it as a script, not
                                in the kernel: it changes state later cells would inherit

Beside it live what a recording writes (docsys.core.recording): `name.out`, what it printed,
`name.record.json`, where and from which source it was recorded, and a file per declared graph
(`name.<var>.dot`) and figure (`name.<var>.figure.json`).
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from docsys.core.markers import MARKERS
from docsys.core.paths import SNIPPETS_DIR

DEFAULT_TIMEOUT_S = 60.0
HEADER_KEYS = ("marks", "timeout", "launch", "graph", "figure", "warns", "estimate", "depends", "method", "notebook")
HEADER_RE = re.compile(rf"^#\s*(?P<key>{'|'.join(HEADER_KEYS)}):\s*(?P<value>.*?)\s*$")
_FIGURE_RE = re.compile(r"^(?P<var>[A-Za-z_]\w*)(?:=(?P<kind>[a-z][a-z0-9_]*))?$")
RESERVED_VARS = ("record",)  # `name.record.json` is the provenance
_WARNS_RE = re.compile(r"^(?P<category>\w+):\s*(?P<text>.+?)\s+--\s+(?P<reason>.+)$")
_REASONED_RE = re.compile(r"^(?P<value>\S+)\s+--\s+(?P<reason>.+)$")  # `<value> -- <why>`
# How a benchmark runs its variants (`# method: <kind> -- <why>`); the build words each for readers:
METHODS = {
    "interleaved": "every variant in one process, in interleaved rounds",
    "processes": "each variant in a fresh process, so that no state one leaves (a cache, a plan, compiled code) "
                 "reaches another",
    "sequential": "the variants one after another in one process, each measured whole",
}
# Machine facts an output may depend on, each recorded with every run (docsys.core.recording, `run`):
DEPENDENCES = {
    "threads": "torch's intra-op thread count (torch.get_num_threads())",
    "isa": "the instruction sets torch's kernels may use (the CPU's features, torch's CPU capability, "
           "ONEDNN_MAX_CPU_ISA and MKL_ENABLE_INSTRUCTIONS)",
}
BENCH_GLOB = "bench_*.py"
GPU_MARKS = ("cuda", "multi_gpu")


class SnippetHeaderError(ValueError):
    """A header line the machinery cannot read (one line, naming the file)."""


@dataclass(frozen=True)
class DeclaredWarning:
    category: str  # e.g. FutureWarning
    text: str  # a part of the message that identifies it
    reason: str  # why the page shows it


@dataclass(frozen=True)
class Dependence:
    fact: str  # a key of DEPENDENCES
    reason: str  # why the output depends on it


@dataclass(frozen=True)
class Snippet:
    path: Path
    root: Path = SNIPPETS_DIR
    marks: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT_S
    launch: tuple[str, ...] = ()
    graphs: tuple[str, ...] = ()
    figures: tuple[tuple[str, str], ...] = ()  # (variable, kind of figure the build draws from it)
    warns: tuple[DeclaredWarning, ...] = ()
    estimate: float | None = None
    depends: tuple[Dependence, ...] = ()
    method: tuple[str, str] | None = None  # (a kind of METHODS, why)
    header_lines: int = 0  # leading lines that are machinery, not code for readers
    own_process: str | None = None  # why a notebook runs it as a script (`# notebook: own-process -- <why>`)

    @property
    def rel(self) -> str:
        """Path relative to snippets/, as pages name it (`autograd/backward.py`)."""
        try:
            return self.path.relative_to(self.root).as_posix()
        except ValueError:
            return self.path.name

    @property
    def key(self) -> str:
        """`autograd/backward`: the rel path without `.py` (benchmark tokens use it)."""
        return self.rel.removesuffix(".py")

    @property
    def output_path(self) -> Path:
        return self.path.with_suffix(".out")

    @property
    def record_path(self) -> Path:
        return self.path.with_suffix(".record.json")

    def graph_path(self, var: str) -> Path:
        """Where the DOT source of one declared graph is recorded."""
        return self.path.with_name(f"{self.path.stem}.{var}.dot")

    def figure_path(self, var: str) -> Path:
        """Where the data of one declared figure is recorded."""
        return self.path.with_name(f"{self.path.stem}.{var}.figure.json")

    @property
    def figure_vars(self) -> tuple[str, ...]:
        return tuple(var for var, _ in self.figures)

    def recorded_paths(self) -> tuple[Path, ...]:
        """Every file a recording of this snippet writes."""
        return (self.output_path, self.record_path, *(self.graph_path(v) for v in self.graphs),
                *(self.figure_path(v) for v in self.figure_vars))

    @property
    def is_benchmark(self) -> bool:
        return self.path.match(BENCH_GLOB)

    @property
    def platform(self) -> str:
        """`cuda` for a snippet that needs a GPU (its output comes only from one), else `cpu`."""
        return "cuda" if any(mark in GPU_MARKS for mark in self.marks) else "cpu"

    @property
    def torchrun(self) -> bool:
        return bool(self.launch) and Path(self.launch[0]).name == "torchrun"

    def reader_command(self) -> str:
        """The command a reader types in the snippet's folder: `torchrun ... train.py`."""
        return " ".join([*(self.launch or ("python",)), self.path.name])


def _header(path: Path) -> tuple[dict[str, list[str]], int]:
    fields: dict[str, list[str]] = {}
    count = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        match = HEADER_RE.match(line)
        if not match:
            break
        fields.setdefault(match["key"], []).append(match["value"])
        count += 1
    return fields, count


def _warns(path: Path, values: list[str]) -> tuple[DeclaredWarning, ...]:
    declared = []
    for value in values:
        match = _WARNS_RE.match(value)
        if not match:
            raise SnippetHeaderError(f"{path}: write '# warns: <Category>: <part of the message> -- <why it is shown>'")
        declared.append(DeclaredWarning(match["category"], match["text"], match["reason"]))
    return tuple(declared)


def _figures(path: Path, values: list[str]) -> tuple[tuple[str, str], ...]:
    declared: dict[str, str] = {}
    for token in " ".join(values).split():
        match = _FIGURE_RE.match(token)
        if not match or match["var"] in RESERVED_VARS or match["var"] in declared:
            raise SnippetHeaderError(
                f"{path}: bad '# figure: {token}': write '# figure: <variable>=<kind>' (or '<variable>' when the "
                f"kind has its name), each variable once, not {', '.join(map(repr, RESERVED_VARS))}")
        declared[match["var"]] = match["kind"] or match["var"]
    return tuple(declared.items())


def _depends(path: Path, values: list[str]) -> tuple[Dependence, ...]:
    declared = []
    for value in values:
        match = _REASONED_RE.match(value)
        if not match or match["value"] not in DEPENDENCES:
            raise SnippetHeaderError(f"{path}: write '# depends: <fact> -- <why the output depends on it>', "
                                     f"a fact of {sorted(DEPENDENCES)}")
        declared.append(Dependence(match["value"], match["reason"]))
    return tuple(declared)


def _method(path: Path, values: list[str]) -> tuple[str, str] | None:
    if not values:
        return None
    match = _REASONED_RE.match(values[-1])
    if len(values) > 1 or not match or match["value"] not in METHODS:
        raise SnippetHeaderError(f"{path}: write one '# method: <kind> -- <why>', a kind of {sorted(METHODS)}")
    return match["value"], match["reason"]


def _own_process(path: Path, values: list[str]) -> str | None:
    if not values:
        return None
    match = _REASONED_RE.match(values[-1])
    if not match or match["value"] != "own-process":
        raise SnippetHeaderError(f"{path}: write '# notebook: own-process -- <why>' (the one form), not {values[-1]!r}")
    return match["reason"]


def load(path: Path, root: Path = SNIPPETS_DIR) -> Snippet:
    """Read a snippet's header declarations."""
    fields, count = _header(path)
    marks = tuple(" ".join(fields.get("marks", [])).split())
    unknown = sorted(set(marks) - set(MARKERS))
    if unknown:
        raise SnippetHeaderError(f"{path}: unknown mark(s) {unknown} in '# marks:'; known: {sorted(MARKERS)}")
    single = {key: values[-1] for key, values in fields.items()}
    return Snippet(
        path=path,
        root=root,
        marks=marks,
        timeout=float(single.get("timeout", DEFAULT_TIMEOUT_S)),
        launch=tuple(shlex.split(single.get("launch", ""))),
        graphs=tuple(" ".join(fields.get("graph", [])).split()),
        figures=_figures(path, fields.get("figure", [])),
        warns=_warns(path, fields.get("warns", [])),
        estimate=float(single["estimate"]) if "estimate" in single else None,
        depends=_depends(path, fields.get("depends", [])),
        method=_method(path, fields.get("method", [])),
        header_lines=count,
        own_process=_own_process(path, fields.get("notebook", [])),
    )


def discover(root: Path = SNIPPETS_DIR) -> list[Snippet]:
    return [load(p, root) for p in sorted(root.rglob("*.py"))]


def source_sha256(path: Path) -> str:
    """The hash a recording keeps, to tell when its snippet changed since."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def select(snippets: list[Snippet], patterns: list[str]) -> list[Snippet]:
    """The snippets whose path matches any pattern (a glob or a substring); all if none given."""
    return [s for s in snippets if not patterns or any(fnmatch.fnmatch(s.rel, p) or p in s.rel for p in patterns)]
