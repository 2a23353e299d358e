# marks: cuda
# estimate: 40
import itertools
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
ROUNDS = 10
model = nn.Sequential(nn.Conv2d(3, 64, 7, padding=3), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1)).cuda()
sizes = itertools.count(96)  # a new input height at every call: every call is a new shape


def forward(fixed_shape):
    def run():
        height = 128 if fixed_shape else next(sizes)
        with torch.inference_mode():
            model(torch.randn(32, 3, height, 128, device="cuda"))
    return run


variants = {
    "benchmark=False, fixed shape": (False, True),
    "benchmark=True, fixed shape": (True, True),
    "benchmark=False, new shape every call": (False, False),
    "benchmark=True, new shape every call": (True, False),
}
timers = {name: benchmark.Timer("f()", globals={"f": forward(fixed)}) for name, (_, fixed) in variants.items()}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        torch.backends.cudnn.benchmark = variants[name][0]
        samples[name].append(timer.timeit(3).mean * 1e3)

print("GPU:", torch.cuda.get_device_name())
print("threads: 1")
print("| variant | forward (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.3f} | {q3 - q1:.3f} | {ROUNDS} |")
