# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (dist.get_world_size(),))


def stored_mib(model):
    """Bytes of storage behind this rank's parameters (a DTensor's local shard), in MiB."""
    local = [p.to_local() if isinstance(p, DTensor) else p for p in model.parameters()]
    return sum(0 if t.is_meta else t.untyped_storage().nbytes() for t in local) / 2**20


def sharded_on_meta():
    with torch.device("meta"):
        model = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024))
    print(f"built on meta: {stored_mib(model):.2f} MiB stored, full size would be "
          f"{sum(p.numel() * p.element_size() for p in model.parameters()) / 2**20:.2f} MiB")
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    model.to_empty(device="cpu")
    print(f"sharded, then to_empty: {stored_mib(model):.2f} MiB stored on this rank")
    return model


def initialize(model, seed):
    torch.manual_seed(seed)
    for layer in model:
        if isinstance(layer, nn.Linear):
            layer.reset_parameters()


def shards_repeat(model):
    shards = [torch.empty_like(model[0].weight.to_local()) for _ in range(dist.get_world_size())]
    dist.all_gather(shards, model[0].weight.to_local().detach())
    return all(torch.equal(s, shards[0]) for s in shards)


model = sharded_on_meta()
initialize(model, seed=0)
print("same seed on every rank: the shards of layer 0 repeat on every rank:", shards_repeat(model))
initialize(model, seed=1000 + rank)
print("a seed per rank: the shards of layer 0 repeat on every rank:", shards_repeat(model))

del model
gc.collect()
dist.barrier()
dist.destroy_process_group()
