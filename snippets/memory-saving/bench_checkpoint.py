# marks: slow
# timeout: 300
# method: interleaved -- the three variants alternate in rounds on the same blocks; saved bytes are counted after
import functools
import statistics

import torch
from torch import nn
from torch.utils import benchmark
from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

WIDTH, DEPTH, BATCH = 256, 8, 64
THREADS, ROUNDS = torch.get_num_threads(), 10
MATMULS = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default, torch.ops.aten.bmm.default}


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))

    def forward(self, x):
        return x + self.net(x)


def keep_matmuls(ctx, op, *args, **kwargs):
    return CheckpointPolicy.MUST_SAVE if op in MATMULS else CheckpointPolicy.PREFER_RECOMPUTE


def forward(blocks, x, use_checkpoint, policy=keep_matmuls):
    """use_checkpoint: False, True (every block), or "selective" (every block, matmul outputs kept)."""
    extra = {"context_fn": functools.partial(create_selective_checkpoint_contexts, policy)}
    for block in blocks:
        if use_checkpoint:
            x = checkpoint(block, x, use_reentrant=False, **(extra if use_checkpoint == "selective" else {}))
        else:
            x = block(x)
    return x.pow(2).mean()


def saved_mib(blocks, x, use_checkpoint):
    """Bytes kept alive for the backward pass, parameters excluded: what autograd saves, and what
    selective checkpointing caches (the outputs its policy keeps, which autograd's hooks do not see)."""
    params = {p.untyped_storage().data_ptr() for p in blocks.parameters()}
    saved = {}

    def note(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in params:
            saved[storage.data_ptr()] = storage.nbytes()

    def pack(tensor):
        note(tensor)
        return tensor

    def noting_policy(ctx, op, *args, **kwargs):
        decision = keep_matmuls(ctx, op, *args, **kwargs)
        if decision == CheckpointPolicy.MUST_SAVE:
            note(ctx.op_output)
        return decision

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        loss = forward(blocks, x, use_checkpoint, noting_policy)
    loss.backward()
    return sum(saved.values()) / 2**20


def step(blocks, x, use_checkpoint):
    blocks.zero_grad()
    forward(blocks, x, use_checkpoint).backward()


torch.manual_seed(0)
blocks = nn.ModuleList(Block() for _ in range(DEPTH))
x = torch.randn(BATCH, WIDTH)

variants = {"no checkpointing": False, "checkpoint every block": True, "selective checkpoint": "selective"}
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
