# marks: distributed multi_gpu
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# estimate: 20
import gc
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.experimental import context_parallel
from torch.distributed.tensor.experimental._attention import context_parallel_unshard, set_rotate_method
from torch.nn.attention import SDPBackend, sdpa_kernel

local_rank, world_size = int(os.environ["LOCAL_RANK"]), int(os.environ["WORLD_SIZE"])
device = torch.device("cuda", local_rank)
torch.cuda.set_device(device)
dist.init_process_group("nccl", device_id=device)
mesh = init_device_mesh("cuda", (world_size,), mesh_dim_names=("cp",))

torch.manual_seed(0)
qkv = [torch.rand(2, 8, 1024, 64, dtype=torch.bfloat16, device=device) for _ in range(3)]
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    expected = F.scaled_dot_product_attention(*qkv, is_causal=True)
    for method in ("allgather", "alltoall"):
        set_rotate_method(method)
        shards = [t.clone() for t in qkv]
        with context_parallel(mesh, buffers=shards, buffer_seq_dims=[2, 2, 2]):
            local_shape = tuple(shards[0].shape)
            out = F.scaled_dot_product_attention(*shards, is_causal=True)
        (whole,) = context_parallel_unshard(mesh, [out], [2])
        if dist.get_rank() == 0:
            # outputs lie in [0, 1) (weighted means of torch.rand values): one bfloat16 step there is at most eps / 2
            close = torch.allclose(whole, expected, atol=torch.finfo(torch.bfloat16).eps)
            difference = (whole.float() - expected.float()).abs().max().item()
            print(f"rotate {method}: local q {local_shape}, output {tuple(whole.shape)}, "
                  f"allclose to one GPU's attention within bfloat16 eps: {close}")
            print(f"  max |difference| {difference:.4g}")

del qkv, expected, shards, out, whole
gc.collect()
dist.barrier()
dist.destroy_process_group()
