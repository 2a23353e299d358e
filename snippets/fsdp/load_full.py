# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (dist.get_world_size(),))


class Block(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.BatchNorm1d(dim)  # running statistics: persistent buffers
        self.register_buffer("inv_freq", self.frequencies(dim), persistent=False)  # in no state dict

    @staticmethod
    def frequencies(dim):
        return 1.0 / 10000 ** (torch.arange(0, dim, 2).float() / dim)

    def forward(self, x):
        return self.norm(self.proj(x))


if rank == 0:  # only rank 0 reads the trained weights: a plain model saved with torch.save
    torch.manual_seed(0)
    trained = Block()
    trained.norm.running_mean.uniform_()
    full_state = trained.state_dict()
else:
    full_state = {}

with torch.device("meta"):
    model = Block()
fully_shard(model, mesh=mesh)
model.to_empty(device="cpu")
set_model_state_dict(model, full_state,
                     options=StateDictOptions(full_state_dict=True, broadcast_from_rank0=True))

reference = [None]
if rank == 0:
    reference = [{"weight": trained.proj.weight.detach(), "running_mean": trained.norm.running_mean}]
dist.broadcast_object_list(reference)
weight = model.proj.weight
print(f"proj.weight: {type(weight).__name__}, local shard {tuple(weight.to_local().shape)}, "
      f"gathered equals rank 0's: {torch.equal(weight.full_tensor(), reference[0]['weight'])}")
running_mean = model.norm.running_mean
print(f"norm.running_mean (persistent buffer): {type(running_mean).__name__} {tuple(running_mean.shape)}, "
      f"restored: {torch.equal(running_mean, reference[0]['running_mean'])}")
print("inv_freq (non-persistent) restored:", torch.equal(model.inv_freq, Block.frequencies(256)))
model.inv_freq.copy_(Block.frequencies(256))
print("inv_freq after computing it again:", torch.equal(model.inv_freq, Block.frequencies(256)))

del model, weight, running_mean, full_state, reference
gc.collect()
dist.barrier()
dist.destroy_process_group()
