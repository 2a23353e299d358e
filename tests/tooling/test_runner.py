"""docsys.core.runner: snippets run as the reader runs them, and leave nothing behind.

Planted scripts need no torch import, so they are quick. The fork server (zygote) must give
exactly what `python <file>` gives: the same output for prints, warnings, logging, an uncaught
exception, sys.exit with a message, atexit handlers and threads.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from docsys.core.normalize import normalize, portable
from docsys.core.runner import TEST_ENV, Zygote, run
from docsys.core.snippet import Snippet

TORCHRUN = ("torchrun", "--standalone", "--nproc-per-node=2")


def _plant(tmp_path: Path, name: str, body: str, launch=(), timeout: float = 60, graphs=(), figures=()) -> Snippet:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return Snippet(path=path, root=tmp_path, timeout=timeout, launch=launch, graphs=graphs, figures=figures)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


BEHAVIOURS = {
    "prints_warns_logs.py": """
        import logging, sys, warnings
        print("out 1")
        print("err 1", file=sys.stderr)
        warnings.warn("a user warning")
        logging.warning("a log line")
        print("out 2")
    """,
    "raises.py": """
        def inner():
            raise ValueError("planted")
        print("before")
        inner()
    """,
    "exits_with_message.py": """
        import sys
        print("bye")
        sys.exit("stopping here")
    """,
    "atexit_and_thread.py": """
        import atexit, threading, time
        atexit.register(lambda: print("atexit ran"))
        threading.Thread(target=lambda: (time.sleep(0.2), print("thread done"))).start()
        print("main done", __name__, __file__.endswith("atexit_and_thread.py"))
    """,
}


@pytest.fixture(scope="module")
def zygote():
    server = Zygote(preload="json")
    yield server
    server.close()


@pytest.mark.parametrize("name", BEHAVIOURS)
def test_the_fork_server_prints_what_python_prints(tmp_path, zygote, name):
    snippet = _plant(tmp_path, name, BEHAVIOURS[name])
    plain = subprocess.run([sys.executable, str(snippet.path)], cwd=tmp_path, capture_output=True, text=True)
    forked = run(snippet, zygote=zygote)
    assert forked.returncode == plain.returncode
    # a terminal interleaves the two streams; compare each stream's lines in order
    expected = portable(plain.stdout + plain.stderr)
    assert sorted(forked.output.splitlines()) == sorted(expected.splitlines())
    assert run(snippet).output == forked.output


def test_warnings_and_graphs_are_seen_without_changing_the_output(tmp_path, zygote):
    snippet = _plant(tmp_path, "g.py", """
        import warnings
        class Graph:
            source = "digraph { a -> b }"
        g, n = Graph(), 3
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            warnings.warn("caught", FutureWarning)
        print("done")
    """, graphs=("g", "n"))
    for result in (run(snippet), run(snippet, zygote=zygote)):
        assert result.output == "done\n"
        assert [(w["category"], w["message"]) for w in result.warnings] == [("FutureWarning", "caught")]
        assert result.graphs["g"] == "digraph { a -> b }" and "not a graphviz.Digraph" in result.graphs["n"]["error"]


def test_figure_data_is_seen_at_exit_and_what_is_not_data_is_named(tmp_path, zygote):
    snippet = _plant(tmp_path, "f.py", """
        spans = [{"name": "forward", "start": 0.0, "end": 1.5}]
        handle = open(__file__)
        handle.close()
        spans.append({"name": "backward", "start": 1.5, "end": 4.0})
        print("done")
    """, figures=(("spans", "timeline"), ("handle", "timeline"), ("nothing", "timeline")))
    for result in (run(snippet), run(snippet, zygote=zygote)):
        assert result.output == "done\n"
        assert result.figures["spans"] == {"data": [{"name": "forward", "start": 0.0, "end": 1.5},
                                                    {"name": "backward", "start": 1.5, "end": 4.0}]}
        assert "'handle' is not JSON data" in result.figures["handle"]["error"]
        assert result.figures["nothing"] == {"error": "no module-level variable 'nothing' at exit"}


@pytest.mark.distributed
def test_the_fork_server_launches_torchrun_as_torchrun_does(tmp_path, zygote):
    snippet = _plant(tmp_path, "ranks_warn.py", """
        import os, warnings
        rank = int(os.environ["RANK"])
        print(f"rank {rank} of {os.environ['WORLD_SIZE']}", __name__)
        warnings.warn(f"from rank {rank}")
    """, launch=TORCHRUN)
    launched, forked = run(snippet), run(snippet, zygote=zygote)
    assert forked.returncode == launched.returncode == 0, forked.output
    assert normalize(forked.output) == normalize(launched.output)
    assert "[rank1] rank 1 of 2 __main__" in forked.output
    assert sorted(w["message"] for w in forked.warnings) == ["from rank 0", "from rank 1"]



@pytest.mark.distributed
def test_a_launched_snippets_figure_data_is_rank_0s(tmp_path):
    snippet = _plant(tmp_path, "ranks_figure.py", """
        import os
        rank = int(os.environ["RANK"])
        held = {"rank": rank, "ranks": [0, 1]} if rank == 0 else "rank 1 holds something else"
    """, launch=TORCHRUN, figures=(("held", "placements"),))
    result = run(snippet)
    assert result.returncode == 0, result.output
    assert result.figures == {"held": {"data": {"rank": 0, "ranks": [0, 1]}}}


@pytest.mark.distributed
def test_ranks_are_grouped_in_rank_order_and_concurrent_standalone_launches_work(tmp_path):
    body = """
        import os, sys, time
        rank = int(os.environ["RANK"])
        time.sleep(0.0 if rank else 0.5)  # rank 1 prints first; the recording must list rank 0 first
        print(f"rank {rank} of {os.environ['WORLD_SIZE']}")
        print(f"port {os.environ['MASTER_PORT']}", file=sys.stderr)
    """
    snippets = [_plant(tmp_path, f"ranks{i}.py", body, launch=TORCHRUN) for i in range(2)]
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(run, snippets))
    ports = set()
    for result in results:
        assert result.returncode == 0, result.output
        rank_lines = [line for line in result.output.splitlines() if line.startswith("[rank")]
        assert [line.split(" port ")[0] for line in rank_lines] == [
            "[rank0] rank 0 of 2", "[rank0]", "[rank1] rank 1 of 2", "[rank1]"], result.output
        ports |= {line.rsplit(" ", 1)[1] for line in rank_lines if " port " in line}
    assert len(ports) == 2, f"both launches used the same rendezvous port: {ports}"


@pytest.mark.distributed
def test_a_hanging_rank_is_killed_at_the_timeout_with_everything_else(tmp_path):
    pids = tmp_path / "pids"
    hang = _plant(tmp_path, "hang.py", f"""
        import os, time
        with open({str(pids)!r}, "a") as f:
            print(os.getpid(), file=f)
        if os.environ["RANK"] == "1":
            time.sleep(600)
    """, launch=TORCHRUN, timeout=6)
    result = run(hang)
    assert result.timed_out and result.returncode == -9 and "timed out after 6 s" in result.output
    assert len(_pids(pids)) == 2
    time.sleep(0.5)
    assert not [pid for pid in _pids(pids) if _alive(pid)], "a rank outlived its run"


@pytest.mark.parametrize("forked", [False, True], ids=["python", "fork server"])
def test_a_detached_leftover_process_is_reported_and_killed(tmp_path, zygote, forked):
    pids = tmp_path / "pids"
    orphan = _plant(tmp_path, "orphan.py", f"""
        import subprocess
        child = subprocess.Popen(["sleep", "300"], start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open({str(pids)!r}, "w") as f:
            print(child.pid, file=f)
        print("done")
    """)
    result = run(orphan, zygote=zygote if forked else None)
    assert result.returncode == 0
    assert len(result.leftovers) == 1 and "sleep 300" in result.leftovers[0], result.leftovers
    time.sleep(0.5)
    assert not [pid for pid in _pids(pids) if _alive(pid)], "the leftover was not killed"


@pytest.mark.parametrize("forked", [False, True], ids=["python", "fork server"])
def test_a_hanging_snippet_times_out(tmp_path, zygote, forked):
    result = run(_plant(tmp_path, "hang.py", "import time\ntime.sleep(30)\n", timeout=1),
                 zygote=zygote if forked else None)
    assert result.timed_out and "timed out after 1 s" in result.output


def test_two_replies_that_arrive_in_one_read_are_both_seen(tmp_path):
    """A quick run's two replies (started, ended) can reach the client together; the second must not
    wait, unseen by select(), in a read buffer until the run's timeout."""
    client = Zygote(preload="json")
    replies = '{"pid": 1}\\n{"pid": 1, "status": 0, "cpu": 0.0}\\n'
    client._proc = subprocess.Popen(  # a stand-in server that sends both replies in one write
        [sys.executable, "-c", f"import os, time; os.write(1, b'{replies}'); time.sleep(30)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    try:
        assert client._read(5) == {"pid": 1}
        assert client._read(1) == {"pid": 1, "status": 0, "cpu": 0.0}
    finally:
        client.close()


class _Interrupted(Exception):
    pass


def test_an_interrupted_run_still_kills_everything(tmp_path):
    pids = tmp_path / "pids"
    stuck = _plant(tmp_path, "stuck.py", f"""
        import os, subprocess, time
        child = subprocess.Popen(["sleep", "300"], start_new_session=True)
        with open({str(pids)!r}, "w") as f:
            print(os.getpid(), child.pid, file=f)
        time.sleep(600)
    """)

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


def test_a_test_run_s_environment_reaches_launched_and_forked_runs_alike(tmp_path):
    """TEST_ENV (idle OpenMP threads wait passively) is set before the zygote imports torch, and for launches."""
    snippet = _plant(tmp_path, "env.py", """
        import os
        print(os.environ.get("OMP_WAIT_POLICY"))
    """)
    server = Zygote(preload="json", env=TEST_ENV)
    try:
        assert run(snippet, zygote=server).output == "PASSIVE\n"
    finally:
        server.close()
    assert run(snippet, extra_env=TEST_ENV).output == "PASSIVE\n"
    assert run(snippet).output == "None\n"  # a recording runs with the reader's environment


def test_a_thread_count_variant_stands_in_for_a_larger_machine_unless_omp_num_threads_decides(tmp_path, monkeypatch):
    """DOCSYS_TORCH_THREADS (make test-portable's four-thread variant) sets torch's default thread count in
    a launched run and in a fork of a server that has imported torch; OMP_NUM_THREADS, where set (torchrun
    sets it for its ranks), decides instead, as on any machine. The probe reports what torch used."""
    snippet = _plant(tmp_path, "threads.py", """
        import torch
        print(torch.get_num_threads())
    """)
    monkeypatch.setenv("DOCSYS_TORCH_THREADS", "4")
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    server = Zygote()  # imports torch with the variable set, as a test run's does
    try:
        forked = run(snippet, zygote=server)
    finally:
        server.close()
    launched = run(snippet)
    assert forked.output == launched.output == "4\n" and launched.facts["threads"] == 4
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert run(snippet).output == "1\n"
