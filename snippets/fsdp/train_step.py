# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import collections
import gc
import pickle

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (dist.get_world_size(),))

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
for layer in model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh, mp_policy=policy)
fully_shard(model, mesh=mesh, mp_policy=policy)


def show_dtypes(module, args):
    print(f"layer 0 runs with weight {module.weight.dtype}, input {args[0].dtype}")
    dtype_hook.remove()


dtype_hook = model[0].register_forward_pre_hook(show_dtypes)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)


def flight_records():
    return pickle.loads(torch._C._distributed_c10d._dump_fr_trace())["entries"]


def norm_of(tensors):
    return torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(t) for t in tensors]))


def accumulate(model, micro_batches, keep_gathered_after):
    """One optimizer step's gradients over `micro_batches`, reduced only in the last; the collectives of each."""
    model.zero_grad()
    gathers, reductions = [], []
    for i, (x, y) in enumerate(micro_batches):
        last = i == len(micro_batches) - 1
        model.set_requires_gradient_sync(last)
        if "backward" in keep_gathered_after:
            model.set_reshard_after_backward(last)
        if "forward" in keep_gathered_after:
            for layer in model[0], model[2]:
                layer.set_reshard_after_forward(False)  # the last backward reshards them (above)
        before = len(flight_records())
        (nn.functional.mse_loss(model(x), y) / len(micro_batches)).backward()
        collectives = collections.Counter(e["profiling_name"] for e in flight_records()[before:])
        gathers.append(collectives["gloo:all_gather"])
        reductions.append(collectives["gloo:all_reduce"])
    for layer in model[0], model[2]:
        layer.set_reshard_after_forward(True)  # the default again, for the next step
    return gathers, reductions


torch.manual_seed(1 + rank)
micro_batches = [(torch.randn(8, 16), torch.randn(8, 1)) for _ in range(4)]
for label, keep_gathered_after in (("defaults", ()), ("set_reshard_after_backward(False)", ("backward",)),
                                  ("and set_reshard_after_forward(False)", ("backward", "forward"))):
    gathers, reductions = accumulate(model, micro_batches, keep_gathered_after)
    print(f"{label}: all-gathers per micro-batch {gathers}, gradient reductions {reductions}")

weight = model[0].weight
print(f"sharded parameter {weight.dtype} {tuple(weight.to_local().shape)}, its gradient {weight.grad.dtype}")
local = norm_of(p.grad.to_local() for p in model.parameters())
full = norm_of(p.grad.full_tensor() for p in model.parameters())
norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"gradient norm of this rank's shards {local.item():.4f}, of the full gradients {full.item():.4f}")
print(f"clip_grad_norm_ returned a {type(norm).__name__}: {norm.full_tensor().item():.4f}")
optimizer.step()

del model, optimizer, micro_batches, weight, local, norm, full
gc.collect()
dist.barrier()
dist.destroy_process_group()
