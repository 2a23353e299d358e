# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# figure: shards=placements
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module


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


world_size = int(os.environ["WORLD_SIZE"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)
mesh = init_device_mesh(device.type, (world_size,), mesh_dim_names=("tp",))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(16, 64)
        self.down = nn.Linear(64, 16)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


torch.manual_seed(0)
reference = MLP().to(device)
model = MLP().to(device)
model.load_state_dict(reference.state_dict())
model = parallelize_module(model, mesh, {"up": ColwiseParallel(), "down": RowwiseParallel()})

for name, param in model.named_parameters():
    print(f"{name:<12} {param.placements!s:<16} global {tuple(param.shape)} local {tuple(param.to_local().shape)}")

local_shapes = [None] * world_size
dist.gather_object({name: list(p.to_local().shape) for name, p in model.named_parameters()},
                   local_shapes if dist.get_rank() == 0 else None)
if dist.get_rank() == 0:
    shards = [{"name": name, "shape": list(p.shape), "placement": repr(p.placements[0]),
               "dim": getattr(p.placements[0], "dim", None), "local": [ranks[name] for ranks in local_shapes]}
              for name, p in model.named_parameters()]

torch.manual_seed(1)
x = torch.randn(4, 16, device=device)
out, expected = model(x), reference(x)
print("output:", tuple(out.shape), "| a DTensor:", isinstance(out, DTensor))
print("output allclose to the unsharded model:", torch.allclose(out, expected, atol=1e-6))

out.sum().backward()
expected.sum().backward()
grad = model.up.weight.grad.full_tensor()
print("up.weight gradient allclose:", torch.allclose(grad, reference.up.weight.grad, atol=1e-6))

del model, reference, x, out, expected, grad
gc.collect()
dist.barrier()
dist.destroy_process_group()
