# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc
import os

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.experimental import context_parallel
from torch.distributed.tensor.experimental._attention import context_parallel_unshard

SEQ = 16

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = init_device_mesh("cpu", (int(os.environ["WORLD_SIZE"]),), mesh_dim_names=("cp",))

torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, SEQ, 8) for _ in range(3))  # batch, heads, sequence, head dim
positions = torch.arange(SEQ).view(1, SEQ)  # which token is where: sharded like q, k and v
full_attention = F.scaled_dot_product_attention(q, k, v)  # not causal, before q, k and v are cut
with context_parallel(mesh, buffers=[q, k, v, positions], buffer_seq_dims=[2, 2, 2, 1]):
    local_positions = positions.clone()
    held = local_positions.flatten().tolist()
    local_shape = tuple(q.shape)
    try:
        F.scaled_dot_product_attention(q, k, v, is_causal=True)
        error = "no error"
    except NotImplementedError as caught:
        error = f"NotImplementedError: {caught}"
    with CommDebugMode() as comms:
        local_output = F.scaled_dot_product_attention(q, k, v)  # not causal: DTensor's own sharding runs it
    collectives = {op.__name__: count for op, count in comms.get_comm_counts().items()}

(unsharded,) = context_parallel_unshard(mesh, [local_positions], [1])
(output,) = context_parallel_unshard(mesh, [local_output], [2])
everyone = [None] * mesh.size()
dist.gather_object((held, local_shape, error), everyone if rank == 0 else None)
if rank == 0:
    for r, (held, local_shape, _) in enumerate(everyone):
        print(f"rank {r} inside context_parallel: q {local_shape}, positions {held}")
    print("scaled_dot_product_attention on the CPU:", everyone[0][2])
    print(f"not causal: local output {tuple(local_output.shape)}, collectives {collectives}, "
          f"unsharded allclose to full attention: {torch.allclose(output, full_attention, atol=1e-6)}")
    restored = torch.equal(positions, torch.arange(SEQ).view(1, SEQ))
    print("after the context: q", tuple(q.shape), "| positions restored:", restored)
    print("context_parallel_unshard of the local positions:", unsharded.flatten().tolist())

del q, k, v, positions, local_positions, unsharded, full_attention, local_output, output
gc.collect()
dist.barrier()
dist.destroy_process_group()
