# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

import torch
import torch.distributed as dist


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


# --8<-- [start:environment]
TORCHRUN = ("RANK", "LOCAL_RANK", "GROUP_RANK", "LOCAL_WORLD_SIZE", "WORLD_SIZE")
SRUN = ("SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_NTASKS_PER_NODE", "SLURM_NTASKS")


def placement():
    """(rank, local rank, node rank, processes on this node, world size), from torchrun or, without it, srun."""
    names = TORCHRUN if "RANK" in os.environ else SRUN
    return tuple(int(os.environ[name]) for name in names)


rank, local_rank, node_rank, local_world_size, world_size = placement()
# --8<-- [end:environment]
os.environ.update(LOCAL_RANK=str(local_rank), LOCAL_WORLD_SIZE=str(local_world_size))
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, rank=rank, world_size=world_size,
                        device_id=device if backend == "nccl" else None)

placements = torch.tensor([[rank, node_rank, local_rank]], device=device)
everyone = [torch.zeros_like(placements) for _ in range(world_size)]
dist.all_gather(everyone, placements)
total = torch.tensor([float(rank + 1)], device=device)
dist.all_reduce(total)
print(f"rank {rank} of {world_size}: node {node_rank}, local rank {local_rank}; "
      f"all_reduce of rank + 1 = {total.item():g} (expected {world_size * (world_size + 1) // 2})")
if rank == 0:
    print(f"rank {rank} of {world_size}: (rank, node, local rank) of every process:",
          [tuple(t[0].tolist()) for t in everyone])

del placements, everyone, total
gc.collect()
dist.barrier()
dist.destroy_process_group()
