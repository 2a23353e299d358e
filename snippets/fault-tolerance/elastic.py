# marks: distributed slow
# timeout: 200
# launch: python
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def worker():
    import gc

    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    world_size = dist.get_world_size()
    with open("progress.txt", "a") as progress:
        restarts = os.environ["TORCHELASTIC_RESTART_COUNT"]
        progress.write(f"world size {world_size}: rank {dist.get_rank()} started (restart count {restarts})\n")
    deadline = time.monotonic() + 60
    while world_size == 1 and time.monotonic() < deadline:
        dist.barrier()
        time.sleep(0.2)
    total = torch.ones(1)
    dist.all_reduce(total)
    with open("progress.txt", "a") as progress:
        rank = dist.get_rank()
        progress.write(f"world size {world_size}: rank {rank} finished, all_reduce of ones = {total.item():g}\n")
    del total
    gc.collect()
    dist.barrier()
    dist.destroy_process_group()


@contextlib.contextmanager
def torchrun_agent(command, **options):
    with subprocess.Popen(command, start_new_session=True, **options) as agent:
        try:
            yield agent
        finally:
            stop_agent(agent)


def stop_agent(agent):
    """SIGTERM before SIGKILL: torchrun starts each worker in a session of its own, and ends them only when it
    is itself asked to stop; it gives them 30 s before it kills them."""
    if agent.poll() is None:
        os.killpg(agent.pid, signal.SIGTERM)
        try:
            agent.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(agent.pid, signal.SIGKILL)


def agent(port, name):
    command = [sys.executable, "-m", "torch.distributed.run", "--nnodes=1:2", "--nproc-per-node=1", "--max-restarts=1",
               "--rdzv-backend=c10d", f"--rdzv-endpoint=127.0.0.1:{port}", "--rdzv-id=elastic-demo",
               "--rdzv-conf=last_call_timeout=1", __file__]
    env = {**os.environ, "TORCH_DISABLE_SHARE_RDZV_TCP_STORE": "1"}
    return torchrun_agent(command, env=env, stdout=subprocess.DEVNULL, stderr=open(f"agent_{name}.log", "w"))


def launch():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    progress = Path("progress.txt")
    progress.touch()
    with agent(port, "a") as first:
        deadline = time.monotonic() + 60
        while "world size 1" not in progress.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        with agent(port, "b") as second:
            codes = [first.wait(timeout=90), second.wait(timeout=30)]
    print("agents exit status:", codes)
    lines = progress.read_text().splitlines()
    for line in sorted(lines, key=lambda line: (line.split(":")[0], line.split()[4], "finished" in line)):
        print(line)


if __name__ == "__main__":
    worker() if "LOCAL_RANK" in os.environ else launch()
