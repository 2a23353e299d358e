# marks: distributed slow
# timeout: 120
# launch: python
# method: interleaved -- the three DDP setups alternate in rounds in the same two torchrun ranks; round 0 is warm-up
import contextlib
import gc
import json
import os
import pickle
import signal
import statistics
import subprocess
import sys
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

ROUNDS, STEPS = 15, 20


class TwoHeads(nn.Module):
    def __init__(self, with_head_b=True):
        super().__init__()
        self.body = nn.Sequential(*[layer for _ in range(8) for layer in (nn.Linear(64, 64), nn.ReLU())])
        self.head_a = nn.Linear(64, 1)
        self.head_b = nn.Linear(64, 1) if with_head_b else None

    def forward(self, x):
        return self.head_a(self.body(x))


def train(model, optimizer, x, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()


def recorded_collectives():
    return pickle.loads(torch._C._distributed_c10d._dump_fr_trace())["entries"]


def one_step_collectives(model, optimizer, x):
    """(all-reduces, elements all-reduced) in one training step, read from the flight recorder."""
    last = recorded_collectives()[-1]["record_id"]
    train(model, optimizer, x, 1)
    step = [e for e in recorded_collectives() if e["record_id"] > last and e["profiling_name"] == "gloo:all_reduce"]
    return len(step), sum(torch.Size(size).numel() for e in step for size in e["input_sizes"])


def measure():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    models = {
        "without head_b": DDP(TwoHeads(with_head_b=False)),
        "find_unused_parameters=True": DDP(TwoHeads(), find_unused_parameters=True),
        "static_graph=True": DDP(TwoHeads(), static_graph=True),
    }
    optimizers = {name: torch.optim.SGD(model.parameters(), lr=0.01) for name, model in models.items()}
    x = torch.randn(32, 64)
    results = {name: {"times": []} for name in models}
    for round_ in range(ROUNDS + 1):
        for name, model in models.items():
            dist.barrier()
            start = time.perf_counter()
            train(model, optimizers[name], x, STEPS)
            dist.barrier()
            if round_ > 0:
                results[name]["times"].append((time.perf_counter() - start) / STEPS * 1e3)
    for name, model in models.items():
        results[name]["collectives"] = one_step_collectives(model, optimizers[name], x)
    if dist.get_rank() == 0:
        with open("results.json", "w") as f:
            json.dump(results, f)
    del models, optimizers, x
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


def launch():
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2", __file__]
    env = {**os.environ, "TORCH_FR_BUFFER_SIZE": "2000"}
    with torchrun_agent(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as agent:
        _, errors = agent.communicate(timeout=100)
    if agent.returncode:
        raise subprocess.CalledProcessError(agent.returncode, command, stderr=errors)
    with open("results.json") as f:
        results = json.load(f)
    print("threads: 1 (torchrun sets OMP_NUM_THREADS=1 in each of the 2 processes)")
    print("| variant | step (ms) | IQR (ms) | runs | all-reduces per step | elements all-reduced per step |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, result in results.items():
        q1, median, q3 = statistics.quantiles(result["times"], n=4)
        count, elements = result["collectives"]
        print(f"| {name} | {median:.3f} | {q3 - q1:.3f} | {len(result['times'])} | {count} | {elements} |")


if __name__ == "__main__":
    measure() if "LOCAL_RANK" in os.environ else launch()
