# marks: cuda
# estimate: 20
# method: interleaved -- the four modes alternate in rounds on one model; each peak is measured afterwards, untimed
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
ROUNDS = 10
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).mean * 1e3)

print("threads: 1")
print("| variant | median (ms) | IQR (ms) | runs | peak memory (MiB) | kept after forward (MiB) |")
print("|---|---:|---:|---:|---:|---:|")
for name, forward in variants.items():
    peak, kept = peak_mib(forward)
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    median = statistics.median(samples[name])
    print(f"| {name} | {median:.3f} | {q3 - q1:.3f} | {ROUNDS} | {peak:.0f} | {kept:.0f} |")
