"""Snippets: the runnable examples under `snippets/`, and their recorded output.

A snippet is a complete Python script. Its stdout, from a run in a fresh subprocess, is
recorded beside it (`name.py` -> `name.out`), included on the page under the code, and
compared on every test run after `normalize`. Leading comment lines may declare:

    # marks: cuda slow          pytest markers (see docsys.markers)
    # timeout: 120              seconds before the run is killed (default 60)
    # launch: torchrun --standalone --nproc-per-node=2
                                how to start it (default: python); a torchrun
                                launch records each rank's stdout as `[rankN] ...`
                                lines, grouped by rank in rank order
    # graph: dot                module-level graphviz.Digraph variables that the site
                                build draws (see docsys.graphs)
"""

from __future__ import annotations

import contextlib
import difflib
import fnmatch
import hashlib
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from docsys.markers import MARKERS
from docsys.paths import OUTPUT_SUFFIX, SNIPPETS_DIR

DEFAULT_TIMEOUT_S = 60.0
_HEADER_RE = re.compile(r"^#\s*(?P<key>marks|timeout|launch|graph):\s*(?P<value>.*?)\s*$")


@dataclass(frozen=True)
class Snippet:
    path: Path
    marks: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT_S
    launch: tuple[str, ...] = ()
    graphs: tuple[str, ...] = ()  # `# graph:` variable names

    @property
    def rel(self) -> str:
        """Path relative to snippets/, as pages include it."""
        try:
            return self.path.relative_to(SNIPPETS_DIR).as_posix()
        except ValueError:
            return self.path.name

    @property
    def output_path(self) -> Path:
        return self.path.with_suffix(OUTPUT_SUFFIX)


@dataclass(frozen=True)
class RunResult:
    returncode: int
    stdout: str
    stderr: str
    leftovers: tuple[str, ...] = ()  # processes of this run still alive after it ended (then killed)


class SnippetHeaderError(ValueError):
    pass


def load(path: Path) -> Snippet:
    """Read a snippet's header declarations."""
    fields: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        match = _HEADER_RE.match(line)
        if match:
            fields[match["key"]] = match["value"]
    marks = tuple(fields.get("marks", "").split())
    unknown = sorted(set(marks) - set(MARKERS))
    if unknown:
        raise SnippetHeaderError(f"{path}: unknown mark(s) {unknown} in '# marks:'; known: {sorted(MARKERS)}")
    return Snippet(
        path=path,
        marks=marks,
        timeout=float(fields.get("timeout", DEFAULT_TIMEOUT_S)),
        launch=tuple(shlex.split(fields.get("launch", ""))),
        graphs=tuple(fields.get("graph", "").split()),
    )


def discover(root: Path = SNIPPETS_DIR) -> list[Snippet]:
    return [load(p) for p in sorted(root.rglob("*.py"))]


def source_sha256(path: Path) -> str:
    """The hash recordings and results keep, to tell when their snippet changed since."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def select(snippets: list[Snippet], patterns: list[str]) -> list[Snippet]:
    """The snippets whose path matches any pattern (a glob or a substring); all if none given."""
    return [s for s in snippets if not patterns or any(fnmatch.fnmatch(s.rel, p) or p in s.rel for p in patterns)]


def command(snippet: Snippet) -> list[str]:
    """The command that runs a snippet: its `# launch:` line (default: this Python)."""
    program, *args = snippet.launch or ("python",)
    interpreters = {
        "python": sys.executable,
        "torchrun": str(Path(sys.executable).with_name("torchrun")),
    }
    return [interpreters.get(program, program), *args, str(snippet.path)]


RUN_ID_VAR = "DOCSYS_RUN_ID"


def _processes_of(token: str) -> list[tuple[int, str]]:
    """Every live process of one run.

    torchrun starts each rank in a new session, so a process group does not cover the
    ranks; the inherited environment variable does, whatever the process did to detach."""
    return processes_with_env(RUN_ID_VAR, token)


def processes_with_env(name: str, value: str) -> list[tuple[int, str]]:
    """(pid, command line) of every live process but this one whose environment has name=value."""
    needle = f"{name}={value}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                found.append((int(entry.name), cmdline.strip()))
        except OSError:  # gone, a zombie, or not ours
            continue
    return found


def _kill_all(token: str, proc: subprocess.Popen) -> list[str]:
    """SIGKILL the launcher's session and every process of this run; return what was alive."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    alive = _processes_of(token)
    for pid, _ in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    proc.wait()
    return [f"pid {pid}: {cmd}" for pid, cmd in alive]


def _per_rank(log_dir: Path, name: str) -> str:
    """torchrun's per-rank `name` logs (stdout.log / stderr.log), as `[rankN] line` lines,
    grouped by rank in rank order, so concurrent ranks give a deterministic text."""
    files = sorted(log_dir.glob(f"*/attempt_*/*/{name}"), key=lambda p: (p.parent.parent.name, int(p.parent.name)))
    lines = [
        f"[rank{path.parent.name}] {line}".rstrip()
        for path in files
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
    ]
    return "".join(f"{line}\n" for line in lines)


def run(snippet: Snippet) -> RunResult:
    """Run a snippet in a fresh subprocess, in an empty temporary working directory.

    The command is exactly the one a reader runs (`command`). A torchrun launch gets
    `PET_LOG_DIR`/`PET_REDIRECTS` (torchrun's own environment form of `--log-dir` and
    `--redirects`), so each rank's output lands in its own file and is returned grouped by
    rank. Every process of the run carries a token in its environment; when the launcher
    exits or times out, any process still carrying it is reported and killed.
    """
    token = uuid.uuid4().hex
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "", RUN_ID_VAR: token}
    torchrun = bool(snippet.launch) and Path(snippet.launch[0]).name == "torchrun"
    with (
        tempfile.TemporaryDirectory(prefix="snippet-") as workdir,
        tempfile.TemporaryDirectory(prefix="snippet-logs-") as logs,
    ):
        log_dir = Path(logs)
        if torchrun:
            env.update(PET_LOG_DIR=str(log_dir / "ranks"), PET_REDIRECTS="3")
        with (log_dir / "stdout").open("w+") as out, (log_dir / "stderr").open("w+") as err:
            proc = subprocess.Popen(
                command(snippet), cwd=workdir, env=env, stdout=out, stderr=err, text=True, start_new_session=True
            )
            try:
                returncode = proc.wait(timeout=snippet.timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                returncode, timed_out = -9, True
            except BaseException:  # interrupted (Ctrl-C, pytest-timeout): still leave nothing running
                _kill_all(token, proc)
                raise
            leftovers = _kill_all(token, proc)
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        if torchrun:
            stdout += _per_rank(log_dir / "ranks", "stdout.log")
            stderr += _per_rank(log_dir / "ranks", "stderr.log")
    if timed_out:
        stderr = f"timed out after {snippet.timeout:g} s\n{stderr}"
        leftovers = []  # expected: they were killed because of the timeout
    return RunResult(returncode, stdout, stderr, tuple(leftovers))


# The one normalization rule for volatile output. Everything else must match exactly.
_VOLATILE = (
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x<addr>"),
    (re.compile(r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s?(?:ns|us|µs|ms|s)\b"), "<time>"),
    (re.compile(r"\b\d+(?:\.\d+)?x\b"), "<ratio>x"),
)


_TABLE_ROW_RE = re.compile(r"^\s*\|.*\|\s*$")
_BENCH_HEADER_RE = re.compile(r"^\s*\|\s*variant\s*\|")
_NUMBER_CELL_RE = re.compile(r"(?<=\|)[ \t]*-?\d+(?:\.\d+)?(?:e[-+]?\d+)?[ \t]*(?=\|)")


def _mask_benchmark_tables(text: str) -> str:
    """In a Markdown table whose first column is `variant` (a benchmark's table), mask
    every numeric cell: those are measurements."""
    lines, in_table = text.split("\n"), False
    for i, line in enumerate(lines):
        in_table = bool(_TABLE_ROW_RE.match(line)) and (in_table or bool(_BENCH_HEADER_RE.match(line)))
        if in_table:
            lines[i] = _NUMBER_CELL_RE.sub(" <n> ", line)
    return "\n".join(lines)


def normalize(text: str) -> str:
    """Mask volatile parts of an output before comparing it.

    Rule: memory addresses (`0x` + 6 or more hex digits), durations (a number followed by
    ns, us, µs, ms or s), ratios (a number followed by `x`, as in `2.4x`) and the numeric
    cells of a benchmark table (a Markdown table whose first column is `variant`) become
    placeholders; trailing whitespace on each line and at the end is dropped. Nothing else
    is touched, so every other character of a recorded output must be reproduced.
    """
    text = _mask_benchmark_tables(text)
    for pattern, placeholder in _VOLATILE:
        text = pattern.sub(placeholder, text)
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def output_diff(expected: str, actual: str, label: str) -> str:
    diff = difflib.unified_diff(
        normalize(expected).splitlines(),
        normalize(actual).splitlines(),
        fromfile=f"{label} (recorded)",
        tofile=f"{label} (this run)",
        lineterm="",
    )
    return "\n".join(diff)


def failure_message(snippet: Snippet, result: RunResult) -> str | None:
    """Why this run does not reproduce the recorded output, or None when it does."""
    if result.leftovers:
        return f"{snippet.rel} left processes running after it ended (killed now):\n" + "\n".join(result.leftovers)
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-15:])
        return f"{snippet.rel} exited with {result.returncode}:\n{tail}"
    if not snippet.output_path.exists():
        return f"{snippet.rel}: no recorded output {snippet.output_path.name}; record it with `make record`"
    recorded = snippet.output_path.read_text(encoding="utf-8")
    if normalize(recorded) != normalize(result.stdout):
        diff = output_diff(recorded, result.stdout, snippet.output_path.name)
        return f"{snippet.rel}: output differs from the recording (re-record with `make record` if intended):\n{diff}"
    return None


def record(snippet: Snippet) -> RunResult:
    """Run a snippet and write its stdout as the new recording (only if it succeeded)."""
    result = run(snippet)
    if result.returncode == 0:
        snippet.output_path.write_text(result.stdout, encoding="utf-8")
    return result
