# marks: cuda
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(
    nn.Linear(4096, 16384), nn.GELU(), nn.Dropout(0.1),
    nn.Linear(16384, 16384), nn.GELU(), nn.Dropout(0.1),
    nn.Linear(16384, 4096),
).to(device)
x = torch.randn(1024, 4096, device=device)


def variant(train, context):
    def forward():
        model.train(train)
        with context():
            return model(x)
    return forward


def peak_mib(forward):
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    out = forward()
    torch.cuda.synchronize()
    kept = torch.cuda.memory_allocated() - before
    del out
    return (torch.cuda.max_memory_allocated() - before) / 2**20, kept / 2**20


variants = {
    "train()": variant(True, torch.enable_grad),
    "eval()": variant(False, torch.enable_grad),
    "eval() + no_grad()": variant(False, torch.no_grad),
    "eval() + inference_mode()": variant(False, torch.inference_mode),
}
timers = {name: benchmark.Timer("forward()", globals={"forward": f}) for name, f in variants.items()}
samples = {name: [] for name in variants}
for _ in range(5):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).median)

print("| variant | median (ms) | peak memory (MiB) | kept after forward (MiB) |")
print("|---|---:|---:|---:|")
for name, forward in variants.items():
    peak, kept = peak_mib(forward)
    print(f"| {name} | {statistics.median(samples[name]) * 1e3:.2f} | {peak:.0f} | {kept:.0f} |")
