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
world_size = int(os.environ["WORLD_SIZE"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)
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
