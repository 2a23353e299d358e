"""Running a snippet as a reader does, and collecting what the run shows and leaves behind.

`run(snippet)` starts exactly the reader's command (`python <file>`, or the `# launch:` line,
e.g. `torchrun --standalone --nproc-per-node=2 <file>`) in an empty temporary folder, with
stdout and stderr in one stream, as a terminal shows them. A torchrun launch writes each
rank's streams to its own files (torchrun's PET_LOG_DIR / PET_REDIRECTS), returned after the
launcher's own lines as `[rankN] ...`, rank by rank, stdout before stderr, so that concurrent
ranks give a deterministic text. `run(snippet, zygote=...)` starts a plain Python snippet, or
torchrun's launcher, in a fork of a process that has already imported torch
(docsys/core/probe/zygote.py) instead; torchrun's ranks are fresh interpreters either way.

Every process of a run carries a token in its environment (and a zygote child is its own
session): when the run ends or times out, whatever is still alive is killed and reported.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from docsys.core import processes
from docsys.core.machine import run_facts
from docsys.core.normalize import portable
from docsys.core.processes import Load, LoadMeter
from docsys.core.snippet import Snippet

PROBE_DIR = Path(__file__).with_name("probe")
RUN_ID_VAR = "DOCSYS_RUN_ID"
# What a test run (not a recording) adds to the environment. libgomp's idle threads spin at every
# barrier by default: on cores shared with other tests, a thread then spins while its partner is
# descheduled, and a two-thread benchmark took 10-20 times its recorded seconds. Passive waiting
# changes how threads wait, not what they compute; recordings keep the reader's default.
TEST_ENV = {"OMP_WAIT_POLICY": "PASSIVE"}


@dataclass(frozen=True)
class RunResult:
    returncode: int
    output: str  # what the reader sees: stdout and stderr as one stream (torchrun: launcher, then ranks)
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of the run's processes (from their rusage)
    load: Load | None = None  # other processes' load during the run
    warnings: tuple[dict, ...] = ()  # every warning that passed the filters (docsys/core/probe)
    graphs: dict = field(default_factory=dict)  # DOT source per declared graph variable
    figures: dict = field(default_factory=dict)  # {"data": ...} or {"error": ...} per declared figure variable
    leftovers: tuple[str, ...] = ()  # processes still alive after the run ended (killed)
    timed_out: bool = False
    facts: dict = field(default_factory=dict)  # the machine facts outputs may depend on (machine.run_facts)


def base_env() -> dict[str, str]:
    """The environment of every run: the caller's, made reproducible, with the probe loaded."""
    path = os.pathsep.join(p for p in (str(PROBE_DIR), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "", "PYTHONPATH": path}


def command(snippet: Snippet, python: str | None = None) -> list[str]:
    """The reader's command, with `python`/`torchrun` resolved next to this interpreter (or `python`)."""
    program, *args = snippet.launch or ("python",)
    python = python or sys.executable
    interpreters = {"python": python, "torchrun": str(Path(python).with_name("torchrun"))}
    return [interpreters.get(program, program), *args, str(snippet.path)]


def forked_argv(snippet: Snippet) -> list[str] | None:
    """What a fork of this interpreter runs as `python <argv>` for the reader's command: the snippet
    itself, or torchrun's launcher script with its arguments; None for any other launch."""
    if not snippet.launch:
        return [str(snippet.path)]
    return command(snippet) if snippet.torchrun else None


def _probe_env(snippet: Snippet, scratch: Path, token: str) -> dict[str, str]:
    env = {RUN_ID_VAR: token, "DOCSYS_PROBE_WARNINGS": str(scratch / "warnings.jsonl"),
           "DOCSYS_PROBE_FACTS": str(scratch / "facts.json")}
    if snippet.graphs:
        env.update(DOCSYS_PROBE_GRAPHS=" ".join(snippet.graphs), DOCSYS_PROBE_GRAPHS_OUT=str(scratch / "graphs.json"))
    if snippet.figures:
        env.update(DOCSYS_PROBE_FIGURES=" ".join(snippet.figure_vars),
                   DOCSYS_PROBE_FIGURES_OUT=str(scratch / "figures.json"))
    if snippet.torchrun:
        env.update(PET_LOG_DIR=str(scratch / "ranks"), PET_REDIRECTS="3", DOCSYS_PROBE_RANK0="1")
    return env


def per_rank(log_dir: Path) -> str:
    """torchrun's per-rank logs as `[rankN] line` lines: rank by rank, stdout then stderr."""
    ranks = sorted(log_dir.glob("*/attempt_*/*/"), key=lambda p: (p.parent.name, int(p.name)))
    lines = []
    for rank_dir in ranks:
        for name in ("stdout.log", "stderr.log"):
            path = rank_dir / name
            if path.exists():
                text = path.read_text(encoding="utf-8", errors="replace")
                lines += [f"[rank{rank_dir.name}] {line}".rstrip() for line in text.splitlines()]
    return "".join(f"{line}\n" for line in lines)


def _wait(proc: subprocess.Popen, timeout: float) -> float | None:
    """Wait for the launcher with its rusage (which covers the children it waited for);
    CPU seconds, or None on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            return None
        time.sleep(0.01)


def _launch(snippet: Snippet, workdir: str, out_path: Path, env: dict, python: str | None = None,
            ) -> tuple[int, float, bool, list[str]]:
    token = env[RUN_ID_VAR]
    with out_path.open("w") as out:
        proc = subprocess.Popen(
            command(snippet, python), cwd=workdir, env={**base_env(), **env}, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    try:
        cpu = _wait(proc, snippet.timeout)
    except BaseException:  # interrupted (Ctrl-C, pytest-timeout): still leave nothing running
        processes.kill_group(proc.pid)
        processes.kill(processes.with_env(RUN_ID_VAR, token))
        proc.wait()
        raise
    processes.kill_group(proc.pid)
    leftovers = processes.kill(processes.with_env(RUN_ID_VAR, token))
    if cpu is None:
        proc.wait()
        return -9, 0.0, True, []
    return proc.returncode, cpu, False, leftovers


def run(snippet: Snippet, zygote: Zygote | None = None, python: str | None = None,
        extra_env: dict[str, str] | None = None) -> RunResult:
    """Run one snippet the way a reader does (see the module docstring); `python`: another interpreter
    (with its own torch) instead of this one; `extra_env` (e.g. TEST_ENV) for a launched run (a zygote
    run has its zygote's environment)."""
    token = uuid.uuid4().hex
    with tempfile.TemporaryDirectory(prefix="snippet-") as workdir, tempfile.TemporaryDirectory(
        prefix="snippet-run-"
    ) as scratch_dir:
        scratch = Path(scratch_dir)
        out_path = scratch / "output"
        env = {**(extra_env or {}), **_probe_env(snippet, scratch, token)}
        meter, start = LoadMeter(), time.monotonic()
        argv = forked_argv(snippet) if zygote is not None and python is None else None
        if argv is not None:
            code, cpu, timed_out, leftovers = zygote.run(argv, snippet.timeout, workdir, out_path, env)
        else:
            code, cpu, timed_out, leftovers = _launch(snippet, workdir, out_path, env, python)
        seconds = time.monotonic() - start
        load = meter.stop(own_cpu=cpu)
        output = out_path.read_text(encoding="utf-8", errors="replace") if out_path.exists() else ""
        if snippet.torchrun:
            output += per_rank(scratch / "ranks")
        output = portable(output, workdir)
        if timed_out:
            output = f"timed out after {snippet.timeout:g} s\n{output}"
        return RunResult(
            code, output, seconds, cpu, load, _warnings(scratch / "warnings.jsonl"),
            _json(scratch / "graphs.json"), _figures(snippet, scratch / "figures.json"), tuple(leftovers),
            timed_out, run_facts(_json(scratch / "facts.json")),
        )


def _warnings(path: Path) -> tuple[dict, ...]:
    if not path.exists():
        return ()
    return tuple(json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _figures(snippet: Snippet, path: Path) -> dict:
    """Each declared figure's data; a run that ended before the probe wrote them has an error for each."""
    found = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    missing = {"error": "the run wrote no figure data (it ended before interpreter exit, or rank 0 did not exit)"}
    return {var: found.get(var, missing) for var in snippet.figure_vars}


class Zygote:
    """Client of one fork server (docsys/core/probe/zygote.py); started on first use."""

    def __init__(self, preload: str = "torch", env: dict[str, str] | None = None) -> None:
        self.preload = preload
        self.env = env or {}  # read at start-up (libgomp reads OMP_* when torch is imported)
        self._proc: subprocess.Popen | None = None
        self._unread = b""  # what was read from the server's stdout beyond its last full reply
        self._lock = threading.Lock()
        fd, log = tempfile.mkstemp(prefix="zygote-", suffix=".log")
        os.close(fd)
        self._log = Path(log)

    def _start(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            env = {**base_env(), **self.env, "DOCSYS_ZYGOTE_PRELOAD": self.preload}
            self._unread = b""
            with self._log.open("w") as log:
                self._proc = subprocess.Popen(
                    [sys.executable, str(PROBE_DIR / "zygote.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=log, env=env, cwd=tempfile.gettempdir(),
                )
            self._read(None)
        return self._proc

    def _read(self, timeout: float | None) -> dict | None:
        """The server's next reply, or None after `timeout` seconds. Replies are read from the pipe
        itself into self._unread: both replies of a quick run can arrive in one read, and select()
        on the pipe would not see the second one waiting in a file object's buffer."""
        assert self._proc is not None and self._proc.stdout is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._unread:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                log = self._log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the snippet fork server (docsys/core/probe/zygote.py) exited:\n{log}")
            self._unread += chunk
        line, self._unread = self._unread.split(b"\n", 1)
        return json.loads(line)

    def run(self, argv: list[str], timeout: float, workdir: str, output: Path, env: dict,
            ) -> tuple[int, float, bool, list[str]]:
        """Run `python <argv>` (forked_argv) in a fork; (exit code, CPU seconds, timed out, leftovers)."""
        with self._lock:
            proc = self._start()
            request = {"argv": argv, "cwd": workdir, "output": str(output), "env": env}
            assert proc.stdin is not None
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
            pid = self._read(None)["pid"]
            try:
                done = self._read(timeout)
            except BaseException:  # interrupted: kill the run, and the server whose reply is now pending
                self._kill(pid, env[RUN_ID_VAR])
                self.close()
                raise
            timed_out = done is None
            if timed_out:
                self._kill(pid, env[RUN_ID_VAR])
                done = self._read(None)
            leftovers = self._kill(pid, env[RUN_ID_VAR])
            code = -9 if timed_out else os.waitstatus_to_exitcode(done["status"])
            return code, done["cpu"], timed_out, [] if timed_out else leftovers

    @staticmethod
    def _kill(pid: int, token: str) -> list[str]:
        processes.kill_group(pid)
        return processes.kill(processes.in_session(pid) + processes.with_env(RUN_ID_VAR, token))

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._proc = None
        self._log.unlink(missing_ok=True)
