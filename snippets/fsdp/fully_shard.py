# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor
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
mesh = init_device_mesh(device.type, (world_size,), mesh_dim_names=("fsdp",))


def build():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 256)).to(device)


def mib(tensors):
    local = [t.to_local() if isinstance(t, DTensor) else t for t in tensors]
    return sum(t.numel() * t.element_size() for t in local) / 2**20


ddp_model = DDP(build(), device_ids=[device] if backend == "nccl" else None)
buckets = []


def allreduce_and_count(process_group, bucket):
    buckets.append(bucket.buffer())
    return allreduce_hook(process_group, bucket)


ddp_model.register_comm_hook(None, allreduce_and_count)
fsdp_model = build()
for layer in fsdp_model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh)
fully_shard(fsdp_model, mesh=mesh)

weight = fsdp_model[0].weight
local_shape = tuple(weight.to_local().shape)
print(f"{type(weight).__name__} {weight.placements}: global {tuple(weight.shape)}, local {local_shape}")

torch.manual_seed(1 + dist.get_rank())
x, y = torch.randn(32, 256, device=device), torch.randn(32, 256, device=device)
optimizers = []
for model in (ddp_model, fsdp_model):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    optimizers.append(optimizer)

print("per-rank memory (MiB)   DDP    FSDP")
for name, get in (
    ("parameters", lambda m, o: mib(m.parameters())),
    ("gradients", lambda m, o: mib(p.grad for p in m.parameters())),
    ("Adam state", lambda m, o: mib(t for s in o.state.values() for t in s.values() if t.dim() > 0)),
):
    ddp_mib, fsdp_mib = get(ddp_model, optimizers[0]), get(fsdp_model, optimizers[1])
    print(f"{name:<22}{ddp_mib:6.2f}  {fsdp_mib:6.2f}")
print(f"{'DDP gradient buckets':<22}{mib(buckets):6.2f}       -")

same = all(
    torch.allclose(p.full_tensor(), q, atol=1e-6)
    for p, q in zip(fsdp_model.parameters(), ddp_model.module.parameters(), strict=True)
)
print("after one Adam step, FSDP parameters equal DDP's:", same)

buckets.clear()
del ddp_model, fsdp_model, optimizers, optimizer, model, weight, x, y
gc.collect()
dist.barrier()
dist.destroy_process_group()
