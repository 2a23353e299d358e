# marks: cpu_only
import os
import warnings

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


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        dist.init_process_group("nccl")
    except ValueError as error:
        print("ValueError:", error)
    try:
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
        print("nccl process group:", dist.get_backend())
        dist.destroy_process_group()
    except RuntimeError as error:
        print("RuntimeError:", error)
for message in dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught):
    print(message)

print("NCCL built into this torch:", dist.is_nccl_available())
print("CUDA devices:", torch.cuda.device_count())

os.environ.update(LOCAL_RANK="0", LOCAL_WORLD_SIZE="2")
_, backend = pick_device()
print("backend for 2 processes here:", backend)
print("launch with: torchrun --standalone --nproc-per-node=2 train.py")
