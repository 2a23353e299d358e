# marks: slow
# timeout: 120
# method: interleaved -- both variants alternate in rounds on the same blocks; saved bytes are counted after
import statistics

import torch
from torch import nn
from torch.utils import benchmark
from torch.utils.checkpoint import checkpoint

WIDTH, DEPTH, BATCH = 256, 8, 64
THREADS, ROUNDS = torch.get_num_threads(), 10


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

variants = {"no checkpointing": False, "checkpoint every block": True}
timers = {
    name: benchmark.Timer(
        "step(blocks, x, use_checkpoint)",
        globals={"step": step, "blocks": blocks, "x": x, "use_checkpoint": use},
        num_threads=THREADS,
    )
    for name, use in variants.items()
}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits both variants
    for name, timer in timers.items():
        samples[name].append(timer.timeit(3).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | median step (ms) | IQR (ms) | runs | saved for backward (MiB) |")
print("|---|---:|---:|---:|---:|")
for name, use in variants.items():
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    median = statistics.median(samples[name])
    print(f"| {name} | {median:.1f} | {q3 - q1:.2f} | {ROUNDS} | {saved_mib(blocks, x, use):.3f} |")
