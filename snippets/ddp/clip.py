# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import contextlib
import gc
import os

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


world_size = int(os.environ["WORLD_SIZE"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)
rank = dist.get_rank()

torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device),
            device_ids=[device] if backend == "nccl" else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(1 + rank)
micro_batches = [(torch.randn(4, 8, device=device), 10 * torch.randn(4, 1, device=device)) for _ in range(2)]


def accumulate(model, optimizer, micro_batches, clip_inside_no_sync):
    """Two micro-batches, one all-reduce (on the last backward); clip, and return the norms reported."""
    optimizer.zero_grad()
    norms = []
    for i, (x, y) in enumerate(micro_batches):
        last = i == len(micro_batches) - 1
        with contextlib.nullcontext() if last else model.no_sync():
            (nn.functional.mse_loss(model(x), y) / len(micro_batches)).backward()
        if last or clip_inside_no_sync:
            norms.append(nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0).item())
    return norms


def gathered(tensor):
    everyone = [torch.empty_like(tensor) for _ in range(world_size)]
    dist.all_gather(everyone, tensor)
    return everyone


norms = accumulate(model, optimizer, micro_batches, clip_inside_no_sync=False)
clipped_once = [p.grad.clone() for p in model.parameters()]
same = all(torch.equal(g, gathered(g)[0]) for g in clipped_once)
print(f"clipped once, after the all-reduce: total norm {norms[0]:.4f}; gradients identical on all ranks: {same}")

norms = accumulate(model, optimizer, micro_batches, clip_inside_no_sync=True)
print(f"clipped inside no_sync too: norm of this rank's first micro-batch {norms[0]:.4f}")
same = all(torch.equal(p.grad, g) for p, g in zip(model.parameters(), clipped_once, strict=True))
print("  gradients equal to clipping once:", same)

del model, optimizer, micro_batches, clipped_once
gc.collect()
dist.barrier()
dist.destroy_process_group()
