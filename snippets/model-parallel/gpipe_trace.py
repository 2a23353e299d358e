# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# figure: timeline=timeline
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe
from torch.profiler import ProfilerActivity, profile

rank = int(os.environ["RANK"])
world_size = int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo")

torch.manual_seed(rank)
layers = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024))
stage = PipelineStage(layers, stage_index=rank, num_stages=world_size, device=torch.device("cpu"))
schedule = ScheduleGPipe(stage, n_microbatches=4, loss_fn=nn.MSELoss())
x, y = torch.randn(256, 1024), torch.randn(256, 1024)


def train_step(schedule):
    if rank == 0:
        schedule.step(x)
    else:
        schedule.step(target=y)


train_step(schedule)
dist.barrier()
with profile(activities=[ProfilerActivity.CPU]) as prof:
    train_step(schedule)
events = prof.events()


def compute(events, region, op):
    """From the first to the last `op` in one of the schedule's regions, in ms: the layers' work,
    without the wait for the previous stage's activations or the next stage's gradients."""
    start, end = region.time_range.start, region.time_range.end
    inside = [e.time_range for e in events if e.name == op and start <= e.time_range.start < end]
    return [round(min(t.start for t in inside) / 1e3, 3), round(max(t.end for t in inside) / 1e3, 3)]


regions = sorted((e for e in events if e.name.startswith(("Forward ", "Backward "))), key=lambda e: e.time_range.start)
spans = [[*compute(events, r, "aten::linear" if r.name.startswith("F") else "AddmmBackward0"),
          "forward" if r.name.startswith("F") else "backward", r.name[0] + r.name.split()[1]] for r in regions]
planned = [str(a).removeprefix(str(rank)) for a in schedule.pipeline_order[rank] if a.microbatch_index is not None]
print(f"stage {rank} ran {[s[3] for s in spans]}, the schedule's order: {[s[3] for s in spans] == planned}")

lanes = [None] * world_size
dist.gather_object({"lane": "stage", "index": rank, "spans": spans}, lanes if rank == 0 else None)
if rank == 0:
    timeline = {"unit": "ms", "lanes": lanes, "idle": True}

del stage, schedule, layers, prof, events
gc.collect()
dist.barrier()
dist.destroy_process_group()
