# marks: slow
# timeout: 300
import os
import tempfile
import time

import torch
from torch.utils import benchmark


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def first_call_ms(fn, x):
    start = time.perf_counter()
    fn(x)
    return (time.perf_counter() - start) * 1e3


def steady_us(fn, x):
    timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x})
    return timer.blocked_autorange(min_run_time=0.5).median * 1e6


torch.manual_seed(0)
x = torch.randn(1024, 1024)
threads = torch.get_num_threads()
torch.set_num_threads(1)  # one thread for eager and compiled code alike, as Timer measures
rows = [("eager", first_call_ms(gelu_tanh, x), steady_us(gelu_tanh, x))]

with tempfile.TemporaryDirectory() as cache:
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    try:
        for name in ("torch.compile, empty cache", "torch.compile again, warm cache"):
            torch._dynamo.reset()
            compiled = torch.compile(gelu_tanh)
            rows.append((name, first_call_ms(compiled, x), steady_us(compiled, x)))
    finally:
        del os.environ["TORCHINDUCTOR_CACHE_DIR"]
        torch._dynamo.reset()
        torch.set_num_threads(threads)

print("| variant | first call (ms) | steady-state median (us) |")
print("|---|---|---|")
for name, first, steady in rows:
    print(f"| {name} | {first:.1f} | {steady:.1f} |")
