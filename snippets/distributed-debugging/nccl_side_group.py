# marks: distributed multi_gpu
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# estimate: 20
import gc
import os
from datetime import timedelta

import torch
import torch.distributed as dist

local_rank = int(os.environ["LOCAL_RANK"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)
dist.init_process_group("nccl", device_id=device, timeout=timedelta(minutes=2))
side = dist.new_group(backend="gloo", timeout=timedelta(seconds=30))

dist.monitored_barrier(group=side, timeout=timedelta(seconds=30))
print(f"monitored_barrier passed on the {dist.get_backend(side)} side group")
x = torch.full((4,), float(dist.get_rank() + 1), device=device)
dist.all_reduce(x)
print(f"all_reduce on {dist.get_backend()}, device {x.device}: {x.tolist()}")
print("NCCL version:", ".".join(map(str, torch.cuda.nccl.version())))

del x
gc.collect()
dist.barrier()
dist.destroy_process_group()
