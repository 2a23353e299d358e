# marks: distributed multi_gpu
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# estimate: 20
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"])
local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)
dist.init_process_group("nccl", device_id=device)

model = DDP(nn.Linear(4, 1).to(device), device_ids=[local_rank])
torch.manual_seed(rank)
model(torch.randn(8, 4, device=device)).sum().backward()
grads = [torch.empty_like(model.module.weight.grad) for _ in range(dist.get_world_size())]
dist.all_gather(grads, model.module.weight.grad)
print(f"backend {dist.get_backend()}, parameters on {model.module.weight.device}")
print("gradients identical on all GPUs:", all(torch.equal(g, grads[0]) for g in grads))

del model, grads
gc.collect()
dist.barrier()
dist.destroy_process_group()
