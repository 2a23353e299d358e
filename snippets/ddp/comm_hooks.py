# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import bf16_compress_hook, fp16_compress_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world_size = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
my_x = torch.randn(world_size * 16, 256).chunk(world_size)[rank]


def build():
    torch.manual_seed(0)
    return nn.Linear(256, 256)


def ddp_gradient(hook=None):
    """The weight gradient of one DDP backward pass on this rank's rows, all-reduced by `hook`."""
    model = DDP(build())
    if hook is not None:
        model.register_comm_hook(None, hook)
    model(my_x).square().sum().backward()
    return model.module.weight.grad


local = build()
local(my_x).square().sum().backward()
every_rank = [torch.empty_like(local.weight.grad) for _ in range(world_size)]
dist.all_gather(every_rank, local.weight.grad)
in_float16 = sum(g.half() / world_size for g in every_rank).float()  # the hook's order: cast, then divide

exact, compressed = ddp_gradient(), ddp_gradient(fp16_compress_hook)
error = ((compressed - exact).abs().max() / exact.abs().max()).item()
if rank == 0:
    print(f"fp16_compress_hook: gradient dtype {compressed.dtype}, equal to the float16 sum of the ranks' "
          f"gradients / {world_size}: {torch.equal(compressed, in_float16)}, largest difference from the "
          f"float32 all-reduce {error:.0e} of the largest gradient")


def one_weight_gradient(hook=None):
    """A one-weight DDP model whose local gradient is 70000 on rank 0 and 0 on the other ranks."""
    model = DDP(nn.Linear(1, 1, bias=False))
    if hook is not None:
        model.register_comm_hook(None, hook)
    model(torch.full((1, 1), 7e4 if rank == 0 else 0.0)).sum().backward()
    return model.module.weight.grad.item()


plain, fp16 = one_weight_gradient(), one_weight_gradient(fp16_compress_hook)
if rank == 0:
    print(f"local gradients 70000 and 0: float32 all-reduce {plain:.1f}, fp16_compress_hook {fp16}")
try:
    ddp_gradient(bf16_compress_hook)
except TypeError as err:
    if rank == 0:
        print(f"bf16_compress_hook on gloo: TypeError: {err}")

del local, every_rank, in_float16, exact, compressed
gc.collect()
dist.barrier()
dist.destroy_process_group()
