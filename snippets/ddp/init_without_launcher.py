# marks: cpu_only
import warnings

import torch
import torch.distributed as dist

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

world_size = 2
backend = "nccl" if torch.cuda.is_available() and torch.cuda.device_count() >= world_size else "gloo"
print("backend for 2 processes here:", backend)
print("launch with: torchrun --standalone --nproc-per-node=2 train.py")
