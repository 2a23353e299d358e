# marks: distributed slow
# timeout: 200
# launch: python
# method: interleaved -- each round builds every variant afresh after a gc.collect(); peaks from profiler events
import contextlib
import functools
import gc
import itertools
import json
import os
import pickle
import signal
import statistics
import subprocess
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch._C._profiler import _EventType
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import ProfilerActivity, profile

REPEATS = 5
VARIANTS = {
    "DDP": dict(ddp=True),
    "FSDP2, built whole, then sharded": dict(meta=False, reshard_after_forward=True),
    "FSDP2 on meta, reshard_after_forward=True": dict(meta=True, reshard_after_forward=True),
    "FSDP2 on meta, reshard_after_forward=False": dict(meta=True, reshard_after_forward=False),
}


def allocated(work):
    """Bytes allocated inside `work`: the running sum of the sizes in the profiler's allocation and free
    events, in time order, at its highest (the peak) and at its end (what `work` left allocated)."""
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        result = work()
    stack, sizes = list(prof.profiler.kineto_results.experimental_event_tree()), []
    while stack:
        event = stack.pop()
        stack.extend(event.children)
        if event.tag == _EventType.Allocation:
            sizes.append((event.start_time_ns, event.extra_fields.alloc_size))
    running = list(itertools.accumulate(size for _, size in sorted(sizes))) or [0]
    return max(running), running[-1], result


def build(mesh, ddp=False, meta=False, reshard_after_forward=True):
    torch.manual_seed(0)
    with torch.device("meta" if meta else "cpu"):
        model = nn.Sequential(*[layer for _ in range(4) for layer in (nn.Linear(512, 512), nn.ReLU())])
    if ddp:
        return DDP(model)
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer, mesh=mesh, reshard_after_forward=reshard_after_forward)
    fully_shard(model, mesh=mesh, reshard_after_forward=reshard_after_forward)
    if meta:
        model.to_empty(device="cpu")
        torch.manual_seed(dist.get_rank())
        for layer in model:
            if isinstance(layer, nn.Linear):
                layer.reset_parameters()
    return model


def local_bytes(tensors):
    return sum((t.to_local() if isinstance(t, DTensor) else t).untyped_storage().nbytes() for t in tensors)


def train_step(model, optimizer, x):
    model(x).pow(2).mean().backward()
    optimizer.step()
    optimizer.zero_grad()


def measure(mesh, options, x):
    gc.collect()  # an earlier variant's modules sit in reference cycles: free them now, not inside this one's windows
    construction, built, model = allocated(lambda: build(mesh, **options))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = functools.partial(train_step, model, optimizer, x)
    step()
    # what the wrapper keeps (DDP: the parameters and its gradient buckets; FSDP2: the shards), and Adam's state
    at_rest = built + local_bytes(t for state in optimizer.state.values() for t in state.values() if t.dim() > 0)
    before = len(pickle.loads(torch._C._distributed_c10d._dump_fr_trace())["entries"])
    during_step, _, _ = allocated(step)
    entries = pickle.loads(torch._C._distributed_c10d._dump_fr_trace())["entries"][before:]
    all_gathers = sum(e["profiling_name"].endswith("all_gather") for e in entries)
    # what the forward pass leaves allocated for the backward pass: activations, and any gathered parameters kept
    _, after_forward, loss = allocated(lambda: model(x).pow(2).mean())
    loss.backward()
    optimizer.zero_grad()
    return construction, at_rest, at_rest + during_step, after_forward, all_gathers


def worker():
    dist.init_process_group("gloo")
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    torch.manual_seed(1)
    x = torch.randn(64, 512)
    results = {name: [] for name in VARIANTS}
    for _ in range(REPEATS):
        for name, options in VARIANTS.items():
            results[name].append(measure(mesh, options, x))
    if dist.get_rank() == 0:
        with open("results.json", "w") as f:
            json.dump(results, f)
    del x
    gc.collect()
    dist.barrier()
    dist.destroy_process_group()


def median_iqr(values, unit=2**20):
    q1, median, q3 = statistics.quantiles([v / unit for v in values], n=4)
    return f"{median:.2f} | {q3 - q1:.2f}" if unit == 2**20 else f"{median:.0f} | {q3 - q1:.0f}"


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
    env = {**os.environ, "TORCH_FR_BUFFER_SIZE": "20000"}
    with torchrun_agent(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as agent:
        _, errors = agent.communicate(timeout=180)
    if agent.returncode:
        raise subprocess.CalledProcessError(agent.returncode, command, stderr=errors)
    with open("results.json") as f:
        results = json.load(f)
    print("threads: 1 (torchrun sets OMP_NUM_THREADS=1 in each of the 2 processes); memory of rank 0")
    print("| variant | construction peak (MiB) | IQR (MiB) | at rest (MiB) | IQR (MiB) | step peak (MiB) | IQR (MiB) "
          "| left by forward (KiB) | IQR (KiB) | runs | all-gathers per step |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, runs in results.items():
        construction, at_rest, step_peak, after_forward, all_gathers = zip(*runs, strict=True)
        print(f"| {name} | {median_iqr(construction)} | {median_iqr(at_rest)} | {median_iqr(step_peak)} "
              f"| {median_iqr(after_forward, unit=2**10)} | {len(runs)} | {all_gathers[0]} |")


if __name__ == "__main__":
    worker() if "LOCAL_RANK" in os.environ else launch()
