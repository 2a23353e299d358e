# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


# --8<-- [start:setup]
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


rank = int(os.environ["RANK"])
local_rank = int(os.environ["LOCAL_RANK"])
world_size = int(os.environ["WORLD_SIZE"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)
# --8<-- [end:setup]
print(f"RANK={rank} LOCAL_RANK={local_rank} WORLD_SIZE={world_size} MASTER_ADDR={os.environ['MASTER_ADDR']}")

torch.manual_seed(0)
x = torch.randn(64, 4)
y = x @ torch.tensor([[1.0], [-2.0], [3.0], [0.5]])
dataset = TensorDataset(x, y)
sampler = DistributedSampler(dataset, shuffle=True, seed=0)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)

model = DDP(nn.Linear(4, 1).to(device), device_ids=[device] if backend == "nccl" else None)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    sampler.set_epoch(epoch)
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: {len(loader)} batches of my shard, last loss {loss.item():.4f}")

weights = [torch.empty_like(model.module.weight) for _ in range(world_size)]
dist.all_gather(weights, model.module.weight.detach())
print("weights identical on all ranks:", all(torch.equal(w, weights[0]) for w in weights))

if rank == 0:
    torch.save(model.module.state_dict(), "checkpoint.pt")
dist.barrier()
state = torch.load("checkpoint.pt", map_location=device, weights_only=True)
restored = nn.Linear(4, 1).to(device)
restored.load_state_dict(state)
print("checkpoint from rank 0 restored:", torch.equal(restored.weight, model.module.weight))

del model, optimizer, restored, state, weights, loss, xb, yb
gc.collect()
dist.barrier()
dist.destroy_process_group()
