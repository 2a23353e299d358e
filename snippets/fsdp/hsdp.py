# marks: distributed
# timeout: 180
# launch: torchrun --standalone --nproc-per-node=4
# figure: layout=mesh_rows
import gc
import warnings

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.debug import CommDebugMode

# CommDebugMode puts a full backward hook on every module: it warns that the model's input has no
# gradient, and FSDP2 warns that the hooked output it returns is a view.
warnings.filterwarnings("ignore", "Full backward hook is firing", UserWarning)
warnings.filterwarnings("ignore", "FSDP2-wrapped module .* returned a view tensor", UserWarning)


def build():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16))


def counted(comm):
    names = {"_allgather_base_": "all-gather", "_reduce_scatter_base_": "reduce-scatter", "allreduce_": "all-reduce"}
    counts = {str(op).split(".")[-1]: n for op, n in comm.get_comm_counts().items()}
    return ", ".join(f"{shown} {counts.get(op, 0)}" for op, shown in names.items())


def micro_step(model, batch, last):
    """One micro-batch; the replicas all-reduce their gradient shards only on the last."""
    model.set_requires_all_reduce(last)
    with CommDebugMode() as comm:
        model(batch).square().mean().backward()
    return counted(comm)


dist.init_process_group("gloo")
mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("replicate", "shard"))
rank = dist.get_rank()

reference, model = build(), build()
for layer in model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
weight = model[0].weight
rows = [i for i, row in enumerate(reference[0].weight) if any(torch.equal(row, mine) for mine in weight.to_local())]

torch.manual_seed(1)
data = torch.randn(3, 2, dist.get_world_size(), 4, 16)  # step, micro-batch, rank
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
reference_optimizer = torch.optim.AdamW(reference.parameters(), lr=1e-2)
for step in data:
    counts = [micro_step(model, batches[rank], last=m == 1) for m, batches in enumerate(step)]
    optimizer.step()
    optimizer.zero_grad()
    for batches in step:
        reference(batches.flatten(0, 1)).square().mean().backward()
    reference_optimizer.step()
    reference_optimizer.zero_grad()

full = [p.full_tensor() for p in model.parameters()]
same = all(torch.allclose(mine, p, atol=1e-5) for mine, p in zip(full, reference.parameters(), strict=True))
groups = (dist.get_process_group_ranks(mesh["shard"].get_group()),
          dist.get_process_group_ranks(mesh["replicate"].get_group()))
ranks = [None] * dist.get_world_size()
dist.gather_object((groups, rows), ranks if rank == 0 else None)
if rank == 0:
    print(f"mesh {mesh.mesh_dim_names}: {mesh.mesh.tolist()}")
    print(f"0.weight {weight.placements}: global {tuple(weight.shape)}, local {tuple(weight.to_local().shape)}")
    for r, ((shard_group, replicate_group), held) in enumerate(ranks):
        print(f"rank {r}: shards with {shard_group}, replicates with {replicate_group}, "
              f"holds rows {held[0]}-{held[-1]} of 0.weight")
    for m, line in enumerate(counts):
        print(f"micro-batch {m}, all-reduce {'on' if m else 'off'}: {line}")
    print(f"after 3 steps of 2 micro-batches on 4 ranks, allclose to the unsharded model: {same}")
    layout = {"dims": list(mesh.mesh_dim_names), "mesh": mesh.mesh.tolist(), "parameter": "0.weight",
              "rows": weight.shape[0], "held": [held for _, held in ranks]}

del model, reference, optimizer, reference_optimizer, full
gc.collect()
dist.barrier()
dist.destroy_process_group()
