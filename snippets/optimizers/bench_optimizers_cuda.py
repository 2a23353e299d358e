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


def model_and_optimizer(options):
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(256, 256) for _ in range(100)]).cuda()  # 200 parameter tensors
    model(torch.randn(32, 256, device="cuda")).sum().backward()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, **options)
    opt.step()
    return model, opt


setups = {name: model_and_optimizer(options) for name, options in implementations.items()}
models = [model for model, _ in setups.values()]
print("same parameters after one step (atol=1e-6):",
      all(torch.allclose(a, b, atol=1e-6) for m in models[1:]
          for a, b in zip(models[0].parameters(), m.parameters(), strict=True)))
timers = {name: benchmark.Timer("step()", globals={"step": opt.step}) for name, (_, opt) in setups.items()}
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
