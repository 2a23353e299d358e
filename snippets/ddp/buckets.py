# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

# find_unused_parameters=True logs a warning with a timestamp on every rank: it found no unused parameter
# in the forward pass, and the flag costs an extra traversal of the autograd graph every iteration
os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
x = torch.randn(8, 512)


def buckets_per_iteration(x, **options):
    """The size in MiB of each bucket DDP all-reduces, in the first three backward passes."""
    model = DDP(nn.Sequential(*(nn.Linear(512, 512) for _ in range(4))), **options)
    sizes = []

    def recording_allreduce(state, bucket):
        sizes.append(f"{bucket.buffer().numel() * bucket.buffer().element_size() / 2**20:.2f}")
        return allreduce_hook(state, bucket)

    model.register_comm_hook(None, recording_allreduce)
    iterations = []
    for _ in range(3):
        sizes.clear()
        model(x).sum().backward()
        iterations.append(" + ".join(sizes))
    return iterations


for options in ({"bucket_cap_mb": None}, {"bucket_cap_mb": 25}, {"bucket_cap_mb": 1},
                {"find_unused_parameters": True}, {"static_graph": True}):
    iterations = buckets_per_iteration(x, **options)
    if dist.get_rank() == 0:
        label = ", ".join(f"{key}={value}" for key, value in options.items())
        print(f"{label}: " + "; ".join(f"iteration {i} all-reduces {sizes} MiB"
                                       for i, sizes in enumerate(iterations, 1)))

del x
gc.collect()
dist.barrier()
dist.destroy_process_group()
