# marks: slow
# timeout: 120
import torch
from torch import nn
from torch.utils import benchmark
from torch.utils.checkpoint import checkpoint

WIDTH, DEPTH, BATCH = 256, 8, 64


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        return x + self.net(x)


def forward(blocks, x, use_checkpoint):
    for block in blocks:
        x = checkpoint(block, x, use_reentrant=False) if use_checkpoint else block(x)
    return x.pow(2).mean()


def saved_mib(blocks, x, use_checkpoint):
    """Bytes that autograd keeps alive for the backward pass, parameters excluded."""
    params = {p.untyped_storage().data_ptr() for p in blocks.parameters()}
    saved = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in params:
            saved[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        loss = forward(blocks, x, use_checkpoint)
    loss.backward()
    return sum(saved.values()) / 2**20


def step(blocks, x, use_checkpoint):
    blocks.zero_grad()
    forward(blocks, x, use_checkpoint).backward()


torch.manual_seed(0)
blocks = nn.ModuleList(Block() for _ in range(DEPTH))
x = torch.randn(BATCH, WIDTH)

print("| variant | median step (ms) | saved for backward (MiB) |")
print("|---|---|---|")
for name, use_checkpoint in (("no checkpointing", False), ("checkpoint every block", True)):
    timer = benchmark.Timer(
        "step(blocks, x, use_checkpoint)",
        globals={"step": step, "blocks": blocks, "x": x, "use_checkpoint": use_checkpoint},
    )
    median = timer.blocked_autorange(min_run_time=1.0).median
    print(f"| {name} | {median * 1e3:.1f} | {saved_mib(blocks, x, use_checkpoint):.1f} |")
