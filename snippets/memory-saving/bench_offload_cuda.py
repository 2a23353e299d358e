# marks: cuda
# estimate: 20
# method: interleaved -- both alternate in rounds on the same blocks; each peak is measured after, from a reset counter
import contextlib
import statistics

import torch
from torch import nn
from torch.utils import benchmark

WIDTH, DEPTH, BATCH, ROUNDS = 2048, 4, 4096, 8


def block():
    return nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))


def step(blocks, x, offload):
    blocks.zero_grad()
    with torch.autograd.graph.save_on_cpu(pin_memory=True) if offload else contextlib.nullcontext():
        for layer in blocks:
            x = x + layer(x)
        loss = x.pow(2).mean()
    loss.backward()


def peak_mib(offload):
    # allocated bytes at the peak, above those held before the step (parameters, input)
    blocks.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    step(blocks, x, offload)
    torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - before) / 2**20


torch.manual_seed(0)
blocks = nn.ModuleList(block() for _ in range(DEPTH)).cuda()
x = torch.randn(BATCH, WIDTH, device="cuda")
variants = {"no offloading": False, "save_on_cpu(pin_memory=True)": True}
THREADS = 1  # the step runs on the GPU; one host thread launches it
timers = {
    name: benchmark.Timer(
        "step(blocks, x, offload)", globals={"step": step, "blocks": blocks, "x": x, "offload": on}, num_threads=THREADS
    )
    for name, on in variants.items()
}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):  # Timer synchronizes CUDA around each measurement
    for name, timer in timers.items():
        samples[name].append(timer.timeit(2).mean * 1e3)

print(f"threads: {THREADS}")
peaks = {name: peak_mib(on) for name, on in variants.items()}
print("| variant | median step (ms) | IQR (ms) | runs | peak above pre-step (MiB) |")
print("|---|---:|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.2f} | {q3 - q1:.3f} | {ROUNDS} | {peaks[name]:.0f} |")
print("offloading lowers the peak:", peaks["save_on_cpu(pin_memory=True)"] < peaks["no offloading"])
