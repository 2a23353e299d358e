# marks: distributed
# timeout: 180
# launch: torchrun --standalone --nproc-per-node=2
# method: interleaved -- the schedules alternate in rounds under one profiler; activations counted in an untimed step
# figure: timelines=timeline
import gc
import os
import statistics

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import (
    PipelineStage,
    Schedule1F1B,
    ScheduleGPipe,
    ScheduleInterleaved1F1B,
    ScheduleZBVZeroBubble,
)
from torch.profiler import ProfilerActivity, profile, record_function

rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo")
WIDTH, BLOCKS, MICROBATCHES, ROUNDS = 1024, 4, 4, 20
torch.manual_seed(0)  # every rank builds the same full model, then keeps its blocks
x, y = torch.randn(256, WIDTH), torch.randn(256, WIDTH)
init = [nn.Sequential(nn.Linear(WIDTH, WIDTH), nn.ReLU()).state_dict() for _ in range(BLOCKS)]


class TracedStage(PipelineStage):
    """Marks each pass in the profiler as the schedules name it: 0F1 is stage 0's forward of
    micro-batch 1; B a full backward, I its input half, W its weight half."""

    def forward_one_chunk(self, chunk, *args, **kwargs):
        with record_function(f"pass {self.stage_index}F{chunk}"):
            return super().forward_one_chunk(chunk, *args, **kwargs)

    def backward_one_chunk(self, chunk, *args, full_backward=True, **kwargs):
        with record_function(f"pass {self.stage_index}{'B' if full_backward else 'I'}{chunk}"):
            return super().backward_one_chunk(chunk, *args, full_backward=full_backward, **kwargs)

    def backward_weight_one_chunk(self, chunk, *args, **kwargs):
        with record_function(f"pass {self.stage_index}W{chunk}"):
            return super().backward_weight_one_chunk(chunk, *args, **kwargs)


def blocks(first, last):
    layers = [nn.Sequential(nn.Linear(WIDTH, WIDTH), nn.ReLU()) for _ in range(first, last)]
    for block, state in zip(layers, init[first:last], strict=True):
        block.load_state_dict(state)
    return nn.Sequential(*layers)


def stages(indices, num_stages):
    size = BLOCKS // num_stages
    return [TracedStage(blocks(i * size, (i + 1) * size), i, num_stages, torch.device("cpu")) for i in indices]


# name: (schedule class, the stage indices this rank holds, number of stages)
SCHEDULES = {
    "GPipe": (ScheduleGPipe, [rank], 2),
    "1F1B": (Schedule1F1B, [rank], 2),
    "Interleaved1F1B": (ScheduleInterleaved1F1B, [rank, rank + 2], 4),  # loop: 0 2 | 1 3
    "ZBVZeroBubble": (ScheduleZBVZeroBubble, [rank, 3 - rank], 4),  # V: 0 3 | 1 2
}


def build(name):
    kind, indices, num_stages = SCHEDULES[name]
    held = stages(indices, num_stages)
    single = kind in (ScheduleGPipe, Schedule1F1B)
    return held, kind(held[0] if single else held, n_microbatches=MICROBATCHES, loss_fn=nn.MSELoss())


def step(held, schedule):
    inputs = (x,) if any(stage.is_first for stage in held) else ()
    schedule.step(*inputs, target=y if any(stage.is_last for stage in held) else None)


def held_activations_mib(held, schedule):
    """The most bytes autograd kept saved for backward at once on this rank: activations, not
    parameters and not the batch itself (its micro-batches are views of x and y)."""
    skip = {t.untyped_storage().data_ptr() for stage in held for t in [*stage.submod.parameters(), x, y]}
    live, peak = {}, [0]

    class Saved:
        def __init__(self, tensor):
            self.tensor, self.key = tensor, tensor.untyped_storage().data_ptr()
            if self.key not in skip:
                count, nbytes = live.get(self.key, (0, tensor.untyped_storage().nbytes()))
                live[self.key] = (count + 1, nbytes)
                peak[0] = max(peak[0], sum(n for _, n in live.values()))

        def __del__(self):
            if self.key in live:
                count, nbytes = live.pop(self.key)
                if count > 1:
                    live[self.key] = (count - 1, nbytes)

    with torch.autograd.graph.saved_tensors_hooks(Saved, lambda saved: saved.tensor):
        step(held, schedule)
    return peak[0] / 2**20


KINDS = {"F": "forward", "B": "backward", "I": "backward_input", "W": "backward_weight"}


def profiled_rounds(built):
    """Each schedule's steps: this rank's passes as [start, end, kind, name] in ms from the start
    of the step, the step's length and the time in it that the rank was not computing (ms)."""
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every schedule
            for name, (held, schedule) in built.items():
                dist.barrier()
                with record_function(f"step {name}"):
                    step(held, schedule)
    events = prof.events()
    found = [e for e in events if e.name.startswith("pass ")]
    steps = {name: [] for name in built}
    for region in (e for e in events if e.name.startswith("step ")):
        start, end = region.time_range.start, region.time_range.end
        spans = sorted([round((e.time_range.start - start) / 1e3, 3), round((e.time_range.end - start) / 1e3, 3),
                        KINDS[e.name[6]], e.name[5:]] for e in found if start <= e.time_range.start < end)
        length = (end - start) / 1e3
        steps[region.name[5:]].append((spans, length, length - sum(stop - begin for begin, stop, *_ in spans)))
    return steps


def median_iqr(values):
    q1, median, q3 = statistics.quantiles(values, n=4)
    return f"{median:.2f} | {q3 - q1:.2f}"


def median_round(steps):
    lengths = [length for _, length, _ in steps]
    return lengths.index(statistics.median_low(lengths))


built = {name: build(name) for name in SCHEDULES}
mine = {"planned": {}, "activations": {}, "grads": {}}
for name, (held, schedule) in built.items():
    step(held, schedule)  # warm-up
    for stage in held:
        stage.submod.zero_grad()
    mine["activations"][name] = held_activations_mib(held, schedule)
    size = BLOCKS // SCHEDULES[name][2]  # blocks per stage; block b of the model is the same in every schedule
    mine["grads"][name] = {stage.stage_index * size + i: [p.grad.clone() for p in block.parameters()]
                           for stage in held for i, block in enumerate(stage.submod)}
    mine["planned"][name] = [str(a) for a in schedule.pipeline_order[rank] if a and a.computation_type.value in KINDS]
mine["steps"] = profiled_rounds(built)

ranks = [None] * world_size
dist.gather_object(mine, ranks if rank == 0 else None)
if rank == 0:
    for name in SCHEDULES:
        print(f"{name}:")
        for r, got in enumerate(ranks):
            ran = [span[3] for span in got["steps"][name][0][0]]
            print(f"  rank {r}: {' '.join(ran)}")
            if ran != got["planned"][name]:
                print(f"  rank {r}, as schedule.pipeline_order lists it: {' '.join(got['planned'][name])}")
    grads = {name: {b: g for got in ranks for b, g in got["grads"][name].items()} for name in SCHEDULES}
    same = {name: all(torch.allclose(a, b) for block, expected in grads["GPipe"].items()
                      for a, b in zip(grads[name][block], expected, strict=True)) for name in SCHEDULES}
    print(f"the gradients of all {BLOCKS} blocks equal GPipe's: {same}")
    print("| schedule | activations held at most, rank 0 (MiB) | rank 1 (MiB) |")
    print("|---|---:|---:|")
    for name in SCHEDULES:
        print(f"| {name} | {ranks[0]['activations'][name]:.2f} | {ranks[1]['activations'][name]:.2f} |")
    print(f"threads: {torch.get_num_threads()} in each of the 2 processes")
    print("| variant | step (ms) | IQR (ms) | rank 0 not computing (ms) | IQR (ms) | rank 1 (ms) | IQR (ms) | runs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in SCHEDULES:
        lengths = [length for _, length, _ in ranks[0]["steps"][name]]
        idle = [[waited for *_, waited in got["steps"][name]] for got in ranks]
        print(f"| {name} | " + " | ".join(median_iqr(values) for values in (lengths, *idle)) + f" | {ROUNDS} |")
    timelines = {"unit": "ms", "panels": [  # each schedule's round of median length on rank 0
        {"title": name, "idle": True,
         "lanes": [{"lane": "rank", "index": r, "spans": got["steps"][name][median_round(ranks[0]["steps"][name])][0]}
                   for r, got in enumerate(ranks)]}
        for name in SCHEDULES]}

del built, mine, ranks
gc.collect()
dist.barrier()
dist.destroy_process_group()
