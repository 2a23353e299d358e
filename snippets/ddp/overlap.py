# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# figure: overlap=timeline
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import ProfilerActivity, profile

rank = int(os.environ["RANK"])
world_size = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo")

torch.manual_seed(0)
model = DDP(nn.Sequential(*(nn.Linear(512, 512) for _ in range(4))), bucket_cap_mb=1)
x = torch.randn(256, 512)
model(x).sum().backward()  # the first backward also orders the buckets as gradients arrive

loss = model(x).sum()
with profile(activities=[ProfilerActivity.CPU]) as prof:
    loss.backward()
events = prof.events()


def spans(events, name, kind, label):
    """The trace's `name` events in time order, in ms from the start of the trace."""
    found = sorted((e for e in events if e.name == name), key=lambda e: e.time_range.start)
    start = min(e.time_range.start for e in events)
    return [[round((e.time_range.start - start) / 1e3, 3), round((e.time_range.end - start) / 1e3, 3), kind,
             label(i, len(found))] for i, e in enumerate(found)]


gradients = spans(events, "AddmmBackward0", "backward", lambda i, n: f"layer {n - 1 - i}")
all_reduces = spans(events, "gloo:all_reduce", "allreduce", lambda i, n: f"bucket {i}")
print(f"gradients computed: {len(gradients)}, all-reduces (one per bucket): {len(all_reduces)}")
print("bucket 0's all-reduce started before backward ended:", all_reduces[0][0] < gradients[-1][1])

lanes = [{"lane": "backward", "rank": rank, "spans": gradients},
         {"lane": "allreduce", "rank": rank, "spans": all_reduces}]
gathered = [None] * world_size
dist.gather_object(lanes, gathered if rank == 0 else None)
if rank == 0:
    overlap = {"unit": "ms", "lanes": [lane for rank_lanes in gathered for lane in rank_lanes]}

del model, x, loss, prof, events
gc.collect()
dist.barrier()
dist.destroy_process_group()
