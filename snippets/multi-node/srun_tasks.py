# marks: distributed
# timeout: 120
# launch: python
import os
import socket
import subprocess
import sys
from pathlib import Path

import torch

WORKER = Path(__file__).with_name("worker.py")

with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]

tasks = []
for task in range(2):
    slurm = {"SLURM_PROCID": str(task), "SLURM_LOCALID": "0", "SLURM_NODEID": str(task),
             "SLURM_NTASKS_PER_NODE": "1", "SLURM_NTASKS": "2", "SLURM_JOB_ID": "4242"}
    # one GPU per task as --gpus-per-task=1 would bind it, or none (gloo) with fewer than two GPUs
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", ",".join(map(str, range(torch.cuda.device_count()))))
    gpus = visible.split(",")[task] if torch.cuda.device_count() >= 2 else ""
    env = {**os.environ, **slurm, "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "CUDA_VISIBLE_DEVICES": gpus}
    tasks.append(subprocess.Popen([sys.executable, str(WORKER)], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True))
try:
    outputs = [task.communicate(timeout=90)[0] for task in tasks]
finally:
    for task in tasks:
        task.kill()
        task.wait()
print("tasks exited with", [task.returncode for task in tasks])
for output in outputs:
    print(output, end="")
