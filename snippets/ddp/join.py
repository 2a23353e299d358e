# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import gc
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank = dist.get_rank()
torch.manual_seed(rank)
batches = [torch.randn(4, 8) for _ in range(3 + 2 * rank)]
print(f"{len(batches)} batches on this rank")


def train(model, batches):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in batches:
        optimizer.zero_grad()
        model(x).pow(2).mean().backward()
        optimizer.step()
    return len(batches)


torch.manual_seed(0)
short_timeout = dist.new_group(timeout=timedelta(seconds=2))
model = DDP(nn.Linear(8, 1), process_group=short_timeout)
try:
    print(f"without join: finished {train(model, batches)} steps")
except RuntimeError as error:
    print(f"without join: RuntimeError: {error}")
dist.barrier()

torch.manual_seed(0)
model = DDP(nn.Linear(8, 1))
with model.join():
    steps = train(model, batches)
print(f"with join: finished {steps} steps")
weights = [torch.empty_like(model.module.weight) for _ in range(dist.get_world_size())]
dist.all_gather(weights, model.module.weight.detach())
print("weights identical on all ranks:", all(torch.equal(w, weights[0]) for w in weights))

del model, batches, weights
gc.collect()
dist.barrier()
dist.destroy_process_group()
