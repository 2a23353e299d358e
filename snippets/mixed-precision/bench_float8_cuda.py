# marks: cuda torchao slow
# estimate: 200
# method: interleaved -- each variant its own model, compiled with dynamic=False once before timing
# Needs torchao and a CUDA GPU of compute capability 8.9 or newer (Ada, Hopper, Blackwell).
import statistics

import torch
from torch import nn
from torch.utils import benchmark
from torchao.float8 import Float8LinearConfig, convert_to_float8_training

ROUNDS = 10
SHAPES = {"large": (8192, 4096, 16384), "small": (1024, 1024, 1024)}  # tokens, model width, hidden width
VARIANTS = {"large": ("bfloat16", "float8 tensorwise", "float8 rowwise"), "small": ("bfloat16", "float8 tensorwise")}


def make_step(shape, variant):
    tokens, width, hidden = shape
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(width, hidden), nn.GELU(), nn.Linear(hidden, width)).to("cuda", torch.bfloat16)
    if variant != "bfloat16":
        recipe = variant.removeprefix("float8 ")
        convert_to_float8_training(model, config=Float8LinearConfig.from_recipe_name(recipe))
    compiled = torch.compile(model, dynamic=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
    x = torch.randn(tokens, width, device="cuda", dtype=torch.bfloat16)

    def step():
        optimizer.zero_grad(set_to_none=True)
        compiled(x).float().pow(2).mean().backward()
        optimizer.step()

    for _ in range(3):
        step()
    return step


timers = {f"{variant} {size}": benchmark.Timer("step()", globals={"step": make_step(SHAPES[size], variant)})
          for size, variants in VARIANTS.items() for variant in variants}
samples = {name: [] for name in timers}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).mean * 1e3)

print("threads: 1")
print("| variant | train step (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name, times in samples.items():
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| {name} | {statistics.median(times):.3f} | {q3 - q1:.3f} | {ROUNDS} |")
