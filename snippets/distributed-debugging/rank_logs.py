# marks: distributed
# launch: python
import os
import re
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


def launch():
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
               "--log-dir=logs", "--redirects=3", __file__]
    job = subprocess.run(command, capture_output=True, text=True, timeout=50)
    print("torchrun exit status:", job.returncode)
    root_cause = job.stderr.split("Root Cause (first observed failure):")[1]
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
