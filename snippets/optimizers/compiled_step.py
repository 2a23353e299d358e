# marks: slow
# timeout: 420
# method: interleaved -- compiled, eager for-loop and eager fused steps on identical models alternate in Timer rounds
import statistics
import time

import torch
from torch import nn
from torch.utils import benchmark

THREADS, ROUNDS = torch.get_num_threads(), 10


def model_and_optimizer(layers, **options):
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(layers)])
    model(torch.randn(8, 64)).sum().backward()
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3, **options)


def first_call(step, model):
    start = time.perf_counter()
    step()
    seconds, tensors = time.perf_counter() - start, len(list(model.parameters()))
    print(f"first compiled call, {tensors} parameter tensors (traces and compiles): {seconds:.1f} s")


small_model, small_optimizer = model_and_optimizer(2)
first_call(torch.compile(small_optimizer.step), small_model)

model, optimizer = model_and_optimizer(50)  # 100 small parameter tensors, as in bench_optimizers.py
eager_model, eager_optimizer = model_and_optimizer(50)  # the defaults: the for-loop update on the CPU
fused_model, fused_optimizer = model_and_optimizer(50, fused=True)
compiled_step = torch.compile(optimizer.step)
first_call(compiled_step, model)
for step in range(3):
    if step:
        compiled_step()
    eager_optimizer.step()
    fused_optimizer.step()
difference = max((a - b).abs().max().item() for a, b in zip(model.parameters(), eager_model.parameters(), strict=True))
print("compiled and eager parameters after three steps equal within 1e-6:", difference < 1e-6)

steps = {"compiled step (for-loop update)": compiled_step, "eager step, defaults (for-loop)": eager_optimizer.step,
         "eager step, fused=True": fused_optimizer.step}
timers = {name: benchmark.Timer("step()", globals={"step": step}, num_threads=THREADS) for name, step in steps.items()}
samples = {name: [] for name in steps}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, timer in timers.items():
        samples[name].append(timer.timeit(20).mean * 1e3)
print(f"threads: {THREADS}; later calls, median of {ROUNDS} rounds of 20 steps:")
for name in steps:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"{name}: {statistics.median(samples[name]):.3f} ms (IQR {q3 - q1:.3f} ms)")
