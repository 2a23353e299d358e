# marks: cuda
# estimate: 30
# method: interleaved -- both alternate in rounds on the same blocks; each peak is measured after, from a reset counter
import statistics

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

ROUNDS = 10
variants = {"no checkpointing": False, "checkpoint every block": True}
THREADS = 1  # the step runs on the GPU; one host thread launches it
timers = {
    name: benchmark.Timer(
        "step(blocks, x, use)", globals={"step": step, "blocks": blocks, "x": x, "use": use}, num_threads=THREADS
    )
    for name, use in variants.items()
}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(3).mean * 1e3)


def peak_mib(use_checkpoint):
    # allocated bytes at the peak, above those held before the step (parameters, input)
    blocks.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    step(blocks, x, use_checkpoint)
    torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - before) / 2**20


print(f"threads: {THREADS}")
peaks = {name: peak_mib(use) for name, use in variants.items()}
print("| variant | median step (ms) | IQR (ms) | runs | peak above pre-step (MiB) |")
print("|---|---:|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.2f} | {q3 - q1:.3f} | {ROUNDS} | {peaks[name]:.0f} |")
print("checkpointing lowers the peak:", peaks["checkpoint every block"] < peaks["no checkpointing"])
