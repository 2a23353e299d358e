# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


def running_means(model):
    """Every rank's running mean of the first BatchNorm channel."""
    gathered = [None] * dist.get_world_size()
    dist.all_gather_object(gathered, round(model.module[1].running_mean[0].item(), 4))
    return gathered


for forward_sync_buffers in (True, False):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)), forward_sync_buffers=forward_sync_buffers)
    torch.manual_seed(1 + rank)  # each rank its own data, as a DistributedSampler gives it
    for _ in range(3):
        model(torch.randn(16, 4) + rank).sum().backward()
    after_training = running_means(model)
    model.eval()
    with torch.no_grad():
        model(torch.randn(16, 4))
    after_eval_forward = running_means(model)
    if rank == 0:
        print(f"forward_sync_buffers={forward_sync_buffers}: running_mean[0] per rank after 3 training passes "
              f"{after_training}, after one eval forward {after_eval_forward}")

model = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)))
if rank == 0:
    print("converted:", type(model[1]).__name__)
try:
    model(torch.randn(16, 4))
except ValueError as err:
    if rank == 0:
        print("training forward on the CPU:", err)
model.eval()
shape = tuple(model(torch.randn(16, 4)).shape)
if rank == 0:
    print("eval forward on the CPU (nothing to synchronize):", shape)

del model
gc.collect()
dist.barrier()
dist.destroy_process_group()
