# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor


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
mesh = init_device_mesh(device.type, (world_size,), mesh_dim_names=("tp",))
print("mesh:", mesh.mesh.tolist(), mesh.mesh_dim_names)

full = torch.arange(8.0, device=device).reshape(2, 4)
for placement in (Shard(0), Shard(1), Replicate()):
    dt = distribute_tensor(full, mesh, [placement])
    print(f"{placement!s:<10} global {tuple(dt.shape)} local {dt.to_local().tolist()}")

row_sharded = distribute_tensor(full, mesh, [Shard(0)])
col_sums = row_sharded.sum(dim=0)
print("sum over the sharded dim:", col_sums.placements, "->", col_sums.full_tensor().tolist())
gathered = row_sharded.redistribute(mesh, [Replicate()])
print("redistribute to Replicate:", gathered.to_local().tolist())

del full, dt, row_sharded, col_sums, gathered
gc.collect()
dist.barrier()
dist.destroy_process_group()
