# marks: cuda
# estimate: 15
# method: interleaved -- the three AdamW implementations alternate in rounds, each on its own identical model
import statistics

import torch
from torch import nn
from torch.utils import benchmark

ROUNDS = 10
implementations = {"for-loop (foreach=False)": {"foreach": False}, "foreach=True": {"foreach": True},
                   "fused=True": {"fused": True}}


def optimizer(options):
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(256, 256) for _ in range(100)]).cuda()  # 200 parameter tensors
    model(torch.randn(32, 256, device="cuda")).sum().backward()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, **options)
    opt.step()
    return opt


timers = {name: benchmark.Timer("step()", globals={"step": optimizer(options).step})
          for name, options in implementations.items()}
samples = {name: [] for name in implementations}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(20).mean * 1e3)

print("threads: 1")
print("| variant | optimizer.step() (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name in implementations:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.3f} | {q3 - q1:.4f} | {ROUNDS} |")
