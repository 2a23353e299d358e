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


def mib(nbytes):
    return f"{nbytes / 2**20:.2f} MiB"


def gradient_memory(x, gradient_as_bucket_view):
    """After each of two backward passes: the bytes of the gradients' storage and of the buckets' storage
    that is not also a gradient's, and whether every gradient is a view into a bucket."""
    torch.manual_seed(0)
    model = DDP(nn.Sequential(*(nn.Linear(512, 512) for _ in range(4))), bucket_cap_mb=1,
                gradient_as_bucket_view=gradient_as_bucket_view)
    buckets = {}

    def remembering_allreduce(state, bucket):
        buckets[bucket.index()] = bucket.buffer()
        return allreduce_hook(state, bucket)

    model.register_comm_hook(None, remembering_allreduce)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    lines = []
    for iteration in (1, 2):
        buckets.clear()
        optimizer.zero_grad()  # set_to_none=True: no gradient tensors between the steps
        model(x).sum().backward()
        grads = {p.grad.untyped_storage().data_ptr(): p.grad.untyped_storage().nbytes()
                 for p in model.parameters()}
        bucket_storages = {b.untyped_storage().data_ptr(): b.untyped_storage().nbytes() for b in buckets.values()}
        extra = sum(n for ptr, n in bucket_storages.items() if ptr not in grads)
        views = all(ptr in bucket_storages for ptr in grads)
        lines.append(f"  iteration {iteration}: gradients {mib(sum(grads.values()))}, buckets besides them "
                     f"{mib(extra)}, every gradient a view into a bucket: {views}")
        optimizer.step()
    return lines


for flag in (False, True):
    lines = gradient_memory(x, flag)
    if dist.get_rank() == 0:
        print(f"gradient_as_bucket_view={flag}")
        print("\n".join(lines))

del x
gc.collect()
dist.barrier()
dist.destroy_process_group()
