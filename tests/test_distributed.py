"""Multi-process snippets: how the runner launches them, and what a reader sees without torchrun.

The runner's guarantees are proved here with planted scripts (they need no torch import, so
they are quick): rank outputs come back grouped by rank whatever order the ranks print in,
two `--standalone` launches can run at the same time, and no process outlives a run — not a
hanging rank, not a detached grandchild.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from docsys.snippets import Snippet, discover, failure_message, run

TORCHRUN = ("torchrun", "--standalone", "--nproc-per-node=2")
LAUNCHED = [s for s in discover() if s.launch]


def _plant(tmp_path: Path, name: str, body: str, launch: tuple[str, ...] = TORCHRUN, timeout: float = 60) -> Snippet:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return Snippet(path=path, timeout=timeout, launch=launch)


def _alive(pid: int) -> bool:
    """True if the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


@pytest.mark.distributed
def test_ranks_are_grouped_in_rank_order_and_concurrent_standalone_launches_work(tmp_path):
    # rank 1 prints first; the recording must still list rank 0 first
    body = """
        import os, time
        rank = int(os.environ["RANK"])
        time.sleep(0.0 if rank else 0.5)
        print(f"rank {rank} of {os.environ['WORLD_SIZE']}")
        print(f"port {os.environ['MASTER_PORT']}")
    """
    snippets = [_plant(tmp_path, f"ranks{i}.py", body) for i in range(2)]
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(run, snippets))
    ports = set()
    for result in results:
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert [line.split(" port ")[0] for line in lines] == [
            "[rank0] rank 0 of 2",
            "[rank0]",
            "[rank1] rank 1 of 2",
            "[rank1]",
        ], result.stdout
        ports |= {line.rsplit(" ", 1)[1] for line in lines if " port " in line}
    assert len(ports) == 2, f"both launches used the same rendezvous port: {ports}"


@pytest.mark.distributed
def test_a_hanging_rank_is_killed_at_the_timeout_with_everything_else(tmp_path):
    pids = tmp_path / "pids"
    hang = _plant(
        tmp_path,
        "hang.py",
        f"""
        import os, time
        with open({str(pids)!r}, "a") as f:
            print(os.getpid(), file=f)
        if os.environ["RANK"] == "1":
            time.sleep(600)
        """,
        timeout=15,
    )
    result = run(hang)
    assert result.returncode == -9 and "timed out after 15 s" in result.stderr, result
    assert len(_pids(pids)) == 2
    time.sleep(0.5)
    assert not [pid for pid in _pids(pids) if _alive(pid)], "a rank outlived its run"


def test_a_detached_leftover_process_fails_the_run_and_is_killed(tmp_path):
    pids = tmp_path / "pids"
    orphan = _plant(
        tmp_path,
        "orphan.py",
        f"""
        import subprocess
        child = subprocess.Popen(["sleep", "300"], start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open({str(pids)!r}, "w") as f:
            print(child.pid, file=f)
        print("done")
        """,
        launch=(),
    )
    result = run(orphan)
    assert result.returncode == 0
    assert len(result.leftovers) == 1 and "sleep 300" in result.leftovers[0], result.leftovers
    assert "left processes running" in (failure_message(orphan, result) or "")
    time.sleep(0.5)
    assert not [pid for pid in _pids(pids) if _alive(pid)], "the leftover was not killed"


class _Interrupted(Exception):
    pass


def test_an_interrupted_run_still_kills_everything(tmp_path):
    pids = tmp_path / "pids"
    stuck = _plant(
        tmp_path,
        "stuck.py",
        f"""
        import os, subprocess, time
        child = subprocess.Popen(["sleep", "300"], start_new_session=True)
        with open({str(pids)!r}, "w") as f:
            print(os.getpid(), child.pid, file=f)
        time.sleep(600)
        """,
        launch=(),
    )

    def interrupt(signum, frame):
        raise _Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        with pytest.raises(_Interrupted):
            run(stuck)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    time.sleep(0.5)
    assert len(_pids(pids)) == 2
    assert not [pid for pid in _pids(pids) if _alive(pid)], "a process survived the interrupted run"


@pytest.mark.parametrize("snippet", LAUNCHED, ids=lambda s: s.rel)
def test_without_torchrun_a_launched_snippet_prints_how_to_launch_it(snippet):
    proc = subprocess.run(
        [sys.executable, str(snippet.path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k not in {"RANK", "WORLD_SIZE", "LOCAL_RANK"}},
    )
    assert proc.returncode != 0
    assert proc.stdout == ""
    expected = f"launch with: {' '.join(snippet.launch)} {snippet.path}"
    assert proc.stderr.strip().splitlines() == [expected], proc.stderr


SHUTDOWN = ("gc.collect()", "dist.barrier()", "dist.destroy_process_group()")


def _shutdown_problem(source: str) -> str | None:
    """Why a launched script does not end with the clean shutdown (docs/en/ddp.md#shutdown):
    `del` of what it holds, gc.collect(), a barrier, then destroy_process_group()."""
    lines = [line.strip() for line in source.strip().splitlines()]
    if tuple(lines[-3:]) != SHUTDOWN:
        return f"last lines are {lines[-3:]}, expected {list(SHUTDOWN)}"
    if len(lines) < 4 or not lines[-4].startswith("del "):
        return "the line before gc.collect() must `del` the model, optimizer and tensors"
    return None


@pytest.mark.parametrize("snippet", LAUNCHED, ids=lambda s: s.rel)
def test_a_launched_snippet_releases_everything_before_destroying_its_group(snippet):
    problem = _shutdown_problem(snippet.path.read_text(encoding="utf-8"))
    assert problem is None, f"{snippet.rel}: {problem}"


def test_the_shutdown_check_catches_a_script_that_skips_the_release():
    good = "x = 1\ndel model, optimizer\ngc.collect()\ndist.barrier()\ndist.destroy_process_group()\n"
    assert _shutdown_problem(good) is None
    assert "expected" in (_shutdown_problem("x = 1\ndist.destroy_process_group()\n") or "")
    assert "del" in (_shutdown_problem("x = 1\ngc.collect()\ndist.barrier()\ndist.destroy_process_group()\n") or "")
