# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
x = torch.randn(8, 512)


def buckets_per_iteration(bucket_cap_mb, x):
    """The size in MiB of each bucket DDP all-reduces, in the first and the second backward pass."""
    model = DDP(nn.Sequential(*(nn.Linear(512, 512) for _ in range(4))), bucket_cap_mb=bucket_cap_mb)
    sizes = []

    def recording_allreduce(state, bucket):
        sizes.append(f"{bucket.buffer().numel() * bucket.buffer().element_size() / 2**20:.2f}")
        return allreduce_hook(state, bucket)

    model.register_comm_hook(None, recording_allreduce)
    iterations = []
    for _ in range(2):
        sizes.clear()
        model(x).sum().backward()
        iterations.append(" + ".join(sizes))
    return iterations


for cap in (None, 1):
    first, second = buckets_per_iteration(cap, x)
    if dist.get_rank() == 0:
        print(f"bucket_cap_mb={cap}: iteration 1 all-reduces {first} MiB; iteration 2 all-reduces {second} MiB")

del x
gc.collect()
dist.barrier()
dist.destroy_process_group()
