# marks: slow
# timeout: 300
# method: interleaved -- a slow moment hits every implementation and length; saved bytes are counted once, untimed
import math
import statistics

import torch
import torch.nn.functional as F
from torch.utils import benchmark

torch.manual_seed(0)
THREADS, ROUNDS, HEADS, HEAD_DIM = torch.get_num_threads(), 7, 2, 64
LENGTHS = (512, 1024, 2048)


def hand_written(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return scores.softmax(dim=-1) @ v


implementations = {"hand-written": hand_written, "SDPA": F.scaled_dot_product_attention}


def saved_for_backward_mib(attention, q, k, v):
    inputs = {t.untyped_storage().data_ptr() for t in (q, k, v)}
    storages = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in inputs:
            storages[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        attention(q, k, v)
    return sum(storages.values()) / 2**20


def timers(attention, q, k, v):
    def forward():
        with torch.inference_mode():
            attention(q, k, v)

    def forward_backward():
        attention(q, k, v).sum().backward()

    return [benchmark.Timer("f()", globals={"f": f}, num_threads=THREADS) for f in (forward, forward_backward)]


variants = {}
for length in LENGTHS:
    q, k, v = (torch.randn(1, HEADS, length, HEAD_DIM, requires_grad=True) for _ in range(3))
    for name, attention in implementations.items():
        variants[f"{name}, L={length}"] = (timers(attention, q, k, v), saved_for_backward_mib(attention, q, k, v))

samples = {name: ([], []) for name in variants}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, (pair, _) in variants.items():
        for timer, kept in zip(pair, samples[name], strict=True):
            kept.append(timer.timeit(2).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | forward (ms) | IQR (ms) | forward + backward (ms) | IQR (ms) | runs | saved for backward (MiB) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, (_, saved) in variants.items():
    cells = []
    for series in samples[name]:
        q1, _, q3 = statistics.quantiles(series, n=4)
        cells += [f"{statistics.median(series):.3f}", f"{q3 - q1:.3f}"]
    print(f"| {name} | {' | '.join(cells)} | {ROUNDS} | {saved:.3f} |")
