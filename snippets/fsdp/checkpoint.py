# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

rank = int(os.environ["RANK"])
local_rank = int(os.environ["LOCAL_RANK"])
world_size = int(os.environ["WORLD_SIZE"])
use_cuda = torch.cuda.is_available() and torch.cuda.device_count() >= world_size
device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")
if use_cuda:
    torch.cuda.set_device(device)
dist.init_process_group("nccl" if use_cuda else "gloo", device_id=device if use_cuda else None)
mesh = init_device_mesh(device.type, (world_size,))


def build_sharded(seed):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer, mesh=mesh)
    return fully_shard(model, mesh=mesh)


model = build_sharded(seed=0)
dcp.save({"model": model.state_dict()}, checkpoint_id="checkpoint")
dist.barrier()
print("sharded checkpoint files:", sorted(os.listdir("checkpoint")))

restored = build_sharded(seed=1)
state = {"model": restored.state_dict()}
dcp.load(state, checkpoint_id="checkpoint")
restored.load_state_dict(state["model"])
pairs = zip(model.parameters(), restored.parameters(), strict=True)
same = all(torch.equal(a.to_local(), b.to_local()) for a, b in pairs)
print("restored local shards equal the saved ones:", same)

options = StateDictOptions(full_state_dict=True, cpu_offload=True)
full = get_model_state_dict(model, options=options)
print(f"full state dict on this rank: {len(full)} tensors")
if rank == 0:
    plain = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    plain.load_state_dict(full)
    torch.save(full, "model.pt")
    print("loaded into a plain nn.Sequential:", {k: tuple(v.shape) for k, v in full.items()})

del model, restored, state, full
gc.collect()
dist.barrier()
dist.destroy_process_group()
