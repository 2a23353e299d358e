import functools
from collections import Counter

import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts


class CountOps(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.counts = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.counts[func.overloadpacket.__name__] += 1
        return func(*args, **(kwargs or {}))


def policy(ctx, op, *args, **kwargs):
    # keep the matrix-multiplication outputs, recompute everything else
    if op == torch.ops.aten.addmm.default:
        return CheckpointPolicy.MUST_SAVE
    return CheckpointPolicy.PREFER_RECOMPUTE


torch.manual_seed(0)
block = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 16))
x = torch.randn(8, 16)
variants = {
    "checkpoint": {},
    "selective checkpoint": {"context_fn": functools.partial(create_selective_checkpoint_contexts, policy)},
}
for name, extra in variants.items():
    out = checkpoint(block, x, use_reentrant=False, **extra)
    with CountOps() as ops:
        out.sum().backward()
    print(f"{name}: recomputed in backward addmm x{ops.counts['addmm']}, gelu x{ops.counts['gelu']}")
