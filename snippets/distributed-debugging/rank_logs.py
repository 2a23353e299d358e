# marks: distributed
# launch: python
import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path


def worker():
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    x = torch.ones(4 if rank == 0 else 8)
    print(f"rank {rank}: all_reduce of {x.numel()} elements")
    dist.all_reduce(x)
    print(f"rank {rank}: done")


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


def launch():
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
               "--log-dir=logs", "--redirects=3", __file__]
    with torchrun_agent(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as agent:
        _, stderr = agent.communicate(timeout=50)
    print("torchrun exit status:", agent.returncode)
    root_cause = stderr.split("Root Cause (first observed failure):")[1]
    for line in root_cause.splitlines():
        if line.strip().startswith(("rank", "exitcode")):
            print("root cause:", re.sub(r" \(pid: \d+\)", "", line.strip()))
    logs = sorted(Path("logs").glob("*/attempt_*/*/*.log"))
    print("log files:", [str(log.relative_to(log.parents[2])) for log in logs])
    for log in logs:
        if log.name == "stdout.log" or log.parent.name == "0":
            print(f"--- {log.parent.name}/{log.name}")
            print(log.read_text().rstrip())


if __name__ == "__main__":
    worker() if "LOCAL_RANK" in os.environ else launch()
