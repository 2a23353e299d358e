# marks: distributed
# timeout: 180
# launch: torchrun --standalone --nproc-per-node=4
# figure: layout=mesh_rows
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import distribute_tensor
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


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


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(16, 64)
        self.down = nn.Linear(64, 16)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(x)))


def rows_held(param, reference):
    """Which rows of the unsharded weight this rank's shard holds, found by comparing them."""
    local = param.to_local()
    return [i for i, row in enumerate(reference) if any(torch.equal(row, mine) for mine in local)]


def same_shard(param, reference):
    """Does this rank hold the block of the unsharded parameter that its placements say it holds?"""
    expected = distribute_tensor(reference.detach(), param.device_mesh, param.placements)
    return torch.allclose(param.to_local(), expected.to_local(), atol=1e-5)


device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)
mesh = init_device_mesh(device.type, (2, 2), mesh_dim_names=("dp", "tp"))
dp, tp = mesh["dp"].get_local_rank(), mesh["tp"].get_local_rank()

torch.manual_seed(0)
reference = nn.Sequential(MLP(), MLP()).to(device)
model = nn.Sequential(MLP(), MLP()).to(device)
model.load_state_dict(reference.state_dict())
for block in model:
    parallelize_module(block, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
    fully_shard(block, mesh=mesh["dp"])
fully_shard(model, mesh=mesh["dp"])
rows = rows_held(model[0].up.weight, reference[0].up.weight)

torch.manual_seed(1)
batches = torch.randn(2, 4, 16, device=device)  # one per data-parallel rank; tensor-parallel ranks share it
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
reference_optimizer = torch.optim.AdamW(reference.parameters(), lr=1e-2)
for _ in range(3):
    model(batches[dp]).square().mean().backward()
    optimizer.step()
    optimizer.zero_grad()
    reference(batches.flatten(0, 1)).square().mean().backward()
    reference_optimizer.step()
    reference_optimizer.zero_grad()

same = all(same_shard(param, reference.get_parameter(name)) for name, param in model.named_parameters())
groups = [dist.get_process_group_ranks(mesh[name].get_group()) for name in ("tp", "dp")]
coordinates = [None] * dist.get_world_size()
dist.gather_object((dp, tp, groups, rows, same), coordinates if dist.get_rank() == 0 else None)
if dist.get_rank() == 0:
    print(f"mesh {mesh.mesh_dim_names}: {mesh.mesh.tolist()}")
    for name, param in list(model.named_parameters())[:4]:
        print(f"{name:<13} {param.placements!s:<44} global {tuple(param.shape)} local {tuple(param.to_local().shape)}")
    for rank, (dp_rank, tp_rank, (tp_group, dp_group), held, _) in enumerate(coordinates):
        print(f"rank {rank}: dp {dp_rank}, tp {tp_rank}, tensor-parallel with {tp_group}, FSDP with {dp_group}, "
              f"batch {dp_rank}, rows {held[0]}-{held[-1]} of 0.up.weight")
    print("after 3 AdamW steps, every rank's shards allclose to the unsharded model trained on both batches:",
          all(ok for *_, ok in coordinates))
    layout = {"dims": list(mesh.mesh_dim_names), "mesh": mesh.mesh.tolist(), "parameter": "0.up.weight",
              "rows": reference[0].up.weight.shape[0], "held": [held for *_, held, _ in coordinates]}

del model, reference, optimizer, reference_optimizer
gc.collect()
dist.barrier()
dist.destroy_process_group()
