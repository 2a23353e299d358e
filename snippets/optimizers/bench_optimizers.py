# timeout: 300
# method: interleaved -- the three AdamW implementations alternate in rounds; their operators are profiled once before
import statistics

import torch
from torch import nn
from torch.profiler import profile, record_function
from torch.utils import benchmark

THREADS, ROUNDS = torch.get_num_threads(), 10
implementations = {"for-loop (foreach=False)": {"foreach": False}, "foreach=True": {"foreach": True},
                   "fused=True": {"fused": True}}


def model_and_optimizer(options):
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(50)])  # 100 small parameter tensors
    model(torch.randn(8, 64)).sum().backward()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, **options)
    optimizer.step()  # the first step also creates the optimizer's state
    return model, optimizer


def operators_called(event):
    """The aten operators dispatched from Python under `event` (not those they call in turn)."""
    for child in event.cpu_children:
        yield from [child.name] if child.name.startswith("aten::") else operators_called(child)


setups = {name: model_and_optimizer(options) for name, options in implementations.items()}
with profile() as prof:
    for name, (_, optimizer) in setups.items():
        with record_function(name):
            optimizer.step()
operators = {event.name: list(operators_called(event)) for event in prof.events() if event.name in setups}
models = [model for model, _ in setups.values()]
print("same parameters after two steps (atol=1e-6):",
      all(torch.allclose(a, b, atol=1e-6) for m in models[1:]
          for a, b in zip(models[0].parameters(), m.parameters(), strict=True)))

timers = {name: benchmark.Timer("step()", globals={"step": optimizer.step}, num_threads=THREADS)
          for name, (_, optimizer) in setups.items()}
samples = {name: [] for name in setups}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, timer in timers.items():
        samples[name].append(timer.timeit(10).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | optimizer.step() (ms) | IQR (ms) | runs | operators per step | of which aten::item |")
print("|---|---:|---:|---:|---:|---:|")
for name in setups:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    called = operators[name]
    print(f"| {name} | {statistics.median(samples[name]):.3f} | {q3 - q1:.4f} | {ROUNDS} | {len(called)} "
          f"| {called.count('aten::item')} |")
