# marks: cuda
import torch
from torch import nn
from torch.utils import benchmark
from torch.utils.checkpoint import checkpoint

WIDTH, DEPTH, BATCH = 2048, 8, 8192


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        return x + self.net(x)


def step(blocks, x, use_checkpoint):
    blocks.zero_grad()
    for block in blocks:
        x = checkpoint(block, x, use_reentrant=False) if use_checkpoint else block(x)
    x.pow(2).mean().backward()


torch.manual_seed(0)
blocks = nn.ModuleList(Block() for _ in range(DEPTH)).cuda()
x = torch.randn(BATCH, WIDTH, device="cuda")

print("| variant | median step (ms) | peak memory (MiB) |")
print("|---|---|---|")
for name, use_checkpoint in (("no checkpointing", False), ("checkpoint every block", True)):
    timer = benchmark.Timer(
        "step(blocks, x, use_checkpoint)",
        globals={"step": step, "blocks": blocks, "x": x, "use_checkpoint": use_checkpoint},
    )
    median = timer.blocked_autorange(min_run_time=1.0).median
    blocks.zero_grad()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    step(blocks, x, use_checkpoint)
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() / 2**20
    print(f"| {name} | {median * 1e3:.1f} | {peak:.0f} |")
