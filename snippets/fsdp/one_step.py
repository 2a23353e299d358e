# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# figure: timeline=timeline memory=memory_bars
import gc
import json
import os
import tempfile
from collections import Counter
from itertools import accumulate

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.profiler import ProfilerActivity, profile

rank = int(os.environ["RANK"])
world_size = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo")
mesh = init_device_mesh("cpu", (world_size,))

LAYERS = 3
torch.manual_seed(0)
model = nn.Sequential(*(nn.Linear(512, 512) for _ in range(LAYERS)))
for layer in model:
    fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 512)
for _step in range(2):  # profile the second step: Adam creates its state in the first
    optimizer.zero_grad()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        model(x).sum().backward()
        optimizer.step()
with tempfile.TemporaryDirectory() as trace_dir:
    prof.export_chrome_trace(f"{trace_dir}/trace.json")
    with open(f"{trace_dir}/trace.json") as trace:
        events = sorted(json.load(trace)["traceEvents"], key=lambda e: e["ts"])
spans = [e for e in events if e.get("ph") == "X" and e.get("cat") != "Trace"]
origin = spans[0]["ts"]


def named(prefix, kind, label):
    found = [e for e in spans if e["name"].startswith(prefix)]
    return [[round((e["ts"] - origin) / 1e3, 3), round((e["ts"] + e["dur"] - origin) / 1e3, 3), kind,
             label(i)] for i, e in enumerate(found)]


def module_of(prefix):
    """FSDP names its regions after the module (`FSDP::all_gather (1)`); gloo runs them in that order."""
    regions = [e["name"].rsplit("(", 1)[1].rstrip(")") for e in spans if e["name"].startswith(prefix)]
    return lambda i: f"layer {regions[i]}"


gathers = named("gloo:all_gather", "allgather", module_of("FSDP::all_gather ("))
reduces = named("gloo:all_reduce", "reducescatter", module_of("FSDP::post_backward_reduce ("))
compute = (named("aten::linear", "forward", lambda i: f"layer {i}")
           + named("AddmmBackward0", "backward", lambda i: f"layer {LAYERS - 1 - i}")
           + named("Optimizer.step", "optimizer", lambda i: "Adam"))
print("collectives FSDP called:", dict(Counter(e["name"] for e in spans if e["name"].startswith("c10d::"))))
print("collectives gloo ran:", dict(Counter(e["name"] for e in spans if e["name"].startswith("gloo:"))))


def mib(tensors):
    return sum(t.to_local().numel() * t.element_size() for t in tensors) / 2**20


allocations = [e["args"]["Bytes"] for e in events if e.get("name") == "[memory]"]
memory = {"parameters": mib(model.parameters()), "gradients": mib(p.grad for p in model.parameters()),
          "optimizer_state": mib(t for s in optimizer.state.values() for t in s.values() if t.dim() > 0)}
memory["peak"] = sum(memory.values()) - memory["gradients"] + max(accumulate(allocations, initial=0)) / 2**20
at_rest = ("parameters", "gradients", "optimizer_state")
print("at rest after the step (MiB):", {name: round(memory[name], 2) for name in at_rest})

lanes = [{"lane": "allgather", "rank": rank, "spans": gathers}, {"lane": "compute", "rank": rank, "spans": compute},
         {"lane": "reducescatter", "rank": rank, "spans": reduces}]
gathered = [None] * world_size
dist.gather_object((lanes, memory), gathered if rank == 0 else None)
if rank == 0:
    timeline = {"unit": "ms", "lanes": [lane for rank_lanes, _ in gathered for lane in rank_lanes]}
    memory = {"unit": "MiB", "ranks": [rank_memory for _, rank_memory in gathered]}

del model, optimizer, x, prof
gc.collect()
dist.barrier()
dist.destroy_process_group()
