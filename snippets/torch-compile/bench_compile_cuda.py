# marks: cuda slow
# timeout: 600
# estimate: 240
import statistics
import time

import torch
from torch import nn
from torch.utils import benchmark

ROUNDS = 10


def first_call_ms(fn, x):
    torch.cuda.synchronize()
    start = time.perf_counter()
    fn(x)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


def steady_us(fn, x):
    timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x})
    return [timer.timeit(50).mean * 1e6 for _ in range(ROUNDS)]


torch.manual_seed(0)
layers = [module for _ in range(8) for module in (nn.Linear(512, 512), nn.GELU())]
model = nn.Sequential(*layers).cuda().eval()
x = torch.randn(64, 512, device="cuda")

rows = {}
with torch.no_grad():
    rows["eager"] = (first_call_ms(model, x), steady_us(model, x))
    for mode in ("default", "reduce-overhead", "max-autotune"):
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=mode)
        rows[f"mode={mode}"] = (first_call_ms(compiled, x), steady_us(compiled, x))
torch._dynamo.reset()

print("threads: 1")
print("| variant | first call (ms) | IQR (ms) | runs | steady state (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, (first, steady) in rows.items():
    q1, _, q3 = statistics.quantiles(steady, n=4)
    print(f"| {name} | {first:.1f} | — | 1 | {statistics.median(steady):.2f} | {q3 - q1:.2f} | {ROUNDS} |")
