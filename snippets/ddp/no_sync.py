# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import contextlib
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
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


rank = int(os.environ["RANK"])
world_size = int(os.environ["WORLD_SIZE"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)

torch.manual_seed(0)
reference = nn.Linear(4, 1)
x = torch.randn(world_size * 8, 4)
y = torch.randn(world_size * 8, 1)
model = DDP(nn.Linear(4, 1).to(device), device_ids=[device] if backend == "nccl" else None)
model.module.load_state_dict(reference.state_dict())

all_reduces = []


def counting_allreduce(state, bucket):
    all_reduces.append(bucket.index())
    return allreduce_hook(state, bucket)


model.register_comm_hook(None, counting_allreduce)

accumulation_steps = 2
my_x, my_y = x.chunk(world_size)[rank].to(device), y.chunk(world_size)[rank].to(device)
micro_batches = list(zip(my_x.chunk(accumulation_steps), my_y.chunk(accumulation_steps), strict=True))
for step, (xb, yb) in enumerate(micro_batches, start=1):
    last = step == accumulation_steps
    with model.no_sync() if not last else contextlib.nullcontext():
        loss = nn.functional.mse_loss(model(xb), yb) / accumulation_steps
        loss.backward()
    grad = model.module.weight.grad[0, 0].item()
    print(f"micro-batch {step}: all-reduces so far {len(all_reduces)}, weight.grad[0, 0] = {grad:.4f}")

nn.functional.mse_loss(reference(x), y).backward()
same = torch.allclose(model.module.weight.grad.cpu(), reference.weight.grad, atol=1e-6)
print("equals the full-batch gradient of one process:", same)

del model, reference, loss, xb, yb, my_x, my_y, micro_batches
gc.collect()
dist.barrier()
dist.destroy_process_group()
