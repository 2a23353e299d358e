# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import contextlib
import gc
import os
import pickle
import re
import sys
import tempfile

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def pick_device():
    local_rank, local_world_size = int(os.environ["LOCAL_RANK"]), int(os.environ["LOCAL_WORLD_SIZE"])
    visible = torch.cuda.device_count()
    if visible >= local_world_size:
        return torch.device("cuda", local_rank), "nccl"
    if visible == 1:
        return torch.device("cuda", 0), "nccl"
    if visible == 0:
        return torch.device("cpu"), "gloo"
    raise SystemExit(f"{visible} GPUs visible for {local_world_size} processes on this machine: "
                     f"need {local_world_size}, exactly 1, or none")


device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)


@contextlib.contextmanager
def cpp_warnings_to_stdout():
    """torch's C++ logger writes warnings to file descriptor 2 with a timestamp: collect them, print them without."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+") as log:
        os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            log.seek(0)
            for line in log:
                print(re.sub(r"^\[rank\d+\]:\[W[\d :.]+ \S+\] ", "(C++ log) ", line.rstrip()))


class TwoHeads(nn.Module):
    def __init__(self, with_head_b=True):
        super().__init__()
        self.body = nn.Linear(8, 16)
        self.head_a = nn.Linear(16, 1)
        self.head_b = nn.Linear(16, 1) if with_head_b else None

    def forward(self, x):
        return self.head_a(torch.relu(self.body(x)))


def all_reduces_since(record_id):
    """The all-reduces the flight recorder holds after entry `record_id`, and the id of its last entry."""
    entries = pickle.loads(torch._C._distributed_c10d._dump_fr_trace())["entries"]
    new = [e for e in entries if e["record_id"] > record_id and e["profiling_name"].endswith("all_reduce")]
    return len(new), max((e["record_id"] for e in entries), default=-1)


def same_on_all_ranks(tensor):
    copies = [torch.empty_like(tensor) for _ in range(dist.get_world_size())]
    dist.all_gather(copies, tensor.detach())
    return all(torch.equal(copy, copies[0]) for copy in copies)


def train(label, x, with_head_b=True, **ddp_options):
    torch.manual_seed(0)
    model = DDP(TwoHeads(with_head_b).to(device), device_ids=[device] if backend == "nccl" else None, **ddp_options)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        _, last = all_reduces_since(-1)
        try:
            optimizer.zero_grad()
            model(x).pow(2).mean().backward()
            optimizer.step()
        except RuntimeError as error:
            return print(f"{label}: step {step} raised RuntimeError:\n{error}")
        all_reduces, _ = all_reduces_since(last)
        if step == 0:
            in_sync = same_on_all_ranks(model.module.body.weight)
            print(f"{label}: step 0 launched {all_reduces} all-reduce(s); body.weight equal on all ranks: {in_sync}")
    head_b = "" if model.module.head_b is None else f", head_b.weight.grad = {model.module.head_b.weight.grad}"
    print(f"{label}: 3 steps, {all_reduces} all-reduce(s) in the last, "
          f"body.weight[0, 0] = {model.module.body.weight[0, 0].item():.6f}{head_b}")


torch.manual_seed(1 + dist.get_rank())
x = torch.randn(4, 8, device=device)
train("plain DDP", x)
dist.set_debug_level(dist.DebugLevel.INFO)
train("plain DDP, debug level INFO", x)
dist.set_debug_level(dist.DebugLevel.OFF)
train("find_unused_parameters=True", x, find_unused_parameters=True)
train("static_graph=True", x, static_graph=True)
train("without head_b", x, with_head_b=False)
with cpp_warnings_to_stdout():
    train("without head_b, find_unused_parameters=True", x, with_head_b=False, find_unused_parameters=True)

del x
gc.collect()
dist.barrier()
dist.destroy_process_group()
